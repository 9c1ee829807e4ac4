/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX2 (+F16C) leaves for QuantTess: the same bytes as quant_pixels_c.c.
 *
 * Why hardware arithmetic is exact here: the product x * multiplier of two
 * binary32 values, rounded once to binary32 by VMULPS in round-to-nearest
 * with subnormals kept (the executor holds MXCSR there, cpu.h), is the
 * spec's RNE_f32(x * multiplier); the integer rounding is VCVTPS2DQ under
 * that MXCSR (nearest even), VCVTTPS2DQ (toward zero) or VROUNDPS with the
 * mode in the instruction (toward +-infinity); clamping to
 * +-SIMA_QUANT_SATURATED first keeps infinities and huge products exact
 * through the saturating packs. NaN inputs become the zero point, as in
 * the scalar reference. FP16 widens exactly with VCVTPH2PS, BF16 by a
 * 16-bit shift, UINT8 by VPMOVZXBD and VCVTDQ2PS (exact: every integer
 * 0..255 is a binary32 value, so the product is the spec's
 * RNE_f32(x * multiplier) with x the integer; NaN cannot occur).
 *
 * Shapes that go wide: RGB rows into pad16 slots, 16 pixels at a time
 * from registers, and 16-channel runs with a pixel stride (C16 tiles of
 * wider tensors), two pixels per store, both recognised once per call
 * (quant_rows.h); other contiguous pixels, quantized as one run and then
 * spread into the stored-channel slots; channel runs of at least 8 with a
 * pixel stride, pixel by pixel. Other rows, and every tail shorter than a
 * vector, use the scalar reference.
 * Built with -mavx2 -mf16c; called only when sima_cpu_isas() has both.
 */
#include "quant_pixels.h"
#include "simd_leaf.h"

#include <immintrin.h>

#include "../numerics/quant_exact.h"
#include "load.h"

SIMA_INLINE __m256
load8 (const uint8_t *p, SrcType type)
{
  switch (type) {
    case SRC_F32:
      return _mm256_loadu_ps ((const float *) (const void *) p);
    case SRC_F16:
      return _mm256_cvtph_ps (_mm_loadu_si128 ((const __m128i *) (const
                  void *) p));
    case SRC_U8:                /* 8 bytes, exact integers in binary32 */
      return _mm256_cvtepi32_ps (_mm256_cvtepu8_epi32 (_mm_loadl_epi64
              ((const __m128i *) (const void *) p)));
    default:
      return _mm256_castsi256_ps (_mm256_slli_epi32 (_mm256_cvtepu16_epi32
              (_mm_loadu_si128 ((const __m128i *) (const void *) p)), 16));
  }
}

/* 8 values -> 8 int32: x * multiplier rounded by `mode` and clamped to
 * +-SIMA_QUANT_SATURATED, NaN lanes INT32_MIN (the conversion's "integer
 * indefinite", which no clamped value reaches). `mode` is a compile-time
 * constant in every caller.
 *
 * Clamping before rounding gives what rounding then clamping gives (the
 * bounds are integers and rounding is monotonic), so nearest-even needs no
 * VROUNDPS: VCVTPS2DQ rounds with MXCSR, which the executor holds at
 * nearest-even, and VCVTTPS2DQ truncates. The clamp passes NaN through:
 * MAXPS and MINPS return their second operand when one is NaN. */
