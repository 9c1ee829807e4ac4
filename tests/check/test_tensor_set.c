/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-check tests of tensor sets (representation=tensor-set): several
 * tensors in one buffer, one conversion per buffer (issue 15).
 *
 * Expected values come from the independent oracle (tests/oracle), member
 * by member; member offsets are computed here from the oracle's sizes, not
 * from the core's set packing.
 */
#include <gst/check/gstcheck.h>
#include <string.h>

#include "check_util.h"
#include "gstsimacaps.h"
#include "gstsimadialect.h"
#include "oracle.h"

static const gchar *backends[] = { "backend=a65", "device=emulator:workers=2" };

/* YOLOv8n's six output heads (../shared/INTEROP.md section 2): INT8, pad16,
 * one image row per tile, channels last, back to back in one buffer of
 * 1,209,600 bytes. */
#define HEADS 6
static const gint head_hwc[HEADS][3] = {
  {80, 80, 64}, {40, 40, 64}, {20, 20, 64}, {80, 80, 80}, {40, 40, 80},
  {20, 20, 80},
};
static const gchar *dq_scale_text[HEADS] = { "11.328456438342892",
  "13.655735144659944", "14.041570531577957", "9.636191223407769",
  "6.634204286335957", "5.471951716200586",
};
static const gint dq_zp[HEADS] = { -61, -56, -43, 127, 117, 113 };

#define YOLO_IN_CAPS TENSOR ",representation=tensor-set,dtype=int8," \
  "layout=mla-tiled,channels=pad16,tile-axes=(int)<-1,0,1,2>," \
  "shape=(int)<<80,80,64>,<40,40,64>,<20,20,64>,<80,80,80>,<40,40,80>," \
  "<20,20,80>>,tile-shape=(int)<<1,1,80,64>,<1,1,40,64>,<1,1,20,64>," \
  "<1,1,80,80>,<1,1,40,80>,<1,1,20,80>>," \
  "offsets=(gint64)<0,409600,512000,537600,1049600,1177600>"

static SimaTensorSpec
head_spec (guint k, gboolean tiled, SimaDType dtype)
{
  SimaTensorSpec s;

  memset (&s, 0, sizeof s);
  s.rank = 3;
  s.shape[0] = head_hwc[k][0];
  s.shape[1] = head_hwc[k][1];
  s.shape[2] = head_hwc[k][2];
  s.dtype = dtype;
  if (tiled) {
    s.layout = SIMA_LAYOUT_MLA_TILED;
    s.tiled.axes[0] = -1;
    s.tiled.axes[1] = 0;
    s.tiled.axes[2] = 1;
    s.tiled.axes[3] = 2;
    s.tiled.tile_shape[0] = 1;
    s.tiled.tile_shape[1] = 1;
    s.tiled.tile_shape[2] = head_hwc[k][1];
    s.tiled.tile_shape[3] = head_hwc[k][2];
    s.tiled.channels = SIMA_CHANNELS_PAD16;
  } else {
    s.layout = SIMA_LAYOUT_CONTIGUOUS;
  }
  return s;
}

static gchar *
yolo_description (const gchar * backend)
{
  return g_strdup_printf ("simadetessdequant scale-convention=divide "
      "scales=\"<%s,%s,%s,%s,%s,%s>\" zero-points=\"<%d,%d,%d,%d,%d,%d>\" %s",
      dq_scale_text[0], dq_scale_text[1], dq_scale_text[2], dq_scale_text[3],
      dq_scale_text[4], dq_scale_text[5], dq_zp[0], dq_zp[1], dq_zp[2],
      dq_zp[3], dq_zp[4], dq_zp[5], backend);
}

/* The six-head buffer of random codes (64 and 80 channels need no channel
 * padding, and every tile is a whole number of 16-byte spans, so every
 * byte is a code) through simadetessdequant with SiMa's dq values, both
 * backends, both output dtypes. Every value of every head must be the
 * oracle's (q - dq_zp) / dq_scale; the output is the packed set (each head
 * right after the previous one) that the src caps announce. */
