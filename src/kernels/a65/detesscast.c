/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DetessCast on the A65: the shared tile walk (tile_walk.c, the walk
 * DetessDequant uses; the geometry's element bytes make it step over BF16
 * byte-plane pixels, cblock blocks included) with a leaf that joins each
 * pixel's low and high planes into the output view. Byte moves only: no FP
 * state is entered or needed.
 */
#include <simaai/kernels/a65/detesscast.h>

#include <string.h>

#include "../ops/op_common.h"
#include "detess_cast_pixels.h"
#include "set_execute.h"
#include "tile_walk.h"

SimaStatus
sima_a65_detesscast_prepare (const SimaDetessCastPlan *plan,
    SimaA65DetessCastPlan *out)
{
  if (plan == NULL || out == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "DetessCast A65 prepare: %s is NULL", plan == NULL ? "plan" : "out");
  memset (out, 0, sizeof *out);
  if (plan->input_geometry.element_bytes != 2 && plan->element_count > 0)
    return sima_status_make (SIMA_UNSUPPORTED_DTYPE,
        "DetessCast A65 prepare: plan input has %d-byte elements, not BF16 "
        "byte planes; was the plan made by sima_detesscast_check_inference?",
        plan->input_geometry.element_bytes);
  out->unpack = sima_detess_cast_pixels_select (plan->output.dtype);
  if (out->unpack == NULL)
    return sima_status_make (SIMA_UNSUPPORTED_DTYPE,
        "DetessCast A65 prepare: plan output dtype is %s; was the plan made "
        "by sima_detesscast_check_inference?",
        sima_dtype_name (plan->output.dtype));
  out->shared = *plan;
  sima_tiled_walk_init (&plan->input_geometry, &plan->output_view, &out->walk);
  return sima_status_ok ();
}

SimaStatus
sima_a65_detesscast_execute_on (const SimaA65DetessCastPlan *plan,
    SimaA65Threads *pool, const SimaConstHostBuffer *in, size_t n_in, const SimaHostBuffer *out,
    size_t n_out)
{
  const SimaDetessCastPlan *sp;
  SimaStatus st;

  if (plan == NULL || plan->unpack == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "DetessCast A65 execute: plan is %s", plan == NULL ? "NULL"
        : "not prepared");
  sp = &plan->shared;
  st = sima_check_host_buffers ("DetessCast", in, n_in, sp->input_bytes,
      SIMA_TILED_ALIGNMENT, out, n_out, sp->output_bytes,
      sp->output_view.scalar_bytes);
  /* no sima_fp_enter: the leaves move bytes, they never compute */
  if (sima_status_is_ok (&st) && sp->element_count > 0) {
    SimaA65TileJob job = { &sp->input_geometry, &plan->walk, in->data, out->data,
      NULL, plan->unpack, NULL, 0 };
    sima_a65_run_tiles (pool, &job);
  }
  return st;
}

SimaStatus
sima_a65_detesscast_execute (const SimaA65DetessCastPlan *plan,
    const SimaConstHostBuffer *in, size_t n_in,
    const SimaHostBuffer *out, size_t n_out)
{
  return sima_a65_detesscast_execute_on (plan, NULL, in, n_in, out, n_out);
}

/* ---- tensor sets (set_execute.c does the work) --------------------------- */

static SimaStatus
prepare_member (const void *plan, void *out)
{
  return sima_a65_detesscast_prepare (plan, out);
}

static void
member_needs (const void *member, SimaA65SetMemberNeeds *out)
{
  const SimaA65DetessCastPlan *m = member;

  out->prepared = m->unpack != NULL;
  out->element_count = m->shared.element_count;
  out->input_bytes = m->shared.input_bytes;
  out->output_bytes = m->shared.output_bytes;
  out->input_alignment = SIMA_TILED_ALIGNMENT;
  out->output_alignment = m->shared.output_view.scalar_bytes;
}

static SimaStatus
run_member (const void *member, SimaA65Threads *pool,
    const SimaConstHostBuffer *in, const SimaHostBuffer *out)
{
  return sima_a65_detesscast_execute_on (member, pool, in, 1, out, 1);
}

SimaStatus
sima_a65_detesscast_set_prepare (const SimaDetessCastSetPlan *plan,
    SimaA65DetessCastSetPlan *out)
{
  SimaStatus st;

  if (plan == NULL || out == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "DetessCast A65 set prepare: %s is NULL", plan == NULL ? "plan"
        : "out");
  memset (out, 0, sizeof *out);
  st = sima_a65_set_prepare ("DetessCast", plan->n_members, plan->members,
      sizeof plan->members[0], out->members, sizeof out->members[0],
      prepare_member, &plan->input_layout, &plan->output_layout,
      out->input_offset, out->output_offset);
  if (!sima_status_is_ok (&st)) {
    memset (out, 0, sizeof *out);
    return st;
  }
  out->n_members = plan->n_members;
  out->input_bytes = plan->input_bytes;
  out->output_bytes = plan->output_bytes;
  return st;
}

SimaStatus
sima_a65_detesscast_set_execute_on (const SimaA65DetessCastSetPlan *plan,
    SimaA65Threads *pool, const SimaConstHostBuffer *in,
    const SimaHostBuffer *out)
{
  SimaA65SetExecution x;

  if (plan == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "DetessCast A65 set execute: plan is NULL");
  x = (SimaA65SetExecution) { "DetessCast", plan->n_members, plan->members,
    sizeof plan->members[0], plan->input_offset, plan->output_offset,
    plan->input_bytes, plan->output_bytes, member_needs, run_member, pool };
  return sima_a65_set_execute (&x, in, out);
}

SimaStatus
sima_a65_detesscast_set_execute (const SimaA65DetessCastSetPlan *plan,
    const SimaConstHostBuffer *in, const SimaHostBuffer *out)
{
  return sima_a65_detesscast_set_execute_on (plan, NULL, in, out);
}
