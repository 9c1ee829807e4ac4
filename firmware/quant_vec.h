/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * quant_vec.h - QuantTess arithmetic of the EV74 firmware on staged blocks,
 * in sixteen-lane vectors (vec16.h), as the native QuantTess spec lays it
 * out (../shared/seeds/000, "Fused DMA and local arithmetic"):
 *
 * - Everything that depends on the dtype, the rounding mode and whether the
 *   multiplier is normal is decided once per block (simafw_quant_block_init),
 *   never per element.
 * - A subnormal multiplier selects exact block arithmetic (the core's
 *   integer stages, numerics/quant_exact.h) for every value.
 * - Otherwise the paired normal leaf converts two sixteen-lane vectors per
 *   iteration in hardware arithmetic (binary32 multiply, NaN -> 0, clamp to
 *   [-256, 256], the selected rounding into INT32 lanes, zero point, INT8
 *   saturation). One reduction per pair admits it:
 *   - FP32/BF16/UINT8: the input test. With I_min = max(1, 128 - E) for the
 *     multiplier's exponent field E, a lane is safe when its magnitude bits
 *     are zero or at least I_min << 23 (its product cannot underflow):
 *     (magnitude - 1) < ((I_min << 23) - 1) marks a risky lane, and the
 *     unsigned minimum of the two vectors' (magnitude - 1) tests both with
 *     one comparison. Nothing is multiplied before admission.
 *   - FP16: the product test. Every FP16 is normal in binary32; after both
 *     products, a lane is risky when its input is nonzero and its product's
 *     exponent field is zero.
 *   A pair with a risky lane is deferred: the leaf returns its first element
 *   without writing either half. A final complete vector takes the single-
 *   vector normal path; fewer than sixteen values are the scalar tail.
 * - The mixed helper takes over from a deferred pair to the block's end:
 *   vector by vector, a safe vector in hardware, a risky one lane by lane in
 *   exact arithmetic, and the scalar tail exactly.
 *
 * Output is one INT8 per value, written to dst. dst may be src itself (the
 * staged input compressed in place): a pair's two vectors are loaded before
 * either result is stored, so no unread value is overwritten. Otherwise the
 * two must not overlap.
 */
#ifndef SIMA_FIRMWARE_QUANT_VEC_H
#define SIMA_FIRMWARE_QUANT_VEC_H

#include <stdint.h>

#include <simaai/kernels/ops/quanttess.h>

typedef struct {
  SimaDType dtype;              /* FLOAT32, FLOAT16, BFLOAT16 or UINT8 */
  uint32_t scalar_bytes;
  SimaQuantNumerics numerics;
  int exact_only;               /* subnormal multiplier */
  uint32_t risky_below;         /* (I_min << 23) - 1 */
  float multiplier;
  int leaf;                     /* the paired normal leaf of this dtype
                                 * and rounding (simafw_quant_paired) */
} SimaFwQuantBlock;

/* Prepares the block conversion of `dtype` values under `numerics` (from
 * sima_quanttess_numerics). dtype must be one of the four above. */
void simafw_quant_block_init (SimaFwQuantBlock *b, SimaDType dtype,
    const SimaQuantNumerics *numerics);

/* The paired normal leaf of the block's dtype and rounding alone (not for
 * exact_only blocks): converts pairs of vectors from element 0 and returns
 * the first element it did not write (a deferred pair's start, or where
 * fewer than 32 values remain once the final single vector, if any, is
 * done). */
uint32_t simafw_quant_paired (const SimaFwQuantBlock *b, const uint8_t *src,
    uint8_t *dst, uint32_t n);

/* The mixed helper: values [from, n) (from a deferred pair or the tail). */
void simafw_quant_mixed (const SimaFwQuantBlock *b, const uint8_t *src,
    uint8_t *dst, uint32_t from, uint32_t n);

/* The whole block: n values at src -> n INT8 at dst. */
void simafw_quant_block (const SimaFwQuantBlock *b, const uint8_t *src,
    uint8_t *dst, uint32_t n);

#endif /* SIMA_FIRMWARE_QUANT_VEC_H */
