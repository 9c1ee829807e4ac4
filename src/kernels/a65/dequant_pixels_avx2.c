/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX2 leaves for DetessDequant: the same bytes as dequant_pixels_c.c.
 *
 * The spec's stages in lanes, as in dequant_pixels_neon.c: VCVTDQ2PS of an
 * INT8 value is exact, VSUBPS by the zero point already rounded to binary32
 * (at preparation, with exact integer arithmetic) is RNE_f32(q - z), VMULPS
 * by the scale is RNE_f32(d * scale), with the executor holding MXCSR at
 * round-to-nearest without FTZ/DAZ (cpu.h), so subnormal scales and
 * results are exact; BF16 then takes the integer rounding rule of
 * numerics/bf16_convert.h. (A VPGATHERDD of the exact table was the first
 * version: only 1.2-2.3x the scalar loop on our CPU.) test_simd_leaves
 * compares every lane with the table the scalar leaf reads.
 *
 * Shapes recognised once per call (dequant_rows.h): contiguous pixels of 3-4
 * channels from pad16 slots, two per vector (16-byte loads inside each
 * slot; padding values never reach the output), FP32 two pixels and BF16
 * four per 32-byte store, the row's last pixel from the vector but only its
 * own values; 16-channel runs without an inner loop. Row by row
 * (dequant_pixels): contiguous pixels of 3-4 channels from smaller slots
 * one per vector (a store covering the start of the next pixel, rewritten
 * right after; the last pixel element by element), channel runs of 8 or
 * more 16 then 8 at a time; other rows use the scalar reference.
 */
#include "dequant_pixels.h"
#include "simd_leaf.h"

#include <immintrin.h>

#include "load.h"

SIMA_INLINE __m128i
bf16_bits4 (__m128 v)
{
  __m128i bits = _mm_castps_si128 (v);
  return _mm_srli_epi32 (_mm_add_epi32 (bits, sima_bf16_addend4 (bits)), 16);
}

SIMA_INLINE __m256i
bf16_bits8 (__m256 v)
{
  __m256i bits = _mm256_castps_si256 (v);
  return _mm256_srli_epi32 (_mm256_add_epi32 (bits, sima_bf16_addend8 (bits)),
      16);
}

/* The stages' constants in every lane: the zero point rounded to binary32
 * at preparation, and the scale. */
typedef __m256 DeqVec;

SIMA_INLINE __m256
deq_zero_point (const SimaA65DequantCtx *ctx)
{
  return _mm256_castsi256_ps (_mm256_set1_epi32 ((int)
          ctx->zero_point_f32_bits));
}

SIMA_INLINE __m256
deq_scale (const SimaA65DequantCtx *ctx)
{
  return _mm256_castsi256_ps (_mm256_set1_epi32 ((int) ctx->scale_bits));
}

/* 4 INT8 values at q (a 4-byte load) -> 4 results. */
SIMA_INLINE __m128
deq4 (const uint8_t *q, __m256 z, __m256 scale)
{
  __m128i v = _mm_cvtepi8_epi32 (_mm_cvtsi32_si128 ((int) sima_load_u32 (q)));
  return _mm_mul_ps (_mm_sub_ps (_mm_cvtepi32_ps (v),
          _mm256_castps256_ps128 (z)), _mm256_castps256_ps128 (scale));
}

/* 8 INT8 values at q (an 8-byte load) -> 8 results. */
SIMA_INLINE __m256
deq8 (const uint8_t *q, __m256 z, __m256 scale)
{
  __m256i v = _mm256_cvtepi8_epi32 (_mm_loadl_epi64 ((const __m128i *)
          (const void *) q));
  return _mm256_mul_ps (_mm256_sub_ps (_mm256_cvtepi32_ps (v), z), scale);
}

/* Two 16-byte slots, each starting with a pixel of up to 4 INT8 values
 * (the second slot `step` bytes after the first) -> 8 results, 4 per
 * 128-bit lane. The shuffle puts each byte at the top of a dword, the
 * arithmetic shift sign-extends it: no cross-lane widening needed. */
