/*
** core/optim/signgd.c -- sign gradient descent (Bernstein, Wang,
** Azizzadenesheli & Anandkumar 2018, "signSGD: compressed optimisation for
** non-convex problems", ICML, Algorithm 1 without momentum).
**
**   x_{t+1} = x_t - lr_t sign(grad f(x_t)),   lr_t = lr * sched_t
**
** sign(0) = 0.  Every coordinate moves by lr_t or not at all, so with a
** constant lr the iterate ends within about lr of a minimiser per
** coordinate (lr sqrt(n) in norm).  (An example of the plug-in contract:
** tests/extend/ adds it to a copy of the tree.)
*/
#include <math.h>

#include "method.h"
#include "vec.h"

typedef struct signgd_state {
  double lr;
  double *g;
} signgd_state;

static const ol_param signgd_params[] = {
  {"lr", OL_P_REAL, 1e-3, 0, INFINITY, "step size of each coordinate", NULL},
};

static int signgd_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  signgd_state *s = st;
  s->lr = par[0];
  s->g = ol_vec_new(c->n, e);
  return s->g == NULL ? OL_ENOMEM : OL_OK;
}

static int signgd_step (void *st, ol_ctx *c, ol_err *e)
{
  signgd_state *s = st;
  double a = s->lr * c->sched;
  int i, rc;
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK) return rc;
  for (i = 0; i < c->n; i++)
    c->x[i] -= s->g[i] > 0 ? a : s->g[i] < 0 ? -a : 0;
  return OL_OK;
}

static void signgd_fini (void *st)
{
  signgd_state *s = st;
  ol_vec_free(s->g);
  s->g = NULL;
}

const ol_method_type ol_optim_signgd = {
  .name = "signgd",
  .family = OL_OPTIM,
  .doc = "sign gradient descent: x <- x - lr sign(grad f(x))",
  .ref = "Bernstein et al. 2018 (signSGD)",
  .params = signgd_params,
  .nparams = (int)(sizeof signgd_params / sizeof signgd_params[0]),
  .size = sizeof(signgd_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = signgd_init,
  .step = signgd_step,
  .fini = signgd_fini,
  .params_live = OL_LIVE(0),
  .probes = OL_MSET_NONE,
};
