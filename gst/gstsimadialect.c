/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gstsimadialect.c - SiMa.ai's legacy MLA and runtime caps <-> canonical.
 *
 * Every dialect is read into one model (members with a SimaTensorSpec, a
 * cblock flag and an offset) and written out of it, so each direction of
 * each dialect is one reader or one writer. Member validity and sizes come
 * from the kernel core (sima_tensor_required_bytes); the only arithmetic
 * here is the packed-offset rule of tensor sets (each member at the end of
 * the previous one rounded up to 16 bytes), which moves to the core's
 * sima_tensor_set_pack once that lands on this branch.
 * docs/caps-dialects.md is the mapping in prose.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsimadialect.h"

#include <simaai/kernels/layout.h>

#include <stdlib.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (sima_dialect_debug);
#define GST_CAT_DEFAULT sima_dialect_debug

static void
ensure_debug (void)
{
  static gsize once = 0;
  if (g_once_init_enter (&once)) {
    GST_DEBUG_CATEGORY_INIT (sima_dialect_debug, "simadialect", 0,
        "SiMa caps dialects");
    g_once_init_leave (&once, 1);
  }
}

#define MAX_MEMBERS GST_SIMA_DIALECT_MAX_MEMBERS

typedef struct {
  SimaTensorSpec spec;
  gboolean cblock;
} Member;

typedef struct {
  gboolean is_set;              /* tensor-set form (even with one member) */
  guint n;
  Member m[MAX_MEMBERS];
  guint64 offset[MAX_MEMBERS];
  guint64 packed[MAX_MEMBERS];  /* the packed offsets */
  gboolean packed_offsets;      /* offset == packed */
} Model;

static gpointer
fail (gchar **error, const gchar *fmt, ...) G_GNUC_PRINTF (2, 3);

static gpointer
fail (gchar **error, const gchar *fmt, ...)
{
  va_list args;
  va_start (args, fmt);
  if (error != NULL) {
    g_free (*error);
    *error = g_strdup_vprintf (fmt, args);
  }
  va_end (args);
  return NULL;
}

#define FAIL(...) (fail (error, __VA_ARGS__), FALSE)

/* "member 2: " in sets, "" for a single tensor; static storage per call. */
static const gchar *
prefix (const Model *m, guint i, gchar buf[32])
{
  if (!m->is_set)
    return "";
  g_snprintf (buf, 32, "member %u: ", i);
  return buf;
}

/* ---- names -------------------------------------------------------------- */

typedef struct {
  const gchar *sima;
  SimaDType dtype;
} DTypeName;

static const DTypeName runtime_formats[] = {
  {"FP32", SIMA_DTYPE_FLOAT32}, {"FP16", SIMA_DTYPE_FLOAT16},
  {"BF16", SIMA_DTYPE_BFLOAT16}, {"INT8", SIMA_DTYPE_INT8},
  {"UINT8", SIMA_DTYPE_UINT8},
};
#define RUNTIME_FORMATS "FP32, FP16, BF16, INT8 and UINT8"

static gboolean
runtime_format_dtype (const gchar *name, SimaDType *out)
{
  guint k;
  for (k = 0; k < G_N_ELEMENTS (runtime_formats); k++)
    if (name != NULL && strcmp (name, runtime_formats[k].sima) == 0) {
      *out = runtime_formats[k].dtype;
      return TRUE;
    }
  return FALSE;
}

static const gchar *
runtime_format_name (SimaDType dtype)
{
  guint k;
  for (k = 0; k < G_N_ELEMENTS (runtime_formats); k++)
    if (runtime_formats[k].dtype == dtype)
      return runtime_formats[k].sima;
  return NULL;
}

const gchar *
gst_sima_dialect_name (GstSimaDialect dialect)
{
  switch (dialect) {
    case GST_SIMA_DIALECT_CANONICAL:
      return "canonical";
    case GST_SIMA_DIALECT_SIMA_MLA:
      return "SiMa MLA";
    case GST_SIMA_DIALECT_SIMA_RUNTIME:
      return "SiMa runtime";
  }
  return "unknown";
}

/* ---- value helpers ------------------------------------------------------ */

static void
array_append_string (GValue *array, const gchar *str)
{
  GValue e = G_VALUE_INIT;
  g_value_init (&e, G_TYPE_STRING);
  g_value_set_string (&e, str);
  gst_value_array_append_and_take_value (array, &e);
}

static void
array_append_int (GValue *array, gint64 v)
{
  GValue e = G_VALUE_INIT;
  g_value_init (&e, G_TYPE_INT);
  g_value_set_int (&e, (gint) v);
  gst_value_array_append_and_take_value (array, &e);
}

static void
array_append_boolean (GValue *array, gboolean v)
{
  GValue e = G_VALUE_INIT;
  g_value_init (&e, G_TYPE_BOOLEAN);
  g_value_set_boolean (&e, v);
  gst_value_array_append_and_take_value (array, &e);
}

static void
structure_take (GstStructure *s, const gchar *field, GValue *v)
{
  gst_structure_take_value (s, field, v);
}

static gboolean
value_get_int64 (const GValue *v, gint64 *out)
{
  if (G_VALUE_HOLDS_INT (v))
    *out = g_value_get_int (v);
  else if (G_VALUE_HOLDS_INT64 (v))
    *out = g_value_get_int64 (v);
  else if (G_VALUE_HOLDS_UINT (v))
    *out = g_value_get_uint (v);
  else if (G_VALUE_HOLDS_UINT64 (v) && g_value_get_uint64 (v) <= G_MAXINT64)
    *out = (gint64) g_value_get_uint64 (v);
  else
    return FALSE;
  return TRUE;
}

/* "640,640,3" -> ints (0 or more, each 0..G_MAXINT); FALSE on a bad token. */
static gboolean
parse_int_list (const gchar *str, gint64 *out, guint max, guint *n)
{
  gchar **tok = g_strsplit (str, ",", -1);
  guint k;
  gboolean ok = TRUE;

  *n = 0;
  for (k = 0; tok[k] != NULL && ok; k++) {
    guint64 v;
    gchar *t = g_strstrip (tok[k]);
    if (*n >= max || !g_ascii_string_to_unsigned (t, 10, 0, G_MAXINT, &v,
            NULL))
      ok = FALSE;
    else
      out[(*n)++] = (gint64) v;
  }
  g_strfreev (tok);
  return ok && *n > 0;
}

static gchar *
format_int_list (const int64_t *v, int n, const gchar *open,
    const gchar *close)
{
  GString *str = g_string_new (open);
  int i;
  for (i = 0; i < n; i++)
    g_string_append_printf (str, "%s%lld", i ? "," : "", (long long) v[i]);
  g_string_append (str, close);
  return g_string_free (str, FALSE);
}

/* ---- the model: validity and packed offsets ------------------------------ */

/* Checks each member with the core, computes the packed offsets and, when
 * has_offsets is FALSE, takes them as the offsets. */
static gboolean
model_finish (Model *m, gboolean has_offsets, gchar **error)
{
  SimaTensorSpec specs[MAX_MEMBERS];
  SimaTensorSet packed;
  SimaStatus st;
  guint i;

  for (i = 0; i < m->n; i++) {
    Member *mb = &m->m[i];
    gchar buf[32];

    if (mb->cblock && (mb->spec.layout != SIMA_LAYOUT_MLA_TILED
            || mb->spec.tiled.channels != SIMA_CHANNELS_PAD16))
      return FAIL ("%scaps field cblock is true; cblock needs layout "
          "mla-tiled with channels pad16", prefix (m, i, buf));
    specs[i] = mb->spec;
    specs[i].tiled.cblock = mb->cblock;
  }
  /* the set's packing rule is the core's (back to back, 16-byte aligned
   * starts, as gst_sima_caps_to_set applies it) */
  st = sima_tensor_set_pack (specs, m->n, GST_SIMA_SET_PACK_ALIGNMENT,
      m->is_set ? "caps" : "tensor", &packed);
  if (st.code != SIMA_OK)
    return FAIL ("%s", st.message);
  m->packed_offsets = TRUE;
  for (i = 0; i < m->n; i++) {
    m->packed[i] = packed.members[i].offset;
    if (!has_offsets)
      m->offset[i] = m->packed[i];
    if (m->offset[i] != m->packed[i])
      m->packed_offsets = FALSE;
  }
  return TRUE;
}

/* ---- members from fields -------------------------------------------------- */

/* Fields a canonical member reads with gst_sima_caps_to_spec. */
static const gchar *const spec_string_fields[] = { "dtype", "layout",
  "channels"
};
static const gchar *const spec_array_fields[] = { "shape", "strides",
  "tile-axes", "tile-shape"
};

/* The per-member fields of the canonical tensor-set form. */
static const gchar *const canonical_member_fields[] = { "dtype", "shape",
  "layout", "strides", "tile-axes", "tile-shape", "channels", "cblock"
};

/* Value of `field` for member i: the field itself for a single tensor, its
 * i-th entry in a set (whose arrays were checked to have n entries). */
static const GValue *
member_value (const GstStructure *s, const Model *m, guint i,
    const gchar *field)
{
  const GValue *v = gst_structure_get_value (s, field);
  if (v == NULL || !m->is_set)
    return v;
  return gst_value_array_get_value (v, i);
}

static gboolean
read_cblock (const GstStructure *s, const Model *m, guint i, gboolean *out,
    gchar **error)
{
  const GValue *v = member_value (s, m, i, "cblock");
  gchar buf[32];

  *out = FALSE;
  if (v == NULL)
    return TRUE;
  if (!G_VALUE_HOLDS_BOOLEAN (v))
    return FAIL ("%scaps field cblock must be a boolean", prefix (m, i, buf));
  *out = g_value_get_boolean (v);
  return TRUE;
}

/* Fills member i's spec from a canonical-style member structure `ms` (the
 * per-member values of one member). */
