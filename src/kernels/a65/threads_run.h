/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * threads_run.h - how the A65 executors use a pool (private to the core).
 */
#ifndef SIMA_KERNELS_A65_THREADS_RUN_H
#define SIMA_KERNELS_A65_THREADS_RUN_H

#include <simaai/kernels/a65/threads.h>
#include <stdint.h>

/* Part `part` of `parts` of one execution. */
typedef void (*SimaA65PartFn) (void *arg, unsigned part, unsigned parts);

/* Runs fn (arg, k, N) on every thread of the pool, k = 0 on the caller's,
 * and returns when all have returned. NULL or a pool of one thread: fn
 * (arg, 0, 1) on the caller's thread. */
void sima_a65_threads_run (SimaA65Threads *pool, SimaA65PartFn fn,
    void *arg);

/* The first item of part `part` of `parts` (<= SIMA_A65_MAX_THREADS) of
 * `total` items: floor (total * part / parts), so part k takes
 * [begin (k), begin (k + 1)), every item in exactly one part, sizes
 * differing by at most one. The EV74 workers split their tasks the same
 * way (firmware/pack_worker.c). */
uint64_t sima_a65_part_begin (uint64_t total, unsigned part, unsigned parts);

#endif /* SIMA_KERNELS_A65_THREADS_RUN_H */