SIMA_INLINE __m256i
quant8 (__m256 x, __m256 mult, SrcType type, int mode)
{
  const __m256 hi = _mm256_set1_ps ((float) SIMA_QUANT_SATURATED);
  const __m256 lo = _mm256_set1_ps (-(float) SIMA_QUANT_SATURATED);
  __m256 p = _mm256_mul_ps (x, mult);

  if (type == SRC_U8) {
    /* UINT8: the product is +0 or positive (never NaN), so only the upper
     * clamp is needed, and toward-negative is truncation */
    p = _mm256_min_ps (hi, p);
    switch (mode) {
      case SIMA_ROUNDING_TOWARD_ZERO:
      case SIMA_ROUNDING_TOWARD_NEGATIVE:
        return _mm256_cvttps_epi32 (p);
      case SIMA_ROUNDING_TOWARD_POSITIVE:
        p = _mm256_round_ps (p, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
        break;
      default:
        break;
    }
    return _mm256_cvtps_epi32 (p);
  }

  switch (mode) {
    case SIMA_ROUNDING_TOWARD_ZERO:
      return _mm256_cvttps_epi32 (_mm256_min_ps (hi, _mm256_max_ps (lo, p)));
    case SIMA_ROUNDING_TOWARD_POSITIVE:
      p = _mm256_round_ps (p, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
      break;
    case SIMA_ROUNDING_TOWARD_NEGATIVE:
      p = _mm256_round_ps (p, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
      break;
    default:
      break;
  }
  return _mm256_cvtps_epi32 (_mm256_min_ps (hi, _mm256_max_ps (lo, p)));
}

/* Two quant8 results -> 16 int16 plus the zero point (zp2 holds 2 * zero
 * point in every int16 lane), NaN lanes becoming the zero point. The
 * saturating pack turns NaN's INT32_MIN into INT16_MIN, the only value
 * that doubling wraps to 0 (the others are within +-SIMA_QUANT_SATURATED,
 * so doubling, adding 2 * zp and halving is exact). Lanes as
 * _mm256_packs_epi32 leaves them: a0-3 b0-3 | a4-7 b4-7. */
SIMA_INLINE __m256i
with_zero_point (__m256i a, __m256i b, __m256i zp2, SrcType type)
{
  __m256i v = _mm256_packs_epi32 (a, b);
  if (type == SRC_U8)           /* no NaN lanes: add the zero point */
    return _mm256_add_epi16 (v, _mm256_srai_epi16 (zp2, 1));
  return _mm256_srai_epi16 (_mm256_add_epi16 (_mm256_slli_epi16 (v, 1), zp2),
      1);
}

_Static_assert (2 * (SIMA_QUANT_SATURATED + 128) < 32768,
    "with_zero_point doubles clamped values plus zero points in int16");

/* 16 values at s0 and 16 at s1 -> 32 bytes in order. The packs work per
 * 128-bit lane; the permutation puts the dwords back in order. */
SIMA_INLINE __m256i
quant16x2 (const uint8_t *s0, const uint8_t *s1, __m256 mult, __m256i zp2,
    SrcType type, int mode)
{
  const int64_t esize = sima_src_size (type);
  const __m256i order = _mm256_setr_epi32 (0, 4, 1, 5, 2, 6, 3, 7);
  __m256i a = quant8 (load8 (s0, type), mult, type, mode);
  __m256i b = quant8 (load8 (s0 + 8 * esize, type), mult, type, mode);
  __m256i c = quant8 (load8 (s1, type), mult, type, mode);
  __m256i d = quant8 (load8 (s1 + 8 * esize, type), mult, type, mode);
  __m256i v = _mm256_packs_epi16 (with_zero_point (a, b, zp2, type),
      with_zero_point (c, d, zp2, type));
  return _mm256_permutevar8x32_epi32 (v, order);
}

/* 32 and 16 contiguous values -> bytes in order. */
SIMA_INLINE __m256i
quant32 (const uint8_t *src, __m256 mult, __m256i zp2, SrcType type, int mode)
{
  const int64_t esize = sima_src_size (type);
  return quant16x2 (src, src + 16 * esize, mult, zp2, type, mode);
}

SIMA_INLINE __m128i
quant16 (const uint8_t *src, __m256 mult, __m256i zp2, SrcType type, int mode)
{
  const int64_t esize = sima_src_size (type);
  const __m256i order = _mm256_setr_epi32 (0, 4, 1, 5, 2, 6, 3, 7);
  __m256i a = quant8 (load8 (src, type), mult, type, mode);
  __m256i b = quant8 (load8 (src + 8 * esize, type), mult, type, mode);
  __m256i ab = with_zero_point (a, b, zp2, type);
  /* dwords 0 and 4 hold a0-3 and a4-7, 1 and 5 b0-3 and b4-7 */
  return _mm256_castsi256_si128 (_mm256_permutevar8x32_epi32
      (_mm256_packs_epi16 (ab, ab), order));
}

/* The constants of a call: the multiplier, 2 * zero point
 * (with_zero_point), the zero point in bytes, and the padding of two RGB
 * pad16 slots (the zero point in bytes 3-15 of each lane). */
typedef struct {
  __m256 mult;
  __m256i zp2, zp8, pad;
} QuantConst;

SIMA_INLINE QuantConst
quant_const (const SimaQuantNumerics *q)
{
  QuantConst k;
  k.mult = _mm256_castsi256_ps (_mm256_set1_epi32 ((int) q->multiplier_bits));
  k.zp2 = _mm256_set1_epi16 ((short) (2 * q->zero_point));
  k.zp8 = _mm256_set1_epi8 ((char) q->zero_point);
  k.pad = _mm256_and_si256 (k.zp8, _mm256_setr_epi8 (0, 0, 0, -1, -1, -1, -1,
          -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, -1, -1, -1, -1, -1, -1,
          -1, -1, -1, -1, -1, -1, -1));
  return k;
}

/* 16 RGB pixels (48 values) into 16 slots of 16 bytes, two slots per
 * store, from registers (spreading through memory right after writing it
 * stalls on store forwarding). Pixel p is bytes 3p..3p+2 of the 48; each
 * 32-byte store is one in-lane shuffle of a 16-byte window that holds both
 * of its pixels, broadcast to both lanes, with the padding (the zero
 * point) ORed into the bytes the shuffle zeroes. */
SIMA_INLINE void
rgb16_pad16 (const uint8_t *src, const QuantConst *k, SrcType type, int mode,
    uint8_t *dst)
{
  const int64_t esize = sima_src_size (type);
  const __m256i v = quant32 (src, k->mult, k->zp2, type, mode);
  const __m128i a = _mm256_castsi256_si128 (v);
  const __m128i b = _mm256_extracti128_si256 (v, 1);
  const __m128i c = quant16 (src + 32 * esize, k->mult, k->zp2, type, mode);
  /* windows at bytes 0, 12, 24 and 32; -1 zeroes a byte */
  const __m256i w0 = _mm256_permute4x64_epi64 (v, 0x44);
  const __m256i w12 = _mm256_broadcastsi128_si256 (_mm_alignr_epi8 (b, a,
          12));
  const __m256i w24 = _mm256_broadcastsi128_si256 (_mm_alignr_epi8 (c, b,
          8));
  const __m256i w32 = _mm256_broadcastsi128_si256 (c);
#define PIXELS(i, j) i, i + 1, i + 2, -1, -1, -1, -1, -1, -1, -1, -1, -1, \
    -1, -1, -1, -1, j, j + 1, j + 2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, \
    -1, -1, -1
  const __m256i p01 = _mm256_setr_epi8 (PIXELS (0, 3));
  const __m256i p23 = _mm256_setr_epi8 (PIXELS (6, 9));
  const __m256i p45 = _mm256_setr_epi8 (PIXELS (4, 7));
  const __m256i p67 = _mm256_setr_epi8 (PIXELS (10, 13));
#undef PIXELS
#define SLOTS(n, w, m) _mm256_storeu_si256 ((__m256i *) (void *) (dst \
        + 32 * (n)), _mm256_or_si256 (_mm256_shuffle_epi8 ((w), (m)), k->pad))
  SLOTS (0, w0, p01);           /* pixels 0, 1: bytes 0-5 */
  SLOTS (1, w0, p23);           /* pixels 2, 3: bytes 6-11 */
  SLOTS (2, w12, p01);          /* pixels 4, 5: bytes 12-17 */
  SLOTS (3, w12, p23);          /* pixels 6, 7: bytes 18-23 */
  SLOTS (4, w24, p01);          /* pixels 8, 9: bytes 24-29 */
  SLOTS (5, w24, p23);          /* pixels 10, 11: bytes 30-35 */
  SLOTS (6, w32, p45);          /* pixels 12, 13: bytes 36-41 */
  SLOTS (7, w32, p67);          /* pixels 14, 15: bytes 42-47 */
#undef SLOTS
}

/* Two pixels of 16 channels (at s0 and s1) into 32 contiguous bytes. */
SIMA_INLINE void
pixel2x16 (const uint8_t *s0, const uint8_t *s1, const QuantConst *k,
    SrcType type, int mode, uint8_t *dst)
{
  _mm256_storeu_si256 ((__m256i *) (void *) dst, quant16x2 (s0, s1, k->mult,
          k->zp2, type, mode));
}

/* Quantizes n contiguous values at src (element size esize) to n bytes. */
SIMA_INLINE void
quant_run (const SimaQuantNumerics *q, const uint8_t *src, int64_t n,
    uint8_t *dst, const QuantConst *k, SrcType type, int mode)
{
  const int64_t esize = sima_src_size (type);
  int64_t i = 0;

  for (; i + 32 <= n; i += 32)
    _mm256_storeu_si256 ((__m256i *) (void *) (dst + i), quant32 (src + i
            * esize, k->mult, k->zp2, type, mode));
  for (; i + 16 <= n; i += 16)
    _mm_storeu_si128 ((__m128i *) (void *) (dst + i), quant16 (src + i
            * esize, k->mult, k->zp2, type, mode));
  for (; i + 8 <= n; i += 8) {
    __m256i a = with_zero_point (quant8 (load8 (src + i * esize, type),
            k->mult, type, mode), _mm256_setzero_si256 (), k->zp2, type);
    /* lane 0 holds values 0-3, lane 1 values 4-7 */
    __m256i v = _mm256_permutevar8x32_epi32 (_mm256_packs_epi16 (a, a),
        _mm256_setr_epi32 (0, 4, 0, 0, 0, 0, 0, 0));
    _mm_storel_epi64 ((__m128i *) (void *) (dst + i),
        _mm256_castsi256_si128 (v));
  }
  for (; i < n; i++)
    dst[i] = (uint8_t) sima_quant_exact (sima_source_exact (src + i * esize,
            type), q);
}

/* Spreads `pixels` pixels of `channels` bytes (in run, `step` >= channels
 * bytes apart) into slots of `stored` bytes, padding with the zero point;
 * stored % 16 == 0. The run has 16 bytes of slack after its values. */
SIMA_INLINE void
spread (const uint8_t *run, int64_t pixels, int64_t channels, int64_t step,
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
              + px * step));
      _mm_storeu_si128 ((__m128i *) (void *) (dst + px * 16),
          _mm_blendv_epi8 (zp, v, keep));
    }
    return;
  }
  for (px = 0; px < pixels; px++) {
    const uint8_t *s = run + px * step;
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

#include "quant_rows.h"

SIMA_QUANT_LEAF (sima_quant_pixels_f32_avx2, SRC_F32)
SIMA_QUANT_LEAF (sima_quant_pixels_f16_avx2, SRC_F16)
SIMA_QUANT_LEAF (sima_quant_pixels_bf16_avx2, SRC_BF16)
SIMA_QUANT_LEAF (sima_quant_pixels_u8_avx2, SRC_U8)
