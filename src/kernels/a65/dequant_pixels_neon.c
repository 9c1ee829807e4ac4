/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NEON leaves for DetessDequant: the same bytes as dequant_pixels_c.c,
 * because they read the same table. The plan's 256 exact results (FP32 or
 * BF16 bits, either convention) are split once per call into byte planes
 * (4 for FP32, 2 for BF16) of 256 bytes with VLD4/VLD2, each plane four
 * 64-byte chunks. 16 INT8 values are then per plane one TBL over the first
 * chunk and three TBX over the others with the index lowered by 64 each
 * time (an index out of a chunk's range leaves the lane alone), and the
 * planes go back together in the store (VST4/VST2 interleave them into
 * little-endian dwords or words). Nothing is computed in lanes, so there
 * is no rounding to get right: the divide convention is as exact as the
 * multiply one, and there is no lanes leaf any more (the lanes version
 * could not serve the divide convention; the table's cost does not
 * depend on the output dtype, where BF16 rounding was half the lanes'
 * work).
 *
 * The shapes are those of dequant_table_rows.h (shared with the AVX-512
 * leaves). Tails of fewer than 16 values go through a small buffer, so no
 * byte outside a row's input or its view elements is touched;
 * test_simd_leaves compares every lane with the scalar leaf at page ends,
 * for tables of both conventions (under qemu-aarch64 on x86 hosts).
 */
#include "dequant_pixels.h"
#include "simd_leaf.h"

#include <arm_neon.h>
#include <string.h>

/* The table's byte planes: t[p][g] holds byte p of results 64g..64g+63. */
typedef struct {
  uint8x16x4_t t[4][4];
} Planes;

/* Once per call: the table as byte planes (the table is the first member
 * of the ctx). VLD4 of 16 FP32 results (VLD2 of 16 BF16 ones) puts byte p
 * of each into register p. */
SIMA_INLINE Planes
split_planes (const SimaA65DequantCtx *ctx, int bf16)
{
  const uint8_t *tab = (const uint8_t *) ctx->table.f32;
  Planes P;
  int m;

  memset (&P, 0, sizeof P);     /* BF16 leaves planes 2 and 3 unused */
  for (m = 0; m < 16; m++) {
    if (bf16) {
      uint8x16x2_t v = vld2q_u8 (tab + 32 * m);
      P.t[0][m / 4].val[m % 4] = v.val[0];
      P.t[1][m / 4].val[m % 4] = v.val[1];
    } else {
      uint8x16x4_t v = vld4q_u8 (tab + 64 * m);
      P.t[0][m / 4].val[m % 4] = v.val[0];
      P.t[1][m / 4].val[m % 4] = v.val[1];
      P.t[2][m / 4].val[m % 4] = v.val[2];
      P.t[3][m / 4].val[m % 4] = v.val[3];
    }
  }
  return P;
}

/* nv vectors of 16 indices -> r[p][k], byte p of the results of idx[k].
 * Chunk by chunk, so that each chunk is loaded once for the nv lookups. */
SIMA_INLINE void
lookup (const Planes *P, const uint8x16_t *idx, int nv, int bf16,
    uint8x16_t r[4][4])
{
  int p, g, k;

  for (p = 0; p < (bf16 ? 2 : 4); p++)
    for (g = 0; g < 4; g++) {
      const uint8x16x4_t t = P->t[p][g];
      for (k = 0; k < nv; k++) {
        uint8x16_t i = vsubq_u8 (idx[k], vdupq_n_u8 ((uint8_t) (64 * g)));
        r[p][k] = g == 0 ? vqtbl4q_u8 (t, i) : vqtbx4q_u8 (r[p][k], t, i);
      }
    }
}

/* The first n (<= 16) results of vector k of r at d, contiguous. */
SIMA_INLINE void
store_n (uint8_t *d, uint8x16_t r[4][4], int k, int64_t n, int bf16)
{
  uint8_t tmp[64];
  uint8_t *to = n == 16 ? d : tmp;

  if (bf16) {
    uint8x16x2_t v = { { r[0][k], r[1][k] } };
    vst2q_u8 (to, v);
  } else {
    uint8x16x4_t v = { { r[0][k], r[1][k], r[2][k], r[3][k] } };
    vst4q_u8 (to, v);
  }
  if (n < 16)
    memcpy (d, tmp, (size_t) n * (bf16 ? 2 : 4));
}

/* The first n (<= 16) bytes at s, the rest zero. */
SIMA_INLINE uint8x16_t
load_n (const uint8_t *s, int64_t n)
{
  uint8_t tmp[16] = { 0 };

  if (n >= 16)
    return vld1q_u8 (s);
  memcpy (tmp, s, (size_t) n);
  return vld1q_u8 (tmp);
}

/* n contiguous INT8 values -> n contiguous results, 64 at a time. */
SIMA_INLINE void
deq_run (const Planes *P, const uint8_t *s, int64_t n, uint8_t *d, int bf16)
{
  const int64_t esize = bf16 ? 2 : 4;
  uint8x16_t idx[4], r[4][4];
  int64_t i;
  int k;

  for (i = 0; i + 64 <= n; i += 64) {
    for (k = 0; k < 4; k++)
      idx[k] = vld1q_u8 (s + i + 16 * k);
    lookup (P, idx, 4, bf16, r);
    for (k = 0; k < 4; k++)
      store_n (d + (i + 16 * k) * esize, r, k, 16, bf16);
  }
  for (; i < n; i += 16) {
    const int64_t m = n - i < 16 ? n - i : 16;
    idx[0] = load_n (s + i, m);
    lookup (P, idx, 1, bf16, r);
    store_n (d + i * esize, r, 0, m, bf16);
  }
}

/* One row of 16-channel pixels (stored 16, inputs contiguous) at any pixel
 * stride: one index vector per pixel, four pixels per lookup. */
SIMA_INLINE void
deq_c16_row (const Planes *P, const uint8_t *s, int64_t pixels, uint8_t *d,
    int64_t pixel_stride, int bf16)
{
  uint8x16_t idx[4], r[4][4];
  int64_t px;
  int k;

  for (px = 0; px + 4 <= pixels; px += 4) {
    for (k = 0; k < 4; k++)
      idx[k] = vld1q_u8 (s + 16 * (px + k));
    lookup (P, idx, 4, bf16, r);
    for (k = 0; k < 4; k++)
      store_n (d + (px + k) * pixel_stride, r, k, 16, bf16);
  }
  for (; px < pixels; px++) {
    idx[0] = vld1q_u8 (s + 16 * px);
    lookup (P, idx, 1, bf16, r);
    store_n (d + px * pixel_stride, r, 0, 16, bf16);
  }
}

/* RGB from pad16 slots: index vector k of 16 pixels holds results
 * 16k..16k+15, result e being channel e % C of pixel e / C, byte
 * 16 (e / C) + e % C of the slots; vector k reads slots 4k..4k+7 (two
 * TBL chunks: for C = 3 its pixels 16k/3..(16k+15)/3 stay below slot
 * 4k+8, for C = 4 they are slots 4k..4k+3), so the entry is that byte
 * less 64k. */
#define RGB_AT(k, j, C) ((16 * (((k) * 16 + (j)) / (C)) + ((k) * 16 + (j))   \
        % (C)) - 64 * (k))
