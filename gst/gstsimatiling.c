/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstsimatiling.h"

#include <simaai/kernels/layout.h>

#include "gstsimacaps.h"
#include "gstsimaenums.h"

void
gst_sima_tiling_props_init (GstSimaTilingProps * t)
{
  t->n_axes = 0;
  t->n_shape = 0;
  t->channels = SIMA_CHANNELS_PAD16;
}

/* Installed on simaquanttess and simacasttess alike. */
void
gst_sima_tiling_install_properties (GObjectClass * klass, guint first_id)
{
  /**
   * GstSimaQuantTess:tile-axes:
   *
   * (simaquanttess and simacasttess.) The logical axis that plays D, H, W
   * and C in the output tiles, four integers, -1 for an absent axis (C is
   * required): used when downstream caps leave `tile-axes` open. Each
   * entry -1 to 5; empty (the default) means channels last, H, W, C the
   * last three axes.
   */
  g_object_class_install_property (klass, first_id,
      gst_param_spec_array ("tile-axes", "Tile axes",
          "Logical axis of D, H, W and C (-1: absent; C is required), used "
          "when downstream leaves it open, e.g. \"<-1,1,2,3>\". Empty: "
          "channels last (H, W, C the last three axes)",
          g_param_spec_int ("axis", "Axis", "A logical axis or -1", -1,
              SIMA_MAX_RANK - 1, -1, G_PARAM_READWRITE |
              G_PARAM_STATIC_STRINGS),
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSimaQuantTess:tile-shape:
   *
   * (simaquanttess and simacasttess.) Tile extents in D, H, W, C order,
   * four integers >= 1 (an absent axis needs 1), used when downstream
   * caps leave `tile-shape` open. Empty (the default) means H8/W16/C16.
   */
  g_object_class_install_property (klass, first_id + 1,
      gst_param_spec_array ("tile-shape", "Tile shape",
          "Tile extents in D, H, W, C order, used when downstream leaves "
          "them open, e.g. \"<1,8,16,16>\" (absent axes need 1). Empty: "
          "H8/W16/C16",
          g_param_spec_int ("extent", "Extent", "A tile extent", 1,
              G_MAXINT, 1, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS),
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSimaQuantTess:channels:
   *
   * (simaquanttess and simacasttess.) Stored channels per tile when
   * downstream caps leave `channels` open: `compact` (the actual channels)
   * or `pad16` (rounded up to 16, the default).
   */
  g_object_class_install_property (klass, first_id + 2,
      g_param_spec_enum ("channels", "Channels",
          "Stored channels per tile when downstream leaves it open: compact "
          "(actual) or pad16 (rounded up to 16)", GST_TYPE_SIMA_CHANNELS,
          SIMA_CHANNELS_PAD16, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
}

static int
read_array (const GValue * value, int64_t * out)
{
  guint i, n = gst_value_array_get_size (value);
  if (n != 4)
    return 0;                   /* anything but 4 values means "unset" */
  for (i = 0; i < n; i++)
    out[i] = g_value_get_int (gst_value_array_get_value (value, i));
  return 4;
}

gboolean
gst_sima_tiling_set_property (GstSimaTilingProps * t, guint first_id,
    guint prop_id, const GValue * value)
{
  if (prop_id == first_id)
    t->n_axes = read_array (value, t->axes);
  else if (prop_id == first_id + 1)
    t->n_shape = read_array (value, t->shape);
  else if (prop_id == first_id + 2)
    t->channels = (SimaChannels) g_value_get_enum (value);
  else
    return FALSE;
  return TRUE;
}

gboolean
gst_sima_tiling_get_property (const GstSimaTilingProps * t, guint first_id,
    guint prop_id, GValue * value)
{
  GValue tmp = G_VALUE_INIT;

  if (prop_id == first_id || prop_id == first_id + 1) {
    gst_sima_value_set_int_array (&tmp, prop_id == first_id ? t->axes
        : t->shape, prop_id == first_id ? t->n_axes : t->n_shape);
    g_value_copy (&tmp, value);
    g_value_unset (&tmp);
  } else if (prop_id == first_id + 2) {
    g_value_set_enum (value, t->channels);
  } else {
    return FALSE;
  }
  return TRUE;
}

/* One structure of the other side: the same shape, the other side's dtype
 * and layouts, no fields of this side's layout. */
static GstStructure *
other_side (const GstStructure * s, GstPadDirection direction,
    const gchar * out_dtype)
{
  GstStructure *o = gst_structure_new_empty (GST_SIMA_TENSOR_MEDIA_TYPE);
  const GValue *shape = gst_structure_get_value (s, "shape");
  GValue list = G_VALUE_INIT, item = G_VALUE_INIT;
  static const gchar *dense_dtypes[] = { "float32", "float16", "bfloat16" };
  static const gchar *dense_layouts[] = { "contiguous", "strided" };
  guint i;

  if (shape != NULL)
    gst_structure_set_value (o, "shape", shape);
  if (direction == GST_PAD_SINK) {        /* dense in -> tiles out */
    gst_structure_set (o, "dtype", G_TYPE_STRING, out_dtype, "layout",
        G_TYPE_STRING, "mla-tiled", NULL);
    /* An open field keeps these caps unfixed, so that base transform asks
     * downstream (which may fix the tiling) before fixate_caps fills in
     * the properties; without it a missing tile field looks "fixed". */
    g_value_init (&list, GST_TYPE_LIST);
    for (i = SIMA_CHANNELS_COMPACT; i <= SIMA_CHANNELS_PAD16; i++) {
      g_value_init (&item, G_TYPE_STRING);
      g_value_set_string (&item, sima_channels_name ((SimaChannels) i));
      gst_value_list_append_and_take_value (&list, &item);
    }
    gst_structure_take_value (o, "channels", &list);
    return o;
  }
  /* tiles out -> any dense float input */
  g_value_init (&list, GST_TYPE_LIST);
  for (i = 0; i < G_N_ELEMENTS (dense_dtypes); i++) {
    g_value_init (&item, G_TYPE_STRING);
    g_value_set_string (&item, dense_dtypes[i]);
    gst_value_list_append_and_take_value (&list, &item);
  }
  gst_structure_take_value (o, "dtype", &list);
  g_value_init (&list, GST_TYPE_LIST);
  for (i = 0; i < G_N_ELEMENTS (dense_layouts); i++) {
    g_value_init (&item, G_TYPE_STRING);
    g_value_set_string (&item, dense_layouts[i]);
    gst_value_list_append_and_take_value (&list, &item);
  }
  gst_structure_take_value (o, "layout", &list);
  return o;
}

GstCaps *
gst_sima_tiling_transform_caps (GstPadDirection direction, GstCaps * caps,
    GstCaps * filter, const gchar * out_dtype)
{
  GstCaps *result = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++)
    result = gst_caps_merge_structure (result,
        other_side (gst_caps_get_structure (caps, i), direction, out_dtype));
  if (filter != NULL) {
    GstCaps *tmp = gst_caps_intersect_full (filter, result,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (result);
    result = tmp;
  }
  return result;
}

static GstCaps *
fixate_tiles (const GstSimaTilingProps * t, GstCaps * othercaps)
{
  GstStructure *s;
  SimaMlaTiled def;
  int64_t shape[SIMA_MAX_RANK], axes[4];
  int rank, k;

  othercaps = gst_caps_truncate (othercaps);
  othercaps = gst_caps_make_writable (othercaps);
  s = gst_caps_get_structure (othercaps, 0);
  rank = gst_sima_structure_get_int_array (s, "shape", shape, SIMA_MAX_RANK);
  sima_mla_tiled_default (rank > 0 ? rank : 1, &def);
  if (!gst_structure_has_field (s, "tile-axes")) {
    GValue v = G_VALUE_INIT;
    for (k = 0; k < 4; k++)
      axes[k] = t->n_axes == 4 ? t->axes[k] : def.axes[k];
    gst_sima_value_set_int_array (&v, axes, 4);
    gst_structure_take_value (s, "tile-axes", &v);
  }
  if (!gst_structure_has_field (s, "tile-shape")) {
    GValue v = G_VALUE_INIT;
    gst_sima_value_set_int_array (&v, t->n_shape == 4 ? t->shape
        : def.tile_shape, 4);
    gst_structure_take_value (s, "tile-shape", &v);
  }
  if (!gst_structure_has_field (s, "channels"))
    gst_structure_set (s, "channels", G_TYPE_STRING,
        sima_channels_name (t->channels), NULL);
  else      /* the property's choice if downstream still allows it */
    gst_structure_fixate_field_string (s, "channels",
        sima_channels_name (t->channels));
  return gst_caps_fixate (othercaps);
}

GstCaps *
gst_sima_tiling_fixate_caps (GstObject * owner, const GstSimaTilingProps * t,
    GstPadDirection direction, GstCaps * othercaps)
{
  GstSimaTilingProps props;

  if (direction != GST_PAD_SINK)       /* fixating the (dense) sink side */
    return gst_caps_fixate (othercaps);
  GST_OBJECT_LOCK (owner);
  props = *t;
  GST_OBJECT_UNLOCK (owner);
  return fixate_tiles (&props, othercaps);
}
