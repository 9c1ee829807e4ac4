/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * codec_private.h - the per-op encoders as byte writers, private to
 * src/ev74. The public *_encode_relocatable functions and the TensorSet
 * container writer (tensor_set_codec.c) both call them: a container writes
 * each member straight into its own bytes, so no encoder needs a temporary
 * SimaEv74Descriptor (20 KiB since containers exist) for a member.
 *
 * Each writes its whole descriptor at b (it zeroes its own bytes first; b
 * has room for SIMA_EV74_TENSOR_SET_MEMBER_MAX_BYTES), relocatable and
 * sealed, and sets *length. On failure (a span beyond 32 bits) it writes
 * nothing.
 */
#ifndef SIMA_EV74_CODEC_PRIVATE_H
#define SIMA_EV74_CODEC_PRIVATE_H

#include <simaai/kernels/ev74/descriptor.h>
#include <simaai/kernels/ops/casttess.h>
#include <simaai/kernels/ops/detesscast.h>
#include <simaai/kernels/ops/detessdequant.h>
#include <simaai/kernels/ops/quanttess.h>

#include <string.h>

SimaStatus sima_ev74_quanttess_encode_into (const SimaQuantTessPlan *plan,
    uint8_t *b, uint32_t *length);
SimaStatus sima_ev74_casttess_encode_into (const SimaCastTessPlan *plan,
    uint8_t *b, uint32_t *length);
SimaStatus sima_ev74_detessdequant_encode_into (
    const SimaDetessDequantPlan *plan, uint8_t *b, uint32_t *length);
SimaStatus sima_ev74_detesscast_encode_into (const SimaDetessCastPlan *plan,
    uint8_t *b, uint32_t *length);

/* The routes of a TensorSet container's members (at most 16), read as far
 * as the bytes allow, for the transport's fail-closed capability check at
 * submit (the firmware validates everything again). Returns how many. */
size_t sima_ev74_tensor_set_member_routes (const uint8_t *b, uint32_t length,
    uint16_t *routes);

/* After an encoder wrote into desc->bytes: on success the bytes past the
 * descriptor are zeroed (the struct's contents are a function of the plan
 * alone); on failure desc was not touched. */
static inline SimaStatus
sima_ev74_finish_encode (SimaStatus st, SimaEv74Descriptor *desc)
{
  if (sima_status_is_ok (&st))
    memset (desc->bytes + desc->length, 0,
        SIMA_EV74_DESCRIPTOR_MAX_BYTES - desc->length);
  return st;
}

#endif /* SIMA_EV74_CODEC_PRIVATE_H */
