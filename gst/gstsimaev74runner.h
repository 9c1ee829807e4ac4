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
 * after the element has stopped (a reaper thread takes them over).
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
  guint copies;                 /* buffers copied for this run */
  guint imports;                /* memories imported for this run */
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

/* Converts in into out on the device. *status is set on FAILED and
 * TIMEOUT. */
GstSimaRunResult gst_sima_ev74_runner_run (GstSimaEv74Runner * runner,
    GstBuffer * in, GstBuffer * out, guint timeout_ms,
    GstSimaRunStats * stats, SimaStatus * status);

/* Jobs of this runner that outlived their wait and have not retired yet. */
guint gst_sima_ev74_runner_pending (GstSimaEv74Runner * runner);

G_END_DECLS

#endif /* GST_SIMA_EV74_RUNNER_H */
