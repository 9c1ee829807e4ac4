/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cpu.h - which SIMD instruction sets the A65 executors may use, and the
 * floating-point state their SIMD leaves need.
 *
 * Detected once per process (libyuv style) and masked by the environment
 * variable SIMA_KERNELS_DISABLE, a comma-separated list of sse41, avx2,
 * f16c, avx512, neon, stream, or all: tests force each path with it.
 * Preparation picks
 * leaves from this mask; no leaf ever changes a single output bit.
 */
#ifndef SIMA_KERNELS_CPU_H
#define SIMA_KERNELS_CPU_H

#include <stdint.h>

enum {
  SIMA_ISA_SSE41 = 1u << 0,
  SIMA_ISA_AVX2 = 1u << 1,
  SIMA_ISA_F16C = 1u << 2,
  SIMA_ISA_NEON = 1u << 3,
  /* AVX-512 F, BW, VL and VBMI together, with the OS saving ZMM state
   * (XCR0 opmask and ZMM bits). Detected and maskable; leaves are built
   * for x86-64 (SIMA_HAVE_AVX512: QuantTess and CastTess packs and the
   * DetessDequant table leaves, src/kernels/meson.build lists them), and
   * SIMA_IF_AVX512 picks them only together with AVX2 and F16C. */
  SIMA_ISA_AVX512 = 1u << 4,
  /* Non-temporal stores (sima_cpu_stream_bytes): every x86 CPU the
   * streaming leaves run on has them; a bit so that "stream" masks them. */
  SIMA_ISA_STREAM = 1u << 5,
};

/* The usable ISAs: detected, minus SIMA_KERNELS_DISABLE. Computed on the
 * first call, read-only after. */
unsigned sima_cpu_isas (void);

/* Parses a SIMA_KERNELS_DISABLE value into a mask (unknown names are
 * ignored). Exposed for tests. */
unsigned sima_cpu_parse_disable (const char *list);

/* The variant of a leaf this CPU runs, for leaves named PREFIX_c,
 * PREFIX_avx2, PREFIX_avx512 and PREFIX_neon: the last ISA that is built
 * and usable wins, the scalar reference otherwise. The *_avx2.c files are
 * compiled with -mavx2 -mf16c, so they need both; the *_avx512.c files
 * with those and -mavx512f -mavx512bw -mavx512vl -mavx512vbmi (x86-64
 * only), so they need all of them. An ISA that is not built drops its name
 * unseen. */
#ifdef SIMA_HAVE_AVX2
#define SIMA_IF_AVX2(leaf, other) ((sima_cpu_isas () & (SIMA_ISA_AVX2        \
            | SIMA_ISA_F16C)) == (SIMA_ISA_AVX2 | SIMA_ISA_F16C) ? (leaf)     \
    : (other))
#else
#define SIMA_IF_AVX2(leaf, other) (other)
#endif
#ifdef SIMA_HAVE_AVX512
#define SIMA_IF_AVX512(leaf, other) ((sima_cpu_isas () & (SIMA_ISA_AVX512    \
            | SIMA_ISA_AVX2 | SIMA_ISA_F16C)) == (SIMA_ISA_AVX512             \
            | SIMA_ISA_AVX2 | SIMA_ISA_F16C) ? (leaf) : (other))
#else
#define SIMA_IF_AVX512(leaf, other) (other)
#endif

#ifdef SIMA_HAVE_NEON
#define SIMA_IF_NEON(leaf, other) ((sima_cpu_isas () & SIMA_ISA_NEON)         \
    ? (leaf) : (other))
#else
#define SIMA_IF_NEON(leaf, other) (other)
#endif
/* The chain, with the AVX-512 leaf given (plain or streaming). */
#define SIMA_LEAF_CHAIN(prefix, avx512)                                       \
  SIMA_IF_NEON (prefix##_neon, SIMA_IF_AVX512 (avx512,                        \
          SIMA_IF_AVX2 (prefix##_avx2, prefix##_c)))
#define SIMA_LEAF_FOR_CPU(prefix) SIMA_LEAF_CHAIN (prefix, prefix##_avx512)

/* Non-temporal stores: leaves with a _stream variant (x86-64 AVX-512
 * today) write outputs of at least sima_cpu_stream_bytes() bytes with
 * them. Such stores skip the read-for-ownership of every line and do not
 * evict the input, which pays once the output no longer fits next to it in
 * the last-level cache; a smaller output is better left in the caches for
 * whoever reads it next. The threshold is half the last-level cache
 * (sysconf; 32 MiB when unknown), or SIMA_KERNELS_STREAM_BYTES when set (0
 * streams every output: the tests run whole suites that way); "stream" in
 * SIMA_KERNELS_DISABLE turns streaming off. Read once per process. Returns
 * UINT64_MAX when streaming is off. */
uint64_t sima_cpu_stream_bytes (void);

/* Whether an output of `bytes` bytes is written with streaming leaves. */
static inline int
sima_cpu_streams (uint64_t bytes)
{
  return bytes >= sima_cpu_stream_bytes ();
}

/* The leaf for an output that streams or not: the _stream variant of the
 * AVX-512 leaf when it is built and usable, SIMA_LEAF_FOR_CPU otherwise
 * (NEON has no streaming leaves: its stores are left as they are). */
#define SIMA_LEAF_FOR_OUTPUT(prefix, stream)                                  \
  ((void) (stream), SIMA_LEAF_CHAIN (prefix, (stream)                         \
          ? prefix##_avx512_stream : prefix##_avx512))

/* Orders this thread's non-temporal stores before whatever it does next
 * (SFENCE): every thread that ran a _stream leaf calls it before its part
 * of an execution counts as done. */
void sima_cpu_store_fence (void);

/* SIMD leaves multiply and widen in hardware, so they need round-to-nearest,
 * subnormals kept (no flush-to-zero, no denormals-are-zero) and, on
 * AArch64, IEEE halves whose NaNs keep their payloads (FPCR.AHP and DN
 * off). enter() saves the caller's state and sets that; leave() restores
 * it exactly, sticky exception flags included (a signalling NaN raises
 * Invalid inside): the caller's environment is neither needed nor
 * changed. No-ops where no SIMD leaf uses floating point. */
typedef struct {
  unsigned saved;               /* MXCSR, or FPCR */
  unsigned saved_status;        /* FPSR (AArch64) */
} SimaFpState;

void sima_fp_enter (SimaFpState *state);
void sima_fp_leave (const SimaFpState *state);

#endif /* SIMA_KERNELS_CPU_H */
