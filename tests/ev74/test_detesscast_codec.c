/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The DetessCast v1 EV74 descriptor (route 52: 168-byte base, STRIDED and
 * CBLOCK flags, the strides trailer), host encoder and firmware decoder, on
 * the plan of test_detessdequant_codec.c:
 *  1. golden vectors: the expected bytes (168 or 216) are written here from
 *     docs/ev74-descriptors.md with this file's own little-endian writer,
 *     CRC-32 and row-major rule, never with wire.h or detesscast_wire.h;
 *     one descriptor is also literal hex (Python zlib);
 *  2. bind: exactly bytes 16-39 change;
 *  3. round trip: random admitted plans survive encode + bind + decode with
 *     the flags the doc prescribes;
 *  4. malformed descriptors: one point per mutation class, each rejected by
 *     the native entry with the documented code and message and ZERO DMA;
 *  5. each golden plan runs on the host HAL and matches the A65 and the
 *     oracle over the whole output span, holes included (two prefills);
 *  6. tensor sets: DetessCast members in a TensorSet container (route 52 an
 *     allowed member route), the one-member set byte-identical to the
 *     single descriptor.
 */
#include <simaai/kernels/a65/detesscast.h>
#include <simaai/kernels/ev74/descriptor.h>
#include <simaai/kernels/ev74/detesscast.h>
#include <simaai/kernels/ev74/tensor_set.h>
#include <simaai/kernels/ops/detesscast.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detesscast_fw.h"
#include "ev74_wire_doc.h"
#include "hal/host/host_hal.h"
#include "native_entry.h"
#include "oracle.h"
#include "status_expect.h"
#include "tap.h"
#include "tensor_set_fw.h"
#include "test_util.h"

/* ---- the document's table, restated (not taken from *_wire.h) ------------ */

