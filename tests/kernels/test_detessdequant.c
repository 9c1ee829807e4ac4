/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DetessDequant against the oracle: every INT8 value for both output dtypes
 * x wide zero points x normal, subnormal and huge scales (also with the
 * table built in non-default FP environments); MlaTiled and MlaCBlocked
 * layout matrices with garbage in the input padding, strided outputs whose
 * holes must survive, guard bytes and dirty reuse; one rejection per rule.
 */
#include <simaai/kernels/a65/detessdequant.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dq_divide_cases.h"
#include "fpenv_util.h"
#include "layout_gen.h"
#include "oracle.h"
#include "status_expect.h"
#include "tap.h"
#include "test_util.h"

static SimaStatus
run (const SimaTensorSpec *in, const void *in_data, uint64_t in_cap,
    const SimaTensorSpec *out, void *out_data, uint64_t out_cap,
    SimaDetessDequantParams params, TestFpEnv prepare_env)
{
  SimaDetessDequantRequest req = { in, 1, out, 1, params };
  SimaDetessDequantPlan plan;
  SimaA65DetessDequantPlan a65;
  SimaStatus st = sima_detessdequant_check_inference (&req, &plan);

  /* the caller's environment during preparation (the exact table) and
   * execution (SIMD leaves compute in lanes): neither may show */
  test_fpenv_enter (prepare_env);
  if (st.code == SIMA_OK)
    st = sima_a65_detessdequant_prepare (&plan, &a65);
  if (st.code == SIMA_OK) {
    SimaConstHostBuffer ib = { in_data, in_cap };
    SimaHostBuffer ob = { out_data, out_cap };
    st = sima_a65_detessdequant_execute (&a65, &ib, 1, &ob, 1);
  }
  test_fpenv_leave ();
  return st;
}

/* ---- every INT8 value --------------------------------------------------- */

static void
numerics (void)
{
  static const int32_t zps[7] = { INT32_MIN, -(1 << 24) - 1, -128, 0, 127,
    (1 << 24) + 1, INT32_MAX };
  static const int64_t n = 256;
  static const int8_t axes[4] = { -1, -1, -1, 0 };
  static const int64_t tile[4] = { 1, 1, 1, 16 };   /* byte i is value i */
  float scales[6];
  uint8_t q[256] __attribute__ ((aligned (16)));
  uint32_t out[256];
  SimaTensorSpec in = test_spec_tiled (SIMA_DTYPE_INT8, 1, &n, axes, tile,
      SIMA_CHANNELS_COMPACT);
  int e, d, zi, si, i;

  scales[0] = 1.0f;
  scales[1] = 1.0f / 127.0f;
  scales[2] = 0.3f;
  scales[3] = ldexpf (1.0f, -130);  /* subnormal */
  scales[4] = 1e-45f;               /* the smallest subnormal */
  scales[5] = 3.4e38f;
  for (i = 0; i < 256; i++)
    q[i] = (uint8_t) i;
  for (e = 0; e < TEST_FPENV_COUNT; e++) {
    uint64_t cases = 0, bad = 0;
    for (d = 0; d < 2; d++) {
      SimaDType dt = d ? SIMA_DTYPE_BFLOAT16 : SIMA_DTYPE_FLOAT32;
      SimaTensorSpec o = test_spec_dense (dt, 1, &n);
      for (zi = 0; zi < 7; zi++) {
        for (si = 0; si < 6; si++) {
          SimaDetessDequantParams p = { scales[si], zps[zi], SIMA_SCALE_MULTIPLY };
          SimaStatus st = run (&in, q, 256, &o, out, sizeof out, p,
              (TestFpEnv) e);
          if (st.code != SIMA_OK) {
            tap_diag ("execute failed: %s", st.message);
            bad++;
            continue;
          }
          for (i = 0; i < 256; i++) {
            uint32_t got = d ? ((uint16_t *) out)[i] : out[i];
            uint32_t want = d
                ? oracle_dequant_bf16_bits ((int8_t) i, p.scale, p.zero_point)
                : oracle_dequant_f32_bits ((int8_t) i, p.scale, p.zero_point);
            cases++;
            if (got != want && bad++ < 8)
              tap_diag ("%s q=%d zp=%ld scale=%a (%s): got %#x, oracle %#x",
                  sima_dtype_name (dt), (int8_t) i, (long) p.zero_point,
                  (double) p.scale, test_fpenv_name ((TestFpEnv) e), got,
                  want);
          }
        }
      }
    }
    if (e == TEST_FPENV_DEFAULT)
      tap_ok (bad == 0 && cases == 21504, "every INT8 value x FP32/BF16 x 7 "
          "zero points x 6 scales: %llu cases, %llu mismatches",
          (unsigned long long) cases, (unsigned long long) bad);
    else
      tap_ok (bad == 0, "table built under %s: %llu cases, %llu mismatches",
          test_fpenv_name ((TestFpEnv) e), (unsigned long long) cases,
          (unsigned long long) bad);
  }
}

