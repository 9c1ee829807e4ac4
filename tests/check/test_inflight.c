/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * EV74 jobs in flight (the max-inflight property, issue 18): the converters
 * keep several jobs submitted and push their outputs in input order, from
 * the streaming thread (window full) or their retire thread (a job
 * retired while the streaming thread is elsewhere). Every output is
 * checked against the A65 backend's bytes, and its timestamps, offsets and
 * flags against the same stream at max-inflight=1; the order of buffers and
 * events is read at the element's src pad.
 *
 * Each test and what it asserts:
 *  - test_same_as_one_at_a_time: simaquanttess, simadetessdequant and
 *    simacasttess, max-inflight 1, 2, 4 and 16, on emulator workers=1,
 *    workers=4 and dma=deferred, 24 buffers (fd and system memory mixed,
 *    timestamps, offsets, DISCONT/DELTA_UNIT/MARKER flags): every run gives
 *    what max-inflight=1 gives (bytes, order, timestamps, offsets, flags),
 *    which is what backend=a65 gives, and EOS comes after the last buffer;
 *  - test_eos_drains: jobs provably in flight (a slowed device) when EOS
 *    arrives: every output is pushed before EOS, in order, correct;
 *  - test_discont_in_flight: a DISCONT input while jobs are in flight and
 *    the retire thread pushes: only its own output carries DISCONT;
 *  - test_renegotiate_in_flight: new caps (another shape) arrive while jobs
 *    of the old caps are in flight: their outputs go out before the new
 *    caps, every output equal to the A65's for its own caps;
 *  - test_params_in_flight: a conversion parameter changed while jobs are
 *    in flight applies only to the buffers pushed after the change; a
 *    tiling property renegotiates the output after the jobs in flight are
 *    out (their outputs before the new caps);
 *  - test_flush_in_flight: FLUSH_START/STOP with jobs in flight (a seek):
 *    after FLUSH_STOP only the new buffers' outputs arrive (none of the
 *    flushed ones), correct; a chain waiting in a full window returns
 *    FLUSHING at once; the flushed inputs are freed once their jobs retire;
 *  - test_state_cycles: PLAYING -> READY -> PLAYING three times with jobs in
 *    flight: each stop is prompt, no output of an earlier cycle comes out
 *    in a later one, the last cycle's outputs are all there and correct,
 *    and every input memory is freed in the end;
 *  - test_tee_two_elements: a tee into two simaquanttess (different
 *    multipliers) on one device, 4 jobs in flight each: every branch's
 *    outputs in order and equal to the A65's;
 *  - test_four_pipelines: 4 pipelines (QuantTess, QuantTess ! DetessDequant)
 *    with max-inflight 1, 2, 4 and 16, at once on one device: each
 *    identical to its A65 run;
 *  - test_fault_hang, test_fault_dma_error, test_fault_worker_failure:
 *    the 4th job (fault-after-jobs=3) hangs past the timeout, has a DMA
 *    error or loses a worker, with later jobs in flight: exactly one error
 *    message from the element, with the fault's text; the three outputs
 *    before it, correct, and nothing after it; a prompt stop; the hung
 *    job's input memory still alive after the stop (the device may touch
 *    it), and every input memory freed once the device is done (run in the
 *    ASan build: nothing freed early).
 *
 * Devices are shared per spec string within the process: a test that
 * slows or faults its device uses a spec of its own (an otherwise unused
 * local-kib value).
 */
#define _GNU_SOURCE
#include <simaai/kernels/ev74/device.h>
#include <string.h>

#include "ev74_testing.h"   /* sima_ev74_device_configure */
#include "check_util.h"

#define MS GST_MSECOND

/* larger than check_util's 8x16x3, so jobs take a while */
#define FLOAT_CAPS TENSOR ",dtype=float32,shape=(int)<48,80,3>," \
  "layout=contiguous"
#define TILE_CAPS TENSOR ",dtype=int8,shape=(int)<48,80,3>," \
  "layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,8,16,16>," \
  "channels=pad16"
#define FLOAT_CAPS_B TENSOR ",dtype=float32,shape=(int)<24,40,5>," \
  "layout=contiguous"
#define TILE_CAPS_B TENSOR ",dtype=int8,shape=(int)<24,40,5>," \
  "layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,8,16,16>," \
  "channels=pad16"

typedef struct
{
  const gchar *element;         /* with its required parameter */
  const gchar *caps, *caps_b;   /* input caps, and another shape */
} Op;

static const Op ops[] = {
  {"simaquanttess multiplier=64", FLOAT_CAPS, FLOAT_CAPS_B},
  {"simadetessdequant scale=0.0625", TILE_CAPS, TILE_CAPS_B},
  {"simacasttess", FLOAT_CAPS, FLOAT_CAPS_B},
};

/* ---- inputs -------------------------------------------------------------- */

static GstBuffer *
content_for (const gchar * caps, guint64 seed)
{
  SimaTensorSpec spec = check_spec (caps);
  guint64 bytes = check_required_bytes (&spec);

  if (spec.dtype == SIMA_DTYPE_INT8)
    return check_random_buffer (bytes, seed);
  return check_tensor_buffer (&spec, bytes, SIMA_PATTERN_RANDOM, seed);
}

/* Input i of a stream: even ones in the plugin's fd memory (imported),
 * odd ones in system memory (staged); timestamps, offsets and flags that
 * differ from buffer to buffer. */
static GstBuffer *
input_for (const gchar * caps, guint64 seed, guint i, GstClockTime base)
{
  GstBuffer *content = content_for (caps, seed + i), *buf;

  buf = i % 2 == 0 ? check_plugin_buffer (content, 0)
      : gst_buffer_copy_deep (content);
  gst_buffer_unref (content);
  GST_BUFFER_PTS (buf) = base + i * 10 * MS;
  GST_BUFFER_DTS (buf) = base + i * 10 * MS + (i % 3) * MS;
  GST_BUFFER_DURATION (buf) = 10 * MS;
  GST_BUFFER_OFFSET (buf) = i;
  GST_BUFFER_OFFSET_END (buf) = i + 1;
  if (i % 2 == 1)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DELTA_UNIT);
  if (i % 5 == 0)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_MARKER);
  if (i == 9)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DISCONT);
  return buf;
}

