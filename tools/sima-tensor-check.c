/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sima-tensor-check: checks what a pipeline wrote to files against the
 * kernel core, so that every script in pipelines/ verifies its output.
 *
 *   sima-tensor-check roundtrip --step S IN OUT
 *       IN and OUT hold FP32 tensors (the source's and the round trip's):
 *       every value must come back within half a step (S = 1/multiplier).
 *   sima-tensor-check OP --in-caps CAPS --out-caps CAPS [PARAMS] IN OUT
 *       OP is quanttess, casttess, detessdequant or detesscast; IN and OUT hold whole
 *       buffers of those caps; every OUT buffer must equal what the core's
 *       A65 path makes of the IN buffer (for strided outputs: every element;
 *       holes are not compared). PARAMS: --multiplier M --zero-point Z
 *       --rounding R (quanttess), --scale S --zero-point Z [--divide]
 *       (detessdequant; --divide: scale-convention=divide).
 *   sima-tensor-check sima-dequant --in-caps SET --out-caps SET
 *       --dq-scales S0,S1,... --dq-zps Z0,Z1,... IN OUT
 *       IN holds buffers of an INT8 tiled tensor set (an MLA output), OUT
 *       the FP32 or BF16 contiguous set simadetessdequant made of them
 *       with SiMa's dq values (scale-convention=divide): every value must
 *       be (q - dq_zp) / dq_scale, computed here on its own: dq_scale
 *       rounded to binary32, the quotient of the two in double rounded to
 *       binary32 (correctly rounded: a double holds more than twice a
 *       float's precision), then to BF16 nearest even.
 * Prints a line a person can read and exits non-zero on any difference.
 */
#include <simaai/kernels/a65/casttess.h>
#include <simaai/kernels/a65/detesscast.h>
#include <simaai/kernels/a65/detessdequant.h>
#include <simaai/kernels/a65/quanttess.h>

#include <gst/gst.h>
#include <gst/video/video.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gstsimacaps.h"

typedef struct {
  const char *op, *in_caps, *out_caps, *in_path, *out_path, *rounding;
  const char *dq_scales, *dq_zps;
  double step, multiplier, scale;
  long zero_point;
  int divide;
} Args;

static int
usage (void)
{
  fprintf (stderr, "usage: sima-tensor-check roundtrip --step S IN OUT\n"
      "       sima-tensor-check quanttess|casttess|detessdequant|detesscast "
      "--in-caps CAPS --out-caps CAPS [--multiplier M] [--scale S] "
      "[--zero-point Z] [--rounding R] [--divide] IN OUT\n"
      "       sima-tensor-check sima-dequant --in-caps SET --out-caps SET "
      "--dq-scales S,... --dq-zps Z,... IN OUT\n");
  return 2;
}

static guint8 *
read_file (const char *path, gsize *size)
{
  gchar *data = NULL;
  GError *err = NULL;
  if (!g_file_get_contents (path, &data, size, &err)) {
    fprintf (stderr, "sima-tensor-check: %s\n", err->message);
    g_error_free (err);
    exit (2);
  }
  return (guint8 *) data;
}

static int
roundtrip (const Args *a)
{
  gsize in_size, out_size, i, n, far = 0;
  guint8 *in = read_file (a->in_path, &in_size);
  guint8 *out = read_file (a->out_path, &out_size);
  double worst = 0, half = a->step / 2;

  if (in_size != out_size || in_size % 4 != 0) {
    fprintf (stderr, "sima-tensor-check: %s has %zu bytes, %s %zu\n",
        a->in_path, in_size, a->out_path, out_size);
    return 1;
  }
  n = in_size / 4;
  for (i = 0; i < n; i++) {
    float x, y;
    double e;
    memcpy (&x, in + 4 * i, 4);
    memcpy (&y, out + 4 * i, 4);
    e = fabs ((double) x - (double) y);
    worst = e > worst ? e : worst;
    /* the binary32 product and scale 1/m each add a rounding of their own */
    far += e > half * (1 + 1e-6) + fabs (x) * 1e-6;
  }
  printf ("%zu values: max round-trip error %.6f, half a quantization step "
      "%.6f: %s\n", n, worst, half, far == 0 ? "PASS" : "FAIL");
  g_free (in);
  g_free (out);
  return far != 0;
}

static SimaTensorSpec
spec_of (const char *caps_str)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  SimaTensorSpec spec;
  gchar *error = NULL;

  if (caps == NULL || !gst_sima_caps_to_spec (gst_caps_get_structure (caps, 0),
          &spec, &error)) {
    fprintf (stderr, "sima-tensor-check: bad caps '%s': %s\n", caps_str,
        error ? error : "not caps");
    exit (2);
  }
  gst_caps_unref (caps);
  return spec;
}

