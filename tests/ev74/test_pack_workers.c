/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The pack job's specialised workers (firmware/pack_special.c) and their
 * selector: for every case, which worker the firmware picks
 * (simafw_pack_select on the decoded descriptor), then the job on the
 * emulator with 1-4 workers and immediate and deferred DMA against the A65
 * kernel (whole window: values, padding, guards, exact traffic, worker
 * ownership) and against the independent oracle, random and special
 * inputs (NaN, infinities, subnormals, signed zeros, rounding ties),
 * several multipliers (a subnormal one too), zero points and roundings,
 * and a dirty output reused without a prefill. Eligible cases sit on each
 * worker's side of every bound, the fallback neighbours one step outside;
 * cases whose input is too large for the arenas (row pitches at the 2D
 * limit) check the selector only, on a job built from the plan as the
 * decoder builds it. Every case also checks that at most one specialised
 * rule admits it (the rules are disjoint). Grouped C16 jobs also check
 * each worker's written range against its share of spatial tiles in the
 * first and last C plane. Last, the data movement of one compact-tile
 * case (commands, bytes, estimated device time, local peak).
 */
#include <simaai/kernels/a65/casttess.h>
#include <simaai/kernels/a65/quanttess.h>
#include <simaai/kernels/ev74/casttess.h>
#include <simaai/kernels/ev74/quanttess.h>
#include <simaai/kernels/ev74/wire.h>

#include <stdlib.h>
#include <string.h>

#include "ev74_diff.h"
#include "layout_gen.h"
#include "oracle.h"
#include "pack_fw.h"
#include "pack_special.h"
#include "tap.h"
#include "test_util.h"

typedef struct {
  const char *name;
  int cast;                     /* CastTess (BF16 tiles) instead of QuantTess */
  SimaDType dtype;
  int rank;
  int64_t shape[SIMA_MAX_RANK];
  int8_t axes[4];
  int64_t tile[4];
  SimaChannels channels;
  int cblock;
  int64_t row_pad;              /* bytes added to the H stride (and 32 to
                                 * outer strides): pitched rows */
  int64_t pixel_scalars;        /* scalars per pixel in memory, 0: C */
  int chw;                      /* channels-first source */
  SimaFwPackWorker want;
} Case;

#define GEN SIMAFW_PACK_WORKER_GENERAL
#define GC16 SIMAFW_PACK_WORKER_GROUPED_C16
#define RGB SIMAFW_PACK_WORKER_RGB_PAD16
#define CT SIMAFW_PACK_WORKER_COMPACT_TILE
#define F32 SIMA_DTYPE_FLOAT32
#define F16 SIMA_DTYPE_FLOAT16
#define B16 SIMA_DTYPE_BFLOAT16
#define U8 SIMA_DTYPE_UINT8
#define PAD SIMA_CHANNELS_PAD16
#define CMP SIMA_CHANNELS_COMPACT
#define HWC { -1, 0, 1, 2 }
#define NHWC { -1, 1, 2, 3 }
#define DHWC { 0, 1, 2, 3 }

