/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "host_hal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../device_model.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the granule words (host_hal.h) put granule 8w + i in byte i"
#endif

enum { POISON = 0xDB, GRANULE = SIMA_EV74_WRITE_GRANULE };

/* An unretired transfer. Deferred: it lands when its tag is waited for.
 * Immediate: it has landed, but a write's granules stay in flight until
 * the wait all the same (the firmware cannot tell the models apart). */
struct SimaHostTransfer {
  unsigned tag;
  int failed;
  int landed;
  uint8_t *dst;
  const uint8_t *src;
  uint64_t dst_pitch, src_pitch;
  uint32_t row_bytes, rows;
  const SimaHostRegion *granules;   /* a tracked write's region, or NULL */
  uint32_t bus, bus_pitch;
};

int
sima_host_regions_track (SimaHostRegion *regions, size_t n_regions)
{
  size_t i;

  for (i = 0; i < n_regions; i++) {
    /* granules, one more for a row ending at the region's end, in words */
    size_t words = (size_t) (regions[i].length / GRANULE + 2 + 7) / 8;
    regions[i].owner = calloc (words, sizeof (uint64_t));
    regions[i].inflight = calloc (words, sizeof (uint64_t));
    if (regions[i].owner == NULL || regions[i].inflight == NULL
        || regions[i].bus % GRANULE != 0) {
      sima_host_regions_untrack (regions, i + 1);
      return -1;
    }
  }
  return 0;
}

void
sima_host_regions_untrack (SimaHostRegion *regions, size_t n_regions)
{
  size_t i;

  for (i = 0; i < n_regions; i++) {
    free (regions[i].owner);
    free (regions[i].inflight);
    regions[i].owner = regions[i].inflight = NULL;
  }
}

static SimaHostHal *
host (SimaFwHal *hal)
{
  return (SimaHostHal *) hal;   /* hal is the first member */
}

/* Host address of bus[bus, bus + bytes), or NULL when the range is not
 * inside one mapped region. */
static uint8_t *
translate (const SimaHostHal *h, uint64_t bus, uint64_t bytes,
    const SimaHostRegion **region)
{
  size_t i;
  for (i = 0; i < h->n_regions; i++) {
    const SimaHostRegion *r = &h->regions[i];
    if (bus >= r->bus && bus - r->bus <= r->length
        && bytes <= r->length - (bus - r->bus)) {
      if (region != NULL)
        *region = r;
      return r->host + (bus - r->bus);
    }
  }
  return NULL;
}

/* The first broken rule of this worker, for the job's status. */
static int
refuse (SimaHostHal *h, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3)));

static int
refuse (SimaHostHal *h, const char *fmt, ...)
{
  h->stats.refused++;
  if (h->fault[0] == '\0') {
    va_list ap;
    int n = snprintf (h->fault, sizeof h->fault, "EV74 worker %u: ",
        (unsigned) h->hal.worker_id);
    va_start (ap, fmt);
    vsnprintf (h->fault + n, sizeof h->fault - (size_t) n, fmt, ap);
    va_end (ap);
  }
  return -1;
}

/* The 2D limits of device_model.h. */
static int
check_limits (SimaHostHal *h, const char *what, uint32_t local_pitch,
    uint32_t bus_pitch, uint32_t row_bytes, uint32_t rows)
{
  if (rows > SIMA_EV74_DMA_MAX_ROWS)
    return refuse (h, "DMA %s of %" PRIu32 " rows (the engine moves at most "
        "%u)", what, rows, SIMA_EV74_DMA_MAX_ROWS);
  if (row_bytes > SIMA_EV74_DMA_MAX_ROW_BYTES)
    return refuse (h, "DMA %s row of %" PRIu32 " bytes (at most %u)", what,
        row_bytes, SIMA_EV74_DMA_MAX_ROW_BYTES);
  if (rows > 1 && (local_pitch > SIMA_EV74_DMA_MAX_PITCH
          || bus_pitch > SIMA_EV74_DMA_MAX_PITCH))
    return refuse (h, "DMA %s pitch %" PRIu32 " / %" PRIu32 " (at most %u)",
        what, local_pitch, bus_pitch, SIMA_EV74_DMA_MAX_PITCH);
  return 0;
}

