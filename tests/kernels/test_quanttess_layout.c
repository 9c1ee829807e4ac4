/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * QuantTess placement against the oracle: the worked examples byte by byte,
 * then a matrix of ranks 1-6 x every channel-axis position x C in
 * {1,2,3,16,17,32,33} x compact/pad16 x input views (contiguous, pitched,
 * permuted, channel-strided) with random D/H/W mappings and tile extents.
 * Every case checks the whole output, guard bytes on both sides, that input
 * holes are neither read as values nor written, and dirty output reuse.
 */
#include <simaai/kernels/a65/quanttess.h>

#include <stdlib.h>
#include <string.h>

#include "pack_matrix.h"
#include "oracle.h"
#include "tap.h"
#include "test_util.h"

static SimaStatus
run (const SimaTensorSpec *in, const void *in_data, uint64_t in_cap,
    const SimaTensorSpec *out, void *out_data, uint64_t out_cap,
    SimaQuantTessParams params, SimaQuantTessPlan *plan_out)
{
  SimaQuantTessRequest req = { in, 1, out, 1, params };
  SimaQuantTessPlan plan;
  SimaA65QuantTessPlan a65;
  SimaStatus st = sima_quanttess_check_inference (&req, &plan);

  if (st.code == SIMA_OK)
    st = sima_a65_quanttess_prepare (&plan, &a65);
  if (st.code == SIMA_OK) {
    SimaConstHostBuffer ib = { in_data, in_cap };
    SimaHostBuffer ob = { out_data, out_cap };
    st = sima_a65_quanttess_execute (&a65, &ib, 1, &ob, 1);
  }
  if (plan_out)
    *plan_out = plan;
  return st;
}

static void
worked_examples (void)
{
  static const int64_t shape[2] = { 2, 3 };
  static const int8_t axes[4] = { -1, -1, 0, 1 };
  static const int64_t tile[4] = { 1, 1, 2, 3 };
  static const float x[6] = { 1, 2, 3, -1, -2, -3 };
  SimaTensorSpec in = test_spec_dense (SIMA_DTYPE_FLOAT32, 2, shape);
  SimaTensorSpec out;
  SimaQuantTessParams p = { 1.0f, 5, SIMA_ROUNDING_NEAREST_EVEN };
  uint8_t want[32], got[32] __attribute__ ((aligned (16)));
  SimaQuantTessPlan plan;
  SimaStatus st;
  int i;

  /* INT8 compact: w0 c0..c2, w1 c0..c2, then 10 gap bytes of raw 0 */
  out = test_spec_tiled (SIMA_DTYPE_INT8, 2, shape, axes, tile,
      SIMA_CHANNELS_COMPACT);
  memset (got, 0xA5, sizeof got);
  st = run (&in, x, 24, &out, got, 32, p, &plan);
  memset (want, 0, sizeof want);
  for (i = 0; i < 6; i++)
    want[i] = (uint8_t) (int8_t) (x[i] + 5);
  tap_ok (st.code == SIMA_OK && plan.output_bytes == 16
      && memcmp (got, want, 16) == 0 && got[16] == 0xA5,
      "worked example INT8 compact: 16 bytes, values then zero gap, byte 16 "
      "untouched");

  /* INT8 pad16: bytes 0-2 = w0, 3-15 = zero point, 16-18 = w1, 19-31 = zp */
  out.tiled.channels = SIMA_CHANNELS_PAD16;
  memset (got, 0xA5, sizeof got);
  st = run (&in, x, 24, &out, got, 32, p, &plan);
  memset (want, 5, sizeof want);
  for (i = 0; i < 3; i++) {
    want[i] = (uint8_t) (int8_t) (x[i] + 5);
    want[16 + i] = (uint8_t) (int8_t) (x[3 + i] + 5);
  }
  tap_ok (st.code == SIMA_OK && plan.output_bytes == 32
      && memcmp (got, want, 32) == 0,
      "worked example INT8 pad16: 32 bytes, zero-point channel padding");

  /* the seed's strided example: FP32 {2,3} strides {32,8} needs 52 bytes */
  {
    static const int64_t strides[2] = { 32, 8 };
    float src[13];
    SimaTensorSpec sin = test_spec_strided (SIMA_DTYPE_FLOAT32, 2, shape,
        strides);
    for (i = 0; i < 13; i++)
      src[i] = (float) i;
    st = run (&sin, src, 52, &out, got, 32, p, &plan);
    tap_ok (st.code == SIMA_OK && plan.input_bytes == 52
        && got[0] == 5 && got[1] == 7 && got[2] == 9 && got[16] == 13
        && got[17] == 15 && got[18] == 17,
        "strided FP32 {2,3} strides {32,8}: 52 bytes, elements 0,2,4,8,10,12");
    st = run (&sin, src, 51, &out, got, 32, p, NULL);
    tap_ok (st.code == SIMA_CAPACITY_TOO_SMALL,
        "strided example with 51 bytes is rejected: %s", st.message);
  }
}