static gchar *
sha_of (GstBuffer * buf)
{
  GstMapInfo map;
  gchar *sha;

  if (!gst_buffer_map (buf, &map, GST_MAP_READ))
    return g_strdup ("unmappable");
  sha = g_compute_checksum_for_data (G_CHECKSUM_SHA256, map.data, map.size);
  gst_buffer_unmap (buf, &map);
  return sha;
}

/* What `element` with backend=a65 makes of content (SHA-256). */
static gchar *
a65_sha (const gchar * element, const gchar * caps, GstBuffer * content)
{
  gchar *desc = g_strdup_printf ("%s backend=a65", element), *sha;
  GstBuffer *out;
  CheckHarness c;

  check_harness_new (&c, desc, caps, NULL);
  out = gst_harness_push_and_pull (c.h, gst_buffer_ref (content));
  fail_unless (out != NULL, "%s gave no output", desc);
  sha = sha_of (out);
  gst_buffer_unref (out);
  check_harness_free (&c);
  g_free (desc);
  return sha;
}

static gchar *
a65_sha_of_input (const gchar * element, const gchar * caps, guint64 seed)
{
  GstBuffer *content = content_for (caps, seed);
  gchar *sha = a65_sha (element, caps, content);

  gst_buffer_unref (content);
  return sha;
}

/* ---- what leaves the element: the tap ------------------------------------ */

typedef struct
{
  GstClockTime pts, dts, duration;
  guint64 offset, offset_end;
  guint flags;
  gchar *sha;
} Out;

typedef struct
{
  GMutex lock;
  GArray *outs;                 /* Out, in push order */
  GString *order;               /* a letter per buffer or event */
  gchar *caps_after[8];         /* the caps of each CAPS event, in order */
  guint n_caps;
  GstElement *element;
} Tap;

static GstPadProbeReturn
tap_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Tap *t = data;

  (void) pad;
  g_mutex_lock (&t->lock);
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
    Out o = { GST_BUFFER_PTS (buf), GST_BUFFER_DTS (buf),
      GST_BUFFER_DURATION (buf), GST_BUFFER_OFFSET (buf),
      GST_BUFFER_OFFSET_END (buf), GST_BUFFER_FLAGS (buf), sha_of (buf)
    };
    g_array_append_val (t->outs, o);
    g_string_append_c (t->order, 'B');
  } else if (info->type & (GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM |
          GST_PAD_PROBE_TYPE_EVENT_FLUSH)) {
    GstEvent *ev = GST_PAD_PROBE_INFO_EVENT (info);
    gchar letter = '?';
    switch (GST_EVENT_TYPE (ev)) {
      case GST_EVENT_STREAM_START:
        letter = 's';
        break;
      case GST_EVENT_CAPS:{
        GstCaps *caps;
        letter = 'C';
        gst_event_parse_caps (ev, &caps);
        if (t->n_caps < G_N_ELEMENTS (t->caps_after))
          t->caps_after[t->n_caps++] = gst_caps_to_string (caps);
        break;
      }
      case GST_EVENT_SEGMENT:
        letter = 'S';
        break;
      case GST_EVENT_EOS:
        letter = 'E';
        break;
      case GST_EVENT_FLUSH_START:
        letter = 'F';
        break;
      case GST_EVENT_FLUSH_STOP:
        letter = 'f';
        break;
      case GST_EVENT_TAG:
        letter = 't';
        break;
      default:
        break;
    }
    g_string_append_c (t->order, letter);
  }
  g_mutex_unlock (&t->lock);
  return GST_PAD_PROBE_OK;
}

static void
tap_init (Tap * t, GstElement * element)
{
  GstPad *pad = gst_element_get_static_pad (element, "src");

  memset (t, 0, sizeof *t);
  g_mutex_init (&t->lock);
  t->outs = g_array_new (FALSE, TRUE, sizeof (Out));
  t->order = g_string_new (NULL);
  t->element = element;
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_EVENT_FLUSH,
      tap_probe, t, NULL);
  gst_object_unref (pad);
}

static void
tap_clear (Tap * t)
{
  guint i;

  for (i = 0; i < t->outs->len; i++)
    g_free (g_array_index (t->outs, Out, i).sha);
  g_array_free (t->outs, TRUE);
  g_string_free (t->order, TRUE);
  for (i = 0; i < t->n_caps; i++)
    g_free (t->caps_after[i]);
  g_mutex_clear (&t->lock);
}

static guint
tap_count (Tap * t)
{
  guint n;

  g_mutex_lock (&t->lock);
  n = t->outs->len;
  g_mutex_unlock (&t->lock);
  return n;
}

static Out *
tap_out (Tap * t, guint i)
{
  return &g_array_index (t->outs, Out, i);
}

/* The buffers and EOS at the src pad, without the stream-start, caps,
 * segment and tag events: e.g. "BBBBE". */
static gchar *
tap_flow (Tap * t)
{
  GString *s = g_string_new (NULL);
  const gchar *c;

  for (c = t->order->str; *c; c++)
    if (strchr ("BEFfC", *c))
      g_string_append_c (s, *c);
  return g_string_free (s, FALSE);
}

/* got's outputs equal want's: bytes, and, with meta, timestamps, offsets
 * and flags. */
static void
assert_same (Tap * want, Tap * got, gboolean meta, const gchar * what)
{
  guint i;

  fail_unless_equals_int (got->outs->len, want->outs->len);
  for (i = 0; i < want->outs->len; i++) {
    Out *a = tap_out (want, i), *b = tap_out (got, i);
    fail_unless (strcmp (a->sha, b->sha) == 0, "%s: output %u differs in "
        "its bytes", what, i);
    if (!meta)
      continue;
    fail_unless (a->pts == b->pts && a->dts == b->dts
        && a->duration == b->duration, "%s: output %u: timestamps %"
        GST_TIME_FORMAT "/%" GST_TIME_FORMAT " instead of %" GST_TIME_FORMAT
        "/%" GST_TIME_FORMAT, what, i, GST_TIME_ARGS (b->pts),
        GST_TIME_ARGS (b->dts), GST_TIME_ARGS (a->pts),
        GST_TIME_ARGS (a->dts));
    fail_unless (a->offset == b->offset && a->offset_end == b->offset_end,
        "%s: output %u: offsets differ", what, i);
    fail_unless_equals_int_hex (b->flags, a->flags);
  }
}

/* ---- pipelines ----------------------------------------------------------- */

