/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sima-ev74-model: the EV74 data movement of the docs/performance.md cases
 * under the device model (firmware/hal/device_model.h), run through the
 * emulator with 4 workers and with 1, deferred DMA.
 *
 * For each case one row of the job statistics (SimaEv74JobStats): DMA
 * commands, bytes read and written (DMA and scalar stores), rows below the
 * efficient transfer size, unaligned rows, DMA write rows with a partial
 * 16-byte granule, exact scalar stores, the cost model's estimated device
 * time, the emulator's host time per job (submit to retirement, median of
 * the runs) and the per-worker local memory peak. The counters and the
 * estimate come from the cost model, not from a device: they are what the
 * firmware asks of the DMA engine, priced with the assumptions of
 * device_model.h.
 *
 * Every run's output (with guard bytes on both sides) is compared with the
 * A65 kernel's (the core's execute on the same input); any difference, or a
 * job that does not succeed, makes the exit status 1.
 *
 *   sima-ev74-model [--quick] [--runs N] [SUBSTRING]
 *
 * SUBSTRING selects the cases whose id ("quanttess/rgb224") contains it.
 * --quick: 3 runs per case (the test suite's check that it works). Output:
 * a machine line, then one markdown table per device spec, ready to paste
 * into docs/performance.md.
 *
 * Links the public EV74 library and the shared core only: no test code, no
 * GLib.
 */
#define _GNU_SOURCE
#include <simaai/kernels/a65/casttess.h>
#include <simaai/kernels/a65/detessdequant.h>
#include <simaai/kernels/a65/quanttess.h>
#include <simaai/kernels/ev74/casttess.h>
#include <simaai/kernels/ev74/detessdequant.h>
#include <simaai/kernels/ev74/device.h>
#include <simaai/kernels/ev74/quanttess.h>
#include <simaai/kernels/ev74/tensor_set.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { GUARD = 64, GUARD_BYTE = 0xC3, MAX_RUNS = 1001 };

/* ---- arenas: memfd "DMA-BUFs" imported into the device ----------------- */

typedef struct {
  int fd;
  uint8_t *host;
  size_t size;
  SimaEv74Region *region;
} Arena;

static int
arena_new (Arena *a, SimaEv74Device *dev, size_t size)
{
  SimaStatus st;

  memset (a, 0, sizeof *a);
  a->fd = -1;
  a->size = size;
  a->fd = memfd_create ("sima-ev74-model", MFD_CLOEXEC);
  if (a->fd < 0 || ftruncate (a->fd, (off_t) size) != 0) {
    perror ("memfd");
    return -1;
  }
  a->host = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, a->fd, 0);
  if (a->host == MAP_FAILED) {
    perror ("mmap");
    a->host = NULL;
    return -1;
  }
  st = sima_ev74_region_import (dev, a->fd, size, &a->region);
  if (st.code != SIMA_OK) {
    fprintf (stderr, "region import: %s\n", st.message);
    return -1;
  }
  return 0;
}

static void
arena_free (Arena *a)
{
  if (a->region != NULL)
    sima_ev74_region_unref (a->region);
  if (a->host != NULL)
    munmap (a->host, a->size);
  if (a->fd >= 0)
    close (a->fd);
  memset (a, 0, sizeof *a);
  a->fd = -1;
}

static SimaEv74Binding
arena_binding (const Arena *a, size_t offset)
{
  SimaEv74Binding b;
  b.bus_address = sima_ev74_region_bus_address (a->region) + offset;
  b.length = a->size - offset;
  return b;
}

/* ---- specs ------------------------------------------------------------- */

static SimaTensorSpec
spec_dense (SimaDType dtype, int rank, const int64_t *shape)
{
  SimaTensorSpec s;
  memset (&s, 0, sizeof s);
  s.rank = rank;
  memcpy (s.shape, shape, (size_t) rank * sizeof *shape);
  s.dtype = dtype;
  s.layout = SIMA_LAYOUT_CONTIGUOUS;
  return s;
}

/* Channels first: logical <H, W, C> stored as C planes of H rows of W. */
static SimaTensorSpec
spec_chw (SimaDType dtype, const int64_t shape[3])
{
  SimaTensorSpec s = spec_dense (dtype, 3, shape);
  int64_t scalar = sima_dtype_size (dtype);
  s.layout = SIMA_LAYOUT_STRIDED;
  s.strides_bytes[0] = shape[1] * scalar;
  s.strides_bytes[1] = scalar;
  s.strides_bytes[2] = shape[0] * shape[1] * scalar;
  return s;
}

