/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * MLA tiled geometry: admission of SimaMlaTiled, the (at most 16) tile
 * classes, physical sizes and tile offsets. docs/layout.md is the prose
 * version of these rules; the worked examples there are tested.
 */
#include <simaai/kernels/layout.h>

#include <string.h>

#include "../checked.h"

static const char dim_name[4] = { 'D', 'H', 'W', 'C' };

/* Class index: bit 3 boundary C, bit 2 boundary D, bit 1 boundary H, bit 0
 * boundary W (see SIMA_TILE_CLASS_COUNT). */
static inline int
class_index (int c, int d, int h, int w)
{
  return c << 3 | d << 2 | h << 1 | w;
}

static const int dim_bit[4] = { 2, 1, 0, 3 };  /* D, H, W, C */

static SimaStatus
check_mapping (const SimaTensorSpec *spec, const char *role,
    SimaTiledGeometry *g)
{
  const SimaMlaTiled *t = &spec->tiled;
  int owner[SIMA_MAX_RANK];
  int k, a;

  if (t->channels != SIMA_CHANNELS_COMPACT && t->channels != SIMA_CHANNELS_PAD16)
    return sima_status_make (SIMA_INVALID_TILING,
        "%s channels mode is %d, must be compact or pad16", role,
        (int) t->channels);
  if (t->cblock != 0 && t->cblock != 1)
    return sima_status_make (SIMA_INVALID_TILING,
        "%s cblock is %d, must be 0 or 1", role, t->cblock);
  if (t->cblock && t->channels != SIMA_CHANNELS_PAD16)
    return sima_status_make (SIMA_INVALID_TILING,
        "%s cblock is 1 with compact channels; cblock needs pad16 channels",
        role);
  for (a = 0; a < SIMA_MAX_RANK; a++)
    owner[a] = -1;
  for (k = 0; k < 4; k++) {
    a = t->axes[k];
    if (a == -1) {
      if (k == SIMA_MLA_C)
        return sima_status_make (SIMA_INVALID_TILING,
            "%s tile-axes: the C axis is -1; a channel axis is mandatory",
            role);
      if (t->tile_shape[k] != 1)
        return sima_status_make (SIMA_INVALID_TILING,
            "%s tile-shape: %c extent is %lld but %c is absent (axis -1); "
            "absent axes need extent 1", role, dim_name[k],
            (long long) t->tile_shape[k], dim_name[k]);
      g->extent[k] = 1;
      continue;
    }
    if (a < 0 || a >= spec->rank)
      return sima_status_make (SIMA_INVALID_TILING,
          "%s tile-axes: %c axis is %d, out of range for rank %d", role,
          dim_name[k], a, spec->rank);
    if (owner[a] >= 0)
      return sima_status_make (SIMA_INVALID_TILING,
          "%s tile-axes: logical axis %d is mapped to both %c and %c", role,
          a, dim_name[owner[a]], dim_name[k]);
    owner[a] = k;
    if (t->tile_shape[k] < 1)
      return sima_status_make (SIMA_INVALID_TILING,
          "%s tile-shape: %c extent is %lld, must be positive", role,
          dim_name[k], (long long) t->tile_shape[k]);
    g->extent[k] = spec->shape[a];
  }
  for (a = 0; a < spec->rank; a++)
    if (owner[a] < 0)
      g->outer_axes[g->n_outer++] = (int8_t) a;
  return sima_status_ok ();
}

/* Fills the class table: extents, stored channels, spans and counts. */
static int
derive_classes (SimaTiledGeometry *g)
{
  int idx, k;

  for (idx = 0; idx < SIMA_TILE_CLASS_COUNT; idx++) {
    SimaTileClass *cls = &g->classes[idx];
    uint64_t count = 1, payload = (uint64_t) g->element_bytes;

    for (k = 0; k < 4; k++) {
      int boundary = (idx >> dim_bit[k]) & 1;
      cls->extent[k] = boundary ? g->tail_extent[k] : g->tiled.tile_shape[k];
      if (sima_checked_mul (count, boundary ? (uint64_t) (g->tail_extent[k] > 0)
              : (uint64_t) g->full_tiles[k], &count))
        return 1;
    }
    /* Classes that do not occur keep count 0 and no size: their nominal
     * extents may be huge (a tile larger than its dimension). */
    if (count == 0)
      continue;
    cls->count = count;
    if (g->tiled.channels == SIMA_CHANNELS_PAD16) {
      uint64_t padded;
      if (sima_checked_round16 ((uint64_t) cls->extent[SIMA_MLA_C], &padded))
        return 1;
      cls->stored_channels = (int64_t) padded;
    } else {
      cls->stored_channels = cls->extent[SIMA_MLA_C];
    }
    for (k = 0; k < 3; k++)
      if (sima_checked_mul (payload, (uint64_t) cls->extent[k], &payload))
        return 1;
    if (sima_checked_mul (payload, (uint64_t) cls->stored_channels, &payload))
      return 1;
    cls->payload_bytes = payload;
    if (sima_checked_round16 (payload, &cls->span_bytes))
      return 1;
  }
  return 0;
}

