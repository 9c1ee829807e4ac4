/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * TensorSet v1 (route 53) on the device: the container is checked as a
 * whole before any member runs, because a set is one job: a member that
 * would be refused must not leave the members before it half-written.
 *
 * Order (docs/ev74-descriptors.md, "TensorSet v1"): the container's own
 * fields; the table and how the members tile the bytes; each member's
 * header (magic, length, CRC, route, relocation block zero); the
 * container's bindings; each member bound by the firmware to
 * base + offset and put through its op's own decoder (every single-job rule
 * applies, the core's admission included); the two tensor sets rebuilt
 * from the decoded specs and the offsets and checked by the core's
 * sima_tensor_set_check (alignment, overlap); the capacities it derives
 * against the container's spans. Then the members run in table order.
 *
 * Stack: a decoded member job is up to 3.6 KiB (a QuantTess plan and pack
 * job), so 16 of them are not kept. Validation decodes members one at a
 * time into one job and keeps only their specs (in the two sets, which
 * sima_tensor_set_check needs whole); running re-decodes member k into
 * the same job right before it runs. Decoding is a pure function of the
 * bytes, so the second decode gives the job the first one validated; it
 * costs a few microseconds per member, against a member's DMA.
 */
#include <string.h>

#include <simaai/kernels/ev74/tensor_set_wire.h>
#include <simaai/kernels/tensor_set.h>

#include "descriptor_check.h"
#include "detesscast_fw.h"
#include "detessdequant_fw.h"
#include "pack_fw.h"
#include "tensor_set_fw.h"

#define TS(field) SIMA_EV74_TS_OFF (field)
#define ENTRY(field) SIMA_EV74_TS_ENTRY_OFF (field)

enum { MAX_MEMBERS = SIMA_EV74_TENSOR_SET_MAX_MEMBERS };

typedef union {
  SimaFwQuantTessJob qt;
  SimaFwCastTessJob ct;
  SimaFwDetessDequantJob dd;
  SimaFwDetessCastJob dc;
} MemberJob;

/* A member descriptor, copied out of the container (which is shared by
 * every worker and never written) and bound to its place in the sets'
 * buffers. */
typedef struct {
  uint8_t bytes[SIMA_EV74_TENSOR_SET_MEMBER_MAX_BYTES];
  uint32_t length;
  uint16_t route;
  uint64_t input_offset, output_offset;
} BoundMember;

static SimaStatus
bad (const char *what, long long value)
{
  return sima_status_make (SIMA_INVALID_DESCRIPTOR,
      "TensorSet descriptor %s is %lld", what, value);
}

static SimaStatus
bad_member (unsigned k, const char *what)
{
  return sima_status_make (SIMA_INVALID_DESCRIPTOR,
      "TensorSet descriptor member %u %s", k, what);
}

/* A member's own rejection, with the member named (truncated to fit). */
static SimaStatus
member_status (unsigned k, const SimaStatus *st)
{
  return sima_status_make (st->code, "tensor set member %u: %s", k,
      st->message);
}

static uint64_t
entry_u64 (const uint8_t *d, unsigned k, size_t field)
{
  return sima_ev74_get_u64 (d, sima_ev74_tensor_set_entry (k) + field);
}

static uint32_t
entry_length (const uint8_t *d, unsigned k)
{
  return sima_ev74_get_u16 (d, sima_ev74_tensor_set_entry (k)
      + ENTRY (length));
}

/* Where each member starts. Only after check_structure accepted d. */
static void
member_positions (const uint8_t *d, unsigned count, uint32_t *pos)
{
  uint32_t at = sima_ev74_tensor_set_members (count);
  unsigned k;

  for (k = 0; k < count; k++) {
    pos[k] = sima_ev74_tensor_set_align (at);
    at = pos[k] + entry_length (d, k);
  }
}

