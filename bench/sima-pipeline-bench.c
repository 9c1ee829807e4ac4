/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sima-pipeline-bench: buffers per second of simaquanttess on the EV74
 * emulator with jobs in flight (the max-inflight property), measured in one
 * run, round after round, interleaved:
 *
 *   simatensorsrc pattern=ramp ! FP32 <1,H,W,3> ! simaquanttess
 *     device=emulator:workers=W max-inflight=K ! fakesink sync=false
 *
 * for K = 1, 2 and 4 in one pipeline, and for 4 such pipelines at once
 * sharing the device (one process, so one refcounted device), on a
 * 224x224x3 input and on a larger 640x640x3 one. The rate is taken between
 * the first and the last buffer that reaches the sink (negotiation and the
 * first imports left out); for 4 pipelines it is all their buffers over
 * the span from the first buffer of any to the last of any.
 *
 * Before timing, each configuration runs once more with every output
 * hashed, and the hashes must equal those of max-inflight=1 (and those of
 * backend=a65, the same conversion on the CPU): a configuration whose
 * outputs differ is reported and the program exits non-zero.
 *
 *   sima-pipeline-bench [--quick] [--rounds N] [--workers W]
 *
 * The plugin is found through GST_PLUGIN_PATH, else in the build tree.
 * Timings are a report, never a pass/fail test (docs/performance.md, "Jobs
 * in flight", has a run and how to read it).
 */
#include <gst/gst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MULTIPLIER "64"
#define N_PIPES 4
#define CHECK_BUFFERS 12

typedef struct
{
  const gchar *name;
  gint h, w;
  guint buffers;                /* per pipeline, per timed run */
} Size;

typedef struct
{
  guint pipes;                  /* 1 or N_PIPES */
  guint inflight;
} Config;

static const Config configs[] = {
  {1, 1}, {1, 2}, {1, 4}, {N_PIPES, 1}, {N_PIPES, 2}, {N_PIPES, 4},
};

#define N_CONFIGS G_N_ELEMENTS (configs)

/* ---- one pipeline --------------------------------------------------------- */

typedef struct
{
  gchar *desc;
  guint n;
  gboolean hash;
  /* results */
  GPtrArray *hashes;            /* hex SHA-1 of each output, in order */
  gint64 first, last;           /* monotonic us of the first and last
                                 * buffer at the sink */
  guint received;
  gchar *error;
} Run;

static GstPadProbeReturn
at_sink (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Run *r = data;
  gint64 now = g_get_monotonic_time ();
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);

  (void) pad;
  if (r->received++ == 0)
    r->first = now;
  r->last = now;
  if (r->hash) {
    GstMapInfo map;
    if (gst_buffer_map (buf, &map, GST_MAP_READ)) {
      g_ptr_array_add (r->hashes, g_compute_checksum_for_data (G_CHECKSUM_SHA1,
              map.data, map.size));
      gst_buffer_unmap (buf, &map);
    } else {
      g_ptr_array_add (r->hashes, g_strdup ("unmappable"));
    }
  }
  return GST_PAD_PROBE_OK;
}

static gpointer
run_pipeline (gpointer data)
{
  Run *r = data;
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (r->desc, &err), *sink;
  GstBus *bus;
  GstMessage *msg;
  GstPad *pad;

  r->hashes = g_ptr_array_new_with_free_func (g_free);
  if (pipe == NULL) {
    r->error = g_strdup_printf ("cannot build '%s': %s", r->desc,
        err ? err->message : "?");
    g_clear_error (&err);
    return NULL;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, at_sink, r, NULL);
  gst_object_unref (pad);
  gst_object_unref (sink);
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 600 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (msg == NULL) {
    r->error = g_strdup ("no EOS within 600 s");
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *debug = NULL;
    gst_message_parse_error (msg, &err, &debug);
    r->error = g_strdup_printf ("%s (%s)", err->message, debug ? debug : "");
    g_clear_error (&err);
    g_free (debug);
  }
  if (msg != NULL)
    gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  if (r->error == NULL && r->received != r->n)
    r->error = g_strdup_printf ("%u of %u buffers arrived", r->received,
        r->n);
  return NULL;
}

static void
run_clear (Run * r)
{
  g_free (r->desc);
  g_free (r->error);
  if (r->hashes != NULL)
    g_ptr_array_unref (r->hashes);
  memset (r, 0, sizeof *r);
}

/* The checks read random tensors; the timed runs a ramp, which costs the
 * source less (a seeded random tensor costs it about as much as the
 * emulator's conversion of it), so that the figures are the converter's. */
