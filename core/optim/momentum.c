/*
** core/optim/momentum.c -- Polyak's heavy-ball method (Polyak 1964,
** "Some methods of speeding up the convergence of iteration methods",
** eq. 9).
**
**   x_{t+1} = x_t - lr_t grad f(x_t) + mu (x_t - x_{t-1}),   x_{-1} = x_0
**
** kept as the displacement d_t = x_t - x_{t-1}: d <- mu d - lr_t g,
** x <- x + d.  lr_t = lr * sched_t.
*/
#include <math.h>

#include "method.h"
#include "vec.h"

typedef struct momentum_state {
  double lr, mu;
  const double *par; /* the run's parameters: lr, mu are live (method.h) */
  double a;         /* this step's lr * schedule */
  double *g;        /* gradient at x_t */
  double *d;        /* x_t - x_{t-1} */
} momentum_state;

static const ol_param momentum_params[] = {
  {"lr", OL_P_REAL, 1e-3, 0, INFINITY, "step size", NULL},
  {"mu", OL_P_REAL, 0.9, 0, 0.9999999999999999, "momentum, in [0, 1)",
   NULL},
};

static int momentum_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  momentum_state *s = st;
  s->lr = par[0];
  s->mu = par[1];
  s->par = par;
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->d = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

static inline void
momentum_update (void *st, double *restrict x, const double *restrict g,
                 int lo, int hi)
{
  const momentum_state *s = st;
  double a = s->a, mu = s->mu, *restrict d = s->d + lo;
  int i;
  x += lo;
  for (i = 0; i < hi - lo; i++) {
    d[i] = mu * d[i] - a * g[i];
    x[i] += d[i];
  }
}

static int momentum_step (void *st, ol_ctx *c, ol_err *e)
{
  momentum_state *s = st;
  s->lr = s->par[0];
  s->mu = s->par[1];
  s->a = s->lr * c->sched;
  /* gradient at x_t; displacement and move */
  return ol_ctx_grad_apply(c, s->g, momentum_update, s, e);
}

static void momentum_fini (void *st)
{
  momentum_state *s = st;
  ol_vec_free(s->g);
  ol_vec_free(s->d);
  s->g = s->d = NULL;
}

const ol_method_type ol_optim_momentum = {
  .name = "momentum",
  .family = OL_OPTIM,
  .doc = "Polyak heavy ball: x <- x - lr g + mu (x - x_prev)",
  .ref = "Polyak 1964, eq. 9",
  .params = momentum_params,
  .nparams = (int)(sizeof momentum_params / sizeof momentum_params[0]),
  .size = sizeof(momentum_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = momentum_init,
  .step = momentum_step,
  .fini = momentum_fini,
  .params_live = OL_LIVE(0) | OL_LIVE(1),
  .probes = OL_MSET_NONE,
};