/* The container's fields, the table, the tiling, each member's header. */
static SimaStatus
check_structure (const uint8_t *d, uint32_t length, unsigned *countp)
{
  unsigned count, k;
  uint32_t at;

  if (sima_ev74_get_u16 (d, TS (version)) != SIMA_EV74_TENSOR_SET_VERSION)
    return bad ("version", sima_ev74_get_u16 (d, TS (version)));
  if (sima_ev74_get_u16 (d, TS (flags)) != 0)
    return bad ("flags", sima_ev74_get_u16 (d, TS (flags)));
  if (length < SIMA_EV74_TENSOR_SET_TABLE)
    return bad ("length", length);
  count = sima_ev74_get_u8 (d, TS (count));
  if (count < 1 || count > MAX_MEMBERS)
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "TensorSet descriptor member count is %u; a set has 1 to %d",
        count, (int) MAX_MEMBERS);
  if (!sima_ev74_all_zero (d, TS (reserved0), 7))
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "TensorSet descriptor has nonzero reserved bytes");
  at = sima_ev74_tensor_set_members (count);
  if (length < at)
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "TensorSet descriptor length %lu is too short for a table of %u "
        "members", (unsigned long) length, count);

  /* the members tile the rest exactly: member k at the end of member k-1
   * rounded up to 8, zero padding, nothing after the last */
  for (k = 0; k < count; k++) {
    uint32_t e = sima_ev74_tensor_set_entry (k), n = entry_length (d, k);
    uint32_t start = sima_ev74_tensor_set_align (at);
    if (!sima_ev74_all_zero (d, e + ENTRY (reserved), 6))
      return bad_member (k, "table entry has nonzero reserved bytes");
    if (n < SIMA_EV74_HEADER_BYTES || n > SIMA_EV74_TENSOR_SET_MEMBER_MAX_BYTES)
      return sima_status_make (SIMA_INVALID_DESCRIPTOR,
          "TensorSet descriptor member %u length is %lu; a member is %d to "
          "%d bytes", k, (unsigned long) n, (int) SIMA_EV74_HEADER_BYTES,
          (int) SIMA_EV74_TENSOR_SET_MEMBER_MAX_BYTES);
    if (start > length || n > length - start)
      return sima_status_make (SIMA_INVALID_DESCRIPTOR,
          "TensorSet descriptor member %u (%lu bytes at %lu) overruns the "
          "descriptor's %lu bytes", k, (unsigned long) n,
          (unsigned long) start, (unsigned long) length);
    if (!sima_ev74_all_zero (d, at, start - at))
      return bad_member (k, "is preceded by nonzero padding");
    at = start + n;
  }
  if (at != length)
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "TensorSet descriptor members end at byte %lu but the descriptor "
        "is %lu bytes", (unsigned long) at, (unsigned long) length);

  /* each member as its own descriptor, before anything is decoded */
  at = sima_ev74_tensor_set_members (count);
  for (k = 0; k < count; k++) {
    const uint8_t *m;
    uint32_t n = entry_length (d, k);
    uint16_t route;
    at = sima_ev74_tensor_set_align (at);
    m = d + at;
    if (sima_ev74_get_u32 (m, SIMA_EV74_OFF_MAGIC) != SIMA_EV74_MAGIC)
      return bad_member (k, "has a wrong magic");
    if (sima_ev74_get_u16 (m, SIMA_EV74_OFF_LENGTH) != n)
      return sima_status_make (SIMA_INVALID_DESCRIPTOR,
          "TensorSet descriptor member %u length field is %u but its table "
          "entry says %lu", k,
          (unsigned) sima_ev74_get_u16 (m, SIMA_EV74_OFF_LENGTH),
          (unsigned long) n);
    if (sima_ev74_get_u32 (m, SIMA_EV74_OFF_CRC)
        != sima_ev74_descriptor_crc (m, n))
      return bad_member (k, "CRC does not match its bytes");
    route = sima_ev74_get_u16 (m, SIMA_EV74_OFF_ROUTE);
    if (route == SIMA_EV74_ROUTE_TENSOR_SET)
      return bad_member (k, "is a TensorSet container: containers do not "
          "nest");
    /* the image that registers route 53 registers these four too
     * (native_entry.c), so an allowed route is always served */
    if (route != SIMA_EV74_ROUTE_QUANTTESS
        && route != SIMA_EV74_ROUTE_CASTTESS
        && route != SIMA_EV74_ROUTE_DETESSDEQUANT
        && route != SIMA_EV74_ROUTE_DETESSCAST)
      return sima_status_make (SIMA_INVALID_DESCRIPTOR,
          "TensorSet descriptor member %u route %u is not QuantTess (49), "
          "DetessDequant (50), CastTess (51) or DetessCast (52)", k,
          (unsigned) route);
    if (!sima_ev74_all_zero (m, SIMA_EV74_RELOCATION_BEGIN,
            SIMA_EV74_RELOCATION_END - SIMA_EV74_RELOCATION_BEGIN))
      return bad_member (k, "has a nonzero relocation block (the firmware "
          "binds members; they are sent relocatable)");
    at += n;
  }
  *countp = count;
  return sima_status_ok ();
}

