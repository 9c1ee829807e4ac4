/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/types.h - tensor descriptions shared by every operation.
 *
 * The kernel core is plain C11 (libc + libm); nothing here depends on GLib or
 * GStreamer, so the core, the EV74 emulator, the firmware, the tests and the
 * fuzzers all build without them.
 */
#ifndef SIMAAI_KERNELS_TYPES_H
#define SIMAAI_KERNELS_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

/* Element types. FP16 (IEEE binary16) and BF16 are distinct: the same 16 bits
 * mean different numbers. Values are stable (they appear in descriptors).
 * UINT8 (8-bit camera pixels, the exact integers 0..255) is a QuantTess and
 * CastTess input. INT16 and INT32 can be described (so that such tensors
 * are rejected with a clear message) but no operation accepts them. */
typedef enum {
  SIMA_DTYPE_FLOAT32 = 0,
  SIMA_DTYPE_FLOAT16 = 1,
  SIMA_DTYPE_BFLOAT16 = 2,
  SIMA_DTYPE_INT8 = 3,
  SIMA_DTYPE_UINT8 = 4,
  SIMA_DTYPE_INT16 = 5,
  SIMA_DTYPE_INT32 = 6,
} SimaDType;

enum { SIMA_MAX_RANK = 6 };

/* Stored channels of an MlaTiled tile: the tile's actual channel count
 * (compact) or that count rounded up to a multiple of 16 (pad16). */
typedef enum {
  SIMA_CHANNELS_COMPACT = 0,
  SIMA_CHANNELS_PAD16 = 1,
} SimaChannels;

/* Index of each MLA dimension in SimaMlaTiled.axes / tile_shape. */
enum { SIMA_MLA_D = 0, SIMA_MLA_H = 1, SIMA_MLA_W = 2, SIMA_MLA_C = 3 };

/* The MLA tiled physical layout (docs/layout.md).
 * axes: logical axis index of D, H, W, C; -1 marks an absent spatial axis
 *       (C is mandatory). tile_shape: tile extents in the same order; an
 *       absent axis requires extent 1.
 * cblock: the order inside each tile (SiMa's `cblock` flag). 0 (the
 *       default, what zero-initialised specs get): pixel after pixel, each
 *       with all its stored channels. 1: the stored channels are split into
 *       blocks of 16 and each block holds all the tile's pixels before the
 *       next block starts; pad16 channels only. Tile sizes do not change,
 *       and with at most 16 stored channels both orders are the same bytes.
 *       Not the same thing as SIMA_LAYOUT_MLA_CBLOCKED (plane-level
 *       blocking). */
typedef struct {
  int8_t axes[4];
  int64_t tile_shape[4];
  SimaChannels channels;
  int cblock;                 /* 0 or 1 (1 only with SIMA_CHANNELS_PAD16) */
} SimaMlaTiled;

typedef enum {
  SIMA_LAYOUT_CONTIGUOUS = 0,  /* logical row-major, no gaps */
  SIMA_LAYOUT_STRIDED = 1,     /* explicit byte strides (strides_bytes) */
  SIMA_LAYOUT_MLA_TILED = 2,   /* tiled physical layout (tiled) */
  SIMA_LAYOUT_MLA_CBLOCKED = 3 /* 16-channel blocks, trailing H,W,C */
} SimaLayout;

typedef struct {
  int rank;                             /* 1..SIMA_MAX_RANK */
  int64_t shape[SIMA_MAX_RANK];         /* outermost first */
  SimaDType dtype;
  SimaLayout layout;
  int64_t strides_bytes[SIMA_MAX_RANK]; /* SIMA_LAYOUT_STRIDED only */
  SimaMlaTiled tiled;                   /* SIMA_LAYOUT_MLA_TILED only */
} SimaTensorSpec;

/* Caller-owned storage. capacity is the number of accessible bytes at data;
 * data may be NULL only for empty tensors. */
typedef struct {
  const void *data;
  uint64_t capacity;
} SimaConstHostBuffer;

typedef struct {
  void *data;
  uint64_t capacity;
} SimaHostBuffer;

/* Bytes of one scalar of dtype, or 0 for an unknown value. */
int sima_dtype_size (SimaDType dtype);

/* Stable lower-case names ("float32", "mla-tiled", ...), or "unknown". These
 * are also the caps field values of the GStreamer elements. */
const char *sima_dtype_name (SimaDType dtype);
const char *sima_layout_name (SimaLayout layout);
const char *sima_channels_name (SimaChannels channels);

/* The inverse of the names above: 1 and *out set when name is known. */
int sima_dtype_from_name (const char *name, SimaDType *out);
int sima_layout_from_name (const char *name, SimaLayout *out);
int sima_channels_from_name (const char *name, SimaChannels *out);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_TYPES_H */
