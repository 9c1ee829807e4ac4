/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simatensorsrc: default caps and buffer size, every pattern byte for byte
 * against the core's sima_pattern_fill, every dtype, num-buffers and EOS,
 * timestamps, is-live, and caps fixed by downstream; sizes a buffer cannot
 * hold refused at negotiation, allocation failures and a downstream pool
 * that refuses our configuration.
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "check_util.h"

/* A harness around "simatensorsrc <props>" (which must set num-buffers: a
 * source fills the harness queue until it stops), downstream caps
 * `sink_caps` (NULL: anything), playing. Sources are not started by the
 * harness itself. */
static GstHarness *
src_harness (const gchar * props, const gchar * sink_caps)
{
  gchar *desc = g_strdup_printf ("simatensorsrc %s", props);
  GstHarness *h = gst_harness_new_parse (desc);

  fail_unless (h != NULL, "cannot make %s", desc);
  if (sink_caps != NULL)
    gst_harness_set_sink_caps_str (h, sink_caps);
  gst_harness_play (h);
  g_free (desc);
  return h;
}

/* Waits for EOS (skipping stream-start, caps, segment); fails without it. */
static void
wait_eos (GstHarness * h)
{
  GstEvent *ev;

  while ((ev = gst_harness_pull_event (h)) != NULL) {
    gboolean eos = GST_EVENT_TYPE (ev) == GST_EVENT_EOS;
    gst_event_unref (ev);
    if (eos)
      return;
  }
  fail ("no EOS");
}

/* The spec of the caps the source negotiated. */
static SimaTensorSpec
negotiated_spec (GstHarness * h)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  gchar *s;
  SimaTensorSpec spec;

  fail_unless (caps != NULL, "not negotiated");
  s = gst_caps_to_string (caps);
  spec = check_spec (s);
  g_free (s);
  gst_caps_unref (caps);
  return spec;
}

/* Pulls `frames` buffers and checks each against the core's pattern for the
 * negotiated spec, these parameters and that frame number. */
static void
check_pattern (const gchar * props, const gchar * sink_caps,
    SimaPatternParams params, guint frames)
{
  gchar *all = g_strdup_printf ("num-buffers=%u %s", frames, props);
  GstHarness *h = src_harness (all, sink_caps);
  guint f;

  for (f = 0; f < frames; f++) {
    GstBuffer *buf = gst_harness_pull (h);
    SimaTensorSpec spec = negotiated_spec (h);
    guint64 bytes = check_required_bytes (&spec);
    guint8 *want = g_malloc (bytes);
    SimaStatus st = sima_pattern_fill (&spec, &params, f, want, bytes);

    fail_unless (st.code == SIMA_OK, "%s", st.message);
    fail_unless (check_buffer_equals (buf, want, bytes),
        "%s: frame %u differs from sima_pattern_fill", all, f);
    g_free (want);
    gst_buffer_unref (buf);
  }
  wait_eos (h);
  gst_harness_teardown (h);
  g_free (all);
}

/* The bytes of one pulled buffer (g_bytes_unref). */
static GBytes *
pull_bytes (GstHarness * h)
{
  GstBuffer *buf = gst_harness_pull (h);
  GstMapInfo map;
  GBytes *b;

  fail_unless (buf != NULL);
  gst_buffer_map (buf, &map, GST_MAP_READ);
  b = g_bytes_new (map.data, map.size);
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (buf);
  return b;
}