int
sima_tiled_runs (const SimaTiledGeometry *g,
    const uint64_t weight[SIMA_TILE_CLASS_COUNT], SimaTileRuns *r)
{
  const int64_t *full = g->full_tiles, *tail = g->tail_extent;
  int c, d, h;

  /* from the innermost (W) outwards: full tiles of the inner class times
   * their weight, plus the boundary tile if there is one */
  memset (r, 0, sizeof *r);
  for (c = 0; c < 2; c++) {
    for (d = 0; d < 2; d++) {
      for (h = 0; h < 2; h++) {
        uint64_t *row = &r->row[c][d][h];
        if (sima_checked_madd (row, (uint64_t) full[SIMA_MLA_W],
                weight[class_index (c, d, h, 0)])
            || sima_checked_madd (row, tail[SIMA_MLA_W] > 0,
                weight[class_index (c, d, h, 1)]))
          return 1;
      }
      if (sima_checked_madd (&r->plane[c][d], (uint64_t) full[SIMA_MLA_H],
              r->row[c][d][0])
          || sima_checked_madd (&r->plane[c][d], tail[SIMA_MLA_H] > 0,
              r->row[c][d][1]))
        return 1;
    }
    if (sima_checked_madd (&r->volume[c], (uint64_t) full[SIMA_MLA_D],
            r->plane[c][0])
        || sima_checked_madd (&r->volume[c], tail[SIMA_MLA_D] > 0,
            r->plane[c][1]))
      return 1;
  }
  return sima_checked_madd (&r->slice, (uint64_t) full[SIMA_MLA_C],
      r->volume[0])
      || sima_checked_madd (&r->slice, tail[SIMA_MLA_C] > 0, r->volume[1]);
}

/* Spans, slice and total size. */
static int
derive_runs (SimaTiledGeometry *g)
{
  uint64_t spans[SIMA_TILE_CLASS_COUNT], outer = 1;
  int k;

  for (k = 0; k < SIMA_TILE_CLASS_COUNT; k++)
    spans[k] = g->classes[k].span_bytes;
  if (sima_tiled_runs (g, spans, &g->span_runs))
    return 1;
  for (k = 0; k < g->n_outer; k++)
    if (sima_checked_mul (outer, (uint64_t) g->shape[g->outer_axes[k]],
            &outer))
      return 1;
  g->outer_count = outer;
  return sima_checked_mul (outer, g->span_runs.slice, &g->total_bytes);
}

SimaStatus
sima_tiled_geometry_init (const SimaTensorSpec *spec, int element_bytes,
    const char *role, SimaTiledGeometry *g)
{
  SimaStatus st;
  int k;

  memset (g, 0, sizeof *g);
  if (element_bytes != 1 && element_bytes != 2)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "%s tiled element size is %d bytes, must be 1 (INT8) or 2 (BF16)",
        role, element_bytes);
  st = sima_shape_check (spec, role);
  if (!sima_status_is_ok (&st))
    return st;
  g->rank = spec->rank;
  memcpy (g->shape, spec->shape, sizeof g->shape);
  g->tiled = spec->tiled;
  g->element_bytes = element_bytes;
  st = check_mapping (spec, role, g);
  if (!sima_status_is_ok (&st))
    return st;

  g->empty = sima_shape_is_empty (spec);
  if (g->empty)
    return sima_status_ok ();  /* no tiles, no bytes */

  for (k = 0; k < 4; k++) {
    g->full_tiles[k] = g->extent[k] / g->tiled.tile_shape[k];
    g->tail_extent[k] = g->extent[k] % g->tiled.tile_shape[k];
    g->tile_count[k] = g->full_tiles[k] + (g->tail_extent[k] > 0);
  }
  if (derive_classes (g) || derive_runs (g))
    return sima_status_make (SIMA_SIZE_OVERFLOW,
        "%s tiled size overflows 64 bits", role);
  return sima_status_ok ();
}