GST_START_TEST (test_yolov8n_six_heads)
{
  static const gchar *dtypes[2] = { "float32", "bfloat16" };
  guint b, o, k;

  for (b = 0; b < G_N_ELEMENTS (backends); b++)
    for (o = 0; o < 2; o++) {
      gchar *desc = yolo_description (backends[b]);
      gchar *out_caps = g_strdup_printf (TENSOR ",representation=tensor-set,"
          "dtype=%s,layout=contiguous", dtypes[o]);
      GstBuffer *in = check_random_buffer (1209600, 1700 + o), *out;
      SimaDType out_dtype = o ? SIMA_DTYPE_BFLOAT16 : SIMA_DTYPE_FLOAT32;
      guint64 in_off = 0, out_off = 0, bad = 0;
      GstCaps *src_caps;
      GstMapInfo im, om;
      gchar *err;
      CheckHarness c;

      check_harness_new (&c, desc, YOLO_IN_CAPS, out_caps);
      out = gst_harness_push_and_pull (c.h, gst_buffer_ref (in));
      err = check_pop_message (&c, GST_MESSAGE_ERROR);
      fail_unless (out != NULL, "%s: no output: %s", desc, err);
      g_free (err);

      /* the src caps say where each head is */
      src_caps = gst_pad_get_current_caps (c.h->sinkpad);
      {
        const GstStructure *s = gst_caps_get_structure (src_caps, 0);
        const GValue *offs = gst_structure_get_value (s, "offsets");
        fail_unless (gst_sima_caps_is_set (s));
        fail_unless (offs != NULL && gst_value_array_get_size (offs) == HEADS,
            "src caps without offsets: %" GST_PTR_FORMAT, src_caps);
        for (k = 0; k < HEADS; k++) {
          SimaTensorSpec os = head_spec (k, FALSE, out_dtype);
          fail_unless_equals_int64 (g_value_get_int64
              (gst_value_array_get_value (offs, k)), (gint64) out_off);
          out_off += oracle_required_bytes (&os);
        }
      }
      gst_caps_unref (src_caps);

      gst_buffer_map (in, &im, GST_MAP_READ);
      fail_unless (gst_buffer_map (out, &om, GST_MAP_READ));
      fail_unless_equals_uint64 (om.size, out_off);
      out_off = 0;
      for (k = 0; k < HEADS; k++) {
        SimaTensorSpec is = head_spec (k, TRUE, SIMA_DTYPE_INT8);
        SimaTensorSpec os = head_spec (k, FALSE, out_dtype);
        guint64 in_bytes = oracle_required_bytes (&is);
        guint64 out_bytes = oracle_required_bytes (&os);
        guint64 n = out_bytes / (o ? 2 : 4), i;
        guint8 *want = g_malloc (out_bytes);
        /* the double rounded to binary32 once, as the property does */
        float scale = (float) g_ascii_strtod (dq_scale_text[k], NULL);

        fail_unless_equals_uint64 (in_bytes, (guint64) head_hwc[k][0]
            * head_hwc[k][1] * head_hwc[k][2]);
        oracle_detessdequant_conv (&is, im.data + in_off, &os, scale,
            dq_zp[k], 1, want);
        for (i = 0; i < n; i++) {
          gsize w = o ? 2 : 4;
          if (memcmp (om.data + out_off + i * w, want + i * w, w) != 0
              && bad++ == 0)
            GST_ERROR ("%s -> %s: head %u value %" G_GUINT64_FORMAT
                " differs from the oracle's (q - dq_zp) / dq_scale", desc,
                dtypes[o], k, i);
        }
        g_free (want);
        in_off += in_bytes;
        out_off += out_bytes;
      }
      fail_unless_equals_uint64 (in_off, 1209600);
      fail_unless (bad == 0, "%s -> %s: %" G_GUINT64_FORMAT " values differ",
          desc, dtypes[o], bad);
      gst_buffer_unmap (out, &om);
      gst_buffer_unmap (in, &im);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
      check_harness_free (&c);
      g_free (out_caps);
      g_free (desc);
    }
}
GST_END_TEST;

/* Downstream may give one entry per member (dtype=<...>) and its own
 * offsets, with gaps: the element writes exactly there and nothing in the
 * gaps (the output buffer comes from the element's pool, so the gaps are
 * checked for what the element leaves: we fill a buffer ourselves through
 * an A65 run of two heads and compare with the oracle). */
