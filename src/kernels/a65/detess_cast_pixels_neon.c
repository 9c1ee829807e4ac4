/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NEON leaves for DetessCast: the same bytes as detess_cast_pixels_c.c.
 *
 * Pure byte moves: ZIP1/ZIP2 of a pixel's low plane with its high plane
 * gives the BF16 bits in order (lo | hi << 8 per 16-bit lane); for FP32 a
 * further ZIP1/ZIP2 of zero with them puts each BF16 in the top half of a
 * 32-bit lane, which is bits << 16. No FP instruction, so FPCR neither
 * matters nor changes, and NaN payloads pass untouched. Row shapes:
 * detess_cast_rows.h.
 */
#include "detess_cast_pixels.h"
#include "simd_leaf.h"

#include <arm_neon.h>

#include "load.h"

/* 8 BF16 patterns (one vector) to 8 results at d. */
SIMA_INLINE void
store8 (uint8x16_t b, uint8_t *d, int f32)
{
  if (f32) {
    const uint16x8_t z = vdupq_n_u16 (0), v = vreinterpretq_u16_u8 (b);
    vst1q_u16_x2 ((uint16_t *) (void *) d, (uint16x8x2_t) { {
            vzip1q_u16 (z, v), vzip2q_u16 (z, v) } });
  } else {
    vst1q_u8 (d, b);
  }
}

SIMA_INLINE void
dc8 (const uint8_t *lo, const uint8_t *hi, uint8_t *d, int f32)
{
  uint8x8x2_t b = vzip_u8 (vld1_u8 (lo), vld1_u8 (hi));
  store8 (vcombine_u8 (b.val[0], b.val[1]), d, f32);
}

SIMA_INLINE void
dc16 (const uint8_t *lo, const uint8_t *hi, uint8_t *d, int f32)
{
  uint8x16_t l = vld1q_u8 (lo), h = vld1q_u8 (hi);
  store8 (vzip1q_u8 (l, h), d, f32);
  store8 (vzip2q_u8 (l, h), d + 8 * (f32 ? 4 : 2), f32);
}

/* The first 4 channels of a pad16 slot: 4 results (16 or 8 bytes); 8-byte
 * loads are enough. */
SIMA_INLINE void
dc_px4 (const uint8_t *slot, int64_t stored, uint8_t *d, int f32)
{
  uint8x8_t b = vzip1_u8 (vld1_u8 (slot), vld1_u8 (slot + stored));
  if (f32)
    vst1q_u16 ((uint16_t *) (void *) d, vzip1q_u16 (vdupq_n_u16 (0),
            vreinterpretq_u16_u8 (vcombine_u8 (b, b))));
  else
    vst1_u8 (d, b);
}

/* Two pixel slots, `step` bytes apart: NEON's 64-bit ZIP already works on
 * what one pixel needs, so this is two dc_px4 in order. */
SIMA_INLINE void
dc_px4x2 (const uint8_t *slot, int64_t stored, int64_t step, uint8_t *d,
    int64_t pixel_stride, int f32)
{
  dc_px4 (slot, stored, d, f32);
  dc_px4 (slot + step, stored, d + pixel_stride, f32);
}

#include "detess_cast_rows.h"

SIMA_DETESS_CAST_LEAF (sima_detess_cast_pixels_f32_neon, 1)
SIMA_DETESS_CAST_LEAF (sima_detess_cast_pixels_bf16_neon, 0)
