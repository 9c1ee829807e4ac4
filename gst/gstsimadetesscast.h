/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef GST_SIMA_DETESS_CAST_H
#define GST_SIMA_DETESS_CAST_H

#include "gstsimabasetransform.h"

G_BEGIN_DECLS

#define GST_TYPE_SIMA_DETESS_CAST (gst_sima_detess_cast_get_type ())
G_DECLARE_FINAL_TYPE (GstSimaDetessCast, gst_sima_detess_cast, GST,
    SIMA_DETESS_CAST, GstSimaBaseTransform)

GST_ELEMENT_REGISTER_DECLARE (simadetesscast);

G_END_DECLS

#endif /* GST_SIMA_DETESS_CAST_H */
