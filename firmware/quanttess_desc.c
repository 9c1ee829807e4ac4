/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Decoding and revalidating a QuantTess v1 descriptor on the device. Every
 * field is read with the wire helpers, checked for range, and the request is
 * rebuilt and put through the core's own admission (the same code the host
 * ran), so the device trusts nothing the host computed: spans and the
 * element count must match what it derives itself.
 */
#include <string.h>

#include <simaai/kernels/ev74/quanttess_wire.h>

#include "descriptor_check.h"
#include "quanttess_fw.h"

#define OFF(field) SIMA_EV74_QT_OFF (field)

static SimaStatus
bad (const char *what, long long value)
{
  return sima_status_make (SIMA_INVALID_DESCRIPTOR,
      "QuantTess descriptor %s is %lld", what, value);
}

/* Reads shape, strides, tiling and parameters into a request. */
static SimaStatus
read_request (const uint8_t *d, SimaTensorSpec *in, SimaTensorSpec *out,
    SimaQuantTessParams *p)
{
  unsigned dtype = sima_ev74_get_u8 (d, OFF (input_dtype));
  unsigned rank = sima_ev74_get_u8 (d, OFF (rank));
  unsigned layout = sima_ev74_get_u8 (d, OFF (input_layout));
  unsigned i;

  if (dtype > SIMA_DTYPE_BFLOAT16)
    return bad ("input dtype", dtype);
  if (rank < 1 || rank > SIMA_MAX_RANK)
    return bad ("rank", rank);
  if (layout > SIMA_LAYOUT_STRIDED)
    return bad ("input layout", layout);
  memset (in, 0, sizeof *in);
  in->rank = (int) rank;
  in->dtype = (SimaDType) dtype;
  in->layout = (SimaLayout) layout;
  for (i = 0; i < SIMA_MAX_RANK; i++) {
    int64_t extent = sima_ev74_get_i64 (d, OFF (shape) + 8 * i);
    int64_t stride = sima_ev74_get_i64 (d, OFF (input_strides) + 8 * i);
    if (i >= rank && (extent != 0 || stride != 0))
      return bad ("unused shape/stride slot", (long long) i);
    if (layout == SIMA_LAYOUT_CONTIGUOUS && stride != 0)
      return bad ("stride slot of a contiguous input", (long long) i);
    if (i < rank) {
      in->shape[i] = extent;
      in->strides_bytes[i] = stride;
    }
  }
  *out = *in;
  out->dtype = SIMA_DTYPE_INT8;
  out->layout = SIMA_LAYOUT_MLA_TILED;
  memset (out->strides_bytes, 0, sizeof out->strides_bytes);
  for (i = 0; i < 4; i++) {
    out->tiled.axes[i] = (int8_t) sima_ev74_get_u8 (d, OFF (axes) + i);
    out->tiled.tile_shape[i] = sima_ev74_get_i64 (d, OFF (tile_shape) + 8 * i);
  }
  out->tiled.channels = (SimaChannels) sima_ev74_get_u8 (d, OFF (channels));
  p->zero_point = sima_ev74_get_i32 (d, OFF (zero_point));
  p->rounding = (SimaRounding) sima_ev74_get_u8 (d, OFF (rounding));
  {
    uint32_t bits = sima_ev74_get_u32 (d, OFF (multiplier_bits));
    memcpy (&p->multiplier, &bits, sizeof bits);
  }
  return sima_status_ok ();
}

SimaStatus
simafw_quanttess_decode (const uint8_t *d, uint32_t length,
    SimaFwQuantTessJob *job)
{
  SimaTensorSpec in, out;
  SimaQuantTessRequest req;
  SimaStatus st;

  memset (job, 0, sizeof *job);
  st = simafw_check_header (d, length);
  if (!sima_status_is_ok (&st))
    return st;
  if (sima_ev74_get_u16 (d, OFF (route)) != SIMA_EV74_ROUTE_QUANTTESS)
    return bad ("route", sima_ev74_get_u16 (d, OFF (route)));
  if (sima_ev74_get_u16 (d, OFF (version)) != SIMA_EV74_QUANTTESS_VERSION)
    return bad ("version", sima_ev74_get_u16 (d, OFF (version)));
  if (length != SIMA_EV74_QUANTTESS_BYTES)
    return bad ("length", length);
  if (sima_ev74_get_u16 (d, OFF (flags)) != 0)
    return bad ("flags", sima_ev74_get_u16 (d, OFF (flags)));
  if (!sima_ev74_all_zero (d, OFF (reserved0), sizeof ((SimaEv74QuantTessLayout *) 0)->reserved0)
      || !sima_ev74_all_zero (d, OFF (reserved1), 4)
      || !sima_ev74_all_zero (d, OFF (reserved2), 16))
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "QuantTess descriptor has nonzero reserved bytes");

  memset (&req, 0, sizeof req);
  st = read_request (d, &in, &out, &req.params);
  if (!sima_status_is_ok (&st))
    return st;
  req.inputs = &in;
  req.n_inputs = 1;
  req.outputs = &out;
  req.n_outputs = 1;
  st = sima_quanttess_check_inference (&req, &job->plan);
  if (!sima_status_is_ok (&st))
    return st;
  if (job->plan.input_bytes != sima_ev74_get_u64 (d, OFF (input_span))
      || job->plan.output_bytes != sima_ev74_get_u64 (d, OFF (output_span))
      || job->plan.element_count != sima_ev74_get_u64 (d, OFF (element_count)))
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "QuantTess descriptor spans %llu/%llu bytes (%llu elements) do not "
        "match the geometry's %llu/%llu (%llu)",
        (unsigned long long) sima_ev74_get_u64 (d, OFF (input_span)),
        (unsigned long long) sima_ev74_get_u64 (d, OFF (output_span)),
        (unsigned long long) sima_ev74_get_u64 (d, OFF (element_count)),
        (unsigned long long) job->plan.input_bytes,
        (unsigned long long) job->plan.output_bytes,
        (unsigned long long) job->plan.element_count);

  st = simafw_check_binding (d, "input",
      (uint32_t) job->plan.input_view.scalar_bytes, &job->input_bus);
  if (sima_status_is_ok (&st))
    st = simafw_check_binding (d, "output", 16, &job->output_bus);
  if (sima_status_is_ok (&st))
    st = simafw_check_disjoint (d);
  if (!sima_status_is_ok (&st))
    return st;
  sima_quanttess_numerics (&job->plan.params, &job->numerics);
  sima_tiled_walk_init (&job->plan.output_geometry, &job->plan.input_view,
      &job->walk);
  return sima_status_ok ();
}
