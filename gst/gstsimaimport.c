/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsimaimport.h"

#include <gst/allocators/allocators.h>

/* One quark per device: a memory can be imported into several devices.
 * The cached region holds its device, so a device address is never reused
 * while a cache entry names it. */
static GQuark
device_quark (SimaEv74Device * dev)
{
  gchar name[48];
  g_snprintf (name, sizeof name, "simakernels-region-%p", (void *) dev);
  return g_quark_from_string (name);
}

static void
region_free (gpointer region)
{
  sima_ev74_region_unref (region);
}

SimaStatus
gst_sima_memory_binding (GstMemory * mem, SimaEv74Device * dev,
    SimaEv74Region ** region, SimaEv74Binding * binding, gboolean * imported)
{
  GQuark quark = device_quark (dev);
  SimaEv74Region *r;

  *imported = FALSE;
  r = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (mem), quark);
  if (r == NULL) {
    /* fd memories map the fd from its start, maxsize bytes, with the data
     * at offset: import exactly that */
    SimaStatus st = sima_ev74_region_import (dev,
        gst_dmabuf_memory_get_fd (mem), mem->maxsize, &r);
    if (st.code != SIMA_OK)
      return st;
    gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (mem), quark, r,
        region_free);
    *imported = TRUE;
  }
  *region = r;
  binding->bus_address = sima_ev74_region_bus_address (r) + mem->offset;
  binding->length = mem->size;
  return sima_status_ok ();
}
