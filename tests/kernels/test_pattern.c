/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test-tensor patterns (pattern.h): exact roundings into every dtype,
 * ramps, deterministic seeded random values, special values; the name
 * parsers; and the default tiling.
 */
#include <simaai/kernels/layout.h>
#include <simaai/kernels/ops/quanttess.h>
#include <simaai/kernels/pattern.h>

#include <math.h>
#include <string.h>

#include "tap.h"
#include "test_util.h"

/* Stores one constant and returns the raw bits. */
static uint32_t
constant_bits (SimaDType dtype, double v)
{
  int64_t one = 1;
  SimaTensorSpec s = test_spec_dense (dtype, 1, &one);
  SimaPatternParams p = { SIMA_PATTERN_CONSTANT, 0, 0, v, 0 };
  uint8_t b[4] = { 0 };
  uint32_t bits = 0;
  sima_pattern_fill (&s, &p, 0, b, sizeof b);
  memcpy (&bits, b, (size_t) sima_dtype_size (dtype));
  return bits;
}

static void
roundings (void)
{
  static const struct {
    SimaDType dtype;
    double v;
    uint32_t bits;
  } cases[] = {
    { SIMA_DTYPE_FLOAT16, 1.0, 0x3c00 },
    { SIMA_DTYPE_FLOAT16, 65504.0, 0x7bff },
    { SIMA_DTYPE_FLOAT16, 65520.0, 0x7c00 },          /* tie to even: inf */
    { SIMA_DTYPE_FLOAT16, 0x1p-25, 0x0000 },          /* tie to even: 0 */
    { SIMA_DTYPE_FLOAT16, 0x3p-26, 0x0001 },
    { SIMA_DTYPE_FLOAT16, -0.0, 0x8000 },
    { SIMA_DTYPE_BFLOAT16, 1.0, 0x3f80 },
    { SIMA_DTYPE_BFLOAT16, 1.0 + 0x1p-8, 0x3f80 },    /* tie to even */
    { SIMA_DTYPE_BFLOAT16, 1.0 + 0x3p-8, 0x3f82 },    /* tie to even, up */
    { SIMA_DTYPE_BFLOAT16, 0x1p-133, 0x0001 },
    { SIMA_DTYPE_FLOAT32, 0.1, 0x3dcccccd },
    { SIMA_DTYPE_FLOAT32, 0x1p-150, 0x00000000 },     /* tie to even: 0 */
    { SIMA_DTYPE_FLOAT32, 0x3p-150, 0x00000002 },     /* tie to even: 2 */
    { SIMA_DTYPE_FLOAT32, 0x3p-151, 0x00000001 },
    { SIMA_DTYPE_FLOAT32, 1e39, 0x7f800000 },
    { SIMA_DTYPE_INT8, 2.5, 2 },
    { SIMA_DTYPE_INT8, 3.5, 4 },
    { SIMA_DTYPE_INT8, -2.5, 0xfe },
    { SIMA_DTYPE_INT8, 200.0, 0x7f },
    { SIMA_DTYPE_INT8, -1e300, 0x80 },
    { SIMA_DTYPE_INT8, NAN, 0 },
  };
  size_t i;
  int bad = 0;

  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint32_t got = constant_bits (cases[i].dtype, cases[i].v);
    if (got != cases[i].bits) {
      bad++;
      tap_diag ("%s %a: %#x, want %#x", sima_dtype_name (cases[i].dtype),
          cases[i].v, got, cases[i].bits);
    }
  }
  tap_ok (bad == 0, "constants round to nearest even in every dtype, ties, "
      "subnormals and overflow included (%zu cases)", i);
  tap_ok ((constant_bits (SIMA_DTYPE_FLOAT32, NAN) & 0x7fc00000) == 0x7fc00000
      && (constant_bits (SIMA_DTYPE_FLOAT16, NAN) & 0x7e00) == 0x7e00
      && (constant_bits (SIMA_DTYPE_BFLOAT16, NAN) & 0x7fc0) == 0x7fc0,
      "NaN becomes a quiet NaN");
}