/* ---- the divide convention, every INT8 value ----------------------------- */

/* Every q x dq_divide_cases.h's zero points and dq_scales x FP32/BF16,
 * against the oracle's double division, with the table built and the
 * output written in every FP environment. The 256 values form one run of
 * 16-channel pixels: with the multiply convention the AVX2/NEON leaves
 * take such runs in lanes, so this also shows divide bypasses them. Also
 * counts the values where divide and a multiply by RNE_f32(1 / dq_scale)
 * differ (the latter is what a user would get by precomputing a scale). */
static void
divide_numerics (void)
{
  static const int64_t n = 256;
  static const int8_t axes[4] = { -1, -1, -1, 0 };
  static const int64_t tile[4] = { 1, 1, 1, 16 };
  float scales[DQ_DIVIDE_N_SCALES];
  uint8_t q[256] __attribute__ ((aligned (16)));
  uint32_t out[256];
  SimaTensorSpec in = test_spec_tiled (SIMA_DTYPE_INT8, 1, &n, axes, tile,
      SIMA_CHANNELS_COMPACT);
  uint64_t reciprocal_differs = 0;
  int e, d, zi, si, i;

  dq_divide_scales (scales);
  for (i = 0; i < 256; i++)
    q[i] = (uint8_t) i;
  for (e = 0; e < TEST_FPENV_COUNT; e++) {
    uint64_t cases = 0, bad = 0;
    for (d = 0; d < 2; d++) {
      SimaDType dt = d ? SIMA_DTYPE_BFLOAT16 : SIMA_DTYPE_FLOAT32;
      SimaTensorSpec o = test_spec_dense (dt, 1, &n);
      for (zi = 0; zi < DQ_DIVIDE_N_ZPS; zi++) {
        for (si = 0; si < DQ_DIVIDE_N_SCALES; si++) {
          SimaDetessDequantParams p = { scales[si], dq_divide_zps[zi],
            SIMA_SCALE_DIVIDE };
          float rec = 1.0f / scales[si];   /* default environment here */
          SimaStatus st = run (&in, q, 256, &o, out, sizeof out, p,
              (TestFpEnv) e);
          if (st.code != SIMA_OK) {
            tap_diag ("execute failed: %s", st.message);
            bad++;
            continue;
          }
          for (i = 0; i < 256; i++) {
            uint32_t got = d ? ((uint16_t *) out)[i] : out[i];
            uint32_t want = d ? oracle_dequant_div_bf16_bits ((int8_t) i,
                p.scale, p.zero_point) : oracle_dequant_div_f32_bits
                ((int8_t) i, p.scale, p.zero_point);
            cases++;
            if (e == TEST_FPENV_DEFAULT && !d && isfinite (rec)
                && want != oracle_dequant_f32_bits ((int8_t) i, rec,
                    p.zero_point))
              reciprocal_differs++;
            if (got != want && bad++ < 8)
              tap_diag ("divide %s q=%d zp=%ld dq_scale=%a (%s): got %#x, "
                  "oracle %#x", sima_dtype_name (dt), (int8_t) i,
                  (long) p.zero_point, (double) p.scale,
                  test_fpenv_name ((TestFpEnv) e), got, want);
          }
        }
      }
    }
    tap_ok (bad == 0 && cases == 2 * 256 * DQ_DIVIDE_N_ZPS
        * DQ_DIVIDE_N_SCALES, "divide, every INT8 value x FP32/BF16 x %d "
        "zero points x %d dq_scales under %s: %llu cases, %llu mismatches",
        DQ_DIVIDE_N_ZPS, DQ_DIVIDE_N_SCALES, test_fpenv_name ((TestFpEnv) e),
        (unsigned long long) cases, (unsigned long long) bad);
  }
  tap_ok (reciprocal_differs > 0, "multiplying by RNE(1/dq_scale) instead "
      "differs in %llu FP32 results of the matrix",
      (unsigned long long) reciprocal_differs);
}

