/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstSimaBaseTransform: the shared part of the three converter elements.
 * Glue only: specs come from caps, every size and rule from the core, every
 * conversion from the core or the EV74 device API.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#define _GNU_SOURCE
#include "gstsimabasetransform.h"

#include <simaai/kernels/layout.h>

#include <gst/allocators/allocators.h>
#include <string.h>
#include <time.h>

#include "gstsimaallocator.h"
#include "gstsimacaps.h"
#include "gstsimaimport.h"
#include "gstsimatimingmetaprivate.h"

GST_DEBUG_CATEGORY_STATIC (gst_sima_base_transform_debug);
#define GST_CAT_DEFAULT gst_sima_base_transform_debug

#define DEFAULT_BACKEND GST_SIMA_BACKEND_EV74
#define DEFAULT_FALLBACK GST_SIMA_FALLBACK_NONE
#define DEFAULT_TIMEOUT_MS 5000
/* stop() waits this long for jobs that timed out before giving up on them
 * (their buffers are then leaked, never freed under the device) */
#define RETIRE_WAIT_NS (30 * GST_SECOND)
/* a live pipeline hears of a new processing latency once it exceeds the
 * last one announced by this factor (announcing every small rise would
 * make the pipeline recompute its latency on every buffer) */
#define LATENCY_GROWTH 1.25
/* the processing latency is the longest of this many recent buffers: a
 * one-off stall (the first buffer's imports, a page fault) ages out instead
 * of raising the pipeline's latency for good */
#define LATENCY_WINDOW 64

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
};

/* A job that outlived its wait: what it reads and writes stays referenced
 * until the device retires it. */
typedef struct
{
  SimaEv74Job *job;
  GstBuffer *in;
  GstBuffer *out;
} InFlight;

typedef struct
{
  /* properties (object lock) */
  GstSimaBackend backend;
  GstSimaFallback fallback;
  gchar *device;
  guint timeout_ms;

  /* streaming state */
  gboolean use_ev74;            /* decided in start() */
  GstSimaActiveBackend active;  /* object lock */
  const gchar *active_nick;     /* its enum nick, static (object lock) */
  SimaEv74Device *dev;
  guint64 in_bytes, out_bytes;  /* from the negotiated caps, by the core */
  SimaEv74Descriptor desc;      /* encoded per caps, bound per buffer */
  /* DMA-BUF staging for buffers the device cannot read or write itself */
  GstBufferPool *stage_in, *stage_out;
  GList *inflight;              /* InFlight *, oldest first */
  guint64 copies, imports;      /* object lock */
  /* transform() times of the last LATENCY_WINDOW buffers (a ring), the
   * longest of them, the last value announced with a LATENCY message, and
   * whether a LATENCY query said the pipeline is live (all object lock) */
  GstClockTime recent[LATENCY_WINDOW];
  guint n_recent;
  GstClockTime latency, latency_announced;
  gboolean live;
} GstSimaBaseTransformPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstSimaBaseTransform,
    gst_sima_base_transform, GST_TYPE_BASE_TRANSFORM,
    G_ADD_PRIVATE (GstSimaBaseTransform)
    GST_DEBUG_CATEGORY_INIT (gst_sima_base_transform_debug,
        "simabasetransform", 0, "SiMa kernel elements, shared part"));

#define PRIV(self) \
  ((GstSimaBaseTransformPrivate *) \
   gst_sima_base_transform_get_instance_private (self))

/* ---- in-flight jobs and counters ----------------------------------------- */

static void
count (GstSimaBaseTransform * self, guint64 * counter)
{
  GST_OBJECT_LOCK (self);
  (*counter)++;
  GST_OBJECT_UNLOCK (self);
}

/* Drops the jobs that have retired; with wait, waits for each first (up to
 * RETIRE_WAIT_NS in all). A job that never retires keeps its buffers. */
