/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * QuantTess on the A65: walks the output tiles in physical order and hands
 * each row of pixels to a leaf that quantizes and packs it.
 */
#include <simaai/kernels/a65/quanttess.h>

#include <string.h>

#include "../ops/op_common.h"
#include "quant_pixels.h"

SimaStatus
sima_a65_quanttess_prepare (const SimaQuantTessPlan *plan,
    SimaA65QuantTessPlan *out)
{
  if (plan == NULL || out == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "QuantTess A65 prepare: %s is NULL", plan == NULL ? "plan" : "out");
  memset (out, 0, sizeof *out);
  out->shared = *plan;
  sima_quanttess_numerics (&plan->params, &out->numerics);
  sima_tiled_walk_init (&plan->output_geometry, &plan->input_view, &out->walk);
  switch (plan->input.dtype) {
    case SIMA_DTYPE_FLOAT32:
      out->quant_pixels = sima_quant_pixels_f32_c;
      break;
    case SIMA_DTYPE_FLOAT16:
      out->quant_pixels = sima_quant_pixels_f16_c;
      break;
    case SIMA_DTYPE_BFLOAT16:
      out->quant_pixels = sima_quant_pixels_bf16_c;
      break;
    default:
      memset (out, 0, sizeof *out);
      return sima_status_make (SIMA_UNSUPPORTED_DTYPE,
          "QuantTess A65 prepare: plan input dtype is %s; was the plan made "
          "by sima_quanttess_check_inference?",
          sima_dtype_name (plan->input.dtype));
  }
  return sima_status_ok ();
}

SimaStatus
sima_a65_quanttess_execute (const SimaA65QuantTessPlan *plan,
    const SimaConstHostBuffer *in, size_t n_in,
    const SimaHostBuffer *out, size_t n_out)
{
  const SimaQuantTessPlan *sp;
  const SimaTiledGeometry *g;
  const int64_t *stride;
  SimaTileCursor cur;
  SimaStatus st;

  if (plan == NULL || plan->quant_pixels == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "QuantTess A65 execute: plan is %s", plan == NULL ? "NULL"
        : "not prepared");
  sp = &plan->shared;
  st = sima_check_host_buffers ("QuantTess", in, n_in, sp->input_bytes,
      sp->input_view.scalar_bytes, out, n_out, sp->output_bytes,
      SIMA_TILED_ALIGNMENT);
  if (!sima_status_is_ok (&st) || sp->element_count == 0)
    return st;

  g = &sp->output_geometry;
  stride = plan->walk.dim_stride;
  sima_tile_cursor_init (&cur, g, &plan->walk);
  while (sima_tile_cursor_next (&cur)) {
    const SimaTileClass *cls = cur.cls;
    const uint8_t *src = (const uint8_t *) in->data + cur.view_offset;
    int8_t *dst = (int8_t *) out->data + cur.tile_offset;
    int64_t row_bytes = cls->extent[SIMA_MLA_W] * cls->stored_channels;
    int64_t d, h;

    for (d = 0; d < cls->extent[SIMA_MLA_D]; d++) {
      for (h = 0; h < cls->extent[SIMA_MLA_H]; h++) {
        plan->quant_pixels (&plan->numerics,
            src + d * stride[SIMA_MLA_D] + h * stride[SIMA_MLA_H],
            stride[SIMA_MLA_W], stride[SIMA_MLA_C], cls->extent[SIMA_MLA_W],
            cls->extent[SIMA_MLA_C], cls->stored_channels, dst);
        dst += row_bytes;
      }
    }
    /* alignment-only gap: raw zero, on every call */
    memset (dst, 0, (size_t) (cls->span_bytes - cls->payload_bytes));
  }
  return sima_status_ok ();
}
