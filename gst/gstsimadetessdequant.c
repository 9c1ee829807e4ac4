/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-simadetessdequant
 * @title: simadetessdequant
 *
 * Reads INT8 MLA tiles (mla-tiled, compact or pad16, or mla-cblocked) and
 * writes FP32 or BF16 tensors, contiguous or strided, exactly as the kernel
 * core's DetessDequant: `RNE_f32(RNE_f32(q - RNE_f32(zero-point)) * scale)`
 * (then BF16 nearest even). With `scale-convention=divide` the last stage
 * divides instead, `RNE_f32(d / scale)` correctly rounded: SiMa's model
 * JSON writes value = (q - dq_zp) / dq_scale, so its dq_scale goes into
 * `scale` and its dq_zp into `zero-point` unchanged (the double is rounded
 * to a float once, when the property is set). docs/detessdequant.md says
 * bit for bit how that relates to (q - dq_zp) / dq_scale. Padding in the input is ignored; holes of a
 * strided output are never written. The output dtype and layout come from
 * downstream caps (float32, contiguous when left open). Runs on the EV74
 * by default, on the A65 when asked, where one buffer is split over
 * `threads` threads (the same bytes whatever the number; ignored on the
 * EV74).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 simatensorsrc num-buffers=30 ! \
 *   application/vnd.simaai.tensor,dtype=float32,shape="<224,224,3>" ! \
 *   simaquanttess multiplier=127 ! simadetessdequant scale=0.007874016 ! \
 *   fakesink
 * ]| Quantizes to tiles and back on the EV74 (pipelines/roundtrip-ev74.sh
 * runs it and checks the round trip).
 * |[
 * gst-launch-1.0 simatensorsrc num-buffers=5 ! \
 *   application/vnd.simaai.tensor,dtype=float32,shape="<8,8,3>" ! \
 *   simaquanttess multiplier=127 backend=a65 ! \
 *   simadetessdequant scale=0.007874016 backend=a65 ! \
 *   application/vnd.simaai.tensor,dtype=float32,layout=strided,strides="<256,16,4>" ! \
 *   fakesink
 * ]| Writes into a pitched output (rows of 256 bytes, pixels of 16) on the
 * A65 (pipelines/detess-strided-a65.sh runs a variant and checks it).
 * |[
 * gst-launch-1.0 simatensorsrc num-buffers=3 pattern=random min=-6 max=6 ! \
 *   application/vnd.simaai.tensor,dtype=float32,shape="<80,80,64>" ! \
 *   simaquanttess multiplier=11.328456438342892 zero-point=-61 tile-shape="<1,1,80,64>" ! \
 *   simadetessdequant scale-convention=divide scale=11.328456438342892 zero-point=-61 ! \
 *   fakesink
 * ]| YOLOv8n head 0's tiling (one 80 x 64 row per tile) with SiMa's own
 * dq_scale and dq_zp copied from the model JSON: SiMa's quantisation
 * multiplies by it, its dequantisation divides by it, on the EV74.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsimadetessdequant.h"

#include <simaai/kernels/a65/detessdequant.h>
#include <simaai/kernels/ev74/tensor_set.h>

#include "gstsimacaps.h"
#include "gstsimadialect.h"
#include "gstsimamemberparams.h"
#include "gstsimatiling.h"

GST_DEBUG_CATEGORY_STATIC (gst_sima_detess_dequant_debug);
#define GST_CAT_DEFAULT gst_sima_detess_dequant_debug

enum
{
  PROP_0,
  PROP_SCALE,
  PROP_ZERO_POINT,
  PROP_SCALE_CONVENTION,
  PROP_SCALES,
  PROP_ZERO_POINTS,
};

struct _GstSimaDetessDequant
{
  GstSimaBaseTransform parent;
  gfloat scale;                 /* object lock */
  gint zero_point;
  SimaScaleConvention convention;
  GstSimaFloatArray scales;     /* per member of a set; empty: scale */
  GstSimaIntArray zero_points;  /* per member; empty: zero-point */
  /* the negotiated set's plans (streaming thread); large, so on the heap */
  SimaDetessDequantSetPlan *plan;
  SimaA65DetessDequantSetPlan *a65;
};

G_DEFINE_TYPE_WITH_CODE (GstSimaDetessDequant, gst_sima_detess_dequant,
    GST_TYPE_SIMA_BASE_TRANSFORM,
    GST_DEBUG_CATEGORY_INIT (gst_sima_detess_dequant_debug,
        "simadetessdequant", 0, "SiMa DetessDequant"));
