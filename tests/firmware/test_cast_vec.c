/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test_cast_vec.c - the host vector-expression fixture of the firmware's
 * CastTess block arithmetic (firmware/cast_vec.h), against the independent
 * oracle (tests/oracle: oracle_bf16_from_f32_bits, _f16_bits, _u8; BF16
 * input is copied) only, never against the core's numerics:
 *
 *   1  every lane position: n 0 to 72 for each input dtype, at several
 *      source/destination offsets, apart and in place (dst == src), with
 *      guard bytes around the output (nothing but the 2n code bytes may
 *      change: in place, the staged bytes beyond them are kept), on values
 *      drawn from each dtype's special encodings;
 *   2  every FP16 encoding and every BF16 encoding (65,536 each) at all
 *      sixteen lane rotations, apart and in place;
 *   3  every UINT8 value at every lane rotation, apart and in place (the
 *      widening case, converted last to first);
 *   4  FP32: every upper half (65,536 sign/exponent/top-mantissa patterns)
 *      with the low halves that decide the rounding (0, 1, 0x7fff, 0x8000,
 *      0x8001, 0xffff and two random ones): every tie, every NaN class and
 *      the patterns near 0xffffffff that wrap; plus 2^20 random patterns;
 *   2-4 end an apart block where its allocation ends (a sanitizer build
 *   sees any read past the last scalar) and check every byte of the output
 *   buffer but the codes, in place too;
 *   and 1-4 in each FP environment of fpenv_util.h (the directed rounding
 *   modes, FTZ/DAZ after a check, line 0, that the mode flushes): the
 *   lanes' only floating-point operations are exact, so no environment
 *   may change a code.
 *
 * Expected codes are computed once, in the default FP environment.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cast_vec.h"
#include "fpenv_util.h"
#include "oracle.h"
#include "tap.h"

#define MAXN 72
#define GUARD 64

static uint64_t rng_state = 0x5eed0fca57b10c5ull;

static uint32_t
rnd32 (void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t) (rng_state >> 16);
}

static const SimaDType dtypes[] = {
  SIMA_DTYPE_FLOAT32, SIMA_DTYPE_FLOAT16, SIMA_DTYPE_BFLOAT16,
  SIMA_DTYPE_UINT8,
};

static const char *
dtype_name (SimaDType t)
{
  switch (t) {
    case SIMA_DTYPE_FLOAT32:
      return "FP32";
    case SIMA_DTYPE_FLOAT16:
      return "FP16";
    case SIMA_DTYPE_BFLOAT16:
      return "BF16";
    default:
      return "UINT8";
  }
}

static uint32_t
size_of (SimaDType t)
{
  return t == SIMA_DTYPE_FLOAT32 ? 4 : t == SIMA_DTYPE_UINT8 ? 1 : 2;
}

/* The oracle's code of one scalar pattern (low size_of bytes of v). */
static uint16_t
expect (SimaDType t, uint32_t v)
{
  switch (t) {
    case SIMA_DTYPE_FLOAT32:
      return oracle_bf16_from_f32_bits (v);
    case SIMA_DTYPE_FLOAT16:
      return oracle_bf16_from_f16_bits ((uint16_t) v);
    case SIMA_DTYPE_BFLOAT16:
      return (uint16_t) v;
    default:
      return oracle_bf16_from_u8 ((uint8_t) v);
  }
}

static void
put (uint8_t *p, uint32_t v, uint32_t size)
{
  uint32_t k;
  for (k = 0; k < size; k++)
    p[k] = (uint8_t) (v >> (8 * k));
}

static uint16_t
get16 (const uint8_t *p)
{
  return (uint16_t) (p[0] | p[1] << 8);
}

/* A pattern from the dtype's special encodings, or random bits. */
static uint32_t
special (SimaDType t)
{
  static const uint32_t f32[] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x00800000u,
    0x3f808000u, 0x3f818000u, 0x3f817fffu, 0x3f808001u, 0x7f7fffffu,
    0x7f7f8000u, 0xff7f7fffu, 0x7f800000u, 0xff800000u, 0x7f800001u,
    0x7fc00000u, 0x7fffffffu, 0xffffffffu, 0xffff8000u, 0xffff7fffu,
    0x7f80ffffu, 0xff808000u,
  };
  static const uint32_t f16[] = {
    0x0000u, 0x8000u, 0x0001u, 0x03ffu, 0x0400u, 0x7bffu, 0xfbffu, 0x7c00u,
    0xfc00u, 0x7c01u, 0x7e00u, 0xfdffu, 0x7fffu, 0xffffu, 0x3c01u, 0x3c04u,
    0x3c0cu, 0x3c08u, 0x3c07u,
  };
  uint32_t r = rnd32 ();

  if (r % 3 == 0)
    return rnd32 ();
  r = rnd32 ();
  switch (t) {
    case SIMA_DTYPE_FLOAT32:
      return f32[r % (sizeof f32 / sizeof f32[0])];
    case SIMA_DTYPE_FLOAT16:
      return f16[r % (sizeof f16 / sizeof f16[0])];
    case SIMA_DTYPE_BFLOAT16:
      return f32[r % (sizeof f32 / sizeof f32[0])] >> 16;
    default:
      return r & 1 ? 0xffu : 0u;
  }
}

