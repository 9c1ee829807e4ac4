/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-check tests of camera frames into simaquanttess and simacasttess
 * (video/x-raw, issue 16). The frame's layout in each test comes from
 * GStreamer's own GstVideoInfo and the channel order from the format's
 * documented byte order, written out here; expected bytes come from the
 * independent oracle on that strided UINT8 view.
 */
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <string.h>

#include "check_util.h"
#include "oracle.h"

static const gchar *backends[] = { "backend=a65", "device=emulator:workers=2" };

/* Every format of the pad template, with the byte of its first colour
 * channel in memory inside a pixel (packed) and its channel count. */
static const struct
{
  const gchar *format;
  gint channels;
  gint first;                   /* byte offset of the first colour byte */
  gboolean planar;
} formats[] = {
  {"GRAY8", 1, 0, FALSE}, {"RGB", 3, 0, FALSE}, {"BGR", 3, 0, FALSE},
  {"RGBx", 3, 0, FALSE}, {"BGRx", 3, 0, FALSE}, {"xRGB", 3, 1, FALSE},
  {"xBGR", 3, 1, FALSE}, {"RGBA", 3, 0, FALSE}, {"BGRA", 3, 0, FALSE},
  {"ARGB", 3, 1, FALSE}, {"ABGR", 3, 1, FALSE}, {"RGBP", 3, 0, TRUE},
  {"BGRP", 3, 0, TRUE},
};

/* The strided UINT8 view <H, W, C> of a frame laid out as `offsets` and
 * `strides` say (the first plane's offset, in buffer bytes, into *base). */
static SimaTensorSpec
frame_view (const GstVideoInfo * info, const gsize * offsets,
    const gint * strides, gint channels, gint first, gboolean planar,
    guint64 * base)
{
  SimaTensorSpec s;

  memset (&s, 0, sizeof s);
  s.rank = 3;
  s.shape[0] = GST_VIDEO_INFO_HEIGHT (info);
  s.shape[1] = GST_VIDEO_INFO_WIDTH (info);
  s.shape[2] = channels;
  s.dtype = SIMA_DTYPE_UINT8;
  s.layout = SIMA_LAYOUT_STRIDED;
  s.strides_bytes[0] = strides[0];
  s.strides_bytes[1] = planar ? 1 : GST_VIDEO_INFO_COMP_PSTRIDE (info, 0);
  /* packed: channels are consecutive bytes; planar: one plane after the
   * other (R, G, B planes for RGBP and B, G, R for BGRP, in memory order) */
  s.strides_bytes[2] = planar ? (gint64) (offsets[1] - offsets[0]) : 1;
  *base = offsets[0] + (planar ? 0 : first);
  return s;
}

/* The spec of negotiated caps. */
static SimaTensorSpec
spec_of_caps (GstCaps * caps)
{
  gchar *str = gst_caps_to_string (caps);
  SimaTensorSpec s = check_spec (str);
  g_free (str);
  return s;
}

static gchar *
video_caps (const gchar * format, gint w, gint h)
{
  return g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", format, w, h);
}

/* Each format, an odd width (rows padded to 4 bytes), both backends, both
 * elements: every output byte is the oracle's, the output caps are the
 * tensor <H, W, C> tiles with the framerate. */
