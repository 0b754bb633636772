/*
** core/problems/rastrigin.c -- the Rastrigin function (Rastrigin 1974;
** generalised to n dimensions by Muehlenbein, Schomisch & Born 1991).
**
**   f(x) = A n + sum_i [ x_i^2 - A cos(2 pi x_i) ]
**   grad_i = 2 x_i + 2 pi A sin(2 pi x_i)
**   H = diag(2 + 4 pi^2 A cos(2 pi x_i))
**
** Highly multimodal: a local minimiser near every integer point.  x* = 0,
** f* = 0, x0 = (2.5, ..., 2.5) (between the local minima near 2 and 3).
** The (diagonal) Hessian is offered for n <= 4096; the gradient is
** separable (p->gsep).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ol.h"
#include "problem.h"

#define RASTRIGIN_MAXDENSE 4096
#define TWO_PI 6.283185307179586476925286766559

typedef struct rastrigin {
  int n;
  double A;
} rastrigin;

static int rastrigin_fdf (void *ud, const double *x, double *f, double *g,
                          ol_err *e)
{
  const rastrigin *r = ud;
  int i, n = r->n;
  double A = r->A, s = A * n, w = TWO_PI;
  (void)e;
  for (i = 0; i < n; i++) {
    double xi = x[i];
    if (f != NULL) s += xi * xi - A * cos(w * xi);
    if (g != NULL) g[i] = 2 * xi + w * A * sin(w * xi);
  }
  if (f != NULL) *f = s;
  return OL_OK;
}

/* Separable: coordinates lo .. hi-1 of the gradient into gb. */
static int rastrigin_gsep (void *ud, const double *x, int lo, int hi,
                           double *gb, ol_err *e)
{
  const rastrigin *r = ud;
  double wA = TWO_PI * r->A;
  uint64_t bad = 0;
  int i;
  for (i = lo; i < hi; i++) {
    gb[i - lo] = 2 * x[i] + wA * sin(TWO_PI * x[i]);
    bad |= ol_fbit(gb[i - lo]);
  }
  return OL_FBITS_OK(bad) ? OL_OK
    : ol_err_set(e, OL_EDOM, "non-finite gradient");
}

static int rastrigin_hess (void *ud, const double *x, double *H, ol_err *e)
{
  const rastrigin *r = ud;
  int i, n = r->n;
  size_t k, nn = (size_t)n * n;
  double w = TWO_PI;
  (void)e;
  for (k = 0; k < nn; k++) H[k] = 0;
  for (i = 0; i < n; i++)
    H[(size_t)i * n + i] = 2 + w * w * r->A * cos(w * x[i]);
  return OL_OK;
}

static const ol_param rastrigin_params[] = {
  {"n", OL_P_INT, 2, 1, 1e8, "dimension", NULL},
  {"A", OL_P_REAL, 10, 0, 1e6, "amplitude of the cosine ripples", NULL},
};

static int rastrigin_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int i, n = (int)v[0].num;
  rastrigin *r = malloc(sizeof *r);
  if (r == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  r->n = n;
  r->A = v[1].num;
  p->ud = r;
  p->free_ud = free;
  snprintf(p->name, sizeof p->name, "rastrigin");
  p->kind = OL_OBJECTIVE;
  p->n = n;
  p->fdf = rastrigin_fdf;
  p->gsep = rastrigin_gsep;
  p->hess = n <= RASTRIGIN_MAXDENSE ? rastrigin_hess : NULL;
  if ((p->x0 = ol_problem_alloc(n, e)) == NULL) return OL_ENOMEM;
  if ((p->xstar = ol_problem_alloc(n, e)) == NULL) return OL_ENOMEM;
  for (i = 0; i < n; i++) p->x0[i] = 2.5;
  p->fstar = 0;
  snprintf(p->desc, sizeof p->desc, "rastrigin{n=%d, A=%g}", n, r->A);
  return OL_OK;
}

const ol_problem_type ol_problem_rastrigin = {
  .name = "rastrigin",
  .kind = OL_OBJECTIVE,
  .doc = "A n + sum x_i^2 - A cos(2 pi x_i), multimodal, x* = 0",
  .ref = "Rastrigin 1974; Muehlenbein, Schomisch & Born 1991",
  .params = rastrigin_params,
  .nparams = (int)(sizeof rastrigin_params / sizeof rastrigin_params[0]),
  .create = rastrigin_create,
};
