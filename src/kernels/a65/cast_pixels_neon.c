/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NEON leaves for CastTess: the same bytes as cast_pixels_c.c.
 *
 * Integer arithmetic lane for lane as the scalar rule (bits + 0x7fff +
 * lsb, shifted; numerics/bf16_convert.h); FP16 widens exactly with FCVTL
 * (the executor clears FPCR's flush-to-zero and default-NaN bits, cpu.h)
 * and NaN halves take the spec's sign | 0x7fc0 | mantissa >> 3, the top
 * half of the widened NaN; BF16 is copied; UINT8 converts exactly with
 * UCVTF (values below 2^24) and keeps the top half, which holds all of
 * its at most 8 significant bits. RGB pad16 rows are spread from
 * registers (one lookup per half slot), channel runs of 8 or more go 8 at
 * a time, other rows use the scalar reference.
 */
#include "cast_pixels.h"
#include "simd_leaf.h"

#include <arm_neon.h>

#include "../numerics/bf16_convert.h"
#include "load.h"

/* 4 values -> 4 BF16 patterns in 32-bit lanes. */
SIMA_INLINE uint32x4_t
bf16x4 (const uint8_t *p, SrcType type)
{
  uint32x4_t bits, add;

  if (type == SRC_BF16)
    return vmovl_u16 (vreinterpret_u16_u8 (vld1_u8 (p)));
  if (type == SRC_U8)           /* exact in binary32 and in BF16 */
    return vshrq_n_u32 (vreinterpretq_u32_f32 (vcvtq_f32_u32 (vmovl_u16
                (vget_low_u16 (vmovl_u8 (vreinterpret_u8_u32 (vdup_n_u32
                                (sima_load_u32 (p)))))))), 16);
  if (type == SRC_F32)
    bits = vreinterpretq_u32_u8 (vld1q_u8 (p));
  else
    bits = vreinterpretq_u32_f32 (vcvt_f32_f16 (vreinterpret_f16_u8 (vld1_u8
                (p))));
  add = sima_bf16_addend4 (bits);
  if (type == SRC_F16) {
    /* FCVTL widens a NaN half to sign | 0x7f80 | quiet bit | mantissa <<
     * 13 (FPCR.DN is off, cpu.h), whose top half is the spec's sign |
     * 0x7fc0 | mantissa >> 3: truncate NaN lanes, do not round. */
    uint32x4_t nan = vcgtq_u32 (vandq_u32 (bits, vdupq_n_u32 (0x7fffffff)),
        vdupq_n_u32 (0x7f800000));
    add = vbicq_u32 (add, nan);
  }
  return vshrq_n_u32 (vaddq_u32 (bits, add), 16);
}

/* Low and high bytes of 16 values, in order. */
SIMA_INLINE void
bytes16 (const uint8_t *src, SrcType type, uint8x16_t *lo, uint8x16_t *hi)
{
  const int64_t esize = sima_src_size (type);
  uint16x8_t a = vcombine_u16 (vmovn_u32 (bf16x4 (src, type)),
      vmovn_u32 (bf16x4 (src + 4 * esize, type)));
  uint16x8_t b = vcombine_u16 (vmovn_u32 (bf16x4 (src + 8 * esize, type)),
      vmovn_u32 (bf16x4 (src + 12 * esize, type)));
  *lo = vcombine_u8 (vmovn_u16 (a), vmovn_u16 (b));
  *hi = vcombine_u8 (vshrn_n_u16 (a, 8), vshrn_n_u16 (b, 8));
}

/* 16 RGB pixels into 16 slots of 32 bytes (3 low bytes, 13 zeros, 3 high
 * bytes, 13 zeros), from registers: each half slot is one table lookup,
 * whose out-of-range indices write the zeros (TBL); pixels 5 and 10 cross
 * from one 16-byte vector to the next and look up in the pair. */
SIMA_INLINE void
rgb16_pad16 (const uint8_t *src, SrcType type, uint8_t *dst)
{
  const int64_t esize = sima_src_size (type);
  uint8x16_t la, lb, lc, ha, hb, hc;

  bytes16 (src, type, &la, &ha);
  bytes16 (src + 16 * esize, type, &lb, &hb);
  bytes16 (src + 32 * esize, type, &lc, &hc);
  {
    const uint8x16x2_t lab = { { la, lb } }, hab = { { ha, hb } };
    const uint8x16x2_t lbc = { { lb, lc } }, hbc = { { hb, hc } };
#define AT(p) vld1q_u8 (sima_rgb16_slot_index[p])
#define SLOT(p, lo, hi) vst1q_u8_x2 (dst + 32 * (p), (uint8x16x2_t) { {      \
          vqtbl1q_u8 ((lo), AT (p)), vqtbl1q_u8 ((hi), AT (p)) } })
#define SLOT2(p, lo, hi) vst1q_u8_x2 (dst + 32 * (p), (uint8x16x2_t) { {     \
          vqtbl2q_u8 ((lo), AT (p)), vqtbl2q_u8 ((hi), AT (p)) } })
    SLOT (0, la, ha);
    SLOT (1, la, ha);
    SLOT (2, la, ha);
    SLOT (3, la, ha);
    SLOT (4, la, ha);
    SLOT2 (5, lab, hab);        /* bytes 15-17 */
    SLOT (6, lb, hb);
    SLOT (7, lb, hb);
    SLOT (8, lb, hb);
    SLOT (9, lb, hb);
    SLOT2 (10, lbc, hbc);       /* bytes 30-32 */
    SLOT (11, lc, hc);
    SLOT (12, lc, hc);
    SLOT (13, lc, hc);
    SLOT (14, lc, hc);
    SLOT (15, lc, hc);
#undef SLOT
#undef SLOT2
#undef AT
  }
}

/* 8 values at s -> their 8 low bytes at lo, 8 high bytes at hi. */
SIMA_INLINE void
cast8 (const uint8_t *s, SrcType type, uint8_t *lo, uint8_t *hi)
{
  const int64_t esize = sima_src_size (type);
  uint16x8_t v = vcombine_u16 (vmovn_u32 (bf16x4 (s, type)),
      vmovn_u32 (bf16x4 (s + 4 * esize, type)));
  vst1_u8 (lo, vmovn_u16 (v));
  vst1_u8 (hi, vshrn_n_u16 (v, 8));
}

#include "cast_rows.h"

SIMA_CAST_LEAF (sima_cast_pixels_f32_neon, SRC_F32)
SIMA_CAST_LEAF (sima_cast_pixels_f16_neon, SRC_F16)
SIMA_CAST_LEAF (sima_cast_pixels_bf16_neon, SRC_BF16)
SIMA_CAST_LEAF (sima_cast_pixels_u8_neon, SRC_U8)
