/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gstsimalatencytracer.h - the simalatency tracer: one record per buffer
 * per simakernels converter, and an optional summary at stop.
 */
#ifndef GST_SIMA_LATENCY_TRACER_H
#define GST_SIMA_LATENCY_TRACER_H

#include <gst/gst.h>
#include <gst/gsttracer.h>

G_BEGIN_DECLS

#define GST_TYPE_SIMA_LATENCY_TRACER (gst_sima_latency_tracer_get_type ())
G_DECLARE_FINAL_TYPE (GstSimaLatencyTracer, gst_sima_latency_tracer,
    GST, SIMA_LATENCY_TRACER, GstTracer)

G_END_DECLS

#endif /* GST_SIMA_LATENCY_TRACER_H */