static gchar *
message_text (GstMessage * msg)
{
  GError *err = NULL;
  gchar *debug = NULL, *text;

  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ERROR)
    return g_strdup (GST_MESSAGE_TYPE_NAME (msg));
  gst_message_parse_error (msg, &err, &debug);
  text = g_strdup_printf ("error from %s: %s (%s)",
      GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message,
      debug ? debug : "");
  g_error_free (err);
  g_free (debug);
  return text;
}

/* appsrc (n inputs queued, then EOS) ! element name=e ! fakesink, to EOS:
 * NULL, or what happened instead. The tap sees e's src pad. */
static gchar *
run_stream (const gchar * element, const gchar * caps, guint n, guint64 seed,
    Tap * tap)
{
  gchar *desc = g_strdup_printf ("appsrc name=src format=time ! %s name=e ! "
      "fakesink sync=false", element);
  GstElement *pipe = gst_parse_launch (desc, NULL), *src, *e;
  GstCaps *c = gst_caps_from_string (caps);
  GstFlowReturn ret;
  GstMessage *msg;
  GstBus *bus;
  gchar *error = NULL;
  guint i;

  fail_unless (pipe != NULL, "cannot make %s", desc);
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  e = gst_bin_get_by_name (GST_BIN (pipe), "e");
  g_object_set (src, "caps", c, NULL);
  tap_init (tap, e);
  for (i = 0; i < n; i++) {
    GstBuffer *buf = input_for (caps, seed, i, 0);
    g_signal_emit_by_name (src, "push-buffer", buf, &ret);
    gst_buffer_unref (buf);
  }
  g_signal_emit_by_name (src, "end-of-stream", &ret);
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (msg == NULL)
    error = g_strdup ("no EOS within 60 s");
  else if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_EOS)
    error = message_text (msg);
  if (msg != NULL)
    gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
  gst_object_unref (src);
  gst_object_unref (pipe);
  gst_caps_unref (c);
  g_free (desc);
  return error;
}

/* ---- a slowed device ----------------------------------------------------- */

/* A device of its own whose every job stalls hang_ms first (one worker:
 * one job at a time), so that jobs are in flight for sure while a test
 * pushes events and buffers. The timeout stays far above. */
static SimaEv74Device *
slow_device (const gchar * spec, guint hang_ms)
{
  SimaEv74Device *dev = NULL;
  gchar *options = g_strdup_printf ("fault=hang,hang-ms=%u", hang_ms);

  fail_unless (sima_ev74_device_open (spec, &dev).code == SIMA_OK);
  fail_unless (sima_ev74_device_configure (dev, options).code == SIMA_OK);
  g_free (options);
  return dev;
}

static void
slow_device_done (SimaEv74Device * dev)
{
  sima_ev74_device_configure (dev, "fault=none");
  sima_ev74_device_unref (dev);
}

/* ---- tests --------------------------------------------------------------- */

#define N_STREAM 24

GST_START_TEST (test_same_as_one_at_a_time)
{
  static const gchar *devices[] = { "emulator:workers=1",
    "emulator:workers=4", "emulator:workers=2,dma=deferred"
  };
  static const guint windows[] = { 2, 4, 16 };
  guint op, d, w;

  for (op = 0; op < G_N_ELEMENTS (ops); op++) {
    gchar *desc = g_strdup_printf ("%s backend=a65", ops[op].element);
    gchar *error, *flow;
    Tap a65;

    error = run_stream (desc, ops[op].caps, N_STREAM, 500 + op, &a65);
    fail_unless (error == NULL, "%s: %s", desc, error);
    fail_unless_equals_int (a65.outs->len, N_STREAM);
    g_free (desc);
    for (d = 0; d < G_N_ELEMENTS (devices); d++) {
      Tap one;

      desc = g_strdup_printf ("%s device=%s max-inflight=1", ops[op].element,
          devices[d]);
      error = run_stream (desc, ops[op].caps, N_STREAM, 500 + op, &one);
      fail_unless (error == NULL, "%s: %s", desc, error);
      /* the EV74 one buffer at a time: the A65's bytes, and the same
       * metadata as the A65's synchronous path */
      assert_same (&a65, &one, TRUE, desc);
      g_free (desc);
      for (w = 0; w < G_N_ELEMENTS (windows); w++) {
        Tap got;

        desc = g_strdup_printf ("%s device=%s max-inflight=%u",
            ops[op].element, devices[d], windows[w]);
        error = run_stream (desc, ops[op].caps, N_STREAM, 500 + op, &got);
        fail_unless (error == NULL, "%s: %s", desc, error);
        assert_same (&one, &got, TRUE, desc);
        /* every buffer, then EOS */
        flow = tap_flow (&got);
        fail_unless (g_str_has_suffix (flow, "BE") && strchr (flow, 'E')
            == flow + strlen (flow) - 1, "%s: %s at the src pad", desc, flow);
        g_free (flow);
        tap_clear (&got);
        g_free (desc);
      }
      tap_clear (&one);
    }
    tap_clear (&a65);
  }
}
GST_END_TEST;

/* Pushes n inputs of `caps` (seeds seed..) into the harness; checks nothing. */
static void
push_inputs (CheckHarness * c, const gchar * caps, guint64 seed, guint n,
    GstClockTime base)
{
  guint i;

  for (i = 0; i < n; i++)
    fail_unless_equals_int (gst_harness_push (c->h, input_for (caps, seed, i,
                base)), GST_FLOW_OK);
}

/* Outputs from..from+n of tap against the A65 of seeds seed.. of caps. */
static void
assert_outputs (Tap * tap, guint from, const gchar * element,
    const gchar * caps, guint64 seed, guint n, GstClockTime base,
    const gchar * what)
{
  guint i;

  fail_unless (tap->outs->len >= from + n, "%s: %u outputs, not %u", what,
      tap->outs->len, from + n);
  for (i = 0; i < n; i++) {
    gchar *want = a65_sha_of_input (element, caps, seed + i);
    Out *o = tap_out (tap, from + i);
    fail_unless (strcmp (want, o->sha) == 0, "%s: output %u differs from "
        "the A65's", what, from + i);
    fail_unless_equals_uint64 (o->pts, base + i * 10 * MS);
    g_free (want);
  }
}