static gboolean
member_parse (const GstStructure *ms, Model *m, guint i, gchar **error)
{
  gchar *err = NULL, buf[32];

  if (!gst_sima_caps_to_spec (ms, &m->m[i].spec, &err)) {
    fail (error, "%s%s", prefix (m, i, buf), err);
    g_free (err);
    return FALSE;
  }
  return TRUE;
}

/* Copies member i's canonical per-member values of s into ms (empty inner
 * arrays, the entries of members that do not use a field, are left out). */
static gboolean
member_copy_fields (const GstStructure *s, const Model *m, guint i,
    GstStructure *ms, gboolean skip_shape, gchar **error)
{
  gchar buf[32];
  guint k;

  for (k = 0; k < G_N_ELEMENTS (spec_string_fields); k++) {
    const GValue *v = member_value (s, m, i, spec_string_fields[k]);
    if (v == NULL)
      continue;
    if (!G_VALUE_HOLDS_STRING (v))
      return FAIL ("%scaps field %s must be a string", prefix (m, i, buf),
          spec_string_fields[k]);
    gst_structure_set_value (ms, spec_string_fields[k], v);
  }
  for (k = 0; k < G_N_ELEMENTS (spec_array_fields); k++) {
    const GValue *v;
    if (skip_shape && k == 0)
      continue;
    v = member_value (s, m, i, spec_array_fields[k]);
    if (v == NULL)
      continue;
    if (!GST_VALUE_HOLDS_ARRAY (v))
      return FAIL ("%scaps field %s must be an array of ints",
          prefix (m, i, buf), spec_array_fields[k]);
    if (gst_value_array_get_size (v) > 0)
      gst_structure_set_value (ms, spec_array_fields[k], v);
  }
  return TRUE;
}

/* In a set every per-member field present has one entry per member. */
static gboolean
check_member_arrays (const GstStructure *s, const gchar *const *fields,
    guint n_fields, guint n, gchar **error)
{
  guint k;
  for (k = 0; k < n_fields; k++) {
    const GValue *v = gst_structure_get_value (s, fields[k]);
    if (v == NULL)
      continue;
    if (!GST_VALUE_HOLDS_ARRAY (v))
      return FAIL ("caps field %s must be an array with one entry per member "
          "in a tensor-set", fields[k]);
    if (gst_value_array_get_size (v) != n)
      return FAIL ("caps field %s has %u entries; this tensor-set has %u "
          "members (one entry per member)", fields[k],
          gst_value_array_get_size (v), n);
  }
  return TRUE;
}

static gboolean
read_offsets (const GstStructure *s, Model *m, gboolean *has, gchar **error)
{
  const GValue *v = gst_structure_get_value (s, "offsets");
  guint i;

  *has = FALSE;
  if (v == NULL)
    return TRUE;
  if (!GST_VALUE_HOLDS_ARRAY (v) || gst_value_array_get_size (v) != m->n)
    return FAIL ("caps field offsets must be an array of %u byte offsets "
        "(one per member)", m->n);
  for (i = 0; i < m->n; i++) {
    gint64 o;
    if (!value_get_int64 (gst_value_array_get_value (v, i), &o) || o < 0)
      return FAIL ("caps field offsets: entry %u is not a byte offset "
          "(an integer >= 0)", i);
    m->offset[i] = (guint64) o;
  }
  *has = TRUE;
  return TRUE;
}

/* ---- canonical -> model --------------------------------------------------- */

static gboolean
is_tensor_set (const GstStructure *s, gchar **error, gboolean *set)
{
  const GValue *v = gst_structure_get_value (s, "representation");
  *set = FALSE;
  if (v == NULL)
    return TRUE;
  if (!G_VALUE_HOLDS_STRING (v)
      || g_strcmp0 (g_value_get_string (v), "tensor-set") != 0) {
    gchar *str = gst_value_serialize (v);
    fail (error, "caps field representation is %s; the one representation "
        "is tensor-set (absent: a single tensor)", str ? str : "?");
    g_free (str);
    return FALSE;
  }
  *set = TRUE;
  return TRUE;
}

static gboolean
canonical_to_model (const GstStructure *s, Model *m, gchar **error)
{
  gboolean has_offsets = FALSE;
  guint i;

  memset (m, 0, sizeof *m);
  if (!gst_structure_has_name (s, GST_SIMA_TENSOR_MEDIA_TYPE))
    return FAIL ("caps are %s, not " GST_SIMA_TENSOR_MEDIA_TYPE,
        gst_structure_get_name (s));
  if (!is_tensor_set (s, error, &m->is_set))
    return FALSE;
  if (!m->is_set) {
    m->n = 1;
    if (!member_parse (s, m, 0, error)
        || !read_cblock (s, m, 0, &m->m[0].cblock, error))
      return FALSE;
  } else {
    const GValue *shape = gst_structure_get_value (s, "shape");
    if (shape == NULL || !GST_VALUE_HOLDS_ARRAY (shape)
        || gst_value_array_get_size (shape) < 1
        || gst_value_array_get_size (shape) > MAX_MEMBERS)
      return FAIL ("caps field shape of a tensor-set must be an array of 1 "
          "to %d shapes, e.g. shape=(int)<<80,80,64>,<40,40,64>>",
          MAX_MEMBERS);
    m->n = gst_value_array_get_size (shape);
    if (!check_member_arrays (s, canonical_member_fields,
            G_N_ELEMENTS (canonical_member_fields), m->n, error))
      return FALSE;
    for (i = 0; i < m->n; i++) {
      GstStructure *ms = gst_structure_new_empty (GST_SIMA_TENSOR_MEDIA_TYPE);
      gboolean ok = member_copy_fields (s, m, i, ms, FALSE, error)
          && member_parse (ms, m, i, error)
          && read_cblock (s, m, i, &m->m[i].cblock, error);
      gst_structure_free (ms);
      if (!ok)
        return FALSE;
    }
    if (!read_offsets (s, m, &has_offsets, error))
      return FALSE;
  }
  return model_finish (m, has_offsets, error);
}

/* ---- model -> canonical (the normal form) --------------------------------- */

static void
set_spec_fields (GstStructure *s, const Member *mb)
{
  const SimaTensorSpec *sp = &mb->spec;
  GValue v = G_VALUE_INIT;

  gst_structure_set (s, "dtype", G_TYPE_STRING, sima_dtype_name (sp->dtype),
      NULL);
  gst_sima_value_set_int_array (&v, sp->shape, sp->rank);
  structure_take (s, "shape", &v);
  gst_structure_set (s, "layout", G_TYPE_STRING,
      sima_layout_name (sp->layout), NULL);
  if (sp->layout == SIMA_LAYOUT_STRIDED) {
    gst_sima_value_set_int64_array (&v, sp->strides_bytes, sp->rank);
    structure_take (s, "strides", &v);
  }
  if (sp->layout == SIMA_LAYOUT_MLA_TILED) {
    int64_t axes[4];
    int k;
    for (k = 0; k < 4; k++)
      axes[k] = sp->tiled.axes[k];
    gst_sima_value_set_int_array (&v, axes, 4);
    structure_take (s, "tile-axes", &v);
    gst_sima_value_set_int_array (&v, sp->tiled.tile_shape, 4);
    structure_take (s, "tile-shape", &v);
    gst_structure_set (s, "channels", G_TYPE_STRING,
        sima_channels_name (sp->tiled.channels), NULL);
    if (mb->cblock)
      gst_structure_set (s, "cblock", G_TYPE_BOOLEAN, TRUE, NULL);
  }
}

/* The canonical set fields of m's members: dtype, shape, layout always;
 * strides, tile-axes, tile-shape, channels and cblock when a member uses
 * them; offsets when with_offsets. */
static void
set_member_arrays (GstStructure *s, const Model *m, gboolean with_offsets)
{
  GValue dtype = G_VALUE_INIT, shape = G_VALUE_INIT, layout = G_VALUE_INIT,
      strides = G_VALUE_INIT, axes = G_VALUE_INIT, tile = G_VALUE_INIT,
      channels = G_VALUE_INIT, cblock = G_VALUE_INIT;
  gboolean any_strided = FALSE, any_tiled = FALSE, any_cblock = FALSE;
  guint i;

  g_value_init (&dtype, GST_TYPE_ARRAY);
  g_value_init (&shape, GST_TYPE_ARRAY);
  g_value_init (&layout, GST_TYPE_ARRAY);
  g_value_init (&strides, GST_TYPE_ARRAY);
  g_value_init (&axes, GST_TYPE_ARRAY);
  g_value_init (&tile, GST_TYPE_ARRAY);
  g_value_init (&channels, GST_TYPE_ARRAY);
  g_value_init (&cblock, GST_TYPE_ARRAY);
  for (i = 0; i < m->n; i++) {
    const SimaTensorSpec *sp = &m->m[i].spec;
    gboolean tiled = sp->layout == SIMA_LAYOUT_MLA_TILED;
    GValue e = G_VALUE_INIT;
    int64_t ax[4];
    int k;

    array_append_string (&dtype, sima_dtype_name (sp->dtype));
    gst_sima_value_set_int_array (&e, sp->shape, sp->rank);
    gst_value_array_append_and_take_value (&shape, &e);
    array_append_string (&layout, sima_layout_name (sp->layout));
    any_strided |= sp->layout == SIMA_LAYOUT_STRIDED;
    gst_sima_value_set_int64_array (&e, sp->strides_bytes,
        sp->layout == SIMA_LAYOUT_STRIDED ? sp->rank : 0);
    gst_value_array_append_and_take_value (&strides, &e);
    any_tiled |= tiled;
    for (k = 0; k < 4; k++)
      ax[k] = sp->tiled.axes[k];
    gst_sima_value_set_int_array (&e, ax, tiled ? 4 : 0);
    gst_value_array_append_and_take_value (&axes, &e);
    gst_sima_value_set_int_array (&e, sp->tiled.tile_shape, tiled ? 4 : 0);
    gst_value_array_append_and_take_value (&tile, &e);
    array_append_string (&channels, tiled
        ? sima_channels_name (sp->tiled.channels)
        : sima_channels_name (SIMA_CHANNELS_COMPACT));
    any_cblock |= m->m[i].cblock;
    array_append_boolean (&cblock, m->m[i].cblock);
  }
  structure_take (s, "dtype", &dtype);
  structure_take (s, "shape", &shape);
  structure_take (s, "layout", &layout);
  if (any_strided)
    structure_take (s, "strides", &strides);
  else
    g_value_unset (&strides);
  if (any_tiled) {
    structure_take (s, "tile-axes", &axes);
    structure_take (s, "tile-shape", &tile);
    structure_take (s, "channels", &channels);
  } else {
    g_value_unset (&axes);
    g_value_unset (&tile);
    g_value_unset (&channels);
  }
  if (any_cblock)
    structure_take (s, "cblock", &cblock);
  else
    g_value_unset (&cblock);
  if (with_offsets) {
    GValue o = G_VALUE_INIT;
    int64_t off[MAX_MEMBERS];
    for (i = 0; i < m->n; i++)
      off[i] = (int64_t) m->offset[i];
    gst_sima_value_set_int64_array (&o, off, (int) m->n);
    structure_take (s, "offsets", &o);
  }
}

