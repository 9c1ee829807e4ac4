/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sima-kernels-bench: the A65 kernels against their baselines, as ratios
 * measured in one run. For each case, interleaved round after round:
 *
 *   ours     the executor with the leaves this CPU dispatches to
 *   scalar   the same executor with the scalar reference leaf
 *   naive    a straightforward per-element tiled loop (RGB pad16 cases)
 *   floor    reading every input byte and writing every output byte once
 *   xnnpack  XNNPACK's flat f32 -> qs8 conversion of the same elements (no
 *            tiling; built when libxnnpack-dev is there). XNNPACK has no
 *            u8 -> qs8 conversion, so for UINT8 frames it converts the same
 *            pixels held as FP32 (four times the input bytes)
 *
 * The set case (detessdequant/yolov8n_six_heads) times instead one
 * sima_a65_detessdequant_set_execute over the six YOLOv8n heads against
 * six single-member executes of the same heads, and reports their ratio
 * (set_over_singles: 1.00 means the set costs nothing extra).
 *
 * Medians and minima over the rounds; one machine-readable line per case:
 *
 *   RESULT op=quanttess case=rgb224_pad16 ours_us=.. floor_us=.. ...
 *
 *   sima-kernels-bench [--quick] [--ours-only] [SUBSTRING]
 *
 * SUBSTRING selects the cases whose "op/case" contains it
 * ("quanttess/rgb224", "c64", "detessdequant/").
 *
 * --ours-only runs only our dispatched kernel (no ratios), for profiling it
 * with perf record without the baselines in the samples.
 *
 * Timings are a report, never a pass/fail test (docs/performance.md).
 */
#define _GNU_SOURCE
#include <simaai/kernels/a65/casttess.h>
#include <simaai/kernels/a65/detesscast.h>
#include <simaai/kernels/a65/detessdequant.h>
#include <simaai/kernels/a65/quanttess.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "a65/cast_pixels.h"
#include "a65/dequant_pixels.h"
#include "a65/detess_cast_pixels.h"
#include "a65/quant_pixels.h"

#ifdef SIMA_BENCH_XNNPACK
#include <xnnpack.h>
#endif

#define MAX_VARIANTS 5

typedef struct Case Case;
typedef void (*RunFn) (Case *c);

typedef enum { OP_QUANT, OP_CAST, OP_DETESS, OP_DETESS_SET, OP_DETESS_CAST }
    Op;

enum { YOLO_HEADS = 6 };

struct Case {
  const char *op, *name;
  Op kind;
  int dtype;                    /* the dense side of the conversion */
  int64_t h, w, ch;
  SimaChannels channels;
  int naive;                    /* the naive loop applies (RGB pad16) */
  int xnnpack;                  /* XNNPACK's conversion applies (FP32, or
                                 * UINT8 through xnn_in) */
  int64_t pad;                  /* > 0: dense rows pitched by pad bytes */
  /* state */
  SimaA65QuantTessPlan quant[2];        /* [0] ours, [1] scalar */
  SimaA65CastTessPlan cast[2];
  SimaA65DetessDequantPlan detess[2];
  SimaA65DetessCastPlan detess_cast[2];
  /* OP_DETESS_SET: the set plan and each head's single plan (heap: the
   * set plan is tens of KiB) */
  SimaA65DetessDequantSetPlan *set;
  SimaA65DetessDequantPlan *heads;
  uint64_t in_bytes, out_bytes;
  uint8_t *in, *out;
  float multiplier;
  int32_t zero_point;
#ifdef SIMA_BENCH_XNNPACK
  xnn_operator_t xnn;
#endif
  float *xnn_in;                /* UINT8 cases: the same pixels as FP32 */
  volatile uint64_t sink;
};

static double
now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* ---- variants --------------------------------------------------------- */

