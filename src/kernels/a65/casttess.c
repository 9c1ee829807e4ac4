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
  out->pack = sima_cast_pixels_select (plan->input.dtype);
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
sima_a65_casttess_execute (const SimaA65CastTessPlan *plan,
    const SimaConstHostBuffer *in, size_t n_in,
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
    SimaFpState fp;
    /* FP16 widening in SIMD leaves must not flush subnormal halves, drop
     * NaN payloads or read the alternative half format (cpu.h) */
    sima_fp_enter (&fp);
    sima_a65_pack_tiles (&sp->output_geometry, &plan->walk, in->data,
        out->data, plan->pack, NULL);
    sima_fp_leave (&fp);
  }
  return st;
}
