/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CastTess on the A65: the shared tile walk (tile_walk.c) with a leaf that
 * converts each row of pixels to BF16 byte planes.
 */
#include <simaai/kernels/a65/casttess.h>

#include <string.h>

#include "../cpu/cpu.h"
#include "../ops/op_common.h"
#include "cast_pixels.h"
#include "set_execute.h"
#include "tile_walk.h"

SimaStatus
sima_a65_casttess_prepare (const SimaCastTessPlan *plan,
    SimaA65CastTessPlan *out)
{
  if (plan == NULL || out == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "CastTess A65 prepare: %s is NULL", plan == NULL ? "plan" : "out");
  memset (out, 0, sizeof *out);
  out->shared = *plan;
  sima_tiled_walk_init (&plan->output_geometry, &plan->input_view, &out->walk);
  out->stream = sima_cpu_streams (plan->output_bytes);
  out->pack = sima_cast_pixels_select (plan->input.dtype, out->stream);
  if (out->pack == NULL) {
    memset (out, 0, sizeof *out);
    return sima_status_make (SIMA_UNSUPPORTED_DTYPE,
        "CastTess A65 prepare: plan input dtype is %s; was the plan made "
        "by sima_casttess_check_inference?",
        sima_dtype_name (plan->input.dtype));
  }
  return sima_status_ok ();
}

SimaStatus
sima_a65_casttess_execute_on (const SimaA65CastTessPlan *plan,
    SimaA65Threads *pool, const SimaConstHostBuffer *in, size_t n_in,
    const SimaHostBuffer *out, size_t n_out)
{
  const SimaCastTessPlan *sp;
  SimaStatus st;

  if (plan == NULL || plan->pack == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "CastTess A65 execute: plan is %s", plan == NULL ? "NULL"
        : "not prepared");
  sp = &plan->shared;
  st = sima_check_host_buffers ("CastTess", in, n_in, sp->input_bytes,
      sp->input_view.scalar_bytes, out, n_out, sp->output_bytes,
      SIMA_TILED_ALIGNMENT);
  if (sima_status_is_ok (&st) && sp->element_count > 0) {
    SimaA65TileJob job = { &sp->output_geometry, &plan->walk, in->data, out->data,
      plan->pack, NULL, NULL, plan->stream };
    sima_a65_run_tiles (pool, &job);
  }
  return st;
}

SimaStatus
sima_a65_casttess_execute (const SimaA65CastTessPlan *plan,
    const SimaConstHostBuffer *in, size_t n_in,
    const SimaHostBuffer *out, size_t n_out)
{
  return sima_a65_casttess_execute_on (plan, NULL, in, n_in, out, n_out);
}

/* ---- tensor sets (set_execute.c does the work) --------------------------- */

static SimaStatus
prepare_member (const void *plan, void *out)
{
  return sima_a65_casttess_prepare (plan, out);
}

static void
member_needs (const void *member, SimaA65SetMemberNeeds *out)
{
  const SimaA65CastTessPlan *m = member;

  out->prepared = m->pack != NULL;
  out->element_count = m->shared.element_count;
  out->input_bytes = m->shared.input_bytes;
  out->output_bytes = m->shared.output_bytes;
  out->input_alignment = m->shared.input_view.scalar_bytes;
  out->output_alignment = SIMA_TILED_ALIGNMENT;
}

static SimaStatus
run_member (const void *member, SimaA65Threads *pool,
    const SimaConstHostBuffer *in, const SimaHostBuffer *out)
{
  return sima_a65_casttess_execute_on (member, pool, in, 1, out, 1);
}

SimaStatus
sima_a65_casttess_set_prepare (const SimaCastTessSetPlan *plan,
    SimaA65CastTessSetPlan *out)
{
  SimaStatus st;

  if (plan == NULL || out == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "CastTess A65 set prepare: %s is NULL", plan == NULL ? "plan"
        : "out");
  memset (out, 0, sizeof *out);
  st = sima_a65_set_prepare ("CastTess", plan->n_members, plan->members,
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
sima_a65_casttess_set_execute_on (const SimaA65CastTessSetPlan *plan,
    SimaA65Threads *pool, const SimaConstHostBuffer *in,
    const SimaHostBuffer *out)
{
  SimaA65SetExecution x;

  if (plan == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "CastTess A65 set execute: plan is NULL");
  x = (SimaA65SetExecution) { "CastTess", plan->n_members, plan->members,
    sizeof plan->members[0], plan->input_offset, plan->output_offset,
    plan->input_bytes, plan->output_bytes, member_needs, run_member, pool };
  return sima_a65_set_execute (&x, in, out);
}

SimaStatus
sima_a65_casttess_set_execute (const SimaA65CastTessSetPlan *plan,
    const SimaConstHostBuffer *in, const SimaHostBuffer *out)
{
  return sima_a65_casttess_set_execute_on (plan, NULL, in, out);
}
