/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The EV74 job runner of the converter elements (gstsimaev74runner.h).
 * Glue only: where the bytes are and how long to wait; every rule about
 * what the device accepts comes from the device API and the core.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsimaev74runner.h"

#include <gst/allocators/allocators.h>
#include <simaai/kernels/layout.h>
#include <string.h>

#include "gstsimaallocator.h"
#include "gstsimaimport.h"

#define GST_CAT_DEFAULT (runner->cat)

/* A wait is cut into slices this long, so that a flush or a state change
 * is noticed within one slice; a job that retires wakes the wait at once,
 * so slicing costs no latency. */
#define WAIT_SLICE_NS (5 * GST_MSECOND)

/* A runner's count of jobs that outlived their wait and have not retired;
 * shared with those jobs so that it can outlive the runner. */
typedef struct
{
  gint refs;                    /* atomic */
  gint pending;                 /* atomic */
} PendingCount;

/* One buffer's job and everything the device may touch for it. The
 * buffers stay referenced until the job retires, whoever holds the ticket
 * then (the element's window, a finish, or the reaper). */
struct _GstSimaEv74Ticket
{
  gint refs;                    /* atomic */
  SimaEv74Job *job;
  GstBuffer *in, *out;          /* what the device reads and writes: the
                                 * caller's buffers or staging buffers */
  GstBuffer *dest;              /* the caller's output when out is staging:
                                 * borrowed (the caller keeps it until
                                 * finish), never written by the device */
  guint64 out_bytes;            /* what to copy back, as submitted */
  guint timeout_ms;
  gint64 deadline;              /* monotonic us: submit + timeout */
};

struct _GstSimaEv74Runner
{
  GstObject *owner;             /* not a reference: the owner frees us */
  GstDebugCategory *cat;
  SimaEv74Device *dev;
  SimaEv74Descriptor desc;      /* relocatable, bound per buffer */
  guint64 in_bytes, out_bytes;
  /* staging buffers for what the device cannot read or write in place */
  GstBufferPool *stage_in, *stage_out;
  PendingCount *pending;        /* jobs handed to the reaper, not retired */
  gint flushing;                /* atomic */
};

/* ---- tickets, and jobs that outlive their wait -------------------------- */

static void
pending_unref (PendingCount * p)
{
  if (g_atomic_int_dec_and_test (&p->refs))
    g_free (p);
}

GstSimaEv74Ticket *
gst_sima_ev74_ticket_ref (GstSimaEv74Ticket * t)
{
  g_atomic_int_inc (&t->refs);
  return t;
}

/* Lets go of the buffers the device touched: only once the job retired. */
static void
ticket_release_buffers (GstSimaEv74Ticket * t)
{
  gst_clear_buffer (&t->in);
  gst_clear_buffer (&t->out);
  t->dest = NULL;
}

void
gst_sima_ev74_ticket_unref (GstSimaEv74Ticket * t)
{
  if (t == NULL || !g_atomic_int_dec_and_test (&t->refs))
    return;
  /* the last reference goes after retirement (finish and the reaper wait
   * for it; a watcher's reference is a second one) */
  ticket_release_buffers (t);
  if (t->job != NULL)
    sima_ev74_job_unref (t->job);
  g_free (t);
}

gboolean
gst_sima_ev74_ticket_wait (GstSimaEv74Ticket * t, gint64 timeout_ns)
{
  if (t->job == NULL)
    return TRUE;
  return sima_ev74_job_wait (t->job, timeout_ns).code != SIMA_TIMEOUT;
}

gint64
gst_sima_ev74_ticket_deadline (GstSimaEv74Ticket * t)
{
  return t->deadline;
}

void
gst_sima_ev74_ticket_restart_timeout (GstSimaEv74Ticket * t)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) t->timeout_ms * 1000;

  if (deadline > t->deadline)
    t->deadline = deadline;
}

