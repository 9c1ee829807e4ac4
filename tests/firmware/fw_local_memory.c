/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What tools/check-fw-stack.py holds each firmware worker to, printed from
 * the firmware's own headers so that no figure is typed twice:
 *
 *   budget BYTES                     SIMA_EV74_LOCAL_BYTES
 *   reserve hal BYTES                SIMA_EV74_HAL_CALL_STACK_BYTES
 *   reserve runtime BYTES            SIMA_EV74_RUNTIME_CALL_STACK_BYTES
 *   slot WORKER BYTES EXPRESSION     one per hal->ops->scratch call
 *
 * The slots are the worker's scratch calls, one line each, in the order
 * the worker makes them, with the size it asks for and that size rounded
 * up to SIMA_FW_SCRATCH_ALIGN (what the HAL gives). The script checks that
 * the call graph has exactly these workers and as many scratch calls in
 * each, so a new slot cannot go uncounted. A slot whose size depends on
 * the output element takes the widest element the core describes
 * (sima_dtype_size over every dtype: 4 bytes).
 */
#include <stdio.h>

#include <simaai/kernels/types.h>

#include "detesscast_fw.h"
#include "detessdequant_fw.h"
#include "detessdequant_special.h"
#include "hal/device_model.h"
#include "hal/hal.h"
#include "pack_fw.h"
#include "pack_special.h"

static unsigned long
widest_scalar (void)
{
  int d, w = 0;
  for (d = 0; d < 256; d++)
    if (sima_dtype_size ((SimaDType) d) > w)
      w = sima_dtype_size ((SimaDType) d);
  return (unsigned long) w;
}

static void
slot (const char *worker, unsigned long bytes, const char *expr)
{
  unsigned long a = SIMA_FW_SCRATCH_ALIGN;
  printf ("slot %s %lu %s\n", worker, (bytes + a - 1) / a * a, expr);
}

/* `scalar` as the workers name the output element size */
#define SLOT(worker, expr) slot (worker, (unsigned long) (expr), #expr)

int
main (void)
{
  const unsigned long scalar = widest_scalar ();

  printf ("budget %lu\n", (unsigned long) SIMA_EV74_LOCAL_BYTES);
  printf ("reserve hal %lu\n", (unsigned long) SIMA_EV74_HAL_CALL_STACK_BYTES);
  printf ("reserve runtime %lu\n",
      (unsigned long) SIMA_EV74_RUNTIME_CALL_STACK_BYTES);

  /* firmware/pack_worker.c: two input and two output slots */
  SLOT ("simafw_pack_run", SIMAFW_PACK_IN_SLOT);
  SLOT ("simafw_pack_run", SIMAFW_PACK_IN_SLOT);
  SLOT ("simafw_pack_run", SIMAFW_PACK_OUT_SLOT);
  SLOT ("simafw_pack_run", SIMAFW_PACK_OUT_SLOT);
  /* firmware/pack_special.c: the grouped C16 and RGB Pad16 workers' two
   * input and two output slots (planes: BF16's two byte planes at most) */
  {
    const unsigned long planes = 2;
    SLOT ("simafw_pack_run_grouped_c16", SIMAFW_GC16_MAX_ELEMENTS * scalar);
    SLOT ("simafw_pack_run_grouped_c16", SIMAFW_GC16_MAX_ELEMENTS * scalar);
    SLOT ("simafw_pack_run_grouped_c16", SIMAFW_GC16_MAX_OUTPUT);
    SLOT ("simafw_pack_run_grouped_c16", SIMAFW_GC16_MAX_OUTPUT);
    SLOT ("simafw_pack_run_rgb_pad16",
        SIMAFW_RGB_MAX_PIXELS * SIMAFW_RGB_CHANNELS * scalar);
    SLOT ("simafw_pack_run_rgb_pad16",
        SIMAFW_RGB_MAX_PIXELS * SIMAFW_RGB_CHANNELS * scalar);
    SLOT ("simafw_pack_run_rgb_pad16",
        SIMAFW_RGB_MAX_PIXELS * SIMAFW_RGB_STORED * planes);
    SLOT ("simafw_pack_run_rgb_pad16",
        SIMAFW_RGB_MAX_PIXELS * SIMAFW_RGB_STORED * planes);
  }
  /* firmware/pack_special.c: the compact tile worker's two input slots
   * and two INT8 output slots (one byte per element) */
  SLOT ("simafw_pack_run_compact_tile", SIMAFW_CT_MAX_ELEMENTS * scalar);
  SLOT ("simafw_pack_run_compact_tile", SIMAFW_CT_MAX_ELEMENTS * scalar);
  SLOT ("simafw_pack_run_compact_tile", SIMAFW_CT_MAX_ELEMENTS);
  SLOT ("simafw_pack_run_compact_tile", SIMAFW_CT_MAX_ELEMENTS);
  /* firmware/detessdequant_worker.c: two INT8 panels, two result panels */
  SLOT ("simafw_detessdequant_run", SIMAFW_DD_PANEL);
  SLOT ("simafw_detessdequant_run", SIMAFW_DD_PANEL);
  SLOT ("simafw_detessdequant_run", SIMAFW_DD_PANEL * scalar);
  SLOT ("simafw_detessdequant_run", SIMAFW_DD_PANEL * scalar);
  /* firmware/detessdequant_special.c: the tile-band worker's two staging
   * slots, its ordered panel and two result panels */
  SLOT ("simafw_detessdequant_run_bands", SIMAFW_DDB_STAGE);
  SLOT ("simafw_detessdequant_run_bands", SIMAFW_DDB_STAGE);
  SLOT ("simafw_detessdequant_run_bands", SIMAFW_DDB_ORDERED);
  SLOT ("simafw_detessdequant_run_bands", SIMAFW_DD_PANEL * scalar);
  SLOT ("simafw_detessdequant_run_bands", SIMAFW_DD_PANEL * scalar);
  /* firmware/detesscast_worker.c: two byte-plane pairs, two result panels */
  SLOT ("simafw_detesscast_run", 2 * SIMAFW_DC_PANEL);
  SLOT ("simafw_detesscast_run", 2 * SIMAFW_DC_PANEL);
  SLOT ("simafw_detesscast_run", SIMAFW_DC_PANEL * scalar);
  SLOT ("simafw_detesscast_run", SIMAFW_DC_PANEL * scalar);
  return 0;
}