GST_START_TEST (test_default_caps)
{
  GstHarness *h = src_harness ("num-buffers=1", NULL);
  GstCaps *caps, *want;
  GstBuffer *buf;
  gchar *s;

  buf = gst_harness_pull (h);
  caps = gst_pad_get_current_caps (h->sinkpad);
  want = gst_caps_from_string (TENSOR ",dtype=float32,"
      "shape=(int)<1,224,224,3>,layout=contiguous");
  s = gst_caps_to_string (caps);
  fail_unless (gst_caps_is_equal (caps, want), "default caps %s", s);
  /* 1 x 224 x 224 x 3 float32 */
  fail_unless_equals_int (gst_buffer_get_size (buf), 602112);
  g_free (s);
  gst_caps_unref (want);
  gst_caps_unref (caps);
  gst_buffer_unref (buf);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* Downstream fixes the dtype and the shape; the size follows. */
GST_START_TEST (test_downstream_caps)
{
  static const struct {
    const gchar *caps;
    gsize bytes;
  } cases[] = {
    { TENSOR ",dtype=int8,shape=(int)<4,4>", 16 },
    { TENSOR ",dtype=float16,shape=(int)<2,3,5,7>", 2 * 3 * 5 * 7 * 2 },
    { TENSOR ",dtype=bfloat16,shape=(int)<9>", 18 },
    /* a choice left open: float32, the default, wins */
    { TENSOR ",dtype={int8,float32},shape=(int)<1,2,3,4,5,6>", 720 * 4 },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstHarness *h = src_harness ("num-buffers=1", cases[i].caps);
    GstBuffer *buf = gst_harness_pull (h);
    GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
    GstCaps *allowed = gst_caps_from_string (cases[i].caps);
    gchar *s = gst_caps_to_string (caps);

    fail_unless (gst_caps_is_fixed (caps)
        && gst_caps_is_subset (caps, allowed), "negotiated %s", s);
    fail_unless (strstr (s, "layout=(string)contiguous"), "negotiated %s", s);
    fail_unless_equals_int (gst_buffer_get_size (buf), cases[i].bytes);
    g_free (s);
    gst_caps_unref (allowed);
    gst_caps_unref (caps);
    gst_buffer_unref (buf);
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

/* The ramp moves by one element per frame: exact against the core, and
 * frame 1 is frame 0 rotated. */
GST_START_TEST (test_ramp)
{
  SimaPatternParams p = { SIMA_PATTERN_RAMP, -3.0, 5.0, 0.0, 0 };
  GstHarness *h;
  GBytes *f0, *f1;
  const gfloat *a, *b;
  gsize n, i;

  check_pattern ("pattern=ramp min=-3 max=5",
      TENSOR ",dtype=float32,shape=(int)<2,3,5>", p, 3);
  /* the defaults: ramp from -1 to 1 */
  p.min = -1.0;
  p.max = 1.0;
  check_pattern ("", TENSOR ",dtype=float32,shape=(int)<17>", p, 2);

  h = src_harness ("num-buffers=2 min=0 max=29",
      TENSOR ",dtype=float32,shape=(int)<30>");
  f0 = pull_bytes (h);
  f1 = pull_bytes (h);
  a = g_bytes_get_data (f0, &n);
  b = g_bytes_get_data (f1, NULL);
  n /= sizeof (gfloat);
  fail_unless_equals_int (n, 30);
  for (i = 0; i < n; i++) {
    fail_unless_equals_float (a[i], (gfloat) i);
    fail_unless_equals_float (b[i], (gfloat) ((i + 1) % n));
  }
  g_bytes_unref (f0);
  g_bytes_unref (f1);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* Random: exact against the core, within [min, max], the same for the same
 * seed, different per frame and per seed. */
GST_START_TEST (test_random)
{
  SimaPatternParams p = { SIMA_PATTERN_RANDOM, -2.0, 4.0, 0.0, 42 };
  const gchar *caps = TENSOR ",dtype=float32,shape=(int)<8,8,3>";
  GstHarness *h;
  GBytes *run1[2], *run2[2], *other;
  const gfloat *v;
  gsize n, i;
  int k;

  check_pattern ("pattern=random seed=42 min=-2 max=4", caps, p, 3);

  h = src_harness ("num-buffers=2 pattern=random seed=42 min=-2 max=4", caps);
  for (k = 0; k < 2; k++)
    run1[k] = pull_bytes (h);
  gst_harness_teardown (h);
  h = src_harness ("num-buffers=2 pattern=random seed=42 min=-2 max=4", caps);
  for (k = 0; k < 2; k++)
    run2[k] = pull_bytes (h);
  gst_harness_teardown (h);
  h = src_harness ("num-buffers=1 pattern=random seed=43 min=-2 max=4", caps);
  other = pull_bytes (h);
  gst_harness_teardown (h);

  fail_unless (g_bytes_equal (run1[0], run2[0])
      && g_bytes_equal (run1[1], run2[1]), "same seed, different tensors");
  fail_if (g_bytes_equal (run1[0], run1[1]), "frames 0 and 1 are equal");
  fail_if (g_bytes_equal (run1[0], other), "seeds 42 and 43 agree");
  v = g_bytes_get_data (run1[0], &n);
  for (i = 0; i < n / sizeof (gfloat); i++)
    fail_unless (v[i] >= -2.0f && v[i] <= 4.0f, "value %g", (double) v[i]);
  for (k = 0; k < 2; k++) {
    g_bytes_unref (run1[k]);
    g_bytes_unref (run2[k]);
  }
  g_bytes_unref (other);
}
GST_END_TEST;

/* Constant, in every dtype, with the exact stored bits. */
GST_START_TEST (test_constant)
{
  static const struct {
    const gchar *dtype;
    const gchar *value;
    guint32 bits;               /* the stored scalar */
    int size;
  } cases[] = {
    { "float32", "2.5", 0x40200000, 4 },
    { "float16", "1", 0x3c00, 2 },
    { "float16", "-0.1", 0xae66, 2 },   /* nearest even of -0.1 */
    { "bfloat16", "1", 0x3f80, 2 },
    { "bfloat16", "-3.140625", 0xc049, 2 },
    { "int8", "-7.6", 0xf8, 1 },        /* -8 */
    { "int8", "126.5", 0x7e, 1 },       /* tie to even: 126 */
    { "int8", "1000", 0x7f, 1 },        /* saturated */
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *props = g_strdup_printf ("num-buffers=2 pattern=constant value=%s",
        cases[i].value);
    gchar *caps = g_strdup_printf (TENSOR ",dtype=%s,shape=(int)<3,7>",
        cases[i].dtype);
    GstHarness *h = src_harness (props, caps);
    int k;

    for (k = 0; k < 2; k++) {  /* constant in time too */
      GBytes *b = pull_bytes (h);
      const guint8 *d;
      gsize n, j;
      d = g_bytes_get_data (b, &n);
      fail_unless_equals_int (n, 21 * cases[i].size);
      for (j = 0; j < n; j += cases[i].size) {
        guint32 got = 0;
        memcpy (&got, d + j, cases[i].size);
        fail_unless (got == cases[i].bits, "%s %s: 0x%x, want 0x%x",
            cases[i].dtype, cases[i].value, got, cases[i].bits);
      }
      g_bytes_unref (b);
    }
    gst_harness_teardown (h);
    g_free (caps);
    g_free (props);
  }
}
GST_END_TEST;

/* Special values: NaN, both infinities and -0 are there in float32. */
GST_START_TEST (test_special)
{
  SimaPatternParams p = { SIMA_PATTERN_SPECIAL, -1.0, 1.0, 0.0, 0 };
  GstHarness *h;
  GBytes *b;
  const guint32 *v;
  gsize n, i;
  gboolean nan = FALSE, pinf = FALSE, ninf = FALSE, nzero = FALSE;

  check_pattern ("pattern=special", TENSOR ",dtype=float32,shape=(int)<40>",
      p, 2);
  h = src_harness ("num-buffers=1 pattern=special",
      TENSOR ",dtype=float32,shape=(int)<40>");
  b = pull_bytes (h);
  v = g_bytes_get_data (b, &n);
  for (i = 0; i < n / 4; i++) {
    nan |= (v[i] & 0x7f800000) == 0x7f800000 && (v[i] & 0x7fffff) != 0;
    pinf |= v[i] == 0x7f800000;
    ninf |= v[i] == 0xff800000;
    nzero |= v[i] == 0x80000000;
  }
  fail_unless (nan && pinf && ninf && nzero,
      "NaN %d, +inf %d, -inf %d, -0 %d", nan, pinf, ninf, nzero);
  g_bytes_unref (b);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* The 16-bit and 8-bit dtypes, every pattern, against the core. */
GST_START_TEST (test_dtypes)
{
  static const gchar *dtypes[] = { "float16", "bfloat16", "int8" };
  static const gchar *patterns[] = { "ramp", "random", "constant",
    "special"
  };
  guint d, k;

  for (d = 0; d < G_N_ELEMENTS (dtypes); d++)
    for (k = 0; k < G_N_ELEMENTS (patterns); k++) {
      SimaPatternParams p = { (SimaPattern) k, -200.0, 300.0, 0.3, 9 };
      gchar *caps = g_strdup_printf (TENSOR ",dtype=%s,shape=(int)<4,5,6>",
          dtypes[d]);
      gchar *props = g_strdup_printf ("pattern=%s min=-200 max=300 "
          "value=0.3 seed=9", patterns[k]);
      check_pattern (props, caps, p, 2);
      g_free (props);
      g_free (caps);
    }
}
GST_END_TEST;

/* num-buffers=N: exactly N buffers, then EOS; timestamps n * duration. */
GST_START_TEST (test_num_buffers_and_timestamps)
{
  static const struct {
    const gchar *props;
    guint n;
    GstClockTime duration;
  } cases[] = {
    { "num-buffers=5", 5, GST_SECOND / 30 },    /* the default duration */
    { "num-buffers=4 frame-duration=1000", 4, 1000 },
    { "num-buffers=0", 0, 0 },
  };
  guint i, k;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstHarness *h = src_harness (cases[i].props,
        TENSOR ",dtype=int8,shape=(int)<2,2>");
    wait_eos (h);               /* everything is queued before EOS */
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), cases[i].n);
    for (k = 0; k < cases[i].n; k++) {
      GstBuffer *buf = gst_harness_pull (h);
      fail_unless_equals_uint64 (GST_BUFFER_PTS (buf),
          k * cases[i].duration);
      fail_unless_equals_uint64 (GST_BUFFER_DURATION (buf),
          cases[i].duration);
      fail_unless_equals_uint64 (GST_BUFFER_OFFSET (buf), k);
      fail_unless_equals_uint64 (GST_BUFFER_OFFSET_END (buf), k + 1);
      gst_buffer_unref (buf);
    }
    fail_unless (gst_harness_try_pull (h) == NULL);
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

/* is-live: the property, and a live source does not preroll. */
GST_START_TEST (test_is_live)
{
  GstElement *e = gst_element_factory_make ("simatensorsrc", NULL);
  GstElement *pipe;
  GstMessage *msg;
  gboolean live;

  g_object_get (e, "is-live", &live, NULL);
  fail_if (live);
  g_object_set (e, "is-live", TRUE, NULL);
  g_object_get (e, "is-live", &live, NULL);
  fail_unless (live);
  gst_object_unref (e);

  pipe = gst_parse_launch ("simatensorsrc is-live=true num-buffers=2 ! "
      TENSOR ",shape=(int)<4> ! fakesink", NULL);
  fail_unless (pipe != NULL);
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_PAUSED),
      GST_STATE_CHANGE_NO_PREROLL);
  /* and it still runs to EOS once playing */
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe), 5 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
}
GST_END_TEST;

/* A live source paces its buffers by the clock, one per frame-duration:
 * the is-live and frame-duration properties say so. */
GST_START_TEST (test_live_pacing)
{
  GstElement *pipe;
  GstMessage *msg;
  gint64 t0, elapsed;

  /* sync=false: any pacing is the source's own */
  pipe = gst_parse_launch ("simatensorsrc is-live=true num-buffers=5 "
      "frame-duration=40000000 ! " TENSOR ",shape=(int)<4> ! "
      "fakesink sync=false", NULL);
  fail_unless (pipe != NULL);
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_PAUSED),
      GST_STATE_CHANGE_NO_PREROLL);
  t0 = g_get_monotonic_time ();
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe), 5 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  elapsed = g_get_monotonic_time () - t0;
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  /* the 5th buffer's time is 4 x 40 ms after the first */
  fail_unless (elapsed >= 150000, "5 live buffers of 40 ms took %" G_GINT64_FORMAT
      " us: not paced by the clock", elapsed);
}
GST_END_TEST;

