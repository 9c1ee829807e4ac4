/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/layout.h - admitted views and MLA tiled geometry.
 *
 * These are the single source of truth for addressing: the A65 executors,
 * the EV74 descriptor encoder and the firmware all take their spans, tile
 * classes and offsets from here. docs/layout.md states the rules in prose.
 */
#ifndef SIMAAI_KERNELS_LAYOUT_H
#define SIMAAI_KERNELS_LAYOUT_H

#include <simaai/kernels/status.h>
#include <simaai/kernels/types.h>
#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

/* Alignment (bytes) every tiled or channel-blocked buffer must have. */
enum { SIMA_TILED_ALIGNMENT = 16 };

/* A contiguous or strided tensor after admission. */
typedef struct {
  int rank;
  int64_t shape[SIMA_MAX_RANK];
  /* Byte stride of every axis: row-major for contiguous views, the caller's
   * strides for strided ones. All zero for empty tensors (nothing is
   * addressed, and row-major strides of huge empty shapes may not fit). */
  int64_t strides_bytes[SIMA_MAX_RANK];
  int scalar_bytes;
  int empty;                /* some extent is 0 */
  uint64_t element_count;   /* 0 when empty */
  uint64_t required_bytes;  /* scalar + sum((n-1)*stride); 0 when empty */
} SimaStridedView;

/* Admits a SIMA_LAYOUT_CONTIGUOUS or SIMA_LAYOUT_STRIDED spec: rank, shape,
 * dtype size, stride signs and alignment, then (for nonempty strided views)
 * the sorted-span proof that no two elements share a byte. `role` ("input",
 * "output") starts every message. */
SimaStatus sima_strided_view_admit (const SimaTensorSpec *spec,
    const char *role, SimaStridedView *out);

/* True when the view is the logical row-major layout (singleton axes may have
 * any stride): such a view reads or writes exactly like a contiguous one. */
int sima_strided_view_is_row_major (const SimaStridedView *view);

/* Checks rank 1..6 and nonnegative extents; `role` starts the message. */
SimaStatus sima_shape_check (const SimaTensorSpec *spec, const char *role);

/* True when some extent is 0 (for a spec that passed sima_shape_check). */
int sima_shape_is_empty (const SimaTensorSpec *spec);

/* ---- MLA tiled geometry ------------------------------------------------ */

/* Tiles split in full and boundary classes along D, H, W and C: at most 16
 * classes. A class index has bit 3 set for the boundary C tile, bit 2 for
 * boundary D, bit 1 for boundary H, bit 0 for boundary W. */
enum { SIMA_TILE_CLASS_COUNT = 16 };

typedef struct {
  int64_t extent[4];        /* D,H,W,C extents of tiles of this class */
  int64_t stored_channels;  /* extent[C], or rounded up to 16 for pad16 */
  uint64_t payload_bytes;   /* pixels * stored_channels * element bytes */
  uint64_t span_bytes;      /* payload rounded up to 16 */
  uint64_t count;           /* tiles of this class in one outer slice */
} SimaTileClass;

/* Sums of a per-class weight (bytes, tasks, ...) over complete runs of
 * tiles, by the classes of the enclosing tile: row[c][d][h] = all W tiles of
 * one H row, plane[c][d] = all H rows of one D plane, volume[c] = all D
 * planes of one C tile, slice = one outer slice. Index 0 is the full class,
 * 1 the boundary class. */
typedef struct {
  uint64_t row[2][2][2];
  uint64_t plane[2][2];
  uint64_t volume[2];
  uint64_t slice;
} SimaTileRuns;

