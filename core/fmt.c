/*
** core/fmt.c -- ol_fmtnum, the one number format of optlab's output (see
** ol.h): %g with a given number of significant digits, without the sign
** that printf gives a negative NaN or a negative zero.
*/
#include <math.h>
#include <stdio.h>

#include "ol.h"

char *ol_fmtnum (char *buf, size_t size, double v, int sig)
{
  if (size == 0) return buf;
  if (sig < 1) sig = 1;
  if (sig > 17) sig = 17;
  if (v != v) snprintf(buf, size, "nan");
  else if (isinf(v)) snprintf(buf, size, v > 0 ? "inf" : "-inf");
  else {
    if (v == 0) v = 0.0;    /* -0 == 0: drops the sign */
    snprintf(buf, size, "%.*g", sig, v);
  }
  return buf;
}