SIMA_INLINE __m256
deq2px (const uint8_t *q, int64_t step, __m256 z, __m256 scale)
{
  const __m256i top = _mm256_setr_epi8 (-1, -1, -1, 0, -1, -1, -1, 1, -1, -1,
      -1, 2, -1, -1, -1, 3, -1, -1, -1, 0, -1, -1, -1, 1, -1, -1, -1, 2, -1,
      -1, -1, 3);
  __m256i v = _mm256_loadu2_m128i ((const __m128i *) (const void *) (q
          + step), (const __m128i *) (const void *) q);
  v = _mm256_srai_epi32 (_mm256_shuffle_epi8 (v, top), 24);
  return _mm256_mul_ps (_mm256_sub_ps (_mm256_cvtepi32_ps (v), z), scale);
}

/* The row's last pixel: its own 3 or 4 values and nothing after them
 * (the low lanes of v, or 4 BF16 in the low 8 bytes of b). */
SIMA_INLINE void
store_last_f32 (uint8_t *d, __m128 v, int64_t channels)
{
  if (channels == 4) {
    _mm_storeu_ps ((float *) (void *) d, v);
    return;
  }
  _mm_storel_pi ((__m64 *) (void *) d, v);
  _mm_store_ss ((float *) (void *) (d + 8), _mm_movehl_ps (v, v));
}

SIMA_INLINE void
store_last_bf16 (uint8_t *d, __m128i b, int64_t channels)
{
  if (channels == 4) {
    _mm_storel_epi64 ((__m128i *) (void *) d, b);
    return;
  }
  sima_store_u32 (d, (uint32_t) _mm_cvtsi128_si32 (b));
  sima_store_u16 (d + 4, (uint16_t) _mm_extract_epi16 (b, 2));
}

/* Contiguous output pixels of 3-4 channels from slots of a multiple of 16
 * bytes (16-byte loads stay inside each slot), two pixels per vector. Each
 * pixel but the row's last is stored as 4 values (4 BF16), the extra one
 * landing on the next pixel, which is written after it. */
SIMA_INLINE void
deq_rgb_slots (const SimaA65DequantCtx *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored, uint8_t *dst,
    int64_t pixel_stride, __m256 z, __m256 scale, int bf16)
{
  int64_t px = 0;

  (void) ctx;                   /* the last pixel comes from the vector */
  if (bf16) {
    /* four pixels per 32-byte store: vectors of pixels 0 and 2, 1 and 3
     * pack into 0, 1 | 2, 3; for 3 channels a shuffle and a dword
     * permutation close the gaps (24 bytes, then 8 bytes spilling onto the
     * next two pixels, rewritten after) */
    const __m256i close = _mm256_setr_epi8 (0, 1, 2, 3, 4, 5, 8, 9, 10, 11,
        12, 13, -1, -1, -1, -1, 0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, -1,
        -1, -1, -1);
    const __m256i join = _mm256_setr_epi32 (0, 1, 2, 4, 5, 6, 7, 7);
    const int64_t spill = channels == 3 ? 2 : 0;
    for (; px + 4 + spill <= pixels; px += 4) {
      const uint8_t *s = src + px * stored;
      __m256i p = _mm256_packus_epi32 (bf16_bits8 (deq2px (s, 2 * stored, z,
                  scale)), bf16_bits8 (deq2px (s + stored, 2 * stored, z,
                  scale)));
      if (channels == 3)
        p = _mm256_permutevar8x32_epi32 (_mm256_shuffle_epi8 (p, close),
            join);
      _mm256_storeu_si256 ((__m256i *) (void *) (dst + px * pixel_stride), p);
    }
    for (; px + 2 <= pixels; px += 2) {
      __m256i b = bf16_bits8 (deq2px (src + px * stored, stored, z, scale));
      __m256i p = _mm256_packus_epi32 (b, b);
      uint8_t *d = dst + px * pixel_stride;
      __m128i hi = _mm256_extracti128_si256 (p, 1);
      _mm_storel_epi64 ((__m128i *) (void *) d, _mm256_castsi256_si128 (p));
      if (px + 2 < pixels)
        _mm_storel_epi64 ((__m128i *) (void *) (d + pixel_stride), hi);
      else
        store_last_bf16 (d + pixel_stride, hi, channels);
    }
    if (px < pixels) {
      __m128i b = bf16_bits4 (deq4 (src + px * stored, z, scale));
      store_last_bf16 (dst + px * pixel_stride, _mm_packus_epi32 (b, b),
          channels);
    }
  } else {
    /* the pair's values next to each other (for 3 channels a permutation
     * closes the gap): one store of 32 bytes */
    const __m256i close = _mm256_setr_epi32 (0, 1, 2, 4, 5, 6, 7, 7);
    for (; px + 2 < pixels; px += 2) {
      __m256 v = deq2px (src + px * stored, stored, z, scale);
      if (channels == 3)
        v = _mm256_permutevar8x32_ps (v, close);
      _mm256_storeu_ps ((float *) (void *) (dst + px * pixel_stride), v);
    }
    if (px + 2 == pixels) {
      __m256 v = deq2px (src + px * stored, stored, z, scale);
      _mm_storeu_ps ((float *) (void *) (dst + px * pixel_stride),
          _mm256_castps256_ps128 (v));
      store_last_f32 (dst + (px + 1) * pixel_stride, _mm256_extractf128_ps (v,
              1), channels);
    } else {
      store_last_f32 (dst + px * pixel_stride, deq4 (src + px * stored, z,
              scale), channels);
    }
  }
}

