/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * layout_gen.h - random geometries for the layout matrices of all three
 * operations: shapes of rank 1-6 with the channel axis at a chosen position,
 * D/H/W mappings (mapped, absent, mapped unit axes, unmapped outer axes),
 * tile extents that divide, leave partial tiles, or exceed the dimension,
 * and dense views that are contiguous, pitched, permuted, channel-strided
 * or have zero strides on singleton axes.
 */
#ifndef SIMA_TESTS_LAYOUT_GEN_H
#define SIMA_TESTS_LAYOUT_GEN_H

#include "test_util.h"

/* A logical shape with C = `channels` at axis `c_axis` and a tiling of it. */
typedef struct {
  int rank;
  int64_t shape[SIMA_MAX_RANK];
  SimaMlaTiled tiled;
} GenTiling;

void gen_tiling (TestRng *rng, int rank, int c_axis, int64_t channels,
    SimaChannels mode, GenTiling *out);

/* Kinds of dense views gen_view can make. */
typedef enum {
  GEN_VIEW_CONTIGUOUS,
  GEN_VIEW_PITCHED,        /* row-major order with gaps after some axes */
  GEN_VIEW_PERMUTED,       /* physical axis order shuffled (e.g. C first) */
  GEN_VIEW_CHANNEL_STRIDE, /* innermost axis with a step > 1 */
  GEN_VIEW_KIND_COUNT
} GenViewKind;

/* A spec of `dtype` over shape[rank] in the given kind of view. Singleton
 * axes get stride 0 half of the time in strided kinds. */
SimaTensorSpec gen_view (TestRng *rng, SimaDType dtype, int rank,
    const int64_t *shape, GenViewKind kind);

const char *gen_view_kind_name (GenViewKind kind);

/* Random scalar bits for dtype, biased towards values that quantize inside
 * the INT8 range for the given multiplier (but also NaN, inf, tiny...). */
void gen_fill_values (TestRng *rng, SimaDType dtype, float multiplier,
    uint8_t *data, size_t bytes);

#endif /* SIMA_TESTS_LAYOUT_GEN_H */
