/*
** tests/c/t_problems.c -- the built-in problems against independent truth.
**
** Analytic gradients against central finite differences of the value at
** seeded random points; Hessians against finite differences of the
** gradient; known optima (f(x*) = f*, grad f(x*) = 0); the quadratic's
** spectrum via LAPACKE_dsyevd against the log-spaced eigenvalues; closed
** forms (geometric sums, log 2, payoffs by hand); and the errors the
** problem constructors must raise.
**
** Then the rest of the catalog, with its own seed: for rastrigin,
** himmelblau, beale, saddle, monkey, smoothabs, lasso, linreg, fsquad
** and reddi, the same derivative and optimum checks; finite sums (the
** components, averaged by the test, give f and grad f); data recovered
** from the oracles and checked with plain loops and LAPACK (linreg's
** normal equations, fsquad's closed-form x*, lasso's planted sparse
** signal); the pure Newton map x -> -x^3 on smoothabs; parameter errors.
*/
#include <lapacke.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "olt.h"
#include "problem.h"
#include "rng.h"
#include "tap.h"

#define SEED 20240517u

static ol_problem *mkgame (const double *A, int rows, int cols, ol_err *e)
{
  const ol_problem_type *t = ol_problem_type_find("matrixgame");
  ol_pval v[8];
  int i;
  memset(v, 0, sizeof v);
  for (i = 0; i < t->nparams && i < 8; i++) v[i].num = t->params[i].def;
  v[0].arr = A;
  v[0].rows = rows;
  v[0].cols = cols;
  return ol_problem_new(ol_problem_type_find("matrixgame"), v, e);
}

/* Entries in the list files, counted by the X-macros themselves. */
#define OL_PROBLEM(n) +1
static const int nlisted_problems = 0
#include "problems/list.h"
  ;
#undef OL_PROBLEM
#define OL_OPTIM(n) +1
#define OL_SAMPLER(n) +1
#define OL_DYNAMIC(n) +1
#define OL_VI(n) +1
#define OL_DIFFUSION(n) +1
#define OL_RL(n) +1
#define OL_DIST(n) +1
#define OL_SMC(n) +1
static const int nlisted_methods = 0
#include "optim/list.h"
#include "sample/list.h"
#include "games/list.h"
#include "vi/list.h"
#include "diffusion/list.h"
#include "rl/list.h"
#include "dist/list.h"
#include "smc/list.h"
  ;
#undef OL_OPTIM
#undef OL_SAMPLER
#undef OL_DYNAMIC
#undef OL_VI
#undef OL_DIFFUSION
#undef OL_RL
#undef OL_DIST
#undef OL_SMC

static void test_registry (void)
{
  static const char *const probs[] = {"quadratic", "rosenbrock", "logreg",
                                      "gauss2d", "matrixgame", "rps"};
  static const char *const meths[] = {"gd", "momentum", "nesterov",
                                      "adagrad", "rmsprop", "adam", "pgd",
                                      "mala", "rmplus"};
  int i, k = 0, bad = 0;
  for (i = 0; i < 6; i++) {
    const ol_problem_type *t = ol_problem_type_find(probs[i]);
    if (t == NULL || strcmp(t->name, probs[i]) != 0) bad++;
  }
  ok(bad == 0, "registry: every built-in problem is found by name");
  for (i = 0; ol_problem_types[i] != NULL; i++) k++;
  is_int(k, nlisted_problems, "registry: one problem type per list.h line, "
         "NULL-ended");
  bad = 0;
  for (i = 0; i < 9; i++) {
    const ol_method_type *m = ol_method_find(meths[i]);
    if (m == NULL || strcmp(m->name, meths[i]) != 0) bad++;
  }
  ok(bad == 0, "registry: every method is found by name");
  for (k = 0; ol_methods[k] != NULL; k++) ;
  is_int(k, nlisted_methods, "registry: one method per list.h line, "
         "NULL-ended");
  ok(ol_method_find("nope") == NULL && ol_problem_type_find("nope") == NULL
     && ol_method_find(NULL) == NULL, "registry: unknown names give NULL");
  ok(ol_method_find("mala")->family == OL_SAMPLER
     && ol_method_find("game.rmplus")->family == OL_DYNAMIC
     && ol_method_find("optim.rmplus")->family == OL_OPTIM
     && ol_method_find("adam")->family == OL_OPTIM,
     "registry: families as listed");
  bad = 0;
  for (i = 0; ol_methods[i] != NULL; i++) {
    const ol_method_type *m = ol_methods[i];
    int j;
    for (j = 0; j < m->nparams; j++)
      if (!(m->params[j].def >= m->params[j].lo
            && m->params[j].def <= m->params[j].hi)) bad++;
  }
  ok(bad == 0, "registry: every method default lies within its bounds");
}

