/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX2 (+F16C) leaves for QuantTess: the same bytes as quant_pixels_c.c.
 *
 * Why hardware arithmetic is exact here: the product x * multiplier of two
 * binary32 values, rounded once to binary32 by VMULPS in round-to-nearest
 * with subnormals kept (the executor holds MXCSR there, cpu.h), is the
 * spec's RNE_f32(x * multiplier); VROUNDPS with an explicit mode is the
 * spec's integer rounding; clamping to +-SIMA_QUANT_SATURATED before the
 * conversion keeps infinities and huge products exact through the
 * saturating packs. NaN inputs become the zero point, as in the scalar
 * reference. FP16 widens exactly with VCVTPH2PS, BF16 by a 16-bit shift.
 *
 * Two shapes of row go wide: pixels that are contiguous (every channel of
 * a pixel, then the next pixel: RGB rows), quantized as one run and then
 * spread into the stored-channel slots; and channel runs of at least 8 with
 * a pixel stride (compact channel blocks), quantized pixel by pixel. Other
 * rows, and every tail shorter than a vector, use the scalar reference.
 * Built with -mavx2 -mf16c; called only when sima_cpu_isas() has both.
 */
#include "quant_pixels.h"
#include "simd_leaf.h"

#include <immintrin.h>
#include <string.h>

#include "../numerics/quant_exact.h"
#include "load.h"

/* Pixels quantized per run: the run buffer holds them plus a vector of
 * slack, so the spreading loads never leave it. */
#define RUN_ELEMENTS 1024

SIMA_INLINE __m256
load8 (const uint8_t *p, SrcType type)
{
  switch (type) {
    case SRC_F32:
      return _mm256_loadu_ps ((const float *) (const void *) p);
    case SRC_F16:
      return _mm256_cvtph_ps (_mm_loadu_si128 ((const __m128i *) (const
                  void *) p));
    default:
      return _mm256_castsi256_ps (_mm256_slli_epi32 (_mm256_cvtepu16_epi32
              (_mm_loadu_si128 ((const __m128i *) (const void *) p)), 16));
  }
}

/* 8 values -> 8 int32 (rounded, clamped, plus zero point), and a mask of
 * NaN inputs. `mode` is a compile-time constant in every caller. */
