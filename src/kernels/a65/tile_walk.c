/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "tile_walk.h"

#include "../cpu/cpu.h"
#include "threads_run.h"

#include <string.h>

/* How the tiles of one class are cut into leaf calls, worked out once per
 * run of tiles (sima_tile_cursor_row_run) rather than per tile. Without
 * cblock a tile is one block of all its stored channels. With cblock (pad16
 * only, so stored channels are a multiple of 16) it is stored_channels / 16
 * blocks of 16 stored channels, each holding all the tile's pixels: block b
 * takes value channels [16b, min(16b + 16, extent C)) (at least one:
 * stored channels are the extent rounded up to 16, so no block is pure
 * padding), reads them from the view 16 channels further on and sits
 * P * 16 * element_bytes bytes further into the tile (P the tile's
 * pixels). Each block is D slices of H rows of W pixels: one leaf call per
 * slice. */
typedef struct {
  const SimaTileClass *cls;
  int64_t blocks;               /* leaf sweeps over a tile */
  int64_t stored;               /* stored channels per sweep */
  int64_t last_channels;        /* value channels of the last sweep (the
                                 * others: stored) */
  int64_t block_bytes;          /* tile bytes of one sweep */
  int64_t slice_bytes;          /* tile bytes of one D slice of a sweep */
  int64_t block_view_step;      /* view bytes between sweeps */
} TileSweep;

static void
tile_sweep (const SimaTiledGeometry *g, const SimaTiledWalk *walk,
    const SimaTileClass *cls, TileSweep *ts)
{
  const int64_t plane = cls->extent[SIMA_MLA_H] * cls->extent[SIMA_MLA_W];

  ts->cls = cls;
  if (g->tiled.cblock) {
    ts->blocks = cls->stored_channels / 16;
    ts->stored = 16;
  } else {
    ts->blocks = 1;
    ts->stored = cls->stored_channels;
  }
  ts->last_channels = cls->extent[SIMA_MLA_C] - (ts->blocks - 1) * ts->stored;
  ts->slice_bytes = plane * ts->stored * g->element_bytes;
  ts->block_bytes = cls->extent[SIMA_MLA_D] * ts->slice_bytes;
  ts->block_view_step = ts->stored * walk->dim_stride[SIMA_MLA_C];
}

/* One tile packed: view elements at s -> the tile at `tile`, every stored
 * byte of each sweep's slices, then the alignment-only gap (raw zero) when
 * the class has one. */
static void
pack_tile (const TileSweep *ts, const int64_t *stride, const uint8_t *s,
    uint8_t *tile, SimaA65PackFn pack, const void *ctx)
{
  const SimaTileClass *cls = ts->cls;
  int64_t b, z;

  for (b = 0; b < ts->blocks; b++) {
    const int64_t channels = b + 1 < ts->blocks ? ts->stored
        : ts->last_channels;
    const uint8_t *sb = s + b * ts->block_view_step;
    uint8_t *d = tile + b * ts->block_bytes;
    for (z = 0; z < cls->extent[SIMA_MLA_D]; z++) {
      pack (ctx, sb + z * stride[SIMA_MLA_D], stride[SIMA_MLA_W],
          stride[SIMA_MLA_C], cls->extent[SIMA_MLA_W], channels, ts->stored,
          d, cls->extent[SIMA_MLA_H], stride[SIMA_MLA_H]);
      d += ts->slice_bytes;
    }
  }
  if (cls->span_bytes > cls->payload_bytes)
    memset (tile + cls->payload_bytes, 0,
        (size_t) (cls->span_bytes - cls->payload_bytes));
}

