/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cpuinfo.c - the bench's header lines: the CPU model from /proc/cpuinfo
 * ("model name" on x86; the distinct "CPU implementer"/"CPU part" pairs,
 * the MIDR fields, on AArch64, which has no model name), the ISA from
 * CPUID (__builtin_cpu_supports) or the hardware capabilities, and the
 * kernels' own view (sima_cpu_isas).
 */
#define _GNU_SOURCE
#include "cpuinfo.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

#include "cpu/cpu.h"
#include "floor.h"

/* The value of a "key : value" line, newline stripped, or NULL. */
static const char *
value_of (char *line, const char *key)
{
  size_t n = strlen (key);
  char *v;

  if (strncmp (line, key, n) != 0 || (line[n] != ' ' && line[n] != '\t'
          && line[n] != ':'))
    return NULL;
  v = strchr (line, ':');
  if (v == NULL)
    return NULL;
  v++;
  while (*v == ' ' || *v == '\t')
    v++;
  v[strcspn (v, "\n")] = '\0';
  return v;
}

static void
print_model (FILE *f)
{
  FILE *ci = fopen ("/proc/cpuinfo", "r");
  char line[512], parts[256] = "", impl[32] = "";
  const char *v;

  if (ci == NULL) {
    fprintf (f, "cpu: unknown (no /proc/cpuinfo)\n");
    return;
  }
  while (fgets (line, sizeof line, ci) != NULL) {
    if ((v = value_of (line, "model name")) != NULL) {
      fprintf (f, "cpu: %s\n", v);
      fclose (ci);
      return;
    }
    if ((v = value_of (line, "CPU implementer")) != NULL)
      snprintf (impl, sizeof impl, "%s", v);
    else if ((v = value_of (line, "CPU part")) != NULL) {
      char pair[80];
      snprintf (pair, sizeof pair, " implementer %s part %s", impl, v);
      if (strstr (parts, pair) == NULL
          && strlen (parts) + strlen (pair) < sizeof parts)
        strcat (parts, pair);
    }
  }
  fclose (ci);
  fprintf (f, "cpu:%s\n", parts[0] != '\0' ? parts : " unknown");
}

static void
print_isa (FILE *f)
{
  fprintf (f, "isa:");
#if defined(__x86_64__) || defined(__i386__)
  /* the features the kernels and the floor may use, as CPUID reports them
   * (AVX and AVX-512 also need the OS to save their registers, which
   * __builtin_cpu_supports checks) */
#define FEATURE(name) if (__builtin_cpu_supports (name))                    \
    fprintf (f, " %s", name)
  FEATURE ("sse2");
  FEATURE ("sse4.1");
  FEATURE ("sse4.2");
  FEATURE ("avx");
  FEATURE ("avx2");
  FEATURE ("fma");
  FEATURE ("f16c");
  FEATURE ("avx512f");
  FEATURE ("avx512bw");
  FEATURE ("avx512vl");
  FEATURE ("avx512dq");
  FEATURE ("avx512vbmi");
  FEATURE ("avx512vbmi2");
  FEATURE ("avx512vnni");
  FEATURE ("avx512bf16");
  FEATURE ("avx512fp16");
#undef FEATURE
#elif defined(__aarch64__) && defined(__linux__)
  {
    unsigned long hw = getauxval (AT_HWCAP);
    /* HWCAP bits of the Linux arm64 ABI (asm/hwcap.h) */
    if (hw & (1ul << 1))
      fprintf (f, " asimd");
    if (hw & (1ul << 9))
      fprintf (f, " fphp");
    if (hw & (1ul << 10))
      fprintf (f, " asimdhp");
    if (hw & (1ul << 20))
      fprintf (f, " asimddp");
    if (hw & (1ul << 22))
      fprintf (f, " sve");
  }
#else
  fprintf (f, " (not read on this architecture)");
#endif
  fprintf (f, "\n");
}

void
sima_bench_print_cpu (FILE *f)
{
  static const struct { unsigned bit; const char *name; } isas[] = {
    {SIMA_ISA_SSE41, "sse41"}, {SIMA_ISA_AVX2, "avx2"},
    {SIMA_ISA_F16C, "f16c"}, {SIMA_ISA_AVX512, "avx512"},
    {SIMA_ISA_NEON, "neon"},
  };
  unsigned have = sima_cpu_isas ();
  const char *disable = getenv ("SIMA_KERNELS_DISABLE");
  size_t i;

  print_model (f);
  fprintf (f, "cores: %ld online\n", sysconf (_SC_NPROCESSORS_ONLN));
  print_isa (f);
  fprintf (f, "kernels (sima_cpu_isas):");
  for (i = 0; i < sizeof isas / sizeof isas[0]; i++)
    if (have & isas[i].bit)
      fprintf (f, " %s", isas[i].name);
  if (have == 0)
    fprintf (f, " none (scalar leaves)");
  if (disable != NULL)
    fprintf (f, " (SIMA_KERNELS_DISABLE=%s)", disable);
  fprintf (f, "\nfloor isa: %s\n", sima_floor_best ()->isa);
}
