/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cast_vec.h - CastTess arithmetic of the EV74 firmware on staged blocks,
 * in sixteen-lane vectors (vec16.h): FP32, FP16, BF16 or UINT8 scalars to
 * BF16 codes by the core's rules (numerics/bf16_convert.h):
 *
 * - FP32: the Cast bit rule on the input's bits (NaN patterns included).
 * - FP16: exact widening to binary32, then the Cast bit rule; a NaN becomes
 *   the quiet BF16 NaN with the same sign and the top 7 payload bits.
 * - BF16: unchanged (the rule on BF16 bits << 16 is the identity).
 * - UINT8: the exact integer's binary32, then the rule (which never rounds
 *   an 8-bit integer): the BF16 of the integer.
 *
 * The input dtype is decided once per job (simafw_cast_block_init); the
 * loop for each dtype is its own leaf, with no per-element branch. Every
 * lane operation is exact or integer, so neither the rounding mode nor the
 * device's subnormal handling (FTZ/DAZ) can change a code. The last n % 16
 * values go through the same lanes on a zero-padded copy: one expression
 * of the rules per dtype, here and in the core's scalar form only.
 *
 * Output: n BF16 codes, two little-endian bytes each, at dst. dst may be
 * src itself (the staged input converted in place); otherwise the two must
 * not overlap.
 */
#ifndef SIMA_FIRMWARE_CAST_VEC_H
#define SIMA_FIRMWARE_CAST_VEC_H

#include <stdint.h>

#include <simaai/kernels/types.h>

typedef struct {
  SimaDType dtype;              /* FLOAT32, FLOAT16, BFLOAT16 or UINT8 */
} SimaFwCastBlock;

/* Prepares the conversion of `dtype` scalars (one of the four above). */
void simafw_cast_block_init (SimaFwCastBlock *b, SimaDType dtype);

/* The whole block: n scalars at src -> n BF16 codes (2n bytes) at dst. */
void simafw_cast_block (const SimaFwCastBlock *b, const uint8_t *src,
    uint8_t *dst, uint32_t n);

#endif /* SIMA_FIRMWARE_CAST_VEC_H */
