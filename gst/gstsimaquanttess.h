/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef GST_SIMA_QUANT_TESS_H
#define GST_SIMA_QUANT_TESS_H

#include "gstsimabasetransform.h"

G_BEGIN_DECLS

#define GST_TYPE_SIMA_QUANT_TESS (gst_sima_quant_tess_get_type ())
G_DECLARE_FINAL_TYPE (GstSimaQuantTess, gst_sima_quant_tess, GST,
    SIMA_QUANT_TESS, GstSimaBaseTransform)

GST_ELEMENT_REGISTER_DECLARE (simaquanttess);

G_END_DECLS

#endif /* GST_SIMA_QUANT_TESS_H */
