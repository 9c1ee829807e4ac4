/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Exhaustive 16-bit sweeps through the EV74 emulator (issue 18), as
 * tests/kernels/test_quanttess_numerics.c and test_casttess.c do for the
 * A65: every FP16 and every BF16 encoding (all 65,536 of each: NaNs with
 * every payload, both infinities, subnormals, both zeros) goes through the
 * device
 *  - for QuantTess (route 49) into INT8 tiles under all 4 roundings x
 *    multipliers {1, 0.3, 127, 255.0697/255 (SiMa's preproc), 1e30
 *    (saturates), 3e5 and 1.5*2^127 (FP16 / BF16 subnormals into the
 *    integer range, where the rounding mode matters), 1.5*2^-126
 *    (subnormal products), 3e-39 and 2^-140 (subnormal multipliers)} x
 *    zero points {-128, 0, 127};
 *  - for CastTess (route 51) into BF16 tiles (FP16 -> BF16 rounds, BF16 ->
 *    BF16 keeps every bit; BF16 is the only CastTess output dtype);
 * each on three layouts:
 *  - A "flat": [W 256, C 256], a dense input, tiles W16 x C64 pad16: every
 *    encoding in element order, whole tiles;
 *  - B "chw":  [C 16, H 64, W 64] channels-first (C is logical axis 0), a
 *    strided input (W stride 4: a hole after every value; padded rows and
 *    planes; 2 bytes past a page), tiles H5 x W7 x C12 compact: partial tiles
 *    along C, H and W, gaps;
 *  - C "cblock": [N 2, D 4, H 16, W 16, C 32] (an outer axis and a D axis),
 *    a permuted input (memory N, C, D, H, W), tiles D3 x H5 x W6 x C20
 *    pad16 cblock: partial tiles on every axis, channel padding (the zero
 *    point / 0) in both C tile classes;
 * and each job on 4 devices: 1 and 4 workers x immediate and deferred DMA.
 *
 * The expected bytes are the oracle's, never production's (tests/oracle:
 * numerics in double with its own rounder, placement by per-element
 * formula): oracle_casttess for CastTess; for QuantTess oracle_quant_bits
 * of every encoding placed at oracle_element_offset into
 * oracle_quanttess's padding and gaps (checked against oracle_quanttess
 * itself for m = 1), once per dtype x parameter set x layout. They are
 * compared with every byte of the device's output span (values, channel
 * padding, alignment gaps); also checked per job: the guard bytes on both
 * sides of the span, the input left unchanged, exactly 2 bytes read per
 * element and the physical output written once, and the workers' write
 * intervals disjoint (with 4 workers, all 4 write). A case is one element
 * under one parameter set on one device; a mismatch is one output byte
 * that differs from the oracle.
 */
#define _POSIX_C_SOURCE 200809L
#include <simaai/kernels/ev74/casttess.h>
#include <simaai/kernels/ev74/quanttess.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ev74_diff.h"
#include "oracle.h"
#include "tap.h"
#include "test_util.h"

/* Under ThreadSanitizer the emulator's workers run some 10-20x slower, and
 * what TSan adds is the workers' and the host's synchronisation, not the
 * numbers: there QuantTess runs 40 of the 120 parameter sets (each
 * multiplier with one zero point, all 4 roundings), each on one device in
 * turn; every encoding, layout and device still runs, and CastTess is not
 * trimmed. SIMA_SWEEP16_FULL=1 in the environment runs everything anyway. */
#if defined(__SANITIZE_THREAD__)
#define SWEEP16_TSAN 1
#elif defined(__has_feature)
#if __has_feature (thread_sanitizer)
#define SWEEP16_TSAN 1
#endif
#endif
#ifndef SWEEP16_TSAN
#define SWEEP16_TSAN 0
#endif

enum { N16 = 65536, N_DEV = 4, N_LAYOUT = 3, N_MULT = 10, N_ZP = 3,
  N_ROUND = 4, GUARD = 256, POISON = 0xA5, HOLE = 0x7E };

