/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/status.h - status codes and messages.
 *
 * Every fallible call returns a SimaStatus by value. code 0 is SIMA_OK; any
 * other code comes with a message that names the field and the value that was
 * wrong ("input stride on axis 2 is 6 bytes, not a multiple of the 4-byte
 * scalar"), so callers (and the GStreamer elements) can show it verbatim.
 */
#ifndef SIMAAI_KERNELS_STATUS_H
#define SIMAAI_KERNELS_STATUS_H

#include <simaai/kernels/visibility.h>

#ifdef __cplusplus
extern "C" {
#endif

SIMA_PUBLIC_BEGIN

/* X(ENUM_SUFFIX, value, "stable-name"). Values and names are stable: append
 * new codes, never renumber or rename (they cross the EV74 boundary and show
 * up in logs and tests). */
#define SIMA_STATUS_CODES(X)                                                   \
  X (OK, 0, "ok")                                                              \
  X (INVALID_ARGUMENT, 1, "invalid-argument")                                  \
  X (INVALID_ARITY, 2, "invalid-arity")                                        \
  X (INVALID_RANK, 3, "invalid-rank")                                          \
  X (INVALID_SHAPE, 4, "invalid-shape")                                        \
  X (SHAPE_MISMATCH, 5, "shape-mismatch")                                      \
  X (UNSUPPORTED_DTYPE, 6, "unsupported-dtype")                                \
  X (UNSUPPORTED_LAYOUT, 7, "unsupported-layout")                              \
  X (INVALID_STRIDES, 8, "invalid-strides")                                    \
  X (OVERLAPPING_STRIDES, 9, "overlapping-strides")                            \
  X (INVALID_TILING, 10, "invalid-tiling")                                     \
  X (INVALID_PARAMETER, 11, "invalid-parameter")                               \
  X (SIZE_OVERFLOW, 12, "size-overflow")                                       \
  X (NULL_BUFFER, 13, "null-buffer")                                           \
  X (CAPACITY_TOO_SMALL, 14, "capacity-too-small")                             \
  X (MISALIGNED_BUFFER, 15, "misaligned-buffer")                               \
  X (ADDRESS_OVERFLOW, 16, "address-overflow")                                 \
  X (OVERLAPPING_BUFFERS, 17, "overlapping-buffers")                           \
  X (UNSUPPORTED_FP_ENVIRONMENT, 18, "unsupported-fp-environment")          \
  X (DEVICE_UNAVAILABLE, 19, "device-unavailable")                          \
  X (CAPABILITY_MISSING, 20, "capability-missing")                          \
  X (NOT_REPRESENTABLE, 21, "not-representable")                            \
  X (INVALID_DESCRIPTOR, 22, "invalid-descriptor")                          \
  X (DMA_ERROR, 23, "dma-error")                                            \
  X (DEVICE_FAULT, 24, "device-fault")                                      \
  X (TIMEOUT, 25, "timeout")                                                \
  X (OUT_OF_RESOURCES, 26, "out-of-resources")                              \
  X (IMPORT_FAILED, 27, "import-failed")

typedef enum {
#define SIMA_STATUS_ENUM_(name, value, str) SIMA_##name = value,
  SIMA_STATUS_CODES (SIMA_STATUS_ENUM_)
#undef SIMA_STATUS_ENUM_
} SimaStatusCode;

enum { SIMA_STATUS_MESSAGE_SIZE = 160 };

typedef struct {
  SimaStatusCode code;
  char message[SIMA_STATUS_MESSAGE_SIZE]; /* NUL-terminated; "" when OK */
} SimaStatus;

/* The stable name of a code ("capacity-too-small"), "unknown" otherwise. */
const char *sima_status_code_name (SimaStatusCode code);

/* A success status. */
SimaStatus sima_status_ok (void);

/* A status with a printf-style message, truncated to fit the buffer. */
SimaStatus sima_status_make (SimaStatusCode code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__ ((format (printf, 2, 3)))
#endif
    ;

static inline int
sima_status_is_ok (const SimaStatus *status)
{
  return status->code == SIMA_OK;
}

SIMA_PUBLIC_END

#ifdef __cplusplus
}
#endif

#endif /* SIMAAI_KERNELS_STATUS_H */
