/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The TensorSet v1 container (route 53), host encoders and firmware
 * decoder:
 *  1. golden: the container the encoders write equals one assembled here
 *     from docs/ev74-descriptors.md's table with this file's own
 *     little-endian writer and CRC (never tensor_set_wire.h), around the
 *     single encoders' member bytes; for all three operations;
 *  2. a one-member set at offset 0 on both sides is byte for byte the single
 *     descriptor (and needs no container); at another offset it is a
 *     container;
 *  3. bind patches exactly the container's bytes 16-39; the firmware
 *     validates the bound container and runs it, equal to the A65 set
 *     execute;
 *  4. malformed containers: one point per class, each rejected by the
 *     native entry with the documented code and message, and no DMA;
 *  5. encoder refusals (capacities and offsets beyond 32 bits, bad plans).
 */
#include <simaai/kernels/a65/casttess.h>
#include <simaai/kernels/a65/detessdequant.h>
#include <simaai/kernels/a65/quanttess.h>
#include <simaai/kernels/ev74/casttess.h>
#include <simaai/kernels/ev74/detessdequant.h>
#include <simaai/kernels/ev74/quanttess.h>
#include <simaai/kernels/ev74/tensor_set.h>

#include <stdlib.h>
#include <string.h>

#include "ev74_wire_doc.h"
#include "hal/host/host_hal.h"
#include "status_expect.h"
#include "tap.h"
#include "tensor_set_fw.h"
#include "test_util.h"

/* ---- the document's table, restated ------------------------------------ */

enum {
  O_MAGIC = 0, O_VERSION = 4, O_LENGTH = 6, O_ROUTE = 8, O_FLAGS = 10,
  O_CRC = 12, O_IN_LEN = 16, O_OUT_LEN = 20, O_IN_ADDR = 24, O_OUT_ADDR = 32,
  O_IN_SPAN = 40, O_OUT_SPAN = 48, O_COUNT = 56, O_TABLE = 64,
  ENTRY = 24, E_IN = 0, E_OUT = 8, E_LEN = 16, ROUTE_SET = 53,
  DOC_MAX = 20416,
};

#define IN_BUS UINT64_C (0x80000000)
#define OUT_BUS UINT64_C (0x80400000)
enum { REGION_BYTES = 1 << 20, LOCAL_BYTES = 64 * 1024 };

static void
reseal (uint8_t *d, size_t len)
{
  test_put_le (d, O_CRC, test_doc_crc (d, len), 4);
}

/* The doc's container around the given member descriptors. */
static size_t
assemble (uint8_t *out, size_t n, const uint8_t *const *members,
    const size_t *lens, const uint64_t *in_off, const uint64_t *out_off,
    uint64_t in_span, uint64_t out_span)
{
  size_t at = O_TABLE + ENTRY * n, k;

  memset (out, 0, DOC_MAX);
  for (k = 0; k < n; k++) {
    at = (at + 7) & ~(size_t) 7;
    memcpy (out + at, members[k], lens[k]);
    test_put_le (out, O_TABLE + ENTRY * k + E_IN, in_off[k], 8);
    test_put_le (out, O_TABLE + ENTRY * k + E_OUT, out_off[k], 8);
    test_put_le (out, O_TABLE + ENTRY * k + E_LEN, lens[k], 2);
    at += lens[k];
  }
  test_put_le (out, O_MAGIC, 0x34375645u, 4);
  test_put_le (out, O_VERSION, 1, 2);
  test_put_le (out, O_LENGTH, at, 2);
  test_put_le (out, O_ROUTE, ROUTE_SET, 2);
  test_put_le (out, O_IN_SPAN, in_span, 8);
  test_put_le (out, O_OUT_SPAN, out_span, 8);
  out[O_COUNT] = (uint8_t) n;
  reseal (out, at);
  return at;
}

/* Where member k starts, from the doc's rule. */
static size_t
member_at (const uint8_t *d, size_t k)
{
  size_t n = d[O_COUNT], at = O_TABLE + ENTRY * n, i;
  for (i = 0; i <= k; i++) {
    at = (at + 7) & ~(size_t) 7;
    if (i < k)
      at += test_get_le (d, O_TABLE + ENTRY * i + E_LEN, 2);
  }
  return at;
}

