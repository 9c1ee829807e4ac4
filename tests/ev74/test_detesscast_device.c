/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DetessCast (route 52) on the EV74 emulator: the capability (present, and
 * missing=52 -> capability-missing at the probe and at submit, also for a
 * container holding a DetessCast member); all 65,536 BF16 encodings
 * through the device for both output dtypes against the oracle; random
 * geometries (ranks 1-6, compact / pad16 / cblock BF16 tiles, contiguous,
 * pitched, permuted and channel-strided outputs) against the A65 over 1-4
 * workers and both DMA models, holes, guards, exact traffic and worker
 * ownership included; a set of DetessCast members as one job against the
 * oracle's set; and the data movement of three typical heads.
 */
#include <simaai/kernels/a65/detesscast.h>
#include <simaai/kernels/ev74/detesscast.h>
#include <simaai/kernels/ev74/tensor_set.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev74_testing.h"   /* sima_ev74_device_configure */
#include "ev74_diff.h"
#include "layout_gen.h"
#include "oracle.h"
#include "status_expect.h"
#include "tap.h"
#include "test_util.h"

static SimaStatus
dc_a65 (const void *p, const void *in, void *out)
{
  const SimaDetessCastPlan *plan = p;
  SimaA65DetessCastPlan a65;
  SimaConstHostBuffer ib = { in, plan->input_bytes };
  SimaHostBuffer ob = { out, plan->output_bytes };
  SimaStatus st = sima_a65_detesscast_prepare (plan, &a65);
  return st.code == SIMA_OK
      ? sima_a65_detesscast_execute (&a65, &ib, 1, &ob, 1) : st;
}

static SimaStatus
dc_encode (const void *plan, SimaEv74Descriptor *d)
{
  return sima_ev74_detesscast_encode_relocatable (plan, d);
}

/* The minimum traffic: the two bytes of every element in, exactly the
 * elements' output bytes out. */
static DiffJob
dc_job (const SimaDetessCastPlan *plan)
{
  uint64_t scalar = (uint64_t) plan->output_view.scalar_bytes;
  DiffJob job = { plan->input_bytes, plan->output_bytes,
    2 * plan->element_count, plan->element_count * scalar,
    !sima_strided_view_is_row_major (&plan->output_view), dc_a65, dc_encode,
    plan };
  return job;
}

static int
admit (const SimaTensorSpec *in, const SimaTensorSpec *out,
    SimaDetessCastPlan *plan)
{
  SimaDetessCastRequest req = { in, 1, out, 1 };
  return sima_detesscast_check_inference (&req, plan).code == SIMA_OK;
}

static SimaStatus
device_run (DiffBench *b, const SimaDetessCastPlan *plan,
    SimaEv74JobStats *js)
{
  static SimaEv74Descriptor d;
  SimaEv74Binding bi = test_arena_binding (&b->in, 0);
  SimaEv74Binding bo = test_arena_binding (&b->out, 0);
  SimaEv74Region *regions[2] = { b->in.region, b->out.region };
  SimaStatus st = sima_ev74_detesscast_encode_relocatable (plan, &d);
  if (st.code == SIMA_OK)
    st = sima_ev74_descriptor_bind (&d, &bi, &bo);
  if (st.code == SIMA_OK)
    st = sima_ev74_run (b->dev, &d, regions, 2, -1, js);
  return st;
}

/* Every BF16 encoding, placed in the tiles by the oracle's own CastTess
 * (BF16 -> BF16 keeps every bit), through the device into FP32 and BF16,
 * on two tilings: [65536] compact C tiles of 16, and [256, 256] pad16
 * cblock C tiles of 64 x W tiles of 4; 3 workers. */
