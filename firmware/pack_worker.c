/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The pack worker of the EV74 firmware (QuantTess and CastTess).
 *
 * Work is cut into tasks: each tile of the output (in physical order) is cut
 * into chunks of at most one output slot, at 16-byte boundaries. Worker w of
 * N takes the contiguous task range [w*T/N, (w+1)*T/N), so every worker owns
 * one contiguous run of whole, 16-byte aligned output intervals and no two
 * workers ever write the same alignment block. T and each worker's first
 * tile come from the class-weighted run sums of the geometry, in O(1): no
 * worker walks the tiles before its own.
 *
 * Each task: gather the input values its output bytes need (and only those:
 * holes are never read) into a local input slot with 1D/2D DMA, wait,
 * convert them in place into codes (an INT8 result or BF16 bits),
 * lay the codes out in the output slot (INT8: one byte per stored channel;
 * BF16: the pixel's low-byte plane, then its high-byte plane; padding
 * channels and the alignment gap written every time), and write the slot
 * with one DMA. The tile is a sequence of *units*: a pixel's stored
 * channels, or with cblock (docs/layout.md) the 16 stored channels of one
 * pixel in one 16-channel block (block b holds every pixel of the tile,
 * units b*P .. b*P + P-1). Two slots alternate: the next task's input is in flight
 * while the current one is converted, and an output slot is reused only
 * after its previous write has completed. The arithmetic is the
 * sixteen-lane block conversion of each operation (quant_vec.h,
 * cast_vec.h), prepared once per job, whose results never depend on the
 * device's handling of subnormals.
 */
#include <string.h>

#include <simaai/kernels/ev74/wire.h>

#include "dma_blocks.h"
#include "pack_fw.h"
#include "pack_special.h"

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
  uint64_t max_chunk;
  const SimaFwPackJob *job;
  int in_tile;
} TaskIter;

/* Channels [a, b) of one unit (relative to the unit's first channel). */
typedef struct {
  int64_t a, b;
} Range;

/* One unit of a tile: its pixel (D, H, W order inside the tile), its first
 * channel and its value channels. */
typedef struct {
  int64_t pixel, base, ec;
} Unit;

/* Stored channels of a unit of a class's tiles. */
static uint64_t
unit_stored (const SimaFwPackJob *job, const SimaTileClass *cls)
{
  return job->output_geometry.tiled.cblock ? 16
      : (uint64_t) cls->stored_channels;
}

static void
unit_of (const SimaFwPackJob *job, const SimaTileClass *cls, int64_t u,
    Unit *x)
{
  const int64_t ec = cls->extent[SIMA_MLA_C];

  if (job->output_geometry.tiled.cblock) {
    int64_t pixels = cls->extent[SIMA_MLA_D] * cls->extent[SIMA_MLA_H]
        * cls->extent[SIMA_MLA_W];
    x->pixel = u % pixels;
    x->base = 16 * (u / pixels);
    x->ec = ec - x->base < 16 ? ec - x->base : 16;   /* >= 1: pad16 */
  } else {
    x->pixel = u;
    x->base = 0;
    x->ec = ec;
  }
}

static uint64_t
gcd (uint64_t a, uint64_t b)
{
  while (b != 0) {
    uint64_t r = a % b;
    a = b;
    b = r;
  }
  return a;
}

/* The task size inside tiles of a class: at most max (a multiple of 16).
 * With BF16 byte planes, a boundary inside a pixel would split channels
 * between their low and high bytes, and both tasks would read them; so
 * tasks hold whole pixels, a multiple of lcm(pixel bytes, 16), whenever
 * that fits. Only pixels too large for it (thousands of odd channels) are
 * split, re-reading the values at the split. INT8 has one byte per value:
 * any 16-byte boundary is fine. */
