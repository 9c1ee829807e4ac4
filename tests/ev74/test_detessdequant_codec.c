/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The DetessDequant v1 EV74 descriptor (176-byte base, STRIDED / CBLOCKED /
 * EXACT_TABLE / DIVIDE flags and trailers), host encoder and firmware decoder. Same
 * plan as test_quanttess_codec.c:
 *  1. golden vectors: the expected bytes (176 to 1,248) are written here
 *     from docs/ev74-descriptors.md with this file's own little-endian
 *     writer, CRC-32 and row-major rule, never with wire.h or
 *     detessdequant_wire.h; exact tables come from the test oracle, not from
 *     production numerics; one descriptor is also literal hex (Python zlib);
 *  2. bind: exactly bytes 16-39 change, the CRC and the trailers do not;
 *  3. round trip: random admitted plans survive encode + bind + decode, with
 *     the flags the doc prescribes and a job table equal to the oracle's;
 *  4. malformed descriptors: one point per mutation class, each rejected by
 *     the native entry with the documented code and ZERO DMA commands;
 *  5. each golden plan runs on the host HAL and matches the A65 and the
 *     oracle over the whole output span, holes included (two prefills).
 */
#include <simaai/kernels/a65/detessdequant.h>
#include <simaai/kernels/ev74/descriptor.h>
#include <simaai/kernels/ev74/detessdequant.h>
#include <simaai/kernels/ops/detessdequant.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detessdequant_fw.h"
#include "ev74_wire_doc.h"
#include "hal/host/host_hal.h"
#include "native_entry.h"
#include "oracle.h"
#include "status_expect.h"
#include "tap.h"
#include "test_util.h"

/* ---- the document's table, restated (not taken from *_wire.h) ------------ */

enum {
  BASE_BYTES = 176, STRIDE_BYTES = 48, MAX_BYTES = 1248, N_GOLDEN = 10,
  O_MAGIC = 0, O_VERSION = 4, O_LENGTH = 6, O_ROUTE = 8, O_FLAGS = 10,
  O_CRC = 12, O_IN_LEN = 16, O_OUT_LEN = 20, O_IN_ADDR = 24, O_OUT_ADDR = 32,
  O_IN_SPAN = 40, O_OUT_SPAN = 48, O_DTYPE = 56, O_RANK = 57,
  O_CHANNELS = 58, O_SHAPE = 64, O_AXES = 112, O_TILE = 120, O_COUNT = 152,
  O_SCALE = 168, O_ZP = 172, O_TRAILER = 176,
  F_STRIDED = 1, F_CBLOCKED = 2, F_TABLE = 4, F_DIVIDE = 8, F_CBLOCK = 16,
};

#define APERTURE UINT64_C (0x100000000)
#define IN_BUS UINT64_C (0x80000000)
#define OUT_BUS UINT64_C (0x80100000)
enum { REGION_BYTES = 1 << 20, LOCAL_BYTES = 64 * 1024 };

static void
reseal (uint8_t *d, size_t len)
{
  test_put_le (d, O_CRC, test_doc_crc (d, len), 4);
}

static uint32_t
float_bits (float f)
{
  uint32_t u;
  memcpy (&u, &f, sizeof u);
  return u;
}

static float
bits_float (uint32_t u)
{
  float f;
  memcpy (&f, &u, sizeof f);
  return f;
}

/* The doc's "row-major strides (ignoring singleton axes)", written here
 * from the definition: every axis of extent > 1 has the stride of the
 * logical row-major order. An empty output addresses nothing, so any
 * strides are as good as dense (the doc does not say so explicitly). */
static int
doc_row_major (const SimaTensorSpec *s)
{
  int64_t expect = s->dtype == SIMA_DTYPE_FLOAT32 ? 4 : 2;
  int i;
  for (i = 0; i < s->rank; i++)
    if (s->shape[i] == 0)
      return 1;
  for (i = s->rank - 1; i >= 0; i--) {
    if (s->shape[i] > 1 && s->strides_bytes[i] != expect)
      return 0;
    expect *= s->shape[i];
  }
  return 1;
}

/* The 256 results by INT8 byte, from the oracle, as the doc stores them;
 * divide: the divide convention's. */
static void
oracle_table (SimaDType dtype, float scale, int32_t zp, int divide,
    uint8_t *t)
{
  int i;
  for (i = 0; i < 256; i++)
    if (dtype == SIMA_DTYPE_FLOAT32)
      test_put_le (t, 4 * (size_t) i, divide
          ? oracle_dequant_div_f32_bits ((int8_t) i, scale, zp)
          : oracle_dequant_f32_bits ((int8_t) i, scale, zp), 4);
    else
      test_put_le (t, 2 * (size_t) i, divide
          ? oracle_dequant_div_bf16_bits ((int8_t) i, scale, zp)
          : oracle_dequant_bf16_bits ((int8_t) i, scale, zp), 2);
}

static int
is_divide (const SimaDetessDequantPlan *p)
{
  return p->params.convention == SIMA_SCALE_DIVIDE;
}

static unsigned
doc_flags (const SimaDetessDequantPlan *p)
{
  return (p->output.layout == SIMA_LAYOUT_STRIDED
      && !doc_row_major (&p->output) ? F_STRIDED : 0)
      | (p->input.layout == SIMA_LAYOUT_MLA_CBLOCKED ? F_CBLOCKED : 0)
      | ((float_bits (p->params.scale) & 0x7f800000u) == 0 ? F_TABLE : 0)
      | (is_divide (p) ? F_DIVIDE : 0)
      | (p->input.layout == SIMA_LAYOUT_MLA_TILED && p->input.tiled.cblock
          ? F_CBLOCK : 0);
}

/* The relocatable descriptor the doc prescribes for an admitted plan;
 * returns its length. Enum codes are spelled out as the doc numbers them. */
static uint32_t
doc_encode (const SimaDetessDequantPlan *p, uint8_t d[MAX_BYTES])
{
  unsigned flags = doc_flags (p);
  int fp32 = p->output.dtype == SIMA_DTYPE_FLOAT32, i;
  /* 176, + 48 with STRIDED, + 256 entries with EXACT_TABLE */
  uint32_t len = BASE_BYTES + (flags & F_STRIDED ? STRIDE_BYTES : 0)
      + (flags & F_TABLE ? (fp32 ? 1024 : 512) : 0);

  memset (d, 0, MAX_BYTES);
  test_put_le (d, O_MAGIC, 0x34375645u, 4);
  test_put_le (d, O_VERSION, 1, 2);
  test_put_le (d, O_LENGTH, len, 2);
  test_put_le (d, O_ROUTE, 50, 2);
  test_put_le (d, O_FLAGS, flags, 2);
  test_put_le (d, O_IN_SPAN, p->input_bytes, 8);
  test_put_le (d, O_OUT_SPAN, p->output_bytes, 8);
  d[O_DTYPE] = fp32 ? 0 : 2;
  d[O_RANK] = (uint8_t) p->input.rank;
  for (i = 0; i < p->input.rank; i++) {
    test_put_le (d, O_SHAPE + 8 * i, (uint64_t) p->input.shape[i], 8);
    if (flags & F_STRIDED)
      test_put_le (d, O_TRAILER + 8 * i, (uint64_t) p->output.strides_bytes[i], 8);
  }
  if (!(flags & F_CBLOCKED)) {
    d[O_CHANNELS] = p->input.tiled.channels == SIMA_CHANNELS_PAD16;
    for (i = 0; i < 4; i++) {
      d[O_AXES + i] = (uint8_t) p->input.tiled.axes[i];
      test_put_le (d, O_TILE + 8 * i, (uint64_t) p->input.tiled.tile_shape[i], 8);
    }
  }
  test_put_le (d, O_COUNT, p->element_count, 8);
  test_put_le (d, O_SCALE, float_bits (p->params.scale), 4);
  test_put_le (d, O_ZP, (uint32_t) p->params.zero_point, 4);
  if (flags & F_TABLE)
    oracle_table (p->output.dtype, p->params.scale, p->params.zero_point,
        is_divide (p), d + BASE_BYTES + (flags & F_STRIDED ? STRIDE_BYTES : 0));
  reseal (d, len);
  return len;
}

