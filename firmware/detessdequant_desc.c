/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Decoding and revalidating a DetessDequant v1 descriptor on the device:
 * flags and length, reserved bytes, the request rebuilt and put through the
 * core's admission, a canonical output encoding (STRIDED only for outputs
 * that are not row-major), the block arithmetic prepared (dequant_vec.h),
 * the exact table present exactly for subnormal scales and equal, entry by
 * entry, to the exact integer stages of the convention the DIVIDE flag
 * gives; then spans and bindings. No DMA happens before all of it passed.
 */
#include <string.h>

#include <simaai/kernels/ev74/detessdequant_wire.h>

#include "descriptor_check.h"
#include "detessdequant_fw.h"

#define OFF(field) SIMA_EV74_DD_OFF (field)

static SimaStatus
bad (const char *what, long long value)
{
  return sima_status_make (SIMA_INVALID_DESCRIPTOR,
      "DetessDequant descriptor %s is %lld", what, value);
}

/* Rebuilds the request's specs from the fields. */
static SimaStatus
read_specs (const uint8_t *d, unsigned flags, SimaTensorSpec *in,
    SimaTensorSpec *out)
{
  unsigned rank = sima_ev74_get_u8 (d, OFF (rank)), i;
  unsigned dtype = sima_ev74_get_u8 (d, OFF (output_dtype));

  if (rank < 1 || rank > SIMA_MAX_RANK
      || ((flags & SIMA_EV74_DD_FLAG_CBLOCKED) && rank < 3))
    return bad ("rank", rank);
  memset (in, 0, sizeof *in);
  in->rank = (int) rank;
  in->dtype = SIMA_DTYPE_INT8;
  for (i = 0; i < SIMA_MAX_RANK; i++) {
    int64_t extent = sima_ev74_get_i64 (d, OFF (shape) + 8 * i);
    int64_t stride = (flags & SIMA_EV74_DD_FLAG_STRIDED)
        ? sima_ev74_get_i64 (d, SIMA_EV74_DETESSDEQUANT_BASE_BYTES + 8 * i) : 0;
    if (i >= rank && (extent != 0 || stride != 0))
      return bad ("unused shape/stride slot", (long long) i);
    if (i < rank) {
      in->shape[i] = extent;
      in->strides_bytes[i] = stride;   /* moved to the output below */
    }
  }
  *out = *in;
  out->dtype = (SimaDType) dtype;
  out->layout = (flags & SIMA_EV74_DD_FLAG_STRIDED) ? SIMA_LAYOUT_STRIDED
      : SIMA_LAYOUT_CONTIGUOUS;
  memset (in->strides_bytes, 0, sizeof in->strides_bytes);
  if (flags & SIMA_EV74_DD_FLAG_CBLOCKED) {
    in->layout = SIMA_LAYOUT_MLA_CBLOCKED;
    if (flags & SIMA_EV74_DD_FLAG_CBLOCK)
      return sima_status_make (SIMA_INVALID_DESCRIPTOR,
          "DetessDequant descriptor flags %#x: CBLOCK (tile order of an "
          "mla-tiled input) with CBLOCKED (an mla-cblocked input)", flags);
    if (sima_ev74_get_u8 (d, OFF (channels)) != 0
        || !sima_ev74_all_zero (d, OFF (axes), 4)
        || !sima_ev74_all_zero (d, OFF (tile_shape), 32))
      return sima_status_make (SIMA_INVALID_DESCRIPTOR,
          "DetessDequant descriptor: a channel-blocked input has nonzero "
          "tiling fields");
    return sima_status_ok ();
  }
  in->layout = SIMA_LAYOUT_MLA_TILED;
  in->tiled.channels = (SimaChannels) sima_ev74_get_u8 (d, OFF (channels));
  /* CBLOCK with compact channels fails the core admission (invalid-tiling) */
  in->tiled.cblock = (flags & SIMA_EV74_DD_FLAG_CBLOCK) != 0;
  for (i = 0; i < 4; i++) {
    in->tiled.axes[i] = (int8_t) sima_ev74_get_u8 (d, OFF (axes) + i);
    in->tiled.tile_shape[i] = sima_ev74_get_i64 (d, OFF (tile_shape) + 8 * i);
  }
  return sima_status_ok ();
}

/* The job's block arithmetic (dequant_vec.h: the vector path for an
 * admitted normal scale, else the table of the core's exact stages). The
 * descriptor carries a table exactly for subnormal scales, and it must
 * equal the block's, entry by entry: the host's table is checked, never
 * trusted. */
