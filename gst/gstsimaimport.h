/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gstsimaimport.h - fd memories (DMA-BUF or memfd) as EV74 regions,
 * imported once per memory and device.
 *
 * The region of a GstMemory is cached on its root memory (qdata, one entry
 * per device), so pooled buffers that come round again cost no mapping
 * work, and shares of one memory (gst_memory_share, a tee) import it once.
 * One process-wide lock makes look-up, import and insertion one step: two
 * streaming threads that meet the same memory never both import it, and
 * never free a region the other is using (every caller gets its own
 * reference). When the device's bus aperture is full, the least recently
 * used cached imports of that device are dropped (their memories stay
 * valid and are imported again if they come back); a job that still uses
 * one keeps it mapped until it retires.
 */
#ifndef GST_SIMA_IMPORT_H
#define GST_SIMA_IMPORT_H

#include <gst/gst.h>
#include <simaai/kernels/ev74/device.h>

G_BEGIN_DECLS

/* The binding of mem's bytes for dev: the bus address of its first byte and
 * its size. *region is a new reference (the caller unrefs it once the job
 * holds its own). *imported is set when this call had to import the fd
 * (the first time for this memory and device, or again after an eviction).
 * mem must be fd memory (gst_is_fd_memory). */
SimaStatus gst_sima_memory_binding (GstMemory * mem, SimaEv74Device * dev,
    SimaEv74Region ** region, SimaEv74Binding * binding, gboolean * imported);

/* Imports of dev's regions held by the cache now (for tests and logs). */
guint gst_sima_import_cache_size (SimaEv74Device * dev);

G_END_DECLS

#endif /* GST_SIMA_IMPORT_H */
