/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The threads property when the pool cannot be made (issue 19): this
 * program's pthread_create fails on demand (the core's pool creation then
 * returns SIMA_OUT_OF_RESOURCES), and every converter fails the flow with
 * one error naming the value, however many buffers follow, and converts
 * again once threads can be created. Built without sanitizers only: they
 * intercept pthread_create themselves.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "check_util.h"

typedef int (*CreateFn) (pthread_t *, const pthread_attr_t *,
    void *(*)(void *), void *);

/* set: every thread creation of the process fails (the test holds it only
 * around pushes made from its own thread, the harness's streaming thread) */
static gint fail_creates;
static gint refused;

/* Exported (export_dynamic, default visibility: the project builds with
 * hidden): the core the plugin loads resolves pthread_create to this one,
 * which forwards to libc's unless told to fail. */
__attribute__ ((visibility ("default")))
int
pthread_create (pthread_t * thread, const pthread_attr_t * attr,
    void *(*start) (void *), void *arg)
{
  static CreateFn real;

  if (g_atomic_int_get (&fail_creates)) {
    g_atomic_int_inc (&refused);
    return EAGAIN;
  }
  if (real == NULL)
    real = (CreateFn) dlsym (RTLD_NEXT, "pthread_create");
  return real (thread, attr, start, arg);
}

#define CAPS TENSOR ",dtype=float32,shape=(int)<136,240,3>,layout=contiguous"
#define TILES TENSOR ",dtype=int8,shape=(int)<136,240,3>,layout=mla-tiled," \
  "tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,8,16,16>,channels=pad16"
#define BF16_TILES TENSOR ",dtype=bfloat16,shape=(int)<136,240,3>," \
  "layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,8,16,16>," \
  "channels=pad16"

static const struct
{
  const gchar *element, *in;
} ops[4] = {
  {"simaquanttess multiplier=64", CAPS},
  {"simacasttess", CAPS},
  {"simadetessdequant scale=0.0625", TILES},
  {"simadetesscast", BF16_TILES},
};

/* Error messages on the bus (all popped); the first one's text in *text. */
static guint
count_errors (CheckHarness * c, gchar ** text)
{
  GstMessage *msg;
  guint n = 0;

  *text = NULL;
  while ((msg = gst_bus_pop (c->bus)) != NULL) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      gst_message_parse_error (msg, &err, NULL);
      if (n++ == 0)
        *text = g_strdup (err->message);
      g_error_free (err);
    }
    gst_message_unref (msg);
  }
  return n;
}

static GstBuffer *
input_for (int op)
{
  SimaTensorSpec spec = check_spec (ops[op].in);
  guint64 bytes = check_required_bytes (&spec);

  return op >= 2 ? check_random_buffer (bytes, 5)
      : check_tensor_buffer (&spec, bytes, SIMA_PATTERN_RANDOM, 5);
}

static GstBuffer *
output_of (const gchar * desc, const gchar * caps, GstBuffer * in)
{
  CheckHarness c;
  GstBuffer *out;

  check_harness_new (&c, desc, caps, NULL);
  out = gst_harness_push_and_pull (c.h, gst_buffer_ref (in));
  fail_unless (out != NULL, "%s: no output", desc);
  check_harness_free (&c);
  return out;
}

GST_START_TEST (test_pool_creation_fails)
{
  const guint counts[] = { 2, 0 };
  int op = __i__;
  GstBuffer *in = input_for (op);
  gchar *ref_desc = g_strdup_printf ("%s backend=a65", ops[op].element);
  GstBuffer *want = output_of (ref_desc, ops[op].in, in);
  guint t, k;

  for (t = 0; t < G_N_ELEMENTS (counts); t++) {
    gchar *desc = g_strdup_printf ("%s backend=a65 threads=%u",
        ops[op].element, counts[t]);
    gchar *value = g_strdup_printf ("threads=%u", counts[t]);
    gchar *text;
    GstBuffer *out;
    CheckHarness c;

    check_harness_new (&c, desc, ops[op].in, NULL);
    g_atomic_int_set (&refused, 0);
    g_atomic_int_set (&fail_creates, 1);
    for (k = 0; k < 3; k++)
      fail_unless_equals_int (gst_harness_push (c.h, gst_buffer_ref (in)),
          GST_FLOW_ERROR);
    g_atomic_int_set (&fail_creates, 0);
    fail_unless (g_atomic_int_get (&refused) >= 3, "%s: the pool was not "
        "asked for threads", desc);
    /* one error for the three failed buffers, naming the value */
    fail_unless_equals_int (count_errors (&c, &text), 1);
    fail_unless (strstr (text, value) != NULL && strstr (text, "A65 thread "
            "pool") != NULL, "%s: the error does not name %s: %s", desc,
        value, text);
    g_free (text);
    fail_unless_equals_int (gst_harness_buffers_received (c.h), 0);
    /* threads can be made again: the next buffer converts, exactly */
    out = gst_harness_push_and_pull (c.h, gst_buffer_ref (in));
    fail_unless (out != NULL, "%s: no output once threads can be made", desc);
    fail_unless (check_buffers_equal (want, out), "%s: bytes differ", desc);
    fail_unless_equals_int (count_errors (&c, &text), 0);
    gst_buffer_unref (out);
    check_harness_free (&c);
    g_free (value);
    g_free (desc);
  }
  /* threads=1 runs on the streaming thread: nothing to create, no error */
  {
    gchar *desc = g_strdup_printf ("%s backend=a65 threads=1",
        ops[op].element);
    gchar *text;
    GstBuffer *out;
    CheckHarness c;

    check_harness_new (&c, desc, ops[op].in, NULL);
    g_atomic_int_set (&fail_creates, 1);
    out = gst_harness_push_and_pull (c.h, gst_buffer_ref (in));
    g_atomic_int_set (&fail_creates, 0);
    fail_unless (out != NULL && check_buffers_equal (want, out),
        "%s: threads=1 needs no thread", desc);
    fail_unless_equals_int (count_errors (&c, &text), 0);
    gst_buffer_unref (out);
    check_harness_free (&c);
    g_free (desc);
  }
  gst_buffer_unref (in);
  gst_buffer_unref (want);
  g_free (ref_desc);
}
GST_END_TEST;

static Suite *
threads_fault_suite (void)
{
  Suite *s = suite_create ("threads-fault");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_pool_creation_fails, 0, 4);
  return s;
}

GST_CHECK_MAIN (threads_fault);
