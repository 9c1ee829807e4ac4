/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SiMa's cblock tile order (SimaMlaTiled.cblock, docs/layout.md "cblock
 * tiles") in the core and the A65 executors, against this suite's own byte
 * map (cblock_ref.h: tiles walked in physical order, in-tile positions by
 * the normative formula), never against sima_tiled_element_offset:
 *  - geometry: C in {1,3,16,17,32,33,64,80} x C tiles {16,32,64,80} x three
 *    mappings with boundary tiles along D, H, W and C (outer axes, D, a
 *    channels-first mapping), INT8 and BF16: sizes equal the flag-less
 *    ones, every element offset equals the map's;
 *  - admission: cblock 2 / -1, cblock with compact channels, through the
 *    geometry and the three operations; mla-cblocked ignores the field;
 *  - QuantTess, CastTess: the cblock output is the flag-less output with
 *    every value moved to where the map says, padding channels the zero
 *    point (QuantTess) or 0 (CastTess), gaps 0, on a dirty buffer; with at
 *    most 16 stored channels per tile both outputs are the same bytes;
 *  - DetessDequant: a cblock input and the flag-less input with the same
 *    values give the same output, whatever the padding and gap bytes hold.
 * Runs with the SIMD leaves and with SIMA_KERNELS_DISABLE=all (meson).
 */
#include <simaai/kernels/a65/casttess.h>
#include <simaai/kernels/a65/detessdequant.h>
#include <simaai/kernels/a65/quanttess.h>
#include <simaai/kernels/layout.h>
#include <simaai/kernels/ops/casttess.h>
#include <simaai/kernels/ops/detessdequant.h>
#include <simaai/kernels/ops/quanttess.h>

#include <stdlib.h>
#include <string.h>

#include "cblock_ref.h"
#include "layout_gen.h"
#include "tap.h"
#include "test_util.h"

static const int64_t channel_counts[] = { 1, 3, 16, 17, 32, 33, 64, 80 };
static const int64_t c_tiles[] = { 16, 32, 64, 80 };
enum { N_C = 8, N_CT = 4, N_MAP = 3 };

/* Mapping m with C = c and C tile ct, as a tiled spec of `dtype`:
 *  0: [H=3, W=5, C], tile H2 W3: boundary tiles along H and W;
 *  1: [N=2, C, H=3, W=2] (channels-first logical order, outer N), tile
 *     H2 W2: boundary along H;
 *  2: [N=2, D=3, H=2, W=3, C], tile D2 H1 W2: boundary along D and W. */
static SimaTensorSpec
mapping (int m, int64_t c, int64_t ct, SimaDType dtype, int cblock)
{
  SimaTensorSpec s;

  if (m == 0) {
    int64_t shape[3] = { 3, 5, c };
    int8_t axes[4] = { -1, 0, 1, 2 };
    int64_t tile[4] = { 1, 2, 3, ct };
    s = test_spec_tiled (dtype, 3, shape, axes, tile, SIMA_CHANNELS_PAD16);
  } else if (m == 1) {
    int64_t shape[4] = { 2, c, 3, 2 };
    int8_t axes[4] = { -1, 2, 3, 1 };
    int64_t tile[4] = { 1, 2, 2, ct };
    s = test_spec_tiled (dtype, 4, shape, axes, tile, SIMA_CHANNELS_PAD16);
  } else {
    int64_t shape[5] = { 2, 3, 2, 3, c };
    int8_t axes[4] = { 1, 2, 3, 4 };
    int64_t tile[4] = { 2, 1, 2, ct };
    s = test_spec_tiled (dtype, 5, shape, axes, tile, SIMA_CHANNELS_PAD16);
  }
  s.tiled.cblock = cblock;
  return s;
}

/* Largest stored-channel count of any tile: <= 16 means both orders are
 * the same bytes. */
static int64_t
max_stored (int64_t c, int64_t ct)
{
  int64_t e = c < ct ? c : ct;
  return (e + 15) / 16 * 16;
}

