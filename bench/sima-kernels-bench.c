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
 *            tiling; built when libxnnpack-dev is there)
 *
 * Medians and minima over the rounds; one machine-readable line per case:
 *
 *   RESULT op=quanttess case=rgb224_pad16 ours_us=.. floor_us=.. ...
 *
 *   sima-kernels-bench [--quick] [CASE-SUBSTRING]
 *
 * Timings are a report, never a pass/fail test (docs/performance.md).
 */
#define _GNU_SOURCE
#include <simaai/kernels/a65/quanttess.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "a65/quant_pixels.h"

#ifdef SIMA_BENCH_XNNPACK
#include <xnnpack.h>
#endif

#define MAX_VARIANTS 5

typedef struct Case Case;
typedef void (*RunFn) (Case *c);

struct Case {
  const char *op, *name;
  int dtype;
  int64_t h, w, ch;
  SimaChannels channels;
  int naive;                    /* the naive loop applies (RGB pad16) */
  int xnnpack;                  /* XNNPACK's conversion applies (FP32) */
  /* state */
  SimaQuantTessPlan plan;
  SimaA65QuantTessPlan ours, scalar;
  uint8_t *in, *out;
  float multiplier;
  int32_t zero_point;
#ifdef SIMA_BENCH_XNNPACK
  xnn_operator_t xnn;
#endif
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
run_plan (Case *c, const SimaA65QuantTessPlan *p)
{
  SimaConstHostBuffer ib = { c->in, c->plan.input_bytes };
  SimaHostBuffer ob = { c->out, c->plan.output_bytes };
  SimaStatus st = sima_a65_quanttess_execute (p, &ib, 1, &ob, 1);
  if (st.code != SIMA_OK) {
    fprintf (stderr, "%s: %s\n", c->name, st.message);
    exit (1);
  }
}

static void
run_ours (Case *c)
{
  run_plan (c, &c->ours);
}

static void
run_scalar (Case *c)
{
  run_plan (c, &c->scalar);
}

/* Every input byte read (summed in 64-bit words, which compilers
 * vectorize) and every output byte written (memset). */
static void
run_floor (Case *c)
{
  const uint64_t *w = (const uint64_t *) (const void *) c->in;
  size_t i, n = (size_t) c->plan.input_bytes / 8;
  uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;

  for (i = 0; i + 4 <= n; i += 4) {
    s0 += w[i];
    s1 += w[i + 1];
    s2 += w[i + 2];
    s3 += w[i + 3];
  }
  c->sink = s0 + s1 + s2 + s3;
  memset (c->out, c->zero_point, (size_t) c->plan.output_bytes);
}

/* What one writes first: for every element, find its tile and slot with
 * divisions and quantize it with the C library (FP32 input; H8/W16/C16
 * pad16 tiles of an H x W x C image whose H and W are whole tiles). */
static void
run_naive (Case *c)
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

#ifdef SIMA_BENCH_XNNPACK
static void
run_xnnpack (Case *c)
{
  if (xnn_setup_convert_nc_f32_qs8 (c->xnn, (size_t) (c->h * c->w),
          (const float *) (const void *) c->in, (int8_t *) c->out, NULL)
      != xnn_status_success || xnn_run_operator (c->xnn, NULL)
      != xnn_status_success) {
    fprintf (stderr, "%s: XNNPACK failed\n", c->name);
    exit (1);
  }
}
#endif

/* ---- cases ------------------------------------------------------------ */

static void
setup (Case *c)
{
  SimaTensorSpec in, out;
  SimaQuantTessRequest req;
  SimaStatus st;
  size_t i, n = (size_t) (c->h * c->w * c->ch);

  memset (&in, 0, sizeof in);
  in.rank = 3;
  in.shape[0] = c->h;
  in.shape[1] = c->w;
  in.shape[2] = c->ch;
  in.dtype = (SimaDType) c->dtype;
  in.layout = SIMA_LAYOUT_CONTIGUOUS;
  out = in;
  out.dtype = SIMA_DTYPE_INT8;
  out.layout = SIMA_LAYOUT_MLA_TILED;
  out.tiled = (SimaMlaTiled) { {-1, 0, 1, 2}, {1, 8, 16, 16}, c->channels };
  memset (&req, 0, sizeof req);
  req.inputs = &in;
  req.n_inputs = 1;
  req.outputs = &out;
  req.n_outputs = 1;
  c->multiplier = 64.0f;
  c->zero_point = 3;
  req.params.multiplier = c->multiplier;
  req.params.zero_point = c->zero_point;
  req.params.rounding = SIMA_ROUNDING_NEAREST_EVEN;
  st = sima_quanttess_check_inference (&req, &c->plan);
  if (st.code == SIMA_OK)
    st = sima_a65_quanttess_prepare (&c->plan, &c->ours);
  if (st.code != SIMA_OK) {
    fprintf (stderr, "%s: %s\n", c->name, st.message);
    exit (1);
  }
  c->scalar = c->ours;
  c->scalar.pack = c->dtype == SIMA_DTYPE_FLOAT32 ? sima_quant_pixels_f32_c
      : c->dtype == SIMA_DTYPE_FLOAT16 ? sima_quant_pixels_f16_c
      : sima_quant_pixels_bf16_c;
  c->in = aligned_alloc (64, (size_t) c->plan.input_bytes + 64);
  c->out = aligned_alloc (64, (size_t) c->plan.output_bytes + 64);
  if (c->in == NULL || c->out == NULL)
    exit (1);
  /* values in [-2, 2], as an image scaled for the network */
  for (i = 0; i < n; i++) {
    float f = (float) ((i * 2654435761u) % 40001) / 10000.0f - 2.0f;
    uint32_t b;
    memcpy (&b, &f, 4);
    if (c->dtype == SIMA_DTYPE_FLOAT32)
      memcpy (c->in + 4 * i, &b, 4);
    else {
      uint16_t h = (uint16_t) (b >> 16);        /* BF16; FP16 below */
      if (c->dtype == SIMA_DTYPE_FLOAT16) {
        _Float16 hf = (_Float16) f;
        memcpy (&h, &hf, 2);
      }
      memcpy (c->in + 2 * i, &h, 2);
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

static void
measure (Case *c, int rounds)
{
  const char *names[MAX_VARIANTS];
  RunFn fns[MAX_VARIANTS];
  double *times[MAX_VARIANTS], med[MAX_VARIANTS], min[MAX_VARIANTS];
  int n = 0, r, v;

  names[n] = "ours", fns[n++] = run_ours;
  names[n] = "scalar", fns[n++] = run_scalar;
  names[n] = "floor", fns[n++] = run_floor;
  if (c->naive)
    names[n] = "naive", fns[n++] = run_naive;
#ifdef SIMA_BENCH_XNNPACK
  if (c->xnnpack)
    names[n] = "xnnpack", fns[n++] = run_xnnpack;
#endif
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
  printf ("%s %s (%lldx%lldx%lld, %s, %s):\n", c->op, c->name,
      (long long) c->h, (long long) c->w, (long long) c->ch,
      sima_dtype_name ((SimaDType) c->dtype),
      c->channels == SIMA_CHANNELS_PAD16 ? "pad16" : "compact");
  for (v = 0; v < n; v++) {
    qsort (times[v], (size_t) rounds, sizeof (double), compare_double);
    med[v] = times[v][rounds / 2];
    min[v] = times[v][0];
    printf ("  %-8s median %10.1f us  min %10.1f us\n", names[v], med[v],
        min[v]);
    free (times[v]);
  }
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
    {.op = "quanttess", .name = "rgb224_pad16", .dtype = SIMA_DTYPE_FLOAT32, .h = 224, .w = 224,
        .ch = 3, .channels = SIMA_CHANNELS_PAD16, .naive = 1, .xnnpack = 1},
    {.op = "quanttess", .name = "rgb224_f16_pad16", .dtype = SIMA_DTYPE_FLOAT16, .h = 224, .w = 224,
        .ch = 3, .channels = SIMA_CHANNELS_PAD16, .naive = 0, .xnnpack = 0},
    {.op = "quanttess", .name = "rgb224_bf16_pad16", .dtype = SIMA_DTYPE_BFLOAT16, .h = 224, .w = 224,
        .ch = 3, .channels = SIMA_CHANNELS_PAD16, .naive = 0, .xnnpack = 0},
    {.op = "quanttess", .name = "rgb1080p_pad16", .dtype = SIMA_DTYPE_FLOAT32, .h = 1080, .w = 1920,
        .ch = 3, .channels = SIMA_CHANNELS_PAD16, .naive = 1, .xnnpack = 1},
    {.op = "quanttess", .name = "rgb1080p_f16_pad16", .dtype = SIMA_DTYPE_FLOAT16, .h = 1080, .w = 1920,
        .ch = 3, .channels = SIMA_CHANNELS_PAD16, .naive = 0, .xnnpack = 0},
    {.op = "quanttess", .name = "rgb1080p_bf16_pad16", .dtype = SIMA_DTYPE_BFLOAT16, .h = 1080, .w = 1920,
        .ch = 3, .channels = SIMA_CHANNELS_PAD16, .naive = 0, .xnnpack = 0},
    {.op = "quanttess", .name = "c64_56_compact", .dtype = SIMA_DTYPE_FLOAT32, .h = 56, .w = 56,
        .ch = 64, .channels = SIMA_CHANNELS_COMPACT, .naive = 0, .xnnpack = 1},
  };
  int quick = 0, i;
  const char *only = NULL;

  for (i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--quick") == 0)
      quick = 1;
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
    if (only != NULL && strstr (c->name, only) == NULL)
      continue;
    setup (c);
    measure (c, quick ? 3 : big ? 31 : 301);
#ifdef SIMA_BENCH_XNNPACK
    if (c->xnn != NULL)
      xnn_delete_operator (c->xnn);
#endif
    free (c->in);
    free (c->out);
  }
#ifdef SIMA_BENCH_XNNPACK
  xnn_deinitialize ();
#endif
  return 0;
}
