/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * quant_exact.h - the QuantTess equation in exact integer arithmetic.
 *
 *   product = round_to_nearest_even_binary32(exact(x) * multiplier)
 *   result  = saturate_int8(round_selected(product) + zero_point)
 *
 * The product of two decoded significands (< 2^24 each) is an exact 48-bit
 * integer; it is rounded once to binary32 (normal or subnormal, or overflow
 * to infinity), then once to an integer in the selected mode. Header-only:
 * this is the one copy of the QuantTess numerics, shared by every backend.
 */
#ifndef SIMA_KERNELS_QUANT_EXACT_H
#define SIMA_KERNELS_QUANT_EXACT_H

#include <simaai/kernels/ops/quanttess.h>

#include "float_bits.h"

/* Magnitudes at or beyond this saturate for every admitted zero point. */
#define SIMA_QUANT_SATURATED 1024

/* round_selected(RNE_binary32(±P * 2^E)) clamped to ±SIMA_QUANT_SATURATED. */
static inline int32_t
sima_quant_round_product (uint32_t negative, uint64_t p, int32_t e,
    SimaRounding rounding)
{
  int32_t lead, quantum;
  uint64_t r, whole, rem;
  int up;

  if (p == 0)
    return 0;
  lead = sima_bit_length64 (p) - 1 + e;   /* exponent of the leading bit */
  if (lead >= 128)
    return negative ? -SIMA_QUANT_SATURATED : SIMA_QUANT_SATURATED;

  /* Binary32 keeps 24 significant bits down to the subnormal quantum 2^-149. */
  quantum = lead - 23 < -149 ? -149 : lead - 23;
  r = e >= quantum ? p << (e - quantum)
      : sima_shift_right_nearest_even (p, quantum - e);
  if (r == (UINT64_C (1) << 24)) {  /* rounding carried into a new binade */
    r >>= 1;
    quantum++;
  }
  /* The product is now r * 2^quantum with r < 2^24. A nonnegative quantum
   * means a normal value of at least 2^23, and quantum 105 an overflow to
   * infinity: both saturate. */
  if (quantum >= 0)
    return r == 0 ? 0 : (negative ? -SIMA_QUANT_SATURATED
        : SIMA_QUANT_SATURATED);

  if (-quantum >= 40) {         /* 0 < |product| < 2^-16: only the mode acts */
    whole = 0;
    rem = r;
    up = rounding == SIMA_ROUNDING_NEAREST_EVEN ? 0 : -1;
  } else {
    uint64_t half = UINT64_C (1) << (-quantum - 1);
    whole = r >> -quantum;
    rem = r & ((half << 1) - 1);
    up = rounding == SIMA_ROUNDING_NEAREST_EVEN
        ? (rem > half || (rem == half && (whole & 1))) : -1;
  }
  if (up < 0) {                 /* directed modes: act on any remainder */
    up = rem != 0 && ((rounding == SIMA_ROUNDING_TOWARD_POSITIVE && !negative)
        || (rounding == SIMA_ROUNDING_TOWARD_NEGATIVE && negative));
  }
  whole += (uint64_t) up;
  if (whole > SIMA_QUANT_SATURATED)
    whole = SIMA_QUANT_SATURATED;
  return negative ? -(int32_t) whole : (int32_t) whole;
}

static inline int8_t
sima_quant_saturate (int32_t v)
{
  return (int8_t) (v < -128 ? -128 : v > 127 ? 127 : v);
}

static inline int8_t
sima_quant_exact (SimaExactValue x, const SimaQuantNumerics *q)
{
  if (x.kind == SIMA_VALUE_NAN)
    return (int8_t) q->zero_point;
  if (x.kind == SIMA_VALUE_INFINITE)
    return x.negative ? -128 : 127;
  return sima_quant_saturate (sima_quant_round_product (x.negative,
          (uint64_t) x.significand * q->multiplier_significand,
          x.exponent + q->multiplier_exponent, q->rounding) + q->zero_point);
}

#endif /* SIMA_KERNELS_QUANT_EXACT_H */
