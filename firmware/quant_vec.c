/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * QuantTess block arithmetic of the EV74 firmware (quant_vec.h says what
 * and why). The leaves are one body specialised by the compiler for each
 * dtype and rounding mode (constant arguments of an always-inlined
 * function), so the ordinary vector loop holds no dtype or rounding branch.
 */
#include "quant_vec.h"

#include "numerics/quant_exact.h"
#include "vec16.h"
#include "widen_vec.h"

/* ---- exact scalar path (subnormal multiplier, risky lanes, tails) ------- */

static int8_t
exact_one (const SimaFwQuantBlock *b, const uint8_t *p)
{
  SimaExactValue v;

  switch (b->dtype) {
    case SIMA_DTYPE_FLOAT32:
      v = sima_decode_f32 ((uint32_t) p[0] | (uint32_t) p[1] << 8
          | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24);
      break;
    case SIMA_DTYPE_FLOAT16:
      v = sima_decode_f16 ((uint16_t) (p[0] | p[1] << 8));
      break;
    case SIMA_DTYPE_BFLOAT16:
      v = sima_decode_bf16 ((uint16_t) (p[0] | p[1] << 8));
      break;
    default:
      v = sima_decode_u8 (p[0]);
      break;
  }
  return sima_quant_exact (v, &b->numerics);
}

/* Forward, one value at a time: with dst == src, byte i lies inside a
 * scalar at or before scalar i, so it has been read. */
static void
exact_run (const SimaFwQuantBlock *b, const uint8_t *src, uint8_t *dst,
    uint32_t from, uint32_t to)
{
  uint32_t i;
  for (i = from; i < to; i++)
    dst[i] = (uint8_t) exact_one (b, src + (uint64_t) i * b->scalar_bytes);
}

/* ---- vector stages ------------------------------------------------------ */

/* The selected rounding of |p| <= 256 into INT32 lanes (OpenCL's
 * convert_int16_rte / _rtz / _rtp / _rtn). Nearest even adds and takes off
 * 1.5 * 2^23, where binary32's quantum is 1: the FP environment's rounding
 * mode does it, the device's fixed round-to-nearest, which the binary32
 * product needs anyway (the emulator's workers run in the default FP
 * environment, whatever the caller's). The directed modes adjust the
 * truncation by exact comparisons. */
SIMA_V16_INLINE SimaV16i
round_lanes (SimaV16f p, SimaRounding rounding)
{
  const SimaV16f magic = sima_v16_splat_f (12582912.0f);     /* 1.5 * 2^23 */
  SimaV16i t;

  switch (rounding) {
    case SIMA_ROUNDING_TOWARD_ZERO:
      return sima_v16_cvt_i_rtz (p);
    case SIMA_ROUNDING_TOWARD_POSITIVE:
      t = sima_v16_cvt_i_rtz (p);
      return t - sima_v16_lt_f (sima_v16_cvt_f (t), p);  /* true lanes: -1 */
    case SIMA_ROUNDING_TOWARD_NEGATIVE:
      t = sima_v16_cvt_i_rtz (p);
      return t + sima_v16_gt_f (sima_v16_cvt_f (t), p);
    default:
      return sima_v16_cvt_i_rtz ((p + magic) - magic);
  }
}

/* A product's INT8 result: NaN -> 0, clamp to [-256, 256] (every admitted
 * zero point then saturates as the unclamped product would, and the
 * conversion cannot overflow), the selected rounding, zero point, INT8
 * saturation. */
SIMA_V16_INLINE void
finish (uint8_t *dst, SimaV16f p, SimaRounding rounding, int32_t zero_point)
{
  const SimaV16f lo = sima_v16_splat_f (-256.0f), hi = sima_v16_splat_f (256.0f);
  const SimaV16i qlo = sima_v16_splat_i (-128), qhi = sima_v16_splat_i (127);
  SimaV16i r;

  p = sima_v16_select_f (sima_v16_isnan (p), sima_v16_splat_f (0.0f), p);
  p = sima_v16_select_f (sima_v16_lt_f (p, lo), lo, p);
  p = sima_v16_select_f (sima_v16_gt_f (p, hi), hi, p);
  r = round_lanes (p, rounding) + zero_point;
  r = sima_v16_select_i (sima_v16_lt_i (r, qlo), qlo, r);
  r = sima_v16_select_i (sima_v16_gt_i (r, qhi), qhi, r);
  sima_v16_store_i8 (dst, r);
}

