/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The simalatency tracer, the timing meta and the LATENCY query:
 *  - with the tracer active, a pipeline of N buffers yields exactly N
 *    records per converter, none for other elements, with plausible
 *    values: device time > 0 and <= the element's latency on the EV74,
 *    the bytes the caps imply, 0 copies with DMA-BUF input and 1 per
 *    buffer with system memory, a65 and a65-fallback backends named;
 *  - the summary prints once per converter at stop, its count, mean and
 *    maximum equal to the records' and its percentiles within the
 *    histogram's 0.8 %;
 *  - the options are parsed (summary=true next to an unknown option);
 *  - each output buffer carries exactly one timing meta, its producer's;
 *  - the LATENCY query of a live pipeline adds each converter's measured
 *    processing latency; a non-live one is left alone;
 *  - converters replaced (relinked, removed and freed) while buffers flow:
 *    the hooks hold what they look at (ASan and TSan builds check it).
 * The program sets GST_TRACERS itself before gst_init.
 */
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "sima/gstsimatimingmeta.h"

#define N_BUFFERS 12
#define CAPS_64 TENSOR ",dtype=float32,shape=(int)<64,64,3>"
/* 64x64x3 float32, and its H8/W16/C16 pad16 tiles: 32 tiles of 2 KiB */
#define BYTES_F32 (64 * 64 * 3 * 4)
#define BYTES_TILES (32 * 8 * 16 * 16)

/* ---- capturing records and printed text -------------------------------- */

static GMutex capture_lock;
static GPtrArray *records;      /* GstStructure * */
static guint unparsable;        /* records gst_structure_from_string refused */
static GString *printed;

static void
capture_log (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  const gchar *text;

  (void) user_data;
  if (strcmp (gst_debug_category_get_name (category), "GST_TRACER") != 0) {
    gst_debug_log_default (category, level, file, function, line, object,
        message, NULL);
    return;
  }
  text = gst_debug_message_get (message);
  if (level == GST_LEVEL_TRACE && g_str_has_prefix (text, "simalatency,")) {
    /* streaming threads log: count here, assert in the test's thread */
    GstStructure *s = gst_structure_from_string (text, NULL);
    g_mutex_lock (&capture_lock);
    if (s != NULL)
      g_ptr_array_add (records, s);
    else
      unparsable++;
    g_mutex_unlock (&capture_lock);
  }
}

static void
capture_print (const gchar * text)
{
  g_mutex_lock (&capture_lock);
  g_string_append (printed, text);
  g_mutex_unlock (&capture_lock);
}

static void
capture_reset (void)
{
  g_mutex_lock (&capture_lock);
  g_ptr_array_set_size (records, 0);
  unparsable = 0;
  g_string_truncate (printed, 0);
  g_mutex_unlock (&capture_lock);
}

/* The records of one element, in order. */
static GPtrArray *
records_of (const gchar * element)
{
  GPtrArray *mine = g_ptr_array_new ();
  guint i;

  for (i = 0; i < records->len; i++) {
    GstStructure *s = g_ptr_array_index (records, i);
    if (g_strcmp0 (gst_structure_get_string (s, "element"), element) == 0)
      g_ptr_array_add (mine, s);
  }
  return mine;
}

static guint64
u64 (const GstStructure * s, const gchar * field)
{
  guint64 v = 0;
  fail_unless (gst_structure_get_uint64 (s, field, &v), "record lacks %s",
      field);
  return v;
}

static guint
u32 (const GstStructure * s, const gchar * field)
{
  guint v = 0;
  fail_unless (gst_structure_get_uint (s, field, &v), "record lacks %s",
      field);
  return v;
}

/* ---- pipelines ---------------------------------------------------------- */

/* Runs to EOS (failing on an error), leaving the pipeline in PLAYING. */
static void
play_to_eos (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
      != GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no EOS within 60 s");
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gst_message_parse_error (msg, &err, NULL);
    fail ("pipeline error: %s", err->message);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
}

