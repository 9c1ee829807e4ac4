/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX-512 (F, BW, VL, VBMI) leaves for CastTess: the same bytes as
 * cast_pixels_c.c, 16 values per ZMM register.
 *
 * Integer arithmetic only, lane for lane the scalar rule
 * (numerics/bf16_convert.h), as in cast_pixels_avx2.c: FP32 -> BF16 is
 * bits + 0x7fff + lsb, NaN effects included (VCVTNEPS2BF16 of AVX512_BF16
 * is not used: it quiets NaNs and flushes subnormals to zero, neither of
 * which the rule does, and many AVX-512 CPUs lack it); FP16 widens exactly with
 * VCVTPH2PS, then the same rule except NaN lanes, which are truncated
 * (the spec's sign | 0x7fc0 | high payload bits is the top half of the
 * widened NaN); BF16 is copied; UINT8 converts exactly with VCVTDQ2PS and
 * keeps the top half (at most 8 significant bits: the rounding never acts).
 * VCVTPH2PS raises Invalid on a signalling NaN, a sticky flag that
 * sima_fp_leave clears again (cpu.h).
 *
 * The BF16 pattern of each value is left in the top half of its 32-bit
 * lane, and the RGB row spread picks those bytes directly: each 64-byte
 * store (two 32-byte slots: 3 low bytes, 13 zeros, 3 high bytes, 13
 * zeros) is one zero-masked VPERMI2B over two of the three vectors that
 * hold 16 pixels. Channel runs of 8 or more go 8 at a time (cast_rows.h),
 * other rows use the scalar reference.
 */
#include "cast_pixels.h"
#include "simd_leaf.h"

#include <immintrin.h>

#include "../numerics/bf16_convert.h"
#include "load.h"

/* 16 values (the lanes of m, a constant in every caller; the others are
 * not read) -> their BF16 patterns in the high halves of 32-bit lanes;
 * the low halves are garbage. */
SIMA_INLINE __m512i
bf16x16_high (const uint8_t *p, SrcType type, __mmask16 m)
{
  __m512i bits;
  __m256i h;

  switch (type) {
    case SRC_BF16:
      h = m == 0xffff ? _mm256_loadu_si256 ((const __m256i *) (const void *)
          p) : _mm256_maskz_loadu_epi16 (m, p);
      return _mm512_slli_epi32 (_mm512_cvtepu16_epi32 (h), 16);
    case SRC_U8:                /* exact in binary32 and in BF16 */
      return _mm512_castps_si512 (_mm512_cvtepi32_ps (_mm512_cvtepu8_epi32
              (m == 0xffff ? _mm_loadu_si128 ((const __m128i *) (const void *)
                      p) : _mm_maskz_loadu_epi8 (m, p))));
    case SRC_F32:
      bits = m == 0xffff ? _mm512_loadu_si512 (p)
          : _mm512_maskz_loadu_epi32 (m, p);
      return _mm512_add_epi32 (bits, sima_bf16_addend16 (bits));
    default:                    /* SRC_F16 */
      h = m == 0xffff ? _mm256_loadu_si256 ((const __m256i *) (const void *)
          p) : _mm256_maskz_loadu_epi16 (m, p);
      bits = _mm512_castps_si512 (_mm512_cvtph_ps (h));
      /* only lanes with |bits| <= infinity round; NaN lanes keep their
       * bits (truncated) */
      return _mm512_mask_add_epi32 (bits, _mm512_cmple_epi32_mask
          (_mm512_and_si512 (bits, _mm512_set1_epi32 (0x7fffffff)),
              _mm512_set1_epi32 (0x7f800000)), bits,
          sima_bf16_addend16 (bits));
  }
}

/* VPERMI2B indices for rgb16_pad16: store t holds the slots of pixels 2t
 * and 2t + 1 (bytes 0-31 and 32-63); slot byte w < 3 is the low byte of
 * channel w, 16 <= w < 19 the high byte of channel w - 16, the others
 * zero (masked off, index unused). Value v = 3 * pixel + channel has its
 * low byte at byte 4v + 2 and its high byte at 4v + 3 of the 128-byte
 * pair (a, b) for stores 0-4 (values 0-29), of the pair (b, c) for stores
 * 5-7 (values 30-47, v - 16 there). */
