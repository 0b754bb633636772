/*
** tests/bench/w7.c -- W7: one game step on a 100 x 100 matrix game
** against its floor, the two matrix-vector products it needs.
**
** The engine: multiplicative weights (core/games/mwu.c) in self-play on
** problem.matrixgame{m = n = 100, seed = 1} (zero-sum, entries uniform on
** [-1, 1)), stepped by ol_run_advance with only the loss recorded (at the
** run's log-spaced times), so a step is the oracle (A y and A'x: two
** dgemv, and f = -<x, g_x>), the regret and average accounts
** (core/games/play.c) and the exponential update.  The floor: the same
** two cblas_dgemv calls (y <- A x row-major, z <- A'x), timed in this
** program on the same matrix, nothing else.  Each timing is the median of
** reps repetitions of steps steps.  Prints:  W7 <variant> ns <median per
** step>; run with OPENBLAS_NUM_THREADS=1 for the single-core figures.
** usage: w7 [steps] [reps] [size]
*/
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "method.h"
#include "problem.h"

int main (int argc, char **argv)
{
  long steps = argc > 1 ? atol(argv[1]) : 100000;
  int reps = argc > 2 ? atoi(argv[2]) : 5, m = argc > 3 ? atoi(argv[3]) : 100;
  const ol_problem_type *t = ol_problem_type_find("matrixgame");
  const ol_method_type *mw = ol_method_find("mwu");
  double tf[64], te[64], par[1] = {0.01}, *x, *u, *v, t0, sink = 0;
  ol_pval pv[16];
  ol_problem *p;
  ol_run_opts o;
  ol_err e;
  long s;
  int r, i;
  if (steps < 1 || reps < 1 || reps > 64 || m < 2 || t == NULL ||
      t->nparams > 16 || mw == NULL) {
    fprintf(stderr, "usage: w7 [steps >= 1] [1 <= reps <= 64] [size >= 2]\n");
    return 2;
  }
  /* (1) the game: matrixgame{m = n = size, seed = 1} */
  for (i = 0; i < t->nparams; i++) {
    pv[i].num = t->params[i].def;
    pv[i].arr = NULL;
    pv[i].rows = pv[i].cols = 0;
  }
  pv[ol_param_find(t->params, t->nparams, "m")].num = m;
  pv[ol_param_find(t->params, t->nparams, "n")].num = m;
  if ((p = ol_problem_new(t, pv, &e)) == NULL) {
    fprintf(stderr, "w7: %s\n", e.msg);
    return 1;
  }
  x = malloc(sizeof *x * (size_t)m * 3);
  if (x == NULL) return 1;
  u = x + m;
  v = u + m;
  for (i = 0; i < m; i++) x[i] = 1.0 / m;
  ol_run_opts_default(&o);
  o.metrics = OL_MSET_OF(OL_MET_LOSS);
  for (r = 0; r < reps; r++) {
    ol_run *run;
    /* (2) the floor: A y and A'x on the same payoff */
    t0 = bench_now();
    for (s = 0; s < steps; s++) {
      cblas_dgemv(CblasRowMajor, CblasNoTrans, m, m, -1.0, p->payoff, m, x,
                  1, 0.0, u, 1);
      cblas_dgemv(CblasRowMajor, CblasTrans, m, m, 1.0, p->payoff, m, x, 1,
                  0.0, v, 1);
      x[s % m] += 1e-300 * u[0];   /* a dependence the compiler must keep */
    }
    tf[r] = bench_now() - t0;
    sink += u[0] + v[0];
    /* (3) the engine: steps MWU steps */
    o.iters = steps;
    if ((run = ol_run_new(p, mw, par, &o, &e)) == NULL) {
      fprintf(stderr, "w7: %s\n", e.msg);
      return 1;
    }
    t0 = bench_now();
    ol_run_advance(run, steps);
    te[r] = bench_now() - t0;
    if (ol_run_reason(run) != OL_STOP_BUDGET) {
      fprintf(stderr, "w7: engine stopped: %s %s\n",
              ol_stop_name(ol_run_reason(run)), ol_run_message(run));
      return 1;
    }
    ol_run_free(run);
  }
  printf("W7 size=%d steps=%ld reps=%d (checksum %.3g)\n", m, steps, reps,
         sink);
  printf("W7 floor ns %.1f  (two dgemv %d x %d)\n",
         1e9 * bench_median(tf, reps) / steps, m, m);
  printf("W7 engine ns %.1f  (mwu step through ol_run)\n",
         1e9 * bench_median(te, reps) / steps);
  free(x);
  ol_problem_free(p);
  return 0;
}
