/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Encoding DetessDequant v1 descriptors (docs/ev74-descriptors.md). The
 * exact table of a subnormal scale comes from the core's integer stages
 * (numerics/dequant_exact.h), the same ones the A65 plan uses, for the
 * plan's convention (the DIVIDE flag says which).
 */
#include <simaai/kernels/ev74/detessdequant.h>
#include <simaai/kernels/ev74/detessdequant_wire.h>

#include <string.h>

#include "codec_private.h"
#include "numerics/dequant_exact.h"

#define OFF(field) SIMA_EV74_DD_OFF (field)

SimaStatus
sima_ev74_detessdequant_encode_relocatable (const SimaDetessDequantPlan *plan,
    SimaEv74Descriptor *desc)
{
  if (plan == NULL || desc == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "DetessDequant EV74 encode: %s is NULL",
        plan == NULL ? "plan" : "desc");
  return sima_ev74_finish_encode (sima_ev74_detessdequant_encode_into (plan,
      desc->bytes, &desc->length), desc);
}

SimaStatus
sima_ev74_detessdequant_encode_into (const SimaDetessDequantPlan *plan,
    uint8_t *b, uint32_t *length)
{
  const SimaTensorSpec *in, *out;
  unsigned flags = 0, scalar;
  int divide;
  uint32_t scale_bits, table_at, len;
  int i;

  if (plan->input_bytes > UINT32_MAX || plan->output_bytes > UINT32_MAX)
    return sima_status_make (SIMA_NOT_REPRESENTABLE,
        "DetessDequant %s span is %llu bytes; the EV74 aperture addresses at "
        "most %lu", plan->input_bytes > UINT32_MAX ? "input" : "output",
        (unsigned long long) (plan->input_bytes > UINT32_MAX
            ? plan->input_bytes : plan->output_bytes),
        (unsigned long) UINT32_MAX);
  in = &plan->input;
  out = &plan->output;
  scalar = (unsigned) plan->output_view.scalar_bytes;
  memcpy (&scale_bits, &plan->params.scale, sizeof scale_bits);
  if (!sima_strided_view_is_row_major (&plan->output_view))
    flags |= SIMA_EV74_DD_FLAG_STRIDED;
  if (in->layout == SIMA_LAYOUT_MLA_CBLOCKED)
    flags |= SIMA_EV74_DD_FLAG_CBLOCKED;
  if ((scale_bits & 0x7f800000u) == 0)   /* subnormal (admitted: not 0) */
    flags |= SIMA_EV74_DD_FLAG_EXACT_TABLE;
  if (in->layout == SIMA_LAYOUT_MLA_TILED && in->tiled.cblock)
    flags |= SIMA_EV74_DD_FLAG_CBLOCK;
  divide = plan->params.convention == SIMA_SCALE_DIVIDE;
  if (divide)
    flags |= SIMA_EV74_DD_FLAG_DIVIDE;

  len = sima_ev74_detessdequant_length (flags, scalar);
  memset (b, 0, len);
  sima_ev74_put_u32 (b, OFF (magic), SIMA_EV74_MAGIC);
  sima_ev74_put_u16 (b, OFF (version), SIMA_EV74_DETESSDEQUANT_VERSION);
  sima_ev74_put_u16 (b, OFF (length), (uint16_t) len);
  sima_ev74_put_u16 (b, OFF (route), SIMA_EV74_ROUTE_DETESSDEQUANT);
  sima_ev74_put_u16 (b, OFF (flags), (uint16_t) flags);
  sima_ev74_put_u64 (b, OFF (input_span), plan->input_bytes);
  sima_ev74_put_u64 (b, OFF (output_span), plan->output_bytes);
  sima_ev74_put_u8 (b, OFF (output_dtype), (uint8_t) out->dtype);
  sima_ev74_put_u8 (b, OFF (rank), (uint8_t) in->rank);
  for (i = 0; i < in->rank; i++)
    sima_ev74_put_i64 (b, OFF (shape) + 8 * (size_t) i, in->shape[i]);
  if (!(flags & SIMA_EV74_DD_FLAG_CBLOCKED)) {
    sima_ev74_put_u8 (b, OFF (channels), (uint8_t) in->tiled.channels);
    for (i = 0; i < 4; i++) {
      sima_ev74_put_u8 (b, OFF (axes) + (size_t) i, (uint8_t) in->tiled.axes[i]);
      sima_ev74_put_i64 (b, OFF (tile_shape) + 8 * (size_t) i,
          in->tiled.tile_shape[i]);
    }
  }
  sima_ev74_put_u64 (b, OFF (element_count), plan->element_count);
  sima_ev74_put_u32 (b, OFF (scale_bits), scale_bits);
  sima_ev74_put_u32 (b, OFF (zero_point), (uint32_t) plan->params.zero_point);
  if (flags & SIMA_EV74_DD_FLAG_STRIDED)
    for (i = 0; i < in->rank; i++)
      sima_ev74_put_i64 (b, SIMA_EV74_DETESSDEQUANT_BASE_BYTES + 8 * (size_t) i,
          out->strides_bytes[i]);
  table_at = sima_ev74_detessdequant_table_offset (flags);
  if (flags & SIMA_EV74_DD_FLAG_EXACT_TABLE) {
    for (i = 0; i < 256; i++) {
      int8_t q = (int8_t) (uint8_t) i;
      if (scalar == 4)
        sima_ev74_put_u32 (b, table_at + 4 * (size_t) i,
            sima_dequant_f32_bits (q, scale_bits, plan->params.zero_point, divide));
      else
        sima_ev74_put_u16 (b, table_at + 2 * (size_t) i,
            sima_dequant_bf16_bits (q, scale_bits, plan->params.zero_point, divide));
    }
  }
  sima_ev74_put_u32 (b, OFF (crc), sima_ev74_descriptor_crc (b, len));
  *length = len;
  return sima_status_ok ();
}
