/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CastTess against the oracle: every FP16 and every BF16 pattern, FP32
 * special classes and random patterns, the same in non-default FP
 * environments; the BF16 pad16 worked example byte by byte; the layout
 * matrix; and one rejection per rule.
 */
#include <simaai/kernels/a65/casttess.h>

#include <stdlib.h>
#include <string.h>

#include "fpenv_util.h"
#include "oracle.h"
#include "pack_matrix.h"
#include "status_expect.h"
#include "tap.h"
#include "test_util.h"

static SimaStatus
cast_run (const void *ctx, const SimaTensorSpec *in, const void *in_data,
    uint64_t in_cap, const SimaTensorSpec *out, void *out_data,
    uint64_t out_cap)
{
  SimaCastTessRequest req = { in, 1, out, 1 };
  SimaCastTessPlan plan;
  SimaA65CastTessPlan a65;
  SimaStatus st = sima_casttess_check_inference (&req, &plan);

  (void) ctx;
  if (st.code == SIMA_OK)
    st = sima_a65_casttess_prepare (&plan, &a65);
  if (st.code == SIMA_OK) {
    SimaConstHostBuffer ib = { in_data, in_cap };
    SimaHostBuffer ob = { out_data, out_cap };
    st = sima_a65_casttess_execute (&a65, &ib, 1, &ob, 1);
  }
  return st;
}

static void
cast_oracle (const void *ctx, const SimaTensorSpec *in, const void *in_data,
    const SimaTensorSpec *out, uint8_t *want)
{
  (void) ctx;
  oracle_casttess (in, in_data, out, want);
}

/* ---- numerics ------------------------------------------------------------
 * Rank 1, C tiles of 8 compact channels: tile i/8 is 16 bytes, 8 low bytes
 * then 8 high bytes, so element i's BF16 value is easy to read back. */

static uint16_t
flat_value (const uint8_t *tiles, int64_t i)
{
  const uint8_t *t = tiles + (i / 8) * 16;
  return (uint16_t) (t[i % 8] | t[8 + i % 8] << 8);
}

static SimaStatus
cast_flat (SimaDType dtype, const void *data, int64_t n, uint8_t *out)
{
  static const int8_t axes[4] = { -1, -1, -1, 0 };
  static const int64_t tile[4] = { 1, 1, 1, 8 };
  SimaTensorSpec in = test_spec_dense (dtype, 1, &n);
  SimaTensorSpec o = test_spec_tiled (SIMA_DTYPE_BFLOAT16, 1, &n, axes, tile,
      SIMA_CHANNELS_COMPACT);
  return cast_run (NULL, &in, data, (uint64_t) n * (uint64_t)
      sima_dtype_size (dtype), &o, out, (uint64_t) n * 2);
}

static uint16_t
oracle_value (SimaDType dtype, const void *data, int64_t i)
{
  if (dtype == SIMA_DTYPE_FLOAT32)
    return oracle_bf16_from_f32_bits (((const uint32_t *) data)[i]);
  if (dtype == SIMA_DTYPE_FLOAT16)
    return oracle_bf16_from_f16_bits (((const uint16_t *) data)[i]);
  return ((const uint16_t *) data)[i];
}

/* Casts n values (n a multiple of 8) in environment env; returns the
 * number of results that differ from the oracle (computed in the default
 * environment), or n + 1 when the call fails. */
static uint64_t
count_mismatches (SimaDType dtype, const void *data, int64_t n, TestFpEnv env)
{
  uint8_t *out = aligned_alloc (16, (size_t) n * 2);
  uint16_t *want = malloc (sizeof (uint16_t) * (size_t) n);
  uint64_t bad = 0;
  SimaStatus st;
  int64_t i;

  for (i = 0; i < n; i++)
    want[i] = oracle_value (dtype, data, i);
  test_fpenv_enter (env);
  st = cast_flat (dtype, data, n, out);
  test_fpenv_leave ();
  if (st.code != SIMA_OK) {
    tap_diag ("cast failed: %s", st.message);
    bad = (uint64_t) n + 1;
  } else {
    for (i = 0; i < n; i++) {
      if (flat_value (out, i) == want[i])
        continue;
      if (bad++ < 8)
        tap_diag ("%s input %#x: got %#06x, oracle %#06x (%s)",
            sima_dtype_name (dtype), dtype == SIMA_DTYPE_FLOAT32
            ? ((const uint32_t *) data)[i] : ((const uint16_t *) data)[i],
            flat_value (out, i), want[i], test_fpenv_name (env));
    }
  }
  free (out);
  free (want);
  return bad;
}

