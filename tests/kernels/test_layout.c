/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Layout core: strided-view admission and MLA tiled geometry against the
 * oracle's independent formulas (sizes, per-element offsets), and the tile
 * cursor's running offsets against the closed-form tile offsets.
 */
#include <simaai/kernels/layout.h>

#include <string.h>

#include "layout_gen.h"
#include "oracle.h"
#include "tap.h"
#include "test_util.h"

static void
strided_views (void)
{
  static const int64_t s23[2] = { 2, 3 };
  static const int64_t st[2] = { 32, 8 };
  SimaTensorSpec spec = test_spec_strided (SIMA_DTYPE_FLOAT32, 2, s23, st);
  SimaStridedView v;
  SimaStatus s;

  s = sima_strided_view_admit (&spec, "input", &v);
  tap_ok (s.code == SIMA_OK && v.required_bytes == 52 && v.element_count == 6
      && !sima_strided_view_is_row_major (&v),
      "FP32 {2,3} strides {32,8}: 52 bytes, 6 elements, not row-major");

  spec.strides_bytes[0] = 12;
  spec.strides_bytes[1] = 4;
  s = sima_strided_view_admit (&spec, "input", &v);
  tap_ok (s.code == SIMA_OK && v.required_bytes == 24
      && sima_strided_view_is_row_major (&v),
      "explicit row-major strides are recognised as row-major");

  {
    static const int64_t shape[3] = { 1, 4, 1 };
    static const int64_t strides[3] = { 0, 8, 0 };
    spec = test_spec_strided (SIMA_DTYPE_FLOAT16, 3, shape, strides);
    s = sima_strided_view_admit (&spec, "input", &v);
    tap_ok (s.code == SIMA_OK && v.required_bytes == 26,
        "zero strides on singleton axes: {1,4,1} strides {0,8,0} FP16 needs "
        "26 bytes (%llu)", (unsigned long long) v.required_bytes);
  }
  {
    static const int64_t shape[2] = { 0, 5 };
    static const int64_t strides[2] = { 0, 4 };
    spec = test_spec_strided (SIMA_DTYPE_FLOAT32, 2, shape, strides);
    s = sima_strided_view_admit (&spec, "input", &v);
    tap_ok (s.code == SIMA_OK && v.required_bytes == 0 && v.empty,
        "empty view {0,5} strides {0,4}: 0 bytes, zero stride on the empty "
        "axis allowed");
    spec.strides_bytes[1] = 0;
    s = sima_strided_view_admit (&spec, "input", &v);
    tap_ok (s.code == SIMA_INVALID_STRIDES && strstr (s.message, "axis 1 is 0"),
        "empty view still rejects a zero stride on an axis of extent 5: %s",
        s.message);
  }
}