static void
run_plan (Case *c, int which)
{
  SimaConstHostBuffer ib = { c->in, c->in_bytes };
  SimaHostBuffer ob = { c->out, c->out_bytes };
  SimaStatus st;

  switch (c->kind) {
    case OP_QUANT:
      st = sima_a65_quanttess_execute (&c->quant[which], &ib, 1, &ob, 1);
      break;
    case OP_CAST:
      st = sima_a65_casttess_execute (&c->cast[which], &ib, 1, &ob, 1);
      break;
    case OP_DETESS_CAST:
      st = sima_a65_detesscast_execute (&c->detess_cast[which], &ib, 1, &ob,
          1);
      break;
    default:
      st = sima_a65_detessdequant_execute (&c->detess[which], &ib, 1, &ob,
          1);
      break;
  }
  if (st.code != SIMA_OK) {
    fprintf (stderr, "%s: %s\n", c->name, st.message);
    exit (1);
  }
}

static void
run_ours (Case *c)
{
  run_plan (c, 0);
}

static void
run_scalar (Case *c)
{
  run_plan (c, 1);
}

/* The set case: one call for the six heads ... */
static void
run_set (Case *c)
{
  SimaConstHostBuffer ib = { c->in, c->in_bytes };
  SimaHostBuffer ob = { c->out, c->out_bytes };
  SimaStatus st = sima_a65_detessdequant_set_execute (c->set, &ib, &ob);

  if (st.code != SIMA_OK) {
    fprintf (stderr, "%s: %s\n", c->name, st.message);
    exit (1);
  }
}

/* ... against one call per head on its sub-buffers, as a caller without
 * sets would do. */
static void
run_singles (Case *c)
{
  size_t i;

  for (i = 0; i < YOLO_HEADS; i++) {
    uint64_t io = c->set->input_offset[i], oo = c->set->output_offset[i];
    SimaConstHostBuffer ib = { c->in + io, c->in_bytes - io };
    SimaHostBuffer ob = { c->out + oo, c->out_bytes - oo };
    SimaStatus st = sima_a65_detessdequant_execute (&c->heads[i], &ib, 1,
        &ob, 1);
    if (st.code != SIMA_OK) {
      fprintf (stderr, "%s head %zu: %s\n", c->name, i, st.message);
      exit (1);
    }
  }
}

/* Every input byte read (summed in 64-bit words, which compilers
 * vectorize) and every output byte written (memset). */
static void
run_floor (Case *c)
{
  const uint64_t *w = (const uint64_t *) (const void *) c->in;
  size_t i, n = (size_t) c->in_bytes / 8;
  uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;

  for (i = 0; i + 4 <= n; i += 4) {
    s0 += w[i];
    s1 += w[i + 1];
    s2 += w[i + 2];
    s3 += w[i + 3];
  }
  c->sink = s0 + s1 + s2 + s3;
  memset (c->out, c->zero_point, (size_t) c->out_bytes);
}

/* What one writes first: for every element, find its tile and slot with
 * divisions and quantize it with the C library (FP32 input; H8/W16/C16
 * pad16 tiles of an H x W x C image whose H and W are whole tiles). */
static void
run_naive_quant (Case *c)
{
  const float *x = (const float *) (const void *) c->in;
  int8_t *t = (int8_t *) c->out;
  int64_t tiles_w = c->w / 16, h, w, ch;

  for (h = 0; h < c->h; h++)
    for (w = 0; w < c->w; w++)
      for (ch = 0; ch < 16; ch++) {
        int64_t tile = (h / 8) * tiles_w + w / 16;
        int64_t at = tile * 8 * 16 * 16 + ((h % 8) * 16 + w % 16) * 16 + ch;
        long q = c->zero_point;
        if (ch < c->ch) {
          float v = x[(h * c->w + w) * c->ch + ch];
          q = isnan (v) ? c->zero_point : lrintf (v * c->multiplier)
              + c->zero_point;
        }
        t[at] = (int8_t) (q < -128 ? -128 : q > 127 ? 127 : q);
      }
}

/* CastTess: the C library's float -> BF16 the obvious way (round half up on
 * the bits), then the two byte planes of each 32-byte slot. */
static void
run_naive_cast (Case *c)
{
  const float *x = (const float *) (const void *) c->in;
  uint8_t *t = c->out;
  int64_t tiles_w = c->w / 16, h, w, ch;

  for (h = 0; h < c->h; h++)
    for (w = 0; w < c->w; w++)
      for (ch = 0; ch < 16; ch++) {
        int64_t tile = (h / 8) * tiles_w + w / 16;
        int64_t at = tile * 8 * 16 * 32 + ((h % 8) * 16 + w % 16) * 32 + ch;
        uint32_t b = 0;
        if (ch < c->ch) {
          float v = x[(h * c->w + w) * c->ch + ch];
          memcpy (&b, &v, 4);
          b = (b + 0x8000u) >> 16;
        }
        t[at] = (uint8_t) b;
        t[at + 16] = (uint8_t) (b >> 8);
      }
}

