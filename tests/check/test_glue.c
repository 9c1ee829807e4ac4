/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The GStreamer glue, as users run it (issue 14): real pipelines (appsrc,
 * tee, queue, appsink) and harnesses around the three converters, every
 * output compared byte for byte with the A65's (or with a serial run), every
 * wait bounded.
 *
 * Each test, the defect it covers, and what it gives on 06797a4 (before
 * the fixes):
 *  - test_tee_new_memories (1): SIGSEGV in the emulator's DMA (release);
 *    "imported 1044 memories in all, for 1008 distinct memories" (ASan)
 *  - test_tee_pooled_imports (1): "imported 207 memories in all, for 206",
 *    or "input bus range [...] overlaps output"
 *  - test_active_downstream_pool (2): the push returns not-negotiated
 *  - test_stop_during_wait (7): set_state (NULL) takes 2.7 s
 *  - test_flush_during_wait (7): the chain returns 2.7 s after FLUSH_START
 *  - test_unaligned_fd_input (9): "input bus address 0x80000002 is not
 *    4-byte aligned" (0x80000004, 16-byte for tiles)
 *  - test_deep_queue_aperture (10): "no room for 33554432 bytes in the bus
 *    aperture" after 62 buffers
 *  - test_properties_while_playing (15): the old multiplier is used
 *  - test_refused_properties_while_playing (15): no warning
 *  - test_renegotiate_shape (new test): passes (a guard)
 *  - test_concurrent_pipelines (new test): passes (a guard)
 *  - test_element_debug_category (14): nothing logged in simaquanttess
 * The two tee tests run last: a crash ends the program (CK_FORK=no).
 *
 * Streaming threads never call fail_*() (CK_FORK=no: check's longjmp only
 * works from the test's thread); they record what they saw and the test
 * thread asserts it.
 *
 * Devices are shared per spec string within the process: tests that inject
 * faults or fill the aperture use a spec of their own (an otherwise unused
 * local-kib value), so that they cannot disturb each other.
 */
#define _GNU_SOURCE
#include <gst/allocators/allocators.h>
#include <simaai/kernels/ev74/device.h>
#include <string.h>

#include "ev74_testing.h"   /* sima_ev74_device_configure */
#include "check_util.h"

#define DETESS_INDEX 2          /* check_ops[2]: simadetessdequant */

/* ---- helpers ------------------------------------------------------------ */

static gchar *
message_text (GstMessage * msg)
{
  GError *err = NULL;
  gchar *debug = NULL, *text;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    gst_message_parse_error (msg, &err, &debug);
  else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING)
    gst_message_parse_warning (msg, &err, &debug);
  else
    return g_strdup (GST_MESSAGE_TYPE_NAME (msg));
  text = g_strdup_printf ("%s from %s: %s (%s)",
      GST_MESSAGE_TYPE_NAME (msg), GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)),
      err->message, debug ? debug : "");
  g_error_free (err);
  g_free (debug);
  return text;
}

/* Sets pipe PLAYING and waits up to `seconds` for EOS: NULL then, else what
 * happened instead (g_free it). */
static gchar *
run_to_eos (GstElement * pipe, guint seconds)
{
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg;
  gchar *text = NULL;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, seconds * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (msg == NULL)
    text = g_strdup_printf ("no EOS within %u s", seconds);
  else if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_EOS)
    text = message_text (msg);
  if (msg != NULL)
    gst_message_unref (msg);
  gst_object_unref (bus);
  return text;
}

static GstElement *
by_name (GstElement * pipe, const gchar * name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipe), name);
  fail_unless (e != NULL, "no element %s", name);
  return e;
}

static guint64
prop_u64 (GstElement * e, const gchar * name)
{
  guint64 v = 0;
  g_object_get (e, name, &v, NULL);
  return v;
}

/* What `description` with backend=a65 makes of `in` (a new buffer). */
static GstBuffer *
a65_reference (const gchar * description, const gchar * in_caps,
    const gchar * out_caps, GstBuffer * in)
{
  gchar *desc = g_strdup_printf ("%s backend=a65", description);
  GstBuffer *out;
  CheckHarness c;

  check_harness_new (&c, desc, in_caps, out_caps);
  out = gst_harness_push_and_pull (c.h, gst_buffer_ref (in));
  fail_unless (out != NULL, "the A65 reference '%s' gave no output", desc);
  check_harness_free (&c);
  g_free (desc);
  return out;
}

/* Pushes `in` into the harness and returns the output, or NULL with *why
 * set to the flow return and the error posted (g_free it). */
static GstBuffer *
push_pull (CheckHarness * c, GstBuffer * in, gchar ** why)
{
  GstFlowReturn ret = gst_harness_push (c->h, in);
  GstBuffer *out;
  gchar *error;

  *why = NULL;
  /* EV74 jobs in flight: the output may come after the push returned */
  if (ret == GST_FLOW_OK && check_drain (c)
      && (out = gst_harness_try_pull (c->h)) != NULL)
    return out;
  error = check_pop_message (c, GST_MESSAGE_ERROR);
  *why = g_strdup_printf ("push returned %s, error message: %s",
      gst_flow_get_name (ret), error ? error : "(none)");
  g_free (error);
  return NULL;
}

/* The input bytes of check_ops[op] for `caps` (a pattern for float
 * tensors, random bytes for tiles). */
static GstBuffer *
input_for (const gchar * caps, guint64 seed)
{
  SimaTensorSpec spec = check_spec (caps);
  guint64 bytes = check_required_bytes (&spec);

  if (spec.dtype == SIMA_DTYPE_INT8)
    return check_random_buffer (bytes, seed);
  return check_tensor_buffer (&spec, bytes, SIMA_PATTERN_RANDOM, seed);
}

/* ---- appsrc feeder and appsink checker (streaming threads) --------------- */

typedef struct
{
  GstBuffer **buffers;          /* prepared inputs, handed over one by one */
  GstBuffer **contents;         /* pooled mode: the bytes, cycled */
  guint n_contents;
  guint n, pushed;
  gboolean eos;
  GstBufferPool *pool;          /* pooled mode: inputs come from here */
  GHashTable *memories;         /* pooled mode: distinct input memories */
  guint errors;
} Feeder;

static void
feeder_need_data (GstElement * src, guint length, gpointer data)
{
  Feeder *f = data;
  GstFlowReturn ret;
  GstBuffer *buf = NULL;

  (void) length;
  if (f->eos)
    return;
  if (f->pushed == f->n) {
    f->eos = TRUE;
    g_signal_emit_by_name (src, "end-of-stream", &ret);
    return;
  }
  if (f->pool != NULL) {
    GstBuffer *content = f->contents[f->pushed % f->n_contents];
    GstMapInfo a, b;

    if (gst_buffer_pool_acquire_buffer (f->pool, &buf, NULL) != GST_FLOW_OK
        || !gst_buffer_map (buf, &b, GST_MAP_WRITE)) {
      f->errors++;
      f->eos = TRUE;
      g_signal_emit_by_name (src, "end-of-stream", &ret);
      gst_clear_buffer (&buf);
      return;
    }
    gst_buffer_map (content, &a, GST_MAP_READ);
    memcpy (b.data, a.data, MIN (a.size, b.size));
    gst_buffer_unmap (content, &a);
    gst_buffer_unmap (buf, &b);
    g_hash_table_add (f->memories, gst_buffer_peek_memory (buf, 0));
  } else {
    buf = f->buffers[f->pushed];
    f->buffers[f->pushed] = NULL;
  }
  GST_BUFFER_PTS (buf) = f->pushed * GST_MSECOND;
  GST_BUFFER_DURATION (buf) = GST_MSECOND;
  g_signal_emit_by_name (src, "push-buffer", buf, &ret);
  gst_buffer_unref (buf);
  if (ret != GST_FLOW_OK)
    f->errors++;
  f->pushed++;
}

