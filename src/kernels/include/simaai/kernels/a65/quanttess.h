/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/a65/quanttess.h - QuantTess on the A65 (host CPU).
 *
 * prepare() picks the numerical leaves from the shared plan; execute() checks
 * the buffers (arity, NULL-ness, capacity, alignment, address overflow,
 * overlap) before writing anything, then writes the complete tiled output
 * (values, zero_point channel padding, zero alignment gaps). Neither call
 * allocates, creates threads or keeps global state. Results do not depend on
 * the caller's floating-point environment.
 */
#ifndef SIMAAI_KERNELS_A65_QUANTTESS_H
#define SIMAAI_KERNELS_A65_QUANTTESS_H

#include <simaai/kernels/a65/leaves.h>
#include <simaai/kernels/a65/threads.h>
#include <simaai/kernels/ops/quanttess.h>
#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

typedef struct {
  SimaQuantTessPlan shared;
  /* Filled by prepare; private to the A65 executor. */
  SimaQuantNumerics numerics;
  SimaTiledWalk walk;
  SimaA65PackFn pack;       /* ctx: &numerics */
  int stream;                /* pack streams (non-temporal stores): each
                               * thread fences after its part */
} SimaA65QuantTessPlan;

SimaStatus sima_a65_quanttess_prepare (const SimaQuantTessPlan *plan,
    SimaA65QuantTessPlan *out);

/* in/out: arrays of exactly one buffer each, in port order. */
SimaStatus sima_a65_quanttess_execute (const SimaA65QuantTessPlan *plan,
    const SimaConstHostBuffer *in, size_t n_in,
    const SimaHostBuffer *out, size_t n_out);

/* The same execution split over the threads of `pool` (threads.h; NULL:
 * the calling thread, as execute): the same checks, the same bytes. */
SimaStatus sima_a65_quanttess_execute_on (const SimaA65QuantTessPlan *plan,
    SimaA65Threads *pool, const SimaConstHostBuffer *in, size_t n_in,
    const SimaHostBuffer *out, size_t n_out);

/* A set: one A65 plan per member and the members' offsets. prepare() runs
 * the single-member prepare on each. execute() checks both buffers against
 * the set's capacities, their alignment and that they do not overlap, and
 * every member's placement, before writing anything; then converts member
 * after member, each exactly as the single-member execute would. */
typedef struct {
  size_t n_members;
  SimaA65QuantTessPlan members[SIMA_TENSOR_SET_MAX_MEMBERS];
  uint64_t input_offset[SIMA_TENSOR_SET_MAX_MEMBERS];
  uint64_t output_offset[SIMA_TENSOR_SET_MAX_MEMBERS];
  uint64_t input_bytes;
  uint64_t output_bytes;
} SimaA65QuantTessSetPlan;

SimaStatus sima_a65_quanttess_set_prepare (const SimaQuantTessSetPlan *plan,
    SimaA65QuantTessSetPlan *out);

SimaStatus sima_a65_quanttess_set_execute (const SimaA65QuantTessSetPlan *plan,
    const SimaConstHostBuffer *in, const SimaHostBuffer *out);

/* The set execution with each member split over the pool's threads. */
SimaStatus sima_a65_quanttess_set_execute_on (const SimaA65QuantTessSetPlan *plan,
    SimaA65Threads *pool, const SimaConstHostBuffer *in,
    const SimaHostBuffer *out);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_A65_QUANTTESS_H */
