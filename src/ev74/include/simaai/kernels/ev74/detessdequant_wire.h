/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/ev74/detessdequant_wire.h - byte layout of the
 * DetessDequant v1 descriptor (route 50): a 176-byte base, then optional
 * trailers chosen by the flags:
 *   STRIDED      six i64 output byte strides (+48: 224 bytes), only for
 *                outputs that are not row-major (explicit row-major strides,
 *                ignoring singleton axes, encode as dense);
 *   EXACT_TABLE  the 256 results indexed by the INT8 byte, u16 BF16 bits or
 *                u32 FP32 bits (+512 / +1024), present exactly when the
 *                scale is subnormal;
 *   CBLOCKED     the input is MlaCBlocked (axes, tile shape and channels
 *                must then be zero);
 *   DIVIDE       the divide convention: r = RNE_f32(d / scale) (SiMa's
 *                dq_scale); no trailer, the device builds its table with
 *                the divide stage (an EXACT_TABLE sent with it, for a
 *                subnormal scale as always, holds divide results);
 *   CBLOCK       the MlaTiled input's tiles are in cblock order (pad16
 *                channels; never with CBLOCKED); no trailer.
 * Lengths: 176, 688 (BF16 table), 1200 (FP32 table); 224, 736, 1248 with
 * strides. docs/ev74-descriptors.md has the table in prose.
 */
#ifndef SIMAAI_KERNELS_EV74_DETESSDEQUANT_WIRE_H
#define SIMAAI_KERNELS_EV74_DETESSDEQUANT_WIRE_H

#include <simaai/kernels/ev74/wire.h>

typedef struct {
  uint32_t magic;
  uint16_t version;
  uint16_t length;
  uint16_t route;
  uint16_t flags;
  uint32_t crc;
  uint32_t input_length;      /* relocation block: patched by bind */
  uint32_t output_length;
  uint64_t input_address;
  uint64_t output_address;
  uint64_t input_span;        /* physical input bytes */
  uint64_t output_span;       /* output span, holes included */
  uint8_t output_dtype;       /* 0 FP32, 2 BF16 */
  uint8_t rank;               /* 1..6 (3..6 for CBLOCKED) */
  uint8_t channels;           /* 0 compact, 1 pad16; 0 for CBLOCKED */
  uint8_t reserved0[5];
  int64_t shape[6];           /* unused slots 0 */
  int8_t axes[4];             /* D, H, W, C; 0 for CBLOCKED */
  uint32_t reserved1;
  int64_t tile_shape[4];      /* 0 for CBLOCKED */
  uint64_t element_count;
  uint8_t reserved2[8];
  uint32_t scale_bits;        /* FP32 bits, finite and > 0 */
  int32_t zero_point;
} SimaEv74DetessDequantLayout;

#define SIMA_EV74_DD_OFF(field) offsetof (SimaEv74DetessDequantLayout, field)

enum {
  SIMA_EV74_DETESSDEQUANT_VERSION = 1,
  SIMA_EV74_DETESSDEQUANT_BASE_BYTES = 176,
  SIMA_EV74_DETESSDEQUANT_STRIDES_BYTES = 48,
  SIMA_EV74_DD_FLAG_STRIDED = 1u << 0,
  SIMA_EV74_DD_FLAG_CBLOCKED = 1u << 1,
  SIMA_EV74_DD_FLAG_EXACT_TABLE = 1u << 2,
  SIMA_EV74_DD_FLAG_DIVIDE = 1u << 3,
  /* the MlaTiled input is in cblock order (SimaMlaTiled.cblock; pad16,
   * never with CBLOCKED) */
  SIMA_EV74_DD_FLAG_CBLOCK = 1u << 4,
  SIMA_EV74_DD_FLAGS_KNOWN = 31,
};

SIMA_EV74_STATIC_ASSERT (sizeof (SimaEv74DetessDequantLayout) == 176, dd_size);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DD_OFF (flags) == SIMA_EV74_OFF_FLAGS, dd_flags);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DD_OFF (crc) == SIMA_EV74_OFF_CRC, dd_crc);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DD_OFF (input_length) == SIMA_EV74_OFF_INPUT_LENGTH, dd_in_len);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DD_OFF (output_length) == SIMA_EV74_OFF_OUTPUT_LENGTH, dd_out_len);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DD_OFF (input_address) == 24, dd_in_addr);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DD_OFF (output_address) == 32, dd_out_addr);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DD_OFF (input_span) == SIMA_EV74_OFF_INPUT_SPAN, dd_in_span);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DD_OFF (output_span) == SIMA_EV74_OFF_OUTPUT_SPAN, dd_out_span);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DD_OFF (output_dtype) == 56, dd_dtype);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DD_OFF (shape) == 64, dd_shape);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DD_OFF (axes) == 112, dd_axes);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DD_OFF (tile_shape) == 120, dd_tile);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DD_OFF (element_count) == 152, dd_count);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DD_OFF (scale_bits) == 168, dd_scale);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DD_OFF (zero_point) == 172, dd_zp);

/* Total length for the given flags and output scalar size (4 or 2). */
static inline uint32_t
sima_ev74_detessdequant_length (unsigned flags, unsigned scalar)
{
  return SIMA_EV74_DETESSDEQUANT_BASE_BYTES
      + ((flags & SIMA_EV74_DD_FLAG_STRIDED)
      ? SIMA_EV74_DETESSDEQUANT_STRIDES_BYTES : 0)
      + ((flags & SIMA_EV74_DD_FLAG_EXACT_TABLE) ? 256u * scalar : 0);
}

/* Where the exact table starts (after the strides when present). */
static inline uint32_t
sima_ev74_detessdequant_table_offset (unsigned flags)
{
  return SIMA_EV74_DETESSDEQUANT_BASE_BYTES
      + ((flags & SIMA_EV74_DD_FLAG_STRIDED)
      ? SIMA_EV74_DETESSDEQUANT_STRIDES_BYTES : 0);
}

#endif /* SIMAAI_KERNELS_EV74_DETESSDEQUANT_WIRE_H */