/* What the cost model charges for a transfer, and what it counts. */
static void
cost (SimaHostHal *h, int write, const uint8_t *local, uint32_t local_pitch,
    uint32_t bus, uint32_t bus_pitch, uint32_t row_bytes, uint32_t rows)
{
  uint64_t cycles = SIMA_EV74_DMA_SETUP_CYCLES;
  uint64_t local_off = (uint64_t) (local - h->local);
  uint32_t r;

  for (r = 0; r < rows; r++) {
    uint64_t b = (uint64_t) bus + (uint64_t) r * bus_pitch;
    uint64_t l = local_off + (uint64_t) r * local_pitch;
    uint64_t beats = (b % GRANULE + row_bytes + GRANULE - 1) / GRANULE;
    cycles += SIMA_EV74_DMA_ROW_CYCLES + beats;
    if (b % SIMA_EV74_DMA_LOCAL_ALIGN != 0
        || l % SIMA_EV74_DMA_LOCAL_ALIGN != 0) {
      h->stats.unaligned++;
      cycles += SIMA_EV74_DMA_UNALIGNED_CYCLES;
    }
    if (write && (b % GRANULE != 0 || (b + row_bytes) % GRANULE != 0))
      h->stats.partial++;
  }
  if (row_bytes < SIMA_EV74_DMA_EFFICIENT_ROW_BYTES)
    h->stats.small += rows;
  h->stats.cycles += cycles;
}

/* Granule words: byte lane i of word w is granule 8w + i. */
static uint64_t
lanes (uint8_t byte)
{
  return byte * UINT64_C (0x0101010101010101);
}

/* The lanes of word w that lie in granules [g0, g1]. */
static uint64_t
lane_range (uint64_t w, uint64_t g0, uint64_t g1)
{
  unsigned lo = w == g0 / 8 ? (unsigned) (g0 % 8) : 0;
  unsigned hi = w == g1 / 8 ? (unsigned) (g1 % 8) : 7;
  return (~UINT64_C (0) >> (8 * (7 - hi))) & (~UINT64_C (0) << (8 * lo));
}

static unsigned
first_lane (uint64_t bits)
{
  return (unsigned) __builtin_ctzll (bits) / 8;
}

/* Ownership of granules [g0, g1] of tracked region r by this worker, for a
 * DMA write (dma) or a scalar store, a word of eight granules at a time.
 * The owner bits are set first (one atomic OR a word), so a granule
 * another worker owns is refused without reading its in-flight marks
 * (only a granule's DMA owner ever changes those; other workers' lanes of
 * the same word change under atomic operations too). The first granule
 * that breaks a rule is the one named. */
static int
claim (SimaHostHal *h, const SimaHostRegion *r, uint64_t g0, uint64_t g1,
    int dma)
{
  unsigned w = h->hal.worker_id;
  uint8_t mine = (uint8_t) (dma ? 1u << w : 1u << (4 + w));
  uint8_t others_dma = (uint8_t) (0x0Fu & ~(1u << w));
  uint8_t others_any = (uint8_t) (~((1u << w) | (1u << (4 + w))) & 0xFFu);
  uint64_t word;

  for (word = g0 / 8; word <= g1 / 8; word++) {
    uint64_t range = lane_range (word, g0, g1);
    uint64_t old = __atomic_fetch_or (&r->owner[word], lanes (mine) & range,
        __ATOMIC_RELAXED);
    uint64_t taken = old & lanes (dma ? others_any : others_dma) & range;
    uint64_t busy = __atomic_load_n (&r->inflight[word], __ATOMIC_RELAXED)
        & range;
    if ((taken | busy) != 0) {
      unsigned lane = first_lane (taken | busy);
      uint64_t bus = r->bus + (8 * word + lane) * GRANULE;
      if ((taken >> (8 * lane)) & 0xFF)
        return refuse (h, "%s at bus 0x%08" PRIx64 " shares its 16-byte "
            "write granule with a write of another worker (owners 0x%02x)",
            dma ? "DMA write" : "scalar store", bus,
            (unsigned) ((old >> (8 * lane)) & 0xFF));
      return refuse (h, "%s at bus 0x%08" PRIx64 " shares its 16-byte write "
          "granule with an unretired DMA write (tags 0x%x)",
          dma ? "DMA write" : "scalar store", bus,
          (unsigned) ((busy >> (8 * lane)) & 0xFF));
    }
  }
  return 0;
}

