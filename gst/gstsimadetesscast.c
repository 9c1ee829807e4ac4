/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-simadetesscast
 * @title: simadetesscast
 *
 * Reads BF16 MLA tiles (mla-tiled byte planes, compact or pad16, cblock;
 * tensor sets too) and writes FP32 or BF16 tensors, contiguous or strided,
 * exactly as the kernel core's DetessCast, the inverse of simacasttess:
 * FP32 is the BF16 bits shifted left by 16 (exact, NaN payloads kept),
 * BF16 is the BF16 bits unchanged. No arithmetic, so nothing depends on
 * the FP environment. Padding in the input is ignored; holes of a strided
 * output are never written. The output dtype and layout come from
 * downstream caps (float32 contiguous when left open). Runs on the EV74
 * by default, on the A65 when asked, where one buffer is split over
 * `threads` threads (the same bytes whatever the number; ignored on the
 * EV74). docs/detesscast.md is the contract.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 simatensorsrc num-buffers=30 ! \
 *   application/vnd.simaai.tensor,dtype=bfloat16,shape="<224,224,3>" ! \
 *   simacasttess ! simadetesscast ! \
 *   application/vnd.simaai.tensor,dtype=bfloat16 ! fakesink
 * ]| BF16 tensors to BF16 tiles and back on the EV74: the same bits
 * (pipelines/detesscast-roundtrip.sh runs a variant and compares them).
 * |[
 * gst-launch-1.0 simatensorsrc num-buffers=5 ! \
 *   application/vnd.simaai.tensor,dtype=float32,shape="<8,8,33>" ! \
 *   simacasttess tile-shape="<1,4,8,32>" cblock=true backend=a65 ! \
 *   simadetesscast backend=a65 ! fakesink
 * ]| SiMa's cblock tiles of a BF16 model's head back to FP32 on the A65.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsimadetesscast.h"

#include <simaai/kernels/a65/detesscast.h>
#include <simaai/kernels/ev74/detesscast.h>

#include "gstsimacaps.h"
#include "gstsimadialect.h"
#include "gstsimatiling.h"

GST_DEBUG_CATEGORY_STATIC (gst_sima_detess_cast_debug);
#define GST_CAT_DEFAULT gst_sima_detess_cast_debug

struct _GstSimaDetessCast
{
  GstSimaBaseTransform parent;
  /* the negotiated set's plans (streaming thread); large, so on the heap */
  SimaDetessCastSetPlan *plan;
  SimaA65DetessCastSetPlan *a65;
};

G_DEFINE_TYPE_WITH_CODE (GstSimaDetessCast, gst_sima_detess_cast,
    GST_TYPE_SIMA_BASE_TRANSFORM,
    GST_DEBUG_CATEGORY_INIT (gst_sima_detess_cast_debug, "simadetesscast", 0,
        "SiMa DetessCast"));
GST_ELEMENT_REGISTER_DEFINE (simadetesscast, "simadetesscast", GST_RANK_NONE,
    GST_TYPE_SIMA_DETESS_CAST);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_SIMA_TENSOR_MEDIA_TYPE ", "
        "dtype = (string) bfloat16, layout = (string) mla-tiled; "
        GST_SIMA_TENSOR_SET_CAPS "; " GST_SIMA_DIALECT_BF16_TILES_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_SIMA_TENSOR_MEDIA_TYPE ", "
        "dtype = (string) { float32, bfloat16 }, "
        "layout = (string) { contiguous, strided }; "
        GST_SIMA_TENSOR_SET_CAPS "; " GST_SIMA_DIALECT_RUNTIME_DEQUANT_CAPS));

static SimaStatus
gst_sima_detess_cast_prepare (GstSimaBaseTransform * base,
    const SimaTensorSet * in, const SimaTensorSet * out,
    guint64 * in_bytes, guint64 * out_bytes)
{
  GstSimaDetessCast *self = GST_SIMA_DETESS_CAST (base);
  SimaDetessCastSetRequest req = { in, out };
  SimaStatus st = sima_detesscast_set_check_inference (&req, self->plan);

  if (st.code == SIMA_OK)
    st = sima_a65_detesscast_set_prepare (self->plan, self->a65);
  if (st.code == SIMA_OK) {
    *in_bytes = self->plan->input_bytes;
    *out_bytes = self->plan->output_bytes;
  }
  return st;
}