/* Runs `description` to its end: NULL at EOS, else the text of the first
 * error (g_free); *n_naming, if given, counts the errors whose text holds
 * `naming` (each flow failure must be reported once). */
static gchar *
run_to_end (const gchar * description, const gchar * naming, guint * n_naming)
{
  GstElement *pipe = gst_parse_launch (description, NULL);
  GstBus *bus;
  GstMessage *msg;
  gchar *first = NULL;

  fail_unless (pipe != NULL, "cannot make %s", description);
  bus = gst_element_get_bus (pipe);
  if (n_naming != NULL)
    *n_naming = 0;
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s: no EOS or error within 60 s", description);
  while (msg != NULL) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      gchar *debug = NULL, *text;
      gst_message_parse_error (msg, &err, &debug);
      text = g_strdup_printf ("%s (%s)", err->message, debug ? debug : "");
      if (n_naming != NULL && strstr (text, naming) != NULL)
        (*n_naming)++;
      if (first == NULL)
        first = text;
      else
        g_free (text);
      g_error_free (err);
      g_free (debug);
    }
    gst_message_unref (msg);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  /* errors posted while stopping, too */
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR)) != NULL) {
    GError *err = NULL;
    gst_message_parse_error (msg, &err, NULL);
    if (n_naming != NULL && strstr (err->message, naming) != NULL)
      (*n_naming)++;
    g_error_free (err);
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
  gst_object_unref (pipe);
  return first;
}

