/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * detesscast_fw.h - DetessCast (route 52) in the EV74 firmware: the
 * descriptor decoder (which rebuilds the request and runs the core's
 * admission on it) and the worker.
 */
#ifndef SIMA_FIRMWARE_DETESSCAST_FW_H
#define SIMA_FIRMWARE_DETESSCAST_FW_H

#include <simaai/kernels/ops/detesscast.h>

#include "hal/hal.h"

/* Panels of at most 2,048 elements: two input slots of 2 x 2 KiB (the low
 * and the high byte plane of the panel's values, each in output order) and
 * two output slots of 2,048 results (8 KiB for FP32). */
enum { SIMAFW_DC_PANEL = 2048 };

typedef struct {
  SimaDetessCastPlan plan;      /* from sima_detesscast_check_inference */
  unsigned flags;               /* SIMA_EV74_DC_FLAG_* */
  uint32_t input_bus;
  uint32_t output_bus;
} SimaFwDetessCastJob;

SimaStatus simafw_detesscast_decode (const uint8_t *d, uint32_t length,
    SimaFwDetessCastJob *job);

/* This worker's share. A dense output is shared by all workers in
 * 16-byte aligned intervals; a strided one has a single owner (worker 0),
 * because logical non-overlap does not make DMA granules independent. */
SimaStatus simafw_detesscast_run (SimaFwHal *hal,
    const SimaFwDetessCastJob *job);

#endif /* SIMA_FIRMWARE_DETESSCAST_FW_H */