/* Golden 1 as literal bytes (CRC 0x309483d0 from Python zlib.crc32 over
 * bytes 0-11 and 40-175): INT8 {2,3} [W,C], axes {-1,-1,0,1}, tile
 * {1,1,2,3}, pad16 -> dense FP32, scale 0.5, zero point 3; spans 32/24. */
static const uint8_t GOLDEN_1[BASE_BYTES] = {
  /*   0 */ 0x45, 0x56, 0x37, 0x34, 0x01, 0x00, 0xb0, 0x00, 0x32, 0x00, 0x00, 0x00, 0xd0, 0x83, 0x94, 0x30,
  /*  16 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  32 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  48 */ 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  64 */ 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  80 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  96 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 112 */ 0xff, 0xff, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 128 */ 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 144 */ 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 160 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3f, 0x03, 0x00, 0x00, 0x00,
};

/* ---- plans ---------------------------------------------------------------- */

static SimaStatus
admit (const SimaTensorSpec *in, const SimaTensorSpec *out, float scale,
    int32_t zp, SimaScaleConvention conv, SimaDetessDequantPlan *plan)
{
  SimaDetessDequantRequest req = { in, 1, out, 1, { scale, zp, conv } };
  return sima_detessdequant_check_inference (&req, plan);
}

static SimaTensorSpec
cblocked_spec (int rank, const int64_t *shape)
{
  SimaTensorSpec s = test_spec_dense (SIMA_DTYPE_INT8, rank, shape);
  s.layout = SIMA_LAYOUT_MLA_CBLOCKED;
  return s;
}

/* The golden plans, spans and element counts worked out by hand from
 * docs/layout.md, flags and lengths from docs/ev74-descriptors.md. */
typedef struct {
  const char *name;
  int cblocked, rank;
  int64_t shape[6];
  int8_t axes[4];
  int64_t tile[4];
  SimaChannels channels;
  SimaDType dtype;
  int strided;
  int64_t strides[6];
  uint32_t scale_bits;
  int32_t zp;
  uint64_t in_span, out_span, count;
  unsigned flags;
  uint32_t length;
} Golden;

static const Golden GOLDEN[N_GOLDEN] = {
  /* one tile of 2 pixels x 16 stored channels = 32; 6 FP32 = 24 */
  { "dense FP32 {2,3} pad16", 0, 2, { 2, 3 }, { -1, -1, 0, 1 }, { 1, 1, 2, 3 },
    SIMA_CHANNELS_PAD16, SIMA_DTYPE_FLOAT32, 0, { 0 }, 0x3f000000, 3,
    32, 24, 6, 0, 176 },
  /* per N slice 4 tiles, every payload <= 16 bytes: 64 x 2 = 128;
   * 2 + 128 + 2*32 + 12 + 4*2 = 214 */
  { "BF16 strided {2,3,2,5} compact", 0, 4, { 2, 3, 2, 5 }, { -1, 1, 2, 3 },
    { 1, 2, 2, 4 }, SIMA_CHANNELS_COMPACT, SIMA_DTYPE_BFLOAT16, 1,
    { 128, 32, 12, 2 }, 0x3dcccccd, 1000, 128, 214, 60, F_STRIDED, 224 },
  /* o=2, CB=2, H=2, W=3: 2*2*2*3*16 = 384; 204 FP32 = 816 */
  { "CBLOCKED {2,2,3,17} -> dense FP32", 1, 4, { 2, 2, 3, 17 }, { 0 }, { 0 },
    SIMA_CHANNELS_COMPACT, SIMA_DTYPE_FLOAT32, 0, { 0 }, 0x40000000, -5,
    384, 816, 204, F_CBLOCKED, 176 },
  /* W tiles of 3 + 1 pixels x 16 = 48 + 16 = 64; 64 FP32 = 256 */
  { "subnormal scale, dense FP32 {4,16}", 0, 2, { 4, 16 }, { -1, -1, 0, 1 },
    { 1, 1, 3, 16 }, SIMA_CHANNELS_COMPACT, SIMA_DTYPE_FLOAT32, 0, { 0 },
    0x00000001, INT32_MAX, 64, 256, 64, F_TABLE, 1200 },
  /* pad16 W tiles 2 + 1 pixels: 32 + 16 = 48; channels-first BF16 output
   * 2 + 2*2 + 4*8 = 38 */
  { "subnormal scale, BF16 strided channels-first {3,5} pad16", 0, 2,
    { 3, 5 }, { -1, -1, 0, 1 }, { 1, 1, 2, 5 }, SIMA_CHANNELS_PAD16,
    SIMA_DTYPE_BFLOAT16, 1, { 2, 8 }, 0x007fffff, INT32_MIN, 48, 38, 15,
    F_STRIDED | F_TABLE, 736 },
  /* row-major but for the singleton axis's stride: must encode as dense;
   * one 6-byte tile -> 16; 6 FP32 = 24 */
  { "explicitly row-major strided FP32 {2,1,3} (encodes dense)", 0, 3,
    { 2, 1, 3 }, { -1, -1, 0, 2 }, { 1, 1, 2, 3 }, SIMA_CHANNELS_COMPACT,
    SIMA_DTYPE_FLOAT32, 1, { 12, 400, 4 }, 0x3e800000, -100, 16, 24, 6, 0,
    176 },
  /* CB=1, H=2, W=2: 64; planar FP32 output 4 + 8 + 4 + 2*16 = 48 */
  { "CBLOCKED {1,2,2,3}, subnormal scale, FP32 planar strided", 1, 4,
    { 1, 2, 2, 3 }, { 0 }, { 0 }, SIMA_CHANNELS_COMPACT, SIMA_DTYPE_FLOAT32,
    1, { 0, 8, 4, 16 }, 0x00000003, 0, 64, 48, 12,
    F_STRIDED | F_CBLOCKED | F_TABLE, 1248 },
  /* rank 3: CB=2, H=2, W=3: 192; 120 BF16 = 240 */
  { "CBLOCKED {2,3,20}, subnormal scale, dense BF16", 1, 3, { 2, 3, 20 },
    { 0 }, { 0 }, SIMA_CHANNELS_COMPACT, SIMA_DTYPE_BFLOAT16, 0, { 0 },
    0x00400000, -1, 192, 240, 120, F_CBLOCKED | F_TABLE, 688 },
  /* the divide convention (flags carry it): YOLOv8n head 0's dq_scale
   * (11.328456438342892 as binary32) and dq_zp on one 1 x 4 x 16 row,
   * 64 bytes; 64 FP32 = 256 */
  { "divide, dense FP32 {4,16} (YOLOv8n head 0's dq values)", 0, 2,
    { 4, 16 }, { -1, -1, 0, 1 }, { 1, 1, 4, 16 }, SIMA_CHANNELS_PAD16,
    SIMA_DTYPE_FLOAT32, 0, { 0 }, 0x4135415c, -61, 64, 256, 64, F_DIVIDE,
    176 },
  /* divide by a subnormal: the table holds divide results, infinities
   * among them; 256 values in 16 pixels of 16 = 256; 512 BF16 bytes */
  { "divide, subnormal scale, dense BF16 {16,16}", 0, 2, { 16, 16 },
    { -1, -1, 0, 1 }, { 1, 1, 16, 16 }, SIMA_CHANNELS_COMPACT,
    SIMA_DTYPE_BFLOAT16, 0, { 0 }, 0x00700000, 7, 256, 512, 256,
    F_DIVIDE | F_TABLE, 688 },
};

static SimaStatus
golden_plan (int g, SimaDetessDequantPlan *plan)
{
  const Golden *x = &GOLDEN[g];
  SimaTensorSpec in = x->cblocked ? cblocked_spec (x->rank, x->shape)
      : test_spec_tiled (SIMA_DTYPE_INT8, x->rank, x->shape, x->axes, x->tile,
          x->channels);
  SimaTensorSpec out = x->strided
      ? test_spec_strided (x->dtype, x->rank, x->shape, x->strides)
      : test_spec_dense (x->dtype, x->rank, x->shape);
  return admit (&in, &out, bits_float (x->scale_bits), x->zp,
      x->flags & F_DIVIDE ? SIMA_SCALE_DIVIDE : SIMA_SCALE_MULTIPLY, plan);
}

