/*
** tests/c/t_prox_methods.c -- proximal and coordinate methods: ista,
** fista, bcd.
**
** (1) A separable LASSO F(x) = sum_i (a_i x_i^2 / 2 - b_i x_i) + lambda
**     ||x||_1, whose minimiser is x*_i = S(b_i, lambda) / a_i (S the soft
**     threshold), as a custom problem with p->l1 = lambda: the first
**     iterates of ista and fista written out here; ista, fista and fista
**     with restart reach dist < 1e-8 within 300 steps (lr = 1 / max a).
** (2) On a diagonal instance with cond 1e3 (n = 20) fista, with and
**     without restart, needs fewer steps than ista to reach dist < 1e-6.
** (3) bcd: on a diagonal quadratic the 1/L_i coordinate step solves its
**     coordinate exactly, so cyclic and gsl reach x* in exactly n steps;
**     the first cyclic step on a rotated 2-D quadratic by hand; every
**     rule reaches dist < 1e-6 on quadratic{n=20, cond=100} (rotated)
**     and gsl needs no more steps than random (seed fixed); blocks of 5;
**     lr = 0 without a Hessian is refused; with p->l1 > 0 the block step
**     soft-thresholds and cyclic, gs and gsl reach the lasso's x*.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "olt.h"
#include "problem.h"
#include "run.h"
#include "tap.h"

#define SEED 4242u

static ol_run *start (const ol_problem *p, const char *name,
                      const double *par, long iters)
{
  ol_run_opts o = olt_opts(iters, 0, OL_MSET_OF(OL_MET_LOSS));
  o.seed = SEED;
  return olt_run(p, ol_method_find(name), par, &o);
}

static double dist (const ol_problem *p, const double *x)
{
  double s = 0;
  int i;
  for (i = 0; i < p->n; i++)
    s += (x[i] - p->xstar[i]) * (x[i] - p->xstar[i]);
  return sqrt(s);
}

/* Steps of a new run until dist < tol, or -1 within budget; *d the last
** distance. */
static long steps_to (const ol_problem *p, const char *name,
                      const double *par, double tol, long budget, double *d)
{
  ol_run *r = start(p, name, par, budget);
  long k = -1, t;
  *d = NAN;
  for (t = 0; r != NULL && t <= budget; t++) {
    *d = dist(p, ol_run_x(r));
    if (*d < tol) {
      k = t;
      break;
    }
    if (t < budget && ol_run_advance(r, 1) != 1) {
      diag("%s: stopped: %s %s", name, ol_stop_name(ol_run_reason(r)),
           ol_run_message(r));
      break;
    }
  }
  ol_run_free(r);
  return k;
}

/* == separable LASSO ====================================================== */

typedef struct sep {
  int n;
  double a[32], b[32];
} sep;

static int sep_fdf (void *ud, const double *x, double *f, double *g,
                    ol_err *e)
{
  const sep *s = ud;
  double v = 0;
  int i;
  (void)e;
  for (i = 0; i < s->n; i++) {
    v += 0.5 * s->a[i] * x[i] * x[i] - s->b[i] * x[i];
    if (g != NULL) g[i] = s->a[i] * x[i] - s->b[i];
  }
  if (f != NULL) *f = v;
  return OL_OK;
}

static double soft (double v, double t)
{
  return v > t ? v - t : v < -t ? v + t : 0;
}

/* The problem, with x*_i = S(b_i, lambda) / a_i and x0 given. */
static ol_problem *lasso (int n, const double *a, const double *b,
                          double lambda, const double *x0)
{
  sep *s = malloc(sizeof *s);
  ol_err e;
  ol_problem *p;
  int i;
  if (s == NULL) return NULL;
  s->n = n;
  memcpy(s->a, a, sizeof(double) * n);
  memcpy(s->b, b, sizeof(double) * n);
  p = ol_problem_custom(n, sep_fdf, 0, s, free, &e);
  if (p == NULL) {
    free(s);
    diag("lasso: %s", e.msg);
    return NULL;
  }
  p->l1 = lambda;
  p->xstar = ol_problem_alloc(n, &e);
  if (p->xstar == NULL) {
    ol_problem_free(p);
    return NULL;
  }
  for (i = 0; i < n; i++) {
    p->xstar[i] = soft(b[i], lambda) / a[i];
    p->x0[i] = x0[i];
  }
  return p;
}

static const double A6[6] = {1, 2, 0.5, 3, 1.5, 0.8};
static const double B6[6] = {2, -0.3, 0.1, -4, 0.8, -0.6};
static const double X06[6] = {1, -1, 2, 0.5, -2, 0};
#define LAM6 0.5

/* Iterates x_1..x_k of a run against want (k rows of n). */
static int follows (const ol_problem *p, const char *name, const double *par,
                    int k, double want[][6])
{
  ol_run *r = start(p, name, par, 100);
  int j, good = r != NULL;
  for (j = 0; good && j < k; j++)
    good = ol_run_advance(r, 1) == 1
           && olt_agree(ol_run_x(r), want[j], 6, 1e-14);
  ol_run_free(r);
  return good;
}

