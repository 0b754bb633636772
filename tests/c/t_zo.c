/*
** tests/c/t_zo.c -- zeroth-order optimizers: es, twopoint, gsmooth.
**
** (1) Unbiasedness.  On f(x) = 1/2 x'Ax - b'x (n = 4, A dense SPD) each
**     method's estimate g_hat = x_0 - x_1 (one step from x_0 with lr = 1,
**     driven outside a run) is drawn K = 40000 times from a seeded
**     generator.  The smoothed function of a quadratic is f + const, so
**     E g_hat = grad f(x_0) = A x_0 - b exactly, whatever the smoothing
**     scale: the mean is checked per coordinate within 4 standard errors,
**     at a large scale (0.5) where a biased estimator would show.
** (2) Variance against the closed forms: es (u ~ N(0, I), m pairs):
**     Var_i = (g_i^2 + ||g||^2) / m; twopoint (u on the sphere):
**     Var_i = (n (||g||^2 + 2 g_i^2) / (n + 2) - g_i^2) / m; within 4
**     standard errors of the sample variance (its se from the fourth
**     central moment, sqrt((m4 - s^4) / K)).
** (3) Counts: 2m function evaluations per step (es, twopoint), m + 1
**     (gsmooth), no gradient calls, outside a run and in one.
** (4) Each reaches loss - f* < 1e-8 on the same quadratic with a stated
**     step size, scale and budget (gsmooth with mu = 1e-6: its forward
**     difference leaves zero-mean noise mu/2 (u'Au) u at x*, a loss
**     floor of order mu^2).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "olt.h"
#include "problem.h"
#include "rng.h"
#include "run.h"
#include "tap.h"

#define SEED 20261202u
#define N 4
#define K 40000

/* f = 1/2 x'Ax - b'x: A = Q diag(1, 2, 3, 4) Q' for a fixed rotation Q */
static double A[N][N], B[N] = {1, -2, 0.5, 3};
static const double X0[N] = {0.3, -1, 2, 0.7};

static void make_a (void)
{
  /* a fixed SPD matrix: M'M + I with M of small integers */
  static const double M[N][N] = {{1, 2, 0, -1}, {0, 1, 1, 2},
                                 {-1, 0, 2, 1}, {2, -1, 1, 0}};
  int i, j, k;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      double s = i == j ? 1 : 0;
      for (k = 0; k < N; k++) s += M[k][i] * M[k][j];
      A[i][j] = s / 4;
    }
}

static int quad_fdf (void *ud, const double *x, double *f, double *g,
                     ol_err *e)
{
  int i, j;
  double s = 0;
  (void)ud;
  (void)e;
  for (i = 0; i < N; i++) {
    double ax = 0;
    for (j = 0; j < N; j++) ax += A[i][j] * x[j];
    if (g != NULL) g[i] = ax - B[i];
    s += 0.5 * x[i] * ax - B[i] * x[i];
  }
  if (f != NULL) *f = s;
  return OL_OK;
}

/* grad f at x */
static void grad (const double *x, double *g)
{
  quad_fdf(NULL, x, NULL, g, NULL);
}

typedef struct zo_case {
  const char *name;
  const char *scale;     /* name of the smoothing parameter */
  double m;              /* directions (pairs) per step */
  int evals;             /* function evaluations per step */
  int var;               /* 1 es, 2 twopoint closed form, 0 none */
} zo_case;

/* K draws of g_hat = x0 - x1 with lr = 1; mean, variance, the fourth
** central moment per coordinate; the context's counts after K steps. */
static int draws (const ol_problem *p, const zo_case *z, double scale,
                  double *mean, double *var, double *m4, long *nfev,
                  long *ngev)
{
  const ol_method_type *m;
  double par[16], x[N], xa[N], (*G)[N] = malloc(sizeof(double[N]) * K);
  ol_ctx c;
  ol_rng rng;
  ol_err e;
  void *st = NULL;
  int i, k, good = G != NULL;
  m = olt_method(z->name, par, "lr", 1.0, z->scale, scale, "m", z->m,
                 (char *)NULL);
  if (m == NULL || !good) goto out;
  st = calloc(1, m->size);
  memset(&c, 0, sizeof c);
  ol_rng_seed(&rng, SEED, 0);
  memcpy(x, X0, sizeof x);
  memcpy(xa, X0, sizeof xa);
  c.p = p;
  c.n = N;
  c.x = x;
  c.xavg = xa;
  c.sched = 1;
  c.rng = &rng;
  if (st == NULL || m->init(st, par, &c, &e) != OL_OK) {
    diag("%s init failed", z->name);
    good = 0;
    goto out;
  }
  for (k = 0; k < K; k++) {
    memcpy(x, X0, sizeof x);
    if (m->step(st, &c, &e) != OL_OK) {
      diag("%s step: %s", z->name, e.msg);
      good = 0;
      goto out;
    }
    for (i = 0; i < N; i++) G[k][i] = X0[i] - x[i];
  }
  *nfev = c.nfev;
  *ngev = c.ngev;
  for (i = 0; i < N; i++) {
    double s = 0, s2 = 0, s4 = 0;
    for (k = 0; k < K; k++) s += G[k][i];
    mean[i] = s / K;
    for (k = 0; k < K; k++) {
      double d = G[k][i] - mean[i];
      s2 += d * d;
      s4 += d * d * d * d;
    }
    var[i] = s2 / (K - 1);
    m4[i] = s4 / K;
  }
out:
  if (st != NULL && m != NULL) m->fini(st);
  free(st);
  free(G);
  return good;
}