/* Tiles over the last three axes (H, W, C), no D. */
static SimaTensorSpec
spec_tiled (SimaDType dtype, int rank, const int64_t *shape, int64_t th,
    int64_t tw, int64_t tc, SimaChannels channels)
{
  SimaTensorSpec s = spec_dense (dtype, rank, shape);
  s.layout = SIMA_LAYOUT_MLA_TILED;
  s.tiled.axes[SIMA_MLA_D] = -1;
  s.tiled.axes[SIMA_MLA_H] = (int8_t) (rank - 3);
  s.tiled.axes[SIMA_MLA_W] = (int8_t) (rank - 2);
  s.tiled.axes[SIMA_MLA_C] = (int8_t) (rank - 1);
  s.tiled.tile_shape[SIMA_MLA_D] = 1;
  s.tiled.tile_shape[SIMA_MLA_H] = th;
  s.tiled.tile_shape[SIMA_MLA_W] = tw;
  s.tiled.tile_shape[SIMA_MLA_C] = tc;
  s.tiled.channels = channels;
  s.tiled.cblock = 0;
  return s;
}

/* ---- jobs --------------------------------------------------------------- */

typedef enum { K_QUANT, K_CAST, K_DEQUANT, K_DEQUANT_SET } Kind;

/* The plans are large (a set plan holds 16 member plans): static, one case
 * at a time. */
static SimaQuantTessPlan qt_plan;
static SimaCastTessPlan ct_plan;
static SimaDetessDequantPlan dd_plan;
static SimaDetessDequantSetPlan dds_plan;
static SimaA65QuantTessPlan qt_a65;
static SimaA65CastTessPlan ct_a65;
static SimaA65DetessDequantPlan dd_a65;
static SimaA65DetessDequantSetPlan dds_a65;
static SimaEv74Descriptor desc;

typedef struct {
  Kind kind;
  SimaDType in_dtype;           /* how the input is filled */
  uint64_t in_bytes, out_bytes;
  size_t out_misalign;          /* bytes past the guard the output starts */
} Job;

typedef struct {
  const char *id;               /* for selection */
  const char *label;            /* the table's first column */
  SimaStatus (*setup) (Job *job);
} Case;

static SimaStatus
quant (Job *job, const SimaTensorSpec *in, const SimaTensorSpec *out)
{
  SimaQuantTessRequest req = { in, 1, out, 1,
    { 50.0f, 3, SIMA_ROUNDING_NEAREST_EVEN } };
  SimaStatus st = sima_quanttess_check_inference (&req, &qt_plan);
  if (st.code == SIMA_OK)
    st = sima_a65_quanttess_prepare (&qt_plan, &qt_a65);
  job->kind = K_QUANT;
  job->in_dtype = in->dtype;
  job->in_bytes = qt_plan.input_bytes;
  job->out_bytes = qt_plan.output_bytes;
  return st;
}

static SimaStatus
cast (Job *job, const SimaTensorSpec *in, const SimaTensorSpec *out)
{
  SimaCastTessRequest req = { in, 1, out, 1 };
  SimaStatus st = sima_casttess_check_inference (&req, &ct_plan);
  if (st.code == SIMA_OK)
    st = sima_a65_casttess_prepare (&ct_plan, &ct_a65);
  job->kind = K_CAST;
  job->in_dtype = in->dtype;
  job->in_bytes = ct_plan.input_bytes;
  job->out_bytes = ct_plan.output_bytes;
  return st;
}

static SimaStatus
dequant (Job *job, const SimaTensorSpec *in, const SimaTensorSpec *out)
{
  SimaDetessDequantRequest req = { in, 1, out, 1,
    { 1.0f / 127.0f, 0, SIMA_SCALE_MULTIPLY } };
  SimaStatus st = sima_detessdequant_check_inference (&req, &dd_plan);
  if (st.code == SIMA_OK)
    st = sima_a65_detessdequant_prepare (&dd_plan, &dd_a65);
  job->kind = K_DEQUANT;
  job->in_dtype = SIMA_DTYPE_INT8;
  job->in_bytes = dd_plan.input_bytes;
  job->out_bytes = dd_plan.output_bytes;
  return st;
}