/* ---- plans ---------------------------------------------------------------- */

static SimaDetessDequantSetPlan dd_plan, dd_one, dd_shifted;
static SimaQuantTessSetPlan qt_plan, qt_one;
static SimaCastTessSetPlan ct_plan, ct_one;

static SimaTensorSpec
tiled (SimaDType dt, int64_t h, int64_t w, int64_t c, const int64_t tile[4],
    SimaChannels ch)
{
  static const int8_t axes[4] = { -1, 0, 1, 2 };
  int64_t shape[3] = { h, w, c };
  return test_spec_tiled (dt, 3, shape, axes, tile, ch);
}

static SimaTensorSpec
dense (SimaDType dt, int64_t h, int64_t w, int64_t c)
{
  int64_t shape[3] = { h, w, c };
  return test_spec_dense (dt, 3, shape);
}

/* Three DetessDequant members: dense FP32, a non-row-major BF16 output
 * (STRIDED trailer), a subnormal scale (FP32 exact table): 176, 224 and
 * 1,200 bytes. Packed 64-aligned on both sides, or as given. */
static void
make_dd (SimaDetessDequantSetPlan *plan, size_t n, uint64_t in_shift,
    uint64_t out_shift)
{
  static const int64_t t1[4] = { 1, 4, 8, 16 }, t2[4] = { 1, 1, 7, 16 };
  SimaTensorSpec in[3], out[3];
  SimaTensorSet is, os;
  SimaDetessDequantParams p[3] = {
    { 0.05f, 3, SIMA_SCALE_MULTIPLY },
    { 11.328456438342892f, -61, SIMA_SCALE_DIVIDE },
    { 1e-40f, -7, SIMA_SCALE_MULTIPLY },
  };
  int64_t strides[3] = { 7 * 3 * 2 * 2, 3 * 2, 2 };
  SimaDetessDequantSetRequest req;
  SimaStatus st;
  size_t k;

  in[0] = tiled (SIMA_DTYPE_INT8, 8, 8, 32, t1, SIMA_CHANNELS_COMPACT);
  out[0] = dense (SIMA_DTYPE_FLOAT32, 8, 8, 32);
  in[1] = tiled (SIMA_DTYPE_INT8, 5, 7, 3, t2, SIMA_CHANNELS_PAD16);
  out[1] = dense (SIMA_DTYPE_BFLOAT16, 5, 7, 3);
  out[1].layout = SIMA_LAYOUT_STRIDED;
  memcpy (out[1].strides_bytes, strides, sizeof strides);
  in[2] = tiled (SIMA_DTYPE_INT8, 3, 5, 20, t1, SIMA_CHANNELS_PAD16);
  out[2] = dense (SIMA_DTYPE_FLOAT32, 3, 5, 20);
  sima_tensor_set_pack (in, n, 64, "input", &is);
  sima_tensor_set_pack (out, n, 64, "output", &os);
  for (k = 0; k < n; k++) {
    is.members[k].offset += in_shift;
    os.members[k].offset += out_shift;
  }
  req = (SimaDetessDequantSetRequest) { &is, &os, p, n };
  st = sima_detessdequant_set_check_inference (&req, plan);
  if (st.code != SIMA_OK) {
    tap_diag ("DetessDequant set: %s", st.message);
    abort ();
  }
}

static void
make_qt (SimaQuantTessSetPlan *plan, size_t n)
{
  static const int64_t t1[4] = { 1, 2, 4, 16 };
  SimaTensorSpec in[2], out[2];
  SimaTensorSet is, os;
  SimaQuantTessParams p[2] = {
    { 12.5f, -3, SIMA_ROUNDING_NEAREST_EVEN },
    { 0.25f, 100, SIMA_ROUNDING_TOWARD_ZERO },
  };
  SimaQuantTessSetRequest req;
  SimaStatus st;

  in[0] = dense (SIMA_DTYPE_FLOAT32, 4, 6, 3);
  out[0] = tiled (SIMA_DTYPE_INT8, 4, 6, 3, t1, SIMA_CHANNELS_PAD16);
  in[1] = dense (SIMA_DTYPE_FLOAT16, 3, 9, 33);
  out[1] = tiled (SIMA_DTYPE_INT8, 3, 9, 33, t1, SIMA_CHANNELS_COMPACT);
  sima_tensor_set_pack (in, n, 0, "input", &is);
  sima_tensor_set_pack (out, n, 0, "output", &os);
  req = (SimaQuantTessSetRequest) { &is, &os, p, n };
  st = sima_quanttess_set_check_inference (&req, plan);
  if (st.code != SIMA_OK) {
    tap_diag ("QuantTess set: %s", st.message);
    abort ();
  }
}

