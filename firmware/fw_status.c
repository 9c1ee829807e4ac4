/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Status messages inside the device image, where there is no printf: the
 * sima_status_make() of the core's status_message.c, with a small
 * formatter for the conversions the core's messages use (%s %c %d %u %x
 * with l/ll/z and '#', %% ; %g prints the FP32 bits in hex). The emulator
 * links the core's own status.c instead; tests/firmware checks that the
 * firmware closure built with this file needs nothing from libc beyond
 * memcpy-like helpers.
 */
#include <simaai/kernels/status.h>

#include <stdarg.h>
#include <string.h>

typedef struct {
  char *buf;
  size_t size, used;
} Out;

static void
put (Out *o, char c)
{
  if (o->used + 1 < o->size)
    o->buf[o->used++] = c;
}

static void
put_unsigned (Out *o, unsigned long long v, unsigned base, int alt)
{
  char digits[24];
  int n = 0;

  if (alt && base == 16) {
    put (o, '0');
    put (o, 'x');
  }
  do {
    digits[n++] = "0123456789abcdef"[v % base];
    v /= base;
  } while (v != 0);
  while (n > 0)
    put (o, digits[--n]);
}

static void
format (Out *o, const char *fmt, va_list ap)
{
  for (; *fmt != '\0'; fmt++) {
    int alt = 0, longs = 0, size_t_arg = 0, precision_arg = 0;
    if (*fmt != '%') {
      put (o, *fmt);
      continue;
    }
    fmt++;
    if (*fmt == '#') {
      alt = 1;
      fmt++;
    }
    if (fmt[0] == '.' && fmt[1] == '*') {
      precision_arg = 1;
      fmt += 2;
    }
    while (*fmt == 'l') {
      longs++;
      fmt++;
    }
    if (*fmt == 'z') {
      size_t_arg = 1;
      fmt++;
    }
    switch (*fmt) {
      case 's': {
        int limit = precision_arg ? va_arg (ap, int) : -1;
        const char *s = va_arg (ap, const char *);
        for (; s != NULL && *s != '\0' && limit != 0; s++, limit--)
          put (o, *s);
        break;
      }
      case 'c':
        put (o, (char) va_arg (ap, int));
        break;
      case 'd': {
        long long v = longs >= 2 ? va_arg (ap, long long)
            : longs == 1 ? va_arg (ap, long) : va_arg (ap, int);
        if (v < 0)
          put (o, '-');
        put_unsigned (o, v < 0 ? 0ull - (unsigned long long) v
            : (unsigned long long) v, 10, 0);
        break;
      }
      case 'u':
      case 'x': {
        unsigned long long v = size_t_arg ? va_arg (ap, size_t)
            : longs >= 2 ? va_arg (ap, unsigned long long)
            : longs == 1 ? va_arg (ap, unsigned long) : va_arg (ap, unsigned);
        put_unsigned (o, v, *fmt == 'x' ? 16 : 10, alt);
        break;
      }
      case 'g': {
        float f = (float) va_arg (ap, double);
        unsigned bits;
        memcpy (&bits, &f, sizeof bits);
        put_unsigned (o, bits, 16, 1);
        break;
      }
      case '%':
        put (o, '%');
        break;
      default:
        return;                 /* unknown conversion: stop, stay safe */
    }
  }
}

SimaStatus
sima_status_make (SimaStatusCode code, const char *fmt, ...)
{
  SimaStatus status;
  Out o;
  va_list ap;

  status.code = code;
  o.buf = status.message;
  o.size = sizeof status.message;
  o.used = 0;
  va_start (ap, fmt);
  format (&o, fmt, ap);
  va_end (ap);
  status.message[o.used] = '\0';
  return status;
}
