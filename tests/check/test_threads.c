/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The `threads` property of the four converters (issue 19): on the A65 one
 * buffer is split over N threads with the same output bytes as one thread
 * (1080p and small shapes, across a renegotiation), the element's worker
 * threads appear, change and end with the property and the state (counted
 * in /proc/self/task), the EV74 path ignores it, state changes and property
 * changes while buffers flow keep the bytes, two pipelines with threads=2
 * run at once, so do two converters behind a tee, and the property's
 * range and default (the pool that cannot be made: test_threads_fault.c).
 */
#include <dirent.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check_util.h"
#include "gstsimacaps.h"

#define FLOAT_IN(shape) TENSOR ",dtype=float32,shape=(int)<" shape ">," \
  "layout=contiguous"
#define TILES_IN(dtype, shape) TENSOR ",dtype=" dtype ",shape=(int)<" shape \
  ">,layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,8,16,16>," \
  "channels=pad16"

/* a 1080p frame (135 x 120 tiles of H8/W16), a feature map of some
 * hundred tiles, and a shape smaller than one tile row */
#define BIG "1080,1920,3"
#define MEDIUM "136,240,3"
#define SMALL "6,20,3"

typedef struct
{
  const gchar *element;         /* with its required parameters */
  gboolean tiled_in;            /* random bytes in; else a float pattern */
  const gchar *big, *medium, *small;    /* input caps */
  const gchar *out;             /* output caps, left open for the element */
} Op;

static const Op ops[4] = {
  {"simaquanttess multiplier=64 zero-point=-3", FALSE,
      FLOAT_IN (BIG), FLOAT_IN (MEDIUM), FLOAT_IN (SMALL),
      TENSOR ",dtype=int8,layout=mla-tiled"},
  {"simacasttess", FALSE, FLOAT_IN (BIG), FLOAT_IN (MEDIUM), FLOAT_IN (SMALL),
      TENSOR ",dtype=bfloat16,layout=mla-tiled"},
  {"simadetessdequant scale=0.0625 zero-point=3", TRUE,
        TILES_IN ("int8", BIG), TILES_IN ("int8", MEDIUM),
        TILES_IN ("int8", SMALL),
      TENSOR ",dtype=float32,layout=contiguous"},
  {"simadetesscast", TRUE, TILES_IN ("bfloat16", BIG),
        TILES_IN ("bfloat16", MEDIUM), TILES_IN ("bfloat16", SMALL),
      TENSOR ",dtype=float32,layout=contiguous"},
};

/* An input for `caps`: random values in [-1.5, 1.5] for float tensors,
 * random bytes (any BF16 bit pattern, garbage padding) for tiles. */
static GstBuffer *
input_for (const Op * op, const gchar * caps, guint64 seed)
{
  SimaTensorSpec spec = check_spec (caps);
  guint64 bytes = check_required_bytes (&spec);

  return op->tiled_in ? check_random_buffer (bytes, seed)
      : check_tensor_buffer (&spec, bytes, SIMA_PATTERN_RANDOM, seed);
}

/* The output of "<element> backend=a65 <props>" for one input. */
static GstBuffer *
harness_output (const Op * op, const gchar * props, const gchar * caps,
    GstBuffer * in)
{
  gchar *desc = g_strdup_printf ("%s backend=a65 %s", op->element, props);
  GstBuffer *out;
  CheckHarness c;
  gchar *err;

  check_harness_new (&c, desc, caps, op->out);
  out = gst_harness_push_and_pull (c.h, gst_buffer_ref (in));
  err = check_pop_message (&c, GST_MESSAGE_ERROR);
  fail_unless (out != NULL, "%s: no output for %s: %s", desc, caps, err);
  g_free (err);
  check_harness_free (&c);
  g_free (desc);
  return out;
}

/* The bytes of threads=1, the reference every other count must equal.
 * They are checked not to be all zero, so that equal outputs of an
 * element that wrote nothing do not pass. */
