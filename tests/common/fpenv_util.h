/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fpenv_util.h - switch the calling thread into non-default floating-point
 * environments, to show that results do not depend on them: the three
 * directed rounding modes, and flush-to-zero with denormals-are-zero where
 * the CPU has them (x86 MXCSR FTZ/DAZ, aarch64 FPCR.FZ, with FPCR.DN's
 * default NaNs and FPCR.AHP's alternative half format too).
 */
#ifndef SIMA_TESTS_FPENV_UTIL_H
#define SIMA_TESTS_FPENV_UTIL_H

#include <fenv.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

typedef enum {
  TEST_FPENV_DEFAULT,
  TEST_FPENV_UPWARD,
  TEST_FPENV_DOWNWARD,
  TEST_FPENV_TOWARDZERO,
  TEST_FPENV_FLUSH_DENORMALS,
  TEST_FPENV_COUNT
} TestFpEnv;

static inline const char *
test_fpenv_name (TestFpEnv env)
{
  static const char *names[] = { "default", "FE_UPWARD", "FE_DOWNWARD",
    "FE_TOWARDZERO", "FTZ+DAZ" };
  return names[env];
}

/* Enters env; returns 0 when this machine cannot express it. */
static inline int
test_fpenv_enter (TestFpEnv env)
{
  switch (env) {
    case TEST_FPENV_DEFAULT:
      return 1;
    case TEST_FPENV_UPWARD:
      return fesetround (FE_UPWARD) == 0;
    case TEST_FPENV_DOWNWARD:
      return fesetround (FE_DOWNWARD) == 0;
    case TEST_FPENV_TOWARDZERO:
      return fesetround (FE_TOWARDZERO) == 0;
    case TEST_FPENV_FLUSH_DENORMALS:
#if defined(__x86_64__) || defined(__i386__)
      _mm_setcsr (_mm_getcsr () | 0x8040u);  /* FTZ (bit 15) | DAZ (bit 6) */
      return 1;
#elif defined(__aarch64__)
      {
        unsigned long fpcr;
        __asm__ volatile ("mrs %0, fpcr" : "=r" (fpcr));
        __asm__ volatile ("msr fpcr, %0" : : "r" (fpcr | (7ul << 24)));
        return 1;
      }
#else
      return 0;
#endif
    case TEST_FPENV_COUNT:
      break;
  }
  return 0;
}

static inline void
test_fpenv_leave (void)
{
  fesetround (FE_TONEAREST);
#if defined(__x86_64__) || defined(__i386__)
  _mm_setcsr (_mm_getcsr () & ~0x8040u);
#elif defined(__aarch64__)
  {
    unsigned long fpcr;
    __asm__ volatile ("mrs %0, fpcr" : "=r" (fpcr));
    __asm__ volatile ("msr fpcr, %0" : : "r" (fpcr & ~(7ul << 24)));
  }
#endif
}

#endif /* SIMA_TESTS_FPENV_UTIL_H */
