/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-simatensorsrc
 * @title: simatensorsrc
 *
 * Produces contiguous tensors of the negotiated caps (dtype float32,
 * float16, bfloat16 or int8; any shape of rank 1-6; default float32
 * <1,224,224,3>) filled with a pattern from the kernel core: a ramp, seeded
 * random values in a range, a constant, or special values (NaN, infinities,
 * signed zeros, subnormals, extremes, rounding ties). Pipelines, tests and
 * demos need no files.
 *
 * A tensor must fit one GstBuffer from a buffer pool, whose sizes are
 * 32-bit: caps of more than 4294967295 (G_MAXUINT) bytes are refused at
 * negotiation, with an error naming the shape and the size. A buffer that
 * cannot be allocated is a flow error naming its size.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 simatensorsrc pattern=random seed=7 min=-2 max=2 \
 *   num-buffers=10 ! \
 *   application/vnd.simaai.tensor,dtype=float16,shape="<2,64,64,8>" ! \
 *   fakesink
 * ]|
 */
/* posix_memalign */
#define _POSIX_C_SOURCE 200809L

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsimatensorsrc.h"

#include <stdlib.h>

#include <simaai/kernels/layout.h>
#include <simaai/kernels/pattern.h>

#include "gstsimaallocator.h"
#include "gstsimacaps.h"
#include "gstsimaenums.h"

GST_DEBUG_CATEGORY_STATIC (gst_sima_tensor_src_debug);
#define GST_CAT_DEFAULT gst_sima_tensor_src_debug

#define DEFAULT_PATTERN SIMA_PATTERN_RAMP
#define DEFAULT_MIN (-1.0)
#define DEFAULT_MAX 1.0
#define DEFAULT_FRAME_DURATION (GST_SECOND / 30)

enum
{
  PROP_0,
  PROP_PATTERN,
  PROP_MIN,
  PROP_MAX,
  PROP_VALUE,
  PROP_SEED,
  PROP_FRAME_DURATION,
  PROP_IS_LIVE,
};

struct _GstSimaTensorSrc
{
  GstPushSrc parent;
  SimaPatternParams params;     /* object lock */
  GstClockTime frame_duration;
  SimaTensorSpec spec;          /* negotiated */
  guint64 bytes;                /* at most G_MAXUINT (set_caps) */
  guint64 frame;
  /* why set_caps refused the caps, posted by negotiate (streaming thread) */
  gchar *refusal;
};

G_DEFINE_TYPE_WITH_CODE (GstSimaTensorSrc, gst_sima_tensor_src,
    GST_TYPE_PUSH_SRC,
    GST_DEBUG_CATEGORY_INIT (gst_sima_tensor_src_debug, "simatensorsrc", 0,
        "SiMa tensor test source"));
GST_ELEMENT_REGISTER_DEFINE (simatensorsrc, "simatensorsrc", GST_RANK_NONE,
    GST_TYPE_SIMA_TENSOR_SRC);

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_SIMA_TENSOR_MEDIA_TYPE ", "
        "dtype = (string) { float32, float16, bfloat16, int8 }, "
        "layout = (string) contiguous"));

