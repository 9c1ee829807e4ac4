/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ev74_diff.h - one job run on the A65 and on the EV74 emulator, compared.
 *
 * A bench is a device with an input and an output arena. Each case places
 * its tensors at given offsets, prefills the output window (the span and
 * GUARD bytes on each side) with the same pattern in the device's buffer and
 * in the reference buffer, runs the A65 into the reference and the device
 * into its buffer, and compares the whole window: values, padding, holes of
 * strided outputs and guards in one go. It also checks the input is
 * unchanged, the exact DMA traffic, and that workers wrote disjoint
 * intervals (16-byte aligned except at the output's own ends), or a single
 * worker wrote everything for outputs with holes.
 */
#ifndef SIMA_TESTS_EV74_DIFF_H
#define SIMA_TESTS_EV74_DIFF_H

#include <simaai/kernels/ev74/descriptor.h>
#include <simaai/kernels/ops/detessdequant.h>

#include "ev74_util.h"
#include "test_util.h"

enum { DIFF_ARENA_BYTES = 4 << 20, DIFF_GUARD = 256, DIFF_GUARD_BYTE = 0xC3 };

typedef struct {
  SimaEv74Device *dev;
  TestArena in, out;
  uint8_t *expected;
  uint8_t *input_copy;
} DiffBench;

/* A job, as both backends see it. */
typedef struct {
  uint64_t input_bytes;         /* input span */
  uint64_t output_bytes;        /* output span */
  uint64_t expect_read;         /* DMA bytes the device must read */
  uint64_t expect_written;      /* and write */
  int single_writer;            /* outputs with holes: one worker writes */
  /* A65 reference into out (already holding the prefill) */
  SimaStatus (*a65) (const void *plan, const void *in, void *out);
  SimaStatus (*encode) (const void *plan, SimaEv74Descriptor *desc);
  const void *plan;
} DiffJob;

typedef struct {
  uint64_t cases, bytes, mismatches, failures, input_changed, traffic_errors,
      ownership_errors;
} DiffTally;

void diff_bench_open (DiffBench *b, const char *spec);
void diff_bench_close (DiffBench *b);

/* Runs one case; returns 1 when everything matched. */
int diff_run (DiffBench *b, const DiffJob *job, size_t in_off,
    size_t out_off, DiffTally *t);

/* Random placements: input at a multiple of `in_align` (<= 64 cache lines
 * into a random page), output at a multiple of `out_align` with room for the
 * guards. */
void diff_offsets (TestRng *rng, const DiffJob *job, int in_align,
    int out_align, size_t *in_off, size_t *out_off);

/* The four TAP points of a differential sweep. */
void diff_report (const char *label, const DiffTally *t, uint64_t want_cases);

/* A DetessDequant plan as a job: the A65 kernel, the relocatable encoding,
 * exactly the element bytes read and the results written (one writer when
 * the output has holes). */
DiffJob diff_detessdequant_job (const SimaDetessDequantPlan *plan);

/* The specs of the eight benches of a sweep: 1-4 workers x both DMA models. */
extern const char *const diff_specs[8];

#endif /* SIMA_TESTS_EV74_DIFF_H */
