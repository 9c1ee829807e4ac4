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

/* A leaf: every pixel of every row of the call (rows of pixels *
 * stored_channels bytes follow each other in src), each value one lookup
 * in the TABLE_TYPE table at ctx, stored with STORE. */
#define SIMA_DEQUANT_C_LEAF(name, TABLE_TYPE, STORE)                          \
  void                                                                        \
  name (const void *ctx, const uint8_t *src, int64_t pixels,                  \
      int64_t channels, int64_t stored_channels, uint8_t *dst,                \
      int64_t pixel_stride, int64_t channel_stride, int64_t rows,             \
      int64_t row_stride)                                                     \
  {                                                                           \
    const TABLE_TYPE *table = ctx;                                            \
    int64_t r, px, c;                                                         \
    for (r = 0; r < rows; r++)                                                \
      for (px = 0; px < pixels; px++) {                                       \
        uint8_t *d = dst + r * row_stride + px * pixel_stride;                \
        for (c = 0; c < channels; c++)                                        \
          STORE (d + c * channel_stride, table[src[c]]);                      \
        src += stored_channels;                                               \
      }                                                                       \
  }

SIMA_DEQUANT_C_LEAF (sima_dequant_pixels_f32_c, uint32_t, sima_store_u32)
SIMA_DEQUANT_C_LEAF (sima_dequant_pixels_bf16_c, uint16_t, sima_store_u16)

/* Runtime dispatch, once per plan. The table leaves (AVX-512 VPERMI2B,
 * NEON TBL) read the plan's exact table in lanes, so they serve both
 * conventions; the AVX2 leaves compute the multiply stage in lanes, so a
 * plan whose stages are not those (lanes == 0, the divide convention)
 * gets the scalar table leaf when no table leaf is usable. Later ISAs win. */
#define SIMA_DEQUANT_TABLE_LEAF(prefix, other)                                \
  SIMA_IF_NEON (prefix##_neon, SIMA_IF_AVX512 (prefix##_avx512, other))

SimaA65UnpackFn
sima_dequant_pixels_select (int dtype, int lanes)
{
  switch (dtype) {
    case SIMA_DTYPE_FLOAT32:
      return SIMA_DEQUANT_TABLE_LEAF (sima_dequant_pixels_f32, lanes
          ? SIMA_IF_AVX2 (sima_dequant_pixels_f32_avx2,
              sima_dequant_pixels_f32_c) : sima_dequant_pixels_f32_c);
    case SIMA_DTYPE_BFLOAT16:
      return SIMA_DEQUANT_TABLE_LEAF (sima_dequant_pixels_bf16, lanes
          ? SIMA_IF_AVX2 (sima_dequant_pixels_bf16_avx2,
              sima_dequant_pixels_bf16_c) : sima_dequant_pixels_bf16_c);
    default:
      return NULL;
  }
}
