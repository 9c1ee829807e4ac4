/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pack_fw.h - the two "pack" operations of the EV74 firmware, dense input
 * -> MLA tiles: QuantTess (INT8 tiles) and CastTess (BF16 byte-plane
 * tiles). They share the descriptor layout (pack_wire.h), the decoder and
 * the worker; only the conversion of a gathered value and the padding value
 * differ.
 */
#ifndef SIMA_FIRMWARE_PACK_FW_H
#define SIMA_FIRMWARE_PACK_FW_H

#include <simaai/kernels/ops/casttess.h>
#include <simaai/kernels/ops/quanttess.h>

#include "hal/hal.h"
#include "cast_vec.h"
#include "quant_vec.h"

/* Local memory of a pack worker: two slots of 18 KiB input and 6 KiB
 * output (the spec's QuantTess budget), so a task reads at most 18 KiB and
 * writes at most 6 KiB. */
enum {
  SIMAFW_PACK_IN_SLOT = 18 * 1024,
  SIMAFW_PACK_OUT_SLOT = 6 * 1024,
};

/* What the worker needs, whichever the operation. */
typedef struct {
  uint16_t route;               /* SIMA_EV74_ROUTE_QUANTTESS or _CASTTESS */
  const char *op;
  SimaDType input_dtype;
  SimaStridedView input_view;
  SimaTiledGeometry output_geometry;  /* element_bytes: 1 INT8, 2 BF16 */
  SimaTiledWalk walk;
  uint64_t element_count;
  uint32_t input_bus;
  uint32_t output_bus;
  uint8_t padding;              /* byte of padding channels, every plane */
  SimaQuantNumerics numerics;   /* QuantTess only */
  SimaFwQuantBlock quant;       /* QuantTess: its block arithmetic */
  SimaFwCastBlock cast;         /* CastTess: its block arithmetic */
} SimaFwPackJob;

typedef struct {
  SimaFwPackJob pack;
  SimaQuantTessPlan plan;       /* from sima_quanttess_check_inference */
} SimaFwQuantTessJob;

typedef struct {
  SimaFwPackJob pack;
  SimaCastTessPlan plan;        /* from sima_casttess_check_inference */
} SimaFwCastTessJob;

/* Validate a bound descriptor completely and derive the job. */
SimaStatus simafw_quanttess_decode (const uint8_t *d, uint32_t length,
    SimaFwQuantTessJob *job);
SimaStatus simafw_casttess_decode (const uint8_t *d, uint32_t length,
    SimaFwCastTessJob *job);

/* Converts n staged input scalars at src into output codes at dst:
 * QuantTess one INT8 byte per value, CastTess two bytes (its BF16 bits,
 * little-endian). dst may be src (the staged input converted in place);
 * otherwise they must not overlap. n is at most a slot's values. */
void simafw_pack_convert (const SimaFwPackJob *job, const uint8_t *src,
    uint8_t *dst, uint32_t n);

/* The end of every pack worker: waits for every tag (never returns with a
 * transfer in flight, failed or not); the DMA error if err or a wait says
 * a transfer failed. */
SimaStatus simafw_pack_drain (SimaFwHal *hal, const SimaFwPackJob *job,
    int err);

/* This worker's share of the job (hal->worker_id of hal->worker_count). */
SimaStatus simafw_pack_run (SimaFwHal *hal, const SimaFwPackJob *job);

#endif /* SIMA_FIRMWARE_PACK_FW_H */
