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

/* Asks the element for every output it still holds (a DRAIN query from
 * upstream): on the EV74, up to max-inflight jobs are in flight after a
 * push returned; when this returns their outputs have been pushed (or
 * their error posted). */
gboolean check_drain (CheckHarness * c);

/* Pushes buf into an element that is expected to fail it, and returns
 * the flow that fails: the push's own, or, when the push was accepted
 * and its job failed afterwards (jobs in flight: the error is posted by
 * the drain or the retire thread), that of a probe push after it (the
 * element fails the flow until a flush). *error: the text of the first
 * error message on the bus (g_free it), NULL if none. */
GstFlowReturn check_push_failing (CheckHarness * c, GstBuffer * buf,
    gchar ** error);

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

/* TRUE when a and b hold the same bytes. */
gboolean check_buffers_equal (GstBuffer * a, GstBuffer * b);

/* The three converters, each with its required parameter, its EV74
 * capability and route, and input caps it accepts (8x16x3). */
typedef struct {
  const gchar *element;
  const gchar *capability;
  const gchar *route;
  const gchar *in_caps;
} CheckOp;

#define CHECK_IN_CAPS TENSOR ",dtype=float32,shape=(int)<8,16,3>," \
  "layout=contiguous"
#define CHECK_TILES_CAPS TENSOR ",dtype=int8,shape=(int)<8,16,3>," \
  "layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,8,16,16>," \
  "channels=pad16"

extern const CheckOp check_ops[3];

/* An input for check_ops[op] (system memory): random values in range for
 * the converters, random bytes for the dequantizer. */
GstBuffer *check_op_input (int op, guint64 seed);

/* What check_ops[op] makes of check_op_input (op, seed) on backend=a65. */
GstBuffer *check_op_a65_output (int op, guint64 seed);

/* Bytes a spec needs (the core's answer). */
guint64 check_required_bytes (const SimaTensorSpec * spec);

/* ---- helpers of test_glue.c (issue 14) ---- */

/* The plugin's allocator, as the converters propose it upstream (a new
 * reference): what a neighbour that follows the ALLOCATION query uses. */
GstAllocator *check_plugin_allocator (void);

/* A new memory of the plugin's allocator (its own fd) holding content's
 * bytes, `offset` bytes into the block: mem->offset == offset, mem->size
 * == the content's size. offset 0 is the usual case; 4 makes a memory the
 * device cannot address directly (16-byte alignment). */
GstMemory *check_plugin_memory (GstBuffer * content, gsize offset);

/* A buffer of one check_plugin_memory (content, offset). */
GstBuffer *check_plugin_buffer (GstBuffer * content, gsize offset);

#endif /* SIMA_CHECK_UTIL_H */
