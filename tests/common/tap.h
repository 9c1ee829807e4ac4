/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tap.h - a tiny TAP producer for the core tests (meson test protocol: tap).
 *
 * Each tap_ok() is one TAP test point; large sweeps count their own cases
 * and report one point with the count ("... 6291456 cases, 0 mismatches"),
 * so the meson log carries the numbers. tap_done() prints the plan and gives
 * the exit status.
 */
#ifndef SIMA_TESTS_TAP_H
#define SIMA_TESTS_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_count_;
static int tap_failures_;

#if defined(__GNUC__)
__attribute__ ((format (printf, 2, 3)))
#endif
static inline int
tap_ok (int ok, const char *fmt, ...)
{
  va_list args;

  printf ("%sok %d - ", ok ? "" : "not ", ++tap_count_);
  va_start (args, fmt);
  vprintf (fmt, args);
  va_end (args);
  printf ("\n");
  fflush (stdout);
  tap_failures_ += !ok;
  return ok;
}

#if defined(__GNUC__)
__attribute__ ((format (printf, 1, 2)))
#endif
static inline void
tap_diag (const char *fmt, ...)
{
  va_list args;

  printf ("# ");
  va_start (args, fmt);
  vprintf (fmt, args);
  va_end (args);
  printf ("\n");
}

static inline int
tap_done (void)
{
  printf ("1..%d\n", tap_count_);
  return tap_failures_ != 0;
}

#endif /* SIMA_TESTS_TAP_H */
