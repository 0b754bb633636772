/*
** core/problems/funnel.c -- Neal's funnel (Neal 2003, "Slice sampling",
** Annals of Statistics 31(3), section 8), centred or non-centred.
**
** The target over x = (v, x_2, ..., x_n): v ~ N(0, 3^2), x_i | v ~ N(0,
** e^v).  Centred, the sampler works on x itself:
**
**   U(x) = v^2 / 18 + e^-v sum_i x_i^2 / 2 + (n - 1) v / 2
**   dU/dv = v / 9 - e^-v sum_i x_i^2 / 2 + (n - 1) / 2,  dU/dx_i = x_i e^-v
**
** a neck where e^(v/2) is tiny and a mouth where it is large, so a fixed
** step size either diverges in the neck or crawls in the mouth.
** Non-centred (the standard-normal reparametrisation), the sampler works
** on u ~ N(0, I), U(u) = ||u||^2 / 2, and x = T(u) = (3 u_1, e^(3 u_1 / 2)
** u_2, ..., e^(3 u_1 / 2) u_n) is the problem's transform (p->xform): the
** draws are reported as x, the same target.
**
** Exact moments of x (either way): E x = 0, Var v = 9, Var x_i = E e^v =
** e^(9/2), all covariances 0.  x0 = 0 (on the sampled scale).  The
** centred potential has its minimum at v = -9 (n - 1) / 2, x_i = 0, U =
** -9/8 (n - 1)^2; the non-centred one at u = 0, U = 0 (x* and f* on the
** sampled scale).  The Hessian is offered (I when non-centred).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ol.h"
#include "problem.h"

typedef struct funnel {
  int n;
  int noncentered;
} funnel;

static int funnel_fdf (void *ud, const double *x, double *f, double *g,
                       ol_err *e)
{
  const funnel *F = ud;
  int i, n = F->n;
  double s = 0, v = x[0], w;
  (void)e;
  if (F->noncentered) {
    for (i = 0; i < n; i++) s += x[i] * x[i];
    if (f != NULL) *f = 0.5 * s;
    if (g != NULL)
      for (i = 0; i < n; i++) g[i] = x[i];
    return OL_OK;
  }
  w = exp(-v);
  for (i = 1; i < n; i++) s += x[i] * x[i];
  if (f != NULL) *f = v * v / 18 + 0.5 * w * s + 0.5 * (n - 1) * v;
  if (g != NULL) {
    g[0] = v / 9 - 0.5 * w * s + 0.5 * (n - 1);
    for (i = 1; i < n; i++) g[i] = x[i] * w;
  }
  return OL_OK;
}

static int funnel_hess (void *ud, const double *x, double *H, ol_err *e)
{
  const funnel *F = ud;
  int i, n = F->n;
  double s = 0, w = exp(-x[0]);
  (void)e;
  for (i = 0; i < n * n; i++) H[i] = 0;
  if (F->noncentered) {
    for (i = 0; i < n; i++) H[(size_t)i * n + i] = 1;
    return OL_OK;
  }
  for (i = 1; i < n; i++) {
    s += x[i] * x[i];
    H[i] = H[(size_t)i * n] = -x[i] * w;
    H[(size_t)i * n + i] = w;
  }
  H[0] = 1.0 / 9 + 0.5 * w * s;
  return OL_OK;
}

/* The non-centred transform: x = (3 u_1, e^(3 u_1 / 2) u_2, ...). */
static void nc_constrain (int n, const double *u, double *x)
{
  double v = 3 * u[0], w = exp(0.5 * v);
  int i;
  for (i = 1; i < n; i++) x[i] = w * u[i];
  x[0] = v;
}

static int nc_unconstrain (int n, const double *x, double *u, ol_err *e)
{
  double w = exp(-0.5 * x[0]);
  int i;
  (void)e;
  for (i = 1; i < n; i++) u[i] = w * x[i];
  u[0] = x[0] / 3;
  return OL_OK;
}

static const ol_transform nc_transform = {
  NULL, NULL, nc_constrain, nc_unconstrain
};

static const ol_param funnel_params[] = {
  {"n", OL_P_INT, 10, 2, 1000, "dimension: v and n - 1 coordinates x_i",
   NULL},
  {"noncentered", OL_P_BOOL, 0, 0, 1, "sample u ~ N(0, I) with v = 3 u_1, "
   "x_i = e^(v/2) u_i (draws reported as (v, x))", NULL},
};

static int funnel_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int i, n = (int)v[0].num;
  funnel *F;
  if ((F = malloc(sizeof *F)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = F;
  p->free_ud = free;
  F->n = n;
  F->noncentered = v[1].num != 0;
  if ((p->x0 = ol_problem_alloc(n, e)) == NULL
      || (p->xstar = ol_problem_alloc(n, e)) == NULL
      || (p->mean = ol_problem_alloc(n, e)) == NULL
      || (p->cov = ol_problem_alloc(n * n, e)) == NULL)
    return OL_ENOMEM;
  p->cov[0] = 9;
  for (i = 1; i < n; i++) p->cov[(size_t)i * n + i] = exp(4.5);
  snprintf(p->name, sizeof p->name, "funnel");
  p->kind = OL_DENSITY;
  p->n = n;
  p->fdf = funnel_fdf;
  p->hess = funnel_hess;
  if (F->noncentered) {
    p->xform = &nc_transform;
    p->fstar = 0;
  }
  else {
    p->xstar[0] = -4.5 * (n - 1);
    p->fstar = -1.125 * (n - 1) * (double)(n - 1);
  }
  snprintf(p->desc, sizeof p->desc, "funnel{n=%d%s}", n,
           F->noncentered ? ", noncentered=true" : "");
  return OL_OK;
}

const ol_problem_type ol_problem_funnel = {
  .name = "funnel",
  .kind = OL_DENSITY,
  .doc = "Neal's funnel v ~ N(0, 9), x_i ~ N(0, e^v); mean 0, Var v 9, Var "
         "x_i e^4.5",
  .ref = "Neal 2003 (Slice sampling, section 8)",
  .params = funnel_params,
  .nparams = (int)(sizeof funnel_params / sizeof funnel_params[0]),
  .create = funnel_create,
};
