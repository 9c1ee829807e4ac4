/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CastTess block arithmetic of the EV74 firmware (cast_vec.h says what and
 * why). One body, specialised by the compiler for each input dtype (a
 * constant argument of an always-inlined function), so a leaf's loop holds
 * no dtype branch.
 */
#include "cast_vec.h"

#include <string.h>

#include "vec16.h"
#include "widen_vec.h"

/* The BF16 codes of sixteen staged scalars from element i of src. */
SIMA_V16_INLINE SimaV16u
codes (const uint8_t *src, uint32_t i, SimaDType dtype)
{
  SimaV16u bf16 = simafw_v16_bf16_of_bits (simafw_v16_binary32_bits (src, i,
          dtype));

  if (dtype == SIMA_DTYPE_FLOAT16) {
    /* NaN lanes: sign | 0x7fc0 | frac10 >> 3 (not the rule on the widened
     * payload, which would round it) */
    SimaV16u h = sima_v16_load_u16 (src + 2 * (uint64_t) i);
    SimaV16u quiet = (h & 0x8000u) | 0x7fc0u | (h & 0x3ffu) >> 3;
    SimaV16i nan = sima_v16_lt_u (sima_v16_splat_u (0x7c00u), h & 0x7fffu);
    bf16 = sima_v16_select_u (nan, quiet, bf16);
  }
  return bf16;
}

/* Sixteen codes from element i of src into element i of dst. */
SIMA_V16_INLINE void
lanes (const uint8_t *src, uint8_t *dst, uint32_t i, SimaDType dtype)
{
  sima_v16_store_u16 (dst + 2 * (uint64_t) i, codes (src, i, dtype));
}

/* The last n - i (< 16) values, through the same lanes on a zero-padded
 * copy; only their codes are copied out. The copy is taken before any code
 * is written, so it is safe in place too. */
SIMA_V16_INLINE void
tail (const uint8_t *src, uint8_t *dst, uint32_t i, uint32_t n,
    uint32_t scalar, SimaDType dtype)
{
  uint8_t in[4 * SIMA_V16_LANES], out[2 * SIMA_V16_LANES];

  memset (in, 0, sizeof in);
  memcpy (in, src + (uint64_t) i * scalar, (size_t) (n - i) * scalar);
  lanes (in, out, 0, dtype);
  memcpy (dst + 2 * (uint64_t) i, out, (size_t) (n - i) * 2);
}

/* Scalars no narrower than their codes (FP32, FP16, BF16) go first to
 * last: the codes of vector k land on bytes [32k, 32k + 32), at or below
 * its own scalars' bytes, which are loaded before the store; later
 * vectors' scalars lie above. UINT8 codes are twice as wide, so they go
 * last to first: the codes of vector k cover [32k, 32k + 32), which holds
 * no unread scalar (those of earlier vectors end at 16k, and vector k's
 * own are loaded before the store); the tail is at the end and goes
 * first. */
SIMA_V16_INLINE void
body (const uint8_t *src, uint8_t *dst, uint32_t n, SimaDType dtype)
{
  const uint32_t whole = n - n % SIMA_V16_LANES;
  uint32_t i;

  if (dtype == SIMA_DTYPE_UINT8) {
    if (whole < n)
      tail (src, dst, whole, n, 1, dtype);
    for (i = whole; i > 0; i -= SIMA_V16_LANES)
      lanes (src, dst, i - SIMA_V16_LANES, dtype);
    return;
  }
  for (i = 0; i < whole; i += SIMA_V16_LANES)
    lanes (src, dst, i, dtype);
  if (whole < n)
    tail (src, dst, whole, n, dtype == SIMA_DTYPE_FLOAT32 ? 4 : 2, dtype);
}

/* One leaf per input dtype. */
#define LEAF(name, dtype)                                                    \
  static void                                                                \
  name (const uint8_t *src, uint8_t *dst, uint32_t n)                        \
  {                                                                          \
    body (src, dst, n, dtype);                                               \
  }
LEAF (leaf_f32, SIMA_DTYPE_FLOAT32)
LEAF (leaf_f16, SIMA_DTYPE_FLOAT16)
LEAF (leaf_bf16, SIMA_DTYPE_BFLOAT16)
LEAF (leaf_u8, SIMA_DTYPE_UINT8)
#undef LEAF

void
simafw_cast_block_init (SimaFwCastBlock *b, SimaDType dtype)
{
  memset (b, 0, sizeof *b);
  b->dtype = dtype;
}

/* One switch per block, then direct calls: no function pointer, so the
 * firmware's stack check sees every frame of the chain. */
void
simafw_cast_block (const SimaFwCastBlock *b, const uint8_t *src,
    uint8_t *dst, uint32_t n)
{
  switch (b->dtype) {
    case SIMA_DTYPE_FLOAT32:
      leaf_f32 (src, dst, n);
      break;
    case SIMA_DTYPE_FLOAT16:
      leaf_f16 (src, dst, n);
      break;
    case SIMA_DTYPE_BFLOAT16:
      leaf_bf16 (src, dst, n);
      break;
    default:
      leaf_u8 (src, dst, n);
      break;
  }
}