static void
numerics (void)
{
  static const uint32_t low_halves[] = { 0x0000, 0x0001, 0x7fff, 0x8000,
    0x8001, 0xffff };
  const int64_t n16 = 65536, n_classes = 65536 * 6, n_random = 4000000;
  uint16_t *v16 = malloc (sizeof (uint16_t) * (size_t) n16);
  uint32_t *vc = malloc (sizeof (uint32_t) * (size_t) n_classes);
  uint32_t *vr = malloc (sizeof (uint32_t) * (size_t) n_random);
  TestRng rng = { 0xca57 };
  uint64_t bad;
  int64_t i;
  int e;

  for (i = 0; i < n16; i++)
    v16[i] = (uint16_t) i;
  bad = count_mismatches (SIMA_DTYPE_FLOAT16, v16, n16, TEST_FPENV_DEFAULT);
  tap_ok (bad == 0, "exhaustive FP16 -> BF16: 65536 cases, %llu mismatches",
      (unsigned long long) bad);
  bad = count_mismatches (SIMA_DTYPE_BFLOAT16, v16, n16, TEST_FPENV_DEFAULT);
  tap_ok (bad == 0, "exhaustive BF16 -> BF16 (bit-preserving): 65536 cases, "
      "%llu mismatches", (unsigned long long) bad);

  /* Every upper half (so every sign, exponent and NaN/inf class) with low
   * halves at and around the rounding tie and the wrap-around. */
  for (i = 0; i < n_classes; i++)
    vc[i] = (uint32_t) (i / 6) << 16 | low_halves[i % 6];
  bad = count_mismatches (SIMA_DTYPE_FLOAT32, vc, n_classes,
      TEST_FPENV_DEFAULT);
  tap_ok (bad == 0, "FP32 -> BF16, every upper half x low halves {0, 1, "
      "0x7fff, 0x8000, 0x8001, 0xffff} (all special classes, ties, NaN "
      "wrap): %lld cases, %llu mismatches", (long long) n_classes,
      (unsigned long long) bad);
  for (i = 0; i < n_random; i++)
    vr[i] = (uint32_t) test_rng_next (&rng);
  bad = count_mismatches (SIMA_DTYPE_FLOAT32, vr, n_random,
      TEST_FPENV_DEFAULT);
  tap_ok (bad == 0, "FP32 -> BF16 random patterns: %lld cases, %llu "
      "mismatches", (long long) n_random, (unsigned long long) bad);

  for (e = TEST_FPENV_UPWARD; e < TEST_FPENV_COUNT; e++) {
    bad = count_mismatches (SIMA_DTYPE_FLOAT16, v16, n16, (TestFpEnv) e)
        + count_mismatches (SIMA_DTYPE_FLOAT32, vc, n_classes, (TestFpEnv) e);
    tap_ok (bad == 0, "results unchanged under %s (all FP16, FP32 classes): "
        "%lld cases, %llu mismatches", test_fpenv_name ((TestFpEnv) e),
        (long long) (n16 + n_classes), (unsigned long long) bad);
  }
  free (v16);
  free (vc);
  free (vr);
}

static void
worked_example (void)
{
  static const int64_t shape[2] = { 2, 3 };
  static const int8_t axes[4] = { -1, -1, 0, 1 };
  static const int64_t tile[4] = { 1, 1, 2, 3 };
  /* BF16 patterns with distinct bytes, cast bit-preservingly */
  static const uint16_t x[6] = { 0x1101, 0x2202, 0x3303, 0x4404, 0x5505,
    0x6606 };
  SimaTensorSpec in = test_spec_dense (SIMA_DTYPE_BFLOAT16, 2, shape);
  SimaTensorSpec out = test_spec_tiled (SIMA_DTYPE_BFLOAT16, 2, shape, axes,
      tile, SIMA_CHANNELS_PAD16);
  uint8_t want[64], got[80] __attribute__ ((aligned (16)));
  SimaStatus st;
  int px, c;

  memset (want, 0, sizeof want);
  for (px = 0; px < 2; px++) {
    for (c = 0; c < 3; c++) {
      want[px * 32 + c] = (uint8_t) x[px * 3 + c];             /* low */
      want[px * 32 + 16 + c] = (uint8_t) (x[px * 3 + c] >> 8); /* high */
    }
  }
  memset (got, 0xA5, sizeof got);
  st = cast_run (NULL, &in, x, sizeof x, &out, got, 64);
  tap_ok (st.code == SIMA_OK && memcmp (got, want, 64) == 0 && got[64] == 0xA5,
      "worked example BF16 pad16: 64 bytes, per pixel 16 low bytes then 16 "
      "high bytes, zero padding in both planes");
}