static gchar *
describe (const Size * size, const gchar * where, guint inflight, guint n,
    gboolean random)
{
  return g_strdup_printf ("simatensorsrc pattern=%s seed=7 "
      "num-buffers=%u ! application/vnd.simaai.tensor,dtype=float32,"
      "shape=(int)<1,%d,%d,3>,layout=contiguous ! simaquanttess "
      "multiplier=" MULTIPLIER " %s max-inflight=%u ! fakesink name=sink "
      "sync=false", random ? "random" : "ramp", n, size->h, size->w, where, inflight);
}

/* Runs `pipes` pipelines at once; the rate of all their buffers over the
 * span from the first to the last (buffers/s), or < 0 on an error (printed). */
static gdouble
run_config (const Size * size, const gchar * where, guint pipes,
    guint inflight, guint n, gboolean hash, GPtrArray ** hashes)
{
  Run runs[N_PIPES];
  GThread *threads[N_PIPES];
  gint64 first = G_MAXINT64, last = 0;
  guint total = 0, k;
  gdouble rate = -1;
  gboolean ok = TRUE;

  memset (runs, 0, sizeof runs);
  for (k = 0; k < pipes; k++) {
    runs[k].desc = describe (size, where, inflight, n, hash);
    runs[k].n = n;
    runs[k].hash = hash;
    threads[k] = g_thread_new ("pipeline", run_pipeline, &runs[k]);
  }
  for (k = 0; k < pipes; k++)
    g_thread_join (threads[k]);
  for (k = 0; k < pipes; k++) {
    if (runs[k].error != NULL) {
      g_printerr ("%s: %s\n", runs[k].desc, runs[k].error);
      ok = FALSE;
      continue;
    }
    first = MIN (first, runs[k].first);
    last = MAX (last, runs[k].last);
    total += runs[k].received;
  }
  if (ok && last > first)
    rate = (total - 1) / ((last - first) / 1e6);
  if (ok && hashes != NULL) {
    /* every pipeline's outputs (same seed: the same inputs) */
    *hashes = g_ptr_array_new_with_free_func (g_free);
    for (k = 0; k < pipes; k++) {
      guint i;
      for (i = 0; i < runs[k].hashes->len; i++)
        g_ptr_array_add (*hashes, g_strdup (g_ptr_array_index
                (runs[k].hashes, i)));
    }
  }
  for (k = 0; k < pipes; k++)
    run_clear (&runs[k]);
  return ok ? rate : -1;
}

/* The outputs of `got` (pipes x CHECK_BUFFERS) against `want` (one
 * pipeline's): the index of the first that differs, or -1. */
static gint
first_difference (GPtrArray * want, GPtrArray * got)
{
  guint i;

  if (got == NULL || want == NULL || want->len == 0
      || got->len % want->len != 0)
    return 0;
  for (i = 0; i < got->len; i++)
    if (strcmp (g_ptr_array_index (want, i % want->len),
            g_ptr_array_index (got, i)) != 0)
      return (gint) i;
  return -1;
}

static int
compare_double (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return x < y ? -1 : x > y;
}

static void
print_machine (guint workers)
{
  gchar *cpuinfo = NULL, *model = NULL, *load = NULL;

  if (g_file_get_contents ("/proc/cpuinfo", &cpuinfo, NULL, NULL)) {
    gchar **lines = g_strsplit (cpuinfo, "\n", -1), **l;
    for (l = lines; *l != NULL && model == NULL; l++)
      if (g_str_has_prefix (*l, "model name")) {
        gchar *colon = strchr (*l, ':');
        model = g_strdup (colon ? g_strstrip (colon + 1) : *l);
      }
    g_strfreev (lines);
    g_free (cpuinfo);
  }
  if (g_file_get_contents ("/proc/loadavg", &load, NULL, NULL))
    g_strchomp (load);
  g_print ("machine: %s, %u CPUs online, load average %s at start; %s; "
      "emulator workers=%u\n", model ? model : "unknown CPU",
      g_get_num_processors (), load ? load : "unknown",
      gst_version_string (), workers);
  g_free (model);
  g_free (load);
}

