/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <simaai/kernels/status.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

SimaStatus
sima_status_make (SimaStatusCode code, const char *fmt, ...)
{
  SimaStatus status;
  va_list args;

  status.code = code;
  va_start (args, fmt);
  /* vsnprintf truncates and always terminates a nonzero-sized buffer. */
  if (vsnprintf (status.message, sizeof status.message, fmt, args) < 0)
    strcpy (status.message, "(message could not be formatted)");
  va_end (args);
  return status;
}
