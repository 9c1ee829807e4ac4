/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX2 (+F16C) leaves for CastTess: the same bytes as cast_pixels_c.c.
 *
 * Integer arithmetic only, lane for lane the scalar rule
 * (numerics/bf16_convert.h): FP32 -> BF16 is bits + 0x7fff + lsb, shifted,
 * NaN effects included; FP16 widens exactly with VCVTPH2PS and then takes
 * the same rule, except NaN, which the spec maps to sign | 0x7fc0 | the
 * high payload bits (computed from the half's bits and blended in); BF16
 * is copied. No floating-point state is read or changed (VCVTPH2PS on a
 * half is exact and ignores MXCSR's rounding and DAZ).
 *
 * Each pixel's slot holds the low bytes of its stored channels, then the
 * high bytes; padding is zero. Contiguous RGB pixels are spread from
 * registers (16 pixels per step), channel runs of 8 or more go 8 at a
 * time, other rows use the scalar reference.
 */
#include "cast_pixels.h"
#include "simd_leaf.h"

#include <immintrin.h>
#include <string.h>

#include "../numerics/bf16_convert.h"
#include "load.h"

/* 8 values -> 8 BF16 patterns in the low halves of 32-bit lanes. */
SIMA_INLINE __m256i
bf16x8 (const uint8_t *p, SrcType type)
{
  const __m256i round = _mm256_set1_epi32 (0x7fff);
  const __m256i one = _mm256_set1_epi32 (1);
  __m256i bits, r;

  if (type == SRC_BF16)
    return _mm256_cvtepu16_epi32 (_mm_loadu_si128 ((const __m128i *) (const
                void *) p));
  if (type == SRC_F32)
    bits = _mm256_loadu_si256 ((const __m256i *) (const void *) p);
  else
    bits = _mm256_castps_si256 (_mm256_cvtph_ps (_mm_loadu_si128 ((const
                    __m128i *) (const void *) p)));
  r = _mm256_srli_epi32 (_mm256_add_epi32 (_mm256_add_epi32 (bits, round),
          _mm256_and_si256 (_mm256_srli_epi32 (bits, 16), one)), 16);
  if (type == SRC_F16) {
    /* NaN halves: sign | 0x7fc0 | mantissa >> 3, not the widened rule */
    __m256i h = _mm256_cvtepu16_epi32 (_mm_loadu_si128 ((const __m128i *)
            (const void *) p));
    __m256i exp = _mm256_and_si256 (h, _mm256_set1_epi32 (0x7c00));
    __m256i man = _mm256_and_si256 (h, _mm256_set1_epi32 (0x3ff));
    __m256i nan = _mm256_andnot_si256 (_mm256_cmpeq_epi32 (man,
            _mm256_setzero_si256 ()), _mm256_cmpeq_epi32 (exp,
            _mm256_set1_epi32 (0x7c00)));
    __m256i q = _mm256_or_si256 (_mm256_or_si256 (_mm256_and_si256 (h,
                _mm256_set1_epi32 (0x8000)), _mm256_set1_epi32 (0x7fc0)),
        _mm256_srli_epi32 (man, 3));
    r = _mm256_blendv_epi8 (r, q, nan);
  }
  return r;
}

/* Low and high bytes of 16 BF16 lanes (two vectors), each in order. */
SIMA_INLINE void
bytes16 (__m256i a, __m256i b, __m128i *lo, __m128i *hi)
{
  const __m256i mask = _mm256_set1_epi32 (0xff);
  const __m256i order = _mm256_setr_epi32 (0, 4, 1, 5, 2, 6, 3, 7);
  __m256i l = _mm256_packus_epi32 (_mm256_and_si256 (a, mask),
      _mm256_and_si256 (b, mask));
  __m256i h = _mm256_packus_epi32 (_mm256_srli_epi32 (a, 8),
      _mm256_srli_epi32 (b, 8));
  *lo = _mm256_castsi256_si128 (_mm256_permutevar8x32_epi32
      (_mm256_packus_epi16 (l, l), order));
  *hi = _mm256_castsi256_si128 (_mm256_permutevar8x32_epi32
      (_mm256_packus_epi16 (h, h), order));
}

/* 16 RGB pixels into 16 slots of 32 bytes (3 low bytes, 13 zeros, 3 high
 * bytes, 13 zeros), from registers. */
SIMA_INLINE void
rgb16_pad16 (const uint8_t *src, SrcType type, uint8_t *dst)
{
  const int64_t esize = type == SRC_F32 ? 4 : 2;
  const __m128i keep = _mm_setr_epi8 (-1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0);
  __m128i la, lb, lc, ha, hb, hc;

  bytes16 (bf16x8 (src, type), bf16x8 (src + 8 * esize, type), &la, &ha);
  bytes16 (bf16x8 (src + 16 * esize, type), bf16x8 (src + 24 * esize, type),
      &lb, &hb);
  bytes16 (bf16x8 (src + 32 * esize, type), bf16x8 (src + 40 * esize, type),
      &lc, &hc);

#define SLOT(p, lo, hi) do {                                                  \
    _mm_storeu_si128 ((__m128i *) (void *) (dst + 32 * (p)),                   \
        _mm_and_si128 ((lo), keep));                                          \
    _mm_storeu_si128 ((__m128i *) (void *) (dst + 32 * (p) + 16),              \
        _mm_and_si128 ((hi), keep));                                          \
  } while (0)
  SLOT (0, la, ha);
  SLOT (1, _mm_srli_si128 (la, 3), _mm_srli_si128 (ha, 3));
  SLOT (2, _mm_srli_si128 (la, 6), _mm_srli_si128 (ha, 6));
  SLOT (3, _mm_srli_si128 (la, 9), _mm_srli_si128 (ha, 9));
  SLOT (4, _mm_srli_si128 (la, 12), _mm_srli_si128 (ha, 12));
  SLOT (5, _mm_alignr_epi8 (lb, la, 15), _mm_alignr_epi8 (hb, ha, 15));
  SLOT (6, _mm_srli_si128 (lb, 2), _mm_srli_si128 (hb, 2));
  SLOT (7, _mm_srli_si128 (lb, 5), _mm_srli_si128 (hb, 5));
  SLOT (8, _mm_srli_si128 (lb, 8), _mm_srli_si128 (hb, 8));
  SLOT (9, _mm_srli_si128 (lb, 11), _mm_srli_si128 (hb, 11));
  SLOT (10, _mm_alignr_epi8 (lc, lb, 14), _mm_alignr_epi8 (hc, hb, 14));
  SLOT (11, _mm_srli_si128 (lc, 1), _mm_srli_si128 (hc, 1));
  SLOT (12, _mm_srli_si128 (lc, 4), _mm_srli_si128 (hc, 4));
  SLOT (13, _mm_srli_si128 (lc, 7), _mm_srli_si128 (hc, 7));
  SLOT (14, _mm_srli_si128 (lc, 10), _mm_srli_si128 (hc, 10));
  SLOT (15, _mm_srli_si128 (lc, 13), _mm_srli_si128 (hc, 13));
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
        __m128i l, h;
        __m256i v = bf16x8 (s + c * esize, type);
        bytes16 (v, v, &l, &h);
        _mm_storel_epi64 ((__m128i *) (void *) (dst + c), l);
        _mm_storel_epi64 ((__m128i *) (void *) (hi + c), h);
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

SIMA_CAST_LEAF (sima_cast_pixels_f32_avx2, SRC_F32)
SIMA_CAST_LEAF (sima_cast_pixels_f16_avx2, SRC_F16)
SIMA_CAST_LEAF (sima_cast_pixels_bf16_avx2, SRC_BF16)
