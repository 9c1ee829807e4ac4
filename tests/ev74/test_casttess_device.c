/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CastTess on the EV74 emulator: the capability, every FP16 and every BF16
 * pattern against the oracle, 10,000 random geometries against the A65
 * (1-4 workers, both DMA models; guards, padding and exact traffic checked
 * by ev74_diff), and the data movement of the RGB pad16 case. UINT8 input
 * (camera pixels): all 256 values against the oracle, UINT8 in the random
 * sweeps, and a camera sweep (<H,W,3> with pixel stride 3 or 4 and padded
 * rows, GRAY8 <H,W,1>) against the A65 and the oracle.
 */
#include <simaai/kernels/a65/casttess.h>
#include <simaai/kernels/ev74/casttess.h>

#include <stdlib.h>
#include <string.h>

#include "ev74_diff.h"
#include "layout_gen.h"
#include "oracle.h"
#include "status_expect.h"
#include "tap.h"
#include "test_util.h"

static SimaStatus
cast_a65 (const void *p, const void *in, void *out)
{
  const SimaCastTessPlan *plan = p;
  SimaA65CastTessPlan a65;
  SimaConstHostBuffer ib = { in, plan->input_bytes };
  SimaHostBuffer ob = { out, plan->output_bytes };
  SimaStatus st = sima_a65_casttess_prepare (plan, &a65);
  return st.code == SIMA_OK ? sima_a65_casttess_execute (&a65, &ib, 1, &ob, 1)
      : st;
}

static SimaStatus
cast_encode (const void *plan, SimaEv74Descriptor *d)
{
  return sima_ev74_casttess_encode_relocatable (plan, d);
}

static DiffJob
cast_job (const SimaCastTessPlan *plan)
{
  DiffJob job = { plan->input_bytes, plan->output_bytes,
    plan->element_count * (uint64_t) plan->input_view.scalar_bytes,
    plan->output_bytes, 0, cast_a65, cast_encode, plan };
  return job;
}

static int
admit (const SimaTensorSpec *in, const SimaTensorSpec *out,
    SimaCastTessPlan *plan)
{
  SimaCastTessRequest req = { in, 1, out, 1 };
  return sima_casttess_check_inference (&req, plan).code == SIMA_OK;
}

/* Runs plan on the device with the input at the start of the input arena
 * and the output at the start of the output arena. */
static SimaStatus
device_run (DiffBench *b, const SimaCastTessPlan *plan, SimaEv74JobStats *js)
{
  SimaEv74Descriptor d;
  SimaEv74Binding bi = test_arena_binding (&b->in, 0);
  SimaEv74Binding bo = test_arena_binding (&b->out, 0);
  SimaEv74Region *regions[2] = { b->in.region, b->out.region };
  SimaStatus st = sima_ev74_casttess_encode_relocatable (plan, &d);
  if (st.code == SIMA_OK)
    st = sima_ev74_descriptor_bind (&d, &bi, &bo);
  if (st.code == SIMA_OK)
    st = sima_ev74_run (b->dev, &d, regions, 2, -1, js);
  return st;
}

/* Every 16-bit pattern as FP16 and as BF16, C-only tensor with odd C
 * tiles, pad16, through the emulator with 3 workers, against the oracle. */
static void
exhaustive (void)
{
  static const int64_t n = 65536;
  static const int8_t axes[4] = { -1, -1, -1, 0 };
  static const int64_t tile[4] = { 1, 1, 1, 40 };
  static const SimaDType dtypes[2] = { SIMA_DTYPE_FLOAT16, SIMA_DTYPE_BFLOAT16 };
  DiffBench b;
  int d;

  diff_bench_open (&b, "emulator:workers=3,dma=deferred");
  for (d = 0; d < 2; d++) {
    SimaTensorSpec in = test_spec_dense (dtypes[d], 1, &n);
    SimaTensorSpec out = test_spec_tiled (SIMA_DTYPE_BFLOAT16, 1, &n, axes,
        tile, SIMA_CHANNELS_PAD16);
    SimaCastTessPlan plan;
    SimaEv74JobStats js;
    uint8_t *want;
    SimaStatus st;
    int64_t i;

    admit (&in, &out, &plan);
    for (i = 0; i < n; i++)
      ((uint16_t *) b.in.host)[i] = (uint16_t) i;
    want = malloc ((size_t) plan.output_bytes);
    oracle_casttess (&in, b.in.host, &out, want);
    memset (b.out.host, 0xA5, (size_t) plan.output_bytes);
    st = device_run (&b, &plan, &js);
    tap_ok (st.code == SIMA_OK && memcmp (b.out.host, want,
            (size_t) plan.output_bytes) == 0,
        "every %s pattern through the emulator equals the oracle (65536 "
        "values, %llu output bytes)", sima_dtype_name (dtypes[d]),
        (unsigned long long) plan.output_bytes);
    free (want);
  }
  diff_bench_close (&b);
}