enum {
  BASE_BYTES = 168, STRIDE_BYTES = 48, MAX_BYTES = 216, N_GOLDEN = 8,
  O_MAGIC = 0, O_VERSION = 4, O_LENGTH = 6, O_ROUTE = 8, O_FLAGS = 10,
  O_CRC = 12, O_IN_LEN = 16, O_OUT_LEN = 20, O_IN_ADDR = 24, O_OUT_ADDR = 32,
  O_IN_SPAN = 40, O_OUT_SPAN = 48, O_DTYPE = 56, O_RANK = 57,
  O_CHANNELS = 58, O_SHAPE = 64, O_AXES = 112, O_TILE = 120, O_COUNT = 152,
  O_TRAILER = 168,
  F_STRIDED = 1, F_CBLOCK = 2,
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

/* The doc's "row-major strides (ignoring singleton axes)", from the
 * definition; an empty output addresses nothing: dense. */
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

static unsigned
doc_flags (const SimaDetessCastPlan *p)
{
  return (p->output.layout == SIMA_LAYOUT_STRIDED
      && !doc_row_major (&p->output) ? F_STRIDED : 0)
      | (p->input.tiled.cblock ? F_CBLOCK : 0);
}

/* The relocatable descriptor the doc prescribes; returns its length. */
static uint32_t
doc_encode (const SimaDetessCastPlan *p, uint8_t d[MAX_BYTES])
{
  unsigned flags = doc_flags (p);
  uint32_t len = BASE_BYTES + (flags & F_STRIDED ? STRIDE_BYTES : 0);
  int i;

  memset (d, 0, MAX_BYTES);
  test_put_le (d, O_MAGIC, 0x34375645u, 4);
  test_put_le (d, O_VERSION, 1, 2);
  test_put_le (d, O_LENGTH, len, 2);
  test_put_le (d, O_ROUTE, 52, 2);
  test_put_le (d, O_FLAGS, flags, 2);
  test_put_le (d, O_IN_SPAN, p->input_bytes, 8);
  test_put_le (d, O_OUT_SPAN, p->output_bytes, 8);
  d[O_DTYPE] = p->output.dtype == SIMA_DTYPE_FLOAT32 ? 0 : 2;
  d[O_RANK] = (uint8_t) p->input.rank;
  d[O_CHANNELS] = p->input.tiled.channels == SIMA_CHANNELS_PAD16;
  for (i = 0; i < p->input.rank; i++) {
    test_put_le (d, O_SHAPE + 8 * i, (uint64_t) p->input.shape[i], 8);
    if (flags & F_STRIDED)
      test_put_le (d, O_TRAILER + 8 * i,
          (uint64_t) p->output.strides_bytes[i], 8);
  }
  for (i = 0; i < 4; i++) {
    d[O_AXES + i] = (uint8_t) p->input.tiled.axes[i];
    test_put_le (d, O_TILE + 8 * i, (uint64_t) p->input.tiled.tile_shape[i], 8);
  }
  test_put_le (d, O_COUNT, p->element_count, 8);
  reseal (d, len);
  return len;
}

/* Golden 0 as literal bytes (CRC 0x339a3df2 from Python zlib.crc32 over
 * bytes 0-11 and 40-167): BF16 {2,3} [W,C], axes {-1,-1,0,1}, tile
 * {1,1,2,3}, pad16 -> dense FP32; spans 64/24, 6 elements. */
static const uint8_t GOLDEN_0[BASE_BYTES] = {
  /*   0 */ 0x45, 0x56, 0x37, 0x34, 0x01, 0x00, 0xa8, 0x00, 0x34, 0x00, 0x00, 0x00, 0xf2, 0x3d, 0x9a, 0x33,
  /*  16 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  32 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  48 */ 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  64 */ 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  80 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /*  96 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 112 */ 0xff, 0xff, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 128 */ 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 144 */ 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  /* 160 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* ---- plans ---------------------------------------------------------------- */

static SimaStatus
admit (const SimaTensorSpec *in, const SimaTensorSpec *out,
    SimaDetessCastPlan *plan)
{
  SimaDetessCastRequest req = { in, 1, out, 1 };
  return sima_detesscast_check_inference (&req, plan);
}

/* Golden plans; spans and counts worked out by hand from docs/layout.md
 * (BF16 tiles: 2 bytes per stored channel, each tile rounded up to 16). */
typedef struct {
  const char *name;
  int rank;
  int64_t shape[6];
  int8_t axes[4];
  int64_t tile[4];
  SimaChannels channels;
  int cblock;
  SimaDType dtype;
  int strided;
  int64_t strides[6];
  uint64_t in_span, out_span, count;
  unsigned flags;
  uint32_t length;
} Golden;

static const Golden GOLDEN[N_GOLDEN] = {
  /* one tile: 2 pixels x 16 stored x 2 planes = 64; 6 FP32 = 24 */
  { "dense FP32 {2,3} pad16", 2, { 2, 3 }, { -1, -1, 0, 1 }, { 1, 1, 2, 3 },
    SIMA_CHANNELS_PAD16, 0, SIMA_DTYPE_FLOAT32, 0, { 0 }, 64, 24, 6, 0, 168 },
  /* per N slice: tiles (h2,c4) 4 px x 4 x 2 = 32, (h2,c1) 4 x 1 x 2 = 8
   * -> 16, (h1,c4) 2 x 4 x 2 = 16, (h1,c1) 4 -> 16: 80, x 2 = 160;
   * 2 + 128 + 2*32 + 12 + 4*2 = 214 */
  { "BF16 strided {2,3,2,5} compact", 4, { 2, 3, 2, 5 }, { -1, 1, 2, 3 },
    { 1, 2, 2, 4 }, SIMA_CHANNELS_COMPACT, 0, SIMA_DTYPE_BFLOAT16, 1,
    { 128, 32, 12, 2 }, 160, 214, 60, F_STRIDED, 216 },
  /* cblock: 4 pixels x 32 stored x 2 = 256; 80 BF16 = 160 */
  { "cblock pad16 {2,2,20} -> dense BF16", 3, { 2, 2, 20 }, { -1, 0, 1, 2 },
    { 1, 2, 2, 32 }, SIMA_CHANNELS_PAD16, 1, SIMA_DTYPE_BFLOAT16, 0, { 0 },
    256, 160, 80, F_CBLOCK, 168 },
  /* row-major but for the singleton's stride: encodes dense; one tile of
   * 2 px x 3 x 2 = 12 -> 16; 24 */
  { "explicitly row-major strided FP32 {2,1,3} (encodes dense)", 3,
    { 2, 1, 3 }, { -1, -1, 0, 2 }, { 1, 1, 2, 3 }, SIMA_CHANNELS_COMPACT, 0,
    SIMA_DTYPE_FLOAT32, 1, { 12, 400, 4 }, 16, 24, 6, 0, 168 },
  /* rank 1: C tiles 4 (8 bytes -> 16) and 1 (2 -> 16) = 32; channel
   * stride 8: 4 + 4*8 = 36 */
  { "rank 1 {5} compact -> FP32 channel stride 8", 1, { 5 },
    { -1, -1, -1, 0 }, { 1, 1, 1, 4 }, SIMA_CHANNELS_COMPACT, 0,
    SIMA_DTYPE_FLOAT32, 1, { 8 }, 32, 36, 5, F_STRIDED, 216 },
  /* outer axis 0; per slice 2 H tiles of 2 px x 32 stored x 2 = 128: 512;
   * planar FP32 [N][C][H][W]: 4 + 272 + 16*16 + 8 + 4 = 544 */
  { "cblock {2,2,2,17} -> FP32 planar strided", 4, { 2, 2, 2, 17 },
    { -1, 1, 2, 3 }, { 1, 1, 2, 32 }, SIMA_CHANNELS_PAD16, 1,
    SIMA_DTYPE_FLOAT32, 1, { 272, 8, 4, 16 }, 512, 544, 136,
    F_STRIDED | F_CBLOCK, 216 },
  /* rank 6, D mapped: {1,2,3,1,2,3} axes D=1 H=2 W=4 C=5, tile {2,2,2,4}:
   * one D tile of 2, H tiles 2+1, W 1 tile of 2, C one tile of 3 stored 3:
   * (2*2*2 px*3*2 = 48) + (2*1*2*3*2 = 24 -> 32) = 80 per outer slice
   * (axes 0 and 3 extent 1); 36 BF16 = 72 */
  { "rank 6 D-mapped {1,2,3,1,2,3} compact -> dense BF16", 6,
    { 1, 2, 3, 1, 2, 3 }, { 1, 2, 4, 5 }, { 2, 2, 2, 4 },
    SIMA_CHANNELS_COMPACT, 0, SIMA_DTYPE_BFLOAT16, 0, { 0 }, 80, 72, 36, 0,
    168 },
  /* empty: spans 0, count 0 */
  { "empty {0,3} -> FP32", 2, { 0, 3 }, { -1, -1, 0, 1 }, { 1, 1, 2, 3 },
    SIMA_CHANNELS_PAD16, 0, SIMA_DTYPE_FLOAT32, 0, { 0 }, 0, 0, 0, 0, 168 },
};

static SimaStatus
golden_plan (int g, SimaDetessCastPlan *plan)
{
  const Golden *x = &GOLDEN[g];
  SimaTensorSpec in = test_spec_tiled (SIMA_DTYPE_BFLOAT16, x->rank,
      x->shape, x->axes, x->tile, x->channels);
  SimaTensorSpec out = x->strided
      ? test_spec_strided (x->dtype, x->rank, x->shape, x->strides)
      : test_spec_dense (x->dtype, x->rank, x->shape);
  in.tiled.cblock = x->cblock;
  return admit (&in, &out, plan);
}

static int
encode_golden (int g, SimaDetessCastPlan *plan, SimaEv74Descriptor *desc)
{
  SimaStatus st = golden_plan (g, plan);
  if (sima_status_is_ok (&st))
    st = sima_ev74_detesscast_encode_relocatable (plan, desc);
  return sima_status_is_ok (&st);
}

static int
same (const SimaEv74Descriptor *d, const uint8_t *want, uint32_t len)
{
  return d->length == len && test_first_diff (d->bytes, want, len) < 0;
}

static int
zero_tail (const SimaEv74Descriptor *d)
{
  size_t i;
  for (i = d->length; i < SIMA_EV74_DESCRIPTOR_MAX_BYTES; i++)
    if (d->bytes[i] != 0)
      return 0;
  return 1;
}

/* ---- 1. golden vectors ---------------------------------------------------- */

static void
golden_vectors (void)
{
  static SimaEv74Descriptor desc, dense;
  SimaDetessCastPlan plan, dplan;
  uint8_t want[MAX_BYTES];
  int g;

  tap_ok (~test_crc32_update (0xffffffffu, (const uint8_t *) "123456789", 9)
      == 0xCBF43926u, "own CRC-32 gives the IEEE check value 0xcbf43926");
  for (g = 0; g < N_GOLDEN; g++) {
    const Golden *x = &GOLDEN[g];
    SimaStatus st = golden_plan (g, &plan);
    uint32_t len;

    if (!expect_status (x->name, st, SIMA_OK, NULL))
      continue;
    tap_ok (plan.input_bytes == x->in_span && plan.output_bytes == x->out_span
        && plan.element_count == x->count, "%s: spans %llu/%llu, %llu "
        "elements as computed by hand", x->name,
        (unsigned long long) plan.input_bytes,
        (unsigned long long) plan.output_bytes,
        (unsigned long long) plan.element_count);
    memset (&desc, 0xAB, sizeof desc);
    st = sima_ev74_detesscast_encode_relocatable (&plan, &desc);
    expect_status ("  encode", st, SIMA_OK, NULL);
    len = doc_encode (&plan, want);
    tap_ok (len == x->length && doc_flags (&plan) == x->flags
        && desc.length == x->length
        && test_get_le (desc.bytes, O_FLAGS, 2) == x->flags, "%s: %u bytes, "
        "flags %#x (doc: %u, %#x)", x->name, (unsigned) desc.length,
        (unsigned) test_get_le (desc.bytes, O_FLAGS, 2), (unsigned) x->length,
        x->flags);
    if (!tap_ok (same (&desc, want, len), "%s: encoder output equals the "
            "doc's bytes", x->name))
      tap_diag ("first difference at byte %d",
          test_first_diff (desc.bytes, want, len));
    tap_ok (zero_tail (&desc), "%s: the descriptor storage "
        "past the length is zero", x->name);
    if (g == 0)
      tap_ok (same (&desc, GOLDEN_0, BASE_BYTES)
          && test_first_diff (want, GOLDEN_0, BASE_BYTES) < 0, "own writer "
          "and encoder reproduce the literal hex golden");
    if (x->strided && !(x->flags & F_STRIDED)) {
      SimaTensorSpec out = test_spec_dense (x->dtype, x->rank, x->shape);
      st = admit (&plan.input, &out, &dplan);
      if (sima_status_is_ok (&st))
        st = sima_ev74_detesscast_encode_relocatable (&dplan, &dense);
      tap_ok (sima_status_is_ok (&st) && same (&desc, dense.bytes,
              dense.length), "%s: identical to the contiguous output's "
          "descriptor", x->name);
    }
  }
  expect_status ("encode: NULL plan", sima_ev74_detesscast_encode_relocatable (
          NULL, &desc), SIMA_INVALID_ARGUMENT, "NULL", NULL);
  expect_status ("encode: NULL desc", sima_ev74_detesscast_encode_relocatable (
          &plan, NULL), SIMA_INVALID_ARGUMENT, "NULL", NULL);
}

/* ---- 2. bind -------------------------------------------------------------- */

static void
bind_tests (void)
{
  /* on the 216-byte cblock golden (spans 512/544) */
  static const struct {
    const char *name;
    uint64_t in_addr, in_len, out_addr, out_len;
    SimaStatusCode code;
  } binds[] = {
    { "bind", IN_BUS, 4096, OUT_BUS + 4, 544, SIMA_OK },
    { "rebind, 8 GiB input binding", 0x1000, UINT64_C (1) << 33, 0x10000,
      544, SIMA_OK },
    { "input 2^32-256 + span 512", APERTURE - 256, 512, OUT_BUS, 544,
      SIMA_NOT_REPRESENTABLE },
    { "input binding 511 < span 512", IN_BUS, 511, OUT_BUS, 544,
      SIMA_CAPACITY_TOO_SMALL },
    { "output inside input", IN_BUS, 512, IN_BUS + 256, 544,
      SIMA_OVERLAPPING_BUFFERS },
  };
  static SimaEv74Descriptor reloc, d, before;
  SimaDetessCastPlan plan;
  uint8_t want[MAX_BYTES];
  size_t i;

  if (!tap_ok (encode_golden (5, &plan, &reloc) && reloc.length == 216,
          "bind: the 216-byte golden encodes"))
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
        "%s: exactly bytes 16-39 change; CRC and strides as encoded",
        binds[i].name);
  }
  /* encode: an FP32 output span of 2^32 is not representable */
  {
    static const int8_t axes[4] = { -1, -1, -1, 0 };
    static const int64_t tile[4] = { 1, 1, 1, 16 };
    int64_t n = INT64_C (1) << 30;
    SimaTensorSpec si = test_spec_tiled (SIMA_DTYPE_BFLOAT16, 1, &n, axes,
        tile, SIMA_CHANNELS_COMPACT);
    SimaTensorSpec so = test_spec_dense (SIMA_DTYPE_FLOAT32, 1, &n);
    SimaStatus st = admit (&si, &so, &plan);
    before = d;
    if (sima_status_is_ok (&st))
      st = sima_ev74_detesscast_encode_relocatable (&plan, &d);
    expect_status ("encode: FP32 output span 2^32", st,
        SIMA_NOT_REPRESENTABLE, "aperture", NULL);
    tap_ok (memcmp (&before, &d, sizeof d) == 0, "a refused encode leaves "
        "the descriptor untouched");
  }
}

