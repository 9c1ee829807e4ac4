/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The QuantTess worker of the EV74 firmware.
 *
 * Work is cut into tasks: each tile of the output (in physical order) is cut
 * into chunks of at most one output slot, at 16-byte boundaries. Worker w of
 * N takes the contiguous task range [w*T/N, (w+1)*T/N), so every worker owns
 * one contiguous run of whole, 16-byte aligned output intervals and no two
 * workers ever write the same alignment block. T and each worker's first
 * tile come from the class-weighted run sums of the geometry, in O(1): no
 * worker walks the tiles before its own.
 *
 * Each task: gather its input elements (and only those: holes are never
 * read) into a local input slot with 1D/2D DMA, wait, quantize into a local
 * output slot (values, zero-point channel padding, zero alignment gaps), and
 * write the slot out with one DMA. Two slots alternate: the next task's
 * input is in flight while the current one is converted, and an output slot
 * is reused only after its previous write has completed. The numerics are
 * the core's header-only exact integer stages (numerics/quant_exact.h), so
 * nothing depends on the device's handling of subnormals.
 */
#include <string.h>

#include <simaai/kernels/ev74/wire.h>

#include "numerics/quant_exact.h"
#include "quanttess_fw.h"

enum { TAG_IN0 = 0, TAG_OUT0 = 2 };

typedef struct {
  const SimaTileClass *cls;
  uint64_t tile_offset;     /* physical offset of the tile */
  int64_t view_offset;      /* input offset of the tile's first element */
  uint64_t b0, b1;          /* bytes [b0, b1) of the tile belong to the task */
} Task;

typedef struct {
  SimaTileCursor cur;
  uint64_t next_b0;
  uint64_t chunk;
  int in_tile;
} TaskIter;

/* Tasks per tile class: ceil(span / chunk). With sima_tiled_runs these give
 * the task count and, through sima_tiled_locate, any task's tile in O(1). */
static void
task_weights (const SimaFwQuantTessJob *job, uint64_t chunk,
    uint64_t weight[SIMA_TILE_CLASS_COUNT])
{
  const SimaTiledGeometry *g = &job->plan.output_geometry;
  int k;
  for (k = 0; k < SIMA_TILE_CLASS_COUNT; k++)
    weight[k] = g->classes[k].count == 0 ? 0
        : (g->classes[k].span_bytes + chunk - 1) / chunk;
}

/* Starts the iterator at task `first` without walking the tasks before. */
static void
task_iter_start (TaskIter *it, const SimaFwQuantTessJob *job, uint64_t chunk,
    const SimaTileRuns *runs, const uint64_t *weight, uint64_t first)
{
  uint64_t outer, inside;
  int64_t tile_index[4];

  sima_tiled_locate (&job->plan.output_geometry, runs, weight, first, &outer,
      tile_index, &inside);
  sima_tile_cursor_init (&it->cur, &job->plan.output_geometry, &job->walk);
  sima_tile_cursor_seek (&it->cur, outer, tile_index);
  it->next_b0 = inside * chunk;
  it->chunk = chunk;
  it->in_tile = 1;
}

/* The next task: the rest of the current tile in chunks, then the next
 * tiles. */
static int
task_next (TaskIter *it, Task *t)
{
  if (!it->in_tile || it->next_b0 >= it->cur.cls->span_bytes) {
    if (!sima_tile_cursor_next (&it->cur))
      return 0;
    it->in_tile = 1;
    it->next_b0 = 0;
  }
  t->cls = it->cur.cls;
  t->tile_offset = it->cur.tile_offset;
  t->view_offset = it->cur.view_offset;
  t->b0 = it->next_b0;
  t->b1 = t->b0 + it->chunk < t->cls->span_bytes ? t->b0 + it->chunk
      : t->cls->span_bytes;
  it->next_b0 = t->b1;
  return 1;
}

