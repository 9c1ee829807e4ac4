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

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gstsimacaps.h"

GST_DEBUG_CATEGORY_STATIC (gst_sima_base_transform_debug);
#define GST_CAT_DEFAULT gst_sima_base_transform_debug

#define DEFAULT_BACKEND GST_SIMA_BACKEND_EV74
#define DEFAULT_FALLBACK GST_SIMA_FALLBACK_NONE
#define DEFAULT_TIMEOUT_MS 5000

enum
{
  PROP_0,
  PROP_BACKEND,
  PROP_FALLBACK,
  PROP_DEVICE,
  PROP_TIMEOUT,
  PROP_ACTIVE_BACKEND,
};

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
  SimaEv74Device *dev;
  guint64 in_bytes, out_bytes;  /* from the negotiated caps, by the core */
  GstSimaStaging in_stage, out_stage;
  SimaEv74Descriptor desc;      /* encoded and bound to the staging */
  guint64 copies;
} GstSimaBaseTransformPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstSimaBaseTransform,
    gst_sima_base_transform, GST_TYPE_BASE_TRANSFORM,
    G_ADD_PRIVATE (GstSimaBaseTransform)
    GST_DEBUG_CATEGORY_INIT (gst_sima_base_transform_debug,
        "simabasetransform", 0, "SiMa kernel elements, shared part"));

#define PRIV(self) \
  ((GstSimaBaseTransformPrivate *) \
   gst_sima_base_transform_get_instance_private (self))

/* ---- staging: system memory through imported memfd buffers ------------- */

static void
staging_free (GstSimaStaging * s)
{
  /* the device keeps its own reference for jobs still running */
  if (s->region != NULL)
    sima_ev74_region_unref (s->region);
  if (s->host != NULL && s->host != MAP_FAILED)
    munmap (s->host, s->size);
  if (s->fd >= 0)
    close (s->fd);
  s->region = NULL;
  s->host = NULL;
  s->fd = -1;
  s->size = 0;
}

static SimaStatus
staging_alloc (GstSimaStaging * s, SimaEv74Device * dev, gsize size)
{
  staging_free (s);
  /* a zero-byte tensor still gets a page: regions are never empty */
  s->size = size > 0 ? size : 1;
  s->fd = memfd_create ("simakernels-staging", MFD_CLOEXEC);
  if (s->fd < 0 || ftruncate (s->fd, (off_t) s->size) != 0)
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "cannot create a %zu-byte staging buffer", s->size);
  s->host = mmap (NULL, s->size, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
  if (s->host == MAP_FAILED)
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "cannot map a %zu-byte staging buffer", s->size);
  return sima_ev74_region_import (dev, s->fd, s->size, &s->region);
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
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
set_active (GstSimaBaseTransform * self, GstSimaActiveBackend active)
{
  GST_OBJECT_LOCK (self);
  PRIV (self)->active = active;
  GST_OBJECT_UNLOCK (self);
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
  priv->copies = 0;
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

  staging_free (&priv->in_stage);
  staging_free (&priv->out_stage);
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
    SimaEv74Binding bi, bo;
    st = staging_alloc (&priv->in_stage, priv->dev, (gsize) in_bytes);
    if (st.code == SIMA_OK)
      st = staging_alloc (&priv->out_stage, priv->dev, (gsize) out_bytes);
    if (st.code == SIMA_OK)
      st = klass->encode (self, &priv->desc);
    if (st.code == SIMA_OK) {
      bi.bus_address = sima_ev74_region_bus_address (priv->in_stage.region);
      bi.length = priv->in_stage.size;
      bo.bus_address = sima_ev74_region_bus_address (priv->out_stage.region);
      bo.length = priv->out_stage.size;
      st = sima_ev74_descriptor_bind (&priv->desc, &bi, &bo);
    }
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

/* Output buffers come from the core's size, 16-byte aligned (tiled
 * tensors need it; the DMA-BUF pool of the elements comes with issue 7). */
static GstFlowReturn
gst_sima_base_transform_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * input, GstBuffer ** outbuf)
{
  GstSimaBaseTransformPrivate *priv = PRIV (GST_SIMA_BASE_TRANSFORM (trans));
  GstAllocationParams params;

  gst_allocation_params_init (&params);
  params.align = 15;
  *outbuf = gst_buffer_new_allocate (NULL, (gsize) priv->out_bytes, &params);
  if (*outbuf == NULL)
    return GST_FLOW_ERROR;
  gst_buffer_copy_into (*outbuf, input, GST_BUFFER_COPY_METADATA, 0, -1);
  return GST_FLOW_OK;
}

/* ---- processing ------------------------------------------------------------ */

