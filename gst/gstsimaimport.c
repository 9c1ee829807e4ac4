/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsimaimport.h"

#include <gst/allocators/allocators.h>

GST_DEBUG_CATEGORY_STATIC (gst_sima_import_debug);
#define GST_CAT_DEFAULT gst_sima_import_debug

/* One cached import: a memory's region in one device. The entry lives as
 * long as the memory (its qdata destroy notify frees it); the region can
 * go earlier, evicted when the aperture is full. */
typedef struct
{
  GList link;                   /* in lru, oldest use first */
  SimaEv74Device *dev;          /* compared only; the region holds it */
  SimaEv74Region *region;       /* the cache's reference; NULL if evicted */
} ImportEntry;

/* Guards every entry, the qdata of every cached memory and the LRU list:
 * look-up, import and insertion happen under it as one step. */
static GMutex cache_lock;
static GQueue lru = G_QUEUE_INIT;

static void
ensure_debug (void)
{
  static gsize done;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_sima_import_debug, "simaimport", 0,
        "SiMa EV74 import cache");
    g_once_init_leave (&done, 1);
  }
}

/* One quark per device: a memory can be imported into several devices. */
static GQuark
device_quark (SimaEv74Device * dev)
{
  gchar name[48];
  g_snprintf (name, sizeof name, "simakernels-region-%p", (void *) dev);
  return g_quark_from_string (name);
}

/* The memory's qdata destroy notify: runs when the memory is freed. */
static void
entry_free (gpointer data)
{
  ImportEntry *e = data;
  SimaEv74Region *region;

  g_mutex_lock (&cache_lock);
  g_queue_unlink (&lru, &e->link);
  region = e->region;
  g_mutex_unlock (&cache_lock);
  /* outside the lock: the last region may take the last device reference,
   * and closing a device joins its workers */
  sima_ev74_region_unref (region);
  g_free (e);
}

/* Drops the least recently used import of dev; FALSE when none is left.
 * Called with cache_lock held. */
static gboolean
evict_one (SimaEv74Device * dev)
{
  GList *l;

  for (l = lru.head; l != NULL; l = l->next) {
    ImportEntry *e = l->data;
    if (e->dev == dev && e->region != NULL) {
      GST_DEBUG ("aperture full: dropping the cached import at bus %#"
          G_GINT64_MODIFIER "x", sima_ev74_region_bus_address (e->region));
      /* the caller holds dev, so this never frees the device; a job still
       * using the region keeps it mapped until it retires */
      sima_ev74_region_unref (e->region);
      e->region = NULL;
      return TRUE;
    }
  }
  return FALSE;
}

/* Imports under cache_lock, evicting old imports of dev while the
 * aperture has no room. */
static SimaStatus
import_locked (SimaEv74Device * dev, int fd, guint64 length,
    SimaEv74Region ** out)
{
  SimaStatus st;

  for (;;) {
    st = sima_ev74_region_import (dev, fd, length, out);
    if (st.code != SIMA_OUT_OF_RESOURCES || !evict_one (dev))
      return st;
  }
}

SimaStatus
gst_sima_memory_binding (GstMemory * mem, SimaEv74Device * dev,
    SimaEv74Region ** region, SimaEv74Binding * binding, gboolean * imported)
{
  GstMemory *root = mem;
  GQuark quark = device_quark (dev);
  ImportEntry *e;
  SimaStatus st = sima_status_ok ();

  ensure_debug ();
  *imported = FALSE;
  *region = NULL;
  /* shares of an fd memory map the same fd from its start: the root's
   * import serves them all, at their own offsets */
  while (root->parent != NULL)
    root = root->parent;

  g_mutex_lock (&cache_lock);
  e = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (root), quark);
  if (e == NULL) {
    e = g_new0 (ImportEntry, 1);
    e->link.data = e;
    e->dev = dev;
    gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (root), quark, e,
        entry_free);
  } else {
    g_queue_unlink (&lru, &e->link);
  }
  g_queue_push_tail_link (&lru, &e->link);      /* most recently used */
  if (e->region == NULL) {
    /* fd memories map the fd from its start, maxsize bytes, with the data
     * at offset: import exactly that */
    st = import_locked (dev, gst_fd_memory_get_fd (root), root->maxsize,
        &e->region);
    *imported = st.code == SIMA_OK;
  }
  if (st.code == SIMA_OK) {
    *region = sima_ev74_region_ref (e->region);
    binding->bus_address = sima_ev74_region_bus_address (e->region)
        + mem->offset;
    binding->length = mem->size;
  }
  g_mutex_unlock (&cache_lock);
  return st;
}

guint
gst_sima_import_cache_size (SimaEv74Device * dev)
{
  GList *l;
  guint n = 0;

  g_mutex_lock (&cache_lock);
  for (l = lru.head; l != NULL; l = l->next) {
    ImportEntry *e = l->data;
    n += e->dev == dev && e->region != NULL;
  }
  g_mutex_unlock (&cache_lock);
  return n;
}
