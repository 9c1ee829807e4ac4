/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/a65/threads.h - a pool of threads that one A65 execution
 * is split over.
 *
 * A pool of N threads is the caller's thread plus N - 1 worker threads it
 * owns (POSIX threads, no global state). An execution on a pool cuts the
 * tensor's tiles (physical order) into N contiguous ranges in O(1), the way
 * the EV74 workers cut their tasks: part k of N takes tiles
 * [k*T/N, (k+1)*T/N). Parts write disjoint output bytes (a tile's bytes, or
 * the view elements of a tile), so the bytes are those of the single
 * thread execution, whatever N. A tensor of fewer tiles than threads leaves
 * the extra threads idle.
 *
 * One execution runs on a pool at a time: a second caller waits for the
 * first to finish (a pool is safe to share, it just serialises). The
 * execute_on functions of the operations (quanttess.h, casttess.h,
 * detessdequant.h, detesscast.h) take a pool; NULL, or a pool of one
 * thread, runs on the calling thread exactly as execute does.
 */
#ifndef SIMAAI_KERNELS_A65_THREADS_H
#define SIMAAI_KERNELS_A65_THREADS_H

#include <simaai/kernels/status.h>
#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

typedef struct SimaA65Threads SimaA65Threads;

/* The most threads a pool may have. */
#define SIMA_A65_MAX_THREADS 64

/* A pool of `threads` threads (the caller's included), 0 meaning one per
 * online CPU (sysconf), capped at SIMA_A65_MAX_THREADS. Fails with
 * SIMA_INVALID_ARGUMENT above the cap, or SIMA_OUT_OF_RESOURCES when a
 * thread or the pool cannot be created (nothing is left behind). */
SimaStatus sima_a65_threads_new (unsigned threads, SimaA65Threads **out);

/* Joins the worker threads and frees the pool. NULL is ignored. Must not
 * be called while an execution runs on the pool. */
void sima_a65_threads_free (SimaA65Threads *pool);

/* Threads of the pool, the caller's included (1 for NULL). */
unsigned sima_a65_threads_count (const SimaA65Threads *pool);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_A65_THREADS_H */
