/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * op_common.h - admission and buffer checks shared by the three operations
 * (private to the core). Each check returns SIMA_OK or a status whose
 * message names the operation, the port and the offending value.
 */
#ifndef SIMA_KERNELS_OP_COMMON_H
#define SIMA_KERNELS_OP_COMMON_H

#include <simaai/kernels/layout.h>
#include <simaai/kernels/tensor_set.h>

/* Sets of dtypes and of layouts, as bit masks of 1 << value. */
#define SIMA_OP_BIT(v) (1u << (unsigned) (v))
#define SIMA_OP_FLOAT_DTYPES (SIMA_OP_BIT (SIMA_DTYPE_FLOAT32) | \
    SIMA_OP_BIT (SIMA_DTYPE_FLOAT16) | SIMA_OP_BIT (SIMA_DTYPE_BFLOAT16))
/* What the two pack operations read: the float formats, and UINT8 camera
 * pixels (an exact integer 0..255 entering the same rule as a decoded
 * float). */
#define SIMA_OP_PACK_DTYPES (SIMA_OP_FLOAT_DTYPES | \
    SIMA_OP_BIT (SIMA_DTYPE_UINT8))
/* What the unpack operations write. */
#define SIMA_OP_UNPACK_OUT_DTYPES (SIMA_OP_BIT (SIMA_DTYPE_FLOAT32) | \
    SIMA_OP_BIT (SIMA_DTYPE_BFLOAT16))
#define SIMA_OP_DENSE_LAYOUTS (SIMA_OP_BIT (SIMA_LAYOUT_CONTIGUOUS) | \
    SIMA_OP_BIT (SIMA_LAYOUT_STRIDED))

/* Exactly one input and one output, both arrays present. */
SimaStatus sima_check_arity (const char *op, const SimaTensorSpec *inputs,
    size_t n_inputs, const SimaTensorSpec *outputs, size_t n_outputs);

/* A float parameter that must be finite and > 0 (subnormals allowed);
 * decided on the bits, so the FP environment does not matter. */
SimaStatus sima_check_positive_finite (const char *name, float value);

/* Rank and extents, a dtype in `dtypes` and a layout in `layouts`; the
 * messages list what is accepted ("must be float32, float16, bfloat16 or uint8"). */
SimaStatus sima_check_port (const char *op, const char *role,
    const SimaTensorSpec *spec, unsigned dtypes, unsigned layouts);

/* Input and output have the same rank and extents. */
SimaStatus sima_check_same_shape (const SimaTensorSpec *in,
    const SimaTensorSpec *out);

/* The geometry of a tiled operand, written once for every operation:
 * mla-tiled tensors of INT8 (one byte per stored channel) or BF16 (byte
 * planes, element_bytes 2: the scalar size of the dtype), or INT8
 * mla-cblocked tensors through their equivalent tiling. The caller has
 * admitted dtype and layout (sima_check_port). */
SimaStatus sima_tiled_admit (const SimaTensorSpec *spec, const char *role,
    SimaTiledGeometry *out);

/* The ports of an unpack operation (tiled input -> dense output:
 * DetessDequant, DetessCast): input dtype in `in_dtypes` and layout in
 * `in_layouts`, output FP32 or BF16, contiguous or strided, same shape. */
SimaStatus sima_check_unpack_ports (const char *op, const SimaTensorSpec *in,
    const SimaTensorSpec *out, unsigned in_dtypes, unsigned in_layouts);

/* The layouts of an unpack operation, after its ports (and parameters):
 * the output view first (its span proof bounds the extents that the tiled
 * geometry then multiplies), then the input's geometry. */
SimaStatus sima_admit_unpack_layouts (const SimaTensorSpec *in,
    const SimaTensorSpec *out, SimaTiledGeometry *in_geometry,
    SimaStridedView *out_view);

/* Execute-time checks, all before anything is written: one buffer per
 * port, NULL only when nothing is required, capacity, alignment, no
 * wrap-around of the address range, and no overlap of the two required
 * ranges (disjoint views inside one allocation are fine). */
SimaStatus sima_check_host_buffers (const char *op,
    const SimaConstHostBuffer *in, size_t n_in, uint64_t in_required,
    int in_alignment, const SimaHostBuffer *out, size_t n_out,
    uint64_t out_required, int out_alignment);

/* One buffer of an execute call: NULL only when nothing is required,
 * capacity, `alignment` of its address (1: none) and no wrap-around of
 * [data, data + required). The message starts "<op> <role>". */
SimaStatus sima_check_host_range (const char *op, const char *role,
    const void *data, uint64_t capacity, uint64_t required, int alignment);

/* 1 when [a, a + n) and [b, b + m) share a byte (n, m > 0 and neither range
 * wraps). */
int sima_ranges_overlap (uintptr_t a, uint64_t n, uintptr_t b, uint64_t m);

/* ---- tensor sets ---------------------------------------------------------
 * The part of the three *_set_check_inference that does not depend on the
 * op, written once. `admit` is the op's single check_inference on one
 * member pair (params: the member's entry, NULL for an op without
 * parameters); it fills the member's plan and its element count. */
typedef SimaStatus (*SimaSetMemberAdmit) (const SimaTensorSpec *input,
    const SimaTensorSpec *output, const void *params, void *plan,
    uint64_t *element_count);

typedef struct {
  const char *op;               /* "DetessDequant" */
  const SimaTensorSet *input;
  const SimaTensorSet *output;
  const void *params;           /* n_params entries of params_size bytes */
  size_t params_size;           /* 0: the op takes no parameters */
  size_t n_params;
  SimaSetMemberAdmit admit;
  void *members;                /* the plan's members[] */
  size_t member_size;
} SimaSetAdmission;

/* In order: both sets present; same member count ("input set has 6
 * members, output set 5"); n_params equal to it; each set through
 * sima_tensor_set_check; each member pair through `admit` (messages
 * prefixed "member I: "); the element counts summed, checked. On success
 * fills the two layouts and the sum; on failure leaves them zero. */
SimaStatus sima_check_set_inference (const SimaSetAdmission *a,
    SimaTensorSetLayout *input_layout, SimaTensorSetLayout *output_layout,
    uint64_t *element_count);

#endif /* SIMA_KERNELS_OP_COMMON_H */
