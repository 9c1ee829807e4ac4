/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * oracle_numerics.c - scalar reference numerics for the test oracle.
 *
 * Method (chosen to differ from any bit-twiddling or vector production path):
 *  1. decode every binary16/bfloat16/binary32 pattern to an exact double by
 *     hand with ldexp (no reinterpretation through float hardware, so even a
 *     denormals-are-zero mode could not change an input);
 *  2. form products/differences in double, where they are exact: a binary32
 *     (24-bit) significand times another 24-bit one needs 48 bits < 53, and
 *     the exponent range (down to 2^-298, up to 2^256) is far inside double's;
 *  3. round ONCE to the target format with round_to_format(), a nearest-even
 *     rounder that works on the quantum of the target format (handles the
 *     subnormal range and overflow to infinity by construction).
 * Nothing here depends on the FP rounding mode: floor/ceil/trunc/fmod/ldexp/
 * ilogb are exact, and the only double arithmetic used is exact.
 */
#include "oracle.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

/* ---- decoding ------------------------------------------------------------ */

/* Value of a binary32 pattern; NaN is reported through *is_nan (its value is
 * irrelevant to every rule that consumes it). Signed zero is kept. */
static double
decode_f32 (uint32_t b, int *is_nan)
{
  unsigned exp = (b >> 23) & 0xFFu;
  uint32_t frac = b & 0x7FFFFFu;
  double mag;

  *is_nan = 0;
  if (exp == 0xFFu) {
    if (frac != 0) {
      *is_nan = 1;
      return NAN;
    }
    mag = INFINITY;
  } else if (exp == 0) {
    mag = ldexp ((double) frac, -149);  /* subnormal: frac * 2^-149 */
  } else {
    mag = ldexp ((double) (frac | 0x800000u), (int) exp - 150);
  }
  return (b >> 31) ? -mag : mag;
}

/* Value of an IEEE binary16 pattern (5-bit exponent, bias 15, 10-bit frac). */
static double
decode_f16 (uint16_t h, int *is_nan)
{
  unsigned exp = (h >> 10) & 0x1Fu;
  unsigned frac = h & 0x3FFu;
  double mag;

  *is_nan = 0;
  if (exp == 0x1Fu) {
    if (frac != 0) {
      *is_nan = 1;
      return NAN;
    }
    mag = INFINITY;
  } else if (exp == 0) {
    mag = ldexp ((double) frac, -24);
  } else {
    mag = ldexp ((double) (frac | 0x400u), (int) exp - 25);
  }
  return (h >> 15) ? -mag : mag;
}

/* BF16 is the top half of a binary32: same exponent, 7 fraction bits. It is
 * NOT FP16; the same 16 bits mean a different number. */
static double
decode_bf16 (uint16_t h, int *is_nan)
{
  return decode_f32 ((uint32_t) h << 16, is_nan);
}

/* UINT8 is an exact integer 0..255 (never NaN): the value of its eight bits
 * summed one by one, so no conversion instruction is involved. Only the low
 * byte of the carrier is looked at. */
static double
decode_u8 (uint32_t bits, int *is_nan)
{
  double v = 0.0;

  *is_nan = 0;
  for (int k = 0; k < 8; k++)
    if ((bits >> k) & 1u)
      v += ldexp (1.0, k);            /* exact: at most 255 */
  return v;
}

static double
decode_input (SimaDType dtype, uint32_t bits, int *is_nan)
{
  switch (dtype) {
    case SIMA_DTYPE_UINT8:
      return decode_u8 (bits, is_nan);
    case SIMA_DTYPE_FLOAT16:
      return decode_f16 ((uint16_t) (bits & 0xFFFFu), is_nan);
    case SIMA_DTYPE_BFLOAT16:
      return decode_bf16 ((uint16_t) (bits & 0xFFFFu), is_nan);
    case SIMA_DTYPE_FLOAT32:
    default:
      return decode_f32 (bits, is_nan);
  }
}

static uint32_t
float_bits (float f)
{
  uint32_t b;
  memcpy (&b, &f, sizeof b);
  return b;
}

/* ---- rounding ------------------------------------------------------------ */

/* Round an integral-or-not double to an integer-valued double, per mode.
 * Exact for |v| < 2^52 (the caller clamps). Nearest-even is written out with
 * floor and an explicit tie test rather than using nearbyint(), so it does not
 * depend on the current rounding mode. */
static double
round_integer (double v, int mode)
{
  double fl;
  double rest;

  switch (mode) {
    case ORACLE_ROUND_TOWARD_ZERO:
      return trunc (v);
    case ORACLE_ROUND_TOWARD_POSITIVE:
      return ceil (v);
    case ORACLE_ROUND_TOWARD_NEGATIVE:
      return floor (v);
    case ORACLE_ROUND_NEAREST_EVEN:
    default:
      fl = floor (v);
      rest = v - fl;            /* exact: in [0, 1) */
      if (rest > 0.5)
        return fl + 1.0;
      if (rest < 0.5)
        return fl;
      return (fmod (fl, 2.0) != 0.0) ? fl + 1.0 : fl;  /* tie: to even */
  }
}

