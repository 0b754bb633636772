/*
** core/problems/beale.c -- Beale's function (Beale 1958; test function 5
** of More, Garbow & Hillstrom 1981).
**
**   f(x, y) = sum_{k=1}^{3} t_k^2,  t_k = c_k - x + x y^k,
**   c = (1.5, 2.25, 2.625)
**   dt_k/dx = y^k - 1,  dt_k/dy = k x y^(k-1)
**   grad = 2 sum t_k grad t_k
**   H = 2 sum [ grad t_k grad t_k' + t_k Hess t_k ],
**       Hess t_k = [[0, k y^(k-1)], [k y^(k-1), k (k-1) x y^(k-2)]]
**
** x* = (3, 0.5), f* = 0, x0 = (1, 1) (More, Garbow & Hillstrom use the
** same start).  A narrow curved valley along y -> 1 and flat plateaus.
*/
#include <stdio.h>

#include "ol.h"
#include "problem.h"

static const double beale_c[3] = {1.5, 2.25, 2.625};

static int beale_fdf (void *ud, const double *x, double *f, double *g,
                      ol_err *e)
{
  double s = 0, gx = 0, gy = 0, yk = 1, yk1;
  int k;
  (void)ud; (void)e;
  for (k = 1; k <= 3; k++) {
    double t;
    yk1 = yk;               /* y^(k-1) */
    yk *= x[1];             /* y^k */
    t = beale_c[k - 1] - x[0] + x[0] * yk;
    s += t * t;
    gx += 2 * t * (yk - 1);
    gy += 2 * t * k * x[0] * yk1;
  }
  if (f != NULL) *f = s;
  if (g != NULL) {
    g[0] = gx;
    g[1] = gy;
  }
  return OL_OK;
}

static int beale_hess (void *ud, const double *x, double *H, ol_err *e)
{
  double hxx = 0, hxy = 0, hyy = 0, yk = 1, yk1 = 1, yk2;
  int k;
  (void)ud; (void)e;
  for (k = 1; k <= 3; k++) {
    double t, dx, dy;
    yk2 = yk1;              /* y^(k-2) when k >= 2 (unused for k = 1) */
    yk1 = yk;               /* y^(k-1) */
    yk *= x[1];             /* y^k */
    t = beale_c[k - 1] - x[0] + x[0] * yk;
    dx = yk - 1;
    dy = k * x[0] * yk1;
    hxx += 2 * dx * dx;
    hxy += 2 * (dx * dy + t * k * yk1);
    hyy += 2 * (dy * dy + (k >= 2 ? t * k * (k - 1) * x[0] * yk2 : 0));
  }
  H[0] = hxx;
  H[1] = H[2] = hxy;
  H[3] = hyy;
  return OL_OK;
}

static int beale_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  (void)v;
  snprintf(p->name, sizeof p->name, "beale");
  p->kind = OL_OBJECTIVE;
  p->n = 2;
  p->fdf = beale_fdf;
  p->hess = beale_hess;
  if ((p->x0 = ol_problem_alloc(2, e)) == NULL) return OL_ENOMEM;
  if ((p->xstar = ol_problem_alloc(2, e)) == NULL) return OL_ENOMEM;
  p->x0[0] = p->x0[1] = 1;
  p->xstar[0] = 3;
  p->xstar[1] = 0.5;
  p->fstar = 0;
  snprintf(p->desc, sizeof p->desc, "beale{} (x* = (3, 0.5), f* = 0)");
  return OL_OK;
}

const ol_problem_type ol_problem_beale = {
  .name = "beale",
  .kind = OL_OBJECTIVE,
  .doc = "sum_k (c_k - x + x y^k)^2, c = (1.5, 2.25, 2.625), x* = (3, 0.5)",
  .ref = "Beale 1958; More, Garbow & Hillstrom 1981, problem 5",
  .create = beale_create,
};
