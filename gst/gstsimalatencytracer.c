/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:tracer-simalatency
 * @title: simalatency
 * @short_description: per-buffer latency of the simakernels converters
 *
 * For every buffer that simaquanttess, simacasttess, simadetessdequant or
 * simadetesscast pushes, the tracer logs one `simalatency` record: the element's wall
 * latency (from the moment the buffer entered its sink pad to the moment
 * the result left its src pad; with EV74 jobs in flight several buffers
 * are inside at once, and each output is matched with its own input by
 * timestamp) and the timing meta the element attached
 * (operation, backend, device or CPU processing time, host CPU time,
 * bytes, copies). Other elements are ignored. With `summary=true` it also
 * prints, when each converter stops, the count, mean, p50, p99 and
 * maximum of its latencies.
 *
 * |[
 * GST_TRACERS=simalatency GST_DEBUG=GST_TRACER:7 gst-launch-1.0 -q \
 *   simatensorsrc num-buffers=8 ! \
 *   application/vnd.simaai.tensor,dtype=float32,shape="<64,64,3>" ! \
 *   simaquanttess multiplier=64 device=emulator ! \
 *   simadetessdequant scale=0.015625 device=emulator ! fakesink
 * ]| Logs 8 records for each converter.
 * |[
 * GST_TRACERS="simalatency(summary=true)" gst-launch-1.0 -q \
 *   simatensorsrc num-buffers=8 ! \
 *   application/vnd.simaai.tensor,dtype=float32,shape="<64,64,3>" ! \
 *   simaquanttess multiplier=64 device=emulator ! \
 *   simadetessdequant scale=0.015625 device=emulator ! fakesink
 * ]| Prints one summary line per converter at the end.
 *
 * docs/tracing.md shows real output and how to read it.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsimalatencytracer.h"

#include <string.h>

#include "gstsimabasetransform.h"
#include "sima/gstsimatimingmeta.h"

GST_DEBUG_CATEGORY_STATIC (gst_sima_latency_tracer_debug);
#define GST_CAT_DEFAULT gst_sima_latency_tracer_debug

/* Latencies are kept in a log-linear histogram, not one by one, so a
 * pipeline that runs for days costs the same memory as one that runs for
 * seconds: values below 2^(SUB_BITS+1) ns exactly, larger ones in bins
 * 1/128 of their power of two wide. A percentile is its bin's upper bound
 * (clamped to the maximum): at most 0.8 % above the true value. Count,
 * mean and maximum are exact. */
#define SUB_BITS 7
#define SUB (1u << SUB_BITS)
#define N_BINS (SUB + (64 - SUB_BITS) * SUB)

/* Inputs that entered a converter and have not come out yet: when, and
 * their PTS, which the output keeps. A few per element (max-inflight at
 * most 16); an input that never comes out (dropped by QoS, flushed, an
 * error) is forgotten when a later one does, or when the queue is full. */
#define MAX_ENTRIES 64

typedef struct
{
  GstClockTime pts;
  GstClockTime ts;
} Entry;

typedef struct
{
  gchar *name;
  Entry entries[MAX_ENTRIES];   /* a ring, oldest at first */
  guint first, n_entries;
  /* what the summary needs (only kept with summary=true) */
  const gchar *op, *backend;    /* interned */
  guint64 count;                /* records */
  guint64 measured, sum, max;   /* latencies (records with an entry time) */
  guint64 process_sum, copies;
  guint64 *bins;                /* N_BINS, allocated with the first record */
} ElementStats;

struct _GstSimaLatencyTracer
{
  GstTracer parent;

  gboolean summary;             /* option summary=true */
  GQuark stats_quark;           /* this instance's ElementStats on elements */
  GMutex lock;                  /* guards this instance's ElementStats */
};

enum
{
  PROP_0,
  PROP_SUMMARY,
};

static GstTracerRecord *tr_buffer;

G_DEFINE_TYPE_WITH_CODE (GstSimaLatencyTracer, gst_sima_latency_tracer,
    GST_TYPE_TRACER,
    GST_DEBUG_CATEGORY_INIT (gst_sima_latency_tracer_debug, "simalatency", 0,
        "simalatency tracer"));

/* ---- histogram -------------------------------------------------------- */

