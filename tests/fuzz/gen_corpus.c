/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gen_corpus.c - writes the seed corpus of fuzz_native_entry.c:
 *
 *   gen-corpus DIR
 *
 * Valid QuantTess, CastTess, DetessDequant and DetessCast descriptors come
 * from the
 * host's own path (admission, encode_relocatable, bind), so they are
 * exactly what the elements submit; the malformed ones are a valid
 * descriptor with one field broken (CRC recomputed unless the CRC is the
 * point), so each reaches a different check. QuantTess seeds are named
 * valid-NN, setup-NN and malformed-NN; the other routes' seeds carry
 * their route (valid-ct-NN, malformed-dd-NN, valid-ts-NN for TensorSet
 * containers, ...). Every seed carries the 6-byte setup prefix described in
 * fuzz_native_entry.c; most map regions that follow the descriptor's
 * bindings. The output is deterministic: the seeds are committed, and this
 * program regenerates them (reproducers saved by fuzzing are not touched).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simaai/kernels/ev74/casttess.h>
#include <simaai/kernels/ev74/detesscast.h>
#include <simaai/kernels/ev74/detesscast_wire.h>
#include <simaai/kernels/ev74/detessdequant.h>
#include <simaai/kernels/ev74/detessdequant_wire.h>
#include <simaai/kernels/ev74/pack_wire.h>
#include <simaai/kernels/ev74/quanttess.h>
#include <simaai/kernels/ev74/tensor_set.h>
#include <simaai/kernels/ev74/tensor_set_wire.h>

/* prefix byte 0: regions, deferred DMA, patch length+CRC, workers, local */
#define B0(regions, deferred, patch, workers, local) \
  ((regions) | (deferred) << 2 | (patch) << 3 | ((workers) - 1) << 4 \
      | (local) << 6)
/* prefix byte 1: worker id, all workers, patch spans (with patch in byte
 * 0), fault (0 none, else 8-15) */
#define B1(id, all, spans, fault) \
  ((id) | (all) << 2 | (spans) << 3 | (fault) << 4)
/* region byte: bus choice 0 = input binding, 1 = output; size choice 0 =
 * input span, 1 = output span (fuzz_native_entry.c, region_bus/length) */
#define FOLLOW_IN 0x00
#define FOLLOW_OUT 0x11
#define FOLLOW FOLLOW_IN, FOLLOW_OUT

typedef struct {
  const char *name;
  SimaDType dtype;
  int rank;
  int64_t shape[6];
  int64_t strides[6];       /* all 0: contiguous */
  int8_t axes[4];
  int64_t tile[4];
  SimaChannels channels;
  float multiplier;
  int32_t zero_point;
  SimaRounding rounding;
  uint8_t b0, b1;
  uint32_t in_bus, out_bus; /* 0: the defaults below */
} Case;

enum { IN_BUS = 0x80000000u, OUT_BUS = 0x80100000u };

/* Set while the cblock seeds are written: the encoders give the tiled side
 * SiMa's cblock tile order (SimaMlaTiled.cblock; flag bit 0 of the pack
 * descriptors, bit 4 of DetessDequant's). */
static int cblock_mode;

static const Case cases[] = {
  { "f32-hwc-pad16", SIMA_DTYPE_FLOAT32, 3, { 8, 16, 3 }, { 0 },
    { -1, 0, 1, 2 }, { 1, 4, 8, 16 }, SIMA_CHANNELS_PAD16, 127.0f, 0,
    SIMA_ROUNDING_NEAREST_EVEN, B0 (2, 0, 0, 1, 0), B1 (0, 0, 0, 0), 0, 0 },
  { "f16-nhwc-compact-2w", SIMA_DTYPE_FLOAT16, 4, { 1, 7, 9, 5 }, { 0 },
    { -1, 1, 2, 3 }, { 1, 3, 4, 5 }, SIMA_CHANNELS_COMPACT, 0.5f, -3,
    SIMA_ROUNDING_TOWARD_ZERO, B0 (2, 1, 1, 2, 0), B1 (0, 1, 1, 0), 0, 0 },
  { "bf16-wc-ctail-pad16", SIMA_DTYPE_BFLOAT16, 2, { 33, 40 }, { 0 },
    { -1, -1, 0, 1 }, { 1, 1, 8, 32 }, SIMA_CHANNELS_PAD16, 3.0f, 127,
    SIMA_ROUNDING_TOWARD_POSITIVE, B0 (2, 0, 0, 3, 0), B1 (0, 1, 0, 0), 0, 0 },
  /* NCHW memory read as an MLA tensor with C = axis 1: channels apart */
  { "f32-nchw-strided-4w", SIMA_DTYPE_FLOAT32, 4, { 1, 3, 10, 12 },
    { 1440, 480, 48, 4 }, { -1, 2, 3, 1 }, { 1, 5, 6, 3 },
    SIMA_CHANNELS_PAD16, 1.0f, 5, SIMA_ROUNDING_TOWARD_NEGATIVE,
    B0 (2, 1, 1, 4, 0), B1 (0, 1, 1, 0), 0, 0 },
  /* pitched rows: 160 payload bytes in a 224-byte row */
  { "f32-pitched-rows", SIMA_DTYPE_FLOAT32, 3, { 6, 10, 4 }, { 224, 16, 4 },
    { -1, 0, 1, 2 }, { 1, 2, 3, 4 }, SIMA_CHANNELS_COMPACT, 0.3f, 0,
    SIMA_ROUNDING_NEAREST_EVEN, B0 (2, 1, 0, 2, 1), B1 (1, 0, 0, 0), 0, 0 },
  { "f16-rank5-depth-3w", SIMA_DTYPE_FLOAT16, 5, { 2, 3, 4, 5, 6 }, { 0 },
    { 1, 2, 3, 4 }, { 2, 2, 2, 4 }, SIMA_CHANNELS_COMPACT, 2.0f, 0,
    SIMA_ROUNDING_NEAREST_EVEN, B0 (2, 1, 1, 3, 0), B1 (0, 1, 1, 0), 0, 0 },
  { "bf16-rank6-two-outer", SIMA_DTYPE_BFLOAT16, 6, { 2, 1, 3, 2, 4, 17 },
    { 0 }, { 2, 3, 4, 5 }, { 1, 2, 3, 16 }, SIMA_CHANNELS_PAD16, 1e-3f, -128,
    SIMA_ROUNDING_TOWARD_ZERO, B0 (2, 0, 0, 2, 0), B1 (0, 1, 0, 0), 0, 0 },
  { "f32-rank1", SIMA_DTYPE_FLOAT32, 1, { 100 }, { 0 }, { -1, -1, -1, 0 },
    { 1, 1, 1, 32 }, SIMA_CHANNELS_COMPACT, 3e-39f, 0,
    SIMA_ROUNDING_TOWARD_POSITIVE, B0 (2, 0, 0, 1, 0), B1 (0, 0, 0, 0), 0, 0 },
  /* 10 KiB tiles: tasks of 4608 bytes cut pixels of 40 channels */
  { "f32-big-tiles-cut-pixels", SIMA_DTYPE_FLOAT32, 3, { 32, 32, 40 },
    { 0 }, { -1, 0, 1, 2 }, { 1, 16, 16, 40 }, SIMA_CHANNELS_COMPACT, 64.0f,
    1, SIMA_ROUNDING_NEAREST_EVEN, B0 (2, 1, 1, 3, 1), B1 (0, 1, 1, 0), 0, 0 },
  /* the same cut, channels-first: one 2D transfer per cut pixel */
  { "f32-nchw-cut-pixels", SIMA_DTYPE_FLOAT32, 4, { 1, 40, 16, 16 },
    { 40960, 1024, 64, 4 }, { -1, 2, 3, 1 }, { 1, 16, 16, 40 },
    SIMA_CHANNELS_COMPACT, 1.0f, 0, SIMA_ROUNDING_NEAREST_EVEN,
    B0 (2, 1, 0, 2, 0), B1 (0, 1, 0, 0), 0, 0 },
  { "f16-empty", SIMA_DTYPE_FLOAT16, 3, { 0, 4, 3 }, { 0 }, { -1, 0, 1, 2 },
    { 1, 2, 2, 3 }, SIMA_CHANNELS_PAD16, 1.0f, 0, SIMA_ROUNDING_NEAREST_EVEN,
    B0 (2, 0, 0, 1, 0), B1 (0, 0, 0, 0), 0, 0 },
  /* bound right below the 4 GiB edge */
  { "f32-edge-of-aperture", SIMA_DTYPE_FLOAT32, 3, { 8, 16, 3 }, { 0 },
    { -1, 0, 1, 2 }, { 1, 4, 8, 16 }, SIMA_CHANNELS_PAD16, 127.0f, 0,
    SIMA_ROUNDING_NEAREST_EVEN, B0 (2, 1, 0, 2, 0), B1 (0, 1, 0, 0),
    0xfffff000u - 1536, 0xfffff000u },
};

/* Runtime variants of cases[0]: prefix bytes only. */
static const struct {
  const char *name;
  uint8_t b0, b1, r0, r1;
} variants[] = {
  { "fault-first-command", B0 (2, 0, 0, 1, 0), B1 (0, 0, 0, 8), FOLLOW },
  { "fault-third-deferred", B0 (2, 1, 0, 2, 0), B1 (0, 1, 0, 10), FOLLOW },
  { "local-too-small", B0 (2, 0, 0, 1, 2), B1 (0, 0, 0, 0), FOLLOW },
  { "local-16k", B0 (2, 1, 0, 1, 3), B1 (0, 0, 0, 0), FOLLOW },
  { "unmapped", B0 (0, 0, 0, 1, 0), B1 (0, 0, 0, 0), 0, 0 },
  { "output-one-byte-short", B0 (2, 1, 0, 1, 0), B1 (0, 0, 0, 0), FOLLOW_IN,
    0x31 },
  { "fixed-1mib-regions", B0 (2, 0, 0, 2, 0), B1 (1, 0, 0, 0), 0xf4, 0xf6 },
};

#define QT(field) SIMA_EV74_PACK_OFF (field)

/* Broken fields of cases[0]. */
typedef enum {
  M_MAGIC, M_CRC, M_TRUNCATED, M_SHORT, M_EMPTY, M_ROUTE, M_VERSION,
  M_FLAGS, M_RESERVED, M_RANK, M_DTYPE, M_UNUSED_SLOT, M_CONTIGUOUS_STRIDE,
  M_SPAN, M_COUNT, M_TILE_ZERO, M_AXES_DUP, M_MULTIPLIER_NAN, M_ZERO_POINT,
  M_UNBOUND, M_MISALIGNED_OUT, M_MISALIGNED_IN, M_OVERLAP, M_EDGE_CROSSING,
  M_ADDRESS_HIGH, M_BOUND_SHORT, M_SIZE_OVERFLOW, M_PATCHED_BY_TARGET,
  M_COUNT_OF
} Mutation;

static const char *const mutation_names[M_COUNT_OF] = {
  "bad-magic", "bad-crc", "truncated-200", "shorter-than-header", "empty",
  "route-50", "version-2", "flags-2", "reserved-nonzero", "rank-7",
  "dtype-int8", "unused-shape-slot", "contiguous-with-stride",
  "input-span-mismatch", "element-count-mismatch", "tile-extent-0",
  "axes-duplicate", "multiplier-nan", "zero-point-200", "unbound",
  "output-misaligned", "input-misaligned", "overlapping-bindings",
  "input-crosses-4gib", "input-address-above-4gib", "input-bound-short",
  "shape-size-overflow", "stale-fields-patched-by-target",
};

static void
die (const char *what, const SimaStatus *st)
{
  fprintf (stderr, "gen-corpus: %s: %s: %s\n", what,
      st ? sima_status_code_name (st->code) : "", st ? st->message : "");
  exit (1);
}