GST_START_TEST (test_formats)
{
  guint f, b, op;

  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (b = 0; b < G_N_ELEMENTS (backends); b++)
      for (op = 0; op < 2; op++) {
        gchar *caps = video_caps (formats[f].format, 7, 5);
        gchar *desc = g_strdup_printf (op ? "simacasttess %s"
            : "simaquanttess multiplier=1.0002733 zero-point=-128 %s",
            backends[b]);
        GstCaps *c = gst_caps_from_string (caps);
        GstVideoInfo info;
        SimaTensorSpec view, tiles;
        GstBuffer *in, *out;
        GstMapInfo m;
        guint64 base, bytes;
        guint8 *want;
        CheckHarness h;
        const GstStructure *s;
        gint fn, fd;
        gchar *err;
        GstCaps *got;

        fail_unless (gst_video_info_from_caps (&info, c));
        gst_caps_unref (c);
        view = frame_view (&info, info.offset, info.stride,
            formats[f].channels, formats[f].first, formats[f].planar, &base);
        in = check_random_buffer (GST_VIDEO_INFO_SIZE (&info), 100 + f);
        check_harness_new (&h, desc, caps, NULL);
        out = gst_harness_push_and_pull (h.h, gst_buffer_ref (in));
        err = check_pop_message (&h, GST_MESSAGE_ERROR);
        fail_unless (out != NULL, "%s %s: %s", formats[f].format, desc, err);
        g_free (err);
        got = gst_pad_get_current_caps (h.h->sinkpad);
        s = gst_caps_get_structure (got, 0);
        tiles = spec_of_caps (got);
        fail_unless (gst_structure_get_fraction (s, "framerate", &fn, &fd)
            && fn == 30 && fd == 1, "%" GST_PTR_FORMAT, got);
        fail_unless_equals_int (tiles.rank, 3);
        fail_unless_equals_int64 (tiles.shape[0], 5);
        fail_unless_equals_int64 (tiles.shape[1], 7);
        fail_unless_equals_int64 (tiles.shape[2], formats[f].channels);
        gst_caps_unref (got);
        bytes = oracle_required_bytes (&tiles);
        want = g_malloc (bytes);
        gst_buffer_map (in, &m, GST_MAP_READ);
        if (op)
          oracle_casttess (&view, m.data + base, &tiles, want);
        else
          oracle_quanttess (&view, m.data + base, &tiles, 1.0002733f, -128,
              ORACLE_ROUND_NEAREST_EVEN, want);
        gst_buffer_unmap (in, &m);
        fail_unless (check_buffer_equals (out, want, bytes), "%s %s",
            formats[f].format, desc);
        g_free (want);
        gst_buffer_unref (out);
        gst_buffer_unref (in);
        check_harness_free (&h);
        g_free (desc);
        g_free (caps);
      }
}
GST_END_TEST;

/* A frame negotiates the same tiles as the tensor it holds (with the
 * tiling properties applied as for tensors), plus its framerate. */
GST_START_TEST (test_same_tiles_as_tensor)
{
  static const struct
  {
    const gchar *video, *tensor;
  } cases[] = {
    {"video/x-raw,format=RGB,width=33,height=17,framerate=25/1",
        TENSOR ",dtype=uint8,shape=(int)<17,33,3>,layout=contiguous"},
    {"video/x-raw,format=GRAY8,width=64,height=8,framerate=0/1",
        TENSOR ",dtype=uint8,shape=(int)<8,64,1>,layout=contiguous"},
  };
  guint i, p;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    for (p = 0; p < 2; p++) {
      const gchar *desc = p ? "simaquanttess multiplier=1 backend=a65 "
          "tile-shape=\"<1,4,16,32>\" channels=compact"
          : "simacasttess backend=a65";
      GstCaps *caps[2];
      guint k;

      for (k = 0; k < 2; k++) {
        CheckHarness h;
        GstBuffer *out;
        check_harness_new (&h, desc, k ? cases[i].tensor : cases[i].video,
            NULL);
        out = gst_harness_push_and_pull (h.h, check_random_buffer (8192, k));
        fail_unless (out != NULL, "%s", desc);
        gst_buffer_unref (out);
        caps[k] = gst_caps_make_writable (gst_pad_get_current_caps
            (h.h->sinkpad));
        check_harness_free (&h);
      }
      fail_unless (gst_structure_has_field (gst_caps_get_structure (caps[0],
                  0), "framerate"), "%" GST_PTR_FORMAT, caps[0]);
      gst_structure_remove_field (gst_caps_get_structure (caps[0], 0),
          "framerate");
      fail_unless (gst_caps_is_equal (caps[0], caps[1]), "%s: %"
          GST_PTR_FORMAT " vs %" GST_PTR_FORMAT, desc, caps[0], caps[1]);
      gst_caps_unref (caps[0]);
      gst_caps_unref (caps[1]);
    }
}
GST_END_TEST;

