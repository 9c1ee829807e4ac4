/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The EV74 emulator transport: a 32-bit bus aperture from 0x8000_0000 into
 * which regions are mapped, a job queue, and 1-4 worker threads that run the
 * firmware's native entry (firmware/) through the host HAL. A job is cut
 * into one part per worker; it retires when every part has returned, and
 * only then does it let go of its regions. Faults can be injected through
 * the spec string or sima_ev74_device_configure().
 */
#define _GNU_SOURCE
#include "device_private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <simaai/kernels/ev74/tensor_set_wire.h>
#include <simaai/kernels/ev74/wire.h>

#include "../../firmware/native_entry.h"
#include "codec_private.h"

/* The emulator maps regions into the upper half of the 32-bit bus that
 * descriptors can address (wire.h's limit): a 2 GiB aperture. */
#define APERTURE_END SIMA_EV74_APERTURE_LIMIT
#define APERTURE_BASE (APERTURE_END / 2)
#define PAGE UINT64_C (4096)

/* The device a worker thread serves, so that dropping the last reference
 * from inside a job's retirement does not wait for the calling thread. */
static __thread SimaEv74Device *current_worker_device;

uint64_t
sima_emu_now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * UINT64_C (1000000000) + (uint64_t) ts.tv_nsec;
}

/* ---- clocks --------------------------------------------------------------- */

/* Every timed wait of the emulator runs on CLOCK_MONOTONIC: a wall-clock step
 * (NTP, settimeofday, a suspended VM catching up) must not fire a timeout
 * early or hold it late. The conditions are created for that clock and the
 * deadlines are read from it, here and only here. */
#define SIMA_EMU_WAIT_CLOCK CLOCK_MONOTONIC

static int
cond_init (pthread_cond_t *cond)
{
  pthread_condattr_t attr;
  int err = pthread_condattr_init (&attr);

  if (err != 0)
    return err;
  err = pthread_condattr_setclock (&attr, SIMA_EMU_WAIT_CLOCK);
  if (err == 0)
    err = pthread_cond_init (cond, &attr);
  pthread_condattr_destroy (&attr);
  return err;
}

/* The absolute deadline `ns` from now, for pthread_cond_timedwait on a
 * condition made by cond_init. */
static struct timespec
deadline_after (uint64_t ns)
{
  struct timespec t;
  uint64_t sum;

  clock_gettime (SIMA_EMU_WAIT_CLOCK, &t);
  sum = (uint64_t) t.tv_nsec + ns % UINT64_C (1000000000);
  t.tv_sec += (time_t) (ns / UINT64_C (1000000000) + sum
      / UINT64_C (1000000000));
  t.tv_nsec = (long) (sum % UINT64_C (1000000000));
  return t;
}

/* ---- options -------------------------------------------------------------- */

/* The emulator's options: the one table that both the parser and its
 * messages read, so the ranges a user is told are the ranges enforced. */
typedef enum {
  OPT_WORKERS,
  OPT_LOCAL_KIB,
  OPT_DMA,
  OPT_MISSING,
  OPT_FAULT,
  OPT_FAULT_AFTER_JOBS,
  OPT_FAULT_AFTER_COMMANDS,
  OPT_HANG_MS,
  OPT_COUNT
} OptionId;

/* words: the values of a word option, in the order of its enum; NULL for
 * numbers, which take [min, max]. */
static const char *const dma_words[] = { "immediate", "deferred", NULL };
static const char *const fault_words[] = { "none", "dma-error", "hang",
  "worker-failure", NULL
};

static const struct {
  const char *name;
  uint64_t min, max;
  const char *const *words;
  int fixed_at_open;            /* part of the device's shape */
} option_table[OPT_COUNT] = {
  [OPT_WORKERS] = { "workers", 1, SIMA_EMU_MAX_WORKERS, NULL, 1 },
  [OPT_LOCAL_KIB] = { "local-kib", 1, 1024, NULL, 1 },
  [OPT_DMA] = { "dma", 0, 0, dma_words, 0 },
  [OPT_MISSING] = { "missing", 0, UINT16_MAX, NULL, 0 },
  [OPT_FAULT] = { "fault", 0, 0, fault_words, 0 },
  [OPT_FAULT_AFTER_JOBS] = { "fault-after-jobs", 0, UINT64_MAX, NULL, 0 },
  [OPT_FAULT_AFTER_COMMANDS] = { "fault-after-commands", 0, INT64_MAX, NULL,
    0 },
  [OPT_HANG_MS] = { "hang-ms", 0, 600000, NULL, 0 },
};