static const Case cases[] = {
  /* grouped C16: eligible */
  { "C17 32x32 pad16", 0, F32, 3, { 32, 32, 17 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, GC16 },
  { "C32 32x32 pad16", 0, F32, 3, { 32, 32, 32 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, GC16 },
  { "C32 32x32 compact", 0, F32, 3, { 32, 32, 32 }, HWC, { 1, 8, 16, 16 }, CMP, 0, 0, 0, 0, GC16 },
  { "C33 128x128 pad16 (the bench case)", 0, F32, 3, { 128, 128, 33 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, GC16 },
  { "C33 16x32 pad16 FP16", 0, F16, 3, { 16, 32, 33 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, GC16 },
  { "C33 16x32 pad16 BF16", 0, B16, 3, { 16, 32, 33 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, GC16 },
  { "C33 16x32 pad16 UINT8", 0, U8, 3, { 16, 32, 33 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, GC16 },
  { "C33 16x32 pad16 cblock", 0, F32, 3, { 16, 32, 33 }, HWC, { 1, 8, 16, 16 }, PAD, 1, 0, 0, 0, GC16 },
  { "C48 16x32 H4/W16 compact", 0, F32, 3, { 16, 32, 48 }, HWC, { 1, 4, 16, 16 }, CMP, 0, 0, 0, 0, GC16 },
  { "C64 16x16 H8/W8 pad16 (4,096 elements)", 0, F32, 3, { 16, 16, 64 }, HWC, { 1, 8, 8, 16 }, PAD, 0, 0, 0, 0, GC16 },
  { "C64 16x16 H8/W8 compact", 0, F32, 3, { 16, 16, 64 }, HWC, { 1, 8, 8, 16 }, CMP, 0, 0, 0, 0, GC16 },
  { "C36 H8/W16 (4,608 elements, the bound)", 0, F32, 3, { 16, 32, 36 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, GC16 },
  { "C33 batch 2 x 16x32", 0, F32, 4, { 2, 16, 32, 33 }, NHWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, GC16 },
  { "C33 batch 3 x 8x16, pitched rows", 0, F32, 4, { 3, 8, 16, 33 }, NHWC, { 1, 8, 16, 16 }, PAD, 0, 64, 0, 0, GC16 },
  { "C40 D3 x 16x32 H4/W16, depth tile 1", 0, F32, 4, { 3, 16, 32, 40 }, DHWC, { 1, 4, 16, 16 }, PAD, 0, 0, 0, 0, GC16 },
  { "C33 16x32 pitched rows (+48 bytes)", 0, F32, 3, { 16, 32, 33 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 48, 0, 0, GC16 },
  { "C17 W,C only (rank 2) 64x17, W16", 0, F32, 2, { 64, 17 }, { -1, -1, 0, 1 }, { 1, 1, 16, 16 }, PAD, 0, 0, 0, 0, GC16 },
  /* grouped C16: fallback neighbours */
  { "C48 16x32 H8/W16 (6,144 elements)", 0, F32, 3, { 16, 32, 48 }, HWC, { 1, 8, 16, 16 }, CMP, 0, 0, 0, 0, GEN },
  { "C16 32x32 pad16 (16 channels: one C tile, the compact tile worker)", 0, F32, 3, { 32, 32, 16 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, CT },
  { "C65 16x16 H4/W8 (65 channels)", 0, F32, 3, { 16, 16, 65 }, HWC, { 1, 4, 8, 16 }, PAD, 0, 0, 0, 0, GEN },
  { "C33 20x32 (partial H tile)", 0, F32, 3, { 20, 32, 33 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, GEN },
  { "C33 16x40 (partial W tile)", 0, F32, 3, { 16, 40, 33 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, GEN },
  { "C33 D4 x 8x16, depth tile 2", 0, F32, 4, { 4, 8, 16, 33 }, DHWC, { 2, 8, 16, 16 }, PAD, 0, 0, 0, 0, GEN },
  { "C37 H8/W16 (4,736 elements)", 0, F32, 3, { 16, 32, 37 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, GEN },
  { "C64 H8/W16 (8,192 elements)", 0, F32, 3, { 16, 32, 64 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, GEN },
  { "C33 C tile 8", 0, F32, 3, { 16, 32, 33 }, HWC, { 1, 8, 16, 8 }, PAD, 0, 0, 0, 0, GEN },
  { "C33 compact (final tile 1 channel)", 0, F32, 3, { 16, 32, 33 }, HWC, { 1, 8, 16, 16 }, CMP, 0, 0, 0, 0, GEN },
  { "C33 channels-first source", 0, F32, 3, { 16, 32, 33 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 1, GEN },
  { "C33 pixel stride 34", 0, F32, 3, { 16, 32, 33 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 34, 0, GEN },
  { "C17 FP16 W1 tiles (34-byte rows)", 0, F16, 3, { 8, 4, 17 }, HWC, { 1, 8, 1, 16 }, PAD, 0, 0, 0, 0, GEN },
  { "C33 CastTess (BF16 tiles)", 1, F32, 3, { 16, 32, 33 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, GEN },
  { "C33 H1/W128 (6,144 output bytes, the bound)", 0, F32, 3, { 4, 256, 33 }, HWC, { 1, 1, 128, 16 }, PAD, 0, 0, 0, 0, GC16 },
  { "C33 H1/W130 (6,240 output bytes)", 0, F32, 3, { 4, 260, 33 }, HWC, { 1, 1, 130, 16 }, PAD, 0, 0, 0, 0, GEN },
  { "C32 UINT8 W2 (64-byte rows, the bound)", 0, U8, 3, { 8, 4, 32 }, HWC, { 1, 8, 2, 16 }, PAD, 0, 0, 0, 0, GC16 },
  { "C31 UINT8 W2 (62-byte rows)", 0, U8, 3, { 8, 4, 31 }, HWC, { 1, 8, 2, 16 }, PAD, 0, 0, 0, 0, GEN },
  /* selector only (the input is beyond the arenas): a row pitch of
   * SIMA_EV74_DMA_MAX_PITCH, and one byte more */
  { "C17 UINT8 H2/W16, row pitch 8,388,607 (the 2D limit)", 0, U8, 3, { 2, 16, 17 }, HWC, { 1, 2, 16, 16 }, PAD, 0, 8388607 - 272, 0, 0, GC16 },
  { "C17 UINT8 H2/W16, row pitch 8,388,608", 0, U8, 3, { 2, 16, 17 }, HWC, { 1, 2, 16, 16 }, PAD, 0, 8388608 - 272, 0, 0, GEN },
  /* RGB -> Pad16: eligible */
  { "RGB 224x224 FP32", 0, F32, 3, { 224, 224, 3 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, RGB },
  { "RGB 20x30 FP32 (partial tiles)", 0, F32, 3, { 20, 30, 3 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, RGB },
  { "RGB 8x16 FP32 (one tile)", 0, F32, 3, { 8, 16, 3 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, RGB },
  { "RGB 19x37 FP16", 0, F16, 3, { 19, 37, 3 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, RGB },
  { "RGB 19x37 BF16", 0, B16, 3, { 19, 37, 3 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, RGB },
  { "RGB 19x37 UINT8", 0, U8, 3, { 19, 37, 3 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, RGB },
  { "RGB C tile 3 pad16", 0, F32, 3, { 24, 40, 3 }, HWC, { 1, 8, 16, 3 }, PAD, 0, 0, 0, 0, RGB },
  { "RGB cblock", 0, F32, 3, { 24, 40, 3 }, HWC, { 1, 8, 16, 16 }, PAD, 1, 0, 0, 0, RGB },
  { "RGB batch 2 x 20x30", 0, F32, 4, { 2, 20, 30, 3 }, NHWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, RGB },
  { "RGB 20x30 pitched rows (+40 bytes)", 0, F32, 3, { 20, 30, 3 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 40, 0, 0, RGB },
  { "RGB batch 3 x 9x17 UINT8, pitched", 0, U8, 4, { 3, 9, 17, 3 }, NHWC, { 1, 8, 16, 16 }, PAD, 0, 16, 0, 0, RGB },
  { "RGB H4/W32 (128 pixels)", 0, F32, 3, { 9, 70, 3 }, HWC, { 1, 4, 32, 16 }, PAD, 0, 0, 0, 0, RGB },
  { "RGB D2 x 8x16, depth tile 1", 0, F32, 4, { 2, 8, 16, 3 }, DHWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, RGB },
  { "CastTess RGB 224x224 FP32", 1, F32, 3, { 224, 224, 3 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, RGB },
  { "CastTess RGB 19x37 UINT8", 1, U8, 3, { 19, 37, 3 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, RGB },
  { "CastTess RGB 19x37 FP16, pitched", 1, F16, 3, { 19, 37, 3 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 24, 0, 0, RGB },
  { "CastTess RGB batch 2 BF16", 1, B16, 4, { 2, 20, 30, 3 }, NHWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, RGB },
  /* RGB -> Pad16: fallback neighbours */
  { "RGBX 4 channels", 0, F32, 3, { 20, 30, 4 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, GEN },
  { "RGB 2 channels", 0, F32, 3, { 20, 30, 2 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, GEN },
  { "RGB H8/W17 (136-pixel tiles)", 0, F32, 3, { 20, 40, 3 }, HWC, { 1, 8, 17, 16 }, PAD, 0, 0, 0, 0, GEN },
  { "RGB compact (3 stored; corner payload 168: not a compact tile)", 0, F32, 3, { 20, 30, 3 }, HWC, { 1, 8, 16, 16 }, CMP, 0, 0, 0, 0, GEN },
  { "RGB D4, depth tile 2", 0, F32, 4, { 4, 8, 16, 3 }, DHWC, { 2, 8, 16, 16 }, PAD, 0, 0, 0, 0, GEN },
  { "RGB 5x7 (no full tile)", 0, F32, 3, { 5, 7, 3 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, GEN },
  { "RGB UINT8 pixel stride 4 (RGBX source)", 0, U8, 3, { 20, 30, 3 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 4, 0, GEN },
  { "RGB UINT8 H1/W32 (96-byte tiles)", 0, U8, 3, { 4, 64, 3 }, HWC, { 1, 1, 32, 16 }, PAD, 0, 0, 0, 0, GEN },
  { "RGB channels-first (CHW)", 0, F32, 3, { 20, 30, 3 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 1, GEN },
  { "RGB C tile 2 (two C tiles)", 0, F32, 3, { 20, 30, 3 }, HWC, { 1, 8, 16, 2 }, PAD, 0, 0, 0, 0, GEN },
  { "RGB H1/W129 (129 pixels)", 0, F32, 3, { 4, 260, 3 }, HWC, { 1, 1, 129, 16 }, PAD, 0, 0, 0, 0, GEN },
  { "RGB UINT8 H1/W43 (129-byte tiles)", 0, U8, 3, { 4, 86, 3 }, HWC, { 1, 1, 43, 16 }, PAD, 0, 0, 0, 0, RGB },
  { "RGB UINT8 H1/W42 (126-byte tiles)", 0, U8, 3, { 4, 84, 3 }, HWC, { 1, 1, 42, 16 }, PAD, 0, 0, 0, 0, GEN },
  /* selector only: row pitch 8,388,604 (the largest FP32 one within the
   * 2D limit) and 8,388,608 */
  { "RGB H2/W16, row pitch 8,388,604", 0, F32, 3, { 2, 16, 3 }, HWC, { 1, 2, 16, 16 }, PAD, 0, 8388604 - 192, 0, 0, RGB },
  { "RGB H2/W16, row pitch 8,388,608", 0, F32, 3, { 2, 16, 3 }, HWC, { 1, 2, 16, 16 }, PAD, 0, 8388608 - 192, 0, 0, GEN },
  /* compact tiles (unpadded complete tiles): eligible */
  { "compact C16 1x56x56x16 (partial W tiles)", 0, F32, 4, { 1, 56, 56, 16 }, NHWC, { 1, 8, 16, 16 }, CMP, 0, 0, 0, 0, CT },
  { "compact C16 64x64 H8/W32 (4,096 elements, the bound)", 0, F32, 3, { 64, 64, 16 }, HWC, { 1, 8, 32, 16 }, CMP, 0, 0, 0, 0, CT },
  { "pad16 C32 in a C tile of 32 (32 stored)", 0, F32, 3, { 16, 16, 32 }, HWC, { 1, 8, 8, 32 }, PAD, 0, 0, 0, 0, CT },
  { "compact C8 16x32", 0, F32, 3, { 16, 32, 8 }, HWC, { 1, 8, 16, 16 }, CMP, 0, 0, 0, 0, CT },
  { "cblock C16 (one 16-channel block)", 0, F32, 3, { 16, 32, 16 }, HWC, { 1, 8, 16, 16 }, PAD, 1, 0, 0, 0, CT },
  { "compact C3 20x36 (every edge payload a multiple of 16)", 0, F32, 3, { 20, 36, 3 }, HWC, { 1, 8, 16, 16 }, CMP, 0, 0, 0, 0, CT },
  { "compact C16 UINT8 H1/W8 (128 source bytes, the bound)", 0, U8, 3, { 4, 32, 16 }, HWC, { 1, 1, 8, 16 }, CMP, 0, 0, 0, 0, CT },
  { "compact C16 D3 x 16x32, depth tile 1", 0, F32, 4, { 3, 16, 32, 16 }, DHWC, { 1, 8, 16, 16 }, CMP, 0, 0, 0, 0, CT },
  { "compact C16 8x16 (one full tile)", 0, F32, 3, { 8, 16, 16 }, HWC, { 1, 8, 16, 16 }, CMP, 0, 0, 0, 0, CT },
  { "compact C16 16x40 pitched rows (+48 bytes)", 0, F32, 3, { 16, 40, 16 }, HWC, { 1, 8, 16, 16 }, CMP, 0, 48, 0, 0, CT },
  { "compact C16 19x40 FP16 (partial H and W)", 0, F16, 3, { 19, 40, 16 }, HWC, { 1, 8, 16, 16 }, CMP, 0, 0, 0, 0, CT },
  { "compact C16 19x40 BF16 (partial H and W)", 0, B16, 3, { 19, 40, 16 }, HWC, { 1, 8, 16, 16 }, CMP, 0, 0, 0, 0, CT },
  { "compact C16 19x40 UINT8, pitched rows", 0, U8, 3, { 19, 40, 16 }, HWC, { 1, 8, 16, 16 }, CMP, 0, 16, 0, 0, CT },
  { "compact C16 batch 3 x 9x20 BF16, pitched", 0, B16, 4, { 3, 9, 20, 16 }, NHWC, { 1, 8, 16, 16 }, CMP, 0, 32, 0, 0, CT },
  { "compact C8 rank 5 2x3x12x24 FP16, pitched", 0, F16, 5, { 2, 3, 12, 24, 8 }, { -1, 2, 3, 4 }, { 1, 8, 16, 8 }, CMP, 0, 16, 0, 0, CT },
  { "compact C4 rank 6 2x2xD3x8x16 FP32, pitched", 0, F32, 6, { 2, 2, 3, 8, 16, 4 }, { 2, 3, 4, 5 }, { 1, 4, 8, 4 }, CMP, 0, 32, 0, 0, CT },
  { "compact C1 24x48 FP32", 0, F32, 3, { 24, 48, 1 }, HWC, { 1, 8, 16, 1 }, CMP, 0, 0, 0, 0, CT },
  { "compact C16 W,C only (rank 2) 100x16, W32", 0, F32, 2, { 100, 16 }, { -1, -1, 0, 1 }, { 1, 1, 32, 16 }, CMP, 0, 0, 0, 0, CT },
  { "compact C64 rank 1 (C alone, one tile)", 0, F32, 1, { 64 }, { -1, -1, -1, 0 }, { 1, 1, 1, 64 }, CMP, 0, 0, 0, 0, CT },
  /* compact tiles: fallback neighbours */
  { "compact C8 H2/W257 (4,112 elements)", 0, F32, 3, { 4, 300, 8 }, HWC, { 1, 2, 257, 8 }, CMP, 0, 0, 0, 0, GEN },
  { "compact C17 H1/W241 (4,097 elements, payload not a multiple of 16)", 0, F32, 3, { 2, 241, 17 }, HWC, { 1, 1, 241, 32 }, CMP, 0, 0, 0, 0, GEN },
  { "compact C3 20x37 (W edge payload 120)", 0, F32, 3, { 20, 37, 3 }, HWC, { 1, 8, 16, 16 }, CMP, 0, 0, 0, 0, GEN },
  { "compact C3 H8/W15 (full payload 360)", 0, F32, 3, { 16, 30, 3 }, HWC, { 1, 8, 15, 16 }, CMP, 0, 0, 0, 0, GEN },
  { "compact C16 UINT8 H1/W7 (112 source bytes)", 0, U8, 3, { 4, 28, 16 }, HWC, { 1, 1, 7, 16 }, CMP, 0, 0, 0, 0, GEN },
  { "pad16 C8 (8 channels stored as 16)", 0, F32, 3, { 16, 32, 8 }, HWC, { 1, 8, 16, 16 }, PAD, 0, 0, 0, 0, GEN },
  { "cblock C32 in a C tile of 32 (two blocks)", 0, F32, 3, { 16, 16, 32 }, HWC, { 1, 8, 8, 32 }, PAD, 1, 0, 0, 0, GEN },
  { "compact C16 D4, depth tile 2", 0, F32, 4, { 4, 8, 16, 16 }, DHWC, { 2, 8, 16, 16 }, CMP, 0, 0, 0, 0, GEN },
  { "compact C16 in two C tiles of 8", 0, F32, 3, { 16, 32, 16 }, HWC, { 1, 8, 16, 8 }, CMP, 0, 0, 0, 0, GEN },
  { "compact C16 6x16 (no full H tile)", 0, F32, 3, { 6, 16, 16 }, HWC, { 1, 8, 16, 16 }, CMP, 0, 0, 0, 0, GEN },
  { "compact C16 8x12 (no full W tile)", 0, F32, 3, { 8, 12, 16 }, HWC, { 1, 8, 16, 16 }, CMP, 0, 0, 0, 0, GEN },
  { "compact C16 channels-first source", 0, F32, 3, { 16, 32, 16 }, HWC, { 1, 8, 16, 16 }, CMP, 0, 0, 0, 1, GEN },
  { "compact C16 pixel stride 18", 0, F32, 3, { 16, 32, 16 }, HWC, { 1, 8, 16, 16 }, CMP, 0, 0, 18, 0, GEN },
  { "CastTess compact C16 (BF16 byte planes)", 1, F32, 3, { 16, 32, 16 }, HWC, { 1, 8, 16, 16 }, CMP, 0, 0, 0, 0, GEN },
  { "compact C64 rank 1 in four C tiles of 16 (grouped C16)", 0, F32, 1, { 64 }, { -1, -1, -1, 0 }, { 1, 1, 1, 16 }, CMP, 0, 0, 0, 0, GC16 },
  /* selector only: row pitch 8,388,607 (the 2D limit) and 8,388,608 */
  { "compact C16 UINT8 H2/W16, row pitch 8,388,607", 0, U8, 3, { 2, 16, 16 }, HWC, { 1, 2, 16, 16 }, CMP, 0, 8388607 - 256, 0, 0, CT },
  { "compact C16 UINT8 H2/W16, row pitch 8,388,608", 0, U8, 3, { 2, 16, 16 }, HWC, { 1, 2, 16, 16 }, CMP, 0, 8388608 - 256, 0, 0, GEN },
};

/* QuantTess parameter sets, one per run of a case */
static const SimaQuantTessParams params[] = {
  { 64.0f, 0, SIMA_ROUNDING_NEAREST_EVEN },
  { 0.3f, 77, SIMA_ROUNDING_TOWARD_ZERO },
  { 3.0e-39f, -128, SIMA_ROUNDING_TOWARD_NEGATIVE },   /* subnormal */
  { 255.0697f / 255.0f, -128, SIMA_ROUNDING_TOWARD_POSITIVE },
};
enum { N_PARAMS = sizeof params / sizeof params[0] };

typedef struct {
  SimaTensorSpec in, out;
  int cast;
  SimaQuantTessPlan qt;
  SimaCastTessPlan ct;
  float multiplier;
  int32_t zero_point;
  SimaRounding rounding;
} Plan;

static void
specs_of (const Case *c, SimaTensorSpec *in, SimaTensorSpec *out)
{
  const int scalar = sima_dtype_size (c->dtype);
  const int cax = c->axes[SIMA_MLA_C], hax = c->axes[SIMA_MLA_H];
  int64_t strides[SIMA_MAX_RANK], acc;
  int a, k, mapped;

  acc = c->chw ? scalar : (c->pixel_scalars ? c->pixel_scalars
      : c->shape[cax]) * scalar;
  for (a = c->rank - 1; a >= 0; a--) {
    if (a == cax)
      continue;
    mapped = 0;
    for (k = 0; k < 3; k++)
      mapped |= c->axes[k] == a;
    if (a == hax)
      acc += c->row_pad;
    else if (!mapped && c->row_pad > 0)
      acc += 32;
    strides[a] = acc;
    acc *= c->shape[a];
  }
  strides[cax] = c->chw ? acc : scalar;
  if (c->row_pad == 0 && c->pixel_scalars == 0 && !c->chw)
    *in = test_spec_dense (c->dtype, c->rank, c->shape);
  else
    *in = test_spec_strided (c->dtype, c->rank, c->shape, strides);
  *out = test_spec_tiled (c->cast ? SIMA_DTYPE_BFLOAT16 : SIMA_DTYPE_INT8,
      c->rank, c->shape, c->axes, c->tile, c->channels);
  out->tiled.cblock = c->cblock;
}

static int
plan_of (const Case *c, int param, Plan *p)
{
  memset (p, 0, sizeof *p);
  specs_of (c, &p->in, &p->out);
  p->cast = c->cast;
  if (c->cast) {
    SimaCastTessRequest req = { &p->in, 1, &p->out, 1 };
    return sima_casttess_check_inference (&req, &p->ct).code == SIMA_OK;
  } else {
    SimaQuantTessRequest req = { &p->in, 1, &p->out, 1, params[param] };
    p->multiplier = params[param].multiplier;
    p->zero_point = params[param].zero_point;
    p->rounding = params[param].rounding;
    return sima_quanttess_check_inference (&req, &p->qt).code == SIMA_OK;
  }
}

static SimaStatus
quant_a65 (const void *v, const void *in, void *out)
{
  const SimaQuantTessPlan *plan = v;
  SimaA65QuantTessPlan a65;
  SimaConstHostBuffer ib = { in, plan->input_bytes };
  SimaHostBuffer ob = { out, plan->output_bytes };
  SimaStatus st = sima_a65_quanttess_prepare (plan, &a65);
  return st.code == SIMA_OK ? sima_a65_quanttess_execute (&a65, &ib, 1, &ob, 1)
      : st;
}

static SimaStatus
cast_a65 (const void *v, const void *in, void *out)
{
  const SimaCastTessPlan *plan = v;
  SimaA65CastTessPlan a65;
  SimaConstHostBuffer ib = { in, plan->input_bytes };
  SimaHostBuffer ob = { out, plan->output_bytes };
  SimaStatus st = sima_a65_casttess_prepare (plan, &a65);
  return st.code == SIMA_OK ? sima_a65_casttess_execute (&a65, &ib, 1, &ob, 1)
      : st;
}

static SimaStatus
quant_encode (const void *plan, SimaEv74Descriptor *d)
{
  return sima_ev74_quanttess_encode_relocatable (plan, d);
}

static SimaStatus
cast_encode (const void *plan, SimaEv74Descriptor *d)
{
  return sima_ev74_casttess_encode_relocatable (plan, d);
}

static DiffJob
job_of (const Plan *p)
{
  DiffJob job;
  if (p->cast) {
    DiffJob j = { p->ct.input_bytes, p->ct.output_bytes,
      p->ct.element_count * (uint64_t) p->ct.input_view.scalar_bytes,
      p->ct.output_bytes, 0, cast_a65, cast_encode, &p->ct };
    job = j;
  } else {
    DiffJob j = { p->qt.input_bytes, p->qt.output_bytes,
      p->qt.element_count * (uint64_t) p->qt.input_view.scalar_bytes,
      p->qt.output_bytes, 0, quant_a65, quant_encode, &p->qt };
    job = j;
  }
  return job;
}

static int
oracle_rounding (SimaRounding r)
{
  return r == SIMA_ROUNDING_NEAREST_EVEN ? ORACLE_ROUND_NEAREST_EVEN
      : r == SIMA_ROUNDING_TOWARD_ZERO ? ORACLE_ROUND_TOWARD_ZERO
      : r == SIMA_ROUNDING_TOWARD_POSITIVE ? ORACLE_ROUND_TOWARD_POSITIVE
      : ORACLE_ROUND_TOWARD_NEGATIVE;
}

static void
oracle_of (const Plan *p, const uint8_t *in, uint8_t *want)
{
  if (p->cast)
    oracle_casttess (&p->ct.input, in, &p->ct.output, want);
  else
    oracle_quanttess (&p->qt.input, in, &p->qt.output, p->multiplier,
        p->zero_point, oracle_rounding (p->rounding), want);
}

/* Special values over every other scalar of a random fill. */
static void
fill_special (TestRng *rng, const Plan *p, uint8_t *data, size_t bytes)
{
  static const uint32_t f32[] = { 0x7fc00000u, 0xffc00001u, 0x7f800000u,
    0xff800000u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x00000000u,
    0x80000000u, 0x00800000u, 0x7f7fffffu, 0xff7fffffu, 0x3f000000u,
    0x3fc00000u, 0xc0200000u, 0x42fd0000u };
  static const uint16_t f16[] = { 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x0001,
    0x8001, 0x03ff, 0x0000, 0x8000, 0x0400, 0x7bff, 0xfbff, 0x3800, 0x3e00,
    0xc100, 0x57e8 };
  static const uint16_t b16[] = { 0x7f80, 0xff80, 0x7fc0, 0xffc1, 0x0001,
    0x8001, 0x007f, 0x0000, 0x8000, 0x0080, 0x7f7f, 0xff7f, 0x3f00, 0x3fc0,
    0xc020, 0x42fd };
  const SimaDType dt = p->in.dtype;
  const int scalar = sima_dtype_size (dt);
  size_t i, n = bytes / (size_t) scalar;

  gen_fill_values (rng, dt, p->cast ? 1.0f : p->multiplier, data, bytes);
  for (i = 0; i < n; i += 2) {
    unsigned k = (unsigned) test_rng_below (rng, 16);
    uint8_t *q = data + i * (size_t) scalar;
    if (dt == SIMA_DTYPE_FLOAT32)
      memcpy (q, &f32[k], 4);
    else if (dt == SIMA_DTYPE_FLOAT16)
      memcpy (q, &f16[k], 2);
    else if (dt == SIMA_DTYPE_BFLOAT16)
      memcpy (q, &b16[k], 2);
    else
      *q = (uint8_t) (k & 1 ? 255 : k * 17);
  }
}

/* The bound descriptor of a plan at the benches' offsets. */
static SimaStatus
bind (const Plan *p, DiffBench *b, size_t in_off, size_t out_off,
    SimaEv74Descriptor *d)
{
  SimaEv74Binding bi = test_arena_binding (&b->in, in_off);
  SimaEv74Binding bo = test_arena_binding (&b->out, out_off);
  DiffJob job = job_of (p);
  SimaStatus st = job.encode (job.plan, d);
  if (st.code == SIMA_OK)
    st = sima_ev74_descriptor_bind (d, &bi, &bo);
  return st;
}

/* The worker the selector picks, and how many specialised workers' rules
 * admit the job (the rules are disjoint: at most one). */
static int
choice_of (const SimaFwPackJob *job, int *n_special)
{
  static const SimaFwPackWorker special[] = { GC16, RGB, CT };
  size_t i;

  *n_special = 0;
  for (i = 0; i < sizeof special / sizeof special[0]; i++)
    *n_special += simafw_pack_eligible (job, special[i]) != 0;
  return (int) simafw_pack_select (job);
}

/* The worker the firmware selects for the bound descriptor. */
static int
selected (const Plan *p, DiffBench *b, int *n_special)
{
  SimaEv74Descriptor d;
  SimaStatus st = bind (p, b, 0, 4096, &d);
  int w = -1;

  *n_special = -1;
  if (st.code != SIMA_OK)
    return -1;
  if (p->cast) {
    SimaFwCastTessJob *job = malloc (sizeof *job);
    if (simafw_casttess_decode (d.bytes, d.length, job).code == SIMA_OK)
      w = choice_of (&job->pack, n_special);
    free (job);
  } else {
    SimaFwQuantTessJob *job = malloc (sizeof *job);
    if (simafw_quanttess_decode (d.bytes, d.length, job).code == SIMA_OK)
      w = choice_of (&job->pack, n_special);
    free (job);
  }
  return w;
}

/* The same choice on a job built from the plan as the decoder builds it
 * (route, view, geometry, walk), for inputs too large for the arenas to
 * bind: the selector reads nothing else. Checked against the decoded
 * choice on every case that binds. */
static int
selected_by_plan (const Plan *p, int *n_special)
{
  SimaFwPackJob *job = calloc (1, sizeof *job);
  int w;

  job->route = p->cast ? SIMA_EV74_ROUTE_CASTTESS : SIMA_EV74_ROUTE_QUANTTESS;
  job->input_dtype = p->in.dtype;
  job->input_view = p->cast ? p->ct.input_view : p->qt.input_view;
  job->output_geometry = p->cast ? p->ct.output_geometry
      : p->qt.output_geometry;
  job->element_count = p->cast ? p->ct.element_count : p->qt.element_count;
  sima_tiled_walk_init (&job->output_geometry, &job->input_view, &job->walk);
  w = choice_of (job, n_special);
  free (job);
  return w;
}

/* Grouped C16: worker w of N owns spatial tiles [w*T/N, (w+1)*T/N) of
 * every plane; its lowest byte is its first tile in plane 0, its highest
 * the end of its last tile in the last plane. */
static int
grouped_bounds_ok (const Plan *p, const SimaEv74JobStats *js, uint64_t base)
{
  const SimaTiledGeometry *g = &p->qt.output_geometry;
  const uint64_t spatial = (uint64_t) (g->tile_count[SIMA_MLA_D]
      * g->tile_count[SIMA_MLA_H] * g->tile_count[SIMA_MLA_W]);
  const uint64_t tasks = g->outer_count * spatial;
  uint32_t w;

  for (w = 0; w < js->workers; w++) {
    uint64_t first = tasks * w / js->workers;
    uint64_t last = tasks * (w + 1) / js->workers;
    int64_t ti[4];
    uint64_t t, lo, hi;
    if (first == last) {
      if (js->write_lo[w] <= js->write_hi[w])
        return 0;
      continue;
    }
    t = first % spatial;
    ti[SIMA_MLA_C] = 0;
    ti[SIMA_MLA_W] = (int64_t) (t % (uint64_t) g->tile_count[SIMA_MLA_W]);
    t /= (uint64_t) g->tile_count[SIMA_MLA_W];
    ti[SIMA_MLA_H] = (int64_t) (t % (uint64_t) g->tile_count[SIMA_MLA_H]);
    ti[SIMA_MLA_D] = (int64_t) (t / (uint64_t) g->tile_count[SIMA_MLA_H]);
    lo = base + sima_tiled_tile_offset (g, first / spatial, ti);
    t = (last - 1) % spatial;
    ti[SIMA_MLA_C] = g->tile_count[SIMA_MLA_C] - 1;
    ti[SIMA_MLA_W] = (int64_t) (t % (uint64_t) g->tile_count[SIMA_MLA_W]);
    t /= (uint64_t) g->tile_count[SIMA_MLA_W];
    ti[SIMA_MLA_H] = (int64_t) (t % (uint64_t) g->tile_count[SIMA_MLA_H]);
    ti[SIMA_MLA_D] = (int64_t) (t / (uint64_t) g->tile_count[SIMA_MLA_H]);
    hi = base + sima_tiled_tile_offset (g, (last - 1) / spatial, ti)
        + g->classes[0].span_bytes;
    if (js->write_lo[w] != lo || js->write_hi[w] != hi)
      return 0;
  }
  return 1;
}

typedef struct {
  uint64_t runs, oracle_mismatch, diff_fail, dirty_fail, bounds_fail,
      select_fail, admit_fail, eligible, fallback, overlap, select_only;
} Tally;

static void
run_case (const Case *c, DiffBench *benches, TestRng *rng, uint8_t *want,
    Tally *all)
{
  DiffTally t;
  Plan p;
  uint64_t oracle_bad = 0, dirty_bad = 0, bounds_bad = 0, runs = 0;
  int k, f, fills, chosen, by_plan, n_special, n_plan, disjoint;
  size_t in_off = 0, out_off = 0;
  uint64_t in_bytes, out_bytes;

  memset (&t, 0, sizeof t);
  if (!plan_of (c, 0, &p)) {
    all->admit_fail++;
    tap_ok (0, "%s: admitted", c->name);
    return;
  }
  in_bytes = p.cast ? p.ct.input_bytes : p.qt.input_bytes;
  out_bytes = p.cast ? p.ct.output_bytes : p.qt.output_bytes;
  by_plan = selected_by_plan (&p, &n_plan);
  if (in_bytes > DIFF_ARENA_BYTES / 2) {
    /* selector only: no arena holds the input */
    chosen = by_plan;
    n_special = n_plan;
  } else {
    chosen = selected (&p, &benches[0], &n_special);
    if (by_plan != chosen || n_plan != n_special)
      chosen = -1;
  }
  disjoint = n_special == (chosen != GEN);
  if (!disjoint)
    all->overlap++;
  if (chosen != (int) c->want)
    all->select_fail++;
  if (c->want == GEN)
    all->fallback++;
  else
    all->eligible++;
  if (in_bytes > DIFF_ARENA_BYTES / 2) {
    all->select_only++;
    tap_ok (chosen == (int) c->want && disjoint, "%s %s: selector %d (want "
        "%d), %d specialised rules admit it (selector only: a %llu-byte "
        "input)", c->cast ? "CastTess" : "QuantTess", c->name, chosen,
        (int) c->want, n_special, (unsigned long long) in_bytes);
    return;
  }
  fills = in_bytes > (1u << 20) ? 2 : N_PARAMS;
  for (k = 0; k < 8; k++) {
    DiffBench *b = &benches[k];
    for (f = 0; f < fills; f++) {
      DiffJob job;
      plan_of (c, f, &p);
      job = job_of (&p);
      diff_offsets (rng, &job, sima_dtype_size (c->dtype), 16, &in_off,
          &out_off);
      if (f & 1)
        fill_special (rng, &p, b->in.host + in_off, (size_t) in_bytes);
      else
        gen_fill_values (rng, c->dtype, p.cast ? 1.0f : p.multiplier,
            b->in.host + in_off, (size_t) in_bytes);
      diff_run (b, &job, in_off, out_off, &t);
      oracle_of (&p, b->in.host + in_off, want);
      if (memcmp (want, b->out.host + out_off, (size_t) out_bytes) != 0)
        oracle_bad++;
      runs++;
    }
    /* dirty reuse: the last output stays, another parameter set and input
     * run over it without a prefill; the guards keep diff_run's fill */
    {
      SimaEv74Descriptor d;
      SimaEv74Region *regions[2] = { b->in.region, b->out.region };
      SimaEv74JobStats js;
      SimaStatus st;
      size_t g;
      int guards = 1;

      plan_of (c, fills % N_PARAMS, &p);   /* not the last run's set */
      gen_fill_values (rng, c->dtype, p.cast ? 1.0f : p.multiplier,
          b->in.host + in_off, (size_t) in_bytes);
      st = bind (&p, b, in_off, out_off, &d);
      if (st.code == SIMA_OK)
        st = sima_ev74_run (b->dev, &d, regions, 2, -1, &js);
      oracle_of (&p, b->in.host + in_off, want);
      for (g = 0; g < DIFF_GUARD; g++)
        guards &= b->out.host[out_off - 1 - g] == DIFF_GUARD_BYTE
            && b->out.host[out_off + out_bytes + g] == DIFF_GUARD_BYTE;
      if (st.code != SIMA_OK || !guards
          || memcmp (want, b->out.host + out_off, (size_t) out_bytes) != 0)
        dirty_bad++;
      if (st.code == SIMA_OK && chosen == GC16 && !grouped_bounds_ok (&p, &js,
              test_arena_binding (&b->out, out_off).bus_address))
        bounds_bad++;
      runs++;
    }
  }
  all->runs += runs;
  all->oracle_mismatch += oracle_bad;
  all->diff_fail += t.mismatches + t.failures + t.input_changed
      + t.traffic_errors + t.ownership_errors;
  all->dirty_fail += dirty_bad;
  all->bounds_fail += bounds_bad;
  tap_ok (chosen == (int) c->want && disjoint && t.mismatches == 0
      && t.failures == 0
      && t.input_changed == 0 && t.traffic_errors == 0
      && t.ownership_errors == 0 && oracle_bad == 0 && dirty_bad == 0
      && bounds_bad == 0,
      "%s %s: selector %d (want %d); %llu runs (1-4 workers x immediate/"
      "deferred, random and special inputs, %d parameter sets, dirty reuse):"
      " %llu A65 mismatches, %llu failed, %llu traffic, %llu ownership, "
      "%llu oracle, %llu dirty-reuse, %llu worker-range errors",
      c->cast ? "CastTess" : "QuantTess", c->name, chosen, (int) c->want,
      (unsigned long long) runs, c->cast ? 1 : fills,
      (unsigned long long) t.mismatches, (unsigned long long) t.failures,
      (unsigned long long) t.traffic_errors,
      (unsigned long long) t.ownership_errors,
      (unsigned long long) oracle_bad, (unsigned long long) dirty_bad,
      (unsigned long long) bounds_bad);
}

/* Data movement of one compact-tile case, FP32 1x56x56x16 in H8/W16/C16
 * compact tiles (21 full tiles and 7 of 8 columns): one read (the tile's
 * H rows, one 2D transfer) and one write per tile, exactly the logical
 * input read and the physical output written, no small rows, partial
 * granules or stores, and the spec's 40 KiB of FP32 slots. 4 workers and
 * 1, deferred DMA; the output checked against the oracle. */
static void
data_movement (DiffBench *benches, TestRng *rng, uint8_t *want)
{
  static const Case c = { "compact C16 1x56x56x16 FP32 H8/W16/C16", 0, F32,
    4, { 1, 56, 56, 16 }, NHWC, { 1, 8, 16, 16 }, CMP, 0, 0, 0, 0, CT };
  static const int bench_of[2] = { 7, 4 };  /* diff_specs: 4 and 1 worker */
  const uint64_t slots = 2 * ((uint64_t) SIMAFW_CT_MAX_ELEMENTS * 4
      + SIMAFW_CT_MAX_ELEMENTS);
  const size_t out_off = DIFF_GUARD;
  uint64_t tiles = 0;
  Plan p;
  int i, k, n_special, chosen;

  plan_of (&c, 0, &p);
  for (k = 0; k < SIMA_TILE_CLASS_COUNT; k++)
    tiles += p.qt.output_geometry.classes[k].count;
  tiles *= p.qt.output_geometry.outer_count;
  for (i = 0; i < 2; i++) {
    DiffBench *b = &benches[bench_of[i]];
    SimaEv74Region *regions[2] = { b->in.region, b->out.region };
    SimaEv74Descriptor d;
    SimaEv74JobStats js;
    SimaStatus st;
    int same;

    memset (&js, 0, sizeof js);
    chosen = selected (&p, b, &n_special);
    gen_fill_values (rng, F32, p.multiplier, b->in.host,
        (size_t) p.qt.input_bytes);
    memset (b->out.host, 0xA5, (size_t) p.qt.output_bytes + 2 * DIFF_GUARD);
    st = bind (&p, b, 0, out_off, &d);
    if (st.code == SIMA_OK)
      st = sima_ev74_run (b->dev, &d, regions, 2, -1, &js);
    oracle_of (&p, b->in.host, want);
    same = memcmp (want, b->out.host + out_off,
        (size_t) p.qt.output_bytes) == 0;
    tap_ok (st.code == SIMA_OK && chosen == CT && same
        && js.dma_commands == 2 * tiles
        && js.dma_bytes_read == p.qt.element_count * 4
        && js.dma_bytes_written == p.qt.output_bytes
        && js.dma_small_rows == 0 && js.dma_partial_writes == 0
        && js.scalar_stores == 0 && js.local_peak == slots,
        "data movement, %s, %u worker(s), deferred DMA (worker %d, %s): "
        "%llu DMA commands (%llu tiles), read %llu bytes (logical input "
        "%llu), wrote %llu (physical output %llu), %llu small rows, %llu "
        "unaligned rows, %llu partial-granule write rows, %llu scalar "
        "stores, estimated device %.2f us, local peak %u bytes (slots %llu); "
        "emulator %.0f us",
        c.name, js.workers, chosen, same ? "output as the oracle's"
        : "OUTPUT DIFFERS", (unsigned long long) js.dma_commands,
        (unsigned long long) tiles, (unsigned long long) js.dma_bytes_read,
        (unsigned long long) (p.qt.element_count * 4),
        (unsigned long long) js.dma_bytes_written,
        (unsigned long long) p.qt.output_bytes,
        (unsigned long long) js.dma_small_rows,
        (unsigned long long) js.dma_unaligned_rows,
        (unsigned long long) js.dma_partial_writes,
        (unsigned long long) js.scalar_stores,
        (double) js.estimated_ns / 1e3, js.local_peak,
        (unsigned long long) slots, (double) js.device_ns / 1e3);
  }
}

int
main (void)
{
  DiffBench benches[8];
  TestRng rng = { 0x9ac4e774 };
  uint8_t *want = malloc (DIFF_ARENA_BYTES);
  Tally all;
  size_t i;
  int k;

  memset (&all, 0, sizeof all);
  for (k = 0; k < 8; k++)
    diff_bench_open (&benches[k], diff_specs[k]);
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
    run_case (&cases[i], benches, &rng, want, &all);
  data_movement (benches, &rng, want);
  for (k = 0; k < 8; k++)
    diff_bench_close (&benches[k]);
  free (want);
  tap_ok (all.select_fail == 0 && all.admit_fail == 0 && all.eligible > 0
      && all.fallback > 0, "selector: %llu eligible and %llu fallback cases "
      "(%llu of them selector only) chose as expected (%llu wrong, %llu not "
      "admitted)", (unsigned long long) all.eligible,
      (unsigned long long) all.fallback, (unsigned long long) all.select_only,
      (unsigned long long) all.select_fail,
      (unsigned long long) all.admit_fail);
  tap_ok (all.overlap == 0, "selector: the grouped C16, RGB Pad16 and "
      "compact tile rules are disjoint (at most one admits each case, the "
      "one selected; %llu exceptions)", (unsigned long long) all.overlap);
  tap_diag ("%llu runs: %llu differential, %llu oracle, %llu dirty-reuse, "
      "%llu worker-range errors", (unsigned long long) all.runs,
      (unsigned long long) all.diff_fail,
      (unsigned long long) all.oracle_mismatch,
      (unsigned long long) all.dirty_fail,
      (unsigned long long) all.bounds_fail);
  return tap_done ();
}
