/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DetessDequant on the A65: a table of the 256 possible results, built once
 * with exact integer arithmetic, and the shared tile walk (tile_walk.c)
 * scattering each row of tile pixels into the output view. Every leaf of
 * the divide convention reads the table (a multiply by a reciprocal is not
 * the division): the AVX-512 and NEON ones look it up in vectors, the AVX2
 * ones compute the multiply stage in lanes, so on AVX2-only CPUs the
 * divide convention gets the scalar table leaf (sima_dequant_pixels_select
 * says which leaf serves what).
 */
#include <simaai/kernels/a65/detessdequant.h>

#include <string.h>

#include "../cpu/cpu.h"
#include "../numerics/dequant_exact.h"
#include "../ops/op_common.h"
#include "dequant_pixels.h"
#include "set_execute.h"
#include "tile_walk.h"

SimaStatus
sima_a65_detessdequant_prepare (const SimaDetessDequantPlan *plan,
    SimaA65DetessDequantPlan *out)
{
  uint32_t scale_bits;
  int q, divide;

  if (plan == NULL || out == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "DetessDequant A65 prepare: %s is NULL", plan == NULL ? "plan"
        : "out");
  memset (out, 0, sizeof *out);
  if (plan->output.dtype != SIMA_DTYPE_FLOAT32
      && plan->output.dtype != SIMA_DTYPE_BFLOAT16)
    return sima_status_make (SIMA_UNSUPPORTED_DTYPE,
        "DetessDequant A65 prepare: plan output dtype is %s; was the plan "
        "made by sima_detessdequant_check_inference?",
        sima_dtype_name (plan->output.dtype));
  out->shared = *plan;
  sima_tiled_walk_init (&plan->input_geometry, &plan->output_view, &out->walk);
  memcpy (&scale_bits, &plan->params.scale, sizeof scale_bits);
  divide = plan->params.convention == SIMA_SCALE_DIVIDE;
  for (q = -128; q <= 127; q++) {
    if (plan->output.dtype == SIMA_DTYPE_FLOAT32)
      out->ctx.table.f32[(uint8_t) q] = sima_dequant_f32_bits ((int8_t) q,
          scale_bits, plan->params.zero_point, divide);
    else
      out->ctx.table.bf16[(uint8_t) q] = sima_dequant_bf16_bits ((int8_t) q,
          scale_bits, plan->params.zero_point, divide);
  }
  {
    /* an integer below 2^32 that binary32 holds: the conversion is exact */
    float z = (float) sima_round_int_to_binary32 (plan->params.zero_point);
    memcpy (&out->ctx.zero_point_f32_bits, &z, sizeof z);
    out->ctx.scale_bits = scale_bits;
  }
  out->unpack = sima_dequant_pixels_select (plan->output.dtype, !divide);
  return sima_status_ok ();
}

SimaStatus
sima_a65_detessdequant_execute_on (const SimaA65DetessDequantPlan *plan,
    SimaA65Threads *pool, const SimaConstHostBuffer *in, size_t n_in,
    const SimaHostBuffer *out, size_t n_out)
{
  const SimaDetessDequantPlan *sp;
  SimaStatus st;

  if (plan == NULL || plan->unpack == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "DetessDequant A65 execute: plan is %s", plan == NULL ? "NULL"
        : "not prepared");
  sp = &plan->shared;
  st = sima_check_host_buffers ("DetessDequant", in, n_in, sp->input_bytes,
      SIMA_TILED_ALIGNMENT, out, n_out, sp->output_bytes,
      sp->output_view.scalar_bytes);
  if (sima_status_is_ok (&st) && sp->element_count > 0) {
    SimaA65TileJob job = { &sp->input_geometry, &plan->walk, in->data, out->data,
      NULL, plan->unpack, &plan->ctx, 0 };
    sima_a65_run_tiles (pool, &job);
  }
  return st;
}

SimaStatus
sima_a65_detessdequant_execute (const SimaA65DetessDequantPlan *plan,
    const SimaConstHostBuffer *in, size_t n_in,
    const SimaHostBuffer *out, size_t n_out)
{
  return sima_a65_detessdequant_execute_on (plan, NULL, in, n_in, out, n_out);
}

/* ---- tensor sets (set_execute.c does the work) --------------------------- */

static SimaStatus
prepare_member (const void *plan, void *out)
{
  return sima_a65_detessdequant_prepare (plan, out);
}

static void
member_needs (const void *member, SimaA65SetMemberNeeds *out)
{
  const SimaA65DetessDequantPlan *m = member;

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
  return sima_a65_detessdequant_execute_on (member, pool, in, 1, out, 1);
}

SimaStatus
sima_a65_detessdequant_set_prepare (const SimaDetessDequantSetPlan *plan,
    SimaA65DetessDequantSetPlan *out)
{
  SimaStatus st;

  if (plan == NULL || out == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "DetessDequant A65 set prepare: %s is NULL", plan == NULL ? "plan"
        : "out");
  memset (out, 0, sizeof *out);
  st = sima_a65_set_prepare ("DetessDequant", plan->n_members, plan->members,
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
sima_a65_detessdequant_set_execute_on (const SimaA65DetessDequantSetPlan *plan,
    SimaA65Threads *pool, const SimaConstHostBuffer *in,
    const SimaHostBuffer *out)
{
  SimaA65SetExecution x;

  if (plan == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "DetessDequant A65 set execute: plan is NULL");
  x = (SimaA65SetExecution) { "DetessDequant", plan->n_members, plan->members,
    sizeof plan->members[0], plan->input_offset, plan->output_offset,
    plan->input_bytes, plan->output_bytes, member_needs, run_member, pool };
  return sima_a65_set_execute (&x, in, out);
}

SimaStatus
sima_a65_detessdequant_set_execute (const SimaA65DetessDequantSetPlan *plan,
    const SimaConstHostBuffer *in, const SimaHostBuffer *out)
{
  return sima_a65_detessdequant_set_execute_on (plan, NULL, in, out);
}
