/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NEON (AArch64 Advanced SIMD) leaves for QuantTess: the same bytes as
 * quant_pixels_c.c, on the target CPU (Cortex-A65).
 *
 * The arithmetic argument is the one of quant_pixels_avx2.c: FMUL rounds
 * the binary32 product once to nearest even with subnormals kept (the
 * executor clears FPCR's rounding and flush-to-zero bits, cpu.h); FRINTN,
 * FRINTZ, FRINTP and FRINTM are the four integer roundings with the mode in
 * the instruction; clamping to +-SIMA_QUANT_SATURATED keeps infinities and
 * huge products exact through the saturating narrows; NaN inputs become
 * the zero point. FP16 widens exactly with FCVTL, BF16 by a 16-bit shift.
 *
 * The same two row shapes go wide as on x86 (contiguous RGB pixels into
 * 16-byte slots, from registers; channel runs with a pixel stride); every
 * other row and every tail uses the scalar reference.
 */
#include "quant_pixels.h"
#include "simd_leaf.h"

#include <arm_neon.h>
#include <string.h>

#include "../numerics/quant_exact.h"
#include "load.h"

SIMA_INLINE float32x4_t
load4 (const uint8_t *p, SrcType type)
{
  switch (type) {
    case SRC_F32:
      return vreinterpretq_f32_u8 (vld1q_u8 (p));
    case SRC_F16:
      return vcvt_f32_f16 (vreinterpret_f16_u8 (vld1_u8 (p)));
    default:
      return vreinterpretq_f32_u32 (vshll_n_u16 (vreinterpret_u16_u8 (vld1_u8
                  (p)), 16));
  }
}

/* 4 values -> 4 int32 (rounded, clamped, plus zero point); *ok is all ones
 * in the lanes that are not NaN. */
SIMA_INLINE int32x4_t
quant4 (float32x4_t x, float32x4_t mult, int32x4_t zp, int mode,
    uint32x4_t *ok)
{
  const float32x4_t limit = vdupq_n_f32 ((float) SIMA_QUANT_SATURATED);
  float32x4_t p = vmulq_f32 (x, mult), r;

  *ok = vceqq_f32 (x, x);
  switch (mode) {
    case SIMA_ROUNDING_TOWARD_ZERO:
      r = vrndq_f32 (p);
      break;
    case SIMA_ROUNDING_TOWARD_POSITIVE:
      r = vrndpq_f32 (p);
      break;
    case SIMA_ROUNDING_TOWARD_NEGATIVE:
      r = vrndmq_f32 (p);
      break;
    default:
      r = vrndnq_f32 (p);
      break;
  }
  /* NaN lanes are replaced later; FCVTZS turns them into 0 meanwhile */
  r = vminq_f32 (vmaxq_f32 (r, vnegq_f32 (limit)), limit);
  return vaddq_s32 (vcvtq_s32_f32 (r), zp);
}

/* 16 values -> 16 bytes in order. */
SIMA_INLINE int8x16_t
quant16 (const uint8_t *src, float32x4_t mult, int32x4_t zp, int8x16_t zp8,
    SrcType type, int mode)
{
  const int64_t esize = type == SRC_F32 ? 4 : 2;
  uint32x4_t ka, kb, kc, kd;
  int32x4_t a = quant4 (load4 (src, type), mult, zp, mode, &ka);
  int32x4_t b = quant4 (load4 (src + 4 * esize, type), mult, zp, mode, &kb);
  int32x4_t c = quant4 (load4 (src + 8 * esize, type), mult, zp, mode, &kc);
  int32x4_t d = quant4 (load4 (src + 12 * esize, type), mult, zp, mode,
      &kd);
  int8x16_t v = vcombine_s8 (vqmovn_s16 (vcombine_s16 (vqmovn_s32 (a),
              vqmovn_s32 (b))), vqmovn_s16 (vcombine_s16 (vqmovn_s32 (c),
              vqmovn_s32 (d))));
  uint8x16_t k = vcombine_u8 (vmovn_u16 (vcombine_u16 (vmovn_u32 (ka),
              vmovn_u32 (kb))), vmovn_u16 (vcombine_u16 (vmovn_u32 (kc),
              vmovn_u32 (kd))));
  return vbslq_s8 (k, v, zp8);
}

/* 16 RGB pixels (48 values) into 16 slots of 16 bytes, from registers:
 * slot p takes bytes 3p..3p+2 of the 48 (vextq_s8 (lo, hi, n) is the
 * 16-byte window starting n bytes into lo). */
SIMA_INLINE void
rgb16_pad16 (const uint8_t *src, float32x4_t mult, int32x4_t zp,
    int8x16_t zp8, SrcType type, int mode, uint8_t *dst)
{
  const int64_t esize = type == SRC_F32 ? 4 : 2;
  const int8x16_t a = quant16 (src, mult, zp, zp8, type, mode);
  const int8x16_t b = quant16 (src + 16 * esize, mult, zp, zp8, type, mode);
  const int8x16_t c = quant16 (src + 32 * esize, mult, zp, zp8, type, mode);
  const int8x16_t z = vdupq_n_s8 (0);
  static const uint8_t first3[16] = { 0xff, 0xff, 0xff };
  const uint8x16_t keep = vld1q_u8 (first3);

#define SLOT(p, w) vst1q_s8 ((int8_t *) (dst + 16 * (p)), \
    vbslq_s8 (keep, (w), zp8))
  SLOT (0, a);
  SLOT (1, vextq_s8 (a, z, 3));
  SLOT (2, vextq_s8 (a, z, 6));
  SLOT (3, vextq_s8 (a, z, 9));
  SLOT (4, vextq_s8 (a, z, 12));
  SLOT (5, vextq_s8 (a, b, 15));
  SLOT (6, vextq_s8 (b, z, 2));
  SLOT (7, vextq_s8 (b, z, 5));
  SLOT (8, vextq_s8 (b, z, 8));
  SLOT (9, vextq_s8 (b, z, 11));
  SLOT (10, vextq_s8 (b, c, 14));
  SLOT (11, vextq_s8 (c, z, 1));
  SLOT (12, vextq_s8 (c, z, 4));
  SLOT (13, vextq_s8 (c, z, 7));
  SLOT (14, vextq_s8 (c, z, 10));
  SLOT (15, vextq_s8 (c, z, 13));
#undef SLOT
}

