/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * op_common.h - admission and buffer checks shared by the three operations
 * (private to the core). Each check returns SIMA_OK or a status whose
 * message names the operation, the port and the offending value.
 */
#ifndef SIMA_KERNELS_OP_COMMON_H
#define SIMA_KERNELS_OP_COMMON_H

#include <simaai/kernels/layout.h>

/* Sets of dtypes and of layouts, as bit masks of 1 << value. */
#define SIMA_OP_BIT(v) (1u << (unsigned) (v))
#define SIMA_OP_FLOAT_DTYPES (SIMA_OP_BIT (SIMA_DTYPE_FLOAT32) | \
    SIMA_OP_BIT (SIMA_DTYPE_FLOAT16) | SIMA_OP_BIT (SIMA_DTYPE_BFLOAT16))
#define SIMA_OP_DENSE_LAYOUTS (SIMA_OP_BIT (SIMA_LAYOUT_CONTIGUOUS) | \
    SIMA_OP_BIT (SIMA_LAYOUT_STRIDED))

/* Exactly one input and one output, both arrays present. */
SimaStatus sima_check_arity (const char *op, const SimaTensorSpec *inputs,
    size_t n_inputs, const SimaTensorSpec *outputs, size_t n_outputs);

/* A float parameter that must be finite and > 0 (subnormals allowed);
 * decided on the bits, so the FP environment does not matter. */
SimaStatus sima_check_positive_finite (const char *name, float value);

/* Rank and extents, a dtype in `dtypes` and a layout in `layouts`; the
 * messages list what is accepted ("must be float32, float16 or bfloat16"). */
SimaStatus sima_check_port (const char *op, const char *role,
    const SimaTensorSpec *spec, unsigned dtypes, unsigned layouts);

/* Input and output have the same rank and extents. */
SimaStatus sima_check_same_shape (const SimaTensorSpec *in,
    const SimaTensorSpec *out);

/* Execute-time checks, all before anything is written: one buffer per
 * port, NULL only when nothing is required, capacity, alignment, no
 * wrap-around of the address range, and no overlap of the two required
 * ranges (disjoint views inside one allocation are fine). */
SimaStatus sima_check_host_buffers (const char *op,
    const SimaConstHostBuffer *in, size_t n_in, uint64_t in_required,
    int in_alignment, const SimaHostBuffer *out, size_t n_out,
    uint64_t out_required, int out_alignment);

#endif /* SIMA_KERNELS_OP_COMMON_H */
