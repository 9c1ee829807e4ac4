/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst/sima/gstsimatimingmeta.h - how a simakernels converter made a buffer.
 *
 * simaquanttess, simacasttess and simadetessdequant attach one timing meta
 * to every buffer they output. It is a GstCustomMeta named
 * "GstSimaTimingMeta" (GStreamer 1.20+), so any language reads it without
 * linking anything of ours: in Python,
 *
 *   meta = buf.get_custom_meta("GstSimaTimingMeta")
 *   s = meta.get_structure()  # s["op"], s["process-ns"], ...
 *
 * and in C with this header only (it is header-only; installed as
 * <gst/sima/gstsimatimingmeta.h>):
 *
 *   GstSimaTiming t;
 *   if (gst_sima_buffer_get_timing (buf, &t))
 *     g_print ("%s: %" G_GUINT64_FORMAT " ns\n", t.op, t.process_ns);
 *
 * The meta describes the element that produced the buffer; elements
 * downstream do not copy it onto their own outputs (it carries the tag
 * "sima-timing"). To see every element of a pipeline, read the buffers at
 * each element's src pad, or use the simalatency tracer (docs/tracing.md).
 */
#ifndef GST_SIMA_TIMING_META_H
#define GST_SIMA_TIMING_META_H

#include <gst/gst.h>
#include <string.h>

G_BEGIN_DECLS

#define GST_SIMA_TIMING_META_NAME "GstSimaTimingMeta"

/* The structure's fields. */
#define GST_SIMA_TIMING_ELEMENT "element"       /* string: element name */
#define GST_SIMA_TIMING_OP "op"                 /* string: QuantTess, ... */
#define GST_SIMA_TIMING_BACKEND "backend"       /* ev74, a65, a65-fallback */
#define GST_SIMA_TIMING_PROCESS_NS "process-ns" /* guint64, see below */
#define GST_SIMA_TIMING_CPU_NS "cpu-ns"         /* guint64 */
#define GST_SIMA_TIMING_BYTES_IN "bytes-in"     /* guint64 */
#define GST_SIMA_TIMING_BYTES_OUT "bytes-out"   /* guint64 */
#define GST_SIMA_TIMING_COPIES "copies"         /* guint */
/* guint64: the EV74 device model's estimate for the job (0 on the A65);
 * optional, absent from metas of older builds */
#define GST_SIMA_TIMING_ESTIMATED_NS "estimated-device-ns"

typedef struct
{
  const gchar *element;         /* owned by the meta: valid with the buffer */
  const gchar *op;
  const gchar *backend;
  /* ev74: submit to confirmed retirement, as the device measured it;
   * a65: the kernel's execution, wall clock */
  guint64 process_ns;
  /* CPU time of the streaming thread for this buffer (thread CPU clock):
   * small on the EV74, about process_ns on the A65 */
  guint64 cpu_ns;
  guint64 bytes_in;             /* the tensor bytes read and written */
  guint64 bytes_out;
  guint copies;                 /* buffer copies made for this buffer */
  /* ev74: the device model's estimated device time of the job
   * (firmware/hal/device_model.h; an assumption, not a measurement);
   * a65: 0 */
  guint64 estimated_ns;
} GstSimaTiming;

/* Fills *timing from buf's timing meta; FALSE (and *timing zeroed) when
 * buf has none. */
static inline gboolean
gst_sima_buffer_get_timing (GstBuffer * buf, GstSimaTiming * timing)
{
  GstCustomMeta *meta;
  const GstStructure *s;
  gboolean ok;

  memset (timing, 0, sizeof *timing);
  if (gst_meta_get_info (GST_SIMA_TIMING_META_NAME) == NULL)
    return FALSE;               /* no element of ours registered it yet */
  meta = gst_buffer_get_custom_meta (buf, GST_SIMA_TIMING_META_NAME);
  if (meta == NULL)
    return FALSE;
  s = gst_custom_meta_get_structure (meta);
  timing->element = gst_structure_get_string (s, GST_SIMA_TIMING_ELEMENT);
  timing->op = gst_structure_get_string (s, GST_SIMA_TIMING_OP);
  timing->backend = gst_structure_get_string (s, GST_SIMA_TIMING_BACKEND);
  ok = timing->element != NULL && timing->op != NULL
      && timing->backend != NULL
      && gst_structure_get_uint64 (s, GST_SIMA_TIMING_PROCESS_NS,
      &timing->process_ns)
      && gst_structure_get_uint64 (s, GST_SIMA_TIMING_CPU_NS,
      &timing->cpu_ns)
      && gst_structure_get_uint64 (s, GST_SIMA_TIMING_BYTES_IN,
      &timing->bytes_in)
      && gst_structure_get_uint64 (s, GST_SIMA_TIMING_BYTES_OUT,
      &timing->bytes_out)
      && gst_structure_get_uint (s, GST_SIMA_TIMING_COPIES, &timing->copies);
  if (ok && !gst_structure_get_uint64 (s, GST_SIMA_TIMING_ESTIMATED_NS,
          &timing->estimated_ns))
    timing->estimated_ns = 0;
  if (!ok)
    memset (timing, 0, sizeof *timing);
  return ok;
}

G_END_DECLS

#endif /* GST_SIMA_TIMING_META_H */