/* Tensors a buffer pool cannot hold (their size is a guint) are refused at
 * negotiation, with the size and the limit, once: they used to be cast to
 * guint, and the source then allocated the whole size with g_malloc (an
 * abort for 48 GiB) or filled a 4 GiB tensor nobody can pool. The largest
 * size that fits still negotiates (num-buffers=0: no buffer is made). */
GST_START_TEST (test_size_beyond_pools_refused)
{
  static const struct {
    const gchar *caps;
    const gchar *bytes;
  } refused[] = {
    /* 48 GiB: the abort "failed to allocate 51539607703 bytes" */
    { TENSOR ",dtype=float32,shape=(int)<65536,65536,3>", "51539607552" },
    /* just above 4 GiB: truncated to 4 MiB by a guint cast */
    { TENSOR ",dtype=float32,shape=(int)<1024,1024,1025>", "4299161600" },
    /* 2^32: a guint cast gives 0 */
    { TENSOR ",dtype=int8,shape=(int)<65536,65536>", "4294967296" },
  };
  guint i, n;
  gchar *desc, *error;

  for (i = 0; i < G_N_ELEMENTS (refused); i++) {
    desc = g_strdup_printf ("simatensorsrc num-buffers=1 ! %s ! fakesink",
        refused[i].caps);
    error = run_to_end (desc, refused[i].bytes, &n);
    fail_unless (error != NULL, "%s: no error", desc);
    fail_unless (strstr (error, refused[i].bytes) != NULL
        && strstr (error, "4294967295") != NULL
        && strstr (error, "shape") != NULL,
        "%s: the error does not name the shape, the size and the limit: %s",
        desc, error);
    fail_unless_equals_int (n, 1);
    g_free (error);
    g_free (desc);
  }
  /* 2^32 - 1 = 3 x 5 x 17 x 257 x 65537 bytes: the largest that fits */
  error = run_to_end ("simatensorsrc num-buffers=0 ! " TENSOR ",dtype=int8,"
      "shape=(int)<3,5,17,257,65537> ! fakesink", "", NULL);
  fail_unless (error == NULL, "G_MAXUINT bytes refused: %s", error);
  /* and a normal size still works */
  error = run_to_end ("simatensorsrc num-buffers=2 ! " TENSOR ",dtype=float32,"
      "shape=(int)<64,64,3> ! fakesink", "", NULL);
  fail_unless (error == NULL, "%s", error);
}
GST_END_TEST;

