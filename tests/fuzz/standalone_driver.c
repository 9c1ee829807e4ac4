/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * standalone_driver.c - runs a libFuzzer target without libFuzzer, so the
 * seed corpus and every saved reproducer are replayed by the normal test
 * suite, with any compiler.
 *
 *   replay FILE-OR-DIR...
 *
 * Each argument is a file, or a directory whose files (and the files of its
 * direct subdirectories) are run in name order. A target reports a failure
 * by aborting, as under libFuzzer; reaching the end means every input
 * passed. Exit status 1 if an argument cannot be read or no input ran.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static unsigned long inputs_run;

static int
run_file (const char *path)
{
  FILE *f = fopen (path, "rb");
  uint8_t *buf = NULL;
  size_t size = 0, cap = 0, n;

  if (f == NULL) {
    perror (path);
    return 1;
  }
  do {
    if (size == cap) {
      uint8_t *p = realloc (buf, cap = cap ? 2 * cap : 4096);
      if (p == NULL) {
        fprintf (stderr, "%s: out of memory\n", path);
        free (buf);
        fclose (f);
        return 1;
      }
      buf = p;
    }
    n = fread (buf + size, 1, cap - size, f);
    size += n;
  } while (n > 0);
  fclose (f);
  /* an exact-size copy, as libFuzzer passes it: overreads stay visible to
   * the sanitizers */
  {
    uint8_t *exact = malloc (size > 0 ? size : 1);
    if (exact == NULL) {
      free (buf);
      return 1;
    }
    memcpy (exact, buf, size);
    free (buf);
    /* named first, so an abort in the target says which input it was */
    printf ("%s (%zu bytes)\n", path, size);
    fflush (stdout);
    LLVMFuzzerTestOneInput (exact, size);
    free (exact);
  }
  inputs_run++;
  return 0;
}

static int
by_name (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* depth 0: an argument; 1: a directory's entry; 2: its subdirectory's. */
static int
run_path (const char *path, int depth)
{
  struct stat sb;
  DIR *dir;
  struct dirent *e;
  char **names = NULL;
  size_t n = 0, cap = 0, i;
  int err = 0;

  if (stat (path, &sb) != 0) {
    perror (path);
    return 1;
  }
  if (!S_ISDIR (sb.st_mode))
    return run_file (path);
  if (depth > 1)
    return 0;                   /* recurse one level only */
  if ((dir = opendir (path)) == NULL) {
    perror (path);
    return 1;
  }
  while ((e = readdir (dir)) != NULL) {
    if (e->d_name[0] == '.')    /* ., .. and hidden files */
      continue;
    if (n == cap) {
      char **p = realloc (names, (cap = cap ? 2 * cap : 64) * sizeof *p);
      if (p == NULL)
        break;
      names = p;
    }
    names[n] = malloc (strlen (path) + strlen (e->d_name) + 2);
    if (names[n] == NULL)
      break;
    sprintf (names[n], "%s/%s", path, e->d_name);
    n++;
  }
  closedir (dir);
  qsort (names, n, sizeof *names, by_name);
  for (i = 0; i < n; i++) {
    err |= run_path (names[i], depth + 1);
    free (names[i]);
  }
  free (names);
  return err;
}

int
main (int argc, char **argv)
{
  int i, err = 0;

  if (argc < 2) {
    fprintf (stderr, "usage: %s FILE-OR-DIR...\n", argv[0]);
    return 2;
  }
  for (i = 1; i < argc; i++)
    err |= run_path (argv[i], 0);
  printf ("%lu inputs ran\n", inputs_run);
  return err || inputs_run == 0 ? 1 : 0;
}