/* ---- geometry ------------------------------------------------------------ */

static void
geometry (void)
{
  uint64_t cases = 0, elements = 0, bad_size = 0, bad_offset = 0, bad_ref0 = 0;
  int m, i, j, eb;

  for (m = 0; m < N_MAP; m++)
    for (i = 0; i < N_C; i++)
      for (j = 0; j < N_CT; j++)
        for (eb = 1; eb <= 2; eb++) {
          SimaDType dt = eb == 1 ? SIMA_DTYPE_INT8 : SIMA_DTYPE_BFLOAT16;
          SimaTensorSpec s1 = mapping (m, channel_counts[i], c_tiles[j], dt, 1);
          SimaTensorSpec s0 = mapping (m, channel_counts[i], c_tiles[j], dt, 0);
          SimaTiledGeometry g1, g0;
          RefMap r1, r0;
          int64_t coords[SIMA_MAX_RANK] = { 0 };
          uint64_t e = 0;
          int a;

          cases++;
          if (sima_tiled_geometry_init (&s1, eb, "output", &g1).code != SIMA_OK
              || sima_tiled_geometry_init (&s0, eb, "output", &g0).code
              != SIMA_OK) {
            bad_size++;
            continue;
          }
          ref_map_build (&s1, eb, &r1);
          ref_map_build (&s0, eb, &r0);
          bad_size += g1.total_bytes != r1.total || g0.total_bytes != r0.total
              || g1.total_bytes != g0.total_bytes;
          for (;;) {
            elements++;
            bad_offset += sima_tiled_element_offset (&g1, coords) != r1.lo[e];
            bad_ref0 += sima_tiled_element_offset (&g0, coords) != r0.lo[e];
            e++;
            for (a = s1.rank - 1; a >= 0; a--) {
              if (++coords[a] < s1.shape[a])
                break;
              coords[a] = 0;
            }
            if (a < 0)
              break;
          }
          ref_map_free (&r1);
          ref_map_free (&r0);
        }
  tap_ok (bad_size == 0, "cblock geometry: %llu INT8/BF16 tilings (C x C "
      "tile x 3 mappings): total size equals the map's and the flag-less "
      "size (%llu mismatches)", (unsigned long long) cases,
      (unsigned long long) bad_size);
  tap_ok (bad_offset == 0 && bad_ref0 == 0, "cblock element offsets of %llu "
      "elements equal (c/16)*P*16*eb + p*16*eb + c%%16 past the tile offset "
      "(%llu mismatches; flag-less offsets against the same map: %llu)",
      (unsigned long long) elements, (unsigned long long) bad_offset,
      (unsigned long long) bad_ref0);

  {
    /* the doc's example: [W,C] = {2,17}, tile {1,1,2,32}, INT8 */
    int64_t shape[2] = { 2, 17 };
    int8_t axes[4] = { -1, -1, 0, 1 };
    int64_t tile[4] = { 1, 1, 2, 32 };
    SimaTensorSpec s = test_spec_tiled (SIMA_DTYPE_INT8, 2, shape, axes, tile,
        SIMA_CHANNELS_PAD16);
    SimaTiledGeometry g;
    int64_t w0c15[2] = { 0, 15 }, w1c0[2] = { 1, 0 }, w0c16[2] = { 0, 16 },
        w1c16[2] = { 1, 16 };
    s.tiled.cblock = 1;
    sima_tiled_geometry_init (&s, 1, "output", &g);
    tap_ok (g.total_bytes == 64 && sima_tiled_element_offset (&g, w0c15) == 15
        && sima_tiled_element_offset (&g, w1c0) == 16
        && sima_tiled_element_offset (&g, w0c16) == 32
        && sima_tiled_element_offset (&g, w1c16) == 48,
        "docs/layout.md cblock example: 64 bytes, (w0,c15) 15, (w1,c0) 16, "
        "(w0,c16) 32, (w1,c16) 48");
  }
}