GST_START_TEST (test_eos_drains)
{
  const gchar *spec = "emulator:workers=1,local-kib=101";
  SimaEv74Device *dev = slow_device (spec, 150);
  guint op;

  for (op = 0; op < 2; op++) {
    gchar *desc = g_strdup_printf ("%s device=%s max-inflight=8",
        ops[op].element, spec), *flow;
    CheckHarness c;
    guint before;
    Tap tap;

    check_harness_new (&c, desc, ops[op].caps, NULL);
    tap_init (&tap, check_harness_element (&c));
    push_inputs (&c, ops[op].caps, 600, 5, 0);
    before = tap_count (&tap);
    /* 5 jobs of 150 ms each on one worker: most are still in flight */
    fail_unless (before < 5, "%s: all %u outputs out before EOS: nothing "
        "was in flight", desc, before);
    fail_unless (gst_harness_push_event (c.h, gst_event_new_eos ()));
    flow = tap_flow (&tap);
    /* (the harness's first caps went out before the tap) */
    fail_unless_equals_string (flow, "BBBBBE");
    assert_outputs (&tap, 0, ops[op].element, ops[op].caps, 600, 5, 0, desc);
    g_free (flow);
    check_harness_free (&c);
    tap_clear (&tap);
    g_free (desc);
  }
  slow_device_done (dev);
}
GST_END_TEST;

/* A DISCONT input with jobs in flight: GstBaseTransform marks the next
 * output its chain pushes DISCONT, so that must be this buffer's own (with
 * the retire thread pushing outputs too, an earlier or a later output
 * could otherwise get the flag). */
GST_START_TEST (test_discont_in_flight)
{
  const gchar *spec = "emulator:workers=1,local-kib=106";
  SimaEv74Device *dev = slow_device (spec, 60);
  gchar *desc = g_strdup_printf ("%s device=%s max-inflight=4",
      ops[0].element, spec), *flow;
  CheckHarness c;
  guint i;
  Tap tap;

  check_harness_new (&c, desc, ops[0].caps, NULL);
  tap_init (&tap, check_harness_element (&c));
  for (i = 0; i < 8; i++) {
    GstBuffer *buf = input_for (ops[0].caps, 650, i, 0);
    GST_BUFFER_FLAGS (buf) = 0;
    if (i == 3)
      GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DISCONT);
    fail_unless_equals_int (gst_harness_push (c.h, buf), GST_FLOW_OK);
    if (i == 3)
      g_usleep (300000);        /* the retire thread has time to push */
    if (i == 6)                 /* and jobs are in flight again after it */
      fail_unless (tap_count (&tap) < 6, "outputs were out right after their "
          "pushes: nothing in flight after a discontinuity");
  }
  fail_unless (gst_harness_push_event (c.h, gst_event_new_eos ()));
  flow = tap_flow (&tap);
  fail_unless_equals_string (flow, "BBBBBBBBE");
  assert_outputs (&tap, 0, ops[0].element, ops[0].caps, 650, 8, 0, desc);
  for (i = 0; i < 8; i++)
    fail_unless_equals_int (! !(tap_out (&tap, i)->flags &
            GST_BUFFER_FLAG_DISCONT), i == 3);
  g_free (flow);
  check_harness_free (&c);
  tap_clear (&tap);
  g_free (desc);
  slow_device_done (dev);
}
GST_END_TEST;

GST_START_TEST (test_renegotiate_in_flight)
{
  const gchar *spec = "emulator:workers=1,local-kib=102";
  SimaEv74Device *dev = slow_device (spec, 100);
  guint op;

  for (op = 0; op < 2; op++) {
    gchar *desc = g_strdup_printf ("%s device=%s max-inflight=4",
        ops[op].element, spec), *flow;
    CheckHarness c;
    guint before;
    Tap tap;

    check_harness_new (&c, desc, ops[op].caps, NULL);
    tap_init (&tap, check_harness_element (&c));
    push_inputs (&c, ops[op].caps, 700, 3, 0);
    before = tap_count (&tap);
    fail_unless (before < 3, "%s: nothing in flight at the new caps", desc);
    gst_harness_set_src_caps_str (c.h, ops[op].caps_b);
    push_inputs (&c, ops[op].caps_b, 710, 3, GST_SECOND);
    fail_unless (gst_harness_push_event (c.h, gst_event_new_eos ()));
    /* the old caps' outputs before the new caps, then the new ones */
    flow = tap_flow (&tap);
    fail_unless_equals_string (flow, "BBBCBBBE");
    assert_outputs (&tap, 0, ops[op].element, ops[op].caps, 700, 3, 0, desc);
    assert_outputs (&tap, 3, ops[op].element, ops[op].caps_b, 710, 3,
        GST_SECOND, desc);
    /* the second caps are the new shape's */
    fail_unless_equals_int (tap.n_caps, 1);
    fail_unless (strstr (tap.caps_after[0], "24, 40, 5") != NULL, "%s: new "
        "output caps %s", desc, tap.caps_after[0]);
    g_free (flow);
    check_harness_free (&c);
    tap_clear (&tap);
    g_free (desc);
  }
  slow_device_done (dev);
}
GST_END_TEST;

GST_START_TEST (test_params_in_flight)
{
  static const struct
  {
    guint op;
    const gchar *property, *value, *after, *flow;
  } changes[] = {
    {0, "multiplier", "100", "simaquanttess multiplier=100", "BBBBBBE"},
    {0, "zero-point", "-7", "simaquanttess multiplier=64 zero-point=-7",
        "BBBBBBE"},
    {1, "scale", "0.5", "simadetessdequant scale=0.5", "BBBBBBE"},
    /* a tiling property: the element renegotiates its output before the
     * next buffer (in set_caps), after the jobs in flight are out */
    {2, "tile-shape", "<1,8,8,16>", "simacasttess tile-shape=\"<1,8,8,16>\"",
        "BBBCBBBE"},
  };
  const gchar *spec = "emulator:workers=1,local-kib=103";
  SimaEv74Device *dev = slow_device (spec, 100);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (changes); i++) {
    const Op *op = &ops[changes[i].op];
    gchar *desc = g_strdup_printf ("%s device=%s max-inflight=4",
        op->element, spec), *flow;
    CheckHarness c;
    Tap tap;

    check_harness_new (&c, desc, op->caps, NULL);
    tap_init (&tap, check_harness_element (&c));
    push_inputs (&c, op->caps, 800, 3, 0);
    fail_unless (tap_count (&tap) < 3, "%s: nothing in flight", desc);
    gst_util_set_object_arg (G_OBJECT (check_harness_element (&c)),
        changes[i].property, changes[i].value);
    push_inputs (&c, op->caps, 810, 3, GST_SECOND);
    fail_unless (gst_harness_push_event (c.h, gst_event_new_eos ()));
    flow = tap_flow (&tap);
    fail_unless_equals_string (flow, changes[i].flow);
    /* the jobs in flight keep the old value, the later ones the new */
    assert_outputs (&tap, 0, op->element, op->caps, 800, 3, 0, desc);
    assert_outputs (&tap, 3, changes[i].after, op->caps, 810, 3, GST_SECOND,
        changes[i].after);
    g_free (flow);
    check_harness_free (&c);
    tap_clear (&tap);
    g_free (desc);
  }
  slow_device_done (dev);
}
GST_END_TEST;