#define RGB_ROW(k, C) {                                                   \
    RGB_AT (k, 0, C), RGB_AT (k, 1, C), RGB_AT (k, 2, C), RGB_AT (k, 3, C),   \
    RGB_AT (k, 4, C), RGB_AT (k, 5, C), RGB_AT (k, 6, C), RGB_AT (k, 7, C),   \
    RGB_AT (k, 8, C), RGB_AT (k, 9, C), RGB_AT (k, 10, C), RGB_AT (k, 11, C), \
    RGB_AT (k, 12, C), RGB_AT (k, 13, C), RGB_AT (k, 14, C), RGB_AT (k, 15, C)}
static const uint8_t rgb_slot_gather[2][4][16] = {
  {RGB_ROW (0, 3), RGB_ROW (1, 3), RGB_ROW (2, 3), RGB_ROW (3, 3)},
  {RGB_ROW (0, 4), RGB_ROW (1, 4), RGB_ROW (2, 4), RGB_ROW (3, 4)}
};
#undef RGB_ROW
#undef RGB_AT

/* One row of contiguous 3-4 channel pixels from 16-byte slots, 16 pixels
 * (C index vectors) per lookup; a tail of fewer than 16 pixels is copied
 * into a zeroed buffer of 16 slots first. */
SIMA_INLINE void
deq_rgb16_row (const Planes *P, const uint8_t *s, int64_t pixels,
    int64_t channels, uint8_t *d, int bf16)
{
  const int64_t esize = bf16 ? 2 : 4;
  const int nv = (int) channels;        /* 16 * C values, 16 per vector */
  uint8x16_t idx[4], r[4][4];
  uint8_t tail[256];
  int64_t px;
  int k;

  for (px = 0; px < pixels; px += 16) {
    const int64_t n = pixels - px < 16 ? pixels - px : 16;
    const uint8_t *q = s + 16 * px;
    uint8x16x4_t slots[5];
    if (n < 16) {
      memset (tail, 0, sizeof tail);
      memcpy (tail, q, (size_t) (16 * n));
      q = tail;
    }
    for (k = 0; k < 4; k++)
      slots[k] = vld1q_u8_x4 (q + 64 * k);
    slots[4] = slots[3];        /* vector 3 (C = 4) needs no second chunk */
    for (k = 0; k < nv; k++) {
      const uint8x16_t g = vld1q_u8 (rgb_slot_gather[channels - 3][k]);
      idx[k] = vqtbx4q_u8 (vqtbl4q_u8 (slots[k], g), slots[k + 1],
          vsubq_u8 (g, vdupq_n_u8 (64)));
    }
    lookup (P, idx, nv, bf16, r);
    for (k = 0; k < nv; k++) {
      const int64_t left = n * channels - 16 * k;
      if (left > 0)
        store_n (d + (px * channels + 16 * k) * esize, r, k,
            left < 16 ? left : 16, bf16);
    }
  }
}

#include "dequant_table_rows.h"

SIMA_DEQUANT_TABLE_LEAF (sima_dequant_pixels_f32_neon, 0)
SIMA_DEQUANT_TABLE_LEAF (sima_dequant_pixels_bf16_neon, 1)
