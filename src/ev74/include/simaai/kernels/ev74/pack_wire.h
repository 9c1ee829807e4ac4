/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/ev74/pack_wire.h - byte layout of the two "pack"
 * descriptors, dense input -> MLA tiles: QuantTess v1 (route 49) and
 * CastTess v1 (route 51). Both are 232 bytes with the same fields; CastTess
 * has no parameters, so its rounding, zero point and multiplier fields must
 * be zero. Shared by the host encoders and the firmware decoders;
 * docs/ev74-descriptors.md has the same table in prose.
 *
 * SimaEv74PackLayout is never used to read or write bytes; offsetof() of its
 * members is the one definition of every field offset, and the assertions
 * below pin the ones the specification fixes (address slots at 24 and 32,
 * 232 bytes in all).
 */
#ifndef SIMAAI_KERNELS_EV74_PACK_WIRE_H
#define SIMAAI_KERNELS_EV74_PACK_WIRE_H

#include <simaai/kernels/ev74/wire.h>

typedef struct {
  uint32_t magic;
  uint16_t version;
  uint16_t length;
  uint16_t route;
  uint16_t flags;             /* SIMA_EV74_PACK_FLAG_*; unknown bits rejected */
  uint32_t crc;
  uint32_t input_length;      /* relocation block: patched by bind */
  uint32_t output_length;
  uint64_t input_address;
  uint64_t output_address;
  uint64_t input_span;        /* required input bytes (holes included) */
  uint64_t output_span;       /* physical output bytes */
  uint8_t input_dtype;        /* 0 FP32, 1 FP16, 2 BF16, 4 UINT8 */
  uint8_t rank;               /* 1..6 */
  uint8_t rounding;           /* QuantTess: SimaRounding; CastTess: 0 */
  uint8_t channels;           /* 0 compact, 1 pad16 */
  int32_t zero_point;         /* QuantTess only; CastTess: 0 */
  uint32_t multiplier_bits;   /* QuantTess: FP32 bits; CastTess: 0 */
  uint8_t input_layout;       /* 0 contiguous, 1 strided */
  uint8_t reserved0[3];
  int64_t shape[6];           /* unused slots 0 */
  int64_t input_strides[6];   /* bytes, strided input only; otherwise 0 */
  int8_t axes[4];             /* D, H, W, C logical axes, -1 absent */
  uint32_t reserved1;
  int64_t tile_shape[4];
  uint64_t element_count;
  uint8_t reserved2[16];
} SimaEv74PackLayout;

#define SIMA_EV74_PACK_OFF(field) offsetof (SimaEv74PackLayout, field)

enum {
  SIMA_EV74_PACK_BYTES = 232,
  SIMA_EV74_QUANTTESS_VERSION = 1,
  SIMA_EV74_QUANTTESS_BYTES = SIMA_EV74_PACK_BYTES,
  SIMA_EV74_CASTTESS_VERSION = 1,
  SIMA_EV74_CASTTESS_BYTES = SIMA_EV74_PACK_BYTES,
  /* the output tiles are in cblock order (SimaMlaTiled.cblock; pad16) */
  SIMA_EV74_PACK_FLAG_CBLOCK = 1u << 0,
  SIMA_EV74_PACK_FLAGS_KNOWN = 1,
};

SIMA_EV74_STATIC_ASSERT (sizeof (SimaEv74PackLayout) == 232, qt_size);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (magic) == SIMA_EV74_OFF_MAGIC, qt_magic);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (version) == SIMA_EV74_OFF_VERSION, qt_version);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (length) == SIMA_EV74_OFF_LENGTH, qt_length);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (route) == SIMA_EV74_OFF_ROUTE, qt_route);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (flags) == SIMA_EV74_OFF_FLAGS, qt_flags);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (crc) == SIMA_EV74_OFF_CRC, qt_crc);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (input_length) == SIMA_EV74_OFF_INPUT_LENGTH, qt_in_len);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (output_length) == SIMA_EV74_OFF_OUTPUT_LENGTH, qt_out_len);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (input_address) == 24, qt_in_addr);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (output_address) == 32, qt_out_addr);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_OFF_INPUT_ADDRESS == 24 && SIMA_EV74_OFF_OUTPUT_ADDRESS == 32, header_addr);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (input_span) == SIMA_EV74_OFF_INPUT_SPAN, qt_in_span);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (output_span) == SIMA_EV74_OFF_OUTPUT_SPAN, qt_out_span);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (input_dtype) == 56, qt_dtype);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (zero_point) == 60, qt_zp);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (multiplier_bits) == 64, qt_mult);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (input_layout) == 68, qt_layout);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (shape) == 72, qt_shape);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (input_strides) == 120, qt_strides);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (axes) == 168, qt_axes);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (tile_shape) == 176, qt_tile);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (element_count) == 208, qt_count);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_PACK_OFF (reserved2) == 216, qt_reserved2);

#endif /* SIMAAI_KERNELS_EV74_PACK_WIRE_H */
