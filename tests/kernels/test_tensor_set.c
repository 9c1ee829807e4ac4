/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tensor sets (simaai/kernels/tensor_set.h, docs/layout.md "Tensor sets"):
 * every placement and execute rejection, with its code and message and an
 * output buffer that must stay byte for byte as it was; the YOLOv8n
 * six-head DetessDequant set against six single-member calls and the
 * oracle, with guard bytes between the heads; random QuantTess, CastTess
 * and DetessDequant sets (mixed dtypes, tilings, views, empty members,
 * shuffled placement) against single-member calls and the oracle;
 * sima_tensor_set_pack.
 */
#include <simaai/kernels/a65/casttess.h>
#include <simaai/kernels/a65/detessdequant.h>
#include <simaai/kernels/a65/quanttess.h>
#include <simaai/kernels/tensor_set.h>

#include <stdlib.h>
#include <string.h>

#include "layout_gen.h"
#include "oracle.h"
#include "status_expect.h"
#include "tap.h"
#include "test_util.h"

enum { FILL = 0xA5 };

/* ---- running a whole set, or one member, of each op ---------------------- */

typedef union {
  SimaQuantTessParams quant;
  SimaDetessDequantParams detess;
} AnyParams;

typedef enum { OP_QUANT, OP_CAST, OP_DETESS } OpKind;

static const char *const op_names[3] = { "QuantTess", "CastTess",
  "DetessDequant" };

/* The plans are tens of KiB: static, this test is single-threaded. */
static SimaQuantTessSetPlan quant_plan;
static SimaA65QuantTessSetPlan quant_a65;
static SimaCastTessSetPlan cast_plan;
static SimaA65CastTessSetPlan cast_a65;
static SimaDetessDequantSetPlan detess_plan;
static SimaA65DetessDequantSetPlan detess_a65;

/* check_inference, prepare, execute; the first failure */
static SimaStatus
set_admit (OpKind op, const SimaTensorSet *in, const SimaTensorSet *out,
    const AnyParams *params, size_t n_params)
{
  SimaQuantTessParams qp[SIMA_TENSOR_SET_MAX_MEMBERS];
  SimaDetessDequantParams dp[SIMA_TENSOR_SET_MAX_MEMBERS];
  SimaStatus st;
  size_t i;

  for (i = 0; i < n_params && i < SIMA_TENSOR_SET_MAX_MEMBERS; i++) {
    qp[i] = params[i].quant;
    dp[i] = params[i].detess;
  }
  if (op == OP_QUANT) {
    SimaQuantTessSetRequest r = { in, out, qp, n_params };
    st = sima_quanttess_set_check_inference (&r, &quant_plan);
    if (st.code == SIMA_OK)
      st = sima_a65_quanttess_set_prepare (&quant_plan, &quant_a65);
  } else if (op == OP_CAST) {
    SimaCastTessSetRequest r = { in, out };
    st = sima_casttess_set_check_inference (&r, &cast_plan);
    if (st.code == SIMA_OK)
      st = sima_a65_casttess_set_prepare (&cast_plan, &cast_a65);
  } else {
    SimaDetessDequantSetRequest r = { in, out, dp, n_params };
    st = sima_detessdequant_set_check_inference (&r, &detess_plan);
    if (st.code == SIMA_OK)
      st = sima_a65_detessdequant_set_prepare (&detess_plan, &detess_a65);
  }
  return st;
}

static SimaStatus
set_execute (OpKind op, const SimaConstHostBuffer *ib,
    const SimaHostBuffer *ob)
{
  if (op == OP_QUANT)
    return sima_a65_quanttess_set_execute (&quant_a65, ib, ob);
  if (op == OP_CAST)
    return sima_a65_casttess_set_execute (&cast_a65, ib, ob);
  return sima_a65_detessdequant_set_execute (&detess_a65, ib, ob);
}

static SimaStatus
set_run (OpKind op, const SimaTensorSet *in, const SimaTensorSet *out,
    const AnyParams *params, size_t n_params, const SimaConstHostBuffer *ib,
    const SimaHostBuffer *ob)
{
  SimaStatus st = set_admit (op, in, out, params, n_params);
  if (st.code == SIMA_OK)
    st = set_execute (op, ib, ob);
  return st;
}

/* The single-member path on (base + offset, capacity - offset). */
static SimaStatus
single_run (OpKind op, const SimaTensorSpec *in, const SimaTensorSpec *out,
    const AnyParams *p, const SimaConstHostBuffer *ib,
    const SimaHostBuffer *ob)
{
  static SimaA65QuantTessPlan qa;
  static SimaA65CastTessPlan ca;
  static SimaA65DetessDequantPlan da;
  SimaStatus st;

  if (op == OP_QUANT) {
    SimaQuantTessRequest r = { in, 1, out, 1, p->quant };
    SimaQuantTessPlan plan;
    st = sima_quanttess_check_inference (&r, &plan);
    if (st.code == SIMA_OK)
      st = sima_a65_quanttess_prepare (&plan, &qa);
    if (st.code == SIMA_OK)
      st = sima_a65_quanttess_execute (&qa, ib, 1, ob, 1);
  } else if (op == OP_CAST) {
    SimaCastTessRequest r = { in, 1, out, 1 };
    SimaCastTessPlan plan;
    st = sima_casttess_check_inference (&r, &plan);
    if (st.code == SIMA_OK)
      st = sima_a65_casttess_prepare (&plan, &ca);
    if (st.code == SIMA_OK)
      st = sima_a65_casttess_execute (&ca, ib, 1, ob, 1);
  } else {
    SimaDetessDequantRequest r = { in, 1, out, 1, p->detess };
    SimaDetessDequantPlan plan;
    st = sima_detessdequant_check_inference (&r, &plan);
    if (st.code == SIMA_OK)
      st = sima_a65_detessdequant_prepare (&plan, &da);
    if (st.code == SIMA_OK)
      st = sima_a65_detessdequant_execute (&da, ib, 1, ob, 1);
  }
  return st;
}

