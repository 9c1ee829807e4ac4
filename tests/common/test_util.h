/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test_util.h - spec builders, a seeded RNG and guarded buffers for the core
 * tests. Nothing here knows how production code lays out data: expected
 * bytes always come from the oracle (tests/oracle).
 */
#ifndef SIMA_TESTS_TEST_UTIL_H
#define SIMA_TESTS_TEST_UTIL_H

#include <simaai/kernels/layout.h>
#include <simaai/kernels/types.h>

#include <stddef.h>
#include <stdint.h>

/* splitmix64: small, seedable, good enough to pick shapes and values. */
typedef struct {
  uint64_t state;
} TestRng;

uint64_t test_rng_next (TestRng *rng);
/* Uniform in [0, n), n > 0. */
uint64_t test_rng_below (TestRng *rng, uint64_t n);
/* Uniform in [lo, hi]. */
int64_t test_rng_range (TestRng *rng, int64_t lo, int64_t hi);

SimaTensorSpec test_spec_dense (SimaDType dtype, int rank,
    const int64_t *shape);
SimaTensorSpec test_spec_strided (SimaDType dtype, int rank,
    const int64_t *shape, const int64_t *strides_bytes);
SimaTensorSpec test_spec_tiled (SimaDType dtype, int rank,
    const int64_t *shape, const int8_t axes[4], const int64_t tile[4],
    SimaChannels channels);

/* A heap buffer with guard bytes on both sides. data is 64-byte aligned plus
 * `misalign`; the payload starts filled with `fill`, the guards with
 * TEST_GUARD_BYTE. */
enum { TEST_GUARD_BYTES = 64, TEST_GUARD_BYTE = 0xE7 };

typedef struct {
  uint8_t *block;
  uint8_t *data;
  size_t size;
} TestBuffer;

TestBuffer test_buffer_new (size_t size, size_t misalign, uint8_t fill);
int test_buffer_guards_ok (const TestBuffer *b);
void test_buffer_free (TestBuffer *b);

/* "1x224x224x3" style text of a shape, for messages. */
const char *test_shape_str (int rank, const int64_t *shape);

#endif /* SIMA_TESTS_TEST_UTIL_H */
