/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The EV74 job runner of the converter elements (gst/gstsimaev74runner.c),
 * driven directly, without an element: the sources are compiled into this
 * test. What it decides for each buffer (in place or staged, imported or
 * cached), that a flush interrupts a wait at once, and that buffers the
 * device may still touch outlive a timeout, a flush and the runner itself
 * until the device retires the job. Outputs are compared with the core's
 * A65 QuantTess of the same plan.
 */
#define _GNU_SOURCE
#include <gst/allocators/allocators.h>
#include <simaai/kernels/a65/quanttess.h>
#include <simaai/kernels/ev74/quanttess.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ev74_testing.h"   /* sima_ev74_device_configure */
#include "check_util.h"
#include "gstsimaev74runner.h"
#include "gstsimaimport.h"

#define IN_CAPS TENSOR ",dtype=float32,shape=(int)<8,16,3>,layout=contiguous"
#define OUT_CAPS TENSOR ",dtype=int8,shape=(int)<8,16,3>,layout=mla-tiled," \
  "tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,8,16,16>,channels=pad16"

typedef struct
{
  SimaA65QuantTessPlan a65;
  SimaEv74Descriptor desc;
  guint64 in_bytes, out_bytes;
} Plan;

static void
make_plan (Plan * p)
{
  SimaTensorSpec in = check_spec (IN_CAPS), out = check_spec (OUT_CAPS);
  SimaQuantTessRequest req = { &in, 1, &out, 1, { 64.0f, -3,
          SIMA_ROUNDING_NEAREST_EVEN }
  };
  SimaQuantTessPlan plan;

  fail_unless (sima_quanttess_check_inference (&req, &plan).code == SIMA_OK);
  fail_unless (sima_a65_quanttess_prepare (&plan, &p->a65).code == SIMA_OK);
  fail_unless (sima_ev74_quanttess_encode_relocatable (&plan,
          &p->desc).code == SIMA_OK);
  p->in_bytes = plan.input_bytes;
  p->out_bytes = plan.output_bytes;
}

/* The A65's output for in (16-byte aligned copies on both sides). */
static GstBuffer *
expected (const Plan * p, GstBuffer * in)
{
  GstBuffer *out = gst_buffer_new_allocate (NULL, p->out_bytes, NULL);
  GstMapInfo a, b;
  gpointer ia = g_malloc (p->in_bytes + 16), oa =
      g_malloc (p->out_bytes + 16);
  guint8 *i16 = (guint8 *) (((guintptr) ia + 15) & ~(guintptr) 15);
  guint8 *o16 = (guint8 *) (((guintptr) oa + 15) & ~(guintptr) 15);
  SimaConstHostBuffer ib = { i16, p->in_bytes };
  SimaHostBuffer ob = { o16, p->out_bytes };

  gst_buffer_map (in, &a, GST_MAP_READ);
  memcpy (i16, a.data, p->in_bytes);
  gst_buffer_unmap (in, &a);
  fail_unless (sima_a65_quanttess_execute (&p->a65, &ib, 1, &ob,
          1).code == SIMA_OK);
  gst_buffer_map (out, &b, GST_MAP_WRITE);
  memcpy (b.data, o16, p->out_bytes);
  gst_buffer_unmap (out, &b);
  g_free (ia);
  g_free (oa);
  return out;
}

/* An fd memory (a memfd) of `size` bytes holding `content` (if any) at
 * `offset` into the fd. */
