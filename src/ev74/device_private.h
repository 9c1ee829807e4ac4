/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * device_private.h - the EV74 emulator's objects (private to src/ev74).
 *
 * Locking: dev->lock guards the job queue, the aperture list, the
 * configuration and the worker bookkeeping; each job has its own lock for
 * waiters, so waiting on a job never needs the device. Region and job
 * references are dropped outside dev->lock.
 */
#ifndef SIMA_EV74_DEVICE_PRIVATE_H
#define SIMA_EV74_DEVICE_PRIVATE_H

#include <simaai/kernels/ev74/device.h>

#include <pthread.h>

#include "../../firmware/hal/host/host_hal.h"

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

struct SimaEv74Region {
  SimaEv74Device *dev;
  int refs;                       /* under dev->lock */
  uint8_t *map;
  uint64_t length;
  uint64_t bus;
  uint64_t aperture_bytes;        /* length rounded up to pages */
  SimaEv74Region *next;           /* aperture list, by bus address */
};

struct SimaEv74Job {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int refs;                       /* caller + device, under job->lock */
  int retired;
  SimaStatus status;
  /* a copy of exactly the submitted bytes: a SimaEv74Descriptor is 20 KiB
   * since containers exist, most jobs use 232, and an exact-size copy lets
   * ASan see a firmware read past the descriptor */
  uint8_t *desc;
  uint32_t desc_length;
  SimaEv74Region **regions;
  SimaHostRegion *map;
  size_t n_regions;
  SimaEmuConfig config;           /* snapshot at submit */
  int faulty;                     /* the configured fault applies */
  uint32_t parts_taken, parts_done;
  SimaStatus part_status[SIMA_EMU_MAX_WORKERS];
  SimaHostHalStats part_stats[SIMA_EMU_MAX_WORKERS];
  size_t part_pending[SIMA_EMU_MAX_WORKERS];
  uint64_t submitted_ns;
  SimaEv74JobStats stats;
  SimaEv74Job *next;              /* device queue */
};

struct SimaEv74Device {
  char *spec;
  int refs;                       /* under the registry lock */
  SimaEv74Device *next;           /* registry */
  pthread_mutex_t lock;
  pthread_cond_t work;            /* queue changes, shutdown */
  pthread_cond_t idle;            /* a worker exited */
  SimaEmuConfig config;
  uint32_t live_workers;         /* threads started and not yet gone */
  /* joined by stop_workers, so no worker thread is still tearing down when
   * the device (or the process) goes: LeakSanitizer's stop-the-world scan
   * crashes on threads caught mid-exit */
  pthread_t threads[SIMA_EMU_MAX_WORKERS];
  uint32_t n_threads;
  uint32_t next_worker;           /* index of the next worker to start */
  int shutdown;
  int free_on_last_exit;          /* destroyed from a worker thread */
  SimaEv74Job *head, *tail;
  uint64_t jobs_submitted;
  SimaEv74Region *regions;
  uint8_t *local[SIMA_EMU_MAX_WORKERS];
};

/* emulator.c */
SimaStatus sima_emu_parse_options (SimaEmuConfig *config, const char *options,
    int at_open);
/* On failure nothing is left running and dev itself is not freed. */
SimaStatus sima_emu_start (SimaEv74Device *dev);
/* Stops and frees dev (or has its last worker free it, see above). */
void sima_emu_stop (SimaEv74Device *dev);
int sima_emu_has_capability (const SimaEmuConfig *config, uint16_t route,
    const char *name);
uint64_t sima_emu_now_ns (void);

#endif /* SIMA_EV74_DEVICE_PRIVATE_H */
