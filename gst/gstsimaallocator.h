/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gstsimaallocator.h - the DMA-BUF allocator of the simakernels plugin.
 *
 * A GstDmaBufAllocator whose alloc() makes new DMA-BUFs, from the first
 * source that works on this machine, in this order:
 *   1. a dma-heap: /dev/dma_heap/$SIMA_DMA_HEAP (default "system");
 *   2. udmabuf: /dev/udmabuf over a sealed memfd;
 *   3. DRM dumb buffers exported with libdrm (drmPrimeHandleToFD) from a
 *      render or vgem node;
 *   4. memfd (any mmap-able fd: what the EV74 emulator imports).
 * The choice is made once, logged (category simaallocator, INFO) and shown
 * by the read-only "source" property. Memories are GstFdMemory (mappable,
 * gst_is_dmabuf_memory() is TRUE), kept mapped once mapped; the block
 * starts on a page, the data at the requested prefix.
 */
#ifndef GST_SIMA_ALLOCATOR_H
#define GST_SIMA_ALLOCATOR_H

#include <gst/allocators/allocators.h>
#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_SIMA_DMABUF_ALLOCATOR (gst_sima_dmabuf_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstSimaDmaBufAllocator, gst_sima_dmabuf_allocator,
    GST, SIMA_DMABUF_ALLOCATOR, GstDmaBufAllocator)

/* The process-wide allocator (a new reference). */
GstAllocator *gst_sima_dmabuf_allocator_get (void);

/* CPU access brackets for DMA-BUF memories (DMA_BUF_IOCTL_SYNC); a no-op
 * for other memories and for fds that do not support it (memfd). */
void gst_sima_dmabuf_sync_begin (GstMemory * mem, gboolean write);
void gst_sima_dmabuf_sync_end (GstMemory * mem, gboolean write);

/* A buffer pool of this allocator's memories: size bytes per buffer,
 * 16-byte aligned, min_buffers to max_buffers of them (0: no maximum). */
GstBufferPool *gst_sima_dmabuf_pool_new (GstCaps * caps, guint size,
    guint min_buffers, guint max_buffers);

G_END_DECLS

#endif /* GST_SIMA_ALLOCATOR_H */