static GstBuffer *
fd_buffer (GstBuffer * content, gsize size, gsize offset)
{
  static GstAllocator *fd_allocator;
  int fd = memfd_create ("sima-runner-test", MFD_CLOEXEC);
  GstMemory *mem;
  GstBuffer *buf;

  if (fd_allocator == NULL)
    fd_allocator = gst_fd_allocator_new ();
  fail_unless (fd >= 0);
  fail_unless (ftruncate (fd, (off_t) (offset + size)) == 0);
  if (content != NULL) {
    GstMapInfo map;
    gst_buffer_map (content, &map, GST_MAP_READ);
    fail_unless (pwrite (fd, map.data, size, (off_t) offset)
        == (ssize_t) size);
    gst_buffer_unmap (content, &map);
  }
  mem = gst_fd_allocator_alloc (fd_allocator, fd, offset + size,
      GST_FD_MEMORY_FLAG_KEEP_MAPPED);
  gst_memory_resize (mem, (gssize) offset, size);
  buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, mem);
  return buf;
}

static GstSimaEv74Runner *
runner_on (const gchar * spec, const Plan * p)
{
  SimaEv74Device *dev = NULL;
  GstSimaEv74Runner *r;

  fail_unless (sima_ev74_device_open (spec, &dev).code == SIMA_OK, "%s",
      spec);
  r = gst_sima_ev74_runner_new (NULL, GST_CAT_DEFAULT, dev);
  fail_unless (gst_sima_ev74_runner_configure (r, &p->desc, p->in_bytes,
          p->out_bytes).code == SIMA_OK);
  return r;
}

/* Where each buffer goes, what is copied and imported, and the bytes. */
GST_START_TEST (test_in_place_and_staged)
{
  Plan p;
  SimaTensorSpec in_spec = check_spec (IN_CAPS);
  GstBuffer *content = check_tensor_buffer (&in_spec,
      check_required_bytes (&in_spec), SIMA_PATTERN_RANDOM, 7);
  GstBuffer *want, *in_fd, *in_odd, *out_fd, *out_sys;
  GstSimaEv74Runner *r;
  GstSimaRunStats stats;
  SimaStatus st;
  struct
  {
    GstBuffer **in, **out;
    guint copies, imports;
  } cases[] = {
    /* fd in and out, first time: both imported, nothing copied */
    { &in_fd, &out_fd, 0, 2 },
    /* the same memories again: cached */
    { &in_fd, &out_fd, 0, 0 },
    /* input 4 bytes into its fd: staged (the staging buffer is imported
     * once), output in place */
    { &in_odd, &out_fd, 1, 2 },
    /* system memory both ways: staged in, staged out and copied back */
    { &content, &out_sys, 2, 1 },
    { &content, &out_sys, 2, 0 },
  };
  guint i;

  make_plan (&p);
  want = expected (&p, content);
  in_fd = fd_buffer (content, p.in_bytes, 0);
  in_odd = fd_buffer (content, p.in_bytes, 4);
  out_fd = fd_buffer (NULL, p.out_bytes, 0);
  out_sys = gst_buffer_new_allocate (NULL, p.out_bytes, NULL);
  r = runner_on ("emulator:workers=2", &p);
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gst_buffer_memset (*cases[i].out, 0, 0x5a, p.out_bytes);
    fail_unless_equals_int (gst_sima_ev74_runner_run (r, *cases[i].in,
            *cases[i].out, 5000, &stats, &st), GST_SIMA_RUN_OK);
    fail_unless_equals_int (stats.copies, cases[i].copies);
    fail_unless_equals_int (stats.imports, cases[i].imports);
    fail_unless (check_buffers_equal (*cases[i].out, want), "case %u", i);
  }
  gst_sima_ev74_runner_free (r);
  gst_buffer_unref (in_fd);
  gst_buffer_unref (in_odd);
  gst_buffer_unref (out_fd);
  gst_buffer_unref (out_sys);
  gst_buffer_unref (want);
  gst_buffer_unref (content);
}

GST_END_TEST;

/* A share of a memory (what a tee or a sub-buffer hands on) uses the
 * root memory's import: one import for the memory and all its shares. */