/* The documented example (docs/detessdequant.md): YOLOv8n head 0,
 * dq_scale 11.328456438342892 (binary32 0x1.6a82b8p+3), dq_zp -61, q = -127:
 * d = -66; -66 / s rounds to -0x1.74ddc6p+2, -66 * RNE(1 / s) to
 * -0x1.74ddc8p+2, one ulp away. */
static void
divide_example (void)
{
  float s = (float) 11.328456438342892, rec = 1.0f / s;
  uint32_t div = oracle_dequant_div_f32_bits (-127, s, -61);
  uint32_t mul = oracle_dequant_f32_bits (-127, rec, -61);
  float dv, mv;

  memcpy (&dv, &div, 4);
  memcpy (&mv, &mul, 4);
  tap_ok (dv == -0x1.74ddc6p+2f && mv == -0x1.74ddc8p+2f,
      "head 0, q=-127: (q - dq_zp) / dq_scale = %a, times RNE(1/dq_scale) = "
      "%a", (double) dv, (double) mv);
}

static void
convention_names (void)
{
  SimaScaleConvention c = SIMA_SCALE_MULTIPLY;
  int ok = sima_scale_convention_from_name ("divide", &c)
      && c == SIMA_SCALE_DIVIDE
      && sima_scale_convention_from_name ("multiply", &c)
      && c == SIMA_SCALE_MULTIPLY
      && !sima_scale_convention_from_name ("reciprocal", &c)
      && !sima_scale_convention_from_name (NULL, &c)
      && strcmp (sima_scale_convention_name (SIMA_SCALE_DIVIDE), "divide") == 0
      && strcmp (sima_scale_convention_name ((SimaScaleConvention) 7),
          "unknown") == 0;
  tap_ok (ok, "scale convention names: multiply, divide; others unknown");
}

/* ---- layout matrices ---------------------------------------------------- */

typedef struct {
  uint64_t cases, bytes, mismatched, failed, guards, input_changed;
} Tally;

/* One geometry: input tiled or channel-blocked INT8 full of random bytes
 * (padding and gaps included), output in the given view. The output is run
 * twice over two different prefills; each must equal the prefill with
 * exactly the logical elements replaced by the oracle's values. */
static int
unpack_case (TestRng *rng, const SimaTensorSpec *in, SimaDType out_dtype,
    GenViewKind kind, Tally *t)
{
  SimaTensorSpec out = gen_view (rng, out_dtype, in->rank, in->shape, kind);
  SimaDetessDequantParams p = { 0, 0, SIMA_SCALE_MULTIPLY };
  uint64_t in_bytes = oracle_required_bytes (in);
  uint64_t out_bytes = oracle_required_bytes (&out);
  TestBuffer ib = test_buffer_new ((size_t) in_bytes, 0, 0);
  uint8_t *in_copy = malloc ((size_t) in_bytes + 1);
  int pass, ok = 1;
  size_t i;

  p.scale = test_rng_below (rng, 2) ? 0.05f : ldexpf (1.0f, -135);
  p.zero_point = (int32_t) test_rng_range (rng, -300, 300);
  for (i = 0; i < ib.size; i++)
    ib.data[i] = (uint8_t) test_rng_next (rng);
  memcpy (in_copy, ib.data, ib.size);
  for (pass = 0; pass < 2; pass++) {
    uint8_t fill = pass ? 0x11 : 0xEE;
    TestBuffer ob = test_buffer_new ((size_t) out_bytes, 0, fill);
    uint8_t *want = malloc ((size_t) out_bytes + 1);
    SimaStatus st;

    memset (want, fill, (size_t) out_bytes);
    oracle_detessdequant (in, ib.data, &out, p.scale, p.zero_point, want);
    st = run (in, ib.data, in_bytes, &out, ob.data, out_bytes, p,
        TEST_FPENV_DEFAULT);
    if (st.code != SIMA_OK) {
      t->failed++;
      ok = 0;
      tap_diag ("call failed: %s", st.message);
    } else if (memcmp (ob.data, want, (size_t) out_bytes) != 0) {
      t->mismatched++;
      ok = 0;
    }
    if (!test_buffer_guards_ok (&ob) || !test_buffer_guards_ok (&ib)) {
      t->guards++;
      ok = 0;
    }
    t->bytes += out_bytes;
    test_buffer_free (&ob);
    free (want);
  }
  if (memcmp (in_copy, ib.data, ib.size) != 0) {
    t->input_changed++;
    ok = 0;
  }
  t->cases++;
  if (!ok && t->mismatched + t->failed + t->guards < 6)
    tap_diag ("failing case: %s input rank %d shape %s, %s %s output",
        sima_layout_name (in->layout), in->rank,
        test_shape_str (in->rank, in->shape), sima_dtype_name (out_dtype),
        gen_view_kind_name (kind));
  test_buffer_free (&ib);
  free (in_copy);
  return ok;
}

