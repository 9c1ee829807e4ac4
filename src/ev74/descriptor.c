/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Binding encoded descriptors to bus addresses. Representability is checked
 * here again (encode checked the spans alone): addresses and spans inside
 * the 32-bit aperture, bindings covering their spans, no overlap.
 */
#include <simaai/kernels/ev74/descriptor.h>
#include <simaai/kernels/ev74/wire.h>

static int
valid_header (const SimaEv74Descriptor *d)
{
  return d->length >= SIMA_EV74_HEADER_BYTES
      && d->length <= SIMA_EV74_DESCRIPTOR_MAX_BYTES
      && sima_ev74_get_u32 (d->bytes, SIMA_EV74_OFF_MAGIC) == SIMA_EV74_MAGIC
      && sima_ev74_get_u16 (d->bytes, SIMA_EV74_OFF_LENGTH) == d->length;
}

uint16_t
sima_ev74_descriptor_route (const SimaEv74Descriptor *d)
{
  return valid_header (d) ? sima_ev74_get_u16 (d->bytes, SIMA_EV74_OFF_ROUTE)
      : 0;
}

uint64_t
sima_ev74_descriptor_input_span (const SimaEv74Descriptor *d)
{
  return valid_header (d) ? sima_ev74_get_u64 (d->bytes,
      SIMA_EV74_OFF_INPUT_SPAN) : 0;
}

uint64_t
sima_ev74_descriptor_output_span (const SimaEv74Descriptor *d)
{
  return valid_header (d) ? sima_ev74_get_u64 (d->bytes,
      SIMA_EV74_OFF_OUTPUT_SPAN) : 0;
}

static SimaStatus
check_binding (const char *role, const SimaEv74Binding *b, uint64_t span)
{
  if (b->bus_address >= SIMA_EV74_APERTURE_LIMIT
      || span > SIMA_EV74_APERTURE_LIMIT - b->bus_address)
    return sima_status_make (SIMA_NOT_REPRESENTABLE,
        "%s range of %llu bytes at bus address %#llx leaves the 32-bit EV74 "
        "aperture", role, (unsigned long long) span,
        (unsigned long long) b->bus_address);
  if (b->length < span)
    return sima_status_make (SIMA_CAPACITY_TOO_SMALL,
        "%s binding has %llu bytes, the descriptor's span needs %llu", role,
        (unsigned long long) b->length, (unsigned long long) span);
  return sima_status_ok ();
}

SimaStatus
sima_ev74_descriptor_bind (SimaEv74Descriptor *d, const SimaEv74Binding *in,
    const SimaEv74Binding *out)
{
  uint64_t in_span, out_span;
  SimaStatus st;

  if (d == NULL || in == NULL || out == NULL || !valid_header (d))
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "EV74 bind: %s", d == NULL || in == NULL || out == NULL
        ? "NULL argument" : "not an encoded descriptor");
  in_span = sima_ev74_get_u64 (d->bytes, SIMA_EV74_OFF_INPUT_SPAN);
  out_span = sima_ev74_get_u64 (d->bytes, SIMA_EV74_OFF_OUTPUT_SPAN);
  st = check_binding ("input", in, in_span);
  if (sima_status_is_ok (&st))
    st = check_binding ("output", out, out_span);
  if (!sima_status_is_ok (&st))
    return st;
  if (in_span > 0 && out_span > 0
      && in->bus_address < out->bus_address + out_span
      && out->bus_address < in->bus_address + in_span)
    return sima_status_make (SIMA_OVERLAPPING_BUFFERS,
        "input bus range [%#llx, +%llu) overlaps output [%#llx, +%llu)",
        (unsigned long long) in->bus_address, (unsigned long long) in_span,
        (unsigned long long) out->bus_address, (unsigned long long) out_span);
  /* bound lengths are u32 on the wire; more than the aperture is pointless */
  sima_ev74_put_u32 (d->bytes, SIMA_EV74_OFF_INPUT_LENGTH,
      (uint32_t) (in->length > UINT32_MAX ? UINT32_MAX : in->length));
  sima_ev74_put_u32 (d->bytes, SIMA_EV74_OFF_OUTPUT_LENGTH,
      (uint32_t) (out->length > UINT32_MAX ? UINT32_MAX : out->length));
  sima_ev74_put_u64 (d->bytes, SIMA_EV74_OFF_INPUT_ADDRESS, in->bus_address);
  sima_ev74_put_u64 (d->bytes, SIMA_EV74_OFF_OUTPUT_ADDRESS, out->bus_address);
  return sima_status_ok ();
}