/* One side of member k's binding: base + offset, the bound length left
 * after the offset. An offset must be a 32-bit bus offset, and a member
 * with bytes on this side must start inside the container's binding; an
 * empty one (span 0) may sit anywhere and gets a bound length of 0. */
static SimaStatus
bind_side (const uint8_t *d, unsigned k, int input, BoundMember *m)
{
  const char *role = input ? "input" : "output";
  uint64_t offset = input ? m->input_offset : m->output_offset;
  uint64_t base = sima_ev74_get_u64 (d, input ? SIMA_EV74_OFF_INPUT_ADDRESS
      : SIMA_EV74_OFF_OUTPUT_ADDRESS);
  uint32_t bound = sima_ev74_get_u32 (d, input ? SIMA_EV74_OFF_INPUT_LENGTH
      : SIMA_EV74_OFF_OUTPUT_LENGTH);
  uint64_t span = sima_ev74_get_u64 (m->bytes, input
      ? SIMA_EV74_OFF_INPUT_SPAN : SIMA_EV74_OFF_OUTPUT_SPAN);

  if (offset >= SIMA_EV74_APERTURE_LIMIT)
    return sima_status_make (SIMA_NOT_REPRESENTABLE,
        "TensorSet descriptor member %u %s offset %llu is not a 32-bit bus "
        "offset", k, role, (unsigned long long) offset);
  if (span > 0 && offset > bound)
    return sima_status_make (SIMA_INVALID_DESCRIPTOR,
        "TensorSet descriptor member %u %s offset %llu is beyond the bound "
        "length of %lu bytes", k, role, (unsigned long long) offset,
        (unsigned long) bound);
  /* base < 2^32 (the container's binding was checked) and offset < 2^32:
   * the sum cannot wrap; the member's decoder checks it against the
   * aperture */
  sima_ev74_put_u64 (m->bytes, input ? SIMA_EV74_OFF_INPUT_ADDRESS
      : SIMA_EV74_OFF_OUTPUT_ADDRESS, base + offset);
  sima_ev74_put_u32 (m->bytes, input ? SIMA_EV74_OFF_INPUT_LENGTH
      : SIMA_EV74_OFF_OUTPUT_LENGTH,
      offset <= bound ? bound - (uint32_t) offset : 0);
  return sima_status_ok ();
}

/* Member k, copied out of the container and bound. */
static SimaStatus
bind_member (const uint8_t *d, unsigned k, uint32_t pos, BoundMember *m)
{
  SimaStatus st;

  m->length = entry_length (d, k);
  memcpy (m->bytes, d + pos, m->length);
  m->route = sima_ev74_get_u16 (m->bytes, SIMA_EV74_OFF_ROUTE);
  m->input_offset = entry_u64 (d, k, ENTRY (input_offset));
  m->output_offset = entry_u64 (d, k, ENTRY (output_offset));
  st = bind_side (d, k, 1, m);
  if (sima_status_is_ok (&st))
    st = bind_side (d, k, 0, m);
  return st;
}

/* The member's op decoder: every rule of a single job. On success *in and
 * *out point at the member's admitted specs inside job. */
static SimaStatus
decode_member (const BoundMember *m, MemberJob *job,
    const SimaTensorSpec **in, const SimaTensorSpec **out)
{
  SimaStatus st;

  switch (m->route) {
    case SIMA_EV74_ROUTE_QUANTTESS:
      st = simafw_quanttess_decode (m->bytes, m->length, &job->qt);
      *in = &job->qt.plan.input;
      *out = &job->qt.plan.output;
      return st;
    case SIMA_EV74_ROUTE_CASTTESS:
      st = simafw_casttess_decode (m->bytes, m->length, &job->ct);
      *in = &job->ct.plan.input;
      *out = &job->ct.plan.output;
      return st;
    case SIMA_EV74_ROUTE_DETESSCAST:
      st = simafw_detesscast_decode (m->bytes, m->length, &job->dc);
      *in = &job->dc.plan.input;
      *out = &job->dc.plan.output;
      return st;
    default:    /* DetessDequant: check_structure allowed nothing else */
      st = simafw_detessdequant_decode (m->bytes, m->length, &job->dd);
      *in = &job->dd.plan.input;
      *out = &job->dd.plan.output;
      return st;
  }
}

/* What validation holds at once: the two sets and one member being
 * decoded (about 11 KiB). */
typedef struct {
  SimaTensorSet sets[2];
  SimaTensorSetLayout layout;
  BoundMember member;
  MemberJob job;
  uint32_t pos[MAX_MEMBERS];
} SetCheck;

