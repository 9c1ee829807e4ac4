/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dense_output.h - who writes which elements of a dense (row-major,
 * contiguous) output, and how a worker's elements are cut into panels, for
 * the DetessDequant and DetessCast workers.
 *
 * Ownership boundaries fall on the elements whose bus address is 16-byte
 * aligned (derived from the output address itself), so neighbouring
 * workers never share a write granule. Panel boundaries inside a worker's
 * range are aligned the same way: only the output's own head and tail are
 * partial granules (exact stores), not the start of every panel of a
 * misaligned output.
 */
#ifndef SIMA_FIRMWARE_DENSE_OUTPUT_H
#define SIMA_FIRMWARE_DENSE_OUTPUT_H

#include <stdint.h>

typedef struct {
  uint64_t count;           /* elements of the output */
  uint64_t per_granule;     /* elements per 16-byte granule */
  uint64_t first_aligned;   /* first element at a 16-byte aligned address */
  uint64_t panel;           /* most elements per panel (a multiple of 16) */
} SimaFwDenseOutput;

void simafw_dense_output_init (SimaFwDenseOutput *d, uint64_t count,
    uint32_t scalar_bytes, uint64_t output_bus, uint64_t panel);

/* The first element of worker w of n (w == n: count). */
uint64_t simafw_dense_boundary (const SimaFwDenseOutput *d, uint32_t w,
    uint32_t n);

/* The end of the panel that starts at e0, at most `last`: the last aligned
 * element boundary within one panel of e0. */
uint64_t simafw_dense_panel_end (const SimaFwDenseOutput *d, uint64_t e0,
    uint64_t last);

#endif /* SIMA_FIRMWARE_DENSE_OUTPUT_H */
