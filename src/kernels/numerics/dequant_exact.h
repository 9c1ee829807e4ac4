/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dequant_exact.h - the DetessDequant stages in exact integer arithmetic:
 *
 *   z = round_to_nearest_even_FP32(zero_point)
 *   d = round_to_nearest_even_FP32(FP32(q) - z)
 *   r = round_to_nearest_even_FP32(d * scale)      (multiply convention)
 *   r = round_to_nearest_even_FP32(d / scale)      (divide convention)
 *   FP32 output = r,  BF16 output = round_to_nearest_even_BF16(r)
 *
 * z and d are integers (|value| <= 2^31 + 128), so each is rounded to 24
 * significant bits as an integer; d * scale is an exact integer product
 * rounded once by sima_binary32_round(); d / scale is an integer quotient
 * with two or more bits below the rounding point and a sticky bit, rounded
 * once by the same function. Valid parameters never give NaN.
 * Header-only: the A65 plan, the EV74 host codec and the firmware build
 * their 256-entry tables from it (the one copy of these stages).
 */
#ifndef SIMA_KERNELS_DEQUANT_EXACT_H
#define SIMA_KERNELS_DEQUANT_EXACT_H

#include <stdint.h>

#include "bf16_convert.h"
#include "float_bits.h"

/* RNE_f32 of an integer with |v| < 2^40, as an integer: the binary32
 * rounding, read back exactly (the result is an integer too). */
static inline int64_t
sima_round_int_to_binary32 (int64_t v)
{
  uint64_t mag = v < 0 ? -(uint64_t) v : (uint64_t) v;
  SimaExactValue r = sima_decode_f32 (sima_binary32_round (v < 0, mag, 0));
  uint64_t sig = r.significand;

  /* zero decodes with exponent -149: no shift for it */
  mag = sig == 0 ? 0 : r.exponent >= 0 ? sig << r.exponent
      : sig >> -r.exponent;
  return v < 0 ? -(int64_t) mag : (int64_t) mag;
}

/* RNE_f32(mag / (sig * 2^exp)) with the sign given, for 0 < mag < 2^34 and
 * 0 < sig < 2^24: IEEE division correctly rounded, in integers.
 *
 * The numerator is shifted left by k so that the integer quotient has at
 * least 26 significant bits: then the binary32 rounding point (24 bits for
 * a normal result, fewer for a subnormal one) lies at least 2 bits above
 * the quotient's last bit, and OR-ing a nonzero remainder into that last
 * bit (sticky) turns "exactly half" into "above half" without moving any
 * other case across the midpoint. The shifted numerator has bit_length(sig)
 * + 26 <= 50 bits, so the whole computation stays in 64 bits; k is never
 * negative (dropping exact low bits of mag would need a sticky of its
 * own), and for a long mag the quotient simply has more than 26 bits. */
static inline uint32_t
sima_binary32_divide (uint32_t negative, uint64_t mag, uint32_t sig,
    int32_t exp)
{
  int k = 26 + sima_bit_length64 (sig) - sima_bit_length64 (mag);
  uint64_t num, quot;

  if (k < 0)
    k = 0;
  num = mag << k;
  quot = num / sig;
  quot |= (num % sig) != 0;
  /* mag / (sig 2^exp) = (num / sig) 2^(-k - exp); overflow to infinity and
   * subnormal or zero results are sima_float_round's */
  return sima_binary32_round (negative, quot, -k - exp);
}

/* FP32 bits of the dequantized q for an admitted scale (finite, > 0);
 * divide selects the divide convention (r = d / scale). */
static inline uint32_t
sima_dequant_f32_bits (int8_t q, uint32_t scale_bits, int32_t zero_point,
    int divide)
{
  SimaExactValue scale = sima_decode_f32 (scale_bits);
  int64_t z = sima_round_int_to_binary32 (zero_point);
  int64_t d = sima_round_int_to_binary32 ((int64_t) q - z);
  uint64_t mag = d < 0 ? -(uint64_t) d : (uint64_t) d;

  /* q - z == 0 gives +0 in both conventions (as x - x, then +0 * s and
   * +0 / s, do in IEEE arithmetic). */
  if (mag == 0)
    return 0;
  if (divide)
    return sima_binary32_divide (d < 0, mag, scale.significand,
        scale.exponent);
  /* d has at most 24 significant bits below 2^33, scale fewer than 2^24:
   * the product is exact in 64 bits. */
  return sima_binary32_round (d < 0, mag * scale.significand, scale.exponent);
}

static inline uint16_t
sima_dequant_bf16_bits (int8_t q, uint32_t scale_bits, int32_t zero_point,
    int divide)
{
  return sima_bf16_from_f32_bits (sima_dequant_f32_bits (q, scale_bits,
          zero_point, divide));
}

#endif /* SIMA_KERNELS_DEQUANT_EXACT_H */
