/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Round-trip property: QuantTess (multiplier m, zero point z, nearest even)
 * then DetessDequant (scale 1/m, the same z) gives back every in-range input
 * within half a quantization step, on random tensors and geometries. When
 * the tiling is the channel-blocked one ({-1,H,W,C}, tile {1,H,W,16}, pad16),
 * the tiles are also read back as MlaCBlocked: the two descriptions of the
 * same bytes must agree.
 */
#include <simaai/kernels/a65/detessdequant.h>
#include <simaai/kernels/a65/quanttess.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "layout_gen.h"
#include "tap.h"
#include "test_util.h"

static SimaStatus
quantize (const SimaTensorSpec *in, const float *x, const SimaTensorSpec *out,
    SimaQuantTessParams p, uint8_t **tiles, uint64_t *tile_bytes)
{
  SimaQuantTessRequest req = { in, 1, out, 1, p };
  SimaQuantTessPlan plan;
  SimaA65QuantTessPlan a65;
  SimaStatus st = sima_quanttess_check_inference (&req, &plan);

  if (st.code == SIMA_OK)
    st = sima_a65_quanttess_prepare (&plan, &a65);
  if (st.code == SIMA_OK) {
    SimaConstHostBuffer ib = { x, plan.input_bytes };
    SimaHostBuffer ob;
    *tile_bytes = plan.output_bytes;
    *tiles = aligned_alloc (16, (size_t) (plan.output_bytes + 16));
    ob = (SimaHostBuffer) { *tiles, plan.output_bytes };
    st = sima_a65_quanttess_execute (&a65, &ib, 1, &ob, 1);
  }
  return st;
}

static SimaStatus
dequantize (const SimaTensorSpec *in, const uint8_t *tiles,
    uint64_t tile_bytes, const SimaTensorSpec *out, float *y, uint64_t n,
    SimaDetessDequantParams p)
{
  SimaDetessDequantRequest req = { in, 1, out, 1, p };
  SimaDetessDequantPlan plan;
  SimaA65DetessDequantPlan a65;
  SimaStatus st = sima_detessdequant_check_inference (&req, &plan);

  if (st.code == SIMA_OK)
    st = sima_a65_detessdequant_prepare (&plan, &a65);
  if (st.code == SIMA_OK) {
    SimaConstHostBuffer ib = { tiles, tile_bytes };
    SimaHostBuffer ob = { y, n * sizeof (float) };
    st = sima_a65_detessdequant_execute (&a65, &ib, 1, &ob, 1);
  }
  return st;
}

int
main (void)
{
  static const float mults[4] = { 127.0f, 0.3f, 12.5f, 1.0f / 64.0f };
  TestRng rng = { 0x70a7 };
  uint64_t cases = 0, elements = 0, far = 0, failures = 0, cblocked = 0;
  double worst = 0.0;
  int i;

  for (i = 0; i < 1500; i++) {
    int rank = (int) test_rng_range (&rng, 1, SIMA_MAX_RANK);
    int use_cblocked = rank >= 3 && test_rng_below (&rng, 3) == 0;
    GenTiling gt;
    SimaTensorSpec fin, tiled, fout;
    SimaQuantTessParams qp;
    SimaDetessDequantParams dp = { 0, 0, SIMA_SCALE_MULTIPLY };
    uint64_t n = 1, j, tile_bytes = 0;
    uint8_t *tiles = NULL;
    float *x, *y;
    SimaStatus st;
    int k, pass;

    gen_tiling (&rng, rank, (int) test_rng_below (&rng, (uint64_t) rank),
        test_rng_range (&rng, 1, 40), (SimaChannels) test_rng_below (&rng, 2),
        &gt);
    if (use_cblocked) {   /* the channel-blocked tiling of the same shape */
      gt.shape[rank - 1] = test_rng_range (&rng, 1, 40);
      gt.tiled = (SimaMlaTiled) { { -1, (int8_t) (rank - 3),
          (int8_t) (rank - 2), (int8_t) (rank - 1) },
        { 1, gt.shape[rank - 3], gt.shape[rank - 2], 16 },
        SIMA_CHANNELS_PAD16, 0 };
    }
    for (k = 0; k < rank; k++)
      n *= (uint64_t) gt.shape[k];
    fin = test_spec_dense (SIMA_DTYPE_FLOAT32, rank, gt.shape);
    fout = fin;
    tiled = test_spec_tiled (SIMA_DTYPE_INT8, rank, gt.shape, gt.tiled.axes,
        gt.tiled.tile_shape, gt.tiled.channels);
    qp.multiplier = mults[test_rng_below (&rng, 4)];
    qp.zero_point = (int32_t) test_rng_range (&rng, -20, 20);
    qp.rounding = SIMA_ROUNDING_NEAREST_EVEN;
    dp.scale = 1.0f / qp.multiplier;
    dp.zero_point = qp.zero_point;

    x = malloc (sizeof (float) * n);
    y = malloc (sizeof (float) * n);
    for (j = 0; j < n; j++) {
      /* in range: (x*m + z) within [-128, 127] */
      double u = (double) (test_rng_next (&rng) >> 11) / 9007199254740992.0;
      x[j] = (float) ((u * 250.0 - 125.0 - qp.zero_point) / qp.multiplier);
    }
    st = quantize (&fin, x, &tiled, qp, &tiles, &tile_bytes);
    for (pass = 0; pass < 1 + use_cblocked && st.code == SIMA_OK; pass++) {
      SimaTensorSpec din = tiled;
      if (pass == 1) {
        din.layout = SIMA_LAYOUT_MLA_CBLOCKED;
        cblocked++;
      }
      memset (y, 0, sizeof (float) * n);
      st = dequantize (&din, tiles, tile_bytes, &fout, y, n, dp);
      for (j = 0; j < n && st.code == SIMA_OK; j++) {
        double step = 1.0 / qp.multiplier;
        double err = fabs ((double) x[j] - (double) y[j]);
        double bound = 0.5 * step * (1.0 + 1e-6) + fabs (x[j]) * 1e-6;
        worst = err / step > worst ? err / step : worst;
        far += err > bound;
      }
      elements += n;
    }
    if (st.code != SIMA_OK) {
      failures++;
      tap_diag ("rank %d shape %s: %s", rank,
          test_shape_str (rank, gt.shape), st.message);
    }
    cases++;
    free (tiles);
    free (x);
    free (y);
  }
  tap_ok (failures == 0 && far == 0, "QuantTess -> DetessDequant(1/m) "
      "round trip: %llu geometries (%llu also read as MlaCBlocked), %llu "
      "elements, %llu beyond half a step (worst %.6f steps)",
      (unsigned long long) cases, (unsigned long long) cblocked,
      (unsigned long long) elements, (unsigned long long) far, worst);
  return tap_done ();
}
