/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test_oracle_self.c - checks the oracle itself (TAP output).
 *
 * Three kinds of evidence, so that a mistake would have to be made the same
 * way twice to pass:
 *  - hand-computed values and bytes (the specs' worked examples, rounding
 *    ties, NaN/inf/signed-zero/underflow edges, wide zero points);
 *  - a second method for every numerical rule: plain float hardware in the
 *    default FP environment, and the literal Cast bit expression;
 *  - a second method for every layout: a sequential walker that packs tiles
 *    in physical order, compared with the oracle's per-element formulas.
 */
#include "oracle.h"

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- TAP plumbing ------------------------------------------------------- */

static int n_tests;
static int n_failed;
static int cur_fail;

/* Count a failed check; print the first few as TAP diagnostics. */
#define CHECK(cond, ...)                                                      \
  do {                                                                        \
    if (!(cond) && cur_fail++ < 8) {                                          \
      printf ("# line %d: ", __LINE__);                                       \
      printf (__VA_ARGS__);                                                   \
      printf ("\n");                                                          \
    }                                                                         \
  } while (0)

static void
report (const char *name)
{
  n_tests++;
  if (cur_fail) {
    n_failed++;
    printf ("not ok %d - %s (%d failed checks)\n", n_tests, name, cur_fail);
  } else {
    printf ("ok %d - %s\n", n_tests, name);
  }
  cur_fail = 0;
}

/* ---- helpers ------------------------------------------------------------ */

