/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstSimaBaseTransform: the shared part of the converter elements.
 * Glue only: specs come from caps, every size and rule from the core, every
 * conversion from the core or, through gstsimaev74runner.h, the EV74.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#define _GNU_SOURCE
#include "gstsimabasetransform.h"

#include <simaai/kernels/ev74/wire.h>
#include <simaai/kernels/layout.h>

#include <gst/allocators/allocators.h>
#include <gst/video/video.h>
#include <string.h>
#include <time.h>

#include "gstsimaa65pool.h"
#include "gstsimaallocator.h"
#include "gstsimacaps.h"
#include "gstsimadialect.h"
#include "gstsimaev74runner.h"
#include "gstsimatimingmetaprivate.h"
#include "gstsimavideo.h"

GST_DEBUG_CATEGORY_STATIC (gst_sima_base_transform_debug);

/* The base logs in the element's own category (GST_DEBUG=simaquanttess:6
 * shows the element's whole story); every function that logs has a
 * `self`. */
static GstDebugCategory *
element_category (gpointer self)
{
  GstDebugCategory *cat = self == NULL ? NULL
      : GST_SIMA_BASE_TRANSFORM_GET_CLASS (self)->debug_category;
  return cat != NULL ? cat : gst_sima_base_transform_debug;
}

#define GST_CAT_DEFAULT element_category (self)

#define DEFAULT_BACKEND GST_SIMA_BACKEND_EV74
#define DEFAULT_FALLBACK GST_SIMA_FALLBACK_NONE
#define DEFAULT_TIMEOUT_MS 5000
/* EV74 jobs a converter keeps submitted at once (docs/performance.md,
 * "Jobs in flight", has the measurements behind the default) */
#define DEFAULT_MAX_INFLIGHT 2
#define MAX_INFLIGHT 16
/* one A65 execution runs on the streaming thread alone unless asked */
#define DEFAULT_THREADS 1
/* the retire thread waits for the oldest job in slices this long, so a
 * stop or a flush is noticed within one (a job that retires wakes it at
 * once) */
#define RETIRE_SLICE_NS (5 * GST_MSECOND)
/* a live pipeline hears of a new processing latency once it exceeds the
 * last one announced by this factor (announcing every small rise would
 * make the pipeline recompute its latency on every buffer) */
#define LATENCY_GROWTH 1.25
/* the processing latency is the longest of this many recent buffers: a
 * one-off stall (the first buffer's imports, a page fault) ages out instead
 * of raising the pipeline's latency for good */
#define LATENCY_WINDOW 64
/* Our pools have no maximum, as GStreamer's own: a bounded pool deadlocks
 * any neighbour that holds more buffers than the bound (a queue with
 * min-threshold-buffers, a batcher). What stays imported into the device's
 * bus aperture is bounded by the import cache instead, which drops the
 * least recently used imports when the aperture is full. */
#define OUR_POOL_MIN 2
/* memories the device reads and writes are aligned for the tiles */
#define DEVICE_ALIGN_MASK (SIMA_TILED_ALIGNMENT - 1)

enum
{
  PROP_0,
  PROP_BACKEND,
  PROP_FALLBACK,
  PROP_DEVICE,
  PROP_TIMEOUT,
  PROP_ACTIVE_BACKEND,
  PROP_COPIES,
  PROP_IMPORTS,
  PROP_PROCESSING_LATENCY,
  PROP_MAX_INFLIGHT,
  PROP_THREADS,
};

/* A buffer whose EV74 job is in flight: the runner's ticket (the job and
 * every buffer it touches), the output it will be, and what its timing
 * meta needs from the submit. */
typedef struct
{
  GstSimaEv74Ticket *ticket;    /* NULL: an empty tensor, nothing to run */
  GstBuffer *out;               /* the output buffer, handed back on retire */
  GstSimaRunStats stats;        /* copies and imports of the submit */
  guint64 host_ns;              /* wall time of the submit (import, stage,
                                 * bind) */
  guint64 cpu_ns;               /* thread CPU time of the submit */
  guint64 bytes_in, bytes_out;  /* the plan's, when it was submitted */
  guint timeout_ms;
} Slot;

typedef struct
{
  /* properties (object lock) */
  GstSimaBackend backend;
  GstSimaFallback fallback;
  gchar *device;
  guint timeout_ms;
  guint max_inflight;
  /* atomic: the streaming thread reads it before every A65 buffer, so a
   * set from the application thread is seen at the next one */
  gint threads;

  /* between start() and stop() (object lock): backend, fallback and device
   * are refused then */
  gboolean started;
  /* a conversion parameter changed while running (atomic) */
  gint params_dirty;

  /* streaming state */
  GstSimaActiveBackend active;  /* object lock */
  const gchar *active_nick;     /* its enum nick, static (object lock) */
  GstSimaEv74Runner *runner;    /* NULL on the A65 */
  /* the threads an A65 execution is split over: built and rebuilt by the
   * streaming thread before an execution, freed by stop() with the stream
   * lock (gstsimaa65pool.h) */
  GstSimaA65Pool a65_pool;
  GMutex runner_lock;           /* runner's creation and end against
                                 * set_flushing from other threads */
  gboolean flushing;            /* runner_lock */
  gboolean stopping;            /* runner_lock: PAUSED->READY under way, so
                                 * a late FLUSH_STOP keeps waits ending */
  SimaTensorSet in_set, out_set;        /* negotiated */
  /* camera frames in: the caps' layout, which a buffer's GstVideoMeta
   * (padded rows, pooled frames) may change per buffer */
  gboolean video_in;
  GstVideoInfo video_info;
  /* the device registers the tensor-set route (probed at start) */
  gboolean device_has_sets;
  GstSimaFallback active_fallback;      /* the policy read at start */
  guint64 in_bytes, out_bytes;  /* from the plan */
  /* the core's reason for refusing the last caps, and the last reason
   * posted: a refusal is posted once, where the flow fails (streaming
   * thread) */
  gchar *caps_error, *caps_error_posted;
  guint64 copies, imports;      /* object lock */
  /* transform() times of the last LATENCY_WINDOW buffers (a ring), the
   * longest of them, the last value announced with a LATENCY message, and
   * whether a LATENCY query said the pipeline is live (all object lock) */
  GstClockTime recent[LATENCY_WINDOW];
  guint n_recent;
  GstClockTime latency, latency_announced;
  gboolean live;

  /* EV74 jobs in flight (docs/elements.md, "Jobs in flight"): Slots,
   * oldest first. Changed only by a thread that holds the sink pad's
   * stream lock (the streaming thread, serialized events and queries, the
   * retire thread), and then under window_lock too, which the retire
   * thread alone takes to look at the oldest slot without the stream
   * lock. Lock order: stream lock, then window_lock. */
  GQueue window;
  GMutex window_lock;
  GCond window_cond;            /* arm or quit (window_lock) */
  gboolean retire_armed;        /* window_lock: watch the oldest slot */
  gint retire_quit;             /* atomic, set under window_lock */
  gint window_flushing;         /* atomic: mirrors flushing */
  GThread *retire_thread;       /* between start() and stop(), on the EV74 */
  /* stream lock: the output of the buffer just submitted goes out in this
   * chain (GstBaseTransform marks a pending discontinuity on the first
   * output the chain pushes, which must be this buffer's) */
  gboolean sync_next;
  /* stream lock: what a push or a job outside the chain returned, for the
   * next chain to return: an error stays until a flush or a restart (one
   * error message per failed flow), anything else is returned once */
  GstFlowReturn sticky;
} GstSimaBaseTransformPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstSimaBaseTransform,
    gst_sima_base_transform, GST_TYPE_BASE_TRANSFORM,
    G_ADD_PRIVATE (GstSimaBaseTransform)
    GST_DEBUG_CATEGORY_INIT (gst_sima_base_transform_debug,
        "simabasetransform", 0, "SiMa kernel elements, shared part"));

#define PRIV(self) \
  ((GstSimaBaseTransformPrivate *) \
   gst_sima_base_transform_get_instance_private (self))

/* jobs in flight (below) */
static guint window_length (GstSimaBaseTransform * self);
static void window_abandon_all (GstSimaBaseTransform * self,
    const gchar * why);
static GstFlowReturn retire_oldest (GstSimaBaseTransform * self,
    GstBuffer ** outbuf);
static GstFlowReturn drain_window (GstSimaBaseTransform * self,
    const gchar * why);
static void retire_start (GstSimaBaseTransform * self);
static void retire_stop (GstSimaBaseTransform * self);

/* ---- properties ---------------------------------------------------------- */

/* backend, fallback and device decide what start() opens: changing them
 * while the element runs is refused, with a warning, rather than applied
 * silently at some later point. */
static gboolean
refuse_while_started (GstSimaBaseTransform * self, GParamSpec * pspec)
{
  if (!PRIV (self)->started)
    return FALSE;
  GST_OBJECT_UNLOCK (self);
  GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS,
      ("The %s property cannot change while the element runs; the change "
          "is ignored. Set it in the NULL or READY state.", pspec->name),
      (NULL));
  GST_OBJECT_LOCK (self);
  return TRUE;
}