/* Runs the core on one buffer: out_buf (prefilled by the caller). */
static SimaStatus
run_core (const Args *a, const SimaTensorSpec *in, const SimaTensorSpec *out,
    const guint8 *in_buf, guint64 in_bytes, guint8 *out_buf,
    guint64 out_bytes)
{
  SimaConstHostBuffer ib = { in_buf, in_bytes };
  SimaHostBuffer ob = { out_buf, out_bytes };
  SimaStatus st;

  if (strcmp (a->op, "quanttess") == 0) {
    SimaQuantTessRequest req = { in, 1, out, 1,
      { (float) a->multiplier, (int32_t) a->zero_point,
        SIMA_ROUNDING_NEAREST_EVEN } };
    SimaQuantTessPlan plan;
    SimaA65QuantTessPlan a65;
    if (a->rounding && !sima_rounding_from_name (a->rounding,
            &req.params.rounding))
      return sima_status_make (SIMA_INVALID_PARAMETER, "rounding %s",
          a->rounding);
    st = sima_quanttess_check_inference (&req, &plan);
    if (st.code == SIMA_OK)
      st = sima_a65_quanttess_prepare (&plan, &a65);
    return st.code == SIMA_OK ? sima_a65_quanttess_execute (&a65, &ib, 1, &ob,
        1) : st;
  }
  if (strcmp (a->op, "casttess") == 0) {
    SimaCastTessRequest req = { in, 1, out, 1 };
    SimaCastTessPlan plan;
    SimaA65CastTessPlan a65;
    st = sima_casttess_check_inference (&req, &plan);
    if (st.code == SIMA_OK)
      st = sima_a65_casttess_prepare (&plan, &a65);
    return st.code == SIMA_OK ? sima_a65_casttess_execute (&a65, &ib, 1, &ob,
        1) : st;
  }
  if (strcmp (a->op, "detesscast") == 0) {
    SimaDetessCastRequest req = { in, 1, out, 1 };
    SimaDetessCastPlan plan;
    SimaA65DetessCastPlan a65;
    st = sima_detesscast_check_inference (&req, &plan);
    if (st.code == SIMA_OK)
      st = sima_a65_detesscast_prepare (&plan, &a65);
    return st.code == SIMA_OK ? sima_a65_detesscast_execute (&a65, &ib, 1,
        &ob, 1) : st;
  }
  {
    SimaDetessDequantRequest req = { in, 1, out, 1,
      { (float) a->scale, (int32_t) a->zero_point,
        a->divide ? SIMA_SCALE_DIVIDE : SIMA_SCALE_MULTIPLY } };
    SimaDetessDequantPlan plan;
    SimaA65DetessDequantPlan a65;
    st = sima_detessdequant_check_inference (&req, &plan);
    if (st.code == SIMA_OK)
      st = sima_a65_detessdequant_prepare (&plan, &a65);
    return st.code == SIMA_OK ? sima_a65_detessdequant_execute (&a65, &ib, 1,
        &ob, 1) : st;
  }
}

static SimaTensorSet set_of (const char *caps_str);

/* Bytes of one input buffer: a camera frame's whole size (rows padded,
 * which the view does not cover), else what the tensor needs. */
static uint64_t
buffer_bytes (const char *caps_str, const SimaTensorSet *set)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstVideoInfo info;
  SimaTensorSetLayout layout;
  uint64_t bytes = 0;

  if (caps != NULL && gst_caps_get_size (caps) > 0
      && gst_structure_has_name (gst_caps_get_structure (caps, 0),
          "video/x-raw") && gst_video_info_from_caps (&info, caps))
    bytes = GST_VIDEO_INFO_SIZE (&info);
  else if (sima_tensor_set_check (set, "input", &layout).code == SIMA_OK)
    bytes = layout.capacity;
  if (caps != NULL)
    gst_caps_unref (caps);
  return bytes;
}

