/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz_native_entry.c - libFuzzer target for the EV74 firmware's entry,
 * simafw_native_entry() (firmware/native_entry.c), run on the host HAL.
 *
 * The firmware receives untrusted descriptor bytes for five routes:
 * QuantTess (49) and CastTess (51), which share the 232-byte pack layout
 * (pack_wire.h), DetessDequant (50, detessdequant_wire.h: 176 bytes plus
 * trailers chosen by its flags), DetessCast (52, detesscast_wire.h: 168
 * bytes, 216 with the strides trailer) and TensorSet (53, tensor_set_wire.h: a
 * container of 1-16 members of the others, modelled by model_container and
 * checked member by member by check_set). It must never crash, touch memory out of
 * bounds or hang, and must reject a malformed descriptor before its first
 * DMA. The sanitizers catch the first three; this file checks what the
 * firmware promises beyond that (check_run, check_transfer, check_job),
 * with per-route expectations taken from the core's admission (Model).
 *
 * Input format: a 6-byte prefix that sets up the "device", then the
 * descriptor bytes (handed to the entry as they are, unless the patch bits
 * ask for repairs).
 *
 *   byte 0  bits 0-1  number of mapped bus regions, 0-3
 *           bit  2    DMA model: 0 immediate, 1 deferred
 *           bit  3    patch the descriptor's length field (bytes 6-7) and
 *                     CRC (bytes 12-15) to match its bytes, so mutations
 *                     reach the checks behind the header
 *           bits 4-5  worker count - 1 (1-4 workers)
 *           bits 6-7  local memory per worker: 64 KiB (emulator default),
 *                     48 KiB (exactly two 18+6 KiB slot pairs), 48 KiB - 1
 *                     and 16 KiB (both too small for the pack worker)
 *   byte 1  bits 0-1  worker id, modulo the count
 *           bit  2    run every worker id in turn (the whole job) instead
 *           bit  3    with byte 0 bit 3: first repair the descriptor the way
 *                     the host encoder would write it for its route
 *                     (fix_descriptor): the length its route and flags call
 *                     for (bytes cut or zero-filled), DetessDequant's
 *                     EXACT_TABLE flag from its scale and the table from
 *                     the exact stages, the spans and element count the
 *                     core's admission derives, and short bound lengths
 *                     raised to the spans; so a mutated shape, tiling,
 *                     scale or flag reaches the workers
 *           bits 4-7  0-7: no fault; 8-15: the HAL fails the DMA command
 *                     number {0, 1, 2, 3, 4, 7, 16, 64}
 *   byte 2+i          region i (i < 3): low nibble picks its bus address
 *                     (region_bus), high nibble its size (region_length);
 *                     some choices follow the descriptor's own bindings so
 *                     that a mutated descriptor stays mapped
 *   byte 5            seed of the bytes the regions initially hold
 *   byte 6...         the descriptor
 *
 * Regions are at most 1 MiB (so an input stays fast) and under ASan exactly
 * their bytes are addressable (region_buffer), so AddressSanitizer sees any
 * access the host HAL would let through beyond them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simaai/kernels/ev74/detesscast_wire.h>
#include <simaai/kernels/ev74/detessdequant_wire.h>
#include <simaai/kernels/ev74/pack_wire.h>
#include <simaai/kernels/ev74/tensor_set_wire.h>
#include <simaai/kernels/ops/casttess.h>
#include <simaai/kernels/ops/detesscast.h>
#include <simaai/kernels/ops/detessdequant.h>
#include <simaai/kernels/ops/quanttess.h>

#include "hal/host/host_hal.h"
#include "native_entry.h"
#include "numerics/bf16_convert.h"
#include "numerics/dequant_exact.h"
#include "numerics/quant_exact.h"
#include "pack_fw.h"

/* Under AddressSanitizer the unused head of a region's buffer is poisoned
 * (see region_buffer); elsewhere these do nothing. */
#if defined(__SANITIZE_ADDRESS__)
#define FUZZ_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_ASAN 1
#endif
#endif
#ifdef FUZZ_ASAN
#include <sanitizer/asan_interface.h>
#else
#define ASAN_POISON_MEMORY_REGION(p, n) ((void) (p), (void) (n))
#define ASAN_UNPOISON_MEMORY_REGION(p, n) ((void) (p), (void) (n))
#endif

/* The checking code (walks over every element and span byte) is kept out
 * of libFuzzer's coverage: it would cost most of the time of an input in
 * comparison tracing and feed the fuzzer features of the oracle instead of
 * the firmware. */
#if defined(__clang__) && __clang_major__ >= 13
#define FUZZ_NO_COVERAGE __attribute__ ((no_sanitize ("coverage"), noinline))
#else
#define FUZZ_NO_COVERAGE
#endif

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

enum {
  PREFIX_BYTES = 6,
  MAX_REGIONS = 3,
  MAX_REGION_BYTES = 1 << 20,
};

static const uint32_t local_sizes[4] = { 65536, 49152, 49151, 16384 };
#define PK(field) SIMA_EV74_PACK_OFF (field)
#define DD(field) SIMA_EV74_DD_OFF (field)
#define DC(field) SIMA_EV74_DC_OFF (field)

static const int64_t fail_at[8] = { 0, 1, 2, 3, 4, 7, 16, 64 };

/* What the header claims, read the way the firmware reads it (0 for a
 * descriptor too short to hold the header). */
typedef struct {
  uint64_t in_bus, out_bus, in_span, out_span;
} Claims;

static Claims
read_claims (const uint8_t *d, size_t len)
{
  Claims c;
  memset (&c, 0, sizeof c);
  if (len >= SIMA_EV74_HEADER_BYTES) {
    c.in_bus = sima_ev74_get_u64 (d, SIMA_EV74_OFF_INPUT_ADDRESS);
    c.out_bus = sima_ev74_get_u64 (d, SIMA_EV74_OFF_OUTPUT_ADDRESS);
    c.in_span = sima_ev74_get_u64 (d, SIMA_EV74_OFF_INPUT_SPAN);
    c.out_span = sima_ev74_get_u64 (d, SIMA_EV74_OFF_OUTPUT_SPAN);
  }
  return c;
}

/* ---- the job as the core's admission sees it ---------------------------- */

/* The descriptor's fields put through the core's admission for its route,
 * independently of the firmware's decoders: what an accepted descriptor
 * must be, and what its job must read and write. Strict, it also applies
 * the byte rules of the specification (fields_canonical, the DetessDequant
 * encoding rules), so "the firmware accepted it" implies "admitted" here;
 * the repair step (fix_descriptor) uses the admission alone. */
typedef struct {
  int admitted;
  uint16_t route;
  unsigned flags;               /* DetessDequant's or DetessCast's */
  uint64_t element_count, input_bytes, output_bytes;
  uint64_t claimed_count;       /* the descriptor's element count field */
  /* pack: the dense input and the tiled output; DetessDequant: the tiled
   * input (channel-blocked as its tiled equivalent) and the dense output */
  SimaStridedView view;
  SimaTiledGeometry geometry;
  SimaDType in_dtype, out_dtype;
  SimaQuantTessParams quant;
  SimaDetessDequantParams dequant;
  unsigned in_scalar;           /* bytes read per element */
  unsigned out_scalar;          /* bytes written per element */
  unsigned max_reads;           /* times one input byte may be read */
  int single_owner;             /* a strided DetessDequant/DetessCast output */
  int is_set;                   /* route 53: the members are in set_model */
} Model;

/* Route 53: the members' own models and places (one container per input;
 * static, 16 models do not belong on the stack). */
static struct {
  size_t n;
  Model m[SIMA_EV74_TENSOR_SET_MAX_MEMBERS];
  uint64_t in_off[SIMA_EV74_TENSOR_SET_MAX_MEMBERS];
  uint64_t out_off[SIMA_EV74_TENSOR_SET_MAX_MEMBERS];
} set_model;

/* The routes whose input is tiled and output dense (workers own output
 * elements; only logical elements are read and written). */
static int
is_unpack (uint16_t route)
{
  return route == SIMA_EV74_ROUTE_DETESSDEQUANT
      || route == SIMA_EV74_ROUTE_DETESSCAST;
}

static uint64_t
gcd64 (uint64_t a, uint64_t b)
{
  while (b != 0) {
    uint64_t r = a % b;
    a = b;
    b = r;
  }
  return a;
}

/* CastTess tasks hold whole BF16 pixels unless a pixel's planes are too
 * large for that (firmware/pack_worker.c, class_chunk); only then may a
 * pixel be split between two tasks that both read its values. */
