/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "tile_walk.h"

#include "../cpu/cpu.h"
#include "threads_run.h"

#include <string.h>

/* How a tile is cut into leaf calls. Without cblock a tile is one block of
 * all its stored channels. With cblock (pad16 only, so stored channels are a
 * multiple of 16) it is stored_channels / 16 blocks of 16 stored channels,
 * each holding all the tile's pixels: block b takes value channels
 * [16b, min(16b + 16, extent C)) (at least one: stored channels are the
 * extent rounded up to 16, so no block is pure padding), reads them from
 * the view 16 channels further on and sits P * 16 * element_bytes bytes
 * further into the tile (P the tile's pixels). */
typedef struct {
  int64_t blocks;           /* leaf sweeps over the tile */
  int64_t stored;           /* stored channels per sweep */
  int64_t block_bytes;      /* tile bytes of one sweep */
} TileBlocks;

static inline void
tile_blocks (const SimaTiledGeometry *g, const SimaTileClass *cls,
    TileBlocks *b)
{
  int64_t pixels = cls->extent[SIMA_MLA_D] * cls->extent[SIMA_MLA_H]
      * cls->extent[SIMA_MLA_W];
  if (g->tiled.cblock) {
    b->blocks = cls->stored_channels / 16;
    b->stored = 16;
  } else {
    b->blocks = 1;
    b->stored = cls->stored_channels;
  }
  b->block_bytes = pixels * b->stored * g->element_bytes;
}

/* The tile of `cur` packed: every stored byte of each block's slices,
 * then the alignment-only gap (raw zero) when the tile has one. */
static void
pack_tile (const SimaTiledGeometry *g, const SimaTiledWalk *walk,
    const SimaTileCursor *cur, const uint8_t *src, uint8_t *dst,
    SimaA65PackFn pack, const void *ctx)
{
  const int64_t *stride = walk->dim_stride;
  const SimaTileClass *cls = cur->cls;
  const uint8_t *s = src + cur->view_offset;
  uint8_t *tile = dst + cur->tile_offset;
  TileBlocks tb;
  int64_t b, z, slice_bytes;

  tile_blocks (g, cls, &tb);
  slice_bytes = cls->extent[SIMA_MLA_W] * cls->extent[SIMA_MLA_H]
      * tb.stored * g->element_bytes;
  for (b = 0; b < tb.blocks; b++) {
    int64_t left = cls->extent[SIMA_MLA_C] - b * tb.stored;
    int64_t channels = left < tb.stored ? left : tb.stored;
    const uint8_t *sb = s + b * tb.stored * stride[SIMA_MLA_C];
    uint8_t *d = tile + b * tb.block_bytes;
    for (z = 0; z < cls->extent[SIMA_MLA_D]; z++) {
      pack (ctx, sb + z * stride[SIMA_MLA_D], stride[SIMA_MLA_W],
          stride[SIMA_MLA_C], cls->extent[SIMA_MLA_W], channels, tb.stored,
          d, cls->extent[SIMA_MLA_H], stride[SIMA_MLA_H]);
      d += slice_bytes;
    }
  }
  if (cls->span_bytes > cls->payload_bytes)
    memset (tile + cls->payload_bytes, 0,
        (size_t) (cls->span_bytes - cls->payload_bytes));
}

/* The tile of `cur` unpacked into the view. */
static void
unpack_tile (const SimaTiledGeometry *g, const SimaTiledWalk *walk,
    const SimaTileCursor *cur, const uint8_t *src, uint8_t *dst,
    SimaA65UnpackFn unpack, const void *ctx)
{
  const int64_t *stride = walk->dim_stride;
  const SimaTileClass *cls = cur->cls;
  const uint8_t *tile = src + cur->tile_offset;
  uint8_t *d = dst + cur->view_offset;
  TileBlocks tb;
  int64_t b, z, slice_bytes;

  tile_blocks (g, cls, &tb);
  slice_bytes = cls->extent[SIMA_MLA_W] * cls->extent[SIMA_MLA_H]
      * tb.stored * g->element_bytes;
  for (b = 0; b < tb.blocks; b++) {
    int64_t left = cls->extent[SIMA_MLA_C] - b * tb.stored;
    int64_t channels = left < tb.stored ? left : tb.stored;
    const uint8_t *s = tile + b * tb.block_bytes;
    uint8_t *db = d + b * tb.stored * stride[SIMA_MLA_C];
    for (z = 0; z < cls->extent[SIMA_MLA_D]; z++) {
      unpack (ctx, s, cls->extent[SIMA_MLA_W], channels, tb.stored,
          db + z * stride[SIMA_MLA_D], stride[SIMA_MLA_W],
          stride[SIMA_MLA_C], cls->extent[SIMA_MLA_H], stride[SIMA_MLA_H]);
      s += slice_bytes;
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
  SimaTileCursor cur;
  SimaFpState fp;
  uint64_t t;

  if (first == end)
    return;
  sima_fp_enter (&fp);          /* per thread: MXCSR/FPCR are per thread */
  sima_tile_cursor_init (&cur, job->geometry, job->walk);
  seek_tile (&cur, job->geometry, first);
  for (t = first; t < end; t++) {
    if (t > first && !sima_tile_cursor_next (&cur))
      break;                    /* cannot happen: end <= total */
    if (job->pack != NULL)
      pack_tile (job->geometry, job->walk, &cur, job->src, job->dst,
          job->pack, job->ctx);
    else
      unpack_tile (job->geometry, job->walk, &cur, job->src, job->dst,
          job->unpack, job->ctx);
  }
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