static void
gst_sima_tensor_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstSimaTensorSrc *self = GST_SIMA_TENSOR_SRC (object);

  if (prop_id == PROP_IS_LIVE) {
    gst_base_src_set_live (GST_BASE_SRC (self), g_value_get_boolean (value));
    return;
  }
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_PATTERN:
      self->params.pattern = (SimaPattern) g_value_get_enum (value);
      break;
    case PROP_MIN:
      self->params.min = g_value_get_double (value);
      break;
    case PROP_MAX:
      self->params.max = g_value_get_double (value);
      break;
    case PROP_VALUE:
      self->params.value = g_value_get_double (value);
      break;
    case PROP_SEED:
      self->params.seed = g_value_get_uint64 (value);
      break;
    case PROP_FRAME_DURATION:
      self->frame_duration = g_value_get_uint64 (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_sima_tensor_src_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstSimaTensorSrc *self = GST_SIMA_TENSOR_SRC (object);

  if (prop_id == PROP_IS_LIVE) {
    g_value_set_boolean (value, gst_base_src_is_live (GST_BASE_SRC (self)));
    return;
  }
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_PATTERN:
      g_value_set_enum (value, self->params.pattern);
      break;
    case PROP_MIN:
      g_value_set_double (value, self->params.min);
      break;
    case PROP_MAX:
      g_value_set_double (value, self->params.max);
      break;
    case PROP_VALUE:
      g_value_set_double (value, self->params.value);
      break;
    case PROP_SEED:
      g_value_set_uint64 (value, self->params.seed);
      break;
    case PROP_FRAME_DURATION:
      g_value_set_uint64 (value, self->frame_duration);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* Open fields become float32, <1,224,224,3>, contiguous. The source makes
 * single tensors: a neighbour's tensor-set structure (which any tensor
 * caps intersect, its other fields being open) is no choice for it. */
static GstCaps *
gst_sima_tensor_src_fixate (GstBaseSrc * src, GstCaps * caps)
{
  static const int64_t shape[4] = { 1, 224, 224, 3 };
  GstStructure *s;
  guint i;

  caps = gst_caps_make_writable (caps);
  for (i = gst_caps_get_size (caps); i > 1; i--)
    if (gst_structure_has_field (gst_caps_get_structure (caps, i - 1),
            "representation"))
      gst_caps_remove_structure (caps, i - 1);
  if (gst_structure_has_field (gst_caps_get_structure (caps, 0),
          "representation") && gst_caps_get_size (caps) > 1)
    gst_caps_remove_structure (caps, 0);
  caps = gst_caps_truncate (caps);
  s = gst_caps_get_structure (caps, 0);
  if (!gst_structure_has_field (s, "shape")) {
    GValue v = G_VALUE_INIT;
    gst_sima_value_set_int_array (&v, shape, 4);
    gst_structure_take_value (s, "shape", &v);
  }
  gst_structure_fixate_field_string (s, "dtype", "float32");
  gst_structure_fixate_field_string (s, "layout", "contiguous");
  return GST_BASE_SRC_CLASS (gst_sima_tensor_src_parent_class)->fixate (src,
      caps);
}

/* set_caps only logs why it refuses caps: it is one step of negotiation,
 * and negotiate posts the reason once, where the flow fails. Takes
 * reason. */
static gboolean
refuse_caps (GstSimaTensorSrc * self, gchar * reason)
{
  GST_ERROR_OBJECT (self, "%s", reason);
  g_free (self->refusal);
  self->refusal = reason;
  return FALSE;
}

static gboolean
gst_sima_tensor_src_set_caps (GstBaseSrc * src, GstCaps * caps)
{
  GstSimaTensorSrc *self = GST_SIMA_TENSOR_SRC (src);
  const GstStructure *s = gst_caps_get_structure (caps, 0);
  SimaTensorSpec spec;
  gchar *error = NULL;
  uint64_t bytes;
  SimaStatus st;

  if (!gst_sima_caps_to_spec (s, &spec, &error))
    return refuse_caps (self, error);
  st = sima_tensor_required_bytes (&spec, "tensor", &bytes);
  if (st.code != SIMA_OK)
    return refuse_caps (self, g_strdup (st.message));
  /* Buffer pools and GstBaseSrc hold a buffer's size in a guint: a larger
   * tensor cannot be pooled, and a cast would truncate its size. */
  if (bytes > G_MAXUINT) {
    GString *shape = g_string_new ("<");
    int i;

    for (i = 0; i < spec.rank; i++)
      g_string_append_printf (shape, "%s%" G_GINT64_FORMAT, i ? "," : "",
          (gint64) spec.shape[i]);
    g_string_append_c (shape, '>');
    error = g_strdup_printf ("shape %s of dtype %s is %" G_GUINT64_FORMAT
        " bytes per tensor, more than the %u bytes a buffer pool can hold",
        shape->str, gst_structure_get_string (s, "dtype"), (guint64) bytes,
        G_MAXUINT);
    g_string_free (shape, TRUE);
    return refuse_caps (self, error);
  }
  self->spec = spec;
  self->bytes = bytes;
  return TRUE;
}