static void
write_seed (const char *dir, const char *name, const uint8_t prefix[6],
    const uint8_t *desc, size_t len)
{
  char path[4096];
  FILE *f;

  snprintf (path, sizeof path, "%s/%s", dir, name);
  f = fopen (path, "wb");
  if (f == NULL || fwrite (prefix, 1, 6, f) != 6
      || (len > 0 && fwrite (desc, 1, len, f) != len) || fclose (f) != 0)
    die (path, NULL);
}

/* The host's path: admission, relocatable encoding, binding. */
static void
encode (const Case *c, SimaEv74Descriptor *d)
{
  SimaTensorSpec in, out;
  SimaQuantTessRequest req;
  SimaQuantTessPlan plan;
  SimaEv74Binding bi, bo;
  SimaStatus st;

  memset (&in, 0, sizeof in);
  in.rank = c->rank;
  in.dtype = c->dtype;
  memcpy (in.shape, c->shape, sizeof in.shape);
  in.layout = c->strides[0] || c->strides[c->rank - 1]
      ? SIMA_LAYOUT_STRIDED : SIMA_LAYOUT_CONTIGUOUS;
  if (in.layout == SIMA_LAYOUT_STRIDED)
    memcpy (in.strides_bytes, c->strides, sizeof in.strides_bytes);
  out = in;
  out.dtype = SIMA_DTYPE_INT8;
  out.layout = SIMA_LAYOUT_MLA_TILED;
  memset (out.strides_bytes, 0, sizeof out.strides_bytes);
  memcpy (out.tiled.axes, c->axes, sizeof out.tiled.axes);
  memcpy (out.tiled.tile_shape, c->tile, sizeof out.tiled.tile_shape);
  out.tiled.channels = c->channels;
  out.tiled.cblock = cblock_mode;
  memset (&req, 0, sizeof req);
  req.inputs = &in;
  req.n_inputs = 1;
  req.outputs = &out;
  req.n_outputs = 1;
  req.params.multiplier = c->multiplier;
  req.params.zero_point = c->zero_point;
  req.params.rounding = c->rounding;

  st = sima_quanttess_check_inference (&req, &plan);
  if (!sima_status_is_ok (&st))
    die (c->name, &st);
  st = sima_ev74_quanttess_encode_relocatable (&plan, d);
  if (!sima_status_is_ok (&st))
    die (c->name, &st);
  bi.bus_address = c->in_bus ? c->in_bus : IN_BUS;
  bi.length = plan.input_bytes;
  bo.bus_address = c->out_bus ? c->out_bus : OUT_BUS;
  bo.length = plan.output_bytes;
  st = sima_ev74_descriptor_bind (d, &bi, &bo);
  if (!sima_status_is_ok (&st))
    die (c->name, &st);
}

static void
refresh_crc (uint8_t *b, size_t len)
{
  sima_ev74_put_u32 (b, SIMA_EV74_OFF_CRC, sima_ev74_descriptor_crc (b, len));
}

/* Breaks one field of a bound descriptor; returns the length to keep. */
static size_t
mutate (Mutation m, uint8_t *b, size_t len)
{
  uint64_t in_bus = sima_ev74_get_u64 (b, SIMA_EV74_OFF_INPUT_ADDRESS);
  uint64_t in_span = sima_ev74_get_u64 (b, SIMA_EV74_OFF_INPUT_SPAN);

  switch (m) {
    case M_MAGIC: b[0] ^= 1; break;
    case M_CRC: b[SIMA_EV74_OFF_CRC] ^= 0xff; return len;
    case M_TRUNCATED:
      len = 200;
      sima_ev74_put_u16 (b, SIMA_EV74_OFF_LENGTH, (uint16_t) len);
      break;
    case M_SHORT: return 40;
    case M_EMPTY: return 0;
    case M_ROUTE: sima_ev74_put_u16 (b, SIMA_EV74_OFF_ROUTE, 50); break;
    case M_VERSION: sima_ev74_put_u16 (b, SIMA_EV74_OFF_VERSION, 2); break;
    /* bit 0 is CBLOCK (valid on this pad16 case): an unknown bit */
    case M_FLAGS: sima_ev74_put_u16 (b, SIMA_EV74_OFF_FLAGS, 2); break;
    case M_RESERVED: b[QT (reserved0)] = 1; break;
    case M_RANK: b[QT (rank)] = 7; break;
    case M_DTYPE: b[QT (input_dtype)] = SIMA_DTYPE_INT8; break;
    case M_UNUSED_SLOT: sima_ev74_put_i64 (b, QT (shape) + 8 * 5, 1); break;
    case M_CONTIGUOUS_STRIDE:
      sima_ev74_put_i64 (b, QT (input_strides), 4);
      break;
    case M_SPAN:
      sima_ev74_put_u64 (b, SIMA_EV74_OFF_INPUT_SPAN, in_span + 4);
      break;
    case M_COUNT:
      sima_ev74_put_u64 (b, QT (element_count),
          sima_ev74_get_u64 (b, QT (element_count)) + 1);
      break;
    case M_TILE_ZERO: sima_ev74_put_i64 (b, QT (tile_shape) + 8 * 3, 0); break;
    case M_AXES_DUP: b[QT (axes) + 1] = b[QT (axes) + 3]; break;
    case M_MULTIPLIER_NAN:
      sima_ev74_put_u32 (b, QT (multiplier_bits), 0x7fc00000u);
      break;
    case M_ZERO_POINT: sima_ev74_put_u32 (b, QT (zero_point), 200); break;
    case M_UNBOUND:
      memset (b + SIMA_EV74_RELOCATION_BEGIN, 0,
          SIMA_EV74_RELOCATION_END - SIMA_EV74_RELOCATION_BEGIN);
      break;
    case M_MISALIGNED_OUT:
      sima_ev74_put_u64 (b, SIMA_EV74_OFF_OUTPUT_ADDRESS,
          sima_ev74_get_u64 (b, SIMA_EV74_OFF_OUTPUT_ADDRESS) + 8);
      break;
    case M_MISALIGNED_IN:
      sima_ev74_put_u64 (b, SIMA_EV74_OFF_INPUT_ADDRESS, in_bus + 2);
      break;
    case M_OVERLAP:
      sima_ev74_put_u64 (b, SIMA_EV74_OFF_OUTPUT_ADDRESS, in_bus + 16);
      break;
    case M_EDGE_CROSSING:
      sima_ev74_put_u64 (b, SIMA_EV74_OFF_INPUT_ADDRESS, 0xffffff00u);
      break;
    case M_ADDRESS_HIGH:
      sima_ev74_put_u64 (b, SIMA_EV74_OFF_INPUT_ADDRESS,
          in_bus | UINT64_C (1) << 32);
      break;
    case M_BOUND_SHORT:
      sima_ev74_put_u32 (b, SIMA_EV74_OFF_INPUT_LENGTH,
          (uint32_t) in_span - 1);
      break;
    case M_SIZE_OVERFLOW:
      sima_ev74_put_i64 (b, QT (shape), INT64_C (1) << 40);
      sima_ev74_put_i64 (b, QT (shape) + 8, INT64_C (1) << 40);
      break;
    case M_PATCHED_BY_TARGET:
      /* a taller image with stale spans, element count, bound lengths,
       * CRC and length field: the target's patch bits repair them all */
      sima_ev74_put_i64 (b, QT (shape), sima_ev74_get_i64 (b, QT (shape)) + 1);
      b[SIMA_EV74_OFF_LENGTH] ^= 0x10;
      return len;
    case M_COUNT_OF: break;
  }
  refresh_crc (b, len);
  return len;
}

/* ---- CastTess ------------------------------------------------------------ */

/* The Case fields of QuantTess without its parameters (multiplier, zero
 * point and rounding are unused). */
static const Case cast_cases[] = {
  { "f32-hwc-pad16", SIMA_DTYPE_FLOAT32, 3, { 8, 16, 3 }, { 0 },
    { -1, 0, 1, 2 }, { 1, 4, 8, 16 }, SIMA_CHANNELS_PAD16, 0, 0, 0,
    B0 (2, 0, 0, 1, 0), B1 (0, 0, 0, 0), 0, 0 },
  { "f16-nhwc-compact-2w", SIMA_DTYPE_FLOAT16, 4, { 1, 7, 9, 5 }, { 0 },
    { -1, 1, 2, 3 }, { 1, 3, 4, 5 }, SIMA_CHANNELS_COMPACT, 0, 0, 0,
    B0 (2, 1, 1, 2, 0), B1 (0, 1, 1, 0), 0, 0 },
  /* NCHW BF16 memory read as an MLA tensor with C = axis 1 */
  { "bf16-nchw-strided-4w", SIMA_DTYPE_BFLOAT16, 4, { 1, 3, 10, 12 },
    { 720, 240, 24, 2 }, { -1, 2, 3, 1 }, { 1, 5, 6, 3 },
    SIMA_CHANNELS_PAD16, 0, 0, 0, B0 (2, 1, 1, 4, 0), B1 (0, 1, 1, 0), 0, 0 },
  { "f32-pitched-rows-compact", SIMA_DTYPE_FLOAT32, 3, { 6, 10, 4 },
    { 224, 16, 4 }, { -1, 0, 1, 2 }, { 1, 2, 3, 4 }, SIMA_CHANNELS_COMPACT,
    0, 0, 0, B0 (2, 1, 0, 2, 1), B1 (0, 1, 0, 0), 0, 0 },
  /* 301 odd channels: pixels of 602 bytes do not pack into 16-byte
   * aligned tasks of at most 4608 bytes, so a task boundary cuts a pixel
   * and both tasks read its values (firmware/pack_worker.c) */
  { "f32-split-pixel-3w", SIMA_DTYPE_FLOAT32, 3, { 2, 8, 301 }, { 0 },
    { -1, 0, 1, 2 }, { 1, 1, 8, 301 }, SIMA_CHANNELS_COMPACT, 0, 0, 0,
    B0 (2, 1, 1, 3, 0), B1 (0, 1, 1, 0), 0, 0 },
  { "bf16-rank1-pad16", SIMA_DTYPE_BFLOAT16, 1, { 100 }, { 0 },
    { -1, -1, -1, 0 }, { 1, 1, 1, 40 }, SIMA_CHANNELS_PAD16, 0, 0, 0,
    B0 (2, 0, 0, 1, 0), B1 (0, 0, 0, 0), 0, 0 },
  { "f16-big-tiles-3w", SIMA_DTYPE_FLOAT16, 3, { 32, 32, 40 }, { 0 },
    { -1, 0, 1, 2 }, { 1, 16, 16, 40 }, SIMA_CHANNELS_COMPACT, 0, 0, 0,
    B0 (2, 1, 1, 3, 0), B1 (0, 1, 1, 0), 0, 0 },
  { "f16-empty", SIMA_DTYPE_FLOAT16, 3, { 0, 4, 3 }, { 0 }, { -1, 0, 1, 2 },
    { 1, 2, 2, 3 }, SIMA_CHANNELS_PAD16, 0, 0, 0, B0 (2, 0, 0, 1, 0),
    B1 (0, 0, 0, 0), 0, 0 },
};