/* ---- 1: every lane position, guards, offsets, in place ----------------- */

static void
test_lanes (TestFpEnv env)
{
  static const uint32_t offsets[][2] = { { 0, 0 }, { 3, 1 }, { 1, 6 } };
  size_t di;

  for (di = 0; di < sizeof dtypes / sizeof dtypes[0]; di++) {
    const SimaDType t = dtypes[di];
    const uint32_t size = size_of (t);
    SimaFwCastBlock b;
    uint64_t blocks = 0, bad = 0, bad_guard = 0;
    uint32_t n, o, i;
    int inplace;

    simafw_cast_block_init (&b, t);
    for (n = 0; n <= MAXN; n++)
      for (o = 0; o < sizeof offsets / sizeof offsets[0]; o++)
        for (inplace = 0; inplace <= 1; inplace++) {
          uint8_t src[4 * MAXN + 2 * GUARD], buf[4 * MAXN + 2 * GUARD],
              ref[4 * MAXN + 2 * GUARD];
          uint8_t *s, *d;
          uint16_t exp[MAXN];

          for (i = 0; i < sizeof buf; i++)
            buf[i] = ref[i] = (uint8_t) (0xa5 ^ i);
          memset (src, 0x5a, sizeof src);
          s = (inplace ? buf : src) + GUARD + offsets[o][0];
          d = inplace ? s : buf + GUARD + offsets[o][1];
          for (i = 0; i < n; i++) {
            uint32_t v = special (t);
            put (s + (uint64_t) i * size, v, size);
            exp[i] = expect (t, v);
          }
          if (inplace)
            memcpy (ref, buf, sizeof ref);
          test_fpenv_enter (env);
          simafw_cast_block (&b, s, d, n);
          test_fpenv_leave ();
          blocks++;
          for (i = 0; i < n; i++)
            if (get16 (d + 2 * (uint64_t) i) != exp[i] && bad++ < 5)
              tap_diag ("1 %s %s n=%u off %u/%u%s: code %u is 0x%04x, "
                  "oracle 0x%04x", test_fpenv_name (env), dtype_name (t), n,
                  offsets[o][0], offsets[o][1], inplace ? " in place" : "",
                  i, get16 (d + 2 * (uint64_t) i), exp[i]);
          /* everything but the 2n code bytes as it was */
          if ((memcmp (buf, ref, (size_t) (d - buf)) != 0
                  || memcmp (d + 2 * n, ref + (d + 2 * n - buf),
                      (size_t) (buf + sizeof buf - (d + 2 * n))) != 0)
              && bad_guard++ < 5)
            tap_diag ("1 %s %s n=%u off %u/%u%s: a byte outside the codes "
                "written", test_fpenv_name (env), dtype_name (t), n,
                offsets[o][0], offsets[o][1], inplace ? " in place" : "");
        }
    tap_ok (bad == 0 && bad_guard == 0, "1 %s %s: n 0..%d, 3 offset pairs, "
        "apart and in place: %llu blocks, %llu mismatches, %llu guard "
        "violations", test_fpenv_name (env), dtype_name (t), MAXN,
        (unsigned long long) blocks, (unsigned long long) bad,
        (unsigned long long) bad_guard);
  }
}

/* ---- 2-4: whole encodings at every rotation --------------------------- */

/* count patterns from pattern(k), each at every lane rotation (a block of
 * count + r values whose first r are filler), apart and in place. Apart, the
 * block ends where its allocation ends, so that a sanitizer build sees any
 * read past the last scalar; in place or apart, every byte of the output
 * buffer but the 2n code bytes must be as it was. */
