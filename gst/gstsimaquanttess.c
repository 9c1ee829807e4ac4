/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-simaquanttess
 * @title: simaquanttess
 *
 * Quantizes a float32, float16, bfloat16 or uint8 tensor (contiguous or
 * strided), or a camera frame (video/x-raw), to INT8 in the MLA tiled
 * layout, exactly as the kernel core's QuantTess:
 * `round(RNE_f32(x * multiplier)) + zero-point`, saturated to INT8, with
 * channel padding holding the zero point. Runs on the EV74 by default
 * (backend, fallback and device properties), on the A65 when asked, where
 * one buffer is split over `threads` threads (the same bytes whatever the
 * number; ignored on the EV74).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 simatensorsrc num-buffers=30 ! \
 *   application/vnd.simaai.tensor,dtype=float32,shape="<224,224,3>" ! \
 *   simaquanttess multiplier=127 device=emulator ! fakesink
 * ]| Quantizes 30 RGB tensors in [-1, 1] to H8/W16/C16 pad16 INT8 tiles
 * on the EV74 emulator (pipelines/quanttess-ev74.sh runs a variant and
 * checks every byte).
 * |[
 * gst-launch-1.0 simatensorsrc num-buffers=30 ! \
 *   application/vnd.simaai.tensor,dtype=float16,shape="<1,56,56,64>" ! \
 *   simaquanttess multiplier=64 zero-point=-3 rounding=toward-zero \
 *     channels=compact backend=a65 threads=2 ! fakesink
 * ]| The same on the A65, FP16 input, compact C16 tiles, each tensor split
 * over two threads.
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=30 ! \
 *   video/x-raw,format=RGB,width=224,height=224 ! \
 *   simaquanttess multiplier=1.0002733 zero-point=-128 backend=a65 ! fakesink
 * ]| Camera frames in place (a strided UINT8 view <224, 224, 3>, channels
 * in memory order), quantized as SiMa's preproc does with q_scale 255.0697
 * on pixels normalised to [0, 1] and q_zp -128: multiplier = 255.0697 /
 * 255 on the 8-bit values (pipelines/video-preproc.sh checks every byte).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsimaquanttess.h"

#include <simaai/kernels/a65/quanttess.h>
#include <simaai/kernels/ev74/tensor_set.h>

#include "gstsimacaps.h"
#include "gstsimadialect.h"
#include "gstsimavideo.h"
#include "gstsimamemberparams.h"
#include "gstsimatiling.h"

GST_DEBUG_CATEGORY_STATIC (gst_sima_quant_tess_debug);
#define GST_CAT_DEFAULT gst_sima_quant_tess_debug

enum
{
  PROP_0,
  PROP_MULTIPLIER,
  PROP_ZERO_POINT,
  PROP_ROUNDING,
  PROP_TILING,                  /* tile-axes, tile-shape, channels, cblock */
  PROP_MULTIPLIERS = PROP_TILING + GST_SIMA_TILING_N_PROPS,
  PROP_ZERO_POINTS,
};

struct _GstSimaQuantTess
{
  GstSimaBaseTransform parent;
  /* properties (object lock) */
  gfloat multiplier;
  gint zero_point;
  SimaRounding rounding;
  GstSimaTilingProps tiling;
  GstSimaFloatArray multipliers;        /* per set member; empty: multiplier */
  GstSimaIntArray zero_points;          /* per member; empty: zero-point */
  /* the negotiated set's plans (streaming thread); large, so on the heap */
  SimaQuantTessSetPlan *plan;
  SimaA65QuantTessSetPlan *a65;
};

G_DEFINE_TYPE_WITH_CODE (GstSimaQuantTess, gst_sima_quant_tess,
    GST_TYPE_SIMA_BASE_TRANSFORM,
    GST_DEBUG_CATEGORY_INIT (gst_sima_quant_tess_debug, "simaquanttess", 0,
        "SiMa QuantTess"));