static const int64_t rgb224[3] = { 224, 224, 3 };
static const int64_t c33_128[3] = { 128, 128, 33 };
static const int64_t c64_56[4] = { 1, 56, 56, 64 };
static const int64_t rgb8[3] = { 8, 8, 3 };

static SimaStatus
qt_rgb224 (Job *job)
{
  SimaTensorSpec in = spec_dense (SIMA_DTYPE_FLOAT32, 3, rgb224);
  SimaTensorSpec out = spec_tiled (SIMA_DTYPE_INT8, 3, rgb224, 8, 16, 16,
      SIMA_CHANNELS_PAD16);
  return quant (job, &in, &out);
}

static SimaStatus
qt_c33 (Job *job)
{
  SimaTensorSpec in = spec_dense (SIMA_DTYPE_FLOAT32, 3, c33_128);
  SimaTensorSpec out = spec_tiled (SIMA_DTYPE_INT8, 3, c33_128, 8, 16, 16,
      SIMA_CHANNELS_PAD16);
  return quant (job, &in, &out);
}

static SimaStatus
qt_chw_f16 (Job *job)
{
  SimaTensorSpec in = spec_chw (SIMA_DTYPE_FLOAT16, rgb224);
  SimaTensorSpec out = spec_tiled (SIMA_DTYPE_INT8, 3, rgb224, 8, 16, 16,
      SIMA_CHANNELS_PAD16);
  return quant (job, &in, &out);
}

static SimaStatus
ct_rgb224 (Job *job)
{
  SimaTensorSpec in = spec_dense (SIMA_DTYPE_FLOAT32, 3, rgb224);
  SimaTensorSpec out = spec_tiled (SIMA_DTYPE_BFLOAT16, 3, rgb224, 8, 16, 16,
      SIMA_CHANNELS_PAD16);
  return cast (job, &in, &out);
}

static SimaStatus
dd_rgb224 (Job *job)
{
  SimaTensorSpec in = spec_tiled (SIMA_DTYPE_INT8, 3, rgb224, 8, 16, 16,
      SIMA_CHANNELS_PAD16);
  SimaTensorSpec out = spec_dense (SIMA_DTYPE_FLOAT32, 3, rgb224);
  return dequant (job, &in, &out);
}

static SimaStatus
dd_c64 (Job *job)
{
  SimaTensorSpec in = spec_tiled (SIMA_DTYPE_INT8, 4, c64_56, 8, 16, 16,
      SIMA_CHANNELS_COMPACT);
  SimaTensorSpec out = spec_dense (SIMA_DTYPE_FLOAT32, 4, c64_56);
  return dequant (job, &in, &out);
}

static SimaStatus
dd_chw8 (Job *job)
{
  SimaTensorSpec in = spec_tiled (SIMA_DTYPE_INT8, 3, rgb8, 8, 16, 16,
      SIMA_CHANNELS_PAD16);
  SimaTensorSpec out = spec_chw (SIMA_DTYPE_FLOAT32, rgb8);
  return dequant (job, &in, &out);
}

static SimaStatus
dd_chw224 (Job *job)
{
  SimaTensorSpec in = spec_tiled (SIMA_DTYPE_INT8, 3, rgb224, 8, 16, 16,
      SIMA_CHANNELS_PAD16);
  SimaTensorSpec out = spec_chw (SIMA_DTYPE_FLOAT32, rgb224);
  return dequant (job, &in, &out);
}

static SimaStatus
dd_rgb224_plus4 (Job *job)
{
  SimaStatus st = dd_rgb224 (job);
  job->out_misalign = 4;
  return st;
}

static SimaStatus
dd_rgb224_bf16 (Job *job)
{
  SimaTensorSpec in = spec_tiled (SIMA_DTYPE_INT8, 3, rgb224, 8, 16, 16,
      SIMA_CHANNELS_PAD16);
  SimaTensorSpec out = spec_dense (SIMA_DTYPE_BFLOAT16, 3, rgb224);
  return dequant (job, &in, &out);
}

