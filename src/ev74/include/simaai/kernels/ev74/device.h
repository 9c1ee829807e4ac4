/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/ev74/device.h - the EV74 device: open, capabilities,
 * region import, asynchronous jobs. pthreads, no GLib.
 *
 * Devices are opened from a spec string and shared: opening the same spec
 * twice in a process returns the same refcounted device, so every element of
 * every pipeline submits to one queue. Specs:
 *   "emulator[:option,option...]"  the in-process emulator (docs/ev74.md):
 *       workers=N (1-4, default 2), dma=immediate|deferred, local-kib=K
 *       (1-1024, default 64), missing=none|all|ROUTE[+ROUTE...] (up to 8
 *       capabilities absent), fault=none|dma-error|hang|worker-failure,
 *       fault-after-jobs=J, fault-after-commands=C, hang-ms=M (0-600000,
 *       default 1000). Each option at most once. Tests change them on an
 *       open device with sima_ev74_device_configure (not installed:
 *       src/ev74/testing/ev74_testing.h).
 *   anything else                   a platform device path (no platform
 *       transport is built yet: opening it reports device-unavailable).
 *
 * Open fails with SIMA_INVALID_ARGUMENT for a malformed spec (an unknown,
 * repeated or out-of-range option; the message names the option and what
 * is valid), SIMA_DEVICE_UNAVAILABLE for a device that is not there, and
 * SIMA_OUT_OF_RESOURCES when the emulator cannot start. A missing
 * capability is sima_ev74_device_require's SIMA_CAPABILITY_MISSING.
 *
 * Lifetime: a job holds its descriptor and a reference on every region it
 * was given until the device confirms retirement, whatever the caller does;
 * a wait that times out reports SIMA_TIMEOUT and frees nothing.
 */
#ifndef SIMAAI_KERNELS_EV74_DEVICE_H
#define SIMAAI_KERNELS_EV74_DEVICE_H

#include <simaai/kernels/ev74/descriptor.h>

#include <stddef.h>
#include <stdint.h>

#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

typedef struct SimaEv74Device SimaEv74Device;
typedef struct SimaEv74Region SimaEv74Region;
typedef struct SimaEv74Job SimaEv74Job;

/* The platform device path used when neither a spec nor SIMA_EV74_DEVICE is
 * given. */
#define SIMA_EV74_PLATFORM_DEVICE "/dev/simaai-ev74"

/* spec, or $SIMA_EV74_DEVICE when spec is NULL or empty, or the platform
 * device. */
const char *sima_ev74_resolve_spec (const char *spec);

SimaStatus sima_ev74_device_open (const char *spec, SimaEv74Device **out);
SimaEv74Device *sima_ev74_device_ref (SimaEv74Device *dev);
void sima_ev74_device_unref (SimaEv74Device *dev);
const char *sima_ev74_device_spec (const SimaEv74Device *dev);

/* OK when the device registers capability `name` at `route`; otherwise
 * SIMA_CAPABILITY_MISSING naming both. Callers must fail closed. */
SimaStatus sima_ev74_device_require (SimaEv74Device *dev, uint16_t route,
    const char *name);

/* Maps `length` bytes of a DMA-BUF (or any mmap-able) fd into the device's
 * bus aperture. The fd may be closed afterwards. */
SimaStatus sima_ev74_region_import (SimaEv74Device *dev, int fd,
    uint64_t length, SimaEv74Region **out);
SimaEv74Region *sima_ev74_region_ref (SimaEv74Region *region);
/* Drops a reference; the mapping goes when jobs no longer hold it. */
void sima_ev74_region_unref (SimaEv74Region *region);
uint64_t sima_ev74_region_bus_address (const SimaEv74Region *region);
uint64_t sima_ev74_region_length (const SimaEv74Region *region);

/* Submits a bound descriptor that only touches `regions`; the job takes a
 * copy of the descriptor and a reference on each region. */
SimaStatus sima_ev74_submit (SimaEv74Device *dev,
    const SimaEv74Descriptor *desc, SimaEv74Region *const *regions,
    size_t n_regions, SimaEv74Job **out);

/* Waits up to timeout_ns (negative: forever). SIMA_TIMEOUT while the job is
 * still running; once retired, the job's own status. */
SimaStatus sima_ev74_job_wait (SimaEv74Job *job, int64_t timeout_ns);
int sima_ev74_job_retired (SimaEv74Job *job);

/* The counters and the estimate follow the device model of the firmware
 * (firmware/hal/device_model.h, docs/ev74.md "Device model"). */
typedef struct {
  uint64_t device_ns;       /* submit to confirmed retirement */
  uint64_t dma_commands;
  uint64_t dma_bytes_read;
  uint64_t dma_bytes_written;   /* DMA and scalar stores */
  uint64_t dma_small_rows;      /* rows below the efficient transfer size */
  uint64_t dma_unaligned_rows;  /* rows at an unaligned local/bus address */
  uint64_t dma_partial_writes;  /* DMA write rows with a partial granule */
  uint64_t scalar_stores;       /* exact 1/2/4-byte stores */
  uint64_t estimated_ns;        /* cost model: the slowest worker's time */
  uint32_t local_peak;      /* highest per-worker local memory use */
  uint32_t workers;
  uint64_t write_lo[4];     /* per worker: lowest bus byte written */
  uint64_t write_hi[4];     /* and one past the highest (lo > hi: none) */
} SimaEv74JobStats;

/* Statistics of a retired job (zeros before retirement). */
void sima_ev74_job_stats (SimaEv74Job *job, SimaEv74JobStats *out);

/* Drops the caller's reference. Safe before retirement: the device keeps
 * the job (and its regions) until it retires. */
void sima_ev74_job_unref (SimaEv74Job *job);

/* Submit and wait: the same job, for callers with nothing else to do. */
SimaStatus sima_ev74_run (SimaEv74Device *dev, const SimaEv74Descriptor *desc,
    SimaEv74Region *const *regions, size_t n_regions, int64_t timeout_ns,
    SimaEv74JobStats *stats);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_EV74_DEVICE_H */
