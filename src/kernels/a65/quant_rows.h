/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * quant_rows.h - the row code of a QuantTess leaf, the same on every ISA:
 * included at the end of quant_pixels_<isa>.c, after that file's
 *
 *   QuantConst quant_const (const SimaQuantNumerics *q)
 *   rgb16_pad16 (src, const QuantConst *k, type, mode, dst)
 *       16 contiguous RGB pixels into 16 pad16 slots
 *   pixel2x16 (s0, s1, const QuantConst *k, type, mode, dst)
 *       two pixels of 16 channels into 32 contiguous bytes
 *   quant_run (q, src, n, dst, const QuantConst *k, type, mode)
 *       n contiguous values into n bytes
 *   spread (run, pixels, channels, stored, zero_point, dst)
 *       pixels packed in a run into slots of stored bytes (stored % 16 ==
 *       0), reading up to 16 bytes past the run's values
 *
 * The two shapes of whole tiles are recognised once per call, their
 * constants set once: RGB rows into pad16 slots, 16 pixels at a time, and
 * 16-channel runs with a pixel stride (C16 tiles of wider tensors) into
 * compact slots, two pixels at a time. What is left of a row, and every
 * other shape, goes through quant_pixels: contiguous pixels as one run
 * (spread into pad16 slots through a stack buffer), channel runs of 8 or
 * more with a pixel stride pixel by pixel, other rows by the scalar
 * reference.
 */
#ifndef SIMA_KERNELS_A65_QUANT_ROWS_H
#define SIMA_KERNELS_A65_QUANT_ROWS_H

#include <string.h>

/* Pixels quantized per run: the run buffer holds them plus a vector of
 * slack, so the spreading loads never leave it. */
#define SIMA_QUANT_RUN_ELEMENTS 1024

SIMA_INLINE void
quant_pixels (const void *ctx, const uint8_t *src, int64_t pixel_stride,
    int64_t channel_stride, int64_t pixels, int64_t channels,
    int64_t stored, uint8_t *dst, SrcType type, int mode)
{
  const SimaQuantNumerics *q = ctx;
  const QuantConst k = quant_const (q);
  const int64_t esize = type == SRC_F32 ? 4 : 2;
  int64_t px;

  if (channel_stride == esize && pixel_stride == channels * esize) {
    if (stored == channels) {
      quant_run (q, src, pixels * channels, dst, &k, type, mode);
      return;
    }
    if (stored % 16 == 0 && channels <= SIMA_QUANT_RUN_ELEMENTS) {
      uint8_t run[SIMA_QUANT_RUN_ELEMENTS + 16];
      int64_t step = SIMA_QUANT_RUN_ELEMENTS / channels;
      for (px = 0; px < pixels; px += step) {
        int64_t n = pixels - px < step ? pixels - px : step;
        quant_run (q, src + px * pixel_stride, n * channels, run, &k, type,
            mode);
        spread (run, n, channels, stored, (uint8_t) q->zero_point,
            dst + px * stored);
      }
      return;
    }
  } else if (channel_stride == esize && channels >= 8) {
    for (px = 0; px < pixels; px++) {
      quant_run (q, src + px * pixel_stride, channels, dst, &k, type, mode);
      if (stored > channels)
        memset (dst + channels, (uint8_t) q->zero_point,
            (size_t) (stored - channels));
      dst += stored;
    }
    return;
  }
  sima_quant_pixels_fallback (ctx, src, pixel_stride, channel_stride,
      pixels, channels, stored, dst, type);
}

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