/* ---- 3. round trip -------------------------------------------------------- */

/* A random request the admission should accept: BF16 MlaTiled, ranks 1-6,
 * random mapping and tiles, compact / pad16 / pad16 cblock; FP32 or BF16
 * output, contiguous, strided (sorted-span strides in a random axis order
 * with gaps) or explicitly row-major strided; some empty. */
static void
random_request (TestRng *r, SimaTensorSpec *in, SimaTensorSpec *out)
{
  int perm[6] = { 0 }, i, k;
  int rank = (int) test_rng_range (r, 1, 6);
  int64_t shape[6] = { 0 }, strides[6] = { 0 }, tile[4] = { 1, 1, 1, 1 };
  int8_t axes[4] = { -1, -1, -1, -1 };
  SimaDType dtype = test_rng_below (r, 2) ? SIMA_DTYPE_FLOAT32
      : SIMA_DTYPE_BFLOAT16;
  int64_t scalar = dtype == SIMA_DTYPE_FLOAT32 ? 4 : 2, reach = scalar;
  uint64_t kind = test_rng_below (r, 3), mode = test_rng_below (r, 3);

  for (i = 0; i < rank; i++) {
    shape[i] = test_rng_below (r, 80) == 0 ? 0 : test_rng_range (r, 1, 5);
    perm[i] = i;
  }
  for (i = rank - 1; i > 0; i--) {     /* Fisher-Yates */
    int j = (int) test_rng_below (r, (uint64_t) i + 1), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  if (mode == 2 && shape[perm[0]] > 0)  /* cblock: several blocks */
    shape[perm[0]] = test_rng_range (r, 1, 40);
  if (kind == 1) {
    for (i = 0; i < rank; i++) {
      int64_t s = reach + scalar * (int64_t) test_rng_below (r, 3);
      strides[perm[i]] = shape[perm[i]] <= 1 && test_rng_below (r, 4) == 0
          ? 0 : s;
      if (shape[perm[i]] > 1)
        reach += (shape[perm[i]] - 1) * s;
    }
  } else if (kind == 2) {
    for (i = rank - 1; i >= 0; i--) {
      strides[i] = shape[i] == 1 ? scalar * (int64_t) test_rng_below (r, 50)
          : reach;
      reach *= shape[i] > 0 ? shape[i] : 1;
    }
  }
  *out = kind ? test_spec_strided (dtype, rank, shape, strides)
      : test_spec_dense (dtype, rank, shape);
  axes[SIMA_MLA_C] = (int8_t) perm[0];
  for (i = 1, k = SIMA_MLA_W; k >= SIMA_MLA_D && i < rank; k--)
    if (test_rng_below (r, 3) != 0)
      axes[k] = (int8_t) perm[i++];
  for (k = 0; k < 4; k++)
    if (axes[k] >= 0)
      tile[k] = test_rng_range (r, 1, shape[axes[k]] + 2);
  *in = test_spec_tiled (SIMA_DTYPE_BFLOAT16, rank, shape, axes, tile,
      mode == 0 ? SIMA_CHANNELS_COMPACT : SIMA_CHANNELS_PAD16);
  in->tiled.cblock = mode == 2;
}

/* What the decoder failed to give back, or NULL. */
static const char *
plan_difference (const SimaDetessCastPlan *a, const SimaDetessCastPlan *b,
    unsigned flags)
{
  const SimaTensorSpec *ai = &a->input, *bi = &b->input;
  size_t r = (size_t) ai->rank * sizeof (int64_t);
  SimaLayout out_layout = flags & F_STRIDED ? SIMA_LAYOUT_STRIDED
      : SIMA_LAYOUT_CONTIGUOUS;

  if (ai->rank != bi->rank || b->output.rank != ai->rank
      || bi->dtype != SIMA_DTYPE_BFLOAT16 || bi->layout != SIMA_LAYOUT_MLA_TILED
      || a->output.dtype != b->output.dtype || b->output.layout != out_layout)
    return "rank, dtype or layout";
  if (memcmp (ai->shape, bi->shape, r) != 0
      || memcmp (b->output.shape, ai->shape, r) != 0)
    return "shape";
  if (out_layout == SIMA_LAYOUT_STRIDED
      && memcmp (a->output.strides_bytes, b->output.strides_bytes, r) != 0)
    return "strides";
  if (memcmp (ai->tiled.axes, bi->tiled.axes, 4) != 0
      || memcmp (ai->tiled.tile_shape, bi->tiled.tile_shape,
          sizeof ai->tiled.tile_shape) != 0
      || ai->tiled.channels != bi->tiled.channels
      || ai->tiled.cblock != bi->tiled.cblock)
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
  TestRng rng = { 0xDC0DEC0DE5200052ull };
  unsigned seen_rank = 0, seen_dtype = 0, seen_mode = 0, seen_flags = 0;
  int i, admitted = 0, doc_equal = 0, trips = 0, empties = 0, densified = 0;
  char first[200] = "";
  static SimaEv74Descriptor d;
#define NOTE(...) \
  do { if (!first[0]) snprintf (first, sizeof first, __VA_ARGS__); } while (0)

  for (i = 0; i < N; i++) {
    SimaTensorSpec in, out;
    SimaDetessCastPlan plan;
    SimaFwDetessCastJob job;
    SimaEv74Binding ib, ob;
    uint8_t want[MAX_BYTES];
    const char *why;
    unsigned flags;
    uint32_t len;
    int scalar;
    SimaStatus st;

    random_request (&rng, &in, &out);
    st = admit (&in, &out, &plan);
    admitted += sima_status_is_ok (&st);
    if (sima_status_is_ok (&st))
      st = sima_ev74_detesscast_encode_relocatable (&plan, &d);
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
    scalar = out.dtype == SIMA_DTYPE_FLOAT32 ? 4 : 2;
    ib.bus_address = 16 * test_rng_below (&rng, UINT64_C (1) << 26);
    ib.length = plan.input_bytes + test_rng_below (&rng, 64);
    ob.bus_address = (UINT64_C (1) << 31)
        + (uint64_t) scalar * test_rng_below (&rng, UINT64_C (1) << 28);
    ob.length = plan.output_bytes + test_rng_below (&rng, 64);
    st = sima_ev74_descriptor_bind (&d, &ib, &ob);
    if (sima_status_is_ok (&st))
      st = simafw_detesscast_decode (d.bytes, d.length, &job);
    if (!sima_status_is_ok (&st)) {
      NOTE ("bind/decode #%d: %s", i, st.message);
      continue;
    }
    why = plan_difference (&plan, &job.plan, flags);
    if (why == NULL && job.flags != flags)
      why = "flags";
    if (why == NULL && ((plan.input_bytes > 0
                && job.input_bus != ib.bus_address)
            || (plan.output_bytes > 0 && job.output_bus != ob.bus_address)))
      why = "bus address";
    if (why != NULL) {
      NOTE ("#%d decodes differently: %s", i, why);
      continue;
    }
    trips++;
    empties += plan.element_count == 0;
    densified += out.layout == SIMA_LAYOUT_STRIDED && !(flags & F_STRIDED)
        && plan.element_count > 0;
    seen_rank |= 1u << in.rank;
    seen_mode |= 1u << (in.tiled.channels + in.tiled.cblock);
    seen_dtype |= 1u << out.dtype;
    seen_flags |= 1u << flags;
  }
#undef NOTE
  tap_ok (admitted == N && doc_equal == N, "round trip: %d/%d generated "
      "requests admitted, %d encoded equal to the doc's bytes", admitted, N,
      doc_equal);
  tap_ok (trips == N, "round trip: %d/%d plans decode to the same plan, "
      "spans, count, bus addresses and flags (%d empty, %d row-major "
      "strided sent dense)", trips, N, empties, densified);
  if (first[0])
    tap_diag ("first problem: %s", first);
  tap_ok (seen_rank == 0x7e && seen_dtype == 5 && seen_mode == 7
      && seen_flags == 0xf && empties > 0 && densified > 0, "round trip "
      "covers ranks 1-6 (%#x), FP32 and BF16 (%#x), compact/pad16/cblock "
      "(%#x), all 4 flag combinations (%#x)", seen_rank, seen_dtype,
      seen_mode, seen_flags);
}

/* ---- 4. malformed descriptors --------------------------------------------- */

static uint8_t *in_host, *out_host, *local_mem;
static SimaHostRegion regions[2];

static uint8_t base[N_GOLDEN][MAX_BYTES];
static uint32_t blen[N_GOLDEN];
static SimaDetessCastPlan plan[N_GOLDEN];

/* Base b with the `n`-byte field at `off` set to v; resealed unless the
 * field is in the relocation block (not covered). */
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

static int
nonempty (size_t b)
{
  return plan[b].element_count > 0;
}

#define MORE NULL, SIMA_OK, NULL
static const struct {
  const char *name;
  SimaStatusCode code;
  const char *fragment;
  unsigned need, skip;
  int nonempty_only;
  size_t off;
  int n, nv;
  uint64_t v[8];
} FIELD_CLASSES[] = {
  { "bad magic", SIMA_INVALID_DESCRIPTOR, "magic", 0, 0, 0, O_MAGIC, 4, 5,
    { 0, 0x34375646, 0x45563734, 0xb4375645, 0xffffffff } },
  { "wrong version", SIMA_INVALID_DESCRIPTOR, "version", 0, 0, 0, O_VERSION,
    2, 3, { 0, 2, 0xffff } },
  { "length field != received", SIMA_INVALID_DESCRIPTOR, "length", 0, 0, 0,
    O_LENGTH, 2, 6, { 0, 56, 167, 169, 217, 0xffff } },
  { "output dtype 1 (FP16)/3 (INT8)/4 (UINT8)/5/6/255",
    SIMA_INVALID_DESCRIPTOR, "output dtype", 0, 0, 0, O_DTYPE, 1, 6,
    { 1, 3, 4, 5, 6, 255 } },
  { "rank 0/7/255", SIMA_INVALID_DESCRIPTOR, "rank", 0, 0, 0, O_RANK, 1, 3,
    { 0, 7, 255 } },
  { "nonzero shape slot beyond rank", SIMA_INVALID_DESCRIPTOR, "slot", 0, 0,
    0, O_SHAPE + 40, 8, 2, { 1, UINT64_MAX } },
  { "nonzero stride slot beyond rank", SIMA_INVALID_DESCRIPTOR, "slot",
    F_STRIDED, 0, 0, O_TRAILER + 40, 8, 2, { 4, UINT64_MAX } },
  { "channels 2/255", SIMA_INVALID_TILING, "channels", 0, 0, 0, O_CHANNELS,
    1, 2, { 2, 255 } },
  { "negative extent", SIMA_INVALID_SHAPE, "extent", 0, 0, 0, O_SHAPE, 8, 2,
    { UINT64_MAX, UINT64_C (1) << 63 } },
  { "axes: duplicate, out of range, below -1, missing C",
    SIMA_INVALID_TILING, "axis", 0, 0, 0, O_AXES + 3, 1, 5,
    { 6, 0x7f, 0xfe, 0x80, 0xff } },
  { "tile extent 0/negative", SIMA_INVALID_TILING, "extent", 0, 0, 0,
    O_TILE + 24, 8, 2, { 0, UINT64_MAX } },
  /* 49, 50, 51 and 53 are registered routes, not unknown ones */
  { "unknown route", SIMA_CAPABILITY_MISSING, "route", 0, 0, 0, O_ROUTE, 2,
    5, { 0, 48, 54, 0x3400, 0xffff } },
};
#undef MORE

static void
malformed (void)
{
  static const uint32_t lens[] = { 56, 100, 167, 168, 169, 215, 216, 217,
    224, 1248 };
  static const size_t flips[] = { 4, 5, 8, 9, 10, 11, 12, 13, 14, 15, 40,
    48, 56, 57, 58, 64, 112, 120, 152, 160, 167, 168, 200, 215 };
  uint8_t d[1248];
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
          && !(bflags (b) & FIELD_CLASSES[i].skip)
          && plan[b].input.rank < 6)
        for (k = 0; k < (size_t) FIELD_CLASSES[i].nv; k++)
          set (b, FIELD_CLASSES[i].off, FIELD_CLASSES[i].n,
              FIELD_CLASSES[i].v[k]);
  }
  test_mutants_end ();
  test_mutants_begin ("unknown flag bits 2-15", SIMA_INVALID_DESCRIPTOR,
      "flags");
  for (b = 0; b < N_GOLDEN; b++)
    for (k = 2; k < 16; k++)
      set (b, O_FLAGS, 2, bflags (b) | 1u << k);
  test_mutants_end ();
  test_mutants_begin ("CBLOCK (bit 1) with compact channels",
      SIMA_INVALID_TILING, "cblock");
  for (b = 0; b < N_GOLDEN; b++) {
    memcpy (d, base[b], blen[b]);
    test_put_le (d, O_FLAGS, bflags (b) | F_CBLOCK, 2);
    d[O_CHANNELS] = 0;
    reseal (d, blen[b]);
    test_mutant (d, blen[b]);
  }
  test_mutants_end ();
  test_mutants_begin ("length != the one the flags give",
      SIMA_INVALID_DESCRIPTOR, "length");
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
  test_mutants_begin ("STRIDED flag flipped, length kept",
      SIMA_INVALID_DESCRIPTOR, "length");
  for (b = 0; b < N_GOLDEN; b++)
    set (b, O_FLAGS, 2, bflags (b) ^ F_STRIDED);
  test_mutants_end ();
  test_mutants_begin ("truncated buffer (every length below the valid one)",
      SIMA_INVALID_DESCRIPTOR, NULL);
  for (b = 0; b < N_GOLDEN; b++)
    for (i = 0; i < blen[b]; i++)
      test_mutant (base[b], (uint32_t) i);
  test_mutants_end ();
  test_mutants_begin ("bad CRC (bit flips of covered bytes, trailer "
      "included)", SIMA_INVALID_DESCRIPTOR, "CRC");
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
  test_mutants_begin ("STRIDED with row-major strides (non-canonical)",
      SIMA_INVALID_DESCRIPTOR, "row-major");
  for (b = 0; b < N_GOLDEN; b++) {
    int64_t reach = bscalar (b);
    if (!nonempty (b))
      continue;
    for (i = (size_t) plan[b].output.rank; i-- > 0;) {
      rm[i] = plan[b].output.shape[i] == 1 ? (int64_t) (b % 2) * 4000 : reach;
      reach *= plan[b].output.shape[i];
    }
    memset (d, 0, sizeof d);
    memcpy (d, base[b], BASE_BYTES);
    for (i = 0; i < (size_t) plan[b].output.rank; i++)
      test_put_le (d, O_TRAILER + 8 * i, (uint64_t) rm[i], 8);
    test_put_le (d, O_OUT_SPAN, (uint64_t) reach, 8);
    test_put_le (d, O_FLAGS, bflags (b) | F_STRIDED, 2);
    test_put_le (d, O_LENGTH, BASE_BYTES + STRIDE_BYTES, 2);
    reseal (d, BASE_BYTES + STRIDE_BYTES);
    test_mutant (d, BASE_BYTES + STRIDE_BYTES);
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
  test_mutants_begin ("spans or element count != geometry",
      SIMA_INVALID_DESCRIPTOR, "match");
  for (b = 0; b < N_GOLDEN; b++)
    for (k = 0; k < 3; k++) {
      size_t off = k == 0 ? O_IN_SPAN : k == 1 ? O_OUT_SPAN : O_COUNT;
      uint64_t v = test_get_le (base[b], off, 8);
      set (b, off, 8, v + 1);
      if (v > 0)
        set (b, off, 8, v - 1);
      if (v > 0)
        set (b, off, 8, 0);
      set (b, off, 8, (v + 1) << 20);
    }
  test_mutants_end ();
  /* an INT8-sized input (half the BF16 span) is exactly what a request
   * misread as one byte per channel would send */
  test_mutants_begin ("input span of INT8 tiles (half the planes)",
      SIMA_INVALID_DESCRIPTOR, "match");
  for (b = 0; b < N_GOLDEN; b++)
    if (nonempty (b))
      set (b, O_IN_SPAN, 8, plan[b].input_bytes / 2);
  test_mutants_end ();

  /* bindings: the relocation block is not CRC-covered, so no resealing */
  test_mutants_begin ("address bits above 32", SIMA_NOT_REPRESENTABLE,
      "aperture");
  for (b = 0; b < N_GOLDEN; b++)
    for (k = 32; k < 64; k += 7) {
      set (b, O_IN_ADDR, 8, IN_BUS | UINT64_C (1) << k);
      set (b, O_OUT_ADDR, 8, OUT_BUS | UINT64_C (1) << k);
    }
  test_mutants_end ();
  test_mutants_begin ("address + span beyond 2^32", SIMA_NOT_REPRESENTABLE,
      "aperture");
  for (b = 0; b < N_GOLDEN; b++) {
    if (!nonempty (b))
      continue;
    set (b, O_IN_ADDR, 8, APERTURE - plan[b].input_bytes + 16);
    if (plan[b].input_bytes > 16)
      set (b, O_IN_ADDR, 8, APERTURE - 16);
    set (b, O_OUT_ADDR, 8, APERTURE - plan[b].output_bytes
        + (uint64_t) bscalar (b));
    set (b, O_OUT_ADDR, 8, APERTURE - (uint64_t) bscalar (b));
  }
  test_mutants_end ();
  test_mutants_begin ("bound length below span (incl. unbound relocatable)",
      SIMA_INVALID_DESCRIPTOR, "bound");
  for (b = 0; b < N_GOLDEN; b++) {
    if (!nonempty (b))
      continue;
    set (b, O_IN_LEN, 4, plan[b].input_bytes - 1);
    set (b, O_IN_LEN, 4, 0);
    set (b, O_OUT_LEN, 4, plan[b].output_bytes - 1);
    set (b, O_OUT_LEN, 4, 0);
    memcpy (d, base[b], blen[b]);
    memset (d + 16, 0, 24);
    test_mutant (d, blen[b]);
  }
  test_mutants_end ();
  test_mutants_begin ("misaligned input (not 16) / output (not 4 FP32, "
      "2 BF16)", SIMA_MISALIGNED_BUFFER, "aligned");
  for (b = 0; b < N_GOLDEN; b++) {
    if (!nonempty (b))
      continue;
    for (k = 1; k < 16; k++)
      set (b, O_IN_ADDR, 8, IN_BUS + k);
    for (k = 1; k < (size_t) bscalar (b); k++)
      set (b, O_OUT_ADDR, 8, OUT_BUS + k);
  }
  test_mutants_end ();
  test_mutants_begin ("overlapping input/output bus ranges",
      SIMA_OVERLAPPING_BUFFERS, "overlap");
  for (b = 0; b < N_GOLDEN; b++) {
    if (!nonempty (b))
      continue;
    set (b, O_OUT_ADDR, 8, IN_BUS);
    set (b, O_OUT_ADDR, 8, IN_BUS + plan[b].input_bytes
        - (uint64_t) bscalar (b));
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
  static SimaEv74Descriptor desc;
  TestRng rng = { 0xDC0E5EED5EED0052ull };
  uint8_t *a65_out = aligned_alloc (64, REGION_BYTES);
  uint8_t *oracle_out = aligned_alloc (64, REGION_BYTES);
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
  for (i = 0; i < REGION_BYTES; i++)   /* values, and garbage in padding */
    in_host[i] = (uint8_t) test_rng_next (&rng);

  for (g = 0; g < N_GOLDEN; g++) {
    SimaEv74Binding ib = { IN_BUS, REGION_BYTES }, ob = { OUT_BUS, REGION_BYTES };
    SimaA65DetessCastPlan a65;
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
    st = sima_a65_detesscast_prepare (&plan[g], &a65);
    for (p = 0; p < 2; p++) {
      memset (out_host, prefill[p], REGION_BYTES);
      memset (a65_out, prefill[p], n + 64);
      memset (oracle_out, prefill[p], n + 64);
      ab = (SimaConstHostBuffer) { in_host, plan[g].input_bytes };
      ao = (SimaHostBuffer) { a65_out, n };
      ok &= test_run_entry (desc.bytes, desc.length, &commands, &pending).code
          == SIMA_OK && (commands > 0) == (n > 0) && pending == 0;
      if (sima_status_is_ok (&st))
        st = sima_a65_detesscast_execute (&a65, &ab, 1, &ao, 1);
      oracle_detesscast (&plan[g].input, in_host, &plan[g].output,
          oracle_out);
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

/* ---- 6. tensor sets -------------------------------------------------------- */

static void
set_tests (void)
{
  static const int64_t s0[3] = { 2, 3, 40 }, s1[2] = { 5, 3 };
  static const int8_t a3[4] = { -1, 0, 1, 2 }, a2[4] = { -1, -1, 0, 1 };
  static const int64_t t0[4] = { 1, 1, 3, 48 }, t1[4] = { 1, 1, 2, 2 };
  static SimaEv74Descriptor single, set1, set2;
  SimaTensorSet in, out;
  SimaDetessCastSetRequest req = { &in, &out };
  static SimaDetessCastSetPlan sp;
  SimaDetessCastPlan p0;
  SimaStatus st;
  uint32_t at;

  memset (&in, 0, sizeof in);
  memset (&out, 0, sizeof out);
  in.n_members = out.n_members = 1;
  in.members[0].spec = test_spec_tiled (SIMA_DTYPE_BFLOAT16, 3, s0, a3, t0,
      SIMA_CHANNELS_PAD16);
  in.members[0].spec.tiled.cblock = 1;
  out.members[0].spec = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, s0);
  st = sima_detesscast_set_check_inference (&req, &sp);
  if (sima_status_is_ok (&st))
    st = sima_ev74_detesscast_set_encode_relocatable (&sp, &set1);
  if (sima_status_is_ok (&st))
    st = admit (&in.members[0].spec, &out.members[0].spec, &p0);
  if (sima_status_is_ok (&st))
    st = sima_ev74_detesscast_encode_relocatable (&p0, &single);
  tap_ok (sima_status_is_ok (&st) && !sima_ev74_detesscast_set_needs_container (
          &sp) && same (&set1, single.bytes, single.length)
      && zero_tail (&set1), "a one-member DetessCast set at offset 0 "
      "encodes as the single descriptor, byte for byte (%s)", st.message);

  in.n_members = out.n_members = 2;
  in.members[1].spec = test_spec_tiled (SIMA_DTYPE_BFLOAT16, 2, s1, a2, t1,
      SIMA_CHANNELS_PAD16);
  in.members[1].offset = 576;
  out.members[1].spec = test_spec_dense (SIMA_DTYPE_BFLOAT16, 2, s1);
  out.members[1].offset = 40 * 6 * 4 + 16;
  st = sima_detesscast_set_check_inference (&req, &sp);
  if (sima_status_is_ok (&st))
    st = sima_ev74_detesscast_set_encode_relocatable (&sp, &set2);
  at = 64 + 2 * 24;
  tap_ok (sima_status_is_ok (&st) && sima_ev74_detesscast_set_needs_container (
          &sp) && test_get_le (set2.bytes, O_ROUTE, 2) == 53
      && set2.length == at + 168 + 168
      && test_get_le (set2.bytes, at + O_ROUTE, 2) == 52
      && test_get_le (set2.bytes, at + 168 + O_ROUTE, 2) == 52
      && test_first_diff (set2.bytes + at, single.bytes, 168) < 0
      && test_get_le (set2.bytes, 64 + 24, 8) == 576
      && test_get_le (set2.bytes, 12, 4) == test_doc_crc (set2.bytes,
          set2.length), "a two-member DetessCast set: a TensorSet container "
      "of two route-52 members (%u bytes, %s)", (unsigned) set2.length,
      st.message);
  {
    SimaEv74Binding ib = { IN_BUS, 4096 }, ob = { OUT_BUS, 4096 };
    st = sima_ev74_descriptor_bind (&set2, &ib, &ob);
    if (sima_status_is_ok (&st))
      st = simafw_tensor_set_validate (set2.bytes, set2.length);
    expect_status ("the container validates in the firmware (route 52 an "
        "allowed member route)", st, SIMA_OK, NULL);
    /* member 1's input moved by 8 bytes: the set check's alignment */
    test_put_le (set2.bytes, 64 + 24, 584, 8);
    test_put_le (set2.bytes, 12, test_doc_crc (set2.bytes, set2.length), 4);
    expect_status ("member input offset not 16-aligned", 
        simafw_tensor_set_validate (set2.bytes, set2.length),
        SIMA_MISALIGNED_BUFFER, NULL);
  }
  expect_status ("set encode: NULL plan",
      sima_ev74_detesscast_set_encode_relocatable (NULL, &set2),
      SIMA_INVALID_ARGUMENT, "NULL", NULL);
}

int
main (void)
{
  golden_vectors ();
  bind_tests ();
  round_trip ();
  entry_tests ();
  set_tests ();
  return tap_done ();
}
