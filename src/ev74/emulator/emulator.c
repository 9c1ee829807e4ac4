/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The EV74 emulator transport (transport.h): a 32-bit bus aperture from
 * 0x8000_0000 into which regions are mapped, a job queue, and 1-4 worker
 * threads that run the firmware's native entry (firmware/) through the host
 * HAL (firmware/hal/host). A job is cut into one part per worker; it
 * retires when every part has returned, and only then is the device layer
 * told (its `retired` notification), which lets go of the regions. Faults
 * can be injected through the spec string or the configure op
 * (sima_ev74_device_configure, src/ev74/testing/ev74_testing.h).
 *
 * This file sees the device layer only through transport.h: it never calls
 * device.h's functions.
 *
 * Locking: emu->lock guards the job queue, the aperture list, the
 * configuration and the worker bookkeeping. The retired notification is
 * made with no lock held.
 */
#define _GNU_SOURCE
#include "../transport.h"

#include <errno.h>
#include <fenv.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <simaai/kernels/ev74/wire.h>

#include "../../../firmware/hal/device_model.h"
#include "../../../firmware/hal/host/host_hal.h"
#include "../../../firmware/native_entry.h"
#include "../monotonic.h"

/* The emulator maps regions into the upper half of the 32-bit bus that
 * descriptors can address (wire.h's limit): a 2 GiB aperture. */
#define APERTURE_END SIMA_EV74_APERTURE_LIMIT
#define APERTURE_BASE (APERTURE_END / 2)
#define PAGE UINT64_C (4096)

enum { SIMA_EMU_MAX_WORKERS = 4, SIMA_EMU_MAX_MISSING = 8 };

typedef enum {
  SIMA_EMU_FAULT_NONE,
  SIMA_EMU_FAULT_DMA_ERROR,       /* a transfer of every worker fails */
  SIMA_EMU_FAULT_HANG,            /* the job stalls for hang_ms first */
  SIMA_EMU_FAULT_WORKER_FAILURE,  /* the last worker dies without running */
} SimaEmuFault;

typedef struct {
  uint32_t workers;               /* fixed at open */
  uint32_t local_bytes;           /* per worker, fixed at open */
  SimaHostDmaModel dma;
  int missing_all;
  uint16_t missing[SIMA_EMU_MAX_MISSING];
  unsigned n_missing;
  SimaEmuFault fault;
  uint64_t fault_after_jobs;      /* jobs before the fault starts */
  int64_t fault_after_commands;   /* DMA error at this command of a job */
  uint32_t hang_ms;
} SimaEmuConfig;

typedef struct EmuRegion EmuRegion;
struct EmuRegion {
  uint8_t *map;
  uint64_t length;
  uint64_t bus;
  uint64_t aperture_bytes;        /* length rounded up to pages */
  EmuRegion *next;                /* aperture list, by bus address */
};

typedef struct EmuJob EmuJob;
struct EmuJob {
  uint64_t id;
  const uint8_t *desc;            /* the device layer's copy */
  uint32_t desc_length;
  SimaHostRegion *map;
  size_t n_regions;
  SimaEmuConfig config;           /* snapshot at submit */
  int faulty;                     /* the configured fault applies */
  uint32_t parts_taken, parts_done;
  SimaStatus part_status[SIMA_EMU_MAX_WORKERS];
  SimaHostHalStats part_stats[SIMA_EMU_MAX_WORKERS];
  size_t part_pending[SIMA_EMU_MAX_WORKERS];
  uint64_t submitted_ns;
  SimaEv74RetiredFn retired;
  void *cookie;
  EmuJob *next;                   /* queue */
};