typedef struct
{
  CheckHarness *c;
  GstBuffer *buf;
  GstFlowReturn ret;
  gint64 returned;              /* monotonic us */
} Pusher;

static gpointer
push_thread (gpointer data)
{
  Pusher *p = data;

  p->ret = gst_harness_push (p->c->h, p->buf);
  p->returned = g_get_monotonic_time ();
  return NULL;
}

static void
note_freed (gpointer data, GstMiniObject * obj)
{
  (void) obj;
  g_atomic_int_inc ((gint *) data);
}

GST_START_TEST (test_flush_in_flight)
{
  const gchar *spec = "emulator:workers=1,local-kib=104";
  SimaEv74Device *dev = slow_device (spec, 200);
  gchar *desc = g_strdup_printf ("%s device=%s max-inflight=3",
      ops[0].element, spec), *flow, *msg, *after;
  gint freed = 0;
  GstSegment segment;
  GThread *thread;
  CheckHarness c;
  Pusher p;
  gint64 flushed;
  guint i, before;
  Tap tap;

  check_harness_new (&c, desc, ops[0].caps, NULL);
  tap_init (&tap, check_harness_element (&c));
  /* two in flight (fd memories watched), then a third push waits for the
   * oldest in a full window, from a thread */
  for (i = 0; i < 2; i++) {
    GstBuffer *buf = input_for (ops[0].caps, 900, 2 * i, 0);
    gst_mini_object_weak_ref (GST_MINI_OBJECT_CAST (gst_buffer_peek_memory
            (buf, 0)), note_freed, &freed);
    fail_unless_equals_int (gst_harness_push (c.h, buf), GST_FLOW_OK);
  }
  p.c = &c;
  p.buf = input_for (ops[0].caps, 900, 4, 0);
  gst_mini_object_weak_ref (GST_MINI_OBJECT_CAST (gst_buffer_peek_memory
          (p.buf, 0)), note_freed, &freed);
  thread = g_thread_new ("push", push_thread, &p);
  g_usleep (50000);
  before = tap_count (&tap);
  fail_unless (before == 0, "%u outputs before the flush", before);
  flushed = g_get_monotonic_time ();
  fail_unless (gst_harness_push_event (c.h, gst_event_new_flush_start ()));
  g_thread_join (thread);
  fail_unless_equals_int (p.ret, GST_FLOW_FLUSHING);
  fail_unless (p.returned - flushed < G_USEC_PER_SEC, "the waiting chain "
      "returned %.2f s after FLUSH_START", (p.returned - flushed) / 1e6);
  /* the device still holds them: not freed while it may touch them */
  fail_unless (g_atomic_int_get (&freed) < 3, "every flushed input was "
      "freed at once, while jobs were still on the device");
  fail_unless (gst_harness_push_event (c.h, gst_event_new_flush_stop (TRUE)));
  /* the window is given up, its jobs are not done: still held (3 jobs of
   * 200 ms each on one worker) */
  fail_unless (g_atomic_int_get (&freed) < 3, "the flushed inputs were "
      "freed at FLUSH_STOP, while jobs were still on the device");
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (c.h, gst_event_new_segment (&segment)));
  push_inputs (&c, ops[0].caps, 950, 4, 5 * GST_SECOND);
  fail_unless (gst_harness_push_event (c.h, gst_event_new_eos ()));
  msg = check_pop_message (&c, GST_MESSAGE_ERROR);
  fail_unless (msg == NULL, "a flush posted an error: %s", msg);
  /* after FLUSH_STOP: the 4 new outputs, none of the flushed ones */
  flow = tap_flow (&tap);
  after = strchr (flow, 'f');
  fail_unless (after != NULL && strcmp (after, "fBBBBE") == 0, "at the src "
      "pad: %s", flow);
  assert_outputs (&tap, tap.outs->len - 4, ops[0].element, ops[0].caps, 950,
      4, 5 * GST_SECOND, "after the flush");
  check_harness_free (&c);
  /* the flushed inputs go once the device retired their jobs */
  for (i = 0; i < 500 && g_atomic_int_get (&freed) < 3; i++)
    g_usleep (10000);
  fail_unless_equals_int (g_atomic_int_get (&freed), 3);
  g_free (flow);
  tap_clear (&tap);
  g_free (desc);
  slow_device_done (dev);
}
GST_END_TEST;