static void
make_ct (SimaCastTessSetPlan *plan, size_t n)
{
  static const int64_t t1[4] = { 1, 1, 8, 16 };
  SimaTensorSpec in[2], out[2];
  SimaTensorSet is, os;
  SimaCastTessSetRequest req;
  SimaStatus st;

  in[0] = dense (SIMA_DTYPE_BFLOAT16, 2, 8, 5);
  out[0] = tiled (SIMA_DTYPE_BFLOAT16, 2, 8, 5, t1, SIMA_CHANNELS_PAD16);
  in[1] = dense (SIMA_DTYPE_FLOAT32, 6, 3, 16);
  out[1] = tiled (SIMA_DTYPE_BFLOAT16, 6, 3, 16, t1, SIMA_CHANNELS_COMPACT);
  sima_tensor_set_pack (in, n, 16, "input", &is);
  sima_tensor_set_pack (out, n, 16, "output", &os);
  req = (SimaCastTessSetRequest) { &is, &os };
  st = sima_casttess_set_check_inference (&req, plan);
  if (st.code != SIMA_OK) {
    tap_diag ("CastTess set: %s", st.message);
    abort ();
  }
}

/* ---- 1, 2: golden containers and single members ------------------------ */

static SimaEv74Descriptor got, want_single, member[3];
static uint8_t doc[DOC_MAX];

static void
golden_container (const char *name, size_t n, const SimaTensorSetLayout *il,
    const SimaTensorSetLayout *ol, SimaStatus enc)
{
  const uint8_t *mp[3];
  size_t lens[3], k, len;

  for (k = 0; k < n; k++) {
    mp[k] = member[k].bytes;
    lens[k] = member[k].length;
  }
  len = assemble (doc, n, mp, lens, il->offset, ol->offset, il->capacity,
      ol->capacity);
  tap_ok (enc.code == SIMA_OK && got.length == len
      && test_first_diff (got.bytes, doc, len) < 0
      && test_get_le (got.bytes, O_CRC, 4) == test_doc_crc (doc, len),
      "%s %zu-member set: the container (%u bytes) equals the doc's, "
      "assembled here around the single encoders' members (first "
      "difference %d)", name, n, (unsigned) got.length,
      test_first_diff (got.bytes, doc, len));
}

static void
golden (void)
{
  SimaStatus st;
  size_t k;

  make_dd (&dd_plan, 3, 0, 0);
  for (k = 0; k < 3; k++)
    sima_ev74_detessdequant_encode_relocatable (&dd_plan.members[k],
        &member[k]);
  tap_ok (member[0].length == 176 && member[1].length == 224
      && member[2].length == 1200, "DetessDequant members are 176, 224 "
      "(STRIDED) and 1,200 (FP32 table) bytes");
  st = sima_ev74_detessdequant_set_encode_relocatable (&dd_plan, &got);
  golden_container ("DetessDequant", 3, &dd_plan.input_layout,
      &dd_plan.output_layout, st);
  tap_ok (sima_ev74_detessdequant_set_needs_container (&dd_plan)
      && sima_ev74_descriptor_route (&got) == 53
      && sima_ev74_descriptor_input_span (&got) == dd_plan.input_bytes
      && sima_ev74_descriptor_output_span (&got) == dd_plan.output_bytes,
      "the container's route is 53 and its spans are the sets' capacities "
      "(%llu, %llu)", (unsigned long long) dd_plan.input_bytes,
      (unsigned long long) dd_plan.output_bytes);

  make_qt (&qt_plan, 2);
  for (k = 0; k < 2; k++)
    sima_ev74_quanttess_encode_relocatable (&qt_plan.members[k], &member[k]);
  st = sima_ev74_quanttess_set_encode_relocatable (&qt_plan, &got);
  golden_container ("QuantTess", 2, &qt_plan.input_layout,
      &qt_plan.output_layout, st);

  make_ct (&ct_plan, 2);
  for (k = 0; k < 2; k++)
    sima_ev74_casttess_encode_relocatable (&ct_plan.members[k], &member[k]);
  st = sima_ev74_casttess_set_encode_relocatable (&ct_plan, &got);
  golden_container ("CastTess", 2, &ct_plan.input_layout,
      &ct_plan.output_layout, st);
}

