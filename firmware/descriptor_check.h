/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * descriptor_check.h - checks every descriptor gets before its operation's
 * own decoder runs: the common header (magic, length, CRC) and the bound
 * regions (bus addresses and lengths against the spans).
 */
#ifndef SIMA_FIRMWARE_DESCRIPTOR_CHECK_H
#define SIMA_FIRMWARE_DESCRIPTOR_CHECK_H

#include <simaai/kernels/status.h>

#include <stdint.h>

/* Magic, a length field equal to the received length, at least a header,
 * and the CRC. */
SimaStatus simafw_check_header (const uint8_t *d, uint32_t length);

/* A bound region: address and span inside the 32-bit aperture, bound length
 * covering the span, address aligned. `role` is "input" or "output". On
 * success *bus is the 32-bit address. */
SimaStatus simafw_check_binding (const uint8_t *d, const char *role,
    uint32_t alignment, uint32_t *bus);

/* The input and output bus ranges do not overlap. */
SimaStatus simafw_check_disjoint (const uint8_t *d);

#endif /* SIMA_FIRMWARE_DESCRIPTOR_CHECK_H */