static uint64_t
class_chunk (const SimaFwPackJob *job, const SimaTileClass *cls, uint64_t max)
{
  uint64_t px, step;

  if (job->output_geometry.element_bytes == 1 || cls->stored_channels == 0)
    return max;
  px = unit_stored (job, cls) * 2;   /* whole units: 32 bytes with cblock */
  step = px / gcd (px, 16) * 16;
  return step <= max ? max / step * step : max;
}

/* Tasks per tile class: ceil(span / chunk). With sima_tiled_runs these give
 * the task count and, through sima_tiled_locate, any task's tile in O(1). */
static void
task_weights (const SimaFwPackJob *job, uint64_t max,
    uint64_t weight[SIMA_TILE_CLASS_COUNT])
{
  const SimaTiledGeometry *g = &job->output_geometry;
  int k;
  for (k = 0; k < SIMA_TILE_CLASS_COUNT; k++) {
    uint64_t chunk = class_chunk (job, &g->classes[k], max);
    weight[k] = g->classes[k].count == 0 ? 0
        : (g->classes[k].span_bytes + chunk - 1) / chunk;
  }
}

/* Starts the iterator at task `first` without walking the tasks before. */
static void
task_iter_start (TaskIter *it, const SimaFwPackJob *job, uint64_t max,
    const SimaTileRuns *runs, const uint64_t *weight, uint64_t first)
{
  uint64_t outer, inside;
  int64_t tile_index[4];

  sima_tiled_locate (&job->output_geometry, runs, weight, first, &outer,
      tile_index, &inside);
  sima_tile_cursor_init (&it->cur, &job->output_geometry, &job->walk);
  sima_tile_cursor_seek (&it->cur, outer, tile_index);
  it->job = job;
  it->max_chunk = max;
  it->next_b0 = inside * class_chunk (job, it->cur.cls, max);
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
  t->b1 = t->b0 + class_chunk (it->job, t->cls, it->max_chunk);
  t->b1 = t->b1 < t->cls->span_bytes ? t->b1 : t->cls->span_bytes;
  it->next_b0 = t->b1;
  return 1;
}

/* Bytes of one unit in the tile: its stored channels times planes. */
static uint64_t
unit_bytes (const SimaFwPackJob *job, const Task *t)
{
  return unit_stored (job, t->cls)
      * (uint64_t) job->output_geometry.element_bytes;
}

/* The value channels unit u needs for the task's bytes [b0, hi): per byte
 * plane the channels whose byte lies in range, clipped to the value
 * channels, sorted and merged. 0, 1 or 2 ranges (2 when a task starts in a
 * BF16 unit's low plane and ends in its high plane). */
static int
pixel_ranges (const SimaFwPackJob *job, const Task *t, int64_t u,
    uint64_t hi, Range r[2])
{
  const uint64_t s = unit_stored (job, t->cls);
  const int planes = job->output_geometry.element_bytes;
  uint64_t base = (uint64_t) u * unit_bytes (job, t);
  Unit x;
  int64_t ec;
  int k, n = 0;

  unit_of (job, t->cls, u, &x);
  ec = x.ec;
  for (k = 0; k < planes; k++) {
    uint64_t start = base + (uint64_t) k * s, end = start + s;
    uint64_t lo = t->b0 > start ? t->b0 : start, top = hi < end ? hi : end;
    int64_t a, b;
    if (lo >= top)
      continue;
    a = (int64_t) (lo - start);
    b = (int64_t) (top - start) < ec ? (int64_t) (top - start) : ec;
    if (a < b)
      r[n++] = (Range) { a, b };
  }
  if (n == 2 && r[1].a < r[0].a) {
    Range tmp = r[0];
    r[0] = r[1];
    r[1] = tmp;
  }
  if (n == 2 && r[1].a <= r[0].b) {
    r[0].b = r[1].b > r[0].b ? r[1].b : r[0].b;
    n = 1;
  }
  return n;
}

/* Bus address of pixel p of the task's tile (channel 0; a unit adds its
 * first channel). */