static int
same_descriptor (const SimaEv74Descriptor *a, const SimaEv74Descriptor *b)
{
  return a->length == b->length && memcmp (a, b, sizeof *a) == 0;
}

static void
single_members (void)
{
  SimaStatus st;

  make_dd (&dd_one, 1, 0, 0);
  make_qt (&qt_one, 1);
  make_ct (&ct_one, 1);
  sima_ev74_detessdequant_encode_relocatable (&dd_one.members[0],
      &want_single);
  st = sima_ev74_detessdequant_set_encode_relocatable (&dd_one, &got);
  tap_ok (st.code == SIMA_OK && !sima_ev74_detessdequant_set_needs_container
      (&dd_one) && same_descriptor (&got, &want_single),
      "DetessDequant one-member set at offset 0: byte for byte the single "
      "descriptor (%u bytes, route %u), no container", (unsigned) got.length,
      (unsigned) sima_ev74_descriptor_route (&got));
  sima_ev74_quanttess_encode_relocatable (&qt_one.members[0], &want_single);
  st = sima_ev74_quanttess_set_encode_relocatable (&qt_one, &got);
  tap_ok (st.code == SIMA_OK && !sima_ev74_quanttess_set_needs_container
      (&qt_one) && same_descriptor (&got, &want_single),
      "QuantTess one-member set at offset 0: byte for byte the single "
      "descriptor");
  sima_ev74_casttess_encode_relocatable (&ct_one.members[0], &want_single);
  st = sima_ev74_casttess_set_encode_relocatable (&ct_one, &got);
  tap_ok (st.code == SIMA_OK && !sima_ev74_casttess_set_needs_container
      (&ct_one) && same_descriptor (&got, &want_single),
      "CastTess one-member set at offset 0: byte for byte the single "
      "descriptor");

  /* one member, output at 64: a container with the same member bytes */
  make_dd (&dd_shifted, 1, 0, 64);
  sima_ev74_detessdequant_encode_relocatable (&dd_shifted.members[0],
      &want_single);
  st = sima_ev74_detessdequant_set_encode_relocatable (&dd_shifted, &got);
  tap_ok (st.code == SIMA_OK
      && sima_ev74_detessdequant_set_needs_container (&dd_shifted)
      && sima_ev74_descriptor_route (&got) == ROUTE_SET
      && got.length == O_TABLE + ENTRY + want_single.length
      && memcmp (got.bytes + O_TABLE + ENTRY, want_single.bytes,
          want_single.length) == 0
      && test_get_le (got.bytes, O_TABLE + E_OUT, 8) == 64
      && sima_ev74_descriptor_output_span (&got)
      == 64 + dd_shifted.members[0].output_bytes,
      "one member at output offset 64: a %u-byte container holding the "
      "single descriptor unchanged, output span %llu", (unsigned) got.length,
      (unsigned long long) sima_ev74_descriptor_output_span (&got));
}

/* ---- 3: bind, validate, run -------------------------------------------- */

static uint8_t *in_host, *out_host, *expect_host, *local_mem;
static SimaHostRegion regions[2];
static SimaEv74Descriptor bound;

