/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cpuinfo.h - what the bench ran on, read at run time (never written in
 * the docs by hand): the CPU's model and ISA, and which ISAs the kernels
 * dispatch to (sima_cpu_isas, masked by SIMA_KERNELS_DISABLE).
 */
#ifndef SIMA_BENCH_CPUINFO_H
#define SIMA_BENCH_CPUINFO_H

#include <stdio.h>

/* Prints the "cpu:", "cores:", "isa:" and "kernels:" lines. */
void sima_bench_print_cpu (FILE *f);

#endif /* SIMA_BENCH_CPUINFO_H */
