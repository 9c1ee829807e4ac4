/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/a65/casttess.h - CastTess on the A65 (host CPU).
 *
 * execute() checks the buffers before writing anything, then writes the
 * complete tiled output (BF16 byte planes, zero channel padding, zero
 * alignment gaps). Integer arithmetic only: the caller's FP environment is
 * neither needed nor changed. No allocation, threads or global state.
 */
#ifndef SIMAAI_KERNELS_A65_CASTTESS_H
#define SIMAAI_KERNELS_A65_CASTTESS_H

#include <simaai/kernels/a65/leaves.h>
#include <simaai/kernels/ops/casttess.h>
#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

typedef struct {
  SimaCastTessPlan shared;
  /* Filled by prepare; private to the A65 executor. */
  SimaTiledWalk walk;
  SimaA65PackFn pack;       /* ctx: NULL */
} SimaA65CastTessPlan;

SimaStatus sima_a65_casttess_prepare (const SimaCastTessPlan *plan,
    SimaA65CastTessPlan *out);

/* in/out: arrays of exactly one buffer each, in port order. */
SimaStatus sima_a65_casttess_execute (const SimaA65CastTessPlan *plan,
    const SimaConstHostBuffer *in, size_t n_in,
    const SimaHostBuffer *out, size_t n_out);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_A65_CASTTESS_H */
