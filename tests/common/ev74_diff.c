/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "ev74_diff.h"

#include <simaai/kernels/a65/detessdequant.h>
#include <simaai/kernels/ev74/detessdequant.h>

#include <stdlib.h>
#include <string.h>

#include "detessdequant_special.h"
#include "pack_fw.h"
#include "pack_special.h"
#include "tap.h"

const char *const diff_specs[8] = {
  "emulator:workers=1", "emulator:workers=2", "emulator:workers=3",
  "emulator:workers=4", "emulator:workers=1,dma=deferred",
  "emulator:workers=2,dma=deferred", "emulator:workers=3,dma=deferred",
  "emulator:workers=4,dma=deferred",
};

void
diff_bench_open (DiffBench *b, const char *spec)
{
  b->dev = test_device_open (spec);
  test_arena_new (&b->in, b->dev, DIFF_ARENA_BYTES);
  test_arena_new (&b->out, b->dev, DIFF_ARENA_BYTES);
  b->expected = malloc (DIFF_ARENA_BYTES);
  b->input_copy = malloc (DIFF_ARENA_BYTES);
}

void
diff_bench_close (DiffBench *b)
{
  test_arena_free (&b->in);
  test_arena_free (&b->out);
  free (b->expected);
  free (b->input_copy);
  sima_ev74_device_unref (b->dev);
}

void
diff_offsets (TestRng *rng, const DiffJob *job, int in_align, int out_align,
    size_t *in_off, size_t *out_off)
{
  *in_off = (size_t) test_rng_below (rng, (DIFF_ARENA_BYTES
          - job->input_bytes - 64 * 64) / 4096) * 4096
      + (size_t) test_rng_below (rng, 64) * (size_t) in_align;
  *out_off = DIFF_GUARD + (size_t) test_rng_below (rng, (DIFF_ARENA_BYTES
          - job->output_bytes - 2 * DIFF_GUARD) / (uint64_t) out_align)
      * (size_t) out_align;
}

/* Whether the firmware runs a bound descriptor, on `workers` workers, on a
 * worker whose workers' written ranges interleave by design:
 * - the grouped C16 pack worker (pack_special.h): each worker owns a range
 *   of spatial tiles in every C plane, and C-major planes put other
 *   workers' tiles between a worker's lowest and highest bytes;
 * - the DetessDequant tile-band worker (detessdequant_special.h): a band is
 *   a rectangle of the output (tile rows x a run of W tiles), so a worker's
 *   first and last bands may enclose rows of another worker's bands. */
static int
interleaved_owners (const SimaEv74Descriptor *d, uint32_t workers)
{
  SimaStatus st;
  int yes = 0;

  if (d->length <= 8)
    return 0;
  if (d->bytes[8] == SIMA_EV74_ROUTE_QUANTTESS) {
    SimaFwQuantTessJob *job = malloc (sizeof *job);
    st = simafw_quanttess_decode (d->bytes, d->length, job);
    yes = sima_status_is_ok (&st)
        && simafw_pack_select (&job->pack) == SIMAFW_PACK_WORKER_GROUPED_C16;
    free (job);
  } else if (d->bytes[8] == SIMA_EV74_ROUTE_DETESSDEQUANT) {
    SimaFwDetessDequantJob *job = malloc (sizeof *job);
    st = simafw_detessdequant_decode (d->bytes, d->length, job);
    yes = sima_status_is_ok (&st) && simafw_detessdequant_select (job,
        workers) == SIMAFW_DD_WORKER_BANDS;
    free (job);
  }
  return yes;
}

/* Workers' written intervals: disjoint; 16-byte aligned boundaries except
 * at the output's own ends; together exactly the span (dense outputs); or a
 * single writer (outputs with holes). Interleaved owners (`planes`, see
 * interleaved_owners): the enclosing intervals overlap by design; they
 * must still start and end on 16-byte boundaries, in worker order, and the
 * device model (the host HAL's granule owner map) faults the job on any
 * granule two workers write. */
static int
ownership_ok (const DiffJob *job, const SimaEv74JobStats *js, uint64_t base,
    int planes)
{
  uint64_t covered = 0, end = base + job->output_bytes, prev_lo = 0;
  uint32_t w, v, writers = 0;

  if (planes) {
    for (w = 0; w < js->workers; w++) {
      uint64_t lo = js->write_lo[w], hi = js->write_hi[w];
      if (lo > hi)
        continue;
      if (lo % 16 != 0 || hi % 16 != 0 || lo < base || hi > end
          || (writers > 0 && lo <= prev_lo))
        return 0;
      prev_lo = lo;
      writers++;
    }
    return writers > 0;
  }

  for (w = 0; w < js->workers; w++) {
    uint64_t lo = js->write_lo[w], hi = js->write_hi[w];
    if (lo > hi)
      continue;                 /* nothing written by this worker */
    writers++;
    covered += hi - lo;
    if ((lo != base && lo % 16 != 0) || (hi != end && hi % 16 != 0)
        || lo < base || hi > end)
      return 0;
    for (v = 0; v < w; v++)
      if (js->write_lo[v] <= js->write_hi[v] && lo < js->write_hi[v]
          && js->write_lo[v] < hi)
        return 0;
  }
  if (job->single_writer)
    return writers <= 1;
  return covered == job->output_bytes;
}

