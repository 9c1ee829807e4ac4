/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test_host_hal.c - the device model (firmware/hal/device_model.h) as the
 * host HAL enforces it: granule sharing with unretired writes (same worker)
 * and with other workers' writes, exact scalar stores, the 2D limits, the
 * counters and the cost model, in both DMA models. Expected costs are
 * worked out here by hand from the header's constants, not by calling the
 * HAL's own arithmetic.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hal/device_model.h"
#include "hal/host/host_hal.h"
#include "tap.h"

enum { BUS = 0x80000000u, REGION = 4096, LOCAL = 8192 };

static uint8_t *memory, *locals[4];
static SimaHostRegion region;

static void
fresh (void)
{
  sima_host_regions_untrack (&region, 1);
  memset (memory, 0, REGION);
  region = (SimaHostRegion) { BUS, REGION, memory, NULL, NULL };
  if (sima_host_regions_track (&region, 1) != 0)
    abort ();
}

static void
worker (SimaHostHal *h, unsigned w, SimaHostDmaModel model)
{
  sima_host_hal_init (h, w, 4, &region, 1, model, locals[w], LOCAL);
}

static int
wr (SimaHostHal *h, unsigned tag, uint32_t off, uint32_t bytes)
{
  return h->hal.ops->write_2d (&h->hal, tag, BUS + off, 0, h->local, 0,
      bytes, 1);
}

static int
st (SimaHostHal *h, uint32_t off, uint32_t bytes)
{
  return h->hal.ops->store (&h->hal, BUS + off, h->local, bytes);
}

static int
has (const SimaHostHal *h, const char *fragment)
{
  return strstr (h->fault, fragment) != NULL;
}

