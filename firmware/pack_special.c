/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Specialised pack workers (QuantTess/CastTess) for three frequent shapes,
 * chosen once per job by simafw_pack_select; everything else runs on the
 * general worker (pack_worker.c). The arithmetic is the general worker's,
 * simafw_pack_convert, on the same staged bytes; only data movement and
 * packing differ.
 *
 * Grouped C16 (QuantTess): one task per spatial tile (outer, D, H, W) owns
 * the tile in every C plane. It reads the patch's pixels, all their
 * logical channels, with one 2D transfer (H rows of W*C scalars at the row
 * pitch), converts the staged slot in place, packs each C16 plane into its
 * own region of the output slot (full planes 16-byte copies, the final
 * plane its valid channels over zero-point padding) and writes the planes
 * with one 2D write: their DDR destinations are one C-tile volume apart
 * (not adjacent), computed from the geometry. Worker w of N owns spatial
 * tasks [w*T/N, (w+1)*T/N) across every C plane: its tiles, whole 16-byte
 * multiples, are nobody else's.
 *
 * RGB -> Pad16 (QuantTess INT8, CastTess BF16 planes): one task per tile:
 * one 2D read of its H rows of W*3 scalars, convert in place, then per
 * pixel word stores of the three codes and the padding (each plane of a
 * BF16 pixel: its three low or high bytes and 13 padding bytes), one write.
 * Worker ranges as in the general worker (whole tiles, physical order).
 *
 * Compact tiles (QuantTess INT8, "unpadded complete tiles"): one C tile
 * holding every channel with none stored beyond them, so a tile's staged
 * pixels are its output bytes' order. One task per tile: one 2D read of
 * its H rows, the conversion straight from the input slot into the output
 * slot (no pack pass), one write of the tile's span (a multiple of 16:
 * no alignment gap to fill). Ranges and the tile loop are the RGB
 * worker's (run_tiles); partial edge tiles take their class's extents.
 *
 * All three double-buffer like the general worker: the next task's input
 * is in flight while the current one is converted and packed, an output
 * slot is reused only after its previous write was waited for, and every
 * transfer is drained before returning, after an error too.
 */
#include <string.h>

#include <simaai/kernels/ev74/wire.h>

#include "dma_blocks.h"
#include "hal/device_model.h"
#include "pack_special.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "pack_special.c packs little-endian words"
#endif

enum { TAG_IN0 = 0, TAG_OUT0 = 2 };

/* ---- selection ------------------------------------------------------------ */

/* Channels and pixels side by side in the source (a row of a tile is one
 * run of W * C scalars), rows at a pitch a 2D transfer can hold. */
static int
rows_contiguous (const SimaFwPackJob *job, int64_t channels)
{
  const SimaTiledGeometry *g = &job->output_geometry;
  const int64_t *s = job->walk.dim_stride;
  const int64_t scalar = job->input_view.scalar_bytes;

  if (channels > 1 && s[SIMA_MLA_C] != scalar)
    return 0;
  if (g->extent[SIMA_MLA_W] > 1 && s[SIMA_MLA_W] != channels * scalar)
    return 0;
  if (g->extent[SIMA_MLA_H] > 1 && g->tiled.tile_shape[SIMA_MLA_H] > 1
      && (s[SIMA_MLA_H] <= 0 || s[SIMA_MLA_H] > SIMA_EV74_DMA_MAX_PITCH))
    return 0;
  return 1;
}

/* Every class present stores exactly `stored` channels. */
static int
all_store (const SimaTiledGeometry *g, int64_t stored)
{
  int k;
  for (k = 0; k < SIMA_TILE_CLASS_COUNT; k++)
    if (g->classes[k].count > 0 && g->classes[k].stored_channels != stored)
      return 0;
  return 1;
}

