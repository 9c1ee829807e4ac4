/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstsimamemberparams.h"

GParamSpec *
gst_sima_param_spec_float_array (const gchar * name, const gchar * nick,
    const gchar * blurb, gfloat min, gfloat max)
{
  return gst_param_spec_array (name, nick, blurb,
      g_param_spec_float ("value", "Value", "One member's value", min, max,
          min, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS),
      G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING);
}

GParamSpec *
gst_sima_param_spec_int_array (const gchar * name, const gchar * nick,
    const gchar * blurb, gint min, gint max)
{
  return gst_param_spec_array (name, nick, blurb,
      g_param_spec_int ("value", "Value", "One member's value", min, max,
          MAX (min, MIN (0, max)), G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS),
      G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING);
}

/* GstParamSpecArray validates entries against the element spec, so they
 * are floats; a double (an application's own GValue) is rounded once. */
static gfloat
entry_float (const GValue * e)
{
  return G_VALUE_HOLDS_DOUBLE (e) ? (gfloat) g_value_get_double (e)
      : g_value_get_float (e);
}

/* Entries beyond the storage are counted, not kept: the count alone makes
 * prepare refuse the array ("17 entries for a set of 6 members"). */
void
gst_sima_float_array_set (GstSimaFloatArray * a, const GValue * value)
{
  guint i;

  a->n = gst_value_array_get_size (value);
  for (i = 0; i < a->n && i < SIMA_TENSOR_SET_MAX_MEMBERS; i++)
    a->v[i] = entry_float (gst_value_array_get_value (value, i));
}

void
gst_sima_float_array_get (const GstSimaFloatArray * a, GValue * value)
{
  guint i;

  for (i = 0; i < a->n && i < SIMA_TENSOR_SET_MAX_MEMBERS; i++) {
    GValue e = G_VALUE_INIT;
    g_value_init (&e, G_TYPE_FLOAT);
    g_value_set_float (&e, a->v[i]);
    gst_value_array_append_and_take_value (value, &e);
  }
}

void
gst_sima_int_array_set (GstSimaIntArray * a, const GValue * value)
{
  guint i;

  a->n = gst_value_array_get_size (value);
  for (i = 0; i < a->n && i < SIMA_TENSOR_SET_MAX_MEMBERS; i++)
    a->v[i] = g_value_get_int (gst_value_array_get_value (value, i));
}

void
gst_sima_int_array_get (const GstSimaIntArray * a, GValue * value)
{
  guint i;

  for (i = 0; i < a->n && i < SIMA_TENSOR_SET_MAX_MEMBERS; i++) {
    GValue e = G_VALUE_INIT;
    g_value_init (&e, G_TYPE_INT);
    g_value_set_int (&e, a->v[i]);
    gst_value_array_append_and_take_value (value, &e);
  }
}

SimaStatus
gst_sima_member_params_check (const gchar * property, guint n_entries,
    size_t n_members)
{
  if (n_entries == 0 || n_entries == n_members)
    return sima_status_ok ();
  return sima_status_make (SIMA_INVALID_PARAMETER, "property %s has %u "
      "entries for a tensor set of %zu members (one per member, or none)",
      property, n_entries, n_members);
}
