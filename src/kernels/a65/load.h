/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * load.h - scalar loads and stores through memcpy: no alignment or aliasing
 * assumptions beyond what admission checked, and compilers turn them into
 * plain moves.
 */
#ifndef SIMA_KERNELS_A65_LOAD_H
#define SIMA_KERNELS_A65_LOAD_H

#include <stdint.h>
#include <string.h>

static inline uint32_t
sima_load_u32 (const uint8_t *p)
{
  uint32_t v;
  memcpy (&v, p, sizeof v);
  return v;
}

static inline uint16_t
sima_load_u16 (const uint8_t *p)
{
  uint16_t v;
  memcpy (&v, p, sizeof v);
  return v;
}

static inline void
sima_store_u32 (uint8_t *p, uint32_t v)
{
  memcpy (p, &v, sizeof v);
}

static inline void
sima_store_u16 (uint8_t *p, uint16_t v)
{
  memcpy (p, &v, sizeof v);
}

#endif /* SIMA_KERNELS_A65_LOAD_H */
