/*
** tests/bench/bench.h -- timing helpers shared by the benchmark programs:
** a monotonic clock and the median of repeated timings.
*/
#ifndef BENCH_H
#define BENCH_H

#include <stdlib.h>
#include <time.h>

static double bench_now (void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int bench_cmp (const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median of the n timings in t (sorted in place). */
static double bench_median (double *t, int n)
{
  qsort(t, n, sizeof *t, bench_cmp);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

#endif
