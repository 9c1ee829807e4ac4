/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sima-kernels-bench: the A65 kernels against their baselines, as ratios
 * measured in one run. For each case, interleaved round after round:
 *
 *   ours     the executor with the leaves this CPU dispatches to
 *   scalar   the same executor with the scalar reference leaf
 *   naive    a straightforward per-element tiled loop (RGB pad16 cases)
 *   floor    reading every input byte and writing every output byte once:
 *            the fastest of the candidates of floor.h (vector read plus
 *            the C library's memset or our vector stores, memcpy of the
 *            larger side, a fused streaming loop with ordinary and with
 *            non-temporal stores), built for the best ISA the CPU has;
 *            each is timed and printed (fl:NAME), the fastest median is
 *            the floor, its GB/s is (in + out bytes) / time
 *   xnnpack  XNNPACK's flat conversion of the same elements (no tiling;
 *            built when libxnnpack-dev is there): f32 -> qs8 for QuantTess
 *            FP32, f32 -> f16 for CastTess FP32 (XNNPACK has no f32 ->
 *            bf16; f16 is the closest flat peer: same bytes, more work),
 *            qs8 -> f32 for DetessDequant FP32. XNNPACK has no u8 -> qs8
 *            conversion, so for UINT8 frames it converts the same pixels
 *            held as FP32 (four times the input bytes). When the peer moves
 *            at least our bytes and beats the floor, the floor is wrong:
 *            the bench says so (FLOOR-BEATEN)
 *
 * The threads cases (NAME_2threads) time one execution on a pool of one
 * thread and on a pool of two (threads.h, execute_on) and report the
 * speedup; their bytes are checked against one thread.
 *
 * Every case's output is checked against the scalar reference leaf (the
 * set case: against the single calls; the threads cases: against one
 * thread), in --quick too: exit status 1 if one byte differs.
 *
 * The set case (detessdequant/yolov8n_six_heads) times instead one
 * sima_a65_detessdequant_set_execute over the six YOLOv8n heads against
 * six single-member executes of the same heads, and reports their ratio
 * (set_over_singles: 1.00 means the set costs nothing extra).
 *
 * Medians and minima over the rounds; one machine-readable line per case:
 *
 *   RESULT op=quanttess case=rgb224_pad16 in_bytes=.. out_bytes=..
 *       ours_us=.. floor_..._us=.. floor_us=.. floor=.. floor_gbps=.. ...
 *
 * and at the end a Markdown table of the run (case, bytes, floor and its
 * GB/s, ours/floor on medians and minima, ours/peer) and the threads
 * speedups, for docs/performance.md.
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
 * The run starts with the CPU's model and ISA as read at run time
 * (cpuinfo.c).
 */
#define _GNU_SOURCE
#include <simaai/kernels/a65/casttess.h>
#include <simaai/kernels/a65/detesscast.h>
#include <simaai/kernels/a65/detessdequant.h>
#include <simaai/kernels/a65/quanttess.h>
#include <simaai/kernels/a65/threads.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "a65/cast_pixels.h"
#include "a65/dequant_pixels.h"
#include "a65/detess_cast_pixels.h"
#include "a65/quant_pixels.h"
#include "cpuinfo.h"
#include "floor.h"

#ifdef SIMA_BENCH_XNNPACK
#include <xnnpack.h>
#endif

#define MAX_VARIANTS (5 + SIMA_FLOOR_N)

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
  unsigned threads;             /* > 0: the threads case, on this many */
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
  SimaA65Threads *pool[2];      /* threads cases: 1 thread, c->threads */
  volatile uint64_t sink;
};

/* The floor's candidates for this CPU (floor.h), chosen once in main. */
static const SimaFloorSet *floor_set;

static double
now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* ---- variants --------------------------------------------------------- */

/* which: 0 ours, 1 the scalar reference; pool: NULL for execute, else
 * execute_on that pool (the threads cases) */
