/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DetessDequant on the EV74 emulator: the capability; every INT8 value for
 * both output dtypes x wide zero points x normal, subnormal and huge scales
 * against the oracle; 10,000 random geometries (MlaTiled and MlaCBlocked
 * inputs, contiguous, pitched, permuted and channel-strided outputs, normal
 * and subnormal scales) against the A65 over 1-4 workers and both DMA
 * models, holes and guards included; and the data movement of the pad16 C3
 * and compact C64 cases.
 */
#include <simaai/kernels/a65/detessdequant.h>
#include <simaai/kernels/ev74/detessdequant.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dq_divide_cases.h"
#include "ev74_diff.h"
#include "fpenv_util.h"
#include "layout_gen.h"
#include "oracle.h"
#include "status_expect.h"
#include "tap.h"
#include "test_util.h"

static int
admit (const SimaTensorSpec *in, const SimaTensorSpec *out,
    SimaDetessDequantParams params, SimaDetessDequantPlan *plan)
{
  SimaDetessDequantRequest req = { in, 1, out, 1, params };
  return sima_detessdequant_check_inference (&req, plan).code == SIMA_OK;
}

static SimaStatus
device_run (DiffBench *b, const SimaDetessDequantPlan *plan,
    SimaEv74JobStats *js)
{
  SimaEv74Descriptor d;
  SimaEv74Binding bi = test_arena_binding (&b->in, 0);
  SimaEv74Binding bo = test_arena_binding (&b->out, 0);
  SimaEv74Region *regions[2] = { b->in.region, b->out.region };
  SimaStatus st = sima_ev74_detessdequant_encode_relocatable (plan, &d);
  if (st.code == SIMA_OK)
    st = sima_ev74_descriptor_bind (&d, &bi, &bo);
  if (st.code == SIMA_OK)
    st = sima_ev74_run (b->dev, &d, regions, 2, -1, js);
  return st;
}

/* Every INT8 value, both dtypes, 7 zero points, 6 scales (two subnormal:
 * the exact-table path), on 2 workers. */
static void
every_value (void)
{
  static const int32_t zps[7] = { INT32_MIN, -(1 << 24) - 1, -128, 0, 127,
    (1 << 24) + 1, INT32_MAX };
  static const int64_t n = 256;
  static const int8_t axes[4] = { -1, -1, -1, 0 };
  static const int64_t tile[4] = { 1, 1, 1, 16 };
  float scales[6];
  uint64_t cases = 0, bad = 0, failed = 0;
  DiffBench b;
  int d, zi, si, i;

  scales[0] = 1.0f;
  scales[1] = 1.0f / 127.0f;
  scales[2] = 0.3f;
  scales[3] = ldexpf (1.0f, -130);
  scales[4] = 1e-45f;
  scales[5] = 3.4e38f;
  diff_bench_open (&b, "emulator:workers=2,dma=deferred");
  for (i = 0; i < 256; i++)
    b.in.host[i] = (uint8_t) i;
  for (d = 0; d < 2; d++) {
    SimaDType dt = d ? SIMA_DTYPE_BFLOAT16 : SIMA_DTYPE_FLOAT32;
    SimaTensorSpec in = test_spec_tiled (SIMA_DTYPE_INT8, 1, &n, axes, tile,
        SIMA_CHANNELS_COMPACT);
    SimaTensorSpec out = test_spec_dense (dt, 1, &n);
    for (zi = 0; zi < 7; zi++) {
      for (si = 0; si < 6; si++) {
        SimaDetessDequantParams p = { scales[si], zps[zi], SIMA_SCALE_MULTIPLY };
        SimaDetessDequantPlan plan;
        SimaEv74JobStats js;
        admit (&in, &out, p, &plan);
        if (device_run (&b, &plan, &js).code != SIMA_OK) {
          failed++;
          continue;
        }
        for (i = 0; i < 256; i++) {
          uint32_t got = d ? ((uint16_t *) b.out.host)[i]
              : ((uint32_t *) b.out.host)[i];
          uint32_t want = d
              ? oracle_dequant_bf16_bits ((int8_t) i, p.scale, p.zero_point)
              : oracle_dequant_f32_bits ((int8_t) i, p.scale, p.zero_point);
          cases++;
          bad += got != want;
        }
      }
    }
  }
  diff_bench_close (&b);
  tap_ok (bad == 0 && failed == 0 && cases == 21504, "every INT8 value x "
      "FP32/BF16 x 7 zero points x 6 scales (2 subnormal) on the emulator: "
      "%llu cases, %llu mismatches against the oracle, %llu failed jobs",
      (unsigned long long) cases, (unsigned long long) bad,
      (unsigned long long) failed);
}

