/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * QuantTess numerics against the oracle, through the public A65 API:
 *  - every FP16 and every BF16 pattern x 4 roundings x zero points
 *    {-128, 0, 127} x 10 multipliers (normal, power of two, subnormal, huge,
 *    and two that scale subnormal 16-bit inputs to where the roundings
 *    differ);
 *  - FP32 special values, values around every integer rounding tie, exact
 *    binary32 product ties, and >= 1e6 random values per multiplier;
 *  - the same results in non-default FP environments (directed rounding,
 *    FTZ/DAZ), where the oracle still runs in the default one.
 * The tensor is rank 1 with C tiles of 64 compact channels, so output byte i
 * is element i (tests/kernels/test_quanttess_layout.c covers placement).
 */
#include <simaai/kernels/a65/quanttess.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpenv_util.h"
#include "oracle.h"
#include "tap.h"
#include "test_util.h"

enum { FLAT_TILE = 64 };

typedef struct {
  const char *name;
  float value;
} Multiplier;

/* the fp32 sweeps take the first 8: the last two are for 16-bit inputs */
enum { N_MULTIPLIERS = 10, N_FP32_MULTIPLIERS = 8 };
static Multiplier multipliers[N_MULTIPLIERS];
static const int32_t zero_points[3] = { -128, 0, 127 };

static void
init_multipliers (void)
{
  /* 3e5 and 1.5 * 2^127 bring FP16 and BF16 subnormal inputs to values
   * where nearest-even and toward-zero differ; none of the others does
   * (a toward-zero mutation of subnormal inputs passed without them) */
  Multiplier m[N_MULTIPLIERS] = {
    { "1.0", 1.0f }, { "127.0", 127.0f }, { "0.5", 0.5f },
    { "2^-3", 0.125f }, { "0.3", 0.3f }, { "3.0e-39 (subnormal)", 3.0e-39f },
    { "2^-140 (subnormal)", ldexpf (1.0f, -140) }, { "1.0e30", 1.0e30f },
    { "3.0e5", 3.0e5f }, { "1.5 * 2^127", ldexpf (1.5f, 127) },
  };
  memcpy (multipliers, m, sizeof m);
}

/* Production QuantTess of n scalars (n a multiple of FLAT_TILE). */
static SimaStatus
quantize_flat (SimaDType dtype, const void *data, int64_t n, float multiplier,
    int32_t zero_point, int rounding, int8_t *out)
{
  static const int8_t axes[4] = { -1, -1, -1, 0 };
  static const int64_t tile[4] = { 1, 1, 1, FLAT_TILE };
  SimaTensorSpec in = test_spec_dense (dtype, 1, &n);
  SimaTensorSpec o = test_spec_tiled (SIMA_DTYPE_INT8, 1, &n, axes, tile,
      SIMA_CHANNELS_COMPACT);
  SimaQuantTessRequest req = { &in, 1, &o, 1,
    { multiplier, zero_point, (SimaRounding) rounding } };
  SimaQuantTessPlan plan;
  SimaA65QuantTessPlan a65;
  SimaStatus st = sima_quanttess_check_inference (&req, &plan);

  if (st.code == SIMA_OK)
    st = sima_a65_quanttess_prepare (&plan, &a65);
  if (st.code == SIMA_OK) {
    SimaConstHostBuffer ib = { data, plan.input_bytes };
    SimaHostBuffer ob = { out, plan.output_bytes };
    st = sima_a65_quanttess_execute (&a65, &ib, 1, &ob, 1);
  }
  return st;
}

typedef struct {
  uint64_t cases;
  uint64_t mismatches;
  int failed_calls;
} Tally;

/* Quantizes `values` (raw bits, FP32 as uint32, FP16/BF16 as uint16) with
 * one parameter set in environment env and compares with the oracle. */
