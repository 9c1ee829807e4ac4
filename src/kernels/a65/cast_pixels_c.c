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
#include "source_value.h"

/* A leaf: every pixel of every row of the call (each pixel two planes of
 * stored_channels bytes, rows following each other in dst) from TYPE
 * values. Padding channels are zero. */
#define SIMA_CAST_C_LEAF(name, TYPE)                                       \
  void                                                                        \
  name (const void *ctx, const uint8_t *src, int64_t pixel_stride,            \
      int64_t channel_stride, int64_t pixels, int64_t channels,               \
      int64_t stored_channels, uint8_t *dst, int64_t rows,                    \
      int64_t row_stride)                                                     \
  {                                                                           \
    int64_t r, px, c;                                                         \
    (void) ctx;                                                               \
    for (r = 0; r < rows; r++)                                                \
      for (px = 0; px < pixels; px++) {                                       \
        const uint8_t *s = src + r * row_stride + px * pixel_stride;          \
        uint8_t *hi = dst + stored_channels;                                  \
        for (c = 0; c < channels; c++) {                                      \
          uint16_t v = sima_source_bf16 (s + c * channel_stride, TYPE);       \
          dst[c] = (uint8_t) v;                                               \
          hi[c] = (uint8_t) (v >> 8);                                         \
        }                                                                     \
        memset (dst + channels, 0, (size_t) (stored_channels - channels));    \
        memset (hi + channels, 0, (size_t) (stored_channels - channels));     \
        dst += 2 * stored_channels;                                           \
      }                                                                       \
  }

SIMA_CAST_C_LEAF (sima_cast_pixels_f32_c, SRC_F32)
SIMA_CAST_C_LEAF (sima_cast_pixels_f16_c, SRC_F16)
SIMA_CAST_C_LEAF (sima_cast_pixels_bf16_c, SRC_BF16)
SIMA_CAST_C_LEAF (sima_cast_pixels_u8_c, SRC_U8)

/* Runtime dispatch, once per plan: later ISAs win; a streaming output
 * takes the streaming variant where one is built. */
SimaA65PackFn
sima_cast_pixels_select (int dtype, int stream)
{
  switch (dtype) {
    case SIMA_DTYPE_FLOAT32:
      return SIMA_LEAF_FOR_OUTPUT (sima_cast_pixels_f32, stream);
    case SIMA_DTYPE_FLOAT16:
      return SIMA_LEAF_FOR_OUTPUT (sima_cast_pixels_f16, stream);
    case SIMA_DTYPE_BFLOAT16:
      return SIMA_LEAF_FOR_OUTPUT (sima_cast_pixels_bf16, stream);
    case SIMA_DTYPE_UINT8:
      return SIMA_LEAF_FOR_OUTPUT (sima_cast_pixels_u8, stream);
    default:
      return NULL;
  }
}
