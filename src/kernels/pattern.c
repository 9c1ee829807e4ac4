/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test tensors (pattern.h). Values are picked in double precision and
 * stored with the exact roundings of numerics/float_bits.h, so the same
 * pattern gives the same bytes whatever the FP environment does to float
 * conversions.
 */
#include <simaai/kernels/layout.h>
#include <simaai/kernels/pattern.h>

#include <math.h>
#include <string.h>

#include "numerics/float_bits.h"

const char *
sima_pattern_name (SimaPattern pattern)
{
  switch (pattern) {
    case SIMA_PATTERN_RAMP:
      return "ramp";
    case SIMA_PATTERN_RANDOM:
      return "random";
    case SIMA_PATTERN_CONSTANT:
      return "constant";
    case SIMA_PATTERN_SPECIAL:
      return "special";
  }
  return "unknown";
}

int
sima_pattern_from_name (const char *name, SimaPattern *out)
{
  int v;
  for (v = SIMA_PATTERN_RAMP; v <= SIMA_PATTERN_SPECIAL; v++)
    if (name != NULL && strcmp (name, sima_pattern_name ((SimaPattern) v)) == 0) {
      *out = (SimaPattern) v;
      return 1;
    }
  return 0;
}

/* Stores v in dtype at p: one nearest-even rounding, NaN quiet. */
static void
store (SimaDType dtype, double v, uint8_t *p)
{
  uint64_t bits, mag;
  uint32_t neg, out;
  int32_t exp;
  unsigned e;

  memcpy (&bits, &v, sizeof bits);
  neg = (uint32_t) (bits >> 63);
  e = (unsigned) (bits >> 52) & 0x7ffu;
  mag = e ? (bits & ((UINT64_C (1) << 52) - 1)) | (UINT64_C (1) << 52)
      : bits & ((UINT64_C (1) << 52) - 1);
  exp = e ? (int32_t) e - 1075 : -1074;
  if (dtype == SIMA_DTYPE_INT8) {
    int64_t q;
    if (e == 0x7ffu && (bits & ((UINT64_C (1) << 52) - 1)))
      q = 0;                                    /* NaN */
    else if (e == 0x7ffu || exp >= 0)
      q = 1000;                 /* inf, or >= 2^52: saturates either way */
    else
      q = (int64_t) sima_shift_right_nearest_even (mag, -exp);
    if (neg)
      q = -q;
    p[0] = (uint8_t) (int8_t) (q < -128 ? -128 : q > 127 ? 127 : q);
    return;
  }
  {
    const SimaFloatFormat *f = dtype == SIMA_DTYPE_FLOAT32 ? &SIMA_BINARY32
        : dtype == SIMA_DTYPE_FLOAT16 ? &SIMA_BINARY16 : &SIMA_BFLOAT16_FORMAT;
    int hidden = f->significand_bits - 1;
    if (e == 0x7ffu) {          /* inf stays inf, NaN becomes quiet NaN */
      out = neg << (f->exponent_bits + hidden)
          | ((1u << f->exponent_bits) - 1u) << hidden
          | ((bits & ((UINT64_C (1) << 52) - 1)) ? 1u << (hidden - 1) : 0);
    } else {
      out = sima_float_round (f, neg, mag, exp);
    }
  }
  if (dtype == SIMA_DTYPE_FLOAT32) {
    memcpy (p, &out, 4);
  } else {
    uint16_t h = (uint16_t) out;
    memcpy (p, &h, 2);
  }
}

/* NaN, infinities, signed zeros, the dtype's subnormal and normal limits,
 * and a few ordinary values including rounding ties. */
static double
special (SimaDType dtype, uint64_t k)
{
  /* min quantum, min normal, max finite of each dtype */
  double q = dtype == SIMA_DTYPE_FLOAT16 ? ldexp (1, -24)
      : dtype == SIMA_DTYPE_BFLOAT16 ? ldexp (1, -133) : ldexp (1, -149);
  double n = dtype == SIMA_DTYPE_FLOAT16 ? ldexp (1, -14) : ldexp (1, -126);
  double m = dtype == SIMA_DTYPE_FLOAT16 ? 65504.0
      : dtype == SIMA_DTYPE_BFLOAT16 ? ldexp (255, 120)
      : ldexp ((double) ((1 << 24) - 1), 104);
  const double values[] = { NAN, INFINITY, -INFINITY, -0.0, 0.0, q, -q,
    n - q, n, m, -m, 1.0, -1.0, 0.5, -2.5, 126.5, 127.5 };
  return values[k % (sizeof values / sizeof values[0])];
}

static uint64_t
splitmix (uint64_t *state)
{
  uint64_t z = (*state += UINT64_C (0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

SimaStatus
sima_pattern_fill (const SimaTensorSpec *spec, const SimaPatternParams *p,
    uint64_t frame, void *data, uint64_t capacity)
{
  SimaStridedView view;
  SimaStatus st;
  uint64_t i, n, state;
  uint8_t *out = data;
  int scalar;

  if (spec == NULL || p == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "pattern fill: spec or params is NULL");
  if (spec->layout != SIMA_LAYOUT_CONTIGUOUS)
    return sima_status_make (SIMA_UNSUPPORTED_LAYOUT,
        "pattern fill: layout is %s, must be contiguous",
        sima_layout_name (spec->layout));
  if (spec->dtype != SIMA_DTYPE_FLOAT32 && spec->dtype != SIMA_DTYPE_FLOAT16
      && spec->dtype != SIMA_DTYPE_BFLOAT16 && spec->dtype != SIMA_DTYPE_INT8)
    return sima_status_make (SIMA_UNSUPPORTED_DTYPE,
        "pattern fill: dtype %s is not float32, float16, bfloat16 or int8",
        sima_dtype_name (spec->dtype));
  if ((unsigned) p->pattern > SIMA_PATTERN_SPECIAL)
    return sima_status_make (SIMA_INVALID_PARAMETER,
        "pattern fill: pattern %d is unknown", (int) p->pattern);
  st = sima_strided_view_admit (spec, "pattern", &view);
  if (!sima_status_is_ok (&st))
    return st;
  if (view.required_bytes > capacity || (data == NULL && view.required_bytes))
    return sima_status_make (SIMA_CAPACITY_TOO_SMALL,
        "pattern fill: capacity is %llu bytes, %llu required",
        (unsigned long long) capacity,
        (unsigned long long) view.required_bytes);
  n = view.element_count;
  scalar = view.scalar_bytes;
  state = p->seed ^ (frame * UINT64_C (0xd1342543de82ef95));
  for (i = 0; i < n; i++) {
    double v;
    switch (p->pattern) {
      case SIMA_PATTERN_RAMP:
        v = n > 1 ? p->min + (p->max - p->min)
            * (double) ((i + frame) % n) / (double) (n - 1) : p->min;
        break;
      case SIMA_PATTERN_RANDOM:
        v = p->min + (p->max - p->min)
            * ((double) (splitmix (&state) >> 11) * 0x1p-53);
        break;
      case SIMA_PATTERN_CONSTANT:
        v = p->value;
        break;
      default:
        v = special (spec->dtype, i + frame);
    }
    store (spec->dtype, v, out + i * (uint64_t) scalar);
  }
  return sima_status_ok ();
}