/* Channels come in memory order: a BGR frame of B=10, G=20, R=30 gives
 * channel 0 = 10 (multiplier 1: the codes are the values). */
GST_START_TEST (test_bgr_memory_order)
{
  GstBuffer *in = gst_buffer_new_allocate (NULL, 4 * 1 * 3, NULL), *out;
  GstMapInfo m;
  guint i;
  CheckHarness h;

  gst_buffer_map (in, &m, GST_MAP_WRITE);
  for (i = 0; i < 4; i++) {
    m.data[3 * i] = 10;
    m.data[3 * i + 1] = 20;
    m.data[3 * i + 2] = 30;
  }
  gst_buffer_unmap (in, &m);
  check_harness_new (&h, "simaquanttess multiplier=1 backend=a65 "
      "channels=compact", "video/x-raw,format=BGR,width=4,height=1,"
      "framerate=0/1", NULL);
  out = gst_harness_push_and_pull (h.h, in);
  fail_unless (out != NULL);
  gst_buffer_map (out, &m, GST_MAP_READ);
  /* one tile row of 4 pixels, 3 stored channels each */
  for (i = 0; i < 4; i++) {
    fail_unless_equals_int (m.data[3 * i], 10);
    fail_unless_equals_int (m.data[3 * i + 1], 20);
    fail_unless_equals_int (m.data[3 * i + 2], 30);
  }
  gst_buffer_unmap (out, &m);
  gst_buffer_unref (out);
  check_harness_free (&h);
}
GST_END_TEST;

/* Frames with their own layout (GstVideoMeta: padded rows, planes apart),
 * changing from buffer to buffer, and frames from a video buffer pool
 * with padding: read in place (no copy on the A65), every byte the
 * oracle's for the layout the meta gives. */
GST_START_TEST (test_video_meta_layouts)
{
  static const struct
  {
    const gchar *format;
    gint stride;
    gsize plane_gap;
  } cases[] = {
    {"RGB", 64, 0}, {"RGB", 37, 0}, {"xRGB", 80, 0}, {"RGBP", 48, 96},
    {"GRAY8", 29, 0},
  };
  guint b, k;

  for (b = 0; b < G_N_ELEMENTS (backends); b++) {
    gchar *desc = g_strdup_printf ("simaquanttess multiplier=0.5 %s",
        backends[b]);
    CheckHarness h;

    /* one harness per format: the caps are per format */
    for (k = 0; k < G_N_ELEMENTS (cases); k++) {
      gchar *kc = video_caps (cases[k].format, 9, 6);
      GstCaps *c = gst_caps_from_string (kc);
      GstVideoInfo info;
      gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
      gint strides[GST_VIDEO_MAX_PLANES] = { 0 };
      gboolean planar = strcmp (cases[k].format, "RGBP") == 0;
      gint ch = strcmp (cases[k].format, "GRAY8") == 0 ? 1 : 3;
      gint first = strcmp (cases[k].format, "xRGB") == 0 ? 1 : 0;
      SimaTensorSpec view, tiles;
      guint64 base, bytes, size;
      GstBuffer *in, *out;
      GstMapInfo m;
      guint8 *want;
      guint p;
      GstCaps *got;
      guint64 copies = 0;

      fail_unless (gst_video_info_from_caps (&info, c));
      gst_caps_unref (c);
      /* 13 bytes of something else before the frame */
      for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
        strides[p] = cases[k].stride;
        offsets[p] = 13 + p * (cases[k].stride * 6 + cases[k].plane_gap);
      }
      size = offsets[GST_VIDEO_INFO_N_PLANES (&info) - 1]
          + (gsize) cases[k].stride * 6;
      in = check_random_buffer (size, 200 + k);
      gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
          GST_VIDEO_INFO_FORMAT (&info), 9, 6,
          GST_VIDEO_INFO_N_PLANES (&info), offsets, strides);
      check_harness_new (&h, desc, kc, NULL);
      out = gst_harness_push_and_pull (h.h, gst_buffer_ref (in));
      fail_unless (out != NULL, "%s %s", cases[k].format, desc);
      got = gst_pad_get_current_caps (h.h->sinkpad);
      tiles = spec_of_caps (got);
      gst_caps_unref (got);
      view = frame_view (&info, offsets, strides, ch, first, planar, &base);
      bytes = oracle_required_bytes (&tiles);
      want = g_malloc (bytes);
      gst_buffer_map (in, &m, GST_MAP_READ);
      oracle_quanttess (&view, m.data + base, &tiles, 0.5f, 0,
          ORACLE_ROUND_NEAREST_EVEN, want);
      gst_buffer_unmap (in, &m);
      fail_unless (check_buffer_equals (out, want, bytes), "%s stride %d %s",
          cases[k].format, cases[k].stride, desc);
      g_object_get (check_harness_element (&h), "copies", &copies, NULL);
      if (b == 0)
        fail_unless_equals_uint64 (copies, 0);
      g_free (want);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
      check_harness_free (&h);
      g_free (kc);
    }
    g_free (desc);
  }
}
GST_END_TEST;