GST_START_TEST (test_per_member_fields_and_offsets)
{
  const gchar *in_caps = TENSOR ",representation=tensor-set,dtype=int8,"
      "layout=mla-tiled,channels=pad16,tile-axes=(int)<-1,0,1,2>,"
      "shape=(int)<<20,20,64>,<20,20,80>>,"
      "tile-shape=(int)<<1,1,20,64>,<1,1,20,80>>";
  /* head 2 (102,400 FP32 bytes) at 64, head 5 (64,000 BF16 bytes) after
   * a 4 KiB gap */
  const gchar *out_caps = TENSOR ",representation=tensor-set,"
      "dtype=(string)<float32,bfloat16>,layout=(string)<contiguous,"
      "contiguous>,offsets=(gint64)<64,106560>";
  guint b;

  for (b = 0; b < G_N_ELEMENTS (backends); b++) {
    gchar *desc = g_strdup_printf ("simadetessdequant scales=\"<0.5,0.25>\" "
        "zero-points=\"<3,-7>\" %s", backends[b]);
    GstBuffer *in = check_random_buffer (25600 + 32000, 1800 + b), *out;
    SimaTensorSpec is[2] = { head_spec (2, TRUE, SIMA_DTYPE_INT8),
      head_spec (5, TRUE, SIMA_DTYPE_INT8)
    };
    SimaTensorSpec os[2] = { head_spec (2, FALSE, SIMA_DTYPE_FLOAT32),
      head_spec (5, FALSE, SIMA_DTYPE_BFLOAT16)
    };
    guint8 *want0 = g_malloc (102400), *want1 = g_malloc (64000);
    GstMapInfo im, om;
    gchar *err;
    CheckHarness c;

    check_harness_new (&c, desc, in_caps, out_caps);
    out = gst_harness_push_and_pull (c.h, gst_buffer_ref (in));
    err = check_pop_message (&c, GST_MESSAGE_ERROR);
    fail_unless (out != NULL, "%s: no output: %s", desc, err);
    g_free (err);
    gst_buffer_map (in, &im, GST_MAP_READ);
    fail_unless (gst_buffer_map (out, &om, GST_MAP_READ));
    fail_unless_equals_uint64 (om.size, 106560 + 64000);
    oracle_detessdequant (&is[0], im.data, &os[0], 0.5f, 3, want0);
    oracle_detessdequant (&is[1], im.data + 25600, &os[1], 0.25f, -7, want1);
    fail_unless (memcmp (om.data + 64, want0, 102400) == 0, "member 0");
    fail_unless (memcmp (om.data + 106560, want1, 64000) == 0, "member 1");
    gst_buffer_unmap (out, &om);
    gst_buffer_unmap (in, &im);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    g_free (want0);
    g_free (want1);
    check_harness_free (&c);
    g_free (desc);
  }
}
GST_END_TEST;

/* A set on both sides of simaquanttess, with one multiplier and zero point
 * per member and mixed input dtypes: every output byte (values, channel
 * padding, gaps) is the oracle's. */
