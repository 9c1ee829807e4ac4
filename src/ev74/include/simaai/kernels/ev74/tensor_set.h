/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/ev74/tensor_set.h - a whole tensor set as one EV74 job.
 *
 * The set descriptor (route 53, capability
 * simaai_kernels_ev74_tensor_set_v1, docs/ev74-descriptors.md) is a
 * container: the common header (bound to the set's whole input and output
 * buffers, spans = the sets' capacities), a member table (input and output
 * offset of each member) and every member's own relocatable descriptor
 * (QuantTess, CastTess, DetessDequant or DetessCast v1, unchanged; the
 * DetessCast set encoders are declared in detesscast.h). The firmware checks
 * the container, binds each member to base + offset itself, validates each
 * member exactly as a single job, rebuilds the two tensor sets and runs the
 * core's sima_tensor_set_check on them, and only then runs the members: one
 * submission, one retirement.
 *
 * The per-op encoders below emit the plain single-tensor descriptor (no
 * container, no need for the set capability) when the set is one member at
 * offset 0 on both sides, and the container otherwise.
 */
#ifndef SIMAAI_KERNELS_EV74_TENSOR_SET_H
#define SIMAAI_KERNELS_EV74_TENSOR_SET_H

#include <simaai/kernels/ev74/descriptor.h>
#include <simaai/kernels/ops/casttess.h>
#include <simaai/kernels/ops/detessdequant.h>
#include <simaai/kernels/ops/quanttess.h>
#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

/* SIMA_EV74_ROUTE_TENSOR_SET and SIMA_EV74_TENSOR_SET_CAPABILITY: wire.h */

/* True when encoding this plan needs the set capability (more than one
 * member, or a member not at offset 0). */
int sima_ev74_quanttess_set_needs_container (const SimaQuantTessSetPlan *plan);
int sima_ev74_casttess_set_needs_container (const SimaCastTessSetPlan *plan);
int sima_ev74_detessdequant_set_needs_container (
    const SimaDetessDequantSetPlan *plan);

SimaStatus sima_ev74_quanttess_set_encode_relocatable (
    const SimaQuantTessSetPlan *plan, SimaEv74Descriptor *out);
SimaStatus sima_ev74_casttess_set_encode_relocatable (
    const SimaCastTessSetPlan *plan, SimaEv74Descriptor *out);
SimaStatus sima_ev74_detessdequant_set_encode_relocatable (
    const SimaDetessDequantSetPlan *plan, SimaEv74Descriptor *out);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_EV74_TENSOR_SET_H */
