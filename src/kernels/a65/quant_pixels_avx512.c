/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX-512 (F, BW, VL, VBMI) leaves for QuantTess: the same bytes as
 * quant_pixels_c.c, 16 values per ZMM register.
 *
 * Why hardware arithmetic is exact here (the argument of
 * quant_pixels_avx2.c, with fewer instructions):
 *  - the product is VMULPS with round-to-nearest in the instruction
 *    ({rn-sae}), the spec's RNE_f32(x * multiplier) whatever MXCSR.RC; the
 *    executor keeps subnormals (no FTZ/DAZ, cpu.h);
 *  - VFIXUPIMMPS turns a NaN product (a NaN input: the multiplier is
 *    finite and > 0) into +0, whose result is the zero point, as in the
 *    scalar reference;
 *  - one clamp, VMINPS to +SIMA_QUANT_SATURATED: rounding commutes with a
 *    clamp to an integer bound, and below the range needs none, because
 *    VCVTPS2DQ returns INT32_MIN ("integer indefinite") for values below
 *    -2^31 and -infinity, which the saturating packs and the saturating
 *    zero-point add take to -128, the scalar reference's result for every
 *    value at or below -SIMA_QUANT_SATURATED;
 *  - the integer rounding is VCVTPS2DQ with the mode in the instruction
 *    ({rn,rz,ru,rd}-sae): no VROUNDPS, no dependence on MXCSR;
 *  - int32 -> int16 with signed saturation (VPACKSSDW), the zero point
 *    added with signed saturation in 16 bits (VPADDSW), int16 -> int8 with
 *    signed saturation (VPACKSSWB): saturate_int8(clamp(r) + zp) exactly.
 * FP16 widens exactly with VCVTPH2PS, BF16 by a 16-bit shift, UINT8 by
 * VPMOVZXBD and VCVTDQ2PS (exact integers; products >= +0, never NaN).
 *
 * Shapes (recognised once per call by quant_rows.h): RGB rows into pad16
 * slots go 16 pixels per step, the 48 bytes spread into four 64-byte
 * stores by one masked VPERMB each, the padding (the zero point) merged
 * in by the mask; 16-channel runs with a pixel stride two pixels per
 * store; contiguous runs 64 values per store. Tails use masked loads and
 * stores (masked-off elements are neither read nor written, so no fault
 * at a page end and nothing past the row touched): no scalar tail.
 * Built with -mavx2 -mf16c -mavx512f -mavx512bw -mavx512vl -mavx512vbmi;
 * called only when sima_cpu_isas() has AVX-512 (with AVX2 and F16C).
 */
#include "quant_pixels.h"
#include "simd_leaf.h"

#include <immintrin.h>

#include "../numerics/quant_exact.h"
#include "load.h"

/* 16 values (the lanes of m; the others are not read and become +0).
 * m is a constant in every caller: whole vectors load without a mask. */
SIMA_INLINE __m512
load16 (const uint8_t *p, SrcType type, __mmask16 m)
{
  if (m == 0xffff)
    switch (type) {
      case SRC_F32:
        return _mm512_loadu_ps (p);
      case SRC_F16:
        return _mm512_cvtph_ps (_mm256_loadu_si256 ((const __m256i *) (const
                    void *) p));
      case SRC_U8:
        return _mm512_cvtepi32_ps (_mm512_cvtepu8_epi32 (_mm_loadu_si128
                ((const __m128i *) (const void *) p)));
      default:
        return _mm512_castsi512_ps (_mm512_slli_epi32 (_mm512_cvtepu16_epi32
                (_mm256_loadu_si256 ((const __m256i *) (const void *) p)),
                16));
    }
  switch (type) {
    case SRC_F32:
      return _mm512_maskz_loadu_ps (m, p);
    case SRC_F16:
      return _mm512_cvtph_ps (_mm256_maskz_loadu_epi16 (m, p));
    case SRC_U8:                /* exact integers in binary32 */
      return _mm512_cvtepi32_ps (_mm512_cvtepu8_epi32 (_mm_maskz_loadu_epi8
              (m, p)));
    default:
      return _mm512_castsi512_ps (_mm512_slli_epi32 (_mm512_cvtepu16_epi32
              (_mm256_maskz_loadu_epi16 (m, p)), 16));
  }
}