/* Bus address of pixel p of the task's tile (channel 0). */
static uint64_t
pixel_bus (const SimaFwQuantTessJob *job, const Task *t, int64_t p)
{
  const int64_t *s = job->walk.dim_stride;
  int64_t ew = t->cls->extent[SIMA_MLA_W], eh = t->cls->extent[SIMA_MLA_H];
  int64_t w = p % ew, h = (p / ew) % eh, d = p / (ew * eh);

  return (uint64_t) job->input_bus + (uint64_t) (t->view_offset
      + d * s[SIMA_MLA_D] + h * s[SIMA_MLA_H] + w * s[SIMA_MLA_W]);
}

/* A 2D input transfer being built: `rows` rows of `row_bytes` at a constant
 * bus pitch, landing back to back in local memory. */
typedef struct {
  uint64_t bus, pitch;
  uint32_t row_bytes, rows;
  uint8_t *local;
} Block;

static int
block_flush (SimaFwHal *hal, unsigned tag, Block *b)
{
  int err = 0;
  if (b->rows > 0)
    err = hal->ops->read_2d (hal, tag, b->local, b->row_bytes,
        (uint32_t) b->bus, b->rows > 1 ? (uint32_t) b->pitch : 0,
        b->row_bytes, b->rows);
  b->rows = 0;
  return err;
}

/* Adds a contiguous source segment that lands right after the block in
 * local memory: it becomes the next row when it has the row length and
 * sits one pitch further; otherwise the block is issued and a new one
 * starts. So tile rows of contiguous pixels become one 2D transfer. */
static int
block_add (SimaFwHal *hal, unsigned tag, Block *b, uint64_t bus,
    uint32_t bytes, uint8_t *local)
{
  int err;

  if (b->rows > 0 && bytes == b->row_bytes
      && local == b->local + (uint64_t) b->rows * b->row_bytes) {
    if (b->rows == 1 && bus > b->bus
        && bus - b->bus < SIMA_EV74_APERTURE_LIMIT) {
      b->pitch = bus - b->bus;
      b->rows = 2;
      return 0;
    }
    if (b->rows > 1 && bus == b->bus + (uint64_t) b->rows * b->pitch) {
      b->rows++;
      return 0;
    }
  }
  err = block_flush (hal, tag, b);
  b->bus = bus;
  b->row_bytes = bytes;
  b->rows = 1;
  b->pitch = 0;
  b->local = local;
  return err;
}

/* Whole pixels of a source whose channels are not adjacent (channels-first
 * views): n pixels at a constant bus pitch, landing packed in local memory. */
typedef struct {
  uint64_t bus, pitch;
  uint32_t n;
  uint8_t *local;
} PixelRun;

/* One 2D transfer per channel across the run, or one per pixel across its
 * channels, whichever issues fewer commands. */
static int
run_flush (SimaFwHal *hal, unsigned tag, PixelRun *r, int64_t channels,
    uint64_t sc, uint32_t scalar)
{
  uint32_t px = (uint32_t) channels * scalar, i;
  uint32_t pitch = r->n > 1 ? (uint32_t) r->pitch : 0;
  int err = 0;

  if ((uint64_t) channels <= r->n) {
    for (i = 0; i < (uint32_t) channels; i++)
      err |= hal->ops->read_2d (hal, tag, r->local + i * scalar, px,
          (uint32_t) (r->bus + i * sc), pitch, scalar, r->n);
  } else {
    for (i = 0; i < r->n; i++)
      err |= hal->ops->read_2d (hal, tag, r->local + i * px, scalar,
          (uint32_t) (r->bus + (uint64_t) i * r->pitch),
          channels > 1 ? (uint32_t) sc : 0, scalar, (uint32_t) channels);
  }
  r->n = 0;
  return err;
}

static int
run_add (SimaFwHal *hal, unsigned tag, PixelRun *r, uint64_t bus,
    uint8_t *local, int64_t channels, uint64_t sc, uint32_t scalar)
{
  int err;

  if (r->n == 1 && bus > r->bus && bus - r->bus < SIMA_EV74_APERTURE_LIMIT) {
    r->pitch = bus - r->bus;
    r->n = 2;
    return 0;
  }
  if (r->n > 1 && bus == r->bus + (uint64_t) r->n * r->pitch) {
    r->n++;
    return 0;
  }
  err = run_flush (hal, tag, r, channels, sc, scalar);
  r->bus = bus;
  r->n = 1;
  r->local = local;
  return err;
}

