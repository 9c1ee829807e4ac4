/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dma_blocks.h - building few, large DMA transfers out of many small
 * pieces, for every worker of the firmware.
 *
 * A caller hands over pieces of bytes in the order they sit in local memory
 * (each right after the previous one), with their bus addresses. Pieces
 * whose bus bytes are adjacent merge into one segment; segments of equal
 * length at a constant bus pitch merge into one 2D transfer (rows). So the
 * rows of a tile, or the pixels of a run at a constant pitch, cost one
 * command instead of one each. Reads (bus -> local) and writes (local ->
 * bus) alike.
 *
 * Every write to the bus goes through simafw_write_exact, which keeps the
 * device model's granule rule (hal/device_model.h) by construction: DMA
 * writes only whole aligned 16-byte granules, and the partial granules at
 * a row's head and tail go out as exact scalar stores, which never round
 * into holes, guards or a neighbour's bytes. So no DMA write can share a
 * granule with any other write, in flight or not, of any worker.
 */
#ifndef SIMA_FIRMWARE_DMA_BLOCKS_H
#define SIMA_FIRMWARE_DMA_BLOCKS_H

#include <stdint.h>

#include <simaai/kernels/status.h>

#include "hal/hal.h"

typedef struct {
  int write;                /* 0: bus -> local, 1: local -> bus */
  unsigned tag;
  /* the 2D block being built */
  uint64_t bus, pitch;
  uint32_t row_bytes, rows;
  uint8_t *local;
  /* the segment being built (becomes the block's next row) */
  uint64_t seg_bus, seg_bytes;
  uint8_t *seg_local;
} SimaFwSegments;

void simafw_segments_init (SimaFwSegments *s, int write, unsigned tag);

/* Adds `bytes` at bus address `bus`, living at `local` (right after the
 * previous piece in local memory). Returns nonzero if a transfer it had to
 * issue was refused. */
int simafw_segments_add (SimaFwHal *hal, SimaFwSegments *s, uint64_t bus,
    uint64_t bytes, uint8_t *local);

/* Writes `rows` rows of `row_bytes` from local (local_pitch apart) to bus
 * (bus_pitch apart): whole granules by DMA under `tag`, partial granules by
 * exact stores (landed on return). Nonzero if a transfer was refused. */
int simafw_write_exact (SimaFwHal *hal, unsigned tag, uint64_t bus,
    uint64_t bus_pitch, const uint8_t *local, uint32_t local_pitch,
    uint32_t row_bytes, uint32_t rows);

/* Reads `rows` rows of `row_bytes` from bus (bus_pitch apart) to local
 * (local_pitch apart) within the engine's 2D limits: chunks of at most
 * SIMA_EV74_DMA_MAX_ROWS rows, and one transfer per row when a pitch is
 * beyond SIMA_EV74_DMA_MAX_PITCH (tensors with planes of 8 MiB or more). */
int simafw_read_2d (SimaFwHal *hal, unsigned tag, uint8_t *local,
    uint64_t local_pitch, uint64_t bus, uint64_t bus_pitch,
    uint32_t row_bytes, uint32_t rows);

/* Issues whatever is still being built. */
int simafw_segments_flush (SimaFwHal *hal, SimaFwSegments *s);

/* The end of every worker: waits for every tag, so that it never returns
 * with a transfer in flight, failed or not; the DMA error ("<op> worker
 * <id>: a DMA transfer failed") if err or a wait says a transfer failed. */
SimaStatus simafw_dma_drain (SimaFwHal *hal, int err, const char *op);

#endif /* SIMA_FIRMWARE_DMA_BLOCKS_H */