static void
oracle_run (OpKind op, const SimaTensorSpec *in, const void *in_data,
    const SimaTensorSpec *out, const AnyParams *p, uint8_t *out_data)
{
  if (op == OP_QUANT)
    oracle_quanttess (in, in_data, out, p->quant.multiplier,
        p->quant.zero_point, (int) p->quant.rounding, out_data);
  else if (op == OP_CAST)
    oracle_casttess (in, in_data, out, out_data);
  else
    oracle_detessdequant_conv (in, in_data, out, p->detess.scale,
        p->detess.zero_point, p->detess.convention == SIMA_SCALE_DIVIDE,
        out_data);
}

static uint64_t
spec_bytes (const SimaTensorSpec *spec)
{
  uint64_t b = 0;
  SimaStatus st = sima_tensor_required_bytes (spec, "test", &b);
  if (st.code != SIMA_OK)
    tap_diag ("spec_bytes: %s", st.message);
  return b;
}

static int
all_bytes (const uint8_t *p, size_t n, uint8_t v)
{
  size_t i;
  for (i = 0; i < n; i++)
    if (p[i] != v)
      return 0;
  return 1;
}

static void
fill_random (TestRng *rng, uint8_t *p, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    p[i] = (uint8_t) (test_rng_next (rng) >> 32);
}

/* ---- the small DetessDequant fixture of the rejections ------------------- */

/* Two members: INT8 pad16 {4, 8, 16} tiles of 1 x 8 x 16 (512 bytes each)
 * -> FP32 contiguous {4, 8, 16} (2048 bytes each), back to back. */
enum { FIX_IN = 512, FIX_OUT = 2048 };

typedef struct {
  SimaTensorSet in, out;
  AnyParams params[SIMA_TENSOR_SET_MAX_MEMBERS + 1];
  size_t n_params;
  TestBuffer ib, ob;      /* room for two members and slack */
} Fixture;

static SimaTensorSpec
fix_in_spec (void)
{
  static const int64_t shape[3] = { 4, 8, 16 };
  static const int8_t axes[4] = { -1, 0, 1, 2 };
  static const int64_t tile[4] = { 1, 1, 8, 16 };
  return test_spec_tiled (SIMA_DTYPE_INT8, 3, shape, axes, tile,
      SIMA_CHANNELS_PAD16);
}

static SimaTensorSpec
fix_out_spec (void)
{
  static const int64_t shape[3] = { 4, 8, 16 };
  return test_spec_dense (SIMA_DTYPE_FLOAT32, 3, shape);
}

static void
fixture_reset (Fixture *f, size_t n)
{
  size_t i;

  memset (&f->in, 0, sizeof f->in);
  memset (&f->out, 0, sizeof f->out);
  f->in.n_members = f->out.n_members = n;
  f->n_params = n;
  for (i = 0; i < SIMA_TENSOR_SET_MAX_MEMBERS; i++) {
    f->in.members[i].spec = fix_in_spec ();
    f->in.members[i].offset = i * FIX_IN;
    f->out.members[i].spec = fix_out_spec ();
    f->out.members[i].offset = i * FIX_OUT;
  }
  for (i = 0; i <= SIMA_TENSOR_SET_MAX_MEMBERS; i++)
    f->params[i].detess = (SimaDetessDequantParams) { 0.25f + (float) i,
      (int32_t) i - 3, SIMA_SCALE_MULTIPLY };
  memset (f->ob.data, FILL, f->ob.size);
}

/* One rejection through the whole path: code, message fragments, and the
 * output buffer (guards included) exactly as it was. */
static void
reject (Fixture *f, const char *name, SimaStatusCode code, const char *f1,
    const char *f2, const void *in_data, uint64_t in_cap, void *out_data,
    uint64_t out_cap)
{
  SimaConstHostBuffer ib = { in_data, in_cap };
  SimaHostBuffer ob = { out_data, out_cap };
  SimaStatus st = set_run (OP_DETESS, &f->in, &f->out,
      f->params, f->n_params, &ib, &ob);

  expect_status (name, st, code, f1, f2, NULL);
  tap_ok (all_bytes (f->ob.data, f->ob.size, FILL)
      && test_buffer_guards_ok (&f->ob), "%s: output untouched", name);
}

static void
reject_default (Fixture *f, const char *name, SimaStatusCode code,
    const char *f1, const char *f2)
{
  reject (f, name, code, f1, f2, f->ib.data, f->ib.size, f->ob.data,
      f->ob.size);
}

