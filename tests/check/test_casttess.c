/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simacasttess: pads and properties, negotiation (open, downstream-fixed and
 * property-filled tilings), output bytes equal to the core's for FP32, FP16
 * and BF16 inputs (contiguous and strided, compact and pad16) on the A65
 * and the EV74 emulator, caps the core rejects, FP16 output, wrong-size
 * buffers, and state changes.
 */
#include <simaai/kernels/a65/casttess.h>
#include <string.h>

#include "check_util.h"

#define RGB_IN TENSOR ",dtype=float32,shape=(int)<6,20,3>,layout=contiguous"
#define TILES TENSOR ",dtype=bfloat16,layout=mla-tiled"

/* Both places the conversion runs; every output case runs on each. */
static const gchar *backends[] = { "backend=a65", "device=emulator:workers=2" };

/* The core's bytes for in -> out (out: the negotiated caps). The output is
 * fully written by the core (padding and gaps zero), so it is compared
 * whole. */
static guint8 *
expected_cast (const gchar * in_caps, const gchar * out_caps, GstBuffer * in,
    gsize * bytes)
{
  SimaTensorSpec in_spec = check_spec (in_caps), out_spec = check_spec (out_caps);
  SimaCastTessRequest req = { &in_spec, 1, &out_spec, 1 };
  SimaCastTessPlan plan;
  SimaA65CastTessPlan a65;
  SimaConstHostBuffer ib;
  SimaHostBuffer ob;
  GstMapInfo map;
  guint8 *out;
  SimaStatus st;

  st = sima_casttess_check_inference (&req, &plan);
  fail_unless (st.code == SIMA_OK, "%s", st.message);
  st = sima_a65_casttess_prepare (&plan, &a65);
  fail_unless (st.code == SIMA_OK, "%s", st.message);
  /* tiled outputs must be 16-byte aligned */
  out = g_aligned_alloc0 (1, plan.output_bytes + 1, 16);
  gst_buffer_map (in, &map, GST_MAP_READ);
  ib = (SimaConstHostBuffer) { map.data, map.size };
  ob = (SimaHostBuffer) { out, plan.output_bytes };
  st = sima_a65_casttess_execute (&a65, &ib, 1, &ob, 1);
  gst_buffer_unmap (in, &map);
  fail_unless (st.code == SIMA_OK, "%s", st.message);
  *bytes = plan.output_bytes;
  return out;
}

/* Pushes two buffers through "simacasttess <props>" and checks each against
 * the core on the negotiated caps. Random inputs are raw random bytes (every
 * bit pattern: NaNs of all payloads, subnormals; garbage in strided holes);
 * the others hold the core's special-values pattern. */
