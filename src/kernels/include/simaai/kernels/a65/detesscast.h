/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/a65/detesscast.h - DetessCast on the A65 (host CPU).
 *
 * execute() checks the buffers before writing, then writes exactly the
 * logical elements of the output (holes and extra capacity untouched),
 * walking the tiles with the walk every operation shares. No allocation,
 * threads or global state.
 */
#ifndef SIMAAI_KERNELS_A65_DETESSCAST_H
#define SIMAAI_KERNELS_A65_DETESSCAST_H

#include <simaai/kernels/a65/leaves.h>
#include <simaai/kernels/a65/threads.h>
#include <simaai/kernels/ops/detesscast.h>
#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

typedef struct {
  SimaDetessCastPlan shared;
  /* Filled by prepare; private to the A65 executor (the leaf and what it
   * needs; the implementer may add fields). */
  SimaTiledWalk walk;
  SimaA65UnpackFn unpack;
} SimaA65DetessCastPlan;

SimaStatus sima_a65_detesscast_prepare (const SimaDetessCastPlan *plan,
    SimaA65DetessCastPlan *out);

/* in/out: arrays of exactly one buffer each, in port order. */
SimaStatus sima_a65_detesscast_execute (const SimaA65DetessCastPlan *plan,
    const SimaConstHostBuffer *in, size_t n_in, const SimaHostBuffer *out,
    size_t n_out);

/* The same execution split over the threads of `pool` (threads.h; NULL:
 * the calling thread, as execute): the same checks, the same bytes. */
SimaStatus sima_a65_detesscast_execute_on (const SimaA65DetessCastPlan *plan,
    SimaA65Threads *pool, const SimaConstHostBuffer *in, size_t n_in,
    const SimaHostBuffer *out, size_t n_out);

/* A set: as the other operations' set plans (a65/detessdequant.h). */
typedef struct {
  size_t n_members;
  SimaA65DetessCastPlan members[SIMA_TENSOR_SET_MAX_MEMBERS];
  uint64_t input_offset[SIMA_TENSOR_SET_MAX_MEMBERS];
  uint64_t output_offset[SIMA_TENSOR_SET_MAX_MEMBERS];
  uint64_t input_bytes;
  uint64_t output_bytes;
} SimaA65DetessCastSetPlan;

SimaStatus sima_a65_detesscast_set_prepare (const SimaDetessCastSetPlan *plan,
    SimaA65DetessCastSetPlan *out);

SimaStatus sima_a65_detesscast_set_execute (
    const SimaA65DetessCastSetPlan *plan, const SimaConstHostBuffer *in,
    const SimaHostBuffer *out);

/* The set execution with each member split over the pool's threads. */
SimaStatus sima_a65_detesscast_set_execute_on (const SimaA65DetessCastSetPlan *plan,
    SimaA65Threads *pool, const SimaConstHostBuffer *in,
    const SimaHostBuffer *out);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_A65_DETESSCAST_H */