/* ---- admission ----------------------------------------------------------- */

static int
rejected (SimaStatus st, const char *fragment)
{
  return st.code == SIMA_INVALID_TILING && strstr (st.message, fragment);
}

static void
admission (void)
{
  SimaTensorSpec t = mapping (0, 17, 32, SIMA_DTYPE_INT8, 2);
  SimaTiledGeometry g;
  SimaStatus st;
  int64_t shape[3] = { 3, 5, 17 };
  SimaTensorSpec dense = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, shape);

  st = sima_tiled_geometry_init (&t, 1, "output", &g);
  tap_ok (rejected (st, "cblock is 2"), "cblock 2 is invalid-tiling naming "
      "the field and value: %s", st.message);
  t.tiled.cblock = -1;
  st = sima_tiled_geometry_init (&t, 1, "output", &g);
  tap_ok (rejected (st, "cblock is -1"), "cblock -1 is invalid-tiling: %s",
      st.message);
  t.tiled.cblock = 1;
  t.tiled.channels = SIMA_CHANNELS_COMPACT;
  st = sima_tiled_geometry_init (&t, 1, "output", &g);
  tap_ok (rejected (st, "cblock is 1 with compact"), "cblock with compact "
      "channels is invalid-tiling: %s", st.message);

  {
    SimaQuantTessPlan qp;
    SimaQuantTessRequest q = { &dense, 1, &t, 1,
      { 1.0f, 0, SIMA_ROUNDING_NEAREST_EVEN } };
    SimaCastTessPlan cp;
    SimaTensorSpec bt = t;
    SimaCastTessRequest c = { &dense, 1, &bt, 1 };
    SimaDetessDequantPlan dp;
    SimaDetessDequantRequest d;
    SimaStatus s1, s2, s3, s4, s5, s6;

    bt.dtype = SIMA_DTYPE_BFLOAT16;
    memset (&d, 0, sizeof d);
    d.inputs = &t;
    d.n_inputs = 1;
    d.outputs = &dense;
    d.n_outputs = 1;
    d.params.scale = 0.5f;
    s1 = sima_quanttess_check_inference (&q, &qp);
    s2 = sima_casttess_check_inference (&c, &cp);
    s3 = sima_detessdequant_check_inference (&d, &dp);
    t.tiled.channels = SIMA_CHANNELS_PAD16;
    bt.tiled.channels = SIMA_CHANNELS_PAD16;
    t.tiled.cblock = bt.tiled.cblock = 2;
    s4 = sima_quanttess_check_inference (&q, &qp);
    s5 = sima_casttess_check_inference (&c, &cp);
    s6 = sima_detessdequant_check_inference (&d, &dp);
    tap_ok (rejected (s1, "cblock") && rejected (s2, "cblock")
        && rejected (s3, "cblock") && rejected (s4, "cblock is 2")
        && rejected (s5, "cblock is 2") && rejected (s6, "cblock is 2"),
        "QuantTess, CastTess, DetessDequant reject cblock+compact and "
        "cblock 2: %s / %s / %s", s1.message, s2.message, s6.message);
    t.tiled.cblock = bt.tiled.cblock = 1;
    s4 = sima_quanttess_check_inference (&q, &qp);
    s5 = sima_casttess_check_inference (&c, &cp);
    s6 = sima_detessdequant_check_inference (&d, &dp);
    tap_ok (s4.code == SIMA_OK && s5.code == SIMA_OK && s6.code == SIMA_OK
        && qp.output_bytes == cp.output_bytes / 2
        && dp.input_bytes == qp.output_bytes,
        "the three operations admit cblock with pad16, sizes unchanged");
  }
  {
    /* mla-cblocked does not use `tiled`: a stray cblock value is ignored */
    int64_t cs[3] = { 2, 3, 17 };
    SimaTensorSpec cb = test_spec_dense (SIMA_DTYPE_INT8, 3, cs);
    uint64_t bytes = 0;
    cb.layout = SIMA_LAYOUT_MLA_CBLOCKED;
    cb.tiled.cblock = 7;
    st = sima_tensor_required_bytes (&cb, "input", &bytes);
    tap_ok (st.code == SIMA_OK && bytes == 192, "mla-cblocked ignores "
        "tiled.cblock (7): 192 bytes (%s)", st.message);
  }
}

