/*
** core/optim/gd.c -- gradient descent (Cauchy 1847).
**
**   x_{t+1} = x_t - lr_t grad f(x_t),   lr_t = lr * sched_t
*/
#include <math.h>

#include "method.h"
#include "vec.h"

typedef struct gd_state {
  double lr;
  double *g;
} gd_state;

static const ol_param gd_params[] = {
  {"lr", OL_P_REAL, 1e-3, 0, INFINITY, "step size", NULL},
};

static int gd_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  gd_state *s = st;
  s->lr = par[0];
  s->g = ol_vec_new(c->n, e);
  return s->g == NULL ? OL_ENOMEM : OL_OK;
}

static int gd_step (void *st, ol_ctx *c, ol_err *e)
{
  gd_state *s = st;
  double a = s->lr * c->sched, *x = c->x;
  const double *g;
  int i, lo, hi, n = c->n, rc;
  for (lo = 0; lo < n; lo = hi) {
    hi = ol_gblock_end(lo, n);
    /* (1) gradient at x_t, block [lo, hi) */
    if ((rc = ol_ctx_grad_block(c, s->g, lo, hi, &g, e)) != OL_OK) return rc;
    /* (2) move */
    for (i = lo; i < hi; i++) x[i] -= a * g[i - lo];
  }
  return OL_OK;
}

static void gd_fini (void *st)
{
  gd_state *s = st;
  ol_vec_free(s->g);
  s->g = NULL;
}

const ol_method_type ol_optim_gd = {
  "gd", OL_OPTIM,
  "gradient descent: x <- x - lr grad f(x)",
  "Cauchy 1847",
  gd_params, (int)(sizeof gd_params / sizeof gd_params[0]),
  sizeof(gd_state), 0u,
  OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  gd_init, gd_step, gd_fini, NULL
};
