/*
** tests/bench/bench.h -- timing helpers shared by the benchmark programs:
** a clock, the median of repeated timings, and the end of a benchmark's
** run.
**
** The clock is the process's CPU time (every benchmark runs on one core:
** OPENBLAS_NUM_THREADS=1), the clock the Lua benchmarks read (os.clock),
** so that a ratio of a C floor to a Lua side measured in another process
** compares like with like, and time the process spent waiting for a CPU
** on a loaded machine is not counted on either side.
*/
#ifndef BENCH_H
#define BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "run.h"

static double bench_now (void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
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


/* Free run r and problem p; 0 when r stopped for reason want, else 1
** after saying on stderr why the benchmark's run stopped otherwise. */
static inline int bench_finish (const char *who, ol_run *r, ol_problem *p,
                                int want)
{
  int bad = ol_run_reason(r) != want;
  if (bad)
    fprintf(stderr, "%s: engine stopped: %s %s\n", who,
            ol_stop_name(ol_run_reason(r)), ol_run_message(r));
  ol_run_free(r);
  ol_problem_free(p);
  return bad;
}

#endif
