/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simadetessdequant: pads and properties, the required scale, negotiation
 * of the output dtype and layout, output bytes equal to the core's (FP32 and
 * BF16, contiguous and strided, MlaTiled compact/pad16 and MlaCBlocked
 * inputs full of padding garbage, subnormal scales, wide zero points) on the
 * A65 and the EV74 emulator, caps the core rejects, and wrong-size buffers;
 * scale-convention=divide with SiMa's YOLOv8n head 0 values against the
 * oracle's (q - dq_zp) / dq_scale.
 */
#include <simaai/kernels/a65/detessdequant.h>
#include <string.h>

#include "check_util.h"
#include "oracle.h"

#define TILED_IN TENSOR ",dtype=int8,shape=(int)<6,20,3>,layout=mla-tiled," \
  "tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,8,16,16>,channels=pad16"
#define DENSE TENSOR ",layout=contiguous"

static const gchar *backends[] = { "backend=a65", "device=emulator:workers=2" };

/* Compares the element's output with the core's for the same input. The
 * element writes only the logical elements of a strided output (its holes
 * keep whatever the fresh buffer held), so the core runs into two buffers
 * prefilled with 0x00 and 0xff: the bytes equal in both are exactly the
 * written ones, and only those are compared. */
static void
compare_with_core (GstElement * element, const gchar * in_caps,
    const gchar * out_caps, GstBuffer * in, GstBuffer * out)
{
  SimaTensorSpec in_spec = check_spec (in_caps), out_spec = check_spec (out_caps);
  SimaDetessDequantRequest req = { &in_spec, 1, &out_spec, 1, { 0, 0, SIMA_SCALE_MULTIPLY } };
  SimaDetessDequantPlan plan;
  SimaA65DetessDequantPlan a65;
  GstMapInfo im, om;
  guint8 *in_copy, *want[2];
  guint64 i, written = 0;
  SimaStatus st;
  int k;

  /* the element's own parameters, exactly as it holds them */
  g_object_get (element, "scale", &req.params.scale, "zero-point",
      &req.params.zero_point, "scale-convention", &req.params.convention,
      NULL);
  st = sima_detessdequant_check_inference (&req, &plan);
  fail_unless (st.code == SIMA_OK, "%s", st.message);
  st = sima_a65_detessdequant_prepare (&plan, &a65);
  fail_unless (st.code == SIMA_OK, "%s", st.message);

  /* tiled inputs must be 16-byte aligned: run the core on an aligned copy */
  gst_buffer_map (in, &im, GST_MAP_READ);
  in_copy = g_aligned_alloc (1, im.size + 1, 16);
  memcpy (in_copy, im.data, im.size);
  for (k = 0; k < 2; k++) {
    SimaConstHostBuffer ib = { in_copy, im.size };
    SimaHostBuffer ob;
    want[k] = g_aligned_alloc (1, plan.output_bytes + 1, 16);
    memset (want[k], k ? 0xff : 0x00, plan.output_bytes);
    ob = (SimaHostBuffer) { want[k], plan.output_bytes };
    st = sima_a65_detessdequant_execute (&a65, &ib, 1, &ob, 1);
    fail_unless (st.code == SIMA_OK, "%s", st.message);
  }
  gst_buffer_unmap (in, &im);

  fail_unless (gst_buffer_map (out, &om, GST_MAP_READ));
  fail_unless_equals_uint64 (om.size, plan.output_bytes);
  for (i = 0; i < plan.output_bytes; i++) {
    if (want[0][i] != want[1][i])
      continue;                 /* a hole: never written */
    written++;
    fail_unless (om.data[i] == want[0][i], "%s -> %s: byte %" G_GUINT64_FORMAT
        " is 0x%02x, the core wrote 0x%02x", in_caps, out_caps, i,
        om.data[i], want[0][i]);
  }
  /* every logical element was compared, and nothing else */
  fail_unless_equals_uint64 (written, plan.element_count
      * (guint64) plan.output_view.scalar_bytes);
  gst_buffer_unmap (out, &om);
  g_aligned_free (want[0]);
  g_aligned_free (want[1]);
  g_aligned_free (in_copy);
}

