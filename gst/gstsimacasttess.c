/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-simacasttess
 * @title: simacasttess
 *
 * Casts a float32, float16 or bfloat16 tensor (contiguous or strided) to
 * BF16 in the MLA tiled layout (per pixel, the low bytes of the stored
 * channels, then the high bytes), exactly as the kernel core's CastTess.
 * There are no numerical parameters: the caps decide everything. Runs on
 * the EV74 by default, on the A65 when asked, where one buffer is split
 * over `threads` threads (the same bytes whatever the number; ignored on
 * the EV74).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 simatensorsrc num-buffers=10 ! \
 *   application/vnd.simaai.tensor,dtype=float32,shape="<224,224,3>" ! \
 *   simacasttess device=emulator ! fakesink
 * ]| Casts RGB tensors to BF16 H8/W16/C16 pad16 tiles on the EV74 emulator
 * (pipelines/casttess-bf16-tiles.sh runs a variant and checks every byte).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsimacasttess.h"

#include <simaai/kernels/a65/casttess.h>
#include <simaai/kernels/ev74/tensor_set.h>

#include "gstsimacaps.h"
#include "gstsimadialect.h"
#include "gstsimavideo.h"
#include "gstsimatiling.h"

GST_DEBUG_CATEGORY_STATIC (gst_sima_cast_tess_debug);
#define GST_CAT_DEFAULT gst_sima_cast_tess_debug

enum
{
  PROP_0,
  PROP_TILING,                  /* tile-axes, tile-shape, channels */
};

struct _GstSimaCastTess
{
  GstSimaBaseTransform parent;
  GstSimaTilingProps tiling;    /* object lock */
  /* the negotiated set's plans (streaming thread); large, so on the heap */
  SimaCastTessSetPlan *plan;
  SimaA65CastTessSetPlan *a65;
};

G_DEFINE_TYPE_WITH_CODE (GstSimaCastTess, gst_sima_cast_tess,
    GST_TYPE_SIMA_BASE_TRANSFORM,
    GST_DEBUG_CATEGORY_INIT (gst_sima_cast_tess_debug, "simacasttess", 0,
        "SiMa CastTess"));
GST_ELEMENT_REGISTER_DEFINE (simacasttess, "simacasttess", GST_RANK_NONE,
    GST_TYPE_SIMA_CAST_TESS);

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
        "dtype = (string) bfloat16, layout = (string) mla-tiled; "
        GST_SIMA_TENSOR_SET_CAPS "; " GST_SIMA_DIALECT_BF16_TILES_CAPS));

static void
gst_sima_cast_tess_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstSimaCastTess *self = GST_SIMA_CAST_TESS (object);
  gboolean known;

  GST_OBJECT_LOCK (self);
  known = gst_sima_tiling_set_property (&self->tiling, PROP_TILING, prop_id,
      value);
  GST_OBJECT_UNLOCK (self);
  if (known)
    gst_sima_base_transform_params_changed (GST_SIMA_BASE_TRANSFORM (self),
        TRUE);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_sima_cast_tess_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstSimaCastTess *self = GST_SIMA_CAST_TESS (object);
  gboolean known;

  GST_OBJECT_LOCK (self);
  known = gst_sima_tiling_get_property (&self->tiling, PROP_TILING, prop_id,
      value);
  GST_OBJECT_UNLOCK (self);
  if (known)
    gst_sima_base_transform_params_changed (GST_SIMA_BASE_TRANSFORM (self),
        TRUE);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static SimaStatus
gst_sima_cast_tess_prepare (GstSimaBaseTransform * base,
    const SimaTensorSet * in, const SimaTensorSet * out,
    guint64 * in_bytes, guint64 * out_bytes)
{
  GstSimaCastTess *self = GST_SIMA_CAST_TESS (base);
  SimaCastTessSetRequest req = { in, out };
  SimaStatus st = sima_casttess_set_check_inference (&req, self->plan);

  if (st.code == SIMA_OK)
    st = sima_a65_casttess_set_prepare (self->plan, self->a65);
  if (st.code == SIMA_OK) {
    *in_bytes = self->plan->input_bytes;
    *out_bytes = self->plan->output_bytes;
  }
  return st;
}

