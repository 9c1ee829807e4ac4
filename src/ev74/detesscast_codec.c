/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Encoding DetessCast v1 descriptors (docs/ev74-descriptors.md, route 52):
 * the BF16 MlaTiled input's geometry, the output dtype and, for outputs that
 * are not row-major, the output strides. No parameters.
 */
#include <simaai/kernels/ev74/detesscast.h>
#include <simaai/kernels/ev74/detesscast_wire.h>

#include <string.h>

#include "codec_private.h"

#define OFF(field) SIMA_EV74_DC_OFF (field)

SimaStatus
sima_ev74_detesscast_encode_relocatable (const SimaDetessCastPlan *plan,
    SimaEv74Descriptor *desc)
{
  if (plan == NULL || desc == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "DetessCast EV74 encode: %s is NULL",
        plan == NULL ? "plan" : "desc");
  return sima_ev74_finish_encode (sima_ev74_detesscast_encode_into (plan,
      desc->bytes, &desc->length), desc);
}

SimaStatus
sima_ev74_detesscast_encode_into (const SimaDetessCastPlan *plan,
    uint8_t *b, uint32_t *length)
{
  const SimaTensorSpec *in, *out;
  unsigned flags = 0;
  uint32_t len;
  int i;

  if (plan->input_bytes > UINT32_MAX || plan->output_bytes > UINT32_MAX)
    return sima_status_make (SIMA_NOT_REPRESENTABLE,
        "DetessCast %s span is %llu bytes; the EV74 aperture addresses at "
        "most %lu", plan->input_bytes > UINT32_MAX ? "input" : "output",
        (unsigned long long) (plan->input_bytes > UINT32_MAX
            ? plan->input_bytes : plan->output_bytes),
        (unsigned long) UINT32_MAX);
  in = &plan->input;
  out = &plan->output;
  /* an empty output's view is row-major (all strides 0): dense */
  if (!sima_strided_view_is_row_major (&plan->output_view))
    flags |= SIMA_EV74_DC_FLAG_STRIDED;
  if (in->tiled.cblock)
    flags |= SIMA_EV74_DC_FLAG_CBLOCK;

  len = sima_ev74_detesscast_length (flags);
  memset (b, 0, len);
  sima_ev74_put_u32 (b, OFF (magic), SIMA_EV74_MAGIC);
  sima_ev74_put_u16 (b, OFF (version), SIMA_EV74_DETESSCAST_VERSION);
  sima_ev74_put_u16 (b, OFF (length), (uint16_t) len);
  sima_ev74_put_u16 (b, OFF (route), SIMA_EV74_ROUTE_DETESSCAST);
  sima_ev74_put_u16 (b, OFF (flags), (uint16_t) flags);
  sima_ev74_put_u64 (b, OFF (input_span), plan->input_bytes);
  sima_ev74_put_u64 (b, OFF (output_span), plan->output_bytes);
  sima_ev74_put_u8 (b, OFF (output_dtype), (uint8_t) out->dtype);
  sima_ev74_put_u8 (b, OFF (rank), (uint8_t) in->rank);
  sima_ev74_put_u8 (b, OFF (channels), (uint8_t) in->tiled.channels);
  for (i = 0; i < in->rank; i++)
    sima_ev74_put_i64 (b, OFF (shape) + 8 * (size_t) i, in->shape[i]);
  for (i = 0; i < 4; i++) {
    sima_ev74_put_u8 (b, OFF (axes) + (size_t) i, (uint8_t) in->tiled.axes[i]);
    sima_ev74_put_i64 (b, OFF (tile_shape) + 8 * (size_t) i,
        in->tiled.tile_shape[i]);
  }
  sima_ev74_put_u64 (b, OFF (element_count), plan->element_count);
  if (flags & SIMA_EV74_DC_FLAG_STRIDED)
    for (i = 0; i < in->rank; i++)
      sima_ev74_put_i64 (b, SIMA_EV74_DETESSCAST_BASE_BYTES + 8 * (size_t) i,
          out->strides_bytes[i]);
  sima_ev74_put_u32 (b, OFF (crc), sima_ev74_descriptor_crc (b, len));
  *length = len;
  return sima_status_ok ();
}