static guint
bin_of (guint64 v)
{
  guint e;

  if (v < SUB)
    return (guint) v;
  e = 63 - (guint) __builtin_clzll (v);       /* e >= SUB_BITS */
  return SUB + (e - SUB_BITS) * SUB + (guint) ((v >> (e - SUB_BITS)) - SUB);
}

static guint64
bin_upper (guint bin)
{
  guint e, m;
  guint64 width;

  if (bin < SUB)
    return bin;
  e = (bin - SUB) / SUB + SUB_BITS;
  m = (bin - SUB) % SUB;
  width = G_GUINT64_CONSTANT (1) << (e - SUB_BITS);
  return ((guint64) (SUB + m) << (e - SUB_BITS)) + (width - 1);
}

/* The smallest recorded value v with at least ceil(fraction * count)
 * values <= v, as its bin's upper bound. */
static guint64
percentile (const ElementStats * s, gdouble fraction)
{
  guint64 rank = (guint64) (fraction * (gdouble) s->measured + 0.999999);
  guint64 seen = 0;
  guint bin;

  if (rank == 0)
    rank = 1;
  for (bin = 0; bin < N_BINS; bin++) {
    seen += s->bins[bin];
    if (seen >= rank)
      return MIN (bin_upper (bin), s->max);
  }
  return s->max;
}

/* ---- per-element state ------------------------------------------------ */

static void
element_stats_free (gpointer data)
{
  ElementStats *s = data;

  g_free (s->name);
  g_free (s->bins);
  g_free (s);
}

static gboolean
is_ours (GstObject * object)
{
  return object != NULL && GST_IS_SIMA_BASE_TRANSFORM (object);
}

/* The converter that owns pad, as a new reference, or NULL. Another
 * thread may remove the pad from its element, and free the element, while
 * a buffer is pushed: the parent is read under the pad's lock and kept
 * alive while we use it. Only converters are referenced, so the pushes of
 * other elements cost a lock and a type check. */
static GstElement *
converter_ref (GstPad * pad)
{
  GstObject *parent;

  if (pad == NULL)
    return NULL;
  GST_OBJECT_LOCK (pad);
  parent = GST_OBJECT_PARENT (pad);
  if (is_ours (parent))
    gst_object_ref (parent);
  else
    parent = NULL;
  GST_OBJECT_UNLOCK (pad);
  return parent != NULL ? GST_ELEMENT_CAST (parent) : NULL;
}

/* Called with the tracer lock. Each tracer instance keeps its own state
 * (GST_TRACERS may name simalatency twice). */
static ElementStats *
element_stats (GstSimaLatencyTracer * self, GstElement * element)
{
  ElementStats *s = g_object_get_qdata (G_OBJECT (element),
      self->stats_quark);

  if (s == NULL) {
    s = g_new0 (ElementStats, 1);
    s->name = gst_element_get_name (element);
    g_object_set_qdata_full (G_OBJECT (element), self->stats_quark, s,
        element_stats_free);
  }
  return s;
}

/* Called with the tracer lock. */
static void
add_entry (ElementStats * s, GstClockTime pts, GstClockTime ts)
{
  Entry *e;

  if (s->n_entries == MAX_ENTRIES) {      /* the oldest never came out */
    s->first = (s->first + 1) % MAX_ENTRIES;
    s->n_entries--;
  }
  e = &s->entries[(s->first + s->n_entries++) % MAX_ENTRIES];
  e->pts = pts;
  e->ts = ts;
}

/* Called with the tracer lock: when the input of an output with this PTS
 * entered. Outputs leave in input order, so it is the oldest entry with
 * that PTS (the entries before it gave no output: they are dropped), or,
 * for an output without a PTS or with one no input had, the oldest. */
static gboolean
take_entry (ElementStats * s, GstClockTime pts, GstClockTime * entered)
{
  guint i, skip = 0;

  if (s->n_entries == 0)
    return FALSE;
  if (GST_CLOCK_TIME_IS_VALID (pts))
    for (i = 0; i < s->n_entries; i++)
      if (s->entries[(s->first + i) % MAX_ENTRIES].pts == pts) {
        skip = i;
        break;
      }
  *entered = s->entries[(s->first + skip) % MAX_ENTRIES].ts;
  s->first = (s->first + skip + 1) % MAX_ENTRIES;
  s->n_entries -= skip + 1;
  return TRUE;
}

/* ---- hooks ------------------------------------------------------------ */

/* Buffers pushed into a converter's sink pad (a buffer, or each buffer
 * of a list): their clocks start. */