static void
bind_and_run (void)
{
  SimaEv74Binding ib = { IN_BUS, REGION_BYTES }, ob = { OUT_BUS, REGION_BYTES };
  SimaEv74Binding shortb = { OUT_BUS, 0 };
  static SimaA65DetessDequantSetPlan a65;
  SimaConstHostBuffer cin;
  SimaHostBuffer cout;
  SimaStatus st;
  uint64_t commands;
  size_t pending, i;
  int outside = 1;

  st = sima_ev74_detessdequant_set_encode_relocatable (&dd_plan, &bound);
  memcpy (doc, bound.bytes, bound.length);
  st = sima_ev74_descriptor_bind (&bound, &ib, &ob);
  for (i = 0; i < bound.length; i++)
    if ((i < O_IN_LEN || i >= O_IN_SPAN) && bound.bytes[i] != doc[i])
      outside = 0;
  tap_ok (st.code == SIMA_OK && outside
      && test_get_le (bound.bytes, O_IN_ADDR, 8) == IN_BUS
      && test_get_le (bound.bytes, O_OUT_ADDR, 8) == OUT_BUS
      && test_get_le (bound.bytes, O_IN_LEN, 4) == REGION_BYTES,
      "bind patches the container's bytes 16-39 only (members stay "
      "relocatable, the CRC unchanged)");
  memcpy (doc, bound.bytes, bound.length);
  expect_status ("bind of a container with a short output binding",
      sima_ev74_descriptor_bind (&bound, &ib, &shortb),
      SIMA_CAPACITY_TOO_SMALL, "output binding", NULL);
  tap_ok (memcmp (doc, bound.bytes, bound.length) == 0,
      "the failed bind left the container unchanged");
  expect_status ("firmware validation of the bound container",
      simafw_tensor_set_validate (bound.bytes, bound.length), SIMA_OK, NULL);

  for (i = 0; i < REGION_BYTES; i++)
    in_host[i] = (uint8_t) (i * 2654435761u >> 24);
  memset (out_host, 0x5A, REGION_BYTES);
  memset (expect_host, 0x5A, REGION_BYTES);
  st = test_run_entry (bound.bytes, bound.length, &commands, &pending);
  sima_a65_detessdequant_set_prepare (&dd_plan, &a65);
  cin = (SimaConstHostBuffer) { in_host, dd_plan.input_bytes };
  cout = (SimaHostBuffer) { expect_host, dd_plan.output_bytes };
  sima_a65_detessdequant_set_execute (&a65, &cin, &cout);
  tap_ok (st.code == SIMA_OK && pending == 0 && commands > 0
      && memcmp (out_host, expect_host, dd_plan.output_bytes + 4096) == 0,
      "the bound container runs on the host HAL (%llu DMA commands): its "
      "%llu output bytes and the 4 KiB after equal the A65 set execute (%s)",
      (unsigned long long) commands,
      (unsigned long long) dd_plan.output_bytes, st.message);
}

/* ---- 4: malformed containers --------------------------------------------- */

static uint8_t mut[DOC_MAX];
static size_t mut_len;

static void
start (void)
{
  memset (mut, 0, sizeof mut);
  memcpy (mut, bound.bytes, bound.length);
  mut_len = bound.length;
}

static void
finish (void)
{
  reseal (mut, mut_len);
  test_mutant (mut, (uint32_t) mut_len);
}

static void
set_entry (size_t k, int field, uint64_t v)
{
  test_put_le (mut, O_TABLE + ENTRY * k + (size_t) field, v,
      field == E_LEN ? 2 : 8);
}

static uint64_t
entry (size_t k, int field)
{
  return test_get_le (mut, O_TABLE + ENTRY * k + (size_t) field,
      field == E_LEN ? 2 : 8);
}

/* A member's own bytes changed: its CRC redone too. */
static void
reseal_member (size_t k)
{
  size_t at = member_at (mut, k);
  reseal (mut + at, (size_t) entry (k, E_LEN));
}

