/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * source_value.h - the input types the pack leaves read (three float
 * formats and UINT8), and one value of each read exactly (QuantTess) or as
 * BF16 bits (CastTess): the whole arithmetic of the scalar leaves and the
 * tails of the SIMD ones.
 */
#ifndef SIMA_KERNELS_A65_SOURCE_VALUE_H
#define SIMA_KERNELS_A65_SOURCE_VALUE_H

#include "../numerics/bf16_convert.h"
#include "../numerics/quant_exact.h"
#include "load.h"

/* Values index the scalar fall-back tables of simd_leaf.h. */
typedef enum { SRC_F32, SRC_F16, SRC_BF16, SRC_U8 } SrcType;

/* Bytes of one input scalar: the leaves' channel stride when channels are
 * contiguous. */
static inline int64_t
sima_src_size (SrcType type)
{
  return type == SRC_F32 ? 4 : type == SRC_U8 ? 1 : 2;
}

/* The value at p, exactly. */
static inline SimaExactValue
sima_source_exact (const uint8_t *p, SrcType type)
{
  switch (type) {
    case SRC_F32:
      return sima_decode_f32 (sima_load_u32 (p));
    case SRC_F16:
      return sima_decode_f16 (sima_load_u16 (p));
    case SRC_U8:
      return sima_decode_u8 (*p);
    default:
      return sima_decode_bf16 (sima_load_u16 (p));
  }
}

/* The value at p as BF16 bits, by the spec's rule for its type. */
static inline uint16_t
sima_source_bf16 (const uint8_t *p, SrcType type)
{
  switch (type) {
    case SRC_F32:
      return sima_bf16_from_f32_bits (sima_load_u32 (p));
    case SRC_F16:
      return sima_bf16_from_f16_bits (sima_load_u16 (p));
    case SRC_U8:
      return sima_bf16_from_u8 (*p);
    default:
      return sima_load_u16 (p);
  }
}

#endif /* SIMA_KERNELS_A65_SOURCE_VALUE_H */
