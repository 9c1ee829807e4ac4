/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * status_expect.h - one TAP point per expected status: the code must match
 * and the message must contain every given fragment (NULL-terminated list),
 * so rejection tests check both what was refused and what the user is told.
 */
#ifndef SIMA_TESTS_STATUS_EXPECT_H
#define SIMA_TESTS_STATUS_EXPECT_H

#include <simaai/kernels/status.h>

#include <stdarg.h>
#include <string.h>

#include "tap.h"

static inline int
expect_status (const char *name, SimaStatus st, SimaStatusCode code, ...)
{
  va_list frags;
  const char *f;
  int ok = st.code == code;

  va_start (frags, code);
  while ((f = va_arg (frags, const char *)) != NULL)
    ok &= strstr (st.message, f) != NULL;
  va_end (frags);
  tap_ok (ok, "%s -> %s: \"%s\"", name, sima_status_code_name (st.code),
      st.message);
  if (!ok)
    tap_diag ("expected %s", sima_status_code_name (code));
  return ok;
}

#endif /* SIMA_TESTS_STATUS_EXPECT_H */