/* YOLOv8n's six detection heads as the MLA writes them (INT8 pad16, tiles
 * of one row, back to back) to FP32, SiMa's dq_scale / dq_zp (divide):
 * one tensor-set job (as tests/ev74/test_tensor_set_device.c). */
static SimaStatus
dd_yolov8n (Job *job)
{
  static const int64_t hw[6] = { 80, 40, 20, 80, 40, 20 };
  static const int64_t ch[6] = { 64, 64, 64, 80, 80, 80 };
  static const float scales[6] = { 11.328456438342892f, 13.655735144659944f,
    14.041570531577957f, 9.636191223407769f, 6.634204286335957f,
    5.471951716200586f };
  static const int32_t zps[6] = { -61, -56, -43, 127, 117, 113 };
  SimaTensorSpec in[6], out[6];
  SimaDetessDequantParams p[6];
  SimaTensorSet is, os;
  SimaDetessDequantSetRequest req = { &is, &os, p, 6 };
  SimaStatus st;
  int k;

  for (k = 0; k < 6; k++) {
    int64_t shape[3] = { hw[k], hw[k], ch[k] };
    in[k] = spec_tiled (SIMA_DTYPE_INT8, 3, shape, 1, hw[k], ch[k],
        SIMA_CHANNELS_PAD16);
    out[k] = spec_dense (SIMA_DTYPE_FLOAT32, 3, shape);
    p[k] = (SimaDetessDequantParams) { scales[k], zps[k], SIMA_SCALE_DIVIDE };
  }
  st = sima_tensor_set_pack (in, 6, 0, "input", &is);
  if (st.code == SIMA_OK)
    st = sima_tensor_set_pack (out, 6, 0, "output", &os);
  if (st.code == SIMA_OK)
    st = sima_detessdequant_set_check_inference (&req, &dds_plan);
  if (st.code == SIMA_OK)
    st = sima_a65_detessdequant_set_prepare (&dds_plan, &dds_a65);
  job->kind = K_DEQUANT_SET;
  job->in_dtype = SIMA_DTYPE_INT8;
  job->in_bytes = dds_plan.input_bytes;
  job->out_bytes = dds_plan.output_bytes;
  return st;
}

static const Case cases[] = {
  { "quanttess/rgb224", "QuantTess FP32 RGB 224x224x3 -> H8/W16/C16 pad16",
    qt_rgb224 },
  { "quanttess/c33", "QuantTess FP32 C33 128x128x33 -> H8/W16/C16 pad16",
    qt_c33 },
  { "quanttess/chw_f16", "QuantTess FP16 CHW 3x224x224 -> H8/W16/C16 pad16",
    qt_chw_f16 },
  { "casttess/rgb224", "CastTess FP32 RGB 224x224x3 -> BF16 H8/W16/C16 "
    "pad16", ct_rgb224 },
  { "detessdequant/rgb224", "DetessDequant pad16 C3 224x224x3 -> FP32",
    dd_rgb224 },
  { "detessdequant/c64", "DetessDequant compact C64 1x56x56x64 (C16 tiles) "
    "-> FP32", dd_c64 },
  { "detessdequant/chw8", "DetessDequant pad16 C3 8x8x3 -> FP32 CHW strided",
    dd_chw8 },
  { "detessdequant/chw224", "DetessDequant pad16 C3 224x224x3 -> FP32 CHW "
    "strided", dd_chw224 },
  { "detessdequant/rgb224_plus4", "DetessDequant pad16 C3 224x224x3 -> FP32, "
    "output at +4 (not 16-aligned)", dd_rgb224_plus4 },
  { "detessdequant/rgb224_bf16", "DetessDequant pad16 C3 224x224x3 -> BF16",
    dd_rgb224_bf16 },
  { "detessdequant/yolov8n_six_heads", "DetessDequant YOLOv8n six heads "
    "(set, divide) -> FP32", dd_yolov8n },
};
#define N_CASES (sizeof cases / sizeof cases[0])

static SimaStatus
a65_run (const Job *job, const uint8_t *in, uint8_t *out)
{
  SimaConstHostBuffer ib = { in, job->in_bytes };
  SimaHostBuffer ob = { out, job->out_bytes };

  switch (job->kind) {
    case K_QUANT:
      return sima_a65_quanttess_execute (&qt_a65, &ib, 1, &ob, 1);
    case K_CAST:
      return sima_a65_casttess_execute (&ct_a65, &ib, 1, &ob, 1);
    case K_DEQUANT:
      return sima_a65_detessdequant_execute (&dd_a65, &ib, 1, &ob, 1);
    default:
      return sima_a65_detessdequant_set_execute (&dds_a65, &ib, &ob);
  }
}

