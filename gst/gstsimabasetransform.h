/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gstsimabasetransform.h - GstSimaBaseTransform, the abstract base of
 * simaquanttess, simacasttess and simadetessdequant.
 *
 * It holds what the three share: the backend, fallback, device and timeout
 * properties; opening the EV74 and probing the operation's capability in
 * start() (the backend policy of docs/elements.md); specs from caps and the
 * core's admission in set_caps; buffer sizes from the core; running a
 * buffer on the EV74 or the A65; and posting errors with the core's
 * messages. A subclass names its operation and capability and implements
 * prepare / execute_a65 / encode on its own plan.
 */
#ifndef GST_SIMA_BASE_TRANSFORM_H
#define GST_SIMA_BASE_TRANSFORM_H

#include <gst/base/gstbasetransform.h>
#include <gst/gst.h>
#include <simaai/kernels/ev74/device.h>
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

  /* start(): required properties set? Post an element error and return
   * FALSE if not. May be NULL. */
  gboolean (*check_properties) (GstSimaBaseTransform * self);
  /* set_caps(): admit in -> out with the element's parameters, keep the
   * plan, prepare the A65 path. */
  SimaStatus (*prepare) (GstSimaBaseTransform * self,
      const SimaTensorSpec * in, const SimaTensorSpec * out);
  SimaStatus (*execute_a65) (GstSimaBaseTransform * self, const void *in,
      gsize in_size, void *out, gsize out_size);
  SimaStatus (*encode) (GstSimaBaseTransform * self,
      SimaEv74Descriptor * desc);
};

/* What a subclass reads of its base. */
gboolean gst_sima_base_transform_runs_on_ev74 (GstSimaBaseTransform * self);

G_END_DECLS

#endif /* GST_SIMA_BASE_TRANSFORM_H */
