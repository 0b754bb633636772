/*
** tests/c/t_history.c -- which iterations a run keeps (core/run.h,
** "History"): the dense start, L points per octave, the multiples of a
** stride that doubles past U of them, the stop's point; and the bound on
** the number kept, whatever the length.
**
** Truth: the rule recomputed here by brute force over every t, with its
** own arithmetic (powers of two by repeated doubling, no shared code).
** The method does nothing (x stays at x0, where the gradient is not 0), so
** millions of steps cost only the records.
*/
#include "olt.h"
#include "run.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int quad_fdf (void *ud, const double *x, double *f, double *g,
                     ol_err *e)
{
  (void)ud; (void)e;
  if (f != NULL) *f = 0.5 * x[0] * x[0];
  if (g != NULL) g[0] = x[0];
  return OL_OK;
}

/* The log points' spacing at t for L = 2^lgl: 1 below 2L, else 2^j / L
** for t in [2^j, 2^(j+1)). */
static long spacing (long t, int lgl)
{
  long lo = 1, s = 1;
  int j = 0;
  while (lo <= t / 2) {
    lo *= 2;
    j++;
  }
  while (j > lgl) {
    s *= 2;
    j--;
  }
  return s;
}

/* Expected kept times of a run of T steps with cap: fills want, returns
** the count. */
static long expected (long T, int cap, long *want, long max)
{
  long U = cap / 2, stride = 1, t, k = 0;
  int lgl = 1;
  while ((2L << lgl) <= cap / 64) lgl++;
  while (T / stride >= U) stride *= 2;
  for (t = 0; t <= T; t++)
    if (t % stride == 0 || t % spacing(t, lgl) == 0 || t == T) {
      if (k < max) want[k] = t;
      k++;
    }
  return k;
}

/* Log points in [0, T] plus U + 2: the bound of run.h. */
static long bound (long T, int cap)
{
  long U = cap / 2, t = 0, n = 0, s;
  int lgl = 1;
  while ((2L << lgl) <= cap / 64) lgl++;
  /* t runs over the log points: the next one is t + spacing(t), which
  ** lands on the next octave's start exactly (a multiple of the spacing) */
  while (t <= T) {
    s = spacing(t, lgl);
    n++;
    t += s;
  }
  return n + U + 2;
}

static void check (long T, int cap, long *want, long max)
{
  ol_problem *p;
  ol_run *r;
  ol_run_opts o;
  ol_err e;
  long k, i, bad = -1;
  double x0 = 1;
  p = ol_problem_custom(1, quad_fdf, 0, NULL, NULL, &e);
  ol_run_opts_default(&o);
  o.iters = T;
  o.cap = cap;
  o.x0 = &x0;
  r = ol_run_new(p, &olt_nop, NULL, &o, &e);
  if (r == NULL) {
    ok(0, "history: run created (%s)", e.msg);
    ol_problem_free(p);
    return;
  }
  ol_run_advance(r, T);
  k = expected(T, cap, want, max);
  if (k <= max && k == ol_run_len(r))
    for (i = 0; i < k && bad < 0; i++)
      if (ol_run_times(r)[i] != want[i]) bad = i;
  ok(k <= max && k == ol_run_len(r) && bad < 0,
     "history: %ld steps, cap %d: the kept times are the rule's %ld "
     "(got %d%s)", T, cap, k, ol_run_len(r),
     bad >= 0 ? ", first difference" : "");
  if (bad >= 0)
    diag("at %ld: got t = %ld, want %ld", bad, ol_run_times(r)[bad],
         want[bad]);
  ok(ol_run_len(r) <= bound(T, cap),
     "history: %d points are within the bound %ld", ol_run_len(r),
     bound(T, cap));
  ol_run_free(r);
  ol_problem_free(p);
}

int main (void)
{
  static long want[1 << 16];
  long max = (long)(sizeof want / sizeof want[0]), i, b;
  check(100, 16, want, max);
  check(5000, 4096, want, max);
  check(3000000, 4096, want, max);
  for (i = 0; i < 128; i++)
    if (want[i] != i) break;
  ok(i == 128, "history: cap 4096 keeps every step below 128");
  check(1000000, 64, want, max);
  check(200000, 100000, want, max);
  /* the bound for long runs, as stated in run.h and the man page */
  b = bound(1000000000L, 4096);
  ok(b <= 3650, "history: a 10^9-step run keeps at most %ld points with "
     "the default cap (<= 3650 stated)", b);
  b = bound(1L << 62, 4096);
  ok(b <= 2048 + 2 + 63 * 64, "history: never more than %ld points for "
     "any length (U + 2 + 63 L = %d)", b, 2048 + 2 + 63 * 64);
  if (getenv("OPTLAB_QUICK") == NULL) check(100000000L, 4096, want, max);
  return done();
}