static void
encode_cast (const Case *c, SimaEv74Descriptor *d)
{
  SimaTensorSpec in, out;
  SimaCastTessRequest req;
  SimaCastTessPlan plan;
  SimaEv74Binding bi, bo;
  SimaStatus st;

  memset (&in, 0, sizeof in);
  in.rank = c->rank;
  in.dtype = c->dtype;
  memcpy (in.shape, c->shape, sizeof in.shape);
  in.layout = c->strides[0] || c->strides[c->rank - 1]
      ? SIMA_LAYOUT_STRIDED : SIMA_LAYOUT_CONTIGUOUS;
  if (in.layout == SIMA_LAYOUT_STRIDED)
    memcpy (in.strides_bytes, c->strides, sizeof in.strides_bytes);
  out = in;
  out.dtype = SIMA_DTYPE_BFLOAT16;
  out.layout = SIMA_LAYOUT_MLA_TILED;
  memset (out.strides_bytes, 0, sizeof out.strides_bytes);
  memcpy (out.tiled.axes, c->axes, sizeof out.tiled.axes);
  memcpy (out.tiled.tile_shape, c->tile, sizeof out.tiled.tile_shape);
  out.tiled.channels = c->channels;
  out.tiled.cblock = cblock_mode;
  req = (SimaCastTessRequest) { &in, 1, &out, 1 };
  st = sima_casttess_check_inference (&req, &plan);
  if (!sima_status_is_ok (&st))
    die (c->name, &st);
  st = sima_ev74_casttess_encode_relocatable (&plan, d);
  if (!sima_status_is_ok (&st))
    die (c->name, &st);
  bi.bus_address = c->in_bus ? c->in_bus : IN_BUS;
  bi.length = plan.input_bytes;
  bo.bus_address = c->out_bus ? c->out_bus : OUT_BUS;
  bo.length = plan.output_bytes;
  st = sima_ev74_descriptor_bind (d, &bi, &bo);
  if (!sima_status_is_ok (&st))
    die (c->name, &st);
}

/* Broken fields of cast_cases[0]. */
static const char *const cast_mutations[] = {
  "rounding-1", "zero-point-1", "multiplier-1", "flags-2", "dtype-int8",
  "route-49", "length-233", "reserved-nonzero", "output-misaligned",
  "stale-fields-patched-by-target",
};
enum { CAST_MUTATIONS = sizeof cast_mutations / sizeof cast_mutations[0],
  CAST_PATCHED = CAST_MUTATIONS - 1 };

static size_t
mutate_cast (unsigned m, uint8_t *b, size_t len)
{
  switch (m) {
    case 0: b[QT (rounding)] = 1; break;
    case 1: sima_ev74_put_u32 (b, QT (zero_point), 1); break;
    case 2: sima_ev74_put_u32 (b, QT (multiplier_bits), 0x3f800000u); break;
    case 3: sima_ev74_put_u16 (b, SIMA_EV74_OFF_FLAGS, 2); break;
    case 4: b[QT (input_dtype)] = SIMA_DTYPE_INT8; break;
    /* QuantTess with a zero multiplier */
    case 5: sima_ev74_put_u16 (b, SIMA_EV74_OFF_ROUTE, 49); break;
    case 6:
      b[len] = 0;
      len++;
      sima_ev74_put_u16 (b, SIMA_EV74_OFF_LENGTH, (uint16_t) len);
      break;
    case 7: b[QT (reserved2) + 15] = 1; break;
    case 8:
      sima_ev74_put_u64 (b, SIMA_EV74_OFF_OUTPUT_ADDRESS,
          sima_ev74_get_u64 (b, SIMA_EV74_OFF_OUTPUT_ADDRESS) + 2);
      break;
    default:
      /* a wider image with stale spans, count and CRC: the target's patch
       * bits repair them */
      sima_ev74_put_i64 (b, QT (shape) + 8,
          sima_ev74_get_i64 (b, QT (shape) + 8) + 3);
      return len;
  }
  refresh_crc (b, len);
  return len;
}

/* ---- DetessDequant ------------------------------------------------------- */

typedef struct {
  const char *name;
  SimaDType dtype;            /* of the output: FP32 or BF16 */
  int rank;
  int64_t shape[6];
  int cblocked;               /* input MlaCBlocked (tiling fields unused) */
  int8_t axes[4];
  int64_t tile[4];
  SimaChannels channels;
  int64_t strides[6];         /* output; all 0: contiguous */
  float scale;
  int32_t zero_point;
  uint8_t b0, b1;
  uint32_t in_bus, out_bus;   /* 0: the defaults */
  SimaScaleConvention convention;   /* DIVIDE sets the DIVIDE flag */
} DdCase;

static const DdCase dd_cases[] = {
  { "f32-hwc-pad16-2w", SIMA_DTYPE_FLOAT32, 3, { 8, 16, 3 }, 0,
    { -1, 0, 1, 2 }, { 1, 4, 8, 16 }, SIMA_CHANNELS_PAD16, { 0 }, 0.5f, 3,
    B0 (2, 0, 1, 2, 0), B1 (0, 1, 1, 0), 0, 0,
    SIMA_SCALE_MULTIPLY },
  /* rows of 80 payload bytes in 112: holes at every row's end */
  { "bf16-pitched-strided-3w", SIMA_DTYPE_BFLOAT16, 3, { 6, 10, 4 }, 0,
    { -1, 0, 1, 2 }, { 1, 2, 4, 4 }, SIMA_CHANNELS_COMPACT, { 112, 8, 2 },
    0.25f, -5, B0 (2, 1, 1, 3, 0), B1 (0, 1, 1, 0), 0, 0,
    SIMA_SCALE_MULTIPLY },
  /* HWC logical, CHW in memory: channels 96 bytes apart */
  { "f32-permuted-strided-4w", SIMA_DTYPE_FLOAT32, 3, { 4, 6, 8 }, 0,
    { -1, 0, 1, 2 }, { 1, 3, 4, 8 }, SIMA_CHANNELS_PAD16, { 24, 4, 96 },
    1.0f, 0, B0 (2, 0, 1, 4, 0), B1 (0, 1, 1, 0), 0, 0,
    SIMA_SCALE_MULTIPLY },
  { "f32-cblocked-rank4-2w", SIMA_DTYPE_FLOAT32, 4, { 2, 5, 6, 20 }, 1,
    { 0 }, { 0 }, SIMA_CHANNELS_COMPACT, { 0 }, 0.125f, 7,
    B0 (2, 1, 1, 2, 0), B1 (0, 1, 1, 0), 0, 0,
    SIMA_SCALE_MULTIPLY },
  { "bf16-cblocked-strided", SIMA_DTYPE_BFLOAT16, 3, { 3, 4, 17 }, 1,
    { 0 }, { 0 }, SIMA_CHANNELS_COMPACT, { 4, 204, 12 }, 2.0f, -1,
    B0 (2, 0, 0, 1, 0), B1 (0, 0, 0, 0), 0, 0,
    SIMA_SCALE_MULTIPLY },
  { "f32-subnormal-table-2w", SIMA_DTYPE_FLOAT32, 2, { 16, 33 }, 0,
    { -1, -1, 0, 1 }, { 1, 1, 4, 16 }, SIMA_CHANNELS_PAD16, { 0 }, 1e-40f,
    -7, B0 (2, 1, 1, 2, 0), B1 (0, 1, 1, 0), 0, 0,
    SIMA_SCALE_MULTIPLY },
  { "bf16-subnormal-table", SIMA_DTYPE_BFLOAT16, 1, { 256 }, 0,
    { -1, -1, -1, 0 }, { 1, 1, 1, 64 }, SIMA_CHANNELS_COMPACT, { 0 }, 3e-41f,
    0, B0 (2, 0, 1, 1, 0), B1 (0, 1, 1, 0), 0, 0,
    SIMA_SCALE_MULTIPLY },
  /* the largest descriptor: strides and an FP32 table, 1,248 bytes */
  { "f32-subnormal-table-strided", SIMA_DTYPE_FLOAT32, 2, { 5, 12 }, 0,
    { -1, -1, 0, 1 }, { 1, 1, 2, 12 }, SIMA_CHANNELS_COMPACT, { 64, 4 },
    1e-42f, 100, B0 (2, 1, 1, 2, 0), B1 (0, 1, 1, 0), 0, 0,
    SIMA_SCALE_MULTIPLY },
  { "f32-zero-point-int32-min", SIMA_DTYPE_FLOAT32, 2, { 9, 7 }, 0,
    { -1, -1, 0, 1 }, { 1, 1, 4, 7 }, SIMA_CHANNELS_PAD16, { 0 }, 1.0f,
    INT32_MIN, B0 (2, 0, 1, 2, 0), B1 (0, 1, 1, 0), 0, 0,
    SIMA_SCALE_MULTIPLY },
  { "bf16-zero-point-int32-max", SIMA_DTYPE_BFLOAT16, 2, { 9, 7 }, 0,
    { -1, -1, 0, 1 }, { 1, 1, 4, 7 }, SIMA_CHANNELS_COMPACT, { 0 }, 3.0f,
    INT32_MAX, B0 (2, 1, 1, 2, 0), B1 (0, 1, 1, 0), 0, 0,
    SIMA_SCALE_MULTIPLY },
  /* 9,600 elements: three panels of at most 4,096 on one worker */
  { "f32-three-panels", SIMA_DTYPE_FLOAT32, 3, { 3, 64, 50 }, 0,
    { -1, 0, 1, 2 }, { 1, 8, 8, 50 }, SIMA_CHANNELS_COMPACT, { 0 }, 0.01f,
    -128, B0 (2, 1, 1, 1, 0), B1 (0, 1, 1, 0), 0, 0,
    SIMA_SCALE_MULTIPLY },
  /* an output 4 bytes past a 16-byte boundary: the workers' boundaries
   * sit on the aligned elements */
  { "f32-unaligned-output-3w", SIMA_DTYPE_FLOAT32, 2, { 7, 13 }, 0,
    { -1, -1, 0, 1 }, { 1, 1, 3, 13 }, SIMA_CHANNELS_COMPACT, { 0 }, 4.0f,
    1, B0 (2, 1, 1, 3, 0), B1 (0, 1, 1, 0), 0, OUT_BUS + 4,
    SIMA_SCALE_MULTIPLY },
  /* the tiles of a rank-5 input with a depth axis and an outer axis */
  { "bf16-rank5-depth", SIMA_DTYPE_BFLOAT16, 5, { 2, 3, 4, 5, 6 }, 0,
    { 1, 2, 3, 4 }, { 2, 2, 2, 4 }, SIMA_CHANNELS_PAD16, { 0 }, 0.75f, 2,
    B0 (2, 0, 1, 3, 0), B1 (0, 1, 1, 0), 0, 0,
    SIMA_SCALE_MULTIPLY },
  /* the innermost logical axis is the tiles' D axis (C is axis 0): runs
   * of one byte per D plane */
  { "bf16-depth-innermost-2w", SIMA_DTYPE_BFLOAT16, 3, { 4, 5, 6 }, 0,
    { 2, -1, 1, 0 }, { 4, 1, 2, 4 }, SIMA_CHANNELS_PAD16, { 0 }, 0.5f, -2,
    B0 (2, 1, 1, 2, 0), B1 (0, 1, 1, 0), 0, 0,
    SIMA_SCALE_MULTIPLY },
  /* three elements on four workers: some get none */
  { "f32-tiny-4w", SIMA_DTYPE_FLOAT32, 1, { 3 }, 0, { -1, -1, -1, 0 },
    { 1, 1, 1, 3 }, SIMA_CHANNELS_COMPACT, { 0 }, 2.0f, 0,
    B0 (2, 0, 1, 4, 0), B1 (0, 1, 1, 0), 0, 0,
    SIMA_SCALE_MULTIPLY },
  /* five elements 4 bytes past a 16-byte boundary on four workers: a
   * boundary falls before the first aligned element */
  { "f32-tiny-unaligned-4w", SIMA_DTYPE_FLOAT32, 1, { 5 }, 0,
    { -1, -1, -1, 0 }, { 1, 1, 1, 5 }, SIMA_CHANNELS_COMPACT, { 0 }, 2.0f, 0,
    B0 (2, 1, 1, 4, 0), B1 (0, 1, 1, 0), 0, OUT_BUS + 4,
    SIMA_SCALE_MULTIPLY },
  /* a singleton innermost axis with its own stride: one-element runs */
  { "f32-strided-singleton-inner", SIMA_DTYPE_FLOAT32, 2, { 5, 1 }, 0,
    { -1, -1, 0, 1 }, { 1, 1, 2, 1 }, SIMA_CHANNELS_COMPACT, { 8, 12 },
    1.5f, 4, B0 (2, 0, 1, 2, 0), B1 (0, 1, 1, 0), 0, 0,
    SIMA_SCALE_MULTIPLY },
  { "bf16-empty", SIMA_DTYPE_BFLOAT16, 3, { 0, 4, 3 }, 0, { -1, 0, 1, 2 },
    { 1, 2, 2, 3 }, SIMA_CHANNELS_PAD16, { 0 }, 1.0f, 0,
    B0 (2, 0, 0, 1, 0), B1 (0, 0, 0, 0), 0, 0,
    SIMA_SCALE_MULTIPLY },
  /* 16 KiB of local memory: too small for two panel slot pairs */
  { "f32-local-16k", SIMA_DTYPE_FLOAT32, 3, { 8, 16, 3 }, 0,
    { -1, 0, 1, 2 }, { 1, 4, 8, 16 }, SIMA_CHANNELS_PAD16, { 0 }, 0.5f, 3,
    B0 (2, 0, 0, 1, 3), B1 (0, 0, 0, 0), 0, 0,
    SIMA_SCALE_MULTIPLY },
  /* the divide convention: YOLOv8n head 0's dq_scale and dq_zp on rows
   * of its tiling (1 x W x 64), and a subnormal dq_scale whose exact table
   * holds divide results (most of them overflow to infinity) */
  { "f32-divide-yolov8n-head0-2w", SIMA_DTYPE_FLOAT32, 3, { 4, 20, 64 }, 0,
    { -1, 0, 1, 2 }, { 1, 1, 20, 64 }, SIMA_CHANNELS_PAD16, { 0 },
    (float) 11.328456438342892, -61, B0 (2, 1, 1, 2, 0), B1 (0, 1, 1, 0), 0,
    0, SIMA_SCALE_DIVIDE },
  { "bf16-divide-subnormal-table", SIMA_DTYPE_BFLOAT16, 1, { 256 }, 0,
    { -1, -1, -1, 0 }, { 1, 1, 1, 64 }, SIMA_CHANNELS_COMPACT, { 0 }, 1e-39f,
    -128, B0 (2, 0, 1, 1, 0), B1 (0, 1, 1, 0), 0, 0, SIMA_SCALE_DIVIDE },
};