/* Random geometries: the production numbers against the oracle's. */
static void
geometry_matrix (void)
{
  TestRng rng = { 4242 };
  uint64_t cases = 0, tiles = 0, elements = 0, bad_size = 0, bad_offset = 0,
      bad_cursor = 0, bad_classes = 0, bad_locate = 0, bad_run = 0, runs_seen = 0;
  int i;

  for (i = 0; i < 3000; i++) {
    int rank = (int) test_rng_range (&rng, 1, SIMA_MAX_RANK);
    int c_axis = (int) test_rng_below (&rng, (uint64_t) rank);
    int eb = test_rng_below (&rng, 2) ? 2 : 1;
    GenTiling gt;
    SimaTensorSpec spec, view_spec;
    SimaTiledGeometry g;
    SimaStridedView view;
    SimaTiledWalk walk;
    SimaTileCursor cur, hop;
    SimaTileRun run = { 0, 0, 0 };
    int64_t in_run = 0;
    uint64_t expect_offset = 0, per_slice = 0, weight[SIMA_TILE_CLASS_COUNT];
    uint64_t expect_pos = 0;
    SimaTileRuns runs;
    int64_t coords[SIMA_MAX_RANK] = { 0 };
    int k, a;

    gen_tiling (&rng, rank, c_axis, test_rng_range (&rng, 1, 40),
        (SimaChannels) test_rng_below (&rng, 2), &gt);
    spec = test_spec_tiled (eb == 1 ? SIMA_DTYPE_INT8 : SIMA_DTYPE_BFLOAT16,
        rank, gt.shape, gt.tiled.axes, gt.tiled.tile_shape, gt.tiled.channels);
    if (sima_tiled_geometry_init (&spec, eb, "output", &g).code != SIMA_OK) {
      bad_size++;
      continue;
    }
    cases++;
    bad_size += g.total_bytes != oracle_required_bytes (&spec);
    for (k = 0; k < SIMA_TILE_CLASS_COUNT; k++)
      per_slice += g.classes[k].count * g.classes[k].span_bytes;
    bad_classes += per_slice != g.span_runs.slice;

    /* cursor: consecutive tiles, offsets equal to the closed form, view
     * offsets of the tile origins in a permuted view */
    view_spec = gen_view (&rng, SIMA_DTYPE_FLOAT32, rank, gt.shape,
        GEN_VIEW_PERMUTED);
    sima_strided_view_admit (&view_spec, "input", &view);
    sima_tiled_walk_init (&g, &view, &walk);
    /* an arbitrary weight per class (as a worker's task count would be) */
    for (k = 0; k < SIMA_TILE_CLASS_COUNT; k++)
      weight[k] = g.classes[k].count ? 1 + (uint64_t) (k * 7 % 5) : 0;
    sima_tiled_runs (&g, weight, &runs);
    sima_tile_cursor_init (&cur, &g, &walk);
    sima_tile_cursor_init (&hop, &g, &walk);
    while (sima_tile_cursor_next (&cur)) {
      int64_t origin[SIMA_MAX_RANK] = { 0 };
      uint64_t outer = cur.outer, o = outer, lo_outer, inside;
      int64_t ti[4];
      SimaTileCursor seek;
      uint64_t w = weight[cur.cls - g.classes];
      tiles++;
      /* the last position of this tile's weight locates back to it, and a
       * cursor seeked there agrees with the one that walked there */
      sima_tiled_locate (&g, &runs, weight, expect_pos + w - 1, &lo_outer,
          ti, &inside);
      bad_locate += lo_outer != cur.outer || inside != w - 1
          || memcmp (ti, cur.tile_index, sizeof ti) != 0;
      expect_pos += w;
      sima_tile_cursor_init (&seek, &g, &walk);
      sima_tile_cursor_seek (&seek, cur.outer, cur.tile_index);
      bad_locate += seek.tile_offset != cur.tile_offset
          || seek.view_offset != cur.view_offset || seek.cls != cur.cls;
      if (sima_tile_cursor_next (&seek) && (cur.tile_offset + cur.cls->span_bytes
              != seek.tile_offset))
        bad_locate++;
      /* a second cursor that hops over runs of same-class W tiles: tile j
       * of a run predicted by the steps, the skip lands on the run's last
       * tile, and next() goes on from there */
      if (in_run == 0) {
        bad_run += !sima_tile_cursor_next (&hop);
        sima_tile_cursor_row_run (&hop, &run);
        runs_seen++;
      }
      bad_run += hop.cls != cur.cls || run.tiles < 1
          || hop.tile_offset + (uint64_t) in_run * run.tile_step
          != cur.tile_offset
          || hop.view_offset + in_run * run.view_step != cur.view_offset;
      if (++in_run == run.tiles) {
        sima_tile_cursor_skip_run (&hop, run.tiles);
        bad_run += hop.tile_offset != cur.tile_offset
            || hop.view_offset != cur.view_offset || hop.cls != cur.cls
            || memcmp (hop.tile_index, cur.tile_index, sizeof ti) != 0;
        in_run = 0;
      }
      bad_cursor += cur.tile_offset != expect_offset
          || cur.tile_offset != sima_tiled_tile_offset (&g, cur.outer,
              cur.tile_index);
      expect_offset += cur.cls->span_bytes;
      for (k = g.n_outer - 1; k >= 0; k--) {
        int64_t ext = g.shape[g.outer_axes[k]];
        origin[g.outer_axes[k]] = (int64_t) (o % (uint64_t) ext);
        o /= (uint64_t) ext;
      }
      for (k = 0; k < 4; k++)
        if (g.tiled.axes[k] >= 0)
          origin[g.tiled.axes[k]] = cur.tile_index[k] * g.tiled.tile_shape[k];
      bad_cursor += cur.view_offset != oracle_element_offset (&view_spec, origin);
    }
    bad_cursor += expect_offset != g.total_bytes;
    bad_run += in_run != 0 || sima_tile_cursor_next (&hop);
    bad_locate += expect_pos != g.outer_count * runs.slice;

    /* every element's offset */
    for (;;) {
      elements++;
      bad_offset += (int64_t) sima_tiled_element_offset (&g, coords)
          != oracle_element_offset (&spec, coords);
      for (a = rank - 1; a >= 0; a--) {
        if (++coords[a] < gt.shape[a])
          break;
        coords[a] = 0;
      }
      if (a < 0)
        break;
    }
  }
  tap_ok (bad_size == 0 && bad_classes == 0, "3000 random INT8/BF16 "
      "geometries: total size equals the oracle's and the sum over <= 16 "
      "classes (%llu mismatches)", (unsigned long long) (bad_size + bad_classes));
  tap_ok (bad_cursor == 0, "tile cursor: %llu tiles in order, running "
      "offsets equal closed-form offsets, tile origins equal view offsets "
      "(%llu mismatches)", (unsigned long long) tiles,
      (unsigned long long) bad_cursor);
  tap_ok (bad_run == 0 && runs_seen < tiles, "row runs: %llu runs of "
      "same-class W tiles predict the %llu tiles' classes and offsets by "
      "their steps, and skipping a run lands where next() does (%llu "
      "mismatches)", (unsigned long long) runs_seen,
      (unsigned long long) tiles, (unsigned long long) bad_run);
  tap_ok (bad_locate == 0, "weighted runs: every tile located from its "
      "position in O(1), and cursors seeked to any tile continue exactly like "
      "walking ones (%llu mismatches)", (unsigned long long) bad_locate);
  tap_ok (bad_offset == 0, "element offsets of %llu elements in %llu "
      "geometries equal the oracle's (%llu mismatches)",
      (unsigned long long) elements, (unsigned long long) cases,
      (unsigned long long) bad_offset);
}

