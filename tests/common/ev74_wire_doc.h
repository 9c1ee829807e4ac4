/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ev74_wire_doc.h - the descriptor rules of docs/ev74-descriptors.md,
 * restated for the codec tests independently of the production wire code
 * (src/ev74, firmware): little-endian fields, the document's CRC (a
 * table-driven CRC-32, not wire.h's bitwise one), and the harness that
 * feeds malformed descriptors to the firmware's native entry and counts
 * the ones not rejected as expected. Shared by the three codec tests.
 */
#ifndef SIMA_TESTS_EV74_WIRE_DOC_H
#define SIMA_TESTS_EV74_WIRE_DOC_H

#include <simaai/kernels/status.h>
#include <stddef.h>
#include <stdint.h>

#include "hal/host/host_hal.h"

void test_put_le (uint8_t *b, size_t off, uint64_t v, int n);
uint64_t test_get_le (const uint8_t *b, size_t off, int n);

/* CRC-32 (IEEE, reflected) of n more bytes: start from 0xffffffff and
 * complement at the end. */
uint32_t test_crc32_update (uint32_t crc, const uint8_t *p, size_t n);

/* The document's CRC of a `len`-byte descriptor: every byte except 12-15
 * (the CRC) and 16-39 (the relocation block), trailers included. */
uint32_t test_doc_crc (const uint8_t *d, size_t len);

/* Index of the first differing byte, -1 when equal. */
int test_first_diff (const uint8_t *a, const uint8_t *b, size_t n);

/* Malformed descriptors. test_entry_use() names the regions and local
 * memory the entry runs with; a class of mutations runs between
 * test_mutants_begin() and test_mutants_end() (one TAP point: every
 * mutant rejected with `code`, its message holding `fragment` when not
 * NULL, and no DMA command issued or pending). */
void test_entry_use (const SimaHostRegion *regions, size_t n_regions,
    uint8_t *local, uint32_t local_bytes);
/* Runs the entry on an exact-size heap copy (so ASan sees any read past the
 * received length) with a fresh host HAL. */
SimaStatus test_run_entry (const uint8_t *bytes, uint32_t len,
    uint64_t *commands, size_t *pending);
void test_mutants_begin (const char *name, SimaStatusCode code,
    const char *fragment);
void test_mutant (const uint8_t *bytes, uint32_t len);
void test_mutants_end (void);
/* One TAP point over all classes: more than `at_least` mutants run, every
 * one rejected as expected. */
void test_mutants_all_rejected (long at_least);

#endif /* SIMA_TESTS_EV74_WIRE_DOC_H */