/* Quantizes n contiguous values at src to n bytes. */
SIMA_INLINE void
quant_run (const SimaQuantNumerics *q, const uint8_t *src, int64_t n,
    uint8_t *dst, float32x4_t mult, int32x4_t zp, int8x16_t zp8,
    SrcType type, int mode)
{
  const int64_t esize = type == SRC_F32 ? 4 : 2;
  int64_t i = 0;

  for (; i + 16 <= n; i += 16)
    vst1q_s8 ((int8_t *) (dst + i), quant16 (src + i * esize, mult, zp, zp8,
            type, mode));
  for (; i < n; i++)
    dst[i] = (uint8_t) sima_quant_exact (sima_simd_decode1 (src + i * esize, type), q);
}

SIMA_INLINE void
quant_pixels (const void *ctx, const uint8_t *src, int64_t pixel_stride,
    int64_t channel_stride, int64_t pixels, int64_t channels,
    int64_t stored, uint8_t *dst, SrcType type, int mode)
{
  const SimaQuantNumerics *q = ctx;
  const int64_t esize = type == SRC_F32 ? 4 : 2;
  const float32x4_t mult = vreinterpretq_f32_u32 (vdupq_n_u32
      (q->multiplier_bits));
  const int32x4_t zp = vdupq_n_s32 (q->zero_point);
  const int8x16_t zp8 = vdupq_n_s8 ((int8_t) q->zero_point);
  int64_t px;

  if (channel_stride == esize && pixel_stride == channels * esize) {
    if (stored == channels) {
      quant_run (q, src, pixels * channels, dst, mult, zp, zp8, type, mode);
      return;
    }
    if (channels == 3 && stored == 16) {
      for (px = 0; px + 16 <= pixels; px += 16)
        rgb16_pad16 (src + px * pixel_stride, mult, zp, zp8, type, mode,
            dst + px * 16);
      src += px * pixel_stride;
      dst += px * 16;
      pixels -= px;
      if (pixels == 0)
        return;
    }
  } else if (channel_stride == esize && channels >= 16) {
    for (px = 0; px < pixels; px++) {
      quant_run (q, src + px * pixel_stride, channels, dst, mult, zp, zp8,
          type, mode);
      if (stored > channels)
        memset (dst + channels, (uint8_t) q->zero_point,
            (size_t) (stored - channels));
      dst += stored;
    }
    return;
  }
  sima_quant_pixels_fallback (ctx, src, pixel_stride, channel_stride,
      pixels, channels, stored, dst, type);
}

SIMA_QUANT_LEAF (sima_quant_pixels_f32_neon, SRC_F32)
SIMA_QUANT_LEAF (sima_quant_pixels_f16_neon, SRC_F16)
SIMA_QUANT_LEAF (sima_quant_pixels_bf16_neon, SRC_BF16)