static GstStructure *
model_to_canonical (const Model *m)
{
  GstStructure *s = gst_structure_new_empty (GST_SIMA_TENSOR_MEDIA_TYPE);

  if (!m->is_set) {
    set_spec_fields (s, &m->m[0]);
    return s;
  }
  gst_structure_set (s, "representation", G_TYPE_STRING, "tensor-set", NULL);
  set_member_arrays (s, m, TRUE);
  return s;
}

/* ---- legacy MLA ------------------------------------------------------------ */

/* One value per tensor: a single value, an array, a list or "80,40,20". */
typedef struct {
  guint n;
  gboolean multi;               /* an array, a list or several values */
  gint64 v[MAX_MEMBERS];
  gchar str[MAX_MEMBERS][32];
} PerTensor;

static const gchar *const mla_int_fields[] = { "width", "height", "depth",
  "slice_width", "slice_height", "slice_depth"
};

static gboolean
per_tensor_entry (const GValue *e, const gchar *field, gboolean strings,
    PerTensor *out, gchar **error)
{
  guint i = out->n;

  if (i >= MAX_MEMBERS)
    return FAIL ("caps field %s has more than %d values (tensors)", field,
        MAX_MEMBERS);
  if (strings) {
    if (!G_VALUE_HOLDS_STRING (e))
      return FAIL ("caps field %s must be a string per tensor", field);
    g_strlcpy (out->str[i], g_value_get_string (e), sizeof out->str[i]);
  } else if (G_VALUE_HOLDS_STRING (e)) {
    guint64 u;
    if (!g_ascii_string_to_unsigned (g_value_get_string (e), 10, 0,
            G_MAXINT, &u, NULL))
      return FAIL ("caps field %s has \"%s\"; it must be a count per tensor",
          field, g_value_get_string (e));
    out->v[i] = (gint64) u;
  } else if (!value_get_int64 (e, &out->v[i]) || out->v[i] < 0
      || out->v[i] > G_MAXINT) {
    gchar *str = gst_value_serialize (e);
    fail (error, "caps field %s has %s; it must be a count per tensor",
        field, str ? str : G_VALUE_TYPE_NAME (e));
    g_free (str);
    return FALSE;
  }
  out->n++;
  return TRUE;
}

/* FALSE with *error when the field is absent or not values per tensor. */
static gboolean
read_per_tensor (const GstStructure *s, const gchar *field, gboolean strings,
    PerTensor *out, gchar **error)
{
  const GValue *v = gst_structure_get_value (s, field);

  memset (out, 0, sizeof *out);
  if (v == NULL)
    return FAIL ("caps field %s is missing; SiMa's MLA caps give data_type, "
        "width, height, depth, slice_width, slice_height and slice_depth",
        field);
  if (GST_VALUE_HOLDS_ARRAY (v) || GST_VALUE_HOLDS_LIST (v)) {
    gboolean array = GST_VALUE_HOLDS_ARRAY (v);
    guint k, n = array ? gst_value_array_get_size (v)
        : gst_value_list_get_size (v);
    if (n == 0)
      return FAIL ("caps field %s is empty", field);
    for (k = 0; k < n; k++)
      if (!per_tensor_entry (array ? gst_value_array_get_value (v, k)
              : gst_value_list_get_value (v, k), field, strings, out, error))
        return FALSE;
    out->multi = TRUE;
  } else if (G_VALUE_HOLDS_STRING (v) && strchr (g_value_get_string (v),
          ',') != NULL) {
    gchar **tok = g_strsplit (g_value_get_string (v), ",", -1);
    gboolean ok = TRUE;
    guint k;
    for (k = 0; tok[k] != NULL && ok; k++) {
      GValue e = G_VALUE_INIT;
      g_value_init (&e, G_TYPE_STRING);
      g_value_set_string (&e, g_strstrip (tok[k]));
      ok = per_tensor_entry (&e, field, strings, out, error);
      g_value_unset (&e);
    }
    g_strfreev (tok);
    if (!ok)
      return FALSE;
    out->multi = TRUE;
  } else if (!per_tensor_entry (v, field, strings, out, error)) {
    return FALSE;
  }
  return TRUE;
}

static gboolean
mla_dtype (const gchar *name, guint i, SimaDType *out, gchar **error)
{
  if (strcmp (name, "INT8") == 0)
    *out = SIMA_DTYPE_INT8;
  else if (strcmp (name, "EVXX_BFLOAT16") == 0)
    *out = SIMA_DTYPE_BFLOAT16;
  else if (strcmp (name, "INT16") == 0 || strcmp (name, "INT32") == 0)
    return FAIL ("caps field data_type is %s (tensor %u); %s tensors cannot "
        "be translated: our MLA tiles are int8 (INT8) or bfloat16 "
        "(EVXX_BFLOAT16)", name, i, name);
  else
    return FAIL ("caps field data_type is %s (tensor %u); SiMa's MLA data "
        "types are INT8, INT16, INT32 and EVXX_BFLOAT16", name, i);
  return TRUE;
}

static gboolean
check_mla_format (const GstStructure *s, gchar **error)
{
  const GValue *v = gst_structure_get_value (s, "format");
  if (v == NULL || (G_VALUE_HOLDS_STRING (v)
          && g_strcmp0 (g_value_get_string (v), "MLA") == 0))
    return TRUE;
  {
    gchar *str = gst_value_serialize (v);
    fail (error, "caps field format is %s; only format MLA (accelerator "
        "tensors) can be translated, not BBOX or DETESSELLATE",
        str ? str : "?");
    g_free (str);
  }
  return FALSE;
}

static gboolean
mla_to_model (const GstStructure *s, Model *m, gchar **error)
{
  PerTensor dt, f[G_N_ELEMENTS (mla_int_fields)];
  guint i, k;

  memset (m, 0, sizeof *m);
  if (!check_mla_format (s, error)
      || !read_per_tensor (s, "data_type", TRUE, &dt, error))
    return FALSE;
  m->is_set = dt.multi || dt.n > 1;
  for (k = 0; k < G_N_ELEMENTS (mla_int_fields); k++) {
    if (!read_per_tensor (s, mla_int_fields[k], FALSE, &f[k], error))
      return FALSE;
    if (f[k].n != dt.n)
      return FAIL ("caps field %s has %u values but data_type has %u; every "
          "field needs one value per tensor", mla_int_fields[k], f[k].n,
          dt.n);
    m->is_set |= f[k].multi;
  }
  m->n = dt.n;
  for (i = 0; i < m->n; i++) {
    SimaTensorSpec *sp = &m->m[i].spec;
    if (!mla_dtype (dt.str[i], i, &sp->dtype, error))
      return FALSE;
    sp->rank = 3;
    sp->shape[0] = f[1].v[i];   /* height */
    sp->shape[1] = f[0].v[i];   /* width */
    sp->shape[2] = f[2].v[i];   /* depth = channels */
    sp->layout = SIMA_LAYOUT_MLA_TILED;
    sp->tiled.axes[SIMA_MLA_D] = -1;
    sp->tiled.axes[SIMA_MLA_H] = 0;
    sp->tiled.axes[SIMA_MLA_W] = 1;
    sp->tiled.axes[SIMA_MLA_C] = 2;
    sp->tiled.tile_shape[SIMA_MLA_D] = 1;
    sp->tiled.tile_shape[SIMA_MLA_H] = f[4].v[i];
    sp->tiled.tile_shape[SIMA_MLA_W] = f[3].v[i];
    sp->tiled.tile_shape[SIMA_MLA_C] = f[5].v[i];
    sp->tiled.channels = SIMA_CHANNELS_PAD16;
  }
  /* the core's admission names our fields; say which SiMa tensor it was */
  for (i = 0; i < m->n; i++) {
    uint64_t bytes;
    SimaStatus st = sima_tensor_required_bytes (&m->m[i].spec, "tensor",
        &bytes);
    if (st.code != SIMA_OK)
      return FAIL ("%s (SiMa's MLA tensor %u: width %lld, height %lld, "
          "depth %lld, slice_width %lld, slice_height %lld, slice_depth "
          "%lld)", st.message, i, (long long) f[0].v[i],
          (long long) f[1].v[i], (long long) f[2].v[i],
          (long long) f[3].v[i], (long long) f[4].v[i],
          (long long) f[5].v[i]);
  }
  return model_finish (m, FALSE, error);
}