GST_START_TEST (test_quanttess_set)
{
  const gchar *in_caps = TENSOR ",representation=tensor-set,"
      "dtype=(string)<float32,float16>,layout=contiguous,"
      "shape=(int)<<8,16,3>,<4,4,20>>,offsets=(gint64)<0,1536>";
  const gchar *out_caps = TENSOR ",representation=tensor-set,dtype=int8,"
      "layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,"
      "tile-shape=(int)<<1,8,16,16>,<1,2,4,16>>,channels=pad16";
  guint b;

  for (b = 0; b < G_N_ELEMENTS (backends); b++) {
    gchar *desc = g_strdup_printf ("simaquanttess multipliers=\"<127,64>\" "
        "zero-points=\"<0,-5>\" %s", backends[b]);
    SimaTensorSpec in0 = check_spec (TENSOR ",dtype=float32,"
        "shape=(int)<8,16,3>");
    SimaTensorSpec in1 = check_spec (TENSOR ",dtype=float16,"
        "shape=(int)<4,4,20>");
    SimaTensorSpec out0 = check_spec (TENSOR ",dtype=int8,shape=(int)<8,16,3>,"
        "layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,"
        "tile-shape=(int)<1,8,16,16>,channels=pad16");
    SimaTensorSpec out1 = check_spec (TENSOR ",dtype=int8,shape=(int)<4,4,20>,"
        "layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,"
        "tile-shape=(int)<1,2,4,16>,channels=pad16");
    guint64 b0 = oracle_required_bytes (&out0);
    guint64 b1 = oracle_required_bytes (&out1);
    GstBuffer *a = check_tensor_buffer (&in0, 1536, SIMA_PATTERN_RANDOM, 7);
    GstBuffer *c1 = check_tensor_buffer (&in1, 640, SIMA_PATTERN_RANDOM, 8);
    GstBuffer *in = gst_buffer_append (a, c1), *out;
    guint8 *want = g_malloc0 (b0 + b1 + 16);
    GstMapInfo im, om;
    gchar *err;
    CheckHarness c;

    check_harness_new (&c, desc, in_caps, out_caps);
    out = gst_harness_push_and_pull (c.h, gst_buffer_ref (in));
    err = check_pop_message (&c, GST_MESSAGE_ERROR);
    fail_unless (out != NULL, "%s: no output: %s", desc, err);
    g_free (err);
    gst_buffer_map (in, &im, GST_MAP_READ);
    fail_unless (gst_buffer_map (out, &om, GST_MAP_READ));
    /* packed: member 1 right after member 0, 16-byte aligned */
    fail_unless_equals_uint64 (om.size, ((b0 + 15) / 16) * 16 + b1);
    oracle_quanttess (&in0, im.data, &out0, 127.0f, 0,
        ORACLE_ROUND_NEAREST_EVEN, want);
    oracle_quanttess (&in1, im.data + 1536, &out1, 64.0f, -5,
        ORACLE_ROUND_NEAREST_EVEN, want + ((b0 + 15) / 16) * 16);
    fail_unless (memcmp (om.data, want, b0) == 0, "member 0");
    fail_unless (memcmp (om.data + ((b0 + 15) / 16) * 16,
            want + ((b0 + 15) / 16) * 16, b1) == 0, "member 1");
    gst_buffer_unmap (out, &om);
    gst_buffer_unmap (in, &im);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    g_free (want);
    check_harness_free (&c);
    g_free (desc);
  }
}
GST_END_TEST;

/* Bad sets get one clear error naming the member and field, and no
 * output. */
GST_START_TEST (test_bad_sets)
{
  static const struct
  {
    const gchar *props;
    const gchar *in_caps;
    const gchar *expect;
  } cases[] = {
    /* overlapping members */
    {"scale=0.5", TENSOR ",representation=tensor-set,dtype=int8,"
          "layout=mla-tiled,channels=pad16,tile-axes=(int)<-1,0,1,2>,"
          "shape=(int)<<2,2,16>,<2,2,16>>,tile-shape=(int)<1,1,2,16>,"
          "offsets=(gint64)<0,48>", "overlap"},
    /* a misaligned tiled member */
    {"scale=0.5", TENSOR ",representation=tensor-set,dtype=int8,"
          "layout=mla-tiled,channels=pad16,tile-axes=(int)<-1,0,1,2>,"
          "shape=(int)<<2,2,16>,<2,2,16>>,tile-shape=(int)<1,1,2,16>,"
          "offsets=(gint64)<0,72>", "member 1"},
    /* arrays of different lengths */
    {"scale=0.5", TENSOR ",representation=tensor-set,dtype=int8,"
          "layout=mla-tiled,channels=pad16,tile-axes=(int)<-1,0,1,2>,"
          "shape=(int)<<2,2,16>,<2,2,16>>,"
          "tile-shape=(int)<<1,1,2,16>,<1,1,2,16>,<1,1,2,16>>",
        "tile-shape has 3 entries for a set of 2 members"},
    /* a parameter array that does not fit the set */
    {"scales=\"<0.5,0.5,0.5>\"", TENSOR ",representation=tensor-set,"
          "dtype=int8,layout=mla-tiled,channels=pad16,"
          "tile-axes=(int)<-1,0,1,2>,shape=(int)<<2,2,16>,<2,2,16>>,"
          "tile-shape=(int)<1,1,2,16>", "scales has 3 entries"},
    /* a bad member: the core's message, with the member */
    {"scale=0.5", TENSOR ",representation=tensor-set,dtype=int8,"
          "layout=mla-tiled,channels=pad16,tile-axes=(int)<-1,0,1,2>,"
          "shape=(int)<<2,2,16>,<2,2,16>>,"
          "tile-shape=(int)<<1,1,2,16>,<1,1,0,16>>", "member 1"},
  };
  guint i, b;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    for (b = 0; b < G_N_ELEMENTS (backends); b++) {
      gchar *desc = g_strdup_printf ("simadetessdequant %s %s",
          cases[i].props, backends[b]);
      GstBuffer *in = check_random_buffer (4096, i);
      GstFlowReturn ret;
      gchar *err;
      CheckHarness c;

      check_harness_new (&c, desc, cases[i].in_caps, NULL);
      ret = gst_harness_push (c.h, in);
      fail_unless (ret == GST_FLOW_NOT_NEGOTIATED || ret == GST_FLOW_ERROR,
          "%s: case %u pushed %s", desc, i, gst_flow_get_name (ret));
      fail_unless_equals_int (gst_harness_buffers_in_queue (c.h), 0);
      err = check_pop_message (&c, GST_MESSAGE_ERROR);
      fail_unless (err != NULL && strstr (err, cases[i].expect) != NULL,
          "%s: case %u: expected '%s' in the error, got '%s'", desc, i,
          cases[i].expect, err);
      /* once */
      g_free (err);
      fail_unless ((err = check_pop_message (&c, GST_MESSAGE_ERROR)) == NULL,
          "a second error: %s", err);
      check_harness_free (&c);
      g_free (desc);
    }
}
GST_END_TEST;

