/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaquanttess: pads and properties, negotiation (fixed and open tile
 * layouts), output bytes equal to the core's on the A65 and the EV74
 * emulator, caps the core rejects, the required multiplier, wrong-size
 * buffers, and state changes.
 */
#include <simaai/kernels/a65/quanttess.h>
#include <string.h>

#include "check_util.h"
#include "../common/fpenv_util.h"

#define RGB_IN TENSOR ",dtype=float32,shape=(int)<6,20,3>,layout=contiguous"

/* The core's bytes for in -> out with these parameters. */
static guint8 *
expected_quant (const gchar * in_caps, const gchar * out_caps, GstBuffer * in,
    SimaQuantTessParams params, gsize * bytes)
{
  SimaTensorSpec in_spec = check_spec (in_caps), out_spec = check_spec (out_caps);
  SimaQuantTessRequest req = { &in_spec, 1, &out_spec, 1, params };
  SimaQuantTessPlan plan;
  SimaA65QuantTessPlan a65;
  SimaConstHostBuffer ib;
  SimaHostBuffer ob;
  GstMapInfo map;
  guint8 *out;
  SimaStatus st;

  st = sima_quanttess_check_inference (&req, &plan);
  fail_unless (st.code == SIMA_OK, "%s", st.message);
  sima_a65_quanttess_prepare (&plan, &a65);
  out = g_malloc0 (plan.output_bytes + 16);
  /* aligned copy of the output position */
  gst_buffer_map (in, &map, GST_MAP_READ);
  ib = (SimaConstHostBuffer) { map.data, map.size };
  ob = (SimaHostBuffer) { (void *) (((guintptr) out + 15) & ~(guintptr) 15),
    plan.output_bytes };
  st = sima_a65_quanttess_execute (&a65, &ib, 1, &ob, 1);
  gst_buffer_unmap (in, &map);
  fail_unless (st.code == SIMA_OK, "%s", st.message);
  memmove (out, ob.data, plan.output_bytes);
  *bytes = plan.output_bytes;
  return out;
}

