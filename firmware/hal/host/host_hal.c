/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "host_hal.h"

#include <stdlib.h>
#include <string.h>

enum { POISON = 0xDB };

struct SimaHostTransfer {
  unsigned tag;
  int failed;
  uint8_t *dst;
  const uint8_t *src;
  uint64_t dst_pitch, src_pitch;
  uint32_t row_bytes, rows;
};

static SimaHostHal *
host (SimaFwHal *hal)
{
  return (SimaHostHal *) hal;   /* hal is the first member */
}

/* Host address of bus[bus, bus + bytes), or NULL when the range is not
 * inside one mapped region. */
static uint8_t *
translate (const SimaHostHal *h, uint64_t bus, uint64_t bytes)
{
  size_t i;
  for (i = 0; i < h->n_regions; i++) {
    const SimaHostRegion *r = &h->regions[i];
    if (bus >= r->bus && bus - r->bus <= r->length
        && bytes <= r->length - (bus - r->bus))
      return r->host + (bus - r->bus);
  }
  return NULL;
}

/* Every row of a 2D transfer on the bus side must be mapped; the local side
 * must lie inside this worker's local memory. */
static int
check_shape (const SimaHostHal *h, const uint8_t *local, uint32_t local_pitch,
    uint32_t bus, uint32_t bus_pitch, uint32_t row_bytes, uint32_t rows,
    uint8_t **bus_host)
{
  uint64_t local_end;

  if (rows == 0 || row_bytes == 0)
    return -1;
  local_end = (uint64_t) (local - h->local) + (uint64_t) (rows - 1)
      * local_pitch + row_bytes;
  if (local < h->local || local_end > h->local_size)
    return -1;
  /* rows are evenly spaced: one region holding the first byte of the first
   * row and the last byte of the last row holds them all */
  *bus_host = translate (h, bus, (uint64_t) (rows - 1) * bus_pitch
      + row_bytes);
  return *bus_host == NULL ? -1 : 0;
}

static void
land (const SimaHostTransfer *t)
{
  uint32_t r;
  if (t->failed)
    return;
  for (r = 0; r < t->rows; r++)
    memmove (t->dst + r * t->dst_pitch, t->src + r * t->src_pitch,
        t->row_bytes);
}

static void
poison (const SimaHostTransfer *t)
{
  uint32_t r;
  for (r = 0; r < t->rows; r++)
    memset (t->dst + r * t->dst_pitch, POISON, t->row_bytes);
}

static int
issue (SimaHostHal *h, unsigned tag, SimaHostTransfer *t)
{
  if (tag >= SIMA_FW_DMA_TAGS)
    return -1;
  t->tag = tag;
  t->failed = h->fail_after >= 0 && (int64_t) h->stats.commands >= h->fail_after;
  h->stats.commands++;
  if (h->model == SIMA_HOST_DMA_IMMEDIATE) {
    land (t);
    h->tag_failed[tag] |= t->failed;
    return 0;
  }
  if (h->n_pending == h->cap_pending) {
    size_t cap = h->cap_pending ? 2 * h->cap_pending : 64;
    SimaHostTransfer *p = realloc (h->pending, cap * sizeof *p);
    if (p == NULL)
      return -1;
    h->pending = p;
    h->cap_pending = cap;
  }
  poison (t);
  h->pending[h->n_pending++] = *t;
  return 0;
}

static int
host_read_2d (SimaFwHal *hal, unsigned tag, uint8_t *local,
    uint32_t local_pitch, uint32_t bus, uint32_t bus_pitch,
    uint32_t row_bytes, uint32_t rows)
{
  SimaHostHal *h = host (hal);
  SimaHostTransfer t;
  uint8_t *src;

  if (check_shape (h, local, local_pitch, bus, bus_pitch, row_bytes, rows,
          &src) != 0) {
    h->stats.refused++;
    return -1;
  }
  t = (SimaHostTransfer) { 0, 0, local, src, local_pitch, bus_pitch,
    row_bytes, rows };
  if (issue (h, tag, &t) != 0)
    return -1;
  h->stats.bytes_read += (uint64_t) row_bytes * rows;
  return 0;
}

