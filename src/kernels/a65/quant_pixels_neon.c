/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NEON (AArch64 Advanced SIMD) leaves for QuantTess: the same bytes as
 * quant_pixels_c.c, on the target CPU (Cortex-A65).
 *
 * The arithmetic argument is the one of quant_pixels_avx2.c: FMUL rounds
 * the binary32 product once to nearest even with subnormals kept (the
 * executor clears FPCR's rounding and flush-to-zero bits, cpu.h). The
 * conversions FCVTNS, FCVTZS, FCVTPS and FCVTMS are the four integer
 * roundings with the mode in the instruction; they saturate to int32 and
 * turn NaN into 0, so the saturating adds and narrows that follow give the
 * spec's saturated value and NaN inputs the zero point, with no clamp and
 * no mask. FP16 widens exactly with FCVTL, BF16 by a 16-bit shift, UINT8
 * by UXTL and UCVTF (exact: every integer 0..255 is a binary32 value).
 *
 * The row code is quant_rows.h, as on x86: RGB rows into pad16 slots, 16
 * pixels at a time from registers, and 16-channel runs with a pixel
 * stride, both recognised once per call; other contiguous pixels as one
 * run (spread into pad16 slots); channel runs of at least 8 with a pixel
 * stride, pixel by pixel. Every other row and every tail shorter than 8
 * uses the scalar reference.
 */
#include "quant_pixels.h"
#include "simd_leaf.h"

#include <arm_neon.h>

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
    case SRC_U8:                /* 4 bytes, exact integers in binary32 */
      return vcvtq_f32_u32 (vmovl_u16 (vget_low_u16 (vmovl_u8
                  (vreinterpret_u8_u32 (vdup_n_u32 (sima_load_u32 (p)))))));
    default:
      return vreinterpretq_f32_u32 (vshll_n_u16 (vreinterpret_u16_u8 (vld1_u8
                  (p)), 16));
  }
}

/* 4 values -> 4 int32: x * multiplier rounded by `mode` (a compile-time
 * constant in every caller), saturated to int32, NaN lanes 0. */
SIMA_INLINE int32x4_t
quant4 (float32x4_t x, float32x4_t mult, int mode)
{
  float32x4_t p = vmulq_f32 (x, mult);

  switch (mode) {
    case SIMA_ROUNDING_TOWARD_ZERO:
      return vcvtq_s32_f32 (p);
    case SIMA_ROUNDING_TOWARD_POSITIVE:
      return vcvtpq_s32_f32 (p);
    case SIMA_ROUNDING_TOWARD_NEGATIVE:
      return vcvtmq_s32_f32 (p);
    default:
      return vcvtnq_s32_f32 (p);
  }
}

/* 16 values -> 16 bytes in order. The zero point is added after the first
 * saturating narrow: with |zero point| <= 128, saturating to int16, adding
 * it and saturating to int8 gives the int8 saturation of value + zero
 * point, as the int32 saturation of the conversion does. */
SIMA_INLINE int8x16_t
quant16 (const uint8_t *src, float32x4_t mult, int16x8_t zp, SrcType type,
    int mode)
{
  const int64_t esize = sima_src_size (type);
  int32x4_t a, b, c, d;

  if (type == SRC_U8) {         /* one load, widened in registers */
    const uint8x16_t v = vld1q_u8 (src);
    const uint16x8_t lo = vmovl_u8 (vget_low_u8 (v));
    const uint16x8_t hi = vmovl_high_u8 (v);
    a = quant4 (vcvtq_f32_u32 (vmovl_u16 (vget_low_u16 (lo))), mult, mode);
    b = quant4 (vcvtq_f32_u32 (vmovl_high_u16 (lo)), mult, mode);
    c = quant4 (vcvtq_f32_u32 (vmovl_u16 (vget_low_u16 (hi))), mult, mode);
    d = quant4 (vcvtq_f32_u32 (vmovl_high_u16 (hi)), mult, mode);
  } else {
    a = quant4 (load4 (src, type), mult, mode);
    b = quant4 (load4 (src + 4 * esize, type), mult, mode);
    c = quant4 (load4 (src + 8 * esize, type), mult, mode);
    d = quant4 (load4 (src + 12 * esize, type), mult, mode);
  }
  int16x8_t ab = vqaddq_s16 (vqmovn_high_s32 (vqmovn_s32 (a), b), zp);
  int16x8_t cd = vqaddq_s16 (vqmovn_high_s32 (vqmovn_s32 (c), d), zp);
  return vqmovn_high_s16 (vqmovn_s16 (ab), cd);
}

/* The constants of a call: the multiplier, the zero point in int16 lanes
 * (quant16) and in bytes (the padding). */
typedef struct {
  float32x4_t mult;
  int16x8_t zp;
  int8x16_t zp8;
} QuantConst;

SIMA_INLINE QuantConst
quant_const (const SimaQuantNumerics *q)
{
  QuantConst k;
  k.mult = vreinterpretq_f32_u32 (vdupq_n_u32 (q->multiplier_bits));
  k.zp = vdupq_n_s16 ((int16_t) q->zero_point);
  k.zp8 = vdupq_n_s8 ((int8_t) q->zero_point);
  return k;
}