/* ---- the three operations ------------------------------------------------ */

typedef struct {
  uint64_t cases, same_cases, bad, bad_same, failed;
} Tally;

static SimaStatus
quant (const SimaTensorSpec *in, const void *src, uint64_t in_cap,
    const SimaTensorSpec *out, void *dst, uint64_t out_cap, int32_t zp)
{
  SimaQuantTessRequest req = { in, 1, out, 1,
    { 0.25f, zp, SIMA_ROUNDING_NEAREST_EVEN } };
  SimaQuantTessPlan plan;
  SimaA65QuantTessPlan a65;
  SimaConstHostBuffer ib = { src, in_cap };
  SimaHostBuffer ob = { dst, out_cap };
  SimaStatus st = sima_quanttess_check_inference (&req, &plan);
  if (st.code == SIMA_OK)
    st = sima_a65_quanttess_prepare (&plan, &a65);
  if (st.code == SIMA_OK)
    st = sima_a65_quanttess_execute (&a65, &ib, 1, &ob, 1);
  return st;
}

static SimaStatus
cast (const SimaTensorSpec *in, const void *src, uint64_t in_cap,
    const SimaTensorSpec *out, void *dst, uint64_t out_cap)
{
  SimaCastTessRequest req = { in, 1, out, 1 };
  SimaCastTessPlan plan;
  SimaA65CastTessPlan a65;
  SimaConstHostBuffer ib = { src, in_cap };
  SimaHostBuffer ob = { dst, out_cap };
  SimaStatus st = sima_casttess_check_inference (&req, &plan);
  if (st.code == SIMA_OK)
    st = sima_a65_casttess_prepare (&plan, &a65);
  if (st.code == SIMA_OK)
    st = sima_a65_casttess_execute (&a65, &ib, 1, &ob, 1);
  return st;
}

static SimaStatus
dequant (const SimaTensorSpec *in, const void *src, uint64_t in_cap,
    const SimaTensorSpec *out, void *dst, uint64_t out_cap)
{
  SimaDetessDequantRequest req;
  SimaDetessDequantPlan plan;
  SimaA65DetessDequantPlan a65;
  SimaConstHostBuffer ib = { src, in_cap };
  SimaHostBuffer ob = { dst, out_cap };
  SimaStatus st;

  memset (&req, 0, sizeof req);
  req.inputs = in;
  req.n_inputs = 1;
  req.outputs = out;
  req.n_outputs = 1;
  req.params.scale = 0.125f;
  req.params.zero_point = -3;
  st = sima_detessdequant_check_inference (&req, &plan);
  if (st.code == SIMA_OK)
    st = sima_a65_detessdequant_prepare (&plan, &a65);
  if (st.code == SIMA_OK)
    st = sima_a65_detessdequant_execute (&a65, &ib, 1, &ob, 1);
  return st;
}

/* One pack case (QuantTess when eb 1, CastTess when eb 2) over a dense
 * view of `kind`. */