/* Indices into dd_cases of the bases of the malformed seeds. */
enum { DD_DENSE = 0, DD_STRIDED = 1, DD_CBLOCKED = 3, DD_TABLE = 5 };

static void
encode_dd (const DdCase *c, SimaEv74Descriptor *d)
{
  SimaTensorSpec in, out;
  SimaDetessDequantRequest req;
  SimaDetessDequantPlan plan;
  SimaEv74Binding bi, bo;
  SimaStatus st;

  memset (&in, 0, sizeof in);
  in.rank = c->rank;
  in.dtype = SIMA_DTYPE_INT8;
  memcpy (in.shape, c->shape, sizeof in.shape);
  out = in;
  if (c->cblocked) {
    in.layout = SIMA_LAYOUT_MLA_CBLOCKED;
  } else {
    in.layout = SIMA_LAYOUT_MLA_TILED;
    memcpy (in.tiled.axes, c->axes, sizeof in.tiled.axes);
    memcpy (in.tiled.tile_shape, c->tile, sizeof in.tiled.tile_shape);
    in.tiled.channels = c->channels;
    in.tiled.cblock = cblock_mode;
  }
  out.dtype = c->dtype;
  out.layout = c->strides[0] ? SIMA_LAYOUT_STRIDED : SIMA_LAYOUT_CONTIGUOUS;
  if (out.layout == SIMA_LAYOUT_STRIDED)
    memcpy (out.strides_bytes, c->strides, sizeof out.strides_bytes);
  memset (&req, 0, sizeof req);
  req.inputs = &in;
  req.n_inputs = 1;
  req.outputs = &out;
  req.n_outputs = 1;
  req.params.scale = c->scale;
  req.params.zero_point = c->zero_point;
  req.params.convention = c->convention;
  st = sima_detessdequant_check_inference (&req, &plan);
  if (!sima_status_is_ok (&st))
    die (c->name, &st);
  st = sima_ev74_detessdequant_encode_relocatable (&plan, d);
  if (!sima_status_is_ok (&st))
    die (c->name, &st);
  bi.bus_address = c->in_bus ? c->in_bus : IN_BUS;
  bi.length = plan.input_bytes;
  bo.bus_address = c->out_bus ? c->out_bus : OUT_BUS;
  bo.length = plan.output_bytes;
  st = sima_ev74_descriptor_bind (d, &bi, &bo);
  if (!sima_status_is_ok (&st))
    die (c->name, &st);
}

#define DDO(field) SIMA_EV74_DD_OFF (field)

/* Broken fields of a DetessDequant descriptor: name and base case. */
static const struct {
  const char *name;
  unsigned base;
} dd_mutations[] = {
  { "flags-unknown-32", DD_DENSE },
  { "strided-flag-without-strides", DD_DENSE },
  { "table-flag-with-bf16-table-length", DD_TABLE },
  { "strided-with-row-major-strides", DD_DENSE },
  { "table-for-normal-scale", DD_DENSE },
  { "subnormal-scale-without-table", DD_TABLE },
  { "wrong-table-entry", DD_TABLE },
  { "cblocked-with-channels-field", DD_CBLOCKED },
  { "cblocked-with-tile-field", DD_CBLOCKED },
  { "cblocked-rank-2", DD_CBLOCKED },
  { "output-dtype-f16", DD_DENSE },
  { "output-dtype-int8", DD_DENSE },
  { "reserved0-nonzero", DD_DENSE },
  { "reserved2-nonzero", DD_DENSE },
  { "scale-zero", DD_DENSE },
  { "scale-nan", DD_DENSE },
  { "scale-negative", DD_DENSE },
  { "scale-infinite", DD_DENSE },
  { "element-count-mismatch", DD_DENSE },
  { "output-span-mismatch", DD_STRIDED },
  { "output-misaligned", DD_DENSE },
  { "input-misaligned", DD_DENSE },
  { "unused-stride-slot", DD_STRIDED },
  { "overlapping-output-strides", DD_STRIDED },
  { "truncated-175", DD_DENSE },
  { "version-2", DD_DENSE },
  { "route-49", DD_DENSE },
  /* the multiply table of a subnormal scale sent as divide */
  { "divide-flag-on-multiply-table", DD_TABLE },
  /* both valid once the target's patch bits repaired them */
  { "stale-fields-patched-by-target", DD_DENSE },
  { "subnormal-scale-table-added-by-target", DD_DENSE },
};
enum { DD_MUTATIONS = sizeof dd_mutations / sizeof dd_mutations[0],
  DD_PATCHED = DD_MUTATIONS - 2 };

static size_t
set_length (uint8_t *b, size_t len)
{
  sima_ev74_put_u16 (b, SIMA_EV74_OFF_LENGTH, (uint16_t) len);
  return len;
}

static size_t
mutate_dd (unsigned m, uint8_t *b, size_t len)
{
  unsigned flags = sima_ev74_get_u16 (b, DDO (flags));

  switch (m) {
    case 0: sima_ev74_put_u16 (b, DDO (flags), (uint16_t) (flags | 32)); break;
    case 1: sima_ev74_put_u16 (b, DDO (flags), (uint16_t) (flags | 1)); break;
    case 2: len = set_length (b, 176 + 512); break;   /* FP32 needs 1,024 */
    case 3: {                 /* {8,16,3} FP32 row-major: 192, 12, 4 */
      static const int64_t rm[3] = { 192, 12, 4 };
      int i;
      sima_ev74_put_u16 (b, DDO (flags), (uint16_t) (flags | 1));
      for (i = 0; i < 6; i++)
        sima_ev74_put_i64 (b, 176 + 8 * (size_t) i, i < 3 ? rm[i] : 0);
      len = set_length (b, 176 + 48);
      break;
    }
    case 4:                   /* an all-zero table: the flag fails first */
      sima_ev74_put_u16 (b, DDO (flags), (uint16_t) (flags | 4));
      memset (b + len, 0, 1024);
      len = set_length (b, len + 1024);
      break;
    case 5:
      sima_ev74_put_u16 (b, DDO (flags), (uint16_t) (flags & ~4u));
      len = set_length (b, 176);
      break;
    case 6:
      b[176 + 4 * 17] ^= 1;
      break;
    case 7: b[DDO (channels)] = 1; break;
    case 8: sima_ev74_put_i64 (b, DDO (tile_shape) + 24, 16); break;
    case 9:
      b[DDO (rank)] = 2;
      sima_ev74_put_i64 (b, DDO (shape) + 16, 0);
      sima_ev74_put_i64 (b, DDO (shape) + 24, 0);
      break;
    case 10: b[DDO (output_dtype)] = SIMA_DTYPE_FLOAT16; break;
    case 11: b[DDO (output_dtype)] = SIMA_DTYPE_INT8; break;
    case 12: b[DDO (reserved0) + 4] = 1; break;
    case 13: b[DDO (reserved2)] = 1; break;
    case 14: sima_ev74_put_u32 (b, DDO (scale_bits), 0); break;
    case 15: sima_ev74_put_u32 (b, DDO (scale_bits), 0x7fc00000u); break;
    case 16: sima_ev74_put_u32 (b, DDO (scale_bits), 0xbf000000u); break;
    case 17: sima_ev74_put_u32 (b, DDO (scale_bits), 0x7f800000u); break;
    case 18:
      sima_ev74_put_u64 (b, DDO (element_count),
          sima_ev74_get_u64 (b, DDO (element_count)) - 1);
      break;
    case 19:
      sima_ev74_put_u64 (b, SIMA_EV74_OFF_OUTPUT_SPAN,
          sima_ev74_get_u64 (b, SIMA_EV74_OFF_OUTPUT_SPAN) + 2);
      break;
    case 20:
      sima_ev74_put_u64 (b, SIMA_EV74_OFF_OUTPUT_ADDRESS,
          sima_ev74_get_u64 (b, SIMA_EV74_OFF_OUTPUT_ADDRESS) + 2);
      break;
    case 21:
      sima_ev74_put_u64 (b, SIMA_EV74_OFF_INPUT_ADDRESS,
          sima_ev74_get_u64 (b, SIMA_EV74_OFF_INPUT_ADDRESS) + 8);
      break;
    case 22: sima_ev74_put_i64 (b, 176 + 8 * 3, 2); break;
    case 23: sima_ev74_put_i64 (b, 176 + 8 * 2, 4); break;   /* {112, 8, 4} */
    case 24: len = set_length (b, 175); break;
    case 25: sima_ev74_put_u16 (b, DDO (version), 2); break;
    case 26: sima_ev74_put_u16 (b, SIMA_EV74_OFF_ROUTE, 49); break;
    case 27:                  /* the DIVIDE flag, the multiply table kept */
      sima_ev74_put_u16 (b, DDO (flags), (uint16_t) (flags | 8));
      break;
    case 28:
      /* a taller image with stale spans, count, bound lengths, length
       * field and CRC */
      sima_ev74_put_i64 (b, DDO (shape), sima_ev74_get_i64 (b, DDO (shape)) + 5);
      b[SIMA_EV74_OFF_LENGTH] ^= 0x20;
      return len;
    default:
      /* a subnormal scale without its table: the target adds the flag and
       * the 1,024-byte table, and fixes length and CRC */
      sima_ev74_put_u32 (b, DDO (scale_bits), 0x00012345u);
      return len;
  }
  refresh_crc (b, len);
  return len;
}

/* ---- TensorSet containers (route 53) ----------------------------------- */

