/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The DetessCast worker of the EV74 firmware (route 52).
 *
 * Ownership is DetessDequant's (detessdequant_worker.c): workers own
 * output, not input tiles. The logical elements, in row-major order, are
 * cut into panels of at most 2,048. A dense output is shared: worker w
 * takes the elements between two boundaries that fall on 16-byte aligned
 * bus addresses (derived from the output address itself), so neighbouring
 * workers never write into the same 16-byte block and every write is
 * exactly the bytes of its elements. A strided output has a single owner
 * (worker 0): holes are never written.
 *
 * Per panel: gather the low and the high bytes of its BF16 values from the
 * tiles, each plane into its own half of an input slot, in output order.
 * A run along the innermost logical axis inside one tile reads its low
 * bytes and, stored_channels bytes further on (16 with cblock, where each
 * 16-channel block is its own byte-plane pair), its high bytes: channel
 * runs are contiguous bytes in both planes, merged into 2D transfers across
 * pixels; other axes are a byte per row at the tile's pitch. Channel
 * padding and alignment gaps are never read. Then wait, assemble every
 * result from its two bytes (FP32: 00 00 lo hi, the BF16 bits << 16; BF16:
 * lo hi; sixteen lanes at a time, vec16.h) with no arithmetic on the
 * value, and write the panel (one transfer
 * when dense, exact runs when strided). Slots alternate as in the pack
 * worker.
 */
#include <string.h>

#include <simaai/kernels/ev74/detesscast_wire.h>

#include "detesscast_fw.h"
#include "dense_output.h"
#include "dma_blocks.h"
#include "vec16.h"

enum { TAG_IN0 = 0, TAG_OUT0 = 2 };

typedef struct {
  uint64_t e0, e1;              /* elements [e0, e1) of the output */
} Panel;

/* Row-major coordinates of element e. */
static void
coords_of (const SimaDetessCastPlan *plan, uint64_t e, int64_t *coord)
{
  int a;
  for (a = plan->input.rank - 1; a >= 0; a--) {
    coord[a] = (int64_t) (e % (uint64_t) plan->input.shape[a]);
    e /= (uint64_t) plan->input.shape[a];
  }
}

/* Moves coord n elements on along the innermost axis (n never passes its
 * end), carrying into the outer axes. */
static void
advance (const SimaDetessCastPlan *plan, int64_t *coord, uint64_t n)
{
  int a = plan->input.rank - 1;
  coord[a] += (int64_t) n;
  while (a > 0 && coord[a] == plan->input.shape[a]) {
    coord[a] = 0;
    coord[--a]++;
  }
}

/* The run of elements starting at coord along the innermost logical axis
 * inside one tile: where its first low byte is, how far its high bytes are
 * from its low bytes, the step between its values and how many elements it
 * holds. */
static void
source_run (const SimaDetessCastPlan *plan, const int64_t *coord,
    uint64_t *offset, uint64_t *high, uint64_t *step, uint64_t *limit)
{
  const SimaTiledGeometry *g = &plan->input_geometry;
  const int a = plan->input.rank - 1;
  const SimaTileClass *cls;
  int64_t ti[4], left = plan->input.shape[a] - coord[a], tile, unit;
  int k, role = -1;

  *offset = sima_tiled_element_offset (g, coord);
  for (k = 0; k < 4; k++) {
    ti[k] = g->tiled.axes[k] >= 0 ? coord[g->tiled.axes[k]]
        / g->tiled.tile_shape[k] : 0;
    if (g->tiled.axes[k] == a)
      role = k;
  }
  cls = &g->classes[sima_tiled_class_of (g, ti)];
  /* channels a pixel keeps together in each plane: all its stored
   * channels, or with cblock the 16 of its block */
  unit = g->tiled.cblock ? 16 : cls->stored_channels;
  *high = (uint64_t) unit;
  if (role < 0) {               /* the fastest outer axis: whole slices */
    *step = g->span_runs.slice;
    *limit = (uint64_t) left;
    return;
  }
  tile = g->tiled.tile_shape[role] - coord[a] % g->tiled.tile_shape[role];
  if (role == SIMA_MLA_C && g->tiled.cblock) {
    int64_t block = 16 - coord[a] % g->tiled.tile_shape[role] % 16;
    tile = tile < block ? tile : block;
  }
  *limit = (uint64_t) (left < tile ? left : tile);
  switch (role) {
    case SIMA_MLA_C:
      *step = 1;
      break;
    case SIMA_MLA_W:
      *step = (uint64_t) (2 * unit);
      break;
    case SIMA_MLA_H:
      *step = (uint64_t) (cls->extent[SIMA_MLA_W] * 2 * unit);
      break;
    default:
      *step = (uint64_t) (cls->extent[SIMA_MLA_H] * cls->extent[SIMA_MLA_W]
          * 2 * unit);
  }
}