static uint64_t
pixel_bus (const SimaFwPackJob *job, const Task *t, int64_t p)
{
  const int64_t *s = job->walk.dim_stride;
  int64_t ew = t->cls->extent[SIMA_MLA_W], eh = t->cls->extent[SIMA_MLA_H];
  int64_t w = p % ew, h = (p / ew) % eh, d = p / (ew * eh);

  return (uint64_t) job->input_bus + (uint64_t) (t->view_offset
      + d * s[SIMA_MLA_D] + h * s[SIMA_MLA_H] + w * s[SIMA_MLA_W]);
}

/* Whole pixels of a source whose channels are not adjacent (channels-first
 * views): n pixels at a constant bus pitch, landing packed in local memory. */
typedef struct {
  uint64_t bus, pitch;
  uint32_t n;
  uint8_t *local;
  int64_t channels;             /* of every pixel of the run */
} PixelRun;

/* One 2D transfer per channel across the run, or one per pixel across its
 * channels, whichever issues fewer commands. */
static int
run_flush (SimaFwHal *hal, unsigned tag, PixelRun *r, uint64_t sc,
    uint32_t scalar)
{
  const int64_t channels = r->channels;
  uint32_t px = (uint32_t) channels * scalar, i;
  int err = 0;

  if ((uint64_t) channels <= r->n) {
    for (i = 0; i < (uint32_t) channels; i++)
      err |= simafw_read_2d (hal, tag, r->local + i * scalar, px,
          r->bus + i * sc, r->pitch, scalar, r->n);
  } else {
    for (i = 0; i < r->n; i++)
      err |= simafw_read_2d (hal, tag, r->local + i * px, scalar,
          r->bus + (uint64_t) i * r->pitch, sc, scalar, (uint32_t) channels);
  }
  r->n = 0;
  return err;
}

static int
run_add (SimaFwHal *hal, unsigned tag, PixelRun *r, uint64_t bus,
    uint8_t *local, int64_t channels, uint64_t sc, uint32_t scalar)
{
  int err;

  if (r->n == 1 && channels == r->channels && bus > r->bus
      && bus - r->bus < SIMA_EV74_APERTURE_LIMIT) {
    r->pitch = bus - r->bus;
    r->n = 2;
    return 0;
  }
  if (r->n > 1 && channels == r->channels
      && bus == r->bus + (uint64_t) r->n * r->pitch) {
    r->n++;
    return 0;
  }
  err = run_flush (hal, tag, r, sc, scalar);
  r->bus = bus;
  r->n = 1;
  r->local = local;
  r->channels = channels;
  return err;
}

/* Issues the input transfers of a task: for every pixel, the value channels
 * of its ranges, packed in that order. Adjacent source bytes become
 * segments and equal segments at a constant pitch 2D blocks (dma_blocks.h),
 * so a tile of contiguous pixel rows is one transfer; whole pixels of a
 * channels-first source become pixel runs. */
