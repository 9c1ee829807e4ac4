/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SiMa's caps dialects <-> canonical caps (gst/gstsimadialect.c, issue 15):
 * the caps forms GStreamer must parse, the runtime's and the legacy MLA's
 * examples both ways, the round trip over many canonical structures, every
 * error with its field named, and unfixed caps for transform_caps.
 */
#include <string.h>

#include "check_util.h"
#include "gstsimadialect.h"

/* ---- helpers ------------------------------------------------------------ */

static GstStructure *
st (const gchar *str)
{
  GstStructure *s = gst_structure_from_string (str, NULL);
  fail_unless (s != NULL, "caps do not parse: %s", str);
  return s;
}

static void
assert_equal (const GstStructure *got, const GstStructure *want,
    const gchar *what)
{
  gchar *g = got ? gst_structure_to_string (got) : g_strdup ("NULL");
  gchar *w = gst_structure_to_string (want);
  fail_unless (got != NULL && gst_structure_is_equal (got, want),
      "%s:\n  got  %s\n  want %s", what, g, w);
  g_free (g);
  g_free (w);
}

/* to_canonical (in) must equal `want`; frees nothing. */
static void
check_to_canonical (const gchar *in, const gchar *want)
{
  GstStructure *s = st (in), *w = st (want), *c;
  gchar *err = NULL;

  c = gst_sima_dialect_to_canonical (s, &err);
  fail_unless (c != NULL, "to_canonical (%s): %s", in, err);
  assert_equal (c, w, in);
  gst_structure_free (c);
  gst_structure_free (w);
  gst_structure_free (s);
}

/* from_canonical (canonical, dialect) must equal `want` (when given), and
 * to_canonical of the result must give canonical back. */
static void
check_round_trip (const gchar *canonical, GstSimaDialect dialect,
    const gchar *want)
{
  GstStructure *x = st (canonical), *d, *back;
  gchar *err = NULL, *what;

  d = gst_sima_dialect_from_canonical (x, dialect, &err);
  fail_unless (d != NULL, "from_canonical (%s, %s): %s", canonical,
      gst_sima_dialect_name (dialect), err);
  fail_unless_equals_int (gst_sima_dialect_of (d), dialect);
  if (want != NULL) {
    GstStructure *w = st (want);
    what = g_strdup_printf ("from_canonical (%s)", canonical);
    assert_equal (d, w, what);
    g_free (what);
    gst_structure_free (w);
  }
  back = gst_sima_dialect_to_canonical (d, &err);
  fail_unless (back != NULL, "to_canonical (from_canonical (%s)): %s",
      canonical, err);
  what = g_strdup_printf ("round trip through %s",
      gst_sima_dialect_name (dialect));
  assert_equal (back, x, what);
  g_free (what);
  gst_structure_free (back);
  gst_structure_free (d);
  gst_structure_free (x);
}

static void
assert_error (gchar *err, const gchar *caps, const gchar *const *words)
{
  guint k;
  fail_unless (err != NULL, "no error for %s", caps);
  GST_INFO ("%s -> %s", caps, err);
  for (k = 0; words[k] != NULL; k++)
    fail_unless (strstr (err, words[k]) != NULL,
        "error for %s does not name '%s': %s", caps, words[k], err);
  g_free (err);
}

#define WORDS(...) ((const gchar *const[]) { __VA_ARGS__, NULL })

static void
expect_to_error (const gchar *caps, const gchar *const *words)
{
  GstStructure *s = st (caps), *c;
  gchar *err = NULL;
  c = gst_sima_dialect_to_canonical (s, &err);
  fail_unless (c == NULL, "to_canonical (%s) did not fail", caps);
  assert_error (err, caps, words);
  gst_structure_free (s);
}

static void
expect_from_error (const gchar *caps, GstSimaDialect dialect,
    const gchar *const *words)
{
  GstStructure *s = st (caps), *c;
  gchar *err = NULL;
  c = gst_sima_dialect_from_canonical (s, dialect, &err);
  fail_unless (c == NULL, "from_canonical (%s, %s) did not fail", caps,
      gst_sima_dialect_name (dialect));
  assert_error (err, caps, words);
  gst_structure_free (s);
}

/* ---- the forms GStreamer 1.22 parses ------------------------------------ */

GST_START_TEST (test_caps_forms_parse)
{
  static const gchar *const forms[] = {
    TENSOR ", shape=(int)<<80,80,64>,<40,40,64>>",
    TENSOR ", strides=(gint64)<<256,16,4>,<>>",
    TENSOR ", strides=<<>,<>>",
    TENSOR ", dtype=(string)<int8,int8>, layout=(string)<mla-tiled,"
        "mla-tiled>, channels=(string)<pad16,pad16>",
    TENSOR ", tile-axes=(int)<<-1,0,1,2>,<-1,0,1,2>>",
    TENSOR ", cblock=(boolean)<false,false>",
    TENSOR ", offsets=(gint64)<0,409600>",
    TENSOR ", shape=(string)<\"80,80,64\",\"40,40,64\">",
    TENSOR ", width=(int){80,40,20}",
    TENSOR ", width=(string)\"80,40,20\"",
    TENSOR ", shape=(int){<<1,2>,<3>>,<<4>,<5>>}",
  };
  guint k;

  for (k = 0; k < G_N_ELEMENTS (forms); k++) {
    GstCaps *a = gst_caps_from_string (forms[k]), *b;
    gchar *str;
    fail_unless (a != NULL, "does not parse: %s", forms[k]);
    str = gst_caps_to_string (a);
    b = gst_caps_from_string (str);
    fail_unless (b != NULL && gst_caps_is_equal (a, b),
        "%s serializes as %s, which does not parse back equal", forms[k], str);
    g_free (str);
    gst_caps_unref (a);
    gst_caps_unref (b);
  }
  /* nested arrays: inner arrays, one of them empty */
  {
    GstStructure *s = st (TENSOR ", strides=(gint64)<<8,4>,<>>");
    const GValue *v = gst_structure_get_value (s, "strides");
    fail_unless (GST_VALUE_HOLDS_ARRAY (v));
    fail_unless_equals_int (gst_value_array_get_size (v), 2);
    fail_unless (GST_VALUE_HOLDS_ARRAY (gst_value_array_get_value (v, 0)));
    fail_unless_equals_int (gst_value_array_get_size
        (gst_value_array_get_value (v, 1)), 0);
    fail_unless (G_VALUE_HOLDS_INT64 (gst_value_array_get_value
            (gst_value_array_get_value (v, 0), 0)));
    gst_structure_free (s);
  }
  /* a set's caps are fixed and intersect element by element */
  {
    GstCaps *a = gst_caps_from_string (TENSOR ", representation=tensor-set, "
        "shape=(int)<<80,80,64>,<40,40,64>>");
    GstCaps *b = gst_caps_from_string (TENSOR ", representation=tensor-set, "
        "shape=(int)<<80,80,64>,<[1,100],40,64>>");
    GstCaps *c = gst_caps_from_string (TENSOR ", representation=tensor-set, "
        "shape=(int)<<80,80,64>,<41,40,64>>");
    fail_unless (gst_caps_is_fixed (a));
    fail_unless (gst_caps_can_intersect (a, b));
    fail_if (gst_caps_can_intersect (a, c));
    gst_caps_unref (a);
    gst_caps_unref (b);
    gst_caps_unref (c);
  }
}

