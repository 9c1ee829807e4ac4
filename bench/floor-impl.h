/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * floor-impl.h - the floor candidates, included once per instruction set
 * by floor-plain.c, floor-avx2.c and floor-avx512.c, each compiled with its
 * own flags. The including file defines:
 *
 *   FLOOR_VEC_BYTES   the vector width (16, 32 or 64)
 *   FLOOR_SET_FN      the name of the set's accessor
 *   FLOOR_ISA_NAME    the ISA's name as printed
 *   FLOOR_STREAM(p,v) a non-temporal store of one vector at an aligned p,
 *                     and FLOOR_FENCE() the fence after them (optional:
 *                     without them there is no non-temporal candidate)
 *
 * The vectors are GCC vector extensions, so the compiler emits the widest
 * loads and stores the flags allow (one zmm per V with AVX-512, one ymm
 * with AVX2, one xmm or q register otherwise) without an intrinsic per
 * operation. Four independent accumulators keep the loads from waiting on
 * one add chain.
 */
#include <string.h>

#include "floor.h"

typedef uint64_t V __attribute__ ((vector_size (FLOOR_VEC_BYTES)));
#define VB ((size_t) FLOOR_VEC_BYTES)

static inline V
load (const uint8_t *p)
{
  V v;
  memcpy (&v, p, sizeof v);     /* an unaligned vector load */
  return v;
}

static inline void
store (uint8_t *p, V v)
{
  memcpy (p, &v, sizeof v);
}

static uint64_t
fold (V a)
{
  uint64_t s = 0;
  size_t i;
  for (i = 0; i < VB / 8; i++)
    s += a[i];
  return s;
}

/* Sums [p, p + n) in 64-bit lanes: every byte is loaded once, by whole
 * vectors, four vectors per iteration; the tail bytewise. */
static uint64_t
sum_bytes (const uint8_t *p, size_t n)
{
  V a0 = { 0 }, a1 = { 0 }, a2 = { 0 }, a3 = { 0 };
  size_t i = 0;
  uint64_t s;

  for (; i + 4 * VB <= n; i += 4 * VB) {
    a0 += load (p + i);
    a1 += load (p + i + VB);
    a2 += load (p + i + 2 * VB);
    a3 += load (p + i + 3 * VB);
  }
  for (; i + VB <= n; i += VB)
    a0 += load (p + i);
  s = fold (a0 + a1 + a2 + a3);
  for (; i < n; i++)
    s += p[i];
  return s;
}

static uint64_t
read_memset (const uint8_t *in, size_t in_bytes, uint8_t *out,
    size_t out_bytes)
{
  uint64_t s = sum_bytes (in, in_bytes);
  /* the C library's memset: its own best ISA, and its own non-temporal
   * stores above its threshold */
  memset (out, (int) (s & 0x7f), out_bytes);
  return s;
}

static inline void write_range (uint8_t *out, size_t n, V v, int nt);

/* The same with this ISA's vector stores instead of the C library's
 * (whose choice of stores for a size is its own). */
static uint64_t
read_vecset (const uint8_t *in, size_t in_bytes, uint8_t *out,
    size_t out_bytes)
{
  uint64_t s = sum_bytes (in, in_bytes);
  V v = { 0 };
  v += s;
  write_range (out, out_bytes, v, 0);
  return s;
}

static uint64_t
copy (const uint8_t *in, size_t in_bytes, uint8_t *out, size_t out_bytes)
{
  size_t n = in_bytes > out_bytes ? in_bytes : out_bytes;
  memcpy (out, in, n);
  return out[0];
}

/* The fused loop: the larger side is cut in blocks of BLOCK bytes and the
 * smaller side in as many proportional ranges (whole vectors, the last
 * range takes the rest), so both are walked once, front to back, side by
 * side, as a kernel does. Each block's input is summed and its output is
 * written with that sum: every output byte depends on input bytes, so
 * nothing can be skipped. One division per block (of 2 KiB), nothing per
 * vector. */
#define BLOCK ((size_t) 2048)

static inline void
write_range (uint8_t *out, size_t n, V v, int nt)
{
  size_t i = 0;
#ifdef FLOOR_STREAM
  if (nt) {
    for (; i + 4 * VB <= n; i += 4 * VB) {
      FLOOR_STREAM (out + i, v);
      FLOOR_STREAM (out + i + VB, v);
      FLOOR_STREAM (out + i + 2 * VB, v);
      FLOOR_STREAM (out + i + 3 * VB, v);
    }
    for (; i + VB <= n; i += VB)
      FLOOR_STREAM (out + i, v);
  }
#else
  (void) nt;
#endif
  for (; i + 4 * VB <= n; i += 4 * VB) {
    store (out + i, v);
    store (out + i + VB, v);
    store (out + i + 2 * VB, v);
    store (out + i + 3 * VB, v);
  }
  for (; i + VB <= n; i += VB)
    store (out + i, v);
  for (; i < n; i++)
    out[i] = (uint8_t) v[0];
}

