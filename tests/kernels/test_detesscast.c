/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DetessCast: every BF16 encoding to FP32 and BF16 (expected values made
 * here, bits << 16 and bits), on three tile shapes (8- and 16-channel runs,
 * RGB pad16 slots) and in every FP environment; the worked example byte by
 * byte; the layout matrix (ranks 1-6, every channel axis, C in
 * {1,2,3,16,17,32,33}, compact / pad16 / pad16 cblock, four output views)
 * against the oracle with garbage in the input padding, guard bytes, two
 * prefills and holes that must survive; CastTess then DetessCast (identity
 * on BF16, the CastTess rule << 16 on FP32); the rejections, with nothing
 * written; empty tensors; sets equal to single calls.
 */
#include <simaai/kernels/a65/casttess.h>
#include <simaai/kernels/a65/detesscast.h>

#include <stdlib.h>
#include <string.h>

#include "fpenv_util.h"
#include "layout_gen.h"
#include "oracle.h"
#include "status_expect.h"
#include "tap.h"
#include "test_util.h"

/* aligned_alloc wants a size that is a multiple of the alignment. */
static uint8_t *
alloc_aligned (size_t alignment, size_t size)
{
  return aligned_alloc (alignment, (size + alignment) / alignment * alignment);
}

static SimaStatus
run (const SimaTensorSpec *in, const void *in_data, uint64_t in_cap,
    const SimaTensorSpec *out, void *out_data, uint64_t out_cap)
{
  SimaDetessCastRequest req = { in, 1, out, 1 };
  SimaDetessCastPlan plan;
  SimaA65DetessCastPlan a65;
  SimaStatus st = sima_detesscast_check_inference (&req, &plan);

  if (st.code == SIMA_OK)
    st = sima_a65_detesscast_prepare (&plan, &a65);
  if (st.code == SIMA_OK) {
    SimaConstHostBuffer ib = { in_data, in_cap };
    SimaHostBuffer ob = { out_data, out_cap };
    st = sima_a65_detesscast_execute (&a65, &ib, 1, &ob, 1);
  }
  return st;
}

/* ---- every BF16 encoding ------------------------------------------------
 * Three rank-2 [W, C] tilings whose byte positions are easy to write down
 * (every tile a whole number of 16-byte units, all tiles before a given one
 * full): C = 8 compact (pixel = 8 low + 8 high bytes), C = 16 compact
 * (16 + 16) and C = 3 pad16 (3 low bytes at 0, 3 high bytes at 16 of a
 * 32-byte slot, the rest garbage). Element (w, c) is encoding w * C + c
 * (mod 65536); its low byte is at w * 2S + c, its high byte S later. */

static uint64_t
numerics_case (int64_t channels, SimaChannels mode, SimaDType out_dtype,
    TestFpEnv env, uint64_t *nan_kept)
{
  const int64_t stored = mode == SIMA_CHANNELS_PAD16 ? 16 : channels;
  const int64_t pixels = (65536 + channels - 1) / channels;
  const int64_t shape[2] = { pixels, channels };
  const int8_t axes[4] = { -1, -1, 0, 1 };
  const int64_t tile[4] = { 1, 1, 16, channels };
  const size_t in_bytes = (size_t) (pixels * 2 * stored);
  const int64_t n = pixels * channels;
  const int f32 = out_dtype == SIMA_DTYPE_FLOAT32;
  SimaTensorSpec in = test_spec_tiled (SIMA_DTYPE_BFLOAT16, 2, shape, axes,
      tile, mode);
  SimaTensorSpec out = test_spec_dense (out_dtype, 2, shape);
  uint8_t *src = alloc_aligned (16, in_bytes);
  uint8_t *dst = malloc ((size_t) n * 4);
  uint64_t bad = 0;
  int64_t w, c, i;
  SimaStatus st;

  for (i = 0; i < (int64_t) in_bytes; i++)
    src[i] = (uint8_t) (i * 37 + 11);   /* garbage in the padding */
  for (w = 0; w < pixels; w++)
    for (c = 0; c < channels; c++) {
      uint16_t b = (uint16_t) (w * channels + c);
      src[w * 2 * stored + c] = (uint8_t) b;
      src[w * 2 * stored + stored + c] = (uint8_t) (b >> 8);
    }
  test_fpenv_enter (env);
  st = run (&in, src, in_bytes, &out, dst, (uint64_t) n * (f32 ? 4 : 2));
  test_fpenv_leave ();
  if (st.code != SIMA_OK) {
    tap_diag ("call failed: %s", st.message);
    bad = (uint64_t) n + 1;
  } else {
    for (i = 0; i < n; i++) {
      uint16_t b = (uint16_t) i;
      uint32_t got, want = f32 ? (uint32_t) b << 16 : b;
      if (f32)
        memcpy (&got, dst + 4 * i, 4);
      else {
        uint16_t g;
        memcpy (&g, dst + 2 * i, 2);
        got = g;
      }
      if ((b & 0x7f80) == 0x7f80 && (b & 0x7f) != 0 && got == want)
        (*nan_kept)++;
      if (got != want && bad++ < 6)
        tap_diag ("C=%lld %s -> %s: encoding %#06x gave %#x, want %#x",
            (long long) channels, sima_channels_name (mode),
            sima_dtype_name (out_dtype), b, got, want);
    }
  }
  free (src);
  free (dst);
  return bad;
}

