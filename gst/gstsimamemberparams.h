/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gstsimamemberparams.h - per-member parameters of a tensor set as array
 * properties (scales="<11.33,13.66>", zero-points="<-61,-56>").
 *
 * An empty array (the default) means "every member takes the single-value
 * property" (scale, zero-point, multiplier): a single tensor is the
 * one-member case. A non-empty array must have exactly one entry per
 * member of the negotiated set; the element's prepare reports anything
 * else with the property's name and both counts.
 */
#ifndef GST_SIMA_MEMBER_PARAMS_H
#define GST_SIMA_MEMBER_PARAMS_H

#include <gst/gst.h>
#include <simaai/kernels/status.h>
#include <simaai/kernels/tensor_set.h>

G_BEGIN_DECLS

typedef struct {
  guint n;                      /* entries given; may exceed the storage */
  gfloat v[SIMA_TENSOR_SET_MAX_MEMBERS];
} GstSimaFloatArray;

typedef struct {
  guint n;
  gint v[SIMA_TENSOR_SET_MAX_MEMBERS];
} GstSimaIntArray;

GParamSpec *gst_sima_param_spec_float_array (const gchar * name,
    const gchar * nick, const gchar * blurb, gfloat min, gfloat max);
GParamSpec *gst_sima_param_spec_int_array (const gchar * name,
    const gchar * nick, const gchar * blurb, gint min, gint max);

/* GValue (GST_TYPE_ARRAY) <-> storage; call with the object lock held. */
void gst_sima_float_array_set (GstSimaFloatArray * a, const GValue * value);
void gst_sima_float_array_get (const GstSimaFloatArray * a, GValue * value);
void gst_sima_int_array_set (GstSimaIntArray * a, const GValue * value);
void gst_sima_int_array_get (const GstSimaIntArray * a, GValue * value);

/* OK when an array property of n_entries entries fits a set of n_members
 * (0 entries: the single-value property applies to every member);
 * otherwise SIMA_INVALID_PARAMETER naming the property and the counts. */
SimaStatus gst_sima_member_params_check (const gchar * property,
    guint n_entries, size_t n_members);

G_END_DECLS

#endif /* GST_SIMA_MEMBER_PARAMS_H */
