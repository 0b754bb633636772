/*
** tests/c/t_fdhess.c -- ol_problem_fdhess, the finite-difference Hessian
** that second-order methods use on problems without p->hess.
**
** Truth: the analytic Hessian (p->hess) of every built-in problem that has
** one, except games (their "gradient" is not a gradient field, so its
** Jacobian is not symmetric), with default parameters, at x0 and at three
** points x0 + 0.5 N(0, I).  Error model: central differences of g with
** h = eps^(1/3) max(1, |x_i|) err by O(h^2 |g'''|) + O(eps |g| / h), both
** ~ eps^(2/3) = 4e-11 times the scale of g and its derivatives; the
** tolerance 1e-6 relative to max(1, max |H_ij|) leaves four orders of
** magnitude for problems whose third derivatives are large (rosenbrock,
** beale: quartic and sextic terms).  Also: the result is exactly
** symmetric, x is left alone, exactly 2n gradient calls are made, the step
** scales with |x_i|, value-only problems work, and errors pass through.
*/
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "manifold.h"
#include "olt.h"
#include "tap.h"

#define SEED 7u
#define TOL 1e-6      /* relative to max(1, max |H_ij|) */
#define MAXN 1024     /* larger default instances are skipped (diag) */

/* max_ij |A_ij - B_ij| / max(1, max |B_ij|). */
static double relerr (const double *A, const double *B, int n)
{
  double worst = 0, scale = 1;
  int i;
  for (i = 0; i < n * n; i++)
    if (fabs(B[i]) > scale) scale = fabs(B[i]);
  for (i = 0; i < n * n; i++) {
    double d = fabs(A[i] - B[i]);
    if (!(d <= worst)) worst = d;
  }
  return worst / scale;
}

static int symmetric (const double *H, int n)
{
  int i, j;
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++)
      if (H[i * n + j] != H[j * n + i]) return 0;
  return 1;
}

/* f = exp(x1) x2^2 + x1^4 / 4 + 3 x1 x2, counting gradient calls. */
static long ngrad;
static int cubicish (void *ud, const double *x, double *f, double *g,
                     ol_err *e)
{
  double a = exp(x[0]);
  (void)ud;
  (void)e;
  if (f != NULL) *f = a * x[1] * x[1] + pow(x[0], 4) / 4 + 3 * x[0] * x[1];
  if (g != NULL) {
    ngrad++;
    g[0] = a * x[1] * x[1] + x[0] * x[0] * x[0] + 3 * x[1];
    g[1] = 2 * a * x[1] + 3 * x[0];
  }
  return OL_OK;
}

static void cubicish_hess (const double *x, double *H)
{
  double a = exp(x[0]);
  H[0] = a * x[1] * x[1] + 3 * x[0] * x[0];
  H[1] = H[2] = 2 * a * x[1] + 3;
  H[3] = 2 * a;
}

/* NaN gradient when x_1 > 1. */
static int nangrad (void *ud, const double *x, double *f, double *g,
                    ol_err *e)
{
  (void)ud;
  (void)e;
  if (f != NULL) *f = x[0] * x[0];
  if (g != NULL) g[0] = x[0] > 1 ? NAN : 2 * x[0];
  return OL_OK;
}

static int failing (void *ud, const double *x, double *f, double *g,
                    ol_err *e)
{
  (void)ud;
  (void)x;
  (void)f;
  (void)g;
  return ol_err_set(e, OL_ECALLBACK, "boom from the callback");
}

