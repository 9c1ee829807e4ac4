/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The DetessDequant job's workers (firmware/detessdequant_special.c) and
 * their selector: for every case, which worker the firmware picks
 * (simafw_detessdequant_select on the decoded, bound descriptor, with 4
 * workers and with 1), then the job on the emulator with 1-4 workers and
 * immediate and deferred DMA against the A65 kernel (whole window: values,
 * guards, exact traffic, worker ownership, the device model's granule
 * rules) and against the independent oracle, every input byte random
 * (padding and gaps hold garbage the device must not read), both output
 * dtypes, four parameter sets (normal scales multiplying and dividing,
 * a wide zero point, a subnormal scale: the exact table), and a dirty
 * output reused without a prefill. Eligible cases sit on each worker's
 * side of every bound, the fallback neighbours one step outside. A last
 * point checks the data movement of the two bench cases the tile-band
 * worker exists for.
 */
#include <simaai/kernels/a65/detessdequant.h>
#include <simaai/kernels/ev74/detessdequant.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "detessdequant_special.h"
#include "ev74_diff.h"
#include "oracle.h"
#include "tap.h"
#include "test_util.h"

typedef struct {
  const char *name;
  int rank;
  int64_t shape[SIMA_MAX_RANK];
  int8_t axes[4];
  int64_t tile[4];
  SimaChannels channels;
  int cblock;                   /* MlaTiled cblock */
  int cblocked;                 /* an MlaCBlocked input (axes/tile unused) */
  int chw;                      /* output strided channels-first */
  int out_phase;                /* output bus address mod 16 */
  SimaFwDetessDequantWorker want4, want1;   /* with 4 workers, with 1 */
} Case;

#define GEN SIMAFW_DD_WORKER_GENERAL
#define DIR SIMAFW_DD_WORKER_DIRECT
#define BND SIMAFW_DD_WORKER_BANDS
#define PAD SIMA_CHANNELS_PAD16
#define CMP SIMA_CHANNELS_COMPACT
#define HWC { -1, 0, 1, 2 }
#define NHWC { -1, 1, 2, 3 }
#define DHWC { 0, 1, 2, 3 }
#define WC { -1, -1, 0, 1 }
#define C_ONLY { -1, -1, -1, 0 }
#define T8_16_16 { 1, 8, 16, 16 }