/* One tile unpacked: the tile at `tile` -> its view elements at d. */
static void
unpack_tile (const TileSweep *ts, const int64_t *stride, const uint8_t *tile,
    uint8_t *d, SimaA65UnpackFn unpack, const void *ctx)
{
  const SimaTileClass *cls = ts->cls;
  int64_t b, z;

  for (b = 0; b < ts->blocks; b++) {
    const int64_t channels = b + 1 < ts->blocks ? ts->stored
        : ts->last_channels;
    const uint8_t *s = tile + b * ts->block_bytes;
    uint8_t *db = d + b * ts->block_view_step;
    for (z = 0; z < cls->extent[SIMA_MLA_D]; z++) {
      unpack (ctx, s, cls->extent[SIMA_MLA_W], channels, ts->stored,
          db + z * stride[SIMA_MLA_D], stride[SIMA_MLA_W],
          stride[SIMA_MLA_C], cls->extent[SIMA_MLA_H], stride[SIMA_MLA_H]);
      s += ts->slice_bytes;
    }
  }
}

uint64_t
sima_a65_tile_total (const SimaTiledGeometry *g)
{
  if (g->empty)
    return 0;
  return g->outer_count * (uint64_t) (g->tile_count[SIMA_MLA_C]
      * g->tile_count[SIMA_MLA_D] * g->tile_count[SIMA_MLA_H]
      * g->tile_count[SIMA_MLA_W]);
}

/* Puts the cursor on tile `t` of the physical order (outer slices, then C,
 * D, H, W tiles, W fastest), in O(1). */
static void
seek_tile (SimaTileCursor *cur, const SimaTiledGeometry *g, uint64_t t)
{
  static const int order[4] = { SIMA_MLA_W, SIMA_MLA_H, SIMA_MLA_D,
    SIMA_MLA_C
  };
  int64_t index[4];
  int i;

  for (i = 0; i < 4; i++) {
    uint64_t n = (uint64_t) g->tile_count[order[i]];
    index[order[i]] = (int64_t) (t % n);
    t /= n;
  }
  sima_tile_cursor_seek (cur, t, index);
}

void
sima_a65_tiles_part (const SimaA65TileJob *job, unsigned part,
    unsigned parts)
{
  const uint64_t total = sima_a65_tile_total (job->geometry);
  const uint64_t first = sima_a65_part_begin (total, part, parts);
  const uint64_t end = sima_a65_part_begin (total, part + 1, parts);
  const SimaTiledGeometry *g = job->geometry;
  const int64_t *stride = job->walk->dim_stride;
  SimaTileCursor cur;
  SimaFpState fp;
  uint64_t t, n = 0;

  if (first == end)
    return;
  sima_fp_enter (&fp);          /* per thread: MXCSR/FPCR are per thread */
  sima_tile_cursor_init (&cur, g, job->walk);
  seek_tile (&cur, g, first);
  for (t = first; t < end; t += n) {
    SimaTileRun run;
    TileSweep ts;
    uint64_t j;
    if (t > first && !sima_tile_cursor_next (&cur))
      break;                    /* cannot happen: end <= total */
    /* a run of same-class tiles along W: the sweep worked out once, then
     * two additions per tile */
    sima_tile_cursor_row_run (&cur, &run);
    n = (uint64_t) run.tiles < end - t ? (uint64_t) run.tiles : end - t;
    tile_sweep (g, job->walk, cur.cls, &ts);
    for (j = 0; j < n; j++) {
      const uint64_t tile = cur.tile_offset + j * run.tile_step;
      const int64_t view = cur.view_offset + (int64_t) j * run.view_step;
      if (job->pack != NULL)
        pack_tile (&ts, stride, job->src + view, job->dst + tile, job->pack,
            job->ctx);
      else
        unpack_tile (&ts, stride, job->src + tile, job->dst + view,
            job->unpack, job->ctx);
    }
    sima_tile_cursor_skip_run (&cur, (int64_t) n);
  }
  if (job->fence)
    sima_cpu_store_fence ();    /* before this part counts as done */
  sima_fp_leave (&fp);
}

static void
run_part (void *arg, unsigned part, unsigned parts)
{
  sima_a65_tiles_part (arg, part, parts);
}

void
sima_a65_run_tiles (SimaA65Threads *pool, const SimaA65TileJob *job)
{
  SimaA65TileJob copy = *job;   /* the workers read it, never write */

  if (sima_a65_tile_total (job->geometry) < 2)
    pool = NULL;                /* nothing to share out */
  sima_a65_threads_run (pool, run_part, &copy);
}
