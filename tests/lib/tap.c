/*
** tests/lib/tap.c -- see tap.h.
*/
#include "tap.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int ntests, nfailed;

static int report (int cond, const char *fmt, va_list ap)
{
  ntests++;
  if (!cond) nfailed++;
  printf("%sok %d - ", cond ? "" : "not ", ntests);
  vprintf(fmt, ap);
  putchar('\n');
  fflush(stdout);
  return cond;
}

int ok (int cond, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  report(cond, fmt, ap);
  va_end(ap);
  return cond;
}

int is_near (double got, double want, double tol, const char *fmt, ...)
{
  va_list ap;
  int cond = fabs(got - want) <= tol;
  va_start(ap, fmt);
  report(cond, fmt, ap);
  va_end(ap);
  if (!cond)
    printf("#   want %.17g\n#    got %.17g (tol %g)\n", want, got, tol);
  return cond;
}

int is_close (double got, double want, double rtol, const char *fmt, ...)
{
  va_list ap;
  double tol = rtol * (fabs(want) > 1 ? fabs(want) : 1);
  int cond = fabs(got - want) <= tol;
  va_start(ap, fmt);
  report(cond, fmt, ap);
  va_end(ap);
  if (!cond)
    printf("#   want %.17g\n#    got %.17g (rtol %g)\n", want, got, rtol);
  return cond;
}

int is_int (long got, long want, const char *fmt, ...)
{
  va_list ap;
  int cond = got == want;
  va_start(ap, fmt);
  report(cond, fmt, ap);
  va_end(ap);
  if (!cond) printf("#   want %ld\n#    got %ld\n", want, got);
  return cond;
}

int is_str (const char *got, const char *want, const char *fmt, ...)
{
  va_list ap;
  int cond = got && want && strcmp(got, want) == 0;
  va_start(ap, fmt);
  report(cond, fmt, ap);
  va_end(ap);
  if (!cond)
    printf("#   want '%s'\n#    got '%s'\n", want ? want : "(null)",
           got ? got : "(null)");
  return cond;
}

void diag (const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  printf("# ");
  vprintf(fmt, ap);
  putchar('\n');
  va_end(ap);
}

int done (void)
{
  printf("1..%d\n", ntests);
  return nfailed ? 1 : 0;
}