GST_END_TEST;

/* ---- dialect detection ---------------------------------------------------- */

GST_START_TEST (test_dialect_of)
{
  static const struct {
    const gchar *caps;
    GstSimaDialect dialect;
  } cases[] = {
    {TENSOR ", dtype=float32, shape=(int)<2,3>", GST_SIMA_DIALECT_CANONICAL},
    {TENSOR ", representation=tensor-set, shape=(int)<<2>>",
        GST_SIMA_DIALECT_CANONICAL},
    {TENSOR, GST_SIMA_DIALECT_CANONICAL},
    {TENSOR ", format=MLA", GST_SIMA_DIALECT_SIMA_MLA},
    {TENSOR ", format=BBOX", GST_SIMA_DIALECT_SIMA_MLA},
    {TENSOR ", data_type=INT8", GST_SIMA_DIALECT_SIMA_MLA},
    {TENSOR ", format=FP32, rank=3", GST_SIMA_DIALECT_SIMA_RUNTIME},
    {TENSOR ", format={FP32,BF16}", GST_SIMA_DIALECT_SIMA_RUNTIME},
    {TENSOR ", dim0=4", GST_SIMA_DIALECT_SIMA_RUNTIME},
    {TENSOR ", representation=tensor-set, storage=tensorbuffer",
        GST_SIMA_DIALECT_SIMA_RUNTIME},
  };
  guint k;

  for (k = 0; k < G_N_ELEMENTS (cases); k++) {
    GstStructure *s = st (cases[k].caps);
    fail_unless (gst_sima_dialect_of (s) == cases[k].dialect,
        "%s: dialect %s", cases[k].caps,
        gst_sima_dialect_name (gst_sima_dialect_of (s)));
    gst_structure_free (s);
  }
}

GST_END_TEST;

/* ---- the runtime ------------------------------------------------------------ */

#define RUNTIME_640 TENSOR ", format=(string)FP32, rank=(int)3, dim0=(int)640, " \
  "dim1=(int)640, dim2=(int)3, shape=(string)\"640,640,3\", " \
  "dtype=(string)FP32"
#define CANONICAL_640 TENSOR ", dtype=(string)float32, " \
  "shape=(int)<640,640,3>, layout=(string)contiguous"

GST_START_TEST (test_runtime_example)
{
  check_to_canonical (RUNTIME_640, CANONICAL_640);
  check_round_trip (CANONICAL_640, GST_SIMA_DIALECT_SIMA_RUNTIME,
      RUNTIME_640);
  /* the runtime's caps may leave out rank, dtype, the dims or the shape */
  check_to_canonical (TENSOR ", format=FP32, shape=\"640,640,3\"",
      CANONICAL_640);
  check_to_canonical (TENSOR ", format=FP32, rank=3, dim0=640, dim1=640, "
      "dim2=3", CANONICAL_640);
  check_to_canonical (TENSOR ", format=BF16, rank=1, shape=\" 7 \"",
      TENSOR ", dtype=bfloat16, shape=(int)<7>, layout=contiguous");
  check_to_canonical (TENSOR ", format=FP32, shape=(int)4",
      TENSOR ", dtype=float32, shape=(int)<4>, layout=contiguous");
  check_to_canonical (TENSOR ", format=UINT8, dtype=UINT8, shape=\"2,3\"",
      TENSOR ", dtype=uint8, shape=(int)<2,3>, layout=contiguous");
}

GST_END_TEST;

