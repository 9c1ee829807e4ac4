/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * EV74 devices: spec resolution, the process-wide registry that makes one
 * spec one shared device, capability probing, regions and jobs. Everything
 * a caller can hold a reference on lives here; the bytes go through a
 * transport (transport.h): the emulator (emulator/), or one a test
 * registers.
 */
#define _GNU_SOURCE
#include "device_private.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <simaai/kernels/ev74/tensor_set_wire.h>
#include <simaai/kernels/ev74/wire.h>

#include "codec_private.h"
#include "monotonic.h"
#include "testing/ev74_testing.h"

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static SimaEv74Device *registry;

/* ---- transports ------------------------------------------------------------ */

enum { MAX_REGISTERED = 4, PREFIX_MAX = 32 };

typedef struct {
  char prefix[PREFIX_MAX];
  const SimaEv74TransportOps *ops;
} TransportEntry;

static const TransportEntry builtin_transports[] = {
  { "emulator", &sima_ev74_emulator_transport },
};

/* under registry_lock */
static TransportEntry registered[MAX_REGISTERED];
static unsigned n_registered;

/* spec is "<prefix>" or "<prefix>:options" */
static const char *
match_prefix (const char *prefix, const char *spec)
{
  size_t n = strlen (prefix);

  if (strncmp (spec, prefix, n) != 0 || (spec[n] != '\0' && spec[n] != ':'))
    return NULL;
  return spec[n] == ':' ? spec + n + 1 : spec + n;
}

/* under registry_lock */
static const SimaEv74TransportOps *
find_transport (const char *spec, const char **options)
{
  size_t i;

  for (i = 0; i < sizeof builtin_transports / sizeof builtin_transports[0];
      i++)
    if ((*options = match_prefix (builtin_transports[i].prefix, spec)) != NULL)
      return builtin_transports[i].ops;
  for (i = 0; i < n_registered; i++)
    if ((*options = match_prefix (registered[i].prefix, spec)) != NULL)
      return registered[i].ops;
  return NULL;
}

SimaStatus
sima_ev74_testing_register_transport (const char *prefix,
    const SimaEv74TransportOps *ops)
{
  const char *options;
  SimaStatus st = sima_status_ok ();

  if (prefix == NULL || ops == NULL || prefix[0] == '\0'
      || strlen (prefix) >= PREFIX_MAX || strchr (prefix, ':') != NULL
      || ops->open == NULL || ops->has_capability == NULL
      || ops->import == NULL || ops->release == NULL || ops->submit == NULL
      || ops->close == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "EV74 transport registration: invalid prefix or ops table");
  pthread_mutex_lock (&registry_lock);
  if (find_transport (prefix, &options) != NULL)
    st = sima_status_make (SIMA_INVALID_ARGUMENT,
        "EV74 transport prefix '%s' is already taken", prefix);
  else if (n_registered == MAX_REGISTERED)
    st = sima_status_make (SIMA_OUT_OF_RESOURCES,
        "EV74 transport registration: at most %d transports",
        MAX_REGISTERED);
  else {
    strcpy (registered[n_registered].prefix, prefix);
    registered[n_registered].ops = ops;
    n_registered++;
  }
  pthread_mutex_unlock (&registry_lock);
  return st;
}

/* ---- devices --------------------------------------------------------------- */

const char *
sima_ev74_resolve_spec (const char *spec)
{
  const char *env;

  if (spec != NULL && spec[0] != '\0')
    return spec;
  env = getenv ("SIMA_EV74_DEVICE");
  return env != NULL && env[0] != '\0' ? env : SIMA_EV74_PLATFORM_DEVICE;
}

/* under registry_lock: a transport's open runs there, so two threads
 * opening one spec get one device */
static SimaStatus
create (const char *spec, SimaEv74Device **out)
{
  const SimaEv74TransportOps *ops;
  const char *options;
  SimaEv74Device *dev;
  SimaStatus st;

  ops = find_transport (spec, &options);
  if (ops == NULL)
    return sima_status_make (SIMA_DEVICE_UNAVAILABLE,
        "EV74 device '%s' is not available: this build has no platform "
        "transport; use the emulator (device=emulator)", spec);
  dev = calloc (1, sizeof *dev);
  if (dev == NULL || (dev->spec = strdup (spec)) == NULL) {
    free (dev);
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "EV74 device '%s': out of memory", spec);
  }
  st = ops->open (options, &dev->ctx);
  if (!sima_status_is_ok (&st)) {
    free (dev->spec);
    free (dev);
    return st;
  }
  pthread_mutex_init (&dev->lock, NULL);
  dev->ops = ops;
  dev->refs = 1;
  *out = dev;
  return st;
}