/* Pushes two buffers of random bytes (garbage in every padding channel and
 * alignment gap) through "simadetessdequant <props>", checks each against
 * the core on the negotiated caps, and returns those caps (g_free). */
static gchar *
check_output (const gchar * props, const gchar * in_caps,
    const gchar * out_caps)
{
  gchar *desc = g_strdup_printf ("simadetessdequant %s", props);
  SimaTensorSpec in_spec = check_spec (in_caps);
  guint64 in_bytes = check_required_bytes (&in_spec);
  gchar *neg_str = NULL;
  CheckHarness c;
  int k;

  check_harness_new (&c, desc, in_caps, out_caps);
  for (k = 0; k < 2; k++) {
    GstBuffer *in = check_random_buffer (in_bytes, 77 + k);
    GstBuffer *out = gst_harness_push_and_pull (c.h, gst_buffer_ref (in));
    gchar *err = check_pop_message (&c, GST_MESSAGE_ERROR);
    GstCaps *neg;

    fail_unless (out != NULL, "no output from %s for %s: %s", desc, in_caps,
        err);
    g_free (err);
    neg = gst_pad_get_current_caps (c.h->sinkpad);
    g_free (neg_str);
    neg_str = gst_caps_to_string (neg);
    compare_with_core (c.h->element, in_caps, neg_str, in, out);
    gst_caps_unref (neg);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  check_harness_free (&c);
  g_free (desc);
  return neg_str;
}

/* TRUE when caps accept some tensor with these fields. */
static gboolean
caps_allow (GstCaps * caps, const gchar * fields)
{
  gchar *str = g_strdup_printf (TENSOR ",%s", fields);
  GstCaps *probe = gst_caps_from_string (str);
  /* a subset, not an intersection: an absent field of the template's
   * tensor-set structure allows anything, but a tensor without
   * representation=tensor-set is no set */
  gboolean ok = gst_caps_is_subset (probe, caps);

  gst_caps_unref (probe);
  g_free (str);
  return ok;
}

GST_START_TEST (test_pads_and_properties)
{
  GstElement *e = gst_element_factory_make ("simadetessdequant", NULL);
  const GList *t;
  gfloat scale;
  gint zp, backend, fallback;
  guint timeout;
  gchar *device;
  GParamSpec *ps;
  gboolean sink_ok = FALSE, src_ok = FALSE;

  fail_unless (e != NULL);
  for (t = gst_element_factory_get_static_pad_templates
      (gst_element_get_factory (e)); t; t = t->next) {
    GstStaticPadTemplate *pt = t->data;
    GstCaps *caps = gst_static_pad_template_get_caps (pt);
    /* INT8 tiles in; FP32 or BF16 dense tensors out (never FP16) */
    if (pt->direction == GST_PAD_SINK)
      sink_ok = caps_allow (caps, "dtype=int8,layout=mla-tiled")
          && caps_allow (caps, "dtype=int8,layout=mla-cblocked")
          && !caps_allow (caps, "dtype=float32")
          && !caps_allow (caps, "layout=contiguous")
          && caps_allow (caps, "representation=tensor-set");
    else
      src_ok = caps_allow (caps, "dtype=float32,layout=contiguous")
          && caps_allow (caps, "dtype=bfloat16,layout=strided")
          && !caps_allow (caps, "dtype=float16")
          && !caps_allow (caps, "dtype=int8")
          && !caps_allow (caps, "layout=mla-tiled")
          && caps_allow (caps, "representation=tensor-set");
    gst_caps_unref (caps);
  }
  fail_unless (sink_ok && src_ok, "pad templates");

  g_object_get (e, "scale", &scale, "zero-point", &zp, "backend", &backend,
      "fallback", &fallback, "device", &device, "timeout", &timeout, NULL);
  fail_unless_equals_float (scale, 0.0f);  /* 0: unset, refused at start */
  fail_unless_equals_int (zp, 0);
  fail_unless_equals_int (backend, 0);      /* ev74 */
  fail_unless_equals_int (fallback, 0);     /* none */
  fail_unless (device == NULL);
  fail_unless_equals_int (timeout, 5000);
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "zero-point");
  fail_unless_equals_int (G_PARAM_SPEC_INT (ps)->minimum, G_MININT32);
  fail_unless_equals_int (G_PARAM_SPEC_INT (ps)->maximum, G_MAXINT32);
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "scale");
  fail_unless_equals_float (G_PARAM_SPEC_FLOAT (ps)->minimum, 0.0f);
  fail_unless_equals_float (G_PARAM_SPEC_FLOAT (ps)->maximum, G_MAXFLOAT);

  /* scale-convention: an enum, multiply by default, divide by name */
  {
    GEnumClass *ec;
    gint conv;
    ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        "scale-convention");
    fail_unless (ps != NULL && G_IS_PARAM_SPEC_ENUM (ps));
    fail_unless_equals_int (G_PARAM_SPEC_ENUM (ps)->default_value,
        SIMA_SCALE_MULTIPLY);
    ec = G_PARAM_SPEC_ENUM (ps)->enum_class;
    fail_unless_equals_int (ec->n_values, 2);
    fail_unless_equals_int (g_enum_get_value_by_nick (ec, "multiply")->value,
        SIMA_SCALE_MULTIPLY);
    fail_unless_equals_int (g_enum_get_value_by_nick (ec, "divide")->value,
        SIMA_SCALE_DIVIDE);
    g_object_get (e, "scale-convention", &conv, NULL);
    fail_unless_equals_int (conv, SIMA_SCALE_MULTIPLY);
    gst_util_set_object_arg (G_OBJECT (e), "scale-convention", "divide");
    g_object_get (e, "scale-convention", &conv, NULL);
    fail_unless_equals_int (conv, SIMA_SCALE_DIVIDE);
    gst_util_set_object_arg (G_OBJECT (e), "scale-convention", "multiply");
  }

  /* the extremes of both ranges survive set/get, subnormals included */
  g_object_set (e, "zero-point", G_MININT32, "scale", 1e-45f, NULL);
  g_object_get (e, "zero-point", &zp, "scale", &scale, NULL);
  fail_unless_equals_int (zp, G_MININT32);
  fail_unless (scale == 1e-45f && scale > 0, "scale %g", (double) scale);
  gst_util_set_object_arg (G_OBJECT (e), "zero-point", "2147483647");
  gst_util_set_object_arg (G_OBJECT (e), "scale", "0.007874016");
  g_object_get (e, "zero-point", &zp, "scale", &scale, NULL);
  fail_unless_equals_int (zp, G_MAXINT32);
  fail_unless (scale == 0.007874016f, "scale %g", (double) scale);
  g_free (device);
  gst_object_unref (e);
}
GST_END_TEST;