static SimaStatus
encode (const Job *job, SimaEv74Descriptor *d)
{
  switch (job->kind) {
    case K_QUANT:
      return sima_ev74_quanttess_encode_relocatable (&qt_plan, d);
    case K_CAST:
      return sima_ev74_casttess_encode_relocatable (&ct_plan, d);
    case K_DEQUANT:
      return sima_ev74_detessdequant_encode_relocatable (&dd_plan, d);
    default:
      return sima_ev74_detessdequant_set_encode_relocatable (&dds_plan, d);
  }
}

/* Deterministic inputs: FP32 values in [-2, 2] (the multiplier spreads them
 * over the INT8 range), finite FP16 bit patterns, INT8 bytes everywhere
 * (tile padding and gaps hold garbage the device must not read). */
static uint32_t
hash (uint64_t i)
{
  uint64_t z = i * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (uint32_t) (z ^ (z >> 31));
}

static void
fill_input (SimaDType dtype, uint8_t *in, uint64_t bytes)
{
  uint64_t i;

  switch (dtype) {
    case SIMA_DTYPE_FLOAT32:
      for (i = 0; i + 4 <= bytes; i += 4) {
        float v = (float) ((int) (hash (i) % 4001u) - 2000) / 1000.0f;
        memcpy (in + i, &v, 4);
      }
      break;
    case SIMA_DTYPE_FLOAT16:
      for (i = 0; i + 2 <= bytes; i += 2) {
        uint16_t h = (uint16_t) hash (i);
        if ((h & 0x7C00u) == 0x7C00u)   /* no infinities or NaNs */
          h &= (uint16_t) ~0x4000u;
        memcpy (in + i, &h, 2);
      }
      break;
    default:
      for (i = 0; i < bytes; i++)
        in[i] = (uint8_t) hash (i);
  }
}

/* ---- measuring --------------------------------------------------------- */

typedef struct {
  SimaEv74JobStats stats;       /* of the first run */
  double host_us;               /* median device_ns of the runs */
  int ok;                       /* ran and matched the A65 every time */
  int counters_stable;          /* every run had the first run's counters */
} Row;

static int
cmp_u64 (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return x < y ? -1 : x > y;
}

static int
same_counters (const SimaEv74JobStats *a, const SimaEv74JobStats *b)
{
  return a->dma_commands == b->dma_commands
      && a->dma_bytes_read == b->dma_bytes_read
      && a->dma_bytes_written == b->dma_bytes_written
      && a->dma_small_rows == b->dma_small_rows
      && a->dma_unaligned_rows == b->dma_unaligned_rows
      && a->dma_partial_writes == b->dma_partial_writes
      && a->scalar_stores == b->scalar_stores
      && a->estimated_ns == b->estimated_ns && a->local_peak == b->local_peak;
}

/* Runs one case `runs` times on dev: each run's whole output window
 * (guards, the span, any misalignment bytes) against the A65's. */