static void
reap_inflight (GstSimaBaseTransform * self, gboolean wait)
{
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  GList *l = priv->inflight, *next;
  gint64 deadline = g_get_monotonic_time () + RETIRE_WAIT_NS / 1000;

  for (; l != NULL; l = next) {
    InFlight *f = l->data;
    next = l->next;
    if (wait) {
      gint64 left = (deadline - g_get_monotonic_time ()) * 1000;
      sima_ev74_job_wait (f->job, left > 0 ? left : 0);
    }
    if (!sima_ev74_job_retired (f->job)) {
      if (wait)
        GST_ERROR_OBJECT (self, "an EV74 job never retired: keeping its "
            "buffers for good rather than freeing what the device may use");
      continue;
    }
    sima_ev74_job_unref (f->job);
    gst_buffer_unref (f->in);
    gst_buffer_unref (f->out);
    g_free (f);
    priv->inflight = g_list_delete_link (priv->inflight, l);
  }
  if (wait && priv->inflight != NULL) {
    g_list_free (priv->inflight);   /* deliberately leaked, see above */
    priv->inflight = NULL;
  }
}

static void
pool_free (GstBufferPool ** pool)
{
  if (*pool != NULL) {
    gst_buffer_pool_set_active (*pool, FALSE);
    gst_object_unref (*pool);
    *pool = NULL;
  }
}

static GstBufferPool *
staging_pool (guint64 bytes)
{
  GstBufferPool *pool = gst_sima_dmabuf_pool_new (NULL,
      (guint) MAX (bytes, 1), 1, 0);
  if (pool != NULL && !gst_buffer_pool_set_active (pool, TRUE))
    gst_clear_object (&pool);
  return pool;
}

/* ---- properties ---------------------------------------------------------- */

static void
gst_sima_base_transform_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstSimaBaseTransformPrivate *priv = PRIV (GST_SIMA_BASE_TRANSFORM (object));

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_BACKEND:
      priv->backend = (GstSimaBackend) g_value_get_enum (value);
      break;
    case PROP_FALLBACK:
      priv->fallback = (GstSimaFallback) g_value_get_enum (value);
      break;
    case PROP_DEVICE:
      g_free (priv->device);
      priv->device = g_value_dup_string (value);
      break;
    case PROP_TIMEOUT:
      priv->timeout_ms = g_value_get_uint (value);
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
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
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

static gboolean
gst_sima_base_transform_start (GstBaseTransform * trans)
{
  GstSimaBaseTransform *self = GST_SIMA_BASE_TRANSFORM (trans);
  GstSimaBaseTransformClass *klass = GST_SIMA_BASE_TRANSFORM_GET_CLASS (self);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  GstSimaBackend backend;
  GstSimaFallback fallback;
  gchar *device;
  const gchar *spec;
  SimaEv74Device *dev = NULL;
  SimaStatus st;

  priv->use_ev74 = FALSE;
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
  if (backend == GST_SIMA_BACKEND_A65) {
    GST_INFO_OBJECT (self, "%s runs on the A65 (backend=a65)", klass->op_name);
    set_active (self, GST_SIMA_ACTIVE_A65);
    g_free (device);
    return TRUE;
  }

  spec = sima_ev74_resolve_spec (device);
  st = sima_ev74_device_open (spec, &dev);
  if (st.code == SIMA_OK)
    st = sima_ev74_device_require (dev, klass->route, klass->capability);
  if (st.code != SIMA_OK) {
    sima_ev74_device_unref (dev);
    if (fallback == GST_SIMA_FALLBACK_A65) {
      GST_ELEMENT_WARNING (self, RESOURCE, NOT_FOUND,
          ("EV74 capability %s is not available; %s runs on the A65 "
              "(fallback=a65)", klass->capability, klass->op_name),
          ("%s", st.message));
      set_active (self, GST_SIMA_ACTIVE_A65_FALLBACK);
      g_free (device);
      return TRUE;
    }
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("EV74 capability %s is not available on device '%s': %s. Set "
            "backend=a65 to run on the A65, or fallback=a65 to fall back to "
            "it.", klass->capability, spec, st.message),
        ("device property: %s", device ? device : "(unset)"));
    g_free (device);
    return FALSE;
  }
  GST_INFO_OBJECT (self, "%s runs on EV74 device '%s'", klass->op_name, spec);
  priv->dev = dev;
  priv->use_ev74 = TRUE;
  set_active (self, GST_SIMA_ACTIVE_EV74);
  g_free (device);
  return TRUE;
}

