/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dq_divide_cases.h - the parameter matrix of the exhaustive divide
 * convention tests, shared by the A65 test (tests/kernels) and the EV74
 * emulator test (tests/ev74) so both backends face the same cases.
 *
 * Zero points: the int32 ends (rounded to binary32 before the subtraction),
 * the INT8 edges and their neighbours, and YOLOv8n head 0's dq_zp (-61).
 * dq_scales: ordinary normals, powers of two (the quotient is exact or a
 * pure rescaling), subnormals (the smallest gives infinities: 2^149 * |d|
 * overflows), values near FLT_MAX (subnormal and tiny results), the six
 * YOLOv8n dq_scales of ../shared/INTEROP.md rounded to binary32 once (as a
 * property set from the JSON's double does), and scales for which
 * RNE(d / s) and RNE(d * RNE(1 / s)) differ for many q (10, 7, 3).
 */
#ifndef SIMA_TESTS_DQ_DIVIDE_CASES_H
#define SIMA_TESTS_DQ_DIVIDE_CASES_H

#include <float.h>
#include <math.h>
#include <stdint.h>

#define DQ_DIVIDE_N_ZPS 9
#define DQ_DIVIDE_N_SCALES 22

static const int32_t dq_divide_zps[DQ_DIVIDE_N_ZPS] = { INT32_MIN, -129,
  -128, -61, 0, 1, 127, 128, INT32_MAX };

/* The YOLOv8n heads' dq_scale as SiMa's JSON writes them (doubles). */
static const double dq_divide_yolov8n[6] = { 11.328456438342892,
  13.655735144659944, 14.041570531577957, 9.636191223407769,
  6.634204286335957, 5.471951716200586 };

static inline void
dq_divide_scales (float s[DQ_DIVIDE_N_SCALES])
{
  int i = 0, h;

  s[i++] = 1.0f / 127.0f;
  s[i++] = 0.3f;
  s[i++] = 1.1f;
  s[i++] = 1.0f;                    /* powers of two */
  s[i++] = 2.0f;
  s[i++] = ldexpf (1.0f, -20);
  s[i++] = ldexpf (1.0f, 100);
  s[i++] = ldexpf (1.0f, -126);     /* the smallest normal */
  s[i++] = ldexpf (1.0f, -130);     /* subnormals */
  s[i++] = ldexpf (0x7fffff, -149); /* the largest subnormal */
  s[i++] = ldexpf (3.0f, -149);
  s[i++] = ldexpf (1.0f, -149);     /* the smallest subnormal */
  s[i++] = FLT_MAX;                 /* near FLT_MAX: tiny results */
  s[i++] = 3.4e38f;
  s[i++] = 10.0f;                   /* divide != multiply by 1/s */
  s[i++] = 7.0f;
  for (h = 0; h < 6; h++)
    s[i++] = (float) dq_divide_yolov8n[h];
}

#endif /* SIMA_TESTS_DQ_DIVIDE_CASES_H */
