/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tensor sets as one EV74 job (route 53) on the emulator:
 *  - differential: random sets of 1-16 members (mixed shapes, tilings,
 *    dtypes, dense and strided views, some empty members, members placed
 *    in a random order with random gaps) for QuantTess, CastTess and
 *    DetessDequant, A65 set execute vs one emulator job, over 1-4 workers
 *    and both DMA models (fixed seeds): the whole output window equal,
 *    guard bytes between and around the members untouched on both sides,
 *    the input unchanged, exactly the members' minimum traffic;
 *  - the YOLOv8n six-head buffer (INT8 pad16 heads, H1 x W x C tiles, back
 *    to back, 1,209,600 bytes; SiMa's dq_scale / dq_zp, divide convention)
 *    to FP32 in one submission and one retirement;
 *  - the capability: route 53 missing -> capability-missing, while a
 *    one-member set at offset 0 still runs; a member's route missing too.
 */
#include <simaai/kernels/a65/casttess.h>
#include <simaai/kernels/a65/detessdequant.h>
#include <simaai/kernels/a65/quanttess.h>
#include <simaai/kernels/ev74/tensor_set.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ev74_testing.h"   /* sima_ev74_device_configure */
#include "ev74_diff.h"
#include "layout_gen.h"
#include "status_expect.h"
#include "tap.h"
#include "test_util.h"

typedef enum { OP_QT, OP_CT, OP_DD, OP_COUNT } Op;
static const char *const op_names[OP_COUNT] = { "QuantTess", "CastTess",
  "DetessDequant" };

/* One set, as both backends see it. The plans are large (16 member plans
 * each): static. */
typedef struct {
  Op op;
  size_t n;
  SimaTensorSpec in[SIMA_TENSOR_SET_MAX_MEMBERS];
  SimaTensorSpec out[SIMA_TENSOR_SET_MAX_MEMBERS];
  SimaQuantTessParams qp[SIMA_TENSOR_SET_MAX_MEMBERS];
  SimaDetessDequantParams dp[SIMA_TENSOR_SET_MAX_MEMBERS];
  SimaTensorSet is, os;
} SetCase;

static SimaQuantTessSetPlan qt_plan;
static SimaCastTessSetPlan ct_plan;
static SimaDetessDequantSetPlan dd_plan;
static SimaA65QuantTessSetPlan qt_a65;
static SimaA65CastTessSetPlan ct_a65;
static SimaA65DetessDequantSetPlan dd_a65;
static SimaEv74Descriptor desc;

/* ---- random members --------------------------------------------------- */

static const int64_t channels[] = { 1, 2, 3, 4, 16, 17, 32, 33, 64, 70 };
#define N_CHANNELS (sizeof channels / sizeof channels[0])

static int
member_bytes (const SimaTensorSpec *s, uint64_t *bytes)
{
  return sima_tensor_required_bytes (s, "member", bytes).code == SIMA_OK;
}

/* A member the single-tensor admission accepts, at most 48 KiB each way. */
static int
random_member (TestRng *rng, SetCase *c, size_t k)
{
  static const SimaDType dense_in[3] = { SIMA_DTYPE_FLOAT32,
    SIMA_DTYPE_FLOAT16, SIMA_DTYPE_BFLOAT16 };
  int rank = (int) test_rng_range (rng, 1, SIMA_MAX_RANK);
  int cblocked = c->op == OP_DD && rank >= 3 && test_rng_below (rng, 4) == 0;
  SimaTensorSpec *tiled = c->op == OP_DD ? &c->in[k] : &c->out[k];
  SimaTensorSpec *view = c->op == OP_DD ? &c->out[k] : &c->in[k];
  uint64_t ib, ob;
  GenTiling gt;
  SimaStatus st;

  gen_tiling (rng, rank, cblocked ? rank - 1
      : (int) test_rng_below (rng, (uint64_t) rank),
      channels[test_rng_below (rng, N_CHANNELS)],
      (SimaChannels) test_rng_below (rng, 2), &gt);
  if (test_rng_below (rng, 16) == 0)
    gt.shape[test_rng_below (rng, (uint64_t) rank)] = 0;   /* empty */
  *view = gen_view (rng, c->op == OP_DD ? (test_rng_below (rng, 2)
          ? SIMA_DTYPE_FLOAT32 : SIMA_DTYPE_BFLOAT16)
      : dense_in[test_rng_below (rng, 3)], rank, gt.shape,
      (GenViewKind) test_rng_below (rng, GEN_VIEW_KIND_COUNT));
  *tiled = test_spec_tiled (c->op == OP_QT ? SIMA_DTYPE_INT8
      : c->op == OP_CT ? SIMA_DTYPE_BFLOAT16 : SIMA_DTYPE_INT8, rank,
      gt.shape, gt.tiled.axes, gt.tiled.tile_shape, gt.tiled.channels);
  if (cblocked)
    tiled->layout = SIMA_LAYOUT_MLA_CBLOCKED;
  c->qp[k] = (SimaQuantTessParams) { test_rng_below (rng, 4) == 0
    ? 3.0e-39f : (float) test_rng_range (rng, 1, 5000) / 97.0f,
    (int32_t) test_rng_range (rng, -128, 127),
    (SimaRounding) test_rng_below (rng, 4) };
  c->dp[k] = (SimaDetessDequantParams) { test_rng_below (rng, 4) == 0
    ? ldexpf (1.0f, -135) : (float) test_rng_range (rng, 1, 1000) / 997.0f,
    (int32_t) test_rng_range (rng, -300, 300),
    (SimaScaleConvention) test_rng_below (rng, 2) };
  if (c->op == OP_QT) {
    SimaQuantTessRequest r = { &c->in[k], 1, &c->out[k], 1, c->qp[k] };
    SimaQuantTessPlan p;
    st = sima_quanttess_check_inference (&r, &p);
  } else if (c->op == OP_CT) {
    SimaCastTessRequest r = { &c->in[k], 1, &c->out[k], 1 };
    SimaCastTessPlan p;
    st = sima_casttess_check_inference (&r, &p);
  } else {
    SimaDetessDequantRequest r = { &c->in[k], 1, &c->out[k], 1, c->dp[k] };
    SimaDetessDequantPlan p;
    st = sima_detessdequant_check_inference (&r, &p);
  }
  return st.code == SIMA_OK && member_bytes (&c->in[k], &ib)
      && member_bytes (&c->out[k], &ob) && ib <= (48 << 10)
      && ob <= (48 << 10);
}

static uint64_t
alignment (const SimaTensorSpec *s)
{
  return s->layout == SIMA_LAYOUT_MLA_TILED
      || s->layout == SIMA_LAYOUT_MLA_CBLOCKED ? 16
      : (uint64_t) sima_dtype_size (s->dtype);
}

/* Members in a random order with random gaps (or none): the offsets of a
 * set nobody packed. */
static void
place (TestRng *rng, const SimaTensorSpec *specs, size_t n, SimaTensorSet *set)
{
  size_t order[SIMA_TENSOR_SET_MAX_MEMBERS], i;
  uint64_t at = test_rng_below (rng, 3) == 0 ? 0 : test_rng_below (rng, 300);

  for (i = 0; i < n; i++)
    order[i] = i;
  for (i = n; i > 1; i--) {
    size_t j = (size_t) test_rng_below (rng, i), t = order[i - 1];
    order[i - 1] = order[j];
    order[j] = t;
  }
  set->n_members = n;
  for (i = 0; i < n; i++) {
    size_t k = order[i];
    uint64_t a = alignment (&specs[k]), bytes = 0;
    at = (at + a - 1) / a * a;
    member_bytes (&specs[k], &bytes);
    set->members[k].spec = specs[k];
    set->members[k].offset = at;
    at += bytes + (test_rng_below (rng, 2) ? 0 : test_rng_below (rng, 200));
  }
}

static SimaStatus
admit_set (SetCase *c)
{
  if (c->op == OP_QT) {
    SimaQuantTessSetRequest r = { &c->is, &c->os, c->qp, c->n };
    return sima_quanttess_set_check_inference (&r, &qt_plan);
  }
  if (c->op == OP_CT) {
    SimaCastTessSetRequest r = { &c->is, &c->os };
    return sima_casttess_set_check_inference (&r, &ct_plan);
  }
  {
    SimaDetessDequantSetRequest r = { &c->is, &c->os, c->dp, c->n };
    return sima_detessdequant_set_check_inference (&r, &dd_plan);
  }
}

/* ---- one set on both backends ------------------------------------------ */

typedef struct {
  uint64_t cases, members, empty, bytes, mismatches, failures,
      input_changed, traffic_errors, guard_errors, containers;
} SetTally;

/* Capacities, the DMA minimum, and the output bytes members own. */
static void
set_figures (const SetCase *c, uint64_t *in_cap, uint64_t *out_cap,
    uint64_t *read, uint64_t *written, uint8_t *owned)
{
  size_t k;

  *read = *written = 0;
  for (k = 0; k < c->n; k++) {
    uint64_t n, in_s, out_s, off = c->os.members[k].offset, bytes = 0;
    if (c->op == OP_QT) {
      const SimaQuantTessPlan *p = &qt_plan.members[k];
      n = p->element_count;
      in_s = (uint64_t) p->input_view.scalar_bytes;
      *written += p->output_bytes;
    } else if (c->op == OP_CT) {
      const SimaCastTessPlan *p = &ct_plan.members[k];
      n = p->element_count;
      in_s = (uint64_t) p->input_view.scalar_bytes;
      *written += p->output_bytes;
    } else {
      const SimaDetessDequantPlan *p = &dd_plan.members[k];
      n = p->element_count;
      in_s = 1;
      out_s = (uint64_t) p->output_view.scalar_bytes;
      *written += n * out_s;
    }
    *read += n * in_s;
    member_bytes (&c->out[k], &bytes);
    memset (owned + off, 1, (size_t) bytes);
  }
  *in_cap = c->op == OP_QT ? qt_plan.input_bytes : c->op == OP_CT
      ? ct_plan.input_bytes : dd_plan.input_bytes;
  *out_cap = c->op == OP_QT ? qt_plan.output_bytes : c->op == OP_CT
      ? ct_plan.output_bytes : dd_plan.output_bytes;
}

static SimaStatus
a65_run (const SetCase *c, const uint8_t *in, uint64_t in_cap, uint8_t *out,
    uint64_t out_cap)
{
  SimaConstHostBuffer ib = { in, in_cap };
  SimaHostBuffer ob = { out, out_cap };
  SimaStatus st;

  if (c->op == OP_QT) {
    st = sima_a65_quanttess_set_prepare (&qt_plan, &qt_a65);
    return st.code == SIMA_OK ? sima_a65_quanttess_set_execute (&qt_a65, &ib,
        &ob) : st;
  }
  if (c->op == OP_CT) {
    st = sima_a65_casttess_set_prepare (&ct_plan, &ct_a65);
    return st.code == SIMA_OK ? sima_a65_casttess_set_execute (&ct_a65, &ib,
        &ob) : st;
  }
  st = sima_a65_detessdequant_set_prepare (&dd_plan, &dd_a65);
  return st.code == SIMA_OK ? sima_a65_detessdequant_set_execute (&dd_a65,
      &ib, &ob) : st;
}

static SimaStatus
encode (const SetCase *c, SimaEv74Descriptor *d)
{
  return c->op == OP_QT ? sima_ev74_quanttess_set_encode_relocatable (
      &qt_plan, d) : c->op == OP_CT
      ? sima_ev74_casttess_set_encode_relocatable (&ct_plan, d)
      : sima_ev74_detessdequant_set_encode_relocatable (&dd_plan, d);
}

static uint8_t *owned;

static void
run_set (DiffBench *b, TestRng *rng, const SetCase *c, SetTally *t)
{
  uint64_t in_cap, out_cap, read, written;
  size_t in_off = (size_t) test_rng_below (rng, 64) * 64;
  size_t out_off = DIFF_GUARD + (size_t) test_rng_below (rng, 64) * 64;
  size_t lo = out_off - DIFF_GUARD, hi, i;
  SimaEv74Binding bi = test_arena_binding (&b->in, in_off);
  SimaEv74Binding bo = test_arena_binding (&b->out, out_off);
  SimaEv74Region *regions[2] = { b->in.region, b->out.region };
  SimaEv74JobStats js;
  SimaStatus st;

  memset (owned, 0, DIFF_ARENA_BYTES);
  set_figures (c, &in_cap, &out_cap, &read, &written, owned);
  hi = out_off + (size_t) out_cap + DIFF_GUARD;
  t->cases++;
  t->members += c->n;
  t->bytes += out_cap;
  for (i = 0; i < c->n; i++) {
    uint64_t bytes = 0;
    member_bytes (&c->out[i], &bytes);
    t->empty += bytes == 0;
  }
  for (i = 0; i < (size_t) in_cap; i++)
    b->in.host[in_off + i] = (uint8_t) test_rng_next (rng);
  memcpy (b->input_copy, b->in.host + in_off, (size_t) in_cap);
  memset (b->expected + lo, DIFF_GUARD_BYTE, hi - lo);
  memset (b->out.host + lo, DIFF_GUARD_BYTE, hi - lo);

  st = a65_run (c, b->in.host + in_off, in_cap, b->expected + out_off,
      out_cap);
  if (st.code == SIMA_OK)
    st = encode (c, &desc);
  if (st.code == SIMA_OK) {
    t->containers += sima_ev74_descriptor_route (&desc)
        == SIMA_EV74_ROUTE_TENSOR_SET;
    st = sima_ev74_descriptor_bind (&desc, &bi, &bo);
  }
  if (st.code == SIMA_OK)
    st = sima_ev74_run (b->dev, &desc, regions, 2, -1, &js);
  if (st.code != SIMA_OK) {
    if (t->failures++ < 5)
      tap_diag ("%s set of %zu: %s", op_names[c->op], c->n, st.message);
    return;
  }
  if (memcmp (b->out.host + lo, b->expected + lo, hi - lo) != 0
      && t->mismatches++ < 3) {
    for (i = lo; i < hi && b->out.host[i] == b->expected[i]; i++) {
    }
    tap_diag ("%s set of %zu: first difference at output byte %lld: device "
        "%#x, A65 %#x", op_names[c->op], c->n,
        (long long) i - (long long) out_off, b->out.host[i], b->expected[i]);
  }
  /* bytes no member owns (gaps between members, the guards around the
   * set) keep the prefill on both sides */
  for (i = lo; i < hi; i++) {
    int own = i >= out_off && i < out_off + out_cap && owned[i - out_off];
    if (!own && (b->out.host[i] != DIFF_GUARD_BYTE
            || b->expected[i] != DIFF_GUARD_BYTE)) {
      t->guard_errors++;
      break;
    }
  }
  if (memcmp (b->input_copy, b->in.host + in_off, (size_t) in_cap) != 0)
    t->input_changed++;
  if (js.dma_bytes_read != read || js.dma_bytes_written != written) {
    if (t->traffic_errors++ < 3)
      tap_diag ("%s set of %zu: traffic read %llu (want %llu), written %llu "
          "(want %llu)", op_names[c->op], c->n,
          (unsigned long long) js.dma_bytes_read, (unsigned long long) read,
          (unsigned long long) js.dma_bytes_written,
          (unsigned long long) written);
  }
}

static SetCase set_case;

static void
differential (Op op, uint64_t seed, int cases)
{
  DiffBench benches[8];
  TestRng rng = { seed };
  SetTally t;
  int i, k;

  memset (&t, 0, sizeof t);
  for (k = 0; k < 8; k++)
    diff_bench_open (&benches[k], diff_specs[k]);
  for (i = 0; i < cases; i++) {
    SetCase *c = &set_case;
    size_t m;
    do {
      memset (c, 0, sizeof *c);
      c->op = op;
      /* a third of the sets small, the others up to 16 members */
      c->n = (size_t) (test_rng_below (&rng, 3) == 0
          ? test_rng_range (&rng, 1, 3) : test_rng_range (&rng, 1, 16));
      for (m = 0; m < c->n; m++)
        while (!random_member (&rng, c, m)) {
        }
      place (&rng, c->in, c->n, &c->is);
      place (&rng, c->out, c->n, &c->os);
    } while (admit_set (c).code != SIMA_OK);
    run_set (&benches[i % 8], &rng, c, &t);
  }
  for (k = 0; k < 8; k++)
    diff_bench_close (&benches[k]);
  tap_ok (t.cases == (uint64_t) cases && t.mismatches == 0
      && t.failures == 0, "%s sets, A65 set execute vs one emulator job "
      "(1-4 workers x immediate/deferred DMA): %llu sets, %llu members "
      "(%llu empty), %llu containers, %llu output bytes, %llu mismatched, "
      "%llu failed", op_names[op], (unsigned long long) t.cases,
      (unsigned long long) t.members, (unsigned long long) t.empty,
      (unsigned long long) t.containers, (unsigned long long) t.bytes,
      (unsigned long long) t.mismatches, (unsigned long long) t.failures);
  tap_ok (t.guard_errors == 0 && t.input_changed == 0,
      "%s sets: gaps between and guards around the members untouched on "
      "both backends, inputs unchanged (%llu, %llu exceptions)",
      op_names[op], (unsigned long long) t.guard_errors,
      (unsigned long long) t.input_changed);
  tap_ok (t.traffic_errors == 0, "%s sets: every job moved exactly its "
      "members' minimum bytes (%llu exceptions)", op_names[op],
      (unsigned long long) t.traffic_errors);
}

/* ---- YOLOv8n's six heads --------------------------------------------- */

static void
yolov8n_heads (void)
{
  static const int64_t hw[6] = { 80, 40, 20, 80, 40, 20 };
  static const int64_t ch[6] = { 64, 64, 64, 80, 80, 80 };
  static const double scales[6] = { 11.328456438342892, 13.655735144659944,
    14.041570531577957, 9.636191223407769, 6.634204286335957,
    5.471951716200586 };
  static const int32_t zps[6] = { -61, -56, -43, 127, 117, 113 };
  static const int8_t axes[4] = { -1, 0, 1, 2 };
  SimaTensorSpec in[6], out[6];
  SimaDetessDequantParams p[6];
  SimaTensorSet is, os;
  SimaDetessDequantSetRequest req = { &is, &os, p, 6 };
  SimaEv74Device *dev = test_device_open ("emulator:workers=4,dma=deferred");
  SimaEv74Region *regions[2];
  SimaEv74JobStats js;
  SimaEv74Job *job;
  TestArena ia, oa;
  uint8_t *expected;
  SimaStatus st;
  size_t i, guard = 4096, out_bytes;
  int k, guards_ok = 1;

  for (k = 0; k < 6; k++) {
    int64_t shape[3] = { hw[k], hw[k], ch[k] };
    int64_t tile[4] = { 1, 1, hw[k], ch[k] };
    in[k] = test_spec_tiled (SIMA_DTYPE_INT8, 3, shape, axes, tile,
        SIMA_CHANNELS_PAD16);
    out[k] = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, shape);
    p[k] = (SimaDetessDequantParams) { (float) scales[k], zps[k],
      SIMA_SCALE_DIVIDE };
  }
  sima_tensor_set_pack (in, 6, 0, "input", &is);
  sima_tensor_set_pack (out, 6, 0, "output", &os);
  st = sima_detessdequant_set_check_inference (&req, &dd_plan);
  tap_ok (st.code == SIMA_OK && dd_plan.input_bytes == 1209600
      && dd_plan.output_bytes == 4 * 1209600,
      "YOLOv8n heads 80x80x64, 40x40x64, 20x20x64, 80x80x80, 40x40x80, "
      "20x20x80 (INT8 pad16, H1 x W x C tiles) back to back: %llu input "
      "bytes, %llu FP32 output bytes (%s)",
      (unsigned long long) dd_plan.input_bytes,
      (unsigned long long) dd_plan.output_bytes, st.message);
  out_bytes = (size_t) dd_plan.output_bytes;
  test_arena_new (&ia, dev, 1209600);
  test_arena_new (&oa, dev, out_bytes + 2 * guard);
  regions[0] = ia.region;
  regions[1] = oa.region;
  expected = malloc (out_bytes + 2 * guard);
  for (i = 0; i < 1209600; i++)
    ia.host[i] = (uint8_t) (i * 2654435761u >> 13);
  memset (expected, DIFF_GUARD_BYTE, out_bytes + 2 * guard);
  memset (oa.host, DIFF_GUARD_BYTE, out_bytes + 2 * guard);
  {
    SimaConstHostBuffer ib = { ia.host, 1209600 };
    SimaHostBuffer ob = { expected + guard, out_bytes };
    sima_a65_detessdequant_set_prepare (&dd_plan, &dd_a65);
    st = sima_a65_detessdequant_set_execute (&dd_a65, &ib, &ob);
  }
  if (st.code == SIMA_OK)
    st = sima_ev74_detessdequant_set_encode_relocatable (&dd_plan, &desc);
  if (st.code == SIMA_OK) {
    SimaEv74Binding bi = test_arena_binding (&ia, 0);
    SimaEv74Binding bo = test_arena_binding (&oa, guard);
    st = sima_ev74_descriptor_bind (&desc, &bi, &bo);
  }
  tap_ok (st.code == SIMA_OK && sima_ev74_descriptor_route (&desc) == 53
      && desc.length == 64 + 6 * 24 + 6 * 176,
      "the six heads encode as one %u-byte container (six 176-byte DIVIDE "
      "members) (%s)", (unsigned) desc.length, st.message);
  st = sima_ev74_submit (dev, &desc, regions, 2, &job);
  if (st.code == SIMA_OK) {
    st = sima_ev74_job_wait (job, -1);
    sima_ev74_job_stats (job, &js);
    tap_ok (st.code == SIMA_OK && sima_ev74_job_retired (job)
        && js.workers == 4 && js.dma_bytes_read == 1209600
        && js.dma_bytes_written == 4 * 1209600,
        "one submission, one retirement: the job read %llu bytes and wrote "
        "%llu (every head), %llu DMA commands on %u workers, local peak %u, "
        "%.2f ms (%s)", (unsigned long long) js.dma_bytes_read,
        (unsigned long long) js.dma_bytes_written,
        (unsigned long long) js.dma_commands, (unsigned) js.workers,
        (unsigned) js.local_peak, (double) js.device_ns / 1e6, st.message);
    sima_ev74_job_unref (job);
  } else {
    tap_ok (0, "submit: %s", st.message);
  }
  for (i = 0; i < guard; i++)
    guards_ok &= oa.host[i] == DIFF_GUARD_BYTE
        && oa.host[guard + out_bytes + i] == DIFF_GUARD_BYTE;
  tap_ok (memcmp (oa.host, expected, out_bytes + 2 * guard) == 0 && guards_ok,
      "the six heads equal the A65 set execute, byte for byte, and the 4 KiB "
      "guards around the output are untouched");
  free (expected);
  test_arena_free (&ia);
  test_arena_free (&oa);
  sima_ev74_device_unref (dev);
}