static void
malformed (void)
{
  static SimaQuantTessSetPlan inner_plan;
  static SimaEv74Descriptor inner;
  size_t k, at;
  int v;

  test_entry_use (regions, 2, local_mem, LOCAL_BYTES);

  test_mutants_begin ("member count 0, 17, 255", SIMA_INVALID_DESCRIPTOR,
      "member count is");
  {
    static const int counts[3] = { 0, 17, 255 };
    for (v = 0; v < 3; v++) {
      start ();
      mut[O_COUNT] = (uint8_t) counts[v];
      finish ();
    }
  }
  test_mutants_end ();

  test_mutants_begin ("member count 1, 2 (a table that does not match the "
      "members)", SIMA_INVALID_DESCRIPTOR, "TensorSet descriptor");
  for (v = 1; v <= 2; v++) {
    start ();
    mut[O_COUNT] = (uint8_t) v;
    finish ();
  }
  test_mutants_end ();

  test_mutants_begin ("member lengths that do not tile the descriptor",
      SIMA_INVALID_DESCRIPTOR, "member");
  for (k = 0; k < 3; k++) {
    static const int deltas[4] = { -8, 8, -1, 1 };
    for (v = 0; v < 4; v++) {
      start ();
      set_entry (k, E_LEN, entry (k, E_LEN) + (uint64_t) (int64_t) deltas[v]);
      finish ();
    }
  }
  start ();
  set_entry (0, E_LEN, 40);         /* shorter than a header */
  finish ();
  start ();
  set_entry (2, E_LEN, 1256);       /* longer than any member */
  finish ();
  start ();                         /* trailing bytes after the last member */
  mut_len += 8;
  test_put_le (mut, O_LENGTH, mut_len, 2);
  finish ();
  test_mutants_end ();

  test_mutants_begin ("a member's length field differs from its table entry",
      SIMA_INVALID_DESCRIPTOR, "length field is");
  for (k = 0; k < 3; k++) {
    start ();
    at = member_at (mut, k);
    test_put_le (mut, at + O_LENGTH, entry (k, E_LEN) + 8, 2);
    finish ();
  }
  test_mutants_end ();

  test_mutants_begin ("nested container", SIMA_INVALID_DESCRIPTOR,
      "containers do not nest");
  {
    /* member 1 replaced by a one-member QuantTess container (output offset
     * 16: a real container, 320 bytes) */
    static const int64_t t1[4] = { 1, 2, 4, 16 };
    SimaTensorSpec in = dense (SIMA_DTYPE_FLOAT32, 4, 6, 3);
    SimaTensorSpec out = tiled (SIMA_DTYPE_INT8, 4, 6, 3, t1,
        SIMA_CHANNELS_PAD16);
    SimaTensorSet is, os;
    SimaQuantTessParams p = { 1.0f, 0, SIMA_ROUNDING_NEAREST_EVEN };
    SimaQuantTessSetRequest req = { &is, &os, &p, 1 };
    const uint8_t *mp[3];
    size_t lens[3];
    uint64_t io[3], oo[3];
    sima_tensor_set_single (&in, &is);
    sima_tensor_set_single (&out, &os);
    os.members[0].offset = 16;
    sima_quanttess_set_check_inference (&req, &inner_plan);
    sima_ev74_quanttess_set_encode_relocatable (&inner_plan, &inner);
    for (k = 0; k < 3; k++) {
      mp[k] = bound.bytes + member_at (bound.bytes, k);
      lens[k] = (size_t) test_get_le (bound.bytes, O_TABLE + ENTRY * k + E_LEN,
          2);
      io[k] = test_get_le (bound.bytes, O_TABLE + ENTRY * k + E_IN, 8);
      oo[k] = test_get_le (bound.bytes, O_TABLE + ENTRY * k + E_OUT, 8);
    }
    mp[1] = inner.bytes;
    lens[1] = inner.length;
    mut_len = assemble (mut, 3, mp, lens, io, oo, dd_plan.input_bytes,
        dd_plan.output_bytes);
    memcpy (mut + O_IN_LEN, bound.bytes + O_IN_LEN, 24);
    finish ();
    /* and the one-member container as the only member */
    mp[0] = inner.bytes;
    lens[0] = inner.length;
    mut_len = assemble (mut, 1, mp, lens, io, oo, dd_plan.input_bytes,
        dd_plan.output_bytes);
    memcpy (mut + O_IN_LEN, bound.bytes + O_IN_LEN, 24);
    finish ();
  }
  test_mutants_end ();

  test_mutants_begin ("a member with a nonzero relocation block",
      SIMA_INVALID_DESCRIPTOR, "nonzero relocation block");
  for (k = 0; k < 3; k++)
    for (v = 16; v < 40; v += 4) {
      start ();
      mut[member_at (mut, k) + (size_t) v] = 1;   /* outside the member CRC */
      finish ();
    }
  test_mutants_end ();

  test_mutants_begin ("a member whose CRC does not match its bytes",
      SIMA_INVALID_DESCRIPTOR, "CRC does not match");
  for (k = 0; k < 3; k++) {
    start ();
    mut[member_at (mut, k) + 60] ^= 0x10;
    finish ();
    start ();
    mut[member_at (mut, k) + O_CRC] ^= 1;
    finish ();
  }
  test_mutants_end ();

  test_mutants_begin ("member routes 0, 54, 65535 and the magic",
      SIMA_INVALID_DESCRIPTOR, "member");
  {
    static const int routes[3] = { 0, 54, 0xffff };
    for (v = 0; v < 3; v++) {
      start ();
      test_put_le (mut, member_at (mut, 1) + O_ROUTE, (uint64_t) routes[v], 2);
      reseal_member (1);
      finish ();
    }
    start ();
    mut[member_at (mut, 2)] ^= 1;
    finish ();
  }
  test_mutants_end ();

  test_mutants_begin ("a member of another route that passes its header: "
      "the member's own decoder names it", SIMA_INVALID_DESCRIPTOR,
      "tensor set member 1: ");
  start ();
  test_put_le (mut, member_at (mut, 1) + O_ROUTE, 49, 2);
  reseal_member (1);
  finish ();
  start ();                          /* DetessCast, an allowed member route */
  test_put_le (mut, member_at (mut, 1) + O_ROUTE, 52, 2);
  reseal_member (1);
  finish ();
  start ();                          /* a reserved byte of the member */
  mut[member_at (mut, 1) + 60] = 1;
  reseal_member (1);
  finish ();
  test_mutants_end ();

  test_mutants_begin ("container version, flags, reserved bytes",
      SIMA_INVALID_DESCRIPTOR, "TensorSet descriptor");
  start ();
  test_put_le (mut, O_VERSION, 2, 2);
  finish ();
  start ();
  test_put_le (mut, O_FLAGS, 1, 2);
  finish ();
  for (v = 57; v < 64; v++) {
    start ();
    mut[v] = 1;
    finish ();
  }
  for (k = 0; k < 3; k++) {
    start ();
    mut[O_TABLE + ENTRY * k + 18 + k] = 1;
    finish ();
  }
  test_mutants_end ();

  test_mutants_begin ("an offset beyond the bound length",
      SIMA_INVALID_DESCRIPTOR, "beyond the bound length");
  start ();
  set_entry (2, E_IN, REGION_BYTES + 16);
  finish ();
  start ();
  set_entry (1, E_OUT, REGION_BYTES + 64);
  finish ();
  start ();                          /* bound to exactly the capacity */
  test_put_le (mut, O_IN_LEN, dd_plan.input_bytes, 4);
  set_entry (2, E_IN, dd_plan.input_bytes + 16);
  finish ();
  test_mutants_end ();

  test_mutants_begin ("an offset of 2^32 or more", SIMA_NOT_REPRESENTABLE,
      "not a 32-bit bus offset");
  start ();
  set_entry (1, E_IN, UINT64_C (1) << 32);
  finish ();
  start ();
  set_entry (0, E_OUT, UINT64_MAX - 15);
  finish ();
  test_mutants_end ();

  test_mutants_begin ("overlapping members", SIMA_OVERLAPPING_BUFFERS,
      "overlap");
  start ();                          /* output member 1 inside member 0 */
  set_entry (1, E_OUT, entry (0, E_OUT) + 64);
  finish ();
  start ();                          /* input member 2 at member 1's place */
  set_entry (2, E_IN, entry (1, E_IN));
  finish ();
  start ();                          /* every output member at 0 */
  set_entry (1, E_OUT, 0);
  set_entry (2, E_OUT, 0);
  finish ();
  test_mutants_end ();

  test_mutants_begin ("a misaligned member (its bus address, from the "
      "member's decoder)", SIMA_MISALIGNED_BUFFER, "tensor set member");
  start ();
  set_entry (1, E_IN, entry (1, E_IN) + 8);   /* tiled: 16 */
  finish ();
  start ();
  set_entry (0, E_OUT, 2);                    /* FP32: 4 */
  finish ();
  test_mutants_end ();

  test_mutants_begin ("misaligned member offsets on a base that aligns "
      "their addresses (the core's set check)", SIMA_MISALIGNED_BUFFER,
      "is not a multiple of 16");
  start ();
  test_put_le (mut, O_IN_ADDR, IN_BUS + 8, 8);
  for (k = 0; k < 3; k++)
    set_entry (k, E_IN, entry (k, E_IN) + 8);
  finish ();
  test_mutants_end ();

  test_mutants_begin ("spans that are not the sets' capacities",
      SIMA_INVALID_DESCRIPTOR, "capacity");
  for (v = 0; v < 4; v++) {
    static const int64_t deltas[2] = { 16, -16 };
    start ();
    test_put_le (mut, v < 2 ? O_IN_SPAN : O_OUT_SPAN,
        (v < 2 ? dd_plan.input_bytes : dd_plan.output_bytes)
        + (uint64_t) deltas[v % 2], 8);
    finish ();
  }
  test_mutants_end ();

  test_mutants_begin ("an unbound container (bound lengths 0)",
      SIMA_INVALID_DESCRIPTOR, "bound length");
  start ();
  memset (mut + O_IN_LEN, 0, 8);
  finish ();
  test_mutants_end ();

  test_mutants_all_rejected (60);
}