/* DetessDequant: every element's tile slot found with divisions, then
 * (q - zero_point) * scale in float. */
static void
run_naive_detess (Case *c)
{
  const int8_t *t = (const int8_t *) c->in;
  float *y = (float *) (void *) c->out;
  int64_t tiles_w = c->w / 16, h, w, ch;

  for (h = 0; h < c->h; h++)
    for (w = 0; w < c->w; w++)
      for (ch = 0; ch < c->ch; ch++) {
        int64_t tile = (h / 8) * tiles_w + w / 16;
        int64_t at = tile * 8 * 16 * 16 + ((h % 8) * 16 + w % 16) * 16 + ch;
        y[(h * c->w + w) * c->ch + ch] = ((float) t[at] - (float)
            c->zero_point) * (1.0f / c->multiplier);
      }
}

static void
run_naive (Case *c)
{
  if (c->kind == OP_QUANT)
    run_naive_quant (c);
  else if (c->kind == OP_CAST)
    run_naive_cast (c);
  else
    run_naive_detess (c);
}

#ifdef SIMA_BENCH_XNNPACK
static void
run_xnnpack (Case *c)
{
  const float *x = c->xnn_in != NULL ? c->xnn_in
      : (const float *) (const void *) c->in;

  if (xnn_setup_convert_nc_f32_qs8 (c->xnn, (size_t) (c->h * c->w), x,
          (int8_t *) c->out, NULL)
      != xnn_status_success || xnn_run_operator (c->xnn, NULL)
      != xnn_status_success) {
    fprintf (stderr, "%s: XNNPACK failed\n", c->name);
    exit (1);
  }
}
#endif

/* ---- cases ------------------------------------------------------------ */

static void
fail_status (const Case *c, SimaStatus st)
{
  if (st.code != SIMA_OK) {
    fprintf (stderr, "%s: %s\n", c->name, st.message);
    exit (1);
  }
}

/* Dense float spec (row-pitched when c->pad > 0) and tiled spec. */
static void
specs (const Case *c, SimaTensorSpec *dense, SimaTensorSpec *tiled)
{
  int64_t es = sima_dtype_size ((SimaDType) c->dtype);

  memset (dense, 0, sizeof *dense);
  dense->rank = 3;
  dense->shape[0] = c->h;
  dense->shape[1] = c->w;
  dense->shape[2] = c->ch;
  dense->dtype = (SimaDType) c->dtype;
  dense->layout = SIMA_LAYOUT_CONTIGUOUS;
  if (c->pad > 0) {
    dense->layout = SIMA_LAYOUT_STRIDED;
    dense->strides_bytes[2] = es;
    dense->strides_bytes[1] = c->ch * es;
    dense->strides_bytes[0] = c->w * c->ch * es + c->pad;
  }
  *tiled = *dense;
  tiled->layout = SIMA_LAYOUT_MLA_TILED;
  memset (tiled->strides_bytes, 0, sizeof tiled->strides_bytes);
  tiled->dtype = c->kind == OP_CAST || c->kind == OP_DETESS_CAST
      ? SIMA_DTYPE_BFLOAT16 : SIMA_DTYPE_INT8;
  tiled->tiled = (SimaMlaTiled) { {-1, 0, 1, 2}, {1, 8, 16, 16},
    c->channels, 0 };
}

/* The YOLOv8n detection heads as the MLA writes them: INT8 pad16, channels
 * last, tiles of one row (1 x W x C), back to back in one buffer; FP32
 * contiguous outputs packed back to back; SiMa's per-head dq_scale
 * (divide convention) and zero points. */