GST_ELEMENT_REGISTER_DEFINE (simaquanttess, "simaquanttess", GST_RANK_NONE,
    GST_TYPE_SIMA_QUANT_TESS);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_SIMA_TENSOR_MEDIA_TYPE ", "
        "dtype = (string) { float32, float16, bfloat16, uint8 }, "
        "layout = (string) { contiguous, strided }; "
        GST_SIMA_TENSOR_SET_CAPS "; " GST_SIMA_DIALECT_RUNTIME_FLOAT_CAPS "; "
        GST_SIMA_VIDEO_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_SIMA_TENSOR_MEDIA_TYPE ", "
        "dtype = (string) int8, layout = (string) mla-tiled; "
        GST_SIMA_TENSOR_SET_CAPS "; " GST_SIMA_DIALECT_INT8_TILES_CAPS));

static void
gst_sima_quant_tess_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstSimaQuantTess *self = GST_SIMA_QUANT_TESS (object);
  gboolean relayout = FALSE, known = TRUE;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MULTIPLIER:
      self->multiplier = g_value_get_float (value);
      break;
    case PROP_ZERO_POINT:
      self->zero_point = g_value_get_int (value);
      break;
    case PROP_ROUNDING:
      self->rounding = (SimaRounding) g_value_get_enum (value);
      break;
    case PROP_MULTIPLIERS:
      gst_sima_float_array_set (&self->multipliers, value);
      break;
    case PROP_ZERO_POINTS:
      gst_sima_int_array_set (&self->zero_points, value);
      break;
    default:
      known = relayout = gst_sima_tiling_set_property (&self->tiling,
          PROP_TILING, prop_id, value);
      break;
  }
  GST_OBJECT_UNLOCK (self);
  if (known)
    gst_sima_base_transform_params_changed (GST_SIMA_BASE_TRANSFORM (self),
        relayout);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_sima_quant_tess_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstSimaQuantTess *self = GST_SIMA_QUANT_TESS (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MULTIPLIER:
      g_value_set_float (value, self->multiplier);
      break;
    case PROP_ZERO_POINT:
      g_value_set_int (value, self->zero_point);
      break;
    case PROP_ROUNDING:
      g_value_set_enum (value, self->rounding);
      break;
    case PROP_MULTIPLIERS:
      gst_sima_float_array_get (&self->multipliers, value);
      break;
    case PROP_ZERO_POINTS:
      gst_sima_int_array_get (&self->zero_points, value);
      break;
    default:
      if (!gst_sima_tiling_get_property (&self->tiling, PROP_TILING, prop_id,
              value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* Member i's parameters: the array properties' entries when they are set,
 * the single-value properties otherwise. Object lock held. */
static SimaQuantTessParams
member_params (GstSimaQuantTess * self, guint i)
{
  SimaQuantTessParams p = { 0, 0, SIMA_ROUNDING_NEAREST_EVEN };

  p.multiplier = self->multipliers.n > 0 && i < SIMA_TENSOR_SET_MAX_MEMBERS
      ? self->multipliers.v[i] : self->multiplier;
  p.zero_point = self->zero_points.n > 0 && i < SIMA_TENSOR_SET_MAX_MEMBERS
      ? self->zero_points.v[i] : self->zero_point;
  p.rounding = self->rounding;
  return p;
}

static gboolean
gst_sima_quant_tess_check_properties (GstSimaBaseTransform * base)
{
  GstSimaQuantTess *self = GST_SIMA_QUANT_TESS (base);
  SimaQuantTessParams params[SIMA_TENSOR_SET_MAX_MEMBERS];
  SimaStatus st = sima_status_ok ();
  guint i, n;

  GST_OBJECT_LOCK (self);
  n = MIN (MAX (self->multipliers.n, 1), SIMA_TENSOR_SET_MAX_MEMBERS);
  for (i = 0; i < n; i++)
    params[i] = member_params (self, i);
  GST_OBJECT_UNLOCK (self);
  /* the core's own rule (bit-based: a subnormal multiplier is valid on a
   * CPU that flushes subnormals too) */
  for (i = 0; i < n && st.code == SIMA_OK; i++)
    st = sima_quanttess_check_params (&params[i]);
  if (st.code == SIMA_OK)
    return TRUE;
  GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
      ("simaquanttess needs %s (finite, > 0): %s. It multiplies: "
          "multiplier=127 maps [-1, 1] to [-127, 127].",
          n > 1 ? "one multipliers entry per member" : "the multiplier "
          "property", st.message), (NULL));
  return FALSE;
}

/* The core's admission of the set in -> out with the current properties,
 * into plan. */
static SimaStatus
gst_sima_quant_tess_check (GstSimaQuantTess * self, const SimaTensorSet * in,
    const SimaTensorSet * out, SimaQuantTessSetPlan * plan)
{
  SimaQuantTessParams params[SIMA_TENSOR_SET_MAX_MEMBERS];
  SimaQuantTessSetRequest req = { in, out, params, in->n_members };
  guint n_multipliers, n_zero_points, i;
  SimaStatus st;

  GST_OBJECT_LOCK (self);
  n_multipliers = self->multipliers.n;
  n_zero_points = self->zero_points.n;
  for (i = 0; i < in->n_members && i < SIMA_TENSOR_SET_MAX_MEMBERS; i++)
    params[i] = member_params (self, i);
  GST_OBJECT_UNLOCK (self);
  st = gst_sima_member_params_check ("multipliers", n_multipliers,
      in->n_members);
  if (st.code == SIMA_OK)
    st = gst_sima_member_params_check ("zero-points", n_zero_points,
        in->n_members);
  if (st.code == SIMA_OK)
    st = sima_quanttess_set_check_inference (&req, plan);
  return st;
}

static SimaStatus
gst_sima_quant_tess_prepare (GstSimaBaseTransform * base,
    const SimaTensorSet * in, const SimaTensorSet * out,
    guint64 * in_bytes, guint64 * out_bytes)
{
  GstSimaQuantTess *self = GST_SIMA_QUANT_TESS (base);
  SimaStatus st = gst_sima_quant_tess_check (self, in, out, self->plan);

  if (st.code == SIMA_OK)
    st = sima_a65_quanttess_set_prepare (self->plan, self->a65);
  if (st.code == SIMA_OK) {
    *in_bytes = self->plan->input_bytes;
    *out_bytes = self->plan->output_bytes;
  }
  return st;
}

static SimaStatus
gst_sima_quant_tess_execute_a65 (GstSimaBaseTransform * base,
    SimaA65Threads * pool, const void *in, gsize in_size, void *out,
    gsize out_size)
{
  GstSimaQuantTess *self = GST_SIMA_QUANT_TESS (base);
  SimaConstHostBuffer ib = { in, in_size };
  SimaHostBuffer ob = { out, out_size };
  return sima_a65_quanttess_set_execute_on (self->a65, pool, &ib, &ob);
}

static SimaStatus
gst_sima_quant_tess_encode (GstSimaBaseTransform * base,
    SimaEv74Descriptor * desc)
{
  return sima_ev74_quanttess_set_encode_relocatable (GST_SIMA_QUANT_TESS
      (base)->plan, desc);
}

static GstCaps *
gst_sima_quant_tess_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  return gst_sima_tiling_transform_caps (direction, caps, filter, "int8");
}

/* The core's admission for fixation: a plan of its own, so that trying
 * candidates never touches the negotiated one. */
static gboolean
gst_sima_quant_tess_admit (GstObject * owner, const SimaTensorSet * in,
    const SimaTensorSet * out, gchar ** why)
{
  SimaQuantTessSetPlan *plan = g_new (SimaQuantTessSetPlan, 1);
  SimaStatus st = gst_sima_quant_tess_check (GST_SIMA_QUANT_TESS (owner), in,
      out, plan);

  g_free (plan);
  if (st.code != SIMA_OK && why != NULL)
    *why = g_strdup (st.message);
  return st.code == SIMA_OK;
}

static GstCaps *
gst_sima_quant_tess_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  GstSimaQuantTess *self = GST_SIMA_QUANT_TESS (trans);

  return gst_sima_tiling_fixate_caps (GST_OBJECT (self), GST_CAT_DEFAULT,
      &self->tiling, gst_sima_quant_tess_admit, direction, caps, othercaps);
}