/* FP16 products are tested, every other dtype's inputs. */
#define PRODUCT_TEST(dtype) ((dtype) == SIMA_DTYPE_FLOAT16)

/* Lanes whose input test fails, as (magnitude - 1) < risky_below. */
SIMA_V16_INLINE SimaV16u
minus_one (SimaV16u x)
{
  return (x & 0x7fffffffu) - 1u;
}

/* Lanes whose product underflowed (FP16's test): nonzero input, product
 * exponent field zero. */
SIMA_V16_INLINE SimaV16i
underflowed (SimaV16u x, SimaV16f p)
{
  const SimaV16u zero = sima_v16_splat_u (0);
  return ~sima_v16_eq_u (x & 0x7fffffffu, zero)
      & sima_v16_eq_u (sima_v16_as_u (p) & 0x7f800000u, zero);
}

/* Whether sixteen values at i convert in hardware; when they do, *p holds
 * their products. */
SIMA_V16_INLINE int
vector_safe (const SimaFwQuantBlock *b, const uint8_t *src, uint32_t i,
    SimaDType dtype, SimaV16f *p)
{
  SimaV16u x = simafw_v16_binary32_bits (src, i, dtype);
  SimaV16f m = sima_v16_splat_f (b->multiplier);

  if (PRODUCT_TEST (dtype)) {
    *p = sima_v16_as_f (x) * m;
    return !sima_v16_any (underflowed (x, *p));
  }
  if (sima_v16_any (sima_v16_lt_u (minus_one (x),
              sima_v16_splat_u (b->risky_below))))
    return 0;
  *p = sima_v16_as_f (x) * m;
  return 1;
}

SIMA_V16_INLINE uint32_t
paired_body (const SimaFwQuantBlock *b, const uint8_t *src, uint8_t *dst,
    uint32_t n, SimaDType dtype, SimaRounding rounding)
{
  const SimaV16f m = sima_v16_splat_f (b->multiplier);
  const SimaV16u risky_below = sima_v16_splat_u (b->risky_below);
  const int32_t zp = b->numerics.zero_point;
  uint32_t i;

  for (i = 0; i + 2 * SIMA_V16_LANES <= n; i += 2 * SIMA_V16_LANES) {
    /* both halves are loaded before either result is stored */
    SimaV16u xa = simafw_v16_binary32_bits (src, i, dtype);
    SimaV16u xb = simafw_v16_binary32_bits (src, i + SIMA_V16_LANES, dtype);
    SimaV16f pa, pb;

    if (PRODUCT_TEST (dtype)) {
      pa = sima_v16_as_f (xa) * m;
      pb = sima_v16_as_f (xb) * m;
      if (sima_v16_any (underflowed (xa, pa) | underflowed (xb, pb)))
        return i;
    } else {
      if (sima_v16_any (sima_v16_lt_u (sima_v16_min_u (minus_one (xa),
                      minus_one (xb)), risky_below)))
        return i;
      pa = sima_v16_as_f (xa) * m;
      pb = sima_v16_as_f (xb) * m;
    }
    finish (dst + i, pa, rounding, zp);
    finish (dst + i + SIMA_V16_LANES, pb, rounding, zp);
  }
  if (i + SIMA_V16_LANES <= n) {        /* the final complete vector */
    SimaV16f p;
    if (!vector_safe (b, src, i, dtype, &p))
      return i;
    finish (dst + i, p, rounding, zp);
    i += SIMA_V16_LANES;
  }
  return i;
}

/* One leaf per dtype and rounding. */
#define LEAF(name, dtype, rounding)                                          \
  static uint32_t                                                            \
  name (const SimaFwQuantBlock *b, const uint8_t *src, uint8_t *dst,         \
      uint32_t n)                                                            \
  {                                                                          \
    return paired_body (b, src, dst, n, dtype, rounding);                    \
  }