GST_ELEMENT_REGISTER_DEFINE (simadetessdequant, "simadetessdequant",
    GST_RANK_NONE, GST_TYPE_SIMA_DETESS_DEQUANT);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_SIMA_TENSOR_MEDIA_TYPE ", "
        "dtype = (string) int8, layout = (string) { mla-tiled, mla-cblocked }; "
        GST_SIMA_TENSOR_SET_CAPS "; " GST_SIMA_DIALECT_INT8_TILES_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_SIMA_TENSOR_MEDIA_TYPE ", "
        "dtype = (string) { float32, bfloat16 }, "
        "layout = (string) { contiguous, strided }; "
        GST_SIMA_TENSOR_SET_CAPS "; " GST_SIMA_DIALECT_RUNTIME_DEQUANT_CAPS));

static void
gst_sima_detess_dequant_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstSimaDetessDequant *self = GST_SIMA_DETESS_DEQUANT (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SCALE:
      self->scale = g_value_get_float (value);
      break;
    case PROP_ZERO_POINT:
      self->zero_point = g_value_get_int (value);
      break;
    case PROP_SCALE_CONVENTION:
      self->convention = (SimaScaleConvention) g_value_get_enum (value);
      break;
    case PROP_SCALES:
      gst_sima_float_array_set (&self->scales, value);
      break;
    case PROP_ZERO_POINTS:
      gst_sima_int_array_set (&self->zero_points, value);
      break;
    default:
      GST_OBJECT_UNLOCK (self);
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
  }
  GST_OBJECT_UNLOCK (self);
  gst_sima_base_transform_params_changed (GST_SIMA_BASE_TRANSFORM (self),
      FALSE);
}

static void
gst_sima_detess_dequant_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstSimaDetessDequant *self = GST_SIMA_DETESS_DEQUANT (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SCALE:
      g_value_set_float (value, self->scale);
      break;
    case PROP_ZERO_POINT:
      g_value_set_int (value, self->zero_point);
      break;
    case PROP_SCALE_CONVENTION:
      g_value_set_enum (value, self->convention);
      break;
    case PROP_SCALES:
      gst_sima_float_array_get (&self->scales, value);
      break;
    case PROP_ZERO_POINTS:
      gst_sima_int_array_get (&self->zero_points, value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* Member i's parameters: the array properties' entries when they are set,
 * the single-value properties otherwise. Object lock held. */
static SimaDetessDequantParams
member_params (GstSimaDetessDequant * self, guint i)
{
  SimaDetessDequantParams p = { 0, 0, SIMA_SCALE_MULTIPLY };

  p.scale = self->scales.n > 0 && i < SIMA_TENSOR_SET_MAX_MEMBERS
      ? self->scales.v[i] : self->scale;
  p.zero_point = self->zero_points.n > 0 && i < SIMA_TENSOR_SET_MAX_MEMBERS
      ? self->zero_points.v[i] : self->zero_point;
  p.convention = self->convention;
  return p;
}

static gboolean
gst_sima_detess_dequant_check_properties (GstSimaBaseTransform * base)
{
  GstSimaDetessDequant *self = GST_SIMA_DETESS_DEQUANT (base);
  SimaDetessDequantParams params[SIMA_TENSOR_SET_MAX_MEMBERS];
  SimaStatus st = sima_status_ok ();
  guint i, n;

  GST_OBJECT_LOCK (self);
  /* every scale that can be used must be valid; the counts are checked
   * against the set in prepare, when the set is known */
  n = MIN (MAX (self->scales.n, 1), SIMA_TENSOR_SET_MAX_MEMBERS);
  for (i = 0; i < n; i++)
    params[i] = member_params (self, i);
  GST_OBJECT_UNLOCK (self);
  /* the core's own rule (bit-based: a subnormal scale is valid on a CPU
   * that flushes subnormals too) */
  for (i = 0; i < n && st.code == SIMA_OK; i++)
    st = sima_detessdequant_check_params (&params[i]);
  if (st.code == SIMA_OK)
    return TRUE;
  GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
      ("simadetessdequant needs %s (finite, > 0): %s. It multiplies: "
          "scale=0.007874016 (1/127) undoes multiplier=127; with "
          "scale-convention=divide it divides (SiMa's dq_scale).",
          n > 1 ? "one scales entry per member" : "the scale property",
          st.message), (NULL));
  return FALSE;
}

/* The core's admission of the set in -> out with the current properties,
 * into plan. */
static SimaStatus
gst_sima_detess_dequant_check (GstSimaDetessDequant * self,
    const SimaTensorSet * in, const SimaTensorSet * out,
    SimaDetessDequantSetPlan * plan)
{
  SimaDetessDequantParams params[SIMA_TENSOR_SET_MAX_MEMBERS];
  SimaDetessDequantSetRequest req = { in, out, params, in->n_members };
  guint n_scales, n_zero_points, i;
  SimaStatus st;

  GST_OBJECT_LOCK (self);
  n_scales = self->scales.n;
  n_zero_points = self->zero_points.n;
  for (i = 0; i < in->n_members && i < SIMA_TENSOR_SET_MAX_MEMBERS; i++)
    params[i] = member_params (self, i);
  GST_OBJECT_UNLOCK (self);
  st = gst_sima_member_params_check ("scales", n_scales, in->n_members);
  if (st.code == SIMA_OK)
    st = gst_sima_member_params_check ("zero-points", n_zero_points,
        in->n_members);
  if (st.code == SIMA_OK)
    st = sima_detessdequant_set_check_inference (&req, plan);
  return st;
}

static SimaStatus
gst_sima_detess_dequant_prepare (GstSimaBaseTransform * base,
    const SimaTensorSet * in, const SimaTensorSet * out,
    guint64 * in_bytes, guint64 * out_bytes)
{
  GstSimaDetessDequant *self = GST_SIMA_DETESS_DEQUANT (base);
  SimaStatus st = gst_sima_detess_dequant_check (self, in, out, self->plan);

  if (st.code == SIMA_OK)
    st = sima_a65_detessdequant_set_prepare (self->plan, self->a65);
  if (st.code == SIMA_OK) {
    *in_bytes = self->plan->input_bytes;
    *out_bytes = self->plan->output_bytes;
  }
  return st;
}

static SimaStatus
gst_sima_detess_dequant_execute_a65 (GstSimaBaseTransform * base,
    SimaA65Threads * pool, const void *in, gsize in_size, void *out,
    gsize out_size)
{
  GstSimaDetessDequant *self = GST_SIMA_DETESS_DEQUANT (base);
  SimaConstHostBuffer ib = { in, in_size };
  SimaHostBuffer ob = { out, out_size };
  return sima_a65_detessdequant_set_execute_on (self->a65, pool, &ib,
      &ob);
}

static SimaStatus
gst_sima_detess_dequant_encode (GstSimaBaseTransform * base,
    SimaEv74Descriptor * desc)
{
  return sima_ev74_detessdequant_set_encode_relocatable
      (GST_SIMA_DETESS_DEQUANT (base)->plan, desc);
}

/* The other side keeps the shape (and a set stays a set); its dtype and
 * layout are the other pad's template choices: downstream picks the
 * output dtype and layout (gstsimatiling.c). */
static GstCaps *
gst_sima_detess_dequant_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  return gst_sima_untiling_transform_caps (trans, direction, caps, filter,
      GST_SIMA_DIALECT_INT8_TILES_CAPS, GST_SIMA_DIALECT_RUNTIME_DEQUANT_CAPS);
}

