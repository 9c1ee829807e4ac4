/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DetessDequant shared admission. docs/detessdequant.md is the contract in
 * prose.
 */
#include <simaai/kernels/ops/detessdequant.h>

#include <string.h>

#include "op_common.h"

const char *
sima_scale_convention_name (SimaScaleConvention convention)
{
  switch (convention) {
    case SIMA_SCALE_MULTIPLY:
      return "multiply";
    case SIMA_SCALE_DIVIDE:
      return "divide";
  }
  return "unknown";
}

int
sima_scale_convention_from_name (const char *name, SimaScaleConvention *out)
{
  int v;
  for (v = SIMA_SCALE_MULTIPLY; v <= SIMA_SCALE_DIVIDE; v++)
    if (name != NULL && strcmp (name,
            sima_scale_convention_name ((SimaScaleConvention) v)) == 0) {
      *out = (SimaScaleConvention) v;
      return 1;
    }
  return 0;
}

SimaStatus
sima_detessdequant_check_params (const SimaDetessDequantParams *params)
{
  /* unsigned: a negative value read from a descriptor or a cast is unknown
   * too */
  if ((unsigned) params->convention > SIMA_SCALE_DIVIDE)
    return sima_status_make (SIMA_INVALID_PARAMETER,
        "convention is %d, not a known scale convention (0 multiply, "
        "1 divide)", (int) params->convention);
  return sima_check_positive_finite ("scale", params->scale);
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

  st = sima_check_unpack_ports ("DetessDequant", in, out,
      SIMA_OP_BIT (SIMA_DTYPE_INT8), SIMA_OP_BIT (SIMA_LAYOUT_MLA_TILED)
      | SIMA_OP_BIT (SIMA_LAYOUT_MLA_CBLOCKED));
  if (sima_status_is_ok (&st))
    st = sima_detessdequant_check_params (&request->params);
  if (sima_status_is_ok (&st))
    st = sima_admit_unpack_layouts (in, out, &plan->input_geometry,
        &plan->output_view);
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

/* ---- tensor sets -------------------------------------------------------- */

static SimaStatus
admit_member (const SimaTensorSpec *input, const SimaTensorSpec *output,
    const void *params, void *plan, uint64_t *element_count)
{
  SimaDetessDequantRequest r = { input, 1, output, 1,
    *(const SimaDetessDequantParams *) params };
  SimaDetessDequantPlan *p = plan;
  SimaStatus st = sima_detessdequant_check_inference (&r, p);

  *element_count = p->element_count;
  return st;
}

SimaStatus
sima_detessdequant_set_check_inference (
    const SimaDetessDequantSetRequest *request, SimaDetessDequantSetPlan *plan)
{
  SimaSetAdmission a;
  SimaStatus st;

  if (request == NULL || plan == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "DetessDequant set check_inference: %s is NULL",
        request == NULL ? "request" : "plan");
  memset (plan, 0, sizeof *plan);
  a = (SimaSetAdmission) { "DetessDequant", request->input, request->output,
    request->params, sizeof *request->params, request->n_params,
    admit_member, plan->members, sizeof plan->members[0] };
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