static void
report (const char *label, const Tally *t)
{
  tap_ok (t->cases > 0 && t->mismatched == 0 && t->failed == 0
      && t->guards == 0 && t->input_changed == 0,
      "%s: %llu cases, %llu output bytes compared (holes included, two "
      "prefills each), %llu mismatched, %llu failed, %llu guard failures, "
      "%llu inputs changed", label, (unsigned long long) t->cases,
      (unsigned long long) t->bytes, (unsigned long long) t->mismatched,
      (unsigned long long) t->failed, (unsigned long long) t->guards,
      (unsigned long long) t->input_changed);
}

static const int64_t channel_counts[] = { 1, 2, 3, 16, 17, 32, 33 };
#define N_CHANNEL_COUNTS (sizeof channel_counts / sizeof channel_counts[0])

static void
tiled_matrix (void)
{
  TestRng rng = { 0xde7e55 };
  Tally t;
  int rank, c_axis, mode, kind;
  size_t ci;

  memset (&t, 0, sizeof t);
  for (rank = 1; rank <= SIMA_MAX_RANK; rank++)
    for (c_axis = 0; c_axis < rank; c_axis++)
      for (ci = 0; ci < N_CHANNEL_COUNTS; ci++)
        for (mode = 0; mode < 2; mode++)
          for (kind = 0; kind < GEN_VIEW_KIND_COUNT; kind++) {
            GenTiling gt;
            SimaTensorSpec in;
            gen_tiling (&rng, rank, c_axis, channel_counts[ci],
                (SimaChannels) mode, &gt);
            in = test_spec_tiled (SIMA_DTYPE_INT8, rank, gt.shape,
                gt.tiled.axes, gt.tiled.tile_shape, gt.tiled.channels);
            unpack_case (&rng, &in, test_rng_below (&rng, 2)
                ? SIMA_DTYPE_FLOAT32 : SIMA_DTYPE_BFLOAT16, (GenViewKind) kind,
                &t);
          }
  report ("MlaTiled matrix: ranks 1-6 x every channel axis x C in "
      "{1,2,3,16,17,32,33} x compact/pad16 x 4 output views", &t);
}

static void
cblocked_matrix (void)
{
  TestRng rng = { 0xcb10c };
  Tally t;
  int rank, kind, rep;
  size_t ci;

  memset (&t, 0, sizeof t);
  for (rank = 3; rank <= SIMA_MAX_RANK; rank++)
    for (ci = 0; ci < N_CHANNEL_COUNTS; ci++)
      for (kind = 0; kind < GEN_VIEW_KIND_COUNT; kind++)
        for (rep = 0; rep < 3; rep++) {
          int64_t shape[SIMA_MAX_RANK];
          SimaTensorSpec in;
          int a;
          for (a = 0; a < rank; a++)
            shape[a] = test_rng_range (&rng, 1, a < rank - 3 ? 3 : 9);
          shape[rank - 1] = channel_counts[ci];
          in = test_spec_dense (SIMA_DTYPE_INT8, rank, shape);
          in.layout = SIMA_LAYOUT_MLA_CBLOCKED;
          unpack_case (&rng, &in, rep & 1 ? SIMA_DTYPE_FLOAT32
              : SIMA_DTYPE_BFLOAT16, (GenViewKind) kind, &t);
        }
  report ("MlaCBlocked matrix: ranks 3-6 x C in {1,2,3,16,17,32,33} x 4 "
      "output views", &t);
}

/* The C=17 CBlocked example: 2 channel blocks, the second holding one value
 * and 15 garbage bytes; every byte position checked by hand. */