static SimaStatus
validate (const uint8_t *d, uint32_t length, SetCheck *c, unsigned *countp)
{
  static const char *const role[2] = { "input", "output" };
  const SimaTensorSpec *in, *out;
  unsigned count = 0, k, side;
  uint32_t bus;
  SimaStatus st = check_structure (d, length, &count);

  if (!sima_status_is_ok (&st))
    return st;
  /* the container's own bindings: its spans inside the aperture and
   * covered; members are placed inside them (alignment is the members') */
  st = simafw_check_binding (d, "input", 1, &bus);
  if (sima_status_is_ok (&st))
    st = simafw_check_binding (d, "output", 1, &bus);
  if (sima_status_is_ok (&st))
    st = simafw_check_disjoint (d);
  if (!sima_status_is_ok (&st))
    return st;

  member_positions (d, count, c->pos);
  c->sets[0].n_members = c->sets[1].n_members = count;
  for (k = 0; k < count; k++) {
    st = bind_member (d, k, c->pos[k], &c->member);
    if (!sima_status_is_ok (&st))
      return st;
    st = decode_member (&c->member, &c->job, &in, &out);
    if (!sima_status_is_ok (&st))
      return member_status (k, &st);
    c->sets[0].members[k].spec = *in;
    c->sets[0].members[k].offset = c->member.input_offset;
    c->sets[1].members[k].spec = *out;
    c->sets[1].members[k].offset = c->member.output_offset;
  }
  for (side = 0; side < 2; side++) {
    uint64_t span = sima_ev74_get_u64 (d, side == 0 ? TS (input_span)
        : TS (output_span));
    st = sima_tensor_set_check (&c->sets[side], role[side], &c->layout);
    if (!sima_status_is_ok (&st))
      return st;
    if (c->layout.capacity != span)
      return sima_status_make (SIMA_INVALID_DESCRIPTOR,
          "TensorSet descriptor %s span is %llu bytes but the %s set's "
          "capacity is %llu", role[side], (unsigned long long) span,
          role[side], (unsigned long long) c->layout.capacity);
  }
  *countp = count;
  return sima_status_ok ();
}

/* Everything before the first member runs; the validation state lives in
 * this frame only, so it is gone before members run. */
static SimaStatus
check_all (const uint8_t *d, uint32_t length, unsigned *count)
{
  SetCheck c;
  SimaStatus st = simafw_check_header (d, length);

  if (!sima_status_is_ok (&st))
    return st;
  if (sima_ev74_get_u16 (d, TS (route)) != SIMA_EV74_ROUTE_TENSOR_SET)
    return bad ("route", sima_ev74_get_u16 (d, TS (route)));
  return validate (d, length, &c, count);
}

SimaStatus
simafw_tensor_set_validate (const uint8_t *d, uint32_t length)
{
  unsigned count = 0;
  return check_all (d, length, &count);
}

/* Runs member by member; only the bound copy and one job are live. */
static SimaStatus
run_members (SimaFwHal *hal, const uint8_t *d, unsigned count)
{
  uint32_t pos[MAX_MEMBERS];
  const SimaTensorSpec *in, *out;
  BoundMember member;
  MemberJob job;
  SimaStatus st = sima_status_ok ();
  unsigned k;

  member_positions (d, count, pos);
  for (k = 0; k < count; k++) {
    st = bind_member (d, k, pos[k], &member);
    if (sima_status_is_ok (&st))
      st = decode_member (&member, &job, &in, &out);
    if (!sima_status_is_ok (&st))   /* validated: cannot happen */
      return member_status (k, &st);
    /* the previous member returned with its transfers complete: its
     * slots are free for this one */
    hal->ops->scratch_reset (hal);
    switch (member.route) {
      case SIMA_EV74_ROUTE_DETESSDEQUANT:
        st = simafw_detessdequant_run (hal, &job.dd);
        break;
      case SIMA_EV74_ROUTE_DETESSCAST:
        st = simafw_detesscast_run (hal, &job.dc);
        break;
      default:
        st = simafw_pack_run (hal, member.route == SIMA_EV74_ROUTE_QUANTTESS
            ? &job.qt.pack : &job.ct.pack);
    }
    if (!sima_status_is_ok (&st))
      return member_status (k, &st);
  }
  return st;
}

SimaStatus
simafw_tensor_set_run (SimaFwHal *hal, const uint8_t *d, uint32_t length)
{
  unsigned count = 0;
  SimaStatus st = check_all (d, length, &count);

  return sima_status_is_ok (&st) ? run_members (hal, d, count) : st;
}