static SimaTensorSpec
ts_tiled (SimaDType dt, int64_t h, int64_t w, int64_t c, int64_t th,
    int64_t tw, int64_t tc, SimaChannels ch)
{
  SimaTensorSpec s;
  memset (&s, 0, sizeof s);
  s.rank = 3;
  s.shape[0] = h;
  s.shape[1] = w;
  s.shape[2] = c;
  s.dtype = dt;
  s.layout = SIMA_LAYOUT_MLA_TILED;
  s.tiled.axes[0] = -1;
  s.tiled.axes[1] = 0;
  s.tiled.axes[2] = 1;
  s.tiled.axes[3] = 2;
  s.tiled.tile_shape[0] = 1;
  s.tiled.tile_shape[1] = th;
  s.tiled.tile_shape[2] = tw;
  s.tiled.tile_shape[3] = tc;
  s.tiled.channels = ch;
  return s;
}

static SimaTensorSpec
ts_dense (SimaDType dt, int64_t h, int64_t w, int64_t c)
{
  SimaTensorSpec s;
  memset (&s, 0, sizeof s);
  s.rank = 3;
  s.shape[0] = h;
  s.shape[1] = w;
  s.shape[2] = c;
  s.dtype = dt;
  return s;
}

static void
ts_bind (SimaEv74Descriptor *d, uint64_t in_bytes, uint64_t out_bytes)
{
  SimaEv74Binding bi = { IN_BUS, in_bytes }, bo = { OUT_BUS, out_bytes };
  SimaStatus st = sima_ev74_descriptor_bind (d, &bi, &bo);
  if (st.code != SIMA_OK)
    die ("TensorSet bind", &st);
}

static SimaDetessDequantSetPlan ts_dd;
static SimaQuantTessSetPlan ts_qt;
static SimaCastTessSetPlan ts_ct;

/* Seed 0: two DetessDequant members, FP32 dense and a BF16 output pitched
 * per row (STRIDED); seed 1: the six YOLOv8n heads' structure at 1/10 the
 * size (INT8 pad16, H1 x W x C tiles, back to back, SiMa's dq values,
 * DIVIDE); seed 2: six QuantTess members with gaps, members in reverse
 * buffer order; seed 3: three CastTess members, one empty. */
static void
encode_set (unsigned which, SimaEv74Descriptor *d)
{
  static const int64_t hw[6] = { 8, 4, 2, 8, 4, 2 }, ch[6] = { 64, 64, 64,
    80, 80, 80 };
  static const float scales[6] = { 11.328456438342892f, 13.655735144659944f,
    14.041570531577957f, 9.636191223407769f, 6.634204286335957f,
    5.471951716200586f };
  static const int32_t zps[6] = { -61, -56, -43, 127, 117, 113 };
  SimaTensorSpec in[6], out[6];
  SimaTensorSet is, os;
  SimaStatus st;
  int k;

  if (which <= 1) {
    SimaDetessDequantParams p[6];
    SimaDetessDequantSetRequest r = { &is, &os, p, which == 0 ? 2 : 6 };
    if (which == 0) {
      in[0] = ts_tiled (SIMA_DTYPE_INT8, 6, 10, 20, 2, 4, 16,
          SIMA_CHANNELS_PAD16);
      out[0] = ts_dense (SIMA_DTYPE_FLOAT32, 6, 10, 20);
      in[1] = ts_tiled (SIMA_DTYPE_INT8, 3, 5, 7, 1, 5, 16,
          SIMA_CHANNELS_COMPACT);
      out[1] = ts_dense (SIMA_DTYPE_BFLOAT16, 3, 5, 7);
      out[1].layout = SIMA_LAYOUT_STRIDED;
      out[1].strides_bytes[0] = 96;
      out[1].strides_bytes[1] = 14;
      out[1].strides_bytes[2] = 2;
      p[0] = (SimaDetessDequantParams) { 0.125f, -3, SIMA_SCALE_MULTIPLY };
      p[1] = (SimaDetessDequantParams) { 1e-40f, 5, SIMA_SCALE_MULTIPLY };
    }
    for (k = 0; which == 1 && k < 6; k++) {
      in[k] = ts_tiled (SIMA_DTYPE_INT8, hw[k], hw[k], ch[k], 1, hw[k], ch[k],
          SIMA_CHANNELS_PAD16);
      out[k] = ts_dense (SIMA_DTYPE_FLOAT32, hw[k], hw[k], ch[k]);
      p[k] = (SimaDetessDequantParams) { scales[k], zps[k],
        SIMA_SCALE_DIVIDE };
    }
    sima_tensor_set_pack (in, r.n_params, 0, "input", &is);
    sima_tensor_set_pack (out, r.n_params, which == 0 ? 64 : 0, "output",
        &os);
    st = sima_detessdequant_set_check_inference (&r, &ts_dd);
    if (st.code == SIMA_OK)
      st = sima_ev74_detessdequant_set_encode_relocatable (&ts_dd, d);
    if (st.code != SIMA_OK)
      die ("TensorSet DetessDequant seed", &st);
    ts_bind (d, ts_dd.input_bytes, ts_dd.output_bytes);
  } else if (which == 2) {
    SimaQuantTessParams p[6];
    SimaQuantTessSetRequest r = { &is, &os, p, 6 };
    uint64_t at_in = 0, at_out = 0, bytes;
    for (k = 0; k < 6; k++) {
      in[k] = ts_dense (k % 2 ? SIMA_DTYPE_FLOAT16 : SIMA_DTYPE_FLOAT32,
          2 + k, 3, 3 + 5 * k);
      out[k] = ts_tiled (SIMA_DTYPE_INT8, 2 + k, 3, 3 + 5 * k, 2, 2, 16,
          (SimaChannels) (k % 2));
      p[k] = (SimaQuantTessParams) { 4.0f + (float) k, k - 3,
        (SimaRounding) (k % 4) };
    }
    is.n_members = os.n_members = 6;
    for (k = 5; k >= 0; k--) {   /* reverse order, 20 bytes apart */
      is.members[k].spec = in[k];
      os.members[k].spec = out[k];
      is.members[k].offset = (at_in + 3) & ~(uint64_t) 3;
      os.members[k].offset = (at_out + 15) & ~(uint64_t) 15;
      sima_tensor_required_bytes (&in[k], "in", &bytes);
      at_in = is.members[k].offset + bytes + 20;
      sima_tensor_required_bytes (&out[k], "out", &bytes);
      at_out = os.members[k].offset + bytes + 20;
    }
    st = sima_quanttess_set_check_inference (&r, &ts_qt);
    if (st.code == SIMA_OK)
      st = sima_ev74_quanttess_set_encode_relocatable (&ts_qt, d);
    if (st.code != SIMA_OK)
      die ("TensorSet QuantTess seed", &st);
    ts_bind (d, ts_qt.input_bytes, ts_qt.output_bytes);
  } else {
    SimaCastTessSetRequest r = { &is, &os };
    for (k = 0; k < 3; k++) {
      in[k] = ts_dense (k == 1 ? SIMA_DTYPE_BFLOAT16 : SIMA_DTYPE_FLOAT32,
          k == 2 ? 0 : 4, 5, 17);
      out[k] = ts_tiled (SIMA_DTYPE_BFLOAT16, k == 2 ? 0 : 4, 5, 17, 2, 4, 16,
          SIMA_CHANNELS_PAD16);
    }
    sima_tensor_set_pack (in, 3, 0, "input", &is);
    sima_tensor_set_pack (out, 3, 0, "output", &os);
    st = sima_casttess_set_check_inference (&r, &ts_ct);
    if (st.code == SIMA_OK)
      st = sima_ev74_casttess_set_encode_relocatable (&ts_ct, d);
    if (st.code != SIMA_OK)
      die ("TensorSet CastTess seed", &st);
    ts_bind (d, ts_ct.input_bytes, ts_ct.output_bytes);
  }
}

static const struct {
  const char *name;
  uint8_t b0, b1;
} set_seeds[4] = {
  { "dd-2-members-strided-subnormal", B0 (2, 0, 0, 2, 0), B1 (0, 1, 0, 0) },
  { "dd-6-yolov8n-heads-small-divide", B0 (2, 1, 0, 4, 0), B1 (0, 1, 0, 0) },
  { "qt-6-members-reversed-gaps", B0 (2, 1, 0, 3, 0), B1 (0, 1, 0, 0) },
  { "ct-3-members-one-empty", B0 (2, 0, 0, 4, 1), B1 (0, 1, 0, 0) },
};

/* Malformed containers: one field broken, the container CRC redone (the
 * member's too where its bytes changed, unless its CRC is the point). */
static const char *const set_mutations[] = {
  "count-0", "member-length-plus-8", "nested-route-53",
  "member-relocation-nonzero", "member-crc", "offset-beyond-bound",
  "overlapping-members", "misaligned-member", "span-not-capacity",
  "stale-member-crc-and-spans-patched-by-target",
};
enum { SET_MUTATIONS = sizeof set_mutations / sizeof set_mutations[0] };

static size_t
ts_member_at (const uint8_t *b, unsigned k)
{
  unsigned n = b[SIMA_EV74_HEADER_BYTES], i;
  size_t at = sima_ev74_tensor_set_members (n);
  for (i = 0; i < k; i++)
    at = sima_ev74_tensor_set_align ((uint32_t) at)
        + sima_ev74_get_u16 (b, sima_ev74_tensor_set_entry (i) + 16);
  return sima_ev74_tensor_set_align ((uint32_t) at);
}

static void
mutate_set (unsigned i, uint8_t *b, size_t len)
{
  size_t m1 = ts_member_at (b, 1);
  uint32_t e1 = sima_ev74_tensor_set_entry (1);
  switch (i) {
    case 0: b[SIMA_EV74_HEADER_BYTES] = 0; break;
    case 1: sima_ev74_put_u16 (b, e1 + 16,
        (uint16_t) (sima_ev74_get_u16 (b, e1 + 16) + 8)); break;
    case 2:
      sima_ev74_put_u16 (b, m1 + SIMA_EV74_OFF_ROUTE, 53);
      refresh_crc (b + m1, sima_ev74_get_u16 (b, e1 + 16));
      break;
    case 3: b[m1 + 24] = 0x40; break;
    case 4: b[m1 + 60] ^= 1; break;
    case 5: sima_ev74_put_u64 (b, e1, UINT64_C (1) << 20); break;
    case 6: sima_ev74_put_u64 (b, e1 + 8, sima_ev74_get_u64 (b,
        sima_ev74_tensor_set_entry (0) + 8)); break;
    case 7: sima_ev74_put_u64 (b, e1, sima_ev74_get_u64 (b, e1) + 8); break;
    case 8: sima_ev74_put_u64 (b, SIMA_EV74_OFF_OUTPUT_SPAN,
        sima_ev74_get_u64 (b, SIMA_EV74_OFF_OUTPUT_SPAN) - 16); break;
    default:
      /* a member's zero point changed without its CRC, and the spans one
       * off: the target's repair (byte 1 bit 3) redoes both */
      b[m1 + 172] ^= 1;
      sima_ev74_put_u64 (b, SIMA_EV74_OFF_INPUT_SPAN,
          sima_ev74_get_u64 (b, SIMA_EV74_OFF_INPUT_SPAN) - 1);
      break;
  }
  refresh_crc (b, len);
}

/* ---- cblock -------------------------------------------------------------- */

/* Written with cblock_mode set: pad16 tiles of more than 16 stored channels
 * (several 16-channel blocks, a last block with padding), boundary tiles,
 * channels-first sources and outputs, several workers. */
