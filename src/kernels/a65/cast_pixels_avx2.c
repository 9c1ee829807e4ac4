/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX2 (+F16C) leaves for CastTess: the same bytes as cast_pixels_c.c.
 *
 * Integer arithmetic only, lane for lane the scalar rule
 * (numerics/bf16_convert.h): FP32 -> BF16 is bits + 0x7fff + lsb, shifted,
 * NaN effects included; FP16 widens exactly with VCVTPH2PS and then takes
 * the same rule, except NaN, which the spec maps to sign | 0x7fc0 | the
 * high payload bits: the top half of the widened NaN, truncated); BF16
 * is copied. UINT8 converts exactly with VCVTDQ2PS (an integer conversion
 * of values below 2^24, which no rounding mode or DAZ touches) and keeps
 * the top half: at most 8 significant bits, so the rule's rounding never
 * acts. VCVTPH2PS on a half is exact and ignores MXCSR's rounding and
 * DAZ; on a signalling NaN it raises Invalid, a sticky flag that
 * sima_fp_leave clears again with the rest of the executor's (cpu.h).
 *
 * Each pixel's slot holds the low bytes of its stored channels, then the
 * high bytes; padding is zero. Contiguous RGB pixels are spread from
 * registers (16 pixels per step, one store per slot), channel runs of 8
 * or more go 8 at a time, other rows use the scalar reference.
 */
#include "cast_pixels.h"
#include "simd_leaf.h"

#include <immintrin.h>

#include "../numerics/bf16_convert.h"
#include "load.h"

/* 8 values -> 8 BF16 patterns in the low halves of 32-bit lanes. */
SIMA_INLINE __m256i
bf16x8 (const uint8_t *p, SrcType type)
{
  __m256i bits, add;

  if (type == SRC_BF16)
    return _mm256_cvtepu16_epi32 (_mm_loadu_si128 ((const __m128i *) (const
                void *) p));
  if (type == SRC_U8)           /* exact in binary32 and in BF16: no rounding */
    return _mm256_srli_epi32 (_mm256_castps_si256 (_mm256_cvtepi32_ps
            (_mm256_cvtepu8_epi32 (_mm_loadl_epi64 ((const __m128i *) (const
                            void *) p)))), 16);
  if (type == SRC_F32)
    bits = _mm256_loadu_si256 ((const __m256i *) (const void *) p);
  else
    bits = _mm256_castps_si256 (_mm256_cvtph_ps (_mm_loadu_si128 ((const
                    __m128i *) (const void *) p)));
  add = sima_bf16_addend8 (bits);
  if (type == SRC_F16) {
    /* A NaN half widens to sign | 0x7f80 | quiet bit | mantissa << 13
     * (VCVTPH2PS quiets signalling NaNs), whose top half is the spec's
     * sign | 0x7fc0 | mantissa >> 3: truncate NaN lanes, do not round. */
    __m256i nan = _mm256_cmpgt_epi32 (_mm256_and_si256 (bits,
            _mm256_set1_epi32 (0x7fffffff)), _mm256_set1_epi32 (0x7f800000));
    add = _mm256_andnot_si256 (nan, add);
  }
  return _mm256_srli_epi32 (_mm256_add_epi32 (bits, add), 16);
}

/* 16 BF16 lanes (two vectors) -> their low bytes in order in the low
 * 128-bit lane, their high bytes in order in the high lane. */
SIMA_INLINE __m256i
bytes16 (__m256i a, __m256i b)
{
  const __m256i mask = _mm256_set1_epi32 (0xff);
  /* after the packs, dwords: lo a0-3, lo b0-3, hi a0-3, hi b0-3 | the same
   * for a4-7 and b4-7 */
  const __m256i order = _mm256_setr_epi32 (0, 4, 1, 5, 2, 6, 3, 7);
  __m256i l = _mm256_packus_epi32 (_mm256_and_si256 (a, mask),
      _mm256_and_si256 (b, mask));
  __m256i h = _mm256_packus_epi32 (_mm256_srli_epi32 (a, 8),
      _mm256_srli_epi32 (b, 8));
  return _mm256_permutevar8x32_epi32 (_mm256_packus_epi16 (l, h), order);
}

/* 16 RGB pixels into 16 slots of 32 bytes (3 low bytes, 13 zeros, 3 high
 * bytes, 13 zeros), one 32-byte store each, from registers: a slot is one
 * in-lane shuffle of a window holding its pixel's low bytes in the low
 * lane and high bytes in the high lane (-1 in the shuffle writes the
 * zeros). Pixel p is bytes 3p..3p+2 of the 48. */
SIMA_INLINE void
rgb16_pad16 (const uint8_t *src, SrcType type, uint8_t *dst)
{
  const int64_t esize = sima_src_size (type);
  const __m256i a = bytes16 (bf16x8 (src, type), bf16x8 (src + 8 * esize,
          type));
  const __m256i b = bytes16 (bf16x8 (src + 16 * esize, type),
      bf16x8 (src + 24 * esize, type));
  const __m256i c = bytes16 (bf16x8 (src + 32 * esize, type),
      bf16x8 (src + 40 * esize, type));
  /* windows at bytes 0, 12, 24 and 32 of each lane */
  const __m256i w12 = _mm256_alignr_epi8 (b, a, 12);
  const __m256i w24 = _mm256_alignr_epi8 (c, b, 8);
#define AT(o) _mm256_setr_epi8 (o, o + 1, o + 2, -1, -1, -1, -1, -1, -1, -1, \
      -1, -1, -1, -1, -1, -1, o, o + 1, o + 2, -1, -1, -1, -1, -1, -1, -1, \
      -1, -1, -1, -1, -1, -1)
#define SLOT(p, w, o) _mm256_storeu_si256 ((__m256i *) (void *) (dst \
        + 32 * (p)), _mm256_shuffle_epi8 ((w), AT (o)))
  SLOT (0, a, 0);
  SLOT (1, a, 3);
  SLOT (2, a, 6);
  SLOT (3, a, 9);
  SLOT (4, w12, 0);             /* bytes 12-14 */
  SLOT (5, w12, 3);
  SLOT (6, w12, 6);
  SLOT (7, w12, 9);
  SLOT (8, w24, 0);             /* bytes 24-26 */
  SLOT (9, w24, 3);
  SLOT (10, w24, 6);
  SLOT (11, c, 1);              /* bytes 33-35 */
  SLOT (12, c, 4);
  SLOT (13, c, 7);
  SLOT (14, c, 10);
  SLOT (15, c, 13);
#undef SLOT
#undef AT
}

/* 8 values at s -> their 8 low bytes at lo, 8 high bytes at hi. */
SIMA_INLINE void
cast8 (const uint8_t *s, SrcType type, uint8_t *lo, uint8_t *hi)
{
  __m256i v = bf16x8 (s, type);
  __m256i lh = bytes16 (v, v);
  _mm_storel_epi64 ((__m128i *) (void *) lo, _mm256_castsi256_si128 (lh));
  _mm_storel_epi64 ((__m128i *) (void *) hi, _mm256_extracti128_si256 (lh,
          1));
}

#include "cast_rows.h"

SIMA_CAST_LEAF (sima_cast_pixels_f32_avx2, SRC_F32)
SIMA_CAST_LEAF (sima_cast_pixels_f16_avx2, SRC_F16)
SIMA_CAST_LEAF (sima_cast_pixels_bf16_avx2, SRC_BF16)
SIMA_CAST_LEAF (sima_cast_pixels_u8_avx2, SRC_U8)
