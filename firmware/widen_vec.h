/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * widen_vec.h - binary32 bits in sixteen lanes: widened from staged input
 * scalars (FP32, FP16, BF16 or UINT8), the first stage of both pack
 * conversions (QuantTess, quant_vec.c, multiplies them; CastTess,
 * cast_vec.c, narrows them), and narrowed to BF16 by the Cast bit rule
 * (CastTess, and DetessDequant's BF16 output, dequant_vec.c). Written once
 * here so every block converts the same way.
 */
#ifndef SIMA_FIRMWARE_WIDEN_VEC_H
#define SIMA_FIRMWARE_WIDEN_VEC_H

#include <stdint.h>

#include <simaai/kernels/types.h>

#include "vec16.h"

/* Binary32 bits of the sixteen values from element i of src. Every FP16,
 * BF16 and UINT8 value is exact in binary32: FP16 normals re-biased, FP16
 * subnormals (m * 2^-24, a normal binary32) through an exact multiply,
 * infinities and NaNs with their payload widened. The only floating-point
 * operations (an integer conversion and a multiply by a power of two) are
 * exact with normal results, so no rounding mode or subnormal handling
 * can change a lane. dtype is a constant wherever this is inlined, so the
 * switch costs nothing in a loop. */
SIMA_V16_INLINE SimaV16u
simafw_v16_binary32_bits (const uint8_t *src, uint32_t i, SimaDType dtype)
{
  switch (dtype) {
    case SIMA_DTYPE_FLOAT32:
      return sima_v16_load_u32 (src + 4 * (uint64_t) i);
    case SIMA_DTYPE_BFLOAT16:
      return sima_v16_load_u16 (src + 2 * (uint64_t) i) << 16;
    case SIMA_DTYPE_FLOAT16:{
      SimaV16u h = sima_v16_load_u16 (src + 2 * (uint64_t) i);
      SimaV16u sign = (h & 0x8000u) << 16, mag = h & 0x7fffu;
      SimaV16u normal = (mag << 13) + (112u << 23);
      SimaV16u special = (mag << 13) | 0x7f800000u;
      SimaV16u tiny = sima_v16_as_u (sima_v16_cvt_f ((SimaV16i) mag)
          * sima_v16_splat_f (0x1p-24f));
      SimaV16u r = sima_v16_select_u (sima_v16_lt_u (mag,
              sima_v16_splat_u (0x7c00u)), normal, special);
      return sign | sima_v16_select_u (sima_v16_lt_u (mag,
              sima_v16_splat_u (0x0400u)), tiny, r);
    }
    default:
      return sima_v16_as_u (sima_v16_cvt_f ((SimaV16i)
              sima_v16_load_u8 (src + i)));
  }
}

/* BF16 bits (in the low halfword of each lane) of sixteen binary32 bit
 * patterns by the Cast bit rule: the lane form of numerics/bf16_convert.h's
 * sima_bf16_from_f32_bits, in the same uint32 arithmetic, so it agrees for
 * every pattern, NaNs included (a NaN's payload can carry into infinity,
 * and patterns near 0xffffffff wrap modulo 2^32 to small numbers, as the
 * contract says). Nearest even for every non-NaN value, overflow to
 * infinity included. */
SIMA_V16_INLINE SimaV16u
simafw_v16_bf16_of_bits (SimaV16u bits)
{
  return (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16;
}

#endif /* SIMA_FIRMWARE_WIDEN_VEC_H */