GST_START_TEST (test_runtime_tiled)
{
  /* SiMa's slices alongside: channels last, pad16 */
  check_to_canonical (TENSOR ", format=INT8, rank=3, dim0=80, dim1=80, "
      "dim2=64, shape=\"80,80,64\", dtype=INT8, slice_width=80, "
      "slice_height=1, slice_depth=64",
      TENSOR ", dtype=int8, shape=(int)<80,80,64>, layout=mla-tiled, "
      "tile-axes=(int)<-1,0,1,2>, tile-shape=(int)<1,1,80,64>, "
      "channels=pad16");
  check_to_canonical (TENSOR ", format=INT8, shape=\"2,8,16,3\", "
      "slice_width=16, slice_height=8, slice_depth=16, channels=compact",
      TENSOR ", dtype=int8, shape=(int)<2,8,16,3>, layout=mla-tiled, "
      "tile-axes=(int)<-1,1,2,3>, tile-shape=(int)<1,8,16,16>, "
      "channels=compact");
  /* our tile fields alongside (and back: the runtime form carries them) */
  check_round_trip (TENSOR ", dtype=int8, shape=(int)<8,16,3>, "
      "layout=mla-tiled, tile-axes=(int)<-1,0,1,2>, "
      "tile-shape=(int)<1,8,16,16>, channels=pad16, cblock=true",
      GST_SIMA_DIALECT_SIMA_RUNTIME, TENSOR ", format=INT8, rank=3, "
      "dim0=8, dim1=16, dim2=3, shape=\"8,16,3\", dtype=INT8, "
      "layout=mla-tiled, tile-axes=(int)<-1,0,1,2>, "
      "tile-shape=(int)<1,8,16,16>, channels=pad16, cblock=true");
  check_round_trip (TENSOR ", dtype=float32, shape=(int)<4,3>, "
      "layout=strided, strides=(gint64)<64,4>",
      GST_SIMA_DIALECT_SIMA_RUNTIME, NULL);
  check_round_trip (TENSOR ", dtype=int8, shape=(int)<1,8,16,40>, "
      "layout=mla-cblocked", GST_SIMA_DIALECT_SIMA_RUNTIME, NULL);
}

GST_END_TEST;

#define RUNTIME_SET TENSOR ", representation=(string)tensor-set, " \
  "storage=(string)tensorbuffer, format=(string)<FP32,INT8>, " \
  "rank=(int)<3,2>, dim0=(int)<640,80>, dim1=(int)<640,64>, " \
  "dim2=(int)<3,-1>, shape=(string)<\"640,640,3\",\"80,64\">, " \
  "dtype=(string)<FP32,INT8>, layout=(string)<contiguous,mla-tiled>, " \
  "tile-axes=(int)<<>,<-1,-1,0,1>>, tile-shape=(int)<<>,<1,1,16,16>>, " \
  "channels=(string)<compact,pad16>"
#define CANONICAL_SET TENSOR ", representation=(string)tensor-set, " \
  "dtype=(string)<float32,int8>, shape=(int)<<640,640,3>,<80,64>>, " \
  "layout=(string)<contiguous,mla-tiled>, " \
  "tile-axes=(int)<<>,<-1,-1,0,1>>, tile-shape=(int)<<>,<1,1,16,16>>, " \
  "channels=(string)<compact,pad16>, offsets=(gint64)<0,4915200>"

GST_START_TEST (test_runtime_set)
{
  check_to_canonical (RUNTIME_SET, CANONICAL_SET);
  check_round_trip (CANONICAL_SET, GST_SIMA_DIALECT_SIMA_RUNTIME,
      RUNTIME_SET);
  /* slices in a set tile every member; offsets other than packed travel */
  check_to_canonical (TENSOR ", representation=tensor-set, "
      "storage=tensorbuffer, format=(string)<INT8,INT8>, "
      "shape=(string)<\"4,16,16\",\"2,16,32\">, "
      "slice_width=(int)<16,16>, slice_height=(int)<1,1>, "
      "slice_depth=(int)<16,32>, offsets=(gint64)<0,4096>",
      TENSOR ", representation=tensor-set, dtype=(string)<int8,int8>, "
      "shape=(int)<<4,16,16>,<2,16,32>>, layout=(string)<mla-tiled,"
      "mla-tiled>, tile-axes=(int)<<-1,0,1,2>,<-1,0,1,2>>, "
      "tile-shape=(int)<<1,1,16,16>,<1,1,16,32>>, "
      "channels=(string)<pad16,pad16>, offsets=(gint64)<0,4096>");
  check_round_trip (TENSOR ", representation=tensor-set, "
      "dtype=(string)<float32,bfloat16>, shape=(int)<<3>,<5,2>>, "
      "layout=(string)<contiguous,strided>, strides=(gint64)<<>,<8,2>>, "
      "offsets=(gint64)<0,64>", GST_SIMA_DIALECT_SIMA_RUNTIME, NULL);
  /* a set of one member stays a set */
  check_round_trip (TENSOR ", representation=tensor-set, "
      "dtype=(string)<float16>, shape=(int)<<2,2>>, "
      "layout=(string)<contiguous>, offsets=(gint64)<0>",
      GST_SIMA_DIALECT_SIMA_RUNTIME, TENSOR ", representation=tensor-set, "
      "storage=tensorbuffer, format=(string)<FP16>, rank=(int)<2>, "
      "dim0=(int)<2>, dim1=(int)<2>, shape=(string)<\"2,2\">, "
      "dtype=(string)<FP16>");
}

GST_END_TEST;

/* ---- legacy MLA: YOLOv8n ----------------------------------------------------- */

#define YOLO_MLA TENSOR ", format=(string)MLA, " \
  "data_type=(string)<INT8,INT8,INT8,INT8,INT8,INT8>, " \
  "width=(int)<80,40,20,80,40,20>, height=(int)<80,40,20,80,40,20>, " \
  "depth=(int)<64,64,64,80,80,80>, slice_width=(int)<80,40,20,80,40,20>, " \
  "slice_height=(int)<1,1,1,1,1,1>, slice_depth=(int)<64,64,64,80,80,80>"
#define YOLO_CANONICAL TENSOR ", representation=(string)tensor-set, " \
  "dtype=(string)<int8,int8,int8,int8,int8,int8>, " \
  "shape=(int)<<80,80,64>,<40,40,64>,<20,20,64>,<80,80,80>,<40,40,80>," \
  "<20,20,80>>, layout=(string)<mla-tiled,mla-tiled,mla-tiled,mla-tiled," \
  "mla-tiled,mla-tiled>, tile-axes=(int)<<-1,0,1,2>,<-1,0,1,2>," \
  "<-1,0,1,2>,<-1,0,1,2>,<-1,0,1,2>,<-1,0,1,2>>, " \
  "tile-shape=(int)<<1,1,80,64>,<1,1,40,64>,<1,1,20,64>,<1,1,80,80>," \
  "<1,1,40,80>,<1,1,20,80>>, channels=(string)<pad16,pad16,pad16,pad16," \
  "pad16,pad16>, offsets=(gint64)<0,409600,512000,537600,1049600,1177600>"