static int
grouped_c16_eligible (const SimaFwPackJob *job)
{
  const SimaTiledGeometry *g = &job->output_geometry;
  const int64_t *t = g->tiled.tile_shape;
  const int64_t c = g->extent[SIMA_MLA_C];
  const int64_t scalar = job->input_view.scalar_bytes;
  int64_t pixels, planes;

  if (job->route != SIMA_EV74_ROUTE_QUANTTESS || g->element_bytes != 1)
    return 0;
  if (c < SIMAFW_GC16_MIN_CHANNELS || c > SIMAFW_GC16_MAX_CHANNELS
      || t[SIMA_MLA_C] != SIMAFW_GC16_C_TILE || !all_store (g, 16))
    return 0;
  if (t[SIMA_MLA_D] != 1 || g->tail_extent[SIMA_MLA_H] != 0
      || g->tail_extent[SIMA_MLA_W] != 0)
    return 0;
  pixels = t[SIMA_MLA_H] * t[SIMA_MLA_W];
  planes = g->tile_count[SIMA_MLA_C];
  if (pixels * c > SIMAFW_GC16_MAX_ELEMENTS
      || pixels * 16 * planes > SIMAFW_GC16_MAX_OUTPUT)
    return 0;
  if (t[SIMA_MLA_W] * c * scalar < SIMAFW_GC16_MIN_ROW_BYTES)
    return 0;
  return rows_contiguous (job, c);
}

static int
rgb_pad16_eligible (const SimaFwPackJob *job)
{
  const SimaTiledGeometry *g = &job->output_geometry;
  const int64_t *t = g->tiled.tile_shape;
  const int64_t scalar = job->input_view.scalar_bytes;
  const int64_t pixels = t[SIMA_MLA_H] * t[SIMA_MLA_W];

  if ((job->route != SIMA_EV74_ROUTE_QUANTTESS || g->element_bytes != 1)
      && (job->route != SIMA_EV74_ROUTE_CASTTESS || g->element_bytes != 2))
    return 0;
  if (g->extent[SIMA_MLA_C] != SIMAFW_RGB_CHANNELS
      || g->tile_count[SIMA_MLA_C] != 1 || !all_store (g, SIMAFW_RGB_STORED))
    return 0;
  if (t[SIMA_MLA_D] != 1 || pixels > SIMAFW_RGB_MAX_PIXELS)
    return 0;
  /* a useful complete H/W interior of regular tiles */
  if (g->full_tiles[SIMA_MLA_H] < 1 || g->full_tiles[SIMA_MLA_W] < 1
      || pixels * SIMAFW_RGB_CHANNELS * scalar < SIMAFW_RGB_MIN_TILE_BYTES)
    return 0;
  return rows_contiguous (job, SIMAFW_RGB_CHANNELS);
}

/* Unpadded complete tiles: a tile's staged pixels, all their channels, are
 * already its output order, so codes go straight into the output slot. */
static int
compact_tile_eligible (const SimaFwPackJob *job)
{
  const SimaTiledGeometry *g = &job->output_geometry;
  const int64_t *t = g->tiled.tile_shape;
  const int64_t c = g->extent[SIMA_MLA_C];
  const int64_t scalar = job->input_view.scalar_bytes;
  /* a full H/W tile (one plane deep, one C tile): the largest class */
  const int64_t elements = t[SIMA_MLA_H] * t[SIMA_MLA_W] * c;
  int k;

  /* CastTess's BF16 byte planes split each pixel's codes in two: not the
   * staged order */
  if (job->route != SIMA_EV74_ROUTE_QUANTTESS || g->element_bytes != 1)
    return 0;
  if (g->tile_count[SIMA_MLA_C] != 1
      || (g->tiled.cblock && c > SIMAFW_CT_CBLOCK_CHANNELS))
    return 0;
  for (k = 0; k < SIMA_TILE_CLASS_COUNT; k++) {
    const SimaTileClass *cls = &g->classes[k];
    if (cls->count > 0 && (cls->stored_channels != cls->extent[SIMA_MLA_C]
            || cls->payload_bytes % SIMAFW_CT_PAYLOAD_MULTIPLE != 0))
      return 0;
  }
  if (t[SIMA_MLA_D] != 1 || elements > SIMAFW_CT_MAX_ELEMENTS)
    return 0;
  /* a useful complete H/W interior of regular tiles */
  if (g->full_tiles[SIMA_MLA_H] < 1 || g->full_tiles[SIMA_MLA_W] < 1
      || elements * scalar < SIMAFW_CT_MIN_TILE_BYTES)
    return 0;
  return rows_contiguous (job, c);
}