static void
numerics (void)
{
  static const struct { int64_t c; SimaChannels mode; } shapes[3] = {
    { 8, SIMA_CHANNELS_COMPACT }, { 16, SIMA_CHANNELS_COMPACT },
    { 3, SIMA_CHANNELS_PAD16 }
  };
  int s, d, e;

  for (d = 0; d < 2; d++) {
    SimaDType dt = d ? SIMA_DTYPE_BFLOAT16 : SIMA_DTYPE_FLOAT32;
    for (s = 0; s < 3; s++) {
      uint64_t nan_kept = 0, bad = numerics_case (shapes[s].c,
          shapes[s].mode, dt, TEST_FPENV_DEFAULT, &nan_kept);
      /* the elements (w*C + c mod 65536) cover all 65536 encodings, so
       * all 2 * 127 NaN patterns (C = 3: 65538 elements, two repeated) */
      tap_ok (bad == 0 && nan_kept >= 254, "every BF16 encoding -> %s "
          "(%s, C=%lld %s tiles): 65536 encodings, %llu mismatches, %llu "
          "NaN payloads kept", sima_dtype_name (dt), d ? "bits" :
          "bits << 16", (long long) shapes[s].c,
          sima_channels_name (shapes[s].mode), (unsigned long long) bad,
          (unsigned long long) nan_kept);
    }
  }
  for (e = TEST_FPENV_UPWARD; e < TEST_FPENV_COUNT; e++) {
    uint64_t nan_kept = 0, bad = 0;
    for (d = 0; d < 2; d++)
      for (s = 0; s < 3; s++)
        bad += numerics_case (shapes[s].c, shapes[s].mode,
            d ? SIMA_DTYPE_BFLOAT16 : SIMA_DTYPE_FLOAT32, (TestFpEnv) e,
            &nan_kept);
    tap_ok (bad == 0, "every encoding, both dtypes, 3 tilings under %s: "
        "%llu mismatches", test_fpenv_name ((TestFpEnv) e),
        (unsigned long long) bad);
  }
}

/* docs/detesscast.md's worked example: {2,3} as [W,C], tile {1,1,2,3},
 * pad16, 64 bytes: pixel w0 low bytes at 0-2, high bytes at 16-18, w1 at
 * 32-34 and 48-50; the other 52 bytes garbage. */