/* How much of a user's option text a message quotes (the status message is
 * 160 bytes and must still say what is valid). */
#define QUOTE_MAX 40

static int
parse_uint (const char *text, size_t len, uint64_t min, uint64_t max,
    uint64_t *out)
{
  uint64_t v = 0;
  size_t i;

  if (len == 0)
    return 0;
  for (i = 0; i < len; i++) {
    uint64_t d = (uint64_t) (text[i] - '0');
    /* v * 10 + d <= max, tested without overflowing */
    if (text[i] < '0' || text[i] > '9' || d > max || v > (max - d) / 10)
      return 0;
    v = v * 10 + d;
  }
  if (v < min)
    return 0;
  *out = v;
  return 1;
}

static int
is (const char *text, size_t len, const char *word)
{
  return strlen (word) == len && strncmp (text, word, len) == 0;
}

static int
word_index (const char *const *words, const char *text, size_t len)
{
  int i;

  for (i = 0; words[i] != NULL; i++)
    if (is (text, len, words[i]))
      return i;
  return -1;
}

/* "workers is 1 to 4", "dma is immediate or deferred": what option `id`
 * accepts, from option_table. */
static void
describe_option (OptionId id, char *buf, size_t size)
{
  const char *const *w = option_table[id].words;
  size_t n;
  int i;

  if (id == OPT_MISSING) {
    snprintf (buf, size, "missing is none, all, or up to %d routes (%llu to "
        "%llu) joined by '+'", SIMA_EMU_MAX_MISSING,
        (unsigned long long) option_table[id].min,
        (unsigned long long) option_table[id].max);
    return;
  }
  if (w == NULL) {
    snprintf (buf, size, "%s is %llu to %llu", option_table[id].name,
        (unsigned long long) option_table[id].min,
        (unsigned long long) option_table[id].max);
    return;
  }
  n = (size_t) snprintf (buf, size, "%s is", option_table[id].name);
  for (i = 0; w[i] != NULL && n < size; i++)
    n += (size_t) snprintf (buf + n, size - n, "%s%s", i == 0 ? " "
        : w[i + 1] == NULL ? " or " : ", ", w[i]);
}

/* missing=none|all|ROUTE[+ROUTE...]: replaces the set of absent routes. */
static int
parse_missing (SimaEmuConfig *c, const char *v, size_t vlen)
{
  SimaEmuConfig t = *c;
  uint64_t n;

  t.missing_all = 0;
  t.n_missing = 0;
  if (!is (v, vlen, "none") && !is (v, vlen, "all")) {
    for (;;) {
      const char *plus = memchr (v, '+', vlen);
      size_t l = plus ? (size_t) (plus - v) : vlen;
      if (t.n_missing == SIMA_EMU_MAX_MISSING
          || !parse_uint (v, l, option_table[OPT_MISSING].min,
              option_table[OPT_MISSING].max, &n))
        return 0;
      t.missing[t.n_missing++] = (uint16_t) n;
      if (plus == NULL)
        break;
      v = plus + 1;
      vlen -= l + 1;
    }
  } else {
    t.missing_all = is (v, vlen, "all");
  }
  *c = t;
  return 1;
}

static int
parse_value (SimaEmuConfig *c, OptionId id, const char *v, size_t vlen)
{
  uint64_t n = 0;
  int w = 0;

  if (id == OPT_MISSING)
    return parse_missing (c, v, vlen);
  if (option_table[id].words != NULL) {
    if ((w = word_index (option_table[id].words, v, vlen)) < 0)
      return 0;
  } else if (!parse_uint (v, vlen, option_table[id].min, option_table[id].max,
          &n)) {
    return 0;
  }
  switch (id) {
    case OPT_WORKERS:
      c->workers = (uint32_t) n;
      break;
    case OPT_LOCAL_KIB:
      c->local_bytes = (uint32_t) n * 1024;
      break;
    case OPT_DMA:
      c->dma = w == 1 ? SIMA_HOST_DMA_DEFERRED : SIMA_HOST_DMA_IMMEDIATE;
      break;
    case OPT_FAULT:
      c->fault = (SimaEmuFault) w;      /* fault_words is in enum order */
      break;
    case OPT_FAULT_AFTER_JOBS:
      c->fault_after_jobs = n;
      break;
    case OPT_FAULT_AFTER_COMMANDS:
      c->fault_after_commands = (int64_t) n;
      break;
    case OPT_HANG_MS:
      c->hang_ms = (uint32_t) n;
      break;
    default:
      return 0;
  }
  return 1;
}