static GstStructure *
model_to_mla (const Model *m, gchar **error)
{
  GstStructure *s;
  GValue dt = G_VALUE_INIT, f[G_N_ELEMENTS (mla_int_fields)];
  guint i, k;

  memset (f, 0, sizeof f);

  for (i = 0; i < m->n; i++) {
    const SimaTensorSpec *sp = &m->m[i].spec;
    gchar buf[32];
    const gchar *p = prefix (m, i, buf);

    if (sp->dtype != SIMA_DTYPE_INT8 && sp->dtype != SIMA_DTYPE_BFLOAT16)
      return fail (error, "%scaps field dtype is %s; SiMa's MLA caps have "
          "int8 (INT8) and bfloat16 (EVXX_BFLOAT16) tensors only", p,
          sima_dtype_name (sp->dtype));
    if (sp->layout != SIMA_LAYOUT_MLA_TILED)
      return fail (error, "%scaps field layout is %s; SiMa's MLA caps "
          "describe mla-tiled tensors only", p, sima_layout_name (sp->layout));
    if (sp->rank != 3)
      return fail (error, "%scaps field shape has rank %d; SiMa's MLA caps "
          "describe H x W x C tensors (rank 3)", p, sp->rank);
    if (sp->tiled.axes[0] != -1 || sp->tiled.axes[1] != 0
        || sp->tiled.axes[2] != 1 || sp->tiled.axes[3] != 2)
      return fail (error, "%scaps field tile-axes is <%d,%d,%d,%d>; SiMa's "
          "MLA caps tile channels last, tile-axes <-1,0,1,2>", p,
          sp->tiled.axes[0], sp->tiled.axes[1], sp->tiled.axes[2],
          sp->tiled.axes[3]);
    if (sp->tiled.channels != SIMA_CHANNELS_PAD16)
      return fail (error, "%scaps field channels is %s; SiMa's MLA caps pad "
          "channels to 16 (pad16)", p,
          sima_channels_name (sp->tiled.channels));
    if (m->m[i].cblock)
      return fail (error, "%scaps field cblock is true; SiMa's MLA caps have "
          "no cblock", p);
  }
  if (!m->packed_offsets) {
    gchar *have = format_int_list ((const int64_t *) m->offset, (int) m->n,
        "<", ">");
    gchar *want = format_int_list ((const int64_t *) m->packed, (int) m->n,
        "<", ">");
    fail (error, "caps field offsets is %s; SiMa's MLA caps pack tensors "
        "back to back at 16-byte-aligned offsets, %s", have, want);
    g_free (have);
    g_free (want);
    return NULL;
  }

  s = gst_structure_new (GST_SIMA_TENSOR_MEDIA_TYPE, "format", G_TYPE_STRING,
      "MLA", NULL);
  if (!m->is_set) {
    const SimaTensorSpec *sp = &m->m[0].spec;
    gst_structure_set (s, "data_type", G_TYPE_STRING,
        sp->dtype == SIMA_DTYPE_INT8 ? "INT8" : "EVXX_BFLOAT16",
        "width", G_TYPE_INT, (gint) sp->shape[1],
        "height", G_TYPE_INT, (gint) sp->shape[0],
        "depth", G_TYPE_INT, (gint) sp->shape[2],
        "slice_width", G_TYPE_INT, (gint) sp->tiled.tile_shape[SIMA_MLA_W],
        "slice_height", G_TYPE_INT, (gint) sp->tiled.tile_shape[SIMA_MLA_H],
        "slice_depth", G_TYPE_INT, (gint) sp->tiled.tile_shape[SIMA_MLA_C],
        NULL);
    return s;
  }
  g_value_init (&dt, GST_TYPE_ARRAY);
  for (k = 0; k < G_N_ELEMENTS (mla_int_fields); k++)
    g_value_init (&f[k], GST_TYPE_ARRAY);
  for (i = 0; i < m->n; i++) {
    const SimaTensorSpec *sp = &m->m[i].spec;
    array_append_string (&dt, sp->dtype == SIMA_DTYPE_INT8 ? "INT8"
        : "EVXX_BFLOAT16");
    array_append_int (&f[0], sp->shape[1]);
    array_append_int (&f[1], sp->shape[0]);
    array_append_int (&f[2], sp->shape[2]);
    array_append_int (&f[3], sp->tiled.tile_shape[SIMA_MLA_W]);
    array_append_int (&f[4], sp->tiled.tile_shape[SIMA_MLA_H]);
    array_append_int (&f[5], sp->tiled.tile_shape[SIMA_MLA_C]);
  }
  structure_take (s, "data_type", &dt);
  for (k = 0; k < G_N_ELEMENTS (mla_int_fields); k++)
    structure_take (s, mla_int_fields[k], &f[k]);
  return s;
}

/* ---- the runtime ------------------------------------------------------------ */

static const gchar *const runtime_member_fields[] = { "format", "dtype",
  "rank", "shape", "layout", "strides", "tile-axes", "tile-shape",
  "channels", "cblock", "slice_width", "slice_height", "slice_depth"
};

static const gchar *const slice_fields[] = { "slice_width", "slice_height",
  "slice_depth"
};

/* Number of dimN fields; FALSE with *error when they are not dim0..dimK-1. */
static gboolean
count_dims (const GstStructure *s, guint *n_dims, gchar **error)
{
  gint k, n = gst_structure_n_fields (s), count = 0, max = -1;

  for (k = 0; k < n; k++) {
    const gchar *name = gst_structure_nth_field_name (s, k);
    guint64 d;
    if (g_str_has_prefix (name, "dim") && name[3] != '\0'
        && g_ascii_string_to_unsigned (name + 3, 10, 0, 63, &d, NULL)) {
      count++;
      max = MAX (max, (gint) d);
    }
  }
  if (max + 1 != count) {
    for (k = 0; k <= max; k++) {
      gchar name[16];
      g_snprintf (name, sizeof name, "dim%d", k);
      if (!gst_structure_has_field (s, name))
        return FAIL ("caps field %s is missing; the caps have dim%d, so "
            "dim0 to dim%d are needed", name, max, max);
    }
  }
  *n_dims = (guint) count;
  return TRUE;
}

static gchar *
value_text (const GValue *v)
{
  gchar *str;
  if (v != NULL && G_VALUE_HOLDS_STRING (v))
    return g_strdup_printf ("\"%s\"", g_value_get_string (v));
  str = v ? gst_value_serialize (v) : NULL;
  return str ? str : g_strdup ("?");
}

/* Member i's shape from rank, dimN and shape, checked against each other. */
static gboolean
runtime_shape (const GstStructure *s, const Model *m, guint i, guint n_dims,
    SimaTensorSpec *sp, gchar **error)
{
  const GValue *rank_v = member_value (s, m, i, "rank");
  const GValue *shape_v = member_value (s, m, i, "shape");
  gint64 shp[SIMA_MAX_RANK + 1], dims[64], rank = -1;
  guint n_shape = 0, n_member_dims = 0, k;
  gchar buf[32];
  const gchar *p = prefix (m, i, buf);

  if (rank_v != NULL && (!value_get_int64 (rank_v, &rank) || rank < 1
          || rank > SIMA_MAX_RANK)) {
    gchar *t = value_text (rank_v);
    fail (error, "%scaps field rank is %s; ranks are 1 to %d", p, t,
        SIMA_MAX_RANK);
    g_free (t);
    return FALSE;
  }
  for (k = 0; k < n_dims; k++) {
    gchar name[16];
    const GValue *d;
    gint64 e;
    g_snprintf (name, sizeof name, "dim%u", k);
    d = member_value (s, m, i, name);
    if (!value_get_int64 (d, &e) || e < -1 || e > G_MAXINT
        || (e == -1 && !m->is_set)) {
      gchar *t = value_text (d);
      fail (error, "%scaps field %s is %s; it must be an extent%s", p, name,
          t, m->is_set ? " (-1: the member has no such dimension)" : "");
      g_free (t);
      return FALSE;
    }
    if (e == -1)
      break;
    dims[n_member_dims++] = e;
  }
  for (; k < n_dims; k++) {     /* after a -1 only -1 */
    gchar name[16];
    gint64 e;
    g_snprintf (name, sizeof name, "dim%u", k);
    if (!value_get_int64 (member_value (s, m, i, name), &e) || e != -1)
      return FAIL ("%scaps field %s is %lld after a -1 in dim%u; a member's "
          "dimensions are dim0 to dim<rank-1>", p, name, (long long) e,
          n_member_dims);
  }
  if (shape_v != NULL) {
    gboolean ok;
    if (G_VALUE_HOLDS_STRING (shape_v)) {
      ok = parse_int_list (g_value_get_string (shape_v), shp,
          SIMA_MAX_RANK + 1, &n_shape);
    } else if (value_get_int64 (shape_v, &shp[0])) {
      /* GStreamer 1.22 reads shape="4" as the int 4 (with a warning) */
      ok = shp[0] >= 0 && shp[0] <= G_MAXINT;
      n_shape = 1;
    } else if (GST_VALUE_HOLDS_ARRAY (shape_v)) {
      int64_t tmp[SIMA_MAX_RANK + 1];
      GstStructure *one = gst_structure_new_empty ("x");
      int got;
      gst_structure_set_value (one, "shape", shape_v);
      got = gst_sima_structure_get_int_array (one, "shape", tmp,
          SIMA_MAX_RANK + 1);
      gst_structure_free (one);
      ok = got > 0;
      for (k = 0; ok && k < (guint) got; k++)
        shp[k] = tmp[k];
      n_shape = ok ? (guint) got : 0;
    } else {
      ok = FALSE;
    }
    if (!ok) {
      gchar *t = value_text (shape_v);
      fail (error, "%scaps field shape is %s; it must list the extents, "
          "e.g. shape=\"640,640,3\"", p, t);
      g_free (t);
      return FALSE;
    }
  }
  if (shape_v == NULL && n_member_dims == 0)
    return FAIL ("%scaps field shape is missing (and there is no dim0); "
        "the runtime gives shape=\"640,640,3\" or dim0, dim1, ...", p);
  if (rank >= 0 && n_dims > 0 && (guint) rank != n_member_dims)
    return FAIL ("%scaps field rank is %lld but there %s %u dimN field%s "
        "(dim0..dim%u)", p, (long long) rank,
        n_member_dims == 1 ? "is" : "are", n_member_dims,
        n_member_dims == 1 ? "" : "s", n_member_dims - 1);
  if (rank >= 0 && shape_v != NULL && (guint) rank != n_shape) {
    gchar *t = value_text (shape_v);
    fail (error, "%scaps field rank is %lld but shape %s has %u extents", p,
        (long long) rank, t, n_shape);
    g_free (t);
    return FALSE;
  }
  if (shape_v != NULL && n_dims > 0) {
    gchar *t = value_text (shape_v);
    gboolean ok = TRUE;
    if (n_shape != n_member_dims) {
      fail (error, "%scaps field shape %s has %u extents but there are %u "
          "dimN fields", p, t, n_shape, n_member_dims);
      ok = FALSE;
    }
    for (k = 0; ok && k < n_shape; k++)
      if (shp[k] != dims[k]) {
        fail (error, "%scaps field dim%u is %lld but shape %s has %lld", p,
            k, (long long) dims[k], t, (long long) shp[k]);
        ok = FALSE;
      }
    g_free (t);
    if (!ok)
      return FALSE;
  }
  if (shape_v == NULL && n_member_dims > SIMA_MAX_RANK)
    return FAIL ("%scaps field rank: there are %u dimN fields; ranks are 1 "
        "to %d", p, n_member_dims, SIMA_MAX_RANK);
  if (shape_v == NULL) {
    for (k = 0; k < n_member_dims; k++)
      shp[k] = dims[k];
    n_shape = n_member_dims;
  }
  if (n_shape > SIMA_MAX_RANK)
    return FAIL ("%scaps field shape has %u extents; ranks are 1 to %d", p,
        n_shape, SIMA_MAX_RANK);
  sp->rank = (int) n_shape;
  for (k = 0; k < n_shape; k++)
    sp->shape[k] = shp[k];
  return TRUE;
}

