/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * device_private.h - the device layer's objects (private to device.c;
 * transports see only transport.h).
 *
 * Locking: the registry lock guards device refcounts and the registry;
 * dev->lock guards region refcounts; each job has its own lock for its
 * state and waiters, so waiting on a job never needs the device. No lock
 * of the device layer is held across a transport op, and references are
 * dropped outside every lock.
 */
#ifndef SIMA_EV74_DEVICE_PRIVATE_H
#define SIMA_EV74_DEVICE_PRIVATE_H

#include <simaai/kernels/ev74/device.h>

#include <pthread.h>

#include "transport.h"

struct SimaEv74Device {
  char *spec;
  int refs;                       /* under the registry lock */
  SimaEv74Device *next;           /* registry */
  const SimaEv74TransportOps *ops;
  void *ctx;                      /* the transport's, from ops->open */
  pthread_mutex_t lock;
};

struct SimaEv74Region {
  SimaEv74Device *dev;            /* a region holds a device reference */
  int refs;                       /* under dev->lock */
  void *handle;                   /* the transport's */
  uint64_t bus;
  uint64_t length;
};

struct SimaEv74Job {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int refs;                       /* caller + transport, under job->lock */
  int retired;
  SimaStatus status;
  SimaEv74JobStats stats;
  SimaEv74Device *dev;
  uint64_t id;                    /* the transport's, for cancel */
  /* a copy of exactly the submitted bytes: a SimaEv74Descriptor is 20 KiB
   * since containers exist, most jobs use 232, and an exact-size copy lets
   * ASan see a firmware read past the descriptor. Stable until retired. */
  uint8_t *desc;
  uint32_t desc_length;
  SimaEv74Region **regions;       /* references, dropped at retirement */
  SimaEv74TransportRegion *tregions;
  size_t n_regions;
};

#endif /* SIMA_EV74_DEVICE_PRIVATE_H */