/* The core's admission for fixation: a plan of its own, so that trying
 * candidates never touches the negotiated one. */
static gboolean
gst_sima_detess_dequant_admit (GstObject * owner, const SimaTensorSet * in,
    const SimaTensorSet * out, gchar ** why)
{
  SimaDetessDequantSetPlan *plan = g_new (SimaDetessDequantSetPlan, 1);
  SimaStatus st = gst_sima_detess_dequant_check (GST_SIMA_DETESS_DEQUANT
      (owner), in, out, plan);

  g_free (plan);
  if (st.code != SIMA_OK && why != NULL)
    *why = g_strdup (st.message);
  return st.code == SIMA_OK;
}

/* Downstream's dtype, layout and strides choices (float32 contiguous when
 * it leaves them open), skipping what the core rejects: strides that do not
 * fit the dtype, for example, when another choice is offered. */
static GstCaps *
gst_sima_detess_dequant_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  return gst_sima_fixate_admitted (GST_OBJECT (trans), GST_CAT_DEFAULT,
      gst_sima_detess_dequant_admit, direction, caps, othercaps);
}

static void
gst_sima_detess_dequant_finalize (GObject * object)
{
  GstSimaDetessDequant *self = GST_SIMA_DETESS_DEQUANT (object);

  g_free (self->plan);
  g_free (self->a65);
  G_OBJECT_CLASS (gst_sima_detess_dequant_parent_class)->finalize (object);
}

