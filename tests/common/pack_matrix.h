/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pack_matrix.h - the layout-matrix harness of the two "pack" operations
 * (dense view -> MLA tiles: QuantTess, CastTess). An op supplies how to run
 * production and the oracle; the harness builds the buffers (random input
 * bits, holes included), checks the whole output against the oracle, guard
 * bytes around both buffers, the input left unchanged, and that a dirty
 * (0xA5) and a clean (0x00) output buffer end up identical.
 */
#ifndef SIMA_TESTS_PACK_MATRIX_H
#define SIMA_TESTS_PACK_MATRIX_H

#include "layout_gen.h"

typedef struct {
  SimaDType out_dtype;      /* INT8 or BFLOAT16 */
  /* production: admit, prepare and execute */
  SimaStatus (*run) (const void *ctx, const SimaTensorSpec *in,
      const void *in_data, uint64_t in_cap, const SimaTensorSpec *out,
      void *out_data, uint64_t out_cap);
  /* oracle: every byte of the tiled output */
  void (*oracle) (const void *ctx, const SimaTensorSpec *in,
      const void *in_data, const SimaTensorSpec *out, uint8_t *want);
  /* multiplier used to bias random inputs into an interesting range */
  float value_scale;
  const void *ctx;
} PackOp;

typedef struct {
  uint64_t cases, bytes, mismatched_cases, failed, guard_failures,
      input_changed, dirty_differs;
} PackTally;

/* One case; returns 1 when everything matched. */
int pack_matrix_case (TestRng *rng, const PackOp *op, const GenTiling *gt,
    SimaDType in_dtype, GenViewKind kind, PackTally *t);

/* ranks 1-6 x every channel-axis position x C in {1,2,3,16,17,32,33} x
 * compact/pad16 x every view kind, random dtypes (from `in_dtypes`, n of
 * them) and mappings. `vary` is called before each case to pick parameters
 * (may be NULL). Reports four TAP points named after `label`. */
void pack_matrix_run (const char *label, const PackOp *op,
    const SimaDType *in_dtypes, int n_dtypes, uint64_t seed,
    void (*vary) (TestRng *rng, void *ctx), void *vary_ctx);

#endif /* SIMA_TESTS_PACK_MATRIX_H */
