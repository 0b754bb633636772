/*
** core/optim/nesterov.c -- Nesterov's accelerated gradient in the momentum
** form of Sutskever, Martens, Dahl & Hinton 2013 (ICML, eqs. 3-4).
**
**   v_{t+1} = mu v_t - lr_t grad f(x_t + mu v_t)
**   x_{t+1} = x_t + v_{t+1},          v_0 = 0,  lr_t = lr * sched_t
*/
#include <math.h>

#include "method.h"
#include "vec.h"

typedef struct nesterov_state {
  double lr, mu;
  const double *par; /* the run's parameters: lr, mu are live (method.h) */
  double *v;        /* velocity */
  double *y;        /* look-ahead point x_t + mu v_t */
  double *g;        /* gradient at y */
} nesterov_state;

static const ol_param nesterov_params[] = {
  {"lr", OL_P_REAL, 1e-3, 0, INFINITY, "step size", NULL},
  {"mu", OL_P_REAL, 0.9, 0, 0.9999999999999999, "momentum, in [0, 1)",
   NULL},
};

static int nesterov_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  nesterov_state *s = st;
  s->lr = par[0];
  s->mu = par[1];
  s->par = par;
  if ((s->v = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->y = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

static int nesterov_step (void *st, ol_ctx *c, ol_err *e)
{
  nesterov_state *s = st;
  double a, mu;
  double *x = c->x, *v = s->v, *y = s->y, *g = s->g;
  int i, n = c->n, rc;
  s->lr = s->par[0];
  s->mu = s->par[1];
  a = s->lr * c->sched;
  mu = s->mu;
  /* (1) look-ahead point y = x_t + mu v_t (x_t itself while v = 0, so the
  **     run's cached gradient is reused on the first step) */
  if (c->t == 0) {
    if ((rc = ol_ctx_grad(c, x, NULL, g, e)) != OL_OK) return rc;
  }
  else {
    for (i = 0; i < n; i++) y[i] = x[i] + mu * v[i];
    if ((rc = ol_ctx_grad(c, y, NULL, g, e)) != OL_OK) return rc;
  }
  /* (2) velocity and move */
  for (i = 0; i < n; i++) {
    v[i] = mu * v[i] - a * g[i];
    x[i] += v[i];
  }
  return OL_OK;
}

static void nesterov_fini (void *st)
{
  nesterov_state *s = st;
  ol_vec_free(s->v);
  ol_vec_free(s->y);
  ol_vec_free(s->g);
  s->v = s->y = s->g = NULL;
}

const ol_method_type ol_optim_nesterov = {
  .name = "nesterov",
  .family = OL_OPTIM,
  .doc = "Nesterov momentum: v <- mu v - lr grad f(x + mu v); x <- x + v",
  .ref = "Sutskever, Martens, Dahl & Hinton 2013, eqs. 3-4",
  .params = nesterov_params,
  .nparams = (int)(sizeof nesterov_params / sizeof nesterov_params[0]),
  .size = sizeof(nesterov_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = nesterov_init,
  .step = nesterov_step,
  .fini = nesterov_fini,
  .params_live = OL_LIVE(0) | OL_LIVE(1),
  .probes = OL_MSET_NONE,
};