static void
rejections (void)
{
  Fixture f;
  TestRng rng = { 0x5e7 };
  SimaTensorSetLayout lay;
  SimaStatus st;

  f.ib = test_buffer_new (4 * FIX_IN, 0, 0);
  f.ob = test_buffer_new (4 * FIX_OUT, 0, FILL);
  fill_random (&rng, f.ib.data, f.ib.size);

  /* member counts */
  fixture_reset (&f, 17);
  reject_default (&f, "17 members", SIMA_INVALID_ARITY,
      "input set has 17 members; 1 to 16 are allowed", NULL);
  fixture_reset (&f, 0);
  reject_default (&f, "0 members", SIMA_INVALID_ARITY,
      "input set has 0 members; 1 to 16 are allowed", NULL);
  st = sima_tensor_set_check (&f.in, "output", &lay);
  expect_status ("set check, 0 members, role named", st, SIMA_INVALID_ARITY,
      "output set has 0 members", NULL);
  tap_ok (lay.n_members == 0 && lay.capacity == 0,
      "a rejected set check leaves its layout zero");
  fixture_reset (&f, 2);
  f.out.n_members = 1;
  reject_default (&f, "member count mismatch", SIMA_INVALID_ARITY,
      "input set has 2 members, output set 1", NULL);
  fixture_reset (&f, 2);
  f.n_params = 1;
  reject_default (&f, "params count mismatch", SIMA_INVALID_ARITY,
      "the sets have 2 members but 1 params", NULL);
  fixture_reset (&f, 2);
  f.n_params = 3;
  reject_default (&f, "too many params", SIMA_INVALID_ARITY,
      "2 members but 3 params", NULL);

  /* placement */
  fixture_reset (&f, 2);
  f.in.members[1].offset = FIX_IN - 16;
  reject_default (&f, "overlapping input members", SIMA_OVERLAPPING_BUFFERS,
      "input members 0 and 1 overlap: [0, 512) and [496, 1008)", NULL);
  fixture_reset (&f, 3);
  f.out.members[2].offset = 100;
  reject_default (&f, "output member inside another",
      SIMA_OVERLAPPING_BUFFERS,
      "output members 0 and 2 overlap: [0, 2048) and [100, 2148)", NULL);
  fixture_reset (&f, 2);
  f.in.members[1].offset = FIX_IN + 8;
  reject_default (&f, "misaligned tiled member", SIMA_MISALIGNED_BUFFER,
      "input member 1: offset 520 is not a multiple of 16 (mla-tiled "
      "members are 16-byte aligned)", NULL);
  fixture_reset (&f, 2);
  f.out.members[1].offset = FIX_OUT + 2;
  reject_default (&f, "misaligned dense member", SIMA_MISALIGNED_BUFFER,
      "output member 1: offset 2050 is not a multiple of 4 (float32 "
      "members are aligned to their scalar)", NULL);
  fixture_reset (&f, 2);
  f.out.members[1].offset = (uint64_t) INT64_MAX - 3;
  reject_default (&f, "offset + bytes overflow", SIMA_SIZE_OVERFLOW,
      "output member 1: offset 9223372036854775804 + 2048 bytes exceeds "
      "2^63 - 1", NULL);
  fixture_reset (&f, 2);
  f.out.members[1].offset = UINT64_MAX - 3;
  reject_default (&f, "offset beyond 2^64 - bytes", SIMA_SIZE_OVERFLOW,
      "output member 1: offset 18446744073709551612", NULL);

  /* member specs and parameters, with the member index */
  fixture_reset (&f, 3);
  f.in.members[2].spec.tiled.tile_shape[3] = 0;
  reject_default (&f, "invalid member tiling", SIMA_INVALID_TILING,
      "input member 2", NULL);
  fixture_reset (&f, 3);
  f.out.members[1].spec.dtype = (SimaDType) 77;
  reject_default (&f, "unknown member dtype", SIMA_UNSUPPORTED_DTYPE,
      "output member 1", NULL);
  fixture_reset (&f, 2);         /* BF16 tiles take 1024 bytes */
  f.in.members[1].spec.dtype = SIMA_DTYPE_BFLOAT16;
  reject_default (&f, "BF16 tiles into DetessDequant",
      SIMA_UNSUPPORTED_DTYPE, "member 1: DetessDequant input dtype is "
      "bfloat16", NULL);
  fixture_reset (&f, 2);
  f.out.members[1].spec.shape[0] = 3;
  reject_default (&f, "member shape mismatch", SIMA_SHAPE_MISMATCH,
      "member 1: input extent on axis 0 is 4 but output extent is 3", NULL);
  fixture_reset (&f, 2);
  f.params[1].detess.scale = 0.0f;
  reject_default (&f, "member scale 0", SIMA_INVALID_PARAMETER,
      "member 1: scale is 0", NULL);

  /* execute: buffers */
  fixture_reset (&f, 2);
  reject (&f, "output one byte too small", SIMA_CAPACITY_TOO_SMALL,
      "DetessDequant output set capacity is 4095 bytes, 4096 required", NULL,
      f.ib.data, f.ib.size, f.ob.data, 2 * FIX_OUT - 1);
  reject (&f, "input too small", SIMA_CAPACITY_TOO_SMALL,
      "DetessDequant input set capacity is 1000 bytes, 1024 required", NULL,
      f.ib.data, 1000, f.ob.data, f.ob.size);
  reject (&f, "NULL output data", SIMA_NULL_BUFFER,
      "output set buffer is NULL but 4096 bytes are required", NULL,
      f.ib.data, f.ib.size, NULL, f.ob.size);
  reject (&f, "misaligned output base", SIMA_MISALIGNED_BUFFER,
      "DetessDequant output member 0 address", "is not 4-byte aligned",
      f.ib.data, f.ib.size, f.ob.data + 2, f.ob.size - 2);
  reject (&f, "misaligned input base", SIMA_MISALIGNED_BUFFER,
      "DetessDequant input member 0 address", "is not 16-byte aligned",
      f.ib.data + 8, f.ib.size - 8, f.ob.data, f.ob.size);
  {
    SimaConstHostBuffer ib = { f.ib.data, f.ib.size };
    SimaHostBuffer ob = { f.ob.data, f.ob.size };
    expect_status ("NULL input buffer description",
        set_run (OP_DETESS, &f.in, &f.out, f.params, 2, NULL, &ob),
        SIMA_INVALID_ARGUMENT, "input buffer is NULL", NULL);
    expect_status ("NULL output buffer description",
        set_run (OP_DETESS, &f.in, &f.out, f.params, 2, &ib, NULL),
        SIMA_INVALID_ARGUMENT, "output buffer is NULL", NULL);
    tap_ok (all_bytes (f.ob.data, f.ob.size, FILL), "NULL buffer "
        "descriptions: output untouched");
  }

  /* input and output sets overlapping inside one allocation: the input
   * set (1024 bytes) at 0, the output set (4096) at 512 */
  {
    TestBuffer both = test_buffer_new (FIX_OUT * 3, 0, FILL);
    SimaConstHostBuffer ib = { both.data, 2 * FIX_IN };
    SimaHostBuffer ob = { both.data + FIX_IN, 2 * FIX_OUT };
    fixture_reset (&f, 2);
    st = set_run (OP_DETESS, &f.in, &f.out, f.params, 2, &ib, &ob);
    expect_status ("input and output sets overlap", st,
        SIMA_OVERLAPPING_BUFFERS, "DetessDequant input set", "overlap",
        NULL);
    tap_ok (all_bytes (both.data, both.size, FILL)
        && test_buffer_guards_ok (&both), "overlapping sets: buffer "
        "untouched");
    /* adjacent sets in one allocation are disjoint views: accepted */
    ob.data = both.data + 2 * FIX_IN;
    st = set_run (OP_DETESS, &f.in, &f.out, f.params, 2, &ib, &ob);
    expect_status ("adjacent input and output sets", st, SIMA_OK, NULL);
    test_buffer_free (&both);
  }

  /* a plan the set executor cannot trust: nothing may be written, not
   * even the members before the bad one */
  fixture_reset (&f, 3);
  {
    SimaConstHostBuffer ib = { f.ib.data, f.ib.size };
    SimaHostBuffer ob = { f.ob.data, f.ob.size };
    st = set_admit (OP_DETESS, &f.in, &f.out, f.params, 3);
    expect_status ("3-member plan", st, SIMA_OK, NULL);
    detess_a65.members[2].unpack = NULL;
    expect_status ("member 2 not prepared",
        set_execute (OP_DETESS, &ib, &ob), SIMA_INVALID_ARGUMENT,
        "member 2 is not prepared", NULL);
    tap_ok (all_bytes (f.ob.data, f.ob.size, FILL), "unprepared member: "
        "members 0 and 1 not written either");
    st = set_admit (OP_DETESS, &f.in, &f.out, f.params, 3);
    detess_a65.output_offset[2] = 2 * FIX_OUT + 4;
    expect_status ("member 2 beyond its set", set_execute (OP_DETESS, &ib,
            &ob), SIMA_INVALID_ARGUMENT, "member 2 lies outside the sets",
        NULL);
    tap_ok (all_bytes (f.ob.data, f.ob.size, FILL), "member outside its "
        "set: output untouched");
    detess_a65.n_members = 17;
    expect_status ("17-member A65 plan", set_execute (OP_DETESS, &ib, &ob),
        SIMA_INVALID_ARGUMENT, "plan has 17 members", NULL);
  }

  /* accepted placements */
  fixture_reset (&f, 2);
  {
    SimaConstHostBuffer ib = { f.ib.data, f.ib.size };
    SimaHostBuffer ob = { f.ob.data, f.ob.size };
    expect_status ("adjacent members", set_run (OP_DETESS, &f.in, &f.out,
            f.params, 2, &ib, &ob), SIMA_OK, NULL);
    tap_ok (detess_plan.input_bytes == 2 * FIX_IN
        && detess_plan.output_bytes == 2 * FIX_OUT
        && detess_plan.element_count == 2 * 512
        && all_bytes (f.ob.data + 2 * FIX_OUT, f.ob.size - 2 * FIX_OUT, FILL),
        "adjacent members: capacities 1024 and 4096, 1024 elements, bytes "
        "past the set untouched");
  }
  fixture_reset (&f, 3);
  {
    /* an empty member overlapping member 0 at an odd offset, far out */
    static const int64_t empty[3] = { 4, 0, 16 };
    SimaConstHostBuffer ib = { f.ib.data, f.ib.size };
    SimaHostBuffer ob = { f.ob.data, f.ob.size };
    f.in.members[1].spec.shape[1] = 0;
    f.in.members[1].offset = 3;
    f.out.members[1].spec = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, empty);
    f.out.members[1].offset = UINT64_MAX;
    f.out.members[2].offset = FIX_OUT;
    expect_status ("empty member anywhere", set_run (OP_DETESS, &f.in,
            &f.out, f.params, 3, &ib, &ob), SIMA_OK, NULL);
    tap_ok (detess_plan.input_layout.bytes[1] == 0
        && detess_plan.output_bytes == 2 * FIX_OUT
        && detess_plan.input_bytes == 3 * FIX_IN,
        "empty member: 0 bytes, capacities from the others only");
  }
  {
    /* every member empty: capacity 0, NULL buffers are fine */
    static const int64_t empty[3] = { 0, 8, 16 };
    SimaConstHostBuffer ib = { NULL, 0 };
    SimaHostBuffer ob = { NULL, 0 };
    fixture_reset (&f, 1);
    f.in.members[0].spec.shape[0] = 0;
    f.out.members[0].spec = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, empty);
    expect_status ("all-empty set on NULL buffers", set_run (OP_DETESS,
            &f.in, &f.out, f.params, 1, &ib, &ob), SIMA_OK, NULL);
  }

  /* the other ops share the admission: one rejection each */
  fixture_reset (&f, 2);
  {
    static const int64_t shape[3] = { 4, 8, 16 };
    SimaTensorSet qin = f.out, qout = f.in;
    SimaConstHostBuffer ib = { f.ob.data, f.ob.size };
    SimaHostBuffer ob = { f.ib.data, f.ib.size };
    AnyParams qp[2];
    qp[0].quant = (SimaQuantTessParams) { 2.0f, 0, SIMA_ROUNDING_NEAREST_EVEN };
    qp[1] = qp[0];
    qin.members[1].spec = test_spec_dense (SIMA_DTYPE_INT8, 3, shape);
    qin.members[1].offset = FIX_OUT;
    expect_status ("QuantTess INT8 member input", set_run (OP_QUANT, &qin,
            &qout, qp, 2, &ib, &ob), SIMA_UNSUPPORTED_DTYPE,
        "member 1: QuantTess input dtype is int8", NULL);
    qin = f.out;
    expect_status ("QuantTess params count", set_run (OP_QUANT, &qin, &qout,
            qp, 1, &ib, &ob), SIMA_INVALID_ARITY, "QuantTess", "1 params",
        NULL);
    qin.members[1].offset = FIX_OUT - 4;
    expect_status ("CastTess overlap", set_run (OP_CAST, &qin, &qout, NULL,
            0, &ib, &ob), SIMA_OVERLAPPING_BUFFERS,
        "input members 0 and 1 overlap: [0, 2048) and [2044, 4092)", NULL);
    qin = f.out;
    expect_status ("CastTess INT8 output tiles", set_run (OP_CAST, &qin,
            &qout, NULL, 0, &ib, &ob), SIMA_UNSUPPORTED_DTYPE,
        "member 0: CastTess output dtype is int8", NULL);
  }
  {
    SimaDetessDequantSetRequest r = { NULL, &f.out, NULL, 0 };
    expect_status ("NULL input set",
        sima_detessdequant_set_check_inference (&r, &detess_plan),
        SIMA_INVALID_ARGUMENT, "input set is NULL", NULL);
    r.input = &f.in;
    expect_status ("NULL params with members",
        sima_detessdequant_set_check_inference (&r, &detess_plan),
        SIMA_INVALID_ARITY, "2 members but 0 params", NULL);
    r.n_params = 2;
    expect_status ("NULL params array",
        sima_detessdequant_set_check_inference (&r, &detess_plan),
        SIMA_INVALID_ARGUMENT, "params is NULL", NULL);
    expect_status ("NULL request",
        sima_detessdequant_set_check_inference (NULL, &detess_plan),
        SIMA_INVALID_ARGUMENT, "request is NULL", NULL);
    expect_status ("NULL set to check", sima_tensor_set_check (NULL,
            "input", NULL), SIMA_INVALID_ARGUMENT, "input set is NULL", NULL);
  }
  test_buffer_free (&f.ib);
  test_buffer_free (&f.ob);
}

