/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hal.h - what the EV74 firmware may ask of its platform.
 *
 * The firmware is C99 and calls nothing but this HAL and memcpy-like
 * helpers. On the device the HAL is the DMA engine, the vector core's local
 * memory (VCCM) and the worker's identity; in the emulator it is
 * firmware/hal/host, which models a 32-bit bus aperture and two DMA models.
 *
 * DMA is asynchronous: a transfer may land any time before the wait on its
 * tag returns, and its destination must not be read (nor its source changed)
 * before then. Transfers that share a tag are waited for together. What
 * a transfer may be (granules, limits) and what it costs is written in
 * device_model.h.
 */
#ifndef SIMA_FIRMWARE_HAL_H
#define SIMA_FIRMWARE_HAL_H

#include <stdint.h>

enum { SIMA_FW_DMA_TAGS = 4 };

/* Alignment of every scratch allocation (SimaFwHalOps.scratch): each one
 * takes its size rounded up to this of the worker's local memory. */
enum { SIMA_FW_SCRATCH_ALIGN = 64 };

typedef struct SimaFwHal SimaFwHal;

typedef struct {
  /* Bus -> local: `rows` rows of `row_bytes`, row r read from
   * bus + r*bus_pitch and written to local + r*local_pitch. Returns 0, or
   * nonzero when the transfer is refused (nothing is transferred). */
  int (*read_2d) (SimaFwHal *hal, unsigned tag, uint8_t *local,
      uint32_t local_pitch, uint32_t bus, uint32_t bus_pitch,
      uint32_t row_bytes, uint32_t rows);
  /* Local -> bus, the same shape. Rows should cover whole aligned write
   * granules (device_model.h): a write must not share a granule with an
   * unretired write of this worker, nor with any write of another worker. */
  int (*write_2d) (SimaFwHal *hal, unsigned tag, uint32_t bus,
      uint32_t bus_pitch, const uint8_t *local, uint32_t local_pitch,
      uint32_t row_bytes, uint32_t rows);
  /* Exact scalar stores of `bytes` (1 .. granule - 1) at bus, inside one
   * write granule: only those bytes change, and they have landed when this
   * returns (no tag). For the partial granules at a span's head and tail,
   * which DMA must not round up. Nonzero when refused. */
  int (*store) (SimaFwHal *hal, uint32_t bus, const uint8_t *local,
      uint32_t bytes);
  /* Waits for every transfer issued with `tag`; nonzero if one failed. */
  int (*wait) (SimaFwHal *hal, unsigned tag);
  /* `bytes` of this worker's local memory, 64-byte aligned, valid until
   * the entry returns; NULL when the local budget is exhausted. */
  uint8_t *(*scratch) (SimaFwHal *hal, uint32_t bytes);
  /* Gives back every scratch allocation of this entry call, so the next
   * one starts from an empty local memory: a tensor-set job runs its
   * members one after the other, each with its own slots. Only with no
   * transfer pending into or out of the memory given back. */
  void (*scratch_reset) (SimaFwHal *hal);
} SimaFwHalOps;

struct SimaFwHal {
  const SimaFwHalOps *ops;
  uint32_t worker_id;       /* 0 .. worker_count-1 */
  uint32_t worker_count;    /* 1 .. 4 */
};

#endif /* SIMA_FIRMWARE_HAL_H */
