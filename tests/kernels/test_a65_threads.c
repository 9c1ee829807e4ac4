/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The A65 thread pool (simaai/kernels/a65/threads.h): an execution split
 * over N threads writes the bytes of the single-thread execution, for
 * every operation, on shapes with boundary tiles along every axis, outer
 * slices, cblock tiles, channels-first views and strided outputs with
 * holes (left alone), for pools of 1, 2, 3, 5, 8 and "one per core"
 * threads; sets split member by member; a tensor of fewer tiles than
 * threads; two callers sharing one pool at once (they serialise; run
 * under ThreadSanitizer in the ev74 suite); pool limits. The single-thread
 * execution is the one the oracle checks (test_quanttess_*, test_casttess,
 * test_detessdequant, test_detesscast): here it is the reference.
 */
#include <simaai/kernels/a65/casttess.h>
#include <simaai/kernels/a65/detesscast.h>
#include <simaai/kernels/a65/detessdequant.h>
#include <simaai/kernels/a65/quanttess.h>
#include <simaai/kernels/a65/threads.h>
#include <simaai/kernels/tensor_set.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "a65/threads_run.h"
#include "tap.h"
#include "test_util.h"

enum { OP_QUANT, OP_CAST, OP_DEQUANT, OP_DCAST, N_OPS };
static const char *const op_name[N_OPS] = { "QuantTess", "CastTess",
  "DetessDequant", "DetessCast"
};

/* A shape of the suite: logical dense shape, tiled mapping. */
typedef struct {
  const char *name;
  int rank;
  int64_t shape[4];
  int8_t axes[4];
  int64_t tile[4];
  SimaChannels channels;
  int cblock;
  int strided;                  /* dense side pitched, holes between rows */
} Shape;

static const Shape shapes[] = {
  {"rgb 67x45x3 H8/W16 pad16", 3, {67, 45, 3}, {-1, 0, 1, 2}, {1, 8, 16, 16},
      SIMA_CHANNELS_PAD16, 0, 0},
  {"2x13x29x40 outer N, C16 compact", 4, {2, 13, 29, 40}, {-1, 1, 2, 3},
      {1, 4, 8, 16}, SIMA_CHANNELS_COMPACT, 0, 0},
  {"3x5x7x9x33 D tiles, cblock", 4, {5, 7, 9, 33}, {0, 1, 2, 3},
      {2, 3, 4, 32}, SIMA_CHANNELS_PAD16, 1, 0},
  {"channels-first 2x19x11x6", 4, {2, 19, 11, 6}, {-1, 2, 3, 1},
      {1, 4, 4, 16}, SIMA_CHANNELS_PAD16, 0, 0},
  {"pitched rgb 31x50x3", 3, {31, 50, 3}, {-1, 0, 1, 2}, {1, 8, 16, 16},
      SIMA_CHANNELS_PAD16, 0, 1},
  {"one tile 1x4x3", 3, {1, 4, 3}, {-1, 0, 1, 2}, {1, 8, 16, 16},
      SIMA_CHANNELS_PAD16, 0, 0},
};
enum { N_SHAPES = sizeof shapes / sizeof shapes[0] };

static SimaDType
dense_dtype (int op, int variant)
{
  static const SimaDType quant[] = { SIMA_DTYPE_FLOAT32, SIMA_DTYPE_FLOAT16,
    SIMA_DTYPE_BFLOAT16, SIMA_DTYPE_UINT8
  };
  if (op == OP_QUANT || op == OP_CAST)
    return quant[variant % 4];
  return variant % 2 ? SIMA_DTYPE_BFLOAT16 : SIMA_DTYPE_FLOAT32;
}

static void
make_specs (const Shape *s, int op, SimaDType dtype, SimaTensorSpec *dense,
    SimaTensorSpec *tiled)
{
  SimaDType tdt = op == OP_CAST || op == OP_DCAST ? SIMA_DTYPE_BFLOAT16
      : SIMA_DTYPE_INT8;

  *tiled = test_spec_tiled (tdt, s->rank, s->shape, s->axes, s->tile,
      s->channels);
  tiled->tiled.cblock = s->cblock;
  if (s->strided) {
    int64_t es = sima_dtype_size (dtype), st[4];
    int a;
    st[s->rank - 1] = es;
    for (a = s->rank - 2; a >= 0; a--)  /* 5 elements of hole per row */
      st[a] = st[a + 1] * s->shape[a + 1] + (a == s->rank - 2 ? 5 * es : 0);
    *dense = test_spec_strided (dtype, s->rank, s->shape, st);
  } else {
    *dense = test_spec_dense (dtype, s->rank, s->shape);
  }
}