static int
pack_may_split_pixels (const Model *m)
{
  const SimaTiledGeometry *g = &m->geometry;
  uint64_t max = (SIMAFW_PACK_IN_SLOT / m->in_scalar < SIMAFW_PACK_OUT_SLOT
      ? SIMAFW_PACK_IN_SLOT / m->in_scalar : SIMAFW_PACK_OUT_SLOT)
      & ~(uint64_t) 15;
  int k;

  if (g->element_bytes == 1)
    return 0;
  for (k = 0; k < SIMA_TILE_CLASS_COUNT; k++) {
    /* a unit of whole channels: the pixel, or its 16-channel block (cblock) */
    uint64_t px = 2 * (uint64_t) (g->tiled.cblock ? 16
        : g->classes[k].stored_channels);
    if (g->classes[k].count > 0 && px > 0 && px / gcd64 (px, 16) * 16 > max
        && g->classes[k].span_bytes > max)
      return 1;
  }
  return 0;
}

static void
model_pack (const uint8_t *d, size_t len, Model *m)
{
  unsigned dtype, rank, layout, i;
  SimaTensorSpec in, out;
  SimaStatus st;

  if (len != SIMA_EV74_PACK_BYTES)
    return;
  dtype = d[PK (input_dtype)];
  rank = d[PK (rank)];
  layout = d[PK (input_layout)];
  m->claimed_count = sima_ev74_get_u64 (d, PK (element_count));
  /* docs/ev74-descriptors.md: input dtype 0 FP32, 1 FP16, 2 BF16, 4 UINT8 */
  if ((dtype > SIMA_DTYPE_BFLOAT16 && dtype != SIMA_DTYPE_UINT8) || rank < 1
      || rank > SIMA_MAX_RANK || layout > SIMA_LAYOUT_STRIDED)
    return;
  memset (&in, 0, sizeof in);
  in.rank = (int) rank;
  in.dtype = (SimaDType) dtype;
  in.layout = (SimaLayout) layout;
  for (i = 0; i < rank; i++) {
    in.shape[i] = sima_ev74_get_i64 (d, PK (shape) + 8 * (size_t) i);
    if (layout == SIMA_LAYOUT_STRIDED)
      in.strides_bytes[i] =
          sima_ev74_get_i64 (d, PK (input_strides) + 8 * (size_t) i);
  }
  out = in;
  out.dtype = m->route == SIMA_EV74_ROUTE_QUANTTESS ? SIMA_DTYPE_INT8
      : SIMA_DTYPE_BFLOAT16;
  out.layout = SIMA_LAYOUT_MLA_TILED;
  memset (out.strides_bytes, 0, sizeof out.strides_bytes);
  for (i = 0; i < 4; i++) {
    out.tiled.axes[i] = (int8_t) d[PK (axes) + i];
    out.tiled.tile_shape[i] =
        sima_ev74_get_i64 (d, PK (tile_shape) + 8 * (size_t) i);
  }
  out.tiled.channels = (SimaChannels) d[PK (channels)];
  out.tiled.cblock = (sima_ev74_get_u16 (d, SIMA_EV74_OFF_FLAGS)
      & SIMA_EV74_PACK_FLAG_CBLOCK) != 0;

  if (m->route == SIMA_EV74_ROUTE_QUANTTESS) {
    SimaQuantTessRequest req;
    SimaQuantTessPlan plan;
    uint32_t bits = sima_ev74_get_u32 (d, PK (multiplier_bits));
    memset (&req, 0, sizeof req);
    req.inputs = &in;
    req.n_inputs = 1;
    req.outputs = &out;
    req.n_outputs = 1;
    memcpy (&req.params.multiplier, &bits, sizeof bits);
    req.params.zero_point = sima_ev74_get_i32 (d, PK (zero_point));
    req.params.rounding = (SimaRounding) d[PK (rounding)];
    st = sima_quanttess_check_inference (&req, &plan);
    if (!sima_status_is_ok (&st))
      return;
    m->view = plan.input_view;
    m->geometry = plan.output_geometry;
    m->quant = plan.params;
    m->element_count = plan.element_count;
    m->input_bytes = plan.input_bytes;
    m->output_bytes = plan.output_bytes;
  } else {
    SimaCastTessRequest req = { &in, 1, &out, 1 };
    SimaCastTessPlan plan;
    st = sima_casttess_check_inference (&req, &plan);
    if (!sima_status_is_ok (&st))
      return;
    m->view = plan.input_view;
    m->geometry = plan.output_geometry;
    m->element_count = plan.element_count;
    m->input_bytes = plan.input_bytes;
    m->output_bytes = plan.output_bytes;
  }
  m->in_dtype = in.dtype;
  m->out_dtype = out.dtype;
  m->in_scalar = (unsigned) m->view.scalar_bytes;
  m->out_scalar = (unsigned) m->geometry.element_bytes;
  m->max_reads = pack_may_split_pixels (m) ? 2 : 1;
  m->admitted = 1;
}

static uint32_t
dequant_entry (int fp32, int i, uint32_t scale_bits, int32_t zp,
    SimaScaleConvention convention)
{
  int8_t q = (int8_t) (uint8_t) i;
  int divide = convention == SIMA_SCALE_DIVIDE;
  return fp32 ? sima_dequant_f32_bits (q, scale_bits, zp, divide)
      : sima_dequant_bf16_bits (q, scale_bits, zp, divide);
}

/* strict: also the encoding rules behind the admission (a STRIDED output
 * that is not row-major; the exact table present exactly for a subnormal
 * scale, entry by entry right). The repair step needs only the admission. */
static void
model_detessdequant (const uint8_t *d, size_t len, int strict, Model *m)
{
  SimaDetessDequantRequest req;
  SimaDetessDequantPlan plan;
  SimaTensorSpec in, out;
  unsigned flags, dtype, rank, scalar, i;
  uint32_t scale_bits;
  SimaStatus st;

  if (len < SIMA_EV74_DETESSDEQUANT_BASE_BYTES)
    return;
  flags = sima_ev74_get_u16 (d, DD (flags));
  dtype = d[DD (output_dtype)];
  rank = d[DD (rank)];
  m->claimed_count = sima_ev74_get_u64 (d, DD (element_count));
  if ((flags & ~(unsigned) SIMA_EV74_DD_FLAGS_KNOWN)
      || (dtype != SIMA_DTYPE_FLOAT32 && dtype != SIMA_DTYPE_BFLOAT16)
      || rank < 1 || rank > SIMA_MAX_RANK)
    return;
  scalar = dtype == SIMA_DTYPE_FLOAT32 ? 4 : 2;
  if (len != sima_ev74_detessdequant_length (flags, scalar))
    return;
  memset (&in, 0, sizeof in);
  in.rank = (int) rank;
  in.dtype = SIMA_DTYPE_INT8;
  for (i = 0; i < rank; i++)
    in.shape[i] = sima_ev74_get_i64 (d, DD (shape) + 8 * (size_t) i);
  out = in;
  out.dtype = (SimaDType) dtype;
  out.layout = SIMA_LAYOUT_CONTIGUOUS;
  if (flags & SIMA_EV74_DD_FLAG_STRIDED) {
    out.layout = SIMA_LAYOUT_STRIDED;
    for (i = 0; i < rank; i++)
      out.strides_bytes[i] = sima_ev74_get_i64 (d,
          SIMA_EV74_DETESSDEQUANT_BASE_BYTES + 8 * (size_t) i);
  }
  if (flags & SIMA_EV74_DD_FLAG_CBLOCKED) {
    in.layout = SIMA_LAYOUT_MLA_CBLOCKED;
  } else {
    in.layout = SIMA_LAYOUT_MLA_TILED;
    in.tiled.channels = (SimaChannels) d[DD (channels)];
    in.tiled.cblock = (flags & SIMA_EV74_DD_FLAG_CBLOCK) != 0;
    for (i = 0; i < 4; i++) {
      in.tiled.axes[i] = (int8_t) d[DD (axes) + i];
      in.tiled.tile_shape[i] =
          sima_ev74_get_i64 (d, DD (tile_shape) + 8 * (size_t) i);
    }
  }
  memset (&req, 0, sizeof req);
  req.inputs = &in;
  req.n_inputs = 1;
  req.outputs = &out;
  req.n_outputs = 1;
  scale_bits = sima_ev74_get_u32 (d, DD (scale_bits));
  memcpy (&req.params.scale, &scale_bits, sizeof scale_bits);
  req.params.zero_point = sima_ev74_get_i32 (d, DD (zero_point));
  req.params.convention = (flags & SIMA_EV74_DD_FLAG_DIVIDE)
      ? SIMA_SCALE_DIVIDE : SIMA_SCALE_MULTIPLY;
  st = sima_detessdequant_check_inference (&req, &plan);
  if (!sima_status_is_ok (&st))
    return;
  if (strict) {
    int subnormal = (scale_bits & 0x7f800000u) == 0;
    if ((flags & SIMA_EV74_DD_FLAG_STRIDED)
        && sima_strided_view_is_row_major (&plan.output_view))
      return;
    if (subnormal != ((flags & SIMA_EV74_DD_FLAG_EXACT_TABLE) != 0))
      return;
    if (flags & SIMA_EV74_DD_FLAG_EXACT_TABLE) {
      uint32_t at = sima_ev74_detessdequant_table_offset (flags);
      int k;
      for (k = 0; k < 256; k++) {
        uint32_t want = dequant_entry (scalar == 4, k, scale_bits,
            req.params.zero_point, req.params.convention);
        if (want != (scalar == 4 ? sima_ev74_get_u32 (d, at + 4 * (size_t) k)
                : sima_ev74_get_u16 (d, at + 2 * (size_t) k)))
          return;
      }
    }
  }
  m->flags = flags;
  m->view = plan.output_view;
  m->geometry = plan.input_geometry;
  m->dequant = plan.params;
  m->element_count = plan.element_count;
  m->input_bytes = plan.input_bytes;
  m->output_bytes = plan.output_bytes;
  m->in_dtype = SIMA_DTYPE_INT8;
  m->out_dtype = (SimaDType) dtype;
  m->in_scalar = 1;
  m->out_scalar = scalar;
  m->max_reads = 1;
  m->single_owner = (flags & SIMA_EV74_DD_FLAG_STRIDED) != 0;
  m->admitted = 1;
}