static void
measure (SimaEv74Device *dev, const Case *c, int runs, Row *row)
{
  static uint64_t ns[MAX_RUNS];
  Job job;
  Arena ia, oa;
  uint8_t *expected = NULL;
  size_t window, out_off;
  SimaStatus st;
  int r;

  memset (row, 0, sizeof *row);
  memset (&job, 0, sizeof job);
  ia.fd = oa.fd = -1;
  ia.host = oa.host = NULL;
  ia.region = oa.region = NULL;
  st = c->setup (&job);
  if (st.code != SIMA_OK) {
    fprintf (stderr, "%s: plan: %s\n", c->id, st.message);
    return;
  }
  out_off = GUARD + job.out_misalign;
  window = out_off + (size_t) job.out_bytes + GUARD;
  if (arena_new (&ia, dev, (size_t) job.in_bytes) != 0
      || arena_new (&oa, dev, window) != 0
      || (expected = malloc (window)) == NULL) {
    fprintf (stderr, "%s: no buffers\n", c->id);
    goto done;
  }
  fill_input (job.in_dtype, ia.host, job.in_bytes);
  memset (expected, GUARD_BYTE, window);
  st = a65_run (&job, ia.host, expected + out_off);
  if (st.code != SIMA_OK) {
    fprintf (stderr, "%s: A65 execute: %s\n", c->id, st.message);
    goto done;
  }
  st = encode (&job, &desc);
  if (st.code == SIMA_OK) {
    SimaEv74Binding bi = arena_binding (&ia, 0);
    SimaEv74Binding bo = arena_binding (&oa, out_off);
    st = sima_ev74_descriptor_bind (&desc, &bi, &bo);
  }
  if (st.code != SIMA_OK) {
    fprintf (stderr, "%s: encode/bind: %s\n", c->id, st.message);
    goto done;
  }
  row->ok = 1;
  row->counters_stable = 1;
  for (r = 0; r < runs; r++) {
    SimaEv74Region *regions[2] = { ia.region, oa.region };
    SimaEv74JobStats js;
    size_t i;

    memset (oa.host, GUARD_BYTE, window);
    st = sima_ev74_run (dev, &desc, regions, 2, -1, &js);
    if (st.code != SIMA_OK) {
      fprintf (stderr, "%s: %s: job failed: %s\n", c->id,
          sima_ev74_device_spec (dev), st.message);
      row->ok = 0;
      break;
    }
    if (memcmp (oa.host, expected, window) != 0) {
      size_t first = 0, bad = 0;
      for (i = 0; i < window; i++)
        if (oa.host[i] != expected[i] && bad++ == 0)
          first = i;
      fprintf (stderr, "%s: %s: run %d: %zu of %zu output window bytes "
          "differ from the A65 (first at window byte %zu, output byte "
          "%lld: device 0x%02x, A65 0x%02x)\n", c->id,
          sima_ev74_device_spec (dev), r, bad, window, first,
          (long long) first - (long long) out_off, oa.host[first],
          expected[first]);
      row->ok = 0;
      break;
    }
    if (r == 0)
      row->stats = js;
    else if (!same_counters (&js, &row->stats))
      row->counters_stable = 0;
    ns[r] = js.device_ns;
  }
  if (row->ok) {
    qsort (ns, (size_t) runs, sizeof ns[0], cmp_u64);
    row->host_us = (double) ns[runs / 2] / 1e3;
  }
done:
  free (expected);
  arena_free (&oa);
  arena_free (&ia);
}

/* "1,234,567" */
static const char *
grouped (uint64_t v, char *buf, size_t n)
{
  char digits[32];
  size_t len, i, o = 0;

  snprintf (digits, sizeof digits, "%llu", (unsigned long long) v);
  len = strlen (digits);
  for (i = 0; i < len && o + 2 < n; i++) {
    if (i > 0 && (len - i) % 3 == 0)
      buf[o++] = ',';
    buf[o++] = digits[i];
  }
  buf[o] = '\0';
  return buf;
}

static const char *
kib (uint32_t bytes, char *buf, size_t n)
{
  if (bytes % 1024 == 0)
    snprintf (buf, n, "%u KiB", bytes / 1024);
  else
    snprintf (buf, n, "%.1f KiB", bytes / 1024.0);
  return buf;
}

/* The CPU's name from /proc/cpuinfo ("model name", or on Arm "Model" /
 * "Hardware" / "CPU part"), read now: the host times are this machine's. */
static void
cpu_model (char *out, size_t n)
{
  static const char *const keys[] = { "model name", "Model", "Hardware",
    "CPU part" };
  char found[4][160] = { "", "", "", "" };
  char line[512];
  FILE *f = fopen ("/proc/cpuinfo", "r");
  size_t k;

  snprintf (out, n, "unknown CPU");
  if (f == NULL)
    return;
  while (fgets (line, sizeof line, f) != NULL) {
    char *colon = strchr (line, ':'), *v;
    if (colon == NULL)
      continue;
    for (k = 0; k < 4; k++) {
      size_t kl = strlen (keys[k]);
      if (found[k][0] != '\0' || strncmp (line, keys[k], kl) != 0
          || (line[kl] != ' ' && line[kl] != '\t' && line[kl] != ':'))
        continue;
      v = colon + 1;
      while (*v == ' ' || *v == '\t')
        v++;
      v[strcspn (v, "\n")] = '\0';
      snprintf (found[k], sizeof found[k], "%s", v);
    }
  }
  fclose (f);
  for (k = 0; k < 4; k++)
    if (found[k][0] != '\0') {
      snprintf (out, n, "%s%.*s", k == 3 ? "CPU part " : "",
          (int) sizeof found[k] - 1, found[k]);
      return;
    }
}