/* Checks every sample against want[index % n_want], the index being the
 * PTS in ms (the feeder's numbering). */
typedef struct
{
  GstBuffer **want;
  guint n_want;
  guint received, wrong, first_wrong;
  GHashTable *memories;         /* distinct output memories */
} Checker;

static GstFlowReturn
checker_new_sample (GstElement * sink, gpointer data)
{
  Checker *c = data;
  GstSample *sample = NULL;
  GstBuffer *buf;
  guint index;

  g_signal_emit_by_name (sink, "pull-sample", &sample);
  if (sample == NULL)
    return GST_FLOW_ERROR;
  buf = gst_sample_get_buffer (sample);
  index = (guint) (GST_BUFFER_PTS (buf) / GST_MSECOND);
  if (!check_buffers_equal (c->want[index % c->n_want], buf)) {
    if (c->wrong++ == 0)
      c->first_wrong = index;
  }
  if (c->memories != NULL && gst_buffer_n_memory (buf) == 1)
    g_hash_table_add (c->memories, gst_buffer_peek_memory (buf, 0));
  c->received++;
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

/* ---- defect 1: the import cache under a tee ------------------------------ */

#define TEE_CONTENTS 8

/* appsrc ! tee, `branches` x (queue ! simadetessdequant device=spec !
 * appsink), n buffers; pooled: the inputs come from a pool of the plugin's
 * allocator (memories come round), else every buffer has a memory of its
 * own. Checks every output against the A65 and the imports rule: one
 * import per memory per device, so the imports of all elements (which share
 * the device) add up to the distinct input memories plus each element's
 * distinct output memories. */
static void
tee_run (const gchar * spec, guint branches, guint n, gboolean pooled)
{
  GString *desc = g_string_new ("appsrc name=src format=time ! tee name=t");
  GstBuffer *contents[TEE_CONTENTS], *want[TEE_CONTENTS];
  GstCaps *caps = gst_caps_from_string (CHECK_TILES_CAPS);
  Checker *checkers = g_new0 (Checker, branches);
  GstElement *pipe, *src;
  guint64 imports = 0, expected;
  Feeder f;
  gchar *error;
  guint k, i;

  memset (&f, 0, sizeof f);
  for (k = 0; k < branches; k++)
    g_string_append_printf (desc, " t. ! queue ! %s device=%s name=e%u ! "
        "appsink name=s%u sync=false emit-signals=true",
        check_ops[DETESS_INDEX].element, spec, k, k);
  for (i = 0; i < TEE_CONTENTS; i++) {
    contents[i] = check_op_input (DETESS_INDEX, 100 + i);
    want[i] = check_op_a65_output (DETESS_INDEX, 100 + i);
  }
  f.n = n;
  f.contents = contents;
  f.n_contents = TEE_CONTENTS;
  if (pooled) {
    GstAllocator *allocator = check_plugin_allocator ();
    GstAllocationParams params;
    GstStructure *config;

    f.pool = gst_buffer_pool_new ();
    config = gst_buffer_pool_get_config (f.pool);
    gst_allocation_params_init (&params);
    params.align = 15;
    /* 128 memories made up front, handed out in turn: 128 first sightings
     * (where the tee's branches race to import), then each comes round */
    gst_buffer_pool_config_set_params (config, caps,
        (guint) gst_buffer_get_size (contents[0]), 128, 0);
    gst_buffer_pool_config_set_allocator (config, allocator, &params);
    fail_unless (gst_buffer_pool_set_config (f.pool, config));
    fail_unless (gst_buffer_pool_set_active (f.pool, TRUE));
    f.memories = g_hash_table_new (NULL, NULL);
    gst_object_unref (allocator);
  } else {
    /* made here (not in the streaming thread), handed over one by one: the
     * pipeline holds the only reference, so each memory is freed (and its
     * import dropped) once every branch is done with it */
    f.buffers = g_new0 (GstBuffer *, n);
    for (i = 0; i < n; i++)
      f.buffers[i] = check_plugin_buffer (contents[i % TEE_CONTENTS], 0);
  }

  pipe = gst_parse_launch (desc->str, NULL);
  fail_unless (pipe != NULL, "cannot make %s", desc->str);
  src = by_name (pipe, "src");
  g_object_set (src, "caps", caps, NULL);
  g_signal_connect (src, "need-data", G_CALLBACK (feeder_need_data), &f);
  for (k = 0; k < branches; k++) {
    gchar *name = g_strdup_printf ("s%u", k);
    GstElement *sink = by_name (pipe, name);
    checkers[k].want = want;
    checkers[k].n_want = TEE_CONTENTS;
    checkers[k].memories = g_hash_table_new (NULL, NULL);
    g_signal_connect (sink, "new-sample", G_CALLBACK (checker_new_sample),
        &checkers[k]);
    gst_object_unref (sink);
    g_free (name);
  }

  error = run_to_eos (pipe, 120);
  /* stopped before any assertion: a failed test must not leave streaming
   * threads behind (gst_deinit would wait for them at exit) */
  gst_element_set_state (pipe, GST_STATE_NULL);
  fail_unless (error == NULL, "%u-way tee, %s inputs: %s", branches,
      pooled ? "pooled" : "new-memory", error);
  fail_unless_equals_int (f.errors, 0);
  expected = pooled ? g_hash_table_size (f.memories) : n;
  for (k = 0; k < branches; k++) {
    gchar *name = g_strdup_printf ("e%u", k);
    GstElement *e = by_name (pipe, name);

    fail_unless_equals_int (checkers[k].received, n);
    fail_unless (checkers[k].wrong == 0, "branch %u: %u of %u outputs "
        "differ from the A65's (first: buffer %u)", k, checkers[k].wrong, n,
        checkers[k].first_wrong);
    fail_unless_equals_uint64 (prop_u64 (e, "copies"), 0);
    imports += prop_u64 (e, "imports");
    expected += g_hash_table_size (checkers[k].memories);
    gst_object_unref (e);
    g_free (name);
  }
  fail_unless (imports == expected, "the elements imported %" G_GUINT64_FORMAT
      " memories in all, for %" G_GUINT64_FORMAT " distinct memories (one "
      "import per memory per device)", imports, expected);

  gst_object_unref (src);
  gst_object_unref (pipe);
  for (k = 0; k < branches; k++)
    g_hash_table_unref (checkers[k].memories);
  g_free (checkers);
  if (f.pool != NULL) {
    gst_buffer_pool_set_active (f.pool, FALSE);
    gst_object_unref (f.pool);
    g_hash_table_unref (f.memories);
  }
  if (f.buffers != NULL) {
    for (i = 0; i < n; i++)
      gst_clear_buffer (&f.buffers[i]);
    g_free (f.buffers);
  }
  for (i = 0; i < TEE_CONTENTS; i++) {
    gst_buffer_unref (contents[i]);
    gst_buffer_unref (want[i]);
  }
  gst_caps_unref (caps);
  g_string_free (desc, TRUE);
}

/* Defect 1 (import-cache use-after-free): a new fd memory per buffer into
 * a 4-way tee of simadetessdequant sharing device=emulator:workers=2, 1000
 * buffers. Every output equals the A65's; no error; no ASan report (run it
 * in the sanitizer build); imports add up to the memories (the rule in
 * tee_run). */
GST_START_TEST (test_tee_new_memories)
{
  tee_run ("emulator:workers=2", 4, 1000, FALSE);
}
GST_END_TEST;

/* Defect 1, "same memory imported once": pooled inputs (memories come
 * round) through a tee into 2 elements sharing the device: the sum of the
 * elements' imports is the distinct input memories plus their distinct
 * output memories (one import per memory per device, whichever element
 * sees it first). */
GST_START_TEST (test_tee_pooled_imports)
{
  guint round;

  /* the race is in the first sighting of each memory: a few rounds, each
   * with a new pool */
  for (round = 0; round < 16; round++)
    tee_run ("emulator:workers=2", 2, 256, TRUE);
}
GST_END_TEST;

/* ---- defect 2: a downstream pool that refuses set_config ----------------- */

typedef struct
{
  GstBufferPool *pool;
  guint size;
  gboolean too_small;           /* a pool of half the size the caps need */
  guint answered;
} ActivePool;

/* Answers the ALLOCATION query with a pool of the plugin's allocator that
 * is already active, so set_config on it fails. Runs in the test thread
 * (the harness pushes from it). */
static GstPadProbeReturn
answer_with_active_pool (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  ActivePool *a = data;
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);
  GstCaps *caps = NULL;

  (void) pad;
  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  gst_query_parse_allocation (query, &caps, NULL);
  if (a->pool == NULL && caps != NULL) {
    gchar *str = gst_caps_to_string (caps);
    SimaTensorSpec spec = check_spec (str);
    GstAllocator *allocator = check_plugin_allocator ();
    GstAllocationParams params;
    GstStructure *config;

    a->size = (guint) check_required_bytes (&spec);
    if (a->too_small)
      a->size /= 2;
    a->pool = gst_buffer_pool_new ();
    config = gst_buffer_pool_get_config (a->pool);
    gst_allocation_params_init (&params);
    params.align = 15;
    /* the pool's own settings (at least 4 buffers) differ from what the
     * query advertises (2): whatever config the element sets is refused,
     * as by any active shared pool (an identical config is accepted) */
    gst_buffer_pool_config_set_params (config, caps, a->size, 4, 0);
    gst_buffer_pool_config_set_allocator (config, allocator, &params);
    fail_unless (gst_buffer_pool_set_config (a->pool, config));
    fail_unless (gst_buffer_pool_set_active (a->pool, TRUE));
    gst_object_unref (allocator);
    g_free (str);
  }
  if (a->pool == NULL)
    return GST_PAD_PROBE_OK;
  gst_query_add_allocation_pool (query, a->pool, a->size, 2, 0);
  a->answered++;
  return GST_PAD_PROBE_HANDLED;
}