SimaStatus
sima_ev74_device_open (const char *spec, SimaEv74Device **out)
{
  SimaEv74Device *dev;
  SimaStatus st = sima_status_ok ();

  if (out == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT, "EV74 open: out is NULL");
  *out = NULL;
  spec = sima_ev74_resolve_spec (spec);
  pthread_mutex_lock (&registry_lock);
  for (dev = registry; dev != NULL; dev = dev->next)
    if (strcmp (dev->spec, spec) == 0)
      break;
  if (dev != NULL) {
    dev->refs++;
  } else {
    st = create (spec, &dev);
    if (sima_status_is_ok (&st)) {
      dev->next = registry;
      registry = dev;
    }
  }
  pthread_mutex_unlock (&registry_lock);
  if (sima_status_is_ok (&st))
    *out = dev;
  return st;
}

SimaEv74Device *
sima_ev74_device_ref (SimaEv74Device *dev)
{
  pthread_mutex_lock (&registry_lock);
  dev->refs++;
  pthread_mutex_unlock (&registry_lock);
  return dev;
}

void
sima_ev74_device_unref (SimaEv74Device *dev)
{
  SimaEv74Device **link;
  int last;

  if (dev == NULL)
    return;
  pthread_mutex_lock (&registry_lock);
  last = --dev->refs == 0;
  if (last)   /* out of the registry before anyone can find it again */
    for (link = &registry; *link != NULL; link = &(*link)->next)
      if (*link == dev) {
        *link = dev->next;
        break;
      }
  pthread_mutex_unlock (&registry_lock);
  if (!last)
    return;
  /* no region is left (each holds a reference), so no job that touches
   * memory is in flight; the transport drains jobs without regions */
  dev->ops->close (dev->ctx);
  pthread_mutex_destroy (&dev->lock);
  free (dev->spec);
  free (dev);
}

const char *
sima_ev74_device_spec (const SimaEv74Device *dev)
{
  return dev->spec;
}

SimaStatus
sima_ev74_device_configure (SimaEv74Device *dev, const char *options)
{
  if (dev == NULL || options == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "EV74 configure: NULL argument");
  if (dev->ops->configure == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "EV74 device '%s' (%s transport) has no options to configure",
        dev->spec, dev->ops->name);
  return dev->ops->configure (dev->ctx, options);
}

SimaStatus
sima_ev74_device_require (SimaEv74Device *dev, uint16_t route,
    const char *name)
{
  if (dev == NULL || name == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "EV74 capability query: NULL argument");
  if (!dev->ops->has_capability (dev->ctx, route, name))
    return sima_status_make (SIMA_CAPABILITY_MISSING,
        "EV74 device '%s' does not register capability %s (route %u)",
        dev->spec, name, (unsigned) route);
  return sima_status_ok ();
}

/* ---- regions ---------------------------------------------------------------- */

SimaStatus
sima_ev74_region_import (SimaEv74Device *dev, int fd, uint64_t length,
    SimaEv74Region **out)
{
  SimaEv74Region *r;
  SimaStatus st;
  void *handle;
  uint64_t bus;

  if (dev == NULL || out == NULL || fd < 0 || length == 0)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "EV74 import: fd %d with %llu bytes cannot be imported", fd,
        (unsigned long long) length);
  *out = NULL;
  r = calloc (1, sizeof *r);
  if (r == NULL)
    return sima_status_make (SIMA_OUT_OF_RESOURCES, "EV74 import: no memory");
  st = dev->ops->import (dev->ctx, fd, length, &handle, &bus);
  if (!sima_status_is_ok (&st)) {
    free (r);
    return st;
  }
  /* descriptors carry 32-bit bus addresses: a transport that hands out
   * anything else is broken, and a job must never see it */
  if (bus >= SIMA_EV74_APERTURE_LIMIT
      || length > SIMA_EV74_APERTURE_LIMIT - bus) {
    dev->ops->release (dev->ctx, handle);
    free (r);
    return sima_status_make (SIMA_DEVICE_FAULT,
        "EV74 import: the %s transport placed %llu bytes at bus 0x%llx, "
        "beyond the 32-bit bus", dev->ops->name, (unsigned long long) length,
        (unsigned long long) bus);
  }
  r->dev = sima_ev74_device_ref (dev);    /* regions keep their device */
  r->refs = 1;
  r->handle = handle;
  r->bus = bus;
  r->length = length;
  *out = r;
  return sima_status_ok ();
}

