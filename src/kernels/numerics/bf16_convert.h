/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bf16_convert.h - the CastTess conversions to BF16, in integer arithmetic
 * (header-only; one copy for every backend). No floating-point instruction
 * is used, so the caller's FP environment cannot change a result.
 */
#ifndef SIMA_KERNELS_BF16_CONVERT_H
#define SIMA_KERNELS_BF16_CONVERT_H

#include <stdint.h>

#include "float_bits.h"

/* FP32 -> BF16 by the Cast bit rule, in uint32 arithmetic: nearest even for
 * every non-NaN value (overflow to infinity included), and for NaNs exactly
 * what the expression does: some payloads become infinity, and patterns
 * near 0xffffffff wrap around to small numbers. That is the contract. */
static inline uint16_t
sima_bf16_from_f32_bits (uint32_t bits)
{
  return (uint16_t) ((uint32_t) (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

/* FP32 bits of a decoded finite or infinite value that FP32 holds exactly
 * (an FP16, BF16 or UINT8 input); not for NaNs, whose policy is per operation. */
static inline uint32_t
sima_f32_bits_from_exact (SimaExactValue v)
{
  if (v.kind == SIMA_VALUE_INFINITE)
    return v.negative << 31 | 0x7f800000u;
  return sima_binary32_round (v.negative, v.significand, v.exponent);
}

/* FP16 -> BF16: exact widening, then nearest even; signed zero and infinity
 * kept. A NaN becomes the quiet NaN with the same sign and the top 7 payload
 * bits: sign | 0x7fc0 | frac10 >> 3. */
static inline uint16_t
sima_bf16_from_f16_bits (uint16_t half)
{
  SimaExactValue v = sima_decode_f16 (half);

  if (v.kind == SIMA_VALUE_NAN)
    return (uint16_t) (v.negative << 15 | 0x7fc0u | (half & 0x3ffu) >> 3);
  return sima_bf16_from_f32_bits (sima_f32_bits_from_exact (v));
}

/* UINT8 -> BF16: the integer's binary32 bits, then the FP32 rule. Every
 * integer 0..255 has at most 8 significant bits, which BF16 holds, so the
 * rounding never acts: the result is the BF16 of the integer, exactly. */
static inline uint16_t
sima_bf16_from_u8 (uint8_t x)
{
  return sima_bf16_from_f32_bits (sima_f32_bits_from_exact (sima_decode_u8
          (x)));
}

#endif /* SIMA_KERNELS_BF16_CONVERT_H */
