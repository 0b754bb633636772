/*
** core/problems/himmelblau.c -- Himmelblau's function (Himmelblau 1972,
** Applied Nonlinear Programming, p. 428).
**
**   f(x, y) = (x^2 + y - 11)^2 + (x + y^2 - 7)^2
**   with a = x^2 + y - 11, b = x + y^2 - 7:
**   grad = (4 x a + 2 b, 2 a + 4 y b)
**   H = [[4 a + 8 x^2 + 2, 4 (x + y)], [4 (x + y), 4 b + 8 y^2 + 2]]
**
** Four minimisers with f* = 0: (3, 2) (reported as x*, exact),
** (-2.805118, 3.131312), (-3.779310, -3.283186), (3.584428, -1.848126);
** a local maximum near (-0.270845, -0.923039).  x0 = (0, 0).
*/
#include <stdio.h>

#include "ol.h"
#include "problem.h"

static int himmelblau_fdf (void *ud, const double *x, double *f, double *g,
                           ol_err *e)
{
  double a = x[0] * x[0] + x[1] - 11, b = x[0] + x[1] * x[1] - 7;
  (void)ud; (void)e;
  if (f != NULL) *f = a * a + b * b;
  if (g != NULL) {
    g[0] = 4 * x[0] * a + 2 * b;
    g[1] = 2 * a + 4 * x[1] * b;
  }
  return OL_OK;
}

static int himmelblau_hess (void *ud, const double *x, double *H, ol_err *e)
{
  double a = x[0] * x[0] + x[1] - 11, b = x[0] + x[1] * x[1] - 7;
  (void)ud; (void)e;
  H[0] = 4 * a + 8 * x[0] * x[0] + 2;
  H[1] = H[2] = 4 * (x[0] + x[1]);
  H[3] = 4 * b + 8 * x[1] * x[1] + 2;
  return OL_OK;
}

static int himmelblau_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  (void)v;
  snprintf(p->name, sizeof p->name, "himmelblau");
  p->kind = OL_OBJECTIVE;
  p->n = 2;
  p->fdf = himmelblau_fdf;
  p->hess = himmelblau_hess;
  if ((p->x0 = ol_problem_alloc(2, e)) == NULL) return OL_ENOMEM;
  if ((p->xstar = ol_problem_alloc(2, e)) == NULL) return OL_ENOMEM;
  p->xstar[0] = 3;
  p->xstar[1] = 2;
  p->fstar = 0;
  snprintf(p->desc, sizeof p->desc,
           "himmelblau{} (four minima, f* = 0; x* = (3, 2) reported)");
  return OL_OK;
}

const ol_problem_type ol_problem_himmelblau = {
  .name = "himmelblau",
  .kind = OL_OBJECTIVE,
  .doc = "(x^2+y-11)^2 + (x+y^2-7)^2, four minima with f* = 0, x* = (3, 2)",
  .ref = "Himmelblau 1972, Applied Nonlinear Programming",
  .create = himmelblau_create,
};
