/*
** tests/bench/w1.c -- W1: Adam (lr 1e-3, beta1 0.9, beta2 0.999, eps 1e-8)
** on 2-D Rosenbrock from (-1.2, 1), 10^6 steps.
**
** Times the plain C floor (one hand-written loop, gradient inlined) and the
** same work through the run engine (registry problem + registry method,
** ol_run_advance), each as the median of several repetitions, and prints
** one line per variant:  W1 <variant> ns/step <median> ... final (x, y).
** The two finals must agree: the engine does the same arithmetic.
** usage: w1 [steps] [reps]
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "run.h"

static void floor_loop (long N, double *xo, double *yo)
{
  const double lr = 1e-3, b1 = 0.9, b2 = 0.999, eps = 1e-8;
  double x = -1.2, y = 1.0, mx = 0, my = 0, vx = 0, vy = 0, b1t = 1, b2t = 1;
  for (long t = 1; t <= N; t++) {
    double gx = -2.0 * (1.0 - x) - 400.0 * x * (y - x * x);
    double gy = 200.0 * (y - x * x);
    mx = b1 * mx + (1 - b1) * gx;
    my = b1 * my + (1 - b1) * gy;
    vx = b2 * vx + (1 - b2) * gx * gx;
    vy = b2 * vy + (1 - b2) * gy * gy;
    b1t *= b1;
    b2t *= b2;
    x -= lr * (mx / (1 - b1t)) / (sqrt(vx / (1 - b2t)) + eps);
    y -= lr * (my / (1 - b1t)) / (sqrt(vy / (1 - b2t)) + eps);
  }
  *xo = x;
  *yo = y;
}

static int engine (long N, double *xo, double *yo, double *secs)
{
  ol_err e;
  const ol_problem_type *pt = ol_problem_type_find("rosenbrock");
  const ol_method_type *mt = ol_method_find("adam");
  ol_pval pv[8] = {{0}};
  double par[8];
  ol_run_opts o;
  ol_problem *p;
  ol_run *r;
  int i;
  if (!pt || !mt) return 1;
  for (i = 0; i < pt->nparams; i++) pv[i].num = pt->params[i].def;
  for (i = 0; i < mt->nparams; i++) par[i] = mt->params[i].def;
  p = ol_problem_new(pt, pv, &e);
  if (!p) return 1;
  ol_run_opts_default(&o);
  o.iters = N;
  o.metrics = OL_MSET_OF(OL_MET_LOSS, OL_MET_GRADNORM);
  r = ol_run_new(p, mt, par, &o, &e);
  if (!r) { ol_problem_free(p); return 1; }
  {
    double t0 = bench_now();
    ol_run_advance(r, N);
    *secs = bench_now() - t0;
  }
  *xo = ol_run_x(r)[0];
  *yo = ol_run_x(r)[1];
  ol_run_free(r);
  ol_problem_free(p);
  return 0;
}

int main (int argc, char **argv)
{
  long N = argc > 1 ? atol(argv[1]) : 1000000;
  int reps = argc > 2 ? atoi(argv[2]) : 7, k;
  double tf[64], te[64], x = 0, y = 0, ex = 0, ey = 0;
  if (reps < 1 || reps > 64) reps = 7;
  for (k = 0; k < reps; k++) {
    double t0 = bench_now();
    floor_loop(N, &x, &y);
    tf[k] = bench_now() - t0;
    if (engine(N, &ex, &ey, &te[k])) {
      fprintf(stderr, "w1: engine run failed\n");
      return 1;
    }
  }
  printf("W1 floor  ns/step %.2f  final (%.9f, %.9f)\n",
         1e9 * bench_median(tf, reps) / N, x, y);
  printf("W1 engine ns/step %.2f  final (%.9f, %.9f)\n",
         1e9 * bench_median(te, reps) / N, ex, ey);
  return 0;
}