static gboolean
gst_sima_tensor_src_negotiate (GstBaseSrc * src)
{
  GstSimaTensorSrc *self = GST_SIMA_TENSOR_SRC (src);
  gboolean ok =
      GST_BASE_SRC_CLASS (gst_sima_tensor_src_parent_class)->negotiate (src);

  if (!ok && self->refusal != NULL)
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s", self->refusal), (NULL));
  g_clear_pointer (&self->refusal, g_free);
  return ok;
}

/* Configures pool for size-byte buffers. A pool that refuses (an active,
 * shared one, say) may have put its own configuration instead, usable
 * when its buffers still fit: GstBaseSrc's default does the same. */
static gboolean
configure_pool (GstBufferPool * pool, GstCaps * caps, guint size, guint min,
    guint max, GstAllocator * allocator, const GstAllocationParams * params)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  gst_buffer_pool_config_set_allocator (config, allocator, params);
  if (gst_buffer_pool_set_config (pool, config))
    return TRUE;
  config = gst_buffer_pool_get_config (pool);
  if (gst_buffer_pool_config_validate_params (config, caps, size, min, max))
    return gst_buffer_pool_set_config (pool, config);
  gst_structure_free (config);
  return FALSE;
}

/* Buffers come from downstream's pool when it takes a configuration of
 * the tensor's size (the sima elements offer DMA-BUF ones, which reach
 * the EV74 without a copy), else from a pool of ours with downstream's
 * allocator, else from create's own memory: the system memory allocator
 * (the stock pools' default) aborts the process when malloc fails, where
 * this source reports a flow error. */
static gboolean
gst_sima_tensor_src_decide_allocation (GstBaseSrc * src, GstQuery * query)
{
  GstSimaTensorSrc *self = GST_SIMA_TENSOR_SRC (src);
  GstBufferPool *pool = NULL;
  GstAllocator *allocator = NULL;
  GstAllocationParams params;
  GstCaps *caps;
  guint size = 0, min = 0, max = 0;
  /* set_caps refused tensors of more than G_MAXUINT bytes */
  guint bytes = (guint) self->bytes;

  gst_query_parse_allocation (query, &caps, NULL);
  if (gst_query_get_n_allocation_params (query) > 0)
    gst_query_parse_nth_allocation_param (query, 0, &allocator, &params);
  else
    gst_allocation_params_init (&params);
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  /* an empty tensor is a buffer without memory (create) */
  if (pool != NULL && (bytes == 0 || !configure_pool (pool, caps, bytes, min,
              max, allocator, &params))) {
    GST_DEBUG_OBJECT (self, "not using downstream's pool %" GST_PTR_FORMAT,
        pool);
    gst_clear_object (&pool);
  }
  if (pool == NULL && bytes > 0 && allocator != NULL
      && g_strcmp0 (allocator->mem_type, GST_ALLOCATOR_SYSMEM) != 0) {
    pool = gst_buffer_pool_new ();
    if (!configure_pool (pool, caps, bytes, min, max, allocator, &params))
      gst_clear_object (&pool);
  }
  /* A pool allocates its minimum when activated, which GstBaseSrc would
   * report as a bare not-negotiated: activated here, a failure names the
   * size. */
  if (pool != NULL && !gst_buffer_pool_set_active (pool, TRUE)) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("cannot allocate %u buffers of %u bytes (one tensor each) in %"
            GST_PTR_FORMAT, min, bytes, pool), (NULL));
    gst_object_unref (pool);
    gst_clear_object (&allocator);
    return FALSE;
  }
  /* what GstBaseSrc keeps: this pool, or none */
  while (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_remove_nth_allocation_pool (query, 0);
  if (pool != NULL) {
    gst_query_add_allocation_pool (query, pool, bytes, min, max);
    gst_object_unref (pool);
  }
  gst_clear_object (&allocator);
  return TRUE;
}

