/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DetessDequant block arithmetic of the EV74 firmware (dequant_vec.h says
 * what and why). The vector leaves are one body specialised by the
 * compiler for each output dtype and convention (constant arguments of an
 * always-inlined function), so the loop holds no dtype or convention
 * branch; the table path is the exact stages' results looked up by byte.
 */
#include "dequant_vec.h"

#include "numerics/dequant_exact.h"
#include "vec16.h"
#include "widen_vec.h"

/* 2^126 (field 253): the largest scale whose DIVIDE quotients stay normal
 * (admission proof below). */
#define SCALE_2P126 0x7e800000u

/* ---- the admitted vector path ------------------------------------------- */

/* Sixteen INT8 values at src -> sixteen results at dst: the stages of
 * ../shared/seeds/002 in binary32 hardware arithmetic, each a separate
 * operation (the build has -ffp-contract=off; nothing here has the a * b + c
 * shape an FMA would take anyway).
 *
 * No NaN can arise: q and z are finite integers, scale is finite and > 0,
 * so there is no inf - inf, 0 * inf or 0 / 0. So the BF16 narrowing needs
 * no NaN case: for every non-NaN pattern (at most 0xff800000, -infinity)
 * adding at most 0x8000 cannot carry out of bit 31 nor across the sign,
 * infinities stay infinite (0x7f800000 + 0x7fff -> 0x7f80), and a finite
 * value rounding past the largest BF16 becomes infinity, the nearest-even
 * overflow (simafw_v16_bf16_of_bits, the vector form of
 * numerics/bf16_convert.h's sima_bf16_from_f32_bits). */
SIMA_V16_INLINE void
lanes (uint8_t *dst, const uint8_t *src, SimaV16f zero, SimaV16f scale,
    int bf16, int divide)
{
  /* exact: |q| <= 128 */
  SimaV16f x = sima_v16_cvt_f (sima_v16_load_i8 (src));
  SimaV16f d = x - zero;
  SimaV16f r;

  if (divide)
    r = d / scale;
  else
    r = d * scale;
  if (bf16) {
    SimaV16u bits = sima_v16_as_u (r);
    sima_v16_store_u16 (dst, simafw_v16_bf16_of_bits (bits));
  } else {
    sima_v16_store_f (dst, r);
  }
}

/* n values, sixteen at a time. The last n % 16 go through the same lanes()
 * on a zero-padded copy of their bytes, and only their results are copied
 * out: the tail's bits are the body's by construction (the same
 * instructions, so the admission proof covers them unchanged and there is
 * no second expression of the stages to keep in step), and the block reads
 * exactly its n source bytes and writes exactly its n results (the pad
 * lanes' values are discarded). A scalar tail would be a second copy of
 * the stages, in scalar FP arithmetic the device may configure apart from
 * its vector unit; the table does not exist for admitted scales, and
 * building it would cost the 256 exact evaluations this path saves. */
SIMA_V16_INLINE void
vector_body (const SimaFwDequantBlock *b, const uint8_t *src, uint8_t *dst,
    uint32_t n, int bf16, int divide)
{
  const SimaV16f zero = sima_v16_splat_f (b->zero);
  const SimaV16f scale = sima_v16_splat_f (b->scale);
  const uint32_t size = bf16 ? 2 : 4;
  uint32_t i;

  for (i = 0; i + SIMA_V16_LANES <= n; i += SIMA_V16_LANES)
    lanes (dst + (uint64_t) i * size, src + i, zero, scale, bf16, divide);
  if (i < n) {
    uint8_t q[SIMA_V16_LANES], r[4 * SIMA_V16_LANES];
    memset (q, 0, sizeof q);
    memcpy (q, src + i, n - i);
    lanes (r, q, zero, scale, bf16, divide);
    memcpy (dst + (uint64_t) i * size, r, (size_t) (n - i) * size);
  }
}

/* One leaf per output dtype and convention. */
#define LEAF(name, bf16, divide)                                             \
  static void                                                                \
  name (const SimaFwDequantBlock *b, const uint8_t *src, uint8_t *dst,       \
      uint32_t n)                                                            \
  {                                                                          \
    vector_body (b, src, dst, n, bf16, divide);                              \
  }
LEAF (leaf_f32_mul, 0, 0)
LEAF (leaf_f32_div, 0, 1)
LEAF (leaf_bf16_mul, 1, 0)
LEAF (leaf_bf16_div, 1, 1)
#undef LEAF

/* ---- the exact table ----------------------------------------------------- */

static void
table_run (const SimaFwDequantBlock *b, const uint8_t *src, uint8_t *dst,
    uint32_t n)
{
  uint32_t i;

  if (b->dtype == SIMA_DTYPE_FLOAT32) {
    for (i = 0; i < n; i++) {
      uint32_t v = b->table.f32[src[i]];
      dst[4 * (uint64_t) i] = (uint8_t) v;
      dst[4 * (uint64_t) i + 1] = (uint8_t) (v >> 8);
      dst[4 * (uint64_t) i + 2] = (uint8_t) (v >> 16);
      dst[4 * (uint64_t) i + 3] = (uint8_t) (v >> 24);
    }
  } else {
    for (i = 0; i < n; i++) {
      uint16_t v = b->table.bf16[src[i]];
      dst[2 * (uint64_t) i] = (uint8_t) v;
      dst[2 * (uint64_t) i + 1] = (uint8_t) (v >> 8);
    }
  }
}