static int
gather (SimaFwHal *hal, unsigned tag, const SimaFwPackJob *job,
    const Task *t, uint8_t *local)
{
  const SimaTileClass *cls = t->cls;
  const int64_t ec = cls->extent[SIMA_MLA_C];
  const uint64_t scalar = (uint64_t) job->input_view.scalar_bytes;
  const uint64_t sc = (uint64_t) job->walk.dim_stride[SIMA_MLA_C];
  const uint64_t ub = unit_bytes (job, t);
  const int adjacent = ec == 1 || sc == scalar;   /* channels side by side */
  uint64_t hi = t->b1 < cls->payload_bytes ? t->b1 : cls->payload_bytes;
  uint64_t at = 0;
  SimaFwSegments seg;
  PixelRun run = { 0, 0, 0, local, 0 };
  int64_t u;
  int err = 0;

  simafw_segments_init (&seg, 0, tag);
  for (u = (int64_t) (t->b0 / ub); (uint64_t) u * ub < hi; u++) {
    Range r[2];
    int n = pixel_ranges (job, t, u, hi, r), i;
    Unit x;
    uint64_t base;

    unit_of (job, cls, u, &x);
    base = pixel_bus (job, t, x.pixel) + (uint64_t) x.base * sc;
    if (n == 1 && r[0].a == 0 && r[0].b == x.ec && !adjacent) {
      err |= run_add (hal, tag, &run, base, local + at, x.ec, sc,
          (uint32_t) scalar);
      at += (uint64_t) x.ec * scalar;
      continue;
    }
    for (i = 0; i < n; i++) {
      uint64_t bus = base + (uint64_t) r[i].a * sc;
      uint64_t bytes = (uint64_t) (r[i].b - r[i].a) * scalar;
      if (!adjacent) {          /* part of a pixel, channels apart */
        PixelRun one = { bus, 0, 1, local + at, r[i].b - r[i].a };
        err |= run_flush (hal, tag, &run, sc, (uint32_t) scalar);
        err |= run_flush (hal, tag, &one, sc, (uint32_t) scalar);
      } else {
        err |= simafw_segments_add (hal, &seg, bus, bytes, local + at);
      }
      at += bytes;
    }
  }
  err |= run_flush (hal, tag, &run, sc, (uint32_t) scalar);
  return err | simafw_segments_flush (hal, &seg);
}

/* Converts n staged scalars at src into the job's output codes at dst:
 * QuantTess one INT8 byte per value (quant_vec.h), CastTess the two bytes
 * (little-endian) of its BF16 bits (cast_vec.h), each block's arithmetic
 * prepared once per job. dst may be src (in place). */
void
simafw_pack_convert (const SimaFwPackJob *job, const uint8_t *src,
    uint8_t *dst, uint32_t n)
{
  if (job->route == SIMA_EV74_ROUTE_QUANTTESS)
    simafw_quant_block (&job->quant, src, dst, n);
  else
    simafw_cast_block (&job->cast, src, dst, n);
}

/* Lays the codes out as the task's output bytes: per unit and plane, the
 * code byte of each value channel or the padding byte, then zero up to b1. */
static void
emit (const SimaFwPackJob *job, const Task *t, const uint8_t *codes,
    uint8_t *out)
{
  const SimaTileClass *cls = t->cls;
  const uint64_t s = unit_stored (job, cls), px = unit_bytes (job, t);
  const int planes = job->output_geometry.element_bytes;
  uint64_t hi = t->b1 < cls->payload_bytes ? t->b1 : cls->payload_bytes;
  uint64_t done = 0;            /* codes consumed by earlier units */
  int64_t p;

  for (p = (int64_t) (t->b0 / px); (uint64_t) p * px < hi; p++) {
    Range r[2];
    int n = pixel_ranges (job, t, p, hi, r), k;
    uint64_t first = n > 0 ? (uint64_t) (r[0].b - r[0].a) : 0;
    Unit x;
    int64_t ec;

    unit_of (job, cls, p, &x);
    ec = x.ec;
    for (k = 0; k < planes; k++) {
      uint64_t start = (uint64_t) p * px + (uint64_t) k * s;
      uint64_t lo = t->b0 > start ? t->b0 : start;
      uint64_t top = hi < start + s ? hi : start + s, pos;
      for (pos = lo; pos < top; pos++) {
        int64_t c = (int64_t) (pos - start);
        uint64_t idx;
        if (c >= ec) {
          *out++ = job->padding;
          continue;
        }
        idx = done + (c < r[0].b ? (uint64_t) (c - r[0].a)
            : first + (uint64_t) (c - r[1].a));
        *out++ = codes[(uint64_t) planes * idx + (unsigned) k];
      }
    }
    done += n == 0 ? 0 : first + (n == 2 ? (uint64_t) (r[1].b - r[1].a) : 0);
  }
  if (t->b1 > hi)
    memset (out, 0, (size_t) (t->b1 - hi));   /* alignment-only gap */
}