static void
run_pipeline (const gchar * description)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (description, &err);

  fail_unless (pipeline != NULL, "%s: %s", description,
      err ? err->message : "?");
  play_to_eos (pipeline);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

/* Checks the N records of `element`: op, backend, bytes, copies per
 * buffer; process time > 0 and inside the latency; times increasing. */
static void
check_records (const gchar * element, const gchar * op, const gchar * backend,
    guint64 bytes_in, guint64 bytes_out, guint copies)
{
  GPtrArray *mine = records_of (element);
  guint64 last_ts = 0, estimated = 0;
  guint i;

  fail_unless_equals_int (unparsable, 0);
  fail_unless_equals_int (mine->len, N_BUFFERS);
  for (i = 0; i < mine->len; i++) {
    GstStructure *s = g_ptr_array_index (mine, i);
    guint64 latency = u64 (s, "latency-ns"), process = u64 (s, "process-ns");
    fail_unless_equals_string (gst_structure_get_string (s, "op"), op);
    fail_unless_equals_string (gst_structure_get_string (s, "backend"),
        backend);
    fail_unless_equals_uint64 (u64 (s, "bytes-in"), bytes_in);
    fail_unless_equals_uint64 (u64 (s, "bytes-out"), bytes_out);
    fail_unless_equals_int (u32 (s, "copies"), copies);
    fail_unless (process > 0, "%s record %u: process-ns 0", element, i);
    fail_unless (latency >= process, "%s record %u: latency %" G_GUINT64_FORMAT
        " < process %" G_GUINT64_FORMAT, element, i, latency, process);
    fail_unless (latency < 10 * GST_SECOND);
    fail_unless (u64 (s, "cpu-ns") > 0);
    fail_unless (u64 (s, "ts") > last_ts);
    last_ts = u64 (s, "ts");
    /* the device model's estimate: the same job geometry every buffer,
     * so the same estimate; none on the A65 */
    if (g_str_equal (backend, "ev74")) {
      if (i == 0)
        estimated = u64 (s, "estimated-device-ns");
      fail_unless (estimated > 0, "%s: estimated-device-ns 0", element);
      fail_unless_equals_uint64 (u64 (s, "estimated-device-ns"), estimated);
    } else {
      fail_unless_equals_uint64 (u64 (s, "estimated-device-ns"), 0);
    }
  }
  g_ptr_array_unref (mine);
}

/* ---- tests -------------------------------------------------------------- */

GST_START_TEST (test_records_ev74_dmabuf)
{
  capture_reset ();
  /* identity and queue are not ours: no records for them; the source
   * fills buffers of the pool quant proposes, so nothing is copied */
  run_pipeline ("simatensorsrc num-buffers=" G_STRINGIFY (N_BUFFERS) " ! "
      CAPS_64 " ! identity name=ident ! simaquanttess name=quant "
      "multiplier=64 device=emulator ! queue name=q ! simadetessdequant "
      "name=detess scale=0.015625 device=emulator:workers=2 ! fakesink");
  fail_unless_equals_int (records->len, 2 * N_BUFFERS);
  check_records ("quant", "QuantTess", "ev74", BYTES_F32, BYTES_TILES, 0);
  check_records ("detess", "DetessDequant", "ev74", BYTES_TILES, BYTES_F32,
      0);
}

GST_END_TEST;

GST_START_TEST (test_records_system_memory)
{
  GstElement *pipeline, *appsrc;
  guint i;

  capture_reset ();
  pipeline = gst_parse_launch ("appsrc name=src caps=\"" CAPS_64 "\" ! "
      "simaquanttess name=quant multiplier=64 device=emulator ! fakesink",
      NULL);
  fail_unless (pipeline != NULL);
  appsrc = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
      != GST_STATE_CHANGE_FAILURE);
  for (i = 0; i < N_BUFFERS; i++) {
    GstBuffer *buf = gst_buffer_new_wrapped (g_malloc0 (BYTES_F32),
        BYTES_F32);
    GstFlowReturn ret;
    g_signal_emit_by_name (appsrc, "push-buffer", buf, &ret);
    gst_buffer_unref (buf);
    fail_unless_equals_int (ret, GST_FLOW_OK);
  }
  {
    GstFlowReturn ret;
    g_signal_emit_by_name (appsrc, "end-of-stream", &ret);
  }
  gst_object_unref (appsrc);
  {
    GstBus *bus = gst_element_get_bus (pipeline);
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
    gst_message_unref (msg);
    gst_object_unref (bus);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  /* every buffer of malloc'd memory is copied into a DMA-BUF once */
  check_records ("quant", "QuantTess", "ev74", BYTES_F32, BYTES_TILES, 1);
}