/* One prepared plan of any op. */
typedef struct {
  int op;
  SimaA65QuantTessPlan q;
  SimaA65CastTessPlan c;
  SimaA65DetessDequantPlan d;
  SimaA65DetessCastPlan dc;
  uint64_t in_bytes, out_bytes;
} Plan;

static int
prepare (Plan *p, int op, const SimaTensorSpec *dense,
    const SimaTensorSpec *tiled, TestRng *rng)
{
  SimaStatus st;

  p->op = op;
  if (op == OP_QUANT) {
    SimaQuantTessRequest req;
    SimaQuantTessPlan plan;
    memset (&req, 0, sizeof req);
    req.inputs = dense;
    req.n_inputs = 1;
    req.outputs = tiled;
    req.n_outputs = 1;
    req.params.multiplier = 10.0f + (float) test_rng_below (rng, 100);
    req.params.zero_point = (int32_t) test_rng_range (rng, -128, 127);
    req.params.rounding = (SimaRounding) test_rng_below (rng, 4);
    st = sima_quanttess_check_inference (&req, &plan);
    if (st.code == SIMA_OK)
      st = sima_a65_quanttess_prepare (&plan, &p->q);
    p->in_bytes = plan.input_bytes;
    p->out_bytes = plan.output_bytes;
  } else if (op == OP_CAST) {
    SimaCastTessRequest req = { dense, 1, tiled, 1 };
    SimaCastTessPlan plan;
    st = sima_casttess_check_inference (&req, &plan);
    if (st.code == SIMA_OK)
      st = sima_a65_casttess_prepare (&plan, &p->c);
    p->in_bytes = plan.input_bytes;
    p->out_bytes = plan.output_bytes;
  } else if (op == OP_DEQUANT) {
    SimaDetessDequantRequest req = { tiled, 1, dense, 1,
      {0.01f + (float) test_rng_below (rng, 1000) / 997.0f,
          (int32_t) test_rng_range (rng, -300, 300),
          (SimaScaleConvention) test_rng_below (rng, 2)}
    };
    SimaDetessDequantPlan plan;
    st = sima_detessdequant_check_inference (&req, &plan);
    if (st.code == SIMA_OK)
      st = sima_a65_detessdequant_prepare (&plan, &p->d);
    p->in_bytes = plan.input_bytes;
    p->out_bytes = plan.output_bytes;
  } else {
    SimaDetessCastRequest req = { tiled, 1, dense, 1 };
    SimaDetessCastPlan plan;
    st = sima_detesscast_check_inference (&req, &plan);
    if (st.code == SIMA_OK)
      st = sima_a65_detesscast_prepare (&plan, &p->dc);
    p->in_bytes = plan.input_bytes;
    p->out_bytes = plan.output_bytes;
  }
  if (st.code != SIMA_OK)
    tap_diag ("%s prepare: %s", op_name[op], st.message);
  return st.code == SIMA_OK;
}

static SimaStatus
execute_on (const Plan *p, SimaA65Threads *pool, const uint8_t *in,
    uint8_t *out)
{
  SimaConstHostBuffer ib = { in, p->in_bytes };
  SimaHostBuffer ob = { out, p->out_bytes };

  switch (p->op) {
    case OP_QUANT:
      return sima_a65_quanttess_execute_on (&p->q, pool, &ib, 1, &ob, 1);
    case OP_CAST:
      return sima_a65_casttess_execute_on (&p->c, pool, &ib, 1, &ob, 1);
    case OP_DEQUANT:
      return sima_a65_detessdequant_execute_on (&p->d, pool, &ib, 1, &ob, 1);
    default:
      return sima_a65_detesscast_execute_on (&p->dc, pool, &ib, 1, &ob, 1);
  }
}

static void
fill_random (uint8_t *b, uint64_t n, TestRng *rng)
{
  uint64_t i;
  for (i = 0; i < n; i++)
    b[i] = (uint8_t) test_rng_next (rng);
}

/* Every op x shape x dtype: the pool's bytes against the calling thread's,
 * both written over the same random garbage (so holes and untouched bytes
 * are compared too). */