SimaStatus
sima_tensor_required_bytes (const SimaTensorSpec *spec, const char *role,
    uint64_t *bytes)
{
  SimaTiledGeometry g;
  SimaStridedView v;
  SimaStatus st;

  *bytes = 0;
  switch (spec->layout) {
    case SIMA_LAYOUT_MLA_TILED:
      st = spec->dtype == SIMA_DTYPE_INT8 || spec->dtype == SIMA_DTYPE_BFLOAT16
          ? sima_tiled_geometry_init (spec, sima_dtype_size (spec->dtype), role,
              &g)
          : sima_status_make (SIMA_UNSUPPORTED_DTYPE,
              "%s dtype is %s; mla-tiled tensors are int8 or bfloat16", role,
              sima_dtype_name (spec->dtype));
      break;
    case SIMA_LAYOUT_MLA_CBLOCKED:
      st = spec->dtype == SIMA_DTYPE_INT8
          ? sima_cblocked_geometry_init (spec, role, &g)
          : sima_status_make (SIMA_UNSUPPORTED_DTYPE,
              "%s dtype is %s; mla-cblocked tensors are int8", role,
              sima_dtype_name (spec->dtype));
      break;
    default:
      st = sima_strided_view_admit (spec, role, &v);
      if (sima_status_is_ok (&st))
        *bytes = v.required_bytes;
      return st;
  }
  if (sima_status_is_ok (&st))
    *bytes = g.total_bytes;
  return st;
}

void
sima_mla_tiled_default (int rank, SimaMlaTiled *t)
{
  static const int64_t extents[3] = { 8, 16, 16 };   /* H, W, C */
  int k;

  t->axes[SIMA_MLA_D] = -1;
  t->tile_shape[SIMA_MLA_D] = 1;
  for (k = SIMA_MLA_H; k <= SIMA_MLA_C; k++) {
    int axis = rank - 1 - (SIMA_MLA_C - k);  /* C last, W before, H before */
    t->axes[k] = (int8_t) (axis >= 0 ? axis : -1);
    t->tile_shape[k] = axis >= 0 ? extents[k - 1] : 1;
  }
  t->channels = SIMA_CHANNELS_PAD16;
  t->cblock = 0;
}

SimaStatus
sima_cblocked_geometry_init (const SimaTensorSpec *spec, const char *role,
    SimaTiledGeometry *g)
{
  SimaTensorSpec tiled = *spec;
  SimaStatus st = sima_shape_check (spec, role);
  int r = spec->rank, k;

  if (!sima_status_is_ok (&st))
    return st;
  if (r < 3)
    return sima_status_make (SIMA_INVALID_RANK,
        "%s rank is %d; mla-cblocked needs rank 3 to 6 (trailing H, W, C)",
        role, r);
  tiled.layout = SIMA_LAYOUT_MLA_TILED;
  tiled.tiled.channels = SIMA_CHANNELS_PAD16;
  tiled.tiled.cblock = 0;   /* `tiled` is unused by mla-cblocked specs */
  for (k = 0; k < 3; k++) {
    tiled.tiled.axes[k + 1] = (int8_t) (r - 3 + k);
    /* whole H x W planes; an empty extent still needs a positive tile */
    tiled.tiled.tile_shape[k + 1] = spec->shape[r - 3 + k] > 0
        ? spec->shape[r - 3 + k] : 1;
  }
  tiled.tiled.axes[SIMA_MLA_D] = -1;
  tiled.tiled.tile_shape[SIMA_MLA_D] = 1;
  tiled.tiled.tile_shape[SIMA_MLA_C] = 16;
  return sima_tiled_geometry_init (&tiled, 1, role, g);
}

int
sima_tiled_class_of (const SimaTiledGeometry *g, const int64_t tile_index[4])
{
  int idx = 0, k;
  for (k = 0; k < 4; k++)
    idx |= (tile_index[k] >= g->full_tiles[k]) << dim_bit[k];
  return idx;
}