GST_END_TEST;

GST_START_TEST (test_records_a65_backends)
{
  capture_reset ();
  run_pipeline ("simatensorsrc num-buffers=" G_STRINGIFY (N_BUFFERS) " ! "
      CAPS_64 " ! simaquanttess name=quant multiplier=64 backend=a65 ! "
      "simadetessdequant name=detess scale=0.015625 "
      "device=emulator:missing=all fallback=a65 ! fakesink");
  fail_unless_equals_int (records->len, 2 * N_BUFFERS);
  check_records ("quant", "QuantTess", "a65", BYTES_F32, BYTES_TILES, 0);
  check_records ("detess", "DetessDequant", "a65-fallback", BYTES_TILES,
      BYTES_F32, 0);
}

GST_END_TEST;

/* The number after " key=" in a summary line. */
static gdouble
summary_value (const gchar * line, const gchar * key)
{
  gchar *pattern = g_strdup_printf (" %s=", key);
  const gchar *at = strstr (line, pattern);
  gdouble v;

  fail_unless (at != NULL, "summary line lacks %s: %s", key, line);
  v = g_ascii_strtod (at + strlen (pattern), NULL);
  g_free (pattern);
  return v;
}

static int
compare_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

/* The summary line of `element` against its records. */
static void
check_summary (const gchar * element)
{
  gchar *prefix = g_strdup_printf ("simalatency: element=%s ", element);
  const gchar *line = strstr (printed->str, prefix);
  gchar *end, *text, *expect;
  GPtrArray *mine = records_of (element);
  guint64 *latency = g_new (guint64, mine->len), sum = 0;
  guint i, n = mine->len;
  gdouble p50, p99;

  fail_unless (line != NULL, "no summary for %s in: %s", element,
      printed->str);
  fail_unless (n > 0, "no records for %s", element);
  fail_unless (strstr (line + 1, prefix) == NULL, "two summaries for %s",
      element);
  end = strchr (line, '\n');
  text = g_strndup (line, end - line);
  for (i = 0; i < n; i++) {
    latency[i] = u64 (g_ptr_array_index (mine, i), "latency-ns");
    sum += latency[i];
  }
  qsort (latency, n, sizeof *latency, compare_u64);
  expect = g_strdup_printf (" buffers=%u latency-us: mean=%.1f ", n,
      sum / 1e3 / n);
  fail_unless (strstr (text, expect) != NULL, "%s lacks '%s'", text, expect);
  g_free (expect);
  expect = g_strdup_printf (" max=%.1f ", latency[n - 1] / 1e3);
  fail_unless (strstr (text, expect) != NULL, "%s lacks '%s'", text, expect);
  g_free (expect);
  /* rank ceil(p * n), 1-based: the histogram may say up to 1/128 more */
  p50 = summary_value (text, "p50");
  p99 = summary_value (text, "p99");
  fail_unless (p50 >= latency[(n + 1) / 2 - 1] / 1e3 - 0.05
      && p50 <= latency[(n + 1) / 2 - 1] / 1e3 * (1 + 1.0 / 128) + 0.05,
      "%s: p50 off", text);
  fail_unless (p50 <= p99);
  /* of 12 values, the 99th percentile is the largest: exact */
  expect = g_strdup_printf (" p99=%.1f ", latency[n - 1] / 1e3);
  fail_unless (strstr (text, expect) != NULL, "%s lacks '%s'", text, expect);
  g_free (expect);
  g_free (latency);
  g_free (text);
  g_free (prefix);
  g_ptr_array_unref (mine);
}