GST_START_TEST (test_yolov8n_mla)
{
  GstStructure *c;
  GstCaps *caps;
  guint64 total = 0;
  gint64 last = 0;

  check_to_canonical (YOLO_MLA, YOLO_CANONICAL);
  check_round_trip (YOLO_CANONICAL, GST_SIMA_DIALECT_SIMA_MLA, YOLO_MLA);
  /* lists and comma-separated strings are values per tensor too */
  check_to_canonical (TENSOR ", format=MLA, "
      "data_type=(string)\"INT8,INT8,INT8,INT8,INT8,INT8\", "
      "width=(string)\"80,40,20,80,40,20\", "
      "height=(int){80,40,20,80,40,20}, "
      "depth=(string)\"64, 64, 64, 80, 80, 80\", "
      "slice_width=(int)<80,40,20,80,40,20>, "
      "slice_height=(string)\"1,1,1,1,1,1\", "
      "slice_depth=(int){64,64,64,80,80,80}", YOLO_CANONICAL);
  /* the set's size is SiMa's 1,209,600 bytes: the last offset plus the
   * last head, sized by the core */
  c = st (YOLO_CANONICAL);
  last = g_value_get_int64 (gst_value_array_get_value
      (gst_structure_get_value (c, "offsets"), 5));
  caps = gst_caps_from_string (TENSOR ", dtype=int8, shape=(int)<20,20,80>, "
      "layout=mla-tiled, tile-axes=(int)<-1,0,1,2>, "
      "tile-shape=(int)<1,1,20,80>, channels=pad16");
  fail_unless (gst_sima_caps_required_bytes (caps, &total, NULL));
  fail_unless_equals_uint64 ((guint64) last + total, 1209600);
  gst_caps_unref (caps);
  gst_structure_free (c);
}

GST_END_TEST;

GST_START_TEST (test_mla_single)
{
  static const gchar *mla = TENSOR ", format=(string)MLA, "
      "data_type=(string)EVXX_BFLOAT16, width=(int)16, height=(int)8, "
      "depth=(int)3, slice_width=(int)16, slice_height=(int)8, "
      "slice_depth=(int)16";
  static const gchar *canonical = TENSOR ", dtype=bfloat16, "
      "shape=(int)<8,16,3>, layout=mla-tiled, tile-axes=(int)<-1,0,1,2>, "
      "tile-shape=(int)<1,8,16,16>, channels=pad16";

  check_to_canonical (mla, canonical);
  check_round_trip (canonical, GST_SIMA_DIALECT_SIMA_MLA, mla);
  /* the format may be left out when data_type says it is MLA */
  check_to_canonical (TENSOR ", data_type=EVXX_BFLOAT16, width=16, "
      "height=8, depth=3, slice_width=(string)\"16\", slice_height=8, "
      "slice_depth=16", canonical);
  /* a one-entry array is a set of one */
  check_round_trip (TENSOR ", representation=tensor-set, "
      "dtype=(string)<int8>, shape=(int)<<4,4,4>>, "
      "layout=(string)<mla-tiled>, tile-axes=(int)<<-1,0,1,2>>, "
      "tile-shape=(int)<<1,2,4,4>>, channels=(string)<pad16>, "
      "offsets=(gint64)<0>", GST_SIMA_DIALECT_SIMA_MLA, NULL);
}

GST_END_TEST;

/* ---- the round trip -------------------------------------------------------- */