static SimaStatus
gst_sima_detess_cast_execute_a65 (GstSimaBaseTransform * base,
    SimaA65Threads * pool, const void *in, gsize in_size, void *out,
    gsize out_size)
{
  GstSimaDetessCast *self = GST_SIMA_DETESS_CAST (base);
  SimaConstHostBuffer ib = { in, in_size };
  SimaHostBuffer ob = { out, out_size };
  return sima_a65_detesscast_set_execute_on (self->a65, pool, &ib, &ob);
}

static SimaStatus
gst_sima_detess_cast_encode (GstSimaBaseTransform * base,
    SimaEv74Descriptor * desc)
{
  return sima_ev74_detesscast_set_encode_relocatable (GST_SIMA_DETESS_CAST
      (base)->plan, desc);
}

/* The other side keeps the shape; downstream picks the output dtype and
 * layout (gstsimatiling.c). */
static GstCaps *
gst_sima_detess_cast_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  return gst_sima_untiling_transform_caps (trans, direction, caps, filter,
      GST_SIMA_DIALECT_BF16_TILES_CAPS, GST_SIMA_DIALECT_RUNTIME_DEQUANT_CAPS);
}

/* The core's admission for fixation, on a plan of its own. */
static gboolean
gst_sima_detess_cast_admit (GstObject * owner, const SimaTensorSet * in,
    const SimaTensorSet * out, gchar ** why)
{
  SimaDetessCastSetRequest req = { in, out };
  SimaDetessCastSetPlan *plan = g_new (SimaDetessCastSetPlan, 1);
  SimaStatus st = sima_detesscast_set_check_inference (&req, plan);

  g_free (plan);
  if (st.code != SIMA_OK && why != NULL)
    *why = g_strdup (st.message);
  return st.code == SIMA_OK;
}

/* Downstream's dtype, layout and strides choices (float32 contiguous when
 * it leaves them open), skipping what the core rejects. */
static GstCaps *
gst_sima_detess_cast_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  return gst_sima_fixate_admitted (GST_OBJECT (trans), GST_CAT_DEFAULT,
      gst_sima_detess_cast_admit, direction, caps, othercaps);
}

static void
gst_sima_detess_cast_finalize (GObject * object)
{
  GstSimaDetessCast *self = GST_SIMA_DETESS_CAST (object);

  g_free (self->plan);
  g_free (self->a65);
  G_OBJECT_CLASS (gst_sima_detess_cast_parent_class)->finalize (object);
}

static void
gst_sima_detess_cast_class_init (GstSimaDetessCastClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstSimaBaseTransformClass *sima_class = GST_SIMA_BASE_TRANSFORM_CLASS (klass);

  gobject_class->finalize = gst_sima_detess_cast_finalize;

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "SiMa DetessCast", "Filter/Converter/Tensor",
      "Turns BF16 MLA tiles back into FP32 or BF16 tensors, bit-exact, on "
      "the EV74 or the A65", "gst-sima-kernels developers");

  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_sima_detess_cast_transform_caps);
  trans_class->fixate_caps =
      GST_DEBUG_FUNCPTR (gst_sima_detess_cast_fixate_caps);

  sima_class->op_name = "DetessCast";
  sima_class->route = SIMA_EV74_ROUTE_DETESSCAST;
  sima_class->capability = SIMA_EV74_DETESSCAST_CAPABILITY;
  sima_class->debug_category = gst_sima_detess_cast_debug;
  sima_class->prepare = gst_sima_detess_cast_prepare;
  sima_class->execute_a65 = gst_sima_detess_cast_execute_a65;
  sima_class->encode = gst_sima_detess_cast_encode;
}

static void
gst_sima_detess_cast_init (GstSimaDetessCast * self)
{
  self->plan = g_new0 (SimaDetessCastSetPlan, 1);
  self->a65 = g_new0 (SimaA65DetessCastSetPlan, 1);
}