SIMA_INLINE __m256i
quant8 (__m256 x, __m256 mult, __m256i zp, int mode, __m256i *nan)
{
  const __m256 limit = _mm256_set1_ps ((float) SIMA_QUANT_SATURATED);
  __m256 p = _mm256_mul_ps (x, mult), r;

  *nan = _mm256_castps_si256 (_mm256_cmp_ps (x, x, _CMP_UNORD_Q));
  switch (mode) {
    case SIMA_ROUNDING_TOWARD_ZERO:
      r = _mm256_round_ps (p, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
      break;
    case SIMA_ROUNDING_TOWARD_POSITIVE:
      r = _mm256_round_ps (p, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
      break;
    case SIMA_ROUNDING_TOWARD_NEGATIVE:
      r = _mm256_round_ps (p, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
      break;
    default:
      r = _mm256_round_ps (p, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
      break;
  }
  /* NaN lanes are replaced later; min/max keep them harmless here */
  r = _mm256_min_ps (_mm256_max_ps (r, _mm256_sub_ps (_mm256_setzero_ps (),
              limit)), limit);
  return _mm256_add_epi32 (_mm256_cvtps_epi32 (r), zp);
}

/* 32 and 16 values -> bytes in order, NaN lanes replaced by the zero
 * point. The packs work per 128-bit lane; the permutation puts the dwords
 * back in order. */
SIMA_INLINE __m256i
quant32 (const uint8_t *src, __m256 mult, __m256i zp, __m256i zp8,
    SrcType type, int mode)
{
  const int64_t esize = type == SRC_F32 ? 4 : 2;
  const __m256i order = _mm256_setr_epi32 (0, 4, 1, 5, 2, 6, 3, 7);
  __m256i na, nb, nc, nd;
  __m256i a = quant8 (load8 (src, type), mult, zp, mode, &na);
  __m256i b = quant8 (load8 (src + 8 * esize, type), mult, zp, mode, &nb);
  __m256i c = quant8 (load8 (src + 16 * esize, type), mult, zp, mode, &nc);
  __m256i d = quant8 (load8 (src + 24 * esize, type), mult, zp, mode, &nd);
  __m256i v = _mm256_packs_epi16 (_mm256_packs_epi32 (a, b),
      _mm256_packs_epi32 (c, d));
  __m256i m = _mm256_packs_epi16 (_mm256_packs_epi32 (na, nb),
      _mm256_packs_epi32 (nc, nd));
  return _mm256_permutevar8x32_epi32 (_mm256_blendv_epi8 (v, zp8, m), order);
}

SIMA_INLINE __m128i
quant16 (const uint8_t *src, __m256 mult, __m256i zp, __m256i zp8,
    SrcType type, int mode)
{
  const int64_t esize = type == SRC_F32 ? 4 : 2;
  const __m256i order = _mm256_setr_epi32 (0, 4, 1, 5, 2, 6, 3, 7);
  __m256i na, nb;
  __m256i a = quant8 (load8 (src, type), mult, zp, mode, &na);
  __m256i b = quant8 (load8 (src + 8 * esize, type), mult, zp, mode, &nb);
  __m256i ab = _mm256_packs_epi32 (a, b), m = _mm256_packs_epi32 (na, nb);
  /* dwords 0 and 4 hold a0-3 and a4-7, 1 and 5 b0-3 and b4-7 */
  __m256i v = _mm256_blendv_epi8 (_mm256_packs_epi16 (ab, ab), zp8,
      _mm256_packs_epi16 (m, m));
  return _mm256_castsi256_si128 (_mm256_permutevar8x32_epi32 (v, order));
}

/* 16 RGB pixels (48 values) into 16 slots of 16 bytes, from registers:
 * spreading through memory right after writing it stalls on store
 * forwarding. Slot p takes bytes 3p..3p+2 of the 48. */
SIMA_INLINE void
rgb16_pad16 (const uint8_t *src, __m256 mult, __m256i zp, __m256i zp8,
    SrcType type, int mode, uint8_t *dst)
{
  const int64_t esize = type == SRC_F32 ? 4 : 2;
  const __m256i v = quant32 (src, mult, zp, zp8, type, mode);
  const __m128i a = _mm256_castsi256_si128 (v);
  const __m128i b = _mm256_extracti128_si256 (v, 1);
  const __m128i c = quant16 (src + 32 * esize, mult, zp, zp8, type, mode);
  const __m128i keep = _mm_setr_epi8 (-1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0);
  const __m128i pad = _mm256_castsi256_si128 (zp8);

#define SLOT(p, w) _mm_storeu_si128 ((__m128i *) (void *) (dst + 16 * (p)), \
    _mm_blendv_epi8 (pad, (w), keep))
  SLOT (0, a);
  SLOT (1, _mm_srli_si128 (a, 3));
  SLOT (2, _mm_srli_si128 (a, 6));
  SLOT (3, _mm_srli_si128 (a, 9));
  SLOT (4, _mm_srli_si128 (a, 12));
  SLOT (5, _mm_alignr_epi8 (b, a, 15));
  SLOT (6, _mm_srli_si128 (b, 2));
  SLOT (7, _mm_srli_si128 (b, 5));
  SLOT (8, _mm_srli_si128 (b, 8));
  SLOT (9, _mm_srli_si128 (b, 11));
  SLOT (10, _mm_alignr_epi8 (c, b, 14));
  SLOT (11, _mm_srli_si128 (c, 1));
  SLOT (12, _mm_srli_si128 (c, 4));
  SLOT (13, _mm_srli_si128 (c, 7));
  SLOT (14, _mm_srli_si128 (c, 10));
  SLOT (15, _mm_srli_si128 (c, 13));
#undef SLOT
}

/* Quantizes n contiguous values at src (element size esize) to n bytes. */
SIMA_INLINE void
quant_run (const SimaQuantNumerics *q, const uint8_t *src, int64_t n,
    uint8_t *dst, SrcType type, int mode)
{
  const int64_t esize = type == SRC_F32 ? 4 : 2;
  const __m256 mult = _mm256_castsi256_ps (_mm256_set1_epi32 ((int)
          q->multiplier_bits));
  const __m256i zp = _mm256_set1_epi32 (q->zero_point);
  const __m256i zp8 = _mm256_set1_epi8 ((char) q->zero_point);
  int64_t i = 0;

  for (; i + 32 <= n; i += 32)
    _mm256_storeu_si256 ((__m256i *) (void *) (dst + i), quant32 (src + i
            * esize, mult, zp, zp8, type, mode));
  for (; i + 16 <= n; i += 16)
    _mm_storeu_si128 ((__m128i *) (void *) (dst + i), quant16 (src + i
            * esize, mult, zp, zp8, type, mode));
  for (; i + 8 <= n; i += 8) {
    __m256i na;
    __m256i a = quant8 (load8 (src + i * esize, type), mult, zp, mode, &na);
    __m256i v = _mm256_packs_epi16 (_mm256_packs_epi32 (a, a),
        _mm256_setzero_si256 ());
    __m256i m = _mm256_packs_epi16 (_mm256_packs_epi32 (na, na),
        _mm256_setzero_si256 ());
    /* lane 0 holds values 0-3 (twice), lane 1 values 4-7 */
    v = _mm256_permutevar8x32_epi32 (_mm256_blendv_epi8 (v, zp8, m),
        _mm256_setr_epi32 (0, 4, 0, 0, 0, 0, 0, 0));
    _mm_storel_epi64 ((__m128i *) (void *) (dst + i),
        _mm256_castsi256_si128 (v));
  }
  for (; i < n; i++)
    dst[i] = (uint8_t) sima_quant_exact (sima_simd_decode1 (src + i * esize, type), q);
}

/* Spreads `pixels` pixels of `channels` bytes (packed in run) into slots
 * of `stored` bytes, padding with the zero point; stored % 16 == 0. The
 * run has 16 bytes of slack after its values. */
SIMA_INLINE void
spread (const uint8_t *run, int64_t pixels, int64_t channels,
    int64_t stored, uint8_t zero_point, uint8_t *dst)
{
  static const uint8_t ramp[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
    12, 13, 14, 15
  };
  const __m128i index = _mm_loadu_si128 ((const __m128i *) (const void *)
      ramp);
  const __m128i zp = _mm_set1_epi8 ((char) zero_point);
  int64_t px, j;

  if (stored == 16) {           /* one slot per pixel: RGB and friends */
    const __m128i keep = _mm_cmplt_epi8 (index, _mm_set1_epi8 ((char)
            channels));
    for (px = 0; px < pixels; px++) {
      __m128i v = _mm_loadu_si128 ((const __m128i *) (const void *) (run
              + px * channels));
      _mm_storeu_si128 ((__m128i *) (void *) (dst + px * 16),
          _mm_blendv_epi8 (zp, v, keep));
    }
    return;
  }
  for (px = 0; px < pixels; px++) {
    const uint8_t *s = run + px * channels;
    for (j = 0; j < stored; j += 16) {
      int64_t valid = channels - j;
      __m128i keep, v;
      if (valid <= 0) {
        _mm_storeu_si128 ((__m128i *) (void *) (dst + j), zp);
        continue;
      }
      /* lanes below `valid` take the values, the others the zero point */
      keep = _mm_cmplt_epi8 (index, _mm_set1_epi8 ((char) (valid < 16
                  ? valid : 16)));
      v = _mm_loadu_si128 ((const __m128i *) (const void *) (s + j));
      _mm_storeu_si128 ((__m128i *) (void *) (dst + j),
          _mm_blendv_epi8 (zp, v, keep));
    }
    dst += stored;
  }
}

SIMA_INLINE void
quant_pixels (const void *ctx, const uint8_t *src, int64_t pixel_stride,
    int64_t channel_stride, int64_t pixels, int64_t channels,
    int64_t stored, uint8_t *dst, SrcType type, int mode)
{
  const SimaQuantNumerics *q = ctx;
  const int64_t esize = type == SRC_F32 ? 4 : 2;
  int64_t px;

  if (channel_stride == esize && pixel_stride == channels * esize) {
    /* contiguous pixels: one run, spread into the slots */
    if (stored == channels) {
      quant_run (q, src, pixels * channels, dst, type, mode);
      return;
    }
    if (channels == 3 && stored == 16) {
      const __m256 mult = _mm256_castsi256_ps (_mm256_set1_epi32 ((int)
              q->multiplier_bits));
      const __m256i zp = _mm256_set1_epi32 (q->zero_point);
      const __m256i zp8 = _mm256_set1_epi8 ((char) q->zero_point);
      for (px = 0; px + 16 <= pixels; px += 16)
        rgb16_pad16 (src + px * pixel_stride, mult, zp, zp8, type, mode,
            dst + px * 16);
      src += px * pixel_stride;
      dst += px * 16;
      pixels -= px;
      if (pixels == 0)
        return;
    }
    if (stored % 16 == 0 && channels <= RUN_ELEMENTS) {
      uint8_t run[RUN_ELEMENTS + 16];
      int64_t step = RUN_ELEMENTS / channels;
      for (px = 0; px < pixels; px += step) {
        int64_t n = pixels - px < step ? pixels - px : step;
        quant_run (q, src + px * pixel_stride, n * channels, run, type, mode);
        spread (run, n, channels, stored, (uint8_t) q->zero_point,
            dst + px * stored);
      }
      return;
    }
  } else if (channel_stride == esize && channels >= 8) {
    /* channel runs with a pixel stride */
    for (px = 0; px < pixels; px++) {
      quant_run (q, src + px * pixel_stride, channels, dst, type, mode);
      if (stored > channels)
        memset (dst + channels, (uint8_t) q->zero_point,
            (size_t) (stored - channels));
      dst += stored;
    }
    return;
  }
  sima_quant_pixels_fallback (ctx, src, pixel_stride, channel_stride,
      pixels, channels, stored, dst, type);
}

SIMA_QUANT_LEAF (sima_quant_pixels_f32_avx2, SRC_F32)
SIMA_QUANT_LEAF (sima_quant_pixels_f16_avx2, SRC_F16)
SIMA_QUANT_LEAF (sima_quant_pixels_bf16_avx2, SRC_BF16)
