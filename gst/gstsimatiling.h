/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gstsimatiling.h - what simaquanttess and simacasttess share as producers
 * of MLA tiles: the tile-axes, tile-shape and channels properties, and caps
 * transformation and fixation from a dense tensor to tiles.
 *
 * The properties only choose among what downstream allows: a tile field
 * downstream fixes wins. Unset tile-axes / tile-shape mean the core's
 * default tiling for the tensor's rank (channels last, H8/W16/C16).
 * Fixation asks the core (through the element's admission callback) and
 * skips tilings it rejects, so that set_caps gets caps it accepts.
 */
#ifndef GST_SIMA_TILING_H
#define GST_SIMA_TILING_H

#include <gst/base/gstbasetransform.h>
#include <gst/gst.h>
#include <simaai/kernels/tensor_set.h>
#include <simaai/kernels/types.h>

G_BEGIN_DECLS

typedef struct {
  int n_axes;                 /* 0 (unset) or 4 */
  int64_t axes[4];
  int n_shape;                /* 0 (unset) or 4 */
  int64_t shape[4];
  SimaChannels channels;
  gboolean cblock;
} GstSimaTilingProps;

/* tile-axes, tile-shape, channels, cblock */
#define GST_SIMA_TILING_N_PROPS 4

/* Installs tile-axes, tile-shape, channels and cblock as properties
 * first_id .. first_id + 3. */
void gst_sima_tiling_install_properties (GObjectClass * klass, guint first_id);

/* Set/get for those three ids (first_id-based); return FALSE for other
 * ids. Call with the object lock held. */
gboolean gst_sima_tiling_set_property (GstSimaTilingProps * t, guint first_id,
    guint prop_id, const GValue * value);
gboolean gst_sima_tiling_get_property (const GstSimaTilingProps * t,
    guint first_id, guint prop_id, GValue * value);

void gst_sima_tiling_props_init (GstSimaTilingProps * t);

/* transform_caps for dense input -> tiles of out_dtype (and back). */
GstCaps *gst_sima_tiling_transform_caps (GstPadDirection direction,
    GstCaps * caps, GstCaps * filter, const gchar * out_dtype);

/* transform_caps for an element that reads tiles and writes dense
 * tensors: the other side is the other pad template's first structure
 * with this side's shape (and representation, framerate); the SiMa
 * dialect structures of the other side (sink_dialects when going towards
 * the sink, src_dialects towards the source) are appended last. */
GstCaps *gst_sima_untiling_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter,
    const gchar * sink_dialects, const gchar * src_dialects);

/* The core's admission of in -> out with the element's current parameters,
 * run on a plan of its own (never the element's negotiated one). TRUE when
 * admitted; otherwise FALSE and, if why is not NULL, *why = the core's
 * message (g_free it). */
typedef gboolean (*GstSimaAdmitFunc) (GstObject * owner,
    const SimaTensorSet * in, const SimaTensorSet * out, gchar ** why);

/* fixate_caps for any of the converters. Candidates are the structures of
 * othercaps and, within each, every combination of the values of its list
 * fields (downstream's order; at most a few hundred are looked at). The
 * result is the first candidate the core admits against the fixed caps of
 * this side (caps; admit gets them as `in` when direction is
 * GST_PAD_SINK, as `out` otherwise), or the first candidate when none is
 * admitted, so that set_caps reports the core's reason. Skipped candidates
 * are logged in cat. Takes othercaps. */
GstCaps *gst_sima_fixate_admitted (GstObject * owner, GstDebugCategory * cat,
    GstSimaAdmitFunc admit, GstPadDirection direction, GstCaps * caps,
    GstCaps * othercaps);

/* fixate_caps of a tile-producing element: gst_sima_fixate_admitted, with
 * a preference on the tiled side. Each of tile-axes, tile-shape and
 * channels (in that order of importance) prefers the property's value
 * (*t, read under owner's object lock), or for unset tile-axes /
 * tile-shape the core's default tiling for the rank, when downstream
 * leaves the field open or allows that value; candidates matching more
 * important preferences come first, the others in downstream's order. */
GstCaps *gst_sima_tiling_fixate_caps (GstObject * owner,
    GstDebugCategory * cat, const GstSimaTilingProps * t,
    GstSimaAdmitFunc admit, GstPadDirection direction, GstCaps * caps,
    GstCaps * othercaps);

G_END_DECLS

#endif /* GST_SIMA_TILING_H */