static const char *const dev_specs[N_DEV] = {
  "emulator:workers=1", "emulator:workers=1,dma=deferred",
  "emulator:workers=4", "emulator:workers=4,dma=deferred",
};

static const SimaDType dtypes[2] = { SIMA_DTYPE_FLOAT16, SIMA_DTYPE_BFLOAT16 };
static const int32_t zero_points[N_ZP] = { -128, 0, 127 };
static float multipliers[N_MULT];
static const char *const mult_names[N_MULT] = { "1", "0.3", "127",
  "255.0697/255", "1e30", "3e5", "1.5*2^127", "1.5*2^-126", "3e-39",
  "2^-140" };

static void
init_multipliers (void)
{
  multipliers[0] = 1.0f;
  multipliers[1] = 0.3f;
  multipliers[2] = 127.0f;
  multipliers[3] = 255.0697f / 255.0f;  /* SiMa's 8-bit preproc */
  multipliers[4] = 1.0e30f;             /* saturates nearly everything */
  multipliers[5] = 3.0e5f;              /* FP16 subnormals: 0.018 .. 18.3 */
  multipliers[6] = ldexpf (1.5f, 127);  /* BF16 subnormals: 0.023 .. 2.98;
                                           large products overflow */
  multipliers[7] = ldexpf (1.5f, -126); /* normal; |x| < 2/3: subnormal
                                           products */
  multipliers[8] = 3.0e-39f;            /* subnormal */
  multipliers[9] = ldexpf (1.0f, -140); /* subnormal */
}

/* One layout: the logical shape, the input view (contiguous, or strided
 * with byte strides), its offset in the input arena (the arenas are
 * page-aligned), and the tiling of the output. */
typedef struct {
  const char *name;
  int rank;
  int64_t shape[SIMA_MAX_RANK];
  int strided;
  int64_t strides[SIMA_MAX_RANK];       /* bytes */
  size_t in_offset;
  int8_t axes[4];
  int64_t tile[4];
  SimaChannels channels;
  int cblock;
} Layout;

static const Layout layouts[N_LAYOUT] = {
  { "A flat [W256,C256] dense, W16xC64 pad16", 2, { 256, 256 }, 0, { 0 }, 0,
    { -1, -1, 0, 1 }, { 1, 1, 16, 64 }, SIMA_CHANNELS_PAD16, 0 },
  { "B chw [C16,H64,W64] strided (W stride 4, padded rows and planes, "
    "2 bytes past a page), H5xW7xC12 compact", 3, { 16, 64, 64 }, 1,
    { 64 * 280 + 40, 280, 4 }, (512 << 10) + 2,
    { -1, 1, 2, 0 }, { 1, 5, 7, 12 }, SIMA_CHANNELS_COMPACT, 0 },
  { "C [N2,D4,H16,W16,C32] permuted (NCDHW memory), D3xH5xW6xC20 pad16 "
    "cblock", 5, { 2, 4, 16, 16, 32 }, 1,
    { 65536, 512, 32, 2, 2048 }, 1 << 20,
    { 1, 2, 3, 4 }, { 3, 5, 6, 20 }, SIMA_CHANNELS_PAD16, 1 },
};

static SimaTensorSpec
layout_input (const Layout *l, SimaDType dt)
{
  return l->strided ? test_spec_strided (dt, l->rank, l->shape, l->strides)
      : test_spec_dense (dt, l->rank, l->shape);
}

static SimaTensorSpec
layout_output (const Layout *l, SimaDType dt)
{
  SimaTensorSpec o = test_spec_tiled (dt, l->rank, l->shape, l->axes,
      l->tile, l->channels);
  o.tiled.cblock = l->cblock;
  return o;
}

/* Writes encoding i (little-endian) to logical element i (row-major) of
 * the input view at `base`; holes keep HOLE. Returns the element count
 * (65,536 for every layout, layouts_cover checks). */
