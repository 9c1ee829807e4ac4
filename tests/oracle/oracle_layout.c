/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * oracle_layout.c - reference layouts and whole-tensor operations.
 *
 * Every logical element is placed by a direct address formula of its
 * coordinates. For MlaTiled the offset of a tile is the sum of the spans of
 * the tiles before it, obtained by COUNTING how many preceding tiles belong to
 * each of the 16 full/boundary classes (a class fixes, for each of D,H,W,C,
 * whether the tile is full or the boundary one); we never walk tiles in
 * order and never multiply a tile index by a full-tile size.
 *
 * Inside a tile, the byte of (pixel p, channel c) comes from one of two
 * direct formulas, chosen by the cblock flag (spec->tiled.cblock; SiMa's
 * tessellation flag, shared/INTEROP.md section 4): pixel-major without it,
 * 16-channel-block-major with it. Tile spans and offsets do not depend on the
 * flag (a tile holds the same P*S*bpe payload bytes either way).
 *
 * The whole-tensor functions visit logical elements in row-major order and
 * read/write each one at its own computed offset, so strided, permuted and
 * pitched views need no special handling.
 */
#include "oracle.h"

#include <string.h>

enum { D_ = SIMA_MLA_D, H_ = SIMA_MLA_H, W_ = SIMA_MLA_W, C_ = SIMA_MLA_C };

/* Scalar width, written here rather than calling production's
 * sima_dtype_size() so that the oracle shares no code with it. */
static int
scalar_bytes (SimaDType dtype)
{
  switch (dtype) {
    case SIMA_DTYPE_FLOAT32:
      return 4;
    case SIMA_DTYPE_FLOAT16:
    case SIMA_DTYPE_BFLOAT16:
      return 2;
    case SIMA_DTYPE_INT8:
    case SIMA_DTYPE_UINT8:
      return 1;
    case SIMA_DTYPE_INT16:
      return 2;
    case SIMA_DTYPE_INT32:
      return 4;
  }
  return 0;
}

static int64_t
round_up16 (int64_t v)
{
  return (v + 15) / 16 * 16;
}

static int64_t
element_count (const SimaTensorSpec *spec)
{
  int64_t n = 1;
  for (int i = 0; i < spec->rank; i++)
    n *= spec->shape[i];
  return n;
}

/* Row-major coordinates of the idx-th logical element. */
static void
unravel (const SimaTensorSpec *spec, int64_t idx, int64_t *coords)
{
  for (int i = spec->rank - 1; i >= 0; i--) {
    coords[i] = idx % spec->shape[i];
    idx /= spec->shape[i];
  }
}

/* ---- MlaTiled geometry --------------------------------------------------- */

typedef struct {
  int64_t n[4];       /* extent of D,H,W,C; 1 for an absent spatial axis */
  int64_t t[4];       /* tile extents */
  int64_t full[4];    /* number of full tiles along each dimension */
  int64_t rem[4];     /* extent of the boundary tile, 0 when there is none */
  int64_t ntiles[4];  /* full[k] + (rem[k] != 0) */
  int64_t span[16];   /* bytes of a tile of each class (bit k: boundary in k) */
  int64_t slice;      /* bytes of one outer slice (its full tile sequence) */
  int bpe;            /* bytes per stored channel: 1 INT8, 2 BF16 planes */
  int pad16;
  int cblock;         /* channels in 16-blocks of all pixels inside a tile */
} TiledGeo;

/* Actual extent along dimension k of a tile of class cls. */
static int64_t
class_extent (const TiledGeo *g, int cls, int k)
{
  return (cls >> k) & 1 ? g->rem[k] : g->t[k];
}

static int64_t
stored_channels (const TiledGeo *g, int64_t ext_c)
{
  return g->pad16 ? round_up16 (ext_c) : ext_c;
}

/* How many tiles with indices in [a, b) along dimension k are full (boundary
 * == 0) or are the boundary tile (boundary == 1). Full tiles are indices
 * 0..full-1; the boundary tile, if any, has index full. */
