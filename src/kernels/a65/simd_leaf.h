/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simd_leaf.h - what every per-ISA leaf file shares: the source types, the
 * forced inlining that makes them (and the rounding mode) constants in the
 * vector loops, the BF16 rounding addend in lanes (one per ISA), the
 * AVX-512 stores and their streaming build (SIMA_LEAF_STREAM), the
 * positions of RGB pixels in 16-byte vectors, the fall-back to the scalar
 * reference for rows no fast path covers, the scalar tails, and the entry
 * points, which hand a call's rows to quant_rows, cast_rows,
 * dequant_rows and detess_cast_rows (quant_rows.h, cast_rows.h,
 * dequant_rows.h, detess_cast_rows.h, the same row
 * drivers over each ISA file's vector code; for QuantTess the entry points
 * turn the plan's rounding mode into a constant). Included by *_avx2.c,
 * *_avx512.c and *_neon.c only.
 */
#ifndef SIMA_KERNELS_A65_SIMD_LEAF_H
#define SIMA_KERNELS_A65_SIMD_LEAF_H

#include "cast_pixels.h"
#include "dequant_pixels.h"
#include "detess_cast_pixels.h"
#include "load.h"
#include "quant_pixels.h"
#include "source_value.h"

#define SIMA_INLINE static inline __attribute__ ((always_inline))

/* The BF16 rule of numerics/bf16_convert.h in lanes: what is added to
 * binary32 bits before their top half is kept, 0x7fff plus the lowest
 * kept bit (round to nearest, ties to even, NaN effects included). */
#if defined(__AVX2__)
#include <immintrin.h>

SIMA_INLINE __m256i
sima_bf16_addend8 (__m256i bits)
{
  return _mm256_add_epi32 (_mm256_set1_epi32 (0x7fff), _mm256_and_si256
      (_mm256_srli_epi32 (bits, 16), _mm256_set1_epi32 (1)));
}

SIMA_INLINE __m128i
sima_bf16_addend4 (__m128i bits)
{
  return _mm_add_epi32 (_mm_set1_epi32 (0x7fff), _mm_and_si128
      (_mm_srli_epi32 (bits, 16), _mm_set1_epi32 (1)));
}

/* ---- AVX-512 (F, BW, VL, VBMI: the *_avx512.c files) ---- */
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) \
    && defined(__AVX512VBMI__)
SIMA_INLINE __m512i
sima_bf16_addend16 (__m512i bits)
{
  return _mm512_add_epi32 (_mm512_set1_epi32 (0x7fff), _mm512_and_si512
      (_mm512_srli_epi32 (bits, 16), _mm512_set1_epi32 (1)));
}

/* The streaming build: meson compiles each *_avx512.c file that has
 * streaming leaves a second time with -DSIMA_LEAF_STREAM, and every leaf
 * it names with SIMA_LEAF_NAME gets the suffix _stream. Those leaves write
 * their whole aligned vectors with non-temporal stores (the executor picks
 * them at prepare for outputs of sima_cpu_stream_bytes () or more, and
 * fences once per thread after its part, cpu.h); unaligned vectors, masked
 * tails and partial slots take ordinary stores, so the bytes are the same
 * and only the cache traffic changes. Streams of 16 or 32 bytes fill whole
 * lines when the leaf writes their neighbours next, which every caller
 * does (slots in order). */
#ifdef SIMA_LEAF_STREAM
#define SIMA_LEAF_NAME(name) name##_stream
#define SIMA_STREAM_IF(p, align, nt, plain)                                   \
  do {                                                                        \
    if (((uintptr_t) (p) & ((align) - 1)) == 0)                               \
      nt;                                                                     \
    else                                                                      \
      plain;                                                                  \
  } while (0)
#else
#define SIMA_LEAF_NAME(name) name
#define SIMA_STREAM_IF(p, align, nt, plain) plain
#endif

SIMA_INLINE void
sima_store32 (uint8_t *p, __m256i v)
{
  SIMA_STREAM_IF (p, 32, _mm256_stream_si256 ((__m256i *) (void *) p, v),
      _mm256_storeu_si256 ((__m256i *) (void *) p, v));
}

SIMA_INLINE void
sima_store16 (uint8_t *p, __m128i v)
{
  SIMA_STREAM_IF (p, 16, _mm_stream_si128 ((__m128i *) (void *) p, v),
      _mm_storeu_si128 ((__m128i *) (void *) p, v));
}

/* A 64-byte store that never splits a cache line when p is 32-byte
 * aligned: one ZMM store at a 64-byte boundary (streamed in the streaming
 * build), two YMM halves otherwise. A ZMM store that straddles two lines
 * costs both (measured: the RGB QuantTess rows 20% slower than the AVX2
 * leaf into a buffer at 32 mod 64, as fast at 0 mod 64); the branch
 * follows the row's alignment, which changes only between rows. */
