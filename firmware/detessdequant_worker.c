/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The DetessDequant worker of the EV74 firmware.
 *
 * Workers own output, not input tiles: the logical elements, in row-major
 * order, are cut into panels of at most 4,096. A dense output is shared:
 * worker w takes the elements between two boundaries that fall on 16-byte
 * aligned bus addresses (derived from the output address itself), so the
 * interiors are whole aligned intervals and only the global head and tail
 * are partial; every write is exactly the bytes of its elements. A strided
 * output has a single owner (worker 0): holes are never written.
 *
 * Per panel: gather its INT8 values from the tiles, in output order, into a
 * 4 KiB input slot (runs along the innermost logical axis: channel runs are
 * contiguous bytes, merged into 2D transfers across pixels; other axes are
 * a byte per row at the tile's pitch; padding and gaps are never read;
 * cblock tiles cut channel runs at their 16-channel blocks),
 * wait, convert the panel with the job's block arithmetic (dequant_vec.h:
 * vector lanes for an admitted normal scale, the exact table otherwise),
 * and write the results (one transfer for a dense panel, exact runs for a
 * strided one). Slots alternate as in the pack worker.
 *
 * The selector (detessdequant_special.h) runs first: the tile-band worker
 * takes its jobs whole; the direct-input one is this loop with a panel's
 * values one read.
 */
#include <string.h>

#include <simaai/kernels/ev74/detessdequant_wire.h>

#include "detessdequant_fw.h"
#include "detessdequant_special.h"
#include "dense_output.h"
#include "dequant_vec.h"
#include "dma_blocks.h"

enum { TAG_IN0 = 0, TAG_OUT0 = 2 };

typedef struct {
  uint64_t e0, e1;              /* elements [e0, e1) of the output */
} Panel;

/* Row-major coordinates of element e. */
static void
coords_of (const SimaDetessDequantPlan *plan, uint64_t e, int64_t *coord)
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
advance (const SimaDetessDequantPlan *plan, int64_t *coord, uint64_t n)
{
  int a = plan->input.rank - 1;
  coord[a] += (int64_t) n;
  while (a > 0 && coord[a] == plan->input.shape[a]) {
    coord[a] = 0;
    coord[--a]++;
  }
}

/* The run of elements starting at coord along the innermost logical axis
 * inside one tile: where its first value is in the tiled input, the step
 * between its values, and how many elements it holds. */
static void
source_run (const SimaDetessDequantPlan *plan, const int64_t *coord,
    uint64_t *offset, uint64_t *step, uint64_t *limit)
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
  if (role < 0) {               /* the fastest outer axis: whole slices */
    *step = g->span_runs.slice;
    *limit = (uint64_t) left;
    return;
  }
  cls = &g->classes[sima_tiled_class_of (g, ti)];
  tile = g->tiled.tile_shape[role] - coord[a] % g->tiled.tile_shape[role];
  /* channels a pixel keeps together: all its stored channels, or with
   * cblock the 16 of its block (the next block is P pixels further on) */
  unit = g->tiled.cblock ? 16 : cls->stored_channels;
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
      *step = (uint64_t) unit;
      break;
    case SIMA_MLA_H:
      *step = (uint64_t) (cls->extent[SIMA_MLA_W] * unit);
      break;
    default:
      *step = (uint64_t) (cls->extent[SIMA_MLA_H] * cls->extent[SIMA_MLA_W]
          * unit);
  }
}

/* Issues the reads of a panel's values into `local`, in output order.
 * direct: the logical input is the tiled buffer's first element_count
 * bytes (simafw_detessdequant_select), so the panel is one read. */
static int
gather (SimaFwHal *hal, unsigned tag, const SimaFwDetessDequantJob *job,
    int direct, const Panel *p, uint8_t *local)
{
  const SimaDetessDequantPlan *plan = &job->plan;
  int64_t coord[SIMA_MAX_RANK];
  SimaFwSegments seg;
  uint64_t e = p->e0;
  int err = 0;

  if (direct)
    return simafw_read_2d (hal, tag, local, 0, job->input_bus + p->e0, 0,
        (uint32_t) (p->e1 - p->e0), 1);
  simafw_segments_init (&seg, 0, tag);
  coords_of (plan, e, coord);
  while (e < p->e1) {
    uint64_t off, step, n;
    source_run (plan, coord, &off, &step, &n);
    n = n < p->e1 - e ? n : p->e1 - e;
    if (step == 1 || n == 1)
      err |= simafw_segments_add (hal, &seg, job->input_bus + off, n,
          local + (e - p->e0));
    else                        /* one byte per row at the tile's pitch */
      err |= simafw_read_2d (hal, tag, local + (e - p->e0), 1,
          job->input_bus + off, step, 1, (uint32_t) n);
    advance (plan, coord, n);
    e += n;
  }
  return err | simafw_segments_flush (hal, &seg);
}