/* Issues the reads of a panel's low bytes into lo[] and high bytes into
 * hi[], both in output order. */
static int
gather (SimaFwHal *hal, unsigned tag, const SimaFwDetessCastJob *job,
    const Panel *p, uint8_t *lo, uint8_t *hi)
{
  const SimaDetessCastPlan *plan = &job->plan;
  int64_t coord[SIMA_MAX_RANK];
  SimaFwSegments seg_lo, seg_hi;
  uint64_t e = p->e0;
  int err = 0;

  simafw_segments_init (&seg_lo, 0, tag);
  simafw_segments_init (&seg_hi, 0, tag);
  coords_of (plan, e, coord);
  while (e < p->e1) {
    uint64_t off, high, step, n, i = e - p->e0;
    source_run (plan, coord, &off, &high, &step, &n);
    n = n < p->e1 - e ? n : p->e1 - e;
    if (step == 1 || n == 1) {
      err |= simafw_segments_add (hal, &seg_lo, job->input_bus + off, n,
          lo + i);
      err |= simafw_segments_add (hal, &seg_hi, job->input_bus + off + high,
          n, hi + i);
    } else {                    /* one byte per row at the tile's pitch */
      err |= simafw_read_2d (hal, tag, lo + i, 1, job->input_bus + off,
          step, 1, (uint32_t) n);
      err |= simafw_read_2d (hal, tag, hi + i, 1,
          job->input_bus + off + high, step, 1, (uint32_t) n);
    }
    advance (plan, coord, n);
    e += n;
  }
  err |= simafw_segments_flush (hal, &seg_lo);
  return err | simafw_segments_flush (hal, &seg_hi);
}

/* Issues the writes of a panel's results from `local`. */
static int
scatter (SimaFwHal *hal, unsigned tag, const SimaFwDetessCastJob *job,
    const Panel *p, uint8_t *local)
{
  const SimaDetessCastPlan *plan = &job->plan;
  const SimaStridedView *v = &plan->output_view;
  const uint64_t scalar = (uint64_t) v->scalar_bytes;
  const int a = plan->input.rank - 1;
  int64_t coord[SIMA_MAX_RANK];
  SimaFwSegments seg;
  uint64_t e = p->e0;
  int err = 0, k;

  if (!(job->flags & SIMA_EV74_DC_FLAG_STRIDED))   /* dense: one transfer */
    return simafw_write_exact (hal, tag,
        (uint32_t) (job->output_bus + p->e0 * scalar), 0, local, 0,
        (uint32_t) ((p->e1 - p->e0) * scalar), 1);
  simafw_segments_init (&seg, 1, tag);
  coords_of (plan, e, coord);
  while (e < p->e1) {
    uint64_t off = 0, step = (uint64_t) v->strides_bytes[a];
    uint64_t n = (uint64_t) (plan->input.shape[a] - coord[a]);
    uint8_t *src = local + (e - p->e0) * scalar;
    n = n < p->e1 - e ? n : p->e1 - e;
    for (k = 0; k <= a; k++)
      off += (uint64_t) coord[k] * (uint64_t) v->strides_bytes[k];
    if (step == scalar || n == 1)
      err |= simafw_segments_add (hal, &seg, job->output_bus + off,
          n * scalar, src);
    else                        /* exact scalars at the output's pitch */
      err |= simafw_write_exact (hal, tag, (uint32_t) (job->output_bus + off),
          (uint32_t) step, src, (uint32_t) scalar, (uint32_t) scalar,
          (uint32_t) n);
    advance (plan, coord, n);
    e += n;
  }
  return err | simafw_segments_flush (hal, &seg);
}

/* Sixteen results from the sixteen low and high bytes at lo and hi: FP32
 * 00 00 lo hi (the BF16 bits << 16), BF16 lo hi. A pure move of the BF16
 * bits, no arithmetic on the value. */
SIMA_V16_INLINE void
assemble_lanes (const uint8_t *lo, const uint8_t *hi, uint8_t *out, int f32)
{
  SimaV16u bits = sima_v16_load_u8 (lo) | sima_v16_load_u8 (hi) << 8;

  if (f32)
    sima_v16_store_u32 (out, bits << 16);
  else
    sima_v16_store_u16 (out, bits);
}

/* The panel's results, sixteen at a time; the last n % 16 through the same
 * lanes on zero-padded copies of their bytes, of which only their results
 * are copied out. */
