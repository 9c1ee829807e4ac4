/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * check_util.h - helpers for the gst-check tests of the simakernels
 * elements: harnesses with a bus, error and warning texts, test tensors
 * from the core's patterns, and byte comparisons.
 */
#ifndef SIMA_CHECK_UTIL_H
#define SIMA_CHECK_UTIL_H

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <simaai/kernels/pattern.h>
#include <simaai/kernels/types.h>

#define TENSOR "application/vnd.simaai.tensor"

/* A harness around one element (launch-style description, e.g.
 * "simaquanttess multiplier=127 backend=a65") with a bus attached. */
typedef struct {
  GstHarness *h;
  GstBus *bus;
} CheckHarness;

void check_harness_new (CheckHarness * c, const gchar * description,
    const gchar * in_caps, const gchar * out_caps);
void check_harness_free (CheckHarness * c);

/* The element under test (inside the harness's bin). */
GstElement *check_harness_element (CheckHarness * c);

/* The text of the first message of `type` (GST_MESSAGE_ERROR or _WARNING)
 * on the bus, or NULL; g_free it. */
gchar *check_pop_message (CheckHarness * c, GstMessageType type);

/* Builds the element from `description` (no harness: harnesses insist on
 * starting), sets it to PLAYING and returns the text of the first message
 * of `type` it posted (NULL if none); the state change result goes to
 * *result if given. */
gchar *check_start_message (const gchar * description, GstMessageType type,
    GstStateChangeReturn * result);
#define check_start_error(d, t) check_start_message ((d), (t), NULL)

/* A spec from a caps string (fails the test on bad caps). */
SimaTensorSpec check_spec (const gchar * caps);

/* A buffer of `bytes` bytes holding a pattern for a contiguous spec, or
 * random bytes (any dtype, any layout: tiles with garbage padding) when
 * contiguous is FALSE. */
GstBuffer *check_tensor_buffer (const SimaTensorSpec * spec, guint64 bytes,
    SimaPattern pattern, guint64 seed);
GstBuffer *check_random_buffer (guint64 bytes, guint64 seed);

/* TRUE when buf holds exactly `bytes` bytes equal to expected. */
gboolean check_buffer_equals (GstBuffer * buf, const guint8 * expected,
    gsize bytes);

/* Bytes a spec needs (the core's answer). */
guint64 check_required_bytes (const SimaTensorSpec * spec);

#endif /* SIMA_CHECK_UTIL_H */
