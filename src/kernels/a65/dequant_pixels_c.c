/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Scalar reference leaves for DetessDequant: every value is one lookup in
 * the table built at preparation (numerics/dequant_exact.h), stored at its
 * own address in the output view. Padding channels are skipped, never read.
 */
#include "dequant_pixels.h"

#include <simaai/kernels/types.h>

#include "../cpu/cpu.h"
#include "load.h"

#define SIMA_DEQUANT_PIXELS_LOOP(TABLE_TYPE, STORE)                           \
  do {                                                                        \
    const TABLE_TYPE *table = ctx;                                            \
    int64_t px, c;                                                            \
    for (px = 0; px < pixels; px++) {                                         \
      uint8_t *d = dst + px * pixel_stride;                                   \
      for (c = 0; c < channels; c++)                                          \
        STORE (d + c * channel_stride, table[src[c]]);                        \
      src += stored_channels;                                                 \
    }                                                                         \
  } while (0)

static void
dequant_row_f32 (const void *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored_channels, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride)
{
  SIMA_DEQUANT_PIXELS_LOOP (uint32_t, sima_store_u32);
}

static void
dequant_row_bf16 (const void *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored_channels, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride)
{
  SIMA_DEQUANT_PIXELS_LOOP (uint16_t, sima_store_u16);
}

/* The leaves: one row at a time. */
#define SIMA_ROWS(row_fn)                                                     \
  do {                                                                        \
    int64_t r;                                                                \
    for (r = 0; r < rows; r++)                                                \
      row_fn (ctx, src + r * pixels * stored_channels, pixels, channels,      \
          stored_channels, dst + r * row_stride, pixel_stride,                \
          channel_stride);                                                    \
  } while (0)

void
sima_dequant_pixels_f32_c (const void *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored_channels, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride, int64_t rows,
    int64_t row_stride)
{
  SIMA_ROWS (dequant_row_f32);
}

void
sima_dequant_pixels_bf16_c (const void *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored_channels, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride, int64_t rows,
    int64_t row_stride)
{
  SIMA_ROWS (dequant_row_bf16);
}

/* Runtime dispatch, once per plan: later ISAs win. */
SimaA65UnpackFn
sima_dequant_pixels_select (int dtype)
{
  switch (dtype) {
    case SIMA_DTYPE_FLOAT32:
      return SIMA_LEAF_FOR_CPU (sima_dequant_pixels_f32);
    case SIMA_DTYPE_BFLOAT16:
      return SIMA_LEAF_FOR_CPU (sima_dequant_pixels_bf16);
    default:
      return NULL;
  }
}