/* Route 52 (docs/ev74-descriptors.md, "DetessCast v1"): the fields
 * restated and put through sima_detesscast_check_inference; strict: a
 * STRIDED output must not be row-major. */
static void
model_detesscast (const uint8_t *d, size_t len, int strict, Model *m)
{
  SimaDetessCastRequest req;
  SimaDetessCastPlan plan;
  SimaTensorSpec in, out;
  unsigned flags, dtype, rank, i;
  SimaStatus st;

  if (len < SIMA_EV74_DETESSCAST_BASE_BYTES)
    return;
  flags = sima_ev74_get_u16 (d, DC (flags));
  dtype = d[DC (output_dtype)];
  rank = d[DC (rank)];
  m->claimed_count = sima_ev74_get_u64 (d, DC (element_count));
  if ((flags & ~(unsigned) SIMA_EV74_DC_FLAGS_KNOWN)
      || (dtype != SIMA_DTYPE_FLOAT32 && dtype != SIMA_DTYPE_BFLOAT16)
      || rank < 1 || rank > SIMA_MAX_RANK
      || len != (flags & SIMA_EV74_DC_FLAG_STRIDED ? 216u : 168u))
    return;
  memset (&in, 0, sizeof in);
  in.rank = (int) rank;
  in.dtype = SIMA_DTYPE_BFLOAT16;
  in.layout = SIMA_LAYOUT_MLA_TILED;
  for (i = 0; i < rank; i++)
    in.shape[i] = sima_ev74_get_i64 (d, DC (shape) + 8 * (size_t) i);
  in.tiled.channels = (SimaChannels) d[DC (channels)];
  in.tiled.cblock = (flags & SIMA_EV74_DC_FLAG_CBLOCK) != 0;
  for (i = 0; i < 4; i++) {
    in.tiled.axes[i] = (int8_t) d[DC (axes) + i];
    in.tiled.tile_shape[i] =
        sima_ev74_get_i64 (d, DC (tile_shape) + 8 * (size_t) i);
  }
  memset (&out, 0, sizeof out);
  out.rank = (int) rank;
  memcpy (out.shape, in.shape, sizeof out.shape);
  out.dtype = (SimaDType) dtype;
  out.layout = SIMA_LAYOUT_CONTIGUOUS;
  if (flags & SIMA_EV74_DC_FLAG_STRIDED) {
    out.layout = SIMA_LAYOUT_STRIDED;
    for (i = 0; i < rank; i++)
      out.strides_bytes[i] = sima_ev74_get_i64 (d, 168 + 8 * (size_t) i);
  }
  memset (&req, 0, sizeof req);
  req.inputs = &in;
  req.n_inputs = 1;
  req.outputs = &out;
  req.n_outputs = 1;
  st = sima_detesscast_check_inference (&req, &plan);
  if (!sima_status_is_ok (&st))
    return;
  if (strict && (flags & SIMA_EV74_DC_FLAG_STRIDED)
      && sima_strided_view_is_row_major (&plan.output_view))
    return;
  m->flags = flags;
  m->view = plan.output_view;
  m->geometry = plan.input_geometry;
  m->element_count = plan.element_count;
  m->input_bytes = plan.input_bytes;
  m->output_bytes = plan.output_bytes;
  m->in_dtype = SIMA_DTYPE_BFLOAT16;
  m->out_dtype = (SimaDType) dtype;
  m->in_scalar = 2;             /* its low and its high byte */
  m->out_scalar = dtype == SIMA_DTYPE_FLOAT32 ? 4 : 2;
  m->max_reads = 1;
  m->single_owner = (flags & SIMA_EV74_DC_FLAG_STRIDED) != 0;
  m->admitted = 1;
}

/* The byte rules of docs/ev74-descriptors.md that the admission does not
 * see: version 1, reserved bytes and slots beyond the rank zero, no pack
 * flags but CBLOCK, no CBLOCK with CBLOCKED, no strides for a contiguous input, no CastTess parameters, no
 * tiling fields for a channel-blocked input. For an admitted model only. */
static int
fields_canonical (const uint8_t *d, const Model *m)
{
  size_t rank = (size_t) m->view.rank, i;

  if (sima_ev74_get_u16 (d, SIMA_EV74_OFF_VERSION) != 1)
    return 0;
  if (m->route == SIMA_EV74_ROUTE_DETESSCAST) {
    int strided = (m->flags & SIMA_EV74_DC_FLAG_STRIDED) != 0;
    return sima_ev74_all_zero (d, 59, 5) && sima_ev74_all_zero (d, 116, 4)
        && sima_ev74_all_zero (d, 160, 8)
        && sima_ev74_all_zero (d, DC (shape) + 8 * rank, 8 * (6 - rank))
        && (!strided || sima_ev74_all_zero (d, 168 + 8 * rank,
                8 * (6 - rank)));
  }
  if (m->route == SIMA_EV74_ROUTE_DETESSDEQUANT) {
    int strided = (m->flags & SIMA_EV74_DD_FLAG_STRIDED) != 0;
    if (!sima_ev74_all_zero (d, DD (reserved0), 5)
        || !sima_ev74_all_zero (d, DD (reserved1), 4)
        || !sima_ev74_all_zero (d, DD (reserved2), 8)
        || !sima_ev74_all_zero (d, DD (shape) + 8 * rank, 8 * (6 - rank))
        || (strided && !sima_ev74_all_zero (d,
                SIMA_EV74_DETESSDEQUANT_BASE_BYTES + 8 * rank,
                8 * (6 - rank))))
      return 0;
    return !(m->flags & SIMA_EV74_DD_FLAG_CBLOCKED)
        || (d[DD (channels)] == 0 && sima_ev74_all_zero (d, DD (axes), 4)
            && sima_ev74_all_zero (d, DD (tile_shape), 32)
            && !(m->flags & SIMA_EV74_DD_FLAG_CBLOCK));
  }
  if ((sima_ev74_get_u16 (d, SIMA_EV74_OFF_FLAGS)
          & ~(unsigned) SIMA_EV74_PACK_FLAGS_KNOWN)
      || !sima_ev74_all_zero (d, PK (reserved0), 3)
      || !sima_ev74_all_zero (d, PK (reserved1), 4)
      || !sima_ev74_all_zero (d, PK (reserved2), 16)
      || !sima_ev74_all_zero (d, PK (shape) + 8 * rank, 8 * (6 - rank)))
    return 0;
  for (i = 0; i < 6; i++)
    if ((i >= rank || d[PK (input_layout)] == SIMA_LAYOUT_CONTIGUOUS)
        && sima_ev74_get_i64 (d, PK (input_strides) + 8 * i) != 0)
      return 0;
  return m->route != SIMA_EV74_ROUTE_CASTTESS
      || (d[PK (rounding)] == 0 && sima_ev74_get_u32 (d, PK (zero_point)) == 0
          && sima_ev74_get_u32 (d, PK (multiplier_bits)) == 0);
}

static void model_build (const uint8_t *d, size_t len, int strict, Model *m);

/* Route 53, from docs/ev74-descriptors.md ("TensorSet v1") restated: the
 * container's fields, members tiling it at 8-byte aligned starts with zero
 * padding, each member a relocatable descriptor of route 49-52 with its own
 * CRC that its own model admits (strict), offsets below 2^32 and, for a
 * member with bytes on that side, not beyond the container's bound length;
 * then the set rules written out here (not sima_tensor_set_check):
 * nonempty members aligned (16 on the tiled side, the scalar on the dense
 * side) and pairwise disjoint, and the spans equal to the capacities
 * max(offset + span). strict = 0 (the repair) skips only the last rule. */