/* SiMa's cblock tile order through the elements: simaquanttess's cblock
 * property (downstream open) and simacasttess with downstream's
 * cblock=true, then simadetessdequant reading cblock tiles, each against
 * the oracle on both backends; plus a set whose members differ
 * (cblock=<true,false>). 4 x 4 x 40 in C48 tiles: 3 blocks per tile. */
GST_START_TEST (test_cblock_elements)
{
  const gchar *dense = TENSOR ",dtype=float32,shape=(int)<4,4,40>";
  const gchar *tiles = TENSOR ",dtype=int8,shape=(int)<4,4,40>,"
      "layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,2,4,48>,"
      "channels=pad16,cblock=true";
  SimaTensorSpec in = check_spec (dense), t = check_spec (tiles);
  SimaTensorSpec bt = t, out = in;
  guint64 tb = oracle_required_bytes (&t);
  guint b;

  fail_unless_equals_int (t.tiled.cblock, 1);
  bt.dtype = SIMA_DTYPE_BFLOAT16;
  for (b = 0; b < G_N_ELEMENTS (backends); b++) {
    GstBuffer *src = check_tensor_buffer (&in, 2560, SIMA_PATTERN_RANDOM, 11);
    guint8 *want = g_malloc (2 * tb + 2560);
    GstBuffer *got;
    GstMapInfo sm;
    GstCaps *caps, *tiles_caps = gst_caps_from_string (tiles);
    gchar *desc, *err;
    CheckHarness c;

    gst_buffer_map (src, &sm, GST_MAP_READ);
    /* QuantTess: the property picks cblock */
    desc = g_strdup_printf ("simaquanttess multiplier=100 zero-point=-2 "
        "tile-shape=\"<1,2,4,48>\" cblock=true %s", backends[b]);
    check_harness_new (&c, desc, dense, NULL);
    got = gst_harness_push_and_pull (c.h, gst_buffer_ref (src));
    err = check_pop_message (&c, GST_MESSAGE_ERROR);
    fail_unless (got != NULL, "%s: %s", desc, err);
    g_free (err);
    caps = gst_pad_get_current_caps (c.h->sinkpad);
    fail_unless (gst_caps_is_subset (caps, tiles_caps),
        "%s: %" GST_PTR_FORMAT, desc, caps);
    gst_caps_unref (caps);
    gst_caps_unref (tiles_caps);
    oracle_quanttess (&in, sm.data, &t, 100.0f, -2, ORACLE_ROUND_NEAREST_EVEN,
        want);
    fail_unless (check_buffer_equals (got, want, tb), "%s", desc);
    check_harness_free (&c);
    g_free (desc);

    /* DetessDequant reads them back */
    desc = g_strdup_printf ("simadetessdequant scale=0.01 zero-point=-2 %s",
        backends[b]);
    check_harness_new (&c, desc, tiles, dense);
    {
      GstBuffer *back = gst_harness_push_and_pull (c.h, gst_buffer_ref (got));
      fail_unless (back != NULL, "%s", desc);
      oracle_detessdequant (&t, want, &out, 0.01f, -2, want + tb);
      fail_unless (check_buffer_equals (back, want + tb, 2560), "%s", desc);
      gst_buffer_unref (back);
    }
    check_harness_free (&c);
    g_free (desc);
    gst_buffer_unref (got);

    /* CastTess: downstream asks for cblock */
    desc = g_strdup_printf ("simacasttess %s", backends[b]);
    {
      gchar *bcaps = g_strdup_printf (TENSOR ",dtype=bfloat16,"
          "shape=(int)<4,4,40>,layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,"
          "tile-shape=(int)<1,2,4,48>,channels=pad16,cblock=true");
      check_harness_new (&c, desc, dense, bcaps);
      got = gst_harness_push_and_pull (c.h, gst_buffer_ref (src));
      fail_unless (got != NULL, "%s", desc);
      oracle_casttess (&in, sm.data, &bt, want);
      fail_unless (check_buffer_equals (got, want, 2 * tb), "%s", desc);
      gst_buffer_unref (got);
      check_harness_free (&c);
      g_free (bcaps);
    }
    g_free (desc);

    gst_buffer_unmap (src, &sm);
    gst_buffer_unref (src);
    g_free (want);
  }
}
GST_END_TEST;