static void
every_encoding (void)
{
  static const int64_t n1 = 65536, n2[2] = { 256, 256 };
  static const int8_t ax1[4] = { -1, -1, -1, 0 }, ax2[4] = { -1, -1, 0, 1 };
  static const int64_t t1[4] = { 1, 1, 1, 16 }, t2[4] = { 1, 1, 4, 64 };
  uint16_t *src = malloc (65536 * sizeof *src);
  uint64_t cases = 0, bad = 0, failed = 0;
  DiffBench b;
  int layout, d, i;

  for (i = 0; i < 65536; i++)
    src[i] = (uint16_t) i;
  diff_bench_open (&b, "emulator:workers=3,dma=deferred");
  for (layout = 0; layout < 2; layout++) {
    SimaTensorSpec in = layout == 0
        ? test_spec_tiled (SIMA_DTYPE_BFLOAT16, 1, &n1, ax1, t1,
            SIMA_CHANNELS_COMPACT)
        : test_spec_tiled (SIMA_DTYPE_BFLOAT16, 2, n2, ax2, t2,
            SIMA_CHANNELS_PAD16);
    SimaTensorSpec dense_in = layout == 0
        ? test_spec_dense (SIMA_DTYPE_BFLOAT16, 1, &n1)
        : test_spec_dense (SIMA_DTYPE_BFLOAT16, 2, n2);
    in.tiled.cblock = layout;
    memset (b.in.host, 0x5A, (size_t) oracle_required_bytes (&in));
    oracle_casttess (&dense_in, src, &in, b.in.host);
    for (d = 0; d < 2; d++) {
      SimaDType dt = d ? SIMA_DTYPE_BFLOAT16 : SIMA_DTYPE_FLOAT32;
      SimaTensorSpec out = layout == 0 ? test_spec_dense (dt, 1, &n1)
          : test_spec_dense (dt, 2, n2);
      SimaDetessCastPlan plan;
      SimaEv74JobStats js;
      if (!admit (&in, &out, &plan)
          || device_run (&b, &plan, &js).code != SIMA_OK) {
        failed++;
        continue;
      }
      for (i = 0; i < 65536; i++) {
        uint32_t got = d ? ((uint16_t *) b.out.host)[i]
            : ((uint32_t *) b.out.host)[i];
        uint32_t want = d ? (uint32_t) src[i] : (uint32_t) src[i] << 16;
        cases++;
        if (got != want && bad++ < 4)
          tap_diag ("%s %s: bits %#06x gave %#x", layout ? "cblock"
              : "compact", sima_dtype_name (dt), i, got);
      }
    }
  }
  diff_bench_close (&b);
  free (src);
  tap_ok (bad == 0 && failed == 0 && cases == 4 * 65536, "all 65,536 BF16 "
      "encodings (NaN payloads, -0, subnormals, infinities) x FP32/BF16 x "
      "compact/cblock tiles on the emulator: %llu cases, %llu mismatches "
      "against bits << 16 / the bits, %llu failed jobs",
      (unsigned long long) cases, (unsigned long long) bad,
      (unsigned long long) failed);
}

static const int64_t cb_channels[] = { 1, 3, 16, 17, 32, 33, 64, 70, 80 };
static const int64_t cb_c_tiles[] = { 8, 16, 32, 64, 80 };

static int
random_plan (TestRng *rng, SimaDetessCastPlan *plan, int cblock)
{
  static const int64_t channels[] = { 1, 2, 3, 4, 16, 17, 32, 33, 64, 70 };
  int rank = (int) test_rng_range (rng, 1, SIMA_MAX_RANK);
  SimaTensorSpec in, out;
  GenTiling gt;

  gen_tiling (rng, rank, (int) test_rng_below (rng, (uint64_t) rank),
      cblock ? cb_channels[test_rng_below (rng, sizeof cb_channels
              / sizeof cb_channels[0])]
      : channels[test_rng_below (rng, sizeof channels / sizeof channels[0])],
      (SimaChannels) test_rng_below (rng, 2), &gt);
  if (cblock) {
    gt.tiled.channels = SIMA_CHANNELS_PAD16;
    gt.tiled.cblock = 1;
    if (test_rng_below (rng, 4) != 0)
      gt.tiled.tile_shape[SIMA_MLA_C] = cb_c_tiles[test_rng_below (rng,
              sizeof cb_c_tiles / sizeof cb_c_tiles[0])];
  }
  in = test_spec_tiled (SIMA_DTYPE_BFLOAT16, rank, gt.shape, gt.tiled.axes,
      gt.tiled.tile_shape, gt.tiled.channels);
  in.tiled.cblock = gt.tiled.cblock;
  out = gen_view (rng, test_rng_below (rng, 2) ? SIMA_DTYPE_FLOAT32
      : SIMA_DTYPE_BFLOAT16, rank, gt.shape,
      (GenViewKind) test_rng_below (rng, GEN_VIEW_KIND_COUNT));
  return admit (&in, &out, plan) && plan->element_count > 0
      && plan->input_bytes <= (800 << 10) && plan->output_bytes <= (1 << 20);
}