/* Pushes two buffers through `element` and checks both against the core. */
static void
check_output (const gchar * element, const gchar * in_caps,
    const gchar * out_caps, SimaQuantTessParams params, gboolean random)
{
  CheckHarness c;
  SimaTensorSpec in_spec = check_spec (in_caps);
  guint64 in_bytes = check_required_bytes (&in_spec);
  GstCaps *neg;
  gchar *neg_str;
  int k;

  check_harness_new (&c, element, in_caps, out_caps);
  for (k = 0; k < 2; k++) {
    GstBuffer *in = random ? check_random_buffer (in_bytes, 17 + k)
        : check_tensor_buffer (&in_spec, in_bytes, SIMA_PATTERN_RANDOM, 5 + k);
    GstBuffer *out;
    guint8 *want;
    gsize want_bytes;

    neg = NULL;
    out = gst_harness_push_and_pull (c.h, gst_buffer_ref (in));
    fail_unless (out != NULL, "no output from %s", element);
    neg = gst_pad_get_current_caps (c.h->sinkpad);
    neg_str = gst_caps_to_string (neg);
    want = expected_quant (in_caps, neg_str, in, params, &want_bytes);
    fail_unless (check_buffer_equals (out, want, want_bytes),
        "%s: output differs from the core's for %s -> %s", element, in_caps,
        neg_str);
    g_free (want);
    g_free (neg_str);
    gst_caps_unref (neg);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  check_harness_free (&c);
}

GST_START_TEST (test_pads_and_properties)
{
  GstElement *e = gst_element_factory_make ("simaquanttess", NULL);
  GstElementFactory *f = gst_element_get_factory (e);
  const GList *t;
  gfloat multiplier;
  gint zp, backend, fallback, rounding, channels;
  guint timeout;
  gchar *device;
  GParamSpec *ps;
  gboolean sink_ok = FALSE, src_ok = FALSE;

  for (t = gst_element_factory_get_static_pad_templates (f); t; t = t->next) {
    GstStaticPadTemplate *pt = t->data;
    GstCaps *caps = gst_static_pad_template_get_caps (pt);
    gchar *s = gst_caps_to_string (caps);
    if (pt->direction == GST_PAD_SINK)
      sink_ok = strstr (s, "float16") && strstr (s, "strided");
    else
      src_ok = strstr (s, "int8") && strstr (s, "mla-tiled");
    g_free (s);
    gst_caps_unref (caps);
  }
  fail_unless (sink_ok && src_ok);
  g_object_get (e, "multiplier", &multiplier, "zero-point", &zp, "rounding",
      &rounding, "channels", &channels, "backend", &backend, "fallback",
      &fallback, "device", &device, "timeout", &timeout, NULL);
  fail_unless_equals_float (multiplier, 0.0f);
  fail_unless_equals_int (zp, 0);
  fail_unless_equals_int (rounding, SIMA_ROUNDING_NEAREST_EVEN);
  fail_unless_equals_int (channels, SIMA_CHANNELS_PAD16);
  fail_unless_equals_int (backend, 0);      /* ev74 */
  fail_unless_equals_int (fallback, 0);     /* none */
  fail_unless (device == NULL);
  fail_unless_equals_int (timeout, 5000);
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "zero-point");
  fail_unless_equals_int (G_PARAM_SPEC_INT (ps)->minimum, -128);
  fail_unless_equals_int (G_PARAM_SPEC_INT (ps)->maximum, 127);
  g_object_set (e, "rounding", SIMA_ROUNDING_TOWARD_NEGATIVE, "zero-point",
      -7, NULL);
  g_object_get (e, "rounding", &rounding, "zero-point", &zp, NULL);
  fail_unless_equals_int (rounding, SIMA_ROUNDING_TOWARD_NEGATIVE);
  fail_unless_equals_int (zp, -7);
  gst_util_set_object_arg (G_OBJECT (e), "tile-shape", "<1,4,8,16>");
  {
    GValue v = G_VALUE_INIT;
    g_value_init (&v, GST_TYPE_ARRAY);
    g_object_get_property (G_OBJECT (e), "tile-shape", &v);
    fail_unless_equals_int (gst_value_array_get_size (&v), 4);
    fail_unless_equals_int (g_value_get_int (gst_value_array_get_value (&v,
                2)), 8);
    g_value_unset (&v);
  }
  g_free (device);
  gst_object_unref (e);
}
GST_END_TEST;

/* Open layout downstream: the defaults (channels last, H8/W16/C16, pad16). */
GST_START_TEST (test_a65_default_tiling)
{
  SimaQuantTessParams p = { 127.0f, 0, SIMA_ROUNDING_NEAREST_EVEN };
  check_output ("simaquanttess multiplier=127 backend=a65", RGB_IN, NULL, p,
      FALSE);
}
GST_END_TEST;

/* Downstream fixes the tiling: it wins over the properties. */
GST_START_TEST (test_a65_downstream_tiling)
{
  SimaQuantTessParams p = { 0.3f, -5, SIMA_ROUNDING_TOWARD_POSITIVE };
  check_output ("simaquanttess multiplier=0.3 zero-point=-5 "
      "rounding=toward-positive backend=a65 tile-shape=<1,8,16,16>",
      TENSOR ",dtype=float16,shape=(int)<2,5,7,17>,layout=contiguous",
      TENSOR ",dtype=int8,layout=mla-tiled,tile-axes=(int)<1,2,-1,3>,"
      "tile-shape=(int)<2,4,1,16>,channels=compact", p, FALSE);
}
GST_END_TEST;

