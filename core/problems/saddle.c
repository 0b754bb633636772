/*
** core/problems/saddle.c -- the quadratic saddle f(x, y) = x^2 - y^2.
**
**   grad = (2 x, -2 y),  H = diag(2, -2)
**
** Unbounded below, no minimiser (x* NULL, f* NAN).  The only stationary
** point is the strict saddle at 0.  x0 = (1, 1e-3): plain gradient
** descent contracts x and expands the tiny y component by (1 + 2 lr) per
** step, so it escapes the saddle only slowly (Dauphin et al. 2014; Lee et
** al. 2016, gradient descent converges to minimisers).
*/
#include <stdio.h>

#include "ol.h"
#include "problem.h"

static int saddle_fdf (void *ud, const double *x, double *f, double *g,
                       ol_err *e)
{
  (void)ud; (void)e;
  if (f != NULL) *f = x[0] * x[0] - x[1] * x[1];
  if (g != NULL) {
    g[0] = 2 * x[0];
    g[1] = -2 * x[1];
  }
  return OL_OK;
}

static int saddle_hess (void *ud, const double *x, double *H, ol_err *e)
{
  (void)ud; (void)x; (void)e;
  H[0] = 2;
  H[1] = H[2] = 0;
  H[3] = -2;
  return OL_OK;
}

static int saddle_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  (void)v;
  snprintf(p->name, sizeof p->name, "saddle");
  p->kind = OL_OBJECTIVE;
  p->n = 2;
  p->fdf = saddle_fdf;
  p->hess = saddle_hess;
  if ((p->x0 = ol_problem_alloc(2, e)) == NULL) return OL_ENOMEM;
  p->x0[0] = 1;
  p->x0[1] = 1e-3;
  snprintf(p->desc, sizeof p->desc,
           "saddle{} (x^2 - y^2: strict saddle at 0, unbounded below)");
  return OL_OK;
}

const ol_problem_type ol_problem_saddle = {
  .name = "saddle",
  .kind = OL_OBJECTIVE,
  .doc = "x^2 - y^2, a strict saddle at 0, no minimiser",
  .ref = "Dauphin et al. 2014; Lee et al. 2016",
  .create = saddle_create,
};