SimaStatus
sima_emu_parse_options (SimaEmuConfig *c, const char *options, int at_open)
{
  const char *p = options;
  unsigned seen = 0;

  if (at_open) {
    memset (c, 0, sizeof *c);
    c->workers = 2;
    c->local_bytes = 64 * 1024;
    c->dma = SIMA_HOST_DMA_IMMEDIATE;
    c->fault_after_commands = -1;
    c->hang_ms = 1000;
  }
  while (*p != '\0') {
    const char *end = strchr (p, ','), *eq;
    size_t len = end ? (size_t) (end - p) : strlen (p), klen, vlen;
    int quoted = len > QUOTE_MAX ? QUOTE_MAX : (int) len;
    char valid[112], known[112];
    int id;

    eq = memchr (p, '=', len);
    klen = eq ? (size_t) (eq - p) : len;
    vlen = eq ? len - klen - 1 : 0;
    for (id = 0; id < OPT_COUNT; id++)
      if (is (p, klen, option_table[id].name))
        break;
    if (id == OPT_COUNT) {
      size_t n = 0;
      for (id = 0; id < OPT_COUNT && n < sizeof known; id++)
        n += (size_t) snprintf (known + n, sizeof known - n, "%s%s",
            id == 0 ? "" : ", ", option_table[id].name);
      return sima_status_make (SIMA_INVALID_ARGUMENT,
          "EV74 emulator option '%.*s' is unknown; options: %s",
          quoted > 24 ? 24 : quoted, p, known);
    }
    if (seen & (1u << id))
      return sima_status_make (SIMA_INVALID_ARGUMENT,
          "EV74 emulator option '%s' is given twice", option_table[id].name);
    seen |= 1u << id;
    if (!at_open && option_table[id].fixed_at_open)
      return sima_status_make (SIMA_INVALID_ARGUMENT,
          "EV74 emulator option '%.*s' cannot be changed: %s is fixed at "
          "open", quoted, p, option_table[id].name);
    if (eq == NULL || !parse_value (c, (OptionId) id, eq + 1, vlen)) {
      describe_option ((OptionId) id, valid, sizeof valid);
      return sima_status_make (SIMA_INVALID_ARGUMENT,
          "EV74 emulator option '%.*s' is not valid: %s", quoted, p, valid);
    }
    p += len + (end != NULL);
  }
  return sima_status_ok ();
}

/* ---- regions and the aperture --------------------------------------------- */

SimaStatus
sima_ev74_region_import (SimaEv74Device *dev, int fd, uint64_t length,
    SimaEv74Region **out)
{
  SimaEv74Region *r, **link;
  uint64_t bytes, at = APERTURE_BASE;
  void *map;

  if (dev == NULL || out == NULL || fd < 0 || length == 0)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "EV74 import: fd %d with %llu bytes cannot be imported", fd,
        (unsigned long long) length);
  *out = NULL;
  bytes = (length + PAGE - 1) & ~(PAGE - 1);
  if (length > APERTURE_END - APERTURE_BASE)
    return sima_status_make (SIMA_NOT_REPRESENTABLE,
        "EV74 import: %llu bytes do not fit the 2 GiB bus aperture",
        (unsigned long long) length);
  map = mmap (NULL, (size_t) length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED)
    return sima_status_make (SIMA_IMPORT_FAILED,
        "EV74 import: cannot map fd %d (%llu bytes): %s", fd,
        (unsigned long long) length, strerror (errno));
  r = calloc (1, sizeof *r);
  if (r == NULL) {
    munmap (map, (size_t) length);
    return sima_status_make (SIMA_OUT_OF_RESOURCES, "EV74 import: no memory");
  }
  pthread_mutex_lock (&dev->lock);
  /* first fit in the sorted list; the aperture ends at 4 GiB, so no region
   * ever straddles it */
  for (link = &dev->regions; *link != NULL; link = &(*link)->next) {
    if ((*link)->bus - at >= bytes)
      break;
    at = (*link)->bus + (*link)->aperture_bytes;
  }
  if (APERTURE_END - at < bytes) {
    pthread_mutex_unlock (&dev->lock);
    munmap (map, (size_t) length);
    free (r);
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "EV74 import: no room for %llu bytes in the bus aperture",
        (unsigned long long) length);
  }
  r->dev = dev;
  r->refs = 1;
  r->map = map;
  r->length = length;
  r->bus = at;
  r->aperture_bytes = bytes;
  r->next = *link;
  *link = r;
  pthread_mutex_unlock (&dev->lock);
  sima_ev74_device_ref (dev);     /* regions keep their device */
  *out = r;
  return sima_status_ok ();
}