/* Pushes the 20x4 RGB frame `in` (its layout: offsets, strides) through
 * h's simaquanttess multiplier=0.5 and checks the output against the
 * oracle's QuantTess of that view into the negotiated tiles. */
static void
check_rgb_frame (CheckHarness * h, const GstVideoInfo * info, GstBuffer * in,
    const gsize * offsets, const gint * strides, const gchar * what,
    guint k)
{
  SimaTensorSpec view, tiles;
  guint64 base, bytes;
  GstBuffer *out;
  guint8 *want;
  GstMapInfo m;
  GstCaps *got;

  out = gst_harness_push_and_pull (h->h, gst_buffer_ref (in));
  fail_unless (out != NULL, "%s frame %u", what, k);
  got = gst_pad_get_current_caps (h->h->sinkpad);
  tiles = spec_of_caps (got);
  gst_caps_unref (got);
  view = frame_view (info, offsets, strides, 3, 0, FALSE, &base);
  bytes = oracle_required_bytes (&tiles);
  want = g_malloc (bytes);
  gst_buffer_map (in, &m, GST_MAP_READ);
  oracle_quanttess (&view, m.data + base, &tiles, 0.5f, 0,
      ORACLE_ROUND_NEAREST_EVEN, want);
  gst_buffer_unmap (in, &m);
  fail_unless (check_buffer_equals (out, want, bytes), "%s frame %u", what,
      k);
  g_free (want);
  gst_buffer_unref (out);
}

/* In one stream, frames with a GstVideoMeta and without one: each is read
 * with its own layout (the caps' when it has no meta), on both backends. */
GST_START_TEST (test_meta_then_none)
{
  guint b, k;

  for (b = 0; b < G_N_ELEMENTS (backends); b++) {
    gchar *desc = g_strdup_printf ("simaquanttess multiplier=0.5 %s",
        backends[b]);
    gchar *caps = video_caps ("RGB", 20, 4);
    GstCaps *c = gst_caps_from_string (caps);
    GstVideoInfo info;
    CheckHarness h;

    fail_unless (gst_video_info_from_caps (&info, c));
    gst_caps_unref (c);
    check_harness_new (&h, desc, caps, NULL);
    for (k = 0; k < 5; k++) {
      gboolean with_meta = k % 2 == 0;
      gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
      gint strides[GST_VIDEO_MAX_PLANES] = { 0 };
      /* larger than the tight frame, so a stale padded layout would not
       * fail for size but read the wrong bytes */
      GstBuffer *in = check_random_buffer (1024, 300 + k);

      offsets[0] = with_meta ? 7 : 0;
      strides[0] = with_meta ? 128 : GST_VIDEO_INFO_PLANE_STRIDE (&info, 0);
      if (with_meta)
        gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
            GST_VIDEO_FORMAT_RGB, 20, 4, 1, offsets, strides);
      check_rgb_frame (&h, &info, in, offsets, strides, with_meta
          ? "with meta" : "without meta", k);
      gst_buffer_unref (in);
    }
    check_harness_free (&h);
    g_free (caps);
    g_free (desc);
  }
}
GST_END_TEST;

