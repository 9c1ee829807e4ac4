/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cblock_ref.h - the tests' own byte map of an MlaTiled tensor, with or
 * without SiMa's cblock tile order (docs/layout.md, "cblock tiles").
 *
 * Written from the document, not from src/kernels: it walks the tiles in
 * physical order (outer slices, then C, D, H, W tiles, W fastest), keeps a
 * running offset (each tile takes its payload rounded up to 16 bytes) and
 * places every in-tile element by the normative formula:
 *   cblock 0:  p*S*eb + c                      (BF16 high byte + S)
 *   cblock 1:  (c/16)*P*16*eb + p*16*eb + c%16 (BF16 high byte + 16)
 * with P the tile's pixels, p the pixel in D, H, W order, S its stored
 * channels and eb 1 (INT8) or 2 (BF16 byte planes). Header-only (static
 * functions) so every test that includes it has its own copy.
 */
#ifndef SIMA_TESTS_CBLOCK_REF_H
#define SIMA_TESTS_CBLOCK_REF_H

#include <simaai/kernels/types.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { REF_GAP = 0, REF_VALUE = 1, REF_PAD = 2 };

typedef struct {
  uint64_t total;       /* physical bytes */
  uint64_t count;       /* logical elements */
  uint64_t *lo;         /* [count] byte of element e (row-major index) */
  uint64_t *hi;         /* [count] its high byte (BF16), else = lo */
  uint8_t *kind;        /* [total] REF_GAP / REF_VALUE / REF_PAD */
} RefMap;

static inline void
ref_map_free (RefMap *m)
{
  free (m->lo);
  free (m->hi);
  free (m->kind);
  memset (m, 0, sizeof *m);
}

/* Builds the map of a nonempty MlaTiled spec with element bytes eb. */
static inline void
ref_map_build (const SimaTensorSpec *spec, int eb, RefMap *m)
{
  const SimaMlaTiled *t = &spec->tiled;
  int64_t ext[4], tiles[4], outer_axes[SIMA_MAX_RANK], oc[SIMA_MAX_RANK];
  int n_outer = 0, a, k, mapped;
  uint64_t outer_count = 1, o, base = 0, total = 0;
  int64_t tc, td, th, tw;
  int pass;

  memset (m, 0, sizeof *m);
  m->count = 1;
  for (a = 0; a < spec->rank; a++) {
    m->count *= (uint64_t) spec->shape[a];
    for (mapped = 0, k = 0; k < 4; k++)
      mapped |= t->axes[k] == a;
    if (!mapped) {
      outer_axes[n_outer++] = a;
      outer_count *= (uint64_t) spec->shape[a];
    }
  }
  for (k = 0; k < 4; k++) {
    ext[k] = t->axes[k] >= 0 ? spec->shape[t->axes[k]] : 1;
    tiles[k] = (ext[k] + t->tile_shape[k] - 1) / t->tile_shape[k];
  }
  m->lo = calloc ((size_t) m->count, sizeof *m->lo);
  m->hi = calloc ((size_t) m->count, sizeof *m->hi);
  /* pass 0 sizes the tensor, pass 1 fills the map */
  for (pass = 0; pass < 2; pass++) {
    if (pass == 1) {
      total = base;
      m->total = total;
      m->kind = calloc ((size_t) total + 1, 1);
    }
    base = 0;
    for (o = 0; o < outer_count; o++) {
      uint64_t r = o;
      for (k = n_outer - 1; k >= 0; k--) {
        oc[k] = (int64_t) (r % (uint64_t) spec->shape[outer_axes[k]]);
        r /= (uint64_t) spec->shape[outer_axes[k]];
      }
      for (tc = 0; tc < tiles[3]; tc++)
        for (td = 0; td < tiles[0]; td++)
          for (th = 0; th < tiles[1]; th++)
            for (tw = 0; tw < tiles[2]; tw++) {
              int64_t ti[4] = { td, th, tw, tc }, e[4], S, P, p, c;
              uint64_t payload;
              for (k = 0; k < 4; k++) {
                int64_t left = ext[k] - ti[k] * t->tile_shape[k];
                e[k] = left < t->tile_shape[k] ? left : t->tile_shape[k];
              }
              S = t->channels == SIMA_CHANNELS_PAD16 ? (e[3] + 15) / 16 * 16
                  : e[3];
              P = e[0] * e[1] * e[2];
              payload = (uint64_t) (P * S * eb);
              if (pass == 1) {
                for (p = 0; p < P; p++)
                  for (c = 0; c < S; c++) {
                    uint64_t pos, hpos;
                    if (t->cblock) {
                      pos = (uint64_t) ((c / 16) * P * 16 * eb + p * 16 * eb
                          + c % 16);
                      hpos = pos + (eb == 2 ? 16 : 0);
                    } else {
                      pos = (uint64_t) (p * S * eb + c);
                      hpos = pos + (eb == 2 ? (uint64_t) S : 0);
                    }
                    m->kind[base + pos] = c < e[3] ? REF_VALUE : REF_PAD;
                    m->kind[base + hpos] = m->kind[base + pos];
                    if (c < e[3]) {
                      int64_t coord[SIMA_MAX_RANK] = { 0 }, in[4];
                      uint64_t idx = 0;
                      in[0] = p / (e[1] * e[2]);
                      in[1] = (p / e[2]) % e[1];
                      in[2] = p % e[2];
                      in[3] = c;
                      for (k = 0; k < n_outer; k++)
                        coord[outer_axes[k]] = oc[k];
                      for (k = 0; k < 4; k++)
                        if (t->axes[k] >= 0)
                          coord[t->axes[k]] = ti[k] * t->tile_shape[k] + in[k];
                      for (a = 0; a < spec->rank; a++)
                        idx = idx * (uint64_t) spec->shape[a]
                            + (uint64_t) coord[a];
                      m->lo[idx] = base + pos;
                      m->hi[idx] = base + hpos;
                    }
                  }
              }
              base += (payload + 15) / 16 * 16;
            }
    }
  }
}

#endif /* SIMA_TESTS_CBLOCK_REF_H */
