/*
** core/problems/sphere.c -- the sphere function f(x) = 1/2 ||x||^2, the
** first of De Jong's test functions (De Jong 1975, "An analysis of the
** behavior of a class of genetic adaptive systems", PhD thesis, F1).
**
**   grad f = x,  Hessian I,  x* = 0,  f* = 0,  x0 = ones.
**
** (An example of the plug-in contract: tests/extend/ adds it to a copy of
** the tree.)
*/
#include <stdio.h>
#include <stdlib.h>

#include "ol.h"
#include "problem.h"

#define SPHERE_MAXDENSE 4096

static int sphere_fdf (void *ud, const double *x, double *f, double *g,
                       ol_err *e)
{
  const int *n = ud;
  double s = 0;
  int i;
  (void)e;
  for (i = 0; i < *n; i++) {
    s += x[i] * x[i];
    if (g != NULL) g[i] = x[i];
  }
  if (f != NULL) *f = 0.5 * s;
  return OL_OK;
}

static int sphere_hess (void *ud, const double *x, double *H, ol_err *e)
{
  int i, n = *(const int *)ud;
  (void)x;
  (void)e;
  for (i = 0; i < n * n; i++) H[i] = i % (n + 1) == 0;
  return OL_OK;
}

static const ol_param sphere_params[] = {
  {"n", OL_P_INT, 2, 1, 1e8, "dimension", NULL},
};

static int sphere_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int i, n = (int)v[0].num, *ud = malloc(sizeof *ud);
  if (ud == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  *ud = n;
  p->ud = ud;                /* the oracle's data: n */
  p->free_ud = free;
  p->n = n;
  snprintf(p->name, sizeof p->name, "sphere");
  p->kind = OL_OBJECTIVE;
  p->fdf = sphere_fdf;
  p->hess = n <= SPHERE_MAXDENSE ? sphere_hess : NULL;
  if ((p->x0 = ol_problem_alloc(n, e)) == NULL
      || (p->xstar = ol_problem_alloc(n, e)) == NULL)
    return OL_ENOMEM;
  for (i = 0; i < n; i++) p->x0[i] = 1;
  p->fstar = 0;
  p->quadratic = 1;
  snprintf(p->desc, sizeof p->desc, "sphere{n=%d}", n);
  return OL_OK;
}

const ol_problem_type ol_problem_sphere = {
  .name = "sphere",
  .kind = OL_OBJECTIVE,
  .doc = "sphere f(x) = 1/2 ||x||^2; x* = 0, f* = 0",
  .ref = "De Jong 1975 (F1)",
  .params = sphere_params,
  .nparams = (int)(sizeof sphere_params / sizeof sphere_params[0]),
  .create = sphere_create,
};
