/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * set_execute.h - the A65 tensor-set executor shared by the three ops
 * (private to the core). Each op hands over its members as an array of
 * its own A65 plans plus two small functions: what a member needs of the
 * buffers, and the op's single-member execute. The set checks everything
 * first and then only runs members, so that a rejected call writes
 * nothing.
 */
#ifndef SIMA_KERNELS_A65_SET_EXECUTE_H
#define SIMA_KERNELS_A65_SET_EXECUTE_H

#include <simaai/kernels/a65/threads.h>
#include <simaai/kernels/status.h>
#include <simaai/kernels/tensor_set.h>
#include <simaai/kernels/types.h>

typedef struct {
  int prepared;                 /* 0: the member plan was never prepared */
  uint64_t element_count;       /* 0: an empty member, never run */
  uint64_t input_bytes;
  uint64_t output_bytes;
  int input_alignment;
  int output_alignment;
} SimaA65SetMemberNeeds;

typedef void (*SimaA65SetMemberNeedsFn) (const void *member,
    SimaA65SetMemberNeeds *out);
/* The op's single execute on one member's sub-buffers. */
typedef SimaStatus (*SimaA65SetMemberRunFn) (const void *member,
    SimaA65Threads *pool, const SimaConstHostBuffer *in,
    const SimaHostBuffer *out);

typedef struct {
  const char *op;               /* "DetessDequant" */
  size_t n_members;
  const void *members;          /* n_members A65 plans of member_size */
  size_t member_size;
  const uint64_t *input_offset;
  const uint64_t *output_offset;
  uint64_t input_bytes;         /* the sets' capacities */
  uint64_t output_bytes;
  SimaA65SetMemberNeedsFn needs;
  SimaA65SetMemberRunFn run;
  SimaA65Threads *pool;         /* each member split over it (or NULL) */
} SimaA65SetExecution;

/* Checks, before anything is written: both buffer descriptions present;
 * each buffer against its set's capacity (NULL only when the capacity is
 * 0, no wrap-around); every nonempty member prepared, inside its set and
 * at an address (base + offset) aligned for it; the two sets' ranges
 * disjoint. Then runs every nonempty member on (base + offset, capacity -
 * offset), in member order. */
SimaStatus sima_a65_set_execute (const SimaA65SetExecution *x,
    const SimaConstHostBuffer *in, const SimaHostBuffer *out);

/* The op's single-member prepare (plan: its shared plan, out: its A65
 * plan). */
typedef SimaStatus (*SimaA65SetMemberPrepareFn) (const void *plan,
    void *out);

/* Prepares n members (plans[i] -> a65[i], arrays of the ops' own types)
 * and copies the members' offsets out of the two layouts. On failure the
 * message is prefixed "member I: " and the caller clears its plan. */
SimaStatus sima_a65_set_prepare (const char *op, size_t n,
    const void *plans, size_t plan_size, void *a65, size_t a65_size,
    SimaA65SetMemberPrepareFn prepare, const SimaTensorSetLayout *input,
    const SimaTensorSetLayout *output, uint64_t *input_offset,
    uint64_t *output_offset);

#endif /* SIMA_KERNELS_A65_SET_EXECUTE_H */
