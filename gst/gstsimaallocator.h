/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gstsimaallocator.h - the device-memory allocator of the simakernels
 * plugin.
 *
 * A GstFdAllocator whose alloc() makes new fd-backed memories the device
 * can import, from the first source that works on this machine, in this
 * order:
 *   1. a dma-heap: /dev/dma_heap/$SIMA_DMA_HEAP (default "system");
 *   2. udmabuf: /dev/udmabuf over a sealed memfd;
 *   3. DRM dumb buffers exported with libdrm (drmPrimeHandleToFD) from a
 *      render or vgem node;
 *   4. memfd (any mmap-able fd: what the EV74 emulator imports).
 * The choice is made once, logged (category simaallocator, INFO) and shown
 * by the read-only "source" property. Sources 1-3 make real DMA-BUFs:
 * their memories belong to a private GstDmaBufAllocator, so they are
 * DMA-BUF memory and GStreamer's map/unmap brackets every CPU access with
 * DMA_BUF_IOCTL_SYNC. A memfd is not a DMA-BUF: its memories are plain fd
 * memory of this allocator (gst_is_fd_memory() TRUE,
 * gst_is_dmabuf_memory() FALSE), which needs no sync. Either way the
 * memory is mapped read-write once, at allocation, and stays mapped, so no
 * later map costs a system call. The block starts on a page, the data at
 * the requested prefix.
 *
 * The type keeps its historic name (GstSimaDmaBufAllocator) although it is
 * an fd allocator, not a DMA-BUF one.
 */
#ifndef GST_SIMA_ALLOCATOR_H
#define GST_SIMA_ALLOCATOR_H

#include <gst/allocators/allocators.h>
#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_SIMA_DMABUF_ALLOCATOR (gst_sima_dmabuf_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstSimaDmaBufAllocator, gst_sima_dmabuf_allocator,
    GST, SIMA_DMABUF_ALLOCATOR, GstFdAllocator)

/* The process-wide allocator (a new reference). */
GstAllocator *gst_sima_dmabuf_allocator_get (void);

/* A buffer pool of this allocator's memories: size bytes per buffer,
 * 16-byte aligned, min_buffers to max_buffers of them (0: no maximum). */
GstBufferPool *gst_sima_dmabuf_pool_new (GstCaps * caps, guint size,
    guint min_buffers, guint max_buffers);

G_END_DECLS

#endif /* GST_SIMA_ALLOCATOR_H */
