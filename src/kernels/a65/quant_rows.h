/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * quant_rows.h - the rows of a QuantTess leaf call (a tile's depth slice),
 * the same on every ISA: included at the end of quant_pixels_<isa>.c, after
 * that file's
 *
 *   QuantConst quant_const (const SimaQuantNumerics *q)
 *   rgb16_pad16 (src, const QuantConst *k, type, mode, dst)
 *       16 contiguous RGB pixels into 16 pad16 slots
 *   pixel2x16 (s0, s1, const QuantConst *k, type, mode, dst)
 *       two pixels of 16 channels into 32 contiguous bytes
 *   quant_pixels (ctx, src, pixel_stride, channel_stride, pixels,
 *       channels, stored, dst, type, mode)
 *       any row
 *
 * The two shapes of whole tiles are recognised once per call, their
 * constants set once: RGB rows into pad16 slots, 16 pixels at a time, and
 * 16-channel runs with a pixel stride (C16 tiles of wider tensors) into
 * compact slots, two pixels at a time. What is left of a row, and every
 * other shape, goes through quant_pixels.
 */
#ifndef SIMA_KERNELS_A65_QUANT_ROWS_H
#define SIMA_KERNELS_A65_QUANT_ROWS_H

SIMA_INLINE void
quant_rows (const void *ctx, const uint8_t *src, int64_t pixel_stride,
    int64_t channel_stride, int64_t pixels, int64_t channels,
    int64_t stored, uint8_t *dst, int64_t rows, int64_t row_stride,
    SrcType type, int mode)
{
  const int64_t esize = type == SRC_F32 ? 4 : 2;
  const QuantConst k = quant_const (ctx);
  int64_t r, px, step = 0;

  if (channel_stride == esize && channels == 3 && pixel_stride == 3 * esize
      && stored == 16)
    step = 16;
  else if (channel_stride == esize && channels == 16 && stored == 16
      && pixel_stride != 16 * esize)
    step = 2;
  for (r = 0; r < rows; r++, src += row_stride) {
    px = 0;
    if (step == 16) {
      for (; px + 16 <= pixels; px += 16, dst += 16 * 16)
        rgb16_pad16 (src + px * pixel_stride, &k, type, mode, dst);
    } else if (step == 2) {
      for (; px + 2 <= pixels; px += 2, dst += 32)
        pixel2x16 (src + px * pixel_stride, src + (px + 1) * pixel_stride, &k,
            type, mode, dst);
    }
    if (px < pixels) {
      quant_pixels (ctx, src + px * pixel_stride, pixel_stride,
          channel_stride, pixels - px, channels, stored, dst, type, mode);
      dst += (pixels - px) * stored;
    }
  }
}

#endif /* SIMA_KERNELS_A65_QUANT_ROWS_H */