GST_START_TEST (test_summary_prints)
{
  capture_reset ();
  run_pipeline ("simatensorsrc num-buffers=" G_STRINGIFY (N_BUFFERS) " ! "
      CAPS_64 " ! simaquanttess name=quant multiplier=64 device=emulator ! "
      "simadetessdequant name=detess scale=0.015625 backend=a65 ! "
      "identity ! fakesink");
  check_summary ("quant");
  check_summary ("detess");
  fail_unless (strstr (printed->str, "element=identity") == NULL);
  fail_unless (strstr (printed->str, "op=QuantTess backend=ev74") != NULL);
  fail_unless (strstr (printed->str, "op=DetessDequant backend=a65 ") != NULL);
}

GST_END_TEST;

GST_START_TEST (test_options_parsed)
{
  GList *tracers = gst_tracing_get_active_tracers (), *l;
  guint found = 0;

  for (l = tracers; l != NULL; l = l->next) {
    if (g_strcmp0 (G_OBJECT_TYPE_NAME (l->data), "GstSimaLatencyTracer") == 0) {
      gboolean summary = FALSE;
      g_object_get (l->data, "summary", &summary, NULL);
      /* GST_TRACERS also holds an unknown option: it is only warned of */
      fail_unless (summary);
      found++;
    }
  }
  fail_unless_equals_int (found, 1);
  g_list_free_full (tracers, gst_object_unref);
}

GST_END_TEST;

static guint
timing_metas (GstBuffer * buf)
{
  GType api = gst_meta_get_info (GST_SIMA_TIMING_META_NAME)->api;
  gpointer state = NULL;
  guint n = 0;

  while (gst_buffer_iterate_meta_filtered (buf, &state, api) != NULL)
    n++;
  return n;
}

/* Counts the buffers whose timing meta is right (in the streaming thread,
 * where a failed assertion would not reach the test: the test compares
 * the count). */
static GstPadProbeReturn
expect_timing (GstPad * pad, GstPadProbeInfo * info, gpointer producer)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstSimaTiming t;

  gboolean empty = gst_buffer_get_size (buf) == 0;

  /* an empty tensor needs no device job: no bytes, no time */
  if (gst_sima_buffer_get_timing (buf, &t)
      && g_strcmp0 (t.element, (const gchar *) producer) == 0
      && timing_metas (buf) == 1
      && (empty ? t.bytes_in == 0 && t.bytes_out == 0
          : t.process_ns > 0 && t.bytes_in > 0 && t.bytes_out > 0))
    g_atomic_int_inc ((gint *) g_object_get_data (G_OBJECT (pad), "seen"));
  return GST_PAD_PROBE_OK;
}

/* Each converter's output carries exactly its own timing meta, for
 * tensors with data and for empty ones (a buffer without memory). */
static void
check_meta_is_its_producers (const gchar * caps)
{
  gchar *description = g_strdup_printf ("simatensorsrc num-buffers="
      G_STRINGIFY (N_BUFFERS) " ! %s ! simaquanttess name=quant "
      "multiplier=64 device=emulator ! simadetessdequant name=detess "
      "scale=0.015625 device=emulator ! fakesink name=sink", caps);
  GstElement *pipeline = gst_parse_launch (description, NULL);
  GstElement *detess = gst_bin_get_by_name (GST_BIN (pipeline), "detess");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstPad *mid = gst_element_get_static_pad (detess, "sink");
  GstPad *end = gst_element_get_static_pad (sink, "sink");
  gint seen_mid = 0, seen_end = 0;

  g_object_set_data (G_OBJECT (mid), "seen", &seen_mid);
  g_object_set_data (G_OBJECT (end), "seen", &seen_end);
  gst_pad_add_probe (mid, GST_PAD_PROBE_TYPE_BUFFER, expect_timing, "quant",
      NULL);
  /* detess's output holds detess's meta only: quant's is not copied */
  gst_pad_add_probe (end, GST_PAD_PROBE_TYPE_BUFFER, expect_timing, "detess",
      NULL);
  play_to_eos (pipeline);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  fail_unless_equals_int (seen_mid, N_BUFFERS);
  fail_unless_equals_int (seen_end, N_BUFFERS);
  gst_object_unref (mid);
  gst_object_unref (end);
  gst_object_unref (detess);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (description);
}

