/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ev74_util.h - device-side buffers for the EV74 tests: memfd-backed
 * "DMA-BUF" arenas imported into a device, with the host mapping the test
 * uses to fill inputs and read outputs. Tensors are placed at offsets inside
 * an arena, so binding at offsets and guard bytes around each tensor come
 * for free.
 */
#ifndef SIMA_TESTS_EV74_UTIL_H
#define SIMA_TESTS_EV74_UTIL_H

#include <simaai/kernels/ev74/device.h>

#include <stddef.h>
#include <stdint.h>

typedef struct {
  int fd;
  uint8_t *host;            /* the test's own mapping */
  size_t size;
  SimaEv74Region *region;
} TestArena;

/* Creates a memfd of `size` bytes, maps it and imports it into dev. Aborts
 * the test program on failure (the environment is broken, not the code). */
void test_arena_new (TestArena *a, SimaEv74Device *dev, size_t size);
void test_arena_free (TestArena *a);

/* Binding of bytes [offset, size) of the arena. */
SimaEv74Binding test_arena_binding (const TestArena *a, size_t offset);

/* Opens a device or aborts. */
SimaEv74Device *test_device_open (const char *spec);

#endif /* SIMA_TESTS_EV74_UTIL_H */