static const Case cb_cases[] = {
  { "f32-hwc-c40-tile32-3w", SIMA_DTYPE_FLOAT32, 3, { 6, 10, 40 }, { 0 },
    { -1, 0, 1, 2 }, { 1, 4, 4, 32 }, SIMA_CHANNELS_PAD16, 16.0f, -2,
    SIMA_ROUNDING_NEAREST_EVEN, B0 (2, 1, 1, 3, 0), B1 (0, 1, 1, 0), 0, 0 },
  { "f32-nchw-c33-tile64-4w", SIMA_DTYPE_FLOAT32, 4, { 1, 33, 6, 8 },
    { 6336, 192, 32, 4 }, { -1, 2, 3, 1 }, { 1, 4, 4, 64 },
    SIMA_CHANNELS_PAD16, 1.0f, 3, SIMA_ROUNDING_TOWARD_ZERO,
    B0 (2, 1, 1, 4, 0), B1 (0, 1, 1, 0), 0, 0 },
};
static const Case cb_cast_cases[] = {
  { "bf16-wc-c70-tile64-2w", SIMA_DTYPE_BFLOAT16, 2, { 12, 70 }, { 0 },
    { -1, -1, 0, 1 }, { 1, 1, 5, 64 }, SIMA_CHANNELS_PAD16, 0, 0, 0,
    B0 (2, 1, 1, 2, 0), B1 (0, 1, 1, 0), 0, 0 },
  /* 40 KiB tiles of 80 channels: tasks hold whole 32-byte block pixels */
  { "f32-big-tiles-c80-3w", SIMA_DTYPE_FLOAT32, 3, { 32, 32, 80 }, { 0 },
    { -1, 0, 1, 2 }, { 1, 16, 16, 80 }, SIMA_CHANNELS_PAD16, 0, 0, 0,
    B0 (2, 1, 1, 3, 1), B1 (0, 1, 1, 0), 0, 0 },
};
static const DdCase cb_dd_cases[] = {
  { "f32-c80-tile64-3w", SIMA_DTYPE_FLOAT32, 3, { 5, 6, 80 }, 0,
    { -1, 0, 1, 2 }, { 1, 2, 4, 64 }, SIMA_CHANNELS_PAD16, { 0 }, 0.5f, 3,
    B0 (2, 1, 1, 3, 0), B1 (0, 1, 1, 0), 0, 0, SIMA_SCALE_MULTIPLY },
  /* HWC logical, CHW in memory: channels 48 bytes apart */
  { "bf16-permuted-c33-tile32", SIMA_DTYPE_BFLOAT16, 3, { 4, 6, 33 }, 0,
    { -1, 0, 1, 2 }, { 1, 3, 4, 32 }, SIMA_CHANNELS_PAD16, { 12, 2, 48 },
    0.25f, -1, B0 (2, 0, 1, 2, 0), B1 (0, 1, 1, 0), 0, 0,
    SIMA_SCALE_MULTIPLY },
};

static void
write_cblock_seeds (const char *dir)
{
  SimaEv74Descriptor d;
  char name[128];
  unsigned i;

  cblock_mode = 1;
  for (i = 0; i < sizeof cb_cases / sizeof cb_cases[0]; i++) {
    uint8_t prefix[6] = { cb_cases[i].b0, cb_cases[i].b1, FOLLOW_IN,
      FOLLOW_OUT, 0, (uint8_t) (200 + i) };
    encode (&cb_cases[i], &d);
    snprintf (name, sizeof name, "valid-cb-%02u-%s", i, cb_cases[i].name);
    write_seed (dir, name, prefix, d.bytes, d.length);
  }
  for (i = 0; i < sizeof cb_cast_cases / sizeof cb_cast_cases[0]; i++) {
    uint8_t prefix[6] = { cb_cast_cases[i].b0, cb_cast_cases[i].b1,
      FOLLOW_IN, FOLLOW_OUT, 0, (uint8_t) (210 + i) };
    encode_cast (&cb_cast_cases[i], &d);
    snprintf (name, sizeof name, "valid-ct-cb-%02u-%s", i,
        cb_cast_cases[i].name);
    write_seed (dir, name, prefix, d.bytes, d.length);
  }
  for (i = 0; i < sizeof cb_dd_cases / sizeof cb_dd_cases[0]; i++) {
    uint8_t prefix[6] = { cb_dd_cases[i].b0, cb_dd_cases[i].b1, FOLLOW_IN,
      FOLLOW_OUT, 0, (uint8_t) (220 + i) };
    encode_dd (&cb_dd_cases[i], &d);
    snprintf (name, sizeof name, "valid-dd-cb-%02u-%s", i,
        cb_dd_cases[i].name);
    write_seed (dir, name, prefix, d.bytes, d.length);
  }
  cblock_mode = 0;
  {
    /* CBLOCK on a compact QuantTess case: invalid-tiling, no DMA */
    uint8_t prefix[6] = { B0 (2, 0, 0, 1, 0), B1 (0, 0, 0, 0), FOLLOW, 0,
      230 };
    encode (&cases[1], &d);
    sima_ev74_put_u16 (d.bytes, SIMA_EV74_OFF_FLAGS,
        SIMA_EV74_PACK_FLAG_CBLOCK);
    refresh_crc (d.bytes, d.length);
    write_seed (dir, "malformed-cb-00-cblock-compact", prefix, d.bytes,
        d.length);
  }
  {
    /* CBLOCK with CBLOCKED: invalid-descriptor, no DMA */
    uint8_t prefix[6] = { B0 (2, 0, 0, 1, 0), B1 (0, 0, 0, 0), FOLLOW, 0,
      231 };
    encode_dd (&dd_cases[DD_CBLOCKED], &d);
    sima_ev74_put_u16 (d.bytes, DDO (flags), (uint16_t) (sima_ev74_get_u16
            (d.bytes, DDO (flags)) | SIMA_EV74_DD_FLAG_CBLOCK));
    refresh_crc (d.bytes, d.length);
    write_seed (dir, "malformed-dd-cb-00-cblock-with-cblocked", prefix,
        d.bytes, d.length);
  }
}

/* ---- UINT8 input (camera pixels) ---------------------------------------- */

/* 8-bit frames: RGB with pixel stride 3 and RGBX with pixel stride 4 in
 * padded rows (some at an odd bus address: 1-byte scalars need no
 * alignment), GRAY8, a channels-first view (pixel runs of 1-byte scalars),
 * tiles larger than a task, SiMa's preproc multiplier 255.0697f / 255 with
 * zero point -128. */
static const Case u8_cases[] = {
  { "rgb-stride3-pad16-sima-2w", SIMA_DTYPE_UINT8, 3, { 6, 10, 3 },
    { 32, 3, 1 }, { -1, 0, 1, 2 }, { 1, 4, 8, 16 }, SIMA_CHANNELS_PAD16,
    255.0697f / 255.0f, -128, SIMA_ROUNDING_NEAREST_EVEN,
    B0 (2, 1, 1, 2, 0), B1 (0, 1, 1, 0), IN_BUS + 1, 0 },
  { "rgbx-stride4-compact-3w", SIMA_DTYPE_UINT8, 3, { 5, 7, 3 },
    { 32, 4, 1 }, { -1, 0, 1, 2 }, { 1, 2, 4, 3 }, SIMA_CHANNELS_COMPACT,
    1.0f / 255.0f, 3, SIMA_ROUNDING_TOWARD_ZERO, B0 (2, 0, 1, 3, 0),
    B1 (0, 1, 1, 0), IN_BUS + 3, 0 },
  { "gray8-pitched-4w", SIMA_DTYPE_UINT8, 3, { 9, 17, 1 }, { 20, 1, 1 },
    { -1, 0, 1, 2 }, { 1, 4, 16, 1 }, SIMA_CHANNELS_PAD16, 0.5f, 0,
    SIMA_ROUNDING_TOWARD_POSITIVE, B0 (2, 1, 1, 4, 0), B1 (0, 1, 1, 0), 0,
    0 },
  /* planar RGB (C = axis 1): channels 48 bytes apart */
  { "nchw-planar-3w", SIMA_DTYPE_UINT8, 4, { 1, 3, 6, 8 },
    { 144, 48, 8, 1 }, { -1, 2, 3, 1 }, { 1, 3, 4, 3 }, SIMA_CHANNELS_PAD16,
    2.0f, -7, SIMA_ROUNDING_TOWARD_NEGATIVE, B0 (2, 1, 1, 3, 0),
    B1 (0, 1, 1, 0), 0, 0 },
  /* 10 KiB tiles: tasks of 6144 bytes (the 1-byte input limit) */
  { "big-tiles-2w", SIMA_DTYPE_UINT8, 3, { 32, 32, 40 }, { 0 },
    { -1, 0, 1, 2 }, { 1, 16, 16, 40 }, SIMA_CHANNELS_COMPACT, 1.0f, -128,
    SIMA_ROUNDING_NEAREST_EVEN, B0 (2, 1, 1, 2, 1), B1 (0, 1, 1, 0), 0, 0 },
};
static const Case u8_cast_cases[] = {
  { "rgb-stride3-pad16-2w", SIMA_DTYPE_UINT8, 3, { 6, 10, 3 },
    { 32, 3, 1 }, { -1, 0, 1, 2 }, { 1, 4, 8, 16 }, SIMA_CHANNELS_PAD16, 0,
    0, 0, B0 (2, 1, 1, 2, 0), B1 (0, 1, 1, 0), IN_BUS + 1, 0 },
  { "rgbx-stride4-compact-3w", SIMA_DTYPE_UINT8, 3, { 5, 7, 3 },
    { 32, 4, 1 }, { -1, 0, 1, 2 }, { 1, 2, 4, 3 }, SIMA_CHANNELS_COMPACT, 0,
    0, 0, B0 (2, 0, 1, 3, 0), B1 (0, 1, 1, 0), IN_BUS + 3, 0 },
  { "gray8-pitched-4w", SIMA_DTYPE_UINT8, 3, { 9, 17, 1 }, { 20, 1, 1 },
    { -1, 0, 1, 2 }, { 1, 4, 16, 1 }, SIMA_CHANNELS_COMPACT, 0, 0, 0,
    B0 (2, 1, 1, 4, 0), B1 (0, 1, 1, 0), 0, 0 },
  /* 385 odd channels: lcm(770, 16) = 6160 > 6144, the 1-byte input's task
   * limit, so a task boundary cuts a pixel (firmware/pack_worker.c) */
  { "split-pixel-3w", SIMA_DTYPE_UINT8, 3, { 2, 8, 385 }, { 0 },
    { -1, 0, 1, 2 }, { 1, 1, 8, 385 }, SIMA_CHANNELS_COMPACT, 0, 0, 0,
    B0 (2, 1, 1, 3, 0), B1 (0, 1, 1, 0), 0, 0 },
};
/* Written with cblock_mode set. */
static const Case u8_cb_cast_case = {
  "c40-tile32-cblock-2w", SIMA_DTYPE_UINT8, 3, { 4, 6, 40 }, { 0 },
  { -1, 0, 1, 2 }, { 1, 2, 4, 32 }, SIMA_CHANNELS_PAD16, 0, 0, 0,
  B0 (2, 1, 1, 2, 0), B1 (0, 1, 1, 0), 0, 0 };

