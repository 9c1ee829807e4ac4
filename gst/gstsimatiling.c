/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstsimatiling.h"

#include <simaai/kernels/layout.h>

#include <string.h>

#include "gstsimacaps.h"
#include "gstsimadialect.h"
#include "gstsimavideo.h"
#include "gstsimaenums.h"

void
gst_sima_tiling_props_init (GstSimaTilingProps * t)
{
  t->n_axes = 0;
  t->n_shape = 0;
  t->channels = SIMA_CHANNELS_PAD16;
  t->cblock = FALSE;
}

/* Installed on simaquanttess and simacasttess alike. */
void
gst_sima_tiling_install_properties (GObjectClass * klass, guint first_id)
{
  /**
   * GstSimaQuantTess:tile-axes:
   *
   * (simaquanttess and simacasttess.) The logical axis that plays D, H, W
   * and C in the output tiles, four integers, -1 for an absent axis (C is
   * required): used when downstream caps leave `tile-axes` open or offer
   * it among others. Each entry -1 to 5; empty (the default) means
   * channels last, H, W, C the last three axes.
   */
  g_object_class_install_property (klass, first_id,
      gst_param_spec_array ("tile-axes", "Tile axes",
          "Logical axis of D, H, W and C (-1: absent; C is required), used "
          "when downstream leaves it open or offers it, e.g. \"<-1,1,2,3>\". "
          "Empty: channels last (H, W, C the last three axes)",
          g_param_spec_int ("axis", "Axis", "A logical axis or -1", -1,
              SIMA_MAX_RANK - 1, -1, G_PARAM_READWRITE |
              G_PARAM_STATIC_STRINGS),
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstSimaQuantTess:tile-shape:
   *
   * (simaquanttess and simacasttess.) Tile extents in D, H, W, C order,
   * four integers >= 1 (an absent axis needs 1), used when downstream
   * caps leave `tile-shape` open or offer it among others. Empty (the
   * default) means H8/W16/C16.
   */
  g_object_class_install_property (klass, first_id + 1,
      gst_param_spec_array ("tile-shape", "Tile shape",
          "Tile extents in D, H, W, C order, used when downstream leaves "
          "them open or offers them, e.g. \"<1,8,16,16>\" (absent axes need "
          "1). Empty: H8/W16/C16",
          g_param_spec_int ("extent", "Extent", "A tile extent", 1,
              G_MAXINT, 1, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS),
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstSimaQuantTess:channels:
   *
   * (simaquanttess and simacasttess.) Stored channels per tile when
   * downstream caps leave `channels` open or offer it among others:
   * `compact` (the actual channels) or `pad16` (rounded up to 16, the
   * default).
   */
  g_object_class_install_property (klass, first_id + 2,
      g_param_spec_enum ("channels", "Channels",
          "Stored channels per tile when downstream leaves it open or offers "
          "it: compact (actual) or pad16 (rounded up to 16)",
          GST_TYPE_SIMA_CHANNELS,
          SIMA_CHANNELS_PAD16, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstSimaQuantTess:cblock:
   *
   * (simaquanttess and simacasttess.) SiMa's `cblock` tile order when
   * downstream caps leave `cblock` open: inside each tile, 16-channel
   * blocks each holding all the tile's pixels (docs/layout.md). pad16
   * channels only; the same bytes as the plain order for tiles of at most
   * 16 stored channels. Default false.
   */
  g_object_class_install_property (klass, first_id + 3,
      g_param_spec_boolean ("cblock", "cblock",
          "SiMa's cblock tile order (16-channel blocks of all the tile's "
          "pixels; pad16 only), when downstream leaves it open", FALSE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
}

static int
read_array (const GValue * value, int64_t * out)
{
  guint i, n = gst_value_array_get_size (value);
  if (n != 4)
    return 0;                   /* anything but 4 values means "unset" */
  for (i = 0; i < n; i++)
    out[i] = g_value_get_int (gst_value_array_get_value (value, i));
  return 4;
}

gboolean
gst_sima_tiling_set_property (GstSimaTilingProps * t, guint first_id,
    guint prop_id, const GValue * value)
{
  if (prop_id == first_id)
    t->n_axes = read_array (value, t->axes);
  else if (prop_id == first_id + 1)
    t->n_shape = read_array (value, t->shape);
  else if (prop_id == first_id + 2)
    t->channels = (SimaChannels) g_value_get_enum (value);
  else if (prop_id == first_id + 3)
    t->cblock = g_value_get_boolean (value);
  else
    return FALSE;
  return TRUE;
}

gboolean
gst_sima_tiling_get_property (const GstSimaTilingProps * t, guint first_id,
    guint prop_id, GValue * value)
{
  GValue tmp = G_VALUE_INIT;

  if (prop_id == first_id || prop_id == first_id + 1) {
    gst_sima_value_set_int_array (&tmp, prop_id == first_id ? t->axes
        : t->shape, prop_id == first_id ? t->n_axes : t->n_shape);
    g_value_copy (&tmp, value);
    g_value_unset (&tmp);
  } else if (prop_id == first_id + 2) {
    g_value_set_enum (value, t->channels);
  } else if (prop_id == first_id + 3) {
    g_value_set_boolean (value, t->cblock);
  } else {
    return FALSE;
  }
  return TRUE;
}

/* One structure of the other side: the same shape, the other side's dtype
 * and layouts, no fields of this side's layout. */
static GstStructure *
other_side (const GstStructure * s, GstPadDirection direction,
    const gchar * out_dtype)
{
  GstStructure *o = gst_structure_new_empty (GST_SIMA_TENSOR_MEDIA_TYPE);
  const GValue *shape = gst_structure_get_value (s, "shape");
  GValue list = G_VALUE_INIT, item = G_VALUE_INIT;
  static const gchar *dense_dtypes[] = { "float32", "float16", "bfloat16",
    "uint8"
  };
  static const gchar *dense_layouts[] = { "contiguous", "strided" };
  guint i;

  if (shape != NULL)
    gst_structure_set_value (o, "shape", shape);
  /* live pipelines keep their timing through the conversion */
  if (gst_structure_has_field (s, "framerate"))
    gst_structure_set_value (o, "framerate", gst_structure_get_value (s,
            "framerate"));
  /* a set stays a set; its offsets are this side's own (sizes differ) */
  if (gst_sima_caps_is_set (s))
    gst_structure_set (o, "representation", G_TYPE_STRING,
        GST_SIMA_TENSOR_SET_REPRESENTATION, NULL);
  if (direction == GST_PAD_SINK) {        /* dense in -> tiles out */
    gst_structure_set (o, "dtype", G_TYPE_STRING, out_dtype, "layout",
        G_TYPE_STRING, "mla-tiled", NULL);
    /* An open field keeps these caps unfixed, so that base transform asks
     * downstream (which may fix the tiling) before fixate_caps fills in
     * the properties; without it a missing tile field looks "fixed". */
    g_value_init (&list, GST_TYPE_LIST);
    for (i = SIMA_CHANNELS_COMPACT; i <= SIMA_CHANNELS_PAD16; i++) {
      g_value_init (&item, G_TYPE_STRING);
      g_value_set_string (&item, sima_channels_name ((SimaChannels) i));
      gst_value_list_append_and_take_value (&list, &item);
    }
    gst_structure_take_value (o, "channels", &list);
    return o;
  }
  /* tiles out -> any dense float input */
  g_value_init (&list, GST_TYPE_LIST);
  for (i = 0; i < G_N_ELEMENTS (dense_dtypes); i++) {
    g_value_init (&item, G_TYPE_STRING);
    g_value_set_string (&item, dense_dtypes[i]);
    gst_value_list_append_and_take_value (&list, &item);
  }
  gst_structure_take_value (o, "dtype", &list);
  g_value_init (&list, GST_TYPE_LIST);
  for (i = 0; i < G_N_ELEMENTS (dense_layouts); i++) {
    g_value_init (&item, G_TYPE_STRING);
    g_value_set_string (&item, dense_layouts[i]);
    gst_value_list_append_and_take_value (&list, &item);
  }
  gst_structure_take_value (o, "layout", &list);
  return o;
}

GstCaps *
gst_sima_tiling_transform_caps (GstPadDirection direction, GstCaps * caps,
    GstCaps * filter, const gchar * out_dtype)
{
  GstCaps *result = gst_caps_new_empty ();
  /* SiMa's dialects in: what they stand for (gstsimadialect.c) */
  GstCaps *canonical = gst_sima_dialect_caps_to_canonical (caps);
  guint i;

  for (i = 0; i < gst_caps_get_size (canonical); i++) {
    const GstStructure *s = gst_caps_get_structure (canonical, i);
    if (gst_sima_video_is_video (s)) {
      /* a camera frame is the tensor <H, W, C> it holds */
      GstStructure *t = gst_sima_video_to_tensor_structure (s);
      result = gst_caps_merge_structure (result, other_side (t, direction,
              out_dtype));
      gst_structure_free (t);
      continue;
    }
    result = gst_caps_merge_structure (result, other_side (s, direction,
            out_dtype));
    /* tiles upstream of which a camera frame could come */
    if (direction == GST_PAD_SRC) {
      GstStructure *v = gst_sima_video_from_tensor_structure (s);
      if (v != NULL)
        result = gst_caps_merge_structure (result, v);
    }
    /* a peer that gives one entry per member (dtype=<int8,int8>) cannot
     * intersect the one-value form: the same set with the fields open */
    if (gst_sima_caps_is_set (s)) {
      GstStructure *open = gst_structure_new (GST_SIMA_TENSOR_MEDIA_TYPE,
          "representation", G_TYPE_STRING, GST_SIMA_TENSOR_SET_REPRESENTATION,
          NULL);
      const GValue *shape = gst_structure_get_value (s, "shape");
      if (shape != NULL)
        gst_structure_set_value (open, "shape", shape);
      result = gst_caps_merge_structure (result, open);
    }
  }
  gst_caps_unref (canonical);
  /* and out, last, for a peer that speaks them: SiMa's MLA and runtime
   * tiles downstream, its runtime float tensors upstream */
  if (!gst_caps_is_any (result))
    gst_caps_append (result, gst_caps_from_string (direction == GST_PAD_SINK
            ? (strcmp (out_dtype, "int8") == 0 ? GST_SIMA_DIALECT_INT8_TILES_CAPS
                : GST_SIMA_DIALECT_BF16_TILES_CAPS)
            : GST_SIMA_DIALECT_RUNTIME_FLOAT_CAPS "; "
            GST_SIMA_DIALECT_RUNTIME_SET_CAPS));
  if (filter != NULL) {
    GstCaps *tmp = gst_caps_intersect_full (filter, result,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (result);
    result = tmp;
  }
  return result;
}

/* transform_caps of the consumers of tiles (simadetessdequant,
 * simadetesscast). A set stays a set, twice: with the template's choices
 * as one value for every member (preferred), and with dtype and layout
 * open for a peer that gives one entry per member. Offsets are each
 * side's own. */
GstCaps *
gst_sima_untiling_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter,
    const gchar * sink_dialects, const gchar * src_dialects)
{
  GstPad *other = direction == GST_PAD_SINK
      ? GST_BASE_TRANSFORM_SRC_PAD (trans) : GST_BASE_TRANSFORM_SINK_PAD (trans);
  GstCaps *templ = gst_pad_get_pad_template_caps (other);
  const GstStructure *single = gst_caps_get_structure (templ, 0);
  GstCaps *result = gst_caps_new_empty ();
  /* SiMa's dialects in: what they stand for (gstsimadialect.c) */
  GstCaps *canonical = gst_sima_dialect_caps_to_canonical (caps);
  guint i;

  for (i = 0; i < gst_caps_get_size (canonical); i++) {
    const GstStructure *s = gst_caps_get_structure (canonical, i);
    const GValue *shape = gst_structure_get_value (s, "shape");
    GstStructure *one = gst_structure_copy (single);

    if (shape != NULL)
      gst_structure_set_value (one, "shape", shape);
    if (gst_structure_has_field (s, "framerate"))
      gst_structure_set_value (one, "framerate", gst_structure_get_value (s,
              "framerate"));
    if (gst_sima_caps_is_set (s)) {
      GstStructure *open = gst_structure_new (GST_SIMA_TENSOR_MEDIA_TYPE,
          "representation", G_TYPE_STRING, GST_SIMA_TENSOR_SET_REPRESENTATION,
          NULL);
      if (shape != NULL)
        gst_structure_set_value (open, "shape", shape);
      gst_structure_set (one, "representation", G_TYPE_STRING,
          GST_SIMA_TENSOR_SET_REPRESENTATION, NULL);
      result = gst_caps_merge_structure (result, one);
      result = gst_caps_merge_structure (result, open);
    } else {
      result = gst_caps_merge_structure (result, one);
    }
  }
  gst_caps_unref (templ);
  gst_caps_unref (canonical);
  /* and out, last, for a peer that speaks them */
  if (!gst_caps_is_any (result))
    gst_caps_append (result, gst_caps_from_string (direction == GST_PAD_SINK
            ? src_dialects : sink_dialects));
  if (filter != NULL) {
    GstCaps *tmp = gst_caps_intersect_full (filter, result,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (result);
    result = tmp;
  }
  return result;
}

/* Enough for every list a real downstream offers (a few tilings times two
 * channel modes); bounds the work when a caps string is pathological. */
#define MAX_CANDIDATES 256

/* A fixed structure fixation may pick, and where it stands in the order of
 * preference: fewer misses first (a miss is a preferred field it does not
 * match, the most important field the highest bit), then downstream's
 * order. */
typedef struct
{
  GstStructure *s;
  GstCapsFeatures *features;
  guint misses;
  guint order;
} Candidate;

static void
candidate_clear (gpointer data)
{
  Candidate *c = data;

  gst_structure_free (c->s);
  if (c->features != NULL)
    gst_caps_features_free (c->features);
}

static gint
candidate_compare (gconstpointer a, gconstpointer b)
{
  const Candidate *x = a, *y = b;

  if (x->misses != y->misses)
    return x->misses < y->misses ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static void
value_clear (gpointer data)
{
  g_value_unset (data);
}

/* The choices one value (not a list) offers: the preferred value first
 * when the value allows it, then the value itself unless that is the same
 * (an unfixed value is fixed later by gst_structure_fixate). */
static void
add_choices (GArray * choices, const GValue * v, const GValue * pref)
{
  GValue preferred = G_VALUE_INIT, copy = G_VALUE_INIT;

  if (pref != NULL && gst_value_intersect (&preferred, pref, v)) {
    gboolean same = gst_value_compare (&preferred, v) == GST_VALUE_EQUAL;
    g_array_append_val (choices, preferred);
    if (same)
      return;
  }
  g_value_init (&copy, G_VALUE_TYPE (v));
  g_value_copy (v, &copy);
  g_array_append_val (choices, copy);
}

static GArray *
field_choices (const GValue * v, const GValue * pref)
{
  GArray *choices = g_array_new (FALSE, TRUE, sizeof (GValue));
  guint i;

  g_array_set_clear_func (choices, value_clear);
  if (GST_VALUE_HOLDS_LIST (v)) {
    for (i = 0; i < gst_value_list_get_size (v); i++)
      add_choices (choices, gst_value_list_get_value (v, i), pref);
  } else {
    add_choices (choices, v, pref);
  }
  return choices;
}

/* Appends the candidates of one structure of othercaps to `out`: preferred
 * values fill the fields it leaves out, and every combination of its list
 * values (the last field fastest) is one candidate. */
static void
add_candidates (GArray * out, const GstStructure * s,
    const GstCapsFeatures * features, const GstStructure * prefs)
{
  GstStructure *work = gst_structure_copy (s);
  GPtrArray *names = g_ptr_array_new ();
  GPtrArray *choices = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_array_unref);
  guint *pos;
  gint i, n;

  /* a peer's structure in SiMa's dialect says everything in its own
   * fields: ours would only make it a different tensor */
  if (gst_sima_dialect_of (s) != GST_SIMA_DIALECT_CANONICAL)
    prefs = NULL;
  for (i = 0; prefs != NULL && i < gst_structure_n_fields (prefs); i++) {
    const gchar *name = gst_structure_nth_field_name (prefs, i);
    if (!gst_structure_has_field (work, name))
      gst_structure_set_value (work, name, gst_structure_get_value (prefs,
              name));
  }
  n = gst_structure_n_fields (work);
  for (i = 0; i < n; i++) {
    const gchar *name = gst_structure_nth_field_name (work, i);
    g_ptr_array_add (names, (gpointer) name);
    g_ptr_array_add (choices, field_choices (gst_structure_get_value (work,
                name), prefs ? gst_structure_get_value (prefs, name) : NULL));
  }
  pos = g_new0 (guint, n + 1);
  while (out->len < MAX_CANDIDATES) {
    Candidate c = { gst_structure_copy (work), NULL, 0, out->len };
    gint k;

    for (k = 0; k < n; k++)
      gst_structure_set_value (c.s, g_ptr_array_index (names, k),
          &g_array_index ((GArray *) g_ptr_array_index (choices, k), GValue,
              pos[k]));
    gst_structure_fixate (c.s);
    for (k = 0; prefs != NULL && k < gst_structure_n_fields (prefs); k++) {
      const gchar *name = gst_structure_nth_field_name (prefs, k);
      c.misses <<= 1;
      if (gst_value_compare (gst_structure_get_value (c.s, name),
              gst_structure_get_value (prefs, name)) != GST_VALUE_EQUAL)
        c.misses |= 1;
    }
    if (features != NULL)
      c.features = gst_caps_features_copy (features);
    g_array_append_val (out, c);
    /* the next combination; done when the odometer wraps */
    for (k = n - 1; k >= 0; k--) {
      if (++pos[k] < ((GArray *) g_ptr_array_index (choices, k))->len)
        break;
      pos[k] = 0;
    }
    if (k < 0)
      break;
  }
  g_free (pos);
  g_ptr_array_unref (choices);
  g_ptr_array_unref (names);
  gst_structure_free (work);
}

/* A copy of a fixed structure; a tensor set without offsets gets the
 * offsets its default packing gives, so that downstream (a box decoder
 * reading heads out of the buffer) needs no layout rule of its own. */
static GstStructure *
with_offsets (const GstStructure * s)
{
  GstStructure *copy = gst_structure_copy (s);
  SimaTensorSet set;
  int64_t off[SIMA_TENSOR_SET_MAX_MEMBERS];
  GValue v = G_VALUE_INIT;
  size_t i;

  if (!gst_sima_caps_is_set (s) || gst_structure_has_field (s, "offsets")
      || !gst_sima_caps_to_set (s, &set, NULL))
    return copy;
  for (i = 0; i < set.n_members; i++)
    off[i] = (int64_t) set.members[i].offset;
  gst_sima_value_set_int64_array (&v, off, (int) set.n_members);
  gst_structure_take_value (copy, "offsets", &v);
  return copy;
}

/* The structure fixation settles on, in the dialect the peer asked for: a
 * candidate with our fields and SiMa's (our caps met a peer's SiMa
 * structure) is ours, written out in full in SiMa's dialect
 * (gstsimadialect.c); our own form when that dialect cannot say it. */
static GstStructure *
finish_pick (GstObject * owner, GstDebugCategory * cat,
    const GstStructure * pick)
{
  GstSimaDialect asked = gst_sima_dialect_requested (pick);
  GstStructure *ours, *theirs;
  gchar *why = NULL;

  if (asked == GST_SIMA_DIALECT_CANONICAL
      || gst_sima_dialect_of (pick) != GST_SIMA_DIALECT_CANONICAL)
    return with_offsets (pick);
  theirs = gst_sima_dialect_strip (pick);
  ours = with_offsets (theirs);
  gst_structure_free (theirs);
  if (gst_sima_caps_is_set (ours)) {
    SimaTensorSet set;
    /* SiMa's set forms list every member: ours in full first */
    GstStructure *full;
    if (gst_sima_caps_to_set (ours, &set, NULL)
        && (full = gst_sima_dialect_canonical_from_set (&set)) != NULL) {
      gst_structure_free (ours);
      ours = full;
    }
  }
  theirs = gst_sima_dialect_from_canonical (ours, asked, &why);
  if (theirs == NULL) {
    GST_CAT_INFO_OBJECT (cat, owner, "the peer's %s dialect cannot say %"
        GST_PTR_FORMAT ": %s", gst_sima_dialect_name (asked), ours, why);
    g_free (why);
    return ours;
  }
  gst_structure_free (ours);
  return theirs;
}

/* The work of gst_sima_fixate_admitted, with preferred field values. */
static GstCaps *
fixate_admitted (GstObject * owner, GstDebugCategory * cat,
    GstSimaAdmitFunc admit, GstPadDirection direction, GstCaps * caps,
    GstCaps * othercaps, const GstStructure * prefs)
{
  GArray *cands;
  SimaTensorSet fixed, set;
  gboolean have_fixed;
  const Candidate *pick = NULL;
  GstCaps *result;
  gchar *why = NULL;
  guint i;

  if (gst_caps_is_empty (othercaps) || gst_caps_is_any (othercaps))
    return gst_caps_fixate (othercaps);
  cands = g_array_new (FALSE, TRUE, sizeof (Candidate));
  g_array_set_clear_func (cands, candidate_clear);
  for (i = 0; i < gst_caps_get_size (othercaps); i++)
    add_candidates (cands, gst_caps_get_structure (othercaps, i),
        gst_caps_get_features (othercaps, i), prefs);
  g_array_sort (cands, candidate_compare);

  /* Without a spec for this side there is nothing to admit against:
   * set_caps will say why. */
  have_fixed = caps != NULL && gst_caps_get_size (caps) > 0
      && gst_sima_caps_to_set (gst_caps_get_structure (caps, 0), &fixed,
      NULL);
  for (i = 0; have_fixed && pick == NULL && i < cands->len; i++) {
    const Candidate *c = &g_array_index (cands, Candidate, i);
    gboolean ok = gst_sima_caps_to_set (c->s, &set, &why)
        && (direction == GST_PAD_SINK ? admit (owner, &fixed, &set, &why)
        : admit (owner, &set, &fixed, &why));

    if (ok)
      pick = c;
    else
      GST_CAT_DEBUG_OBJECT (cat, owner, "fixation skips %" GST_PTR_FORMAT
          ": %s", c->s, why);
    g_free (why);
    why = NULL;
  }
  if (pick == NULL) {
    pick = &g_array_index (cands, Candidate, 0);
    GST_CAT_DEBUG_OBJECT (cat, owner, "%s; keeping the first candidate, %"
        GST_PTR_FORMAT, have_fixed ? "the core admits no candidate"
        : "no spec for the fixed side", pick->s);
  }
  result = gst_caps_new_empty ();
  gst_caps_append_structure_full (result, finish_pick (owner, cat, pick->s),
      pick->features ? gst_caps_features_copy (pick->features) : NULL);
  g_array_unref (cands);
  gst_caps_unref (othercaps);
  return result;
}

GstCaps *
gst_sima_fixate_admitted (GstObject * owner, GstDebugCategory * cat,
    GstSimaAdmitFunc admit, GstPadDirection direction, GstCaps * caps,
    GstCaps * othercaps)
{
  return fixate_admitted (owner, cat, admit, direction, caps, othercaps, NULL);
}

GstCaps *
gst_sima_tiling_fixate_caps (GstObject * owner, GstDebugCategory * cat,
    const GstSimaTilingProps * t, GstSimaAdmitFunc admit,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  GstSimaTilingProps props;
  GstStructure *prefs;
  SimaMlaTiled def;
  int64_t axes[4];
  GValue v = G_VALUE_INIT;
  GstCaps *result;
  int rank = -1, k;

  if (direction != GST_PAD_SINK)        /* fixating the (dense) sink side */
    return fixate_admitted (owner, cat, admit, direction, caps, othercaps,
        NULL);
  GST_OBJECT_LOCK (owner);
  props = *t;
  GST_OBJECT_UNLOCK (owner);
  /* the tiled side has the input's shape, so its rank picks the default */
  if (caps != NULL && gst_caps_get_size (caps) > 0) {
    const GstStructure *in = gst_caps_get_structure (caps, 0);
    SimaTensorSet set;
    /* a set's tiling preference is one value for every member: the
     * default for its first member's rank */
    rank = gst_sima_caps_to_set (in, &set, NULL)
        ? set.members[0].spec.rank : -1;
  }
  sima_mla_tiled_default (rank > 0 ? rank : 1, &def);
  /* in order of importance: the field order is the order of the misses */
  prefs = gst_structure_new_empty ("preferred");
  for (k = 0; k < 4; k++)
    axes[k] = props.n_axes == 4 ? props.axes[k] : def.axes[k];
  gst_sima_value_set_int_array (&v, axes, 4);
  gst_structure_take_value (prefs, "tile-axes", &v);
  gst_sima_value_set_int_array (&v, props.n_shape == 4 ? props.shape
      : def.tile_shape, 4);
  gst_structure_take_value (prefs, "tile-shape", &v);
  gst_structure_set (prefs, "channels", G_TYPE_STRING,
      sima_channels_name (props.channels), NULL);
  /* only when asked for: caps without the field mean the plain order */
  if (props.cblock)
    gst_structure_set (prefs, "cblock", G_TYPE_BOOLEAN, TRUE, NULL);
  result = fixate_admitted (owner, cat, admit, direction, caps, othercaps,
      prefs);
  gst_structure_free (prefs);
  return result;
}
