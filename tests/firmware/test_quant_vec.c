/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test_quant_vec.c - the host vector-expression fixture of the firmware's
 * QuantTess block arithmetic (firmware/quant_vec.h), against the
 * independent oracle (tests/oracle, oracle_quant_bits) only: paired-prefix
 * admission at every lane position around the 16/32-element boundaries,
 * deferred suffixes through the mixed helper, output guards, same-base
 * scratch compression, every FP16 encoding, FP32/BF16 specials and
 * underflow boundaries, UINT8, and the FTZ/DAZ host modes
 * (shared/seeds/000, "Tests and qualification").
 *
 * Expected values are always computed in the default FP environment (the
 * oracle's requirement); only the code under test runs with FTZ/DAZ set.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpenv_util.h"
#include "oracle.h"
#include "quant_vec.h"
#include "tap.h"

#define MAXN 256
#define GUARD 64

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

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

static const SimaDType dtypes[4] = {
  SIMA_DTYPE_FLOAT32, SIMA_DTYPE_FLOAT16, SIMA_DTYPE_BFLOAT16,
  SIMA_DTYPE_UINT8,
};

static const char *
dname (SimaDType d)
{
  return d == SIMA_DTYPE_FLOAT32 ? "fp32" : d == SIMA_DTYPE_FLOAT16 ? "fp16"
      : d == SIMA_DTYPE_BFLOAT16 ? "bf16" : "u8";
}

static uint32_t
dsize (SimaDType d)
{
  return d == SIMA_DTYPE_FLOAT32 ? 4 : d == SIMA_DTYPE_UINT8 ? 1 : 2;
}

static void
put (SimaDType d, uint8_t *buf, uint32_t i, uint32_t v)
{
  uint32_t k, s = dsize (d);
  for (k = 0; k < s; k++)
    buf[(uint64_t) i * s + k] = (uint8_t) (v >> (8 * k));
}

static uint32_t
get (SimaDType d, const uint8_t *buf, uint32_t i)
{
  uint32_t k, s = dsize (d), v = 0;
  for (k = 0; k < s; k++)
    v |= (uint32_t) buf[(uint64_t) i * s + k] << (8 * k);
  return v;
}

static void
make_block (SimaFwQuantBlock *b, SimaDType d, uint32_t mbits, int32_t zp,
    int rounding)
{
  SimaQuantTessParams p;
  SimaQuantNumerics q;

  p.multiplier = f_of (mbits);
  p.zero_point = zp;
  p.rounding = (SimaRounding) rounding;
  sima_quanttess_numerics (&p, &q);
  simafw_quant_block_init (b, d, &q);
}

static void
expect_all (SimaDType d, const uint8_t *src, uint32_t n, uint32_t mbits,
    int32_t zp, int rounding, uint8_t *exp)
{
  uint32_t i;
  for (i = 0; i < n; i++)
    exp[i] = (uint8_t) oracle_quant_bits (d, get (d, src, i), f_of (mbits),
        zp, rounding);
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

/* ---- values ------------------------------------------------------------- */

/* A random safe value: normal, exponent far from the underflow range,
 * either sign (FP16: magnitude >= 1). */
static uint32_t
safe_value (SimaDType d)
{
  uint32_t r = rnd32 ();
  switch (d) {
    case SIMA_DTYPE_FLOAT32:
      return (r & 0x80000000u) | ((120u + (r >> 8) % 16u) << 23)
          | (rnd32 () & 0x7fffffu);
    case SIMA_DTYPE_BFLOAT16:
      return (r & 0x8000u) | ((120u + (r >> 8) % 16u) << 7) | (r & 0x7fu);
    case SIMA_DTYPE_FLOAT16:
      return (r & 0x8000u) | ((15u + (r >> 8) % 5u) << 10) | (r & 0x3ffu);
    default:
      return r & 0xffu;
  }
}

/* A risky value for the admission multiplier of test 1 (FP32/BF16: 0.5,
 * I_min = 2; FP16: 2^-110): alternately an input subnormal and a tiny
 * normal (field 1) / an FP16 whose product underflows. */
static uint32_t
risky_value (SimaDType d, int kind)
{
  uint32_t r = rnd32 ();
  switch (d) {
    case SIMA_DTYPE_FLOAT32:
      return (r & 0x80000000u) | (kind ? (1u << 23) | (r & 0x7fffffu)
          : 1u + (r & 0x7ffffeu));
    case SIMA_DTYPE_BFLOAT16:
      return (r & 0x8000u) | (kind ? (1u << 7) | (r & 0x7fu)
          : 1u + (r & 0x7eu));
    default:                   /* FP16: products 2^-134 .. < 2^-126 */
      return (r & 0x8000u) | (kind ? 0x0001u + (r & 0x7fu) : 0x0001u);
  }
}

/* What simafw_quant_paired returns with a risky value at p (p >= n: none). */
static uint32_t
expected_return (uint32_t n, uint32_t p)
{
  uint32_t pairs = n / 32 * 32;
  if (p < pairs)
    return p / 32 * 32;
  if (n - pairs >= 16) {
    if (p < pairs + 16)
      return pairs;
    return pairs + 16;
  }
  return pairs;
}

/* ---- 1: paired-prefix admission ----------------------------------------- */

static void
test_admission (void)
{
  static uint8_t src[MAXN * 4], dst[MAXN + GUARD], exp[MAXN];
  static const SimaDType ds[3] = {
    SIMA_DTYPE_FLOAT32, SIMA_DTYPE_BFLOAT16, SIMA_DTYPE_FLOAT16,
  };
  int di;

  for (di = 0; di < 3; di++) {
    SimaDType d = ds[di];
    uint32_t mbits = d == SIMA_DTYPE_FLOAT16 ? bits_of (0x1p-110f)
        : bits_of (0.5f);
    uint64_t cases = 0, bad_ret = 0, bad_prefix = 0, bad_guard = 0,
        bad_mixed = 0;
    uint32_t n, p;
    int g;

    for (n = 1; n <= 70; n++)
      for (p = 0; p <= n; p++) {
        int rounding = (int) ((n + p) & 3);
        int32_t zp = (int32_t) (p % 3) - 1;
        SimaFwQuantBlock b;
        uint32_t i, ret, want = expected_return (n, p);

        make_block (&b, d, mbits, zp, rounding);
        for (i = 0; i < n; i++)
          put (d, src, i, i == p ? risky_value (d, (int) (n & 1))
              : safe_value (d));
        expect_all (d, src, n, mbits, zp, rounding, exp);
        for (g = 0; g < 2; g++) {
          uint8_t gb = g ? 0x5a : 0xa5;
          memset (dst, gb, sizeof dst);
          ret = simafw_quant_paired (&b, src, dst, n);
          cases++;
          if (ret != want) {
            if (bad_ret++ < 5)
              tap_diag ("%s n=%u risky at %u: paired returned %u, want %u",
                  dname (d), n, p, ret, want);
            continue;
          }
          if (memcmp (dst, exp, ret) != 0 && bad_prefix++ < 5)
            tap_diag ("%s n=%u p=%u: prefix [0,%u) differs", dname (d), n,
                p, ret);
          for (i = ret; i < n + GUARD; i++)
            if (dst[i] != gb)
              break;
          if (i < n + GUARD && bad_guard++ < 5)
            tap_diag ("%s n=%u p=%u: paired wrote byte %u at/after its "
                "return %u", dname (d), n, p, i, ret);
          simafw_quant_mixed (&b, src, dst, ret, n);
          for (i = n; i < n + GUARD; i++)
            if (dst[i] != gb)
              break;
          if ((memcmp (dst, exp, n) != 0 || i < n + GUARD) && bad_mixed++ < 5)
            tap_diag ("%s n=%u p=%u: mixed from %u differs", dname (d), n, p,
                ret);
        }
      }
    tap_ok (bad_ret == 0, "1 %s paired return = deferred pair / tail start:"
        " %llu cases, %llu wrong", dname (d), (unsigned long long) cases,
        (unsigned long long) bad_ret);
    tap_ok (bad_prefix == 0, "1 %s paired prefix exact: %llu wrong",
        dname (d), (unsigned long long) bad_prefix);
    tap_ok (bad_guard == 0, "1 %s nothing written at/after the return: "
        "%llu wrong", dname (d), (unsigned long long) bad_guard);
    tap_ok (bad_mixed == 0, "1 %s mixed completes the block exactly: "
        "%llu wrong", dname (d), (unsigned long long) bad_mixed);
  }
}

/* ---- value pools for 2, 3, 5, 6 ----------------------------------------- */

static uint32_t
special_value (SimaDType d, uint32_t mbits)
{
  static const uint32_t f32[] = {
    0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
    0xffc00001u, 0x7f800001u, 0x7fa5a5a5u, 0xff812345u, 0x00000001u,
    0x807fffffu, 0x00400000u, 0x00800000u, 0x80800001u, 0x7f7fffffu,
    0xff7fffffu, 0x3f000000u, 0xbf000000u, 0x3fc00000u, 0x3f800000u,
  };
  uint32_t r = rnd32 ();
  uint32_t v;

  switch (r % 4) {
    case 0:
      v = f32[(r >> 4) % (sizeof f32 / sizeof f32[0])];
      break;
    case 1:{                    /* near (k + 0.5)/m, k in [-260, 260] */
      float m = f_of (mbits);
      int k = (int) ((r >> 4) % 521u) - 260;
      float x = (float) ((k + 0.5) / (double) m);
      v = bits_of (x) + ((r >> 16) % 5u) - 2u;
      break;
    }
    case 2:{                    /* products near 2^-126 and 2^-149 */
      float m = f_of (mbits);
      float x = (float) (((r >> 4) & 1 ? 0x1p-126 : 0x1p-149) / (double) m);
      v = bits_of (x) + ((r >> 16) % 7u) - 3u;
      if ((r >> 8) & 1)
        v ^= 0x80000000u;
      break;
    }
    default:
      v = rnd32 ();
      break;
  }
  if (d == SIMA_DTYPE_BFLOAT16)
    return (r >> 30) ? v >> 16 : (v >> 16) + ((r >> 20) & 3u) - 1u;
  if (d == SIMA_DTYPE_FLOAT16)
    return rnd32 () & 0xffffu;
  if (d == SIMA_DTYPE_UINT8)
    return r & 0xffu;
  return v;
}

static void
fill_mixed (SimaDType d, uint8_t *src, uint32_t n, uint32_t mbits)
{
  uint32_t i;
  for (i = 0; i < n; i++)
    put (d, src, i, (rnd32 () % 3u) ? safe_value (d) : special_value (d,
            mbits));
}

static const uint32_t mults[] = {
  0x3f800000u,                  /* 1.0 */
  0x3f000000u,                  /* 0.5 */
  0x3e99999au,                  /* 0.3 */
  0x35800000u,                  /* 2^-20 */
  0x33800000u,                  /* 2^-24 */
  0x00800000u,                  /* 2^-126 */
  0x00800001u,                  /* just above */
  0x007fffffu,                  /* just below (largest subnormal) */
  0x00080000u,                  /* 2^-130 */
  0x00000001u,                  /* 2^-149 */
  0x7f61b1e6u,                  /* 3.0e38 */
  0x0d800000u,                  /* 2^-100 */
  0x00ffffffu,                  /* field 1, I_min 127 */
  0x01000000u,                  /* field 2 */
  0x3effffffu,                  /* field 125 (I_min 3) */
  0x3f7fffffu,                  /* field 126 */
  0x3fffffffu,                  /* field 127 */
  0x40000000u,                  /* field 128 */
  0x42f70000u,                  /* 123.5 */
  0x447a0000u,                  /* 1000 */
  0x47000000u,                  /* 2^15 */
  0x4b000000u,                  /* 2^23: FP16 subnormals land on halves */
  0x4b800000u,                  /* 2^24: FP16 subnormals land on integers */
};
#define N_MULTS (sizeof mults / sizeof mults[0])

/* ---- 2: output guards --------------------------------------------------- */

static void
test_guards (void)
{
  static uint8_t src[MAXN * 4], buf[MAXN + 2 * GUARD], exp[MAXN];
  int di;

  for (di = 0; di < 4; di++) {
    SimaDType d = dtypes[di];
    uint64_t cases = 0, bad = 0, badv = 0;
    uint32_t n, mi;
    for (mi = 0; mi < N_MULTS; mi++)
      for (n = 0; n <= 100; n++) {
        SimaFwQuantBlock b;
        int rounding = (int) (n & 3);
        int32_t zp = (int32_t) (mi * 37u % 256u) - 128;
        uint32_t i;
        make_block (&b, d, mults[mi], zp, rounding);
        fill_mixed (d, src, n, mults[mi]);
        expect_all (d, src, n, mults[mi], zp, rounding, exp);
        memset (buf, 0xc3, sizeof buf);
        simafw_quant_block (&b, src, buf + GUARD, n);
        cases++;
        for (i = 0; i < GUARD; i++)
          if (buf[i] != 0xc3 || buf[GUARD + n + i] != 0xc3)
            break;
        if (i < GUARD && bad++ < 5)
          tap_diag ("%s n=%u m=0x%08x: guard byte touched", dname (d), n,
              mults[mi]);
        if (memcmp (buf + GUARD, exp, n) != 0 && badv++ < 5)
          tap_diag ("%s n=%u m=0x%08x: block differs", dname (d), n,
              mults[mi]);
      }
    tap_ok (bad == 0 && badv == 0, "2 %s block guards (64 bytes each side), "
        "n 0..100: %llu cases, %llu guard, %llu value mismatches",
        dname (d), (unsigned long long) cases, (unsigned long long) bad,
        (unsigned long long) badv);
  }
}

/* ---- 3: same-base scratch compression ----------------------------------- */

static void
test_in_place (void)
{
  static uint8_t src[MAXN * 4], work[MAXN * 4 + 16], exp[MAXN];
  int di;

  for (di = 0; di < 4; di++) {
    SimaDType d = dtypes[di];
    uint64_t cases = 0, bad = 0;
    uint32_t n, mi, off, s = dsize (d);
    for (mi = 0; mi < N_MULTS; mi++)
      for (n = 0; n <= 200; n += (n < 70 ? 1 : 7))
        for (off = 0; off < 6; off += (off ? 2 : 1)) {
          SimaFwQuantBlock b;
          int rounding = (int) ((n + off) & 3);
          int32_t zp = (int32_t) (n % 5) - 2;
          uint8_t *w = work + off;
          make_block (&b, d, mults[mi], zp, rounding);
          fill_mixed (d, src, n, mults[mi]);
          expect_all (d, src, n, mults[mi], zp, rounding, exp);
          memset (work, 0x77, sizeof work);
          memcpy (w, src, (size_t) n * s);
          simafw_quant_block (&b, w, w, n);
          cases++;
          if ((memcmp (w, exp, n) != 0
                  || memcmp (w + n, src + n, (size_t) n * s - n) != 0
                  || work[0] != (off ? 0x77 : work[0])
                  || w[(size_t) n * s] != 0x77) && bad++ < 5)
            tap_diag ("%s n=%u off=%u m=0x%08x: in place differs",
                dname (d), n, off, mults[mi]);
        }
    tap_ok (bad == 0, "3 %s in place (dst == src), n 0..200, offsets "
        "0,1,3,5: %llu cases, %llu mismatches", dname (d),
        (unsigned long long) cases, (unsigned long long) bad);
  }
}

/* ---- chunked runs (4..7): paired, then mixed from its return ------------- */

/* count values of src through blocks of `chunk`; returns mismatches. */
static uint64_t
run_chunks (SimaDType d, const uint8_t *src, uint32_t count, uint32_t chunk,
    uint32_t mbits, int32_t zp, int rounding, const uint8_t *exp,
    uint8_t *out, int ftz, const char *what)
{
  SimaFwQuantBlock b;
  uint32_t s, i, sz = dsize (d);
  uint64_t bad = 0;

  make_block (&b, d, mbits, zp, rounding);
  memset (out, 0xee, count);
  ftz_on (ftz);
  for (s = 0; s < count; s += chunk) {
    uint32_t len = count - s < chunk ? count - s : chunk;
    if (b.exact_only) {
      simafw_quant_block (&b, src + (uint64_t) s * sz, out + s, len);
    } else {
      uint32_t r = simafw_quant_paired (&b, src + (uint64_t) s * sz,
          out + s, len);
      if (r > len || r % 16 != 0) {
        ftz_off (ftz);
        tap_diag ("%s: paired returned %u of %u", what, r, len);
        return count;
      }
      simafw_quant_mixed (&b, src + (uint64_t) s * sz, out + s, r, len);
    }
  }
  ftz_off (ftz);
  for (i = 0; i < count; i++)
    if (out[i] != exp[i] && bad++ < 3)
      tap_diag ("%s%s: %s 0x%x m=0x%08x zp=%d rnd=%d chunk=%u: got %d, "
          "oracle %d", what, ftz ? " (FTZ/DAZ)" : "", dname (d),
          get (d, src, i), mbits, zp, rounding, chunk, (int8_t) out[i],
          (int8_t) exp[i]);
  return bad;
}

/* ---- 4: every FP16 encoding --------------------------------------------- */

static uint8_t f16_src[65536 * 2], f16_exp[65536], f16_out[65536];

static void
test_fp16_all (int ftz)
{
  static const int32_t zps[5] = { -128, -1, 0, 1, 127 };
  uint64_t cases = 0, bad = 0;
  uint32_t mi, i;
  int zi, r;

  for (i = 0; i < 65536; i++)
    put (SIMA_DTYPE_FLOAT16, f16_src, i, i);
  for (mi = 0; mi < N_MULTS; mi++)
    for (zi = 0; zi < 5; zi++)
      for (r = 0; r < 4; r++) {
        /* under FTZ/DAZ a subset: every multiplier, rotating zp/rounding */
        if (ftz && (zi + r + (int) mi) % 5 != 0)
          continue;
        expect_all (SIMA_DTYPE_FLOAT16, f16_src, 65536, mults[mi], zps[zi],
            r, f16_exp);
        bad += run_chunks (SIMA_DTYPE_FLOAT16, f16_src, 65536, 64, mults[mi],
            zps[zi], r, f16_exp, f16_out, ftz, "4 fp16");
        bad += run_chunks (SIMA_DTYPE_FLOAT16, f16_src, 65536, 37, mults[mi],
            zps[zi], r, f16_exp, f16_out, ftz, "4 fp16");
        cases += 2 * 65536;
      }
  tap_ok (bad == 0, "%s every FP16 encoding, blocks of 64 and 37, %u "
      "multipliers, zp {-128,-1,0,1,127}, 4 roundings%s: %llu cases, %llu "
      "mismatches", ftz ? "7" : "4", (unsigned) N_MULTS,
      ftz ? " under FTZ/DAZ (subset)" : "", (unsigned long long) cases,
      (unsigned long long) bad);
}

/* ---- 5/6: FP32, BF16, UINT8 ---------------------------------------------- */

#define POOL 4096

static void
test_wide (SimaDType d, int ftz)
{
  static uint8_t src[POOL * 4], exp[POOL], out[POOL];
  static const int32_t zps[5] = { -128, -1, 0, 1, 127 };
  uint64_t cases = 0, bad = 0;
  uint32_t mi, i, count = d == SIMA_DTYPE_UINT8 ? 256 : POOL;
  int r;

  for (mi = 0; mi < N_MULTS; mi++) {
    uint32_t e = mults[mi] >> 23 & 0xffu;
    uint32_t imin = e == 0 ? 0 : e < 127 ? 128u - e : 1u;

    if (d == SIMA_DTYPE_UINT8) {
      for (i = 0; i < 256; i++)
        put (d, src, i, i);
    } else {
      for (i = 0; i < count; i++) {
        uint32_t v, k = rnd32 () % 8u;
        if (k < 3) {
          v = special_value (SIMA_DTYPE_FLOAT32, mults[mi]);
        } else if (k < 5 && imin > 0) {
          /* input exponent field exactly I_min or I_min - 1 */
          uint32_t f = imin - (rnd32 () & 1u);
          v = (rnd32 () & 0x80000000u) | f << 23 | (rnd32 () & 0x7fffffu);
        } else if (k == 5) {
          v = rnd32 ();
        } else {
          v = safe_value (SIMA_DTYPE_FLOAT32);
        }
        if (d == SIMA_DTYPE_BFLOAT16)
          v = (rnd32 () & 1) ? v >> 16 : (v + 0x8000u) >> 16;
        put (d, src, i, v);
      }
    }
    for (r = 0; r < 4; r++) {
      int32_t zp = zps[(mi + (uint32_t) r) % 5];
      expect_all (d, src, count, mults[mi], zp, r, exp);
      bad += run_chunks (d, src, count, 64, mults[mi], zp, r, exp, out, ftz,
          "5");
      bad += run_chunks (d, src, count, 37, mults[mi], zp, r, exp, out, ftz,
          "5");
      bad += run_chunks (d, src, count, 48, mults[mi], zp, r, exp, out, ftz,
          "5");
      cases += 3 * count;
    }
  }
  tap_ok (bad == 0, "%s %s %s, %u multipliers, 4 roundings, blocks of 64/37/"
      "48%s: %llu cases, %llu mismatches", ftz ? "7" : "5", dname (d),
      d == SIMA_DTYPE_UINT8 ? "all 256 values"
      : "random + specials + I_min/I_min-1 fields + .5 and underflow edges",
      (unsigned) N_MULTS, ftz ? " under FTZ/DAZ" : "",
      (unsigned long long) cases, (unsigned long long) bad);
}

/* ---- 6: multiplier underflow boundaries ---------------------------------- */

static void
test_underflow_boundary (int ftz)
{
  static uint8_t src[POOL * 4], exp[POOL], out[POOL];
  static const uint32_t ms[] = {
    0x007ffffeu, 0x007fffffu, 0x00800000u, 0x00800001u, 0x00800002u,
    0x00c00000u, 0x00ffffffu, 0x01000000u, 0x3f000000u, 0x3f3504f3u,
  };
  uint64_t cases = 0, bad = 0;
  uint32_t mi, i, di;

  for (di = 0; di < 3; di++) {
    SimaDType d = dtypes[di];
    for (mi = 0; mi < sizeof ms / sizeof ms[0]; mi++) {
      double m = (double) f_of (ms[mi]);
      int r = (int) (mi & 3);
      for (i = 0; i < POOL; i++) {
        /* inputs whose exact product is within a few ulps of 2^-126 (the
         * subnormal boundary), of 2^-127 and of 2^-149/2^-150 */
        static const double tgt[4] = { 0x1p-126, 0x1p-127, 0x1p-149,
          0x1p-150 };
        double t = tgt[rnd32 () % 4u] * (1.0 + (double) (rnd32 () % 3u)
            * 0.25);
        uint32_t v = bits_of ((float) (t / m));
        v += (rnd32 () % 9u) - 4u;
        if (rnd32 () & 1)
          v ^= 0x80000000u;
        if (rnd32 () % 4u == 0)
          v = safe_value (SIMA_DTYPE_FLOAT32);
        if (d == SIMA_DTYPE_BFLOAT16)
          v = (v >> 16) + (rnd32 () % 3u) - 1u;
        else if (d == SIMA_DTYPE_FLOAT16)
          v = (rnd32 () & 0x8000u) | (rnd32 () % 0x7c00u);
        put (d, src, i, v);
      }
      expect_all (d, src, POOL, ms[mi], 0, r, exp);
      bad += run_chunks (d, src, POOL, 64, ms[mi], 0, r, exp, out, ftz, "6");
      bad += run_chunks (d, src, POOL, 33, ms[mi], 0, r, exp, out, ftz, "6");
      cases += 2 * POOL;
    }
  }
  tap_ok (bad == 0, "%s multipliers around 2^-126, products on the "
      "binary32 subnormal boundary (fp32/fp16/bf16)%s: %llu cases, %llu "
      "mismatches", ftz ? "7" : "6", ftz ? " under FTZ/DAZ" : "",
      (unsigned long long) cases, (unsigned long long) bad);
}

int
main (void)
{
  int ftz;

  test_admission ();
  test_guards ();
  test_in_place ();
  for (ftz = 0; ftz <= 1; ftz++) {
    if (ftz && !ftz_available ()) {
      tap_diag ("7 FTZ/DAZ: no SSE MXCSR or AArch64 FPCR on this "
          "target; skipped");
      break;
    }
    test_fp16_all (ftz);
    test_wide (SIMA_DTYPE_FLOAT32, ftz);
    test_wide (SIMA_DTYPE_BFLOAT16, ftz);
    test_wide (SIMA_DTYPE_UINT8, ftz);
    test_underflow_boundary (ftz);
  }
  return tap_done ();
}