static void
model_container (const uint8_t *d, size_t len, int strict, Model *m)
{
  static uint8_t member[SIMA_EV74_TENSOR_SET_MEMBER_MAX_BYTES];
  uint64_t in_cap = 0, out_cap = 0, count_sum = 0;
  uint32_t in_bound, out_bound;
  size_t n, k, j, at;

  if (len < SIMA_EV74_TENSOR_SET_TABLE || len > SIMA_EV74_DESCRIPTOR_MAX_BYTES
      || sima_ev74_get_u16 (d, SIMA_EV74_OFF_VERSION) != 1
      || sima_ev74_get_u16 (d, SIMA_EV74_OFF_FLAGS) != 0
      || !sima_ev74_all_zero (d, 57, 7))
    return;
  n = d[SIMA_EV74_HEADER_BYTES];
  if (n < 1 || n > SIMA_EV74_TENSOR_SET_MAX_MEMBERS || len < 64 + 24 * n)
    return;
  in_bound = sima_ev74_get_u32 (d, SIMA_EV74_OFF_INPUT_LENGTH);
  out_bound = sima_ev74_get_u32 (d, SIMA_EV74_OFF_OUTPUT_LENGTH);
  at = 64 + 24 * n;
  for (k = 0; k < n; k++) {
    size_t e = 64 + 24 * k, start = (at + 7) & ~(size_t) 7;
    size_t ml = sima_ev74_get_u16 (d, e + 16);
    Model *mm = &set_model.m[k];
    uint64_t io = sima_ev74_get_u64 (d, e), oo = sima_ev74_get_u64 (d, e + 8);
    if (!sima_ev74_all_zero (d, e + 18, 6) || ml < 56 || ml > sizeof member
        || start > len || ml > len - start || !sima_ev74_all_zero (d, at,
            start - at))
      return;
    memcpy (member, d + start, ml);
    if (sima_ev74_get_u32 (member, 0) != SIMA_EV74_MAGIC
        || sima_ev74_get_u16 (member, SIMA_EV74_OFF_LENGTH) != ml
        || sima_ev74_get_u32 (member, SIMA_EV74_OFF_CRC)
        != sima_ev74_descriptor_crc (member, ml)
        || !sima_ev74_all_zero (member, 16, 24))
      return;
    switch (sima_ev74_get_u16 (member, SIMA_EV74_OFF_ROUTE)) {
      case SIMA_EV74_ROUTE_QUANTTESS:
      case SIMA_EV74_ROUTE_CASTTESS:
      case SIMA_EV74_ROUTE_DETESSDEQUANT:
      case SIMA_EV74_ROUTE_DETESSCAST:
        break;
      default:
        return;
    }
    model_build (member, ml, 1, mm);
    if (!mm->admitted || mm->is_set
        || mm->input_bytes != sima_ev74_get_u64 (member, SIMA_EV74_OFF_INPUT_SPAN)
        || mm->output_bytes != sima_ev74_get_u64 (member,
            SIMA_EV74_OFF_OUTPUT_SPAN)
        || mm->element_count != mm->claimed_count
        || io > UINT32_MAX || oo > UINT32_MAX
        || (mm->input_bytes > 0 && io > in_bound)
        || (mm->output_bytes > 0 && oo > out_bound))
      return;
    /* tiled side 16, dense side its scalar: pack reads dense, writes tiles */
    if (is_unpack (mm->route)
        ? (mm->input_bytes > 0 && io % 16 != 0)
        || (mm->output_bytes > 0 && oo % mm->out_scalar != 0)
        : (mm->input_bytes > 0 && io % mm->in_scalar != 0)
        || (mm->output_bytes > 0 && oo % 16 != 0))
      return;
    for (j = 0; j < k; j++) {
      const Model *o = &set_model.m[j];
      uint64_t pi = set_model.in_off[j], po = set_model.out_off[j];
      if ((mm->input_bytes > 0 && o->input_bytes > 0 && io < pi + o->input_bytes
              && pi < io + mm->input_bytes)
          || (mm->output_bytes > 0 && o->output_bytes > 0
              && oo < po + o->output_bytes && po < oo + mm->output_bytes))
        return;
    }
    set_model.in_off[k] = io;
    set_model.out_off[k] = oo;
    if (mm->input_bytes > 0 && io + mm->input_bytes > in_cap)
      in_cap = io + mm->input_bytes;
    if (mm->output_bytes > 0 && oo + mm->output_bytes > out_cap)
      out_cap = oo + mm->output_bytes;
    count_sum += mm->element_count;
    at = start + ml;
  }
  if (at != len)
    return;
  if (strict && (in_cap != sima_ev74_get_u64 (d, SIMA_EV74_OFF_INPUT_SPAN)
          || out_cap != sima_ev74_get_u64 (d, SIMA_EV74_OFF_OUTPUT_SPAN)))
    return;
  set_model.n = n;
  m->is_set = 1;
  m->input_bytes = in_cap;
  m->output_bytes = out_cap;
  m->element_count = m->claimed_count = count_sum;
  m->max_reads = 1;
  m->admitted = 1;
}

static void
model_build (const uint8_t *d, size_t len, int strict, Model *m)
{
  memset (m, 0, sizeof *m);
  if (len < SIMA_EV74_HEADER_BYTES)
    return;
  m->route = sima_ev74_get_u16 (d, SIMA_EV74_OFF_ROUTE);
  if (m->route == SIMA_EV74_ROUTE_QUANTTESS
      || m->route == SIMA_EV74_ROUTE_CASTTESS)
    model_pack (d, len, m);
  else if (m->route == SIMA_EV74_ROUTE_DETESSDEQUANT)
    model_detessdequant (d, len, strict, m);
  else if (m->route == SIMA_EV74_ROUTE_DETESSCAST)
    model_detesscast (d, len, strict, m);
  else if (m->route == SIMA_EV74_ROUTE_TENSOR_SET)
    model_container (d, len, strict, m);
  if (m->admitted && strict && !m->is_set && !fields_canonical (d, m))
    m->admitted = 0;
}

/* Route 53's repair: each member's length field from its table entry, its
 * relocation block zeroed and its CRC redone, as far as the table and the
 * bytes go; then, when the members pass (model_container, spans aside), the
 * container's spans from the capacities and short bound lengths raised. */
static uint8_t *
fix_container (uint8_t *d, size_t len)
{
  size_t n, k, at;
  Model m;

  if (len < SIMA_EV74_TENSOR_SET_TABLE)
    return d;
  n = d[SIMA_EV74_HEADER_BYTES];
  if (n < 1 || n > SIMA_EV74_TENSOR_SET_MAX_MEMBERS || len < 64 + 24 * n)
    return d;
  at = 64 + 24 * n;
  for (k = 0; k < n; k++) {
    size_t start = (at + 7) & ~(size_t) 7;
    size_t ml = sima_ev74_get_u16 (d, 64 + 24 * k + 16);
    if (ml < SIMA_EV74_HEADER_BYTES || start > len || ml > len - start)
      break;
    sima_ev74_put_u16 (d + start, SIMA_EV74_OFF_LENGTH, (uint16_t) ml);
    memset (d + start + 16, 0, 24);
    sima_ev74_put_u32 (d + start, SIMA_EV74_OFF_CRC,
        sima_ev74_descriptor_crc (d + start, ml));
    at = start + ml;
  }
  model_container (d, len, 0, &m);
  if (!m.admitted)
    return d;
  sima_ev74_put_u64 (d, SIMA_EV74_OFF_INPUT_SPAN, m.input_bytes);
  sima_ev74_put_u64 (d, SIMA_EV74_OFF_OUTPUT_SPAN, m.output_bytes);
  if (sima_ev74_get_u32 (d, SIMA_EV74_OFF_INPUT_LENGTH) < m.input_bytes)
    sima_ev74_put_u32 (d, SIMA_EV74_OFF_INPUT_LENGTH, (uint32_t) m.input_bytes);
  if (sima_ev74_get_u32 (d, SIMA_EV74_OFF_OUTPUT_LENGTH) < m.output_bytes)
    sima_ev74_put_u32 (d, SIMA_EV74_OFF_OUTPUT_LENGTH,
        (uint32_t) m.output_bytes);
  return d;
}

/* See byte 1 bit 3: the repairs a host encoder would have made. Returns the
 * (possibly reallocated, always exact-size) descriptor. */