/* Round v (finite, +-0 or +-inf; never NaN) to the nearest-even member of a
 * binary format with p significand bits (implicit bit included) and minimum
 * normal exponent emin, and return that member's bit pattern.
 *
 * The quantum at exponent e is 2^(e-(p-1)); below emin the quantum stays at
 * emin's, which is exactly gradual underflow. With n = v / quantum rounded to
 * an integer, the magnitude bits are (e - emin) * 2^(p-1) + n:
 *   normal:    exponent field e - emin + 1, mantissa n - 2^(p-1)   -> same sum
 *   subnormal: e == emin, n < 2^(p-1): exponent field 0, mantissa n -> same
 *   carry:     n == 2^p bumps the exponent field by one             -> same
 * and anything at or past the infinity pattern is an overflow to infinity. */
static uint64_t
round_to_format (double v, int p, int emin, uint64_t inf_mag, int sign_pos)
{
  uint64_t sign = signbit (v) ? (uint64_t) 1 << sign_pos : 0;
  double a = fabs (v);
  int e;
  double n;
  uint64_t mag;

  if (isinf (a))
    return sign | inf_mag;
  if (a == 0.0)
    return sign;

  e = ilogb (a);                      /* floor(log2 a), exact */
  if (e < emin)
    e = emin;
  n = round_integer (ldexp (a, (p - 1) - e), ORACLE_ROUND_NEAREST_EVEN);
  if (e - emin >= (int) (inf_mag >> (p - 1)))
    return sign | inf_mag;            /* far beyond range; avoid big shifts */
  mag = (uint64_t) (e - emin) * ((uint64_t) 1 << (p - 1)) + (uint64_t) n;
  if (mag >= inf_mag)
    mag = inf_mag;
  return sign | mag;
}

/* binary32: 24-bit significand, emin -126, infinity 0x7F800000. */
static uint32_t
round_to_f32 (double v)
{
  return (uint32_t) round_to_format (v, 24, -126, 0x7F800000u, 31);
}

/* bfloat16: 8-bit significand, same exponent range as binary32. */
static uint16_t
round_to_bf16 (double v)
{
  return (uint16_t) round_to_format (v, 8, -126, 0x7F80u, 15);
}

/* Value of the nearest binary32 (exact in double). */
static double
rne_f32_value (double v)
{
  int nan;
  return decode_f32 (round_to_f32 (v), &nan);
}

/* ---- QuantTess ----------------------------------------------------------- */

int8_t
oracle_quant_bits (SimaDType in_dtype, uint32_t bits, float multiplier,
                   int32_t zero_point, int rounding)
{
  int nan;
  int mnan;
  double x = decode_input (in_dtype, bits, &nan);
  double m = decode_f32 (float_bits (multiplier), &mnan);
  double product;
  double r;
  int64_t sum;

  if (nan)
    return (int8_t) zero_point;       /* NaN maps to zero_point */

  /* Exact product in double, then the one binary32 rounding the spec puts
   * BEFORE integer rounding. */
  product = rne_f32_value (x * m);
  if (isinf (product))
    return signbit (product) ? INT8_MIN : INT8_MAX;

  /* Any |product| >= 1024 saturates whatever the zero point in [-128,127]
   * is, so clamping keeps the result and keeps round_integer exact. */
  if (product > 1024.0)
    product = 1024.0;
  if (product < -1024.0)
    product = -1024.0;

  r = round_integer (product, rounding);
  sum = (int64_t) r + (int64_t) zero_point;
  if (sum > INT8_MAX)
    return INT8_MAX;
  if (sum < INT8_MIN)
    return INT8_MIN;
  return (int8_t) sum;
}

/* ---- CastTess ------------------------------------------------------------ */

/* The spec defines FP32 -> BF16 as the uint32 expression
 *   (bits + 0x7fff + ((bits >> 16) & 1)) >> 16
 * For non-NaN inputs that is nearest-even on the discarded low half, which we
 * write as an explicit comparison against the halfway point 0x8000 (the upper
 * half cannot wrap: the largest non-NaN upper half to be incremented is
 * 0xFF7F). For NaN inputs the expression's effects (quiet NaN unchanged,
 * some payloads becoming infinity, -0 or 0 by wrapping modulo 2^32) are
 * reproduced with 64-bit arithmetic masked to 32 bits. */
