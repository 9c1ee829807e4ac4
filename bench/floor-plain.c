/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * floor-plain.c - the floor candidates for the baseline ISA: SSE2 on
 * x86-64 (16-byte vectors, MOVNTDQ), NEON on AArch64 (16-byte vectors,
 * STNP pairs), plain vectors elsewhere (no non-temporal candidate).
 */
#if defined(__SSE2__)
#include <emmintrin.h>
#define FLOOR_VEC_BYTES 16
#define FLOOR_ISA_NAME "sse2"
#define FLOOR_STREAM(p, v) _mm_stream_si128 ((__m128i *) (void *) (p),      \
    (__m128i) (v))
#define FLOOR_FENCE() _mm_sfence ()
#elif defined(__aarch64__)
#define FLOOR_VEC_BYTES 16
#define FLOOR_ISA_NAME "neon"
/* STNP stores a pair of registers with a non-temporal hint; one vector
 * of 16 bytes here is stored as its two 8-byte halves, from core
 * registers, which keeps the asm to a form every assembler takes. */
#define FLOOR_STREAM(p, v) __asm__ volatile ("stnp %x0, %x1, [%2]"          \
    : : "r" ((v)[0]), "r" ((v)[1]), "r" (p) : "memory")
#define FLOOR_FENCE() __asm__ volatile ("dmb ishst" : : : "memory")
#else
#define FLOOR_VEC_BYTES 16
#define FLOOR_ISA_NAME "plain"
/* x86 without SSE: GCC warns that vector arguments change the ABI; every
 * function taking one is static to this file, so no ABI is crossed. */
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
#define FLOOR_SET_FN sima_floor_set_plain
#include "floor-impl.h"