static void
check_output (const gchar * props, const gchar * in_caps,
    const gchar * out_caps, gboolean random)
{
  gchar *desc = g_strdup_printf ("simacasttess %s", props);
  SimaTensorSpec in_spec = check_spec (in_caps);
  guint64 in_bytes = check_required_bytes (&in_spec);
  CheckHarness c;
  int k;

  check_harness_new (&c, desc, in_caps, out_caps);
  for (k = 0; k < 2; k++) {
    GstBuffer *in = random ? check_random_buffer (in_bytes, 31 + k)
        : check_tensor_buffer (&in_spec, in_bytes, SIMA_PATTERN_SPECIAL, k);
    GstBuffer *out = gst_harness_push_and_pull (c.h, gst_buffer_ref (in));
    GstCaps *neg;
    gchar *neg_str, *err;
    guint8 *want;
    gsize want_bytes;

    err = check_pop_message (&c, GST_MESSAGE_ERROR);
    fail_unless (out != NULL, "no output from %s for %s: %s", desc, in_caps,
        err);
    g_free (err);
    neg = gst_pad_get_current_caps (c.h->sinkpad);
    neg_str = gst_caps_to_string (neg);
    want = expected_cast (in_caps, neg_str, in, &want_bytes);
    fail_unless (check_buffer_equals (out, want, want_bytes),
        "%s: output differs from the core's for %s -> %s", desc, in_caps,
        neg_str);
    g_aligned_free (want);
    g_free (neg_str);
    gst_caps_unref (neg);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  check_harness_free (&c);
  g_free (desc);
}

/* Negotiates in_caps through "simacasttess <props>" (one buffer pushed) and
 * fails unless the source caps equal want. */
static void
check_negotiated (const gchar * props, const gchar * in_caps,
    const gchar * out_caps, const gchar * want)
{
  gchar *desc = g_strdup_printf ("simacasttess backend=a65 %s", props);
  SimaTensorSpec in_spec = check_spec (in_caps);
  GstCaps *neg, *want_caps = gst_caps_from_string (want);
  CheckHarness c;
  gchar *s;

  check_harness_new (&c, desc, in_caps, out_caps);
  gst_buffer_unref (gst_harness_push_and_pull (c.h,
          check_random_buffer (check_required_bytes (&in_spec), 1)));
  neg = gst_pad_get_current_caps (c.h->sinkpad);
  fail_unless (neg != NULL, "%s did not negotiate", desc);
  s = gst_caps_to_string (neg);
  fail_unless (gst_caps_is_equal (neg, want_caps), "%s negotiated %s, not %s",
      desc, s, want);
  g_free (s);
  gst_caps_unref (neg);
  gst_caps_unref (want_caps);
  check_harness_free (&c);
  g_free (desc);
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

/* Reads an int-array property as "a,b,c,d" ("" when empty). */
static gchar *
array_property (GstElement * e, const gchar * name)
{
  GValue v = G_VALUE_INIT;
  GString *s = g_string_new (NULL);
  guint i;

  g_value_init (&v, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (e), name, &v);
  for (i = 0; i < gst_value_array_get_size (&v); i++)
    g_string_append_printf (s, "%s%d", i ? "," : "",
        g_value_get_int (gst_value_array_get_value (&v, i)));
  g_value_unset (&v);
  return g_string_free (s, FALSE);
}

GST_START_TEST (test_pads_and_properties)
{
  GstElement *e = gst_element_factory_make ("simacasttess", NULL);
  const GList *t;
  gint backend, fallback, channels;
  guint timeout;
  gchar *device, *axes, *shape;
  gboolean sink_ok = FALSE, src_ok = FALSE;

  fail_unless (e != NULL);
  for (t = gst_element_factory_get_static_pad_templates
      (gst_element_get_factory (e)); t; t = t->next) {
    GstStaticPadTemplate *pt = t->data;
    GstCaps *caps = gst_static_pad_template_get_caps (pt);
    /* dense floats in; only BF16 tiles out (no float16, no int8) */
    if (pt->direction == GST_PAD_SINK)
      sink_ok = caps_allow (caps, "dtype=float32,layout=contiguous")
          && caps_allow (caps, "dtype=float16,layout=strided")
          && caps_allow (caps, "dtype=bfloat16,layout=contiguous")
          && !caps_allow (caps, "layout=mla-tiled")
          && caps_allow (caps, "representation=tensor-set");
    else
      src_ok = caps_allow (caps, "dtype=bfloat16,layout=mla-tiled")
          && !caps_allow (caps, "dtype=float16")
          && !caps_allow (caps, "dtype=float32")
          && !caps_allow (caps, "layout=contiguous")
          && caps_allow (caps, "representation=tensor-set");
    gst_caps_unref (caps);
  }
  fail_unless (sink_ok && src_ok, "pad templates");

  g_object_get (e, "channels", &channels, "backend", &backend, "fallback",
      &fallback, "device", &device, "timeout", &timeout, NULL);
  axes = array_property (e, "tile-axes");
  shape = array_property (e, "tile-shape");
  /* empty tile properties: the core's default tiling for the rank */
  fail_unless_equals_string (axes, "");
  fail_unless_equals_string (shape, "");
  fail_unless_equals_int (channels, SIMA_CHANNELS_PAD16);
  fail_unless_equals_int (backend, 0);      /* ev74 */
  fail_unless_equals_int (fallback, 0);     /* none */
  fail_unless (device == NULL);
  fail_unless_equals_int (timeout, 5000);
  g_free (axes);
  g_free (shape);
  g_free (device);

  gst_util_set_object_arg (G_OBJECT (e), "tile-axes", "<-1,0,1,2>");
  gst_util_set_object_arg (G_OBJECT (e), "tile-shape", "<1,4,8,32>");
  gst_util_set_object_arg (G_OBJECT (e), "channels", "compact");
  gst_util_set_object_arg (G_OBJECT (e), "backend", "a65");
  gst_util_set_object_arg (G_OBJECT (e), "fallback", "a65");
  g_object_set (e, "device", "emulator:workers=2", "timeout", 250, NULL);
  g_object_get (e, "channels", &channels, "backend", &backend, "fallback",
      &fallback, "device", &device, "timeout", &timeout, NULL);
  axes = array_property (e, "tile-axes");
  shape = array_property (e, "tile-shape");
  fail_unless_equals_string (axes, "-1,0,1,2");
  fail_unless_equals_string (shape, "1,4,8,32");
  fail_unless_equals_int (channels, SIMA_CHANNELS_COMPACT);
  fail_unless_equals_int (backend, 1);
  fail_unless_equals_int (fallback, 1);
  fail_unless_equals_string (device, "emulator:workers=2");
  fail_unless_equals_int (timeout, 250);
  g_free (axes);
  g_free (shape);
  g_free (device);
  /* anything but four values means "unset" again */
  gst_util_set_object_arg (G_OBJECT (e), "tile-shape", "<8,16>");
  shape = array_property (e, "tile-shape");
  fail_unless_equals_string (shape, "");
  g_free (shape);
  gst_object_unref (e);
}
GST_END_TEST;

/* Open layout downstream: channels last, H8/W16/C16, pad16. */
GST_START_TEST (test_negotiate_defaults)
{
  check_negotiated ("", RGB_IN, NULL, TILES ",shape=(int)<6,20,3>,"
      "tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,8,16,16>,"
      "channels=pad16");
  /* rank 2: W, C only */
  check_negotiated ("", TENSOR ",dtype=float16,shape=(int)<5,17>", NULL,
      TILES ",shape=(int)<5,17>,tile-axes=(int)<-1,-1,0,1>,"
      "tile-shape=(int)<1,1,16,16>,channels=pad16");
}
GST_END_TEST;

/* Downstream fixes the whole tiling: it wins over every property. */
GST_START_TEST (test_negotiate_downstream_wins)
{
  check_negotiated ("tile-axes=<-1,-1,0,1> tile-shape=<1,1,4,4> "
      "channels=pad16", RGB_IN, TILES ",tile-axes=(int)<-1,0,1,2>,"
      "tile-shape=(int)<1,2,4,16>,channels=compact",
      TILES ",shape=(int)<6,20,3>,tile-axes=(int)<-1,0,1,2>,"
      "tile-shape=(int)<1,2,4,16>,channels=compact");
}
GST_END_TEST;

/* Properties fill only what downstream leaves open. */
GST_START_TEST (test_negotiate_properties_fill)
{
  /* downstream fixes channels: axes and shape come from the properties */
  check_negotiated ("tile-axes=<-1,2,1,0> tile-shape=<1,4,8,2> "
      "channels=pad16", RGB_IN, TILES ",channels=compact",
      TILES ",shape=(int)<6,20,3>,tile-axes=(int)<-1,2,1,0>,"
      "tile-shape=(int)<1,4,8,2>,channels=compact");
  /* downstream fixes the tile shape: axes default, channels property */
  check_negotiated ("channels=compact", RGB_IN,
      TILES ",tile-shape=(int)<1,3,5,2>",
      TILES ",shape=(int)<6,20,3>,tile-axes=(int)<-1,0,1,2>,"
      "tile-shape=(int)<1,3,5,2>,channels=compact");
  /* downstream allows both channel modes: the property picks */
  check_negotiated ("channels=compact", RGB_IN,
      TILES ",channels={pad16,compact}",
      TILES ",shape=(int)<6,20,3>,tile-axes=(int)<-1,0,1,2>,"
      "tile-shape=(int)<1,8,16,16>,channels=compact");
}
GST_END_TEST;

/* The conversion matrix: dtypes x contiguous/strided x compact/pad16, each
 * on the A65 and on the EV74 emulator. */
typedef struct {
  const gchar *props;
  const gchar *in_caps;
  const gchar *out_caps;        /* NULL: downstream leaves the tiling open */
  gboolean random;
} CastCase;

static const CastCase cast_cases[] = {
  /* FP32: special values, default tiling (pad16) */
  { "", RGB_IN, NULL, FALSE },
  /* FP32: every bit pattern (NaN wrap-around included), compact */
  { "", RGB_IN, TILES ",channels=compact", TRUE },
  /* FP32 channel-planar, pitched rows (4-byte gaps of garbage) */
  { "", TENSOR ",dtype=float32,shape=(int)<4,5,3>,layout=strided,"
        "strides=(gint64)<24,4,96>", NULL, TRUE },
  /* FP16: special values, rank 4 with a D axis and boundary tiles */
  { "tile-axes=<1,2,-1,3> tile-shape=<2,4,1,16>", TENSOR ",dtype=float16,"
        "shape=(int)<2,5,7,17>,layout=contiguous", TILES ",channels=compact",
      FALSE },
  /* FP16: every bit pattern, pixel gaps, pad16 with C split in two tiles */
  { "tile-shape=<1,2,2,4>", TENSOR ",dtype=float16,shape=(int)<3,4,5>,"
        "layout=strided,strides=(gint64)<48,12,2>", TILES ",channels=pad16",
      TRUE },
  /* BF16: bit-preserving re-layout, default tiling */
  { "", TENSOR ",dtype=bfloat16,shape=(int)<3,9,33>,layout=contiguous",
      NULL, TRUE },
  /* BF16 transposed input (channels outermost in memory), compact */
  { "channels=compact", TENSOR ",dtype=bfloat16,shape=(int)<5,17>,"
        "layout=strided,strides=(gint64)<2,10>", NULL, TRUE },
};

GST_START_TEST (test_output_bytes)
{
  guint i, b;

  for (b = 0; b < G_N_ELEMENTS (backends); b++)
    for (i = 0; i < G_N_ELEMENTS (cast_cases); i++) {
      const CastCase *cc = &cast_cases[i];
      gchar *props = g_strdup_printf ("%s %s", backends[b], cc->props);
      check_output (props, cc->in_caps, cc->out_caps, cc->random);
      g_free (props);
    }
}
GST_END_TEST;

/* New caps mid-stream (another shape and dtype): the plan, the sizes and
 * the EV74 job follow, and the output matches the core's again. */
GST_START_TEST (test_renegotiation)
{
  static const gchar *caps[] = { RGB_IN,
    TENSOR ",dtype=float16,shape=(int)<3,40,19>,layout=contiguous",
    TENSOR ",dtype=bfloat16,shape=(int)<2,2>,layout=contiguous",
  };
  guint b, i;

  for (b = 0; b < G_N_ELEMENTS (backends); b++) {
    gchar *desc = g_strdup_printf ("simacasttess %s", backends[b]);
    CheckHarness c;

    check_harness_new (&c, desc, NULL, NULL);
    for (i = 0; i < G_N_ELEMENTS (caps); i++) {
      SimaTensorSpec spec = check_spec (caps[i]);
      GstBuffer *in = check_random_buffer (check_required_bytes (&spec), i);
      GstBuffer *out;
      GstCaps *neg;
      gchar *neg_str;
      guint8 *want;
      gsize want_bytes;

      gst_harness_set_src_caps_str (c.h, caps[i]);
      out = gst_harness_push_and_pull (c.h, gst_buffer_ref (in));
      fail_unless (out != NULL, "%s: no output for %s", desc, caps[i]);
      neg = gst_pad_get_current_caps (c.h->sinkpad);
      neg_str = gst_caps_to_string (neg);
      fail_unless (strstr (neg_str, "channels=(string)pad16"), "%s", neg_str);
      want = expected_cast (caps[i], neg_str, in, &want_bytes);
      fail_unless (check_buffer_equals (out, want, want_bytes),
          "%s: output differs from the core's after switching to %s", desc,
          caps[i]);
      g_aligned_free (want);
      g_free (neg_str);
      gst_caps_unref (neg);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
    }
    check_harness_free (&c);
    g_free (desc);
  }
}
GST_END_TEST;

/* Caps the core rejects: not negotiated, the core's message in the error,
 * whether downstream or a property brought the bad tiling. */
GST_START_TEST (test_caps_rejected)
{
  static const gchar *cases[][2] = {
    { "backend=a65", TILES ",tile-axes=(int)<-1,0,0,2>,"
          "tile-shape=(int)<1,2,2,16>,channels=pad16" },
    { "backend=a65 tile-axes=<-1,1,1,2>", NULL },
  };
  static const gchar *texts[] = {
    "CastTess cannot convert these caps: output tile-axes: logical axis 0 "
        "is mapped to both H and W",
    "CastTess cannot convert these caps: output tile-axes: logical axis 1 "
        "is mapped to both H and W",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *desc = g_strdup_printf ("simacasttess %s", cases[i][0]);
    CheckHarness c;
    gchar *msg;

    check_harness_new (&c, desc, RGB_IN, cases[i][1]);
    fail_unless_equals_int (gst_harness_push (c.h,
            gst_buffer_new_allocate (NULL, 1440, NULL)),
        GST_FLOW_NOT_NEGOTIATED);
    msg = check_pop_message (&c, GST_MESSAGE_ERROR);
    fail_unless (msg && strstr (msg, texts[i]), "%s: error %s", desc, msg);
    g_free (msg);
    check_harness_free (&c);
    g_free (desc);
  }
}
GST_END_TEST;

/* FP16 is not an output format: downstream asking for it cannot link up. */
GST_START_TEST (test_fp16_output_not_negotiable)
{
  CheckHarness c;
  GstCaps *filter, *caps;
  GstPad *src;

  check_harness_new (&c, "simacasttess backend=a65", RGB_IN,
      TENSOR ",dtype=float16,layout=mla-tiled");
  fail_unless_equals_int (gst_harness_push (c.h, gst_buffer_new_allocate
          (NULL, 1440, NULL)), GST_FLOW_NOT_NEGOTIATED);
  fail_unless (gst_pad_get_current_caps (c.h->sinkpad) == NULL);
  /* and the source pad offers no float16 at all */
  src = gst_element_get_static_pad (c.h->element, "src");
  filter = gst_caps_from_string (TENSOR ",dtype=float16");
  caps = gst_pad_query_caps (src, filter);
  /* (the tensor-set structure and SiMa's dialect structures, format=BF16
   * and format=MLA, meet any filter without their fields: their members
   * are BF16 tiles all the same; no single tensor of float16) */
  {
    guint i;
    for (i = 0; i < gst_caps_get_size (caps); i++) {
      const GstStructure *s = gst_caps_get_structure (caps, i);
      fail_unless (gst_structure_has_field (s, "format")
          || gst_structure_has_field (s, "representation"),
          "src pad offers float16: %" GST_PTR_FORMAT, caps);
    }
  }
  gst_caps_unref (caps);
  gst_caps_unref (filter);
  gst_object_unref (src);
  check_harness_free (&c);
}
GST_END_TEST;

GST_START_TEST (test_wrong_size_buffer)
{
  guint b;

  for (b = 0; b < G_N_ELEMENTS (backends); b++) {
    gchar *desc = g_strdup_printf ("simacasttess %s", backends[b]);
    CheckHarness c;
    gchar *msg;

    check_harness_new (&c, desc, RGB_IN, NULL);
    fail_unless_equals_int (gst_harness_push (c.h, gst_buffer_new_allocate
            (NULL, 100, NULL)), GST_FLOW_ERROR);
    msg = check_pop_message (&c, GST_MESSAGE_ERROR);
    fail_unless (msg && strstr (msg, "CastTess: the input buffer has 100 "
            "bytes, the caps need 1440"), "%s: error %s", desc, msg);
    g_free (msg);
    check_harness_free (&c);
    g_free (desc);
  }
}
GST_END_TEST;

static void
count_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad,
    gpointer user_data)
{
  guint *count = user_data;
  (void) sink;
  (void) pad;
  /* 8x8x3 BF16, H8/W16/C16 pad16: one 8x8 tile of 16 channels, 2 bytes */
  fail_unless_equals_int (gst_buffer_get_size (buf), 8 * 8 * 16 * 2);
  g_atomic_int_inc (count);
}

/* NULL <-> PLAYING ten times: each cycle restarts the device and delivers
 * all three buffers. */
GST_START_TEST (test_state_changes)
{
  GstElement *pipe = gst_parse_launch ("simatensorsrc num-buffers=3 ! "
      TENSOR ",shape=(int)<8,8,3> ! simacasttess device=emulator ! "
      "fakesink name=sink signal-handoffs=true", NULL);
  GstElement *sink;
  guint count = 0;
  int i;

  fail_unless (pipe != NULL);
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  g_signal_connect (sink, "handoff", G_CALLBACK (count_handoff), &count);
  for (i = 0; i < 10; i++) {
    GstMessage *msg;
    fail_if (gst_element_set_state (pipe, GST_STATE_PLAYING)
        == GST_STATE_CHANGE_FAILURE);
    msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe),
        5 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
        "cycle %d did not reach EOS", i);
    gst_message_unref (msg);
    fail_if (gst_element_set_state (pipe, GST_STATE_NULL)
        == GST_STATE_CHANGE_FAILURE);
    fail_unless_equals_int (g_atomic_int_get (&count), 3 * (i + 1));
  }
  gst_object_unref (sink);
  gst_object_unref (pipe);
}
GST_END_TEST;

