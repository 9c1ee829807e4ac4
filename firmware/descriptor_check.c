/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "descriptor_check.h"

#include <simaai/kernels/ev74/wire.h>

SimaStatus
simafw_check_header (const uint8_t *d, uint32_t length)
{
  if (d == 0 || length < SIMA_EV74_HEADER_BYTES)
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "descriptor is %lu bytes, shorter than the %d-byte header",
        (unsigned long) length, (int) SIMA_EV74_HEADER_BYTES);
  if (sima_ev74_get_u32 (d, SIMA_EV74_OFF_MAGIC) != SIMA_EV74_MAGIC)
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "descriptor magic is %#lx, expected %#lx",
        (unsigned long) sima_ev74_get_u32 (d, SIMA_EV74_OFF_MAGIC),
        (unsigned long) SIMA_EV74_MAGIC);
  if (sima_ev74_get_u16 (d, SIMA_EV74_OFF_LENGTH) != length)
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "descriptor length field is %u but %lu bytes arrived",
        (unsigned) sima_ev74_get_u16 (d, SIMA_EV74_OFF_LENGTH),
        (unsigned long) length);
  if (sima_ev74_get_u32 (d, SIMA_EV74_OFF_CRC)
      != sima_ev74_descriptor_crc (d, length))
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "descriptor CRC is %#lx, the bytes give %#lx",
        (unsigned long) sima_ev74_get_u32 (d, SIMA_EV74_OFF_CRC),
        (unsigned long) sima_ev74_descriptor_crc (d, length));
  return sima_status_ok ();
}

SimaStatus
simafw_check_binding (const uint8_t *d, const char *role, uint32_t alignment,
    uint32_t *bus)
{
  int input = role[0] == 'i';
  uint64_t address = sima_ev74_get_u64 (d, input ? SIMA_EV74_OFF_INPUT_ADDRESS
      : SIMA_EV74_OFF_OUTPUT_ADDRESS);
  uint64_t span = sima_ev74_get_u64 (d, input ? SIMA_EV74_OFF_INPUT_SPAN
      : SIMA_EV74_OFF_OUTPUT_SPAN);
  uint32_t bound = sima_ev74_get_u32 (d, input ? SIMA_EV74_OFF_INPUT_LENGTH
      : SIMA_EV74_OFF_OUTPUT_LENGTH);

  *bus = 0;
  if (address >= SIMA_EV74_APERTURE_LIMIT
      || span > SIMA_EV74_APERTURE_LIMIT - address)
    return sima_status_make (SIMA_NOT_REPRESENTABLE,
        "%s range of %llu bytes at bus address %#llx leaves the 32-bit "
        "aperture", role, (unsigned long long) span,
        (unsigned long long) address);
  if (span == 0)
    return sima_status_ok ();   /* nothing is accessed */
  if (bound < span)
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "%s bound length is %lu bytes, below its span of %llu (is the "
        "descriptor bound?)", role, (unsigned long) bound,
        (unsigned long long) span);
  if (address % alignment != 0)
    return sima_status_make (SIMA_MISALIGNED_BUFFER,
        "%s bus address %#llx is not %lu-byte aligned", role,
        (unsigned long long) address, (unsigned long) alignment);
  *bus = (uint32_t) address;
  return sima_status_ok ();
}

SimaStatus
simafw_check_disjoint (const uint8_t *d)
{
  uint64_t a = sima_ev74_get_u64 (d, SIMA_EV74_OFF_INPUT_ADDRESS);
  uint64_t b = sima_ev74_get_u64 (d, SIMA_EV74_OFF_OUTPUT_ADDRESS);
  uint64_t n = sima_ev74_get_u64 (d, SIMA_EV74_OFF_INPUT_SPAN);
  uint64_t m = sima_ev74_get_u64 (d, SIMA_EV74_OFF_OUTPUT_SPAN);

  /* both ranges already lie below 2^32, so the sums cannot wrap */
  if (n > 0 && m > 0 && a < b + m && b < a + n)
    return sima_status_make (SIMA_OVERLAPPING_BUFFERS,
        "input bus range [%#llx, +%llu) overlaps output [%#llx, +%llu)",
        (unsigned long long) a, (unsigned long long) n,
        (unsigned long long) b, (unsigned long long) m);
  return sima_status_ok ();
}
