/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-check tests of simadetesscast (issue 17): BF16 MLA tiles back to
 * FP32 or BF16 tensors, on both backends, every output byte against the
 * independent oracle, random tile bytes (padding included).
 */
#include <gst/check/gstcheck.h>
#include <string.h>

#include "check_util.h"
#include "oracle.h"

static const gchar *backends[] = { "backend=a65", "device=emulator:workers=2" };

static gboolean
caps_allow (GstCaps * caps, const gchar * fields)
{
  gchar *str = g_strdup_printf (TENSOR ",%s", fields);
  GstCaps *probe = gst_caps_from_string (str);
  gboolean ok = gst_caps_is_subset (probe, caps);

  gst_caps_unref (probe);
  g_free (str);
  return ok;
}

GST_START_TEST (test_pads)
{
  GstElement *e = gst_element_factory_make ("simadetesscast", NULL);
  const GList *t;
  gboolean sink_ok = FALSE, src_ok = FALSE;

  fail_unless (e != NULL);
  for (t = gst_element_factory_get_static_pad_templates
      (gst_element_get_factory (e)); t; t = t->next) {
    GstStaticPadTemplate *pt = t->data;
    GstCaps *caps = gst_static_pad_template_get_caps (pt);
    if (pt->direction == GST_PAD_SINK)
      sink_ok = caps_allow (caps, "dtype=bfloat16,layout=mla-tiled")
          && !caps_allow (caps, "dtype=int8,layout=mla-tiled")
          && !caps_allow (caps, "dtype=bfloat16,layout=contiguous")
          && caps_allow (caps, "representation=tensor-set");
    else
      src_ok = caps_allow (caps, "dtype=float32,layout=contiguous")
          && caps_allow (caps, "dtype=bfloat16,layout=strided")
          && !caps_allow (caps, "dtype=float16")
          && !caps_allow (caps, "layout=mla-tiled");
    gst_caps_unref (caps);
  }
  fail_unless (sink_ok && src_ok, "pad templates");
  gst_object_unref (e);
}
GST_END_TEST;

/* Random tile bytes (the padding channels too: DetessCast ignores them)
 * into each output dtype and view, compact / pad16 / cblock tiles, both
 * backends: every byte the oracle's, holes of a strided output untouched
 * (the pool's buffers are compared only where the oracle writes). */
GST_START_TEST (test_outputs)
{
  static const struct
  {
    const gchar *tiles, *out;
  } cases[] = {
    {TENSOR ",dtype=bfloat16,shape=(int)<6,10,20>,layout=mla-tiled,"
          "tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,4,8,16>,"
          "channels=pad16", TENSOR ",dtype=float32,layout=contiguous"},
    {TENSOR ",dtype=bfloat16,shape=(int)<6,10,20>,layout=mla-tiled,"
          "tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,4,8,16>,"
          "channels=compact", TENSOR ",dtype=bfloat16,layout=contiguous"},
    {TENSOR ",dtype=bfloat16,shape=(int)<4,8,40>,layout=mla-tiled,"
          "tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,2,4,48>,"
          "channels=pad16,cblock=true", TENSOR ",dtype=float32,"
          "layout=contiguous"},
    {TENSOR ",dtype=bfloat16,shape=(int)<3,5,7>,layout=mla-tiled,"
          "tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,2,4,16>,"
          "channels=pad16", TENSOR ",dtype=float32,layout=strided,"
          "strides=(gint64)<256,32,4>"},
  };
  guint i, b;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    for (b = 0; b < G_N_ELEMENTS (backends); b++) {
      gchar *desc = g_strdup_printf ("simadetesscast %s", backends[b]);
      SimaTensorSpec in = check_spec (cases[i].tiles), out;
      guint64 in_bytes = oracle_required_bytes (&in), out_bytes;
      GstBuffer *src = check_random_buffer (in_bytes, 30 + i), *res;
      GstMapInfo sm, rm;
      guint8 *want, *mask;
      guint64 k, bad = 0;
      gchar *err, *neg;
      GstCaps *caps;
      CheckHarness c;

      check_harness_new (&c, desc, cases[i].tiles, cases[i].out);
      res = gst_harness_push_and_pull (c.h, gst_buffer_ref (src));
      err = check_pop_message (&c, GST_MESSAGE_ERROR);
      fail_unless (res != NULL, "%s case %u: %s", desc, i, err);
      g_free (err);
      caps = gst_pad_get_current_caps (c.h->sinkpad);
      neg = gst_caps_to_string (caps);
      out = check_spec (neg);
      g_free (neg);
      gst_caps_unref (caps);
      out_bytes = oracle_required_bytes (&out);
      /* two references on different prefills: a byte both leave alone is
       * a hole, never compared */
      want = g_malloc (out_bytes);
      mask = g_malloc (out_bytes);
      memset (want, 0x00, out_bytes);
      memset (mask, 0xff, out_bytes);
      gst_buffer_map (src, &sm, GST_MAP_READ);
      oracle_detesscast (&in, sm.data, &out, want);
      oracle_detesscast (&in, sm.data, &out, mask);
      gst_buffer_unmap (src, &sm);
      fail_unless (gst_buffer_map (res, &rm, GST_MAP_READ));
      fail_unless (rm.size >= out_bytes);
      for (k = 0; k < out_bytes; k++)
        if (want[k] == mask[k] && rm.data[k] != want[k])
          bad++;
      fail_unless (bad == 0, "%s case %u: %" G_GUINT64_FORMAT " bytes differ",
          desc, i, bad);
      gst_buffer_unmap (res, &rm);
      gst_buffer_unref (res);
      gst_buffer_unref (src);
      g_free (want);
      g_free (mask);
      check_harness_free (&c);
      g_free (desc);
    }
}
GST_END_TEST;