int
main (int argc, char **argv)
{
  gboolean quick = FALSE;
  gint rounds = 5, workers = 2;
  GOptionEntry entries[] = {
    {"quick", 0, 0, G_OPTION_ARG_NONE, &quick, "few buffers, one round "
          "(checks that it runs)", NULL},
    {"rounds", 'r', 0, G_OPTION_ARG_INT, &rounds, "timed rounds (median)",
        "N"},
    {"workers", 'w', 0, G_OPTION_ARG_INT, &workers, "emulator workers (1-4)",
        "W"},
    {NULL}
  };
  Size sizes[] = {
    {"224x224x3", 224, 224, 300},
    {"640x640x3", 640, 640, 40},
  };
  GOptionContext *context = g_option_context_new ("- simaquanttess "
      "throughput with jobs in flight");
  GError *error = NULL;
  gchar *device;
  guint s, c, r;
  int status = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_add_group (context, gst_init_get_option_group ());
  if (!g_option_context_parse (context, &argc, &argv, &error)) {
    g_printerr ("%s\n", error->message);
    return 2;
  }
  g_option_context_free (context);
  if (workers < 1 || workers > 4 || rounds < 1) {
    g_printerr ("--workers is 1 to 4, --rounds at least 1\n");
    return 2;
  }
  if (quick) {
    rounds = 1;
    sizes[0].buffers = 20;
    sizes[1].buffers = 6;
  }
#ifdef SIMA_PLUGIN_DIR
  if (!gst_registry_find_plugin (gst_registry_get (), "simakernels"))
    gst_registry_scan_path (gst_registry_get (), SIMA_PLUGIN_DIR);
#endif
  if (gst_registry_find_plugin (gst_registry_get (), "simakernels") == NULL) {
    g_printerr ("the simakernels plugin is not found (set GST_PLUGIN_PATH)\n");
    return 1;
  }
  device = g_strdup_printf ("device=emulator:workers=%d", workers);
  print_machine ((guint) workers);

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    const Size *size = &sizes[s];
    gdouble rates[N_CONFIGS][64];
    GPtrArray *want = NULL, *a65 = NULL;
    gint diff;

    /* the outputs every configuration must give */
    run_config (size, "backend=a65", 1, 1, CHECK_BUFFERS, TRUE, &a65);
    run_config (size, device, 1, 1, CHECK_BUFFERS, TRUE, &want);
    if ((diff = first_difference (a65, want)) >= 0) {
      g_printerr ("%s: max-inflight=1 output %d differs from the A65's\n",
          size->name, diff);
      status = 1;
    }
    for (c = 0; c < N_CONFIGS; c++) {
      GPtrArray *got = NULL;
      run_config (size, device, configs[c].pipes, configs[c].inflight,
          CHECK_BUFFERS, TRUE, &got);
      if ((diff = first_difference (want, got)) >= 0) {
        g_printerr ("%s, %u pipeline(s), max-inflight=%u: output %d "
            "differs from max-inflight=1\n", size->name, configs[c].pipes,
            configs[c].inflight, diff);
        status = 1;
      }
      if (got != NULL)
        g_ptr_array_unref (got);
    }
    g_ptr_array_unref (want);
    g_ptr_array_unref (a65);

    /* timed, interleaved round after round */
    for (r = 0; r < (guint) MIN (rounds, 64); r++)
      for (c = 0; c < N_CONFIGS; c++)
        rates[c][r] = run_config (size, device, configs[c].pipes,
            configs[c].inflight, size->buffers, FALSE, NULL);

    g_print ("\n%s FP32 -> INT8 tiles, %u buffers per pipeline, %d "
        "round(s), median (min-max) buffers/s:\n", size->name, size->buffers,
        rounds);
    g_print ("| pipelines | max-inflight | buffers/s | range | vs 1 pipeline, "
        "max-inflight 1 |\n| ---: | ---: | ---: | --- | ---: |\n");
    {
      gdouble base = 0;
      for (c = 0; c < N_CONFIGS; c++) {
        gdouble sorted[64], median;
        guint n = (guint) MIN (rounds, 64);
        memcpy (sorted, rates[c], n * sizeof *sorted);
        qsort (sorted, n, sizeof *sorted, compare_double);
        median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2])
            / 2;
        if (c == 0)
          base = median;
        if (sorted[0] < 0)
          status = 1;
        g_print ("| %u | %u | %.1f | %.1f-%.1f | %.2f |\n", configs[c].pipes,
            configs[c].inflight, median, sorted[0], sorted[n - 1],
            base > 0 ? median / base : 0);
        g_print ("RESULT size=%s pipelines=%u max_inflight=%u "
            "buffers_per_s=%.1f min=%.1f max=%.1f\n", size->name,
            configs[c].pipes, configs[c].inflight, median, sorted[0],
            sorted[n - 1]);
      }
    }
  }
  g_print ("\noutputs: %s\n", status == 0 ? "every configuration identical "
      "to max-inflight=1 and to the A65" : "DIFFERENCES (see above)");
  g_free (device);
  return status;
}