static void
sequences (void)
{
  static const int64_t shape[2] = { 5, 7 };
  SimaTensorSpec s = test_spec_dense (SIMA_DTYPE_FLOAT32, 2, shape);
  SimaPatternParams ramp = { SIMA_PATTERN_RAMP, -1.0, 1.0, 0, 0 };
  SimaPatternParams rnd = { SIMA_PATTERN_RANDOM, -3.0, 5.0, 0, 42 };
  SimaPatternParams sp = { SIMA_PATTERN_SPECIAL, 0, 0, 0, 0 };
  float a[35], b[35], c[35];
  int i, ok = 1;
  SimaStatus st;

  sima_pattern_fill (&s, &ramp, 0, a, sizeof a);
  for (i = 0; i < 35; i++)
    ok &= a[i] == (float) (-1.0 + 2.0 * i / 34.0);
  sima_pattern_fill (&s, &ramp, 1, b, sizeof b);
  ok &= b[0] == a[1] && b[34] == a[0];
  tap_ok (ok, "ramp: -1 .. 1 across 35 elements, one step further per frame");

  sima_pattern_fill (&s, &rnd, 3, a, sizeof a);
  sima_pattern_fill (&s, &rnd, 3, b, sizeof b);
  sima_pattern_fill (&s, &rnd, 4, c, sizeof c);
  ok = memcmp (a, b, sizeof a) == 0 && memcmp (a, c, sizeof a) != 0;
  for (i = 0; i < 35; i++)
    ok &= a[i] >= -3.0f && a[i] <= 5.0f;
  tap_ok (ok, "random: same seed and frame, same values; another frame, "
      "others; all within [min, max]");

  sima_pattern_fill (&s, &sp, 0, a, sizeof a);
  tap_ok (isnan (a[0]) && isinf (a[1]) && a[1] > 0 && isinf (a[2])
      && a[2] < 0 && a[3] == 0 && signbit (a[3]) && a[5] == 0x1p-149f
      && a[8] == 0x1p-126f, "special: NaN, +inf, -inf, -0, ..., the "
      "smallest subnormal and the smallest normal");

  st = sima_pattern_fill (&s, &ramp, 0, a, sizeof a - 1);
  tap_ok (st.code == SIMA_CAPACITY_TOO_SMALL, "a buffer one byte short is "
      "refused: %s", st.message);
  s.layout = SIMA_LAYOUT_STRIDED;
  st = sima_pattern_fill (&s, &ramp, 0, a, sizeof a);
  tap_ok (st.code == SIMA_UNSUPPORTED_LAYOUT, "only contiguous tensors: %s",
      st.message);
}

static void
names_and_defaults (void)
{
  int v, ok = 1, rank;

  for (v = 0; v <= SIMA_DTYPE_INT32; v++) {
    SimaDType d;
    ok &= sima_dtype_from_name (sima_dtype_name ((SimaDType) v), &d) && (int) d == v;
  }
  for (v = 0; v <= SIMA_LAYOUT_MLA_CBLOCKED; v++) {
    SimaLayout l;
    ok &= sima_layout_from_name (sima_layout_name ((SimaLayout) v), &l)
        && (int) l == v;
  }
  for (v = 0; v <= SIMA_CHANNELS_PAD16; v++) {
    SimaChannels c;
    ok &= sima_channels_from_name (sima_channels_name ((SimaChannels) v), &c)
        && (int) c == v;
  }
  for (v = 0; v <= SIMA_ROUNDING_TOWARD_NEGATIVE; v++) {
    SimaRounding r;
    ok &= sima_rounding_from_name (sima_rounding_name ((SimaRounding) v), &r)
        && (int) r == v;
  }
  for (v = 0; v <= SIMA_PATTERN_SPECIAL; v++) {
    SimaPattern p;
    ok &= sima_pattern_from_name (sima_pattern_name ((SimaPattern) v), &p)
        && (int) p == v;
  }
  {
    SimaDType d;
    ok &= !sima_dtype_from_name ("float64", &d) && !sima_dtype_from_name (NULL,
            &d);
  }
  tap_ok (ok, "every dtype, layout, channels, rounding and pattern name "
      "parses back; unknown names do not");

  ok = 1;
  for (rank = 1; rank <= SIMA_MAX_RANK; rank++) {
    int64_t shape[SIMA_MAX_RANK] = { 2, 3, 17, 20, 9, 33 };
    SimaMlaTiled t;
    SimaTiledGeometry g;
    SimaTensorSpec s = test_spec_dense (SIMA_DTYPE_INT8, rank, shape);
    sima_mla_tiled_default (rank, &t);
    s.layout = SIMA_LAYOUT_MLA_TILED;
    s.tiled = t;
    ok &= sima_tiled_geometry_init (&s, 1, "output", &g).code == SIMA_OK
        && t.axes[SIMA_MLA_C] == rank - 1 && t.channels == SIMA_CHANNELS_PAD16
        && t.tile_shape[SIMA_MLA_C] == 16
        && (rank < 3 || (t.axes[SIMA_MLA_H] == rank - 3
            && t.tile_shape[SIMA_MLA_H] == 8 && t.tile_shape[SIMA_MLA_W] == 16));
  }
  tap_ok (ok, "the default tiling (channels last, H8/W16/C16, pad16) is "
      "admitted at every rank");
}

int
main (void)
{
  roundings ();
  sequences ();
  names_and_defaults ();
  return tap_done ();
}
