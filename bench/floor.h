/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * floor.h - the memory-traffic floor of sima-kernels-bench: the fastest of
 * several honest ways to read every input byte once and write every output
 * byte once (docs/performance.md; DESIGN.md section 9). A floor that a peer
 * beats on the same bytes is not a floor, so each candidate is built in its
 * own translation unit for each instruction set (floor-plain.c,
 * floor-avx2.c, floor-avx512.c) and the best one the CPU runs is picked at
 * run time. Each candidate is timed; the bench uses the fastest.
 */
#ifndef SIMA_BENCH_FLOOR_H
#define SIMA_BENCH_FLOOR_H

#include <stddef.h>
#include <stdint.h>

/* in: in_bytes readable; out: out_bytes writable, 64-byte aligned. Both
 * buffers hold max (in_bytes, out_bytes) bytes (the memcpy candidate).
 * The returned value depends on every byte read, so that the reads are
 * not optimised away (the caller keeps it). */
typedef uint64_t (*SimaFloorFn) (const uint8_t *in, size_t in_bytes,
    uint8_t *out, size_t out_bytes);

enum {
  SIMA_FLOOR_READ_MEMSET,       /* vector load-only sum, then memset */
  SIMA_FLOOR_READ_VECSET,       /* the same, our own vector stores */
  SIMA_FLOOR_MEMCPY,            /* memcpy of max (in_bytes, out_bytes) */
  SIMA_FLOOR_STREAM,            /* fused: read a block, write a block */
  SIMA_FLOOR_STREAM_NT,         /* the same, non-temporal stores */
  SIMA_FLOOR_INTERLEAVE,        /* fused vector by vector: each store waits
                                 * for its own loads only */
  SIMA_FLOOR_INTERLEAVE_NT,     /* the same, non-temporal stores */
  SIMA_FLOOR_N
};

typedef struct {
  const char *name;             /* "read+memset", ... */
  SimaFloorFn fn;               /* NULL: not built for this ISA */
} SimaFloorCandidate;

/* One instruction set's candidates. */
typedef struct {
  const char *isa;              /* "avx512", "avx2", "sse2", "plain" */
  SimaFloorCandidate c[SIMA_FLOOR_N];
} SimaFloorSet;

/* The set built for the best ISA this CPU runs (AVX-512 F/BW/VL, else
 * AVX2, else the baseline). Never NULL. */
const SimaFloorSet *sima_floor_best (void);

/* Per-ISA sets; NULL where the ISA is not built on this target. */
const SimaFloorSet *sima_floor_set_plain (void);
const SimaFloorSet *sima_floor_set_avx2 (void);
const SimaFloorSet *sima_floor_set_avx512 (void);

/* Checks that candidate k of set writes every one of the out_bytes (its
 * bytes do not depend on what the buffer held before) and, except memcpy
 * (the C library's), that its result depends on the first, a middle and
 * the last input byte. The input is restored. Returns NULL, or what
 * failed. */
const char *sima_floor_check (const SimaFloorSet *set, int k, uint8_t *in,
    size_t in_bytes, uint8_t *out, size_t out_bytes);

/* sima_floor_check on every candidate of every set this CPU runs, over
 * sizes that reach each loop's tails (odd bytes, single vectors, blocks of
 * uneven shares, in larger and smaller than out). Returns NULL, or what
 * failed in `msg`. */
const char *sima_floor_selftest (char *msg, size_t size);

#endif /* SIMA_BENCH_FLOOR_H */
