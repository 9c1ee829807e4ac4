/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simd_leaf.h - what every per-ISA leaf file shares: the source types, the
 * forced inlining that makes them (and the rounding mode) constants in the
 * vector loops, the fall-back to the scalar reference for rows no fast
 * path covers, and the QuantTess entry points that turn the plan's
 * rounding mode into a constant. Included by *_avx2.c and *_neon.c only.
 */
#ifndef SIMA_KERNELS_A65_SIMD_LEAF_H
#define SIMA_KERNELS_A65_SIMD_LEAF_H

#include "quant_pixels.h"

typedef enum { SRC_F32, SRC_F16, SRC_BF16 } SrcType;

#define SIMA_INLINE static inline __attribute__ ((always_inline))

/* Rows the SIMD paths do not cover: the scalar reference, same bytes. */
SIMA_INLINE void
sima_quant_pixels_fallback (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored, uint8_t *dst, SrcType type)
{
  switch (type) {
    case SRC_F32:
      sima_quant_pixels_f32_c (ctx, src, pixel_stride, channel_stride, pixels,
          channels, stored, dst);
      break;
    case SRC_F16:
      sima_quant_pixels_f16_c (ctx, src, pixel_stride, channel_stride, pixels,
          channels, stored, dst);
      break;
    default:
      sima_quant_pixels_bf16_c (ctx, src, pixel_stride, channel_stride,
          pixels, channels, stored, dst);
      break;
  }
}

/* A QuantTess leaf `name` for source TYPE, over the including file's
 * quant_pixels (ctx, src, pixel_stride, channel_stride, pixels, channels,
 * stored, dst, type, mode): one instance per rounding mode. */
#define SIMA_QUANT_LEAF(name, TYPE)                                           \
  void                                                                        \
  name (const void *ctx, const uint8_t *src, int64_t pixel_stride,            \
      int64_t channel_stride, int64_t pixels, int64_t channels,               \
      int64_t stored_channels, uint8_t *dst)                                  \
  {                                                                           \
    switch (((const SimaQuantNumerics *) ctx)->rounding) {                    \
      case SIMA_ROUNDING_TOWARD_ZERO:                                         \
        quant_pixels (ctx, src, pixel_stride, channel_stride, pixels,         \
            channels, stored_channels, dst, TYPE, SIMA_ROUNDING_TOWARD_ZERO); \
        break;                                                                \
      case SIMA_ROUNDING_TOWARD_POSITIVE:                                     \
        quant_pixels (ctx, src, pixel_stride, channel_stride, pixels,         \
            channels, stored_channels, dst, TYPE,                             \
            SIMA_ROUNDING_TOWARD_POSITIVE);                                   \
        break;                                                                \
      case SIMA_ROUNDING_TOWARD_NEGATIVE:                                     \
        quant_pixels (ctx, src, pixel_stride, channel_stride, pixels,         \
            channels, stored_channels, dst, TYPE,                             \
            SIMA_ROUNDING_TOWARD_NEGATIVE);                                   \
        break;                                                                \
      default:                                                                \
        quant_pixels (ctx, src, pixel_stride, channel_stride, pixels,         \
            channels, stored_channels, dst, TYPE,                             \
            SIMA_ROUNDING_NEAREST_EVEN);                                      \
        break;                                                                \
    }                                                                         \
  }

#endif /* SIMA_KERNELS_A65_SIMD_LEAF_H */