/* The constants of a call: the multiplier, the clamp, the zero point in
 * int16 lanes and in bytes. */
typedef struct {
  __m512 mult, hi;
  __m512i zp16, zp8;
} QuantConst;

SIMA_INLINE QuantConst
quant_const (const SimaQuantNumerics *q)
{
  QuantConst k;
  k.mult = _mm512_castsi512_ps (_mm512_set1_epi32 ((int) q->multiplier_bits));
  k.hi = _mm512_set1_ps ((float) SIMA_QUANT_SATURATED);
  k.zp16 = _mm512_set1_epi16 ((short) q->zero_point);
  k.zp8 = _mm512_set1_epi8 ((char) q->zero_point);
  return k;
}

_Static_assert (SIMA_QUANT_SATURATED + 128 < 32767,
    "clamped values plus zero points fit int16 without saturating");

/* VFIXUPIMMPS response table: QNaN (token 0) and SNaN (token 1) -> +0
 * (response 8); every other class keeps the value (response 0). */
#define QUANT_NAN_TO_ZERO 0x88

/* 16 values -> 16 int32: x * multiplier, NaN as +0, at most
 * +SIMA_QUANT_SATURATED, rounded by `mode` (a constant in every caller);
 * below -2^31 INT32_MIN (see the header comment). */
SIMA_INLINE __m512i
quant16i (__m512 x, const QuantConst *k, SrcType type, int mode)
{
  __m512 p = _mm512_mul_round_ps (x, k->mult, _MM_FROUND_TO_NEAREST_INT
      | _MM_FROUND_NO_EXC);

  if (type != SRC_U8)           /* UINT8 products are never NaN */
    p = _mm512_fixupimm_ps (p, p, _mm512_set1_epi32 (QUANT_NAN_TO_ZERO), 0);
  p = _mm512_min_ps (p, k->hi);
  switch (mode) {
    case SIMA_ROUNDING_TOWARD_ZERO:
      return _mm512_cvt_roundps_epi32 (p, _MM_FROUND_TO_ZERO
          | _MM_FROUND_NO_EXC);
    case SIMA_ROUNDING_TOWARD_POSITIVE:
      return _mm512_cvt_roundps_epi32 (p, _MM_FROUND_TO_POS_INF
          | _MM_FROUND_NO_EXC);
    case SIMA_ROUNDING_TOWARD_NEGATIVE:
      return _mm512_cvt_roundps_epi32 (p, _MM_FROUND_TO_NEG_INF
          | _MM_FROUND_NO_EXC);
    default:
      return _mm512_cvt_roundps_epi32 (p, _MM_FROUND_TO_NEAREST_INT
          | _MM_FROUND_NO_EXC);
  }
}

SIMA_INLINE __m512i
quant16 (const uint8_t *p, const QuantConst *k, SrcType type, int mode,
    __mmask16 m)
{
  return quant16i (load16 (p, type, m), k, type, mode);
}

/* Four quant16i results -> 64 bytes with the zero point, lanes as the
 * packs leave them: 128-bit lane i holds values 4i..4i+3 of a, b, c, d
 * (dword 4i + source). */
SIMA_INLINE __m512i
bytes64_lanes (__m512i a, __m512i b, __m512i c, __m512i d,
    const QuantConst *k)
{
  return _mm512_packs_epi16 (_mm512_adds_epi16 (_mm512_packs_epi32 (a, b),
          k->zp16), _mm512_adds_epi16 (_mm512_packs_epi32 (c, d), k->zp16));
}

/* 16 values at each of s, s + step, s + 2 step and s + 3 step -> 64
 * bytes in that order. */
SIMA_INLINE __m512i
quant4x16 (const uint8_t *s, int64_t step, const QuantConst *k,
    SrcType type, int mode)
{
  const __m512i order = _mm512_setr_epi32 (0, 4, 8, 12, 1, 5, 9, 13, 2, 6,
      10, 14, 3, 7, 11, 15);
  return _mm512_permutexvar_epi32 (order, bytes64_lanes (quant16 (s, k,
              type, mode, 0xffff), quant16 (s + step, k, type, mode, 0xffff),
          quant16 (s + 2 * step, k, type, mode, 0xffff), quant16 (s
              + 3 * step, k, type, mode, 0xffff), k));
}