GST_START_TEST (test_meta_is_its_producers)
{
  check_meta_is_its_producers (CAPS_64);
  check_meta_is_its_producers (TENSOR ",dtype=float32,shape=(int)<0,16,3>");
}

GST_END_TEST;

/* A buffer list pushed into a converter: one record per buffer, each
 * buffer's latency measured from the end of the previous one's push. */
GST_START_TEST (test_records_buffer_list)
{
  GstElement *pipeline, *appsrc;
  GstBufferList *list = gst_buffer_list_new ();
  GPtrArray *mine;
  GstFlowReturn ret;
  GstBus *bus;
  GstMessage *msg;
  guint i;

  capture_reset ();
  pipeline = gst_parse_launch ("appsrc name=src caps=\"" CAPS_64 "\" ! "
      "simaquanttess name=quant multiplier=64 backend=a65 ! fakesink", NULL);
  fail_unless (pipeline != NULL);
  appsrc = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
      != GST_STATE_CHANGE_FAILURE);
  for (i = 0; i < 4; i++)
    gst_buffer_list_add (list, gst_buffer_new_wrapped (g_malloc0 (BYTES_F32),
            BYTES_F32));
  g_signal_emit_by_name (appsrc, "push-buffer-list", list, &ret);
  gst_buffer_list_unref (list);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  g_signal_emit_by_name (appsrc, "end-of-stream", &ret);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (appsrc);
  gst_object_unref (pipeline);

  mine = records_of ("quant");
  fail_unless_equals_int (mine->len, 4);
  for (i = 0; i < mine->len; i++) {
    GstStructure *s = g_ptr_array_index (mine, i);
    fail_unless (u64 (s, "latency-ns") >= u64 (s, "process-ns"));
    fail_unless (u64 (s, "process-ns") > 0);
  }
  g_ptr_array_unref (mine);
}

GST_END_TEST;

static GstClockTime
processing_latency (GstElement * pipeline, const gchar * name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), name);
  guint64 v;

  fail_unless (e != NULL);
  g_object_get (e, "processing-latency", &v, NULL);
  gst_object_unref (e);
  return v;
}

/* The LATENCY answer after the converters (detess's src pad), and of the
 * source alone. */
static void
query_latency (GstElement * pipeline, gboolean * live, GstClockTime * min,
    GstClockTime * max, GstClockTime * src_min)
{
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstElement *detess = gst_bin_get_by_name (GST_BIN (pipeline), "detess");
  GstPad *src_pad = gst_element_get_static_pad (src, "src");
  GstPad *out_pad = gst_element_get_static_pad (detess, "src");
  GstQuery *q = gst_query_new_latency ();
  gboolean src_live;

  fail_unless (src_pad != NULL && out_pad != NULL);
  fail_unless (gst_pad_query (out_pad, q));
  gst_query_parse_latency (q, live, min, max);
  gst_query_unref (q);
  q = gst_query_new_latency ();
  fail_unless (gst_pad_query (src_pad, q));
  gst_query_parse_latency (q, &src_live, src_min, NULL);
  fail_unless_equals_int (src_live, *live);
  gst_query_unref (q);
  gst_object_unref (src_pad);
  gst_object_unref (out_pad);
  gst_object_unref (detess);
  gst_object_unref (src);
}

static const gchar *latency_pipeline = "simatensorsrc name=src is-live=%s "
    "frame-duration=5000000 num-buffers=" G_STRINGIFY (N_BUFFERS) " ! "
    CAPS_64 " ! simaquanttess name=quant multiplier=64 device=emulator ! "
    "simadetessdequant name=detess scale=0.015625 backend=a65 ! "
    "fakesink sync=true";

