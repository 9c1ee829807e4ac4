/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tap.h - a tiny TAP producer for the core tests (meson test protocol: tap).
 *
 * Each tap_ok() is one TAP test point; large sweeps count their own cases
 * and report one point with the count ("... 6291456 cases, 0 mismatches"),
 * so the meson log carries the numbers. tap_done() prints the plan and gives
 * the exit status. The counters live in tap.c so that every file of a test
 * program numbers its points in one sequence.
 */
#ifndef SIMA_TESTS_TAP_H
#define SIMA_TESTS_TAP_H

#if defined(__GNUC__)
#define SIMA_TAP_PRINTF(f, a) __attribute__ ((format (printf, f, a)))
#else
#define SIMA_TAP_PRINTF(f, a)
#endif

/* Reports one point; returns ok. */
int tap_ok (int ok, const char *fmt, ...) SIMA_TAP_PRINTF (2, 3);

/* A "# ..." diagnostic line. */
void tap_diag (const char *fmt, ...) SIMA_TAP_PRINTF (1, 2);

/* Prints the plan; returns the process exit status. */
int tap_done (void);

#endif /* SIMA_TESTS_TAP_H */