typedef struct {
  pthread_mutex_t lock;
  pthread_cond_t work;            /* queue changes, shutdown */
  pthread_cond_t idle;            /* a worker exited */
  SimaEmuConfig config;
  uint32_t live_workers;          /* threads started and not yet gone */
  /* joined by stop_workers, so no worker thread is still tearing down when
   * the device (or the process) goes: LeakSanitizer's stop-the-world scan
   * crashes on threads caught mid-exit */
  pthread_t threads[SIMA_EMU_MAX_WORKERS];
  uint32_t n_threads;
  uint32_t next_worker;           /* index of the next worker to start */
  int shutdown;
  int free_on_last_exit;          /* closed from a worker thread */
  EmuJob *head, *tail;
  uint64_t jobs_submitted;
  uint64_t next_id;
  EmuRegion *regions;
  uint8_t *local[SIMA_EMU_MAX_WORKERS];
} Emu;

/* The emulator a worker thread serves, so that closing it from inside a
 * job's retirement does not wait for the calling thread. */
static __thread Emu *current_worker_emu;

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

static SimaStatus
parse_options (SimaEmuConfig *c, const char *options, int at_open)
{
  const char *p = options;
  unsigned seen = 0;

  if (at_open) {
    memset (c, 0, sizeof *c);
    c->workers = 2;
    c->local_bytes = SIMA_EV74_LOCAL_BYTES;   /* the stack check's budget */
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


/* ---- capabilities ----------------------------------------------------------- */

static int
config_has_capability (const SimaEmuConfig *config, uint16_t route,
    const char *name)
{
  unsigned i;

  if (config->missing_all)
    return 0;
  for (i = 0; i < config->n_missing; i++)
    if (config->missing[i] == route)
      return 0;
  /* the emulator offers exactly what the firmware image registers */
  for (i = 0; i < simafw_capability_count; i++)
    if (simafw_capabilities[i].route == route
        && (name == NULL || strcmp (simafw_capabilities[i].name, name) == 0))
      return 1;
  return 0;
}

static int
emu_has_capability (void *ctx, uint16_t route, const char *name)
{
  Emu *emu = ctx;
  int present;

  pthread_mutex_lock (&emu->lock);
  present = config_has_capability (&emu->config, route, name);
  pthread_mutex_unlock (&emu->lock);
  return present;
}

static SimaStatus
emu_configure (void *ctx, const char *options)
{
  Emu *emu = ctx;
  SimaEmuConfig config;
  SimaStatus st;

  pthread_mutex_lock (&emu->lock);
  config = emu->config;
  st = parse_options (&config, options, 0);
  if (sima_status_is_ok (&st))
    emu->config = config;
  pthread_mutex_unlock (&emu->lock);
  return st;
}

/* ---- regions and the aperture --------------------------------------------- */

static SimaStatus
emu_import (void *ctx, int fd, uint64_t length, void **out, uint64_t *bus)
{
  Emu *emu = ctx;
  EmuRegion *r, **link;
  uint64_t bytes, at = APERTURE_BASE;
  void *map;

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
  pthread_mutex_lock (&emu->lock);
  /* first fit in the sorted list; the aperture ends at 4 GiB, so no region
   * ever straddles it */
  for (link = &emu->regions; *link != NULL; link = &(*link)->next) {
    if ((*link)->bus - at >= bytes)
      break;
    at = (*link)->bus + (*link)->aperture_bytes;
  }
  if (APERTURE_END - at < bytes) {
    pthread_mutex_unlock (&emu->lock);
    munmap (map, (size_t) length);
    free (r);
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "EV74 import: no room for %llu bytes in the bus aperture",
        (unsigned long long) length);
  }
  r->map = map;
  r->length = length;
  r->bus = at;
  r->aperture_bytes = bytes;
  r->next = *link;
  *link = r;
  pthread_mutex_unlock (&emu->lock);
  *out = r;
  *bus = at;
  return sima_status_ok ();
}

static void
emu_release (void *ctx, void *region)
{
  Emu *emu = ctx;
  EmuRegion *r = region, **link;

  pthread_mutex_lock (&emu->lock);
  for (link = &emu->regions; *link != NULL; link = &(*link)->next)
    if (*link == r) {
      *link = r->next;
      break;
    }
  pthread_mutex_unlock (&emu->lock);
  munmap (r->map, (size_t) r->length);
  free (r);
}

/* ---- jobs ------------------------------------------------------------------ */

/* Runs one part of a job on the calling worker thread. */
static void
run_part (Emu *emu, EmuJob *job, uint32_t part, uint8_t *local)
{
  const SimaEmuConfig *c = &job->config;
  SimaHostHal hal;

  if (job->faulty && c->fault == SIMA_EMU_FAULT_HANG && part == 0) {
    struct timespec until = sima_ev74_deadline_after ((uint64_t) c->hang_ms
        * UINT64_C (1000000));
    pthread_mutex_lock (&emu->lock);
    while (!emu->shutdown
        && pthread_cond_timedwait (&emu->work, &emu->lock, &until) == 0) {
    }
    pthread_mutex_unlock (&emu->lock);
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
  if (hal.fault[0] != '\0')    /* the device model's words, not a bare
                                 * "transfer failed" */
    job->part_status[part] = sima_status_make (SIMA_DEVICE_FAULT, "%s",
        hal.fault);
  job->part_stats[part] = hal.stats;
  job->part_pending[part] = sima_host_hal_finish (&hal);
}

static void
job_free (EmuJob *job)
{
  if (job->map != NULL)
    sima_host_regions_untrack (job->map, job->n_regions);
  free (job->map);
  free (job);
}

/* All parts have returned: tell the device layer (which lets go of the
 * regions and wakes the waiters), then forget the job. No lock held: the
 * notification may close this emulator. */
static void
retire (EmuJob *job)
{
  SimaEv74JobStats s;
  SimaStatus status = sima_status_ok ();
  uint64_t cycles = 0;
  uint32_t i;

  memset (&s, 0, sizeof s);
  s.workers = job->config.workers;
  for (i = 0; i < job->config.workers; i++) {
    const SimaHostHalStats *p = &job->part_stats[i];
    if (sima_status_is_ok (&status) && !sima_status_is_ok (&job->part_status[i]))
      status = job->part_status[i];
    if (sima_status_is_ok (&status) && job->part_pending[i] > 0)
      status = sima_status_make (SIMA_DEVICE_FAULT,
          "EV74 worker %u returned with %zu DMA transfers pending",
          (unsigned) i, job->part_pending[i]);
    s.dma_commands += p->commands;
    s.dma_bytes_read += p->bytes_read;
    s.dma_bytes_written += p->bytes_written;
    s.dma_small_rows += p->small;
    s.dma_unaligned_rows += p->unaligned;
    s.dma_partial_writes += p->partial;
    s.scalar_stores += p->stores;
    if (p->cycles > cycles)
      cycles = p->cycles;
    s.local_peak = p->local_peak > s.local_peak ? p->local_peak
        : s.local_peak;
    s.write_lo[i] = p->write_lo;
    s.write_hi[i] = p->write_hi;
  }
  s.estimated_ns = cycles * 1000u / SIMA_EV74_CLOCK_MHZ;
  s.device_ns = sima_ev74_now_ns () - job->submitted_ns;
  job->retired (job->cookie, &status, &s);
  job_free (job);
}

static void
emu_free (Emu *emu)
{
  uint32_t i;

  for (i = 0; i < SIMA_EMU_MAX_WORKERS; i++)
    free (emu->local[i]);
  pthread_mutex_destroy (&emu->lock);
  pthread_cond_destroy (&emu->work);
  pthread_cond_destroy (&emu->idle);
  free (emu);
}

/* Stops the workers once the queue is empty and waits for them to leave.
 * Returns 0 when called on one of the emulator's own workers: then the
 * last worker to leave frees it instead. */
static int
stop_workers (Emu *emu)
{
  uint32_t i;

  pthread_mutex_lock (&emu->lock);
  emu->shutdown = 1;
  pthread_cond_broadcast (&emu->work);
  if (current_worker_emu == emu) {
    /* a worker cannot join itself: the workers detach and the last one
     * to leave frees the emulator */
    emu->free_on_last_exit = 1;
    pthread_mutex_unlock (&emu->lock);
    return 0;
  }
  pthread_mutex_unlock (&emu->lock);
  for (i = 0; i < emu->n_threads; i++)
    pthread_join (emu->threads[i], NULL);
  emu->n_threads = 0;
  return 1;
}

static void *
worker_main (void *arg)
{
  Emu *emu = arg;
  uint32_t self;
  int free_emu;

  /* A device worker computes in its own FP state, not in whatever the
   * thread that opened the device had set (a caller's fesetround or
   * FTZ/DAZ would otherwise leak in through pthread_create): the default
   * environment, round to nearest with gradual underflow. */
  fesetenv (FE_DFL_ENV);
  current_worker_emu = emu;
  pthread_mutex_lock (&emu->lock);
  self = emu->next_worker++;    /* live_workers was counted at creation */
  for (;;) {
    EmuJob *job = emu->head;
    uint32_t part;
    if (job == NULL) {
      if (emu->shutdown)
        break;
      pthread_cond_wait (&emu->work, &emu->lock);
      continue;
    }
    part = job->parts_taken++;
    if (job->parts_taken == job->config.workers) {  /* all parts handed out */
      emu->head = job->next;
      if (emu->head == NULL)
        emu->tail = NULL;
    }
    pthread_mutex_unlock (&emu->lock);
    run_part (emu, job, part, emu->local[self]);
    pthread_mutex_lock (&emu->lock);
    if (++job->parts_done == job->config.workers) {
      pthread_mutex_unlock (&emu->lock);
      retire (job);             /* not under emu->lock */
      pthread_mutex_lock (&emu->lock);
    }
  }
  free_emu = --emu->live_workers == 0 && emu->free_on_last_exit;
  if (emu->free_on_last_exit)
    pthread_detach (pthread_self ());   /* nobody will join it */
  pthread_cond_broadcast (&emu->idle);
  pthread_mutex_unlock (&emu->lock);
  if (free_emu)
    emu_free (emu);
  return NULL;
}

static SimaStatus
emu_open (const char *options, void **ctx)
{
  Emu *emu;
  SimaStatus st;
  uint32_t i;

  emu = calloc (1, sizeof *emu);
  if (emu == NULL)
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "EV74 emulator: out of memory");
  st = parse_options (&emu->config, options, 1);
  if (!sima_status_is_ok (&st)) {
    free (emu);
    return st;
  }
  pthread_mutex_init (&emu->lock, NULL);
  if (sima_ev74_cond_init (&emu->work) != 0) {
    pthread_mutex_destroy (&emu->lock);
    free (emu);
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "EV74 emulator: cannot create a monotonic condition variable");
  }
  if (sima_ev74_cond_init (&emu->idle) != 0) {
    pthread_cond_destroy (&emu->work);
    pthread_mutex_destroy (&emu->lock);
    free (emu);
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "EV74 emulator: cannot create a monotonic condition variable");
  }
  for (i = 0; i < emu->config.workers; i++)
    if ((emu->local[i] = aligned_alloc (64, emu->config.local_bytes)) == NULL)
      goto fail;
  pthread_mutex_lock (&emu->lock);
  for (i = 0; i < emu->config.workers; i++) {
    pthread_t t;
    if (pthread_create (&t, NULL, worker_main, emu) != 0)
      break;
    emu->threads[emu->n_threads++] = t;
    emu->live_workers++;        /* counted here, so stop always waits */
  }
  pthread_mutex_unlock (&emu->lock);
  if (i == emu->config.workers) {
    *ctx = emu;
    return sima_status_ok ();
  }