GST_START_TEST (test_latency_query_live)
{
  gchar *description = g_strdup_printf (latency_pipeline, "true");
  GstElement *pipeline = gst_parse_launch (description, NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstClockTime min, max, src_min, quant, detess;
  gboolean live;
  GstMessage *msg;

  play_to_eos (pipeline);
  /* the sinks heard of no trouble with the latency */
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg == NULL);
  /* the stream is over: the measured latencies no longer change */
  quant = processing_latency (pipeline, "quant");
  detess = processing_latency (pipeline, "detess");
  fail_unless (quant > 0 && detess > 0);
  query_latency (pipeline, &live, &min, &max, &src_min);
  fail_unless (live);
  fail_unless_equals_uint64 (min, src_min + quant + detess);
  fail_unless_equals_uint64 (max, GST_CLOCK_TIME_NONE);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (description);
}

GST_END_TEST;

GST_START_TEST (test_latency_query_not_live)
{
  gchar *description = g_strdup_printf (latency_pipeline, "false");
  GstElement *pipeline = gst_parse_launch (description, NULL);
  GstClockTime min, max, src_min;
  gboolean live;

  play_to_eos (pipeline);
  fail_unless (processing_latency (pipeline, "quant") > 0);
  query_latency (pipeline, &live, &min, &max, &src_min);
  fail_if (live);
  fail_unless_equals_uint64 (min, src_min);     /* nothing added */
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  g_free (description);
}

GST_END_TEST;

static guint
latency_messages (CheckHarness * c)
{
  GstMessage *msg;
  guint n = 0;

  while ((msg = gst_bus_pop_filtered (c->bus, GST_MESSAGE_LATENCY)) != NULL) {
    n++;
    gst_message_unref (msg);
  }
  return n;
}

/* Once a live pipeline has asked, a converter whose processing latency
 * grows tells it (LATENCY message) and answers the next query with it. */
GST_START_TEST (test_latency_grows_announced)
{
  SimaTensorSpec spec = check_spec (CAPS_64 ",layout=contiguous");
  CheckHarness c;
  GstElement *quant;
  GstClockTime measured;

  check_harness_new (&c, "simaquanttess multiplier=64 device=emulator",
      CAPS_64, NULL);
  quant = check_harness_element (&c);
  gst_harness_set_upstream_latency (c.h, 3 * GST_MSECOND);
  fail_unless_equals_uint64 (gst_harness_query_latency (c.h),
      3 * GST_MSECOND);         /* nothing measured yet */
  fail_unless_equals_int (latency_messages (&c), 0);
  gst_buffer_unref (gst_harness_push_and_pull (c.h,
          check_tensor_buffer (&spec, BYTES_F32,
              SIMA_PATTERN_RAMP, 1)));
  g_object_get (quant, "processing-latency", &measured, NULL);
  fail_unless (measured > 0);
  fail_unless_equals_int (latency_messages (&c), 1);
  fail_unless_equals_uint64 (gst_harness_query_latency (c.h),
      3 * GST_MSECOND + measured);
  check_harness_free (&c);
}

GST_END_TEST;

/* Keeps the errors only: other messages would hold references to the
 * elements that posted them. A sync handler unrefs what it drops. */
static GstBusSyncReply
keep_errors (GstBus * bus, GstMessage * message, gpointer user_data)
{
  (void) bus;
  (void) user_data;
  if (GST_MESSAGE_TYPE (message) == GST_MESSAGE_ERROR)
    return GST_BUS_PASS;
  gst_message_unref (message);
  return GST_BUS_DROP;
}

/* Relinks a tee pad to another converter, from an IDLE probe: no buffer
 * is then on its way to the old one, which can stop without the tee
 * returning FLUSHING (and the source pausing). */
typedef struct
{
  GstPad *old, *new;
  gint done;
} Swap;

static gboolean
resend_sticky (GstPad * pad, GstEvent ** event, gpointer peer)
{
  (void) pad;
  gst_pad_send_event (peer, gst_event_ref (*event));
  return TRUE;
}