static void
assemble (const SimaFwDetessCastJob *job, const Panel *p, const uint8_t *lo,
    const uint8_t *hi, uint8_t *out)
{
  const int f32 = job->plan.output.dtype == SIMA_DTYPE_FLOAT32;
  const uint32_t size = f32 ? 4 : 2;
  const uint32_t n = (uint32_t) (p->e1 - p->e0);        /* <= a panel */
  uint32_t i;

  for (i = 0; i + SIMA_V16_LANES <= n; i += SIMA_V16_LANES)
    assemble_lanes (lo + i, hi + i, out + (uint64_t) i * size, f32);
  if (i < n) {
    uint8_t l[SIMA_V16_LANES], h[SIMA_V16_LANES], r[4 * SIMA_V16_LANES];
    memset (l, 0, sizeof l);
    memset (h, 0, sizeof h);
    memcpy (l, lo + i, n - i);
    memcpy (h, hi + i, n - i);
    assemble_lanes (l, h, r, f32);
    memcpy (out + (uint64_t) i * size, r, (size_t) (n - i) * size);
  }
}

/* The end of the panel starting at e0: dense outputs cut at aligned
 * element boundaries (dense_output.h), strided ones every panel. */
static uint64_t
panel_end (const SimaFwDenseOutput *d, int strided, uint64_t e0,
    uint64_t last)
{
  if (strided)
    return e0 + d->panel < last ? e0 + d->panel : last;
  return simafw_dense_panel_end (d, e0, last);
}

SimaStatus
simafw_detesscast_run (SimaFwHal *hal, const SimaFwDetessCastJob *job)
{
  const uint64_t scalar = (uint64_t) job->plan.output_view.scalar_bytes;
  uint8_t *in[2], *out[2];
  Panel panel[2];
  const int strided = (job->flags & SIMA_EV74_DC_FLAG_STRIDED) != 0;
  SimaFwDenseOutput dense;
  uint64_t first, last, k, panels, e;
  int err = 0, s;

  if (job->plan.element_count == 0)
    return sima_status_ok ();
  simafw_dense_output_init (&dense, job->plan.element_count,
      (uint32_t) scalar, job->output_bus, SIMAFW_DC_PANEL);
  if (strided) {
    if (hal->worker_id != 0)
      return sima_status_ok ();
    first = 0;
    last = job->plan.element_count;
  } else {
    first = simafw_dense_boundary (&dense, hal->worker_id,
        hal->worker_count);
    last = simafw_dense_boundary (&dense, hal->worker_id + 1,
        hal->worker_count);
  }
  if (first == last)
    return sima_status_ok ();

  /* each input slot: the low plane, then the high plane */
  in[0] = hal->ops->scratch (hal, 2 * SIMAFW_DC_PANEL);
  in[1] = hal->ops->scratch (hal, 2 * SIMAFW_DC_PANEL);
  out[0] = hal->ops->scratch (hal, (uint32_t) (SIMAFW_DC_PANEL * scalar));
  out[1] = hal->ops->scratch (hal, (uint32_t) (SIMAFW_DC_PANEL * scalar));
  if (!in[0] || !in[1] || !out[0] || !out[1])
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "DetessCast worker %lu: local memory for two panel slots is not "
        "available", (unsigned long) hal->worker_id);

  for (panels = 0, e = first; e < last; panels++)
    e = panel_end (&dense, strided, e, last);
  panel[0].e0 = first;
  panel[0].e1 = panel_end (&dense, strided, first, last);
  err |= gather (hal, TAG_IN0, job, &panel[0], in[0], in[0] + SIMAFW_DC_PANEL);
  for (k = 0; k < panels && !err; k++) {
    s = (int) (k & 1);
    err |= hal->ops->wait (hal, TAG_IN0 + (unsigned) s);
    if (k + 1 < panels) {
      Panel *next = &panel[1 - s];
      next->e0 = panel[s].e1;
      next->e1 = panel_end (&dense, strided, next->e0, last);
      err |= gather (hal, TAG_IN0 + (unsigned) (1 - s), job, next, in[1 - s],
          in[1 - s] + SIMAFW_DC_PANEL);
    }
    if (k >= 2)                 /* this output slot's previous write */
      err |= hal->ops->wait (hal, TAG_OUT0 + (unsigned) s);
    if (err)
      break;
    assemble (job, &panel[s], in[s], in[s] + SIMAFW_DC_PANEL, out[s]);
    err |= scatter (hal, TAG_OUT0 + (unsigned) s, job, &panel[s], out[s]);
  }
  return simafw_dma_drain (hal, err, "DetessCast");
}
