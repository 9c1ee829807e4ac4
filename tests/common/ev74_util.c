/* SPDX-License-Identifier: LGPL-2.1-or-later */
#define _GNU_SOURCE
#include "ev74_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

void
test_arena_new (TestArena *a, SimaEv74Device *dev, size_t size)
{
  SimaStatus st;

  a->size = size;
  a->fd = memfd_create ("sima-test-arena", MFD_CLOEXEC);
  if (a->fd < 0 || ftruncate (a->fd, (off_t) size) != 0) {
    perror ("memfd");
    abort ();
  }
  a->host = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, a->fd, 0);
  if (a->host == MAP_FAILED) {
    perror ("mmap");
    abort ();
  }
  st = sima_ev74_region_import (dev, a->fd, size, &a->region);
  if (st.code != SIMA_OK) {
    fprintf (stderr, "import: %s\n", st.message);
    abort ();
  }
}

void
test_arena_free (TestArena *a)
{
  sima_ev74_region_unref (a->region);
  munmap (a->host, a->size);
  close (a->fd);
  a->region = NULL;
}

SimaEv74Binding
test_arena_binding (const TestArena *a, size_t offset)
{
  SimaEv74Binding b;
  b.bus_address = sima_ev74_region_bus_address (a->region) + offset;
  b.length = a->size - offset;
  return b;
}

SimaEv74Device *
test_device_open (const char *spec)
{
  SimaEv74Device *dev;
  SimaStatus st = sima_ev74_device_open (spec, &dev);
  if (st.code != SIMA_OK) {
    fprintf (stderr, "open %s: %s\n", spec, st.message);
    abort ();
  }
  return dev;
}