static gboolean
runtime_member (const GstStructure *s, Model *m, guint i, guint n_dims,
    gchar **error)
{
  SimaTensorSpec *sp = &m->m[i].spec;
  const GValue *fmt = member_value (s, m, i, "format");
  const GValue *dt = member_value (s, m, i, "dtype");
  const GValue *layout_v = member_value (s, m, i, "layout");
  const GValue *tile_v = member_value (s, m, i, "tile-shape");
  const GValue *axes_v = member_value (s, m, i, "tile-axes");
  gboolean has_slices = FALSE, has_tile, tiled;
  GstStructure *ms;
  SimaDType dtype = SIMA_DTYPE_FLOAT32, dtype2 = SIMA_DTYPE_FLOAT32;
  gchar buf[32];
  const gchar *p = prefix (m, i, buf);
  guint k;

  if (fmt == NULL)
    return FAIL ("%scaps field format is missing; the runtime's formats are "
        RUNTIME_FORMATS, p);
  if (!G_VALUE_HOLDS_STRING (fmt)
      || !runtime_format_dtype (g_value_get_string (fmt), &dtype)) {
    gchar *t = value_text (fmt);
    fail (error, "%scaps field format is %s; the runtime's formats are "
        RUNTIME_FORMATS " (and the legacy MLA)", p, t);
    g_free (t);
    return FALSE;
  }
  if (dt != NULL && (!G_VALUE_HOLDS_STRING (dt)
          || !runtime_format_dtype (g_value_get_string (dt), &dtype2)
          || dtype2 != dtype)) {
    gchar *t = value_text (dt);
    fail (error, "%scaps field dtype is %s but format is %s; they must "
        "agree", p, t, g_value_get_string (fmt));
    g_free (t);
    return FALSE;
  }
  if (!runtime_shape (s, m, i, n_dims, sp, error))
    return FALSE;

  for (k = 0; k < G_N_ELEMENTS (slice_fields); k++)
    has_slices |= gst_structure_has_field (s, slice_fields[k]);
  has_tile = (tile_v != NULL && GST_VALUE_HOLDS_ARRAY (tile_v)
      && gst_value_array_get_size (tile_v) > 0)
      || (axes_v != NULL && GST_VALUE_HOLDS_ARRAY (axes_v)
      && gst_value_array_get_size (axes_v) > 0);
  if (layout_v != NULL)
    tiled = G_VALUE_HOLDS_STRING (layout_v)
        && g_strcmp0 (g_value_get_string (layout_v), "mla-tiled") == 0;
  else
    tiled = has_tile || has_slices;

  ms = gst_structure_new (GST_SIMA_TENSOR_MEDIA_TYPE, "dtype", G_TYPE_STRING,
      sima_dtype_name (dtype), NULL);
  {
    GValue v = G_VALUE_INIT;
    gst_sima_value_set_int_array (&v, sp->shape, sp->rank);
    structure_take (ms, "shape", &v);
  }
  if (!member_copy_fields (s, m, i, ms, TRUE, error))
    goto failed;
  gst_structure_set (ms, "dtype", G_TYPE_STRING, sima_dtype_name (dtype),
      NULL);
  if (tiled) {
    gst_structure_set (ms, "layout", G_TYPE_STRING, "mla-tiled", NULL);
    if (has_slices && has_tile) {
      fail (error, "%scaps fields tile-shape and slice_width both describe "
          "the tiling; give one of them", p);
      goto failed;
    }
    if (has_slices) {
      int64_t tile[4], axes[4];
      GValue v = G_VALUE_INIT;
      for (k = 0; k < G_N_ELEMENTS (slice_fields); k++) {
        const GValue *e = member_value (s, m, i, slice_fields[k]);
        gint64 x;
        if (e == NULL || !value_get_int64 (e, &x)) {
          gchar *t = value_text (e);
          fail (error, "%scaps field %s is %s; slice_width, slice_height and "
              "slice_depth give the tile extents", p, slice_fields[k],
              e ? t : "missing");
          g_free (t);
          goto failed;
        }
        tile[k == 0 ? SIMA_MLA_W : k == 1 ? SIMA_MLA_H : SIMA_MLA_C] = x;
      }
      if (sp->rank < 3) {
        fail (error, "%scaps field slice_width: SiMa's slices tile the last "
            "three axes (H, W, C), but the shape has rank %d", p, sp->rank);
        goto failed;
      }
      tile[SIMA_MLA_D] = 1;
      axes[SIMA_MLA_D] = -1;
      axes[SIMA_MLA_H] = sp->rank - 3;
      axes[SIMA_MLA_W] = sp->rank - 2;
      axes[SIMA_MLA_C] = sp->rank - 1;
      gst_sima_value_set_int_array (&v, axes, 4);
      structure_take (ms, "tile-axes", &v);
      gst_sima_value_set_int_array (&v, tile, 4);
      structure_take (ms, "tile-shape", &v);
      if (!gst_structure_has_field (ms, "channels"))
        gst_structure_set (ms, "channels", G_TYPE_STRING, "pad16", NULL);
    } else {
      static const gchar *const need[] = { "tile-shape", "tile-axes",
        "channels"
      };
      for (k = 0; k < G_N_ELEMENTS (need); k++)
        if (!gst_structure_has_field (ms, need[k])) {
          fail (error, "%scaps field %s is missing: the runtime's caps carry "
              "no tiling, so a tiled tensor needs our tile-axes, tile-shape "
              "and channels, or SiMa's slice_width, slice_height and "
              "slice_depth", p, need[k]);
          goto failed;
        }
    }
  }
  if (!member_parse (ms, m, i, error)
      || !read_cblock (s, m, i, &m->m[i].cblock, error))
    goto failed;
  gst_structure_free (ms);
  return TRUE;

failed:
  gst_structure_free (ms);
  return FALSE;
}

static gboolean
runtime_to_model (const GstStructure *s, Model *m, gchar **error)
{
  const GValue *storage = gst_structure_get_value (s, "storage");
  gboolean has_offsets = FALSE;
  guint i, n_dims;

  memset (m, 0, sizeof *m);
  if (!is_tensor_set (s, error, &m->is_set))
    return FALSE;
  if (storage != NULL && (!G_VALUE_HOLDS_STRING (storage)
          || g_strcmp0 (g_value_get_string (storage), "tensorbuffer") != 0)) {
    gchar *t = value_text (storage);
    fail (error, "caps field storage is %s; the runtime's tensor sets are "
        "storage=tensorbuffer", t);
    g_free (t);
    return FALSE;
  }
  if (!count_dims (s, &n_dims, error))
    return FALSE;
  if (!m->is_set) {
    m->n = 1;
  } else {
    const GValue *fmt = gst_structure_get_value (s, "format");
    if (fmt == NULL || !GST_VALUE_HOLDS_ARRAY (fmt)
        || gst_value_array_get_size (fmt) < 1
        || gst_value_array_get_size (fmt) > MAX_MEMBERS)
      return FAIL ("caps field format of a runtime tensor-set must be an "
          "array of 1 to %d formats, one per member, e.g. "
          "format=(string)<INT8,INT8>", MAX_MEMBERS);
    m->n = gst_value_array_get_size (fmt);
    if (!check_member_arrays (s, runtime_member_fields,
            G_N_ELEMENTS (runtime_member_fields), m->n, error))
      return FALSE;
    for (i = 0; i < n_dims; i++) {
      gchar name[16];
      const gchar *f = name;
      g_snprintf (name, sizeof name, "dim%u", i);
      if (!check_member_arrays (s, &f, 1, m->n, error))
        return FALSE;
    }
    if (!read_offsets (s, m, &has_offsets, error))
      return FALSE;
  }
  for (i = 0; i < m->n; i++)
    if (!runtime_member (s, m, i, n_dims, error))
      return FALSE;
  return model_finish (m, has_offsets, error);
}

static gchar *
shape_string (const SimaTensorSpec *sp)
{
  return format_int_list (sp->shape, sp->rank, "", "");
}

