/*
** tests/bench/live.c -- LIVE: what live parameters (issue 24) cost a run
** that does not use them.  gd (lr 1e-3) on 2-D Rosenbrock from (-1.2, 1),
** 10^6 steps, timed four ways, interleaved, each the median of several
** repetitions:
**   floor    one hand-written gd loop, gradient inlined
**   none     the run engine with no changes (the common case: the step's
**            only addition is one compare of the replay cursor)
**   pending  the engine with one replayed change due after the budget, so
**            the replay is looked at before every step (the cost when used)
**   set      the engine stepped in slices of 1000 with ol_run_set between
**            them (lr alternating 1e-3, 1.1e-3: j:set at a prompt's pace
**            and faster)
** One line per variant:  LIVE <variant> ns/step <median>  final (x, y).
** The finals of floor and none agree (the same arithmetic).
** usage: live [steps] [reps]
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "run.h"

static void floor_loop (long N, double *xo, double *yo)
{
  const double lr = 1e-3;
  double x = -1.2, y = 1.0;
  for (long t = 1; t <= N; t++) {
    double gx = -2.0 * (1.0 - x) - 400.0 * x * (y - x * x);
    double gy = 200.0 * (y - x * x);
    x -= lr * gx;
    y -= lr * gy;
  }
  *xo = x;
  *yo = y;
}

enum { NONE, PENDING, SET };

static int engine (int how, long N, double *xo, double *yo, double *secs)
{
  ol_err e;
  const ol_problem_type *pt = ol_problem_type_find("rosenbrock");
  const ol_method_type *mt = ol_method_find("gd");
  ol_pval pv[8] = {{0}};
  double par[1] = {1e-3};
  ol_change later = {0, 0, 1e-3};
  ol_run_opts o;
  ol_problem *p;
  ol_run *r;
  int i;
  if (!pt || !mt) return 1;
  for (i = 0; i < pt->nparams; i++) pv[i].num = pt->params[i].def;
  p = ol_problem_new(pt, pv, &e);
  if (!p) return 1;
  ol_run_opts_default(&o);
  o.iters = N;
  o.metrics = OL_MSET_OF(OL_MET_LOSS, OL_MET_GRADNORM);
  if (how == PENDING) {
    later.t = N + 1;
    o.changes = &later;
    o.nchanges = 1;
  }
  r = ol_run_new(p, mt, par, &o, &e);
  if (!r) {
    fprintf(stderr, "live: %s\n", e.msg);
    ol_problem_free(p);
    return 1;
  }
  {
    double t0 = bench_now();
    if (how == SET) {
      long k;
      for (k = 0; k < N; k += 1000) {
        if (ol_run_set(r, 0, (k / 1000) % 2 ? 1.1e-3 : 1e-3, &e) != OL_OK)
          break;
        ol_run_advance(r, 1000);
      }
    }
    else ol_run_advance(r, N);
    *secs = bench_now() - t0;
  }
  *xo = ol_run_x(r)[0];
  *yo = ol_run_x(r)[1];
  return bench_finish("live", r, p, OL_STOP_BUDGET);
}

int main (int argc, char **argv)
{
  static const char *const names[3] = {"none", "pending", "set"};
  long N = argc > 1 ? atol(argv[1]) : 1000000;
  int reps = argc > 2 ? atoi(argv[2]) : 7, k, w;
  double tf[64], te[3][64], x = 0, y = 0, ex[3] = {0}, ey[3] = {0};
  if (reps < 1 || reps > 64) reps = 7;
  if (N < 1000) N = 1000;
  for (k = 0; k < reps; k++) {
    double t0 = bench_now();
    floor_loop(N, &x, &y);
    tf[k] = bench_now() - t0;
    for (w = 0; w < 3; w++)
      if (engine(w, N, &ex[w], &ey[w], &te[w][k])) return 1;
  }
  printf("LIVE floor   ns/step %.2f  final (%.9f, %.9f)\n",
         1e9 * bench_median(tf, reps) / N, x, y);
  for (w = 0; w < 3; w++)
    printf("LIVE %-7s ns/step %.2f  final (%.9f, %.9f)\n", names[w],
           1e9 * bench_median(te[w], reps) / N, ex[w], ey[w]);
  return 0;
}
