/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The EV74 device API and emulator with QuantTess:
 *  - opening, sharing and capability probing (fail closed);
 *  - differential: >= 10,000 random admitted geometries and parameters run
 *    on the A65 and on the emulator (1-4 workers, immediate and deferred
 *    DMA), byte-identical, with guard bytes around the output, the input
 *    left unchanged, every output byte written exactly once, disjoint
 *    16-byte aligned output ownership per worker, and exactly the logical
 *    input bytes read;
 *  - faults: DMA error, worker failure, a job that hangs past the wait's
 *    timeout (its regions stay alive until it retires), and a missing
 *    capability;
 *  - the data movement of the RGB pad16 224x224x3 and C33 128x128 cases;
 *  - UINT8 input (camera pixels): in the random sweeps, and a camera sweep
 *    of <H,W,3> views with pixel stride 3 or 4 and padded rows and GRAY8
 *    <H,W,1>, each job checked against the A65 and the oracle.
 */
#define _POSIX_C_SOURCE 200809L
#include <simaai/kernels/a65/quanttess.h>
#include <simaai/kernels/ev74/quanttess.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ev74_testing.h"   /* sima_ev74_device_configure */
#include "ev74_diff.h"
#include "layout_gen.h"
#include "oracle.h"
#include "status_expect.h"
#include "tap.h"
#include "test_util.h"


/* ---- opening, sharing, capabilities -------------------------------------- */

static void
device_basics (void)
{
  SimaEv74Device *a, *b, *c;
  SimaStatus st;

  a = test_device_open ("emulator:workers=3");
  b = test_device_open ("emulator:workers=3");
  tap_ok (a == b, "the same spec opens the same shared device");
  expect_status ("capability probe", sima_ev74_device_require (a,
          SIMA_EV74_ROUTE_QUANTTESS, SIMA_EV74_QUANTTESS_CAPABILITY),
      SIMA_OK, NULL);
  expect_status ("wrong capability name", sima_ev74_device_require (a,
          SIMA_EV74_ROUTE_QUANTTESS, "simaai_kernels_ev74_quanttess_v2"),
      SIMA_CAPABILITY_MISSING, "simaai_kernels_ev74_quanttess_v2",
      "route 49", NULL);
  sima_ev74_device_unref (b);
  sima_ev74_device_unref (a);

  c = test_device_open ("emulator:missing=49");
  expect_status ("capability removed from the device",
      sima_ev74_device_require (c, SIMA_EV74_ROUTE_QUANTTESS,
          SIMA_EV74_QUANTTESS_CAPABILITY), SIMA_CAPABILITY_MISSING,
      "does not register capability simaai_kernels_ev74_quanttess_v1", NULL);
  {
    /* a caller that skips the probe is refused at submit */
    SimaEv74Descriptor d;
    SimaEv74Job *job;
    memset (&d, 0, sizeof d);
    d.length = 232;
    d.bytes[0] = 0x45;
    d.bytes[1] = 0x56;
    d.bytes[2] = 0x37;
    d.bytes[3] = 0x34;
    d.bytes[6] = 232;
    d.bytes[8] = SIMA_EV74_ROUTE_QUANTTESS;
    expect_status ("submit without the capability",
        sima_ev74_submit (c, &d, NULL, 0, &job), SIMA_CAPABILITY_MISSING,
        "route 49", NULL);
  }
  sima_ev74_device_unref (c);

  st = sima_ev74_device_open ("/dev/simaai-ev74", &a);
  expect_status ("platform device without a transport", st,
      SIMA_DEVICE_UNAVAILABLE, "/dev/simaai-ev74", "device=emulator", NULL);
  st = sima_ev74_device_open ("emulator:workers=5", &a);
  expect_status ("five workers", st, SIMA_INVALID_ARGUMENT, "workers=5", NULL);
  st = sima_ev74_device_open ("emulator:dma=sometimes", &a);
  expect_status ("unknown DMA model", st, SIMA_INVALID_ARGUMENT,
      "dma=sometimes", NULL);
  setenv ("SIMA_EV74_DEVICE", "emulator:workers=1", 1);
  tap_ok (strcmp (sima_ev74_resolve_spec (NULL), "emulator:workers=1") == 0
      && strcmp (sima_ev74_resolve_spec ("emulator"), "emulator") == 0,
      "SIMA_EV74_DEVICE is the default spec, an explicit spec wins");
  unsetenv ("SIMA_EV74_DEVICE");
  tap_ok (strcmp (sima_ev74_resolve_spec (""), SIMA_EV74_PLATFORM_DEVICE) == 0,
      "without either, the platform device");
}

