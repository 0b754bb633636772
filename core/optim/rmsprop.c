/*
** core/optim/rmsprop.c -- RMSProp (Tieleman & Hinton 2012, COURSERA
** "Neural Networks for Machine Learning", lecture 6.5).
**
**   v_t = beta2 v_{t-1} + (1 - beta2) g_t^2
**   x_{t+1} = x_t - lr_t g_t / (sqrt(v_t) + eps),   lr_t = lr * sched_t
**
** (componentwise; v_{-1} = 0; beta2 named as in Adam for uniformity).
**
** Probe (lrmin / lrmed / lrmax): min / median / max over coordinates of
** the multiplier applied to g_t in the last step, lr_t / (sqrt(v_i) + eps);
** the median of an even count is the mean of the two middle values; NAN
** before the first step.
*/
#include <math.h>

#include "method.h"
#include "envelope.h"
#include "metrics.h"
#include "vec.h"

typedef struct rmsprop_state {
  double lr, beta2, eps;
  const double *par; /* the run's parameters: all three are live
                        (method.h) */
  double a;         /* this step's lr * schedule */
  double *g, *v;
  double *w;        /* probe scratch (multipliers, reordered) */
} rmsprop_state;

static const ol_param rmsprop_params[] = {
  {"lr", OL_P_REAL, 1e-3, 0, INFINITY, "step size", NULL},
  {"beta2", OL_P_REAL, 0.9, 0, 0.9999999999999999,
   "decay of the mean square, in [0, 1)", NULL},
  {"eps", OL_P_REAL, 1e-8, 0, INFINITY, "added to sqrt(v)", NULL},
};

static int rmsprop_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  rmsprop_state *s = st;
  s->lr = par[0];
  s->beta2 = par[1];
  s->eps = par[2];
  s->par = par;
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->v = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->w = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

static inline void
rmsprop_update (void *st, double *restrict x, const double *restrict g,
                int lo, int hi)
{
  const rmsprop_state *s = st;
  double a = s->a, b2 = s->beta2, eps = s->eps;
  double *restrict v = s->v + lo;
  int i;
  x += lo;
  for (i = 0; i < hi - lo; i++) {
    v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
    x[i] -= a * g[i] / (sqrt(v[i]) + eps);
  }
}

static int rmsprop_step (void *st, ol_ctx *c, ol_err *e)
{
  rmsprop_state *s = st;
  s->lr = s->par[0];
  s->beta2 = s->par[1];
  s->eps = s->par[2];
  s->a = s->lr * c->sched;
  /* gradient at x_t; mean square; move */
  return ol_ctx_grad_apply(c, s->g, rmsprop_update, s, e);
}

static void rmsprop_fini (void *st)
{
  rmsprop_state *s = st;
  ol_vec_free(s->g);
  ol_vec_free(s->v);
  ol_vec_free(s->w);
  s->g = s->v = s->w = NULL;
}

static double rmsprop_probe (const void *st, int metric, const ol_ctx *c)
{
  const rmsprop_state *s = st;
  double a = s->lr * c->sched;
  int i;
  if (c->t < 1 || s->w == NULL) return NAN;
  for (i = 0; i < c->n; i++) s->w[i] = a / (sqrt(s->v[i]) + s->eps);
  return ol_envelope(s->w, c->n, metric);
}

const ol_method_type ol_optim_rmsprop = {
  .name = "rmsprop",
  .family = OL_OPTIM,
  .doc = "RMSProp: steps lr / sqrt(running mean of squared gradients)",
  .ref = "Tieleman & Hinton 2012, lecture 6.5",
  .params = rmsprop_params,
  .nparams = (int)(sizeof rmsprop_params / sizeof rmsprop_params[0]),
  .size = sizeof(rmsprop_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = rmsprop_init,
  .step = rmsprop_step,
  .fini = rmsprop_fini,
  .probe = rmsprop_probe,
  .params_live = OL_LIVE(0) | OL_LIVE(1) | OL_LIVE(2),
  .probes = OL_PROBES_LR,
};
