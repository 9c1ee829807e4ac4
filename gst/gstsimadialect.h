/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gstsimadialect.h - SiMa.ai's two caps dialects <-> our canonical caps.
 *
 * All three speak application/vnd.simaai.tensor (docs/caps-dialects.md has
 * the mapping field by field):
 *   canonical  dtype, shape, layout, strides, tile-axes, tile-shape,
 *              channels, cblock; a tensor set: representation=tensor-set,
 *              every per-member field an array in member order, offsets
 *   SIMA_MLA   SiMa's legacy MLA plugins: format=MLA, data_type, width,
 *              height, depth, slice_width, slice_height, slice_depth (one
 *              value per tensor)
 *   SIMA_RUNTIME  SiMa's newer runtime: format, rank, dim0..dimN-1,
 *              shape="640,640,3", dtype; sets: representation=tensor-set,
 *              storage=tensorbuffer, each field an array in member order
 * Glue only: member sizes (for packed offsets) come from the kernel core.
 */
#ifndef GST_SIMA_DIALECT_H
#define GST_SIMA_DIALECT_H

#include <gst/gst.h>

#include "gstsimacaps.h"

G_BEGIN_DECLS

typedef enum {
  GST_SIMA_DIALECT_CANONICAL,
  GST_SIMA_DIALECT_SIMA_MLA,
  GST_SIMA_DIALECT_SIMA_RUNTIME,
} GstSimaDialect;

/* Most members a set may have (the core's SIMA_TENSOR_SET_MAX_MEMBERS). */
#define GST_SIMA_DIALECT_MAX_MEMBERS 16

/* Pad-template fragments (join them with ";" to the canonical ones).
 * A legacy MLA structure: one value per tensor in every field, so no
 * template can say more than format=MLA. */
#define GST_SIMA_DIALECT_MLA_CAPS \
  GST_SIMA_TENSOR_MEDIA_TYPE ", format = (string) MLA"
/* A single runtime tensor of any of the runtime's formats, and by kind. */
#define GST_SIMA_DIALECT_RUNTIME_CAPS \
  GST_SIMA_TENSOR_MEDIA_TYPE \
  ", format = (string) { FP32, FP16, BF16, INT8, UINT8 }"
#define GST_SIMA_DIALECT_RUNTIME_FLOAT_CAPS \
  GST_SIMA_TENSOR_MEDIA_TYPE ", format = (string) { FP32, FP16, BF16 }"
#define GST_SIMA_DIALECT_RUNTIME_INT8_CAPS \
  GST_SIMA_TENSOR_MEDIA_TYPE ", format = (string) INT8"
#define GST_SIMA_DIALECT_RUNTIME_BF16_CAPS \
  GST_SIMA_TENSOR_MEDIA_TYPE ", format = (string) BF16"
/* A runtime tensor set (its format is an array, one entry per member). */
#define GST_SIMA_DIALECT_RUNTIME_SET_CAPS \
  GST_SIMA_TENSOR_MEDIA_TYPE ", representation = (string) tensor-set, " \
  "storage = (string) tensorbuffer"
/* MLA tiles as SiMa's elements name them: legacy MLA and the runtime's
 * (whose caps carry no tiling: slice_* or our tile fields go with them).
 * The MLA structure says no data_type: a set gives one per tensor (an
 * array), which no single value would intersect; the core refuses a
 * data_type the operation does not take. */
#define GST_SIMA_DIALECT_INT8_TILES_CAPS \
  GST_SIMA_DIALECT_MLA_CAPS "; " GST_SIMA_DIALECT_RUNTIME_INT8_CAPS "; " \
  GST_SIMA_DIALECT_RUNTIME_SET_CAPS
#define GST_SIMA_DIALECT_BF16_TILES_CAPS \
  GST_SIMA_DIALECT_MLA_CAPS "; " GST_SIMA_DIALECT_RUNTIME_BF16_CAPS "; " \
  GST_SIMA_DIALECT_RUNTIME_SET_CAPS
/* FP32 and BF16 dense tensors of the runtime (simadetessdequant's output). */
#define GST_SIMA_DIALECT_RUNTIME_DEQUANT_CAPS \
  GST_SIMA_TENSOR_MEDIA_TYPE ", format = (string) { FP32, BF16 }; " \
  GST_SIMA_DIALECT_RUNTIME_SET_CAPS

/* Everything SiMa's elements may offer on one of our pads. */
#define GST_SIMA_DIALECT_SIMA_CAPS \
  GST_SIMA_DIALECT_MLA_CAPS "; " GST_SIMA_DIALECT_RUNTIME_CAPS "; " \
  GST_SIMA_DIALECT_RUNTIME_SET_CAPS

/* The dialect of s, by its fields: data_type, or format MLA / BBOX /
 * DETESSELLATE -> SIMA_MLA; any other format, rank, dimN or storage ->
 * SIMA_RUNTIME; else CANONICAL (whether or not s is valid). */
GstSimaDialect gst_sima_dialect_of (const GstStructure *s);

const gchar *gst_sima_dialect_name (GstSimaDialect dialect);
/* The dialect s asks for by SiMa's fields alone, ignoring ours: what a
 * peer wants when an intersection gave a structure both kinds of fields
 * (gst_sima_dialect_of calls such a structure canonical). */
GstSimaDialect gst_sima_dialect_requested (const GstStructure *s);
/* A copy of s without SiMa's fields (the canonical part of a mixed
 * structure). */
GstStructure *gst_sima_dialect_strip (const GstStructure *s);

/* A new canonical structure (single or tensor-set form, in the normal form
 * of docs/caps-dialects.md) for a fixed structure of any dialect; a
 * canonical s is returned as a copy. NULL with *error (g_free) naming the
 * field and its value when s cannot be translated. */
GstStructure *gst_sima_dialect_to_canonical (const GstStructure *s,
    gchar **error);

/* canonical (fixed, single or tensor-set) in `dialect`: a new structure, or
 * NULL with *error naming the field that dialect cannot express. For
 * GST_SIMA_DIALECT_CANONICAL, a copy. */
GstStructure *gst_sima_dialect_from_canonical (const GstStructure *canonical,
    GstSimaDialect dialect, gchar **error);

/* caps without the structures that mix SiMa's fields with ours (what a
 * pad template's bare format=MLA structure makes of our caps, or our
 * template's open fields of a peer's SiMa caps: neither side's tensor,
 * and never fixed enough for a capsfilter). Takes caps. */
GstCaps *gst_sima_dialect_drop_mixed (GstCaps *caps);

/* A tensor set in the canonical normal form: representation=tensor-set,
 * every per-member field an array with one entry per member, offsets.
 * NULL (logged) for a set that does not pass the core's checks. */
GstStructure *gst_sima_dialect_canonical_from_set (const SimaTensorSet *set);

/* For transform_caps (caps may be unfixed): each canonical structure is
 * kept, each SiMa structure is translated (fixed ones exactly, unfixed
 * ones into the canonical fields they determine, the rest left open), and
 * structures that cannot be translated are dropped (logged). ANY stays
 * ANY. */
GstCaps *gst_sima_dialect_caps_to_canonical (const GstCaps *caps);

G_END_DECLS

#endif /* GST_SIMA_DIALECT_H */