static void
test_ops (SimaA65Threads *const *pools, int n_pools)
{
  TestRng rng = { 0x7a5c0001u };
  int op, sh, v, k;

  for (op = 0; op < N_OPS; op++)
    for (sh = 0; sh < N_SHAPES; sh++) {
      int variants = op == OP_QUANT || op == OP_CAST ? 4 : 2;
      uint64_t bad = 0, runs = 0;
      int ok = 1;
      for (v = 0; v < variants && ok; v++) {
        SimaTensorSpec dense, tiled;
        Plan *p = calloc (1, sizeof *p);
        TestBuffer in, ref, got;
        make_specs (&shapes[sh], op, dense_dtype (op, v), &dense, &tiled);
        if (!prepare (p, op, &dense, &tiled, &rng)) {
          ok = 0;
          free (p);
          break;
        }
        in = test_buffer_new (p->in_bytes, 0, 0);
        ref = test_buffer_new (p->out_bytes, 0, 0);
        got = test_buffer_new (p->out_bytes, 0, 0);
        fill_random (in.data, p->in_bytes, &rng);
        for (k = 0; k < n_pools && ok; k++) {
          /* the same garbage under both: holes and every byte compared */
          fill_random (ref.data, p->out_bytes, &rng);
          memcpy (got.data, ref.data, p->out_bytes);
          ok &= execute_on (p, NULL, in.data, ref.data).code == SIMA_OK;
          ok &= execute_on (p, pools[k], in.data, got.data).code == SIMA_OK;
          bad += memcmp (got.data, ref.data, p->out_bytes) != 0;
          ok &= test_buffer_guards_ok (&got);
          runs++;
        }
        test_buffer_free (&in);
        test_buffer_free (&ref);
        test_buffer_free (&got);
        free (p);
      }
      tap_ok (ok && bad == 0 && runs > 0, "%s %s: %llu pooled executions, "
          "%llu differ from the calling thread's", op_name[op],
          shapes[sh].name, (unsigned long long) runs,
          (unsigned long long) bad);
    }
}

/* A set of three DetessDequant members, split member by member. */
static void
test_set (SimaA65Threads *pool)
{
  static const int64_t hw[3] = { 40, 20, 9 }, ch[3] = { 64, 80, 3 };
  SimaTensorSpec in[3], out[3];
  SimaDetessDequantParams params[3];
  SimaTensorSet *sets = calloc (2, sizeof *sets);
  SimaDetessDequantSetPlan *plan = calloc (1, sizeof *plan);
  SimaA65DetessDequantSetPlan *a65 = calloc (1, sizeof *a65);
  SimaDetessDequantSetRequest req;
  TestRng rng = { 0x7a5c0002u };
  SimaStatus st;
  int i, ok = 1;

  for (i = 0; i < 3; i++) {
    int64_t shape[3] = { hw[i], hw[i], ch[i] };
    int8_t axes[4] = { -1, 0, 1, 2 };
    int64_t tile[4] = { 1, 1, hw[i], ch[i] };
    in[i] = test_spec_tiled (SIMA_DTYPE_INT8, 3, shape, axes, tile,
        SIMA_CHANNELS_PAD16);
    out[i] = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, shape);
    params[i] = (SimaDetessDequantParams) { 0.5f + (float) i, i * 7 - 9,
      SIMA_SCALE_DIVIDE };
  }
  st = sima_tensor_set_pack (in, 3, 0, "input", &sets[0]);
  if (st.code == SIMA_OK)
    st = sima_tensor_set_pack (out, 3, 0, "output", &sets[1]);
  req = (SimaDetessDequantSetRequest) { &sets[0], &sets[1], params, 3 };
  if (st.code == SIMA_OK)
    st = sima_detessdequant_set_check_inference (&req, plan);
  if (st.code == SIMA_OK)
    st = sima_a65_detessdequant_set_prepare (plan, a65);
  if (st.code == SIMA_OK) {
    TestBuffer ib = test_buffer_new (plan->input_bytes, 0, 0);
    TestBuffer r = test_buffer_new (plan->output_bytes, 0, 0x11);
    TestBuffer g = test_buffer_new (plan->output_bytes, 0, 0x11);
    SimaConstHostBuffer cin = { ib.data, plan->input_bytes };
    SimaHostBuffer ro = { r.data, plan->output_bytes };
    SimaHostBuffer go = { g.data, plan->output_bytes };
    fill_random (ib.data, plan->input_bytes, &rng);
    ok &= sima_a65_detessdequant_set_execute (a65, &cin, &ro).code
        == SIMA_OK;
    ok &= sima_a65_detessdequant_set_execute_on (a65, pool, &cin, &go).code
        == SIMA_OK;
    ok &= memcmp (r.data, g.data, plan->output_bytes) == 0;
    test_buffer_free (&ib);
    test_buffer_free (&r);
    test_buffer_free (&g);
  } else {
    tap_diag ("set: %s", st.message);
    ok = 0;
  }
  tap_ok (ok, "DetessDequant set of 3 heads on %u threads: the calling "
      "thread's bytes", sima_a65_threads_count (pool));
  free (sets);
  free (plan);
  free (a65);
}

/* Two callers on one pool at once, each its own plan and buffers. */
typedef struct {
  SimaA65Threads *pool;
  const Plan *plan;
  const uint8_t *in, *ref;
  uint8_t *out;
  int bad;
} Caller;

static void *
caller_main (void *data)
{
  Caller *c = data;
  int r;
  for (r = 0; r < 20; r++) {
    memset (c->out, 0, c->plan->out_bytes);
    if (execute_on (c->plan, c->pool, c->in, c->out).code != SIMA_OK
        || memcmp (c->out, c->ref, c->plan->out_bytes) != 0)
      c->bad++;
  }
  return NULL;
}