/* Issues the input transfers of a task: the value channels of every pixel
 * fragment in [b0, b1), packed in output order, and nothing else (holes of
 * strided inputs are never read). Source bytes that are adjacent are merged
 * into segments, and equal segments at a constant pitch into 2D blocks. */
static int
gather (SimaFwHal *hal, unsigned tag, const SimaFwQuantTessJob *job,
    const Task *t, uint8_t *local)
{
  const SimaTileClass *cls = t->cls;
  const int64_t stored = cls->stored_channels, ec = cls->extent[SIMA_MLA_C];
  const uint64_t scalar = (uint64_t) job->plan.input_view.scalar_bytes;
  const uint64_t sc = (uint64_t) job->walk.dim_stride[SIMA_MLA_C];
  const int adjacent = ec == 1 || sc == scalar;   /* channels side by side */
  uint64_t hi = t->b1 < cls->payload_bytes ? t->b1 : cls->payload_bytes;
  uint64_t seg_bus = 0, seg_bytes = 0, at = 0;
  Block block = { 0, 0, 0, 0, local };
  PixelRun run = { 0, 0, 0, local };
  int64_t p;
  int err = 0;

  for (p = (int64_t) (t->b0 / (uint64_t) stored);
      (uint64_t) p * (uint64_t) stored < hi; p++) {
    uint64_t base = (uint64_t) p * (uint64_t) stored;
    int64_t c0 = (int64_t) ((t->b0 > base ? t->b0 : base) - base);
    int64_t c1 = (int64_t) ((hi < base + (uint64_t) stored ? hi
            : base + (uint64_t) stored) - base);
    int64_t ce = c1 < ec ? c1 : ec;
    uint64_t bus, bytes;

    if (c0 >= ce)
      continue;                 /* only channel padding in this range */
    bus = pixel_bus (job, t, p) + (uint64_t) c0 * sc;
    bytes = (uint64_t) (ce - c0) * scalar;
    if (!adjacent) {
      if (c0 == 0 && ce == ec) {
        err |= run_add (hal, tag, &run, bus, local + at, ec, sc,
            (uint32_t) scalar);
      } else {                  /* a pixel cut by the task boundary */
        PixelRun one = { bus, 0, 1, local + at };
        err |= run_flush (hal, tag, &run, ec, sc, (uint32_t) scalar);
        err |= run_flush (hal, tag, &one, ce - c0, sc, (uint32_t) scalar);
      }
    } else if (seg_bytes > 0 && bus == seg_bus + seg_bytes) {
      seg_bytes += bytes;       /* continues the current segment */
    } else {
      if (seg_bytes > 0)
        err |= block_add (hal, tag, &block, seg_bus, (uint32_t) seg_bytes,
            local + at - seg_bytes);
      seg_bus = bus;
      seg_bytes = bytes;
    }
    at += bytes;
  }
  if (seg_bytes > 0)
    err |= block_add (hal, tag, &block, seg_bus, (uint32_t) seg_bytes,
        local + at - seg_bytes);
  err |= run_flush (hal, tag, &run, ec, sc, (uint32_t) scalar);
  return err | block_flush (hal, tag, &block);
}

static SimaExactValue
decode (SimaDType dtype, const uint8_t *p)
{
  if (dtype == SIMA_DTYPE_FLOAT32)
    return sima_decode_f32 ((uint32_t) p[0] | (uint32_t) p[1] << 8
        | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24);
  if (dtype == SIMA_DTYPE_FLOAT16)
    return sima_decode_f16 ((uint16_t) (p[0] | p[1] << 8));
  return sima_decode_bf16 ((uint16_t) (p[0] | p[1] << 8));
}

/* Converts a gathered task into its output bytes: for every stored channel
 * in [b0, b1), the quantized value or the zero point, then zero up to b1. */
