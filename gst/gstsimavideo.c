/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsimavideo.h"

#include <string.h>

#include "gstsimacaps.h"

gboolean
gst_sima_video_is_video (const GstStructure * s)
{
  return gst_structure_has_name (s, "video/x-raw");
}

static gboolean
fail (gchar ** error, const gchar * fmt, ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (gchar ** error, const gchar * fmt, ...)
{
  va_list args;
  va_start (args, fmt);
  if (error != NULL)
    *error = g_strdup_vprintf (fmt, args);
  va_end (args);
  return FALSE;
}

/* Colour channels of the formats we take: 1 (GRAY8) or 3; 0 otherwise. */
static guint
format_channels (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_GRAY8:
      return 1;
    case GST_VIDEO_FORMAT_RGB:
    case GST_VIDEO_FORMAT_BGR:
    case GST_VIDEO_FORMAT_RGBx:
    case GST_VIDEO_FORMAT_BGRx:
    case GST_VIDEO_FORMAT_xRGB:
    case GST_VIDEO_FORMAT_xBGR:
    case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_BGRA:
    case GST_VIDEO_FORMAT_ARGB:
    case GST_VIDEO_FORMAT_ABGR:
    case GST_VIDEO_FORMAT_RGBP:
    case GST_VIDEO_FORMAT_BGRP:
      return 3;
    default:
      return 0;
  }
}

gboolean
gst_sima_video_to_set (const GstVideoInfo * info, const GstVideoMeta * meta,
    SimaTensorSet * set, gchar ** error)
{
  GstVideoFormat format = GST_VIDEO_INFO_FORMAT (info);
  guint n = format_channels (format), c, k;
  guint64 addr[3];
  gint pstride = 0, stride = 0;
  SimaTensorSpec spec;

  memset (set, 0, sizeof *set);
  if (n == 0)
    return fail (error, "video format %s is not one simaquanttess and "
        "simacasttess read (" GST_SIMA_VIDEO_FORMATS ")",
        gst_video_format_to_string (format));
  if (meta != NULL && (meta->format != format
          || meta->width != (guint) GST_VIDEO_INFO_WIDTH (info)
          || meta->height != (guint) GST_VIDEO_INFO_HEIGHT (info)))
    return fail (error, "the frame's GstVideoMeta says %ux%u %s, the caps "
        "%dx%d %s", meta->width, meta->height,
        gst_video_format_to_string (meta->format), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), gst_video_format_to_string (format));
  /* where each colour component of pixel (0, 0) is, and its strides */
  for (c = 0; c < n; c++) {
    guint plane = GST_VIDEO_INFO_COMP_PLANE (info, c);
    gsize offset = meta ? meta->offset[plane] : GST_VIDEO_INFO_PLANE_OFFSET
        (info, plane);
    gint s = meta ? meta->stride[plane] : GST_VIDEO_INFO_PLANE_STRIDE (info,
        plane);
    gint ps = GST_VIDEO_INFO_COMP_PSTRIDE (info, c);

    if (s <= 0)
      return fail (error, "video plane %u has row stride %d; rows must go "
          "forward", plane, s);
    if (c > 0 && (s != stride || ps != pstride))
      return fail (error, "video format %s: the planes' row strides (%d, "
          "%d) or pixel strides differ, so the frame is not one strided "
          "view", gst_video_format_to_string (format), stride, s);
    stride = s;
    pstride = ps;
    addr[c] = offset + (guint64) GST_VIDEO_INFO_COMP_POFFSET (info, c);
  }
  /* memory order (insertion sort of at most 3) */
  for (c = 1; c < n; c++)
    for (k = c; k > 0 && addr[k - 1] > addr[k]; k--) {
      guint64 t = addr[k];
      addr[k] = addr[k - 1];
      addr[k - 1] = t;
    }
  if (n == 3 && addr[2] - addr[1] != addr[1] - addr[0])
    return fail (error, "video format %s: the channels are %" G_GUINT64_FORMAT
        " and %" G_GUINT64_FORMAT " bytes apart, not evenly spaced, so the "
        "frame is not one strided view", gst_video_format_to_string (format),
        addr[1] - addr[0], addr[2] - addr[1]);
  memset (&spec, 0, sizeof spec);
  spec.rank = 3;
  spec.shape[0] = GST_VIDEO_INFO_HEIGHT (info);
  spec.shape[1] = GST_VIDEO_INFO_WIDTH (info);
  spec.shape[2] = n;
  spec.dtype = SIMA_DTYPE_UINT8;
  spec.layout = SIMA_LAYOUT_STRIDED;
  spec.strides_bytes[0] = stride;
  spec.strides_bytes[1] = pstride;
  spec.strides_bytes[2] = n == 3 ? (int64_t) (addr[1] - addr[0]) : 1;
  set->n_members = 1;
  set->members[0].spec = spec;
  set->members[0].offset = addr[0];
  return TRUE;
}

