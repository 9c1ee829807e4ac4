/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dequant_rows.h - the row code of a DetessDequant leaf, the same on every
 * ISA: included at the end of dequant_pixels_<isa>.c, after that file's
 *
 *   DeqVec deq_zero_point (ctx), deq_scale (ctx)
 *       the stages' constants in every lane
 *   deq_rgb_slots (ctx, src, pixels, channels, stored, dst, pixel_stride,
 *       z, scale, bf16)
 *       one row of 3-4 channel pixels from slots of a multiple of 16
 *       bytes into contiguous output pixels
 *   deq_rgb_pixels (the same arguments)
 *       the same from slots of 4 or more bytes
 *   deq16 (s, d, z, scale, bf16), deq8_to (s, d, z, scale, bf16)
 *       16 or 8 contiguous values into as many contiguous results
 *
 * RGB rows from pad16 slots and 16-channel runs (C16 tiles of wider
 * tensors) are recognised once per call; other shapes go row by row
 * through dequant_pixels: RGB rows from smaller slots, channel runs of 8
 * or more (16, then 8 at a time, the tail from the exact table), other
 * rows by the scalar reference.
 */
#ifndef SIMA_KERNELS_A65_DEQUANT_ROWS_H
#define SIMA_KERNELS_A65_DEQUANT_ROWS_H

SIMA_INLINE void
dequant_pixels (const SimaA65DequantCtx *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride, int bf16)
{
  const int64_t esize = bf16 ? 2 : 4;
  const DeqVec z = deq_zero_point (ctx), scale = deq_scale (ctx);
  int64_t px, c;

  if (channel_stride == esize && pixel_stride == channels * esize
      && channels >= 3 && channels <= 4 && stored >= 4) {
    deq_rgb_pixels (ctx, src, pixels, channels, stored, dst, pixel_stride, z,
        scale, bf16);
    return;
  }
  if (channel_stride == esize && channels >= 8) {
    for (px = 0; px < pixels; px++) {
      const uint8_t *s = src + px * stored;
      uint8_t *d = dst + px * pixel_stride;
      for (c = 0; c + 16 <= channels; c += 16)
        deq16 (s + c, d + c * esize, z, scale, bf16);
      for (; c + 8 <= channels; c += 8)
        deq8_to (s + c, d + c * esize, z, scale, bf16);
      for (; c < channels; c++)
        sima_dequant_store1 (d + c * esize, ctx, s[c], bf16);
    }
    return;
  }
  sima_dequant_pixels_fallback (ctx, src, pixels, channels, stored, dst,
      pixel_stride, channel_stride, bf16);
}

SIMA_INLINE void
dequant_rows (const SimaA65DequantCtx *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride, int64_t rows,
    int64_t row_stride, int bf16)
{
  const int64_t esize = bf16 ? 2 : 4;
  const DeqVec z = deq_zero_point (ctx), scale = deq_scale (ctx);
  int64_t r, px;

  if (channel_stride == esize && pixel_stride == channels * esize
      && channels >= 3 && channels <= 4 && stored % 16 == 0) {
    for (r = 0; r < rows; r++, src += pixels * stored, dst += row_stride)
      deq_rgb_slots (ctx, src, pixels, channels, stored, dst, pixel_stride,
          z, scale, bf16);
    return;
  }
  if (channel_stride == esize && channels == 16) {
    for (r = 0; r < rows; r++, dst += row_stride)
      for (px = 0; px < pixels; px++, src += stored)
        deq16 (src, dst + px * pixel_stride, z, scale, bf16);
    return;
  }
  for (r = 0; r < rows; r++)
    dequant_pixels (ctx, src + r * pixels * stored, pixels, channels, stored,
        dst + r * row_stride, pixel_stride, channel_stride, bf16);
}

#endif /* SIMA_KERNELS_A65_DEQUANT_ROWS_H */