static void test_estimator (const ol_problem *p, const zo_case *z)
{
  double g[N], mean[N], var[N], m4[N], gg = 0;
  long nfev = -1, ngev = -1;
  int i, worst = 0;
  double zmax = 0, vzmax = 0;
  grad(X0, g);
  for (i = 0; i < N; i++) gg += g[i] * g[i];
  if (!ok(draws(p, z, 0.5, mean, var, m4, &nfev, &ngev), "%s (m = %g): "
          "%d draws", z->name, z->m, K))
    return;
  for (i = 0; i < N; i++) {
    double zs = fabs(mean[i] - g[i]) / sqrt(var[i] / K);
    if (zs > zmax) {
      zmax = zs;
      worst = i;
    }
  }
  ok(zmax <= 4, "%s (m = %g, %s = 0.5): mean of g_hat = grad f per "
     "coordinate within 4 se (worst coordinate %d: %.5g vs %.5g, %.2f se)",
     z->name, z->m, z->scale, worst, mean[worst], g[worst], zmax);
  if (z->var) {
    for (i = 0; i < N; i++) {
      double want = z->var == 1 ? (g[i] * g[i] + gg) / z->m
        : (N * (gg + 2 * g[i] * g[i]) / (N + 2) - g[i] * g[i]) / z->m;
      double se = sqrt((m4[i] - var[i] * var[i]) / K);
      double zs = fabs(var[i] - want) / se;
      if (zs > vzmax) {
        vzmax = zs;
        worst = i;
      }
    }
    ok(vzmax <= 4, "%s (m = %g): variance per coordinate = closed form "
       "within 4 se (worst coordinate %d: %.2f se)", z->name, z->m, worst,
       vzmax);
  }
  is_int(nfev, (long)z->evals * K, "%s (m = %g): %d function evaluations "
         "per step", z->name, z->m, z->evals);
  is_int(ngev, 0, "%s (m = %g): no gradient evaluations", z->name, z->m);
}

/* In a run: counts and convergence to f* within budget. */
static void test_run (const ol_problem *p, const zo_case *z, double lr,
                      double scale, long iters)
{
  double par[16], fstar, xs[N];
  const ol_method_type *m = olt_method(z->name, par, "lr", lr, "m", z->m,
                                       z->scale, scale, (char *)NULL);
  ol_run_opts o = olt_opts(iters, 0, OL_MSET_OF(OL_MET_LOSS));
  ol_run *r;
  int i, j;
  /* x* = A^{-1} b by Gauss-Jordan on the 4 x 4 system */
  {
    double M[N][N + 1];
    for (i = 0; i < N; i++) {
      for (j = 0; j < N; j++) M[i][j] = A[i][j];
      M[i][N] = B[i];
    }
    for (i = 0; i < N; i++) {
      double piv = M[i][i];
      int k;
      for (j = 0; j <= N; j++) M[i][j] /= piv;
      for (k = 0; k < N; k++)
        if (k != i) {
          double f = M[k][i];
          for (j = 0; j <= N; j++) M[k][j] -= f * M[i][j];
        }
    }
    for (i = 0; i < N; i++) xs[i] = M[i][N];
    quad_fdf(NULL, xs, &fstar, NULL, NULL);
  }
  o.seed = SEED;
  if (m == NULL || (r = olt_go(p, m, par, &o)) == NULL) {
    ok(0, "%s: runs", z->name);
    return;
  }
  is_int(ol_run_iter(r), iters, "%s: runs its budget of %ld steps", z->name,
         iters);
  is_int(ol_run_nfev(r), (long)z->evals * iters, "%s in a run: %d function "
         "evaluations per step", z->name, z->evals);
  is_int(ol_run_ngev(r), 0, "%s in a run: no gradient evaluations",
         z->name);
  ok(ol_run_last(r, OL_MET_LOSS) - fstar < 1e-8, "%s (lr = %g, %s = %g): "
     "loss - f* = %.3g < 1e-8 after %ld steps", z->name, lr, z->scale, scale,
     ol_run_last(r, OL_MET_LOSS) - fstar, iters);
  ol_run_free(r);
}

int main (void)
{
  static const zo_case cases[] = {
    {"es", "sigma", 1, 2, 1},
    {"es", "sigma", 3, 6, 1},
    {"twopoint", "mu", 1, 2, 2},
    {"twopoint", "mu", 3, 6, 2},
    {"gsmooth", "mu", 1, 2, 0},
    {"gsmooth", "mu", 3, 4, 0},
  };
  ol_problem *p;
  ol_err e;
  size_t i;
  make_a();
  diag("seed %u", SEED);
  p = ol_problem_custom(N, quad_fdf, 0, NULL, NULL, &e);
  if (p == NULL || ol_problem_set_x0(p, X0, N, &e) != OL_OK) {
    ok(0, "zo: the test quadratic (%s)", e.msg);
    ol_problem_free(p);
    return done();
  }
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
    test_estimator(p, &cases[i]);
  test_run(p, &cases[0], 0.02, 1e-2, 3000);
  test_run(p, &cases[2], 0.02, 1e-2, 3000);
  /* gsmooth's floor at x* is O(mu^2) (mu/2 (u'Au) u stays): a small mu */
  test_run(p, &cases[4], 0.02, 1e-6, 3000);
  ol_problem_free(p);
  return done();
}
