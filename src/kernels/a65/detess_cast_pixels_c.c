/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Scalar reference leaves for DetessCast: each value channel's two bytes
 * taken from the pixel's low and high planes and stored at its own address
 * in the output view. Padding channels are never read; holes of the view
 * never written.
 */
#include "detess_cast_pixels.h"

#include <simaai/kernels/types.h>

#include "../cpu/cpu.h"
#include "load.h"

/* One leaf per output dtype: F32 says whether the bits go to the top half
 * of a binary32 (exact: every BF16 value, NaN payload included, is the
 * binary32 with the same top 16 bits and a zero low half). */
#define SIMA_DETESS_CAST_C_LEAF(name, F32)                                    \
  void                                                                        \
  name (const void *ctx, const uint8_t *src, int64_t pixels,                  \
      int64_t channels, int64_t stored_channels, uint8_t *dst,                \
      int64_t pixel_stride, int64_t channel_stride, int64_t rows,             \
      int64_t row_stride)                                                     \
  {                                                                           \
    int64_t r, px, c;                                                         \
    (void) ctx;                                                               \
    for (r = 0; r < rows; r++)                                                \
      for (px = 0; px < pixels; px++) {                                       \
        const uint8_t *hi = src + stored_channels;                            \
        uint8_t *d = dst + r * row_stride + px * pixel_stride;                \
        for (c = 0; c < channels; c++) {                                      \
          uint16_t v = (uint16_t) (src[c] | hi[c] << 8);                      \
          if (F32)                                                            \
            sima_store_u32 (d + c * channel_stride, (uint32_t) v << 16);      \
          else                                                                \
            sima_store_u16 (d + c * channel_stride, v);                       \
        }                                                                     \
        src += 2 * stored_channels;                                           \
      }                                                                       \
  }

SIMA_DETESS_CAST_C_LEAF (sima_detess_cast_pixels_f32_c, 1)
SIMA_DETESS_CAST_C_LEAF (sima_detess_cast_pixels_bf16_c, 0)

/* Runtime dispatch, once per plan: later ISAs win. No AVX-512 variant: a
 * DetessCast pixel is two byte loads and one interleave per output vector,
 * which the AVX2 leaf already does at memory speed (docs/performance.md). */
#define SIMA_DETESS_CAST_FOR_CPU(prefix)                                      \
  SIMA_IF_NEON (prefix##_neon, SIMA_IF_AVX2 (prefix##_avx2, prefix##_c))

SimaA65UnpackFn
sima_detess_cast_pixels_select (int dtype)
{
  switch (dtype) {
    case SIMA_DTYPE_FLOAT32:
      return SIMA_DETESS_CAST_FOR_CPU (sima_detess_cast_pixels_f32);
    case SIMA_DTYPE_BFLOAT16:
      return SIMA_DETESS_CAST_FOR_CPU (sima_detess_cast_pixels_bf16);
    default:
      return NULL;
  }
}