/* A tensor that fits a pool but not in memory: the allocation fails, and
 * that is a flow error naming the size, not an abort (the system memory
 * allocator g_error()s when malloc fails). The address space is limited to
 * what the process uses plus 256 MiB, for a 1 GiB tensor. Sanitizers
 * reserve terabytes of shadow memory and cannot run under such a limit. */
GST_START_TEST (test_allocation_failure_is_an_error)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GST_INFO ("skipped under a sanitizer (address space limit)");
#else
  struct rlimit old, limit;
  unsigned long vm_pages = 0;
  FILE *statm = fopen ("/proc/self/statm", "r");
  gchar *error;
  guint n;

  fail_unless (statm != NULL && fscanf (statm, "%lu", &vm_pages) == 1);
  fclose (statm);
  fail_unless (getrlimit (RLIMIT_AS, &old) == 0);
  limit = old;
  limit.rlim_cur = (rlim_t) vm_pages * sysconf (_SC_PAGESIZE) + (256 << 20);
  if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < limit.rlim_cur)
    limit.rlim_cur = old.rlim_cur;
  fail_unless (setrlimit (RLIMIT_AS, &limit) == 0);
  error = run_to_end ("simatensorsrc num-buffers=1 ! " TENSOR
      ",dtype=float32,shape=(int)<1024,1024,256> ! fakesink", "1073741824",
      &n);
  fail_unless (setrlimit (RLIMIT_AS, &old) == 0);
  fail_unless (error != NULL, "a 1 GiB tensor was allocated within the limit");
  fail_unless (strstr (error, "1073741824") != NULL,
      "the error does not name the size: %s", error);
  fail_unless_equals_int (n, 1);
  g_free (error);