static void
gst_sima_base_transform_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstSimaBaseTransform *self = GST_SIMA_BASE_TRANSFORM (object);
  GstSimaBaseTransformPrivate *priv = PRIV (self);

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_BACKEND:
      if (!refuse_while_started (self, pspec))
        priv->backend = (GstSimaBackend) g_value_get_enum (value);
      break;
    case PROP_FALLBACK:
      if (!refuse_while_started (self, pspec))
        priv->fallback = (GstSimaFallback) g_value_get_enum (value);
      break;
    case PROP_DEVICE:
      if (!refuse_while_started (self, pspec)) {
        g_free (priv->device);
        priv->device = g_value_dup_string (value);
      }
      break;
    case PROP_TIMEOUT:         /* read per buffer: applies to the next one */
      priv->timeout_ms = g_value_get_uint (value);
      break;
    case PROP_MAX_INFLIGHT:    /* read per buffer: the window follows */
      priv->max_inflight = g_value_get_uint (value);
      break;
    case PROP_THREADS:         /* read per A65 buffer: the pool follows */
      g_atomic_int_set (&priv->threads, (gint) g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_sima_base_transform_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstSimaBaseTransformPrivate *priv = PRIV (GST_SIMA_BASE_TRANSFORM (object));

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_BACKEND:
      g_value_set_enum (value, priv->backend);
      break;
    case PROP_FALLBACK:
      g_value_set_enum (value, priv->fallback);
      break;
    case PROP_DEVICE:
      g_value_set_string (value, priv->device);
      break;
    case PROP_TIMEOUT:
      g_value_set_uint (value, priv->timeout_ms);
      break;
    case PROP_ACTIVE_BACKEND:
      g_value_set_enum (value, priv->active);
      break;
    case PROP_COPIES:
      g_value_set_uint64 (value, priv->copies);
      break;
    case PROP_IMPORTS:
      g_value_set_uint64 (value, priv->imports);
      break;
    case PROP_PROCESSING_LATENCY:
      g_value_set_uint64 (value, priv->latency);
      break;
    case PROP_MAX_INFLIGHT:
      g_value_set_uint (value, priv->max_inflight);
      break;
    case PROP_THREADS:
      g_value_set_uint (value, (guint) g_atomic_int_get (&priv->threads));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

void
gst_sima_base_transform_params_changed (GstSimaBaseTransform * self,
    gboolean relayout)
{
  gboolean started;

  GST_OBJECT_LOCK (self);
  started = PRIV (self)->started;
  GST_OBJECT_UNLOCK (self);
  if (!started)
    return;                     /* set_caps reads them anyway */
  GST_DEBUG_OBJECT (self, "parameters changed while running: %s",
      relayout ? "renegotiating" : "re-preparing for the next buffer");
  g_atomic_int_set (&PRIV (self)->params_dirty, 1);
  if (relayout)
    gst_base_transform_reconfigure_src (GST_BASE_TRANSFORM (self));
}

static void
set_active (GstSimaBaseTransform * self, GstSimaActiveBackend active)
{
  GEnumClass *klass = g_type_class_ref (GST_TYPE_SIMA_ACTIVE_BACKEND);
  GEnumValue *value = g_enum_get_value (klass, active);

  GST_OBJECT_LOCK (self);
  PRIV (self)->active = active;
  /* the timing meta's backend, looked up here rather than per buffer */
  PRIV (self)->active_nick = value != NULL ? value->value_nick : "none";
  GST_OBJECT_UNLOCK (self);
  g_type_class_unref (klass);
}

/* ---- start / stop: the backend policy ------------------------------------ */

static void
set_runner (GstSimaBaseTransform * self, GstSimaEv74Runner * runner)
{
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  GstSimaEv74Runner *old;

  g_mutex_lock (&priv->runner_lock);
  old = priv->runner;
  priv->runner = runner;
  if (runner != NULL)
    gst_sima_ev74_runner_set_flushing (runner, priv->flushing);
  g_mutex_unlock (&priv->runner_lock);
  gst_sima_ev74_runner_free (old);
}

/* Opens the device; FALSE with an element error when the policy says the
 * element cannot run. */
static gboolean
open_device (GstSimaBaseTransform * self, GstSimaFallback fallback,
    const gchar * device)
{
  GstSimaBaseTransformClass *klass = GST_SIMA_BASE_TRANSFORM_GET_CLASS (self);
  const gchar *spec = sima_ev74_resolve_spec (device);
  SimaEv74Device *dev = NULL;
  SimaStatus st;

  st = sima_ev74_device_open (spec, &dev);
  if (st.code == SIMA_INVALID_ARGUMENT) {
    /* a malformed spec is the user's to fix, whatever the fallback */
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("The EV74 device '%s' is not valid: %s", spec, st.message),
        ("device property: %s", device ? device : "(unset)"));
    return FALSE;
  }
  if (st.code == SIMA_OK)
    st = sima_ev74_device_require (dev, klass->route, klass->capability);
  if (st.code == SIMA_OK) {
    /* needed only once caps announce a real set (configure) */
    SimaStatus set_st = sima_ev74_device_require (dev,
        SIMA_EV74_ROUTE_TENSOR_SET, SIMA_EV74_TENSOR_SET_CAPABILITY);
    PRIV (self)->device_has_sets = set_st.code == SIMA_OK;
  }
  if (st.code != SIMA_OK) {
    sima_ev74_device_unref (dev);
    if (fallback == GST_SIMA_FALLBACK_A65) {
      GST_ELEMENT_WARNING (self, RESOURCE, NOT_FOUND,
          ("EV74 capability %s is not available; %s runs on the A65 "
              "(fallback=a65)", klass->capability, klass->op_name),
          ("%s", st.message));
      set_active (self, GST_SIMA_ACTIVE_A65_FALLBACK);
      return TRUE;
    }
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("EV74 capability %s is not available on device '%s': %s. Set "
            "backend=a65 to run on the A65, or fallback=a65 to fall back to "
            "it.", klass->capability, spec, st.message),
        ("device property: %s", device ? device : "(unset)"));
    return FALSE;
  }
  GST_INFO_OBJECT (self, "%s runs on EV74 device '%s'", klass->op_name, spec);
  set_runner (self, gst_sima_ev74_runner_new (GST_OBJECT (self),
          element_category (self), dev));
  set_active (self, GST_SIMA_ACTIVE_EV74);
  return TRUE;
}

static gboolean
gst_sima_base_transform_start (GstBaseTransform * trans)
{
  GstSimaBaseTransform *self = GST_SIMA_BASE_TRANSFORM (trans);
  GstSimaBaseTransformClass *klass = GST_SIMA_BASE_TRANSFORM_GET_CLASS (self);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  GstSimaBackend backend;
  GstSimaFallback fallback;
  gchar *device;
  gboolean ok = TRUE;

  GST_OBJECT_LOCK (self);
  priv->copies = priv->imports = 0;
  priv->latency = priv->latency_announced = 0;
  priv->n_recent = 0;
  priv->live = FALSE;
  GST_OBJECT_UNLOCK (self);
  if (klass->check_properties != NULL && !klass->check_properties (self))
    return FALSE;
  GST_OBJECT_LOCK (self);
  backend = priv->backend;
  fallback = priv->fallback;
  device = g_strdup (priv->device);
  GST_OBJECT_UNLOCK (self);
  priv->active_fallback = fallback;
  priv->device_has_sets = FALSE;
  if (backend == GST_SIMA_BACKEND_A65) {
    GST_INFO_OBJECT (self, "%s runs on the A65 (backend=a65)", klass->op_name);
    set_active (self, GST_SIMA_ACTIVE_A65);
  } else {
    ok = open_device (self, fallback, device);
  }
  g_free (device);
  priv->sticky = GST_FLOW_OK;
  priv->sync_next = FALSE;
  if (ok && priv->runner != NULL)
    retire_start (self);
  if (ok) {
    GST_OBJECT_LOCK (self);
    priv->started = TRUE;
    GST_OBJECT_UNLOCK (self);
  }
  return ok;
}

static gboolean
gst_sima_base_transform_stop (GstBaseTransform * trans)
{
  GstSimaBaseTransform *self = GST_SIMA_BASE_TRANSFORM (trans);
  GstSimaBaseTransformPrivate *priv = PRIV (self);

  /* never waits for the device: jobs still running keep their buffers
   * through the runner's reaper (the streaming thread has stopped: the
   * pads are inactive) */
  retire_stop (self);
  /* with the stream lock (recursive; the streaming thread has left or is
   * leaving, the pads being inactive): a DRAIN or ALLOCATION query that
   * got in just before the pads went flushing drains under that lock, and
   * must not find the runner freed under it */
  GST_PAD_STREAM_LOCK (GST_BASE_TRANSFORM_SINK_PAD (trans));
  window_abandon_all (self, "stopping");
  priv->sticky = GST_FLOW_OK;
  priv->sync_next = FALSE;
  set_runner (self, NULL);
  /* no execution runs on it: the streaming thread is out (stream lock) */
  gst_sima_a65_pool_clear (&priv->a65_pool);
  GST_PAD_STREAM_UNLOCK (GST_BASE_TRANSFORM_SINK_PAD (trans));
  priv->in_bytes = priv->out_bytes = 0;
  g_clear_pointer (&priv->caps_error, g_free);
  g_clear_pointer (&priv->caps_error_posted, g_free);
  g_atomic_int_set (&priv->params_dirty, 0);
  GST_OBJECT_LOCK (self);
  priv->started = FALSE;
  GST_OBJECT_UNLOCK (self);
  set_active (self, GST_SIMA_ACTIVE_NONE);
  return TRUE;
}

