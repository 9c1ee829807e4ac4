/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "layout_gen.h"

#include <math.h>
#include <string.h>

void
gen_tiling (TestRng *rng, int rank, int c_axis, int64_t channels,
    SimaChannels mode, GenTiling *out)
{
  int free_axes[SIMA_MAX_RANK], n_free = 0, i, k;
  static const int64_t c_tiles[] = { 16, 32, 8, 3, 1, 64 };

  memset (out, 0, sizeof *out);
  out->rank = rank;
  for (i = 0; i < rank; i++) {
    /* mostly small extents, some singletons */
    out->shape[i] = test_rng_below (rng, 4) == 0 ? 1 : test_rng_range (rng, 2, 7);
    if (i != c_axis)
      free_axes[n_free++] = i;
  }
  out->shape[c_axis] = channels;
  /* shuffle the non-channel axes, then give some of them to D/H/W */
  for (i = n_free - 1; i > 0; i--) {
    int j = (int) test_rng_below (rng, (uint64_t) i + 1), t = free_axes[i];
    free_axes[i] = free_axes[j];
    free_axes[j] = t;
  }
  for (k = 0; k < 3; k++) {
    int take = n_free > 0 && test_rng_below (rng, 4) != 0;
    if (take) {
      int a = free_axes[--n_free];
      int64_t e = out->shape[a];
      out->tiled.axes[k] = (int8_t) a;
      switch (test_rng_below (rng, 4)) {
        case 0: out->tiled.tile_shape[k] = e; break;           /* exact */
        case 1: out->tiled.tile_shape[k] = e + test_rng_range (rng, 1, 3);
          break;                                               /* larger */
        default: out->tiled.tile_shape[k] = test_rng_range (rng, 1, e > 1 ? e : 1);
      }
    } else {
      out->tiled.axes[k] = -1;
      out->tiled.tile_shape[k] = 1;
    }
  }
  out->tiled.axes[3] = (int8_t) c_axis;
  out->tiled.tile_shape[3] = test_rng_below (rng, 3) == 0 ? channels
      : c_tiles[test_rng_below (rng, sizeof c_tiles / sizeof c_tiles[0])];
  out->tiled.channels = mode;
}

const char *
gen_view_kind_name (GenViewKind kind)
{
  static const char *names[] = { "contiguous", "pitched", "permuted",
    "channel-strided" };
  return names[kind];
}

SimaTensorSpec
gen_view (TestRng *rng, SimaDType dtype, int rank, const int64_t *shape,
    GenViewKind kind)
{
  SimaTensorSpec s;
  int order[SIMA_MAX_RANK], i;
  int64_t scalar = sima_dtype_size (dtype), stride;

  if (kind == GEN_VIEW_CONTIGUOUS)
    return test_spec_dense (dtype, rank, shape);
  /* physical order, innermost last */
  for (i = 0; i < rank; i++)
    order[i] = i;
  if (kind == GEN_VIEW_PERMUTED) {
    for (i = rank - 1; i > 0; i--) {
      int j = (int) test_rng_below (rng, (uint64_t) i + 1), t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  }
  s = test_spec_dense (dtype, rank, shape);
  s.layout = SIMA_LAYOUT_STRIDED;
  stride = scalar * (kind == GEN_VIEW_CHANNEL_STRIDE ? test_rng_range (rng, 2, 3)
      : 1);
  for (i = rank - 1; i >= 0; i--) {
    int a = order[i];
    s.strides_bytes[a] = stride;
    stride *= shape[a] > 0 ? shape[a] : 1;
    if (kind == GEN_VIEW_PITCHED && test_rng_below (rng, 2))
      stride += scalar * test_rng_range (rng, 1, 5);
    if (shape[a] == 1 && test_rng_below (rng, 2))
      s.strides_bytes[a] = 0;
  }
  return s;
}

void
gen_fill_values (TestRng *rng, SimaDType dtype, float multiplier,
    uint8_t *data, size_t bytes)
{
  size_t i;

  if (dtype == SIMA_DTYPE_FLOAT32) {
    for (i = 0; i + 4 <= bytes; i += 4) {
      uint32_t bits = (uint32_t) test_rng_next (rng);
      if (test_rng_below (rng, 8) != 0) {
        double u = (double) (test_rng_next (rng) >> 11) / 9007199254740992.0;
        float f = (float) ((u * 300.0 - 150.0) / (double) multiplier);
        if (isfinite (f))
          memcpy (&bits, &f, 4);
      }
      memcpy (data + i, &bits, 4);
    }
  } else {
    for (i = 0; i < bytes; i++)
      data[i] = (uint8_t) test_rng_next (rng);
  }
}
