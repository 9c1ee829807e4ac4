/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t
test_rng_next (TestRng *rng)
{
  uint64_t z = (rng->state += UINT64_C (0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

uint64_t
test_rng_below (TestRng *rng, uint64_t n)
{
  return test_rng_next (rng) % n;
}

int64_t
test_rng_range (TestRng *rng, int64_t lo, int64_t hi)
{
  return lo + (int64_t) test_rng_below (rng, (uint64_t) (hi - lo) + 1);
}

SimaTensorSpec
test_spec_dense (SimaDType dtype, int rank, const int64_t *shape)
{
  SimaTensorSpec s;
  memset (&s, 0, sizeof s);
  s.rank = rank;
  if (rank > 0 && rank <= SIMA_MAX_RANK)
    memcpy (s.shape, shape, (size_t) rank * sizeof *shape);
  s.dtype = dtype;
  s.layout = SIMA_LAYOUT_CONTIGUOUS;
  return s;
}

SimaTensorSpec
test_spec_strided (SimaDType dtype, int rank, const int64_t *shape,
    const int64_t *strides_bytes)
{
  SimaTensorSpec s = test_spec_dense (dtype, rank, shape);
  s.layout = SIMA_LAYOUT_STRIDED;
  if (rank > 0 && rank <= SIMA_MAX_RANK)
    memcpy (s.strides_bytes, strides_bytes, (size_t) rank * sizeof *shape);
  return s;
}

SimaTensorSpec
test_spec_tiled (SimaDType dtype, int rank, const int64_t *shape,
    const int8_t axes[4], const int64_t tile[4], SimaChannels channels)
{
  SimaTensorSpec s = test_spec_dense (dtype, rank, shape);
  s.layout = SIMA_LAYOUT_MLA_TILED;
  memcpy (s.tiled.axes, axes, 4);
  memcpy (s.tiled.tile_shape, tile, 4 * sizeof *tile);
  s.tiled.channels = channels;
  return s;
}

TestBuffer
test_buffer_new (size_t size, size_t misalign, uint8_t fill)
{
  TestBuffer b;
  size_t total = size + 2 * TEST_GUARD_BYTES + 64 + misalign;
  uintptr_t start;

  b.block = malloc (total);
  if (b.block == NULL) {
    fprintf (stderr, "out of memory (%zu bytes)\n", total);
    abort ();
  }
  memset (b.block, TEST_GUARD_BYTE, total);
  start = ((uintptr_t) b.block + TEST_GUARD_BYTES + 63) & ~(uintptr_t) 63;
  b.data = (uint8_t *) start + misalign;
  b.size = size;
  memset (b.data, fill, size);
  return b;
}

int
test_buffer_guards_ok (const TestBuffer *b)
{
  size_t i;
  for (i = 1; i <= TEST_GUARD_BYTES; i++)
    if (b->data[-(ptrdiff_t) i] != TEST_GUARD_BYTE
        || b->data[b->size + i - 1] != TEST_GUARD_BYTE)
      return 0;
  return 1;
}

void
test_buffer_free (TestBuffer *b)
{
  free (b->block);
  b->block = b->data = NULL;
}

const char *
test_shape_str (int rank, const int64_t *shape)
{
  static char buf[128];
  size_t used = 0;
  int i;

  buf[0] = '\0';
  for (i = 0; i < rank && i < SIMA_MAX_RANK && used < sizeof buf; i++)
    used += (size_t) snprintf (buf + used, sizeof buf - used, "%s%lld",
        i ? "x" : "", (long long) shape[i]);
  return buf;
}