SIMA_INLINE void
sima_store64 (uint8_t *p, __m512i v)
{
  if (((uintptr_t) p & 63) == 0) {
#ifdef SIMA_LEAF_STREAM
    _mm512_stream_si512 ((void *) p, v);
#else
    _mm512_storeu_si512 (p, v);
#endif
    return;
  }
  sima_store32 (p, _mm512_castsi512_si256 (v));
  sima_store32 (p + 32, _mm512_extracti64x4_epi64 (v, 1));
}
#endif
#elif defined(__ARM_NEON)
#include <arm_neon.h>

SIMA_INLINE uint32x4_t
sima_bf16_addend4 (uint32x4_t bits)
{
  return vaddq_u32 (vdupq_n_u32 (0x7fff), vandq_u32 (vshrq_n_u32 (bits, 16),
          vdupq_n_u32 (1)));
}
#endif

/* 16 RGB pixels are 48 bytes in three 16-byte vectors: row p holds the
 * positions of pixel p's 3 bytes in the vector that holds them (pixels 5
 * and 10 cross into the next vector: positions in the pair), the other 13
 * entries out of range (a table lookup writes its default there). The
 * NEON leaves spread RGB rows into slots with it, one TBL/TBX per slot. */
#define SIMA_RGB_AT(o) { o, o + 1, o + 2, 255, 255, 255, 255, 255, 255,      \
    255, 255, 255, 255, 255, 255, 255 }
static const uint8_t sima_rgb16_slot_index[16][16] = {
  SIMA_RGB_AT (0), SIMA_RGB_AT (3), SIMA_RGB_AT (6), SIMA_RGB_AT (9),
  SIMA_RGB_AT (12), SIMA_RGB_AT (15), SIMA_RGB_AT (2), SIMA_RGB_AT (5),
  SIMA_RGB_AT (8), SIMA_RGB_AT (11), SIMA_RGB_AT (14), SIMA_RGB_AT (1),
  SIMA_RGB_AT (4), SIMA_RGB_AT (7), SIMA_RGB_AT (10), SIMA_RGB_AT (13)
};
#undef SIMA_RGB_AT

/* Rows the SIMD paths do not cover: the scalar reference leaf of the same
 * source type (indexed by SrcType), same bytes. */
SIMA_INLINE void
sima_quant_pixels_fallback (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored, uint8_t *dst, SrcType type)
{
  static const SimaA65PackFn c[] = { sima_quant_pixels_f32_c,
    sima_quant_pixels_f16_c, sima_quant_pixels_bf16_c, sima_quant_pixels_u8_c
  };
  c[type] (ctx, src, pixel_stride, channel_stride, pixels, channels, stored,
      dst, 1, 0);
}

/* A QuantTess leaf `name` for source TYPE, over the including file's
 * quant_rows (ctx, src, pixel_stride, channel_stride, pixels, channels,
 * stored, dst, rows, row_stride, type, mode) for the rows of a call: one
 * instance per rounding mode, so that the mode is a constant in it. */
#define SIMA_QUANT_LEAF_ROWS(SRC, MODE)                                       \
  quant_rows (ctx, src, pixel_stride, channel_stride, pixels, channels,       \
      stored_channels, dst, rows, row_stride, SRC, MODE)
#define SIMA_QUANT_LEAF(name, TYPE)                                           \
  void                                                                        \
  name (const void *ctx, const uint8_t *src, int64_t pixel_stride,            \
      int64_t channel_stride, int64_t pixels, int64_t channels,               \
      int64_t stored_channels, uint8_t *dst, int64_t rows,                    \
      int64_t row_stride)                                                     \
  {                                                                           \
    switch (((const SimaQuantNumerics *) ctx)->rounding) {                    \
      case SIMA_ROUNDING_TOWARD_ZERO:                                         \
        SIMA_QUANT_LEAF_ROWS (TYPE, SIMA_ROUNDING_TOWARD_ZERO);               \
        break;                                                                \
      case SIMA_ROUNDING_TOWARD_POSITIVE:                                     \
        SIMA_QUANT_LEAF_ROWS (TYPE, SIMA_ROUNDING_TOWARD_POSITIVE);           \
        break;                                                                \
      case SIMA_ROUNDING_TOWARD_NEGATIVE:                                     \
        SIMA_QUANT_LEAF_ROWS (TYPE, SIMA_ROUNDING_TOWARD_NEGATIVE);           \
        break;                                                                \
      default:                                                                \
        SIMA_QUANT_LEAF_ROWS (TYPE, SIMA_ROUNDING_NEAREST_EVEN);              \
        break;                                                                \
    }                                                                         \
  }

/* ---- CastTess ---------------------------------------------------------- */

SIMA_INLINE void
sima_cast_pixels_fallback (const uint8_t *src, int64_t pixel_stride,
    int64_t channel_stride, int64_t pixels, int64_t channels, int64_t stored,
    uint8_t *dst, SrcType type)
{
  static const SimaA65PackFn c[] = { sima_cast_pixels_f32_c,
    sima_cast_pixels_f16_c, sima_cast_pixels_bf16_c, sima_cast_pixels_u8_c
  };
  c[type] (NULL, src, pixel_stride, channel_stride, pixels, channels, stored,
      dst, 1, 0);
}