static void
write_u8_seeds (const char *dir)
{
  SimaEv74Descriptor d;
  char name[128];
  unsigned i;

  for (i = 0; i < sizeof u8_cases / sizeof u8_cases[0]; i++) {
    uint8_t prefix[6] = { u8_cases[i].b0, u8_cases[i].b1, FOLLOW_IN,
      FOLLOW_OUT, 0, (uint8_t) (240 + i) };
    encode (&u8_cases[i], &d);
    snprintf (name, sizeof name, "valid-u8-%02u-%s", i, u8_cases[i].name);
    write_seed (dir, name, prefix, d.bytes, d.length);
  }
  for (i = 0; i < sizeof u8_cast_cases / sizeof u8_cast_cases[0]; i++) {
    uint8_t prefix[6] = { u8_cast_cases[i].b0, u8_cast_cases[i].b1,
      FOLLOW_IN, FOLLOW_OUT, 0, (uint8_t) (248 + i) };
    encode_cast (&u8_cast_cases[i], &d);
    snprintf (name, sizeof name, "valid-ct-u8-%02u-%s", i,
        u8_cast_cases[i].name);
    write_seed (dir, name, prefix, d.bytes, d.length);
  }
  {
    uint8_t prefix[6] = { u8_cb_cast_case.b0, u8_cb_cast_case.b1, FOLLOW_IN,
      FOLLOW_OUT, 0, 252 };
    cblock_mode = 1;
    encode_cast (&u8_cb_cast_case, &d);
    cblock_mode = 0;
    snprintf (name, sizeof name, "valid-ct-u8-%02u-%s",
        (unsigned) (sizeof u8_cast_cases / sizeof u8_cast_cases[0]),
        u8_cb_cast_case.name);
    write_seed (dir, name, prefix, d.bytes, d.length);
  }
  {
    /* dtype 3 (INT8) where the UINT8 frame was: invalid-descriptor, no
     * DMA (3 is not an input dtype; neither are 5, 6 and unknown ones) */
    uint8_t prefix[6] = { B0 (2, 0, 0, 1, 0), B1 (0, 0, 0, 0), FOLLOW, 0,
      253 };
    encode (&u8_cases[0], &d);
    d.bytes[QT (input_dtype)] = SIMA_DTYPE_INT8;
    refresh_crc (d.bytes, d.length);
    write_seed (dir, "malformed-u8-00-dtype-int8", prefix, d.bytes,
        d.length);
    encode_cast (&u8_cast_cases[0], &d);
    d.bytes[QT (input_dtype)] = SIMA_DTYPE_INT8;
    refresh_crc (d.bytes, d.length);
    prefix[5] = 254;
    write_seed (dir, "malformed-ct-u8-00-dtype-int8", prefix, d.bytes,
        d.length);
    /* dtype 4 over an FP32 frame's fields: well-formed, but the spans the
     * device derives for 1-byte scalars are not the descriptor's */
    encode (&cases[0], &d);
    d.bytes[QT (input_dtype)] = SIMA_DTYPE_UINT8;
    refresh_crc (d.bytes, d.length);
    prefix[5] = 255;
    write_seed (dir, "malformed-u8-01-dtype-uint8-over-fp32-spans", prefix,
        d.bytes, d.length);
  }
}

/* ---- DetessCast (route 52) --------------------------------------------- */

typedef struct {
  const char *name;
  SimaDType dtype;          /* output: FP32 or BF16 */
  int rank;
  int64_t shape[6];
  int8_t axes[4];
  int64_t tile[4];
  SimaChannels channels;
  int cblock;
  int64_t strides[6];       /* all 0: contiguous */
  uint8_t b0, b1;
  uint32_t in_bus, out_bus; /* 0: the defaults */
} DcCase;

static const DcCase dc_cases[] = {
  { "f32-hwc-pad16", SIMA_DTYPE_FLOAT32, 3, { 8, 16, 3 }, { -1, 0, 1, 2 },
    { 1, 4, 8, 16 }, SIMA_CHANNELS_PAD16, 0, { 0 }, B0 (2, 0, 1, 1, 0),
    B1 (0, 1, 1, 0), 0, 0 },
  /* NHWC BF16 strided output with a pitched row: one writer */
  { "bf16-strided-compact-3w", SIMA_DTYPE_BFLOAT16, 4, { 2, 3, 2, 5 },
    { -1, 1, 2, 3 }, { 1, 2, 2, 4 }, SIMA_CHANNELS_COMPACT, 0,
    { 128, 32, 12, 2 }, B0 (2, 1, 1, 3, 0), B1 (0, 1, 1, 0), 0, 0 },
  /* cblock, several 16-channel blocks and a padded last block */
  { "f32-cblock-c40-2w", SIMA_DTYPE_FLOAT32, 3, { 2, 3, 40 },
    { -1, 0, 1, 2 }, { 1, 1, 3, 48 }, SIMA_CHANNELS_PAD16, 1, { 0 },
    B0 (2, 1, 1, 2, 0), B1 (0, 1, 1, 0), 0, 0 },
  /* planar (channels-first) FP32 output of a cblock input */
  { "f32-cblock-planar-strided", SIMA_DTYPE_FLOAT32, 4, { 2, 2, 2, 17 },
    { -1, 1, 2, 3 }, { 1, 1, 2, 32 }, SIMA_CHANNELS_PAD16, 1,
    { 272, 8, 4, 16 }, B0 (2, 0, 1, 2, 0), B1 (0, 1, 1, 0), 0, 0 },
  /* 9,600 elements: panels of 2,048 on two workers */
  { "bf16-five-panels-2w", SIMA_DTYPE_BFLOAT16, 3, { 3, 64, 50 },
    { -1, 0, 1, 2 }, { 1, 8, 8, 50 }, SIMA_CHANNELS_COMPACT, 0, { 0 },
    B0 (2, 1, 1, 2, 0), B1 (0, 1, 1, 0), 0, 0 },
  /* rank 6, a depth axis and outer axes */
  { "f32-rank6-depth", SIMA_DTYPE_FLOAT32, 6, { 2, 1, 3, 2, 4, 17 },
    { 2, 3, 4, 5 }, { 1, 2, 3, 16 }, SIMA_CHANNELS_PAD16, 0, { 0 },
    B0 (2, 0, 1, 3, 0), B1 (0, 1, 1, 0), 0, 0 },
  /* the innermost logical axis is D (C is axis 0): a byte per D plane in
   * each plane */
  { "bf16-depth-innermost", SIMA_DTYPE_BFLOAT16, 3, { 4, 5, 6 },
    { 2, -1, 1, 0 }, { 4, 1, 2, 4 }, SIMA_CHANNELS_PAD16, 0, { 0 },
    B0 (2, 1, 1, 2, 0), B1 (0, 1, 1, 0), 0, 0 },
  /* five elements 4 bytes past a 16-byte boundary on four workers */
  { "f32-tiny-unaligned-4w", SIMA_DTYPE_FLOAT32, 1, { 5 },
    { -1, -1, -1, 0 }, { 1, 1, 1, 5 }, SIMA_CHANNELS_COMPACT, 0, { 0 },
    B0 (2, 1, 1, 4, 0), B1 (0, 1, 1, 0), 0, OUT_BUS + 4 },
  { "bf16-empty", SIMA_DTYPE_BFLOAT16, 3, { 0, 4, 3 }, { -1, 0, 1, 2 },
    { 1, 2, 2, 3 }, SIMA_CHANNELS_PAD16, 0, { 0 }, B0 (2, 0, 0, 1, 0),
    B1 (0, 0, 0, 0), 0, 0 },
  /* 16 KiB of local memory: too small for two panel slot pairs */
  { "f32-local-16k", SIMA_DTYPE_FLOAT32, 3, { 8, 16, 3 }, { -1, 0, 1, 2 },
    { 1, 4, 8, 16 }, SIMA_CHANNELS_PAD16, 0, { 0 }, B0 (2, 0, 0, 1, 3),
    B1 (0, 0, 0, 0), 0, 0 },
};

enum { DC_DENSE = 0, DC_STRIDED = 1, DC_CBLOCK = 2 };

static void
encode_dc (const DcCase *c, SimaEv74Descriptor *d)
{
  SimaTensorSpec in, out;
  SimaDetessCastRequest req;
  SimaDetessCastPlan plan;
  SimaEv74Binding bi, bo;
  SimaStatus st;

  memset (&in, 0, sizeof in);
  in.rank = c->rank;
  in.dtype = SIMA_DTYPE_BFLOAT16;
  memcpy (in.shape, c->shape, sizeof in.shape);
  out = in;
  in.layout = SIMA_LAYOUT_MLA_TILED;
  memcpy (in.tiled.axes, c->axes, sizeof in.tiled.axes);
  memcpy (in.tiled.tile_shape, c->tile, sizeof in.tiled.tile_shape);
  in.tiled.channels = c->channels;
  in.tiled.cblock = c->cblock;
  out.dtype = c->dtype;
  out.layout = c->strides[0] ? SIMA_LAYOUT_STRIDED : SIMA_LAYOUT_CONTIGUOUS;
  if (out.layout == SIMA_LAYOUT_STRIDED)
    memcpy (out.strides_bytes, c->strides, sizeof out.strides_bytes);
  req.inputs = &in;
  req.n_inputs = 1;
  req.outputs = &out;
  req.n_outputs = 1;
  st = sima_detesscast_check_inference (&req, &plan);
  if (!sima_status_is_ok (&st))
    die (c->name, &st);
  st = sima_ev74_detesscast_encode_relocatable (&plan, d);
  if (!sima_status_is_ok (&st))
    die (c->name, &st);
  bi.bus_address = c->in_bus ? c->in_bus : IN_BUS;
  bi.length = plan.input_bytes;
  bo.bus_address = c->out_bus ? c->out_bus : OUT_BUS;
  bo.length = plan.output_bytes;
  st = sima_ev74_descriptor_bind (d, &bi, &bo);
  if (!sima_status_is_ok (&st))
    die (c->name, &st);
}

#define DCO(field) SIMA_EV74_DC_OFF (field)

static const struct {
  const char *name;
  unsigned base;
} dc_mutations[] = {
  { "flags-unknown-4", DC_DENSE },
  { "strided-flag-without-strides", DC_DENSE },
  { "strided-with-row-major-strides", DC_DENSE },
  { "cblock-with-compact-channels", DC_STRIDED },
  { "output-dtype-f16", DC_DENSE },
  { "output-dtype-int8", DC_DENSE },
  { "output-dtype-uint8", DC_DENSE },
  { "reserved0-nonzero", DC_DENSE },
  { "reserved1-nonzero", DC_DENSE },
  { "reserved2-nonzero", DC_DENSE },
  { "channels-2", DC_DENSE },
  { "rank-7", DC_DENSE },
  { "unused-shape-slot", DC_DENSE },
  { "element-count-mismatch", DC_DENSE },
  { "input-span-int8-sized", DC_CBLOCK },
  { "output-span-mismatch", DC_STRIDED },
  { "output-misaligned", DC_DENSE },
  { "input-misaligned", DC_DENSE },
  { "overlapping-buffers", DC_DENSE },
  { "unused-stride-slot", DC_STRIDED },
  { "overlapping-output-strides", DC_STRIDED },
  { "truncated-167", DC_DENSE },
  { "version-2", DC_DENSE },
  { "route-50", DC_DENSE },
  /* valid once the target's patch bits repaired them */
  { "stale-fields-patched-by-target", DC_DENSE },
};
enum { DC_MUTATIONS = sizeof dc_mutations / sizeof dc_mutations[0],
  DC_PATCHED = DC_MUTATIONS - 1 };

