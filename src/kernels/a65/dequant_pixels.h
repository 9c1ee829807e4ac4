/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dequant_pixels.h - DetessDequant unpack leaves of the A65 executor
 * (SimaA65UnpackFn, ctx = the 256-entry result table of the plan).
 */
#ifndef SIMA_KERNELS_A65_DEQUANT_PIXELS_H
#define SIMA_KERNELS_A65_DEQUANT_PIXELS_H

#include <simaai/kernels/a65/detessdequant.h>
#include <simaai/kernels/a65/leaves.h>

void sima_dequant_pixels_f32_c (const void *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored_channels, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride, int64_t rows,
    int64_t row_stride);
void sima_dequant_pixels_bf16_c (const void *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored_channels, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride, int64_t rows,
    int64_t row_stride);

/* ctx is the plan's SimaA65DequantCtx; the scalar leaves read its table
 * (the first member). */

/* dequant_pixels_avx2.c (x86-64; needs AVX2): the same bytes. */
void sima_dequant_pixels_f32_avx2 (const void *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored_channels, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride, int64_t rows,
    int64_t row_stride);
void sima_dequant_pixels_bf16_avx2 (const void *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored_channels, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride, int64_t rows,
    int64_t row_stride);

/* dequant_pixels_avx512.c (x86-64; needs AVX-512 F/BW/VL/VBMI): the
 * same bytes, the table looked up in vectors (VPERMI2B on byte planes), so
 * exact for both conventions. */
void sima_dequant_pixels_f32_avx512 (const void *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored_channels, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride, int64_t rows,
    int64_t row_stride);
void sima_dequant_pixels_bf16_avx512 (const void *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored_channels, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride, int64_t rows,
    int64_t row_stride);

/* dequant_pixels_neon.c (AArch64): the same bytes, the table looked up in
 * vectors (TBL/TBX on byte planes), so exact for both conventions. */
void sima_dequant_pixels_f32_neon (const void *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored_channels, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride, int64_t rows,
    int64_t row_stride);
void sima_dequant_pixels_bf16_neon (const void *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored_channels, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride, int64_t rows,
    int64_t row_stride);

/* The leaf for an output dtype (float32 or bfloat16) on this CPU (NULL
 * for another dtype). The table SIMD leaves serve both conventions: NEON
 * always, AVX-512 for BF16 and the FP32 divide convention (lanes == 0);
 * the AVX2 leaves compute the multiply stage in lanes (lanes != 0; FP32
 * multiply keeps them on AVX-512 CPUs, they are faster there), and
 * without a table SIMD leaf the divide convention, which lanes do not
 * implement, gets the scalar table leaf. */
SimaA65UnpackFn sima_dequant_pixels_select (int dtype, int lanes);

#endif /* SIMA_KERNELS_A65_DEQUANT_PIXELS_H */
