/*
** core/problems/monkey.c -- the monkey saddle f(x, y) = x^3 - 3 x y^2.
**
**   grad = (3 x^2 - 3 y^2, -6 x y),  H = [[6 x, -6 y], [-6 y, -6 x]]
**
** A degenerate saddle: at 0 the gradient and the Hessian both vanish, so
** second-order tests cannot tell it apart (three descending valleys, the
** third for the monkey's tail).  Unbounded below, no minimiser (x* NULL,
** f* NAN).  x0 = (1, 1e-3).
*/
#include <stdio.h>

#include "ol.h"
#include "problem.h"

static int monkey_fdf (void *ud, const double *x, double *f, double *g,
                       ol_err *e)
{
  double a = x[0], b = x[1];
  (void)ud; (void)e;
  if (f != NULL) *f = a * a * a - 3 * a * b * b;
  if (g != NULL) {
    g[0] = 3 * a * a - 3 * b * b;
    g[1] = -6 * a * b;
  }
  return OL_OK;
}

static int monkey_hess (void *ud, const double *x, double *H, ol_err *e)
{
  (void)ud; (void)e;
  H[0] = 6 * x[0];
  H[1] = H[2] = -6 * x[1];
  H[3] = -6 * x[0];
  return OL_OK;
}

static int monkey_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  (void)v;
  snprintf(p->name, sizeof p->name, "monkey");
  p->kind = OL_OBJECTIVE;
  p->n = 2;
  p->fdf = monkey_fdf;
  p->hess = monkey_hess;
  if ((p->x0 = ol_problem_alloc(2, e)) == NULL) return OL_ENOMEM;
  p->x0[0] = 1;
  p->x0[1] = 1e-3;
  snprintf(p->desc, sizeof p->desc,
           "monkey{} (x^3 - 3xy^2: degenerate saddle at 0)");
  return OL_OK;
}

const ol_problem_type ol_problem_monkey = {
  .name = "monkey",
  .kind = OL_OBJECTIVE,
  .doc = "monkey saddle x^3 - 3 x y^2: gradient and Hessian vanish at 0",
  .create = monkey_create,
};