int
main (int argc, char **argv)
{
  static const char *const specs[2] = { "emulator:workers=4,dma=deferred",
    "emulator:workers=1,dma=deferred" };
  const char *only = NULL;
  int runs = 31, failed = 0, s, i;
  size_t k, selected = 0;
  char cpu[200];

  for (i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--quick") == 0)
      runs = 3;
    else if (strcmp (argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = atoi (argv[++i]);
      if (runs < 1 || runs > MAX_RUNS) {
        fprintf (stderr, "--runs: 1 to %d\n", MAX_RUNS);
        return 2;
      }
    } else if (argv[i][0] == '-') {
      fprintf (stderr, "usage: %s [--quick] [--runs N] [SUBSTRING]\n",
          argv[0]);
      return 2;
    } else {
      only = argv[i];
    }
  }
  cpu_model (cpu, sizeof cpu);
  printf ("Machine: %s, %ld online CPUs; emulator host time = median of %d "
      "runs per case (submit to retirement)\n\n", cpu,
      sysconf (_SC_NPROCESSORS_ONLN), runs);

  for (s = 0; s < 2; s++) {
    SimaEv74Device *dev;
    SimaStatus st = sima_ev74_device_open (specs[s], &dev);
    uint64_t matched = 0, ran = 0;

    if (st.code != SIMA_OK) {
      fprintf (stderr, "open %s: %s\n", specs[s], st.message);
      return 1;
    }
    printf ("`%s`:\n\n", specs[s]);
    printf ("| case | DMA commands | bytes read | bytes written | small rows "
        "| unaligned rows | partial-granule write rows | scalar stores "
        "| estimated device us | emulator us/job | local peak |\n");
    printf ("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
        "| ---: | ---: |\n");
    fflush (stdout);
    for (k = 0; k < N_CASES; k++) {
      Row rowv, *row = &rowv;
      const SimaEv74JobStats *js = &row->stats;
      char b[8][32];

      if (only != NULL && strstr (cases[k].id, only) == NULL)
        continue;
      ran++;
      measure (dev, &cases[k], runs, row);
      if (!row->ok) {
        printf ("| %s | failed | | | | | | | | | |\n", cases[k].label);
        failed = 1;
        continue;
      }
      matched++;
      if (!row->counters_stable)
        fprintf (stderr, "%s: the counters changed between runs\n",
            cases[k].id);
      printf ("| %s | %s | %s | %s | %s | %s | %s | %s | %.2f | %.0f | %s |\n",
          cases[k].label, grouped (js->dma_commands, b[0], sizeof b[0]),
          grouped (js->dma_bytes_read, b[1], sizeof b[1]),
          grouped (js->dma_bytes_written, b[2], sizeof b[2]),
          grouped (js->dma_small_rows, b[3], sizeof b[3]),
          grouped (js->dma_unaligned_rows, b[4], sizeof b[4]),
          grouped (js->dma_partial_writes, b[5], sizeof b[5]),
          grouped (js->scalar_stores, b[6], sizeof b[6]),
          (double) js->estimated_ns / 1e3, row->host_us,
          kib (js->local_peak, b[7], sizeof b[7]));
      fflush (stdout);
    }
    printf ("\n");
    if (matched == ran)
      printf ("%s: outputs identical: %llu of %llu cases byte for byte "
          "against the A65 kernel, guards included, every run\n\n",
          specs[s], (unsigned long long) matched, (unsigned long long) ran);
    else
      printf ("%s: OUTPUTS DIFFER OR JOBS FAILED: %llu of %llu cases "
          "matched\n\n", specs[s], (unsigned long long) matched,
          (unsigned long long) ran);
    selected += (size_t) ran;
    sima_ev74_device_unref (dev);
  }
  if (selected == 0) {
    fprintf (stderr, "no case matches \"%s\"\n", only);
    return 2;
  }
  return failed ? 1 : 0;
}