static gboolean
gst_sima_tensor_src_start (GstBaseSrc * src)
{
  GST_SIMA_TENSOR_SRC (src)->frame = 0;
  return TRUE;
}

static void
gst_sima_tensor_src_finalize (GObject * object)
{
  g_free (GST_SIMA_TENSOR_SRC (object)->refusal);
  G_OBJECT_CLASS (gst_sima_tensor_src_parent_class)->finalize (object);
}

static GstFlowReturn
gst_sima_tensor_src_fill (GstPushSrc * psrc, GstBuffer * buffer);

/* Memory of our own, at downstream's alignment (params.align is a mask,
 * 2^n - 1): posix_memalign fails where the system memory allocator would
 * abort the process. NULL on failure. Prefix and padding are not made. */
static GstBuffer *
new_own_buffer (GstBaseSrc * src, gsize bytes)
{
  GstAllocationParams params;
  gpointer data = NULL;

  gst_base_src_get_allocator (src, NULL, &params);
  if (posix_memalign (&data, MAX (params.align + 1, sizeof (gpointer)),
          bytes) != 0)
    return NULL;
  return gst_buffer_new_wrapped_full (0, data, bytes, 0, bytes, data, free);
}

/* Base source treats a block size of 0 as "nothing to read" and skips
 * fill(); an empty tensor is still a buffer (of 0 bytes) with timestamps,
 * so buffers are made here, of exactly the tensor's size. Non-empty ones
 * come from the pool decide_allocation chose (downstream's DMA-BUF pool
 * when it offers one, so they reach the EV74 without a copy), else from
 * our own memory. */
static GstFlowReturn
gst_sima_tensor_src_create (GstPushSrc * psrc, GstBuffer ** buffer)
{
  GstSimaTensorSrc *self = GST_SIMA_TENSOR_SRC (psrc);
  GstBufferPool *pool = gst_base_src_get_buffer_pool (GST_BASE_SRC (psrc));
  GstFlowReturn ret = GST_FLOW_OK;

  *buffer = NULL;
  if (self->bytes == 0) {
    *buffer = gst_buffer_new ();
  } else if (pool != NULL) {
    ret = gst_buffer_pool_acquire_buffer (pool, buffer, NULL);
    if (ret == GST_FLOW_OK && gst_buffer_get_size (*buffer) < self->bytes) {
      GST_DEBUG_OBJECT (self, "the pool's buffers are too small: allocating");
      gst_clear_buffer (buffer);
    }
  }
  if (pool != NULL)
    gst_object_unref (pool);
  if (ret != GST_FLOW_OK && ret != GST_FLOW_ERROR)
    return ret;                 /* flushing: stopping or seeking */
  if (ret == GST_FLOW_OK && *buffer == NULL)
    *buffer = new_own_buffer (GST_BASE_SRC (psrc), (gsize) self->bytes);
  if (*buffer == NULL) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("cannot allocate a buffer of %" G_GUINT64_FORMAT " bytes for one "
            "tensor", self->bytes), (NULL));
    return GST_FLOW_ERROR;
  }
  /* a pool may have made larger buffers: the tensor's size is pushed */
  if (gst_buffer_get_size (*buffer) > self->bytes)
    gst_buffer_set_size (*buffer, (gssize) self->bytes);
  ret = gst_sima_tensor_src_fill (psrc, *buffer);
  if (ret != GST_FLOW_OK)
    gst_clear_buffer (buffer);
  return ret;
}