static int64_t
fill_input (const Layout *l, uint8_t *base, uint64_t span)
{
  int64_t count = 1, i, coords[SIMA_MAX_RANK] = { 0 };
  int k;

  memset (base, HOLE, (size_t) span);
  for (k = 0; k < l->rank; k++)
    count *= l->shape[k];
  for (i = 0; i < count; i++) {
    int64_t off = 0;
    uint16_t v = (uint16_t) i;
    if (l->strided)
      for (k = 0; k < l->rank; k++)
        off += coords[k] * l->strides[k];
    else
      off = 2 * i;
    base[off] = (uint8_t) v;
    base[off + 1] = (uint8_t) (v >> 8);
    for (k = l->rank - 1; k >= 0 && ++coords[k] == l->shape[k]; k--)
      coords[k] = 0;
  }
  return count;
}

typedef struct {
  uint64_t cases, mismatches, failures, guards, input_changed, traffic,
      ownership, jobs;
  uint64_t commands[N_DEV];     /* DMA commands of the last job per device */
  uint32_t max_writers;        /* most workers that wrote in one job */
} Tally;

/* The workers' written bus intervals are disjoint; returns how many
 * workers wrote, or -1 when two overlap. */
static int
writers (const SimaEv74JobStats *js)
{
  uint32_t w, v;
  int n = 0;

  for (w = 0; w < js->workers && w < 4; w++) {
    if (js->write_lo[w] > js->write_hi[w])
      continue;
    n++;
    for (v = 0; v < w; v++)
      if (js->write_lo[v] <= js->write_hi[v]
          && js->write_lo[w] < js->write_hi[v]
          && js->write_lo[v] < js->write_hi[w])
        return -1;
  }
  return n;
}

/* A bench per device; each layout's input lives at its own offset of the
 * input arena (layouts[].in_offset), filled once per dtype. */
typedef struct {
  DiffBench b[N_DEV];
  uint8_t *input[N_LAYOUT];     /* each layout's input span as filled */
  uint64_t in_span[N_LAYOUT];
  uint8_t *want;                /* the oracle's output span */
  const char *label;            /* for diagnostics */
} Benches;

/* Runs the bound descriptor on device k (input of layout li) and checks the
 * output span against want, the guards, the input, the traffic and the
 * workers' ownership. */
