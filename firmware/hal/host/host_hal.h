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
 *
 * The device model (../device_model.h) is enforced in both: a transfer past
 * the 2D limits is refused; with granule tracking on a region
 * (sima_host_regions_track, shared by every worker of a job), a DMA write
 * that shares a 16-byte granule with an unretired write of its worker, or
 * with any write of another worker, is refused, and so is a scalar store
 * into such a granule. A refusal is a device fault whose message (fault[])
 * names the rule, the address and the worker. Every transfer is costed.
 */
#ifndef SIMA_FIRMWARE_HOST_HAL_H
#define SIMA_FIRMWARE_HOST_HAL_H

#include <stddef.h>
#include <stdint.h>

#include "../hal.h"

typedef struct {
  uint32_t bus;             /* 16-byte aligned when tracked */
  uint64_t length;
  uint8_t *host;
  /* Per 16-byte granule of the region, shared by the workers of one job
   * (NULL: not tracked), one byte each, eight granules to a 64-bit word
   * (byte g % 8 of word g / 8, little-endian), so that a row's granules are
   * claimed and retired a word at a time with one atomic operation. owner:
   * bit w = worker w wrote it by DMA, bit 4+w = worker w stored into it;
   * inflight: the tags of its DMA owner's unretired writes that touch it. */
  uint64_t *owner;
  uint64_t *inflight;
} SimaHostRegion;

/* Turns on granule tracking for every region (all workers of one job must
 * share these regions); 0, or -1 when out of memory (nothing tracked). */
int sima_host_regions_track (SimaHostRegion *regions, size_t n_regions);
void sima_host_regions_untrack (SimaHostRegion *regions, size_t n_regions);

typedef enum {
  SIMA_HOST_DMA_IMMEDIATE,
  SIMA_HOST_DMA_DEFERRED,
} SimaHostDmaModel;

typedef struct {
  uint64_t commands;        /* transfers issued (a 2D transfer is one) */
  uint64_t refused;         /* transfers refused (regions, limits, granules) */
  uint64_t small;           /* rows below SIMA_EV74_DMA_EFFICIENT_ROW_BYTES */
  uint64_t unaligned;       /* rows not at SIMA_EV74_DMA_LOCAL_ALIGN */
  uint64_t partial;         /* DMA write rows with a partial granule */
  uint64_t stores;          /* exact scalar stores (1, 2 or 4 bytes each) */
  uint64_t cycles;          /* estimated by the cost model */
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
  char fault[160];          /* the first rule broken ("" if none) */
} SimaHostHal;

/* local: caller-provided local memory of local_size bytes (64-aligned). */
void sima_host_hal_init (SimaHostHal *h, uint32_t worker_id,
    uint32_t worker_count, const SimaHostRegion *regions, size_t n_regions,
    SimaHostDmaModel model, uint8_t *local, uint32_t local_size);

/* Transfers still pending when the firmware returned (a firmware bug); they
 * are dropped, not performed. Frees the bookkeeping. */
size_t sima_host_hal_finish (SimaHostHal *h);

#endif /* SIMA_FIRMWARE_HOST_HAL_H */