static SimaStatus
gst_sima_cast_tess_execute_a65 (GstSimaBaseTransform * base,
    SimaA65Threads * pool, const void *in, gsize in_size, void *out,
    gsize out_size)
{
  GstSimaCastTess *self = GST_SIMA_CAST_TESS (base);
  SimaConstHostBuffer ib = { in, in_size };
  SimaHostBuffer ob = { out, out_size };
  return sima_a65_casttess_set_execute_on (self->a65, pool, &ib, &ob);
}

static SimaStatus
gst_sima_cast_tess_encode (GstSimaBaseTransform * base,
    SimaEv74Descriptor * desc)
{
  return sima_ev74_casttess_set_encode_relocatable (GST_SIMA_CAST_TESS
      (base)->plan, desc);
}

static GstCaps *
gst_sima_cast_tess_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  return gst_sima_tiling_transform_caps (direction, caps, filter, "bfloat16");
}

/* The core's admission for fixation: a plan of its own, so that trying
 * candidates never touches the negotiated one. */
static gboolean
gst_sima_cast_tess_admit (GstObject * owner, const SimaTensorSet * in,
    const SimaTensorSet * out, gchar ** why)
{
  SimaCastTessSetRequest req = { in, out };
  SimaCastTessSetPlan *plan = g_new (SimaCastTessSetPlan, 1);
  SimaStatus st = sima_casttess_set_check_inference (&req, plan);

  g_free (plan);
  if (st.code != SIMA_OK && why != NULL)
    *why = g_strdup (st.message);
  return st.code == SIMA_OK;
}

static GstCaps *
gst_sima_cast_tess_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  GstSimaCastTess *self = GST_SIMA_CAST_TESS (trans);

  return gst_sima_tiling_fixate_caps (GST_OBJECT (self), GST_CAT_DEFAULT,
      &self->tiling, gst_sima_cast_tess_admit, direction, caps, othercaps);
}

static void
gst_sima_cast_tess_finalize (GObject * object)
{
  GstSimaCastTess *self = GST_SIMA_CAST_TESS (object);

  g_free (self->plan);
  g_free (self->a65);
  G_OBJECT_CLASS (gst_sima_cast_tess_parent_class)->finalize (object);
}

static void
gst_sima_cast_tess_class_init (GstSimaCastTessClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstSimaBaseTransformClass *sima_class = GST_SIMA_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_sima_cast_tess_set_property;
  gobject_class->get_property = gst_sima_cast_tess_get_property;
  gobject_class->finalize = gst_sima_cast_tess_finalize;
  gst_sima_tiling_install_properties (gobject_class, PROP_TILING);

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "SiMa CastTess", "Filter/Converter/Tensor",
      "Casts float tensors to BF16 MLA tiles, bit-exact, on the EV74 or the "
      "A65", "gst-sima-kernels developers");

  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_sima_cast_tess_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_sima_cast_tess_fixate_caps);

  sima_class->op_name = "CastTess";
  sima_class->route = SIMA_EV74_ROUTE_CASTTESS;
  sima_class->capability = SIMA_EV74_CASTTESS_CAPABILITY;
  sima_class->debug_category = gst_sima_cast_tess_debug;
  sima_class->prepare = gst_sima_cast_tess_prepare;
  sima_class->execute_a65 = gst_sima_cast_tess_execute_a65;
  sima_class->encode = gst_sima_cast_tess_encode;
}

static void
gst_sima_cast_tess_init (GstSimaCastTess * self)
{
  gst_sima_tiling_props_init (&self->tiling);
  self->plan = g_new0 (SimaCastTessSetPlan, 1);
  self->a65 = g_new0 (SimaA65CastTessSetPlan, 1);
}
