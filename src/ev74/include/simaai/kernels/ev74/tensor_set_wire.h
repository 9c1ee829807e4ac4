/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/ev74/tensor_set_wire.h - byte layout of the TensorSet v1
 * container descriptor (route 53, capability
 * simaai_kernels_ev74_tensor_set_v1): one job for a whole tensor set.
 *
 *    0  common header (wire.h): version 1, flags 0, route 53; relocation
 *       block = the bindings of the sets' whole input and output buffers;
 *       spans = the input and output sets' capacities
 *   56  u8 member count, 1..16
 *   57  u8[7] reserved, 0
 *   64  member table, `count` entries of 24 bytes:
 *         +0  u64 input offset   (of the member in the input buffer)
 *         +8  u64 output offset
 *        +16  u16 member descriptor length
 *        +18  u8[6] reserved, 0
 *   64 + 24 * count
 *       the member descriptors, in table order: QuantTess, CastTess,
 *       DetessDequant or DetessCast v1 exactly as their own encoders write them
 *       (relocatable: relocation block zero; own CRC). Member k starts at the
 *       end of member k-1 rounded up to 8 bytes (the first one right after
 *       the table), padding bytes are zero, and the container ends exactly
 *       where the last member ends.
 *
 * The container's CRC covers everything but its own CRC field and its own
 * relocation block, members included (their relocation blocks are zero and
 * stay zero: the firmware binds members in a copy). docs/ev74-descriptors.md
 * has the same table in prose, and the firmware's checks in order.
 *
 * As in pack_wire.h, the layout structs are never used to read or write
 * bytes; they pin offsets with compile-time assertions.
 */
#ifndef SIMAAI_KERNELS_EV74_TENSOR_SET_WIRE_H
#define SIMAAI_KERNELS_EV74_TENSOR_SET_WIRE_H

#include <simaai/kernels/ev74/descriptor.h>
#include <simaai/kernels/ev74/wire.h>

typedef struct {
  uint32_t magic;
  uint16_t version;
  uint16_t length;
  uint16_t route;             /* 53 */
  uint16_t flags;             /* none defined: 0 */
  uint32_t crc;
  uint32_t input_length;      /* relocation block: patched by bind */
  uint32_t output_length;
  uint64_t input_address;
  uint64_t output_address;
  uint64_t input_span;        /* the input set's capacity */
  uint64_t output_span;       /* the output set's capacity */
  uint8_t count;              /* members, 1..16 */
  uint8_t reserved0[7];
} SimaEv74TensorSetLayout;

typedef struct {
  uint64_t input_offset;
  uint64_t output_offset;
  uint16_t length;            /* bytes of the member descriptor */
  uint8_t reserved[6];
} SimaEv74TensorSetEntry;

#define SIMA_EV74_TS_OFF(field) offsetof (SimaEv74TensorSetLayout, field)
#define SIMA_EV74_TS_ENTRY_OFF(field) offsetof (SimaEv74TensorSetEntry, field)

enum {
  SIMA_EV74_TENSOR_SET_VERSION = 1,
  SIMA_EV74_TENSOR_SET_MAX_MEMBERS = 16,
  SIMA_EV74_TENSOR_SET_TABLE = 64,          /* where the table starts */
  SIMA_EV74_TENSOR_SET_ENTRY_BYTES = 24,
  SIMA_EV74_TENSOR_SET_MEMBER_ALIGN = 8,
  /* the largest member: DetessDequant with strides and an FP32 table */
  SIMA_EV74_TENSOR_SET_MEMBER_MAX_BYTES = 1248,
};

SIMA_EV74_STATIC_ASSERT (sizeof (SimaEv74TensorSetLayout) == 64, ts_size);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_TS_OFF (route) == SIMA_EV74_OFF_ROUTE, ts_route);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_TS_OFF (crc) == SIMA_EV74_OFF_CRC, ts_crc);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_TS_OFF (input_length) == SIMA_EV74_OFF_INPUT_LENGTH, ts_in_len);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_TS_OFF (output_length) == SIMA_EV74_OFF_OUTPUT_LENGTH, ts_out_len);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_TS_OFF (input_address) == 24, ts_in_addr);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_TS_OFF (output_address) == 32, ts_out_addr);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_TS_OFF (input_span) == SIMA_EV74_OFF_INPUT_SPAN, ts_in_span);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_TS_OFF (output_span) == SIMA_EV74_OFF_OUTPUT_SPAN, ts_out_span);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_TS_OFF (count) == SIMA_EV74_HEADER_BYTES, ts_count);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_TS_OFF (reserved0) == 57, ts_reserved0);
SIMA_EV74_STATIC_ASSERT (sizeof (SimaEv74TensorSetLayout) == SIMA_EV74_TENSOR_SET_TABLE, ts_table);
SIMA_EV74_STATIC_ASSERT (sizeof (SimaEv74TensorSetEntry) == SIMA_EV74_TENSOR_SET_ENTRY_BYTES, ts_entry);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_TS_ENTRY_OFF (output_offset) == 8, ts_entry_out);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_TS_ENTRY_OFF (length) == 16, ts_entry_len);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_TS_ENTRY_OFF (reserved) == 18, ts_entry_res);
/* 8-byte multiples, so the table and the first member need no padding */
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_TENSOR_SET_ENTRY_BYTES % 8 == 0, ts_entry_align);
/* 16 of the largest members fit the descriptor storage and the u16 length */
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DESCRIPTOR_MAX_BYTES
    == SIMA_EV74_TENSOR_SET_TABLE + SIMA_EV74_TENSOR_SET_MAX_MEMBERS
    * (SIMA_EV74_TENSOR_SET_ENTRY_BYTES + SIMA_EV74_TENSOR_SET_MEMBER_MAX_BYTES),
    ts_max_bytes);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_TENSOR_SET_MEMBER_MAX_BYTES % 8 == 0, ts_member_align);
SIMA_EV74_STATIC_ASSERT (SIMA_EV74_DESCRIPTOR_MAX_BYTES <= 65535, ts_u16_length);

/* Byte offset of table entry k. */
static inline uint32_t
sima_ev74_tensor_set_entry (unsigned k)
{
  return SIMA_EV74_TENSOR_SET_TABLE + SIMA_EV74_TENSOR_SET_ENTRY_BYTES * k;
}

/* Where the first member starts, for `count` members. */
static inline uint32_t
sima_ev74_tensor_set_members (unsigned count)
{
  return sima_ev74_tensor_set_entry (count);
}

/* The start of the member after one that ends at `end`. */
static inline uint32_t
sima_ev74_tensor_set_align (uint32_t end)
{
  return (end + (SIMA_EV74_TENSOR_SET_MEMBER_ALIGN - 1))
      & ~(uint32_t) (SIMA_EV74_TENSOR_SET_MEMBER_ALIGN - 1);
}

#endif /* SIMAAI_KERNELS_EV74_TENSOR_SET_WIRE_H */
