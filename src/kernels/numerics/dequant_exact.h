/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dequant_exact.h - the DetessDequant stages in exact integer arithmetic:
 *
 *   z = round_to_nearest_even_FP32(zero_point)
 *   d = round_to_nearest_even_FP32(FP32(q) - z)
 *   r = round_to_nearest_even_FP32(d * scale)
 *   FP32 output = r,  BF16 output = round_to_nearest_even_BF16(r)
 *
 * z and d are integers (|value| <= 2^31 + 128), so each is rounded to 24
 * significant bits as an integer; d * scale is an exact integer product
 * rounded once by sima_binary32_round(). Valid parameters never give NaN.
 * Header-only: backends build a 256-entry table from it at preparation.
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

/* FP32 bits of the dequantized q for an admitted scale (finite, > 0). */
static inline uint32_t
sima_dequant_f32_bits (int8_t q, uint32_t scale_bits, int32_t zero_point)
{
  SimaExactValue scale = sima_decode_f32 (scale_bits);
  int64_t z = sima_round_int_to_binary32 (zero_point);
  int64_t d = sima_round_int_to_binary32 ((int64_t) q - z);
  uint64_t mag = d < 0 ? -(uint64_t) d : (uint64_t) d;

  /* d has at most 24 significant bits below 2^33, scale fewer than 2^24:
   * the product is exact in 64 bits. q - z == 0 gives +0 (as x - x does). */
  return sima_binary32_round (d < 0, mag * scale.significand, scale.exponent);
}

static inline uint16_t
sima_dequant_bf16_bits (int8_t q, uint32_t scale_bits, int32_t zero_point)
{
  return sima_bf16_from_f32_bits (sima_dequant_f32_bits (q, scale_bits,
          zero_point));
}

#endif /* SIMA_KERNELS_DEQUANT_EXACT_H */