static void
setup_set (Case *c)
{
  static const int64_t hw[YOLO_HEADS] = { 80, 40, 20, 80, 40, 20 };
  static const int64_t ch[YOLO_HEADS] = { 64, 64, 64, 80, 80, 80 };
  static const float scales[YOLO_HEADS] = { 11.328456438342892f,
    13.655735144659944f, 14.041570531577957f, 9.636191223407769f,
    6.634204286335957f, 5.471951716200586f };
  static const int32_t zps[YOLO_HEADS] = { -61, -56, -43, 127, 117, 113 };
  SimaTensorSpec in[YOLO_HEADS], out[YOLO_HEADS];
  SimaDetessDequantParams params[YOLO_HEADS];
  SimaTensorSet *sets = calloc (2, sizeof *sets);
  SimaDetessDequantSetPlan *plan = calloc (1, sizeof *plan);
  SimaDetessDequantSetRequest req;
  size_t i;

  c->set = calloc (1, sizeof *c->set);
  c->heads = calloc (YOLO_HEADS, sizeof *c->heads);
  if (sets == NULL || plan == NULL || c->set == NULL || c->heads == NULL)
    exit (1);
  for (i = 0; i < YOLO_HEADS; i++) {
    memset (&in[i], 0, sizeof in[i]);
    in[i].rank = 3;
    in[i].shape[0] = in[i].shape[1] = hw[i];
    in[i].shape[2] = ch[i];
    in[i].dtype = SIMA_DTYPE_INT8;
    out[i] = in[i];
    out[i].dtype = SIMA_DTYPE_FLOAT32;
    out[i].layout = SIMA_LAYOUT_CONTIGUOUS;
    in[i].layout = SIMA_LAYOUT_MLA_TILED;
    in[i].tiled = (SimaMlaTiled) { {-1, 0, 1, 2}, {1, 1, hw[i], ch[i]},
      SIMA_CHANNELS_PAD16, 0 };
    params[i] = (SimaDetessDequantParams) { scales[i], zps[i],
      SIMA_SCALE_DIVIDE };
  }
  fail_status (c, sima_tensor_set_pack (in, YOLO_HEADS, 0, "input",
          &sets[0]));
  fail_status (c, sima_tensor_set_pack (out, YOLO_HEADS, 0, "output",
          &sets[1]));
  req = (SimaDetessDequantSetRequest) { &sets[0], &sets[1], params,
    YOLO_HEADS };
  fail_status (c, sima_detessdequant_set_check_inference (&req, plan));
  fail_status (c, sima_a65_detessdequant_set_prepare (plan, c->set));
  for (i = 0; i < YOLO_HEADS; i++)
    fail_status (c, sima_a65_detessdequant_prepare (&plan->members[i],
            &c->heads[i]));
  c->in_bytes = plan->input_bytes;
  c->out_bytes = plan->output_bytes;
  c->in = aligned_alloc (64, (size_t) c->in_bytes + 64);
  c->out = aligned_alloc (64, (size_t) c->out_bytes + 64);
  if (c->in == NULL || c->out == NULL)
    exit (1);
  for (i = 0; i < c->in_bytes; i++)
    c->in[i] = (uint8_t) (i * 2654435761u >> 13);
  free (sets);
  free (plan);
}