static int
compare_op (const Args *a)
{
  /* the input may be a camera frame: its view sits at an offset */
  SimaTensorSet in_set = set_of (a->in_caps);
  SimaTensorSpec in = in_set.members[0].spec, out = spec_of (a->out_caps);
  uint64_t in_bytes = buffer_bytes (a->in_caps, &in_set), out_bytes;
  uint64_t in_offset = in_set.members[0].offset;
  gsize in_size, out_size, k, buffers, differ = 0;
  guint8 *in_data = read_file (a->in_path, &in_size);
  guint8 *out_data = read_file (a->out_path, &out_size);
  guint8 *x, *y;
  SimaStatus st = sima_status_ok ();

  if (in_set.n_members != 1)
    st = sima_status_make (SIMA_INVALID_ARGUMENT, "the input caps are a "
        "tensor set; use sima-dequant for sets");
  if (st.code == SIMA_OK)
    st = sima_tensor_required_bytes (&out, "output", &out_bytes);
  if (st.code != SIMA_OK || in_bytes == 0 || out_bytes == 0
      || in_size % in_bytes != 0 || out_size % out_bytes != 0
      || in_size / in_bytes != out_size / out_bytes) {
    fprintf (stderr, "sima-tensor-check: %s; %zu input and %zu output bytes "
        "are not whole buffers of %llu and %llu\n", st.message, in_size,
        out_size, (unsigned long long) in_bytes,
        (unsigned long long) out_bytes);
    return 1;
  }
  buffers = in_size / in_bytes;
  /* 16-byte aligned copies; two prefills tell written bytes from holes */
  x = g_malloc (out_bytes + 16);
  y = g_malloc (out_bytes + 16);
  for (k = 0; k < buffers; k++) {
    guint8 *ax = (guint8 *) (((guintptr) x + 15) & ~(guintptr) 15);
    guint8 *ay = (guint8 *) (((guintptr) y + 15) & ~(guintptr) 15);
    guint8 *in_copy = g_malloc (in_bytes + 16);
    guint8 *ain = (guint8 *) (((guintptr) in_copy + 15) & ~(guintptr) 15);
    const guint8 *got = out_data + k * out_bytes;
    uint64_t i;

    memcpy (ain, in_data + k * in_bytes, in_bytes);
    memset (ax, 0x00, out_bytes);
    memset (ay, 0xff, out_bytes);
    st = run_core (a, &in, &out, ain + in_offset, in_bytes - in_offset, ax,
        out_bytes);
    if (st.code == SIMA_OK)
      st = run_core (a, &in, &out, ain + in_offset, in_bytes - in_offset, ay,
          out_bytes);
    g_free (in_copy);
    if (st.code != SIMA_OK) {
      fprintf (stderr, "sima-tensor-check: %s: %s\n", a->op, st.message);
      return 1;
    }
    for (i = 0; i < out_bytes; i++)
      if (ax[i] == ay[i] && got[i] != ax[i])   /* a byte the core writes */
        differ++;
  }
  printf ("%zu buffers of %llu bytes: %s identical to the core's %s (%zu "
      "bytes differ)\n", buffers, (unsigned long long) out_bytes,
      differ == 0 ? "every byte" : "NOT", a->op, differ);
  g_free (x);
  g_free (y);
  g_free (in_data);
  g_free (out_data);
  return differ != 0;
}

/* "a,b,c" -> up to max doubles; the count. */
static int
parse_list (const char *text, double *out, int max)
{
  gchar **parts = g_strsplit (text ? text : "", ",", -1);
  int n = 0;

  while (parts[n] != NULL && n < max) {
    out[n] = g_ascii_strtod (parts[n], NULL);
    n++;
  }
  g_strfreev (parts);
  return n;
}

static SimaTensorSet
set_of (const char *caps_str)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  SimaTensorSet set;
  gchar *error = NULL;

  if (caps == NULL || !gst_sima_caps_to_set (gst_caps_get_structure (caps, 0),
          &set, &error)) {
    fprintf (stderr, "sima-tensor-check: bad caps '%s': %s\n", caps_str,
        error ? error : "not caps");
    exit (2);
  }
  gst_caps_unref (caps);
  return set;
}