/* Waits on the device end at once when the element flushes or stops; the
 * streaming thread then returns FLUSHING and the job keeps its buffers. */
static void
set_flushing_locked (GstSimaBaseTransform * self, gboolean flushing)
{
  GstSimaBaseTransformPrivate *priv = PRIV (self);

  priv->flushing = flushing;
  g_atomic_int_set (&priv->window_flushing, flushing ? 1 : 0);
  if (priv->runner != NULL)
    gst_sima_ev74_runner_set_flushing (priv->runner, flushing);
}

/* A flush also flushes the output pool, so that a streaming thread waiting
 * for an output buffer returns too (GstBaseTransform does not). */
static void
set_flushing (GstSimaBaseTransform * self, gboolean flushing,
    gboolean stopping)
{
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  GstBufferPool *pool;
  gboolean apply;

  g_mutex_lock (&priv->runner_lock);
  if (stopping)
    priv->stopping = flushing;
  /* a FLUSH_STOP during PAUSED->READY must not let a last buffer wait */
  apply = stopping || flushing || !priv->stopping;
  if (apply)
    set_flushing_locked (self, flushing);
  g_mutex_unlock (&priv->runner_lock);
  pool = gst_base_transform_get_buffer_pool (GST_BASE_TRANSFORM (self));
  if (pool != NULL) {
    if (apply)
      gst_buffer_pool_set_flushing (pool, flushing);
    gst_object_unref (pool);
  }
}

static GstStateChangeReturn
gst_sima_base_transform_change_state (GstElement * element,
    GstStateChange transition)
{
  GstSimaBaseTransform *self = GST_SIMA_BASE_TRANSFORM (element);
  GstStateChangeReturn ret;

  /* before the pads deactivate, which waits for the streaming thread */
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    set_flushing (self, TRUE, TRUE);
  else if (transition == GST_STATE_CHANGE_READY_TO_PAUSED)
    set_flushing (self, FALSE, TRUE);
  ret = GST_ELEMENT_CLASS (gst_sima_base_transform_parent_class)->
      change_state (element, transition);
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY
      && ret == GST_STATE_CHANGE_FAILURE)
    set_flushing (self, FALSE, TRUE);   /* still PAUSED: go on converting */
  return ret;
}

/* Posts the core's reason for refusing the caps as the one error of a
 * failed negotiation: upstream resends refused caps with every buffer it
 * tries to push, so the same reason is posted only once. */
static void
post_caps_error (GstSimaBaseTransform * self)
{
  GstSimaBaseTransformPrivate *priv = PRIV (self);

  if (priv->caps_error == NULL
      || g_strcmp0 (priv->caps_error, priv->caps_error_posted) == 0)
    return;
  GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s", priv->caps_error),
      (NULL));
  g_free (priv->caps_error_posted);
  priv->caps_error_posted = g_steal_pointer (&priv->caps_error);
}

static gboolean
gst_sima_base_transform_sink_event (GstBaseTransform * trans,
    GstEvent * event)
{
  GstSimaBaseTransform *self = GST_SIMA_BASE_TRANSFORM (trans);
  GstEventType type = GST_EVENT_TYPE (event);
  gboolean ret;

  if (type == GST_EVENT_FLUSH_START) {
    set_flushing (self, TRUE, FALSE);
  } else if (type == GST_EVENT_FLUSH_STOP) {
    /* nothing from before the flush is pushed after it: the window starts
     * empty (serialized: the streaming thread and the retire thread are
     * out of the way) */
    window_abandon_all (self, "flush");
    PRIV (self)->sticky = GST_FLOW_OK;
    PRIV (self)->sync_next = FALSE;
    set_flushing (self, FALSE, FALSE);
  } else if (GST_EVENT_IS_SERIALIZED (event) && window_length (self) > 0) {
    /* EOS, CAPS, SEGMENT, GAP, custom: after the buffers before them */
    drain_window (self, GST_EVENT_TYPE_NAME (event));
  }
  if (type == GST_EVENT_CAPS)
    /* only a refusal of these caps may be posted for them (an earlier
     * refusal, e.g. during an allocation reconfigure, is stale) */
    g_clear_pointer (&PRIV (self)->caps_error, g_free);
  ret = GST_BASE_TRANSFORM_CLASS (gst_sima_base_transform_parent_class)->
      sink_event (trans, event);
  if (type == GST_EVENT_CAPS && !ret)
    post_caps_error (self);     /* the stream cannot go on with these caps */
  return ret;
}

/* ---- negotiation --------------------------------------------------------- */

/* Admits the negotiated specs with the element's current parameters and
 * gets the device path ready for them. */
static SimaStatus
configure (GstSimaBaseTransform * self)
{
  GstSimaBaseTransformClass *klass = GST_SIMA_BASE_TRANSFORM_GET_CLASS (self);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  guint64 in_bytes = 0, out_bytes = 0;
  SimaEv74Descriptor desc;
  SimaStatus st;

  st = klass->prepare (self, &priv->in_set, &priv->out_set, &in_bytes,
      &out_bytes);
  if (st.code != SIMA_OK)
    return st;
  /* buffer pools count bytes in a guint */
  if (in_bytes > G_MAXUINT || out_bytes > G_MAXUINT)
    return sima_status_make (SIMA_SIZE_OVERFLOW,
        "a buffer of %llu bytes is larger than GStreamer's buffer pools "
        "hold (%u bytes)", (unsigned long long) MAX (in_bytes, out_bytes),
        G_MAXUINT);
  priv->in_bytes = in_bytes;
  priv->out_bytes = out_bytes;
  GST_DEBUG_OBJECT (self, "%s: %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT
      " bytes per buffer", klass->op_name, in_bytes, out_bytes);
  if (priv->runner != NULL) {
    st = klass->encode (self, &desc);
    if (st.code == SIMA_OK && sima_ev74_descriptor_route (&desc)
        == SIMA_EV74_ROUTE_TENSOR_SET && !priv->device_has_sets) {
      if (priv->active_fallback != GST_SIMA_FALLBACK_A65)
        return sima_status_make (SIMA_CAPABILITY_MISSING, "EV74 capability "
            SIMA_EV74_TENSOR_SET_CAPABILITY " (one job per tensor set) is "
            "not available; set backend=a65 or fallback=a65");
      GST_ELEMENT_WARNING (self, RESOURCE, NOT_FOUND,
          ("EV74 capability " SIMA_EV74_TENSOR_SET_CAPABILITY " is not "
              "available; %s runs tensor sets on the A65 (fallback=a65)",
              klass->op_name), (NULL));
      if (window_length (self) > 0)     /* set_caps drained it already */
        drain_window (self, "leaving the EV74");
      /* the retire thread stays (stop() ends it; joining it here, with
       * the stream lock, could wait for a thread that waits for the lock):
       * with an empty window and no runner it has nothing to do */
      set_runner (self, NULL);
      set_active (self, GST_SIMA_ACTIVE_A65_FALLBACK);
      return st;
    }
    if (st.code == SIMA_OK)
      st = gst_sima_ev74_runner_configure (priv->runner, &desc, in_bytes,
          out_bytes);
  }
  return st;
}

/* Caps the core refuses are logged and refused (FALSE): negotiation may
 * try several, and a refusal is not yet a failure. If the stream then
 * fails on them (the CAPS event or a renegotiation before a buffer), the
 * reason is posted once (post_caps_error). */
static gboolean
gst_sima_base_transform_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstSimaBaseTransform *self = GST_SIMA_BASE_TRANSFORM (trans);
  GstSimaBaseTransformClass *klass = GST_SIMA_BASE_TRANSFORM_GET_CLASS (self);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  gchar *error = NULL;
  SimaStatus st;

  /* the outputs of the old caps go out before the new caps do (a
   * renegotiation before a buffer comes here from the chain, with the
   * stream lock, before the new caps are pushed) */
  if (window_length (self) > 0)
    drain_window (self, "new caps");
  g_clear_pointer (&priv->caps_error, g_free);
  priv->video_in = gst_sima_video_is_video (gst_caps_get_structure (incaps,
          0)) && gst_video_info_from_caps (&priv->video_info, incaps);
  if (!gst_sima_caps_to_set (gst_caps_get_structure (incaps, 0),
          &priv->in_set, &error)
      || !gst_sima_caps_to_set (gst_caps_get_structure (outcaps, 0),
          &priv->out_set, &error))
    goto refused;
  g_atomic_int_set (&priv->params_dirty, 0);
  st = configure (self);
  if (st.code != SIMA_OK) {
    error = g_strdup_printf ("%s cannot convert these caps: %s",
        klass->op_name, st.message);
    goto refused;
  }
  g_clear_pointer (&priv->caps_error_posted, g_free);
  return TRUE;

  /* ERRORS */
refused:
  GST_ERROR_OBJECT (self, "%s (input %" GST_PTR_FORMAT ", output %"
      GST_PTR_FORMAT ")", error, incaps, outcaps);
  priv->caps_error = error;
  return FALSE;
}