static void
granules (SimaHostDmaModel model, const char *name)
{
  SimaHostHal a, b;

  /* same worker: two unretired writes into one granule */
  fresh ();
  worker (&a, 0, model);
  tap_ok (wr (&a, 0, 0, 24) == 0 && wr (&a, 1, 24, 8) != 0
      && has (&a, "unretired") && has (&a, "0x80000010")
      && has (&a, "worker 0"),
      "%s: a write into a granule an unretired write touches is refused "
      "(%s)", name, a.fault);
  a.hal.ops->wait (&a.hal, 0);
  a.hal.ops->wait (&a.hal, 1);
  sima_host_hal_finish (&a);

  /* after the wait it may go */
  fresh ();
  worker (&a, 0, model);
  tap_ok (wr (&a, 0, 0, 24) == 0 && a.hal.ops->wait (&a.hal, 0) == 0
      && wr (&a, 1, 24, 8) == 0 && a.hal.ops->wait (&a.hal, 1) == 0
      && a.fault[0] == '\0' && sima_host_hal_finish (&a) == 0,
      "%s: once the first write retired, the second may share its granule",
      name);

  /* a wait on another tag does not retire it */
  fresh ();
  worker (&a, 0, model);
  tap_ok (wr (&a, 2, 32, 16) == 0 && a.hal.ops->wait (&a.hal, 3) == 0
      && st (&a, 40, 4) != 0 && has (&a, "scalar store")
      && has (&a, "tags 0x4"),
      "%s: a store into a granule with a write unretired on tag 2 is refused "
      "after a wait on tag 3 (%s)", name, a.fault);
  a.hal.ops->wait (&a.hal, 2);
  sima_host_hal_finish (&a);

  /* neighbouring whole granules are independent */
  fresh ();
  worker (&a, 0, model);
  tap_ok (wr (&a, 0, 0, 16) == 0 && wr (&a, 0, 16, 16) == 0
      && a.hal.ops->wait (&a.hal, 0) == 0 && a.fault[0] == '\0',
      "%s: writes of adjacent granules on one tag are fine", name);
  sima_host_hal_finish (&a);

  /* another worker: DMA into a granule worker 0 wrote, even retired */
  fresh ();
  worker (&a, 0, model);
  worker (&b, 1, model);
  wr (&a, 0, 0, 20);
  a.hal.ops->wait (&a.hal, 0);
  tap_ok (wr (&b, 0, 20, 12) != 0 && has (&b, "another worker")
      && has (&b, "worker 1"),
      "%s: worker 1 may not DMA into a granule worker 0 wrote by DMA (%s)",
      name, b.fault);
  tap_ok (st (&b, 20, 4) != 0,
      "%s: nor store into it", name);
  sima_host_hal_finish (&a);
  sima_host_hal_finish (&b);

  /* exact stores of two workers may share a granule; DMA after them not */
  fresh ();
  worker (&a, 0, model);
  worker (&b, 1, model);
  memset (a.local, 0x11, 16);
  memset (b.local, 0x22, 16);
  tap_ok (st (&a, 48, 5) == 0 && st (&b, 53, 11) == 0
      && memory[47] == 0 && memory[48] == 0x11 && memory[52] == 0x11
      && memory[53] == 0x22 && memory[63] == 0x22 && memory[64] == 0,
      "%s: exact stores of two workers share a granule and write only their "
      "bytes", name);
  tap_ok (wr (&a, 0, 48, 16) != 0 && has (&a, "another worker"),
      "%s: a DMA write over another worker's stores is refused", name);
  a.hal.ops->wait (&a.hal, 0);
  sima_host_hal_finish (&a);
  sima_host_hal_finish (&b);

  /* the same worker may DMA where it stored (stores have landed) */
  fresh ();
  worker (&a, 0, model);
  tap_ok (st (&a, 64, 3) == 0 && wr (&a, 0, 64, 16) == 0
      && a.hal.ops->wait (&a.hal, 0) == 0 && a.fault[0] == '\0',
      "%s: a worker's DMA over its own landed stores is fine", name);
  sima_host_hal_finish (&a);

  /* 2D: 8-byte rows at a 12-byte pitch share granule 0 */
  fresh ();
  worker (&a, 0, model);
  tap_ok (a.hal.ops->write_2d (&a.hal, 0, BUS, 12, a.local, 8, 8, 2) != 0
      && has (&a, "unretired"),
      "%s: the rows of one 2D write may not share a granule", name);
  a.hal.ops->wait (&a.hal, 0);
  sima_host_hal_finish (&a);

  /* untracked regions: no granule rules (callers without a job map) */
  sima_host_regions_untrack (&region, 1);
  worker (&a, 0, model);
  tap_ok (wr (&a, 0, 0, 24) == 0 && wr (&a, 1, 24, 8) == 0
      && a.hal.ops->wait (&a.hal, 0) == 0
      && a.hal.ops->wait (&a.hal, 1) == 0 && a.fault[0] == '\0',
      "%s: an untracked region is not judged", name);
  sima_host_hal_finish (&a);
  fresh ();
}

static void
stores_and_limits (void)
{
  SimaHostHal a;

  fresh ();
  worker (&a, 0, SIMA_HOST_DMA_DEFERRED);
  tap_ok (st (&a, 14, 4) != 0 && has (&a, "inside one 16-byte granule"),
      "a store across a granule boundary is refused (%s)", a.fault);
  sima_host_hal_finish (&a);
  worker (&a, 0, SIMA_HOST_DMA_DEFERRED);
  tap_ok (st (&a, 0, 16) != 0 && st (&a, 0, 0) != 0,
      "stores of 16 and 0 bytes are refused (a whole granule is DMA's)");
  sima_host_hal_finish (&a);
  worker (&a, 0, SIMA_HOST_DMA_DEFERRED);
  tap_ok (a.hal.ops->read_2d (&a.hal, 0, a.local, 1, BUS, 1, 1,
          SIMA_EV74_DMA_MAX_ROWS + 1) != 0 && has (&a, "rows"),
      "a 2D transfer of %u rows is refused (%s)", SIMA_EV74_DMA_MAX_ROWS + 1,
      a.fault);
  sima_host_hal_finish (&a);
  worker (&a, 0, SIMA_HOST_DMA_DEFERRED);
  tap_ok (a.hal.ops->read_2d (&a.hal, 0, a.local, 1, BUS,
          SIMA_EV74_DMA_MAX_PITCH + 1, 1, 2) != 0 && has (&a, "pitch"),
      "a bus pitch of %u is refused (%s)", SIMA_EV74_DMA_MAX_PITCH + 1,
      a.fault);
  sima_host_hal_finish (&a);
  /* the 2D limit's edge is accepted */
  worker (&a, 0, SIMA_HOST_DMA_DEFERRED);
  tap_ok (a.hal.ops->read_2d (&a.hal, 0, a.local, 0, BUS, 0, 1,
          SIMA_EV74_DMA_MAX_ROWS) == 0 && a.hal.ops->wait (&a.hal, 0) == 0,
      "a 2D transfer of exactly %u rows is accepted", SIMA_EV74_DMA_MAX_ROWS);
  sima_host_hal_finish (&a);
}

