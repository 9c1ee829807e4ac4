/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/ops/quanttess.h - QuantTess shared admission.
 *
 * FP32, FP16 or BF16 input (contiguous or strided) becomes INT8 MlaTiled
 * output of the same logical shape:
 *
 *   product = round_to_nearest_even_binary32(exact(x) * multiplier)
 *   result  = saturate_int8(round_selected(product) + zero_point)
 *
 * check_inference validates a request and derives every number a backend
 * needs; backends (a65/quanttess.h, ev74/quanttess.h) start from its plan.
 * docs/quanttess.md states the contract.
 */
#ifndef SIMAAI_KERNELS_OPS_QUANTTESS_H
#define SIMAAI_KERNELS_OPS_QUANTTESS_H

#include <simaai/kernels/layout.h>
#include <simaai/kernels/status.h>
#include <simaai/kernels/tensor_set.h>
#include <simaai/kernels/types.h>
#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

/* How the binary32 product becomes an integer. Values are stable. */
typedef enum {
  SIMA_ROUNDING_NEAREST_EVEN = 0,
  SIMA_ROUNDING_TOWARD_ZERO = 1,
  SIMA_ROUNDING_TOWARD_POSITIVE = 2,
  SIMA_ROUNDING_TOWARD_NEGATIVE = 3,
} SimaRounding;

const char *sima_rounding_name (SimaRounding rounding);
/* 1 and *out set when name is one of sima_rounding_name's. */
int sima_rounding_from_name (const char *name, SimaRounding *out);

typedef struct {
  float multiplier;         /* required: finite and > 0, subnormals allowed */
  int32_t zero_point;       /* [-128, 127], default 0 */
  SimaRounding rounding;    /* default SIMA_ROUNDING_NEAREST_EVEN */
} SimaQuantTessParams;

typedef struct {
  const SimaTensorSpec *inputs;   /* exactly one */
  size_t n_inputs;
  const SimaTensorSpec *outputs;  /* exactly one */
  size_t n_outputs;
  SimaQuantTessParams params;
} SimaQuantTessRequest;

/* Everything derived from an admitted request; owns copies of the specs. */
typedef struct {
  SimaTensorSpec input;
  SimaTensorSpec output;
  SimaQuantTessParams params;
  SimaStridedView input_view;
  SimaTiledGeometry output_geometry;
  uint64_t element_count;   /* logical elements; 0 for empty tensors */
  uint64_t input_bytes;     /* required accessible input bytes */
  uint64_t output_bytes;    /* physical output size */
} SimaQuantTessPlan;

SimaStatus sima_quanttess_check_inference (const SimaQuantTessRequest *request,
    SimaQuantTessPlan *out);

/* The parameter part of check_inference on its own (for callers that check
 * parameters before any tensor is known): the same rule, bit-based, so a
 * subnormal multiplier is admitted whatever the CPU's FTZ/DAZ state. */
SimaStatus sima_quanttess_check_params (const SimaQuantTessParams *params);

/* The parameters in the form the exact quantization stage consumes: the
 * multiplier split into an integer significand and a power of two, so that
 * the product with a decoded input is an exact integer operation. Every
 * backend derives it with sima_quanttess_numerics(). */
typedef struct {
  uint32_t multiplier_significand;  /* multiplier = significand * 2^exponent */
  int32_t multiplier_exponent;
  uint32_t multiplier_bits;         /* the binary32 itself, for SIMD leaves
                                     * that multiply in hardware */
  int32_t zero_point;
  SimaRounding rounding;
} SimaQuantNumerics;

/* For admitted parameters (multiplier finite and > 0). */
void sima_quanttess_numerics (const SimaQuantTessParams *params,
    SimaQuantNumerics *out);

/* ---- tensor sets (simaai/kernels/tensor_set.h) -------------------------
 * Member i of the input set (FP32/FP16/BF16 contiguous / strided) becomes
 * member i of the output set (INT8 mla-tiled) with params[i]; rules as for
 * sima_detessdequant_set_check_inference. */
typedef struct {
  const SimaTensorSet *input;
  const SimaTensorSet *output;
  const SimaQuantTessParams *params;      /* n_params entries */
  size_t n_params;
} SimaQuantTessSetRequest;

typedef struct {
  size_t n_members;
  SimaQuantTessPlan members[SIMA_TENSOR_SET_MAX_MEMBERS];
  SimaTensorSetLayout input_layout;
  SimaTensorSetLayout output_layout;
  uint64_t element_count;
  uint64_t input_bytes;
  uint64_t output_bytes;
} SimaQuantTessSetPlan;

SimaStatus sima_quanttess_set_check_inference (
    const SimaQuantTessSetRequest *request, SimaQuantTessSetPlan *out);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_OPS_QUANTTESS_H */
