/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * oracle.h - the independent test oracle for QuantTess, CastTess,
 * DetessDequant and DetessCast.
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

#include <stddef.h>
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

/* QuantTess of one input scalar. bits holds the raw FP32 pattern, the raw
 * FP16/BF16 pattern in its low 16 bits, or (in_dtype SIMA_DTYPE_UINT8) the
 * unsigned byte in its low 8 bits (higher bits ignored): x is that exact
 * integer 0..255, and the rule is the FP32 one from the product on
 * (product = RNE_binary32(x * multiplier), then rounding, zero point,
 * saturation). rounding: 0 NearestEven, 1 TowardZero, 2 TowardPositive,
 * 3 TowardNegative. */
int8_t oracle_quant_bits (SimaDType in_dtype, uint32_t bits, float multiplier,
                          int32_t zero_point, int rounding);

/* CastTess scalar rules: FP32 -> BF16 (the Cast bit rule, NaNs included) and
 * FP16 -> BF16 (nearest even, explicit NaN quieting). */
uint16_t oracle_bf16_from_f32_bits (uint32_t bits);
uint16_t oracle_bf16_from_f16_bits (uint16_t bits);
/* UINT8 -> BF16: the BF16 of the integer 0..255 (always exact). */
uint16_t oracle_bf16_from_u8 (uint8_t v);

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
 * this is the LOW byte; the high byte sits stored_channels bytes later, or 16
 * bytes later when spec->tiled.cblock is set.
 *
 * MlaTiled with tiled.cblock != 0 (SiMa's cblock flag, pad16 channels only):
 * inside a tile of P pixels (p in D,H,W order) with S stored channels, the
 * INT8 element (p, c) is at tile_offset + (c/16)*P*16 + p*16 + c%16; a BF16
 * low byte at tile_offset + (c/16)*P*32 + p*32 + c%16, its high byte 16
 * bytes later. Sizes and tile offsets are those of the flag-less layout. */
int64_t oracle_element_offset (const SimaTensorSpec *spec,
                               const int64_t *coords);

/* Whole-tensor references. out_data must hold oracle_required_bytes(out).
 * QuantTess and CastTess inputs may be FP32, FP16, BF16 or UINT8 (a UINT8
 * view is 1-byte scalars: contiguous, or strided with any byte strides, e.g.
 * interleaved pixels with a pixel stride of 3 or 4 and padded rows).
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

/* DetessCast (docs/detesscast.md): BF16 MlaTiled input (byte planes,
 * compact or pad16, cblock) to FP32 or BF16 output of the same logical
 * shape, contiguous or strided. Each element's two bytes are picked out of
 * the tiles by the oracle's own placement (low byte at
 * oracle_element_offset, high byte stored_channels or, with cblock, 16
 * bytes later) and the output is assembled byte by byte: FP32 output bytes
 * 00 00 lo hi (the BF16 bits << 16, NaN payloads kept), BF16 output bytes
 * lo hi. Only logical elements are read and written (input padding and
 * gaps ignored, output holes untouched). */
void oracle_detesscast (const SimaTensorSpec *in, const void *in_data,
                        const SimaTensorSpec *out, uint8_t *out_data);

/* ---- tensor sets (oracle_sets.c) -------------------------------------- */

/* A set is n members (at most ORACLE_SET_MAX), member i being specs[i] at
 * byte offsets[i] of one buffer. Member i of the input set converts to member
 * i of the output set with member i's parameters, exactly as the single-tensor
 * functions above do. Only the output members' bytes are written (QuantTess /
 * CastTess: every byte of each member's oracle_required_bytes span;
 * DetessDequant: the members' logical elements); bytes between and around
 * members are left untouched. Output members are assumed not to overlap.
 * roundings and divides may be NULL (all nearest-even / all multiply). */
enum { ORACLE_SET_MAX = 16 };

void oracle_quanttess_set (int n, const SimaTensorSpec *in_specs,
                           const uint64_t *in_offsets, const uint8_t *in_buf,
                           const SimaTensorSpec *out_specs,
                           const uint64_t *out_offsets, uint8_t *out_buf,
                           const float *multipliers,
                           const int32_t *zero_points, const int *roundings);
void oracle_casttess_set (int n, const SimaTensorSpec *in_specs,
                          const uint64_t *in_offsets, const uint8_t *in_buf,
                          const SimaTensorSpec *out_specs,
                          const uint64_t *out_offsets, uint8_t *out_buf);
/* divides[i] != 0: member i uses the divide convention (scales[i] is then
 * SiMa's dq_scale, see oracle_dequant_div_f32_bits). */
void oracle_detessdequant_set (int n, const SimaTensorSpec *in_specs,
                               const uint64_t *in_offsets,
                               const uint8_t *in_buf,
                               const SimaTensorSpec *out_specs,
                               const uint64_t *out_offsets, uint8_t *out_buf,
                               const float *scales, const int32_t *zero_points,
                               const int *divides);

void oracle_detesscast_set (int n, const SimaTensorSpec *in_specs,
                            const uint64_t *in_offsets, const uint8_t *in_buf,
                            const SimaTensorSpec *out_specs,
                            const uint64_t *out_offsets, uint8_t *out_buf);

/* Guard bytes: the expected value of byte i of a buffer is
 * pattern[i % pattern_len] (pattern_len >= 1; one byte for a constant). */
void oracle_guard_fill (uint8_t *buf, uint64_t buf_bytes,
                        const uint8_t *pattern, size_t pattern_len);
/* Checks every byte of buf[0..buf_bytes) outside the n members' occupied
 * ranges [offsets[i], offsets[i] + oracle_required_bytes(&specs[i])) against
 * the guard pattern. Returns -1 when all match, else the offset of the first
 * byte that differs. Bytes inside a member (including a strided member's
 * holes) are not looked at. */
int64_t oracle_guard_check (const uint8_t *buf, uint64_t buf_bytes, int n,
                            const SimaTensorSpec *specs,
                            const uint64_t *offsets, const uint8_t *pattern,
                            size_t pattern_len);

#ifdef __cplusplus
}
#endif

#endif /* SIMA_TESTS_ORACLE_H */