static int64_t
count_in_range (const TiledGeo *g, int k, int boundary, int64_t a, int64_t b)
{
  int64_t f = g->full[k];
  if (boundary)
    return (g->rem[k] != 0 && a <= f && f < b) ? 1 : 0;
  int64_t hi = b < f ? b : f;
  int64_t lo = a < f ? a : f;
  return hi > lo ? hi - lo : 0;
}

/* Total span of the box of tiles [a[k], b[k]) in every dimension: for each
 * class, (number of tiles of that class in the box) * (its span). */
static int64_t
box_bytes (const TiledGeo *g, const int64_t a[4], const int64_t b[4])
{
  int64_t total = 0;
  for (int cls = 0; cls < 16; cls++) {
    int64_t cnt = 1;
    for (int k = 0; k < 4 && cnt != 0; k++)
      cnt *= count_in_range (g, k, (cls >> k) & 1, a[k], b[k]);
    total += cnt * g->span[cls];
  }
  return total;
}

static void
tiled_geo (const SimaTensorSpec *spec, TiledGeo *g)
{
  const SimaMlaTiled *tl = &spec->tiled;
  int64_t all_a[4] = { 0, 0, 0, 0 };

  memset (g, 0, sizeof *g);
  g->bpe = spec->dtype == SIMA_DTYPE_BFLOAT16 ? 2 : 1;
  g->pad16 = tl->channels == SIMA_CHANNELS_PAD16;
  g->cblock = tl->cblock != 0;
  for (int k = 0; k < 4; k++) {
    g->n[k] = tl->axes[k] >= 0 ? spec->shape[tl->axes[k]] : 1;
    g->t[k] = tl->tile_shape[k];
    g->full[k] = g->n[k] / g->t[k];
    g->rem[k] = g->n[k] % g->t[k];
    g->ntiles[k] = g->full[k] + (g->rem[k] != 0);
  }
  for (int cls = 0; cls < 16; cls++) {
    int64_t pixels = class_extent (g, cls, D_) * class_extent (g, cls, H_) *
        class_extent (g, cls, W_);
    int64_t payload =
        pixels * stored_channels (g, class_extent (g, cls, C_)) * g->bpe;
    g->span[cls] = round_up16 (payload);  /* every tile is 16-byte spanned */
  }
  g->slice = box_bytes (g, all_a, g->ntiles);
}

static int
is_mapped (const SimaTensorSpec *spec, int axis)
{
  for (int k = 0; k < 4; k++)
    if (spec->tiled.axes[k] == axis)
      return 1;
  return 0;
}

/* Number of outer slices and the row-major index of coords over the unmapped
 * logical axes (increasing axis order, last fastest). */
static int64_t
outer_index (const SimaTensorSpec *spec, const int64_t *coords, int64_t *count)
{
  int64_t o = 0;
  int64_t n = 1;
  for (int i = 0; i < spec->rank; i++) {
    if (is_mapped (spec, i))
      continue;
    o = o * spec->shape[i] + (coords ? coords[i] : 0);
    n *= spec->shape[i];
  }
  if (count)
    *count = n;
  return o;
}

/* Where an element lives in a tiled tensor. */
typedef struct {
  int64_t offset;     /* its (low) byte */
  int64_t tile_off;   /* first byte of its tile */
  int64_t pixels;     /* pixels of its tile (P) */
  int64_t pixel;      /* its pixel inside the tile, D,H,W order (p) */
  int64_t stored;     /* stored channels of its tile (S) */
  int64_t hi_dist;    /* BF16: high byte minus low byte */
  int64_t ext_c;      /* actual channels of its tile */
  int64_t u_c;        /* its channel inside the tile */
} TiledPos;

/* Byte (the low byte for BF16) of channel c of pos's pixel, counted from the
 * start of the tile.
 *  - normal: the pixel's bytes are all its channels (BF16: the S low bytes,
 *    then the S high bytes): p*S*bpe + c;
 *  - cblock (S a multiple of 16): block c/16 holds all P pixels, each with
 *    its 16 channels (BF16: 16 low bytes, then 16 high bytes):
 *    (c/16)*P*16*bpe + p*16*bpe + c%16.
 * With S <= 16 both give p*S*bpe + c (S = 16 there). */