static uint8_t *
fix_descriptor (uint8_t *d, size_t *lenp)
{
  size_t len = *lenp, want;
  unsigned flags = 0, scalar = 0;
  uint32_t scale_bits = 0;
  uint16_t route;
  Model m;

  if (len < SIMA_EV74_HEADER_BYTES)
    return d;
  route = sima_ev74_get_u16 (d, SIMA_EV74_OFF_ROUTE);
  if (route == SIMA_EV74_ROUTE_TENSOR_SET)
    return fix_container (d, len);
  if (route == SIMA_EV74_ROUTE_QUANTTESS || route == SIMA_EV74_ROUTE_CASTTESS) {
    want = SIMA_EV74_PACK_BYTES;
  } else if (route == SIMA_EV74_ROUTE_DETESSDEQUANT) {
    uint8_t base[SIMA_EV74_DETESSDEQUANT_BASE_BYTES];
    memset (base, 0, sizeof base);
    memcpy (base, d, len < sizeof base ? len : sizeof base);
    flags = sima_ev74_get_u16 (base, DD (flags));
    if (flags & ~(unsigned) SIMA_EV74_DD_FLAGS_KNOWN)
      return d;
    if (base[DD (output_dtype)] == SIMA_DTYPE_FLOAT32)
      scalar = 4;
    else if (base[DD (output_dtype)] == SIMA_DTYPE_BFLOAT16)
      scalar = 2;
    else
      return d;
    scale_bits = sima_ev74_get_u32 (base, DD (scale_bits));
    flags &= ~(unsigned) SIMA_EV74_DD_FLAG_EXACT_TABLE;
    if ((scale_bits & 0x7f800000u) == 0)
      flags |= SIMA_EV74_DD_FLAG_EXACT_TABLE;
    want = sima_ev74_detessdequant_length (flags, scalar);
  } else if (route == SIMA_EV74_ROUTE_DETESSCAST) {
    if (len < SIMA_EV74_OFF_FLAGS + 2)
      return d;
    flags = sima_ev74_get_u16 (d, SIMA_EV74_OFF_FLAGS);
    if (flags & ~(unsigned) SIMA_EV74_DC_FLAGS_KNOWN)
      return d;
    want = sima_ev74_detesscast_length (flags);
  } else {
    return d;
  }
  if (want != len) {
    uint8_t *p = malloc (want);
    if (p == NULL)
      return d;
    memset (p, 0, want);
    memcpy (p, d, len < want ? len : want);
    free (d);
    d = p;
    *lenp = len = want;
  }
  if (route == SIMA_EV74_ROUTE_DETESSDEQUANT)
    sima_ev74_put_u16 (d, DD (flags), (uint16_t) flags);
  model_build (d, len, 0, &m);
  if (!m.admitted)
    return d;
  sima_ev74_put_u64 (d, SIMA_EV74_OFF_INPUT_SPAN, m.input_bytes);
  sima_ev74_put_u64 (d, SIMA_EV74_OFF_OUTPUT_SPAN, m.output_bytes);
  sima_ev74_put_u64 (d, is_unpack (route)
      ? DD (element_count) : PK (element_count), m.element_count);
  if (sima_ev74_get_u32 (d, SIMA_EV74_OFF_INPUT_LENGTH) < m.input_bytes
      && m.input_bytes <= UINT32_MAX)
    sima_ev74_put_u32 (d, SIMA_EV74_OFF_INPUT_LENGTH,
        (uint32_t) m.input_bytes);
  if (sima_ev74_get_u32 (d, SIMA_EV74_OFF_OUTPUT_LENGTH) < m.output_bytes
      && m.output_bytes <= UINT32_MAX)
    sima_ev74_put_u32 (d, SIMA_EV74_OFF_OUTPUT_LENGTH,
        (uint32_t) m.output_bytes);
  if (route == SIMA_EV74_ROUTE_DETESSDEQUANT
      && (flags & SIMA_EV74_DD_FLAG_EXACT_TABLE)) {
    uint32_t at = sima_ev74_detessdequant_table_offset (flags);
    int k;
    for (k = 0; k < 256; k++) {
      uint32_t v = dequant_entry (scalar == 4, k, scale_bits,
          m.dequant.zero_point, m.dequant.convention);
      if (scalar == 4)
        sima_ev74_put_u32 (d, at + 4 * (size_t) k, v);
      else
        sima_ev74_put_u16 (d, at + 2 * (size_t) k, (uint16_t) v);
    }
  }
  return d;
}

/* ---- regions -------------------------------------------------------------- */

/* Bus address choices: the descriptor's bindings (exact, shifted), plain
 * addresses in DRAM around 0x80000000, and the top of the 4 GiB aperture. */
static uint32_t
region_bus (unsigned choice, const Claims *c, uint64_t length)
{
  switch (choice) {
    case 0: return (uint32_t) c->in_bus;
    case 1: return (uint32_t) c->out_bus;
    case 2: return (uint32_t) c->in_bus - 64;
    case 3: return (uint32_t) c->out_bus + 16;
    case 4: return 0x80000000u;
    case 5: return 0x80001000u;
    case 6: return 0x80100000u;
    case 7: return 0x80200000u;
    case 8: return 0x7ffff000u;
    case 9: return 0xc0000000u;
    case 10: return 0;
    case 11: return 0x1000;
    case 12: return 0xfff00000u;
    case 13: return 0xfffff000u;
    case 14: return 0xfffffff0u;
    default: return (uint32_t) (SIMA_EV74_APERTURE_LIMIT - length);
  }
}

static uint64_t
region_length (unsigned choice, const Claims *c)
{
  static const uint64_t fixed[10] = { 0, 16, 256, 4096, 6144, 18432, 65536,
    262144, 524288, MAX_REGION_BYTES };
  uint64_t n;

  switch (choice) {
    case 0: n = c->in_span; break;
    case 1: n = c->out_span; break;
    case 2: n = c->in_span + 64; break;     /* with bus choice 2: exact */
    case 3: n = c->out_span - 1; break;     /* one byte short */
    case 4: n = c->in_span - 1; break;
    case 5: n = c->in_span + c->out_span + 4096; break;
    default: n = fixed[(choice - 6) % 10]; break;
  }
  /* spans are untrusted: anything absurd becomes the cap */
  return n > MAX_REGION_BYTES ? MAX_REGION_BYTES : n;
}

/* Deterministic region contents: a 256-byte xorshift pattern, repeated
 * (arbitrary float bits, so NaN, infinities and subnormals all occur). */
static void
fill (uint8_t *p, uint64_t n, uint32_t seed)
{
  uint8_t pattern[256];
  uint32_t x = seed * 2654435761u + 1u;
  uint64_t i;

  for (i = 0; i < sizeof pattern; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    pattern[i] = (uint8_t) (x >> 24);
  }
  for (i = 0; i < n; i += sizeof pattern)
    memcpy (p + i, pattern, n - i < sizeof pattern ? n - i : sizeof pattern);
}

/* A 1 MiB buffer kept for the whole run (a fresh malloc of up to 1 MiB per
 * input costs an mmap and munmap under ASan, most of an input's time). */
static uint8_t *
pool_buffer (uint8_t **slot)
{
  if (*slot == NULL && (*slot = malloc (MAX_REGION_BYTES)) == NULL)
    abort ();
  return *slot;
}

/* Host memory behind region i: the last `length` bytes of its pool buffer.
 * The region ends at the end of the allocation, so ASan reports any access
 * past it; the unused head is poisoned, so any access before it too. */
static uint8_t *
region_buffer (size_t i, uint64_t length)
{
  static uint8_t *pool[MAX_REGIONS];
  uint8_t *p = pool_buffer (&pool[i]);
  ASAN_POISON_MEMORY_REGION (p, MAX_REGION_BYTES - length);
  return p + (MAX_REGION_BYTES - length);
}

static void
region_release (const SimaHostRegion *r)
{
  ASAN_UNPOISON_MEMORY_REGION (r->host - (MAX_REGION_BYTES - r->length),
      MAX_REGION_BYTES - r->length);
}

/* Host bytes of [bus, bus + span) when it lies inside one mapped region (an
 * empty span always; then the pointer is not used), else NULL. */
static uint8_t *
mapped (const SimaHostRegion *r, size_t n, uint64_t bus, uint64_t span)
{
  static uint8_t empty;
  size_t i;
  if (span == 0)
    return &empty;
  for (i = 0; i < n; i++)
    if (bus >= r[i].bus && span <= r[i].length
        && bus - r[i].bus <= r[i].length - span)
      return r[i].host + (bus - r[i].bus);
  return NULL;
}

/* No two regions share a bus byte: every bus range then has one host copy. */
static int
regions_disjoint (const SimaHostRegion *r, size_t n)
{
  size_t i, j;
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++)
      if (r[i].length > 0 && r[j].length > 0
          && r[i].bus < (uint64_t) r[j].bus + r[j].length
          && r[j].bus < (uint64_t) r[i].bus + r[i].length)
        return 0;
  return 1;
}

/* ---- reporting ------------------------------------------------------------ */

/* FUZZ_VERBOSE=1 prints each worker's status (to study a reproducer). */
static int
verbose (void)
{
  static int v = -1;
  if (v < 0)
    v = getenv ("FUZZ_VERBOSE") != NULL;
  return v;
}

static void
violation (const char *what, const SimaStatus *st, const SimaHostHal *h)
{
  fprintf (stderr, "fuzz-native-entry: PROPERTY VIOLATED: %s\n"
      "  worker %u of %u, status %s: %s\n"
      "  commands %llu, read %llu, written %llu, write range [%#llx, %#llx)\n",
      what, (unsigned) h->hal.worker_id, (unsigned) h->hal.worker_count,
      sima_status_code_name (st->code), st->message,
      (unsigned long long) h->stats.commands,
      (unsigned long long) h->stats.bytes_read,
      (unsigned long long) h->stats.bytes_written,
      (unsigned long long) h->stats.write_lo,
      (unsigned long long) h->stats.write_hi);
  abort ();
}

