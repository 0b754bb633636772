/*
** core/problems/gauss2d.c -- a correlated 2-D Gaussian density N(mu, Sigma).
**
**   Sigma = [ s1^2        rho s1 s2 ]     U(x) = 1/2 (x - mu)' P (x - mu),
**           [ rho s1 s2   s2^2      ]     P = Sigma^-1,  grad U = P (x - mu)
**
** U is the potential -log p without its constant, so U(mu) = 0; the
** Hessian is P.  Known facts: mean = x* = mu, cov = Sigma, f* = 0.
** x0 = (0, 0).
*/
#include <stdio.h>
#include <stdlib.h>

#include "ol.h"
#include "problem.h"

typedef struct gauss2d {
  double mu[2];
  double P[3];      /* precision: P11, P12, P22 */
} gauss2d;

static int gauss2d_fdf (void *ud, const double *x, double *f, double *g,
                        ol_err *e)
{
  const gauss2d *G = ud;
  double d0 = x[0] - G->mu[0], d1 = x[1] - G->mu[1];
  double g0 = G->P[0] * d0 + G->P[1] * d1;
  double g1 = G->P[1] * d0 + G->P[2] * d1;
  (void)e;
  if (f != NULL) *f = 0.5 * (d0 * g0 + d1 * g1);
  if (g != NULL) {
    g[0] = g0;
    g[1] = g1;
  }
  return OL_OK;
}

static int gauss2d_hess (void *ud, const double *x, double *H, ol_err *e)
{
  const gauss2d *G = ud;
  (void)x; (void)e;
  H[0] = G->P[0];
  H[1] = H[2] = G->P[1];
  H[3] = G->P[2];
  return OL_OK;
}

static const ol_param gauss2d_params[] = {
  {"mu1", OL_P_REAL, 1, -1e300, 1e300, "mean of x1", NULL},
  {"mu2", OL_P_REAL, -1, -1e300, 1e300, "mean of x2", NULL},
  {"s1", OL_P_REAL, 1, OL_GT0, 1e150, "standard deviation of x1 (> 0)", NULL},
  {"s2", OL_P_REAL, 0.5, OL_GT0, 1e150, "standard deviation of x2 (> 0)", NULL},
  {"rho", OL_P_REAL, 0.5, -0.99, 0.99, "correlation of x1 and x2", NULL},
};

static int gauss2d_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  double s1 = v[2].num, s2 = v[3].num, rho = v[4].num, det;
  gauss2d *G;
  if (!(s1 > 0) || !(s2 > 0))
    return ol_err_set(e, OL_EINVAL, "gauss2d needs s1 > 0 and s2 > 0");
  if ((G = malloc(sizeof *G)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = G;
  p->free_ud = free;
  G->mu[0] = v[0].num;
  G->mu[1] = v[1].num;
  det = s1 * s1 * s2 * s2 * (1 - rho * rho);
  G->P[0] = s2 * s2 / det;
  G->P[1] = -rho * s1 * s2 / det;
  G->P[2] = s1 * s1 / det;
  snprintf(p->name, sizeof p->name, "gauss2d");
  p->kind = OL_DENSITY;
  p->n = 2;
  p->fdf = gauss2d_fdf;
  p->hess = gauss2d_hess;
  if ((p->x0 = ol_problem_alloc(2, e)) == NULL
      || (p->xstar = ol_problem_alloc(2, e)) == NULL
      || (p->mean = ol_problem_alloc(2, e)) == NULL
      || (p->cov = ol_problem_alloc(4, e)) == NULL)
    return OL_ENOMEM;
  p->xstar[0] = p->mean[0] = G->mu[0];
  p->xstar[1] = p->mean[1] = G->mu[1];
  p->cov[0] = s1 * s1;
  p->cov[1] = p->cov[2] = rho * s1 * s2;
  p->cov[3] = s2 * s2;
  p->fstar = 0;
  snprintf(p->desc, sizeof p->desc,
           "gauss2d{mu1=%g, mu2=%g, s1=%g, s2=%g, rho=%g}",
           G->mu[0], G->mu[1], s1, s2, rho);
  return OL_OK;
}

const ol_problem_type ol_problem_gauss2d = {
  .name = "gauss2d",
  .kind = OL_DENSITY,
  .doc = "correlated 2-D Gaussian N(mu, Sigma); potential 1/2 "
         "(x-mu)'Sigma^-1(x-mu)",
  .params = gauss2d_params,
  .nparams = (int)(sizeof gauss2d_params / sizeof gauss2d_params[0]),
  .create = gauss2d_create,
};
