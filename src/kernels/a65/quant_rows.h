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
 *   and, where it defines SIMA_QUANT_PIXEL4X16,
 *   pixel4x16 (s, pixel_stride, const QuantConst *k, type, mode, dst)
 *       four pixels of 16 channels into 64 contiguous bytes (the
 *       two-pixel step then takes what is left)
 *   quant_run (q, src, n, dst, const QuantConst *k, type, mode)
 *       n contiguous values into n bytes
 *   spread (run, pixels, channels, step, stored, zero_point, dst)
 *       pixels `step` bytes apart in a run into slots of stored bytes
 *       (stored % 16 == 0), reading up to 16 bytes past the run's values
 *
 * The two shapes of whole tiles are recognised once per call, their
 * constants set once: RGB rows into pad16 slots, 16 pixels at a time, and
 * 16-channel runs with a pixel stride (C16 tiles of wider tensors) into
 * compact slots, two pixels at a time. What is left of a row, and every
 * other shape, goes through quant_pixels: contiguous pixels as one run
 * (spread into pad16 slots through a stack buffer), channel runs of 8 or
 * more with a pixel stride pixel by pixel, other rows by the scalar
 * reference. UINT8 pixels with small holes between them (RGBx: 3 values
 * in 4 bytes, the camera case) are one run too, holes included, see
 * quant_holey_u8.
 *
 * What a leaf loads: only bytes inside the view's span (never past the
 * last value of a row, so a view ending at an unmapped page is safe); the
 * float paths load values only, and the UINT8 hole path loads the holes
 * between a row's pixels but never lets them reach an output byte.
 */
#ifndef SIMA_KERNELS_A65_QUANT_ROWS_H
#define SIMA_KERNELS_A65_QUANT_ROWS_H

#include <string.h>

/* Pixels quantized per run: the run buffer holds them plus a vector of
 * slack, so the spreading loads never leave it. */
#define SIMA_QUANT_RUN_ELEMENTS 1024

/* UINT8 pixels of `channels` contiguous values, pixel_stride bytes apart
 * (channels < pixel_stride <= 2 * channels): the bytes from the first
 * value to the last are quantized as one contiguous run, the holes
 * between pixels with them, and only the value bytes are then kept. A
 * hole of a UINT8 view is just a byte (any of its 256 values is a valid
 * input), its result is dropped, and the run ends at the last value, so
 * nothing beyond the view's span is loaded and no hole becomes a value.
 * One vector pass over at most twice the values beats the scalar
 * reference by far; float views are not read this way (their holes could
 * be anything, and are never loaded). */
SIMA_INLINE void
quant_holey_u8 (const SimaQuantNumerics *q, const uint8_t *src,
    int64_t pixel_stride, int64_t pixels, int64_t channels, int64_t stored,
    uint8_t *dst, const QuantConst *k, int mode)
{
  uint8_t run[SIMA_QUANT_RUN_ELEMENTS + 16];
  const int64_t step = (SIMA_QUANT_RUN_ELEMENTS - channels) / pixel_stride
      + 1;
  int64_t px, i, c;

  for (px = 0; px < pixels; px += step) {
    const int64_t n = pixels - px < step ? pixels - px : step;
    uint8_t *d = dst + px * stored;
    quant_run (q, src + px * pixel_stride, (n - 1) * pixel_stride + channels,
        run, k, SRC_U8, mode);
    if (stored % 16 == 0) {
      spread (run, n, channels, pixel_stride, stored,
          (uint8_t) q->zero_point, d);
      continue;
    }
    for (i = 0; i < n; i++, d += stored) {  /* compact slots */
      for (c = 0; c < channels; c++)
        d[c] = run[i * pixel_stride + c];
      if (stored > channels)
        memset (d + channels, (uint8_t) q->zero_point,
            (size_t) (stored - channels));
    }
  }
}

SIMA_INLINE void
quant_pixels (const void *ctx, const uint8_t *src, int64_t pixel_stride,
    int64_t channel_stride, int64_t pixels, int64_t channels,
    int64_t stored, uint8_t *dst, SrcType type, int mode)
{
  const SimaQuantNumerics *q = ctx;
  const QuantConst k = quant_const (q);
  const int64_t esize = sima_src_size (type);
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
        spread (run, n, channels, channels, stored, (uint8_t) q->zero_point,
            dst + px * stored);
      }
      return;
    }
  } else if (type == SRC_U8 && channel_stride == 1
      && pixel_stride > channels && pixel_stride <= 2 * channels
      && pixel_stride <= SIMA_QUANT_RUN_ELEMENTS / 16) {
    quant_holey_u8 (q, src, pixel_stride, pixels, channels, stored, dst, &k,
        mode);
    return;
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
  const int64_t esize = sima_src_size (type);
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
#ifdef SIMA_QUANT_PIXEL4X16
      for (; px + 4 <= pixels; px += 4, dst += 64)
        pixel4x16 (src + px * pixel_stride, pixel_stride, &k, type, mode,
            dst);
#endif
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
