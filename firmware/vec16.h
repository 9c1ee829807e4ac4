/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * vec16.h - the sixteen-lane vectors the EV74 firmware computes with.
 *
 * The EV74's vector unit works on 512-bit registers: sixteen 32-bit lanes.
 * The firmware writes its arithmetic as GCC/Clang generic vectors of that
 * shape, so every operation here maps one to one onto an OpenCL C built-in
 * of the device toolchain (float16, int16, uint16 and convert_*):
 *
 *   SimaV16f / SimaV16i / SimaV16u    float16 / int16 / uint16
 *   sima_v16_as_*                     as_float16, as_int16, as_uint16
 *   sima_v16_cvt_*                    convert_float16, convert_int16_rtz
 *   sima_v16_select                   select / bitselect
 *   sima_v16_lt_f, _gt_f, _isnan ...  isless, isgreater, isnan, <, ==
 *   sima_v16_any                      any
 *   sima_v16_load_* / _store_*        vload16 / vstore16 (with the widening
 *                                     and narrowing convert_*)
 *
 * Loads and stores go through memcpy: staged bytes have no alignment
 * promise (a panel starts at any element) and memcpy is the one way C
 * allows an unaligned vector access; compilers turn it into a single
 * unaligned load or store. Every target of this project (the EV74, the A65,
 * the hosts) is little-endian, which the lane order of a load assumes.
 *
 * Everything is static inline and always inlined: a vector argument or
 * return value of an out-of-line call would go through memory on a target
 * without 512-bit registers (and changes the ABI; GCC's -Wpsabi), and on the
 * device a call in the hot loop spills the vector state.
 */
#ifndef SIMA_FIRMWARE_VEC16_H
#define SIMA_FIRMWARE_VEC16_H

#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef float SimaV16f __attribute__ ((vector_size (64)));
typedef int32_t SimaV16i __attribute__ ((vector_size (64)));
typedef uint32_t SimaV16u __attribute__ ((vector_size (64)));
typedef uint16_t SimaV16h __attribute__ ((vector_size (32)));
typedef int16_t SimaV16s __attribute__ ((vector_size (32)));
typedef uint8_t SimaV16b __attribute__ ((vector_size (16)));
typedef int8_t SimaV16c __attribute__ ((vector_size (16)));

#define SIMA_V16_LANES 16

#define SIMA_V16_INLINE static inline __attribute__ ((always_inline))

/* GCC warns that a 64-byte vector argument or return value changes the
 * ABI on a target without AVX-512 (-Wpsabi), even for functions that are
 * always inlined and so have no ABI. Nothing here is ever called out of
 * line (nor may a user of this header pass vectors to an out-of-line
 * function), so the warning is off for every file that uses the header. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

/* ---- splats and bit casts ------------------------------------------------ */

SIMA_V16_INLINE SimaV16u
sima_v16_splat_u (uint32_t x)
{
  SimaV16u v = { 0 };
  return v + x;
}

SIMA_V16_INLINE SimaV16i
sima_v16_splat_i (int32_t x)
{
  SimaV16i v = { 0 };
  return v + x;
}

/* Spelled out lane by lane: with x87 arithmetic (FLT_EVAL_METHOD 2, as
 * the freestanding check compiles i686) v + x would take x as long
 * double, which a float vector refuses. */
SIMA_V16_INLINE SimaV16f
sima_v16_splat_f (float x)
{
  SimaV16f v = { x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x };
  return v;
}

SIMA_V16_INLINE SimaV16f
sima_v16_as_f (SimaV16u v)
{
  return (SimaV16f) v;
}

SIMA_V16_INLINE SimaV16u
sima_v16_as_u (SimaV16f v)
{
  return (SimaV16u) v;
}

/* ---- conversions --------------------------------------------------------- */

/* Toward zero, as C's conversion (OpenCL convert_int16_rtz); the caller
 * keeps every lane inside int32's range. */
SIMA_V16_INLINE SimaV16i
sima_v16_cvt_i_rtz (SimaV16f v)
{
  return __builtin_convertvector (v, SimaV16i);
}

/* Exact for |lane| < 2^24. */
SIMA_V16_INLINE SimaV16f
sima_v16_cvt_f (SimaV16i v)
{
  return __builtin_convertvector (v, SimaV16f);
}

/* ---- comparisons (OpenCL isless, isgreater, isnotequal, <, ==) --------- */

/* Every comparison goes through these, and each compares four 128-bit
 * quarters: GCC 12 expands a comparison of 64-byte generic vectors lane by
 * lane into scalar code unless the target has AVX-512 (about 100
 * instructions for one), but compares 128-bit vectors natively on every
 * target and keeps the quarters of a union in registers. The result is a
 * comparison's: all ones in true lanes, zero elsewhere. */
typedef float SimaV4f __attribute__ ((vector_size (16)));
typedef int32_t SimaV4i __attribute__ ((vector_size (16)));
typedef uint32_t SimaV4u __attribute__ ((vector_size (16)));
typedef union { SimaV16f v; SimaV4f q[4]; } SimaV16fQ;
typedef union { SimaV16i v; SimaV4i q[4]; } SimaV16iQ;
typedef union { SimaV16u v; SimaV4u q[4]; } SimaV16uQ;

#define SIMA_V16_CMP(name, V, Q, op)                                          \
  SIMA_V16_INLINE SimaV16i                                                   \
  name (V a, V b)                                                            \
  {                                                                          \
    Q x, y;                                                                  \
    SimaV16iQ r;                                                             \
    x.v = a;                                                                 \
    y.v = b;                                                                 \
    r.q[0] = (SimaV4i) (x.q[0] op y.q[0]);                                   \
    r.q[1] = (SimaV4i) (x.q[1] op y.q[1]);                                   \
    r.q[2] = (SimaV4i) (x.q[2] op y.q[2]);                                   \
    r.q[3] = (SimaV4i) (x.q[3] op y.q[3]);                                   \
    return r.v;                                                              \
  }
SIMA_V16_CMP (sima_v16_lt_f, SimaV16f, SimaV16fQ, <)
SIMA_V16_CMP (sima_v16_gt_f, SimaV16f, SimaV16fQ, >)
SIMA_V16_CMP (sima_v16_ne_f, SimaV16f, SimaV16fQ, !=)
SIMA_V16_CMP (sima_v16_lt_i, SimaV16i, SimaV16iQ, <)
SIMA_V16_CMP (sima_v16_gt_i, SimaV16i, SimaV16iQ, >)
SIMA_V16_CMP (sima_v16_lt_u, SimaV16u, SimaV16uQ, <)
SIMA_V16_CMP (sima_v16_eq_u, SimaV16u, SimaV16uQ, ==)
#undef SIMA_V16_CMP

/* NaN lanes (OpenCL isnan): the one value unequal to itself. */
SIMA_V16_INLINE SimaV16i
sima_v16_isnan (SimaV16f a)
{
  return sima_v16_ne_f (a, a);
}

/* ---- lane selection and reduction ---------------------------------------- */

/* mask lanes are all ones or all zeros (a comparison's result): a where
 * set, b elsewhere. */
SIMA_V16_INLINE SimaV16u
sima_v16_select_u (SimaV16i mask, SimaV16u a, SimaV16u b)
{
  SimaV16u m = (SimaV16u) mask;
  return (a & m) | (b & ~m);
}

SIMA_V16_INLINE SimaV16f
sima_v16_select_f (SimaV16i mask, SimaV16f a, SimaV16f b)
{
  return (SimaV16f) sima_v16_select_u (mask, (SimaV16u) a, (SimaV16u) b);
}

SIMA_V16_INLINE SimaV16i
sima_v16_select_i (SimaV16i mask, SimaV16i a, SimaV16i b)
{
  return (SimaV16i) sima_v16_select_u (mask, (SimaV16u) a, (SimaV16u) b);
}

/* Unsigned lane-wise minimum. */
SIMA_V16_INLINE SimaV16u
sima_v16_min_u (SimaV16u a, SimaV16u b)
{
  return sima_v16_select_u (sima_v16_lt_u (a, b), a, b);
}

/* Nonzero if any lane of the mask is set (OpenCL any()). One reduction:
 * halves ORed together down to two 64-bit words (memcpy between vector
 * types of the right sizes is a register move, where a loop over lanes
 * would extract each one). */
SIMA_V16_INLINE int
sima_v16_any (SimaV16i mask)
{
  typedef uint64_t V4q __attribute__ ((vector_size (32)));
  typedef uint64_t V2q __attribute__ ((vector_size (16)));
  V4q h[2];
  V2q q[2];
  memcpy (h, &mask, sizeof h);
  h[0] |= h[1];
  memcpy (q, &h[0], sizeof q);
  q[0] |= q[1];
  return (q[0][0] | q[0][1]) != 0;
}

/* ---- loads and stores ---------------------------------------------------- */

SIMA_V16_INLINE SimaV16u
sima_v16_load_u32 (const uint8_t *p)
{
  SimaV16u v;
  memcpy (&v, p, sizeof v);
  return v;
}

/* Sixteen halfwords, zero-extended to 32-bit lanes. */
SIMA_V16_INLINE SimaV16u
sima_v16_load_u16 (const uint8_t *p)
{
  SimaV16h h;
  memcpy (&h, p, sizeof h);
  return __builtin_convertvector (h, SimaV16u);
}

/* Sixteen bytes, zero-extended to 32-bit lanes. */
SIMA_V16_INLINE SimaV16u
sima_v16_load_u8 (const uint8_t *p)
{
  SimaV16b b;
  memcpy (&b, p, sizeof b);
  return __builtin_convertvector (b, SimaV16u);
}

/* Sixteen bytes, sign-extended to 32-bit lanes (OpenCL convert_int16 of a
 * vload16 of char): INT8 values. */
SIMA_V16_INLINE SimaV16i
sima_v16_load_i8 (const uint8_t *p)
{
  SimaV16c c;
  memcpy (&c, p, sizeof c);
  return __builtin_convertvector (c, SimaV16i);
}

/* The low byte of every lane (OpenCL vstore16 of convert_char16_sat; the
 * caller has saturated every lane to [-128, 127], so saturating and
 * truncating narrowings agree). Hosts with SSE2 (the emulator, the i686
 * build) narrow with the saturating packs, which give those bytes: GCC 12
 * scalarises the generic narrowing there (an extract, a shift and an OR a
 * lane), the largest part of QuantTess's arithmetic in the emulator. */
SIMA_V16_INLINE void
sima_v16_store_i8 (uint8_t *p, SimaV16i v)
{
#if defined(__SSE2__)
  SimaV16iQ q;
  __m128i lo, hi;
  q.v = v;
  lo = _mm_packs_epi32 ((__m128i) q.q[0], (__m128i) q.q[1]);
  hi = _mm_packs_epi32 ((__m128i) q.q[2], (__m128i) q.q[3]);
  _mm_storeu_si128 ((__m128i *) (void *) p, _mm_packs_epi16 (lo, hi));
#else
  SimaV16c c = __builtin_convertvector (v, SimaV16c);
  memcpy (p, &c, sizeof c);
#endif
}

/* The low halfword of every lane, little-endian. */
SIMA_V16_INLINE void
sima_v16_store_u16 (uint8_t *p, SimaV16u v)
{
  SimaV16h h = __builtin_convertvector (v, SimaV16h);
  memcpy (p, &h, sizeof h);
}

SIMA_V16_INLINE void
sima_v16_store_u32 (uint8_t *p, SimaV16u v)
{
  memcpy (p, &v, sizeof v);
}

/* Sixteen binary32 values, little-endian (vstore16 of a float16). */
SIMA_V16_INLINE void
sima_v16_store_f (uint8_t *p, SimaV16f v)
{
  memcpy (p, &v, sizeof v);
}

#endif /* SIMA_FIRMWARE_VEC16_H */