static void
check_batch (Tally *t, SimaDType dtype, const void *values, int64_t n,
    float multiplier, int32_t zp, int rounding, TestFpEnv env,
    int8_t *expected, int8_t *got)
{
  int64_t i;
  SimaStatus st;

  for (i = 0; i < n; i++) {
    uint32_t bits = dtype == SIMA_DTYPE_FLOAT32
        ? ((const uint32_t *) values)[i] : ((const uint16_t *) values)[i];
    expected[i] = oracle_quant_bits (dtype, bits, multiplier, zp, rounding);
  }
  memset (got, 0x5a, (size_t) n);
  if (!test_fpenv_enter (env)) {
    test_fpenv_leave ();
    return;
  }
  st = quantize_flat (dtype, values, n, multiplier, zp, rounding, got);
  test_fpenv_leave ();
  if (st.code != SIMA_OK) {
    t->failed_calls++;
    tap_diag ("execute failed: %s", st.message);
    return;
  }
  for (i = 0; i < n; i++) {
    if (expected[i] == got[i])
      continue;
    if (t->mismatches++ < 8) {
      uint32_t bits = dtype == SIMA_DTYPE_FLOAT32
          ? ((const uint32_t *) values)[i] : ((const uint16_t *) values)[i];
      tap_diag ("%s bits %#x m=%a zp=%d rounding %d env %s: got %d, "
          "oracle %d", sima_dtype_name (dtype), bits, (double) multiplier,
          (int) zp, rounding, test_fpenv_name (env), got[i], expected[i]);
    }
  }
  t->cases += (uint64_t) n;
}

static void
exhaustive_16bit (SimaDType dtype)
{
  const int64_t n = 65536;
  uint16_t *values = malloc (sizeof (uint16_t) * (size_t) n);
  int8_t *expected = malloc ((size_t) n), *got = malloc ((size_t) n);
  Tally t = { 0, 0, 0 };
  int64_t i;
  int mi, zi, r;

  for (i = 0; i < n; i++)
    values[i] = (uint16_t) i;
  for (mi = 0; mi < N_MULTIPLIERS; mi++)
    for (zi = 0; zi < 3; zi++)
      for (r = 0; r < 4; r++)
        check_batch (&t, dtype, values, n, multipliers[mi].value,
            zero_points[zi], r, TEST_FPENV_DEFAULT, expected, got);
  tap_ok (t.mismatches == 0 && t.failed_calls == 0 && t.cases == 65536 * 4 * 3 * N_MULTIPLIERS,
      "exhaustive %s: every pattern x 4 roundings x 3 zero points x 10 "
      "multipliers: %llu cases, %llu mismatches", sima_dtype_name (dtype),
      (unsigned long long) t.cases, (unsigned long long) t.mismatches);
  free (values);
  free (expected);
  free (got);
}

/* ---- FP32 value sets ---------------------------------------------------- */

typedef struct {
  uint32_t *v;
  int64_t n, cap;
} Values;

static void
push (Values *vs, uint32_t bits)
{
  if (vs->n == vs->cap) {
    vs->cap = vs->cap ? vs->cap * 2 : 4096;
    vs->v = realloc (vs->v, sizeof (uint32_t) * (size_t) vs->cap);
  }
  vs->v[vs->n++] = bits;
}

static void
push_float (Values *vs, float f)
{
  uint32_t bits;
  memcpy (&bits, &f, sizeof bits);
  push (vs, bits);
}

/* Pads to a multiple of the flat tile with zeros. */
static void
pad_values (Values *vs)
{
  while (vs->n % FLAT_TILE)
    push (vs, 0);
}

static void
push_specials (Values *vs)
{
  static const uint32_t specials[] = {
    0x00000000, 0x80000000,                 /* +-0 */
    0x7f800000, 0xff800000,                 /* +-inf */
    0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fffffff, 0xffffffff,
    0x7fa00000, 0x7fbfffff,                 /* quiet/signalling NaNs */
    0x00000001, 0x80000001, 0x007fffff, 0x807fffff,  /* subnormal ends */
    0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff,  /* normal ends */
    0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000,  /* +-1, +-0.5 */
    0x3fc00000, 0xbfc00000, 0x40200000, 0xc0200000,  /* +-1.5, +-2.5 */
    0x3effffff, 0x3f000001, 0x4300ffff, 0x43010000,  /* around 0.5, 128.5 */
    0xc3010000, 0xc300ffff, 0x43000000, 0xc3000000,  /* -128.5, +-128 */
  };
  size_t i;
  for (i = 0; i < sizeof specials / sizeof specials[0]; i++)
    push (vs, specials[i]);
}

/* Inputs whose product lands on, or a few ulps around, every integer and
 * every half-integer in [-300, 300]: the rounding ties of all four modes. */