/* C of a format value (a string or a list of them): 1 or 3 when every
 * format says the same, 0 otherwise. */
static guint
value_channels (const GValue * v)
{
  guint c = 0, i;

  if (v != NULL && G_VALUE_HOLDS_STRING (v))
    return format_channels (gst_video_format_from_string (g_value_get_string
            (v)));
  if (v == NULL || !GST_VALUE_HOLDS_LIST (v))
    return 0;
  for (i = 0; i < gst_value_list_get_size (v); i++) {
    guint k = value_channels (gst_value_list_get_value (v, i));
    if (k == 0 || (c != 0 && k != c))
      return 0;
    c = k;
  }
  return c;
}

GstStructure *
gst_sima_video_to_tensor_structure (const GstStructure * s)
{
  GstStructure *t = gst_structure_new (GST_SIMA_TENSOR_MEDIA_TYPE, "dtype",
      G_TYPE_STRING, "uint8", "layout", G_TYPE_STRING, "strided", NULL);
  const GValue *fr = gst_structure_get_value (s, "framerate");
  gint w, h;
  guint c = value_channels (gst_structure_get_value (s, "format"));

  if (gst_structure_get_int (s, "width", &w)
      && gst_structure_get_int (s, "height", &h) && c != 0) {
    int64_t shape[3] = { h, w, c };
    GValue v = G_VALUE_INIT;
    gst_sima_value_set_int_array (&v, shape, 3);
    gst_structure_take_value (t, "shape", &v);
  }
  if (fr != NULL)
    gst_structure_set_value (t, "framerate", fr);
  return t;
}

GstStructure *
gst_sima_video_from_tensor_structure (const GstStructure * s)
{
  GstCaps *templ = gst_caps_from_string (GST_SIMA_VIDEO_CAPS);
  GstStructure *v = gst_structure_copy (gst_caps_get_structure (templ, 0));
  const GValue *fr = gst_structure_get_value (s, "framerate");
  int64_t shape[SIMA_MAX_RANK];
  int rank = gst_sima_structure_get_int_array (s, "shape", shape,
      SIMA_MAX_RANK);

  gst_caps_unref (templ);
  if (gst_structure_has_field (s, "representation")
      || (rank >= 0 && (rank != 3 || (shape[2] != 1 && shape[2] != 3)
              || shape[0] < 1 || shape[0] > G_MAXINT || shape[1] < 1
              || shape[1] > G_MAXINT))) {
    gst_structure_free (v);
    return NULL;                /* no frame has that shape */
  }
  if (rank == 3) {
    gst_structure_set (v, "height", G_TYPE_INT, (gint) shape[0], "width",
        G_TYPE_INT, (gint) shape[1], NULL);
    if (shape[2] == 1)
      gst_structure_set (v, "format", G_TYPE_STRING, "GRAY8", NULL);
    else {
      /* every format of the template but GRAY8 */
      const GValue *all = gst_structure_get_value (v, "format");
      GValue rgb = G_VALUE_INIT;
      guint i;
      g_value_init (&rgb, GST_TYPE_LIST);
      for (i = 0; i < gst_value_list_get_size (all); i++) {
        const GValue *f = gst_value_list_get_value (all, i);
        if (value_channels (f) == 3) {
          GValue copy = G_VALUE_INIT;
          g_value_init (&copy, G_TYPE_STRING);
          g_value_copy (f, &copy);
          gst_value_list_append_and_take_value (&rgb, &copy);
        }
      }
      gst_structure_take_value (v, "format", &rgb);
    }
  }
  if (fr != NULL)
    gst_structure_set_value (v, "framerate", fr);
  return v;
}