static GstFlowReturn
run_ev74 (GstSimaBaseTransform * self, const GstMapInfo * in,
    const GstMapInfo * out)
{
  GstSimaBaseTransformClass *klass = GST_SIMA_BASE_TRANSFORM_GET_CLASS (self);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  SimaEv74Region *regions[2] = { priv->in_stage.region,
    priv->out_stage.region };
  SimaEv74Job *job = NULL;
  guint timeout_ms;
  SimaStatus st;

  if (priv->out_bytes == 0)
    return GST_FLOW_OK;         /* an empty tensor needs no device job */
  GST_OBJECT_LOCK (self);
  timeout_ms = priv->timeout_ms;
  GST_OBJECT_UNLOCK (self);
  /* system memory: copied into the imported staging buffer */
  memcpy (priv->in_stage.host, in->data, (size_t) priv->in_bytes);
  priv->copies++;
  st = sima_ev74_submit (priv->dev, &priv->desc, regions, 2, &job);
  if (st.code == SIMA_OK)
    st = sima_ev74_job_wait (job, (gint64) timeout_ms * GST_MSECOND);
  sima_ev74_job_unref (job);
  if (st.code == SIMA_TIMEOUT) {
    /* the job still holds the staging regions: never reuse them */
    staging_free (&priv->in_stage);
    staging_free (&priv->out_stage);
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("%s: the EV74 did not finish within %u ms (timeout property)",
            klass->op_name, timeout_ms), ("%s", st.message));
    return GST_FLOW_ERROR;
  }
  if (st.code != SIMA_OK) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("%s failed on the EV74: %s", klass->op_name, st.message),
        ("status %s", sima_status_code_name (st.code)));
    return GST_FLOW_ERROR;
  }
  memcpy (out->data, priv->out_stage.host, (size_t) priv->out_bytes);
  priv->copies++;
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_sima_base_transform_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstSimaBaseTransform *self = GST_SIMA_BASE_TRANSFORM (trans);
  GstSimaBaseTransformClass *klass = GST_SIMA_BASE_TRANSFORM_GET_CLASS (self);
  GstSimaBaseTransformPrivate *priv = PRIV (self);
  GstMapInfo in, out;
  GstFlowReturn ret = GST_FLOW_OK;
  SimaStatus st;

  if (!gst_buffer_map (inbuf, &in, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("cannot map the input buffer"),
        (NULL));
    return GST_FLOW_ERROR;
  }
  if (!gst_buffer_map (outbuf, &out, GST_MAP_WRITE)) {
    gst_buffer_unmap (inbuf, &in);
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("cannot map the output buffer"),
        (NULL));
    return GST_FLOW_ERROR;
  }
  if (in.size < priv->in_bytes || out.size < priv->out_bytes) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("%s: the %s buffer has %" G_GSIZE_FORMAT " bytes, the caps need %"
            G_GUINT64_FORMAT, klass->op_name,
            in.size < priv->in_bytes ? "input" : "output",
            in.size < priv->in_bytes ? in.size : out.size,
            in.size < priv->in_bytes ? priv->in_bytes : priv->out_bytes),
        (NULL));
    ret = GST_FLOW_ERROR;
  } else if (priv->use_ev74) {
    ret = run_ev74 (self, &in, &out);
  } else {
    st = klass->execute_a65 (self, in.data, in.size, out.data, out.size);
    if (st.code == SIMA_MISALIGNED_BUFFER) {
      /* GStreamer promises 8-byte aligned memory; tiles need 16. An
       * aligned copy of the input (counted) rather than an error. */
      gpointer copy = g_malloc (in.size + 16);
      guint8 *aligned = (guint8 *) (((guintptr) copy + 15) & ~(guintptr) 15);
      memcpy (aligned, in.data, in.size);
      priv->copies++;
      st = klass->execute_a65 (self, aligned, in.size, out.data, out.size);
      g_free (copy);
    }
    if (st.code != SIMA_OK) {
      GST_ELEMENT_ERROR (self, STREAM, FAILED,
          ("%s failed on the A65: %s", klass->op_name, st.message),
          ("status %s", sima_status_code_name (st.code)));
      ret = GST_FLOW_ERROR;
    }
  }
  gst_buffer_unmap (outbuf, &out);
  gst_buffer_unmap (inbuf, &in);
  return ret;
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

  trans_class->start = GST_DEBUG_FUNCPTR (gst_sima_base_transform_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_sima_base_transform_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_sima_base_transform_set_caps);
  trans_class->transform_size =
      GST_DEBUG_FUNCPTR (gst_sima_base_transform_transform_size);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_sima_base_transform_prepare_output_buffer);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_sima_base_transform_transform);
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
  priv->in_stage.fd = priv->out_stage.fd = -1;
}

gboolean
gst_sima_base_transform_runs_on_ev74 (GstSimaBaseTransform * self)
{
  return PRIV (self)->use_ev74;
}

guint64
gst_sima_base_transform_get_copies (GstSimaBaseTransform * self)
{
  return PRIV (self)->copies;
}