int
simafw_pack_eligible (const SimaFwPackJob *job, SimaFwPackWorker w)
{
  if (w == SIMAFW_PACK_WORKER_GENERAL)
    return 1;
  if (job->element_count == 0 || job->output_geometry.empty)
    return 0;
  switch (w) {
  case SIMAFW_PACK_WORKER_GROUPED_C16:
    return grouped_c16_eligible (job);
  case SIMAFW_PACK_WORKER_RGB_PAD16:
    return rgb_pad16_eligible (job);
  case SIMAFW_PACK_WORKER_COMPACT_TILE:
    return compact_tile_eligible (job);
  default:
    return 0;
  }
}

/* The rules are disjoint (pack_special.h): the order is the order they
 * were added in, so an earlier worker's jobs cannot move. */
SimaFwPackWorker
simafw_pack_select (const SimaFwPackJob *job)
{
  if (job->element_count == 0 || job->output_geometry.empty)
    return SIMAFW_PACK_WORKER_GENERAL;
  if (grouped_c16_eligible (job))
    return SIMAFW_PACK_WORKER_GROUPED_C16;
  if (rgb_pad16_eligible (job))
    return SIMAFW_PACK_WORKER_RGB_PAD16;
  if (compact_tile_eligible (job))
    return SIMAFW_PACK_WORKER_COMPACT_TILE;
  return SIMAFW_PACK_WORKER_GENERAL;
}

/* ---- shared -------------------------------------------------------------- */

static SimaStatus
no_slots (const SimaFwPackJob *job, const SimaFwHal *hal, const char *what)
{
  return sima_status_make (SIMA_OUT_OF_RESOURCES,
      "%s worker %lu: local memory for the %s worker's two slots is not "
      "available", job->op, (unsigned long) hal->worker_id, what);
}

/* A tile's source: `rows` rows of `row_bytes` at the H pitch, packed
 * locally; contiguous rows are one row. One command (rows < 65,536). */
static int
read_rows (SimaFwHal *hal, unsigned tag, const SimaFwPackJob *job,
    int64_t view_offset, uint8_t *local, uint32_t row_bytes, uint32_t rows)
{
  uint64_t bus = (uint64_t) job->input_bus + (uint64_t) view_offset;
  uint64_t pitch = (uint64_t) job->walk.dim_stride[SIMA_MLA_H];

  if (rows > 1 && pitch == row_bytes) {
    row_bytes *= rows;
    rows = 1;
  }
  return simafw_read_2d (hal, tag, local, row_bytes, bus, pitch, row_bytes,
      rows);
}

static void
put32 (uint8_t *p, uint32_t v)
{
  memcpy (p, &v, 4);
}

/* ---- grouped C16 ---------------------------------------------------------- */

/* Moves a cursor on C plane 0 to the next spatial tile: along W, H, D, and
 * past the plane's last tile to the next outer slice's first. */
static void
spatial_next (SimaTileCursor *cur)
{
  static const int64_t origin[4] = { 0, 0, 0, 0 };
  uint64_t outer = cur->outer;

  if (sima_tile_cursor_next (cur) && cur->tile_index[SIMA_MLA_C] == 0)
    return;
  sima_tile_cursor_seek (cur, outer + 1, origin);
}

