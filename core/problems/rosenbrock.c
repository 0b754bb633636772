/*
** core/problems/rosenbrock.c -- the extended Rosenbrock function
** (Rosenbrock 1960; chained form as in Nocedal & Wright 2006, eq. 2.22).
**
**   f(x) = sum_{i=1}^{n-1} [ 100 (x_{i+1} - x_i^2)^2 + (1 - x_i)^2 ]
**
** x* = ones, f* = 0, x0 = (-1.2, 1, -1.2, 1, ...).  Analytic gradient;
** the analytic (tridiagonal) Hessian is offered for n <= 4096.  The 2-D
** oracle is a straight-line fast path (benchmark W1: Adam, 10^6 steps).
*/
#include <stdio.h>
#include <stdlib.h>

#include "ol.h"
#include "problem.h"
#include "problems/sliced.h"

#define ROSEN_MAXDENSE 4096

typedef struct rosen {
  int n;
} rosen;

static int rosen_fdf (void *ud, const double *x, double *f, double *g,
                      ol_err *e)
{
  int i, n = ((const rosen *)ud)->n;
  double s = 0;
  (void)e;
  if (n == 2) {
    double a = x[0], t = x[1] - a * a, u = 1 - a;
    if (f != NULL) *f = 100 * t * t + u * u;
    if (g != NULL) {
      g[0] = -400 * a * t - 2 * u;
      g[1] = 200 * t;
    }
    return OL_OK;
  }
  if (g != NULL) g[0] = 0;
  for (i = 0; i < n - 1; i++) {
    double a = x[i], t = x[i + 1] - a * a, u = 1 - a;
    s += 100 * t * t + u * u;
    if (g != NULL) {
      g[i] += -400 * a * t - 2 * u;
      g[i + 1] = 200 * t;
    }
  }
  if (f != NULL) *f = s;
  return OL_OK;
}

/* H_ii = 1200 x_i^2 - 400 x_{i+1} + 2 (i < n-1) + 200 (i > 0),
** H_{i,i+1} = H_{i+1,i} = -400 x_i. */
static int rosen_hess (void *ud, const double *x, double *H, ol_err *e)
{
  int i, n = ((const rosen *)ud)->n;
  size_t k, nn = (size_t)n * n;
  (void)e;
  for (k = 0; k < nn; k++) H[k] = 0;
  for (i = 0; i < n; i++) {
    double h = 0;
    if (i < n - 1) {
      h += 1200 * x[i] * x[i] - 400 * x[i + 1] + 2;
      H[(size_t)i * n + i + 1] = H[(size_t)(i + 1) * n + i] = -400 * x[i];
    }
    if (i > 0) h += 200;
    H[(size_t)i * n + i] = h;
  }
  return OL_OK;
}

static const ol_param rosen_params[] = {
  {"n", OL_P_INT, 2, 2, 1e8, "dimension", NULL},
};

static int rosen_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int i, n = (int)v[0].num;
  rosen *r = malloc(sizeof *r);
  if (r == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  r->n = n;
  p->ud = r;
  p->free_ud = free;
  snprintf(p->name, sizeof p->name, "rosenbrock");
  p->kind = OL_OBJECTIVE;
  p->n = n;
  p->fdf = rosen_fdf;
  p->hess = n <= ROSEN_MAXDENSE ? rosen_hess : NULL;
  if ((p->x0 = ol_problem_alloc(n, e)) == NULL) return OL_ENOMEM;
  if ((p->xstar = ol_problem_alloc(n, e)) == NULL) return OL_ENOMEM;
  for (i = 0; i < n; i++) {
    /* n up to 1e8: 1.6 GB to touch, seconds; Ctrl-C stops it */
    if ((i & 0xfffff) == 0 && ol_interrupted()) {
      /* up to 1.6 GB written: given back in the background */
      ol_sl_release(p->x0, (size_t)i * sizeof(double));
      ol_sl_release(p->xstar, (size_t)i * sizeof(double));
      p->x0 = p->xstar = NULL;
      return ol_err_set(e, OL_EINTR, "rosenbrock: interrupted");
    }
    p->x0[i] = i % 2 == 0 ? -1.2 : 1.0;
    p->xstar[i] = 1;
  }
  p->fstar = 0;
  snprintf(p->desc, sizeof p->desc, "rosenbrock{n=%d}", n);
  return OL_OK;
}

const ol_problem_type ol_problem_rosenbrock = {
  .name = "rosenbrock",
  .kind = OL_OBJECTIVE,
  .doc = "sum 100 (x_{i+1} - x_i^2)^2 + (1 - x_i)^2, x* = ones",
  .ref = "Rosenbrock 1960; Nocedal & Wright 2006, eq. 2.22",
  .params = rosen_params,
  .nparams = (int)(sizeof rosen_params / sizeof rosen_params[0]),
  .create = rosen_create,
};
