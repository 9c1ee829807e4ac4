/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NEON leaves for CastTess: the same bytes as cast_pixels_c.c.
 *
 * Integer arithmetic lane for lane as the scalar rule (bits + 0x7fff +
 * lsb, shifted; numerics/bf16_convert.h); FP16 widens exactly with FCVTL
 * (the executor clears FPCR's flush-to-zero bits, cpu.h) and NaN halves
 * take the spec's sign | 0x7fc0 | mantissa >> 3; BF16 is copied. RGB pad16
 * rows are spread from registers, channel runs of 8 or more go 8 at a
 * time, other rows use the scalar reference.
 */
#include "cast_pixels.h"
#include "simd_leaf.h"

#include <arm_neon.h>
#include <string.h>

#include "../numerics/bf16_convert.h"
#include "load.h"

/* 4 values -> 4 BF16 patterns in 32-bit lanes. */
SIMA_INLINE uint32x4_t
bf16x4 (const uint8_t *p, SrcType type)
{
  uint16x4_t h = vdup_n_u16 (0);
  uint32x4_t bits, r;

  if (type == SRC_BF16)
    return vmovl_u16 (vreinterpret_u16_u8 (vld1_u8 (p)));
  if (type == SRC_F32) {
    bits = vreinterpretq_u32_u8 (vld1q_u8 (p));
  } else {
    h = vreinterpret_u16_u8 (vld1_u8 (p));
    bits = vreinterpretq_u32_f32 (vcvt_f32_f16 (vreinterpret_f16_u16 (h)));
  }
  r = vshrq_n_u32 (vaddq_u32 (vaddq_u32 (bits, vdupq_n_u32 (0x7fff)),
          vandq_u32 (vshrq_n_u32 (bits, 16), vdupq_n_u32 (1))), 16);
  if (type == SRC_F16) {
    uint32x4_t w = vmovl_u16 (h);
    uint32x4_t man = vandq_u32 (w, vdupq_n_u32 (0x3ff));
    uint32x4_t nan = vandq_u32 (vceqq_u32 (vandq_u32 (w, vdupq_n_u32
                (0x7c00)), vdupq_n_u32 (0x7c00)), vmvnq_u32 (vceqq_u32 (man,
                vdupq_n_u32 (0))));
    uint32x4_t q = vorrq_u32 (vorrq_u32 (vandq_u32 (w, vdupq_n_u32 (0x8000)),
            vdupq_n_u32 (0x7fc0)), vshrq_n_u32 (man, 3));
    r = vbslq_u32 (nan, q, r);
  }
  return r;
}

/* Low and high bytes of 16 values, in order. */
SIMA_INLINE void
bytes16 (const uint8_t *src, SrcType type, uint8x16_t *lo, uint8x16_t *hi)
{
  const int64_t esize = type == SRC_F32 ? 4 : 2;
  uint16x8_t a = vcombine_u16 (vmovn_u32 (bf16x4 (src, type)),
      vmovn_u32 (bf16x4 (src + 4 * esize, type)));
  uint16x8_t b = vcombine_u16 (vmovn_u32 (bf16x4 (src + 8 * esize, type)),
      vmovn_u32 (bf16x4 (src + 12 * esize, type)));
  *lo = vcombine_u8 (vmovn_u16 (a), vmovn_u16 (b));
  *hi = vcombine_u8 (vshrn_n_u16 (a, 8), vshrn_n_u16 (b, 8));
}

/* 16 RGB pixels into 16 slots of 32 bytes, from registers. */
SIMA_INLINE void
rgb16_pad16 (const uint8_t *src, SrcType type, uint8_t *dst)
{
  const int64_t esize = type == SRC_F32 ? 4 : 2;
  static const uint8_t first3[16] = { 0xff, 0xff, 0xff };
  const uint8x16_t keep = vld1q_u8 (first3), z = vdupq_n_u8 (0);
  uint8x16_t la, lb, lc, ha, hb, hc;

  bytes16 (src, type, &la, &ha);
  bytes16 (src + 16 * esize, type, &lb, &hb);
  bytes16 (src + 32 * esize, type, &lc, &hc);
#define SLOT(p, lo, hi) do {                                                  \
    vst1q_u8 (dst + 32 * (p), vandq_u8 ((lo), keep));                          \
    vst1q_u8 (dst + 32 * (p) + 16, vandq_u8 ((hi), keep));                     \
  } while (0)
  SLOT (0, la, ha);
  SLOT (1, vextq_u8 (la, z, 3), vextq_u8 (ha, z, 3));
  SLOT (2, vextq_u8 (la, z, 6), vextq_u8 (ha, z, 6));
  SLOT (3, vextq_u8 (la, z, 9), vextq_u8 (ha, z, 9));
  SLOT (4, vextq_u8 (la, z, 12), vextq_u8 (ha, z, 12));
  SLOT (5, vextq_u8 (la, lb, 15), vextq_u8 (ha, hb, 15));
  SLOT (6, vextq_u8 (lb, z, 2), vextq_u8 (hb, z, 2));
  SLOT (7, vextq_u8 (lb, z, 5), vextq_u8 (hb, z, 5));
  SLOT (8, vextq_u8 (lb, z, 8), vextq_u8 (hb, z, 8));
  SLOT (9, vextq_u8 (lb, z, 11), vextq_u8 (hb, z, 11));
  SLOT (10, vextq_u8 (lb, lc, 14), vextq_u8 (hb, hc, 14));
  SLOT (11, vextq_u8 (lc, z, 1), vextq_u8 (hc, z, 1));
  SLOT (12, vextq_u8 (lc, z, 4), vextq_u8 (hc, z, 4));
  SLOT (13, vextq_u8 (lc, z, 7), vextq_u8 (hc, z, 7));
  SLOT (14, vextq_u8 (lc, z, 10), vextq_u8 (hc, z, 10));
  SLOT (15, vextq_u8 (lc, z, 13), vextq_u8 (hc, z, 13));
#undef SLOT
}