static gboolean
gst_sima_base_transform_stop (GstBaseTransform * trans)
{
  GstSimaBaseTransformPrivate *priv =
      PRIV (GST_SIMA_BASE_TRANSFORM (trans));

  reap_inflight (GST_SIMA_BASE_TRANSFORM (trans), TRUE);
  pool_free (&priv->stage_in);
  pool_free (&priv->stage_out);
  sima_ev74_device_unref (priv->dev);
  priv->dev = NULL;
  priv->use_ev74 = FALSE;
  priv->in_bytes = priv->out_bytes = 0;
  set_active (GST_SIMA_BASE_TRANSFORM (trans), GST_SIMA_ACTIVE_NONE);
  return TRUE;
}

/* ---- negotiation ---------------------------------------------------------- */

static gboolean
gst_sima_base_transform_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstSimaBaseTransform *self = GST_SIMA_BASE_TRANSFORM (trans);
  GstSimaBaseTransformClass *klass = GST_SIMA_BASE_TRANSFORM_GET_CLASS (self);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  SimaTensorSpec in, out;
  gchar *error = NULL;
  uint64_t in_bytes, out_bytes;
  SimaStatus st;

  if (!gst_sima_caps_to_spec (gst_caps_get_structure (incaps, 0), &in, &error)
      || !gst_sima_caps_to_spec (gst_caps_get_structure (outcaps, 0), &out,
          &error)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s", error),
        ("input %" GST_PTR_FORMAT ", output %" GST_PTR_FORMAT, incaps,
            outcaps));
    g_free (error);
    return FALSE;
  }
  st = klass->prepare (self, &in, &out);
  if (st.code == SIMA_OK)
    st = sima_tensor_required_bytes (&in, "input", &in_bytes);
  if (st.code == SIMA_OK)
    st = sima_tensor_required_bytes (&out, "output", &out_bytes);
  if (st.code != SIMA_OK) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("%s cannot convert these caps: %s", klass->op_name, st.message),
        ("input %" GST_PTR_FORMAT ", output %" GST_PTR_FORMAT, incaps,
            outcaps));
    return FALSE;
  }
  priv->in_bytes = in_bytes;
  priv->out_bytes = out_bytes;
  GST_DEBUG_OBJECT (self, "%s: %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT
      " bytes per buffer", klass->op_name, priv->in_bytes, priv->out_bytes);

  if (priv->use_ev74) {
    st = klass->encode (self, &priv->desc);
    pool_free (&priv->stage_in);
    pool_free (&priv->stage_out);
    if (st.code == SIMA_OK && ((priv->stage_in = staging_pool (in_bytes)) == NULL
            || (priv->stage_out = staging_pool (out_bytes)) == NULL))
      st = sima_status_make (SIMA_OUT_OF_RESOURCES,
          "cannot make DMA-BUF staging buffers");
    if (st.code != SIMA_OK) {
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
          ("%s cannot prepare the EV74 job: %s", klass->op_name, st.message),
          (NULL));
      return FALSE;
    }
  }
  return TRUE;
}

static gboolean
gst_sima_base_transform_transform_size (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, gsize size,
    GstCaps * othercaps, gsize * othersize)
{
  gchar *error = NULL;
  guint64 bytes;

  if (!gst_sima_caps_required_bytes (othercaps, &bytes, &error)) {
    GST_DEBUG_OBJECT (trans, "no size for %" GST_PTR_FORMAT ": %s", othercaps,
        error);
    g_free (error);
    return FALSE;
  }
  *othersize = (gsize) bytes;
  return TRUE;
}

/* ---- allocation: DMA-BUF pools ---------------------------------------------- */