static void
check_all (TestFpEnv env, SimaDType t, const char *what, uint32_t count,
    uint32_t (*pattern) (uint32_t k), uint32_t rotations)
{
  const uint32_t size = size_of (t);
  const uint32_t max = count + rotations;
  const size_t dst_bytes = (size_t) max * 4 + 2 * GUARD;
  uint8_t *src = malloc ((size_t) max * size), *dst = malloc (dst_bytes),
      *before = malloc (dst_bytes);
  uint16_t *exp = malloc ((size_t) count * sizeof *exp);
  uint64_t values = 0, bad = 0, bad_guard = 0;
  SimaFwCastBlock b;
  uint32_t r, k, i;
  int inplace;

  if (src == NULL || dst == NULL || before == NULL || exp == NULL) {
    tap_ok (0, "%s %s: out of memory", what, dtype_name (t));
    free (src);
    free (dst);
    free (before);
    free (exp);
    return;
  }
  simafw_cast_block_init (&b, t);
  for (k = 0; k < count; k++)
    exp[k] = expect (t, pattern (k));
  for (r = 0; r < rotations; r++)
    for (inplace = 0; inplace <= 1; inplace++) {
      const uint32_t n = count + r;
      uint8_t *s = inplace ? dst + GUARD : src + (size_t) (max - n) * size;
      uint8_t *d = dst + GUARD;

      memset (dst, 0xc3, dst_bytes);
      for (i = 0; i < r; i++)
        put (s + (uint64_t) i * size, 0x3f80u, size);
      for (k = 0; k < count; k++)
        put (s + (uint64_t) (r + k) * size, pattern (k), size);
      memcpy (before, dst, dst_bytes);
      test_fpenv_enter (env);
      simafw_cast_block (&b, s, d, n);
      test_fpenv_leave ();
      for (k = 0; k < count; k++, values++)
        if (get16 (d + 2 * (uint64_t) (r + k)) != exp[k] && bad++ < 5)
          tap_diag ("%s %s %s rotation %u%s: 0x%x gives 0x%04x, oracle "
              "0x%04x", what, test_fpenv_name (env), dtype_name (t), r,
              inplace ? " in place" : "", pattern (k),
              get16 (d + 2 * (uint64_t) (r + k)), exp[k]);
      if ((memcmp (dst, before, GUARD) != 0
              || memcmp (d + 2 * (size_t) n, before + GUARD + 2 * (size_t) n,
                  dst_bytes - GUARD - 2 * (size_t) n) != 0)
          && bad_guard++ < 5)
        tap_diag ("%s %s %s rotation %u%s: a byte outside the codes written",
            what, test_fpenv_name (env), dtype_name (t), r,
            inplace ? " in place" : "");
    }
  tap_ok (bad == 0 && bad_guard == 0, "%s %s %s: %u patterns at %u lane "
      "rotations, apart and in place: %llu values, %llu mismatches, %llu "
      "guard violations", what, test_fpenv_name (env), dtype_name (t),
      count, rotations, (unsigned long long) values,
      (unsigned long long) bad, (unsigned long long) bad_guard);
  free (src);
  free (dst);
  free (before);
  free (exp);
}

static uint32_t
identity (uint32_t k)
{
  return k;
}

/* Section 4's patterns: upper half k >> 3 with the k % 8th low half. */
static uint32_t low_halves[8] = { 0x0000u, 0x0001u, 0x7fffu, 0x8000u,
  0x8001u, 0xffffu, 0, 0 };

static uint32_t
f32_halves (uint32_t k)
{
  return (k >> 3) << 16 | low_halves[k & 7];
}

static uint32_t random_f32[1u << 20];

static uint32_t
f32_random (uint32_t k)
{
  return random_f32[k];
}

/* ---- main ---------------------------------------------------------------- */

int
main (void)
{
  TestFpEnv env;
  uint32_t i;

  low_halves[6] = rnd32 () & 0xffffu;
  low_halves[7] = rnd32 () & 0xffffu;
  for (i = 0; i < sizeof random_f32 / sizeof random_f32[0]; i++)
    random_f32[i] = rnd32 () ^ rnd32 () << 16;
  {
    /* line 0: the host's FTZ/DAZ mode really flushes (else the FTZ lines
     * would prove nothing) */
    volatile float tiny = 1e-40f, one = 1.0f;
    float r;
    int flushes = test_fpenv_enter (TEST_FPENV_FLUSH_DENORMALS);
    r = tiny * one;
    test_fpenv_leave ();
    if (flushes)
      tap_ok (r == 0.0f, "0 FTZ/DAZ mode flushes a subnormal product (%g)",
          (double) r);
  }
  for (env = TEST_FPENV_DEFAULT; env < TEST_FPENV_COUNT; env++) {
    if (!test_fpenv_enter (env)) {
      tap_diag ("%s: not on this machine", test_fpenv_name (env));
      continue;
    }
    test_fpenv_leave ();
    test_lanes (env);
    check_all (env, SIMA_DTYPE_FLOAT16, "2", 65536, identity, 16);
    check_all (env, SIMA_DTYPE_BFLOAT16, "2", 65536, identity, 16);
    check_all (env, SIMA_DTYPE_UINT8, "3", 256, identity, 16);
    check_all (env, SIMA_DTYPE_FLOAT32, "4", 65536 * 8, f32_halves,
        env == TEST_FPENV_DEFAULT ? 16 : 3);
    check_all (env, SIMA_DTYPE_FLOAT32, "4 random", 1u << 20, f32_random, 2);
  }
  return tap_done ();
}