fail:
  stop_workers (emu);
  st = sima_status_make (SIMA_OUT_OF_RESOURCES,
      "EV74 emulator: cannot start %u workers", (unsigned) emu->config.workers);
  emu_free (emu);
  return st;
}

static void
emu_close (void *ctx)
{
  Emu *emu = ctx;

  if (stop_workers (emu))
    emu_free (emu);
}

static SimaStatus
emu_submit (void *ctx, const uint8_t *desc, uint32_t length,
    const SimaEv74TransportRegion *regions, size_t n_regions,
    SimaEv74RetiredFn retired, void *cookie, uint64_t *id)
{
  Emu *emu = ctx;
  EmuJob *job;
  size_t i;

  job = calloc (1, sizeof *job);
  if (job == NULL || (n_regions > 0
          && (job->map = calloc (n_regions, sizeof *job->map)) == NULL)) {
    free (job);
    return sima_status_make (SIMA_OUT_OF_RESOURCES, "EV74 submit: no memory");
  }
  job->desc = desc;
  job->desc_length = length;
  job->n_regions = n_regions;
  for (i = 0; i < n_regions; i++) {
    const EmuRegion *r = regions[i].handle;
    job->map[i] = (SimaHostRegion) { (uint32_t) regions[i].bus,
      regions[i].length, r->map, NULL, NULL };
  }
  /* the device model's granule rules, shared by the job's workers */
  if (sima_host_regions_track (job->map, n_regions) != 0) {
    free (job->map);
    free (job);
    return sima_status_make (SIMA_OUT_OF_RESOURCES, "EV74 submit: no memory "
        "for the write-granule map");
  }
  job->retired = retired;
  job->cookie = cookie;
  job->submitted_ns = sima_ev74_now_ns ();
  pthread_mutex_lock (&emu->lock);
  job->id = ++emu->next_id;
  job->config = emu->config;
  job->faulty = job->config.fault != SIMA_EMU_FAULT_NONE
      && emu->jobs_submitted >= job->config.fault_after_jobs;
  emu->jobs_submitted++;
  if (emu->tail != NULL)
    emu->tail->next = job;
  else
    emu->head = job;
  emu->tail = job;
  *id = job->id;
  pthread_cond_broadcast (&emu->work);
  pthread_mutex_unlock (&emu->lock);
  return sima_status_ok ();
}