/* Upstream gets a pool of DMA-BUFs the size of our input, 16-byte aligned:
 * buffers from it reach the device with no copy. */
static gboolean
gst_sima_base_transform_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstAllocator *allocator = gst_sima_dmabuf_allocator_get ();
  GstAllocationParams params;
  gboolean need_pool;
  GstCaps *caps;
  guint64 bytes = 0;

  gst_allocation_params_init (&params);
  params.align = 15;
  gst_query_add_allocation_param (query, allocator, &params);
  gst_object_unref (allocator);
  gst_query_parse_allocation (query, &caps, &need_pool);
  if (need_pool && caps != NULL
      && gst_sima_caps_required_bytes (caps, &bytes, NULL)) {
    GstBufferPool *pool = gst_sima_dmabuf_pool_new (caps,
        (guint) MAX (bytes, 1), 2, 0);
    if (pool != NULL) {
      gst_query_add_allocation_pool (query, pool, (guint) MAX (bytes, 1), 2,
          0);
      gst_object_unref (pool);
    }
  }
  return TRUE;
}

static gboolean
pool_is_dmabuf (GstBufferPool * pool)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstAllocator *allocator = NULL;
  gboolean dmabuf;

  gst_buffer_pool_config_get_allocator (config, &allocator, NULL);
  dmabuf = allocator != NULL && GST_IS_DMABUF_ALLOCATOR (allocator);
  gst_structure_free (config);
  return dmabuf;
}

/* Output buffers: downstream's pool if it gives DMA-BUFs, else ours. */
static gboolean
gst_sima_base_transform_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstSimaBaseTransformPrivate *priv = PRIV (GST_SIMA_BASE_TRANSFORM (trans));
  guint size = (guint) MAX (priv->out_bytes, 1), min = 2, max = 0;
  GstBufferPool *pool = NULL;
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  if (gst_query_get_n_allocation_pools (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, &min, &max);
    if (pool != NULL && !pool_is_dmabuf (pool))
      gst_clear_object (&pool);
  }
  if (pool == NULL) {
    pool = gst_sima_dmabuf_pool_new (caps, size, MAX (min, 2), 0);
  } else {
    GstStructure *config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_set_params (config, caps, size, min, max);
    if (!gst_buffer_pool_set_config (pool, config))
      gst_clear_object (&pool);
  }
  if (pool == NULL)
    return FALSE;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, MAX (min, 2),
        max);
  else
    gst_query_add_allocation_pool (query, pool, size, MAX (min, 2), max);
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

/* ---- processing ------------------------------------------------------------ */

/* Copies size bytes between two buffers' first memories, with the DMA-BUF
 * CPU-access brackets around both. */
static gboolean
copy_bytes (GstBuffer * from, GstBuffer * to, gsize size)
{
  GstMemory *src = gst_buffer_n_memory (from) == 1
      ? gst_buffer_peek_memory (from, 0) : NULL;
  GstMemory *dst = gst_buffer_peek_memory (to, 0);
  GstMapInfo a, b;
  gboolean ok;

  gst_sima_dmabuf_sync_begin (src, FALSE);
  gst_sima_dmabuf_sync_begin (dst, TRUE);
  ok = gst_buffer_map (from, &a, GST_MAP_READ);
  if (ok && !gst_buffer_map (to, &b, GST_MAP_WRITE)) {
    gst_buffer_unmap (from, &a);
    ok = FALSE;
  }
  if (ok) {
    memcpy (b.data, a.data, size);
    gst_buffer_unmap (to, &b);
    gst_buffer_unmap (from, &a);
  }
  gst_sima_dmabuf_sync_end (dst, TRUE);
  gst_sima_dmabuf_sync_end (src, FALSE);
  return ok;
}

/* Where the device reads or writes `buf`: its own DMA-BUF memory when it
 * has exactly one, else a staging DMA-BUF from `pool` (filled from buf
 * for inputs, counted as a copy). *holder is a new reference on the buffer
 * the device touches. */