SimaEv74Region *
sima_ev74_region_ref (SimaEv74Region *r)
{
  pthread_mutex_lock (&r->dev->lock);
  r->refs++;
  pthread_mutex_unlock (&r->dev->lock);
  return r;
}

void
sima_ev74_region_unref (SimaEv74Region *r)
{
  SimaEv74Device *dev;
  SimaEv74Region **link;
  int last;

  if (r == NULL)
    return;
  dev = r->dev;
  pthread_mutex_lock (&dev->lock);
  last = --r->refs == 0;
  if (last)
    for (link = &dev->regions; *link != NULL; link = &(*link)->next)
      if (*link == r) {
        *link = r->next;
        break;
      }
  pthread_mutex_unlock (&dev->lock);
  if (!last)
    return;
  munmap (r->map, (size_t) r->length);
  free (r);
  sima_ev74_device_unref (dev);
}

uint64_t
sima_ev74_region_bus_address (const SimaEv74Region *r)
{
  return r->bus;
}

uint64_t
sima_ev74_region_length (const SimaEv74Region *r)
{
  return r->length;
}

/* ---- jobs ------------------------------------------------------------------ */

static void
job_unref (SimaEv74Job *job)
{
  int last;
  size_t i;

  pthread_mutex_lock (&job->lock);
  last = --job->refs == 0;
  pthread_mutex_unlock (&job->lock);
  if (!last)
    return;
  /* regions were released at retirement; a never-started job has none */
  for (i = 0; i < job->n_regions; i++)
    if (job->regions[i] != NULL)
      sima_ev74_region_unref (job->regions[i]);
  pthread_mutex_destroy (&job->lock);
  pthread_cond_destroy (&job->cond);
  free (job->regions);
  free (job->map);
  free (job->desc);
  free (job);
}

void
sima_ev74_job_unref (SimaEv74Job *job)
{
  if (job != NULL)
    job_unref (job);
}

/* Runs one part of a job on the calling worker thread. */
static void
run_part (SimaEv74Device *dev, SimaEv74Job *job, uint32_t part,
    uint8_t *local)
{
  const SimaEmuConfig *c = &job->config;
  SimaHostHal hal;

  if (job->faulty && c->fault == SIMA_EMU_FAULT_HANG && part == 0) {
    struct timespec until = deadline_after ((uint64_t) c->hang_ms
        * UINT64_C (1000000));
    pthread_mutex_lock (&dev->lock);
    while (!dev->shutdown
        && pthread_cond_timedwait (&dev->work, &dev->lock, &until) == 0) {
    }
    pthread_mutex_unlock (&dev->lock);
  }
  if (job->faulty && c->fault == SIMA_EMU_FAULT_WORKER_FAILURE
      && part == c->workers - 1) {
    job->part_status[part] = sima_status_make (SIMA_DEVICE_FAULT,
        "EV74 worker %u of %u stopped (injected worker failure)",
        (unsigned) part, (unsigned) c->workers);
    return;
  }
  sima_host_hal_init (&hal, part, c->workers, job->map, job->n_regions,
      c->dma, local, c->local_bytes);
  if (job->faulty && c->fault == SIMA_EMU_FAULT_DMA_ERROR)
    hal.fail_after = c->fault_after_commands >= 0 ? c->fault_after_commands
        : 0;
  job->part_status[part] = simafw_native_entry (&hal.hal, job->desc,
      job->desc_length);
  job->part_stats[part] = hal.stats;
  job->part_pending[part] = sima_host_hal_finish (&hal);
}