/* No scale: start fails and says why; the scale is checked before any
 * device is opened (a missing device would otherwise be reported first). */
GST_START_TEST (test_missing_scale)
{
  static const gchar *descs[] = { "simadetessdequant backend=a65",
    "simadetessdequant device=/nonexistent/simaai-ev74 zero-point=3"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (descs); i++) {
    GstStateChangeReturn ret;
    gchar *msg = check_start_message (descs[i], GST_MESSAGE_ERROR, &ret);
    fail_unless_equals_int (ret, GST_STATE_CHANGE_FAILURE);
    fail_unless (msg && strstr (msg, "simadetessdequant needs the scale "
            "property (finite, > 0): scale is 0, must be finite and > 0"), "%s: error %s", descs[i], msg);
    g_free (msg);
  }
}
GST_END_TEST;

/* Downstream open: FP32 contiguous. Downstream asking for BF16 gets it. */
GST_START_TEST (test_output_dtype_negotiation)
{
  guint b;

  for (b = 0; b < G_N_ELEMENTS (backends); b++) {
    gchar *props = g_strdup_printf ("%s scale=0.007874016", backends[b]);
    gchar *neg = check_output (props, TILED_IN, NULL);
    GstCaps *got = gst_caps_from_string (neg), *want;

    want = gst_caps_from_string (DENSE ",dtype=float32,shape=(int)<6,20,3>");
    fail_unless (gst_caps_is_equal (got, want), "open downstream: %s", neg);
    gst_caps_unref (want);
    gst_caps_unref (got);
    g_free (neg);

    neg = check_output (props, TILED_IN, TENSOR ",dtype=bfloat16");
    got = gst_caps_from_string (neg);
    want = gst_caps_from_string (DENSE ",dtype=bfloat16,shape=(int)<6,20,3>");
    fail_unless (gst_caps_is_equal (got, want), "bfloat16 asked: %s", neg);
    gst_caps_unref (want);
    gst_caps_unref (got);
    g_free (neg);
    g_free (props);
  }
}
GST_END_TEST;

