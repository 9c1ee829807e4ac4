/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * detess_cast_rows.h - the row code of a DetessCast leaf, the same on every
 * ISA: included at the end of detess_cast_pixels_<isa>.c, after that
 * file's
 *
 *   dc16 (lo, hi, d, f32), dc8 (lo, hi, d, f32)
 *       16 or 8 channels from a pixel's low plane at lo and high plane at
 *       hi (loads of exactly 16 or 8 bytes) into as many contiguous
 *       results at d
 *   dc_px4 (slot, stored, d, f32)
 *       the first 4 channels of a pixel slot whose planes are multiples of
 *       16 bytes (16-byte loads at slot and slot + stored, inside the slot)
 *       into 4 contiguous results at d
 *   dc_px4x2 (slot, stored, step, d, pixel_stride, f32)
 *       dc_px4 for the slot and the one `step` bytes later, the first
 *       stored first (AVX2 does both in one vector)
 *
 * Shapes decided once per call: contiguous pixels of 3-4 channels from
 * pad16 slots (dc_px4x2 / dc_px4 per pixel; for 3 channels the fourth
 * result lands on the next pixel, which is written right after; the row's last
 * pixel goes element by element, so nothing beyond the row's elements is
 * written), and 16-channel runs. Other rows go through
 * detess_cast_pixels: channel runs of 8 or more 16, then 8 at a time, the
 * tail element by element; anything else by the scalar reference. Loads
 * never leave the value channels' planes except inside pad16 slots, so no
 * leaf reads beyond the rows it is given.
 */
#ifndef SIMA_KERNELS_A65_DETESS_CAST_ROWS_H
#define SIMA_KERNELS_A65_DETESS_CAST_ROWS_H

SIMA_INLINE void
detess_cast_pixels (const uint8_t *src, int64_t pixels, int64_t channels,
    int64_t stored, uint8_t *dst, int64_t pixel_stride,
    int64_t channel_stride, int f32)
{
  const int64_t esize = f32 ? 4 : 2;
  int64_t px, c;

  if (channel_stride == esize && channels >= 8) {
    for (px = 0; px < pixels; px++) {
      const uint8_t *lo = src + px * 2 * stored, *hi = lo + stored;
      uint8_t *d = dst + px * pixel_stride;
      for (c = 0; c + 16 <= channels; c += 16)
        dc16 (lo + c, hi + c, d + c * esize, f32);
      for (; c + 8 <= channels; c += 8)
        dc8 (lo + c, hi + c, d + c * esize, f32);
      for (; c < channels; c++)
        sima_detess_cast_store1 (d + c * esize, lo[c], hi[c], f32);
    }
    return;
  }
  sima_detess_cast_pixels_fallback (src, pixels, channels, stored, dst,
      pixel_stride, channel_stride, f32);
}

SIMA_INLINE void
detess_cast_rows (const uint8_t *src, int64_t pixels, int64_t channels,
    int64_t stored, uint8_t *dst, int64_t pixel_stride,
    int64_t channel_stride, int64_t rows, int64_t row_stride, int f32)
{
  const int64_t esize = f32 ? 4 : 2, pixel_bytes = 2 * stored;
  int64_t r, px, c;

  if (channel_stride == esize && pixel_stride == channels * esize
      && channels >= 3 && channels <= 4 && stored % 16 == 0) {
    for (r = 0; r < rows; r++, dst += row_stride) {
      const uint8_t *s = src + r * pixels * pixel_bytes;
      /* pairs while a pixel follows the pair, then singles, then the
       * last pixel exactly */
      for (px = 0; px + 2 < pixels; px += 2)
        dc_px4x2 (s + px * pixel_bytes, stored, pixel_bytes,
            dst + px * pixel_stride, pixel_stride, f32);
      for (; px + 1 < pixels; px++)
        dc_px4 (s + px * pixel_bytes, stored, dst + px * pixel_stride, f32);
      s += px * pixel_bytes;
      for (c = 0; c < channels; c++)
        sima_detess_cast_store1 (dst + px * pixel_stride + c * esize, s[c],
            s[stored + c], f32);
    }
    return;
  }
  if (channel_stride == esize && channels == 16) {
    for (r = 0; r < rows; r++, dst += row_stride)
      for (px = 0; px < pixels; px++, src += pixel_bytes)
        dc16 (src, src + stored, dst + px * pixel_stride, f32);
    return;
  }
  for (r = 0; r < rows; r++)
    detess_cast_pixels (src + r * pixels * pixel_bytes, pixels, channels,
        stored, dst + r * row_stride, pixel_stride, channel_stride, f32);
}

#endif /* SIMA_KERNELS_A65_DETESS_CAST_ROWS_H */