static void
cblocked_example (void)
{
  static const int64_t shape[3] = { 2, 3, 17 };
  SimaTensorSpec in = test_spec_dense (SIMA_DTYPE_INT8, 3, shape);
  SimaTensorSpec out = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, shape);
  SimaDetessDequantParams p = { 1.0f, 0, SIMA_SCALE_MULTIPLY };
  uint8_t blocks[192] __attribute__ ((aligned (16)));
  float got[102];
  int h, w, c, ok = 1;
  SimaStatus st;

  in.layout = SIMA_LAYOUT_MLA_CBLOCKED;
  memset (blocks, 0x7f, sizeof blocks);   /* garbage: 127 everywhere */
  /* element (h, w, c) at ((c/16)*H + h)*W*16 + w*16 + c%16 holds h*40+w*17+c-60 */
  for (h = 0; h < 2; h++)
    for (w = 0; w < 3; w++)
      for (c = 0; c < 17; c++)
        blocks[((c / 16) * 2 + h) * 3 * 16 + w * 16 + c % 16] =
            (uint8_t) (h * 40 + w * 17 + c - 60);
  st = run (&in, blocks, sizeof blocks, &out, got, sizeof got, p,
      TEST_FPENV_DEFAULT);
  for (h = 0; h < 2; h++)
    for (w = 0; w < 3; w++)
      for (c = 0; c < 17; c++)
        ok &= got[(h * 3 + w) * 17 + c] == (float) (h * 40 + w * 17 + c - 60);
  tap_ok (st.code == SIMA_OK && ok, "MlaCBlocked {2,3,17}: 192 bytes, values "
      "found by the normative equation, padding garbage ignored");
}

/* ---- rejections --------------------------------------------------------- */

