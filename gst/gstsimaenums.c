/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstsimaenums.h"

#include <simaai/kernels/ops/detessdequant.h>
#include <simaai/kernels/ops/quanttess.h>
#include <simaai/kernels/pattern.h>

#define DEFINE_ENUM(func, name, values)                                       \
  GType                                                                       \
  func (void)                                                                 \
  {                                                                           \
    static gsize id = 0;                                                      \
    if (g_once_init_enter (&id))                                              \
      g_once_init_leave (&id, g_enum_register_static (name, values));         \
    return (GType) id;                                                        \
  }

static const GEnumValue backend_values[] = {
  { GST_SIMA_BACKEND_EV74, "The EV74 vector DSP (through the device API)",
    "ev74" },
  { GST_SIMA_BACKEND_A65, "The A65 CPU", "a65" },
  { 0, NULL, NULL },
};
DEFINE_ENUM (gst_sima_backend_get_type, "GstSimaBackend", backend_values);

static const GEnumValue active_values[] = {
  { GST_SIMA_ACTIVE_NONE, "Not started", "none" },
  { GST_SIMA_ACTIVE_EV74, "Running on the EV74", "ev74" },
  { GST_SIMA_ACTIVE_A65, "Running on the A65 (backend=a65)", "a65" },
  { GST_SIMA_ACTIVE_A65_FALLBACK, "Running on the A65 because the EV74 "
        "could not (fallback=a65)", "a65-fallback" },
  { 0, NULL, NULL },
};
DEFINE_ENUM (gst_sima_active_backend_get_type, "GstSimaActiveBackend",
    active_values);

static const GEnumValue fallback_values[] = {
  { GST_SIMA_FALLBACK_NONE, "Fail when the EV74 cannot run the operation",
    "none" },
  { GST_SIMA_FALLBACK_A65, "Warn once and run on the A65", "a65" },
  { 0, NULL, NULL },
};
DEFINE_ENUM (gst_sima_fallback_get_type, "GstSimaFallback", fallback_values);

static const GEnumValue rounding_values[] = {
  { SIMA_ROUNDING_NEAREST_EVEN, "Round to nearest, ties to even",
    "nearest-even" },
  { SIMA_ROUNDING_TOWARD_ZERO, "Round toward zero", "toward-zero" },
  { SIMA_ROUNDING_TOWARD_POSITIVE, "Round toward +infinity",
    "toward-positive" },
  { SIMA_ROUNDING_TOWARD_NEGATIVE, "Round toward -infinity",
    "toward-negative" },
  { 0, NULL, NULL },
};
DEFINE_ENUM (gst_sima_rounding_get_type, "GstSimaRounding", rounding_values);

static const GEnumValue scale_convention_values[] = {
  { SIMA_SCALE_MULTIPLY, "value = (q - zero-point) * scale", "multiply" },
  { SIMA_SCALE_DIVIDE, "value = (q - zero-point) / scale, correctly rounded "
        "(SiMa's dq_scale and dq_zp)", "divide" },
  { 0, NULL, NULL },
};
DEFINE_ENUM (gst_sima_scale_convention_get_type, "GstSimaScaleConvention",
    scale_convention_values);

static const GEnumValue channels_values[] = {
  { SIMA_CHANNELS_COMPACT, "Each tile stores its actual channels",
    "compact" },
  { SIMA_CHANNELS_PAD16, "Channels rounded up to 16 per tile", "pad16" },
  { 0, NULL, NULL },
};
DEFINE_ENUM (gst_sima_channels_get_type, "GstSimaChannels", channels_values);

static const GEnumValue pattern_values[] = {
  { SIMA_PATTERN_RAMP, "min to max across the tensor, moving per buffer",
    "ramp" },
  { SIMA_PATTERN_RANDOM, "Uniform in [min, max] from seed", "random" },
  { SIMA_PATTERN_CONSTANT, "value everywhere", "constant" },
  { SIMA_PATTERN_SPECIAL, "NaN, infinities, signed zeros, subnormals, "
        "extremes, rounding ties", "special" },
  { 0, NULL, NULL },
};
DEFINE_ENUM (gst_sima_pattern_get_type, "GstSimaPattern", pattern_values);