/* Two BF16 heads in one buffer, one conversion: each member the oracle's
 * at the packed offsets the caps announce. */
GST_START_TEST (test_set)
{
  const gchar *in_caps = TENSOR ",representation=tensor-set,dtype=bfloat16,"
      "layout=mla-tiled,channels=pad16,tile-axes=(int)<-1,0,1,2>,"
      "shape=(int)<<8,8,16>,<4,4,80>>,tile-shape=(int)<<1,8,8,16>,"
      "<1,1,4,80>>";
  SimaTensorSpec t0 = check_spec (TENSOR ",dtype=bfloat16,shape=(int)<8,8,16>,"
      "layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,8,8,16>,"
      "channels=pad16");
  SimaTensorSpec t1 = check_spec (TENSOR ",dtype=bfloat16,shape=(int)<4,4,80>,"
      "layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,1,4,80>,"
      "channels=pad16");
  SimaTensorSpec o0 = check_spec (TENSOR ",dtype=float32,shape=(int)<8,8,16>");
  SimaTensorSpec o1 = check_spec (TENSOR ",dtype=float32,shape=(int)<4,4,80>");
  guint64 b0 = oracle_required_bytes (&t0), b1 = oracle_required_bytes (&t1);
  guint64 ob0 = oracle_required_bytes (&o0), ob1 = oracle_required_bytes (&o1);
  guint b;

  for (b = 0; b < G_N_ELEMENTS (backends); b++) {
    gchar *desc = g_strdup_printf ("simadetesscast %s", backends[b]);
    GstBuffer *src = check_random_buffer (b0 + b1, 77), *res;
    guint8 *want = g_malloc (ob0 + ob1);
    GstMapInfo sm;
    CheckHarness c;

    check_harness_new (&c, desc, in_caps, TENSOR ",representation=tensor-set,"
        "dtype=float32,layout=contiguous");
    res = gst_harness_push_and_pull (c.h, gst_buffer_ref (src));
    fail_unless (res != NULL, "%s", desc);
    gst_buffer_map (src, &sm, GST_MAP_READ);
    oracle_detesscast (&t0, sm.data, &o0, want);
    oracle_detesscast (&t1, sm.data + b0, &o1, want + ob0);
    gst_buffer_unmap (src, &sm);
    fail_unless (check_buffer_equals (res, want, ob0 + ob1), "%s", desc);
    gst_buffer_unref (res);
    gst_buffer_unref (src);
    g_free (want);
    check_harness_free (&c);
    g_free (desc);
  }
}
GST_END_TEST;

/* Caps the core refuses: one error with its message. A device without the
 * DetessCast capability: an error naming it, or the A65 with
 * fallback=a65. */
