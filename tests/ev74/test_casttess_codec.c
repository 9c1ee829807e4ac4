/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The CastTess v1 EV74 descriptor, host encoder and firmware decoder. The
 * same plan as test_quanttess_codec.c (CastTess shares the QuantTess v1
 * layout, with route 51 and the three parameter fields zero):
 *  1. golden vectors: the expected 232 bytes are written here from the table
 *     of docs/ev74-descriptors.md with this file's own little-endian writer
 *     and its own (table-driven) CRC-32, never with wire.h or pack_wire.h;
 *     two descriptors (FP32, and UINT8 input: dtype 4) are also spelled
 *     out as literal hex (computed with Python's zlib) so that a change
 *     both writers would share is caught;
 *  2. bind: exactly bytes 16-39 change, the CRC does not (a few points: the
 *     code is shared with QuantTess, whose test covers it in depth);
 *  3. round trip: random admitted plans survive encode + bind + decode;
 *  4. malformed descriptors: one point per mutation class, each rejected by
 *     the native entry with the documented code and ZERO DMA commands;
 *  5. each golden plan runs on the host HAL and matches the A65 and the
 *     oracle byte for byte (test_casttess_device.c is the real
 *     differential test).
 */
#include <simaai/kernels/a65/casttess.h>
#include <simaai/kernels/ev74/casttess.h>
#include <simaai/kernels/ev74/descriptor.h>
#include <simaai/kernels/ops/casttess.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev74_wire_doc.h"
#include "hal/host/host_hal.h"
#include "native_entry.h"
#include "oracle.h"
#include "pack_fw.h"
#include "status_expect.h"
#include "tap.h"
#include "test_util.h"

/* ---- the document's table, restated (not taken from pack_wire.h) --- */

enum {
  CT_BYTES = 232, N_GOLDEN = 5,
  O_MAGIC = 0, O_VERSION = 4, O_LENGTH = 6, O_ROUTE = 8, O_FLAGS = 10,
  O_CRC = 12, O_IN_LEN = 16, O_OUT_LEN = 20, O_IN_ADDR = 24, O_OUT_ADDR = 32,
  O_IN_SPAN = 40, O_OUT_SPAN = 48, O_DTYPE = 56, O_RANK = 57,
  O_ROUNDING = 58, O_CHANNELS = 59, O_ZP = 60, O_MULT = 64, O_LAYOUT = 68,
  O_SHAPE = 72, O_STRIDES = 120, O_AXES = 168, O_TILE = 176, O_COUNT = 208,
};

#define APERTURE UINT64_C (0x100000000)
#define IN_BUS UINT64_C (0x80000000)
#define OUT_BUS UINT64_C (0x80100000)
enum { REGION_BYTES = 1 << 20, LOCAL_BYTES = 64 * 1024 };

static void
reseal (uint8_t *d)
{
  test_put_le (d, O_CRC, test_doc_crc (d, CT_BYTES), 4);
}

/* The relocatable descriptor the doc prescribes for an admitted plan: the
 * QuantTess table with route 51 and rounding, zero point and multiplier 0.
 * The enum codes are spelled out as the doc numbers them, not cast. */
static void
doc_encode (const SimaCastTessPlan *p, uint8_t d[CT_BYTES])
{
  int i;

  memset (d, 0, CT_BYTES);
  test_put_le (d, O_MAGIC, 0x34375645u, 4);
  test_put_le (d, O_VERSION, 1, 2);
  test_put_le (d, O_LENGTH, CT_BYTES, 2);
  test_put_le (d, O_ROUTE, 51, 2);
  test_put_le (d, O_IN_SPAN, p->input_bytes, 8);
  test_put_le (d, O_OUT_SPAN, p->output_bytes, 8);
  d[O_DTYPE] = p->input.dtype == SIMA_DTYPE_FLOAT32 ? 0
      : p->input.dtype == SIMA_DTYPE_FLOAT16 ? 1
      : p->input.dtype == SIMA_DTYPE_UINT8 ? 4 : 2;
  d[O_RANK] = (uint8_t) p->input.rank;
  d[O_CHANNELS] = p->output.tiled.channels == SIMA_CHANNELS_PAD16;
  d[O_LAYOUT] = p->input.layout == SIMA_LAYOUT_STRIDED;
  for (i = 0; i < p->input.rank; i++) {
    test_put_le (d, O_SHAPE + 8 * i, (uint64_t) p->input.shape[i], 8);
    if (p->input.layout == SIMA_LAYOUT_STRIDED)
      test_put_le (d, O_STRIDES + 8 * i, (uint64_t) p->input.strides_bytes[i], 8);
  }
  for (i = 0; i < 4; i++) {
    d[O_AXES + i] = (uint8_t) p->output.tiled.axes[i];
    test_put_le (d, O_TILE + 8 * i, (uint64_t) p->output.tiled.tile_shape[i], 8);
  }
  test_put_le (d, O_COUNT, p->element_count, 8);
  test_put_le (d, O_FLAGS, p->output.tiled.cblock ? 1 : 0, 2);   /* CBLOCK */
  reseal (d);
}

/* Plan 1 as literal bytes (CRC 0x77f99c59 from Python zlib.crc32 over bytes
 * 0-11 and 40-231): FP32 {2,3} [W,C], axes {-1,-1,0,1}, tile {1,1,2,3},
 * pad16: spans 24/64 (docs/casttess.md's worked example), 6 elements. */
static const uint8_t GOLDEN_1[CT_BYTES] = {
  /*   0 */ 0x45, 0x56, 0x37, 0x34, 0x01, 0x00, 0xe8, 0x00, 0x33, 0x00, 0x00, 0x00, 0x59, 0x9c, 0xf9, 0x77,
  /*  16 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  32 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  48 */ 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
  /*  64 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  80 */ 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  96 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 112 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 128 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 144 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 160 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
  /* 176 */ 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 192 */ 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 208 */ 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 224 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* Plan 5 (UINT8) as literal bytes, from the doc's table by a Python writer
 * (struct.pack_into + zlib.crc32 over bytes 0-11 and 40-231, CRC
 * 0x38580302): input dtype 4 at byte 56, an RGB camera view {H 2, W 4, C 3}
 * with strides {16, 3, 1} (pixel stride 3, rows padded to 16 bytes), axes
 * {-1,0,1,2}, tile {1,1,3,3}, compact, parameter fields zero. */
static const uint8_t GOLDEN_U8[CT_BYTES] = {
  /*   0 */ 0x45, 0x56, 0x37, 0x34, 0x01, 0x00, 0xe8, 0x00, 0x33, 0x00, 0x00, 0x00, 0x02, 0x03, 0x58, 0x38,
  /*  16 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  32 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  48 */ 0x60, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  64 */ 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  80 */ 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  96 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 112 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 128 */ 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 144 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 160 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00,
  /* 176 */ 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 192 */ 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 208 */ 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 224 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* Bytes of one input scalar, as the doc's dtype table gives them. */
static unsigned
scalar_of (SimaDType dtype)
{
  return dtype == SIMA_DTYPE_FLOAT32 ? 4u : dtype == SIMA_DTYPE_UINT8 ? 1u
      : 2u;
}

/* ---- plans ---------------------------------------------------------------- */

static SimaStatus
admit (const SimaTensorSpec *in, const SimaTensorSpec *out,
    SimaCastTessPlan *plan)
{
  SimaCastTessRequest req = { in, 1, out, 1 };
  return sima_casttess_check_inference (&req, plan);
}

/* The golden plans, with their spans and element count worked out by hand
 * from docs/layout.md (strides all 0 means a contiguous input). The output
 * is BF16 byte planes: 2 bytes per stored channel. */
typedef struct {
  const char *name;
  SimaDType dtype;
  int rank;
  int64_t shape[6], strides[6];
  int8_t axes[4];
  int64_t tile[4];
  SimaChannels channels;
  uint64_t in_span, out_span, count;
} Golden;

static const Golden GOLDEN[N_GOLDEN] = {
  /* 6 FP32 = 24; one tile of 2 pixels x 16 stored channels x 2 bytes = 64 */
  { "FP32 contiguous {2,3} pad16", SIMA_DTYPE_FLOAT32, 2, { 2, 3 }, { 0 },
    { -1, -1, 0, 1 }, { 1, 1, 2, 3 }, SIMA_CHANNELS_PAD16, 24, 64, 6 },
  /* 2 + 128 + 2*32 + 12 + 4*2 = 214; per N slice: C4xH2 = 4 px x 4 x 2 = 32,
   * C4xH1 = 16, C1xH2 = 8 -> 16, C1xH1 = 4 -> 16: 80, x 2 slices = 160 */
  { "BF16 strided {2,3,2,5} compact", SIMA_DTYPE_BFLOAT16, 4, { 2, 3, 2, 5 },
    { 128, 32, 12, 2 }, { -1, 1, 2, 3 }, { 1, 2, 2, 4 },
    SIMA_CHANNELS_COMPACT, 214, 160, 60 },
  /* 408 FP16 = 816; per slice: full C tile 4 px x 16 x 2 = 128, boundary
   * 4 x 1 x 2 = 8 -> 16: 144 bytes, x 6 outer slices = 864 */
  { "FP16 rank-6 contiguous compact {2,1,3,2,2,17}", SIMA_DTYPE_FLOAT16, 6,
    { 2, 1, 3, 2, 2, 17 }, { 0 }, { 1, 3, 4, 5 }, { 1, 2, 2, 16 },
    SIMA_CHANNELS_COMPACT, 816, 864, 408 },
  /* channels-first with a padded row pitch: 2 + 2*64 + 3*12 + 4*2 = 174;
   * pad16: every pixel 16 x 2 = 32 bytes, 20 pixels per C tile, 2 C tiles */
  { "FP16 strided channels-first {3,4,5} pad16", SIMA_DTYPE_FLOAT16, 3,
    { 3, 4, 5 }, { 64, 12, 2 }, { -1, 1, 2, 0 }, { 1, 3, 2, 2 },
    SIMA_CHANNELS_PAD16, 174, 1280, 60 },
  /* UINT8 RGB camera view: 1 + 16 + 3*3 + 2*1 = 28; per row, W tile of 3
   * pixels x 3 x 2 = 18 -> 32 and the W boundary 1 x 3 x 2 = 6 -> 16: 48,
   * x 2 rows (H tiles of 1) = 96 */
  { "UINT8 RGB {2,4,3} pixel stride 3, padded rows", SIMA_DTYPE_UINT8, 3,
    { 2, 4, 3 }, { 16, 3, 1 }, { -1, 0, 1, 2 }, { 1, 1, 3, 3 },
    SIMA_CHANNELS_COMPACT, 28, 96, 24 },
};

static SimaStatus
golden_plan (int g, SimaCastTessPlan *plan)
{
  const Golden *x = &GOLDEN[g];
  SimaTensorSpec in = x->strides[0] != 0
      ? test_spec_strided (x->dtype, x->rank, x->shape, x->strides)
      : test_spec_dense (x->dtype, x->rank, x->shape);
  SimaTensorSpec out = test_spec_tiled (SIMA_DTYPE_BFLOAT16, x->rank,
      x->shape, x->axes, x->tile, x->channels);
  return admit (&in, &out, plan);
}

/* One point: 232 bytes equal to `want`, else the first differing byte. */
static void
same_bytes (const uint8_t *got, uint32_t len, const uint8_t *want,
    const char *who, const char *what)
{
  int diff = len == CT_BYTES ? test_first_diff (got, want, CT_BYTES) : 0;
  if (!tap_ok (diff < 0, "%s%s", who, what))
    tap_diag ("%u bytes, first difference at byte %d", (unsigned) len, diff);
}

/* ---- 1. golden vectors ---------------------------------------------------- */

static void
golden_vectors (void)
{
  SimaEv74Descriptor desc;
  SimaCastTessPlan plan;
  uint8_t want[CT_BYTES];
  int g;

  tap_ok (~test_crc32_update (0xffffffffu, (const uint8_t *) "123456789", 9)
      == 0xCBF43926u, "own CRC-32 gives the IEEE check value 0xcbf43926");
  for (g = 0; g < N_GOLDEN; g++) {
    SimaStatus st = golden_plan (g, &plan);
    if (!expect_status (GOLDEN[g].name, st, SIMA_OK, NULL))
      continue;
    tap_ok (plan.input_bytes == GOLDEN[g].in_span
        && plan.output_bytes == GOLDEN[g].out_span
        && plan.element_count == GOLDEN[g].count,
        "%s: spans %llu/%llu, %llu elements as computed by hand",
        GOLDEN[g].name, (unsigned long long) plan.input_bytes,
        (unsigned long long) plan.output_bytes,
        (unsigned long long) plan.element_count);
    memset (&desc, 0xAB, sizeof desc);
    st = sima_ev74_casttess_encode_relocatable (&plan, &desc);
    expect_status ("  encode", st, SIMA_OK, NULL);
    doc_encode (&plan, want);
    same_bytes (desc.bytes, desc.length, want, GOLDEN[g].name,
        ": encoder output equals the doc's bytes");
    tap_ok (desc.length == CT_BYTES && desc.bytes[O_ROUNDING] == 0
        && test_get_le (desc.bytes, O_ZP, 4) == 0
        && test_get_le (desc.bytes, O_MULT, 4) == 0
        && test_get_le (desc.bytes, O_IN_LEN, 8) == 0
        && test_get_le (desc.bytes, O_IN_ADDR, 8) == 0
        && test_get_le (desc.bytes, O_OUT_ADDR, 8) == 0,
        "%s: parameter fields (58, 60-67) and relocation block (16-39) zero",
        GOLDEN[g].name);
    if (g == 0) {
      same_bytes (want, CT_BYTES, GOLDEN_1, "own writer", " reproduces the "
          "literal hex golden");
      same_bytes (desc.bytes, desc.length, GOLDEN_1, "encoder", " reproduces "
          "the literal hex golden");
      tap_ok (sima_ev74_descriptor_route (&desc) == 51
          && sima_ev74_descriptor_input_span (&desc) == 24
          && sima_ev74_descriptor_output_span (&desc) == 64,
          "descriptor accessors: route %u, spans %llu/%llu",
          (unsigned) sima_ev74_descriptor_route (&desc),
          (unsigned long long) sima_ev74_descriptor_input_span (&desc),
          (unsigned long long) sima_ev74_descriptor_output_span (&desc));
    }
    if (GOLDEN[g].dtype == SIMA_DTYPE_UINT8) {
      same_bytes (want, CT_BYTES, GOLDEN_U8, "own writer", " reproduces the "
          "literal hex UINT8 golden (input dtype 4 at byte 56)");
      same_bytes (desc.bytes, desc.length, GOLDEN_U8, "encoder", " reproduces "
          "the literal hex UINT8 golden");
    }
  }
}

/* ---- 2. bind -------------------------------------------------------------- */

static int
encode_golden (int g, SimaCastTessPlan *plan, SimaEv74Descriptor *desc)
{
  SimaStatus st = golden_plan (g, plan);
  if (sima_status_is_ok (&st))
    st = sima_ev74_casttess_encode_relocatable (plan, desc);
  return sima_status_is_ok (&st);
}

/* Bytes 16-39 are exactly {in_len u32, out_len u32, in_addr u64, out_addr
 * u64} and every other byte (the CRC included) is as encoded. */
static int
bound_as (const SimaEv74Descriptor *d, const SimaEv74Descriptor *reloc,
    uint32_t in_len, uint32_t out_len, uint64_t in_addr, uint64_t out_addr)
{
  uint8_t want[CT_BYTES];
  memcpy (want, reloc->bytes, CT_BYTES);
  test_put_le (want, O_IN_LEN, in_len, 4);
  test_put_le (want, O_OUT_LEN, out_len, 4);
  test_put_le (want, O_IN_ADDR, in_addr, 8);
  test_put_le (want, O_OUT_ADDR, out_addr, 8);
  return d->length == CT_BYTES && test_first_diff (d->bytes, want, CT_BYTES) < 0
      && test_get_le (d->bytes, O_CRC, 4) == test_doc_crc (d->bytes, CT_BYTES);
}

static void
bind_tests (void)
{
  /* applied in order to one descriptor (plan 4, spans 174/1280): each
   * success rewrites exactly the relocation block, each failure leaves
   * every byte as it was */
  static const struct {
    const char *name;
    uint64_t in_addr, in_len, out_addr, out_len;
    SimaStatusCode code;
  } binds[] = {
    { "bind", IN_BUS + 2, 4096, OUT_BUS + 0x40, 1280, SIMA_OK },
    { "rebind, 8 GiB output binding", 0x1000, 174, 0x1100,
      UINT64_C (1) << 33, SIMA_OK },
    { "output 2^32-1024 + span 1280", IN_BUS, 4096, APERTURE - 1024, 4096,
      SIMA_NOT_REPRESENTABLE },
    { "output binding 1279 < span 1280", IN_BUS, 4096, OUT_BUS, 1279,
      SIMA_CAPACITY_TOO_SMALL },
    { "output inside input", IN_BUS, 4096, IN_BUS + 160, 4096,
      SIMA_OVERLAPPING_BUFFERS },
  };
  /* encode: spans must fit the 32-bit aperture; rank-1 tensors, C tiles of
   * 16 compact (32 bytes per 16 values) or 1 pad16 (32 bytes per value) */
  static const struct {
    const char *name;
    int64_t n, tile_c;
    SimaChannels ch;
    SimaStatusCode code;
  } spans[] = {
    { "encode: FP32 input span 2^32", INT64_C (1) << 30, 16,
      SIMA_CHANNELS_COMPACT, SIMA_NOT_REPRESENTABLE },
    { "encode: BF16-tile output span 2^32", INT64_C (1) << 27, 1,
      SIMA_CHANNELS_PAD16, SIMA_NOT_REPRESENTABLE },
    { "encode: FP32 input span 2^32-16", (INT64_C (1) << 30) - 4, 16,
      SIMA_CHANNELS_COMPACT, SIMA_OK },
  };
  SimaEv74Descriptor reloc, d, before;
  SimaCastTessPlan plan;
  SimaStatus st;
  size_t i;

  if (!tap_ok (encode_golden (3, &plan, &reloc), "bind: plan 4 encodes"))
    return;
  d = reloc;
  for (i = 0; i < sizeof binds / sizeof binds[0]; i++) {
    SimaEv74Binding in = { binds[i].in_addr, binds[i].in_len };
    SimaEv74Binding out = { binds[i].out_addr, binds[i].out_len };
    before = d;
    st = sima_ev74_descriptor_bind (&d, &in, &out);
    expect_status (binds[i].name, st, binds[i].code, NULL);
    if (binds[i].code == SIMA_OK)
      tap_ok (bound_as (&d, &reloc, (uint32_t) binds[i].in_len,
              binds[i].out_len > UINT32_MAX ? UINT32_MAX
              : (uint32_t) binds[i].out_len, in.bus_address, out.bus_address),
          "%s: exactly bytes 16-39 = lengths u32 @16/20, addresses u64 "
          "@24/32; CRC and all else as encoded", binds[i].name);
    else
      tap_ok (memcmp (&before, &d, sizeof d) == 0,
          "failed bind (%s) leaves the descriptor unchanged", binds[i].name);
  }
  for (i = 0; i < sizeof spans / sizeof spans[0]; i++) {
    static const int8_t axes[4] = { -1, -1, -1, 0 };
    int64_t tile[4] = { 1, 1, 1, spans[i].tile_c }, n = spans[i].n;
    SimaTensorSpec si = test_spec_dense (SIMA_DTYPE_FLOAT32, 1, &n);
    SimaTensorSpec so = test_spec_tiled (SIMA_DTYPE_BFLOAT16, 1, &n, axes,
        tile, spans[i].ch);

    st = admit (&si, &so, &plan);
    if (sima_status_is_ok (&st))
      st = sima_ev74_casttess_encode_relocatable (&plan, &d);
    expect_status (spans[i].name, st, spans[i].code, NULL);
    if (spans[i].code == SIMA_OK)
      tap_ok (test_get_le (d.bytes, O_IN_SPAN, 8) == (UINT64_C (1) << 32) - 16
          && test_get_le (d.bytes, O_OUT_SPAN, 8) == UINT64_C (1) << 31,
          "large spans recorded: %llu/%llu",
          (unsigned long long) test_get_le (d.bytes, O_IN_SPAN, 8),
          (unsigned long long) test_get_le (d.bytes, O_OUT_SPAN, 8));
  }
}

/* ---- 3. round trip -------------------------------------------------------- */

/* A random request the admission should accept: ranks 1-6, every input
 * dtype, contiguous or strided (strides built to satisfy the sorted-span
 * proof in a random axis order, with gaps), random axis mapping and tiles
 * (possibly larger than the extent), both channel modes. */
static void
random_request (TestRng *r, SimaTensorSpec *in, SimaTensorSpec *out)
{
  int rank = (int) test_rng_range (r, 1, 6), perm[6] = { 0 }, i, k;
  int64_t shape[6] = { 0 }, strides[6] = { 0 }, tile[4] = { 1, 1, 1, 1 };
  int8_t axes[4] = { -1, -1, -1, -1 };
  static const SimaDType dtypes[4] = { SIMA_DTYPE_FLOAT32, SIMA_DTYPE_FLOAT16,
    SIMA_DTYPE_BFLOAT16, SIMA_DTYPE_UINT8 };
  SimaDType dtype = dtypes[test_rng_below (r, 4)];
  int64_t scalar = (int64_t) scalar_of (dtype), reach = scalar;

  for (i = 0; i < rank; i++) {
    shape[i] = test_rng_below (r, 80) == 0 ? 0 : test_rng_range (r, 1, 5);
    perm[i] = i;
  }
  for (i = rank - 1; i > 0; i--) {   /* Fisher-Yates */
    int j = (int) test_rng_below (r, (uint64_t) i + 1), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  for (i = 0; i < rank; i++) {       /* innermost first in perm order */
    int64_t s = reach + scalar * (int64_t) test_rng_below (r, 3);
    strides[perm[i]] = shape[perm[i]] <= 1 && test_rng_below (r, 4) == 0 ? 0 : s;
    if (shape[perm[i]] > 1)
      reach += (shape[perm[i]] - 1) * s;
  }
  /* C takes perm[0]; W, H, D each take the next axis or stay absent */
  axes[SIMA_MLA_C] = (int8_t) perm[0];
  for (i = 1, k = SIMA_MLA_W; k >= SIMA_MLA_D && i < rank; k--)
    if (test_rng_below (r, 3) != 0)
      axes[k] = (int8_t) perm[i++];
  for (k = 0; k < 4; k++)
    if (axes[k] >= 0)
      tile[k] = test_rng_range (r, 1, shape[axes[k]] + 2);
  *in = test_rng_below (r, 2) ? test_spec_strided (dtype, rank, shape, strides)
      : test_spec_dense (dtype, rank, shape);
  *out = test_spec_tiled (SIMA_DTYPE_BFLOAT16, rank, shape, axes, tile,
      (SimaChannels) test_rng_below (r, 2));
}

/* What a decoder failed to give back, or NULL. */
static const char *
plan_difference (const SimaCastTessPlan *a, const SimaCastTessPlan *b)
{
  const SimaTensorSpec *ai = &a->input, *bi = &b->input;
  const SimaMlaTiled *at = &a->output.tiled, *bt = &b->output.tiled;
  size_t r = (size_t) ai->rank * sizeof (int64_t);

  if (ai->rank != bi->rank || b->output.rank != ai->rank
      || ai->dtype != bi->dtype || ai->layout != bi->layout
      || b->output.dtype != SIMA_DTYPE_BFLOAT16
      || b->output.layout != SIMA_LAYOUT_MLA_TILED)
    return "rank, dtype or layout";
  if (memcmp (ai->shape, bi->shape, r) != 0
      || memcmp (b->output.shape, ai->shape, r) != 0)
    return "shape";
  if (ai->layout == SIMA_LAYOUT_STRIDED
      && memcmp (ai->strides_bytes, bi->strides_bytes, r) != 0)
    return "strides";
  if (memcmp (at->axes, bt->axes, sizeof at->axes) != 0
      || memcmp (at->tile_shape, bt->tile_shape, sizeof at->tile_shape) != 0
      || at->channels != bt->channels || at->cblock != bt->cblock)
    return "tiling";
  if (a->input_bytes != b->input_bytes || a->output_bytes != b->output_bytes
      || a->element_count != b->element_count)
    return "spans or element count";
  return NULL;
}

static void
round_trip (void)
{
  enum { N = 10000 };
  TestRng rng = { 0xCA57CA57C0DEC0DEull };
  unsigned seen_rank = 0, seen_dtype = 0, seen_layout = 0, seen_ch = 0;
  int i, admitted = 0, doc_equal = 0, trips = 0, empties = 0;
  char first[200] = "";
#define NOTE(...) \
  do { if (!first[0]) snprintf (first, sizeof first, __VA_ARGS__); } while (0)

  for (i = 0; i < N; i++) {
    SimaTensorSpec in, out;
    SimaCastTessPlan plan;
    SimaEv74Descriptor d;
    SimaFwCastTessJob job;
    SimaEv74Binding ib, ob;
    uint8_t want[CT_BYTES];
    const char *why;
    SimaStatus st;

    random_request (&rng, &in, &out);
    st = admit (&in, &out, &plan);
    admitted += sima_status_is_ok (&st);
    if (sima_status_is_ok (&st))
      st = sima_ev74_casttess_encode_relocatable (&plan, &d);
    if (!sima_status_is_ok (&st)) {
      NOTE ("admit/encode #%d: %s", i, st.message);
      continue;
    }
    doc_encode (&plan, want);
    if (d.length == CT_BYTES && test_first_diff (d.bytes, want, CT_BYTES) < 0)
      doc_equal++;
    else
      NOTE ("#%d differs from the doc at byte %d", i,
          test_first_diff (d.bytes, want, CT_BYTES));
    /* input low in the aperture (scalar-aligned), output high (16-aligned) */
    ib.bus_address = test_rng_below (&rng, UINT64_C (1) << 30)
        * (uint64_t) scalar_of (in.dtype);
    ib.length = plan.input_bytes + test_rng_below (&rng, 64);
    ob.bus_address = (UINT64_C (1) << 31)
        + 16 * test_rng_below (&rng, UINT64_C (1) << 26);
    ob.length = plan.output_bytes + test_rng_below (&rng, 64);
    st = sima_ev74_descriptor_bind (&d, &ib, &ob);
    if (sima_status_is_ok (&st))
      st = simafw_casttess_decode (d.bytes, d.length, &job);
    if (!sima_status_is_ok (&st)) {
      NOTE ("bind/decode #%d: %s", i, st.message);
      continue;
    }
    /* a zero span accesses nothing, so its bus address is not checked */
    why = plan_difference (&plan, &job.plan);
    if (why == NULL && ((plan.input_bytes > 0 && job.pack.input_bus != ib.bus_address)
        || (plan.output_bytes > 0 && job.pack.output_bus != ob.bus_address)))
      why = "bus address";
    if (why != NULL) {
      NOTE ("#%d decodes differently: %s", i, why);
      continue;
    }
    trips++;
    empties += plan.element_count == 0;
    seen_rank |= 1u << in.rank;
    seen_dtype |= 1u << in.dtype;
    seen_layout |= 1u << in.layout;
    seen_ch |= 1u << out.tiled.channels;
  }
#undef NOTE
  tap_ok (admitted == N && doc_equal == N, "round trip: %d/%d generated "
      "requests admitted, %d encoded equal to the doc's bytes", admitted, N,
      doc_equal);
  tap_ok (trips == N, "round trip: %d/%d plans decode to the same plan, spans, "
      "element count and bus addresses (%d empty)", trips, N, empties);
  if (first[0])
    tap_diag ("first problem: %s", first);
  tap_ok (seen_rank == 0x7e && seen_dtype == 0x17 && seen_layout == 3
      && seen_ch == 3 && empties > 0,
      "round trip covers ranks 1-6 (%#x), 4 dtypes incl. UINT8 (%#x), both "
      "layouts (%#x), both channel modes (%#x), empty tensors", seen_rank,
      seen_dtype,
      seen_layout, seen_ch);
}

/* ---- 4. malformed descriptors --------------------------------------------- */

static uint8_t *in_host, *out_host, *local_mem;
static SimaHostRegion regions[2];

/* Valid bound descriptors of the golden plans: what every mutation starts
 * from (filled by entry_tests). */
static uint8_t base[N_GOLDEN][CT_BYTES];
static SimaCastTessPlan plan[N_GOLDEN];

/* Base b with the `n`-byte field at `off` set to v; resealed with this
 * file's CRC unless the field is in the relocation block (not covered). */
static void
set (size_t b, size_t off, int n, uint64_t v)
{
  uint8_t d[CT_BYTES];
  memcpy (d, base[b], CT_BYTES);
  test_put_le (d, off, v, n);
  if (off < 16 || off >= 40)
    reseal (d);
  test_mutant (d, CT_BYTES);
}

/* Classes that set one field to each of a few values, on every base. The
 * channels mode is well-formed bytes but a request the admission refuses,
 * so its own code is expected (the device runs the host's admission). */
static const struct {
  const char *name;
  SimaStatusCode code;
  const char *fragment;
  size_t off;
  int n, nv;
  uint64_t v[8];
} FIELD_CLASSES[] = {
  { "bad magic", SIMA_INVALID_DESCRIPTOR, "magic", O_MAGIC, 4, 5,
    { 0, 0x34375646, 0x45563734, 0xb4375645, 0xffffffff } },
  { "wrong version", SIMA_INVALID_DESCRIPTOR, "version", O_VERSION, 2, 3,
    { 0, 2, 0xffff } },
  { "length field != 232 received", SIMA_INVALID_DESCRIPTOR, "length",
    O_LENGTH, 2, 5, { 0, 56, 231, 233, 0xffff } },
  { "unknown flags (bits 1-15)", SIMA_INVALID_DESCRIPTOR, "flags", O_FLAGS,
    2, 5, { 2, 3, 4, 0x8000, 0xffff } },
  /* 4 (UINT8) is valid; 3 (INT8), 5, 6 and unknown values are not */
  { "input dtype 3/5/6/7/255", SIMA_INVALID_DESCRIPTOR, "dtype", O_DTYPE, 1,
    5, { 3, 5, 6, 7, 255 } },
  { "rank 0/7/255", SIMA_INVALID_DESCRIPTOR, "rank", O_RANK, 1, 3,
    { 0, 7, 255 } },
  { "input layout 2 (mla-tiled)/3/255", SIMA_INVALID_DESCRIPTOR, "layout",
    O_LAYOUT, 1, 3, { 2, 3, 255 } },
  { "channels 2/255", SIMA_INVALID_TILING, "channels", O_CHANNELS, 1, 2,
    { 2, 255 } },
  /* doc: CastTess has no parameters, QuantTess's three fields must be 0 */
  { "nonzero rounding field", SIMA_INVALID_DESCRIPTOR, "parameter",
    O_ROUNDING, 1, 4, { 1, 2, 3, 255 } },
  { "nonzero zero point field", SIMA_INVALID_DESCRIPTOR, "parameter", O_ZP,
    4, 5, { 1, 0xffffffff, 0x80000000, 0x7fffffff, 0x100 } },
  { "nonzero multiplier field", SIMA_INVALID_DESCRIPTOR, "parameter", O_MULT,
    4, 5, { 0x3f800000, 1, 0x80000000, 0x7fc00000, 0x7f800000 } },
  /* 49, 50 and 52 are QuantTess, DetessDequant and DetessCast: registered,
   * not unknown */
  { "unknown route", SIMA_CAPABILITY_MISSING, "route", O_ROUTE, 2, 6,
    { 0, 48, 54, 0x3300, 0x3200, 0xffff } },
};


/* ---- cblock (flag bit 0) -------------------------------------------------- */

/* Random requests with cblock pad16 tiles: the flag is bit 0 of the flags
 * and nothing else changes (the flag-less twin differs in bytes 10-15 only:
 * the flags and the CRC); decoding gives the cblock plan back. */
static void
cblock_round_trip (void)
{
  enum { N = 3000 };
  TestRng rng = { 0xCB10C0DEC0DE0051ull };
  int i, n = 0, trips = 0, twins = 0;
  char first[200] = "";

  for (i = 0; i < N; i++) {
    SimaTensorSpec in, out;

    SimaCastTessPlan plan, plan0;
    SimaEv74Descriptor d, d0;
    SimaFwCastTessJob job;
    SimaEv74Binding ib, ob;
    uint8_t want[CT_BYTES];
    const char *why = NULL;
    SimaStatus st;
    int k, other = 0;

    random_request (&rng, &in, &out);
    out.tiled.channels = SIMA_CHANNELS_PAD16;
    out.tiled.cblock = 1;
    st = admit (&in, &out, &plan);
    if (sima_status_is_ok (&st))
      st = sima_ev74_casttess_encode_relocatable (&plan, &d);
    if (!sima_status_is_ok (&st))
      continue;                 /* spans beyond the aperture */
    n++;
    doc_encode (&plan, want);
    if (d.length != CT_BYTES || test_first_diff (d.bytes, want, CT_BYTES) >= 0
        || test_get_le (d.bytes, O_FLAGS, 2) != 1)
      why = "encoded bytes differ from the doc's (flags 1)";
    out.tiled.cblock = 0;
    st = admit (&in, &out, &plan0);
    if (sima_status_is_ok (&st))
      st = sima_ev74_casttess_encode_relocatable (&plan0, &d0);
    for (k = 0; k < CT_BYTES && sima_status_is_ok (&st); k++)
      other += (k < 10 || k > 15) && d.bytes[k] != d0.bytes[k];
    if (why == NULL && (!sima_status_is_ok (&st) || other != 0
            || test_get_le (d0.bytes, O_FLAGS, 2) != 0))
      why = "the flag-less twin differs beyond flags and CRC";
    twins += why == NULL;
    ib.bus_address = 0;
    ib.length = plan.input_bytes;
    ob.bus_address = UINT64_C (1) << 31;
    ob.length = plan.output_bytes;
    st = sima_ev74_descriptor_bind (&d, &ib, &ob);
    if (sima_status_is_ok (&st))
      st = simafw_casttess_decode (d.bytes, d.length, &job);
    if (why == NULL && !sima_status_is_ok (&st))
      why = st.message;
    if (why == NULL)
      why = plan_difference (&plan, &job.plan);
    if (why == NULL && (job.plan.output.tiled.cblock != 1
            || job.pack.output_geometry.tiled.cblock != 1))
      why = "decoded plan lost cblock";
    if (why != NULL) {
      if (!first[0])
        snprintf (first, sizeof first, "#%d: %s", i, why);
      continue;
    }
    trips++;
  }
  tap_ok (n > N / 2 && trips == n && twins == n, "CastTess cblock round trip: "
      "%d/%d pad16 cblock requests encode as the doc says (flag bit 0, the "
      "flag-less twin equal but for flags and CRC: %d) and decode to the same "
      "cblock plan", trips, n, twins);
  if (first[0])
    tap_diag ("first problem: %s", first);
}

static void
malformed (void)
{
  /* CRC-covered bytes whose single-bit flips the CRC must catch */
  static const size_t flips[] = { 4, 5, 8, 9, 10, 11, 12, 13, 14, 15,
    40, 48, 56, 57, 58, 59, 60, 64, 68, 72, 120, 168, 176, 208, 231 };
  static const uint32_t lens[] = { 56, 57, 100, 200, 230, 231, 233, 248 };
  uint8_t d[CT_BYTES + 16];
  size_t b, i, k;

  for (i = 0; i < sizeof FIELD_CLASSES / sizeof FIELD_CLASSES[0]; i++) {
    test_mutants_begin (FIELD_CLASSES[i].name, FIELD_CLASSES[i].code,
        FIELD_CLASSES[i].fragment);
    for (b = 0; b < N_GOLDEN; b++)
      for (k = 0; k < (size_t) FIELD_CLASSES[i].nv; k++)
        set (b, FIELD_CLASSES[i].off, FIELD_CLASSES[i].n, FIELD_CLASSES[i].v[k]);
    test_mutants_end ();
  }
  /* a well-formed dtype that is not the one the spans were computed for:
   * the device derives the spans from the dtype and finds them different;
   * float scalars over the UINT8 base's strides {16, 3, 1} are refused by
   * the rerun admission */
  test_mutants_begin ("input dtype 4 (UINT8) on a float base: spans != "
      "geometry", SIMA_INVALID_DESCRIPTOR, "match");
  for (b = 0; b < N_GOLDEN; b++)
    if (plan[b].input.dtype != SIMA_DTYPE_UINT8)
      set (b, O_DTYPE, 1, 4);
  test_mutants_end ();
  test_mutants_begin ("input dtype 0/1/2 on the UINT8 base: refused strides",
      SIMA_INVALID_STRIDES, "stride");
  for (b = 0; b < N_GOLDEN; b++)
    if (plan[b].input.dtype == SIMA_DTYPE_UINT8)
      for (k = 0; k < 3; k++)
        set (b, O_DTYPE, 1, k);
  test_mutants_end ();
  test_mutants_begin ("CBLOCK (flag bit 0) with compact channels",
      SIMA_INVALID_TILING, "cblock");
  for (b = 0; b < N_GOLDEN; b++) {
    uint8_t m[CT_BYTES];
    memcpy (m, base[b], CT_BYTES);
    test_put_le (m, O_FLAGS, 1, 2);
    m[O_CHANNELS] = 0;
    reseal (m);
    test_mutant (m, CT_BYTES);
  }
  test_mutants_end ();

  /* the length field agrees with the bytes sent (a prefix, or extra zero
   * bytes), resealed over what is sent: still not a 232-byte CastTess */
  test_mutants_begin ("length field == received != 232", SIMA_INVALID_DESCRIPTOR, "length");
  for (b = 0; b < N_GOLDEN; b++)
    for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
      memset (d, 0, sizeof d);
      memcpy (d, base[b], lens[i] < CT_BYTES ? lens[i] : CT_BYTES);
      test_put_le (d, O_LENGTH, lens[i], 2);
      test_put_le (d, O_CRC, test_doc_crc (d, lens[i]), 4);
      test_mutant (d, lens[i]);
    }
  test_mutants_end ();
  test_mutants_begin ("truncated buffer (0..231 bytes)", SIMA_INVALID_DESCRIPTOR, NULL);
  for (b = 0; b < N_GOLDEN; b++)
    for (i = 0; i < CT_BYTES; i++)
      test_mutant (base[b], (uint32_t) i);
  test_mutants_end ();
  test_mutants_begin ("bad CRC (bit flips of covered bytes)", SIMA_INVALID_DESCRIPTOR, "CRC");
  for (b = 0; b < N_GOLDEN; b++)
    for (i = 0; i < sizeof flips / sizeof flips[0]; i++)
      for (k = 0; k < 8; k++) {
        memcpy (d, base[b], CT_BYTES);
        d[flips[i]] ^= (uint8_t) (1u << k);
        test_mutant (d, CT_BYTES);
      }
  test_mutants_end ();
  test_mutants_begin ("nonzero reserved byte (69-71, 172-175, 216-231)",
      SIMA_INVALID_DESCRIPTOR, "reserved");
  for (b = 0; b < N_GOLDEN; b++)
    for (i = 0; i < CT_BYTES; i++)
      if ((i >= 69 && i < 72) || (i >= 172 && i < 176) || i >= 216) {
        set (b, i, 1, 0x01);
        set (b, i, 1, 0x80);
      }
  test_mutants_end ();

  /* geometry */
  test_mutants_begin ("nonzero shape/stride slot beyond rank", SIMA_INVALID_DESCRIPTOR,
      "slot");
  for (b = 0; b < N_GOLDEN; b++)
    for (i = (size_t) plan[b].input.rank; i < 6; i++) {
      set (b, O_SHAPE + 8 * i, 8, 1);
      set (b, O_STRIDES + 8 * i, 8, 4);
    }
  test_mutants_end ();
  test_mutants_begin ("nonzero stride of a contiguous input", SIMA_INVALID_DESCRIPTOR,
      "contiguous");
  for (b = 0; b < N_GOLDEN; b++)
    if (plan[b].input.layout == SIMA_LAYOUT_CONTIGUOUS)
      for (i = 0; i < (size_t) plan[b].input.rank; i++)
        set (b, O_STRIDES + 8 * i, 8, 4);
    else
      set (b, O_LAYOUT, 1, 0);            /* strided base declared contiguous */
  test_mutants_end ();
  /* strides the admission refuses: odd, negative or broadcast (0 on an
   * axis of extent > 1), or a contiguous base declared strided (all 0) */
  test_mutants_begin ("refused input strides", SIMA_INVALID_STRIDES, "stride");
  for (b = 0; b < N_GOLDEN; b++) {
    if (plan[b].input.layout == SIMA_LAYOUT_CONTIGUOUS) {
      set (b, O_LAYOUT, 1, 1);
      continue;
    }
    for (i = 0; i < (size_t) plan[b].input.rank; i++) {
      if (scalar_of (plan[b].input.dtype) > 1)    /* any UINT8 stride is */
        set (b, O_STRIDES + 8 * i, 8,             /* aligned */
            (uint64_t) plan[b].input.strides_bytes[i] + 1);
      set (b, O_STRIDES + 8 * i, 8, (uint64_t) -plan[b].input.strides_bytes[i]);
      if (plan[b].input.shape[i] > 1)
        set (b, O_STRIDES + 8 * i, 8, 0);
    }
  }
  test_mutants_end ();
  test_mutants_begin ("negative extent", SIMA_INVALID_SHAPE, "extent");
  for (b = 0; b < N_GOLDEN; b++)
    for (i = 0; i < (size_t) plan[b].input.rank; i++) {
      set (b, O_SHAPE + 8 * i, 8, UINT64_MAX);             /* -1 */
      set (b, O_SHAPE + 8 * i, 8, UINT64_C (1) << 63);     /* INT64_MIN */
    }
  test_mutants_end ();
  test_mutants_begin ("axes: duplicate, out of range, below -1, missing C",
      SIMA_INVALID_TILING, "axis");
  for (b = 0; b < N_GOLDEN; b++) {
    for (k = 0; k < 4; k++) {
      if (k < 3)          /* a spatial role on the C axis */
        set (b, O_AXES + k, 1, (uint8_t) plan[b].output.tiled.axes[3]);
      set (b, O_AXES + k, 1, (uint64_t) plan[b].input.rank);
      set (b, O_AXES + k, 1, 0xfe);       /* -2 */
      set (b, O_AXES + k, 1, 0x80);       /* -128 */
    }
    set (b, O_AXES + 3, 1, 0xff);         /* C absent */
  }
  test_mutants_end ();
  test_mutants_begin ("tile extent 0/negative, or 2 on an absent axis", SIMA_INVALID_TILING,
      "extent");
  for (b = 0; b < N_GOLDEN; b++)
    for (k = 0; k < 4; k++) {
      set (b, O_TILE + 8 * k, 8, 0);
      set (b, O_TILE + 8 * k, 8, UINT64_MAX);
      if (plan[b].output.tiled.axes[k] < 0)
        set (b, O_TILE + 8 * k, 8, 2);
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
    /* aligned, so that only the end of the range is wrong */
    set (b, O_IN_ADDR, 8, (APERTURE - plan[b].input_bytes + 4) & ~UINT64_C (3));
    set (b, O_IN_ADDR, 8, APERTURE - 4);
    set (b, O_OUT_ADDR, 8, APERTURE - plan[b].output_bytes + 16);
    set (b, O_OUT_ADDR, 8, APERTURE - 16);
  }
  test_mutants_end ();
  test_mutants_begin ("bound length below span (incl. unbound relocatable)",
      SIMA_INVALID_DESCRIPTOR, "bound");
  for (b = 0; b < N_GOLDEN; b++) {
    set (b, O_IN_LEN, 4, plan[b].input_bytes - 1);
    set (b, O_IN_LEN, 4, 0);
    set (b, O_OUT_LEN, 4, plan[b].output_bytes - 1);
    set (b, O_OUT_LEN, 4, 0);
    memcpy (d, base[b], CT_BYTES);
    memset (d + 16, 0, 24);               /* as encoded: unbound */
    test_mutant (d, CT_BYTES);
  }
  test_mutants_end ();
  test_mutants_begin ("misaligned output (not 16) / input (not scalar)",
      SIMA_MISALIGNED_BUFFER, "aligned");
  for (b = 0; b < N_GOLDEN; b++) {
    for (k = 1; k < 16; k++)
      set (b, O_OUT_ADDR, 8, OUT_BUS + k);
    for (k = 1; k < scalar_of (plan[b].input.dtype); k++)
      set (b, O_IN_ADDR, 8, IN_BUS + k);
  }
  test_mutants_end ();
  test_mutants_begin ("overlapping input/output bus ranges", SIMA_OVERLAPPING_BUFFERS,
      "overlap");
  for (b = 0; b < N_GOLDEN; b++) {
    set (b, O_OUT_ADDR, 8, IN_BUS);
    set (b, O_OUT_ADDR, 8, IN_BUS + 16);
    set (b, O_OUT_ADDR, 8, (IN_BUS + plan[b].input_bytes - 1) & ~UINT64_C (15));
    set (b, O_IN_ADDR, 8, OUT_BUS + 16);
    set (b, O_IN_ADDR, 8, OUT_BUS - 4);
  }
  test_mutants_end ();
  test_mutants_all_rejected (1000);
}

/* ---- 5. valid runs, and the setup of section 4 ---------------------------- */

static void
entry_tests (void)
{
  TestRng rng = { 0xC0DEC0DE5EEDCA57ull };
  uint8_t *a65_out = aligned_alloc (64, REGION_BYTES);
  uint8_t *oracle_out = aligned_alloc (64, REGION_BYTES);
  uint8_t d[CT_BYTES];
  SimaEv74Descriptor desc;
  uint64_t commands = 0;
  size_t i, pending, n;
  SimaStatus st;
  int g;

  in_host = aligned_alloc (64, REGION_BYTES);
  out_host = aligned_alloc (64, REGION_BYTES);
  local_mem = aligned_alloc (64, LOCAL_BYTES);
  regions[0] = (SimaHostRegion) { (uint32_t) IN_BUS, REGION_BYTES,
      in_host, NULL, NULL };
  regions[1] = (SimaHostRegion) { (uint32_t) OUT_BUS, REGION_BYTES,
      out_host, NULL, NULL };
  test_entry_use (regions, 2, local_mem, LOCAL_BYTES);
  /* random bits: every class of FP32/FP16/BF16 value, NaNs included */
  for (i = 0; i < REGION_BYTES; i++)
    in_host[i] = (uint8_t) test_rng_next (&rng);

  /* each golden plan bound to the two regions: the firmware writes every
   * output byte, equal to the A65's and the oracle's, and nothing past the
   * span (three different prefills, so an unwritten byte cannot agree) */
  for (g = 0; g < N_GOLDEN; g++) {
    SimaEv74Binding ib = { IN_BUS, REGION_BYTES }, ob = { OUT_BUS, REGION_BYTES };
    SimaA65CastTessPlan a65;
    SimaConstHostBuffer ab;
    SimaHostBuffer ao;

    memset (base[g], 0, CT_BYTES);
    if (!encode_golden (g, &plan[g], &desc)
        || sima_ev74_descriptor_bind (&desc, &ib, &ob).code != SIMA_OK) {
      tap_ok (0, "%s encodes and binds", GOLDEN[g].name);
      continue;
    }
    memcpy (base[g], desc.bytes, CT_BYTES);
    n = (size_t) plan[g].output_bytes;
    ab = (SimaConstHostBuffer) { in_host, plan[g].input_bytes };
    ao = (SimaHostBuffer) { a65_out, n };
    memset (out_host, 0xA5, REGION_BYTES);
    memset (a65_out, 0x5A, n);
    memset (oracle_out, 0xC3, n);
    expect_status (GOLDEN[g].name, test_run_entry (desc.bytes, desc.length,
            &commands, &pending), SIMA_OK, NULL);
    st = sima_a65_casttess_prepare (&plan[g], &a65);
    if (sima_status_is_ok (&st))
      st = sima_a65_casttess_execute (&a65, &ab, 1, &ao, 1);
    oracle_casttess (&plan[g].input, in_host, &plan[g].output, oracle_out);
    tap_ok (sima_status_is_ok (&st) && commands > 0 && pending == 0
        && memcmp (out_host, a65_out, n) == 0
        && memcmp (out_host, oracle_out, n) == 0
        && out_host[n] == 0xA5 && out_host[REGION_BYTES - 1] == 0xA5,
        "%s: firmware output (%zu bytes, %llu DMA commands) equals the A65's "
        "and the oracle's, nothing written past the span", GOLDEN[g].name, n,
        (unsigned long long) commands);
  }

  /* the relocation block is outside the CRC: bound lengths tightened to the
   * spans, then the output moved right after the input, without resealing */
  memcpy (d, base[0], CT_BYTES);
  test_put_le (d, O_IN_LEN, plan[0].input_bytes, 4);
  test_put_le (d, O_OUT_LEN, plan[0].output_bytes, 4);
  st = test_run_entry (d, CT_BYTES, &commands, &pending);
  tap_ok (st.code == SIMA_OK && commands > 0, "bound lengths patched without "
      "resealing are accepted (%s)", sima_status_code_name (st.code));
  test_put_le (d, O_OUT_ADDR, (IN_BUS + plan[0].input_bytes + 15) & ~UINT64_C (15),
      8);
  st = test_run_entry (d, CT_BYTES, &commands, &pending);
  tap_ok (st.code == SIMA_OK && commands > 0, "adjacent input and output "
      "ranges are accepted (%s)", sima_status_code_name (st.code));

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
