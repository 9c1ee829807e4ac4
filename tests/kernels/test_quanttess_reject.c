/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * QuantTess rejections: every rule of admission and execution has a case
 * that checks the status code and that the message names the field and the
 * value. Rejected executions must not write a single output byte.
 */
#include <simaai/kernels/a65/quanttess.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "status_expect.h"
#include "tap.h"
#include "test_util.h"

static const int8_t WC_AXES[4] = { -1, -1, 0, 1 };
static const int64_t WC_TILE[4] = { 1, 1, 2, 3 };
static const int64_t WC_SHAPE[2] = { 2, 3 };

typedef struct {
  SimaTensorSpec in, out;
  SimaQuantTessParams params;
  size_t n_in, n_out;
} Case;

static Case
base_case (void)
{
  Case c;
  c.in = test_spec_dense (SIMA_DTYPE_FLOAT32, 2, WC_SHAPE);
  c.out = test_spec_tiled (SIMA_DTYPE_INT8, 2, WC_SHAPE, WC_AXES, WC_TILE,
      SIMA_CHANNELS_PAD16);
  c.params = (SimaQuantTessParams) { 1.0f, 0, SIMA_ROUNDING_NEAREST_EVEN };
  c.n_in = c.n_out = 1;
  return c;
}

static SimaStatus
admit (const Case *c, SimaQuantTessPlan *plan)
{
  SimaQuantTessRequest req = { &c->in, c->n_in, &c->out, c->n_out, c->params };
  return sima_quanttess_check_inference (&req, plan);
}

