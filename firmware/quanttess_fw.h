/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * quanttess_fw.h - QuantTess in the EV74 firmware: the descriptor decoder
 * (which rebuilds the request and runs the core's own admission on it) and
 * the worker.
 */
#ifndef SIMA_FIRMWARE_QUANTTESS_FW_H
#define SIMA_FIRMWARE_QUANTTESS_FW_H

#include <simaai/kernels/ops/quanttess.h>

#include "hal/hal.h"

/* Local memory of a QuantTess worker: two slots of 18 KiB input and 6 KiB
 * output (the spec's budget), so a task reads at most 18 KiB and writes at
 * most 6 KiB. */
enum {
  SIMAFW_QT_IN_SLOT = 18 * 1024,
  SIMAFW_QT_OUT_SLOT = 6 * 1024,
};

typedef struct {
  SimaQuantTessPlan plan;       /* from sima_quanttess_check_inference */
  SimaQuantNumerics numerics;
  SimaTiledWalk walk;
  uint32_t input_bus;
  uint32_t output_bus;
} SimaFwQuantTessJob;

/* Validates a bound QuantTess descriptor completely and derives the job. */
SimaStatus simafw_quanttess_decode (const uint8_t *d, uint32_t length,
    SimaFwQuantTessJob *job);

/* This worker's share of the job (hal->worker_id of hal->worker_count). */
SimaStatus simafw_quanttess_run (SimaFwHal *hal, const SimaFwQuantTessJob *job);

#endif /* SIMA_FIRMWARE_QUANTTESS_FW_H */
