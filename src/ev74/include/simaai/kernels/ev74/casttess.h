/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/ev74/casttess.h - CastTess for the EV74: the version-1
 * descriptor (232 bytes, route 51, capability
 * simaai_kernels_ev74_casttess_v1; the QuantTess layout without
 * parameters). Encoding checks representability and leaves the device
 * addresses unbound; no device work runs.
 */
#ifndef SIMAAI_KERNELS_EV74_CASTTESS_H
#define SIMAAI_KERNELS_EV74_CASTTESS_H

#include <simaai/kernels/ev74/descriptor.h>
#include <simaai/kernels/ops/casttess.h>
#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

/* SIMA_EV74_CASTTESS_CAPABILITY: wire.h, with the route */

SimaStatus sima_ev74_casttess_encode_relocatable (const SimaCastTessPlan *plan,
    SimaEv74Descriptor *out);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_EV74_CASTTESS_H */