static GstFlowReturn
gst_sima_tensor_src_fill (GstPushSrc * psrc, GstBuffer * buffer)
{
  GstSimaTensorSrc *self = GST_SIMA_TENSOR_SRC (psrc);
  SimaPatternParams params;
  GstClockTime duration, pts, end;
  GstMapInfo map;
  SimaStatus st;

  GST_OBJECT_LOCK (self);
  params = self->params;
  duration = self->frame_duration;
  GST_OBJECT_UNLOCK (self);
  /* frame-duration may be any 64-bit count: timestamps must neither wrap
   * nor reach GST_CLOCK_TIME_NONE */
  if (!g_uint64_checked_mul (&pts, self->frame, duration)
      || !g_uint64_checked_add (&end, pts, duration)
      || end == GST_CLOCK_TIME_NONE) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("frame-duration %"
            G_GUINT64_FORMAT ": frame %" G_GUINT64_FORMAT " would end past "
            "the largest timestamp", duration, self->frame), (NULL));
    return GST_FLOW_ERROR;
  }
  if (self->bytes > 0) {
    /* DMA-BUF memory syncs for the CPU in map and unmap */
    if (!gst_buffer_map (buffer, &map, GST_MAP_WRITE)) {
      GST_ELEMENT_ERROR (self, RESOURCE, WRITE, ("cannot map a buffer of %"
              G_GUINT64_FORMAT " bytes for writing", self->bytes), (NULL));
      return GST_FLOW_ERROR;
    }
    st = sima_pattern_fill (&self->spec, &params, self->frame, map.data,
        (size_t) self->bytes);
    gst_buffer_unmap (buffer, &map);
  } else {
    st = sima_status_ok ();     /* an empty tensor: no values to write */
  }
  if (st.code != SIMA_OK) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("%s", st.message), (NULL));
    return GST_FLOW_ERROR;
  }
  GST_BUFFER_PTS (buffer) = pts;
  GST_BUFFER_DURATION (buffer) = duration;
  GST_BUFFER_OFFSET (buffer) = self->frame;
  GST_BUFFER_OFFSET_END (buffer) = self->frame + 1;
  self->frame++;
  return GST_FLOW_OK;
}

/* A live source is paced by the clock: base source waits until each
 * buffer's running time before pushing it. */
static void
gst_sima_tensor_src_get_times (GstBaseSrc * src, GstBuffer * buffer,
    GstClockTime * start, GstClockTime * end)
{
  *start = *end = GST_CLOCK_TIME_NONE;
  if (!gst_base_src_is_live (src) || !GST_BUFFER_PTS_IS_VALID (buffer))
    return;
  *start = GST_BUFFER_PTS (buffer);
  if (GST_BUFFER_DURATION_IS_VALID (buffer))
    *end = *start + GST_BUFFER_DURATION (buffer);
}

/* Live, each buffer is pushed at its own running time and could be made
 * at any later moment: no latency of its own, and no bound on how long
 * downstream may make it wait (base source would say a maximum of 0, and
 * sinks would warn that they cannot keep their processing deadline). */
static gboolean
gst_sima_tensor_src_query (GstBaseSrc * src, GstQuery * query)
{
  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    gst_query_set_latency (query, gst_base_src_is_live (src), 0,
        GST_CLOCK_TIME_NONE);
    return TRUE;
  }
  return GST_BASE_SRC_CLASS (gst_sima_tensor_src_parent_class)->query (src,
      query);
}

