/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz_native_entry.c - libFuzzer target for the EV74 firmware's entry,
 * simafw_native_entry() (firmware/native_entry.c), run on the host HAL.
 *
 * The firmware receives untrusted descriptor bytes: it must never crash,
 * touch memory out of bounds or hang, and must reject a malformed
 * descriptor before its first DMA. The sanitizers catch the first three;
 * this file checks what the firmware promises beyond that (see check_run).
 *
 * Input format: a 6-byte prefix that sets up the "device", then the
 * descriptor bytes (any length, handed to the entry as they are).
 *
 *   byte 0  bits 0-1  number of mapped bus regions, 0-3
 *           bit  2    DMA model: 0 immediate, 1 deferred
 *           bit  3    patch the descriptor's length field (bytes 6-7) and
 *                     CRC (bytes 12-15) to match its bytes, so mutations
 *                     reach the checks behind the header
 *           bits 4-5  worker count - 1 (1-4 workers)
 *           bits 6-7  local memory per worker: 64 KiB (emulator default),
 *                     48 KiB (exactly two 18+6 KiB slot pairs), 48 KiB - 1
 *                     and 16 KiB (both too small)
 *   byte 1  bits 0-1  worker id, modulo the count
 *           bit  2    run every worker id in turn (the whole job) instead
 *           bit  3    with byte 0 bit 3: also write the spans and element
 *                     count that the core's admission derives from the
 *                     descriptor's fields (what the host encoder writes),
 *                     and raise short bound lengths to the spans, so a
 *                     mutated shape or tiling is not stopped by the span
 *                     cross-check and reaches the workers
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

#include <simaai/kernels/ev74/quanttess_wire.h>
#include <simaai/kernels/ops/quanttess.h>

#include "hal/host/host_hal.h"
#include "native_entry.h"

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

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

enum {
  PREFIX_BYTES = 6,
  MAX_REGIONS = 3,
  MAX_REGION_BYTES = 1 << 20,
};

static const uint32_t local_sizes[4] = { 65536, 49152, 49151, 16384 };
#define QT(field) SIMA_EV74_QT_OFF (field)

static const int64_t fail_at[8] = { 0, 1, 2, 3, 4, 7, 16, 64 };

/* What the descriptor claims, read the way the firmware reads it (0 for a
 * descriptor too short to hold the header). */
typedef struct {
  uint64_t in_bus, out_bus, in_span, out_span, element_count;
  unsigned scalar;
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
  if (len >= QT (element_count) + 8) {    /* as a QuantTess descriptor */
    c.scalar = d[QT (input_dtype)] == SIMA_DTYPE_FLOAT32 ? 4 : 2;
    c.element_count = sima_ev74_get_u64 (d, QT (element_count));
  }
  return c;
}

/* See byte 1 bit 3. Reads the QuantTess fields as the firmware does
 * (firmware/quanttess_desc.c); fields it would reject are left alone. */
static void
patch_spans (uint8_t *d, size_t len)
{
  SimaTensorSpec in, out;
  SimaQuantTessRequest req;
  SimaQuantTessPlan plan;
  SimaStatus st;
  uint32_t bits;
  int i;

  if (len != SIMA_EV74_QUANTTESS_BYTES
      || d[QT (input_dtype)] > SIMA_DTYPE_BFLOAT16
      || d[QT (rank)] < 1 || d[QT (rank)] > SIMA_MAX_RANK
      || d[QT (input_layout)] > SIMA_LAYOUT_STRIDED)
    return;
  memset (&in, 0, sizeof in);
  in.rank = d[QT (rank)];
  in.dtype = (SimaDType) d[QT (input_dtype)];
  in.layout = (SimaLayout) d[QT (input_layout)];
  for (i = 0; i < in.rank; i++) {
    size_t at = 8 * (size_t) i;
    in.shape[i] = sima_ev74_get_i64 (d, QT (shape) + at);
    in.strides_bytes[i] = sima_ev74_get_i64 (d, QT (input_strides) + at);
  }
  out = in;
  out.dtype = SIMA_DTYPE_INT8;
  out.layout = SIMA_LAYOUT_MLA_TILED;
  memset (out.strides_bytes, 0, sizeof out.strides_bytes);
  for (i = 0; i < 4; i++) {
    out.tiled.axes[i] = (int8_t) d[QT (axes) + (size_t) i];
    out.tiled.tile_shape[i] =
        sima_ev74_get_i64 (d, QT (tile_shape) + 8 * (size_t) i);
  }
  out.tiled.channels = (SimaChannels) d[QT (channels)];
  memset (&req, 0, sizeof req);
  req.inputs = &in;
  req.n_inputs = 1;
  req.outputs = &out;
  req.n_outputs = 1;
  bits = sima_ev74_get_u32 (d, QT (multiplier_bits));
  memcpy (&req.params.multiplier, &bits, sizeof bits);
  req.params.zero_point = sima_ev74_get_i32 (d, QT (zero_point));
  req.params.rounding = (SimaRounding) d[QT (rounding)];
  st = sima_quanttess_check_inference (&req, &plan);
  if (!sima_status_is_ok (&st))
    return;
  sima_ev74_put_u64 (d, SIMA_EV74_OFF_INPUT_SPAN, plan.input_bytes);
  sima_ev74_put_u64 (d, SIMA_EV74_OFF_OUTPUT_SPAN, plan.output_bytes);
  sima_ev74_put_u64 (d, QT (element_count), plan.element_count);
  if (sima_ev74_get_u32 (d, SIMA_EV74_OFF_INPUT_LENGTH) < plan.input_bytes
      && plan.input_bytes <= UINT32_MAX)
    sima_ev74_put_u32 (d, SIMA_EV74_OFF_INPUT_LENGTH,
        (uint32_t) plan.input_bytes);
  if (sima_ev74_get_u32 (d, SIMA_EV74_OFF_OUTPUT_LENGTH) < plan.output_bytes
      && plan.output_bytes <= UINT32_MAX)
    sima_ev74_put_u32 (d, SIMA_EV74_OFF_OUTPUT_LENGTH,
        (uint32_t) plan.output_bytes);
}

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

