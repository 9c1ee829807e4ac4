/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX2 leaves for DetessDequant: the same bytes as dequant_pixels_c.c.
 *
 * The results are the exact 256-entry table prepare() built (one source of
 * truth for the numerics); the SIMD part is how the table is read and the
 * view written: VPGATHERDD looks up 4 or 8 values at once. No
 * floating-point instruction runs, so no FP state matters. The BF16 table
 * is read as 32-bit words at 2-byte steps: the word of entry 255 reaches
 * 2 bytes past the BF16 table, which stay inside the plan's table union
 * (sized for 256 FP32 entries) and are masked off.
 *
 * Contiguous pixels of 3 or more channels stored in slots of 4 or more
 * bytes are written one pixel per vector, each store also covering the
 * start of the next pixel (rewritten right after); the last pixel of the
 * row is written element by element so nothing past it is touched. Channel
 * runs of 8 or more go 8 at a time. Other rows use the scalar reference.
 */
#include "dequant_pixels.h"
#include "simd_leaf.h"

#include <immintrin.h>

#include "load.h"

SIMA_INLINE __m128i
gather4 (const void *table, const uint8_t *q, int bf16)
{
  __m128i idx = _mm_cvtepu8_epi32 (_mm_cvtsi32_si128 ((int) sima_load_u32
          (q)));
  return bf16 ? _mm_and_si128 (_mm_i32gather_epi32 ((const int *) table,
          idx, 2), _mm_set1_epi32 (0xffff))
      : _mm_i32gather_epi32 ((const int *) table, idx, 4);
}

SIMA_INLINE __m256i
gather8 (const void *table, const uint8_t *q, int bf16)
{
  __m256i idx = _mm256_cvtepu8_epi32 (_mm_loadl_epi64 ((const __m128i *)
          (const void *) q));
  return bf16 ? _mm256_and_si256 (_mm256_i32gather_epi32 ((const int *)
          table, idx, 2), _mm256_set1_epi32 (0xffff))
      : _mm256_i32gather_epi32 ((const int *) table, idx, 4);
}

SIMA_INLINE void
store1 (uint8_t *d, const void *table, uint8_t q, int bf16)
{
  if (bf16)
    sima_store_u16 (d, ((const uint16_t *) table)[q]);
  else
    sima_store_u32 (d, ((const uint32_t *) table)[q]);
}

SIMA_INLINE void
dequant_pixels (const void *table, const uint8_t *src, int64_t pixels,
    int64_t channels, int64_t stored, uint8_t *dst, int64_t pixel_stride,
    int64_t channel_stride, int bf16)
{
  const int64_t esize = bf16 ? 2 : 4;
  int64_t px, c;

  if (channel_stride == esize && pixel_stride == channels * esize
      && channels >= 3 && channels <= 4 && stored >= 4) {
    for (px = 0; px + 1 < pixels; px++) {
      __m128i v = gather4 (table, src + px * stored, bf16);
      if (bf16)
        _mm_storel_epi64 ((__m128i *) (void *) (dst + px * pixel_stride),
            _mm_packus_epi32 (v, v));
      else
        _mm_storeu_si128 ((__m128i *) (void *) (dst + px * pixel_stride), v);
    }
    for (c = 0; c < channels; c++)      /* the last pixel: exactly */
      store1 (dst + px * pixel_stride + c * esize, table,
          src[px * stored + c], bf16);
    return;
  }
  if (channel_stride == esize && channels >= 8) {
    for (px = 0; px < pixels; px++) {
      const uint8_t *s = src + px * stored;
      uint8_t *d = dst + px * pixel_stride;
      for (c = 0; c + 8 <= channels; c += 8) {
        __m256i v = gather8 (table, s + c, bf16);
        if (bf16)
          _mm_storeu_si128 ((__m128i *) (void *) (d + c * 2),
              _mm256_castsi256_si128 (_mm256_permute4x64_epi64
                  (_mm256_packus_epi32 (v, v), 0x08)));
        else
          _mm256_storeu_si256 ((__m256i *) (void *) (d + c * 4), v);
      }
      for (; c < channels; c++)
        store1 (d + c * esize, table, s[c], bf16);
    }
    return;
  }
  if (bf16)
    sima_dequant_pixels_bf16_c (table, src, pixels, channels, stored, dst,
        pixel_stride, channel_stride);
  else
    sima_dequant_pixels_f32_c (table, src, pixels, channels, stored, dst,
        pixel_stride, channel_stride);
}

void
sima_dequant_pixels_f32_avx2 (const void *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored_channels, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride)
{
  dequant_pixels (ctx, src, pixels, channels, stored_channels, dst,
      pixel_stride, channel_stride, 0);
}

void
sima_dequant_pixels_bf16_avx2 (const void *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored_channels, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride)
{
  dequant_pixels (ctx, src, pixels, channels, stored_channels, dst,
      pixel_stride, channel_stride, 1);
}
