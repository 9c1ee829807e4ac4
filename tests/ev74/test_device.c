/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The EV74 device spec and the emulator's clocks:
 *  - options: every option at its bounds opens; one past each bound, a
 *    malformed value, a repeated option and an unknown option are
 *    SIMA_INVALID_ARGUMENT naming the option and what is valid (never a
 *    missing capability), and a failed open or configure leaves nothing
 *    behind;
 *  - clocks: the emulator's timeouts do not follow the wall clock.
 *
 * A real clock step needs CAP_SYS_TIME and would disturb the whole machine,
 * so this program interposes clock_gettime instead: CLOCK_REALTIME reads
 * are shifted by wall_shift_ns, while the kernel keeps timing absolute
 * CLOCK_REALTIME waits with the true wall clock. A deadline computed from a
 * shifted read is exactly one computed just before a step of that size.
 * The program also counts the clocks read, so "no wall clock" is checked
 * directly, and checks that the interposer sees the library's reads at
 * all (otherwise the clock points would prove nothing).
 */
#define _GNU_SOURCE
#include <simaai/kernels/ev74/casttess.h>
#include <simaai/kernels/ev74/detessdequant.h>
#include <simaai/kernels/ev74/device.h>
#include <simaai/kernels/ev74/quanttess.h>

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ev74_testing.h"   /* sima_ev74_device_configure */
#include "ev74_util.h"
#include "status_expect.h"
#include "tap.h"

/* ---- the interposed clock ------------------------------------------------- */

static _Atomic int64_t wall_shift_ns;
static _Atomic unsigned long realtime_reads, monotonic_reads;

/* Overrides libc's for the whole process (libsimaev74 included): default
 * visibility, as the project builds with -fvisibility=hidden. The time
 * itself comes from the system call, so no lookup of the next definition is
 * needed. */
__attribute__ ((visibility ("default"))) int
clock_gettime (clockid_t id, struct timespec *ts)
{
  int64_t shift, ns;

  if (syscall (SYS_clock_gettime, id, ts) != 0)
    return -1;
  if (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE) {
    atomic_fetch_add (&realtime_reads, 1);
    shift = atomic_load (&wall_shift_ns);
    ns = (int64_t) ts->tv_nsec + shift % 1000000000;
    ts->tv_sec += (time_t) (shift / 1000000000 + (ns < 0 ? -1 : 0)
        + (ns >= 1000000000 ? 1 : 0));
    ts->tv_nsec = (long) ((ns % 1000000000 + 1000000000) % 1000000000);
  } else if (id == CLOCK_MONOTONIC || id == CLOCK_MONOTONIC_COARSE
      || id == CLOCK_MONOTONIC_RAW || id == CLOCK_BOOTTIME) {
    atomic_fetch_add (&monotonic_reads, 1);
  }
  return 0;
}