SimaEv74Region *
sima_ev74_region_ref (SimaEv74Region *r)
{
  pthread_mutex_lock (&r->dev->lock);
  r->refs++;
  pthread_mutex_unlock (&r->dev->lock);
  return r;
}

void
sima_ev74_region_unref (SimaEv74Region *r)
{
  SimaEv74Device *dev;
  int last;

  if (r == NULL)
    return;
  dev = r->dev;
  pthread_mutex_lock (&dev->lock);
  last = --r->refs == 0;
  pthread_mutex_unlock (&dev->lock);
  if (!last)
    return;
  /* every job given this region has retired (each held a reference) */
  dev->ops->release (dev->ctx, r->handle);
  free (r);
  sima_ev74_device_unref (dev);
}

uint64_t
sima_ev74_region_bus_address (const SimaEv74Region *r)
{
  return r->bus;
}

uint64_t
sima_ev74_region_length (const SimaEv74Region *r)
{
  return r->length;
}

/* ---- jobs ------------------------------------------------------------------- */

static void
job_free (SimaEv74Job *job)
{
  size_t i;

  /* regions were released at retirement; a job refused by submit still
   * has its own */
  for (i = 0; i < job->n_regions; i++)
    if (job->regions[i] != NULL)
      sima_ev74_region_unref (job->regions[i]);
  pthread_mutex_destroy (&job->lock);
  pthread_cond_destroy (&job->cond);
  free (job->regions);
  free (job->tregions);
  free (job->desc);
  free (job);
}

static void
job_unref (SimaEv74Job *job)
{
  int last;

  pthread_mutex_lock (&job->lock);
  last = --job->refs == 0;
  pthread_mutex_unlock (&job->lock);
  if (last)
    job_free (job);
}

void
sima_ev74_job_unref (SimaEv74Job *job)
{
  if (job != NULL)
    job_unref (job);
}

/* The transport confirmed retirement: the device is done with the
 * descriptor and the buffers. Publish, let go of the regions, wake. */
static void
job_retired (void *cookie, const SimaStatus *status,
    const SimaEv74JobStats *stats)
{
  SimaEv74Job *job = cookie;
  size_t i;

  for (i = 0; i < job->n_regions; i++) {
    sima_ev74_region_unref (job->regions[i]);
    job->regions[i] = NULL;
  }
  pthread_mutex_lock (&job->lock);
  job->stats = *stats;
  job->status = *status;
  job->retired = 1;
  pthread_cond_broadcast (&job->cond);
  pthread_mutex_unlock (&job->lock);
  job_unref (job);              /* the transport's reference */
}

SimaStatus
sima_ev74_submit (SimaEv74Device *dev, const SimaEv74Descriptor *desc,
    SimaEv74Region *const *regions, size_t n_regions, SimaEv74Job **out)
{
  SimaEv74Job *job;
  uint16_t route, member_routes[SIMA_EV74_TENSOR_SET_MAX_MEMBERS];
  size_t i, n_members = 0;
  int offered, missing_member = -1;
  uint64_t id = 0;
  SimaStatus st;

  if (dev == NULL || desc == NULL || out == NULL
      || (n_regions > 0 && regions == NULL)
      || desc->length > SIMA_EV74_DESCRIPTOR_MAX_BYTES)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "EV74 submit: invalid arguments");
  *out = NULL;
  for (i = 0; i < n_regions; i++)
    if (regions[i] == NULL || regions[i]->dev != dev)
      return sima_status_make (SIMA_INVALID_ARGUMENT,
          "EV74 submit: region %zu was not imported into device '%s'", i,
          dev->spec);
  route = sima_ev74_descriptor_route (desc);
  /* a set job runs its members' operations too: the device must offer
   * each of them as well as the container */
  if (route == SIMA_EV74_ROUTE_TENSOR_SET)
    n_members = sima_ev74_tensor_set_member_routes (desc->bytes,
        desc->length, member_routes);
  offered = dev->ops->has_capability (dev->ctx, route, NULL);
  for (i = 0; i < n_members && offered && missing_member < 0; i++)
    if (!dev->ops->has_capability (dev->ctx, member_routes[i], NULL))
      missing_member = (int) i;     /* the first member refused */
  if (!offered)   /* fail closed even for callers that skipped the probe */
    return sima_status_make (SIMA_CAPABILITY_MISSING,
        "EV74 device '%s' has no capability for route %u", dev->spec,
        (unsigned) route);
  if (missing_member >= 0)
    return sima_status_make (SIMA_CAPABILITY_MISSING,
        "EV74 device '%s' has no capability for route %u (member %d of a "
        "tensor set)", dev->spec, (unsigned) member_routes[missing_member],
        missing_member);

  job = calloc (1, sizeof *job);
  if (job == NULL
      || (job->desc = malloc (desc->length > 0 ? desc->length : 1)) == NULL
      || (n_regions > 0
          && ((job->regions = calloc (n_regions, sizeof *job->regions)) == NULL
              || (job->tregions = calloc (n_regions, sizeof *job->tregions))
              == NULL))) {
    if (job != NULL) {
      free (job->regions);
      free (job->desc);
      free (job);
    }
    return sima_status_make (SIMA_OUT_OF_RESOURCES, "EV74 submit: no memory");
  }
  if (sima_ev74_cond_init (&job->cond) != 0) {
    free (job->tregions);
    free (job->regions);
    free (job->desc);
    free (job);
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "EV74 submit: cannot create a monotonic condition variable");
  }
  pthread_mutex_init (&job->lock, NULL);
  job->refs = 2;                /* caller and transport */
  job->dev = dev;
  memcpy (job->desc, desc->bytes, desc->length);
  job->desc_length = desc->length;
  job->n_regions = n_regions;
  for (i = 0; i < n_regions; i++) {
    job->regions[i] = sima_ev74_region_ref (regions[i]);
    job->tregions[i] = (SimaEv74TransportRegion) { regions[i]->handle,
      regions[i]->bus, regions[i]->length };
  }
  st = dev->ops->submit (dev->ctx, job->desc, job->desc_length,
      job->tregions, job->n_regions, job_retired, job, &id);
  if (!sima_status_is_ok (&st)) {   /* never queued: only ours to free */
    job_free (job);
    return st;
  }
  pthread_mutex_lock (&job->lock);
  job->id = id;
  pthread_mutex_unlock (&job->lock);
  *out = job;
  return sima_status_ok ();
}