GST_START_TEST (test_round_trip)
{
  /* canonical structures in the normal form; where the MLA dialect cannot
   * express one, the runtime still must */
  static const struct {
    const gchar *caps;
    gboolean mla;
  } cases[] = {
    {TENSOR ", dtype=float32, shape=(int)<1,224,224,3>, layout=contiguous",
        FALSE},
    {TENSOR ", dtype=float16, shape=(int)<5>, layout=contiguous", FALSE},
    {TENSOR ", dtype=bfloat16, shape=(int)<2,3,4,5,6,7>, layout=contiguous",
        FALSE},
    {TENSOR ", dtype=int8, shape=(int)<0,4>, layout=contiguous", FALSE},
    {TENSOR ", dtype=float32, shape=(int)<3,5>, layout=strided, "
          "strides=(gint64)<4,12>", FALSE},
    {TENSOR ", dtype=int8, shape=(int)<9,17,33>, layout=mla-tiled, "
          "tile-axes=(int)<-1,0,1,2>, tile-shape=(int)<1,4,8,16>, "
          "channels=pad16", TRUE},
    {TENSOR ", dtype=int8, shape=(int)<9,17,33>, layout=mla-tiled, "
          "tile-axes=(int)<-1,0,1,2>, tile-shape=(int)<1,4,8,16>, "
          "channels=compact", FALSE},
    {TENSOR ", dtype=bfloat16, shape=(int)<2,9,17,33>, layout=mla-tiled, "
          "tile-axes=(int)<0,1,2,3>, tile-shape=(int)<2,4,8,16>, "
          "channels=pad16", FALSE},
    {TENSOR ", dtype=int8, shape=(int)<9,17,33>, layout=mla-tiled, "
          "tile-axes=(int)<-1,0,1,2>, tile-shape=(int)<1,4,8,32>, "
          "channels=pad16, cblock=true", FALSE},
    {TENSOR ", representation=tensor-set, dtype=(string)<int8,bfloat16>, "
          "shape=(int)<<3,5,7>,<1,1,1>>, layout=(string)<mla-tiled,"
          "mla-tiled>, tile-axes=(int)<<-1,0,1,2>,<-1,0,1,2>>, "
          "tile-shape=(int)<<1,2,2,16>,<1,1,1,1>>, "
          "channels=(string)<pad16,pad16>, offsets=(gint64)<0,240>", TRUE},
    {TENSOR ", representation=tensor-set, dtype=(string)<int8,int8>, "
          "shape=(int)<<3,5,7>,<1,1,1>>, layout=(string)<mla-tiled,"
          "mla-tiled>, tile-axes=(int)<<-1,0,1,2>,<-1,0,1,2>>, "
          "tile-shape=(int)<<1,2,2,16>,<1,1,1,1>>, "
          "channels=(string)<pad16,pad16>, offsets=(gint64)<0,512>", FALSE},
    {TENSOR ", representation=tensor-set, dtype=(string)<int8,float32,int8>,"
          " shape=(int)<<4,4,4>,<6>,<1,8,16,40>>, layout=(string)<mla-tiled,"
          "strided,mla-cblocked>, strides=(gint64)<<>,<8>,<>>, "
          "tile-axes=(int)<<-1,0,1,2>,<>,<>>, "
          "tile-shape=(int)<<1,4,4,4>,<>,<>>, "
          "channels=(string)<pad16,compact,compact>, "
          "cblock=(boolean)<true,false,false>, "
          "offsets=(gint64)<0,256,304>", FALSE},
    {YOLO_CANONICAL, TRUE},
  };
  guint k;

  for (k = 0; k < G_N_ELEMENTS (cases); k++) {
    GstStructure *x = st (cases[k].caps), *c;
    gchar *err = NULL;

    /* to_canonical keeps canonical structures as they are */
    c = gst_sima_dialect_to_canonical (x, &err);
    assert_equal (c, x, "to_canonical of a canonical structure");
    gst_structure_free (c);
    gst_structure_free (x);
    check_round_trip (cases[k].caps, GST_SIMA_DIALECT_SIMA_RUNTIME, NULL);
    check_round_trip (cases[k].caps, GST_SIMA_DIALECT_CANONICAL, NULL);
    if (cases[k].mla) {
      check_round_trip (cases[k].caps, GST_SIMA_DIALECT_SIMA_MLA, NULL);
    } else {
      x = st (cases[k].caps);
      c = gst_sima_dialect_from_canonical (x, GST_SIMA_DIALECT_SIMA_MLA,
          &err);
      fail_unless (c == NULL && err != NULL, "%s is not MLA", cases[k].caps);
      g_free (err);
      gst_structure_free (x);
    }
  }
  /* canonical input outside the normal form (offsets left out, explicit
   * defaults) translates to the same members */
  {
    GstStructure *x = st (TENSOR ", representation=tensor-set, "
        "dtype=(string)<int8,int8>, shape=(int)<<3,5,7>,<1,1,1>>, "
        "layout=(string)<mla-tiled,mla-tiled>, "
        "tile-axes=(int)<<-1,0,1,2>,<-1,0,1,2>>, "
        "tile-shape=(int)<<1,2,2,16>,<1,1,1,1>>, "
        "channels=(string)<pad16,pad16>, cblock=(boolean)<false,false>");
    GstStructure *want = st (TENSOR ", representation=tensor-set, "
        "dtype=(string)<int8,int8>, shape=(int)<<3,5,7>,<1,1,1>>, "
        "layout=(string)<mla-tiled,mla-tiled>, "
        "tile-axes=(int)<<-1,0,1,2>,<-1,0,1,2>>, "
        "tile-shape=(int)<<1,2,2,16>,<1,1,1,1>>, "
        "channels=(string)<pad16,pad16>, offsets=(gint64)<0,240>");
    gchar *err = NULL;
    GstStructure *d = gst_sima_dialect_from_canonical (x,
        GST_SIMA_DIALECT_SIMA_MLA, &err), *back;
    fail_unless (d != NULL, "%s", err);
    back = gst_sima_dialect_to_canonical (d, &err);
    assert_equal (back, want, "packed offsets made explicit");
    gst_structure_free (back);
    gst_structure_free (d);
    gst_structure_free (want);
    gst_structure_free (x);
  }
}

GST_END_TEST;

/* ---- errors name the field ------------------------------------------------- */

#define MLA_ONE(dt) TENSOR ", format=MLA, data_type=" dt ", width=16, " \
  "height=8, depth=3, slice_width=16, slice_height=8, slice_depth=16"