static void test_quadratic (ol_rng *r)
{
  ol_err e;
  ol_problem *p;
  int n = 8, i, j, sym = 1;
  double cond = 1e3, H[64], w[8], off = 0, f, g[8], maxerr = 0;
  p = olt_problem("quadratic", &e, "n", 8.0, "cond", cond, (char *)NULL);
  ok(p != NULL, "quadratic: n=8 cond=1e3 is created");
  if (p == NULL) return;
  olt_derivs("quadratic{n=8, rotated}", p, r, 1.0);
  ok(p->xstar != NULL && olt_fval(p, p->xstar) == 0 && p->fstar == 0,
     "quadratic: f(x*) = f* = 0");
  is_near(olt_gnorm(p, p->xstar), 0, 0, "quadratic: grad f(x*) = 0");
  ok(p->x0[0] == 1 && p->x0[7] == 1, "quadratic: x0 = ones");
  p->hess(p->ud, p->x0, H, &e);
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if (H[i * n + j] != H[j * n + i]) sym = 0;
      if (i != j && fabs(H[i * n + j]) > off) off = fabs(H[i * n + j]);
    }
  ok(sym, "quadratic: H is exactly symmetric");
  ok(off > 1e-3, "quadratic: rotated H is not diagonal (max |H_ij| %.3g)",
     off);
  /* 1/2 x'Hx at x = e_0 is H_00 / 2 */
  {
    double x[8] = {1, 0, 0, 0, 0, 0, 0, 0};
    is_close(olt_fval(p, x), H[0] / 2, 1e-14, "quadratic: f(e_1) = H_11 / 2");
  }
  if (LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'U', n, H, n, w) != 0)
    ok(0, "quadratic: dsyevd succeeds");
  for (i = 0; i < n; i++) {
    double want = pow(cond, -(double)(n - 1 - i) / (n - 1));  /* ascending */
    double d = fabs(w[i] - want) / want;
    if (!(d <= maxerr)) maxerr = d;
  }
  ok(maxerr < 1e-10, "quadratic: eigenvalues of H are cond^(-i/(n-1)) "
     "(rel err %.2g)", maxerr);
  is_close(w[n - 1], 1, 1e-12, "quadratic: L = 1");
  is_close(w[0], 1 / cond, 1e-10, "quadratic: mu = 1/cond");
  ol_problem_free(p);

  p = olt_problem("quadratic", &e, "n", 8.0, "cond", cond, "seed", 2.0,
                  (char *)NULL);
  {
    ol_problem *q = olt_problem("quadratic", &e, "n", 8.0, "cond", cond,
                                (char *)NULL);
    double x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    ok(p && q && olt_fval(p, x) != olt_fval(q, x),
       "quadratic: the seed changes the rotation");
    ol_problem_free(q);
  }
  ol_problem_free(p);

  /* above QUAD_WHOLE (512) the rotation is built in slices (blocked QR):
  ** n = 700 is not a multiple of the panel (64) or tile (256) sizes */
  {
    volatile sig_atomic_t flag = 1;
    double *HH, *ww, herr = 0;
    n = 700;
    ol_intr = &flag;
    p = olt_problem("quadratic", &e, "n", (double)n, "cond", cond,
                    (char *)NULL);
    ok(p == NULL && e.code == OL_EINTR && strstr(e.msg, "interrupted"),
       "quadratic: a sliced build stops with OL_EINTR when ol_intr is set "
       "(%s)", e.msg);
    flag = 0;
    p = olt_problem("quadratic", &e, "n", (double)n, "cond", cond,
                    (char *)NULL);
    ol_intr = NULL;
    ok(p != NULL, "quadratic: n=700 (sliced build) is created");
    HH = malloc(sizeof(double) * (size_t)n * n);
    ww = malloc(sizeof(double) * (size_t)n);
    if (p != NULL && HH != NULL && ww != NULL) {
      p->hess(p->ud, p->x0, HH, &e);
      for (i = 0, sym = 1; i < n; i++)
        for (j = 0; j < i; j++)
          if (HH[i * n + j] != HH[j * n + i]) sym = 0;
      ok(sym, "quadratic: n=700, H is exactly symmetric");
      {
        double x[700];
        for (i = 0; i < n; i++) x[i] = i == 3;
        is_close(olt_fval(p, x), HH[3 * n + 3] / 2, 1e-13,
                 "quadratic: n=700, f(e_4) = H_44 / 2");
      }
      if (LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'U', n, HH, n, ww) != 0)
        ok(0, "quadratic: dsyevd succeeds");
      for (i = 0; i < n; i++) {
        double want = pow(cond, -(double)(n - 1 - i) / (n - 1));
        double d = fabs(ww[i] - want) / want;
        if (!(d <= herr)) herr = d;
      }
      ok(herr < 1e-10, "quadratic: n=700, eigenvalues of H are "
         "cond^(-i/(n-1)) (rel err %.2g)", herr);
    }
    free(HH);
    free(ww);
    ol_problem_free(p);
  }

  /* unrotated, large: f(ones) = 1/2 sum r^i, r = cond^(-1/(n-1)) */
  n = 1000000;
  p = olt_problem("quadratic", &e, "n", (double)n, "cond", 1e4, "rotate", 0.0,
                  (char *)NULL);
  ok(p != NULL && p->hess == NULL,
     "quadratic: n=1e6 unrotated is created, without a dense Hessian");
  if (p != NULL) {
    double rr = pow(1e4, -1.0 / (n - 1)), want;
    double *gg = malloc(sizeof(double) * n);
    want = 0.5 * (1 - pow(rr, n)) / (1 - rr);
    p->fdf(p->ud, p->x0, &f, gg, &e);
    is_close(f, want, 1e-9, "quadratic: f(ones) = 1/2 sum of the geometric "
             "spectrum (n=1e6)");
    is_close(gg[0], 1, 1e-15, "quadratic: unrotated gradient g_1 = L x_1");
    is_close(gg[n - 1], 1e-4, 1e-12,
             "quadratic: unrotated gradient g_n = mu x_n");
    free(gg);
    ol_problem_free(p);
  }
  p = olt_problem("quadratic", &e, "n", 6.0, "cond", 50.0, "rotate", 0.0,
                  (char *)NULL);
  if (p != NULL) {
    olt_derivs("quadratic{n=6, unrotated}", p, r, 1.0);
    p->fdf(p->ud, p->x0, &f, g, &e);
    ok(f > 0 && g[5] == 1.0 / 50, "quadratic: unrotated g_n = 1/cond at x0");
  }
  ol_problem_free(p);

  p = olt_problem("quadratic", &e, "n", 5000.0, (char *)NULL);
  ok(p == NULL && e.code == OL_EINVAL
     && strstr(e.msg, "rotate needs n <= 4096") != NULL,
     "quadratic: rotate with n > 4096 is an error (%s)", e.msg);
  p = olt_problem("quadratic", &e, "n", 1.0, (char *)NULL);
  ok(p != NULL && olt_fval(p, p->x0) == 0.5, "quadratic: n=1 is f = x^2/2");
  ol_problem_free(p);
}

