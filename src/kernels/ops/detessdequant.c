/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DetessDequant shared admission. docs/detessdequant.md is the contract in
 * prose.
 */
#include <simaai/kernels/ops/detessdequant.h>

#include <string.h>

#include "op_common.h"

static SimaStatus
admit_input (const SimaTensorSpec *in, SimaTiledGeometry *g)
{
  SimaStatus st = sima_shape_check (in, "input");

  if (!sima_status_is_ok (&st))
    return st;
  if (in->dtype != SIMA_DTYPE_INT8)
    return sima_dtype_size (in->dtype) == 0
        ? sima_status_make (SIMA_UNSUPPORTED_DTYPE,
            "DetessDequant input dtype %d is not a known dtype; must be int8",
            (int) in->dtype)
        : sima_status_make (SIMA_UNSUPPORTED_DTYPE,
            "DetessDequant input dtype is %s, must be int8",
            sima_dtype_name (in->dtype));
  if (in->layout == SIMA_LAYOUT_MLA_TILED)
    return sima_tiled_geometry_init (in, 1, "input", g);
  if (in->layout == SIMA_LAYOUT_MLA_CBLOCKED)
    return sima_cblocked_geometry_init (in, "input", g);
  return sima_status_make (SIMA_UNSUPPORTED_LAYOUT,
      "DetessDequant input layout is %s, must be mla-tiled or mla-cblocked",
      sima_layout_name (in->layout));
}

SimaStatus
sima_detessdequant_check_inference (const SimaDetessDequantRequest *request,
    SimaDetessDequantPlan *plan)
{
  const SimaTensorSpec *in, *out;
  SimaStatus st;

  if (request == NULL || plan == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "DetessDequant check_inference: %s is NULL",
        request == NULL ? "request" : "plan");
  memset (plan, 0, sizeof *plan);
  st = sima_check_arity ("DetessDequant", request->inputs, request->n_inputs,
      request->outputs, request->n_outputs);
  if (!sima_status_is_ok (&st))
    return st;
  in = &request->inputs[0];
  out = &request->outputs[0];

  st = admit_input (in, &plan->input_geometry);
  if (sima_status_is_ok (&st))
    st = sima_check_dense_port ("DetessDequant", "output", out,
        SIMA_OP_DTYPE_BIT (SIMA_DTYPE_FLOAT32)
        | SIMA_OP_DTYPE_BIT (SIMA_DTYPE_BFLOAT16));
  if (sima_status_is_ok (&st))
    st = sima_check_same_shape (in, out);
  if (sima_status_is_ok (&st))
    st = sima_check_positive_finite ("scale", request->params.scale);
  if (sima_status_is_ok (&st))
    st = sima_strided_view_admit (out, "output", &plan->output_view);
  if (!sima_status_is_ok (&st)) {
    memset (plan, 0, sizeof *plan);
    return st;
  }
  plan->input = *in;
  plan->output = *out;
  plan->params = request->params;
  plan->element_count = plan->output_view.element_count;
  plan->input_bytes = plan->input_geometry.total_bytes;
  plan->output_bytes = plan->output_view.required_bytes;
  return sima_status_ok ();
}