static inline uint64_t
stream_common (const uint8_t *in, size_t in_bytes, uint8_t *out,
    size_t out_bytes, int nt)
{
  size_t big = in_bytes > out_bytes ? in_bytes : out_bytes;
  size_t small = in_bytes > out_bytes ? out_bytes : in_bytes;
  size_t blocks = (big + BLOCK - 1) / BLOCK, small_v = small / VB, b;
  uint64_t total = 0;

  for (b = 0; b < blocks; b++) {
    size_t big_lo = b * BLOCK;
    size_t big_hi = big_lo + BLOCK < big ? big_lo + BLOCK : big;
    /* whole vectors of the smaller side, in proportion; the last block
     * also takes its tail */
    size_t small_lo = (size_t) ((uint64_t) b * small_v / blocks) * VB;
    size_t small_hi = b + 1 == blocks ? small
        : (size_t) ((uint64_t) (b + 1) * small_v / blocks) * VB;
    size_t in_lo = in_bytes > out_bytes ? big_lo : small_lo;
    size_t in_hi = in_bytes > out_bytes ? big_hi : small_hi;
    size_t out_lo = in_bytes > out_bytes ? small_lo : big_lo;
    size_t out_hi = in_bytes > out_bytes ? small_hi : big_hi;
    uint64_t s = sum_bytes (in + in_lo, in_hi - in_lo);
    V v = { 0 };
    v += s;
    total += s;
    write_range (out + out_lo, out_hi - out_lo, v, nt);
  }
#ifdef FLOOR_FENCE
  if (nt)
    FLOOR_FENCE ();
#endif
  return total;
}

static uint64_t
stream (const uint8_t *in, size_t in_bytes, uint8_t *out, size_t out_bytes)
{
  return stream_common (in, in_bytes, out, out_bytes, 0);
}

#ifdef FLOOR_STREAM
static uint64_t
stream_nt (const uint8_t *in, size_t in_bytes, uint8_t *out,
    size_t out_bytes)
{
  return stream_common (in, in_bytes, out, out_bytes, 1);
}
#endif

/* The interleaved loop: loads and stores vector by vector in proportion
 * (Bresenham steps over max(in, out) vectors, no division in the loop),
 * each stored vector the XOR of the inputs loaded so far. A kernel stores
 * each result as soon as its inputs are in; `stream` makes every store of
 * a block wait for the whole block's sum, which a kernel beat (CastTess
 * 1080p ran at 0.96 of that floor), so this candidate keeps the loads and
 * stores overlapped as a kernel does. The input's tail bytes are summed,
 * the output's tail bytes written with the result. */
static inline uint64_t
interleave_common (const uint8_t *in, size_t in_bytes, uint8_t *out,
    size_t out_bytes, int nt)
{
  const size_t iv = in_bytes / VB, ov = out_bytes / VB;
  const size_t m = iv > ov ? iv : ov;
  size_t k, ii = 0, oo = 0, ei = m > 0 ? m - 1 : 0, eo = 0, i;
  V acc = { 0 };
  uint64_t s;

  for (k = 0; k < m; k++) {
    ei += iv;                   /* iv crossings in m steps, the first at 0 */
    if (ei >= m) {
      ei -= m;
      acc ^= load (in + ii++ * VB);
    }
    eo += ov;                   /* ov crossings in m steps */
    if (eo >= m) {
      eo -= m;
#ifdef FLOOR_STREAM
      if (nt)
        FLOOR_STREAM (out + oo * VB, acc);
      else
#endif
        store (out + oo * VB, acc);
      oo++;
    }
  }
#ifdef FLOOR_FENCE
  if (nt)
    FLOOR_FENCE ();
#else
  (void) nt;
#endif
  s = fold (acc);
  for (i = iv * VB; i < in_bytes; i++)
    s += in[i];
  for (i = ov * VB; i < out_bytes; i++)
    out[i] = (uint8_t) s;
  return s;
}

static uint64_t
interleave (const uint8_t *in, size_t in_bytes, uint8_t *out,
    size_t out_bytes)
{
  return interleave_common (in, in_bytes, out, out_bytes, 0);
}

#ifdef FLOOR_STREAM
static uint64_t
interleave_nt (const uint8_t *in, size_t in_bytes, uint8_t *out,
    size_t out_bytes)
{
  return interleave_common (in, in_bytes, out, out_bytes, 1);
}
#endif

static const SimaFloorSet floor_set = { FLOOR_ISA_NAME, {
        {"read+memset", read_memset},
        {"read+vecset", read_vecset},
        {"memcpy", copy},
        {"stream", stream},
#ifdef FLOOR_STREAM
        {"stream-nt", stream_nt},
#else
        {"stream-nt", NULL},
#endif
        {"interleave", interleave},
#ifdef FLOOR_STREAM
        {"interleave-nt", interleave_nt},
#else
        {"interleave-nt", NULL},
#endif
    }
};

const SimaFloorSet *
FLOOR_SET_FN (void)
{
  return &floor_set;
}
