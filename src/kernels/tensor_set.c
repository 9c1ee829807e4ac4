/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tensor sets: the placement rules of simaai/kernels/tensor_set.h (stated
 * in docs/layout.md, "Tensor sets"). The EV74 firmware runs
 * sima_tensor_set_check on the sets it rebuilds from a set descriptor, so
 * this file is part of the firmware closure: messages go through
 * sima_status_make only (no snprintf in the device image), and nothing is
 * allocated.
 */
#include <simaai/kernels/tensor_set.h>

#include <simaai/kernels/layout.h>

#include <string.h>

#include "checked.h"

/* Room for "output member 15" and a caller's longer role. */
enum { ROLE_SIZE = 48 };

/* "<role> member <i>": the role sima_tensor_required_bytes starts its
 * messages with, so a spec error reads "input member 3 dtype is ...". A
 * one-member set is a single tensor, and its messages are a single
 * tensor's ("input rank is 2; ..."): the role alone. Built by hand for the
 * same reason as op_common.c's append(). */
static void
member_role (const char *role, size_t i, size_t members, char buf[ROLE_SIZE])
{
  static const char word[] = " member ";
  char digits[24];
  size_t used = 0, n = 0;
  const char *p;

  for (p = role; *p != '\0' && used + 1 < ROLE_SIZE - sizeof word - 3; p++)
    buf[used++] = *p;
  if (members == 1) {
    buf[used] = '\0';
    return;
  }
  for (p = word; *p != '\0'; p++)
    buf[used++] = *p;
  do {
    digits[n++] = (char) ('0' + i % 10);
    i /= 10;
  } while (i != 0 && n < sizeof digits);
  while (n > 0 && used + 1 < ROLE_SIZE)
    buf[used++] = digits[--n];
  buf[used] = '\0';
}

/* The offset alignment of a member, from its spec (0 for an unknown dtype,
 * which the spec check has rejected before this is used). */
static uint64_t
member_alignment (const SimaTensorSpec *spec)
{
  if (spec->layout == SIMA_LAYOUT_MLA_TILED
      || spec->layout == SIMA_LAYOUT_MLA_CBLOCKED)
    return SIMA_TILED_ALIGNMENT;
  return (uint64_t) sima_dtype_size (spec->dtype);
}

static SimaStatus
misaligned_status (const char *mrole, const SimaTensorSetMember *m,
    uint64_t align)
{
  if (m->spec.layout == SIMA_LAYOUT_MLA_TILED
      || m->spec.layout == SIMA_LAYOUT_MLA_CBLOCKED)
    return sima_status_make (SIMA_MISALIGNED_BUFFER,
        "%s: offset %llu is not a multiple of %llu (%s members are "
        "16-byte aligned)", mrole, (unsigned long long) m->offset,
        (unsigned long long) align, sima_layout_name (m->spec.layout));
  return sima_status_make (SIMA_MISALIGNED_BUFFER,
      "%s: offset %llu is not a multiple of %llu (%s members are aligned to "
      "their scalar)", mrole, (unsigned long long) m->offset,
      (unsigned long long) align, sima_dtype_name (m->spec.dtype));
}

static SimaStatus
overflow_status (const char *mrole, uint64_t offset, uint64_t bytes)
{
  return sima_status_make (SIMA_SIZE_OVERFLOW,
      "%s: offset %llu + %llu bytes exceeds 2^63 - 1", mrole,
      (unsigned long long) offset, (unsigned long long) bytes);
}

static SimaStatus
check_count (size_t n, const char *role)
{
  if (n < 1 || n > SIMA_TENSOR_SET_MAX_MEMBERS)
    return sima_status_make (SIMA_INVALID_ARITY,
        "%s set has %zu members; 1 to %d are allowed", role, n,
        (int) SIMA_TENSOR_SET_MAX_MEMBERS);
  return sima_status_ok ();
}

/* Spec, alignment and end of member i; fills lay->bytes/offset/alignment. */
static SimaStatus
check_member (const SimaTensorSetMember *m, const char *role, size_t i,
    SimaTensorSetLayout *lay)
{
  char mrole[ROLE_SIZE];
  uint64_t bytes, align, end;
  SimaStatus st;

  member_role (role, i, lay->n_members, mrole);
  st = sima_tensor_required_bytes (&m->spec, mrole, &bytes);
  if (!sima_status_is_ok (&st))
    return st;
  align = member_alignment (&m->spec);
  lay->offset[i] = m->offset;
  lay->bytes[i] = bytes;
  lay->alignment[i] = align;
  if (bytes == 0)
    return st;                  /* empty: occupies nothing, sits anywhere */
  if (m->offset % align != 0)
    return misaligned_status (mrole, m, align);
  if (sima_checked_add (m->offset, bytes, &end))
    return overflow_status (mrole, m->offset, bytes);
  if (end > lay->capacity)
    lay->capacity = end;
  return st;
}

