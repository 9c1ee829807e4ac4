/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The cached ISA set (cpu/cpu.c) under concurrency: in a fresh process,
 * THREADS threads released by one barrier all make the process's first ISA
 * query and first QuantTess prepare at once (two pipelines preparing
 * together). Every thread must see the same set and pick the same leaf as a
 * query made afterwards. The data race itself is ThreadSanitizer's to
 * find: after the barrier nothing orders the threads, so a non-atomic
 * cache is reported whatever the timing; this test is in the ev74 suite
 * too, which tools/test.sh runs under TSan.
 */
#define _POSIX_C_SOURCE 200809L
#include <simaai/kernels/a65/quanttess.h>

#include <pthread.h>
#include <stdint.h>

#include "cpu/cpu.h"
#include "tap.h"
#include "test_util.h"

enum { THREADS = 8 };

typedef struct {
  unsigned isas;
  SimaA65PackFn pack;
  SimaStatusCode prepared;
} Seen;

static pthread_barrier_t start;
static SimaQuantTessPlan plan;
static Seen seen[THREADS];

static void *
first_use (void *arg)
{
  Seen *mine = arg;
  int odd = (mine - seen) % 2;
  SimaA65QuantTessPlan a65;
  SimaStatus st;

  pthread_barrier_wait (&start);
  /* half the threads ask first, half prepare first: both orders race */
  if (!odd)
    mine->isas = sima_cpu_isas ();
  st = sima_a65_quanttess_prepare (&plan, &a65);
  if (odd)
    mine->isas = sima_cpu_isas ();
  mine->prepared = st.code;
  mine->pack = a65.pack;
  return NULL;
}

int
main (void)
{
  static const int64_t shape[3] = { 8, 8, 3 };
  static const int8_t axes[4] = { -1, 0, 1, 2 };
  static const int64_t tile[4] = { 1, 8, 8, 3 };
  SimaTensorSpec in = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, shape);
  SimaTensorSpec out = test_spec_tiled (SIMA_DTYPE_INT8, 3, shape, axes, tile,
      SIMA_CHANNELS_PAD16);
  SimaQuantTessRequest req = { &in, 1, &out, 1,
    { 1.0f, 0, SIMA_ROUNDING_NEAREST_EVEN } };
  SimaStatus st = sima_quanttess_check_inference (&req, &plan);
  pthread_t threads[THREADS];
  SimaA65QuantTessPlan after;
  int i, started = 0, same = 1;
  unsigned isas;

  tap_ok (st.code == SIMA_OK, "the plan is admitted: %s", st.message);
  pthread_barrier_init (&start, NULL, THREADS);
  for (i = 0; i < THREADS; i++)
    started += pthread_create (&threads[i], NULL, first_use, &seen[i]) == 0;
  if (!tap_ok (started == THREADS, "%d of %d threads started", started,
          THREADS))
    return tap_done ();         /* the barrier would never open */
  for (i = 0; i < THREADS; i++)
    pthread_join (threads[i], NULL);
  pthread_barrier_destroy (&start);

  isas = sima_cpu_isas ();
  st = sima_a65_quanttess_prepare (&plan, &after);
  for (i = 0; i < THREADS; i++)
    same &= seen[i].isas == isas && seen[i].pack == after.pack
        && seen[i].prepared == SIMA_OK;
  tap_ok (same && st.code == SIMA_OK, "%d threads preparing at once all saw "
      "ISA set 0x%x and the same leaf", THREADS, isas);
  return tap_done ();
}