/* The layout matrix; each case on the A65 and on the emulator. */
typedef struct {
  const gchar *props;
  const gchar *in_caps;
  const gchar *out_caps;        /* NULL: downstream open */
} DetessCase;

static const DetessCase detess_cases[] = {
  /* MlaTiled pad16, FP32 into a pitched output (pixels of 16 bytes, rows of
   * 336): holes in every pixel and at every row end */
  { "scale=0.007874016", TILED_IN, TENSOR ",dtype=float32,layout=strided,"
        "shape=(int)<6,20,3>,strides=(gint64)<336,16,4>" },
  /* MlaTiled compact, rank 4 with a D axis and boundary tiles, BF16 */
  { "scale=0.3 zero-point=-5", TENSOR ",dtype=int8,shape=(int)<2,5,7,17>,"
        "layout=mla-tiled,tile-axes=(int)<1,2,-1,3>,"
        "tile-shape=(int)<2,4,1,16>,channels=compact",
      TENSOR ",dtype=bfloat16" },
  /* MlaTiled compact with the channels as logical axis 0 (C H W), FP32
   * out in the same order with pitched rows (4-byte gap per row) */
  { "scale=1.5 zero-point=7", TENSOR ",dtype=int8,shape=(int)<3,4,5>,"
        "layout=mla-tiled,tile-axes=(int)<-1,1,2,0>,"
        "tile-shape=(int)<1,2,2,2>,channels=compact",
      TENSOR ",dtype=float32,layout=strided,strides=(gint64)<96,24,4>" },
  /* MlaCBlocked rank 3, 33 channels (three blocks, the last one padded) */
  { "scale=0.125 zero-point=-128", TENSOR ",dtype=int8,shape=(int)<5,7,33>,"
        "layout=mla-cblocked", NULL },
  /* MlaCBlocked rank 4 into a BF16 channel-planar output with plane gaps */
  { "scale=0.02", TENSOR ",dtype=int8,shape=(int)<2,3,5,20>,"
        "layout=mla-cblocked", TENSOR ",dtype=bfloat16,layout=strided,"
        "strides=(gint64)<704,10,2,32>" },
  /* subnormal scales: the smallest one, and one whose products round */
  { "scale=1e-45", TILED_IN, NULL },
  { "scale=3e-39 zero-point=1", TILED_IN, TENSOR ",dtype=bfloat16" },
  /* wide zero points: z is rounded to binary32 first (2^24+1 -> 2^24) */
  { "scale=1 zero-point=16777217", TILED_IN, NULL },
  { "scale=0.5 zero-point=-2147483648", TILED_IN, TENSOR ",dtype=bfloat16" },
  { "scale=3e38 zero-point=2147483647", TENSOR ",dtype=int8,"
        "shape=(int)<2,4,40>,layout=mla-cblocked", NULL },
};