static gboolean
gst_sima_base_transform_transform_size (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, gsize size,
    GstCaps * othercaps, gsize * othersize)
{
  GstSimaBaseTransform *self = GST_SIMA_BASE_TRANSFORM (trans);
  gchar *error = NULL;
  guint64 bytes;

  if (!gst_sima_caps_required_bytes (othercaps, &bytes, &error)) {
    GST_DEBUG_OBJECT (self, "no size for %" GST_PTR_FORMAT ": %s", othercaps,
        error);
    g_free (error);
    return FALSE;
  }
  if (bytes > G_MAXSIZE)
    return FALSE;
  *othersize = (gsize) bytes;
  return TRUE;
}

/* ---- allocation: device-importable pools --------------------------------- */

/* Upstream gets a pool of device-importable memory the size of our input,
 * aligned for the tiles: buffers from it reach the device with no copy. */
static gboolean
gst_sima_base_transform_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstSimaBaseTransform *self = GST_SIMA_BASE_TRANSFORM (trans);
  GstAllocator *allocator = gst_sima_dmabuf_allocator_get ();
  GstAllocationParams params;
  gboolean need_pool;
  GstCaps *caps;
  guint64 bytes = 0;

  gst_allocation_params_init (&params);
  params.align = DEVICE_ALIGN_MASK;
  gst_query_add_allocation_param (query, allocator, &params);
  gst_object_unref (allocator);
  gst_query_parse_allocation (query, &caps, &need_pool);
  /* padded rows and pooled frames come with a GstVideoMeta, read per
   * buffer: no copy to a tight layout upstream */
  if (caps != NULL && gst_caps_get_size (caps) > 0
      && gst_sima_video_is_video (gst_caps_get_structure (caps, 0)))
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  if (!need_pool || caps == NULL
      || !gst_sima_caps_required_bytes (caps, &bytes, NULL))
    return TRUE;
  if (bytes > G_MAXUINT) {
    GST_DEBUG_OBJECT (self, "no pool for %" G_GUINT64_FORMAT "-byte buffers",
        bytes);
    return TRUE;
  }
  {
    GstBufferPool *pool = gst_sima_dmabuf_pool_new (caps,
        (guint) MAX (bytes, 1), OUR_POOL_MIN, 0);
    if (pool != NULL) {
      gst_query_add_allocation_pool (query, pool, (guint) MAX (bytes, 1),
          OUR_POOL_MIN, 0);
      gst_object_unref (pool);
    }
  }
  return TRUE;
}

/* TRUE when the pool's memories are fd memory the device can import. */
static gboolean
pool_is_importable (GstBufferPool * pool)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstAllocator *allocator = NULL;
  gboolean importable;

  gst_buffer_pool_config_get_allocator (config, &allocator, NULL);
  importable = allocator != NULL && GST_IS_FD_ALLOCATOR (allocator);
  gst_structure_free (config);
  return importable;
}

/* Configures downstream's pool for our buffers, as GstBaseTransform's
 * default does: our size and alignment; if it will not take them, its
 * own configuration if that still holds them. FALSE: do not use it. */
static gboolean
configure_peer_pool (GstSimaBaseTransform * self, GstBufferPool * pool,
    GstCaps * caps, guint size, guint min, guint max)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstAllocator *allocator = NULL;
  GstAllocationParams params;

  gst_buffer_pool_config_get_allocator (config, &allocator, &params);
  params.align |= DEVICE_ALIGN_MASK;
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  gst_buffer_pool_config_set_allocator (config, allocator, &params);
  if (gst_buffer_pool_set_config (pool, config))
    return TRUE;
  /* the pool may have adjusted the configuration: take it if it still
   * holds our buffers */
  config = gst_buffer_pool_get_config (pool);
  if (!gst_buffer_pool_config_validate_params (config, caps, size, min, max))
    gst_structure_free (config);
  else if (gst_buffer_pool_set_config (pool, config))   /* takes config */
    return TRUE;
  GST_DEBUG_OBJECT (self, "downstream's pool refuses our configuration: "
      "using our own");
  return FALSE;
}

/* Output buffers: downstream's pool if its memories are device-importable
 * and it takes (or already has) a configuration for our buffers, else our
 * own pool. */
static gboolean
gst_sima_base_transform_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstSimaBaseTransform *self = GST_SIMA_BASE_TRANSFORM (trans);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  guint size = (guint) MAX (priv->out_bytes, 1), min = 0, max = 0;
  GstBufferPool *pool = NULL;
  GstCaps *caps;

  /* our output is a new tensor: no allocation meta of downstream's applies
   * to anything we write */
  while (gst_query_get_n_allocation_metas (query) > 0)
    gst_query_remove_nth_allocation_meta (query, 0);
  gst_query_parse_allocation (query, &caps, NULL);
  if (gst_query_get_n_allocation_pools (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, &min, &max);
    if (pool != NULL && (!pool_is_importable (pool)
            || !configure_peer_pool (self, pool, caps, size, min, max)))
      gst_clear_object (&pool);
  }
  if (pool == NULL) {
    min = MAX (min, OUR_POOL_MIN);
    max = 0;
    pool = gst_sima_dmabuf_pool_new (caps, size, min, max);
    if (pool == NULL) {
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
          ("cannot configure a pool of %u-byte output buffers", size),
          (NULL));
      return FALSE;
    }
    GST_DEBUG_OBJECT (self, "our own pool: at least %u buffers of %u bytes",
        min, size);
  }
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}

/* An empty tensor is a buffer without memory, not a 1-byte pool buffer. */
static GstFlowReturn
gst_sima_base_transform_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * input, GstBuffer ** outbuf)
{
  GstSimaBaseTransformPrivate *priv = PRIV (GST_SIMA_BASE_TRANSFORM (trans));

  if (priv->out_bytes > 0)
    return GST_BASE_TRANSFORM_CLASS (gst_sima_base_transform_parent_class)->
        prepare_output_buffer (trans, input, outbuf);
  *outbuf = gst_buffer_new ();
  /* flags, timestamps and the metas transform_meta lets through (not the
   * upstream converter's timing meta) */
  GST_BASE_TRANSFORM_GET_CLASS (trans)->copy_metadata (trans, input, *outbuf);
  return GST_FLOW_OK;
}

/* ---- processing ---------------------------------------------------------- */

static void
count (GstSimaBaseTransform * self, guint64 * counter, guint n)
{
  GST_OBJECT_LOCK (self);
  *counter += n;
  GST_OBJECT_UNLOCK (self);
}

static guint64
clock_ns (clockid_t clock)
{
  struct timespec ts;

  clock_gettime (clock, &ts);
  return (guint64) ts.tv_sec * GST_SECOND + (guint64) ts.tv_nsec;
}

/* The A65 path: the CPU reads the input and writes the output (the
 * allocators' map functions synchronise DMA-BUFs for CPU access).
 * *process_ns: the kernel's execution (realignment included), wall
 * clock. */
static GstFlowReturn
run_a65 (GstSimaBaseTransform * self, GstBuffer * inbuf, GstBuffer * outbuf,
    guint64 * process_ns)
{
  GstSimaBaseTransformClass *klass = GST_SIMA_BASE_TRANSFORM_GET_CLASS (self);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  GstMapInfo in, out;
  const gchar *unmapped = "input";
  SimaA65Threads *pool;
  guint threads;
  guint64 start;
  SimaStatus st;

  *process_ns = 0;
  /* a change of the property while running takes effect here, between
   * two executions of this thread, so no execution runs on a pool being
   * replaced */
  threads = (guint) g_atomic_int_get (&priv->threads);
  if (!gst_sima_a65_pool_get (&priv->a65_pool, GST_ELEMENT (self),
          element_category (self), threads, &pool))
    return GST_FLOW_ERROR;
  if (!gst_buffer_map (inbuf, &in, GST_MAP_READ))
    goto map_failed;
  if (!gst_buffer_map (outbuf, &out, GST_MAP_WRITE)) {
    gst_buffer_unmap (inbuf, &in);
    unmapped = "output";
    goto map_failed;
  }

  start = clock_ns (CLOCK_MONOTONIC);
  st = klass->execute_a65 (self, pool, in.data, in.size, out.data,
      out.size);
  if (st.code == SIMA_MISALIGNED_BUFFER) {
    /* GStreamer promises 8-byte aligned memory; tiles need more. An
     * aligned copy of the input (counted) rather than an error. */
    gpointer copy = g_try_malloc (in.size + DEVICE_ALIGN_MASK);
    if (copy != NULL) {
      guint8 *aligned = (guint8 *) (((guintptr) copy + DEVICE_ALIGN_MASK)
          & ~(guintptr) DEVICE_ALIGN_MASK);
      memcpy (aligned, in.data, in.size);
      count (self, &priv->copies, 1);
      GST_LOG_OBJECT (self, "copied %" G_GSIZE_FORMAT " bytes of misaligned "
          "input", in.size);
      st = klass->execute_a65 (self, pool, aligned, in.size, out.data,
          out.size);
      g_free (copy);
    }
  }
  *process_ns = clock_ns (CLOCK_MONOTONIC) - start;
  gst_buffer_unmap (outbuf, &out);
  gst_buffer_unmap (inbuf, &in);
  if (st.code != SIMA_OK)
    goto failed;
  return GST_FLOW_OK;

  /* ERRORS */
map_failed:
  GST_ELEMENT_ERROR (self, STREAM, FAILED, ("cannot map the %s buffer",
          unmapped), (NULL));
  return GST_FLOW_ERROR;
failed:
  GST_ELEMENT_ERROR (self, STREAM, FAILED,
      ("%s failed on the A65: %s", klass->op_name, st.message),
      ("status %s", sima_status_code_name (st.code)));
  return GST_FLOW_ERROR;
}

