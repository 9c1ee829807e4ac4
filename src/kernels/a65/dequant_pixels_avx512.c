/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX-512 leaves for DetessDequant: the same bytes as dequant_pixels_c.c,
 * because they read the same table. The plan's 256 exact results (FP32 or
 * BF16 bits, either convention) are split once per call into byte planes
 * (4 for FP32, 2 for BF16) of 256 bytes, each plane in 4 zmm registers.
 * 64 INT8 values are then one VPERMI2B per half plane (128 entries, the
 * index's low 7 bits) and a blend on the index's top bit, per plane; the
 * planes are interleaved back into dwords or words with unpacks. Nothing
 * is computed in lanes, so there is no rounding to get right: the divide
 * convention is as fast and as exact as the multiply one.
 *
 * The unpacks interleave inside 128-bit lanes, so the 64 input values are
 * first permuted (VPERMB, folded into the gather index where the bytes
 * need gathering anyway) into the order that makes the unpacked registers
 * hold consecutive results: out[k] = results 16k..16k+15 (FP32) or
 * 32k..32k+31 (BF16).
 *
 * The shapes (dequant_table_rows.h, shared with the NEON table leaves):
 * contiguous rows (stored == channels) 64 values per lookup whatever the
 * channel count, 16-channel runs four pixels per lookup, RGB rows from
 * pad16 slots 16 pixels (4 loads, one gather) per lookup, other channel
 * runs of 8 or more 64 values of one pixel at a time; everything else
 * goes to the scalar reference. Tails use masked
 * loads and stores (fault-suppressing): no byte outside a row's input or
 * its view elements is touched. test_simd_leaves compares it with the
 * scalar leaf at page ends, for tables of both conventions.
 */
#include "dequant_pixels.h"
#include "simd_leaf.h"

#include <immintrin.h>

/* The table's byte planes: t[p][g] holds byte p of results 64g..64g+63. */
typedef struct {
  __m512i t[4][4];
} Planes;

/* Index vectors of 64 bytes built from a formula of the position v. */
#define IX4(F, v) F (v), F ((v) + 1), F ((v) + 2), F ((v) + 3)
#define IX16(F, v) IX4 (F, v), IX4 (F, (v) + 4), IX4 (F, (v) + 8),           \
    IX4 (F, (v) + 12)
#define IX64(F) { IX16 (F, 0), IX16 (F, 16), IX16 (F, 32), IX16 (F, 48) }

/* The input order that the unpacks turn into result order: lane L of
 * out[k] holds positions 16L + 4k + j (FP32, j < 4) or 16L + 8k + j (BF16,
 * j < 8), which must be results 16k + 4L + j or 32k + 8L + j. */
#define ORDER32(v) ((((v) >> 2) & 3) * 16 + ((v) >> 4) * 4 + ((v) & 3))
#define ORDER16(v) ((((v) >> 3) & 1) * 32 + ((v) >> 4) * 8 + ((v) & 7))
/* RGB from pad16 slots: result e is channel e % C of pixel e / C, byte
 * 16 (e / C) + e % C of the 256 loaded (results past 16 pixels: any byte). */
#define SLOT(e, C) ((e) < 16 * (C) ? (e) / (C) * 16 + (e) % (C) : 0)
#define RGB32_3(v) SLOT (ORDER32 (v), 3)
#define RGB32_4(v) SLOT (ORDER32 (v), 4)
#define RGB16_3(v) SLOT (ORDER16 (v), 3)
#define RGB16_4(v) SLOT (ORDER16 (v), 4)
/* The plane split: FP32 byte 4i + p of two registers of 16 results, plane
 * pair (p, p + 1) as [A p | B p | A p+1 | B p+1]; BF16 byte 2i + p of two
 * registers of 32 results. Bit 6 picks the second register. */
#define SPLIT32(v, p) (((v) & 16) << 2 | ((v) & 15) * 4 | ((p) + ((v) >> 5)))
#define SPLIT32_01(v) SPLIT32 (v, 0)
#define SPLIT32_23(v) SPLIT32 (v, 2)
#define SPLIT16(v, p) (((v) & 32) << 1 | ((v) & 31) * 2 | (p))
#define SPLIT16_0(v) SPLIT16 (v, 0)
#define SPLIT16_1(v) SPLIT16 (v, 1)

static const uint8_t order32[64] __attribute__ ((aligned (64))) =
    IX64 (ORDER32);
static const uint8_t order16[64] __attribute__ ((aligned (64))) =
    IX64 (ORDER16);
static const uint8_t rgb_gather[2][2][64] __attribute__ ((aligned (64))) = {
  {IX64 (RGB32_3), IX64 (RGB32_4)}, {IX64 (RGB16_3), IX64 (RGB16_4)}
};
static const uint8_t split32[2][64] __attribute__ ((aligned (64))) = {
  IX64 (SPLIT32_01), IX64 (SPLIT32_23)
};
static const uint8_t split16[2][64] __attribute__ ((aligned (64))) = {
  IX64 (SPLIT16_0), IX64 (SPLIT16_1)
};

SIMA_INLINE __m512i
load64 (const uint8_t *p)
{
  return _mm512_loadu_si512 ((const void *) p);
}

/* The first n of 64 bytes (n may exceed 64, or be 0 or less). */
SIMA_INLINE __mmask64
first_bytes (int64_t n)
{
  return n >= 64 ? ~(__mmask64) 0 : n <= 0 ? 0
      : ((__mmask64) 1 << n) - 1;
}

SIMA_INLINE __m512i
load_n (const uint8_t *p, int64_t n)
{
  return n >= 64 ? load64 (p) : _mm512_maskz_loadu_epi8 (first_bytes (n), p);
}

/* The same for the k-th 64 bytes at p: no address past the n bytes is
 * formed when that part is empty (a pointer beyond its object). */
SIMA_INLINE __m512i
load_part (const uint8_t *p, int k, int64_t n)
{
  return n > 64 * k ? load_n (p + 64 * k, n - 64 * k)
      : _mm512_setzero_si512 ();
}

/* Once per call: the table as byte planes (the table is the first member
 * of the ctx, 1024 bytes for FP32, 512 for BF16). */
SIMA_INLINE Planes
split_planes (const SimaA65DequantCtx *ctx, int bf16)
{
  const uint8_t *tab = (const uint8_t *) ctx->table.f32;
  Planes P;
  int g, p;

  if (bf16) {
    const __m512i i0 = load64 (split16[0]), i1 = load64 (split16[1]);
    for (g = 0; g < 4; g++) {
      __m512i a = load64 (tab + 128 * g), b = load64 (tab + 128 * g + 64);
      P.t[0][g] = _mm512_permutex2var_epi8 (a, i0, b);
      P.t[1][g] = _mm512_permutex2var_epi8 (a, i1, b);
      P.t[2][g] = P.t[3][g] = _mm512_setzero_si512 ();    /* unused */
    }
    return P;
  }
  for (p = 0; p < 4; p += 2) {
    const __m512i ix = load64 (split32[p / 2]);
    for (g = 0; g < 4; g++) {
      const uint8_t *q = tab + 256 * g;
      __m512i ab = _mm512_permutex2var_epi8 (load64 (q), ix, load64 (q + 64));
      __m512i cd = _mm512_permutex2var_epi8 (load64 (q + 128), ix,
          load64 (q + 192));
      P.t[p][g] = _mm512_shuffle_i64x2 (ab, cd, _MM_SHUFFLE (1, 0, 1, 0));
      P.t[p + 1][g] = _mm512_shuffle_i64x2 (ab, cd, _MM_SHUFFLE (3, 2, 3, 2));
    }
  }
  return P;
}

/* Byte p of the results of the 64 indices in idx (top: their top bits). */
SIMA_INLINE __m512i
plane_lookup (const __m512i t[4], __m512i idx, __mmask64 top)
{
  __m512i lo = _mm512_permutex2var_epi8 (t[0], idx, t[1]);
  __m512i hi = _mm512_permutex2var_epi8 (t[2], idx, t[3]);
  return _mm512_mask_blend_epi8 (top, lo, hi);
}

/* 64 INT8 values already in the ORDER32 / ORDER16 arrangement -> out[0..3]
 * (FP32: 16 results each) or out[0..1] (BF16: 32 each), in result order. */
SIMA_INLINE void
lookup_ordered (const Planes *P, __m512i idx, int bf16, __m512i out[4])
{
  const __mmask64 top = _mm512_movepi8_mask (idx);
  __m512i b0 = plane_lookup (P->t[0], idx, top);
  __m512i b1 = plane_lookup (P->t[1], idx, top);

  if (bf16) {
    out[0] = _mm512_unpacklo_epi8 (b0, b1);
    out[1] = _mm512_unpackhi_epi8 (b0, b1);
  } else {
    __m512i b2 = plane_lookup (P->t[2], idx, top);
    __m512i b3 = plane_lookup (P->t[3], idx, top);
    __m512i w_lo = _mm512_unpacklo_epi8 (b0, b1);
    __m512i w_hi = _mm512_unpackhi_epi8 (b0, b1);
    __m512i x_lo = _mm512_unpacklo_epi8 (b2, b3);
    __m512i x_hi = _mm512_unpackhi_epi8 (b2, b3);
    out[0] = _mm512_unpacklo_epi16 (w_lo, x_lo);
    out[1] = _mm512_unpackhi_epi16 (w_lo, x_lo);
    out[2] = _mm512_unpacklo_epi16 (w_hi, x_hi);
    out[3] = _mm512_unpackhi_epi16 (w_hi, x_hi);
  }
}

/* 64 INT8 values in input order -> results in result order. */
SIMA_INLINE void
lookup64 (const Planes *P, __m512i v, int bf16, __m512i out[4])
{
  lookup_ordered (P, _mm512_permutexvar_epi8 (load64 (bf16 ? order16
              : order32), v), bf16, out);
}

/* The first n (<= 64) results of out at d, contiguous. */
SIMA_INLINE void
store_n (uint8_t *d, const __m512i out[4], int64_t n, int bf16)
{
  const int64_t per = bf16 ? 32 : 16;
  int k;

  for (k = 0; k < (bf16 ? 2 : 4); k++) {
    const int64_t left = n - per * k;
    void *p = d + 64 * k;
    if (left >= per)
      _mm512_storeu_si512 (p, out[k]);
    else if (left > 0 && bf16)
      _mm512_mask_storeu_epi16 (p, (__mmask32) (((uint64_t) 1 << left) - 1),
          out[k]);
    else if (left > 0)
      _mm512_mask_storeu_epi32 (p, (__mmask16) ((1u << left) - 1), out[k]);
  }
}

/* n contiguous INT8 values -> n contiguous results, 64 at a time. */
SIMA_INLINE void
deq_run (const Planes *P, const uint8_t *s, int64_t n, uint8_t *d, int bf16)
{
  const int64_t esize = bf16 ? 2 : 4;
  __m512i out[4];
  int64_t i;

  for (i = 0; i + 64 <= n; i += 64) {
    lookup64 (P, load64 (s + i), bf16, out);
    store_n (d + i * esize, out, 64, bf16);
  }
  if (i < n) {
    lookup64 (P, load_n (s + i, n - i), bf16, out);
    store_n (d + i * esize, out, n - i, bf16);
  }
}

/* One row of 16-channel pixels (stored 16, inputs contiguous) at any pixel
 * stride: four pixels per lookup, result register k (FP32) or half k of
 * register k / 2 (BF16) is pixel k. */
SIMA_INLINE void
deq_c16_row (const Planes *P, const uint8_t *s, int64_t pixels, uint8_t *d,
    int64_t pixel_stride, int bf16)
{
  __m512i out[4];
  int64_t px;
  int k;

  for (px = 0; px < pixels; px += 4) {
    const int64_t n = pixels - px < 4 ? pixels - px : 4;
    lookup64 (P, load_n (s + 16 * px, 16 * n), bf16, out);
    for (k = 0; k < n; k++) {
      void *p = d + (px + k) * pixel_stride;
      if (bf16)
        _mm256_storeu_si256 (p, k & 1 ? _mm512_extracti64x4_epi64 (out[k / 2],
                1) : _mm512_castsi512_si256 (out[k / 2]));
      else
        _mm512_storeu_si512 (p, out[k]);
    }
  }
}

/* One row of contiguous 3-4 channel pixels from 16-byte slots: 16 pixels
 * (256 bytes, four loads) per lookup; the gather index picks the value
 * bytes in result order (padding never reaches a result) with two
 * VPERMI2B and a blend on bit 7, as the table lookup does. */
SIMA_INLINE void
deq_rgb16_row (const Planes *P, const uint8_t *s, int64_t pixels,
    int64_t channels, uint8_t *d, int bf16)
{
  const __m512i gather = load64 (rgb_gather[bf16][channels - 3]);
  const __mmask64 top = _mm512_movepi8_mask (gather);
  const int64_t esize = bf16 ? 2 : 4;
  __m512i out[4];
  int64_t px;

  for (px = 0; px < pixels; px += 16) {
    const uint8_t *q = s + 16 * px;
    const int64_t n = pixels - px < 16 ? pixels - px : 16;
    const int64_t bytes = 16 * n;
    __m512i a = load_part (q, 0, bytes), b = load_part (q, 1, bytes);
    __m512i c = load_part (q, 2, bytes), e = load_part (q, 3, bytes);
    __m512i v = _mm512_mask_blend_epi8 (top, _mm512_permutex2var_epi8 (a,
            gather, b), _mm512_permutex2var_epi8 (c, gather, e));
    lookup_ordered (P, v, bf16, out);
    store_n (d + px * channels * esize, out, n * channels, bf16);
  }
}

#include "dequant_table_rows.h"

SIMA_DEQUANT_TABLE_LEAF (sima_dequant_pixels_f32_avx512, 0)
SIMA_DEQUANT_TABLE_LEAF (sima_dequant_pixels_bf16_avx512, 1)
