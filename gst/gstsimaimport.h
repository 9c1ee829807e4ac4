/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gstsimaimport.h - DMA-BUF memories as EV74 regions, imported once.
 *
 * The region of a DMA-BUF GstMemory is cached on the memory itself (qdata,
 * one entry per device, dropped by a destroy notify when the memory goes),
 * so pooled buffers that come round again cost no mapping work.
 */
#ifndef GST_SIMA_IMPORT_H
#define GST_SIMA_IMPORT_H

#include <gst/gst.h>
#include <simaai/kernels/ev74/device.h>

G_BEGIN_DECLS

/* The binding of mem's bytes for dev: the bus address of its first byte and
 * its size. *imported is set when this call had to import the fd (the first
 * time for this memory and device). The region stays cached on mem. */
SimaStatus gst_sima_memory_binding (GstMemory * mem, SimaEv74Device * dev,
    SimaEv74Region ** region, SimaEv74Binding * binding, gboolean * imported);

G_END_DECLS

#endif /* GST_SIMA_IMPORT_H */
