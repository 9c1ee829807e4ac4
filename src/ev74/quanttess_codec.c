/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Encoding QuantTess v1 descriptors (docs/ev74-descriptors.md). Only the
 * wire helpers write bytes; offsets come from quanttess_wire.h.
 */
#include <simaai/kernels/ev74/quanttess.h>
#include <simaai/kernels/ev74/quanttess_wire.h>

#include <string.h>

#define OFF(field) SIMA_EV74_QT_OFF (field)

SimaStatus
sima_ev74_quanttess_encode_relocatable (const SimaQuantTessPlan *plan,
    SimaEv74Descriptor *desc)
{
  const SimaTensorSpec *in;
  uint8_t *b;
  uint32_t mbits;
  int i;

  if (plan == NULL || desc == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "QuantTess EV74 encode: %s is NULL", plan == NULL ? "plan" : "desc");
  /* the device addresses 32 bits: a span must fit before any binding */
  if (plan->input_bytes > UINT32_MAX || plan->output_bytes > UINT32_MAX)
    return sima_status_make (SIMA_NOT_REPRESENTABLE,
        "QuantTess %s span is %llu bytes; the EV74 aperture addresses at "
        "most %lu", plan->input_bytes > UINT32_MAX ? "input" : "output",
        (unsigned long long) (plan->input_bytes > UINT32_MAX
            ? plan->input_bytes : plan->output_bytes),
        (unsigned long) UINT32_MAX);

  in = &plan->input;
  memset (desc, 0, sizeof *desc);
  desc->length = SIMA_EV74_QUANTTESS_BYTES;
  b = desc->bytes;
  sima_ev74_put_u32 (b, OFF (magic), SIMA_EV74_MAGIC);
  sima_ev74_put_u16 (b, OFF (version), SIMA_EV74_QUANTTESS_VERSION);
  sima_ev74_put_u16 (b, OFF (length), SIMA_EV74_QUANTTESS_BYTES);
  sima_ev74_put_u16 (b, OFF (route), SIMA_EV74_ROUTE_QUANTTESS);
  sima_ev74_put_u64 (b, OFF (input_span), plan->input_bytes);
  sima_ev74_put_u64 (b, OFF (output_span), plan->output_bytes);
  sima_ev74_put_u8 (b, OFF (input_dtype), (uint8_t) in->dtype);
  sima_ev74_put_u8 (b, OFF (rank), (uint8_t) in->rank);
  sima_ev74_put_u8 (b, OFF (rounding), (uint8_t) plan->params.rounding);
  sima_ev74_put_u8 (b, OFF (channels), (uint8_t) plan->output.tiled.channels);
  sima_ev74_put_u32 (b, OFF (zero_point), (uint32_t) plan->params.zero_point);
  memcpy (&mbits, &plan->params.multiplier, sizeof mbits);
  sima_ev74_put_u32 (b, OFF (multiplier_bits), mbits);
  sima_ev74_put_u8 (b, OFF (input_layout), (uint8_t) in->layout);
  for (i = 0; i < in->rank; i++) {
    sima_ev74_put_i64 (b, OFF (shape) + 8 * (size_t) i, in->shape[i]);
    /* the caller's strides for strided views (the device runs the same
     * admission on them); nothing for contiguous ones */
    if (in->layout == SIMA_LAYOUT_STRIDED)
      sima_ev74_put_i64 (b, OFF (input_strides) + 8 * (size_t) i,
          in->strides_bytes[i]);
  }
  for (i = 0; i < 4; i++) {
    sima_ev74_put_u8 (b, OFF (axes) + (size_t) i,
        (uint8_t) plan->output.tiled.axes[i]);
    sima_ev74_put_i64 (b, OFF (tile_shape) + 8 * (size_t) i,
        plan->output.tiled.tile_shape[i]);
  }
  sima_ev74_put_u64 (b, OFF (element_count), plan->element_count);
  sima_ev74_put_u32 (b, OFF (crc), sima_ev74_descriptor_crc (b, desc->length));
  return sima_status_ok ();
}
