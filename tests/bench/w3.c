/*
** tests/bench/w3.c -- W3: Newton on L2 logistic regression, n = 2000
** samples, d = 500 features, lambda = 1e-3 (problem logreg, seed 1).
**
** Floor: the same pure Newton iteration written as one straight loop over
** CBLAS / LAPACK on the same data (regenerated here exactly as
** core/problems/logreg.c makes it): z = A w (dgemv), the weights, g = A'r
** + lambda w (dgemv), B = diag(sqrt(s(1-s)/n)) A, H = B'B + lambda I
** (dsyrk), then dposv (Cholesky factor and solve) and w -= H^-1 g.
** Engine: optim.newton{step = "pure"} through ol_run_advance, and the
** default step = "backtrack" (one more f evaluation per step) for
** comparison.  Each variant runs 'iters' steps from w = 0, median of
** 'reps'; prints  W3 <variant> ms/iter <median> f <final f>.
** The finals must agree: the engine does the same arithmetic.
** usage: w3 [iters] [reps]
*/
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "rng.h"
#include "run.h"

enum { N = 2000, D = 500 };
static const double LAMBDA = 1e-3;
static double A[N * D], B[N * D], yv[N], z[N], sq[N], H[D * D], g[D], w[D];

/* The data of logreg{n=2000, d=500, seed=1}: A, then w_true, then y. */
static void data (void)
{
  ol_rng rng;
  int i;
  ol_rng_seed(&rng, 1, 0);
  for (i = 0; i < N; i++) ol_rng_normals(&rng, A + (size_t)i * D, D);
  ol_rng_normals(&rng, w, D);
  for (i = 0; i < D; i++) w[i] /= sqrt((double)D);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, N, D, 1.0, A, D, w, 1, 0.0, z, 1);
  for (i = 0; i < N; i++) {
    double m = -z[i], s = m >= 0 ? exp(-m) / (1 + exp(-m)) : 1 / (1 + exp(m));
    yv[i] = ol_rng_uniform(&rng) < s ? 1.0 : -1.0;
  }
}

static double loss (void)
{
  double s = 0;
  int i;
  cblas_dgemv(CblasRowMajor, CblasNoTrans, N, D, 1.0, A, D, w, 1, 0.0, z, 1);
  for (i = 0; i < N; i++) {
    double m = yv[i] * z[i];
    s += m > 0 ? log1p(exp(-m)) : -m + log1p(exp(m));
  }
  return s / N + 0.5 * LAMBDA * cblas_ddot(D, w, 1, w, 1);
}

static int floor_newton (int iters)
{
  int it, i, j;
  memset(w, 0, sizeof w);
  for (it = 0; it < iters; it++) {
    cblas_dgemv(CblasRowMajor, CblasNoTrans, N, D, 1.0, A, D, w, 1, 0.0,
                z, 1);
    for (i = 0; i < N; i++) {
      double p = 1 / (1 + exp(-z[i]));
      sq[i] = sqrt(p * (1 - p) / N);
      z[i] = -yv[i] / (1 + exp(yv[i] * z[i])) / N;
    }
    cblas_dcopy(D, w, 1, g, 1);
    cblas_dgemv(CblasRowMajor, CblasTrans, N, D, 1.0, A, D, z, 1, LAMBDA,
                g, 1);
    for (i = 0; i < N; i++)
      for (j = 0; j < D; j++)
        B[(size_t)i * D + j] = sq[i] * A[(size_t)i * D + j];
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, D, N, 1.0, B, D, 0.0,
                H, D);
    for (j = 0; j < D; j++) H[j * D + j] += LAMBDA;
    /* row-major upper = column-major lower: no transposed copy */
    if (LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', D, 1, H, D, g, D) != 0)
      return 1;
    cblas_daxpy(D, -1.0, g, 1, w, 1);
  }
  return 0;
}

static int engine (int iters, int rule, double *secs, double *f)
{
  ol_err e;
  const ol_problem_type *pt = ol_problem_type_find("logreg");
  const ol_method_type *mt = ol_method_find("newton");
  ol_pval pv[8] = {{0}};
  double par[8] = {0}, t0;
  ol_run_opts o;
  ol_problem *p;
  ol_run *r;
  if (!pt || !mt) return 1;
  pv[0].num = N;
  pv[1].num = D;
  pv[2].num = LAMBDA;
  pv[3].num = 1;
  par[0] = rule;
  par[1] = 1;
  if ((p = ol_problem_new(pt, pv, &e)) == NULL) return 1;
  ol_run_opts_default(&o);
  o.iters = iters;
  o.metrics = OL_MSET_OF(OL_MET_LOSS, OL_MET_GRADNORM);
  if ((r = ol_run_new(p, mt, par, &o, &e)) == NULL) {
    ol_problem_free(p);
    return 1;
  }
  t0 = bench_now();
  ol_run_advance(r, iters);
  *secs = bench_now() - t0;
  *f = ol_run_last(r, OL_MET_LOSS);
  return bench_finish("w3", r, p, OL_STOP_BUDGET);
}

int main (int argc, char **argv)
{
  int iters = argc > 1 ? atoi(argv[1]) : 10;
  int reps = argc > 2 ? atoi(argv[2]) : 5, k;
  double tf[64], tp[64], tb[64], ff = 0, fp = 0, fb = 0;
  if (reps < 1 || reps > 64) reps = 5;
  if (iters < 1) iters = 10;
  data();
  for (k = 0; k < reps; k++) {
    double t0 = bench_now();
    if (floor_newton(iters)) {
      fprintf(stderr, "w3: floor dposv failed\n");
      return 1;
    }
    tf[k] = bench_now() - t0;
    ff = loss();
    if (engine(iters, 0, &tp[k], &fp) || engine(iters, 2, &tb[k], &fb)) {
      fprintf(stderr, "w3: engine run failed\n");
      return 1;
    }
  }
  printf("W3 floor     ms/iter %.3f  f %.15f\n",
         1e3 * bench_median(tf, reps) / iters, ff);
  printf("W3 pure      ms/iter %.3f  f %.15f\n",
         1e3 * bench_median(tp, reps) / iters, fp);
  printf("W3 backtrack ms/iter %.3f  f %.15f\n",
         1e3 * bench_median(tb, reps) / iters, fb);
  return 0;
}