/* Every UINT8 value, in a C-only tensor with odd C tiles (pad16) and as an
 * RGBX frame at an odd bus address (pixel stride 4), through the emulator
 * with 3 workers: equal to the oracle, and each BF16 the exact integer. */
static void
exhaustive_u8 (void)
{
  static const int64_t n = 256, frame[3] = { 8, 32, 3 };
  static const int64_t fstrides[3] = { 130, 4, 1 };
  static const int8_t axes1[4] = { -1, -1, -1, 0 }, axes3[4] = { -1, 0, 1, 2 };
  static const int64_t tile1[4] = { 1, 1, 1, 40 }, tile3[4] = { 1, 4, 8, 16 };
  DiffBench b;
  int k;

  diff_bench_open (&b, "emulator:workers=3,dma=deferred");
  for (k = 0; k < 2; k++) {
    SimaTensorSpec in = k == 0 ? test_spec_dense (SIMA_DTYPE_UINT8, 1, &n)
        : test_spec_strided (SIMA_DTYPE_UINT8, 3, frame, fstrides);
    SimaTensorSpec out = k == 0 ? test_spec_tiled (SIMA_DTYPE_BFLOAT16, 1, &n,
        axes1, tile1, SIMA_CHANNELS_PAD16) : test_spec_tiled
        (SIMA_DTYPE_BFLOAT16, 3, frame, axes3, tile3, SIMA_CHANNELS_PAD16);
    SimaEv74Region *regions[2] = { b.in.region, b.out.region };
    SimaEv74Binding bi = test_arena_binding (&b.in, (size_t) k);
    SimaEv74Binding bo = test_arena_binding (&b.out, 0);
    SimaCastTessPlan plan;
    SimaEv74Descriptor d;
    SimaEv74JobStats js;
    uint8_t *want, *src = b.in.host + k;
    SimaStatus st;
    int64_t i;
    int exact = 1;

    memset (&js, 0, sizeof js);
    st = admit (&in, &out, &plan) ? sima_status_ok ()
        : sima_status_make (SIMA_INVALID_ARGUMENT, "not admitted");
    /* 0..255 in logical order (the frame holds 768 values: every byte
     * three times), the X bytes and the row padding 0xEE */
    memset (src, 0xEE, (size_t) plan.input_bytes);
    for (i = 0; i < (int64_t) plan.element_count; i++) {
      int64_t off = k == 0 ? i : (i / 96) * 130 + (i / 3 % 32) * 4 + i % 3;
      src[off] = (uint8_t) i;
    }
    if (st.code == SIMA_OK)
      st = sima_ev74_casttess_encode_relocatable (&plan, &d);
    if (st.code == SIMA_OK)
      st = sima_ev74_descriptor_bind (&d, &bi, &bo);
    memset (b.out.host, 0xA5, (size_t) plan.output_bytes);
    if (st.code == SIMA_OK)
      st = sima_ev74_run (b.dev, &d, regions, 2, -1, &js);
    want = malloc ((size_t) plan.output_bytes);
    oracle_casttess (&in, src, &out, want);
    /* the BF16 of i by bit construction: exponent from the leading bit,
     * the 7 bits below it as the fraction */
    for (i = 1; i < 256; i++) {
      int msb = 31 - __builtin_clz ((unsigned) i);
      exact &= oracle_bf16_from_u8 ((uint8_t) i) == (uint16_t)
          ((unsigned) (127 + msb) << 7 | (((unsigned) i << (7 - msb)) & 0x7Fu));
    }
    exact &= oracle_bf16_from_u8 (0) == 0;
    tap_ok (st.code == SIMA_OK && exact && js.dma_bytes_read
        == plan.element_count && memcmp (b.out.host, want,
            (size_t) plan.output_bytes) == 0,
        "every UINT8 value through the emulator (%s) equals the oracle and "
        "is the exact integer (%llu values, %llu output bytes, %llu bytes "
        "read)", k == 0 ? "C-only, C tiles of 40"
        : "RGBX 8x32, pixel stride 4, pitch 130, odd address",
        (unsigned long long) plan.element_count,
        (unsigned long long) plan.output_bytes,
        (unsigned long long) js.dma_bytes_read);
    free (want);
  }
  diff_bench_close (&b);
}

