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
 *   cblock     boolean SiMa's 16-channel blocks inside each tile (mla-tiled,
 *              pad16 only); absent: false
 * A tensor set (several tensors in one buffer, simaai/kernels/tensor_set.h)
 * is announced with representation=(string)tensor-set; each field above
 * then holds one entry per member, in member order (dtype=(string)<int8,
 * int8>, shape=(int)<<80,80,64>,<40,40,64>>, ...), or one value that
 * applies to every member (dtype=(string)int8), and
 *   offsets    array of int64 byte offsets of the members in the buffer;
 *              absent: back to back, each at a 16-byte aligned offset
 * Glue only: sizes and validity come from the kernel core.
 */
#ifndef GST_SIMA_CAPS_H
#define GST_SIMA_CAPS_H

#include <gst/gst.h>
#include <simaai/kernels/tensor_set.h>
#include <simaai/kernels/types.h>

G_BEGIN_DECLS

#define GST_SIMA_TENSOR_MEDIA_TYPE "application/vnd.simaai.tensor"
#define GST_SIMA_TENSOR_SET_REPRESENTATION "tensor-set"
/* The pad-template structure of tensor sets (the single-tensor structure
 * comes first in every template); per-member rules are the core's. */
#define GST_SIMA_TENSOR_SET_CAPS GST_SIMA_TENSOR_MEDIA_TYPE ", " \
  "representation = (string) " GST_SIMA_TENSOR_SET_REPRESENTATION
/* where the members of a set go when its caps give no offsets */
#define GST_SIMA_SET_PACK_ALIGNMENT 16

/* Reads a fixed tensor structure into spec. On failure returns FALSE and
 * sets *error to a message naming the field (free with g_free). */
gboolean gst_sima_caps_to_spec (const GstStructure *s, SimaTensorSpec *spec,
    gchar **error);

/* TRUE when s announces a tensor set (representation=tensor-set). */
gboolean gst_sima_caps_is_set (const GstStructure *s);

/* Reads a fixed structure, a single tensor (as the one-member set at
 * offset 0) or a tensor set, into set; checked with sima_tensor_set_check.
 * On failure FALSE and *error names the member and field. */
gboolean gst_sima_caps_to_set (const GstStructure *s, SimaTensorSet *set,
    gchar **error);

/* An int array value from the first n entries of v. */
void gst_sima_value_set_int_array (GValue *value, const int64_t *v, int n);

/* The same with int64 entries (byte offsets and strides). */
void gst_sima_value_set_int64_array (GValue *value, const int64_t *v, int n);
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