static void
setup (Case *c)
{
  SimaTensorSpec dense, tiled;
  size_t i;

  if (c->kind == OP_DETESS_SET) {
    setup_set (c);
    return;
  }
  specs (c, &dense, &tiled);
  c->multiplier = 64.0f;
  c->zero_point = 3;
  if (c->dtype == SIMA_DTYPE_UINT8) {   /* SiMa's preproc of camera pixels */
    c->multiplier = 255.0697f / 255.0f;
    c->zero_point = -128;
  }
  if (c->kind == OP_QUANT) {
    SimaQuantTessRequest req;
    SimaQuantTessPlan plan;
    memset (&req, 0, sizeof req);
    req.inputs = &dense;
    req.n_inputs = 1;
    req.outputs = &tiled;
    req.n_outputs = 1;
    req.params.multiplier = c->multiplier;
    req.params.zero_point = c->zero_point;
    req.params.rounding = SIMA_ROUNDING_NEAREST_EVEN;
    fail_status (c, sima_quanttess_check_inference (&req, &plan));
    fail_status (c, sima_a65_quanttess_prepare (&plan, &c->quant[0]));
    c->quant[1] = c->quant[0];
    c->quant[1].pack = c->dtype == SIMA_DTYPE_FLOAT32
        ? sima_quant_pixels_f32_c : c->dtype == SIMA_DTYPE_FLOAT16
        ? sima_quant_pixels_f16_c : c->dtype == SIMA_DTYPE_UINT8
        ? sima_quant_pixels_u8_c : sima_quant_pixels_bf16_c;
    c->in_bytes = plan.input_bytes;
    c->out_bytes = plan.output_bytes;
  } else if (c->kind == OP_CAST) {
    SimaCastTessRequest req = { &dense, 1, &tiled, 1 };
    SimaCastTessPlan plan;
    fail_status (c, sima_casttess_check_inference (&req, &plan));
    fail_status (c, sima_a65_casttess_prepare (&plan, &c->cast[0]));
    c->cast[1] = c->cast[0];
    c->cast[1].pack = c->dtype == SIMA_DTYPE_FLOAT32
        ? sima_cast_pixels_f32_c : c->dtype == SIMA_DTYPE_FLOAT16
        ? sima_cast_pixels_f16_c : c->dtype == SIMA_DTYPE_UINT8
        ? sima_cast_pixels_u8_c : sima_cast_pixels_bf16_c;
    c->in_bytes = plan.input_bytes;
    c->out_bytes = plan.output_bytes;
  } else if (c->kind == OP_DETESS_CAST) {
    SimaDetessCastRequest req = { &tiled, 1, &dense, 1 };
    SimaDetessCastPlan plan;
    fail_status (c, sima_detesscast_check_inference (&req, &plan));
    fail_status (c, sima_a65_detesscast_prepare (&plan,
            &c->detess_cast[0]));
    c->detess_cast[1] = c->detess_cast[0];
    c->detess_cast[1].unpack = c->dtype == SIMA_DTYPE_FLOAT32
        ? sima_detess_cast_pixels_f32_c : sima_detess_cast_pixels_bf16_c;
    c->in_bytes = plan.input_bytes;
    c->out_bytes = plan.output_bytes;
  } else {
    SimaDetessDequantRequest req = { &tiled, 1, &dense, 1, {0, 0, SIMA_SCALE_MULTIPLY} };
    SimaDetessDequantPlan plan;
    req.params.scale = 1.0f / c->multiplier;
    req.params.zero_point = c->zero_point;
    fail_status (c, sima_detessdequant_check_inference (&req, &plan));
    fail_status (c, sima_a65_detessdequant_prepare (&plan, &c->detess[0]));
    c->detess[1] = c->detess[0];
    c->detess[1].unpack = c->dtype == SIMA_DTYPE_FLOAT32
        ? sima_dequant_pixels_f32_c : sima_dequant_pixels_bf16_c;
    c->in_bytes = plan.input_bytes;
    c->out_bytes = plan.output_bytes;
  }
  c->in = aligned_alloc (64, (size_t) c->in_bytes + 64);
  c->out = aligned_alloc (64, (size_t) c->out_bytes + 64);
  if (c->in == NULL || c->out == NULL)
    exit (1);
  c->xnn_in = NULL;
  if (c->kind == OP_DETESS || c->kind == OP_DETESS_CAST) {
    /* tiles of INT8 values or BF16 byte planes, any bits (padding too: it
     * is never read) */
    for (i = 0; i < c->in_bytes; i++)
      c->in[i] = (uint8_t) (i * 2654435761u >> 13);
  } else if (c->dtype == SIMA_DTYPE_UINT8) {
    /* camera pixels, and the same pixels as FP32 for XNNPACK */
    for (i = 0; i < c->in_bytes; i++)
      c->in[i] = (uint8_t) (i * 2654435761u >> 13);
    if (c->xnnpack) {
      c->xnn_in = aligned_alloc (64, (size_t) c->in_bytes * 4 + 64);
      if (c->xnn_in == NULL)
        exit (1);
      for (i = 0; i < c->in_bytes; i++)
        c->xnn_in[i] = (float) c->in[i];
    }
  } else {
    /* values in [-2, 2], as an image scaled for the network; pitched
     * rows' padding filled too */
    int64_t es = c->dtype == SIMA_DTYPE_FLOAT32 ? 4 : 2;
    for (i = 0; i < c->in_bytes / (size_t) es; i++) {
      float f = (float) ((i * 2654435761u) % 40001) / 10000.0f - 2.0f;
      uint32_t b;
      memcpy (&b, &f, 4);
      if (c->dtype == SIMA_DTYPE_FLOAT32)
        memcpy (c->in + 4 * i, &b, 4);
      else {
        uint16_t h = (uint16_t) (b >> 16);      /* BF16; FP16 below */
        if (c->dtype == SIMA_DTYPE_FLOAT16) {
          _Float16 hf = (_Float16) f;
          memcpy (&h, &hf, 2);
        }
        memcpy (c->in + 2 * i, &h, 2);
      }
    }
  }
#ifdef SIMA_BENCH_XNNPACK
  c->xnn = NULL;
  if (c->xnnpack && xnn_create_convert_nc_f32_qs8 ((size_t) c->ch,
          (size_t) c->ch, (size_t) c->ch, 1.0f / c->multiplier,
          (int8_t) c->zero_point, -128, 127, 0, &c->xnn)
      != xnn_status_success) {
    fprintf (stderr, "%s: XNNPACK operator not created\n", c->name);
    exit (1);
  }
#endif
}

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static int ours_only;

