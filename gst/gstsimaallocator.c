/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#define _GNU_SOURCE
#include "gstsimaallocator.h"

#include <simaai/kernels/layout.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/dma-heap.h>
#include <linux/udmabuf.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>

GST_DEBUG_CATEGORY_STATIC (gst_sima_allocator_debug);
#define GST_CAT_DEFAULT gst_sima_allocator_debug

typedef enum {
  SOURCE_DMA_HEAP,
  SOURCE_UDMABUF,
  SOURCE_DRM_DUMB,
  SOURCE_MEMFD,
} Source;

struct _GstSimaDmaBufAllocator
{
  GstFdAllocator parent;
  Source source;
  int device_fd;                /* heap, /dev/udmabuf or DRM node; -1 */
  gchar *description;
  /* Owns the memories of the real DMA-BUF sources (NULL on memfd): being
   * DMA-BUF memory, their map and unmap issue DMA_BUF_IOCTL_SYNC. */
  GstAllocator *dmabuf;
};

G_DEFINE_TYPE_WITH_CODE (GstSimaDmaBufAllocator, gst_sima_dmabuf_allocator,
    GST_TYPE_FD_ALLOCATOR,
    GST_DEBUG_CATEGORY_INIT (gst_sima_allocator_debug, "simaallocator", 0,
        "SiMa device-memory allocator"));

static gsize
page_round (gsize size)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  return (size + page - 1) / page * page;
}

/* ---- one fd of `size` bytes per source; -1 on failure -------------------- */

static int
alloc_dma_heap (int heap, gsize size)
{
  struct dma_heap_allocation_data data;

  memset (&data, 0, sizeof data);
  data.len = size;
  data.fd_flags = O_RDWR | O_CLOEXEC;
  return ioctl (heap, DMA_HEAP_IOCTL_ALLOC, &data) == 0 ? (int) data.fd : -1;
}

static int
alloc_udmabuf (int dev, gsize size)
{
  struct udmabuf_create create;
  int memfd = memfd_create ("simakernels-udmabuf",
      MFD_ALLOW_SEALING | MFD_CLOEXEC), fd;

  if (memfd < 0)
    return -1;
  memset (&create, 0, sizeof create);
  create.memfd = (__u32) memfd;
  create.flags = UDMABUF_FLAGS_CLOEXEC;
  create.size = page_round (size);
  /* udmabuf requires a memfd that cannot shrink under it */
  if (ftruncate (memfd, (off_t) create.size) != 0
      || fcntl (memfd, F_ADD_SEALS, F_SEAL_SHRINK) != 0) {
    close (memfd);
    return -1;
  }
  fd = ioctl (dev, UDMABUF_CREATE, &create);
  close (memfd);                /* the dma-buf keeps the pages */
  return fd;
}