/* The tee's sticky events (stream-start, caps, segment) go to the new
 * converter here, before any buffer: GStreamer 1.22 marks them for
 * resending on the link, but when an identical CAPS event reaches the tee
 * at that moment (its upstream renegotiates on the RECONFIGURE the link
 * sends), the new peer was seen to get the SEGMENT and not the CAPS, and
 * its first buffer failed as not negotiated (about half the runs on a
 * loaded machine). */
static GstPadProbeReturn
swap_peer (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Swap *swap = data;
  gboolean linked = TRUE;

  (void) info;
  if (swap->old != NULL)
    gst_pad_unlink (pad, swap->old);
  if (swap->new != NULL) {
    linked = gst_pad_link (pad, swap->new) == GST_PAD_LINK_OK;
    if (linked)
      gst_pad_sticky_events_foreach (pad, resend_sticky, swap->new);
  }
  g_atomic_int_set (&swap->done, linked ? 1 : -1);
  return GST_PAD_PROBE_REMOVE;
}

/* Retires an unlinked converter and its sink: stopped, removed and freed
 * (the bin held the only references). */
static void
retire (GstElement * pipeline, GstElement * converter, GstElement * sink)
{
  GObject *weak = G_OBJECT (converter);
  guint i;

  g_object_add_weak_pointer (weak, (gpointer *) & weak);
  gst_element_set_state (converter, GST_STATE_NULL);
  gst_element_set_state (sink, GST_STATE_NULL);
  gst_bin_remove_many (GST_BIN (pipeline), converter, sink, NULL);
  /* the tracer holds a converter only inside a hook: give it time */
  for (i = 0; weak != NULL && i < 1000; i++)
    g_usleep (1000);
  fail_unless (weak == NULL, "a retired converter is still referenced");
}

#define N_SWAPS 40

/* While a source pushes through a tee, the tee's src pad is relinked from
 * one converter to a new one, and the old one is removed and freed: the
 * push hooks read the pad's peer and the peer's parent from the streaming
 * thread meanwhile. Every record is a converter's, and buffers keep
 * flowing through the swaps. */
