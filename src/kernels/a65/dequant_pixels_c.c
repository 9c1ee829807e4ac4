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

/* Runtime dispatch, once per plan. The table SIMD leaves read the same
 * exact table as the scalar ones, so they serve both conventions: NEON
 * always, AVX-512 for BF16 and for the FP32 divide convention. The FP32
 * multiply stage is cheaper in AVX2 lanes than the AVX-512 lookup (four
 * planes, 17 shuffles per 64 values, against one widening per 8 values and
 * no rounding to do; sima-kernels-bench, medians of three alternating runs
 * on an AVX-512 VBMI Xeon at 2.6 GHz: 47 vs 56 us at RGB 224, 25 vs 32 us
 * for compact C64), so it keeps them. A multiply in lanes cannot reproduce the division: on
 * AVX2-only CPUs the divide convention gets the scalar table. */
SimaA65UnpackFn
sima_dequant_pixels_select (int dtype, int lanes)
{
  const int bf16 = dtype == SIMA_DTYPE_BFLOAT16;
  SimaA65UnpackFn c, table, lanes_leaf;

  if (dtype != SIMA_DTYPE_FLOAT32 && !bf16)
    return NULL;
  c = bf16 ? sima_dequant_pixels_bf16_c : sima_dequant_pixels_f32_c;
  lanes_leaf = SIMA_IF_AVX2 (bf16 ? sima_dequant_pixels_bf16_avx2
      : sima_dequant_pixels_f32_avx2, c);
  table = SIMA_IF_NEON (bf16 ? sima_dequant_pixels_bf16_neon
      : sima_dequant_pixels_f32_neon, SIMA_IF_AVX512 (bf16 || !lanes
          ? (bf16 ? sima_dequant_pixels_bf16_avx512
              : sima_dequant_pixels_f32_avx512) : lanes_leaf,
          (SimaA65UnpackFn) NULL));
  if (table != NULL)
    return table;
  return lanes ? lanes_leaf : c;
}