static int
alloc_drm_dumb (int drm, gsize size)
{
  struct drm_mode_create_dumb create;
  struct drm_mode_destroy_dumb destroy;
  int fd = -1;

  memset (&create, 0, sizeof create);
  create.bpp = 8;
  create.width = 4096;
  create.height = (__u32) ((size + 4095) / 4096);
  if (drmIoctl (drm, DRM_IOCTL_MODE_CREATE_DUMB, &create) != 0)
    return -1;
  if (drmPrimeHandleToFD (drm, create.handle, DRM_CLOEXEC | DRM_RDWR, &fd) != 0)
    fd = -1;
  /* the exported dma-buf keeps the object alive */
  memset (&destroy, 0, sizeof destroy);
  destroy.handle = create.handle;
  drmIoctl (drm, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
  return fd;
}

static int
alloc_memfd (gsize size)
{
  int fd = memfd_create ("simakernels-dmabuf", MFD_CLOEXEC);
  if (fd >= 0 && ftruncate (fd, (off_t) size) != 0) {
    close (fd);
    fd = -1;
  }
  return fd;
}

static int
alloc_fd (GstSimaDmaBufAllocator * self, gsize size)
{
  switch (self->source) {
    case SOURCE_DMA_HEAP:
      return alloc_dma_heap (self->device_fd, size);
    case SOURCE_UDMABUF:
      return alloc_udmabuf (self->device_fd, size);
    case SOURCE_DRM_DUMB:
      return alloc_drm_dumb (self->device_fd, size);
    case SOURCE_MEMFD:
      break;
  }
  return alloc_memfd (size);
}

/* Tries a source with a one-page allocation; keeps it if it works. */
static gboolean
try_source (GstSimaDmaBufAllocator * self, Source source, int device_fd,
    const gchar * description)
{
  int fd;

  self->source = source;
  self->device_fd = device_fd;
  fd = alloc_fd (self, page_round (1));
  if (fd < 0) {
    GST_DEBUG ("DMA-BUF source %s does not work here: %s", description,
        g_strerror (errno));
    if (device_fd >= 0)
      close (device_fd);
    self->device_fd = -1;
    return FALSE;
  }
  close (fd);
  self->description = g_strdup (description);
  return TRUE;
}

static void
choose_source (GstSimaDmaBufAllocator * self)
{
  const gchar *heap = g_getenv ("SIMA_DMA_HEAP");
  gchar *path, *desc;
  int i, fd;
  gboolean ok;

  path = g_strdup_printf ("/dev/dma_heap/%s", heap && *heap ? heap : "system");
  desc = g_strdup_printf ("dma-heap:%s", path + strlen ("/dev/dma_heap/"));
  fd = open (path, O_RDWR | O_CLOEXEC);
  ok = fd >= 0 && try_source (self, SOURCE_DMA_HEAP, fd, desc);
  g_free (path);
  g_free (desc);
  if (ok)
    return;
  fd = open ("/dev/udmabuf", O_RDWR | O_CLOEXEC);
  if (fd >= 0 && try_source (self, SOURCE_UDMABUF, fd, "udmabuf"))
    return;
  for (i = 0; i < 80; i++) {    /* render nodes 128-191, then card nodes */
    path = i < 64 ? g_strdup_printf ("/dev/dri/renderD%d", 128 + i)
        : g_strdup_printf ("/dev/dri/card%d", i - 64);
    fd = open (path, O_RDWR | O_CLOEXEC);
    desc = g_strdup_printf ("drm-dumb:%s", path);
    ok = fd >= 0 && try_source (self, SOURCE_DRM_DUMB, fd, desc);
    g_free (path);
    g_free (desc);
    if (ok)
      return;
  }
  self->source = SOURCE_MEMFD;
  self->device_fd = -1;
  self->description = g_strdup ("memfd");
}

static GstMemory *
gst_sima_dmabuf_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  GstSimaDmaBufAllocator *self = GST_SIMA_DMABUF_ALLOCATOR (allocator);
  gsize prefix = params ? params->prefix : 0;
  gsize padding = params ? params->padding : 0;
  gsize total = page_round (prefix + size + padding);
  GstMemory *mem;
  GstMapInfo map;
  int fd;

  /* fds are page aligned, so any requested alignment holds at offset 0;
   * a prefix is placed at an offset instead */
  fd = alloc_fd (self, total);
  if (fd < 0) {
    GST_ERROR_OBJECT (self, "cannot allocate %" G_GSIZE_FORMAT " bytes "
        "from %s: %s", total, self->description, g_strerror (errno));
    return NULL;
  }
  if (self->dmabuf != NULL)
    mem = gst_dmabuf_allocator_alloc_with_flags (self->dmabuf, fd, total,
        GST_FD_MEMORY_FLAG_KEEP_MAPPED);
  else
    mem = gst_fd_allocator_alloc (allocator, fd, total,
        GST_FD_MEMORY_FLAG_KEEP_MAPPED);
  if (mem == NULL) {
    close (fd);
    return NULL;
  }
  /* A kept GstFdMemory mapping (KEEP_MAPPED) has the protection of the
   * map that made it; a later map asking for access it lacks (READ after
   * a WRITE map, or the reverse) mprotects the whole mapping to exactly
   * that access, or fails while another map is outstanding. A memory one
   * element writes and the next reads paid two mprotect calls and TLB
   * shootdowns per buffer. Mapped read-write first, the mapping covers
   * every later map, which then costs no system call; unmapping a kept
   * mapping only drops a count. */
  if (!gst_memory_map (mem, &map, GST_MAP_READWRITE)) {
    GST_ERROR_OBJECT (self, "cannot map %" G_GSIZE_FORMAT " bytes from %s",
        total, self->description);
    gst_memory_unref (mem);     /* closes the fd */
    return NULL;
  }
  gst_memory_unmap (mem, &map);
  gst_memory_resize (mem, (gssize) prefix, size);
  return mem;
}