/* The divide convention, every INT8 value x dq_divide_cases.h's zero points
 * and dq_scales x FP32/BF16 on 2 workers, once per FP environment: the
 * emulator's worker threads, which decode the descriptor and build the
 * table, are created inside the environment and inherit it (pthreads pass
 * the FP environment on), while this thread returns to the default one to
 * compute the oracle's values. */
static void
divide_every_value (void)
{
  static const int64_t n = 256;
  static const int8_t axes[4] = { -1, -1, -1, 0 };
  static const int64_t tile[4] = { 1, 1, 1, 16 };
  float scales[DQ_DIVIDE_N_SCALES];
  int e, d, zi, si, i;

  dq_divide_scales (scales);
  for (e = 0; e < TEST_FPENV_COUNT; e++) {
    uint64_t cases = 0, bad = 0, failed = 0;
    DiffBench b;

    test_fpenv_enter ((TestFpEnv) e);
    diff_bench_open (&b, "emulator:workers=2,dma=deferred");
    test_fpenv_leave ();
    for (i = 0; i < 256; i++)
      b.in.host[i] = (uint8_t) i;
    for (d = 0; d < 2; d++) {
      SimaDType dt = d ? SIMA_DTYPE_BFLOAT16 : SIMA_DTYPE_FLOAT32;
      SimaTensorSpec in = test_spec_tiled (SIMA_DTYPE_INT8, 1, &n, axes, tile,
          SIMA_CHANNELS_COMPACT);
      SimaTensorSpec out = test_spec_dense (dt, 1, &n);
      for (zi = 0; zi < DQ_DIVIDE_N_ZPS; zi++) {
        for (si = 0; si < DQ_DIVIDE_N_SCALES; si++) {
          SimaDetessDequantParams p = { scales[si], dq_divide_zps[zi],
            SIMA_SCALE_DIVIDE };
          SimaDetessDequantPlan plan;
          SimaEv74JobStats js;
          if (!admit (&in, &out, p, &plan)
              || device_run (&b, &plan, &js).code != SIMA_OK) {
            failed++;
            continue;
          }
          for (i = 0; i < 256; i++) {
            uint32_t got = d ? ((uint16_t *) b.out.host)[i]
                : ((uint32_t *) b.out.host)[i];
            uint32_t want = d
                ? oracle_dequant_div_bf16_bits ((int8_t) i, p.scale,
                    p.zero_point)
                : oracle_dequant_div_f32_bits ((int8_t) i, p.scale,
                    p.zero_point);
            cases++;
            if (got != want && bad++ < 4)
              tap_diag ("divide %s q=%d zp=%ld dq_scale=%a (%s): got %#x, "
                  "oracle %#x", sima_dtype_name (dt), i - 256 * (i > 127),
                  (long) p.zero_point, (double) p.scale,
                  test_fpenv_name ((TestFpEnv) e), got, want);
          }
        }
      }
    }
    diff_bench_close (&b);
    tap_ok (bad == 0 && failed == 0 && cases == 2 * 256 * DQ_DIVIDE_N_ZPS
        * DQ_DIVIDE_N_SCALES, "divide, every INT8 value x FP32/BF16 x %d "
        "zero points x %d dq_scales on the emulator, workers started under "
        "%s: %llu cases, %llu mismatches against the oracle, %llu failed "
        "jobs", DQ_DIVIDE_N_ZPS, DQ_DIVIDE_N_SCALES,
        test_fpenv_name ((TestFpEnv) e), (unsigned long long) cases,
        (unsigned long long) bad, (unsigned long long) failed);
  }
}


