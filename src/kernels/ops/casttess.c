/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CastTess shared admission. docs/casttess.md is the contract in prose.
 */
#include <simaai/kernels/ops/casttess.h>

#include <string.h>

#include "op_common.h"

SimaStatus
sima_casttess_check_inference (const SimaCastTessRequest *request,
    SimaCastTessPlan *plan)
{
  const SimaTensorSpec *in, *out;
  SimaStatus st;

  if (request == NULL || plan == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "CastTess check_inference: %s is NULL",
        request == NULL ? "request" : "plan");
  memset (plan, 0, sizeof *plan);
  st = sima_check_arity ("CastTess", request->inputs, request->n_inputs,
      request->outputs, request->n_outputs);
  if (!sima_status_is_ok (&st))
    return st;
  in = &request->inputs[0];
  out = &request->outputs[0];

  st = sima_check_port ("CastTess", "input", in, SIMA_OP_FLOAT_DTYPES,
      SIMA_OP_DENSE_LAYOUTS);
  if (sima_status_is_ok (&st))
    st = sima_check_port ("CastTess", "output", out,
        SIMA_OP_BIT (SIMA_DTYPE_BFLOAT16), SIMA_OP_BIT (SIMA_LAYOUT_MLA_TILED));
  if (sima_status_is_ok (&st))
    st = sima_check_same_shape (in, out);
  if (sima_status_is_ok (&st))
    st = sima_strided_view_admit (in, "input", &plan->input_view);
  if (sima_status_is_ok (&st))
    st = sima_tiled_geometry_init (out, 2, "output", &plan->output_geometry);
  if (!sima_status_is_ok (&st)) {
    memset (plan, 0, sizeof *plan);
    return st;
  }
  plan->input = *in;
  plan->output = *out;
  plan->element_count = plan->input_view.element_count;
  plan->input_bytes = plan->input_view.required_bytes;
  plan->output_bytes = plan->output_geometry.total_bytes;
  return sima_status_ok ();
}