GST_START_TEST (test_shares_import_once)
{
  Plan p;
  SimaTensorSpec in_spec = check_spec (IN_CAPS);
  GstBuffer *content = check_tensor_buffer (&in_spec,
      check_required_bytes (&in_spec), SIMA_PATTERN_RAMP, 0);
  GstBuffer *in, *want, *out, *share;
  GstSimaEv74Runner *r;
  GstSimaRunStats stats;
  SimaStatus st;

  make_plan (&p);
  want = expected (&p, content);
  in = fd_buffer (content, p.in_bytes, 0);
  out = fd_buffer (NULL, p.out_bytes, 0);
  r = runner_on ("emulator", &p);
  fail_unless_equals_int (gst_sima_ev74_runner_run (r, in, out, 5000, &stats,
          &st), GST_SIMA_RUN_OK);
  fail_unless_equals_int (stats.imports, 2);
  share = gst_buffer_copy_region (in, GST_BUFFER_COPY_MEMORY, 0, p.in_bytes);
  fail_unless (gst_buffer_peek_memory (share, 0)->parent != NULL
      || gst_buffer_peek_memory (share, 0) == gst_buffer_peek_memory (in, 0));
  fail_unless_equals_int (gst_sima_ev74_runner_run (r, share, out, 5000,
          &stats, &st), GST_SIMA_RUN_OK);
  fail_unless_equals_int (stats.imports, 0);
  fail_unless_equals_int (stats.copies, 0);
  fail_unless (check_buffers_equal (out, want));
  gst_buffer_unref (share);
  gst_sima_ev74_runner_free (r);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_buffer_unref (want);
  gst_buffer_unref (content);
}

GST_END_TEST;

typedef struct
{
  GstSimaEv74Runner *runner;
  GstBuffer *in, *out;
  GstSimaRunResult result;
  gint64 took_us;
} RunArgs;

static gpointer
run_thread (gpointer data)
{
  RunArgs *a = data;
  GstSimaRunStats stats;
  SimaStatus st;
  gint64 t0 = g_get_monotonic_time ();

  a->result = gst_sima_ev74_runner_run (a->runner, a->in, a->out, 60000,
      &stats, &st);
  a->took_us = g_get_monotonic_time () - t0;
  return NULL;
}

static void
note_gone (gpointer data, G_GNUC_UNUSED GstMiniObject * obj)
{
  g_atomic_int_set ((gint *) data, 1);
}

/* A run on a device that hangs 1.5 s, flushed 200 ms in: what both hang
 * tests start from. The caller's references on the buffers are dropped;
 * in_gone / out_gone turn 1 when the buffers are freed. */
typedef struct
{
  RunArgs a;
  gint in_gone, out_gone;
} HungRun;

static void
start_flushed_hang (HungRun * h, const gchar * spec, guint64 seed)
{
  Plan p;
  SimaTensorSpec in_spec = check_spec (IN_CAPS);
  GstBuffer *content = check_tensor_buffer (&in_spec,
      check_required_bytes (&in_spec), SIMA_PATTERN_RANDOM, seed);
  GThread *t;

  make_plan (&p);
  h->in_gone = h->out_gone = 0;
  h->a.runner = runner_on (spec, &p);
  h->a.in = fd_buffer (content, p.in_bytes, 0);
  h->a.out = fd_buffer (NULL, p.out_bytes, 0);
  gst_buffer_unref (content);
  gst_mini_object_weak_ref (GST_MINI_OBJECT (h->a.in), note_gone,
      &h->in_gone);
  gst_mini_object_weak_ref (GST_MINI_OBJECT (h->a.out), note_gone,
      &h->out_gone);
  t = g_thread_new ("run", run_thread, &h->a);
  g_usleep (200 * 1000);
  gst_sima_ev74_runner_set_flushing (h->a.runner, TRUE);
  g_thread_join (t);
  fail_unless_equals_int (h->a.result, GST_SIMA_RUN_FLUSHING);
}

static gboolean
buffers_gone (HungRun * h)
{
  return g_atomic_int_get (&h->in_gone) && g_atomic_int_get (&h->out_gone);
}

