/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gstsimatiling.h - what simaquanttess and simacasttess share as producers
 * of MLA tiles: the tile-axes, tile-shape and channels properties, and caps
 * transformation and fixation from a dense tensor to tiles.
 *
 * The properties only fill in what downstream leaves open: a tile field
 * downstream fixes wins. Unset tile-axes / tile-shape mean the core's
 * default tiling for the tensor's rank (channels last, H8/W16/C16).
 */
#ifndef GST_SIMA_TILING_H
#define GST_SIMA_TILING_H

#include <gst/gst.h>
#include <simaai/kernels/types.h>

G_BEGIN_DECLS

typedef struct {
  int n_axes;                 /* 0 (unset) or 4 */
  int64_t axes[4];
  int n_shape;                /* 0 (unset) or 4 */
  int64_t shape[4];
  SimaChannels channels;
} GstSimaTilingProps;

/* Installs tile-axes, tile-shape and channels as properties first_id,
 * first_id + 1 and first_id + 2. */
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

/* fixate_caps of a tile-producing element: the dense sink side is plainly
 * fixated; on the tiled side, truncates, fills missing tile fields from the
 * properties *t (read under owner's object lock; or the default tiling for
 * the rank), then fixates. */
GstCaps *gst_sima_tiling_fixate_caps (GstObject * owner,
    const GstSimaTilingProps * t, GstPadDirection direction,
    GstCaps * othercaps);

G_END_DECLS

#endif /* GST_SIMA_TILING_H */
