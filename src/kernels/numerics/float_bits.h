/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * float_bits.h - exact decoding of FP32, FP16 and BF16 bit patterns (and
 * of UINT8 integers).
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

/* UINT8 is an exact unsigned integer 0..255 (never NaN or infinite): the
 * value x * 2^0. QuantTess and CastTess take it from here on exactly as
 * they take a decoded float, so the rest of their rules is shared. */
static inline SimaExactValue
sima_decode_u8 (uint8_t x)
{
  SimaExactValue v;

  v.kind = SIMA_VALUE_FINITE;
  v.negative = 0;
  v.significand = x;
  v.exponent = 0;
  return v;
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

/* An IEEE binary format: significand bits (with the hidden bit), the
 * subnormal quantum's exponent, the largest exponent and the exponent
 * field's width. */
typedef struct {
  int significand_bits;
  int min_quantum;
  int max_exponent;
  int exponent_bits;
} SimaFloatFormat;

static const SimaFloatFormat SIMA_BINARY32 = { 24, -149, 127, 8 };
static const SimaFloatFormat SIMA_BINARY16 = { 11, -24, 15, 5 };
static const SimaFloatFormat SIMA_BFLOAT16_FORMAT = { 8, -133, 127, 8 };

/* The nearest-even rounding of the exact value (-1)^negative * mag * 2^exp
 * (mag < 2^63) to format f: normal, subnormal, signed zero, or infinity on
 * overflow. Returns the bit pattern. */
static inline uint32_t
sima_float_round (const SimaFloatFormat *f, uint32_t negative, uint64_t mag,
    int32_t exp)
{
  const int hidden = f->significand_bits - 1;
  const uint32_t sign = negative << (f->exponent_bits + hidden);
  const uint32_t inf = sign | ((1u << f->exponent_bits) - 1u) << hidden;
  int32_t lead, quantum;
  uint64_t r;

  if (mag == 0)
    return sign;
  lead = sima_bit_length64 (mag) - 1 + exp;   /* exponent of the top bit */
  if (lead > f->max_exponent)
    return inf;
  /* significand_bits significant bits, never below the subnormal quantum */
  quantum = lead - hidden < f->min_quantum ? f->min_quantum : lead - hidden;
  r = exp >= quantum ? mag << (exp - quantum)
      : sima_shift_right_nearest_even (mag, quantum - exp);
  if (r == (UINT64_C (1) << f->significand_bits)) {  /* carried a binade */
    r >>= 1;
    quantum++;
  }
  if (quantum > f->max_exponent - hidden)
    return inf;
  if (r < (UINT64_C (1) << hidden))   /* subnormal (minimum quantum) or 0 */
    return sign | (uint32_t) r;
  return sign | (uint32_t) (quantum + f->max_exponent + hidden) << hidden
      | ((uint32_t) r & ((1u << hidden) - 1u));
}

/* The binary32 rounding: the one "round to binary32" step of every
 * operation: QuantTess products, all three DetessDequant stages
 * (dequant_exact.h), FP16 widening. */
static inline uint32_t
sima_binary32_round (uint32_t negative, uint64_t mag, int32_t exp)
{
  return sima_float_round (&SIMA_BINARY32, negative, mag, exp);
}

#endif /* SIMA_KERNELS_FLOAT_BITS_H */