/* Properties fill what downstream leaves open. */
GST_START_TEST (test_a65_property_tiling)
{
  SimaQuantTessParams p = { 64.0f, 3, SIMA_ROUNDING_TOWARD_ZERO };
  CheckHarness c;
  GstCaps *caps;
  gchar *s;

  check_output ("simaquanttess multiplier=64 zero-point=3 "
      "rounding=toward-zero backend=a65 tile-axes=<-1,-1,0,1> "
      "tile-shape=<1,1,4,8> channels=compact",
      TENSOR ",dtype=bfloat16,shape=(int)<9,11>,layout=contiguous", NULL, p,
      TRUE);
  /* and the negotiated caps say so */
  check_harness_new (&c, "simaquanttess multiplier=1 backend=a65 "
      "tile-axes=<-1,-1,0,1> tile-shape=<1,1,4,8> channels=compact",
      TENSOR ",dtype=float32,shape=(int)<9,11>,layout=contiguous", NULL);
  gst_buffer_unref (gst_harness_push_and_pull (c.h,
          gst_buffer_new_allocate (NULL, 9 * 11 * 4, NULL)));
  caps = gst_pad_get_current_caps (c.h->sinkpad);
  s = gst_caps_to_string (caps);
  fail_unless (strstr (s, "tile-shape=(int)< 1, 1, 4, 8 >")
      && strstr (s, "channels=(string)compact") && strstr (s, "dtype=(string)int8"),
      "negotiated %s", s);
  g_free (s);
  gst_caps_unref (caps);
  check_harness_free (&c);
}
GST_END_TEST;

/* A strided (channels-first) input view. */
GST_START_TEST (test_a65_strided_input)
{
  SimaQuantTessParams p = { 2.0f, 0, SIMA_ROUNDING_NEAREST_EVEN };
  check_output ("simaquanttess multiplier=2 backend=a65",
      TENSOR ",dtype=float32,shape=(int)<4,5,3>,layout=strided,"
      "strides=(gint64)<24,4,96>", NULL, p, TRUE);
}
GST_END_TEST;

GST_START_TEST (test_ev74_emulator)
{
  SimaQuantTessParams p = { 127.0f, 2, SIMA_ROUNDING_NEAREST_EVEN };
  check_output ("simaquanttess multiplier=127 zero-point=2 "
      "device=emulator:workers=3", RGB_IN, NULL, p, FALSE);
  check_output ("simaquanttess multiplier=127 zero-point=2 "
      "device=emulator:workers=3",
      TENSOR ",dtype=float32,shape=(int)<4,5,3>,layout=strided,"
      "strides=(gint64)<24,4,96>", NULL, p, TRUE);
}
GST_END_TEST;

/* Caps the core rejects: not negotiated, the core's message in the error. */
GST_START_TEST (test_caps_rejected)
{
  CheckHarness c;
  GstFlowReturn ret;
  gchar *msg;

  check_harness_new (&c, "simaquanttess multiplier=1 backend=a65", RGB_IN,
      TENSOR ",dtype=int8,layout=mla-tiled,tile-axes=(int)<-1,0,0,2>,"
      "tile-shape=(int)<1,2,2,16>,channels=pad16");
  ret = gst_harness_push (c.h, gst_buffer_new_allocate (NULL, 360 * 4, NULL));
  fail_unless_equals_int (ret, GST_FLOW_NOT_NEGOTIATED);
  msg = check_pop_message (&c, GST_MESSAGE_ERROR);
  fail_unless (msg && strstr (msg, "logical axis 0 is mapped to both H and W"),
      "error: %s", msg);
  g_free (msg);
  check_harness_free (&c);
}
GST_END_TEST;

GST_START_TEST (test_missing_multiplier)
{
  gchar *msg = check_start_error ("simaquanttess backend=a65",
      GST_MESSAGE_ERROR);
  fail_unless (msg && strstr (msg, "needs the multiplier property"),
      "error: %s", msg);
  g_free (msg);
}
GST_END_TEST;

/* start() checks the multiplier with the core's rule, which reads its
 * bits: a subnormal multiplier is valid even when the thread that starts
 * the element flushes subnormals (a float comparison under DAZ says
 * 1e-40 > 0 is false, and start() used to refuse it). */
GST_START_TEST (test_subnormal_multiplier_under_daz)
{
  GstElement *e = gst_parse_launch ("simaquanttess multiplier=1e-40 "
      "backend=a65", NULL);
  GstBus *bus = gst_bus_new ();
  GstStateChangeReturn ret;
  GstMessage *msg;
  gfloat multiplier;
  guint32 bits;

  fail_unless (e != NULL);
  g_object_get (e, "multiplier", &multiplier, NULL);
  memcpy (&bits, &multiplier, sizeof bits);
  fail_unless (bits != 0 && bits < 0x00800000u, "1e-40 parsed as %#x",
      bits);                    /* a subnormal, parsed before DAZ */
  gst_element_set_bus (e, bus);
  if (!test_fpenv_enter (TEST_FPENV_FLUSH_DENORMALS)) {
    gst_object_unref (e);       /* no FTZ/DAZ on this CPU: nothing to show */
    gst_object_unref (bus);
    return;
  }
  ret = gst_element_set_state (e, GST_STATE_PAUSED);    /* start() here */
  test_fpenv_leave ();
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg == NULL, "start() refused a subnormal multiplier");
  fail_unless (ret != GST_STATE_CHANGE_FAILURE);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}