/* Task slot s takes the cursor's tile (on C plane 0). */
static void
grouped_task (const SimaTileCursor *cur, int s, uint64_t *offset,
    int64_t *view, uint64_t *outer, int64_t (*index)[4])
{
  offset[s] = cur->tile_offset;
  view[s] = cur->view_offset;
  outer[s] = cur->outer;
  memcpy (index[s], cur->tile_index, sizeof index[s]);
}

/* Each C16 plane of the patch into its region of the output slot: plane c
 * holds pixel p's channels 16c .. 16c+15 at out + (c*P + p)*16. */
static void
pack_planes (const uint8_t *codes, uint8_t *out, uint32_t pixels,
    uint32_t channels, uint32_t planes, uint8_t pad)
{
  const uint32_t padw = pad * 0x01010101u;
  uint32_t c, p;

  for (c = 0; c < planes; c++) {
    const uint8_t *src = codes + 16 * c;
    uint8_t *o = out + (uint64_t) c * pixels * 16;
    uint32_t valid = channels - 16 * c < 16 ? channels - 16 * c : 16;
    if (valid == 16) {
      for (p = 0; p < pixels; p++)
        memcpy (o + 16 * p, src + (uint64_t) p * channels, 16);
      continue;
    }
    for (p = 0; p < pixels; p++) {
      uint8_t *q = o + 16 * p;
      put32 (q, padw);
      put32 (q + 4, padw);
      put32 (q + 8, padw);
      put32 (q + 12, padw);
      memcpy (q, src + (uint64_t) p * channels, valid);
    }
  }
}