GST_START_TEST (test_refusals_and_fallback)
{
  CheckHarness c;
  GstBuffer *out;
  gchar *msg;
  gint active;

  check_harness_new (&c, "simadetesscast backend=a65", TENSOR
      ",dtype=bfloat16,shape=(int)<4,4,16>,layout=mla-tiled,"
      "tile-axes=(int)<-1,0,0,2>,tile-shape=(int)<1,2,2,16>,channels=pad16",
      NULL);
  fail_unless_equals_int (gst_harness_push (c.h, check_random_buffer (1024,
              1)), GST_FLOW_NOT_NEGOTIATED);
  msg = check_pop_message (&c, GST_MESSAGE_ERROR);
  fail_unless (msg && strstr (msg, "DetessCast cannot convert these caps: "
          "input tile-axes"), "%s", msg);
  g_free (msg);
  fail_unless ((msg = check_pop_message (&c, GST_MESSAGE_ERROR)) == NULL,
      "a second error: %s", msg);
  check_harness_free (&c);

  msg = check_start_error ("simadetesscast device=emulator:missing=52",
      GST_MESSAGE_ERROR);
  fail_unless (msg && strstr (msg, "simaai_kernels_ev74_detesscast_v1"),
      "%s", msg);
  g_free (msg);

  check_harness_new (&c, "simadetesscast device=emulator:missing=52 "
      "fallback=a65", TENSOR ",dtype=bfloat16,shape=(int)<4,4,16>,"
      "layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,2,2,16>,"
      "channels=pad16", NULL);
  out = gst_harness_push_and_pull (c.h, check_random_buffer (512, 2));
  fail_unless (out != NULL);
  gst_buffer_unref (out);
  g_object_get (check_harness_element (&c), "active-backend", &active, NULL);
  fail_unless_equals_int (active, 3);   /* a65-fallback */
  msg = check_pop_message (&c, GST_MESSAGE_WARNING);
  fail_unless (msg && strstr (msg, "simaai_kernels_ev74_detesscast_v1"),
      "%s", msg);
  g_free (msg);
  check_harness_free (&c);
}
GST_END_TEST;

/* A tee into two simadetesscast on one emulated device, started and
 * stopped again and again while jobs run: every cycle reaches EOS with
 * every buffer on both branches. */
static void
count_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer data)
{
  (void) sink;
  (void) buf;
  (void) pad;
  g_atomic_int_inc ((gint *) data);
}

GST_START_TEST (test_tee_and_state_changes)
{
  GstElement *pipe = gst_parse_launch ("simatensorsrc num-buffers=6 ! "
      TENSOR ",dtype=bfloat16,shape=(int)<16,16,24> ! simacasttess "
      "device=emulator ! tee name=t "
      "t. ! queue ! simadetesscast device=emulator ! fakesink name=a "
      "signal-handoffs=true "
      "t. ! queue ! simadetesscast device=emulator ! " TENSOR
      ",dtype=bfloat16 ! fakesink name=b signal-handoffs=true", NULL);
  GstElement *a, *b;
  gint count = 0;
  int i;

  fail_unless (pipe != NULL);
  a = gst_bin_get_by_name (GST_BIN (pipe), "a");
  b = gst_bin_get_by_name (GST_BIN (pipe), "b");
  g_signal_connect (a, "handoff", G_CALLBACK (count_handoff), &count);
  g_signal_connect (b, "handoff", G_CALLBACK (count_handoff), &count);
  for (i = 0; i < 6; i++) {
    GstMessage *msg;
    fail_if (gst_element_set_state (pipe, GST_STATE_PLAYING)
        == GST_STATE_CHANGE_FAILURE);
    msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe),
        10 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
        "cycle %d did not reach EOS", i);
    gst_message_unref (msg);
    fail_if (gst_element_set_state (pipe, GST_STATE_NULL)
        == GST_STATE_CHANGE_FAILURE);
    fail_unless_equals_int (g_atomic_int_get (&count), 12 * (i + 1));
  }
  /* and stopped in the middle of the stream */
  for (i = 0; i < 4; i++) {
    fail_if (gst_element_set_state (pipe, GST_STATE_PLAYING)
        == GST_STATE_CHANGE_FAILURE);
    g_usleep (2000 * i);
    fail_if (gst_element_set_state (pipe, GST_STATE_NULL)
        == GST_STATE_CHANGE_FAILURE);
  }
  gst_object_unref (a);
  gst_object_unref (b);
  gst_object_unref (pipe);
}
GST_END_TEST;

static Suite *
detesscast_suite (void)
{
  Suite *s = suite_create ("simadetesscast");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pads);
  tcase_add_test (tc, test_outputs);
  tcase_add_test (tc, test_set);
  tcase_add_test (tc, test_refusals_and_fallback);
  tcase_add_test (tc, test_tee_and_state_changes);
  return s;
}

GST_CHECK_MAIN (detesscast);
