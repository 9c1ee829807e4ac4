/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The A65 thread pool (simaai/kernels/a65/threads.h): N - 1 POSIX worker
 * threads parked on a condition variable, and one run at a time that hands
 * every thread its part number. The caller's thread does part 0, so a pool
 * of one thread is the plain single-threaded call, and a run costs one
 * broadcast and one wait, not a thread creation.
 */
#include "threads_run.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

struct SimaA65Threads {
  unsigned n;                   /* threads, the caller's included */
  unsigned started;             /* worker threads created */
  pthread_t worker[SIMA_A65_MAX_THREADS - 1];
  pthread_mutex_t run_lock;     /* one run at a time */
  pthread_mutex_t lock;         /* what follows */
  pthread_cond_t go;            /* a new run, or quit */
  pthread_cond_t done;          /* the last worker of a run finished */
  uint64_t generation;          /* runs started */
  unsigned pending;             /* workers still in the current run */
  int quit;
  SimaA65PartFn fn;
  void *arg;
};

typedef struct {
  SimaA65Threads *pool;
  unsigned part;
} WorkerStart;

static void *
worker_main (void *data)
{
  SimaA65Threads *pool = ((WorkerStart *) data)->pool;
  const unsigned part = ((WorkerStart *) data)->part;
  uint64_t seen = 0;

  free (data);
  pthread_mutex_lock (&pool->lock);
  for (;;) {
    SimaA65PartFn fn;
    void *arg;
    while (!pool->quit && pool->generation == seen)
      pthread_cond_wait (&pool->go, &pool->lock);
    if (pool->quit)
      break;
    seen = pool->generation;
    fn = pool->fn;
    arg = pool->arg;
    pthread_mutex_unlock (&pool->lock);
    fn (arg, part, pool->n);
    pthread_mutex_lock (&pool->lock);
    if (--pool->pending == 0)
      pthread_cond_signal (&pool->done);
  }
  pthread_mutex_unlock (&pool->lock);
  return NULL;
}

static void
stop_workers (SimaA65Threads *pool)
{
  unsigned i;

  pthread_mutex_lock (&pool->lock);
  pool->quit = 1;
  pthread_cond_broadcast (&pool->go);
  pthread_mutex_unlock (&pool->lock);
  for (i = 0; i < pool->started; i++)
    pthread_join (pool->worker[i], NULL);
  pthread_cond_destroy (&pool->done);
  pthread_cond_destroy (&pool->go);
  pthread_mutex_destroy (&pool->lock);
  pthread_mutex_destroy (&pool->run_lock);
}

SimaStatus
sima_a65_threads_new (unsigned threads, SimaA65Threads **out)
{
  SimaA65Threads *pool;
  unsigned i;

  if (out == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "A65 threads: out is NULL");
  *out = NULL;
  if (threads == 0) {
    long cpus = sysconf (_SC_NPROCESSORS_ONLN);
    threads = cpus < 1 ? 1u : cpus > SIMA_A65_MAX_THREADS
        ? SIMA_A65_MAX_THREADS : (unsigned) cpus;
  }
  if (threads > SIMA_A65_MAX_THREADS)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "A65 threads: threads is %u, at most %d", threads,
        SIMA_A65_MAX_THREADS);
  pool = calloc (1, sizeof *pool);
  if (pool == NULL)
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "A65 threads: no memory for a pool of %u threads", threads);
  pool->n = threads;
  pthread_mutex_init (&pool->run_lock, NULL);
  pthread_mutex_init (&pool->lock, NULL);
  pthread_cond_init (&pool->go, NULL);
  pthread_cond_init (&pool->done, NULL);
  for (i = 1; i < threads; i++) {
    WorkerStart *ws = malloc (sizeof *ws);
    int err = ws == NULL;
    if (!err) {
      *ws = (WorkerStart) { pool, i };
      err = pthread_create (&pool->worker[i - 1], NULL, worker_main, ws);
      if (err)
        free (ws);
    }
    if (err) {
      stop_workers (pool);
      free (pool);
      return sima_status_make (SIMA_OUT_OF_RESOURCES,
          "A65 threads: thread %u of %u could not be created", i + 1,
          threads);
    }
    pool->started++;
  }
  *out = pool;
  return sima_status_ok ();
}

void
sima_a65_threads_free (SimaA65Threads *pool)
{
  if (pool == NULL)
    return;
  stop_workers (pool);
  free (pool);
}

unsigned
sima_a65_threads_count (const SimaA65Threads *pool)
{
  return pool == NULL ? 1u : pool->n;
}

void
sima_a65_threads_run (SimaA65Threads *pool, SimaA65PartFn fn, void *arg)
{
  if (pool == NULL || pool->n == 1) {
    fn (arg, 0, 1);
    return;
  }
  pthread_mutex_lock (&pool->run_lock);
  pthread_mutex_lock (&pool->lock);
  pool->fn = fn;
  pool->arg = arg;
  pool->pending = pool->n - 1;
  pool->generation++;
  pthread_cond_broadcast (&pool->go);
  pthread_mutex_unlock (&pool->lock);
  fn (arg, 0, pool->n);
  pthread_mutex_lock (&pool->lock);
  while (pool->pending > 0)
    pthread_cond_wait (&pool->done, &pool->lock);
  pthread_mutex_unlock (&pool->lock);
  pthread_mutex_unlock (&pool->run_lock);
}

uint64_t
sima_a65_part_begin (uint64_t total, unsigned part, unsigned parts)
{
  /* floor (total * part / parts) without the product: parts <= 64 */
  return total / parts * part + total % parts * part / parts;
}