static void test_lasso (void)
{
  ol_problem *p = lasso(6, A6, B6, LAM6, X06);
  double lr = 1.0 / 3, par[8], want[4][6], x[6], xp[6], y[6], d;
  double tk = 1, tn;
  long k;
  int i, j;
  if (p == NULL) {
    ok(0, "lasso: custom problem");
    return;
  }
  diag("lasso: x* = (%g, %g, %g, %g, %g, %g)", p->xstar[0], p->xstar[1],
       p->xstar[2], p->xstar[3], p->xstar[4], p->xstar[5]);

  /* (1) ista: x <- S(x - lr (a x - b), lr lambda) */
  memcpy(x, X06, sizeof x);
  for (j = 0; j < 3; j++)
    for (i = 0; i < 6; i++)
      want[j][i] = x[i] = soft(x[i] - lr * (A6[i] * x[i] - B6[i]),
                               lr * LAM6);
  olt_method("ista", par, "lr", lr, (char *)NULL);
  ok(follows(p, "ista", par, 3, want),
     "ista: x1..x3 = S(x - lr grad f(x), lr lambda) by hand");

  /* (2) fista: x_k = S(y_k - lr grad f(y_k)), t and y by hand */
  memcpy(x, X06, sizeof x);
  memcpy(y, X06, sizeof y);
  for (j = 0; j < 4; j++) {
    memcpy(xp, x, sizeof x);
    for (i = 0; i < 6; i++)
      x[i] = soft(y[i] - lr * (A6[i] * y[i] - B6[i]), lr * LAM6);
    tn = (1 + sqrt(1 + 4 * tk * tk)) / 2;
    for (i = 0; i < 6; i++) y[i] = x[i] + (tk - 1) / tn * (x[i] - xp[i]);
    tk = tn;
    memcpy(want[j], x, sizeof x);
  }
  olt_method("fista", par, "lr", lr, (char *)NULL);
  ok(follows(p, "fista", par, 4, want),
     "fista: x1..x4 with t_{k+1} = (1 + sqrt(1 + 4 t_k^2)) / 2 by hand");

  /* (3) convergence to the closed-form minimiser */
  olt_method("ista", par, "lr", lr, (char *)NULL);
  k = steps_to(p, "ista", par, 1e-8, 300, &d);
  ok(k >= 0, "ista: dist < 1e-8 to S(b, lambda) / a within 300 steps "
     "(%ld, %.3g)", k, d);
  olt_method("fista", par, "lr", lr, (char *)NULL);
  k = steps_to(p, "fista", par, 1e-8, 300, &d);
  ok(k >= 0, "fista: dist < 1e-8 to S(b, lambda) / a within 300 steps "
     "(%ld, %.3g)", k, d);
  olt_method("fista", par, "lr", lr, "restart", 1.0,
             (char *)NULL);
  k = steps_to(p, "fista", par, 1e-8, 300, &d);
  ok(k >= 0, "fista: with restart, dist < 1e-8 within 300 steps "
     "(%ld, %.3g)", k, d);
  ol_problem_free(p);
}

/* Diagonal LASSO with a_i = 1e-3^(i / (n - 1)), n = 20. */
static void test_acceleration (void)
{
  double a[20], b[20], x0[20], par[8], d;
  double lambda = 0.05;
  long ki, kf, kr;
  ol_problem *p;
  int i;
  for (i = 0; i < 20; i++) {
    double xs = (i % 3 - 1) * (1 + i / 10.0);
    a[i] = pow(1e-3, i / 19.0);
    b[i] = xs > 0 ? a[i] * xs + lambda : xs < 0 ? a[i] * xs - lambda
      : 0.5 * lambda * (i % 2 ? 1 : -1);
    x0[i] = 0;
  }
  p = lasso(20, a, b, lambda, x0);
  if (p == NULL) {
    ok(0, "lasso: ill-conditioned problem");
    return;
  }
  olt_method("ista", par, "lr", 1.0, (char *)NULL);
  ki = steps_to(p, "ista", par, 1e-6, 100000, &d);
  ok(ki >= 0, "ista: dist < 1e-6 on the cond 1e3 lasso within 1e5 steps "
     "(%ld)", ki);
  olt_method("fista", par, "lr", 1.0, (char *)NULL);
  kf = steps_to(p, "fista", par, 1e-6, 100000, &d);
  ok(kf >= 0 && kf < ki, "fista: fewer steps than ista on the cond 1e3 "
     "lasso (%ld vs %ld)", kf, ki);
  olt_method("fista", par, "lr", 1.0, "restart", 1.0,
             (char *)NULL);
  kr = steps_to(p, "fista", par, 1e-6, 100000, &d);
  ok(kr >= 0 && kr < ki, "fista: with restart, fewer steps than ista "
     "(%ld vs %ld)", kr, ki);
  ol_problem_free(p);
}