/* A camera frame as 8-bit pixels (as in test_quanttess_device.c): <H,W,3>
 * RGB (pixel stride 3) or RGBX (pixel stride 4), or GRAY8 <H,W,1>, rows
 * padded half of the time, a batch axis now and then; camera-like tiles,
 * pad16 or compact, cblock sometimes. */
static int
camera_plan (TestRng *rng, SimaCastTessPlan *plan, SimaTensorSpec *in,
    int *kind_out)
{
  static const int64_t h_tiles[] = { 1, 2, 4, 8 };
  static const int64_t w_tiles[] = { 1, 3, 8, 16, 32 };
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
  int i = 0;

  if (batch) {
    shape[0] = test_rng_range (rng, 1, 3);
    strides[0] = pitch * h + 16 * (int64_t) test_rng_below (rng, 3);
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
  out = test_spec_tiled (SIMA_DTYPE_BFLOAT16, rank, shape, axes, tile,
      test_rng_below (rng, 3) ? SIMA_CHANNELS_PAD16 : SIMA_CHANNELS_COMPACT);
  out.tiled.cblock = out.tiled.channels == SIMA_CHANNELS_PAD16
      && test_rng_below (rng, 4) == 0;
  *kind_out = kind;
  return admit (in, &out, plan) && plan->element_count > 0
      && plan->input_bytes <= (400 << 10) && plan->output_bytes <= (400 << 10);
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
    SimaCastTessPlan plan;
    SimaTensorSpec in;
    DiffBench *b = &benches[i % 8];
    DiffJob job;
    size_t in_off, out_off;
    int kind;

    while (!camera_plan (&rng, &plan, &in, &kind)) {
    }
    kinds[kind]++;
    job = cast_job (&plan);
    diff_offsets (&rng, &job, plan.input_view.scalar_bytes, 16, &in_off,
        &out_off);
    odd_inputs += (in_off & 1) != 0;
    gen_fill_values (&rng, in.dtype, 1.0f, b->in.host + in_off,
        (size_t) plan.input_bytes);
    diff_run (b, &job, in_off, out_off, &t);
    /* the device's bytes against the independent oracle as well */
    oracle_casttess (&plan.input, b->in.host + in_off, &plan.output, want);
    if (memcmp (want, b->out.host + out_off, (size_t) plan.output_bytes) != 0
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
random_plan (TestRng *rng, SimaCastTessPlan *plan, SimaTensorSpec *in,
    int cblock)
{
  static const int64_t channels[] = { 1, 2, 3, 4, 16, 17, 32, 33, 64, 70 };
  static const SimaDType dtypes[4] = { SIMA_DTYPE_FLOAT32, SIMA_DTYPE_FLOAT16,
    SIMA_DTYPE_BFLOAT16, SIMA_DTYPE_UINT8 };
  int rank = (int) test_rng_range (rng, 1, SIMA_MAX_RANK);
  SimaTensorSpec out;
  GenTiling gt;

  gen_tiling (rng, rank, (int) test_rng_below (rng, (uint64_t) rank),
      cblock ? cb_channels[test_rng_below (rng, sizeof cb_channels
              / sizeof cb_channels[0])]
      : channels[test_rng_below (rng, sizeof channels / sizeof channels[0])],
      (SimaChannels) test_rng_below (rng, 2), &gt);
  if (cblock)
    cblock_tiling (rng, &gt);
  *in = gen_view (rng, dtypes[test_rng_below (rng, 4)], rank, gt.shape,
      (GenViewKind) test_rng_below (rng, GEN_VIEW_KIND_COUNT));
  out = test_spec_tiled (SIMA_DTYPE_BFLOAT16, rank, gt.shape, gt.tiled.axes,
      gt.tiled.tile_shape, gt.tiled.channels);
  out.tiled.cblock = gt.tiled.cblock;
  return admit (in, &out, plan) && plan->element_count > 0
      && plan->input_bytes <= (400 << 10) && plan->output_bytes <= (400 << 10);
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
    SimaCastTessPlan plan;
    SimaTensorSpec in;
    DiffBench *b = &benches[i % 8];
    DiffJob job;
    size_t in_off, out_off;

    while (!random_plan (&rng, &plan, &in, cblock)) {
    }
    u8 += in.dtype == SIMA_DTYPE_UINT8;
    job = cast_job (&plan);
    diff_offsets (&rng, &job, plan.input_view.scalar_bytes, 16, &in_off,
        &out_off);
    gen_fill_values (&rng, in.dtype, 1.0f, b->in.host + in_off,
        (size_t) plan.input_bytes);
    diff_run (b, &job, in_off, out_off, &t);
  }
  for (k = 0; k < 8; k++)
    diff_bench_close (&benches[k]);
  diff_report (label, &t, (uint64_t) count);
  tap_diag ("%s: %d of %d random inputs are UINT8", label, u8, count);
}

static void
basics_and_data_movement (void)
{
  static const int64_t rgb[3] = { 224, 224, 3 };
  static const int8_t axes[4] = { -1, 0, 1, 2 };
  static const int64_t tile[4] = { 1, 8, 16, 16 };
  SimaTensorSpec in = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, rgb);
  SimaTensorSpec out = test_spec_tiled (SIMA_DTYPE_BFLOAT16, 3, rgb, axes,
      tile, SIMA_CHANNELS_PAD16);
  SimaCastTessPlan plan;
  SimaEv74JobStats js;
  DiffBench b;
  SimaStatus st;

  diff_bench_open (&b, "emulator:workers=4,dma=deferred");
  expect_status ("CastTess capability", sima_ev74_device_require (b.dev,
          SIMA_EV74_ROUTE_CASTTESS, SIMA_EV74_CASTTESS_CAPABILITY), SIMA_OK,
      NULL);
  admit (&in, &out, &plan);
  st = device_run (&b, &plan, &js);
  tap_ok (st.code == SIMA_OK && js.dma_bytes_read == plan.element_count * 4
      && js.dma_bytes_written == plan.output_bytes,
      "data movement, CastTess RGB 224x224x3 FP32 -> BF16 H8/W16/C16 pad16, "
      "4 workers: read %llu bytes (logical input %llu), wrote %llu (physical "
      "output %llu), %llu DMA commands, local peak %u bytes",
      (unsigned long long) js.dma_bytes_read,
      (unsigned long long) (plan.element_count * 4),
      (unsigned long long) js.dma_bytes_written,
      (unsigned long long) plan.output_bytes,
      (unsigned long long) js.dma_commands, js.local_peak);
  {
    /* cblock tiles of 48 stored channels: three 16-channel blocks */
    static const int64_t c33[3] = { 64, 64, 33 };
    static const int64_t tile64[4] = { 1, 8, 16, 64 };
    SimaTensorSpec cin = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, c33);
    SimaTensorSpec cout = test_spec_tiled (SIMA_DTYPE_BFLOAT16, 3, c33, axes,
        tile64, SIMA_CHANNELS_PAD16);
    cout.tiled.cblock = 1;
    admit (&cin, &cout, &plan);
    st = device_run (&b, &plan, &js);
    tap_ok (st.code == SIMA_OK && js.dma_bytes_read == plan.element_count * 4
        && js.dma_bytes_written == plan.output_bytes,
        "data movement, CastTess C33 64x64x33 FP32 -> BF16 H8/W16/C64 pad16 "
        "cblock, 4 workers: read %llu bytes (logical input %llu), wrote %llu "
        "(physical output %llu), %llu DMA commands",
        (unsigned long long) js.dma_bytes_read,
        (unsigned long long) (plan.element_count * 4),
        (unsigned long long) js.dma_bytes_written,
        (unsigned long long) plan.output_bytes,
        (unsigned long long) js.dma_commands);
  }
  diff_bench_close (&b);
  {
    SimaEv74Device *dev = test_device_open ("emulator:missing=51");
    expect_status ("CastTess capability absent", sima_ev74_device_require (dev,
            SIMA_EV74_ROUTE_CASTTESS, SIMA_EV74_CASTTESS_CAPABILITY),
        SIMA_CAPABILITY_MISSING, SIMA_EV74_CASTTESS_CAPABILITY, NULL);
    sima_ev74_device_unref (dev);
  }
}

int
main (void)
{
  basics_and_data_movement ();
  exhaustive ();
  differential ("CastTess", 0xca57e774, 10000, 0);
  differential ("CastTess cblock", 0xcb10cca57, 3000, 1);
  exhaustive_u8 ();
  camera_sweep ("CastTess UINT8 camera", 0xca3e7aca57, 3000);
  return tap_done ();
}
