/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/ev74/wire.h - the EV74 descriptor wire format: little-endian
 * put/get helpers, the CRC-32, the common header and its checks.
 *
 * Header-only and C99 so that the host codec (src/ev74) and the device
 * firmware (firmware/) compile the very same lines. Bytes are only ever read
 * and written through these shift-based helpers, never by casting a struct
 * over untrusted memory: the layout structs in the per-op headers exist to
 * pin offsets and sizes at compile time, nothing else.
 *
 * Every descriptor starts with this header (docs/ev74-descriptors.md):
 *
 *   0  u32 magic 0x34375645 ("EV74")    12 u32 CRC-32 (see below)
 *   4  u16 version                      16 u32 input bound length  } relocation
 *   6  u16 length (total bytes)         20 u32 output bound length } block,
 *   8  u16 route (capability)           24 u64 input bus address   } patched by
 *  10  u16 flags                        32 u64 output bus address  } bind()
 *                                       40 u64 input span (bytes the input occupies)
 *                                       48 u64 output span
 *
 * The CRC-32 (IEEE 802.3, reflected, init and final xor 0xffffffff) covers
 * every byte of the descriptor except the CRC field itself and the
 * relocation block, so binding does not change it.
 */
#ifndef SIMAAI_KERNELS_EV74_WIRE_H
#define SIMAAI_KERNELS_EV74_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* C99-compatible compile-time assertion (the firmware is C99). */
#define SIMA_EV74_STATIC_ASSERT(cond, name) \
  typedef char sima_ev74_static_assert_##name[(cond) ? 1 : -1]

enum {
  SIMA_EV74_MAGIC = 0x34375645u,        /* "EV74" little-endian */
  SIMA_EV74_OFF_MAGIC = 0,
  SIMA_EV74_OFF_VERSION = 4,
  SIMA_EV74_OFF_LENGTH = 6,
  SIMA_EV74_OFF_ROUTE = 8,
  SIMA_EV74_OFF_FLAGS = 10,
  SIMA_EV74_OFF_CRC = 12,
  SIMA_EV74_OFF_INPUT_LENGTH = 16,
  SIMA_EV74_OFF_OUTPUT_LENGTH = 20,
  SIMA_EV74_OFF_INPUT_ADDRESS = 24,
  SIMA_EV74_OFF_OUTPUT_ADDRESS = 32,
  SIMA_EV74_OFF_INPUT_SPAN = 40,
  SIMA_EV74_OFF_OUTPUT_SPAN = 48,
  SIMA_EV74_RELOCATION_BEGIN = 16,
  SIMA_EV74_RELOCATION_END = 40,
  SIMA_EV74_HEADER_BYTES = 56,
  /* capability routes */
  SIMA_EV74_ROUTE_QUANTTESS = 49,       /* 0x31 */
  SIMA_EV74_ROUTE_DETESSDEQUANT = 50,
  SIMA_EV74_ROUTE_CASTTESS = 51,
  SIMA_EV74_ROUTE_DETESSCAST = 52,
  SIMA_EV74_ROUTE_TENSOR_SET = 53,     /* a container of the above */
};

/* The capability each route is registered as: the names the host asks for
 * (sima_ev74_device_require) and the firmware image registers
 * (firmware/native_entry.c), written once, here. */
#define SIMA_EV74_QUANTTESS_CAPABILITY "simaai_kernels_ev74_quanttess_v1"
#define SIMA_EV74_DETESSDEQUANT_CAPABILITY \
  "simaai_kernels_ev74_detessdequant_v1"
#define SIMA_EV74_CASTTESS_CAPABILITY "simaai_kernels_ev74_casttess_v1"
#define SIMA_EV74_DETESSCAST_CAPABILITY "simaai_kernels_ev74_detesscast_v1"
#define SIMA_EV74_TENSOR_SET_CAPABILITY "simaai_kernels_ev74_tensor_set_v1"

#define SIMA_EV74_APERTURE_LIMIT UINT64_C (0x100000000)  /* 32-bit bus */

static inline void
sima_ev74_put_u8 (uint8_t *b, size_t off, uint8_t v)
{
  b[off] = v;
}

static inline void
sima_ev74_put_u16 (uint8_t *b, size_t off, uint16_t v)
{
  b[off] = (uint8_t) v;
  b[off + 1] = (uint8_t) (v >> 8);
}

static inline void
sima_ev74_put_u32 (uint8_t *b, size_t off, uint32_t v)
{
  sima_ev74_put_u16 (b, off, (uint16_t) v);
  sima_ev74_put_u16 (b, off + 2, (uint16_t) (v >> 16));
}

static inline void
sima_ev74_put_u64 (uint8_t *b, size_t off, uint64_t v)
{
  sima_ev74_put_u32 (b, off, (uint32_t) v);
  sima_ev74_put_u32 (b, off + 4, (uint32_t) (v >> 32));
}

static inline void
sima_ev74_put_i64 (uint8_t *b, size_t off, int64_t v)
{
  sima_ev74_put_u64 (b, off, (uint64_t) v);
}

static inline uint8_t
sima_ev74_get_u8 (const uint8_t *b, size_t off)
{
  return b[off];
}

static inline uint16_t
sima_ev74_get_u16 (const uint8_t *b, size_t off)
{
  return (uint16_t) (b[off] | (unsigned) b[off + 1] << 8);
}

static inline uint32_t
sima_ev74_get_u32 (const uint8_t *b, size_t off)
{
  return (uint32_t) sima_ev74_get_u16 (b, off)
      | (uint32_t) sima_ev74_get_u16 (b, off + 2) << 16;
}

static inline uint64_t
sima_ev74_get_u64 (const uint8_t *b, size_t off)
{
  return (uint64_t) sima_ev74_get_u32 (b, off)
      | (uint64_t) sima_ev74_get_u32 (b, off + 4) << 32;
}

static inline int64_t
sima_ev74_get_i64 (const uint8_t *b, size_t off)
{
  uint64_t u = sima_ev74_get_u64 (b, off);
  /* two's complement without implementation-defined conversion */
  return u <= (uint64_t) INT64_MAX ? (int64_t) u
      : -(int64_t) (~u) - 1;
}

static inline int32_t
sima_ev74_get_i32 (const uint8_t *b, size_t off)
{
  uint32_t u = sima_ev74_get_u32 (b, off);
  return u <= (uint32_t) INT32_MAX ? (int32_t) u : -(int32_t) (~u) - 1;
}

/* CRC-32 of the descriptor, skipping the CRC field and the relocation
 * block. Bitwise (no table): descriptors are at most a few hundred bytes
 * and the firmware keeps no 1 KiB table for it. */
static inline uint32_t
sima_ev74_descriptor_crc (const uint8_t *b, size_t length)
{
  uint32_t crc = 0xffffffffu;
  size_t i;
  int k;

  for (i = 0; i < length; i++) {
    if ((i >= SIMA_EV74_OFF_CRC && i < SIMA_EV74_OFF_CRC + 4)
        || (i >= SIMA_EV74_RELOCATION_BEGIN && i < SIMA_EV74_RELOCATION_END))
      continue;
    crc ^= b[i];
    for (k = 0; k < 8; k++)
      crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

/* True when every byte of b[off, off+n) is zero (reserved fields). */
static inline int
sima_ev74_all_zero (const uint8_t *b, size_t off, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    if (b[off + i] != 0)
      return 0;
  return 1;
}

#endif /* SIMAAI_KERNELS_EV74_WIRE_H */
