/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The firmware's printf-free status formatter (firmware/fw_status.c) gives
 * the same text as the host's snprintf for the conversions the core's
 * messages use, and never writes past the message buffer.
 */
#include <simaai/kernels/status.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"

#define SAME(fmt, ...)                                                         \
  do {                                                                         \
    char want[SIMA_STATUS_MESSAGE_SIZE];                                       \
    SimaStatus st = sima_status_make (SIMA_INVALID_DESCRIPTOR, fmt,           \
        __VA_ARGS__);                                                          \
    snprintf (want, sizeof want, fmt, __VA_ARGS__);                            \
    tap_ok (strcmp (st.message, want) == 0 && st.code == SIMA_INVALID_DESCRIPTOR, \
        "\"%s\" formats as \"%s\"", fmt, st.message);                          \
  } while (0)

int
main (void)
{
  char longtext[400];
  SimaStatus st;

  SAME ("%s rank is %d, must be 1 to %d", "input", 7, 6);
  SAME ("extent on axis %d is %lld", 2, (long long) INT64_MIN);
  SAME ("capacity is %llu bytes, %llu required", 31ull,
      (unsigned long long) UINT64_MAX);
  SAME ("address %#llx is not %d-byte aligned", 0x80001004ull, 16);
  SAME ("magic is %#lx, expected %#lx", 0x12345678ul, 0x34375645ul);
  SAME ("zero_point is %ld", -129l);
  SAME ("%zu transfers pending, route %u", (size_t) 3, 49u);
  SAME ("%c%c and 100%%", 'o', 'k');
  memset (longtext, 'x', sizeof longtext - 1);
  longtext[sizeof longtext - 1] = '\0';
  st = sima_status_make (SIMA_OK, "%s%s", longtext, longtext);
  tap_ok (strlen (st.message) == SIMA_STATUS_MESSAGE_SIZE - 1,
      "long messages are truncated and terminated");
  st = sima_status_make (SIMA_OK, "multiplier is %g", 0.5);
  tap_ok (strcmp (st.message, "multiplier is 0x3f000000") == 0,
      "%%g prints the FP32 bits: \"%s\"", st.message);
  return tap_done ();
}