/* Runs the n variants interleaved, round after round (so that frequency and
 * cache drifts hit all alike), after one warm-up call each; prints and
 * returns their medians and minima. */
static void
time_variants (Case *c, int n, const char *const *names, const RunFn *fns,
    int rounds, double *med, double *min)
{
  double *times[MAX_VARIANTS];
  int r, v;

  for (v = 0; v < n; v++) {
    times[v] = calloc ((size_t) rounds, sizeof (double));
    fns[v] (c);                 /* warm caches and pages */
  }
  for (r = 0; r < rounds; r++)
    for (v = 0; v < n; v++) {
      double t0 = now_us ();
      fns[v] (c);
      times[v][r] = now_us () - t0;
    }
  for (v = 0; v < n; v++) {
    qsort (times[v], (size_t) rounds, sizeof (double), compare_double);
    med[v] = times[v][rounds / 2];
    min[v] = times[v][0];
    printf ("  %-8s median %10.1f us  min %10.1f us\n", names[v], med[v],
        min[v]);
    free (times[v]);
  }
}

/* The set case: the set call, the six single calls, the floor. */
static void
measure_set (Case *c, int rounds)
{
  static const char *const names[3] = { "set", "singles", "floor" };
  static const RunFn fns[3] = { run_set, run_singles, run_floor };
  double med[3], min[3];
  int r;

  if (ours_only) {
    for (r = 0; r < rounds; r++)
      run_set (c);
    printf ("%s %s: set only, %d rounds\n", c->op, c->name, rounds);
    return;
  }
  printf ("%s %s (six heads, INT8 pad16 1xWxC tiles -> FP32, divide, "
      "%llu -> %llu bytes): one set call vs six single calls\n", c->op,
      c->name, (unsigned long long) c->in_bytes,
      (unsigned long long) c->out_bytes);
  time_variants (c, 3, names, fns, rounds, med, min);
  printf ("RESULT op=%s case=%s set_us=%.1f singles_us=%.1f floor_us=%.1f "
      "set_over_singles=%.3f set_min_over_singles_min=%.3f "
      "ratio_floor=%.2f\n", c->op, c->name, med[0], med[1], med[2],
      med[0] / med[1], min[0] / min[1], med[0] / med[2]);
}