/* cblock per member in a set, and cblock with compact channels refused
 * with the core's message. */
GST_START_TEST (test_cblock_set_and_refusal)
{
  const gchar *set = TENSOR ",representation=tensor-set,dtype=int8,"
      "layout=mla-tiled,channels=pad16,tile-axes=(int)<-1,0,1,2>,"
      "shape=(int)<<2,4,40>,<2,4,40>>,tile-shape=(int)<1,2,4,48>,"
      "cblock=(boolean)<true,false>";
  SimaTensorSpec t = check_spec (TENSOR ",dtype=int8,shape=(int)<2,4,40>,"
      "layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,2,4,48>,"
      "channels=pad16,cblock=true");
  SimaTensorSpec p = t, out = check_spec (TENSOR ",dtype=float32,"
      "shape=(int)<2,4,40>");
  guint64 tb = oracle_required_bytes (&t);
  GstBuffer *in = check_random_buffer (2 * tb, 21), *res;
  guint8 *want = g_malloc (2 * 1280);
  GstMapInfo im;
  CheckHarness c;
  gchar *err;
  guint b;

  p.tiled.cblock = 0;
  gst_buffer_map (in, &im, GST_MAP_READ);
  oracle_detessdequant (&t, im.data, &out, 0.5f, 0, want);
  oracle_detessdequant (&p, im.data + tb, &out, 0.5f, 0, want + 1280);
  for (b = 0; b < G_N_ELEMENTS (backends); b++) {
    gchar *desc = g_strdup_printf ("simadetessdequant scale=0.5 %s",
        backends[b]);
    check_harness_new (&c, desc, set, TENSOR ",representation=tensor-set,"
        "dtype=float32,layout=contiguous");
    res = gst_harness_push_and_pull (c.h, gst_buffer_ref (in));
    fail_unless (res != NULL, "%s", desc);
    fail_unless (check_buffer_equals (res, want, 2 * 1280), "%s", desc);
    gst_buffer_unref (res);
    check_harness_free (&c);
    g_free (desc);
  }
  gst_buffer_unmap (in, &im);

  check_harness_new (&c, "simadetessdequant scale=0.5 backend=a65",
      TENSOR ",dtype=int8,shape=(int)<2,4,40>,layout=mla-tiled,"
      "tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,2,4,48>,"
      "channels=compact,cblock=true", NULL);
  fail_unless_equals_int (gst_harness_push (c.h, gst_buffer_ref (in)),
      GST_FLOW_NOT_NEGOTIATED);
  err = check_pop_message (&c, GST_MESSAGE_ERROR);
  fail_unless (err != NULL && strstr (err, "cblock") != NULL, "%s", err);
  g_free (err);
  check_harness_free (&c);
  gst_buffer_unref (in);
  g_free (want);
}
GST_END_TEST;

/* SiMa's caps dialects at the elements (docs/caps-dialects.md): the
 * YOLOv8n buffer announced in the legacy MLA dialect on
 * simadetessdequant's sink, and asked for in the runtime dialect on its
 * src; the runtime's dense FP32 into simaquanttess, and the legacy MLA
 * tiles asked for by downstream. Bytes as with our own caps. */