/* Marks (set) or clears the in-flight bit of `tag` on granules [g0, g1]. */
static void
mark_inflight (const SimaHostRegion *r, uint64_t g0, uint64_t g1,
    unsigned tag, int set)
{
  uint64_t word;

  for (word = g0 / 8; word <= g1 / 8; word++) {
    uint64_t bits = lanes ((uint8_t) (1u << tag)) & lane_range (word, g0, g1);
    if (set)
      __atomic_fetch_or (&r->inflight[word], bits, __ATOMIC_RELAXED);
    else
      __atomic_fetch_and (&r->inflight[word], ~bits, __ATOMIC_RELAXED);
  }
}

/* Every row of a tracked write claims its granules, then marks them in
 * flight under its tag (cleared when the tag is waited for). */
static int
claim_write (SimaHostHal *h, const SimaHostRegion *r, unsigned tag,
    uint32_t bus, uint32_t bus_pitch, uint32_t row_bytes, uint32_t rows)
{
  uint32_t row;

  /* row by row: the rows of one transfer retire together, so a row may
   * not share a granule with an earlier one either */
  for (row = 0; row < rows; row++) {
    uint64_t off = (uint64_t) bus - r->bus + (uint64_t) row * bus_pitch;
    uint64_t g0 = off / GRANULE, g1 = (off + row_bytes - 1) / GRANULE;
    if (claim (h, r, g0, g1, 1) != 0)
      return -1;
    mark_inflight (r, g0, g1, tag, 1);
  }
  return 0;
}

static void
retire_write (const SimaHostTransfer *t)
{
  const SimaHostRegion *r = t->granules;
  uint32_t row;

  if (r == NULL)
    return;
  for (row = 0; row < t->rows; row++) {
    uint64_t off = (uint64_t) t->bus - r->bus + (uint64_t) row * t->bus_pitch;
    mark_inflight (r, off / GRANULE, (off + t->row_bytes - 1) / GRANULE,
        t->tag, 0);
  }
}

/* Every row of a 2D transfer on the bus side must be mapped; the local side
 * must lie inside this worker's local memory. */
static int
check_shape (const SimaHostHal *h, const uint8_t *local, uint32_t local_pitch,
    uint32_t bus, uint32_t bus_pitch, uint32_t row_bytes, uint32_t rows,
    uint8_t **bus_host, const SimaHostRegion **region)
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
      + row_bytes, region);
  return *bus_host == NULL ? -1 : 0;
}