/* The processing latency is measured: the longest transform() of the last
 * LATENCY_WINDOW buffers. A live pipeline is told when it grows (the
 * application recalculates, as gst-launch-1.0 does) and asks again. */
static void
note_latency (GstSimaBaseTransform * self, GstClockTime took)
{
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  gboolean announce = FALSE;
  GstClockTime longest = 0;
  guint i, n;

  GST_OBJECT_LOCK (self);
  priv->recent[priv->n_recent++ % LATENCY_WINDOW] = took;
  n = MIN (priv->n_recent, LATENCY_WINDOW);
  for (i = 0; i < n; i++)
    longest = MAX (longest, priv->recent[i]);
  priv->latency = longest;
  if (priv->live && longest > priv->latency_announced * LATENCY_GROWTH) {
    priv->latency_announced = longest;
    announce = TRUE;
  }
  GST_OBJECT_UNLOCK (self);
  if (announce) {
    GST_DEBUG_OBJECT (self, "processing latency now %" GST_TIME_FORMAT,
        GST_TIME_ARGS (took));
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_latency (GST_OBJECT (self)));
  }
}

/* CAPS: without mixed SiMa/canonical structures. LATENCY: what upstream
 * said plus the measured processing latency, when the pipeline is live (a
 * non-live pipeline has no use for it). */
static gboolean
gst_sima_base_transform_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query)
{
  GstSimaBaseTransform *self = GST_SIMA_BASE_TRANSFORM (trans);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  GstClockTime min, max, latency;
  gboolean live;

  if (direction == GST_PAD_SINK && priv->runner != NULL
      && (GST_QUERY_TYPE (query) == GST_QUERY_DRAIN
          || GST_QUERY_TYPE (query) == GST_QUERY_ALLOCATION)) {
    /* serialized, but queries do not take the stream lock: take it, so
     * the retire thread is out of the way */
    GST_PAD_STREAM_LOCK (GST_BASE_TRANSFORM_SINK_PAD (trans));
    if (window_length (self) > 0)
      drain_window (self, GST_QUERY_TYPE_NAME (query));
    GST_PAD_STREAM_UNLOCK (GST_BASE_TRANSFORM_SINK_PAD (trans));
  }
  if (!GST_BASE_TRANSFORM_CLASS (gst_sima_base_transform_parent_class)->query
      (trans, direction, query))
    return FALSE;
  if (GST_QUERY_TYPE (query) == GST_QUERY_CAPS) {
    /* what we offer a peer is our tensors or SiMa's, never a mix */
    GstCaps *caps;
    gst_query_parse_caps_result (query, &caps);
    if (caps != NULL) {
      caps = gst_sima_dialect_drop_mixed (gst_caps_ref (caps));
      gst_query_set_caps_result (query, caps);
      gst_caps_unref (caps);
    }
    return TRUE;
  }
  if (direction != GST_PAD_SRC || GST_QUERY_TYPE (query) != GST_QUERY_LATENCY)
    return TRUE;

  gst_query_parse_latency (query, &live, &min, &max);
  GST_OBJECT_LOCK (trans);
  priv->live = live;
  latency = priv->latency;
  priv->latency_announced = latency;
  GST_OBJECT_UNLOCK (trans);
  if (live) {
    min += latency;
    if (GST_CLOCK_TIME_IS_VALID (max))
      max += latency;
    gst_query_set_latency (query, live, min, max);
  }
  GST_DEBUG_OBJECT (self, "latency: live %d, processing %" GST_TIME_FORMAT
      ", min %" GST_TIME_FORMAT " max %" GST_TIME_FORMAT, live,
      GST_TIME_ARGS (latency), GST_TIME_ARGS (min), GST_TIME_ARGS (max));
  return TRUE;
}

/* Before a buffer is converted: a parameter that changed while running
 * (this buffer uses the new value), the frame's own layout, and the
 * buffers' sizes. Posts the error. */
static GstFlowReturn
prepare_buffer (GstSimaBaseTransform * self, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstSimaBaseTransformClass *klass = GST_SIMA_BASE_TRANSFORM_GET_CLASS (self);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  gsize in_size = gst_buffer_get_size (inbuf);
  gsize out_size;
  gchar *why = NULL;
  SimaStatus st;

  if (g_atomic_int_compare_and_exchange (&priv->params_dirty, 1, 0)) {
    /* a parameter changed while running: this buffer uses the new value
     * (jobs already in flight keep the descriptor they were submitted
     * with: the device copied it) */
    st = configure (self);
    if (st.code != SIMA_OK)
      goto bad_params;
  }
  if (priv->video_in) {
    /* the frame's own layout: its GstVideoMeta, or the caps' layout when it
     * has none (a pool may attach metas to some buffers only); the plan
     * follows it, prepared again only when it changes, so a pool's frames
     * cost nothing after the first */
    GstVideoMeta *meta = gst_buffer_get_video_meta (inbuf);
    SimaTensorSet set, old;

    if (!gst_sima_video_to_set (&priv->video_info, meta, &set, &why))
      goto bad_frame;
    if (memcmp (&set, &priv->in_set, sizeof set) != 0) {
      GST_DEBUG_OBJECT (self, "this frame's layout moves the view");
      old = priv->in_set;
      priv->in_set = set;
      st = configure (self);
      if (st.code != SIMA_OK) {
        /* the next buffer prepares again rather than run on a plan that
         * may be half written */
        priv->in_set = old;
        g_atomic_int_set (&priv->params_dirty, 1);
        goto bad_params;
      }
    }
  }
  out_size = gst_buffer_get_size (outbuf);
  if (in_size < priv->in_bytes || out_size < priv->out_bytes)
    goto wrong_size;
  return GST_FLOW_OK;

  /* ERRORS */
bad_frame:
  {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("%s cannot read this frame: %s",
            klass->op_name, why), (NULL));
    g_free (why);
    return GST_FLOW_ERROR;
  }
bad_params:
  {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("%s cannot use the new parameters: %s", klass->op_name, st.message),
        ("status %s", sima_status_code_name (st.code)));
    return GST_FLOW_ERROR;
  }
wrong_size:
  {
    gboolean input = in_size < priv->in_bytes;
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("%s: the %s buffer has %" G_GSIZE_FORMAT " bytes, the caps need %"
            G_GUINT64_FORMAT, klass->op_name, input ? "input" : "output",
            input ? in_size : out_size,
            input ? priv->in_bytes : priv->out_bytes), (NULL));
    return GST_FLOW_ERROR;
  }
}

/* The A65 path (GstBaseTransform's own generate_output calls it): one
 * buffer at a time, in the streaming thread. */
static GstFlowReturn
gst_sima_base_transform_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstSimaBaseTransform *self = GST_SIMA_BASE_TRANSFORM (trans);
  GstSimaBaseTransformClass *klass = GST_SIMA_BASE_TRANSFORM_GET_CLASS (self);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  guint64 wall = clock_ns (CLOCK_MONOTONIC);
  guint64 cpu = clock_ns (CLOCK_THREAD_CPUTIME_ID);
  guint64 copies;
  GstSimaTiming timing = { 0 };
  GstFlowReturn ret;

  ret = prepare_buffer (self, inbuf, outbuf);
  if (ret != GST_FLOW_OK)
    return ret;
  GST_OBJECT_LOCK (self);
  copies = priv->copies;
  GST_OBJECT_UNLOCK (self);
  ret = run_a65 (self, inbuf, outbuf, &timing.process_ns);
  if (ret != GST_FLOW_OK)
    return ret;

  timing.element = GST_OBJECT_NAME (self);
  timing.op = klass->op_name;
  timing.bytes_in = priv->in_bytes;
  timing.bytes_out = priv->out_bytes;
  GST_OBJECT_LOCK (self);
  timing.backend = priv->active_nick;
  timing.copies = (guint) (priv->copies - copies);
  GST_OBJECT_UNLOCK (self);
  timing.cpu_ns = clock_ns (CLOCK_THREAD_CPUTIME_ID) - cpu;
  gst_sima_buffer_add_timing (outbuf, &timing);
  note_latency (self, clock_ns (CLOCK_MONOTONIC) - wall);
  return GST_FLOW_OK;
}

/* ---- jobs in flight (the EV74 path) --------------------------------------
 *
 * submit_input_buffer binds and submits each buffer's job and appends a
 * Slot to the window; generate_output hands back the oldest output once
 * max-inflight jobs are in flight (GstBaseTransform's chain pushes it), and
 * arms the retire thread otherwise, which pushes outputs whose jobs have
 * retired while the streaming thread is elsewhere (an application that
 * waits for each output before it pushes the next input is served as
 * before). Both push under the sink pad's stream lock, so outputs leave in
 * input order, and never between a serialized event and the buffers before
 * it: every serialized event (EOS, CAPS, SEGMENT, GAP, custom), set_caps
 * and DRAIN and ALLOCATION queries drain the window first. A flush, a stop
 * and an error abandon the window: the runner hands each job that has not
 * retired to its reaper with every buffer it touches. */