static const Case cases[] = {
  /* tile bands: eligible */
  { "pad16 C3 224x224 (the bench case)", 3, { 224, 224, 3 }, HWC, T8_16_16, PAD, 0, 0, 0, 0, BND, BND },
  { "compact C64 1x56x56 (the bench case: rows of one tile)", 4, { 1, 56, 56, 64 }, NHWC, T8_16_16, CMP, 0, 0, 0, 0, BND, BND },
  { "pad16 C3 36x32 (partial H tile)", 3, { 36, 32, 3 }, HWC, T8_16_16, PAD, 0, 0, 0, 0, BND, BND },
  { "pad16 C33 24x48 (three C tiles, padded tail)", 3, { 24, 48, 33 }, HWC, T8_16_16, PAD, 0, 0, 0, 0, BND, BND },
  { "compact C20 16x40 (C tile 16 + 4, partial W tile)", 3, { 16, 40, 20 }, HWC, T8_16_16, CMP, 0, 0, 0, 0, BND, BND },
  { "pad16 C16 batch 3 x 9x32", 4, { 3, 9, 32, 16 }, NHWC, T8_16_16, PAD, 0, 0, 0, 0, BND, BND },
  { "pad16 C3 D3 x 16x32, depth tile 1", 4, { 3, 16, 32, 3 }, DHWC, T8_16_16, PAD, 0, 0, 0, 0, BND, BND },
  { "pad16 C3 rank 6 (2x2 outer) x 8x16", 6, { 2, 2, 1, 8, 16, 3 }, { 2, 3, 4, 5 }, T8_16_16, PAD, 0, 0, 0, 0, BND, BND },
  { "pad16 C5 W,C only (rank 2) 2048x5, W16", 2, { 2048, 5 }, WC, { 1, 1, 16, 16 }, PAD, 0, 0, 0, 0, BND, BND },
  { "compact C256 8x32, W16 (one row per band, the bound)", 3, { 8, 32, 256 }, HWC, T8_16_16, CMP, 0, 0, 0, 0, BND, BND },
  { "pad16 C64 in C tiles of 1 8x32 (staging bound)", 3, { 8, 32, 64 }, HWC, { 1, 8, 16, 1 }, PAD, 0, 0, 0, 0, BND, BND },
  { "MlaCBlocked C40 32x16 (rows of one plane tile)", 3, { 32, 16, 40 }, HWC, T8_16_16, PAD, 0, 1, 0, 0, BND, BND },
  { "pad16 C3 8x16 (one band) on 1 worker", 3, { 8, 16, 3 }, HWC, T8_16_16, PAD, 0, 0, 0, 0, GEN, BND },
  { "pad16 C3 32x32 (4 bands for 4 workers)", 3, { 32, 32, 3 }, HWC, T8_16_16, PAD, 0, 0, 0, 0, BND, BND },
  { "pad16 C40 in C tiles of 24 (padded full C tiles) 16x32", 3, { 16, 32, 40 }, HWC, { 1, 8, 16, 24 }, PAD, 0, 0, 0, 0, BND, BND },
  { "pad16 C3 5x20 in H8/W32 tiles (one partial tile both ways)", 3, { 5, 20, 3 }, HWC, { 1, 8, 32, 16 }, PAD, 0, 0, 0, 0, GEN, BND },
  { "pad16 C3 40x80 in H64/W16 tiles (H tile beyond H, rows of one tile)", 3, { 40, 80, 3 }, HWC, { 1, 64, 16, 16 }, PAD, 0, 0, 0, 0, BND, BND },
  { "pad16 C8 N2 x H24, W absent", 3, { 2, 24, 8 }, { -1, 1, -1, 2 }, { 1, 4, 1, 16 }, PAD, 0, 0, 0, 0, BND, BND },
  { "pad16 C3 outer 2 x D3 x 8x16", 5, { 2, 3, 8, 16, 3 }, { 1, 2, 3, 4 }, T8_16_16, PAD, 0, 0, 0, 0, BND, BND },
  /* tile bands: fallback neighbours */
  { "pad16 C3 24x32 (3 bands for 4 workers)", 3, { 24, 32, 3 }, HWC, T8_16_16, PAD, 0, 0, 0, 0, GEN, BND },
  { "pad16 C3 224x224, output at +4", 3, { 224, 224, 3 }, HWC, T8_16_16, PAD, 0, 0, 0, 4, GEN, GEN },
  { "pad16 C3 20x30 (rows of 360 bytes)", 3, { 20, 30, 3 }, HWC, T8_16_16, PAD, 0, 0, 0, 0, GEN, GEN },
  { "pad16 C3 16x40 W10 (tile rows of 120 bytes)", 3, { 16, 40, 3 }, HWC, { 1, 8, 10, 16 }, PAD, 0, 0, 0, 0, GEN, GEN },
  { "pad16 C3 D4 x 8x16, depth tile 2", 4, { 4, 8, 16, 3 }, DHWC, { 2, 8, 16, 16 }, PAD, 0, 0, 0, 0, GEN, GEN },
  { "pad16 C33 16x32 cblock", 3, { 16, 32, 33 }, HWC, T8_16_16, PAD, 1, 0, 0, 0, GEN, GEN },
  { "pad16 C3 logical W,H,C (H and W swapped)", 3, { 32, 16, 3 }, { -1, 1, 0, 2 }, T8_16_16, PAD, 0, 0, 0, 0, GEN, GEN },
  { "pad16 C3 CHW strided output", 3, { 16, 32, 3 }, HWC, T8_16_16, PAD, 0, 0, 1, 0, GEN, GEN },
  { "compact C257 8x32 (a tile row exceeds a panel)", 3, { 8, 32, 257 }, HWC, T8_16_16, CMP, 0, 0, 0, 0, GEN, GEN },
  { "pad16 C65 in C tiles of 1 8x32 (staging exceeded)", 3, { 8, 32, 65 }, HWC, { 1, 8, 16, 1 }, PAD, 0, 0, 0, 0, GEN, GEN },
  /* direct input: eligible */
  { "rank one C1000, C tile 16", 1, { 1000 }, C_ONLY, { 1, 1, 1, 16 }, PAD, 0, 0, 0, 0, DIR, DIR },
  { "rank one C100 compact, one C tile", 1, { 100 }, C_ONLY, { 1, 1, 1, 128 }, CMP, 0, 0, 0, 0, DIR, DIR },
  { "rank one C21 pad16, one C tile (padded)", 1, { 21 }, C_ONLY, { 1, 1, 1, 32 }, PAD, 0, 0, 0, 0, DIR, DIR },
  { "C64 80x80 in H1/W80 tiles (a YOLO head)", 3, { 80, 80, 64 }, HWC, { 1, 1, 80, 64 }, PAD, 0, 0, 0, 0, DIR, DIR },
  { "compact C16 40x40 in H1/W16 tiles", 3, { 40, 40, 16 }, HWC, { 1, 1, 16, 16 }, CMP, 0, 0, 0, 0, DIR, DIR },
  { "compact C8 6x10 in whole-width H4 tiles", 3, { 6, 10, 8 }, HWC, { 1, 4, 16, 8 }, CMP, 0, 0, 0, 0, DIR, DIR },
  /* direct input: fallback neighbours */
  { "rank one C1000, C tile 24 (gaps between tiles: one band)", 1, { 1000 }, C_ONLY, { 1, 1, 1, 24 }, CMP, 0, 0, 0, 0, GEN, BND },
  { "C60 80x80 in H1/W80 tiles, pad16 (padding)", 3, { 80, 80, 60 }, HWC, { 1, 1, 80, 64 }, PAD, 0, 0, 0, 0, GEN, GEN },
  { "compact C3 4x10 in H1/W5 tiles (15-byte tiles)", 3, { 4, 10, 3 }, HWC, { 1, 1, 5, 3 }, CMP, 0, 0, 0, 0, GEN, GEN },
  { "compact C16 40x40 in H2/W16 tiles (rows split)", 3, { 40, 40, 16 }, HWC, { 1, 2, 16, 16 }, CMP, 0, 0, 0, 0, BND, BND },
  { "compact C32 40x40 in H1/W16 C16 tiles (two C tiles)", 3, { 40, 40, 32 }, HWC, { 1, 1, 16, 16 }, CMP, 0, 0, 0, 0, BND, BND },
};

