/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The firmware's native entry: common header checks, then the operation
 * the route names (route 53: a container of the others, run as one job).
 * Routes without a registered operation are rejected.
 */
#include "native_entry.h"

#include <simaai/kernels/ev74/wire.h>

#include "descriptor_check.h"
#include "detesscast_fw.h"
#include "detessdequant_fw.h"
#include "pack_fw.h"
#include "tensor_set_fw.h"

/* The names come from wire.h, which the host includes too: one spelling of
 * each capability for both sides of the boundary. */
const SimaFwCapability simafw_capabilities[] = {
  { SIMA_EV74_ROUTE_QUANTTESS, SIMA_EV74_QUANTTESS_CAPABILITY },
  { SIMA_EV74_ROUTE_DETESSDEQUANT, SIMA_EV74_DETESSDEQUANT_CAPABILITY },
  { SIMA_EV74_ROUTE_CASTTESS, SIMA_EV74_CASTTESS_CAPABILITY },
  { SIMA_EV74_ROUTE_DETESSCAST, SIMA_EV74_DETESSCAST_CAPABILITY },
  /* a container of the four above (tensor_set_desc.c) */
  { SIMA_EV74_ROUTE_TENSOR_SET, SIMA_EV74_TENSOR_SET_CAPABILITY },
};
const unsigned simafw_capability_count =
    sizeof simafw_capabilities / sizeof simafw_capabilities[0];

SimaStatus
simafw_native_entry (SimaFwHal *hal, const uint8_t *d, uint32_t length)
{
  SimaStatus st = simafw_check_header (d, length);
  uint16_t route;

  if (!sima_status_is_ok (&st))
    return st;
  route = sima_ev74_get_u16 (d, SIMA_EV74_OFF_ROUTE);
  switch (route) {
    case SIMA_EV74_ROUTE_QUANTTESS: {
      SimaFwQuantTessJob job;
      st = simafw_quanttess_decode (d, length, &job);
      return sima_status_is_ok (&st) ? simafw_pack_run (hal, &job.pack) : st;
    }
    case SIMA_EV74_ROUTE_CASTTESS: {
      SimaFwCastTessJob job;
      st = simafw_casttess_decode (d, length, &job);
      return sima_status_is_ok (&st) ? simafw_pack_run (hal, &job.pack) : st;
    }
    case SIMA_EV74_ROUTE_DETESSDEQUANT: {
      SimaFwDetessDequantJob job;
      st = simafw_detessdequant_decode (d, length, &job);
      return sima_status_is_ok (&st) ? simafw_detessdequant_run (hal, &job)
          : st;
    }
    case SIMA_EV74_ROUTE_DETESSCAST: {
      SimaFwDetessCastJob job;
      st = simafw_detesscast_decode (d, length, &job);
      return sima_status_is_ok (&st) ? simafw_detesscast_run (hal, &job) : st;
    }
    case SIMA_EV74_ROUTE_TENSOR_SET:
      return simafw_tensor_set_run (hal, d, length);
    default:
      return sima_status_make (SIMA_CAPABILITY_MISSING,
          "no operation is registered for descriptor route %u",
          (unsigned) route);
  }
}
