/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The backend policy and device faults, for all three converters:
 *  - backend=ev74 without a usable device or capability: start fails with
 *    an error naming the capability and the properties to set;
 *  - fallback=a65: exactly one warning, and output equal to the A65's;
 *  - SIMA_EV74_DEVICE supplies the device when the property is unset;
 *  - a DMA error, a worker failure and a job that outlives the timeout,
 *    injected mid-stream: a flow error with a clear message, no crash, a
 *    clean shutdown, and the device keeps the buffers of the late job.
 */
#include <simaai/kernels/ev74/device.h>
#include <string.h>

#include "ev74_testing.h"   /* sima_ev74_device_configure */
#include "check_util.h"
#include "gstsimaenums.h"

static gint
active_backend (GstElement * e)
{
  gint v;
  g_object_get (e, "active-backend", &v, NULL);
  return v;
}

GST_START_TEST (test_no_device_no_fallback)
{
  int op;

  g_unsetenv ("SIMA_EV74_DEVICE");
  for (op = 0; op < 3; op++) {
    GstStateChangeReturn ret;
    gchar *desc = g_strdup_printf ("%s", check_ops[op].element);
    gchar *msg = check_start_message (desc, GST_MESSAGE_ERROR, &ret);
    fail_unless_equals_int (ret, GST_STATE_CHANGE_FAILURE);
    fail_unless (msg && strstr (msg, check_ops[op].capability)
        && strstr (msg, "/dev/simaai-ev74") && strstr (msg, "backend=a65")
        && strstr (msg, "fallback=a65"), "%s: %s", check_ops[op].element, msg);
    g_free (msg);
    g_free (desc);
  }
}
GST_END_TEST;

GST_START_TEST (test_capability_missing_no_fallback)
{
  int op;

  for (op = 0; op < 3; op++) {
    GstStateChangeReturn ret;
    gchar *desc = g_strdup_printf ("%s device=emulator:missing=%s",
        check_ops[op].element, check_ops[op].route);
    gchar *msg = check_start_message (desc, GST_MESSAGE_ERROR, &ret);
    fail_unless_equals_int (ret, GST_STATE_CHANGE_FAILURE);
    fail_unless (msg && strstr (msg, check_ops[op].capability)
        && strstr (msg, "fallback=a65"), "%s: %s", desc, msg);
    g_free (msg);
    g_free (desc);
  }
}
GST_END_TEST;

/* A malformed device spec is the user's to fix: an error that says the
 * spec is invalid and gives the option's range, with or without a
 * fallback (it used to read as a missing capability, and fallback=a65
 * silently ran on the A65). */
GST_START_TEST (test_invalid_device_spec)
{
  static const struct
  {
    const gchar *props, *want;
  } cases[] = {
    { "device=emulator:workers=0", "workers is 1 to 4" },
    { "device=emulator:workers=0 fallback=a65", "workers is 1 to 4" },
    { "device=emulator:workers=2,workers=3", "given twice" },
    { "device=emulator:colour=blue", "is unknown" },
  };
  guint i;
  int op;

  for (op = 0; op < 3; op++)
    for (i = 0; i < G_N_ELEMENTS (cases); i++) {
      GstStateChangeReturn ret;
      gchar *desc = g_strdup_printf ("%s %s", check_ops[op].element,
          cases[i].props);
      gchar *msg = check_start_message (desc, GST_MESSAGE_ERROR, &ret);
      fail_unless_equals_int (ret, GST_STATE_CHANGE_FAILURE);
      fail_unless (msg && strstr (msg, "is not valid: ")
          && strstr (msg, cases[i].want)
          && !strstr (msg, "capability"), "%s: %s", desc, msg);
      g_free (msg);
      g_free (desc);
    }
}
GST_END_TEST;

/* One warning, then the A65's bytes. */
GST_START_TEST (test_capability_missing_fallback)
{
  int op;

  for (op = 0; op < 3; op++) {
    gchar *desc = g_strdup_printf ("%s device=emulator:missing=%s "
        "fallback=a65", check_ops[op].element, check_ops[op].route);
    GstBuffer *want = check_op_a65_output (op, 3), *got;
    CheckHarness c;
    gchar *msg;

    check_harness_new (&c, desc, check_ops[op].in_caps, NULL);
    got = gst_harness_push_and_pull (c.h, check_op_input (op, 3));
    fail_unless (check_buffers_equal (want, got), "%s: fallback output differs "
        "from the A65's", desc);
    fail_unless_equals_int (active_backend (check_harness_element (&c)),
        GST_SIMA_ACTIVE_A65_FALLBACK);
    msg = check_pop_message (&c, GST_MESSAGE_WARNING);
    fail_unless (msg && strstr (msg, check_ops[op].capability)
        && strstr (msg, "fallback=a65"), "warning: %s", msg);
    g_free (msg);
    /* exactly one: pushing more posts nothing new */
    gst_buffer_unref (gst_harness_push_and_pull (c.h, check_op_input (op, 3)));
    msg = check_pop_message (&c, GST_MESSAGE_WARNING);
    fail_unless (msg == NULL, "a second warning: %s", msg);
    gst_buffer_unref (got);
    gst_buffer_unref (want);
    check_harness_free (&c);
    g_free (desc);
  }
}
GST_END_TEST;

