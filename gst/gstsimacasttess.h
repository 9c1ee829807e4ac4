/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef GST_SIMA_CAST_TESS_H
#define GST_SIMA_CAST_TESS_H

#include "gstsimabasetransform.h"

G_BEGIN_DECLS

#define GST_TYPE_SIMA_CAST_TESS (gst_sima_cast_tess_get_type ())
G_DECLARE_FINAL_TYPE (GstSimaCastTess, gst_sima_cast_tess, GST,
    SIMA_CAST_TESS, GstSimaBaseTransform)

GST_ELEMENT_REGISTER_DECLARE (simacasttess);

G_END_DECLS

#endif /* GST_SIMA_CAST_TESS_H */