/* ---- one QuantTess job on both backends ---------------------------------- */

typedef DiffBench Bench;
#define bench_open diff_bench_open
#define bench_close diff_bench_close
#define ARENA_BYTES DIFF_ARENA_BYTES

static SimaStatus
quant_a65 (const void *p, const void *in, void *out)
{
  const SimaQuantTessPlan *plan = p;
  SimaA65QuantTessPlan a65;
  SimaConstHostBuffer ib = { in, plan->input_bytes };
  SimaHostBuffer ob = { out, plan->output_bytes };
  SimaStatus st = sima_a65_quanttess_prepare (plan, &a65);
  return st.code == SIMA_OK ? sima_a65_quanttess_execute (&a65, &ib, 1, &ob, 1)
      : st;
}

static SimaStatus
quant_encode (const void *plan, SimaEv74Descriptor *d)
{
  return sima_ev74_quanttess_encode_relocatable (plan, d);
}

static DiffJob
quant_job (const SimaQuantTessPlan *plan)
{
  DiffJob job = { plan->input_bytes, plan->output_bytes,
    plan->element_count * (uint64_t) plan->input_view.scalar_bytes,
    plan->output_bytes, 0, quant_a65, quant_encode, plan };
  return job;
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

/* A random admitted request that fits the arenas (at most 400 KiB each way,
 * so random offsets leave room); with `cblock`, cblock tiles. */
static int
random_plan (TestRng *rng, SimaQuantTessPlan *plan, SimaTensorSpec *in,
    int cblock)
{
  static const int64_t channels[] = { 1, 2, 3, 4, 16, 17, 32, 33, 64, 70 };
  static const SimaDType dtypes[4] = { SIMA_DTYPE_FLOAT32, SIMA_DTYPE_FLOAT16,
    SIMA_DTYPE_BFLOAT16, SIMA_DTYPE_UINT8 };
  int rank = (int) test_rng_range (rng, 1, SIMA_MAX_RANK);
  GenTiling gt;
  SimaTensorSpec out;
  SimaQuantTessRequest req;
  float mults[7];

  mults[0] = 1.0f;
  mults[1] = 0.3f;
  mults[2] = 127.0f;
  mults[3] = 3.0e-39f;          /* subnormal */
  mults[4] = ldexpf (1.0f, -140);
  mults[5] = 1.0e30f;
  mults[6] = 255.0697f / 255.0f;  /* SiMa's 8-bit preproc */
  gen_tiling (rng, rank, (int) test_rng_below (rng, (uint64_t) rank),
      cblock ? cb_channels[test_rng_below (rng, sizeof cb_channels
              / sizeof cb_channels[0])]
      : channels[test_rng_below (rng, sizeof channels / sizeof channels[0])],
      (SimaChannels) test_rng_below (rng, 2), &gt);
  if (cblock)
    cblock_tiling (rng, &gt);
  *in = gen_view (rng, dtypes[test_rng_below (rng, 4)], rank, gt.shape,
      (GenViewKind) test_rng_below (rng, GEN_VIEW_KIND_COUNT));
  out = test_spec_tiled (SIMA_DTYPE_INT8, rank, gt.shape, gt.tiled.axes,
      gt.tiled.tile_shape, gt.tiled.channels);
  out.tiled.cblock = gt.tiled.cblock;
  memset (&req, 0, sizeof req);
  req.inputs = in;
  req.n_inputs = 1;
  req.outputs = &out;
  req.n_outputs = 1;
  req.params.multiplier = mults[test_rng_below (rng, 7)];
  req.params.zero_point = (int32_t) test_rng_range (rng, -128, 127);
  req.params.rounding = (SimaRounding) test_rng_below (rng, 4);
  if (sima_quanttess_check_inference (&req, plan).code != SIMA_OK)
    return 0;
  return plan->element_count > 0 && plan->input_bytes <= (400 << 10)
      && plan->output_bytes <= (400 << 10);
}

static void
differential (const char *label, uint64_t seed, int count, int cblock)
{
  DiffBench benches[8];
  DiffTally t;
  TestRng rng = { seed };
  int i, k, u8 = 0;

  memset (&t, 0, sizeof t);
  for (k = 0; k < 8; k++)
    diff_bench_open (&benches[k], diff_specs[k]);
  for (i = 0; i < count; i++) {
    SimaQuantTessPlan plan;
    SimaTensorSpec in;
    DiffBench *b = &benches[i % 8];
    DiffJob job;
    size_t in_off, out_off;

    while (!random_plan (&rng, &plan, &in, cblock)) {
    }
    u8 += in.dtype == SIMA_DTYPE_UINT8;
    job = quant_job (&plan);
    diff_offsets (&rng, &job, plan.input_view.scalar_bytes, 16, &in_off,
        &out_off);
    gen_fill_values (&rng, in.dtype, plan.params.multiplier,
        b->in.host + in_off, (size_t) plan.input_bytes);
    diff_run (b, &job, in_off, out_off, &t);
  }
  for (k = 0; k < 8; k++)
    diff_bench_close (&benches[k]);
  diff_report (label, &t, (uint64_t) count);
  tap_diag ("%s: %d of %d random inputs are UINT8", label, u8, count);
}

/* ---- faults ---------------------------------------------------------------- */

/* A bound descriptor for shape[rank] FP32 -> H8/W16/C`c_tile` tiles (in
 * cblock order when `cblock`) of the arenas' starts. */
static SimaQuantTessPlan
bound_plan_c (const Bench *b, int rank, const int64_t *shape,
    SimaChannels mode, int64_t c_tile, int cblock, SimaEv74Descriptor *d)
{
  static const int8_t axes3[4] = { -1, 0, 1, 2 };
  const int64_t tile[4] = { 1, 8, 16, c_tile };
  SimaTensorSpec in = test_spec_dense (SIMA_DTYPE_FLOAT32, rank, shape);
  SimaTensorSpec out = test_spec_tiled (SIMA_DTYPE_INT8, rank, shape, axes3,
      tile, mode);
  SimaQuantTessRequest req = { &in, 1, &out, 1,
    { 64.0f, 0, SIMA_ROUNDING_NEAREST_EVEN } };
  SimaQuantTessPlan plan;
  SimaEv74Binding bi = test_arena_binding (&b->in, 0);
  SimaEv74Binding bo = test_arena_binding (&b->out, 0);
  size_t i;

  out.tiled.cblock = cblock;
  sima_quanttess_check_inference (&req, &plan);
  sima_ev74_quanttess_encode_relocatable (&plan, d);
  sima_ev74_descriptor_bind (d, &bi, &bo);
  for (i = 0; i < plan.input_bytes / 4; i++)
    ((float *) b->in.host)[i] = (float) ((int) (i % 255) - 127) / 64.0f;
  return plan;
}

static SimaQuantTessPlan
bound_plan (const Bench *b, int rank, const int64_t *shape, SimaChannels mode,
    SimaEv74Descriptor *d)
{
  return bound_plan_c (b, rank, shape, mode, 16, 0, d);
}

static void
faults (void)
{
  static const int64_t rgb[3] = { 64, 64, 3 };
  Bench b;
  SimaEv74Descriptor d;
  SimaEv74JobStats js;
  SimaEv74Region *regions[2];
  SimaQuantTessPlan plan;
  SimaStatus st;

  /* a DMA error in the middle of a job, then the device keeps working */
  bench_open (&b, "emulator:workers=2,fault=dma-error,fault-after-commands=3,"
      "fault-after-jobs=1");
  regions[0] = b.in.region;
  regions[1] = b.out.region;
  plan = bound_plan (&b, 3, rgb, SIMA_CHANNELS_PAD16, &d);
  st = sima_ev74_run (b.dev, &d, regions, 2, -1, &js);
  expect_status ("job before the fault", st, SIMA_OK, NULL);
  st = sima_ev74_run (b.dev, &d, regions, 2, -1, &js);
  expect_status ("DMA error mid-job", st, SIMA_DMA_ERROR,
      "a DMA transfer failed", NULL);
  sima_ev74_device_configure (b.dev, "fault=none");
  st = sima_ev74_run (b.dev, &d, regions, 2, -1, &js);
  expect_status ("the next job after clearing the fault", st, SIMA_OK, NULL);
  expect_status ("bad option at runtime",
      sima_ev74_device_configure (b.dev, "workers=2"), SIMA_INVALID_ARGUMENT,
      "fixed at open", NULL);
  bench_close (&b);

  bench_open (&b, "emulator:workers=3,fault=worker-failure");
  regions[0] = b.in.region;
  regions[1] = b.out.region;
  bound_plan (&b, 3, rgb, SIMA_CHANNELS_PAD16, &d);
  st = sima_ev74_run (b.dev, &d, regions, 2, -1, &js);
  expect_status ("worker failure", st, SIMA_DEVICE_FAULT, "worker 2 of 3",
      NULL);
  bench_close (&b);

  /* A job that hangs past the wait: TIMEOUT, nothing freed. The test then
   * drops every reference it has (job, regions, its own mapping and fd):
   * the device must still own the regions and finish the job into them.
   * A second job queued behind it tells us when it has retired. */
  {
    SimaEv74Job *job, *after;
    uint8_t *keep;
    int ok;

    bench_open (&b, "emulator:workers=1,fault=hang,hang-ms=300");
    regions[0] = b.in.region;
    regions[1] = b.out.region;
    plan = bound_plan (&b, 3, rgb, SIMA_CHANNELS_PAD16, &d);
    /* a second view of the output, to look at it after the test let go */
    keep = mmap (NULL, ARENA_BYTES, PROT_READ, MAP_SHARED, b.out.fd, 0);
    memset (b.out.host, 0, (size_t) plan.output_bytes);
    st = sima_ev74_submit (b.dev, &d, regions, 2, &job);
    expect_status ("submit the hanging job", st, SIMA_OK, NULL);
    st = sima_ev74_job_wait (job, 20 * 1000 * 1000);
    expect_status ("wait times out", st, SIMA_TIMEOUT, "did not retire",
        "stay held", NULL);
    tap_ok (!sima_ev74_job_retired (job), "the job is still in flight");
    sima_ev74_device_configure (b.dev, "fault=none");
    sima_ev74_job_unref (job);
    sima_ev74_region_unref (b.in.region);
    munmap (b.in.host, ARENA_BYTES);
    close (b.in.fd);
    /* the output region stays ours for the second job */
    st = sima_ev74_submit (b.dev, &d, regions + 1, 0, &after);
    st = sima_ev74_job_wait (after, -1);
    sima_ev74_job_unref (after);
    ok = keep != MAP_FAILED && ((int8_t *) keep)[0] != 0;
    tap_ok (ok, "the abandoned job finished into regions the device still "
        "held (first output byte %d)", keep != MAP_FAILED
        ? ((int8_t *) keep)[0] : 0);
    if (keep != MAP_FAILED)
      munmap (keep, ARENA_BYTES);
    test_arena_free (&b.out);
    free (b.expected);
    free (b.input_copy);
    sima_ev74_device_unref (b.dev);
  }
}

/* ---- data movement ---------------------------------------------------------- */

static void
data_movement (void)
{
  static const int64_t rgb[3] = { 224, 224, 3 };
  static const int64_t c33[3] = { 128, 128, 33 };
  struct {
    const char *name;
    const int64_t *shape;
    int64_t c_tile;
    int cblock;
  } cases[3] = { { "RGB 224x224x3 FP32 -> H8/W16/C16 pad16", rgb, 16, 0 },
    { "C33 128x128x33 FP32 -> H8/W16/C16 pad16", c33, 16, 0 },
    { "C33 128x128x33 FP32 -> H8/W16/C64 pad16 cblock (3 blocks)", c33, 64,
      1 } };
  int i;

  for (i = 0; i < 3; i++) {
    Bench b;
    SimaEv74Descriptor d;
    SimaEv74JobStats js;
    SimaEv74Region *regions[2];
    SimaQuantTessPlan plan;
    SimaStatus st;
    uint64_t logical;

    bench_open (&b, "emulator:workers=4,dma=deferred");
    regions[0] = b.in.region;
    regions[1] = b.out.region;
    plan = bound_plan_c (&b, 3, cases[i].shape, SIMA_CHANNELS_PAD16,
        cases[i].c_tile, cases[i].cblock, &d);
    st = sima_ev74_run (b.dev, &d, regions, 2, -1, &js);
    logical = plan.element_count * 4;
    tap_ok (st.code == SIMA_OK && js.dma_bytes_read == logical
        && js.dma_bytes_written == plan.output_bytes
        && js.local_peak <= 2 * (18 + 6) * 1024,
        "data movement, %s, 4 workers: read %llu bytes (logical input %llu, "
        "ratio %.3f), wrote %llu (physical output %llu, ratio %.3f), %llu DMA "
        "commands, local peak %u of %u bytes per worker",
        cases[i].name, (unsigned long long) js.dma_bytes_read,
        (unsigned long long) logical,
        (double) js.dma_bytes_read / (double) logical,
        (unsigned long long) js.dma_bytes_written,
        (unsigned long long) plan.output_bytes,
        (double) js.dma_bytes_written / (double) plan.output_bytes,
        (unsigned long long) js.dma_commands, js.local_peak,
        2 * (18 + 6) * 1024);
    bench_close (&b);
  }
}

/* ---- UINT8 camera frames ------------------------------------------------- */

static int
oracle_rounding (SimaRounding r)
{
  return r == SIMA_ROUNDING_NEAREST_EVEN ? ORACLE_ROUND_NEAREST_EVEN
      : r == SIMA_ROUNDING_TOWARD_ZERO ? ORACLE_ROUND_TOWARD_ZERO
      : r == SIMA_ROUNDING_TOWARD_POSITIVE ? ORACLE_ROUND_TOWARD_POSITIVE
      : ORACLE_ROUND_TOWARD_NEGATIVE;
}

/* A camera frame as 8-bit pixels: <H,W,3> RGB (pixel stride 3) or RGBX /
 * BGRx (pixel stride 4, the fourth byte never read), or GRAY8 <H,W,1>;
 * rows padded to a random pitch half of the time (kind 0 GRAY8, 1 RGB,
 * 2 RGBX); a batch axis in front now and then. Tiles H, W, C in a few
 * camera-like shapes, pad16 or compact, cblock sometimes. */
static int
camera_plan (TestRng *rng, SimaQuantTessPlan *plan, SimaTensorSpec *in,
    int *kind_out)
{
  static const int64_t h_tiles[] = { 1, 2, 4, 8 };
  static const int64_t w_tiles[] = { 1, 3, 8, 16, 32 };
  static const float mults[] = { 1.0f, 1.0f / 255.0f, 0.5f, 127.0f / 255.0f,
    2.0f };
  const int kind = (int) test_rng_below (rng, 3);
  const int64_t c = kind == 0 ? 1 : 3, ps = kind == 0 ? 1 : kind == 1 ? 3 : 4;
  const int batch = test_rng_below (rng, 4) == 0;
  const int rank = 3 + batch;
  int64_t h = test_rng_range (rng, 1, 48), w = test_rng_range (rng, 1, 96);
  int64_t pitch = w * ps + (test_rng_below (rng, 2)
      ? test_rng_range (rng, 1, 64) : 0);
  int64_t shape[4], strides[4], tile[4];
  int8_t axes[4];
  SimaTensorSpec out;
  SimaQuantTessRequest req;
  int i = 0;

  if (batch) {
    shape[0] = test_rng_range (rng, 1, 3);
    strides[0] = pitch * h + 16 * test_rng_below (rng, 3);
    i = 1;
  }
  shape[i] = h;
  shape[i + 1] = w;
  shape[i + 2] = c;
  strides[i] = pitch;
  strides[i + 1] = ps;
  strides[i + 2] = 1;
  axes[0] = -1;
  axes[1] = (int8_t) i;
  axes[2] = (int8_t) (i + 1);
  axes[3] = (int8_t) (i + 2);
  tile[0] = 1;
  tile[1] = h_tiles[test_rng_below (rng, 4)];
  tile[2] = w_tiles[test_rng_below (rng, 5)];
  tile[3] = test_rng_below (rng, 2) ? c : 16;
  *in = test_spec_strided (SIMA_DTYPE_UINT8, rank, shape, strides);
  if (test_rng_below (rng, 4) == 0)     /* a tight frame: contiguous */
    if (kind != 2 && pitch == w * ps && !batch)
      *in = test_spec_dense (SIMA_DTYPE_UINT8, rank, shape);
  out = test_spec_tiled (SIMA_DTYPE_INT8, rank, shape, axes, tile,
      test_rng_below (rng, 3) ? SIMA_CHANNELS_PAD16 : SIMA_CHANNELS_COMPACT);
  out.tiled.cblock = out.tiled.channels == SIMA_CHANNELS_PAD16
      && test_rng_below (rng, 4) == 0;
  memset (&req, 0, sizeof req);
  req.inputs = in;
  req.n_inputs = 1;
  req.outputs = &out;
  req.n_outputs = 1;
  /* mostly SiMa's preproc: 255.0697f / 255 with zero point -128 */
  if (test_rng_below (rng, 2)) {
    req.params.multiplier = 255.0697f / 255.0f;
    req.params.zero_point = -128;
    req.params.rounding = SIMA_ROUNDING_NEAREST_EVEN;
  } else {
    req.params.multiplier = mults[test_rng_below (rng, 5)];
    req.params.zero_point = (int32_t) test_rng_range (rng, -128, 127);
    req.params.rounding = (SimaRounding) test_rng_below (rng, 4);
  }
  *kind_out = kind;
  if (sima_quanttess_check_inference (&req, plan).code != SIMA_OK)
    return 0;
  return plan->element_count > 0 && plan->input_bytes <= (400 << 10)
      && plan->output_bytes <= (400 << 10);
}

static void
camera_sweep (const char *label, uint64_t seed, int count)
{
  DiffBench benches[8];
  DiffTally t;
  TestRng rng = { seed };
  uint8_t *want = malloc (DIFF_ARENA_BYTES);
  int i, k, kinds[3] = { 0, 0, 0 }, odd_inputs = 0;
  uint64_t oracle_mismatches = 0;

  memset (&t, 0, sizeof t);
  for (k = 0; k < 8; k++)
    diff_bench_open (&benches[k], diff_specs[k]);
  for (i = 0; i < count; i++) {
    SimaQuantTessPlan plan;
    SimaTensorSpec in;
    DiffBench *b = &benches[i % 8];
    DiffJob job;
    size_t in_off, out_off, n;
    int kind;

    while (!camera_plan (&rng, &plan, &in, &kind)) {
    }
    kinds[kind]++;
    job = quant_job (&plan);
    diff_offsets (&rng, &job, plan.input_view.scalar_bytes, 16, &in_off,
        &out_off);
    odd_inputs += (in_off & 1) != 0;
    gen_fill_values (&rng, in.dtype, plan.params.multiplier,
        b->in.host + in_off, (size_t) plan.input_bytes);
    diff_run (b, &job, in_off, out_off, &t);
    /* the device's bytes against the independent oracle as well */
    n = (size_t) plan.output_bytes;
    oracle_quanttess (&plan.input, b->in.host + in_off, &plan.output,
        plan.params.multiplier, plan.params.zero_point,
        oracle_rounding (plan.params.rounding), want);
    if (memcmp (want, b->out.host + out_off, n) != 0
        && oracle_mismatches++ < 3)
      tap_diag ("%s case %d: device output differs from the oracle", label,
          i);
  }
  for (k = 0; k < 8; k++)
    diff_bench_close (&benches[k]);
  free (want);
  diff_report (label, &t, (uint64_t) count);
  tap_ok (oracle_mismatches == 0 && kinds[0] > 0 && kinds[1] > 0
      && kinds[2] > 0 && odd_inputs > 0, "%s: %d jobs (GRAY8 %d, RGB stride 3 "
      "%d, RGBX stride 4 %d; %d inputs at odd addresses) equal the oracle "
      "(%llu mismatches)", label, count, kinds[0], kinds[1], kinds[2],
      odd_inputs, (unsigned long long) oracle_mismatches);
}

/* An RGBX 224x224 camera frame (pixel stride 4, rows padded to 1024 bytes)
 * into H8/W16/C16 pad16 tiles with SiMa's preproc: the device reads the
 * three channels of every pixel and nothing else (no X byte, no row
 * padding), and writes the physical output once. */
static void
camera_data_movement (void)
{
  static const int64_t shape[3] = { 224, 224, 3 };
  static const int64_t strides[3] = { 1024, 4, 1 };
  static const int8_t axes[4] = { -1, 0, 1, 2 };
  static const int64_t tile[4] = { 1, 8, 16, 16 };
  SimaTensorSpec in = test_spec_strided (SIMA_DTYPE_UINT8, 3, shape, strides);
  SimaTensorSpec out = test_spec_tiled (SIMA_DTYPE_INT8, 3, shape, axes, tile,
      SIMA_CHANNELS_PAD16);
  SimaQuantTessRequest req = { &in, 1, &out, 1,
    { 255.0697f / 255.0f, -128, SIMA_ROUNDING_NEAREST_EVEN } };
  SimaQuantTessPlan plan;
  SimaEv74Descriptor d;
  SimaEv74JobStats js;
  SimaEv74Region *regions[2];
  SimaEv74Binding bi, bo;
  SimaStatus st;
  uint8_t *want;
  Bench b;
  size_t i;

  bench_open (&b, "emulator:workers=4,dma=deferred");
  regions[0] = b.in.region;
  regions[1] = b.out.region;
  st = sima_quanttess_check_inference (&req, &plan);
  if (st.code == SIMA_OK)
    st = sima_ev74_quanttess_encode_relocatable (&plan, &d);
  bi = test_arena_binding (&b.in, 1);       /* an odd bus address */
  bo = test_arena_binding (&b.out, 0);
  if (st.code == SIMA_OK)
    st = sima_ev74_descriptor_bind (&d, &bi, &bo);
  for (i = 0; i < plan.input_bytes; i++)
    b.in.host[1 + i] = (uint8_t) (i * 7 + (i >> 10));
  if (st.code == SIMA_OK)
    st = sima_ev74_run (b.dev, &d, regions, 2, -1, &js);
  want = malloc ((size_t) plan.output_bytes);
  oracle_quanttess (&plan.input, b.in.host + 1, &plan.output,
      plan.params.multiplier, -128, ORACLE_ROUND_NEAREST_EVEN, want);
  tap_ok (st.code == SIMA_OK && js.dma_bytes_read == plan.element_count
      && js.dma_bytes_written == plan.output_bytes
      && memcmp (want, b.out.host, (size_t) plan.output_bytes) == 0,
      "data movement, UINT8 RGBX 224x224 (pixel stride 4, pitch 1024, odd "
      "address) -> INT8 H8/W16/C16 pad16, SiMa preproc, 4 workers: read %llu "
      "bytes (logical input %llu of a %llu-byte span), wrote %llu (physical "
      "output %llu), %llu DMA commands, equal to the oracle %s",
      (unsigned long long) js.dma_bytes_read,
      (unsigned long long) plan.element_count,
      (unsigned long long) plan.input_bytes,
      (unsigned long long) js.dma_bytes_written,
      (unsigned long long) plan.output_bytes,
      (unsigned long long) js.dma_commands, st.code == SIMA_OK ? ""
      : st.message);
  free (want);
  bench_close (&b);
}

int
main (void)
{
  device_basics ();
  faults ();
  data_movement ();
  differential ("QuantTess", 0xe774, 10000, 0);
  differential ("QuantTess cblock", 0xcb10c4e774, 3000, 1);
  camera_data_movement ();
  camera_sweep ("QuantTess UINT8 camera", 0xca3e7a8e774, 3000);
  return tap_done ();
}