typedef struct {
  int rank;
  int64_t shape[SIMA_MAX_RANK];
  SimaMlaTiled tiled;
  int element_bytes;        /* stored bytes per channel: 1 (INT8), 2 (BF16) */
  int empty;
  int64_t extent[4];        /* logical D,H,W,C extents (1 when absent) */
  int64_t full_tiles[4];    /* full tiles along D,H,W,C */
  int64_t tail_extent[4];   /* extent of the boundary tile, 0 if none */
  int64_t tile_count[4];    /* full_tiles + (tail_extent > 0) */
  int n_outer;              /* unmapped logical axes, increasing order */
  int8_t outer_axes[SIMA_MAX_RANK];
  uint64_t outer_count;     /* product of their extents */
  SimaTileClass classes[SIMA_TILE_CLASS_COUNT];
  /* Bytes of complete runs of tiles (SimaTileRuns with the span as the
   * weight): tile offsets are sums of these weighted by the tile index,
   * never index * full-tile size. */
  SimaTileRuns span_runs;
  uint64_t total_bytes;     /* physical size of the tensor; 0 when empty */
} SimaTiledGeometry;

/* Bytes a buffer must hold for a tensor of `spec`, whatever its layout:
 * the span of a contiguous or strided view, the physical size of MlaTiled
 * (INT8 one byte per stored channel, BF16 byte planes) or MlaCBlocked
 * (INT8) tensors; 0 for empty tensors. Validates the spec as the operations
 * would (stride rules, tiling); role starts the messages. */
SimaStatus sima_tensor_required_bytes (const SimaTensorSpec *spec,
    const char *role, uint64_t *bytes);

/* The tiling used when a caller has no opinion: channels last, pad16,
 * cblock 0, tiles of H8/W16/C16 (rank >= 3: H, W, C are the last three
 * axes; rank 2: W, C; rank 1: C alone, C tiles of 16). D is absent. Sets
 * every field of *out. */
void sima_mla_tiled_default (int rank, SimaMlaTiled *out);

/* Validates spec->tiled against the logical shape (C mandatory, axes unique
 * and in range, absent axes with tile extent 1, positive extents, a known
 * channels mode, cblock 0 or 1 and 1 only with pad16: invalid-tiling) and
 * derives classes, run sizes and the total size with checked arithmetic.
 * element_bytes is 1 for INT8 tiles, 2 for BF16 tiles (anything else is
 * rejected). */
SimaStatus sima_tiled_geometry_init (const SimaTensorSpec *spec,
    int element_bytes, const char *role, SimaTiledGeometry *out);

/* MlaCBlocked (ranks 3-6, trailing logical axes H, W, C): element
 * (o, h, w, c), with o the row-major index over the leading axes, is at
 *   ((o*CB + c/16)*H + h)*W*16 + w*16 + c%16,   CB = ceil(C/16).
 * That is exactly the MlaTiled layout with axes {-1, H, W, C}, tile
 * {1, H, W, 16} and pad16 channels, so channel-blocked tensors get their
 * geometry (and every offset) from the tiled code; tests check it against
 * the equation. Fails for ranks outside 3-6. */
SimaStatus sima_cblocked_geometry_init (const SimaTensorSpec *spec,
    const char *role, SimaTiledGeometry *out);

/* Class index of the tile at tile_index[D,H,W,C] (each < tile_count). */
int sima_tiled_class_of (const SimaTiledGeometry *g,
    const int64_t tile_index[4]);

/* Run sums of weight[class] (see SimaTileRuns). Returns nonzero when a sum
 * overflows SIMA_MAX_BYTES. */
int sima_tiled_runs (const SimaTiledGeometry *g,
    const uint64_t weight[SIMA_TILE_CLASS_COUNT], SimaTileRuns *out);

/* Where position `pos` (< outer_count * runs->slice) of the sequence of
 * weighted tiles falls: its outer slice, its tile and the position inside
 * that tile. In O(1): every tile before index i along a dimension is full. */
void sima_tiled_locate (const SimaTiledGeometry *g, const SimaTileRuns *runs,
    const uint64_t weight[SIMA_TILE_CLASS_COUNT], uint64_t pos,
    uint64_t *outer, int64_t tile_index[4], uint64_t *inside);

/* Byte offset of a tile inside the tensor: outer slice `outer` (row-major
 * over the outer axes), tile tile_index[D,H,W,C]. Arguments must be in range;
 * the result is below total_bytes, so no arithmetic can overflow. */
uint64_t sima_tiled_tile_offset (const SimaTiledGeometry *g, uint64_t outer,
    const int64_t tile_index[4]);

