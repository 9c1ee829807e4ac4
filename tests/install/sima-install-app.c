/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An application outside the project, built by install.sh against the
 * installed tree only: `pkg-config --cflags --libs simaev74-1.0
 * gstreamer-sima-1.0`, no source or build directory on any path. It checks
 * that what a user gets from `meson install` works together:
 *
 *   1. the core and the EV74 device API: one QuantTess on the A65 and on
 *      the emulator, byte-identical;
 *   2. the plugin, found through GST_PLUGIN_PATH_1_0 in the installed
 *      plugin directory (argv[1]), loaded from there, and its timing meta
 *      read with <gst/sima/gstsimatimingmeta.h>.
 *
 *   sima-install-app PLUGIN_DIR
 *
 * Prints TAP (points 1..4); exits non-zero on any failure.
 */
#define _GNU_SOURCE
#include <simaai/kernels/a65/quanttess.h>
#include <simaai/kernels/ev74/device.h>
#include <simaai/kernels/ev74/quanttess.h>

#include <gst/gst.h>
#include <gst/sima/gstsimatimingmeta.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int failures;

static void
tap (int n, int ok, const char *what, const char *detail)
{
  printf ("%s %d - %s%s%s\n", ok ? "ok" : "not ok", n, what,
      detail[0] ? ": " : "", detail);
  failures += !ok;
}

/* An fd-backed buffer the device can import (a DMA-BUF on the target). */
static uint8_t *
shared_buffer (size_t size, int *fd)
{
  void *p;

  *fd = memfd_create ("sima-install-app", MFD_CLOEXEC);
  if (*fd < 0 || ftruncate (*fd, (off_t) size) != 0)
    return NULL;
  p = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
  return p == MAP_FAILED ? NULL : p;
}

/* 1: float32 8x16x3 to INT8 tiles on both backends, compared. */
static void
core_and_device (void)
{
  static const int64_t shape[3] = { 8, 16, 3 };
  SimaTensorSpec in_spec, out_spec;
  SimaQuantTessRequest req;
  SimaQuantTessPlan plan;
  SimaA65QuantTessPlan a65;
  SimaEv74Device *dev = NULL;
  SimaEv74Region *regions[2] = { NULL, NULL };
  SimaEv74Descriptor desc;
  SimaEv74Binding bi, bo;
  SimaStatus st;
  int fds[2] = { -1, -1 }, same = 0;
  uint8_t *in = NULL, *out = NULL, *ref = NULL;
  uint64_t i;

  memset (&in_spec, 0, sizeof in_spec);
  in_spec.rank = 3;
  memcpy (in_spec.shape, shape, sizeof shape);
  in_spec.dtype = SIMA_DTYPE_FLOAT32;
  in_spec.layout = SIMA_LAYOUT_CONTIGUOUS;
  out_spec = in_spec;
  out_spec.dtype = SIMA_DTYPE_INT8;
  out_spec.layout = SIMA_LAYOUT_MLA_TILED;
  sima_mla_tiled_default (3, &out_spec.tiled);
  memset (&req, 0, sizeof req);
  req.inputs = &in_spec;
  req.n_inputs = 1;
  req.outputs = &out_spec;
  req.n_outputs = 1;
  req.params.multiplier = 31.0f;
  req.params.zero_point = -3;
  req.params.rounding = SIMA_ROUNDING_NEAREST_EVEN;

  st = sima_quanttess_check_inference (&req, &plan);
  if (st.code == SIMA_OK)
    st = sima_a65_quanttess_prepare (&plan, &a65);
  if (st.code == SIMA_OK) {
    in = shared_buffer ((size_t) plan.input_bytes, &fds[0]);
    out = shared_buffer ((size_t) plan.output_bytes, &fds[1]);
    ref = aligned_alloc (16, (size_t) (plan.output_bytes + 15) / 16 * 16);
    if (in == NULL || out == NULL || ref == NULL)
      st = sima_status_make (SIMA_OUT_OF_RESOURCES, "no memory");
  }
  if (st.code == SIMA_OK) {
    float *x = (float *) in;
    for (i = 0; i < plan.input_bytes / sizeof (float); i++)
      x[i] = (float) ((int64_t) (i * 37 % 101) - 50) / 25.0f;
    st = sima_a65_quanttess_execute (&a65,
        &(SimaConstHostBuffer) { in, plan.input_bytes }, 1,
        &(SimaHostBuffer) { ref, plan.output_bytes }, 1);
  }
  if (st.code == SIMA_OK)
    st = sima_ev74_device_open ("emulator:workers=1", &dev);
  if (st.code == SIMA_OK)
    st = sima_ev74_device_require (dev, SIMA_EV74_ROUTE_QUANTTESS,
        SIMA_EV74_QUANTTESS_CAPABILITY);
  if (st.code == SIMA_OK)
    st = sima_ev74_region_import (dev, fds[0], plan.input_bytes, &regions[0]);
  if (st.code == SIMA_OK)
    st = sima_ev74_region_import (dev, fds[1], plan.output_bytes, &regions[1]);
  if (st.code == SIMA_OK)
    st = sima_ev74_quanttess_encode_relocatable (&plan, &desc);
  if (st.code == SIMA_OK) {
    bi = (SimaEv74Binding) { sima_ev74_region_bus_address (regions[0]),
      plan.input_bytes };
    bo = (SimaEv74Binding) { sima_ev74_region_bus_address (regions[1]),
      plan.output_bytes };
    st = sima_ev74_descriptor_bind (&desc, &bi, &bo);
  }
  if (st.code == SIMA_OK)
    st = sima_ev74_run (dev, &desc, regions, 2, INT64_C (10000000000), NULL);
  if (st.code == SIMA_OK)
    same = memcmp (out, ref, (size_t) plan.output_bytes) == 0;
  tap (1, st.code == SIMA_OK && same,
      "QuantTess on the A65 and on the EV74 emulator, byte-identical",
      st.code != SIMA_OK ? st.message : same ? "" : "outputs differ");

  sima_ev74_region_unref (regions[0]);
  sima_ev74_region_unref (regions[1]);
  if (dev != NULL)
    sima_ev74_device_unref (dev);
  if (in != NULL)
    munmap (in, (size_t) plan.input_bytes);
  if (out != NULL)
    munmap (out, (size_t) plan.output_bytes);
  if (fds[0] >= 0)
    close (fds[0]);
  if (fds[1] >= 0)
    close (fds[1]);
  free (ref);
}