static int
encode_golden (int g, SimaDetessDequantPlan *plan, SimaEv74Descriptor *desc)
{
  SimaStatus st = golden_plan (g, plan);
  if (sima_status_is_ok (&st))
    st = sima_ev74_detessdequant_encode_relocatable (plan, desc);
  return sima_status_is_ok (&st);
}

static int
same (const SimaEv74Descriptor *d, const uint8_t *want, uint32_t len)
{
  return d->length == len && test_first_diff (d->bytes, want, len) < 0;
}

/* ---- 1. golden vectors ---------------------------------------------------- */

static void
golden_vectors (void)
{
  SimaEv74Descriptor desc, dense;
  SimaDetessDequantPlan plan, dplan;
  uint8_t want[MAX_BYTES], table[1024];
  int g;

  tap_ok (~test_crc32_update (0xffffffffu, (const uint8_t *) "123456789", 9)
      == 0xCBF43926u, "own CRC-32 gives the IEEE check value 0xcbf43926");
  for (g = 0; g < N_GOLDEN; g++) {
    const Golden *x = &GOLDEN[g];
    SimaStatus st = golden_plan (g, &plan);
    uint32_t len;
    int scalar = x->dtype == SIMA_DTYPE_FLOAT32 ? 4 : 2;

    if (!expect_status (x->name, st, SIMA_OK, NULL))
      continue;
    tap_ok (plan.input_bytes == x->in_span && plan.output_bytes == x->out_span
        && plan.element_count == x->count, "%s: spans %llu/%llu, %llu "
        "elements as computed by hand", x->name,
        (unsigned long long) plan.input_bytes,
        (unsigned long long) plan.output_bytes,
        (unsigned long long) plan.element_count);
    memset (&desc, 0xAB, sizeof desc);
    st = sima_ev74_detessdequant_encode_relocatable (&plan, &desc);
    expect_status ("  encode", st, SIMA_OK, NULL);
    len = doc_encode (&plan, want);
    tap_ok (len == x->length && doc_flags (&plan) == x->flags
        && desc.length == x->length
        && test_get_le (desc.bytes, O_FLAGS, 2) == x->flags, "%s: %u bytes, flags "
        "%#x (doc: %u, %#x)", x->name, (unsigned) desc.length,
        (unsigned) test_get_le (desc.bytes, O_FLAGS, 2), (unsigned) x->length,
        x->flags);
    if (!tap_ok (same (&desc, want, len), "%s: encoder output equals the "
            "doc's bytes", x->name))
      tap_diag ("first difference at byte %d",
          test_first_diff (desc.bytes, want, len));
    if (x->flags & F_TABLE) {
      /* the trailer against the oracle directly, not via doc_encode */
      oracle_table (x->dtype, bits_float (x->scale_bits), x->zp,
          (x->flags & F_DIVIDE) != 0, table);
      tap_ok (desc.length == x->length && memcmp (desc.bytes + x->length
              - 256 * scalar, table, 256 * (size_t) scalar) == 0,
          "%s: exact table (last %d bytes) equals the oracle's", x->name,
          256 * scalar);
    }
    if (g == 0)
      tap_ok (same (&desc, GOLDEN_1, BASE_BYTES)
          && test_first_diff (want, GOLDEN_1, BASE_BYTES) < 0, "own writer and "
          "encoder reproduce the literal hex golden");
    if (x->strided && !(x->flags & F_STRIDED)) {
      /* the same plan with a contiguous output: byte-identical */
      SimaTensorSpec out = test_spec_dense (x->dtype, x->rank, x->shape);
      st = admit (&plan.input, &out, plan.params.scale, x->zp,
          plan.params.convention, &dplan);
      if (sima_status_is_ok (&st))
        st = sima_ev74_detessdequant_encode_relocatable (&dplan, &dense);
      tap_ok (sima_status_is_ok (&st) && same (&desc, dense.bytes,
              dense.length), "%s: identical to the contiguous output's "
          "descriptor", x->name);
    }
  }
}

/* ---- 2. bind -------------------------------------------------------------- */

static void
bind_tests (void)
{
  /* on the 1,248-byte descriptor (spans 64/48): success rewrites exactly
   * bytes 16-39, failures leave every byte as it was */
  static const struct {
    const char *name;
    uint64_t in_addr, in_len, out_addr, out_len;
    SimaStatusCode code;
  } binds[] = {
    { "bind", IN_BUS, 4096, OUT_BUS + 4, 48, SIMA_OK },
    { "rebind, 8 GiB input binding", 0x1000, UINT64_C (1) << 33, 0x1040, 64,
      SIMA_OK },
    { "input 2^32-48 + span 64", APERTURE - 48, 64, OUT_BUS, 64,
      SIMA_NOT_REPRESENTABLE },
    { "input binding 63 < span 64", IN_BUS, 63, OUT_BUS, 64,
      SIMA_CAPACITY_TOO_SMALL },
    { "output inside input", IN_BUS, 64, IN_BUS + 60, 64,
      SIMA_OVERLAPPING_BUFFERS },
  };
  SimaEv74Descriptor reloc, d, before;
  SimaDetessDequantPlan plan;
  uint8_t want[MAX_BYTES];
  size_t i;

  if (!tap_ok (encode_golden (6, &plan, &reloc) && reloc.length == 1248,
          "bind: the 1,248-byte golden encodes"))
    return;
  d = reloc;
  for (i = 0; i < sizeof binds / sizeof binds[0]; i++) {
    SimaEv74Binding in = { binds[i].in_addr, binds[i].in_len };
    SimaEv74Binding out = { binds[i].out_addr, binds[i].out_len };
    SimaStatus st;
    before = d;
    st = sima_ev74_descriptor_bind (&d, &in, &out);
    expect_status (binds[i].name, st, binds[i].code, NULL);
    if (binds[i].code != SIMA_OK) {
      tap_ok (memcmp (&before, &d, sizeof d) == 0,
          "failed bind (%s) leaves the descriptor unchanged", binds[i].name);
      continue;
    }
    memcpy (want, reloc.bytes, reloc.length);
    test_put_le (want, O_IN_LEN, binds[i].in_len > UINT32_MAX ? UINT32_MAX
        : binds[i].in_len, 4);
    test_put_le (want, O_OUT_LEN, binds[i].out_len, 4);
    test_put_le (want, O_IN_ADDR, in.bus_address, 8);
    test_put_le (want, O_OUT_ADDR, out.bus_address, 8);
    tap_ok (same (&d, want, reloc.length)
        && test_get_le (d.bytes, O_CRC, 4) == test_doc_crc (d.bytes, d.length),
        "%s: exactly bytes 16-39 change; CRC, strides and table as encoded",
        binds[i].name);
  }
  /* encode: an FP32 output span of 2^32 is not representable */
  {
    static const int8_t axes[4] = { -1, -1, -1, 0 };
    static const int64_t tile[4] = { 1, 1, 1, 16 };
    int64_t n = INT64_C (1) << 30;
    SimaTensorSpec si = test_spec_tiled (SIMA_DTYPE_INT8, 1, &n, axes, tile,
        SIMA_CHANNELS_COMPACT);
    SimaTensorSpec so = test_spec_dense (SIMA_DTYPE_FLOAT32, 1, &n);
    SimaStatus st = admit (&si, &so, 1.0f, 0, SIMA_SCALE_MULTIPLY, &plan);
    if (sima_status_is_ok (&st))
      st = sima_ev74_detessdequant_encode_relocatable (&plan, &d);
    expect_status ("encode: FP32 output span 2^32", st,
        SIMA_NOT_REPRESENTABLE, NULL);
  }
}

/* ---- 3. round trip -------------------------------------------------------- */

/* A random request the admission should accept: INT8 MlaTiled (ranks 1-6,
 * random mapping and tiles, both channel modes) or MlaCBlocked (ranks 3-6);
 * FP32 or BF16 output, contiguous, strided (sorted-span strides in a random
 * axis order with gaps) or explicitly row-major strided (singleton strides
 * arbitrary); normal and subnormal scales; zero points across int32. */