/* Defect 2 (decide_allocation fails instead of falling back): downstream
 * offers an active DMA-BUF pool (set_config refuses any change), once with
 * the size the caps need and once too small. Today decide_allocation
 * returns FALSE and the push fails not-negotiated; after the fix the
 * element uses the pool as it is or makes its own (GstBaseTransform's
 * rule) and every output equals the A65's. All three converters on the
 * emulator. */
GST_START_TEST (test_active_downstream_pool)
{
  int op, small, i;

  for (op = 0; op < 3; op++) {
    for (small = 0; small < 2; small++) {
      gchar *desc = g_strdup_printf ("%s device=emulator:workers=2",
          check_ops[op].element);
      ActivePool a;
      CheckHarness c;

      memset (&a, 0, sizeof a);
      a.too_small = small;
      /* the probe goes on before the caps: the query may come with them */
      check_harness_new (&c, desc, NULL, NULL);
      gst_pad_add_probe (c.h->sinkpad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
          answer_with_active_pool, &a, NULL);
      gst_harness_set_src_caps_str (c.h, check_ops[op].in_caps);
      for (i = 0; i < 3; i++) {
        GstBuffer *want = check_op_a65_output (op, 50 + i);
        gchar *why = NULL;
        GstBuffer *out = push_pull (&c, check_op_input (op, 50 + i), &why);

        fail_unless (out != NULL, "%s with an active downstream pool%s: %s",
            desc, small ? " (too small)" : "", why);
        fail_unless (check_buffers_equal (want, out), "%s, buffer %d: "
            "output differs from the A65's", desc, i);
        gst_buffer_unref (out);
        gst_buffer_unref (want);
      }
      fail_unless (a.answered > 0, "downstream was never asked");
      check_harness_free (&c);
      gst_buffer_pool_set_active (a.pool, FALSE);
      gst_object_unref (a.pool);
      g_free (desc);
    }
  }
}
GST_END_TEST;

/* ---- defect 7: stop and flush during an EV74 wait ------------------------ */

#define HANG_MS 3000
/* how long a state change or a flush may take during the wait */
#define PROMPT_US (1 * G_USEC_PER_SEC)

typedef struct
{
  GMutex lock;
  GCond cond;
  gboolean arrived, done;
  gint freed;                   /* atomic: the watched memory was freed */
  gint64 arrived_at;
  /* stop */
  GstElement *pipe;
  GstStateChangeReturn ret;
  /* flush */
  GstHarness *h;
  GstBuffer *buf;
  GstFlowReturn flow;
  gint64 started, finished;     /* monotonic us */
  gboolean alive_after;         /* the memory was alive when it returned */
} Waiter;

/* On the heap: a memory the test lost track of (a failed test) may still
 * call watched_memory_freed later; a failed test leaks its waiter. */
static Waiter *
waiter_new (void)
{
  Waiter *w = g_new0 (Waiter, 1);
  g_mutex_init (&w->lock);
  g_cond_init (&w->cond);
  return w;
}

static void
waiter_free (Waiter * w)
{
  g_mutex_clear (&w->lock);
  g_cond_clear (&w->cond);
  g_free (w);
}

static void
watched_memory_freed (gpointer data, GstMiniObject * obj)
{
  (void) obj;
  g_atomic_int_set (&((Waiter *) data)->freed, 1);
}

static GstPadProbeReturn
note_arrival (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Waiter *w = data;

  (void) pad;
  (void) info;
  g_mutex_lock (&w->lock);
  if (!w->arrived)
    w->arrived_at = g_get_monotonic_time ();
  w->arrived = TRUE;
  g_cond_broadcast (&w->cond);
  g_mutex_unlock (&w->lock);
  return GST_PAD_PROBE_OK;
}