/* cblock sweeps (SimaMlaTiled.cblock, docs/layout.md): pad16 tiles in the
 * 16-channel block order, channel counts up to 80 and C tiles of 8-80. */
static const int64_t cb_channels[] = { 1, 3, 16, 17, 32, 33, 64, 70, 80 };
static const int64_t cb_c_tiles[] = { 8, 16, 32, 64, 80 };

static void
cblock_tiling (TestRng *rng, GenTiling *gt)
{
  gt->tiled.channels = SIMA_CHANNELS_PAD16;
  gt->tiled.cblock = 1;
  if (test_rng_below (rng, 4) != 0)
    gt->tiled.tile_shape[SIMA_MLA_C] =
        cb_c_tiles[test_rng_below (rng, sizeof cb_c_tiles / sizeof cb_c_tiles[0])];
}

static int
random_plan (TestRng *rng, SimaDetessDequantPlan *plan, int cblock)
{
  static const int64_t channels[] = { 1, 2, 3, 4, 16, 17, 32, 33, 64, 70 };
  int rank = (int) test_rng_range (rng, 1, SIMA_MAX_RANK);
  int cblocked = !cblock && rank >= 3 && test_rng_below (rng, 4) == 0;
  SimaTensorSpec in, out;
  SimaDetessDequantParams p = { 0, 0, SIMA_SCALE_MULTIPLY };
  GenTiling gt;

  gen_tiling (rng, rank, cblocked ? rank - 1
      : (int) test_rng_below (rng, (uint64_t) rank),
      cblock ? cb_channels[test_rng_below (rng, sizeof cb_channels
              / sizeof cb_channels[0])]
      : channels[test_rng_below (rng, sizeof channels / sizeof channels[0])],
      (SimaChannels) test_rng_below (rng, 2), &gt);
  if (cblock)
    cblock_tiling (rng, &gt);
  in = test_spec_tiled (SIMA_DTYPE_INT8, rank, gt.shape, gt.tiled.axes,
      gt.tiled.tile_shape, gt.tiled.channels);
  in.tiled.cblock = gt.tiled.cblock;
  if (cblocked)
    in.layout = SIMA_LAYOUT_MLA_CBLOCKED;
  out = gen_view (rng, test_rng_below (rng, 2) ? SIMA_DTYPE_FLOAT32
      : SIMA_DTYPE_BFLOAT16, rank, gt.shape,
      (GenViewKind) test_rng_below (rng, GEN_VIEW_KIND_COUNT));
  p.scale = test_rng_below (rng, 4) == 0 ? ldexpf (1.0f, -135)
      : (float) test_rng_range (rng, 1, 1000) / 997.0f;
  p.zero_point = test_rng_below (rng, 4) == 0
      ? (int32_t) (uint32_t) test_rng_next (rng)
      : (int32_t) test_rng_range (rng, -300, 300);
  return admit (&in, &out, p, plan) && plan->element_count > 0
      && plan->input_bytes <= (400 << 10) && plan->output_bytes <= (1 << 20);
}

static void
differential (const char *label, uint64_t seed, int count, int cblock)
{
  DiffBench benches[8];
  DiffTally t;
  TestRng rng = { seed };
  uint64_t strided = 0, cblocked = 0, subnormal = 0;
  int i, k;

  memset (&t, 0, sizeof t);
  for (k = 0; k < 8; k++)
    diff_bench_open (&benches[k], diff_specs[k]);
  for (i = 0; i < count; i++) {
    SimaDetessDequantPlan plan;
    DiffBench *b = &benches[i % 8];
    DiffJob job;
    size_t in_off, out_off, j;

    while (!random_plan (&rng, &plan, cblock)) {
    }
    job = diff_detessdequant_job (&plan);
    strided += (uint64_t) job.single_writer;
    cblocked += plan.input.layout == SIMA_LAYOUT_MLA_CBLOCKED;
    subnormal += plan.params.scale < 1e-38f;
    diff_offsets (&rng, &job, 16, plan.output_view.scalar_bytes, &in_off,
        &out_off);
    /* every input byte random: padding and gaps hold garbage */
    for (j = 0; j < (size_t) plan.input_bytes; j++)
      b->in.host[in_off + j] = (uint8_t) test_rng_next (&rng);
    diff_run (b, &job, in_off, out_off, &t);
  }
  for (k = 0; k < 8; k++)
    diff_bench_close (&benches[k]);
  diff_report (label, &t, (uint64_t) count);
  if (cblock) {
    tap_ok (strided > 100 && subnormal > 100, "the cblock sweep covered "
        "%llu strided outputs (one writer), %llu subnormal scales",
        (unsigned long long) strided, (unsigned long long) subnormal);
    return;
  }
  tap_ok (strided > 1000 && cblocked > 500 && subnormal > 1000,
      "the sweep covered %llu strided outputs (one writer), %llu "
      "channel-blocked inputs, %llu subnormal scales (exact table)",
      (unsigned long long) strided, (unsigned long long) cblocked,
      (unsigned long long) subnormal);
}