/* 64 contiguous values -> 64 bytes in order. */
SIMA_INLINE __m512i
quant64 (const uint8_t *src, const QuantConst *k, SrcType type, int mode)
{
  return quant4x16 (src, 16 * sima_src_size (type), k, type, mode);
}

/* Four pixels of 16 channels, pixel_stride bytes apart, into 64
 * contiguous bytes: one store per four C16 slots (quant_rows.h takes this
 * step where a leaf defines SIMA_QUANT_PIXEL4X16). */
#define SIMA_QUANT_PIXEL4X16 1
SIMA_INLINE void
pixel4x16 (const uint8_t *s, int64_t pixel_stride, const QuantConst *k,
    SrcType type, int mode, uint8_t *dst)
{
  sima_store64 (dst, quant4x16 (s, pixel_stride, k, type, mode));
}

/* One quant16i result -> 16 bytes with the zero point (the narrowing
 * moves saturate like the packs). */
SIMA_INLINE __m128i
bytes16 (__m512i a, const QuantConst *k)
{
  return _mm256_cvtsepi16_epi8 (_mm256_adds_epi16 (_mm512_cvtsepi32_epi16
          (a), _mm512_castsi512_si256 (k->zp16)));
}

/* VPERMB indices for rgb16_pad16: byte o of store t is channel o % 16 of
 * pixel 4t + o / 16; value v = 3 * pixel + channel sits at byte
 * QUANT_LANE_POS (v) of bytes64_lanes (a, b, c, c) (a: values 0-15, b:
 * 16-31, c: 32-47). Channels 3-15 are the padding: the mask leaves the
 * zero point there, their index is unused. */
#define QUANT_LANE_POS(v) (16 * (((v) % 16) / 4) + 4 * ((v) / 16) + (v) % 4)
#define QUANT_RGB_IDX(t, o) ((o) % 16 < 3 ? QUANT_LANE_POS (3 * (4 * (t) \
            + (o) / 16) + (o) % 16) : 0)
#define QUANT_RGB_X8(t, o) QUANT_RGB_IDX (t, o), QUANT_RGB_IDX (t, o + 1), \
    QUANT_RGB_IDX (t, o + 2), QUANT_RGB_IDX (t, o + 3), \
    QUANT_RGB_IDX (t, o + 4), QUANT_RGB_IDX (t, o + 5), \
    QUANT_RGB_IDX (t, o + 6), QUANT_RGB_IDX (t, o + 7)
#define QUANT_RGB_ROW(t) { QUANT_RGB_X8 (t, 0), QUANT_RGB_X8 (t, 8), \
    QUANT_RGB_X8 (t, 16), QUANT_RGB_X8 (t, 24), QUANT_RGB_X8 (t, 32), \
    QUANT_RGB_X8 (t, 40), QUANT_RGB_X8 (t, 48), QUANT_RGB_X8 (t, 56) }
static const uint8_t quant_rgb_index[4][64] __attribute__ ((aligned (64))) = {
  QUANT_RGB_ROW (0), QUANT_RGB_ROW (1), QUANT_RGB_ROW (2), QUANT_RGB_ROW (3)
};
#undef QUANT_RGB_ROW
#undef QUANT_RGB_X8
#undef QUANT_RGB_IDX
#undef QUANT_LANE_POS

/* Bytes 0-2 of each 16-byte slot: the RGB values; the rest is padding. */
#define QUANT_RGB_KEEP 0x0007000700070007ull

/* 16 RGB pixels (48 values) into 16 slots of 16 bytes: the values packed
 * once, then each 64-byte store (four slots) is one masked VPERMB of
 * them, merged into the zero point. */
SIMA_INLINE void
rgb16_pad16 (const uint8_t *src, const QuantConst *k, SrcType type, int mode,
    uint8_t *dst)
{
  const int64_t e16 = 16 * sima_src_size (type);
  const __m512i c = quant16 (src + 2 * e16, k, type, mode, 0xffff);
  const __m512i v = bytes64_lanes (quant16 (src, k, type, mode, 0xffff),
      quant16 (src + e16, k, type, mode, 0xffff), c, c, k);
  int t;

  for (t = 0; t < 4; t++)
    sima_store64 (dst + 64 * t, _mm512_mask_permutexvar_epi8 (k->zp8,
            QUANT_RGB_KEEP, _mm512_load_si512 (quant_rgb_index[t]), v));
}

