/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "check_util.h"

#include <simaai/kernels/layout.h>
#include <string.h>

#include "gstsimacaps.h"

void
check_harness_new (CheckHarness * c, const gchar * description,
    const gchar * in_caps, const gchar * out_caps)
{
  GstElement *e = gst_parse_launch (description, NULL);

  /* the bus goes on before the harness starts the element, so that
   * messages posted in start() (warnings of the backend policy) arrive */
  fail_unless (e != NULL, "cannot make %s", description);
  c->bus = gst_bus_new ();
  gst_element_set_bus (e, c->bus);
  c->h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  /* downstream first: setting the source caps starts negotiation */
  if (out_caps != NULL)
    gst_harness_set_sink_caps_str (c->h, out_caps);
  if (in_caps != NULL)
    gst_harness_set_src_caps_str (c->h, in_caps);
}

void
check_harness_free (CheckHarness * c)
{
  gst_harness_teardown (c->h);
  gst_object_unref (c->bus);
}

GstElement *
check_harness_element (CheckHarness * c)
{
  GstElement *e = c->h->element, *child = NULL;
  GstIterator *it;
  GValue v = G_VALUE_INIT;

  if (!GST_IS_BIN (e))
    return e;
  it = gst_bin_iterate_elements (GST_BIN (e));
  if (gst_iterator_next (it, &v) == GST_ITERATOR_OK) {
    child = g_value_get_object (&v);
    g_value_unset (&v);
  }
  gst_iterator_free (it);
  return child;             /* the bin keeps it alive */
}

gchar *
check_pop_message (CheckHarness * c, GstMessageType type)
{
  GstMessage *msg;
  gchar *text = NULL;

  while ((msg = gst_bus_pop (c->bus)) != NULL) {
    if (text == NULL && GST_MESSAGE_TYPE (msg) == type) {
      GError *err = NULL;
      gchar *debug = NULL;
      if (type == GST_MESSAGE_ERROR)
        gst_message_parse_error (msg, &err, &debug);
      else
        gst_message_parse_warning (msg, &err, &debug);
      text = g_strdup (err->message);
      g_error_free (err);
      g_free (debug);
    }
    gst_message_unref (msg);
  }
  return text;
}

gboolean
check_drain (CheckHarness * c)
{
  GstQuery *q = gst_query_new_drain ();
  gboolean ok = gst_pad_peer_query (c->h->srcpad, q);

  gst_query_unref (q);
  return ok;
}

GstFlowReturn
check_push_failing (CheckHarness * c, GstBuffer * buf, gchar ** error)
{
  gsize size = gst_buffer_get_size (buf);
  GstFlowReturn ret = gst_harness_push (c->h, buf);

  if (ret == GST_FLOW_OK)
    check_drain (c);
  *error = check_pop_message (c, GST_MESSAGE_ERROR);
  if (ret == GST_FLOW_OK && *error != NULL)
    ret = gst_harness_push (c->h, gst_buffer_new_allocate (NULL, size, NULL));
  return ret;
}

gchar *
check_start_message (const gchar * description, GstMessageType type,
    GstStateChangeReturn * result)
{
  GstElement *e = gst_parse_launch (description, NULL);
  CheckHarness c;
  GstStateChangeReturn ret;
  gchar *text;

  fail_unless (e != NULL, "cannot make %s", description);
  c.bus = gst_bus_new ();
  gst_element_set_bus (e, c.bus);
  ret = gst_element_set_state (e, GST_STATE_PLAYING);
  if (result != NULL)
    *result = ret;
  text = check_pop_message (&c, type);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);
  gst_object_unref (c.bus);
  return text;
}

SimaTensorSpec
check_spec (const gchar * caps_str)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  SimaTensorSpec spec;
  gchar *error = NULL;

  fail_unless (caps != NULL, "bad caps %s", caps_str);
  fail_unless (gst_sima_caps_to_spec (gst_caps_get_structure (caps, 0), &spec,
          &error), "%s", error);
  gst_caps_unref (caps);
  return spec;
}

guint64
check_required_bytes (const SimaTensorSpec * spec)
{
  uint64_t bytes = 0;
  SimaStatus st = sima_tensor_required_bytes (spec, "tensor", &bytes);
  fail_unless (st.code == SIMA_OK, "%s", st.message);
  return bytes;
}

GstBuffer *
check_random_buffer (guint64 bytes, guint64 seed)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, (gsize) bytes, NULL);
  GRand *rand = g_rand_new_with_seed ((guint32) seed);
  GstMapInfo map;
  gsize i;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (i = 0; i < map.size; i++)
    map.data[i] = (guint8) g_rand_int (rand);
  gst_buffer_unmap (buf, &map);
  g_rand_free (rand);
  return buf;
}

