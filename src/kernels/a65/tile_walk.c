/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "tile_walk.h"

#include <string.h>

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
    uint8_t *d = dst + cur.tile_offset;
    int64_t row_bytes = cls->extent[SIMA_MLA_W] * cls->stored_channels
        * g->element_bytes;
    int64_t z;

    for (z = 0; z < cls->extent[SIMA_MLA_D]; z++) {
      pack (ctx, s + z * stride[SIMA_MLA_D], stride[SIMA_MLA_W],
          stride[SIMA_MLA_C], cls->extent[SIMA_MLA_W],
          cls->extent[SIMA_MLA_C], cls->stored_channels, d,
          cls->extent[SIMA_MLA_H], stride[SIMA_MLA_H]);
      d += row_bytes * cls->extent[SIMA_MLA_H];
    }
    /* alignment-only gap: raw zero, on every call */
    memset (d, 0, (size_t) (cls->span_bytes - cls->payload_bytes));
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
    const uint8_t *s = src + cur.tile_offset;
    uint8_t *d = dst + cur.view_offset;
    int64_t row_bytes = cls->extent[SIMA_MLA_W] * cls->stored_channels
        * g->element_bytes;
    int64_t z;

    for (z = 0; z < cls->extent[SIMA_MLA_D]; z++) {
      unpack (ctx, s, cls->extent[SIMA_MLA_W], cls->extent[SIMA_MLA_C],
          cls->stored_channels, d + z * stride[SIMA_MLA_D],
          stride[SIMA_MLA_W], stride[SIMA_MLA_C], cls->extent[SIMA_MLA_H],
          stride[SIMA_MLA_H]);
      s += row_bytes * cls->extent[SIMA_MLA_H];
    }
  }
}