typedef struct
{
  GstSimaEv74Ticket *ticket;
  PendingCount *pending;        /* a reference */
} Reaped;

/* The reaper: waits for a job as long as it takes (a device that never
 * retires it keeps its buffers for good rather than have them freed under
 * it), then lets go of its buffers at once, whatever the element does
 * meanwhile: a flushed or timed-out job must not hold pool buffers until
 * the next buffer arrives, since the next buffer may be waiting for one of
 * them. One thread per waiting job (threads are reused), so a hung job
 * delays no other. */
static void
reap_one (gpointer data, G_GNUC_UNUSED gpointer user_data)
{
  Reaped *r = data;
  PendingCount *p = r->pending;

  sima_ev74_job_wait (r->ticket->job, -1);
  g_atomic_int_add (&p->pending, -1);   /* retired: before the buffers go */
  ticket_release_buffers (r->ticket);
  gst_sima_ev74_ticket_unref (r->ticket);
  pending_unref (p);
  g_free (r);
}

/* Takes the ticket: freed now if its job retired, else the reaper's. */
static void
abandon_ticket (GstSimaEv74Runner * runner, GstSimaEv74Ticket * t)
{
  static GThreadPool *reaper;
  Reaped *r;

  if (t->job == NULL || sima_ev74_job_retired (t->job)) {
    ticket_release_buffers (t);
    gst_sima_ev74_ticket_unref (t);
    return;
  }
  if (g_once_init_enter (&reaper)) {
    /* unlimited, shared: the process-wide pool lives as long as it */
    GThreadPool *pool = g_thread_pool_new (reap_one, NULL, -1, FALSE, NULL);
    g_once_init_leave (&reaper, pool);
  }
  r = g_new (Reaped, 1);
  r->ticket = t;
  g_atomic_int_inc (&runner->pending->refs);
  g_atomic_int_inc (&runner->pending->pending);
  r->pending = runner->pending;
  g_thread_pool_push (reaper, r, NULL);
}

void
gst_sima_ev74_runner_abandon (GstSimaEv74Runner * runner,
    GstSimaEv74Ticket * ticket)
{
  if (ticket != NULL)
    abandon_ticket (runner, ticket);
}

static void
pool_free (GstBufferPool ** pool)
{
  if (*pool != NULL) {
    gst_buffer_pool_set_active (*pool, FALSE);
    gst_object_unref (*pool);
    *pool = NULL;
  }
}

/* ---- life cycle ---------------------------------------------------------- */

GstSimaEv74Runner *
gst_sima_ev74_runner_new (GstObject * owner, GstDebugCategory * cat,
    SimaEv74Device * dev)
{
  GstSimaEv74Runner *runner = g_new0 (GstSimaEv74Runner, 1);

  runner->owner = owner;
  runner->cat = cat;
  runner->dev = dev;
  runner->pending = g_new0 (PendingCount, 1);
  runner->pending->refs = 1;
  return runner;
}

void
gst_sima_ev74_runner_free (GstSimaEv74Runner * runner)
{
  guint pending;

  if (runner == NULL)
    return;
  pending = (guint) g_atomic_int_get (&runner->pending->pending);
  if (pending > 0)
    GST_WARNING_OBJECT (runner->owner, "%u EV74 job(s) still running: their "
        "buffers stay referenced until the device retires them", pending);
  pending_unref (runner->pending);
  pool_free (&runner->stage_in);
  pool_free (&runner->stage_out);
  /* jobs still running hold their regions, and regions their device */
  sima_ev74_device_unref (runner->dev);
  g_free (runner);
}

static GstBufferPool *
staging_pool (guint64 bytes)
{
  GstBufferPool *pool;

  if (bytes > G_MAXUINT)
    return NULL;
  pool = gst_sima_dmabuf_pool_new (NULL, (guint) MAX (bytes, 1), 1, 0);
  if (pool != NULL && !gst_buffer_pool_set_active (pool, TRUE))
    gst_clear_object (&pool);
  return pool;
}

