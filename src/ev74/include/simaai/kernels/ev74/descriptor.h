/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/ev74/descriptor.h - EV74 descriptors on the host: storage,
 * and binding to imported regions.
 *
 * Host sequence (docs/ev74.md):
 *   check_inference -> encode_relocatable (spans checked against the 32-bit
 *   aperture) -> bind (bus addresses and bound lengths patched in, checked
 *   again) -> sima_ev74_submit -> confirmed retirement.
 * CPU pointers are never device addresses: bind takes bus addresses of
 * regions imported into the device (device.h).
 */
#ifndef SIMAAI_KERNELS_EV74_DESCRIPTOR_H
#define SIMAAI_KERNELS_EV74_DESCRIPTOR_H

#include <simaai/kernels/ev74/wire.h>
#include <simaai/kernels/status.h>

#include <stdint.h>

#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

/* Large enough for every descriptor of every operation: a TensorSet
 * container (tensor_set_wire.h) of 16 of the largest single descriptors
 * (DetessDequant with strides and an exact table, 1,248 bytes) and their
 * 24-byte table entries after its 64-byte head: 64 + 16 x 1,272 = 20,416
 * bytes, inside the u16 length field. A descriptor this size does not
 * belong on small stacks: keep it in long-lived storage, and copy `length`
 * bytes, not the struct. */
enum { SIMA_EV74_DESCRIPTOR_MAX_BYTES = 20416 };

typedef struct {
  uint32_t length;          /* bytes used in `bytes` */
  uint8_t bytes[SIMA_EV74_DESCRIPTOR_MAX_BYTES];
} SimaEv74Descriptor;

/* Where a tensor lives for the device: a bus address and how many bytes are
 * accessible from it (the rest of its imported region). */
typedef struct {
  uint64_t bus_address;
  uint64_t length;
} SimaEv74Binding;

/* Patches the relocation block of an encoded descriptor: both addresses must
 * lie in the 32-bit aperture together with their spans, each binding must
 * cover its span, and the two ranges must not overlap. The CRC does not
 * cover the relocation block, so binding again (new buffers, same plan) is
 * cheap. On failure the descriptor is left unchanged. */
SimaStatus sima_ev74_descriptor_bind (SimaEv74Descriptor *desc,
    const SimaEv74Binding *input, const SimaEv74Binding *output);

/* Route (capability number) and spans recorded in a descriptor. */
uint16_t sima_ev74_descriptor_route (const SimaEv74Descriptor *desc);
uint64_t sima_ev74_descriptor_input_span (const SimaEv74Descriptor *desc);
uint64_t sima_ev74_descriptor_output_span (const SimaEv74Descriptor *desc);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_EV74_DESCRIPTOR_H */