/* Two pixels of 16 channels (at s0 and s1) into 32 contiguous bytes. */
SIMA_INLINE void
pixel2x16 (const uint8_t *s0, const uint8_t *s1, const QuantConst *k,
    SrcType type, int mode, uint8_t *dst)
{
  /* after the packs, 128-bit lane i: values 4i..4i+3 of a, of b, again */
  const __m512i order = _mm512_setr_epi32 (0, 4, 8, 12, 1, 5, 9, 13, 0, 0,
      0, 0, 0, 0, 0, 0);
  __m512i a = quant16 (s0, k, type, mode, 0xffff);
  __m512i b = quant16 (s1, k, type, mode, 0xffff);
  __m512i v = bytes64_lanes (a, b, a, b, k);
  sima_store32 (dst, _mm512_castsi512_si256 (_mm512_permutexvar_epi32
          (order, v)));
}

/* Quantizes n contiguous values at src to n bytes; the last partial vector
 * with masked loads and stores. */
SIMA_INLINE void
quant_run (const SimaQuantNumerics *q, const uint8_t *src, int64_t n,
    uint8_t *dst, const QuantConst *k, SrcType type, int mode)
{
  const int64_t esize = sima_src_size (type);
  int64_t i = 0;

  (void) q;
  for (; i + 64 <= n; i += 64)
    sima_store64 (dst + i, quant64 (src + i * esize, k, type, mode));
  for (; i + 16 <= n; i += 16)
    sima_store16 (dst + i, bytes16 (quant16 (src + i * esize, k, type, mode,
                0xffff), k));
  if (i < n) {
    const __mmask16 m = (__mmask16) ((1u << (n - i)) - 1);
    _mm_mask_storeu_epi8 (dst + i, m, bytes16 (quant16 (src + i * esize, k,
                type, mode, m), k));
  }
}

/* Spreads `pixels` pixels of `channels` bytes (in run, `step` >= channels
 * bytes apart) into slots of `stored` bytes, padding with the zero point;
 * stored % 16 == 0. Masked loads merge the values into the zero point and
 * read no byte past a pixel's values. */
SIMA_INLINE void
spread (const uint8_t *run, int64_t pixels, int64_t channels, int64_t step,
    int64_t stored, uint8_t zero_point, uint8_t *dst)
{
  const __m128i zp = _mm_set1_epi8 ((char) zero_point);
  int64_t px, j;

  if (stored == 16) {           /* one slot per pixel: RGB and friends */
    const __mmask16 keep = (__mmask16) ((1u << channels) - 1);
    for (px = 0; px < pixels; px++)
      sima_store16 (dst + px * 16, _mm_mask_loadu_epi8 (zp, keep, run + px
              * step));
    return;
  }
  for (px = 0; px < pixels; px++) {
    const uint8_t *s = run + px * step;
    for (j = 0; j < stored; j += 16) {
      const int64_t valid = channels - j;
      __mmask16 keep;
      if (valid <= 0) {
        sima_store16 (dst + j, zp);
        continue;
      }
      keep = valid >= 16 ? 0xffff : (__mmask16) ((1u << valid) - 1);
      sima_store16 (dst + j, _mm_mask_loadu_epi8 (zp, keep, s + j));
    }
    dst += stored;
  }
}

#include "quant_rows.h"

SIMA_QUANT_LEAF (SIMA_LEAF_NAME (sima_quant_pixels_f32_avx512), SRC_F32)
SIMA_QUANT_LEAF (SIMA_LEAF_NAME (sima_quant_pixels_f16_avx512), SRC_F16)
SIMA_QUANT_LEAF (SIMA_LEAF_NAME (sima_quant_pixels_bf16_avx512), SRC_BF16)
SIMA_QUANT_LEAF (SIMA_LEAF_NAME (sima_quant_pixels_u8_avx512), SRC_U8)