SimaStatus
gst_sima_ev74_runner_configure (GstSimaEv74Runner * runner,
    const SimaEv74Descriptor * desc, guint64 in_bytes, guint64 out_bytes)
{
  runner->desc = *desc;
  runner->in_bytes = in_bytes;
  runner->out_bytes = out_bytes;
  pool_free (&runner->stage_in);
  pool_free (&runner->stage_out);
  if ((runner->stage_in = staging_pool (in_bytes)) == NULL
      || (runner->stage_out = staging_pool (out_bytes)) == NULL) {
    pool_free (&runner->stage_in);
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "cannot make staging buffers of %llu and %llu bytes",
        (unsigned long long) in_bytes, (unsigned long long) out_bytes);
  }
  return sima_status_ok ();
}

void
gst_sima_ev74_runner_set_flushing (GstSimaEv74Runner * runner,
    gboolean flushing)
{
  g_atomic_int_set (&runner->flushing, flushing ? 1 : 0);
}

guint
gst_sima_ev74_runner_pending (GstSimaEv74Runner * runner)
{
  return (guint) g_atomic_int_get (&runner->pending->pending);
}

/* ---- one buffer ---------------------------------------------------------- */

/* Copies size bytes between two buffers. The allocators' map functions do
 * whatever CPU-access synchronisation their memory needs. */
static gboolean
copy_bytes (GstBuffer * from, GstBuffer * to, gsize size)
{
  GstMapInfo a, b;

  if (!gst_buffer_map (from, &a, GST_MAP_READ))
    return FALSE;
  if (!gst_buffer_map (to, &b, GST_MAP_WRITE)) {
    gst_buffer_unmap (from, &a);
    return FALSE;
  }
  memcpy (b.data, a.data, size);
  gst_buffer_unmap (to, &b);
  gst_buffer_unmap (from, &a);
  return TRUE;
}

/* Binds buf's one fd memory in place; FALSE (nothing held) when the
 * device cannot use it as it is: not one fd memory, an fd it cannot
 * import, or at a bus address the device cannot address (an offset inside
 * the fd that breaks the tiles' alignment). */
static gboolean
bind_in_place (GstSimaEv74Runner * runner, GstBuffer * buf,
    SimaEv74Region ** region, SimaEv74Binding * binding,
    GstSimaRunStats * stats, SimaStatus * st, const gchar ** why)
{
  GstMemory *mem;
  gboolean imported;

  *why = "system-memory";
  if (gst_buffer_n_memory (buf) != 1) {
    *why = "multi-memory";
    return FALSE;
  }
  mem = gst_buffer_peek_memory (buf, 0);
  if (!gst_is_fd_memory (mem))
    return FALSE;
  *st = gst_sima_memory_binding (mem, runner->dev, region, binding,
      &imported);
  if (imported) {
    stats->imports++;
    GST_DEBUG_OBJECT (runner->owner, "imported fd %d (%" G_GSIZE_FORMAT
        " bytes) at bus %#" G_GINT64_MODIFIER "x", gst_fd_memory_get_fd (mem),
        mem->maxsize, binding->bus_address - mem->offset);
  }
  if (st->code == SIMA_IMPORT_FAILED || st->code == SIMA_NOT_REPRESENTABLE) {
    /* the device cannot map this fd (read-only, or a length it cannot
     * address), but the CPU can still read or write it: stage */
    GST_DEBUG_OBJECT (runner->owner, "fd %d cannot be imported (%s): "
        "staging", gst_fd_memory_get_fd (mem), st->message);
    *why = "unimportable";
    return FALSE;
  }
  if (st->code != SIMA_OK)
    return TRUE;                /* a real failure (e.g. a full aperture) */
  if (binding->bus_address % SIMA_TILED_ALIGNMENT != 0) {
    sima_ev74_region_unref (*region);
    *region = NULL;
    *why = "misaligned";
    return FALSE;
  }
  return TRUE;
}

