/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * floor-avx512.c - the floor candidates for AVX-512 (compiled with
 * -mavx512f -mavx512bw -mavx512vl, x86-64 only, and only called when the
 * CPU has all three, floor.c): 64-byte vectors, VMOVNTDQ zmm.
 */
#include <immintrin.h>
#define FLOOR_VEC_BYTES 64
#define FLOOR_ISA_NAME "avx512"
#define FLOOR_STREAM(p, v) _mm512_stream_si512 ((void *) (p), (__m512i) (v))
#define FLOOR_FENCE() _mm_sfence ()
#define FLOOR_SET_FN sima_floor_set_avx512
#include "floor-impl.h"
