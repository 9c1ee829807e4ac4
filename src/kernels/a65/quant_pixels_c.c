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
#include "source_value.h"

/* A leaf: every pixel of every row of the call (rows of pixels *
 * stored_channels bytes follow each other in dst) from TYPE values.
 * Padding channels receive zero_point. */
#define SIMA_QUANT_C_LEAF(name, TYPE)                                       \
  void                                                                        \
  name (const void *ctx, const uint8_t *src, int64_t pixel_stride,            \
      int64_t channel_stride, int64_t pixels, int64_t channels,               \
      int64_t stored_channels, uint8_t *dst, int64_t rows,                    \
      int64_t row_stride)                                                     \
  {                                                                           \
    const SimaQuantNumerics *q = ctx;                                         \
    int64_t r, px, c;                                                         \
    for (r = 0; r < rows; r++)                                                \
      for (px = 0; px < pixels; px++) {                                       \
        const uint8_t *s = src + r * row_stride + px * pixel_stride;          \
        for (c = 0; c < channels; c++)                                        \
          dst[c] = (uint8_t) sima_quant_exact (sima_source_exact (s + c       \
                  * channel_stride, TYPE), q);                                \
        memset (dst + channels, (uint8_t) q->zero_point,                      \
            (size_t) (stored_channels - channels));                           \
        dst += stored_channels;                                               \
      }                                                                       \
  }

SIMA_QUANT_C_LEAF (sima_quant_pixels_f32_c, SRC_F32)
SIMA_QUANT_C_LEAF (sima_quant_pixels_f16_c, SRC_F16)
SIMA_QUANT_C_LEAF (sima_quant_pixels_bf16_c, SRC_BF16)
SIMA_QUANT_C_LEAF (sima_quant_pixels_u8_c, SRC_U8)

/* Runtime dispatch, once per plan: later ISAs win; a streaming output
 * takes the streaming variant where one is built. */
SimaA65PackFn
sima_quant_pixels_select (int dtype, int stream)
{
  switch (dtype) {
    case SIMA_DTYPE_FLOAT32:
      return SIMA_LEAF_FOR_OUTPUT (sima_quant_pixels_f32, stream);
    case SIMA_DTYPE_FLOAT16:
      return SIMA_LEAF_FOR_OUTPUT (sima_quant_pixels_f16, stream);
    case SIMA_DTYPE_BFLOAT16:
      return SIMA_LEAF_FOR_OUTPUT (sima_quant_pixels_bf16, stream);
    case SIMA_DTYPE_UINT8:
      return SIMA_LEAF_FOR_OUTPUT (sima_quant_pixels_u8, stream);
    default:
      return NULL;
  }
}