static void
differential (const char *label, uint64_t seed, int count, int cblock)
{
  DiffBench benches[8];
  DiffTally t;
  TestRng rng = { seed };
  uint64_t strided = 0, ranks = 0, modes = 0, oracle_bad = 0;
  int i, k;

  memset (&t, 0, sizeof t);
  for (k = 0; k < 8; k++)
    diff_bench_open (&benches[k], diff_specs[k]);
  for (i = 0; i < count; i++) {
    SimaDetessCastPlan plan;
    DiffBench *b = &benches[i % 8];
    DiffJob job;
    size_t in_off, out_off, j;

    while (!random_plan (&rng, &plan, cblock)) {
    }
    job = dc_job (&plan);
    strided += (uint64_t) job.single_writer;
    ranks |= 1u << plan.input.rank;
    modes |= 1u << (plan.input.tiled.channels + plan.input.tiled.cblock);
    diff_offsets (&rng, &job, 16, plan.output_view.scalar_bytes, &in_off,
        &out_off);
    /* every input byte random: padding and gaps hold garbage */
    for (j = 0; j < (size_t) plan.input_bytes; j++)
      b->in.host[in_off + j] = (uint8_t) test_rng_next (&rng);
    if (diff_run (b, &job, in_off, out_off, &t) && i % 16 == 0) {
      /* and against the oracle, over the span (holes keep the prefill) */
      uint8_t *o = malloc ((size_t) plan.output_bytes);
      memcpy (o, b->expected + out_off, (size_t) plan.output_bytes);
      oracle_detesscast (&plan.input, b->in.host + in_off, &plan.output, o);
      oracle_bad += memcmp (o, b->out.host + out_off,
          (size_t) plan.output_bytes) != 0;
      free (o);
    }
  }
  for (k = 0; k < 8; k++)
    diff_bench_close (&benches[k]);
  diff_report (label, &t, (uint64_t) count);
  tap_ok (oracle_bad == 0 && strided > (uint64_t) count / 10
      && ranks == 0x7e && modes == (cblock ? 4u : 3u), "%s: every 16th case "
      "equals the oracle too (%llu differ); covered %llu strided outputs "
      "(one writer), ranks %#llx, channel modes %#llx", label,
      (unsigned long long) oracle_bad, (unsigned long long) strided,
      (unsigned long long) ranks, (unsigned long long) modes);
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
    SimaDType dtype;
  } cases[3] = {
    { "pad16 C3 224x224x3 -> FP32", 3, rgb, axes3, SIMA_CHANNELS_PAD16, 16,
      0, SIMA_DTYPE_FLOAT32 },
    { "compact C64 1x56x56x64 (C16 tiles) -> BF16", 4, c64, axes4,
      SIMA_CHANNELS_COMPACT, 16, 0, SIMA_DTYPE_BFLOAT16 },
    { "pad16 cblock C64 1x56x56x64 (C64 tiles, 4 blocks) -> FP32", 4, c64,
      axes4, SIMA_CHANNELS_PAD16, 64, 1, SIMA_DTYPE_FLOAT32 },
  };
  DiffBench b;
  int i;

  diff_bench_open (&b, "emulator:workers=4,dma=deferred");
  expect_status ("DetessCast capability", sima_ev74_device_require (b.dev,
          SIMA_EV74_ROUTE_DETESSCAST, SIMA_EV74_DETESSCAST_CAPABILITY),
      SIMA_OK, NULL);
  expect_status ("DetessCast capability under another name",
      sima_ev74_device_require (b.dev, SIMA_EV74_ROUTE_DETESSCAST,
          SIMA_EV74_DETESSDEQUANT_CAPABILITY), SIMA_CAPABILITY_MISSING, NULL);
  for (i = 0; i < 3; i++) {
    int64_t t[4] = { tile[0], tile[1], tile[2], cases[i].c_tile };
    SimaTensorSpec in = test_spec_tiled (SIMA_DTYPE_BFLOAT16, cases[i].rank,
        cases[i].shape, cases[i].axes, t, cases[i].mode);
    SimaTensorSpec out = test_spec_dense (cases[i].dtype, cases[i].rank,
        cases[i].shape);
    SimaDetessCastPlan plan;
    SimaEv74JobStats js;
    SimaStatus st;

    in.tiled.cblock = cases[i].cblock;
    admit (&in, &out, &plan);
    st = device_run (&b, &plan, &js);
    tap_ok (st.code == SIMA_OK && js.dma_bytes_read == 2 * plan.element_count
        && js.dma_bytes_written == plan.output_bytes,
        "data movement, DetessCast %s, 4 workers: read %llu bytes of a "
        "%llu-byte tiled input (the values only: ratio %.3f), wrote %llu "
        "(output %llu), %llu DMA commands, local peak %u bytes",
        cases[i].name, (unsigned long long) js.dma_bytes_read,
        (unsigned long long) plan.input_bytes,
        (double) js.dma_bytes_read / (double) plan.input_bytes,
        (unsigned long long) js.dma_bytes_written,
        (unsigned long long) plan.output_bytes,
        (unsigned long long) js.dma_commands, js.local_peak);
  }
  diff_bench_close (&b);
}