GST_START_TEST (test_errors_mla)
{
  expect_to_error (MLA_ONE ("INT16"), WORDS ("data_type", "INT16"));
  expect_to_error (MLA_ONE ("INT32"), WORDS ("data_type", "INT32"));
  expect_to_error (MLA_ONE ("FLOAT"), WORDS ("data_type", "FLOAT"));
  expect_to_error (TENSOR ", format=MLA, data_type=<INT8,INT16>, "
      "width=<1,1>, height=<1,1>, depth=<1,1>, slice_width=<1,1>, "
      "slice_height=<1,1>, slice_depth=<1,1>", WORDS ("data_type", "INT16",
          "tensor 1"));
  expect_to_error (TENSOR ", format=MLA, data_type=<INT8,INT8>, "
      "width=\"80,40,20\", height=<80,40>, depth=<64,64>, "
      "slice_width=<80,40>, slice_height=<1,1>, slice_depth=<64,64>",
      WORDS ("width", "3 values", "data_type has 2"));
  expect_to_error (TENSOR ", format=MLA, data_type=<INT8,INT8>, "
      "width=<80,40>, height=<80,40>, depth=64, slice_width=<80,40>, "
      "slice_height=<1,1>, slice_depth=<64,64>", WORDS ("depth", "1 values"));
  expect_to_error (TENSOR ", format=MLA, data_type=INT8, width=16, "
      "height=8, depth=3, slice_width=16, slice_height=8",
      WORDS ("slice_depth", "missing"));
  expect_to_error (TENSOR ", format=MLA, data_type=INT8, width=\"1x6\", "
      "height=8, depth=3, slice_width=16, slice_height=8, slice_depth=16",
      WORDS ("width", "1x6"));
  expect_to_error (TENSOR ", format=BBOX, data_type=INT8",
      WORDS ("format", "BBOX"));
  expect_to_error (TENSOR ", format=DETESSELLATE",
      WORDS ("format", "DETESSELLATE"));
  /* the core's own admission: a slice of 0 */
  expect_to_error (TENSOR ", format=MLA, data_type=INT8, width=16, "
      "height=8, depth=3, slice_width=0, slice_height=8, slice_depth=16",
      WORDS ("tile-shape", "slice_width 0"));

  /* what the legacy MLA caps cannot express */
  expect_from_error (TENSOR ", dtype=float32, shape=(int)<8,16,3>, "
      "layout=mla-tiled, tile-axes=(int)<-1,0,1,2>, "
      "tile-shape=(int)<1,8,16,16>, channels=pad16", GST_SIMA_DIALECT_SIMA_MLA,
      WORDS ("dtype", "float32"));
  expect_from_error (TENSOR ", dtype=int8, shape=(int)<8,16,3>, "
      "layout=contiguous", GST_SIMA_DIALECT_SIMA_MLA,
      WORDS ("layout", "contiguous"));
  expect_from_error (TENSOR ", dtype=int8, shape=(int)<2,8,16,3>, "
      "layout=mla-tiled, tile-axes=(int)<-1,1,2,3>, "
      "tile-shape=(int)<1,8,16,16>, channels=pad16", GST_SIMA_DIALECT_SIMA_MLA,
      WORDS ("shape", "rank 4"));
  expect_from_error (TENSOR ", dtype=int8, shape=(int)<8,16,3>, "
      "layout=mla-tiled, tile-axes=(int)<-1,1,0,2>, "
      "tile-shape=(int)<1,8,8,16>, channels=pad16", GST_SIMA_DIALECT_SIMA_MLA,
      WORDS ("tile-axes", "<-1,1,0,2>"));
  expect_from_error (TENSOR ", dtype=int8, shape=(int)<8,16,3>, "
      "layout=mla-tiled, tile-axes=(int)<-1,0,1,2>, "
      "tile-shape=(int)<1,8,16,16>, channels=compact",
      GST_SIMA_DIALECT_SIMA_MLA, WORDS ("channels", "compact"));
  expect_from_error (TENSOR ", dtype=int8, shape=(int)<8,16,32>, "
      "layout=mla-tiled, tile-axes=(int)<-1,0,1,2>, "
      "tile-shape=(int)<1,8,16,32>, channels=pad16, cblock=true",
      GST_SIMA_DIALECT_SIMA_MLA, WORDS ("cblock"));
  expect_from_error (TENSOR ", representation=tensor-set, "
      "dtype=(string)<int8,int8>, shape=(int)<<1,1,16>,<1,1,16>>, "
      "layout=(string)<mla-tiled,mla-tiled>, "
      "tile-axes=(int)<<-1,0,1,2>,<-1,0,1,2>>, "
      "tile-shape=(int)<<1,1,1,16>,<1,1,1,16>>, "
      "channels=(string)<pad16,pad16>, offsets=(gint64)<0,32>",
      GST_SIMA_DIALECT_SIMA_MLA, WORDS ("offsets", "<0,32>", "<0,16>"));
  expect_from_error (TENSOR ", representation=tensor-set, "
      "dtype=(string)<int8,float32>, shape=(int)<<1,1,16>,<2>>, "
      "layout=(string)<mla-tiled,contiguous>, "
      "tile-axes=(int)<<-1,0,1,2>,<>>, tile-shape=(int)<<1,1,1,16>,<>>, "
      "channels=(string)<pad16,compact>",
      GST_SIMA_DIALECT_SIMA_MLA, WORDS ("member 1", "dtype", "float32"));
}

GST_END_TEST;