static void
note_entry (GstSimaLatencyTracer * self, GstClockTime ts, GstPad * pad,
    GstBuffer * buffer, GstBufferList * list)
{
  /* the pads may be unlinked meanwhile: the peer is held too */
  GstPad *peer = gst_pad_get_peer (pad);
  GstElement *converter = converter_ref (peer);
  ElementStats *s;
  guint i;

  if (peer != NULL)
    gst_object_unref (peer);
  if (converter == NULL)
    return;
  g_mutex_lock (&self->lock);
  s = element_stats (self, converter);
  if (buffer != NULL)
    add_entry (s, GST_BUFFER_PTS (buffer), ts);
  for (i = 0; list != NULL && i < gst_buffer_list_length (list); i++)
    add_entry (s, GST_BUFFER_PTS (gst_buffer_list_get (list, i)), ts);
  g_mutex_unlock (&self->lock);
  gst_object_unref (converter);
}

static void
log_record (GstSimaLatencyTracer * self, GstClockTime ts,
    GstElement * converter, GstBuffer * buffer)
{
  GstSimaTiming t;
  ElementStats *s;
  guint64 latency = 0;
  GstClockTime entered = 0;
  gboolean measured;

  if (!gst_sima_buffer_get_timing (buffer, &t)) {
    GST_WARNING_OBJECT (converter, "pushed a buffer without timing meta");
    return;
  }
  g_mutex_lock (&self->lock);
  s = element_stats (self, converter);
  measured = take_entry (s, GST_BUFFER_PTS (buffer), &entered)
      && ts >= entered;
  if (measured)
    latency = ts - entered;
  if (self->summary) {
    if (s->bins == NULL)
      s->bins = g_new0 (guint64, N_BINS);
    s->count++;
    if (measured) {
      s->bins[bin_of (latency)]++;
      s->measured++;
      s->sum += latency;
      s->max = MAX (s->max, latency);
    }
    s->process_sum += t.process_ns;
    s->copies += t.copies;
    if (g_strcmp0 (s->op, t.op) != 0)   /* interning takes a global lock */
      s->op = g_intern_string (t.op);
    if (g_strcmp0 (s->backend, t.backend) != 0)
      s->backend = g_intern_string (t.backend);
  }
  g_mutex_unlock (&self->lock);
  if (!measured)
    GST_DEBUG_OBJECT (converter, "pushed a buffer the tracer did not see "
        "enter: latency-ns 0, left out of the summary");

  /* The record API is the 1.22 way to log structured tracer data; should a
   * later release deprecate it, a -Werror build must not break. */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS;
  gst_tracer_record_log (tr_buffer, (guint64) ts, GST_OBJECT_NAME (converter),
      t.op, t.backend,
      latency, t.process_ns, t.cpu_ns, t.bytes_in, t.bytes_out, t.copies,
      t.estimated_ns);
  G_GNUC_END_IGNORE_DEPRECATIONS;
}

static void
do_push_buffer_pre (GstSimaLatencyTracer * self, GstClockTime ts,
    GstPad * pad, GstBuffer * buffer)
{
  GstElement *converter = converter_ref (pad);

  /* pad may be a converter's src pad (the result leaves), its peer a
   * converter's sink pad (a buffer arrives), or both */
  if (converter != NULL) {
    if (GST_PAD_IS_SRC (pad))
      log_record (self, ts, converter, buffer);
    gst_object_unref (converter);
  }
  note_entry (self, ts, pad, buffer, NULL);
}

/* Every buffer of a list entered when the list did (GstBaseTransform
 * converts them one by one, and with jobs in flight their outputs may
 * leave later, in any number of pushes). */
static void
do_push_list_pre (GstSimaLatencyTracer * self, GstClockTime ts,
    GstPad * pad, GstBufferList * list)
{
  note_entry (self, ts, pad, NULL, list);
}

/* A flush into a converter: its inputs in flight are gone. */
static void
do_push_event_pre (GstSimaLatencyTracer * self, GstClockTime ts,
    GstPad * pad, GstEvent * event)
{
  GstPad *peer;
  GstElement *converter;

  if (GST_EVENT_TYPE (event) != GST_EVENT_FLUSH_STOP)
    return;
  peer = gst_pad_get_peer (pad);
  converter = converter_ref (peer);
  if (peer != NULL)
    gst_object_unref (peer);
  if (converter == NULL)
    return;
  g_mutex_lock (&self->lock);
  element_stats (self, converter)->n_entries = 0;
  g_mutex_unlock (&self->lock);
  gst_object_unref (converter);
}