GST_START_TEST (test_output_bytes)
{
  guint i, b;

  for (b = 0; b < G_N_ELEMENTS (backends); b++)
    for (i = 0; i < G_N_ELEMENTS (detess_cases); i++) {
      const DetessCase *dc = &detess_cases[i];
      gchar *props = g_strdup_printf ("%s %s", backends[b], dc->props);
      g_free (check_output (props, dc->in_caps, dc->out_caps));
      g_free (props);
    }
}
GST_END_TEST;

/* Padding is ignored: two inputs that differ only in their padding
 * channels give the same output, whatever the backend. In TILED_IN every
 * pixel is 16 bytes (pad16) of which the first 3 are channels, and both
 * tile classes are multiples of 16 bytes (no alignment gaps). */
GST_START_TEST (test_padding_ignored)
{
  guint b;

  for (b = 0; b < G_N_ELEMENTS (backends); b++) {
    gchar *desc = g_strdup_printf ("simadetessdequant scale=0.25 "
        "zero-point=-3 %s", backends[b]);
    GstBuffer *in[2], *out[2];
    GstMapInfo m[2];
    CheckHarness c;
    gsize i;
    int k;

    check_harness_new (&c, desc, TILED_IN, NULL);
    in[0] = check_random_buffer (1920, 5);
    in[1] = check_random_buffer (1920, 6);
    gst_buffer_map (in[0], &m[0], GST_MAP_READ);
    gst_buffer_map (in[1], &m[1], GST_MAP_WRITE);
    for (i = 0; i < 1920; i++)
      if (i % 16 < 3)
        m[1].data[i] = m[0].data[i];    /* same channels, other padding */
    fail_unless (memcmp (m[0].data, m[1].data, 1920) != 0);
    gst_buffer_unmap (in[1], &m[1]);
    gst_buffer_unmap (in[0], &m[0]);
    for (k = 0; k < 2; k++)
      out[k] = gst_harness_push_and_pull (c.h, in[k]);
    fail_unless (out[0] != NULL && out[1] != NULL, "%s: no output", desc);
    /* FP32 contiguous: every output byte is written */
    fail_unless_equals_int (gst_buffer_get_size (out[0]), 6 * 20 * 3 * 4);
    gst_buffer_map (out[0], &m[0], GST_MAP_READ);
    fail_unless (check_buffer_equals (out[1], m[0].data, m[0].size),
        "%s: padding changed the output", desc);
    gst_buffer_unmap (out[0], &m[0]);
    gst_buffer_unref (out[0]);
    gst_buffer_unref (out[1]);
    check_harness_free (&c);
    g_free (desc);
  }
}
GST_END_TEST;

/* Caps the core rejects: not negotiated, the core's message in the error. */
GST_START_TEST (test_caps_rejected)
{
  static const struct {
    const gchar *in_caps, *out_caps, *text;
  } cases[] = {
    { TENSOR ",dtype=int8,shape=(int)<8,40>,layout=mla-cblocked", NULL,
        "DetessDequant cannot convert these caps: input rank is 2; "
          "mla-cblocked needs rank 3 to 6 (trailing H, W, C)" },
    { TENSOR ",dtype=int8,shape=(int)<6,20,3>,layout=mla-tiled,"
          "tile-axes=(int)<-1,0,0,2>,tile-shape=(int)<1,2,2,16>,"
          "channels=pad16", NULL, "DetessDequant cannot convert these caps: "
          "input tile-axes: logical axis 0 is mapped to both H and W" },
    /* pixels of 8 bytes cannot hold 3 FP32 channels */
    { TILED_IN, TENSOR ",dtype=float32,layout=strided,"
          "strides=(gint64)<160,8,4>", "DetessDequant cannot convert these "
          "caps: output stride on axis 1 is 8 bytes, below the 12 bytes" },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    CheckHarness c;
    gchar *msg;

    check_harness_new (&c, "simadetessdequant scale=1 backend=a65",
        cases[i].in_caps, cases[i].out_caps);
    fail_unless_equals_int (gst_harness_push (c.h,
            gst_buffer_new_allocate (NULL, 1024, NULL)),
        GST_FLOW_NOT_NEGOTIATED);
    msg = check_pop_message (&c, GST_MESSAGE_ERROR);
    fail_unless (msg && strstr (msg, cases[i].text), "case %u: error %s", i,
        msg);
    g_free (msg);
    check_harness_free (&c);
  }
}
GST_END_TEST;

