/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Decoding and revalidating the pack descriptors (QuantTess v1, CastTess
 * v1) on the device. Every field is read with the wire helpers, checked for
 * range, and the request is rebuilt and put through the core's own
 * admission (the same code the host ran), so the device trusts nothing the
 * host computed: spans and the element count must match what it derives.
 */
#include <string.h>

#include <simaai/kernels/ev74/pack_wire.h>

#include "descriptor_check.h"
#include "pack_fw.h"

#define OFF(field) SIMA_EV74_PACK_OFF (field)

static SimaStatus
bad (const char *op, const char *what, long long value)
{
  return sima_status_make (SIMA_INVALID_DESCRIPTOR,
      "%s descriptor %s is %lld", op, what, value);
}

/* Header fields of this op and version, reserved bytes; fills the dense
 * input and tiled output specs. */
static SimaStatus
read_specs (const uint8_t *d, uint32_t length, const char *op,
    uint16_t route, SimaDType out_dtype, SimaTensorSpec *in,
    SimaTensorSpec *out)
{
  SimaStatus st = simafw_check_header (d, length);
  unsigned dtype, rank, layout, i;

  if (!sima_status_is_ok (&st))
    return st;
  if (sima_ev74_get_u16 (d, OFF (route)) != route)
    return bad (op, "route", sima_ev74_get_u16 (d, OFF (route)));
  if (sima_ev74_get_u16 (d, OFF (version)) != 1)
    return bad (op, "version", sima_ev74_get_u16 (d, OFF (version)));
  if (length != SIMA_EV74_PACK_BYTES)
    return bad (op, "length", length);
  if (sima_ev74_get_u16 (d, OFF (flags)) & ~(unsigned) SIMA_EV74_PACK_FLAGS_KNOWN)
    return bad (op, "flags", sima_ev74_get_u16 (d, OFF (flags)));
  if (!sima_ev74_all_zero (d, OFF (reserved0), 3)
      || !sima_ev74_all_zero (d, OFF (reserved1), 4)
      || !sima_ev74_all_zero (d, OFF (reserved2), 16))
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "%s descriptor has nonzero reserved bytes", op);

  dtype = sima_ev74_get_u8 (d, OFF (input_dtype));
  rank = sima_ev74_get_u8 (d, OFF (rank));
  layout = sima_ev74_get_u8 (d, OFF (input_layout));
  /* 0 FP32, 1 FP16, 2 BF16, 4 UINT8; 3 (INT8), 5, 6 and anything unknown
   * are malformed. Firmware before UINT8 allowed 0..2 only, so it rejects a
   * UINT8 job as invalid-descriptor rather than misreading its bytes. */
  if (dtype > SIMA_DTYPE_BFLOAT16 && dtype != SIMA_DTYPE_UINT8)
    return bad (op, "input dtype", dtype);
  if (rank < 1 || rank > SIMA_MAX_RANK)
    return bad (op, "rank", rank);
  if (layout > SIMA_LAYOUT_STRIDED)
    return bad (op, "input layout", layout);
  memset (in, 0, sizeof *in);
  in->rank = (int) rank;
  in->dtype = (SimaDType) dtype;
  in->layout = (SimaLayout) layout;
  for (i = 0; i < SIMA_MAX_RANK; i++) {
    int64_t extent = sima_ev74_get_i64 (d, OFF (shape) + 8 * i);
    int64_t stride = sima_ev74_get_i64 (d, OFF (input_strides) + 8 * i);
    if (i >= rank && (extent != 0 || stride != 0))
      return bad (op, "unused shape/stride slot", (long long) i);
    if (layout == SIMA_LAYOUT_CONTIGUOUS && stride != 0)
      return bad (op, "stride slot of a contiguous input", (long long) i);
    if (i < rank) {
      in->shape[i] = extent;
      in->strides_bytes[i] = stride;
    }
  }
  *out = *in;
  out->dtype = out_dtype;
  out->layout = SIMA_LAYOUT_MLA_TILED;
  memset (out->strides_bytes, 0, sizeof out->strides_bytes);
  for (i = 0; i < 4; i++) {
    out->tiled.axes[i] = (int8_t) sima_ev74_get_u8 (d, OFF (axes) + i);
    out->tiled.tile_shape[i] = sima_ev74_get_i64 (d, OFF (tile_shape) + 8 * i);
  }
  out->tiled.channels = (SimaChannels) sima_ev74_get_u8 (d, OFF (channels));
  /* CBLOCK with compact channels fails the core admission (invalid-tiling) */
  out->tiled.cblock = (sima_ev74_get_u16 (d, OFF (flags))
      & SIMA_EV74_PACK_FLAG_CBLOCK) != 0;
  return sima_status_ok ();
}