SimaStatus
sima_ev74_job_wait (SimaEv74Job *job, int64_t timeout_ns)
{
  SimaStatus st;
  struct timespec until;

  if (job == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT, "EV74 wait: job is NULL");
  if (timeout_ns >= 0)
    until = sima_ev74_deadline_after ((uint64_t) timeout_ns);
  pthread_mutex_lock (&job->lock);
  while (!job->retired) {
    if (timeout_ns < 0) {
      pthread_cond_wait (&job->cond, &job->lock);
    } else if (pthread_cond_timedwait (&job->cond, &job->lock, &until)
        == ETIMEDOUT) {
      break;
    }
  }
  st = job->retired ? job->status : sima_status_make (SIMA_TIMEOUT,
      "EV74 job did not retire within %lld ms; its buffers stay held until "
      "it does", (long long) (timeout_ns / 1000000));
  pthread_mutex_unlock (&job->lock);
  return st;
}

int
sima_ev74_job_retired (SimaEv74Job *job)
{
  int retired;
  pthread_mutex_lock (&job->lock);
  retired = job->retired;
  pthread_mutex_unlock (&job->lock);
  return retired;
}

void
sima_ev74_job_stats (SimaEv74Job *job, SimaEv74JobStats *out)
{
  pthread_mutex_lock (&job->lock);
  if (job->retired)
    *out = job->stats;
  else
    memset (out, 0, sizeof *out);
  pthread_mutex_unlock (&job->lock);
}

void
sima_ev74_job_cancel (SimaEv74Job *job)
{
  SimaEv74Device *dev;
  uint64_t id;
  int retired;

  if (job == NULL)
    return;
  pthread_mutex_lock (&job->lock);
  retired = job->retired;
  id = job->id;
  dev = job->dev;
  pthread_mutex_unlock (&job->lock);
  /* ids are never reused, so a job that retires meanwhile is not found;
   * the caller's reference keeps job (and dev, through its regions or its
   * own reference) alive; no lock is held, the transport may retire the
   * job from inside cancel */
  if (!retired && dev->ops->cancel != NULL)
    dev->ops->cancel (dev->ctx, id);
}

SimaStatus
sima_ev74_run (SimaEv74Device *dev, const SimaEv74Descriptor *desc,
    SimaEv74Region *const *regions, size_t n_regions, int64_t timeout_ns,
    SimaEv74JobStats *stats)
{
  SimaEv74Job *job;
  SimaStatus st = sima_ev74_submit (dev, desc, regions, n_regions, &job);

  if (!sima_status_is_ok (&st))
    return st;
  st = sima_ev74_job_wait (job, timeout_ns);
  if (stats != NULL)
    sima_ev74_job_stats (job, stats);
  sima_ev74_job_unref (job);
  return st;
}
