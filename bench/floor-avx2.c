/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * floor-avx2.c - the floor candidates for AVX2 (compiled with -mavx2 and
 * only called when the CPU has it, floor.c): 32-byte vectors, VMOVNTDQ.
 */
#include <immintrin.h>
#define FLOOR_VEC_BYTES 32
#define FLOOR_ISA_NAME "avx2"
#define FLOOR_STREAM(p, v) _mm256_stream_si256 ((__m256i *) (void *) (p),   \
    (__m256i) (v))
#define FLOOR_FENCE() _mm_sfence ()
#define FLOOR_SET_FN sima_floor_set_avx2
#include "floor-impl.h"
