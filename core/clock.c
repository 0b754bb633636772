/*
** core/clock.c -- ol_now, the monotonic clock every layer paces and times
** with (see ol.h).
*/
#include <time.h>

#include "ol.h"

double ol_now (void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