static gboolean
buffers_gone_within (HungRun * h, gint64 us)
{
  gint64 t0 = g_get_monotonic_time ();

  while (!buffers_gone (h) && g_get_monotonic_time () - t0 < us)
    g_usleep (10 * 1000);
  return buffers_gone (h);
}

/* A flush interrupts a wait within a slice; the job keeps its buffers
 * after the flush and lets go of them as soon as the device retires it. */
GST_START_TEST (test_flush_during_hang)
{
  HungRun h;

  start_flushed_hang (&h, "emulator:workers=1,fault=hang,hang-ms=1500", 3);
  fail_unless (h.a.took_us < 600 * 1000, "the flush took %" G_GINT64_FORMAT
      " us to interrupt the wait", h.a.took_us);
  fail_unless_equals_int (gst_sima_ev74_runner_pending (h.a.runner), 1);
  /* while flushing, a new run does not even start */
  {
    GstSimaRunStats stats;
    SimaStatus st;
    fail_unless_equals_int (gst_sima_ev74_runner_run (h.a.runner, h.a.in,
            h.a.out, 1000, &stats, &st), GST_SIMA_RUN_FLUSHING);
  }
  gst_buffer_unref (h.a.in);
  gst_buffer_unref (h.a.out);
  fail_if (g_atomic_int_get (&h.in_gone) || g_atomic_int_get (&h.out_gone),
      "a buffer the device still uses was freed");
  /* the hang ends about 1.3 s from now: the buffers go then, with no
   * further run() and the runner still alive (a streaming thread may be
   * waiting for exactly those buffers to come back to their pool) */
  fail_unless (buffers_gone_within (&h, 10 * G_USEC_PER_SEC),
      "the buffers were not released when the job retired");
  fail_unless_equals_int (gst_sima_ev74_runner_pending (h.a.runner), 0);
  gst_sima_ev74_runner_free (h.a.runner);
}

GST_END_TEST;

/* Freeing a runner whose job still hangs does not wait for the device, and
 * the job's buffers stay until it retires. */
GST_START_TEST (test_free_during_hang)
{
  HungRun h;
  gint64 t0, freed_us;

  start_flushed_hang (&h, "emulator:workers=1,fault=hang,hang-ms=1500,"
      "local-kib=63", 4);
  gst_buffer_unref (h.a.in);
  gst_buffer_unref (h.a.out);
  t0 = g_get_monotonic_time ();
  gst_sima_ev74_runner_free (h.a.runner);
  freed_us = g_get_monotonic_time () - t0;
  fail_unless (freed_us < 100 * 1000, "freeing waited %" G_GINT64_FORMAT
      " us for the device", freed_us);
  fail_if (g_atomic_int_get (&h.in_gone) || g_atomic_int_get (&h.out_gone),
      "freeing the runner freed a buffer the device still uses");
  fail_unless (buffers_gone_within (&h, 10 * G_USEC_PER_SEC),
      "the buffers were never released after the job retired");
}

GST_END_TEST;

/* A timeout leaves the job pending with its buffers, until it retires;
 * the error says the element's timeout. */
