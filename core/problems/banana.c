/*
** core/problems/banana.c -- Haario's banana: the twisted Gaussian of
** Haario, Saksman & Tamminen (1999), "Adaptive proposal distribution for
** random walk Metropolis algorithm", Computational Statistics 14(3).
**
** f = N(0, diag(100, 1, ..., 1)) in n >= 2 dimensions, twisted by
** phi(y) = (y1, y2 + b y1^2 - 100 b, y3, ..., yn), which has unit
** Jacobian: p(y) = f(phi(y)).  With t = y2 + b y1^2 - 100 b,
**
**   U(y) = y1^2 / 200 + t^2 / 2 + sum_{i>2} y_i^2 / 2
**   grad U = (y1 / 100 + 2 b y1 t, t, y3, ..., yn)
**   Hessian: H11 = 1/100 + 2 b t + 4 b^2 y1^2, H12 = 2 b y1, H22 = 1,
**            H_ii = 1 (i > 2), else 0
**
** Exact moments (x1 = y1 ~ N(0, 100) and x2 = t ~ N(0, 1) independent,
** y2 = x2 - b x1^2 + 100 b): E y = 0; Var y1 = 100, Var y2 = 1 + b^2 Var
** x1^2 = 1 + 2 10^4 b^2 (201 at b = 0.1), Cov(y1, y2) = -b E x1^3 = 0,
** the others 1 and 0.  The normaliser is (2 pi)^(n/2) 10.  Mode y* = (0,
** 100 b, 0, ...), U(y*) = 0 = f*.  x0 = 0.
*/
#include <stdio.h>
#include <stdlib.h>

#include "ol.h"
#include "problem.h"

typedef struct banana {
  int n;
  double b;
} banana;

static int banana_fdf (void *ud, const double *y, double *f, double *g,
                       ol_err *e)
{
  const banana *B = ud;
  double b = B->b, t = y[1] + b * y[0] * y[0] - 100 * b, s = 0;
  int i, n = B->n;
  (void)e;
  if (f != NULL) {
    for (i = 2; i < n; i++) s += y[i] * y[i];
    *f = y[0] * y[0] / 200 + 0.5 * t * t + 0.5 * s;
  }
  if (g != NULL) {
    g[0] = y[0] / 100 + 2 * b * y[0] * t;
    g[1] = t;
    for (i = 2; i < n; i++) g[i] = y[i];
  }
  return OL_OK;
}

static int banana_hess (void *ud, const double *y, double *H, ol_err *e)
{
  const banana *B = ud;
  double b = B->b, t = y[1] + b * y[0] * y[0] - 100 * b;
  int i, n = B->n;
  (void)e;
  for (i = 0; i < n * n; i++) H[i] = 0;
  for (i = 2; i < n; i++) H[(size_t)i * n + i] = 1;
  H[0] = 0.01 + 2 * b * t + 4 * b * b * y[0] * y[0];
  H[1] = H[n] = 2 * b * y[0];
  H[n + 1] = 1;
  return OL_OK;
}

static const ol_param banana_params[] = {
  {"b", OL_P_REAL, 0.1, 0, 10, "twist (0: a Gaussian; Haario's 0.03 "
   "moderate, 0.1 strong)", NULL},
  {"n", OL_P_INT, 2, 2, 1000, "dimension (coordinates 3..n standard "
   "normal)", NULL},
};

static int banana_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int i, n = (int)v[1].num;
  banana *B;
  if ((B = malloc(sizeof *B)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = B;
  p->free_ud = free;
  B->n = n;
  B->b = v[0].num;
  if ((p->x0 = ol_problem_alloc(n, e)) == NULL
      || (p->xstar = ol_problem_alloc(n, e)) == NULL
      || (p->mean = ol_problem_alloc(n, e)) == NULL
      || (p->cov = ol_problem_alloc(n * n, e)) == NULL)
    return OL_ENOMEM;
  for (i = 0; i < n; i++) p->cov[(size_t)i * n + i] = 1;
  p->cov[0] = 100;
  p->cov[n + 1] = 1 + 2e4 * B->b * B->b;
  p->xstar[1] = 100 * B->b;
  p->fstar = 0;
  snprintf(p->name, sizeof p->name, "banana");
  p->kind = OL_DENSITY;
  p->n = n;
  p->fdf = banana_fdf;
  p->hess = banana_hess;
  snprintf(p->desc, sizeof p->desc, "banana{b=%g, n=%d}", B->b, n);
  return OL_OK;
}

const ol_problem_type ol_problem_banana = {
  .name = "banana",
  .kind = OL_DENSITY,
  .doc = "Haario's twisted Gaussian; mean 0, cov diag(100, 1 + 2e4 b^2, 1, "
         "...)",
  .ref = "Haario, Saksman & Tamminen 1999",
  .params = banana_params,
  .nparams = (int)(sizeof banana_params / sizeof banana_params[0]),
  .create = banana_create,
};