#define YOLO_MLA_CAPS TENSOR ", format=(string)MLA, " \
  "data_type=(string)<INT8,INT8,INT8,INT8,INT8,INT8>, " \
  "width=(int)<80,40,20,80,40,20>, height=(int)<80,40,20,80,40,20>, " \
  "depth=(int)<64,64,64,80,80,80>, slice_width=(int)<80,40,20,80,40,20>, " \
  "slice_height=(int)<1,1,1,1,1,1>, slice_depth=(int)<64,64,64,80,80,80>"

GST_START_TEST (test_sima_dialects)
{
  guint b;

  for (b = 0; b < G_N_ELEMENTS (backends); b++) {
    gchar *desc = yolo_description (backends[b]);
    GstBuffer *in = check_random_buffer (1209600, 1900 + b), *ours, *theirs;
    const GstStructure *s;
    GstCaps *caps;
    CheckHarness c;

    /* the reference: our own caps */
    check_harness_new (&c, desc, YOLO_IN_CAPS, TENSOR
        ",representation=tensor-set,dtype=float32,layout=contiguous");
    ours = gst_harness_push_and_pull (c.h, gst_buffer_ref (in));
    fail_unless (ours != NULL);
    check_harness_free (&c);
    /* SiMa's legacy MLA caps in, its runtime's out */
    check_harness_new (&c, desc, YOLO_MLA_CAPS, TENSOR
        ",representation=tensor-set,storage=tensorbuffer,"
        "format=(string)<FP32,FP32,FP32,FP32,FP32,FP32>");
    theirs = gst_harness_push_and_pull (c.h, gst_buffer_ref (in));
    fail_unless (theirs != NULL, "%s: %s", desc,
        check_pop_message (&c, GST_MESSAGE_ERROR));
    fail_unless (check_buffers_equal (ours, theirs));
    caps = gst_pad_get_current_caps (c.h->sinkpad);
    s = gst_caps_get_structure (caps, 0);
    fail_unless_equals_int (gst_sima_dialect_of (s),
        GST_SIMA_DIALECT_SIMA_RUNTIME);
    fail_unless (gst_structure_has_field (s, "dim0"), "%" GST_PTR_FORMAT,
        caps);
    gst_caps_unref (caps);
    check_harness_free (&c);
    gst_buffer_unref (ours);
    gst_buffer_unref (theirs);
    gst_buffer_unref (in);
    g_free (desc);
  }

  for (b = 0; b < G_N_ELEMENTS (backends); b++) {
    const gchar *runtime = TENSOR ",format=FP32,rank=3,dim0=8,dim1=16,"
        "dim2=3,shape=(string)\"8,16,3\",dtype=FP32";
    const gchar *mla = TENSOR ",format=MLA,data_type=INT8,width=16,height=8,"
        "depth=3,slice_width=16,slice_height=8,slice_depth=16";
    SimaTensorSpec in = check_spec (CHECK_IN_CAPS);
    SimaTensorSpec out = check_spec (CHECK_TILES_CAPS);
    GstBuffer *src = check_tensor_buffer (&in, 1536, SIMA_PATTERN_RANDOM, 5);
    guint8 want[2048];
    gchar *desc = g_strdup_printf ("simaquanttess multiplier=100 %s",
        backends[b]);
    GstBuffer *got;
    GstMapInfo m;
    GstCaps *caps;
    CheckHarness c;

    gst_buffer_map (src, &m, GST_MAP_READ);
    oracle_quanttess (&in, m.data, &out, 100.0f, 0,
        ORACLE_ROUND_NEAREST_EVEN, want);
    gst_buffer_unmap (src, &m);
    check_harness_new (&c, desc, runtime, mla);
    got = gst_harness_push_and_pull (c.h, gst_buffer_ref (src));
    fail_unless (got != NULL, "%s: %s", desc,
        check_pop_message (&c, GST_MESSAGE_ERROR));
    fail_unless (check_buffer_equals (got, want, 2048), "%s", desc);
    caps = gst_pad_get_current_caps (c.h->sinkpad);
    fail_unless_equals_int (gst_sima_dialect_of (gst_caps_get_structure (caps,
                0)), GST_SIMA_DIALECT_SIMA_MLA);
    gst_caps_unref (caps);
    gst_buffer_unref (got);
    gst_buffer_unref (src);
    check_harness_free (&c);
    g_free (desc);
  }
}
GST_END_TEST;