static GstStructure *
model_to_runtime (const Model *m, gchar **error)
{
  GstStructure *s = gst_structure_new_empty (GST_SIMA_TENSOR_MEDIA_TYPE);
  guint i;
  int k, max_rank = 0;

  for (i = 0; i < m->n; i++) {
    gchar buf[32];
    if (runtime_format_name (m->m[i].spec.dtype) == NULL) {
      gst_structure_free (s);
      return fail (error, "%scaps field dtype is %s; the runtime's formats "
          "are " RUNTIME_FORMATS, prefix (m, i, buf),
          sima_dtype_name (m->m[i].spec.dtype));
    }
    max_rank = MAX (max_rank, m->m[i].spec.rank);
  }
  if (!m->is_set) {
    const Member *mb = &m->m[0];
    const gchar *fmt = runtime_format_name (mb->spec.dtype);
    gchar *shape = shape_string (&mb->spec);
    gst_structure_set (s, "format", G_TYPE_STRING, fmt, "rank", G_TYPE_INT,
        mb->spec.rank, NULL);
    for (k = 0; k < mb->spec.rank; k++) {
      gchar name[16];
      g_snprintf (name, sizeof name, "dim%d", k);
      gst_structure_set (s, name, G_TYPE_INT, (gint) mb->spec.shape[k], NULL);
    }
    gst_structure_set (s, "shape", G_TYPE_STRING, shape, "dtype",
        G_TYPE_STRING, fmt, NULL);
    g_free (shape);
    if (mb->spec.layout != SIMA_LAYOUT_CONTIGUOUS) {
      /* our layout fields, for the runtime has none: set_spec_fields writes
       * them after dtype and shape, which the runtime's replace */
      GstStructure *c = gst_structure_new_empty (GST_SIMA_TENSOR_MEDIA_TYPE);
      gint f;
      set_spec_fields (c, mb);
      for (f = 0; f < gst_structure_n_fields (c); f++) {
        const gchar *name = gst_structure_nth_field_name (c, f);
        if (strcmp (name, "dtype") != 0 && strcmp (name, "shape") != 0)
          gst_structure_set_value (s, name, gst_structure_get_value (c,
                  name));
      }
      gst_structure_free (c);
    }
    return s;
  }

  gst_structure_set (s, "representation", G_TYPE_STRING, "tensor-set",
      "storage", G_TYPE_STRING, "tensorbuffer", NULL);
  {
    GValue fmt = G_VALUE_INIT, rank = G_VALUE_INIT, shape = G_VALUE_INIT,
        dtype = G_VALUE_INIT;
    GstStructure *c = gst_structure_new_empty (GST_SIMA_TENSOR_MEDIA_TYPE);
    gboolean any_layout = FALSE;
    gint f;

    g_value_init (&fmt, GST_TYPE_ARRAY);
    g_value_init (&rank, GST_TYPE_ARRAY);
    g_value_init (&shape, GST_TYPE_ARRAY);
    g_value_init (&dtype, GST_TYPE_ARRAY);
    for (i = 0; i < m->n; i++) {
      const SimaTensorSpec *sp = &m->m[i].spec;
      gchar *str = shape_string (sp);
      array_append_string (&fmt, runtime_format_name (sp->dtype));
      array_append_int (&rank, sp->rank);
      array_append_string (&shape, str);
      array_append_string (&dtype, runtime_format_name (sp->dtype));
      g_free (str);
      any_layout |= sp->layout != SIMA_LAYOUT_CONTIGUOUS;
    }
    structure_take (s, "format", &fmt);
    structure_take (s, "rank", &rank);
    for (k = 0; k < max_rank; k++) {
      GValue d = G_VALUE_INIT;
      gchar name[16];
      g_value_init (&d, GST_TYPE_ARRAY);
      for (i = 0; i < m->n; i++)
        array_append_int (&d, k < m->m[i].spec.rank
            ? m->m[i].spec.shape[k] : -1);
      g_snprintf (name, sizeof name, "dim%d", k);
      structure_take (s, name, &d);
    }
    structure_take (s, "shape", &shape);
    structure_take (s, "dtype", &dtype);
    /* our per-member layout fields, when some member is not contiguous */
    set_member_arrays (c, m, !m->packed_offsets);
    for (f = 0; f < gst_structure_n_fields (c); f++) {
      const gchar *name = gst_structure_nth_field_name (c, f);
      if (strcmp (name, "dtype") == 0 || strcmp (name, "shape") == 0
          || (strcmp (name, "layout") == 0 && !any_layout))
        continue;
      gst_structure_set_value (s, name, gst_structure_get_value (c, name));
    }
    gst_structure_free (c);
  }
  return s;
}

/* ---- the API ---------------------------------------------------------------- */

static gboolean
field_has_string (const GstStructure *s, const gchar *field,
    const gchar *const *names)
{
  const GValue *v = gst_structure_get_value (s, field);
  guint k, n = 1;
  gboolean list = FALSE, array = FALSE;

  if (v == NULL)
    return FALSE;
  if (GST_VALUE_HOLDS_LIST (v))
    list = TRUE, n = gst_value_list_get_size (v);
  else if (GST_VALUE_HOLDS_ARRAY (v))
    array = TRUE, n = gst_value_array_get_size (v);
  for (k = 0; k < n; k++) {
    const GValue *e = list ? gst_value_list_get_value (v, k)
        : array ? gst_value_array_get_value (v, k) : v;
    guint j;
    if (!G_VALUE_HOLDS_STRING (e))
      continue;
    for (j = 0; names[j] != NULL; j++)
      if (g_strcmp0 (g_value_get_string (e), names[j]) == 0)
        return TRUE;
  }
  return FALSE;
}

static int
is_dtype_name (const char *name)
{
  SimaDType d;
  return sima_dtype_from_name (name, &d);
}

/* A string, or the first entry of an array or list of strings, that
 * is_name knows. */
static gboolean
holds_canonical_name (const GValue *v, int (*is_name) (const char *))
{
  while (v != NULL && (GST_VALUE_HOLDS_ARRAY (v) || GST_VALUE_HOLDS_LIST (v))) {
    if (GST_VALUE_HOLDS_ARRAY (v))
      v = gst_value_array_get_size (v) > 0 ? gst_value_array_get_value (v, 0)
          : NULL;
    else
      v = gst_value_list_get_size (v) > 0 ? gst_value_list_get_value (v, 0)
          : NULL;
  }
  return v != NULL && G_VALUE_HOLDS_STRING (v)
      && g_value_get_string (v) != NULL
      && is_name (g_value_get_string (v));
}

GstSimaDialect
gst_sima_dialect_of (const GstStructure *s)
{
  /* Our own fields win: GStreamer intersects a structure without a field
   * with any value of it, so our caps meeting a template's bare SiMa
   * structure (format=MLA) come out with both kinds of fields, and they
   * still mean what our fields say. SiMa's runtime writes dtype too, in
   * upper case (FP32), never one of our names (and its tiled tensors
   * carry our layout field, so layout decides nothing). */
  if (holds_canonical_name (gst_structure_get_value (s, "dtype"),
          is_dtype_name))
    return GST_SIMA_DIALECT_CANONICAL;
  return gst_sima_dialect_requested (s);
}

GstSimaDialect
gst_sima_dialect_requested (const GstStructure *s)
{
  static const gchar *const legacy[] = { "MLA", "BBOX", "DETESSELLATE", NULL };

  if (gst_structure_has_field (s, "data_type")
      || field_has_string (s, "format", legacy))
    return GST_SIMA_DIALECT_SIMA_MLA;
  if (gst_structure_has_field (s, "format")
      || gst_structure_has_field (s, "rank")
      || gst_structure_has_field (s, "dim0")
      || gst_structure_has_field (s, "storage"))
    return GST_SIMA_DIALECT_SIMA_RUNTIME;
  return GST_SIMA_DIALECT_CANONICAL;
}

static gboolean
dialect_to_model (const GstStructure *s, GstSimaDialect dialect, Model *m,
    gchar **error)
{
  if (!gst_structure_has_name (s, GST_SIMA_TENSOR_MEDIA_TYPE))
    return FAIL ("caps are %s, not " GST_SIMA_TENSOR_MEDIA_TYPE,
        gst_structure_get_name (s));
  switch (dialect) {
    case GST_SIMA_DIALECT_SIMA_MLA:
      return mla_to_model (s, m, error);
    case GST_SIMA_DIALECT_SIMA_RUNTIME:
      return runtime_to_model (s, m, error);
    case GST_SIMA_DIALECT_CANONICAL:
      break;
  }
  return canonical_to_model (s, m, error);
}

GstStructure *
gst_sima_dialect_to_canonical (const GstStructure *s, gchar **error)
{
  GstSimaDialect dialect;
  Model *m;
  GstStructure *out = NULL;

  g_return_val_if_fail (s != NULL, NULL);
  dialect = gst_sima_dialect_of (s);
  if (dialect == GST_SIMA_DIALECT_CANONICAL)
    return gst_structure_copy (s);
  m = g_new0 (Model, 1);
  if (dialect_to_model (s, dialect, m, error))
    out = model_to_canonical (m);
  g_free (m);
  return out;
}

GstStructure *
gst_sima_dialect_from_canonical (const GstStructure *canonical,
    GstSimaDialect dialect, gchar **error)
{
  Model *m;
  GstStructure *out = NULL;

  g_return_val_if_fail (canonical != NULL, NULL);
  if (gst_sima_dialect_of (canonical) != GST_SIMA_DIALECT_CANONICAL)
    return fail (error, "caps are in the %s dialect, not canonical",
        gst_sima_dialect_name (gst_sima_dialect_of (canonical)));
  if (dialect == GST_SIMA_DIALECT_CANONICAL)
    return gst_structure_copy (canonical);
  m = g_new0 (Model, 1);
  if (canonical_to_model (canonical, m, error)) {
    if (dialect == GST_SIMA_DIALECT_SIMA_MLA)
      out = model_to_mla (m, error);
    else
      out = model_to_runtime (m, error);
  }
  g_free (m);
  return out;
}