/* ---- capabilities ------------------------------------------------------- */

static void
capabilities (void)
{
  static const int64_t tile[4] = { 1, 2, 4, 16 };
  static const int8_t axes[4] = { -1, 0, 1, 2 };
  int64_t shape[3] = { 4, 6, 16 };
  SimaTensorSpec in = test_spec_tiled (SIMA_DTYPE_INT8, 3, shape, axes, tile,
      SIMA_CHANNELS_COMPACT);
  SimaTensorSpec out = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, shape);
  SimaTensorSpec qin = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, shape);
  SimaTensorSpec qout = test_spec_tiled (SIMA_DTYPE_INT8, 3, shape, axes,
      tile, SIMA_CHANNELS_COMPACT);
  SimaDetessDequantParams p = { 0.5f, 0, SIMA_SCALE_MULTIPLY };
  SimaQuantTessParams q = { 2.0f, 0, SIMA_ROUNDING_NEAREST_EVEN };
  SimaTensorSet is, os;
  SimaDetessDequantSetRequest req = { &is, &os, &p, 1 };
  SimaQuantTessSetRequest qreq = { &is, &os, &q, 1 };
  DiffBench b;
  SimaEv74Region *regions[2];
  SimaEv74Binding bi, bo;
  SimaEv74JobStats js;

  diff_bench_open (&b, "emulator:workers=2,missing=53");
  regions[0] = b.in.region;
  regions[1] = b.out.region;
  bi = test_arena_binding (&b.in, 0);
  bo = test_arena_binding (&b.out, 0);
  expect_status ("missing=53: the set capability",
      sima_ev74_device_require (b.dev, SIMA_EV74_ROUTE_TENSOR_SET,
          SIMA_EV74_TENSOR_SET_CAPABILITY), SIMA_CAPABILITY_MISSING,
      SIMA_EV74_TENSOR_SET_CAPABILITY, "route 53", NULL);
  expect_status ("missing=53: DetessDequant itself is still offered",
      sima_ev74_device_require (b.dev, SIMA_EV74_ROUTE_DETESSDEQUANT,
          SIMA_EV74_DETESSDEQUANT_CAPABILITY), SIMA_OK, NULL);

  /* a one-member set at offset 0 is a single job: no set capability */
  sima_tensor_set_single (&in, &is);
  sima_tensor_set_single (&out, &os);
  sima_detessdequant_set_check_inference (&req, &dd_plan);
  sima_ev74_detessdequant_set_encode_relocatable (&dd_plan, &desc);
  sima_ev74_descriptor_bind (&desc, &bi, &bo);
  expect_status ("missing=53: a one-member set at offset 0 runs (route 50)",
      sima_ev74_run (b.dev, &desc, regions, 2, -1, &js), SIMA_OK, NULL);

  /* the same member at output offset 64: a container, refused at submit */
  os.members[0].offset = 64;
  sima_detessdequant_set_check_inference (&req, &dd_plan);
  sima_ev74_detessdequant_set_encode_relocatable (&dd_plan, &desc);
  sima_ev74_descriptor_bind (&desc, &bi, &bo);
  expect_status ("missing=53: a container is refused at submit",
      sima_ev74_run (b.dev, &desc, regions, 2, -1, &js),
      SIMA_CAPABILITY_MISSING, "route 53", NULL);
  expect_status ("configure missing=none",
      sima_ev74_device_configure (b.dev, "missing=none"), SIMA_OK, NULL);
  expect_status ("then the container runs",
      sima_ev74_run (b.dev, &desc, regions, 2, -1, &js), SIMA_OK, NULL);

  /* a member's operation missing: the container needs it too */
  sima_tensor_set_single (&qin, &is);
  sima_tensor_set_single (&qout, &os);
  os.members[0].offset = 32;
  sima_quanttess_set_check_inference (&qreq, &qt_plan);
  sima_ev74_quanttess_set_encode_relocatable (&qt_plan, &desc);
  sima_ev74_descriptor_bind (&desc, &bi, &bo);
  sima_ev74_device_configure (b.dev, "missing=49");
  expect_status ("missing=49: a QuantTess container is refused at submit",
      sima_ev74_run (b.dev, &desc, regions, 2, -1, &js),
      SIMA_CAPABILITY_MISSING, "route 49", "member 0", NULL);
  diff_bench_close (&b);
}

int
main (void)
{
  owned = malloc (DIFF_ARENA_BYTES);
  capabilities ();
  yolov8n_heads ();
  differential (OP_QT, 0x5e7a11, 1000);
  differential (OP_CT, 0x5e7c75, 1000);
  differential (OP_DD, 0x5e7dd0, 1000);
  free (owned);
  return tap_done ();
}
