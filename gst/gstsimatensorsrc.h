/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef GST_SIMA_TENSOR_SRC_H
#define GST_SIMA_TENSOR_SRC_H

#include <gst/base/gstpushsrc.h>
#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_SIMA_TENSOR_SRC (gst_sima_tensor_src_get_type ())
G_DECLARE_FINAL_TYPE (GstSimaTensorSrc, gst_sima_tensor_src, GST,
    SIMA_TENSOR_SRC, GstPushSrc)

GST_ELEMENT_REGISTER_DECLARE (simatensorsrc);

G_END_DECLS

#endif /* GST_SIMA_TENSOR_SRC_H */