static void
run_plan (Case *c, int which, SimaA65Threads *pool)
{
  SimaConstHostBuffer ib = { c->in, c->in_bytes };
  SimaHostBuffer ob = { c->out, c->out_bytes };
  SimaStatus st;

  switch (c->kind) {
    case OP_QUANT:
      st = pool == NULL ? sima_a65_quanttess_execute (&c->quant[which], &ib,
          1, &ob, 1) : sima_a65_quanttess_execute_on (&c->quant[which], pool,
          &ib, 1, &ob, 1);
      break;
    case OP_CAST:
      st = pool == NULL ? sima_a65_casttess_execute (&c->cast[which], &ib, 1,
          &ob, 1) : sima_a65_casttess_execute_on (&c->cast[which], pool, &ib,
          1, &ob, 1);
      break;
    case OP_DETESS_CAST:
      st = pool == NULL ? sima_a65_detesscast_execute (&c->detess_cast[which],
          &ib, 1, &ob, 1) : sima_a65_detesscast_execute_on (
          &c->detess_cast[which], pool, &ib, 1, &ob, 1);
      break;
    default:
      st = pool == NULL ? sima_a65_detessdequant_execute (&c->detess[which],
          &ib, 1, &ob, 1) : sima_a65_detessdequant_execute_on (
          &c->detess[which], pool, &ib, 1, &ob, 1);
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
  run_plan (c, 0, NULL);
}

static void
run_scalar (Case *c)
{
  run_plan (c, 1, NULL);
}

/* The threads cases: our leaves on a pool of one thread, and of
 * c->threads. */
static void
run_pool1 (Case *c)
{
  run_plan (c, 0, c->pool[0]);
}

static void
run_pooln (Case *c)
{
  run_plan (c, 0, c->pool[1]);
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

/* The floor's candidates on the case's own buffers and byte counts. */
static void
run_floor_k (Case *c, int k)
{
  c->sink = floor_set->c[k].fn (c->in, (size_t) c->in_bytes, c->out,
      (size_t) c->out_bytes);
}

/* One RunFn per candidate index (RunFn takes the case only). */
#define RUN_FLOOR(k)                                                          \
  static void                                                                 \
  run_floor##k (Case *c)                                                      \
  {                                                                           \
    run_floor_k (c, k);                                                       \
  }
RUN_FLOOR (0)
RUN_FLOOR (1)
RUN_FLOOR (2)
RUN_FLOOR (3)
RUN_FLOOR (4)
RUN_FLOOR (5)
RUN_FLOOR (6)
#undef RUN_FLOOR

static const RunFn floor_runs[] = { run_floor0, run_floor1, run_floor2,
  run_floor3, run_floor4, run_floor5, run_floor6
};
_Static_assert (sizeof floor_runs / sizeof floor_runs[0] == SIMA_FLOOR_N,
    "one runner per floor candidate");

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

/* XNNPACK's flat peer of each operation (see the head of this file). */
static const char *
peer_name (const Case *c)
{
  return c->kind == OP_QUANT ? "f32->qs8" : c->kind == OP_CAST
      ? "f32->f16 (no f32->bf16 in XNNPACK)" : "qs8->f32";
}

/* The bytes the peer moves: elements times its input and output sizes. */
static uint64_t
peer_bytes (const Case *c)
{
  uint64_t n = (uint64_t) (c->h * c->w * c->ch);
  return c->kind == OP_QUANT ? n * 5 : c->kind == OP_CAST ? n * 6 : n * 5;
}

#ifdef SIMA_BENCH_XNNPACK
static void
run_xnnpack (Case *c)
{
  size_t rows = (size_t) (c->h * c->w);
  enum xnn_status st;

  if (c->kind == OP_QUANT)
    st = xnn_setup_convert_nc_f32_qs8 (c->xnn, rows, c->xnn_in != NULL
        ? c->xnn_in : (const float *) (const void *) c->in,
        (int8_t *) c->out, NULL);
  else if (c->kind == OP_CAST)
    st = xnn_setup_convert_nc_f32_f16 (c->xnn, rows,
        (const float *) (const void *) c->in, c->out, NULL);
  else
    st = xnn_setup_convert_nc_qs8_f32 (c->xnn, rows,
        (const int8_t *) c->in, (float *) (void *) c->out, NULL);
  if (st != xnn_status_success || xnn_run_operator (c->xnn, NULL)
      != xnn_status_success) {
    fprintf (stderr, "%s: XNNPACK failed\n", c->name);
    exit (1);
  }
}

static void
create_xnnpack (Case *c)
{
  size_t ch = (size_t) c->ch;
  enum xnn_status st;

  c->xnn = NULL;
  if (!c->xnnpack)
    return;
  if (c->kind == OP_QUANT)
    st = xnn_create_convert_nc_f32_qs8 (ch, ch, ch, 1.0f / c->multiplier,
        (int8_t) c->zero_point, -128, 127, 0, &c->xnn);
  else if (c->kind == OP_CAST)
    st = xnn_create_convert_nc_f32_f16 (ch, ch, ch, 0, &c->xnn);
  else
    st = xnn_create_convert_nc_qs8_f32 (ch, ch, ch, 1.0f / c->multiplier,
        (int8_t) c->zero_point, 0, &c->xnn);
  if (st != xnn_status_success) {
    fprintf (stderr, "%s: XNNPACK operator not created\n", c->name);
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

/* Both buffers hold max (in_bytes, out_bytes) bytes, for the floor's
 * memcpy candidate, 64-byte aligned (its non-temporal stores), zeroed so
 * that their pages are there before the first timing. */
static void
alloc_buffers (Case *c)
{
  uint64_t n = c->in_bytes > c->out_bytes ? c->in_bytes : c->out_bytes;
  size_t sz = ((size_t) n + 64 + 63) / 64 * 64;

  c->in = aligned_alloc (64, sz);
  c->out = aligned_alloc (64, sz);
  if (c->in == NULL || c->out == NULL)
    exit (1);
  memset (c->in, 0, sz);
  memset (c->out, 0, sz);
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
  alloc_buffers (c);
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
  alloc_buffers (c);
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
  create_xnnpack (c);
#endif
  if (c->threads > 0) {
    fail_status (c, sima_a65_threads_new (1, &c->pool[0]));
    fail_status (c, sima_a65_threads_new (c->threads, &c->pool[1]));
  }
}

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static int ours_only;

/* One row of the closing summary table per case measured. */
typedef struct {
  char name[80];
  uint64_t in_bytes, out_bytes;
  const char *floor_name;       /* NULL: a threads case */
  double ours, ours_min, floor, floor_min;
  const char *peer;             /* NULL: no peer */
  double peer_us;
  unsigned threads;
  double t1, tn;
} Summary;

enum { MAX_SUMMARY = 64 };
static Summary summary[MAX_SUMMARY];
static int n_summary;

static Summary *
summary_row (const Case *c)
{
  Summary *r;

  if (n_summary == MAX_SUMMARY)
    return NULL;
  r = &summary[n_summary++];
  memset (r, 0, sizeof *r);
  snprintf (r->name, sizeof r->name, "%s/%s", c->op, c->name);
  r->in_bytes = c->in_bytes;
  r->out_bytes = c->out_bytes;
  return r;
}

/* The closing table, in Markdown, from this run only: the medians, the
 * ratio to the floor on medians and on minima, the peer's ratio. */
static void
print_summary (void)
{
  int i, floors = 0, threads = 0;

  for (i = 0; i < n_summary; i++)
    floors += summary[i].floor_name != NULL;
  if (floors > 0)
    printf ("\nsummary (medians; floor = fastest candidate, ratios ours / "
        "floor and ours / peer):\n\n"
        "| case | in bytes | out bytes | floor | floor GB/s | ours us | "
        "ours/floor | ours/floor (minima) | ours/peer |\n"
        "|---|---:|---:|---|---:|---:|---:|---:|---|\n");
  for (i = 0; i < n_summary; i++) {
    const Summary *r = &summary[i];
    if (r->floor_name == NULL)
      continue;
    printf ("| %s | %llu | %llu | %s %.1f us | %.2f | %.1f | %.2f | %.2f | ",
        r->name, (unsigned long long) r->in_bytes,
        (unsigned long long) r->out_bytes, r->floor_name, r->floor,
        (double) (r->in_bytes + r->out_bytes) / (r->floor * 1e3), r->ours,
        r->ours / r->floor, r->ours_min / r->floor_min);
    if (r->peer != NULL)
      printf ("%.2f (%s) |\n", r->ours / r->peer_us, r->peer);
    else
      printf ("- |\n");
  }
  for (i = 0; i < n_summary; i++) {
    const Summary *r = &summary[i];
    if (r->floor_name == NULL)
      printf ("%s%s: 1 thread %.1f us, %u threads %.1f us, speedup %.2fx\n",
          threads++ == 0 ? "\n" : "", r->name, r->t1, r->threads, r->tn,
          r->t1 / r->tn);
  }
}

/* Runs the n variants interleaved, round after round (so that frequency and
 * cache drifts hit all alike), after one warm-up call each (not for a
 * single round); prints and returns their medians and minima. In a round
 * each variant is timed on its second of two calls in a row: every one is
 * measured in the state its own work leaves (caches, and on Intel the
 * AVX-512 units, which power down after a pause in wide code and run the
 * first microseconds of it at a fraction of their rate), not in the state
 * the variant before it left, which favoured whichever came second. */
static void
time_variants (Case *c, int n, const char *const *names, const RunFn *fns,
    int rounds, double *med, double *min)
{
  double *times[MAX_VARIANTS];
  int r, v;

  for (v = 0; v < n; v++) {
    times[v] = calloc ((size_t) rounds, sizeof (double));
    if (times[v] == NULL)
      exit (1);
    if (rounds > 1)             /* warm caches and pages; --quick's one */
      fns[v] (c);               /* round checks bytes, not times */
  }
  for (r = 0; r < rounds; r++)
    for (v = 0; v < n; v++) {
      double t0;
      if (rounds > 1)
        fns[v] (c);
      t0 = now_us ();
      fns[v] (c);
      times[v][r] = now_us () - t0;
    }
  for (v = 0; v < n; v++) {
    qsort (times[v], (size_t) rounds, sizeof (double), compare_double);
    med[v] = times[v][rounds / 2];
    min[v] = times[v][0];
    printf ("  %-16s median %10.1f us  min %10.1f us\n", names[v], med[v],
        min[v]);
    free (times[v]);
  }
}

/* Appends the floor's candidates built for this ISA to the variants;
 * returns how many. */
static int
add_floor (const char **names, RunFn *fns, int n, int *which)
{
  static char labels[SIMA_FLOOR_N][40];
  int k, added = 0;

  for (k = 0; k < SIMA_FLOOR_N; k++) {
    if (floor_set->c[k].fn == NULL)
      continue;
    snprintf (labels[k], sizeof labels[k], "fl:%s", floor_set->c[k].name);
    which[added++] = k;
    names[n] = labels[k], fns[n++] = floor_runs[k];
  }
  return added;
}

/* The floor: the fastest median of the candidates at med[first ..
 * first + count) (and in *floor_min the fastest minimum, which the load of
 * other processes disturbs least). Prints it with its GB/s and puts each
 * candidate's time on the RESULT line being built in line. */
static double
report_floor (const Case *c, const double *med, const double *min,
    int first, int count, const int *which, char *line, size_t size,
    double *floor_min, const char **floor_name)
{
  int best = first, v;
  size_t used = strlen (line);
  double gbs;

  *floor_min = min[first];
  for (v = first; v < first + count; v++) {
    if (med[v] < med[best])
      best = v;
    if (min[v] < *floor_min)
      *floor_min = min[v];
    used += (size_t) snprintf (line + used, size - used, " floor_%s_us=%.1f",
        floor_set->c[which[v - first]].name, med[v]);
  }
  gbs = (double) (c->in_bytes + c->out_bytes) / (med[best] * 1e3);
  printf ("  floor            %s (%s): %.1f us, %.2f GB/s for %llu + %llu "
      "bytes\n", floor_set->c[which[best - first]].name, floor_set->isa,
      med[best], gbs, (unsigned long long) c->in_bytes,
      (unsigned long long) c->out_bytes);
  snprintf (line + used, size - used, " floor_us=%.1f floor_min_us=%.1f "
      "floor=%s floor_isa=%s floor_gbps=%.2f", med[best], *floor_min,
      floor_set->c[which[best - first]].name, floor_set->isa, gbs);
  *floor_name = floor_set->c[which[best - first]].name;
  return med[best];
}

/* The floor's candidates do the traffic they are timed for (floor.h,
 * sima_floor_check), on this case's buffers. */
static void
check_floor (Case *c, const int *which, int count)
{
  int v;

  for (v = 0; v < count; v++) {
    const char *err = sima_floor_check (floor_set, which[v], c->in,
        (size_t) c->in_bytes, c->out, (size_t) c->out_bytes);
    if (err != NULL) {
      printf ("%s %s: floor candidate %s (%s): %s\n", c->op, c->name,
          floor_set->c[which[v]].name, floor_set->isa, err);
      exit (1);
    }
  }
  printf ("  check            %d floor candidates write every output byte "
      "and read the input\n", count);
}

/* The output of `a` against the output of `b`, from the same pattern:
 * bytes a leaf does not write (gaps between set members) compare equal. */
static void
check_same (Case *c, RunFn a, RunFn b, const char *what)
{
  size_t n = (size_t) c->out_bytes, i;
  uint8_t *ref = malloc (n);

  if (ref == NULL)
    exit (1);
  memset (c->out, 0xa5, n);
  b (c);
  memcpy (ref, c->out, n);
  memset (c->out, 0xa5, n);
  a (c);
  for (i = 0; i < n && c->out[i] == ref[i]; i++) {
  }
  if (i < n) {
    printf ("%s %s: MISMATCH %s at output byte %zu of %zu (0x%02x, "
        "expected 0x%02x)\n", c->op, c->name, what, i, n, c->out[i], ref[i]);
    exit (1);
  }
  printf ("  check            %s: %zu output bytes identical\n", what, n);
  free (ref);
}

/* The set case: the set call, the six single calls, the floor. */
static void
measure_set (Case *c, int rounds)
{
  const char *names[MAX_VARIANTS] = { "set", "singles" };
  RunFn fns[MAX_VARIANTS] = { run_set, run_singles };
  double med[MAX_VARIANTS], min[MAX_VARIANTS], floor_us, floor_min;
  int which[SIMA_FLOOR_N], nf, r;
  char line[1024];
  const char *floor_name;
  Summary *row;

  if (ours_only) {
    for (r = 0; r < rounds; r++)
      run_set (c);
    printf ("%s %s: set only, %d rounds\n", c->op, c->name, rounds);
    return;
  }
  nf = add_floor (names, fns, 2, which);
  printf ("%s %s (six heads, INT8 pad16 1xWxC tiles -> FP32, divide, "
      "%llu -> %llu bytes): one set call vs six single calls\n", c->op,
      c->name, (unsigned long long) c->in_bytes,
      (unsigned long long) c->out_bytes);
  time_variants (c, 2 + nf, names, fns, rounds, med, min);
  snprintf (line, sizeof line, "RESULT op=%s case=%s in_bytes=%llu "
      "out_bytes=%llu set_us=%.1f singles_us=%.1f", c->op, c->name,
      (unsigned long long) c->in_bytes, (unsigned long long) c->out_bytes,
      med[0], med[1]);
  floor_us = report_floor (c, med, min, 2, nf, which, line, sizeof line,
      &floor_min, &floor_name);
  check_same (c, run_set, run_singles, "set vs single calls");
  check_floor (c, which, nf);
  if ((row = summary_row (c)) != NULL) {
    row->floor_name = floor_name;
    row->ours = med[0], row->ours_min = min[0];
    row->floor = floor_us, row->floor_min = floor_min;
  }
  printf ("%s set_over_singles=%.3f set_min_over_singles_min=%.3f "
      "ratio_floor=%.2f ratio_floor_min=%.2f\n", line, med[0] / med[1],
      min[0] / min[1], med[0] / floor_us, min[0] / floor_min);
}

/* The threads cases: one execution on one thread and on c->threads,
 * interleaved; the speedup of the medians. */
static void
measure_threads (Case *c, int rounds)
{
  const char *names[2] = { "1 thread", "N threads" };
  const RunFn fns[2] = { run_pool1, run_pooln };
  double med[2], min[2];
  char label[32];
  int r;
  Summary *row;

  if (ours_only) {
    for (r = 0; r < rounds; r++)
      run_pooln (c);
    printf ("%s %s: %u threads only, %d rounds\n", c->op, c->name,
        c->threads, rounds);
    return;
  }
  snprintf (label, sizeof label, "%u threads", c->threads);
  names[1] = label;
  printf ("%s %s (%lldx%lldx%lld, %s, pad16, %llu -> %llu bytes): %u "
      "threads vs 1 (pools of threads.h, execute_on)\n", c->op, c->name,
      (long long) c->h, (long long) c->w, (long long) c->ch,
      sima_dtype_name ((SimaDType) c->dtype),
      (unsigned long long) c->in_bytes, (unsigned long long) c->out_bytes,
      c->threads);
  time_variants (c, 2, names, fns, rounds, med, min);
  check_same (c, run_pooln, run_pool1, "N threads vs 1 thread");
  check_same (c, run_pool1, run_scalar, "1 thread vs scalar reference");
  printf ("  speedup          %.2fx (medians), %.2fx (minima)\n",
      med[0] / med[1], min[0] / min[1]);
  if ((row = summary_row (c)) != NULL) {
    row->threads = c->threads;
    row->t1 = med[0], row->tn = med[1];
  }
  printf ("RESULT op=%s case=%s in_bytes=%llu out_bytes=%llu threads=%u "
      "t1_us=%.1f tn_us=%.1f speedup=%.2f speedup_min=%.2f\n", c->op,
      c->name, (unsigned long long) c->in_bytes,
      (unsigned long long) c->out_bytes, c->threads, med[0], med[1],
      med[0] / med[1], min[0] / min[1]);
}

static void
measure (Case *c, int rounds)
{
  const char *names[MAX_VARIANTS];
  RunFn fns[MAX_VARIANTS];
  double med[MAX_VARIANTS], min[MAX_VARIANTS], floor_us, floor_min;
  int which[SIMA_FLOOR_N], n = 0, r, nf, naive = -1, xnn = -1;
  char line[1024];
  const char *floor_name;
  Summary *row;

  if (c->kind == OP_DETESS_SET) {
    measure_set (c, rounds);
    return;
  }
  if (c->threads > 0) {
    measure_threads (c, rounds);
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
  nf = add_floor (names, fns, n, which);
  n += nf;
  if (c->naive)
    naive = n, names[n] = "naive", fns[n++] = run_naive;
#ifdef SIMA_BENCH_XNNPACK
  if (c->xnnpack)
    xnn = n, names[n] = "xnnpack", fns[n++] = run_xnnpack;
#endif
  printf ("%s %s (%lldx%lldx%lld, %s, %s, %llu -> %llu bytes):\n", c->op,
      c->name, (long long) c->h, (long long) c->w, (long long) c->ch,
      sima_dtype_name ((SimaDType) c->dtype),
      c->channels == SIMA_CHANNELS_PAD16 ? "pad16" : "compact",
      (unsigned long long) c->in_bytes, (unsigned long long) c->out_bytes);
  time_variants (c, n, names, fns, rounds, med, min);
  snprintf (line, sizeof line, "RESULT op=%s case=%s in_bytes=%llu "
      "out_bytes=%llu ours_us=%.1f scalar_us=%.1f", c->op, c->name,
      (unsigned long long) c->in_bytes, (unsigned long long) c->out_bytes,
      med[0], med[1]);
  floor_us = report_floor (c, med, min, 2, nf, which, line, sizeof line,
      &floor_min, &floor_name);
  check_same (c, run_ours, run_scalar, "ours vs scalar reference");
  check_floor (c, which, nf);
  printf ("  ratios           ours/floor %.2f (minima %.2f), scalar/ours "
      "%.2f", med[0] / floor_us, min[0] / floor_min, med[1] / med[0]);
  if (naive >= 0)
    printf (", naive/ours %.1f", med[naive] / med[0]);
  if (xnn >= 0)
    printf (", ours/xnnpack %.2f (%s, %llu bytes)", med[0] / med[xnn],
        peer_name (c), (unsigned long long) peer_bytes (c));
  printf ("\n");
  /* a peer that moves at least our bytes faster than the floor shows the
   * floor is not one */
  if (xnn >= 0 && peer_bytes (c) >= c->in_bytes + c->out_bytes
      && (med[xnn] < floor_us || min[xnn] < floor_min))
    printf ("  FLOOR-BEATEN     xnnpack %.1f us (min %.1f) < floor %.1f us "
        "(min %.1f) on %llu >= %llu bytes: the floor is too slow\n",
        med[xnn], min[xnn], floor_us, floor_min,
        (unsigned long long) peer_bytes (c),
        (unsigned long long) (c->in_bytes + c->out_bytes));
  else if (xnn >= 0 && peer_bytes (c) >= c->in_bytes + c->out_bytes)
    printf ("  floor check      xnnpack (%llu >= %llu bytes) is not faster "
        "than the floor\n", (unsigned long long) peer_bytes (c),
        (unsigned long long) (c->in_bytes + c->out_bytes));
  if ((row = summary_row (c)) != NULL) {
    row->ours = med[0], row->ours_min = min[0];
    row->floor = floor_us, row->floor_min = floor_min;
    row->floor_name = floor_name;
    if (xnn >= 0)
      row->peer = c->kind == OP_QUANT ? "xnnpack f32->qs8" : c->kind
          == OP_CAST ? "xnnpack f32->f16" : "xnnpack qs8->f32",
          row->peer_us = med[xnn];
  }
  printf ("%s", line);
  if (naive >= 0)
    printf (" naive_us=%.1f", med[naive]);
  else
    printf (" naive_us=na");
  if (xnn >= 0)
    printf (" xnnpack_us=%.1f xnnpack_op=%s ratio_xnnpack=%.2f", med[xnn],
        c->kind == OP_QUANT ? "f32_qs8" : c->kind == OP_CAST ? "f32_f16"
        : "qs8_f32", med[0] / med[xnn]);
  else
    printf (" xnnpack_us=na");
  printf (" ratio_floor=%.2f ratio_floor_min=%.2f ratio_scalar=%.2f",
      med[0] / floor_us, min[0] / floor_min, med[1] / med[0]);
  if (naive >= 0)
    printf (" ratio_naive=%.1f", med[naive] / med[0]);
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
    .channels = SIMA_CHANNELS_PAD16, .naive = NAIVE,                    \
    .xnnpack = (D) == SIMA_DTYPE_FLOAT32}
#define DETESS_CAST(N, D, H, W) {.op = "detesscast", .name = N,    \
    .kind = OP_DETESS_CAST, .dtype = D, .h = H, .w = W, .ch = 3,       \
    .channels = SIMA_CHANNELS_PAD16}
#define DETESS(N, D, H, W, C, CH, NAIVE) {.op = "detessdequant",    \
    .name = N, .kind = OP_DETESS, .dtype = D, .h = H, .w = W, .ch = C, \
    .channels = CH, .naive = NAIVE, .xnnpack = (D) == SIMA_DTYPE_FLOAT32}
  /* 1080p FP32 RGB (INT8 or BF16 pad16 tiles) on a pool of N threads */
#define THREADS(OP, N, K, T) {.op = OP, .name = N, .kind = K,         \
    .dtype = SIMA_DTYPE_FLOAT32, .h = 1080, .w = 1920, .ch = 3,        \
    .channels = SIMA_CHANNELS_PAD16, .threads = T}
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
    THREADS ("quanttess", "rgb1080p_pad16_2threads", OP_QUANT, 2),
    THREADS ("casttess", "rgb1080p_pad16_2threads", OP_CAST, 2),
    THREADS ("detessdequant", "rgb1080p_pad16_2threads", OP_DETESS, 2),
#undef THREADS
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
  sima_bench_print_cpu (stdout);
  floor_set = sima_floor_best ();
  {
    char msg[256];
    if (sima_floor_selftest (msg, sizeof msg) != NULL) {
      printf ("floor self-test: %s\n", msg);
      return 1;
    }
    printf ("floor self-test: every candidate of every ISA this CPU runs "
        "writes all output bytes and reads the input, odd sizes included\n");
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
    /* --quick: one round, for the suite, which checks the bytes and
     * never the times; the set case compares two near-equal times: more
     * rounds */
    measure (c, quick ? 1 : ours_only ? (big ? 300 : 30000)
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
    sima_a65_threads_free (c->pool[0]);
    sima_a65_threads_free (c->pool[1]);
  }
#ifdef SIMA_BENCH_XNNPACK
  xnn_deinitialize ();
#endif
  print_summary ();
  return 0;
}