GST_START_TEST (test_timeout_then_reap)
{
  Plan p;
  SimaTensorSpec in_spec = check_spec (IN_CAPS);
  GstBuffer *content = check_tensor_buffer (&in_spec,
      check_required_bytes (&in_spec), SIMA_PATTERN_RANDOM, 5);
  GstBuffer *in, *out, *want;
  GstSimaEv74Runner *r;
  GstSimaRunStats stats;
  SimaStatus st;
  SimaEv74Device *dev = NULL;

  make_plan (&p);
  want = expected (&p, content);
  in = fd_buffer (content, p.in_bytes, 0);
  out = fd_buffer (NULL, p.out_bytes, 0);
  r = runner_on ("emulator:workers=1,fault=hang,hang-ms=400,"
      "fault-after-jobs=0", &p);
  fail_unless_equals_int (gst_sima_ev74_runner_run (r, in, out, 50, &stats,
          &st), GST_SIMA_RUN_TIMEOUT);
  fail_unless_equals_int (st.code, SIMA_TIMEOUT);
  fail_unless (strstr (st.message, "within 50 ms") != NULL, "%s",
      st.message);
  fail_unless_equals_int (gst_sima_ev74_runner_pending (r), 1);
  /* the same device, no more faults: the next job runs after the hang */
  fail_unless (sima_ev74_device_open
      ("emulator:workers=1,fault=hang,hang-ms=400,fault-after-jobs=0",
          &dev).code == SIMA_OK);
  fail_unless (sima_ev74_device_configure (dev, "fault=none").code ==
      SIMA_OK);
  sima_ev74_device_unref (dev);
  fail_unless_equals_int (gst_sima_ev74_runner_run (r, in, out, 5000, &stats,
          &st), GST_SIMA_RUN_OK);
  /* the first job retired before the second ran; its reaper thread
   * releases it on its own schedule, so give it a moment */
  {
    gint64 t0 = g_get_monotonic_time ();
    while (gst_sima_ev74_runner_pending (r) != 0
        && g_get_monotonic_time () - t0 < 5 * G_USEC_PER_SEC)
      g_usleep (1000);
  }
  fail_unless_equals_int (gst_sima_ev74_runner_pending (r), 0);
  fail_unless (check_buffers_equal (out, want));
  gst_sima_ev74_runner_free (r);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_buffer_unref (want);
  gst_buffer_unref (content);
}

GST_END_TEST;

/* An fd the device cannot import (here: opened read-only, which the
 * emulator cannot map for its read-write aperture) is staged by the CPU,
 * not refused. */
GST_START_TEST (test_read_only_fd_staged)
{
  Plan p;
  SimaTensorSpec in_spec = check_spec (IN_CAPS);
  GstBuffer *content = check_tensor_buffer (&in_spec,
      check_required_bytes (&in_spec), SIMA_PATTERN_RANDOM, 9);
  GstAllocator *fd_allocator = gst_fd_allocator_new ();
  GstBuffer *rw, *in, *out, *want;
  GstSimaEv74Runner *r;
  GstSimaRunStats stats;
  SimaStatus st;
  gchar *path;
  int fd;

  make_plan (&p);
  want = expected (&p, content);
  rw = fd_buffer (content, p.in_bytes, 0);
  path = g_strdup_printf ("/proc/self/fd/%d",
      gst_fd_memory_get_fd (gst_buffer_peek_memory (rw, 0)));
  fd = open (path, O_RDONLY | O_CLOEXEC);
  fail_unless (fd >= 0);
  in = gst_buffer_new ();
  gst_buffer_append_memory (in, gst_fd_allocator_alloc (fd_allocator, fd,
          p.in_bytes, GST_FD_MEMORY_FLAG_NONE));
  out = fd_buffer (NULL, p.out_bytes, 0);
  r = runner_on ("emulator", &p);
  fail_unless (gst_sima_ev74_runner_run (r, in, out, 5000, &stats,
          &st) == GST_SIMA_RUN_OK, "%s", st.message);
  fail_unless_equals_int (stats.copies, 1);
  fail_unless (check_buffers_equal (out, want));
  gst_sima_ev74_runner_free (r);
  gst_buffer_unref (in);
  gst_buffer_unref (rw);
  gst_buffer_unref (out);
  gst_buffer_unref (want);
  gst_buffer_unref (content);
  gst_object_unref (fd_allocator);
  g_free (path);
}

GST_END_TEST;

static Suite *
runner_suite (void)
{
  Suite *s = suite_create ("ev74runner");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_in_place_and_staged);
  tcase_add_test (tc, test_shares_import_once);
  tcase_add_test (tc, test_flush_during_hang);
  tcase_add_test (tc, test_free_during_hang);
  tcase_add_test (tc, test_timeout_then_reap);
  tcase_add_test (tc, test_read_only_fd_staged);
  return s;
}

GST_CHECK_MAIN (runner);
