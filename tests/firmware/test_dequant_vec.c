/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test_dequant_vec.c - the host vector-expression fixture of the firmware's
 * DetessDequant block arithmetic (firmware/dequant_vec.h), against the
 * independent oracle (tests/oracle: oracle_dequant_f32_bits,
 * oracle_dequant_bf16_bits, oracle_dequant_div_*) only, never against the
 * production exact stages:
 *
 *   1  every INT8 value in every lane position (vector body and tail), n 0
 *      to 72 at several source/destination offsets, guard bytes around the
 *      output, both dtypes, both conventions, vector and table parameters;
 *   2  every INT8 value under a sweep of scales (boundaries, powers of two,
 *      1/127, random normal and subnormal patterns) and zero points
 *      (INT32_MIN/MAX, -128..127, values FP32 rounds), plus 4096-value
 *      blocks;
 *   3  literal results: the admission decision, +0 for q == z, exactly the
 *      smallest normal, the subnormal DIVIDE quotient just past 2^126,
 *      overflow to infinity (and BF16's narrowing overflow), signed zero
 *      underflow, wide zero points rounded before the subtraction;
 *   and each of 1-3 again with the host in FTZ/DAZ mode (after a check,
 *   line 0, that the mode flushes), to show the admitted vector path does
 *   not depend on subnormal handling (2 runs both modes from one
 *   computation of its expected values).
 *
 * Expected values are always computed in the default FP environment (the
 * oracle's requirement); only the code under test runs with FTZ/DAZ set.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dequant_vec.h"
#include "fpenv_util.h"
#include "oracle.h"
#include "tap.h"

#define MAXN 72
#define GUARD 64
#define BIG 4096

static uint64_t rng_state = 0xd15ea5e0dea17ec5ull;

static uint32_t
rnd32 (void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t) (rng_state >> 16);
}

static float
f_of (uint32_t bits)
{
  float f;
  memcpy (&f, &bits, sizeof f);
  return f;
}

static uint32_t
bits_of (float f)
{
  uint32_t b;
  memcpy (&b, &f, sizeof b);
  return b;
}

static const char *
kind_name (int bf16, int divide)
{
  return bf16 ? (divide ? "bf16 divide" : "bf16 multiply")
      : (divide ? "fp32 divide" : "fp32 multiply");
}

static uint32_t
get (const uint8_t *buf, uint32_t i, uint32_t size)
{
  uint32_t k, v = 0;
  for (k = 0; k < size; k++)
    v |= (uint32_t) buf[(uint64_t) i * size + k] << (8 * k);
  return v;
}

static void
make_block (SimaFwDequantBlock *b, int bf16, int divide, uint32_t sbits,
    int32_t zp)
{
  simafw_dequant_block_init (b, bf16 ? SIMA_DTYPE_BFLOAT16
      : SIMA_DTYPE_FLOAT32, sbits, zp, divide ? SIMA_SCALE_DIVIDE
      : SIMA_SCALE_MULTIPLY);
}

/* The oracle's result for one INT8 value (default FP environment). */
static uint32_t
oracle_one (int bf16, int divide, int8_t q, uint32_t sbits, int32_t zp)
{
  float s = f_of (sbits);
  if (bf16)
    return divide ? oracle_dequant_div_bf16_bits (q, s, zp)
        : oracle_dequant_bf16_bits (q, s, zp);
  return divide ? oracle_dequant_div_f32_bits (q, s, zp)
      : oracle_dequant_f32_bits (q, s, zp);
}

/* exp[byte] for all 256 INT8 values. */
static void
oracle_all (int bf16, int divide, uint32_t sbits, int32_t zp, uint32_t *exp)
{
  int i;
  for (i = 0; i < 256; i++)
    exp[i] = oracle_one (bf16, divide, (int8_t) (uint8_t) i, sbits, zp);
}

/* ---- FP modes ----------------------------------------------------------- */

/* The FTZ/DAZ host mode (fpenv_util.h: MXCSR FTZ | DAZ on x86, FPCR.FZ
 * on AArch64). */
static int
ftz_available (void)
{
  int ok = test_fpenv_enter (TEST_FPENV_FLUSH_DENORMALS);
  test_fpenv_leave ();
  return ok;
}

static void
ftz_on (int on)
{
  if (on)
    test_fpenv_enter (TEST_FPENV_FLUSH_DENORMALS);
}

static void
ftz_off (int on)
{
  if (on)
    test_fpenv_leave ();
}

/* The block under test, in the requested FP mode. */
static void
run (const SimaFwDequantBlock *b, const uint8_t *src, uint8_t *dst,
    uint32_t n, int ftz)
{
  ftz_on (ftz);
  simafw_dequant_block (b, src, dst, n);
  ftz_off (ftz);
}

/* Whether the mode flushes at all: a subnormal product (FTZ) and a
 * subnormal operand (DAZ on x86; FZ on AArch64 flushes both), in binary32
 * hardware arithmetic through volatiles. Otherwise lines 4-6 would prove
 * nothing. */
static int
ftz_flushes (void)
{
  volatile float tiny = 0x1p-126f, half = 0.5f, sub = 0x1p-130f, one = 1.0f;
  volatile float p, s;

  ftz_on (1);
  p = tiny * half;
  s = sub * one;
  ftz_off (1);
  return bits_of (p) == 0 && bits_of (s) == 0;
}

/* ---- 1: every INT8 value in every lane position ------------------------- */

static const struct {
  uint32_t scale;
  int32_t zp;
} lane_params[] = {
  { 0x3f000000u, 3 },           /* 0.5 */
  { 0x3c010204u, -128 },        /* 1/127 */
  { 0x00800000u, 0 },           /* 2^-126: products >= 2^-126 */
  { 0x7f7fffffu, 1 },           /* FLT_MAX: overflow */
  { 0x7e800000u, -5 },          /* 2^126: DIVIDE quotients down to 2^-126 */
  { 0x7e800001u, 127 },         /* just above: DIVIDE takes the table */
  { 0x007fffffu, -1 },          /* subnormal: the table */
  { 0x3dcccccdu, 16777217 },    /* 0.1, a zero point FP32 rounds */
};
#define N_LANE_PARAMS (sizeof lane_params / sizeof lane_params[0])

/* (source offset, destination offset) pairs */
static const uint32_t offsets[3][2] = { { 0, 0 }, { 1, 3 }, { 7, 2 } };

static void
test_lanes (int ftz)
{
  static uint8_t src[MAXN + 16], buf[4 * MAXN + 2 * GUARD + 16],
      ref[sizeof buf];
  uint32_t exp[256];
  int bf16, divide;

  for (bf16 = 0; bf16 <= 1; bf16++)
    for (divide = 0; divide <= 1; divide++) {
      const uint32_t size = bf16 ? 2 : 4;
      uint64_t cases = 0, values = 0, bad = 0, bad_guard = 0;
      uint32_t pi, n, r, o, i, tables = 0;

      for (pi = 0; pi < N_LANE_PARAMS; pi++) {
        SimaFwDequantBlock b;
        make_block (&b, bf16, divide, lane_params[pi].scale,
            lane_params[pi].zp);
        tables += (uint32_t) b.use_table;
        oracle_all (bf16, divide, lane_params[pi].scale, lane_params[pi].zp,
            exp);
        for (n = 0; n <= MAXN; n++)
          for (o = 0; o < 3; o++)
            for (r = 0; r < 256; r++) {
              /* the value at position i is r + i: over r, every value at
               * every position (the tail's lanes too) */
              uint8_t *s = src + offsets[o][0];
              uint8_t *d = buf + GUARD + offsets[o][1];
              uint8_t g = (uint8_t) (0x5a ^ r);
              for (i = 0; i < n; i++)
                s[i] = (uint8_t) (r + i);
              memset (buf, g, sizeof buf);
              run (&b, s, d, n, ftz);
              cases++;
              values += n;
              for (i = 0; i < n; i++)
                if (get (d, i, size) != exp[s[i]] && bad++ < 5)
                  tap_diag ("1 %s scale 0x%08x zp %d n=%u off %u/%u: value "
                      "%d at %u: 0x%x, oracle 0x%x", kind_name (bf16,
                          divide), lane_params[pi].scale, lane_params[pi].zp,
                      n, offsets[o][0], offsets[o][1], (int8_t) s[i], i,
                      get (d, i, size), exp[s[i]]);
              memset (ref, g, sizeof ref);
              if ((memcmp (buf, ref, (size_t) (d - buf)) != 0
                      || memcmp (d + n * size, ref, (size_t) (buf
                              + sizeof buf - (d + n * size))) != 0)
                  && bad_guard++ < 5)
                tap_diag ("1 %s scale 0x%08x n=%u off %u/%u: a byte outside "
                    "the output written", kind_name (bf16, divide),
                    lane_params[pi].scale, n, offsets[o][0], offsets[o][1]);
            }
      }
      tap_ok (bad == 0 && bad_guard == 0 && tables > 0
          && tables < N_LANE_PARAMS, "1 %s: every INT8 value at every lane "
          "position, n 0..%d, 3 offset pairs, %u parameter sets (%u by "
          "table)%s: %llu blocks, %llu values, %llu mismatches, %llu guard "
          "violations", kind_name (bf16, divide), MAXN,
          (unsigned) N_LANE_PARAMS, tables, ftz ? " under FTZ/DAZ" : "",
          (unsigned long long) cases, (unsigned long long) values,
          (unsigned long long) bad, (unsigned long long) bad_guard);
    }
}

/* ---- 2: scale and zero point sweep --------------------------------------- */

#define N_SCALES_MAX 96
#define N_ZPS_MAX 320

static uint32_t scales[N_SCALES_MAX];
static int32_t zps[N_ZPS_MAX];
static uint32_t n_scales, n_zps;

static void
sweep_values (void)
{
  static const uint32_t fixed[] = {
    0x00800000u,                /* 2^-126, the smallest normal */
    0x007fffffu,                /* its predecessor: subnormal */
    0x00000001u,                /* 2^-149 */
    0x00400000u,                /* 2^-127 */
    0x00012345u,
    0x00800001u,
    0x00ffffffu,
    0x7f7fffffu,                /* the largest finite */
    0x7f7ffffeu,
    0x7f000000u,                /* 2^127 */
    0x7e800000u,                /* 2^126 */
    0x7e800001u,                /* its successor (DIVIDE: table) */
    0x7e7fffffu,                /* its predecessor */
    0x3c010204u,                /* 1/127 */
    0x3f800000u, 0x3f000000u, 0x3dcccccdu, 0x447a0000u,
    0x41354157u,                /* 11.328456 (a YOLOv8n dq_scale) */
    0x40b51a6du,                /* 5.6594 */
    0x3b808081u,                /* 1/255 */
  };
  static const int32_t wide[] = {
    INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1,
    16777216, 16777217, 16777218, 16777219, -16777217, -16777219,
    33554435, -33554435,
    2147483583,                 /* 2^31 - 65: rounds down to 2^31 - 128 */
    2147483584,                 /* 2^31 - 64: the tie, to even (2^31) */
    2147483585, -2147483583, -2147483584, -2147483585,
    255, -255, 256, -129, 128,
  };
  uint32_t i, e;

  n_scales = 0;
  for (i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    scales[n_scales++] = fixed[i];
  for (e = 1; e <= 254; e += 11)          /* powers of two 2^-126 .. 2^127 */
    scales[n_scales++] = e << 23;
  for (i = 0; i < 24; i++)                /* random normal patterns */
    scales[n_scales++] = ((1u + rnd32 () % 254u) << 23)
        | (rnd32 () & 0x7fffffu);
  for (i = 0; i < 8; i++)                 /* random subnormal patterns */
    scales[n_scales++] = 1u + rnd32 () % 0x7fffffu;
  n_zps = 0;
  for (i = 0; i < sizeof wide / sizeof wide[0]; i++)
    zps[n_zps++] = wide[i];
  for (i = 0; i < 256; i++)
    zps[n_zps++] = (int32_t) i - 128;
  for (i = 0; i < 12; i++)
    zps[n_zps++] = (int32_t) rnd32 () ^ (int32_t) (rnd32 () << 16);
}

/* Each parameter set's expected values are computed once and serve both
 * FP modes (the oracle is most of this test's time). */
static void
test_sweep (int with_ftz)
{
  static uint8_t all[256 + 16], big_src[BIG], out[4 * BIG + 2 * GUARD];
  uint32_t exp[256];
  int bf16, divide, ftz;

  for (bf16 = 0; bf16 <= 1; bf16++)
    for (divide = 0; divide <= 1; divide++) {
      const uint32_t size = bf16 ? 2 : 4;
      uint64_t sets = 0, values[2] = { 0, 0 }, bad[2] = { 0, 0 },
          bad_guard[2] = { 0, 0 };
      uint32_t si, zi, i, tables = 0;

      for (si = 0; si < n_scales; si++)
        for (zi = 0; zi < n_zps; zi++) {
          SimaFwDequantBlock b;
          uint32_t rot = rnd32 () & 0xffu, off = rnd32 () % 5u;
          uint8_t *d = out + GUARD + off;
          int big = (si + zi) % 97 == 0;

          make_block (&b, bf16, divide, scales[si], zps[zi]);
          tables += (uint32_t) b.use_table;
          sets++;
          oracle_all (bf16, divide, scales[si], zps[zi], exp);
          for (i = 0; i < 256; i++)
            all[1 + i] = (uint8_t) (rot + i);
          /* a panel-sized block of random values, for some sets */
          for (i = 0; big && i < BIG; i++)
            big_src[i] = (uint8_t) rnd32 ();
          for (ftz = 0; ftz <= with_ftz; ftz++) {
            memset (out, 0xa7, GUARD + off + 256 * size + GUARD);
            run (&b, all + 1, d, 256, ftz);
            values[ftz] += 256;
            for (i = 0; i < 256; i++)
              if (get (d, i, size) != exp[all[1 + i]] && bad[ftz]++ < 5)
                tap_diag ("2 %s scale 0x%08x zp %d%s: value %d: 0x%x, "
                    "oracle 0x%x", kind_name (bf16, divide), scales[si],
                    zps[zi], ftz ? " (FTZ/DAZ)" : "", (int8_t) all[1 + i],
                    get (d, i, size), exp[all[1 + i]]);
            for (i = 0; i < GUARD; i++)
              if (d[-1 - (int) i] != 0xa7 || d[256 * size + i] != 0xa7)
                break;
            if (i < GUARD && bad_guard[ftz]++ < 5)
              tap_diag ("2 %s scale 0x%08x%s: guard byte touched",
                  kind_name (bf16, divide), scales[si],
                  ftz ? " (FTZ/DAZ)" : "");
            if (!big)
              continue;
            run (&b, big_src, out, BIG, ftz);
            values[ftz] += BIG;
            for (i = 0; i < BIG; i++)
              if (get (out, i, size) != exp[big_src[i]] && bad[ftz]++ < 5)
                tap_diag ("2 %s scale 0x%08x zp %d%s: 4096-value block, "
                    "value %d at %u differs", kind_name (bf16, divide),
                    scales[si], zps[zi], ftz ? " (FTZ/DAZ)" : "",
                    (int8_t) big_src[i], i);
          }
        }
      for (ftz = 0; ftz <= with_ftz; ftz++)
        tap_ok (bad[ftz] == 0 && bad_guard[ftz] == 0 && tables > 0
            && tables < sets, "2 %s: %u scales x %u zero points, all 256 "
            "values, and 4096-value blocks%s: %llu parameter sets (%u by "
            "table), %llu values, %llu mismatches, %llu guard violations",
            kind_name (bf16, divide), n_scales, n_zps,
            ftz ? " under FTZ/DAZ" : "", (unsigned long long) sets, tables,
            (unsigned long long) values[ftz], (unsigned long long) bad[ftz],
            (unsigned long long) bad_guard[ftz]);
    }
}

/* ---- 3: literal results -------------------------------------------------- */

/* The block's result for q under these parameters, and the oracle's: both
 * must be `want`. */
static int
literal (int bf16, int divide, uint32_t sbits, int32_t zp, int8_t q,
    uint32_t want, int ftz, const char *what)
{
  SimaFwDequantBlock b;
  uint8_t src[1] = { (uint8_t) q }, dst[4 + GUARD];
  uint32_t got, oracle = oracle_one (bf16, divide, q, sbits, zp);

  make_block (&b, bf16, divide, sbits, zp);
  memset (dst, 0xee, sizeof dst);
  run (&b, src, dst, 1, ftz);
  got = get (dst, 0, bf16 ? 2 : 4);
  if (got == want && oracle == want && dst[bf16 ? 2 : 4] == 0xee)
    return 1;
  tap_diag ("3 %s %s: scale 0x%08x zp %d q %d: block 0x%x, oracle 0x%x, "
      "want 0x%x", what, kind_name (bf16, divide), sbits, zp, q, got, oracle,
      want);
  return 0;
}

static void
test_literals (int ftz)
{
  static const struct {
    uint32_t scale;
    int divide, table;
  } admission[] = {
    { 0x00800000u, 0, 0 }, { 0x00800000u, 1, 0 },   /* 2^-126 */
    { 0x007fffffu, 0, 1 }, { 0x007fffffu, 1, 1 },   /* subnormal */
    { 0x00000001u, 0, 1 }, { 0x00000001u, 1, 1 },
    { 0x7f7fffffu, 0, 0 }, { 0x7f7fffffu, 1, 1 },   /* the largest */
    { 0x7e800000u, 0, 0 }, { 0x7e800000u, 1, 0 },   /* 2^126 */
    { 0x7e800001u, 0, 0 }, { 0x7e800001u, 1, 1 },   /* its successor */
    { 0x3f800000u, 0, 0 }, { 0x3f800000u, 1, 0 },
  };
  static const uint32_t zero_scales[] = {
    0x3f800000u, 0x00800000u, 0x7f7fffffu, 0x007fffffu, 0x00000001u,
    0x7e800000u, 0x7e800001u, 0x3c010204u,
  };
  uint32_t i, bad_adm = 0, bad_zero = 0, zeros = 0, bad = 0, checks = 0;
  int bf16, divide, zp;

  /* the decision does not depend on the FP mode: checked once */
  for (i = 0; !ftz && i < sizeof admission / sizeof admission[0]; i++) {
    SimaFwDequantBlock b;
    make_block (&b, (int) i & 1, admission[i].divide, admission[i].scale, 0);
    if (b.use_table != admission[i].table && bad_adm++ < 5)
      tap_diag ("3 admission: scale 0x%08x %s: use_table %d, want %d",
          admission[i].scale, admission[i].divide ? "divide" : "multiply",
          b.use_table, admission[i].table);
  }
  if (!ftz)
    tap_ok (bad_adm == 0, "3 admission: normal scales vector, subnormal "
        "scales and DIVIDE above 2^126 by table (%u cases, %u wrong)",
        (unsigned) (sizeof admission / sizeof admission[0]), bad_adm);

  /* q == z gives +0, never -0, in every dtype, convention and path */
  for (bf16 = 0; bf16 <= 1; bf16++)
    for (divide = 0; divide <= 1; divide++)
      for (i = 0; i < sizeof zero_scales / sizeof zero_scales[0]; i++)
        for (zp = -128; zp <= 127; zp++) {
          zeros++;
          bad_zero += !literal (bf16, divide, zero_scales[i], zp,
              (int8_t) zp, 0, ftz, "q == z");
        }
  tap_ok (bad_zero == 0, "3 q == z gives +0 (bits 0) in both dtypes and "
      "conventions, %u scales (vector and table)%s: %u cases, %u wrong",
      (unsigned) (sizeof zero_scales / sizeof zero_scales[0]),
      ftz ? " under FTZ/DAZ" : "", zeros, bad_zero);

#define LIT(bf, dv, s, z, q, w, what)                                        \
  do {                                                                       \
    checks++;                                                                \
    bad += !literal (bf, dv, s, z, q, w, ftz, what);                         \
  } while (0)
  /* exactly the smallest normal: d = +-1 times 2^-126, over 2^126 */
  LIT (0, 0, 0x00800000u, 4, 5, 0x00800000u, "smallest normal");
  LIT (0, 0, 0x00800000u, 4, 3, 0x80800000u, "smallest normal");
  LIT (1, 0, 0x00800000u, 4, 5, 0x0080u, "smallest normal");
  LIT (0, 1, 0x7e800000u, -7, -6, 0x00800000u, "smallest normal");
  LIT (0, 1, 0x7e800000u, -7, -8, 0x80800000u, "smallest normal");
  LIT (1, 1, 0x7e800000u, -7, -8, 0x8080u, "smallest normal");
  /* just past 2^126 the DIVIDE quotient of +-1 is subnormal (the table) */
  LIT (0, 1, 0x7e800001u, 0, 1, 0x007fffffu, "subnormal quotient");
  LIT (0, 1, 0x7e800001u, 0, -1, 0x807fffffu, "subnormal quotient");
  LIT (1, 1, 0x7e800001u, 0, -1, 0x8080u, "subnormal quotient");
  LIT (0, 1, 0x7e800001u, 0, 2, 0x00fffffeu, "2 / (2^126 + ulp)");
  /* overflow to infinity; FP32 finite but BF16 narrowed to infinity */
  LIT (0, 0, 0x7f7fffffu, 0, 2, 0x7f800000u, "overflow");
  LIT (0, 0, 0x7f7fffffu, 0, -2, 0xff800000u, "overflow");
  LIT (1, 0, 0x7f7fffffu, 0, -128, 0xff80u, "overflow");
  LIT (0, 0, 0x7f7fffffu, 0, 1, 0x7f7fffffu, "largest finite");
  LIT (1, 0, 0x7f7fffffu, 0, 1, 0x7f80u, "BF16 narrowing overflow");
  LIT (1, 0, 0x7f7fffffu, 0, -1, 0xff80u, "BF16 narrowing overflow");
  LIT (0, 1, 0x00800000u, 0, 127, 0x7f800000u, "overflow");
  LIT (0, 1, 0x00800000u, 0, 1, 0x7e800000u, "1 / 2^-126");
  LIT (1, 1, 0x00800000u, 0, -1, 0xfe80u, "1 / 2^-126");
  LIT (0, 0, 0x7f7fffffu, INT32_MIN, 0, 0x7f800000u, "overflow");
  /* underflow (subnormal scale, the table): subnormal and signed zero */
  LIT (0, 0, 0x00000001u, 0, 1, 0x00000001u, "underflow");
  LIT (0, 0, 0x00000001u, 0, -1, 0x80000001u, "underflow");
  LIT (1, 0, 0x00000001u, 0, -1, 0x8000u, "underflow to -0");
  LIT (1, 0, 0x00000001u, 0, 1, 0x0000u, "underflow to +0");
  LIT (0, 1, 0x007fffffu, 0, 1, 0x7e800001u, "1 / largest subnormal");
  /* zero points round to FP32 before the subtraction */
  LIT (0, 0, 0x3f800000u, 16777217, 1, 0xcb7fffffu, "wide zero point");
  LIT (0, 0, 0x3f800000u, 2147483583, 0, 0xceffffffu, "wide zero point");
  LIT (0, 0, 0x3f800000u, 2147483584, 0, 0xcf000000u, "wide zero point");
  LIT (0, 0, 0x3f800000u, INT32_MIN, 127, 0x4f000000u, "wide zero point");
  LIT (0, 0, 0x3f800000u, INT32_MAX, -128, 0xcf000000u, "wide zero point");
  LIT (0, 1, 0x40000000u, INT32_MAX, 0, 0xce800000u, "wide zero point");
  LIT (1, 0, 0x3f800000u, 16777217, 1, 0xcb80u, "wide zero point");
#undef LIT
  tap_ok (bad == 0, "3 literal results: smallest normal, the subnormal "
      "quotient past 2^126, overflow to infinity (BF16 narrowing too), "
      "underflow to subnormal and signed zero, wide zero points%s: %u "
      "checks, %u wrong", ftz ? " under FTZ/DAZ" : "", checks, bad);
}

int
main (void)
{
  int with_ftz = ftz_available ();

  sweep_values ();
  if (with_ftz)
    tap_ok (ftz_flushes (), "0 the host FTZ/DAZ mode flushes a subnormal "
        "product and a subnormal operand to zero");
  else
    tap_diag ("FTZ/DAZ: no SSE MXCSR or AArch64 FPCR on this target; the "
        "FTZ/DAZ runs are skipped");
  test_lanes (0);
  if (with_ftz)
    test_lanes (1);
  test_sweep (with_ftz);
  test_literals (0);
  if (with_ftz)
    test_literals (1);
  return tap_done ();
}