static GstBuffer *
reference (const Op * op, const gchar * caps, GstBuffer * in)
{
  GstBuffer *out = harness_output (op, "threads=1", caps, in);
  GstMapInfo map;
  gsize i;

  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  for (i = 0; i < map.size && map.data[i] == 0; i++);
  fail_unless (i < map.size, "%s: threads=1 wrote only zeros", op->element);
  gst_buffer_unmap (out, &map);
  return out;
}

/* Threads of this process (Linux: /proc/self/task). */
static guint
process_threads (void)
{
  DIR *dir = opendir ("/proc/self/task");
  struct dirent *d;
  guint n = 0;

  fail_unless (dir != NULL, "no /proc/self/task");
  while ((d = readdir (dir)) != NULL)
    n += d->d_name[0] != '.';
  closedir (dir);
  return n;
}

/* An ended thread may stay listed a moment after its join returned. */
static guint
process_threads_settled (guint want)
{
  guint n = process_threads (), k;

  for (k = 0; k < 200 && n != want; k++) {
    g_usleep (5000);
    n = process_threads ();
  }
  return n;
}

static guint
online_cpus (void)
{
  long n = sysconf (_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : (guint) MIN (n, 64);
}

/* ---- the same bytes ----------------------------------------------------- */

/* threads=2, 3 and 0 give the bytes of threads=1, on one harness that
 * goes small -> 1080p -> small (two renegotiations with the pool made). */
GST_START_TEST (test_same_bytes)
{
  const guint counts[] = { 2, 3, 0 };
  const Op *op = &ops[__i__];
  const gchar *shapes[3] = { op->small, op->big, op->small };
  GstBuffer *in[3], *want[3];
  guint t, s;

  for (s = 0; s < 3; s++) {
    in[s] = input_for (op, shapes[s], 100 + s);
    want[s] = reference (op, shapes[s], in[s]);
  }
  for (t = 0; t < G_N_ELEMENTS (counts); t++) {
    gchar *desc = g_strdup_printf ("%s backend=a65 threads=%u", op->element,
        counts[t]);
    CheckHarness c;

    check_harness_new (&c, desc, shapes[0], op->out);
    for (s = 0; s < 3; s++) {
      GstBuffer *out;
      gchar *err;

      if (s > 0)
        gst_harness_set_src_caps_str (c.h, shapes[s]);
      out = gst_harness_push_and_pull (c.h, gst_buffer_ref (in[s]));
      err = check_pop_message (&c, GST_MESSAGE_ERROR);
      fail_unless (out != NULL, "%s: no output for %s: %s", desc, shapes[s],
          err);
      fail_unless (check_buffers_equal (want[s], out), "%s: the bytes of %s "
          "differ from threads=1", desc, shapes[s]);
      g_free (err);
      gst_buffer_unref (out);
    }
    check_harness_free (&c);
    g_free (desc);
  }
  for (s = 0; s < 3; s++) {
    gst_buffer_unref (in[s]);
    gst_buffer_unref (want[s]);
  }
}
GST_END_TEST;

/* Tensor sets: each member is split over the threads in turn (YOLO-like
 * heads for the detilers, two float members for the converters). */
static const struct
{
  const gchar *element, *in, *out;
  gboolean floats;
} sets[4] = {
  {"simaquanttess multiplier=64", TENSOR ",representation=tensor-set,"
        "dtype=float32,layout=contiguous,shape=(int)<<120,160,3>,<40,40,20>>",
        TENSOR ",representation=tensor-set,dtype=int8,layout=mla-tiled,"
        "tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<<1,8,16,16>,<1,2,4,16>>,"
      "channels=pad16", TRUE},
  {"simacasttess", TENSOR ",representation=tensor-set,dtype=float32,"
        "layout=contiguous,shape=(int)<<120,160,3>,<40,40,20>>",
        TENSOR ",representation=tensor-set,dtype=bfloat16,layout=mla-tiled,"
        "tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<<1,8,16,16>,<1,2,4,16>>,"
      "channels=pad16", TRUE},
  {"simadetessdequant scale=0.0625", TENSOR ",representation=tensor-set,"
        "dtype=int8,layout=mla-tiled,channels=pad16,tile-axes=(int)<-1,0,1,2>,"
        "shape=(int)<<80,80,64>,<40,40,64>,<20,20,80>>,"
        "tile-shape=(int)<<1,1,80,64>,<1,1,40,64>,<1,1,20,80>>",
      TENSOR ",representation=tensor-set,dtype=float32,layout=contiguous",
      FALSE},
  {"simadetesscast", TENSOR ",representation=tensor-set,dtype=bfloat16,"
        "layout=mla-tiled,channels=pad16,tile-axes=(int)<-1,0,1,2>,"
        "shape=(int)<<80,80,64>,<40,40,64>,<20,20,80>>,"
        "tile-shape=(int)<<1,1,80,64>,<1,1,40,64>,<1,1,20,80>>",
      TENSOR ",representation=tensor-set,dtype=float32,layout=contiguous",
      FALSE},
};

static GstBuffer *
set_output (guint op, guint threads, GstBuffer * in)
{
  gchar *desc = g_strdup_printf ("%s backend=a65 threads=%u",
      sets[op].element, threads);
  GstBuffer *out;
  CheckHarness c;
  gchar *err;

  check_harness_new (&c, desc, sets[op].in, sets[op].out);
  out = gst_harness_push_and_pull (c.h, gst_buffer_ref (in));
  err = check_pop_message (&c, GST_MESSAGE_ERROR);
  fail_unless (out != NULL, "%s: no output: %s", desc, err);
  g_free (err);
  check_harness_free (&c);
  g_free (desc);
  return out;
}

GST_START_TEST (test_set_same_bytes)
{
  GstCaps *caps = gst_caps_from_string (sets[__i__].in);
  GstBuffer *in, *want, *out;
  gchar *error = NULL;
  guint64 bytes;
  GstMapInfo map;
  gsize i;

  fail_unless (gst_sima_caps_required_bytes (caps, &bytes, &error), "%s",
      error);
  gst_caps_unref (caps);
  in = check_random_buffer (bytes, 50);
  if (sets[__i__].floats) {
    /* finite values in [-2, 2): the bytes of random floats hold NaNs */
    gst_buffer_map (in, &map, GST_MAP_READWRITE);
    for (i = 0; i + 4 <= map.size; i += 4) {
      gfloat f = (gfloat) ((gint) (map.data[i] | (map.data[i + 1] << 8))
          - 32768) / 16384.0f;
      memcpy (map.data + i, &f, 4);
    }
    gst_buffer_unmap (in, &map);
  }
  want = set_output (__i__, 1, in);
  fail_unless (gst_buffer_map (want, &map, GST_MAP_READ));
  for (i = 0; i < map.size && map.data[i] == 0; i++);
  fail_unless (i < map.size, "%s: threads=1 wrote only zeros",
      sets[__i__].element);
  gst_buffer_unmap (want, &map);
  out = set_output (__i__, 2, in);
  fail_unless (check_buffers_equal (want, out), "%s: set, threads=2 differs",
      sets[__i__].element);
  gst_buffer_unref (out);
  out = set_output (__i__, 0, in);
  fail_unless (check_buffers_equal (want, out), "%s: set, threads=0 differs",
      sets[__i__].element);
  gst_buffer_unref (out);
  gst_buffer_unref (want);
  gst_buffer_unref (in);
}
GST_END_TEST;

/* ---- the element's threads ---------------------------------------------- */

/* One push of `in`, checked against `want`. */
static void
push_check (CheckHarness * c, GstBuffer * in, GstBuffer * want,
    const gchar * what)
{
  GstBuffer *out = gst_harness_push_and_pull (c->h, gst_buffer_ref (in));
  gchar *err = check_pop_message (c, GST_MESSAGE_ERROR);

  fail_unless (out != NULL, "%s: no output: %s", what, err);
  fail_unless (check_buffers_equal (want, out), "%s: bytes differ", what);
  g_free (err);
  gst_buffer_unref (out);
}

/* threads=N runs N - 1 workers of the element's own from the first A65
 * buffer on, as many as the property says after a change while playing,
 * none after a stop, and again after a restart. */
GST_START_TEST (test_workers_follow_property)
{
  const Op *op = &ops[__i__];
  GstBuffer *in = input_for (op, op->medium, 7);
  GstBuffer *want = reference (op, op->medium, in);
  gchar *desc = g_strdup_printf ("%s backend=a65 threads=3", op->element);
  guint base, cpus = online_cpus ();
  GstElement *e;
  CheckHarness c;

  check_harness_new (&c, desc, op->medium, op->out);
  e = check_harness_element (&c);
  base = process_threads ();
  push_check (&c, in, want, "threads=3");
  fail_unless_equals_int (process_threads (), base + 2);
  push_check (&c, in, want, "threads=3, second buffer");
  fail_unless_equals_int (process_threads (), base + 2);

  g_object_set (e, "threads", 1, NULL);
  /* nothing changes before the next buffer */
  fail_unless_equals_int (process_threads (), base + 2);
  push_check (&c, in, want, "threads=1");
  fail_unless_equals_int (process_threads_settled (base), base);

  g_object_set (e, "threads", 0, NULL);
  push_check (&c, in, want, "threads=0");
  fail_unless_equals_int (process_threads (), base + cpus - 1);

  g_object_set (e, "threads", 4, NULL);
  push_check (&c, in, want, "threads=4");
  fail_unless_equals_int (process_threads_settled (base + 3), base + 3);

  /* a stop ends them; the next start makes them at the first buffer */
  fail_unless (gst_element_set_state (c.h->element, GST_STATE_READY)
      == GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (process_threads_settled (base), base);
  fail_unless (gst_element_set_state (c.h->element, GST_STATE_PLAYING)
      == GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (process_threads (), base);
  gst_harness_set_src_caps_str (c.h, op->medium);
  push_check (&c, in, want, "threads=4 after a restart");
  fail_unless_equals_int (process_threads (), base + 3);

  check_harness_free (&c);
  fail_unless_equals_int (process_threads_settled (base), base);
  gst_buffer_unref (in);
  gst_buffer_unref (want);
  g_free (desc);
}
GST_END_TEST;

static gint64
cpu_ns (clockid_t clock)
{
  struct timespec ts;

  clock_gettime (clock, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

/* Share of the process's CPU time spent outside this thread while it
 * pushes `n` 1080p buffers through `threads` (the harness converts in the
 * pushing thread; the process has no other busy thread). */
static gdouble
share_off_this_thread (const Op * op, guint threads, GstBuffer * in,
    GstBuffer * want, guint n)
{
  gchar *desc = g_strdup_printf ("%s backend=a65 threads=%u", op->element,
      threads);
  gint64 t0, p0, dt, dp;
  CheckHarness c;
  guint k;

  check_harness_new (&c, desc, op->big, op->out);
  push_check (&c, in, want, desc);      /* the pool is made here */
  t0 = cpu_ns (CLOCK_THREAD_CPUTIME_ID);
  p0 = cpu_ns (CLOCK_PROCESS_CPUTIME_ID);
  for (k = 0; k < n; k++)
    push_check (&c, in, want, desc);
  dt = cpu_ns (CLOCK_THREAD_CPUTIME_ID) - t0;
  dp = cpu_ns (CLOCK_PROCESS_CPUTIME_ID) - p0;
  check_harness_free (&c);
  g_free (desc);
  return dp > 0 ? (gdouble) (dp - dt) / (gdouble) dp : 0.0;
}

/* The workers do the work: with threads=2 a good part of the CPU time is
 * spent off the streaming thread (half of the tiles, less the waits and
 * the compare), with threads=1 next to none. Workers that exist but are
 * not handed the execution fail this; the thread count cannot tell. */
GST_START_TEST (test_work_is_split)
{
  const Op *op = &ops[__i__];
  GstBuffer *in = input_for (op, op->big, 11);
  GstBuffer *want = reference (op, op->big, in);
  gdouble one = share_off_this_thread (op, 1, in, want, 3);
  gdouble two = share_off_this_thread (op, 2, in, want, 3);

  GST_INFO ("%s: CPU share off the streaming thread: threads=1 %.3f, "
      "threads=2 %.3f", op->element, one, two);
  fail_unless (one < 0.1, "%s threads=1: %.3f of the CPU time off the "
      "streaming thread", op->element, one);
  fail_unless (two > 0.2, "%s threads=2: only %.3f of the CPU time off the "
      "streaming thread", op->element, two);
  gst_buffer_unref (in);
  gst_buffer_unref (want);
}
GST_END_TEST;

/* On the EV74 the property is ignored: no worker of ours, the A65's
 * bytes (the emulator's workers are made at start, before the count). */
GST_START_TEST (test_ev74_ignores_threads)
{
  const Op *op = &ops[__i__];
  GstBuffer *in = input_for (op, op->medium, 8);
  GstBuffer *want = reference (op, op->medium, in);
  gchar *desc = g_strdup_printf ("%s device=emulator:workers=1 threads=4 "
      "max-inflight=1", op->element);
  guint base;
  CheckHarness c;

  check_harness_new (&c, desc, op->medium, op->out);
  base = process_threads ();
  push_check (&c, in, want, desc);
  push_check (&c, in, want, desc);
  fail_unless_equals_int (process_threads (), base);
  check_harness_free (&c);
  gst_buffer_unref (in);
  gst_buffer_unref (want);
  g_free (desc);
}
GST_END_TEST;

/* ---- pipelines ---------------------------------------------------------- */

/* appsrc ! <element> backend=a65 threads=T name=e ! appsink */
typedef struct
{
  GstElement *pipe, *src, *e, *sink;
} Pipe;

static void
pipe_new (Pipe * p, const Op * op, guint threads, const gchar * in_caps)
{
  gchar *desc = g_strdup_printf ("appsrc name=src format=time ! %s "
      "backend=a65 threads=%u name=e ! appsink name=sink sync=false",
      op->element, threads);
  GstCaps *caps;

  p->pipe = gst_parse_launch (desc, NULL);
  fail_unless (p->pipe != NULL, "cannot make %s", desc);
  p->src = gst_bin_get_by_name (GST_BIN (p->pipe), "src");
  p->e = gst_bin_get_by_name (GST_BIN (p->pipe), "e");
  p->sink = gst_bin_get_by_name (GST_BIN (p->pipe), "sink");
  caps = gst_caps_from_string (in_caps);
  g_object_set (p->src, "caps", caps, NULL);
  gst_caps_unref (caps);
  caps = gst_caps_from_string (op->out);
  g_object_set (p->sink, "caps", caps, NULL);
  gst_caps_unref (caps);
  g_free (desc);
}

static void
pipe_free (Pipe * p)
{
  gst_element_set_state (p->pipe, GST_STATE_NULL);
  gst_object_unref (p->src);
  gst_object_unref (p->e);
  gst_object_unref (p->sink);
  gst_object_unref (p->pipe);
}

/* Pushes `in` and pulls its output: NULL and *why on a failure (callable
 * from any thread: no check assertions here). */
static gboolean
pipe_round (Pipe * p, GstBuffer * in, GstBuffer * want, gchar ** why)
{
  GstFlowReturn ret = GST_FLOW_ERROR;
  GstSample *sample = NULL;
  gboolean same;

  g_signal_emit_by_name (p->src, "push-buffer", in, &ret);
  if (ret != GST_FLOW_OK) {
    *why = g_strdup_printf ("push: %s", gst_flow_get_name (ret));
    return FALSE;
  }
  g_signal_emit_by_name (p->sink, "try-pull-sample", 30 * GST_SECOND,
      &sample);
  if (sample == NULL) {
    GstMessage *msg = gst_bus_pop_filtered (GST_ELEMENT_BUS (p->pipe),
        GST_MESSAGE_ERROR);
    GError *err = NULL;
    if (msg != NULL)
      gst_message_parse_error (msg, &err, NULL);
    *why = g_strdup_printf ("no output: %s", err ? err->message : "timeout");
    g_clear_error (&err);
    if (msg != NULL)
      gst_message_unref (msg);
    return FALSE;
  }
  same = check_buffers_equal (want, gst_sample_get_buffer (sample));
  gst_sample_unref (sample);
  if (!same)
    *why = g_strdup ("the bytes differ from threads=1");
  return same;
}

static void
pipe_play (Pipe * p, GstState state)
{
  fail_unless (gst_element_set_state (p->pipe, state)
      != GST_STATE_CHANGE_FAILURE, "cannot reach %s",
      gst_element_state_get_name (state));
}

/* PLAYING -> READY -> PLAYING -> NULL -> PLAYING with threads=2: every
 * round the bytes of threads=1. */
GST_START_TEST (test_state_changes)
{
  const GstState cycle[] = { GST_STATE_PLAYING, GST_STATE_READY,
    GST_STATE_PLAYING, GST_STATE_NULL, GST_STATE_PLAYING, GST_STATE_PAUSED,
    GST_STATE_PLAYING
  };
  const Op *op = &ops[__i__];
  GstBuffer *in = input_for (op, op->medium, 9);
  GstBuffer *want = reference (op, op->medium, in);
  gchar *why = NULL;
  Pipe p;
  guint i, k;

  pipe_new (&p, op, 2, op->medium);
  for (i = 0; i < G_N_ELEMENTS (cycle); i++) {
    pipe_play (&p, cycle[i]);
    if (cycle[i] != GST_STATE_PLAYING)
      continue;
    for (k = 0; k < 3; k++)
      fail_unless (pipe_round (&p, in, want, &why), "%s, step %u: %s",
          op->element, i, why);
  }
  pipe_free (&p);
  gst_buffer_unref (in);
  gst_buffer_unref (want);
}
GST_END_TEST;

typedef struct
{
  GstElement *e;
  gint stop;
  guint sets;
} Toggler;

static gpointer
toggle_threads (gpointer data)
{
  static const guint values[] = { 2, 1, 3, 0, 4, 1, 2 };
  Toggler *t = data;

  while (!g_atomic_int_get (&t->stop)) {
    g_object_set (t->e, "threads", values[t->sets % G_N_ELEMENTS (values)],
        NULL);
    t->sets++;
    g_usleep (300);
  }
  return NULL;
}

/* The application thread changes the property while the streaming thread
 * converts: every output keeps the bytes of threads=1. */
GST_START_TEST (test_property_while_flowing)
{
  const Op *op = &ops[__i__];
  GstBuffer *in[2], *want[2];
  Toggler t = { NULL, 0, 0 };
  GThread *thread;
  gchar *why = NULL;
  Pipe p;
  guint k;

  for (k = 0; k < 2; k++) {
    in[k] = input_for (op, op->medium, 20 + k);
    want[k] = reference (op, op->medium, in[k]);
  }
  pipe_new (&p, op, 1, op->medium);
  pipe_play (&p, GST_STATE_PLAYING);
  t.e = p.e;
  thread = g_thread_new ("toggler", toggle_threads, &t);
  for (k = 0; k < 60; k++)
    fail_unless (pipe_round (&p, in[k % 2], want[k % 2], &why), "%s, buffer "
        "%u: %s", op->element, k, why);
  g_atomic_int_set (&t.stop, 1);
  g_thread_join (thread);
  fail_unless (t.sets > 0);
  pipe_free (&p);
  for (k = 0; k < 2; k++) {
    gst_buffer_unref (in[k]);
    gst_buffer_unref (want[k]);
  }
}
GST_END_TEST;

typedef struct
{
  const Op *op;
  GstBuffer *in, *want;
  gchar *why;                   /* the first failure, NULL if none */
} Runner;

static gpointer
run_pipeline (gpointer data)
{
  Runner *r = data;
  Pipe p;
  guint k;

  pipe_new (&p, r->op, 2, r->op->big);
  if (gst_element_set_state (p.pipe, GST_STATE_PLAYING)
      == GST_STATE_CHANGE_FAILURE)
    r->why = g_strdup ("cannot play");
  for (k = 0; k < 4 && r->why == NULL; k++)
    pipe_round (&p, r->in, r->want, &r->why);
  pipe_free (&p);
  return NULL;
}

/* Two pipelines with threads=2 in one process at once (each element has
 * its own worker): both keep the bytes of threads=1. */
GST_START_TEST (test_two_pipelines)
{
  const Op *op = &ops[__i__];
  Runner r[2];
  GThread *thread[2];
  guint k;

  for (k = 0; k < 2; k++) {
    r[k].op = op;
    r[k].in = input_for (op, op->big, 30 + k);
    r[k].want = reference (op, op->big, r[k].in);
    r[k].why = NULL;
  }
  for (k = 0; k < 2; k++)
    thread[k] = g_thread_new ("pipeline", run_pipeline, &r[k]);
  for (k = 0; k < 2; k++) {
    g_thread_join (thread[k]);
    fail_unless (r[k].why == NULL, "%s, pipeline %u: %s", op->element, k,
        r[k].why);
    gst_buffer_unref (r[k].in);
    gst_buffer_unref (r[k].want);
  }
}
GST_END_TEST;

/* One pipeline, a tee into two converters with threads=2 and threads=0
 * (each its own workers, converting in two streaming threads at once):
 * both branches give the bytes of threads=1, in order. */
GST_START_TEST (test_tee_two_elements)
{
  const Op *op = &ops[__i__];
  gchar *desc = g_strdup_printf ("appsrc name=src format=time ! tee name=t "
      "t. ! queue ! %s backend=a65 threads=2 ! appsink name=a sync=false "
      "t. ! queue ! %s backend=a65 threads=0 ! appsink name=b sync=false",
      op->element, op->element);
  GstElement *pipe = gst_parse_launch (desc, NULL), *src, *sink[2];
  GstBuffer *in[4], *want[4];
  GstCaps *caps;
  GstFlowReturn ret;
  guint k, b;

  fail_unless (pipe != NULL, "cannot make %s", desc);
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  sink[0] = gst_bin_get_by_name (GST_BIN (pipe), "a");
  sink[1] = gst_bin_get_by_name (GST_BIN (pipe), "b");
  caps = gst_caps_from_string (op->medium);
  g_object_set (src, "caps", caps, NULL);
  gst_caps_unref (caps);
  caps = gst_caps_from_string (op->out);
  for (b = 0; b < 2; b++)
    g_object_set (sink[b], "caps", caps, NULL);
  gst_caps_unref (caps);
  for (k = 0; k < 4; k++) {
    in[k] = input_for (op, op->medium, 40 + k);
    want[k] = reference (op, op->medium, in[k]);
  }
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING)
      != GST_STATE_CHANGE_FAILURE);
  for (k = 0; k < 4; k++) {
    g_signal_emit_by_name (src, "push-buffer", in[k], &ret);
    fail_unless_equals_int (ret, GST_FLOW_OK);
  }
  for (k = 0; k < 4; k++)
    for (b = 0; b < 2; b++) {
      GstSample *sample = NULL;
      g_signal_emit_by_name (sink[b], "try-pull-sample", 30 * GST_SECOND,
          &sample);
      fail_unless (sample != NULL, "%s: branch %u gave no output %u",
          op->element, b, k);
      fail_unless (check_buffers_equal (want[k],
              gst_sample_get_buffer (sample)), "%s: branch %u, buffer %u: "
          "the bytes differ from threads=1", op->element, b, k);
      gst_sample_unref (sample);
    }
  gst_element_set_state (pipe, GST_STATE_NULL);
  for (k = 0; k < 4; k++) {
    gst_buffer_unref (in[k]);
    gst_buffer_unref (want[k]);
  }
  for (b = 0; b < 2; b++)
    gst_object_unref (sink[b]);
  gst_object_unref (src);
  gst_object_unref (pipe);
  g_free (desc);
}
GST_END_TEST;

/* ---- the property ------------------------------------------------------- */

GST_START_TEST (test_property_spec)
{
  const Op *op = &ops[__i__];
  gchar *name = g_strdup (op->element);
  GstElement *e;
  GParamSpec *pspec;
  GParamSpecUInt *u;
  GValue v = G_VALUE_INIT;
  guint threads = 99;

  if (strchr (name, ' ') != NULL)
    *strchr (name, ' ') = '\0';
  e = gst_element_factory_make (name, NULL);
  fail_unless (e != NULL, "no %s", name);
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "threads");
  fail_unless (pspec != NULL && G_IS_PARAM_SPEC_UINT (pspec),
      "%s: no uint threads property", name);
  u = G_PARAM_SPEC_UINT (pspec);
  fail_unless_equals_int (u->minimum, 0);
  fail_unless_equals_int (u->maximum, 64);
  fail_unless_equals_int (u->default_value, 1);
  fail_unless ((pspec->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
  fail_unless (strstr (g_param_spec_get_blurb (pspec), "0 = one per online "
          "CPU") != NULL, "%s", g_param_spec_get_blurb (pspec));
  fail_unless (strstr (g_param_spec_get_blurb (pspec), "ignored on the EV74")
      != NULL, "%s", g_param_spec_get_blurb (pspec));
  g_object_get (e, "threads", &threads, NULL);
  fail_unless_equals_int (threads, 1);
  g_object_set (e, "threads", 0, NULL);
  g_object_get (e, "threads", &threads, NULL);
  fail_unless_equals_int (threads, 0);
  /* 65 is out of range: GObject clamps it (and would warn on a set) */
  g_value_init (&v, G_TYPE_UINT);
  g_value_set_uint (&v, 65);
  fail_unless (g_param_value_validate (pspec, &v));
  fail_unless_equals_int (g_value_get_uint (&v), 64);
  g_value_unset (&v);
  gst_object_unref (e);
  g_free (name);
}
GST_END_TEST;

static Suite *
threads_suite (void)
{
  Suite *s = suite_create ("threads");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_property_spec, 0, 4);
  tcase_add_loop_test (tc, test_same_bytes, 0, 4);
  tcase_add_loop_test (tc, test_set_same_bytes, 0, 4);
  tcase_add_loop_test (tc, test_workers_follow_property, 0, 4);
  tcase_add_loop_test (tc, test_work_is_split, 0, 4);
  tcase_add_loop_test (tc, test_ev74_ignores_threads, 0, 4);
  tcase_add_loop_test (tc, test_state_changes, 0, 4);
  tcase_add_loop_test (tc, test_property_while_flowing, 0, 4);
  tcase_add_loop_test (tc, test_two_pipelines, 0, 4);
  /* Its own case: the buffers cross a queue, whose hand-off (GLib's GMutex,
   * a futex in the uninstrumented libglib) ThreadSanitizer cannot see, so
   * it reports the test's own writes of the inputs against the workers'
   * reads. A ThreadSanitizer run of this program takes
   * CK_RUN_CASE=general. */
  tc = tcase_create ("queues");
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_tee_two_elements, 0, 4);
  return s;
}

GST_CHECK_MAIN (threads);