/* Found in review: a class channel extent near INT64_MAX used to overflow
 * while being rounded up to 16 (undefined behaviour) before any check. */
static void
huge_extents (void)
{
  int64_t shape = INT64_MAX - 1;
  static const int8_t axes[4] = { -1, -1, -1, 0 };
  static const int64_t tile[4] = { 1, 1, 1, INT64_MAX };
  SimaTensorSpec s = test_spec_tiled (SIMA_DTYPE_INT8, 1, &shape, axes, tile,
      SIMA_CHANNELS_PAD16);
  SimaTiledGeometry g;
  SimaStatus st = sima_tiled_geometry_init (&s, 1, "input", &g);

  tap_ok (st.code == SIMA_SIZE_OVERFLOW, "pad16 rounding of a C extent of "
      "2^63-2 is a checked overflow: %s", st.message);
  st = sima_tiled_geometry_init (&s, 3, "input", &g);
  tap_ok (st.code == SIMA_INVALID_ARGUMENT, "element size 3 is rejected: %s",
      st.message);
}

/* The cursor stays finished once it has said so. */
static void
cursor_end (void)
{
  static const int64_t shape[2] = { 2, 3 };
  static const int8_t axes[4] = { -1, -1, 0, 1 };
  static const int64_t tile[4] = { 1, 1, 1, 3 };
  SimaTensorSpec s = test_spec_tiled (SIMA_DTYPE_INT8, 2, shape, axes, tile,
      SIMA_CHANNELS_PAD16);
  SimaTensorSpec d = test_spec_dense (SIMA_DTYPE_FLOAT32, 2, shape);
  SimaTiledGeometry g;
  SimaStridedView v;
  SimaTiledWalk walk;
  SimaTileCursor cur;
  int tiles = 0, again;

  sima_tiled_geometry_init (&s, 1, "output", &g);
  sima_strided_view_admit (&d, "input", &v);
  sima_tiled_walk_init (&g, &v, &walk);
  sima_tile_cursor_init (&cur, &g, &walk);
  while (sima_tile_cursor_next (&cur))
    tiles++;
  again = sima_tile_cursor_next (&cur) + sima_tile_cursor_next (&cur);
  tap_ok (tiles == 2 && again == 0, "cursor: 2 tiles, then finished for good");
}

static void
worked_sizes (void)
{
  static const int64_t shape[2] = { 2, 3 };
  static const int8_t axes[4] = { -1, -1, 0, 1 };
  static const int64_t tile[4] = { 1, 1, 2, 3 };
  SimaTensorSpec s = test_spec_tiled (SIMA_DTYPE_INT8, 2, shape, axes, tile,
      SIMA_CHANNELS_COMPACT);
  SimaTiledGeometry g;
  uint64_t a, b, c;

  sima_tiled_geometry_init (&s, 1, "output", &g);
  a = g.total_bytes;
  s.tiled.channels = SIMA_CHANNELS_PAD16;
  sima_tiled_geometry_init (&s, 1, "output", &g);
  b = g.total_bytes;
  sima_tiled_geometry_init (&s, 2, "output", &g);
  c = g.total_bytes;
  tap_ok (a == 16 && b == 32 && c == 64, "worked example sizes: INT8 compact "
      "%llu (16), INT8 pad16 %llu (32), BF16 pad16 %llu (64)",
      (unsigned long long) a, (unsigned long long) b, (unsigned long long) c);
}

int
main (void)
{
  strided_views ();
  worked_sizes ();
  huge_extents ();
  cursor_end ();
  geometry_matrix ();
  return tap_done ();
}
