/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Admission of contiguous and strided views: the rules of docs/layout.md
 * ("Dense and strided views"). A strided view is admitted only when a
 * sorted-span proof shows that no two logical elements share a byte.
 */
#include <simaai/kernels/layout.h>

#include <string.h>

#include "../checked.h"

SimaStatus
sima_shape_check (const SimaTensorSpec *spec, const char *role)
{
  int i;

  if (spec->rank < 1 || spec->rank > SIMA_MAX_RANK)
    return sima_status_make (SIMA_INVALID_RANK,
        "%s rank is %d, must be 1 to %d", role, spec->rank, SIMA_MAX_RANK);
  for (i = 0; i < spec->rank; i++) {
    if (spec->shape[i] < 0)
      return sima_status_make (SIMA_INVALID_SHAPE,
          "%s extent on axis %d is %lld, must be >= 0", role, i,
          (long long) spec->shape[i]);
  }
  return sima_status_ok ();
}

int
sima_shape_is_empty (const SimaTensorSpec *spec)
{
  int i;
  for (i = 0; i < spec->rank; i++)
    if (spec->shape[i] == 0)
      return 1;
  return 0;
}

/* Row-major strides and size of a nonempty contiguous view. */
static SimaStatus
admit_contiguous (const SimaTensorSpec *spec, const char *role,
    SimaStridedView *view)
{
  uint64_t bytes = (uint64_t) view->scalar_bytes;
  int i;

  for (i = spec->rank - 1; i >= 0; i--) {
    view->strides_bytes[i] = (int64_t) bytes;
    if (sima_checked_mul (bytes, (uint64_t) spec->shape[i], &bytes))
      return sima_status_make (SIMA_SIZE_OVERFLOW,
          "%s size overflows 64 bits at axis %d (extent %lld)", role, i,
          (long long) spec->shape[i]);
  }
  view->required_bytes = bytes;
  view->element_count = bytes / (uint64_t) view->scalar_bytes;
  return sima_status_ok ();
}

/* The sorted-span proof: visiting the axes of extent > 1 by increasing
 * stride, each stride must reach beyond every byte addressed by the axes
 * before it (scalar + sum((n-1)*stride)). Equal strides, interleaved views
 * and overlaps all fail it; some exotic non-overlapping interleavings fail it
 * too, which is the conservative choice the specs ask for. */
static SimaStatus
admit_strided_spans (const SimaTensorSpec *spec, const char *role,
    SimaStridedView *view)
{
  int order[SIMA_MAX_RANK];
  int n = 0, i, j;
  uint64_t reach = (uint64_t) view->scalar_bytes;
  uint64_t count = 1;

  for (i = 0; i < spec->rank; i++) {
    if (spec->shape[i] <= 1)
      continue;
    /* insertion sort by stride; ties keep axis order */
    for (j = n; j > 0 && spec->strides_bytes[order[j - 1]] >
        spec->strides_bytes[i]; j--)
      order[j] = order[j - 1];
    order[j] = i;
    n++;
  }

  for (j = 0; j < n; j++) {
    int axis = order[j];
    uint64_t stride = (uint64_t) spec->strides_bytes[axis];
    uint64_t extent = (uint64_t) spec->shape[axis];

    if (stride < reach)
      return sima_status_make (SIMA_OVERLAPPING_STRIDES,
          "%s stride on axis %d is %llu bytes, below the %llu bytes the "
          "smaller strides span (overlap or interleave)", role, axis,
          (unsigned long long) stride, (unsigned long long) reach);
    if (sima_checked_madd (&reach, extent - 1, stride)
        || sima_checked_mul (count, extent, &count))
      return sima_status_make (SIMA_SIZE_OVERFLOW,
          "%s span overflows 64 bits at axis %d (extent %lld, stride %lld)",
          role, axis, (long long) extent, (long long) stride);
  }
  view->required_bytes = reach;
  view->element_count = count;
  return sima_status_ok ();
}

SimaStatus
sima_strided_view_admit (const SimaTensorSpec *spec, const char *role,
    SimaStridedView *view)
{
  SimaStatus st;
  int i;

  memset (view, 0, sizeof *view);
  st = sima_shape_check (spec, role);
  if (!sima_status_is_ok (&st))
    return st;
  view->scalar_bytes = sima_dtype_size (spec->dtype);
  if (view->scalar_bytes == 0)
    return sima_status_make (SIMA_UNSUPPORTED_DTYPE,
        "%s dtype %d is not a known dtype", role, (int) spec->dtype);
  view->rank = spec->rank;
  memcpy (view->shape, spec->shape, sizeof view->shape);
  view->empty = sima_shape_is_empty (spec);

  if (spec->layout == SIMA_LAYOUT_CONTIGUOUS)
    return view->empty ? sima_status_ok ()
        : admit_contiguous (spec, role, view);
  if (spec->layout != SIMA_LAYOUT_STRIDED)
    return sima_status_make (SIMA_UNSUPPORTED_LAYOUT,
        "%s layout is %s, must be contiguous or strided", role,
        sima_layout_name (spec->layout));

  /* Signs, alignment and broadcasts are checked even for empty tensors;
   * none of these needs the (possibly huge) product of the extents. */
  for (i = 0; i < spec->rank; i++) {
    int64_t s = spec->strides_bytes[i];
    if (s < 0)
      return sima_status_make (SIMA_INVALID_STRIDES,
          "%s stride on axis %d is %lld bytes; negative strides are not "
          "supported", role, i, (long long) s);
    if (s % view->scalar_bytes != 0)
      return sima_status_make (SIMA_INVALID_STRIDES,
          "%s stride on axis %d is %lld bytes, not a multiple of the "
          "%d-byte scalar", role, i, (long long) s, view->scalar_bytes);
    if (s == 0 && spec->shape[i] > 1)
      return sima_status_make (SIMA_INVALID_STRIDES,
          "%s stride on axis %d is 0 but the extent is %lld; broadcasting "
          "is not supported", role, i, (long long) spec->shape[i]);
  }
  if (view->empty)
    return sima_status_ok ();
  memcpy (view->strides_bytes, spec->strides_bytes,
      sizeof view->strides_bytes);
  for (i = spec->rank; i < SIMA_MAX_RANK; i++)
    view->strides_bytes[i] = 0;  /* unused slots address nothing */
  return admit_strided_spans (spec, role, view);
}

int
sima_strided_view_is_row_major (const SimaStridedView *view)
{
  int64_t expect = view->scalar_bytes;
  int i;

  if (view->empty)
    return 1;
  /* For an admitted view the element bytes are disjoint, so count * scalar
   * <= required_bytes and these products cannot overflow. */
  for (i = view->rank - 1; i >= 0; i--) {
    if (view->shape[i] > 1 && view->strides_bytes[i] != expect)
      return 0;
    expect *= view->shape[i];
  }
  return 1;
}
