/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sima-app: the simakernels elements inside an application.
 *
 *   appsrc (float32 tensors from the application's memory)
 *     -> simaquanttess -> simadetessdequant -> appsink
 *
 * The application hands its own arrays to GStreamer without copying them
 * (gst_buffer_new_wrapped_full), gets the dequantized tensors back from the
 * appsink, checks them against the input (one quantization step), and
 * prints the timing meta each converter attached: QuantTess's from a probe
 * on its src pad, DetessDequant's from the buffers the appsink returns.
 *
 *   sima-app [--buffers N] [--backend ev74|a65] [--device SPEC]
 *
 * Exit status 0 when every buffer came back right with its timing.
 */
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/gst.h>
#include <gst/sima/gstsimatimingmeta.h>
#include <math.h>
#include <stdlib.h>

#define H 120
#define W 160
#define C 3
#define N_VALUES (H * W * C)
#define MULTIPLIER 64.0             /* x in [-1, 1] -> INT8 in [-64, 64] */

static void
print_timing (const GstSimaTiming * t, guint index)
{
  g_print ("buffer %u: %-17s %-13s %-12s process %7.1f us, cpu %7.1f us, "
      "%" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT " bytes, %u copies\n",
      index, t->element, t->op, t->backend, t->process_ns / 1e3,
      t->cpu_ns / 1e3, t->bytes_in, t->bytes_out, t->copies);
}

/* QuantTess's buffers never reach the appsink (DetessDequant makes new
 * ones): read their meta where they leave simaquanttess. */
static GstPadProbeReturn
on_quantized (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  guint *count = user_data;
  GstSimaTiming t;

  (void) pad;
  if (gst_sima_buffer_get_timing (GST_PAD_PROBE_INFO_BUFFER (info), &t)) {
    print_timing (&t, *count);
    (*count)++;
  }
  return GST_PAD_PROBE_OK;
}

/* The application's tensor: a ramp over [-1, 1], different per frame. */
static gfloat *
make_tensor (guint frame)
{
  gfloat *data = g_new (gfloat, N_VALUES);
  guint i;

  for (i = 0; i < N_VALUES; i++)
    data[i] = (gfloat) (((i * 7 + frame * 13) % 2001) / 1000.0 - 1.0);
  return data;
}

/* Round trip within one quantization step (and half a step for rounding). */
static gboolean
check_output (GstBuffer * buf, guint frame)
{
  gfloat *expect = make_tensor (frame);
  GstMapInfo map;
  gboolean ok;
  guint i;

  if (!gst_buffer_map (buf, &map, GST_MAP_READ))
    return FALSE;
  ok = map.size == N_VALUES * sizeof (gfloat);
  for (i = 0; ok && i < N_VALUES; i++) {
    gfloat got = ((const gfloat *) map.data)[i];
    ok = fabs (got - expect[i]) <= 0.5 / MULTIPLIER + 1e-6;
    if (!ok)
      g_printerr ("frame %u value %u: got %g, sent %g\n", frame, i, got,
          expect[i]);
  }
  gst_buffer_unmap (buf, &map);
  g_free (expect);
  return ok;
}

int
main (int argc, char **argv)
{
  gint buffers = 10;
  gchar *backend = NULL, *device = NULL, *description;
  GOptionEntry entries[] = {
    {"buffers", 'n', 0, G_OPTION_ARG_INT, &buffers, "Tensors to send", "N"},
    {"backend", 'b', 0, G_OPTION_ARG_STRING, &backend, "ev74 or a65", "B"},
    {"device", 'd', 0, G_OPTION_ARG_STRING, &device,
        "EV74 transport (default $SIMA_EV74_DEVICE)", "SPEC"},
    {NULL}
  };
  GOptionContext *context = g_option_context_new ("- simakernels example");
  GError *error = NULL;
  GstElement *pipeline, *src, *sink, *quant;
  GstPad *quant_src;
  guint quantized = 0, received = 0;
  gint frame;
  int status = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_add_group (context, gst_init_get_option_group ());
  if (!g_option_context_parse (context, &argc, &argv, &error)) {
    g_printerr ("%s\n", error->message);
    return 2;
  }
  g_option_context_free (context);

  description = g_strdup_printf ("appsrc name=src format=time "
      "caps=application/vnd.simaai.tensor,dtype=float32,"
      "shape=(int)<%d,%d,%d>,layout=contiguous ! "
      "simaquanttess name=quant multiplier=%g backend=%s%s%s ! "
      "simadetessdequant name=detess scale=%.9g backend=%s%s%s ! "
      "appsink name=sink sync=false", H, W, C, MULTIPLIER,
      backend ? backend : "ev74", device ? " device=" : "",
      device ? device : "", 1.0 / MULTIPLIER, backend ? backend : "ev74",
      device ? " device=" : "", device ? device : "");
  pipeline = gst_parse_launch (description, &error);
  g_free (description);
  if (error != NULL) {          /* e.g. the plugin is not installed */
    g_printerr ("cannot build the pipeline: %s\n", error->message);
    return 1;
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  quant = gst_bin_get_by_name (GST_BIN (pipeline), "quant");
  quant_src = gst_element_get_static_pad (quant, "src");
  gst_pad_add_probe (quant_src, GST_PAD_PROBE_TYPE_BUFFER, on_quantized,
      &quantized, NULL);

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING)
      == GST_STATE_CHANGE_FAILURE) {
    g_printerr ("the pipeline does not start (see the bus error)\n");
    status = 1;
    goto done;
  }
  for (frame = 0; frame < buffers && status == 0; frame++) {
    gfloat *data = make_tensor ((guint) frame);
    /* the application's memory, not a copy: g_free runs when GStreamer
     * is done with it */
    GstBuffer *in = gst_buffer_new_wrapped_full (0, data,
        N_VALUES * sizeof (gfloat), 0, N_VALUES * sizeof (gfloat), data,
        g_free);
    GstSample *sample;
    GstSimaTiming t;

    GST_BUFFER_PTS (in) = frame * GST_SECOND / 30;
    GST_BUFFER_DURATION (in) = GST_SECOND / 30;
    if (gst_app_src_push_buffer (GST_APP_SRC (src), in) != GST_FLOW_OK) {
      status = 1;
      break;
    }
    sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        10 * GST_SECOND);
    if (sample == NULL) {
      g_printerr ("no output for frame %d\n", frame);
      status = 1;
      break;
    }
    if (!check_output (gst_sample_get_buffer (sample), (guint) frame)) {
      status = 1;
    } else if (!gst_sima_buffer_get_timing (gst_sample_get_buffer (sample),
            &t)) {
      g_printerr ("frame %d has no timing meta\n", frame);
      status = 1;
    } else {
      print_timing (&t, received++);
    }
    gst_sample_unref (sample);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  if (status == 0 && (received != (guint) buffers
          || quantized != (guint) buffers)) {
    g_printerr ("expected %d timings per converter, got %u and %u\n",
        buffers, quantized, received);
    status = 1;
  }

done:
  {
    GstBus *bus = gst_element_get_bus (pipeline);
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (msg != NULL) {
      GError *err = NULL;
      gst_message_parse_error (msg, &err, NULL);
      g_printerr ("error from %s: %s\n", GST_OBJECT_NAME (msg->src),
          err->message);
      g_clear_error (&err);
      gst_message_unref (msg);
      status = 1;
    }
    gst_object_unref (bus);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (quant_src);
  gst_object_unref (quant);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  g_free (backend);
  g_free (device);
  if (status == 0)
    g_print ("%d tensors round-tripped through QuantTess and DetessDequant\n",
        buffers);
  return status;
}