GST_START_TEST (test_state_cycles)
{
  const gchar *spec = "emulator:workers=1,local-kib=105";
  SimaEv74Device *dev = slow_device (spec, 150);
  gchar *desc = g_strdup_printf ("appsrc name=src format=time ! %s "
      "device=%s max-inflight=4 name=e ! fakesink sync=false",
      ops[0].element, spec);
  GstElement *pipe = gst_parse_launch (desc, NULL), *src, *e;
  GstCaps *caps = gst_caps_from_string (ops[0].caps);
  gint freed = 0, watched = 0;
  GstFlowReturn ret;
  GstMessage *msg;
  guint cycle, i, k;
  Tap tap;

  fail_unless (pipe != NULL);
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  e = gst_bin_get_by_name (GST_BIN (pipe), "e");
  g_object_set (src, "caps", caps, NULL);
  tap_init (&tap, e);
  for (cycle = 0; cycle < 4; cycle++) {
    gboolean last = cycle == 3;
    guint first_out = tap_count (&tap);
    gint64 t0;

    fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING)
        != GST_STATE_CHANGE_FAILURE);
    for (i = 0; i < 5; i++) {
      GstBuffer *buf = input_for (ops[0].caps, 1000 + 10 * cycle, i,
          cycle * 10 * GST_SECOND);
      if (i % 2 == 0) {
        gst_mini_object_weak_ref (GST_MINI_OBJECT_CAST
            (gst_buffer_peek_memory (buf, 0)), note_freed, &freed);
        watched++;
      }
      g_signal_emit_by_name (src, "push-buffer", buf, &ret);
      gst_buffer_unref (buf);
    }
    if (last) {
      g_signal_emit_by_name (src, "end-of-stream", &ret);
      msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe),
          30 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
      fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
          "the last cycle did not reach EOS");
      gst_message_unref (msg);
      /* all 5 of this cycle, correct, and nothing older */
      fail_unless_equals_int (tap_count (&tap) - first_out, 5);
      assert_outputs (&tap, first_out, ops[0].element, ops[0].caps,
          1000 + 10 * cycle, 5, cycle * 10 * GST_SECOND, "last cycle");
    } else {
      /* a first output, then stop with jobs in flight */
      for (k = 0; k < 300 && tap_count (&tap) == first_out; k++)
        g_usleep (10000);
      t0 = g_get_monotonic_time ();
      fail_unless (gst_element_set_state (pipe, GST_STATE_READY)
          == GST_STATE_CHANGE_SUCCESS);
      fail_unless (g_get_monotonic_time () - t0 < G_USEC_PER_SEC,
          "PLAYING -> READY took %.2f s with jobs in flight",
          (g_get_monotonic_time () - t0) / 1e6);
      fail_unless (tap_count (&tap) - first_out < 5, "cycle %u: nothing "
          "was in flight at the stop", cycle);
    }
    /* every output of this cycle is one of its own inputs, in order */
    for (i = first_out; i < tap_count (&tap); i++)
      fail_unless_equals_uint64 (tap_out (&tap, i)->pts,
          cycle * 10 * GST_SECOND + (i - first_out) * 10 * MS);
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (e);
  gst_object_unref (src);
  gst_object_unref (pipe);
  for (k = 0; k < 500 && g_atomic_int_get (&freed) < watched; k++)
    g_usleep (10000);
  fail_unless_equals_int (g_atomic_int_get (&freed), watched);
  tap_clear (&tap);
  gst_caps_unref (caps);
  g_free (desc);
  slow_device_done (dev);
}
GST_END_TEST;

GST_START_TEST (test_tee_two_elements)
{
  const gchar *spec = "emulator:workers=2";
  gchar *desc = g_strdup_printf ("appsrc name=src format=time ! tee name=t "
      "t. ! queue ! simaquanttess multiplier=64 device=%s max-inflight=4 "
      "name=e0 ! fakesink sync=false "
      "t. ! queue ! simaquanttess multiplier=100 device=%s max-inflight=4 "
      "name=e1 ! fakesink sync=false", spec, spec);
  const gchar *refs[2] = { "simaquanttess multiplier=64",
    "simaquanttess multiplier=100"
  };
  GstElement *pipe = gst_parse_launch (desc, NULL), *src, *e[2];
  GstCaps *caps = gst_caps_from_string (FLOAT_CAPS);
  GstFlowReturn ret;
  GstMessage *msg;
  Tap tap[2];
  guint i, k;

  fail_unless (pipe != NULL);
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  g_object_set (src, "caps", caps, NULL);
  for (k = 0; k < 2; k++) {
    gchar *name = g_strdup_printf ("e%u", k);
    e[k] = gst_bin_get_by_name (GST_BIN (pipe), name);
    tap_init (&tap[k], e[k]);
    g_free (name);
  }
  for (i = 0; i < N_STREAM; i++) {
    GstBuffer *buf = input_for (FLOAT_CAPS, 1100, i, 0);
    g_signal_emit_by_name (src, "push-buffer", buf, &ret);
    gst_buffer_unref (buf);
  }
  g_signal_emit_by_name (src, "end-of-stream", &ret);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe), 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
      "%s", msg ? message_text (msg) : "no EOS");
  gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  for (k = 0; k < 2; k++) {
    fail_unless_equals_int (tap[k].outs->len, N_STREAM);
    assert_outputs (&tap[k], 0, refs[k], FLOAT_CAPS, 1100, N_STREAM, 0,
        refs[k]);
    gst_object_unref (e[k]);
    tap_clear (&tap[k]);
  }
  gst_object_unref (src);
  gst_object_unref (pipe);
  gst_caps_unref (caps);
  g_free (desc);
}
GST_END_TEST;

/* ---- 4 pipelines on one device ------------------------------------------- */

#define N_PIPELINES 4
#define PIPELINE_BUFFERS 30

typedef struct
{
  gchar *desc;
  GPtrArray *hashes;
  GArray *pts;
  gchar *error;
} Run;

static GstFlowReturn
collect (GstElement * sink, gpointer data)
{
  Run *r = data;
  GstSample *sample = NULL;
  GstBuffer *buf;
  GstClockTime pts;

  g_signal_emit_by_name (sink, "pull-sample", &sample);
  if (sample == NULL)
    return GST_FLOW_ERROR;
  buf = gst_sample_get_buffer (sample);
  g_ptr_array_add (r->hashes, sha_of (buf));
  pts = GST_BUFFER_PTS (buf);
  g_array_append_val (r->pts, pts);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

static gpointer
run_pipeline (gpointer data)
{
  Run *r = data;
  GstElement *pipe = gst_parse_launch (r->desc, NULL), *sink;
  GstMessage *msg;

  r->hashes = g_ptr_array_new_with_free_func (g_free);
  r->pts = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
  if (pipe == NULL) {
    r->error = g_strdup ("cannot parse");
    return NULL;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  g_signal_connect (sink, "new-sample", G_CALLBACK (collect), r);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe), 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (msg == NULL)
    r->error = g_strdup ("no EOS within 120 s");
  else if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_EOS)
    r->error = message_text (msg);
  if (msg != NULL)
    gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  return NULL;
}