uint64_t
sima_tiled_tile_offset (const SimaTiledGeometry *g, uint64_t outer,
    const int64_t tile_index[4])
{
  const SimaTileRuns *r = &g->span_runs;
  int idx = sima_tiled_class_of (g, tile_index);
  int c = (idx >> dim_bit[SIMA_MLA_C]) & 1;
  int d = (idx >> dim_bit[SIMA_MLA_D]) & 1;
  int h = (idx >> dim_bit[SIMA_MLA_H]) & 1;

  /* Every tile before index i along a dimension is a full tile, whatever
   * class the tile at i has, so each term is i * (size of a full run). */
  return outer * r->slice
      + (uint64_t) tile_index[SIMA_MLA_C] * r->volume[0]
      + (uint64_t) tile_index[SIMA_MLA_D] * r->plane[c][0]
      + (uint64_t) tile_index[SIMA_MLA_H] * r->row[c][d][0]
      + (uint64_t) tile_index[SIMA_MLA_W]
      * g->classes[class_index (c, d, h, 0)].span_bytes;
}

/* One level of sima_tiled_locate: pos falls among `full` runs of
 * `run` each, or in the boundary run after them. */
static int
locate_level (uint64_t *pos, int64_t full, uint64_t run, int64_t *index)
{
  if (run > 0 && *pos < (uint64_t) full * run) {
    *index = (int64_t) (*pos / run);
    *pos %= run;
    return 0;
  }
  *index = full;
  *pos -= (uint64_t) full * run;
  return 1;
}

void
sima_tiled_locate (const SimaTiledGeometry *g, const SimaTileRuns *r,
    const uint64_t weight[SIMA_TILE_CLASS_COUNT], uint64_t pos,
    uint64_t *outer, int64_t ti[4], uint64_t *inside)
{
  const int64_t *full = g->full_tiles;
  int c, d, h, w;

  *outer = r->slice > 0 ? pos / r->slice : 0;
  pos = r->slice > 0 ? pos % r->slice : 0;
  c = locate_level (&pos, full[SIMA_MLA_C], r->volume[0], &ti[SIMA_MLA_C]);
  d = locate_level (&pos, full[SIMA_MLA_D], r->plane[c][0], &ti[SIMA_MLA_D]);
  h = locate_level (&pos, full[SIMA_MLA_H], r->row[c][d][0], &ti[SIMA_MLA_H]);
  w = locate_level (&pos, full[SIMA_MLA_W], weight[class_index (c, d, h, 0)],
      &ti[SIMA_MLA_W]);
  (void) w;
  *inside = pos;
}

uint64_t
sima_tiled_element_offset (const SimaTiledGeometry *g, const int64_t *coords)
{
  int64_t tile_index[4], inside[4];
  const SimaTileClass *cls;
  uint64_t outer = 0, pixel;
  int k;

  for (k = 0; k < g->n_outer; k++)
    outer = outer * (uint64_t) g->shape[g->outer_axes[k]]
        + (uint64_t) coords[g->outer_axes[k]];
  for (k = 0; k < 4; k++) {
    int64_t pos = g->tiled.axes[k] >= 0 ? coords[g->tiled.axes[k]] : 0;
    tile_index[k] = pos / g->tiled.tile_shape[k];
    inside[k] = pos % g->tiled.tile_shape[k];
  }
  cls = &g->classes[sima_tiled_class_of (g, tile_index)];
  pixel = (uint64_t) ((inside[SIMA_MLA_D] * cls->extent[SIMA_MLA_H]
          + inside[SIMA_MLA_H]) * cls->extent[SIMA_MLA_W] + inside[SIMA_MLA_W]);
  if (g->tiled.cblock) {
    /* blocks of 16 stored channels, each holding every pixel of the tile */
    uint64_t pixels = (uint64_t) (cls->extent[SIMA_MLA_D]
        * cls->extent[SIMA_MLA_H] * cls->extent[SIMA_MLA_W]);
    uint64_t unit = 16 * (uint64_t) g->element_bytes;
    uint64_t c = (uint64_t) inside[SIMA_MLA_C];
    return sima_tiled_tile_offset (g, outer, tile_index)
        + (c / 16) * pixels * unit + pixel * unit + c % 16;
  }
  return sima_tiled_tile_offset (g, outer, tile_index)
      + pixel * (uint64_t) cls->stored_channels * (uint64_t) g->element_bytes
      + (uint64_t) inside[SIMA_MLA_C];
}

void
sima_tiled_walk_init (const SimaTiledGeometry *g, const SimaStridedView *view,
    SimaTiledWalk *walk)
{
  int k;

  memset (walk, 0, sizeof *walk);
  for (k = 0; k < 4; k++)
    walk->dim_stride[k] = g->tiled.axes[k] >= 0
        ? view->strides_bytes[g->tiled.axes[k]] : 0;
  walk->n_outer = g->n_outer;
  for (k = 0; k < g->n_outer; k++) {
    walk->outer_extent[k] = g->shape[g->outer_axes[k]];
    walk->outer_stride[k] = view->strides_bytes[g->outer_axes[k]];
  }
}

