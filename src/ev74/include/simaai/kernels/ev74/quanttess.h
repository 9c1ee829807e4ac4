/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/ev74/quanttess.h - QuantTess for the EV74: the version-1
 * descriptor (232 bytes, route 49, capability
 * simaai_kernels_ev74_quanttess_v1). Encoding checks representability and
 * leaves the device addresses unbound; no device work runs.
 */
#ifndef SIMAAI_KERNELS_EV74_QUANTTESS_H
#define SIMAAI_KERNELS_EV74_QUANTTESS_H

#include <simaai/kernels/ev74/descriptor.h>
#include <simaai/kernels/ops/quanttess.h>
#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

/* SIMA_EV74_QUANTTESS_CAPABILITY: wire.h, with the route */

SimaStatus sima_ev74_quanttess_encode_relocatable (
    const SimaQuantTessPlan *plan, SimaEv74Descriptor *out);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_EV74_QUANTTESS_H */