/* The device has no tensor-set route (missing=53): a frame whose meta puts
 * its first colour byte past the buffer's start needs one, and with
 * fallback=a65 the element moves to the A65 in the middle of the stream.
 * Jobs in flight split a buffer's way into submit and finish; the submit
 * side once went on to the device after this move and crashed on the
 * runner that configure had just let go. */
GST_START_TEST (test_fallback_mid_stream)
{
  const gchar *desc = "simaquanttess multiplier=0.5 backend=ev74 "
      "fallback=a65 device=emulator:workers=2,missing=53";
  gchar *caps = video_caps ("RGB", 20, 4);
  GstCaps *c = gst_caps_from_string (caps);
  GstVideoInfo info;
  CheckHarness h;
  const gchar *active;
  guint k;

  fail_unless (gst_video_info_from_caps (&info, c));
  gst_caps_unref (c);
  check_harness_new (&h, desc, caps, NULL);
  for (k = 0; k < 4; k++) {
    gboolean with_meta = k >= 1;
    gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
    gint strides[GST_VIDEO_MAX_PLANES] = { 0 };
    GstBuffer *in = check_random_buffer (1024, 700 + k);

    offsets[0] = with_meta ? 64 : 0;
    strides[0] = GST_VIDEO_INFO_PLANE_STRIDE (&info, 0);
    if (with_meta)
      gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
          GST_VIDEO_FORMAT_RGB, 20, 4, 1, offsets, strides);
    check_rgb_frame (&h, &info, in, offsets, strides, "fallback", k);
    gst_buffer_unref (in);
  }
  {
    GObject *element = G_OBJECT (check_harness_element (&h));
    GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS
        (element), "active-backend");
    gint v = -1;
    g_object_get (element, "active-backend", &v, NULL);
    active = g_enum_get_value (G_PARAM_SPEC_ENUM (ps)->enum_class,
        v)->value_nick;
    fail_unless_equals_string (active, "a65-fallback");
  }
  check_harness_free (&h);
  g_free (caps);
}
GST_END_TEST;

/* A GstVideoBufferPool with padding: its frames carry a GstVideoMeta, and
 * the element reads them in place. */
