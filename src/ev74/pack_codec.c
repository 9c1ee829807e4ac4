/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Encoding the two pack descriptors, QuantTess v1 and CastTess v1
 * (docs/ev74-descriptors.md): one encoder for the fields they share, the
 * QuantTess parameters on top. Only the wire helpers write bytes; offsets
 * come from pack_wire.h.
 */
#include <simaai/kernels/ev74/casttess.h>
#include <simaai/kernels/ev74/pack_wire.h>
#include <simaai/kernels/ev74/quanttess.h>

#include <string.h>

#include "codec_private.h"

#define OFF(field) SIMA_EV74_PACK_OFF (field)

/* What both descriptors carry: the dense input, the tiled output, spans. */
typedef struct {
  const char *op;
  uint16_t route;
  const SimaTensorSpec *input;
  const SimaTensorSpec *output;
  uint64_t input_bytes, output_bytes, element_count;
} PackFields;

/* Writes the 232 bytes at b (nothing else), CRC not yet sealed. */
static SimaStatus
encode_pack (const PackFields *f, uint8_t *b)
{
  const SimaTensorSpec *in = f->input;
  int i;

  /* the device addresses 32 bits: a span must fit before any binding */
  if (f->input_bytes > UINT32_MAX || f->output_bytes > UINT32_MAX)
    return sima_status_make (SIMA_NOT_REPRESENTABLE,
        "%s %s span is %llu bytes; the EV74 aperture addresses at most %lu",
        f->op, f->input_bytes > UINT32_MAX ? "input" : "output",
        (unsigned long long) (f->input_bytes > UINT32_MAX ? f->input_bytes
            : f->output_bytes), (unsigned long) UINT32_MAX);
  memset (b, 0, SIMA_EV74_PACK_BYTES);
  sima_ev74_put_u32 (b, OFF (magic), SIMA_EV74_MAGIC);
  sima_ev74_put_u16 (b, OFF (version), 1);
  sima_ev74_put_u16 (b, OFF (length), SIMA_EV74_PACK_BYTES);
  sima_ev74_put_u16 (b, OFF (route), f->route);
  sima_ev74_put_u16 (b, OFF (flags), f->output->tiled.cblock
      ? SIMA_EV74_PACK_FLAG_CBLOCK : 0);
  sima_ev74_put_u64 (b, OFF (input_span), f->input_bytes);
  sima_ev74_put_u64 (b, OFF (output_span), f->output_bytes);
  sima_ev74_put_u8 (b, OFF (input_dtype), (uint8_t) in->dtype);
  sima_ev74_put_u8 (b, OFF (rank), (uint8_t) in->rank);
  sima_ev74_put_u8 (b, OFF (channels), (uint8_t) f->output->tiled.channels);
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
        (uint8_t) f->output->tiled.axes[i]);
    sima_ev74_put_i64 (b, OFF (tile_shape) + 8 * (size_t) i,
        f->output->tiled.tile_shape[i]);
  }
  sima_ev74_put_u64 (b, OFF (element_count), f->element_count);
  return sima_status_ok ();
}

static void
seal (uint8_t *b)
{
  sima_ev74_put_u32 (b, OFF (crc),
      sima_ev74_descriptor_crc (b, SIMA_EV74_PACK_BYTES));
}

SimaStatus
sima_ev74_quanttess_encode_into (const SimaQuantTessPlan *plan, uint8_t *b,
    uint32_t *length)
{
  PackFields f;
  SimaStatus st;
  uint32_t mbits;

  f = (PackFields) { "QuantTess", SIMA_EV74_ROUTE_QUANTTESS, &plan->input,
    &plan->output, plan->input_bytes, plan->output_bytes,
    plan->element_count };
  st = encode_pack (&f, b);
  if (!sima_status_is_ok (&st))
    return st;
  sima_ev74_put_u8 (b, OFF (rounding), (uint8_t) plan->params.rounding);
  sima_ev74_put_u32 (b, OFF (zero_point), (uint32_t) plan->params.zero_point);
  memcpy (&mbits, &plan->params.multiplier, sizeof mbits);
  sima_ev74_put_u32 (b, OFF (multiplier_bits), mbits);
  seal (b);
  *length = SIMA_EV74_PACK_BYTES;
  return st;
}

SimaStatus
sima_ev74_casttess_encode_into (const SimaCastTessPlan *plan, uint8_t *b,
    uint32_t *length)
{
  PackFields f;
  SimaStatus st;

  f = (PackFields) { "CastTess", SIMA_EV74_ROUTE_CASTTESS, &plan->input,
    &plan->output, plan->input_bytes, plan->output_bytes,
    plan->element_count };
  st = encode_pack (&f, b);
  if (!sima_status_is_ok (&st))
    return st;
  seal (b);
  *length = SIMA_EV74_PACK_BYTES;
  return st;
}

SimaStatus
sima_ev74_quanttess_encode_relocatable (const SimaQuantTessPlan *plan,
    SimaEv74Descriptor *desc)
{
  if (plan == NULL || desc == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "QuantTess EV74 encode: %s is NULL", plan == NULL ? "plan" : "desc");
  return sima_ev74_finish_encode (sima_ev74_quanttess_encode_into (plan,
      desc->bytes, &desc->length), desc);
}

SimaStatus
sima_ev74_casttess_encode_relocatable (const SimaCastTessPlan *plan,
    SimaEv74Descriptor *desc)
{
  if (plan == NULL || desc == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "CastTess EV74 encode: %s is NULL", plan == NULL ? "plan" : "desc");
  return sima_ev74_finish_encode (sima_ev74_casttess_encode_into (plan,
      desc->bytes, &desc->length), desc);
}
