/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The element's A65 thread pool (gstsimaa65pool.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsimaa65pool.h"

#define GST_CAT_DEFAULT category

gboolean
gst_sima_a65_pool_get (GstSimaA65Pool * p, GstElement * element,
    GstDebugCategory * category, guint threads, SimaA65Threads ** out)
{
  SimaA65Threads *pool = NULL;
  SimaStatus st;

  if (p->built && p->built_for == threads) {
    *out = p->pool;
    return TRUE;
  }
  /* the last execution on the old pool has returned: only this thread
   * runs executions on it */
  sima_a65_threads_free (p->pool);
  p->pool = NULL;
  p->built = FALSE;
  /* one thread is the calling thread: no pool, no worker to wake */
  if (threads != 1) {
    st = sima_a65_threads_new (threads, &pool);
    if (st.code != SIMA_OK) {
      if (!p->failed || p->failed_for != threads) {
        GST_ELEMENT_ERROR (element, RESOURCE, FAILED,
            ("cannot create the A65 thread pool for threads=%u: %s",
                threads, st.message),
            ("status %s", sima_status_code_name (st.code)));
        p->failed = TRUE;
        p->failed_for = threads;
      }
      return FALSE;
    }
  }
  p->failed = FALSE;
  p->pool = pool;
  p->built_for = threads;
  p->built = TRUE;
  GST_DEBUG_OBJECT (element, "A65 executions run on %u thread(s) "
      "(threads=%u)", sima_a65_threads_count (pool), threads);
  *out = pool;
  return TRUE;
}

void
gst_sima_a65_pool_clear (GstSimaA65Pool * p)
{
  sima_a65_threads_free (p->pool);
  *p = (GstSimaA65Pool) { 0 };
}