/* BF16 nearest even of a binary32 that is not NaN. */
static uint16_t
bf16_of (float f)
{
  uint32_t u;
  memcpy (&u, &f, 4);
  return (uint16_t) ((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

static int
sima_dequant (const Args *a)
{
  SimaTensorSet in = set_of (a->in_caps), out = set_of (a->out_caps);
  SimaTensorSetLayout il, ol;
  double scales[SIMA_TENSOR_SET_MAX_MEMBERS], zps[SIMA_TENSOR_SET_MAX_MEMBERS];
  gsize in_size, out_size, k, buffers, values = 0, differ = 0;
  guint8 *in_data = read_file (a->in_path, &in_size);
  guint8 *out_data = read_file (a->out_path, &out_size);
  SimaStatus st = sima_tensor_set_check (&in, "input", &il);
  size_t m;

  if (st.code == SIMA_OK)
    st = sima_tensor_set_check (&out, "output", &ol);
  if (st.code != SIMA_OK || in.n_members != out.n_members
      || parse_list (a->dq_scales, scales, SIMA_TENSOR_SET_MAX_MEMBERS)
      != (int) in.n_members
      || parse_list (a->dq_zps, zps, SIMA_TENSOR_SET_MAX_MEMBERS)
      != (int) in.n_members || il.capacity == 0 || ol.capacity == 0
      || in_size % il.capacity != 0 || out_size % ol.capacity != 0
      || in_size / il.capacity != out_size / ol.capacity) {
    fprintf (stderr, "sima-tensor-check: %s; the sets, their dq values and "
        "%zu input / %zu output bytes do not match\n", st.message, in_size,
        out_size);
    return 1;
  }
  buffers = in_size / il.capacity;
  for (k = 0; k < buffers; k++)
    for (m = 0; m < in.n_members; m++) {
      const SimaTensorSpec *is = &in.members[m].spec, *os = &out.members[m].spec;
      const guint8 *ib = in_data + k * il.capacity + in.members[m].offset;
      const guint8 *ob = out_data + k * ol.capacity + out.members[m].offset;
      float dq_scale = (float) scales[m];
      int64_t coords[SIMA_MAX_RANK] = { 0 };
      SimaTiledGeometry g;
      uint64_t i, n = 1;
      int d, bf16 = os->dtype == SIMA_DTYPE_BFLOAT16;

      st = sima_tiled_geometry_init (is, 1, "input", &g);
      if (st.code != SIMA_OK || os->layout != SIMA_LAYOUT_CONTIGUOUS) {
        fprintf (stderr, "sima-tensor-check: member %zu: %s\n", m,
            st.code != SIMA_OK ? st.message : "the output must be contiguous");
        return 1;
      }
      for (d = 0; d < is->rank; d++)
        n *= (uint64_t) is->shape[d];
      for (i = 0; i < n; i++) {
        int8_t q = (int8_t) ib[sima_tiled_element_offset (&g, coords)];
        float want = (float) (((double) q - zps[m]) / (double) dq_scale);
        if (bf16) {
          uint16_t got;
          memcpy (&got, ob + 2 * i, 2);
          differ += got != bf16_of (want);
        } else {
          float got;
          memcpy (&got, ob + 4 * i, 4);
          differ += memcmp (&got, &want, 4) != 0;
        }
        for (d = is->rank - 1; d >= 0 && ++coords[d] == is->shape[d]; d--)
          coords[d] = 0;
      }
      values += n;
    }
  printf ("%zu buffers, %zu members, %zu values: %s (q - dq_zp) / dq_scale "
      "(%zu differ)\n", buffers, in.n_members, values,
      differ == 0 ? "every value is" : "NOT all", differ);
  g_free (in_data);
  g_free (out_data);
  return differ != 0;
}

int
main (int argc, char **argv)
{
  Args a;
  int i;

  memset (&a, 0, sizeof a);
  gst_init (NULL, NULL);
  if (argc < 2)
    return usage ();
  a.op = argv[1];
  for (i = 2; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp (argv[i], "--step") == 0 && v)
      a.step = atof (v), i++;
    else if (strcmp (argv[i], "--in-caps") == 0 && v)
      a.in_caps = v, i++;
    else if (strcmp (argv[i], "--out-caps") == 0 && v)
      a.out_caps = v, i++;
    else if (strcmp (argv[i], "--multiplier") == 0 && v)
      a.multiplier = atof (v), i++;
    else if (strcmp (argv[i], "--scale") == 0 && v)
      a.scale = atof (v), i++;
    else if (strcmp (argv[i], "--zero-point") == 0 && v)
      a.zero_point = atol (v), i++;
    else if (strcmp (argv[i], "--rounding") == 0 && v)
      a.rounding = v, i++;
    else if (strcmp (argv[i], "--divide") == 0)
      a.divide = 1;
    else if (strcmp (argv[i], "--dq-scales") == 0 && v)
      a.dq_scales = v, i++;
    else if (strcmp (argv[i], "--dq-zps") == 0 && v)
      a.dq_zps = v, i++;
    else if (a.in_path == NULL)
      a.in_path = argv[i];
    else if (a.out_path == NULL)
      a.out_path = argv[i];
    else
      return usage ();
  }
  if (a.in_path == NULL || a.out_path == NULL)
    return usage ();
  if (strcmp (a.op, "roundtrip") == 0)
    return a.step > 0 ? roundtrip (&a) : usage ();
  if (strcmp (a.op, "sima-dequant") == 0)
    return a.in_caps && a.out_caps ? sima_dequant (&a) : usage ();
  if ((strcmp (a.op, "quanttess") != 0 && strcmp (a.op, "casttess") != 0
          && strcmp (a.op, "detessdequant") != 0
          && strcmp (a.op, "detesscast") != 0) || !a.in_caps
      || !a.out_caps)
    return usage ();
  return compare_op (&a);
}
