/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Decoding and revalidating a DetessCast v1 descriptor on the device
 * (docs/ev74-descriptors.md, route 52): version, flags and length, output
 * dtype, reserved bytes, unused slots, the request rebuilt (BF16 MlaTiled
 * input, FP32 or BF16 output, contiguous or with the trailer's strides) and
 * put through the core's admission, a canonical output encoding (STRIDED
 * only for outputs that are not row-major), spans and element count equal
 * to the geometry's, then the bindings: the tiled input 16-byte aligned,
 * the output aligned to its scalar, the two disjoint. No DMA happens before
 * all of it passed.
 */
#include <string.h>

#include <simaai/kernels/ev74/detesscast_wire.h>

#include "descriptor_check.h"
#include "detesscast_fw.h"

#define OFF(field) SIMA_EV74_DC_OFF (field)

static SimaStatus
bad (const char *what, long long value)
{
  return sima_status_make (SIMA_INVALID_DESCRIPTOR,
      "DetessCast descriptor %s is %lld", what, value);
}

/* Rebuilds the request's specs from the fields. */
static SimaStatus
read_specs (const uint8_t *d, unsigned flags, SimaTensorSpec *in,
    SimaTensorSpec *out)
{
  unsigned rank = sima_ev74_get_u8 (d, OFF (rank)), i;
  unsigned dtype = sima_ev74_get_u8 (d, OFF (output_dtype));

  if (rank < 1 || rank > SIMA_MAX_RANK)
    return bad ("rank", rank);
  memset (in, 0, sizeof *in);
  memset (out, 0, sizeof *out);
  in->rank = out->rank = (int) rank;
  in->dtype = SIMA_DTYPE_BFLOAT16;
  in->layout = SIMA_LAYOUT_MLA_TILED;
  out->dtype = (SimaDType) dtype;
  out->layout = (flags & SIMA_EV74_DC_FLAG_STRIDED) ? SIMA_LAYOUT_STRIDED
      : SIMA_LAYOUT_CONTIGUOUS;
  for (i = 0; i < SIMA_MAX_RANK; i++) {
    int64_t extent = sima_ev74_get_i64 (d, OFF (shape) + 8 * i);
    int64_t stride = (flags & SIMA_EV74_DC_FLAG_STRIDED)
        ? sima_ev74_get_i64 (d, SIMA_EV74_DETESSCAST_BASE_BYTES + 8 * i) : 0;
    if (i >= rank && (extent != 0 || stride != 0))
      return bad ("unused shape/stride slot", (long long) i);
    if (i < rank) {
      in->shape[i] = out->shape[i] = extent;
      out->strides_bytes[i] = stride;
    }
  }
  /* channels other than 0/1 and CBLOCK with compact channels fail the
   * core admission (invalid-tiling) */
  in->tiled.channels = (SimaChannels) sima_ev74_get_u8 (d, OFF (channels));
  in->tiled.cblock = (flags & SIMA_EV74_DC_FLAG_CBLOCK) != 0;
  for (i = 0; i < 4; i++) {
    in->tiled.axes[i] = (int8_t) sima_ev74_get_u8 (d, OFF (axes) + i);
    in->tiled.tile_shape[i] = sima_ev74_get_i64 (d, OFF (tile_shape) + 8 * i);
  }
  return sima_status_ok ();
}

SimaStatus
simafw_detesscast_decode (const uint8_t *d, uint32_t length,
    SimaFwDetessCastJob *job)
{
  SimaTensorSpec in, out;
  SimaDetessCastRequest req;
  unsigned flags, dtype;
  SimaStatus st;

  memset (job, 0, sizeof *job);
  st = simafw_check_header (d, length);
  if (!sima_status_is_ok (&st))
    return st;
  if (sima_ev74_get_u16 (d, OFF (route)) != SIMA_EV74_ROUTE_DETESSCAST)
    return bad ("route", sima_ev74_get_u16 (d, OFF (route)));
  if (sima_ev74_get_u16 (d, OFF (version)) != SIMA_EV74_DETESSCAST_VERSION)
    return bad ("version", sima_ev74_get_u16 (d, OFF (version)));
  flags = sima_ev74_get_u16 (d, OFF (flags));
  if (flags & ~(unsigned) SIMA_EV74_DC_FLAGS_KNOWN)
    return bad ("flags", flags);
  if (length != sima_ev74_detesscast_length (flags))
    return bad ("length", length);
  dtype = sima_ev74_get_u8 (d, OFF (output_dtype));
  if (dtype != SIMA_DTYPE_FLOAT32 && dtype != SIMA_DTYPE_BFLOAT16)
    return bad ("output dtype", dtype);
  if (!sima_ev74_all_zero (d, OFF (reserved0), 5)
      || !sima_ev74_all_zero (d, OFF (reserved1), 4)
      || !sima_ev74_all_zero (d, OFF (reserved2), 8))
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "DetessCast descriptor has nonzero reserved bytes");
  st = read_specs (d, flags, &in, &out);
  if (!sima_status_is_ok (&st))
    return st;

  memset (&req, 0, sizeof req);
  req.inputs = &in;
  req.n_inputs = 1;
  req.outputs = &out;
  req.n_outputs = 1;
  st = sima_detesscast_check_inference (&req, &job->plan);
  if (!sima_status_is_ok (&st))
    return st;
  if ((flags & SIMA_EV74_DC_FLAG_STRIDED)
      && sima_strided_view_is_row_major (&job->plan.output_view))
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "DetessCast descriptor: row-major output strides must be encoded "
        "as a dense output, not STRIDED");
  if (job->plan.input_bytes != sima_ev74_get_u64 (d, OFF (input_span))
      || job->plan.output_bytes != sima_ev74_get_u64 (d, OFF (output_span))
      || job->plan.element_count != sima_ev74_get_u64 (d, OFF (element_count)))
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "DetessCast descriptor spans %llu/%llu bytes (%llu elements) do "
        "not match the geometry's %llu/%llu (%llu)",
        (unsigned long long) sima_ev74_get_u64 (d, OFF (input_span)),
        (unsigned long long) sima_ev74_get_u64 (d, OFF (output_span)),
        (unsigned long long) sima_ev74_get_u64 (d, OFF (element_count)),
        (unsigned long long) job->plan.input_bytes,
        (unsigned long long) job->plan.output_bytes,
        (unsigned long long) job->plan.element_count);
  st = simafw_check_binding (d, "input", SIMA_TILED_ALIGNMENT,
      &job->input_bus);
  if (sima_status_is_ok (&st))
    st = simafw_check_binding (d, "output",
        (uint32_t) job->plan.output_view.scalar_bytes, &job->output_bus);
  if (sima_status_is_ok (&st))
    st = simafw_check_disjoint (d);
  job->flags = flags;
  return st;
}
