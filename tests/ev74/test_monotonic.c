/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The device layer's timed waits (src/ev74/monotonic.h): the deadline of
 * every timeout from 0 to UINT64_MAX nanoseconds lies no earlier than the
 * timeout says and never in the past, and grows with the timeout. With a
 * 32-bit time_t (the i686 build) a timeout of more than 68 years used to
 * wrap to a deadline in the past: a wait meant to be endless timed out at
 * once.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>

#include "../../src/ev74/monotonic.h"
#include "tap.h"

static int
before (const struct timespec *a, const struct timespec *b)
{
  return a->tv_sec < b->tv_sec
      || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

int
main (void)
{
  const uint64_t s = UINT64_C (1000000000);
  const uint64_t ns[] = {
    0, 1, s - 1, s, s + 1, 3600 * s, 86400 * 365 * s,
    (UINT64_C (1) << 31) * s - 1,             /* 68 years */
    ((UINT64_C (1) << 31) + (UINT64_C (1) << 30)) * s,  /* wrapped negative */
    (UINT64_C (1) << 32) * s + 5,             /* wrapped to about now */
    UINT64_C (1) << 62, (uint64_t) INT64_MAX, UINT64_MAX - 1, UINT64_MAX,
  };
  const int n = (int) (sizeof ns / sizeof ns[0]);
  struct timespec prev = { 0, 0 };
  int i, past = 0, short_ = 0, shrink = 0, bad_nsec = 0;

  tap_diag ("time_t is %d bits", (int) (8 * sizeof (time_t)));
  for (i = 0; i < n; i++) {
    struct timespec now, d;
    clock_gettime (SIMA_EV74_WAIT_CLOCK, &now);
    d = sima_ev74_deadline_after (ns[i]);
    past += before (&d, &now);
    bad_nsec += d.tv_nsec < 0 || d.tv_nsec >= 1000000000L;
    /* at least ns after now, where a time_t can say so */
    if (ns[i] / s < (UINT64_C (1) << 30)) {
      uint64_t want = (uint64_t) now.tv_sec * s + (uint64_t) now.tv_nsec
          + ns[i];
      uint64_t got = (uint64_t) d.tv_sec * s + (uint64_t) d.tv_nsec;
      short_ += got < want;
    }
    shrink += i > 0 && before (&d, &prev);
    prev = d;
  }
  tap_ok (past == 0, "%d timeouts from 0 to 2^64-1 ns: %d deadlines in the "
      "past", n, past);
  tap_ok (short_ == 0, "timeouts below 2^30 s: %d deadlines earlier than "
      "now + timeout", short_);
  tap_ok (shrink == 0 && bad_nsec == 0, "deadlines grow with the timeout "
      "(%d shrink), nanoseconds in range (%d not)", shrink, bad_nsec);
  return tap_done ();
}
