/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/ev74/detesscast_wire.h - byte layout of the DetessCast v1
 * descriptor (route 52, capability simaai_kernels_ev74_detesscast_v1): a
 * 168-byte base, then an optional trailer chosen by the flags:
 *   STRIDED  six i64 output byte strides (+48: 216 bytes), only for outputs
 *            that are not row-major (explicit row-major strides, ignoring
 *            singleton axes, and any strides of an empty output, encode as
 *            dense);
 *   CBLOCK   the BF16 MlaTiled input's tiles are in cblock order (pad16
 *            channels; each 16-channel block its own byte-plane pair); no
 *            trailer.
 * No parameters: DetessCast moves bits (FP32 = BF16 bits << 16, BF16 =
 * the bits), so there is no scale, zero point or table. Lengths: 168 and
 * 216. docs/ev74-descriptors.md has the table in prose.
 */
#ifndef SIMAAI_KERNELS_EV74_DETESSCAST_WIRE_H
#define SIMAAI_KERNELS_EV74_DETESSCAST_WIRE_H

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
  uint64_t input_span;        /* physical size of the BF16 tiled input */
  uint64_t output_span;       /* output span, holes included */
  uint8_t output_dtype;       /* 0 FP32, 2 BF16 */
  uint8_t rank;               /* 1..6 */
  uint8_t channels;           /* 0 compact, 1 pad16 */
  uint8_t reserved0[5];
  int64_t shape[6];           /* unused slots 0 */
  int8_t axes[4];             /* D, H, W, C of the tiled input; -1 absent */
  uint32_t reserved1;
  int64_t tile_shape[4];      /* D, H, W, C tile extents */
  uint64_t element_count;
  uint8_t reserved2[8];
} SimaEv74DetessCastLayout;

#define SIMA_EV74_DC_OFF(field) offsetof (SimaEv74DetessCastLayout, field)

enum {
  SIMA_EV74_DETESSCAST_VERSION = 1,
  SIMA_EV74_DETESSCAST_BASE_BYTES = 168,
  SIMA_EV74_DETESSCAST_STRIDES_BYTES = 48,
  SIMA_EV74_DC_FLAG_STRIDED = 1u << 0,
  /* the MlaTiled input is in cblock order (SimaMlaTiled.cblock; pad16) */
  SIMA_EV74_DC_FLAG_CBLOCK = 1u << 1,
  SIMA_EV74_DC_FLAGS_KNOWN = 3,
};

SIMA_EV74_STATIC_ASSERT (sizeof (SimaEv74DetessCastLayout) == 168, dc_size);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (version) == SIMA_EV74_OFF_VERSION, dc_version);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (length) == SIMA_EV74_OFF_LENGTH, dc_length);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (route) == SIMA_EV74_OFF_ROUTE, dc_route);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (flags) == SIMA_EV74_OFF_FLAGS, dc_flags);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (crc) == SIMA_EV74_OFF_CRC, dc_crc);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (input_length) == SIMA_EV74_OFF_INPUT_LENGTH, dc_in_len);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (output_length) == SIMA_EV74_OFF_OUTPUT_LENGTH, dc_out_len);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (input_address) == SIMA_EV74_OFF_INPUT_ADDRESS, dc_in_addr);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (output_address) == SIMA_EV74_OFF_OUTPUT_ADDRESS, dc_out_addr);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (input_span) == SIMA_EV74_OFF_INPUT_SPAN, dc_in_span);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (output_span) == SIMA_EV74_OFF_OUTPUT_SPAN, dc_out_span);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (output_dtype) == SIMA_EV74_HEADER_BYTES, dc_dtype);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (rank) == 57, dc_rank);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (channels) == 58, dc_channels);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (reserved0) == 59, dc_reserved0);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (shape) == 64, dc_shape);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (axes) == 112, dc_axes);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (reserved1) == 116, dc_reserved1);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (tile_shape) == 120, dc_tile);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (element_count) == 152, dc_count);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DC_OFF (reserved2) == 160, dc_reserved2);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DETESSCAST_BASE_BYTES % 8 == 0, dc_align);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DETESSCAST_BASE_BYTES
    + SIMA_EV74_DETESSCAST_STRIDES_BYTES == 216, dc_strided);

/* Total length for the given flags. */
static inline uint32_t
sima_ev74_detesscast_length (unsigned flags)
{
  return SIMA_EV74_DETESSCAST_BASE_BYTES
      + ((flags & SIMA_EV74_DC_FLAG_STRIDED)
      ? SIMA_EV74_DETESSCAST_STRIDES_BYTES : 0);
}

#endif /* SIMAAI_KERNELS_EV74_DETESSCAST_WIRE_H */
