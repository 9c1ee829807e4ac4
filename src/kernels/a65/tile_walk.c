/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "tile_walk.h"

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

void
sima_a65_pack_tiles (const SimaTiledGeometry *g, const SimaTiledWalk *walk,
    const uint8_t *src, uint8_t *dst, SimaA65PackFn pack, const void *ctx)
{
  const int64_t *stride = walk->dim_stride;
  SimaTileCursor cur;

  sima_tile_cursor_init (&cur, g, walk);
  while (sima_tile_cursor_next (&cur)) {
    const SimaTileClass *cls = cur.cls;
    const uint8_t *s = src + cur.view_offset;
    uint8_t *tile = dst + cur.tile_offset;
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
    /* alignment-only gap: raw zero, on every call */
    memset (tile + cls->payload_bytes, 0,
        (size_t) (cls->span_bytes - cls->payload_bytes));
  }
}

void
sima_a65_unpack_tiles (const SimaTiledGeometry *g, const SimaTiledWalk *walk,
    const uint8_t *src, uint8_t *dst, SimaA65UnpackFn unpack, const void *ctx)
{
  const int64_t *stride = walk->dim_stride;
  SimaTileCursor cur;

  sima_tile_cursor_init (&cur, g, walk);
  while (sima_tile_cursor_next (&cur)) {
    const SimaTileClass *cls = cur.cls;
    const uint8_t *tile = src + cur.tile_offset;
    uint8_t *d = dst + cur.view_offset;
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
}