/* All parts have returned: publish the status and statistics, let go of the
 * regions, wake the waiters. */
static void
retire (SimaEv74Job *job)
{
  SimaEv74JobStats *s = &job->stats;
  SimaStatus status = sima_status_ok ();
  uint32_t i;

  memset (s, 0, sizeof *s);
  s->workers = job->config.workers;
  for (i = 0; i < job->config.workers; i++) {
    const SimaHostHalStats *p = &job->part_stats[i];
    if (sima_status_is_ok (&status) && !sima_status_is_ok (&job->part_status[i]))
      status = job->part_status[i];
    if (sima_status_is_ok (&status) && job->part_pending[i] > 0)
      status = sima_status_make (SIMA_DEVICE_FAULT,
          "EV74 worker %u returned with %zu DMA transfers pending",
          (unsigned) i, job->part_pending[i]);
    s->dma_commands += p->commands;
    s->dma_bytes_read += p->bytes_read;
    s->dma_bytes_written += p->bytes_written;
    s->local_peak = p->local_peak > s->local_peak ? p->local_peak
        : s->local_peak;
    s->write_lo[i] = p->write_lo;
    s->write_hi[i] = p->write_hi;
  }
  s->device_ns = sima_emu_now_ns () - job->submitted_ns;
  /* the device is done with the buffers: only now may they go */
  for (i = 0; i < job->n_regions; i++) {
    sima_ev74_region_unref (job->regions[i]);
    job->regions[i] = NULL;
  }
  pthread_mutex_lock (&job->lock);
  job->status = status;
  job->retired = 1;
  pthread_cond_broadcast (&job->cond);
  pthread_mutex_unlock (&job->lock);
  job_unref (job);              /* the device's reference */
}

static void
device_free (SimaEv74Device *dev)
{
  uint32_t i;

  for (i = 0; i < SIMA_EMU_MAX_WORKERS; i++)
    free (dev->local[i]);
  pthread_mutex_destroy (&dev->lock);
  pthread_cond_destroy (&dev->work);
  pthread_cond_destroy (&dev->idle);
  free (dev->spec);
  free (dev);
}

/* Stops the workers once the queue is empty and waits for them to leave.
 * Returns 0 when called on one of the device's own workers: then the last
 * worker to leave frees the device instead. */
static int
stop_workers (SimaEv74Device *dev)
{
  uint32_t i;

  pthread_mutex_lock (&dev->lock);
  dev->shutdown = 1;
  pthread_cond_broadcast (&dev->work);
  if (current_worker_device == dev) {
    /* a worker cannot join itself: the workers detach and the last one
     * to leave frees the device */
    dev->free_on_last_exit = 1;
    pthread_mutex_unlock (&dev->lock);
    return 0;
  }
  pthread_mutex_unlock (&dev->lock);
  for (i = 0; i < dev->n_threads; i++)
    pthread_join (dev->threads[i], NULL);
  dev->n_threads = 0;
  return 1;
}

static void *
worker_main (void *arg)
{
  SimaEv74Device *dev = arg;
  uint32_t self;
  int free_dev;

  current_worker_device = dev;
  pthread_mutex_lock (&dev->lock);
  self = dev->next_worker++;    /* live_workers was counted at creation */
  for (;;) {
    SimaEv74Job *job = dev->head;
    uint32_t part;
    if (job == NULL) {
      if (dev->shutdown)
        break;
      pthread_cond_wait (&dev->work, &dev->lock);
      continue;
    }
    part = job->parts_taken++;
    if (job->parts_taken == job->config.workers) {  /* all parts handed out */
      dev->head = job->next;
      if (dev->head == NULL)
        dev->tail = NULL;
    }
    pthread_mutex_unlock (&dev->lock);
    run_part (dev, job, part, dev->local[self]);
    pthread_mutex_lock (&dev->lock);
    if (++job->parts_done == job->config.workers) {
      pthread_mutex_unlock (&dev->lock);
      retire (job);             /* drops references: not under dev->lock */
      pthread_mutex_lock (&dev->lock);
    }
  }
  free_dev = --dev->live_workers == 0 && dev->free_on_last_exit;
  if (dev->free_on_last_exit)
    pthread_detach (pthread_self ());   /* nobody will join it */
  pthread_cond_broadcast (&dev->idle);
  pthread_mutex_unlock (&dev->lock);
  if (free_dev)
    device_free (dev);
  return NULL;
}

