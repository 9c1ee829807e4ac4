/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * float_bits.h - exact decoding of FP32, FP16 and BF16 bit patterns.
 *
 * Header-only so the A65 leaves, the EV74 firmware and anything else that
 * needs the exact value of an input share one copy. A finite value is
 * (-1)^negative * significand * 2^exponent with an integer significand; no
 * floating-point arithmetic is involved, so the caller's FP environment
 * (rounding mode, flush-to-zero, denormals-are-zero) cannot change a result.
 */
#ifndef SIMA_KERNELS_FLOAT_BITS_H
#define SIMA_KERNELS_FLOAT_BITS_H

#include <stdint.h>

typedef enum {
  SIMA_VALUE_FINITE = 0,
  SIMA_VALUE_INFINITE = 1,
  SIMA_VALUE_NAN = 2,
} SimaValueKind;

typedef struct {
  SimaValueKind kind;
  uint32_t negative;      /* sign bit, also for zeros, infinities, NaNs */
  uint32_t significand;   /* < 2^24; 0 for zeros */
  int32_t exponent;       /* value = significand * 2^exponent */
} SimaExactValue;

static inline SimaExactValue
sima_decode_f32 (uint32_t bits)
{
  SimaExactValue v;
  uint32_t e = (bits >> 23) & 0xffu, f = bits & 0x7fffffu;

  v.negative = bits >> 31;
  v.kind = e != 0xffu ? SIMA_VALUE_FINITE
      : (f != 0 ? SIMA_VALUE_NAN : SIMA_VALUE_INFINITE);
  v.significand = e != 0 ? (f | 0x800000u) : f;
  v.exponent = e != 0 ? (int32_t) e - 150 : -149;
  return v;
}

static inline SimaExactValue
sima_decode_f16 (uint16_t bits)
{
  SimaExactValue v;
  uint32_t e = (bits >> 10) & 0x1fu, f = bits & 0x3ffu;

  v.negative = (uint32_t) bits >> 15;
  v.kind = e != 0x1fu ? SIMA_VALUE_FINITE
      : (f != 0 ? SIMA_VALUE_NAN : SIMA_VALUE_INFINITE);
  v.significand = e != 0 ? (f | 0x400u) : f;
  v.exponent = e != 0 ? (int32_t) e - 25 : -24;
  return v;
}

/* BF16 is the upper half of an FP32 pattern (it is not FP16). */
static inline SimaExactValue
sima_decode_bf16 (uint16_t bits)
{
  return sima_decode_f32 ((uint32_t) bits << 16);
}

/* Number of significant bits of a nonzero value. */
static inline int
sima_bit_length64 (uint64_t x)
{
  return 64 - __builtin_clzll (x);
}

/* x / 2^shift rounded to nearest, ties to even (shift >= 1). */
static inline uint64_t
sima_shift_right_nearest_even (uint64_t x, int shift)
{
  uint64_t q, rem, half;

  if (shift >= 64)
    return 0;  /* callers pass x < 2^63, below half of 2^64 */
  q = x >> shift;
  rem = x & ((UINT64_C (1) << shift) - 1);
  half = UINT64_C (1) << (shift - 1);
  return q + (rem > half || (rem == half && (q & 1)));
}

/* The binary32 nearest-even rounding of the exact value
 * (-1)^negative * mag * 2^exp (mag < 2^63): normal, subnormal, signed zero,
 * or infinity on overflow. Returns the FP32 bit pattern. This is the one
 * "round to binary32" step of every operation: QuantTess products, all
 * three DetessDequant stages (dequant_exact.h), FP16 widening. */
static inline uint32_t
sima_binary32_round (uint32_t negative, uint64_t mag, int32_t exp)
{
  const uint32_t sign = negative << 31, inf = sign | 0x7f800000u;
  int32_t lead, quantum;
  uint64_t r;

  if (mag == 0)
    return sign;
  lead = sima_bit_length64 (mag) - 1 + exp;   /* exponent of the top bit */
  if (lead >= 128)
    return inf;
  /* 24 significant bits, but never a quantum below the subnormal 2^-149 */
  quantum = lead - 23 < -149 ? -149 : lead - 23;
  r = exp >= quantum ? mag << (exp - quantum)
      : sima_shift_right_nearest_even (mag, quantum - exp);
  if (r == (UINT64_C (1) << 24)) {  /* rounding carried into a new binade */
    r >>= 1;
    quantum++;
  }
  if (quantum > 104)                /* 2^24 * 2^105 > FLT_MAX */
    return inf;
  if (r < (UINT64_C (1) << 23))     /* subnormal (quantum is -149) or zero */
    return sign | (uint32_t) r;
  return sign | (uint32_t) (quantum + 150) << 23 | ((uint32_t) r & 0x7fffffu);
}

#endif /* SIMA_KERNELS_FLOAT_BITS_H */