static void
test_shared_pool (SimaA65Threads *pool)
{
  TestRng rng = { 0x7a5c0003u };
  Plan *p[2];
  Caller c[2];
  pthread_t t[2];
  int i, ok = 1;

  for (i = 0; i < 2; i++) {
    SimaTensorSpec dense, tiled;
    uint8_t *in, *ref;
    p[i] = calloc (1, sizeof *p[i]);
    make_specs (&shapes[i], i == 0 ? OP_QUANT : OP_DEQUANT,
        SIMA_DTYPE_FLOAT32, &dense, &tiled);
    ok &= prepare (p[i], i == 0 ? OP_QUANT : OP_DEQUANT, &dense, &tiled,
        &rng);
    in = malloc (p[i]->in_bytes);
    ref = calloc (1, p[i]->out_bytes);
    fill_random (in, p[i]->in_bytes, &rng);
    ok &= execute_on (p[i], NULL, in, ref).code == SIMA_OK;
    c[i] = (Caller) { pool, p[i], in, ref, malloc (p[i]->out_bytes), 0 };
  }
  for (i = 0; i < 2; i++)
    pthread_create (&t[i], NULL, caller_main, &c[i]);
  for (i = 0; i < 2; i++) {
    pthread_join (t[i], NULL);
    ok &= c[i].bad == 0;
    free ((void *) c[i].in);
    free ((void *) c[i].ref);
    free (c[i].out);
    free (p[i]);
  }
  tap_ok (ok, "two callers share a pool of %u threads, 20 executions "
      "each: every output the calling thread's", sima_a65_threads_count
      (pool));
}

int
main (void)
{
  static const unsigned asked[] = { 1, 2, 3, 5, 8, 0 };
  enum { N_POOLS = sizeof asked / sizeof asked[0] };
  SimaA65Threads *pools[N_POOLS], *too_many = (SimaA65Threads *) 1;
  unsigned counts[N_POOLS];
  long cpus = sysconf (_SC_NPROCESSORS_ONLN);
  SimaStatus st;
  uint64_t total, part, parts, ok_split = 1;
  int k, created = 1;

  for (k = 0; k < N_POOLS; k++) {
    st = sima_a65_threads_new (asked[k], &pools[k]);
    created &= st.code == SIMA_OK;
    counts[k] = sima_a65_threads_count (pools[k]);
  }
  tap_ok (created && counts[0] == 1 && counts[3] == 5 && (long) counts[5]
      == (cpus < 1 ? 1 : cpus > SIMA_A65_MAX_THREADS ? SIMA_A65_MAX_THREADS
          : cpus), "pools of 1, 2, 3, 5, 8 threads and one per core (%u)",
      counts[5]);
  st = sima_a65_threads_new (SIMA_A65_MAX_THREADS + 1, &too_many);
  tap_ok (st.code == SIMA_INVALID_ARGUMENT && too_many == NULL
      && strstr (st.message, "threads is 65") != NULL,
      "65 threads refused, naming the value: %s", st.message);
  tap_ok (sima_a65_threads_count (NULL) == 1, "a NULL pool is one thread");

  /* the split: parts in order, every item once, sizes within one */
  for (total = 0; total < 200; total++)
    for (parts = 1; parts <= SIMA_A65_MAX_THREADS; parts++) {
      uint64_t lo = total, hi = 0;
      ok_split &= sima_a65_part_begin (total, 0, (unsigned) parts) == 0
          && sima_a65_part_begin (total, (unsigned) parts, (unsigned) parts)
          == total;
      for (part = 0; part < parts; part++) {
        uint64_t b = sima_a65_part_begin (total, (unsigned) part,
            (unsigned) parts), e = sima_a65_part_begin (total, (unsigned)
            (part + 1), (unsigned) parts);
        ok_split &= b <= e;
        lo = e - b < lo ? e - b : lo;
        hi = e - b > hi ? e - b : hi;
      }
      ok_split &= hi - lo <= 1;
    }
  ok_split &= sima_a65_part_begin (UINT64_MAX / 2, 63, 64)
      == UINT64_MAX / 2 / 64 * 63 + UINT64_MAX / 2 % 64 * 63 / 64;
  tap_ok (ok_split, "task split: ordered, complete, balanced within one "
      "item, no overflow near 2^63");

  test_ops (pools, N_POOLS);
  test_set (pools[1]);
  test_set (pools[4]);
  test_shared_pool (pools[1]);
  test_shared_pool (pools[3]);
  for (k = 0; k < N_POOLS; k++)
    sima_a65_threads_free (pools[k]);
  sima_a65_threads_free (NULL);
  return tap_done ();
}