static void
convert (const SimaFwQuantTessJob *job, const Task *t, const uint8_t *in,
    uint8_t *out)
{
  const SimaTileClass *cls = t->cls;
  const SimaDType dtype = job->plan.input.dtype;
  const uint64_t scalar = (uint64_t) job->plan.input_view.scalar_bytes;
  const int64_t stored = cls->stored_channels, ec = cls->extent[SIMA_MLA_C];
  const uint8_t zp = (uint8_t) job->numerics.zero_point;
  uint64_t hi = t->b1 < cls->payload_bytes ? t->b1 : cls->payload_bytes;
  uint64_t pos;

  for (pos = t->b0; pos < hi; pos++) {
    int64_t c = (int64_t) (pos % (uint64_t) stored);
    if (c < ec) {
      *out++ = (uint8_t) sima_quant_exact (decode (dtype, in), &job->numerics);
      in += scalar;
    } else {
      *out++ = zp;
    }
  }
  if (t->b1 > hi)
    memset (out, 0, (size_t) (t->b1 - hi));   /* alignment-only gap */
}

SimaStatus
simafw_quanttess_run (SimaFwHal *hal, const SimaFwQuantTessJob *job)
{
  const uint64_t scalar = (uint64_t) job->plan.input_view.scalar_bytes;
  /* the largest 16-byte multiple whose input fits an input slot too */
  const uint64_t chunk = (SIMAFW_QT_IN_SLOT / scalar < SIMAFW_QT_OUT_SLOT
      ? SIMAFW_QT_IN_SLOT / scalar : SIMAFW_QT_OUT_SLOT) & ~(uint64_t) 15;
  uint64_t weight[SIMA_TILE_CLASS_COUNT];
  uint8_t *in[2], *out[2];
  SimaTileRuns runs;
  Task task[2];
  TaskIter it;
  uint64_t tasks, first, last, k;
  int err = 0, s;

  if (job->plan.element_count == 0)
    return sima_status_ok ();
  /* spans are below 2^32 and chunks at least 16 bytes: no overflow */
  task_weights (job, chunk, weight);
  sima_tiled_runs (&job->plan.output_geometry, weight, &runs);
  tasks = job->plan.output_geometry.outer_count * runs.slice;
  first = tasks * hal->worker_id / hal->worker_count;
  last = tasks * (hal->worker_id + 1) / hal->worker_count;
  if (first == last)
    return sima_status_ok ();

  in[0] = hal->ops->scratch (hal, SIMAFW_QT_IN_SLOT);
  in[1] = hal->ops->scratch (hal, SIMAFW_QT_IN_SLOT);
  out[0] = hal->ops->scratch (hal, SIMAFW_QT_OUT_SLOT);
  out[1] = hal->ops->scratch (hal, SIMAFW_QT_OUT_SLOT);
  if (!in[0] || !in[1] || !out[0] || !out[1])
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "QuantTess worker %lu: local memory for two 18 KiB + 6 KiB slots is "
        "not available", (unsigned long) hal->worker_id);

  task_iter_start (&it, job, chunk, &runs, weight, first);
  task_next (&it, &task[0]);
  err |= gather (hal, TAG_IN0, job, &task[0], in[0]);
  for (k = first; k < last && !err; k++) {
    s = (int) ((k - first) & 1);
    err |= hal->ops->wait (hal, TAG_IN0 + (unsigned) s);
    if (k + 1 < last) {
      /* the other input slot's last reader was the previous convert */
      task_next (&it, &task[1 - s]);
      err |= gather (hal, TAG_IN0 + (unsigned) (1 - s), job, &task[1 - s],
          in[1 - s]);
    }
    if (k - first >= 2)         /* this output slot's previous write */
      err |= hal->ops->wait (hal, TAG_OUT0 + (unsigned) s);
    if (err)
      break;
    convert (job, &task[s], in[s], out[s]);
    err |= hal->ops->write_2d (hal, TAG_OUT0 + (unsigned) s,
        (uint32_t) (job->output_bus + task[s].tile_offset + task[s].b0), 0,
        out[s], 0, (uint32_t) (task[s].b1 - task[s].b0), 1);
  }
  /* never return with a transfer in flight, failed or not */
  for (s = 0; s < SIMA_FW_DMA_TAGS; s++)
    err |= hal->ops->wait (hal, (unsigned) s);
  if (err)
    return sima_status_make (SIMA_DMA_ERROR,
        "QuantTess worker %lu: a DMA transfer failed",
        (unsigned long) hal->worker_id);
  return sima_status_ok ();
}