SimaStatus
sima_tensor_set_check (const SimaTensorSet *set, const char *role,
    SimaTensorSetLayout *out)
{
  SimaTensorSetLayout lay;
  SimaStatus st;
  size_t i, j;

  if (role == NULL)
    role = "tensor";
  if (out != NULL)
    memset (out, 0, sizeof *out);
  if (set == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT, "%s set is NULL", role);
  st = check_count (set->n_members, role);
  if (!sima_status_is_ok (&st))
    return st;
  memset (&lay, 0, sizeof lay);
  lay.n_members = set->n_members;
  for (i = 0; i < set->n_members; i++) {
    st = check_member (&set->members[i], role, i, &lay);
    if (!sima_status_is_ok (&st))
      return st;
  }
  /* At most 16 members: every pair, in index order, so the message names
   * the first offending pair deterministically. Ends cannot overflow:
   * check_member bounded them by SIMA_MAX_BYTES. */
  for (i = 0; i < lay.n_members; i++)
    for (j = i + 1; j < lay.n_members; j++) {
      uint64_t a = lay.offset[i], b = lay.offset[j];
      uint64_t ae = a + lay.bytes[i], be = b + lay.bytes[j];
      if (lay.bytes[i] == 0 || lay.bytes[j] == 0)
        continue;
      if (a < be && b < ae)
        return sima_status_make (SIMA_OVERLAPPING_BUFFERS,
            "%s members %zu and %zu overlap: [%llu, %llu) and [%llu, %llu)",
            role, i, j, (unsigned long long) a, (unsigned long long) ae,
            (unsigned long long) b, (unsigned long long) be);
    }
  if (out != NULL)
    *out = lay;
  return st;
}

void
sima_tensor_set_single (const SimaTensorSpec *spec, SimaTensorSet *out)
{
  memset (out, 0, sizeof *out);
  out->n_members = 1;
  out->members[0].spec = *spec;
  out->members[0].offset = 0;
}

int
sima_tensor_set_is_single (const SimaTensorSet *set)
{
  return set != NULL && set->n_members == 1 && set->members[0].offset == 0;
}

SimaStatus
sima_tensor_set_pack (const SimaTensorSpec *specs, size_t n,
    uint64_t alignment, const char *role, SimaTensorSet *out)
{
  uint64_t end = 0;
  SimaStatus st;
  size_t i;

  if (role == NULL)
    role = "tensor";
  if (out == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "%s set pack: out is NULL", role);
  memset (out, 0, sizeof *out);
  st = check_count (n, role);
  if (!sima_status_is_ok (&st))
    return st;
  if (specs == NULL)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "%s set pack: spec array is NULL", role);
  if (alignment > 4096 || (alignment & (alignment - 1)) != 0)
    return sima_status_make (SIMA_INVALID_ARGUMENT,
        "%s set alignment is %llu, must be 0 or a power of two up to 4096",
        role, (unsigned long long) alignment);
  for (i = 0; i < n; i++) {
    char mrole[ROLE_SIZE];
    uint64_t bytes, align = member_alignment (&specs[i]), offset;

    member_role (role, i, n, mrole);
    st = sima_tensor_required_bytes (&specs[i], mrole, &bytes);
    if (!sima_status_is_ok (&st)) {
      memset (out, 0, sizeof *out);
      return st;
    }
    if (alignment > align)
      align = alignment;        /* both powers of two: max is a multiple */
    if (sima_checked_add (end, align - 1, &offset)) {
      memset (out, 0, sizeof *out);
      return overflow_status (mrole, end, bytes);
    }
    offset &= ~(align - 1);
    if (bytes > 0 && sima_checked_add (offset, bytes, &end)) {
      memset (out, 0, sizeof *out);
      return overflow_status (mrole, offset, bytes);
    }
    /* an empty member takes the next aligned offset and no room */
    out->members[i].spec = specs[i];
    out->members[i].offset = offset;
  }
  out->n_members = n;
  st = sima_tensor_set_check (out, role, NULL);
  if (!sima_status_is_ok (&st))
    memset (out, 0, sizeof *out);
  return st;
}
