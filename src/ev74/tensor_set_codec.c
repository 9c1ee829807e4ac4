/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Encoding a whole tensor set as one EV74 job (docs/ev74-descriptors.md,
 * "TensorSet v1"): the TensorSet container, or the plain single descriptor
 * when the set is one member at offset 0 on both sides (what a
 * single-tensor buffer is), so that such a plan neither needs the set
 * capability nor changes a byte of what the single encoders send.
 *
 * One container writer serves the four operations; each op supplies only
 * "write member k here" (its byte writer from codec_private.h). Members
 * are written straight into the container's bytes, one after the other:
 * no temporary descriptor per member.
 */
#include <simaai/kernels/ev74/detesscast.h>
#include <simaai/kernels/ev74/tensor_set.h>
#include <simaai/kernels/ev74/tensor_set_wire.h>

#include <string.h>

#include "codec_private.h"

#define TS(field) SIMA_EV74_TS_OFF (field)
#define ENTRY(field) SIMA_EV74_TS_ENTRY_OFF (field)

typedef SimaStatus (*MemberWriter) (const void *plan, size_t k, uint8_t *b,
    uint32_t *length);

/* What the writer needs of a set plan, whichever the op. */
typedef struct {
  const char *op;
  size_t n_members;
  const SimaTensorSetLayout *input;
  const SimaTensorSetLayout *output;
  MemberWriter write;
  const void *plan;
} SetFields;

static int
needs_container (const SetFields *f)
{
  return f->n_members != 1 || f->input->offset[0] != 0
      || f->output->offset[0] != 0;
}

static SimaStatus
too_large (const char *op, const char *what, size_t k, uint64_t v)
{
  return sima_status_make (SIMA_NOT_REPRESENTABLE,
      "%s tensor set %s of member %zu is %llu; the EV74 aperture addresses "
      "at most %lu bytes", op, what, k, (unsigned long long) v,
      (unsigned long) UINT32_MAX);
}

/* Everything that could refuse the plan is checked before the first byte
 * is written, so a refused plan leaves desc untouched. */
static SimaStatus
check_fields (const SetFields *f)
{
  size_t k;

  if (f->n_members < 1 || f->n_members > SIMA_EV74_TENSOR_SET_MAX_MEMBERS
      || f->input->n_members != f->n_members
      || f->output->n_members != f->n_members)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "%s tensor set EV74 encode: the plan has %zu members (layouts %zu "
        "and %zu); a set has 1 to %d", f->op, f->n_members,
        f->input->n_members, f->output->n_members,
        (int) SIMA_EV74_TENSOR_SET_MAX_MEMBERS);
  /* spans are the capacities; every member lies inside them, so these
   * bound every member span and every nonempty member's offset too */
  if (f->input->capacity > UINT32_MAX || f->output->capacity > UINT32_MAX)
    return sima_status_make (SIMA_NOT_REPRESENTABLE,
        "%s tensor set %s capacity is %llu bytes; the EV74 aperture "
        "addresses at most %lu", f->op, f->input->capacity > UINT32_MAX
        ? "input" : "output", (unsigned long long) (f->input->capacity
            > UINT32_MAX ? f->input->capacity : f->output->capacity),
        (unsigned long) UINT32_MAX);
  /* empty members may sit anywhere below 2^63 on the host; the device
   * binds each member at base + offset, which must be a 32-bit bus address */
  for (k = 0; k < f->n_members; k++) {
    if (f->input->offset[k] > UINT32_MAX)
      return too_large (f->op, "input offset", k, f->input->offset[k]);
    if (f->output->offset[k] > UINT32_MAX)
      return too_large (f->op, "output offset", k, f->output->offset[k]);
  }
  return sima_status_ok ();
}

static SimaStatus
encode_set (const SetFields *f, SimaEv74Descriptor *desc)
{
  uint8_t *b;
  uint32_t at, length = 0;
  SimaStatus st;
  size_t k;

  if (f->plan == NULL || desc == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "%s tensor set EV74 encode: %s is NULL", f->op,
        f->plan == NULL ? "plan" : "desc");
  st = check_fields (f);
  if (!sima_status_is_ok (&st))
    return st;
  if (!needs_container (f))   /* byte for byte the single encoder's */
    return sima_ev74_finish_encode (f->write (f->plan, 0, desc->bytes,
            &desc->length), desc);

  b = desc->bytes;
  at = sima_ev74_tensor_set_members ((unsigned) f->n_members);
  memset (b, 0, at);
  for (k = 0; k < f->n_members; k++) {
    uint32_t e = sima_ev74_tensor_set_entry ((unsigned) k);
    /* at + the largest member always fits: MAX_BYTES is 16 of them after
     * the largest table (tensor_set_wire.h) */
    memset (b + at, 0, sima_ev74_tensor_set_align (at) - at);   /* padding */
    at = sima_ev74_tensor_set_align (at);
    st = f->write (f->plan, k, b + at, &length);
    if (!sima_status_is_ok (&st)) {
      /* an inconsistent plan (a member span the layout does not bound) */
      desc->length = 0;
      return st;
    }
    sima_ev74_put_u64 (b, e + ENTRY (input_offset), f->input->offset[k]);
    sima_ev74_put_u64 (b, e + ENTRY (output_offset), f->output->offset[k]);
    sima_ev74_put_u16 (b, e + ENTRY (length), (uint16_t) length);
    at += length;
  }
  desc->length = at;
  sima_ev74_put_u32 (b, TS (magic), SIMA_EV74_MAGIC);
  sima_ev74_put_u16 (b, TS (version), SIMA_EV74_TENSOR_SET_VERSION);
  sima_ev74_put_u16 (b, TS (length), (uint16_t) at);
  sima_ev74_put_u16 (b, TS (route), SIMA_EV74_ROUTE_TENSOR_SET);
  sima_ev74_put_u64 (b, TS (input_span), f->input->capacity);
  sima_ev74_put_u64 (b, TS (output_span), f->output->capacity);
  sima_ev74_put_u8 (b, TS (count), (uint8_t) f->n_members);
  sima_ev74_put_u32 (b, TS (crc), sima_ev74_descriptor_crc (b, at));
  return sima_ev74_finish_encode (sima_status_ok (), desc);
}

