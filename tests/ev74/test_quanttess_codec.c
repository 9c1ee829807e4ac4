/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The QuantTess v1 EV74 descriptor, host encoder and firmware decoder:
 *  1. golden vectors: the expected 232 bytes are written here from the table
 *     of docs/ev74-descriptors.md with this file's own little-endian writer
 *     and its own (table-driven) CRC-32, never with wire.h, so the test
 *     checks the document and the code against each other; two
 *     descriptors (FP32, and UINT8 input: dtype 4) are also spelled out as
 *     literal hex (computed with Python's zlib) so that a change both
 *     writers would share is still caught;
 *  2. bind: exactly bytes 16-39 change, the CRC does not; rejections leave
 *     the descriptor untouched; encode refuses spans beyond 32 bits;
 *  3. round trip: random admitted plans survive encode + bind + decode;
 *  4. malformed descriptors: one point per mutation class, each rejected by
 *     the native entry with the documented code and ZERO DMA commands;
 *  5. one valid descriptor per golden plan runs on the host HAL and matches
 *     the A65 byte for byte (the real differential test is
 *     test_quanttess_device.c).
 */
#include <simaai/kernels/a65/quanttess.h>
#include <simaai/kernels/ev74/descriptor.h>
#include <simaai/kernels/ev74/quanttess.h>
#include <simaai/kernels/ops/quanttess.h>

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
  QT_BYTES = 232, N_GOLDEN = 4,
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
  test_put_le (d, O_CRC, test_doc_crc (d, QT_BYTES), 4);
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

/* The relocatable descriptor the doc prescribes for an admitted plan. The
 * enum codes are spelled out as the doc numbers them, not cast. */
static void
doc_encode (const SimaQuantTessPlan *p, uint8_t d[QT_BYTES])
{
  int i;

  memset (d, 0, QT_BYTES);
  test_put_le (d, O_MAGIC, 0x34375645u, 4);
  test_put_le (d, O_VERSION, 1, 2);
  test_put_le (d, O_LENGTH, QT_BYTES, 2);
  test_put_le (d, O_ROUTE, 49, 2);
  test_put_le (d, O_IN_SPAN, p->input_bytes, 8);
  test_put_le (d, O_OUT_SPAN, p->output_bytes, 8);
  d[O_DTYPE] = p->input.dtype == SIMA_DTYPE_FLOAT32 ? 0
      : p->input.dtype == SIMA_DTYPE_FLOAT16 ? 1
      : p->input.dtype == SIMA_DTYPE_UINT8 ? 4 : 2;
  d[O_RANK] = (uint8_t) p->input.rank;
  d[O_ROUNDING] = p->params.rounding == SIMA_ROUNDING_NEAREST_EVEN ? 0
      : p->params.rounding == SIMA_ROUNDING_TOWARD_ZERO ? 1
      : p->params.rounding == SIMA_ROUNDING_TOWARD_POSITIVE ? 2 : 3;
  d[O_CHANNELS] = p->output.tiled.channels == SIMA_CHANNELS_PAD16;
  test_put_le (d, O_ZP, (uint32_t) p->params.zero_point, 4);
  test_put_le (d, O_MULT, float_bits (p->params.multiplier), 4);
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

/* Plan 1 as literal bytes (CRC 0x53a9fcb4 from Python zlib.crc32 over bytes
 * 0-11 and 40-231): FP32 {2,3} [W,C], axes {-1,-1,0,1}, tile {1,1,2,3},
 * pad16, multiplier 1.0, zero point 5, nearest-even. */
static const uint8_t GOLDEN_1[QT_BYTES] = {
  /*   0 */ 0x45, 0x56, 0x37, 0x34, 0x01, 0x00, 0xe8, 0x00, 0x31, 0x00, 0x00, 0x00, 0xb4, 0xfc, 0xa9, 0x53,
  /*  16 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  32 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  48 */ 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x05, 0x00, 0x00, 0x00,
  /*  64 */ 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
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

/* Plan 4 (UINT8) as literal bytes, from the doc's table by a Python writer
 * (struct.pack_into + zlib.crc32 over bytes 0-11 and 40-231, CRC
 * 0x43859bc7): input dtype 4 at byte 56, an RGBX camera view {H 2, W 3, C 3}
 * with strides {16, 4, 1} (pixel stride 4, rows padded to 16 bytes), axes
 * {-1,0,1,2}, tile {1,2,2,3}, pad16, SiMa's preproc multiplier
 * 255.0697f/255 (0x3f8008f5) and zero point -128 (0xffffff80). */
static const uint8_t GOLDEN_U8[QT_BYTES] = {
  /*   0 */ 0x45, 0x56, 0x37, 0x34, 0x01, 0x00, 0xe8, 0x00, 0x31, 0x00, 0x00, 0x00, 0xc7, 0x9b, 0x85, 0x43,
  /*  16 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  32 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  48 */ 0x60, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x03, 0x00, 0x01, 0x80, 0xff, 0xff, 0xff,
  /*  64 */ 0xf5, 0x08, 0x80, 0x3f, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  80 */ 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  96 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 112 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 128 */ 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 144 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 160 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00,
  /* 176 */ 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 192 */ 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 208 */ 0x12, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
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
    SimaQuantTessParams params, SimaQuantTessPlan *plan)
{
  SimaQuantTessRequest req = { in, 1, out, 1, params };
  return sima_quanttess_check_inference (&req, plan);
}

/* The golden plans, with their spans and element count worked out by hand
 * from docs/layout.md (strides all 0 means a contiguous input). */
typedef struct {
  const char *name;
  SimaDType dtype;
  int rank;
  int64_t shape[6], strides[6];
  int8_t axes[4];
  int64_t tile[4];
  SimaChannels channels;
  uint32_t multiplier_bits;
  int32_t zero_point;
  SimaRounding rounding;
  uint64_t in_span, out_span, count;
} Golden;

static const Golden GOLDEN[N_GOLDEN] = {
  /* 6 FP32 = 24; one tile of 2 pixels x 16 stored channels = 32 */
  { "FP32 contiguous {2,3} pad16", SIMA_DTYPE_FLOAT32, 2, { 2, 3 }, { 0 },
    { -1, -1, 0, 1 }, { 1, 1, 2, 3 }, SIMA_CHANNELS_PAD16, 0x3f800000, 5,
    SIMA_ROUNDING_NEAREST_EVEN, 24, 32, 6 },
  /* 2 + 128 + 2*32 + 12 + 4*2 = 214; per N slice 2 C tiles x 2 H tiles,
   * every payload <= 16 bytes: 4 x 16, x 2 slices = 128 */
  { "BF16 strided {2,3,2,5} toward-negative subnormal", SIMA_DTYPE_BFLOAT16,
    4, { 2, 3, 2, 5 }, { 128, 32, 12, 2 }, { -1, 1, 2, 3 }, { 1, 2, 2, 4 },
    SIMA_CHANNELS_COMPACT, 0x00000001, -128, SIMA_ROUNDING_TOWARD_NEGATIVE,
    214, 128, 60 },
  /* 408 FP16 = 816; per slice: full C tile 4 px x 16 = 64, boundary 4 x 1
   * rounded to 16: 80 bytes, x 6 outer slices = 480 */
  { "FP16 rank-6 compact {2,1,3,2,2,17}", SIMA_DTYPE_FLOAT16, 6,
    { 2, 1, 3, 2, 2, 17 }, { 0 }, { 1, 3, 4, 5 }, { 1, 2, 2, 16 },
    SIMA_CHANNELS_COMPACT, 0x42fe0000 /* 127 */, -7, SIMA_ROUNDING_TOWARD_ZERO,
    816, 480, 408 },
  /* UINT8 RGBX camera view: 1 + 16 + 2*4 + 2*1 = 27; tiles H2 x W2 (4 px x
   * 16 stored) = 64 and the W boundary H2 x W1 (2 px x 16) = 32: 96 */
  { "UINT8 RGBX {2,3,3} pixel stride 4, padded rows, SiMa preproc",
    SIMA_DTYPE_UINT8, 3, { 2, 3, 3 }, { 16, 4, 1 }, { -1, 0, 1, 2 },
    { 1, 2, 2, 3 }, SIMA_CHANNELS_PAD16, 0x3f8008f5 /* 255.0697f/255 */,
    -128, SIMA_ROUNDING_NEAREST_EVEN, 27, 96, 18 },
};

static SimaStatus
golden_plan (int g, SimaQuantTessPlan *plan)
{
  const Golden *x = &GOLDEN[g];
  SimaTensorSpec in = x->strides[0] != 0
      ? test_spec_strided (x->dtype, x->rank, x->shape, x->strides)
      : test_spec_dense (x->dtype, x->rank, x->shape);
  SimaTensorSpec out = test_spec_tiled (SIMA_DTYPE_INT8, x->rank, x->shape,
      x->axes, x->tile, x->channels);
  SimaQuantTessParams p = { bits_float (x->multiplier_bits), x->zero_point,
    x->rounding };
  return admit (&in, &out, p, plan);
}

/* One point: 232 bytes equal to `want`, else the first differing byte. */
static void
same_bytes (const uint8_t *got, uint32_t len, const uint8_t *want,
    const char *who, const char *what)
{
  int diff = len == QT_BYTES ? test_first_diff (got, want, QT_BYTES) : 0;
  if (!tap_ok (diff < 0, "%s%s", who, what))
    tap_diag ("%u bytes, first difference at byte %d", (unsigned) len, diff);
}

/* ---- 1. golden vectors ---------------------------------------------------- */

static void
golden_vectors (void)
{
  SimaEv74Descriptor desc;
  SimaQuantTessPlan plan;
  uint8_t want[QT_BYTES];
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
    st = sima_ev74_quanttess_encode_relocatable (&plan, &desc);
    expect_status ("  encode", st, SIMA_OK, NULL);
    doc_encode (&plan, want);
    same_bytes (desc.bytes, desc.length, want, GOLDEN[g].name,
        ": encoder output equals the doc's bytes");
    tap_ok (test_get_le (desc.bytes, O_IN_LEN, 8) == 0
        && test_get_le (desc.bytes, O_IN_ADDR, 8) == 0
        && test_get_le (desc.bytes, O_OUT_ADDR, 8) == 0,
        "%s: relocatable form has a zero relocation block (bytes 16-39)",
        GOLDEN[g].name);
    if (g == 0) {
      same_bytes (want, QT_BYTES, GOLDEN_1, "own writer", " reproduces the "
          "literal hex golden");
      same_bytes (desc.bytes, desc.length, GOLDEN_1, "encoder", " reproduces "
          "the literal hex golden");
      tap_ok (sima_ev74_descriptor_route (&desc) == 49
          && sima_ev74_descriptor_input_span (&desc) == 24
          && sima_ev74_descriptor_output_span (&desc) == 32,
          "descriptor accessors: route %u, spans %llu/%llu",
          (unsigned) sima_ev74_descriptor_route (&desc),
          (unsigned long long) sima_ev74_descriptor_input_span (&desc),
          (unsigned long long) sima_ev74_descriptor_output_span (&desc));
    }
    if (GOLDEN[g].dtype == SIMA_DTYPE_UINT8) {
      same_bytes (want, QT_BYTES, GOLDEN_U8, "own writer", " reproduces the "
          "literal hex UINT8 golden (input dtype 4 at byte 56)");
      same_bytes (desc.bytes, desc.length, GOLDEN_U8, "encoder", " reproduces "
          "the literal hex UINT8 golden");
    }
  }
}

/* ---- 2. bind -------------------------------------------------------------- */

static int
encode_golden (int g, SimaQuantTessPlan *plan, SimaEv74Descriptor *desc)
{
  SimaStatus st = golden_plan (g, plan);
  if (sima_status_is_ok (&st))
    st = sima_ev74_quanttess_encode_relocatable (plan, desc);
  return sima_status_is_ok (&st);
}

/* Bytes 16-39 are exactly {in_len u32, out_len u32, in_addr u64, out_addr
 * u64} and every other byte (the CRC included) is as encoded. */
static int
bound_as (const SimaEv74Descriptor *d, const SimaEv74Descriptor *reloc,
    uint32_t in_len, uint32_t out_len, uint64_t in_addr, uint64_t out_addr)
{
  uint8_t want[QT_BYTES];
  memcpy (want, reloc->bytes, QT_BYTES);
  test_put_le (want, O_IN_LEN, in_len, 4);
  test_put_le (want, O_OUT_LEN, out_len, 4);
  test_put_le (want, O_IN_ADDR, in_addr, 8);
  test_put_le (want, O_OUT_ADDR, out_addr, 8);
  return d->length == QT_BYTES && test_first_diff (d->bytes, want, QT_BYTES) < 0
      && test_get_le (d->bytes, O_CRC, 4) == test_doc_crc (d->bytes, QT_BYTES);
}

static void
bind_tests (void)
{
  /* applied in order to one descriptor: each success must rewrite exactly
   * the relocation block, each failure must leave every byte as it was */
  static const struct {
    const char *name;
    uint64_t in_addr, in_len, out_addr, out_len;
    SimaStatusCode code;
  } binds[] = {
    { "bind", IN_BUS, 4096, OUT_BUS + 0x40, 32, SIMA_OK },
    /* a binding longer than u32 can only be recorded as the u32 maximum */
    { "rebind, 8 GiB output binding", 0x1000, 24, 0x1020, UINT64_C (1) << 33,
      SIMA_OK },
    { "ranges ending exactly at 2^32", APERTURE - 24, 24, APERTURE - 64, 32,
      SIMA_OK },
    { "adjacent ranges", 0x2000, 24, 0x2018, 32, SIMA_OK },
    { "input address 2^32", APERTURE, 64, OUT_BUS, 64, SIMA_NOT_REPRESENTABLE },
    { "output address 2^40", IN_BUS, 64, UINT64_C (1) << 40, 64,
      SIMA_NOT_REPRESENTABLE },
    { "input address ~0", UINT64_MAX, 64, OUT_BUS, 64, SIMA_NOT_REPRESENTABLE },
    { "input 2^32-16 + span 24", APERTURE - 16, 64, OUT_BUS, 64,
      SIMA_NOT_REPRESENTABLE },
    { "output 2^32-16 + span 32", IN_BUS, 64, APERTURE - 16, 64,
      SIMA_NOT_REPRESENTABLE },
    { "input binding 23 < span 24", IN_BUS, 23, OUT_BUS, 64,
      SIMA_CAPACITY_TOO_SMALL },
    { "output binding 31 < span 32", IN_BUS, 64, OUT_BUS, 31,
      SIMA_CAPACITY_TOO_SMALL },
    { "output binding 0", IN_BUS, 64, OUT_BUS, 0, SIMA_CAPACITY_TOO_SMALL },
    { "same address", IN_BUS, 64, IN_BUS, 64, SIMA_OVERLAPPING_BUFFERS },
    { "output inside input", IN_BUS, 64, IN_BUS + 16, 64,
      SIMA_OVERLAPPING_BUFFERS },
    { "input inside output", IN_BUS + 8, 64, IN_BUS, 64,
      SIMA_OVERLAPPING_BUFFERS },
  };
  static const struct {
    const char *name;
    SimaDType dtype;
    int64_t n, tile_c;
    SimaStatusCode code;
  } spans[] = {
    { "encode: FP32 input span 2^32", SIMA_DTYPE_FLOAT32, INT64_C (1) << 30,
      16, SIMA_NOT_REPRESENTABLE },
    { "encode: FP32 input span 2^32-16", SIMA_DTYPE_FLOAT32,
      (INT64_C (1) << 30) - 4, 16, SIMA_OK },
    { "encode: output span 2^32", SIMA_DTYPE_BFLOAT16, INT64_C (1) << 28, 1,
      SIMA_NOT_REPRESENTABLE },
  };
  SimaEv74Descriptor reloc, d, before;
  SimaQuantTessPlan plan;
  SimaStatus st;
  size_t i;

  if (!tap_ok (encode_golden (0, &plan, &reloc), "bind: plan 1 encodes"))
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

  /* encode: spans must fit the 32-bit aperture (and the u32 bound length);
   * rank-1 tensors, C tiles of 16 (FP32) or 1 (BF16, 16 bytes per pixel) */
  for (i = 0; i < sizeof spans / sizeof spans[0]; i++) {
    static const int8_t axes[4] = { -1, -1, -1, 0 };
    int64_t tile[4] = { 1, 1, 1, spans[i].tile_c }, n = spans[i].n;
    SimaTensorSpec si = test_spec_dense (spans[i].dtype, 1, &n);
    SimaTensorSpec so = test_spec_tiled (SIMA_DTYPE_INT8, 1, &n, axes, tile,
        SIMA_CHANNELS_PAD16);
    SimaQuantTessParams p = { 1.0f, 0, SIMA_ROUNDING_NEAREST_EVEN };

    st = admit (&si, &so, p, &plan);
    if (sima_status_is_ok (&st))
      st = sima_ev74_quanttess_encode_relocatable (&plan, &d);
    expect_status (spans[i].name, st, spans[i].code, NULL);
    if (spans[i].code == SIMA_OK)
      tap_ok (test_get_le (d.bytes, O_IN_SPAN, 8) == (UINT64_C (1) << 32) - 16
          && test_get_le (d.bytes, O_OUT_SPAN, 8) == UINT64_C (1) << 30,
          "large spans recorded: %llu/%llu",
          (unsigned long long) test_get_le (d.bytes, O_IN_SPAN, 8),
          (unsigned long long) test_get_le (d.bytes, O_OUT_SPAN, 8));
  }
}

/* ---- 3. round trip -------------------------------------------------------- */

/* A random request the admission should accept: ranks 1-6, every input
 * dtype, contiguous or strided (strides built to satisfy the sorted-span
 * proof in a random axis order, with gaps), random axis mapping and tiles
 * (possibly larger than the extent), both channel modes, any rounding. */
static void
random_request (TestRng *r, SimaTensorSpec *in, SimaTensorSpec *out,
    SimaQuantTessParams *p)
{
  int rank = (int) test_rng_range (r, 1, 6), perm[6] = { 0 }, i, k;
  int64_t shape[6] = { 0 }, strides[6] = { 0 }, tile[4] = { 1, 1, 1, 1 };
  int8_t axes[4] = { -1, -1, -1, -1 };
  static const SimaDType dtypes[4] = { SIMA_DTYPE_FLOAT32, SIMA_DTYPE_FLOAT16,
    SIMA_DTYPE_BFLOAT16, SIMA_DTYPE_UINT8 };
  SimaDType dtype = dtypes[test_rng_below (r, 4)];
  int64_t scalar = (int64_t) scalar_of (dtype), reach = scalar;
  uint32_t bits;

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
  *out = test_spec_tiled (SIMA_DTYPE_INT8, rank, shape, axes, tile,
      (SimaChannels) test_rng_below (r, 2));
  bits = test_rng_below (r, 4) == 0 ? (uint32_t) test_rng_range (r, 1, 0x7fffff)
      : (uint32_t) test_rng_range (r, 1, 254) << 23
      | (uint32_t) test_rng_below (r, 0x800000);
  p->multiplier = bits_float (bits);
  p->zero_point = (int32_t) test_rng_range (r, -128, 127);
  p->rounding = (SimaRounding) test_rng_below (r, 4);
}

/* What a decoder failed to give back, or NULL. */
static const char *
plan_difference (const SimaQuantTessPlan *a, const SimaQuantTessPlan *b)
{
  const SimaTensorSpec *ai = &a->input, *bi = &b->input;
  const SimaMlaTiled *at = &a->output.tiled, *bt = &b->output.tiled;
  size_t r = (size_t) ai->rank * sizeof (int64_t);

  if (ai->rank != bi->rank || b->output.rank != ai->rank
      || ai->dtype != bi->dtype || ai->layout != bi->layout
      || b->output.dtype != SIMA_DTYPE_INT8
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
  if (float_bits (a->params.multiplier) != float_bits (b->params.multiplier)
      || a->params.zero_point != b->params.zero_point
      || a->params.rounding != b->params.rounding)
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
  TestRng rng = { 0x51AA0C0DEC0DEC01ull };
  unsigned seen_rank = 0, seen_dtype = 0, seen_layout = 0, seen_ch = 0,
      seen_round = 0;
  int i, admitted = 0, doc_equal = 0, trips = 0, empties = 0;
  char first[200] = "";
#define NOTE(...) \
  do { if (!first[0]) snprintf (first, sizeof first, __VA_ARGS__); } while (0)

  for (i = 0; i < N; i++) {
    SimaTensorSpec in, out;
    SimaQuantTessParams p;
    SimaQuantTessPlan plan;
    SimaEv74Descriptor d;
    SimaFwQuantTessJob job;
    SimaEv74Binding ib, ob;
    uint8_t want[QT_BYTES];
    const char *why;
    SimaStatus st;

    random_request (&rng, &in, &out, &p);
    st = admit (&in, &out, p, &plan);
    admitted += sima_status_is_ok (&st);
    if (sima_status_is_ok (&st))
      st = sima_ev74_quanttess_encode_relocatable (&plan, &d);
    if (!sima_status_is_ok (&st)) {
      NOTE ("admit/encode #%d: %s", i, st.message);
      continue;
    }
    doc_encode (&plan, want);
    if (d.length == QT_BYTES && test_first_diff (d.bytes, want, QT_BYTES) < 0)
      doc_equal++;
    else
      NOTE ("#%d differs from the doc at byte %d", i,
          test_first_diff (d.bytes, want, QT_BYTES));
    /* input low in the aperture (scalar-aligned), output high (16-aligned) */
    ib.bus_address = test_rng_below (&rng, UINT64_C (1) << 30)
        * (uint64_t) scalar_of (in.dtype);
    ib.length = plan.input_bytes + test_rng_below (&rng, 64);
    ob.bus_address = (UINT64_C (1) << 31)
        + 16 * test_rng_below (&rng, UINT64_C (1) << 26);
    ob.length = plan.output_bytes + test_rng_below (&rng, 64);
    st = sima_ev74_descriptor_bind (&d, &ib, &ob);
    if (sima_status_is_ok (&st))
      st = simafw_quanttess_decode (d.bytes, d.length, &job);
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
    seen_round |= 1u << p.rounding;
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
      && seen_ch == 3 && seen_round == 15 && empties > 0,
      "round trip covers ranks 1-6 (%#x), 4 dtypes incl. UINT8 (%#x), both "
      "layouts (%#x), "
      "both channel modes (%#x), 4 roundings (%#x), empty tensors",
      seen_rank, seen_dtype, seen_layout, seen_ch, seen_round);
}

/* ---- 4. malformed descriptors --------------------------------------------- */

static uint8_t *in_host, *out_host, *local_mem;
static SimaHostRegion regions[2];

/* Valid bound descriptors of the golden plans: what every mutation starts
 * from (filled by entry_tests). */
static uint8_t base[N_GOLDEN][QT_BYTES];
static SimaQuantTessPlan plan[N_GOLDEN];

/* Base b with the `n`-byte field at `off` set to v; resealed with this
 * file's CRC unless the field is in the relocation block (not covered). */
static void
set (size_t b, size_t off, int n, uint64_t v)
{
  uint8_t d[QT_BYTES];
  memcpy (d, base[b], QT_BYTES);
  test_put_le (d, off, v, n);
  if (off < 16 || off >= 40)
    reseal (d);
  test_mutant (d, QT_BYTES);
}

/* Classes that set one field to each of a few values, on every base. Where
 * the bytes are well-formed but the request is not (rounding, channels,
 * zero point, multiplier) the admission's own code is expected: the device
 * runs the same admission as the host. */
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
    2, 4, { 2, 3, 0x8000, 0xffff } },
  /* 4 (UINT8) is valid; 3 (INT8), 5, 6 and unknown values are not */
  { "input dtype 3/5/6/7/255", SIMA_INVALID_DESCRIPTOR, "dtype", O_DTYPE, 1,
    5, { 3, 5, 6, 7, 255 } },
  { "rank 0/7/255", SIMA_INVALID_DESCRIPTOR, "rank", O_RANK, 1, 3,
    { 0, 7, 255 } },
  { "input layout 2 (mla-tiled)/3/255", SIMA_INVALID_DESCRIPTOR, "layout",
    O_LAYOUT, 1, 3, { 2, 3, 255 } },
  { "rounding 4/255", SIMA_INVALID_PARAMETER, "rounding", O_ROUNDING, 1, 2,
    { 4, 255 } },
  { "channels 2/255", SIMA_INVALID_TILING, "channels", O_CHANNELS, 1, 2,
    { 2, 255 } },
  { "zero point -129/128/INT32_MIN/INT32_MAX", SIMA_INVALID_PARAMETER,
    "zero_point", O_ZP, 4, 4, { 0xffffff7f, 128, 0x80000000, 0x7fffffff } },
  { "multiplier 0/-0/-1/inf/-inf/NaN/sNaN bits", SIMA_INVALID_PARAMETER,
    "multiplier", O_MULT, 4, 7, { 0, 0x80000000, 0xbf800000, 0x7f800000,
      0xff800000, 0x7fc00000, 0x7f800001 } },
  /* 50, 51 and 52 are DetessDequant, CastTess and DetessCast: registered,
   * not unknown */
  { "unknown route", SIMA_CAPABILITY_MISSING, "route", O_ROUTE, 2, 6,
    { 0, 48, 54, 0x3200, 0x3100, 0xffff } },
};


/* ---- cblock (flag bit 0) -------------------------------------------------- */

/* Random requests with cblock pad16 tiles: the flag is bit 0 of the flags
 * and nothing else changes (the flag-less twin differs in bytes 10-15 only:
 * the flags and the CRC); decoding gives the cblock plan back. */
static void
cblock_round_trip (void)
{
  enum { N = 3000 };
  TestRng rng = { 0xCB10C0DEC0DE0049ull };
  int i, n = 0, trips = 0, twins = 0;
  char first[200] = "";

  for (i = 0; i < N; i++) {
    SimaTensorSpec in, out;
    SimaQuantTessParams p;
    SimaQuantTessPlan plan, plan0;
    SimaEv74Descriptor d, d0;
    SimaFwQuantTessJob job;
    SimaEv74Binding ib, ob;
    uint8_t want[QT_BYTES];
    const char *why = NULL;
    SimaStatus st;
    int k, other = 0;

    random_request (&rng, &in, &out, &p);
    out.tiled.channels = SIMA_CHANNELS_PAD16;
    out.tiled.cblock = 1;
    st = admit (&in, &out, p, &plan);
    if (sima_status_is_ok (&st))
      st = sima_ev74_quanttess_encode_relocatable (&plan, &d);
    if (!sima_status_is_ok (&st))
      continue;                 /* spans beyond the aperture */
    n++;
    doc_encode (&plan, want);
    if (d.length != QT_BYTES || test_first_diff (d.bytes, want, QT_BYTES) >= 0
        || test_get_le (d.bytes, O_FLAGS, 2) != 1)
      why = "encoded bytes differ from the doc's (flags 1)";
    out.tiled.cblock = 0;
    st = admit (&in, &out, p, &plan0);
    if (sima_status_is_ok (&st))
      st = sima_ev74_quanttess_encode_relocatable (&plan0, &d0);
    for (k = 0; k < QT_BYTES && sima_status_is_ok (&st); k++)
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
      st = simafw_quanttess_decode (d.bytes, d.length, &job);
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
  tap_ok (n > N / 2 && trips == n && twins == n, "QuantTess cblock round trip: "
      "%d/%d pad16 cblock requests encode as the doc says (flag bit 0, the "
      "flag-less twin equal but for flags and CRC: %d) and decode to the same "
      "cblock plan", trips, n, twins);
  if (first[0])
    tap_diag ("first problem: %s", first);
}

static void
malformed (void)
{
  /* CRC-covered bytes whose single-bit flips the CRC must catch: version,
   * route and flags are checked after the CRC, the rest later still */
  static const size_t flips[] = { 4, 5, 8, 9, 10, 11, 12, 13, 14, 15, 40,
    48, 56, 60, 64, 72, 120, 168, 176, 208, 231 };
  static const uint32_t lens[] = { 56, 57, 100, 200, 230, 231, 233, 248 };
  uint8_t d[QT_BYTES + 16];
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
   * the device derives the spans from the dtype and finds them different */
  test_mutants_begin ("input dtype 4 (UINT8) on a float base: spans != "
      "geometry", SIMA_INVALID_DESCRIPTOR, "match");
  for (b = 0; b < N_GOLDEN; b++)
    if (plan[b].input.dtype != SIMA_DTYPE_UINT8)
      set (b, O_DTYPE, 1, 4);
  test_mutants_end ();
  /* and the other way: float scalars over the UINT8 base's strides
   * {16, 4, 1}, which the rerun admission refuses (1 is not a multiple of
   * the scalar) */
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
    uint8_t m[QT_BYTES];
    memcpy (m, base[b], QT_BYTES);
    test_put_le (m, O_FLAGS, 1, 2);
    m[O_CHANNELS] = 0;
    reseal (m);
    test_mutant (m, QT_BYTES);
  }
  test_mutants_end ();
  /* the length field agrees with the bytes sent (a prefix, or extra zero
   * bytes), resealed over what is sent: still not a 232-byte QuantTess */
  test_mutants_begin ("length field == received != 232", SIMA_INVALID_DESCRIPTOR, "length");
  for (b = 0; b < N_GOLDEN; b++)
    for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
      memset (d, 0, sizeof d);
      memcpy (d, base[b], lens[i] < QT_BYTES ? lens[i] : QT_BYTES);
      test_put_le (d, O_LENGTH, lens[i], 2);
      test_put_le (d, O_CRC, test_doc_crc (d, lens[i]), 4);
      test_mutant (d, lens[i]);
    }
  test_mutants_end ();
  test_mutants_begin ("truncated buffer (0..231 bytes)", SIMA_INVALID_DESCRIPTOR, NULL);
  for (b = 0; b < N_GOLDEN; b++)
    for (i = 0; i < QT_BYTES; i++)
      test_mutant (base[b], (uint32_t) i);
  test_mutants_end ();
  test_mutants_begin ("bad CRC (bit flips of covered bytes)", SIMA_INVALID_DESCRIPTOR, "CRC");
  for (b = 0; b < N_GOLDEN; b++)
    for (i = 0; i < sizeof flips / sizeof flips[0]; i++)
      for (k = 0; k < 8; k++) {
        memcpy (d, base[b], QT_BYTES);
        d[flips[i]] ^= (uint8_t) (1u << k);
        test_mutant (d, QT_BYTES);
      }
  test_mutants_end ();
  test_mutants_begin ("nonzero reserved byte (69-71, 172-175, 216-231)",
      SIMA_INVALID_DESCRIPTOR, "reserved");
  for (b = 0; b < N_GOLDEN; b++)
    for (i = 0; i < QT_BYTES; i++)
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
    set (b, O_IN_ADDR, 8, (APERTURE - plan[b].input_bytes + 16) & ~UINT64_C (15));
    set (b, O_IN_ADDR, 8, APERTURE - 16);
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
    memcpy (d, base[b], QT_BYTES);
    memset (d + 16, 0, 24);               /* as encoded: unbound */
    test_mutant (d, QT_BYTES);
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

/* ---- 5. a valid run, and the setup of section 4 --------------------------- */

static void
entry_tests (void)
{
  static const int64_t empty_shape[2] = { 0, 3 };
  uint8_t d[QT_BYTES];
  SimaQuantTessPlan ep;
  SimaEv74Descriptor desc;
  TestRng rng = { 0xC0DEC0DE5EEDull };
  uint8_t *a65_out = aligned_alloc (64, REGION_BYTES);
  uint8_t *oracle_out = aligned_alloc (64, REGION_BYTES);
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
  for (i = 0; i < REGION_BYTES; i++)
    in_host[i] = (uint8_t) test_rng_next (&rng);

  /* each golden plan bound to the two regions: the firmware's output must
   * equal the A65's, and nothing past the span may be written */
  for (g = 0; g < N_GOLDEN; g++) {
    SimaEv74Binding ib = { IN_BUS, REGION_BYTES }, ob = { OUT_BUS, REGION_BYTES };
    SimaA65QuantTessPlan a65;
    SimaConstHostBuffer ab;
    SimaHostBuffer ao;

    memset (base[g], 0, QT_BYTES);
    if (!encode_golden (g, &plan[g], &desc)
        || sima_ev74_descriptor_bind (&desc, &ib, &ob).code != SIMA_OK) {
      tap_ok (0, "%s encodes and binds", GOLDEN[g].name);
      continue;
    }
    memcpy (base[g], desc.bytes, QT_BYTES);
    n = (size_t) plan[g].output_bytes;
    ab = (SimaConstHostBuffer) { in_host, plan[g].input_bytes };
    ao = (SimaHostBuffer) { a65_out, n };
    memset (out_host, 0xA5, REGION_BYTES);
    memset (a65_out, 0x5A, n);
    memset (oracle_out, 0xC3, n);
    expect_status (GOLDEN[g].name, test_run_entry (desc.bytes, desc.length,
            &commands, &pending), SIMA_OK, NULL);
    st = sima_a65_quanttess_prepare (&plan[g], &a65);
    if (sima_status_is_ok (&st))
      st = sima_a65_quanttess_execute (&a65, &ab, 1, &ao, 1);
    /* the doc numbers the roundings as the oracle does (0 nearest-even,
     * 1 toward-zero, 2 toward-positive, 3 toward-negative) */
    oracle_quanttess (&plan[g].input, in_host, &plan[g].output,
        plan[g].params.multiplier, plan[g].params.zero_point,
        plan[g].params.rounding == SIMA_ROUNDING_NEAREST_EVEN
        ? ORACLE_ROUND_NEAREST_EVEN
        : plan[g].params.rounding == SIMA_ROUNDING_TOWARD_ZERO
        ? ORACLE_ROUND_TOWARD_ZERO
        : plan[g].params.rounding == SIMA_ROUNDING_TOWARD_POSITIVE
        ? ORACLE_ROUND_TOWARD_POSITIVE : ORACLE_ROUND_TOWARD_NEGATIVE,
        oracle_out);
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
  memcpy (d, base[0], QT_BYTES);
  test_put_le (d, O_IN_LEN, plan[0].input_bytes, 4);
  test_put_le (d, O_OUT_LEN, plan[0].output_bytes, 4);
  st = test_run_entry (d, QT_BYTES, &commands, &pending);
  tap_ok (st.code == SIMA_OK && commands > 0, "bound lengths patched without "
      "resealing are accepted (%s)", sima_status_code_name (st.code));
  test_put_le (d, O_OUT_ADDR, (IN_BUS + plan[0].input_bytes + 15) & ~UINT64_C (15),
      8);
  st = test_run_entry (d, QT_BYTES, &commands, &pending);
  tap_ok (st.code == SIMA_OK && commands > 0, "adjacent input and output "
      "ranges are accepted (%s)", sima_status_code_name (st.code));

  /* doc: an empty tensor encodes and validates (unbound: nothing to bind),
   * and the device does nothing */
  {
    SimaTensorSpec in = plan[0].input, out = plan[0].output;
    memcpy (in.shape, empty_shape, sizeof empty_shape);
    memcpy (out.shape, empty_shape, sizeof empty_shape);
    st = admit (&in, &out, plan[0].params, &ep);
    if (sima_status_is_ok (&st))
      st = sima_ev74_quanttess_encode_relocatable (&ep, &desc);
    if (sima_status_is_ok (&st))
      st = test_run_entry (desc.bytes, desc.length, &commands, &pending);
    tap_ok (st.code == SIMA_OK && commands == 0
        && test_get_le (desc.bytes, O_IN_SPAN, 8) == 0
        && test_get_le (desc.bytes, O_OUT_SPAN, 8) == 0
        && test_get_le (desc.bytes, O_COUNT, 8) == 0, "empty tensor: zero spans "
        "and count, unbound descriptor accepted, 0 DMA commands (%s)",
        sima_status_code_name (st.code));
  }

  malformed ();
  free (a65_out);
  free (oracle_out);
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
