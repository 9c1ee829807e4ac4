/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test_oracle_sets.c - checks the oracle's tensor-set entry points and guard
 * checker (TAP output).
 *
 * A set member is a whole tensor at a byte offset of one buffer, so the
 * evidence is: a set call must give, byte for byte over the WHOLE buffer, what
 * single calls at the members' offsets give (guard bytes included); sizes of
 * SiMa's documented multi-head buffer (shared/INTEROP.md section 2) come out
 * of the oracle's size formula; and the guard checker flags exactly the bytes
 * outside every member that differ from the pattern.
 */
#include "oracle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- TAP plumbing ------------------------------------------------------- */

static int n_tests;
static int n_failed;
static int cur_fail;

#define CHECK(cond, ...)                                                      \
  do {                                                                        \
    if (!(cond) && cur_fail++ < 8) {                                          \
      printf ("# line %d: ", __LINE__);                                       \
      printf (__VA_ARGS__);                                                   \
      printf ("\n");                                                          \
    }                                                                         \
  } while (0)

static void
report (const char *name)
{
  n_tests++;
  if (cur_fail) {
    n_failed++;
    printf ("not ok %d - %s (%d failed checks)\n", n_tests, name, cur_fail);
  } else {
    printf ("ok %d - %s\n", n_tests, name);
  }
  cur_fail = 0;
}

/* ---- helpers ------------------------------------------------------------ */

static uint64_t rng_state = 0xD1B54A32D192ED03ull;

