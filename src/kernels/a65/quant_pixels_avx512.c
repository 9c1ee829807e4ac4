/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SCAFFOLDING, replaced before this lands: forwards to the AVX2 leaves. */
#include "quant_pixels.h"
#define FWD(t) void sima_quant_pixels_##t##_avx512 (const void *ctx, const uint8_t *src, int64_t a, int64_t b, int64_t c, int64_t d, int64_t e, uint8_t *dst, int64_t r, int64_t rs) { sima_quant_pixels_##t##_avx2 (ctx, src, a, b, c, d, e, dst, r, rs); }
FWD (f32) FWD (f16) FWD (bf16) FWD (u8)
