/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * host_hal.h - the firmware HAL on the host, used by the EV74 emulator.
 *
 * Bus addresses are translated through a table of the regions the job may
 * touch (an IOMMU with exactly the job's buffers mapped); a transfer that
 * leaves them is refused. Two DMA models:
 *  - immediate: a transfer lands when it is issued;
 *  - deferred: a transfer lands only when its tag is waited for, and its
 *    destination holds poison (0xDB) until then, so firmware that reads a
 *    slot before waiting, changes a source before its write landed, or
 *    returns with transfers pending produces wrong bytes or an error.
 * Both count commands and bytes and track the local-memory high-water mark
 * against a budget; a DMA error can be injected after a number of commands.
 */
#ifndef SIMA_FIRMWARE_HOST_HAL_H
#define SIMA_FIRMWARE_HOST_HAL_H

#include <stddef.h>
#include <stdint.h>

#include "../hal.h"

typedef struct {
  uint32_t bus;
  uint64_t length;
  uint8_t *host;
} SimaHostRegion;

typedef enum {
  SIMA_HOST_DMA_IMMEDIATE,
  SIMA_HOST_DMA_DEFERRED,
} SimaHostDmaModel;

typedef struct {
  uint64_t commands;        /* transfers issued (a 2D transfer is one) */
  uint64_t refused;         /* transfers refused (outside the regions) */
  uint64_t bytes_read;      /* bus -> local */
  uint64_t bytes_written;   /* local -> bus */
  uint32_t local_peak;      /* local memory high-water mark */
  uint64_t write_lo;        /* lowest bus byte written (UINT64_MAX if none) */
  uint64_t write_hi;        /* one past the highest bus byte written */
} SimaHostHalStats;

typedef struct SimaHostTransfer SimaHostTransfer;

typedef struct {
  SimaFwHal hal;            /* first member: the firmware sees only this */
  const SimaHostRegion *regions;
  size_t n_regions;
  SimaHostDmaModel model;
  uint8_t *local;           /* this worker's local memory */
  uint32_t local_size;
  uint32_t local_used;
  int64_t fail_after;       /* inject a DMA error at this command; -1 none */
  SimaHostTransfer *pending;  /* deferred transfers, not yet landed */
  size_t n_pending, cap_pending;
  int tag_failed[SIMA_FW_DMA_TAGS];
  SimaHostHalStats stats;
} SimaHostHal;

/* local: caller-provided local memory of local_size bytes (64-aligned). */
void sima_host_hal_init (SimaHostHal *h, uint32_t worker_id,
    uint32_t worker_count, const SimaHostRegion *regions, size_t n_regions,
    SimaHostDmaModel model, uint8_t *local, uint32_t local_size);

/* Transfers still pending when the firmware returned (a firmware bug); they
 * are dropped, not performed. Frees the bookkeeping. */
size_t sima_host_hal_finish (SimaHostHal *h);

#endif /* SIMA_FIRMWARE_HOST_HAL_H */
