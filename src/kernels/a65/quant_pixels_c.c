/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Scalar reference leaves for QuantTess: exact integer arithmetic only (see
 * numerics/quant_exact.h), so they are correct in any FP environment and
 * serve as the tail and fallback of every SIMD variant.
 */
#include "quant_pixels.h"

#include <string.h>

#include "../cpu/cpu.h"
#include "../numerics/quant_exact.h"
#include "load.h"

/* The loop every leaf shares; DECODE turns a scalar address into an exact
 * value. Padding channels of each pixel receive zero_point. */
#define SIMA_QUANT_PIXELS_LOOP(DECODE)                                        \
  do {                                                                        \
    const SimaQuantNumerics *q = ctx;                                         \
    int64_t px, c;                                                            \
    for (px = 0; px < pixels; px++) {                                         \
      const uint8_t *s = src + px * pixel_stride;                             \
      for (c = 0; c < channels; c++)                                          \
        dst[c] = (uint8_t) sima_quant_exact (DECODE (s + c * channel_stride), \
            q);                                                               \
      memset (dst + channels, (uint8_t) q->zero_point,                        \
          (size_t) (stored_channels - channels));                             \
      dst += stored_channels;                                                 \
    }                                                                         \
  } while (0)

#define DECODE_F32(p) sima_decode_f32 (sima_load_u32 (p))
#define DECODE_F16(p) sima_decode_f16 (sima_load_u16 (p))
#define DECODE_BF16(p) sima_decode_bf16 (sima_load_u16 (p))

static void
quant_row_f32 (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst)
{
  SIMA_QUANT_PIXELS_LOOP (DECODE_F32);
}

static void
quant_row_f16 (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst)
{
  SIMA_QUANT_PIXELS_LOOP (DECODE_F16);
}

static void
quant_row_bf16 (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst)
{
  SIMA_QUANT_PIXELS_LOOP (DECODE_BF16);
}

/* The leaves: one row at a time. */
#define SIMA_ROWS(row_fn, out_bytes_per_pixel)                                \
  do {                                                                        \
    int64_t r;                                                                \
    for (r = 0; r < rows; r++)                                                \
      row_fn (ctx, src + r * row_stride, pixel_stride, channel_stride,        \
          pixels, channels, stored_channels, dst + r * pixels                 \
          * stored_channels * (out_bytes_per_pixel));                         \
  } while (0)

void
sima_quant_pixels_f32_c (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride)
{
  SIMA_ROWS (quant_row_f32, 1);
}

void
sima_quant_pixels_f16_c (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride)
{
  SIMA_ROWS (quant_row_f16, 1);
}

void
sima_quant_pixels_bf16_c (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride)
{
  SIMA_ROWS (quant_row_bf16, 1);
}

/* Runtime dispatch, once per plan: later ISAs win. */
SimaA65PackFn
sima_quant_pixels_select (int dtype)
{
  switch (dtype) {
    case SIMA_DTYPE_FLOAT32:
      return SIMA_LEAF_FOR_CPU (sima_quant_pixels_f32);
    case SIMA_DTYPE_FLOAT16:
      return SIMA_LEAF_FOR_CPU (sima_quant_pixels_f16);
    case SIMA_DTYPE_BFLOAT16:
      return SIMA_LEAF_FOR_CPU (sima_quant_pixels_bf16);
    default:
      return NULL;
  }
}
