/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/ops/casttess.h - CastTess shared admission.
 *
 * FP32, FP16 or BF16 input (contiguous or strided) becomes BF16 MlaTiled
 * output of the same logical shape, each pixel stored as all low bytes of
 * its channels, then all high bytes:
 *
 *   FP32 -> BF16  (bits + 0x7fff + ((bits >> 16) & 1)) >> 16 in uint32,
 *                 NaN payload effects included
 *   FP16 -> BF16  nearest even; signed zero and infinity kept; NaN ->
 *                 sign | 0x7fc0 | frac >> 3 (quiet, high payload bits kept)
 *   BF16 -> BF16  bit-preserving
 *
 * There are no parameters: the dtypes and the output layout decide all.
 * docs/casttess.md states the contract.
 */
#ifndef SIMAAI_KERNELS_OPS_CASTTESS_H
#define SIMAAI_KERNELS_OPS_CASTTESS_H

#include <simaai/kernels/layout.h>
#include <simaai/kernels/status.h>
#include <simaai/kernels/tensor_set.h>
#include <simaai/kernels/types.h>
#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

typedef struct {
  const SimaTensorSpec *inputs;   /* exactly one */
  size_t n_inputs;
  const SimaTensorSpec *outputs;  /* exactly one */
  size_t n_outputs;
} SimaCastTessRequest;

typedef struct {
  SimaTensorSpec input;
  SimaTensorSpec output;
  SimaStridedView input_view;
  SimaTiledGeometry output_geometry;  /* element_bytes 2: BF16 byte planes */
  uint64_t element_count;
  uint64_t input_bytes;
  uint64_t output_bytes;
} SimaCastTessPlan;

SimaStatus sima_casttess_check_inference (const SimaCastTessRequest *request,
    SimaCastTessPlan *out);

/* ---- tensor sets (simaai/kernels/tensor_set.h) -------------------------
 * Member i of the input set becomes member i of the BF16 mla-tiled output
 * set; rules as for sima_detessdequant_set_check_inference (no params). */
typedef struct {
  const SimaTensorSet *input;
  const SimaTensorSet *output;
} SimaCastTessSetRequest;

typedef struct {
  size_t n_members;
  SimaCastTessPlan members[SIMA_TENSOR_SET_MAX_MEMBERS];
  SimaTensorSetLayout input_layout;
  SimaTensorSetLayout output_layout;
  uint64_t element_count;
  uint64_t input_bytes;
  uint64_t output_bytes;
} SimaCastTessSetPlan;

SimaStatus sima_casttess_set_check_inference (
    const SimaCastTessSetRequest *request, SimaCastTessSetPlan *out);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_OPS_CASTTESS_H */