SimaStatus
sima_emu_start (SimaEv74Device *dev)
{
  uint32_t i;

  pthread_mutex_init (&dev->lock, NULL);
  if (cond_init (&dev->work) != 0) {
    pthread_mutex_destroy (&dev->lock);
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "EV74 emulator: cannot create a monotonic condition variable");
  }
  if (cond_init (&dev->idle) != 0) {
    pthread_cond_destroy (&dev->work);
    pthread_mutex_destroy (&dev->lock);
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "EV74 emulator: cannot create a monotonic condition variable");
  }
  for (i = 0; i < dev->config.workers; i++)
    if ((dev->local[i] = aligned_alloc (64, dev->config.local_bytes)) == NULL)
      goto fail;
  pthread_mutex_lock (&dev->lock);
  for (i = 0; i < dev->config.workers; i++) {
    pthread_t t;
    if (pthread_create (&t, NULL, worker_main, dev) != 0)
      break;
    dev->threads[dev->n_threads++] = t;
    dev->live_workers++;        /* counted here, so stop always waits */
  }
  pthread_mutex_unlock (&dev->lock);
  if (i == dev->config.workers)
    return sima_status_ok ();
fail:
  stop_workers (dev);
  for (i = 0; i < SIMA_EMU_MAX_WORKERS; i++) {
    free (dev->local[i]);
    dev->local[i] = NULL;
  }
  pthread_mutex_destroy (&dev->lock);
  pthread_cond_destroy (&dev->work);
  pthread_cond_destroy (&dev->idle);
  return sima_status_make (SIMA_OUT_OF_RESOURCES,
      "EV74 emulator: cannot start %u workers", (unsigned) dev->config.workers);
}

void
sima_emu_stop (SimaEv74Device *dev)
{
  if (stop_workers (dev))
    device_free (dev);
}

