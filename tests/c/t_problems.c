/*
** tests/c/t_problems.c -- the built-in problems against independent truth.
**
** Analytic gradients against central finite differences of the value at
** seeded random points; Hessians against finite differences of the
** gradient; known optima (f(x*) = f*, grad f(x*) = 0); the quadratic's
** spectrum via LAPACKE_dsyevd against the log-spaced eigenvalues; closed
** forms (geometric sums, log 2, payoffs by hand); and the errors the
** problem constructors must raise.
*/
#include <lapacke.h>
#include <math.h>
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
  ol_pval v[1];
  memset(v, 0, sizeof v);
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
static const int nlisted_methods = 0
#include "optim/list.h"
#include "sample/list.h"
#include "games/list.h"
  ;
#undef OL_OPTIM
#undef OL_SAMPLER
#undef OL_DYNAMIC

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
     && ol_method_find("rmplus")->family == OL_DYNAMIC
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
  p = ol_problem_new(ol_problem_type_find("matrixgame"),
                     (ol_pval[]){{0, NULL, 0, 0}}, &e);
  ok(p == NULL && e.code == OL_EINVAL
     && strcmp(e.msg, "matrixgame needs a payoff matrix A") == 0,
     "matrixgame: missing A is an error (%s)", e.msg);

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
  return done();
}
