/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef GST_SIMA_DETESS_DEQUANT_H
#define GST_SIMA_DETESS_DEQUANT_H

#include "gstsimabasetransform.h"

G_BEGIN_DECLS

#define GST_TYPE_SIMA_DETESS_DEQUANT (gst_sima_detess_dequant_get_type ())
G_DECLARE_FINAL_TYPE (GstSimaDetessDequant, gst_sima_detess_dequant, GST,
    SIMA_DETESS_DEQUANT, GstSimaBaseTransform)

GST_ELEMENT_REGISTER_DECLARE (simadetessdequant);

G_END_DECLS

#endif /* GST_SIMA_DETESS_DEQUANT_H */
