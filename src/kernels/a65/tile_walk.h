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
#include <simaai/kernels/a65/threads.h>
#include <simaai/kernels/layout.h>

/* One execution of the walk: dense view at src -> tiled tensor at dst when
 * pack is set, tiled tensor at src -> dense view at dst otherwise.
 *
 * Packing writes every byte of the tiled tensor: the leaf writes each
 * pixel's stored channels, the walk zeroes the alignment gap at the end of
 * each tile. Unpacking reads INT8 tiles (DetessDequant) or BF16
 * byte-plane tiles (DetessCast; g->element_bytes 2, each pixel 2 * stored
 * bytes, a cblock block 16 low then 16 high bytes per pixel) and writes
 * only the elements of the view; the leaves read only value channels. */
typedef struct {
  const SimaTiledGeometry *geometry;
  const SimaTiledWalk *walk;
  const uint8_t *src;
  uint8_t *dst;
  SimaA65PackFn pack;           /* or NULL, and unpack set */
  SimaA65UnpackFn unpack;
  const void *ctx;
  int fence;                    /* a streaming leaf: every thread fences
                                 * after its part (sima_cpu_store_fence) */
} SimaA65TileJob;

/* Tiles of the tensor, all outer slices (0 when empty). */
uint64_t sima_a65_tile_total (const SimaTiledGeometry *g);

/* Part `part` of `parts` of the job: the tiles [k*T/N, (k+1)*T/N) of the
 * physical order (sima_a65_part_begin), reached in O(1), in the FP state
 * the leaves need (sima_fp_enter on the calling thread). Parts write
 * disjoint bytes: a tile's own bytes (pack), its view elements (unpack). */
void sima_a65_tiles_part (const SimaA65TileJob *job, unsigned part,
    unsigned parts);

/* The whole job, its parts spread over the pool's threads (NULL: on the
 * caller's thread). The bytes do not depend on the pool. */
void sima_a65_run_tiles (SimaA65Threads *pool, const SimaA65TileJob *job);

#endif /* SIMA_KERNELS_A65_TILE_WALK_H */
