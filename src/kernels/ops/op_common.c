/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "op_common.h"

#include "../checked.h"
#include "../numerics/float_bits.h"

#include <string.h>

SimaStatus
sima_check_arity (const char *op, const SimaTensorSpec *inputs,
    size_t n_inputs, const SimaTensorSpec *outputs, size_t n_outputs)
{
  if (n_inputs != 1 || n_outputs != 1)
    return sima_status_make (SIMA_INVALID_ARITY,
        "%s takes 1 input and 1 output, got %zu and %zu", op, n_inputs,
        n_outputs);
  if (inputs == NULL || outputs == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "%s %s spec array is NULL", op, inputs == NULL ? "input" : "output");
  return sima_status_ok ();
}

SimaStatus
sima_check_positive_finite (const char *name, float value)
{
  uint32_t bits;
  SimaExactValue v;

  memcpy (&bits, &value, sizeof bits);
  v = sima_decode_f32 (bits);
  if (v.kind != SIMA_VALUE_FINITE || v.significand == 0 || v.negative)
    return sima_status_make (SIMA_INVALID_PARAMETER,
        "%s is %g, must be finite and > 0", name, (double) value);
  return sima_status_ok ();
}

/* The name of dtype or layout value v. A choice, not a function pointer:
 * the firmware image runs this admission too, and its stack check
 * (tools/check-fw-stack.py) bounds every call only when the call graph
 * has no indirect calls but the HAL's. */
static const char *
value_name (int layouts, unsigned v)
{
  return layouts ? sima_layout_name ((SimaLayout) v)
      : sima_dtype_name ((SimaDType) v);
}

/* Appends text, truncating; buf stays terminated. (No snprintf: the EV74
 * firmware runs this admission too, with no printf in its image.) */
static void
append (char *buf, size_t size, const char *text)
{
  size_t used = strlen (buf);
  while (*text != '\0' && used + 1 < size)
    buf[used++] = *text++;
  buf[used] = '\0';
}

/* "float32, float16 or bfloat16" for a mask of dtypes (or of layouts)
 * below 32 */
static void
describe_set (unsigned set, int layouts, char *buf, size_t size)
{
  unsigned v;
  int n = 0, total = 0;

  for (v = 0; v < 32; v++)      /* no __builtin_popcount: libgcc call */
    total += (set >> v) & 1u;
  buf[0] = '\0';
  for (v = 0; v < 32; v++) {
    if (!(set & SIMA_OP_BIT (v)))
      continue;
    n++;
    append (buf, size, n == 1 ? "" : (n == total ? " or " : ", "));
    append (buf, size, value_name (layouts, v));
  }
}

SimaStatus
sima_check_port (const char *op, const char *role, const SimaTensorSpec *spec,
    unsigned dtypes, unsigned layouts)
{
  SimaStatus st = sima_shape_check (spec, role);
  char allowed[80];

  if (!sima_status_is_ok (&st))
    return st;
  if ((unsigned) spec->dtype >= 32 || !(dtypes & SIMA_OP_BIT (spec->dtype))) {
    describe_set (dtypes, 0, allowed, sizeof allowed);
    if (sima_dtype_size (spec->dtype) == 0)
      return sima_status_make (SIMA_UNSUPPORTED_DTYPE,
          "%s %s dtype %d is not a known dtype; must be %s", op, role,
          (int) spec->dtype, allowed);
    return sima_status_make (SIMA_UNSUPPORTED_DTYPE,
        "%s %s dtype is %s, must be %s", op, role,
        sima_dtype_name (spec->dtype), allowed);
  }
  if ((unsigned) spec->layout >= 32 || !(layouts & SIMA_OP_BIT (spec->layout))) {
    describe_set (layouts, 1, allowed, sizeof allowed);
    return sima_status_make (SIMA_UNSUPPORTED_LAYOUT,
        "%s %s layout is %s, must be %s", op, role,
        sima_layout_name (spec->layout), allowed);
  }
  return sima_status_ok ();
}