SimaStatus
simafw_pack_run_grouped_c16 (SimaFwHal *hal, const SimaFwPackJob *job)
{
  const SimaTiledGeometry *g = &job->output_geometry;
  const uint32_t scalar = (uint32_t) job->input_view.scalar_bytes;
  const uint32_t channels = (uint32_t) g->extent[SIMA_MLA_C];
  const uint32_t planes = (uint32_t) g->tile_count[SIMA_MLA_C];
  const uint32_t rows = (uint32_t) g->tiled.tile_shape[SIMA_MLA_H];
  const uint32_t width = (uint32_t) g->tiled.tile_shape[SIMA_MLA_W];
  const uint32_t pixels = rows * width;
  const uint32_t plane_bytes = pixels * 16;
  const uint64_t spatial = (uint64_t) (g->tile_count[SIMA_MLA_D]
      * g->tile_count[SIMA_MLA_H] * g->tile_count[SIMA_MLA_W]);
  const uint64_t tasks = g->outer_count * spatial;
  const uint64_t first = tasks * hal->worker_id / hal->worker_count;
  const uint64_t last = tasks * (hal->worker_id + 1) / hal->worker_count;
  uint64_t plane_pitch, task_offset[2], task_outer[2], k, rem;
  int64_t task_view[2], task_index[2][4], ti[4];
  uint8_t *in[2], *out[2];
  SimaTileCursor cur;
  uint32_t c;
  int err = 0, s, equal = 1;

  if (first == last)
    return sima_status_ok ();
  in[0] = hal->ops->scratch (hal, SIMAFW_GC16_MAX_ELEMENTS * scalar);
  in[1] = hal->ops->scratch (hal, SIMAFW_GC16_MAX_ELEMENTS * scalar);
  out[0] = hal->ops->scratch (hal, SIMAFW_GC16_MAX_OUTPUT);
  out[1] = hal->ops->scratch (hal, SIMAFW_GC16_MAX_OUTPUT);
  if (!in[0] || !in[1] || !out[0] || !out[1])
    return no_slots (job, hal, "grouped C16");

  /* the first task's tile, decoded once */
  rem = first % spatial;
  ti[SIMA_MLA_C] = 0;
  ti[SIMA_MLA_W] = (int64_t) (rem % (uint64_t) g->tile_count[SIMA_MLA_W]);
  rem /= (uint64_t) g->tile_count[SIMA_MLA_W];
  ti[SIMA_MLA_H] = (int64_t) (rem % (uint64_t) g->tile_count[SIMA_MLA_H]);
  ti[SIMA_MLA_D] = (int64_t) (rem / (uint64_t) g->tile_count[SIMA_MLA_H]);
  sima_tile_cursor_init (&cur, g, &job->walk);
  sima_tile_cursor_seek (&cur, first / spatial, ti);

  /* the planes' DDR spacing: one C-tile volume when every C tile has the
   * same span (so it is under eligibility); else one write per plane */
  plane_pitch = g->span_runs.volume[0];
  for (c = 1; c < planes; c++) {
    ti[SIMA_MLA_C] = (int64_t) c;
    equal &= sima_tiled_tile_offset (g, cur.outer, ti)
        == cur.tile_offset + c * plane_pitch;
  }

  grouped_task (&cur, 0, task_offset, task_view, task_outer, task_index);
  err |= read_rows (hal, TAG_IN0, job, task_view[0], in[0],
      width * channels * scalar, rows);
  for (k = first; k < last && !err; k++) {
    s = (int) ((k - first) & 1);
    err |= hal->ops->wait (hal, TAG_IN0 + (unsigned) s);
    if (k + 1 < last) {
      spatial_next (&cur);
      grouped_task (&cur, 1 - s, task_offset, task_view, task_outer,
          task_index);
      err |= read_rows (hal, TAG_IN0 + (unsigned) (1 - s), job,
          task_view[1 - s], in[1 - s], width * channels * scalar, rows);
    }
    if (k - first >= 2)         /* this output slot's previous write */
      err |= hal->ops->wait (hal, TAG_OUT0 + (unsigned) s);
    if (err)
      break;
    simafw_pack_convert (job, in[s], in[s], pixels * channels);
    pack_planes (in[s], out[s], pixels, channels, planes, job->padding);
    if (equal) {
      err |= simafw_write_exact (hal, TAG_OUT0 + (unsigned) s,
          job->output_bus + task_offset[s], plane_pitch, out[s], plane_bytes,
          plane_bytes, planes);
      continue;
    }
    for (c = 0; c < planes; c++) {
      task_index[s][SIMA_MLA_C] = (int64_t) c;
      err |= simafw_write_exact (hal, TAG_OUT0 + (unsigned) s,
          job->output_bus + sima_tiled_tile_offset (g, task_outer[s],
              task_index[s]), 0, out[s] + (uint64_t) c * plane_bytes, 0,
          plane_bytes, 1);
    }
  }
  return simafw_pack_drain (hal, job, err);
}

/* ---- RGB -> Pad16 --------------------------------------------------------- */

/* Three codes per pixel into Pad16 pixels: INT8 one 16-byte unit per pixel
 * (codes, then padding), BF16 two (the low bytes' unit, then the high
 * bytes'), four word stores per unit. */
static void
pack_rgb (const uint8_t *codes, uint8_t *out, uint32_t pixels, int planes,
    uint8_t pad)
{
  const uint32_t padw = pad * 0x01010101u;
  const uint32_t padhi = (uint32_t) pad << 24;
  uint32_t p;

  if (planes == 1) {
    for (p = 0; p < pixels; p++, codes += 3, out += 16) {
      put32 (out, (uint32_t) codes[0] | (uint32_t) codes[1] << 8
          | (uint32_t) codes[2] << 16 | padhi);
      put32 (out + 4, padw);
      put32 (out + 8, padw);
      put32 (out + 12, padw);
    }
    return;
  }
  for (p = 0; p < pixels; p++, codes += 6, out += 32) {
    put32 (out, (uint32_t) codes[0] | (uint32_t) codes[2] << 8
        | (uint32_t) codes[4] << 16 | padhi);
    put32 (out + 4, padw);
    put32 (out + 8, padw);
    put32 (out + 12, padw);
    put32 (out + 16, (uint32_t) codes[1] | (uint32_t) codes[3] << 8
        | (uint32_t) codes[5] << 16 | padhi);
    put32 (out + 20, padw);
    put32 (out + 24, padw);
    put32 (out + 28, padw);
  }
}