uint16_t
oracle_bf16_from_f32_bits (uint32_t bits)
{
  uint32_t hi = bits >> 16;
  uint32_t lo = bits & 0xFFFFu;
  int is_nan = ((bits & 0x7F800000u) == 0x7F800000u) && (bits & 0x7FFFFFu);

  if (is_nan) {
    uint64_t wide = (uint64_t) bits + 0x7FFFu + (uint64_t) (hi & 1u);
    return (uint16_t) ((wide & 0xFFFFFFFFu) >> 16);
  }
  if (lo > 0x8000u || (lo == 0x8000u && (hi & 1u)))
    hi += 1u;
  return (uint16_t) hi;
}

/* FP16 -> BF16: every finite FP16 (subnormals included, 2^-24 .. 65504) is a
 * normal number in BF16's exponent range, so only the significand is rounded
 * (11 -> 8 bits, nearest even; 65504 rounds up to 2^16, still finite). NaN:
 * sign kept, quiet bit set, high 7 payload bits kept. */
uint16_t
oracle_bf16_from_f16_bits (uint16_t bits)
{
  int nan;
  double v = decode_f16 (bits, &nan);

  if (nan)
    return (uint16_t) (((uint32_t) (bits >> 15) << 15) | 0x7FC0u |
                       ((bits & 0x3FFu) >> 3));
  return round_to_bf16 (v);           /* keeps +-0 and +-inf */
}

/* UINT8 -> BF16: every integer 0..255 needs at most 8 significant bits and
 * BF16 has 8 (7 stored + the implicit one), so the conversion is exact; it is
 * still routed through the same once-rounding encoder, which then never has
 * anything to round. */
uint16_t
oracle_bf16_from_u8 (uint8_t v)
{
  int nan;

  return round_to_bf16 (decode_u8 (v, &nan));
}

/* ---- DetessDequant ------------------------------------------------------- */

/* The three ordered stages, each exact in double and rounded once:
 *   z = RNE_f32(zero_point)          (int32 -> nearest float; wide ones round)
 *   d = RNE_f32(f32(q) - z)          (|q - z| < 2^32: exact in double)
 *   r = RNE_f32(d * scale)           (24 x 24 significand bits: exact)
 * Returns the bits of r; never NaN for finite positive scale. */
uint32_t
oracle_dequant_f32_bits (int8_t q, float scale, int32_t zero_point)
{
  int nan;
  double s = decode_f32 (float_bits (scale), &nan);
  double z = rne_f32_value ((double) zero_point);
  double d = rne_f32_value ((double) q - z);

  return round_to_f32 (d * s);
}

uint16_t
oracle_dequant_bf16_bits (int8_t q, float scale, int32_t zero_point)
{
  int nan;
  double r = decode_f32 (oracle_dequant_f32_bits (q, scale, zero_point), &nan);

  return round_to_bf16 (r);           /* second rounding, from the float r */
}

/* The divide convention, r = RNE_f32(d / dq_scale), by a different route
 * than the product above: one hardware double division, then the hardware
 * double -> float conversion, both under FE_TONEAREST (set here; the oracle
 * must still run without FTZ/DAZ, as the header says, since the conversion
 * of a subnormal float result would be flushed).
 *
 * That double rounding (first to double, then to float) is innocuous for a
 * quotient of two binary32 values: d has at most 24 significant bits (it
 * is a binary32 integer) and so has dq_scale, and when the intermediate
 * precision p' satisfies p' >= 2p + 2 (here 53 >= 2*24 + 2 = 50) a quotient
 * can never lie so close to a midpoint of the binary32 grid that rounding
 * it to double first lands on that midpoint or across it (Figueroa, "When
 * is double rounding innocuous?", 1995). A subnormal float result has a
 * coarser grid, which only widens the margin; the quotient itself is never
 * subnormal or infinite in double (|d| < 2^33, 2^-149 <= dq_scale < 2^128).
 * d and dq_scale are decoded to double by hand as elsewhere, so DAZ could
 * not touch them either. */
uint32_t
oracle_dequant_div_f32_bits (int8_t q, float dq_scale, int32_t zero_point)
{
  int nan, mode = fegetround ();
  double s = decode_f32 (float_bits (dq_scale), &nan);
  double z = rne_f32_value ((double) zero_point);
  volatile double d = rne_f32_value ((double) q - z);
  volatile double quotient;
  volatile float r;

  fesetround (FE_TONEAREST);
  quotient = d / s;
  r = (float) quotient;
  fesetround (mode);
  return float_bits (r);          /* q - z == 0: +0 / s is +0 */
}

uint16_t
oracle_dequant_div_bf16_bits (int8_t q, float dq_scale, int32_t zero_point)
{
  int nan;
  double r = decode_f32 (oracle_dequant_div_f32_bits (q, dq_scale,
          zero_point), &nan);

  return round_to_bf16 (r);
}