static size_t
mutate_dc (unsigned m, uint8_t *b, size_t len)
{
  unsigned flags = sima_ev74_get_u16 (b, DCO (flags));

  switch (m) {
    case 0: sima_ev74_put_u16 (b, DCO (flags), (uint16_t) (flags | 4)); break;
    case 1: sima_ev74_put_u16 (b, DCO (flags), (uint16_t) (flags | 1)); break;
    case 2: {                 /* {8,16,3} FP32 row-major: 192, 12, 4 */
      static const int64_t rm[3] = { 192, 12, 4 };
      int i;
      sima_ev74_put_u16 (b, DCO (flags), (uint16_t) (flags | 1));
      for (i = 0; i < 6; i++)
        sima_ev74_put_i64 (b, 168 + 8 * (size_t) i, i < 3 ? rm[i] : 0);
      len = 216;
      sima_ev74_put_u16 (b, SIMA_EV74_OFF_LENGTH, 216);
      break;
    }
    case 3:
      sima_ev74_put_u16 (b, DCO (flags), (uint16_t) (flags | 2));
      b[DCO (channels)] = 0;
      break;
    case 4: b[DCO (output_dtype)] = SIMA_DTYPE_FLOAT16; break;
    case 5: b[DCO (output_dtype)] = SIMA_DTYPE_INT8; break;
    case 6: b[DCO (output_dtype)] = SIMA_DTYPE_UINT8; break;
    case 7: b[DCO (reserved0) + 4] = 1; break;
    case 8: b[DCO (reserved1) + 1] = 1; break;
    case 9: b[DCO (reserved2) + 7] = 0x80; break;
    case 10: b[DCO (channels)] = 2; break;
    case 11: b[DCO (rank)] = 7; break;
    case 12: sima_ev74_put_i64 (b, DCO (shape) + 8 * 5, 1); break;
    case 13:
      sima_ev74_put_u64 (b, DCO (element_count),
          sima_ev74_get_u64 (b, DCO (element_count)) + 1);
      break;
    case 14:
      sima_ev74_put_u64 (b, SIMA_EV74_OFF_INPUT_SPAN,
          sima_ev74_get_u64 (b, SIMA_EV74_OFF_INPUT_SPAN) / 2);
      break;
    case 15:
      sima_ev74_put_u64 (b, SIMA_EV74_OFF_OUTPUT_SPAN,
          sima_ev74_get_u64 (b, SIMA_EV74_OFF_OUTPUT_SPAN) + 2);
      break;
    case 16:
      sima_ev74_put_u64 (b, SIMA_EV74_OFF_OUTPUT_ADDRESS,
          sima_ev74_get_u64 (b, SIMA_EV74_OFF_OUTPUT_ADDRESS) + 2);
      break;
    case 17:
      sima_ev74_put_u64 (b, SIMA_EV74_OFF_INPUT_ADDRESS,
          sima_ev74_get_u64 (b, SIMA_EV74_OFF_INPUT_ADDRESS) + 8);
      break;
    case 18:
      sima_ev74_put_u64 (b, SIMA_EV74_OFF_OUTPUT_ADDRESS,
          sima_ev74_get_u64 (b, SIMA_EV74_OFF_INPUT_ADDRESS) + 16);
      break;
    case 19: sima_ev74_put_i64 (b, 168 + 8 * 5, 2); break;
    case 20: sima_ev74_put_i64 (b, 168 + 8 * 2, 4); break;
    case 21: len = 167; sima_ev74_put_u16 (b, SIMA_EV74_OFF_LENGTH, 167); break;
    case 22: sima_ev74_put_u16 (b, DCO (version), 2); break;
    case 23: sima_ev74_put_u16 (b, SIMA_EV74_OFF_ROUTE, 50); break;
    default:
      /* a taller image with stale spans, count, length field and CRC */
      sima_ev74_put_i64 (b, DCO (shape), sima_ev74_get_i64 (b, DCO (shape))
          + 5);
      b[SIMA_EV74_OFF_LENGTH] ^= 0x20;
      return len;
  }
  refresh_crc (b, len);
  return len;
}

static SimaDetessCastSetPlan ts_dc;

/* Three DetessCast members as one container: cblock -> FP32, compact ->
 * pitched BF16, pad16 -> FP32; inputs back to back, outputs with gaps. */
static void
encode_dc_set (SimaEv74Descriptor *d)
{
  SimaTensorSet in, out;
  SimaDetessCastSetRequest r = { &in, &out };
  SimaStatus st;

  memset (&in, 0, sizeof in);
  memset (&out, 0, sizeof out);
  in.n_members = out.n_members = 3;
  in.members[0].spec = ts_tiled (SIMA_DTYPE_BFLOAT16, 2, 3, 40, 1, 3, 48,
      SIMA_CHANNELS_PAD16);
  in.members[0].spec.tiled.cblock = 1;
  out.members[0].spec = ts_dense (SIMA_DTYPE_FLOAT32, 2, 3, 40);
  in.members[1].spec = ts_tiled (SIMA_DTYPE_BFLOAT16, 4, 4, 6, 1, 4, 6,
      SIMA_CHANNELS_COMPACT);
  in.members[1].offset = 576;
  out.members[1].spec = ts_dense (SIMA_DTYPE_BFLOAT16, 4, 4, 6);
  out.members[1].spec.layout = SIMA_LAYOUT_STRIDED;
  out.members[1].spec.strides_bytes[0] = 70;
  out.members[1].spec.strides_bytes[1] = 16;
  out.members[1].spec.strides_bytes[2] = 2;
  out.members[1].offset = 996;
  in.members[2].spec = ts_tiled (SIMA_DTYPE_BFLOAT16, 3, 5, 3, 2, 2, 2,
      SIMA_CHANNELS_PAD16);
  in.members[2].offset = 768;
  out.members[2].spec = ts_dense (SIMA_DTYPE_FLOAT32, 3, 5, 3);
  out.members[2].offset = 1296;
  st = sima_detesscast_set_check_inference (&r, &ts_dc);
  if (st.code == SIMA_OK)
    st = sima_ev74_detesscast_set_encode_relocatable (&ts_dc, d);
  if (st.code != SIMA_OK)
    die ("DetessCast set", &st);
  ts_bind (d, ts_dc.input_bytes, ts_dc.output_bytes);
}

static void
write_dc_seeds (const char *dir)
{
  static SimaEv74Descriptor d;
  char name[128];
  unsigned i;

  for (i = 0; i < sizeof dc_cases / sizeof dc_cases[0]; i++) {
    uint8_t prefix[6] = { dc_cases[i].b0, dc_cases[i].b1, FOLLOW_IN,
      FOLLOW_OUT, 0, (uint8_t) (200 + i) };
    encode_dc (&dc_cases[i], &d);
    snprintf (name, sizeof name, "valid-dc-%02u-%s", i, dc_cases[i].name);
    write_seed (dir, name, prefix, d.bytes, d.length);
  }
  for (i = 0; i < DC_MUTATIONS; i++) {
    int patched = i >= DC_PATCHED;
    uint8_t prefix[6] = { B0 (2, i & 1, patched, 1 + patched, 0),
      B1 (0, patched, patched, 0), FOLLOW, 0, (uint8_t) (220 + i) };
    size_t len;
    encode_dc (&dc_cases[dc_mutations[i].base], &d);
    len = mutate_dc (i, d.bytes, d.length);
    snprintf (name, sizeof name, "malformed-dc-%02u-%s", i,
        dc_mutations[i].name);
    write_seed (dir, name, prefix, d.bytes, len);
  }
  {
    uint8_t prefix[6] = { B0 (2, 1, 0, 3, 0), B1 (0, 1, 0, 0), FOLLOW_IN,
      FOLLOW_OUT, 0, 250 };
    encode_dc_set (&d);
    write_seed (dir, "valid-ts-dc-00-3-members", prefix, d.bytes, d.length);
    /* member 1 moved to an input offset that is not 16-aligned */
    sima_ev74_put_u64 (d.bytes, 64 + 24, 584);
    refresh_crc (d.bytes, d.length);
    write_seed (dir, "malformed-ts-dc-00-member-misaligned", prefix,
        d.bytes, d.length);
  }
}

int
main (int argc, char **argv)
{
  /* static: a descriptor is 20 KiB since containers exist */
  static SimaEv74Descriptor d, m;
  char name[128];
  unsigned i;

  if (argc != 2) {
    fprintf (stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint8_t prefix[6] = { cases[i].b0, cases[i].b1, FOLLOW_IN, FOLLOW_OUT,
      0, (uint8_t) i };
    encode (&cases[i], &d);
    snprintf (name, sizeof name, "valid-%02u-%s", i, cases[i].name);
    write_seed (argv[1], name, prefix, d.bytes, d.length);
  }
  encode (&cases[0], &d);
  for (i = 0; i < sizeof variants / sizeof variants[0]; i++) {
    uint8_t prefix[6] = { variants[i].b0, variants[i].b1, variants[i].r0,
      variants[i].r1, 0, (uint8_t) i };
    snprintf (name, sizeof name, "setup-%02u-%s", i, variants[i].name);
    write_seed (argv[1], name, prefix, d.bytes, d.length);
  }
  for (i = 0; i < M_COUNT_OF; i++) {
    uint8_t prefix[6] = { B0 (2, i & 1, i == M_PATCHED_BY_TARGET, 1, 0),
      B1 (0, 0, i == M_PATCHED_BY_TARGET, 0), FOLLOW, 0, (uint8_t) i };
    size_t len;
    m = d;
    len = mutate ((Mutation) i, m.bytes, m.length);
    snprintf (name, sizeof name, "malformed-%02u-%s", i, mutation_names[i]);
    write_seed (argv[1], name, prefix, m.bytes, len);
  }

  for (i = 0; i < sizeof cast_cases / sizeof cast_cases[0]; i++) {
    uint8_t prefix[6] = { cast_cases[i].b0, cast_cases[i].b1, FOLLOW_IN,
      FOLLOW_OUT, 0, (uint8_t) (40 + i) };
    encode_cast (&cast_cases[i], &d);
    snprintf (name, sizeof name, "valid-ct-%02u-%s", i, cast_cases[i].name);
    write_seed (argv[1], name, prefix, d.bytes, d.length);
  }
  encode_cast (&cast_cases[0], &d);
  for (i = 0; i < CAST_MUTATIONS; i++) {
    uint8_t prefix[6] = { B0 (2, i & 1, i == CAST_PATCHED, 1, 0),
      B1 (0, 0, i == CAST_PATCHED, 0), FOLLOW, 0, (uint8_t) (60 + i) };
    size_t len;
    m = d;
    len = mutate_cast (i, m.bytes, m.length);
    snprintf (name, sizeof name, "malformed-ct-%02u-%s", i, cast_mutations[i]);
    write_seed (argv[1], name, prefix, m.bytes, len);
  }

  for (i = 0; i < sizeof dd_cases / sizeof dd_cases[0]; i++) {
    uint8_t prefix[6] = { dd_cases[i].b0, dd_cases[i].b1, FOLLOW_IN,
      FOLLOW_OUT, 0, (uint8_t) (80 + i) };
    encode_dd (&dd_cases[i], &d);
    snprintf (name, sizeof name, "valid-dd-%02u-%s", i, dd_cases[i].name);
    write_seed (argv[1], name, prefix, d.bytes, d.length);
  }
  for (i = 0; i < DD_MUTATIONS; i++) {
    int patched = i >= DD_PATCHED;
    uint8_t prefix[6] = { B0 (2, i & 1, patched, 1 + patched, 0),
      B1 (0, patched, patched, 0), FOLLOW, 0, (uint8_t) (120 + i) };
    size_t len;
    encode_dd (&dd_cases[dd_mutations[i].base], &m);
    len = mutate_dd (i, m.bytes, m.length);
    snprintf (name, sizeof name, "malformed-dd-%02u-%s", i,
        dd_mutations[i].name);
    write_seed (argv[1], name, prefix, m.bytes, len);
  }

  for (i = 0; i < 4; i++) {
    uint8_t prefix[6] = { set_seeds[i].b0, set_seeds[i].b1, FOLLOW_IN,
      FOLLOW_OUT, 0, (uint8_t) (160 + i) };
    encode_set (i, &d);
    snprintf (name, sizeof name, "valid-ts-%02u-%s", i, set_seeds[i].name);
    write_seed (argv[1], name, prefix, d.bytes, d.length);
  }
  for (i = 0; i < SET_MUTATIONS; i++) {
    int patched = i == SET_MUTATIONS - 1;
    uint8_t prefix[6] = { B0 (2, i & 1, patched, 2, 0),
      B1 (0, 1, patched, 0), FOLLOW, 0, (uint8_t) (170 + i) };
    encode_set (i % 2, &m);
    mutate_set (i, m.bytes, m.length);
    snprintf (name, sizeof name, "malformed-ts-%02u-%s", i, set_mutations[i]);
    write_seed (argv[1], name, prefix, m.bytes, m.length);
  }
  write_cblock_seeds (argv[1]);
  write_u8_seeds (argv[1]);
  write_dc_seeds (argv[1]);
  return 0;
}