/* 16 contiguous INT8 values -> 16 contiguous results. */
SIMA_INLINE void
deq16 (const uint8_t *s, uint8_t *d, __m256 z, __m256 scale, int bf16)
{
  __m256 a = deq8 (s, z, scale), b = deq8 (s + 8, z, scale);

  if (bf16) {
    /* lanes after the pack: 0-3, 8-11 | 4-7, 12-15 */
    __m256i p = _mm256_packus_epi32 (bf16_bits8 (a), bf16_bits8 (b));
    _mm256_storeu_si256 ((__m256i *) (void *) d, _mm256_permute4x64_epi64 (p,
            0xd8));
  } else {
    _mm256_storeu_ps ((float *) (void *) d, a);
    _mm256_storeu_ps ((float *) (void *) (d + 32), b);
  }
}

/* 8 contiguous INT8 values -> 8 results (FP32 or BF16) at d. */
SIMA_INLINE void
deq8_to (const uint8_t *s, uint8_t *d, __m256 z, __m256 scale, int bf16)
{
  __m256 v = deq8 (s, z, scale);

  if (bf16) {
    __m256i b = bf16_bits8 (v);
    _mm_storeu_si128 ((__m128i *) (void *) d, _mm256_castsi256_si128
        (_mm256_permute4x64_epi64 (_mm256_packus_epi32 (b, b), 0x08)));
  } else {
    _mm256_storeu_ps ((float *) (void *) d, v);
  }
}

/* Contiguous output pixels of 3-4 channels from slots of 4 or more bytes
 * (compact C4), one vector per pixel: each store also covers the start of
 * the next pixel, rewritten right after; the row's last pixel comes
 * element by element from the exact table. */
SIMA_INLINE void
deq_rgb_pixels (const SimaA65DequantCtx *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored, uint8_t *dst,
    int64_t pixel_stride, __m256 z, __m256 scale, int bf16)
{
  const int64_t esize = bf16 ? 2 : 4;
  int64_t px, c;

  for (px = 0; px + 1 < pixels; px++) {
    __m128 v = deq4 (src + px * stored, z, scale);
    if (bf16) {
      __m128i b = bf16_bits4 (v);
      _mm_storel_epi64 ((__m128i *) (void *) (dst + px * pixel_stride),
          _mm_packus_epi32 (b, b));
    } else {
      _mm_storeu_ps ((float *) (void *) (dst + px * pixel_stride), v);
    }
  }
  for (c = 0; c < channels; c++)
    sima_dequant_store1 (dst + px * pixel_stride + c * esize, ctx,
        src[px * stored + c], bf16);
}

#include "dequant_rows.h"

SIMA_DEQUANT_LEAF (sima_dequant_pixels_f32_avx2, 0)
SIMA_DEQUANT_LEAF (sima_dequant_pixels_bf16_avx2, 1)