/* What cannot be translated is refused with one error naming the field. */
GST_START_TEST (test_untranslatable_dialect)
{
  CheckHarness c;
  gchar *err;

  check_harness_new (&c, "simadetessdequant scale=1 backend=a65", TENSOR
      ",format=MLA,data_type=INT16,width=16,height=8,depth=3,"
      "slice_width=16,slice_height=8,slice_depth=16", NULL);
  fail_unless_equals_int (gst_harness_push (c.h, check_random_buffer (4096,
              1)), GST_FLOW_NOT_NEGOTIATED);
  err = check_pop_message (&c, GST_MESSAGE_ERROR);
  fail_unless (err != NULL && strstr (err, "data_type") != NULL
      && strstr (err, "INT16") != NULL, "%s", err);
  g_free (err);
  check_harness_free (&c);
}
GST_END_TEST;

/* One element renegotiated from a single tensor to a set and back, on
 * both backends: each buffer converted with the caps it came with (the
 * plan, the EV74 descriptor and the set route follow the caps). */
GST_START_TEST (test_renegotiate_single_set)
{
  const gchar *single = TENSOR ",dtype=int8,shape=(int)<20,20,64>,"
      "layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,1,20,64>,"
      "channels=pad16";
  const gchar *set = TENSOR ",representation=tensor-set,dtype=int8,"
      "layout=mla-tiled,channels=pad16,tile-axes=(int)<-1,0,1,2>,"
      "shape=(int)<<20,20,64>,<20,20,80>>,"
      "tile-shape=(int)<<1,1,20,64>,<1,1,20,80>>";
  SimaTensorSpec t0 = head_spec (2, TRUE, SIMA_DTYPE_INT8);
  SimaTensorSpec t1 = head_spec (5, TRUE, SIMA_DTYPE_INT8);
  SimaTensorSpec o0 = head_spec (2, FALSE, SIMA_DTYPE_FLOAT32);
  SimaTensorSpec o1 = head_spec (5, FALSE, SIMA_DTYPE_FLOAT32);
  guint b, k;

  for (b = 0; b < G_N_ELEMENTS (backends); b++) {
    gchar *desc = g_strdup_printf ("simadetessdequant scale=0.25 "
        "zero-point=3 %s", backends[b]);
    CheckHarness c;

    check_harness_new (&c, desc, single, NULL);
    for (k = 0; k < 3; k++) {
      gboolean is_set = k == 1;
      guint64 in_bytes = 25600 + (is_set ? 32000 : 0);
      guint64 out_bytes = 102400 + (is_set ? 128000 : 0);
      GstBuffer *in = check_random_buffer (in_bytes, 2000 + 10 * b + k), *out;
      guint8 *want = g_malloc (out_bytes);
      GstMapInfo m;

      if (k > 0)
        gst_harness_set_src_caps_str (c.h, is_set ? set : single);
      out = gst_harness_push_and_pull (c.h, gst_buffer_ref (in));
      fail_unless (out != NULL, "%s step %u", desc, k);
      gst_buffer_map (in, &m, GST_MAP_READ);
      oracle_detessdequant (&t0, m.data, &o0, 0.25f, 3, want);
      if (is_set)
        oracle_detessdequant (&t1, m.data + 25600, &o1, 0.25f, 3,
            want + 102400);
      gst_buffer_unmap (in, &m);
      fail_unless (check_buffer_equals (out, want, out_bytes), "%s step %u",
          desc, k);
      g_free (want);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
    }
    check_harness_free (&c);
    g_free (desc);
  }
}
GST_END_TEST;

static Suite *
tensor_set_suite (void)
{
  Suite *s = suite_create ("tensor-set");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 240);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_yolov8n_six_heads);
  tcase_add_test (tc, test_per_member_fields_and_offsets);
  tcase_add_test (tc, test_quanttess_set);
  tcase_add_test (tc, test_bad_sets);
  tcase_add_test (tc, test_cblock_elements);
  tcase_add_test (tc, test_cblock_set_and_refusal);
  tcase_add_test (tc, test_sima_dialects);
  tcase_add_test (tc, test_untranslatable_dialect);
  tcase_add_test (tc, test_renegotiate_single_set);
  return s;
}

GST_CHECK_MAIN (tensor_set);