static void
job_violation (const char *what, const Model *m, uint64_t offset,
    unsigned long long got, unsigned long long want)
{
  fprintf (stderr, "fuzz-native-entry: PROPERTY VIOLATED: %s\n"
      "  route %u, %llu elements, spans %llu/%llu; at byte %llu of the span: "
      "%llu, expected %llu\n", what, (unsigned) m->route,
      (unsigned long long) m->element_count,
      (unsigned long long) m->input_bytes,
      (unsigned long long) m->output_bytes, (unsigned long long) offset,
      got, want);
  abort ();
}

/* ---- watching every transfer ---------------------------------------------- */

/* Per input: which span bytes each transfer touched. The counts (and the
 * 16-byte block owners of the output) exist when the job was admitted and
 * both spans fit the buffers; the span checks always run. */
typedef struct {
  const Claims *c;
  uint8_t *in_count, *out_count;    /* per span byte, saturating at 255 */
  uint8_t *block_owner;             /* per 16-byte bus block: worker + 1,
                                     * or member x 4 + worker + 1 (sets) */
  int is_set;
  unsigned member;                  /* route 53: the member running */
  unsigned resets;                  /* scratch_reset calls of this worker */
} Track;

/* The host HAL with its ops wrapped: every transfer the firmware asks for is
 * checked against the spans before the host HAL sees it, and counted when
 * the host HAL issued it. */
typedef struct {
  SimaHostHal host;                 /* first: hal points at both */
  const SimaFwHalOps *inner;
  Track *track;
} FuzzHal;

static FUZZ_NO_COVERAGE void
check_transfer (FuzzHal *f, int write, uint32_t bus, uint32_t pitch,
    uint32_t row_bytes, uint32_t rows)
{
  const Claims *c = f->track->c;
  uint64_t base = write ? c->out_bus : c->in_bus;
  uint64_t span = write ? c->out_span : c->in_span;
  uint32_t r;

  for (r = 0; r < rows && row_bytes > 0; r++) {
    uint64_t a = (uint64_t) bus + (uint64_t) r * pitch;
    if (a < base || a - base > span || row_bytes > span - (a - base)) {
      fprintf (stderr, "fuzz-native-entry: PROPERTY VIOLATED: a %s left the "
          "%s span [%#llx, +%llu): row %lu of %lu at %#llx, %lu bytes "
          "(worker %u of %u)\n", write ? "write" : "read",
          write ? "output" : "input", (unsigned long long) base,
          (unsigned long long) span, (unsigned long) r, (unsigned long) rows,
          (unsigned long long) a, (unsigned long) row_bytes,
          (unsigned) f->host.hal.worker_id,
          (unsigned) f->host.hal.worker_count);
      abort ();
    }
  }
}

static FUZZ_NO_COVERAGE void
count_transfer (FuzzHal *f, int write, uint32_t bus, uint32_t pitch,
    uint32_t row_bytes, uint32_t rows)
{
  const Track *t = f->track;
  uint8_t *count = write ? t->out_count : t->in_count;
  uint64_t base = write ? t->c->out_bus : t->c->in_bus, i;
  uint8_t me = (uint8_t) (t->member * 4 + f->host.hal.worker_id + 1);
  uint32_t r;

  if (count == NULL)
    return;
  for (r = 0; r < rows; r++) {
    uint64_t a = (uint64_t) bus + (uint64_t) r * pitch - base;
    for (i = a; i < a + row_bytes; i++)
      count[i] += count[i] < 255;
    if (!write)
      continue;
    /* no two workers write into the same 16-byte aligned bus block by DMA
     * (partial blocks are exact stores, which claim none: set members at
     * scalar alignment meet inside a block that way) */
    for (i = (base + a) / 16; i <= (base + a + row_bytes - 1) / 16; i++) {
      uint8_t *owner = &t->block_owner[i - base / 16];
      if (*owner != 0 && (*owner - 1) % 4 != (me - 1) % 4) {
        fprintf (stderr, "fuzz-native-entry: PROPERTY VIOLATED: workers %u "
            "and %u both wrote into the 16-byte block at %#llx\n",
            (unsigned) *owner - 1, (unsigned) me - 1,
            (unsigned long long) (i * 16));
        abort ();
      }
      *owner = me;
    }
  }
}

static int
fz_read_2d (SimaFwHal *hal, unsigned tag, uint8_t *local, uint32_t local_pitch,
    uint32_t bus, uint32_t bus_pitch, uint32_t row_bytes, uint32_t rows)
{
  FuzzHal *f = (FuzzHal *) hal;
  int err;
  check_transfer (f, 0, bus, bus_pitch, row_bytes, rows);
  err = f->inner->read_2d (hal, tag, local, local_pitch, bus, bus_pitch,
      row_bytes, rows);
  if (err == 0)
    count_transfer (f, 0, bus, bus_pitch, row_bytes, rows);
  return err;
}

static int
fz_write_2d (SimaFwHal *hal, unsigned tag, uint32_t bus, uint32_t bus_pitch,
    const uint8_t *local, uint32_t local_pitch, uint32_t row_bytes,
    uint32_t rows)
{
  FuzzHal *f = (FuzzHal *) hal;
  int err;
  check_transfer (f, 1, bus, bus_pitch, row_bytes, rows);
  err = f->inner->write_2d (hal, tag, bus, bus_pitch, local, local_pitch,
      row_bytes, rows);
  if (err == 0)
    count_transfer (f, 1, bus, bus_pitch, row_bytes, rows);
  return err;
}

/* Exact stores write only their bytes: counted, but they claim no 16-byte
 * block (the host HAL's granule rules judge them). */
static int
fz_store (SimaFwHal *hal, uint32_t bus, const uint8_t *local, uint32_t bytes)
{
  FuzzHal *f = (FuzzHal *) hal;
  const Track *t = f->track;
  int err;
  uint64_t i;

  check_transfer (f, 1, bus, 0, bytes, 1);
  err = f->inner->store (hal, bus, local, bytes);
  if (err == 0 && t->out_count != NULL)
    for (i = bus - t->c->out_bus; i < bus - t->c->out_bus + bytes; i++)
      t->out_count[i] += t->out_count[i] < 255;
  return err;
}

static int
fz_wait (SimaFwHal *hal, unsigned tag)
{
  return ((FuzzHal *) hal)->inner->wait (hal, tag);
}

static uint8_t *
fz_scratch (SimaFwHal *hal, uint32_t bytes)
{
  return ((FuzzHal *) hal)->inner->scratch (hal, bytes);
}

/* A set job gives its local memory back before each member (member k's
 * reset is the (k+1)-th): the member count of block ownership. */
static void
fz_scratch_reset (SimaFwHal *hal)
{
  FuzzHal *f = (FuzzHal *) hal;
  if (f->track->is_set && f->track->resets++ > 0)
    f->track->member++;
  f->inner->scratch_reset (hal);
}

static const SimaFwHalOps fuzz_ops = {
  fz_read_2d, fz_write_2d, fz_store, fz_wait, fz_scratch, fz_scratch_reset,
};

/* ---- what the job should have touched ------------------------------------ */

static FUZZ_NO_COVERAGE uint64_t
le_bits (const uint8_t *p, unsigned n)
{
  uint64_t v = 0;
  while (n-- > 0)
    v = v << 8 | p[n];
  return v;
}

/* Every element of an admitted job, tile by tile (the geometry's tile
 * cursor, walked together with the dense view): marks its input bytes in
 * in_el and its output bytes in out_el, and when `in` (the input span's
 * host bytes) is given, writes the expected output span into exp: each
 * element's result, and for the pack routes the padding channels (the
 * padding value) and alignment gaps (0) of every tile (docs/layout.md). */