/* Host memory behind region i: the last `length` bytes of a 1 MiB buffer
 * kept for the whole run (a fresh malloc of up to 1 MiB per input costs an
 * mmap and munmap under ASan, most of the time of an input). The region
 * ends at the end of the allocation, so ASan reports any access past it;
 * the unused head is poisoned, so any access before it too. */
static uint8_t *
region_buffer (size_t i, uint64_t length)
{
  static uint8_t *pool[MAX_REGIONS];
  if (pool[i] == NULL && (pool[i] = malloc (MAX_REGION_BYTES)) == NULL)
    abort ();
  ASAN_POISON_MEMORY_REGION (pool[i], MAX_REGION_BYTES - length);
  return pool[i] + (MAX_REGION_BYTES - length);
}

static void
region_release (const SimaHostRegion *r)
{
  ASAN_UNPOISON_MEMORY_REGION (r->host - (MAX_REGION_BYTES - r->length),
      MAX_REGION_BYTES - r->length);
}

/* [bus, bus + span) lies inside one mapped region (an empty span always). */
static int
mapped (const SimaHostRegion *r, size_t n, uint64_t bus, uint64_t span)
{
  size_t i;
  if (span == 0)
    return 1;
  for (i = 0; i < n; i++)
    if (bus >= r[i].bus && span <= r[i].length
        && bus - r[i].bus <= r[i].length - span)
      return 1;
  return 0;
}

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

/* Promises of one worker's run, whatever the input. */
static void
check_run (const SimaStatus *st, const SimaHostHal *h, size_t pending,
    const Claims *c, int faults, int spans_mapped)
{
  if (pending != 0)
    violation ("the entry returned with DMA transfers pending", st, h);
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
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  SimaHostRegion regions[MAX_REGIONS];
  size_t n_regions, len, i;
  uint32_t count, first, last, w, local_size;
  uint64_t written = 0, read = 0;
  int faults, all_ok = 1, spans_mapped;
  uint8_t *desc, *local;
  Claims c;

  if (size < PREFIX_BYTES)
    return 0;
  len = size - PREFIX_BYTES;
  desc = malloc (len > 0 ? len : 1);    /* exact size: overreads are caught */
  if (desc == NULL)
    return 0;
  memcpy (desc, data + PREFIX_BYTES, len);
  if ((data[0] & 8) && len >= SIMA_EV74_OFF_LENGTH + 2)
    sima_ev74_put_u16 (desc, SIMA_EV74_OFF_LENGTH, (uint16_t) len);
  if ((data[0] & 8) && (data[1] & 8))
    patch_spans (desc, len);
  if ((data[0] & 8) && len >= SIMA_EV74_OFF_CRC + 4)
    sima_ev74_put_u32 (desc, SIMA_EV74_OFF_CRC,
        sima_ev74_descriptor_crc (desc, len));
  c = read_claims (desc, len);

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
  spans_mapped = mapped (regions, n_regions, c.in_bus, c.in_span)
      && mapped (regions, n_regions, c.out_bus, c.out_span);

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
    SimaHostHal h;
    SimaStatus st;
    size_t pending;

    sima_host_hal_init (&h, w, count, regions, n_regions,
        (data[0] & 4) ? SIMA_HOST_DMA_DEFERRED : SIMA_HOST_DMA_IMMEDIATE,
        local, local_size);
    if (faults)
      h.fail_after = fail_at[(data[1] >> 4) - 8];
    st = simafw_native_entry (&h.hal, desc, (uint32_t) len);
    pending = sima_host_hal_finish (&h);
    if (verbose ())
      fprintf (stderr, "worker %u/%u: %s: %s (%llu commands, %llu bytes "
          "written)\n", (unsigned) w, (unsigned) count,
          sima_status_code_name (st.code), st.message,
          (unsigned long long) h.stats.commands,
          (unsigned long long) h.stats.bytes_written);
    check_run (&st, &h, pending, &c, faults, spans_mapped);
    all_ok &= st.code == SIMA_OK;
    written += h.stats.bytes_written;
    read += h.stats.bytes_read;
  }

  /* The whole job, all workers run: every output byte is written once
   * (values, padding, gaps; the workers' ranges do not overlap) and every
   * input element is read once (holes never). */
  if ((data[1] & 4) && all_ok && !faults && c.element_count > 0
      && (written != c.out_span || read != c.element_count * c.scalar)) {
    fprintf (stderr, "fuzz-native-entry: PROPERTY VIOLATED: %u workers "
        "wrote %llu bytes of a %llu-byte output and read %llu bytes for "
        "%llu elements of %u bytes\n", (unsigned) count,
        (unsigned long long) written, (unsigned long long) c.out_span,
        (unsigned long long) read, (unsigned long long) c.element_count,
        c.scalar);
    abort ();
  }

  free (local);
  for (i = 0; i < n_regions; i++)
    region_release (&regions[i]);
  free (desc);
  return 0;
}
