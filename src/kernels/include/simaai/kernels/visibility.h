/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simaai/kernels/visibility.h - what the shared libraries export.
 *
 * The project builds with -fvisibility=hidden, so a function of
 * libsimakernels-1.0 or libsimaev74-1.0 is exported only when a public
 * header declares it between SIMA_PUBLIC_BEGIN and SIMA_PUBLIC_END. Every
 * public header that declares functions wraps them so; private headers (the
 * SIMD leaves, the firmware, the emulator) do not, and their functions stay
 * inside their library (docs/libraries.md). A region rather than a macro on
 * each declaration: a function added to a public header is public without
 * anyone remembering an annotation, and tests/install checks that the
 * exported symbols are exactly the declared ones.
 *
 * Applications need nothing from this header: default visibility is what
 * their declarations would have anyway, and when an application itself
 * builds with -fvisibility=hidden it is what lets its calls into the
 * libraries link.
 */
#ifndef SIMAAI_KERNELS_VISIBILITY_H
#define SIMAAI_KERNELS_VISIBILITY_H

#if defined(__GNUC__) || defined(__clang__)
#define SIMA_PUBLIC_BEGIN _Pragma ("GCC visibility push(default)")
#define SIMA_PUBLIC_END _Pragma ("GCC visibility pop")
#else
#define SIMA_PUBLIC_BEGIN
#define SIMA_PUBLIC_END
#endif

#endif /* SIMAAI_KERNELS_VISIBILITY_H */
