/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tile_walk.h - the A65 traversal shared by every operation: tiles in
 * physical order (SimaTileCursor), D slices inside each tile, one leaf call
 * per slice for its H rows of W pixels. A cblock tile (docs/layout.md) is
 * walked as one such sweep per 16-channel block, with the same leaves.
 */
#ifndef SIMA_KERNELS_A65_TILE_WALK_H
#define SIMA_KERNELS_A65_TILE_WALK_H

#include <simaai/kernels/a65/leaves.h>
#include <simaai/kernels/layout.h>

/* Dense view at src -> tiled tensor at dst. Writes every byte of the tiled
 * tensor: the leaf writes each pixel's stored channels, the walk zeroes the
 * alignment gap at the end of each tile. */
void sima_a65_pack_tiles (const SimaTiledGeometry *g, const SimaTiledWalk *walk,
    const uint8_t *src, uint8_t *dst, SimaA65PackFn pack, const void *ctx);

/* Tiled tensor at src -> dense view at dst: INT8 tiles (DetessDequant) or
 * BF16 byte-plane tiles (DetessCast; g->element_bytes 2, each pixel 2 *
 * stored bytes, a cblock block 16 low then 16 high bytes per pixel). Writes
 * only the elements of the view; the leaves read only value channels. */
void sima_a65_unpack_tiles (const SimaTiledGeometry *g,
    const SimaTiledWalk *walk, const uint8_t *src, uint8_t *dst,
    SimaA65UnpackFn unpack, const void *ctx);

#endif /* SIMA_KERNELS_A65_TILE_WALK_H */