SimaStatus
sima_check_same_shape (const SimaTensorSpec *in, const SimaTensorSpec *out)
{
  int i;

  if (in->rank != out->rank)
    return sima_status_make (SIMA_SHAPE_MISMATCH,
        "input rank is %d but output rank is %d", in->rank, out->rank);
  for (i = 0; i < in->rank; i++)
    if (in->shape[i] != out->shape[i])
      return sima_status_make (SIMA_SHAPE_MISMATCH,
          "input extent on axis %d is %lld but output extent is %lld", i,
          (long long) in->shape[i], (long long) out->shape[i]);
  return sima_status_ok ();
}

SimaStatus
sima_tiled_admit (const SimaTensorSpec *spec, const char *role,
    SimaTiledGeometry *out)
{
  /* element bytes = the dtype's scalar size: 1 for INT8, 2 for the BF16
   * byte planes CastTess writes and DetessCast reads */
  if (spec->layout == SIMA_LAYOUT_MLA_CBLOCKED)
    return sima_cblocked_geometry_init (spec, role, out);
  return sima_tiled_geometry_init (spec, sima_dtype_size (spec->dtype), role,
      out);
}

SimaStatus
sima_check_unpack_ports (const char *op, const SimaTensorSpec *in,
    const SimaTensorSpec *out, unsigned in_dtypes, unsigned in_layouts)
{
  SimaStatus st = sima_check_port (op, "input", in, in_dtypes, in_layouts);

  if (sima_status_is_ok (&st))
    st = sima_check_port (op, "output", out, SIMA_OP_UNPACK_OUT_DTYPES,
        SIMA_OP_DENSE_LAYOUTS);
  if (sima_status_is_ok (&st))
    st = sima_check_same_shape (in, out);
  return st;
}

SimaStatus
sima_admit_unpack_layouts (const SimaTensorSpec *in,
    const SimaTensorSpec *out, SimaTiledGeometry *in_geometry,
    SimaStridedView *out_view)
{
  SimaStatus st = sima_strided_view_admit (out, "output", out_view);

  if (sima_status_is_ok (&st))
    st = sima_tiled_admit (in, "input", in_geometry);
  return st;
}

SimaStatus
sima_check_host_range (const char *op, const char *role, const void *data,
    uint64_t capacity, uint64_t required, int alignment)
{
  uintptr_t address = (uintptr_t) data;

  if (required == 0)
    return sima_status_ok ();  /* empty tensors permit NULL views */
  if (address == 0)
    return sima_status_make (SIMA_NULL_BUFFER,
        "%s %s buffer is NULL but %llu bytes are required", op, role,
        (unsigned long long) required);
  if (capacity < required)
    return sima_status_make (SIMA_CAPACITY_TOO_SMALL,
        "%s %s capacity is %llu bytes, %llu required", op, role,
        (unsigned long long) capacity, (unsigned long long) required);
  if (address % (uintptr_t) alignment != 0)
    return sima_status_make (SIMA_MISALIGNED_BUFFER,
        "%s %s address %#llx is not %d-byte aligned", op, role,
        (unsigned long long) address, alignment);
  if (required - 1 > (uint64_t) (UINTPTR_MAX - address))
    return sima_status_make (SIMA_ADDRESS_OVERFLOW,
        "%s %s range of %llu bytes at %#llx wraps the address space", op,
        role, (unsigned long long) required, (unsigned long long) address);
  return sima_status_ok ();
}

int
sima_ranges_overlap (uintptr_t a, uint64_t n, uintptr_t b, uint64_t m)
{
  /* they overlap iff the later one starts before the earlier one ends;
   * differences avoid computing an end that could be exactly 2^64 */
  return n > 0 && m > 0 && (a >= b ? a - b < m : b - a < n);
}

