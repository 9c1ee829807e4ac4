/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * quant_exact.h - the QuantTess equation in exact integer arithmetic.
 *
 *   product = round_to_nearest_even_binary32(exact(x) * multiplier)
 *   result  = saturate_int8(round_selected(product) + zero_point)
 *
 * The product of two decoded significands (< 2^24 each) is an exact 48-bit
 * integer; sima_binary32_round() rounds it once to binary32, and
 * sima_quant_round_binary32() rounds that binary32 value once to an integer
 * in the selected mode. Header-only: this is the one copy of the QuantTess
 * numerics, shared by every backend.
 */
#ifndef SIMA_KERNELS_QUANT_EXACT_H
#define SIMA_KERNELS_QUANT_EXACT_H

#include <simaai/kernels/ops/quanttess.h>

#include "float_bits.h"

/* Magnitudes at or beyond this saturate for every admitted zero point. */
#define SIMA_QUANT_SATURATED 1024

/* round_selected() of a non-NaN binary32 value, clamped to
 * +-SIMA_QUANT_SATURATED so that adding a zero point cannot overflow. */
static inline int32_t
sima_quant_round_binary32 (uint32_t bits, SimaRounding rounding)
{
  SimaExactValue v = sima_decode_f32 (bits);
  uint64_t sig = v.significand, whole, rem;
  int up;

  if (v.significand == 0)
    return 0;                   /* +-0: every mode gives 0 */
  if (v.kind != SIMA_VALUE_FINITE || v.exponent >= 0)
    /* infinity, or a normal value >= 2^23 */
    return v.negative ? -SIMA_QUANT_SATURATED : SIMA_QUANT_SATURATED;

  if (-v.exponent >= 40) {      /* 0 < |value| < 2^-16: only the mode acts */
    whole = 0;
    rem = sig;
    up = rounding == SIMA_ROUNDING_NEAREST_EVEN ? 0 : -1;
  } else {
    uint64_t half = UINT64_C (1) << (-v.exponent - 1);
    whole = sig >> -v.exponent;
    rem = sig & ((half << 1) - 1);
    up = rounding == SIMA_ROUNDING_NEAREST_EVEN
        ? (rem > half || (rem == half && (whole & 1))) : -1;
  }
  if (up < 0)                   /* directed modes act on any remainder */
    up = rem != 0 && ((rounding == SIMA_ROUNDING_TOWARD_POSITIVE && !v.negative)
        || (rounding == SIMA_ROUNDING_TOWARD_NEGATIVE && v.negative));
  whole += (uint64_t) up;
  if (whole > SIMA_QUANT_SATURATED)
    whole = SIMA_QUANT_SATURATED;
  return v.negative ? -(int32_t) whole : (int32_t) whole;
}

static inline int8_t
sima_quant_saturate (int32_t v)
{
  return (int8_t) (v < -128 ? -128 : v > 127 ? 127 : v);
}

static inline int8_t
sima_quant_exact (SimaExactValue x, const SimaQuantNumerics *q)
{
  uint32_t product;

  if (x.kind == SIMA_VALUE_NAN)
    return (int8_t) q->zero_point;
  if (x.kind == SIMA_VALUE_INFINITE)
    return x.negative ? -128 : 127;
  product = sima_binary32_round (x.negative,
      (uint64_t) x.significand * q->multiplier_significand,
      x.exponent + q->multiplier_exponent);
  return sima_quant_saturate (sima_quant_round_binary32 (product, q->rounding)
      + q->zero_point);
}

#endif /* SIMA_KERNELS_QUANT_EXACT_H */