/* ---- unfixed caps ------------------------------------------------------------ */

/* An extent that an array entry may hold in caps: an int or an int range. */
static gboolean
is_extent_value (const GValue *v)
{
  return v != NULL && (G_VALUE_HOLDS_INT (v) || GST_VALUE_HOLDS_INT_RANGE (v));
}

static void
append_values (GValue *array, const GValue *const *v, guint n)
{
  guint k;
  for (k = 0; k < n; k++)
    gst_value_array_append_value (array, v[k]);
}

/* A legacy MLA structure some of whose fields are absent or ranges: the
 * canonical fields it fixes; the others stay open. */
static void
mla_partial (const GstStructure *s, GstCaps *out)
{
  static const gchar *const all[] = { "data_type", "width", "height",
    "depth", "slice_width", "slice_height", "slice_depth"
  };
  PerTensor pt[G_N_ELEMENTS (all)];
  gboolean read[G_N_ELEMENTS (all)], multi = FALSE;
  guint k, n = 0;
  GstStructure *c;

  for (k = 0; k < G_N_ELEMENTS (all); k++) {
    read[k] = read_per_tensor (s, all[k], k == 0, &pt[k], NULL);
    if (read[k]) {
      if (n != 0 && pt[k].n != n) {
        GST_INFO ("dropping MLA caps %" GST_PTR_FORMAT ": field %s has %u "
            "values, another %u", s, all[k], pt[k].n, n);
        return;
      }
      n = pt[k].n;
      multi |= pt[k].multi;
    }
  }
  if (n > 1 || multi) {
    /* a set: its per-member values where every member's is known */
    GValue dt = G_VALUE_INIT, lay = G_VALUE_INIT, ax = G_VALUE_INIT,
        ch = G_VALUE_INIT;
    c = gst_structure_new (GST_SIMA_TENSOR_MEDIA_TYPE, "representation",
        G_TYPE_STRING, "tensor-set", NULL);
    g_value_init (&dt, GST_TYPE_ARRAY);
    g_value_init (&lay, GST_TYPE_ARRAY);
    g_value_init (&ax, GST_TYPE_ARRAY);
    g_value_init (&ch, GST_TYPE_ARRAY);
    for (k = 0; k < n; k++) {
      static const int64_t axes[4] = { -1, 0, 1, 2 };
      GValue e = G_VALUE_INIT;
      SimaDType d;
      if (read[0] && mla_dtype (pt[0].str[k], k, &d, NULL))
        array_append_string (&dt, sima_dtype_name (d));
      array_append_string (&lay, "mla-tiled");
      gst_sima_value_set_int_array (&e, axes, 4);
      gst_value_array_append_and_take_value (&ax, &e);
      array_append_string (&ch, "pad16");
    }
    if (read[0] && gst_value_array_get_size (&dt) != n) {
      GST_INFO ("dropping MLA caps %" GST_PTR_FORMAT ": a data_type cannot "
          "be translated", s);
      g_value_unset (&dt);
      g_value_unset (&lay);
      g_value_unset (&ax);
      g_value_unset (&ch);
      gst_structure_free (c);
      return;
    }
    if (read[0])
      structure_take (c, "dtype", &dt);
    else
      g_value_unset (&dt);
    structure_take (c, "layout", &lay);
    structure_take (c, "tile-axes", &ax);
    structure_take (c, "channels", &ch);
    if (read[1] && read[2] && read[3]) {
      GValue shp = G_VALUE_INIT;
      g_value_init (&shp, GST_TYPE_ARRAY);
      for (k = 0; k < n; k++) {
        int64_t e3[3] = { pt[2].v[k], pt[1].v[k], pt[3].v[k] };
        GValue e = G_VALUE_INIT;
        gst_sima_value_set_int_array (&e, e3, 3);
        gst_value_array_append_and_take_value (&shp, &e);
      }
      structure_take (c, "shape", &shp);
    }
    if (read[4] && read[5] && read[6]) {
      GValue ts = G_VALUE_INIT;
      g_value_init (&ts, GST_TYPE_ARRAY);
      for (k = 0; k < n; k++) {
        int64_t e4[4] = { 1, pt[5].v[k], pt[4].v[k], pt[6].v[k] };
        GValue e = G_VALUE_INIT;
        gst_sima_value_set_int_array (&e, e4, 4);
        gst_value_array_append_and_take_value (&ts, &e);
      }
      structure_take (c, "tile-shape", &ts);
    }
    gst_caps_append_structure (out, c);
    return;
  }

  /* one tensor, or as many as the caps will say: the single form (extents
   * may be ranges) and, when nothing gives the count, the set form too */
  c = gst_structure_new (GST_SIMA_TENSOR_MEDIA_TYPE, "layout", G_TYPE_STRING,
      "mla-tiled", "channels", G_TYPE_STRING, "pad16", NULL);
  {
    static const int64_t axes[4] = { -1, 0, 1, 2 };
    GValue v = G_VALUE_INIT;
    gst_sima_value_set_int_array (&v, axes, 4);
    structure_take (c, "tile-axes", &v);
  }
  if (read[0]) {
    SimaDType d;
    if (!mla_dtype (pt[0].str[0], 0, &d, NULL)) {
      GST_INFO ("dropping MLA caps %" GST_PTR_FORMAT ": data_type %s cannot "
          "be translated", s, pt[0].str[0]);
      gst_structure_free (c);
      return;
    }
    gst_structure_set (c, "dtype", G_TYPE_STRING, sima_dtype_name (d), NULL);
  } else if (!gst_structure_has_field (s, "data_type")) {
    GValue l = G_VALUE_INIT;
    gst_value_list_init (&l, 2);
    {
      GValue e = G_VALUE_INIT;
      g_value_init (&e, G_TYPE_STRING);
      g_value_set_string (&e, "int8");
      gst_value_list_append_value (&l, &e);
      g_value_set_string (&e, "bfloat16");
      gst_value_list_append_value (&l, &e);
      g_value_unset (&e);
    }
    structure_take (c, "dtype", &l);
  }
  {
    const GValue *h = gst_structure_get_value (s, "height"),
        *w = gst_structure_get_value (s, "width"),
        *d = gst_structure_get_value (s, "depth");
    if (is_extent_value (h) && is_extent_value (w) && is_extent_value (d)) {
      const GValue *e[3] = { h, w, d };
      GValue a = G_VALUE_INIT;
      g_value_init (&a, GST_TYPE_ARRAY);
      append_values (&a, e, 3);
      structure_take (c, "shape", &a);
    }
  }
  {
    const GValue *h = gst_structure_get_value (s, "slice_height"),
        *w = gst_structure_get_value (s, "slice_width"),
        *d = gst_structure_get_value (s, "slice_depth");
    if (is_extent_value (h) && is_extent_value (w) && is_extent_value (d)) {
      GValue one = G_VALUE_INIT, a = G_VALUE_INIT;
      const GValue *e[4] = { &one, h, w, d };
      g_value_init (&one, G_TYPE_INT);
      g_value_set_int (&one, 1);
      g_value_init (&a, GST_TYPE_ARRAY);
      append_values (&a, e, 4);
      structure_take (c, "tile-shape", &a);
    }
  }
  gst_caps_append_structure (out, c);
  if (n == 0)
    gst_caps_append_structure (out, gst_structure_new
        (GST_SIMA_TENSOR_MEDIA_TYPE, "representation", G_TYPE_STRING,
            "tensor-set", NULL));
}