/* A job no worker has taken a part of leaves the queue and retires with a
 * device fault; anything else runs to its end. */
static void
emu_cancel (void *ctx, uint64_t id)
{
  Emu *emu = ctx;
  EmuJob *job, *prev = NULL;
  SimaEv74JobStats s;
  SimaStatus st;

  pthread_mutex_lock (&emu->lock);
  for (job = emu->head; job != NULL; prev = job, job = job->next)
    if (job->id == id)
      break;
  if (job == NULL || job->parts_taken > 0) {
    pthread_mutex_unlock (&emu->lock);
    return;
  }
  if (prev != NULL)
    prev->next = job->next;
  else
    emu->head = job->next;
  if (emu->tail == job)
    emu->tail = prev;
  pthread_mutex_unlock (&emu->lock);
  memset (&s, 0, sizeof s);
  s.workers = job->config.workers;
  s.device_ns = sima_ev74_now_ns () - job->submitted_ns;
  st = sima_status_make (SIMA_DEVICE_FAULT,
      "EV74 job cancelled before it started");
  job->retired (job->cookie, &st, &s);
  job_free (job);
}

const SimaEv74TransportOps sima_ev74_emulator_transport = {
  .name = "emulator",
  .open = emu_open,
  .has_capability = emu_has_capability,
  .import = emu_import,
  .release = emu_release,
  .submit = emu_submit,
  .cancel = emu_cancel,
  .configure = emu_configure,
  .close = emu_close,
};
