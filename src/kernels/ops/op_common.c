/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "op_common.h"

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

typedef const char *(*NameFn) (unsigned value);

static const char *
dtype_name (unsigned v)
{
  return sima_dtype_name ((SimaDType) v);
}

static const char *
layout_name (unsigned v)
{
  return sima_layout_name ((SimaLayout) v);
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

/* "float32, float16 or bfloat16" for a mask of values below 32 */
static void
describe_set (unsigned set, NameFn name, char *buf, size_t size)
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
    append (buf, size, name (v));
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
    describe_set (dtypes, dtype_name, allowed, sizeof allowed);
    if (sima_dtype_size (spec->dtype) == 0)
      return sima_status_make (SIMA_UNSUPPORTED_DTYPE,
          "%s %s dtype %d is not a known dtype; must be %s", op, role,
          (int) spec->dtype, allowed);
    return sima_status_make (SIMA_UNSUPPORTED_DTYPE,
        "%s %s dtype is %s, must be %s", op, role,
        sima_dtype_name (spec->dtype), allowed);
  }
  if ((unsigned) spec->layout >= 32 || !(layouts & SIMA_OP_BIT (spec->layout))) {
    describe_set (layouts, layout_name, allowed, sizeof allowed);
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

typedef struct {
  const char *role;
  uintptr_t address;
  uint64_t capacity;
  uint64_t required;
  int alignment;
} BufferUse;

static SimaStatus
check_buffer (const char *op, const BufferUse *b)
{
  if (b->required == 0)
    return sima_status_ok ();  /* empty tensors permit NULL views */
  if (b->address == 0)
    return sima_status_make (SIMA_NULL_BUFFER,
        "%s %s buffer is NULL but %llu bytes are required", op, b->role,
        (unsigned long long) b->required);
  if (b->capacity < b->required)
    return sima_status_make (SIMA_CAPACITY_TOO_SMALL,
        "%s %s capacity is %llu bytes, %llu required", op, b->role,
        (unsigned long long) b->capacity, (unsigned long long) b->required);
  if (b->address % (uintptr_t) b->alignment != 0)
    return sima_status_make (SIMA_MISALIGNED_BUFFER,
        "%s %s address %#llx is not %d-byte aligned", op, b->role,
        (unsigned long long) b->address, b->alignment);
  if (b->required - 1 > (uint64_t) (UINTPTR_MAX - b->address))
    return sima_status_make (SIMA_ADDRESS_OVERFLOW,
        "%s %s range of %llu bytes at %#llx wraps the address space", op,
        b->role, (unsigned long long) b->required,
        (unsigned long long) b->address);
  return sima_status_ok ();
}

SimaStatus
sima_check_host_buffers (const char *op,
    const SimaConstHostBuffer *in, size_t n_in, uint64_t in_required,
    int in_alignment, const SimaHostBuffer *out, size_t n_out,
    uint64_t out_required, int out_alignment)
{
  BufferUse bi, bo;
  SimaStatus st;

  if (n_in != 1 || n_out != 1 || in == NULL || out == NULL)
    return sima_status_make (SIMA_INVALID_ARITY,
        "%s execute takes 1 input and 1 output buffer, got %zu%s and %zu%s",
        op, n_in, in == NULL ? " (NULL array)" : "", n_out,
        out == NULL ? " (NULL array)" : "");
  bi = (BufferUse) { "input", (uintptr_t) in->data, in->capacity,
    in_required, in_alignment };
  bo = (BufferUse) { "output", (uintptr_t) out->data, out->capacity,
    out_required, out_alignment };
  st = check_buffer (op, &bi);
  if (sima_status_is_ok (&st))
    st = check_buffer (op, &bo);
  if (!sima_status_is_ok (&st))
    return st;
  /* [a, a+n) and [b, b+m) overlap iff the later one starts before the
   * earlier one ends; differences avoid computing an end that could be
   * exactly 2^64. */
  if (bi.required > 0 && bo.required > 0
      && (bi.address >= bo.address ? bi.address - bo.address < bo.required
          : bo.address - bi.address < bi.required))
    return sima_status_make (SIMA_OVERLAPPING_BUFFERS,
        "%s input [%#llx, +%llu) and output [%#llx, +%llu) overlap", op,
        (unsigned long long) bi.address, (unsigned long long) bi.required,
        (unsigned long long) bo.address, (unsigned long long) bo.required);
  return sima_status_ok ();
}