static guint
window_length (GstSimaBaseTransform * self)
{
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  guint n;

  g_mutex_lock (&priv->window_lock);
  n = priv->window.length;
  g_mutex_unlock (&priv->window_lock);
  return n;
}

static Slot *
window_pop (GstSimaBaseTransform * self)
{
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  Slot *slot;

  g_mutex_lock (&priv->window_lock);
  slot = g_queue_pop_head (&priv->window);
  if (slot != NULL && priv->window.head != NULL) {
    /* the next job's timeout counts from here: it may have waited behind
     * this element's earlier jobs until now */
    Slot *next = priv->window.head->data;
    if (next->ticket != NULL)
      gst_sima_ev74_ticket_restart_timeout (next->ticket);
  }
  g_mutex_unlock (&priv->window_lock);
  return slot;
}

/* The retire thread watches the oldest slot. */
static void
arm_retire (GstSimaBaseTransform * self)
{
  GstSimaBaseTransformPrivate *priv = PRIV (self);

  g_mutex_lock (&priv->window_lock);
  if (priv->window.length > 0 && priv->retire_thread != NULL) {
    priv->retire_armed = TRUE;
    g_cond_signal (&priv->window_cond);
  }
  g_mutex_unlock (&priv->window_lock);
}

static void
slot_abandon (GstSimaBaseTransform * self, Slot * slot)
{
  GstSimaBaseTransformPrivate *priv = PRIV (self);

  if (slot->ticket != NULL) {
    if (priv->runner != NULL)
      gst_sima_ev74_runner_abandon (priv->runner, slot->ticket);
    else                        /* cannot happen: never free it, though */
      GST_ERROR_OBJECT (self, "a job in flight outlived its runner: its "
          "buffers are kept for good");
  }
  gst_buffer_unref (slot->out);
  g_free (slot);
}

/* Every job in flight is given up (a flush, a stop, an error): nothing of
 * theirs is pushed, and their buffers stay with the device (the reaper)
 * until it retires them. */
static void
window_abandon_all (GstSimaBaseTransform * self, const gchar * why)
{
  Slot *slot;
  guint n = 0;

  while ((slot = window_pop (self)) != NULL) {
    slot_abandon (self, slot);
    n++;
  }
  if (n > 0)
    GST_DEBUG_OBJECT (self, "%s: gave up %u EV74 job(s) in flight", why, n);
}

/* A bounded output pool (downstream's DMA-BUF pool) may have no buffer
 * left while finished outputs wait in the window for the retire thread,
 * which needs the stream lock this thread holds: the outputs go out first,
 * oldest first, until the pool has a buffer or the window is empty. */
static GstFlowReturn
make_room (GstSimaBaseTransform * self)
{
  GstBufferPool *pool;
  GstFlowReturn ret = GST_FLOW_OK;
  GstBuffer *out;

  if (window_length (self) == 0)
    return GST_FLOW_OK;
  pool = gst_base_transform_get_buffer_pool (GST_BASE_TRANSFORM (self));
  if (pool == NULL)
    return GST_FLOW_OK;         /* allocated per buffer: never blocks */
  while (ret == GST_FLOW_OK && window_length (self) > 0) {
    GstBufferPoolAcquireParams params = { 0, };
    GstBuffer *probe = NULL;

    params.flags = GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT;
    if (gst_buffer_pool_acquire_buffer (pool, &probe, &params)
        == GST_FLOW_OK) {
      /* back to the pool, for prepare_output_buffer: only this element
       * acquires from it */
      gst_buffer_unref (probe);
      break;
    }
    ret = retire_oldest (self, &out);
    if (ret == GST_FLOW_OK)
      ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), out);
  }
  if (ret != GST_FLOW_OK)
    window_abandon_all (self, "making room in the output pool");
  gst_object_unref (pool);
  return ret;
}

/* Binds, stages and submits inbuf's job (consumed) into a new Slot at the
 * end of the window. Posts the error. When preparing the buffer moved the
 * element to the A65 (a frame's layout the device cannot take, with
 * fallback=a65), inbuf goes back to trans->queued_buf for GstBaseTransform's
 * own generate_output. */
static GstFlowReturn
submit_ev74 (GstSimaBaseTransform * self, GstBuffer * inbuf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstSimaBaseTransformClass *klass = GST_SIMA_BASE_TRANSFORM_GET_CLASS (self);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  guint64 wall = clock_ns (CLOCK_MONOTONIC);
  guint64 cpu = clock_ns (CLOCK_THREAD_CPUTIME_ID);
  GstSimaEv74Ticket *ticket = NULL;
  GstBuffer *outbuf = NULL;
  GstSimaRunResult result;
  GstSimaRunStats stats;
  GstFlowReturn ret;
  guint timeout_ms;
  SimaStatus st;
  Slot *slot;

  ret = make_room (self);
  if (ret != GST_FLOW_OK) {
    gst_buffer_unref (inbuf);
    return ret;
  }
  /* GstBaseTransform's allocation and metadata (flags, timestamps, the
   * metas transform_meta lets through) */
  ret = GST_BASE_TRANSFORM_GET_CLASS (trans)->prepare_output_buffer (trans,
      inbuf, &outbuf);
  if (ret != GST_FLOW_OK || outbuf == NULL) {
    GST_WARNING_OBJECT (self, "no output buffer: %s", gst_flow_get_name (ret));
    gst_buffer_unref (inbuf);
    return ret != GST_FLOW_OK ? ret : GST_FLOW_ERROR;
  }
  ret = prepare_buffer (self, inbuf, outbuf);
  if (ret != GST_FLOW_OK)
    goto done;
  if (priv->runner == NULL) {
    /* configure () fell back to the A65 (the window was drained first):
     * this buffer is converted there, by GstBaseTransform's generate */
    GST_DEBUG_OBJECT (self, "fell back to the A65 for this buffer");
    gst_clear_buffer (&outbuf);
    trans->queued_buf = inbuf;
    return GST_FLOW_OK;
  }
  GST_OBJECT_LOCK (self);
  timeout_ms = priv->timeout_ms;
  GST_OBJECT_UNLOCK (self);
  result = gst_sima_ev74_runner_submit (priv->runner, inbuf, outbuf,
      timeout_ms, &ticket, &stats, &st);
  GST_OBJECT_LOCK (self);       /* both counters, one lock per buffer */
  priv->copies += stats.copies;
  priv->imports += stats.imports;
  GST_OBJECT_UNLOCK (self);
  if (result == GST_SIMA_RUN_FLUSHING) {
    ret = GST_FLOW_FLUSHING;
    goto done;
  }
  if (result != GST_SIMA_RUN_OK) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("%s failed on the EV74: %s", klass->op_name, st.message),
        ("status %s", sima_status_code_name (st.code)));
    ret = GST_FLOW_ERROR;
    goto done;
  }
  slot = g_new0 (Slot, 1);
  slot->ticket = ticket;
  slot->out = g_steal_pointer (&outbuf);
  slot->stats = stats;
  slot->bytes_in = priv->in_bytes;
  slot->bytes_out = priv->out_bytes;
  slot->timeout_ms = timeout_ms;
  slot->host_ns = clock_ns (CLOCK_MONOTONIC) - wall;
  slot->cpu_ns = clock_ns (CLOCK_THREAD_CPUTIME_ID) - cpu;
  g_mutex_lock (&priv->window_lock);
  g_queue_push_tail (&priv->window, slot);
  g_mutex_unlock (&priv->window_lock);

done:
  gst_clear_buffer (&outbuf);
  gst_buffer_unref (inbuf);
  return ret;
}

/* Finishes slot (consumed): on GST_FLOW_OK its output, with its timing
 * meta, in *outbuf. A failed job posts the flow's one error, gives up the
 * rest of the window and fails the flow until a flush or a restart. */
static GstFlowReturn
retire_slot (GstSimaBaseTransform * self, Slot * slot, GstBuffer ** outbuf)
{
  GstSimaBaseTransformClass *klass = GST_SIMA_BASE_TRANSFORM_GET_CLASS (self);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  guint64 cpu = clock_ns (CLOCK_THREAD_CPUTIME_ID);
  GstSimaRunStats stats;
  GstSimaRunResult result;
  GstSimaTiming timing = { 0 };
  SimaStatus st;

  *outbuf = NULL;
  memset (&stats, 0, sizeof stats);
  result = gst_sima_ev74_runner_finish (priv->runner, slot->ticket, &stats,
      &st);
  slot->ticket = NULL;          /* consumed */
  if (stats.copies > 0)
    count (self, &priv->copies, stats.copies);
  switch (result) {
    case GST_SIMA_RUN_OK:
      break;
    case GST_SIMA_RUN_FLUSHING:
      GST_DEBUG_OBJECT (self, "flushing: left the EV74 job to finish on its "
          "own");
      gst_buffer_unref (slot->out);
      g_free (slot);
      return GST_FLOW_FLUSHING;
    case GST_SIMA_RUN_TIMEOUT:
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
          ("%s: the EV74 did not finish within %u ms (timeout property)",
              klass->op_name, slot->timeout_ms), ("%s", st.message));
      goto failed;
    case GST_SIMA_RUN_FAILED:
    default:
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
          ("%s failed on the EV74: %s", klass->op_name, st.message),
          ("status %s", sima_status_code_name (st.code)));
      goto failed;
  }

  timing.element = GST_OBJECT_NAME (self);
  timing.op = klass->op_name;
  timing.bytes_in = slot->bytes_in;
  timing.bytes_out = slot->bytes_out;
  timing.process_ns = stats.device_ns;
  timing.estimated_ns = stats.estimated_ns;
  timing.copies = slot->stats.copies + stats.copies;
  GST_OBJECT_LOCK (self);
  timing.backend = priv->active_nick;
  GST_OBJECT_UNLOCK (self);
  timing.cpu_ns = slot->cpu_ns + (clock_ns (CLOCK_THREAD_CPUTIME_ID) - cpu);
  *outbuf = slot->out;
  gst_sima_buffer_add_timing (*outbuf, &timing);
  /* the buffer's conversion: the host's part of the submit, the device's
   * submit to retirement, and a staged result's copy out; not the time
   * its output waited in the window after its job retired */
  note_latency (self, slot->host_ns + stats.device_ns + stats.copy_ns);
  g_free (slot);
  return GST_FLOW_OK;