GST_START_TEST (test_video_pool_frames)
{
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=RGB,width=11,"
      "height=4,framerate=30/1");
  GstVideoAlignment align;
  GstVideoInfo info, padded;
  guint i;
  CheckHarness h;

  gst_video_info_from_caps (&info, caps);
  gst_buffer_pool_config_set_params (config, caps, 4096, 2, 0);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
  gst_video_alignment_reset (&align);
  align.padding_right = 5;
  align.padding_top = 1;
  gst_buffer_pool_config_set_video_alignment (config, &align);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  padded = info;
  gst_video_info_align (&padded, &align);
  check_harness_new (&h, "simaquanttess multiplier=2 backend=a65",
      "video/x-raw,format=RGB,width=11,height=4,framerate=30/1", NULL);
  for (i = 0; i < 3; i++) {
    GstBuffer *in = NULL, *out;
    GstVideoMeta *meta;
    GstMapInfo m;
    SimaTensorSpec view, tiles;
    guint64 base, bytes, copies;
    guint8 *want;
    GstCaps *got;
    guint j;

    fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &in, NULL),
        GST_FLOW_OK);
    meta = gst_buffer_get_video_meta (in);
    fail_unless (meta != NULL);
    fail_unless (meta->stride[0] > 33, "the pool pads rows");
    gst_buffer_map (in, &m, GST_MAP_WRITE);
    for (j = 0; j < m.size; j++)
      m.data[j] = (guint8) (j * 7 + i);
    gst_buffer_unmap (in, &m);
    out = gst_harness_push_and_pull (h.h, gst_buffer_ref (in));
    fail_unless (out != NULL);
    got = gst_pad_get_current_caps (h.h->sinkpad);
    tiles = spec_of_caps (got);
    gst_caps_unref (got);
    view = frame_view (&info, meta->offset, meta->stride, 3, 0, FALSE, &base);
    bytes = oracle_required_bytes (&tiles);
    want = g_malloc (bytes);
    gst_buffer_map (in, &m, GST_MAP_READ);
    oracle_quanttess (&view, m.data + base, &tiles, 2.0f, 0,
        ORACLE_ROUND_NEAREST_EVEN, want);
    gst_buffer_unmap (in, &m);
    fail_unless (check_buffer_equals (out, want, bytes), "frame %u", i);
    g_object_get (check_harness_element (&h), "copies", &copies, NULL);
    fail_unless_equals_uint64 (copies, 0);
    g_free (want);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  check_harness_free (&h);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_caps_unref (caps);
}
GST_END_TEST;

/* Bad input: formats outside the template cannot link; a meta that
 * disagrees with the caps is one clear error. */
GST_START_TEST (test_bad_frames)
{
  GstElement *e = gst_element_factory_make ("simaquanttess", NULL);
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  GstCaps *templ = gst_pad_get_pad_template_caps (sink);
  static const gchar *unsupported[] = { "I420", "NV12", "YUY2", "GRAY16_LE" };
  GstBuffer *in;
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
  gint strides[GST_VIDEO_MAX_PLANES] = { 24 };
  CheckHarness h;
  gchar *err;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (unsupported); i++) {
    gchar *s = g_strdup_printf ("video/x-raw,format=%s,width=8,height=8",
        unsupported[i]);
    GstCaps *c = gst_caps_from_string (s);
    fail_if (gst_caps_can_intersect (c, templ), "%s in the template", s);
    gst_caps_unref (c);
    g_free (s);
  }
  {
    GstCaps *rgbp = gst_caps_from_string ("video/x-raw,format=RGBP,width=8,"
        "height=8");
    fail_unless (gst_caps_can_intersect (templ, rgbp));
    gst_caps_unref (rgbp);
  }
  gst_caps_unref (templ);
  gst_object_unref (sink);
  gst_object_unref (e);

  check_harness_new (&h, "simaquanttess multiplier=1 backend=a65",
      "video/x-raw,format=RGB,width=8,height=2,framerate=30/1", NULL);
  in = check_random_buffer (64, 3);
  gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_RGB, 7, 2, 1, offsets, strides);
  fail_unless_equals_int (gst_harness_push (h.h, in), GST_FLOW_ERROR);
  err = check_pop_message (&h, GST_MESSAGE_ERROR);
  fail_unless (err != NULL && strstr (err, "GstVideoMeta says 7x2 RGB")
      != NULL, "%s", err);
  g_free (err);
  check_harness_free (&h);
}
GST_END_TEST;

static Suite *
video_suite (void)
{
  Suite *s = suite_create ("video");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 240);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_formats);
  tcase_add_test (tc, test_same_tiles_as_tensor);
  tcase_add_test (tc, test_bgr_memory_order);
  tcase_add_test (tc, test_video_meta_layouts);
  tcase_add_test (tc, test_meta_then_none);
  tcase_add_test (tc, test_fallback_mid_stream);
  tcase_add_test (tc, test_video_pool_frames);
  tcase_add_test (tc, test_bad_frames);
  return s;
}

GST_CHECK_MAIN (video);