static SimaStatus
device_buffer (GstSimaBaseTransform * self, GstBuffer * buf,
    GstBufferPool * pool, guint64 bytes, gboolean input, GstBuffer ** holder,
    SimaEv74Region ** region, SimaEv74Binding * binding)
{
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  GstMemory *mem;
  gboolean imported;
  SimaStatus st;

  if (gst_buffer_n_memory (buf) == 1
      && gst_is_dmabuf_memory (gst_buffer_peek_memory (buf, 0))) {
    *holder = gst_buffer_ref (buf);
  } else {
    if (gst_buffer_pool_acquire_buffer (pool, holder, NULL) != GST_FLOW_OK)
      return sima_status_make (SIMA_OUT_OF_RESOURCES,
          "no DMA-BUF staging buffer");
    if (input) {
      if (!copy_bytes (buf, *holder, (gsize) bytes)) {
        gst_clear_buffer (holder);
        return sima_status_make (SIMA_OUT_OF_RESOURCES,
            "cannot copy the input into a DMA-BUF");
      }
      count (self, &priv->copies);
      GST_LOG_OBJECT (self, "copied %" G_GUINT64_FORMAT " bytes of %s input "
          "into a DMA-BUF staging buffer", bytes,
          gst_buffer_n_memory (buf) == 1 ? "system-memory" : "multi-memory");
    }
  }
  mem = gst_buffer_peek_memory (*holder, 0);
  st = gst_sima_memory_binding (mem, priv->dev, region, binding, &imported);
  if (imported) {
    count (self, &priv->imports);
    GST_DEBUG_OBJECT (self, "imported DMA-BUF fd %d (%" G_GSIZE_FORMAT
        " bytes) at bus %#" G_GINT64_MODIFIER "x",
        gst_dmabuf_memory_get_fd (mem), mem->maxsize, binding->bus_address);
  }
  if (st.code != SIMA_OK)
    gst_clear_buffer (holder);
  return st;
}

/* *process_ns: submit to retirement, as the device measured it. */
static GstFlowReturn
run_ev74 (GstSimaBaseTransform * self, GstBuffer * inbuf, GstBuffer * outbuf,
    guint64 * process_ns)
{
  GstSimaBaseTransformClass *klass = GST_SIMA_BASE_TRANSFORM_GET_CLASS (self);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  GstBuffer *in = NULL, *out = NULL;
  SimaEv74Region *regions[2];
  SimaEv74Binding bi, bo;
  SimaEv74Descriptor desc;
  SimaEv74Job *job = NULL;
  SimaEv74JobStats stats;
  guint timeout_ms;
  SimaStatus st;

  *process_ns = 0;
  if (priv->out_bytes == 0)
    return GST_FLOW_OK;         /* an empty tensor needs no device job */
  reap_inflight (self, FALSE);
  GST_OBJECT_LOCK (self);
  timeout_ms = priv->timeout_ms;
  GST_OBJECT_UNLOCK (self);

  st = device_buffer (self, inbuf, priv->stage_in, priv->in_bytes, TRUE, &in,
      &regions[0], &bi);
  if (st.code == SIMA_OK)
    st = device_buffer (self, outbuf, priv->stage_out, priv->out_bytes, FALSE,
        &out, &regions[1], &bo);
  desc = priv->desc;
  if (st.code == SIMA_OK)
    st = sima_ev74_descriptor_bind (&desc, &bi, &bo);
  if (st.code == SIMA_OK)
    st = sima_ev74_submit (priv->dev, &desc, regions, 2, &job);
  if (st.code == SIMA_OK)
    st = sima_ev74_job_wait (job, (gint64) timeout_ms * GST_MSECOND);
  if (st.code == SIMA_TIMEOUT) {
    /* the device may still read and write both: keep them until it is done */
    InFlight *f = g_new (InFlight, 1);
    f->job = job;
    f->in = in;
    f->out = out;
    priv->inflight = g_list_append (priv->inflight, f);
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("%s: the EV74 did not finish within %u ms (timeout property)",
            klass->op_name, timeout_ms), ("%s", st.message));
    return GST_FLOW_ERROR;
  }
  if (job != NULL) {
    sima_ev74_job_stats (job, &stats);
    *process_ns = stats.device_ns;
  }
  sima_ev74_job_unref (job);
  if (st.code == SIMA_OK && out != outbuf) {
    /* the result landed in staging: copy it out, now that it retired */
    if (copy_bytes (out, outbuf, (gsize) priv->out_bytes))
      count (self, &priv->copies);
    else
      st = sima_status_make (SIMA_OUT_OF_RESOURCES,
          "cannot copy the result out of its DMA-BUF");
  }
  gst_clear_buffer (&in);
  gst_clear_buffer (&out);
  if (st.code != SIMA_OK) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("%s failed on the EV74: %s", klass->op_name, st.message),
        ("status %s", sima_status_code_name (st.code)));
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