static void
measure (Case *c, int rounds)
{
  const char *names[MAX_VARIANTS];
  RunFn fns[MAX_VARIANTS];
  double med[MAX_VARIANTS], min[MAX_VARIANTS];
  int n = 0, r;

  if (c->kind == OP_DETESS_SET) {
    measure_set (c, rounds);
    return;
  }
  names[n] = "ours", fns[n++] = run_ours;
  if (ours_only) {
    for (r = 0; r < rounds; r++)
      run_ours (c);
    printf ("%s %s: ours only, %d rounds\n", c->op, c->name, rounds);
    return;
  }
  names[n] = "scalar", fns[n++] = run_scalar;
  names[n] = "floor", fns[n++] = run_floor;
  if (c->naive)
    names[n] = "naive", fns[n++] = run_naive;
#ifdef SIMA_BENCH_XNNPACK
  if (c->xnnpack)
    names[n] = "xnnpack", fns[n++] = run_xnnpack;
#endif
  printf ("%s %s (%lldx%lldx%lld, %s, %s):\n", c->op, c->name,
      (long long) c->h, (long long) c->w, (long long) c->ch,
      sima_dtype_name ((SimaDType) c->dtype),
      c->channels == SIMA_CHANNELS_PAD16 ? "pad16" : "compact");
  time_variants (c, n, names, fns, rounds, med, min);
  printf ("RESULT op=%s case=%s ours_us=%.1f scalar_us=%.1f floor_us=%.1f",
      c->op, c->name, med[0], med[1], med[2]);
  if (c->naive)
    printf (" naive_us=%.1f", med[3]);
  else
    printf (" naive_us=na");
#ifdef SIMA_BENCH_XNNPACK
  if (c->xnnpack)
    printf (" xnnpack_us=%.1f", med[n - 1]);
  else
#endif
    printf (" xnnpack_us=na");
  printf (" ratio_floor=%.2f ratio_scalar=%.2f", med[0] / med[2],
      med[1] / med[0]);
  if (c->naive)
    printf (" ratio_naive=%.1f", med[3] / med[0]);
  printf ("\n");
}

int
main (int argc, char **argv)
{
  Case cases[] = {
#define QUANT(N, D, H, W, C, CH, NAIVE, XNN, PAD) {.op = "quanttess", \
    .name = N, .kind = OP_QUANT, .dtype = D, .h = H, .w = W, .ch = C,  \
    .channels = CH, .naive = NAIVE, .xnnpack = XNN, .pad = PAD}
#define CAST(N, D, H, W, NAIVE) {.op = "casttess", .name = N,       \
    .kind = OP_CAST, .dtype = D, .h = H, .w = W, .ch = 3,              \
    .channels = SIMA_CHANNELS_PAD16, .naive = NAIVE}
#define DETESS_CAST(N, D, H, W) {.op = "detesscast", .name = N,    \
    .kind = OP_DETESS_CAST, .dtype = D, .h = H, .w = W, .ch = 3,       \
    .channels = SIMA_CHANNELS_PAD16}
