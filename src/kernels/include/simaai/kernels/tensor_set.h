/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/tensor_set.h - several tensors in one buffer.
 *
 * A tensor set is an ordered list of 1..SIMA_TENSOR_SET_MAX_MEMBERS tensors,
 * each with its own spec (shape, dtype, layout) and its byte offset inside
 * one buffer: an MLA output buffer holding every head of a detector, or the
 * inputs of a multi-input model. Operations on sets (the *_set_* functions
 * of the ops/ and a65/ headers) convert member i of the input set into
 * member i of the output set with member i's parameters; one call, one
 * EV74 job.
 *
 * Rules (docs/layout.md, "Tensor sets"), checked by sima_tensor_set_check:
 *   - 1..16 members;
 *   - each member's spec is valid on its own (sima_tensor_required_bytes);
 *   - each member's offset is a multiple of its alignment: 16
 *     (SIMA_TILED_ALIGNMENT) for mla-tiled and mla-cblocked members, the
 *     scalar size for contiguous and strided ones;
 *   - a member occupies [offset, offset + required bytes): holes of a
 *     strided member belong to it, so no member may sit inside another's
 *     span; empty members occupy nothing and may sit anywhere;
 *   - no two members' byte ranges overlap, and offset + bytes fits in
 *     SIMA_MAX_BYTES (2^63 - 1);
 *   - the set's capacity is the largest offset + bytes (0 when every member
 *     is empty): the bytes a buffer must hold.
 * Messages name the role, the member and the field ("input member 3:
 * offset 100 is not a multiple of 16, ...").
 */
#ifndef SIMAAI_KERNELS_TENSOR_SET_H
#define SIMAAI_KERNELS_TENSOR_SET_H

#include <stddef.h>
#include <stdint.h>

#include <simaai/kernels/status.h>
#include <simaai/kernels/types.h>
#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

enum { SIMA_TENSOR_SET_MAX_MEMBERS = 16 };

typedef struct {
  SimaTensorSpec spec;
  uint64_t offset;          /* byte offset of the member in the buffer */
} SimaTensorSetMember;

typedef struct {
  size_t n_members;         /* 1..SIMA_TENSOR_SET_MAX_MEMBERS */
  SimaTensorSetMember members[SIMA_TENSOR_SET_MAX_MEMBERS];
} SimaTensorSet;

/* What sima_tensor_set_check derives. */
typedef struct {
  size_t n_members;
  uint64_t offset[SIMA_TENSOR_SET_MAX_MEMBERS];
  uint64_t bytes[SIMA_TENSOR_SET_MAX_MEMBERS];  /* required bytes, 0 empty */
  uint64_t alignment[SIMA_TENSOR_SET_MAX_MEMBERS];
  uint64_t capacity;        /* max(offset + bytes); 0 when all are empty */
} SimaTensorSetLayout;

/* Checks the rules above; `role` ("input", "output") starts every message.
 * out may be NULL. */
SimaStatus sima_tensor_set_check (const SimaTensorSet *set, const char *role,
    SimaTensorSetLayout *out);

/* The one-member set {spec at offset 0}: every single-tensor call is this
 * set. */
void sima_tensor_set_single (const SimaTensorSpec *spec, SimaTensorSet *out);

/* True when set is one member at offset 0 (what a single-tensor buffer
 * holds). */
int sima_tensor_set_is_single (const SimaTensorSet *set);

/* Lays out n specs back to back in order: each offset is the previous
 * member's end rounded up to max(alignment, the member's own alignment);
 * alignment is 0 or a power of two <= 4096. The result passes
 * sima_tensor_set_check (which this runs). This is the default layout of
 * an output set whose offsets nobody chose. */
SimaStatus sima_tensor_set_pack (const SimaTensorSpec *specs, size_t n,
    uint64_t alignment, const char *role, SimaTensorSet *out);

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_TENSOR_SET_H */