static void
basics_and_data_movement (void)
{
  static const int64_t rgb[3] = { 224, 224, 3 }, c64[4] = { 1, 56, 56, 64 };
  static const int8_t axes3[4] = { -1, 0, 1, 2 }, axes4[4] = { -1, 1, 2, 3 };
  static const int64_t tile[4] = { 1, 8, 16, 16 };
  struct {
    const char *name;
    int rank;
    const int64_t *shape;
    const int8_t *axes;
    SimaChannels mode;
    int64_t c_tile;
    int cblock;
  } cases[3] = {
    { "pad16 C3 224x224x3", 3, rgb, axes3, SIMA_CHANNELS_PAD16, 16, 0 },
    { "compact C64 1x56x56x64 (C16 tiles)", 4, c64, axes4,
      SIMA_CHANNELS_COMPACT, 16, 0 },
    { "pad16 cblock C64 1x56x56x64 (C64 tiles, 4 blocks)", 4, c64, axes4,
      SIMA_CHANNELS_PAD16, 64, 1 },
  };
  DiffBench b;
  int i;

  diff_bench_open (&b, "emulator:workers=4,dma=deferred");
  expect_status ("DetessDequant capability", sima_ev74_device_require (b.dev,
          SIMA_EV74_ROUTE_DETESSDEQUANT, SIMA_EV74_DETESSDEQUANT_CAPABILITY),
      SIMA_OK, NULL);
  for (i = 0; i < 3; i++) {
    int64_t t[4] = { tile[0], tile[1], tile[2], cases[i].c_tile };
    SimaTensorSpec in = test_spec_tiled (SIMA_DTYPE_INT8, cases[i].rank,
        cases[i].shape, cases[i].axes, t, cases[i].mode);
    SimaTensorSpec out = test_spec_dense (SIMA_DTYPE_FLOAT32, cases[i].rank,
        cases[i].shape);
    SimaDetessDequantParams p = { 1.0f / 127.0f, 0, SIMA_SCALE_MULTIPLY };
    SimaDetessDequantPlan plan;
    SimaEv74JobStats js;
    SimaStatus st;

    in.tiled.cblock = cases[i].cblock;
    admit (&in, &out, p, &plan);
    st = device_run (&b, &plan, &js);
    tap_ok (st.code == SIMA_OK && js.dma_bytes_read == plan.element_count
        && js.dma_bytes_written == plan.output_bytes,
        "data movement, DetessDequant %s -> FP32, 4 workers: read %llu bytes "
        "of a %llu-byte tiled input (the values only: ratio %.3f), wrote "
        "%llu (output %llu), %llu DMA commands, local peak %u bytes",
        cases[i].name, (unsigned long long) js.dma_bytes_read,
        (unsigned long long) plan.input_bytes,
        (double) js.dma_bytes_read / (double) plan.input_bytes,
        (unsigned long long) js.dma_bytes_written,
        (unsigned long long) plan.output_bytes,
        (unsigned long long) js.dma_commands, js.local_peak);
  }
  diff_bench_close (&b);
}

int
main (void)
{
  basics_and_data_movement ();
  every_value ();
  divide_every_value ();
  differential ("DetessDequant", 0xdde774, 10000, 0);
  differential ("DetessDequant cblock", 0xcb10cdde, 3000, 1);
  return tap_done ();
}
