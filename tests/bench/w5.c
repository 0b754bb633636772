/*
** tests/bench/w5.c -- W5: L-BFGS (m = 10, c1 = 1e-4, c2 = 0.9) on the
** d-dimensional (1000 unless given) chained Rosenbrock from (-1.2, 1, ...) to gradnorm
** 1e-6.  Chained = sum_{i<n} 100 (x_{i+1} - x_i^2)^2 + (1 - x_i)^2, our
** problem rosenbrock and scipy.optimize.rosen (the peers' "chained"
** variant of w5_lbfgs.py), not the separable "extended" form.
**
** Engine: optim.lbfgs through ol_run_advance with tol = 1e-6, time per
** solve (median of reps).  Floor, as the peers' w5_lbfgs_floor estimates
** it but measured in this run: nfev x (one f+g of chained Rosenbrock,
** straight C, no loop-carried store) + nit x (one two-loop recursion with
** m = 10 pairs in d = 1000 over CBLAS ddot / daxpy), with nit and nfev
** the engine's own counts (nfev: every gradient evaluation of the run,
** which since L-BFGS hands its accepted point to the run are the line
** search's and x0's only; the run's own, mgev, must be 0).
** Prints  W5 engine ms/solve <median> nit <k> nfev <k> |g| <final> d <d>
**         W5 floor  ms/solve <estimate> (fg us <t>, twoloop us <t>) d <d>
** usage: w5 [reps [d]]
*/
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "run.h"

enum { M = 10 };
static int D = 1000;
static double *x, *g, *q, *S[M], *Y[M], rho[M], al[M];

static double chain_fg (const double *v, double *gr)
{
  double f = 0;
  int i;
  gr[0] = -400 * v[0] * (v[1] - v[0] * v[0]) - 2 * (1 - v[0]);
  for (i = 1; i < D - 1; i++) {
    double t = v[i + 1] - v[i] * v[i], tp = v[i] - v[i - 1] * v[i - 1];
    gr[i] = -400 * v[i] * t - 2 * (1 - v[i]) + 200 * tp;
  }
  for (i = 0; i < D - 1; i++) {
    double t = v[i + 1] - v[i] * v[i], u = 1 - v[i];
    f += 100 * t * t + u * u;
  }
  gr[D - 1] = 200 * (v[D - 1] - v[D - 2] * v[D - 2]);
  return f;
}

/* The two-loop recursion over CBLAS level-1 calls (OpenBLAS kernels are
** vectorised whatever this file's flags), pairs in order, gamma from the
** newest; then the x update of the line search. */
static void twoloop (void)
{
  double gam;
  int k;
  cblas_dcopy(D, g, 1, q, 1);
  for (k = M - 1; k >= 0; k--) {
    al[k] = rho[k] * cblas_ddot(D, S[k], 1, q, 1);
    cblas_daxpy(D, -al[k], Y[k], 1, q, 1);
  }
  gam = cblas_ddot(D, S[M - 1], 1, Y[M - 1], 1)
    / cblas_ddot(D, Y[M - 1], 1, Y[M - 1], 1);
  cblas_dscal(D, gam, q, 1);
  for (k = 0; k < M; k++) {
    double b = rho[k] * cblas_ddot(D, Y[k], 1, q, 1);
    cblas_daxpy(D, al[k] - b, S[k], 1, q, 1);
  }
  cblas_daxpy(D, -1e-12, q, 1, x, 1);
}

static int engine (double *secs, long *nit, long *nfev, double *gn)
{
  ol_err e;
  const ol_problem_type *pt = ol_problem_type_find("rosenbrock");
  const ol_method_type *mt = ol_method_find("lbfgs");
  ol_pval pv[8] = {{0}};
  double par[8] = {10, 1e-4, 0.9}, t0;
  ol_run_opts o;
  ol_problem *p;
  ol_run *r;
  if (!pt || !mt) return 1;
  pv[0].num = D;
  if ((p = ol_problem_new(pt, pv, &e)) == NULL) return 1;
  ol_run_opts_default(&o);
  o.iters = 100000;
  o.tol = 1e-6;
  o.metrics = OL_MSET_OF(OL_MET_LOSS, OL_MET_GRADNORM);
  if ((r = ol_run_new(p, mt, par, &o, &e)) == NULL) {
    ol_problem_free(p);
    return 1;
  }
  t0 = bench_now();
  ol_run_advance(r, o.iters);
  *secs = bench_now() - t0;
  *nit = ol_run_iter(r);
  *nfev = ol_run_ngev(r) + ol_run_mgev(r);
  *gn = ol_run_last(r, OL_MET_GRADNORM);
  return bench_finish("w5", r, p, OL_STOP_TOL);
}

int main (int argc, char **argv)
{
  int reps = argc > 1 ? atoi(argv[1]) : 5, r, i, k;
  const int K = 20000;
  double te[64], tfg[64], ttl[64], sink = 0, gn = 0, mfg, mtl;
  long nit = 0, nfev = 0;
  if (reps < 1 || reps > 64) reps = 5;
  if (argc > 2 && (D = atoi(argv[2])) < 2) D = 1000;
  x = malloc(sizeof(double) * (size_t)D);
  g = malloc(sizeof(double) * (size_t)D);
  q = malloc(sizeof(double) * (size_t)D);
  if (x == NULL || g == NULL || q == NULL) return 1;
  for (k = 0; k < M; k++)
    if ((S[k] = malloc(sizeof(double) * (size_t)D)) == NULL
        || (Y[k] = malloc(sizeof(double) * (size_t)D)) == NULL)
      return 1;
  for (k = 0; k < M; k++) {
    rho[k] = 1.0 / (k + 1);
    for (i = 0; i < D; i++) {
      S[k][i] = 1e-3 * ((i + k) % 7);
      Y[k][i] = 1e-3 * ((i * k) % 5 + 1);
    }
  }
  for (r = 0; r < reps; r++) {
    double t0, t1, t2;
    if (engine(&te[r], &nit, &nfev, &gn)) return 1;
    for (i = 0; i < D; i++) x[i] = i % 2 ? 1.0 : -1.2;
    t0 = bench_now();
    for (k = 0; k < K; k++) {
      sink += chain_fg(x, g);
      x[k % D] += 1e-15;
    }
    t1 = bench_now();
    for (k = 0; k < K; k++) twoloop();
    t2 = bench_now();
    tfg[r] = (t1 - t0) / K;
    ttl[r] = (t2 - t1) / K;
  }
  mfg = bench_median(tfg, reps);
  mtl = bench_median(ttl, reps);
  printf("W5 engine ms/solve %.3f  nit %ld nfev %ld |g| %.3g d %d\n",
         1e3 * bench_median(te, reps), nit, nfev, gn, D);
  printf("W5 floor  ms/solve %.3f  (f+g %.3f us x %ld, two-loop %.3f us x "
         "%ld; sink %g) d %d\n", 1e3 * (nfev * mfg + nit * mtl), 1e6 * mfg,
         nfev, 1e6 * mtl, nit, sink + q[3], D);
  return 0;
}