static uint64_t
rnd (void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static SimaTensorSpec
dense (int rank, const int64_t *shape, SimaDType dtype)
{
  SimaTensorSpec s = { .rank = rank, .dtype = dtype,
                       .layout = SIMA_LAYOUT_CONTIGUOUS };
  memcpy (s.shape, shape, (size_t) rank * sizeof *shape);
  return s;
}

static SimaTensorSpec
tiled (int rank, const int64_t *shape, SimaDType dtype, const int8_t axes[4],
       const int64_t tile[4], SimaChannels ch, int cblock)
{
  SimaTensorSpec s = dense (rank, shape, dtype);
  s.layout = SIMA_LAYOUT_MLA_TILED;
  memcpy (s.tiled.axes, axes, 4);
  memcpy (s.tiled.tile_shape, tile, 4 * sizeof *tile);
  s.tiled.channels = ch;
  s.tiled.cblock = cblock;
  return s;
}

static void
check_bytes (const uint8_t *got, const uint8_t *want, size_t len,
             const char *what)
{
  for (size_t i = 0; i < len; i++) {
    if (got[i] != want[i]) {
      CHECK (0, "%s: byte %zu is 0x%02x, want 0x%02x", what, i, got[i],
             want[i]);
      return;
    }
  }
}

static void
fill_random (uint8_t *p, uint64_t n)
{
  for (uint64_t i = 0; i < n; i++)
    p[i] = (uint8_t) rnd ();
}

static const uint8_t guard3[3] = { 0xA5, 0x5A, 0xC3 };

/* ---- sets vs single calls ----------------------------------------------- */

/* QuantTess: member 0 FP32 [H=2,W=3,C=20] -> INT8 pad16 cblock, tile
 * {1,2,2,32} (a 2x2-pixel tile and a 2x1 boundary tile); member 1 FP16
 * [W=5,C=3] -> INT8 compact, tile {1,1,2,2}. Inputs at unaligned offsets
 * of one buffer, outputs with guard gaps before, between and after. */
static void
test_quanttess_set (void)
{
  const int64_t s0[3] = { 2, 3, 20 }, s1[2] = { 5, 3 };
  const int8_t a0[4] = { -1, 0, 1, 2 }, a1[4] = { -1, -1, 0, 1 };
  const int64_t t0[4] = { 1, 2, 2, 32 }, t1[4] = { 1, 1, 2, 2 };
  SimaTensorSpec in[2] = { dense (3, s0, SIMA_DTYPE_FLOAT32),
                           dense (2, s1, SIMA_DTYPE_FLOAT16) };
  SimaTensorSpec out[2] = {
    tiled (3, s0, SIMA_DTYPE_INT8, a0, t0, SIMA_CHANNELS_PAD16, 1),
    tiled (2, s1, SIMA_DTYPE_INT8, a1, t1, SIMA_CHANNELS_COMPACT, 0) };
  uint64_t sz0 = oracle_required_bytes (&out[0]);
  uint64_t sz1 = oracle_required_bytes (&out[1]);
  /* 4 px x 32 stored + 2 px x 32 stored = 192 */
  CHECK (sz0 == 4 * 32 + 2 * 32, "member 0 size %llu",
         (unsigned long long) sz0);
  /* [W=5, C=3], tiles W 2, C 2: C-tile 0 (2 ch): 4,4,2 bytes -> 16 each;
   * C-tile 1 (1 ch): 2,2,1 -> 16 each: 96 */
  CHECK (sz1 == 96, "member 1 size %llu", (unsigned long long) sz1);
  uint64_t in_off[2] = { 6, 6 + 120 * 4 + 2 };     /* only 2-byte aligned */
  uint64_t out_off[2] = { 17, 17 + sz0 + 33 };
  uint64_t in_len = in_off[1] + 15 * 2 + 5, out_len = out_off[1] + sz1 + 29;
  uint8_t *src = malloc (in_len), *got = malloc (out_len),
      *want = malloc (out_len);
  fill_random (src, in_len);
  /* keep member 0's FP32 inputs finite and moderate: small integers */
  for (int i = 0; i < 120; i++) {
    float v = (float) ((int) (rnd () % 300) - 150) / 4.0f;
    memcpy (src + in_off[0] + 4 * i, &v, 4);
  }
  float mult[2] = { 0.5f, 3.0f };
  int32_t zp[2] = { -7, 12 };
  int rounding[2] = { ORACLE_ROUND_TOWARD_POSITIVE, ORACLE_ROUND_TOWARD_ZERO };

  oracle_guard_fill (got, out_len, guard3, 3);
  oracle_guard_fill (want, out_len, guard3, 3);
  oracle_quanttess_set (2, in, in_off, src, out, out_off, got, mult, zp,
                        rounding);
  for (int i = 0; i < 2; i++)
    oracle_quanttess (&in[i], src + in_off[i], &out[i], mult[i], zp[i],
                      rounding[i], want + out_off[i]);
  check_bytes (got, want, (size_t) out_len, "quanttess set vs singles");
  CHECK (oracle_guard_check (got, out_len, 2, out, out_off, guard3, 3) == -1,
         "guard bytes touched");
  /* the members are really there: a padding byte of member 0 (p0, c20 in
   * block 1 of the first tile) is its zero point */
  CHECK (got[out_off[0] + 64 + 4] == (uint8_t) -7, "member 0 padding");

  /* NULL roundings means nearest even for every member */
  oracle_guard_fill (got, out_len, guard3, 3);
  oracle_guard_fill (want, out_len, guard3, 3);
  oracle_quanttess_set (2, in, in_off, src, out, out_off, got, mult, zp,
                        NULL);
  for (int i = 0; i < 2; i++)
    oracle_quanttess (&in[i], src + in_off[i], &out[i], mult[i], zp[i],
                      ORACLE_ROUND_NEAREST_EVEN, want + out_off[i]);
  check_bytes (got, want, (size_t) out_len, "quanttess set, NULL roundings");
  free (src), free (got), free (want);
  report ("sets: 2-member QuantTess set equals single calls at offsets");
}

static void
test_casttess_set (void)
{
  const int64_t s0[2] = { 3, 40 }, s1[3] = { 2, 2, 5 };
  const int8_t a0[4] = { -1, -1, 0, 1 }, a1[4] = { -1, 0, 1, 2 };
  const int64_t t0[4] = { 1, 1, 2, 32 }, t1[4] = { 1, 1, 2, 5 };
  SimaTensorSpec in[2] = { dense (2, s0, SIMA_DTYPE_FLOAT32),
                           dense (3, s1, SIMA_DTYPE_BFLOAT16) };
  SimaTensorSpec out[2] = {
    tiled (2, s0, SIMA_DTYPE_BFLOAT16, a0, t0, SIMA_CHANNELS_PAD16, 1),
    tiled (3, s1, SIMA_DTYPE_BFLOAT16, a1, t1, SIMA_CHANNELS_COMPACT, 0) };
  uint64_t sz0 = oracle_required_bytes (&out[0]);
  uint64_t sz1 = oracle_required_bytes (&out[1]);
  CHECK (sz0 == 2 * 144, "member 0 size %llu", (unsigned long long) sz0);
  CHECK (sz1 == 2 * 32, "member 1 size %llu", (unsigned long long) sz1);
  /* members listed in the opposite order of their place in the buffer */
  uint64_t in_off[2] = { 40, 0 };
  uint64_t out_off[2] = { 3 + sz1 + 5, 3 };
  uint64_t in_len = 40 + 120 * 4, out_len = out_off[0] + sz0 + 7;
  uint8_t *src = malloc (in_len), *got = malloc (out_len),
      *want = malloc (out_len);
  fill_random (src, in_len);                  /* NaNs and all: bit rules */
  oracle_guard_fill (got, out_len, guard3, 3);
  oracle_guard_fill (want, out_len, guard3, 3);
  oracle_casttess_set (2, in, in_off, src, out, out_off, got);
  for (int i = 0; i < 2; i++)
    oracle_casttess (&in[i], src + in_off[i], &out[i], want + out_off[i]);
  check_bytes (got, want, (size_t) out_len, "casttess set vs singles");
  CHECK (oracle_guard_check (got, out_len, 2, out, out_off, guard3, 3) == -1,
         "guard bytes touched");
  free (src), free (got), free (want);
  report ("sets: 2-member CastTess set equals single calls at offsets");
}


/* UINT8 members (camera frames): member 0 an RGB <H=3,W=2,C=3> view with
 * pixel stride 3 and rows padded to 8 bytes at an odd offset, member 1 a
 * GRAY8 <H=2,W=5,C=1> contiguous frame; QuantTess with SiMa's preproc
 * multiplier (255.0697f / 255, zp -128) and CastTess, each set call equal to
 * single calls, guards untouched, and a few bytes by hand. */
static void
test_u8_sets (void)
{
  const int64_t s0[3] = { 3, 2, 3 }, s1[3] = { 2, 5, 1 };
  const int8_t ax[4] = { -1, 0, 1, 2 };
  const int64_t t0[4] = { 1, 2, 2, 3 }, t1[4] = { 1, 2, 4, 1 };
  SimaTensorSpec in[2] = { dense (3, s0, SIMA_DTYPE_UINT8),
                           dense (3, s1, SIMA_DTYPE_UINT8) };
  in[0].layout = SIMA_LAYOUT_STRIDED;
  in[0].strides_bytes[0] = 8;
  in[0].strides_bytes[1] = 3;
  in[0].strides_bytes[2] = 1;
  CHECK (oracle_required_bytes (&in[0]) == 2 * 8 + 3 + 2 + 1, "rgb view");
  CHECK (oracle_required_bytes (&in[1]) == 10, "gray8 frame");
  uint64_t in_off[2] = { 13, 13 + 22 + 1 };
  uint64_t in_len = in_off[1] + 10 + 3;
  uint8_t *src = malloc (in_len);
  fill_random (src, in_len);
  src[in_off[0]] = 255;                       /* pixel (0,0) R */
  src[in_off[0] + 1] = 0;                     /* pixel (0,0) G */
  src[in_off[1] + 9] = 128;                   /* last gray pixel */
  volatile float num = 255.0697f, den = 255.0f;
  float mult[2] = { num / den, num / den };
  int32_t zp[2] = { -128, -128 };
  for (int op = 0; op < 2; op++) {
    SimaDType odt = op ? SIMA_DTYPE_BFLOAT16 : SIMA_DTYPE_INT8;
    SimaTensorSpec out[2] = {
      tiled (3, s0, odt, ax, t0, SIMA_CHANNELS_PAD16, 0),
      tiled (3, s1, odt, ax, t1, SIMA_CHANNELS_COMPACT, 0) };
    uint64_t sz0 = oracle_required_bytes (&out[0]);
    uint64_t sz1 = oracle_required_bytes (&out[1]);
    uint64_t out_off[2] = { 5, 5 + sz0 + 11 };
    uint64_t out_len = out_off[1] + sz1 + 9;
    uint8_t *got = malloc (out_len), *want = malloc (out_len);
    oracle_guard_fill (got, out_len, guard3, 3);
    oracle_guard_fill (want, out_len, guard3, 3);
    if (op == 0) {
      oracle_quanttess_set (2, in, in_off, src, out, out_off, got, mult, zp,
                            NULL);
      for (int i = 0; i < 2; i++)
        oracle_quanttess (&in[i], src + in_off[i], &out[i], mult[i], zp[i],
                          ORACLE_ROUND_NEAREST_EVEN, want + out_off[i]);
      /* 255 -> 127, 0 -> -128, pad16 padding = zp; gray 128 -> 0 sits in
       * the boundary W tile (W 4..4) of H tile 0 at pixel (1, 0) */
      CHECK (got[out_off[0]] == 127 && got[out_off[0] + 1] == 0x80 &&
             got[out_off[0] + 3] == 0x80, "member 0 bytes %d %d %d",
             got[out_off[0]], got[out_off[0] + 1], got[out_off[0] + 3]);
      CHECK (got[out_off[1] + 16 + 1] == 0, "member 1 128 -> %d",
             (int8_t) got[out_off[1] + 16 + 1]);
    } else {
      oracle_casttess_set (2, in, in_off, src, out, out_off, got);
      for (int i = 0; i < 2; i++)
        oracle_casttess (&in[i], src + in_off[i], &out[i], want + out_off[i]);
      /* 255 = 0x437F: low byte 0x7F, high byte 16 bytes later (pad16) */
      CHECK (got[out_off[0]] == 0x7F && got[out_off[0] + 16] == 0x43 &&
             got[out_off[0] + 1] == 0 && got[out_off[0] + 17] == 0,
             "member 0 bf16 bytes");
    }
    check_bytes (got, want, (size_t) out_len, op ? "u8 casttess set" :
                 "u8 quanttess set");
    CHECK (oracle_guard_check (got, out_len, 2, out, out_off, guard3, 3) == -1,
           "guard bytes touched");
    free (got), free (want);
  }
  free (src);
  report ("sets: UINT8 RGB (stride 3, padded rows) + GRAY8 members");
}

/* DetessDequant: a cblock tiled head, a plain tiled head and an MlaCBlocked
 * head, into FP32 dense, BF16 strided (holes must stay untouched) and FP32
 * with the divide convention. */
static void
test_detessdequant_set (void)
{
  const int64_t s0[3] = { 2, 3, 40 }, s1[3] = { 4, 4, 6 },
      s2[3] = { 2, 3, 17 };
  const int8_t a3[4] = { -1, 0, 1, 2 };
  const int64_t t0[4] = { 1, 1, 3, 48 }, t1[4] = { 1, 1, 4, 6 };
  SimaTensorSpec in[3] = {
    tiled (3, s0, SIMA_DTYPE_INT8, a3, t0, SIMA_CHANNELS_PAD16, 1),
    tiled (3, s1, SIMA_DTYPE_INT8, a3, t1, SIMA_CHANNELS_PAD16, 0),
    dense (3, s2, SIMA_DTYPE_INT8) };
  in[2].layout = SIMA_LAYOUT_MLA_CBLOCKED;
  SimaTensorSpec out[3] = { dense (3, s0, SIMA_DTYPE_FLOAT32),
                            dense (3, s1, SIMA_DTYPE_BFLOAT16),
                            dense (3, s2, SIMA_DTYPE_FLOAT32) };
  out[1].layout = SIMA_LAYOUT_STRIDED;        /* pitched rows, holes */
  out[1].strides_bytes[2] = 2;
  out[1].strides_bytes[1] = 16;
  out[1].strides_bytes[0] = 70;
  uint64_t isz[3], osz[3], in_off[3], out_off[3], ipos = 0, opos = 5;
  for (int i = 0; i < 3; i++) {
    isz[i] = oracle_required_bytes (&in[i]);
    osz[i] = oracle_required_bytes (&out[i]);
    in_off[i] = ipos;                         /* back to back, as the MLA */
    ipos += isz[i];
    out_off[i] = opos;
    opos += osz[i] + 11;
  }
  /* cblock head: 2 rows x 3 px x 48 stored = 288; plain: 4 x 4 px x 16 =
   * 256; MlaCBlocked: 2 blocks x 2 x 3 x 16 = 192 */
  CHECK (isz[0] == 288 && isz[1] == 256 && isz[2] == 192, "input sizes");
  CHECK (osz[1] == 2 + 3 * 70 + 3 * 16 + 5 * 2, "strided output size");
  uint8_t *src = malloc (ipos), *got = malloc (opos), *want = malloc (opos);
  fill_random (src, ipos);                    /* padding is garbage too */
  float scale[3] = { 0.125f, 0.0078125f, 11.328456438342892f };
  int32_t zp[3] = { 3, -128, -61 };
  int divide[3] = { 0, 0, 1 };
  oracle_guard_fill (got, opos, guard3, 3);
  oracle_guard_fill (want, opos, guard3, 3);
  oracle_detessdequant_set (3, in, in_off, src, out, out_off, got, scale, zp,
                            divide);
  for (int i = 0; i < 3; i++)
    oracle_detessdequant_conv (&in[i], src + in_off[i], &out[i], scale[i],
                               zp[i], divide[i], want + out_off[i]);
  check_bytes (got, want, (size_t) opos, "detessdequant set vs singles");
  CHECK (oracle_guard_check (got, opos, 3, out, out_off, guard3, 3) == -1,
         "guard bytes touched");
  /* a hole of the strided member (byte 12 of its first row) kept its guard */
  CHECK (got[out_off[1] + 12] == guard3[(out_off[1] + 12) % 3], "hole");
  /* member 0 element (1,2,33): tile (h1, w0..2 one tile), p 2, block 2 of
   * 3: offset 144 + 2*48 + 2*16 + 1 = 273 */
  int8_t q;
  memcpy (&q, src + in_off[0] + 273, 1);
  float v;
  memcpy (&v, got + out_off[0] + 4 * ((1 * 3 + 2) * 40 + 33), 4);
  CHECK (v == 0.125f * (float) (q - 3), "member 0 element (1,2,33)");

  /* NULL divides: all multiply */
  oracle_guard_fill (got, opos, guard3, 3);
  oracle_guard_fill (want, opos, guard3, 3);
  oracle_detessdequant_set (3, in, in_off, src, out, out_off, got, scale, zp,
                            NULL);
  for (int i = 0; i < 3; i++)
    oracle_detessdequant (&in[i], src + in_off[i], &out[i], scale[i], zp[i],
                          want + out_off[i]);
  check_bytes (got, want, (size_t) opos, "detessdequant set, NULL divides");
  free (src), free (got), free (want);
  report ("sets: 3-member DetessDequant set equals single calls at offsets");
}

/* DetessCast: member 0 BF16 pad16 cblock [H=2,W=3,C=40] tile {1,1,3,48}
 * -> FP32; member 1 BF16 compact [4,4,6] tile {1,1,4,6} -> BF16 pitched
 * (holes); member 2 BF16 pad16 [W=5,C=3] tile {1,1,2,2} -> FP32. Inputs
 * back to back (16-aligned spans), outputs with guard gaps. */
static void
test_detesscast_set (void)
{
  const int64_t s0[3] = { 2, 3, 40 }, s1[3] = { 4, 4, 6 }, s2[2] = { 5, 3 };
  const int8_t a3[4] = { -1, 0, 1, 2 }, a2[4] = { -1, -1, 0, 1 };
  const int64_t t0[4] = { 1, 1, 3, 48 }, t1[4] = { 1, 1, 4, 6 },
      t2[4] = { 1, 1, 2, 2 };
  SimaTensorSpec in[3] = {
    tiled (3, s0, SIMA_DTYPE_BFLOAT16, a3, t0, SIMA_CHANNELS_PAD16, 1),
    tiled (3, s1, SIMA_DTYPE_BFLOAT16, a3, t1, SIMA_CHANNELS_COMPACT, 0),
    tiled (2, s2, SIMA_DTYPE_BFLOAT16, a2, t2, SIMA_CHANNELS_PAD16, 0) };
  SimaTensorSpec out[3] = { dense (3, s0, SIMA_DTYPE_FLOAT32),
                            dense (3, s1, SIMA_DTYPE_BFLOAT16),
                            dense (2, s2, SIMA_DTYPE_FLOAT32) };
  out[1].layout = SIMA_LAYOUT_STRIDED;
  out[1].strides_bytes[2] = 2;
  out[1].strides_bytes[1] = 16;
  out[1].strides_bytes[0] = 70;
  uint64_t isz[3], osz[3], in_off[3], out_off[3], ipos = 0, opos = 7;
  for (int i = 0; i < 3; i++) {
    isz[i] = oracle_required_bytes (&in[i]);
    osz[i] = oracle_required_bytes (&out[i]);
    in_off[i] = ipos;
    ipos += isz[i];
    out_off[i] = opos;
    opos += osz[i] + 13;
  }
  /* 2 rows x 3 px x 48 stored x 2 planes = 576; 4 rows x 4 px x 6 x 2 =
   * 192; C tiles of 2 (pad16, 16 stored): 2 C tiles x (2+2+1 px) x 32 */
  CHECK (isz[0] == 576 && isz[1] == 192 && isz[2] == 320, "input sizes "
         "%llu %llu %llu", (unsigned long long) isz[0],
         (unsigned long long) isz[1], (unsigned long long) isz[2]);
  uint8_t *src = malloc (ipos), *got = malloc (opos), *want = malloc (opos);
  fill_random (src, ipos);
  oracle_guard_fill (got, opos, guard3, 3);
  oracle_guard_fill (want, opos, guard3, 3);
  oracle_detesscast_set (3, in, in_off, src, out, out_off, got);
  for (int i = 0; i < 3; i++)
    oracle_detesscast (&in[i], src + in_off[i], &out[i], want + out_off[i]);
  check_bytes (got, want, (size_t) opos, "detesscast set vs singles");
  CHECK (oracle_guard_check (got, opos, 3, out, out_off, guard3, 3) == -1,
         "guard bytes touched");
  CHECK (got[out_off[1] + 12] == guard3[(out_off[1] + 12) % 3], "hole");
  /* member 0 element (1,2,33): row 1 at 288, pixel 2 of its tile, block 2
   * of 3 (P = 3): low 288 + 2*3*32 + 2*32 + 1 = 545, high 16 later */
  uint32_t v;
  memcpy (&v, got + out_off[0] + 4 * ((1 * 3 + 2) * 40 + 33), 4);
  CHECK (v == ((uint32_t) src[545] << 16 | (uint32_t) src[561] << 24),
         "member 0 element (1,2,33): %#x", v);
  /* member 2 element (w=3, c=2): W tile 1 (w 2-3), C tile 1 (c 2, one
   * channel stored as 16): C tile 0 spans 2+2+1 px x 32 = 160, then W tile
   * 0 of C tile 1 is 64: 160 + 64 + pixel 1 x 32 = 256 */
  memcpy (&v, got + out_off[2] + 4 * (3 * 3 + 2), 4);
  CHECK (v == ((uint32_t) src[in_off[2] + 256] << 16
               | (uint32_t) src[in_off[2] + 272] << 24),
         "member 2 element (3,2): %#x", v);
  free (src), free (got), free (want);
  report ("sets: 3-member DetessCast set equals single calls at offsets");
}

/* SiMa's YOLOv8n buffer (shared/INTEROP.md section 2): six INT8 pad16 heads,
 * one image row per tile, back to back, 1,209,600 bytes. Sizes only (the
 * full buffer is large); then a scaled-down six-head set, divide convention
 * with the documented dq_scale/dq_zp, against single calls. */
static void
test_yolov8n_set (void)
{
  static const int64_t hw[6] = { 80, 40, 20, 80, 40, 20 };
  static const int64_t ch[6] = { 64, 64, 64, 80, 80, 80 };
  static const uint64_t bytes[6] = { 409600, 102400, 25600, 512000, 128000,
    32000 };
  static const float dq_scale[6] = { 11.328456438342892f, 13.655735144659944f,
    14.041570531577957f, 9.636191223407769f, 6.634204286335957f,
    5.471951716200586f };
  static const int32_t dq_zp[6] = { -61, -56, -43, 127, 117, 113 };
  static const int div[6] = { 1, 1, 1, 1, 1, 1 };
  const int8_t axes[4] = { -1, 0, 1, 2 };
  SimaTensorSpec in[6], out[6];
  uint64_t total = 0, in_off[6], out_off[6];
  for (int i = 0; i < 6; i++) {
    int64_t shape[3] = { hw[i], hw[i], ch[i] };
    int64_t tile[4] = { 1, 1, hw[i], ch[i] };
    for (int cb = 0; cb < 2; cb++) {
      SimaTensorSpec s = tiled (3, shape, SIMA_DTYPE_INT8, axes, tile,
                                SIMA_CHANNELS_PAD16, cb);
      CHECK (oracle_required_bytes (&s) == bytes[i], "head %d cblock %d: %llu",
             i, cb, (unsigned long long) oracle_required_bytes (&s));
    }
    total += bytes[i];
  }
  CHECK (total == 1209600, "total %llu", (unsigned long long) total);

  uint64_t ipos = 0, opos = 0;
  for (int i = 0; i < 6; i++) {
    int64_t n = hw[i] / 10;                   /* 8, 4, 2 */
    int64_t shape[3] = { n, n, ch[i] };
    int64_t tile[4] = { 1, 1, n, ch[i] };
    in[i] = tiled (3, shape, SIMA_DTYPE_INT8, axes, tile,
                   SIMA_CHANNELS_PAD16, i % 2);
    out[i] = dense (3, shape, SIMA_DTYPE_FLOAT32);
    in_off[i] = ipos;
    ipos += oracle_required_bytes (&in[i]);
    out_off[i] = opos;
    opos += oracle_required_bytes (&out[i]);  /* outputs back to back too */
  }
  CHECK (ipos % 16 == 0, "heads are whole 16-byte spans");
  uint8_t *src = malloc (ipos), *got = malloc (opos), *want = malloc (opos);
  fill_random (src, ipos);
  memset (got, 0x11, opos);
  memset (want, 0x22, opos);                 /* every byte must be written */
  oracle_detessdequant_set (6, in, in_off, src, out, out_off, got, dq_scale,
                            dq_zp, div);
  for (int i = 0; i < 6; i++)
    oracle_detessdequant_conv (&in[i], src + in_off[i], &out[i], dq_scale[i],
                               dq_zp[i], 1, want + out_off[i]);
  check_bytes (got, want, (size_t) opos, "six heads vs singles");
  free (src), free (got), free (want);
  report ("sets: YOLOv8n head sizes, six-head divide set equals singles");
}

/* 16 members (the maximum), alternating QuantTess cblock / plain, random
 * gaps; and n = 0 writes nothing. */
static void
test_sixteen_and_empty (void)
{
  SimaTensorSpec in[16], out[16];
  uint64_t in_off[16], out_off[16], ipos = 0, opos = 0;
  float mult[16];
  int32_t zp[16];
  const int8_t axes[4] = { -1, 0, 1, 2 };
  for (int i = 0; i < 16; i++) {
    int64_t shape[3] = { 1 + i % 3, 1 + i % 4, 1 + (i * 7) % 37 };
    int64_t tile[4] = { 1, 1, 1 + i % 3, 16 + 16 * (i % 3) };
    in[i] = dense (3, shape, SIMA_DTYPE_FLOAT32);
    out[i] = tiled (3, shape, SIMA_DTYPE_INT8, axes, tile,
                    SIMA_CHANNELS_PAD16, i % 2);
    in_off[i] = ipos;
    ipos += oracle_required_bytes (&in[i]);
    opos += rnd () % 20;
    out_off[i] = opos;
    opos += oracle_required_bytes (&out[i]);
    mult[i] = 1.0f + (float) i;
    zp[i] = i - 8;
  }
  opos += 9;
  uint8_t *src = malloc (ipos), *got = malloc (opos), *want = malloc (opos);
  for (uint64_t i = 0; i < ipos / 4; i++) {
    float v = (float) ((int) (rnd () % 64) - 32) / 8.0f;
    memcpy (src + 4 * i, &v, 4);
  }
  oracle_guard_fill (got, opos, guard3, 3);
  oracle_guard_fill (want, opos, guard3, 3);
  oracle_quanttess_set (16, in, in_off, src, out, out_off, got, mult, zp,
                        NULL);
  for (int i = 0; i < 16; i++)
    oracle_quanttess (&in[i], src + in_off[i], &out[i], mult[i], zp[i], 0,
                      want + out_off[i]);
  check_bytes (got, want, (size_t) opos, "16 members vs singles");
  CHECK (oracle_guard_check (got, opos, 16, out, out_off, guard3, 3) == -1,
         "16 members: guard");
  oracle_quanttess_set (0, in, in_off, src, out, out_off, got, mult, zp,
                        NULL);
  oracle_casttess_set (0, in, in_off, src, out, out_off, got);
  oracle_detessdequant_set (0, out, out_off, got, in, in_off, src, mult, zp,
                            NULL);
  check_bytes (got, want, (size_t) opos, "n = 0 wrote a byte");
  free (src), free (got), free (want);
  report ("sets: 16 members equal singles; n = 0 writes nothing");
}

/* ---- guard checker ------------------------------------------------------ */

static void
test_guard_checker (void)
{
  const int64_t s0[2] = { 2, 20 }, s1[1] = { 6 };
  const int8_t a0[4] = { -1, -1, 0, 1 };
  const int64_t t0[4] = { 1, 1, 2, 32 };
  SimaTensorSpec m[3] = {
    tiled (2, s0, SIMA_DTYPE_INT8, a0, t0, SIMA_CHANNELS_PAD16, 1),  /* 64 */
    dense (1, s1, SIMA_DTYPE_FLOAT32),                               /* 24 */
    dense (1, s1, SIMA_DTYPE_FLOAT32) };
  m[2].shape[0] = 0;                                  /* empty: 0 bytes */
  uint64_t off[3] = { 100, 10, 50 };  /* [100,164), [10,34), nothing at 50 */
  uint8_t buf[200];
  static const uint8_t one[1] = { 0xEE };

  CHECK (oracle_required_bytes (&m[0]) == 64 &&
         oracle_required_bytes (&m[1]) == 24, "member sizes");
  oracle_guard_fill (buf, sizeof buf, guard3, 3);
  CHECK (oracle_guard_check (buf, sizeof buf, 3, m, off, guard3, 3) == -1,
         "clean buffer");
  /* member bytes may hold anything */
  memset (buf + 10, 0, 24);
  memset (buf + 100, 0, 64);
  CHECK (oracle_guard_check (buf, sizeof buf, 3, m, off, guard3, 3) == -1,
         "member bytes are not guard bytes");
  /* every single guard byte is caught, and exactly at its offset: before
   * the first member, between members (50, the empty member's offset,
   * included), just around member edges, and at the very end */
  static const int probes[] = { 0, 9, 34, 35, 50, 77, 99, 164, 199 };
  for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
    int at = probes[i];
    uint8_t keep = buf[at];
    buf[at] ^= 0x01;
    int64_t got = oracle_guard_check (buf, sizeof buf, 3, m, off, guard3, 3);
    CHECK (got == at, "byte %d changed: checker says %lld", at,
           (long long) got);
    buf[at] = keep;
  }
  /* the pattern's phase matters: a constant fill fails a period-3 pattern */
  memset (buf, 0xA5, sizeof buf);
  CHECK (oracle_guard_check (buf, sizeof buf, 3, m, off, guard3, 3) == 1,
         "phase");
  /* single-byte pattern; two writes: the first one is reported */
  oracle_guard_fill (buf, sizeof buf, one, 1);
  buf[170] = 0;
  buf[40] = 0;
  CHECK (oracle_guard_check (buf, sizeof buf, 3, m, off, one, 1) == 40,
         "first of two");
  /* overlapping members and a member running past the buffer end */
  oracle_guard_fill (buf, sizeof buf, one, 1);
  uint64_t off2[2] = { 150, 160 };                     /* 64 bytes each */
  SimaTensorSpec m2[2] = { m[0], m[0] };
  buf[149] = 1;
  CHECK (oracle_guard_check (buf, sizeof buf, 2, m2, off2, one, 1) == 149,
         "before overlapping members");
  buf[149] = 0xEE;
  buf[199] = 1;                                        /* inside member 1 */
  CHECK (oracle_guard_check (buf, sizeof buf, 2, m2, off2, one, 1) == -1,
         "past the end");
  report ("guard checker: flags exactly the changed bytes outside members");
}

int
main (void)
{
  test_quanttess_set ();
  test_casttess_set ();
  test_u8_sets ();
  test_detessdequant_set ();
  test_detesscast_set ();
  test_yolov8n_set ();
  test_sixteen_and_empty ();
  test_guard_checker ();
  printf ("1..%d\n", n_tests);
  return n_failed ? 1 : 0;
}