/* Pops every message on c's bus: the number of errors, and the text of
 * the first one in *first (g_free it). */
static guint
pop_errors (CheckHarness * c, gchar ** first)
{
  GstMessage *msg;
  guint n = 0;

  *first = NULL;
  while ((msg = gst_bus_pop (c->bus)) != NULL) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      if (n++ == 0) {
        gst_message_parse_error (msg, &err, NULL);
        *first = g_strdup (err->message);
        g_error_free (err);
      }
    }
    gst_message_unref (msg);
  }
  return n;
}

/* Downstream offers a choice: the property picks from it, wherever it
 * offers it (a list or another structure); unset, the default tiling. */
GST_START_TEST (test_negotiate_property_picks_from_choice)
{
  check_negotiated ("tile-shape=<1,4,16,16>", RGB_IN,
      TILES ",tile-shape=(int){<1,8,16,16>,<1,4,16,16>}",
      TILES ",shape=(int)<6,20,3>,tile-axes=(int)<-1,0,1,2>,"
      "tile-shape=(int)<1,4,16,16>,channels=pad16");
  check_negotiated ("tile-axes=<-1,1,0,2>", RGB_IN,
      TILES ",tile-axes=(int){<-1,0,1,2>,<-1,1,0,2>}",
      TILES ",shape=(int)<6,20,3>,tile-axes=(int)<-1,1,0,2>,"
      "tile-shape=(int)<1,8,16,16>,channels=pad16");
  check_negotiated ("tile-shape=<1,4,16,16>", RGB_IN,
      TILES ",tile-shape=(int)<1,8,16,16>;" TILES ",tile-shape=(int)<1,4,16,16>",
      TILES ",shape=(int)<6,20,3>,tile-axes=(int)<-1,0,1,2>,"
      "tile-shape=(int)<1,4,16,16>,channels=pad16");
  check_negotiated ("", RGB_IN,
      TILES ",tile-shape=(int){<1,4,16,16>,<1,8,16,16>}",
      TILES ",shape=(int)<6,20,3>,tile-axes=(int)<-1,0,1,2>,"
      "tile-shape=(int)<1,8,16,16>,channels=pad16");
}
GST_END_TEST;