static SimaStatus
quant_run (const void *ctx, const SimaTensorSpec *in, const void *in_data,
    uint64_t in_cap, const SimaTensorSpec *out, void *out_data,
    uint64_t out_cap)
{
  return run (in, in_data, in_cap, out, out_data, out_cap,
      *(const SimaQuantTessParams *) ctx, NULL);
}

static void
quant_oracle (const void *ctx, const SimaTensorSpec *in, const void *in_data,
    const SimaTensorSpec *out, uint8_t *want)
{
  const SimaQuantTessParams *p = ctx;
  oracle_quanttess (in, in_data, out, p->multiplier, p->zero_point,
      (int) p->rounding, want);
}

/* new parameters for every case of the matrix */
static void
vary_params (TestRng *rng, void *ctx)
{
  static const float mults[3] = { 1.0f, 0.3f, 64.0f };
  SimaQuantTessParams *p = ctx;
  p->multiplier = mults[test_rng_below (rng, 3)];
  p->zero_point = (int32_t) test_rng_range (rng, -128, 127);
  p->rounding = (SimaRounding) test_rng_below (rng, 4);
}

/* Named shapes the random matrix might only brush against. */
static void
named_cases (void)
{
  struct {
    const char *name;
    int rank;
    int64_t shape[6];
    int8_t axes[4];
    int64_t tile[4];
    SimaChannels mode;
    GenViewKind view;
  } cases[] = {
    { "RGB 224x224x3 H8/W16/C16 pad16", 3, { 224, 224, 3 }, { -1, 0, 1, 2 },
      { 1, 8, 16, 16 }, SIMA_CHANNELS_PAD16, GEN_VIEW_CONTIGUOUS },
    { "1x56x56x64 compact C16 tiles", 4, { 1, 56, 56, 64 }, { -1, 1, 2, 3 },
      { 1, 8, 16, 16 }, SIMA_CHANNELS_COMPACT, GEN_VIEW_CONTIGUOUS },
    { "NCHW channels-first view, partial H/W/C tiles", 4, { 2, 33, 13, 11 },
      { -1, 2, 3, 1 }, { 1, 4, 8, 16 }, SIMA_CHANNELS_PAD16,
      GEN_VIEW_PERMUTED },
    { "rank 6, D/H/W/C all partial, two outer axes", 6, { 2, 3, 5, 6, 7, 17 },
      { 2, 3, 4, 5 }, { 2, 4, 4, 16 }, SIMA_CHANNELS_COMPACT,
      GEN_VIEW_PITCHED },
    { "tiles larger than every dimension", 3, { 3, 5, 7 }, { -1, 0, 1, 2 },
      { 1, 8, 16, 16 }, SIMA_CHANNELS_COMPACT, GEN_VIEW_CHANNEL_STRIDE },
    { "C only, 1000 channels, C tile 96", 1, { 1000 }, { -1, -1, -1, 0 },
      { 1, 1, 1, 96 }, SIMA_CHANNELS_PAD16, GEN_VIEW_CONTIGUOUS },
  };
  TestRng rng = { 99 };
  size_t i;

  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    GenTiling gt;
    PackTally t;
    static const SimaQuantTessParams p = { 0.3f, -7,
      SIMA_ROUNDING_TOWARD_NEGATIVE };
    PackOp op = { SIMA_DTYPE_INT8, quant_run, quant_oracle, 0.3f, &p };
    int ok;
    memset (&t, 0, sizeof t);
    gt.rank = cases[i].rank;
    memcpy (gt.shape, cases[i].shape, sizeof gt.shape);
    memcpy (gt.tiled.axes, cases[i].axes, 4);
    memcpy (gt.tiled.tile_shape, cases[i].tile, sizeof gt.tiled.tile_shape);
    gt.tiled.channels = cases[i].mode;
    ok = pack_matrix_case (&rng, &op, &gt, SIMA_DTYPE_FLOAT32,
        cases[i].view, &t);
    tap_ok (ok, "%s (%s view): %llu bytes match the oracle", cases[i].name,
        gen_view_kind_name (cases[i].view), (unsigned long long) t.bytes);
  }
}

