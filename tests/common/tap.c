/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>

static int tap_count;
static int tap_failures;

int
tap_ok (int ok, const char *fmt, ...)
{
  va_list args;

  printf ("%sok %d - ", ok ? "" : "not ", ++tap_count);
  va_start (args, fmt);
  vprintf (fmt, args);
  va_end (args);
  printf ("\n");
  fflush (stdout);
  tap_failures += !ok;
  return ok;
}

void
tap_diag (const char *fmt, ...)
{
  va_list args;

  printf ("# ");
  va_start (args, fmt);
  vprintf (fmt, args);
  va_end (args);
  printf ("\n");
}

int
tap_done (void)
{
  printf ("1..%d\n", tap_count);
  return tap_failures != 0;
}