static int64_t
in_tile_byte (const TiledGeo *g, const TiledPos *pos, int64_t c)
{
  if (g->cblock)
    return (c / 16) * pos->pixels * 16 * g->bpe + pos->pixel * 16 * g->bpe +
        c % 16;
  return pos->pixel * pos->stored * g->bpe + c;
}

static TiledPos
tiled_pos (const SimaTensorSpec *spec, const TiledGeo *g, const int64_t *coords)
{
  /* Tiles are ordered C, D, H, W (W fastest). */
  static const int order[4] = { C_, D_, H_, W_ };
  int64_t x[4], it[4], u[4], e[4];
  int64_t tile_off = 0;
  TiledPos pos;

  for (int k = 0; k < 4; k++) {
    x[k] = spec->tiled.axes[k] < 0 ? 0 : coords[spec->tiled.axes[k]];
    it[k] = x[k] / g->t[k];
    u[k] = x[k] % g->t[k];
    e[k] = it[k] < g->full[k] ? g->t[k] : g->rem[k];
  }

  /* Tiles before ours: for each position j in the order, the tiles that
   * agree with ours on the dimensions before j, precede ours on j, and are
   * anything on the dimensions after j. */
  for (int j = 0; j < 4; j++) {
    int64_t a[4], b[4];
    for (int p = 0; p < 4; p++) {
      int k = order[p];
      if (p < j) {
        a[k] = it[k];
        b[k] = it[k] + 1;
      } else if (p == j) {
        a[k] = 0;
        b[k] = it[k];
      } else {
        a[k] = 0;
        b[k] = g->ntiles[k];
      }
    }
    tile_off += box_bytes (g, a, b);
  }

  pos.stored = stored_channels (g, e[C_]);
  pos.ext_c = e[C_];
  pos.u_c = u[C_];
  /* Pixels D,H,W inside the tile (boundary tiles use their actual extents). */
  pos.pixels = e[D_] * e[H_] * e[W_];
  pos.pixel = (u[D_] * e[H_] + u[H_]) * e[W_] + u[W_];
  /* The high byte plane follows the low one: after the pixel's S low bytes
   * normally, after the 16 low bytes of its block with cblock. */
  pos.hi_dist = g->cblock ? 16 : pos.stored;
  pos.tile_off = outer_index (spec, coords, NULL) * g->slice + tile_off;
  pos.offset = pos.tile_off + in_tile_byte (g, &pos, u[C_]);
  return pos;
}

/* ---- MlaCBlocked --------------------------------------------------------- */

/* Trailing H, W, C; C in blocks of 16; o = row-major index of the leading
 * axes. offset = ((o*CB + c/16)*H + h)*W*16 + w*16 + c%16. */
static int64_t
cblocked_offset (const SimaTensorSpec *spec, const int64_t *coords,
                 int64_t *total)
{
  int r = spec->rank;
  int64_t hh = spec->shape[r - 3], ww = spec->shape[r - 2];
  int64_t cb = (spec->shape[r - 1] + 15) / 16;
  int64_t o = 0, n_outer = 1;

  for (int i = 0; i < r - 3; i++) {
    o = o * spec->shape[i] + (coords ? coords[i] : 0);
    n_outer *= spec->shape[i];
  }
  if (total)
    *total = n_outer * cb * hh * ww * 16;
  if (!coords)
    return 0;
  int64_t h = coords[r - 3], w = coords[r - 2], c = coords[r - 1];
  return ((o * cb + c / 16) * hh + h) * ww * 16 + w * 16 + c % 16;
}

/* ---- public layout queries ----------------------------------------------- */

uint64_t
oracle_required_bytes (const SimaTensorSpec *spec)
{
  int64_t scalar = scalar_bytes (spec->dtype);
  int64_t total = 0;

  if (element_count (spec) == 0)
    return 0;
  switch (spec->layout) {
    case SIMA_LAYOUT_CONTIGUOUS:
      total = element_count (spec) * scalar;
      break;
    case SIMA_LAYOUT_STRIDED:
      total = scalar;
      for (int i = 0; i < spec->rank; i++)
        total += (spec->shape[i] - 1) * spec->strides_bytes[i];
      break;
    case SIMA_LAYOUT_MLA_TILED: {
      TiledGeo g;
      int64_t n_outer;
      tiled_geo (spec, &g);
      outer_index (spec, NULL, &n_outer);
      total = n_outer * g.slice;
      break;
    }
    case SIMA_LAYOUT_MLA_CBLOCKED:
      cblocked_offset (spec, NULL, &total);
      break;
  }
  return (uint64_t) total;
}

