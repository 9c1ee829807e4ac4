/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsimacaps.h"

#include <simaai/kernels/layout.h>

#include <string.h>

int
gst_sima_structure_get_int_array (const GstStructure *s, const gchar *field,
    int64_t *out, int max)
{
  const GValue *v = gst_structure_get_value (s, field);
  guint i, n;

  if (v == NULL || !GST_VALUE_HOLDS_ARRAY (v))
    return -1;
  n = gst_value_array_get_size (v);
  if (n > (guint) max)
    return -1;
  for (i = 0; i < n; i++) {
    const GValue *e = gst_value_array_get_value (v, i);
    if (G_VALUE_HOLDS_INT (e))
      out[i] = g_value_get_int (e);
    else if (G_VALUE_HOLDS_INT64 (e))
      out[i] = g_value_get_int64 (e);
    else
      return -1;
  }
  return (int) n;
}

void
gst_sima_value_set_int_array (GValue *value, const int64_t *v, int n)
{
  int i;

  g_value_init (value, GST_TYPE_ARRAY);
  for (i = 0; i < n; i++) {
    GValue e = G_VALUE_INIT;
    /* extents and axes fit int; the caps syntax writes them (int)<...> */
    g_value_init (&e, G_TYPE_INT);
    g_value_set_int (&e, (gint) v[i]);
    gst_value_array_append_and_take_value (value, &e);
  }
}

static gboolean
fail (gchar **error, const gchar *fmt, ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (gchar **error, const gchar *fmt, ...)
{
  va_list args;
  va_start (args, fmt);
  if (error != NULL)
    *error = g_strdup_vprintf (fmt, args);
  va_end (args);
  return FALSE;
}

gboolean
gst_sima_caps_to_spec (const GstStructure *s, SimaTensorSpec *spec,
    gchar **error)
{
  const gchar *name;
  int n, k;

  memset (spec, 0, sizeof *spec);
  if (!gst_structure_has_name (s, GST_SIMA_TENSOR_MEDIA_TYPE))
    return fail (error, "caps are %s, not " GST_SIMA_TENSOR_MEDIA_TYPE,
        gst_structure_get_name (s));
  name = gst_structure_get_string (s, "dtype");
  if (name == NULL || !sima_dtype_from_name (name, &spec->dtype))
    return fail (error, "caps field dtype is %s; it must be float32, "
        "float16, bfloat16 or int8", name ? name : "missing");
  n = gst_sima_structure_get_int_array (s, "shape", spec->shape,
      SIMA_MAX_RANK);
  if (n < 1)
    return fail (error, "caps field shape must be an array of 1 to %d ints, "
        "e.g. shape=(int)<1,224,224,3>", SIMA_MAX_RANK);
  spec->rank = n;
  name = gst_structure_get_string (s, "layout");
  if (name == NULL)
    spec->layout = SIMA_LAYOUT_CONTIGUOUS;
  else if (!sima_layout_from_name (name, &spec->layout))
    return fail (error, "caps field layout is %s; it must be contiguous, "
        "strided, mla-tiled or mla-cblocked", name);

  if (spec->layout == SIMA_LAYOUT_STRIDED
      && gst_sima_structure_get_int_array (s, "strides", spec->strides_bytes,
          SIMA_MAX_RANK) != spec->rank)
    return fail (error, "caps field strides must be an array of %d byte "
        "strides for layout strided", spec->rank);
  if (spec->layout == SIMA_LAYOUT_MLA_TILED) {
    int64_t axes[4];
    name = gst_structure_get_string (s, "channels");
    if (gst_sima_structure_get_int_array (s, "tile-axes", axes, 4) != 4
        || gst_sima_structure_get_int_array (s, "tile-shape",
            spec->tiled.tile_shape, 4) != 4)
      return fail (error, "caps fields tile-axes and tile-shape must be "
          "arrays of 4 ints (D,H,W,C) for layout mla-tiled");
    for (k = 0; k < 4; k++) {
      if (axes[k] < -1 || axes[k] >= SIMA_MAX_RANK)
        return fail (error, "caps field tile-axes has %lld; axes are -1 to "
            "%d", (long long) axes[k], SIMA_MAX_RANK - 1);
      spec->tiled.axes[k] = (int8_t) axes[k];
    }
    if (name == NULL || !sima_channels_from_name (name,
            &spec->tiled.channels))
      return fail (error, "caps field channels is %s; it must be compact or "
          "pad16", name ? name : "missing");
  }
  return TRUE;
}

gboolean
gst_sima_caps_required_bytes (const GstCaps *caps, guint64 *bytes,
    gchar **error)
{
  SimaTensorSpec spec;
  SimaStatus st;
  uint64_t b;

  if (caps == NULL || gst_caps_get_size (caps) < 1)
    return fail (error, "no caps");
  if (!gst_sima_caps_to_spec (gst_caps_get_structure (caps, 0), &spec, error))
    return FALSE;
  st = sima_tensor_required_bytes (&spec, "tensor", &b);
  if (st.code != SIMA_OK)
    return fail (error, "%s", st.message);
  *bytes = b;
  return TRUE;
}
