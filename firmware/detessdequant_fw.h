/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * detessdequant_fw.h - DetessDequant in the EV74 firmware: the descriptor
 * decoder (which rebuilds the request, runs the core's admission on it,
 * prepares the block arithmetic and checks the exact table) and the
 * worker.
 */
#ifndef SIMA_FIRMWARE_DETESSDEQUANT_FW_H
#define SIMA_FIRMWARE_DETESSDEQUANT_FW_H

#include <simaai/kernels/ops/detessdequant.h>

#include "dequant_vec.h"
#include "hal/hal.h"

/* Panels of at most 4,096 elements: two 4 KiB INT8 input slots and two
 * output slots of 4,096 results. */
enum { SIMAFW_DD_PANEL = 4096 };

typedef struct {
  SimaDetessDequantPlan plan;   /* from sima_detessdequant_check_inference */
  unsigned flags;               /* SIMA_EV74_DD_FLAG_* */
  uint32_t input_bus;
  uint32_t output_bus;
  /* The arithmetic, prepared once per job (dequant_vec.h): the vector
   * path for an admitted normal scale; otherwise the 256 results of the
   * core's exact integer stages, which for a subnormal scale the
   * descriptor's table must equal entry by entry. */
  SimaFwDequantBlock block;
} SimaFwDetessDequantJob;

SimaStatus simafw_detessdequant_decode (const uint8_t *d, uint32_t length,
    SimaFwDetessDequantJob *job);

/* This worker's share. A dense output is shared by all workers in
 * 16-byte aligned intervals; a strided one has a single owner (worker 0),
 * because logical non-overlap does not make DMA granules independent. */
SimaStatus simafw_detessdequant_run (SimaFwHal *hal,
    const SimaFwDetessDequantJob *job);

#endif /* SIMA_FIRMWARE_DETESSDEQUANT_FW_H */