static void
gst_sima_quant_tess_finalize (GObject * object)
{
  GstSimaQuantTess *self = GST_SIMA_QUANT_TESS (object);

  g_free (self->plan);
  g_free (self->a65);
  G_OBJECT_CLASS (gst_sima_quant_tess_parent_class)->finalize (object);
}

static void
gst_sima_quant_tess_class_init (GstSimaQuantTessClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstSimaBaseTransformClass *sima_class = GST_SIMA_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_sima_quant_tess_set_property;
  gobject_class->get_property = gst_sima_quant_tess_get_property;
  gobject_class->finalize = gst_sima_quant_tess_finalize;

  /**
   * GstSimaQuantTess:multiplier:
   *
   * Required. Each input value is multiplied by it (a multiplier, not a
   * divisor): finite and > 0, subnormals allowed. Range 0 to G_MAXFLOAT;
   * the default 0 means unset, and the element refuses to start.
   */
  g_object_class_install_property (gobject_class, PROP_MULTIPLIER,
      g_param_spec_float ("multiplier", "Multiplier",
          "Required: x * multiplier is rounded to binary32, then to an "
          "integer (finite, > 0; 0 = unset)", 0.0f, G_MAXFLOAT, 0.0f,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstSimaQuantTess:zero-point:
   *
   * Added to the rounded product before saturation to INT8; also the value
   * of every padding channel of a pad16 tile. Range -128 to 127, default 0.
   */

  g_object_class_install_property (gobject_class, PROP_ZERO_POINT,
      g_param_spec_int ("zero-point", "Zero point",
          "Added after rounding; also the value of padding channels", -128,
          127, 0, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstSimaQuantTess:rounding:
   *
   * How the binary32 product x * multiplier becomes an integer:
   * `nearest-even` (the default), `toward-zero`, `toward-positive` or
   * `toward-negative`. Independent of the CPU's rounding mode.
   */

  g_object_class_install_property (gobject_class, PROP_ROUNDING,
      g_param_spec_enum ("rounding", "Rounding",
          "How the binary32 product becomes an integer",
          GST_TYPE_SIMA_ROUNDING, SIMA_ROUNDING_NEAREST_EVEN,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  gst_sima_tiling_install_properties (gobject_class, PROP_TILING);
  /**
   * GstSimaQuantTess:multipliers:
   *
   * One multiplier per member of a tensor set (a multi-input model), in
   * member order. Empty (the default): every member uses
   * #GstSimaQuantTess:multiplier. When set it must have exactly one entry
   * per member of the negotiated set, each finite and > 0.
   */
  g_object_class_install_property (gobject_class, PROP_MULTIPLIERS,
      gst_sima_param_spec_float_array ("multipliers", "Multipliers",
          "One multiplier per member of a tensor set, in member order "
          "(empty: every member uses multiplier)", 0.0f, G_MAXFLOAT));
  /**
   * GstSimaQuantTess:zero-points:
   *
   * One zero point per member of a tensor set, in member order, each -128
   * to 127. Empty (the default): every member uses
   * #GstSimaQuantTess:zero-point.
   */
  g_object_class_install_property (gobject_class, PROP_ZERO_POINTS,
      gst_sima_param_spec_int_array ("zero-points", "Zero points",
          "One zero point per member of a tensor set, in member order "
          "(empty: every member uses zero-point)", -128, 127));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "SiMa QuantTess", "Filter/Converter/Tensor",
      "Quantizes float tensors to INT8 MLA tiles, bit-exact, on the EV74 or "
      "the A65", "gst-sima-kernels developers");

  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_sima_quant_tess_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_sima_quant_tess_fixate_caps);

  sima_class->op_name = "QuantTess";
  sima_class->route = SIMA_EV74_ROUTE_QUANTTESS;
  sima_class->capability = SIMA_EV74_QUANTTESS_CAPABILITY;
  sima_class->debug_category = gst_sima_quant_tess_debug;
  sima_class->check_properties = gst_sima_quant_tess_check_properties;
  sima_class->prepare = gst_sima_quant_tess_prepare;
  sima_class->execute_a65 = gst_sima_quant_tess_execute_a65;
  sima_class->encode = gst_sima_quant_tess_encode;

  gst_type_mark_as_plugin_api (GST_TYPE_SIMA_ROUNDING, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_SIMA_CHANNELS, 0);
}

static void
gst_sima_quant_tess_init (GstSimaQuantTess * self)
{
  self->multiplier = 0.0f;
  self->zero_point = 0;
  self->rounding = SIMA_ROUNDING_NEAREST_EVEN;
  gst_sima_tiling_props_init (&self->tiling);
  self->plan = g_new0 (SimaQuantTessSetPlan, 1);
  self->a65 = g_new0 (SimaA65QuantTessSetPlan, 1);
}
