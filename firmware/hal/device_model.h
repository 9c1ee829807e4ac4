/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * device_model.h - the EV74's DMA rules, local memory budget and cost model,
 * written once. The firmware is written against these rules, the host HAL
 * (hal/host) enforces them in the emulator, the stack check
 * (tools/check-fw-stack.py) reads the budget, and job statistics, the
 * tracer and bench/ report the estimated device time they give.
 *
 * SiMa.ai publishes no cycle-level figures for the MLSoC's EV74 DMA; every
 * number below is either a rule the specs state (../seeds, quoted) or an
 * assumption, marked as such, chosen to be conservative for a 128-bit AXI
 * DMA of the EV7x family. docs/ev74.md ("Device model") says how they are
 * used and what changes if a real figure differs.
 */
#ifndef SIMA_FIRMWARE_DEVICE_MODEL_H
#define SIMA_FIRMWARE_DEVICE_MODEL_H

/* ---- rules (the HAL refuses a transfer that breaks one: device fault) ---- */

/* Physical write granule of the bus side. Specs: "each write retires before
 * another span or exact boundary can share its physical write granule";
 * "interior writes are aligned whole-16-byte DMA ranges; unique global
 * head/tail tasks use exact scalar-width stores". Enforced: a DMA write
 * must not touch a granule that an unretired DMA write touches (same
 * worker), nor a granule that another worker of the job writes by DMA
 * (ownership: "logical non-overlap alone does not prove independent DMA
 * granules"). Exact scalar stores write only their bytes; they must not
 * land in a granule with an unretired DMA write, nor in one another worker
 * owns by DMA. */
#define SIMA_EV74_WRITE_GRANULE 16u

/* Largest exact scalar store (bytes, naturally aligned: 1, 2 or 4). A
 * store op of up to SIMA_EV74_WRITE_GRANULE - 1 bytes inside one granule is
 * split into naturally aligned scalar stores by the platform. */
#define SIMA_EV74_SCALAR_STORE_MAX 4u

/* 2D transfer limits (assumption: 16-bit row count, 24-bit signed pitch
 * and 20-bit row length fields, as in the EV7x DMA descriptor family). */
#define SIMA_EV74_DMA_MAX_ROWS 65535u
#define SIMA_EV74_DMA_MAX_PITCH ((1u << 23) - 1u)
#define SIMA_EV74_DMA_MAX_ROW_BYTES (1u << 20)

/* ---- efficiency (counted, not refused) ---------------------------------- */

/* Local addresses need no alignment for correctness (the engine byte-
 * addresses VCCM), but a row whose local or bus start is not a multiple of
 * this is an unaligned transfer: counted, and it costs the extra beat below
 * (assumption: 4-byte VCCM word). */
#define SIMA_EV74_DMA_LOCAL_ALIGN 4u

/* A row shorter than this is a small transfer: counted (the setup cost of
 * the command dominates; assumption: 64 bytes, four bus beats). */
#define SIMA_EV74_DMA_EFFICIENT_ROW_BYTES 64u

/* ---- cost model (estimated device time) ---------------------------------- */

/* Assumption: EV74 clock on the MLSoC, MHz. */
#define SIMA_EV74_CLOCK_MHZ 800u
/* Assumption: cycles to start a DMA command (descriptor fetch, channel
 * arbitration, first AXI address phase). */
#define SIMA_EV74_DMA_SETUP_CYCLES 64u
/* Assumption: cycles of address generation per row of a 2D transfer. */
#define SIMA_EV74_DMA_ROW_CYCLES 2u
/* 128-bit AXI: one 16-byte beat per cycle; a row costs the beats of every
 * granule it touches (a partial granule is a whole beat). */
#define SIMA_EV74_DMA_BYTES_PER_CYCLE 16u
/* Assumption: extra beat for an unaligned row (SIMA_EV74_DMA_LOCAL_ALIGN). */
#define SIMA_EV74_DMA_UNALIGNED_CYCLES 1u
/* Assumption: one posted uncached scalar store from the vector core. */
#define SIMA_EV74_SCALAR_STORE_CYCLES 8u

/* Workers run in parallel, one DMA channel each (assumption): a job's
 * estimated device time is its slowest worker's cycles at the clock. DMA
 * only: the vector arithmetic is assumed to overlap the transfers (the
 * firmware double-buffers every slot). */

/* ---- local memory -------------------------------------------------------- */

/* Per-worker local memory (VCCM share) the emulator gives by default and
 * the budget the stack check holds each worker to: its scratch slots plus
 * its deepest call chain's stack must fit (assumption: 64 KiB per worker of
 * the EV74's data memory; the emulator's local-kib option changes what it
 * gives, not this budget). */
#define SIMA_EV74_LOCAL_BYTES (64u * 1024u)

/* What the stack check charges for a call whose frame it cannot see (it
 * fails on any other unknown frame):
 * - a HAL op (hal->ops->read_2d, write_2d, wait, scratch, scratch_reset),
 *   called through a pointer: on the device the platform's DMA functions,
 *   whose frames the host build cannot measure (the host HAL's are the
 *   emulator's, not the device's). Assumption: a DMA op builds one
 *   descriptor (at most 64 bytes) and saves its callee-saved registers (an
 *   ARCv2-class core: r13-r25, fp and blink, 60 bytes); 512 bytes leave
 *   room for the driver's own bookkeeping and one level of helpers.
 * - a runtime helper: memcpy-like libc functions and the compiler's 64-bit
 *   division helpers (__udivdi3 and the like, which a 32-bit target calls
 *   for every 64-bit / and %). Leaves; the largest of i686 libgcc's takes
 *   64 bytes with its return address. */
#define SIMA_EV74_HAL_CALL_STACK_BYTES 512u
#define SIMA_EV74_RUNTIME_CALL_STACK_BYTES 128u

#endif /* SIMA_FIRMWARE_DEVICE_MODEL_H */
