/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gstsimaenums.h - the enum property types of the simakernels elements.
 * Nicks are the core's stable names where there is one.
 */
#ifndef GST_SIMA_ENUMS_H
#define GST_SIMA_ENUMS_H

#include <gst/gst.h>

G_BEGIN_DECLS

typedef enum {
  GST_SIMA_BACKEND_EV74 = 0,
  GST_SIMA_BACKEND_A65 = 1,
} GstSimaBackend;

typedef enum {
  GST_SIMA_FALLBACK_NONE = 0,
  GST_SIMA_FALLBACK_A65 = 1,
} GstSimaFallback;

/* Where an element actually runs, once started. */
typedef enum {
  GST_SIMA_ACTIVE_NONE = 0,         /* not started */
  GST_SIMA_ACTIVE_EV74 = 1,
  GST_SIMA_ACTIVE_A65 = 2,          /* backend=a65 */
  GST_SIMA_ACTIVE_A65_FALLBACK = 3, /* the EV74 failed, fallback=a65 */
} GstSimaActiveBackend;

GType gst_sima_backend_get_type (void);
GType gst_sima_active_backend_get_type (void);
GType gst_sima_fallback_get_type (void);
GType gst_sima_rounding_get_type (void);   /* values of SimaRounding */
GType gst_sima_channels_get_type (void);   /* values of SimaChannels */
/* values of SimaScaleConvention */
GType gst_sima_scale_convention_get_type (void);
GType gst_sima_pattern_get_type (void);    /* values of SimaPattern */

#define GST_TYPE_SIMA_BACKEND (gst_sima_backend_get_type ())
#define GST_TYPE_SIMA_FALLBACK (gst_sima_fallback_get_type ())
#define GST_TYPE_SIMA_ACTIVE_BACKEND (gst_sima_active_backend_get_type ())
#define GST_TYPE_SIMA_ROUNDING (gst_sima_rounding_get_type ())
#define GST_TYPE_SIMA_CHANNELS (gst_sima_channels_get_type ())
#define GST_TYPE_SIMA_SCALE_CONVENTION (gst_sima_scale_convention_get_type ())
#define GST_TYPE_SIMA_PATTERN (gst_sima_pattern_get_type ())

G_END_DECLS

#endif /* GST_SIMA_ENUMS_H */
