/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The DetessDequant worker selector and the tile-band worker.
 *
 * The general worker (detessdequant_worker.c) gathers each output panel in
 * output order straight from the tiles: one transfer per run of values
 * along the innermost logical axis inside one tile. For a channels-last
 * output that is one transfer per tile row and C tile (pad16 C3 224x224:
 * 3,136 reads of sixteen 3-byte rows; compact C64 56x56: one 2D read of
 * four 16-byte fragments per pixel, 3,136 of them).
 *
 * The tile-band worker (the specs' "FP32 channel bands", for both output
 * dtypes and any scale) reads in physical order instead. A band is a run
 * of W tiles of one H tile row (all their rows), or, when one tile's
 * results do not fit a panel, a run of rows of one tile; always every C
 * tile. Its values are one rectangle of the output: `rows` rows of
 * band-width * C results at the output's row pitch, one 2D write. Its
 * reads follow the tiles:
 *  - a C tile that stores exactly its valid channels holds the band's
 *    pixels as one contiguous run per tile, adjacent across the W tiles of
 *    a whole-row band and one C-tile volume apart across C tiles: the
 *    segment builder (dma_blocks.h) makes that one 2D transfer for the
 *    band;
 *  - a C tile with padding (pad16 with a channel tail) gives one row per
 *    pixel, its valid bytes at the stored-channel pitch, merged across the
 *    tiles of a whole-row band: one 2D transfer per C tile and band. The
 *    staging keeps each pixel's values at a 4-byte aligned local pitch, so
 *    no row is an unaligned transfer.
 * Padding and gaps are never read. A local pass puts the staged values in
 * output order into the ordered panel (the specs' raw-fragment scratch),
 * which is then converted as one block into a result panel. Bands are
 * tasks in output order; worker w of N owns tasks [w*T/N, (w+1)*T/N).
 * Eligibility makes every band row a whole number of aligned granules
 * (16-byte aligned output, row and tile widths whole granules), so workers
 * never share a write granule and every write is DMA.
 *
 * Double-buffered like the other workers: the next band's reads are in
 * flight while the current band is reordered and converted, a result slot
 * is reused only after its previous write was waited for, and every
 * transfer is drained before returning, after an error too.
 */
#include <string.h>

#include <simaai/kernels/ev74/detessdequant_wire.h>

#include "dense_output.h"
#include "detessdequant_special.h"
#include "dma_blocks.h"
#include "hal/device_model.h"

enum { TAG_IN0 = 0, TAG_OUT0 = 2 };

/* ---- band geometry (selector and worker) --------------------------------- */

typedef struct {
  uint32_t scalar;          /* result bytes */
  int64_t channels;         /* logical C */
  int64_t width;            /* logical W (1 when absent) */
  int64_t height;           /* logical H (1 when absent) */
  int64_t tile_w, tile_h, tile_c;
  int64_t tiles_w, tiles_h, tiles_c;
  int64_t rows_of[2];       /* rows of a full / the last H tile row */
  int64_t last_w;           /* width of the last W tile */
  int64_t k;                /* W tiles per band */
  int64_t r;                /* rows per band: tile_h for bands of whole
                             * tile rows, fewer for runs of rows of one
                             * tile */
  int64_t wbands;           /* bands across a row of W tiles */
  uint64_t per_row[2];      /* tasks of a full / the boundary H tile row */
  uint64_t per_plane;       /* tasks of one outer slice and D plane */
  uint64_t tasks;
  /* staging bytes per pixel: of each full C tile, of the last C tile,
   * and of all C tiles together */
  uint32_t pitch_full, pitch_last, pixel_bytes;
} Bands;

static int64_t
ceil_div (int64_t a, int64_t b)
{
  return (a + b - 1) / b;
}

/* Valid and stored channels of C tile ct (its class at tile (0,0,0,ct),
 * which exists). */
static void
c_tile (const SimaTiledGeometry *g, int64_t ct, int64_t *valid,
    int64_t *stored)
{
  int64_t ti[4] = { 0, 0, 0, ct };
  const SimaTileClass *cls = &g->classes[sima_tiled_class_of (g, ti)];
  *valid = cls->extent[SIMA_MLA_C];
  *stored = cls->stored_channels;
}

/* Staging bytes a pixel's values of a C tile take: all stored bytes when
 * there is no padding (the tile's rows are read whole), else its valid
 * bytes rounded up to the DMA's local alignment (one row per pixel). */
static uint32_t
stage_pitch (int64_t valid, int64_t stored)
{
  const int64_t a = SIMA_EV74_DMA_LOCAL_ALIGN;
  return (uint32_t) (valid == stored ? valid : (valid + a - 1) / a * a);
}

/* The mapped axes are the last ones, in D, H, W, C order (C last), and
 * the outer axes come before them: output row-major order is then outer
 * slices, D, H, W, C, and a tile row is a rectangle of the output. */
static int
channels_last (const SimaTiledGeometry *g)
{
  int k, next = g->rank - 1;

  for (k = SIMA_MLA_C; k >= SIMA_MLA_D; k--) {
    if (g->tiled.axes[k] < 0)
      continue;
    if (g->tiled.axes[k] != next)
      return 0;
    next--;
  }
  return 1;
}

/* The bands of a job, or 0 when the job is not eligible. */
static int
bands_plan (const SimaFwDetessDequantJob *job, Bands *b)
{
  const SimaTiledGeometry *g = &job->plan.input_geometry;
  const int64_t *t = g->tiled.tile_shape;
  const uint64_t granule = SIMA_EV74_WRITE_GRANULE;
  int64_t valid, stored, fit, rows, pixel_bytes;
  uint64_t row_bytes;

  if ((job->flags & SIMA_EV74_DD_FLAG_STRIDED) || g->tiled.cblock
      || !channels_last (g) || t[SIMA_MLA_D] != 1)
    return 0;
  memset (b, 0, sizeof *b);
  b->scalar = (uint32_t) job->plan.output_view.scalar_bytes;
  b->channels = g->extent[SIMA_MLA_C];
  b->width = g->extent[SIMA_MLA_W];
  b->height = g->extent[SIMA_MLA_H];
  b->tile_w = g->tiled.axes[SIMA_MLA_W] >= 0 ? t[SIMA_MLA_W] : 1;
  b->tile_h = g->tiled.axes[SIMA_MLA_H] >= 0 ? t[SIMA_MLA_H] : 1;
  b->tile_c = t[SIMA_MLA_C];
  b->tiles_w = g->tile_count[SIMA_MLA_W];
  b->tiles_h = g->tile_count[SIMA_MLA_H];
  b->tiles_c = g->tile_count[SIMA_MLA_C];
  if (b->tile_w > b->width)
    b->tile_w = b->width;       /* one W tile, its extent the width */
  if (b->tile_h > b->height)
    b->tile_h = b->height;

  /* every band row whole aligned granules: output, rows, W tiles */
  row_bytes = (uint64_t) (b->width * b->channels) * b->scalar;
  if (job->output_bus % granule != 0 || row_bytes % granule != 0
      || (b->tiles_w > 1 && (uint64_t) (b->tile_w * b->channels) * b->scalar
          % granule != 0))
    return 0;

  c_tile (g, 0, &valid, &stored);
  b->pitch_full = stage_pitch (valid, stored);
  c_tile (g, b->tiles_c - 1, &valid, &stored);
  b->pitch_last = stage_pitch (valid, stored);
  /* at most a pixel's stored bytes; beyond a staging slot no band fits */
  pixel_bytes = (b->tiles_c - 1) * (int64_t) b->pitch_full + b->pitch_last;
  if (pixel_bytes > SIMAFW_DDB_STAGE)
    return 0;
  b->pixel_bytes = (uint32_t) pixel_bytes;

  /* the most pixels a band may hold: its results fit a panel, its staged
   * values a staging slot */
  fit = SIMAFW_DD_PANEL / b->channels;
  if ((int64_t) (SIMAFW_DDB_STAGE / b->pixel_bytes) < fit)
    fit = SIMAFW_DDB_STAGE / b->pixel_bytes;
  if (fit >= b->tile_h * b->tile_w) {
    /* whole tile rows: k W tiles, as even as the row allows */
    int64_t k = fit / (b->tile_h * b->tile_w), bands_w;
    if (k > b->tiles_w)
      k = b->tiles_w;
    bands_w = ceil_div (b->tiles_w, k);
    b->k = ceil_div (b->tiles_w, bands_w);
    b->r = b->tile_h;
  } else {
    /* runs of rows of one tile, as even as the tile allows */
    rows = fit / b->tile_w;
    if (rows < 1)
      return 0;
    b->k = 1;
    b->r = ceil_div (b->tile_h, ceil_div (b->tile_h, rows));
  }
  b->wbands = ceil_div (b->tiles_w, b->k);
  /* the tile extents were clamped to the tensor: the last tile's */
  b->rows_of[0] = b->tile_h;
  b->rows_of[1] = b->height - (b->tiles_h - 1) * b->tile_h;
  b->last_w = b->width - (b->tiles_w - 1) * b->tile_w;
  b->per_row[0] = (uint64_t) (b->wbands * ceil_div (b->rows_of[0], b->r));
  b->per_row[1] = (uint64_t) (b->wbands * ceil_div (b->rows_of[1], b->r));
  b->per_plane = (uint64_t) (b->tiles_h - 1) * b->per_row[0]
      + b->per_row[1];
  b->tasks = g->outer_count * (uint64_t) g->extent[SIMA_MLA_D]
      * b->per_plane;
  return 1;
}

/* ---- selection ----------------------------------------------------------- */

/* The logical input bytes are the first element_count bytes of the tiled
 * buffer, in row-major order, so a panel is one read. Two geometries:
 * - channel tensors (the specs' rank-one case: every axis but C has
 *   extent 1) whose channel tiles follow each other without a gap: one
 *   tile, or full tiles of a multiple of 16 channels (their span is their
 *   payload, padded or not; the final tile's padding comes after the last
 *   value and is not read);
 * - channels-last tensors of one C tile without padding whose tiles hold
 *   whole output rows or single rows (one W tile, or tile H 1) of one D
 *   plane, with no gap after any tile: the tiles, in physical order, are
 *   then the output's pixels in row-major order (YOLO-style heads, tiles of
 *   one row of all channels). */
static int
direct_eligible (const SimaFwDetessDequantJob *job)
{
  const SimaTiledGeometry *g = &job->plan.input_geometry;
  int k;

  if (job->flags & SIMA_EV74_DD_FLAG_STRIDED)
    return 0;
  if (g->outer_count == 1 && g->extent[SIMA_MLA_D] == 1
      && g->extent[SIMA_MLA_H] == 1 && g->extent[SIMA_MLA_W] == 1)
    return g->tile_count[SIMA_MLA_C] == 1
        || g->tiled.tile_shape[SIMA_MLA_C] % 16 == 0;
  if (g->tiled.cblock || !channels_last (g) || g->tiled.tile_shape[SIMA_MLA_D]
      != 1 || g->tile_count[SIMA_MLA_C] != 1
      || (g->tile_count[SIMA_MLA_W] != 1
          && g->tiled.tile_shape[SIMA_MLA_H] != 1
          && g->extent[SIMA_MLA_H] != 1))
    return 0;
  for (k = 0; k < SIMA_TILE_CLASS_COUNT; k++) {
    const SimaTileClass *cls = &g->classes[k];
    if (cls->count > 0 && (cls->stored_channels != cls->extent[SIMA_MLA_C]
            || cls->span_bytes != cls->payload_bytes))
      return 0;
  }
  return 1;
}

/* Workers the general worker keeps busy on a dense output: those whose
 * share (dense_output.h, 16-byte aligned intervals) is not empty. */
static uint64_t
general_busy (const SimaFwDetessDequantJob *job, uint32_t workers)
{
  SimaFwDenseOutput d;
  uint64_t busy = 0;
  uint32_t w;

  simafw_dense_output_init (&d, job->plan.element_count,
      (uint32_t) job->plan.output_view.scalar_bytes, job->output_bus,
      SIMAFW_DD_PANEL);
  for (w = 0; w < workers; w++)
    busy += simafw_dense_boundary (&d, w, workers)
        < simafw_dense_boundary (&d, w + 1, workers);
  return busy;
}

SimaFwDetessDequantWorker
simafw_detessdequant_select (const SimaFwDetessDequantJob *job,
    uint32_t workers)
{
  Bands b;

  if (job->plan.element_count == 0)
    return SIMAFW_DD_WORKER_GENERAL;
  if (direct_eligible (job))
    return SIMAFW_DD_WORKER_DIRECT;
  /* bands never keep fewer workers busy than the general worker would
   * (the specs: admission preserves its available worker parallelism) */
  if (!bands_plan (job, &b) || b.tasks < general_busy (job, workers))
    return SIMAFW_DD_WORKER_GENERAL;
  return SIMAFW_DD_WORKER_BANDS;
}

/* ---- the tile-band worker ------------------------------------------------ */

/* Where a band is: outer slice and D plane (one index), H tile row, run of
 * rows inside it, run of W tiles. */
typedef struct {
  uint64_t plane;
  int64_t ht, rb, wb;
} BandPos;

/* One band's extent. */
typedef struct {
  uint64_t plane;
  int64_t ht, row0, rows;   /* H tile row, first row in it, rows */
  int64_t j0, j1;           /* W tiles [j0, j1) */
  int64_t pixels;           /* band width: pixels of a row */
} Band;

/* Pixels of a row of W tile j. */
static int64_t
tile_width (const Bands *b, int64_t j)
{
  return j == b->tiles_w - 1 ? b->last_w : b->tile_w;
}

static void
band_locate (const Bands *b, uint64_t task, BandPos *p)
{
  uint64_t in = task % b->per_plane;
  uint64_t run;

  p->plane = task / b->per_plane;
  if (in < (uint64_t) (b->tiles_h - 1) * b->per_row[0]) {
    p->ht = (int64_t) (in / b->per_row[0]);
    in %= b->per_row[0];
  } else {
    p->ht = b->tiles_h - 1;
    in -= (uint64_t) (b->tiles_h - 1) * b->per_row[0];
  }
  run = (uint64_t) b->wbands;
  p->rb = (int64_t) (in / run);
  p->wb = (int64_t) (in % run);
}

static void
band_next (const Bands *b, BandPos *p)
{
  int64_t rows = p->ht == b->tiles_h - 1 ? b->rows_of[1] : b->rows_of[0];

  if (++p->wb < b->wbands)
    return;
  p->wb = 0;
  if (++p->rb < ceil_div (rows, b->r))
    return;
  p->rb = 0;
  if (++p->ht < b->tiles_h)
    return;
  p->ht = 0;
  p->plane++;
}

static void
band_of (const Bands *b, const BandPos *p, Band *band)
{
  int64_t rows = p->ht == b->tiles_h - 1 ? b->rows_of[1] : b->rows_of[0];

  band->plane = p->plane;
  band->ht = p->ht;
  band->row0 = p->rb * b->r;
  band->rows = rows - band->row0 < b->r ? rows - band->row0 : b->r;
  band->j0 = p->wb * b->k;
  band->j1 = band->j0 + b->k < b->tiles_w ? band->j0 + b->k : b->tiles_w;
  band->pixels = (band->j1 - band->j0) * b->tile_w;
  if (band->j1 == b->tiles_w)
    band->pixels += b->last_w - b->tile_w;
}

/* A run of per-pixel rows being merged into one 2D read. */
typedef struct {
  uint64_t bus;
  uint8_t *local;
  uint32_t rows, valid, stored, pitch;
} PixelRows;

static int
pixel_rows_flush (SimaFwHal *hal, unsigned tag, PixelRows *pr)
{
  int err = 0;

  if (pr->rows > 0)
    err = simafw_read_2d (hal, tag, pr->local, pr->pitch, pr->bus,
        pr->stored, pr->valid, pr->rows);
  pr->rows = 0;
  return err;
}

/* Issues the reads of a band's values into `stage`: C tile by C tile, W
 * tile by W tile, each tile's band rows in its physical pixel order. */
static int
band_read (SimaFwHal *hal, unsigned tag, const SimaFwDetessDequantJob *job,
    const Bands *b, const Band *band, uint8_t *stage)
{
  const SimaTiledGeometry *g = &job->plan.input_geometry;
  const uint64_t outer = band->plane / (uint64_t) g->extent[SIMA_MLA_D];
  const int64_t d = (int64_t) (band->plane % (uint64_t) g->extent[SIMA_MLA_D]);
  SimaFwSegments seg;
  PixelRows pr = { 0, NULL, 0, 0, 0, 0 };
  uint8_t *local = stage;
  int64_t ct, j;
  int err = 0;

  simafw_segments_init (&seg, 0, tag);
  for (ct = 0; ct < b->tiles_c; ct++) {
    for (j = band->j0; j < band->j1; j++) {
      int64_t ti[4];
      const SimaTileClass *cls;
      uint64_t tile, first;
      int64_t tw, valid, stored, px;
      ti[SIMA_MLA_D] = d;
      ti[SIMA_MLA_H] = band->ht;
      ti[SIMA_MLA_W] = j;
      ti[SIMA_MLA_C] = ct;
      cls = &g->classes[sima_tiled_class_of (g, ti)];
      tile = job->input_bus + sima_tiled_tile_offset (g, outer, ti);
      tw = tile_width (b, j);
      valid = cls->extent[SIMA_MLA_C];
      stored = cls->stored_channels;
      first = (uint64_t) (band->row0 * tw);     /* first pixel */
      px = band->rows * tw;
      if (valid == stored) {    /* the band's pixels: one contiguous run */
        err |= simafw_segments_add (hal, &seg, tile + first * (uint64_t) stored,
            (uint64_t) (px * stored), local);
        local += px * stored;
        continue;
      }
      /* one row per pixel; a run continues across adjacent tiles */
      if (pr.rows > 0 && pr.valid == (uint32_t) valid
          && pr.stored == (uint32_t) stored
          && tile + first * (uint64_t) stored
          == pr.bus + (uint64_t) pr.rows * pr.stored
          && local == pr.local + (uint64_t) pr.rows * pr.pitch
          && pr.rows + (uint64_t) px <= SIMA_EV74_DMA_MAX_ROWS) {
        pr.rows += (uint32_t) px;
      } else {
        err |= pixel_rows_flush (hal, tag, &pr);
        pr = (PixelRows) { tile + first * (uint64_t) stored, local,
          (uint32_t) px, (uint32_t) valid, (uint32_t) stored,
          stage_pitch (valid, stored) };
      }
      local += px * (int64_t) pr.pitch;
    }
  }
  err |= pixel_rows_flush (hal, tag, &pr);
  return err | simafw_segments_flush (hal, &seg);
}

/* The staged values of a band in output order: row by row, pixel by pixel,
 * the valid channels of every C tile after one another. */
static void
band_order (const SimaFwDetessDequantJob *job, const Bands *b,
    const Band *band, const uint8_t *stage, uint8_t *ordered)
{
  const SimaTiledGeometry *g = &job->plan.input_geometry;
  int64_t ct, j, row, x;
  const uint8_t *src = stage;

  for (ct = 0; ct < b->tiles_c; ct++) {
    int64_t valid, stored, c0 = ct * b->tile_c;
    uint32_t pitch;
    c_tile (g, ct, &valid, &stored);
    pitch = stage_pitch (valid, stored);
    for (j = band->j0; j < band->j1; j++) {
      int64_t tw = tile_width (b, j);
      int64_t x0 = (j - band->j0) * b->tile_w;
      for (row = 0; row < band->rows; row++) {
        uint8_t *dst = ordered + (row * band->pixels + x0) * b->channels + c0;
        for (x = 0; x < tw; x++, src += pitch, dst += b->channels)
          memcpy (dst, src, (size_t) valid);
      }
    }
  }
}

static int
band_write (SimaFwHal *hal, unsigned tag, const SimaFwDetessDequantJob *job,
    const Bands *b, const Band *band, const uint8_t *out)
{
  const uint64_t row_elems = (uint64_t) (b->width * b->channels);
  const uint64_t first = band->plane * (uint64_t) b->height * row_elems
      + (uint64_t) (band->ht * b->tile_h + band->row0) * row_elems
      + (uint64_t) (band->j0 * b->tile_w * b->channels);
  const uint32_t bytes = (uint32_t) ((uint64_t) band->pixels * b->channels
      * b->scalar);

  return simafw_write_exact (hal, tag, job->output_bus + first * b->scalar,
      row_elems * b->scalar, out, bytes, bytes, (uint32_t) band->rows);
}

SimaStatus
simafw_detessdequant_run_bands (SimaFwHal *hal,
    const SimaFwDetessDequantJob *job)
{
  Bands b;
  BandPos pos;
  Band band[2];
  uint8_t *stage[2], *ordered, *out[2];
  uint64_t first, last, k;
  uint32_t scalar;
  int err = 0, s;

  if (!bands_plan (job, &b))    /* the selector's job: cannot happen */
    return sima_status_make (SIMA_DEVICE_FAULT,
        "DetessDequant worker %lu: the tile-band worker was given a job it "
        "does not take", (unsigned long) hal->worker_id);
  scalar = b.scalar;
  first = b.tasks * hal->worker_id / hal->worker_count;
  last = b.tasks * (hal->worker_id + 1) / hal->worker_count;
  if (first == last)
    return sima_status_ok ();
  stage[0] = hal->ops->scratch (hal, SIMAFW_DDB_STAGE);
  stage[1] = hal->ops->scratch (hal, SIMAFW_DDB_STAGE);
  ordered = hal->ops->scratch (hal, SIMAFW_DDB_ORDERED);
  out[0] = hal->ops->scratch (hal, SIMAFW_DD_PANEL * scalar);
  out[1] = hal->ops->scratch (hal, SIMAFW_DD_PANEL * scalar);
  if (!stage[0] || !stage[1] || !ordered || !out[0] || !out[1])
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "DetessDequant worker %lu: local memory for the tile-band worker's "
        "slots is not available", (unsigned long) hal->worker_id);

  band_locate (&b, first, &pos);
  band_of (&b, &pos, &band[0]);
  err |= band_read (hal, TAG_IN0, job, &b, &band[0], stage[0]);
  for (k = first; k < last && !err; k++) {
    s = (int) ((k - first) & 1);
    err |= hal->ops->wait (hal, TAG_IN0 + (unsigned) s);
    if (k + 1 < last) {
      band_next (&b, &pos);
      band_of (&b, &pos, &band[1 - s]);
      err |= band_read (hal, TAG_IN0 + (unsigned) (1 - s), job, &b,
          &band[1 - s], stage[1 - s]);
    }
    if (k - first >= 2)         /* this result slot's previous write */
      err |= hal->ops->wait (hal, TAG_OUT0 + (unsigned) s);
    if (err)
      break;
    band_order (job, &b, &band[s], stage[s], ordered);
    simafw_dequant_block (&job->block, ordered, out[s],
        (uint32_t) (band[s].rows * band[s].pixels * b.channels));
    err |= band_write (hal, TAG_OUT0 + (unsigned) s, job, &b, &band[s],
        out[s]);
  }
  return simafw_dma_drain (hal, err, "DetessDequant");
}