GST_START_TEST (test_errors_runtime)
{
  expect_to_error (TENSOR ", format=FP32, rank=3, dim0=640, dim1=640, "
      "shape=\"640,640\"", WORDS ("rank", "3", "2 dimN"));
  expect_to_error (TENSOR ", format=FP32, rank=3, shape=\"640,640\"",
      WORDS ("rank", "shape", "2 extents"));
  expect_to_error (TENSOR ", format=FP32, dim0=640, dim1=640, dim2=3, "
      "shape=\"640,640\"", WORDS ("shape", "3 dimN"));
  expect_to_error (TENSOR ", format=FP32, rank=3, dim0=640, dim1=480, "
      "dim2=3, shape=\"640,640,3\"", WORDS ("dim1", "480"));
  expect_to_error (TENSOR ", format=FP32, rank=3, dim0=640, dim2=3",
      WORDS ("dim1", "missing"));
  expect_to_error (TENSOR ", format=FP32, rank=9, shape=\"1,2\"",
      WORDS ("rank", "9"));
  expect_to_error (TENSOR ", format=FP32, shape=\"640,x,3\"",
      WORDS ("shape", "640,x,3"));
  expect_to_error (TENSOR ", format=FP32, rank=2",
      WORDS ("shape", "missing"));
  expect_to_error (TENSOR ", format=FP32, rank=1, dim0=4, dtype=INT8",
      WORDS ("dtype", "INT8", "format", "FP32"));
  /* one of our dtype names makes the structure ours, whatever SiMa's
   * fields sit beside it (what an intersection with a bare format=FP32
   * template structure gives): it is read as canonical caps, and this
   * one's string shape is refused there */
  {
    GstStructure *mixed = st (TENSOR ", format=FP32, dtype=float32, "
        "shape=(string)\"2\"");
    SimaTensorSet set;
    gchar *err = NULL;
    fail_unless_equals_int (gst_sima_dialect_of (mixed),
        GST_SIMA_DIALECT_CANONICAL);
    fail_if (gst_sima_caps_to_set (mixed, &set, &err));
    fail_unless (err != NULL && strstr (err, "shape") != NULL, "%s", err);
    g_free (err);
    gst_structure_free (mixed);
  }
  expect_to_error (TENSOR ", format=FP64, rank=1, dim0=4",
      WORDS ("format", "FP64"));
  expect_to_error (TENSOR ", format=INT16, shape=(string)\"4\"",
      WORDS ("format", "INT16"));
  expect_to_error (TENSOR ", format=INT8, shape=\"8,16,3\", "
      "layout=mla-tiled", WORDS ("tile-shape", "missing"));
  expect_to_error (TENSOR ", format=INT8, shape=\"8,16,3\", "
      "tile-shape=(int)<1,8,16,16>, channels=pad16",
      WORDS ("tile-axes", "missing"));
  expect_to_error (TENSOR ", format=INT8, shape=\"8,16,3\", "
      "slice_width=16, slice_height=8", WORDS ("slice_depth"));
  expect_to_error (TENSOR ", format=INT8, shape=\"16,3\", "
      "slice_width=16, slice_height=1, slice_depth=16",
      WORDS ("slice_width", "rank 2"));
  expect_to_error (TENSOR ", format=INT8, shape=\"8,16,3\", "
      "slice_width=16, slice_height=8, slice_depth=16, "
      "tile-shape=(int)<1,8,16,16>", WORDS ("tile-shape", "slice_width"));
  expect_to_error (TENSOR ", format=FP32, shape=\"8,16,3\", "
      "slice_width=16, slice_height=8, slice_depth=16",
      WORDS ("dtype is float32"));  /* the core: float32 tiles */
  /* sets */
  expect_to_error (TENSOR ", representation=tensor-set, "
      "storage=tensorbuffer, format=(string)<FP32,FP32>, "
      "shape=(string)<\"2\">", WORDS ("shape", "1 entries", "2 members"));
  expect_to_error (TENSOR ", representation=tensor-set, "
      "storage=tensorbuffer, format=(string)FP32, shape=(string)\"2\"",
      WORDS ("format", "array"));
  expect_to_error (TENSOR ", representation=tensor-set, storage=vector, "
      "format=(string)<FP32>, shape=(string)<\"2\">",
      WORDS ("storage", "vector"));
  expect_to_error (TENSOR ", representation=tensor-set, "
      "format=(string)<FP32,INT8>, rank=(int)<1,1>, dim0=(int)<4,4>, "
      "dtype=(string)<FP32,FP32>", WORDS ("member 1", "dtype", "INT8"));
  expect_to_error (TENSOR ", representation=tensor-set, "
      "format=(string)<FP32,FP32>, dim0=(int)<4,-1>, dim1=(int)<4,5>",
      WORDS ("member 1", "dim1", "after a -1"));
  expect_to_error (TENSOR ", representation=tensor-set, "
      "format=(string)<FP32>, shape=(string)<\"2\">, offsets=(gint64)<-4>",
      WORDS ("offsets"));
  expect_to_error (TENSOR ", representation=list, format=FP32, "
      "shape=(string)\"2\"", WORDS ("representation", "list"));

  expect_from_error (TENSOR ", dtype=int16, shape=(int)<4>, "
      "layout=contiguous", GST_SIMA_DIALECT_SIMA_RUNTIME,
      WORDS ("dtype", "int16"));
}

GST_END_TEST;

GST_START_TEST (test_errors_canonical)
{
  expect_from_error (TENSOR ", representation=tensor-set, "
      "dtype=(string)<int8>, shape=(int)<<2>,<3>>",
      GST_SIMA_DIALECT_SIMA_RUNTIME, WORDS ("dtype", "1 entries"));
  expect_from_error (TENSOR ", representation=tensor-set, "
      "dtype=(string)<int8,int8>, shape=(int)<<2>,<3>>, "
      "offsets=(gint64)<0>", GST_SIMA_DIALECT_SIMA_RUNTIME,
      WORDS ("offsets"));
  expect_from_error (TENSOR ", representation=tensor-set, "
      "dtype=(string)<int8,int9>, shape=(int)<<2>,<3>>",
      GST_SIMA_DIALECT_SIMA_RUNTIME, WORDS ("member 1", "dtype", "int9"));
  expect_from_error (TENSOR ", dtype=float32, shape=(int)<2>, cblock=true",
      GST_SIMA_DIALECT_SIMA_RUNTIME, WORDS ("cblock"));
  expect_from_error (TENSOR ", representation=tensor-set, "
      "dtype=(string)<int8>, shape=(int)<<8,16,3>>, "
      "layout=(string)<mla-tiled>, tile-axes=(int)<<-1,0,1,2>>, "
      "tile-shape=(int)<<1,8,16,16>>, channels=(string)<compact>, "
      "cblock=(boolean)<true>", GST_SIMA_DIALECT_SIMA_RUNTIME,
      WORDS ("member 0", "cblock", "pad16"));
  expect_from_error (TENSOR ", format=FP32, shape=(string)\"2\"",
      GST_SIMA_DIALECT_SIMA_MLA, WORDS ("runtime"));
}

GST_END_TEST;

/* ---- unfixed caps ---------------------------------------------------------- */

static gboolean
caps_has (GstCaps *caps, const gchar *want)
{
  GstCaps *w = gst_caps_from_string (want);
  guint k;
  gboolean found = FALSE;
  fail_unless (w != NULL, "%s", want);
  for (k = 0; k < gst_caps_get_size (caps) && !found; k++) {
    GstCaps *one = gst_caps_copy_nth (caps, k);
    found = gst_caps_is_equal (one, w);
    gst_caps_unref (one);
  }
  gst_caps_unref (w);
  return found;
}

#define assert_caps_has(caps, want) G_STMT_START { \
  gchar *_s = gst_caps_to_string (caps); \
  fail_unless (caps_has ((caps), (want)), "%s\n  not in %s", (want), _s); \
  g_free (_s); \
} G_STMT_END