static void
empty_tensors (void)
{
  static const int64_t shape[3] = { 4, 0, 3 };
  static const int64_t huge[3] = { INT64_C (1) << 62, 0, INT64_C (1) << 62 };
  static const int8_t axes[4] = { -1, 0, 1, 2 };
  static const int64_t tile[4] = { 1, 8, 16, 16 };
  static const int64_t strides[3] = { 12, 0, 4 };
  SimaQuantTessParams p = { 1.0f, 3, SIMA_ROUNDING_NEAREST_EVEN };
  SimaTensorSpec in = test_spec_strided (SIMA_DTYPE_FLOAT32, 3, shape, strides);
  SimaTensorSpec out = test_spec_tiled (SIMA_DTYPE_INT8, 3, shape, axes, tile,
      SIMA_CHANNELS_PAD16);
  SimaQuantTessPlan plan;
  uint8_t sentinel[16] __attribute__ ((aligned (16)));
  SimaStatus st;

  st = run (&in, NULL, 0, &out, NULL, 0, p, &plan);
  tap_ok (st.code == SIMA_OK && plan.input_bytes == 0
      && plan.output_bytes == 0, "empty tensor: 0 bytes, NULL views: %s",
      st.message);
  memset (sentinel, 0x77, sizeof sentinel);
  st = run (&in, sentinel, 16, &out, sentinel, 16, p, NULL);
  tap_ok (st.code == SIMA_OK && sentinel[0] == 0x77 && sentinel[15] == 0x77,
      "empty tensor writes nothing");
  in.strides_bytes[2] = -4;
  st = run (&in, NULL, 0, &out, NULL, 0, p, NULL);
  tap_ok (st.code == SIMA_INVALID_STRIDES, "empty tensor still checks "
      "stride signs: %s", st.message);
  in.strides_bytes[2] = 2;
  st = run (&in, NULL, 0, &out, NULL, 0, p, NULL);
  tap_ok (st.code == SIMA_INVALID_STRIDES, "empty tensor still checks "
      "stride alignment: %s", st.message);
  in = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, huge);
  out = test_spec_tiled (SIMA_DTYPE_INT8, 3, huge, axes, tile,
      SIMA_CHANNELS_PAD16);
  st = run (&in, NULL, 0, &out, NULL, 0, p, &plan);
  tap_ok (st.code == SIMA_OK && plan.output_bytes == 0,
      "empty tensor with huge other extents does not overflow: %s",
      st.message);
}

int
main (void)
{
  worked_examples ();
  named_cases ();
  empty_tensors ();
  {
    static const SimaDType dtypes[3] = { SIMA_DTYPE_FLOAT32,
      SIMA_DTYPE_FLOAT16, SIMA_DTYPE_BFLOAT16 };
    SimaQuantTessParams p = { 1.0f, 0, SIMA_ROUNDING_NEAREST_EVEN };
    PackOp op = { SIMA_DTYPE_INT8, quant_run, quant_oracle, 1.0f, &p };
    pack_matrix_run ("QuantTess", &op, dtypes, 3, 0x1a70, vary_params, &p);
  }
  return tap_done ();
}