static gchar *
pipeline_desc (guint k, const gchar * where)
{
  static const guint windows[N_PIPELINES] = { 1, 2, 4, 16 };
  gchar *ops_desc, *desc, *w;

  w = g_str_has_prefix (where, "device") ? g_strdup_printf ("%s "
      "max-inflight=%u", where, windows[k]) : g_strdup (where);
  if (k % 2 == 0)
    ops_desc = g_strdup_printf ("simaquanttess multiplier=%u %s", 64 + k, w);
  else
    ops_desc = g_strdup_printf ("simaquanttess multiplier=64 %s ! "
        "simadetessdequant scale=0.015625 %s", w, w);
  desc = g_strdup_printf ("simatensorsrc pattern=random seed=%u "
      "num-buffers=%u ! " TENSOR ",dtype=float32,shape=(int)<%u,%u,3> ! %s ! "
      "appsink name=sink sync=false emit-signals=true", 40 + k,
      PIPELINE_BUFFERS, 32 + 8 * k, 48 + 16 * k, ops_desc);
  g_free (ops_desc);
  g_free (w);
  return desc;
}

static void
run_clear (Run * r)
{
  g_free (r->desc);
  g_free (r->error);
  if (r->hashes != NULL)
    g_ptr_array_unref (r->hashes);
  if (r->pts != NULL)
    g_array_unref (r->pts);
}

GST_START_TEST (test_four_pipelines)
{
  Run a65[N_PIPELINES], together[N_PIPELINES];
  GThread *threads[N_PIPELINES];
  guint k, i;

  memset (a65, 0, sizeof a65);
  memset (together, 0, sizeof together);
  for (k = 0; k < N_PIPELINES; k++) {
    a65[k].desc = pipeline_desc (k, "backend=a65");
    together[k].desc = pipeline_desc (k, "device=emulator:workers=4");
    run_pipeline (&a65[k]);
    fail_unless (a65[k].error == NULL, "%s: %s", a65[k].desc, a65[k].error);
  }
  for (k = 0; k < N_PIPELINES; k++)
    threads[k] = g_thread_new ("pipeline", run_pipeline, &together[k]);
  for (k = 0; k < N_PIPELINES; k++)
    g_thread_join (threads[k]);
  for (k = 0; k < N_PIPELINES; k++) {
    fail_unless (together[k].error == NULL, "%s: %s", together[k].desc,
        together[k].error);
    fail_unless_equals_int (together[k].hashes->len, PIPELINE_BUFFERS);
    fail_unless_equals_int (a65[k].hashes->len, PIPELINE_BUFFERS);
    for (i = 0; i < PIPELINE_BUFFERS; i++) {
      fail_unless (strcmp (g_ptr_array_index (a65[k].hashes, i),
              g_ptr_array_index (together[k].hashes, i)) == 0,
          "%s: output %u differs from the A65's", together[k].desc, i);
      fail_unless_equals_uint64 (g_array_index (together[k].pts,
              GstClockTime, i), g_array_index (a65[k].pts, GstClockTime, i));
    }
    run_clear (&a65[k]);
    run_clear (&together[k]);
  }
}
GST_END_TEST;

/* ---- faults with jobs in flight ------------------------------------------ */

#define FAULT_INPUTS 10

/* Every error message posted, counted as it is posted (a sync handler). */
typedef struct
{
  GMutex lock;
  guint from_element, others;
  gchar *first;                 /* the element's first error text */
} Errors;

/* ---- a bounded downstream pool ------------------------------------------ */

/* Downstream (the harness) proposes a pool of exactly 2 buffers of the
 * plugin's fd memory (importable: the element keeps it) and, like a sink
 * with its last sample, holds the last output it got. With 2 jobs in
 * flight the third input's output buffer can only come back when the
 * second output goes out: before the fix the streaming thread waited in
 * the pool holding the stream lock the retire thread needed to push it. */
typedef struct
{
  GstBufferPool *pool;
  GstBuffer *last;
  guint got;
} Bounded;

static GstPadProbeReturn
bounded_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Bounded *b = data;

  (void) pad;
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    gst_clear_buffer (&b->last);
    b->last = gst_buffer_ref (GST_PAD_PROBE_INFO_BUFFER (info));
    b->got++;
    return GST_PAD_PROBE_DROP;
  }
  if (GST_QUERY_TYPE (GST_PAD_PROBE_INFO_QUERY (info)) == GST_QUERY_ALLOCATION) {
    GstQuery *q = GST_PAD_PROBE_INFO_QUERY (info);
    GstAllocator *a = check_plugin_allocator ();
    GstStructure *config;
    GstCaps *caps;

    gst_query_parse_allocation (q, &caps, NULL);
    if (b->pool == NULL) {
      b->pool = gst_buffer_pool_new ();
      config = gst_buffer_pool_get_config (b->pool);
      gst_buffer_pool_config_set_params (config, caps, 1 << 20, 2, 2);
      gst_buffer_pool_config_set_allocator (config, a, NULL);
      fail_unless (gst_buffer_pool_set_config (b->pool, config));
    }
    gst_query_add_allocation_pool (q, b->pool, 1 << 20, 2, 2);
    gst_query_add_allocation_param (q, a, NULL);
    gst_object_unref (a);
    return GST_PAD_PROBE_HANDLED;
  }
  return GST_PAD_PROBE_OK;
}

GST_START_TEST (test_bounded_downstream_pool)
{
  const gchar *caps = ops[0].caps;
  gchar *desc = g_strdup_printf ("%s device=emulator:workers=1 "
      "max-inflight=2", ops[0].element);
  Bounded b = { NULL, NULL, 0 };
  CheckHarness c;
  Tap tap;

  check_harness_new (&c, desc, caps, NULL);
  gst_pad_add_probe (c.h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER
      | GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, bounded_probe, &b, NULL);
  /* the element asks again, now of the probe, before its next buffer */
  fail_unless (gst_pad_push_event (c.h->sinkpad,
          gst_event_new_reconfigure ()));
  tap_init (&tap, check_harness_element (&c));
  /* a deadlock stops here (the test's timeout) */
  push_inputs (&c, caps, 900, 8, 0);
  fail_unless (gst_harness_push_event (c.h, gst_event_new_eos ()));
  fail_unless (b.pool != NULL, "the harness was never asked for a pool");
  fail_unless_equals_int (b.got, 8);
  assert_outputs (&tap, 0, ops[0].element, caps, 900, 8, 0, desc);
  gst_clear_buffer (&b.last);
  check_harness_free (&c);
  tap_clear (&tap);
  gst_object_unref (b.pool);
  g_free (desc);
}
GST_END_TEST;