static void
land (SimaHostTransfer *t)
{
  uint32_t r;
  if (t->failed || t->landed)
    return;
  t->landed = 1;
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
    t->failed = 0;
    if (t->granules == NULL)
      return 0;               /* nothing stays in flight */
  }
  if (h->n_pending == h->cap_pending) {
    size_t cap = h->cap_pending ? 2 * h->cap_pending : 64;
    SimaHostTransfer *p = realloc (h->pending, cap * sizeof *p);
    if (p == NULL)
      return -1;
    h->pending = p;
    h->cap_pending = cap;
  }
  if (!t->landed)
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

  /* the engine's limits first: a descriptor past them cannot be issued */
  if (check_limits (h, "read", local_pitch, bus_pitch, row_bytes, rows) != 0)
    return -1;
  if (check_shape (h, local, local_pitch, bus, bus_pitch, row_bytes, rows,
          &src, NULL) != 0) {
    h->stats.refused++;
    return -1;
  }
  t = (SimaHostTransfer) { 0, 0, 0, local, src, local_pitch, bus_pitch,
    row_bytes, rows, NULL, bus, bus_pitch };
  if (issue (h, tag, &t) != 0)
    return -1;
  cost (h, 0, local, local_pitch, bus, bus_pitch, row_bytes, rows);
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
  const SimaHostRegion *region = NULL;
  uint8_t *dst;
  uint64_t end = (uint64_t) bus + (uint64_t) (rows ? rows - 1 : 0) * bus_pitch
      + row_bytes;

  if (check_limits (h, "write", local_pitch, bus_pitch, row_bytes, rows) != 0)
    return -1;
  if (tag >= SIMA_FW_DMA_TAGS || check_shape (h, local, local_pitch, bus,
          bus_pitch, row_bytes, rows, &dst, &region) != 0) {
    h->stats.refused++;
    return -1;
  }
  if (region->owner != NULL && claim_write (h, region, tag, bus, bus_pitch,
          row_bytes, rows) != 0)
    return -1;
  t = (SimaHostTransfer) { 0, 0, 0, dst, local, bus_pitch, local_pitch,
    row_bytes, rows, region->owner != NULL ? region : NULL, bus, bus_pitch };
  if (issue (h, tag, &t) != 0)
    return -1;
  cost (h, 1, local, local_pitch, bus, bus_pitch, row_bytes, rows);
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
      retire_write (&h->pending[i]);
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

/* Exact stores: naturally aligned pieces of 4, 2 and 1 bytes. */
static int
host_store (SimaFwHal *hal, uint32_t bus, const uint8_t *local,
    uint32_t bytes)
{
  SimaHostHal *h = host (hal);
  const SimaHostRegion *region = NULL;
  uint8_t *dst;
  uint64_t off, pieces = 0;
  uint32_t at;

  if (bytes == 0 || bytes >= GRANULE || bus / GRANULE != (bus + bytes - 1)
      / GRANULE)
    return refuse (h, "scalar store of %" PRIu32 " bytes at bus 0x%08" PRIx32
        " (1 to 15 bytes inside one 16-byte granule)", bytes, bus);
  if (local < h->local || (uint64_t) (local - h->local) + bytes
      > h->local_size
      || (dst = translate (h, bus, bytes, &region)) == NULL) {
    h->stats.refused++;
    return -1;
  }
  off = (uint64_t) bus - region->bus;
  if (region->owner != NULL && claim (h, region, off / GRANULE,
          off / GRANULE, 0) != 0)
    return -1;
  memcpy (dst, local, bytes);
  for (at = bus; at < bus + bytes;) {
    uint32_t left = bus + bytes - at;
    uint32_t n = (at % 4 == 0 && left >= 4) ? 4 : (at % 2 == 0 && left >= 2)
        ? 2 : 1;
    at += n;
    pieces++;
  }
  h->stats.stores += pieces;
  h->stats.cycles += pieces * SIMA_EV74_SCALAR_STORE_CYCLES;
  h->stats.bytes_written += bytes;
  if (bus < h->stats.write_lo)
    h->stats.write_lo = bus;
  if ((uint64_t) bus + bytes > h->stats.write_hi)
    h->stats.write_hi = (uint64_t) bus + bytes;
  return 0;
}

static uint8_t *
host_scratch (SimaFwHal *hal, uint32_t bytes)
{
  SimaHostHal *h = host (hal);
  uint32_t start = (h->local_used + SIMA_FW_SCRATCH_ALIGN - 1u)
      & ~(uint32_t) (SIMA_FW_SCRATCH_ALIGN - 1u);

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
  host_read_2d, host_write_2d, host_store, host_wait, host_scratch,
  host_scratch_reset,
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
  size_t i, left = 0;

  /* landed immediate writes still marked in flight are a firmware that
   * did not wait; deferred ones never landed */
  for (i = 0; i < h->n_pending; i++) {
    left++;
    retire_write (&h->pending[i]);
  }
  free (h->pending);
  h->pending = NULL;
  h->n_pending = h->cap_pending = 0;
  return left;
}
