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
  const double *par; /* the run's parameters: lr is live (method.h) */
  double a;         /* this step's lr * schedule */
  double *g;
} gd_state;

static const ol_param gd_params[] = {
  {"lr", OL_P_REAL, 1e-3, 0, INFINITY, "step size", NULL},
};

static int gd_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  gd_state *s = st;
  s->lr = par[0];
  s->par = par;
  s->g = ol_vec_new(c->n, e);
  return s->g == NULL ? OL_ENOMEM : OL_OK;
}

static inline void
gd_update (void *st, double *restrict x, const double *restrict g,
           int lo, int hi)
{
  double a = ((const gd_state *)st)->a;
  int i;
  x += lo;
  for (i = 0; i < hi - lo; i++) x[i] -= a * g[i];
}

static int gd_step (void *st, ol_ctx *c, ol_err *e)
{
  gd_state *s = st;
  s->lr = s->par[0];
  s->a = s->lr * c->sched;
  /* gradient at x_t and the move, fused */
  return ol_ctx_grad_apply(c, s->g, gd_update, s, e);
}

static void gd_fini (void *st)
{
  gd_state *s = st;
  ol_vec_free(s->g);
  s->g = NULL;
}

const ol_method_type ol_optim_gd = {
  .name = "gd",
  .family = OL_OPTIM,
  .doc = "gradient descent: x <- x - lr grad f(x)",
  .ref = "Cauchy 1847",
  .params = gd_params,
  .nparams = (int)(sizeof gd_params / sizeof gd_params[0]),
  .size = sizeof(gd_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = gd_init,
  .step = gd_step,
  .fini = gd_fini,
  .params_live = OL_LIVE(0),
  .probes = OL_MSET_NONE,
};