static SimaStatus
prepare_block (const uint8_t *d, unsigned flags, SimaFwDetessDequantJob *job)
{
  const uint32_t at = sima_ev74_detessdequant_table_offset (flags);
  const SimaFwDequantBlock *b = &job->block;
  uint32_t scale_bits;
  int fp32 = job->plan.output.dtype == SIMA_DTYPE_FLOAT32, i;

  memcpy (&scale_bits, &job->plan.params.scale, sizeof scale_bits);
  if (((scale_bits & 0x7f800000u) == 0)
      != ((flags & SIMA_EV74_DD_FLAG_EXACT_TABLE) != 0))
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "DetessDequant descriptor %s an exact table but its scale %#lx is "
        "%s", (flags & SIMA_EV74_DD_FLAG_EXACT_TABLE) ? "carries" : "lacks",
        (unsigned long) scale_bits,
        (scale_bits & 0x7f800000u) ? "normal" : "subnormal");
  simafw_dequant_block_init (&job->block, job->plan.output.dtype, scale_bits,
      job->plan.params.zero_point, job->plan.params.convention);
  if (!(flags & SIMA_EV74_DD_FLAG_EXACT_TABLE))
    return sima_status_ok ();
  /* a subnormal scale: the block holds the exact table (use_table) */
  for (i = 0; i < 256; i++)
    if (fp32 ? b->table.f32[i] != sima_ev74_get_u32 (d, at + 4 * (uint32_t) i)
        : b->table.bf16[i] != sima_ev74_get_u16 (d, at + 2 * (uint32_t) i))
      return sima_status_make (SIMA_INVALID_DESCRIPTOR,
          "DetessDequant descriptor: exact table entry %d is wrong", i);
  return sima_status_ok ();
}

SimaStatus
simafw_detessdequant_decode (const uint8_t *d, uint32_t length,
    SimaFwDetessDequantJob *job)
{
  SimaTensorSpec in, out;
  SimaDetessDequantRequest req;
  unsigned flags, dtype;
  uint32_t scale_bits;
  SimaStatus st;

  memset (job, 0, sizeof *job);
  st = simafw_check_header (d, length);
  if (!sima_status_is_ok (&st))
    return st;
  if (sima_ev74_get_u16 (d, OFF (route)) != SIMA_EV74_ROUTE_DETESSDEQUANT)
    return bad ("route", sima_ev74_get_u16 (d, OFF (route)));
  if (sima_ev74_get_u16 (d, OFF (version)) != SIMA_EV74_DETESSDEQUANT_VERSION)
    return bad ("version", sima_ev74_get_u16 (d, OFF (version)));
  if (length < SIMA_EV74_DETESSDEQUANT_BASE_BYTES)
    return bad ("length", length);
  flags = sima_ev74_get_u16 (d, OFF (flags));
  dtype = sima_ev74_get_u8 (d, OFF (output_dtype));
  if (flags & ~(unsigned) SIMA_EV74_DD_FLAGS_KNOWN)
    return bad ("flags", flags);
  if (dtype != SIMA_DTYPE_FLOAT32 && dtype != SIMA_DTYPE_BFLOAT16)
    return bad ("output dtype", dtype);
  if (length != sima_ev74_detessdequant_length (flags,
          dtype == SIMA_DTYPE_FLOAT32 ? 4 : 2))
    return bad ("length", length);
  if (!sima_ev74_all_zero (d, OFF (reserved0), 5)
      || !sima_ev74_all_zero (d, OFF (reserved1), 4)
      || !sima_ev74_all_zero (d, OFF (reserved2), 8))
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "DetessDequant descriptor has nonzero reserved bytes");
  st = read_specs (d, flags, &in, &out);
  if (!sima_status_is_ok (&st))
    return st;

  memset (&req, 0, sizeof req);
  req.inputs = &in;
  req.n_inputs = 1;
  req.outputs = &out;
  req.n_outputs = 1;
  scale_bits = sima_ev74_get_u32 (d, OFF (scale_bits));
  memcpy (&req.params.scale, &scale_bits, sizeof scale_bits);
  req.params.zero_point = sima_ev74_get_i32 (d, OFF (zero_point));
  req.params.convention = (flags & SIMA_EV74_DD_FLAG_DIVIDE)
      ? SIMA_SCALE_DIVIDE : SIMA_SCALE_MULTIPLY;
  st = sima_detessdequant_check_inference (&req, &job->plan);
  if (!sima_status_is_ok (&st))
    return st;
  if ((flags & SIMA_EV74_DD_FLAG_STRIDED)
      && sima_strided_view_is_row_major (&job->plan.output_view))
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "DetessDequant descriptor: row-major output strides must be encoded "
        "as a dense output, not STRIDED");
  st = prepare_block (d, flags, job);
  if (!sima_status_is_ok (&st))
    return st;
  if (job->plan.input_bytes != sima_ev74_get_u64 (d, OFF (input_span))
      || job->plan.output_bytes != sima_ev74_get_u64 (d, OFF (output_span))
      || job->plan.element_count != sima_ev74_get_u64 (d, OFF (element_count)))
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "DetessDequant descriptor spans %llu/%llu bytes (%llu elements) do "
        "not match the geometry's %llu/%llu (%llu)",
        (unsigned long long) sima_ev74_get_u64 (d, OFF (input_span)),
        (unsigned long long) sima_ev74_get_u64 (d, OFF (output_span)),
        (unsigned long long) sima_ev74_get_u64 (d, OFF (element_count)),
        (unsigned long long) job->plan.input_bytes,
        (unsigned long long) job->plan.output_bytes,
        (unsigned long long) job->plan.element_count);
  st = simafw_check_binding (d, "input", 16, &job->input_bus);
  if (sima_status_is_ok (&st))
    st = simafw_check_binding (d, "output",
        (uint32_t) job->plan.output_view.scalar_bytes, &job->output_bus);
  if (sima_status_is_ok (&st))
    st = simafw_check_disjoint (d);
  job->flags = flags;
  return st;
}
