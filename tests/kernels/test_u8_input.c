/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * UINT8 input (8-bit camera pixels) for QuantTess and CastTess, through the
 * public A65 API:
 *  - QuantTess numerics, exhaustive: all 256 values x 4 roundings x zero
 *    points {-128, -1, 0, 1, 127} x multipliers (normal, powers of two,
 *    subnormal, SiMa's preproc 255.0697f / 255, ones that saturate),
 *    against an expectation computed here in double arithmetic with a
 *    nearest-even binary32 rounder of this file's own, and against the
 *    oracle; the same bytes as FP32 input holding the same integers (the
 *    rule is FP32's from the product on); the same under directed rounding
 *    and FTZ+DAZ;
 *  - CastTess: all 256 values against the BF16 of the integer (computed
 *    here by widening to double and cutting bits; checked to be exact) and
 *    the oracle, in every FP environment;
 *  - a layout matrix for both: ranks 1-6 x every channel-axis position x C
 *    in {1,3,4,16,17} x compact / pad16 / pad16 cblock x views:
 *    contiguous, interleaved pixels with holes between them (RGBx-like, the
 *    channel axis innermost, 1-5 hole bytes per pixel, pitched rows),
 *    permuted, channel-strided; guard bytes, random hole contents, input
 *    unchanged, dirty reuse; named camera frames (RGB 224x224 and
 *    1080x1920 pad16 H8/W16/C16, RGBx, GRAY8, cblock).
 */
#include <simaai/kernels/a65/casttess.h>
#include <simaai/kernels/a65/quanttess.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fpenv_util.h"
#include "layout_gen.h"
#include "oracle.h"
#include "tap.h"
#include "test_util.h"

/* ---- the expectation of this file ------------------------------------- */

/* v (> 0, finite, a double that is exact) rounded to binary32, nearest
 * even, subnormals and overflow included; returned as a double (inf on
 * overflow). Quantum-based: the binary32 quantum of v's binade, never
 * below 2^-149; v / quantum is exact in double (a power-of-two scaling of
 * a value with at most 32 significant bits). */
static double
round_binary32 (double v)
{
  int e;
  double q, fl, diff, r;
  int quantum;

  frexp (v, &e);                /* v = f * 2^e, 0.5 <= f < 1 */
  quantum = e - 24 < -149 ? -149 : e - 24;
  q = ldexp (v, -quantum);
  fl = floor (q);
  diff = q - fl;
  if (diff > 0.5 || (diff == 0.5 && fmod (fl, 2.0) != 0.0))
    fl += 1.0;
  r = ldexp (fl, quantum);
  return r >= ldexp (1.0, 128) ? INFINITY : r;
}

/* round_selected of a nonnegative binary32 value held in a double. */
static double
round_mode (double p, int rounding)
{
  double fl = floor (p), diff = p - fl;

  switch (rounding) {
    case SIMA_ROUNDING_TOWARD_ZERO:
    case SIMA_ROUNDING_TOWARD_NEGATIVE:
      return fl;                /* p >= 0 */
    case SIMA_ROUNDING_TOWARD_POSITIVE:
      return ceil (p);
    default:
      return diff > 0.5 || (diff == 0.5 && fmod (fl, 2.0) != 0.0)
          ? fl + 1.0 : fl;
  }
}

static int8_t
expect_quant (int x, float multiplier, int32_t zp, int rounding)
{
  double p, r;

  if (x == 0)
    return (int8_t) zp;         /* +0 product: every mode gives 0 */
  /* 8 x 24 significant bits: the exact product fits a double */
  p = round_binary32 ((double) x * (double) multiplier);
  if (isinf (p))
    return 127;
  r = round_mode (p, rounding) + zp;
  return (int8_t) (r > 127 ? 127 : r < -128 ? -128 : r);
}

/* BF16 bits of the integer x: its binary64 bits cut to BF16's 8
 * significand bits, with the exponent rebiased. */
static uint16_t
expect_bf16 (int x, int *exact)
{
  uint64_t b;
  double d = (double) x;
  int e;
  uint64_t frac;

  *exact = 1;
  if (x == 0)
    return 0;
  memcpy (&b, &d, sizeof b);
  e = (int) ((b >> 52) & 0x7ff) - 1023;
  frac = b & ((UINT64_C (1) << 52) - 1);
  if (frac & ((UINT64_C (1) << 45) - 1))
    *exact = 0;                 /* would need more than 7 fraction bits */
  return (uint16_t) ((uint32_t) (e + 127) << 7 | (uint32_t) (frac >> 45));
}

/* ---- production through the public API --------------------------------- */

enum { FLAT_TILE = 64 };

static const int8_t flat_axes[4] = { -1, -1, -1, 0 };
static const int64_t flat_tile[4] = { 1, 1, 1, FLAT_TILE };

static SimaStatus
quant (const SimaTensorSpec *in, const void *in_data, uint64_t in_cap,
    const SimaTensorSpec *out, void *out_data, uint64_t out_cap,
    const SimaQuantTessParams *p)
{
  SimaQuantTessRequest req = { in, 1, out, 1, *p };
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
  return st;
}

static SimaStatus
cast (const SimaTensorSpec *in, const void *in_data, uint64_t in_cap,
    const SimaTensorSpec *out, void *out_data, uint64_t out_cap)
{
  SimaCastTessRequest req = { in, 1, out, 1 };
  SimaCastTessPlan plan;
  SimaA65CastTessPlan a65;
  SimaStatus st = sima_casttess_check_inference (&req, &plan);

  if (st.code == SIMA_OK)
    st = sima_a65_casttess_prepare (&plan, &a65);
  if (st.code == SIMA_OK) {
    SimaConstHostBuffer ib = { in_data, in_cap };
    SimaHostBuffer ob = { out_data, out_cap };
    st = sima_a65_casttess_execute (&a65, &ib, 1, &ob, 1);
  }
  return st;
}

/* ---- numerics ----------------------------------------------------------- */

static void
quant_numerics (void)
{
  static const int32_t zps[5] = { -128, -1, 0, 1, 127 };
  const float mults[] = { 1.0f, 0.5f, 2.0f, 0.125f, 0.3f, 1.0f / 255.0f,
    255.0697f / 255.0f, 127.0f / 255.0f, 0.007843138f, 3.0e-39f,
    ldexpf (1.0f, -140), ldexpf (1.0f, -149), 1.0e-30f, 127.0f, 1.0e30f,
    3.4e38f
  };
  const int n_mults = (int) (sizeof mults / sizeof mults[0]);
  static const int64_t n = 256;
  uint8_t values[256];
  float f32[256];
  int8_t got[256] __attribute__ ((aligned (16)));
  int8_t got_f32[256] __attribute__ ((aligned (16)));
  SimaTensorSpec in = test_spec_dense (SIMA_DTYPE_UINT8, 1, &n);
  SimaTensorSpec inf = test_spec_dense (SIMA_DTYPE_FLOAT32, 1, &n);
  SimaTensorSpec out = test_spec_tiled (SIMA_DTYPE_INT8, 1, &n, flat_axes,
      flat_tile, SIMA_CHANNELS_COMPACT);
  uint64_t cases = 0, bad_own = 0, bad_oracle = 0, bad_f32 = 0, failed = 0,
      env_cases = 0, env_bad = 0, saturated = 0;
  int mi, zi, r, x, e;

  for (x = 0; x < 256; x++) {
    values[x] = (uint8_t) x;
    f32[x] = (float) x;
  }
  for (mi = 0; mi < n_mults; mi++)
    for (zi = 0; zi < 5; zi++)
      for (r = 0; r < 4; r++) {
        SimaQuantTessParams p = { mults[mi], zps[zi], (SimaRounding) r };
        SimaStatus st = quant (&in, values, 256, &out, got, 256, &p);
        SimaStatus st2 = quant (&inf, f32, 1024, &out, got_f32, 256, &p);
        if (st.code != SIMA_OK || st2.code != SIMA_OK) {
          failed++;
          tap_diag ("call failed: %s", st.code != SIMA_OK ? st.message
              : st2.message);
          continue;
        }
        for (x = 0; x < 256; x++) {
          int8_t want = expect_quant (x, mults[mi], zps[zi], r);
          int8_t orc = oracle_quant_bits (SIMA_DTYPE_UINT8, (uint32_t) x,
              mults[mi], zps[zi], r);
          saturated += want == 127 || want == -128;
          if (got[x] != want && bad_own++ < 6)
            tap_diag ("x=%d m=%a zp=%d rounding %d: got %d, expected %d", x,
                (double) mults[mi], zps[zi], r, got[x], want);
          bad_oracle += got[x] != orc;
          bad_f32 += got[x] != got_f32[x];
          cases++;
        }
        /* every other environment: the same bytes */
        for (e = TEST_FPENV_UPWARD; e < TEST_FPENV_COUNT; e++) {
          int8_t again[256] __attribute__ ((aligned (16)));
          int ran = test_fpenv_enter ((TestFpEnv) e);
          if (ran)
            st = quant (&in, values, 256, &out, again, 256, &p);
          test_fpenv_leave ();
          if (!ran)
            continue;
          env_cases += 256;
          env_bad += st.code != SIMA_OK || memcmp (again, got, 256) != 0;
        }
      }
  tap_ok (failed == 0 && bad_own == 0 && cases == (uint64_t) n_mults * 5
      * 4 * 256, "UINT8 QuantTess exhaustive: 256 values x %d multipliers x "
      "5 zero points x 4 roundings: %llu cases (%llu saturated), %llu "
      "differ from this test's double-arithmetic expectation", n_mults,
      (unsigned long long) cases, (unsigned long long) saturated,
      (unsigned long long) bad_own);
  tap_ok (bad_oracle == 0, "UINT8 QuantTess: %llu cases, %llu differ from "
      "oracle_quant_bits", (unsigned long long) cases,
      (unsigned long long) bad_oracle);
  tap_ok (bad_f32 == 0, "UINT8 input gives the bytes of FP32 input holding "
      "the same integers: %llu cases, %llu differ",
      (unsigned long long) cases, (unsigned long long) bad_f32);
  tap_ok (env_bad == 0, "UINT8 QuantTess unchanged under FE_UPWARD, "
      "FE_DOWNWARD, FE_TOWARDZERO and FTZ+DAZ: %llu cases, %llu calls differ",
      (unsigned long long) env_cases, (unsigned long long) env_bad);

  /* SiMa's preproc: x / 255 * 255.0697 - 128, here one multiplier: 0 ->
   * -128, 255 -> 127 (255.0697 rounds to 255), 128 -> 0 */
  {
    SimaQuantTessParams p = { 255.0697f / 255.0f, -128,
      SIMA_ROUNDING_NEAREST_EVEN };
    SimaStatus st = quant (&in, values, 256, &out, got, 256, &p);
    tap_ok (st.code == SIMA_OK && got[0] == -128 && got[255] == 127
        && got[128] == 0 && got[1] == -127, "SiMa preproc (q_scale 255.0697, "
        "q_zp -128): 0 -> %d, 1 -> %d, 128 -> %d, 255 -> %d", got[0], got[1],
        got[128], got[255]);
  }
}

static void
cast_numerics (void)
{
  static const int64_t n = 256;
  uint8_t values[256];
  uint8_t got[512] __attribute__ ((aligned (16)));
  SimaTensorSpec in = test_spec_dense (SIMA_DTYPE_UINT8, 1, &n);
  SimaTensorSpec out = test_spec_tiled (SIMA_DTYPE_BFLOAT16, 1, &n,
      flat_axes, flat_tile, SIMA_CHANNELS_COMPACT);
  uint64_t bad = 0, bad_oracle = 0, inexact = 0, failed = 0;
  int x, e;

  for (x = 0; x < 256; x++)
    values[x] = (uint8_t) x;
  for (e = TEST_FPENV_DEFAULT; e < TEST_FPENV_COUNT; e++) {
    SimaStatus st = { SIMA_OK, "" };
    int ran = test_fpenv_enter ((TestFpEnv) e);
    memset (got, 0xA5, sizeof got);
    if (ran)
      st = cast (&in, values, 256, &out, got, 512);
    test_fpenv_leave ();
    if (!ran)
      continue;
    if (st.code != SIMA_OK) {
      failed++;
      continue;
    }
    for (x = 0; x < 256; x++) {
      /* tile x / 64 is one pixel of 64 channels: 64 low bytes, 64 high */
      const uint8_t *t = got + 128 * (x / 64);
      uint16_t v = (uint16_t) (t[x % 64] | t[64 + x % 64] << 8);
      int exact;
      uint16_t want = expect_bf16 (x, &exact);
      inexact += !exact;
      bad += v != want;
      bad_oracle += v != oracle_bf16_from_u8 ((uint8_t) x);
    }
  }
  tap_ok (failed == 0 && bad == 0 && inexact == 0, "UINT8 CastTess: all 256 "
      "values in every FP environment are the BF16 of the integer (%llu "
      "differ, %llu not exact)", (unsigned long long) bad,
      (unsigned long long) inexact);
  tap_ok (bad_oracle == 0, "UINT8 CastTess: %llu differ from "
      "oracle_bf16_from_u8", (unsigned long long) bad_oracle);
}

/* ---- layout ------------------------------------------------------------- */

typedef enum {
  VIEW_CONTIGUOUS, VIEW_HOLEY_PIXELS, VIEW_PERMUTED, VIEW_CHANNEL_STRIDE,
  VIEW_COUNT
} ViewKind;

static const char *const view_names[] = { "contiguous", "holey-pixels",
  "permuted", "channel-strided"
};

/* Interleaved pixels: the channel axis innermost (stride 1), then the
 * other axes in logical order, the first of them `hole` bytes beyond the
 * channels (RGBx: C 3, hole 1) and the others pitched half of the time. */
static SimaTensorSpec
holey_view (TestRng *rng, int rank, const int64_t *shape, int c_axis)
{
  SimaTensorSpec s = test_spec_dense (SIMA_DTYPE_UINT8, rank, shape);
  int64_t stride;
  int i, first = 1;

  s.layout = SIMA_LAYOUT_STRIDED;
  s.strides_bytes[c_axis] = 1;
  stride = (shape[c_axis] > 0 ? shape[c_axis] : 1) + test_rng_range (rng, 1,
      5);
  for (i = rank - 1; i >= 0; i--) {
    if (i == c_axis)
      continue;
    if (!first && test_rng_below (rng, 2))
      stride += test_rng_range (rng, 1, 9);
    first = 0;
    s.strides_bytes[i] = stride;
    stride *= shape[i] > 0 ? shape[i] : 1;
  }
  return s;
}

typedef struct {
  uint64_t cases, bytes, bad, failed, guards, input_changed, dirty;
} Tally;

/* One case for one op (cast != 0: CastTess): the whole output against the
 * oracle, guards, input unchanged, dirty (0xA5) and clean (0) outputs
 * identical. */
static int
layout_case (TestRng *rng, int is_cast, const SimaTensorSpec *in,
    const SimaTensorSpec *out, const SimaQuantTessParams *p, Tally *t)
{
  uint64_t in_bytes = oracle_required_bytes (in);
  uint64_t out_bytes = oracle_required_bytes (out);
  TestBuffer ib = test_buffer_new ((size_t) in_bytes, 0, 0);
  TestBuffer ob = test_buffer_new ((size_t) out_bytes, 0, 0xA5);
  TestBuffer ob2 = test_buffer_new ((size_t) out_bytes, 0, 0x00);
  uint8_t *want = malloc ((size_t) out_bytes + 1);
  uint8_t *copy = malloc ((size_t) in_bytes + 1);
  SimaStatus st, st2;
  size_t i;
  int ok = 1;

  for (i = 0; i < ib.size; i++)   /* holes too: they must not matter */
    ib.data[i] = (uint8_t) test_rng_next (rng);
  memcpy (copy, ib.data, ib.size);
  if (is_cast) {
    oracle_casttess (in, ib.data, out, want);
    st = cast (in, ib.data, in_bytes, out, ob.data, out_bytes);
    st2 = cast (in, ib.data, in_bytes, out, ob2.data, out_bytes);
  } else {
    oracle_quanttess (in, ib.data, out, p->multiplier, p->zero_point,
        (int) p->rounding, want);
    st = quant (in, ib.data, in_bytes, out, ob.data, out_bytes, p);
    st2 = quant (in, ib.data, in_bytes, out, ob2.data, out_bytes, p);
  }
  t->cases++;
  t->bytes += out_bytes;
  if (st.code != SIMA_OK || st2.code != SIMA_OK) {
    t->failed++;
    ok = 0;
    if (t->failed < 4)
      tap_diag ("call failed: %s", st.code != SIMA_OK ? st.message
          : st2.message);
  } else {
    if (memcmp (ob.data, want, (size_t) out_bytes) != 0) {
      t->bad++;
      ok = 0;
    }
    if (memcmp (ob.data, ob2.data, (size_t) out_bytes) != 0) {
      t->dirty++;
      ok = 0;
    }
  }
  if (!test_buffer_guards_ok (&ib) || !test_buffer_guards_ok (&ob)
      || !test_buffer_guards_ok (&ob2)) {
    t->guards++;
    ok = 0;
  }
  if (memcmp (copy, ib.data, ib.size) != 0) {
    t->input_changed++;
    ok = 0;
  }
  if (!ok && t->bad + t->failed + t->guards < 6)
    tap_diag ("failing %s case: rank %d shape %s axes %d,%d,%d,%d tile "
        "%lld,%lld,%lld,%lld %s cblock %d, input %s", is_cast ? "CastTess"
        : "QuantTess", in->rank, test_shape_str (in->rank, in->shape),
        out->tiled.axes[0], out->tiled.axes[1], out->tiled.axes[2],
        out->tiled.axes[3], (long long) out->tiled.tile_shape[0],
        (long long) out->tiled.tile_shape[1],
        (long long) out->tiled.tile_shape[2],
        (long long) out->tiled.tile_shape[3],
        sima_channels_name (out->tiled.channels), out->tiled.cblock,
        in->layout == SIMA_LAYOUT_STRIDED ? "strided" : "contiguous");
  test_buffer_free (&ib);
  test_buffer_free (&ob);
  test_buffer_free (&ob2);
  free (want);
  free (copy);
  return ok;
}

static void
random_params (TestRng *rng, SimaQuantTessParams *p)
{
  static const float m[4] = { 1.0f, 255.0697f / 255.0f, 0.3f, 0.5f };
  p->multiplier = m[test_rng_below (rng, 4)];
  p->zero_point = (int32_t) test_rng_range (rng, -128, 127);
  p->rounding = (SimaRounding) test_rng_below (rng, 4);
}

static void
layout_matrix (int is_cast)
{
  static const int64_t channel_counts[5] = { 1, 3, 4, 16, 17 };
  const char *op = is_cast ? "CastTess" : "QuantTess";
  TestRng rng = { is_cast ? 0xca5708u : 0x9a4708u };
  Tally t;
  int rank, c_axis, mode, kind;
  size_t ci;

  memset (&t, 0, sizeof t);
  for (rank = 1; rank <= SIMA_MAX_RANK; rank++)
    for (c_axis = 0; c_axis < rank; c_axis++)
      for (ci = 0; ci < 5; ci++)
        for (mode = 0; mode < 3; mode++)   /* compact, pad16, pad16 cblock */
          for (kind = 0; kind < VIEW_COUNT; kind++) {
            GenTiling gt;
            SimaTensorSpec in, out;
            SimaQuantTessParams p;
            gen_tiling (&rng, rank, c_axis, channel_counts[ci],
                mode ? SIMA_CHANNELS_PAD16 : SIMA_CHANNELS_COMPACT, &gt);
            random_params (&rng, &p);
            if (kind == VIEW_HOLEY_PIXELS)
              in = holey_view (&rng, rank, gt.shape, c_axis);
            else
              in = gen_view (&rng, SIMA_DTYPE_UINT8, rank, gt.shape,
                  kind == VIEW_CONTIGUOUS ? GEN_VIEW_CONTIGUOUS
                  : kind == VIEW_PERMUTED ? GEN_VIEW_PERMUTED
                  : GEN_VIEW_CHANNEL_STRIDE);
            out = test_spec_tiled (is_cast ? SIMA_DTYPE_BFLOAT16
                : SIMA_DTYPE_INT8, rank, gt.shape, gt.tiled.axes,
                gt.tiled.tile_shape, gt.tiled.channels);
            out.tiled.cblock = mode == 2;
            if (!layout_case (&rng, is_cast, &in, &out, &p, &t)
                && t.bad + t.failed < 3)
              tap_diag ("  (%s view)", view_names[kind]);
          }
  tap_ok (t.cases == 21 * 5 * 3 * VIEW_COUNT && t.bad == 0 && t.failed == 0,
      "UINT8 %s layout matrix: ranks 1-6 x every channel axis x C in "
      "{1,3,4,16,17} x compact/pad16/cblock x 4 views: %llu cases, %llu "
      "output bytes, %llu mismatched, %llu failed", op,
      (unsigned long long) t.cases, (unsigned long long) t.bytes,
      (unsigned long long) t.bad, (unsigned long long) t.failed);
  tap_ok (t.guards == 0 && t.input_changed == 0 && t.dirty == 0,
      "UINT8 %s: guards intact, input (holes included) unchanged, dirty "
      "reuse identical in all %llu cases (%llu, %llu, %llu failures)", op,
      (unsigned long long) t.cases, (unsigned long long) t.guards,
      (unsigned long long) t.input_changed, (unsigned long long) t.dirty);
}

/* Camera frames, [H, W, C] with H8/W16/C16 tiles. */
static void
camera_frames (void)
{
  static const struct {
    const char *name;
    int64_t h, w, c, pixel_stride;  /* pixel_stride 0: contiguous */
    int cblock;
    SimaChannels mode;
  } frames[] = {
    { "RGB 224x224 pad16", 224, 224, 3, 0, 0, SIMA_CHANNELS_PAD16 },
    { "RGB 1080x1920 pad16", 1080, 1920, 3, 0, 0, SIMA_CHANNELS_PAD16 },
    { "RGBx 480x640 pad16 (pixel stride 4)", 480, 640, 3, 4, 0,
      SIMA_CHANNELS_PAD16 },
    { "RGBx 37x53 compact (pixel stride 4)", 37, 53, 3, 4, 0,
      SIMA_CHANNELS_COMPACT },
    { "GRAY8 480x640 pad16", 480, 640, 1, 0, 0, SIMA_CHANNELS_PAD16 },
    { "GRAY8 480x640 compact", 480, 640, 1, 0, 0, SIMA_CHANNELS_COMPACT },
    { "RGBA 224x224 pad16", 224, 224, 4, 0, 0, SIMA_CHANNELS_PAD16 },
    { "33 channels 40x50 pad16 cblock, pixel stride 36", 40, 50, 33, 36, 1,
      SIMA_CHANNELS_PAD16 },
  };
  static const int8_t axes[4] = { -1, 0, 1, 2 };
  static const int64_t tile[4] = { 1, 8, 16, 16 };
  TestRng rng = { 0xf4a3e };
  size_t i;
  int is_cast;

  for (i = 0; i < sizeof frames / sizeof frames[0]; i++)
    for (is_cast = 0; is_cast < 2; is_cast++) {
      /* the 1080p frame once: its BF16 tiles alone are 66 MB */
      if (is_cast && frames[i].w == 1920)
        continue;
      const int64_t shape[3] = { frames[i].h, frames[i].w, frames[i].c };
      SimaTensorSpec in = test_spec_dense (SIMA_DTYPE_UINT8, 3, shape);
      SimaTensorSpec out = test_spec_tiled (is_cast ? SIMA_DTYPE_BFLOAT16
          : SIMA_DTYPE_INT8, 3, shape, axes, tile, frames[i].mode);
      SimaQuantTessParams p = { 255.0697f / 255.0f, -128,
        SIMA_ROUNDING_NEAREST_EVEN };
      Tally t;
      int ok;
      memset (&t, 0, sizeof t);
      if (frames[i].pixel_stride) {
        const int64_t ps = frames[i].pixel_stride;
        const int64_t strides[3] = { ps * frames[i].w + 12, ps, 1 };
        in = test_spec_strided (SIMA_DTYPE_UINT8, 3, shape, strides);
      }
      out.tiled.cblock = frames[i].cblock;
      ok = layout_case (&rng, is_cast, &in, &out, &p, &t);
      tap_ok (ok, "%s %s: %llu "
          "bytes match the oracle", is_cast ? "CastTess" : "QuantTess",
          frames[i].name, (unsigned long long) t.bytes);
    }
}

int
main (void)
{
  quant_numerics ();
  cast_numerics ();
  layout_matrix (0);
  layout_matrix (1);
  camera_frames ();
  return tap_done ();
}