/* Dense and strided offsets; tiled/blocked need their geometry. */
static int64_t
view_offset (const SimaTensorSpec *spec, const int64_t *coords)
{
  int64_t off = 0;
  if (spec->layout == SIMA_LAYOUT_STRIDED) {
    for (int i = 0; i < spec->rank; i++)
      off += coords[i] * spec->strides_bytes[i];
    return off;
  }
  for (int i = 0; i < spec->rank; i++)
    off = off * spec->shape[i] + coords[i];
  return off * scalar_bytes (spec->dtype);
}

int64_t
oracle_element_offset (const SimaTensorSpec *spec, const int64_t *coords)
{
  if (spec->layout == SIMA_LAYOUT_MLA_TILED) {
    TiledGeo g;
    tiled_geo (spec, &g);
    return tiled_pos (spec, &g, coords).offset;
  }
  if (spec->layout == SIMA_LAYOUT_MLA_CBLOCKED)
    return cblocked_offset (spec, coords, NULL);
  return view_offset (spec, coords);
}

/* ---- element access ------------------------------------------------------ */

/* Raw bits of one input scalar (FP32: 32 bits; FP16/BF16: low 16 bits;
 * UINT8: low 8 bits, exactly one byte read), in host order from its byte
 * offset. */
static uint32_t
read_scalar_bits (const SimaTensorSpec *spec, const void *data,
                  const int64_t *coords)
{
  const uint8_t *p = (const uint8_t *) data + view_offset (spec, coords);
  if (scalar_bytes (spec->dtype) == 4) {
    uint32_t v;
    memcpy (&v, p, sizeof v);
    return v;
  }
  if (scalar_bytes (spec->dtype) == 1)
    return p[0];
  uint16_t h;
  memcpy (&h, p, sizeof h);
  return h;
}

/* ---- whole-tensor operations --------------------------------------------- */

void
oracle_quanttess (const SimaTensorSpec *in, const void *in_data,
                  const SimaTensorSpec *out, float multiplier,
                  int32_t zero_point, int rounding, uint8_t *out_data)
{
  int64_t count = element_count (in);
  int64_t coords[SIMA_MAX_RANK];
  TiledGeo g;

  if (count == 0)
    return;
  tiled_geo (out, &g);
  /* Alignment gaps are raw 0: clear the whole required span first, then
   * every element and every channel-padding byte is written below. */
  memset (out_data, 0, (size_t) oracle_required_bytes (out));

  for (int64_t i = 0; i < count; i++) {
    unravel (in, i, coords);
    TiledPos pos = tiled_pos (out, &g, coords);
    uint32_t bits = read_scalar_bits (in, in_data, coords);
    out_data[pos.offset] = (uint8_t) oracle_quant_bits (in->dtype, bits,
        multiplier, zero_point, rounding);
    /* The pixel's last real channel owns the pixel's channel padding
     * (channels ext_c..stored-1, each placed by its own address, so the same
     * code serves cblock tiles, where padding sits in the last block).
     * Every pixel has exactly one such element, so every padding byte is
     * written exactly once. */
    if (pos.u_c == pos.ext_c - 1)
      for (int64_t c = pos.ext_c; c < pos.stored; c++)
        out_data[pos.tile_off + in_tile_byte (&g, &pos, c)] =
            (uint8_t) (int8_t) zero_point;
  }
}

