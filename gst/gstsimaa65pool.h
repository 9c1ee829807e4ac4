/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gstsimaa65pool.h - the A65 thread pool an element owns (the `threads`
 * property of GstSimaBaseTransform): built when the first buffer runs on
 * the A65, rebuilt when the property changed, freed at stop. Glue only:
 * how an execution is split is the core's (simaai/kernels/a65/threads.h).
 *
 * Only the thread that runs the element's A65 executions (the streaming
 * thread, holding the sink pad's stream lock) and stop()/finalize (with
 * that lock, or when no thread is left) touch it, so a pool is never
 * rebuilt or freed while an execution runs on it.
 */
#ifndef GST_SIMA_A65_POOL_H
#define GST_SIMA_A65_POOL_H

#include <gst/gst.h>
#include <simaai/kernels/a65/threads.h>

G_BEGIN_DECLS

typedef struct
{
  SimaA65Threads *pool;         /* NULL: the calling thread (threads=1) */
  guint built_for;              /* the property value `pool` was made for */
  gboolean built;               /* built_for is meaningful */
  /* a failed creation is posted once per value, not once per buffer */
  guint failed_for;
  gboolean failed;
} GstSimaA65Pool;

/* The pool for `threads` (the property: 0 = one per online CPU), built or
 * rebuilt when it was made for another value. FALSE, with a
 * GST_ELEMENT_ERROR naming the value posted once per value, when the core
 * cannot create it; the caller fails the flow. */
gboolean gst_sima_a65_pool_get (GstSimaA65Pool * p, GstElement * element,
    GstDebugCategory * category, guint threads, SimaA65Threads ** out);

/* Frees the pool and forgets the failure (stop, finalize). */
void gst_sima_a65_pool_clear (GstSimaA65Pool * p);

G_END_DECLS

#endif /* GST_SIMA_A65_POOL_H */