/* Three members (cblock -> FP32, compact -> pitched BF16 with holes, pad16
 * -> FP32), inputs back to back, outputs with gaps, as one job; against the
 * oracle's set; gaps and guards untouched; on 1-4 workers. */
static void
set_job (void)
{
  static const int64_t s0[3] = { 2, 3, 40 }, s1[3] = { 4, 4, 6 },
      s2[2] = { 5, 3 };
  static const int8_t a3[4] = { -1, 0, 1, 2 }, a2[4] = { -1, -1, 0, 1 };
  static const int64_t t0[4] = { 1, 1, 3, 48 }, t1[4] = { 1, 1, 4, 6 },
      t2[4] = { 1, 1, 2, 2 };
  static const int64_t st1[3] = { 70, 16, 2 };
  static SimaDetessCastSetPlan sp;
  static SimaEv74Descriptor desc;
  SimaTensorSet in, out;
  SimaDetessCastSetRequest req = { &in, &out };
  SimaTensorSpec ins[3], outs[3];
  uint64_t in_off[3], out_off[3];
  enum { GUARD = 512 };
  int w, k, ok = 1;
  SimaStatus st;

  memset (&in, 0, sizeof in);
  memset (&out, 0, sizeof out);
  ins[0] = test_spec_tiled (SIMA_DTYPE_BFLOAT16, 3, s0, a3, t0,
      SIMA_CHANNELS_PAD16);
  ins[0].tiled.cblock = 1;
  ins[1] = test_spec_tiled (SIMA_DTYPE_BFLOAT16, 3, s1, a3, t1,
      SIMA_CHANNELS_COMPACT);
  ins[2] = test_spec_tiled (SIMA_DTYPE_BFLOAT16, 2, s2, a2, t2,
      SIMA_CHANNELS_PAD16);
  outs[0] = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, s0);
  outs[1] = test_spec_strided (SIMA_DTYPE_BFLOAT16, 3, s1, st1);
  outs[2] = test_spec_dense (SIMA_DTYPE_FLOAT32, 2, s2);
  in_off[0] = 0;
  in_off[1] = 576;
  in_off[2] = 576 + 192;
  out_off[0] = 0;
  out_off[1] = 960 + 36;       /* BF16: 2-aligned */
  out_off[2] = 996 + 280 + 20; /* FP32: 4-aligned */
  in.n_members = out.n_members = 3;
  for (k = 0; k < 3; k++) {
    in.members[k].spec = ins[k];
    in.members[k].offset = in_off[k];
    out.members[k].spec = outs[k];
    out.members[k].offset = out_off[k];
  }
  st = sima_detesscast_set_check_inference (&req, &sp);
  if (sima_status_is_ok (&st))
    st = sima_ev74_detesscast_set_encode_relocatable (&sp, &desc);
  if (!expect_status ("DetessCast set: admitted and encoded as a container",
          st, SIMA_OK, NULL))
    return;
  tap_ok (sima_ev74_detesscast_set_needs_container (&sp)
      && sp.input_bytes == 576 + 192 + 320, "the set needs the container; "
      "input capacity %llu", (unsigned long long) sp.input_bytes);
  for (w = 1; w <= 4; w++) {
    char spec[64];
    DiffBench b;
    SimaEv74JobStats js;
    SimaEv74Binding bi, bo;
    SimaEv74Region *regions[2];
    uint8_t *want;
    size_t span = (size_t) sp.output_bytes, i;

    snprintf (spec, sizeof spec, "emulator:workers=%d%s", w,
        w % 2 ? ",dma=deferred" : "");
    diff_bench_open (&b, spec);
    regions[0] = b.in.region;
    regions[1] = b.out.region;
    for (i = 0; i < sp.input_bytes; i++)
      b.in.host[i] = (uint8_t) (i * 131 + 7 + w);
    want = malloc (span + 2 * GUARD);
    memset (want, DIFF_GUARD_BYTE, span + 2 * GUARD);
    memset (b.out.host, DIFF_GUARD_BYTE, span + 2 * GUARD);
    oracle_detesscast_set (3, ins, in_off, b.in.host, outs, out_off,
        want + GUARD);
    bi = test_arena_binding (&b.in, 0);
    bo = test_arena_binding (&b.out, GUARD);
    st = sima_ev74_descriptor_bind (&desc, &bi, &bo);
    if (st.code == SIMA_OK)
      st = sima_ev74_run (b.dev, &desc, regions, 2, -1, &js);
    ok &= st.code == SIMA_OK && memcmp (b.out.host, want, span + 2 * GUARD)
        == 0 && js.dma_bytes_read == 2 * sp.element_count;
    if (st.code != SIMA_OK)
      tap_diag ("%s: %s", spec, st.message);
    free (want);
    diff_bench_close (&b);
  }
  tap_ok (ok, "a set of 3 DetessCast members (cblock, compact -> strided "
      "BF16, pad16) as one job on 1-4 workers equals the oracle's set, gaps "
      "and guards untouched, %llu elements, 2 bytes read each",
      (unsigned long long) sp.element_count);

  /* missing=52: the probe, a single job, and the container all refused */
  {
    DiffBench b;
    SimaDetessCastPlan p0;
    SimaEv74JobStats js;
    SimaEv74Binding bi, bo;
    SimaEv74Region *regions[2];
    static SimaEv74Descriptor single;

    diff_bench_open (&b, "emulator:workers=2,missing=52");
    regions[0] = b.in.region;
    regions[1] = b.out.region;
    expect_status ("missing=52: the probe", sima_ev74_device_require (b.dev,
            SIMA_EV74_ROUTE_DETESSCAST, SIMA_EV74_DETESSCAST_CAPABILITY),
        SIMA_CAPABILITY_MISSING, NULL);
    expect_status ("missing=52: DetessDequant is still offered",
        sima_ev74_device_require (b.dev, SIMA_EV74_ROUTE_DETESSDEQUANT,
            SIMA_EV74_DETESSDEQUANT_CAPABILITY), SIMA_OK, NULL);
    admit (&ins[0], &outs[0], &p0);
    sima_ev74_detesscast_encode_relocatable (&p0, &single);
    bi = test_arena_binding (&b.in, 0);
    bo = test_arena_binding (&b.out, 0);
    sima_ev74_descriptor_bind (&single, &bi, &bo);
    memset (b.out.host, 0x11, 4096);
    expect_status ("missing=52: a single job is refused at submit",
        sima_ev74_run (b.dev, &single, regions, 2, -1, &js),
        SIMA_CAPABILITY_MISSING, "route 52", NULL);
    sima_ev74_descriptor_bind (&desc, &bi, &bo);
    expect_status ("missing=52: a container of DetessCast members is "
        "refused at submit", sima_ev74_run (b.dev, &desc, regions, 2, -1,
            &js), SIMA_CAPABILITY_MISSING, "member 0 of a tensor set", NULL);
    tap_ok (b.out.host[0] == 0x11 && b.out.host[4095] == 0x11,
        "missing=52: nothing was written");
    expect_status ("configure missing=none",
        sima_ev74_device_configure (b.dev, "missing=none"), SIMA_OK, NULL);
    expect_status ("missing=none: the single job runs",
        sima_ev74_run (b.dev, &single, regions, 2, -1, &js), SIMA_OK, NULL);
    diff_bench_close (&b);
  }
}

int
main (void)
{
  basics_and_data_movement ();
  every_encoding ();
  set_job ();
  differential ("DetessCast", 0xdc5274, 6000, 0);
  differential ("DetessCast cblock", 0xcb10cdc5, 2000, 1);
  return tap_done ();
}