static FUZZ_NO_COVERAGE void
map_elements (const Model *m, const uint8_t *in, uint8_t *in_el,
    uint8_t *out_el, uint8_t *exp)
{
  const SimaTiledGeometry *g = &m->geometry;
  const int pack = !is_unpack (m->route);
  const int cast = m->route == SIMA_EV74_ROUTE_DETESSCAST;
  const uint64_t planes = (uint64_t) g->element_bytes;
  SimaQuantNumerics numerics;
  SimaTiledWalk walk;
  SimaTileCursor cur;
  uint32_t table[256];
  int64_t d, h, w, c;
  int k;

  if (in != NULL && pack)
    memset (exp, m->route == SIMA_EV74_ROUTE_QUANTTESS
        ? (uint8_t) m->quant.zero_point : 0, m->output_bytes);
  if (m->element_count == 0)
    return;
  if (m->route == SIMA_EV74_ROUTE_QUANTTESS)
    sima_quanttess_numerics (&m->quant, &numerics);
  if (!pack && !cast) {
    uint32_t scale_bits;
    memcpy (&scale_bits, &m->dequant.scale, sizeof scale_bits);
    for (k = 0; k < 256; k++)
      table[k] = dequant_entry (m->out_scalar == 4, k, scale_bits,
          m->dequant.zero_point, m->dequant.convention);
  }
  sima_tiled_walk_init (g, &m->view, &walk);
  sima_tile_cursor_init (&cur, g, &walk);
  while (sima_tile_cursor_next (&cur)) {
    const SimaTileClass *cls = cur.cls;
    const int64_t *ext = cls->extent;
    const uint64_t stored = (uint64_t) cls->stored_channels;
    const int64_t *ds = walk.dim_stride;
    if (in != NULL && pack)
      memset (exp + cur.tile_offset + cls->payload_bytes, 0,
          cls->span_bytes - cls->payload_bytes);
    for (d = 0; d < ext[SIMA_MLA_D]; d++)
      for (h = 0; h < ext[SIMA_MLA_H]; h++)
        for (w = 0; w < ext[SIMA_MLA_W]; w++) {
          uint64_t pixel = (uint64_t) ((d * ext[SIMA_MLA_H] + h)
              * ext[SIMA_MLA_W] + w);
          uint64_t tbase = cur.tile_offset + pixel * stored * planes;
          /* cblock (docs/layout.md): channel c of pixel p at
           * (c/16)*P*16*planes + p*16*planes + c%16 */
          const uint64_t unit = g->tiled.cblock ? 16 : stored;
          const uint64_t npix = (uint64_t) (ext[SIMA_MLA_D]
              * ext[SIMA_MLA_H] * ext[SIMA_MLA_W]);
          int64_t vbase = cur.view_offset + d * ds[SIMA_MLA_D]
              + h * ds[SIMA_MLA_H] + w * ds[SIMA_MLA_W];
          for (c = 0; c < ext[SIMA_MLA_C]; c++) {
            uint64_t dense = (uint64_t) (vbase + c * ds[SIMA_MLA_C]);
            uint64_t tiled = g->tiled.cblock ? cur.tile_offset
                + ((uint64_t) c / 16 * npix + pixel) * 16 * planes
                + (uint64_t) c % 16 : tbase + (uint64_t) c;
            uint64_t in_off = pack ? dense : tiled;
            uint64_t out_off = pack ? tiled : dense;
            uint64_t hi = planes == 2 ? unit : 0;    /* BF16 high plane */
            if (in_off + (cast ? hi + 1 : m->in_scalar) > m->input_bytes
                || out_off + (pack ? hi + 1 : m->out_scalar)
                > m->output_bytes)
              job_violation ("an element of an admitted job lies outside "
                  "its spans (the core's admission)", m, 0, in_off,
                  out_off);
            if (cast) {             /* the two planes of a BF16 value */
              in_el[in_off] = 1;
              in_el[in_off + hi] = 1;
            } else {
              memset (in_el + in_off, 1, m->in_scalar);
            }
            if (pack) {
              out_el[out_off] = 1;
              out_el[out_off + hi] = 1;
            } else {
              memset (out_el + out_off, 1, m->out_scalar);
            }
            if (in == NULL)
              continue;
            if (cast) {
              /* FP32: 00 00 lo hi (bits << 16); BF16: lo hi */
              uint8_t lo = in[in_off], hb = in[in_off + hi];
              if (m->out_scalar == 4) {
                exp[out_off] = 0;
                exp[out_off + 1] = 0;
                exp[out_off + 2] = lo;
                exp[out_off + 3] = hb;
              } else {
                exp[out_off] = lo;
                exp[out_off + 1] = hb;
              }
            } else if (m->route == SIMA_EV74_ROUTE_DETESSDEQUANT) {
              for (k = 0; k < (int) m->out_scalar; k++)
                exp[out_off + (uint64_t) k] =
                    (uint8_t) (table[in[in_off]] >> (8 * k));
            } else {
              uint32_t x = (uint32_t) le_bits (in + in_off, m->in_scalar);
              if (m->route == SIMA_EV74_ROUTE_QUANTTESS) {
                SimaExactValue v = m->in_dtype == SIMA_DTYPE_FLOAT32
                    ? sima_decode_f32 (x) : m->in_dtype == SIMA_DTYPE_FLOAT16
                    ? sima_decode_f16 ((uint16_t) x)
                    : m->in_dtype == SIMA_DTYPE_UINT8
                    ? sima_decode_u8 ((uint8_t) x)
                    : sima_decode_bf16 ((uint16_t) x);
                exp[out_off] = (uint8_t) sima_quant_exact (v, &numerics);
              } else {
                uint16_t bf = m->in_dtype == SIMA_DTYPE_FLOAT32
                    ? sima_bf16_from_f32_bits (x)
                    : m->in_dtype == SIMA_DTYPE_FLOAT16
                    ? sima_bf16_from_f16_bits ((uint16_t) x)
                    : m->in_dtype == SIMA_DTYPE_UINT8
                    ? sima_bf16_from_u8 ((uint8_t) x) : (uint16_t) x;
                exp[out_off] = (uint8_t) bf;
                exp[out_off + hi] = (uint8_t) (bf >> 8);
              }
            }
          }
        }
  }
}

static uint8_t *in_count_buf, *out_count_buf, *owner_buf, *in_el_buf,
    *out_el_buf, *exp_buf;

/* After the workers ran: the bytes they read and wrote against the job's
 * elements. whole: every worker ran, all returned ok, no fault injected.
 * in/out: the spans' host bytes, or NULL when the regions overlap (then a
 * bus range has no single host copy and values are not compared). */
static FUZZ_NO_COVERAGE void
check_job (const Model *m, const Track *t, int whole, const uint8_t *in,
    const uint8_t *out, uint64_t read, uint64_t written)
{
  const int pack = !is_unpack (m->route);
  const uint64_t want_read = m->element_count * m->in_scalar;
  const uint64_t want_written = pack ? m->output_bytes
      : m->element_count * m->out_scalar;
  int values = whole && in != NULL && out != NULL;
  uint64_t i;

  if (whole && (written != want_written
          || (m->max_reads == 1 ? read != want_read : read < want_read)))
    job_violation (pack ? "the workers together did not write exactly the "
        "output span and read exactly elements x input scalar bytes"
        : "the workers together did not read exactly elements x 1 (INT8) "
        "or 2 (BF16) bytes and write exactly elements x output scalar bytes", m, 0,
        written != want_written ? written : read,
        written != want_written ? want_written : want_read);
  if (t->in_count == NULL || (read == 0 && written == 0))
    return;
  memset (in_el_buf, 0, m->input_bytes);
  memset (out_el_buf, pack, m->output_bytes);   /* pack: every byte is due */
  map_elements (m, values ? in : NULL, in_el_buf, out_el_buf, exp_buf);

  for (i = 0; i < m->input_bytes; i++) {
    uint8_t n = t->in_count[i];
    if (n > 0 && !in_el_buf[i])
      job_violation ("a read touched an input byte that holds no element "
          "(padding, alignment gap or hole)", m, i, n, 0);
    if (n > m->max_reads)
      job_violation ("an input byte was read more often than allowed", m, i,
          n, m->max_reads);
    if (whole && in_el_buf[i] && n == 0)
      job_violation ("an input element byte was never read", m, i, 0, 1);
  }
  for (i = 0; i < m->output_bytes; i++) {
    uint8_t n = t->out_count[i];
    if (n > 0 && !out_el_buf[i])
      job_violation ("a write landed in a hole of the output", m, i, n, 0);
    if (n > 1)
      job_violation ("an output byte was written more than once", m, i, n, 1);
    if (whole && out_el_buf[i] && n == 0)
      job_violation ("an output byte of the job was never written", m, i, 0,
          1);
    if (values && (pack || out_el_buf[i]) && out[i] != exp_buf[i])
      job_violation ("an output byte holds the wrong value", m, i, out[i],
          exp_buf[i]);
  }
}

/* Route 53: the set's traffic is its members' (whole job), and each member
 * gets check_job over its own part of the spans, with the bytes the
 * workers read and wrote there. */
