/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gstsimacaps.h - application/vnd.simaai.tensor caps <-> SimaTensorSpec.
 *
 * Fields (docs/elements.md):
 *   dtype      string  float32 | float16 | bfloat16 | int8
 *   shape      array of int, outermost first (rank 1-6), (int)<1,224,224,3>
 *   layout     string  contiguous | strided | mla-tiled | mla-cblocked
 *   strides    array of int64 byte strides (strided only)
 *   tile-axes  array of 4 int, D,H,W,C logical axes, -1 absent (mla-tiled)
 *   tile-shape array of 4 int, D,H,W,C tile extents (mla-tiled)
 *   channels   string  compact | pad16 (mla-tiled)
 * Glue only: sizes and validity come from the kernel core.
 */
#ifndef GST_SIMA_CAPS_H
#define GST_SIMA_CAPS_H

#include <gst/gst.h>
#include <simaai/kernels/types.h>

G_BEGIN_DECLS

#define GST_SIMA_TENSOR_MEDIA_TYPE "application/vnd.simaai.tensor"

/* Reads a fixed tensor structure into spec. On failure returns FALSE and
 * sets *error to a message naming the field (free with g_free). */
gboolean gst_sima_caps_to_spec (const GstStructure *s, SimaTensorSpec *spec,
    gchar **error);

/* An int array value from the first n entries of v. */
void gst_sima_value_set_int_array (GValue *value, const int64_t *v, int n);

/* Reads an array field of up to max ints (int or int64 entries); returns the
 * count, or -1 when the field is absent or not such an array. */
int gst_sima_structure_get_int_array (const GstStructure *s,
    const gchar *field, int64_t *out, int max);

/* Bytes a buffer of these (fixed) caps must hold, from the core; FALSE with
 * *error when the caps do not describe a valid tensor. */
gboolean gst_sima_caps_required_bytes (const GstCaps *caps, guint64 *bytes,
    gchar **error);

G_END_DECLS

#endif /* GST_SIMA_CAPS_H */
