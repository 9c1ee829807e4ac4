/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * EV74 devices: spec resolution, the process-wide registry that makes one
 * spec one shared device, and capability probing.
 */
#define _GNU_SOURCE
#include "device_private.h"

#include <stdlib.h>
#include <string.h>

#include "../../firmware/native_entry.h"

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static SimaEv74Device *registry;

const char *
sima_ev74_resolve_spec (const char *spec)
{
  const char *env;

  if (spec != NULL && spec[0] != '\0')
    return spec;
  env = getenv ("SIMA_EV74_DEVICE");
  return env != NULL && env[0] != '\0' ? env : SIMA_EV74_PLATFORM_DEVICE;
}

static int
is_emulator (const char *spec)
{
  return strncmp (spec, "emulator", 8) == 0
      && (spec[8] == '\0' || spec[8] == ':');
}

static SimaStatus
create (const char *spec, SimaEv74Device **out)
{
  SimaEv74Device *dev;
  SimaStatus st;

  if (!is_emulator (spec))
    return sima_status_make (SIMA_DEVICE_UNAVAILABLE,
        "EV74 device '%s' is not available: this build has no platform "
        "transport; use the emulator (device=emulator)", spec);
  dev = calloc (1, sizeof *dev);
  if (dev == NULL || (dev->spec = strdup (spec)) == NULL) {
    free (dev);
    return sima_status_make (SIMA_OUT_OF_RESOURCES,
        "EV74 device '%s': out of memory", spec);
  }
  st = sima_emu_parse_options (&dev->config, spec[8] == ':' ? spec + 9 : "",
      1);
  if (sima_status_is_ok (&st))
    st = sima_emu_start (dev);
  if (!sima_status_is_ok (&st)) {
    free (dev->spec);
    free (dev);
    return st;
  }
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
  if (last)
    sima_emu_stop (dev);
}

const char *
sima_ev74_device_spec (const SimaEv74Device *dev)
{
  return dev->spec;
}

SimaStatus
sima_ev74_device_configure (SimaEv74Device *dev, const char *options)
{
  SimaEmuConfig config;
  SimaStatus st;

  if (dev == NULL || options == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "EV74 configure: NULL argument");
  pthread_mutex_lock (&dev->lock);
  config = dev->config;
  st = sima_emu_parse_options (&config, options, 0);
  if (sima_status_is_ok (&st))
    dev->config = config;
  pthread_mutex_unlock (&dev->lock);
  return st;
}

SimaStatus
sima_ev74_device_require (SimaEv74Device *dev, uint16_t route,
    const char *name)
{
  int present;

  if (dev == NULL || name == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "EV74 capability query: NULL argument");
  pthread_mutex_lock (&dev->lock);
  present = sima_emu_has_capability (&dev->config, route, name);
  pthread_mutex_unlock (&dev->lock);
  if (!present)
    return sima_status_make (SIMA_CAPABILITY_MISSING,
        "EV74 device '%s' does not register capability %s (route %u)",
        dev->spec, name, (unsigned) route);
  return sima_status_ok ();
}

int
sima_emu_has_capability (const SimaEmuConfig *config, uint16_t route,
    const char *name)
{
  unsigned i;

  if (config->missing_all)
    return 0;
  for (i = 0; i < config->n_missing; i++)
    if (config->missing[i] == route)
      return 0;
  /* the emulator offers exactly what the firmware image registers */
  for (i = 0; i < simafw_capability_count; i++)
    if (simafw_capabilities[i].route == route
        && (name == NULL || strcmp (simafw_capabilities[i].name, name) == 0))
      return 1;
  return 0;
}
