/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/a65/leaves.h - the shapes of the A65 executors' leaves.
 *
 * A65 executors walk tiles in physical order (one copy of that walk, shared
 * by all operations) and hand each row of pixels to a leaf chosen once, at
 * preparation. These types are public only because the fixed-size A65 plans
 * hold the chosen leaves; callers never call them.
 */
#ifndef SIMAAI_KERNELS_A65_LEAVES_H
#define SIMAAI_KERNELS_A65_LEAVES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Converts `rows` rows of `pixels` pixels of `channels` channels, read
 * from a dense view (row r at src + r * row_stride; byte strides between
 * pixels and between channels), into consecutive rows of a tile at dst:
 * `stored_channels` channels per pixel in the output encoding, padding
 * channels included. One call per tile depth slice: the fixed cost of a
 * call is paid once for all its rows. */
typedef void (*SimaA65PackFn) (const void *ctx, const uint8_t *src,
    int64_t pixel_stride, int64_t channel_stride, int64_t pixels,
    int64_t channels, int64_t stored_channels, uint8_t *dst, int64_t rows,
    int64_t row_stride);

/* Converts `rows` consecutive rows of `pixels` tile pixels at src into a
 * dense view: INT8 pixels of `stored_channels` bytes (DetessDequant) or
 * BF16 byte-plane pixels of 2 * `stored_channels` bytes, the low plane then
 * the high plane (DetessCast); the first `channels` of each pixel's
 * stored channels are values. The view has row r at dst + r *
 * row_stride and byte strides between pixels and between channels.
 * Padding values never reach the output (SIMD leaves may load whole slots,
 * never beyond the rows). */
typedef void (*SimaA65UnpackFn) (const void *ctx, const uint8_t *src,
    int64_t pixels, int64_t channels, int64_t stored_channels, uint8_t *dst,
    int64_t pixel_stride, int64_t channel_stride, int64_t rows,
    int64_t row_stride);

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_A65_LEAVES_H */
