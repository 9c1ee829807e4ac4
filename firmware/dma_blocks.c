/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "dma_blocks.h"

#include <simaai/kernels/ev74/wire.h>

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
    err = hal->ops->write_2d (hal, s->tag, (uint32_t) s->bus, pitch,
        s->local, s->row_bytes, s->row_bytes, s->rows);
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
        && bus - s->bus < SIMA_EV74_APERTURE_LIMIT) {
      s->pitch = bus - s->bus;
      s->rows = 2;
      return 0;
    }
    if (s->rows > 1 && bus == s->bus + (uint64_t) s->rows * s->pitch) {
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