/* ---- whole tiles: RGB -> Pad16 and compact tiles ------------------------- */

typedef struct {
  uint64_t tile_offset;
  int64_t view_offset;
  uint32_t rows, width, span;
} TileTask;

/* The cursor's tile with its class's exact extents and span (a partial
 * edge tile is smaller, never padded to the full tile). */
static void
tile_task (const SimaTileCursor *cur, TileTask *t)
{
  t->tile_offset = cur->tile_offset;
  t->view_offset = cur->view_offset;
  t->rows = (uint32_t) cur->cls->extent[SIMA_MLA_H];
  t->width = (uint32_t) cur->cls->extent[SIMA_MLA_W];
  t->span = (uint32_t) cur->cls->span_bytes;
}

/* This worker's tiles, whole and in physical order: [first, last) of the
 * job's tiles (one task each: weight 1 per class, so the class-weighted
 * run sums count tiles and sima_tiled_locate finds a worker's first tile
 * in O(1)), as in the general worker. */
typedef struct {
  uint64_t weight[SIMA_TILE_CLASS_COUNT];
  SimaTileRuns runs;
  uint64_t first, last;
} TileRange;

static void
tile_range (const SimaFwHal *hal, const SimaFwPackJob *job, TileRange *r)
{
  const SimaTiledGeometry *g = &job->output_geometry;
  uint64_t tasks;
  int i;

  for (i = 0; i < SIMA_TILE_CLASS_COUNT; i++)
    r->weight[i] = g->classes[i].count > 0;
  sima_tiled_runs (g, r->weight, &r->runs);     /* at most the tile count */
  tasks = g->outer_count * r->runs.slice;
  r->first = tasks * hal->worker_id / hal->worker_count;
  r->last = tasks * (hal->worker_id + 1) / hal->worker_count;
}

/* The range's tiles, one task each: one 2D read of the tile's H rows of
 * W * C scalars, the conversion, one write of the tile's span. RGB
 * (`rgb`): convert in place, then pack_rgb into the output slot. Compact
 * tiles: the staged pixels with every channel, nothing stored beyond
 * them, are already the tile's output order, so the codes go straight
 * into the output slot and that is the tile (no pack pass). The starting
 * tile is decoded once (sima_tiled_locate, sima_tile_cursor_seek); the
 * cursor then steps along W, H, D and outer slices. Double-buffered: the
 * next tile's read is in flight during the conversion, an output slot is
 * reused only after its previous write was waited for, and everything is
 * drained before returning. */