/* ---- YOLOv8n: six heads, one set --------------------------------------- */

static void
yolov8n (void)
{
  static const int64_t hw[6] = { 80, 40, 20, 80, 40, 20 };
  static const int64_t ch[6] = { 64, 64, 64, 80, 80, 80 };
  static const uint64_t head_bytes[6] = { 409600, 102400, 25600, 512000,
    128000, 32000 };
  static const float scales[6] = { 11.328456438342892f, 13.655735144659944f,
    14.041570531577957f, 9.636191223407769f, 6.634204286335957f,
    5.471951716200586f };
  static const int32_t zps[6] = { -61, -56, -43, 127, 117, 113 };
  static const int8_t axes[4] = { -1, 0, 1, 2 };
  SimaTensorSet in, out;
  AnyParams params[6];
  TestBuffer ib, set_out, single_out;
  uint8_t *oracle_out;
  TestRng rng = { 0x707 };
  uint64_t in_end = 0, out_end = 0, elements = 0;
  int i, bytes_ok = 1, gaps_ok = 1, oracle_ok = 1, singles_ok = 1;
  SimaStatus st;

  memset (&in, 0, sizeof in);
  memset (&out, 0, sizeof out);
  in.n_members = out.n_members = 6;
  for (i = 0; i < 6; i++) {
    int64_t shape[3] = { hw[i], hw[i], ch[i] };
    int64_t tile[4] = { 1, 1, hw[i], ch[i] };
    in.members[i].spec = test_spec_tiled (SIMA_DTYPE_INT8, 3, shape, axes,
        tile, SIMA_CHANNELS_PAD16);
    in.members[i].offset = in_end;
    bytes_ok &= spec_bytes (&in.members[i].spec) == head_bytes[i];
    in_end += head_bytes[i];
    out.members[i].spec = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, shape);
    out_end += 64 * (uint64_t) (i + 1);    /* gaps of guard bytes */
    out.members[i].offset = out_end;
    out_end += 4 * head_bytes[i];
    elements += head_bytes[i];
    params[i].detess = (SimaDetessDequantParams) { scales[i], zps[i],
      SIMA_SCALE_DIVIDE };
  }
  tap_ok (bytes_ok && in_end == 1209600, "YOLOv8n heads: 409600, 102400, "
      "25600, 512000, 128000, 32000 bytes, 1209600 in all");
  {
    /* back to back is the default packing */
    SimaTensorSpec specs[6];
    static SimaTensorSet packed;
    int same = 1;
    for (i = 0; i < 6; i++)
      specs[i] = in.members[i].spec;
    st = sima_tensor_set_pack (specs, 6, 0, "input", &packed);
    for (i = 0; i < 6; i++)
      same &= packed.members[i].offset == in.members[i].offset;
    tap_ok (st.code == SIMA_OK && same, "YOLOv8n: sima_tensor_set_pack lays "
        "the heads out back to back");
  }
  ib = test_buffer_new ((size_t) in_end, 0, 0);
  fill_random (&rng, ib.data, ib.size);
  set_out = test_buffer_new ((size_t) out_end + 256, 0, FILL);
  single_out = test_buffer_new ((size_t) out_end + 256, 0, FILL);
  oracle_out = malloc ((size_t) (4 * head_bytes[3]));

  {
    SimaConstHostBuffer b = { ib.data, ib.size };
    SimaHostBuffer o = { set_out.data, set_out.size };
    st = set_run (OP_DETESS, &in, &out, params, 6, &b, &o);
  }
  expect_status ("YOLOv8n six-head set", st, SIMA_OK, NULL);
  tap_ok (detess_plan.n_members == 6 && detess_plan.input_bytes == 1209600
      && detess_plan.output_bytes == out_end
      && detess_plan.element_count == elements, "set plan: 6 members, "
      "1209600 input bytes, %llu output bytes, %llu elements",
      (unsigned long long) out_end, (unsigned long long) elements);
  for (i = 0; i < 6; i++) {
    SimaConstHostBuffer b = { ib.data + in.members[i].offset,
      ib.size - in.members[i].offset };
    SimaHostBuffer o = { single_out.data + out.members[i].offset,
      single_out.size - out.members[i].offset };
    st = single_run (OP_DETESS, &in.members[i].spec, &out.members[i].spec,
        &params[i], &b, &o);
    singles_ok &= st.code == SIMA_OK;
    memset (oracle_out, FILL, (size_t) (4 * head_bytes[i]));
    oracle_run (OP_DETESS, &in.members[i].spec, b.data,
        &out.members[i].spec, &params[i], oracle_out);
    oracle_ok &= memcmp (oracle_out, set_out.data + out.members[i].offset,
        (size_t) (4 * head_bytes[i])) == 0;
    /* the gap before this head, and after the last one */
    gaps_ok &= all_bytes (set_out.data + out.members[i].offset - 64 * (i + 1),
        64 * (size_t) (i + 1), FILL);
  }
  gaps_ok &= all_bytes (set_out.data + out_end, 256, FILL)
      && test_buffer_guards_ok (&set_out);
  tap_ok (singles_ok && memcmp (set_out.data, single_out.data,
          set_out.size) == 0 && test_buffer_guards_ok (&single_out),
      "YOLOv8n: the set equals six single-member executes byte for byte "
      "(gaps and guards included)");
  tap_ok (gaps_ok, "YOLOv8n: guard bytes between, before and after the "
      "heads untouched");
  tap_ok (oracle_ok, "YOLOv8n: every head equals the oracle (divide "
      "convention, per-head dq_scale and zero point)");
  free (oracle_out);
  test_buffer_free (&ib);
  test_buffer_free (&set_out);
  test_buffer_free (&single_out);
}

