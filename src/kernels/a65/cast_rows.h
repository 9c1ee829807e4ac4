/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cast_rows.h - the rows of a CastTess leaf call (a tile's depth slice),
 * the same on every ISA: included at the end of cast_pixels_<isa>.c, after
 * that file's
 *
 *   rgb16_pad16 (src, type, dst)
 *       16 contiguous RGB pixels into 16 pad16 slots (32 bytes each)
 *   cast_pixels (src, pixel_stride, channel_stride, pixels, channels,
 *       stored, dst, type)
 *       any row
 *
 * RGB rows into pad16 slots are recognised once per call and go 16 pixels
 * at a time; what is left of a row, and every other shape, goes through
 * cast_pixels.
 */
#ifndef SIMA_KERNELS_A65_CAST_ROWS_H
#define SIMA_KERNELS_A65_CAST_ROWS_H

SIMA_INLINE void
cast_rows (const uint8_t *src, int64_t pixel_stride, int64_t channel_stride,
    int64_t pixels, int64_t channels, int64_t stored, uint8_t *dst,
    int64_t rows, int64_t row_stride, SrcType type)
{
  const int64_t esize = type == SRC_F32 ? 4 : 2;
  const int rgb = channel_stride == esize && channels == 3
      && pixel_stride == 3 * esize && stored == 16;
  int64_t r, px;

  for (r = 0; r < rows; r++, src += row_stride) {
    px = 0;
    if (rgb)
      for (; px + 16 <= pixels; px += 16, dst += 16 * 32)
        rgb16_pad16 (src + px * pixel_stride, type, dst);
    if (px < pixels) {
      cast_pixels (src + px * pixel_stride, pixel_stride, channel_stride,
          pixels - px, channels, stored, dst, type);
      dst += (pixels - px) * stored * 2;
    }
  }
}

#endif /* SIMA_KERNELS_A65_CAST_ROWS_H */