SIMA_INLINE void
cast_pixels (const uint8_t *src, int64_t pixel_stride,
    int64_t channel_stride, int64_t pixels, int64_t channels, int64_t stored,
    uint8_t *dst, SrcType type)
{
  const int64_t esize = type == SRC_F32 ? 4 : 2;
  int64_t px, c;

  if (channel_stride == esize && pixel_stride == channels * esize
      && channels == 3 && stored == 16) {
    for (px = 0; px + 16 <= pixels; px += 16)
      rgb16_pad16 (src + px * pixel_stride, type, dst + px * 32);
    src += px * pixel_stride;
    dst += px * 32;
    pixels -= px;
  }
  if (channel_stride == esize && channels >= 8) {
    for (px = 0; px < pixels; px++) {
      const uint8_t *s = src + px * pixel_stride;
      uint8_t *hi = dst + stored;
      for (c = 0; c + 8 <= channels; c += 8) {
        uint16x8_t v = vcombine_u16 (vmovn_u32 (bf16x4 (s + c * esize, type)),
            vmovn_u32 (bf16x4 (s + (c + 4) * esize, type)));
        vst1_u8 (dst + c, vmovn_u16 (v));
        vst1_u8 (hi + c, vshrn_n_u16 (v, 8));
      }
      for (; c < channels; c++) {
        uint16_t v = sima_simd_cast1 (s + c * esize, type);
        dst[c] = (uint8_t) v;
        hi[c] = (uint8_t) (v >> 8);
      }
      if (stored > channels) {
        memset (dst + channels, 0, (size_t) (stored - channels));
        memset (hi + channels, 0, (size_t) (stored - channels));
      }
      dst += 2 * stored;
    }
    return;
  }
  if (pixels > 0)
    sima_cast_pixels_fallback (src, pixel_stride, channel_stride, pixels,
        channels, stored, dst, type);
}

/* A call's rows, one by one. */
SIMA_INLINE void
cast_rows (const uint8_t *src, int64_t pixel_stride, int64_t channel_stride,
    int64_t pixels, int64_t channels, int64_t stored, uint8_t *dst,
    int64_t rows, int64_t row_stride, SrcType type)
{
  int64_t r;

  for (r = 0; r < rows; r++)
    cast_pixels (src + r * row_stride, pixel_stride, channel_stride, pixels,
        channels, stored, dst + r * pixels * stored * 2, type);
}

SIMA_CAST_LEAF (sima_cast_pixels_f32_neon, SRC_F32)
SIMA_CAST_LEAF (sima_cast_pixels_f16_neon, SRC_F16)
SIMA_CAST_LEAF (sima_cast_pixels_bf16_neon, SRC_BF16)