/* ---- random sets, every op ----------------------------------------------- */

static const int64_t channel_choices[6] = { 1, 3, 16, 17, 33, 64 };

static void
random_member (TestRng *rng, OpKind op, SimaTensorSpec *in,
    SimaTensorSpec *out, AnyParams *p)
{
  static const SimaDType floats[3] = { SIMA_DTYPE_FLOAT32,
    SIMA_DTYPE_FLOAT16, SIMA_DTYPE_BFLOAT16 };
  static const float multipliers[4] = { 0.5f, 3.0f, 64.0f, 1e-3f };
  int rank = (int) test_rng_range (rng, 1, 4);
  int c_axis = (int) test_rng_below (rng, (uint64_t) rank);
  int64_t channels = channel_choices[test_rng_below (rng, 6)];
  SimaChannels mode = test_rng_below (rng, 2) ? SIMA_CHANNELS_PAD16
      : SIMA_CHANNELS_COMPACT;
  GenViewKind kind = (GenViewKind) test_rng_below (rng, GEN_VIEW_KIND_COUNT);
  SimaDType dense_dtype;
  SimaTensorSpec tiled, dense;
  GenTiling t;

  gen_tiling (rng, rank, c_axis, channels, mode, &t);
  if (test_rng_below (rng, 8) == 0)
    t.shape[(c_axis + 1) % rank] = 0;     /* now and then an empty member */
  if (op == OP_DETESS)
    dense_dtype = test_rng_below (rng, 2) ? SIMA_DTYPE_FLOAT32
        : SIMA_DTYPE_BFLOAT16;
  else
    dense_dtype = floats[test_rng_below (rng, 3)];
  dense = gen_view (rng, dense_dtype, rank, t.shape, kind);
  tiled = test_spec_tiled (op == OP_CAST ? SIMA_DTYPE_BFLOAT16
      : SIMA_DTYPE_INT8, rank, t.shape, t.tiled.axes, t.tiled.tile_shape,
      mode);
  /* DetessDequant also reads channel-blocked tensors (ranks 3-6, channels
   * last) */
  if (op == OP_DETESS && rank >= 3 && c_axis == rank - 1
      && test_rng_below (rng, 3) == 0) {
    memset (&tiled.tiled, 0, sizeof tiled.tiled);
    tiled.layout = SIMA_LAYOUT_MLA_CBLOCKED;
  }
  if (op == OP_DETESS) {
    *in = tiled;
    *out = dense;
    p->detess = (SimaDetessDequantParams) {
      multipliers[test_rng_below (rng, 4)],
      (int32_t) test_rng_range (rng, -300, 300),
      (SimaScaleConvention) test_rng_below (rng, 2) };
  } else {
    *in = dense;
    *out = tiled;
    p->quant = (SimaQuantTessParams) {
      multipliers[test_rng_below (rng, 4)],
      (int32_t) test_rng_range (rng, -128, 127),
      (SimaRounding) test_rng_below (rng, 4) };
  }
}