static void
rejections (void)
{
  static const int64_t shape[2] = { 2, 3 };
  static const int8_t axes[4] = { -1, -1, 0, 1 };
  static const int64_t tile[4] = { 1, 1, 2, 3 };
  SimaTensorSpec in = test_spec_dense (SIMA_DTYPE_FLOAT32, 2, shape);
  SimaTensorSpec out = test_spec_tiled (SIMA_DTYPE_BFLOAT16, 2, shape, axes,
      tile, SIMA_CHANNELS_COMPACT);
  SimaCastTessRequest req = { &in, 1, &out, 1 };
  SimaCastTessPlan plan;
  SimaA65CastTessPlan a65;
  uint8_t buf[96] __attribute__ ((aligned (16)));

  expect_status ("valid request", sima_casttess_check_inference (&req, &plan),
      SIMA_OK, NULL);
  tap_ok (plan.output_bytes == 16 && plan.input_bytes == 24,
      "BF16 compact {2,3}: 12 payload bytes in a 16-byte span");
  out.dtype = SIMA_DTYPE_FLOAT16;
  expect_status ("FP16 output", sima_casttess_check_inference (&req, &plan),
      SIMA_UNSUPPORTED_DTYPE, "CastTess output dtype is float16",
      "must be bfloat16", NULL);
  out.dtype = SIMA_DTYPE_BFLOAT16;
  in.dtype = SIMA_DTYPE_INT8;
  expect_status ("INT8 input", sima_casttess_check_inference (&req, &plan),
      SIMA_UNSUPPORTED_DTYPE, "CastTess input dtype is int8",
      "must be float32, float16, bfloat16 or uint8", NULL);
  in.dtype = SIMA_DTYPE_INT16;  /* described, read by no operation */
  expect_status ("INT16 input", sima_casttess_check_inference (&req, &plan),
      SIMA_UNSUPPORTED_DTYPE, "CastTess input dtype is int16", NULL);
  in.dtype = SIMA_DTYPE_UINT8;  /* camera pixels: admitted, 1-byte scalars */
  expect_status ("UINT8 input", sima_casttess_check_inference (&req, &plan),
      SIMA_OK, NULL);
  tap_ok (plan.input_bytes == 6, "UINT8 {2,3} input needs 6 bytes");
  in.dtype = SIMA_DTYPE_FLOAT32;
  out.layout = SIMA_LAYOUT_MLA_CBLOCKED;
  expect_status ("CBlocked output", sima_casttess_check_inference (&req, &plan),
      SIMA_UNSUPPORTED_LAYOUT, "output layout is mla-cblocked", NULL);
  out.layout = SIMA_LAYOUT_MLA_TILED;
  in.layout = SIMA_LAYOUT_STRIDED;
  in.strides_bytes[0] = 8;
  in.strides_bytes[1] = 4;
  expect_status ("overlapping input strides",
      sima_casttess_check_inference (&req, &plan), SIMA_OVERLAPPING_STRIDES,
      "axis 0 is 8 bytes", NULL);
  in.strides_bytes[0] = 12;
  in.strides_bytes[1] = 2;
  expect_status ("misaligned input stride",
      sima_casttess_check_inference (&req, &plan), SIMA_INVALID_STRIDES,
      "axis 1 is 2 bytes, not a multiple of the 4-byte scalar", NULL);
  in.layout = SIMA_LAYOUT_CONTIGUOUS;
  out.shape[0] = 3;
  expect_status ("shape mismatch", sima_casttess_check_inference (&req, &plan),
      SIMA_SHAPE_MISMATCH, "axis 0 is 2 but output extent is 3", NULL);
  out.shape[0] = 2;
  out.tiled.axes[1] = 1;
  expect_status ("duplicate axis", sima_casttess_check_inference (&req, &plan),
      SIMA_INVALID_TILING, "mapped to both", NULL);
  out.tiled.axes[1] = -1;

  sima_casttess_check_inference (&req, &plan);
  sima_a65_casttess_prepare (&plan, &a65);
  {
    SimaConstHostBuffer ib = { buf + 64, 24 };
    SimaHostBuffer ob = { buf, 15 };
    expect_status ("output capacity short by one",
        sima_a65_casttess_execute (&a65, &ib, 1, &ob, 1),
        SIMA_CAPACITY_TOO_SMALL, "output capacity is 15 bytes, 16 required",
        NULL);
    ob.capacity = 16;
    ob.data = buf + 8;
    expect_status ("misaligned output",
        sima_a65_casttess_execute (&a65, &ib, 1, &ob, 1),
        SIMA_MISALIGNED_BUFFER, "not 16-byte aligned", NULL);
    ib.data = buf + 72;
    ob.data = buf + 64;   /* [64, 80) against [72, 96) */
    expect_status ("overlapping input and output",
        sima_a65_casttess_execute (&a65, &ib, 1, &ob, 1),
        SIMA_OVERLAPPING_BUFFERS, "overlap", NULL);
    ib.data = buf + 66;
    ob.data = buf;
    expect_status ("misaligned input",
        sima_a65_casttess_execute (&a65, &ib, 1, &ob, 1),
        SIMA_MISALIGNED_BUFFER, "input address", "4-byte", NULL);
  }
}

int
main (void)
{
  static const SimaDType dtypes[3] = { SIMA_DTYPE_FLOAT32, SIMA_DTYPE_FLOAT16,
    SIMA_DTYPE_BFLOAT16 };
  PackOp op = { SIMA_DTYPE_BFLOAT16, cast_run, cast_oracle, 1.0f, NULL };

  numerics ();
  worked_example ();
  pack_matrix_run ("CastTess", &op, dtypes, 3, 0xca57, NULL, NULL);
  rejections ();
  return tap_done ();
}