#define CAST_W(o) ((o) % 32)
#define CAST_V(t, o) (3 * (2 * (t) + (o) / 32) + CAST_W (o) % 16)
#define CAST_RGB_IDX(t, o) (CAST_W (o) % 16 < 3 ? 4 * (CAST_V (t, o) \
          - ((t) >= 5 ? 16 : 0)) + (CAST_W (o) < 16 ? 2 : 3) : 0)
#define CAST_RGB_X8(t, o) CAST_RGB_IDX (t, o), CAST_RGB_IDX (t, o + 1), \
    CAST_RGB_IDX (t, o + 2), CAST_RGB_IDX (t, o + 3), \
    CAST_RGB_IDX (t, o + 4), CAST_RGB_IDX (t, o + 5), \
    CAST_RGB_IDX (t, o + 6), CAST_RGB_IDX (t, o + 7)
#define CAST_RGB_ROW(t) { CAST_RGB_X8 (t, 0), CAST_RGB_X8 (t, 8), \
    CAST_RGB_X8 (t, 16), CAST_RGB_X8 (t, 24), CAST_RGB_X8 (t, 32), \
    CAST_RGB_X8 (t, 40), CAST_RGB_X8 (t, 48), CAST_RGB_X8 (t, 56) }
static const uint8_t cast_rgb_index[8][64] __attribute__ ((aligned (64))) = {
  CAST_RGB_ROW (0), CAST_RGB_ROW (1), CAST_RGB_ROW (2), CAST_RGB_ROW (3),
  CAST_RGB_ROW (4), CAST_RGB_ROW (5), CAST_RGB_ROW (6), CAST_RGB_ROW (7)
};
#undef CAST_RGB_ROW
#undef CAST_RGB_X8
#undef CAST_RGB_IDX
#undef CAST_V
#undef CAST_W

/* Bytes 0-2 and 16-18 of each 32-byte slot. */
#define CAST_RGB_KEEP 0x0007000700070007ull

/* 16 RGB pixels into 16 slots of 32 bytes, two slots per store. */
SIMA_INLINE void
rgb16_pad16 (const uint8_t *src, SrcType type, uint8_t *dst)
{
  const int64_t e16 = 16 * sima_src_size (type);
  const __m512i a = bf16x16_high (src, type, 0xffff);
  const __m512i b = bf16x16_high (src + e16, type, 0xffff);
  const __m512i c = bf16x16_high (src + 2 * e16, type, 0xffff);
  int t;

  for (t = 0; t < 8; t++) {
    const __m512i idx = _mm512_load_si512 (cast_rgb_index[t]);
    sima_store64 (dst + 64 * t, t < 5
        ? _mm512_maskz_permutex2var_epi8 (CAST_RGB_KEEP, a, idx, b)
        : _mm512_maskz_permutex2var_epi8 (CAST_RGB_KEEP, b, idx, c));
  }
}

/* 8 values at s -> their 8 low bytes at lo, 8 high bytes at hi (VPMOVDB
 * truncates each lane to its low byte). */
SIMA_INLINE void
cast8 (const uint8_t *s, SrcType type, uint8_t *lo, uint8_t *hi)
{
  const __m512i v = bf16x16_high (s, type, 0xff);
  _mm_storel_epi64 ((__m128i *) (void *) lo, _mm512_cvtepi32_epi8
      (_mm512_srli_epi32 (v, 16)));
  _mm_storel_epi64 ((__m128i *) (void *) hi, _mm512_cvtepi32_epi8
      (_mm512_srli_epi32 (v, 24)));
}

#include "cast_rows.h"

SIMA_CAST_LEAF (SIMA_LEAF_NAME (sima_cast_pixels_f32_avx512), SRC_F32)
SIMA_CAST_LEAF (SIMA_LEAF_NAME (sima_cast_pixels_f16_avx512), SRC_F16)
SIMA_CAST_LEAF (SIMA_LEAF_NAME (sima_cast_pixels_bf16_avx512), SRC_BF16)
SIMA_CAST_LEAF (SIMA_LEAF_NAME (sima_cast_pixels_u8_avx512), SRC_U8)
