/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dequant_table_rows.h - the row code of a DetessDequant table leaf (one
 * that looks the plan's exact table up in vectors), the same on every
 * ISA: included at the end of dequant_pixels_avx512.c and
 * dequant_pixels_neon.c, after that file's
 *
 *   Planes split_planes (ctx, bf16)
 *       the table as byte planes, once per call
 *   deq_run (&planes, s, n, d, bf16)
 *       n contiguous INT8 values -> n contiguous results (any n)
 *   deq_c16_row (&planes, s, pixels, d, pixel_stride, bf16)
 *       a row of 16-channel pixels (inputs contiguous) at a pixel stride
 *   deq_rgb16_row (&planes, s, pixels, channels, d, bf16)
 *       a row of 3-4 channel pixels from 16-byte slots into contiguous
 *       output pixels
 *
 * The shapes are those of dequant_rows.h (the lane leaves' driver), whose
 * step is 16 values; a table lookup is a 64-value step on AVX-512, so the
 * recognition is regrouped: rows whose inputs and outputs are both
 * contiguous (stored == channels: compact tiles, C16 runs into a 16-channel
 * view) go as one run whatever the channel count, 16-channel runs at a
 * pixel stride four pixels per step, RGB rows from pad16 slots 16 pixels
 * per step, other channel runs of 8 or more as one run per pixel, and the
 * rest (channel strides, short runs from wider slots) by the scalar
 * reference. Padding channels are never read into a result.
 */
#ifndef SIMA_KERNELS_A65_DEQUANT_TABLE_ROWS_H
#define SIMA_KERNELS_A65_DEQUANT_TABLE_ROWS_H

SIMA_INLINE void
dequant_table_rows (const SimaA65DequantCtx *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride, int64_t rows,
    int64_t row_stride, int bf16)
{
  const int64_t esize = bf16 ? 2 : 4;
  const int dense = channel_stride == esize
      && pixel_stride == channels * esize;
  const Planes planes = split_planes (ctx, bf16);
  int64_t r, px;

  for (r = 0; r < rows; r++, src += pixels * stored, dst += row_stride) {
    if (dense && stored == channels) {
      deq_run (&planes, src, pixels * channels, dst, bf16);
    } else if (channel_stride == esize && channels == 16 && stored == 16) {
      deq_c16_row (&planes, src, pixels, dst, pixel_stride, bf16);
    } else if (dense && channels >= 3 && channels <= 4 && stored == 16) {
      deq_rgb16_row (&planes, src, pixels, channels, dst, bf16);
    } else if (channel_stride == esize && channels >= 8) {
      for (px = 0; px < pixels; px++)
        deq_run (&planes, src + px * stored, channels,
            dst + px * pixel_stride, bf16);
    } else {
      sima_dequant_pixels_fallback (ctx, src, pixels, channels, stored, dst,
          pixel_stride, channel_stride, bf16);
    }
  }
}

/* A DetessDequant table leaf over dequant_table_rows. */
#define SIMA_DEQUANT_TABLE_LEAF(name, BF16)                                   \
  SIMA_DEQUANT_LEAF_OVER (dequant_table_rows, name, BF16)

#endif /* SIMA_KERNELS_A65_DEQUANT_TABLE_ROWS_H */
