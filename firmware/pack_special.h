/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pack_special.h - private: the pack job's specialised workers and the
 * selector that picks one (or the general worker of pack_worker.c) once per
 * job. Firmware-internal; tests link it to check the choice. Not an ABI,
 * not a public restriction: whatever is not selected runs on the general
 * worker, which admits everything the decoder admits.
 */
#ifndef SIMA_FIRMWARE_PACK_SPECIAL_H
#define SIMA_FIRMWARE_PACK_SPECIAL_H

#include "hal/device_model.h"
#include "pack_fw.h"

/* Eligibility bounds, written once (the spec's "Compact grouped C16 worker"
 * and "Compact direct-tile workers": RGB to Pad16, unpadded complete
 * tiles). */
enum {
  /* grouped C16 (QuantTess, INT8): more than 16, at most 64 logical
   * channels in C tiles of 16, each storing exactly 16 */
  SIMAFW_GC16_MIN_CHANNELS = 17,
  SIMAFW_GC16_MAX_CHANNELS = 64,
  SIMAFW_GC16_C_TILE = 16,
  /* a whole patch (all its C tiles): source elements, output bytes */
  SIMAFW_GC16_MAX_ELEMENTS = 4608,
  SIMAFW_GC16_MAX_OUTPUT = 6144,
  /* RGB -> Pad16: three logical channels, sixteen stored */
  SIMAFW_RGB_CHANNELS = 3,
  SIMAFW_RGB_STORED = 16,
  SIMAFW_RGB_MAX_PIXELS = 128,
  /* source bytes of one H row of a grouped patch, or of a whole full RGB
   * tile, below which the general worker stays (the DMA threshold:
   * SIMA_EV74_DMA_EFFICIENT_ROW_BYTES for a row, 128 for an RGB tile) */
  SIMAFW_GC16_MIN_ROW_BYTES = SIMA_EV74_DMA_EFFICIENT_ROW_BYTES,
  SIMAFW_RGB_MIN_TILE_BYTES = 128,
  /* compact direct tiles (QuantTess, INT8), "unpadded complete tiles": "at
   * most 4,096 input elements, no stored channel padding, and a payload
   * divisible by 16" (every class: so no tile has an alignment-only gap
   * and every tile is whole write granules); one output byte per element,
   * so 4,096 is the output slot too (two slots in and out: 40 KiB for
   * FP32, 24 KiB for BF16/FP16, 16 KiB for UINT8). "Both require at
   * least 128 source bytes in a regular full tile": the RGB worker's
   * bound. cblock tiles
   * are in pixel order only while they hold one 16-channel block. */
  SIMAFW_CT_MAX_ELEMENTS = 4096,
  SIMAFW_CT_PAYLOAD_MULTIPLE = 16,
  SIMAFW_CT_MIN_TILE_BYTES = SIMAFW_RGB_MIN_TILE_BYTES,
  SIMAFW_CT_CBLOCK_CHANNELS = 16,
};

typedef enum {
  SIMAFW_PACK_WORKER_GENERAL = 0,
  SIMAFW_PACK_WORKER_GROUPED_C16 = 1,
  SIMAFW_PACK_WORKER_RGB_PAD16 = 2,
  SIMAFW_PACK_WORKER_COMPACT_TILE = 3,
} SimaFwPackWorker;

/* The worker a (decoded, nonempty) job runs on. Pure: geometry and view
 * only, the same answer on every worker. The specialised rules are
 * disjoint (grouped C16 needs two C tiles or more, the other two one;
 * RGB stores 16 channels for 3, the compact tile exactly its logical
 * channels), so the order they are asked in (grouped C16, RGB, compact
 * tile) changes no choice. */
SimaFwPackWorker simafw_pack_select (const SimaFwPackJob *job);

/* Whether one specialised worker's rule admits the job, whatever the
 * others say (GENERAL: always); for tests of the rules' disjointness. */
int simafw_pack_eligible (const SimaFwPackJob *job, SimaFwPackWorker w);

/* The specialised workers (this worker's share, like simafw_pack_run);
 * only for jobs simafw_pack_select gave them. */
SimaStatus simafw_pack_run_grouped_c16 (SimaFwHal *hal,
    const SimaFwPackJob *job);
SimaStatus simafw_pack_run_rgb_pad16 (SimaFwHal *hal,
    const SimaFwPackJob *job);
SimaStatus simafw_pack_run_compact_tile (SimaFwHal *hal,
    const SimaFwPackJob *job);

#endif /* SIMA_FIRMWARE_PACK_SPECIAL_H */