static void
admission_rejections (void)
{
  SimaQuantTessPlan plan;
  Case c;

  c = base_case ();
  expect_status ("valid base case", admit (&c, &plan), SIMA_OK, NULL);
  tap_ok (plan.output_bytes == 32 && plan.input_bytes == 24,
      "base case sizes: input %llu (24), output %llu (32)",
      (unsigned long long) plan.input_bytes,
      (unsigned long long) plan.output_bytes);

  c = base_case ();
  c.in.rank = c.out.rank = 0;
  expect_status ("rank 0", admit (&c, &plan), SIMA_INVALID_RANK, "input rank is 0",
      NULL);
  c = base_case ();
  c.in.rank = c.out.rank = 7;
  expect_status ("rank 7", admit (&c, &plan), SIMA_INVALID_RANK, "input rank is 7",
      NULL);
  c = base_case ();
  c.in.rank = 3;
  c.in.shape[2] = 1;
  expect_status ("rank mismatch", admit (&c, &plan), SIMA_SHAPE_MISMATCH,
      "input rank is 3 but output rank is 2", NULL);
  c = base_case ();
  c.out.shape[1] = 4;
  expect_status ("shape mismatch", admit (&c, &plan), SIMA_SHAPE_MISMATCH,
      "axis 1", "3", "4", NULL);
  c = base_case ();
  c.in.shape[0] = -1;
  expect_status ("negative extent", admit (&c, &plan), SIMA_INVALID_SHAPE,
      "axis 0 is -1", NULL);

  c = base_case ();
  c.in.dtype = SIMA_DTYPE_INT8;
  expect_status ("int8 input", admit (&c, &plan), SIMA_UNSUPPORTED_DTYPE,
      "input dtype is int8", "float32, float16, bfloat16 or uint8", NULL);
  c = base_case ();
  c.in.dtype = SIMA_DTYPE_INT16;  /* described, read by no operation */
  expect_status ("int16 input", admit (&c, &plan), SIMA_UNSUPPORTED_DTYPE,
      "input dtype is int16", "float32, float16, bfloat16 or uint8", NULL);
  c = base_case ();
  c.in.dtype = (SimaDType) 9;
  expect_status ("unknown input dtype", admit (&c, &plan), SIMA_UNSUPPORTED_DTYPE,
      "dtype 9", NULL);
  c = base_case ();
  c.out.dtype = SIMA_DTYPE_BFLOAT16;
  expect_status ("bf16 output", admit (&c, &plan), SIMA_UNSUPPORTED_DTYPE,
      "output dtype is bfloat16", "int8", NULL);
  c = base_case ();
  c.out.layout = SIMA_LAYOUT_MLA_CBLOCKED;
  expect_status ("cblocked output", admit (&c, &plan), SIMA_UNSUPPORTED_LAYOUT,
      "output layout is mla-cblocked", NULL);
  c = base_case ();
  c.out.layout = SIMA_LAYOUT_STRIDED;
  expect_status ("strided output", admit (&c, &plan), SIMA_UNSUPPORTED_LAYOUT,
      "output layout is strided", NULL);
  c = base_case ();
  c.in.layout = SIMA_LAYOUT_MLA_TILED;
  expect_status ("tiled input", admit (&c, &plan), SIMA_UNSUPPORTED_LAYOUT,
      "input layout is mla-tiled", NULL);

  /* strides */
  c = base_case ();
  c.in.layout = SIMA_LAYOUT_STRIDED;
  c.in.strides_bytes[0] = 12;
  c.in.strides_bytes[1] = -4;
  expect_status ("negative stride", admit (&c, &plan), SIMA_INVALID_STRIDES,
      "axis 1 is -4", "negative", NULL);
  c.in.strides_bytes[1] = 6;
  expect_status ("misaligned stride", admit (&c, &plan), SIMA_INVALID_STRIDES,
      "axis 1 is 6 bytes, not a multiple of the 4-byte scalar", NULL);
  c.in.strides_bytes[1] = 0;
  expect_status ("broadcast stride", admit (&c, &plan), SIMA_INVALID_STRIDES,
      "axis 1 is 0", "broadcasting", NULL);
  c.in.strides_bytes[0] = 8;
  c.in.strides_bytes[1] = 4;
  expect_status ("overlapping strides", admit (&c, &plan), SIMA_OVERLAPPING_STRIDES,
      "axis 0 is 8 bytes", "12 bytes", NULL);
  c.in.strides_bytes[0] = 12;
  c.in.strides_bytes[1] = 8;
  /* {2,3} at offsets 0,8,16 and 12,20,28: disjoint but interleaved, so the
   * sorted-span proof cannot admit it */
  expect_status ("interleaved strides", admit (&c, &plan), SIMA_OVERLAPPING_STRIDES,
      "axis 0 is 12 bytes, below the 20 bytes", NULL);
  c.in.strides_bytes[0] = 4;
  c.in.strides_bytes[1] = 8;
  expect_status ("channels-first strides admitted", admit (&c, &plan), SIMA_OK, NULL);
  c.in.strides_bytes[0] = 12;
  c.in.strides_bytes[1] = 12;
  expect_status ("equal strides", admit (&c, &plan), SIMA_OVERLAPPING_STRIDES,
      "axis 1 is 12 bytes", NULL);
  c.in.shape[0] = c.out.shape[0] = 3;
  c.in.strides_bytes[0] = INT64_C (1) << 62;  /* 2 * 2^62 > INT64_MAX */
  c.in.strides_bytes[1] = 4;
  expect_status ("span overflow", admit (&c, &plan), SIMA_SIZE_OVERFLOW,
      "axis 0", NULL);

  /* parameters */
  {
    static const struct { const char *name; float m; const char *text; } bad[] = {
      { "multiplier 0", 0.0f, "multiplier is 0" },
      { "multiplier -0", -0.0f, "multiplier is -0" },
      { "negative multiplier", -2.0f, "multiplier is -2" },
      { "infinite multiplier", INFINITY, "multiplier is inf" },
      { "NaN multiplier", NAN, "multiplier is nan" },
    };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      c = base_case ();
      c.params.multiplier = bad[i].m;
      expect_status (bad[i].name, admit (&c, &plan), SIMA_INVALID_PARAMETER,
          bad[i].text, "finite and > 0", NULL);
    }
  }
  c = base_case ();
  c.params.multiplier = 1e-45f;
  expect_status ("subnormal multiplier admitted", admit (&c, &plan), SIMA_OK, NULL);
  c.params.zero_point = -129;
  expect_status ("zero point -129", admit (&c, &plan), SIMA_INVALID_PARAMETER,
      "zero_point is -129", "[-128, 127]", NULL);
  c.params.zero_point = 128;
  expect_status ("zero point 128", admit (&c, &plan), SIMA_INVALID_PARAMETER,
      "zero_point is 128", NULL);
  c.params.zero_point = 0;
  c.params.rounding = (SimaRounding) 4;
  expect_status ("unknown rounding", admit (&c, &plan), SIMA_INVALID_PARAMETER,
      "rounding is 4", NULL);

  /* tiling */
  c = base_case ();
  c.out.tiled.axes[2] = 1;  /* W and C both on axis 1 */
  expect_status ("duplicate axes", admit (&c, &plan), SIMA_INVALID_TILING,
      "logical axis 1 is mapped to both W and C", NULL);
  c = base_case ();
  c.out.tiled.axes[1] = 2;
  expect_status ("out-of-range axis", admit (&c, &plan), SIMA_INVALID_TILING,
      "H axis is 2, out of range for rank 2", NULL);
  c = base_case ();
  c.out.tiled.axes[1] = -3;
  expect_status ("axis below -1", admit (&c, &plan), SIMA_INVALID_TILING,
      "H axis is -3", NULL);
  c = base_case ();
  c.out.tiled.axes[3] = -1;
  expect_status ("missing C axis", admit (&c, &plan), SIMA_INVALID_TILING,
      "C axis is -1", "mandatory", NULL);
  c = base_case ();
  c.out.tiled.tile_shape[0] = 2;
  expect_status ("absent axis with extent 2", admit (&c, &plan), SIMA_INVALID_TILING,
      "D extent is 2 but D is absent", NULL);
  c = base_case ();
  c.out.tiled.tile_shape[2] = 0;
  expect_status ("tile extent 0", admit (&c, &plan), SIMA_INVALID_TILING,
      "W extent is 0, must be positive", NULL);
  c = base_case ();
  c.out.tiled.channels = (SimaChannels) 7;
  expect_status ("unknown channels mode", admit (&c, &plan), SIMA_INVALID_TILING,
      "channels mode is 7", NULL);

  /* sizes that overflow 64 bits */
  {
    static const int64_t huge[3] = { INT64_C (1) << 31, INT64_C (1) << 31,
      INT64_C (1) << 3 };
    static const int8_t axes[4] = { -1, 0, 1, 2 };
    static const int64_t tile[4] = { 1, 1, 1, 8 };
    c = base_case ();
    c.in = test_spec_dense (SIMA_DTYPE_FLOAT32, 3, huge);
    c.out = test_spec_tiled (SIMA_DTYPE_INT8, 3, huge, axes, tile,
        SIMA_CHANNELS_PAD16);
    expect_status ("input size overflow", admit (&c, &plan), SIMA_SIZE_OVERFLOW,
        "input size overflows 64 bits", NULL);
    c.in.dtype = SIMA_DTYPE_BFLOAT16;
    c.in.shape[0] = c.out.shape[0] = INT64_C (1) << 30;
    c.in.shape[2] = c.out.shape[2] = 1;
    c.out.tiled.tile_shape[3] = 1;  /* 2^62 bytes in, 2^65 out at 16/pixel */
    expect_status ("tiled size overflow", admit (&c, &plan), SIMA_SIZE_OVERFLOW,
        "output tiled size overflows 64 bits", NULL);
  }

  /* arity and NULL arguments */
  c = base_case ();
  c.n_in = 2;
  expect_status ("two inputs", admit (&c, &plan), SIMA_INVALID_ARITY,
      "1 input and 1 output, got 2 and 1", NULL);
  c = base_case ();
  c.n_out = 0;
  expect_status ("no output", admit (&c, &plan), SIMA_INVALID_ARITY, "got 1 and 0",
      NULL);
  expect_status ("NULL request", sima_quanttess_check_inference (NULL, &plan),
      SIMA_INVALID_ARGUMENT, "request is NULL", NULL);
}