/* == bcd ================================================================== */

static const char *const rules[4] = {"random", "cyclic", "gs", "gsl"};

static void test_bcd (void)
{
  ol_problem *p = olt_quadratic(8, 50, 0);
  double par[8], d, H[4], g[2], x1[2];
  long k[4];
  ol_run *r;
  ol_err e;
  int j;

  /* (1) diagonal: each 1/L_i step zeroes its coordinate */
  for (j = 1; j < 4; j += 2) {
    olt_method("bcd", par, "rule", (double)j, (char *)NULL);
    r = start(p, "bcd", par, 100);
    k[j] = -1;
    if (r != NULL && ol_run_advance(r, 7) == 7 &&
        dist(p, ol_run_x(r)) > 0.1 && ol_run_advance(r, 1) == 1)
      k[j] = dist(p, ol_run_x(r)) == 0 ? 8 : -1;
    ok(k[j] == 8, "bcd: %s reaches x* exactly in n = 8 steps on a diagonal "
       "quadratic, not before", rules[j]);
    ol_run_free(r);
  }
  ol_problem_free(p);

  /* (2) first cyclic step on a rotated 2-D quadratic: coordinate 0 moves
  ** by -g_0 / H_00, coordinate 1 stays */
  p = olt_quadratic(2, 10, 1);
  if (p != NULL && p->hess(p->ud, p->x0, H, &e) == OL_OK &&
      p->fdf(p->ud, p->x0, NULL, g, &e) == OL_OK) {
    olt_method("bcd", par, "rule", 1.0, (char *)NULL);
    r = start(p, "bcd", par, 10);
    x1[0] = p->x0[0] - g[0] / H[0];
    x1[1] = p->x0[1];
    ok(r != NULL && ol_run_advance(r, 1) == 1 &&
       fabs(ol_run_x(r)[0] - x1[0]) <= 1e-14 &&
       ol_run_x(r)[1] == x1[1],
       "bcd: cyclic x1 = x0 - (g_0 / H_00) e_0 on a rotated quadratic");
    ol_run_free(r);
  } else
    ok(0, "bcd: rotated 2-D quadratic");
  ol_problem_free(p);

  /* (3) every rule on quadratic{n=20, cond=100} */
  p = olt_quadratic(20, 100, 1);
  diag("bcd: seed %u", SEED);
  for (j = 0; j < 4; j++) {
    olt_method("bcd", par, "rule", (double)j, (char *)NULL);
    k[j] = steps_to(p, "bcd", par, 1e-6, 200000, &d);
    ok(k[j] >= 0, "bcd: rule %s reaches dist < 1e-6 on quadratic{n=20, "
       "cond=100} within 2e5 steps (%ld)", rules[j], k[j]);
  }
  diag("bcd: steps random %ld, cyclic %ld, gs %ld, gsl %ld", k[0], k[1],
       k[2], k[3]);
  ok(k[3] >= 0 && k[3] <= k[0], "bcd: gsl needs no more steps than random "
     "(%ld vs %ld)", k[3], k[0]);
  olt_method("bcd", par, "rule", 3.0, "bs", 5.0, (char *)NULL);
  k[0] = steps_to(p, "bcd", par, 1e-6, 200000, &d);
  ok(k[0] >= 0, "bcd: gsl with blocks of 5 (1/lambda_max(H_bb)) reaches "
     "dist < 1e-6 (%ld)", k[0]);
  ol_problem_free(p);

  /* (4) lr = 0 without a Hessian: L_b starts at 1 and the backtracking on
  ** the descent lemma finds each coordinate's curvature a_i (up to 3 here),
  ** so cyclic bcd still reaches the soft-thresholding solution */
  p = lasso(6, A6, B6, LAM6, X06);
  olt_method("bcd", par, "rule", 1.0, (char *)NULL);
  k[0] = p != NULL ? steps_to(p, "bcd", par, 1e-8, 5000, &d) : -1;
  ok(k[0] >= 0, "bcd: lr = 0 without a Hessian backtracks to dist < 1e-8 "
     "on the lasso within 5000 steps (%ld)", k[0]);
  ol_problem_free(p);

  /* (5) proximal coordinate steps on the separable lasso */
  p = lasso(6, A6, B6, LAM6, X06);
  for (j = 1; j < 4; j++) {
    olt_method("bcd", par, "rule", (double)j, "lr", 1.0 / 3,
               (char *)NULL);
    k[j] = p != NULL ? steps_to(p, "bcd", par, 1e-8, 5000, &d) : -1;
    ok(k[j] >= 0, "bcd: %s with soft thresholding reaches dist < 1e-8 to "
       "S(b, lambda) / a on the lasso within 5000 steps (%ld)", rules[j],
       k[j]);
  }
  ol_problem_free(p);
}

int main (void)
{
  test_lasso();
  test_acceleration();
  test_bcd();
  return done();
}