GST_END_TEST;

GST_START_TEST (test_wrong_size_buffer)
{
  CheckHarness c;
  gchar *msg;

  check_harness_new (&c, "simaquanttess multiplier=1 backend=a65", RGB_IN,
      NULL);
  fail_unless_equals_int (gst_harness_push (c.h, gst_buffer_new_allocate (NULL,
              100, NULL)), GST_FLOW_ERROR);
  msg = check_pop_message (&c, GST_MESSAGE_ERROR);
  fail_unless (msg && strstr (msg, "input buffer has 100 bytes, the caps need "
          "1440"), "error: %s", msg);
  g_free (msg);
  check_harness_free (&c);
}
GST_END_TEST;

GST_START_TEST (test_state_changes)
{
  GstElement *pipe = gst_parse_launch ("simatensorsrc num-buffers=3 ! "
      TENSOR ",shape=(int)<8,8,3> ! simaquanttess multiplier=127 "
      "device=emulator ! fakesink", NULL);
  int i;

  fail_unless (pipe != NULL);
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
  }
  gst_object_unref (pipe);
}
GST_END_TEST;

/* simaquanttess (props added to multiplier=1 backend=a65) negotiates
 * RGB_IN -> int8 tiles with `want` (tile fields) when downstream offers
 * out_caps. */
static void
check_tiling (const gchar * props, const gchar * out_caps, const gchar * want)
{
  gchar *desc = g_strdup_printf ("simaquanttess multiplier=1 backend=a65 %s",
      props);
  gchar *want_str = g_strdup_printf (TENSOR ",dtype=int8,layout=mla-tiled,"
      "shape=(int)<6,20,3>,%s", want);
  GstCaps *neg, *want_caps = gst_caps_from_string (want_str);
  CheckHarness c;
  GstBuffer *out;
  gchar *s;

  check_harness_new (&c, desc, RGB_IN, out_caps);
  out = gst_harness_push_and_pull (c.h,
      check_random_buffer (360 * 4, 1));
  fail_unless (out != NULL, "%s did not negotiate with %s", desc, out_caps);
  gst_buffer_unref (out);
  neg = gst_pad_get_current_caps (c.h->sinkpad);
  s = gst_caps_to_string (neg);
  fail_unless (gst_caps_is_equal (neg, want_caps), "%s with %s negotiated "
      "%s, not %s", desc, out_caps, s, want_str);
  g_free (s);
  gst_caps_unref (neg);
  gst_caps_unref (want_caps);
  check_harness_free (&c);
  g_free (want_str);
  g_free (desc);
}

#define TILES TENSOR ",dtype=int8,layout=mla-tiled"
#define DEFAULT_AXES "tile-axes=(int)<-1,0,1,2>"
#define DEFAULT_SHAPE "tile-shape=(int)<1,8,16,16>"

/* Downstream offers a choice: the property picks from it, wherever it
 * offers it (a list or another structure); unset, the default tiling. */
