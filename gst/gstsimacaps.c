/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsimacaps.h"
#include "gstsimadialect.h"
#include "gstsimavideo.h"

#include <simaai/kernels/layout.h>

#include <string.h>


void
gst_sima_value_set_int_array (GValue *value, const int64_t *v, int n)
{
  int i;

  g_value_init (value, GST_TYPE_ARRAY);
  for (i = 0; i < n; i++) {
    GValue e = G_VALUE_INIT;
    /* extents and axes fit int; the caps syntax writes them (int)<...> */
    g_value_init (&e, G_TYPE_INT);
    g_value_set_int (&e, (gint) v[i]);
    gst_value_array_append_and_take_value (value, &e);
  }
}

void
gst_sima_value_set_int64_array (GValue *value, const int64_t *v, int n)
{
  int i;

  g_value_init (value, GST_TYPE_ARRAY);
  for (i = 0; i < n; i++) {
    GValue e = G_VALUE_INIT;
    g_value_init (&e, G_TYPE_INT64);
    g_value_set_int64 (&e, v[i]);
    gst_value_array_append_and_take_value (value, &e);
  }
}

static gboolean
fail (gchar **error, const gchar *fmt, ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (gchar **error, const gchar *fmt, ...)
{
  va_list args;
  va_start (args, fmt);
  if (error != NULL)
    *error = g_strdup_vprintf (fmt, args);
  va_end (args);
  return FALSE;
}

/* How spec_from_fields finds a field: the structure itself for a single
 * tensor, one member's entry for a set. *out = NULL when absent. */
typedef gboolean (*FieldGetter) (gpointer user, const gchar *field,
    gboolean array_valued, const GValue **out, gchar **error);

static gboolean
structure_get (gpointer user, const gchar *field, gboolean array_valued,
    const GValue **out, gchar **error)
{
  *out = gst_structure_get_value (user, field);
  return TRUE;
}

/* An int array value (int or int64 entries) of at most max entries: the
 * count, or -1. */
static int
value_get_int_array (const GValue *v, int64_t *out, int max)
{
  guint i, n;

  if (v == NULL || !GST_VALUE_HOLDS_ARRAY (v))
    return -1;
  n = gst_value_array_get_size (v);
  if (n > (guint) max)
    return -1;
  for (i = 0; i < n; i++) {
    const GValue *e = gst_value_array_get_value (v, i);
    if (G_VALUE_HOLDS_INT (e))
      out[i] = g_value_get_int (e);
    else if (G_VALUE_HOLDS_INT64 (e))
      out[i] = g_value_get_int64 (e);
    else
      return -1;
  }
  return (int) n;
}

int
gst_sima_structure_get_int_array (const GstStructure *s, const gchar *field,
    int64_t *out, int max)
{
  return value_get_int_array (gst_structure_get_value (s, field), out, max);
}

static const gchar *
value_get_string (const GValue *v)
{
  return v != NULL && G_VALUE_HOLDS_STRING (v) ? g_value_get_string (v)
      : NULL;
}

/* Reads one tensor's fields (docs/elements.md) through get. */
static gboolean
spec_from_fields (FieldGetter get, gpointer user, SimaTensorSpec *spec,
    gchar **error)
{
  const GValue *v;
  const gchar *name;
  int n, k;

#define GET(field, array_valued) \
  G_STMT_START { \
    if (!get (user, field, array_valued, &v, error)) \
      return FALSE; \
  } G_STMT_END

  memset (spec, 0, sizeof *spec);
  GET ("dtype", FALSE);
  name = value_get_string (v);
  if (name == NULL || !sima_dtype_from_name (name, &spec->dtype))
    return fail (error, "caps field dtype is %s; it must be float32, "
        "float16, bfloat16 or int8", name ? name : "missing");
  GET ("shape", TRUE);
  n = value_get_int_array (v, spec->shape, SIMA_MAX_RANK);
  if (n < 1)
    return fail (error, "caps field shape must be an array of 1 to %d ints, "
        "e.g. shape=(int)<1,224,224,3>", SIMA_MAX_RANK);
  spec->rank = n;
  GET ("layout", FALSE);
  name = value_get_string (v);
  if (v == NULL)
    spec->layout = SIMA_LAYOUT_CONTIGUOUS;
  else if (name == NULL || !sima_layout_from_name (name, &spec->layout))
    return fail (error, "caps field layout is %s; it must be contiguous, "
        "strided, mla-tiled or mla-cblocked", name ? name : "not a string");

  if (spec->layout == SIMA_LAYOUT_STRIDED) {
    GET ("strides", TRUE);
    if (value_get_int_array (v, spec->strides_bytes, SIMA_MAX_RANK)
        != spec->rank)
      return fail (error, "caps field strides must be an array of %d byte "
          "strides for layout strided", spec->rank);
  }
  if (spec->layout == SIMA_LAYOUT_MLA_TILED) {
    int64_t axes[4];
    const GValue *axes_v, *shape_v;

    GET ("tile-axes", TRUE);
    axes_v = v;
    GET ("tile-shape", TRUE);
    shape_v = v;
    if (value_get_int_array (axes_v, axes, 4) != 4
        || value_get_int_array (shape_v, spec->tiled.tile_shape, 4) != 4)
      return fail (error, "caps fields tile-axes and tile-shape must be "
          "arrays of 4 ints (D,H,W,C) for layout mla-tiled");
    for (k = 0; k < 4; k++) {
      if (axes[k] < -1 || axes[k] >= SIMA_MAX_RANK)
        return fail (error, "caps field tile-axes has %lld; axes are -1 to "
            "%d", (long long) axes[k], SIMA_MAX_RANK - 1);
      spec->tiled.axes[k] = (int8_t) axes[k];
    }
    GET ("channels", FALSE);
    name = value_get_string (v);
    if (name == NULL || !sima_channels_from_name (name,
            &spec->tiled.channels))
      return fail (error, "caps field channels is %s; it must be compact or "
          "pad16", name ? name : "missing");    /* SiMa's cblock tile order; absent: the plain order */
    GET ("cblock", FALSE);
    if (v != NULL && !G_VALUE_HOLDS_BOOLEAN (v))
      return fail (error, "caps field cblock must be a boolean, "
          "cblock=(boolean)true");
    spec->tiled.cblock = v != NULL && g_value_get_boolean (v);
  }
#undef GET
  return TRUE;
}

gboolean
gst_sima_caps_to_spec (const GstStructure *s, SimaTensorSpec *spec,
    gchar **error)
{
  memset (spec, 0, sizeof *spec);
  if (!gst_structure_has_name (s, GST_SIMA_TENSOR_MEDIA_TYPE))
    return fail (error, "caps are %s, not " GST_SIMA_TENSOR_MEDIA_TYPE,
        gst_structure_get_name (s));
  if (gst_sima_caps_is_set (s))
    return fail (error, "caps describe a tensor set (representation="
        GST_SIMA_TENSOR_SET_REPRESENTATION "), not one tensor");
  return spec_from_fields (structure_get, (gpointer) s, spec, error);
}

/* ---- tensor sets --------------------------------------------------------- */

/* An array whose entries are themselves arrays: the per-member form of an
 * array-valued field (shape, strides, tile-axes, tile-shape). */
static gboolean
holds_array_of_arrays (const GValue *v)
{
  return GST_VALUE_HOLDS_ARRAY (v) && gst_value_array_get_size (v) > 0
      && GST_VALUE_HOLDS_ARRAY (gst_value_array_get_value (v, 0));
}

/* representation=tensor-set, and a shape that lists shapes (or none yet).
 * GStreamer intersects a structure without a field with any value of it,
 * so a single tensor's caps meet the templates' tensor-set structure and
 * come out with representation=tensor-set and a single shape: that is
 * still one tensor. */
gboolean
gst_sima_caps_is_set (const GstStructure *s)
{
  const gchar *r = gst_structure_get_string (s, "representation");
  const GValue *shape = gst_structure_get_value (s, "shape");

  return r != NULL && strcmp (r, GST_SIMA_TENSOR_SET_REPRESENTATION) == 0
      && (shape == NULL || !GST_VALUE_HOLDS_ARRAY (shape)
          || gst_value_array_get_size (shape) == 0
          || holds_array_of_arrays (shape));
}

/* Member i's value of a set field: the i-th entry of a per-member array,
 * or the field itself when it holds one value for every member (a string,
 * a boolean, or a plain int array for the array-valued fields). NULL when
 * the field is absent. FALSE when a per-member array has the wrong number
 * of entries. */
static gboolean
member_value (const GstStructure *s, const gchar *field, gboolean array_valued,
    guint i, guint n, const GValue **out, gchar **error)
{
  const GValue *v = gst_structure_get_value (s, field);
  gboolean per_member;

  *out = NULL;
  if (v == NULL)
    return TRUE;
  per_member = array_valued ? holds_array_of_arrays (v)
      : GST_VALUE_HOLDS_ARRAY (v);
  if (!per_member) {
    *out = v;
    return TRUE;
  }
  if (gst_value_array_get_size (v) != n)
    return fail (error, "caps field %s has %u entries for a set of %u "
        "members (one per member, in member order)", field,
        gst_value_array_get_size (v), n);
  *out = gst_value_array_get_value (v, i);
  return TRUE;
}

/* A field reader for one member of a set. */
typedef struct
{
  const GstStructure *s;
  guint i, n;
} MemberFields;

static gboolean
member_get (gpointer user, const gchar *field, gboolean array_valued,
    const GValue **out, gchar **error)
{
  MemberFields *m = user;
  return member_value (m->s, field, array_valued, m->i, m->n, out, error);
}

static gboolean canonical_to_set (const GstStructure *s, SimaTensorSet *set,
    gchar **error);

/* SiMa's dialects are translated in one place (gstsimadialect.c) and read
 * as the canonical caps they stand for. */
gboolean
gst_sima_caps_to_set (const GstStructure *s, SimaTensorSet *set,
    gchar **error)
{
  GstStructure *canonical;
  gboolean ok;

  if (gst_sima_video_is_video (s)) {
    /* a camera frame: a strided UINT8 view in place (gstsimavideo.c) */
    GstCaps *caps = gst_caps_new_full (gst_structure_copy (s), NULL);
    GstVideoInfo info;
    gboolean ok = gst_video_info_from_caps (&info, caps);
    gst_caps_unref (caps);
    if (!ok)
      return fail (error, "video caps %s are not a fixed video format this "
          "element reads", gst_structure_get_name (s));
    return gst_sima_video_to_set (&info, NULL, set, error);
  }
  if (gst_sima_dialect_of (s) == GST_SIMA_DIALECT_CANONICAL)
    return canonical_to_set (s, set, error);
  memset (set, 0, sizeof *set);
  canonical = gst_sima_dialect_to_canonical (s, error);
  if (canonical == NULL)
    return FALSE;
  ok = canonical_to_set (canonical, set, error);
  gst_structure_free (canonical);
  return ok;
}

static gboolean
canonical_to_set (const GstStructure *s, SimaTensorSet *set,
    gchar **error)
{
  const GValue *shape, *offsets;
  SimaTensorSpec specs[SIMA_TENSOR_SET_MAX_MEMBERS];
  SimaStatus st;
  guint i, n;

  memset (set, 0, sizeof *set);
  if (!gst_sima_caps_is_set (s)) {
    if (!gst_sima_caps_to_spec (s, &specs[0], error))
      return FALSE;
    sima_tensor_set_single (&specs[0], set);
    return TRUE;
  }
  if (!gst_structure_has_name (s, GST_SIMA_TENSOR_MEDIA_TYPE))
    return fail (error, "caps are %s, not " GST_SIMA_TENSOR_MEDIA_TYPE,
        gst_structure_get_name (s));
  shape = gst_structure_get_value (s, "shape");
  if (shape == NULL || !holds_array_of_arrays (shape))
    return fail (error, "caps field shape of a tensor set must be an array "
        "of shapes, one per member: shape=(int)<<80,80,64>,<40,40,64>>");
  n = gst_value_array_get_size (shape);
  if (n > SIMA_TENSOR_SET_MAX_MEMBERS)
    return fail (error, "caps field shape lists %u members; a tensor set "
        "has 1 to %d", n, SIMA_TENSOR_SET_MAX_MEMBERS);
  for (i = 0; i < n; i++) {
    MemberFields m = { s, i, n };
    gchar *why = NULL;
    if (!spec_from_fields (member_get, &m, &specs[i], &why)) {
      fail (error, "caps member %u: %s", i, why);
      g_free (why);
      return FALSE;
    }
  }
  offsets = gst_structure_get_value (s, "offsets");
  if (offsets == NULL) {
    /* nobody chose: back to back, 16-byte aligned (docs/elements.md) */
    st = sima_tensor_set_pack (specs, n, GST_SIMA_SET_PACK_ALIGNMENT,
        "caps", set);
    if (st.code != SIMA_OK)
      return fail (error, "%s", st.message);
    return TRUE;
  }
  {
    int64_t off[SIMA_TENSOR_SET_MAX_MEMBERS];
    if (gst_sima_structure_get_int_array (s, "offsets", off,
            SIMA_TENSOR_SET_MAX_MEMBERS) != (int) n)
      return fail (error, "caps field offsets must be an array of %u byte "
          "offsets, one per member", n);
    set->n_members = n;
    for (i = 0; i < n; i++) {
      if (off[i] < 0)
        return fail (error, "caps field offsets has %lld for member %u; "
            "offsets are >= 0", (long long) off[i], i);
      set->members[i].spec = specs[i];
      set->members[i].offset = (uint64_t) off[i];
    }
  }
  st = sima_tensor_set_check (set, "caps", NULL);
  if (st.code != SIMA_OK)
    return fail (error, "%s", st.message);
  return TRUE;
}

gboolean
gst_sima_caps_required_bytes (const GstCaps *caps, guint64 *bytes,
    gchar **error)
{
  SimaTensorSet set;
  SimaTensorSetLayout layout;
  SimaStatus st;

  if (caps == NULL || gst_caps_get_size (caps) < 1)
    return fail (error, "no caps");
  if (!gst_sima_caps_to_set (gst_caps_get_structure (caps, 0), &set, error))
    return FALSE;
  st = sima_tensor_set_check (&set, "tensor", &layout);
  if (st.code != SIMA_OK)
    return fail (error, "%s", st.message);
  *bytes = layout.capacity;
  return TRUE;
}