static SimaStatus
run_tiles (SimaFwHal *hal, const SimaFwPackJob *job, const TileRange *r,
    uint8_t *const in[2], uint8_t *const out[2], uint32_t channels, int rgb)
{
  const SimaTiledGeometry *g = &job->output_geometry;
  const uint32_t in_scalar = (uint32_t) job->input_view.scalar_bytes;
  const uint64_t first = r->first, last = r->last;
  uint64_t outer, inside, k;
  int64_t ti[4];
  SimaTileCursor cur;
  TileTask task[2];
  int err = 0, s;

  sima_tiled_locate (g, &r->runs, r->weight, first, &outer, ti, &inside);
  sima_tile_cursor_init (&cur, g, &job->walk);
  sima_tile_cursor_seek (&cur, outer, ti);
  tile_task (&cur, &task[0]);
  err |= read_rows (hal, TAG_IN0, job, task[0].view_offset, in[0],
      task[0].width * channels * in_scalar, task[0].rows);
  for (k = first; k < last && !err; k++) {
    uint32_t values;
    s = (int) ((k - first) & 1);
    err |= hal->ops->wait (hal, TAG_IN0 + (unsigned) s);
    if (k + 1 < last) {
      sima_tile_cursor_next (&cur);
      tile_task (&cur, &task[1 - s]);
      err |= read_rows (hal, TAG_IN0 + (unsigned) (1 - s), job,
          task[1 - s].view_offset, in[1 - s],
          task[1 - s].width * channels * in_scalar, task[1 - s].rows);
    }
    if (k - first >= 2)         /* this output slot's previous write */
      err |= hal->ops->wait (hal, TAG_OUT0 + (unsigned) s);
    if (err)
      break;
    values = task[s].rows * task[s].width * channels;
    if (rgb) {
      simafw_pack_convert (job, in[s], in[s], values);
      pack_rgb (in[s], out[s], values / SIMAFW_RGB_CHANNELS,
          g->element_bytes, job->padding);
    } else {
      simafw_pack_convert (job, in[s], out[s], values);
    }
    err |= simafw_write_exact (hal, TAG_OUT0 + (unsigned) s,
        job->output_bus + task[s].tile_offset, 0, out[s], 0, task[s].span, 1);
  }
  return simafw_pack_drain (hal, job, err);
}

SimaStatus
simafw_pack_run_rgb_pad16 (SimaFwHal *hal, const SimaFwPackJob *job)
{
  const int planes = job->output_geometry.element_bytes;
  /* in place: the wider of a scalar and a code (UINT8 -> BF16) */
  const uint32_t scalar = (uint32_t) (job->input_view.scalar_bytes > planes
      ? job->input_view.scalar_bytes : planes);
  uint8_t *in[2], *out[2];
  TileRange r;

  tile_range (hal, job, &r);
  if (r.first == r.last)        /* no tiles: no slots */
    return sima_status_ok ();
  in[0] = hal->ops->scratch (hal, SIMAFW_RGB_MAX_PIXELS
      * SIMAFW_RGB_CHANNELS * scalar);
  in[1] = hal->ops->scratch (hal, SIMAFW_RGB_MAX_PIXELS
      * SIMAFW_RGB_CHANNELS * scalar);
  out[0] = hal->ops->scratch (hal, SIMAFW_RGB_MAX_PIXELS * SIMAFW_RGB_STORED
      * planes);
  out[1] = hal->ops->scratch (hal, SIMAFW_RGB_MAX_PIXELS * SIMAFW_RGB_STORED
      * planes);
  if (!in[0] || !in[1] || !out[0] || !out[1])
    return no_slots (job, hal, "RGB Pad16");
  return run_tiles (hal, job, &r, in, out, SIMAFW_RGB_CHANNELS, 1);
}

SimaStatus
simafw_pack_run_compact_tile (SimaFwHal *hal, const SimaFwPackJob *job)
{
  const uint32_t scalar = (uint32_t) job->input_view.scalar_bytes;
  uint8_t *in[2], *out[2];
  TileRange r;

  tile_range (hal, job, &r);
  if (r.first == r.last)        /* no tiles: no slots */
    return sima_status_ok ();
  /* INT8: one output byte per element */
  in[0] = hal->ops->scratch (hal, SIMAFW_CT_MAX_ELEMENTS * scalar);
  in[1] = hal->ops->scratch (hal, SIMAFW_CT_MAX_ELEMENTS * scalar);
  out[0] = hal->ops->scratch (hal, SIMAFW_CT_MAX_ELEMENTS);
  out[1] = hal->ops->scratch (hal, SIMAFW_CT_MAX_ELEMENTS);
  if (!in[0] || !in[1] || !out[0] || !out[1])
    return no_slots (job, hal, "compact tile");
  return run_tiles (hal, job, &r, in, out,
      (uint32_t) job->output_geometry.extent[SIMA_MLA_C], 0);
}