/* ---- preparation --------------------------------------------------------- */

/* The admission: the vector path gives exactly the exact stages' bits,
 * whatever the device does with subnormal operands (DAZ) and results
 * (FTZ, with tininess detected before or after rounding), when
 *
 *   the scale is normal, and for DIVIDE also scale <= 2^126.
 *
 * Proof. z = RNE_f32(zero_point) is an integer-valued binary32 (computed
 * in integers here), so z == 0 or |z| >= 1, and FP32(q) is exact (|q| <=
 * 128): neither operand of the subtraction is subnormal. q - z is an
 * integer: it is 0 exactly when q == z, and then x - x gives +0 under
 * round to nearest, as the exact stages do (dequant_exact.h: "q - z == 0
 * gives +0"); otherwise |q - z| >= 1, and since rounding is monotone and 1
 * is a binary32, |d| >= 1. The hardware subtraction is correctly rounded,
 * so d = RNE_f32(q - z) and it is +0 or normal.
 *   MULTIPLY: both operands are normal (or d = +0), so DAZ changes
 * nothing. d = +0 gives +0 * scale = +0 (scale > 0), the exact stages'
 * +0. Otherwise the exact product has magnitude >= scale >= 2^-126 (the
 * smallest normal), and so has its rounding (monotone, 2^-126
 * representable): it is never tiny before or after rounding, so FTZ cannot
 * act, and the correctly rounded product is RNE_f32(d * scale), overflow
 * to infinity included (the exact stages' rounding gives infinity beyond
 * the largest finite value as IEEE nearest-even does).
 *   DIVIDE: the same for the operands and for d = +0 (+0 / scale = +0).
 * Otherwise |d / scale| >= 1 / scale, which is >= 2^-126 exactly when
 * scale <= 2^126: at 2^126 itself d = +-1 gives exactly +-2^-126, normal;
 * at the next binary32, 2^126 (1 + 2^-23), d = +-1 gives a quotient just
 * below 2^-126 that rounds to the subnormal 0x007fffff, which FTZ would
 * flush. Overflow (a small scale) gives infinity on both sides.
 *   Outside (a subnormal scale: DAZ would read it as 0, and products can be
 * subnormal; DIVIDE with scale > 2^126) the table of the exact stages is
 * used, built here once per job. The device build must give IEEE,
 * correctly rounded binary32 division (OpenCL C's default float division
 * is allowed 2.5 ulp: -cl-fp32-correctly-rounded-divide-sqrt). */
void
simafw_dequant_block_init (SimaFwDequantBlock *b, SimaDType dtype,
    uint32_t scale_bits, int32_t zero_point, SimaScaleConvention convention)
{
  /* RNE_f32(zero_point) in integers (|zero_point| <= 2^31, exponent 0):
   * no FP conversion, so no FP environment and no runtime call for a
   * 64-bit conversion on the 32-bit device */
  const uint32_t z_mag = zero_point < 0 ? 0u - (uint32_t) zero_point
      : (uint32_t) zero_point;
  const uint32_t z_bits = sima_binary32_round (zero_point < 0, z_mag, 0);
  int i;

  memset (b, 0, sizeof *b);
  b->dtype = dtype;
  b->divide = convention == SIMA_SCALE_DIVIDE;
  memcpy (&b->scale, &scale_bits, sizeof b->scale);
  memcpy (&b->zero, &z_bits, sizeof b->zero);
  b->use_table = (scale_bits & 0x7f800000u) == 0
      || (b->divide && scale_bits > SCALE_2P126);
  b->leaf = 2 * (dtype != SIMA_DTYPE_FLOAT32) + b->divide;
  if (!b->use_table)
    return;
  for (i = 0; i < 256; i++) {
    int8_t q = (int8_t) (uint8_t) i;
    if (dtype == SIMA_DTYPE_FLOAT32)
      b->table.f32[i] = sima_dequant_f32_bits (q, scale_bits, zero_point,
          b->divide);
    else
      b->table.bf16[i] = sima_dequant_bf16_bits (q, scale_bits, zero_point,
          b->divide);
  }
}

/* ---- the block ---------------------------------------------------------- */

/* One switch per block, then direct calls: no function pointer, so the
 * firmware's stack check sees every frame of the chain. */
void
simafw_dequant_block (const SimaFwDequantBlock *b, const uint8_t *src_int8,
    uint8_t *dst, uint32_t n)
{
  if (b->use_table) {
    table_run (b, src_int8, dst, n);
    return;
  }
  switch (b->leaf) {
    case 0:
      leaf_f32_mul (b, src_int8, dst, n);
      break;
    case 1:
      leaf_f32_div (b, src_int8, dst, n);
      break;
    case 2:
      leaf_bf16_mul (b, src_int8, dst, n);
      break;
    default:
      leaf_bf16_div (b, src_int8, dst, n);
      break;
  }
}