static void
pack_case (TestRng *rng, int m, int64_t c, int64_t ct, int eb,
    GenViewKind kind, Tally *t)
{
  SimaDType dt = eb == 1 ? SIMA_DTYPE_INT8 : SIMA_DTYPE_BFLOAT16;
  SimaTensorSpec o1 = mapping (m, c, ct, dt, 1), o0 = mapping (m, c, ct, dt, 0);
  SimaTensorSpec in = gen_view (rng, SIMA_DTYPE_FLOAT32, o1.rank, o1.shape,
      kind);
  const int32_t zp = 7;
  uint8_t pad = eb == 1 ? (uint8_t) zp : 0;
  uint64_t in_bytes = 0, k, e;
  RefMap r1, r0;
  TestBuffer ib, b0, b1;
  uint8_t *want;
  SimaStatus s0, s1;
  int bad = 0;

  sima_tensor_required_bytes (&in, "input", &in_bytes);
  ref_map_build (&o1, eb, &r1);
  ref_map_build (&o0, eb, &r0);
  ib = test_buffer_new ((size_t) in_bytes, 0, 0);
  gen_fill_values (rng, SIMA_DTYPE_FLOAT32, 0.25f, ib.data, (size_t) in_bytes);
  b0 = test_buffer_new ((size_t) r0.total, 0, 0xA5);
  b1 = test_buffer_new ((size_t) r1.total, 0, 0xA5);
  want = malloc ((size_t) r1.total + 1);
  if (eb == 1) {
    s0 = quant (&in, ib.data, in_bytes, &o0, b0.data, r0.total, zp);
    s1 = quant (&in, ib.data, in_bytes, &o1, b1.data, r1.total, zp);
  } else {
    s0 = cast (&in, ib.data, in_bytes, &o0, b0.data, r0.total);
    s1 = cast (&in, ib.data, in_bytes, &o1, b1.data, r1.total);
  }
  t->cases++;
  if (s0.code != SIMA_OK || s1.code != SIMA_OK) {
    if (t->failed++ == 0)
      tap_diag ("pack C%lld tile %lld map %d: %s / %s", (long long) c,
          (long long) ct, m, s0.message, s1.message);
    goto done;
  }
  for (k = 0; k < r1.total; k++)
    want[k] = r1.kind[k] == REF_PAD ? pad : 0;   /* values overwritten below */
  for (e = 0; e < r1.count; e++) {
    want[r1.lo[e]] = b0.data[r0.lo[e]];
    want[r1.hi[e]] = b0.data[r0.hi[e]];
  }
  for (k = 0; k < r1.total; k++)
    bad |= want[k] != b1.data[k];
  bad |= !test_buffer_guards_ok (&b1);
  if (bad && t->bad++ == 0)
    tap_diag ("pack C%lld tile %lld map %d eb %d view %s: output differs",
        (long long) c, (long long) ct, m, eb, gen_view_kind_name (kind));
  if (max_stored (c, ct) <= 16) {
    t->same_cases++;
    t->bad_same += memcmp (b0.data, b1.data, (size_t) r0.total) != 0;
  }
done:
  free (want);
  test_buffer_free (&ib);
  test_buffer_free (&b0);
  test_buffer_free (&b1);
  ref_map_free (&r1);
  ref_map_free (&r0);
}