void
sima_tile_cursor_init (SimaTileCursor *cur, const SimaTiledGeometry *g,
    const SimaTiledWalk *walk)
{
  memset (cur, 0, sizeof *cur);
  cur->geometry = g;
  cur->walk = walk;
}

/* Advances the outer odometer (last outer axis fastest); 0 at the end. */
static int
next_outer (SimaTileCursor *cur)
{
  const SimaTiledWalk *walk = cur->walk;
  int a;

  cur->outer++;
  for (a = walk->n_outer - 1; a >= 0; a--) {
    if (++cur->outer_coord_[a] < walk->outer_extent[a]) {
      cur->outer_view_offset_ += walk->outer_stride[a];
      return 1;
    }
    cur->outer_view_offset_ -= (walk->outer_extent[a] - 1)
        * walk->outer_stride[a];
    cur->outer_coord_[a] = 0;
  }
  return 0;
}

/* Fills the cursor's outputs for the tile at cur->tile_index. */
static void
load_tile (SimaTileCursor *cur)
{
  const SimaTiledGeometry *g = cur->geometry;
  int k;

  cur->cls = &g->classes[sima_tiled_class_of (g, cur->tile_index)];
  cur->view_offset = cur->outer_view_offset_;
  for (k = 0; k < 4; k++)
    cur->view_offset += cur->tile_index[k] * g->tiled.tile_shape[k]
        * cur->walk->dim_stride[k];
  cur->next_offset_ = cur->tile_offset + cur->cls->span_bytes;
}

int
sima_tile_cursor_next (SimaTileCursor *cur)
{
  const SimaTiledGeometry *g = cur->geometry;
  static const int order[4] = { SIMA_MLA_W, SIMA_MLA_H, SIMA_MLA_D, SIMA_MLA_C };
  int i, k;

  if (g->empty || cur->done_)
    return 0;
  if (!cur->started_) {
    cur->started_ = 1;
  } else {
    for (i = 0; i < 4; i++) {
      k = order[i];
      if (++cur->tile_index[k] < g->tile_count[k])
        break;
      cur->tile_index[k] = 0;
    }
    if (i == 4 && !next_outer (cur)) {
      cur->done_ = 1;   /* stays finished, whoever calls again */
      return 0;
    }
  }
  cur->tile_offset = cur->next_offset_;
  load_tile (cur);
  return 1;
}

void
sima_tile_cursor_seek (SimaTileCursor *cur, uint64_t outer,
    const int64_t tile_index[4])
{
  const SimaTiledWalk *walk = cur->walk;
  uint64_t o = outer;
  int a;

  cur->started_ = 1;
  cur->done_ = 0;
  cur->outer = outer;
  cur->outer_view_offset_ = 0;
  for (a = walk->n_outer - 1; a >= 0; a--) {   /* last outer axis fastest */
    cur->outer_coord_[a] = (int64_t) (o % (uint64_t) walk->outer_extent[a]);
    o /= (uint64_t) walk->outer_extent[a];
    cur->outer_view_offset_ += cur->outer_coord_[a] * walk->outer_stride[a];
  }
  memcpy (cur->tile_index, tile_index, sizeof cur->tile_index);
  cur->tile_offset = sima_tiled_tile_offset (cur->geometry, outer, tile_index);
  load_tile (cur);
}

void
sima_tile_cursor_row_run (const SimaTileCursor *cur, SimaTileRun *run)
{
  const int64_t w = cur->tile_index[SIMA_MLA_W];
  const int64_t full = cur->geometry->full_tiles[SIMA_MLA_W];

  run->tiles = w < full ? full - w : 1;
  run->tile_step = cur->cls->span_bytes;
  run->view_step = cur->geometry->tiled.tile_shape[SIMA_MLA_W]
      * cur->walk->dim_stride[SIMA_MLA_W];
}

void
sima_tile_cursor_skip_run (SimaTileCursor *cur, int64_t n)
{
  SimaTileRun run;
  const int64_t step = n - 1;

  if (step <= 0)
    return;
  sima_tile_cursor_row_run (cur, &run);
  cur->tile_index[SIMA_MLA_W] += step;
  cur->tile_offset += (uint64_t) step * run.tile_step;
  cur->view_offset += step * run.view_step;
  cur->next_offset_ = cur->tile_offset + run.tile_step;
}
