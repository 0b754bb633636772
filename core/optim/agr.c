/*
** core/optim/agr.c -- Nesterov's accelerated gradient with restarts.
**
**   y_k = x_k + beta_k (x_k - x_{k-1}),   beta_k = (k - 1) / (k + 2)
**   x_{k+1} = y_k - lr_t grad f(y_k),      lr_t = lr * sched_t
**
** Momentum sequence of Nesterov 1983 in the form of Beck & Teboulle 2009
** (FISTA without prox; (k-1)/(k+2) is the usual simplification of
** (t_k - 1)/t_{k+1}); restarts of O'Donoghue & Candes 2015 (FoCM 15,
** "Adaptive restart for accelerated gradient schemes", Sec. 3.2):
**   none      plain AG (O(1/k^2) on convex f, ripples under strong
**             convexity)
**   fixed     every K iterations
**   function  when f(x_{k+1}) > f(x_k)        (one extra value per step;
**             the true value, also on noisy problems)
**   gradient  when <grad f(y_k), x_{k+1} - x_k> > 0   (no extra oracle)
** A restart keeps x_{k+1} and resets the momentum: x_k := x_{k+1}, k := 1,
** so the next step is a plain gradient step.  k starts at 1 (x_{-1} = x_0).
** Default 'gradient', which O'Donoghue & Candes find as good and more
** robust near the optimum than the function test.
*/
#include <math.h>

#include "method.h"
#include "vec.h"

enum { AGR_NONE, AGR_FIXED, AGR_FUNCTION, AGR_GRADIENT };

typedef struct agr_state {
  double lr;
  int restart;
  long K, k;        /* restart period; index k of the coming step */
  double fx;        /* f(x_k) (function restart) */
  int havef;        /* fx is set */
  double *xprev, *y, *g;
} agr_state;

static const ol_param agr_params[] = {
  {"lr", OL_P_REAL, 1e-3, 0, INFINITY, "step size (1/L)", NULL},
  {"restart", OL_P_ENUM, AGR_GRADIENT, 0, 3,
   "momentum restart test", "none|fixed|function|gradient"},
  {"K", OL_P_INT, 100, 1, 1e15, "period of the fixed restart", NULL},
};

static int agr_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  agr_state *s = st;
  s->lr = par[0];
  s->restart = (int)par[1];
  s->K = (long)par[2];
  s->k = 1;
  s->havef = 0;
  if ((s->xprev = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->y = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  ol_vec_copy(c->x, s->xprev, c->n);
  return OL_OK;
}

static int agr_step (void *st, ol_ctx *c, ol_err *e)
{
  agr_state *s = st;
  double a = s->lr * c->sched, beta, dot = 0, fnew;
  double *x = c->x, *xp = s->xprev, *y = s->y, *g = s->g;
  int i, n = c->n, rc, restart = 0;
  /* (1) extrapolated point y_k (x_k itself when beta = 0, so the run's
  **     cached gradient serves it) */
  beta = (double)(s->k - 1) / (double)(s->k + 2);
  if (beta == 0)
    ol_vec_copy(x, y, n);
  else
    for (i = 0; i < n; i++) y[i] = x[i] + beta * (x[i] - xp[i]);
  if (s->restart == AGR_FUNCTION && !s->havef) {
    if ((rc = ol_ctx_value(c, x, &s->fx, e)) != OL_OK) return rc;
    s->havef = 1;
  }
  /* (2) gradient step from y_k; x_k becomes x_{k-1} */
  if ((rc = ol_ctx_grad(c, y, NULL, g, e)) != OL_OK) return rc;
  for (i = 0; i < n; i++) {
    double xn = y[i] - a * g[i];
    dot += g[i] * (xn - x[i]);
    xp[i] = x[i];
    x[i] = xn;
  }
  /* (3) restart test */
  switch (s->restart) {
  case AGR_FIXED:
    restart = s->k >= s->K;
    break;
  case AGR_FUNCTION:
    if ((rc = ol_ctx_value(c, x, &fnew, e)) != OL_OK) return rc;
    restart = fnew > s->fx;
    s->fx = fnew;
    break;
  case AGR_GRADIENT:
    restart = dot > 0;
    break;
  default:
    break;
  }
  /* (4) momentum reset or advance */
  if (restart) {
    ol_vec_copy(x, xp, n);
    s->k = 1;
  }
  else
    s->k++;
  return OL_OK;
}

static void agr_fini (void *st)
{
  agr_state *s = st;
  ol_vec_free(s->xprev);
  ol_vec_free(s->y);
  ol_vec_free(s->g);
  s->xprev = s->y = s->g = NULL;
}

const ol_method_type ol_optim_agr = {
  .name = "agr",
  .family = OL_OPTIM,
  .doc = "Accelerated gradient, beta_k = (k-1)/(k+2), with momentum restarts",
  .ref = "Beck & Teboulle 2009; O'Donoghue & Candes 2015, Sec. 3.2",
  .params = agr_params,
  .nparams = (int)(sizeof agr_params / sizeof agr_params[0]),
  .size = sizeof(agr_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = agr_init,
  .step = agr_step,
  .fini = agr_fini,
  .probes = OL_MSET_NONE,
};