/* ---- 5: encoder refusals ------------------------------------------------ */

static void
encoder_refusals (void)
{
  static SimaDetessDequantSetPlan p;
  SimaEv74Descriptor *d = &got;

  p = dd_plan;
  p.output_layout.capacity = UINT64_C (1) << 32;
  expect_status ("encode: output capacity 2^32",
      sima_ev74_detessdequant_set_encode_relocatable (&p, d),
      SIMA_NOT_REPRESENTABLE, "capacity", NULL);
  p = dd_plan;
  p.input_layout.offset[1] = UINT64_C (1) << 33;
  expect_status ("encode: a member offset beyond 32 bits (an empty member "
      "may sit there on the host)",
      sima_ev74_detessdequant_set_encode_relocatable (&p, d),
      SIMA_NOT_REPRESENTABLE, "input offset of member 1", NULL);
  p = dd_plan;
  p.n_members = 0;
  expect_status ("encode: a plan with 0 members",
      sima_ev74_detessdequant_set_encode_relocatable (&p, d),
      SIMA_INVALID_ARGUMENT, "0 members", NULL);
  p.n_members = 17;
  expect_status ("encode: a plan with 17 members",
      sima_ev74_detessdequant_set_encode_relocatable (&p, d),
      SIMA_INVALID_ARGUMENT, "17 members", NULL);
  expect_status ("encode: NULL plan",
      sima_ev74_quanttess_set_encode_relocatable (NULL, d),
      SIMA_INVALID_ARGUMENT, "NULL", NULL);
  expect_status ("encode: NULL descriptor",
      sima_ev74_casttess_set_encode_relocatable (&ct_plan, NULL),
      SIMA_INVALID_ARGUMENT, "NULL", NULL);
}

int
main (void)
{
  in_host = aligned_alloc (64, REGION_BYTES);
  out_host = aligned_alloc (64, REGION_BYTES);
  expect_host = aligned_alloc (64, REGION_BYTES);
  local_mem = aligned_alloc (64, LOCAL_BYTES);
  regions[0] = (SimaHostRegion) { (uint32_t) IN_BUS, REGION_BYTES,
      in_host, NULL, NULL };
  regions[1] = (SimaHostRegion) { (uint32_t) OUT_BUS, REGION_BYTES,
      out_host, NULL, NULL };
  test_entry_use (regions, 2, local_mem, LOCAL_BYTES);

  golden ();
  single_members ();
  bind_and_run ();
  malformed ();
  encoder_refusals ();
  free (in_host);
  free (out_host);
  free (expect_host);
  free (local_mem);
  return tap_done ();
}