SimaStatus
sima_ev74_submit (SimaEv74Device *dev, const SimaEv74Descriptor *desc,
    SimaEv74Region *const *regions, size_t n_regions, SimaEv74Job **out)
{
  SimaEv74Job *job;
  uint16_t route, member_routes[SIMA_EV74_TENSOR_SET_MAX_MEMBERS];
  size_t i, n_members = 0;
  int offered, missing_member = -1;

  if (dev == NULL || desc == NULL || out == NULL
      || (n_regions > 0 && regions == NULL)
      || desc->length > SIMA_EV74_DESCRIPTOR_MAX_BYTES)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "EV74 submit: invalid arguments");
  *out = NULL;
  for (i = 0; i < n_regions; i++)
    if (regions[i] == NULL || regions[i]->dev != dev)
      return sima_status_make (SIMA_INVALID_ARGUMENT,
          "EV74 submit: region %zu was not imported into device '%s'", i,
          dev->spec);
  route = sima_ev74_descriptor_route (desc);
  /* a set job runs its members' operations too: the device must offer
   * each of them as well as the container */
  if (route == SIMA_EV74_ROUTE_TENSOR_SET)
    n_members = sima_ev74_tensor_set_member_routes (desc->bytes,
        desc->length, member_routes);
  pthread_mutex_lock (&dev->lock);
  offered = sima_emu_has_capability (&dev->config, route, NULL);
  for (i = 0; i < n_members && offered && missing_member < 0; i++)
    if (!sima_emu_has_capability (&dev->config, member_routes[i], NULL))
      missing_member = (int) i;     /* the first member refused */
  pthread_mutex_unlock (&dev->lock);
  if (!offered)   /* fail closed even for callers that skipped the probe */
    return sima_status_make (SIMA_CAPABILITY_MISSING,
        "EV74 device '%s' has no capability for route %u", dev->spec,
        (unsigned) route);
  if (missing_member >= 0)
    return sima_status_make (SIMA_CAPABILITY_MISSING,
        "EV74 device '%s' has no capability for route %u (member %d of a "
        "tensor set)", dev->spec, (unsigned) member_routes[missing_member],
        missing_member);

  job = calloc (1, sizeof *job);
  if (job == NULL
      || (job->desc = malloc (desc->length > 0 ? desc->length : 1)) == NULL
      || (n_regions > 0
          && ((job->regions = calloc (n_regions, sizeof *job->regions)) == NULL
              || (job->map = calloc (n_regions, sizeof *job->map)) == NULL))) {
    if (job != NULL) {
      free (job->regions);
      free (job->desc);
      free (job);
    }
    return sima_status_make (SIMA_OUT_OF_RESOURCES, "EV74 submit: no memory");
  }
  if (cond_init (&job->cond) != 0) {
    free (job->map);
    free (job->regions);
    free (job->desc);
    free (job);
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "EV74 submit: cannot create a monotonic condition variable");
  }
  pthread_mutex_init (&job->lock, NULL);
  job->refs = 2;                /* caller and device */
  memcpy (job->desc, desc->bytes, desc->length);
  job->desc_length = desc->length;
  job->n_regions = n_regions;
  for (i = 0; i < n_regions; i++) {
    job->regions[i] = sima_ev74_region_ref (regions[i]);
    job->map[i] = (SimaHostRegion) { (uint32_t) regions[i]->bus,
      regions[i]->length, regions[i]->map };
  }
  job->submitted_ns = sima_emu_now_ns ();
  pthread_mutex_lock (&dev->lock);
  job->config = dev->config;
  job->faulty = job->config.fault != SIMA_EMU_FAULT_NONE
      && dev->jobs_submitted >= job->config.fault_after_jobs;
  dev->jobs_submitted++;
  if (dev->tail != NULL)
    dev->tail->next = job;
  else
    dev->head = job;
  dev->tail = job;
  pthread_cond_broadcast (&dev->work);
  pthread_mutex_unlock (&dev->lock);
  *out = job;
  return sima_status_ok ();
}

SimaStatus
sima_ev74_job_wait (SimaEv74Job *job, int64_t timeout_ns)
{
  SimaStatus st;
  struct timespec until;

  if (job == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT, "EV74 wait: job is NULL");
  if (timeout_ns >= 0)
    until = deadline_after ((uint64_t) timeout_ns);
  pthread_mutex_lock (&job->lock);
  while (!job->retired) {
    if (timeout_ns < 0) {
      pthread_cond_wait (&job->cond, &job->lock);
    } else if (pthread_cond_timedwait (&job->cond, &job->lock, &until)
        == ETIMEDOUT) {
      break;
    }
  }
  st = job->retired ? job->status : sima_status_make (SIMA_TIMEOUT,
      "EV74 job did not retire within %lld ms; its buffers stay held until "
      "it does", (long long) (timeout_ns / 1000000));
  pthread_mutex_unlock (&job->lock);
  return st;
}

int
sima_ev74_job_retired (SimaEv74Job *job)
{
  int retired;
  pthread_mutex_lock (&job->lock);
  retired = job->retired;
  pthread_mutex_unlock (&job->lock);
  return retired;
}

void
sima_ev74_job_stats (SimaEv74Job *job, SimaEv74JobStats *out)
{
  pthread_mutex_lock (&job->lock);
  if (job->retired)
    *out = job->stats;
  else
    memset (out, 0, sizeof *out);
  pthread_mutex_unlock (&job->lock);
}

SimaStatus
sima_ev74_run (SimaEv74Device *dev, const SimaEv74Descriptor *desc,
    SimaEv74Region *const *regions, size_t n_regions, int64_t timeout_ns,
    SimaEv74JobStats *stats)
{
  SimaEv74Job *job;
  SimaStatus st = sima_ev74_submit (dev, desc, regions, n_regions, &job);

  if (!sima_status_is_ok (&st))
    return st;
  st = sima_ev74_job_wait (job, timeout_ns);
  if (stats != NULL)
    sima_ev74_job_stats (job, stats);
  sima_ev74_job_unref (job);
  return st;
}