/* The test's own stopwatch, past the counters. */
static int64_t
now_ms (void)
{
  struct timespec ts;
  syscall (SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
  return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- options ---------------------------------------------------------------- */

typedef struct {
  const char *spec;
  const char *what;             /* the message names this... */
  const char *valid;            /* ...and says this is valid */
} BadSpec;

static const BadSpec bad_specs[] = {
  /* every option, one past each bound and malformed */
  { "emulator:workers=0", "'workers=0' is not valid", "workers is 1 to 4" },
  { "emulator:workers=5", "'workers=5' is not valid", "workers is 1 to 4" },
  { "emulator:workers=-1", "'workers=-1' is not valid", "workers is 1 to 4" },
  { "emulator:workers=two", "'workers=two' is not valid",
    "workers is 1 to 4" },
  { "emulator:workers=", "'workers=' is not valid", "workers is 1 to 4" },
  { "emulator:workers", "'workers' is not valid", "workers is 1 to 4" },
  { "emulator:local-kib=0", "'local-kib=0' is not valid",
    "local-kib is 1 to 1024" },
  { "emulator:local-kib=1025", "'local-kib=1025' is not valid",
    "local-kib is 1 to 1024" },
  { "emulator:dma=sometimes", "'dma=sometimes' is not valid",
    "dma is immediate or deferred" },
  { "emulator:dma=", "'dma=' is not valid", "dma is immediate or deferred" },
  { "emulator:missing=65536", "'missing=65536' is not valid",
    "missing is none, all, or up to 8 routes (0 to 65535) joined by '+'" },
  { "emulator:missing=49+", "'missing=49+' is not valid",
    "missing is none" },
  { "emulator:missing=1+2+3+4+5+6+7+8+9", "is not valid", "up to 8 routes" },
  { "emulator:missing=some", "'missing=some' is not valid",
    "missing is none" },
  { "emulator:fault=explode", "'fault=explode' is not valid",
    "fault is none, dma-error, hang or worker-failure" },
  { "emulator:fault-after-jobs=18446744073709551616",
    "'fault-after-jobs=18446744073709551616' is not valid",
    "fault-after-jobs is 0 to 18446744073709551615" },
  { "emulator:fault-after-jobs=99999999999999999999", "is not valid",
    "fault-after-jobs is 0 to 18446744073709551615" },
  { "emulator:fault-after-commands=9223372036854775808",
    "'fault-after-commands=9223372036854775808' is not valid",
    "fault-after-commands is 0 to 9223372036854775807" },
  { "emulator:fault-after-commands=-1", "is not valid",
    "fault-after-commands is 0 to 9223372036854775807" },
  { "emulator:hang-ms=600001", "'hang-ms=600001' is not valid",
    "hang-ms is 0 to 600000" },
  /* the first bad option is the one reported */
  { "emulator:workers=2,hang-ms=1x", "'hang-ms=1x' is not valid",
    "hang-ms is 0 to 600000" },
  /* repeated, with the same value or another one */
  { "emulator:workers=1,workers=2", "'workers' is given twice", "" },
  { "emulator:dma=deferred,workers=2,dma=deferred", "'dma' is given twice",
    "" },
  { "emulator:missing=49,missing=50", "'missing' is given twice", "" },
  { "emulator:fault=hang,hang-ms=5,fault=none", "'fault' is given twice",
    "" },
  /* unknown, with the options that exist */
  { "emulator:colour=blue", "'colour=blue' is unknown",
    "options: workers, local-kib, dma, missing, fault, fault-after-jobs, "
    "fault-after-commands, hang-ms" },
  { "emulator:Workers=2", "'Workers=2' is unknown", "options: workers" },
  { "emulator:workers=2,,dma=deferred", "'' is unknown", "options:" },
};

/* missing= with two routes, then configure on that device */
static void
missing_and_configure (SimaEv74Device *dev)
{
  expect_status ("missing=49+51 removes route 49", sima_ev74_device_require
      (dev, SIMA_EV74_ROUTE_QUANTTESS, SIMA_EV74_QUANTTESS_CAPABILITY),
      SIMA_CAPABILITY_MISSING, "route 49", NULL);
  expect_status ("missing=49+51 removes route 51", sima_ev74_device_require
      (dev, SIMA_EV74_ROUTE_CASTTESS, SIMA_EV74_CASTTESS_CAPABILITY),
      SIMA_CAPABILITY_MISSING, "route 51", NULL);
  expect_status ("missing=49+51 keeps route 50", sima_ev74_device_require
      (dev, SIMA_EV74_ROUTE_DETESSDEQUANT, SIMA_EV74_DETESSDEQUANT_CAPABILITY),
      SIMA_OK, NULL);

  /* configure: the same rules, plus the options fixed at open; a rejected
   * configure changes nothing, an accepted missing= replaces the set */
  expect_status ("configure workers", sima_ev74_device_configure (dev,
          "workers=2"), SIMA_INVALID_ARGUMENT, "'workers=2' cannot be changed",
      "workers is fixed at open", NULL);
  expect_status ("configure local-kib", sima_ev74_device_configure (dev,
          "local-kib=8"), SIMA_INVALID_ARGUMENT, "local-kib is fixed at open",
      NULL);
  expect_status ("configure a repeated option", sima_ev74_device_configure
      (dev, "missing=none,missing=none"), SIMA_INVALID_ARGUMENT,
      "'missing' is given twice", NULL);
  expect_status ("configure an out-of-range value", sima_ev74_device_configure
      (dev, "missing=none,hang-ms=600001"), SIMA_INVALID_ARGUMENT,
      "hang-ms is 0 to 600000", NULL);
  expect_status ("configure an unknown option", sima_ev74_device_configure
      (dev, "missing=none,speed=11"), SIMA_INVALID_ARGUMENT,
      "'speed=11' is unknown", NULL);
  expect_status ("a rejected configure leaves missing= as it was",
      sima_ev74_device_require (dev, SIMA_EV74_ROUTE_QUANTTESS,
          SIMA_EV74_QUANTTESS_CAPABILITY), SIMA_CAPABILITY_MISSING, NULL);
  expect_status ("configure missing=50", sima_ev74_device_configure (dev,
          "missing=50"), SIMA_OK, NULL);
  tap_ok (sima_ev74_device_require (dev, SIMA_EV74_ROUTE_QUANTTESS,
          SIMA_EV74_QUANTTESS_CAPABILITY).code == SIMA_OK
      && sima_ev74_device_require (dev, SIMA_EV74_ROUTE_DETESSDEQUANT,
          SIMA_EV74_DETESSDEQUANT_CAPABILITY).code == SIMA_CAPABILITY_MISSING,
      "configure missing=50 replaces the set (49 is back, 50 is gone)");
  sima_ev74_device_unref (dev);
}

static void
options (void)
{
  static const char *const good[] = {
    "emulator", "emulator:", "emulator:workers=1", "emulator:workers=4",
    "emulator:local-kib=1,workers=1", "emulator:local-kib=1024,workers=1",
    "emulator:dma=immediate", "emulator:dma=deferred",
    "emulator:missing=none", "emulator:missing=all",
    "emulator:missing=0", "emulator:missing=65535",
    "emulator:missing=1+2+3+4+5+6+7+8",
    "emulator:fault=none", "emulator:fault=dma-error",
    "emulator:fault=hang", "emulator:fault=worker-failure",
    "emulator:fault-after-jobs=0",
    "emulator:fault-after-jobs=18446744073709551615",
    "emulator:fault-after-commands=0",
    "emulator:fault-after-commands=9223372036854775807",
    "emulator:hang-ms=0", "emulator:hang-ms=600000",
    "emulator:workers=3,dma=deferred,local-kib=80,missing=50,"
        "fault=dma-error,fault-after-jobs=2,fault-after-commands=7,"
        "hang-ms=20",
  };
  SimaEv74Device *dev, *other;
  SimaStatus st;
  size_t i, n_ok = 0;

  for (i = 0; i < sizeof good / sizeof good[0]; i++) {
    dev = NULL;
    st = sima_ev74_device_open (good[i], &dev);
    if (!tap_ok (st.code == SIMA_OK, "'%s' opens", good[i]))
      tap_diag ("%s", st.message);
    n_ok += st.code == SIMA_OK;
    sima_ev74_device_unref (dev);
  }

  for (i = 0; i < sizeof bad_specs / sizeof bad_specs[0]; i++) {
    const BadSpec *b = &bad_specs[i];
    dev = (SimaEv74Device *) &dev;      /* open must clear it */
    st = sima_ev74_device_open (b->spec, &dev);
    expect_status (b->spec, st, SIMA_INVALID_ARGUMENT, "EV74 emulator option",
        b->what, b->valid, NULL);
    if (dev != NULL)
      tap_diag ("open left %p in out", (void *) dev);
  }

  /* a malformed spec leaves nothing in the registry: it fails again */
  sima_ev74_device_open ("emulator:workers=9", &dev);
  st = sima_ev74_device_open ("emulator:workers=9", &dev);
  expect_status ("the same bad spec again", st, SIMA_INVALID_ARGUMENT,
      "workers is 1 to 4", NULL);

  /* the routes of missing= are the ones removed, and only those */
  st = sima_ev74_device_open ("emulator:missing=49+51", &dev);
  if (expect_status ("open emulator:missing=49+51", st, SIMA_OK, NULL))
    missing_and_configure (dev);

  /* the other failures of open keep their own codes */
  expect_status ("a platform device", sima_ev74_device_open
      ("/dev/simaai-ev74", &other), SIMA_DEVICE_UNAVAILABLE, "not available",
      NULL);
  tap_ok (n_ok == sizeof good / sizeof good[0], "%zu of %zu valid specs open",
      n_ok, sizeof good / sizeof good[0]);
}

/* ---- clocks ----------------------------------------------------------------- */

/* A descriptor header on route 49: the emulator's hang comes before the
 * firmware looks at it, so the job stalls for hang-ms and then retires
 * with the firmware's verdict; only the timing matters here. */
static SimaEv74Descriptor
header_only (void)
{
  SimaEv74Descriptor d;
  memset (&d, 0, sizeof d);
  d.length = 232;
  d.bytes[0] = 0x45;
  d.bytes[1] = 0x56;
  d.bytes[2] = 0x37;
  d.bytes[3] = 0x34;
  d.bytes[6] = 232;
  d.bytes[8] = SIMA_EV74_ROUTE_QUANTTESS;
  return d;
}

/* Submits a job that hangs for hang_ms with the wall clock shifted by
 * shift_s, waits timeout_ms for it, then for its retirement. */
static void
hang_with_shift (const char *spec, int64_t shift_s, int64_t timeout_ms,
    int64_t *timeout_at_ms, int64_t *retired_at_ms, SimaStatusCode *first)
{
  SimaEv74Descriptor d = header_only ();
  SimaEv74Device *dev = test_device_open (spec);
  SimaEv74Job *job = NULL;
  SimaStatus st;
  int64_t t0;

  atomic_store (&wall_shift_ns, shift_s * 1000000000);
  t0 = now_ms ();
  st = sima_ev74_submit (dev, &d, NULL, 0, &job);
  if (st.code != SIMA_OK) {
    tap_diag ("submit: %s", st.message);
    *first = st.code;
    *timeout_at_ms = *retired_at_ms = -1;
  } else {
    *first = sima_ev74_job_wait (job, timeout_ms * 1000000).code;
    *timeout_at_ms = now_ms () - t0;
    sima_ev74_job_wait (job, -1);
    *retired_at_ms = now_ms () - t0;
  }
  atomic_store (&wall_shift_ns, 0);
  sima_ev74_job_unref (job);
  sima_ev74_device_unref (dev);
}

static void
clocks (void)
{
  int64_t waited, retired;
  SimaStatusCode code;

  atomic_store (&realtime_reads, 0);
  atomic_store (&monotonic_reads, 0);

  /* The wall clock steps forward an hour: a deadline taken from it has
   * already passed. The wait and the hang must still last their time
   * (lower bounds only: a loaded machine makes them longer, never
   * shorter). */
  hang_with_shift ("emulator:workers=1,fault=hang,hang-ms=400", -3600, 150,
      &waited, &retired, &code);
  tap_ok (code == SIMA_TIMEOUT && waited >= 140,
      "wall clock one hour ahead: a 150 ms wait times out after %lld ms (%s)",
      (long long) waited, sima_status_code_name (code));
  tap_ok (retired >= 390, "wall clock one hour ahead: a 400 ms hang retires "
      "after %lld ms", (long long) retired);

  /* The wall clock steps back 10 s: a deadline taken from it is 10 s late. */
  hang_with_shift ("emulator:workers=1,fault=hang,hang-ms=200", 10, 50,
      &waited, &retired, &code);
  tap_ok (code == SIMA_TIMEOUT && waited < 4000,
      "wall clock 10 s behind: a 50 ms wait times out after %lld ms (%s)",
      (long long) waited, sima_status_code_name (code));
  tap_ok (retired >= 190 && retired < 6000, "wall clock 10 s behind: a "
      "200 ms hang retires after %lld ms", (long long) retired);

  tap_ok (atomic_load (&monotonic_reads) > 0,
      "the interposed clock sees the library (%lu monotonic reads)",
      atomic_load (&monotonic_reads));
  tap_ok (atomic_load (&realtime_reads) == 0,
      "the emulator never reads the wall clock (%lu CLOCK_REALTIME reads)",
      atomic_load (&realtime_reads));
}

/* ---- cancel ----------------------------------------------------------------- */

/* One worker busy with a hanging job A; job B waits in the emulator's
 * queue. Cancelling B retires it at once with device-fault, before A and
 * without running; cancelling A, which has started, changes nothing: it
 * retires when its hang ends. Neither is freed before it retires (the
 * wait on a cancelled job still works after the caller's cancel). */
static void
cancel (void)
{
  SimaEv74Descriptor d = header_only ();
  SimaEv74Device *dev =
      test_device_open ("emulator:workers=1,fault=hang,hang-ms=400");
  SimaEv74Job *a = NULL, *b = NULL;
  SimaStatus sa, sb;
  int64_t t0 = now_ms (), b_at, a_at;

  sa = sima_ev74_submit (dev, &d, NULL, 0, &a);
  sb = sima_ev74_submit (dev, &d, NULL, 0, &b);
  tap_ok (sa.code == SIMA_OK && sb.code == SIMA_OK, "two jobs submitted "
      "(%s, %s)", sa.message, sb.message);
  if (a == NULL || b == NULL) {
    sima_ev74_job_unref (a);
    sima_ev74_job_unref (b);
    sima_ev74_device_unref (dev);
    return;
  }
  /* let the worker take A (if it has not, B is still the one queued) */
  {
    struct timespec pause = { 0, 50 * 1000000 };
    nanosleep (&pause, NULL);
  }
  sima_ev74_job_cancel (b);
  sb = sima_ev74_job_wait (b, 2000 * (int64_t) 1000000);
  b_at = now_ms () - t0;
  tap_ok (sb.code == SIMA_DEVICE_FAULT && strstr (sb.message, "cancelled"),
      "a queued job cancelled retires with device-fault: %s (%s)",
      sima_status_code_name (sb.code), sb.message);
  tap_ok (sima_ev74_job_wait (a, 0).code == SIMA_TIMEOUT,
      "... before the running job ends (after %lld ms)", (long long) b_at);
  sima_ev74_job_cancel (a);
  sa = sima_ev74_job_wait (a, -1);
  a_at = now_ms () - t0;
  tap_ok (sa.code != SIMA_DEVICE_FAULT || strstr (sa.message, "cancelled")
      == NULL, "a running job is not cancelled: %s", sa.message);
  tap_ok (a_at >= 390, "it retires when its 400 ms hang ends (%lld ms)",
      (long long) a_at);
  sima_ev74_job_unref (a);
  sima_ev74_job_unref (b);
  sima_ev74_device_unref (dev);
}

int
main (void)
{
  options ();
  clocks ();
  cancel ();
  return tap_done ();
}