static guint64
clock_ns (clockid_t clock)
{
  struct timespec ts;

  clock_gettime (clock, &ts);
  return (guint64) ts.tv_sec * GST_SECOND + (guint64) ts.tv_nsec;
}

/* The A65 path: the CPU reads the input and writes the output, inside the
 * DMA-BUF CPU-access brackets when they are DMA-BUFs. *process_ns: the
 * kernel's execution (realignment included), wall clock. */
static GstFlowReturn
run_a65 (GstSimaBaseTransform * self, GstBuffer * inbuf, GstBuffer * outbuf,
    guint64 * process_ns)
{
  GstSimaBaseTransformClass *klass = GST_SIMA_BASE_TRANSFORM_GET_CLASS (self);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  GstMemory *src = gst_buffer_n_memory (inbuf) == 1
      ? gst_buffer_peek_memory (inbuf, 0) : NULL;
  GstMemory *dst = gst_buffer_n_memory (outbuf) == 1
      ? gst_buffer_peek_memory (outbuf, 0) : NULL;
  GstMapInfo in, out;
  const gchar *unmapped = "input";
  guint64 start;
  SimaStatus st;

  *process_ns = 0;
  gst_sima_dmabuf_sync_begin (src, FALSE);
  gst_sima_dmabuf_sync_begin (dst, TRUE);
  if (!gst_buffer_map (inbuf, &in, GST_MAP_READ))
    goto map_in_failed;
  if (!gst_buffer_map (outbuf, &out, GST_MAP_WRITE))
    goto map_out_failed;

  start = clock_ns (CLOCK_MONOTONIC);
  st = klass->execute_a65 (self, in.data, in.size, out.data, out.size);
  if (st.code == SIMA_MISALIGNED_BUFFER) {
    /* GStreamer promises 8-byte aligned memory; tiles need 16. An
     * aligned copy of the input (counted) rather than an error. */
    gpointer copy = g_malloc (in.size + 16);
    guint8 *aligned = (guint8 *) (((guintptr) copy + 15) & ~(guintptr) 15);
    memcpy (aligned, in.data, in.size);
    count (self, &priv->copies);
    GST_LOG_OBJECT (self, "copied %" G_GSIZE_FORMAT " bytes of misaligned "
        "input", in.size);
    st = klass->execute_a65 (self, aligned, in.size, out.data, out.size);
    g_free (copy);
  }
  *process_ns = clock_ns (CLOCK_MONOTONIC) - start;
  gst_buffer_unmap (outbuf, &out);
  gst_buffer_unmap (inbuf, &in);
  gst_sima_dmabuf_sync_end (dst, TRUE);
  gst_sima_dmabuf_sync_end (src, FALSE);
  if (st.code != SIMA_OK)
    goto failed;
  return GST_FLOW_OK;

  /* ERRORS */
map_out_failed:
  gst_buffer_unmap (inbuf, &in);
  unmapped = "output";
map_in_failed:
  gst_sima_dmabuf_sync_end (dst, TRUE);
  gst_sima_dmabuf_sync_end (src, FALSE);
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

/* LATENCY: what upstream said plus the measured processing latency, when
 * the pipeline is live (a non-live pipeline has no use for it). */
static gboolean
gst_sima_base_transform_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query)
{
  GstSimaBaseTransformPrivate *priv = PRIV (GST_SIMA_BASE_TRANSFORM (trans));
  GstClockTime min, max, latency;
  gboolean live;

  if (!GST_BASE_TRANSFORM_CLASS (gst_sima_base_transform_parent_class)->query
      (trans, direction, query))
    return FALSE;
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
  GST_DEBUG_OBJECT (trans, "latency: live %d, processing %" GST_TIME_FORMAT
      ", min %" GST_TIME_FORMAT " max %" GST_TIME_FORMAT, live,
      GST_TIME_ARGS (latency), GST_TIME_ARGS (min), GST_TIME_ARGS (max));
  return TRUE;
}