/* Waits (bounded) until `flag` of w is set; returns it. */
static gboolean
waiter_wait (Waiter * w, gboolean * flag, gint64 timeout_us)
{
  gint64 deadline = g_get_monotonic_time () + timeout_us;
  gboolean set;

  g_mutex_lock (&w->lock);
  while (!*flag && g_cond_wait_until (&w->cond, &w->lock, deadline)) {
  }
  set = *flag;
  g_mutex_unlock (&w->lock);
  return set;
}

static void
waiter_finish (Waiter * w)
{
  w->finished = g_get_monotonic_time ();
  w->alive_after = !g_atomic_int_get (&w->freed);
  g_mutex_lock (&w->lock);
  w->done = TRUE;
  g_cond_broadcast (&w->cond);
  g_mutex_unlock (&w->lock);
}

static gpointer
stop_thread (gpointer data)
{
  Waiter *w = data;

  w->started = g_get_monotonic_time ();
  w->ret = gst_element_set_state (w->pipe, GST_STATE_NULL);
  waiter_finish (w);
  return NULL;
}

static gpointer
push_thread (gpointer data)
{
  Waiter *w = data;

  w->flow = gst_harness_push (w->h, w->buf);
  waiter_finish (w);
  return NULL;
}

/* Waits until the hung job (submitted at w->arrived_at) must have retired,
 * plus a margin, then until the watched memory is freed (bounded). */
static gboolean
memory_freed_after_hang (Waiter * w)
{
  gint64 end = w->arrived_at + (HANG_MS + 500) * G_TIME_SPAN_MILLISECOND;
  gint64 now = g_get_monotonic_time ();

  if (end > now)
    g_usleep ((gulong) (end - now));
  end = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;
  while (!g_atomic_int_get (&w->freed) && g_get_monotonic_time () < end)
    g_usleep (10000);
  return g_atomic_int_get (&w->freed);
}

/* Defect 7 (a): setting the pipeline to NULL while a buffer waits for a
 * hung EV74 job (fault=hang, hang-ms=3000, timeout=60000) returns within
 * 1 s (today it waits for the hang: about 2.7 s). The input memory (a
 * plugin fd memory the device reads) stays alive while the job may touch
 * it, the process lives past the hang (ASan: no use-after-free when the
 * device wakes up), and the memory is freed once the job retired. */
GST_START_TEST (test_stop_during_wait)
{
  const gchar *spec = "emulator:workers=1,local-kib=74,fault=hang,"
      "hang-ms=3000";
  gchar *desc = g_strdup_printf ("appsrc name=src format=time ! "
      "simaquanttess name=q multiplier=64 device=%s timeout=60000 ! "
      "fakesink async=false", spec);
  GstCaps *caps = gst_caps_from_string (CHECK_IN_CAPS);
  GstBuffer *content = check_op_input (0, 60), *buf;
  GstElement *pipe = gst_parse_launch (desc, NULL), *src, *q;
  GstFlowReturn ret;
  GstPad *pad;
  GThread *thread;
  Waiter *w;

  fail_unless (pipe != NULL);
  w = waiter_new ();
  src = by_name (pipe, "src");
  q = by_name (pipe, "q");
  g_object_set (src, "caps", caps, NULL);
  pad = gst_element_get_static_pad (q, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, note_arrival, w, NULL);
  gst_object_unref (pad);
  buf = check_plugin_buffer (content, 0);
  gst_mini_object_weak_ref (GST_MINI_OBJECT_CAST (gst_buffer_peek_memory
          (buf, 0)), watched_memory_freed, w);
  g_signal_emit_by_name (src, "push-buffer", buf, &ret);
  gst_buffer_unref (buf);       /* the pipeline holds the only reference */
  fail_unless_equals_int (ret, GST_FLOW_OK);

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  if (!waiter_wait (w, &w->arrived, 10 * G_USEC_PER_SEC)) {
    gst_element_set_state (pipe, GST_STATE_NULL);
    ck_abort_msg ("the buffer never reached simaquanttess");
  }
  g_usleep (300000);            /* it is in the device's wait by now */
  w->pipe = pipe;
  thread = g_thread_new ("stop", stop_thread, w);
  waiter_wait (w, &w->done, 2 * PROMPT_US);
  g_thread_join (thread);       /* bounded by the hang */
  fail_unless (w->finished - w->started < PROMPT_US, "set_state (NULL) took "
      "%.2f s while a job hung in the device (hang-ms=%d)",
      (w->finished - w->started) / 1e6, HANG_MS);
  fail_unless (w->ret == GST_STATE_CHANGE_SUCCESS);
  fail_unless (w->alive_after, "the input memory was freed while the hung "
      "job could still read it");

  gst_object_unref (src);
  gst_object_unref (q);
  gst_object_unref (pipe);
  fail_unless (memory_freed_after_hang (w), "the input memory was never "
      "freed after its job retired");
  waiter_free (w);
  gst_buffer_unref (content);
  gst_caps_unref (caps);
  g_free (desc);
}
GST_END_TEST;

/* Defect 7 (b): FLUSH_START from upstream while the element's streaming
 * thread waits for a hung job: the chain returns within 1 s (FLUSHING),
 * without an error message, the input memory stays alive while the job
 * may touch it; after FLUSH_STOP and a new segment the element converts
 * the next buffer correctly (once the device is past the hang). */