static void test_rosenbrock (ol_rng *r)
{
  ol_err e;
  ol_problem *p = olt_problem("rosenbrock", &e, (char *)NULL);
  double x[2] = {-1.2, 1}, g[2], f;
  ok(p != NULL && p->n == 2, "rosenbrock: default n = 2");
  if (p == NULL) return;
  ok(p->x0[0] == -1.2 && p->x0[1] == 1, "rosenbrock: x0 = (-1.2, 1)");
  p->fdf(p->ud, x, &f, g, &e);
  /* by hand: t = 1 - 1.44 = -0.44, f = 100 t^2 + 2.2^2 = 24.2,
  ** g = (-400 (-1.2) t - 2 (2.2), 200 t) = (-215.6, -88) */
  is_close(f, 24.2, 1e-14, "rosenbrock: f(-1.2, 1) = 24.2");
  is_close(g[0], -215.6, 1e-14, "rosenbrock: df/dx1(-1.2, 1) = -215.6");
  is_close(g[1], -88, 1e-14, "rosenbrock: df/dx2(-1.2, 1) = -88");
  olt_derivs("rosenbrock{n=2}", p, r, 0.5);
  is_near(olt_fval(p, p->xstar), 0, 0, "rosenbrock: f(x*) = 0");
  is_near(olt_gnorm(p, p->xstar), 0, 0, "rosenbrock: grad f(ones) = 0");
  ol_problem_free(p);

  p = olt_problem("rosenbrock", &e, "n", 7.0, (char *)NULL);
  ok(p != NULL && p->hess != NULL, "rosenbrock: n=7 with Hessian");
  if (p == NULL) return;
  olt_derivs("rosenbrock{n=7}", p, r, 0.5);
  ok(p->x0[5] == 1 && p->x0[6] == -1.2, "rosenbrock: x0 alternates");
  is_close(olt_fval(p, p->x0), 3 * 24.2 + 3 * 484, 1e-13,
           "rosenbrock: f(x0) = 3 (24.2 + 484) by hand");
  is_near(olt_gnorm(p, p->xstar), 0, 0, "rosenbrock{n=7}: grad f(x*) = 0");
  ol_problem_free(p);
}

static void test_logreg (ol_rng *r)
{
  ol_err e;
  ol_problem *p = olt_problem("logreg", &e, "n", 60.0, "d", 5.0, "lambda", 0.1,
                              (char *)NULL), *q;
  double x[5] = {0}, H[25], w[5], big[5];
  int i;
  ok(p != NULL && p->n == 5, "logreg: dimension is d");
  if (p == NULL) return;
  is_close(olt_fval(p, x), log(2.0), 1e-15, "logreg: f(0) = log 2");
  olt_derivs("logreg{n=60, d=5}", p, r, 1.0);
  p->hess(p->ud, p->x0, H, &e);
  LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'U', 5, H, 5, w);
  ok(w[0] > 0.1 && w[4] < 0.1 + 0.25 * 5 * 3,
     "logreg: Hessian eigenvalues in [lambda, lambda + ...] (%.3g..%.3g)",
     w[0], w[4]);
  for (i = 0; i < 5; i++) big[i] = (i % 2 ? -1 : 1) * 1e4;
  ok(isfinite(olt_fval(p, big)) && olt_fval(p, big) > 0,
     "logreg: the loss stays finite at |x| = 1e4 (stable log1p branch)");
  ok(olt_graderr(p, big) < 1e-6, "logreg: gradient correct far out too");
  q = olt_problem("logreg", &e, "n", 60.0, "d", 5.0, "lambda", 0.1,
                  (char *)NULL);
  for (i = 0; i < 5; i++) x[i] = 0.3 * i - 0.5;
  ok(q != NULL && olt_fval(p, x) == olt_fval(q, x),
     "logreg: same seed, same data");
  ol_problem_free(q);
  q = olt_problem("logreg", &e, "n", 60.0, "d", 5.0, "lambda", 0.1, "seed", 7.0,
                  (char *)NULL);
  ok(q != NULL && olt_fval(p, x) != olt_fval(q, x),
     "logreg: another seed, other data");
  ol_problem_free(q);
  ol_problem_free(p);
  p = olt_problem("logreg", &e, "n", 300.0, "d", 12.0, "lambda", 0.0,
                  (char *)NULL);
  if (p != NULL) olt_derivs("logreg{lambda=0}", p, r, 2.0);
  ol_problem_free(p);
}

static void test_gauss2d (ol_rng *r)
{
  ol_err e;
  ol_problem *p = olt_problem("gauss2d", &e, (char *)NULL);
  double H[4], P[4], x[2], det;
  if (!ok(p != NULL && p->kind == OL_DENSITY, "gauss2d: a density"))
    return;
  olt_derivs("gauss2d", p, r, 1.0);
  ok(p->mean[0] == 1 && p->mean[1] == -1 && p->xstar[0] == 1
     && p->xstar[1] == -1, "gauss2d: mean = x* = mu = (1, -1)");
  ok(p->cov[0] == 1 && p->cov[3] == 0.25 && p->cov[1] == 0.25
     && p->cov[2] == 0.25, "gauss2d: cov = [[1, .25], [.25, .25]]");
  is_near(olt_fval(p, p->xstar), 0, 0, "gauss2d: U(mu) = 0");
  is_near(olt_gnorm(p, p->xstar), 0, 0, "gauss2d: grad U(mu) = 0");
  p->hess(p->ud, p->x0, H, &e);
  /* inverse of the covariance by hand */
  det = 1 * 0.25 - 0.25 * 0.25;
  P[0] = 0.25 / det; P[1] = P[2] = -0.25 / det; P[3] = 1 / det;
  ok(fabs(H[0] - P[0]) < 1e-12 && fabs(H[1] - P[1]) < 1e-12
     && fabs(H[2] - P[2]) < 1e-12 && fabs(H[3] - P[3]) < 1e-12,
     "gauss2d: Hessian = Sigma^-1");
  x[0] = 2; x[1] = 0;   /* x - mu = (1, 1) */
  is_close(olt_fval(p, x), 0.5 * (P[0] + 2 * P[1] + P[3]), 1e-14,
           "gauss2d: U = 1/2 d'Sigma^-1 d");
  ok(p->x0[0] == 0 && p->x0[1] == 0, "gauss2d: x0 = (0, 0)");
  ol_problem_free(p);
  p = olt_problem("gauss2d", &e, "s1", 0.0, (char *)NULL);
  ok(p == NULL && e.code == OL_EINVAL, "gauss2d: s1 = 0 is an error (%s)",
     e.msg);
}