static int
host_write_2d (SimaFwHal *hal, unsigned tag, uint32_t bus, uint32_t bus_pitch,
    const uint8_t *local, uint32_t local_pitch, uint32_t row_bytes,
    uint32_t rows)
{
  SimaHostHal *h = host (hal);
  SimaHostTransfer t;
  uint8_t *dst;
  uint64_t end = (uint64_t) bus + (uint64_t) (rows ? rows - 1 : 0) * bus_pitch
      + row_bytes;

  if (check_shape (h, local, local_pitch, bus, bus_pitch, row_bytes, rows,
          &dst) != 0) {
    h->stats.refused++;
    return -1;
  }
  t = (SimaHostTransfer) { 0, 0, dst, local, bus_pitch, local_pitch,
    row_bytes, rows };
  if (issue (h, tag, &t) != 0)
    return -1;
  h->stats.bytes_written += (uint64_t) row_bytes * rows;
  if (bus < h->stats.write_lo)
    h->stats.write_lo = bus;
  if (end > h->stats.write_hi)
    h->stats.write_hi = end;
  return 0;
}

static int
host_wait (SimaFwHal *hal, unsigned tag)
{
  SimaHostHal *h = host (hal);
  size_t i, kept = 0;
  int failed;

  if (tag >= SIMA_FW_DMA_TAGS)
    return -1;
  for (i = 0; i < h->n_pending; i++) {   /* land in issue order */
    if (h->pending[i].tag == tag) {
      land (&h->pending[i]);
      h->tag_failed[tag] |= h->pending[i].failed;
    } else {
      h->pending[kept++] = h->pending[i];
    }
  }
  h->n_pending = kept;
  failed = h->tag_failed[tag];
  h->tag_failed[tag] = 0;
  return failed ? -1 : 0;
}

static uint8_t *
host_scratch (SimaFwHal *hal, uint32_t bytes)
{
  SimaHostHal *h = host (hal);
  uint32_t start = (h->local_used + 63u) & ~63u;

  if (start > h->local_size || bytes > h->local_size - start)
    return NULL;
  h->local_used = start + bytes;
  if (h->local_used > h->stats.local_peak)
    h->stats.local_peak = h->local_used;
  return h->local + start;
}

/* The memory given back is poisoned, so firmware that relies on what a
 * previous member left in its slots fails; the high-water mark stays (it
 * is the most any member needed at once). */
static void
host_scratch_reset (SimaFwHal *hal)
{
  SimaHostHal *h = host (hal);

  memset (h->local, 0xDB, h->local_used);
  h->local_used = 0;
}

static const SimaFwHalOps host_ops = {
  host_read_2d, host_write_2d, host_wait, host_scratch, host_scratch_reset,
};

void
sima_host_hal_init (SimaHostHal *h, uint32_t worker_id, uint32_t worker_count,
    const SimaHostRegion *regions, size_t n_regions, SimaHostDmaModel model,
    uint8_t *local, uint32_t local_size)
{
  memset (h, 0, sizeof *h);
  h->hal.ops = &host_ops;
  h->hal.worker_id = worker_id;
  h->hal.worker_count = worker_count;
  h->regions = regions;
  h->n_regions = n_regions;
  h->model = model;
  h->local = local;
  h->local_size = local_size;
  h->fail_after = -1;
  h->stats.write_lo = UINT64_MAX;
  /* stale bytes from an earlier job must not look like valid data */
  memset (local, POISON, local_size);
}

size_t
sima_host_hal_finish (SimaHostHal *h)
{
  size_t left = h->n_pending;
  free (h->pending);
  h->pending = NULL;
  h->n_pending = h->cap_pending = 0;
  return left;
}
