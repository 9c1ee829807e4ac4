/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * monotonic.h - timed waits on CLOCK_MONOTONIC (private to src/ev74).
 *
 * Every timed wait of the device layer and the emulator runs on
 * CLOCK_MONOTONIC: a wall-clock step (NTP, settimeofday, a suspended VM
 * catching up) must not fire a timeout early or hold it late. Conditions
 * are created for that clock and deadlines are read from it, here only.
 */
#ifndef SIMA_EV74_MONOTONIC_H
#define SIMA_EV74_MONOTONIC_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#define SIMA_EV74_WAIT_CLOCK CLOCK_MONOTONIC

static inline uint64_t
sima_ev74_now_ns (void)
{
  struct timespec ts;
  clock_gettime (SIMA_EV74_WAIT_CLOCK, &ts);
  return (uint64_t) ts.tv_sec * UINT64_C (1000000000) + (uint64_t) ts.tv_nsec;
}

static inline int
sima_ev74_cond_init (pthread_cond_t *cond)
{
  pthread_condattr_t attr;
  int err = pthread_condattr_init (&attr);

  if (err != 0)
    return err;
  err = pthread_condattr_setclock (&attr, SIMA_EV74_WAIT_CLOCK);
  if (err == 0)
    err = pthread_cond_init (cond, &attr);
  pthread_condattr_destroy (&attr);
  return err;
}

/* The absolute deadline `ns` from now, for pthread_cond_timedwait on a
 * condition made by sima_ev74_cond_init. A deadline beyond the last second
 * a time_t holds is that second: with a 32-bit time_t (i686) a timeout of
 * more than 68 years would otherwise wrap to a deadline in the past and
 * fire at once; one that long never fires anyway. */
static inline struct timespec
sima_ev74_deadline_after (uint64_t ns)
{
  /* time_t is a signed integer type on every target we build for */
  const uint64_t sec_max = sizeof (time_t) >= 8 ? (uint64_t) INT64_MAX
      : (uint64_t) INT32_MAX;
  struct timespec t;
  uint64_t sum, add;

  clock_gettime (SIMA_EV74_WAIT_CLOCK, &t);
  sum = (uint64_t) t.tv_nsec + ns % UINT64_C (1000000000);
  add = ns / UINT64_C (1000000000) + sum / UINT64_C (1000000000);
  if (add > sec_max - (uint64_t) t.tv_sec) {
    t.tv_sec = (time_t) sec_max;
    t.tv_nsec = 999999999L;
    return t;
  }
  t.tv_sec += (time_t) add;
  t.tv_nsec = (long) (sum % UINT64_C (1000000000));
  return t;
}

#endif /* SIMA_EV74_MONOTONIC_H */
