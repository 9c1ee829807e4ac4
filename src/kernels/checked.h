/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * checked.h - overflow-checked size arithmetic (private to the core).
 *
 * Sizes, spans and offsets are 64-bit and every operation on untrusted
 * numbers goes through these helpers. They return nonzero on overflow and
 * also fail when a result exceeds SIMA_MAX_BYTES, so that every admitted
 * size is representable as a signed 64-bit byte offset too.
 */
#ifndef SIMA_KERNELS_CHECKED_H
#define SIMA_KERNELS_CHECKED_H

#include <stdint.h>

#define SIMA_MAX_BYTES ((uint64_t) INT64_MAX)

static inline int
sima_checked_mul (uint64_t a, uint64_t b, uint64_t *r)
{
  return __builtin_mul_overflow (a, b, r) || *r > SIMA_MAX_BYTES;
}

static inline int
sima_checked_add (uint64_t a, uint64_t b, uint64_t *r)
{
  return __builtin_add_overflow (a, b, r) || *r > SIMA_MAX_BYTES;
}

/* *acc += a * b */
static inline int
sima_checked_madd (uint64_t *acc, uint64_t a, uint64_t b)
{
  uint64_t p;
  return sima_checked_mul (a, b, &p) || sima_checked_add (*acc, p, acc);
}

/* Rounds up to a multiple of 16. */
static inline int
sima_checked_round16 (uint64_t a, uint64_t *r)
{
  return sima_checked_add (a, 15, r) ? 1 : (*r &= ~(uint64_t) 15, 0);
}

#endif /* SIMA_KERNELS_CHECKED_H */