/* A CastTess leaf over the including file's cast_rows (src, pixel_stride,
 * channel_stride, pixels, channels, stored, dst, rows, row_stride, type). */
#define SIMA_CAST_LEAF(name, TYPE)                                            \
  void                                                                        \
  name (const void *ctx, const uint8_t *src, int64_t pixel_stride,            \
      int64_t channel_stride, int64_t pixels, int64_t channels,               \
      int64_t stored_channels, uint8_t *dst, int64_t rows,                    \
      int64_t row_stride)                                                     \
  {                                                                           \
    (void) ctx;                                                               \
    cast_rows (src, pixel_stride, channel_stride, pixels, channels,           \
        stored_channels, dst, rows, row_stride, TYPE);                        \
  }

/* ---- DetessDequant ------------------------------------------------------ */

/* One element from the exact table (the scalar tails). */
SIMA_INLINE void
sima_dequant_store1 (uint8_t *d, const SimaA65DequantCtx *ctx, uint8_t q,
    int bf16)
{
  if (bf16)
    sima_store_u16 (d, ctx->table.bf16[q]);
  else
    sima_store_u32 (d, ctx->table.f32[q]);
}

SIMA_INLINE void
sima_dequant_pixels_fallback (const SimaA65DequantCtx *ctx,
    const uint8_t *src, int64_t pixels, int64_t channels, int64_t stored,
    uint8_t *dst, int64_t pixel_stride, int64_t channel_stride, int bf16)
{
  if (bf16)
    sima_dequant_pixels_bf16_c (ctx, src, pixels, channels, stored, dst,
        pixel_stride, channel_stride, 1, 0);
  else
    sima_dequant_pixels_f32_c (ctx, src, pixels, channels, stored, dst,
        pixel_stride, channel_stride, 1, 0);
}

/* A DetessDequant leaf over a row driver ROWS (ctx, src, pixels,
 * channels, stored, dst, pixel_stride, channel_stride, rows, row_stride,
 * bf16): dequant_rows for the lane leaves, dequant_table_rows for the
 * table leaves. */
#define SIMA_DEQUANT_LEAF_OVER(ROWS, name, BF16)                              \
  void                                                                        \
  name (const void *ctx, const uint8_t *src, int64_t pixels,                  \
      int64_t channels, int64_t stored_channels, uint8_t *dst,                \
      int64_t pixel_stride, int64_t channel_stride, int64_t rows,             \
      int64_t row_stride)                                                     \
  {                                                                           \
    ROWS (ctx, src, pixels, channels, stored_channels, dst, pixel_stride,     \
        channel_stride, rows, row_stride, BF16);                              \
  }
#define SIMA_DEQUANT_LEAF(name, BF16)                                         \
  SIMA_DEQUANT_LEAF_OVER (dequant_rows, name, BF16)

/* ---- DetessCast -------------------------------------------------------- */

/* One element from its two plane bytes (the scalar tails). */
SIMA_INLINE void
sima_detess_cast_store1 (uint8_t *d, uint8_t lo, uint8_t hi, int f32)
{
  uint16_t v = (uint16_t) (lo | hi << 8);
  if (f32)
    sima_store_u32 (d, (uint32_t) v << 16);
  else
    sima_store_u16 (d, v);
}

SIMA_INLINE void
sima_detess_cast_pixels_fallback (const uint8_t *src, int64_t pixels,
    int64_t channels, int64_t stored, uint8_t *dst, int64_t pixel_stride,
    int64_t channel_stride, int f32)
{
  if (f32)
    sima_detess_cast_pixels_f32_c (NULL, src, pixels, channels, stored, dst,
        pixel_stride, channel_stride, 1, 0);
  else
    sima_detess_cast_pixels_bf16_c (NULL, src, pixels, channels, stored, dst,
        pixel_stride, channel_stride, 1, 0);
}

/* A DetessCast leaf over the including file's detess_cast_rows (src,
 * pixels, channels, stored, dst, pixel_stride, channel_stride, rows,
 * row_stride, f32). */
#define SIMA_DETESS_CAST_LEAF(name, F32)                                      \
  void                                                                        \
  name (const void *ctx, const uint8_t *src, int64_t pixels,                  \
      int64_t channels, int64_t stored_channels, uint8_t *dst,                \
      int64_t pixel_stride, int64_t channel_stride, int64_t rows,             \
      int64_t row_stride)                                                     \
  {                                                                           \
    (void) ctx;                                                               \
    detess_cast_rows (src, pixels, channels, stored_channels, dst,            \
        pixel_stride, channel_stride, rows, row_stride, F32);                 \
  }

#endif /* SIMA_KERNELS_A65_SIMD_LEAF_H */
