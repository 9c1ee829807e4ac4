/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The transport seam (src/ev74/transport.h) with a transport of the test's
 * own: an ops table registered for specs "fake" and "fake:...", which
 * records what the device layer asks of it and retires jobs only when the
 * test says so. Through the public device API it checks that:
 *  - the spec reaches the transport's open (options after the prefix), one
 *    spec is one refcounted device, and close comes with the last reference
 *    only after every region was released;
 *  - capabilities come from the transport (require and submit fail closed);
 *  - a job holds its descriptor copy (stable bytes, not the caller's) and
 *    its regions until the transport confirms retirement, however early the
 *    caller drops its own references, and a wait times out meanwhile;
 *  - retirement status and statistics reach the waiter;
 *  - cancel reaches the transport and the job still retires through it;
 *  - a transport that places a region beyond 32 bits is refused;
 *  - a transport without options refuses configure, and prefixes taken
 *    (the emulator's) cannot be registered again.
 */
#define _GNU_SOURCE
#include <simaai/kernels/ev74/device.h>
#include <simaai/kernels/ev74/wire.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ev74_testing.h"
#include "tap.h"

enum { FAKE_MAX_JOBS = 8, FAKE_ROUTE = 49 };

typedef struct {
  int live;
  const uint8_t *desc;
  uint32_t length;
  SimaEv74TransportRegion regions[4];
  size_t n_regions;
  SimaEv74RetiredFn retired;
  void *cookie;
  uint64_t id;
  int cancelled;
} FakeJob;

/* one fake device at a time; the device layer may call from any thread */
static pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  int open, closed;
  char options[64];
  int imported, released;
  int regions_live;
  uint64_t next_bus, next_id;
  int bad_bus;                  /* place the next region at 2^32 */
  FakeJob jobs[FAKE_MAX_JOBS];
  int cancels;
} fake;

static int fake_ctx_token;

static SimaStatus
fake_open (const char *options, void **ctx)
{
  pthread_mutex_lock (&fake_lock);
  fake.open++;
  snprintf (fake.options, sizeof fake.options, "%s", options);
  pthread_mutex_unlock (&fake_lock);
  if (strcmp (options, "refuse") == 0)
    return sima_status_make (SIMA_DEVICE_UNAVAILABLE, "fake: refused");
  *ctx = &fake_ctx_token;
  return sima_status_ok ();
}

static int
fake_has_capability (void *ctx, uint16_t route, const char *name)
{
  (void) ctx;
  return route == FAKE_ROUTE
      && (name == NULL || strcmp (name, "fake_route_49") == 0);
}

static SimaStatus
fake_import (void *ctx, int fd, uint64_t length, void **region, uint64_t *bus)
{
  (void) ctx;
  (void) fd;
  pthread_mutex_lock (&fake_lock);
  fake.imported++;
  fake.regions_live++;
  *bus = fake.bad_bus ? UINT64_C (0x100000000) : 0x10000000 + fake.next_bus;
  fake.next_bus += (length + 4095) & ~UINT64_C (4095);
  *region = malloc (1);         /* ASan sees a double or missing release */
  pthread_mutex_unlock (&fake_lock);
  return sima_status_ok ();
}

static void
fake_release (void *ctx, void *region)
{
  (void) ctx;
  pthread_mutex_lock (&fake_lock);
  fake.released++;
  fake.regions_live--;
  pthread_mutex_unlock (&fake_lock);
  free (region);
}

static SimaStatus
fake_submit (void *ctx, const uint8_t *desc, uint32_t length,
    const SimaEv74TransportRegion *regions, size_t n_regions,
    SimaEv74RetiredFn retired, void *cookie, uint64_t *id)
{
  int i;

  (void) ctx;
  if (n_regions > 4)
    return sima_status_make (SIMA_OUT_OF_RESOURCES, "fake: too many regions");
  pthread_mutex_lock (&fake_lock);
  for (i = 0; i < FAKE_MAX_JOBS && fake.jobs[i].live; i++) {
  }
  if (i == FAKE_MAX_JOBS) {
    pthread_mutex_unlock (&fake_lock);
    return sima_status_make (SIMA_OUT_OF_RESOURCES, "fake: queue full");
  }
  fake.jobs[i] = (FakeJob) { 1, desc, length, { { 0 } }, n_regions, retired,
    cookie, ++fake.next_id, 0 };
  if (n_regions > 0)
    memcpy (fake.jobs[i].regions, regions, n_regions * sizeof *regions);
  *id = fake.next_id;
  pthread_mutex_unlock (&fake_lock);
  return sima_status_ok ();
}

static void
fake_cancel (void *ctx, uint64_t id)
{
  int i;

  (void) ctx;
  pthread_mutex_lock (&fake_lock);
  fake.cancels++;
  for (i = 0; i < FAKE_MAX_JOBS; i++)
    if (fake.jobs[i].live && fake.jobs[i].id == id)
      fake.jobs[i].cancelled = 1;   /* retires when the test says so */
  pthread_mutex_unlock (&fake_lock);
}

static void
fake_close (void *ctx)
{
  (void) ctx;
  pthread_mutex_lock (&fake_lock);
  fake.closed++;
  pthread_mutex_unlock (&fake_lock);
}

static const SimaEv74TransportOps fake_ops = {
  .name = "fake",
  .open = fake_open,
  .has_capability = fake_has_capability,
  .import = fake_import,
  .release = fake_release,
  .submit = fake_submit,
  .cancel = fake_cancel,
  .configure = NULL,
  .close = fake_close,
};

/* The device confirms retirement of job slot i, from another thread as a
 * real transport's completion thread would. */
typedef struct {
  int slot;
  SimaStatus status;
} RetireArgs;

static void *
retire_thread (void *arg)
{
  RetireArgs *a = arg;
  SimaEv74JobStats s;
  FakeJob j;

  pthread_mutex_lock (&fake_lock);
  j = fake.jobs[a->slot];
  fake.jobs[a->slot].live = 0;
  pthread_mutex_unlock (&fake_lock);
  memset (&s, 0, sizeof s);
  s.device_ns = 1234;
  s.dma_commands = j.length;    /* proves the stats are the transport's */
  s.workers = 1;
  j.retired (j.cookie, &a->status, &s);
  return NULL;
}

static void
fake_retire (int slot, SimaStatus status)
{
  RetireArgs a = { slot, status };
  pthread_t t;

  pthread_create (&t, NULL, retire_thread, &a);
  pthread_join (t, NULL);
}

static int
fake_slot_of_live (void)
{
  int i, found = -1;

  pthread_mutex_lock (&fake_lock);
  for (i = 0; i < FAKE_MAX_JOBS; i++)
    if (fake.jobs[i].live)
      found = i;
  pthread_mutex_unlock (&fake_lock);
  return found;
}

static int
memfd_of (size_t size)
{
  int fd = memfd_create ("fake-region", MFD_CLOEXEC);
  if (fd >= 0 && ftruncate (fd, (off_t) size) != 0) {
    close (fd);
    fd = -1;
  }
  return fd;
}

/* `length` bytes of `fill` under a header naming `route`: the device layer
 * reads only the route; the fake transport does not look at the rest */
static void
fill_descriptor (SimaEv74Descriptor *d, uint8_t fill, uint32_t length,
    uint16_t route)
{
  d->length = length;
  memset (d->bytes, fill, length);
  sima_ev74_put_u32 (d->bytes, SIMA_EV74_OFF_MAGIC, SIMA_EV74_MAGIC);
  sima_ev74_put_u16 (d->bytes, SIMA_EV74_OFF_LENGTH, (uint16_t) length);
  sima_ev74_put_u16 (d->bytes, SIMA_EV74_OFF_ROUTE, route);
}

int
main (void)
{
  SimaEv74Device *dev, *again;
  SimaEv74Region *in, *out, *regions[2];
  SimaEv74Descriptor *d = calloc (1, sizeof *d);
  SimaEv74Job *job;
  SimaEv74JobStats stats;
  SimaStatus st;
  uint8_t copy[232];
  int slot, fd;

  st = sima_ev74_testing_register_transport ("fake", &fake_ops);
  tap_ok (st.code == SIMA_OK, "a test transport registers for 'fake' (%s)",
      st.message);
  st = sima_ev74_testing_register_transport ("emulator", &fake_ops);
  tap_ok (st.code == SIMA_INVALID_ARGUMENT && strstr (st.message, "taken"),
      "the emulator's prefix cannot be taken: %s", st.message);
  st = sima_ev74_testing_register_transport ("fake", &fake_ops);
  tap_ok (st.code == SIMA_INVALID_ARGUMENT, "nor one registered already");

  st = sima_ev74_device_open ("fake:refuse", &dev);
  tap_ok (st.code == SIMA_DEVICE_UNAVAILABLE && dev == NULL
      && strstr (st.message, "fake: refused"),
      "a transport's open failure is the open's: %s", st.message);
  st = sima_ev74_device_open ("fakeish", &dev);
  tap_ok (st.code == SIMA_DEVICE_UNAVAILABLE,
      "a prefix matches whole words only ('fakeish'): %s",
      sima_status_code_name (st.code));

  st = sima_ev74_device_open ("fake:lanes=2", &dev);
  tap_ok (st.code == SIMA_OK && strcmp (fake.options, "lanes=2") == 0,
      "'fake:lanes=2' opens the fake transport with options '%s'",
      fake.options);
  sima_ev74_device_open ("fake:lanes=2", &again);
  tap_ok (again == dev && fake.open == 2,
      "the same spec is the same device, opened once (%d opens)", fake.open);
  sima_ev74_device_unref (again);
  tap_ok (fake.closed == 0, "one unref of two does not close");

  tap_ok (sima_ev74_device_require (dev, FAKE_ROUTE, "fake_route_49").code
      == SIMA_OK, "require asks the transport (route 49 present)");
  st = sima_ev74_device_require (dev, 50, "fake_route_50");
  tap_ok (st.code == SIMA_CAPABILITY_MISSING
      && strstr (st.message, "'fake:lanes=2'"),
      "and fails closed for what it lacks: %s", st.message);
  st = sima_ev74_device_configure (dev, "fault=hang");
  tap_ok (st.code == SIMA_INVALID_ARGUMENT
      && strstr (st.message, "has no options"),
      "configure on a transport without options: %s", st.message);

  /* regions */
  fd = memfd_of (8192);
  st = sima_ev74_region_import (dev, fd, 5000, &in);
  tap_ok (st.code == SIMA_OK && sima_ev74_region_bus_address (in)
      == 0x10000000 && sima_ev74_region_length (in) == 5000,
      "import returns the transport's bus address (0x%llx)",
      (unsigned long long) (st.code == SIMA_OK
          ? sima_ev74_region_bus_address (in) : 0));
  sima_ev74_region_import (dev, fd, 100, &out);
  fake.bad_bus = 1;
  st = sima_ev74_region_import (dev, fd, 100, &regions[0]);
  fake.bad_bus = 0;
  tap_ok (st.code == SIMA_DEVICE_FAULT && fake.released == 1,
      "a region placed at 2^32 is released and refused: %s", st.message);
  close (fd);

  /* a job, abandoned by its caller before retirement */
  fill_descriptor (d, 0xA5, 232, FAKE_ROUTE);
  regions[0] = in;
  regions[1] = out;
  st = sima_ev74_submit (dev, d, regions, 2, &job);
  tap_ok (st.code == SIMA_OK, "submit reaches the transport (%s)",
      st.message);
  slot = fake_slot_of_live ();
  tap_ok (slot >= 0 && fake.jobs[slot].length == 232
      && fake.jobs[slot].desc != d->bytes
      && memcmp (fake.jobs[slot].desc, d->bytes, 232) == 0
      && fake.jobs[slot].n_regions == 2
      && fake.jobs[slot].regions[0].bus == 0x10000000
      && fake.jobs[slot].regions[1].length == 100,
      "the transport gets a copy of the descriptor and both regions");
  memset (d->bytes, 0, d->length);      /* the caller reuses its storage */
  st = sima_ev74_job_wait (job, 20 * 1000000);
  tap_ok (st.code == SIMA_TIMEOUT && !sima_ev74_job_retired (job),
      "a wait before retirement times out: %s", st.message);
  sima_ev74_job_stats (job, &stats);
  tap_ok (stats.device_ns == 0 && stats.dma_commands == 0,
      "no statistics before retirement");
  sima_ev74_job_unref (job);
  sima_ev74_region_unref (in);
  sima_ev74_region_unref (out);
  sima_ev74_device_unref (dev);
  memcpy (copy, fake.jobs[slot].desc, sizeof copy);
  tap_ok (fake.released == 1 && fake.regions_live == 2 && fake.closed == 0,
      "with every caller reference gone, the job still holds both regions "
      "and the device (%d released, %d live, %d closed)", fake.released,
      fake.regions_live, fake.closed);
  tap_ok (copy[20] == 0xA5 && sima_ev74_get_u16 (copy, SIMA_EV74_OFF_ROUTE)
      == FAKE_ROUTE,
      "and its descriptor bytes are unchanged");
  fake_retire (slot, sima_status_ok ());
  tap_ok (fake.released == 3 && fake.regions_live == 0 && fake.closed == 1,
      "retirement releases both regions, then the device closes (%d "
      "released, %d closed)", fake.released, fake.closed);

  /* a job that is waited for, and one cancelled */
  sima_ev74_device_open ("fake", &dev);
  tap_ok (strcmp (fake.options, "") == 0 && fake.open == 3,
      "'fake' alone opens with no options");
  fd = memfd_of (4096);
  sima_ev74_region_import (dev, fd, 4096, &in);
  close (fd);
  fill_descriptor (d, 0x5A, 200, FAKE_ROUTE);
  sima_ev74_submit (dev, d, &in, 1, &job);
  sima_ev74_region_unref (in);
  slot = fake_slot_of_live ();
  fake_retire (slot, sima_status_make (SIMA_DMA_ERROR, "fake: bus error"));
  st = sima_ev74_job_wait (job, -1);
  sima_ev74_job_stats (job, &stats);
  tap_ok (st.code == SIMA_DMA_ERROR && strstr (st.message, "fake: bus error")
      && sima_ev74_job_retired (job),
      "the transport's retirement status reaches the waiter: %s",
      st.message);
  tap_ok (stats.device_ns == 1234 && stats.dma_commands == 200
      && stats.workers == 1, "and so do its statistics");
  tap_ok (fake.regions_live == 0 && fake.closed == 1,
      "its region went at retirement; the device stays open");
  sima_ev74_job_unref (job);

  fill_descriptor (d, 0x5A, 232, FAKE_ROUTE);
  sima_ev74_submit (dev, d, NULL, 0, &job);
  sima_ev74_job_cancel (job);
  slot = fake_slot_of_live ();
  tap_ok (fake.cancels == 1 && slot >= 0 && fake.jobs[slot].cancelled
      && !sima_ev74_job_retired (job),
      "cancel reaches the transport; the job waits for its retirement");
  fake_retire (slot, sima_status_make (SIMA_DEVICE_FAULT, "fake: cancelled"));
  st = sima_ev74_job_wait (job, 0);
  tap_ok (st.code == SIMA_DEVICE_FAULT,
      "a cancelled job retires through the transport: %s", st.message);
  sima_ev74_job_cancel (job);
  tap_ok (fake.cancels == 1, "cancelling a retired job asks nothing");
  sima_ev74_job_unref (job);

  fill_descriptor (d, 0x5A, 232, 50);
  st = sima_ev74_submit (dev, d, NULL, 0, &job);
  tap_ok (st.code == SIMA_CAPABILITY_MISSING && job == NULL
      && fake_slot_of_live () < 0,
      "submit fails closed on a route the transport lacks: %s", st.message);
  sima_ev74_device_unref (dev);
  tap_ok (fake.closed == 2, "the last reference closes the transport");
  free (d);
  return tap_done ();
}
