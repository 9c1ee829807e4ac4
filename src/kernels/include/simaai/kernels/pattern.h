/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/pattern.h - test tensors: ramps, seeded random values,
 * constants and special values (NaN, infinities, signed zeros, subnormals),
 * written in any dtype, so pipelines, demos and benchmarks need no files.
 * Values are chosen in double precision and stored with one exact
 * nearest-even rounding to the dtype (INT8: nearest even, saturated; NaN
 * becomes 0).
 */
#ifndef SIMAAI_KERNELS_PATTERN_H
#define SIMAAI_KERNELS_PATTERN_H

#include <simaai/kernels/status.h>
#include <simaai/kernels/types.h>
#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

typedef enum {
  SIMA_PATTERN_RAMP = 0,      /* min .. max across the tensor, shifted per frame */
  SIMA_PATTERN_RANDOM = 1,    /* uniform in [min, max], from seed and frame */
  SIMA_PATTERN_CONSTANT = 2,  /* value everywhere */
  SIMA_PATTERN_SPECIAL = 3,   /* NaN, +-inf, +-0, subnormals, extremes, ... */
} SimaPattern;

const char *sima_pattern_name (SimaPattern pattern);
int sima_pattern_from_name (const char *name, SimaPattern *out);

typedef struct {
  SimaPattern pattern;
  double min, max;            /* ramp and random */
  double value;               /* constant */
  uint64_t seed;              /* random */
} SimaPatternParams;

/* Fills frame `frame` of the pattern into a contiguous tensor of `spec`
 * (rank, shape and dtype are used; the layout must be contiguous). */
SimaStatus sima_pattern_fill (const SimaTensorSpec *spec,
    const SimaPatternParams *params, uint64_t frame, void *data,
    uint64_t capacity);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_PATTERN_H */
