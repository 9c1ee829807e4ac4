/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The timing meta is a GstCustomMeta: a GstStructure behind a registered
 * name, readable from C (gstsimatimingmeta.h) and from Python with no
 * library of ours to link. Its tag keeps GstBaseTransform's default
 * transform_meta from copying one element's timing onto the next element's
 * output.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsimatimingmetaprivate.h"

static GQuark q_element, q_op, q_backend, q_process, q_cpu, q_in, q_out,
    q_copies, q_estimated;

GType
gst_sima_timing_meta_api (void)
{
  static GType api;

  if (g_once_init_enter (&api)) {
    static const gchar *tags[] = { "sima-timing", NULL };
    const GstMetaInfo *info = gst_meta_get_info (GST_SIMA_TIMING_META_NAME);
    if (info == NULL)
      info = gst_meta_register_custom (GST_SIMA_TIMING_META_NAME, tags, NULL,
          NULL, NULL);
    if (info == NULL)           /* the name is taken by a meta not ours */
      g_warning ("cannot register the meta " GST_SIMA_TIMING_META_NAME
          ": buffers carry no timing");
    q_element = g_quark_from_static_string (GST_SIMA_TIMING_ELEMENT);
    q_op = g_quark_from_static_string (GST_SIMA_TIMING_OP);
    q_backend = g_quark_from_static_string (GST_SIMA_TIMING_BACKEND);
    q_process = g_quark_from_static_string (GST_SIMA_TIMING_PROCESS_NS);
    q_cpu = g_quark_from_static_string (GST_SIMA_TIMING_CPU_NS);
    q_in = g_quark_from_static_string (GST_SIMA_TIMING_BYTES_IN);
    q_out = g_quark_from_static_string (GST_SIMA_TIMING_BYTES_OUT);
    q_copies = g_quark_from_static_string (GST_SIMA_TIMING_COPIES);
    q_estimated = g_quark_from_static_string (GST_SIMA_TIMING_ESTIMATED_NS);
    g_once_init_leave (&api, info != NULL ? info->api : G_TYPE_NONE);
  }
  return api;
}

void
gst_sima_buffer_add_timing (GstBuffer * buf, const GstSimaTiming * t)
{
  GstCustomMeta *meta;

  if (gst_sima_timing_meta_api () == G_TYPE_NONE)
    return;
  meta = gst_buffer_add_custom_meta (buf, GST_SIMA_TIMING_META_NAME);
  if (meta == NULL)
    return;
  gst_structure_id_set (gst_custom_meta_get_structure (meta),
      q_element, G_TYPE_STRING, t->element,
      q_op, G_TYPE_STRING, t->op,
      q_backend, G_TYPE_STRING, t->backend,
      q_process, G_TYPE_UINT64, t->process_ns,
      q_cpu, G_TYPE_UINT64, t->cpu_ns,
      q_in, G_TYPE_UINT64, t->bytes_in,
      q_out, G_TYPE_UINT64, t->bytes_out,
      q_copies, G_TYPE_UINT, t->copies,
      q_estimated, G_TYPE_UINT64, t->estimated_ns, NULL);
}
