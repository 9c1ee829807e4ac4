/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "dma_blocks.h"

#include <simaai/kernels/ev74/wire.h>

#include "hal/device_model.h"

enum { GRANULE = SIMA_EV74_WRITE_GRANULE };

/* One row's head (bytes before its first whole granule), whole-granule
 * interior and tail; a row inside one granule is all head. */
static void
split_row (uint64_t bus, uint32_t bytes, uint32_t *head, uint32_t *mid)
{
  uint32_t to_granule = (uint32_t) ((GRANULE - bus % GRANULE) % GRANULE);

  if (to_granule >= bytes) {
    *head = bytes;
    *mid = 0;
    return;
  }
  *head = to_granule;
  *mid = (bytes - to_granule) / GRANULE * GRANULE;
}

static int
store_exact (SimaFwHal *hal, uint64_t bus, const uint8_t *local,
    uint32_t bytes)
{
  int err = 0;

  while (bytes > 0) {           /* at most one granule per store op */
    uint32_t n = (uint32_t) (GRANULE - bus % GRANULE);
    n = n < bytes ? n : bytes;
    err |= hal->ops->store (hal, (uint32_t) bus, local, n);
    bus += n;
    local += n;
    bytes -= n;
  }
  return err;
}

/* Whole granules of rows that all share one granule phase: one 2D DMA
 * per SIMA_EV74_DMA_MAX_ROWS rows. */
static int
dma_rows (SimaFwHal *hal, unsigned tag, uint64_t bus, uint64_t bus_pitch,
    const uint8_t *local, uint32_t local_pitch, uint32_t bytes, uint32_t rows)
{
  int err = 0;

  while (rows > 0) {
    uint32_t n = rows < SIMA_EV74_DMA_MAX_ROWS ? rows : SIMA_EV74_DMA_MAX_ROWS;
    err |= hal->ops->write_2d (hal, tag, (uint32_t) bus,
        n > 1 ? (uint32_t) bus_pitch : 0, local, n > 1 ? local_pitch : 0,
        bytes, n);
    bus += (uint64_t) n * bus_pitch;
    local += (uint64_t) n * local_pitch;
    rows -= n;
  }
  return err;
}

int
simafw_read_2d (SimaFwHal *hal, unsigned tag, uint8_t *local,
    uint64_t local_pitch, uint64_t bus, uint64_t bus_pitch,
    uint32_t row_bytes, uint32_t rows)
{
  const uint32_t most = rows > 1 && (bus_pitch > SIMA_EV74_DMA_MAX_PITCH
      || local_pitch > SIMA_EV74_DMA_MAX_PITCH) ? 1 : SIMA_EV74_DMA_MAX_ROWS;
  int err = 0;

  while (rows > 0) {
    uint32_t n = rows < most ? rows : most;
    err |= hal->ops->read_2d (hal, tag, local, n > 1 ? (uint32_t) local_pitch
        : 0, (uint32_t) bus, n > 1 ? (uint32_t) bus_pitch : 0, row_bytes, n);
    bus += (uint64_t) n * bus_pitch;
    local += (uint64_t) n * local_pitch;
    rows -= n;
  }
  return err;
}

int
simafw_write_exact (SimaFwHal *hal, unsigned tag, uint64_t bus,
    uint64_t bus_pitch, const uint8_t *local, uint32_t local_pitch,
    uint32_t row_bytes, uint32_t rows)
{
  uint32_t head, mid, r;
  int err = 0;

  if (rows == 0 || row_bytes == 0)
    return 0;
  if (rows == 1)
    bus_pitch = 0;
  split_row (bus, row_bytes, &head, &mid);
  if (bus_pitch % GRANULE == 0 && bus_pitch <= SIMA_EV74_DMA_MAX_PITCH
      && local_pitch <= SIMA_EV74_DMA_MAX_PITCH) {
    /* every row has the same phase: the interiors are one 2D transfer */
    if (mid > 0)
      err |= dma_rows (hal, tag, bus + head, bus_pitch, local + head,
          local_pitch, mid, rows);
    for (r = 0; r < rows; r++) {
      uint64_t b = bus + (uint64_t) r * bus_pitch;
      const uint8_t *l = local + (uint64_t) r * local_pitch;
      err |= store_exact (hal, b, l, head);
      err |= store_exact (hal, b + head + mid, l + head + mid,
          row_bytes - head - mid);
    }
    return err;
  }
  for (r = 0; r < rows; r++) {
    uint64_t b = bus + (uint64_t) r * bus_pitch;
    const uint8_t *l = local + (uint64_t) r * local_pitch;
    split_row (b, row_bytes, &head, &mid);
    err |= store_exact (hal, b, l, head);
    if (mid > 0)
      err |= hal->ops->write_2d (hal, tag, (uint32_t) (b + head), 0,
          l + head, 0, mid, 1);
    err |= store_exact (hal, b + head + mid, l + head + mid,
        row_bytes - head - mid);
  }
  return err;
}