/* Parameter sets, one per run of a case. */
static const SimaDetessDequantParams params[] = {
  { 1.0f / 127.0f, 0, SIMA_SCALE_MULTIPLY },
  { 11.328457f, -61, SIMA_SCALE_DIVIDE },
  { 0.37f, 16777217, SIMA_SCALE_MULTIPLY },    /* rounds to 2^24 in FP32 */
  { 3.0e-39f, -128, SIMA_SCALE_MULTIPLY },      /* subnormal: the table */
};
enum { N_PARAMS = sizeof params / sizeof params[0] };

static int
plan_of (const Case *c, SimaDType out_dtype, int param,
    SimaDetessDequantPlan *plan)
{
  SimaTensorSpec in = test_spec_tiled (SIMA_DTYPE_INT8, c->rank, c->shape,
      c->axes, c->tile, c->channels);
  SimaTensorSpec out = test_spec_dense (out_dtype, c->rank, c->shape);
  SimaDetessDequantRequest req = { &in, 1, &out, 1, params[param] };

  in.tiled.cblock = c->cblock;
  if (c->cblocked) {
    memset (&in.tiled, 0, sizeof in.tiled);
    in.layout = SIMA_LAYOUT_MLA_CBLOCKED;
  }
  if (c->chw) {                 /* C outermost in memory */
    const int64_t scalar = sima_dtype_size (out_dtype);
    int64_t strides[SIMA_MAX_RANK], acc = scalar;
    int a;
    for (a = c->rank - 2; a >= 0; a--) {
      strides[a] = acc;
      acc *= c->shape[a];
    }
    strides[c->rank - 1] = acc;
    out = test_spec_strided (out_dtype, c->rank, c->shape, strides);
  }
  return sima_detessdequant_check_inference (&req, plan).code == SIMA_OK;
}

static SimaStatus
bind (const SimaDetessDequantPlan *plan, DiffBench *b, size_t in_off,
    size_t out_off, SimaEv74Descriptor *d)
{
  SimaEv74Binding bi = test_arena_binding (&b->in, in_off);
  SimaEv74Binding bo = test_arena_binding (&b->out, out_off);
  SimaStatus st = sima_ev74_detessdequant_encode_relocatable (plan, d);
  if (st.code == SIMA_OK)
    st = sima_ev74_descriptor_bind (d, &bi, &bo);
  return st;
}

/* The worker the firmware selects for the plan bound with its output at
 * `phase` bytes past a 16-byte boundary, on `workers` workers. */