static void
execution_rejections (void)
{
  SimaQuantTessPlan shared;
  SimaA65QuantTessPlan plan;
  Case c = base_case ();
  TestBuffer in = test_buffer_new (64, 0, 0x3f);
  TestBuffer out = test_buffer_new (64, 0, 0x5a);
  SimaConstHostBuffer ib = { in.data, 24 };
  SimaHostBuffer ob = { out.data, 32 };
  int untouched;
  size_t i;

  admit (&c, &shared);
  expect_status ("prepare", sima_a65_quanttess_prepare (&shared, &plan), SIMA_OK,
      NULL);

#define EXEC(ibuf, ni, obuf, no) \
  sima_a65_quanttess_execute (&plan, ibuf, ni, obuf, no)
  {
    SimaConstHostBuffer bi = ib;
    SimaHostBuffer bo = ob;
    bo.capacity = 31;
    expect_status ("output capacity one byte short", EXEC (&bi, 1, &bo, 1),
        SIMA_CAPACITY_TOO_SMALL, "output capacity is 31 bytes, 32 required",
        NULL);
    bo = ob;
    bi.capacity = 23;
    expect_status ("input capacity one byte short", EXEC (&bi, 1, &bo, 1),
        SIMA_CAPACITY_TOO_SMALL, "input capacity is 23 bytes, 24 required",
        NULL);
    bi = ib;
    bi.data = in.data + 2;
    expect_status ("misaligned input", EXEC (&bi, 1, &bo, 1),
        SIMA_MISALIGNED_BUFFER, "input address", "not 4-byte aligned", NULL);
    bi = ib;
    bo.data = out.data + 4;
    expect_status ("misaligned output", EXEC (&bi, 1, &bo, 1),
        SIMA_MISALIGNED_BUFFER, "output address", "not 16-byte aligned",
        NULL);
    bo = ob;
    bi.data = NULL;
    expect_status ("NULL input", EXEC (&bi, 1, &bo, 1), SIMA_NULL_BUFFER,
        "input buffer is NULL but 24 bytes are required", NULL);
    bi = ib;
    bo.data = NULL;
    expect_status ("NULL output", EXEC (&bi, 1, &bo, 1), SIMA_NULL_BUFFER,
        "output buffer is NULL", NULL);
    bo = ob;
    expect_status ("two input buffers", EXEC (&bi, 2, &bo, 1), SIMA_INVALID_ARITY,
        "got 2 and 1", NULL);
    expect_status ("NULL buffer array", EXEC (NULL, 1, &bo, 1), SIMA_INVALID_ARITY,
        "NULL array", NULL);
    bi.data = (const void *) (UINTPTR_MAX - 15);
    bi.capacity = 24;
    expect_status ("address range wraps", EXEC (&bi, 1, &bo, 1),
        SIMA_ADDRESS_OVERFLOW, "wraps the address space", NULL);
    /* input and output views inside one allocation */
    bi.data = out.data + 16;
    bi.capacity = 24;
    expect_status ("overlapping input and output", EXEC (&bi, 1, &bo, 1),
        SIMA_OVERLAPPING_BUFFERS, "overlap", NULL);
    expect_status ("unprepared plan",
        sima_a65_quanttess_execute (NULL, &bi, 1, &bo, 1),
        SIMA_INVALID_ARGUMENT, "plan is NULL", NULL);
  }
  untouched = test_buffer_guards_ok (&out);
  for (i = 0; i < out.size; i++)
    untouched &= out.data[i] == 0x5a;
  tap_ok (untouched, "rejected executions wrote nothing");

  {
    /* Disjoint views in one allocation are valid: input after the output. */
    TestBuffer both = test_buffer_new (64, 0, 0);
    SimaConstHostBuffer bi = { both.data + 32, 24 };
    SimaHostBuffer bo = { both.data, 32 };
    expect_status ("disjoint views in one allocation", EXEC (&bi, 1, &bo, 1),
        SIMA_OK, NULL);
    test_buffer_free (&both);
  }
#undef EXEC
  test_buffer_free (&in);
  test_buffer_free (&out);
}

static void
status_names (void)
{
  int ok = 1;
  ok &= strcmp (sima_status_code_name (SIMA_OK), "ok") == 0;
  ok &= strcmp (sima_status_code_name (SIMA_CAPACITY_TOO_SMALL),
      "capacity-too-small") == 0;
  ok &= strcmp (sima_status_code_name ((SimaStatusCode) 999), "unknown") == 0;
  tap_ok (ok, "status codes have stable names");
  {
    char longtext[400];
    SimaStatus st;
    memset (longtext, 'x', sizeof longtext - 1);
    longtext[sizeof longtext - 1] = '\0';
    st = sima_status_make (SIMA_INVALID_ARGUMENT, "%s", longtext);
    tap_ok (strlen (st.message) == SIMA_STATUS_MESSAGE_SIZE - 1,
        "long messages are truncated and terminated");
  }
}

int
main (void)
{
  status_names ();
  admission_rejections ();
  execution_rejections ();
  return tap_done ();
}