/* The EV74 emulator gives the A65's bytes, for each op; the device comes
 * from SIMA_EV74_DEVICE when the property is unset. */
GST_START_TEST (test_ev74_matches_a65)
{
  int op;

  g_setenv ("SIMA_EV74_DEVICE", "emulator:workers=3", TRUE);
  for (op = 0; op < 3; op++) {
    GstBuffer *want = check_op_a65_output (op, 3), *got;
    CheckHarness c;

    check_harness_new (&c, check_ops[op].element, check_ops[op].in_caps, NULL);
    got = gst_harness_push_and_pull (c.h, check_op_input (op, 3));
    fail_unless_equals_int (active_backend (check_harness_element (&c)),
        GST_SIMA_ACTIVE_EV74);
    fail_unless (check_buffers_equal (want, got), "%s on the emulator differs from "
        "the A65", check_ops[op].element);
    gst_buffer_unref (got);
    gst_buffer_unref (want);
    check_harness_free (&c);
  }
  g_unsetenv ("SIMA_EV74_DEVICE");
}
GST_END_TEST;

/* Injects `fault` into the element's (shared) device after one good
 * buffer; the next buffer must fail with `text` in the error. */
static void
fault_midstream (const gchar * spec, const gchar * fault, const gchar * extra,
    const gchar * text)
{
  gchar *desc = g_strdup_printf ("simaquanttess multiplier=64 device=%s %s",
      spec, extra);
  SimaEv74Device *dev;
  CheckHarness c;
  GstFlowReturn ret;
  gchar *msg;

  fail_unless (sima_ev74_device_open (spec, &dev).code == SIMA_OK);
  check_harness_new (&c, desc, CHECK_IN_CAPS, NULL);
  gst_buffer_unref (gst_harness_push_and_pull (c.h, check_op_input (0, 3)));
  fail_unless (sima_ev74_device_configure (dev, fault).code == SIMA_OK);
  /* with jobs in flight the push may be accepted and its job fail after
   * it: then the next push returns the flow's error */
  ret = check_push_failing (&c, check_op_input (0, 3), &msg);
  fail_unless_equals_int (ret, GST_FLOW_ERROR);
  fail_unless (msg && strstr (msg, text), "%s: error %s", fault, msg);
  g_free (msg);
  /* one error for the flow: the probe push posted nothing more */
  msg = check_pop_message (&c, GST_MESSAGE_ERROR);
  fail_unless (msg == NULL, "%s: a second error: %s", fault, msg);
  sima_ev74_device_configure (dev, "fault=none");
  check_harness_free (&c);      /* clean shutdown after the error */
  sima_ev74_device_unref (dev);
  g_free (desc);
}

GST_START_TEST (test_dma_error_midstream)
{
  fault_midstream ("emulator:workers=2,local-kib=64", "fault=dma-error,"
      "fault-after-commands=1", "", "a DMA transfer failed");
}
GST_END_TEST;

GST_START_TEST (test_worker_failure_midstream)
{
  fault_midstream ("emulator:workers=2,local-kib=65", "fault=worker-failure",
      "", "stopped (injected worker failure)");
}
GST_END_TEST;

/* The job outlives the element's timeout: error, shutdown, and the device
 * still finishes the job into the buffers it holds. */
GST_START_TEST (test_timeout_midstream)
{
  const gchar *spec = "emulator:workers=1,local-kib=66";
  SimaEv74Device *dev;

  fault_midstream (spec, "fault=hang,hang-ms=300", "timeout=30",
      "did not finish within 30 ms");
  /* the hung job still holds its regions (and through them the device):
   * a job queued behind it on the one worker retires only after it */
  fail_unless (sima_ev74_device_open (spec, &dev).code == SIMA_OK);
  {
    SimaEv74Descriptor d;
    SimaEv74Job *job;
    memset (&d, 0, sizeof d);
    d.length = 232;
    d.bytes[0] = 0x45;
    d.bytes[1] = 0x56;
    d.bytes[2] = 0x37;
    d.bytes[3] = 0x34;
    d.bytes[6] = 232;
    d.bytes[8] = 49;
    fail_unless (sima_ev74_submit (dev, &d, NULL, 0, &job).code == SIMA_OK);
    /* an invalid descriptor: rejected by the firmware, after the hung job */
    fail_unless (sima_ev74_job_wait (job, 5 * GST_SECOND).code
        == SIMA_INVALID_DESCRIPTOR);
    sima_ev74_job_unref (job);
  }
  sima_ev74_device_unref (dev);
}
GST_END_TEST;

static Suite *
backend_suite (void)
{
  Suite *s = suite_create ("backend");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_no_device_no_fallback);
  tcase_add_test (tc, test_capability_missing_no_fallback);
  tcase_add_test (tc, test_capability_missing_fallback);
  tcase_add_test (tc, test_invalid_device_spec);
  tcase_add_test (tc, test_ev74_matches_a65);
  tcase_add_test (tc, test_dma_error_midstream);
  tcase_add_test (tc, test_worker_failure_midstream);
  tcase_add_test (tc, test_timeout_midstream);
  return s;
}

GST_CHECK_MAIN (backend);