static void
costs (void)
{
  SimaHostHal a;
  uint64_t want;

  fresh ();
  worker (&a, 0, SIMA_HOST_DMA_IMMEDIATE);
  /* read: 3 rows of 20 bytes from bus +8 at pitch 64 into local +2: each
   * row touches 2 granules (bytes 8..27), is small, and is unaligned (the
   * local start 2, 22, 42 is not a multiple of 4) */
  a.hal.ops->read_2d (&a.hal, 0, a.local + 2, 20, BUS + 8, 64, 20, 3);
  want = 64 + 3 * (2 + 2 + 1);
  tap_ok (a.stats.cycles == want && a.stats.small == 3
      && a.stats.unaligned == 3 && a.stats.partial == 0,
      "a small unaligned 2D read costs %llu cycles (want %llu), 3 small, 3 "
      "unaligned", (unsigned long long) a.stats.cycles,
      (unsigned long long) want);
  a.hal.ops->wait (&a.hal, 0);
  /* write: 128 aligned bytes, 8 beats, efficient, aligned, whole */
  a.stats.cycles = 0;
  wr (&a, 1, 256, 128);
  tap_ok (a.stats.cycles == 64 + 2 + 8 && a.stats.small == 3
      && a.stats.partial == 0,
      "an aligned 128-byte write costs 74 cycles (got %llu)",
      (unsigned long long) a.stats.cycles);
  /* a write with a partial granule is counted (the firmware never issues
   * one; tests/common/ev74_diff.c asserts so) */
  wr (&a, 1, 512, 20);
  tap_ok (a.stats.partial == 1, "a partial-granule DMA write row is counted");
  a.hal.ops->wait (&a.hal, 1);
  /* a 7-byte store at +1: 1 + 2 + 4 byte pieces */
  a.stats.cycles = 0;
  st (&a, 1025, 7);
  tap_ok (a.stats.stores == 3 && a.stats.cycles
      == 3 * SIMA_EV74_SCALAR_STORE_CYCLES,
      "a 7-byte store at offset 1 is 3 naturally aligned pieces (%llu)",
      (unsigned long long) a.stats.stores);
  tap_ok (sima_host_hal_finish (&a) == 0, "nothing left in flight");
}

static void
pending_at_finish (void)
{
  SimaHostHal a;

  fresh ();
  worker (&a, 0, SIMA_HOST_DMA_IMMEDIATE);
  wr (&a, 0, 0, 16);
  tap_ok (sima_host_hal_finish (&a) == 1,
      "immediate model: a tracked write never waited for is still pending "
      "at the end");
  worker (&a, 0, SIMA_HOST_DMA_IMMEDIATE);
  tap_ok (wr (&a, 0, 0, 16) == 0,
      "and its granules are free for the next job's workers");
  a.hal.ops->wait (&a.hal, 0);
  sima_host_hal_finish (&a);
}

int
main (void)
{
  unsigned w;

  memory = aligned_alloc (64, REGION);
  for (w = 0; w < 4; w++)
    locals[w] = aligned_alloc (64, LOCAL);
  granules (SIMA_HOST_DMA_IMMEDIATE, "immediate");
  granules (SIMA_HOST_DMA_DEFERRED, "deferred");
  stores_and_limits ();
  costs ();
  pending_at_finish ();
  sima_host_regions_untrack (&region, 1);
  free (memory);
  for (w = 0; w < 4; w++)
    free (locals[w]);
  return tap_done ();
}