static GstPadProbeReturn
read_timing (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstSimaTiming t;
  int *timed = user_data;

  (void) pad;
  if (gst_sima_buffer_get_timing (GST_PAD_PROBE_INFO_BUFFER (info), &t)
      && strcmp (t.op, "QuantTess") == 0 && t.bytes_out > 0)
    (*timed)++;
  return GST_PAD_PROBE_OK;
}

/* 2-4: the installed plugin, loaded from plugin_dir, in a pipeline. */
static void
installed_plugin (const char *plugin_dir)
{
  GstPlugin *plugin;
  GstElement *pipeline, *q;
  GstPad *pad;
  GstBus *bus;
  GstMessage *msg;
  GError *err = NULL;
  const char *file;
  char detail[512] = "";
  int timed = 0, ok;

  plugin = gst_registry_find_plugin (gst_registry_get (), "simakernels");
  file = plugin != NULL ? gst_plugin_get_filename (plugin) : NULL;
  ok = file != NULL && strncmp (file, plugin_dir, strlen (plugin_dir)) == 0;
  snprintf (detail, sizeof detail, "%s", file != NULL ? file : "not found");
  tap (2, ok, "the plugin is registered from the installed plugin directory",
      detail);
  if (plugin != NULL)
    gst_object_unref (plugin);

  pipeline = gst_parse_launch ("simatensorsrc num-buffers=3 pattern=ramp ! "
      "application/vnd.simaai.tensor,dtype=float32,"
      "shape=(int)<8,16,3>,layout=contiguous ! "
      "simaquanttess name=q multiplier=20 device=emulator:workers=1 ! "
      "fakesink", &err);
  /* A missing element still gives a (partial) pipeline, with err set. */
  tap (3, pipeline != NULL && err == NULL, "a pipeline of its elements parses",
      err != NULL ? err->message : "");
  if (err != NULL) {
    g_clear_error (&err);
    if (pipeline != NULL)
      gst_object_unref (pipeline);
    return;
  }

  q = gst_bin_get_by_name (GST_BIN (pipeline), "q");
  pad = gst_element_get_static_pad (q, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, read_timing, &timed,
      NULL);
  gst_object_unref (pad);
  gst_object_unref (q);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  detail[0] = '\0';
  if (msg == NULL)
    snprintf (detail, sizeof detail, "no EOS in 30 s");
  else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    snprintf (detail, sizeof detail, "%s", err->message);
    g_clear_error (&err);
  } else if (timed != 3)
    snprintf (detail, sizeof detail, "%d of 3 buffers had a timing meta",
        timed);
  tap (4, detail[0] == '\0', "3 buffers through simaquanttess (EV74), "
      "each read with gst_sima_buffer_get_timing()", detail);
  if (msg != NULL)
    gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

int
main (int argc, char **argv)
{
  if (argc != 2) {
    fprintf (stderr, "usage: %s PLUGIN_DIR\n", argv[0]);
    return 2;
  }
  core_and_device ();
  gst_init (NULL, NULL);
  installed_plugin (argv[1]);
  gst_deinit ();
  printf ("1..4\n");
  return failures == 0 ? 0 : 1;
}