/* ---- the four operations --------------------------------------------- */

static SimaStatus
write_quanttess (const void *plan, size_t k, uint8_t *b, uint32_t *length)
{
  return sima_ev74_quanttess_encode_into (
      &((const SimaQuantTessSetPlan *) plan)->members[k], b, length);
}

static SimaStatus
write_casttess (const void *plan, size_t k, uint8_t *b, uint32_t *length)
{
  return sima_ev74_casttess_encode_into (
      &((const SimaCastTessSetPlan *) plan)->members[k], b, length);
}

static SimaStatus
write_detessdequant (const void *plan, size_t k, uint8_t *b, uint32_t *length)
{
  return sima_ev74_detessdequant_encode_into (
      &((const SimaDetessDequantSetPlan *) plan)->members[k], b, length);
}

static SimaStatus
write_detesscast (const void *plan, size_t k, uint8_t *b, uint32_t *length)
{
  return sima_ev74_detesscast_encode_into (
      &((const SimaDetessCastSetPlan *) plan)->members[k], b, length);
}

#define SET_FIELDS(name, p, writer) \
  ((SetFields) { name, (p)->n_members, &(p)->input_layout, \
      &(p)->output_layout, writer, p })

int
sima_ev74_quanttess_set_needs_container (const SimaQuantTessSetPlan *plan)
{
  SetFields f = SET_FIELDS ("QuantTess", plan, write_quanttess);
  return needs_container (&f);
}

int
sima_ev74_casttess_set_needs_container (const SimaCastTessSetPlan *plan)
{
  SetFields f = SET_FIELDS ("CastTess", plan, write_casttess);
  return needs_container (&f);
}

int
sima_ev74_detessdequant_set_needs_container (
    const SimaDetessDequantSetPlan *plan)
{
  SetFields f = SET_FIELDS ("DetessDequant", plan, write_detessdequant);
  return needs_container (&f);
}

int
sima_ev74_detesscast_set_needs_container (const SimaDetessCastSetPlan *plan)
{
  SetFields f = SET_FIELDS ("DetessCast", plan, write_detesscast);
  return needs_container (&f);
}

SimaStatus
sima_ev74_quanttess_set_encode_relocatable (const SimaQuantTessSetPlan *plan,
    SimaEv74Descriptor *out)
{
  if (plan == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "QuantTess tensor set EV74 encode: plan is NULL");
  return encode_set (&SET_FIELDS ("QuantTess", plan, write_quanttess), out);
}

SimaStatus
sima_ev74_casttess_set_encode_relocatable (const SimaCastTessSetPlan *plan,
    SimaEv74Descriptor *out)
{
  if (plan == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "CastTess tensor set EV74 encode: plan is NULL");
  return encode_set (&SET_FIELDS ("CastTess", plan, write_casttess), out);
}

SimaStatus
sima_ev74_detessdequant_set_encode_relocatable (
    const SimaDetessDequantSetPlan *plan, SimaEv74Descriptor *out)
{
  if (plan == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "DetessDequant tensor set EV74 encode: plan is NULL");
  return encode_set (&SET_FIELDS ("DetessDequant", plan,
          write_detessdequant), out);
}

SimaStatus
sima_ev74_detesscast_set_encode_relocatable (
    const SimaDetessCastSetPlan *plan, SimaEv74Descriptor *out)
{
  if (plan == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "DetessCast tensor set EV74 encode: plan is NULL");
  return encode_set (&SET_FIELDS ("DetessCast", plan, write_detesscast),
      out);
}

/* ---- for the transport ------------------------------------------------- */

size_t
sima_ev74_tensor_set_member_routes (const uint8_t *b, uint32_t length,
    uint16_t *routes)
{
  unsigned count, k;
  uint32_t at;

  if (length < SIMA_EV74_TENSOR_SET_TABLE)
    return 0;
  count = sima_ev74_get_u8 (b, TS (count));
  if (count > SIMA_EV74_TENSOR_SET_MAX_MEMBERS
      || sima_ev74_tensor_set_members (count) > length)
    return 0;
  at = sima_ev74_tensor_set_members (count);
  for (k = 0; k < count; k++) {
    at = sima_ev74_tensor_set_align (at);
    if (at > length || length - at < SIMA_EV74_HEADER_BYTES)
      return k;
    routes[k] = sima_ev74_get_u16 (b, at + SIMA_EV74_OFF_ROUTE);
    at += sima_ev74_get_u16 (b, sima_ev74_tensor_set_entry (k)
        + ENTRY (length));
  }
  return count;
}
