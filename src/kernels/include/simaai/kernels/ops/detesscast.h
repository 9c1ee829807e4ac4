/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/ops/detesscast.h - DetessCast shared admission: the exact
 * inverse of CastTess (docs/detesscast.md, normative).
 *
 * BF16 MlaTiled input (byte planes per pixel: the low bytes of the stored
 * channels, then their high bytes; compact or pad16; cblock) becomes FP32
 * or BF16 output, contiguous or strided, of the same logical shape:
 *
 *   FP32 output = the BF16 bits << 16   (exact; NaN payloads kept)
 *   BF16 output = the BF16 bits         (bit-preserving)
 *
 * No FP arithmetic, no dependence on the FP environment. Input padding and
 * alignment gaps are ignored; output holes are never written. Ranks 1-6,
 * empty tensors valid, rank 0 rejected; the output admission and overlap
 * rules are DetessDequant's.
 */
#ifndef SIMAAI_KERNELS_OPS_DETESSCAST_H
#define SIMAAI_KERNELS_OPS_DETESSCAST_H

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
} SimaDetessCastRequest;

typedef struct {
  SimaTensorSpec input;
  SimaTensorSpec output;
  SimaTiledGeometry input_geometry;   /* element_bytes 2: BF16 byte planes */
  SimaStridedView output_view;
  uint64_t element_count;
  uint64_t input_bytes;   /* physical input size */
  uint64_t output_bytes;  /* output span, holes included */
} SimaDetessCastPlan;

SimaStatus sima_detesscast_check_inference (
    const SimaDetessCastRequest *request, SimaDetessCastPlan *out);

/* ---- tensor sets (simaai/kernels/tensor_set.h) -------------------------
 * Member i of the BF16 tiled input set becomes member i of the output set;
 * rules as for sima_detessdequant_set_check_inference (no params). */
typedef struct {
  const SimaTensorSet *input;
  const SimaTensorSet *output;
} SimaDetessCastSetRequest;

typedef struct {
  size_t n_members;
  SimaDetessCastPlan members[SIMA_TENSOR_SET_MAX_MEMBERS];
  SimaTensorSetLayout input_layout;
  SimaTensorSetLayout output_layout;
  uint64_t element_count;
  uint64_t input_bytes;
  uint64_t output_bytes;
} SimaDetessCastSetPlan;

SimaStatus sima_detesscast_set_check_inference (
    const SimaDetessCastSetRequest *request, SimaDetessCastSetPlan *out);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_OPS_DETESSCAST_H */
