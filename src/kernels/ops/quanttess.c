/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * QuantTess shared admission: everything that does not depend on where the
 * operation runs. docs/quanttess.md is the contract in prose.
 */
#include <simaai/kernels/ops/quanttess.h>

#include <string.h>

#include "../numerics/float_bits.h"
#include "op_common.h"

const char *
sima_rounding_name (SimaRounding rounding)
{
  switch (rounding) {
    case SIMA_ROUNDING_NEAREST_EVEN:
      return "nearest-even";
    case SIMA_ROUNDING_TOWARD_ZERO:
      return "toward-zero";
    case SIMA_ROUNDING_TOWARD_POSITIVE:
      return "toward-positive";
    case SIMA_ROUNDING_TOWARD_NEGATIVE:
      return "toward-negative";
  }
  return "unknown";
}

int
sima_rounding_from_name (const char *name, SimaRounding *out)
{
  int v;
  for (v = SIMA_ROUNDING_NEAREST_EVEN; v <= SIMA_ROUNDING_TOWARD_NEGATIVE; v++)
    if (name != NULL
        && strcmp (name, sima_rounding_name ((SimaRounding) v)) == 0) {
      *out = (SimaRounding) v;
      return 1;
    }
  return 0;
}

SimaStatus
sima_quanttess_check_params (const SimaQuantTessParams *p)
{
  SimaStatus st = sima_check_positive_finite ("multiplier", p->multiplier);
  if (!sima_status_is_ok (&st))
    return st;
  if (p->zero_point < -128 || p->zero_point > 127)
    return sima_status_make (SIMA_INVALID_PARAMETER,
        "zero_point is %ld, must be in [-128, 127]", (long) p->zero_point);
  if ((unsigned) p->rounding > SIMA_ROUNDING_TOWARD_NEGATIVE)
    return sima_status_make (SIMA_INVALID_PARAMETER,
        "rounding is %d, not a known rounding mode", (int) p->rounding);
  return sima_status_ok ();
}

SimaStatus
sima_quanttess_check_inference (const SimaQuantTessRequest *request,
    SimaQuantTessPlan *plan)
{
  const SimaTensorSpec *in, *out;
  SimaStatus st;

  if (request == NULL || plan == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "QuantTess check_inference: %s is NULL",
        request == NULL ? "request" : "plan");
  memset (plan, 0, sizeof *plan);
  st = sima_check_arity ("QuantTess", request->inputs, request->n_inputs,
      request->outputs, request->n_outputs);
  if (!sima_status_is_ok (&st))
    return st;
  in = &request->inputs[0];
  out = &request->outputs[0];

  st = sima_check_port ("QuantTess", "input", in, SIMA_OP_PACK_DTYPES,
      SIMA_OP_DENSE_LAYOUTS);
  if (sima_status_is_ok (&st))
    st = sima_check_port ("QuantTess", "output", out,
        SIMA_OP_BIT (SIMA_DTYPE_INT8), SIMA_OP_BIT (SIMA_LAYOUT_MLA_TILED));
  if (sima_status_is_ok (&st))
    st = sima_check_same_shape (in, out);
  if (sima_status_is_ok (&st))
    st = sima_quanttess_check_params (&request->params);
  if (sima_status_is_ok (&st))
    st = sima_strided_view_admit (in, "input", &plan->input_view);
  if (sima_status_is_ok (&st))
    st = sima_tiled_geometry_init (out, 1, "output", &plan->output_geometry);
  if (!sima_status_is_ok (&st)) {
    memset (plan, 0, sizeof *plan);
    return st;
  }
  plan->input = *in;
  plan->output = *out;
  plan->params = request->params;
  plan->element_count = plan->input_view.element_count;
  plan->input_bytes = plan->input_view.required_bytes;
  plan->output_bytes = plan->output_geometry.total_bytes;
  return sima_status_ok ();
}

void
sima_quanttess_numerics (const SimaQuantTessParams *params,
    SimaQuantNumerics *q)
{
  uint32_t bits;
  SimaExactValue m;

  memcpy (&bits, &params->multiplier, sizeof bits);
  m = sima_decode_f32 (bits);
  q->multiplier_significand = m.significand;
  q->multiplier_exponent = m.exponent;
  q->multiplier_bits = bits;
  q->zero_point = params->zero_point;
  q->rounding = params->rounding;
}

/* ---- tensor sets -------------------------------------------------------- */

static SimaStatus
admit_member (const SimaTensorSpec *input, const SimaTensorSpec *output,
    const void *params, void *plan, uint64_t *element_count)
{
  SimaQuantTessRequest r = { input, 1, output, 1,
    *(const SimaQuantTessParams *) params };
  SimaQuantTessPlan *p = plan;
  SimaStatus st = sima_quanttess_check_inference (&r, p);

  *element_count = p->element_count;
  return st;
}

SimaStatus
sima_quanttess_set_check_inference (const SimaQuantTessSetRequest *request,
    SimaQuantTessSetPlan *plan)
{
  SimaSetAdmission a;
  SimaStatus st;

  if (request == NULL || plan == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "QuantTess set check_inference: %s is NULL",
        request == NULL ? "request" : "plan");
  memset (plan, 0, sizeof *plan);
  a = (SimaSetAdmission) { "QuantTess", request->input, request->output,
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
