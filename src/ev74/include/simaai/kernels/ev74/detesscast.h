/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/ev74/detesscast.h - DetessCast for the EV74: the
 * version-1 descriptor (route 52, capability
 * simaai_kernels_ev74_detesscast_v1, docs/ev74-descriptors.md). Encoding
 * checks representability and leaves the device addresses unbound; no
 * device work runs.
 */
#ifndef SIMAAI_KERNELS_EV74_DETESSCAST_H
#define SIMAAI_KERNELS_EV74_DETESSCAST_H

#include <simaai/kernels/ev74/descriptor.h>
#include <simaai/kernels/ops/detesscast.h>
#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

/* SIMA_EV74_DETESSCAST_CAPABILITY: wire.h, with the route */

SimaStatus sima_ev74_detesscast_encode_relocatable (
    const SimaDetessCastPlan *plan, SimaEv74Descriptor *out);

/* A set (simaai/kernels/ev74/tensor_set.h): the plain descriptor for one
 * member at offset 0, the TensorSet container otherwise. */
int sima_ev74_detesscast_set_needs_container (
    const SimaDetessCastSetPlan *plan);
SimaStatus sima_ev74_detesscast_set_encode_relocatable (
    const SimaDetessCastSetPlan *plan, SimaEv74Descriptor *out);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_EV74_DETESSCAST_H */