failed:
  gst_buffer_unref (slot->out);
  g_free (slot);
  window_abandon_all (self, "after a failed job");
  priv->sticky = GST_FLOW_ERROR;
  return GST_FLOW_ERROR;
}

static GstFlowReturn
retire_oldest (GstSimaBaseTransform * self, GstBuffer ** outbuf)
{
  Slot *slot = window_pop (self);

  if (slot == NULL) {
    *outbuf = NULL;
    return GST_FLOW_OK;
  }
  return retire_slot (self, slot, outbuf);
}

/* Waits for every job in flight and pushes their outputs, in order (with
 * the stream lock). What fails gives up the rest. */
static GstFlowReturn
drain_window (GstSimaBaseTransform * self, const gchar * why)
{
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  GstFlowReturn ret = GST_FLOW_OK;
  GstBuffer *out;
  guint n = 0;

  if (window_length (self) == 0)
    return priv->sticky;
  while (ret == GST_FLOW_OK && window_length (self) > 0) {
    ret = retire_oldest (self, &out);
    if (ret == GST_FLOW_OK) {
      ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), out);
      n++;
    }
  }
  if (ret != GST_FLOW_OK)
    window_abandon_all (self, "the drain stopped");
  priv->sync_next = FALSE;
  GST_DEBUG_OBJECT (self, "%s: drained %u output(s): %s", why, n,
      gst_flow_get_name (ret));
  return ret;
}

/* The retire thread's turn (with the stream lock): pushes the outputs at
 * the head of the window whose jobs have retired (or outlived their
 * timeout, which then fails the flow), and watches the next one. */
static void
push_retired (GstSimaBaseTransform * self)
{
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  GstFlowReturn ret;
  GstBuffer *out;

  while (!g_atomic_int_get (&priv->window_flushing)
      && priv->sticky == GST_FLOW_OK) {
    gboolean ready;
    Slot *head;

    g_mutex_lock (&priv->window_lock);
    head = g_queue_peek_head (&priv->window);
    ready = head != NULL && (head->ticket == NULL
        || gst_sima_ev74_ticket_wait (head->ticket, 0)
        || g_get_monotonic_time () >=
        gst_sima_ev74_ticket_deadline (head->ticket));
    if (head != NULL && !ready) {
      priv->retire_armed = TRUE;
      g_cond_signal (&priv->window_cond);
    }
    g_mutex_unlock (&priv->window_lock);
    if (!ready)
      return;
    ret = retire_oldest (self, &out);
    if (ret == GST_FLOW_OK) {
      GST_LOG_OBJECT (self, "pushing a retired output from the retire "
          "thread");
      ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), out);
    }
    if (ret != GST_FLOW_OK) {
      /* the next chain returns it (a flush resets the flow anyway) */
      if (ret != GST_FLOW_FLUSHING && priv->sticky == GST_FLOW_OK)
        priv->sticky = ret;
      return;
    }
  }
}

static gpointer
retire_main (gpointer data)
{
  GstSimaBaseTransform *self = data;
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  GstPad *sinkpad = GST_BASE_TRANSFORM_SINK_PAD (self);

  g_mutex_lock (&priv->window_lock);
  for (;;) {
    GstSimaEv74Ticket *watched = NULL;
    gint64 deadline = G_MAXINT64;
    Slot *head;

    while (!g_atomic_int_get (&priv->retire_quit) && !priv->retire_armed)
      g_cond_wait (&priv->window_cond, &priv->window_lock);
    if (g_atomic_int_get (&priv->retire_quit))
      break;
    priv->retire_armed = FALSE;
    if ((head = g_queue_peek_head (&priv->window)) == NULL)
      continue;
    if (head->ticket != NULL) {
      /* a reference: the slot may be retired by the streaming thread
       * meanwhile, the job stays alive for this wait */
      watched = gst_sima_ev74_ticket_ref (head->ticket);
      deadline = gst_sima_ev74_ticket_deadline (watched);
    }
    g_mutex_unlock (&priv->window_lock);
    while (watched != NULL
        && !gst_sima_ev74_ticket_wait (watched, RETIRE_SLICE_NS)
        && g_get_monotonic_time () < deadline
        && !g_atomic_int_get (&priv->retire_quit)
        && !g_atomic_int_get (&priv->window_flushing)) {
    }
    gst_sima_ev74_ticket_unref (watched);
    if (!g_atomic_int_get (&priv->retire_quit)
        && !g_atomic_int_get (&priv->window_flushing)) {
      GST_PAD_STREAM_LOCK (sinkpad);
      push_retired (self);
      GST_PAD_STREAM_UNLOCK (sinkpad);
    }
    g_mutex_lock (&priv->window_lock);
  }
  g_mutex_unlock (&priv->window_lock);
  return NULL;
}

static void
retire_start (GstSimaBaseTransform * self)
{
  GstSimaBaseTransformPrivate *priv = PRIV (self);

  g_atomic_int_set (&priv->retire_quit, 0);
  priv->retire_armed = FALSE;
  priv->retire_thread = g_thread_new ("simaretire", retire_main, self);
}

/* Never waits for the device: the thread notices within a slice. */
static void
retire_stop (GstSimaBaseTransform * self)
{
  GstSimaBaseTransformPrivate *priv = PRIV (self);

  if (priv->retire_thread == NULL)
    return;
  g_mutex_lock (&priv->window_lock);
  g_atomic_int_set (&priv->retire_quit, 1);
  g_cond_broadcast (&priv->window_cond);
  g_mutex_unlock (&priv->window_lock);
  g_thread_join (priv->retire_thread);
  priv->retire_thread = NULL;
}

/* GstBaseTransform's own submit (QoS, a pending renegotiation, which
 * drains in set_caps), then, on the EV74, this buffer's job. */
static GstFlowReturn
gst_sima_base_transform_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  GstSimaBaseTransform *self = GST_SIMA_BASE_TRANSFORM (trans);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  GstFlowReturn ret;

  if (priv->runner != NULL && priv->sticky != GST_FLOW_OK) {
    /* what a push outside the chain returned, or a failed flow */
    ret = priv->sticky;
    if (ret != GST_FLOW_ERROR && ret > GST_FLOW_NOT_NEGOTIATED)
      priv->sticky = GST_FLOW_OK;
    gst_buffer_unref (input);
    return ret;
  }
  if (is_discont && window_length (self) > 0) {
    /* GstBaseTransform marks the next output it pushes DISCONT: that must
     * be this buffer's, so the outputs before it go out first */
    ret = drain_window (self, "discontinuity");
    if (ret != GST_FLOW_OK) {
      gst_buffer_unref (input);
      return ret;
    }
  }
  ret = GST_BASE_TRANSFORM_CLASS (gst_sima_base_transform_parent_class)->
      submit_input_buffer (trans, is_discont, input);
  /* a renegotiation before this buffer (reconfigure) was refused */
  if (ret == GST_FLOW_NOT_NEGOTIATED)
    post_caps_error (self);
  if (ret != GST_FLOW_OK || priv->runner == NULL)
    return ret;                 /* the A65: GstBaseTransform's generate */
  ret = submit_ev74 (self, g_steal_pointer (&trans->queued_buf));
  if (ret == GST_FLOW_ERROR)
    window_abandon_all (self, "after an error");
  priv->sync_next = is_discont;
  return ret;
}

/* The oldest output once max-inflight jobs are in flight (or at once when
 * this buffer's output must be the next one pushed); else nothing, and
 * the retire thread watches the oldest. */
static GstFlowReturn
gst_sima_base_transform_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  GstSimaBaseTransform *self = GST_SIMA_BASE_TRANSFORM (trans);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  GstFlowReturn ret;
  guint n, max;

  n = window_length (self);
  if (priv->runner == NULL && n == 0)
    return GST_BASE_TRANSFORM_CLASS (gst_sima_base_transform_parent_class)->
        generate_output (trans, outbuf);
  *outbuf = NULL;
  if (n == 0)
    return GST_FLOW_OK;
  GST_OBJECT_LOCK (self);
  max = priv->max_inflight;
  GST_OBJECT_UNLOCK (self);
  if (priv->sync_next || n >= max || priv->runner == NULL) {
    ret = retire_oldest (self, outbuf);
    if (window_length (self) == 0)
      priv->sync_next = FALSE;
    return ret;
  }
  arm_retire (self);
  return GST_FLOW_OK;
}

