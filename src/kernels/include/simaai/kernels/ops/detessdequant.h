/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/ops/detessdequant.h - DetessDequant shared admission.
 *
 * INT8 MlaTiled (compact or pad16) or MlaCBlocked input becomes FP32 or BF16
 * output, contiguous or strided, of the same logical shape. For every value q:
 *
 *   z = round_to_nearest_even_FP32(zero_point)
 *   d = round_to_nearest_even_FP32(FP32(q) - z)
 *   r = round_to_nearest_even_FP32(d * scale)   (SIMA_SCALE_MULTIPLY)
 *   r = round_to_nearest_even_FP32(d / scale)   (SIMA_SCALE_DIVIDE: SiMa's
 *       dq_scale, value = (q - dq_zp) / dq_scale; a correctly rounded IEEE
 *       division, never a multiply by a reciprocal)
 *   FP32 output = r,  BF16 output = round_to_nearest_even_BF16(r)
 *
 * Input padding and alignment gaps are ignored; output holes are never
 * written. docs/detessdequant.md states the contract.
 */
#ifndef SIMAAI_KERNELS_OPS_DETESSDEQUANT_H
#define SIMAAI_KERNELS_OPS_DETESSDEQUANT_H

#include <simaai/kernels/layout.h>
#include <simaai/kernels/status.h>
#include <simaai/kernels/tensor_set.h>
#include <simaai/kernels/types.h>
#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

/* How scale enters the last stage. Zero-initialised parameters multiply, as
 * they did before the field existed. */
typedef enum {
  SIMA_SCALE_MULTIPLY = 0,   /* r = RNE_f32(d * scale) */
  SIMA_SCALE_DIVIDE = 1,     /* r = RNE_f32(d / scale) */
} SimaScaleConvention;

/* "multiply" or "divide"; "unknown" for other values. */
const char *sima_scale_convention_name (SimaScaleConvention convention);
/* 1 and *out set when name is one of sima_scale_convention_name's. */
int sima_scale_convention_from_name (const char *name,
    SimaScaleConvention *out);

typedef struct {
  float scale;            /* required: finite and > 0, subnormals allowed */
  int32_t zero_point;     /* the whole int32 range, default 0 */
  SimaScaleConvention convention;   /* default SIMA_SCALE_MULTIPLY */
} SimaDetessDequantParams;

typedef struct {
  const SimaTensorSpec *inputs;   /* exactly one */
  size_t n_inputs;
  const SimaTensorSpec *outputs;  /* exactly one */
  size_t n_outputs;
  SimaDetessDequantParams params;
} SimaDetessDequantRequest;

typedef struct {
  SimaTensorSpec input;
  SimaTensorSpec output;
  SimaDetessDequantParams params;
  /* The input's tiles; an MlaCBlocked input is described by its equivalent
   * MlaTiled geometry (see sima_cblocked_geometry_init). */
  SimaTiledGeometry input_geometry;
  SimaStridedView output_view;
  uint64_t element_count;
  uint64_t input_bytes;   /* physical input size */
  uint64_t output_bytes;  /* output span, holes included */
} SimaDetessDequantPlan;

SimaStatus sima_detessdequant_check_inference (
    const SimaDetessDequantRequest *request, SimaDetessDequantPlan *out);

/* The parameter part of check_inference on its own: scale finite and > 0
 * (bit-based, subnormals admitted whatever the FTZ/DAZ state); every int32
 * zero point is valid; convention one of SimaScaleConvention's values. */
SimaStatus sima_detessdequant_check_params (
    const SimaDetessDequantParams *params);

/* ---- tensor sets (simaai/kernels/tensor_set.h) -------------------------
 * Member i of the input set (INT8 mla-tiled / mla-cblocked) becomes member
 * i of the output set (FP32 / BF16, contiguous / strided) with params[i].
 * Both sets must have the same number of members and n_params must equal
 * it; each member pair is admitted exactly as check_inference admits a
 * single tensor (messages prefixed "member I: "); each set is checked with
 * sima_tensor_set_check. */
typedef struct {
  const SimaTensorSet *input;
  const SimaTensorSet *output;
  const SimaDetessDequantParams *params;  /* n_params entries */
  size_t n_params;
} SimaDetessDequantSetRequest;

typedef struct {
  size_t n_members;
  SimaDetessDequantPlan members[SIMA_TENSOR_SET_MAX_MEMBERS];
  SimaTensorSetLayout input_layout;
  SimaTensorSetLayout output_layout;
  uint64_t element_count;   /* sum over members */
  uint64_t input_bytes;     /* input_layout.capacity */
  uint64_t output_bytes;    /* output_layout.capacity */
} SimaDetessDequantSetPlan;

SimaStatus sima_detessdequant_set_check_inference (
    const SimaDetessDequantSetRequest *request, SimaDetessDequantSetPlan *out);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_OPS_DETESSDEQUANT_H */
