/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cpu.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <xmmintrin.h>
#define SIMA_X86 1
#endif

/* Bit 31: computed. Threads that prepare at once may all find it clear and
 * all detect; they compute the same value, so which store lands does not
 * matter. It is atomic because C11 makes unsynchronised plain (or volatile)
 * accesses a data race, undefined behaviour, which ThreadSanitizer reports.
 * The whole set is one word: a reader sees all of it or none. */
static _Atomic unsigned cached_isas;
#define COMPUTED (1u << 31)

#ifdef SIMA_X86
static unsigned
detect (void)
{
  unsigned a, b, c, d, isas = 0, xcr0_lo = 0, xcr0_hi = 0;

  if (!__get_cpuid (1, &a, &b, &c, &d))
    return 0;
  if (d & bit_SSE2)             /* MOVNT*; baseline on x86-64 */
    isas |= SIMA_ISA_STREAM;
  if (c & bit_SSE4_1)
    isas |= SIMA_ISA_SSE41;
  /* AVX state must be enabled by the OS (XCR0 bits 1 and 2) */
  if ((c & bit_OSXSAVE) && (c & bit_AVX)) {
    __asm__ ("xgetbv" : "=a" (xcr0_lo), "=d" (xcr0_hi) : "c" (0));
    if ((xcr0_lo & 6) == 6) {
      if (c & bit_F16C)
        isas |= SIMA_ISA_F16C;
      if (__get_cpuid_count (7, 0, &a, &b, &c, &d)) {
        if (b & bit_AVX2)
          isas |= SIMA_ISA_AVX2;
        /* ZMM state needs XCR0 opmask, ZMM_Hi256 and Hi16_ZMM (bits 5-7) */
        if ((xcr0_lo & 0xe0) == 0xe0 && (b & bit_AVX512F)
            && (b & bit_AVX512BW) && (b & bit_AVX512VL)
            && (c & bit_AVX512VBMI))
          isas |= SIMA_ISA_AVX512;
      }
    }
  }
  return isas;
}
#elif defined(__aarch64__)
static unsigned
detect (void)
{
  return SIMA_ISA_NEON;         /* Advanced SIMD is part of AArch64 */
}
#else
static unsigned
detect (void)
{
  return 0;
}
#endif

unsigned
sima_cpu_parse_disable (const char *list)
{
  static const struct {
    const char *name;
    unsigned isa;
  } names[] = {
    {"sse41", SIMA_ISA_SSE41}, {"avx2", SIMA_ISA_AVX2},
    {"f16c", SIMA_ISA_F16C}, {"avx512", SIMA_ISA_AVX512},
    {"neon", SIMA_ISA_NEON}, {"stream", SIMA_ISA_STREAM},
    {"all", SIMA_ISA_SSE41 | SIMA_ISA_AVX2 | SIMA_ISA_F16C | SIMA_ISA_AVX512
          | SIMA_ISA_NEON | SIMA_ISA_STREAM},
  };
  unsigned mask = 0;
  size_t i;

  while (list != NULL && *list != '\0') {
    size_t len = strcspn (list, ", ");
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
      if (strlen (names[i].name) == len
          && strncmp (names[i].name, list, len) == 0)
        mask |= names[i].isa;
    list += len;
    list += strspn (list, ", ");
  }
  return mask;
}

unsigned
sima_cpu_isas (void)
{
  unsigned isas = atomic_load_explicit (&cached_isas, memory_order_acquire);

  if (!(isas & COMPUTED)) {
    isas = (detect () & ~sima_cpu_parse_disable (getenv
            ("SIMA_KERNELS_DISABLE"))) | COMPUTED;
    atomic_store_explicit (&cached_isas, isas, memory_order_release);
  }
  return isas & ~COMPUTED;
}

/* The streaming threshold, + 1 so that 0 means not computed yet (the same
 * benign race as cached_isas). */
static _Atomic uint64_t cached_stream_bytes;

uint64_t
sima_cpu_stream_bytes (void)
{
  uint64_t v = atomic_load_explicit (&cached_stream_bytes,
      memory_order_relaxed);

  if (v == 0) {
    const char *env = getenv ("SIMA_KERNELS_STREAM_BYTES");
    char *end = NULL;
    if (!(sima_cpu_isas () & SIMA_ISA_STREAM)) {
      v = UINT64_MAX;
    } else if (env != NULL && *env != '\0'
        && (v = strtoull (env, &end, 10), *end == '\0')) {
      /* as given */
    } else {
      long llc = sysconf (_SC_LEVEL3_CACHE_SIZE);
      if (llc <= 0)
        llc = sysconf (_SC_LEVEL2_CACHE_SIZE);
      v = llc > 0 ? (uint64_t) llc / 2 : UINT64_C (32) << 20;
    }
    atomic_store_explicit (&cached_stream_bytes, v == UINT64_MAX ? v : v + 1,
        memory_order_relaxed);
    return v;
  }
  return v == UINT64_MAX ? v : v - 1;
}

void
sima_cpu_store_fence (void)
{
#ifdef SIMA_X86
  __asm__ __volatile__ ("sfence" : : : "memory");       /* SSE: STREAM set */
#else
  atomic_thread_fence (memory_order_release);
#endif
}

#ifdef SIMA_X86
/* MXCSR: all exceptions masked, round to nearest, FTZ and DAZ off. */
#define SIMA_MXCSR_DEFAULT 0x1F80u

void
sima_fp_enter (SimaFpState *state)
{
  state->saved = _mm_getcsr ();
  _mm_setcsr (SIMA_MXCSR_DEFAULT);
}

void
sima_fp_leave (const SimaFpState *state)
{
  /* the caller's control bits and sticky flags, all of MXCSR */
  _mm_setcsr (state->saved);
}
#elif defined(__aarch64__)
/* FPCR: RMode (bits 22-23) round to nearest, FZ (24) and FZ16 (19) off,
 * DN (25) off so that widening a NaN half keeps its payload, AHP (26) off
 * so that halves are IEEE halves, not the alternative format without
 * infinities and NaNs (the FP16 leaves widen with FCVTL); FPSR's
 * cumulative flags are restored too, so the caller sees nothing. */
#define SIMA_FPCR_CLEAR ((3u << 22) | (1u << 26) | (1u << 25) | (1u << 24) \
    | (1u << 19))

void
sima_fp_enter (SimaFpState *state)
{
  uint64_t fpcr, fpsr;

  __asm__ volatile ("mrs %0, fpcr" : "=r" (fpcr));
  __asm__ volatile ("mrs %0, fpsr" : "=r" (fpsr));
  state->saved = (unsigned) fpcr;
  state->saved_status = (unsigned) fpsr;
  __asm__ volatile ("msr fpcr, %0" : : "r" (fpcr & ~(uint64_t)
          SIMA_FPCR_CLEAR));
}

void
sima_fp_leave (const SimaFpState *state)
{
  __asm__ volatile ("msr fpcr, %0" : : "r" ((uint64_t) state->saved));
  __asm__ volatile ("msr fpsr, %0" : : "r" ((uint64_t)
          state->saved_status));
}
#else
void
sima_fp_enter (SimaFpState *state)
{
  state->saved = 0;
}

void
sima_fp_leave (const SimaFpState *state)
{
  (void) state;
}
#endif