GST_START_TEST (test_flush_during_wait)
{
  const gchar *spec = "emulator:workers=1,local-kib=75,fault=hang,"
      "hang-ms=3000";
  /* one job at a time: the push itself waits for the hung job
   * (test_inflight.c flushes with jobs in flight) */
  gchar *desc = g_strdup_printf ("simaquanttess multiplier=64 device=%s "
      "timeout=60000 max-inflight=1", spec);
  GstBuffer *content = check_op_input (0, 61);
  GstBuffer *want = check_op_a65_output (0, 62), *out;
  SimaEv74Device *dev = NULL;
  GstSegment segment;
  GThread *thread;
  CheckHarness c;
  gint64 flushed;
  gchar *msg, *why = NULL;
  GstPad *pad;
  Waiter *w;

  fail_unless (sima_ev74_device_open (spec, &dev).code == SIMA_OK);
  w = waiter_new ();
  check_harness_new (&c, desc, CHECK_IN_CAPS, NULL);
  pad = gst_element_get_static_pad (check_harness_element (&c), "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, note_arrival, w, NULL);
  gst_object_unref (pad);
  w->h = c.h;
  w->buf = check_plugin_buffer (content, 0);
  gst_mini_object_weak_ref (GST_MINI_OBJECT_CAST (gst_buffer_peek_memory
          (w->buf, 0)), watched_memory_freed, w);
  thread = g_thread_new ("push", push_thread, w);
  fail_unless (waiter_wait (w, &w->arrived, 10 * G_USEC_PER_SEC));
  g_usleep (300000);
  flushed = g_get_monotonic_time ();
  fail_unless (gst_harness_push_event (c.h, gst_event_new_flush_start ()));
  waiter_wait (w, &w->done, 2 * PROMPT_US);
  g_thread_join (thread);       /* bounded by the hang */
  fail_unless (w->finished - flushed < PROMPT_US, "the chain returned %.2f s "
      "after FLUSH_START while a job hung in the device (hang-ms=%d)",
      (w->finished - flushed) / 1e6, HANG_MS);
  fail_unless (w->flow == GST_FLOW_FLUSHING, "flushed chain returned %s",
      gst_flow_get_name (w->flow));
  fail_unless (w->alive_after, "the input memory was freed while the hung "
      "job could still read it");
  msg = check_pop_message (&c, GST_MESSAGE_ERROR);
  fail_unless (msg == NULL, "a flush posted an error: %s", msg);

  /* the stream goes on: the next job waits behind the hung one only */
  fail_unless (sima_ev74_device_configure (dev, "fault=none").code ==
      SIMA_OK);
  fail_unless (gst_harness_push_event (c.h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (c.h, gst_event_new_segment (&segment)));
  out = push_pull (&c, check_op_input (0, 62), &why);
  fail_unless (out != NULL, "after the flush: %s", why);
  fail_unless (check_buffers_equal (want, out), "after the flush, the "
      "output differs from the A65's");
  gst_buffer_unref (out);
  check_harness_free (&c);
  fail_unless (memory_freed_after_hang (w), "the flushed input memory was "
      "never freed after its job retired");
  sima_ev74_device_unref (dev);
  waiter_free (w);
  gst_buffer_unref (want);
  gst_buffer_unref (content);
  g_free (desc);
}
GST_END_TEST;

/* ---- defect 9: an fd memory at an unaligned offset ----------------------- */

/* Defect 9: a plugin fd memory whose data start `offset` bytes into the
 * block (gst_memory_resize), on the emulator, where the device cannot
 * address it: tiles (simadetessdequant's input) need 16-byte alignment, a
 * float32 input (simaquanttess, simacasttess) its 4-byte scalar alignment,
 * so those get offset 4 and 2. Today: "input bus address 0x80000004 is not
 * 16-byte aligned" (and "... not 4-byte aligned"). After the fix it is
 * staged: the output equals the A65's and copies counts one per buffer. */
GST_START_TEST (test_unaligned_fd_input)
{
  const gsize offsets[3] = { 2, 2, 4 };
  const guint n = 3;
  int op;
  guint i;

  for (op = 0; op < 3; op++) {
    gchar *desc = g_strdup_printf ("%s device=emulator:workers=2",
        check_ops[op].element);
    CheckHarness c;

    check_harness_new (&c, desc, check_ops[op].in_caps, NULL);
    for (i = 0; i < n; i++) {
      GstBuffer *content = check_op_input (op, 70 + i);
      GstBuffer *want = check_op_a65_output (op, 70 + i);
      GstBuffer *in = check_plugin_buffer (content, offsets[op]), *out;
      gchar *why = NULL;

      fail_unless_equals_uint64 (gst_buffer_peek_memory (in, 0)->offset,
          offsets[op]);
      out = push_pull (&c, in, &why);
      fail_unless (out != NULL, "%s, input at offset %u: %s", desc,
          (guint) offsets[op], why);
      fail_unless (check_buffers_equal (want, out), "%s, input at offset "
          "%u: output differs from the A65's", desc, (guint) offsets[op]);
      fail_unless_equals_uint64 (prop_u64 (check_harness_element (&c),
              "copies"), i + 1);
      gst_buffer_unref (out);
      gst_buffer_unref (want);
      gst_buffer_unref (content);
    }
    check_harness_free (&c);
    g_free (desc);
  }
}
GST_END_TEST;

/* ---- defect 10: a deep queue and the bus aperture ------------------------ */

/* float32 <2048,1024,1>: 8 MiB in, 32 MiB of pad16 tiles out (one channel
 * padded to 16: the most output bytes per converted value, so the aperture
 * fills at the least cost, about 50 ms per buffer in a release build). 64
 * of them fill the 2 GiB aperture. */
#define APERTURE_CAPS TENSOR ",dtype=float32,shape=(int)<2048,1024,1>," \
  "layout=contiguous"
#define APERTURE_BUFFERS 80

typedef struct
{
  GMutex lock;
  GCond cond;
  gboolean released;
  gint through;                 /* atomic: buffers out of the converter */
} Gate;

static GstPadProbeReturn
count_through (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  (void) pad;
  (void) info;
  g_atomic_int_inc (&((Gate *) data)->through);
  return GST_PAD_PROBE_OK;
}

/* The sink is stuck until released (at most 60 s: no test hangs forever). */
static GstPadProbeReturn
hold_until_released (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Gate *g = data;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  (void) pad;
  (void) info;
  g_mutex_lock (&g->lock);
  while (!g->released && g_cond_wait_until (&g->cond, &g->lock, deadline)) {
  }
  g_mutex_unlock (&g->lock);
  return GST_PAD_PROBE_OK;
}

/* Defect 10: simaquanttess on the emulator behind queue
 * max-size-buffers=200 and a stuck sink. Every output buffer stays in the
 * queue, so an unbounded output pool imports a new 32 MiB memory per
 * buffer; today the 64th fails with "no room for 33554432 bytes in the bus
 * aperture". After the fix the element waits (a bounded pool: the stream
 * stalls without an error) or at least never fails; once the sink is
 * released all 80 buffers arrive, each equal to the A65's. A device of its
 * own (local-kib=73): the aperture is per device. Memory: about 2 GiB of
 * memfd today, what the bounded pool holds after the fix. */
GST_START_TEST (test_deep_queue_aperture)
{
  GstCaps *caps = gst_caps_from_string (APERTURE_CAPS);
  GstBuffer *content = input_for (APERTURE_CAPS, 80), *want;
  GstElement *pipe = gst_parse_launch ("appsrc name=src format=time ! "
      "simaquanttess name=q multiplier=64 "
      "device=emulator:workers=2,local-kib=73 ! "
      "queue max-size-buffers=200 max-size-bytes=0 max-size-time=0 ! "
      "appsink name=sink sync=false emit-signals=true", NULL);
  GstElement *src, *q, *sink;
  GstMemory *input;
  GstBus *bus;
  GstMessage *msg;
  GstFlowReturn ret;
  Checker checker;
  GstPad *pad;
  gint last = -1;
  gint64 deadline, last_change;
  gchar *error;
  Gate g;
  guint i;

  fail_unless (pipe != NULL);
  want = a65_reference ("simaquanttess multiplier=64", APERTURE_CAPS, NULL,
      content);
  memset (&g, 0, sizeof g);
  g_mutex_init (&g.lock);
  g_cond_init (&g.cond);
  memset (&checker, 0, sizeof checker);
  checker.want = &want;
  checker.n_want = 1;
  src = by_name (pipe, "src");
  q = by_name (pipe, "q");
  sink = by_name (pipe, "sink");
  g_object_set (src, "caps", caps, NULL);
  g_signal_connect (sink, "new-sample", G_CALLBACK (checker_new_sample),
      &checker);
  pad = gst_element_get_static_pad (q, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_through, &g, NULL);
  gst_object_unref (pad);
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, hold_until_released, &g,
      NULL);
  gst_object_unref (pad);
  input = check_plugin_memory (content, 0);
  for (i = 0; i < APERTURE_BUFFERS; i++) {
    /* one plugin memory for every input: imported once, never copied */
    GstBuffer *buf = gst_buffer_new ();
    gst_buffer_append_memory (buf, gst_memory_ref (input));
    GST_BUFFER_PTS (buf) = i * GST_MSECOND;
    GST_BUFFER_DURATION (buf) = GST_MSECOND;
    g_signal_emit_by_name (src, "push-buffer", buf, &ret);
    gst_buffer_unref (buf);
  }
  g_signal_emit_by_name (src, "end-of-stream", &ret);

  /* run until every buffer is through the converter, it stalls (a bounded
   * pool waiting: no progress for 2 s) or it fails */
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  last_change = g_get_monotonic_time ();
  while (g_get_monotonic_time () < deadline) {
    gint through = g_atomic_int_get (&g.through);

    msg = gst_bus_timed_pop_filtered (bus, 100 * GST_MSECOND,
        GST_MESSAGE_ERROR);
    if (msg != NULL) {
      error = message_text (msg);
      gst_message_unref (msg);
      g_mutex_lock (&g.lock);
      g.released = TRUE;
      g_cond_broadcast (&g.cond);
      g_mutex_unlock (&g.lock);
      gst_element_set_state (pipe, GST_STATE_NULL);
      ck_abort_msg ("after %d buffers behind a stuck sink: %s", through, error);
    }
    if (through >= APERTURE_BUFFERS)
      break;
    if (through != last) {
      last = through;
      last_change = g_get_monotonic_time ();
    } else if (g_get_monotonic_time () - last_change > 2 * G_USEC_PER_SEC) {
      break;
    }
  }
  g_mutex_lock (&g.lock);
  g.released = TRUE;
  g_cond_broadcast (&g.cond);
  g_mutex_unlock (&g.lock);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  error = msg == NULL ? g_strdup ("no EOS within 120 s")
      : GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS ? NULL : message_text (msg);
  if (msg != NULL)
    gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  fail_unless (error == NULL, "after the sink was released: %s", error);
  fail_unless_equals_int (checker.received, APERTURE_BUFFERS);
  fail_unless (checker.wrong == 0, "%u outputs differ from the A65's "
      "(first: buffer %u)", checker.wrong, checker.first_wrong);

  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (q);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  g_mutex_clear (&g.lock);
  g_cond_clear (&g.cond);
  gst_memory_unref (input);
  gst_buffer_unref (want);
  gst_buffer_unref (content);
  gst_caps_unref (caps);
}
GST_END_TEST;

/* ---- defect 15: properties changed while PLAYING ------------------------- */

typedef struct
{
  const gchar *element;         /* the element as it starts */
  const gchar *property, *value;        /* changed while PLAYING */
  const gchar *after;           /* the element as it should then convert */
  const gchar *in_caps;
  const gchar *out_caps;        /* what the output caps become, or NULL */
} Change;

#define CAST_TILES_W8 TENSOR ",dtype=bfloat16,shape=(int)<8,16,3>," \
  "layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,8,8,16>," \
  "channels=pad16"

static const Change changes[] = {
  {"simaquanttess multiplier=127", "multiplier", "64",
      "simaquanttess multiplier=64", CHECK_IN_CAPS, NULL},
  {"simaquanttess multiplier=64", "zero-point", "5",
      "simaquanttess multiplier=64 zero-point=5", CHECK_IN_CAPS, NULL},
  {"simaquanttess multiplier=100", "rounding", "toward-zero",
      "simaquanttess multiplier=100 rounding=toward-zero", CHECK_IN_CAPS,
      NULL},
  {"simadetessdequant scale=0.0625", "scale", "0.5",
      "simadetessdequant scale=0.5", CHECK_TILES_CAPS, NULL},
  {"simadetessdequant scale=0.0625", "zero-point", "3",
      "simadetessdequant scale=0.0625 zero-point=3", CHECK_TILES_CAPS, NULL},
  {"simadetessdequant scale=0.0625 zero-point=3", "scale-convention",
      "divide", "simadetessdequant scale=0.0625 zero-point=3 "
      "scale-convention=divide", CHECK_TILES_CAPS, NULL},
  {"simacasttess", "tile-shape", "<1,8,8,16>",
      "simacasttess tile-shape=\"<1,8,8,16>\"", CHECK_IN_CAPS, CAST_TILES_W8},
};

/* Defect 15, the conversion parameters (the lead's rule: reconfigure):
 * multiplier, zero-point and rounding of simaquanttess, scale, zero-point
 * and scale-convention of simadetessdequant, tile-shape of simacasttess, each changed
 * while PLAYING, on the A65 and on the emulator: the next buffer is
 * converted with the new value, byte for byte as a fresh element with that
 * value (and, for tile-shape, the output caps say the new tiling). The
 * element must reconfigure itself: the harness, like many upstream
 * elements, does not renegotiate on a RECONFIGURE event. Today the old plan
 * stays until the caps change. */
GST_START_TEST (test_properties_while_playing)
{
  const gchar *backends[] = { "backend=a65", "device=emulator:workers=2" };
  guint i, b;

  for (i = 0; i < G_N_ELEMENTS (changes); i++) {
    const Change *ch = &changes[i];
    GstBuffer *in = input_for (ch->in_caps, 90 + i);
    GstBuffer *before = a65_reference (ch->element, ch->in_caps, NULL, in);
    GstBuffer *after = a65_reference (ch->after, ch->in_caps, ch->out_caps,
        in);

    fail_if (check_buffers_equal (before, after), "change %u makes no "
        "difference to the test input", i);
    for (b = 0; b < G_N_ELEMENTS (backends); b++) {
      gchar *desc = g_strdup_printf ("%s %s", ch->element, backends[b]);
      gchar *why = NULL;
      GstBuffer *out;
      CheckHarness c;

      check_harness_new (&c, desc, ch->in_caps, NULL);
      out = push_pull (&c, gst_buffer_ref (in), &why);
      fail_unless (out != NULL, "%s: %s", desc, why);
      fail_unless (check_buffers_equal (before, out), "%s: wrong output "
          "before the change", desc);
      gst_buffer_unref (out);
      gst_util_set_object_arg (G_OBJECT (check_harness_element (&c)),
          ch->property, ch->value);
      out = push_pull (&c, gst_buffer_ref (in), &why);
      fail_unless (out != NULL, "%s, after %s=%s: %s", desc, ch->property,
          ch->value, why);
      fail_unless (check_buffers_equal (after, out), "%s: %s=%s set while "
          "PLAYING is not applied to the next buffer", desc, ch->property,
          ch->value);
      gst_buffer_unref (out);
      if (ch->out_caps != NULL) {
        GstCaps *now = gst_pad_get_current_caps (c.h->sinkpad);
        GstCaps *want = gst_caps_from_string (ch->out_caps);
        fail_unless (now != NULL && gst_caps_is_equal (now, want),
            "%s: output caps %" GST_PTR_FORMAT " after %s=%s", desc, now,
            ch->property, ch->value);
        gst_caps_unref (now);
        gst_caps_unref (want);
      }
      check_harness_free (&c);
      g_free (desc);
    }
    gst_buffer_unref (before);
    gst_buffer_unref (after);
    gst_buffer_unref (in);
  }
}
GST_END_TEST;

/* Defect 15, the backend properties (the lead's rule: refuse with a
 * GST_ELEMENT_WARNING): backend, fallback and device changed while PLAYING
 * on the emulator each post a warning; the element stays on the EV74 and
 * keeps converting correctly. Today nothing is posted (the value is
 * silently taken at the next start). */
GST_START_TEST (test_refused_properties_while_playing)
{
  const gchar *props[][2] = { {"backend", "a65"}, {"fallback", "a65"},
  {"device", "emulator:workers=3"}
  };
  GstBuffer *in = check_op_input (0, 95);
  GstBuffer *want = check_op_a65_output (0, 95);
  GEnumClass *klass = g_type_class_ref (g_type_from_name
      ("GstSimaActiveBackend"));
  gint ev74 = g_enum_get_value_by_nick (klass, "ev74")->value;
  CheckHarness c;
  gchar *why = NULL, *msg;
  GstBuffer *out;
  guint i;

  check_harness_new (&c, "simaquanttess multiplier=64 "
      "device=emulator:workers=2", CHECK_IN_CAPS, NULL);
  out = push_pull (&c, gst_buffer_ref (in), &why);
  fail_unless (out != NULL, "%s", why);
  gst_buffer_unref (out);
  g_free (check_pop_message (&c, GST_MESSAGE_WARNING));   /* drain */
  for (i = 0; i < G_N_ELEMENTS (props); i++) {
    gint active;

    gst_util_set_object_arg (G_OBJECT (check_harness_element (&c)),
        props[i][0], props[i][1]);
    out = push_pull (&c, gst_buffer_ref (in), &why);
    fail_unless (out != NULL, "after %s=%s: %s", props[i][0], props[i][1],
        why);
    fail_unless (check_buffers_equal (want, out), "after %s=%s: output "
        "differs from the A65's", props[i][0], props[i][1]);
    gst_buffer_unref (out);
    msg = check_pop_message (&c, GST_MESSAGE_WARNING);
    fail_unless (msg != NULL, "%s=%s set while PLAYING: no warning",
        props[i][0], props[i][1]);
    g_free (msg);
    g_object_get (check_harness_element (&c), "active-backend", &active,
        NULL);
    fail_unless_equals_int (active, ev74);
  }
  check_harness_free (&c);
  g_type_class_unref (klass);
  gst_buffer_unref (want);
  gst_buffer_unref (in);
}
GST_END_TEST;

/* ---- renegotiation to another shape -------------------------------------- */

#define FLOAT_B TENSOR ",dtype=float32,shape=(int)<24,40,5>,layout=contiguous"
#define BF16_C TENSOR ",dtype=bfloat16,shape=(int)<5,7,33>,layout=contiguous"
#define TILES_B TENSOR ",dtype=int8,shape=(int)<24,40,5>,layout=mla-tiled," \
  "tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,8,16,16>,channels=pad16"
#define TILES_C TENSOR ",dtype=int8,shape=(int)<5,7,33>,layout=mla-tiled," \
  "tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,8,16,16>,channels=pad16"

/* Issue 14's new tests: renegotiation. Each converter on backend=a65 and
 * on the emulator gets caps A, buffers, caps B (another shape), buffers,
 * caps C (another shape, and dtype for the float inputs), buffers, caps A
 * again, buffers: every output equals a fresh A65 element's for those
 * caps. */
GST_START_TEST (test_renegotiate_shape)
{
  const gchar *backends[] = { "backend=a65", "device=emulator:workers=2" };
  const gchar *float_caps[] = { CHECK_IN_CAPS, FLOAT_B, BF16_C,
    CHECK_IN_CAPS
  };
  const gchar *tile_caps[] = { CHECK_TILES_CAPS, TILES_B, TILES_C,
    CHECK_TILES_CAPS
  };
  int op;
  guint b, k, i;

  for (op = 0; op < 3; op++) {
    const gchar **caps = op == DETESS_INDEX ? tile_caps : float_caps;
    for (b = 0; b < G_N_ELEMENTS (backends); b++) {
      gchar *desc = g_strdup_printf ("%s %s", check_ops[op].element,
          backends[b]);
      CheckHarness c;

      check_harness_new (&c, desc, NULL, NULL);
      for (k = 0; k < G_N_ELEMENTS (float_caps); k++) {
        gst_harness_set_src_caps_str (c.h, caps[k]);
        for (i = 0; i < 2; i++) {
          GstBuffer *in = input_for (caps[k], 200 + 10 * k + i);
          GstBuffer *want = a65_reference (check_ops[op].element, caps[k],
              NULL, in);
          gchar *why = NULL;
          GstBuffer *out = push_pull (&c, in, &why);

          fail_unless (out != NULL, "%s, caps %u (%s): %s", desc, k, caps[k],
              why);
          fail_unless (check_buffers_equal (want, out), "%s, caps %u (%s), "
              "buffer %u: output differs from the A65's", desc, k, caps[k],
              i);
          gst_buffer_unref (out);
          gst_buffer_unref (want);
        }
      }
      check_harness_free (&c);
      g_free (desc);
    }
  }
}
GST_END_TEST;

/* ---- 8 pipelines on one device ------------------------------------------- */

#define N_PIPELINES 8
#define PIPELINE_BUFFERS 40

static gchar *
pipeline_desc (guint k, const gchar * where)
{
  guint h = 16 + 8 * k, w = 32 + 16 * (k % 3);
  gchar *caps = g_strdup_printf (TENSOR ",dtype=float32,shape=(int)<%u,%u,3>,"
      "layout=contiguous", h, w);
  gchar *ops, *desc;

  if (k % 3 == 0)
    ops = g_strdup_printf ("simaquanttess multiplier=64 %s ! "
        "simadetessdequant scale=0.015625 %s", where, where);
  else if (k % 3 == 1)
    ops = g_strdup_printf ("simacasttess %s", where);
  else
    ops = g_strdup_printf ("simaquanttess multiplier=100 zero-point=-3 %s",
        where);
  desc = g_strdup_printf ("simatensorsrc pattern=random seed=%u "
      "num-buffers=%u ! %s ! %s ! appsink name=sink sync=false "
      "emit-signals=true", k + 1, PIPELINE_BUFFERS, caps, ops);
  g_free (ops);
  g_free (caps);
  return desc;
}

static GstFlowReturn
collect_sample (GstElement * sink, gpointer data)
{
  GPtrArray *hashes = data;
  GstSample *sample = NULL;
  GstMapInfo map;
  GstBuffer *buf;

  g_signal_emit_by_name (sink, "pull-sample", &sample);
  if (sample == NULL)
    return GST_FLOW_ERROR;
  buf = gst_sample_get_buffer (sample);
  if (gst_buffer_map (buf, &map, GST_MAP_READ)) {
    g_ptr_array_add (hashes, g_compute_checksum_for_data (G_CHECKSUM_SHA256,
            map.data, map.size));
    gst_buffer_unmap (buf, &map);
  } else {
    g_ptr_array_add (hashes, g_strdup ("unmappable"));
  }
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

typedef struct
{
  gchar *desc;
  GPtrArray *hashes;            /* SHA-256 of every output, in order */
  gchar *error;
} Run;

static gpointer
run_pipeline (gpointer data)
{
  Run *r = data;
  GstElement *pipe = gst_parse_launch (r->desc, NULL), *sink;

  r->hashes = g_ptr_array_new_with_free_func (g_free);
  if (pipe == NULL) {
    r->error = g_strdup ("cannot parse");
    return NULL;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  g_signal_connect (sink, "new-sample", G_CALLBACK (collect_sample),
      r->hashes);
  r->error = run_to_eos (pipe, 120);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  return NULL;
}

static void
assert_same_outputs (Run * a, Run * b, const gchar * what)
{
  guint i;

  fail_unless (a->error == NULL, "%s: %s", a->desc, a->error);
  fail_unless (b->error == NULL, "%s: %s", b->desc, b->error);
  fail_unless_equals_int (a->hashes->len, PIPELINE_BUFFERS);
  fail_unless_equals_int (b->hashes->len, PIPELINE_BUFFERS);
  for (i = 0; i < a->hashes->len; i++)
    fail_unless_equals_string (g_ptr_array_index (a->hashes, i),
        g_ptr_array_index (b->hashes, i));
  (void) what;
}

static void
run_clear (Run * r)
{
  g_free (r->desc);
  g_free (r->error);
  if (r->hashes != NULL)
    g_ptr_array_unref (r->hashes);
}

/* Issue 14's new tests: 8 pipelines (QuantTess ! DetessDequant, CastTess,
 * QuantTess; 8 shapes) sharing device=emulator:workers=4, run at once from
 * 8 threads: every output identical to a serial run on the same device,
 * which is identical to a serial run on the A65. */
GST_START_TEST (test_concurrent_pipelines)
{
  const gchar *dev = "device=emulator:workers=4";
  Run a65[N_PIPELINES], serial[N_PIPELINES], together[N_PIPELINES];
  GThread *threads[N_PIPELINES];
  guint k;

  memset (a65, 0, sizeof a65);
  memset (serial, 0, sizeof serial);
  memset (together, 0, sizeof together);
  for (k = 0; k < N_PIPELINES; k++) {
    a65[k].desc = pipeline_desc (k, "backend=a65");
    serial[k].desc = pipeline_desc (k, dev);
    together[k].desc = pipeline_desc (k, dev);
    run_pipeline (&a65[k]);
    run_pipeline (&serial[k]);
    assert_same_outputs (&a65[k], &serial[k], "serial");
  }
  for (k = 0; k < N_PIPELINES; k++)
    threads[k] = g_thread_new ("pipeline", run_pipeline, &together[k]);
  for (k = 0; k < N_PIPELINES; k++)
    g_thread_join (threads[k]);
  for (k = 0; k < N_PIPELINES; k++) {
    assert_same_outputs (&serial[k], &together[k], "concurrent");
    run_clear (&a65[k]);
    run_clear (&serial[k]);
    run_clear (&together[k]);
  }
}
GST_END_TEST;

/* ---- defect 14: the elements' own debug categories ----------------------- */

typedef struct
{
  const gchar *category;
  gint count;                   /* atomic */
} LogCount;

static void
count_category (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer data)
{
  LogCount *lc = data;

  (void) level;
  (void) file;
  (void) function;
  (void) line;
  (void) object;
  (void) message;
  if (g_str_equal (gst_debug_category_get_name (category), lc->category))
    g_atomic_int_inc (&lc->count);
}

/* Defect 14: with the threshold of the element's category (simaquanttess,
 * simacasttess, simadetessdequant) at LOG and nothing else raised,
 * negotiating and converting one buffer (emulator) logs at least one
 * message in that category. Today everything logs in simabasetransform. */
GST_START_TEST (test_element_debug_category)
{
  const gchar *categories[] = { "simaquanttess", "simacasttess",
    "simadetessdequant"
  };
  guint removed = gst_debug_remove_log_function (gst_debug_log_default);
  int op;

  for (op = 0; op < 3; op++) {
    gchar *desc = g_strdup_printf ("%s device=emulator:workers=2",
        check_ops[op].element);
    LogCount lc = { categories[op], 0 };
    gchar *why = NULL;
    GstBuffer *out;
    CheckHarness c;

    gst_debug_add_log_function (count_category, &lc, NULL);
    gst_debug_set_threshold_for_name (categories[op], GST_LEVEL_LOG);
    check_harness_new (&c, desc, check_ops[op].in_caps, NULL);
    out = push_pull (&c, check_op_input (op, 99), &why);
    fail_unless (out != NULL, "%s: %s", desc, why);
    gst_buffer_unref (out);
    check_harness_free (&c);
    gst_debug_unset_threshold_for_name (categories[op]);
    gst_debug_remove_log_function (count_category);
    fail_unless (g_atomic_int_get (&lc.count) > 0, "%s logged nothing in "
        "category %s at LOG level", desc, categories[op]);
    g_free (desc);
  }
  if (removed > 0)
    gst_debug_add_log_function (gst_debug_log_default, NULL, NULL);
}
GST_END_TEST;

/* Our pools have no maximum: a neighbour that holds more buffers than a
 * bounded pool would give (queues with min-threshold-buffers, upstream
 * and downstream) must not stall the stream. With pools bounded to their
 * minimum + 4 these lines never reached EOS. */
GST_START_TEST (test_neighbours_holding_many_buffers)
{
  static const gchar *backends[] = { "backend=a65",
    "device=emulator:workers=2"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (backends); i++) {
    gchar *desc = g_strdup_printf ("simatensorsrc num-buffers=50 ! "
        TENSOR ",dtype=float32,shape=(int)<1,16,16,16> ! "
        "queue min-threshold-buffers=8 ! simaquanttess multiplier=127 %s ! "
        "queue min-threshold-buffers=8 ! fakesink", backends[i]);
    GstElement *pipe = gst_parse_launch (desc, NULL);
    gchar *why;

    fail_unless (pipe != NULL, "%s", desc);
    why = run_to_eos (pipe, 20);
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (pipe);
    fail_unless (why == NULL, "%s: %s", backends[i], why);
    g_free (desc);
  }
}
GST_END_TEST;

static Suite *
glue_suite (void)
{
  Suite *s = suite_create ("glue");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_active_downstream_pool);
  tcase_add_test (tc, test_stop_during_wait);
  tcase_add_test (tc, test_flush_during_wait);
  tcase_add_test (tc, test_unaligned_fd_input);
  tcase_add_test (tc, test_deep_queue_aperture);
  tcase_add_test (tc, test_properties_while_playing);
  tcase_add_test (tc, test_refused_properties_while_playing);
  tcase_add_test (tc, test_renegotiate_shape);
  tcase_add_test (tc, test_concurrent_pipelines);
  tcase_add_test (tc, test_element_debug_category);
  tcase_add_test (tc, test_neighbours_holding_many_buffers);
  /* last: on today's code these crash (SIGSEGV in the emulator's DMA, or an
   * ASan report), which ends the program (CK_FORK=no) */
  tcase_add_test (tc, test_tee_pooled_imports);
  tcase_add_test (tc, test_tee_new_memories);
  return s;
}

GST_CHECK_MAIN (glue);