/* ---- type ---------------------------------------------------------------- */

static void
gst_sima_base_transform_finalize (GObject * object)
{
  GstSimaBaseTransformPrivate *priv = PRIV (GST_SIMA_BASE_TRANSFORM (object));

  gst_sima_a65_pool_clear (&priv->a65_pool);
  g_free (priv->device);
  g_free (priv->caps_error);
  g_free (priv->caps_error_posted);
  g_mutex_clear (&priv->runner_lock);
  g_mutex_clear (&priv->window_lock);
  g_cond_clear (&priv->window_cond);
  G_OBJECT_CLASS (gst_sima_base_transform_parent_class)->finalize (object);
}

static void
gst_sima_base_transform_class_init (GstSimaBaseTransformClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_sima_base_transform_set_property;
  gobject_class->get_property = gst_sima_base_transform_get_property;
  gobject_class->finalize = gst_sima_base_transform_finalize;

  /**
   * GstSimaBaseTransform:backend:
   *
   * Where the conversion runs: `ev74` (the default) submits it to the EV74
   * vector DSP through the device API; `a65` runs it on the CPU. Read at
   * start; a change while the element runs is refused with a warning.
   */
  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where the conversion runs (read when the element starts)",
          GST_TYPE_SIMA_BACKEND, DEFAULT_BACKEND,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSimaBaseTransform:fallback:
   *
   * What to do when backend=ev74 and the device cannot be opened or lacks
   * the operation's capability: `none` (the default) fails at start with an
   * error naming the capability; `a65` posts one warning and runs on the
   * CPU. A malformed device spec is an error either way. Read at start; a
   * change while the element runs is refused with a warning.
   */
  g_object_class_install_property (gobject_class, PROP_FALLBACK,
      g_param_spec_enum ("fallback", "Fallback",
          "What to do when the EV74 cannot run the operation",
          GST_TYPE_SIMA_FALLBACK, DEFAULT_FALLBACK,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSimaBaseTransform:device:
   *
   * The EV74 transport: `emulator`, `emulator:workers=4`, ... or a platform
   * device path. Unset: the environment variable SIMA_EV74_DEVICE, else
   * /dev/simaai-ev74. Elements with the same device share it. Read at
   * start; a change while the element runs is refused with a warning.
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "EV74 transport spec, e.g. emulator or emulator:workers=4 "
          "(default: $SIMA_EV74_DEVICE, else " SIMA_EV74_PLATFORM_DEVICE ")",
          NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSimaBaseTransform:timeout:
   *
   * Milliseconds to wait for an EV74 job before failing with an error,
   * counted from its submission or, with jobs in flight (max-inflight),
   * from the moment the element's job before it retired. The buffers of a
   * job that timed out stay with the device until it finishes. Read per
   * buffer: a change applies to the next one.
   */
  g_object_class_install_property (gobject_class, PROP_TIMEOUT,
      g_param_spec_uint ("timeout", "Timeout",
          "Milliseconds to wait for an EV74 job before failing",
          1, 600000, DEFAULT_TIMEOUT_MS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSimaBaseTransform:active-backend:
   *
   * Where the element runs since it started: `ev74`, `a65` (asked for),
   * `a65-fallback` (the EV74 could not, fallback=a65), or `none`.
   */
  g_object_class_install_property (gobject_class, PROP_ACTIVE_BACKEND,
      g_param_spec_enum ("active-backend", "Active backend",
          "Where the element runs since it started (read-only)",
          GST_TYPE_SIMA_ACTIVE_BACKEND, GST_SIMA_ACTIVE_NONE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  /**
   * GstSimaBaseTransform:copies:
   *
   * Buffers copied since the element started: input the EV74 cannot read
   * in place (system memory, several memories, or fd memory at an offset
   * that breaks the tiles' 16-byte alignment) copied into a staging
   * buffer, results copied out of staging into such an output, and
   * misaligned input realigned for the A65. 0 when upstream and downstream
   * use the fd memory our pools offer.
   */
  g_object_class_install_property (gobject_class, PROP_COPIES,
      g_param_spec_uint64 ("copies", "Copies",
          "Buffers copied since the element started (read-only)",
          0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  /**
   * GstSimaBaseTransform:imports:
   *
   * fd memories (DMA-BUF or memfd) this element imported into the EV74
   * since it started. A memory is imported the first time a device sees
   * it, by whichever element sharing the device meets it first, and cached
   * on it after that, so with pooled buffers this stops growing (it grows
   * again only if a full bus aperture made the cache drop old imports).
   */
  g_object_class_install_property (gobject_class, PROP_IMPORTS,
      g_param_spec_uint64 ("imports", "Imports",
          "fd memories this element imported into the EV74 since it "
          "started (read-only)",
          0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSimaBaseTransform:processing-latency:
   *
   * The longest time, in nanoseconds, the conversion (transform) of one of
   * the last 64 buffers took: what the element adds to a live pipeline's
   * latency (LATENCY query). Measured, so 0 until the first buffer.
   */
  g_object_class_install_property (gobject_class, PROP_PROCESSING_LATENCY,
      g_param_spec_uint64 ("processing-latency", "Processing latency",
          "Longest conversion time in ns of the last 64 buffers; added to a "
          "live pipeline's latency (read-only)",
          0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSimaBaseTransform:max-inflight:
   *
   * How many EV74 jobs the element keeps submitted at once, so that the
   * device converts one buffer while the element imports, binds and
   * pushes the others. Outputs leave in input order, each as soon as its
   * job retired (a retire thread pushes it when the streaming thread is
   * idle) or when the window is full; EOS, caps, segments and other
   * serialized events, and DRAIN and ALLOCATION queries, wait for every
   * job in flight first. 1 converts each buffer before the next is
   * accepted. On the A65 backend processing is always synchronous. Read
   * per buffer: a change applies from the next one.
   */
  g_object_class_install_property (gobject_class, PROP_MAX_INFLIGHT,
      g_param_spec_uint ("max-inflight", "Jobs in flight",
          "EV74 jobs kept submitted at once (outputs stay in input order; "
          "1 = one buffer at a time; the A65 backend is always synchronous)",
          1, MAX_INFLIGHT, DEFAULT_MAX_INFLIGHT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstSimaBaseTransform:threads:
   *
   * How many threads one A65 conversion is split over, the streaming
   * thread included: 1 (the default) converts on the streaming thread
   * alone, 0 uses one thread per online CPU (at most 64). The core cuts
   * the tensor's tiles into that many contiguous ranges that write
   * disjoint bytes, so the output is the same bytes whatever the value.
   * The element owns its threads: made when the first buffer runs on the
   * A65, made again at the next buffer after a change (a change while
   * playing applies from the next buffer), ended at stop. Used on the A65
   * only (backend=a65, or fallback=a65 when the EV74 cannot run the
   * operation); on the EV74 it is ignored (the device's workers split the
   * job). If the threads cannot be created the flow fails with an error
   * naming the value.
   */
  g_object_class_install_property (gobject_class, PROP_THREADS,
      g_param_spec_uint ("threads", "Threads",
          "Threads one A65 conversion is split over (0 = one per online "
          "CPU; same output bytes whatever the value; ignored on the EV74)",
          0, SIMA_A65_MAX_THREADS, DEFAULT_THREADS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_sima_base_transform_change_state);
  trans_class->start = GST_DEBUG_FUNCPTR (gst_sima_base_transform_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_sima_base_transform_stop);
  trans_class->sink_event =
      GST_DEBUG_FUNCPTR (gst_sima_base_transform_sink_event);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_sima_base_transform_set_caps);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_sima_base_transform_submit_input_buffer);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_sima_base_transform_generate_output);
  trans_class->transform_size =
      GST_DEBUG_FUNCPTR (gst_sima_base_transform_transform_size);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_sima_base_transform_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_sima_base_transform_decide_allocation);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_sima_base_transform_prepare_output_buffer);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_sima_base_transform_transform);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_sima_base_transform_query);
  trans_class->passthrough_on_same_caps = FALSE;

  gst_type_mark_as_plugin_api (GST_TYPE_SIMA_BASE_TRANSFORM, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_SIMA_BACKEND, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_SIMA_FALLBACK, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_SIMA_ACTIVE_BACKEND, 0);
}

static void
gst_sima_base_transform_init (GstSimaBaseTransform * self)
{
  GstSimaBaseTransformPrivate *priv = PRIV (self);

  priv->backend = DEFAULT_BACKEND;
  priv->fallback = DEFAULT_FALLBACK;
  priv->timeout_ms = DEFAULT_TIMEOUT_MS;
  priv->max_inflight = DEFAULT_MAX_INFLIGHT;
  priv->threads = DEFAULT_THREADS;
  g_mutex_init (&priv->runner_lock);
  g_queue_init (&priv->window);
  g_mutex_init (&priv->window_lock);
  g_cond_init (&priv->window_cond);
  priv->sticky = GST_FLOW_OK;
}
