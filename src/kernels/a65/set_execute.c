/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The A65 tensor-set executor (set_execute.h). Every check happens in a
 * first pass; the second pass only calls the single-member executors,
 * whose own checks then cannot fail: each sub-buffer starts at an aligned
 * address inside a set range that was checked for capacity and wrap-around,
 * holds its member's bytes, and input and output sets are disjoint.
 */
#include "set_execute.h"

#include "../ops/op_common.h"

/* A member's range lies inside its set: offset + bytes <= set bytes,
 * without computing a sum that could wrap. */
static int
inside (uint64_t offset, uint64_t bytes, uint64_t set_bytes)
{
  return bytes <= set_bytes && offset <= set_bytes - bytes;
}

static SimaStatus
check_member_address (const char *op, const char *role, size_t i,
    const void *base, uint64_t offset, int alignment)
{
  uintptr_t address = (uintptr_t) base + (uintptr_t) offset;

  if (alignment > 0 && address % (uintptr_t) alignment != 0)
    return sima_status_make (SIMA_MISALIGNED_BUFFER,
        "%s %s member %zu address %#llx (offset %llu) is not %d-byte "
        "aligned", op, role, i, (unsigned long long) address,
        (unsigned long long) offset, alignment);
  return sima_status_ok ();
}

SimaStatus
sima_a65_set_prepare (const char *op, size_t n, const void *plans,
    size_t plan_size, void *a65, size_t a65_size,
    SimaA65SetMemberPrepareFn prepare, const SimaTensorSetLayout *input,
    const SimaTensorSetLayout *output, uint64_t *input_offset,
    uint64_t *output_offset)
{
  size_t i;

  if (n < 1 || n > SIMA_TENSOR_SET_MAX_MEMBERS || input->n_members != n
      || output->n_members != n)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "%s A65 set prepare: plan has %zu members (layouts %zu and %zu); "
        "was it made by the set check_inference?", op, n, input->n_members,
        output->n_members);
  for (i = 0; i < n; i++) {
    SimaStatus st = prepare ((const char *) plans + i * plan_size,
        (char *) a65 + i * a65_size);
    if (!sima_status_is_ok (&st))
      return sima_status_make (st.code, "member %zu: %s", i, st.message);
    input_offset[i] = input->offset[i];
    output_offset[i] = output->offset[i];
  }
  return sima_status_ok ();
}

SimaStatus
sima_a65_set_execute (const SimaA65SetExecution *x,
    const SimaConstHostBuffer *in, const SimaHostBuffer *out)
{
  SimaA65SetMemberNeeds needs[SIMA_TENSOR_SET_MAX_MEMBERS];
  SimaStatus st;
  size_t i;

  if (x->n_members < 1 || x->n_members > SIMA_TENSOR_SET_MAX_MEMBERS)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "%s A65 set execute: plan has %zu members; was it made by the set "
        "prepare?", x->op, x->n_members);
  if (in == NULL || out == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "%s A65 set execute: %s buffer is NULL", x->op,
        in == NULL ? "input" : "output");
  for (i = 0; i < x->n_members; i++) {
    SimaA65SetMemberNeeds *m = &needs[i];
    x->needs ((const char *) x->members + i * x->member_size, m);
    if (!m->prepared)
      return sima_status_make (SIMA_INVALID_ARGUMENT,
          "%s A65 set execute: member %zu is not prepared", x->op, i);
    if (m->element_count == 0)
      continue;
    if (!inside (x->input_offset[i], m->input_bytes, x->input_bytes)
        || !inside (x->output_offset[i], m->output_bytes, x->output_bytes))
      return sima_status_make (SIMA_INVALID_ARGUMENT,
          "%s A65 set execute: member %zu lies outside the sets (%llu and "
          "%llu bytes); was the plan made by the set prepare?", x->op, i,
          (unsigned long long) x->input_bytes,
          (unsigned long long) x->output_bytes);
  }
  st = sima_check_host_range (x->op, "input set", in->data, in->capacity,
      x->input_bytes, 1);
  if (sima_status_is_ok (&st))
    st = sima_check_host_range (x->op, "output set", out->data,
        out->capacity, x->output_bytes, 1);
  for (i = 0; sima_status_is_ok (&st) && i < x->n_members; i++) {
    if (needs[i].element_count == 0)
      continue;                 /* empty: no address, may sit anywhere */
    st = check_member_address (x->op, "input", i, in->data,
        x->input_offset[i], needs[i].input_alignment);
    if (sima_status_is_ok (&st))
      st = check_member_address (x->op, "output", i, out->data,
          x->output_offset[i], needs[i].output_alignment);
  }
  if (!sima_status_is_ok (&st))
    return st;
  if (sima_ranges_overlap ((uintptr_t) in->data, x->input_bytes,
          (uintptr_t) out->data, x->output_bytes))
    return sima_status_make (SIMA_OVERLAPPING_BUFFERS,
        "%s input set [%#llx, +%llu) and output set [%#llx, +%llu) overlap",
        x->op, (unsigned long long) (uintptr_t) in->data,
        (unsigned long long) x->input_bytes,
        (unsigned long long) (uintptr_t) out->data,
        (unsigned long long) x->output_bytes);

  for (i = 0; i < x->n_members; i++) {
    SimaConstHostBuffer mi;
    SimaHostBuffer mo;
    if (needs[i].element_count == 0)
      continue;
    mi.data = (const uint8_t *) in->data + x->input_offset[i];
    mi.capacity = in->capacity - x->input_offset[i];
    mo.data = (uint8_t *) out->data + x->output_offset[i];
    mo.capacity = out->capacity - x->output_offset[i];
    st = x->run ((const char *) x->members + i * x->member_size, x->pool,
        &mi, &mo);
    if (!sima_status_is_ok (&st))
      return st;                /* unreachable after the checks above */
  }
  return sima_status_ok ();
}
