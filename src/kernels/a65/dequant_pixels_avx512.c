/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SCAFFOLDING, replaced before this lands: forwards to the scalar table. */
#include "dequant_pixels.h"
#define FWD(t) void sima_dequant_pixels_##t##_avx512 (const void *ctx, const uint8_t *src, int64_t a, int64_t b, int64_t c, uint8_t *dst, int64_t d, int64_t e, int64_t r, int64_t rs) { sima_dequant_pixels_##t##_c (ctx, src, a, b, c, dst, d, e, r, rs); }
FWD (f32) FWD (bf16)