static void
run_check (Benches *bs, int k, int li, const SimaEv74Descriptor *d,
    const SimaTensorSpec *out, uint64_t out_span, uint64_t elements,
    Tally *t, const char *what)
{
  DiffBench *b = &bs->b[k];
  SimaEv74Region *regions[2] = { b->in.region, b->out.region };
  uint8_t *o = b->out.host + GUARD;
  SimaEv74JobStats js;
  SimaStatus st;
  uint64_t i, bad = 0;
  int w;

  memset (b->out.host, POISON, (size_t) out_span + 2 * GUARD);
  memset (&js, 0, sizeof js);
  st = sima_ev74_run (b->dev, d, regions, 2, -1, &js);
  t->jobs++;
  t->cases += elements;
  if (st.code != SIMA_OK) {
    if (t->failures++ < 4)
      tap_diag ("%s %s on %s: %s", bs->label, what, dev_specs[k],
          st.message);
    return;
  }
  if (memcmp (o, bs->want, (size_t) out_span) != 0) {
    for (i = 0; i < out_span; i++) {
      if (o[i] == bs->want[i])
        continue;
      if (bad++ < 3 && t->mismatches + bad <= 6) {
        /* which element, if any, lives at byte i (the oracle's placement) */
        int64_t c[SIMA_MAX_RANK], e, found = -1;
        int r, rank = out->rank;
        memset (c, 0, sizeof c);
        for (e = 0; e < (int64_t) elements && found < 0; e++) {
          if (oracle_element_offset (out, c) == (int64_t) i)
            found = e;
          for (r = rank - 1; r >= 0 && ++c[r] == out->shape[r]; r--)
            c[r] = 0;
        }
        tap_diag ("%s %s on %s: output byte %llu (element %lld = encoding "
            "%#06llx; -1: padding, a gap or a BF16 high byte) is %#04x, "
            "oracle %#04x", bs->label, what, dev_specs[k],
            (unsigned long long) i, (long long) found,
            (unsigned long long) (found < 0 ? 0 : found % N16), o[i],
            bs->want[i]);
      }
    }
    t->mismatches += bad;
  }
  for (i = 0; i < GUARD; i++)
    if (b->out.host[i] != POISON || o[out_span + i] != POISON) {
      t->guards++;
      break;
    }
  if (memcmp (b->in.host + layouts[li].in_offset, bs->input[li],
          (size_t) bs->in_span[li]) != 0)
    t->input_changed++;
  if (js.dma_bytes_read != 2 * elements || js.dma_bytes_written != out_span) {
    if (t->traffic++ < 2)
      tap_diag ("%s %s on %s: read %llu (want %llu), wrote %llu (want %llu)",
          bs->label, what, dev_specs[k],
          (unsigned long long) js.dma_bytes_read,
          (unsigned long long) (2 * elements),
          (unsigned long long) js.dma_bytes_written,
          (unsigned long long) out_span);
  }
  t->commands[k] = js.dma_commands;
  w = writers (&js);
  if (w < 0)
    t->ownership++;
  else if ((uint32_t) w > t->max_writers)
    t->max_writers = (uint32_t) w;
}

/* Every layout's input, as `dtype` (the same bits either way), into every
 * bench. */
static void
fill_inputs (Benches *bs, SimaDType dtype)
{
  int li, k;

  for (li = 0; li < N_LAYOUT; li++) {
    SimaTensorSpec in = layout_input (&layouts[li], dtype);
    bs->in_span[li] = oracle_required_bytes (&in);
    fill_input (&layouts[li], bs->input[li], bs->in_span[li]);
    for (k = 0; k < N_DEV; k++)
      memcpy (bs->b[k].in.host + layouts[li].in_offset, bs->input[li],
          (size_t) bs->in_span[li]);
  }
}

/* Binds d to layout li's input and the output window and runs it on the
 * devices in the mask `devices`. */
static void
run_all (Benches *bs, int li, SimaEv74Descriptor *d, const SimaTensorSpec *out,
    uint64_t out_span, uint64_t elements, Tally *t, const char *what,
    unsigned devices)
{
  int k;

  for (k = 0; k < N_DEV; k++) {
    if (!(devices & (1u << k)))
      continue;
    SimaEv74Binding bi = test_arena_binding (&bs->b[k].in,
        layouts[li].in_offset);
    SimaEv74Binding bo = test_arena_binding (&bs->b[k].out, GUARD);
    SimaStatus st = sima_ev74_descriptor_bind (d, &bi, &bo);
    if (st.code != SIMA_OK) {
      t->jobs++;
      t->cases += elements;
      if (t->failures++ < 4)
        tap_diag ("%s %s: bind: %s", bs->label, what, st.message);
      continue;
    }
    run_check (bs, k, li, d, out, out_span, elements, t, what);
  }
}

