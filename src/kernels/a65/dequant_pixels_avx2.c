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
 * Contiguous pixels of 3-4 channels in slots of 4 or more bytes go one
 * vector per pixel (each store also covers the start of the next pixel,
 * rewritten right after; the row's last pixel is written element by
 * element), channel runs of 8 or more go 8 at a time, other rows use the
 * scalar reference.
 */
#include "dequant_pixels.h"
#include "simd_leaf.h"

#include <immintrin.h>

#include "load.h"

SIMA_INLINE __m128i
bf16_bits4 (__m128 v)
{
  __m128i bits = _mm_castps_si128 (v);
  return _mm_srli_epi32 (_mm_add_epi32 (_mm_add_epi32 (bits,
              _mm_set1_epi32 (0x7fff)), _mm_and_si128 (_mm_srli_epi32 (bits,
                  16), _mm_set1_epi32 (1))), 16);
}

SIMA_INLINE __m256i
bf16_bits8 (__m256 v)
{
  __m256i bits = _mm256_castps_si256 (v);
  return _mm256_srli_epi32 (_mm256_add_epi32 (_mm256_add_epi32 (bits,
              _mm256_set1_epi32 (0x7fff)), _mm256_and_si256
          (_mm256_srli_epi32 (bits, 16), _mm256_set1_epi32 (1))), 16);
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

SIMA_INLINE void
dequant_pixels (const SimaA65DequantCtx *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride, int bf16)
{
  const int64_t esize = bf16 ? 2 : 4;
  const __m256 z = _mm256_castsi256_ps (_mm256_set1_epi32 ((int)
          ctx->zero_point_f32_bits));
  const __m256 scale = _mm256_castsi256_ps (_mm256_set1_epi32 ((int)
          ctx->scale_bits));
  int64_t px, c;

  if (channel_stride == esize && pixel_stride == channels * esize
      && channels >= 3 && channels <= 4 && stored >= 4) {
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
    for (c = 0; c < channels; c++)      /* the last pixel: exactly */
      sima_dequant_store1 (dst + px * pixel_stride + c * esize, ctx,
          src[px * stored + c], bf16);
    return;
  }
  if (channel_stride == esize && channels >= 8) {
    for (px = 0; px < pixels; px++) {
      const uint8_t *s = src + px * stored;
      uint8_t *d = dst + px * pixel_stride;
      for (c = 0; c + 8 <= channels; c += 8) {
        __m256 v = deq8 (s + c, z, scale);
        if (bf16) {
          __m256i b = bf16_bits8 (v);
          _mm_storeu_si128 ((__m128i *) (void *) (d + c * 2),
              _mm256_castsi256_si128 (_mm256_permute4x64_epi64
                  (_mm256_packus_epi32 (b, b), 0x08)));
        } else {
          _mm256_storeu_ps ((float *) (void *) (d + c * 4), v);
        }
      }
      for (; c < channels; c++)
        sima_dequant_store1 (d + c * esize, ctx, s[c], bf16);
    }
    return;
  }
  sima_dequant_pixels_fallback (ctx, src, pixels, channels, stored, dst,
      pixel_stride, channel_stride, bf16);
}

SIMA_DEQUANT_LEAF (sima_dequant_pixels_f32_avx2, 0)
SIMA_DEQUANT_LEAF (sima_dequant_pixels_bf16_avx2, 1)