static void test_games (ol_rng *r)
{
  static const double A[6] = {1, -2, 0.5, 3, 0, -1};   /* 2 x 3 */
  ol_err e;
  ol_problem *p = mkgame(A, 2, 3, &e);
  double z[5] = {0.25, 0.75, 0.2, 0.3, 0.5}, g[6], f, want;
  int i, j;
  if (!ok(p != NULL && p->kind == OL_GAME && p->n == 5,
          "matrixgame: 2 x 3 game, n = 5"))
    return;
  ok(p->set.kind == OL_SET_SIMPLEX && p->set.nblocks == 2
     && p->set.blocks[0] == 2 && p->set.blocks[1] == 3,
     "matrixgame: product of simplices {2, 3}");
  ok(p->rows == 2 && p->cols == 3 && p->payoff != NULL
     && memcmp(p->payoff, A, sizeof A) == 0, "matrixgame: payoff kept");
  ok(p->x0[0] == 0.5 && p->x0[1] == 0.5 && fabs(p->x0[2] - 1.0 / 3) < 1e-16,
     "matrixgame: x0 uniform");
  olt_derivs("matrixgame", p, r, 0);
  p->fdf(p->ud, z, &f, g, &e);
  want = 0;
  for (i = 0; i < 2; i++)
    for (j = 0; j < 3; j++) want += z[i] * A[i * 3 + j] * z[2 + j];
  is_close(f, want, 1e-15, "matrixgame: f = x'Ay");
  /* g = -(A y, -A'x) */
  is_close(g[0], -(1 * 0.2 - 2 * 0.3 + 0.5 * 0.5), 1e-15,
           "matrixgame: g_x = -A y");
  is_close(g[3], 0.25 * -2 + 0.75 * 0, 1e-15, "matrixgame: g_y = A'x");
  is_close(olt_fval(p, z), f, 1e-15, "matrixgame: value alone agrees");
  ol_problem_free(p);
  /* without A: a seeded random game (issue 12; tests/c/t_games.c) */
  p = ol_problem_new(ol_problem_type_find("matrixgame"), NULL, &e);
  ok(p != NULL && p->n == 6, "matrixgame: missing A gives the random 3 x 3 "
     "game");
  ol_problem_free(p);

  p = ol_problem_new(ol_problem_type_find("rps"), NULL, &e);
  if (!ok(p != NULL && p->n == 6, "rps: created without parameters"))
    return;
  ok(p->x0[0] == 0.5 && p->x0[1] == 0.3 && p->x0[2] == 0.2
     && p->x0[3] == 0.2 && p->x0[4] == 0.5 && p->x0[5] == 0.3,
     "rps: x0 = (0.5, 0.3, 0.2 | 0.2, 0.5, 0.3)");
  /* by hand: Ay = (-0.5 + 0.3, 0.2 - 0.3, -0.2 + 0.5) = (-0.2, -0.1, 0.3),
  ** x'Ay = -0.1 - 0.03 + 0.06 = -0.07 */
  p->fdf(p->ud, p->x0, &f, g, &e);
  is_close(f, -0.07, 1e-14, "rps: f(x0) = -0.07 by hand");
  ok(fabs(g[0] - 0.2) < 1e-15 && fabs(g[1] - 0.1) < 1e-15
     && fabs(g[2] + 0.3) < 1e-15, "rps: g_x(x0) = -A y by hand");
  /* A'x = (0.3 - 0.2, -0.5 + 0.2, 0.5 - 0.3) */
  ok(fabs(g[3] - 0.1) < 1e-15 && fabs(g[4] + 0.3) < 1e-15
     && fabs(g[5] - 0.2) < 1e-15, "rps: g_y(x0) = A'x by hand");
  is_near(olt_fval(p, p->xstar), 0, 1e-16,
          "rps: value at the equilibrium is 0");
  is_near(olt_gnorm(p, p->xstar), 0, 1e-15,
          "rps: both utility vectors vanish at the uniform equilibrium");
  ok(p->fstar == 0, "rps: f* = 0");
  olt_derivs("rps", p, r, 0);
  ol_problem_free(p);
}

#define SEED_CATALOG 20250301u
#define TWO_PI 6.283185307179586476925286766559

/* Average of the components (summed here, one by one) against fdf at
** three random points: max relative error of value and gradient. */
static double sumerr (const ol_problem *p, ol_rng *r, double scale)
{
  int k, j, n = p->n;
  long i;
  double *x = malloc(sizeof(double) * n), *g = malloc(sizeof(double) * n);
  double *gi = malloc(sizeof(double) * n), *gs = malloc(sizeof(double) * n);
  double worst = 0;
  ol_err e;
  for (k = 0; k < 3; k++) {
    double f, fi, fs = 0, d;
    for (j = 0; j < n; j++) {
      x[j] = p->x0[j] + scale * ol_rng_normal(r);
      gs[j] = 0;
    }
    for (i = 0; i < p->nsum; i++) {
      p->fdfi(p->ud, i, x, &fi, gi, &e);
      fs += fi;
      for (j = 0; j < n; j++) gs[j] += gi[j];
    }
    p->fdf(p->ud, x, &f, g, &e);
    d = fabs(fs / p->nsum - f) / (fabs(f) > 1 ? fabs(f) : 1);
    if (!(d <= worst)) worst = d;
    for (j = 0; j < n; j++) {
      d = fabs(gs[j] / p->nsum - g[j]) / (fabs(g[j]) > 1 ? fabs(g[j]) : 1);
      if (!(d <= worst)) worst = d;
    }
  }
  free(x); free(g); free(gi); free(gs);
  return worst;
}