enum
{
  PROP_0,
  PROP_SOURCE,
};

static void
gst_sima_dmabuf_allocator_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  switch (prop_id) {
    case PROP_SOURCE:
      g_value_set_string (value,
          GST_SIMA_DMABUF_ALLOCATOR (object)->description);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_sima_dmabuf_allocator_finalize (GObject * object)
{
  GstSimaDmaBufAllocator *self = GST_SIMA_DMABUF_ALLOCATOR (object);
  if (self->device_fd >= 0)
    close (self->device_fd);
  gst_clear_object (&self->dmabuf);
  g_free (self->description);
  G_OBJECT_CLASS (gst_sima_dmabuf_allocator_parent_class)->finalize (object);
}

static void
gst_sima_dmabuf_allocator_class_init (GstSimaDmaBufAllocatorClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);

  gobject_class->finalize = gst_sima_dmabuf_allocator_finalize;
  gobject_class->get_property = gst_sima_dmabuf_allocator_get_property;
  GST_ALLOCATOR_CLASS (klass)->alloc = gst_sima_dmabuf_allocator_alloc;

  /**
   * GstSimaDmaBufAllocator:source:
   *
   * Where the memories come from, chosen once per process:
   * `dma-heap:NAME`, `udmabuf` or `drm-dumb:NODE` (DMA-BUF memory), or
   * `memfd` (fd memory, not DMA-BUF).
   */
  g_object_class_install_property (gobject_class, PROP_SOURCE,
      g_param_spec_string ("source", "Source",
          "Where the memories come from (dma-heap:NAME, udmabuf or "
          "drm-dumb:NODE: DMA-BUF memory; memfd: fd memory)", NULL,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
gst_sima_dmabuf_allocator_init (GstSimaDmaBufAllocator * self)
{
  self->device_fd = -1;
  choose_source (self);
  if (self->source != SOURCE_MEMFD) {
    self->dmabuf = gst_dmabuf_allocator_new ();
    /* it lives as long as this allocator, which lives as long as the
     * process */
    GST_OBJECT_FLAG_SET (self->dmabuf, GST_OBJECT_FLAG_MAY_BE_LEAKED);
  }
  GST_INFO_OBJECT (self, "allocating from %s (%s)", self->description,
      self->dmabuf != NULL ? "DMA-BUF memory" : "fd memory, not DMA-BUF");
}

GstAllocator *
gst_sima_dmabuf_allocator_get (void)
{
  static GstAllocator *allocator;

  if (g_once_init_enter (&allocator)) {
    GstAllocator *a = g_object_new (GST_TYPE_SIMA_DMABUF_ALLOCATOR, NULL);
    /* the process-wide instance lives as long as the process */
    gst_object_ref_sink (a);
    GST_OBJECT_FLAG_SET (a, GST_OBJECT_FLAG_MAY_BE_LEAKED);
    g_once_init_leave (&allocator, a);
  }
  return gst_object_ref (allocator);
}

GstBufferPool *
gst_sima_dmabuf_pool_new (GstCaps * caps, guint size, guint min_buffers,
    guint max_buffers)
{
  GstBufferPool *pool = gst_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstAllocator *allocator = gst_sima_dmabuf_allocator_get ();
  GstAllocationParams params;

  gst_allocation_params_init (&params);
  params.align = SIMA_TILED_ALIGNMENT - 1;      /* the tiles' alignment */
  gst_buffer_pool_config_set_params (config, caps, size, min_buffers,
      max_buffers);
  gst_buffer_pool_config_set_allocator (config, allocator, &params);
  gst_object_unref (allocator);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}