static void
dequant_case (TestRng *rng, int m, int64_t c, int64_t ct, GenViewKind kind,
    SimaDType out_dtype, Tally *t)
{
  SimaTensorSpec i1 = mapping (m, c, ct, SIMA_DTYPE_INT8, 1);
  SimaTensorSpec i0 = mapping (m, c, ct, SIMA_DTYPE_INT8, 0);
  SimaTensorSpec out = gen_view (rng, out_dtype, i1.rank, i1.shape, kind);
  uint64_t out_bytes = 0, k, e;
  RefMap r1, r0;
  TestBuffer in1, in0, o1, o0, o2;
  SimaStatus s0, s1, s2;
  int bad;

  sima_tensor_required_bytes (&out, "output", &out_bytes);
  ref_map_build (&i1, 1, &r1);
  ref_map_build (&i0, 1, &r0);
  in1 = test_buffer_new ((size_t) r1.total, 0, 0);
  in0 = test_buffer_new ((size_t) r0.total, 0, 0);
  for (k = 0; k < r1.total; k++) {
    in1.data[k] = (uint8_t) test_rng_next (rng);
    in0.data[k] = (uint8_t) test_rng_next (rng);
  }
  for (e = 0; e < r1.count; e++)
    in0.data[r0.lo[e]] = in1.data[r1.lo[e]];
  o0 = test_buffer_new ((size_t) out_bytes, 0, 0x5A);
  o1 = test_buffer_new ((size_t) out_bytes, 0, 0x5A);
  o2 = test_buffer_new ((size_t) out_bytes, 0, 0x5A);
  s0 = dequant (&i0, in0.data, r0.total, &out, o0.data, out_bytes);
  s1 = dequant (&i1, in1.data, r1.total, &out, o1.data, out_bytes);
  /* padding and gaps hold something else: the output must not change */
  for (k = 0; k < r1.total; k++)
    if (r1.kind[k] != REF_VALUE)
      in1.data[k] ^= 0xFF;
  s2 = dequant (&i1, in1.data, r1.total, &out, o2.data, out_bytes);
  t->cases++;
  if (s0.code != SIMA_OK || s1.code != SIMA_OK || s2.code != SIMA_OK) {
    if (t->failed++ == 0)
      tap_diag ("dequant C%lld tile %lld map %d: %s", (long long) c,
          (long long) ct, m, s1.message);
    goto done;
  }
  bad = memcmp (o0.data, o1.data, (size_t) out_bytes) != 0
      || memcmp (o1.data, o2.data, (size_t) out_bytes) != 0
      || !test_buffer_guards_ok (&o1) || !test_buffer_guards_ok (&in1);
  if (bad && t->bad++ == 0)
    tap_diag ("dequant C%lld tile %lld map %d view %s: output differs",
        (long long) c, (long long) ct, m, gen_view_kind_name (kind));
  if (max_stored (c, ct) <= 16) {
    /* the same bytes read either way */
    t->same_cases++;
    for (e = 0; e < r1.count; e++)
      t->bad_same += r1.lo[e] != r0.lo[e];
  }
done:
  test_buffer_free (&in1);
  test_buffer_free (&in0);
  test_buffer_free (&o0);
  test_buffer_free (&o1);
  test_buffer_free (&o2);
  ref_map_free (&r1);
  ref_map_free (&r0);
}

static void
report (const char *label, const Tally *t)
{
  tap_ok (t->failed == 0 && t->bad == 0, "%s: %llu cblock cases (C x C tile "
      "x 3 mappings x views) match the reference map (%llu failed, %llu "
      "differ)", label, (unsigned long long) t->cases,
      (unsigned long long) t->failed, (unsigned long long) t->bad);
  tap_ok (t->same_cases > 0 && t->bad_same == 0, "%s: with at most 16 "
      "stored channels per tile cblock 1 and 0 are the same bytes (%llu "
      "cases, %llu differ)", label, (unsigned long long) t->same_cases,
      (unsigned long long) t->bad_same);
}

static void
operations (void)
{
  static const GenViewKind kinds[] = { GEN_VIEW_CONTIGUOUS, GEN_VIEW_PERMUTED,
    GEN_VIEW_CHANNEL_STRIDE };
  TestRng rng = { 1515 };
  Tally q = { 0 }, cst = { 0 }, d = { 0 };
  int m, i, j, v;

  for (m = 0; m < N_MAP; m++)
    for (i = 0; i < N_C; i++)
      for (j = 0; j < N_CT; j++)
        for (v = 0; v < 3; v++) {
          pack_case (&rng, m, channel_counts[i], c_tiles[j], 1, kinds[v], &q);
          pack_case (&rng, m, channel_counts[i], c_tiles[j], 2, kinds[v], &cst);
          dequant_case (&rng, m, channel_counts[i], c_tiles[j], kinds[v],
              v == 1 ? SIMA_DTYPE_BFLOAT16 : SIMA_DTYPE_FLOAT32, &d);
        }
  report ("QuantTess A65", &q);
  report ("CastTess A65", &cst);
  report ("DetessDequant A65", &d);
}

int
main (void)
{
  geometry ();
  admission ();
  operations ();
  return tap_done ();
}
