/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tensor_set_fw.h - TensorSet v1 (route 53) in the EV74 firmware: one job
 * for a whole tensor set, a container of QuantTess, CastTess,
 * DetessDequant and DetessCast v1 member descriptors (tensor_set_wire.h).
 */
#ifndef SIMA_FIRMWARE_TENSOR_SET_FW_H
#define SIMA_FIRMWARE_TENSOR_SET_FW_H

#include <simaai/kernels/status.h>

#include <stdint.h>

#include "hal/hal.h"

/* Validates the container completely: its own fields, the table, how the
 * members tile it, each member's header, then each member bound to
 * base + offset and decoded exactly as a single job, the two tensor sets
 * rebuilt from the members through the core's sima_tensor_set_check, and
 * their capacities against the container's spans. No DMA. */
SimaStatus simafw_tensor_set_validate (const uint8_t *d, uint32_t length);

/* simafw_tensor_set_validate, then this worker's share of every member in
 * table order; each member's run returns with its transfers complete. */
SimaStatus simafw_tensor_set_run (SimaFwHal *hal, const uint8_t *d,
    uint32_t length);

#endif /* SIMA_FIRMWARE_TENSOR_SET_FW_H */