static void
random_request (TestRng *r, SimaTensorSpec *in, SimaTensorSpec *out,
    float *scale, int32_t *zp, SimaScaleConvention *conv)
{
  static const int32_t zps[] = { INT32_MIN, INT32_MAX, 0, -128, 127,
    (1 << 24) + 1, -(1 << 24) - 1 };
  int cb = test_rng_below (r, 4) == 0, perm[6] = { 0 }, i, k;
  int rank = (int) test_rng_range (r, cb ? 3 : 1, 6);
  int64_t shape[6] = { 0 }, strides[6] = { 0 }, tile[4] = { 1, 1, 1, 1 };
  int8_t axes[4] = { -1, -1, -1, -1 };
  SimaDType dtype = test_rng_below (r, 2) ? SIMA_DTYPE_FLOAT32
      : SIMA_DTYPE_BFLOAT16;
  int64_t scalar = dtype == SIMA_DTYPE_FLOAT32 ? 4 : 2, reach = scalar;
  uint64_t kind = test_rng_below (r, 3);

  for (i = 0; i < rank; i++) {
    shape[i] = test_rng_below (r, 80) == 0 ? 0 : test_rng_range (r, 1, 5);
    perm[i] = i;
  }
  if (cb && shape[rank - 1] > 0)       /* several channel blocks */
    shape[rank - 1] = test_rng_range (r, 1, 40);
  for (i = rank - 1; i > 0; i--) {     /* Fisher-Yates */
    int j = (int) test_rng_below (r, (uint64_t) i + 1), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  if (kind == 1) {                     /* sorted-span strides, with gaps */
    for (i = 0; i < rank; i++) {
      int64_t s = reach + scalar * (int64_t) test_rng_below (r, 3);
      strides[perm[i]] = shape[perm[i]] <= 1 && test_rng_below (r, 4) == 0
          ? 0 : s;
      if (shape[perm[i]] > 1)
        reach += (shape[perm[i]] - 1) * s;
    }
  } else if (kind == 2) {              /* row-major, singletons anything */
    for (i = rank - 1; i >= 0; i--) {
      strides[i] = shape[i] == 1 ? scalar * (int64_t) test_rng_below (r, 50)
          : reach;
      reach *= shape[i] > 0 ? shape[i] : 1;
    }
  }
  *out = kind ? test_spec_strided (dtype, rank, shape, strides)
      : test_spec_dense (dtype, rank, shape);
  if (cb) {
    *in = cblocked_spec (rank, shape);
  } else {
    axes[SIMA_MLA_C] = (int8_t) perm[0];
    for (i = 1, k = SIMA_MLA_W; k >= SIMA_MLA_D && i < rank; k--)
      if (test_rng_below (r, 3) != 0)
        axes[k] = (int8_t) perm[i++];
    for (k = 0; k < 4; k++)
      if (axes[k] >= 0)
        tile[k] = test_rng_range (r, 1, shape[axes[k]] + 2);
    *in = test_spec_tiled (SIMA_DTYPE_INT8, rank, shape, axes, tile,
        (SimaChannels) test_rng_below (r, 2));
  }
  *scale = bits_float (test_rng_below (r, 3) == 0
      ? (uint32_t) test_rng_range (r, 1, 0x7fffff)
      : (uint32_t) test_rng_range (r, 1, 254) << 23
      | (uint32_t) test_rng_below (r, 0x800000));
  *zp = test_rng_below (r, 2) ? zps[test_rng_below (r, 7)]
      : (int32_t) (uint32_t) test_rng_next (r);
  *conv = test_rng_below (r, 2) ? SIMA_SCALE_DIVIDE : SIMA_SCALE_MULTIPLY;
}

/* What a decoder failed to give back, or NULL. A row-major strided output
 * comes back dense: the doc makes that its only encoding. */
static const char *
plan_difference (const SimaDetessDequantPlan *a, const SimaDetessDequantPlan *b,
    unsigned flags)
{
  const SimaTensorSpec *ai = &a->input, *bi = &b->input;
  size_t r = (size_t) ai->rank * sizeof (int64_t);
  SimaLayout out_layout = flags & F_STRIDED ? SIMA_LAYOUT_STRIDED
      : SIMA_LAYOUT_CONTIGUOUS;

  if (ai->rank != bi->rank || b->output.rank != ai->rank
      || bi->dtype != SIMA_DTYPE_INT8 || ai->layout != bi->layout
      || a->output.dtype != b->output.dtype || b->output.layout != out_layout)
    return "rank, dtype or layout";
  if (memcmp (ai->shape, bi->shape, r) != 0
      || memcmp (b->output.shape, ai->shape, r) != 0)
    return "shape";
  if (out_layout == SIMA_LAYOUT_STRIDED
      && memcmp (a->output.strides_bytes, b->output.strides_bytes, r) != 0)
    return "strides";
  if (ai->layout == SIMA_LAYOUT_MLA_TILED
      && (memcmp (ai->tiled.axes, bi->tiled.axes, 4) != 0
          || memcmp (ai->tiled.tile_shape, bi->tiled.tile_shape,
              sizeof ai->tiled.tile_shape) != 0
          || ai->tiled.channels != bi->tiled.channels
          || ai->tiled.cblock != bi->tiled.cblock))
    return "tiling";
  if (float_bits (a->params.scale) != float_bits (b->params.scale)
      || a->params.zero_point != b->params.zero_point
      || a->params.convention != b->params.convention)
    return "parameters";
  if (a->input_bytes != b->input_bytes || a->output_bytes != b->output_bytes
      || a->element_count != b->element_count)
    return "spans or element count";
  return NULL;
}

static void
round_trip (void)
{
  enum { N = 10000 };
  TestRng rng = { 0xDE7E55DE0AA70C0Dull };
  unsigned seen_rank = 0, seen_cb_rank = 0, seen_dtype = 0, seen_ch = 0,
      seen_flags = 0, seen_zp = 0;
  int i, admitted = 0, doc_equal = 0, trips = 0, empties = 0, densified = 0;
  char first[200] = "";
#define NOTE(...) \
  do { if (!first[0]) snprintf (first, sizeof first, __VA_ARGS__); } while (0)

  for (i = 0; i < N; i++) {
    SimaTensorSpec in, out;
    SimaDetessDequantPlan plan;
    SimaEv74Descriptor d;
    SimaFwDetessDequantJob job;
    SimaEv74Binding ib, ob;
    uint8_t want[MAX_BYTES], table[1024], got[1024], every[256];
    const char *why;
    unsigned flags;
    uint32_t len;
    float scale;
    int32_t zp;
    SimaScaleConvention conv;
    int k, scalar;
    SimaStatus st;

    random_request (&rng, &in, &out, &scale, &zp, &conv);
    st = admit (&in, &out, scale, zp, conv, &plan);
    admitted += sima_status_is_ok (&st);
    if (sima_status_is_ok (&st))
      st = sima_ev74_detessdequant_encode_relocatable (&plan, &d);
    if (!sima_status_is_ok (&st)) {
      NOTE ("admit/encode #%d: %s", i, st.message);
      continue;
    }
    len = doc_encode (&plan, want);
    flags = doc_flags (&plan);
    if (same (&d, want, len))
      doc_equal++;
    else
      NOTE ("#%d (%u bytes, doc %u) differs from the doc at byte %d", i,
          (unsigned) d.length, (unsigned) len, test_first_diff (d.bytes, want,
              len));
    /* input 16-aligned low in the aperture, output scalar-aligned high */
    scalar = out.dtype == SIMA_DTYPE_FLOAT32 ? 4 : 2;
    ib.bus_address = 16 * test_rng_below (&rng, UINT64_C (1) << 26);
    ib.length = plan.input_bytes + test_rng_below (&rng, 64);
    ob.bus_address = (UINT64_C (1) << 31)
        + (uint64_t) scalar * test_rng_below (&rng, UINT64_C (1) << 28);
    ob.length = plan.output_bytes + test_rng_below (&rng, 64);
    st = sima_ev74_descriptor_bind (&d, &ib, &ob);
    if (sima_status_is_ok (&st))
      st = simafw_detessdequant_decode (d.bytes, d.length, &job);
    if (!sima_status_is_ok (&st)) {
      NOTE ("bind/decode #%d: %s", i, st.message);
      continue;
    }
    why = plan_difference (&plan, &job.plan, flags);
    if (why == NULL && job.flags != flags)
      why = "flags";
    if (why == NULL && ((plan.input_bytes > 0 && job.input_bus != ib.bus_address)
        || (plan.output_bytes > 0 && job.output_bus != ob.bus_address)))
      why = "bus address";
    oracle_table (out.dtype, scale, zp, conv == SIMA_SCALE_DIVIDE, table);
    /* the job's arithmetic on every INT8 value (firmware/dequant_vec.h:
     * the vector path of an admitted normal scale, else the exact table),
     * and a table the job holds, entry by entry */
    for (k = 0; k < 256; k++)
      every[k] = (uint8_t) k;
    memset (got, 0, sizeof got);
    simafw_dequant_block (&job.block, every, got, 256);
    if (why == NULL && memcmp (got, table, 256 * (size_t) scalar) != 0)
      why = "job block output != oracle";
    if (job.block.use_table) {
      for (k = 0; k < 256; k++)
        test_put_le (got, (size_t) (k * scalar), scalar == 4
            ? job.block.table.f32[k] : job.block.table.bf16[k], scalar);
      if (why == NULL && memcmp (got, table, 256 * (size_t) scalar) != 0)
        why = "job table != oracle";
    }
    if (why != NULL) {
      NOTE ("#%d decodes differently: %s", i, why);
      continue;
    }
    trips++;
    empties += plan.element_count == 0;
    densified += out.layout == SIMA_LAYOUT_STRIDED && !(flags & F_STRIDED)
        && plan.element_count > 0;
    if (in.layout == SIMA_LAYOUT_MLA_CBLOCKED)
      seen_cb_rank |= 1u << in.rank;
    else {
      seen_rank |= 1u << in.rank;
      seen_ch |= 1u << in.tiled.channels;
    }
    seen_dtype |= 1u << out.dtype;
    seen_flags |= 1u << flags;
    seen_zp |= (zp == INT32_MIN ? 1u : 0u) | (zp == INT32_MAX ? 2u : 0u);
  }
#undef NOTE
  tap_ok (admitted == N && doc_equal == N, "round trip: %d/%d generated "
      "requests admitted, %d encoded equal to the doc's bytes", admitted, N,
      doc_equal);
  tap_ok (trips == N, "round trip: %d/%d plans decode to the same plan, "
      "spans, count, bus addresses, flags and oracle-equal results "
      "(%d empty, %d row-major strided sent dense)", trips, N, empties,
      densified);
  if (first[0])
    tap_diag ("first problem: %s", first);
  tap_ok (seen_rank == 0x7e && seen_cb_rank == 0x78 && seen_dtype == 5
      && seen_ch == 3 && seen_flags == 0xffff && seen_zp == 3 && empties > 0
      && densified > 0, "round trip covers MlaTiled ranks 1-6 (%#x), "
      "MlaCBlocked ranks 3-6 (%#x), FP32 and BF16 (%#x), both channel modes "
      "(%#x), all 16 flag combinations (%#x), zero points INT32_MIN/MAX (%#x)",
      seen_rank, seen_cb_rank, seen_dtype, seen_ch, seen_flags, seen_zp);
}


/* ---- cblock (flag bit 4) -------------------------------------------------- */

/* Random requests with cblock pad16 tiled inputs: the flag is bit 4 and
 * nothing else changes (the flag-less twin differs in bytes 10-15 only: the
 * flags and the CRC); decoding gives the cblock plan back. */
static void
cblock_round_trip (void)
{
  enum { N = 3000 };
  TestRng rng = { 0xCB10C0DEC0DE0050ull };
  int i, n = 0, trips = 0, twins = 0;
  char first[200] = "";

  for (i = 0; i < N; i++) {
    SimaTensorSpec in, out;
    SimaDetessDequantPlan plan, plan0;
    SimaEv74Descriptor d, d0;
    SimaFwDetessDequantJob job;
    SimaEv74Binding ib, ob;
    uint8_t want[MAX_BYTES];
    const char *why = NULL;
    float scale;
    int32_t zp;
    SimaScaleConvention conv;
    SimaStatus st;
    uint32_t len, k;
    int other = 0, scalar;

    random_request (&rng, &in, &out, &scale, &zp, &conv);
    if (in.layout != SIMA_LAYOUT_MLA_TILED)
      continue;
    in.tiled.channels = SIMA_CHANNELS_PAD16;
    in.tiled.cblock = 1;
    st = admit (&in, &out, scale, zp, conv, &plan);
    if (sima_status_is_ok (&st))
      st = sima_ev74_detessdequant_encode_relocatable (&plan, &d);
    if (!sima_status_is_ok (&st))
      continue;                 /* spans beyond the aperture */
    n++;
    len = doc_encode (&plan, want);
    if (!same (&d, want, len) || !(test_get_le (d.bytes, O_FLAGS, 2) & F_CBLOCK))
      why = "encoded bytes differ from the doc's (flag bit 4)";
    in.tiled.cblock = 0;
    st = admit (&in, &out, scale, zp, conv, &plan0);
    if (sima_status_is_ok (&st))
      st = sima_ev74_detessdequant_encode_relocatable (&plan0, &d0);
    for (k = 0; k < d.length && sima_status_is_ok (&st); k++)
      other += (k < 10 || k > 15) && d.bytes[k] != d0.bytes[k];
    if (why == NULL && (!sima_status_is_ok (&st) || other != 0
            || d0.length != d.length
            || (test_get_le (d0.bytes, O_FLAGS, 2) ^ test_get_le (d.bytes,
                    O_FLAGS, 2)) != F_CBLOCK))
      why = "the flag-less twin differs beyond flags and CRC";
    twins += why == NULL;
    scalar = out.dtype == SIMA_DTYPE_FLOAT32 ? 4 : 2;
    ib.bus_address = 0;
    ib.length = plan.input_bytes;
    ob.bus_address = (UINT64_C (1) << 31) + (uint64_t) scalar;
    ob.length = plan.output_bytes;
    st = sima_ev74_descriptor_bind (&d, &ib, &ob);
    if (sima_status_is_ok (&st))
      st = simafw_detessdequant_decode (d.bytes, d.length, &job);
    if (why == NULL && !sima_status_is_ok (&st))
      why = st.message;
    if (why == NULL)
      why = plan_difference (&plan, &job.plan, doc_flags (&plan));
    if (why == NULL && (job.plan.input.tiled.cblock != 1
            || job.plan.input_geometry.tiled.cblock != 1
            || !(job.flags & F_CBLOCK)))
      why = "decoded plan lost cblock";
    if (why != NULL) {
      if (!first[0])
        snprintf (first, sizeof first, "#%d: %s", i, why);
      continue;
    }
    trips++;
  }
  tap_ok (n > N / 2 && trips == n && twins == n, "DetessDequant cblock round "
      "trip: %d/%d pad16 cblock requests encode as the doc says (flag bit 4, "
      "the flag-less twin equal but for flags and CRC: %d) and decode to the "
      "same cblock plan", trips, n, twins);
  if (first[0])
    tap_diag ("first problem: %s", first);
}

/* ---- 4. malformed descriptors --------------------------------------------- */

static uint8_t *in_host, *out_host, *local_mem;
static SimaHostRegion regions[2];

/* Valid bound descriptors of the golden plans (filled by entry_tests). */
static uint8_t base[N_GOLDEN][MAX_BYTES];
static uint32_t blen[N_GOLDEN];
static SimaDetessDequantPlan plan[N_GOLDEN];

/* Base b with the `n`-byte field at `off` set to v; resealed with this
 * file's CRC unless the field is in the relocation block (not covered). */
static void
set (size_t b, size_t off, int n, uint64_t v)
{
  uint8_t d[MAX_BYTES];
  memcpy (d, base[b], blen[b]);
  test_put_le (d, off, v, n);
  if (off < 16 || off >= 40)
    reseal (d, blen[b]);
  test_mutant (d, blen[b]);
}

static unsigned
bflags (size_t b)
{
  return (unsigned) test_get_le (base[b], O_FLAGS, 2);
}

static int
bscalar (size_t b)
{
  return plan[b].output.dtype == SIMA_DTYPE_FLOAT32 ? 4 : 2;
}

/* Base b re-sent with other flags: strides (`strides`, or none) and table
 * (the oracle's, or none) rebuilt after the base, the length field adjusted
 * to what is sent, and resealed: every byte consistent but the one rule
 * the class breaks. */
static void
reflag (size_t b, unsigned flags, const int64_t *strides, int table)
{
  uint8_t d[MAX_BYTES];
  uint32_t len = BASE_BYTES;
  int i, s = bscalar (b);

  memcpy (d, base[b], BASE_BYTES);
  if (strides != NULL) {
    memset (d + len, 0, STRIDE_BYTES);
    for (i = 0; i < plan[b].output.rank; i++)
      test_put_le (d, len + 8 * (size_t) i, (uint64_t) strides[i], 8);
    len += STRIDE_BYTES;
  }
  if (table) {
    oracle_table (plan[b].output.dtype, plan[b].params.scale,
        plan[b].params.zero_point, is_divide (&plan[b]), d + len);
    len += 256 * (uint32_t) s;
  }
  test_put_le (d, O_FLAGS, flags, 2);
  test_put_le (d, O_LENGTH, len, 2);
  reseal (d, len);
  test_mutant (d, len);
}

/* Classes that set one field to each of a few values, on every base with
 * all the flags `need` and none of `skip`; a row without a name adds to the
 * class above it. Where the bytes are well-formed but the request is not
 * (scale, channels, shape, tiling) the admission's own code is expected:
 * the device runs the host's admission. Every golden has rank 2-4 and, when
 * tiled, an absent D axis and a present W axis. */
#define MORE NULL, SIMA_OK, NULL
static const struct {
  const char *name;
  SimaStatusCode code;
  const char *fragment;
  unsigned need, skip;
  size_t off;
  int n, nv;
  uint64_t v[8];
} FIELD_CLASSES[] = {
  { "bad magic", SIMA_INVALID_DESCRIPTOR, "magic", 0, 0, O_MAGIC, 4, 5,
    { 0, 0x34375646, 0x45563734, 0xb4375645, 0xffffffff } },
  { "wrong version", SIMA_INVALID_DESCRIPTOR, "version", 0, 0, O_VERSION, 2,
    3, { 0, 2, 0xffff } },
  { "length field != received", SIMA_INVALID_DESCRIPTOR, "length", 0, 0,
    O_LENGTH, 2, 6, { 0, 56, 175, 177, 1249, 0xffff } },
  { "output dtype 1 (FP16)/3 (INT8)/4/255", SIMA_INVALID_DESCRIPTOR, "dtype",
    0, 0, O_DTYPE, 1, 4, { 1, 3, 4, 255 } },
  { "rank 0/7/255", SIMA_INVALID_DESCRIPTOR, "rank", 0, 0, O_RANK, 1, 3,
    { 0, 7, 255 } },
  { "nonzero shape or stride slot beyond rank", SIMA_INVALID_DESCRIPTOR,
    "slot", 0, 0, O_SHAPE + 40, 8, 2, { 1, UINT64_MAX } },
  { MORE, 0, 0, O_SHAPE + 32, 8, 1, { 2 } },
  { MORE, F_STRIDED, 0, O_TRAILER + 40, 8, 2, { 4, 1 } },
  { MORE, F_STRIDED, 0, O_TRAILER + 32, 8, 1, { 8 } },
  { "CBLOCKED with nonzero channels/axes/tile fields",
    SIMA_INVALID_DESCRIPTOR, "channel-blocked", F_CBLOCKED, 0, O_CHANNELS,
    1, 2, { 1, 2 } },
  { MORE, F_CBLOCKED, 0, O_AXES, 4, 3, { 0xff, 0xff000000, 0x03020100 } },
  { MORE, F_CBLOCKED, 0, O_TILE, 8, 1, { 1 } },
  { MORE, F_CBLOCKED, 0, O_TILE + 24, 8, 1, { 16 } },
  { "channels 2/255", SIMA_INVALID_TILING, "channels", 0, F_CBLOCKED,
    O_CHANNELS, 1, 2, { 2, 255 } },
  { "scale 0/-0/-1/-subnormal/inf/-inf/NaN/sNaN bits",
    SIMA_INVALID_PARAMETER, "scale", 0, 0, O_SCALE, 4, 8, { 0, 0x80000000,
      0xbf800000, 0x80000001, 0x7f800000, 0xff800000, 0x7fc00000,
      0x7f800001 } },
  { "negative extent", SIMA_INVALID_SHAPE, "extent", 0, 0, O_SHAPE, 8, 2,
    { UINT64_MAX, UINT64_C (1) << 63 } },
  { MORE, 0, 0, O_SHAPE + 8, 8, 2, { UINT64_MAX, UINT64_C (1) << 63 } },
  /* all axes 0, or W and C both axis 0; axis 6 or 127; -2; -128; C absent */
  { "axes: duplicate, out of range, below -1, missing C",
    SIMA_INVALID_TILING, "axis", 0, F_CBLOCKED, O_AXES, 4, 2,
    { 0, 0x0000ffff } },
  { MORE, 0, F_CBLOCKED, O_AXES + 3, 1, 5, { 6, 0x7f, 0xfe, 0x80, 0xff } },
  { MORE, 0, F_CBLOCKED, O_AXES, 1, 3, { 6, 0xfe, 0x80 } },
  { "tile extent 0/negative, or 2 on an absent axis", SIMA_INVALID_TILING,
    "extent", 0, F_CBLOCKED, O_TILE + 24, 8, 2, { 0, UINT64_MAX } },
  { MORE, 0, F_CBLOCKED, O_TILE + 16, 8, 2, { 0, UINT64_MAX } },
  { MORE, 0, F_CBLOCKED, O_TILE, 8, 3, { 0, UINT64_MAX, 2 } },
  /* 49, 51 and 52 are QuantTess, CastTess and DetessCast: registered, not
   * unknown */
  { "unknown route", SIMA_CAPABILITY_MISSING, "route", 0, 0, O_ROUTE, 2, 5,
    { 0, 48, 54, 0x3200, 0xffff } },
};
#undef MORE

static void
malformed (void)
{
  static const uint32_t lens[] = { 56, 100, 175, 176, 177, 224, 688, 736,
    1200, 1248, 1249, 1400 };
  /* covered bytes whose flips the CRC must catch (magic and length are
   * checked before it), trailer bytes where the base has them */
  static const size_t flips[] = { 4, 5, 8, 9, 10, 11, 12, 13, 14, 15, 40,
    48, 56, 57, 58, 64, 112, 120, 152, 168, 171, 172, 175, 176, 223, 224,
    687, 700, 735, 1000, 1199, 1247 };
  uint8_t d[1400];
  int64_t rm[6];
  size_t b, i, k;

  for (i = 0; i < sizeof FIELD_CLASSES / sizeof FIELD_CLASSES[0]; i++) {
    if (FIELD_CLASSES[i].name != NULL) {
      if (i > 0)
        test_mutants_end ();
      test_mutants_begin (FIELD_CLASSES[i].name, FIELD_CLASSES[i].code,
          FIELD_CLASSES[i].fragment);
    }
    for (b = 0; b < N_GOLDEN; b++)
      if ((bflags (b) & FIELD_CLASSES[i].need) == FIELD_CLASSES[i].need
          && !(bflags (b) & FIELD_CLASSES[i].skip))
        for (k = 0; k < (size_t) FIELD_CLASSES[i].nv; k++)
          set (b, FIELD_CLASSES[i].off, FIELD_CLASSES[i].n,
              FIELD_CLASSES[i].v[k]);
  }
  test_mutants_end ();
  test_mutants_begin ("unknown flag bits 5-15", SIMA_INVALID_DESCRIPTOR, "flags");
  for (b = 0; b < N_GOLDEN; b++)
    for (k = 5; k < 16; k++)
      set (b, O_FLAGS, 2, bflags (b) | 1u << k);
  test_mutants_end ();
  test_mutants_begin ("CBLOCK (bit 4) with CBLOCKED", SIMA_INVALID_DESCRIPTOR,
      "CBLOCKED");
  for (b = 0; b < N_GOLDEN; b++)
    if (bflags (b) & F_CBLOCKED)
      set (b, O_FLAGS, 2, bflags (b) | F_CBLOCK);
  test_mutants_end ();
  test_mutants_begin ("CBLOCK (bit 4) with compact channels",
      SIMA_INVALID_TILING, "cblock");
  for (b = 0; b < N_GOLDEN; b++)
    if (!(bflags (b) & F_CBLOCKED)) {
      memcpy (d, base[b], blen[b]);
      test_put_le (d, O_FLAGS, bflags (b) | F_CBLOCK, 2);
      d[O_CHANNELS] = 0;
      reseal (d, blen[b]);
      test_mutant (d, blen[b]);
    }
  test_mutants_end ();
  /* length field == bytes sent (a prefix, or zero-extended), resealed: not
   * the length the flags and the output dtype give */
  test_mutants_begin ("length != the one flags and dtype give", SIMA_INVALID_DESCRIPTOR,
      "length");
  for (b = 0; b < N_GOLDEN; b++)
    for (i = 0; i < sizeof lens / sizeof lens[0]; i++)
      if (lens[i] != blen[b]) {
        memset (d, 0, sizeof d);
        memcpy (d, base[b], lens[i] < blen[b] ? lens[i] : blen[b]);
        test_put_le (d, O_LENGTH, lens[i], 2);
        reseal (d, lens[i]);
        test_mutant (d, lens[i]);
      }
  test_mutants_end ();
  test_mutants_begin ("truncated buffer (every length below the valid one)",
      SIMA_INVALID_DESCRIPTOR, NULL);
  for (b = 0; b < N_GOLDEN; b++)
    for (i = 0; i < blen[b]; i++)
      test_mutant (base[b], (uint32_t) i);
  test_mutants_end ();
  test_mutants_begin ("bad CRC (bit flips of covered bytes, trailers included)",
      SIMA_INVALID_DESCRIPTOR, "CRC");
  for (b = 0; b < N_GOLDEN; b++)
    for (i = 0; i < sizeof flips / sizeof flips[0]; i++)
      for (k = 0; k < 8 && flips[i] < blen[b]; k++) {
        memcpy (d, base[b], blen[b]);
        d[flips[i]] ^= (uint8_t) (1u << k);
        test_mutant (d, blen[b]);
      }
  test_mutants_end ();
  test_mutants_begin ("nonzero reserved byte (59-63, 116-119, 160-167)",
      SIMA_INVALID_DESCRIPTOR, "reserved");
  for (b = 0; b < N_GOLDEN; b++)
    for (i = 59; i < 168; i++)
      if (i < 64 || (i >= 116 && i < 120) || i >= 160) {
        set (b, i, 1, 0x01);
        set (b, i, 1, 0x80);
      }
  test_mutants_end ();

  /* the flags' own rules */
  /* doc: rank is 3..6 with CBLOCKED, and rank is one of the field ranges
   * the firmware rejects as invalid-descriptor. Made consistent otherwise:
   * the slots beyond the new rank zeroed, or tiled rank-2 bases flipped to
   * CBLOCKED with their tiling fields cleared. */
  test_mutants_begin ("CBLOCKED with rank 1-2 (doc: a rank range -> invalid-descriptor)",
      SIMA_INVALID_DESCRIPTOR, "rank");
  for (b = 0; b < N_GOLDEN; b++)
    for (k = 1; k < 3; k++) {
      memcpy (d, base[b], blen[b]);
      if (bflags (b) & F_CBLOCKED) {
        memset (d + O_SHAPE + 8 * k, 0, 8 * (6 - k));
        if (bflags (b) & F_STRIDED)
          memset (d + O_TRAILER + 8 * k, 0, 8 * (6 - k));
        d[O_RANK] = (uint8_t) k;
      } else if (plan[b].input.rank == (int) k) {
        d[O_CHANNELS] = 0;
        memset (d + O_AXES, 0, 4);
        memset (d + O_TILE, 0, 32);
        test_put_le (d, O_FLAGS, bflags (b) | F_CBLOCKED, 2);
      } else
        continue;
      reseal (d, blen[b]);
      test_mutant (d, blen[b]);
    }
  test_mutants_end ();
  /* row-major strides sent as STRIDED, spans consistent: the strided bases
   * with their strides replaced, and the dense bases with a trailer added
   * (singleton axes 0 or a large stride: still row-major) */
  test_mutants_begin ("STRIDED with row-major strides (non-canonical)",
      SIMA_INVALID_DESCRIPTOR, "row-major");
  for (b = 0; b < N_GOLDEN; b++) {
    int64_t reach = bscalar (b);
    for (i = (size_t) plan[b].output.rank; i-- > 0;) {
      rm[i] = plan[b].output.shape[i] == 1 ? (int64_t) (b % 2) * 4000 : reach;
      reach *= plan[b].output.shape[i];
    }
    if (bflags (b) & F_STRIDED) {
      memcpy (d, base[b], blen[b]);
      for (i = 0; i < (size_t) plan[b].output.rank; i++)
        test_put_le (d, O_TRAILER + 8 * i, (uint64_t) rm[i], 8);
      test_put_le (d, O_OUT_SPAN, reach, 8);
      reseal (d, blen[b]);
      test_mutant (d, blen[b]);
    } else
      reflag (b, bflags (b) | F_STRIDED, rm, (bflags (b) & F_TABLE) != 0);
  }
  test_mutants_end ();
  test_mutants_begin ("EXACT_TABLE flag flipped (table for a normal scale, none for a "
      "subnormal one)", SIMA_INVALID_DESCRIPTOR, "exact table");
  for (b = 0; b < N_GOLDEN; b++)
    reflag (b, bflags (b) ^ F_TABLE, bflags (b) & F_STRIDED
        ? plan[b].output.strides_bytes : NULL, !(bflags (b) & F_TABLE));
  test_mutants_end ();
  test_mutants_begin ("one wrong exact-table entry (each of the 256)",
      SIMA_INVALID_DESCRIPTOR, "entry");
  for (b = 0; b < N_GOLDEN; b++)
    if (bflags (b) & F_TABLE)
      for (i = 0; i < 256; i++) {
        size_t at = blen[b] - 256 * (size_t) bscalar (b)
            + i * (size_t) bscalar (b) + (i % (size_t) bscalar (b));
        memcpy (d, base[b], blen[b]);
        d[at] ^= (uint8_t) (1u << (i % 8));
        reseal (d, blen[b]);
        test_mutant (d, blen[b]);
      }
  test_mutants_end ();
  /* the table stays, the convention it was built for changes: multiply
   * and divide tables of a subnormal scale never agree */
  test_mutants_begin ("DIVIDE flag flipped under an exact table",
      SIMA_INVALID_DESCRIPTOR, "entry");
  for (b = 0; b < N_GOLDEN; b++)
    if (bflags (b) & F_TABLE)
      set (b, O_FLAGS, 2, bflags (b) ^ F_DIVIDE);
  test_mutants_end ();
  /* the table stays, the parameters it was built for change */
  test_mutants_begin ("scale or zero point changed under an exact table",
      SIMA_INVALID_DESCRIPTOR, "entry");
  for (b = 0; b < N_GOLDEN; b++)
    if (bflags (b) & F_TABLE) {
      uint32_t s = float_bits (plan[b].params.scale);
      set (b, O_SCALE, 4, s == 1 ? 2 : s >> 1);   /* doubled or halved */
      set (b, O_ZP, 4, plan[b].params.zero_point ? 0 : 1000);
    }
  test_mutants_end ();
  test_mutants_begin ("refused output strides (odd, negative, broadcast)",
      SIMA_INVALID_STRIDES, "stride");
  for (b = 0; b < N_GOLDEN; b++)
    if (bflags (b) & F_STRIDED)
      for (i = 0; i < (size_t) plan[b].output.rank; i++) {
        int64_t s = plan[b].output.strides_bytes[i];
        set (b, O_TRAILER + 8 * i, 8, (uint64_t) s + 1);
        if (s != 0)
          set (b, O_TRAILER + 8 * i, 8, (uint64_t) -s);
        if (plan[b].output.shape[i] > 1)
          set (b, O_TRAILER + 8 * i, 8, 0);
      }
  test_mutants_end ();
  test_mutants_begin ("spans or element count != geometry", SIMA_INVALID_DESCRIPTOR,
      "match");
  for (b = 0; b < N_GOLDEN; b++)
    for (k = 0; k < 3; k++) {
      size_t off = k == 0 ? O_IN_SPAN : k == 1 ? O_OUT_SPAN : O_COUNT;
      uint64_t v = test_get_le (base[b], off, 8);
      set (b, off, 8, v + 1);
      set (b, off, 8, v - 1);
      set (b, off, 8, 0);
      set (b, off, 8, v << 20);
    }
  test_mutants_end ();

  /* bindings: the relocation block is not CRC-covered, so no resealing */
  test_mutants_begin ("address bits above 32", SIMA_NOT_REPRESENTABLE, "aperture");
  for (b = 0; b < N_GOLDEN; b++)
    for (k = 32; k < 64; k += 7) {
      set (b, O_IN_ADDR, 8, IN_BUS | UINT64_C (1) << k);
      set (b, O_OUT_ADDR, 8, OUT_BUS | UINT64_C (1) << k);
    }
  test_mutants_end ();
  test_mutants_begin ("address + span beyond 2^32", SIMA_NOT_REPRESENTABLE, "aperture");
  for (b = 0; b < N_GOLDEN; b++) {
    /* aligned (spans are multiples of 16 and of the scalar), so that only
     * the end of the range is wrong */
    set (b, O_IN_ADDR, 8, APERTURE - plan[b].input_bytes + 16);
    if (plan[b].input_bytes > 16)
      set (b, O_IN_ADDR, 8, APERTURE - 16);
    set (b, O_OUT_ADDR, 8, APERTURE - plan[b].output_bytes + (uint64_t) bscalar (b));
    set (b, O_OUT_ADDR, 8, APERTURE - (uint64_t) bscalar (b));
  }
  test_mutants_end ();
  test_mutants_begin ("bound length below span (incl. unbound relocatable)",
      SIMA_INVALID_DESCRIPTOR, "bound");
  for (b = 0; b < N_GOLDEN; b++) {
    set (b, O_IN_LEN, 4, plan[b].input_bytes - 1);
    set (b, O_IN_LEN, 4, 0);
    set (b, O_OUT_LEN, 4, plan[b].output_bytes - 1);
    set (b, O_OUT_LEN, 4, 0);
    memcpy (d, base[b], blen[b]);
    memset (d + 16, 0, 24);
    test_mutant (d, blen[b]);
  }
  test_mutants_end ();
  test_mutants_begin ("misaligned input (not 16) / output (not 4 FP32, 2 BF16)",
      SIMA_MISALIGNED_BUFFER, "aligned");
  for (b = 0; b < N_GOLDEN; b++) {
    for (k = 1; k < 16; k++)
      set (b, O_IN_ADDR, 8, IN_BUS + k);
    for (k = 1; k < (size_t) bscalar (b); k++)
      set (b, O_OUT_ADDR, 8, OUT_BUS + k);
  }
  test_mutants_end ();
  test_mutants_begin ("overlapping input/output bus ranges", SIMA_OVERLAPPING_BUFFERS,
      "overlap");
  for (b = 0; b < N_GOLDEN; b++) {
    set (b, O_OUT_ADDR, 8, IN_BUS);
    set (b, O_OUT_ADDR, 8, IN_BUS + plan[b].input_bytes - (uint64_t) bscalar (b));
    set (b, O_IN_ADDR, 8, OUT_BUS);
    set (b, O_IN_ADDR, 8, OUT_BUS - plan[b].input_bytes + 16);
  }
  test_mutants_end ();
  test_mutants_all_rejected (1000);
}

/* ---- 5. valid runs, and the setup of section 4 ---------------------------- */

static void
entry_tests (void)
{
  static const uint8_t prefill[2] = { 0xA5, 0x3C };
  TestRng rng = { 0xDD0C0DE5EED5EEDull };
  uint8_t *a65_out = aligned_alloc (64, REGION_BYTES);
  uint8_t *oracle_out = aligned_alloc (64, REGION_BYTES);
  SimaEv74Descriptor desc;
  uint64_t commands = 0;
  size_t i, pending, n;
  SimaStatus st;
  int g, p;

  in_host = aligned_alloc (64, REGION_BYTES);
  out_host = aligned_alloc (64, REGION_BYTES);
  local_mem = aligned_alloc (64, LOCAL_BYTES);
  regions[0] = (SimaHostRegion) { (uint32_t) IN_BUS, REGION_BYTES,
      in_host, NULL, NULL };
  regions[1] = (SimaHostRegion) { (uint32_t) OUT_BUS, REGION_BYTES,
      out_host, NULL, NULL };
  test_entry_use (regions, 2, local_mem, LOCAL_BYTES);
  /* random INT8 values, and random garbage in the padding and gaps */
  for (i = 0; i < REGION_BYTES; i++)
    in_host[i] = (uint8_t) test_rng_next (&rng);

  /* each golden plan bound to the two regions, run with two prefills: the
   * firmware, the A65 and the oracle must agree over the whole span and 64
   * bytes beyond (holes and capacity keep the prefill) */
  for (g = 0; g < N_GOLDEN; g++) {
    SimaEv74Binding ib = { IN_BUS, REGION_BYTES }, ob = { OUT_BUS, REGION_BYTES };
    SimaA65DetessDequantPlan a65;
    SimaConstHostBuffer ab;
    SimaHostBuffer ao;
    int ok = 1;
    size_t holes = 0;

    if (!encode_golden (g, &plan[g], &desc)
        || sima_ev74_descriptor_bind (&desc, &ib, &ob).code != SIMA_OK) {
      tap_ok (0, "%s encodes and binds", GOLDEN[g].name);
      continue;
    }
    memcpy (base[g], desc.bytes, desc.length);
    blen[g] = desc.length;
    n = (size_t) plan[g].output_bytes;
    st = sima_a65_detessdequant_prepare (&plan[g], &a65);
    for (p = 0; p < 2; p++) {
      memset (out_host, prefill[p], REGION_BYTES);
      memset (a65_out, prefill[p], n + 64);
      memset (oracle_out, prefill[p], n + 64);
      ab = (SimaConstHostBuffer) { in_host, plan[g].input_bytes };
      ao = (SimaHostBuffer) { a65_out, n };
      ok &= test_run_entry (desc.bytes, desc.length, &commands, &pending).code
          == SIMA_OK && commands > 0 && pending == 0;
      if (sima_status_is_ok (&st))
        st = sima_a65_detessdequant_execute (&a65, &ab, 1, &ao, 1);
      oracle_detessdequant_conv (&plan[g].input, in_host, &plan[g].output,
          plan[g].params.scale, plan[g].params.zero_point,
          is_divide (&plan[g]), oracle_out);
      ok &= memcmp (out_host, a65_out, n + 64) == 0
          && memcmp (out_host, oracle_out, n + 64) == 0
          && out_host[REGION_BYTES - 1] == prefill[p];
      for (i = 0, holes = 0; i < n; i++)
        holes += out_host[i] == prefill[p];
    }
    tap_ok (ok && sima_status_is_ok (&st), "%s: firmware output (%zu bytes, "
        "%llu DMA commands) equals the A65's and the oracle's over the span "
        "+ 64, two prefills (%zu span bytes still hold the second)",
        GOLDEN[g].name, n, (unsigned long long) commands, holes);
  }

  malformed ();
  free (oracle_out);
  free (a65_out);
  free (in_host);
  free (out_host);
  free (local_mem);
}

int
main (void)
{
  golden_vectors ();
  bind_tests ();
  round_trip ();
  cblock_round_trip ();
  entry_tests ();
  return tap_done ();
}