GstBuffer *
check_tensor_buffer (const SimaTensorSpec * spec, guint64 bytes,
    SimaPattern pattern, guint64 seed)
{
  SimaPatternParams p = { pattern, -1.5, 1.5, 0.25, seed };
  GstBuffer *buf = gst_buffer_new_allocate (NULL, (gsize) bytes, NULL);
  GstMapInfo map;
  SimaStatus st;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  st = sima_pattern_fill (spec, &p, seed, map.data, map.size);
  gst_buffer_unmap (buf, &map);
  fail_unless (st.code == SIMA_OK, "%s", st.message);
  return buf;
}

gboolean
check_buffer_equals (GstBuffer * buf, const guint8 * expected, gsize bytes)
{
  GstMapInfo map;
  gboolean same;

  if (buf == NULL || !gst_buffer_map (buf, &map, GST_MAP_READ))
    return FALSE;
  same = map.size == bytes && memcmp (map.data, expected, bytes) == 0;
  gst_buffer_unmap (buf, &map);
  return same;
}

gboolean
check_buffers_equal (GstBuffer * a, GstBuffer * b)
{
  GstMapInfo ma;
  gboolean same;

  if (a == NULL || !gst_buffer_map (a, &ma, GST_MAP_READ))
    return FALSE;
  same = check_buffer_equals (b, ma.data, ma.size);
  gst_buffer_unmap (a, &ma);
  return same;
}

const CheckOp check_ops[3] = {
  { "simaquanttess multiplier=64", "simaai_kernels_ev74_quanttess_v1", "49",
    CHECK_IN_CAPS },
  { "simacasttess", "simaai_kernels_ev74_casttess_v1", "51", CHECK_IN_CAPS },
  { "simadetessdequant scale=0.0625", "simaai_kernels_ev74_detessdequant_v1",
    "50", CHECK_TILES_CAPS },
};

GstBuffer *
check_op_input (int op, guint64 seed)
{
  SimaTensorSpec spec = check_spec (check_ops[op].in_caps);
  guint64 bytes = check_required_bytes (&spec);
  return op == 2 ? check_random_buffer (bytes, seed)
      : check_tensor_buffer (&spec, bytes, SIMA_PATTERN_RANDOM, seed);
}

GstBuffer *
check_op_a65_output (int op, guint64 seed)
{
  CheckHarness c;
  gchar *desc = g_strdup_printf ("%s backend=a65", check_ops[op].element);
  GstBuffer *out;

  check_harness_new (&c, desc, check_ops[op].in_caps, NULL);
  out = gst_harness_push_and_pull (c.h, check_op_input (op, seed));
  check_harness_free (&c);
  g_free (desc);
  return out;
}

/* ---- helpers of test_glue.c (issue 14) ---- */

GstAllocator *
check_plugin_allocator (void)
{
  static GstAllocator *allocator;

  if (g_once_init_enter (&allocator)) {
    GstCaps *caps = gst_caps_from_string (CHECK_IN_CAPS);
    GstQuery *query = gst_query_new_allocation (caps, FALSE);
    GstAllocator *a = NULL;
    CheckHarness c;

    check_harness_new (&c, "simaquanttess multiplier=1 backend=a65",
        CHECK_IN_CAPS, NULL);
    fail_unless (gst_pad_peer_query (c.h->srcpad, query));
    fail_unless (gst_query_get_n_allocation_params (query) >= 1);
    gst_query_parse_nth_allocation_param (query, 0, &a, NULL);
    fail_unless (a != NULL, "simaquanttess proposed no allocator");
    gst_query_unref (query);
    gst_caps_unref (caps);
    check_harness_free (&c);
    /* the plugin keeps its allocator for the whole process; so do we */
    g_once_init_leave (&allocator, a);
  }
  return gst_object_ref (allocator);
}

GstMemory *
check_plugin_memory (GstBuffer * content, gsize offset)
{
  GstAllocator *allocator = check_plugin_allocator ();
  GstAllocationParams params;
  GstMapInfo in, out;
  GstMemory *mem;

  gst_allocation_params_init (&params);
  params.align = 15;
  fail_unless (gst_buffer_map (content, &in, GST_MAP_READ));
  mem = gst_allocator_alloc (allocator, offset + MAX (in.size, 1), &params);
  fail_unless (mem != NULL, "the plugin's allocator gave no memory");
  fail_unless (gst_memory_map (mem, &out, GST_MAP_WRITE));
  memcpy (out.data + offset, in.data, in.size);
  gst_memory_unmap (mem, &out);
  gst_buffer_unmap (content, &in);
  gst_memory_resize (mem, (gssize) offset, in.size);
  fail_unless (mem->size == in.size);
  gst_object_unref (allocator);
  return mem;
}

GstBuffer *
check_plugin_buffer (GstBuffer * content, gsize offset)
{
  GstBuffer *buf = gst_buffer_new ();

  gst_buffer_append_memory (buf, check_plugin_memory (content, offset));
  return buf;
}
