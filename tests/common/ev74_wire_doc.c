/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "ev74_wire_doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native_entry.h"
#include "tap.h"

void
test_put_le (uint8_t *b, size_t off, uint64_t v, int n)
{
  int i;
  for (i = 0; i < n; i++)
    b[off + i] = (uint8_t) (v >> (8 * i));
}

uint64_t
test_get_le (const uint8_t *b, size_t off, int n)
{
  uint64_t v = 0;
  int i;
  for (i = n - 1; i >= 0; i--)
    v = v << 8 | b[off + i];
  return v;
}

/* Table-driven CRC-32 (zlib's), a different algorithm from the bitwise one
 * in wire.h: the two agreeing on every descriptor is itself a check. */
static uint32_t crc_table[256];

uint32_t
test_crc32_update (uint32_t crc, const uint8_t *p, size_t n)
{
  size_t i;
  if (crc_table[1] == 0) {
    uint32_t k, c;
    int j;
    for (k = 0; k < 256; k++) {
      for (c = k, j = 0; j < 8; j++)
        c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      crc_table[k] = c;
    }
  }
  for (i = 0; i < n; i++)
    crc = crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return crc;
}

uint32_t
test_doc_crc (const uint8_t *d, size_t len)
{
  uint32_t c = test_crc32_update (0xffffffffu, d, len < 12 ? len : 12);
  if (len > 40)
    c = test_crc32_update (c, d + 40, len - 40);
  return ~c;
}

int
test_first_diff (const uint8_t *a, const uint8_t *b, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    if (a[i] != b[i])
      return (int) i;
  return -1;
}

/* ---- malformed descriptors ------------------------------------------- */

static const SimaHostRegion *entry_regions;
static size_t entry_n_regions;
static uint8_t *entry_local;
static uint32_t entry_local_bytes;
static long total_mutants, total_wrong;

/* The mutation class being run: its expected code and message fragment,
 * and how many of its descriptors were tried and went wrong. */
static struct {
  const char *name;
  SimaStatusCode code;
  const char *fragment;     /* the message must name the field */
  int tried, failed;
  char first[240];
} cls;

void
test_entry_use (const SimaHostRegion *regions, size_t n_regions,
    uint8_t *local, uint32_t local_bytes)
{
  entry_regions = regions;
  entry_n_regions = n_regions;
  entry_local = local;
  entry_local_bytes = local_bytes;
}

SimaStatus
test_run_entry (const uint8_t *bytes, uint32_t len, uint64_t *commands,
    size_t *pending)
{
  uint8_t *copy = malloc (len > 0 ? len : 1);
  SimaHostHal h;
  SimaStatus st;

  memcpy (copy, bytes, len);
  sima_host_hal_init (&h, 0, 1, entry_regions, entry_n_regions,
      SIMA_HOST_DMA_IMMEDIATE, entry_local, entry_local_bytes);
  st = simafw_native_entry (&h.hal, copy, len);
  *commands = h.stats.commands;
  *pending = sima_host_hal_finish (&h);
  free (copy);
  return st;
}

void
test_mutants_begin (const char *name, SimaStatusCode code,
    const char *fragment)
{
  memset (&cls, 0, sizeof cls);
  cls.name = name;
  cls.code = code;
  cls.fragment = fragment;
}

void
test_mutant (const uint8_t *bytes, uint32_t len)
{
  uint64_t commands;
  size_t pending;
  SimaStatus st = test_run_entry (bytes, len, &commands, &pending);
  int ok = st.code == cls.code && commands == 0 && pending == 0
      && (cls.fragment == NULL || strstr (st.message, cls.fragment) != NULL);

  cls.tried++;
  total_mutants++;
  total_wrong += !ok;
  if (!ok && cls.failed++ == 0)
    snprintf (cls.first, sizeof cls.first, "%u bytes: %s \"%s\", %llu DMA "
        "commands", (unsigned) len, sima_status_code_name (st.code),
        st.message, (unsigned long long) commands);
}

void
test_mutants_end (void)
{
  tap_ok (cls.tried > 0 && cls.failed == 0, "malformed: %s: %d descriptors "
      "-> %s, 0 DMA commands", cls.name, cls.tried,
      sima_status_code_name (cls.code));
  if (cls.failed)
    tap_diag ("%d wrong, first: %s", cls.failed, cls.first);
}

void
test_mutants_all_rejected (long at_least)
{
  tap_ok (total_mutants > at_least && total_wrong == 0, "malformed: %ld "
      "mutated descriptors in all, %ld not rejected as expected",
      total_mutants, total_wrong);
}
