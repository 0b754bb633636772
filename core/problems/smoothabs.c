/*
** core/problems/smoothabs.c -- the pseudo-Huber "smooth absolute value"
** f(x) = sqrt(1 + x^2), n = 1: the classic example where pure Newton
** diverges while damped Newton (backtracking line search, Boyd &
** Vandenberghe 2004, Convex Optimization, Algorithm 9.5) converges.
**
**   f'(x) = x / sqrt(1 + x^2),  f''(x) = (1 + x^2)^(-3/2)
**   Newton step: x - f'/f'' = x - x (1 + x^2) = -x^3
**
** so the pure Newton iteration converges (cubically) for |x0| < 1, cycles
** between +1 and -1 from |x0| = 1 and diverges for |x0| > 1.  x* = 0,
** f* = 1, x0 = 1.5 (Newton diverges; damped Newton / gradient descent
** converge).
*/
#include <math.h>
#include <stdio.h>

#include "ol.h"
#include "problem.h"

static int smoothabs_fdf (void *ud, const double *x, double *f, double *g,
                          ol_err *e)
{
  double s = sqrt(1 + x[0] * x[0]);
  (void)ud; (void)e;
  if (f != NULL) *f = s;
  if (g != NULL) g[0] = x[0] / s;
  return OL_OK;
}

static int smoothabs_hess (void *ud, const double *x, double *H, ol_err *e)
{
  double s = 1 + x[0] * x[0];
  (void)ud; (void)e;
  H[0] = 1 / (s * sqrt(s));
  return OL_OK;
}

static int smoothabs_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  (void)v;
  snprintf(p->name, sizeof p->name, "smoothabs");
  p->kind = OL_OBJECTIVE;
  p->n = 1;
  p->fdf = smoothabs_fdf;
  p->hess = smoothabs_hess;
  if ((p->x0 = ol_problem_alloc(1, e)) == NULL) return OL_ENOMEM;
  if ((p->xstar = ol_problem_alloc(1, e)) == NULL) return OL_ENOMEM;
  p->x0[0] = 1.5;
  p->fstar = 1;
  snprintf(p->desc, sizeof p->desc,
           "smoothabs{} (sqrt(1+x^2); Newton maps x to -x^3)");
  return OL_OK;
}

const ol_problem_type ol_problem_smoothabs = {
  .name = "smoothabs",
  .kind = OL_OBJECTIVE,
  .doc = "sqrt(1 + x^2), n = 1: pure Newton diverges from |x0| > 1",
  .ref = "Boyd & Vandenberghe 2004, Convex Optimization, ch. 9 (Newton)",
  .create = smoothabs_create,
};