static void
rejections (void)
{
  static const int64_t shape[3] = { 2, 2, 3 };
  static const int8_t axes[4] = { -1, 0, 1, 2 };
  static const int64_t tile[4] = { 1, 2, 2, 16 };
  SimaTensorSpec in = test_spec_tiled (SIMA_DTYPE_INT8, 3, shape, axes, tile,
      SIMA_CHANNELS_PAD16);
  SimaTensorSpec out = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, shape);
  SimaDetessDequantRequest req = { &in, 1, &out, 1, { 0.5f, 0, SIMA_SCALE_MULTIPLY } };
  SimaDetessDequantPlan plan;
  SimaA65DetessDequantPlan a65;
  uint8_t buf[256] __attribute__ ((aligned (16)));

  expect_status ("valid request",
      sima_detessdequant_check_inference (&req, &plan), SIMA_OK, NULL);
  tap_ok (plan.input_bytes == 64 && plan.output_bytes == 48,
      "sizes: 4 pad16 pixels = 64 input bytes, 12 FP32 = 48 output bytes");

  req.params.convention = (SimaScaleConvention) 2;
  expect_status ("unknown scale convention",
      sima_detessdequant_check_inference (&req, &plan),
      SIMA_INVALID_PARAMETER, "convention is 2", NULL);
  req.params.convention = (SimaScaleConvention) -1;
  expect_status ("negative scale convention",
      sima_detessdequant_check_params (&req.params),
      SIMA_INVALID_PARAMETER, "convention is -1", NULL);
  req.params.convention = SIMA_SCALE_DIVIDE;
  expect_status ("divide with a zero dq_scale",
      (req.params.scale = 0.0f, sima_detessdequant_check_params (&req.params)),
      SIMA_INVALID_PARAMETER, "scale is 0", NULL);
  req.params.scale = 0.5f;
  req.params.convention = SIMA_SCALE_MULTIPLY;

  in.dtype = SIMA_DTYPE_INT16;
  expect_status ("INT16 input", sima_detessdequant_check_inference (&req,
          &plan), SIMA_UNSUPPORTED_DTYPE,
      "DetessDequant input dtype is int16, must be int8", NULL);
  in.dtype = SIMA_DTYPE_UINT8;
  expect_status ("UINT8 input", sima_detessdequant_check_inference (&req,
          &plan), SIMA_UNSUPPORTED_DTYPE, "input dtype is uint8", NULL);
  in.dtype = SIMA_DTYPE_INT8;
  out.dtype = SIMA_DTYPE_FLOAT16;
  expect_status ("FP16 output", sima_detessdequant_check_inference (&req,
          &plan), SIMA_UNSUPPORTED_DTYPE,
      "output dtype is float16, must be float32 or bfloat16", NULL);
  out.dtype = SIMA_DTYPE_FLOAT32;
  in.layout = SIMA_LAYOUT_CONTIGUOUS;
  expect_status ("contiguous input", sima_detessdequant_check_inference (&req,
          &plan), SIMA_UNSUPPORTED_LAYOUT,
      "input layout is contiguous, must be mla-tiled or mla-cblocked", NULL);
  in.layout = SIMA_LAYOUT_MLA_CBLOCKED;
  in.rank = out.rank = 2;
  expect_status ("CBlocked at rank 2", sima_detessdequant_check_inference (&req,
          &plan), SIMA_INVALID_RANK, "input rank is 2",
      "mla-cblocked needs rank 3 to 6", NULL);
  in.rank = out.rank = 3;
  expect_status ("CBlocked at rank 3", sima_detessdequant_check_inference (&req,
          &plan), SIMA_OK, NULL);
  in.layout = SIMA_LAYOUT_MLA_TILED;
  out.layout = SIMA_LAYOUT_MLA_TILED;
  expect_status ("tiled output", sima_detessdequant_check_inference (&req,
          &plan), SIMA_UNSUPPORTED_LAYOUT, "output layout is mla-tiled", NULL);
  out.layout = SIMA_LAYOUT_CONTIGUOUS;

  {
    static const struct { const char *name; float s; const char *text; } bad[] = {
      { "scale 0", 0.0f, "scale is 0" },
      { "negative scale", -1.0f, "scale is -1" },
      { "infinite scale", INFINITY, "scale is inf" },
      { "NaN scale", NAN, "scale is nan" },
    };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      req.params.scale = bad[i].s;
      expect_status (bad[i].name, sima_detessdequant_check_inference (&req,
              &plan), SIMA_INVALID_PARAMETER, bad[i].text, "finite and > 0",
          NULL);
    }
    req.params.scale = 0.5f;
  }

  out.layout = SIMA_LAYOUT_STRIDED;
  out.strides_bytes[0] = 24;
  out.strides_bytes[1] = 8;
  out.strides_bytes[2] = 4;
  expect_status ("overlapping output strides",
      sima_detessdequant_check_inference (&req, &plan),
      SIMA_OVERLAPPING_STRIDES, "output stride on axis 1 is 8 bytes", NULL);
  out.strides_bytes[0] = 64;
  out.strides_bytes[1] = 16;
  expect_status ("pitched output strides",
      sima_detessdequant_check_inference (&req, &plan), SIMA_OK, NULL);
  tap_ok (plan.output_bytes == 4 + 64 + 16 + 8,
      "pitched output span: 4 + 64 + 16 + 8 = 92 bytes (%llu)",
      (unsigned long long) plan.output_bytes);
  out.layout = SIMA_LAYOUT_CONTIGUOUS;

  sima_detessdequant_check_inference (&req, &plan);
  sima_a65_detessdequant_prepare (&plan, &a65);
  {
    SimaConstHostBuffer ib = { buf, 64 };
    SimaHostBuffer ob = { buf + 128, 48 };
    ib.capacity = 63;
    expect_status ("input capacity short by one",
        sima_a65_detessdequant_execute (&a65, &ib, 1, &ob, 1),
        SIMA_CAPACITY_TOO_SMALL, "input capacity is 63 bytes, 64 required",
        NULL);
    ib.capacity = 64;
    ob.capacity = 47;
    expect_status ("output capacity short by one",
        sima_a65_detessdequant_execute (&a65, &ib, 1, &ob, 1),
        SIMA_CAPACITY_TOO_SMALL, "output capacity is 47 bytes, 48 required",
        NULL);
    ob.capacity = 48;
    ib.data = buf + 8;
    expect_status ("input not 16-byte aligned",
        sima_a65_detessdequant_execute (&a65, &ib, 1, &ob, 1),
        SIMA_MISALIGNED_BUFFER, "input address", "16-byte", NULL);
    ib.data = buf;
    ob.data = buf + 130;
    expect_status ("FP32 output not 4-byte aligned",
        sima_a65_detessdequant_execute (&a65, &ib, 1, &ob, 1),
        SIMA_MISALIGNED_BUFFER, "output address", "4-byte", NULL);
    ob.data = buf + 32;
    expect_status ("output overlapping the input",
        sima_a65_detessdequant_execute (&a65, &ib, 1, &ob, 1),
        SIMA_OVERLAPPING_BUFFERS, "overlap", NULL);
  }
}

int
main (void)
{
  numerics ();
  divide_numerics ();
  divide_example ();
  convention_names ();
  cblocked_example ();
  tiled_matrix ();
  cblocked_matrix ();
  rejections ();
  return tap_done ();
}