static void
push_integer_ties (Values *vs, float m)
{
  int k, half, u;

  for (k = -300; k <= 300; k++) {
    for (half = 0; half < 2; half++) {
      double x = ((double) k + 0.5 * half) / (double) m;
      float f;
      if (!(fabs (x) < 3.0e38))
        continue;
      f = (float) x;
      for (u = 0; u < 3; u++) {
        push_float (vs, f);
        f = nextafterf (f, INFINITY);
      }
      f = (float) x;
      for (u = 0; u < 3; u++) {
        f = nextafterf (f, -INFINITY);
        push_float (vs, f);
      }
    }
  }
}

/* Inputs whose exact product with m is exactly halfway between two binary32
 * values: the significand product P = Mx * Mm must have its discarded low
 * bits equal to 100...0. With Mm = odd * 2^t, that fixes the low bits of Mx
 * through the inverse of `odd` modulo a power of two. Exponents are chosen so
 * the product lands around the integer range and in the subnormal range. */
static void
push_product_ties (Values *vs, float m, TestRng *rng)
{
  uint32_t mbits, mm, odd, inv = 1;
  int t = 0, i, dropped, rep;

  memcpy (&mbits, &m, sizeof mbits);
  mm = (mbits & 0x7fffff) | ((mbits >> 23) ? 0x800000u : 0);
  odd = mm;
  while (!(odd & 1)) {
    odd >>= 1;
    t++;
  }
  for (i = 0; i < 6; i++)       /* Newton: inverse of odd modulo 2^32 */
    inv *= 2 - odd * inv;
  for (dropped = 20; dropped <= 26; dropped++) {
    int fixed = dropped - t;
    uint64_t low, step, mx;
    if (fixed < 1 || fixed > 24)
      continue;
    low = ((UINT64_C (1) << (fixed - 1)) * inv) & ((UINT64_C (1) << fixed) - 1);
    step = UINT64_C (1) << fixed;
    for (mx = low; mx < (1u << 24); mx += step) {
      uint64_t p = mx * mm;
      int len = 64 - __builtin_clzll (p);
      if (mx < (1u << 23) || len - 24 != dropped)
        continue;
      for (rep = 0; rep < 4; rep++) {
        /* product exponent: random around [2^-4, 2^10] or subnormal */
        int target = rep < 3 ? (int) test_rng_range (rng, -4, 10)
            : (int) test_rng_range (rng, -149, -126);
        int mexp = (mbits >> 23) ? (int) (mbits >> 23) - 150 : -149;
        int xexp = target - (len - 1) - mexp;  /* x = mx * 2^xexp */
        int biased = xexp + 150;
        if (biased < 1 || biased > 254)
          continue;
        push (vs, (uint32_t) (test_rng_below (rng, 2) << 31)
            | (uint32_t) biased << 23 | (uint32_t) (mx & 0x7fffff));
      }
    }
  }
}

static void
push_random (Values *vs, float m, TestRng *rng, int64_t count)
{
  int64_t i;
  for (i = 0; i < count; i++) {
    if (i & 1) {
      push (vs, (uint32_t) test_rng_next (rng));
    } else {
      /* products spread over [-300, 300] */
      double u = (double) (test_rng_next (rng) >> 11) / 9007199254740992.0;
      double x = (u * 600.0 - 300.0) / (double) m;
      push_float (vs, fabs (x) < 3.0e38 ? (float) x : (float) u);
    }
  }
}