GST_START_TEST (test_unfixed_caps)
{
  GstCaps *in, *out, *fixed;
  gchar *str;

  /* the template fragments, with a canonical structure and ones that
   * cannot be translated */
  in = gst_caps_from_string (GST_SIMA_DIALECT_SIMA_CAPS "; "
      TENSOR ", dtype=int8, layout=mla-cblocked; "
      TENSOR ", format=BBOX; "
      TENSOR ", format=(string)INT16, rank=1, dim0=4; "
      TENSOR ", format=MLA, data_type=INT32, width=[1,100]");
  fail_unless (in != NULL);
  out = gst_sima_dialect_caps_to_canonical (in);
  str = gst_caps_to_string (out);
  GST_INFO ("%s", str);
  g_free (str);
  assert_caps_has (out, TENSOR ", layout=mla-tiled, channels=pad16, "
      "tile-axes=(int)<-1,0,1,2>, dtype=(string){int8,bfloat16}");
  assert_caps_has (out, TENSOR ", representation=tensor-set");
  assert_caps_has (out, TENSOR ", dtype=(string){float32,float16,bfloat16,"
      "int8,uint8}, layout=contiguous");
  assert_caps_has (out, TENSOR ", dtype=int8, layout=mla-cblocked");
  /* BBOX, INT16 and INT32 are dropped; nothing else is there */
  fail_unless_equals_int (gst_caps_get_size (out), 4);
  gst_caps_unref (out);
  gst_caps_unref (in);

  /* extents left open: ranges stay ranges inside the shape */
  in = gst_caps_from_string (TENSOR ", format=(string){FP32,FP16}, "
      "rank=3, dim0=[1,4096], dim1=[1,4096], dim2=3; "
      TENSOR ", format=MLA, data_type=INT8, width=[1,1024], height=[1,1024],"
      " depth=64, slice_width=16, slice_height=1, slice_depth=64; "
      TENSOR ", format=INT8, rank=3, dim0=[1,100], dim1=8, dim2=16, "
      "slice_width=8, slice_height=1, slice_depth=16");
  out = gst_sima_dialect_caps_to_canonical (in);
  assert_caps_has (out, TENSOR ", dtype=(string){float32,float16}, "
      "shape=(int)<[1,4096],[1,4096],3>, layout=contiguous");
  assert_caps_has (out, TENSOR ", layout=mla-tiled, channels=pad16, "
      "tile-axes=(int)<-1,0,1,2>, dtype=int8, "
      "shape=(int)<[1,1024],[1,1024],64>, tile-shape=(int)<1,1,16,64>");
  assert_caps_has (out, TENSOR ", dtype=int8, shape=(int)<[1,100],8,16>, "
      "layout=mla-tiled, channels=pad16, tile-axes=(int)<-1,0,1,2>, "
      "tile-shape=(int)<1,1,8,16>");
  fail_unless_equals_int (gst_caps_get_size (out), 3);
  /* and the canonical fixed caps a peer would pick intersect them */
  fixed = gst_caps_from_string (TENSOR ", dtype=float16, "
      "shape=(int)<640,480,3>, layout=contiguous");
  fail_unless (gst_caps_can_intersect (out, fixed));
  gst_caps_unref (fixed);
  gst_caps_unref (out);
  gst_caps_unref (in);

  /* fixed structures translate exactly; unfixed sets keep what they fix */
  in = gst_caps_from_string (YOLO_MLA "; " RUNTIME_640 "; "
      TENSOR ", representation=tensor-set, storage=tensorbuffer, "
      "format=(string)<INT8,BF16>, rank=(int)<[1,6],3>; "
      TENSOR ", format=MLA, data_type=<INT8,INT8>, width=<4,8>, "
      "height=<4,[1,8]>");
  out = gst_sima_dialect_caps_to_canonical (in);
  assert_caps_has (out, YOLO_CANONICAL);
  assert_caps_has (out, CANONICAL_640);
  assert_caps_has (out, TENSOR ", representation=tensor-set, "
      "dtype=(string)<int8,bfloat16>");
  assert_caps_has (out, TENSOR ", representation=tensor-set, "
      "dtype=(string)<int8,int8>, layout=(string)<mla-tiled,mla-tiled>, "
      "tile-axes=(int)<<-1,0,1,2>,<-1,0,1,2>>, "
      "channels=(string)<pad16,pad16>");
  fail_unless_equals_int (gst_caps_get_size (out), 4);
  gst_caps_unref (out);
  gst_caps_unref (in);

  /* ANY stays ANY, EMPTY stays EMPTY, features are kept */
  in = gst_caps_new_any ();
  out = gst_sima_dialect_caps_to_canonical (in);
  fail_unless (gst_caps_is_any (out));
  gst_caps_unref (out);
  gst_caps_unref (in);
  in = gst_caps_new_empty ();
  out = gst_sima_dialect_caps_to_canonical (in);
  fail_unless (gst_caps_is_empty (out));
  gst_caps_unref (out);
  gst_caps_unref (in);
  in = gst_caps_from_string (TENSOR "(memory:DMABuf), format=FP32, "
      "shape=(string)\"2\"");
  out = gst_sima_dialect_caps_to_canonical (in);
  fail_unless_equals_int (gst_caps_get_size (out), 1);
  fail_unless (gst_caps_features_contains (gst_caps_get_features (out, 0),
          "memory:DMABuf"));
  gst_caps_unref (out);
  gst_caps_unref (in);
}

GST_END_TEST;

static Suite *
dialect_suite (void)
{
  Suite *s = suite_create ("simadialect");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_caps_forms_parse);
  tcase_add_test (tc, test_dialect_of);
  tcase_add_test (tc, test_runtime_example);
  tcase_add_test (tc, test_runtime_tiled);
  tcase_add_test (tc, test_runtime_set);
  tcase_add_test (tc, test_yolov8n_mla);
  tcase_add_test (tc, test_mla_single);
  tcase_add_test (tc, test_round_trip);
  tcase_add_test (tc, test_errors_mla);
  tcase_add_test (tc, test_errors_runtime);
  tcase_add_test (tc, test_errors_canonical);
  tcase_add_test (tc, test_unfixed_caps);
  return s;
}

GST_CHECK_MAIN (dialect);
