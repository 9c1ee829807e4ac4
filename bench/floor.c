/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * floor.c - picks the floor candidates built for the best ISA this CPU
 * runs. The meson file builds floor-avx2.c on x86 and floor-avx512.c on
 * x86-64 (SIMA_BENCH_FLOOR_AVX2 / _AVX512); __builtin_cpu_supports reads
 * CPUID and, for AVX and AVX-512, that the OS saves their registers (XCR0),
 * so the bench runs on any CPU.
 */
#include "floor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SIMA_BENCH_FLOOR_AVX2
const SimaFloorSet *
sima_floor_set_avx2 (void)
{
  return NULL;
}
#endif

#ifndef SIMA_BENCH_FLOOR_AVX512
const SimaFloorSet *
sima_floor_set_avx512 (void)
{
  return NULL;
}
#endif

/* The sets this CPU runs, best first; returns how many. */
static int
runnable_sets (const SimaFloorSet **sets)
{
  int n = 0;
#if defined(__x86_64__) || defined(__i386__)
  if (sima_floor_set_avx512 () != NULL && __builtin_cpu_supports ("avx512f")
      && __builtin_cpu_supports ("avx512bw")
      && __builtin_cpu_supports ("avx512vl"))
    sets[n++] = sima_floor_set_avx512 ();
  if (sima_floor_set_avx2 () != NULL && __builtin_cpu_supports ("avx2"))
    sets[n++] = sima_floor_set_avx2 ();
#endif
  sets[n++] = sima_floor_set_plain ();
  return n;
}

const SimaFloorSet *
sima_floor_best (void)
{
  const SimaFloorSet *sets[3];
  runnable_sets (sets);
  return sets[0];
}


const char *
sima_floor_check (const SimaFloorSet *set, int k, uint8_t *in,
    size_t in_bytes, uint8_t *out, size_t out_bytes)
{
  SimaFloorFn fn = set->c[k].fn;
  uint8_t *first = malloc (out_bytes + 1);
  const char *err = NULL;
  size_t at[3] = { 0, in_bytes / 2, in_bytes - 1 }, i;
  uint64_t base;

  if (first == NULL)
    return "out of memory";
  /* two runs over two different fillings: a byte left unwritten keeps its
   * filling and differs between them */
  memset (out, 0x5a, out_bytes);
  fn (in, in_bytes, out, out_bytes);
  memcpy (first, out, out_bytes);
  memset (out, 0xa5, out_bytes);
  base = fn (in, in_bytes, out, out_bytes);
  if (memcmp (first, out, out_bytes) != 0)
    err = "an output byte is not written";
  for (i = 0; err == NULL && k != SIMA_FLOOR_MEMCPY && i < 3 && in_bytes > 0;
      i++) {
    uint64_t r;
    in[at[i]] ^= 1;
    r = fn (in, in_bytes, out, out_bytes);
    in[at[i]] ^= 1;
    if (r == base)
      err = i == 0 ? "the first input byte is not read" : i == 1
          ? "a middle input byte is not read" : "the last input byte is not "
          "read";
  }
  free (first);
  return err;
}

const char *
sima_floor_selftest (char *msg, size_t size)
{
  /* (in, out): tiny, odd, single vectors, uneven block shares both ways,
   * more than one 2 KiB block with partial last blocks */
  static const size_t sizes[][2] = { {1, 1}, {37, 1000}, {1000, 37},
    {64, 16}, {4099, 777}, {777, 4099}, {20000 + 64 + 3, 65536 + 192 + 5},
    {65536 + 192 + 5, 20000 + 64 + 3}, {12288, 16384}, {16384, 12288}
  };
  const SimaFloorSet *sets[3];
  int n = runnable_sets (sets), s, k;
  size_t z, cap = 65536 + 192 + 5 + 64;
  uint8_t *in = aligned_alloc (64, (cap + 63) / 64 * 64);
  uint8_t *out = aligned_alloc (64, (cap + 63) / 64 * 64);
  const char *err = NULL;

  if (in == NULL || out == NULL) {
    free (in);
    free (out);
    return "out of memory";
  }
  for (z = 0; z < cap; z++)
    in[z] = (uint8_t) (z * 2654435761u >> 11);
  for (s = 0; err == NULL && s < n; s++)
    for (k = 0; err == NULL && k < SIMA_FLOOR_N; k++)
      for (z = 0; err == NULL && z < sizeof sizes / sizeof sizes[0]; z++) {
        if (sets[s]->c[k].fn == NULL)
          continue;
        err = sima_floor_check (sets[s], k, in, sizes[z][0], out,
            sizes[z][1]);
        if (err != NULL)
          snprintf (msg, size, "%s (%s), %zu -> %zu bytes: %s",
              sets[s]->c[k].name, sets[s]->isa, sizes[z][0], sizes[z][1],
              err);
      }
  free (in);
  free (out);
  return err != NULL ? msg : NULL;
}