static int
selected (const SimaDetessDequantPlan *plan, DiffBench *b, int phase,
    uint32_t workers)
{
  SimaEv74Descriptor d;
  SimaFwDetessDequantJob *job;
  int w = -1;

  if (bind (plan, b, 0, 4096 + (size_t) phase, &d).code != SIMA_OK)
    return -1;
  job = malloc (sizeof *job);
  if (simafw_detessdequant_decode (d.bytes, d.length, job).code == SIMA_OK)
    w = (int) simafw_detessdequant_select (job, workers);
  free (job);
  return w;
}

/* The oracle's result over whatever the output held (holes untouched). */
static int
oracle_equal (const SimaDetessDequantPlan *plan, int param,
    const uint8_t *in, const uint8_t *out, uint8_t *want)
{
  memcpy (want, out, (size_t) plan->output_bytes);
  oracle_detessdequant_conv (&plan->input, in, &plan->output,
      params[param].scale, params[param].zero_point,
      params[param].convention == SIMA_SCALE_DIVIDE, want);
  return memcmp (want, out, (size_t) plan->output_bytes) == 0;
}

typedef struct {
  uint64_t runs, oracle_mismatch, diff_fail, dirty_fail, select_fail,
      admit_fail, eligible, fallback;
} Tally;

static void
run_case (const Case *c, DiffBench *benches, TestRng *rng, uint8_t *want,
    Tally *all)
{
  DiffTally t;
  SimaDetessDequantPlan plan;
  uint64_t oracle_bad = 0, dirty_bad = 0, runs = 0;
  int k, f, d, chosen4, chosen1, sets;
  size_t in_off = 0, out_off = 0, j;

  memset (&t, 0, sizeof t);
  if (!plan_of (c, SIMA_DTYPE_FLOAT32, 0, &plan)) {
    all->admit_fail++;
    tap_ok (0, "%s: admitted", c->name);
    return;
  }
  chosen4 = selected (&plan, &benches[0], c->out_phase, 4);
  chosen1 = selected (&plan, &benches[0], c->out_phase, 1);
  if (chosen4 != (int) c->want4 || chosen1 != (int) c->want1)
    all->select_fail++;
  if (c->want4 == GEN && c->want1 == GEN)
    all->fallback++;
  else
    all->eligible++;
  /* large tensors: the two parameter sets that differ most (a normal
   * scale, the subnormal one's exact table), for the suite's time */
  sets = plan.element_count > 65536 ? 2 : N_PARAMS;
  for (k = 0; k < 8; k++) {
    DiffBench *b = &benches[k];
    for (d = 0; d < 2; d++) {
      const SimaDType dt = d ? SIMA_DTYPE_BFLOAT16 : SIMA_DTYPE_FLOAT32;
      for (f = 0; f < sets; f++) {
        DiffJob job;
        const int p = sets == N_PARAMS ? f : f * (N_PARAMS - 1);
        plan_of (c, dt, p, &plan);
        job = diff_detessdequant_job (&plan);
        diff_offsets (rng, &job, 16, 16, &in_off, &out_off);
        out_off += (size_t) c->out_phase;
        for (j = 0; j < (size_t) plan.input_bytes; j++)
          b->in.host[in_off + j] = (uint8_t) test_rng_next (rng);
        diff_run (b, &job, in_off, out_off, &t);
        oracle_bad += !oracle_equal (&plan, p, b->in.host + in_off,
            b->out.host + out_off, want);
        runs++;
      }
      /* dirty reuse: the last output stays, another parameter set and
       * input run over it without a prefill; the guards keep diff_run's
       * fill */
      {
        SimaEv74Descriptor desc;
        SimaEv74Region *regions[2] = { b->in.region, b->out.region };
        SimaEv74JobStats js;
        SimaStatus st;
        size_t g;
        int guards = 1, p = k % N_PARAMS;

        plan_of (c, dt, p, &plan);
        for (j = 0; j < (size_t) plan.input_bytes; j++)
          b->in.host[in_off + j] = (uint8_t) test_rng_next (rng);
        st = bind (&plan, b, in_off, out_off, &desc);
        if (st.code == SIMA_OK)
          st = sima_ev74_run (b->dev, &desc, regions, 2, -1, &js);
        for (g = 0; g < DIFF_GUARD; g++)
          guards &= b->out.host[out_off - 1 - g] == DIFF_GUARD_BYTE
              && b->out.host[out_off + plan.output_bytes + g]
              == DIFF_GUARD_BYTE;
        if (st.code != SIMA_OK || !guards || !oracle_equal (&plan, p,
                b->in.host + in_off, b->out.host + out_off, want))
          dirty_bad++;
        runs++;
      }
    }
  }
  all->runs += runs;
  all->oracle_mismatch += oracle_bad;
  all->diff_fail += t.mismatches + t.failures + t.input_changed
      + t.traffic_errors + t.ownership_errors;
  all->dirty_fail += dirty_bad;
  tap_ok (chosen4 == (int) c->want4 && chosen1 == (int) c->want1
      && t.mismatches == 0 && t.failures == 0 && t.input_changed == 0
      && t.traffic_errors == 0 && t.ownership_errors == 0 && oracle_bad == 0
      && dirty_bad == 0,
      "%s: selector %d / %d on 4 / 1 workers (want %d / %d); %llu runs (1-4 "
      "workers x immediate/deferred, FP32 and BF16, %d parameter sets, "
      "dirty reuse): %llu A65 mismatches, %llu failed, %llu traffic, %llu "
      "ownership, %llu oracle, %llu dirty-reuse errors", c->name, chosen4,
      chosen1, (int) c->want4, (int) c->want1, (unsigned long long) runs,
      sets, (unsigned long long) t.mismatches,
      (unsigned long long) t.failures, (unsigned long long) t.traffic_errors,
      (unsigned long long) t.ownership_errors,
      (unsigned long long) oracle_bad, (unsigned long long) dirty_bad);
}