GST_START_TEST (test_wrong_size_buffer)
{
  guint b;

  for (b = 0; b < G_N_ELEMENTS (backends); b++) {
    gchar *desc = g_strdup_printf ("simadetessdequant scale=1 %s",
        backends[b]);
    CheckHarness c;
    gchar *msg;

    SimaTensorSpec spec = check_spec (TILED_IN);
    const gchar *want;

    /* <6,20,3> pad16, H8/W16/C16: a 6x16 and a 6x4 boundary tile of 16
     * stored channels */
    fail_unless_equals_uint64 (check_required_bytes (&spec),
        6 * 16 * 16 + 6 * 4 * 16);
    check_harness_new (&c, desc, TILED_IN, NULL);
    fail_unless_equals_int (gst_harness_push (c.h, gst_buffer_new_allocate
            (NULL, 100, NULL)), GST_FLOW_ERROR);
    msg = check_pop_message (&c, GST_MESSAGE_ERROR);
    want = "DetessDequant: the input buffer has 100 bytes, the caps need 1920";
    fail_unless (msg && strstr (msg, want), "%s: error %s", desc, msg);
    g_free (msg);
    check_harness_free (&c);
    g_free (desc);
  }
}
GST_END_TEST;

/* Downstream offers a choice: fixation skips what the core rejects (strides
 * that fit only bfloat16, an overlapping view before a contiguous one). */
GST_START_TEST (test_fixation_skips_rejected)
{
  static const gchar *cases[][2] = {
    { TENSOR ",dtype={float32,bfloat16},layout=strided,"
          "strides=(gint64)<120,6,2>", TENSOR ",dtype=bfloat16,"
          "layout=strided,shape=(int)<6,20,3>,strides=(gint64)<120,6,2>" },
    { TENSOR ",layout=strided,strides=(gint64)<4,4,4>;" TENSOR
          ",layout=contiguous", DENSE ",dtype=float32,shape=(int)<6,20,3>" },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *neg = check_output ("backend=a65 scale=0.5", TILED_IN,
        cases[i][0]);
    GstCaps *got = gst_caps_from_string (neg);
    GstCaps *want = gst_caps_from_string (cases[i][1]);

    fail_unless (gst_caps_is_equal (got, want), "%s: negotiated %s",
        cases[i][0], neg);
    gst_caps_unref (want);
    gst_caps_unref (got);
    g_free (neg);
  }
}
GST_END_TEST;

/* SiMa's convention end to end: YOLOv8n head 0 (80 x 80 x 64, one image
 * row per tile, pad16: 64 channels need no padding, 409,600 bytes) of
 * random codes, with the model JSON's dq_scale and dq_zp copied into the
 * properties as text, on both backends and both output dtypes. Every
 * value must equal the oracle's (q - dq_zp) / dq_scale under the documented
 * rule (the double dq_scale rounded to binary32 once, the division
 * correctly rounded), the input byte located by the tiling's own formula:
 * tile h holds pixel w's 64 channels at (h * 80 + w) * 64. */
