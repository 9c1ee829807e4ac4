/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every SIMD leaf (QuantTess and CastTess packs, DetessDequant and
 * DetessCast unpacks)
 * against the scalar reference leaf, byte for byte, on rows placed so that
 * the input ends exactly at a page boundary with an inaccessible page after
 * it (an overread faults) and the output too (an overwrite faults). Packs:
 * FP32, FP16, BF16 and UINT8 (every byte, holes included, random; forced
 * camera rows too: RGB and RGBx (3 values in 4 bytes) into pad16 and
 * compact slots, GRAY8); the four rounding modes;
 * zero points across the range; random bit patterns (NaN, infinities,
 * subnormals, huge and tiny values included) and values near rounding
 * ties; contiguous pixels (RGB rows), channel runs with a pixel stride,
 * strided channels; channels 1-70 (1, 2, 3, 4, 8, 16, 17, 32 and 64 half the
 * time), compact and pad16 slots, 1-48 pixels (whole 16-pixel groups a
 * quarter of the time), 1-3 rows per call.
 * Unpacks: random INT8 tiles and random BF16 byte-plane tiles (DetessCast:
 * pixels of 2 * stored bytes, every byte random, NaN payloads included),
 * padding garbage included, into FP32 and BF16 views,
 * contiguous, pitched and channel-strided, the holes of the view compared
 * too (both leaves must leave them alone); tables from random scales and
 * zero points, of both conventions for the leaves that look the table up
 * (AVX-512, NEON; the AVX2 ones compute the multiply stage). After the
 * random cases, every shape a leaf decides once per call (RGB pad16 rows
 * of whole 16-pixel groups and with a tail, 16-channel runs, RGB unpack
 * rows of 1-48 pixels, the table leaves' 64-value steps and their tails)
 * is forced 28 times: packs with
 * each rounding mode and multiplier, unpacks with random tables.
 * The DetessDequant select picks the leaf the ISA set calls for (run
 * with SIMA_KERNELS_DISABLE=avx512, it must fall back to AVX2).
 * Also the FP environment: sima_fp_enter sets the state the leaves need
 * whatever the caller's, and leave restores the caller's exactly (that
 * the bytes do not change under a caller's flush-to-zero, directed
 * rounding or, on AArch64, default NaN and alternative halves is shown by
 * the casttess, detessdequant and quanttess-numerics tests).
 * Leaves this CPU cannot run (or SIMA_KERNELS_DISABLE masks) are reported
 * as skipped with the reason; the reference is the oracle-checked leaf.
 * On x86-64 the QuantTess and CastTess dispatch is checked against the
 * usable ISA set: AVX-512 leaves when usable, AVX2 ones when
 * SIMA_KERNELS_DISABLE=avx512 masks them, the reference under =all.
 */
#define _GNU_SOURCE
#include <simaai/kernels/ops/quanttess.h>

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "a65/cast_pixels.h"
#include "a65/dequant_pixels.h"
#include "a65/detess_cast_pixels.h"
#include "a65/quant_pixels.h"
#include "numerics/dequant_exact.h"
#include "cpu/cpu.h"
#include "tap.h"
#include "test_util.h"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

/* A mapping whose last accessible byte is followed by a PROT_NONE page;
 * tail_at(size) returns where `size` bytes end exactly at that page. */
typedef struct {
  uint8_t *base;
  size_t len, page;
} PageEnd;

static PageEnd
page_end_new (size_t max_size)
{
  PageEnd p;
  p.page = (size_t) sysconf (_SC_PAGESIZE);
  p.len = (max_size + p.page - 1) / p.page * p.page + p.page;
  p.base = mmap (NULL, p.len, PROT_READ | PROT_WRITE,
      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p.base == MAP_FAILED)
    abort ();
  mprotect (p.base + p.len - p.page, p.page, PROT_NONE);
  return p;
}

static uint8_t *
page_end_tail (const PageEnd *p, size_t size)
{
  return p->base + (p->len - p->page) - size;
}

typedef enum { QUANT, CAST, DEQUANT, DETESS_CAST } LeafKind;

typedef struct {
  const char *name;
  LeafKind kind;
  int dtype;                    /* the float side: input of packs, output
                                 * of unpacks */
  SimaA65PackFn simd, ref;
  SimaA65UnpackFn usimd, uref;
  unsigned needs;
  int table;                    /* DetessDequant leaves that read the
                                 * table: exact for the divide convention
                                 * too, so tested with both */
} Leaf;

static uint32_t
random_f32_bits (TestRng *rng)
{
  switch (test_rng_below (rng, 6)) {
    case 0:                     /* any pattern: NaN, inf, subnormal ... */
      return (uint32_t) test_rng_next (rng);
    case 1:                     /* near a rounding tie of x * multiplier */
    {
      float f = (float) (test_rng_range (rng, -300, 300)) / 2.0f;
      uint32_t b;
      memcpy (&b, &f, 4);
      return b + (uint32_t) test_rng_range (rng, -2, 2);
    }
    case 2:                     /* specials */
    {
      static const uint32_t s[] = { 0x7fc00000, 0xffc00001, 0x7f800001,
        0x7f800000, 0xff800000, 0x00000000, 0x80000000, 0x00000001,
        0x807fffff, 0x7f7fffff, 0xff7fffff
      };
      return s[test_rng_below (rng, sizeof s / sizeof s[0])];
    }
    default:                    /* ordinary magnitudes */
    {
      float f = (float) test_rng_range (rng, -2000000, 2000000) / 1e4f;
      uint32_t b;
      memcpy (&b, &f, 4);
      return b;
    }
  }
}

static void
fill (TestRng *rng, uint8_t *p, size_t bytes, int dtype)
{
  size_t esize = (size_t) sima_dtype_size ((SimaDType) dtype), i;

  if (dtype == SIMA_DTYPE_UINT8) {  /* any byte is a value */
    for (i = 0; i < bytes; i++)
      p[i] = (uint8_t) test_rng_next (rng);
    return;
  }

  for (i = 0; i + esize <= bytes; i += esize) {
    uint32_t b = random_f32_bits (rng);
    if (dtype == SIMA_DTYPE_FLOAT32)
      memcpy (p + i, &b, 4);
    else {
      uint16_t h = dtype == SIMA_DTYPE_BFLOAT16 ? (uint16_t) (b >> 16)
          : (uint16_t) (test_rng_below (rng, 2) ? b : (b >> 16));
      memcpy (p + i, &h, 2);
    }
  }
}

/* After the random cases, every shape a leaf decides once per call (and its
 * neighbours: a tail, a pixel stride) is forced, for each rounding mode and
 * multiplier (packs) or 28 random tables (unpacks): the random draws reach
 * them only a few times per mode. */
#define RANDOM_CASES 6000
#define FORCED_ROUNDS 28

typedef struct {
  int64_t channels, pixels;
  int pad16, shape;             /* shape as drawn: 0 contiguous, 1 pixel
                                 * stride, 2 channel stride */
  int64_t pixel_elems;          /* shape 1: the pixel stride in elements
                                 * (0: drawn) */
} ForcedShape;

static const ForcedShape forced_packs[] = {
  {3, 16, 1, 0, 0}, {3, 32, 1, 0, 0}, {3, 48, 1, 0, 0}, {3, 21, 1, 0, 0},
  {3, 16, 1, 1, 0}, {16, 16, 0, 1, 0}, {16, 7, 1, 1, 0}, {16, 32, 0, 1, 0}
};

/* UINT8: the camera rows, RGBx (3 values, pixel stride 4, the hole never
 * a value), RGB and GRAY8, whole 16-pixel groups and with tails, both
 * channel modes; then RGBA and 16/17-channel runs with a pixel stride. */
static const ForcedShape forced_packs_u8[] = {
  {3, 16, 1, 1, 4}, {3, 21, 1, 1, 4}, {3, 48, 0, 1, 4}, {3, 16, 1, 0, 0},
  {3, 37, 1, 0, 0}, {1, 16, 1, 0, 0}, {1, 45, 0, 0, 0}, {1, 19, 1, 1, 2},
  {4, 16, 1, 0, 0}, {16, 16, 0, 1, 0}, {16, 7, 1, 1, 20}, {17, 9, 1, 1, 20}
};

static const ForcedShape forced_unpacks[] = {
  {3, 16, 1, 0, 0}, {4, 16, 1, 0, 0}, {3, 48, 1, 0, 0}, {3, 6, 1, 0, 0},
  {3, 7, 1, 0, 0}, {4, 5, 1, 0, 0}, {3, 2, 1, 0, 0}, {3, 1, 1, 0, 0},
  {16, 16, 0, 1, 0}, {16, 9, 1, 0, 0},
  /* the table leaves' 64-value steps: RGB pad16 rows past 16 pixels,
   * compact rows past 64 values, 16-channel runs of 4k +- 1 pixels, a
   * pixel stride over 64 and 70 channels */
  {3, 17, 1, 0, 0}, {4, 35, 1, 0, 0}, {3, 43, 0, 0, 0}, {16, 5, 0, 1, 0},
  {16, 7, 0, 0, 0}, {64, 3, 0, 1, 0}, {70, 2, 1, 1, 0}
};

#define N_FORCED(a) ((int) (sizeof (a) / sizeof (a)[0]))

/* One call's shape, forced (f) or drawn: the shapes the fast paths are
 * written for half the time, and anything else. esize is the dense side's
 * element size: cs and ps are its channel and pixel strides, row_span the
 * bytes of one dense row, row_stride (>= row_span) between rows. */
typedef struct {
  int64_t channels, pixels, stored, cs, ps, row_span, rows, row_stride;
} LeafCase;

static LeafCase
draw_case (TestRng *rng, const ForcedShape *f, int64_t esize)
{
  static const int64_t common[] = { 1, 2, 3, 4, 8, 16, 17, 32, 64 };
  LeafCase c;
  int pad16, shape;

  c.channels = f ? f->channels : test_rng_below (rng, 2)
      ? common[test_rng_below (rng, sizeof common / sizeof common[0])]
      : test_rng_range (rng, 1, 70);
  /* whole 16-pixel tile rows a quarter of the time: the leaves decide
   * some shapes once per call when every row is whole groups */
  c.pixels = f ? f->pixels : test_rng_below (rng, 4) == 0
      ? 16 * test_rng_range (rng, 1, 3) : test_rng_range (rng, 1, 40);
  pad16 = f ? f->pad16 : (int) test_rng_below (rng, 2);
  c.stored = pad16 ? (c.channels + 15) / 16 * 16 : c.channels;
  shape = f ? f->shape : (int) test_rng_below (rng, 3);
  c.cs = shape == 2 ? esize * test_rng_range (rng, 2, 3) : esize;
  c.ps = shape == 0 ? c.channels * c.cs
      : f && f->pixel_elems ? esize * f->pixel_elems
      : c.channels * c.cs + esize * test_rng_range (rng, 0, 9);
  c.row_span = (c.pixels - 1) * c.ps + (c.channels - 1) * c.cs + esize;
  c.rows = test_rng_range (rng, 1, 3);
  c.row_stride = c.row_span + esize * test_rng_range (rng, 0, 5);
  return c;
}

static const float multipliers[] = { 1.0f, 0.5f, 127.0f, 3.14159f, 1e-3f,
  1e30f, 1.5e-40f
};

/* One pack leaf over the whole sweep; returns the mismatches. */
static uint64_t
sweep_pack (const Leaf *leaf, uint64_t *cases, uint64_t seed)
{
  const int64_t esize = sima_dtype_size ((SimaDType) leaf->dtype);
  const int64_t out_esize = leaf->kind == CAST ? 2 : 1;
  const int u8 = leaf->dtype == SIMA_DTYPE_UINT8;
  const ForcedShape *forced = u8 ? forced_packs_u8 : forced_packs;
  const int n_forced = u8 ? N_FORCED (forced_packs_u8)
      : N_FORCED (forced_packs);
  PageEnd in = page_end_new (1 << 20), out_a = page_end_new (1 << 16),
      out_b = page_end_new (1 << 16);
  TestRng rng = { seed };
  uint64_t bad = 0;
  int iter;

  for (iter = 0; iter < RANDOM_CASES + FORCED_ROUNDS * n_forced; iter++) {
    const int fi = iter - RANDOM_CASES;
    const ForcedShape *f = fi >= 0 ? &forced[fi % n_forced] : NULL;
    const LeafCase lc = draw_case (&rng, f, esize);
    const int64_t channels = lc.channels, pixels = lc.pixels,
        stored = lc.stored, cs = lc.cs, ps = lc.ps, row_span = lc.row_span,
        rows = lc.rows, row_stride = lc.row_stride;
    size_t in_bytes = (size_t) ((rows - 1) * row_stride + row_span);
    size_t out_bytes = (size_t) (rows * pixels * stored * out_esize);
    uint8_t *src = page_end_tail (&in, in_bytes);
    uint8_t *a = page_end_tail (&out_a, out_bytes);
    uint8_t *b = page_end_tail (&out_b, out_bytes);
    SimaQuantTessParams params;
    SimaQuantNumerics q;
    const void *ctx = NULL;
    SimaFpState fp;

    memset (&params, 0, sizeof params);
    /* forced rounds: each of the 4 modes with each of the 7 multipliers */
    params.multiplier = multipliers[f ? fi / n_forced / 4
        : (int) test_rng_below (&rng, sizeof multipliers
            / sizeof multipliers[0])];
    params.zero_point = (int32_t) test_rng_range (&rng, -128, 127);
    params.rounding = (SimaRounding) (f ? fi / n_forced % 4
        : (int) test_rng_below (&rng, 4));
    sima_quanttess_numerics (&params, &q);
    if (leaf->kind == QUANT)
      ctx = &q;
    fill (&rng, src, in_bytes, leaf->dtype);
    memset (a, 0xA5, out_bytes);
    memset (b, 0x5A, out_bytes);
    leaf->ref (ctx, src, ps, cs, pixels, channels, stored, a, rows,
        row_stride);
    sima_fp_enter (&fp);
    leaf->simd (ctx, src, ps, cs, pixels, channels, stored, b, rows,
        row_stride);
    sima_fp_leave (&fp);
    if (memcmp (a, b, out_bytes) != 0) {
      if (bad++ < 5)
        tap_diag ("%s: C=%lld stored=%lld pixels=%lld ps=%lld cs=%lld "
            "zp=%d rounding=%d differs from the reference", leaf->name,
            (long long) channels, (long long) stored, (long long) pixels,
            (long long) ps, (long long) cs, params.zero_point,
            (int) params.rounding);
    }
    (*cases)++;
  }
  munmap (in.base, in.len);
  munmap (out_a.base, out_a.len);
  munmap (out_b.base, out_b.len);
  return bad;
}

static const float scales[] = { 1.0f, 0.0078125f, 0.007874016f, 3.4e38f,
  1e-45f, 2.5e-40f, 1000.0f
};

/* One unpack leaf over the whole sweep; returns the mismatches. */
static uint64_t
sweep_unpack (const Leaf *leaf, uint64_t *cases, uint64_t seed)
{
  const int bf16 = leaf->dtype == SIMA_DTYPE_BFLOAT16;
  const int64_t esize = bf16 ? 2 : 4;
  const int64_t in_esize = leaf->kind == DETESS_CAST ? 2 : 1;
  PageEnd in = page_end_new (1 << 16), out_a = page_end_new (1 << 20),
      out_b = page_end_new (1 << 20);
  TestRng rng = { seed };
  SimaA65DequantCtx ctx;
  uint64_t bad = 0;
  int iter, k;

  for (iter = 0; iter < RANDOM_CASES + FORCED_ROUNDS
      * N_FORCED (forced_unpacks); iter++) {
    const int fi = iter - RANDOM_CASES;
    const ForcedShape *f = fi >= 0
        ? &forced_unpacks[fi % N_FORCED (forced_unpacks)] : NULL;
    const LeafCase lc = draw_case (&rng, f, esize);
    const int64_t channels = lc.channels, pixels = lc.pixels,
        stored = lc.stored, cs = lc.cs, ps = lc.ps, row_span = lc.row_span,
        rows = lc.rows, row_stride = lc.row_stride;
    size_t in_bytes = (size_t) (rows * pixels * stored * in_esize);
    size_t out_bytes = (size_t) ((rows - 1) * row_stride + row_span);
    uint8_t *src = page_end_tail (&in, in_bytes);
    uint8_t *a = page_end_tail (&out_a, out_bytes);
    uint8_t *b = page_end_tail (&out_b, out_bytes);
    float scale = scales[test_rng_below (&rng,
            sizeof scales / sizeof scales[0])];
    int32_t zp = (int32_t) (test_rng_below (&rng, 4) == 0
        ? (int64_t) test_rng_next (&rng) % 2147483647
        : test_rng_range (&rng, -300, 300));
    /* the lanes leaves implement the multiply convention only */
    const int divide = leaf->table ? (int) test_rng_below (&rng, 2) : 0;
    uint32_t scale_bits;
    SimaFpState fp;
    size_t i;

    memcpy (&scale_bits, &scale, 4);
    memset (&ctx, 0xEE, sizeof ctx);
    for (k = -128; k <= 127; k++) {
      if (bf16)
        ctx.table.bf16[(uint8_t) k] = sima_dequant_bf16_bits ((int8_t) k,
            scale_bits, zp, divide);
      else
        ctx.table.f32[(uint8_t) k] = sima_dequant_f32_bits ((int8_t) k,
            scale_bits, zp, divide);
    }
    {
      float zf = (float) sima_round_int_to_binary32 (zp);
      memcpy (&ctx.zero_point_f32_bits, &zf, 4);
      ctx.scale_bits = scale_bits;
    }
    for (i = 0; i < in_bytes; i++)
      src[i] = (uint8_t) test_rng_next (&rng);
    memset (a, 0xA5, out_bytes);
    memset (b, 0xA5, out_bytes);      /* holes must stay equal */
    leaf->uref (&ctx, src, pixels, channels, stored, a, ps, cs, rows,
        row_stride);
    sima_fp_enter (&fp);
    leaf->usimd (&ctx, src, pixels, channels, stored, b, ps, cs, rows,
        row_stride);
    sima_fp_leave (&fp);
    if (memcmp (a, b, out_bytes) != 0) {
      if (bad++ < 5)
        tap_diag ("%s: C=%lld stored=%lld pixels=%lld ps=%lld cs=%lld "
            "rows=%lld divide=%d differs from the reference", leaf->name,
            (long long) channels, (long long) stored, (long long) pixels,
            (long long) ps, (long long) cs, (long long) rows, divide);
    }
    (*cases)++;
  }
  munmap (in.base, in.len);
  munmap (out_a.base, out_a.len);
  munmap (out_b.base, out_b.len);
  return bad;
}

int
main (void)
{
  const Leaf leaves[] = {
#if defined(__x86_64__) || defined(__i386__)
#define AVX2 SIMA_ISA_AVX2 | SIMA_ISA_F16C
    {"quant_f32_avx2", QUANT, SIMA_DTYPE_FLOAT32, sima_quant_pixels_f32_avx2,
        sima_quant_pixels_f32_c, NULL, NULL, AVX2, 0},
    {"quant_f16_avx2", QUANT, SIMA_DTYPE_FLOAT16, sima_quant_pixels_f16_avx2,
        sima_quant_pixels_f16_c, NULL, NULL, AVX2, 0},
    {"quant_bf16_avx2", QUANT, SIMA_DTYPE_BFLOAT16,
        sima_quant_pixels_bf16_avx2, sima_quant_pixels_bf16_c, NULL, NULL,
        AVX2, 0},
    {"quant_u8_avx2", QUANT, SIMA_DTYPE_UINT8, sima_quant_pixels_u8_avx2,
        sima_quant_pixels_u8_c, NULL, NULL, AVX2, 0},
    {"cast_f32_avx2", CAST, SIMA_DTYPE_FLOAT32, sima_cast_pixels_f32_avx2,
        sima_cast_pixels_f32_c, NULL, NULL, AVX2, 0},
    {"cast_f16_avx2", CAST, SIMA_DTYPE_FLOAT16, sima_cast_pixels_f16_avx2,
        sima_cast_pixels_f16_c, NULL, NULL, AVX2, 0},
    {"cast_bf16_avx2", CAST, SIMA_DTYPE_BFLOAT16, sima_cast_pixels_bf16_avx2,
        sima_cast_pixels_bf16_c, NULL, NULL, AVX2, 0},
    {"cast_u8_avx2", CAST, SIMA_DTYPE_UINT8, sima_cast_pixels_u8_avx2,
        sima_cast_pixels_u8_c, NULL, NULL, AVX2, 0},
    {"dequant_f32_avx2", DEQUANT, SIMA_DTYPE_FLOAT32, NULL, NULL,
        sima_dequant_pixels_f32_avx2, sima_dequant_pixels_f32_c, AVX2, 0},
    {"dequant_bf16_avx2", DEQUANT, SIMA_DTYPE_BFLOAT16, NULL, NULL,
        sima_dequant_pixels_bf16_avx2, sima_dequant_pixels_bf16_c, AVX2, 0},
    {"detess_cast_f32_avx2", DETESS_CAST, SIMA_DTYPE_FLOAT32, NULL, NULL,
        sima_detess_cast_pixels_f32_avx2, sima_detess_cast_pixels_f32_c,
        AVX2, 0},
    {"detess_cast_bf16_avx2", DETESS_CAST, SIMA_DTYPE_BFLOAT16, NULL, NULL,
        sima_detess_cast_pixels_bf16_avx2, sima_detess_cast_pixels_bf16_c,
        AVX2, 0},
#if defined(__x86_64__)
#define AVX512 SIMA_ISA_AVX512 | SIMA_ISA_AVX2 | SIMA_ISA_F16C
    {"dequant_f32_avx512", DEQUANT, SIMA_DTYPE_FLOAT32, NULL, NULL,
        sima_dequant_pixels_f32_avx512, sima_dequant_pixels_f32_c, AVX512, 1},
    {"dequant_bf16_avx512", DEQUANT, SIMA_DTYPE_BFLOAT16, NULL, NULL,
        sima_dequant_pixels_bf16_avx512, sima_dequant_pixels_bf16_c, AVX512,
        1},
#undef AVX512
#endif
#undef AVX2
#if defined(__x86_64__)
#define AVX512 SIMA_ISA_AVX512 | SIMA_ISA_AVX2 | SIMA_ISA_F16C
    {"quant_f32_avx512", QUANT, SIMA_DTYPE_FLOAT32,
        sima_quant_pixels_f32_avx512, sima_quant_pixels_f32_c, NULL, NULL,
        AVX512, 0},
    {"quant_f16_avx512", QUANT, SIMA_DTYPE_FLOAT16,
        sima_quant_pixels_f16_avx512, sima_quant_pixels_f16_c, NULL, NULL,
        AVX512, 0},
    {"quant_bf16_avx512", QUANT, SIMA_DTYPE_BFLOAT16,
        sima_quant_pixels_bf16_avx512, sima_quant_pixels_bf16_c, NULL, NULL,
        AVX512, 0},
    {"quant_u8_avx512", QUANT, SIMA_DTYPE_UINT8, sima_quant_pixels_u8_avx512,
        sima_quant_pixels_u8_c, NULL, NULL, AVX512, 0},
    {"cast_f32_avx512", CAST, SIMA_DTYPE_FLOAT32,
        sima_cast_pixels_f32_avx512, sima_cast_pixels_f32_c, NULL, NULL,
        AVX512, 0},
    {"cast_f16_avx512", CAST, SIMA_DTYPE_FLOAT16,
        sima_cast_pixels_f16_avx512, sima_cast_pixels_f16_c, NULL, NULL,
        AVX512, 0},
    {"cast_bf16_avx512", CAST, SIMA_DTYPE_BFLOAT16,
        sima_cast_pixels_bf16_avx512, sima_cast_pixels_bf16_c, NULL, NULL,
        AVX512, 0},
    {"cast_u8_avx512", CAST, SIMA_DTYPE_UINT8, sima_cast_pixels_u8_avx512,
        sima_cast_pixels_u8_c, NULL, NULL, AVX512, 0},
    /* the streaming builds of the same files (non-temporal stores where
     * aligned: the sweep's odd offsets take both paths) */
    {"quant_f32_avx512_stream", QUANT, SIMA_DTYPE_FLOAT32,
        sima_quant_pixels_f32_avx512_stream, sima_quant_pixels_f32_c, NULL, NULL,
        AVX512, 0},
    {"quant_f16_avx512_stream", QUANT, SIMA_DTYPE_FLOAT16,
        sima_quant_pixels_f16_avx512_stream, sima_quant_pixels_f16_c, NULL, NULL,
        AVX512, 0},
    {"quant_bf16_avx512_stream", QUANT, SIMA_DTYPE_BFLOAT16,
        sima_quant_pixels_bf16_avx512_stream, sima_quant_pixels_bf16_c, NULL, NULL,
        AVX512, 0},
    {"quant_u8_avx512_stream", QUANT, SIMA_DTYPE_UINT8,
        sima_quant_pixels_u8_avx512_stream, sima_quant_pixels_u8_c, NULL, NULL,
        AVX512, 0},
    {"cast_f32_avx512_stream", CAST, SIMA_DTYPE_FLOAT32,
        sima_cast_pixels_f32_avx512_stream, sima_cast_pixels_f32_c, NULL, NULL,
        AVX512, 0},
    {"cast_f16_avx512_stream", CAST, SIMA_DTYPE_FLOAT16,
        sima_cast_pixels_f16_avx512_stream, sima_cast_pixels_f16_c, NULL, NULL,
        AVX512, 0},
    {"cast_bf16_avx512_stream", CAST, SIMA_DTYPE_BFLOAT16,
        sima_cast_pixels_bf16_avx512_stream, sima_cast_pixels_bf16_c, NULL, NULL,
        AVX512, 0},
    {"cast_u8_avx512_stream", CAST, SIMA_DTYPE_UINT8,
        sima_cast_pixels_u8_avx512_stream, sima_cast_pixels_u8_c, NULL, NULL,
        AVX512, 0},
#undef AVX512
#endif
#endif
#if defined(__aarch64__)
    {"quant_f32_neon", QUANT, SIMA_DTYPE_FLOAT32, sima_quant_pixels_f32_neon,
        sima_quant_pixels_f32_c, NULL, NULL, SIMA_ISA_NEON, 0},
    {"quant_f16_neon", QUANT, SIMA_DTYPE_FLOAT16, sima_quant_pixels_f16_neon,
        sima_quant_pixels_f16_c, NULL, NULL, SIMA_ISA_NEON, 0},
    {"quant_bf16_neon", QUANT, SIMA_DTYPE_BFLOAT16,
        sima_quant_pixels_bf16_neon, sima_quant_pixels_bf16_c, NULL, NULL,
        SIMA_ISA_NEON, 0},
    {"quant_u8_neon", QUANT, SIMA_DTYPE_UINT8, sima_quant_pixels_u8_neon,
        sima_quant_pixels_u8_c, NULL, NULL, SIMA_ISA_NEON, 0},
    {"cast_f32_neon", CAST, SIMA_DTYPE_FLOAT32, sima_cast_pixels_f32_neon,
        sima_cast_pixels_f32_c, NULL, NULL, SIMA_ISA_NEON, 0},
    {"cast_f16_neon", CAST, SIMA_DTYPE_FLOAT16, sima_cast_pixels_f16_neon,
        sima_cast_pixels_f16_c, NULL, NULL, SIMA_ISA_NEON, 0},
    {"cast_bf16_neon", CAST, SIMA_DTYPE_BFLOAT16, sima_cast_pixels_bf16_neon,
        sima_cast_pixels_bf16_c, NULL, NULL, SIMA_ISA_NEON, 0},
    {"cast_u8_neon", CAST, SIMA_DTYPE_UINT8, sima_cast_pixels_u8_neon,
        sima_cast_pixels_u8_c, NULL, NULL, SIMA_ISA_NEON, 0},
    {"dequant_f32_neon", DEQUANT, SIMA_DTYPE_FLOAT32, NULL, NULL,
        sima_dequant_pixels_f32_neon, sima_dequant_pixels_f32_c,
        SIMA_ISA_NEON, 1},
    {"dequant_bf16_neon", DEQUANT, SIMA_DTYPE_BFLOAT16, NULL, NULL,
        sima_dequant_pixels_bf16_neon, sima_dequant_pixels_bf16_c,
        SIMA_ISA_NEON, 1},
    {"detess_cast_f32_neon", DETESS_CAST, SIMA_DTYPE_FLOAT32, NULL, NULL,
        sima_detess_cast_pixels_f32_neon, sima_detess_cast_pixels_f32_c,
        SIMA_ISA_NEON, 0},
    {"detess_cast_bf16_neon", DETESS_CAST, SIMA_DTYPE_BFLOAT16, NULL, NULL,
        sima_detess_cast_pixels_bf16_neon, sima_detess_cast_pixels_bf16_c,
        SIMA_ISA_NEON, 0},
#endif
    {NULL, QUANT, 0, NULL, NULL, NULL, NULL, 0, 0}
  };
  unsigned isas = sima_cpu_isas ();
  size_t i;

  tap_ok (sima_cpu_parse_disable ("avx2, f16c") == (SIMA_ISA_AVX2
          | SIMA_ISA_F16C) && sima_cpu_parse_disable ("bogus,neon")
      == SIMA_ISA_NEON && sima_cpu_parse_disable (NULL) == 0
      && sima_cpu_parse_disable ("avx512") == SIMA_ISA_AVX512
      && (sima_cpu_parse_disable ("all") & SIMA_ISA_AVX512) != 0
      && sima_cpu_parse_disable ("stream,avx512") == (SIMA_ISA_STREAM
          | SIMA_ISA_AVX512),
      "SIMA_KERNELS_DISABLE parsing");
#if defined(__x86_64__)
  {
    /* the dispatch: AVX-512 when usable, else AVX2, else the reference
     * (SIMA_KERNELS_DISABLE=avx512 must bring the AVX2 leaves back) */
    static const int dtypes[4] = { SIMA_DTYPE_FLOAT32, SIMA_DTYPE_FLOAT16,
      SIMA_DTYPE_BFLOAT16, SIMA_DTYPE_UINT8
    };
    static const SimaA65PackFn quant[3][4] = {
      {sima_quant_pixels_f32_avx512, sima_quant_pixels_f16_avx512,
          sima_quant_pixels_bf16_avx512, sima_quant_pixels_u8_avx512},
      {sima_quant_pixels_f32_avx2, sima_quant_pixels_f16_avx2,
          sima_quant_pixels_bf16_avx2, sima_quant_pixels_u8_avx2},
      {sima_quant_pixels_f32_c, sima_quant_pixels_f16_c,
          sima_quant_pixels_bf16_c, sima_quant_pixels_u8_c}
    };
    static const SimaA65PackFn cast[3][4] = {
      {sima_cast_pixels_f32_avx512, sima_cast_pixels_f16_avx512,
          sima_cast_pixels_bf16_avx512, sima_cast_pixels_u8_avx512},
      {sima_cast_pixels_f32_avx2, sima_cast_pixels_f16_avx2,
          sima_cast_pixels_bf16_avx2, sima_cast_pixels_u8_avx2},
      {sima_cast_pixels_f32_c, sima_cast_pixels_f16_c,
          sima_cast_pixels_bf16_c, sima_cast_pixels_u8_c}
    };
    static const SimaA65PackFn quant_stream[4] = {
      sima_quant_pixels_f32_avx512_stream, sima_quant_pixels_f16_avx512_stream,
      sima_quant_pixels_bf16_avx512_stream, sima_quant_pixels_u8_avx512_stream
    };
    static const SimaA65PackFn cast_stream[4] = {
      sima_cast_pixels_f32_avx512_stream, sima_cast_pixels_f16_avx512_stream,
      sima_cast_pixels_bf16_avx512_stream, sima_cast_pixels_u8_avx512_stream
    };
    static const char *const names[3] = { "avx512", "avx2", "c" };
    const unsigned avx2 = SIMA_ISA_AVX2 | SIMA_ISA_F16C;
    const int want = (isas & (avx2 | SIMA_ISA_AVX512)) == (avx2
        | SIMA_ISA_AVX512) ? 0 : (isas & avx2) == avx2 ? 1 : 2;
    int d, same = 1;
    for (d = 0; d < 4; d++)
      same &= sima_quant_pixels_select (dtypes[d], 0) == quant[want][d]
          && sima_cast_pixels_select (dtypes[d], 0) == cast[want][d]
          && sima_quant_pixels_select (dtypes[d], 1) == (want == 0
          ? quant_stream[d] : quant[want][d])
          && sima_cast_pixels_select (dtypes[d], 1) == (want == 0
          ? cast_stream[d] : cast[want][d]);
    tap_ok (same, "QuantTess and CastTess dispatch choose the %s leaves "
        "for ISA set 0x%x, their streaming builds for streaming outputs",
        names[want], isas);
  }
#endif
  for (i = 0; leaves[i].name != NULL; i++) {
    uint64_t cases = 0, bad;
    if ((isas & leaves[i].needs) != leaves[i].needs) {
      tap_ok (1, "%s # SKIP not available on this CPU, or masked by "
          "SIMA_KERNELS_DISABLE", leaves[i].name);
      continue;
    }
    bad = leaves[i].kind == DEQUANT || leaves[i].kind == DETESS_CAST
        ? sweep_unpack (&leaves[i], &cases, 0x5eed0000u + i)
        : sweep_pack (&leaves[i], &cases, 0x5eed0000u + i);
    tap_ok (bad == 0, "%s: %llu calls of 1-3 rows at page ends, %llu differ "
        "from the scalar reference", leaves[i].name, (unsigned long long) cases,
        (unsigned long long) bad);
  }
  {
    /* the DetessDequant select: the table SIMD leaf for both conventions
     * where the CPU has one (and SIMA_KERNELS_DISABLE leaves it), except
     * FP32 multiply on AVX-512 CPUs (AVX2 lanes, faster there), else the
     * AVX2 lanes leaf for multiply only, else the scalar table */
    SimaA65UnpackFn want[2][2];   /* [bf16][lanes] */
    int b, l, ok = 1;
    for (b = 0; b < 2; b++)
      for (l = 0; l < 2; l++)
        want[b][l] = b ? sima_dequant_pixels_bf16_c
            : sima_dequant_pixels_f32_c;
#if defined(__x86_64__) || defined(__i386__)
    if ((isas & (SIMA_ISA_AVX2 | SIMA_ISA_F16C)) == (SIMA_ISA_AVX2
            | SIMA_ISA_F16C)) {
      want[0][1] = sima_dequant_pixels_f32_avx2;
      want[1][1] = sima_dequant_pixels_bf16_avx2;
    }
#endif
#if defined(__x86_64__)
    if ((isas & (SIMA_ISA_AVX512 | SIMA_ISA_AVX2 | SIMA_ISA_F16C))
        == (SIMA_ISA_AVX512 | SIMA_ISA_AVX2 | SIMA_ISA_F16C)) {
      want[0][0] = sima_dequant_pixels_f32_avx512;
      want[1][0] = want[1][1] = sima_dequant_pixels_bf16_avx512;
    }
#endif
#if defined(__aarch64__)
    if (isas & SIMA_ISA_NEON)
      for (l = 0; l < 2; l++) {
        want[0][l] = sima_dequant_pixels_f32_neon;
        want[1][l] = sima_dequant_pixels_bf16_neon;
      }
#endif
    for (b = 0; b < 2; b++)
      for (l = 0; l < 2; l++)
        ok &= sima_dequant_pixels_select (b ? SIMA_DTYPE_BFLOAT16
            : SIMA_DTYPE_FLOAT32, l) == want[b][l];
    tap_ok (ok && sima_dequant_pixels_select (SIMA_DTYPE_INT8, 1) == NULL,
        "DetessDequant select: the leaf the ISA set (0x%x) calls for, for "
        "both dtypes and conventions", isas);
  }
#if defined(__x86_64__) || defined(__i386__)
  {
    /* a caller's flush-to-zero, denormals-are-zero and round-up: the
     * executor must neither depend on them nor change them */
    unsigned odd = 0x1F80u | 0x8000u | 0x0040u | 0x4000u | 0x0001u;
    SimaFpState fp;
    _mm_setcsr (odd);
    sima_fp_enter (&fp);
    tap_ok (_mm_getcsr () == 0x1F80u, "sima_fp_enter sets MXCSR to "
        "round-to-nearest, no FTZ/DAZ");
    sima_fp_leave (&fp);
    tap_ok (_mm_getcsr () == odd, "sima_fp_leave restores the caller's "
        "MXCSR, sticky flags included");
    _mm_setcsr (0x1F80u);
  }
#elif defined(__aarch64__)
  {
    /* the alternative half format, default NaN, flush-to-zero and round
     * toward +infinity, and a sticky flag */
    uint64_t odd = (7u << 24) | (1u << 22), got, flags = 1u << 4, got_flags;
    SimaFpState fp;
    __asm__ volatile ("msr fpcr, %0" : : "r" (odd));
    __asm__ volatile ("msr fpsr, %0" : : "r" (flags));
    sima_fp_enter (&fp);
    __asm__ volatile ("mrs %0, fpcr" : "=r" (got));
    tap_ok ((got & ((3u << 22) | (7u << 24))) == 0, "sima_fp_enter sets "
        "FPCR to round-to-nearest, IEEE halves, no flush-to-zero, no "
        "default NaN");
    sima_fp_leave (&fp);
    __asm__ volatile ("mrs %0, fpcr" : "=r" (got));
    __asm__ volatile ("mrs %0, fpsr" : "=r" (got_flags));
    tap_ok (got == odd && got_flags == flags, "sima_fp_leave restores the "
        "caller's FPCR and FPSR");
    __asm__ volatile ("msr fpcr, %0" : : "r" ((uint64_t) 0));
    __asm__ volatile ("msr fpsr, %0" : : "r" ((uint64_t) 0));
  }
#endif
  return tap_done ();
}
