/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * oracle.h - the independent test oracle for QuantTess, CastTess and
 * DetessDequant.
 *
 * This is the project's deliberate second copy of every numerical and layout
 * rule (DESIGN.md section 2, "one source of truth ... the tests' independent
 * oracle is the only deliberate second copy"). It is written from the specs
 * (shared/seeds/000..002) without looking at production code, and with
 * different methods on purpose:
 *
 *  - numerics: inputs are decoded to double by hand (ldexp), the binary32 x
 *    binary32 products and differences are formed exactly in double, and each
 *    stage is rounded ONCE by a quantum-based nearest-even rounder of our own
 *    (not by float hardware, not by bit tricks);
 *  - layout: every logical element is placed by a direct address formula;
 *    tile offsets come from counting the preceding tiles of each full/boundary
 *    class, never from walking the tiles in order.
 *
 * Specs handed to the oracle are assumed valid (admission is production's
 * job). Only libc and libm are used. Run it in the default FP environment.
 */
#ifndef SIMA_TESTS_ORACLE_H
#define SIMA_TESTS_ORACLE_H

#include <stdint.h>

#include <simaai/kernels/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rounding selector for oracle_quant_bits / oracle_quanttess. */
enum {
  ORACLE_ROUND_NEAREST_EVEN = 0,
  ORACLE_ROUND_TOWARD_ZERO = 1,
  ORACLE_ROUND_TOWARD_POSITIVE = 2,
  ORACLE_ROUND_TOWARD_NEGATIVE = 3,
};

/* ---- scalar numerics (oracle_numerics.c) ------------------------------ */

/* QuantTess of one input scalar. bits holds the raw FP32 pattern, or the raw
 * FP16/BF16 pattern in its low 16 bits. rounding: 0 NearestEven, 1 TowardZero,
 * 2 TowardPositive, 3 TowardNegative. */
int8_t oracle_quant_bits (SimaDType in_dtype, uint32_t bits, float multiplier,
                          int32_t zero_point, int rounding);

/* CastTess scalar rules: FP32 -> BF16 (the Cast bit rule, NaNs included) and
 * FP16 -> BF16 (nearest even, explicit NaN quieting). */
uint16_t oracle_bf16_from_f32_bits (uint32_t bits);
uint16_t oracle_bf16_from_f16_bits (uint16_t bits);

/* DetessDequant of one INT8 value: FP32 output bits and BF16 output bits. */
uint32_t oracle_dequant_f32_bits (int8_t q, float scale, int32_t zero_point);
uint16_t oracle_dequant_bf16_bits (int8_t q, float scale, int32_t zero_point);
/* The divide convention (value = (q - dq_zp) / dq_scale, the last stage
 * RNE_f32(d / dq_scale)): a double division rounded to float. */
uint32_t oracle_dequant_div_f32_bits (int8_t q, float dq_scale,
                                      int32_t zero_point);
uint16_t oracle_dequant_div_bf16_bits (int8_t q, float dq_scale,
                                       int32_t zero_point);

/* ---- layout (oracle_layout.c) ----------------------------------------- */

/* Bytes a buffer must hold for spec: contiguous count*scalar; strided
 * scalar + sum((n-1)*stride); MlaTiled the physical tiled size; MlaCBlocked
 * outer*CB*H*W*16. 0 for any empty tensor. */
uint64_t oracle_required_bytes (const SimaTensorSpec *spec);

/* Byte offset of the logical element at coords[0..rank-1]. For BF16 MlaTiled
 * this is the LOW byte; the high byte sits stored_channels bytes later. */
int64_t oracle_element_offset (const SimaTensorSpec *spec,
                               const int64_t *coords);

/* Whole-tensor references. out_data must hold oracle_required_bytes(out).
 * quanttess/casttess write every byte of it (values, channel padding,
 * alignment gaps); detessdequant writes only the logical elements. */
void oracle_quanttess (const SimaTensorSpec *in, const void *in_data,
                       const SimaTensorSpec *out, float multiplier,
                       int32_t zero_point, int rounding, uint8_t *out_data);
void oracle_casttess (const SimaTensorSpec *in, const void *in_data,
                      const SimaTensorSpec *out, uint8_t *out_data);
void oracle_detessdequant (const SimaTensorSpec *in, const void *in_data,
                           const SimaTensorSpec *out, float scale,
                           int32_t zero_point, uint8_t *out_data);
/* The same with the divide convention when divide != 0. */
void oracle_detessdequant_conv (const SimaTensorSpec *in, const void *in_data,
                                const SimaTensorSpec *out, float scale,
                                int32_t zero_point, int divide,
                                uint8_t *out_data);

#ifdef __cplusplus
}
#endif

#endif /* SIMA_TESTS_ORACLE_H */