/* 16 RGB pixels (48 values) into 16 slots of 16 bytes, from registers:
 * slot p takes bytes 3p..3p+2 of the 48, each by one table lookup whose
 * out-of-range indices keep the zero point (TBX). Pixels 5 and 10 cross
 * from one 16-byte vector to the next and look up in the pair. */
SIMA_INLINE void
rgb16_pad16 (const uint8_t *src, const QuantConst *k, SrcType type, int mode,
    uint8_t *dst)
{
  const int64_t esize = sima_src_size (type);
  const int8x16_t a = quant16 (src, k->mult, k->zp, type, mode);
  const int8x16_t b = quant16 (src + 16 * esize, k->mult, k->zp, type, mode);
  const int8x16_t c = quant16 (src + 32 * esize, k->mult, k->zp, type, mode);
  const int8x16x2_t ab = { { a, b } }, bc = { { b, c } };

#define SLOT(p, v) vst1q_s8 ((int8_t *) (dst + 16 * (p)), \
    vqtbx1q_s8 (k->zp8, (v), vld1q_u8 (sima_rgb16_slot_index[p])))
#define SLOT2(p, v) vst1q_s8 ((int8_t *) (dst + 16 * (p)), \
    vqtbx2q_s8 (k->zp8, (v), vld1q_u8 (sima_rgb16_slot_index[p])))
  SLOT (0, a);
  SLOT (1, a);
  SLOT (2, a);
  SLOT (3, a);
  SLOT (4, a);
  SLOT2 (5, ab);                /* bytes 15-17 */
  SLOT (6, b);
  SLOT (7, b);
  SLOT (8, b);
  SLOT (9, b);
  SLOT2 (10, bc);               /* bytes 30-32 */
  SLOT (11, c);
  SLOT (12, c);
  SLOT (13, c);
  SLOT (14, c);
  SLOT (15, c);
#undef SLOT
#undef SLOT2
}

/* Two pixels of 16 channels (at s0 and s1) into 32 contiguous bytes. */
SIMA_INLINE void
pixel2x16 (const uint8_t *s0, const uint8_t *s1, const QuantConst *k,
    SrcType type, int mode, uint8_t *dst)
{
  vst1q_s8 ((int8_t *) dst, quant16 (s0, k->mult, k->zp, type, mode));
  vst1q_s8 ((int8_t *) (dst + 16), quant16 (s1, k->mult, k->zp, type, mode));
}

/* Quantizes n contiguous values at src to n bytes. */
SIMA_INLINE void
quant_run (const SimaQuantNumerics *q, const uint8_t *src, int64_t n,
    uint8_t *dst, const QuantConst *k, SrcType type, int mode)
{
  const int64_t esize = sima_src_size (type);
  int64_t i = 0;

  for (; i + 16 <= n; i += 16)
    vst1q_s8 ((int8_t *) (dst + i), quant16 (src + i * esize, k->mult, k->zp,
            type, mode));
  for (; i + 8 <= n; i += 8) {
    int32x4_t a = quant4 (load4 (src + i * esize, type), k->mult, mode);
    int32x4_t b = quant4 (load4 (src + (i + 4) * esize, type), k->mult, mode);
    vst1_s8 ((int8_t *) (dst + i), vqmovn_s16 (vqaddq_s16 (vqmovn_high_s32
                (vqmovn_s32 (a), b), k->zp)));
  }
  for (; i < n; i++)
    dst[i] = (uint8_t) sima_quant_exact (sima_source_exact (src + i * esize,
            type), q);
}

/* Spreads `pixels` pixels of `channels` bytes (in run, `step` >= channels
 * bytes apart) into slots of `stored` bytes, padding with the zero point;
 * stored % 16 == 0. The run has 16 bytes of slack after its values. */
SIMA_INLINE void
spread (const uint8_t *run, int64_t pixels, int64_t channels, int64_t step,
    int64_t stored, uint8_t zero_point, uint8_t *dst)
{
  static const uint8_t ramp[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
    12, 13, 14, 15
  };
  const uint8x16_t index = vld1q_u8 (ramp), zp = vdupq_n_u8 (zero_point);
  int64_t px, j;

  for (px = 0; px < pixels; px++) {
    const uint8_t *s = run + px * step;
    for (j = 0; j < stored; j += 16) {
      int64_t valid = channels - j;
      if (valid <= 0) {
        vst1q_u8 (dst + j, zp);
        continue;
      }
      /* lanes below `valid` take the values, the others the zero point */
      vst1q_u8 (dst + j, vbslq_u8 (vcltq_u8 (index, vdupq_n_u8 ((uint8_t)
                      (valid < 16 ? valid : 16))), vld1q_u8 (s + j), zp));
    }
    dst += stored;
  }
}

#include "quant_rows.h"

SIMA_QUANT_LEAF (sima_quant_pixels_f32_neon, SRC_F32)
SIMA_QUANT_LEAF (sima_quant_pixels_f16_neon, SRC_F16)
SIMA_QUANT_LEAF (sima_quant_pixels_bf16_neon, SRC_BF16)
SIMA_QUANT_LEAF (sima_quant_pixels_u8_neon, SRC_U8)
