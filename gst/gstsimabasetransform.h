/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gstsimabasetransform.h - GstSimaBaseTransform, the abstract base of
 * simaquanttess, simacasttess, simadetessdequant and simadetesscast.
 *
 * It holds what the four share: the backend, fallback, device and timeout
 * properties; opening the EV74 and probing the operation's capability in
 * start() (the backend policy of docs/elements.md); specs from caps and the
 * core's admission in set_caps; buffer sizes from the core; running
 * buffers on the EV74 (gstsimaev74runner.h), up to max-inflight jobs at
 * once with outputs in input order (docs/elements.md, "Jobs in flight"), or
 * on the A65 over `threads` threads (gstsimaa65pool.h); and posting errors with the core's messages. A subclass names its operation and capability and implements
 * prepare / execute_a65 / encode on its own plan.
 */
#ifndef GST_SIMA_BASE_TRANSFORM_H
#define GST_SIMA_BASE_TRANSFORM_H

#include <gst/base/gstbasetransform.h>
#include <gst/gst.h>
#include <simaai/kernels/a65/threads.h>
#include <simaai/kernels/ev74/device.h>
#include <simaai/kernels/tensor_set.h>
#include <simaai/kernels/types.h>

#include "gstsimaenums.h"

G_BEGIN_DECLS

#define GST_TYPE_SIMA_BASE_TRANSFORM (gst_sima_base_transform_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstSimaBaseTransform, gst_sima_base_transform,
    GST, SIMA_BASE_TRANSFORM, GstBaseTransform)

struct _GstSimaBaseTransformClass
{
  GstBaseTransformClass parent_class;

  /* what the subclass runs */
  const gchar *op_name;               /* "QuantTess" */
  guint16 route;                      /* SIMA_EV74_ROUTE_* */
  const gchar *capability;            /* "simaai_kernels_ev74_quanttess_v1" */
  GstDebugCategory *debug_category;   /* the element's own; the base logs
                                       * there too */

  /* start(): required properties set? Post an element error and return
   * FALSE if not. May be NULL. */
  gboolean (*check_properties) (GstSimaBaseTransform * self);
  /* set_caps() and parameter changes: admit in -> out (tensor sets; a
   * single tensor is the one-member set at offset 0) with the element's
   * current parameters, keep the plan, prepare the A65 path, and say the
   * bytes the plan needs on each side. */
  SimaStatus (*prepare) (GstSimaBaseTransform * self,
      const SimaTensorSet * in, const SimaTensorSet * out,
      guint64 * in_bytes, guint64 * out_bytes);
  /* pool: the threads the execution is split over (the threads
   * property), NULL for the calling thread alone */
  SimaStatus (*execute_a65) (GstSimaBaseTransform * self,
      SimaA65Threads * pool, const void *in, gsize in_size, void *out,
      gsize out_size);
  SimaStatus (*encode) (GstSimaBaseTransform * self,
      SimaEv74Descriptor * desc);
};

/* For a subclass's set_property: a conversion parameter changed. While
 * the element runs, the next buffer is converted with the new value
 * (re-prepared; with relayout, renegotiated first). */
void gst_sima_base_transform_params_changed (GstSimaBaseTransform * self,
    gboolean relayout);

G_END_DECLS

#endif /* GST_SIMA_BASE_TRANSFORM_H */