int main (void)
{
  ol_rng r;
  int i, k, tested = 0;
  diag("seed %u", (unsigned)SEED);
  ol_rng_seed(&r, SEED, 0);

  /* (1) every built-in Hessian against the differences */
  for (i = 0; ol_problem_types[i] != NULL; i++) {
    const char *name = ol_problem_types[i]->name;
    ol_err e;
    ol_problem *p = olt_problem(name, &e, (char *)NULL);
    double *x, *H, *Hfd, *work, worst = 0;
    int n, sym = 1, rc = OL_OK;
    if (p == NULL || p->hess == NULL || p->kind == OL_GAME) {
      ol_problem_free(p);
      continue;
    }
    n = p->n;
    if (ol_manifold_of(p) != NULL) {   /* x0 + noise leaves its domain */
      diag("fdhess: %s skipped (a problem on a manifold: tests/c/t_kmeans.c "
           "checks its Hessian at points of its domain)", name);
      ol_problem_free(p);
      continue;
    }
    if (n > MAXN) {
      diag("fdhess: %s skipped (n = %d > %d)", name, n, MAXN);
      ol_problem_free(p);
      continue;
    }
    x = malloc(sizeof *x * n);
    H = malloc(sizeof *H * n * n);
    Hfd = malloc(sizeof *Hfd * n * n);
    work = malloc(sizeof *work * 3 * n);
    for (k = 0; k < 4 && rc == OL_OK; k++) {
      int j;
      double d;
      for (j = 0; j < n; j++)
        x[j] = p->x0[j] + (k == 0 ? 0 : 0.5 * ol_rng_normal(&r));
      if ((rc = p->hess(p->ud, x, H, &e)) != OL_OK) break;
      if ((rc = ol_problem_fdhess(p, x, Hfd, work, &e)) != OL_OK) break;
      d = relerr(Hfd, H, n);
      if (!(d <= worst)) worst = d;
      sym = sym && symmetric(Hfd, n);
    }
    if (rc != OL_OK)
      ok(0, "fdhess: %s: evaluates (%s)", name, e.msg);
    else {
      ok(worst <= TOL, "fdhess: %s (n = %d) matches the analytic Hessian to "
         "%g relative at 4 points (worst %.2e)", name, n, TOL, worst);
      ok(sym, "fdhess: %s: the result is exactly symmetric", name);
    }
    tested++;
    free(x);
    free(H);
    free(Hfd);
    free(work);
    ol_problem_free(p);
  }
  ok(tested >= 15, "fdhess: %d built-in problems with a Hessian compared "
     "(rosenbrock, beale, logreg, ...)", tested);

  /* (2) a non-polynomial function: count, x unchanged, scaling, fd_grad */
  {
    ol_err e;
    ol_problem *p = ol_problem_custom(2, cubicish, 0, NULL, NULL, &e);
    ol_problem *pv = ol_problem_custom(2, cubicish, 1, NULL, NULL, &e);
    double x[2] = {0.3, -1.1}, xc[2], H[4], Hfd[4], work[6], d;
    int rc;
    cubicish_hess(x, H);
    memcpy(xc, x, sizeof x);
    ngrad = 0;
    rc = ol_problem_fdhess(p, x, Hfd, work, &e);
    ok(rc == OL_OK, "fdhess: a custom problem evaluates");
    is_int(ngrad, 4, "fdhess: 2n = 4 gradient calls for n = 2");
    ok(memcmp(x, xc, sizeof x) == 0, "fdhess: x is left unchanged");
    d = relerr(Hfd, H, 2);
    ok(d < 1e-8, "fdhess: exp/quartic function to 1e-8 relative (%.2e)", d);
    /* large |x_1| (exp(x_1) = 0, the quartic term alone, H_11 = 3e12):
    ** a fixed step cbrt(eps) would give a rounding error eps |g| / h ~
    ** 4e7, i.e. 1e-5 relative; the scaled step h = 6 gives ~ 1e-11 */
    x[0] = -1e6;
    x[1] = 0;
    cubicish_hess(x, H);
    rc = ol_problem_fdhess(p, x, Hfd, work, &e);
    ok(rc == OL_OK && fabs(Hfd[0] - H[0]) <= 1e-8 * fabs(H[0]),
       "fdhess: the step scales with |x_i| (x_1 = -1e6: H_11 %.12g vs "
       "%.12g)", Hfd[0], H[0]);
    x[0] = 0.3;
    x[1] = -1.1;
    cubicish_hess(x, H);
    rc = ol_problem_fdhess(pv, x, Hfd, work, &e);
    d = relerr(Hfd, H, 2);
    ok(rc == OL_OK && d < 1e-4, "fdhess: a value-only problem gets "
       "differences of its difference gradient (error ~ eps^(1/3): %.2e < "
       "1e-4)", d);
    ol_problem_free(p);
    ol_problem_free(pv);
  }

  /* (3) errors */
  {
    ol_err e;
    ol_problem *p = ol_problem_custom(1, nangrad, 0, NULL, NULL, &e);
    double x[1] = {1}, H[1], work[3];
    ok(ol_problem_fdhess(p, x, H, work, &e) == OL_EDOM &&
       strstr(e.msg, "non-finite gradient") != NULL,
       "fdhess: a NaN gradient at x + h is OL_EDOM \"non-finite gradient\"");
    ol_problem_free(p);
    p = ol_problem_custom(1, failing, 0, NULL, NULL, &e);
    ok(ol_problem_fdhess(p, x, H, work, &e) == OL_ECALLBACK &&
       strcmp(e.msg, "boom from the callback") == 0,
       "fdhess: a callback error passes through intact");
    ol_problem_free(p);
  }
  return done();
}
