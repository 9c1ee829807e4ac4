/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * oracle_sets.c - reference tensor sets: n (dense or tiled) tensors, each at
 * its own byte offset of one buffer, converted member by member.
 *
 * A member is nothing but a whole tensor placed at an offset, so each member
 * is delegated to the oracle's own single-tensor reference at
 * buffer + offset, with that member's parameters. The occupied range of a
 * member is its oracle_required_bytes span from its offset.
 */
#include "oracle.h"

void
oracle_quanttess_set (int n, const SimaTensorSpec *in_specs,
                      const uint64_t *in_offsets, const uint8_t *in_buf,
                      const SimaTensorSpec *out_specs,
                      const uint64_t *out_offsets, uint8_t *out_buf,
                      const float *multipliers, const int32_t *zero_points,
                      const int *roundings)
{
  for (int i = 0; i < n; i++)
    oracle_quanttess (&in_specs[i], in_buf + in_offsets[i], &out_specs[i],
                      multipliers[i], zero_points[i],
                      roundings ? roundings[i] : ORACLE_ROUND_NEAREST_EVEN,
                      out_buf + out_offsets[i]);
}

void
oracle_casttess_set (int n, const SimaTensorSpec *in_specs,
                     const uint64_t *in_offsets, const uint8_t *in_buf,
                     const SimaTensorSpec *out_specs,
                     const uint64_t *out_offsets, uint8_t *out_buf)
{
  for (int i = 0; i < n; i++)
    oracle_casttess (&in_specs[i], in_buf + in_offsets[i], &out_specs[i],
                     out_buf + out_offsets[i]);
}

void
oracle_detessdequant_set (int n, const SimaTensorSpec *in_specs,
                          const uint64_t *in_offsets, const uint8_t *in_buf,
                          const SimaTensorSpec *out_specs,
                          const uint64_t *out_offsets, uint8_t *out_buf,
                          const float *scales, const int32_t *zero_points,
                          const int *divides)
{
  for (int i = 0; i < n; i++)
    oracle_detessdequant_conv (&in_specs[i], in_buf + in_offsets[i],
                               &out_specs[i], scales[i], zero_points[i],
                               divides ? divides[i] : 0,
                               out_buf + out_offsets[i]);
}

void
oracle_detesscast_set (int n, const SimaTensorSpec *in_specs,
                       const uint64_t *in_offsets, const uint8_t *in_buf,
                       const SimaTensorSpec *out_specs,
                       const uint64_t *out_offsets, uint8_t *out_buf)
{
  for (int i = 0; i < n; i++)
    oracle_detesscast (&in_specs[i], in_buf + in_offsets[i], &out_specs[i],
                       out_buf + out_offsets[i]);
}

void
oracle_guard_fill (uint8_t *buf, uint64_t buf_bytes, const uint8_t *pattern,
                   size_t pattern_len)
{
  for (uint64_t i = 0; i < buf_bytes; i++)
    buf[i] = pattern[i % pattern_len];
}

int64_t
oracle_guard_check (const uint8_t *buf, uint64_t buf_bytes, int n,
                    const SimaTensorSpec *specs, const uint64_t *offsets,
                    const uint8_t *pattern, size_t pattern_len)
{
  /* Sweep a cursor: while a member holds it, jump to that member's end;
   * otherwise check the guard run up to the next member's start. Members may
   * be listed in any order and may be empty. */
  uint64_t cur = 0;
  for (;;) {
    uint64_t next_lo = buf_bytes;
    int inside = 0;
    for (int k = 0; k < n; k++) {
      uint64_t lo = offsets[k], hi = lo + oracle_required_bytes (&specs[k]);
      if (hi == lo)
        continue;
      if (lo <= cur && cur < hi) {
        cur = hi;
        inside = 1;
      } else if (lo > cur && lo < next_lo) {
        next_lo = lo;
      }
    }
    if (inside)
      continue;                 /* rescan from the member's end */
    for (; cur < next_lo && cur < buf_bytes; cur++)
      if (buf[cur] != pattern[cur % pattern_len])
        return (int64_t) cur;
    if (cur >= buf_bytes)
      return -1;
  }
}