/* Where the device reads or writes buf: its own fd memory when it can,
 * else a staging buffer from pool (filled from buf for inputs, counted as
 * a copy). *holder is a new reference on the buffer the device touches,
 * *region a new reference on its region. */
static SimaStatus
device_buffer (GstSimaEv74Runner * runner, GstBuffer * buf,
    GstBufferPool * pool, guint64 bytes, gboolean input, GstBuffer ** holder,
    SimaEv74Region ** region, SimaEv74Binding * binding,
    GstSimaRunStats * stats)
{
  SimaStatus st = sima_status_ok ();
  const gchar *why;
  gboolean imported;

  *region = NULL;
  if (bind_in_place (runner, buf, region, binding, stats, &st, &why)) {
    if (st.code == SIMA_OK)
      *holder = gst_buffer_ref (buf);
    return st;
  }
  if (gst_buffer_pool_acquire_buffer (pool, holder, NULL) != GST_FLOW_OK)
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "no staging buffer for the %s", input ? "input" : "output");
  if (input) {
    if (!copy_bytes (buf, *holder, (gsize) bytes)) {
      gst_clear_buffer (holder);
      return sima_status_make (SIMA_OUT_OF_RESOURCES,
          "cannot copy the input into a staging buffer");
    }
    stats->copies++;
    GST_LOG_OBJECT (runner->owner, "copied %" G_GUINT64_FORMAT " bytes of %s "
        "input into a staging buffer", bytes, why);
  } else {
    GST_LOG_OBJECT (runner->owner, "%s output: the device writes a staging "
        "buffer", why);
  }
  st = gst_sima_memory_binding (gst_buffer_peek_memory (*holder, 0),
      runner->dev, region, binding, &imported);
  if (imported)
    stats->imports++;
  if (st.code != SIMA_OK)
    gst_clear_buffer (holder);
  return st;
}

/* Waits for the ticket's job until its deadline, in slices; *flushed
 * when a flush or a state change interrupted it. */
static SimaStatus
wait_job (GstSimaEv74Runner * runner, GstSimaEv74Ticket * t,
    gboolean * flushed)
{
  SimaStatus st;

  *flushed = FALSE;
  for (;;) {
    gint64 left = (t->deadline - g_get_monotonic_time ()) * 1000;
    if (g_atomic_int_get (&runner->flushing)) {
      *flushed = TRUE;
      return sima_status_make (SIMA_TIMEOUT, "interrupted by a flush");
    }
    st = sima_ev74_job_wait (t->job, CLAMP (left, 0, WAIT_SLICE_NS));
    if (st.code != SIMA_TIMEOUT || left <= WAIT_SLICE_NS)
      return st;
  }
}