static void
gst_sima_detess_dequant_class_init (GstSimaDetessDequantClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstSimaBaseTransformClass *sima_class = GST_SIMA_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_sima_detess_dequant_set_property;
  gobject_class->get_property = gst_sima_detess_dequant_get_property;
  gobject_class->finalize = gst_sima_detess_dequant_finalize;

  /**
   * GstSimaDetessDequant:scale:
   *
   * Required: (q - zero-point) is multiplied by it, or divided by it with
   * #GstSimaDetessDequant:scale-convention=divide. Finite and > 0
   * (subnormals allowed); range 0 to G_MAXFLOAT, and the default 0 means
   * unset: the element refuses to start.
   */
  g_object_class_install_property (gobject_class, PROP_SCALE,
      g_param_spec_float ("scale", "Scale",
          "Required: (q - zero-point) is multiplied by it (finite, > 0; 0 = "
          "unset)", 0.0f, G_MAXFLOAT, 0.0f,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstSimaDetessDequant:zero-point:
   *
   * Subtracted from each INT8 value (after being rounded to binary32, so
   * zero points beyond 2^24 behave exactly as the core's) before scaling.
   * The full int32 range, default 0.
   */

  g_object_class_install_property (gobject_class, PROP_ZERO_POINT,
      g_param_spec_int ("zero-point", "Zero point",
          "Subtracted (after rounding it to binary32) before scaling",
          G_MININT32, G_MAXINT32, 0, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstSimaDetessDequant:scale-convention:
   *
   * How scale enters: `multiply` (default, `RNE_f32(d * scale)`) or
   * `divide` (`RNE_f32(d / scale)`, a correctly rounded division, never a
   * multiply by a reciprocal): SiMa's dq_scale and dq_zp, copied as they
   * are. Read when the element prepares; a change while running
   * re-prepares on the next buffer, like scale.
   */
  g_object_class_install_property (gobject_class, PROP_SCALE_CONVENTION,
      g_param_spec_enum ("scale-convention", "Scale convention",
          "multiply: (q - zero-point) * scale; divide: (q - zero-point) / "
          "scale, as SiMa's dq_scale", GST_TYPE_SIMA_SCALE_CONVENTION,
          SIMA_SCALE_MULTIPLY, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  gst_type_mark_as_plugin_api (GST_TYPE_SIMA_SCALE_CONVENTION, 0);
  /**
   * GstSimaDetessDequant:scales:
   *
   * One scale per member of a tensor set, in member order, e.g. SiMa's
   * dq_scale of each head with scale-convention=divide:
   * `scales="<11.328456438342892,13.655735144659944>"`. Empty (the
   * default): every member uses #GstSimaDetessDequant:scale. When set it
   * must have exactly one entry per member of the negotiated set, each
   * finite and > 0.
   */
  g_object_class_install_property (gobject_class, PROP_SCALES,
      gst_sima_param_spec_float_array ("scales", "Scales",
          "One scale per member of a tensor set, in member order (empty: "
          "every member uses scale)", 0.0f, G_MAXFLOAT));
  /**
   * GstSimaDetessDequant:zero-points:
   *
   * One zero point per member of a tensor set, in member order (SiMa's
   * dq_zp of each head). Empty (the default): every member uses
   * #GstSimaDetessDequant:zero-point.
   */
  g_object_class_install_property (gobject_class, PROP_ZERO_POINTS,
      gst_sima_param_spec_int_array ("zero-points", "Zero points",
          "One zero point per member of a tensor set, in member order "
          "(empty: every member uses zero-point)", G_MININT32, G_MAXINT32));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "SiMa DetessDequant", "Filter/Converter/Tensor",
      "Dequantizes INT8 MLA tiles to FP32 or BF16 tensors, bit-exact, on the "
      "EV74 or the A65", "gst-sima-kernels developers");

  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_sima_detess_dequant_transform_caps);
  trans_class->fixate_caps =
      GST_DEBUG_FUNCPTR (gst_sima_detess_dequant_fixate_caps);

  sima_class->op_name = "DetessDequant";
  sima_class->route = SIMA_EV74_ROUTE_DETESSDEQUANT;
  sima_class->capability = SIMA_EV74_DETESSDEQUANT_CAPABILITY;
  sima_class->debug_category = gst_sima_detess_dequant_debug;
  sima_class->check_properties = gst_sima_detess_dequant_check_properties;
  sima_class->prepare = gst_sima_detess_dequant_prepare;
  sima_class->execute_a65 = gst_sima_detess_dequant_execute_a65;
  sima_class->encode = gst_sima_detess_dequant_encode;
}

static void
gst_sima_detess_dequant_init (GstSimaDetessDequant * self)
{
  self->scale = 0.0f;
  self->zero_point = 0;
  self->convention = SIMA_SCALE_MULTIPLY;
  self->plan = g_new0 (SimaDetessDequantSetPlan, 1);
  self->a65 = g_new0 (SimaA65DetessDequantSetPlan, 1);
}
