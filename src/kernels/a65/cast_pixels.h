/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cast_pixels.h - CastTess pack leaves of the A65 executor (SimaA65PackFn,
 * ctx unused): one per input dtype, scalar reference in cast_pixels_c.c.
 */
#ifndef SIMA_KERNELS_A65_CAST_PIXELS_H
#define SIMA_KERNELS_A65_CAST_PIXELS_H

#include <simaai/kernels/a65/leaves.h>

void sima_cast_pixels_f32_c (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);
void sima_cast_pixels_f16_c (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);
void sima_cast_pixels_bf16_c (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);
void sima_cast_pixels_u8_c (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);

/* cast_pixels_avx2.c (x86-64; needs AVX2 and F16C): the same bytes. */
void sima_cast_pixels_f32_avx2 (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);
void sima_cast_pixels_f16_avx2 (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);
void sima_cast_pixels_bf16_avx2 (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);
void sima_cast_pixels_u8_avx2 (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);

/* cast_pixels_avx512.c (x86-64; needs AVX-512 F, BW, VL and VBMI, with
 * AVX2 and F16C): the same bytes. */
void sima_cast_pixels_f32_avx512 (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);
void sima_cast_pixels_f16_avx512 (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);
void sima_cast_pixels_bf16_avx512 (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);
void sima_cast_pixels_u8_avx512 (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);

/* cast_pixels_neon.c (AArch64): the same bytes. */
void sima_cast_pixels_f32_neon (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);
void sima_cast_pixels_f16_neon (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);
void sima_cast_pixels_bf16_neon (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);
void sima_cast_pixels_u8_neon (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);

/* The same file built again with -DSIMA_LEAF_STREAM (simd_leaf.h): the
 * same bytes, whole aligned vectors written with non-temporal stores. */
void sima_cast_pixels_f32_avx512_stream (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);
void sima_cast_pixels_f16_avx512_stream (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);
void sima_cast_pixels_bf16_avx512_stream (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);
void sima_cast_pixels_u8_avx512_stream (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);

/* The leaf for an input dtype on this CPU (sima_cpu_isas), later ISAs
 * winning, its streaming variant with `stream` where one is built; NULL
 * for a dtype CastTess does not read. */
SimaA65PackFn sima_cast_pixels_select (int dtype, int stream);

#endif /* SIMA_KERNELS_A65_CAST_PIXELS_H */