static void
print_summary (GstSimaLatencyTracer * self, GstElement * element)
{
  ElementStats *s, copy;

  /* copy and reset under the lock, compute and print outside it: the
   * streaming threads do not wait for the application's print handler */
  g_mutex_lock (&self->lock);
  s = element_stats (self, element);
  copy = *s;
  copy.name = g_strdup (s->name);
  copy.bins = s->bins != NULL ? g_memdup2 (s->bins, N_BINS * sizeof *s->bins)
      : NULL;
  /* a restarted element starts a new summary */
  s->count = s->measured = s->sum = s->max = s->process_sum = s->copies = 0;
  s->n_entries = 0;
  if (s->bins != NULL)
    memset (s->bins, 0, N_BINS * sizeof *s->bins);
  g_mutex_unlock (&self->lock);

  if (copy.count == 0) {
    g_print ("simalatency: element=%s buffers=0\n", copy.name);
  } else if (copy.measured == 0) {
    g_print ("simalatency: element=%s op=%s backend=%s buffers=%"
        G_GUINT64_FORMAT " latency-us: unmeasured process-us: mean=%.1f "
        "copies=%" G_GUINT64_FORMAT "\n", copy.name, copy.op, copy.backend,
        copy.count, copy.process_sum / 1e3 / copy.count, copy.copies);
  } else {
    g_print ("simalatency: element=%s op=%s backend=%s buffers=%"
        G_GUINT64_FORMAT " latency-us: mean=%.1f p50=%.1f p99=%.1f max=%.1f "
        "process-us: mean=%.1f copies=%" G_GUINT64_FORMAT "\n", copy.name,
        copy.op, copy.backend, copy.count, copy.sum / 1e3 / copy.measured,
        percentile (&copy, 0.50) / 1e3, percentile (&copy, 0.99) / 1e3,
        copy.max / 1e3, copy.process_sum / 1e3 / copy.count, copy.copies);
  }
  g_free (copy.name);
  g_free (copy.bins);
}

static void
do_change_state_post (GstSimaLatencyTracer * self, GstClockTime ts,
    GstElement * element, GstStateChange transition,
    GstStateChangeReturn result)
{
  if (self->summary && transition == GST_STATE_CHANGE_PAUSED_TO_READY
      && is_ours (GST_OBJECT_CAST (element)))
    print_summary (self, element);
}

/* ---- object ----------------------------------------------------------- */

/* Options come as GST_TRACERS="simalatency(summary=true)". */
static void
parse_params (GstSimaLatencyTracer * self)
{
  gchar *params = NULL, *text;
  GstStructure *s;
  gint i;

  g_object_get (self, "params", &params, NULL);
  if (params == NULL)
    return;
  text = g_strdup_printf ("simalatency,%s", params);
  s = gst_structure_from_string (text, NULL);
  if (s == NULL) {
    GST_WARNING_OBJECT (self, "cannot parse the options '%s': expected "
        "summary=true or summary=false", params);
    goto done;
  }
  for (i = 0; i < gst_structure_n_fields (s); i++) {
    const gchar *field = gst_structure_nth_field_name (s, i);
    if (strcmp (field, "summary") == 0) {
      if (!gst_structure_get_boolean (s, field, &self->summary)) {
        gchar *value = gst_value_serialize (gst_structure_get_value (s,
                field));
        GST_WARNING_OBJECT (self, "option summary: '%s' is not a boolean "
            "(true or false)", value);
        g_free (value);
      }
    } else {
      GST_WARNING_OBJECT (self, "ignoring unknown option '%s' (known: "
          "summary)", field);
    }
  }
  gst_structure_free (s);
done:
  g_free (text);
  g_free (params);
}

static void
gst_sima_latency_tracer_constructed (GObject * object)
{
  GstSimaLatencyTracer *self = GST_SIMA_LATENCY_TRACER (object);

  G_OBJECT_CLASS (gst_sima_latency_tracer_parent_class)->constructed (object);
  parse_params (self);
  GST_INFO_OBJECT (self, "summary %s", self->summary ? "on" : "off");
}