GST_START_TEST (test_converters_replaced_while_flowing)
{
  GstElement *pipeline = gst_parse_launch ("simatensorsrc ! " CAPS_64 " ! "
      "tee name=t allow-not-linked=true", NULL);
  GstElement *tee = gst_bin_get_by_name (GST_BIN (pipeline), "t");
  GstPad *tee_src = gst_element_request_pad_simple (tee, "src_%u");
  GstElement *converter = NULL, *sink = NULL;
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *error;
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint i;

  capture_reset ();
  gst_bus_set_sync_handler (bus, keep_errors, NULL, NULL);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
      != GST_STATE_CHANGE_FAILURE);
  for (i = 0; i < N_SWAPS; i++) {
    gchar *name = g_strdup_printf ("swap%u", i);
    GstElement *c = gst_element_factory_make ("simaquanttess", name);
    GstElement *s = gst_element_factory_make ("fakesink", NULL);
    Swap swap = { NULL, gst_element_get_static_pad (c, "sink"), 0 };
    guint k;

    gst_util_set_object_arg (G_OBJECT (c), "multiplier", "64");
    gst_util_set_object_arg (G_OBJECT (c), "backend", "a65");
    g_object_set (s, "async", FALSE, NULL);
    gst_bin_add_many (GST_BIN (pipeline), c, s, NULL);
    fail_unless (gst_element_link (c, s));
    fail_unless (gst_element_sync_state_with_parent (s));
    fail_unless (gst_element_sync_state_with_parent (c));
    /* relinked while the tee pushes */
    if (converter != NULL)
      swap.old = gst_element_get_static_pad (converter, "sink");
    gst_pad_add_probe (tee_src, GST_PAD_PROBE_TYPE_IDLE, swap_peer, &swap,
        NULL);
    for (k = 0; g_atomic_int_get (&swap.done) == 0 && k < 5000; k++)
      g_usleep (1000);
    fail_unless_equals_int (g_atomic_int_get (&swap.done), 1);
    gst_object_unref (swap.new);
    if (swap.old != NULL)
      gst_object_unref (swap.old);
    if (converter != NULL)
      retire (pipeline, converter, sink);
    converter = c;
    sink = s;
    g_usleep (5000);            /* some buffers go through */
    g_free (name);
  }
  /* the last one leaves the same way before the pipeline stops: shutting
   * down with the tee still pushing into it raced with its pad's
   * deactivation inside GStreamer ("data flow before stream-start") */
  {
    Swap last = { gst_element_get_static_pad (converter, "sink"), NULL, 0 };
    guint k;

    gst_pad_add_probe (tee_src, GST_PAD_PROBE_TYPE_IDLE, swap_peer, &last,
        NULL);
    for (k = 0; g_atomic_int_get (&last.done) == 0 && k < 5000; k++)
      g_usleep (1000);
    fail_unless_equals_int (g_atomic_int_get (&last.done), 1);
    gst_object_unref (last.old);
    retire (pipeline, converter, sink);
  }
  error = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_element_release_request_pad (tee, tee_src);
  gst_object_unref (tee_src);
  gst_object_unref (tee);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  if (error != NULL) {
    GError *err = NULL;
    gchar *debug = NULL;
    gst_message_parse_error (error, &err, &debug);
    fail ("pipeline error: %s (%s)", err->message, debug);
  }

  g_mutex_lock (&capture_lock);
  fail_unless_equals_int (unparsable, 0);
  fail_unless (records->len > 0, "no records");
  for (i = 0; i < records->len; i++) {
    GstStructure *s = g_ptr_array_index (records, i);
    const gchar *element = gst_structure_get_string (s, "element");
    fail_unless (g_str_has_prefix (element, "swap"), "a record of %s",
        element);
    fail_unless_equals_string (gst_structure_get_string (s, "backend"),
        "a65");
    fail_unless (u64 (s, "latency-ns") >= u64 (s, "process-ns")
        || u64 (s, "latency-ns") == 0);
    g_hash_table_add (seen, (gpointer) element);
  }
  /* 5 ms each: most converters see buffers */
  fail_unless (g_hash_table_size (seen) >= N_SWAPS / 2,
      "%u of %u converters saw buffers", g_hash_table_size (seen), N_SWAPS);
  g_mutex_unlock (&capture_lock);
  g_hash_table_unref (seen);
}

GST_END_TEST;

static Suite *
tracer_suite (void)
{
  Suite *s = suite_create ("simalatency");
  TCase *tc = tcase_create ("tracer");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_options_parsed);
  tcase_add_test (tc, test_records_ev74_dmabuf);
  tcase_add_test (tc, test_records_system_memory);
  tcase_add_test (tc, test_records_a65_backends);
  tcase_add_test (tc, test_summary_prints);
  tcase_add_test (tc, test_meta_is_its_producers);
  tcase_add_test (tc, test_records_buffer_list);
  tcase_add_test (tc, test_latency_query_live);
  tcase_add_test (tc, test_latency_query_not_live);
  tcase_add_test (tc, test_latency_grows_announced);
  tcase_add_test (tc, test_converters_replaced_while_flowing);
  return s;
}

int
main (int argc, char **argv)
{
  Suite *s;

  /* before gst_init, which starts the tracers named here */
  g_setenv ("GST_TRACERS", "simalatency(summary=true,colour=blue)", TRUE);
  gst_check_init (&argc, &argv);
  records = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_structure_free);
  printed = g_string_new (NULL);
  gst_debug_remove_log_function (gst_debug_log_default);
  gst_debug_add_log_function (capture_log, NULL, NULL);
  gst_debug_set_threshold_for_name ("GST_TRACER", GST_LEVEL_TRACE);
  g_set_print_handler (capture_print);
  s = tracer_suite ();
  return gst_check_run_suite (s, "simalatency", __FILE__);
}