SimaStatus
sima_check_host_buffers (const char *op,
    const SimaConstHostBuffer *in, size_t n_in, uint64_t in_required,
    int in_alignment, const SimaHostBuffer *out, size_t n_out,
    uint64_t out_required, int out_alignment)
{
  SimaStatus st;

  if (n_in != 1 || n_out != 1 || in == NULL || out == NULL)
    return sima_status_make (SIMA_INVALID_ARITY,
        "%s execute takes 1 input and 1 output buffer, got %zu%s and %zu%s",
        op, n_in, in == NULL ? " (NULL array)" : "", n_out,
        out == NULL ? " (NULL array)" : "");
  st = sima_check_host_range (op, "input", in->data, in->capacity,
      in_required, in_alignment);
  if (sima_status_is_ok (&st))
    st = sima_check_host_range (op, "output", out->data, out->capacity,
        out_required, out_alignment);
  if (!sima_status_is_ok (&st))
    return st;
  if (sima_ranges_overlap ((uintptr_t) in->data, in_required,
          (uintptr_t) out->data, out_required))
    return sima_status_make (SIMA_OVERLAPPING_BUFFERS,
        "%s input [%#llx, +%llu) and output [%#llx, +%llu) overlap", op,
        (unsigned long long) (uintptr_t) in->data,
        (unsigned long long) in_required,
        (unsigned long long) (uintptr_t) out->data,
        (unsigned long long) out_required);
  return sima_status_ok ();
}

/* ---- tensor sets -------------------------------------------------------- */

/* "member I: <the single admission's message>", truncated to fit. By
 * value: the caller assigns the result to the status it passes. */
static SimaStatus
member_status (size_t i, SimaStatus st)
{
  return sima_status_make (st.code, "member %zu: %s", i, st.message);
}

SimaStatus
sima_check_set_inference (const SimaSetAdmission *a,
    SimaTensorSetLayout *input_layout, SimaTensorSetLayout *output_layout,
    uint64_t *element_count)
{
  SimaStatus st;
  uint64_t total = 0;
  size_t i, n;

  memset (input_layout, 0, sizeof *input_layout);
  memset (output_layout, 0, sizeof *output_layout);
  *element_count = 0;
  if (a->input == NULL || a->output == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "%s set request: %s set is NULL", a->op,
        a->input == NULL ? "input" : "output");
  n = a->input->n_members;
  if (a->output->n_members != n)
    return sima_status_make (SIMA_INVALID_ARITY,
        "%s: input set has %zu members, output set %zu", a->op, n,
        a->output->n_members);
  if (a->params_size > 0 && a->n_params != n)
    return sima_status_make (SIMA_INVALID_ARITY,
        "%s: the sets have %zu members but %zu params are given", a->op, n,
        a->n_params);
  if (a->params_size > 0 && a->params == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "%s set request: params is NULL", a->op);
  st = sima_tensor_set_check (a->input, "input", input_layout);
  if (sima_status_is_ok (&st))
    st = sima_tensor_set_check (a->output, "output", output_layout);
  for (i = 0; sima_status_is_ok (&st) && i < n; i++) {
    const void *params = a->params_size > 0
        ? (const char *) a->params + i * a->params_size : NULL;
    uint64_t count = 0;
    st = a->admit (&a->input->members[i].spec, &a->output->members[i].spec,
        params, (char *) a->members + i * a->member_size, &count);
    /* a one-member set is a single tensor: the single admission's words */
    if (!sima_status_is_ok (&st) && n > 1)
      st = member_status (i, st);
    else if (sima_checked_add (total, count, &total))
      st = sima_status_make (SIMA_SIZE_OVERFLOW,
          "%s: the element count of members 0..%zu exceeds 2^63 - 1", a->op,
          i);
  }
  if (!sima_status_is_ok (&st)) {
    memset (input_layout, 0, sizeof *input_layout);
    memset (output_layout, 0, sizeof *output_layout);
    return st;
  }
  *element_count = total;
  return st;
}