static void
gst_sima_latency_tracer_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstSimaLatencyTracer *self = GST_SIMA_LATENCY_TRACER (object);

  switch (prop_id) {
    case PROP_SUMMARY:
      g_value_set_boolean (value, self->summary);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_sima_latency_tracer_finalize (GObject * object)
{
  g_mutex_clear (&GST_SIMA_LATENCY_TRACER (object)->lock);
  G_OBJECT_CLASS (gst_sima_latency_tracer_parent_class)->finalize (object);
}

static GstStructure *
field (GType type, const gchar * description)
{
  return gst_structure_new ("value", "type", G_TYPE_GTYPE, type,
      "description", G_TYPE_STRING, description, NULL);
}

static void
gst_sima_latency_tracer_class_init (GstSimaLatencyTracerClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);

  gobject_class->constructed = gst_sima_latency_tracer_constructed;
  gobject_class->get_property = gst_sima_latency_tracer_get_property;
  gobject_class->finalize = gst_sima_latency_tracer_finalize;

  /**
   * GstSimaLatencyTracer:summary:
   *
   * Whether a summary line per converter is printed when it stops: set
   * with the option summary=true.
   */
  g_object_class_install_property (gobject_class, PROP_SUMMARY,
      g_param_spec_boolean ("summary", "Summary",
          "Print count, mean, p50, p99 and max per converter at stop "
          "(option summary=true)", FALSE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS;
  tr_buffer = gst_tracer_record_new ("simalatency.class",
      "ts", GST_TYPE_STRUCTURE, field (G_TYPE_UINT64,
          "when the buffer left the element, ns since GStreamer started"),
      "element", GST_TYPE_STRUCTURE, gst_structure_new ("scope",
          "type", G_TYPE_GTYPE, G_TYPE_STRING,
          "related-to", GST_TYPE_TRACER_VALUE_SCOPE,
          GST_TRACER_VALUE_SCOPE_ELEMENT, NULL),
      "op", GST_TYPE_STRUCTURE, field (G_TYPE_STRING,
          "QuantTess, CastTess or DetessDequant"),
      "backend", GST_TYPE_STRUCTURE, field (G_TYPE_STRING,
          "ev74, a65 or a65-fallback"),
      "latency-ns", GST_TYPE_STRUCTURE, field (G_TYPE_UINT64,
          "wall time from sink pad entry to src pad push"),
      "process-ns", GST_TYPE_STRUCTURE, field (G_TYPE_UINT64,
          "ev74: submit to retirement; a65: kernel execution"),
      "cpu-ns", GST_TYPE_STRUCTURE, field (G_TYPE_UINT64,
          "CPU time of the streaming thread"),
      "bytes-in", GST_TYPE_STRUCTURE, field (G_TYPE_UINT64,
          "tensor bytes read"),
      "bytes-out", GST_TYPE_STRUCTURE, field (G_TYPE_UINT64,
          "tensor bytes written"),
      "copies", GST_TYPE_STRUCTURE, field (G_TYPE_UINT,
          "buffer copies made for this buffer"),
      "estimated-device-ns", GST_TYPE_STRUCTURE, field (G_TYPE_UINT64,
          "ev74: the device model's estimate of the job; a65: 0"), NULL);
  G_GNUC_END_IGNORE_DEPRECATIONS;
  /* a class-wide record, alive until exit: not a leak */
  GST_OBJECT_FLAG_SET (tr_buffer, GST_OBJECT_FLAG_MAY_BE_LEAKED);
}

static void
gst_sima_latency_tracer_init (GstSimaLatencyTracer * self)
{
  GstTracer *tracer = GST_TRACER (self);
  gchar *key = g_strdup_printf ("simalatency-stats-%p", (gpointer) self);

  /* quarks live forever: one per tracer instance, of which a process has
   * one or two */
  self->stats_quark = g_quark_from_string (key);
  g_free (key);
  g_mutex_init (&self->lock);
  gst_tracing_register_hook (tracer, "pad-push-pre",
      G_CALLBACK (do_push_buffer_pre));
  gst_tracing_register_hook (tracer, "pad-push-event-pre",
      G_CALLBACK (do_push_event_pre));
  gst_tracing_register_hook (tracer, "pad-push-list-pre",
      G_CALLBACK (do_push_list_pre));
  gst_tracing_register_hook (tracer, "element-change-state-post",
      G_CALLBACK (do_change_state_post));
}