#define DETESS(N, D, H, W, C, CH, NAIVE) {.op = "detessdequant",    \
    .name = N, .kind = OP_DETESS, .dtype = D, .h = H, .w = W, .ch = C, \
    .channels = CH, .naive = NAIVE}
    QUANT ("rgb224_pad16", SIMA_DTYPE_FLOAT32, 224, 224, 3,
        SIMA_CHANNELS_PAD16, 1, 1, 0),
    QUANT ("rgb224_f16_pad16", SIMA_DTYPE_FLOAT16, 224, 224, 3,
        SIMA_CHANNELS_PAD16, 0, 0, 0),
    QUANT ("rgb224_bf16_pad16", SIMA_DTYPE_BFLOAT16, 224, 224, 3,
        SIMA_CHANNELS_PAD16, 0, 0, 0),
    QUANT ("rgb1080p_pad16", SIMA_DTYPE_FLOAT32, 1080, 1920, 3,
        SIMA_CHANNELS_PAD16, 1, 1, 0),
    QUANT ("rgb1080p_f16_pad16", SIMA_DTYPE_FLOAT16, 1080, 1920, 3,
        SIMA_CHANNELS_PAD16, 0, 0, 0),
    QUANT ("rgb1080p_bf16_pad16", SIMA_DTYPE_BFLOAT16, 1080, 1920, 3,
        SIMA_CHANNELS_PAD16, 0, 0, 0),
    QUANT ("c64_56_compact", SIMA_DTYPE_FLOAT32, 56, 56, 64,
        SIMA_CHANNELS_COMPACT, 0, 1, 0),
    QUANT ("rgb224_pitched_pad16", SIMA_DTYPE_FLOAT32, 224, 224, 3,
        SIMA_CHANNELS_PAD16, 0, 0, 64),
    /* 8-bit camera frames, SiMa's preproc multiplier and zero point */
    QUANT ("rgb224_u8_pad16", SIMA_DTYPE_UINT8, 224, 224, 3,
        SIMA_CHANNELS_PAD16, 0, 1, 0),
    QUANT ("rgb1080p_u8_pad16", SIMA_DTYPE_UINT8, 1080, 1920, 3,
        SIMA_CHANNELS_PAD16, 0, 1, 0),
    CAST ("rgb224_pad16", SIMA_DTYPE_FLOAT32, 224, 224, 1),
    CAST ("rgb224_f16_pad16", SIMA_DTYPE_FLOAT16, 224, 224, 0),
    CAST ("rgb1080p_pad16", SIMA_DTYPE_FLOAT32, 1080, 1920, 1),
    CAST ("rgb1080p_f16_pad16", SIMA_DTYPE_FLOAT16, 1080, 1920, 0),
    CAST ("rgb224_u8_pad16", SIMA_DTYPE_UINT8, 224, 224, 0),
    CAST ("rgb1080p_u8_pad16", SIMA_DTYPE_UINT8, 1080, 1920, 0),
    DETESS ("rgb224_pad16", SIMA_DTYPE_FLOAT32, 224, 224, 3,
        SIMA_CHANNELS_PAD16, 1),
    DETESS ("rgb224_pad16_bf16", SIMA_DTYPE_BFLOAT16, 224, 224, 3,
        SIMA_CHANNELS_PAD16, 0),
    DETESS ("rgb1080p_pad16", SIMA_DTYPE_FLOAT32, 1080, 1920, 3,
        SIMA_CHANNELS_PAD16, 1),
    DETESS ("rgb1080p_pad16_bf16", SIMA_DTYPE_BFLOAT16, 1080, 1920, 3,
        SIMA_CHANNELS_PAD16, 0),
    DETESS ("c64_56_compact", SIMA_DTYPE_FLOAT32, 56, 56, 64,
        SIMA_CHANNELS_COMPACT, 0),
    DETESS ("c64_56_compact_bf16", SIMA_DTYPE_BFLOAT16, 56, 56, 64,
        SIMA_CHANNELS_COMPACT, 0),
    /* BF16 MLA output heads back to FP32 */
    DETESS_CAST ("rgb224_pad16", SIMA_DTYPE_FLOAT32, 224, 224),
    DETESS_CAST ("rgb1080p_pad16", SIMA_DTYPE_FLOAT32, 1080, 1920),
    /* one set call vs six single calls; h x w x ch: the heads' elements */
    {.op = "detessdequant", .name = "yolov8n_six_heads",
      .kind = OP_DETESS_SET, .dtype = SIMA_DTYPE_FLOAT32, .h = 1,
      .w = 1209600, .ch = 1, .channels = SIMA_CHANNELS_PAD16},
#undef QUANT
#undef CAST
#undef DETESS
#undef DETESS_CAST
  };
  int quick = 0, i;
  const char *only = NULL;

  for (i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--quick") == 0)
      quick = 1;
    else if (strcmp (argv[i], "--ours-only") == 0)
      ours_only = 1;
    else
      only = argv[i];
  }
#ifdef SIMA_BENCH_XNNPACK
  if (xnn_initialize (NULL) != xnn_status_success) {
    fprintf (stderr, "XNNPACK does not initialize\n");
    return 1;
  }
#endif
  for (i = 0; i < (int) (sizeof cases / sizeof cases[0]); i++) {
    Case *c = &cases[i];
    int big = c->h * c->w * c->ch > 1000000;
    char full[128];
    snprintf (full, sizeof full, "%s/%s", c->op, c->name);
    if (only != NULL && strstr (full, only) == NULL)
      continue;
    setup (c);
    /* the set case compares two near-equal times: more rounds */
    measure (c, quick ? 3 : ours_only ? (big ? 300 : 30000)
        : c->kind == OP_DETESS_SET ? 201 : big ? 31 : 301);
#ifdef SIMA_BENCH_XNNPACK
    if (c->xnn != NULL)
      xnn_delete_operator (c->xnn);
#endif
    free (c->in);
    free (c->out);
    free (c->xnn_in);
    free (c->set);
    free (c->heads);
  }
#ifdef SIMA_BENCH_XNNPACK
  xnn_deinitialize ();
#endif
  return 0;
}