static FUZZ_NO_COVERAGE void
check_set (const Track *t, int whole, const uint8_t *in, const uint8_t *out,
    uint64_t read, uint64_t written)
{
  uint64_t want_read = 0, want_written = 0, i;
  size_t k;

  for (k = 0; k < set_model.n; k++) {
    const Model *mm = &set_model.m[k];
    want_read += mm->element_count * mm->in_scalar;
    want_written += !is_unpack (mm->route)
        ? mm->output_bytes : mm->element_count * mm->out_scalar;
  }
  if (whole && (written != want_written || read < want_read))
    job_violation ("the workers of a set job did not move its members' "
        "bytes", &set_model.m[0], 0, written, want_written);
  if (t->in_count == NULL)
    return;
  for (k = 0; k < set_model.n; k++) {
    const Model *mm = &set_model.m[k];
    Track sub = *t;
    uint64_t r = 0, w = 0;
    if (mm->input_bytes == 0 && mm->output_bytes == 0)
      continue;                 /* an empty member: nothing to look at */
    sub.in_count = t->in_count + (mm->input_bytes ? set_model.in_off[k] : 0);
    sub.out_count = t->out_count + (mm->output_bytes ? set_model.out_off[k]
        : 0);
    for (i = 0; i < mm->input_bytes; i++)
      r += sub.in_count[i];
    for (i = 0; i < mm->output_bytes; i++)
      w += sub.out_count[i];
    check_job (mm, &sub, whole, in ? in + set_model.in_off[k] : NULL,
        out ? out + set_model.out_off[k] : NULL, r, w);
  }
}

/* ---- per worker ----------------------------------------------------------- */

/* Promises of one worker's run, whatever the input. */
static void
check_run (const SimaStatus *st, const SimaHostHal *h, size_t pending,
    const Claims *c, const Model *m, int faults, int spans_mapped)
{
  int accepted = st->code == SIMA_OK || st->code == SIMA_DMA_ERROR
      || st->code == SIMA_OUT_OF_RESOURCES;

  if (pending != 0)
    violation ("the entry returned with DMA transfers pending", st, h);
  /* the device model's rules (granules, 2D limits) hold for any job */
  if (h->fault[0] != '\0') {
    fprintf (stderr, "fuzz-native-entry: %s\n", h->fault);
    violation ("the firmware broke the device model", st, h);
  }
  /* every rejection (bad bytes, admission, aperture, alignment, local
   * memory) happens before the first transfer; only a failed transfer may
   * come after some */
  if (st->code != SIMA_OK && st->code != SIMA_DMA_ERROR
      && h->stats.commands != 0)
    violation ("a rejected descriptor issued DMA", st, h);
  if (h->stats.bytes_written > 0 && (h->stats.write_lo < c->out_bus
          || h->stats.write_hi > c->out_bus + c->out_span))
    violation ("a write left the output span", st, h);
  /* a validated job whose spans are mapped touches nothing else, so the
   * IOMMU (host HAL) can only refuse a transfer if one was injected */
  if (st->code == SIMA_DMA_ERROR && !faults && spans_mapped)
    violation ("a DMA failed on a job whose spans are all mapped", st, h);
  /* the decoder is at least as strict as the core's admission and the
   * encoding rules, and trusts no span the host computed */
  if (accepted && (!m->admitted || m->input_bytes != c->in_span
          || m->output_bytes != c->out_span
          || m->element_count != m->claimed_count))
    violation ("the firmware accepted a descriptor that the core's admission "
        "rejects or whose spans and count it derives differently", st, h);
  /* a strided DetessDequant output has one owner: worker 0 */
  if (m->admitted && m->single_owner && h->hal.worker_id != 0
      && h->stats.bytes_written != 0)
    violation ("a worker other than 0 wrote to a strided DetessDequant or "
        "DetessCast output", st, h);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  SimaHostRegion regions[MAX_REGIONS];
  size_t n_regions, len, i;
  uint32_t count, first, last, w, local_size;
  uint64_t written = 0, read = 0;
  int faults, all_ok = 1, spans_mapped;
  uint8_t *desc, *local, *in_host, *out_host;
  Claims c;
  Model m;
  Track track;

  if (size < PREFIX_BYTES)
    return 0;
  len = size - PREFIX_BYTES;
  desc = malloc (len > 0 ? len : 1);    /* exact size: overreads are caught */
  if (desc == NULL)
    return 0;
  memcpy (desc, data + PREFIX_BYTES, len);
  if ((data[0] & 8) && (data[1] & 8))
    desc = fix_descriptor (desc, &len);
  if ((data[0] & 8) && len >= SIMA_EV74_OFF_LENGTH + 2)
    sima_ev74_put_u16 (desc, SIMA_EV74_OFF_LENGTH, (uint16_t) len);
  if ((data[0] & 8) && len >= SIMA_EV74_OFF_CRC + 4)
    sima_ev74_put_u32 (desc, SIMA_EV74_OFF_CRC,
        sima_ev74_descriptor_crc (desc, len));
  c = read_claims (desc, len);
  model_build (desc, len, 1, &m);

  n_regions = data[0] & 3;
  for (i = 0; i < n_regions; i++) {
    uint64_t length = region_length (data[2 + i] >> 4, &c);
    regions[i].bus = region_bus (data[2 + i] & 15, &c, length);
    /* a region ends inside the 32-bit aperture, as an IOMMU mapping does */
    if (length > SIMA_EV74_APERTURE_LIMIT - regions[i].bus)
      length = SIMA_EV74_APERTURE_LIMIT - regions[i].bus;
    regions[i].length = length;
    regions[i].host = region_buffer (i, length);
    fill (regions[i].host, length, data[5] + 77u * (uint32_t) i);
  }
  /* the device model's granule rules across this job's workers (regions
   * at a bus address the emulator would never give stay untracked) */
  for (i = 0; i < n_regions; i++)
    regions[i].owner = regions[i].inflight = NULL;
  if (sima_host_regions_track (regions, n_regions) != 0)
    for (i = 0; i < n_regions; i++)
      regions[i].owner = regions[i].inflight = NULL;
  in_host = mapped (regions, n_regions, c.in_bus, c.in_span);
  out_host = mapped (regions, n_regions, c.out_bus, c.out_span);
  spans_mapped = in_host != NULL && out_host != NULL;

  memset (&track, 0, sizeof track);
  track.c = &c;
  track.is_set = m.is_set;
  if (m.admitted && c.in_span <= MAX_REGION_BYTES
      && c.out_span <= MAX_REGION_BYTES && c.out_bus <= UINT32_MAX
      && m.input_bytes == c.in_span && m.output_bytes == c.out_span) {
    track.in_count = pool_buffer (&in_count_buf);
    track.out_count = pool_buffer (&out_count_buf);
    track.block_owner = pool_buffer (&owner_buf);
    pool_buffer (&in_el_buf);
    pool_buffer (&out_el_buf);
    pool_buffer (&exp_buf);
    memset (track.in_count, 0, c.in_span);
    memset (track.out_count, 0, c.out_span);
    memset (track.block_owner, 0, c.out_span / 16 + 2);
  }

  count = 1 + ((data[0] >> 4) & 3);
  first = (data[1] & 3) % count;
  last = first + 1;
  if (data[1] & 4) {
    first = 0;
    last = count;
  }
  faults = (data[1] >> 4) >= 8;
  local_size = local_sizes[data[0] >> 6];
  local = aligned_alloc (64, (local_size + 63u) & ~63u);
  if (local == NULL)
    abort ();

  for (w = first; w < last; w++) {
    FuzzHal f;
    SimaStatus st;
    size_t pending;

    sima_host_hal_init (&f.host, w, count, regions, n_regions,
        (data[0] & 4) ? SIMA_HOST_DMA_DEFERRED : SIMA_HOST_DMA_IMMEDIATE,
        local, local_size);
    f.inner = f.host.hal.ops;
    f.host.hal.ops = &fuzz_ops;
    f.track = &track;
    track.member = track.resets = 0;
    if (faults)
      f.host.fail_after = fail_at[(data[1] >> 4) - 8];
    st = simafw_native_entry (&f.host.hal, desc, (uint32_t) len);
    pending = sima_host_hal_finish (&f.host);
    if (verbose ())
      fprintf (stderr, "worker %u/%u: %s: %s (%llu commands, %llu bytes "
          "read, %llu written)\n", (unsigned) w, (unsigned) count,
          sima_status_code_name (st.code), st.message,
          (unsigned long long) f.host.stats.commands,
          (unsigned long long) f.host.stats.bytes_read,
          (unsigned long long) f.host.stats.bytes_written);
    check_run (&st, &f.host, pending, &c, &m, faults, spans_mapped);
    all_ok &= st.code == SIMA_OK;
    written += f.host.stats.bytes_written;
    read += f.host.stats.bytes_read;
  }

  /* The whole job, all workers run: see check_job. */
  if (m.admitted && m.is_set) {
    int disjoint = regions_disjoint (regions, n_regions);
    check_set (&track, (data[1] & 4) && all_ok && !faults,
        disjoint ? in_host : NULL, disjoint ? out_host : NULL, read,
        written);
  } else if (m.admitted) {
    int disjoint = regions_disjoint (regions, n_regions);
    check_job (&m, &track, (data[1] & 4) && all_ok && !faults,
        disjoint ? in_host : NULL, disjoint ? out_host : NULL, read,
        written);
  }

  free (local);
  sima_host_regions_untrack (regions, n_regions);
  for (i = 0; i < n_regions; i++)
    region_release (&regions[i]);
  free (desc);
  return 0;
}
