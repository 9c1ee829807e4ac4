/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * detessdequant_special.h - private: the DetessDequant job's workers and
 * the selector that picks one once per job. Firmware-internal; tests link
 * it to check the choice. Not an ABI, not a public restriction: whatever is
 * not selected runs on the general worker (detessdequant_worker.c), which
 * admits everything the decoder admits.
 */
#ifndef SIMA_FIRMWARE_DETESSDEQUANT_SPECIAL_H
#define SIMA_FIRMWARE_DETESSDEQUANT_SPECIAL_H

#include "detessdequant_fw.h"

/* The tile-band worker's local memory (written once, here): two staging
 * slots for the raw tile fragments of a band, one ordered INT8 panel (the
 * spec's "bounded 4 KiB raw-fragment scratch") and the general worker's two
 * result panels (SIMAFW_DD_PANEL results each). */
enum {
  SIMAFW_DDB_STAGE = 4096,
  SIMAFW_DDB_ORDERED = SIMAFW_DD_PANEL,
};

typedef enum {
  /* panels of the row-major output, gathered value run by value run */
  SIMAFW_DD_WORKER_GENERAL = 0,
  /* the logical input is a contiguous prefix of the tiled bytes (rank-one
   * channel tensors; channels-last tensors of one unpadded C tile in
   * whole-row or single-row tiles, such as YOLO heads): the general
   * worker's panels, each one direct read */
  SIMAFW_DD_WORKER_DIRECT = 1,
  /* channels-last dense output: bands of whole tiles (or tile rows), every
   * C tile of a band read in a few transfers, reordered locally */
  SIMAFW_DD_WORKER_BANDS = 2,
} SimaFwDetessDequantWorker;

/* The worker a decoded, nonempty job runs on with `workers` workers. Pure:
 * the job and the worker count only, the same answer on every worker. */
SimaFwDetessDequantWorker simafw_detessdequant_select (
    const SimaFwDetessDequantJob *job, uint32_t workers);

/* The tile-band worker: this worker's share, only for jobs the selector
 * gave it. */
SimaStatus simafw_detessdequant_run_bands (SimaFwHal *hal,
    const SimaFwDetessDequantJob *job);

#endif /* SIMA_FIRMWARE_DETESSDEQUANT_SPECIAL_H */
