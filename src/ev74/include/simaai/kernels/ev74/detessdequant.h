/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/ev74/detessdequant.h - DetessDequant for the EV74: the
 * version-1 descriptor (route 50, capability
 * simaai_kernels_ev74_detessdequant_v1), 176 bytes plus the trailers of
 * detessdequant_wire.h. Encoding checks representability, appends the exact
 * table (built with integer arithmetic) for subnormal scales, and leaves the
 * device addresses unbound; no device work runs.
 */
#ifndef SIMAAI_KERNELS_EV74_DETESSDEQUANT_H
#define SIMAAI_KERNELS_EV74_DETESSDEQUANT_H

#include <simaai/kernels/ev74/descriptor.h>
#include <simaai/kernels/ops/detessdequant.h>
#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

/* SIMA_EV74_DETESSDEQUANT_CAPABILITY: wire.h, with the route */

SimaStatus sima_ev74_detessdequant_encode_relocatable (
    const SimaDetessDequantPlan *plan, SimaEv74Descriptor *out);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_EV74_DETESSDEQUANT_H */
