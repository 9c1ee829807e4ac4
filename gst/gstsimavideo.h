/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gstsimavideo.h - camera frames as tensors: video/x-raw <-> a strided
 * UINT8 view of shape <H, W, C>.
 *
 * A frame of GRAY8 (C = 1), packed RGB-family formats (RGB, BGR, RGBx,
 * BGRx, xRGB, xBGR, RGBA, BGRA, ARGB, ABGR: C = 3) or planar RGBP / BGRP
 * (C = 3) is read in place: rows, pixels and channels are the strides of
 * the frame's own layout (GstVideoMeta when the buffer has one, else
 * GstVideoInfo), padding and alpha bytes are holes that are never read
 * as values,
 * and channels come in memory order (a BGR frame gives B, G, R: strides
 * cannot be negative, so reordering would need a copy). The view starts
 * at the first colour byte, which is its offset in the buffer (1 for
 * xRGB): a one-member tensor set at that offset. Glue only: every rule
 * about views is the core's.
 */
#ifndef GST_SIMA_VIDEO_H
#define GST_SIMA_VIDEO_H

#include <gst/gst.h>
#include <gst/video/video.h>
#include <simaai/kernels/tensor_set.h>

G_BEGIN_DECLS

#define GST_SIMA_VIDEO_FORMATS "{ GRAY8, RGB, BGR, RGBx, BGRx, xRGB, xBGR, " \
  "RGBA, BGRA, ARGB, ABGR, RGBP, BGRP }"
#define GST_SIMA_VIDEO_CAPS GST_VIDEO_CAPS_MAKE (GST_SIMA_VIDEO_FORMATS)

/* TRUE for a video/x-raw structure. */
gboolean gst_sima_video_is_video (const GstStructure * s);

/* The frame layout of info (or of meta, when not NULL: its offsets and
 * strides) as a one-member set of a strided UINT8 view <H, W, C>. FALSE
 * with *error naming the format or the plane when the frame is not one
 * strided view (planes unevenly spaced or with different strides), or
 * when meta disagrees with info (format, width, height). */
gboolean gst_sima_video_to_set (const GstVideoInfo * info,
    const GstVideoMeta * meta, SimaTensorSet * set, gchar ** error);

/* For transform_caps: the tensor caps a (possibly unfixed) video
 * structure stands for: dtype=uint8, layout=strided and, when width and
 * height are fixed, shape=<H, W, C> (C from the format when that is fixed
 * or all formats of the structure have the same C), with the framerate
 * copied. */
GstStructure *gst_sima_video_to_tensor_structure (const GstStructure * s);

/* The other way: the video caps whose frames have a given tensor
 * structure's shape (<H, W, 1>: GRAY8; <H, W, 3>: the RGB family), with
 * its framerate; the template's formats and any size when the shape says
 * nothing. Returns NULL when no video frame has that shape. */
GstStructure *gst_sima_video_from_tensor_structure (const GstStructure * s);

G_END_DECLS

#endif /* GST_SIMA_VIDEO_H */