GST_START_TEST (test_divide_yolov8n_head0)
{
  static const gchar *outs[2] = { TENSOR ",dtype=float32,layout=contiguous",
    TENSOR ",dtype=bfloat16,layout=contiguous" };
  const gchar *in_caps = TENSOR ",dtype=int8,shape=(int)<80,80,64>,"
      "layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,"
      "tile-shape=(int)<1,1,80,64>,channels=pad16";
  const float dq_scale = (float) 11.328456438342892;
  const gint dq_zp = -61;
  guint b, o;

  for (b = 0; b < G_N_ELEMENTS (backends); b++)
    for (o = 0; o < 2; o++) {
      gchar *desc = g_strdup_printf ("simadetessdequant scale-convention=divide"
          " scale=11.328456438342892 zero-point=-61 %s", backends[b]);
      GstBuffer *in = check_random_buffer (409600, 1500 + o), *out;
      GstMapInfo im, om;
      gchar *err;
      gfloat scale;
      CheckHarness c;
      guint64 i, bad = 0, reciprocal = 0;

      check_harness_new (&c, desc, in_caps, outs[o]);
      g_object_get (c.h->element, "scale", &scale, NULL);
      fail_unless (scale == dq_scale, "dq_scale rounded to %a", scale);
      out = gst_harness_push_and_pull (c.h, gst_buffer_ref (in));
      err = check_pop_message (&c, GST_MESSAGE_ERROR);
      fail_unless (out != NULL, "%s: no output: %s", desc, err);
      g_free (err);
      gst_buffer_map (in, &im, GST_MAP_READ);
      fail_unless (gst_buffer_map (out, &om, GST_MAP_READ));
      fail_unless_equals_uint64 (om.size, 80 * 80 * 64 * (o ? 2 : 4));
      for (i = 0; i < 80 * 80 * 64; i++) {
        guint64 h = i / (80 * 64), w = i / 64 % 80, ch = i % 64;
        int8_t q = (int8_t) im.data[(h * 80 + w) * 64 + ch];
        uint32_t got = 0, want = o
            ? oracle_dequant_div_bf16_bits (q, dq_scale, dq_zp)
            : oracle_dequant_div_f32_bits (q, dq_scale, dq_zp);
        memcpy (&got, om.data + i * (o ? 2 : 4), o ? 2 : 4);
        if (got != want && bad++ == 0)
          GST_ERROR ("%s %s: element %" G_GUINT64_FORMAT " (q %d) is %#x, "
              "the oracle's (q - dq_zp) / dq_scale %#x", desc, outs[o], i, q,
              got, want);
        reciprocal += !o && got != oracle_dequant_f32_bits (q,
            1.0f / dq_scale, dq_zp);
      }
      fail_unless (bad == 0, "%s -> %s: %" G_GUINT64_FORMAT " of 409600 "
          "values differ from the oracle", desc, outs[o], bad);
      /* and the multiply by the reciprocal would not have done */
      fail_unless (o || reciprocal > 0);
      gst_buffer_unmap (out, &om);
      gst_buffer_unmap (in, &im);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
      check_harness_free (&c);
      g_free (desc);
    }
}
GST_END_TEST;

static Suite *
detessdequant_suite (void)
{
  Suite *s = suite_create ("simadetessdequant");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pads_and_properties);
  tcase_add_test (tc, test_missing_scale);
  tcase_add_test (tc, test_output_dtype_negotiation);
  tcase_add_test (tc, test_output_bytes);
  tcase_add_test (tc, test_padding_ignored);
  tcase_add_test (tc, test_caps_rejected);
  tcase_add_test (tc, test_wrong_size_buffer);
  tcase_add_test (tc, test_fixation_skips_rejected);
  tcase_add_test (tc, test_divide_yolov8n_head0);
  return s;
}

GST_CHECK_MAIN (detessdequant);