static void test_catalog_registry (void)
{
  static const char *const names[] = {
    "rastrigin", "himmelblau", "beale", "saddle", "monkey", "smoothabs",
    "lasso", "linreg", "fsquad", "reddi"
  };
  int i, found = 0, made = 0, desc = 0;
  ol_err e;
  for (i = 0; i < 10; i++) {
    const ol_problem_type *t = ol_problem_type_find(names[i]);
    ol_problem *p;
    if (t != NULL && strcmp(t->name, names[i]) == 0 && t->doc != NULL)
      found++;
    p = olt_problem(names[i], &e, (char *)NULL);
    if (p != NULL) {
      made++;
      if (strncmp(p->desc, names[i], strlen(names[i])) == 0
          && strcmp(p->name, names[i]) == 0 && p->kind == OL_OBJECTIVE)
        desc++;
    }
    else diag("%s: %s", names[i], e.msg);
    ol_problem_free(p);
  }
  is_int(found, 10, "registry: the ten catalog problems are found by name");
  is_int(made, 10, "registry: each is created with its defaults");
  is_int(desc, 10, "registry: each names itself and its parameters in desc");
}

static void test_rastrigin (ol_rng *r)
{
  ol_err e;
  ol_problem *p = olt_problem("rastrigin", &e, "n", 5.0, "A", 10.0,
                              (char *)NULL);
  double H[25], x[5] = {0, 0, 0, 0, 0};
  ok(p != NULL, "rastrigin: n=5 A=10 is created");
  if (p == NULL) return;
  olt_derivs("rastrigin{n=5}", p, r, 0.7);
  ok(p->fstar == 0 && olt_fval(p, p->xstar) == 0 && olt_gnorm(p, p->xstar) == 0,
     "rastrigin: f(x*) = f* = 0 and grad f(0) = 0");
  /* f(2.5 ones) = 5 (6.25 - 10 cos(5 pi)) + 50 = 5 * 16.25 + 50 */
  is_close(olt_fval(p, p->x0), 131.25, 1e-13,
           "rastrigin: f(x0 = 2.5) = 131.25");
  p->hess(p->ud, x, H, &e);
  is_close(H[0], 2 + TWO_PI * TWO_PI * 10, 1e-14,
           "rastrigin: H(0)_11 = 2 + 4 pi^2 A");
  x[0] = 1;   /* 50 + (1 - 10) + 4 (0 - 10) */
  is_close(olt_fval(p, x), 1, 1e-14,
     "rastrigin: f(e_1) = 1");
  ol_problem_free(p);
  p = olt_problem("rastrigin", &e, "n", 3.0, "A", 0.0, (char *)NULL);
  {
    double y[3] = {1, 2, 3};
    is_close(olt_fval(p, y), 14, 1e-15, "rastrigin: A = 0 gives ||x||^2");
  }
  ol_problem_free(p);
}

static void test_2d (ol_rng *r)
{
  static const double mins[4][2] = {
    {3, 2}, {-2.805118, 3.131312}, {-3.779310, -3.283186},
    {3.584428, -1.848126}
  };
  ol_err e;
  ol_problem *p;
  double H[4], x[2];
  int i, pd = 0;
  double fmax = 0;

  p = olt_problem("himmelblau", &e, (char *)NULL);
  ok(p != NULL, "himmelblau: created");
  if (p == NULL) return;
  olt_derivs("himmelblau", p, r, 2.0);
  ok(p->x0[0] == 0 && p->x0[1] == 0 && olt_fval(p, p->x0) == 170,
     "himmelblau: x0 = 0, f(x0) = 121 + 49");
  ok(olt_fval(p, p->xstar) == 0 && p->fstar == 0 && olt_gnorm(p, p->xstar) == 0,
     "himmelblau: f(3, 2) = f* = 0, grad = 0");
  for (i = 0; i < 4; i++) {
    double f = olt_fval(p, mins[i]), det;
    if (!(f <= fmax)) fmax = f;
    p->hess(p->ud, mins[i], H, &e);
    det = H[0] * H[3] - H[1] * H[2];
    if (H[0] > 0 && det > 0) pd++;
  }
  ok(fmax < 1e-9, "himmelblau: the four published minima have f < 1e-9 "
     "(max %.2g)", fmax);
  is_int(pd, 4, "himmelblau: H is positive definite at the four minima");
  ol_problem_free(p);

  p = olt_problem("beale", &e, (char *)NULL);
  ok(p != NULL, "beale: created");
  if (p == NULL) return;
  olt_derivs("beale", p, r, 0.5);
  ok(olt_fval(p, p->xstar) == 0 && p->fstar == 0 && olt_gnorm(p, p->xstar) == 0,
     "beale: f(3, 1/2) = f* = 0 exactly, grad = 0");
  /* f(1, 1) = 1.5^2 + 2.25^2 + 2.625^2 */
  is_close(olt_fval(p, p->x0), 14.203125, 1e-15, "beale: f(x0 = (1, 1))");
  p->hess(p->ud, p->xstar, H, &e);
  /* at x*: t_k = 0, H = 2 sum grad t grad t';  grad t_k = (y^k - 1,
  ** k x y^(k-1)) = (-1/2, 3), (-3/4, 3), (-7/8, 9/4) */
  is_close(H[0], 2 * (0.25 + 0.5625 + 0.765625), 1e-14,
           "beale: H(x*)_11 by hand");
  is_close(H[1], 2 * (-1.5 - 2.25 - 1.96875), 1e-14,
           "beale: H(x*)_12 by hand");
  is_close(H[3], 2 * (9 + 9 + 5.0625), 1e-14, "beale: H(x*)_22 by hand");
  ol_problem_free(p);

  p = olt_problem("saddle", &e, (char *)NULL);
  ok(p != NULL, "saddle: created");
  if (p == NULL) return;
  olt_derivs("saddle", p, r, 1.0);
  ok(p->xstar == NULL && isnan(p->fstar), "saddle: no x*, f* = NAN");
  ok(p->x0[0] == 1 && p->x0[1] == 1e-3, "saddle: x0 = (1, 1e-3)");
  x[0] = x[1] = 0;
  p->hess(p->ud, x, H, &e);
  ok(olt_gnorm(p, x) == 0 && H[0] == 2 && H[3] == -2 && H[1] == 0,
     "saddle: grad 0 = 0, H = diag(2, -2) (strict saddle)");
  x[1] = 10;
  ok(olt_fval(p, x) == -100, "saddle: unbounded below along y");
  ol_problem_free(p);

  p = olt_problem("monkey", &e, (char *)NULL);
  ok(p != NULL, "monkey: created");
  if (p == NULL) return;
  olt_derivs("monkey", p, r, 1.0);
  ok(p->xstar == NULL && isnan(p->fstar), "monkey: no x*, f* = NAN");
  x[0] = x[1] = 0;
  p->hess(p->ud, x, H, &e);
  ok(olt_gnorm(p, x) == 0 && H[0] == 0 && H[1] == 0 && H[3] == 0,
     "monkey: gradient and Hessian vanish at 0 (degenerate)");
  /* three valleys: f < 0 along the directions at angles pi/3, pi, 5pi/3 */
  {
    int k, neg = 0;
    for (k = 0; k < 3; k++) {
      double a = TWO_PI * (k + 0.5) / 3, y[2];
      y[0] = cos(a);
      y[1] = sin(a);
      if (olt_fval(p, y) < -0.99) neg++;   /* f = cos(3a) = -1 there */
    }
    is_int(neg, 3, "monkey: three descending valleys, f = cos(3 theta)");
  }
  ol_problem_free(p);
}

