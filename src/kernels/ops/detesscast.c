/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DetessCast shared admission: the exact inverse of CastTess.
 * docs/detesscast.md is the contract in prose. The byte-plane geometry is
 * CastTess's (sima_tiled_admit, element bytes 2) and the output admission
 * DetessDequant's (sima_check_unpack_ports, sima_admit_unpack_layouts):
 * one copy of each rule in op_common.c.
 */
#include <simaai/kernels/ops/detesscast.h>

#include <string.h>

#include "op_common.h"

SimaStatus
sima_detesscast_check_inference (const SimaDetessCastRequest *request,
    SimaDetessCastPlan *plan)
{
  const SimaTensorSpec *in, *out;
  SimaStatus st;

  if (request == NULL || plan == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "DetessCast check_inference: %s is NULL",
        request == NULL ? "request" : "plan");
  memset (plan, 0, sizeof *plan);
  st = sima_check_arity ("DetessCast", request->inputs, request->n_inputs,
      request->outputs, request->n_outputs);
  if (!sima_status_is_ok (&st))
    return st;
  in = &request->inputs[0];
  out = &request->outputs[0];

  /* Channel-blocked tensors are INT8 only (the compiler's INT8 output
   * heads); BF16 heads are MLA tiles. Said outright rather than through
   * the generic layout list, so that a caller with a BF16 cblocked spec
   * learns it is the combination that is refused (other dtypes get the
   * dtype message first). The shape is checked first so that rank-0 specs
   * get the usual message. */
  st = sima_shape_check (in, "input");
  if (sima_status_is_ok (&st) && in->layout == SIMA_LAYOUT_MLA_CBLOCKED
      && in->dtype == SIMA_DTYPE_BFLOAT16)
    st = sima_status_make (SIMA_UNSUPPORTED_LAYOUT,
        "DetessCast input layout is mla-cblocked, must be mla-tiled "
        "(mla-cblocked tensors are int8 only; BF16 heads are MLA tiles, "
        "cblock 0 or 1)");
  if (sima_status_is_ok (&st))
    st = sima_check_unpack_ports ("DetessCast", in, out,
        SIMA_OP_BIT (SIMA_DTYPE_BFLOAT16), SIMA_OP_BIT (SIMA_LAYOUT_MLA_TILED));
  if (sima_status_is_ok (&st))
    st = sima_admit_unpack_layouts (in, out, &plan->input_geometry,
        &plan->output_view);
  if (!sima_status_is_ok (&st)) {
    memset (plan, 0, sizeof *plan);
    return st;
  }
  plan->input = *in;
  plan->output = *out;
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
  SimaDetessCastRequest r = { input, 1, output, 1 };
  SimaDetessCastPlan *p = plan;
  SimaStatus st = sima_detesscast_check_inference (&r, p);

  (void) params;                /* DetessCast has none */
  *element_count = p->element_count;
  return st;
}

SimaStatus
sima_detesscast_set_check_inference (const SimaDetessCastSetRequest *request,
    SimaDetessCastSetPlan *plan)
{
  SimaSetAdmission a;
  SimaStatus st;

  if (request == NULL || plan == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "DetessCast set check_inference: %s is NULL",
        request == NULL ? "request" : "plan");
  memset (plan, 0, sizeof *plan);
  a = (SimaSetAdmission) { "DetessCast", request->input, request->output,
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
