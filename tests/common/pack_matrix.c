/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "pack_matrix.h"

#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "tap.h"

int
pack_matrix_case (TestRng *rng, const PackOp *op, const GenTiling *gt,
    SimaDType in_dtype, GenViewKind kind, PackTally *t)
{
  SimaTensorSpec in = gen_view (rng, in_dtype, gt->rank, gt->shape, kind);
  SimaTensorSpec out = test_spec_tiled (op->out_dtype, gt->rank, gt->shape,
      gt->tiled.axes, gt->tiled.tile_shape, gt->tiled.channels);
  uint64_t in_bytes = oracle_required_bytes (&in);
  uint64_t out_bytes = oracle_required_bytes (&out);
  TestBuffer ib = test_buffer_new ((size_t) in_bytes, 0, 0);
  TestBuffer ob = test_buffer_new ((size_t) out_bytes, 0, 0xA5);
  TestBuffer ob2 = test_buffer_new ((size_t) out_bytes, 0, 0x00);
  uint8_t *want = malloc ((size_t) out_bytes + 1);
  uint8_t *in_copy = malloc ((size_t) in_bytes + 1);
  SimaStatus st, st2;
  int ok = 1;

  /* holes of strided views hold random bits too: they must not matter */
  gen_fill_values (rng, in_dtype, op->value_scale, ib.data, ib.size);
  memcpy (in_copy, ib.data, ib.size);
  op->oracle (op->ctx, &in, ib.data, &out, want);
  st = op->run (op->ctx, &in, ib.data, in_bytes, &out, ob.data, out_bytes);
  st2 = op->run (op->ctx, &in, ib.data, in_bytes, &out, ob2.data, out_bytes);

  t->cases++;
  t->bytes += out_bytes;
  if (st.code != SIMA_OK || st2.code != SIMA_OK) {
    t->failed++;
    ok = 0;
    tap_diag ("call failed: %s", st.code != SIMA_OK ? st.message : st2.message);
  } else {
    if (memcmp (ob.data, want, (size_t) out_bytes) != 0) {
      t->mismatched_cases++;
      ok = 0;
    }
    if (memcmp (ob.data, ob2.data, (size_t) out_bytes) != 0) {
      t->dirty_differs++;
      ok = 0;
    }
  }
  if (!test_buffer_guards_ok (&ob) || !test_buffer_guards_ok (&ob2)
      || !test_buffer_guards_ok (&ib)) {
    t->guard_failures++;
    ok = 0;
  }
  if (memcmp (in_copy, ib.data, ib.size) != 0) {
    t->input_changed++;
    ok = 0;
  }
  if (!ok && t->mismatched_cases + t->failed + t->guard_failures < 6)
    tap_diag ("failing case: %s %s view, rank %d shape %s axes %d,%d,%d,%d "
        "tile %lld,%lld,%lld,%lld %s", sima_dtype_name (in_dtype),
        gen_view_kind_name (kind), gt->rank,
        test_shape_str (gt->rank, gt->shape), gt->tiled.axes[0],
        gt->tiled.axes[1], gt->tiled.axes[2], gt->tiled.axes[3],
        (long long) gt->tiled.tile_shape[0], (long long) gt->tiled.tile_shape[1],
        (long long) gt->tiled.tile_shape[2], (long long) gt->tiled.tile_shape[3],
        sima_channels_name (gt->tiled.channels));
  test_buffer_free (&ib);
  test_buffer_free (&ob);
  test_buffer_free (&ob2);
  free (want);
  free (in_copy);
  return ok;
}

void
pack_matrix_run (const char *label, const PackOp *op,
    const SimaDType *in_dtypes, int n_dtypes, uint64_t seed,
    void (*vary) (TestRng *rng, void *ctx), void *vary_ctx)
{
  static const int64_t channel_counts[] = { 1, 2, 3, 16, 17, 32, 33 };
  TestRng rng = { seed };
  PackTally t;
  int rank, c_axis, mode, kind;
  size_t ci;

  memset (&t, 0, sizeof t);
  for (rank = 1; rank <= SIMA_MAX_RANK; rank++)
    for (c_axis = 0; c_axis < rank; c_axis++)
      for (ci = 0; ci < sizeof channel_counts / sizeof channel_counts[0]; ci++)
        for (mode = 0; mode < 2; mode++)
          for (kind = 0; kind < GEN_VIEW_KIND_COUNT; kind++) {
            GenTiling gt;
            SimaDType dtype = in_dtypes[test_rng_below (&rng,
                    (uint64_t) n_dtypes)];
            gen_tiling (&rng, rank, c_axis, channel_counts[ci],
                (SimaChannels) mode, &gt);
            if (vary)
              vary (&rng, vary_ctx);
            pack_matrix_case (&rng, op, &gt, dtype, (GenViewKind) kind, &t);
          }
  tap_ok (t.cases > 0 && t.mismatched_cases == 0 && t.failed == 0,
      "%s layout matrix: ranks 1-6 x every channel axis x C in "
      "{1,2,3,16,17,32,33} x compact/pad16 x 4 input views: %llu cases, "
      "%llu output bytes, %llu mismatched cases, %llu failed calls", label,
      (unsigned long long) t.cases, (unsigned long long) t.bytes,
      (unsigned long long) t.mismatched_cases, (unsigned long long) t.failed);
  tap_ok (t.guard_failures == 0, "%s: guard bytes around input and output "
      "intact in all %llu cases", label, (unsigned long long) t.cases);
  tap_ok (t.input_changed == 0, "%s: input buffers (holes included) "
      "unchanged in all %llu cases", label, (unsigned long long) t.cases);
  tap_ok (t.dirty_differs == 0, "%s: dirty output reuse (0xA5 vs 0x00 "
      "prefill) gives identical bytes in all %llu cases", label,
      (unsigned long long) t.cases);
}