static void test_smoothabs (ol_rng *r)
{
  static const double xs[] = {0.5, 1.5, -2, 0.9};
  ol_err e;
  ol_problem *p = olt_problem("smoothabs", &e, (char *)NULL);
  int i, bad = 0;
  ok(p != NULL, "smoothabs: created");
  if (p == NULL) return;
  olt_derivs("smoothabs", p, r, 1.0);
  ok(p->n == 1 && p->x0[0] == 1.5 && p->xstar[0] == 0 && p->fstar == 1
     && olt_fval(p, p->xstar) == 1 && olt_gnorm(p, p->xstar) == 0,
     "smoothabs: n = 1, x0 = 1.5, x* = 0, f* = f(0) = 1");
  for (i = 0; i < 4; i++) {
    double x = xs[i], g, H, step;
    p->fdf(p->ud, &x, NULL, &g, &e);
    p->hess(p->ud, &x, &H, &e);
    step = x - g / H;
    if (fabs(step + x * x * x) > 1e-12 * fabs(x * x * x)) {
      bad++;
      diag("x = %g: newton %.17g, -x^3 = %.17g", x, step, -x * x * x);
    }
  }
  is_int(bad, 0, "smoothabs: the Newton map x - f'/f'' is -x^3");
  {
    double x = p->x0[0], H;
    int k;
    for (k = 0; k < 3; k++) {   /* 1.5 -> -3.375 -> 38.4 -> -56815 */
      double g;
      p->fdf(p->ud, &x, NULL, &g, &e);
      p->hess(p->ud, &x, &H, &e);
      x -= g / H;
    }
    ok(fabs(x) > 5e4, "smoothabs: pure Newton from x0 = 1.5 diverges "
       "(|x_3| = %.3g)", fabs(x));
  }
  ol_problem_free(p);
}

/* Rebuild the data of linreg from its components at x = 0: f_i(0) =
** y_i^2 / 2 and grad f_i(0) = -y_i a_i determine (a_i, y_i) up to a
** common sign, which leaves A'(Ax - y) and ||Ax - y|| unchanged. */
static int recover_linreg (const ol_problem *p, double *A, double *y)
{
  int j, d = p->n;
  long i;
  double *z = calloc((size_t)d, sizeof *z);
  ol_err e;
  for (i = 0; i < p->nsum; i++) {
    double fi, *a = A + (size_t)i * d;
    p->fdfi(p->ud, i, z, &fi, a, &e);
    y[i] = sqrt(2 * fi);
    if (y[i] == 0) {
      free(z);
      return -1;
    }
    for (j = 0; j < d; j++) a[j] /= -y[i];
  }
  free(z);
  return 0;
}

