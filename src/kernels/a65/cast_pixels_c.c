/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Scalar reference leaves for CastTess: convert each channel to BF16 bits
 * (numerics/bf16_convert.h) and split them into the pixel's low-byte plane
 * and high-byte plane; padding channels are zero in both planes.
 */
#include "cast_pixels.h"

#include <string.h>

#include <simaai/kernels/types.h>

#include "../cpu/cpu.h"
#include "../numerics/bf16_convert.h"
#include "load.h"

#define SIMA_CAST_PIXELS_LOOP(CONVERT)                                        \
  do {                                                                        \
    int64_t px, c;                                                            \
    (void) ctx;                                                               \
    for (px = 0; px < pixels; px++) {                                         \
      const uint8_t *s = src + px * pixel_stride;                             \
      uint8_t *hi = dst + stored_channels;                                    \
      for (c = 0; c < channels; c++) {                                        \
        uint16_t v = CONVERT (s + c * channel_stride);                        \
        dst[c] = (uint8_t) v;                                                 \
        hi[c] = (uint8_t) (v >> 8);                                           \
      }                                                                       \
      memset (dst + channels, 0, (size_t) (stored_channels - channels));      \
      memset (hi + channels, 0, (size_t) (stored_channels - channels));       \
      dst += 2 * stored_channels;                                             \
    }                                                                         \
  } while (0)

#define CONVERT_F32(p) sima_bf16_from_f32_bits (sima_load_u32 (p))
#define CONVERT_F16(p) sima_bf16_from_f16_bits (sima_load_u16 (p))
#define CONVERT_BF16(p) sima_load_u16 (p)

static void
cast_row_f32 (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst)
{
  SIMA_CAST_PIXELS_LOOP (CONVERT_F32);
}

static void
cast_row_f16 (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst)
{
  SIMA_CAST_PIXELS_LOOP (CONVERT_F16);
}

static void
cast_row_bf16 (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst)
{
  SIMA_CAST_PIXELS_LOOP (CONVERT_BF16);
}

/* The leaves: one row at a time (each pixel: two planes of
 * stored_channels bytes). */
#define SIMA_ROWS(row_fn)                                                     \
  do {                                                                        \
    int64_t r;                                                                \
    for (r = 0; r < rows; r++)                                                \
      row_fn (ctx, src + r * row_stride, pixel_stride, channel_stride,        \
          pixels, channels, stored_channels, dst + r * pixels                 \
          * stored_channels * 2);                                             \
  } while (0)

void
sima_cast_pixels_f32_c (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride)
{
  SIMA_ROWS (cast_row_f32);
}

void
sima_cast_pixels_f16_c (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride)
{
  SIMA_ROWS (cast_row_f16);
}

void
sima_cast_pixels_bf16_c (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride)
{
  SIMA_ROWS (cast_row_bf16);
}

/* Runtime dispatch, once per plan: later ISAs win. */
SimaA65PackFn
sima_cast_pixels_select (int dtype)
{
  switch (dtype) {
    case SIMA_DTYPE_FLOAT32:
      return SIMA_LEAF_FOR_CPU (sima_cast_pixels_f32);
    case SIMA_DTYPE_FLOAT16:
      return SIMA_LEAF_FOR_CPU (sima_cast_pixels_f16);
    case SIMA_DTYPE_BFLOAT16:
      return SIMA_LEAF_FOR_CPU (sima_cast_pixels_bf16);
    default:
      return NULL;
  }
}
