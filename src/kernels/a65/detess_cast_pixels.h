/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * detess_cast_pixels.h - DetessCast unpack leaves of the A65 executor
 * (SimaA65UnpackFn, ctx unused). The source pixels are BF16 byte planes:
 * a pixel of S stored channels is 2*S bytes, the low bytes of its S
 * channels, then their high bytes (docs/layout.md); rows of `pixels` such
 * pixels follow each other. Channel c's BF16 bits are lo[c] | hi[c] << 8;
 * FP32 output is those bits << 16, BF16 output the bits. Integer moves
 * only: no FP instruction, no FP environment.
 */
#ifndef SIMA_KERNELS_A65_DETESS_CAST_PIXELS_H
#define SIMA_KERNELS_A65_DETESS_CAST_PIXELS_H

#include <simaai/kernels/a65/leaves.h>

#define SIMA_DETESS_CAST_LEAF_DECL(name)                                      \
  void name (const void *ctx, const uint8_t *src, int64_t pixels,             \
      int64_t channels, int64_t stored_channels, uint8_t *dst,                \
      int64_t pixel_stride, int64_t channel_stride, int64_t rows,             \
      int64_t row_stride)

/* detess_cast_pixels_c.c: the scalar reference. */
SIMA_DETESS_CAST_LEAF_DECL (sima_detess_cast_pixels_f32_c);
SIMA_DETESS_CAST_LEAF_DECL (sima_detess_cast_pixels_bf16_c);

/* detess_cast_pixels_avx2.c (x86-64; built with -mavx2): the same bytes. */
SIMA_DETESS_CAST_LEAF_DECL (sima_detess_cast_pixels_f32_avx2);
SIMA_DETESS_CAST_LEAF_DECL (sima_detess_cast_pixels_bf16_avx2);

/* detess_cast_pixels_neon.c (AArch64): the same bytes. */
SIMA_DETESS_CAST_LEAF_DECL (sima_detess_cast_pixels_f32_neon);
SIMA_DETESS_CAST_LEAF_DECL (sima_detess_cast_pixels_bf16_neon);

/* The leaf for an output dtype (float32 or bfloat16) on this CPU, later
 * ISAs winning; NULL for any other dtype. */
SimaA65UnpackFn sima_detess_cast_pixels_select (int dtype);

#endif /* SIMA_KERNELS_A65_DETESS_CAST_PIXELS_H */