void
oracle_casttess (const SimaTensorSpec *in, const void *in_data,
                 const SimaTensorSpec *out, uint8_t *out_data)
{
  int64_t count = element_count (in);
  int64_t coords[SIMA_MAX_RANK];
  TiledGeo g;

  if (count == 0)
    return;
  tiled_geo (out, &g);
  /* Channel padding (both planes) and alignment gaps are all zero. */
  memset (out_data, 0, (size_t) oracle_required_bytes (out));

  for (int64_t i = 0; i < count; i++) {
    unravel (in, i, coords);
    TiledPos pos = tiled_pos (out, &g, coords);
    uint32_t bits = read_scalar_bits (in, in_data, coords);
    uint16_t bf;
    switch (in->dtype) {
      case SIMA_DTYPE_FLOAT32:
        bf = oracle_bf16_from_f32_bits (bits);
        break;
      case SIMA_DTYPE_FLOAT16:
        bf = oracle_bf16_from_f16_bits ((uint16_t) bits);
        break;
      case SIMA_DTYPE_UINT8:
        bf = oracle_bf16_from_u8 ((uint8_t) bits);
        break;
      default:                         /* BF16 -> BF16 keeps every bit */
        bf = (uint16_t) bits;
        break;
    }
    out_data[pos.offset] = (uint8_t) (bf & 0xFFu);
    out_data[pos.offset + pos.hi_dist] = (uint8_t) (bf >> 8);
  }
}

void
oracle_detessdequant (const SimaTensorSpec *in, const void *in_data,
                      const SimaTensorSpec *out, float scale,
                      int32_t zero_point, uint8_t *out_data)
{
  oracle_detessdequant_conv (in, in_data, out, scale, zero_point, 0, out_data);
}

void
oracle_detessdequant_conv (const SimaTensorSpec *in, const void *in_data,
                           const SimaTensorSpec *out, float scale,
                           int32_t zero_point, int divide, uint8_t *out_data)
{
  int64_t count = element_count (in);
  int64_t coords[SIMA_MAX_RANK];
  const uint8_t *src = (const uint8_t *) in_data;
  TiledGeo g;

  if (count == 0)
    return;
  if (in->layout == SIMA_LAYOUT_MLA_TILED)
    tiled_geo (in, &g);

  /* Only logical elements are read (input padding/gaps are ignored) and only
   * logical elements are written (output holes are left alone). */
  for (int64_t i = 0; i < count; i++) {
    int64_t src_off;
    unravel (in, i, coords);
    if (in->layout == SIMA_LAYOUT_MLA_TILED)
      src_off = tiled_pos (in, &g, coords).offset;
    else
      src_off = cblocked_offset (in, coords, NULL);
    int8_t q;
    memcpy (&q, src + src_off, 1);      /* reinterpret, no implementation-
                                         * defined narrowing */
    uint8_t *dst = out_data + view_offset (out, coords);
    if (out->dtype == SIMA_DTYPE_FLOAT32) {
      uint32_t v = divide ? oracle_dequant_div_f32_bits (q, scale, zero_point)
          : oracle_dequant_f32_bits (q, scale, zero_point);
      memcpy (dst, &v, sizeof v);
    } else {
      uint16_t v = divide ? oracle_dequant_div_bf16_bits (q, scale, zero_point)
          : oracle_dequant_bf16_bits (q, scale, zero_point);
      memcpy (dst, &v, sizeof v);
    }
  }
}

void
oracle_detesscast (const SimaTensorSpec *in, const void *in_data,
                   const SimaTensorSpec *out, uint8_t *out_data)
{
  int64_t count = element_count (in);
  int64_t coords[SIMA_MAX_RANK];
  const uint8_t *src = (const uint8_t *) in_data;
  TiledGeo g;

  if (count == 0)
    return;
  tiled_geo (in, &g);           /* bpe 2: the input is BF16 byte planes */

  /* Only the two bytes of each logical element are read (channel padding
   * and alignment gaps never are); only its output bytes are written. No
   * arithmetic on the value at all: the bytes are moved into place. */
  for (int64_t i = 0; i < count; i++) {
    unravel (in, i, coords);
    TiledPos pos = tiled_pos (in, &g, coords);
    uint8_t lo = src[pos.offset], hi = src[pos.offset + pos.hi_dist];
    uint8_t *dst = out_data + view_offset (out, coords);
    if (out->dtype == SIMA_DTYPE_FLOAT32) {
      /* little-endian binary32 whose upper half is the BF16 pattern */
      dst[0] = 0;
      dst[1] = 0;
      dst[2] = lo;
      dst[3] = hi;
    } else {
      dst[0] = lo;
      dst[1] = hi;
    }
  }
}