/* Spans and count against the admitted plan, then the bindings. */
static SimaStatus
finish (const uint8_t *d, const char *op, uint64_t input_bytes,
    uint64_t output_bytes, uint64_t element_count, int input_scalar,
    SimaFwPackJob *job)
{
  SimaStatus st;

  if (input_bytes != sima_ev74_get_u64 (d, OFF (input_span))
      || output_bytes != sima_ev74_get_u64 (d, OFF (output_span))
      || element_count != sima_ev74_get_u64 (d, OFF (element_count)))
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "%s descriptor spans %llu/%llu bytes (%llu elements) do not match "
        "the geometry's %llu/%llu (%llu)", op,
        (unsigned long long) sima_ev74_get_u64 (d, OFF (input_span)),
        (unsigned long long) sima_ev74_get_u64 (d, OFF (output_span)),
        (unsigned long long) sima_ev74_get_u64 (d, OFF (element_count)),
        (unsigned long long) input_bytes, (unsigned long long) output_bytes,
        (unsigned long long) element_count);
  st = simafw_check_binding (d, "input", (uint32_t) input_scalar,
      &job->input_bus);
  if (sima_status_is_ok (&st))
    st = simafw_check_binding (d, "output", 16, &job->output_bus);
  if (sima_status_is_ok (&st))
    st = simafw_check_disjoint (d);
  return st;
}

SimaStatus
simafw_quanttess_decode (const uint8_t *d, uint32_t length,
    SimaFwQuantTessJob *job)
{
  SimaTensorSpec in, out;
  SimaQuantTessRequest req;
  SimaFwPackJob *pack = &job->pack;
  SimaStatus st;
  uint32_t bits;

  memset (job, 0, sizeof *job);
  st = read_specs (d, length, "QuantTess", SIMA_EV74_ROUTE_QUANTTESS,
      SIMA_DTYPE_INT8, &in, &out);
  if (!sima_status_is_ok (&st))
    return st;
  memset (&req, 0, sizeof req);
  req.inputs = &in;
  req.n_inputs = 1;
  req.outputs = &out;
  req.n_outputs = 1;
  req.params.zero_point = sima_ev74_get_i32 (d, OFF (zero_point));
  req.params.rounding = (SimaRounding) sima_ev74_get_u8 (d, OFF (rounding));
  bits = sima_ev74_get_u32 (d, OFF (multiplier_bits));
  memcpy (&req.params.multiplier, &bits, sizeof bits);
  st = sima_quanttess_check_inference (&req, &job->plan);
  if (sima_status_is_ok (&st))
    st = finish (d, "QuantTess", job->plan.input_bytes, job->plan.output_bytes,
        job->plan.element_count, job->plan.input_view.scalar_bytes, pack);
  if (!sima_status_is_ok (&st))
    return st;
  pack->route = SIMA_EV74_ROUTE_QUANTTESS;
  pack->op = "QuantTess";
  pack->input_dtype = job->plan.input.dtype;
  pack->input_view = job->plan.input_view;
  pack->output_geometry = job->plan.output_geometry;
  pack->element_count = job->plan.element_count;
  sima_quanttess_numerics (&job->plan.params, &pack->numerics);
  simafw_quant_block_init (&pack->quant, pack->input_dtype, &pack->numerics);
  pack->padding = (uint8_t) pack->numerics.zero_point;
  sima_tiled_walk_init (&pack->output_geometry, &pack->input_view,
      &pack->walk);
  return st;
}

SimaStatus
simafw_casttess_decode (const uint8_t *d, uint32_t length,
    SimaFwCastTessJob *job)
{
  SimaTensorSpec in, out;
  SimaCastTessRequest req;
  SimaFwPackJob *pack = &job->pack;
  SimaStatus st;

  memset (job, 0, sizeof *job);
  st = read_specs (d, length, "CastTess", SIMA_EV74_ROUTE_CASTTESS,
      SIMA_DTYPE_BFLOAT16, &in, &out);
  if (!sima_status_is_ok (&st))
    return st;
  /* CastTess has no parameters: QuantTess's fields must be zero */
  if (sima_ev74_get_u8 (d, OFF (rounding)) != 0
      || sima_ev74_get_u32 (d, OFF (zero_point)) != 0
      || sima_ev74_get_u32 (d, OFF (multiplier_bits)) != 0)
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "CastTess descriptor has nonzero parameter fields (it has none)");
  req = (SimaCastTessRequest) { &in, 1, &out, 1 };
  st = sima_casttess_check_inference (&req, &job->plan);
  if (sima_status_is_ok (&st))
    st = finish (d, "CastTess", job->plan.input_bytes, job->plan.output_bytes,
        job->plan.element_count, job->plan.input_view.scalar_bytes, pack);
  if (!sima_status_is_ok (&st))
    return st;
  pack->route = SIMA_EV74_ROUTE_CASTTESS;
  pack->op = "CastTess";
  pack->input_dtype = job->plan.input.dtype;
  pack->input_view = job->plan.input_view;
  pack->output_geometry = job->plan.output_geometry;
  pack->element_count = job->plan.element_count;
  simafw_cast_block_init (&pack->cast, pack->input_dtype);
  pack->padding = 0;
  sima_tiled_walk_init (&pack->output_geometry, &pack->input_view,
      &pack->walk);
  return st;
}
