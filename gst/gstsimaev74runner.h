/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gstsimaev74runner.h - runs one element's buffers on an EV74 device.
 *
 * What the device path of GstSimaBaseTransform needs beyond the device
 * API: where the device reads and writes a buffer (its own fd memory,
 * imported once through the cache of gstsimaimport.h, or a staging buffer
 * for system memory, several memories or an offset the device cannot
 * address), binding and submitting the element's descriptor, waiting for
 * the job in a way a flush or a state change can interrupt, and keeping
 * every buffer the device may still touch until the job retires, even
 * after the element has stopped (a reaper thread takes them over). A
 * buffer's way is split in two, submit (bind, stage, submit: a ticket) and
 * finish (wait, copy a staged result out), so that an element can keep
 * several jobs in flight; run is the two in a row.
 */
#ifndef GST_SIMA_EV74_RUNNER_H
#define GST_SIMA_EV74_RUNNER_H

#include <gst/gst.h>
#include <simaai/kernels/ev74/device.h>

G_BEGIN_DECLS

typedef struct _GstSimaEv74Runner GstSimaEv74Runner;

typedef enum
{
  GST_SIMA_RUN_OK,
  GST_SIMA_RUN_FAILED,          /* the status says why */
  GST_SIMA_RUN_TIMEOUT,         /* the job outlived the timeout */
  GST_SIMA_RUN_FLUSHING,        /* a flush or a state change interrupted */
} GstSimaRunResult;

typedef struct
{
  guint64 device_ns;            /* submit to retirement, by the device */
  guint64 estimated_ns;         /* the device model's estimate of the job */
  guint copies;                 /* buffers copied for this run */
  guint imports;                /* memories imported for this run */
  guint64 copy_ns;              /* finish: copying a staged result out */
} GstSimaRunStats;

/* A runner on dev (it takes the caller's reference); logs on owner in
 * category cat. */
GstSimaEv74Runner *gst_sima_ev74_runner_new (GstObject * owner,
    GstDebugCategory * cat, SimaEv74Device * dev);

/* Never blocks. Jobs that outlived their wait (a timeout or a flush) are
 * already with a reaper thread, which releases their buffers the moment
 * the device retires them, before or after the runner is freed. */
void gst_sima_ev74_runner_free (GstSimaEv74Runner * runner);

/* After each negotiation: the encoded (relocatable) descriptor and the
 * byte counts the plan needs; makes the staging pools. */
SimaStatus gst_sima_ev74_runner_configure (GstSimaEv74Runner * runner,
    const SimaEv74Descriptor * desc, guint64 in_bytes, guint64 out_bytes);

/* While set, waits return GST_SIMA_RUN_FLUSHING at once (the job goes on
 * and keeps its buffers until it retires). */
void gst_sima_ev74_runner_set_flushing (GstSimaEv74Runner * runner,
    gboolean flushing);

/* One buffer on its way through the device: the job, the buffers it
 * reads and writes (the caller's, or staging buffers) and what finishing
 * it needs (the byte count to copy back, the deadline). Owned by whoever
 * holds it; finish and abandon consume it. */
typedef struct _GstSimaEv74Ticket GstSimaEv74Ticket;

/* Binds in and out (importing fd memory, or staging: the input is copied
 * into a staging buffer now), binds the runner's descriptor and submits
 * it. The caller keeps out until it finishes or abandons the ticket (a
 * staged result is copied into it then) (the job takes its own copy of the descriptor, so a later configure
 * does not change it). On OK, *ticket holds the job and its buffers; it
 * is NULL for an empty tensor (nothing to submit). stats get the copies
 * and imports of this step; *status is set on FAILED. The job's timeout
 * (timeout_ms) counts from now. Never blocks on the device. */
GstSimaRunResult gst_sima_ev74_runner_submit (GstSimaEv74Runner * runner,
    GstBuffer * in, GstBuffer * out, guint timeout_ms,
    GstSimaEv74Ticket ** ticket, GstSimaRunStats * stats,
    SimaStatus * status);

/* Waits for the ticket's job (in slices: a flush interrupts it) until it
 * retires or its timeout passes, then copies a staged result into the
 * caller's output buffer. Consumes the ticket: a retired job's buffers are
 * let go at once; one that timed out or was interrupted goes to the
 * reaper with everything it touches. stats: device_ns and the copy out
 * are added; *status is set on FAILED, TIMEOUT and FLUSHING. A NULL
 * ticket (an empty tensor) is OK at once. */
GstSimaRunResult gst_sima_ev74_runner_finish (GstSimaEv74Runner * runner,
    GstSimaEv74Ticket * ticket, GstSimaRunStats * stats,
    SimaStatus * status);

/* Gives up on a ticket without a result (a flush, a stop, an error
 * before it): consumed; a job that has not retired goes to the reaper
 * with its buffers, which are let go when the device retires it. */
void gst_sima_ev74_runner_abandon (GstSimaEv74Runner * runner,
    GstSimaEv74Ticket * ticket);

/* For a thread that watches a ticket it does not own (the element's
 * retire thread): a reference keeps the job alive, never the result. */
GstSimaEv74Ticket *gst_sima_ev74_ticket_ref (GstSimaEv74Ticket * ticket);
void gst_sima_ev74_ticket_unref (GstSimaEv74Ticket * ticket);
/* Waits up to timeout_ns for the job to retire (not interruptible: keep
 * it short); TRUE once it has. */
gboolean gst_sima_ev74_ticket_wait (GstSimaEv74Ticket * ticket,
    gint64 timeout_ns);
/* When the job's timeout runs out (g_get_monotonic_time, us): timeout_ms
 * after the submit, or after the last restart. */
gint64 gst_sima_ev74_ticket_deadline (GstSimaEv74Ticket * ticket);
/* Counts the job's timeout from now (if that is later): a job queued
 * behind the caller's own earlier jobs gets its whole timeout once they
 * are done. Not concurrently with finish. */
void gst_sima_ev74_ticket_restart_timeout (GstSimaEv74Ticket * ticket);

/* Converts in into out on the device: submit, then finish. *status is
 * set on FAILED and TIMEOUT. */
GstSimaRunResult gst_sima_ev74_runner_run (GstSimaEv74Runner * runner,
    GstBuffer * in, GstBuffer * out, guint timeout_ms,
    GstSimaRunStats * stats, SimaStatus * status);

/* Jobs of this runner that outlived their wait and have not retired yet. */
guint gst_sima_ev74_runner_pending (GstSimaEv74Runner * runner);

G_END_DECLS

#endif /* GST_SIMA_EV74_RUNNER_H */