/* Byte offset of the logical element at coords[rank] (each < its extent):
 * its INT8 byte, or for BF16 tiles its low byte. For tools and tests that
 * look up single elements; executors walk tiles with a SimaTileCursor
 * instead. With p the pixel index inside the tile (D, H, W order), c the
 * channel inside the tile, S its stored channels and P its pixel count:
 *   cblock 0: INT8  tile_offset + p*S + c
 *             BF16  low tile_offset + p*2*S + c, high byte + S
 *   cblock 1: INT8  tile_offset + (c/16)*P*16 + p*16 + c%16
 *             BF16  low tile_offset + (c/16)*P*32 + p*32 + c%16,
 *                   high byte + 16
 * (cblock 1: S is a multiple of 16, each 16-channel block holds all P
 * pixels, and for BF16 each block is its own byte-plane pair.) */
uint64_t sima_tiled_element_offset (const SimaTiledGeometry *g,
    const int64_t *coords);

/* Walking a tiled tensor together with a strided view of the same logical
 * shape: byte strides of the view along D,H,W,C (0 for absent axes) and along
 * each outer axis, in outer order. */
typedef struct {
  int64_t dim_stride[4];
  int n_outer;
  int64_t outer_extent[SIMA_MAX_RANK];
  int64_t outer_stride[SIMA_MAX_RANK];
} SimaTiledWalk;

void sima_tiled_walk_init (const SimaTiledGeometry *g,
    const SimaStridedView *view, SimaTiledWalk *out);

/* Visits the tiles of a nonempty tiled tensor in physical order (outer
 * slices, then C, D, H, W tiles). For each tile it yields the class, the
 * byte offset of the tile and the byte offset, in the strided view, of the
 * tile's first logical element.
 *
 *   SimaTileCursor cur;
 *   sima_tile_cursor_init (&cur, g, walk);
 *   while (sima_tile_cursor_next (&cur)) use (cur.cls, cur.tile_offset, ...);
 */
typedef struct {
  const SimaTiledGeometry *geometry;
  const SimaTiledWalk *walk;
  const SimaTileClass *cls;   /* class of the current tile */
  uint64_t tile_offset;       /* physical offset of the current tile */
  int64_t view_offset;        /* view offset of its first element */
  int64_t tile_index[4];      /* D,H,W,C tile index inside the slice */
  uint64_t outer;             /* outer slice, row-major over outer axes */
  /* private */
  int64_t outer_coord_[SIMA_MAX_RANK];
  int64_t outer_view_offset_;
  uint64_t next_offset_;
  int started_;
  int done_;
} SimaTileCursor;

void sima_tile_cursor_init (SimaTileCursor *cur, const SimaTiledGeometry *g,
    const SimaTiledWalk *walk);
int sima_tile_cursor_next (SimaTileCursor *cur);

/* Positions the cursor on a tile (outer < outer_count, tile indices in
 * range) as if next() had just returned it, so that workers start in the
 * middle without walking the tiles before. */
void sima_tile_cursor_seek (SimaTileCursor *cur, uint64_t outer,
    const int64_t tile_index[4]);

/* The tiles from the current one on along W, in its row, that share its
 * class: every W tile before the partial last one is full, so a run is the
 * full tiles left in the row, or the partial tile alone. Tile j of the run
 * (0 = the current one) is at tile_offset + j * tile_step and its first
 * element at view_offset + j * view_step: callers step through a run with
 * two additions per tile instead of a next() each. */
typedef struct {
  int64_t tiles;              /* at least 1 */
  uint64_t tile_step;         /* the class's span_bytes */
  int64_t view_step;          /* tile_shape[W] * walk->dim_stride[W] */
} SimaTileRun;

void sima_tile_cursor_row_run (const SimaTileCursor *cur, SimaTileRun *run);

/* Moves the cursor n - 1 tiles on along W (1 <= n <= the run's tiles), to
 * tile n - 1 of its run, exactly as n - 1 calls of next() would. */
void sima_tile_cursor_skip_run (SimaTileCursor *cur, int64_t n);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_LAYOUT_H */