/* Reinterpret between float and its binary32 pattern. */
static uint32_t bits_of (float f) { uint32_t b; memcpy (&b, &f, 4); return b; }
static float float_of (uint32_t b) { float f; memcpy (&f, &b, 4); return f; }

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t
rnd (void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static int64_t
rnd_range (int64_t lo, int64_t hi)   /* inclusive */
{
  return lo + (int64_t) (rnd () % (uint64_t) (hi - lo + 1));
}

/* Fisher-Yates shuffle of 0..n-1 into a. */
static void
shuffle (int *a, int n)
{
  for (int i = 0; i < n; i++)
    a[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int j = (int) rnd_range (0, i), tmp = a[i];
    a[i] = a[j];
    a[j] = tmp;
  }
}

/* Row-major coordinates of element idx of spec's shape. */
static void
unravel (const SimaTensorSpec *s, int64_t idx, int64_t *coords)
{
  for (int i = s->rank - 1; i >= 0; i--) {
    coords[i] = idx % s->shape[i];
    idx /= s->shape[i];
  }
}

static SimaTensorSpec
dense (int rank, const int64_t *shape, SimaDType dtype)
{
  SimaTensorSpec s = { .rank = rank, .dtype = dtype,
                       .layout = SIMA_LAYOUT_CONTIGUOUS };
  memcpy (s.shape, shape, (size_t) rank * sizeof *shape);
  return s;
}

static SimaTensorSpec
tiled (int rank, const int64_t *shape, SimaDType dtype, const int8_t axes[4],
       const int64_t tile[4], SimaChannels ch)
{
  SimaTensorSpec s = dense (rank, shape, dtype);
  s.layout = SIMA_LAYOUT_MLA_TILED;
  memcpy (s.tiled.axes, axes, 4);
  memcpy (s.tiled.tile_shape, tile, 4 * sizeof *tile);
  s.tiled.channels = ch;
  return s;
}

/* Compare len bytes; on mismatch report the first differing position. */
static void
check_bytes (const uint8_t *got, const uint8_t *want, size_t len,
             const char *what)
{
  for (size_t i = 0; i < len; i++) {
    if (got[i] != want[i]) {
      CHECK (0, "%s: byte %zu is 0x%02x, want 0x%02x", what, i, got[i],
             want[i]);
      return;
    }
  }
}

/* Literal spec expression for FP32 -> BF16, in uint32 arithmetic. */
static uint16_t
bf16_literal (uint32_t bits)
{
  return (uint16_t) ((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

/* FP16 -> FP32 bit conversion by integer renormalisation (a method unlike
 * the oracle's ldexp decoding). */
static uint32_t
f16_to_f32_bits (uint16_t h)
{
  uint32_t s = (uint32_t) (h & 0x8000u) << 16;
  uint32_t e = (h >> 10) & 31u;
  uint32_t f = h & 0x3FFu;
  if (e == 31)
    return s | 0x7F800000u | (f << 13);
  if (e == 0) {
    if (f == 0)
      return s;
    e = 113;
    while (!(f & 0x400u)) {
      f <<= 1;
      e--;
    }
    return s | (e << 23) | ((f & 0x3FFu) << 13);
  }
  return s | ((e + 112) << 23) | (f << 13);
}

/* QuantTess by float hardware (default environment: nearest, no FTZ). */
static int8_t
hw_quant (float x, float m, int zp, int mode)
{
  if (isnan (x))
    return (int8_t) zp;
  float p = (float) ((double) x * (double) m);
  if (isinf (p))
    return p > 0 ? 127 : -128;
  p = fminf (fmaxf (p, -1024.0f), 1024.0f);
  float r = mode == 0 ? nearbyintf (p) : mode == 1 ? truncf (p) :
      mode == 2 ? ceilf (p) : floorf (p);
  long v = (long) r + zp;
  return (int8_t) (v > 127 ? 127 : v < -128 ? -128 : v);
}

/* ---- numerics: hand-picked ---------------------------------------------- */

#define F SIMA_DTYPE_FLOAT32
#define H SIMA_DTYPE_FLOAT16
#define B SIMA_DTYPE_BFLOAT16

static void
test_quant_hand (void)
{
  static const struct {
    SimaDType dt; uint32_t bits; uint32_t mult; int zp; int want[4];
  } cases[] = {
    /* ties at .5 in every mode: NE, TZ, TP, TN */
    { F, 0x40200000, 0x3F800000, 0, { 2, 2, 3, 2 } },         /* 2.5 */
    { F, 0xC0200000, 0x3F800000, 0, { -2, -2, -2, -3 } },     /* -2.5 */
    { F, 0x40600000, 0x3F800000, 0, { 4, 3, 4, 3 } },         /* 3.5 */
    { F, 0x3F000000, 0x3F800000, 0, { 0, 0, 1, 0 } },         /* 0.5 */
    { F, 0xBF000000, 0x3F800000, 0, { 0, 0, 0, -1 } },        /* -0.5 */
    { F, 0x3FC00000, 0x3F800000, 0, { 2, 1, 2, 1 } },         /* 1.5 */
    { F, 0x40200000, 0x3F800000, 10, { 12, 12, 13, 12 } },    /* zp after */
    /* saturation by zero point */
    { F, 0xBF800000, 0x3F800000, -128, { -128, -128, -128, -128 } },
    { F, 0x3F800000, 0x3F800000, 127, { 127, 127, 127, 127 } },
    { F, 0x00000000, 0x3F800000, -5, { -5, -5, -5, -5 } },
    /* NaN -> zero_point; infinities by sign; -0 is zero */
    { F, 0x7FC00000, 0x3F800000, 7, { 7, 7, 7, 7 } },
    { F, 0xFFFFFFFF, 0x3F800000, -3, { -3, -3, -3, -3 } },
    { F, 0x7F800001, 0x00000001, 0, { 0, 0, 0, 0 } },
    { F, 0x7F800000, 0x3F800000, -128, { 127, 127, 127, 127 } },
    { F, 0xFF800000, 0x3F800000, 127, { -128, -128, -128, -128 } },
    { F, 0x80000000, 0x3F800000, 9, { 9, 9, 9, 9 } },
    /* subnormal products (multiplier 2^-149) */
    { F, 0x3F800000, 0x00000001, 0, { 0, 0, 1, 0 } },         /* 1 */
    { F, 0xBF800000, 0x00000001, 0, { 0, 0, 0, -1 } },        /* -1 */
    { F, 0x3E800000, 0x00000001, 0, { 0, 0, 0, 0 } },  /* 2^-151 -> +0 first */
    { F, 0xBE800000, 0x00000001, 0, { 0, 0, 0, 0 } },  /* -> -0 first */
    { F, 0x3F400000, 0x00000001, 0, { 0, 0, 1, 0 } },  /* 0.75q -> 1q */
    { F, 0x3F000000, 0x00000001, 0, { 0, 0, 0, 0 } },  /* 0.5q tie -> 0 */
    { F, 0x3FC00000, 0x00000001, 0, { 0, 0, 1, 0 } },  /* 1.5q tie -> 2q */
    /* binary32 rounding precedes integer rounding:
     * (0.5 + 2^-24) * (1 - 2^-24) = 0.5 + 2^-25 - 2^-48 -> 0.5 in binary32 */
    { F, 0x3F000001, 0x3F7FFFFF, 0, { 0, 0, 1, 0 } },
    /* multiplier 1e30 and product overflow saturate */
    { F, 0x3F800000, 0x7149F2CA, 0, { 127, 127, 127, 127 } },
    { F, 0xBF800000, 0x7149F2CA, 0, { -128, -128, -128, -128 } },
    { F, 0x00800000, 0x7149F2CA, 0, { 0, 0, 1, 0 } },  /* 2^-126*1e30 */
    { F, 0x7F7FFFFF, 0x40000000, -128, { 127, 127, 127, 127 } },
    { F, 0xFF7FFFFF, 0x7F7FFFFF, 127, { -128, -128, -128, -128 } },
    /* FP16 */
    { H, 0x4100, 0x3F800000, 0, { 2, 2, 3, 2 } },             /* 2.5 */
    { H, 0x3800, 0x3F800000, 0, { 0, 0, 1, 0 } },             /* 0.5 */
    { H, 0x7C01, 0x3F800000, 5, { 5, 5, 5, 5 } },
    { H, 0xFC00, 0x3F800000, 0, { -128, -128, -128, -128 } },
    { H, 0x0001, 0x4B800000, 0, { 1, 1, 1, 1 } },             /* 2^-24*2^24 */
    { H, 0x8001, 0x4B000000, 0, { 0, 0, 0, -1 } },            /* -0.5 */
    { H, 0x8000, 0x3F800000, -1, { -1, -1, -1, -1 } },
    /* BF16 is not FP16: 0x4100 is 8.0 in BF16 (2.5 in FP16) */
    { B, 0x4100, 0x3F800000, 0, { 8, 8, 8, 8 } },
    { B, 0x4020, 0x3F800000, 0, { 2, 2, 3, 2 } },             /* 2.5 */
    { B, 0x7FC1, 0x3F800000, -7, { -7, -7, -7, -7 } },
    { B, 0xFF80, 0x3F800000, 0, { -128, -128, -128, -128 } },
    { B, 0x0001, 0x7F7FFFFF, 0, { 0, 0, 1, 0 } },     /* 2^-133 * ~2^128 */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int m = 0; m < 4; m++) {
      int got = oracle_quant_bits (cases[i].dt, cases[i].bits,
          float_of (cases[i].mult), cases[i].zp, m);
      CHECK (got == cases[i].want[m], "case %zu (0x%08x) mode %d: %d, want %d",
             i, cases[i].bits, m, got, cases[i].want[m]);
    }
  report ("quant: hand-picked ties, specials, underflow, saturation");
}

static void
test_cast_hand (void)
{
  static const uint32_t f32[][2] = {
    { 0x3F800000, 0x3F80 }, { 0x3F808000, 0x3F80 }, /* tie, even stays */
    { 0x3F818000, 0x3F82 }, { 0x3F808001, 0x3F81 }, /* tie odd; above */
    { 0x7F7FFFFF, 0x7F80 }, { 0xFF7FFFFF, 0xFF80 }, /* overflow to inf */
    { 0x80000000, 0x8000 }, { 0x00000001, 0x0000 }, { 0x00008000, 0x0000 },
    { 0x00018000, 0x0002 }, { 0x7F800000, 0x7F80 }, { 0xFF800000, 0xFF80 },
    /* NaN payload effects of the bit rule */
    { 0xFFFFFFFF, 0x0000 }, { 0xFFFF8000, 0x0000 }, /* wraps mod 2^32 */
    { 0x7FFFFFFF, 0x8000 }, { 0x7FFF8000, 0x8000 }, /* carries into sign */
    { 0x7F800001, 0x7F80 }, { 0xFF800001, 0xFF80 }, /* NaN -> infinity */
    { 0x7FC00000, 0x7FC0 }, { 0xFF80FFFF, 0xFF81 }, { 0x7F80FFFF, 0x7F81 },
  };
  static const uint16_t f16[][2] = {
    { 0x7C01, 0x7FC0 }, { 0xFC01, 0xFFC0 }, { 0x7E00, 0x7FC0 },
    { 0x7FFF, 0x7FFF }, { 0xFFFF, 0xFFFF }, { 0x7C08, 0x7FC1 },
    { 0x7C00, 0x7F80 }, { 0xFC00, 0xFF80 }, { 0x8000, 0x8000 },
    { 0x0000, 0x0000 }, { 0x3C00, 0x3F80 }, { 0x0001, 0x3380 },
    { 0x8001, 0xB380 }, { 0x3C01, 0x3F80 }, { 0x3C04, 0x3F80 },
    { 0x3C0C, 0x3F82 }, { 0x3C0D, 0x3F82 }, { 0x3C08, 0x3F81 },
    { 0x7BFF, 0x4780 }, { 0x03FF, 0x3880 }, { 0xC000, 0xC000 },
  };
  for (size_t i = 0; i < sizeof f32 / sizeof f32[0]; i++) {
    uint16_t got = oracle_bf16_from_f32_bits (f32[i][0]);
    CHECK (got == f32[i][1], "f32 0x%08x -> 0x%04x, want 0x%04x", f32[i][0],
           got, f32[i][1]);
  }
  for (size_t i = 0; i < sizeof f16 / sizeof f16[0]; i++) {
    uint16_t got = oracle_bf16_from_f16_bits (f16[i][0]);
    CHECK (got == f16[i][1], "f16 0x%04x -> 0x%04x, want 0x%04x", f16[i][0],
           got, f16[i][1]);
  }
  report ("cast: hand-picked FP32/FP16 -> BF16 incl. NaN wrap and quieting");
}

static void
test_dequant_hand (void)
{
  static const struct {
    int q; uint32_t scale; int32_t zp; uint32_t f32; uint16_t bf16;
  } cases[] = {
    /* scale 1e-45 is 2^-149; zp INT32_MAX rounds to 2^31 */
    { 0, 0x00000001, INT32_MAX, 0x84800000, 0x8480 },
    { 127, 0x00000001, INT32_MAX, 0x847FFFFF, 0x8480 },
    { -128, 0x00000001, INT32_MAX, 0x84800000, 0x8480 }, /* -2^31-128 tie */
    { 1, 0x00000001, 0, 0x00000001, 0x0000 },            /* bf16 underflow */
    { -1, 0x00000001, 0, 0x80000001, 0x8000 },           /* signed zero */
    { 0, 0x00000001, 0, 0x00000000, 0x0000 },
    { -128, 0x3F800000, 127, 0xC37F0000, 0xC37F },
    { 3, 0x7F7FFFFF, 0, 0x7F800000, 0x7F80 },            /* f32 overflow */
    { -2, 0x7F7FFFFF, 0, 0xFF800000, 0xFF80 },
    { 1, 0x7F7FFFFF, 0, 0x7F7FFFFF, 0x7F80 },            /* bf16 overflow */
    { 127, 0x3F800000, INT32_MIN, 0x4F000000, 0x4F00 },
    { -128, 0x3F800000, INT32_MIN, 0x4EFFFFFF, 0x4F00 },
    { 0, 0x3F800000, 16777217, 0xCB800000, 0xCB80 },     /* z = 2^24 */
    { 1, 0x3F800000, 16777217, 0xCB7FFFFF, 0xCB80 },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint32_t f = oracle_dequant_f32_bits ((int8_t) cases[i].q,
        float_of (cases[i].scale), cases[i].zp);
    uint16_t b = oracle_dequant_bf16_bits ((int8_t) cases[i].q,
        float_of (cases[i].scale), cases[i].zp);
    CHECK (f == cases[i].f32, "case %zu: f32 0x%08x want 0x%08x", i, f,
           cases[i].f32);
    CHECK (b == cases[i].bf16, "case %zu: bf16 0x%04x want 0x%04x", i, b,
           cases[i].bf16);
  }
  CHECK (bits_of (1e-45f) == 1u, "1e-45f is not the smallest subnormal");
  report ("dequant: hand-picked wide zero points, subnormal scale, overflow");
}

/* The divide convention by hand: quotients whose nearest binary32 is known
 * (0.3f, 1/3), overflow to +-infinity by the smallest subnormal, a
 * subnormal quotient by FLT_MAX, +0 for q == zp, and YOLOv8n head 0's
 * documented example (dq_scale 0x1.6a82b8p+3, dq_zp -61, q -127). The
 * expected bits came from exact rational arithmetic (Python fractions). */
static void
test_dequant_div_hand (void)
{
  static const struct {
    int q; uint32_t scale; int32_t zp; uint32_t f32; uint16_t bf16;
  } cases[] = {
    { 3, 0x41200000, 0, 0x3E99999A, 0x3E9A },     /* 3 / 10 */
    { 1, 0x40400000, 0, 0x3EAAAAAB, 0x3EAB },     /* 1 / 3 */
    { 1, 0x00000001, 0, 0x7F800000, 0x7F80 },     /* 2^149: overflow */
    { -1, 0x00000001, 0, 0xFF800000, 0xFF80 },
    { 1, 0x7F7FFFFF, 0, 0x00200000, 0x0020 },     /* 2^-128: subnormal */
    { -128, 0x7F7FFFFF, 127, 0x837F0001, 0x837F },
    { 0, 0x3F800000, 0, 0x00000000, 0x0000 },     /* +0 */
    { 127, 0x00700000, 126, 0x7E924925, 0x7E92 },  /* by a subnormal */
    { -127, 0x4135415C, -61, 0xC0BA6EE3, 0xC0BA }, /* -66 / dq_scale */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint32_t f = oracle_dequant_div_f32_bits ((int8_t) cases[i].q,
        float_of (cases[i].scale), cases[i].zp);
    uint16_t b = oracle_dequant_div_bf16_bits ((int8_t) cases[i].q,
        float_of (cases[i].scale), cases[i].zp);
    CHECK (f == cases[i].f32, "divide case %zu: f32 0x%08x want 0x%08x", i,
           f, cases[i].f32);
    CHECK (b == cases[i].bf16, "divide case %zu: bf16 0x%04x want 0x%04x", i,
           b, cases[i].bf16);
  }
  report ("dequant divide: hand-picked quotients, overflow, subnormal, +0");
}

/* ---- numerics: second method -------------------------------------------- */

static void
test_quant_vs_hardware (void)
{
  static const float mults[] = { 1.0f, 0.5f, 0.3f, 7.0f, 0.0078125f, 1e30f,
    1e-40f, 1.4e-45f, 3e-39f, 1.1754944e-38f, 0x1p-130f, 0x1p-24f, 1e-5f };
  static const int zps[] = { -128, 0, 127, 3 };
  for (size_t mi = 0; mi < sizeof mults / sizeof mults[0]; mi++)
    for (size_t zi = 0; zi < sizeof zps / sizeof zps[0]; zi++)
      for (int mode = 0; mode < 4; mode++) {
        /* exhaustive FP16 and BF16 */
        for (uint32_t h = 0; h <= 0xFFFF; h++) {
          float xh = float_of (f16_to_f32_bits ((uint16_t) h));
          float xb = float_of (h << 16);
          int gh = oracle_quant_bits (H, h, mults[mi], zps[zi], mode);
          int gb = oracle_quant_bits (B, h, mults[mi], zps[zi], mode);
          CHECK (gh == hw_quant (xh, mults[mi], zps[zi], mode),
                 "fp16 0x%04x m=%a zp=%d mode %d", h, mults[mi], zps[zi], mode);
          CHECK (gb == hw_quant (xb, mults[mi], zps[zi], mode),
                 "bf16 0x%04x m=%a zp=%d mode %d", h, mults[mi], zps[zi], mode);
        }
        /* sampled FP32, biased toward small exponents and specials */
        for (int k = 0; k < 20000; k++) {
          uint32_t b = (uint32_t) rnd ();
          if (k & 1)
            b = (b & 0x807FFFFFu) | (uint32_t) rnd_range (0, 140) << 23;
          int g = oracle_quant_bits (F, b, mults[mi], zps[zi], mode);
          CHECK (g == hw_quant (float_of (b), mults[mi], zps[zi], mode),
                 "fp32 0x%08x m=%a zp=%d mode %d", b, mults[mi], zps[zi],
                 mode);
        }
      }
  report ("quant: exhaustive FP16/BF16, sampled FP32 vs float hardware");
}

static void
test_cast_second_method (void)
{
  static const uint32_t lows[] = { 0x0000, 0x0001, 0x7FFF, 0x8000, 0x8001,
    0xFFFF, 0x4000, 0xC000 };
  /* FP32: every upper half with edge and random lower halves vs the literal
   * uint32 expression (NaN upper halves included). */
  for (uint32_t hi = 0; hi <= 0xFFFF; hi++) {
    for (size_t j = 0; j < sizeof lows / sizeof lows[0]; j++) {
      uint32_t b = hi << 16 | lows[j];
      CHECK (oracle_bf16_from_f32_bits (b) == bf16_literal (b),
             "f32 0x%08x", b);
    }
    uint32_t b = hi << 16 | (uint32_t) (rnd () & 0xFFFF);
    CHECK (oracle_bf16_from_f32_bits (b) == bf16_literal (b), "f32 0x%08x", b);
  }
  /* FP16: every encoding vs integer widening to FP32 + the literal rule
   * (exact widening, so one rounding), NaN by the stated policy. */
  for (uint32_t h = 0; h <= 0xFFFF; h++) {
    uint16_t want;
    if ((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu))
      want = (uint16_t) ((h & 0x8000u) | 0x7FC0u | ((h & 0x3FFu) >> 3));
    else
      want = bf16_literal (f16_to_f32_bits ((uint16_t) h));
    CHECK (oracle_bf16_from_f16_bits ((uint16_t) h) == want, "f16 0x%04x", h);
  }
  report ("cast: FP32 vs literal expression, exhaustive FP16 vs widening");
}

static void
test_dequant_vs_hardware (void)
{
  static const int32_t zps[] = { 0, 1, -1, 127, -128, 1000, 16777217,
    -16777217, 16777219, INT32_MAX, INT32_MIN, 2147483520, 123456789,
    -987654321 };
  static const float scales[] = { 1.0f, 0.5f, 1.4e-45f, 4.2e-45f, 1e-40f,
    1.1754944e-38f, 0.003921569f, 1e30f, FLT_MAX, 3.0f, 0.1f, 1e-20f };
  for (size_t zi = 0; zi < sizeof zps / sizeof zps[0]; zi++)
    for (size_t si = 0; si < sizeof scales / sizeof scales[0]; si++)
      for (int q = -128; q <= 127; q++) {
        /* Plain float arithmetic: each operation rounds once (x86-64 SSE,
         * FLT_EVAL_METHOD 0, -ffp-contract=off). */
        float z = (float) zps[zi];
        float d = (float) q - z;
        float r = d * scales[si];
        uint32_t f = oracle_dequant_f32_bits ((int8_t) q, scales[si], zps[zi]);
        uint16_t b = oracle_dequant_bf16_bits ((int8_t) q, scales[si],
            zps[zi]);
        CHECK (f == bits_of (r), "q=%d zp=%d s=%a: 0x%08x want 0x%08x", q,
               zps[zi], scales[si], f, bits_of (r));
        CHECK (b == bf16_literal (bits_of (r)), "q=%d zp=%d s=%a bf16", q,
               zps[zi], scales[si]);
      }
  report ("dequant: every INT8 value vs float hardware, both outputs");
}


/* ---- UINT8 input -------------------------------------------------------- */

#define U SIMA_DTYPE_UINT8

/* SiMa's 8-bit preproc multiplier 255.0697f / 255 (the nearest float of the
 * quotient: 0x3F8008F5, 1.00027334690094). */
static float
sima_u8_multiplier (void)
{
  volatile float num = 255.0697f, den = 255.0f;
  return num / den;
}

/* Hand values (exact rational arithmetic, Python fractions):
 *  - SiMa's preproc with zp -128: 255 -> 255.0697021484375 -> 127 in every
 *    mode (TowardPositive 256 - 128 saturates); 0 -> -128; 128 -> 128.03499
 *    -> 0, 0, 1, 0; 1 -> 1.00027 -> -127, -127, -126, -127;
 *  - exact ties 5 * 0.5 = 2.5 and 3 * 0.5 = 1.5;
 *  - a tie MADE by the binary32 product rounding: 255 * 0x3F7F7F80
 *    (0.998039245605) is exactly 254.5 + 2^-17, the midpoint between the
 *    binary32 neighbours 254.5 (even) and 254.5 + 2^-16, so the product is
 *    254.5 and nearest-even gives 254 (-> 126), where rounding the exact
 *    value would give 255 (-> 127);
 *  - the same made upward: 5 * 0x40466666 (3.09999990463) is exactly
 *    15.5 - 2^-21, midway between 15.5 - 2^-20 (odd) and 15.5 (even): the
 *    product is 15.5 and nearest-even gives 16 (the exact value gives 15);
 *  - subnormal multiplier 2^-149: 1 * m = 2^-149 -> 0, 0, 1, 0;
 *  - FLT_MAX: 255 * FLT_MAX overflows binary32 -> +inf -> 127; 0 * FLT_MAX
 *    -> 0 -> zero point;
 *  - only the low byte of the carrier counts (0xFFFFFF00 | 7 is 7). */
static void
test_u8_hand (void)
{
  const float ms = sima_u8_multiplier ();
  const float tie_dn = float_of (0x3F7F7F80u), tie_up = float_of (0x40466666u);
  const struct {
    uint32_t bits; float mult; int zp; int want[4];
  } cases[] = {
    { 255, ms, -128, { 127, 127, 127, 127 } },
    { 0, ms, -128, { -128, -128, -128, -128 } },
    { 128, ms, -128, { 0, 0, 1, 0 } },
    { 127, ms, -128, { -1, -1, 0, -1 } },
    { 1, ms, -128, { -127, -127, -126, -127 } },
    { 254, ms, -128, { 126, 126, 127, 126 } },
    { 5, 0.5f, -128, { -126, -126, -125, -126 } },       /* 2.5 */
    { 3, 0.5f, 0, { 2, 1, 2, 1 } },                       /* 1.5 */
    { 7, 0.5f, 10, { 14, 13, 14, 13 } },                  /* 3.5 + 10 */
    { 255, tie_dn, -128, { 126, 126, 127, 126 } },        /* made tie */
    { 255, tie_dn, 0, { 127, 127, 127, 127 } },
    { 5, tie_up, 0, { 16, 15, 16, 15 } },                 /* made tie */
    { 5, tie_up, -128, { -112, -113, -112, -113 } },
    { 1, 0x1p-149f, 0, { 0, 0, 1, 0 } },
    { 255, 0x1p-149f, -3, { -3, -3, -2, -3 } },
    { 255, FLT_MAX, -128, { 127, 127, 127, 127 } },
    { 0, FLT_MAX, 5, { 5, 5, 5, 5 } },
    { 0xFFFFFF00u | 7u, 1.0f, 0, { 7, 7, 7, 7 } },
    { 0x100u, 1.0f, 0, { 0, 0, 0, 0 } },
    { 200, 1.0f / 255.0f, 0, { 1, 0, 1, 0 } },            /* 0.784.. */
    { 255, 127.0f, -128, { 127, 127, 127, 127 } },
  };
  /* the made tie really is one: the exact product is not a half integer */
  CHECK ((double) 255 * (double) tie_dn == 254.5 + 0x1p-17,
         "255 * 0x3F7F7F80 is not 254.5 + 2^-17");
  CHECK ((double) 5 * (double) tie_up == 15.5 - 0x1p-21,
         "5 * 0x40466666 is not 15.5 - 2^-21");
  CHECK (bits_of (ms) == 0x3F8008F5u, "SiMa multiplier bits 0x%08x",
         bits_of (ms));
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int m = 0; m < 4; m++) {
      int got = oracle_quant_bits (U, cases[i].bits, cases[i].mult,
          cases[i].zp, m);
      CHECK (got == cases[i].want[m], "u8 case %zu (%u) mode %d: %d, want %d",
             i, cases[i].bits & 0xFFu, m, got, cases[i].want[m]);
    }
  static const uint16_t bf[][2] = {
    { 0, 0x0000 }, { 1, 0x3F80 }, { 2, 0x4000 }, { 3, 0x4040 },
    { 127, 0x42FE }, { 128, 0x4300 }, { 129, 0x4301 }, { 200, 0x4348 },
    { 254, 0x437E }, { 255, 0x437F },
  };
  for (size_t i = 0; i < sizeof bf / sizeof bf[0]; i++) {
    uint16_t got = oracle_bf16_from_u8 ((uint8_t) bf[i][0]);
    CHECK (got == bf[i][1], "u8 %u -> bf16 0x%04x, want 0x%04x", bf[i][0],
           got, bf[i][1]);
  }
  report ("u8: hand-picked SiMa preproc, exact and made ties, edges, cast");
}

/* A second, integer-only formula for UINT8 QuantTess: the multiplier is
 * M * 2^E (M the 24-bit significand as an integer), so x * m = (x*M) * 2^E
 * with x*M < 2^32 an exact integer; it is rounded to 24 significant bits by
 * integer shifts (nearest even), overflow checked against 2^128, and the
 * integer rounding is done on the scaled integer. No floating point. */
static int
int_quant_u8 (unsigned x, uint32_t mbits, int zp, int mode)
{
  uint32_t ef = (mbits >> 23) & 0xFFu;
  uint64_t mant = mbits & 0x7FFFFFu;
  int e = ef ? (int) ef - 150 : -149;
  int64_t r;

  if (ef)
    mant |= 0x800000u;
  uint64_t n = (uint64_t) x * mant;           /* value n * 2^e, n < 2^32 */
  if (n == 0)
    return zp;
  int len = 64 - __builtin_clzll (n);
  if (len > 24) {                             /* binary32 rounding */
    int sh = len - 24;
    uint64_t q = n >> sh, rem = n & ((1ull << sh) - 1), half = 1ull << (sh - 1);
    if (rem > half || (rem == half && (q & 1)))
      q++;
    n = q;
    e += sh;
    if (n >> 24) {                            /* carry: renormalize */
      n >>= 1;
      e++;
    }
  }
  if (e + 64 - __builtin_clzll (n) > 128)    /* >= 2^128: +inf */
    return 127;
  if (e >= 0) {
    if (e > 16)
      return 127;                             /* n >= 1 times 2^17 */
    r = (int64_t) (n << e);
  } else {
    int sh = -e;
    uint64_t q, rem;
    int above, tie;
    if (sh > 40) {                            /* n < 2^32 < half of 2^sh */
      q = 0;
      rem = n;
      above = tie = 0;
    } else {
      q = n >> sh;
      rem = n - (q << sh);
      above = rem > (1ull << (sh - 1));
      tie = rem == (1ull << (sh - 1));
    }
    switch (mode) {
      case 0: r = (int64_t) q + (above || (tie && (q & 1))); break;
      case 2: r = (int64_t) q + (rem != 0); break;
      default: r = (int64_t) q; break;        /* TZ and TN: x*m >= 0 */
    }
  }
  r += zp;
  return r > 127 ? 127 : r < -128 ? -128 : (int) r;
}

/* UINT8 -> BF16 by bit construction: exponent from the leading bit, the 7
 * bits below it as the fraction. */
static uint16_t
int_bf16_u8 (unsigned x)
{
  if (x == 0)
    return 0;
  int msb = 31 - __builtin_clz (x);
  return (uint16_t) ((unsigned) (127 + msb) << 7 |
                     ((x << (7 - msb)) & 0x7Fu));
}

/* All 256 values, many multipliers (SiMa's, the made tie, exact ties,
 * subnormal, huge), several zero points, all four modes: the oracle against
 * the integer formula above AND float hardware (hw_quant of (float) x). */
static void
test_u8_exhaustive (void)
{
  const float mults[] = { sima_u8_multiplier (), 1.0f, 0.5f, 0.25f,
    1.0f / 255.0f, float_of (0x3F7F7F80u), float_of (0x40466666u),
    127.0f / 255.0f, 0.3f,
    0.0078125f, 0x1p-149f, 3e-39f, 0x1p-126f, 1e-5f, 7.0f, 127.0f, 1e30f,
    FLT_MAX, 255.0697f, 0.49803922f, 0.501960813f };
  const int zps[] = { -128, -127, -1, 0, 1, 5, 64, 127 };
  long checks = 0;
  for (size_t mi = 0; mi < sizeof mults / sizeof mults[0]; mi++)
    for (size_t zi = 0; zi < sizeof zps / sizeof zps[0]; zi++)
      for (int mode = 0; mode < 4; mode++)
        for (unsigned x = 0; x < 256; x++) {
          int got = oracle_quant_bits (U, x, mults[mi], zps[zi], mode);
          int w1 = int_quant_u8 (x, bits_of (mults[mi]), zps[zi], mode);
          int w2 = hw_quant ((float) x, mults[mi], zps[zi], mode);
          CHECK (got == w1, "u8 %u m=%a zp=%d mode %d: %d, integer %d", x,
                 mults[mi], zps[zi], mode, got, w1);
          CHECK (got == w2, "u8 %u m=%a zp=%d mode %d: %d, hardware %d", x,
                 mults[mi], zps[zi], mode, got, w2);
          checks += 2;
        }
  for (unsigned x = 0; x < 256; x++) {
    uint16_t got = oracle_bf16_from_u8 ((uint8_t) x);
    CHECK (got == int_bf16_u8 (x), "u8 %u -> 0x%04x, bit construction 0x%04x",
           x, got, int_bf16_u8 (x));
    CHECK (got == (uint16_t) (bits_of ((float) x) >> 16),
           "u8 %u -> 0x%04x, hardware", x, got);
    /* exact: decoding the BF16 back gives the integer */
    CHECK (float_of ((uint32_t) got << 16) == (float) x, "u8 %u not exact", x);
    checks += 3;
  }
  printf ("# %ld UINT8 checks\n", checks);
  report ("u8: all 256 values vs integer formula and float hardware");
}

/* Camera-like UINT8 views, by hand: a 2x2 RGBX frame (pixel stride 4, rows
 * padded to 12 bytes) and a 2x3 GRAY8 frame with 5-byte rows, quantized
 * into one pixel-major INT8 tile and cast into BF16 (low plane, then high
 * plane per pixel). */
static void
test_u8_views_hand (void)
{
  const int64_t s3[3] = { 2, 2, 3 }, s1[3] = { 2, 3, 1 };
  const int8_t axes[4] = { -1, 0, 1, 2 };
  const int64_t t3[4] = { 1, 2, 2, 3 }, t1[4] = { 1, 2, 3, 1 };
  /* row 0: (10,20,30,X) (40,50,60,X) pad*4; row 1: (70,80,90,X) (0,128,255,X) */
  const uint8_t rgbx[24] = { 10, 20, 30, 0xEE, 40, 50, 60, 0xEE, 1, 2, 3, 4,
    70, 80, 90, 0xEE, 0, 128, 255, 0xEE, 5, 6, 7, 8 };
  const uint8_t rgb_vals[12] = { 10, 20, 30, 40, 50, 60, 70, 80, 90, 0, 128,
    255 };
  const uint8_t gray[10] = { 0, 1, 2, 0xEE, 0xEE, 253, 254, 255, 0xEE, 0xEE };
  const uint8_t gray_vals[6] = { 0, 1, 2, 253, 254, 255 };
  SimaTensorSpec in = dense (3, s3, U);
  in.layout = SIMA_LAYOUT_STRIDED;
  in.strides_bytes[0] = 12;
  in.strides_bytes[1] = 4;
  in.strides_bytes[2] = 1;
  CHECK (oracle_required_bytes (&in) == 12 + 4 + 2 + 1, "rgbx view size %llu",
         (unsigned long long) oracle_required_bytes (&in));
  SimaTensorSpec o = tiled (3, s3, SIMA_DTYPE_INT8, axes, t3,
                            SIMA_CHANNELS_COMPACT);
  uint8_t got[64], want[64];
  memset (got, 0xAB, sizeof got);
  memset (want, 0xAB, sizeof want);
  memset (want, 0, 16);
  for (int i = 0; i < 12; i++)
    want[i] = (uint8_t) (rgb_vals[i] - 128);   /* m 1, zp -128 */
  oracle_quanttess (&in, rgbx, &o, 1.0f, -128, 0, got);
  check_bytes (got, want, sizeof got, "rgbx -> int8");

  /* SiMa's multiplier on the same frame, pad16: 3 values + 13 zp bytes */
  o.tiled.channels = SIMA_CHANNELS_PAD16;
  memset (got, 0xAB, sizeof got);
  memset (want, 0xAB, sizeof want);
  memset (want, 0x80, 64);
  for (int p = 0; p < 4; p++)
    for (int c = 0; c < 3; c++)
      want[p * 16 + c] = (uint8_t) oracle_quant_bits (U, rgb_vals[p * 3 + c],
          sima_u8_multiplier (), -128, 0);
  CHECK (want[3 * 16 + 2] == 127 && want[3 * 16] == 0x80 &&
         want[3 * 16 + 1] == 0, "SiMa preproc of 0, 128, 255");
  oracle_quanttess (&in, rgbx, &o, sima_u8_multiplier (), -128, 0, got);
  check_bytes (got, want, sizeof got, "rgbx -> int8 pad16, SiMa multiplier");

  /* BF16 compact: per pixel 3 low bytes, then 3 high bytes (24 -> 32) */
  o.dtype = SIMA_DTYPE_BFLOAT16;
  o.tiled.channels = SIMA_CHANNELS_COMPACT;
  memset (got, 0xAB, sizeof got);
  memset (want, 0xAB, sizeof want);
  memset (want, 0, 32);
  for (int p = 0; p < 4; p++)
    for (int c = 0; c < 3; c++) {
      uint16_t b = int_bf16_u8 (rgb_vals[p * 3 + c]);
      want[p * 6 + c] = (uint8_t) b;
      want[p * 6 + 3 + c] = (uint8_t) (b >> 8);
    }
  oracle_casttess (&in, rgbx, &o, got);
  check_bytes (got, want, sizeof got, "rgbx -> bf16");

  /* GRAY8 <2,3,1>, row pitch 5: one tile of 6 pixels x 1 channel */
  SimaTensorSpec g = dense (3, s1, U);
  g.layout = SIMA_LAYOUT_STRIDED;
  g.strides_bytes[0] = 5;
  g.strides_bytes[1] = 1;
  g.strides_bytes[2] = 1;
  SimaTensorSpec go = tiled (3, s1, SIMA_DTYPE_INT8, axes, t1,
                             SIMA_CHANNELS_COMPACT);
  memset (got, 0xAB, sizeof got);
  memset (want, 0xAB, sizeof want);
  memset (want, 0, 16);
  for (int i = 0; i < 6; i++)
    want[i] = (uint8_t) int_quant_u8 (gray_vals[i], bits_of (0.5f), 3, 0);
  oracle_quanttess (&g, gray, &go, 0.5f, 3, 0, got);
  check_bytes (got, want, sizeof got, "gray8 -> int8");
  /* 0 -> 0+3; 0.5 -> 0 (even) +3; 1 -> 1+3; 126.5, 127, 127.5 saturate */
  CHECK (got[0] == 3 && got[1] == 3 && got[2] == 4 && got[3] == 127 &&
         got[4] == 127 && got[5] == 127, "gray8 hand bytes %d %d %d %d",
         got[0], got[1], got[2], got[5]);
  report ("u8: RGBX (pixel stride 4, padded rows) and GRAY8 views by hand");
}

/* ---- layout: worked examples -------------------------------------------- */

static void
test_worked_examples (void)
{
  const int64_t shape[2] = { 2, 3 };
  const int8_t axes[4] = { -1, -1, 0, 1 };
  const int64_t tile[4] = { 1, 1, 2, 3 };
  const float vals[6] = { 1, 2, 3, 4, 5, 6 };
  const uint16_t bvals[6] = { 0x1122, 0x3344, 0x5566, 0x7788, 0x99AA,
    0xBBCC };
  SimaTensorSpec in = dense (2, shape, F);
  SimaTensorSpec bin = dense (2, shape, B);
  uint8_t buf[96], want[96];

  /* INT8 Compact: one 6-byte tile, gap 6..15 zero. */
  SimaTensorSpec o = tiled (2, shape, SIMA_DTYPE_INT8, axes, tile,
                            SIMA_CHANNELS_COMPACT);
  CHECK (oracle_required_bytes (&o) == 16, "compact size %llu",
         (unsigned long long) oracle_required_bytes (&o));
  memset (buf, 0xAB, sizeof buf);
  memset (want, 0xAB, sizeof want);
  memset (want, 0, 16);
  for (int i = 0; i < 6; i++)
    want[i] = (uint8_t) (i + 1);
  oracle_quanttess (&in, vals, &o, 1.0f, 0, 0, buf);
  check_bytes (buf, want, sizeof buf, "int8 compact");

  /* INT8 PadTo16, zero_point -7 (0xF9) in the 13 padding channels; the
   * values are x + zero_point = -6..-1. */
  o.tiled.channels = SIMA_CHANNELS_PAD16;
  CHECK (oracle_required_bytes (&o) == 32, "pad16 size");
  memset (buf, 0xAB, sizeof buf);
  memset (want, 0xAB, sizeof want);
  memset (want, 0xF9, 32);
  for (int i = 0; i < 3; i++) {
    want[i] = (uint8_t) (i + 1 - 7);
    want[16 + i] = (uint8_t) (i + 4 - 7);
  }
  oracle_quanttess (&in, vals, &o, 1.0f, -7, 0, buf);
  check_bytes (buf, want, sizeof buf, "int8 pad16");

  /* BF16 PadTo16: per pixel 16 low bytes then 16 high bytes. */
  o.dtype = B;
  CHECK (oracle_required_bytes (&o) == 64, "bf16 pad16 size");
  memset (buf, 0xAB, sizeof buf);
  memset (want, 0xAB, sizeof want);
  memset (want, 0, 64);
  for (int w = 0; w < 2; w++)
    for (int c = 0; c < 3; c++) {
      want[w * 32 + c] = (uint8_t) (bvals[w * 3 + c] & 0xFF);
      want[w * 32 + 16 + c] = (uint8_t) (bvals[w * 3 + c] >> 8);
    }
  oracle_casttess (&bin, bvals, &o, buf);
  check_bytes (buf, want, sizeof buf, "bf16 pad16 from bf16");

  /* CastTess spec example: rank 6, axes {2,3,4,5}, BF16 Compact: one tile
   * of 2 pixels x (3 low + 3 high) = 12 bytes, span 16. */
  const int64_t s6[6] = { 1, 1, 1, 1, 2, 3 };
  const int8_t a6[4] = { 2, 3, 4, 5 };
  SimaTensorSpec i6 = dense (6, s6, B);
  SimaTensorSpec o6 = tiled (6, s6, B, a6, tile, SIMA_CHANNELS_COMPACT);
  CHECK (oracle_required_bytes (&o6) == 16, "rank-6 bf16 compact size");
  memset (buf, 0xAB, sizeof buf);
  memset (want, 0xAB, sizeof want);
  memset (want, 0, 16);
  for (int w = 0; w < 2; w++)
    for (int c = 0; c < 3; c++) {
      want[w * 6 + c] = (uint8_t) (bvals[w * 3 + c] & 0xFF);
      want[w * 6 + 3 + c] = (uint8_t) (bvals[w * 3 + c] >> 8);
    }
  oracle_casttess (&i6, bvals, &o6, buf);
  check_bytes (buf, want, sizeof buf, "rank-6 bf16 compact");

  /* FP32 {2,3} strides {32,8}: 4 + 1*32 + 2*8 = 52 bytes. */
  SimaTensorSpec st = dense (2, shape, F);
  st.layout = SIMA_LAYOUT_STRIDED;
  st.strides_bytes[0] = 32;
  st.strides_bytes[1] = 8;
  CHECK (oracle_required_bytes (&st) == 52, "strided size %llu",
         (unsigned long long) oracle_required_bytes (&st));
  int64_t c12[2] = { 1, 2 };
  CHECK (oracle_element_offset (&st, c12) == 48, "strided offset");
  /* quanttess from that strided view; holes hold NaN and must not matter */
  float sv[13];
  for (int i = 0; i < 13; i++)
    sv[i] = NAN;
  for (int i = 0; i < 6; i++)
    sv[(i / 3) * 8 + (i % 3) * 2] = vals[i];
  o.dtype = SIMA_DTYPE_INT8;
  o.tiled.channels = SIMA_CHANNELS_COMPACT;
  memset (buf, 0xAB, sizeof buf);
  oracle_quanttess (&st, sv, &o, 2.0f, 0, 0, buf);
  for (int i = 0; i < 6; i++)
    CHECK (buf[i] == 2 * (i + 1), "strided quant byte %d = %d", i, buf[i]);
  report ("layout: worked examples (INT8 Compact/PadTo16, BF16, 52-byte view)");
}

/* ---- layout: hand-computed tiled and blocked geometry ------------------- */

static void
test_tiled_hand (void)
{
  /* [outer=2, D=3, H=3, W=3, C=5], tile {2,2,2,4}: partial tiles on every
   * dimension. Compact INT8 spans per C-full class: pixels 8,4,4,2,4,2,2,1
   * times 4 channels, rounded to 16 -> 32+16*7 = 144; C-boundary (1 channel):
   * 8 tiles x 16 = 128; slice 272; total 544. */
  const int64_t shape[5] = { 2, 3, 3, 3, 5 };
  const int8_t axes[4] = { 1, 2, 3, 4 };
  const int64_t tile[4] = { 2, 2, 2, 4 };
  SimaTensorSpec s = tiled (5, shape, SIMA_DTYPE_INT8, axes, tile,
                            SIMA_CHANNELS_COMPACT);
  CHECK (oracle_required_bytes (&s) == 544, "compact %llu",
         (unsigned long long) oracle_required_bytes (&s));
  /* element (1,2,0,2,4): tile (c1,d1,h0,w1). Before it in the slice: all of
   * c0 (144), the 4 tiles of c1,d0 (64), tile c1,d1,h0,w0 (16) -> 224; pixel
   * 0 of a 1x2x1 tile, channel 0; plus slice 272 -> 496. */
  int64_t e[5] = { 1, 2, 0, 2, 4 };
  CHECK (oracle_element_offset (&s, e) == 496, "offset %lld",
         (long long) oracle_element_offset (&s, e));
  /* element (0,1,2,1,2): tile (c0,d0,h1,w0), ext D2 H1 W2 C4; preceding
   * tiles c0,d0,h0,w0 (32) and c0,d0,h0,w1 (16) -> 48; pixel (1,0,1) =
   * (1*1+0)*2+1 = 3 -> 12; channel 2 -> 62. */
  int64_t e2[5] = { 0, 1, 2, 1, 2 };
  CHECK (oracle_element_offset (&s, e2) == 62, "offset2 %lld",
         (long long) oracle_element_offset (&s, e2));
  s.tiled.channels = SIMA_CHANNELS_PAD16;          /* 16 ch * 27 px * 2 */
  CHECK (oracle_required_bytes (&s) == 2 * 2 * 27 * 16, "pad16");
  s.dtype = B;
  s.tiled.channels = SIMA_CHANNELS_COMPACT;
  /* BF16 compact: C-full 64+32+32+16+32+16+16+16 = 224, C-boundary 128. */
  CHECK (oracle_required_bytes (&s) == 2 * 352, "bf16 compact %llu",
         (unsigned long long) oracle_required_bytes (&s));
  /* channel axis first, outer axis in the middle: [C=5, outer=2, W=3] */
  const int64_t sh2[3] = { 5, 2, 3 };
  const int8_t ax2[4] = { -1, -1, 2, 0 };
  const int64_t t2[4] = { 1, 1, 2, 3 };
  SimaTensorSpec p = tiled (3, sh2, SIMA_DTYPE_INT8, ax2, t2,
                            SIMA_CHANNELS_COMPACT);
  /* tiles (c0,w0) 6->16, (c0,w1) 3->16, (c1,w0) 4->16, (c1,w1) 2->16 */
  CHECK (oracle_required_bytes (&p) == 128, "permuted size");
  int64_t e3[3] = { 4, 1, 2 };          /* c1 tile, w1 tile, slice 1 */
  CHECK (oracle_element_offset (&p, e3) == 64 + 48 + 1, "permuted offset");
  report ("layout: hand-computed tiled sizes and offsets, partial everywhere");
}

static void
test_cblocked (void)
{
  /* [outer=2, H=2, W=3, C=17]: CB = 2, size 2*2*2*3*16 = 384. */
  const int64_t shape[4] = { 2, 2, 3, 17 };
  SimaTensorSpec in = dense (4, shape, SIMA_DTYPE_INT8);
  in.layout = SIMA_LAYOUT_MLA_CBLOCKED;
  SimaTensorSpec out = dense (4, shape, F);
  uint8_t src[384];
  float dst[204];

  CHECK (oracle_required_bytes (&in) == 384, "size");
  int64_t e[4] = { 1, 1, 2, 16 };       /* ((1*2+1)*2+1)*48 + 2*16 + 0 */
  CHECK (oracle_element_offset (&in, e) == 368, "offset");
  /* Sequential walk of blocks [o][cb][h][w][16] with garbage in padding. */
  int64_t pos = 0;
  for (int o = 0; o < 2; o++)
    for (int cb = 0; cb < 2; cb++)
      for (int h = 0; h < 2; h++)
        for (int w = 0; w < 3; w++)
          for (int l = 0; l < 16; l++, pos++) {
            int c = cb * 16 + l;
            src[pos] = c < 17 ?
                (uint8_t) (((o * 2 + h) * 3 + w) * 17 + c - 100) : 0x7F;
          }
  oracle_detessdequant (&in, src, &out, 0.5f, 0, (uint8_t *) dst);
  for (int i = 0; i < 204; i++) {
    int8_t q = (int8_t) (i - 100);
    CHECK (dst[i] == 0.5f * q, "element %d = %g", i, dst[i]);
  }
  report ("layout: CBlocked C=17 size, offset, dequant ignoring padding");
}

/* ---- layout: random geometries vs a sequential walker ------------------- */

/* Packs tiles in physical order (outer slices, tiles C,D,H,W, then inside a
 * tile: channel runs, pixels D,H,W, planes, channels of the run, alignment
 * tail) and records, per logical element, the offset of its low byte and the
 * distance to its high byte; kind[] gets 0 gap, 1 padding, 2 low/INT8 value
 * byte, 3 high byte. Returns the size. A channel run is all the stored
 * channels (one run per tile) normally, 16 channels with cblock. */
static int64_t
walk_tiled (const SimaTensorSpec *s, int64_t *elem_off, int64_t *elem_st,
            uint8_t *kind)
{
  int64_t n[4], t[4], nt[4], outer_n = 1, pos = 0, coords[SIMA_MAX_RANK];
  int outer_ax[SIMA_MAX_RANK], n_outer = 0;
  int bpe = s->dtype == B ? 2 : 1;
  for (int i = 0; i < s->rank; i++) {
    int mapped = 0;
    for (int k = 0; k < 4; k++)
      mapped |= s->tiled.axes[k] == i;
    if (!mapped) {
      outer_ax[n_outer++] = i;
      outer_n *= s->shape[i];
    }
  }
  for (int k = 0; k < 4; k++) {
    n[k] = s->tiled.axes[k] < 0 ? 1 : s->shape[s->tiled.axes[k]];
    t[k] = s->tiled.tile_shape[k];
    nt[k] = (n[k] + t[k] - 1) / t[k];
  }
  for (int64_t o = 0; o < outer_n; o++) {
    int64_t rest = o;
    for (int j = n_outer - 1; j >= 0; j--) {
      coords[outer_ax[j]] = rest % s->shape[outer_ax[j]];
      rest /= s->shape[outer_ax[j]];
    }
    for (int64_t ic = 0; ic < nt[3]; ic++)
      for (int64_t id = 0; id < nt[0]; id++)
        for (int64_t ih = 0; ih < nt[1]; ih++)
          for (int64_t iw = 0; iw < nt[2]; iw++) {
            int64_t i4[4] = { id, ih, iw, ic }, e[4], start = pos;
            for (int k = 0; k < 4; k++)
              e[k] = n[k] - i4[k] * t[k] < t[k] ? n[k] - i4[k] * t[k] : t[k];
            int64_t st = s->tiled.channels == SIMA_CHANNELS_PAD16 ?
                (e[3] + 15) / 16 * 16 : e[3];
            int64_t run = s->tiled.cblock ? 16 : st;
            for (int64_t r0 = 0; r0 < st; r0 += run)
              for (int64_t d = 0; d < e[0]; d++)
                for (int64_t h = 0; h < e[1]; h++)
                  for (int64_t w = 0; w < e[2]; w++)
                    for (int pl = 0; pl < bpe; pl++)
                      for (int64_t c = r0; c < r0 + run; c++, pos++) {
                        int64_t u[4] = { d, h, w, c };
                        if (c >= e[3]) {
                          if (kind)
                            kind[pos] = 1;
                          continue;
                        }
                        for (int k = 0; k < 4; k++)
                          if (s->tiled.axes[k] >= 0)
                            coords[s->tiled.axes[k]] = i4[k] * t[k] + u[k];
                        int64_t idx = 0;
                        for (int i = 0; i < s->rank; i++)
                          idx = idx * s->shape[i] + coords[i];
                        if (kind)
                          kind[pos] = (uint8_t) (2 + pl);
                        if (elem_off && pl == 0) {
                          elem_off[idx] = pos;
                          elem_st[idx] = run;
                        }
                      }
            for (; (pos - start) % 16; pos++)
              if (kind)
                kind[pos] = 0;
          }
  }
  return pos;
}

/* A random valid tiled spec (shape, axes, tiles, channel mode) of dtype;
 * cblock forces pad16 channels with the cblock flag. */
static SimaTensorSpec
random_tiled (SimaDType dtype, int cblock)
{
  static const int64_t cvals[] = { 1, 2, 3, 5, 16, 17, 32, 33 };
  SimaTensorSpec s;
  int64_t total;
  do {
    memset (&s, 0, sizeof s);
    s.rank = (int) rnd_range (1, 6);
    s.dtype = dtype;
    s.layout = SIMA_LAYOUT_MLA_TILED;
    s.tiled.channels = (SimaChannels) rnd_range (0, 1);
    if (cblock) {
      s.tiled.channels = SIMA_CHANNELS_PAD16;
      s.tiled.cblock = 1;
    }
    total = 1;
    for (int i = 0; i < s.rank; i++) {
      s.shape[i] = rnd_range (1, 4);
      total *= s.shape[i];
    }
    int perm[SIMA_MAX_RANK];
    shuffle (perm, s.rank);
    int used = 0;
    int cax = perm[used++];
    total /= s.shape[cax];
    s.shape[cax] = cvals[rnd () % 8];
    total *= s.shape[cax];
    s.tiled.axes[3] = (int8_t) cax;
    s.tiled.tile_shape[3] = rnd_range (1, s.shape[cax] + 3);
    if (cblock && rnd () % 4 != 0) {  /* mostly several 16-channel blocks */
      static const int64_t wide[] = { 17, 20, 32, 33, 47, 64 };
      total /= s.shape[cax];
      s.shape[cax] = wide[rnd () % 6];
      total *= s.shape[cax];
      s.tiled.tile_shape[3] = rnd_range (17, s.shape[cax] + 3);
    }
    for (int k = 0; k < 3; k++) {
      if (used < s.rank && rnd () % 3) {
        int ax = perm[used++];
        s.tiled.axes[k] = (int8_t) ax;
        s.tiled.tile_shape[k] = rnd_range (1, s.shape[ax] + 1);
      } else {
        s.tiled.axes[k] = -1;
        s.tiled.tile_shape[k] = 1;
      }
    }
  } while (total > 4000);
  return s;
}

/* A random non-overlapping strided (or contiguous) view of in's shape:
 * axes stacked in a random physical order with random extra pitch. */
static void
randomize_view (SimaTensorSpec *v)
{
  int order[SIMA_MAX_RANK];
  int64_t sc = v->dtype == F ? 4 : v->dtype == U ? 1 : 2, next;
  if (rnd () % 3 == 0)
    return;                                   /* keep contiguous */
  v->layout = SIMA_LAYOUT_STRIDED;
  shuffle (order, v->rank);
  next = sc * rnd_range (1, 2);
  for (int i = 0; i < v->rank; i++) {
    int ax = order[i];
    v->strides_bytes[ax] = next;
    next = next * v->shape[ax] + sc * rnd_range (0, 3);
  }
}

/* in_u8: every input is a UINT8 view (contiguous or random strides, 1-byte
 * scalars) instead of cycling FP32/FP16/BF16. */
static void
test_random_tiled (int cblock, int in_u8)
{
  int differs = 0;          /* geometries whose first tile has S > 16, P > 1 */
  for (int iter = 0; iter < 600; iter++) {
    SimaDType odt = iter % 2 ? B : SIMA_DTYPE_INT8;
    SimaTensorSpec o = random_tiled (odt, cblock);
    int64_t px = 1, ce;
    for (int k = 0; k < 3; k++)
      if (o.tiled.axes[k] >= 0)
        px *= o.tiled.tile_shape[k] < o.shape[o.tiled.axes[k]] ?
            o.tiled.tile_shape[k] : o.shape[o.tiled.axes[k]];
    ce = o.tiled.tile_shape[3] < o.shape[o.tiled.axes[3]] ?
        o.tiled.tile_shape[3] : o.shape[o.tiled.axes[3]];
    differs += px > 1 && ce > 16;
    SimaTensorSpec in = o;
    in.layout = SIMA_LAYOUT_CONTIGUOUS;
    in.dtype = in_u8 ? U : (SimaDType) (iter / 2 % 3);  /* FP32/16, BF16 */
    randomize_view (&in);
    int64_t count = 1, size = walk_tiled (&o, NULL, NULL, NULL);
    for (int i = 0; i < o.rank; i++)
      count *= o.shape[i];
    if ((uint64_t) size != oracle_required_bytes (&o)) {
      CHECK (0, "iter %d: walker %lld bytes, oracle %llu", iter,
             (long long) size, (unsigned long long) oracle_required_bytes (&o));
      continue;
    }
    int64_t *eoff = malloc ((size_t) count * sizeof *eoff);
    int64_t *est = malloc ((size_t) count * sizeof *est);
    uint8_t *kind = malloc ((size_t) size);
    uint64_t in_size = oracle_required_bytes (&in);
    uint8_t *src = malloc ((size_t) in_size + 4);
    uint8_t *got = malloc ((size_t) size + 32);
    uint8_t *want = malloc ((size_t) size + 32);
    walk_tiled (&o, eoff, est, kind);
    for (uint64_t i = 0; i < in_size; i++)
      src[i] = (uint8_t) rnd ();

    int64_t coords[SIMA_MAX_RANK];
    int zp = (int) rnd_range (-128, 127), mode = (int) rnd_range (0, 3);
    float mult = (float) ldexp (1.0 + (double) (rnd () % 1000) / 1000.0,
        (int) rnd_range (-10, 2));
    for (int64_t i = 0; i < size; i++)
      want[i] = kind[i] == 1 && odt == SIMA_DTYPE_INT8 ? (uint8_t) zp : 0;
    memset (want + size, 0xCD, 32);
    for (int64_t idx = 0; idx < count; idx++) {
      unravel (&o, idx, coords);
      CHECK (oracle_element_offset (&o, coords) == eoff[idx],
             "iter %d elem %lld: offset %lld, walker %lld", iter,
             (long long) idx, (long long) oracle_element_offset (&o, coords),
             (long long) eoff[idx]);
      const uint8_t *p = src + oracle_element_offset (&in, coords);
      uint32_t bits = 0;
      memcpy (&bits, p, in.dtype == F ? 4 : in.dtype == U ? 1 : 2);  /* LE */
      if (odt == SIMA_DTYPE_INT8) {
        want[eoff[idx]] = (uint8_t) (in.dtype == U ?
            int_quant_u8 (bits, bits_of (mult), zp, mode) :
            oracle_quant_bits (in.dtype, bits, mult, zp, mode));
      } else {
        uint16_t bf = in.dtype == F ? oracle_bf16_from_f32_bits (bits) :
            in.dtype == H ? oracle_bf16_from_f16_bits ((uint16_t) bits) :
            in.dtype == U ? int_bf16_u8 (bits) : (uint16_t) bits;
        want[eoff[idx]] = (uint8_t) bf;
        want[eoff[idx] + est[idx]] = (uint8_t) (bf >> 8);
      }
    }
    memset (got, 0xCD, (size_t) size + 32);    /* dirty reuse + guard */
    if (odt == SIMA_DTYPE_INT8)
      oracle_quanttess (&in, src, &o, mult, zp, mode, got);
    else
      oracle_casttess (&in, src, &o, got);
    check_bytes (got, want, (size_t) size + 32, "random tiled output");

    /* DetessDequant reads the same INT8 tiles back (garbage in padding)
     * into a random FP32/BF16 view whose holes must stay untouched. */
    if (odt == SIMA_DTYPE_INT8) {
      SimaTensorSpec dv = o;
      dv.layout = SIMA_LAYOUT_CONTIGUOUS;
      dv.dtype = iter % 4 == 0 ? F : B;
      randomize_view (&dv);
      uint64_t dsz = oracle_required_bytes (&dv);
      uint8_t *dst = malloc ((size_t) dsz);
      uint8_t *dwant = malloc ((size_t) dsz);
      for (int64_t i = 0; i < size; i++)
        if (kind[i] < 2)
          got[i] = (uint8_t) rnd ();
      memset (dst, 0xEE, (size_t) dsz);
      memset (dwant, 0xEE, (size_t) dsz);
      for (int64_t idx = 0; idx < count; idx++) {
        unravel (&o, idx, coords);
        int8_t q;
        memcpy (&q, got + eoff[idx], 1);
        uint8_t *p = dwant + oracle_element_offset (&dv, coords);
        uint32_t f = oracle_dequant_f32_bits (q, 0.25f, 3);
        uint16_t b = oracle_dequant_bf16_bits (q, 0.25f, 3);
        memcpy (p, dv.dtype == F ? (void *) &f : (void *) &b,
                dv.dtype == F ? 4 : 2);
      }
      oracle_detessdequant (&o, got, &dv, 0.25f, 3, dst);
      check_bytes (dst, dwant, (size_t) dsz, "random detessdequant");
      free (dst), free (dwant);
    }
    free (eoff), free (est), free (kind), free (src), free (got), free (want);
  }
  if (cblock)
    CHECK (differs >= 200, "only %d cblock geometries differ from plain",
           differs);
  printf ("# %d of 600 geometries have a first tile with S > 16, P > 1\n",
          differs);
  report (in_u8 ? (cblock ? "layout: 600 random cblock geometries, UINT8 views"
                   : "layout: 600 random tiled geometries, UINT8 views")
          : cblock ? "layout: 600 random cblock geometries vs sequential walker"
          : "layout: 600 random tiled geometries vs sequential walker");
}

/* ---- cblock (SiMa's tessellation flag) ---------------------------------- */

/* One 2x2-pixel tile, C = 20 stored as 32 (pad16), cblock: block 0 (bytes
 * 0..63) holds channels 0..15 of pixels p0..p3, block 1 (64..127) channels
 * 16..31 of p0..p3, i.e. INT8 (p, c) at (c/16)*64 + p*16 + c%16. BF16: the
 * same with 32 bytes per pixel and block (16 low, then 16 high bytes). */
static void
test_cblock_hand (void)
{
  const int64_t shape[3] = { 2, 2, 20 };          /* H, W, C */
  const int8_t axes[4] = { -1, 0, 1, 2 };
  const int64_t tile[4] = { 1, 2, 2, 32 };
  SimaTensorSpec o = tiled (3, shape, SIMA_DTYPE_INT8, axes, tile,
                            SIMA_CHANNELS_PAD16);
  SimaTensorSpec plain = o;
  o.tiled.cblock = 1;
  /* (h, w, c), cblock offset, offset without cblock (p*32 + c) */
  static const int64_t pos[][5] = {
    { 0, 0, 0, 0, 0 }, { 0, 0, 15, 15, 15 }, { 0, 1, 0, 16, 32 },
    { 1, 0, 0, 32, 64 }, { 1, 1, 15, 63, 111 }, { 0, 0, 16, 64, 16 },
    { 0, 1, 16, 80, 48 }, { 1, 0, 17, 97, 81 }, { 1, 1, 19, 115, 115 },
    { 0, 1, 3, 19, 35 }, { 1, 0, 9, 41, 73 },
  };
  for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++) {
    int64_t got = oracle_element_offset (&o, pos[i]);
    int64_t got_plain = oracle_element_offset (&plain, pos[i]);
    CHECK (got == pos[i][3], "int8 (%lld,%lld,%lld): %lld, want %lld",
           (long long) pos[i][0], (long long) pos[i][1],
           (long long) pos[i][2], (long long) got, (long long) pos[i][3]);
    CHECK (got_plain == pos[i][4], "plain (%lld,%lld,%lld): %lld, want %lld",
           (long long) pos[i][0], (long long) pos[i][1],
           (long long) pos[i][2], (long long) got_plain,
           (long long) pos[i][4]);
  }
  CHECK (oracle_required_bytes (&o) == 128, "int8 cblock size %llu",
         (unsigned long long) oracle_required_bytes (&o));

  /* QuantTess, x(p, c) = p*20 + c - 40, multiplier 1, zero point 5. */
  float x[80];
  uint8_t buf[288], want[288];
  for (int i = 0; i < 80; i++)
    x[i] = (float) (i - 40);
  SimaTensorSpec in = dense (3, shape, F);
  memset (want, 0xA5, sizeof want);
  for (int p = 0; p < 4; p++)
    for (int l = 0; l < 16; l++) {
      want[p * 16 + l] = (uint8_t) (int8_t) (p * 20 + l - 40 + 5);
      want[64 + p * 16 + l] = l < 4 ?
          (uint8_t) (int8_t) (p * 20 + 16 + l - 40 + 5) : 5;
    }
  /* a few bytes spelled out: */
  CHECK (want[0] == 0xDD && want[64] == 0xED && want[115] == 44 &&
         want[116] == 5 && want[127] == 5 && want[63] == 0x28,
         "hand byte map");
  memset (buf, 0xA5, sizeof buf);
  oracle_quanttess (&in, x, &o, 1.0f, 5, 0, buf);
  check_bytes (buf, want, sizeof buf, "int8 cblock quanttess");

  /* DetessDequant reads it back; put garbage in the padding lanes first. */
  for (int p = 0; p < 4; p++)
    for (int l = 4; l < 16; l++)
      buf[64 + p * 16 + l] = 0x80;
  float deq[80];
  SimaTensorSpec dout = dense (3, shape, F);
  oracle_detessdequant (&o, buf, &dout, 1.0f, 5, (uint8_t *) deq);
  for (int i = 0; i < 80; i++)
    CHECK (deq[i] == x[i], "dequant element %d = %g", i, deq[i]);

  /* CastTess BF16 -> BF16: value(p, c) has high byte p*20+c+1 and low byte
   * 0x80+p*20+c. Low (p, c) at (c/16)*128 + p*32 + c%16, high 16 later. */
  uint16_t bv[80];
  for (int i = 0; i < 80; i++)
    bv[i] = (uint16_t) ((i + 1) << 8 | (0x80 + i));
  SimaTensorSpec bin = dense (3, shape, B);
  SimaTensorSpec bo = o;
  bo.dtype = B;
  CHECK (oracle_required_bytes (&bo) == 256, "bf16 cblock size");
  memset (want, 0xA5, sizeof want);
  memset (want, 0, 256);
  for (int p = 0; p < 4; p++)
    for (int c = 0; c < 20; c++) {
      int lo = (c / 16) * 128 + p * 32 + c % 16;
      want[lo] = (uint8_t) (0x80 + p * 20 + c);
      want[lo + 16] = (uint8_t) (p * 20 + c + 1);
    }
  /* spelled out: (0,0,16) lo 128 hi 144; (1,1,19) lo 227 hi 243; (0,1,5)
   * lo 37 hi 53; padding lanes e.g. 132 (p0 c20 low), 148 (its high) */
  CHECK (want[128] == 0x90 && want[144] == 17 && want[227] == 0xCF &&
         want[243] == 80 && want[37] == 0x99 && want[53] == 26 &&
         want[132] == 0 && want[148] == 0, "hand bf16 byte map");
  int64_t c0116[3] = { 0, 1, 16 }, c1119[3] = { 1, 1, 19 };
  CHECK (oracle_element_offset (&bo, c0116) == 160, "bf16 offset (0,1,16)");
  CHECK (oracle_element_offset (&bo, c1119) == 227, "bf16 offset (1,1,19)");
  memset (buf, 0xA5, sizeof buf);
  oracle_casttess (&bin, bv, &bo, buf);
  check_bytes (buf, want, sizeof buf, "bf16 cblock casttess");

  /* docs/layout.md example: [W=2, C=17], tile {1,1,2,32}, INT8 pad16
   * cblock: 0-15 w0 c0-15, 16-31 w1 c0-15, 32 w0 c16 + 15 padding, 48 w1
   * c16 + 15 padding; 64 bytes. Values w*17 + c + 1, zero point -2. */
  const int64_t sd[2] = { 2, 17 };
  const int8_t ad[4] = { -1, -1, 0, 1 };
  const int64_t td[4] = { 1, 1, 2, 32 };
  SimaTensorSpec od = tiled (2, sd, SIMA_DTYPE_INT8, ad, td,
                             SIMA_CHANNELS_PAD16);
  od.tiled.cblock = 1;
  SimaTensorSpec idn = dense (2, sd, F);
  float xd[34];
  for (int i = 0; i < 34; i++)
    xd[i] = (float) (i + 3);                      /* + zp -2 -> i + 1 */
  memset (want, 0xA5, sizeof want);
  for (int l = 0; l < 16; l++) {
    want[l] = (uint8_t) (l + 1);
    want[16 + l] = (uint8_t) (17 + l + 1);
    want[32 + l] = l == 0 ? 17 : 0xFE;
    want[48 + l] = l == 0 ? 34 : 0xFE;
  }
  CHECK (oracle_required_bytes (&od) == 64, "doc example size");
  memset (buf, 0xA5, sizeof buf);
  oracle_quanttess (&idn, xd, &od, 1.0f, -2, 0, buf);
  check_bytes (buf, want, sizeof buf, "docs/layout.md cblock example");
  report ("cblock: hand-computed 2x2-pixel tile, 32 stored channels");
}

/* Several tiles: [W=3, C=40], tile {1,1,2,32}, pad16, INT8. Tiles (C,W):
 * (c0,w0) 2 px x 32 at 0, (c0,w1) 1 px x 32 at 64, (c1,w0) 2 px x 16 at 96,
 * (c1,w1) 1 px x 16 at 128; 144 bytes, with or without cblock. Only the
 * (c0,w0) tile (P = 2, S = 32) differs; a 1-pixel tile or S = 16 is the same
 * either way. */
static void
test_cblock_multi_tile (void)
{
  const int64_t shape[2] = { 3, 40 };
  const int8_t axes[4] = { -1, -1, 0, 1 };
  const int64_t tile[4] = { 1, 1, 2, 32 };
  SimaTensorSpec o = tiled (2, shape, SIMA_DTYPE_INT8, axes, tile,
                            SIMA_CHANNELS_PAD16);
  SimaTensorSpec plain = o;
  o.tiled.cblock = 1;
  static const int64_t pos[][4] = {    /* w, c, cblock, plain */
    { 0, 17, 33, 17 }, { 1, 3, 19, 35 }, { 1, 17, 49, 49 },
    { 1, 31, 63, 63 }, { 0, 31, 47, 31 }, { 2, 20, 84, 84 },
    { 2, 35, 131, 131 }, { 1, 39, 119, 119 }, { 0, 32, 96, 96 },
  };
  CHECK (oracle_required_bytes (&o) == 144 &&
         oracle_required_bytes (&plain) == 144, "sizes");
  for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++) {
    CHECK (oracle_element_offset (&o, pos[i]) == pos[i][2],
           "cblock (%lld,%lld): %lld", (long long) pos[i][0],
           (long long) pos[i][1], (long long) oracle_element_offset (&o,
               pos[i]));
    CHECK (oracle_element_offset (&plain, pos[i]) == pos[i][3],
           "plain (%lld,%lld): %lld", (long long) pos[i][0],
           (long long) pos[i][1], (long long) oracle_element_offset (&plain,
               pos[i]));
  }
  /* Channel padding of the (c1,*) tiles (channels 8..15) is the zero point
   * in both layouts: bytes 104..111, 120..127, 136..143; alignment bytes do
   * not exist here (every span is a multiple of 16). */
  float x[120];
  uint8_t a[160], b[160];
  for (int i = 0; i < 120; i++)
    x[i] = (float) (i % 100);
  SimaTensorSpec in = dense (2, shape, F);
  memset (a, 0xEE, sizeof a);
  memset (b, 0xEE, sizeof b);
  oracle_quanttess (&in, x, &o, 1.0f, -9, 0, a);
  oracle_quanttess (&in, x, &plain, 1.0f, -9, 0, b);
  for (int i = 104; i < 112; i++)
    CHECK (a[i] == 0xF7 && a[i + 16] == 0xF7 && a[i + 32] == 0xF7,
           "padding byte %d", i);
  CHECK (a[33] == (uint8_t) (17 - 9) && a[47] == (uint8_t) (31 - 9) &&
         a[19] == (uint8_t) (43 - 9), "cblock bytes");
  check_bytes (a + 64, b + 64, sizeof a - 64, "tiles after (c0,w0)");
  CHECK (memcmp (a, b, 64) != 0, "(c0,w0) should differ");
  report ("cblock: hand-computed offsets across tiles, partial C and W");
}

/* With at most 16 stored channels per tile (pad16, C tile <= 16) cblock is
 * the plain layout: same offsets, same QuantTess/CastTess bytes, same
 * DetessDequant values, over random geometries. */
static void
test_cblock_small_equals_plain (void)
{
  int compared = 0;
  for (int iter = 0; iter < 400; iter++) {
    SimaDType odt = iter % 2 ? B : SIMA_DTYPE_INT8;
    SimaTensorSpec plain = random_tiled (odt, 0);
    plain.tiled.channels = SIMA_CHANNELS_PAD16;
    int64_t cext = plain.shape[plain.tiled.axes[3]];
    if (plain.tiled.tile_shape[3] > 16)
      plain.tiled.tile_shape[3] = 1 + (cext - 1) % 16;
    SimaTensorSpec cb = plain;
    cb.tiled.cblock = 1;
    SimaTensorSpec in = plain;
    in.layout = SIMA_LAYOUT_CONTIGUOUS;
    in.dtype = (SimaDType) (iter / 2 % 3);
    randomize_view (&in);
    uint64_t size = oracle_required_bytes (&plain);
    CHECK (size == oracle_required_bytes (&cb), "iter %d: sizes", iter);
    uint64_t in_size = oracle_required_bytes (&in);
    uint8_t *src = malloc ((size_t) in_size + 4);
    uint8_t *a = malloc ((size_t) size + 16);
    uint8_t *b = malloc ((size_t) size + 16);
    for (uint64_t i = 0; i < in_size; i++)
      src[i] = (uint8_t) rnd ();
    memset (a, 0x3C, (size_t) size + 16);
    memset (b, 0xC3, (size_t) size + 16);
    if (odt == SIMA_DTYPE_INT8) {
      oracle_quanttess (&in, src, &plain, 0.75f, -3, iter % 4, a);
      oracle_quanttess (&in, src, &cb, 0.75f, -3, iter % 4, b);
    } else {
      oracle_casttess (&in, src, &plain, a);
      oracle_casttess (&in, src, &cb, b);
    }
    check_bytes (a, b, (size_t) size, "small-C cblock output");
    int64_t count = 1, coords[SIMA_MAX_RANK];
    for (int i = 0; i < plain.rank; i++)
      count *= plain.shape[i];
    for (int64_t idx = 0; idx < count; idx++) {
      unravel (&plain, idx, coords);
      CHECK (oracle_element_offset (&plain, coords) ==
             oracle_element_offset (&cb, coords), "iter %d elem %lld", iter,
             (long long) idx);
    }
    if (odt == SIMA_DTYPE_INT8) {
      SimaTensorSpec dv = dense (plain.rank, plain.shape, F);
      uint64_t dsz = oracle_required_bytes (&dv);
      uint8_t *da = malloc ((size_t) dsz), *db = malloc ((size_t) dsz);
      for (uint64_t i = 0; i < size; i++)
        a[i] = (uint8_t) rnd ();
      oracle_detessdequant (&plain, a, &dv, 0.5f, 1, da);
      oracle_detessdequant (&cb, a, &dv, 0.5f, 1, db);
      check_bytes (da, db, (size_t) dsz, "small-C cblock dequant");
      free (da), free (db);
    }
    compared++;
    free (src), free (a), free (b);
  }
  CHECK (compared == 400, "compared %d", compared);
  report ("cblock: at most 16 stored channels per tile equals plain layout");
}

static void
test_empty (void)
{
  const int64_t shape[3] = { 2, 0, 3 };
  const int8_t axes[4] = { -1, -1, 0, 2 };
  const int64_t tile[4] = { 1, 1, 1, 2 };
  SimaTensorSpec t = tiled (3, shape, SIMA_DTYPE_INT8, axes, tile,
                            SIMA_CHANNELS_PAD16);
  SimaTensorSpec d = dense (3, shape, F);
  SimaTensorSpec st = d;
  st.layout = SIMA_LAYOUT_STRIDED;
  st.strides_bytes[0] = 400;
  st.strides_bytes[2] = 4;
  SimaTensorSpec cb = dense (3, shape, SIMA_DTYPE_INT8);
  cb.layout = SIMA_LAYOUT_MLA_CBLOCKED;
  uint8_t guard = 0x5A;
  CHECK (oracle_required_bytes (&t) == 0, "tiled");
  CHECK (oracle_required_bytes (&d) == 0, "dense");
  CHECK (oracle_required_bytes (&st) == 0, "strided");
  CHECK (oracle_required_bytes (&cb) == 0, "cblocked");
  oracle_quanttess (&d, NULL, &t, 1.0f, 0, 0, &guard);
  oracle_detessdequant (&t, NULL, &d, 1.0f, 0, &guard);
  CHECK (guard == 0x5A, "empty tensor wrote a byte");
  report ("layout: empty tensors need 0 bytes and write nothing");
}

/* ---- DetessCast ----------------------------------------------------------- */

/* A 2x2-pixel tile, [H=2, W=2, C=3] with tile {1,2,2,16}: compact S = 3,
 * pixel p's low bytes at 6p..6p+2, high bytes at 6p+3..6p+5, payload 24,
 * span 32 (bytes 24..31 an alignment gap); pad16 S = 16, low at 32p + c,
 * high at 32p + 16 + c, 128 bytes. The twelve BF16 values include a quiet
 * NaN with a payload (0x7FC1), a signalling NaN (0xFF81), -0 (0x8000), +0,
 * the smallest subnormals (0x0001, 0x807F), inf, -inf and normals. Every
 * expected byte is spelled out below, not computed from the placement. */
static void
test_detesscast_hand (void)
{
  static const uint16_t v[12] = {
    0x3F80, 0x7FC1, 0x8000, 0x0001, 0xFF81, 0x807F,
    0x7F80, 0xFF80, 0x0000, 0xC2F7, 0x4049, 0x0080 };
  const int64_t shape[3] = { 2, 2, 3 };
  const int8_t axes[4] = { -1, 0, 1, 2 };
  const int64_t tile[4] = { 1, 2, 2, 16 };
  /* compact: pixel p = 0..3 is (h, w) = (p/2, p%2), element index 3p + c */
  static const uint8_t compact[32] = {
    0x80, 0xC1, 0x00, 0x3F, 0x7F, 0x80,     /* p0 lo c0-2, hi c0-2 */
    0x01, 0x81, 0x7F, 0x00, 0xFF, 0x80,     /* p1 */
    0x80, 0x80, 0x00, 0x7F, 0xFF, 0x00,     /* p2 */
    0xF7, 0x49, 0x80, 0xC2, 0x40, 0x00,     /* p3 */
    0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE };  /* gap: ignored */
  SimaTensorSpec in = tiled (3, shape, B, axes, tile, SIMA_CHANNELS_COMPACT);
  SimaTensorSpec of = dense (3, shape, F), ob = dense (3, shape, B);
  uint32_t f32[12];
  uint16_t b16[12];
  uint8_t pad[128];

  CHECK (oracle_required_bytes (&in) == 32, "compact size %llu",
         (unsigned long long) oracle_required_bytes (&in));
  oracle_detesscast (&in, compact, &of, (uint8_t *) f32);
  oracle_detesscast (&in, compact, &ob, (uint8_t *) b16);
  for (int i = 0; i < 12; i++) {
    CHECK (f32[i] == (uint32_t) v[i] * 65536u, "compact fp32 %d: %#x", i,
           f32[i]);
    CHECK (b16[i] == v[i], "compact bf16 %d: %#x", i, b16[i]);
  }
  /* spelled out: the NaN payload survives, -0 stays -0, subnormals exact */
  CHECK (f32[1] == 0x7FC10000u && f32[4] == 0xFF810000u &&
         f32[2] == 0x80000000u && f32[3] == 0x00010000u &&
         f32[5] == 0x807F0000u, "special values");
  CHECK (isnan (float_of (f32[1])) && signbit (float_of (f32[2])) &&
         float_of (f32[2]) == 0.0f && float_of (f32[3]) == 0x1p-133f &&
         float_of (f32[5]) == -0x7Fp-133f && float_of (f32[9]) == -123.5f &&
         float_of (f32[10]) == 3.140625f, "values as floats");

  /* pad16: lanes 3..15 of both planes are padding (garbage, ignored) */
  SimaTensorSpec in16 = in;
  in16.tiled.channels = SIMA_CHANNELS_PAD16;
  memset (pad, 0xA7, sizeof pad);
  for (int p = 0; p < 4; p++)
    for (int c = 0; c < 3; c++) {
      pad[32 * p + c] = compact[6 * p + c];
      pad[32 * p + 16 + c] = compact[6 * p + 3 + c];
    }
  CHECK (pad[0] == 0x80 && pad[16] == 0x3F && pad[33] == 0x81 &&
         pad[49] == 0xFF && pad[98] == 0x80 && pad[114] == 0x00,
         "pad16 hand map");
  CHECK (oracle_required_bytes (&in16) == 128, "pad16 size");
  memset (f32, 0, sizeof f32);
  memset (b16, 0, sizeof b16);
  oracle_detesscast (&in16, pad, &of, (uint8_t *) f32);
  oracle_detesscast (&in16, pad, &ob, (uint8_t *) b16);
  for (int i = 0; i < 12; i++)
    CHECK (f32[i] == (uint32_t) v[i] << 16 && b16[i] == v[i], "pad16 %d", i);

  /* cblock, [H=2, W=2, C=20], tile {1,2,2,32}: block 0 (c 0-15) is bytes
   * 0..127 (pixel p at 32p, high plane 16 later), block 1 (c 16-19 and
   * padding) bytes 128..255. Element (p, c) value: hi = p*20 + c + 1,
   * lo = 0x80 + p*20 + c; here placed by hand. */
  const int64_t s20[3] = { 2, 2, 20 };
  const int64_t t32[4] = { 1, 2, 2, 32 };
  SimaTensorSpec cb = tiled (3, s20, B, axes, t32, SIMA_CHANNELS_PAD16);
  cb.tiled.cblock = 1;
  uint8_t cbuf[256];
  uint32_t cf[80];
  uint16_t cbf[80];
  memset (cbuf, 0x5C, sizeof cbuf);
  for (int p = 0; p < 4; p++)
    for (int c = 0; c < 20; c++) {
      int lo = (c / 16) * 128 + p * 32 + c % 16;
      cbuf[lo] = (uint8_t) (0x80 + p * 20 + c);
      cbuf[lo + 16] = (uint8_t) (p * 20 + c + 1);
    }
  CHECK (cbuf[128] == 0x90 && cbuf[144] == 17 && cbuf[227] == 0xCF &&
         cbuf[243] == 80, "cblock hand map");
  SimaTensorSpec cf_spec = dense (3, s20, F), cb_spec = dense (3, s20, B);
  oracle_detesscast (&cb, cbuf, &cf_spec, (uint8_t *) cf);
  oracle_detesscast (&cb, cbuf, &cb_spec, (uint8_t *) cbf);
  for (int i = 0; i < 80; i++) {
    uint16_t want = (uint16_t) ((i + 1) << 8 | (0x80 + i));
    CHECK (cbf[i] == want && cf[i] == (uint32_t) want << 16,
           "cblock element %d: %#x / %#x", i, cbf[i], cf[i]);
  }
  CHECK (cf[36] == 0x25A40000u && cbf[79] == 0x50CF, "cblock spelled out");
  report ("detesscast: hand-computed 2x2 tile (compact, pad16, cblock), "
          "NaN payloads, -0, subnormal BF16");
}

/* A strided output with holes: only the logical elements' bytes change. */
static void
test_detesscast_strided_holes (void)
{
  const int64_t shape[2] = { 3, 5 };
  const int8_t axes[4] = { -1, -1, 0, 1 };
  const int64_t tile[4] = { 1, 1, 2, 4 };
  SimaTensorSpec in = tiled (2, shape, B, axes, tile, SIMA_CHANNELS_PAD16);
  SimaTensorSpec out = dense (2, shape, F);
  out.layout = SIMA_LAYOUT_STRIDED;
  out.strides_bytes[0] = 28;                /* 5 x 4 + 8 bytes of holes */
  out.strides_bytes[1] = 4;
  uint64_t isz = oracle_required_bytes (&in);
  uint8_t src[512], buf[128];
  int64_t coords[2];
  for (uint64_t i = 0; i < isz; i++)
    src[i] = (uint8_t) rnd ();
  memset (buf, 0x6B, sizeof buf);
  CHECK (oracle_required_bytes (&out) == 76, "strided size");
  oracle_detesscast (&in, src, &out, buf);
  for (int i = 0; i < 128; i++) {
    int row = i / 28, col = i % 28;
    if (row < 3 && col < 20) {
      coords[0] = row;
      coords[1] = col / 4;
      int64_t lo = oracle_element_offset (&in, coords);
      /* pad16, S = 16: the high byte is 16 after the low one */
      uint8_t want = col % 4 == 2 ? src[lo] : col % 4 == 3 ? src[lo + 16] : 0;
      CHECK (buf[i] == want, "element byte %d", i);
    } else {
      CHECK (buf[i] == 0x6B, "hole byte %d written", i);
    }
  }
  uint8_t guard = 0x77;
  SimaTensorSpec e = in;
  e.shape[0] = 0;
  oracle_detesscast (&e, NULL, &out, &guard);
  CHECK (guard == 0x77 && oracle_required_bytes (&e) == 0, "empty");
  report ("detesscast: strided FP32 output, holes untouched; empty writes "
          "nothing");
}

/* CastTess BF16 -> tiles, then DetessCast back: the identity on the BF16
 * bits (random geometries, compact/pad16/cblock, random input views and
 * random output views), and FP32 output = bits << 16. Tiles start as
 * garbage so that any padding read would show. */
static void
test_detesscast_identity (int cblock)
{
  int cases = 0;
  for (int iter = 0; iter < 600; iter++) {
    SimaTensorSpec t = random_tiled (B, cblock);
    SimaTensorSpec in = t;
    in.layout = SIMA_LAYOUT_CONTIGUOUS;
    memset (in.strides_bytes, 0, sizeof in.strides_bytes);
    randomize_view (&in);
    SimaTensorSpec back = in;                 /* same view, read back */
    SimaTensorSpec fv = dense (t.rank, t.shape, F);
    randomize_view (&fv);
    uint64_t isz = oracle_required_bytes (&in);
    uint64_t tsz = oracle_required_bytes (&t);
    uint64_t fsz = oracle_required_bytes (&fv);
    uint8_t *src = malloc ((size_t) isz), *tl = malloc ((size_t) tsz);
    uint8_t *bk = malloc ((size_t) isz), *f = malloc ((size_t) fsz);
    for (uint64_t i = 0; i < isz; i++)
      src[i] = (uint8_t) rnd ();
    memcpy (bk, src, (size_t) isz);
    oracle_casttess (&in, src, &t, tl);
    /* Which tile bytes hold element bytes: cast the bitwise complement of
     * the input too; exactly the element bytes differ. Every other byte
     * (channel padding of both planes, alignment gaps) becomes garbage, so
     * any read of it by the read-back would show. */
    {
      uint8_t *inv = malloc ((size_t) isz), *tl2 = malloc ((size_t) tsz);
      for (uint64_t i = 0; i < isz; i++)
        inv[i] = (uint8_t) ~src[i];
      oracle_casttess (&in, inv, &t, tl2);
      for (uint64_t i = 0; i < tsz; i++)
        if (tl[i] == tl2[i])
          tl[i] = (uint8_t) rnd ();
      free (inv), free (tl2);
    }
    int64_t count = 1, coords[SIMA_MAX_RANK];
    for (int i = 0; i < t.rank; i++)
      count *= t.shape[i];
    /* zero the element bytes of bk, then read back into them */
    for (int64_t idx = 0; idx < count; idx++) {
      unravel (&in, idx, coords);
      int64_t off = 0;
      if (in.layout == SIMA_LAYOUT_STRIDED)
        for (int i = 0; i < in.rank; i++)
          off += coords[i] * in.strides_bytes[i];
      else
        off = 2 * idx;
      bk[off] = bk[off + 1] = 0;
    }
    oracle_detesscast (&t, tl, &back, bk);
    check_bytes (bk, src, (size_t) isz, "casttess then detesscast");
    memset (f, 0xD2, (size_t) fsz);
    oracle_detesscast (&t, tl, &fv, f);
    for (int64_t idx = 0; idx < count; idx++) {
      int64_t io = 0, fo = 0;
      unravel (&in, idx, coords);
      for (int i = 0; i < in.rank; i++) {
        io += coords[i] * (in.layout == SIMA_LAYOUT_STRIDED
            ? in.strides_bytes[i] : 0);
        fo += coords[i] * (fv.layout == SIMA_LAYOUT_STRIDED
            ? fv.strides_bytes[i] : 0);
      }
      if (in.layout != SIMA_LAYOUT_STRIDED)
        io = 2 * idx;
      if (fv.layout != SIMA_LAYOUT_STRIDED)
        fo = 4 * idx;
      uint16_t bits = (uint16_t) (src[io] | src[io + 1] << 8);
      uint32_t got;
      memcpy (&got, f + fo, 4);
      CHECK (got == (uint32_t) bits << 16, "iter %d elem %lld: %#x vs %#x",
             iter, (long long) idx, got, bits);
    }
    cases++;
    free (src), free (tl), free (bk), free (f);
  }
  CHECK (cases == 600, "cases %d", cases);
  report (cblock ? "detesscast: casttess-then-detesscast identity on BF16, "
          "600 random cblock geometries, FP32 = bits << 16"
          : "detesscast: casttess-then-detesscast identity on BF16, 600 "
          "random compact/pad16 geometries, FP32 = bits << 16");
}

int
main (void)
{
  /* The hardware cross-checks assume the default FP environment. */
  CHECK (fegetround () == FE_TONEAREST, "rounding mode is not nearest");
  report ("default FP environment");
  test_quant_hand ();
  test_cast_hand ();
  test_dequant_hand ();
  test_dequant_div_hand ();
  test_quant_vs_hardware ();
  test_cast_second_method ();
  test_dequant_vs_hardware ();
  test_u8_hand ();
  test_u8_exhaustive ();
  test_u8_views_hand ();
  test_worked_examples ();
  test_tiled_hand ();
  test_cblocked ();
  test_random_tiled (0, 0);
  test_cblock_hand ();
  test_cblock_multi_tile ();
  test_cblock_small_equals_plain ();
  test_random_tiled (1, 0);
  test_random_tiled (0, 1);
  test_random_tiled (1, 1);
  test_empty ();
  test_detesscast_hand ();
  test_detesscast_strided_holes ();
  test_detesscast_identity (0);
  test_detesscast_identity (1);
  printf ("1..%d\n", n_tests);
  return n_failed ? 1 : 0;
}