static double
now_s (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static int
oracle_rounding (SimaRounding r)
{
  return r == SIMA_ROUNDING_NEAREST_EVEN ? ORACLE_ROUND_NEAREST_EVEN
      : r == SIMA_ROUNDING_TOWARD_ZERO ? ORACLE_ROUND_TOWARD_ZERO
      : r == SIMA_ROUNDING_TOWARD_POSITIVE ? ORACLE_ROUND_TOWARD_POSITIVE
      : ORACLE_ROUND_TOWARD_NEGATIVE;
}

/* One TAP point per op x dtype x layout: `jobs` jobs of all 65,536
 * encodings each. */
static void
report (const char *op, SimaDType dt, const Layout *l, const Tally *t,
    uint64_t jobs, const char *what)
{
  tap_ok (t->mismatches == 0 && t->failures == 0 && t->guards == 0
      && t->input_changed == 0 && t->traffic == 0 && t->ownership == 0
      && t->jobs == jobs && t->cases == jobs * N16 && t->max_writers == 4,
      "%s %s exhaustive on the emulator, layout %s: %s (1/4 workers x "
      "immediate/deferred DMA) = %llu jobs, %llu cases, %llu mismatches "
      "against the oracle (failed jobs %llu, guard %llu, input %llu, "
      "traffic %llu, ownership %llu; up to %u workers wrote)", op,
      sima_dtype_name (dt), l->name, what, (unsigned long long) t->jobs,
      (unsigned long long) t->cases, (unsigned long long) t->mismatches,
      (unsigned long long) t->failures, (unsigned long long) t->guards,
      (unsigned long long) t->input_changed, (unsigned long long) t->traffic,
      (unsigned long long) t->ownership, t->max_writers);
  tap_diag ("%s %s layout %c: DMA commands per job %llu (1 worker), %llu "
      "(4 workers)", op, sima_dtype_name (dt), l->name[0],
      (unsigned long long) t->commands[0],
      (unsigned long long) t->commands[2]);
}

enum { ALL_DEVICES = (1u << N_DEV) - 1 };
static int trim;                /* SWEEP16_TSAN and not SIMA_SWEEP16_FULL */

/* The devices (a mask) that parameter set (mi, zi, r) runs on: all of them;
 * trimmed, one zero point per multiplier (zi = mi mod 3, so every
 * multiplier, rounding and zero point stays) on one device, in turn. */
static unsigned
param_devices (int mi, int zi, int r)
{
  if (!trim)
    return ALL_DEVICES;
  if (zi != mi % N_ZP)
    return 0;
  return 1u << ((mi + r) % N_DEV);
}

static int
is_subnormal (SimaDType dt, uint16_t e)
{
  return dt == SIMA_DTYPE_FLOAT16 ? (e & 0x7c00) == 0 && (e & 0x03ff) != 0
      : (e & 0x7f80) == 0 && (e & 0x007f) != 0;
}

/* QuantTess: every encoding x 120 parameter sets x 3 layouts x 4 devices.
 * The oracle's bytes for a layout and parameter set are its whole-tensor
 * result, assembled without rerunning its placement for every parameter
 * set: per layout, the byte offset of every element
 * (oracle_element_offset) and, per zero point, oracle_quanttess's output
 * (the padding and gaps); per parameter set, oracle_quant_bits of every
 * encoding, written at the elements' offsets. For the nearest-even m = 1
 * sets the assembly is compared with oracle_quanttess's own output. */
static void
quanttess_sweep (Benches *bs)
{
  int64_t *map[N_LAYOUT];
  uint8_t *tmpl[N_LAYOUT][N_ZP];
  uint64_t out_span[N_LAYOUT];
  int8_t *table = malloc (N16), *rne = malloc (N16);
  int li, di, zi;

  for (li = 0; li < N_LAYOUT; li++) {
    SimaTensorSpec out = layout_output (&layouts[li], SIMA_DTYPE_INT8);
    int64_t c[SIMA_MAX_RANK] = { 0 }, e;
    int r;

    out_span[li] = oracle_required_bytes (&out);
    map[li] = malloc (N16 * sizeof *map[li]);
    for (e = 0; e < N16; e++) {
      map[li][e] = oracle_element_offset (&out, c);
      for (r = out.rank - 1; r >= 0 && ++c[r] == out.shape[r]; r--)
        c[r] = 0;
    }
    for (zi = 0; zi < N_ZP; zi++)
      tmpl[li][zi] = malloc ((size_t) out_span[li]);
  }
  for (di = 0; di < 2; di++) {
    const SimaDType dt = dtypes[di];
    Tally t[N_LAYOUT];
    uint64_t assembly_bad = 0, want_jobs[N_LAYOUT] = { 0 };
    /* coverage, per multiplier (zero point 0): nearest-even results at
     * 127, at -128 and in between; subnormal encodings for which
     * nearest-even and toward-zero differ (|product| >= 0.5: beyond the
     * directed modes' +-1 for tiny products) */
    uint64_t sat_hi[N_MULT] = { 0 }, sat_lo[N_MULT] = { 0 },
        inner[N_MULT] = { 0 }, sub_rounding[N_MULT] = { 0 }, sub_total = 0;
    double t0 = now_s (), t_oracle = 0;
    int mi, r;
    char label[64];

    memset (t, 0, sizeof t);
    snprintf (label, sizeof label, "QuantTess %s", sima_dtype_name (dt));
    bs->label = label;
    fill_inputs (bs, dt);
    for (li = 0; li < N_LAYOUT; li++) {
      SimaTensorSpec in = layout_input (&layouts[li], dt);
      SimaTensorSpec out = layout_output (&layouts[li], SIMA_DTYPE_INT8);
      for (zi = 0; zi < N_ZP; zi++)
        oracle_quanttess (&in, bs->input[li], &out, 1.0f, zero_points[zi],
            ORACLE_ROUND_NEAREST_EVEN, tmpl[li][zi]);
    }
    for (mi = 0; mi < N_MULT; mi++)
      for (zi = 0; zi < N_ZP; zi++)
        for (r = 0; r < N_ROUND; r++) {
          const float m = multipliers[mi];
          const int32_t zp = zero_points[zi];
          const unsigned devices = param_devices (mi, zi, r);
          double to = now_s ();
          char what[96];
          int64_t e;

          snprintf (what, sizeof what, "m=%s zp=%d %s", mult_names[mi],
              (int) zp, sima_rounding_name ((SimaRounding) r));
          if (devices == 0 && !(zp == 0 && (r == SIMA_ROUNDING_NEAREST_EVEN
                      || r == SIMA_ROUNDING_TOWARD_ZERO)))
            continue;           /* trimmed, and not needed for coverage */
          for (e = 0; e < N16; e++)
            table[e] = oracle_quant_bits (dt, (uint32_t) e, m, zp,
                oracle_rounding ((SimaRounding) r));
          t_oracle += now_s () - to;
          if (zp == 0 && r == SIMA_ROUNDING_NEAREST_EVEN) {
            memcpy (rne, table, N16);
            for (e = 0; e < N16; e++) {
              sat_hi[mi] += table[e] == 127;
              sat_lo[mi] += table[e] == -128;
              inner[mi] += table[e] != 127 && table[e] != -128;
            }
          } else if (zp == 0 && r == SIMA_ROUNDING_TOWARD_ZERO) {
            for (e = 0; e < N16; e++)
              sub_rounding[mi] += is_subnormal (dt, (uint16_t) e)
                  && table[e] != rne[e];
          }
          for (li = 0; li < N_LAYOUT && devices != 0; li++) {
            SimaTensorSpec in = layout_input (&layouts[li], dt);
            SimaTensorSpec out = layout_output (&layouts[li],
                SIMA_DTYPE_INT8);
            SimaQuantTessRequest req = { &in, 1, &out, 1,
              { m, zp, (SimaRounding) r } };
            static SimaEv74Descriptor d;
            SimaQuantTessPlan plan;
            SimaStatus st = sima_quanttess_check_inference (&req, &plan);

            if (st.code == SIMA_OK)
              st = sima_ev74_quanttess_encode_relocatable (&plan, &d);
            want_jobs[li] += (uint64_t) __builtin_popcount (devices);
            if (st.code != SIMA_OK || plan.output_bytes != out_span[li]) {
              t[li].jobs += (uint64_t) __builtin_popcount (devices);
              t[li].cases += (uint64_t) N16 * __builtin_popcount (devices);
              t[li].failures++;
              tap_diag ("%s %s: not admitted or encoded: %s", label, what,
                  st.message);
              continue;
            }
            memcpy (bs->want, tmpl[li][zi], (size_t) out_span[li]);
            for (e = 0; e < N16; e++)
              bs->want[map[li][e]] = (uint8_t) table[e];
            if (mi == 0 && r == SIMA_ROUNDING_NEAREST_EVEN
                && memcmp (bs->want, tmpl[li][zi], (size_t) out_span[li]))
              assembly_bad++;
            run_all (bs, li, &d, &out, plan.output_bytes, plan.element_count,
                &t[li], what, devices);
          }
        }
    for (mi = 0; mi < N_MULT; mi++) {
      tap_diag ("QuantTess %s m=%s zp=0: nearest-even gives 127 for %llu "
          "encodings, -128 for %llu, other values for %llu; %llu subnormal "
          "encodings differ between nearest-even and toward-zero",
          sima_dtype_name (dt), mult_names[mi],
          (unsigned long long) sat_hi[mi], (unsigned long long) sat_lo[mi],
          (unsigned long long) inner[mi],
          (unsigned long long) sub_rounding[mi]);
      sub_total += sub_rounding[mi];
    }
    /* 1e30 saturates both ways; 3e5 (FP16) or 1.5*2^127 (BF16) brings the
     * subnormals to where nearest-even and toward-zero part */
    tap_ok (sat_hi[4] > 0 && sat_lo[4] > 0 && inner[0] > 0
        && sub_rounding[di == 0 ? 5 : 6] > 0,
        "QuantTess %s parameter coverage: m=1e30 saturates %llu encodings "
        "to 127 and %llu to -128; nearest-even and toward-zero differ "
        "for %llu subnormal encodings (m=%s: %llu)",
        sima_dtype_name (dt), (unsigned long long) sat_hi[4],
        (unsigned long long) sat_lo[4], (unsigned long long) sub_total,
        mult_names[di == 0 ? 5 : 6],
        (unsigned long long) sub_rounding[di == 0 ? 5 : 6]);
    tap_ok (assembly_bad == 0, "QuantTess %s: the assembled oracle bytes "
        "equal oracle_quanttess for m=1 nearest-even, 3 zero points x 3 "
        "layouts (%llu differ)", sima_dtype_name (dt),
        (unsigned long long) assembly_bad);
    for (li = 0; li < N_LAYOUT; li++)
      report ("QuantTess", dt, &layouts[li], &t[li], want_jobs[li], trim
          ? "65536 encodings x (10 multipliers x 3 zero points x 4 roundings,"
          " trimmed under TSan to 40 parameter sets, each on 1 device)"
          : "65536 encodings x 10 multipliers x 3 zero points x 4 roundings "
          "x 4 devices");
    tap_diag ("QuantTess %s: %.2f s (oracle numerics %.2f s)",
        sima_dtype_name (dt), now_s () - t0, t_oracle);
  }
  for (li = 0; li < N_LAYOUT; li++) {
    free (map[li]);
    for (zi = 0; zi < N_ZP; zi++)
      free (tmpl[li][zi]);
  }
  free (table);
  free (rne);
}

/* CastTess: every encoding x 3 layouts x 4 devices, against
 * oracle_casttess. */
static void
casttess_sweep (Benches *bs)
{
  int li, di;

  for (di = 0; di < 2; di++) {
    const SimaDType dt = dtypes[di];
    char label[64];

    snprintf (label, sizeof label, "CastTess %s", sima_dtype_name (dt));
    bs->label = label;
    fill_inputs (bs, dt);
    for (li = 0; li < N_LAYOUT; li++) {
      SimaTensorSpec in = layout_input (&layouts[li], dt);
      SimaTensorSpec out = layout_output (&layouts[li], SIMA_DTYPE_BFLOAT16);
      SimaCastTessRequest req = { &in, 1, &out, 1 };
      static SimaEv74Descriptor d;
      SimaCastTessPlan plan;
      SimaStatus st = sima_casttess_check_inference (&req, &plan);
      Tally t;

      memset (&t, 0, sizeof t);
      if (st.code == SIMA_OK)
        st = sima_ev74_casttess_encode_relocatable (&plan, &d);
      if (st.code == SIMA_OK) {
        oracle_casttess (&in, bs->input[li], &out, bs->want);
        run_all (bs, li, &d, &out, plan.output_bytes, plan.element_count, &t,
            "-> BF16", ALL_DEVICES);
      } else {
        t.failures++;
        tap_diag ("%s: not admitted or encoded: %s", label, st.message);
      }
      report ("CastTess", dt, &layouts[li], &t, N_DEV,
          "65536 encodings x 4 devices");
    }
  }
}

/* The sweeps rely on every layout holding each encoding exactly once and
 * on B and C having partial tiles along every tiled axis (A none), by the
 * test's own arithmetic; the spans are the oracle's. */
static void
layouts_cover (void)
{
  static const char roles[4] = { 'D', 'H', 'W', 'C' };
  int li;

  for (li = 0; li < N_LAYOUT; li++) {
    const Layout *l = &layouts[li];
    SimaTensorSpec in = layout_input (l, SIMA_DTYPE_FLOAT16);
    SimaTensorSpec out = layout_output (l, SIMA_DTYPE_INT8);
    int64_t count = 1;
    uint64_t in_span = oracle_required_bytes (&in);
    uint64_t out_span = oracle_required_bytes (&out);
    char partial[5] = "";
    int k, n_partial = 0, n_mapped = 0;

    for (k = 0; k < l->rank; k++)
      count *= l->shape[k];
    for (k = 0; k < 4; k++) {
      if (l->axes[k] < 0)
        continue;
      n_mapped++;
      if (l->shape[l->axes[k]] % l->tile[k] != 0)
        partial[n_partial++] = roles[k];
    }
    /* the inputs sit side by side in the input arena, 512 KiB apart */
    tap_ok (count == N16 && in_span <= (512 << 10) - 16
        && (li + 1 == N_LAYOUT || l->in_offset + in_span
            <= layouts[li + 1].in_offset)
        && 2 * out_span <= (512 << 10)
        && n_partial == (li == 0 ? 0 : n_mapped),
        "layout %s: %lld elements (every encoding once), input span %llu, "
        "INT8 output %llu bytes (%.3f per element), partial tiles along "
        "%s", l->name, (long long) count, (unsigned long long) in_span,
        (unsigned long long) out_span, (double) out_span / (double) count,
        n_partial ? partial : "no axis");
  }
}

int
main (void)
{
  Benches bs;
  double t0 = now_s ();
  int k, li;

  init_multipliers ();
  trim = SWEEP16_TSAN && getenv ("SIMA_SWEEP16_FULL") == NULL;
  if (trim)
    tap_diag ("ThreadSanitizer: QuantTess trimmed to 40 of 120 parameter "
        "sets, each on one device (SIMA_SWEEP16_FULL=1 runs all)");
  layouts_cover ();
  for (k = 0; k < N_DEV; k++)
    diff_bench_open (&bs.b[k], dev_specs[k]);
  for (li = 0; li < N_LAYOUT; li++)
    bs.input[li] = malloc (1 << 19);
  bs.want = malloc (1 << 19);
  casttess_sweep (&bs);
  tap_diag ("CastTess sweeps: %.2f s", now_s () - t0);
  quanttess_sweep (&bs);
  for (k = 0; k < N_DEV; k++)
    diff_bench_close (&bs.b[k]);
  for (li = 0; li < N_LAYOUT; li++)
    free (bs.input[li]);
  free (bs.want);
  tap_diag ("total %.2f s", now_s () - t0);
  return tap_done ();
}