static void test_linreg (ol_rng *r)
{
  ol_err e;
  ol_problem *p = olt_problem("linreg", &e, (char *)NULL);
  int n = 200, d = 20, i, j;
  double *A, *y, *res, *M, *b, worst = 0, f, ferr = 0;
  ok(p != NULL, "linreg: created with defaults n=200 d=20");
  if (p == NULL) return;
  ok(p->n == d && p->nsum == n && p->fdfi != NULL && p->xstar != NULL
     && p->x0[0] == 0, "linreg: dimension d, nsum = n, x* known, x0 = 0");
  olt_derivs("linreg", p, r, 1.0);
  is_near(sumerr(p, r, 1.0), 0, 1e-12,
          "linreg: components average to f and grad f");
  A = malloc(sizeof(double) * n * d);
  y = malloc(sizeof(double) * n);
  res = malloc(sizeof(double) * n);
  M = calloc((size_t)d * d, sizeof *M);
  b = calloc((size_t)d, sizeof *b);
  ok(recover_linreg(p, A, y) == 0, "linreg: data recovered from components");
  /* (1) normal equations A'(A x* - y) = 0, with plain loops */
  for (i = 0; i < n; i++) {
    res[i] = -y[i];
    for (j = 0; j < d; j++) res[i] += A[i * d + j] * p->xstar[j];
  }
  f = 0;
  for (i = 0; i < n; i++) f += res[i] * res[i];
  f /= 2 * n;
  for (j = 0; j < d; j++) {
    double s = 0;
    for (i = 0; i < n; i++) s += A[i * d + j] * res[i];
    if (!(fabs(s) <= worst)) worst = fabs(s);
  }
  ok(worst < 1e-10, "linreg: x* satisfies A'(Ax* - y) = 0 (max %.2g)",
     worst);
  is_close(p->fstar, f, 1e-12, "linreg: f* = ||Ax* - y||^2 / (2n)");
  ok(p->fstar > 0, "linreg: sigma > 0 leaves a positive residual");
  /* (2) x* against a Cholesky solve of A'A x = A'y (dposv) */
  for (i = 0; i < n; i++)
    for (j = 0; j < d; j++) {
      int k;
      b[j] += A[i * d + j] * y[i];
      for (k = 0; k < d; k++) M[j * d + k] += A[i * d + j] * A[i * d + k];
    }
  if (LAPACKE_dposv(LAPACK_ROW_MAJOR, 'U', d, 1, M, d, b, 1) != 0)
    ok(0, "linreg: dposv succeeds");
  for (j = 0; j < d; j++) {
    double dj = fabs(b[j] - p->xstar[j]);
    if (!(dj <= ferr)) ferr = dj;
  }
  ok(ferr < 1e-8, "linreg: x* equals the normal-equation solution "
     "(max diff %.2g)", ferr);
  is_near(olt_gnorm(p, p->xstar), 0, 1e-12, "linreg: grad f(x*) = 0");
  free(A); free(y); free(res); free(M); free(b);
  ol_problem_free(p);

  /* (3) spectrum: with n >> d the sample covariance A'A/n (the Hessian)
  ** has eigenvalues near cond^(-j/(d-1)); relative sd ~ sqrt(2/n) */
  p = olt_problem("linreg", &e, "n", 40000.0, "d", 4.0, "cond", 1000.0,
                  "sigma", 0.0, (char *)NULL);
  ok(p != NULL, "linreg: n=40000 d=4 cond=1e3 sigma=0 is created");
  if (p == NULL) return;
  {
    double H[16], w[4], want, maxrel = 0;
    p->hess(p->ud, p->x0, H, &e);
    LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'U', 4, H, 4, w);
    for (j = 0; j < 4; j++) {
      want = pow(1000.0, -(double)(3 - j) / 3);   /* ascending */
      if (!(fabs(w[j] - want) / want <= maxrel))
        maxrel = fabs(w[j] - want) / want;
    }
    ok(maxrel < 0.05, "linreg: Hessian eigenvalues within 5%% (7 sd) of "
       "1e-3, 1e-2, 1e-1, 1 (max rel %.3g)", maxrel);
    is_near(p->fstar, 0, 1e-20, "linreg: sigma = 0 gives f* = 0");
  }
  ol_problem_free(p);
  ok(olt_problem("linreg", &e, "n", 5.0, "d", 6.0, (char *)NULL) == NULL
     && e.code == OL_EINVAL && strstr(e.msg, "d = 6") != NULL,
     "linreg: d > n is an error naming d (%s)", e.msg);
}

static void test_fsquad (ol_rng *r)
{
  ol_err e;
  ol_problem *p = olt_problem("fsquad", &e, "N", 10.0, "d", 5.0, "cond", 10.0,
                              (char *)NULL);
  int N = 10, d = 5, i, j, inrange = 1;
  double h[50], c[50], z[5] = {0}, one[5] = {1, 1, 1, 1, 1}, g0[5], g1[5];
  double xs[5], worst = 0, noise = 0, f = 0;
  ok(p != NULL, "fsquad: N=10 d=5 cond=10 is created");
  if (p == NULL) return;
  {
    /* a large build answers the interrupt flag between chunks */
    volatile sig_atomic_t flag = 1;
    ol_problem *big;
    ol_intr = &flag;
    big = olt_problem("fsquad", &e, "N", 10.0, "d", 100000.0, (char *)NULL);
    ok(big == NULL && e.code == OL_EINTR && strstr(e.msg, "interrupted"),
       "fsquad: a build of N d = 1e6 stops with OL_EINTR when ol_intr is "
       "set (%s)", big == NULL ? e.msg : "built");
    ol_problem_free(big);
    ol_intr = NULL;
  }
  ok(p->nsum == N && p->fdfi != NULL && p->n == d,
     "fsquad: finite sum of N components in dimension d");
  ok(p->noise.kind == OL_NOISE_BATCH && p->noise.batch == 1
     && p->noise.order == OL_ORDER_SHUFFLE,
     "fsquad: default noise is batch 1 by random reshuffling");
  olt_derivs("fsquad", p, r, 1.0);
  is_near(sumerr(p, r, 1.0), 0, 1e-13,
          "fsquad: components average to f and grad f");
  /* (1) recover H_i and c_i: grad f_i(0) = -H_i c_i, grad f_i(1) -
  ** grad f_i(0) = diag H_i */
  for (i = 0; i < N; i++) {
    p->fdfi(p->ud, i, z, NULL, g0, &e);
    p->fdfi(p->ud, i, one, NULL, g1, &e);
    for (j = 0; j < d; j++) {
      h[i * d + j] = g1[j] - g0[j];
      c[i * d + j] = -g0[j] / h[i * d + j];
      if (!(h[i * d + j] > 0.1 - 1e-15 && h[i * d + j] <= 1 + 1e-15))
        inrange = 0;
    }
  }
  ok(inrange, "fsquad: H_i entries lie in [1/cond, 1]");
  /* (2) x* = (sum H_i)^-1 sum H_i c_i */
  for (j = 0; j < d; j++) {
    double sh = 0, shc = 0;
    for (i = 0; i < N; i++) {
      sh += h[i * d + j];
      shc += h[i * d + j] * c[i * d + j];
    }
    xs[j] = shc / sh;
    if (!(fabs(xs[j] - p->xstar[j]) <= worst))
      worst = fabs(xs[j] - p->xstar[j]);
  }
  ok(worst < 1e-12, "fsquad: x* is (sum H_i)^-1 sum H_i c_i (max diff %.2g)",
     worst);
  is_near(olt_gnorm(p, p->xstar), 0, 1e-14, "fsquad: grad f(x*) = 0");
  for (i = 0; i < N; i++)
    for (j = 0; j < d; j++) {
      double t = xs[j] - c[i * d + j];
      f += 0.5 * h[i * d + j] * t * t;
      noise += h[i * d + j] * t * h[i * d + j] * t;
    }
  is_close(p->fstar, f / N, 1e-12, "fsquad: f* = (1/N) sum f_i(x*)");
  ok(noise / N > 1e-2, "fsquad: gradient noise at x* is nonzero "
     "(sigma*^2 = %.3g)", noise / N);
  ok(p->x0[0] == 2 && p->x0[d - 1] == 2, "fsquad: x0 = 2 ones");
  ol_problem_free(p);
  {
    ol_problem *q1 = olt_problem("fsquad", &e, "seed", 1.0, (char *)NULL);
    ol_problem *q2 = olt_problem("fsquad", &e, "seed", 2.0, (char *)NULL);
    ok(q1 && q2 && q1->xstar[0] != q2->xstar[0],
       "fsquad: the seed changes the data");
    ol_problem_free(q1);
    ol_problem_free(q2);
  }
}