static GstBusSyncReply
count_errors (GstBus * bus, GstMessage * msg, gpointer data)
{
  Errors *e = data;

  (void) bus;
  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ERROR)
    return GST_BUS_PASS;
  g_mutex_lock (&e->lock);
  if (g_strcmp0 (GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), "e") == 0) {
    if (e->from_element++ == 0) {
      GError *err = NULL;
      gst_message_parse_error (msg, &err, NULL);
      e->first = g_strdup (err->message);
      g_error_free (err);
    }
  } else {
    e->others++;
  }
  g_mutex_unlock (&e->lock);
  return GST_BUS_PASS;
}

/* The 4th job fails (fault-after-jobs=3) with the later ones in flight. */
static void
fault_in_flight (const gchar * spec, const gchar * extra, const gchar * text,
    gboolean hangs)
{
  gchar *desc = g_strdup_printf ("appsrc name=src format=time ! "
      "simaquanttess multiplier=64 device=%s max-inflight=4 %s name=e ! "
      "fakesink sync=false", spec, extra);
  GstElement *pipe = gst_parse_launch (desc, NULL), *src, *e;
  GstCaps *caps = gst_caps_from_string (FLOAT_CAPS);
  gint freed[FAULT_INPUTS];
  GstFlowReturn ret;
  GstBus *bus;
  Errors errors;
  guint i, k, n;
  gint64 t0;
  Tap tap;

  fail_unless (pipe != NULL);
  memset (&errors, 0, sizeof errors);
  g_mutex_init (&errors.lock);
  bus = gst_element_get_bus (pipe);
  gst_bus_set_sync_handler (bus, count_errors, &errors, NULL);
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  e = gst_bin_get_by_name (GST_BIN (pipe), "e");
  g_object_set (src, "caps", caps, NULL);
  tap_init (&tap, e);
  for (i = 0; i < FAULT_INPUTS; i++) {
    /* every input in the plugin's fd memory, watched */
    GstBuffer *content = content_for (FLOAT_CAPS, 1200 + i);
    GstBuffer *buf = check_plugin_buffer (content, 0);
    GST_BUFFER_PTS (buf) = i * 10 * MS;
    freed[i] = 0;
    gst_mini_object_weak_ref (GST_MINI_OBJECT_CAST (gst_buffer_peek_memory
            (buf, 0)), note_freed, &freed[i]);
    g_signal_emit_by_name (src, "push-buffer", buf, &ret);
    gst_buffer_unref (buf);
    gst_buffer_unref (content);
  }
  g_signal_emit_by_name (src, "end-of-stream", &ret);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (k = 0; k < 3000; k++) {
    g_mutex_lock (&errors.lock);
    n = errors.from_element;
    g_mutex_unlock (&errors.lock);
    if (n > 0)
      break;
    g_usleep (10000);
  }
  g_usleep (300000);            /* anything more the element would post */
  t0 = g_get_monotonic_time ();
  fail_unless (gst_element_set_state (pipe, GST_STATE_NULL)
      == GST_STATE_CHANGE_SUCCESS);
  fail_unless (g_get_monotonic_time () - t0 < G_USEC_PER_SEC, "%s: the stop "
      "took %.2f s", desc, (g_get_monotonic_time () - t0) / 1e6);
  /* the hung job's input: still held, the device may read it */
  if (hangs)
    fail_unless (g_atomic_int_get (&freed[3]) == 0, "%s: the hung job's "
        "input was freed while the device could still read it", desc);
  /* exactly one error from the element, the fault's (appsrc adds
   * GStreamer's "Internal data stream error" as it stops) */
  g_mutex_lock (&errors.lock);
  fail_unless_equals_int (errors.from_element, 1);
  fail_unless (errors.first != NULL && strstr (errors.first, text) != NULL,
      "%s: error %s", desc, errors.first);
  g_mutex_unlock (&errors.lock);
  /* the outputs before the fault, correct; none after it */
  fail_unless_equals_int (tap.outs->len, 3);
  assert_outputs (&tap, 0, "simaquanttess multiplier=64", FLOAT_CAPS, 1200,
      3, 0, desc);
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
  gst_object_unref (src);
  gst_object_unref (pipe);
  /* once the device is done, every input is freed, each once */
  for (k = 0; k < 600; k++) {
    n = 0;
    for (i = 0; i < FAULT_INPUTS; i++)
      n += g_atomic_int_get (&freed[i]) > 0;
    if (n == FAULT_INPUTS)
      break;
    g_usleep (10000);
  }
  for (i = 0; i < FAULT_INPUTS; i++)
    fail_unless (g_atomic_int_get (&freed[i]) == 1, "%s: input %u was never "
        "freed", desc, i);
  g_free (errors.first);
  g_mutex_clear (&errors.lock);
  tap_clear (&tap);
  gst_caps_unref (caps);
  g_free (desc);
}

GST_START_TEST (test_fault_hang)
{
  fault_in_flight ("emulator:workers=2,local-kib=110,fault=hang,"
      "hang-ms=1500,fault-after-jobs=3", "timeout=200",
      "did not finish within 200 ms", TRUE);
}
GST_END_TEST;

GST_START_TEST (test_fault_dma_error)
{
  fault_in_flight ("emulator:workers=2,local-kib=111,fault=dma-error,"
      "fault-after-commands=1,fault-after-jobs=3", "",
      "a DMA transfer failed", FALSE);
}
GST_END_TEST;

GST_START_TEST (test_fault_worker_failure)
{
  fault_in_flight ("emulator:workers=2,local-kib=112,fault=worker-failure,"
      "fault-after-jobs=3", "", "stopped (injected worker failure)", FALSE);
}
GST_END_TEST;

static Suite *
inflight_suite (void)
{
  Suite *s = suite_create ("inflight");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_same_as_one_at_a_time);
  tcase_add_test (tc, test_eos_drains);
  tcase_add_test (tc, test_discont_in_flight);
  tcase_add_test (tc, test_renegotiate_in_flight);
  tcase_add_test (tc, test_params_in_flight);
  tcase_add_test (tc, test_flush_in_flight);
  tcase_add_test (tc, test_state_cycles);
  tcase_add_test (tc, test_tee_two_elements);
  tcase_add_test (tc, test_four_pipelines);
  tcase_add_test (tc, test_fault_hang);
  tcase_add_test (tc, test_fault_dma_error);
  tcase_add_test (tc, test_fault_worker_failure);
  tcase_add_test (tc, test_bounded_downstream_pool);
  return s;
}

GST_CHECK_MAIN (inflight);