/* The two bench cases: DMA commands and estimated device time of the
 * tile-band worker against the general worker's figures of the firmware
 * before it (docs/performance.md: 3,224 and 3,188 commands, 135.09 and
 * 91.23 estimated us with 4 workers): at least halved. */
static void
bench_cases (DiffBench *b)
{
  static const struct {
    const char *name;
    int c;                      /* index into cases[] */
    uint64_t commands;
    double us;
  } before[2] = {
    { "pad16 C3 224x224x3 -> FP32", 0, 3224, 135.09 },
    { "compact C64 1x56x56x64 -> FP32", 1, 3188, 91.23 },
  };
  int i;

  for (i = 0; i < 2; i++) {
    SimaDetessDequantPlan plan;
    SimaEv74Descriptor d;
    SimaEv74Region *regions[2] = { b->in.region, b->out.region };
    SimaEv74JobStats js;
    SimaStatus st;
    double us;

    plan_of (&cases[before[i].c], SIMA_DTYPE_FLOAT32, 0, &plan);
    st = bind (&plan, b, 0, 0, &d);
    if (st.code == SIMA_OK)
      st = sima_ev74_run (b->dev, &d, regions, 2, -1, &js);
    us = st.code == SIMA_OK ? (double) js.estimated_ns / 1000.0 : 0;
    tap_ok (st.code == SIMA_OK && js.dma_commands * 2 <= before[i].commands
        && us * 2 <= before[i].us && js.dma_bytes_read == plan.element_count
        && js.dma_bytes_written == plan.output_bytes,
        "data movement, %s, 4 workers: %llu DMA commands (general worker "
        "%llu), %.2f estimated device us (%.2f), %llu bytes read (the "
        "logical input), %llu written", before[i].name,
        (unsigned long long) js.dma_commands,
        (unsigned long long) before[i].commands, us, before[i].us,
        (unsigned long long) js.dma_bytes_read,
        (unsigned long long) js.dma_bytes_written);
  }
}

int
main (void)
{
  DiffBench benches[8];
  TestRng rng = { 0xdd5e1ec7 };
  uint8_t *want = malloc (DIFF_ARENA_BYTES);
  Tally all;
  size_t i;
  int k;

  memset (&all, 0, sizeof all);
  for (k = 0; k < 8; k++)
    diff_bench_open (&benches[k], diff_specs[k]);
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
    run_case (&cases[i], benches, &rng, want, &all);
  bench_cases (&benches[7]);    /* 4 workers, deferred DMA */
  for (k = 0; k < 8; k++)
    diff_bench_close (&benches[k]);
  free (want);
  tap_ok (all.select_fail == 0 && all.admit_fail == 0 && all.eligible > 0
      && all.fallback > 0, "selector: %llu eligible and %llu fallback cases "
      "chose as expected (%llu wrong, %llu not admitted)",
      (unsigned long long) all.eligible, (unsigned long long) all.fallback,
      (unsigned long long) all.select_fail,
      (unsigned long long) all.admit_fail);
  tap_diag ("%llu runs: %llu differential, %llu oracle, %llu dirty-reuse "
      "errors", (unsigned long long) all.runs,
      (unsigned long long) all.diff_fail,
      (unsigned long long) all.oracle_mismatch,
      (unsigned long long) all.dirty_fail);
  return tap_done ();
}
