/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/a65/detessdequant.h - DetessDequant on the A65 (host CPU).
 *
 * prepare() builds the 256-entry table of results (one per INT8 value) with
 * exact integer arithmetic, so execution is a table lookup per element and
 * no result depends on the caller's FP environment. execute() checks the
 * buffers before writing, then writes exactly the logical elements of the
 * output (holes and extra capacity untouched). No allocation, threads or
 * global state.
 */
#ifndef SIMAAI_KERNELS_A65_DETESSDEQUANT_H
#define SIMAAI_KERNELS_A65_DETESSDEQUANT_H

#include <simaai/kernels/a65/leaves.h>
#include <simaai/kernels/a65/threads.h>
#include <simaai/kernels/ops/detessdequant.h>
#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

/* What the leaves read: the exact results of all 256 INT8 values (first,
 * so that a pointer to it is a pointer to the table), and the stages'
 * operands for leaves that compute in lanes. */
typedef struct {
  union {                   /* indexed by the INT8 byte (q & 0xff) */
    uint32_t f32[256];
    uint16_t bf16[256];
  } table;
  uint32_t zero_point_f32_bits;   /* RNE_f32 (zero_point), exactly */
  uint32_t scale_bits;
} SimaA65DequantCtx;

typedef struct {
  SimaDetessDequantPlan shared;
  /* Filled by prepare; private to the A65 executor. */
  SimaTiledWalk walk;
  SimaA65UnpackFn unpack;   /* ctx: &ctx */
  SimaA65DequantCtx ctx;
} SimaA65DetessDequantPlan;

SimaStatus sima_a65_detessdequant_prepare (const SimaDetessDequantPlan *plan,
    SimaA65DetessDequantPlan *out);

/* in/out: arrays of exactly one buffer each, in port order. */
SimaStatus sima_a65_detessdequant_execute (
    const SimaA65DetessDequantPlan *plan, const SimaConstHostBuffer *in,
    size_t n_in, const SimaHostBuffer *out, size_t n_out);

/* The same execution split over the threads of `pool` (threads.h; NULL:
 * the calling thread, as execute): the same checks, the same bytes. */
SimaStatus sima_a65_detessdequant_execute_on (const SimaA65DetessDequantPlan *plan,
    SimaA65Threads *pool, const SimaConstHostBuffer *in, size_t n_in,
    const SimaHostBuffer *out, size_t n_out);

/* A set: one A65 plan per member and the members' offsets. prepare() runs
 * the single-member prepare on each. execute() checks both buffers against
 * the set's capacities, their alignment and that they do not overlap, and
 * every member's placement, before writing anything; then converts member
 * after member, each exactly as the single-member execute would. */
typedef struct {
  size_t n_members;
  SimaA65DetessDequantPlan members[SIMA_TENSOR_SET_MAX_MEMBERS];
  uint64_t input_offset[SIMA_TENSOR_SET_MAX_MEMBERS];
  uint64_t output_offset[SIMA_TENSOR_SET_MAX_MEMBERS];
  uint64_t input_bytes;
  uint64_t output_bytes;
} SimaA65DetessDequantSetPlan;

SimaStatus sima_a65_detessdequant_set_prepare (const SimaDetessDequantSetPlan *plan,
    SimaA65DetessDequantSetPlan *out);

SimaStatus sima_a65_detessdequant_set_execute (const SimaA65DetessDequantSetPlan *plan,
    const SimaConstHostBuffer *in, const SimaHostBuffer *out);

/* The set execution with each member split over the pool's threads. */
SimaStatus sima_a65_detessdequant_set_execute_on (const SimaA65DetessDequantSetPlan *plan,
    SimaA65Threads *pool, const SimaConstHostBuffer *in,
    const SimaHostBuffer *out);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_A65_DETESSDEQUANT_H */
