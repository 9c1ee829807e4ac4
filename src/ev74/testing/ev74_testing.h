/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ev74_testing.h - hooks of libsimaev74 for tests only. Not installed, and
 * not for applications or the GStreamer elements: nothing here is a stable
 * API. The functions are exported (tests in the same process as the plugin
 * must reach the very devices the elements share), and tests/install
 * checks that this header's functions are the only exports beyond the
 * installed headers' (docs/libraries.md).
 */
#ifndef SIMA_EV74_TESTING_H
#define SIMA_EV74_TESTING_H

#include <simaai/kernels/ev74/device.h>

#include "../transport.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define SIMA_EV74_TESTING_BEGIN _Pragma ("GCC visibility push(default)")
#define SIMA_EV74_TESTING_END _Pragma ("GCC visibility pop")
#else
#define SIMA_EV74_TESTING_BEGIN
#define SIMA_EV74_TESTING_END
#endif

SIMA_EV74_TESTING_BEGIN

/* Changes transport options of an open device (the emulator's fault
 * injection); applies to jobs submitted afterwards. For the emulator the
 * same options as the spec, but workers and local-kib are fixed at open;
 * missing= replaces the set of absent capabilities. On an error nothing
 * changes; SIMA_INVALID_ARGUMENT for a transport without options. */
SimaStatus sima_ev74_device_configure (SimaEv74Device *dev,
    const char *options);

/* Makes specs "<prefix>" and "<prefix>:options" open `ops` (which must
 * outlive the process's use of it). Up to 4 prefixes; a prefix that is
 * already taken (including "emulator") is SIMA_INVALID_ARGUMENT. */
SimaStatus sima_ev74_testing_register_transport (const char *prefix,
    const SimaEv74TransportOps *ops);

/* Asks the transport to cancel a job that has not started (best effort):
 * the job still retires, with the transport's status, and holds its
 * descriptor and regions until then. */
void sima_ev74_job_cancel (SimaEv74Job *job);

SIMA_EV74_TESTING_END

#ifdef __cplusplus
}
#endif

#endif /* SIMA_EV74_TESTING_H */