static void test_reddi (ol_rng *r)
{
  ol_err e;
  ol_problem *p = olt_problem("reddi", &e, "C", 3.0, (char *)NULL);
  double x = 0.25, g, fi, H;
  long i;
  int okc = 1;
  ok(p != NULL, "reddi: C=3 is created");
  if (p == NULL) return;
  olt_derivs("reddi", p, r, 0.3);
  is_near(sumerr(p, r, 0.3), 0, 1e-15,
          "reddi: components average to f and grad f");
  for (i = 0; i < 3; i++) {
    p->fdfi(p->ud, i, &x, &fi, &g, &e);
    if (g != (i == 0 ? 3.0 : -1.0) || fi != g * x) okc = 0;
  }
  ok(okc, "reddi: component 0 is C x (first, as t = 1 in the paper), "
     "1 and 2 are -x");
  ok(p->noise.kind == OL_NOISE_BATCH && p->noise.batch == 1
     && p->noise.order == OL_ORDER_CYCLIC,
     "reddi: default noise is batch 1 in cyclic order");
  ok(p->set.kind == OL_SET_BOX && p->set.lo[0] == -1 && p->set.hi[0] == 1,
     "reddi: the set is the box [-1, 1]");
  ok(p->x0[0] == 1 && p->xstar[0] == -1, "reddi: x0 = 1, x* = -1");
  is_close(p->fstar, -1.0 / 3, 1e-15, "reddi: f* = -(C - 2)/3");
  is_close(olt_fval(p, p->xstar), p->fstar, 1e-15, "reddi: f(x*) = f*");
  p->fdf(p->ud, p->xstar, NULL, &g, &e);
  {
    double y = p->xstar[0] - g;   /* projected gradient step stays at -1 */
    if (y < -1) y = -1;
    if (y > 1) y = 1;
    ok(g > 0 && y == p->xstar[0],
       "reddi: x* is a KKT point of the box (grad = %.3g > 0 at -1)", g);
  }
  p->hess(p->ud, &x, &H, &e);
  ok(H == 0, "reddi: Hessian is 0");
  ol_problem_free(p);
  ok(ol_param_check(&ol_problem_type_find("reddi")->params[0], 2.0, &e)
     == OL_EINVAL, "reddi: C = 2 is rejected by the parameter check");
}

static void test_lasso (ol_rng *r)
{
  ol_err e;
  ol_problem *p = olt_problem("lasso", &e, "m", 100.0, "n", 50.0, "k", 5.0,
                              "lambda", 0.1, "sigma", 0.0, (char *)NULL);
  int n = 50, j, support = 0, signs = 1;
  double *H, *g0, diagmean = 0, off = 0;
  ok(p != NULL, "lasso: m=100 n=50 k=5 sigma=0 is created");
  if (p == NULL) return;
  ok(p->l1 == 0.1 && p->xstar == NULL && isnan(p->fstar) && p->n == n
     && p->x0[0] == 0, "lasso: l1 = lambda, x* and f* unknown, x0 = 0");
  olt_derivs("lasso", p, r, 1.0);
  H = malloc(sizeof(double) * n * n);
  g0 = malloc(sizeof(double) * n);
  /* (1) the Hessian A'A: columns of A have E ||a_j||^2 = 1, sd sqrt(2/m);
  ** the mean over 50 columns has sd 0.02 */
  p->hess(p->ud, p->x0, H, &e);
  for (j = 0; j < n; j++) diagmean += H[j * n + j] / n;
  is_near(diagmean, 1, 0.1, "lasso: mean squared column norm of A is 1 "
          "(5 sd)");
  /* (2) sigma = 0, m > n: solving A'A x = A'y (= -grad f(0)) recovers
  ** the planted signal, k entries +-1 */
  p->fdf(p->ud, p->x0, NULL, g0, &e);
  for (j = 0; j < n; j++) g0[j] = -g0[j];
  if (LAPACKE_dposv(LAPACK_ROW_MAJOR, 'U', n, 1, H, n, g0, 1) != 0)
    ok(0, "lasso: dposv succeeds");
  for (j = 0; j < n; j++) {
    if (fabs(g0[j]) > 0.5) {
      support++;
      if (fabs(fabs(g0[j]) - 1) > 1e-8) signs = 0;
    }
    else if (fabs(g0[j]) > off) off = fabs(g0[j]);
  }
  is_int(support, 5, "lasso: the planted signal has k = 5 nonzeros");
  ok(signs && off < 1e-8, "lasso: planted entries are +-1, the rest 0 "
     "(max off-support %.2g)", off);
  is_near(olt_fval(p, g0), 0, 1e-20, "lasso: f(x_planted) = 0 when sigma = 0");
  free(H);
  free(g0);
  ol_problem_free(p);
  ok(olt_problem("lasso", &e, "n", 4.0, "k", 5.0, (char *)NULL) == NULL
     && e.code == OL_EINVAL && strstr(e.msg, "k = 5") != NULL,
     "lasso: k > n is an error naming k (%s)", e.msg);
}

int main (void)
{
  ol_rng r;
  diag("seed %u", SEED);
  ol_rng_seed(&r, SEED, 0);
  test_registry();
  test_quadratic(&r);
  test_rosenbrock(&r);
  test_logreg(&r);
  test_gauss2d(&r);
  test_games(&r);
  diag("catalog seed %u", SEED_CATALOG);
  ol_rng_seed(&r, SEED_CATALOG, 0);
  test_catalog_registry();
  test_rastrigin(&r);
  test_2d(&r);
  test_smoothabs(&r);
  test_linreg(&r);
  test_fsquad(&r);
  test_reddi(&r);
  test_lasso(&r);
  return done();
}