/* Values gathered for a task (what convert has to process). */
static uint64_t
task_values (const SimaFwPackJob *job, const Task *t)
{
  uint64_t hi = t->b1 < t->cls->payload_bytes ? t->b1 : t->cls->payload_bytes;
  uint64_t px = unit_bytes (job, t), n = 0;
  int64_t p;

  for (p = (int64_t) (t->b0 / px); (uint64_t) p * px < hi; p++) {
    Range r[2];
    int k, m = pixel_ranges (job, t, p, hi, r);
    for (k = 0; k < m; k++)
      n += (uint64_t) (r[k].b - r[k].a);
  }
  return n;
}

SimaStatus
simafw_pack_run (SimaFwHal *hal, const SimaFwPackJob *job)
{
  const uint64_t scalar = (uint64_t) job->input_view.scalar_bytes;
  /* the largest 16-byte multiple whose values fit an input slot too (a
   * task never needs more values than it has output bytes) */
  const uint64_t max_chunk = (SIMAFW_PACK_IN_SLOT / scalar < SIMAFW_PACK_OUT_SLOT
      ? SIMAFW_PACK_IN_SLOT / scalar : SIMAFW_PACK_OUT_SLOT) & ~(uint64_t) 15;
  uint64_t weight[SIMA_TILE_CLASS_COUNT];
  uint8_t *in[2], *out[2];
  SimaTileRuns runs;
  Task task[2];
  TaskIter it;
  uint64_t tasks, first, last, k;
  int err = 0, s;

  if (job->element_count == 0)
    return sima_status_ok ();
  /* specialised workers for a few shapes (pack_special.c), chosen once */
  switch (simafw_pack_select (job)) {
  case SIMAFW_PACK_WORKER_GROUPED_C16:
    return simafw_pack_run_grouped_c16 (hal, job);
  case SIMAFW_PACK_WORKER_RGB_PAD16:
    return simafw_pack_run_rgb_pad16 (hal, job);
  case SIMAFW_PACK_WORKER_COMPACT_TILE:
    return simafw_pack_run_compact_tile (hal, job);
  default:
    break;
  }
  /* spans are below 2^32 and chunks at least 16 bytes: no overflow */
  task_weights (job, max_chunk, weight);
  sima_tiled_runs (&job->output_geometry, weight, &runs);
  tasks = job->output_geometry.outer_count * runs.slice;
  first = tasks * hal->worker_id / hal->worker_count;
  last = tasks * (hal->worker_id + 1) / hal->worker_count;
  if (first == last)
    return sima_status_ok ();

  in[0] = hal->ops->scratch (hal, SIMAFW_PACK_IN_SLOT);
  in[1] = hal->ops->scratch (hal, SIMAFW_PACK_IN_SLOT);
  out[0] = hal->ops->scratch (hal, SIMAFW_PACK_OUT_SLOT);
  out[1] = hal->ops->scratch (hal, SIMAFW_PACK_OUT_SLOT);
  if (!in[0] || !in[1] || !out[0] || !out[1])
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "%s worker %lu: local memory for two 18 KiB + 6 KiB slots is not "
        "available", job->op, (unsigned long) hal->worker_id);

  task_iter_start (&it, job, max_chunk, &runs, weight, first);
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
    simafw_pack_convert (job, in[s], in[s],
        (uint32_t) task_values (job, &task[s]));
    emit (job, &task[s], in[s], out[s]);
    err |= simafw_write_exact (hal, TAG_OUT0 + (unsigned) s,
        (uint32_t) (job->output_bus + task[s].tile_offset + task[s].b0), 0,
        out[s], 0, (uint32_t) (task[s].b1 - task[s].b0), 1);
  }
  return simafw_pack_drain (hal, job, err);
}

SimaStatus
simafw_pack_drain (SimaFwHal *hal, const SimaFwPackJob *job, int err)
{
  return simafw_dma_drain (hal, err, job->op);
}