/* Tilings the core rejects are skipped when downstream offers others: an
 * axis out of range for rank 3, an absent D with extent 2, a property that
 * maps one axis twice. */
GST_START_TEST (test_negotiate_skips_rejected)
{
  check_negotiated ("", RGB_IN,
      TILES ",tile-axes=(int){<-1,0,1,3>,<-1,1,0,2>}",
      TILES ",shape=(int)<6,20,3>,tile-axes=(int)<-1,1,0,2>,"
      "tile-shape=(int)<1,8,16,16>,channels=pad16");
  check_negotiated ("", RGB_IN,
      TILES ",tile-shape=(int){<2,8,16,16>,<1,4,8,16>}",
      TILES ",shape=(int)<6,20,3>,tile-axes=(int)<-1,0,1,2>,"
      "tile-shape=(int)<1,4,8,16>,channels=pad16");
  check_negotiated ("tile-axes=<-1,0,0,2>", RGB_IN,
      TILES ",tile-axes=(int){<-1,0,0,2>,<-1,0,1,2>}",
      TILES ",shape=(int)<6,20,3>,tile-axes=(int)<-1,0,1,2>,"
      "tile-shape=(int)<1,8,16,16>,channels=pad16");
}
GST_END_TEST;

/* Only rejected tilings on offer: not negotiated, one error, the core's
 * reason for the first of them. */
