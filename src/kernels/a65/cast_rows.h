/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cast_rows.h - the row code of a CastTess leaf, the same on every ISA:
 * included at the end of cast_pixels_<isa>.c, after that file's
 *
 *   rgb16_pad16 (src, type, dst)
 *       16 contiguous RGB pixels into 16 pad16 slots (32 bytes each)
 *   cast8 (s, type, lo, hi)
 *       8 contiguous values: their low bytes at lo, high bytes at hi
 *
 * RGB rows into pad16 slots are recognised once per call and go 16 pixels
 * at a time; what is left of a row, and every other shape, goes through
 * cast_pixels: channel runs of 8 or more 8 at a time (the tail and the
 * padding by the scalar rule), other rows by the scalar reference.
 */
#ifndef SIMA_KERNELS_A65_CAST_ROWS_H
#define SIMA_KERNELS_A65_CAST_ROWS_H

#include <string.h>

SIMA_INLINE void
cast_pixels (const uint8_t *src, int64_t pixel_stride,
    int64_t channel_stride, int64_t pixels, int64_t channels, int64_t stored,
    uint8_t *dst, SrcType type)
{
  const int64_t esize = sima_src_size (type);
  int64_t px, c;

  if (channel_stride == esize && channels >= 8) {
    for (px = 0; px < pixels; px++) {
      const uint8_t *s = src + px * pixel_stride;
      uint8_t *hi = dst + stored;
      for (c = 0; c + 8 <= channels; c += 8)
        cast8 (s + c * esize, type, dst + c, hi + c);
      for (; c < channels; c++) {
        uint16_t v = sima_source_bf16 (s + c * esize, type);
        dst[c] = (uint8_t) v;
        hi[c] = (uint8_t) (v >> 8);
      }
      if (stored > channels) {
        memset (dst + channels, 0, (size_t) (stored - channels));
        memset (hi + channels, 0, (size_t) (stored - channels));
      }
      dst += 2 * stored;
    }
    return;
  }
  sima_cast_pixels_fallback (src, pixel_stride, channel_stride, pixels,
      channels, stored, dst, type);
}

SIMA_INLINE void
cast_rows (const uint8_t *src, int64_t pixel_stride, int64_t channel_stride,
    int64_t pixels, int64_t channels, int64_t stored, uint8_t *dst,
    int64_t rows, int64_t row_stride, SrcType type)
{
  const int64_t esize = sima_src_size (type);
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