GstSimaRunResult
gst_sima_ev74_runner_submit (GstSimaEv74Runner * runner, GstBuffer * inbuf,
    GstBuffer * outbuf, guint timeout_ms, GstSimaEv74Ticket ** ticket,
    GstSimaRunStats * stats, SimaStatus * status)
{
  GstBuffer *in = NULL, *out = NULL;
  SimaEv74Region *regions[2] = { NULL, NULL };
  SimaEv74Binding bi, bo;
  SimaEv74Job *job = NULL;
  GstSimaEv74Ticket *t;
  SimaStatus st;

  memset (stats, 0, sizeof *stats);
  *status = sima_status_ok ();
  *ticket = NULL;
  if (runner->out_bytes == 0)
    return GST_SIMA_RUN_OK;     /* an empty tensor needs no device job */
  if (g_atomic_int_get (&runner->flushing))
    return GST_SIMA_RUN_FLUSHING;

  st = device_buffer (runner, inbuf, runner->stage_in, runner->in_bytes, TRUE,
      &in, &regions[0], &bi, stats);
  if (st.code == SIMA_OK)
    st = device_buffer (runner, outbuf, runner->stage_out, runner->out_bytes,
        FALSE, &out, &regions[1], &bo, stats);
  /* bound in place (the streaming thread owns the runner; binding patches
   * the relocation block only, and submit copies the bytes): a set's
   * descriptor is 20 KiB, not something to copy per buffer */
  if (st.code == SIMA_OK)
    st = sima_ev74_descriptor_bind (&runner->desc, &bi, &bo);
  if (st.code == SIMA_OK)
    st = sima_ev74_submit (runner->dev, &runner->desc, regions, 2, &job);
  /* the job holds its own references on the regions */
  sima_ev74_region_unref (regions[0]);
  sima_ev74_region_unref (regions[1]);
  if (st.code != SIMA_OK) {
    /* nothing was queued: the device never saw these buffers */
    gst_clear_buffer (&in);
    gst_clear_buffer (&out);
    *status = st;
    return GST_SIMA_RUN_FAILED;
  }
  t = g_new0 (GstSimaEv74Ticket, 1);
  t->refs = 1;
  t->job = job;
  t->in = in;
  t->out = out;
  if (out != outbuf)
    t->dest = outbuf;
  t->out_bytes = runner->out_bytes;
  t->timeout_ms = timeout_ms;
  t->deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  *ticket = t;
  return GST_SIMA_RUN_OK;
}

GstSimaRunResult
gst_sima_ev74_runner_finish (GstSimaEv74Runner * runner,
    GstSimaEv74Ticket * t, GstSimaRunStats * stats, SimaStatus * status)
{
  SimaEv74JobStats js;
  gboolean flushed = FALSE;
  SimaStatus st;

  *status = sima_status_ok ();
  if (t == NULL)
    return GST_SIMA_RUN_OK;
  st = wait_job (runner, t, &flushed);
  if (st.code == SIMA_TIMEOUT) {
    /* the device may still read and write both: keep them until it is done */
    *status = flushed ? st : sima_status_make (SIMA_TIMEOUT,
        "the job did not retire within %u ms", t->timeout_ms);
    abandon_ticket (runner, t);
    return flushed ? GST_SIMA_RUN_FLUSHING : GST_SIMA_RUN_TIMEOUT;
  }
  sima_ev74_job_stats (t->job, &js);
  stats->device_ns = js.device_ns;
  stats->estimated_ns = js.estimated_ns;
  if (st.code == SIMA_OK && t->dest != NULL) {
    /* the result landed in staging: copy it out, now that it retired */
    gint64 copy_start = g_get_monotonic_time ();
    if (copy_bytes (t->out, t->dest, (gsize) t->out_bytes)) {
      stats->copies++;
      stats->copy_ns = (guint64) (g_get_monotonic_time () - copy_start) * 1000;
    }
    else
      st = sima_status_make (SIMA_OUT_OF_RESOURCES,
          "cannot copy the result out of its staging buffer");
  }
  /* retired: the buffers go now, even if a watcher holds the ticket */
  ticket_release_buffers (t);
  gst_sima_ev74_ticket_unref (t);
  *status = st;
  return st.code == SIMA_OK ? GST_SIMA_RUN_OK : GST_SIMA_RUN_FAILED;
}

GstSimaRunResult
gst_sima_ev74_runner_run (GstSimaEv74Runner * runner, GstBuffer * inbuf,
    GstBuffer * outbuf, guint timeout_ms, GstSimaRunStats * stats,
    SimaStatus * status)
{
  GstSimaEv74Ticket *ticket;
  GstSimaRunResult result;

  result = gst_sima_ev74_runner_submit (runner, inbuf, outbuf, timeout_ms,
      &ticket, stats, status);
  if (result != GST_SIMA_RUN_OK)
    return result;
  return gst_sima_ev74_runner_finish (runner, ticket, stats, status);
}