GST_START_TEST (test_negotiate_all_rejected)
{
  CheckHarness c;
  gchar *msg;
  guint n;

  check_harness_new (&c, "simacasttess backend=a65", RGB_IN,
      TILES ",tile-axes=(int){<-1,0,1,3>,<-1,0,0,2>}");
  fail_unless_equals_int (gst_harness_push (c.h,
          gst_buffer_new_allocate (NULL, 1440, NULL)),
      GST_FLOW_NOT_NEGOTIATED);
  n = pop_errors (&c, &msg);
  fail_unless (msg && strstr (msg, "CastTess cannot convert these caps: "
          "output tile-axes: C axis is 3, out of range for rank 3"),
      "error %s", msg);
  fail_unless_equals_int (n, 1);
  g_free (msg);
  check_harness_free (&c);
}
GST_END_TEST;

static Suite *
casttess_suite (void)
{
  Suite *s = suite_create ("simacasttess");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pads_and_properties);
  tcase_add_test (tc, test_negotiate_defaults);
  tcase_add_test (tc, test_negotiate_downstream_wins);
  tcase_add_test (tc, test_negotiate_properties_fill);
  tcase_add_test (tc, test_output_bytes);
  tcase_add_test (tc, test_renegotiation);
  tcase_add_test (tc, test_caps_rejected);
  tcase_add_test (tc, test_fp16_output_not_negotiable);
  tcase_add_test (tc, test_wrong_size_buffer);
  tcase_add_test (tc, test_state_changes);
  tcase_add_test (tc, test_negotiate_property_picks_from_choice);
  tcase_add_test (tc, test_negotiate_skips_rejected);
  tcase_add_test (tc, test_negotiate_all_rejected);
  return s;
}

GST_CHECK_MAIN (casttess);
