/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dequant_vec.h - DetessDequant arithmetic of the EV74 firmware on staged
 * blocks, in sixteen-lane vectors (vec16.h), as the native DetessDequant
 * spec lays it out (../shared/seeds/002, "Numerical behavior": "Normal-scale
 * EV execution converts signed INT8 lanes to exact FP32 values, subtracts
 * the rounded zero point and multiplies by scale. BF16 uses integer
 * nearest-even narrowing of the resulting FP32 bits ... For subnormal
 * scales, preparation builds an exact 256-entry table"):
 *
 * - Everything is decided once per job (simafw_dequant_block_init): the
 *   output dtype, the convention, z = RNE_f32(zero_point) (integer code,
 *   the core's numerics/float_bits.h), and whether the scale is admitted
 *   for hardware arithmetic. Never per element.
 * - Admitted: sixteen INT8 lanes widened to INT32, converted to binary32
 *   (exact, |q| <= 128), d = FP32(q) - z, r = d * scale (DIVIDE: d / scale),
 *   then the FP32 bits, or the BF16 bits by integer nearest-even narrowing.
 *   The admission (dequant_vec.c, above simafw_dequant_block_init) makes
 *   these exactly the bits of the exact stages under any subnormal handling
 *   (FTZ/DAZ) of the device.
 * - Not admitted (a subnormal scale; DIVIDE with a scale above 2^126): the
 *   256 results of the core's exact integer stages (numerics/
 *   dequant_exact.h), built in init and looked up by INT8 byte. For a
 *   subnormal scale the descriptor carries the same table, which the
 *   decoder checks entry by entry against this one.
 *
 * Output: n little-endian FP32 or BF16 results at dst, which must not
 * overlap src (a staged INT8 panel and its result slot).
 */
#ifndef SIMA_FIRMWARE_DEQUANT_VEC_H
#define SIMA_FIRMWARE_DEQUANT_VEC_H

#include <stdint.h>

#include <simaai/kernels/ops/detessdequant.h>

typedef struct {
  SimaDType dtype;              /* FLOAT32 or BFLOAT16 */
  int divide;                   /* SIMA_SCALE_DIVIDE: r = d / scale */
  int use_table;                /* outside the admission: table below */
  float scale;
  float zero;                   /* z = RNE_f32(zero_point), an integer */
  int leaf;                     /* the vector leaf of dtype x convention
                                 * (admitted blocks) */
  /* use_table only: the 256 results by INT8 byte, from the exact stages
   * (BF16: the final narrowed bits). Held by value: jobs are copied and
   * decoded into stack structs, so nothing points into another struct. */
  union {
    uint32_t f32[256];
    uint16_t bf16[256];
  } table;
} SimaFwDequantBlock;

/* Prepares the conversion of INT8 values into `dtype` (FLOAT32 or
 * BFLOAT16) results under an admitted scale (finite, > 0; the core's
 * sima_detessdequant_check_inference), its zero point and convention. */
void simafw_dequant_block_init (SimaFwDequantBlock *b, SimaDType dtype,
    uint32_t scale_bits, int32_t zero_point, SimaScaleConvention convention);

/* The whole block: n INT8 at src_int8 -> n little-endian FP32 or BF16
 * results at dst (4n or 2n bytes, nothing else written). */
void simafw_dequant_block (const SimaFwDequantBlock *b,
    const uint8_t *src_int8, uint8_t *dst, uint32_t n);

#endif /* SIMA_FIRMWARE_DEQUANT_VEC_H */
