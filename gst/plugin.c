/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The simakernels plugin: SiMa MLA boundary converters, a test source and
 * the simalatency tracer.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstsimacasttess.h"
#include "gstsimadetesscast.h"
#include "gstsimadetessdequant.h"
#include "gstsimalatencytracer.h"
#include "gstsimaquanttess.h"
#include "gstsimatensorsrc.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ok = FALSE;

  ok |= GST_ELEMENT_REGISTER (simaquanttess, plugin);
  ok |= GST_ELEMENT_REGISTER (simacasttess, plugin);
  ok |= GST_ELEMENT_REGISTER (simadetessdequant, plugin);
  ok |= GST_ELEMENT_REGISTER (simadetesscast, plugin);
  ok |= GST_ELEMENT_REGISTER (simatensorsrc, plugin);
  /* a plugin that half registered would look complete in gst-inspect */
  ok &= gst_tracer_register (plugin, "simalatency",
      GST_TYPE_SIMA_LATENCY_TRACER);
  return ok;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, simakernels,
    "SiMa.ai MLA boundary tensor conversions (QuantTess, CastTess, "
    "DetessDequant, DetessCast) on the EV74 and the A65", plugin_init, PACKAGE_VERSION,
    "LGPL", PACKAGE_NAME, PACKAGE_ORIGIN)