static GstFlowReturn
gst_sima_base_transform_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstSimaBaseTransform *self = GST_SIMA_BASE_TRANSFORM (trans);
  GstSimaBaseTransformClass *klass = GST_SIMA_BASE_TRANSFORM_GET_CLASS (self);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  gsize in_size = gst_buffer_get_size (inbuf);
  gsize out_size = gst_buffer_get_size (outbuf);
  guint64 wall = clock_ns (CLOCK_MONOTONIC);
  guint64 cpu = clock_ns (CLOCK_THREAD_CPUTIME_ID);
  guint64 copies;
  GstSimaTiming timing;
  GstFlowReturn ret;

  if (in_size < priv->in_bytes || out_size < priv->out_bytes)
    goto wrong_size;
  GST_OBJECT_LOCK (self);
  copies = priv->copies;
  GST_OBJECT_UNLOCK (self);
  if (priv->use_ev74)
    ret = run_ev74 (self, inbuf, outbuf, &timing.process_ns);
  else
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

  /* ERRORS */
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

/* ---- type ------------------------------------------------------------------ */

static void
gst_sima_base_transform_finalize (GObject * object)
{
  GstSimaBaseTransformPrivate *priv = PRIV (GST_SIMA_BASE_TRANSFORM (object));
  g_free (priv->device);
  G_OBJECT_CLASS (gst_sima_base_transform_parent_class)->finalize (object);
}

static void
gst_sima_base_transform_class_init (GstSimaBaseTransformClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_sima_base_transform_set_property;
  gobject_class->get_property = gst_sima_base_transform_get_property;
  gobject_class->finalize = gst_sima_base_transform_finalize;

  /**
   * GstSimaBaseTransform:backend:
   *
   * Where the conversion runs: `ev74` (the default) submits it to the EV74
   * vector DSP through the device API; `a65` runs it on the CPU. Read at
   * start.
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
   * CPU.
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
   * /dev/simaai-ev74. Elements with the same device share it.
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
   * Milliseconds to wait for an EV74 job before failing with an error.
   * The buffers of a job that timed out stay with the device until it
   * finishes.
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
   * Buffers copied since the element started: input that was not a
   * DMA-BUF copied into a staging DMA-BUF for the EV74, results copied out
   * of staging into an output that was not one, and misaligned input
   * realigned for the A65. 0 when upstream and downstream use DMA-BUFs.
   */
  g_object_class_install_property (gobject_class, PROP_COPIES,
      g_param_spec_uint64 ("copies", "Copies",
          "Buffers copied since the element started (read-only)",
          0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  /**
   * GstSimaBaseTransform:imports:
   *
   * DMA-BUF memories imported into the EV74 since the element started.
   * A memory is imported the first time the device sees it and cached on
   * it after that, so with pooled buffers this stops growing.
   */
  g_object_class_install_property (gobject_class, PROP_IMPORTS,
      g_param_spec_uint64 ("imports", "Imports",
          "DMA-BUF memories imported into the EV74 since the element "
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

  trans_class->start = GST_DEBUG_FUNCPTR (gst_sima_base_transform_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_sima_base_transform_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_sima_base_transform_set_caps);
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
}

gboolean
gst_sima_base_transform_runs_on_ev74 (GstSimaBaseTransform * self)
{
  return PRIV (self)->use_ev74;
}