static void
worked_example (void)
{
  static const int64_t shape[2] = { 2, 3 };
  static const int8_t axes[4] = { -1, -1, 0, 1 };
  static const int64_t tile[4] = { 1, 1, 2, 3 };
  static const uint16_t x[6] = { 0x3f80, 0xc000, 0x7fc1, 0xff81, 0x0001,
    0x8000 };
  SimaTensorSpec in = test_spec_tiled (SIMA_DTYPE_BFLOAT16, 2, shape, axes,
      tile, SIMA_CHANNELS_PAD16);
  SimaTensorSpec o32 = test_spec_dense (SIMA_DTYPE_FLOAT32, 2, shape);
  SimaTensorSpec o16 = test_spec_dense (SIMA_DTYPE_BFLOAT16, 2, shape);
  uint8_t tiles[64] __attribute__ ((aligned (16)));
  uint32_t f[7];
  uint16_t b[7];
  SimaStatus s1, s2;
  int px, c, ok = 1;

  memset (tiles, 0x5c, sizeof tiles);
  for (px = 0; px < 2; px++)
    for (c = 0; c < 3; c++) {
      tiles[px * 32 + c] = (uint8_t) x[px * 3 + c];
      tiles[px * 32 + 16 + c] = (uint8_t) (x[px * 3 + c] >> 8);
    }
  memset (f, 0xA5, sizeof f);
  memset (b, 0xA5, sizeof b);
  s1 = run (&in, tiles, 64, &o32, f, 24);
  s2 = run (&in, tiles, 64, &o16, b, 12);
  for (c = 0; c < 6; c++)
    ok &= f[c] == (uint32_t) x[c] << 16 && b[c] == x[c];
  ok &= f[6] == 0xA5A5A5A5u && b[6] == 0xA5A5;
  tap_ok (s1.code == SIMA_OK && s2.code == SIMA_OK && ok, "worked example "
      "BF16 pad16 {2,3}: 64 input bytes, padding garbage ignored, FP32 = "
      "bits << 16 and BF16 = bits (NaN 0x7fc1, 0xff81 kept), nothing past "
      "the output");
}

/* ---- layout matrix ------------------------------------------------------ */

typedef struct {
  uint64_t cases, cblock, bytes, mismatched, failed, guards, input_changed;
} Tally;