static void
fp32_sweep (void)
{
  TestRng rng = { 0x5157a0001 };
  int mi, zi, r;
  Tally special = { 0, 0, 0 }, ties = { 0, 0, 0 }, random = { 0, 0, 0 };
  int8_t *expected = NULL, *got = NULL;

  for (mi = 0; mi < N_FP32_MULTIPLIERS; mi++) {
    float m = multipliers[mi].value;
    Values sv = { 0 }, tv = { 0 }, rv = { 0 };
    push_specials (&sv);
    pad_values (&sv);
    push_integer_ties (&tv, m);
    push_product_ties (&tv, m, &rng);
    pad_values (&tv);
    push_random (&rv, m, &rng, 1000000);
    pad_values (&rv);
    {                           /* room for the largest of the three */
      int64_t most = rv.n > tv.n ? rv.n : tv.n;
      most = most > sv.n ? most : sv.n;
      expected = realloc (expected, (size_t) most);
      got = realloc (got, (size_t) most);
    }
    for (zi = 0; zi < 3; zi++) {
      for (r = 0; r < 4; r++) {
        check_batch (&special, SIMA_DTYPE_FLOAT32, sv.v, sv.n, m,
            zero_points[zi], r, TEST_FPENV_DEFAULT, expected, got);
        check_batch (&ties, SIMA_DTYPE_FLOAT32, tv.v, tv.n, m,
            zero_points[zi], r, TEST_FPENV_DEFAULT, expected, got);
      }
      /* random values: every rounding, one zero point per pass */
      check_batch (&random, SIMA_DTYPE_FLOAT32, rv.v, rv.n, m,
          zero_points[zi], zi, TEST_FPENV_DEFAULT, expected, got);
    }
    check_batch (&random, SIMA_DTYPE_FLOAT32, rv.v, rv.n, m, 0, 3,
        TEST_FPENV_DEFAULT, expected, got);
    free (sv.v);
    free (tv.v);
    free (rv.v);
  }
  tap_ok (special.mismatches == 0 && special.failed_calls == 0,
      "fp32 special values x 8 multipliers x 4 roundings x 3 zero points: "
      "%llu cases, %llu mismatches", (unsigned long long) special.cases,
      (unsigned long long) special.mismatches);
  tap_ok (ties.mismatches == 0 && ties.failed_calls == 0,
      "fp32 integer and binary32-product ties x 8 multipliers x 4 roundings "
      "x 3 zero points: %llu cases, %llu mismatches",
      (unsigned long long) ties.cases, (unsigned long long) ties.mismatches);
  tap_ok (random.mismatches == 0 && random.failed_calls == 0
      && random.cases >= N_FP32_MULTIPLIERS * 4 * UINT64_C (1000000),
      "fp32 random, 1e6 values per multiplier, each under all 4 roundings: "
      "%llu cases, %llu mismatches", (unsigned long long) random.cases,
      (unsigned long long) random.mismatches);
  free (expected);
  free (got);
}

/* Results must not depend on the caller's FP environment. */
static void
fp_environments (void)
{
  static const SimaDType dtypes[3] = { SIMA_DTYPE_FLOAT16,
    SIMA_DTYPE_BFLOAT16, SIMA_DTYPE_FLOAT32 };
  static const int mult_index[3] = { 4, 5, 6 };  /* 0.3 and two subnormals */
  TestRng rng = { 77 };
  const int64_t n = 65536;
  uint32_t *v32 = malloc (sizeof (uint32_t) * (size_t) n);
  uint16_t *v16 = malloc (sizeof (uint16_t) * (size_t) n);
  int8_t *expected = malloc ((size_t) n), *got = malloc ((size_t) n);
  int e, d, mi, r;
  int64_t i;

  for (i = 0; i < n; i++) {
    v16[i] = (uint16_t) i;
    v32[i] = (uint32_t) test_rng_next (&rng);
  }
  for (e = TEST_FPENV_UPWARD; e < TEST_FPENV_COUNT; e++) {
    Tally t = { 0, 0, 0 };
    if (!test_fpenv_enter ((TestFpEnv) e)) {
      test_fpenv_leave ();
      tap_ok (1, "fp environment %s: not available on this CPU # SKIP",
          test_fpenv_name ((TestFpEnv) e));
      continue;
    }
    test_fpenv_leave ();
    for (d = 0; d < 3; d++)
      for (mi = 0; mi < 3; mi++)
        for (r = 0; r < 4; r++)
          check_batch (&t, dtypes[d], d == 2 ? (const void *) v32
              : (const void *) v16, n, multipliers[mult_index[mi]].value, 0,
              r, (TestFpEnv) e, expected, got);
    tap_ok (t.mismatches == 0 && t.failed_calls == 0,
        "results unchanged under %s (fp16, bf16, fp32; 3 multipliers; 4 "
        "roundings): %llu cases, %llu mismatches",
        test_fpenv_name ((TestFpEnv) e), (unsigned long long) t.cases,
        (unsigned long long) t.mismatches);
  }
  free (v32);
  free (v16);
  free (expected);
  free (got);
}

int
main (void)
{
  init_multipliers ();
  exhaustive_16bit (SIMA_DTYPE_FLOAT16);
  exhaustive_16bit (SIMA_DTYPE_BFLOAT16);
  fp32_sweep ();
  fp_environments ();
  return tap_done ();
}
