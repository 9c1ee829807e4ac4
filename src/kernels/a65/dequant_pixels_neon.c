/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NEON leaves for DetessDequant: the same bytes as dequant_pixels_c.c.
 *
 * AArch64 has no gather, so these compute the spec's stages in lanes
 * instead of reading the table: SCVTF of an INT8 value is exact, FSUB by
 * the zero point already rounded to binary32 (at preparation, with exact
 * integer arithmetic) is the spec's RNE_f32(q - z), FMUL by the scale its
 * RNE_f32(d * scale), with the executor holding FPCR at round-to-nearest
 * and no flush-to-zero (cpu.h), so subnormal scales and results are exact;
 * BF16 then takes the integer rounding rule of numerics/bf16_convert.h.
 * test_simd_leaves compares every lane with the table the scalar leaf
 * reads.
 *
 * Contiguous pixels of 3-4 channels in slots of 4 or more bytes go one
 * vector per pixel (each store also covers the start of the next pixel,
 * rewritten right after; the row's last pixel is written element by
 * element), channel runs of 8 or more go 8 at a time (16-channel runs and
 * pad16 RGB rows recognised once per call, dequant_rows.h), other rows use
 * the scalar reference.
 */
#include "dequant_pixels.h"
#include "simd_leaf.h"

#include <arm_neon.h>

#include "load.h"

/* The stages' constants in every lane: the zero point rounded to binary32
 * at preparation, and the scale. */
typedef float32x4_t DeqVec;

SIMA_INLINE float32x4_t
deq_zero_point (const SimaA65DequantCtx *ctx)
{
  return vreinterpretq_f32_u32 (vdupq_n_u32 (ctx->zero_point_f32_bits));
}

SIMA_INLINE float32x4_t
deq_scale (const SimaA65DequantCtx *ctx)
{
  return vreinterpretq_f32_u32 (vdupq_n_u32 (ctx->scale_bits));
}

SIMA_INLINE float32x4_t
deq4 (int32x4_t q, float32x4_t z, float32x4_t scale)
{
  return vmulq_f32 (vsubq_f32 (vcvtq_f32_s32 (q), z), scale);
}

SIMA_INLINE uint16x4_t
bf16x4 (float32x4_t v)
{
  uint32x4_t bits = vreinterpretq_u32_f32 (v);
  return vmovn_u32 (vshrq_n_u32 (vaddq_u32 (bits, sima_bf16_addend4 (bits)),
          16));
}

/* 8 contiguous INT8 values -> 8 results (FP32 or BF16) at d. */
SIMA_INLINE void
deq8_to (const uint8_t *s, uint8_t *d, float32x4_t z, float32x4_t scale,
    int bf16)
{
  int16x8_t q = vmovl_s8 (vld1_s8 ((const int8_t *) s));
  float32x4_t a = deq4 (vmovl_s16 (vget_low_s16 (q)), z, scale);
  float32x4_t b = deq4 (vmovl_s16 (vget_high_s16 (q)), z, scale);

  if (bf16) {
    vst1q_u16 ((uint16_t *) (void *) d, vcombine_u16 (bf16x4 (a),
            bf16x4 (b)));
  } else {
    vst1q_f32 ((float *) (void *) d, a);
    vst1q_f32 ((float *) (void *) (d + 16), b);
  }
}

/* 16 contiguous INT8 values -> 16 contiguous results. */
SIMA_INLINE void
deq16 (const uint8_t *s, uint8_t *d, float32x4_t z, float32x4_t scale,
    int bf16)
{
  deq8_to (s, d, z, scale, bf16);
  deq8_to (s + 8, d + 8 * (bf16 ? 2 : 4), z, scale, bf16);
}

/* Contiguous output pixels of 3-4 channels from slots of 4 or more bytes,
 * one vector per pixel: each store also covers the start of the next
 * pixel, rewritten right after; the row's last pixel comes element by
 * element from the exact table. */
SIMA_INLINE void
deq_rgb_pixels (const SimaA65DequantCtx *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored, uint8_t *dst,
    int64_t pixel_stride, float32x4_t z, float32x4_t scale, int bf16)
{
  const int64_t esize = bf16 ? 2 : 4;
  int64_t px, c;

  for (px = 0; px + 1 < pixels; px++) {
    int8x8_t q8 = vreinterpret_s8_u32 (vdup_n_u32 (sima_load_u32 (src
                + px * stored)));
    float32x4_t v = deq4 (vmovl_s16 (vget_low_s16 (vmovl_s8 (q8))), z,
        scale);
    if (bf16)
      vst1_u16 ((uint16_t *) (void *) (dst + px * pixel_stride), bf16x4 (v));
    else
      vst1q_f32 ((float *) (void *) (dst + px * pixel_stride), v);
  }
  for (c = 0; c < channels; c++)
    sima_dequant_store1 (dst + px * pixel_stride + c * esize, ctx,
        src[px * stored + c], bf16);
}

/* Pad16 slots take the same path: 4-byte loads need no whole slot. */
SIMA_INLINE void
deq_rgb_slots (const SimaA65DequantCtx *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored, uint8_t *dst,
    int64_t pixel_stride, float32x4_t z, float32x4_t scale, int bf16)
{
  deq_rgb_pixels (ctx, src, pixels, channels, stored, dst, pixel_stride, z,
      scale, bf16);
}

#include "dequant_rows.h"

SIMA_DEQUANT_LEAF (sima_dequant_pixels_f32_neon, 0)
SIMA_DEQUANT_LEAF (sima_dequant_pixels_bf16_neon, 1)
