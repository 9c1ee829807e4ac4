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

  st = sima_check_port ("CastTess", "input", in, SIMA_OP_PACK_DTYPES,
      SIMA_OP_DENSE_LAYOUTS);
  if (sima_status_is_ok (&st))
    st = sima_check_port ("CastTess", "output", out,
        SIMA_OP_BIT (SIMA_DTYPE_BFLOAT16), SIMA_OP_BIT (SIMA_LAYOUT_MLA_TILED));
  if (sima_status_is_ok (&st))
    st = sima_check_same_shape (in, out);
  if (sima_status_is_ok (&st))
    st = sima_strided_view_admit (in, "input", &plan->input_view);
  if (sima_status_is_ok (&st))
    st = sima_tiled_admit (out, "output", &plan->output_geometry);
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

/* ---- tensor sets -------------------------------------------------------- */

static SimaStatus
admit_member (const SimaTensorSpec *input, const SimaTensorSpec *output,
    const void *params, void *plan, uint64_t *element_count)
{
  SimaCastTessRequest r = { input, 1, output, 1 };
  SimaCastTessPlan *p = plan;
  SimaStatus st = sima_casttess_check_inference (&r, p);

  (void) params;                /* CastTess has none */
  *element_count = p->element_count;
  return st;
}

SimaStatus
sima_casttess_set_check_inference (const SimaCastTessSetRequest *request,
    SimaCastTessSetPlan *plan)
{
  SimaSetAdmission a;
  SimaStatus st;

  if (request == NULL || plan == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "CastTess set check_inference: %s is NULL",
        request == NULL ? "request" : "plan");
  memset (plan, 0, sizeof *plan);
  a = (SimaSetAdmission) { "CastTess", request->input, request->output,
    NULL, 0, 0, admit_member, plan->members, sizeof plan->members[0] };
  st = sima_check_set_inference (&a, &plan->input_layout,
      &plan->output_layout, &plan->element_count);
  if (!sima_status_is_ok (&st)) {
    memset (plan, 0, sizeof *plan);
    return st;
  }
  plan->n_members = plan->input_layout.n_members;
  plan->input_bytes = plan->input_layout.capacity;
  plan->output_bytes = plan->output_layout.capacity;
  return st;
}