void
simafw_segments_init (SimaFwSegments *s, int write, unsigned tag)
{
  s->write = write;
  s->tag = tag;
  s->rows = 0;
  s->seg_bytes = 0;
}

static int
issue_block (SimaFwHal *hal, SimaFwSegments *s)
{
  uint32_t pitch = s->rows > 1 ? (uint32_t) s->pitch : 0;
  int err = 0;

  if (s->rows == 0)
    return 0;
  if (s->write)
    err = simafw_write_exact (hal, s->tag, s->bus, pitch, s->local,
        s->row_bytes, s->row_bytes, s->rows);
  else
    err = hal->ops->read_2d (hal, s->tag, s->local, s->row_bytes,
        (uint32_t) s->bus, pitch, s->row_bytes, s->rows);
  s->rows = 0;
  return err;
}

/* A finished segment: the block's next row when it has the row length,
 * lands right after the block locally and sits one pitch further on the
 * bus; otherwise the block is issued and the segment starts a new one. */
static int
add_row (SimaFwHal *hal, SimaFwSegments *s)
{
  uint64_t bus = s->seg_bus;
  int err;

  if (s->rows > 0 && s->seg_bytes == s->row_bytes
      && s->seg_local == s->local + (uint64_t) s->rows * s->row_bytes) {
    if (s->rows == 1 && bus > s->bus
        && bus - s->bus <= SIMA_EV74_DMA_MAX_PITCH
        && s->row_bytes <= SIMA_EV74_DMA_MAX_PITCH) {
      s->pitch = bus - s->bus;
      s->rows = 2;
      return 0;
    }
    if (s->rows > 1 && s->rows < SIMA_EV74_DMA_MAX_ROWS
        && bus == s->bus + (uint64_t) s->rows * s->pitch) {
      s->rows++;
      return 0;
    }
  }
  err = issue_block (hal, s);
  s->bus = bus;
  s->row_bytes = (uint32_t) s->seg_bytes;
  s->rows = 1;
  s->pitch = 0;
  s->local = s->seg_local;
  return err;
}

int
simafw_segments_add (SimaFwHal *hal, SimaFwSegments *s, uint64_t bus,
    uint64_t bytes, uint8_t *local)
{
  int err = 0;

  if (bytes == 0)
    return 0;
  if (s->seg_bytes > 0 && bus == s->seg_bus + s->seg_bytes
      && local == s->seg_local + s->seg_bytes) {
    s->seg_bytes += bytes;      /* continues the current segment */
    return 0;
  }
  if (s->seg_bytes > 0)
    err = add_row (hal, s);
  s->seg_bus = bus;
  s->seg_bytes = bytes;
  s->seg_local = local;
  return err;
}

int
simafw_segments_flush (SimaFwHal *hal, SimaFwSegments *s)
{
  int err = 0;

  if (s->seg_bytes > 0)
    err = add_row (hal, s);
  s->seg_bytes = 0;
  return err | issue_block (hal, s);
}

SimaStatus
simafw_dma_drain (SimaFwHal *hal, int err, const char *op)
{
  int s;

  for (s = 0; s < SIMA_FW_DMA_TAGS; s++)
    err |= hal->ops->wait (hal, (unsigned) s);
  if (err)
    return sima_status_make (SIMA_DMA_ERROR,
        "%s worker %lu: a DMA transfer failed", op,
        (unsigned long) hal->worker_id);
  return sima_status_ok ();
}
