/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX2 leaves for DetessCast: the same bytes as detess_cast_pixels_c.c.
 *
 * Pure byte moves: PUNPCKLBW/PUNPCKHBW of a pixel's low plane with its
 * high plane gives the BF16 bits in order (lo | hi << 8 per 16-bit lane);
 * for FP32 a further PUNPCKLWD/PUNPCKHWD with zero puts each BF16 in the
 * top half of a 32-bit lane, which is bits << 16. No FP instruction, so
 * MXCSR neither matters nor changes, and NaN payloads pass untouched.
 * Row shapes: detess_cast_rows.h.
 */
#include "detess_cast_pixels.h"
#include "simd_leaf.h"

#include <immintrin.h>

#include "load.h"

/* 8 BF16 patterns (one vector) to 8 results at d. */
SIMA_INLINE void
store8 (__m128i b, uint8_t *d, int f32)
{
  if (f32) {
    const __m128i z = _mm_setzero_si128 ();
    _mm256_storeu_si256 ((__m256i *) (void *) d, _mm256_set_m128i
        (_mm_unpackhi_epi16 (z, b), _mm_unpacklo_epi16 (z, b)));
  } else {
    _mm_storeu_si128 ((__m128i *) (void *) d, b);
  }
}

SIMA_INLINE void
dc8 (const uint8_t *lo, const uint8_t *hi, uint8_t *d, int f32)
{
  store8 (_mm_unpacklo_epi8 (_mm_loadl_epi64 ((const __m128i *) (const void
                  *) lo), _mm_loadl_epi64 ((const __m128i *) (const void *)
              hi)), d, f32);
}

SIMA_INLINE void
dc16 (const uint8_t *lo, const uint8_t *hi, uint8_t *d, int f32)
{
  __m128i l = _mm_loadu_si128 ((const __m128i *) (const void *) lo);
  __m128i h = _mm_loadu_si128 ((const __m128i *) (const void *) hi);
  store8 (_mm_unpacklo_epi8 (l, h), d, f32);
  store8 (_mm_unpackhi_epi8 (l, h), d + 8 * (f32 ? 4 : 2), f32);
}

/* The first 4 channels of a pad16 slot: 4 results (16 or 8 bytes). */
SIMA_INLINE void
dc_px4 (const uint8_t *slot, int64_t stored, uint8_t *d, int f32)
{
  __m128i b = _mm_unpacklo_epi8 (_mm_loadu_si128 ((const __m128i *) (const
              void *) slot), _mm_loadu_si128 ((const __m128i *) (const void *)
          (slot + stored)));
  if (f32)
    _mm_storeu_si128 ((__m128i *) (void *) d, _mm_unpacklo_epi16
        (_mm_setzero_si128 (), b));
  else
    _mm_storel_epi64 ((__m128i *) (void *) d, b);
}

/* Two pixel slots, `step` bytes apart, to 4 results each at d and d +
 * pixel_stride: one 256-bit vector holds both pixels' low planes (the
 * second inserted from memory, no shuffle port), another their high
 * planes, so each in-lane unpack works for two pixels. The first pixel is
 * stored before the second, which rewrites what the first spilled. */
SIMA_INLINE void
dc_px4x2 (const uint8_t *slot, int64_t stored, int64_t step, uint8_t *d,
    int64_t pixel_stride, int f32)
{
  __m256i l = _mm256_loadu2_m128i ((const __m128i *) (const void *) (slot
          + step), (const __m128i *) (const void *) slot);
  __m256i h = _mm256_loadu2_m128i ((const __m128i *) (const void *) (slot
          + step + stored), (const __m128i *) (const void *) (slot + stored));
  __m256i b = _mm256_unpacklo_epi8 (l, h);

  if (f32) {
    b = _mm256_unpacklo_epi16 (_mm256_setzero_si256 (), b);
    _mm_storeu_si128 ((__m128i *) (void *) d, _mm256_castsi256_si128 (b));
    _mm_storeu_si128 ((__m128i *) (void *) (d + pixel_stride),
        _mm256_extracti128_si256 (b, 1));
  } else {
    _mm_storel_epi64 ((__m128i *) (void *) d, _mm256_castsi256_si128 (b));
    _mm_storel_epi64 ((__m128i *) (void *) (d + pixel_stride),
        _mm256_extracti128_si256 (b, 1));
  }
}

#include "detess_cast_rows.h"

SIMA_DETESS_CAST_LEAF (sima_detess_cast_pixels_f32_avx2, 1)
SIMA_DETESS_CAST_LEAF (sima_detess_cast_pixels_bf16_avx2, 0)