static void
gst_sima_tensor_src_class_init (GstSimaTensorSrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *basesrc_class = GST_BASE_SRC_CLASS (klass);
  GstPushSrcClass *pushsrc_class = GST_PUSH_SRC_CLASS (klass);

  gobject_class->set_property = gst_sima_tensor_src_set_property;
  gobject_class->get_property = gst_sima_tensor_src_get_property;
  gobject_class->finalize = gst_sima_tensor_src_finalize;

  /**
   * GstSimaTensorSrc:pattern:
   *
   * What the tensors hold: `ramp` (the default; min to max across the
   * tensor, shifted per frame), `random` (uniform in min..max from seed and
   * frame), `constant` (value everywhere) or `special` (NaN, infinities,
   * signed zeros, subnormals, extremes and rounding ties, cycled).
   */

  g_object_class_install_property (gobject_class, PROP_PATTERN,
      g_param_spec_enum ("pattern", "Pattern", "What the tensors hold",
          GST_TYPE_SIMA_PATTERN, DEFAULT_PATTERN,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  /**
   * GstSimaTensorSrc:min:
   *
   * Lowest value of the ramp and random patterns. Any double, default -1.
   */

  g_object_class_install_property (gobject_class, PROP_MIN,
      g_param_spec_double ("min", "Minimum",
          "Lowest value of the ramp and random patterns", -G_MAXDOUBLE,
          G_MAXDOUBLE, DEFAULT_MIN, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS));
  /**
   * GstSimaTensorSrc:max:
   *
   * Highest value of the ramp and random patterns. Any double, default 1.
   */

  g_object_class_install_property (gobject_class, PROP_MAX,
      g_param_spec_double ("max", "Maximum",
          "Highest value of the ramp and random patterns", -G_MAXDOUBLE,
          G_MAXDOUBLE, DEFAULT_MAX, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS));
  /**
   * GstSimaTensorSrc:value:
   *
   * The value of the constant pattern. Any double, default 0.
   */

  g_object_class_install_property (gobject_class, PROP_VALUE,
      g_param_spec_double ("value", "Value",
          "The value of the constant pattern", -G_MAXDOUBLE, G_MAXDOUBLE, 0.0,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  /**
   * GstSimaTensorSrc:seed:
   *
   * Seed of the random pattern: the same seed gives the same tensors.
   * Range 0 to G_MAXUINT64, default 0.
   */

  g_object_class_install_property (gobject_class, PROP_SEED,
      g_param_spec_uint64 ("seed", "Seed",
          "Seed of the random pattern (the same seed gives the same "
          "tensors)", 0, G_MAXUINT64, 0,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  /**
   * GstSimaTensorSrc:frame-duration:
   *
   * Nanoseconds between buffers: their timestamps and durations, and the
   * pace when is-live=true. Range 1 to G_MAXUINT64, default 33333333 (30 per
   * second).
   */

  g_object_class_install_property (gobject_class, PROP_FRAME_DURATION,
      g_param_spec_uint64 ("frame-duration", "Frame duration",
          "Nanoseconds between buffers (timestamps; the pace when live)", 1,
          G_MAXUINT64, DEFAULT_FRAME_DURATION,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  /**
   * GstSimaTensorSrc:is-live:
   *
   * Act as a live source: buffers are pushed when the clock reaches their
   * timestamp, and the LATENCY query says live (no latency of its own).
   * Default false.
   */

  g_object_class_install_property (gobject_class, PROP_IS_LIVE,
      g_param_spec_boolean ("is-live", "Is live",
          "Act as a live source (buffers paced by the clock)", FALSE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "SiMa tensor test source", "Source/Tensor",
      "Produces test tensors (ramp, random, constant, special values)",
      "gst-sima-kernels developers");

  basesrc_class->fixate = GST_DEBUG_FUNCPTR (gst_sima_tensor_src_fixate);
  basesrc_class->set_caps = GST_DEBUG_FUNCPTR (gst_sima_tensor_src_set_caps);
  basesrc_class->negotiate = GST_DEBUG_FUNCPTR (gst_sima_tensor_src_negotiate);
  basesrc_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_sima_tensor_src_decide_allocation);
  basesrc_class->start = GST_DEBUG_FUNCPTR (gst_sima_tensor_src_start);
  basesrc_class->get_times = GST_DEBUG_FUNCPTR (gst_sima_tensor_src_get_times);
  basesrc_class->query = GST_DEBUG_FUNCPTR (gst_sima_tensor_src_query);
  pushsrc_class->create = GST_DEBUG_FUNCPTR (gst_sima_tensor_src_create);

  gst_type_mark_as_plugin_api (GST_TYPE_SIMA_PATTERN, 0);
}

static void
gst_sima_tensor_src_init (GstSimaTensorSrc * self)
{
  self->params.pattern = DEFAULT_PATTERN;
  self->params.min = DEFAULT_MIN;
  self->params.max = DEFAULT_MAX;
  self->params.value = 0.0;
  self->params.seed = 0;
  self->frame_duration = DEFAULT_FRAME_DURATION;
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
}
