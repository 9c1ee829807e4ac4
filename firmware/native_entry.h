/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * native_entry.h - the EV74 firmware's entry point.
 *
 * Every worker of a job calls simafw_native_entry() with the same bound
 * descriptor and its own HAL (worker id and count). The entry revalidates
 * the whole descriptor before any DMA (integrity, version, reserved bytes,
 * ranges, the operation's own admission, spans, bound regions) and rejects
 * a malformed packet with a status; then it runs this worker's share. It
 * returns only after every transfer it issued has completed.
 */
#ifndef SIMA_FIRMWARE_NATIVE_ENTRY_H
#define SIMA_FIRMWARE_NATIVE_ENTRY_H

#include <simaai/kernels/status.h>

#include "hal/hal.h"

/* Capabilities this firmware image registers (route, name). */
typedef struct {
  uint16_t route;
  const char *name;
} SimaFwCapability;

extern const SimaFwCapability simafw_capabilities[];
extern const unsigned simafw_capability_count;

SimaStatus simafw_native_entry (SimaFwHal *hal, const uint8_t *descriptor,
    uint32_t length);

#endif /* SIMA_FIRMWARE_NATIVE_ENTRY_H */
