/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "dense_output.h"

#include "hal/device_model.h"

void
simafw_dense_output_init (SimaFwDenseOutput *d, uint64_t count,
    uint32_t scalar_bytes, uint64_t output_bus, uint64_t panel)
{
  const uint64_t g = SIMA_EV74_WRITE_GRANULE;

  d->count = count;
  d->per_granule = g / scalar_bytes;
  d->first_aligned = ((g - output_bus % g) % g) / scalar_bytes;
  d->panel = panel;
}

/* The first aligned element boundary at or after e (e itself before the
 * first aligned element, which only worker 0 starts at). */
static uint64_t
align_up (const SimaFwDenseOutput *d, uint64_t e)
{
  if (e <= d->first_aligned)
    return e;
  return d->first_aligned + (e - d->first_aligned + d->per_granule - 1)
      / d->per_granule * d->per_granule;
}

uint64_t
simafw_dense_boundary (const SimaFwDenseOutput *d, uint32_t w, uint32_t n)
{
  uint64_t b;

  if (w == 0)
    return 0;
  if (w >= n)
    return d->count;
  b = d->count * w / n;
  b = b < d->first_aligned ? d->first_aligned : align_up (d, b);
  return b < d->count ? b : d->count;
}

uint64_t
simafw_dense_panel_end (const SimaFwDenseOutput *d, uint64_t e0,
    uint64_t last)
{
  uint64_t e = e0 + d->panel;

  if (e >= last)
    return last;
  /* the largest aligned boundary <= e; it lies past e0 because a panel
   * holds more than one granule's elements */
  if (e > d->first_aligned)
    e = d->first_aligned + (e - d->first_aligned) / d->per_granule
        * d->per_granule;
  return e > e0 ? e : e0 + d->panel;
}