/* A runtime structure that is not fixed: the canonical fields it fixes. */
static void
runtime_partial (const GstStructure *s, GstCaps *out)
{
  const GValue *fmt = gst_structure_get_value (s, "format");
  GstStructure *c = gst_structure_new_empty (GST_SIMA_TENSOR_MEDIA_TYPE);
  gboolean set = FALSE;
  gint64 rank = -1;
  guint k;

  if (!is_tensor_set (s, NULL, &set)) {
    GST_INFO ("dropping runtime caps %" GST_PTR_FORMAT ": representation",
        s);
    gst_structure_free (c);
    return;
  }
  if (set) {
    gst_structure_set (c, "representation", G_TYPE_STRING, "tensor-set",
        NULL);
    if (fmt != NULL && GST_VALUE_HOLDS_ARRAY (fmt)) {
      GValue dt = G_VALUE_INIT;
      guint n = gst_value_array_get_size (fmt);
      g_value_init (&dt, GST_TYPE_ARRAY);
      for (k = 0; k < n; k++) {
        const GValue *e = gst_value_array_get_value (fmt, k);
        SimaDType d;
        if (G_VALUE_HOLDS_STRING (e)
            && runtime_format_dtype (g_value_get_string (e), &d))
          array_append_string (&dt, sima_dtype_name (d));
      }
      if (gst_value_array_get_size (&dt) == n)
        structure_take (c, "dtype", &dt);
      else
        g_value_unset (&dt);
    }
    gst_caps_append_structure (out, c);
    return;
  }

  if (fmt != NULL) {
    GValue l = G_VALUE_INIT;
    guint n = GST_VALUE_HOLDS_LIST (fmt) ? gst_value_list_get_size (fmt) : 1;
    gst_value_list_init (&l, n);
    for (k = 0; k < n; k++) {
      const GValue *e = GST_VALUE_HOLDS_LIST (fmt)
          ? gst_value_list_get_value (fmt, k) : fmt;
      SimaDType d;
      if (G_VALUE_HOLDS_STRING (e)
          && runtime_format_dtype (g_value_get_string (e), &d)) {
        GValue x = G_VALUE_INIT;
        g_value_init (&x, G_TYPE_STRING);
        g_value_set_string (&x, sima_dtype_name (d));
        gst_value_list_append_and_take_value (&l, &x);
      }
    }
    if (gst_value_list_get_size (&l) == 0) {
      gchar *t = value_text (fmt);
      GST_INFO ("dropping runtime caps %" GST_PTR_FORMAT ": format %s", s, t);
      g_free (t);
      g_value_unset (&l);
      gst_structure_free (c);
      return;
    }
    if (gst_value_list_get_size (&l) == 1) {
      gst_structure_set_value (c, "dtype", gst_value_list_get_value (&l, 0));
      g_value_unset (&l);
    } else {
      structure_take (c, "dtype", &l);
    }
  }
  /* shape from dim0..dim<rank-1> (ints or ranges) or a fixed shape string */
  if (gst_structure_get_value (s, "rank") != NULL
      && value_get_int64 (gst_structure_get_value (s, "rank"), &rank)
      && rank >= 1 && rank <= SIMA_MAX_RANK) {
    const GValue *e[SIMA_MAX_RANK];
    gboolean all = TRUE;
    for (k = 0; k < (guint) rank; k++) {
      gchar name[16];
      g_snprintf (name, sizeof name, "dim%u", k);
      e[k] = gst_structure_get_value (s, name);
      all &= is_extent_value (e[k]);
    }
    if (all) {
      GValue a = G_VALUE_INIT;
      g_value_init (&a, GST_TYPE_ARRAY);
      append_values (&a, e, (guint) rank);
      structure_take (c, "shape", &a);
    }
  }
  if (!gst_structure_has_field (c, "shape")) {
    const GValue *shp = gst_structure_get_value (s, "shape");
    gint64 v[SIMA_MAX_RANK + 1];
    guint n;
    if (shp != NULL && G_VALUE_HOLDS_STRING (shp)
        && parse_int_list (g_value_get_string (shp), v, SIMA_MAX_RANK, &n)) {
      int64_t vv[SIMA_MAX_RANK];
      GValue a = G_VALUE_INIT;
      for (k = 0; k < n; k++)
        vv[k] = v[k];
      gst_sima_value_set_int_array (&a, vv, (int) n);
      structure_take (c, "shape", &a);
      rank = n;
    }
  }
  /* our layout fields pass as they are; SiMa's slices tile channels last */
  {
    static const gchar *const ours[] = { "layout", "strides", "tile-axes",
      "tile-shape", "channels", "cblock"
    };
    gboolean slices = FALSE, tiles = FALSE;
    for (k = 0; k < G_N_ELEMENTS (ours); k++)
      if (gst_structure_has_field (s, ours[k])) {
        gst_structure_set_value (c, ours[k], gst_structure_get_value (s,
                ours[k]));
        tiles |= k >= 2 && k <= 4;
      }
    for (k = 0; k < G_N_ELEMENTS (slice_fields); k++)
      slices |= gst_structure_has_field (s, slice_fields[k]);
    if (!gst_structure_has_field (c, "layout"))
      gst_structure_set (c, "layout", G_TYPE_STRING, tiles || slices
          ? "mla-tiled" : "contiguous", NULL);
    if (slices && !tiles) {
      const GValue *h = gst_structure_get_value (s, "slice_height"),
          *w = gst_structure_get_value (s, "slice_width"),
          *d = gst_structure_get_value (s, "slice_depth");
      gst_structure_set (c, "channels", G_TYPE_STRING, "pad16", NULL);
      if (rank >= 3) {
        int64_t axes[4] = { -1, rank - 3, rank - 2, rank - 1 };
        GValue v = G_VALUE_INIT;
        gst_sima_value_set_int_array (&v, axes, 4);
        structure_take (c, "tile-axes", &v);
      }
      if (is_extent_value (h) && is_extent_value (w) && is_extent_value (d)) {
        GValue one = G_VALUE_INIT, a = G_VALUE_INIT;
        const GValue *e[4] = { &one, h, w, d };
        g_value_init (&one, G_TYPE_INT);
        g_value_set_int (&one, 1);
        g_value_init (&a, GST_TYPE_ARRAY);
        append_values (&a, e, 4);
        structure_take (c, "tile-shape", &a);
      }
    }
  }
  gst_caps_append_structure (out, c);
}

/* A legacy structure is "fixed" for translation when it carries every
 * field; its lists are values per tensor, not alternatives. */
static gboolean
mla_complete (const GstStructure *s)
{
  guint k;
  const GValue *v;
  if (!gst_structure_has_field (s, "data_type"))
    return FALSE;
  for (k = 0; k < G_N_ELEMENTS (mla_int_fields); k++) {
    v = gst_structure_get_value (s, mla_int_fields[k]);
    if (v == NULL || GST_VALUE_HOLDS_INT_RANGE (v))
      return FALSE;
  }
  return TRUE;
}

/* A runtime structure translates exactly when it is fixed and says at
 * least the format and the shape (a template such as the set fragment's
 * representation and storage alone does not). */
static gboolean
structure_is_fixed (const GstStructure *s)
{
  gint k, n = gst_structure_n_fields (s);
  for (k = 0; k < n; k++)
    if (!gst_value_is_fixed (gst_structure_get_value (s,
                gst_structure_nth_field_name (s, k))))
      return FALSE;
  return TRUE;
}

static gboolean
runtime_complete (const GstStructure *s)
{
  return structure_is_fixed (s) && gst_structure_has_field (s, "format")
      && (gst_structure_has_field (s, "shape")
      || gst_structure_has_field (s, "dim0"));
}

GstCaps *
gst_sima_dialect_caps_to_canonical (const GstCaps *caps)
{
  GstCaps *out;
  guint i, n;

  g_return_val_if_fail (caps != NULL, NULL);
  ensure_debug ();
  if (gst_caps_is_any (caps))
    return gst_caps_new_any ();
  out = gst_caps_new_empty ();
  n = gst_caps_get_size (caps);
  for (i = 0; i < n; i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);
    GstCapsFeatures *features = gst_caps_get_features (caps, i);
    GstSimaDialect dialect = gst_sima_dialect_of (s);
    GstCaps *one = gst_caps_new_empty ();
    guint k;

    if (dialect == GST_SIMA_DIALECT_CANONICAL
        || !gst_structure_has_name (s, GST_SIMA_TENSOR_MEDIA_TYPE)) {
      gst_caps_append_structure (one, gst_structure_copy (s));
    } else if (dialect == GST_SIMA_DIALECT_SIMA_MLA
        && !check_mla_format (s, NULL)) {
      GST_INFO ("dropping %" GST_PTR_FORMAT ": not MLA tensors", s);
    } else if ((dialect == GST_SIMA_DIALECT_SIMA_MLA && mla_complete (s))
        || (dialect == GST_SIMA_DIALECT_SIMA_RUNTIME
            && runtime_complete (s))) {
      gchar *err = NULL;
      GstStructure *c = gst_sima_dialect_to_canonical (s, &err);
      if (c != NULL)
        gst_caps_append_structure (one, c);
      else
        GST_INFO ("dropping %" GST_PTR_FORMAT ": %s", s, err);
      g_free (err);
    } else if (dialect == GST_SIMA_DIALECT_SIMA_MLA) {
      mla_partial (s, one);
    } else {
      runtime_partial (s, one);
    }
    for (k = 0; k < gst_caps_get_size (one); k++)
      gst_caps_set_features (one, k, features
          ? gst_caps_features_copy (features) : NULL);
    out = gst_caps_merge (out, one);
  }
  return out;
}

/* SiMa's own fields (every field either dialect reads that ours do not
 * share), for gst_sima_dialect_strip. */
static gboolean
is_sima_field (GQuark field, const GValue *value, gpointer user)
{
  static const gchar *const names[] = { "format", "data_type", "width",
    "height", "depth", "slice_width", "slice_height", "slice_depth", "rank",
    "storage", NULL
  };
  const gchar *name = g_quark_to_string (field);
  guint i;

  for (i = 0; names[i] != NULL; i++)
    if (strcmp (name, names[i]) == 0)
      return FALSE;
  if (g_str_has_prefix (name, "dim") && g_ascii_isdigit (name[3]))
    return FALSE;
  /* the runtime's shape is a string; ours an array */
  if (strcmp (name, "shape") == 0 && G_VALUE_HOLDS_STRING (value))
    return FALSE;
  return TRUE;                  /* keep */
}

GstStructure *
gst_sima_dialect_strip (const GstStructure *s)
{
  GstStructure *copy = gst_structure_copy (s);

  gst_structure_filter_and_map_in_place (copy, (GstStructureFilterMapFunc)
      is_sima_field, NULL);
  return copy;
}

GstStructure *
gst_sima_dialect_canonical_from_set (const SimaTensorSet *set)
{
  Model m;
  gchar *error = NULL;
  guint i;

  memset (&m, 0, sizeof m);
  m.is_set = TRUE;
  m.n = (guint) MIN (set->n_members, (size_t) MAX_MEMBERS);
  for (i = 0; i < m.n; i++) {
    m.m[i].spec = set->members[i].spec;
    m.m[i].cblock = set->members[i].spec.tiled.cblock != 0;
    m.offset[i] = set->members[i].offset;
  }
  /* a set from gst_sima_caps_to_set has passed the core's checks */
  if (!model_finish (&m, TRUE, &error)) {
    ensure_debug ();
    GST_WARNING ("%s", error);
    g_free (error);
    return NULL;
  }
  return model_to_canonical (&m);
}

GstCaps *
gst_sima_dialect_drop_mixed (GstCaps *caps)
{
  guint i;

  if (gst_caps_is_any (caps) || gst_caps_is_empty (caps))
    return caps;
  caps = gst_caps_make_writable (caps);
  for (i = gst_caps_get_size (caps); i > 0; i--) {
    const GstStructure *s = gst_caps_get_structure (caps, i - 1);
    if (gst_sima_dialect_requested (s) != GST_SIMA_DIALECT_CANONICAL
        && gst_sima_dialect_of (s) == GST_SIMA_DIALECT_CANONICAL)
      gst_caps_remove_structure (caps, i - 1);
  }
  return caps;
}