#endif
}
GST_END_TEST;

/* Downstream offers an active pool (a shared one, say) of buffers too
 * small for the tensor: it refuses set_config, its own configuration does
 * not fit, and the source makes its own memory. GstBaseSrc's default
 * configured the pool with downstream's size instead of the tensor's, so
 * took the pool, allocated every buffer beside it, and deactivated it. */
static GstPadProbeReturn
offer_active_pool (GstPad * pad, GstPadProbeInfo * info, gpointer pool)
{
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);

  (void) pad;
  if (GST_QUERY_TYPE (query) == GST_QUERY_ALLOCATION)
    gst_query_add_allocation_pool (query, GST_BUFFER_POOL (pool), 1024, 2, 0);
  return GST_PAD_PROBE_OK;
}

GST_START_TEST (test_refused_pool_falls_back)
{
  const gchar *caps_str = TENSOR ",dtype=float32,shape=(int)<64,64,3>,"
      "layout=contiguous";
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstBufferPool *pool = gst_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);
  SimaPatternParams p = { SIMA_PATTERN_RAMP, -1.0, 1.0, 0.0, 0 };
  SimaTensorSpec spec = check_spec (caps_str);
  guint64 bytes = check_required_bytes (&spec);
  guint8 *want = g_malloc (bytes);
  GstHarness *h;
  guint f;

  gst_buffer_pool_config_set_params (config, caps, 1024, 2, 0);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  h = gst_harness_new_parse ("simatensorsrc num-buffers=3");
  gst_harness_set_sink_caps_str (h, caps_str);
  /* PULL: added to downstream's answer */
  gst_pad_add_probe (h->sinkpad,
      GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM | GST_PAD_PROBE_TYPE_PULL,
      offer_active_pool, pool, NULL);
  gst_harness_play (h);
  for (f = 0; f < 3; f++) {
    GstBuffer *buf = gst_harness_pull (h);
    fail_unless (buf != NULL, "no buffer %u", f);
    fail_unless (sima_pattern_fill (&spec, &p, f, want, bytes).code
        == SIMA_OK);
    fail_unless (check_buffer_equals (buf, want, bytes), "frame %u", f);
    /* not from the refused pool */
    fail_unless (buf->pool != pool);
    gst_buffer_unref (buf);
  }
  wait_eos (h);
  gst_harness_teardown (h);
  /* the source left downstream's pool alone: still active */
  fail_unless (gst_buffer_pool_is_active (pool));
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_caps_unref (caps);
  g_free (want);
}
GST_END_TEST;

/* Timestamps that would wrap (or reach GST_CLOCK_TIME_NONE) are an error
 * naming frame-duration: with 2^63 - 1, frame 2 would start at 2^64 - 2
 * and end past 2^64. */
GST_START_TEST (test_timestamp_overflow)
{
  guint n;
  gchar *error = run_to_end ("simatensorsrc num-buffers=3 "
      "frame-duration=9223372036854775807 ! " TENSOR ",shape=(int)<4> ! "
      "fakesink sync=false", "frame-duration", &n);

  fail_unless (error != NULL, "three frames of 2^63 - 1 ns: no error");
  fail_unless (strstr (error, "frame-duration 9223372036854775807: frame 2 ")
      != NULL, "%s", error);
  fail_unless_equals_int (n, 1);
  g_free (error);
}
GST_END_TEST;

static Suite *
tensorsrc_suite (void)
{
  Suite *s = suite_create ("simatensorsrc");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_default_caps);
  tcase_add_test (tc, test_downstream_caps);
  tcase_add_test (tc, test_ramp);
  tcase_add_test (tc, test_random);
  tcase_add_test (tc, test_constant);
  tcase_add_test (tc, test_special);
  tcase_add_test (tc, test_dtypes);
  tcase_add_test (tc, test_num_buffers_and_timestamps);
  tcase_add_test (tc, test_is_live);
  tcase_add_test (tc, test_live_pacing);
  tcase_add_test (tc, test_size_beyond_pools_refused);
  tcase_add_test (tc, test_allocation_failure_is_an_error);
  tcase_add_test (tc, test_refused_pool_falls_back);
  tcase_add_test (tc, test_timestamp_overflow);
  return s;
}

GST_CHECK_MAIN (tensorsrc);