int
diff_run (DiffBench *b, const DiffJob *job, size_t in_off, size_t out_off,
    DiffTally *t)
{
  SimaEv74Descriptor d;
  SimaEv74Binding bi = test_arena_binding (&b->in, in_off);
  SimaEv74Binding bo = test_arena_binding (&b->out, out_off);
  SimaEv74Region *regions[2] = { b->in.region, b->out.region };
  SimaEv74JobStats js;
  size_t span = (size_t) job->output_bytes;
  size_t lo = out_off - DIFF_GUARD;
  size_t hi = out_off + span + DIFF_GUARD;
  SimaStatus st;
  int ok = 1;

  t->cases++;
  t->bytes += span;
  memcpy (b->input_copy, b->in.host + in_off, (size_t) job->input_bytes);
  memset (b->expected + lo, DIFF_GUARD_BYTE, hi - lo);
  memset (b->out.host + lo, DIFF_GUARD_BYTE, hi - lo);
  st = job->a65 (job->plan, b->in.host + in_off, b->expected + out_off);
  if (st.code == SIMA_OK)
    st = job->encode (job->plan, &d);
  if (st.code == SIMA_OK)
    st = sima_ev74_descriptor_bind (&d, &bi, &bo);
  if (st.code == SIMA_OK)
    st = sima_ev74_run (b->dev, &d, regions, 2, -1, &js);
  if (st.code != SIMA_OK) {
    if (t->failures++ < 5)
      tap_diag ("run failed: %s", st.message);
    return 0;
  }
  if (memcmp (b->out.host + lo, b->expected + lo, hi - lo) != 0) {
    if (t->mismatches++ < 3) {
      size_t i;
      for (i = lo; i < hi && b->out.host[i] == b->expected[i]; i++) {
      }
      tap_diag ("first difference at output byte %lld: device %#x, A65 %#x",
          (long long) i - (long long) out_off, b->out.host[i], b->expected[i]);
    }
    ok = 0;
  }
  if (memcmp (b->input_copy, b->in.host + in_off,
          (size_t) job->input_bytes) != 0) {
    t->input_changed++;
    ok = 0;
  }
  if (js.dma_bytes_read != job->expect_read
      || js.dma_bytes_written != job->expect_written) {
    if (t->traffic_errors++ < 3)
      tap_diag ("traffic: read %llu (want %llu), written %llu (want %llu)",
          (unsigned long long) js.dma_bytes_read,
          (unsigned long long) job->expect_read,
          (unsigned long long) js.dma_bytes_written,
          (unsigned long long) job->expect_written);
    ok = 0;
  }
  if (!ownership_ok (job, &js, bo.bus_address,
          interleaved_owners (&d, js.workers))) {
    t->ownership_errors++;
    ok = 0;
  }
  /* the device model: DMA writes whole granules only (the host HAL
   * already refused any sharing); partial granules are exact stores */
  /* a hole-free output has partial granules at its two ends only (worker
   * boundaries and panel cuts fall on aligned bytes): at most 5 naturally
   * aligned stores for a 15-byte head and 5 for a tail */
  if (!job->single_writer && js.scalar_stores > 10) {
    if (t->ownership_errors++ < 3)
      tap_diag ("%llu exact stores into a hole-free output (at most 10: its "
          "head and tail)", (unsigned long long) js.scalar_stores);
    ok = 0;
  }
  if (js.dma_partial_writes != 0) {
    if (t->ownership_errors++ < 3)
      tap_diag ("%llu DMA write rows with a partial 16-byte granule",
          (unsigned long long) js.dma_partial_writes);
    ok = 0;
  }
  return ok;
}

void
diff_report (const char *label, const DiffTally *t, uint64_t want_cases)
{
  tap_ok (t->cases == want_cases && t->mismatches == 0 && t->failures == 0,
      "%s differential A65 vs emulator (1-4 workers x immediate/deferred "
      "DMA): %llu random geometries, %llu output bytes, %llu mismatched "
      "(values, padding, holes or guards), %llu failed", label,
      (unsigned long long) t->cases, (unsigned long long) t->bytes,
      (unsigned long long) t->mismatches, (unsigned long long) t->failures);
  tap_ok (t->input_changed == 0, "%s: every input unchanged (%llu "
      "exceptions)", label, (unsigned long long) t->input_changed);
  tap_ok (t->traffic_errors == 0, "%s: every job moved exactly the minimum "
      "bytes (%llu exceptions)", label, (unsigned long long) t->traffic_errors);
  tap_ok (t->ownership_errors == 0, "%s: workers wrote disjoint intervals, "
      "16-byte aligned inside the output (%llu exceptions)", label,
      (unsigned long long) t->ownership_errors);
}

static SimaStatus
detessdequant_a65 (const void *p, const void *in, void *out)
{
  const SimaDetessDequantPlan *plan = p;
  SimaA65DetessDequantPlan a65;
  SimaConstHostBuffer ib = { in, plan->input_bytes };
  SimaHostBuffer ob = { out, plan->output_bytes };
  SimaStatus st = sima_a65_detessdequant_prepare (plan, &a65);
  return st.code == SIMA_OK
      ? sima_a65_detessdequant_execute (&a65, &ib, 1, &ob, 1) : st;
}

static SimaStatus
detessdequant_encode (const void *plan, SimaEv74Descriptor *d)
{
  return sima_ev74_detessdequant_encode_relocatable (plan, d);
}

DiffJob
diff_detessdequant_job (const SimaDetessDequantPlan *plan)
{
  const uint64_t scalar = (uint64_t) plan->output_view.scalar_bytes;
  DiffJob job = { plan->input_bytes, plan->output_bytes, plan->element_count,
    plan->element_count * scalar,
    !sima_strided_view_is_row_major (&plan->output_view), detessdequant_a65,
    detessdequant_encode, plan };
  return job;
}