/* Places the members of a set in a shuffled order with random gaps, each
 * at a multiple of its alignment; returns the capacity. Empty members get
 * arbitrary offsets. */
static uint64_t
place (TestRng *rng, SimaTensorSet *set)
{
  size_t order[SIMA_TENSOR_SET_MAX_MEMBERS], i;
  uint64_t end = 0;

  for (i = 0; i < set->n_members; i++)
    order[i] = i;
  for (i = set->n_members; i > 1; i--) {
    size_t j = (size_t) test_rng_below (rng, i), t = order[i - 1];
    order[i - 1] = order[j];
    order[j] = t;
  }
  for (i = 0; i < set->n_members; i++) {
    SimaTensorSetMember *m = &set->members[order[i]];
    uint64_t bytes = spec_bytes (&m->spec);
    uint64_t align = m->spec.layout >= SIMA_LAYOUT_MLA_TILED ? 16
        : (uint64_t) sima_dtype_size (m->spec.dtype);
    if (bytes == 0) {
      m->offset = test_rng_next (rng);
      continue;
    }
    end += test_rng_below (rng, 3) * 4 * test_rng_range (rng, 1, 9);
    end = (end + align - 1) / align * align;
    m->offset = end;
    end += bytes;
  }
  return end;
}

static void
random_sets (OpKind op, uint64_t seed, int trials)
{
  TestRng rng = { seed };
  int t, bad = 0, oracle_bad = 0, members = 0, empties = 0;

  for (t = 0; t < trials; t++) {
    SimaTensorSet in, out;
    AnyParams params[SIMA_TENSOR_SET_MAX_MEMBERS];
    uint64_t in_cap, out_cap;
    TestBuffer ib, set_out, single_out;
    uint8_t *scratch;
    size_t n = (size_t) test_rng_range (&rng, 1, t % 4 == 0 ? 16 : 5), i;
    SimaStatus st;

    memset (&in, 0, sizeof in);
    memset (&out, 0, sizeof out);
    in.n_members = out.n_members = n;
    for (i = 0; i < n; i++)
      random_member (&rng, op, &in.members[i].spec, &out.members[i].spec,
          &params[i]);
    in_cap = place (&rng, &in);
    out_cap = place (&rng, &out);
    ib = test_buffer_new ((size_t) in_cap, 0, 0);
    fill_random (&rng, ib.data, ib.size);
    set_out = test_buffer_new ((size_t) out_cap + 32, 0, FILL);
    single_out = test_buffer_new ((size_t) out_cap + 32, 0, FILL);
    {
      SimaConstHostBuffer b = { ib.data, ib.size };
      SimaHostBuffer o = { set_out.data, set_out.size };
      st = set_run (op, &in, &out, params, n, &b, &o);
    }
    if (st.code != SIMA_OK) {
      if (bad++ < 5)
        tap_diag ("%s trial %d: %s", op_names[op], t, st.message);
      goto next;
    }
    for (i = 0; i < n; i++) {
      uint64_t ob = spec_bytes (&out.members[i].spec);
      uint64_t io = in.members[i].offset, oo = out.members[i].offset;
      SimaConstHostBuffer b = { ib.data + (ob ? io : 0),
        ib.size - (ob ? io : 0) };
      SimaHostBuffer o = { single_out.data + (ob ? oo : 0),
        single_out.size - (ob ? oo : 0) };
      members++;
      if (ob == 0) {
        empties++;
        continue;
      }
      st = single_run (op, &in.members[i].spec, &out.members[i].spec,
          &params[i], &b, &o);
      if (st.code != SIMA_OK && bad++ < 5)
        tap_diag ("%s trial %d member %zu single: %s", op_names[op], t, i,
            st.message);
      scratch = malloc ((size_t) ob);
      memset (scratch, FILL, (size_t) ob);
      oracle_run (op, &in.members[i].spec, b.data, &out.members[i].spec,
          &params[i], scratch);
      if (memcmp (scratch, set_out.data + oo, (size_t) ob) != 0
          && oracle_bad++ < 5)
        tap_diag ("%s trial %d member %zu differs from the oracle",
            op_names[op], t, i);
      free (scratch);
    }
    if ((memcmp (set_out.data, single_out.data, set_out.size) != 0
            || !all_bytes (set_out.data + out_cap, 32, FILL)
            || !test_buffer_guards_ok (&set_out)) && bad++ < 5)
      tap_diag ("%s trial %d: set and single-member outputs differ",
          op_names[op], t);
  next:
    test_buffer_free (&ib);
    test_buffer_free (&set_out);
    test_buffer_free (&single_out);
  }
  tap_ok (bad == 0, "%s: %d random sets (%d members, %d empty, shuffled "
      "placement with gaps) equal their single-member executes byte for "
      "byte, gaps and guards included", op_names[op], trials, members,
      empties);
  tap_ok (oracle_bad == 0, "%s: every member of those sets equals the "
      "oracle", op_names[op]);
}