GST_START_TEST (test_property_picks_from_choice)
{
  check_tiling ("tile-shape=<1,4,16,16>",
      TILES ",tile-shape=(int){<1,8,16,16>,<1,4,16,16>}",
      DEFAULT_AXES ",tile-shape=(int)<1,4,16,16>,channels=pad16");
  check_tiling ("tile-axes=<-1,1,0,2>",
      TILES ",tile-axes=(int){<-1,0,1,2>,<-1,1,0,2>}",
      "tile-axes=(int)<-1,1,0,2>," DEFAULT_SHAPE ",channels=pad16");
  check_tiling ("tile-shape=<1,4,16,16>", TILES ",tile-shape=(int)<1,8,16,16>;"
      TILES ",tile-shape=(int)<1,4,16,16>",
      DEFAULT_AXES ",tile-shape=(int)<1,4,16,16>,channels=pad16");
  check_tiling ("", TILES ",tile-shape=(int){<1,4,16,16>,<1,8,16,16>}",
      DEFAULT_AXES "," DEFAULT_SHAPE ",channels=pad16");
  /* a range: the property, or the default, inside it */
  check_tiling ("tile-shape=<1,4,16,16>", TILES ",tile-shape=(int)<1,[1,16],"
      "16,16>", DEFAULT_AXES ",tile-shape=(int)<1,4,16,16>,channels=pad16");
  check_tiling ("", TILES ",tile-shape=(int)<1,[1,16],16,16>",
      DEFAULT_AXES "," DEFAULT_SHAPE ",channels=pad16");
  /* channels, as before */
  check_tiling ("channels=compact", TILES ",channels={pad16,compact}",
      DEFAULT_AXES "," DEFAULT_SHAPE ",channels=compact");
}
GST_END_TEST;

/* Tilings the core rejects are skipped when downstream offers others: an
 * axis out of range for rank 3, an absent D with extent 2, a property that
 * maps one axis twice. */
GST_START_TEST (test_skips_rejected_tilings)
{
  check_tiling ("", TILES ",tile-axes=(int){<-1,0,1,3>,<-1,1,0,2>}",
      "tile-axes=(int)<-1,1,0,2>," DEFAULT_SHAPE ",channels=pad16");
  check_tiling ("", TILES ",tile-shape=(int){<2,8,16,16>,<1,4,8,16>}",
      DEFAULT_AXES ",tile-shape=(int)<1,4,8,16>,channels=pad16");
  check_tiling ("tile-axes=<-1,0,0,2>",
      TILES ",tile-axes=(int){<-1,0,0,2>,<-1,0,1,2>}",
      DEFAULT_AXES "," DEFAULT_SHAPE ",channels=pad16");
}
GST_END_TEST;

/* Only rejected tilings on offer: not negotiated, one error, the core's
 * reason for the first of them. */
GST_START_TEST (test_all_tilings_rejected)
{
  CheckHarness c;
  GstMessage *msg;
  gchar *first = NULL;
  guint n = 0;

  check_harness_new (&c, "simaquanttess multiplier=1 backend=a65", RGB_IN,
      TILES ",tile-axes=(int){<-1,0,1,3>,<-1,0,0,2>}");
  fail_unless_equals_int (gst_harness_push (c.h,
          check_random_buffer (360 * 4, 1)),
      GST_FLOW_NOT_NEGOTIATED);
  while ((msg = gst_bus_pop (c.bus)) != NULL) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR && n++ == 0) {
      GError *err = NULL;
      gst_message_parse_error (msg, &err, NULL);
      first = g_strdup (err->message);
      g_error_free (err);
    }
    gst_message_unref (msg);
  }
  fail_unless (first && strstr (first, "QuantTess cannot convert these caps: "
          "output tile-axes: C axis is 3, out of range for rank 3"),
      "error %s", first);
  fail_unless_equals_int (n, 1);
  g_free (first);
  check_harness_free (&c);
}
GST_END_TEST;

static Suite *
quanttess_suite (void)
{
  Suite *s = suite_create ("simaquanttess");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pads_and_properties);
  tcase_add_test (tc, test_a65_default_tiling);
  tcase_add_test (tc, test_a65_downstream_tiling);
  tcase_add_test (tc, test_a65_property_tiling);
  tcase_add_test (tc, test_a65_strided_input);
  tcase_add_test (tc, test_ev74_emulator);
  tcase_add_test (tc, test_caps_rejected);
  tcase_add_test (tc, test_missing_multiplier);
  tcase_add_test (tc, test_subnormal_multiplier_under_daz);
  tcase_add_test (tc, test_wrong_size_buffer);
  tcase_add_test (tc, test_state_changes);
  tcase_add_test (tc, test_property_picks_from_choice);
  tcase_add_test (tc, test_skips_rejected_tilings);
  tcase_add_test (tc, test_all_tilings_rejected);
  return s;
}

GST_CHECK_MAIN (quanttess);