/* Issues the writes of a panel's results from `local`. */
static int
scatter (SimaFwHal *hal, unsigned tag, const SimaFwDetessDequantJob *job,
    const Panel *p, uint8_t *local)
{
  const SimaDetessDequantPlan *plan = &job->plan;
  const SimaStridedView *v = &plan->output_view;
  const uint64_t scalar = (uint64_t) v->scalar_bytes;
  const int a = plan->input.rank - 1;
  int64_t coord[SIMA_MAX_RANK];
  SimaFwSegments seg;
  uint64_t e = p->e0;
  int err = 0, k;

  if (!(job->flags & SIMA_EV74_DD_FLAG_STRIDED))   /* dense: one transfer */
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

/* A panel's results: the job's block arithmetic (dequant_vec.h), prepared
 * once by the decoder; a panel has at most SIMAFW_DD_PANEL elements. */
static void
convert (const SimaFwDetessDequantJob *job, const Panel *p, const uint8_t *in,
    uint8_t *out)
{
  simafw_dequant_block (&job->block, in, out, (uint32_t) (p->e1 - p->e0));
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
simafw_detessdequant_run (SimaFwHal *hal, const SimaFwDetessDequantJob *job)
{
  const uint64_t scalar = (uint64_t) job->plan.output_view.scalar_bytes;
  uint8_t *in[2], *out[2];
  Panel panel[2];
  const int strided = (job->flags & SIMA_EV74_DD_FLAG_STRIDED) != 0;
  SimaFwDenseOutput dense;
  uint64_t first, last, k, panels, e;
  int err = 0, s, direct = 0;

  if (job->plan.element_count == 0)
    return sima_status_ok ();
  /* the worker, chosen once per job (detessdequant_special.c); the direct
   * one is this loop with one read per panel */
  switch (simafw_detessdequant_select (job, hal->worker_count)) {
    case SIMAFW_DD_WORKER_BANDS:
      return simafw_detessdequant_run_bands (hal, job);
    case SIMAFW_DD_WORKER_DIRECT:
      direct = 1;
      break;
    case SIMAFW_DD_WORKER_GENERAL:
      break;
  }
  simafw_dense_output_init (&dense, job->plan.element_count,
      (uint32_t) scalar, job->output_bus, SIMAFW_DD_PANEL);
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

  in[0] = hal->ops->scratch (hal, SIMAFW_DD_PANEL);
  in[1] = hal->ops->scratch (hal, SIMAFW_DD_PANEL);
  out[0] = hal->ops->scratch (hal, (uint32_t) (SIMAFW_DD_PANEL * scalar));
  out[1] = hal->ops->scratch (hal, (uint32_t) (SIMAFW_DD_PANEL * scalar));
  if (!in[0] || !in[1] || !out[0] || !out[1])
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "DetessDequant worker %lu: local memory for two panel slots is not "
        "available", (unsigned long) hal->worker_id);

  for (panels = 0, e = first; e < last; panels++)
    e = panel_end (&dense, strided, e, last);
  panel[0].e0 = first;
  panel[0].e1 = panel_end (&dense, strided, first, last);
  err |= gather (hal, TAG_IN0, job, direct, &panel[0], in[0]);
  for (k = 0; k < panels && !err; k++) {
    s = (int) (k & 1);
    err |= hal->ops->wait (hal, TAG_IN0 + (unsigned) s);
    if (k + 1 < panels) {
      Panel *next = &panel[1 - s];
      next->e0 = panel[s].e1;
      next->e1 = panel_end (&dense, strided, next->e0, last);
      err |= gather (hal, TAG_IN0 + (unsigned) (1 - s), job, direct, next,
          in[1 - s]);
    }
    if (k >= 2)                 /* this output slot's previous write */
      err |= hal->ops->wait (hal, TAG_OUT0 + (unsigned) s);
    if (err)
      break;
    convert (job, &panel[s], in[s], out[s]);
    err |= scatter (hal, TAG_OUT0 + (unsigned) s, job, &panel[s], out[s]);
  }
  return simafw_dma_drain (hal, err, "DetessDequant");
}
