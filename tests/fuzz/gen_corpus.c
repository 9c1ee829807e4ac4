/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gen_corpus.c - writes the seed corpus of fuzz_native_entry.c:
 *
 *   gen-corpus DIR
 *
 * Valid QuantTess descriptors come from the host's own path (admission,
 * encode_relocatable, bind), so they are exactly what the elements submit;
 * the malformed ones are a valid descriptor with one field broken (CRC
 * recomputed unless the CRC is the point), so each reaches a different
 * check. Every seed carries the 6-byte setup prefix described in
 * fuzz_native_entry.c; most map regions that follow the descriptor's
 * bindings. The output is deterministic: the seeds are committed, and this
 * program regenerates them (reproducers saved by fuzzing are not touched).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simaai/kernels/ev74/quanttess.h>
#include <simaai/kernels/ev74/quanttess_wire.h>

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

#define QT(field) SIMA_EV74_QT_OFF (field)

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
  "route-50", "version-2", "flags-1", "reserved-nonzero", "rank-7",
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
    case M_FLAGS: sima_ev74_put_u16 (b, SIMA_EV74_OFF_FLAGS, 1); break;
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

int
main (int argc, char **argv)
{
  SimaEv74Descriptor d;
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
    SimaEv74Descriptor m = d;
    uint8_t prefix[6] = { B0 (2, i & 1, i == M_PATCHED_BY_TARGET, 1, 0),
      B1 (0, 0, i == M_PATCHED_BY_TARGET, 0), FOLLOW, 0, (uint8_t) i };
    size_t len = mutate ((Mutation) i, m.bytes, m.length);
    snprintf (name, sizeof name, "malformed-%02u-%s", i, mutation_names[i]);
    write_seed (argv[1], name, prefix, m.bytes, len);
  }
  return 0;
}