#define LEAVES(tag, dtype)                                                   \
  LEAF (paired_##tag##_rne, dtype, SIMA_ROUNDING_NEAREST_EVEN)               \
  LEAF (paired_##tag##_rtz, dtype, SIMA_ROUNDING_TOWARD_ZERO)                \
  LEAF (paired_##tag##_rtp, dtype, SIMA_ROUNDING_TOWARD_POSITIVE)            \
  LEAF (paired_##tag##_rtn, dtype, SIMA_ROUNDING_TOWARD_NEGATIVE)
LEAVES (f32, SIMA_DTYPE_FLOAT32)
LEAVES (f16, SIMA_DTYPE_FLOAT16)
LEAVES (bf16, SIMA_DTYPE_BFLOAT16)
LEAVES (u8, SIMA_DTYPE_UINT8)

void
simafw_quant_block_init (SimaFwQuantBlock *b, SimaDType dtype,
    const SimaQuantNumerics *numerics)
{
  const uint32_t e = numerics->multiplier_bits >> 23 & 0xffu;
  int row, col;

  b->dtype = dtype;
  b->scalar_bytes = sima_dtype_size (dtype);
  b->numerics = *numerics;
  memcpy (&b->multiplier, &numerics->multiplier_bits, sizeof b->multiplier);
  /* I_min = max(1, 128 - E): an input of exponent field >= I_min times a
   * multiplier of field E is at least 2^-126 */
  b->risky_below = ((e < 127 ? 128u - e : 1u) << 23) - 1u;
  b->exact_only = e == 0;
  row = dtype == SIMA_DTYPE_FLOAT32 ? 0 : dtype == SIMA_DTYPE_FLOAT16 ? 1
      : dtype == SIMA_DTYPE_BFLOAT16 ? 2 : 3;
  col = numerics->rounding == SIMA_ROUNDING_NEAREST_EVEN ? 0
      : numerics->rounding == SIMA_ROUNDING_TOWARD_ZERO ? 1
      : numerics->rounding == SIMA_ROUNDING_TOWARD_POSITIVE ? 2 : 3;
  b->leaf = 4 * row + col;
}

/* One switch per block, then direct calls: no function pointer, so the
 * firmware's stack check sees every frame of the chain. */
uint32_t
simafw_quant_paired (const SimaFwQuantBlock *b, const uint8_t *src,
    uint8_t *dst, uint32_t n)
{
  switch (b->leaf) {
#define CASE(k, tag)                                                         \
    case 4 * k + 0: return paired_##tag##_rne (b, src, dst, n);              \
    case 4 * k + 1: return paired_##tag##_rtz (b, src, dst, n);              \
    case 4 * k + 2: return paired_##tag##_rtp (b, src, dst, n);              \
    case 4 * k + 3: return paired_##tag##_rtn (b, src, dst, n);
    CASE (0, f32)
    CASE (1, f16)
    CASE (2, bf16)
    CASE (3, u8)
#undef CASE
    default:
      return 0;                 /* nothing written: mixed does it all */
  }
}

/* Out of the leaf, so the hot loop keeps its vector state in registers. */
void
simafw_quant_mixed (const SimaFwQuantBlock *b, const uint8_t *src,
    uint8_t *dst, uint32_t from, uint32_t n)
{
  uint32_t i = from;

  for (; i + SIMA_V16_LANES <= n; i += SIMA_V16_LANES) {
    SimaV16f p;
    if (vector_safe (b, src, i, b->dtype, &p))
      finish (dst + i, p, b->numerics.rounding, b->numerics.zero_point);
    else
      exact_run (b, src, dst, i, i + SIMA_V16_LANES);
  }
  exact_run (b, src, dst, i, n);
}

void
simafw_quant_block (const SimaFwQuantBlock *b, const uint8_t *src,
    uint8_t *dst, uint32_t n)
{
  uint32_t done;

  if (b->exact_only) {
    exact_run (b, src, dst, 0, n);
    return;
  }
  done = simafw_quant_paired (b, src, dst, n);
  if (done < n)
    simafw_quant_mixed (b, src, dst, done, n);
}
