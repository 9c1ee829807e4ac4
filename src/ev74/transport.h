/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * transport.h - the seam between the EV74 device layer (device.c) and a
 * transport that reaches a device (private to src/ev74; docs/ev74.md,
 * "Transports").
 *
 * device.c owns everything with a lifetime a caller can see: the registry
 * (one refcounted device per spec per process), region and job references,
 * the job's copy of its descriptor, waiters and timeouts. A transport only
 * moves bytes to and from a device: it opens a channel, reports the
 * capabilities the device registers, maps buffers into the device's bus,
 * queues bound descriptors and reports each job's retirement exactly once.
 * A transport never calls device.c's public API (device.h); the only call
 * from a transport into the device layer is the `retired` notification
 * handed to submit.
 *
 * Guarantees a transport gives (the device layer relies on them):
 *  - retired() is called exactly once per accepted job, from any thread,
 *    never from inside submit(), and only after the device can no longer
 *    touch the job's descriptor or regions (confirmed retirement, e.g. the
 *    mailbox reply or an IOMMU unmap fence on hardware);
 *  - bus addresses and region ends are < 2^32 (SIMA_EV74_APERTURE_LIMIT);
 *  - every op may be called from any thread concurrently with any other op
 *    on the same context (the device layer holds none of its own locks
 *    across an op, so a transport may call retired() from its own threads
 *    while an op runs);
 *  - cancel() is best effort and never frees anything: a job it removes
 *    before the device saw it still retires through retired() (with
 *    SIMA_DEVICE_FAULT naming the cancel), and a job already running
 *    retires normally;
 *  - close() is called once, when no region is left (regions hold their
 *    device), possibly from inside retired() on one of the transport's own
 *    threads; it drains jobs without regions that are still in flight
 *    (retiring each) before the context goes.
 * Guarantees the device layer gives a transport:
 *  - the descriptor bytes and the region list passed to submit() stay
 *    valid and unchanged until retired() returns;
 *  - a region is released only when no job that was given it is still
 *    unretired, and each region handle is released exactly once.
 */
#ifndef SIMA_EV74_TRANSPORT_H
#define SIMA_EV74_TRANSPORT_H

#include <simaai/kernels/ev74/device.h>

#include <stddef.h>
#include <stdint.h>

/* A region as a job sees it: the transport's handle and where it is on the
 * device's bus. */
typedef struct {
  void *handle;                 /* from import */
  uint64_t bus;
  uint64_t length;
} SimaEv74TransportRegion;

/* Confirmed retirement of the job submitted with `cookie`: its final
 * status and statistics (the transport's stack; copy them). */
typedef void (*SimaEv74RetiredFn) (void *cookie, const SimaStatus *status,
    const SimaEv74JobStats *stats);

typedef struct {
  const char *name;             /* "emulator": messages and docs */
  /* `options`: what follows "<prefix>:" in the spec ("" when none). On
   * failure nothing is left open. */
  SimaStatus (*open) (const char *options, void **ctx);
  /* Whether the device registers capability `name` (any name when NULL)
   * at `route`. */
  int (*has_capability) (void *ctx, uint16_t route, const char *name);
  /* Maps `length` bytes of `fd` into the bus; the fd may be closed once
   * this returns. */
  SimaStatus (*import) (void *ctx, int fd, uint64_t length, void **region,
      uint64_t *bus);
  void (*release) (void *ctx, void *region);
  /* Queues a bound descriptor touching only `regions`. On success the job
   * is the transport's until retired(cookie, ...); *job is an id for
   * cancel, never reused by this context. */
  SimaStatus (*submit) (void *ctx, const uint8_t *desc, uint32_t length,
      const SimaEv74TransportRegion *regions, size_t n_regions,
      SimaEv74RetiredFn retired, void *cookie, uint64_t *job);
  /* Best effort, see above; may be NULL (nothing can be cancelled). */
  void (*cancel) (void *ctx, uint64_t job);
  /* Options changed on an open device (tests: fault injection); NULL when
   * the transport has none. On an error nothing changes. */
  SimaStatus (*configure) (void *ctx, const char *options);
  void (*close) (void *ctx);
} SimaEv74TransportOps;

/* The transports this build has (emulator/emulator.c). */
extern const SimaEv74TransportOps sima_ev74_emulator_transport;

#endif /* SIMA_EV74_TRANSPORT_H */
