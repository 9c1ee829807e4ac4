/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Status codes and their names. Message formatting is in status_message.c,
 * apart, because the EV74 firmware image supplies its own (no printf there,
 * firmware/fw_status.c).
 */
#include <simaai/kernels/status.h>

const char *
sima_status_code_name (SimaStatusCode code)
{
  switch (code) {
#define SIMA_STATUS_NAME_(name, value, str) \
    case SIMA_##name:                       \
      return str;
    SIMA_STATUS_CODES (SIMA_STATUS_NAME_)
#undef SIMA_STATUS_NAME_
  }
  return "unknown";
}

SimaStatus
sima_status_ok (void)
{
  SimaStatus status;
  status.code = SIMA_OK;
  status.message[0] = '\0';
  return status;
}
