/*
** core/optim/gradavg.c -- Grad-Avg (Purkayastha & Purkayastha 2020, "A
** variant of gradient descent algorithm based on gradient averaging",
** OPT2020 workshop at NeurIPS, arXiv 2012.02387).
**
**   xbar = x_k - lr_t g(x_k)
**   x_{k+1} = x_k - lr_t / 2 (g(x_k) + g(xbar)),    lr_t = lr * sched_t
**
** Form implemented: the Heun-type predictor-corrector (an Euler predictor,
** then the average of the two gradients), as described for the Euclidean
** case of the authors' follow-up; the seeds catalog marks it [ext], not
** checked against the paper's own equation.  Two gradients per step.
*/
#include <math.h>

#include "method.h"
#include "vec.h"

typedef struct gradavg_state {
  double lr;
  double *g, *gbar, *xbar;
} gradavg_state;

static const ol_param gradavg_params[] = {
  {"lr", OL_P_REAL, 1e-3, 0, INFINITY, "step size (alpha)", NULL},
};

static int gradavg_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  gradavg_state *s = st;
  s->lr = par[0];
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->gbar = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->xbar = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

static int gradavg_step (void *st, ol_ctx *c, ol_err *e)
{
  gradavg_state *s = st;
  double a = s->lr * c->sched, *x = c->x;
  int i, n = c->n, rc;
  /* (1) gradient at x_k and the Euler predictor xbar */
  if ((rc = ol_ctx_grad(c, x, NULL, s->g, e)) != OL_OK) return rc;
  for (i = 0; i < n; i++) s->xbar[i] = x[i] - a * s->g[i];
  /* (2) gradient at xbar; (3) move along the average */
  if ((rc = ol_ctx_grad(c, s->xbar, NULL, s->gbar, e)) != OL_OK) return rc;
  for (i = 0; i < n; i++) x[i] -= 0.5 * a * (s->g[i] + s->gbar[i]);
  return OL_OK;
}

static void gradavg_fini (void *st)
{
  gradavg_state *s = st;
  ol_vec_free(s->g);
  ol_vec_free(s->gbar);
  ol_vec_free(s->xbar);
  s->g = s->gbar = s->xbar = NULL;
}

const ol_method_type ol_optim_gradavg = {
  .name = "gradavg",
  .family = OL_OPTIM,
  .doc = "Grad-Avg: step along the mean of the gradients at x and x - lr g",
  .ref = "Purkayastha & Purkayastha 2020, arXiv 2012.02387",
  .params = gradavg_params,
  .nparams = (int)(sizeof gradavg_params / sizeof gradavg_params[0]),
  .size = sizeof(gradavg_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = gradavg_init,
  .step = gradavg_step,
  .fini = gradavg_fini,
  .probes = OL_MSET_NONE,
};