static int
unpack_case (TestRng *rng, const SimaTensorSpec *in, SimaDType out_dtype,
    GenViewKind kind, Tally *t)
{
  SimaTensorSpec out = gen_view (rng, out_dtype, in->rank, in->shape, kind);
  uint64_t in_bytes = oracle_required_bytes (in);
  uint64_t out_bytes = oracle_required_bytes (&out);
  TestBuffer ib = test_buffer_new ((size_t) in_bytes, 0, 0);
  uint8_t *in_copy = malloc ((size_t) in_bytes + 1);
  int pass, ok = 1;
  size_t i;

  for (i = 0; i < ib.size; i++)
    ib.data[i] = (uint8_t) test_rng_next (rng);
  memcpy (in_copy, ib.data, ib.size);
  for (pass = 0; pass < 2; pass++) {
    uint8_t fill = pass ? 0x11 : 0xEE;
    TestBuffer ob = test_buffer_new ((size_t) out_bytes, 0, fill);
    uint8_t *want = malloc ((size_t) out_bytes + 1);
    SimaStatus st;

    memset (want, fill, (size_t) out_bytes);
    oracle_detesscast (in, ib.data, &out, want);
    st = run (in, ib.data, in_bytes, &out, ob.data, out_bytes);
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
  t->cblock += in->tiled.cblock != 0;
  if (!ok && t->mismatched + t->failed + t->guards < 6)
    tap_diag ("failing case: rank %d shape %s %s cblock %d, %s %s output",
        in->rank, test_shape_str (in->rank, in->shape),
        sima_channels_name (in->tiled.channels), in->tiled.cblock,
        sima_dtype_name (out_dtype), gen_view_kind_name (kind));
  test_buffer_free (&ib);
  free (in_copy);
  return ok;
}

static const int64_t channel_counts[] = { 1, 2, 3, 16, 17, 32, 33 };
#define N_CHANNEL_COUNTS (sizeof channel_counts / sizeof channel_counts[0])

static SimaTensorSpec
tiled_spec (const GenTiling *gt, int cblock)
{
  SimaTensorSpec in = test_spec_tiled (SIMA_DTYPE_BFLOAT16, gt->rank,
      gt->shape, gt->tiled.axes, gt->tiled.tile_shape, gt->tiled.channels);
  in.tiled.cblock = cblock;
  return in;
}

static void
layout_matrix (void)
{
  TestRng rng = { 0xde7ca57 };
  Tally t;
  int rank, c_axis, mode, kind;
  size_t ci;

  memset (&t, 0, sizeof t);
  for (rank = 1; rank <= SIMA_MAX_RANK; rank++)
    for (c_axis = 0; c_axis < rank; c_axis++)
      for (ci = 0; ci < N_CHANNEL_COUNTS; ci++)
        for (mode = 0; mode < 3; mode++)        /* compact, pad16, cblock */
          for (kind = 0; kind < GEN_VIEW_KIND_COUNT; kind++) {
            GenTiling gt;
            SimaTensorSpec in;
            gen_tiling (&rng, rank, c_axis, channel_counts[ci], mode
                ? SIMA_CHANNELS_PAD16 : SIMA_CHANNELS_COMPACT, &gt);
            in = tiled_spec (&gt, mode == 2);
            unpack_case (&rng, &in, test_rng_below (&rng, 2)
                ? SIMA_DTYPE_FLOAT32 : SIMA_DTYPE_BFLOAT16,
                (GenViewKind) kind, &t);
          }
  tap_ok (t.cases > 0 && t.mismatched == 0 && t.failed == 0 && t.guards == 0
      && t.input_changed == 0, "layout matrix: ranks 1-6 x every channel "
      "axis x C in {1,2,3,16,17,32,33} x compact/pad16/pad16 cblock x 4 "
      "output views: %llu cases (%llu cblock), %llu output bytes compared "
      "(holes included, two prefills each), %llu mismatched, %llu failed, "
      "%llu guard failures, %llu inputs changed",
      (unsigned long long) t.cases, (unsigned long long) t.cblock,
      (unsigned long long) t.bytes, (unsigned long long) t.mismatched,
      (unsigned long long) t.failed, (unsigned long long) t.guards,
      (unsigned long long) t.input_changed);
}

/* ---- CastTess then DetessCast ------------------------------------------- */

static SimaStatus
cast_run (const SimaTensorSpec *in, const void *in_data, uint64_t in_cap,
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

/* CastTess's FP32 rule (docs/casttess.md), written out here. */
static uint16_t
cast_rule (uint32_t bits)
{
  return (uint16_t) ((uint32_t) (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

static void
roundtrip (void)
{
  TestRng rng = { 0x70dd };
  uint64_t cases[2] = { 0, 0 }, bad[2] = { 0, 0 }, elems[2] = { 0, 0 };
  int rank, c_axis, mode, rep;
  size_t ci;

  for (rank = 1; rank <= SIMA_MAX_RANK; rank++)
    for (c_axis = 0; c_axis < rank; c_axis++)
      for (ci = 0; ci < N_CHANNEL_COUNTS; ci++)
        for (mode = 0; mode < 3; mode++)
          for (rep = 0; rep < 2; rep++) {
            const int f32 = rep;    /* CastTess input dtype: BF16, FP32 */
            SimaDType dt = f32 ? SIMA_DTYPE_FLOAT32 : SIMA_DTYPE_BFLOAT16;
            GenTiling gt;
            SimaTensorSpec dense, tiled, back;
            uint64_t n = 1, tb, i;
            uint8_t *x, *tiles, *y;
            int a, ok;
            gen_tiling (&rng, rank, c_axis, channel_counts[ci], mode
                ? SIMA_CHANNELS_PAD16 : SIMA_CHANNELS_COMPACT, &gt);
            tiled = tiled_spec (&gt, mode == 2);
            dense = test_spec_dense (dt, rank, gt.shape);
            back = test_spec_dense (dt, rank, gt.shape);
            for (a = 0; a < rank; a++)
              n *= (uint64_t) gt.shape[a];
            tb = oracle_required_bytes (&tiled);
            x = malloc (n * 4 + 4);
            y = malloc (n * 4 + 4);
            tiles = alloc_aligned (16, tb);
            for (i = 0; i < n * 4; i++)
              x[i] = (uint8_t) test_rng_next (&rng);
            ok = cast_run (&dense, x, n * (f32 ? 4 : 2), &tiled, tiles, tb)
                .code == SIMA_OK
                && run (&tiled, tiles, tb, &back, y, n * (f32 ? 4 : 2)).code
                == SIMA_OK;
            for (i = 0; ok && i < n; i++) {
              if (f32) {
                uint32_t xb, yb;
                memcpy (&xb, x + 4 * i, 4);
                memcpy (&yb, y + 4 * i, 4);
                ok = yb == (uint32_t) cast_rule (xb) << 16;
              } else {
                ok = memcmp (x + 2 * i, y + 2 * i, 2) == 0;
              }
            }
            cases[f32]++;
            elems[f32] += n;
            if (!ok && bad[f32]++ < 4)
              tap_diag ("round trip %s rank %d shape %s %s cblock %d fails",
                  sima_dtype_name (dt), rank, test_shape_str (rank,
                      gt.shape), sima_channels_name (tiled.tiled.channels),
                  tiled.tiled.cblock);
            free (x);
            free (y);
            free (tiles);
          }
  tap_ok (bad[0] == 0, "CastTess -> DetessCast on BF16 is the identity: "
      "%llu tensors, %llu random encodings, %llu failures",
      (unsigned long long) cases[0], (unsigned long long) elems[0],
      (unsigned long long) bad[0]);
  tap_ok (bad[1] == 0, "CastTess -> DetessCast on FP32 is the CastTess "
      "rule << 16: %llu tensors, %llu random patterns, %llu failures",
      (unsigned long long) cases[1], (unsigned long long) elems[1],
      (unsigned long long) bad[1]);
}

/* ---- rejections --------------------------------------------------------- */

static int
all_bytes (const uint8_t *p, size_t n, uint8_t v)
{
  size_t i;
  for (i = 0; i < n; i++)
    if (p[i] != v)
      return 0;
  return 1;
}

static void
rejections (void)
{
  static const int64_t shape[3] = { 2, 2, 3 };
  static const int8_t axes[4] = { -1, 0, 1, 2 };
  static const int64_t tile[4] = { 1, 2, 2, 16 };
  SimaTensorSpec in = test_spec_tiled (SIMA_DTYPE_BFLOAT16, 3, shape, axes,
      tile, SIMA_CHANNELS_PAD16);
  SimaTensorSpec out = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, shape);
  SimaDetessCastRequest req = { &in, 1, &out, 1 };
  SimaDetessCastPlan plan;
  SimaA65DetessCastPlan a65;
  uint8_t buf[512] __attribute__ ((aligned (16)));

  expect_status ("valid request", sima_detesscast_check_inference (&req,
          &plan), SIMA_OK, NULL);
  tap_ok (plan.input_bytes == 128 && plan.output_bytes == 48
      && plan.element_count == 12 && plan.input_geometry.element_bytes == 2,
      "sizes: 4 pad16 BF16 pixels = 128 input bytes, 12 FP32 = 48 output "
      "bytes");

  in.dtype = SIMA_DTYPE_INT8;
  expect_status ("INT8 input", sima_detesscast_check_inference (&req, &plan),
      SIMA_UNSUPPORTED_DTYPE, "DetessCast input dtype is int8, must be "
      "bfloat16", NULL);
  in.dtype = SIMA_DTYPE_FLOAT32;
  expect_status ("FP32 input", sima_detesscast_check_inference (&req, &plan),
      SIMA_UNSUPPORTED_DTYPE, "input dtype is float32", NULL);
  in.dtype = SIMA_DTYPE_BFLOAT16;
  out.dtype = SIMA_DTYPE_FLOAT16;
  expect_status ("FP16 output", sima_detesscast_check_inference (&req, &plan),
      SIMA_UNSUPPORTED_DTYPE, "DetessCast output dtype is float16, must be "
      "float32 or bfloat16", NULL);
  out.dtype = SIMA_DTYPE_INT8;
  expect_status ("INT8 output", sima_detesscast_check_inference (&req, &plan),
      SIMA_UNSUPPORTED_DTYPE, "output dtype is int8", NULL);
  out.dtype = SIMA_DTYPE_BFLOAT16;
  expect_status ("BF16 output", sima_detesscast_check_inference (&req, &plan),
      SIMA_OK, NULL);
  out.dtype = SIMA_DTYPE_FLOAT32;
  in.rank = out.rank = 0;
  expect_status ("rank 0", sima_detesscast_check_inference (&req, &plan),
      SIMA_INVALID_RANK, "rank", NULL);
  in.rank = out.rank = 7;
  expect_status ("rank 7", sima_detesscast_check_inference (&req, &plan),
      SIMA_INVALID_RANK, "rank", NULL);
  in.rank = out.rank = 3;
  in.layout = SIMA_LAYOUT_MLA_CBLOCKED;
  expect_status ("BF16 mla-cblocked input",
      sima_detesscast_check_inference (&req, &plan), SIMA_UNSUPPORTED_LAYOUT,
      "DetessCast input layout is mla-cblocked, must be mla-tiled",
      "int8 only", NULL);
  in.layout = SIMA_LAYOUT_CONTIGUOUS;
  expect_status ("contiguous input", sima_detesscast_check_inference (&req,
          &plan), SIMA_UNSUPPORTED_LAYOUT, "input layout is contiguous, must "
      "be mla-tiled", NULL);
  in.layout = SIMA_LAYOUT_MLA_TILED;
  out.layout = SIMA_LAYOUT_MLA_TILED;
  expect_status ("tiled output", sima_detesscast_check_inference (&req,
          &plan), SIMA_UNSUPPORTED_LAYOUT, "output layout is mla-tiled", NULL);
  out.layout = SIMA_LAYOUT_CONTIGUOUS;
  out.shape[1] = 3;
  expect_status ("shape mismatch", sima_detesscast_check_inference (&req,
          &plan), SIMA_SHAPE_MISMATCH, "axis 1 is 2 but output extent is 3",
      NULL);
  out.shape[1] = 2;
  in.tiled.cblock = 1;
  in.tiled.channels = SIMA_CHANNELS_COMPACT;
  expect_status ("cblock with compact channels",
      sima_detesscast_check_inference (&req, &plan), SIMA_INVALID_TILING,
      NULL);
  in.tiled.channels = SIMA_CHANNELS_PAD16;
  expect_status ("cblock with pad16", sima_detesscast_check_inference (&req,
          &plan), SIMA_OK, NULL);
  in.tiled.cblock = 0;
  out.layout = SIMA_LAYOUT_STRIDED;
  out.strides_bytes[0] = 24;
  out.strides_bytes[1] = 8;
  out.strides_bytes[2] = 4;
  expect_status ("overlapping output strides",
      sima_detesscast_check_inference (&req, &plan),
      SIMA_OVERLAPPING_STRIDES, "output stride on axis 1 is 8 bytes", NULL);
  out.strides_bytes[2] = 2;
  out.strides_bytes[1] = 12;
  expect_status ("output stride not a multiple of 4",
      sima_detesscast_check_inference (&req, &plan), SIMA_INVALID_STRIDES,
      "not a multiple of the 4-byte scalar", NULL);
  out.layout = SIMA_LAYOUT_CONTIGUOUS;
  expect_status ("NULL request", sima_detesscast_check_inference (NULL,
          &plan), SIMA_INVALID_ARGUMENT, "request is NULL", NULL);
  req.n_outputs = 2;
  expect_status ("two outputs", sima_detesscast_check_inference (&req,
          &plan), SIMA_INVALID_ARITY, "1 input and 1 output", NULL);
  req.n_outputs = 1;

  sima_detesscast_check_inference (&req, &plan);
  sima_a65_detesscast_prepare (&plan, &a65);
  {
    /* input [0, 128), output [256, 304) of buf; after each rejection the
     * output region must still hold its prefill */
    SimaConstHostBuffer ib = { buf, 128 };
    SimaHostBuffer ob = { buf + 256, 48 };
    int untouched = 1;
    memset (buf, 0x3c, sizeof buf);
#define REJECT(name, code, frag)                                             \
    do {                                                                     \
      expect_status (name, sima_a65_detesscast_execute (&a65, &ib, 1, &ob,   \
              1), code, frag, NULL);                                         \
      untouched &= all_bytes (buf, sizeof buf, 0x3c);                        \
    } while (0)
    ib.capacity = 127;
    REJECT ("input capacity short by one", SIMA_CAPACITY_TOO_SMALL,
        "input capacity is 127 bytes, 128 required");
    ib.capacity = 128;
    ob.capacity = 47;
    REJECT ("output capacity short by one", SIMA_CAPACITY_TOO_SMALL,
        "output capacity is 47 bytes, 48 required");
    ob.capacity = 48;
    ib.data = buf + 8;
    REJECT ("input not 16-byte aligned", SIMA_MISALIGNED_BUFFER, "16-byte");
    ib.data = buf;
    ob.data = buf + 258;
    REJECT ("FP32 output not 4-byte aligned", SIMA_MISALIGNED_BUFFER,
        "4-byte");
    ob.data = buf + 100;        /* [100, 148) against [0, 128) */
    REJECT ("output overlapping the input", SIMA_OVERLAPPING_BUFFERS,
        "overlap");
    ob.data = NULL;
    REJECT ("NULL output for a nonempty tensor", SIMA_NULL_BUFFER,
        "output buffer is NULL");
    ob.data = buf + 256;
    ib.data = NULL;
    REJECT ("NULL input for a nonempty tensor", SIMA_NULL_BUFFER,
        "input buffer is NULL");
    ib.data = buf;
#undef REJECT
    tap_ok (untouched, "no rejected execute wrote a byte");
    ob.data = buf + 128;        /* adjacent: [0, 128) and [128, 176) */
    expect_status ("adjacent input and output",
        sima_a65_detesscast_execute (&a65, &ib, 1, &ob, 1), SIMA_OK, NULL);
  }
  {
    /* empty tensors: valid, NULL buffers, nothing done */
    SimaTensorSpec ei = in, eo = out;
    SimaConstHostBuffer ib = { NULL, 0 };
    SimaHostBuffer ob = { NULL, 0 };
    ei.shape[0] = eo.shape[0] = 0;
    req.inputs = &ei;
    req.outputs = &eo;
    expect_status ("empty tensor", sima_detesscast_check_inference (&req,
            &plan), SIMA_OK, NULL);
    tap_ok (plan.element_count == 0 && plan.input_bytes == 0
        && plan.output_bytes == 0, "empty tensor needs 0 bytes");
    expect_status ("empty prepare", sima_a65_detesscast_prepare (&plan,
            &a65), SIMA_OK, NULL);
    expect_status ("empty execute with NULL buffers",
        sima_a65_detesscast_execute (&a65, &ib, 1, &ob, 1), SIMA_OK, NULL);
    req.inputs = &in;
    req.outputs = &out;
  }
  {
    SimaDetessCastPlan bad;
    memset (&bad, 0, sizeof bad);
    bad.output.dtype = SIMA_DTYPE_FLOAT16;
    bad.input_geometry.element_bytes = 2;
    bad.element_count = 1;
    expect_status ("prepare of a made-up plan",
        sima_a65_detesscast_prepare (&bad, &a65), SIMA_UNSUPPORTED_DTYPE,
        "was the plan made by sima_detesscast_check_inference", NULL);
    expect_status ("execute of an unprepared plan",
        sima_a65_detesscast_execute (&a65, NULL, 1, NULL, 1),
        SIMA_INVALID_ARGUMENT, "not prepared", NULL);
  }
}

/* ---- sets ---------------------------------------------------------------- */

static SimaDetessCastSetPlan set_plan;
static SimaA65DetessCastSetPlan set_a65;

static void
sets (void)
{
  TestRng rng = { 0x5e75 };
  uint64_t trials = 0, members = 0, bad = 0;
  int trial;

  for (trial = 0; trial < 60; trial++) {
    SimaTensorSet in_set, out_set;
    SimaTensorSpec in_specs[6], out_specs[6];
    SimaDetessCastSetRequest req = { &in_set, &out_set };
    SimaConstHostBuffer ib;
    SimaHostBuffer ob;
    uint8_t *in_buf, *set_out, *single_out;
    uint64_t in_cap, out_cap;
    size_t n = (size_t) test_rng_range (&rng, 1, 6), i, b;
    int ok = 1;

    for (i = 0; i < n; i++) {
      GenTiling gt;
      int rank = (int) test_rng_range (&rng, 1, 4);
      int mode = (int) test_rng_below (&rng, 3);
      gen_tiling (&rng, rank, (int) test_rng_below (&rng, (uint64_t) rank),
          channel_counts[test_rng_below (&rng, N_CHANNEL_COUNTS)], mode
          ? SIMA_CHANNELS_PAD16 : SIMA_CHANNELS_COMPACT, &gt);
      if (test_rng_below (&rng, 8) == 0)
        gt.shape[0] = 0;        /* an empty member now and then */
      in_specs[i] = tiled_spec (&gt, mode == 2);
      out_specs[i] = gen_view (&rng, test_rng_below (&rng, 2)
          ? SIMA_DTYPE_FLOAT32 : SIMA_DTYPE_BFLOAT16, rank, gt.shape,
          (GenViewKind) test_rng_below (&rng, GEN_VIEW_KIND_COUNT));
    }
    if (sima_tensor_set_pack (in_specs, n, test_rng_below (&rng, 2) ? 64 : 0,
            "input", &in_set).code != SIMA_OK
        || sima_tensor_set_pack (out_specs, n, 0, "output", &out_set).code
        != SIMA_OK
        || sima_detesscast_set_check_inference (&req, &set_plan).code
        != SIMA_OK
        || sima_a65_detesscast_set_prepare (&set_plan, &set_a65).code
        != SIMA_OK) {
      tap_diag ("set %d not admitted", trial);
      bad++;
      continue;
    }
    in_cap = set_plan.input_bytes;
    out_cap = set_plan.output_bytes;
    in_buf = alloc_aligned (64, in_cap);
    set_out = alloc_aligned (64, out_cap);
    single_out = alloc_aligned (64, out_cap);
    for (b = 0; b < in_cap; b++)
      in_buf[b] = (uint8_t) test_rng_next (&rng);
    memset (set_out, 0x77, out_cap);
    memset (single_out, 0x77, out_cap);
    ib = (SimaConstHostBuffer) { in_buf, in_cap };
    ob = (SimaHostBuffer) { set_out, out_cap };
    ok &= sima_a65_detesscast_set_execute (&set_a65, &ib, &ob).code
        == SIMA_OK;
    for (i = 0; i < n; i++) {
      uint64_t io = in_set.members[i].offset, oo = out_set.members[i].offset;
      if (sima_shape_is_empty (&in_specs[i]))
        continue;
      ok &= run (&in_specs[i], in_buf + io, in_cap - io, &out_specs[i],
          single_out + oo, out_cap - oo).code == SIMA_OK;
    }
    ok &= memcmp (set_out, single_out, out_cap) == 0;
    /* and the oracle, member by member, on the set's buffer */
    memset (single_out, 0x77, out_cap);
    for (i = 0; i < n; i++)
      if (!sima_shape_is_empty (&in_specs[i]))
        oracle_detesscast (&in_specs[i], in_buf + in_set.members[i].offset,
            &out_specs[i], single_out + out_set.members[i].offset);
    ok &= memcmp (set_out, single_out, out_cap) == 0;
    /* overlapping sets: rejected, nothing written */
    if (in_cap > 0 && out_cap > 0) {
      SimaHostBuffer bad_ob = { (uint8_t *) in_buf, out_cap };
      uint8_t *copy = malloc (in_cap);
      memcpy (copy, in_buf, in_cap);
      ok &= sima_a65_detesscast_set_execute (&set_a65, &ib, &bad_ob).code
          == SIMA_OVERLAPPING_BUFFERS && memcmp (copy, in_buf, in_cap) == 0;
      free (copy);
    }
    trials++;
    members += n;
    if (!ok && bad++ < 4)
      tap_diag ("set trial %d (%zu members) differs", trial, n);
    free (in_buf);
    free (set_out);
    free (single_out);
  }
  tap_ok (bad == 0, "sets: %llu sets of 1-6 members (%llu members, empty "
      "ones included) byte-equal to one single call per member and to the "
      "oracle; overlapping sets rejected unwritten; %llu failures",
      (unsigned long long) trials, (unsigned long long) members,
      (unsigned long long) bad);
}

int
main (void)
{
  numerics ();
  worked_example ();
  layout_matrix ();
  roundtrip ();
  rejections ();
  sets ();
  return tap_done ();
}