/* ---- sima_tensor_set_pack ------------------------------------------------ */

static void
pack (void)
{
  static const int64_t s1[3] = { 3, 5, 7 };
  static const int64_t s2[2] = { 2, 3 };
  static const int64_t s0[2] = { 0, 3 };
  SimaTensorSpec specs[4];
  SimaTensorSet set;
  SimaTensorSetLayout lay;
  SimaStatus st;

  specs[0] = test_spec_dense (SIMA_DTYPE_FLOAT16, 2, s2);  /* 12 bytes */
  specs[1] = fix_in_spec ();                               /* 512, tiled */
  specs[2] = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, s1);  /* 420 */
  specs[3] = test_spec_dense (SIMA_DTYPE_FLOAT32, 2, s0);  /* empty */
  st = sima_tensor_set_pack (specs, 4, 0, "output", &set);
  expect_status ("pack, own alignments", st, SIMA_OK, NULL);
  tap_ok (set.n_members == 4 && set.members[0].offset == 0
      && set.members[1].offset == 16 && set.members[2].offset == 528
      && set.members[3].offset == 948,
      "pack 0: offsets 0, 16 (tiled: 12 rounded to 16), 528, 948 (empty "
      "at the end)");
  st = sima_tensor_set_check (&set, "output", &lay);
  tap_ok (st.code == SIMA_OK && lay.capacity == 948 && lay.alignment[1] == 16
      && lay.alignment[0] == 2 && lay.bytes[3] == 0,
      "packed set passes the check: capacity 948");
  st = sima_tensor_set_pack (specs, 4, 64, "output", &set);
  tap_ok (st.code == SIMA_OK && set.members[1].offset == 64
      && set.members[2].offset == 576 && set.members[3].offset == 1024
      && sima_tensor_set_check (&set, "output", NULL).code == SIMA_OK,
      "pack 64: offsets 0, 64, 576, 1024");
  st = sima_tensor_set_pack (specs, 4, 24, "output", &set);
  expect_status ("pack, alignment 24", st, SIMA_INVALID_ARGUMENT,
      "output set alignment is 24, must be 0 or a power of two up to 4096",
      NULL);
  tap_ok (set.n_members == 0, "a rejected pack leaves an empty set");
  expect_status ("pack, alignment 8192", sima_tensor_set_pack (specs, 4,
          8192, "input", &set), SIMA_INVALID_ARGUMENT, "alignment is 8192",
      NULL);
  expect_status ("pack, 17 specs", sima_tensor_set_pack (specs, 17, 0,
          "input", &set), SIMA_INVALID_ARITY, "input set has 17 members",
      NULL);
  specs[2].rank = 0;
  expect_status ("pack, invalid spec", sima_tensor_set_pack (specs, 3, 0,
          "input", &set), SIMA_INVALID_RANK, "input member 2", NULL);

  sima_tensor_set_single (&specs[1], &set);
  tap_ok (set.n_members == 1 && set.members[0].offset == 0
      && sima_tensor_set_is_single (&set)
      && sima_tensor_set_check (&set, "input", &lay).code == SIMA_OK
      && lay.capacity == 512, "single: one member at 0, capacity 512");
  set.members[0].offset = 16;
  tap_ok (!sima_tensor_set_is_single (&set) && !sima_tensor_set_is_single
      (NULL), "a member at 16 is not a single-tensor buffer");
}

int
main (void)
{
  rejections ();
  yolov8n ();
  random_sets (OP_QUANT, 0x9a7e, 60);
  random_sets (OP_CAST, 0xca57, 60);
  random_sets (OP_DETESS, 0xde7e, 60);
  pack ();
  return tap_done ();
}
