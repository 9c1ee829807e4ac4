/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/a65/casttess.h - CastTess on the A65 (host CPU).
 *
 * execute() checks the buffers before writing anything, then writes the
 * complete tiled output (BF16 byte planes, zero channel padding, zero
 * alignment gaps). Integer arithmetic only: the caller's FP environment is
 * neither needed nor changed. No allocation, threads or global state.
 */
#ifndef SIMAAI_KERNELS_A65_CASTTESS_H
#define SIMAAI_KERNELS_A65_CASTTESS_H

#include <simaai/kernels/a65/leaves.h>
#include <simaai/kernels/a65/threads.h>
#include <simaai/kernels/ops/casttess.h>
#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

typedef struct {
  SimaCastTessPlan shared;
  /* Filled by prepare; private to the A65 executor. */
  SimaTiledWalk walk;
  SimaA65PackFn pack;       /* ctx: NULL */
  int stream;                /* pack streams (non-temporal stores): each
                               * thread fences after its part */
} SimaA65CastTessPlan;

SimaStatus sima_a65_casttess_prepare (const SimaCastTessPlan *plan,
    SimaA65CastTessPlan *out);

/* in/out: arrays of exactly one buffer each, in port order. */
SimaStatus sima_a65_casttess_execute (const SimaA65CastTessPlan *plan,
    const SimaConstHostBuffer *in, size_t n_in,
    const SimaHostBuffer *out, size_t n_out);

/* The same execution split over the threads of `pool` (threads.h; NULL:
 * the calling thread, as execute): the same checks, the same bytes. */
SimaStatus sima_a65_casttess_execute_on (const SimaA65CastTessPlan *plan,
    SimaA65Threads *pool, const SimaConstHostBuffer *in, size_t n_in,
    const SimaHostBuffer *out, size_t n_out);

/* A set: one A65 plan per member and the members' offsets. prepare() runs
 * the single-member prepare on each. execute() checks both buffers against
 * the set's capacities, their alignment and that they do not overlap, and
 * every member's placement, before writing anything; then converts member
 * after member, each exactly as the single-member execute would. */
typedef struct {
  size_t n_members;
  SimaA65CastTessPlan members[SIMA_TENSOR_SET_MAX_MEMBERS];
  uint64_t input_offset[SIMA_TENSOR_SET_MAX_MEMBERS];
  uint64_t output_offset[SIMA_TENSOR_SET_MAX_MEMBERS];
  uint64_t input_bytes;
  uint64_t output_bytes;
} SimaA65CastTessSetPlan;

SimaStatus sima_a65_casttess_set_prepare (const SimaCastTessSetPlan *plan,
    SimaA65CastTessSetPlan *out);

SimaStatus sima_a65_casttess_set_execute (const SimaA65CastTessSetPlan *plan,
    const SimaConstHostBuffer *in, const SimaHostBuffer *out);

/* The set execution with each member split over the pool's threads. */
SimaStatus sima_a65_casttess_set_execute_on (const SimaA65CastTessSetPlan *plan,
    SimaA65Threads *pool, const SimaConstHostBuffer *in,
    const SimaHostBuffer *out);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_A65_CASTTESS_H */
