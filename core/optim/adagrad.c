/*
** core/optim/adagrad.c -- AdaGrad, diagonal version (Duchi, Hazan & Singer
** 2011, JMLR, Section 1 / Figure 1).
**
**   G_t = G_{t-1} + g_t^2
**   x_{t+1} = x_t - lr_t g_t / (sqrt(G_t) + eps),   lr_t = lr * sched_t
**
** (componentwise; G_{-1} = 0).
**
** Probe (lrmin / lrmed / lrmax): min / median / max over coordinates of
** the multiplier applied to g_t in the last step, lr_t / (sqrt(G_i) + eps);
** the median of an even count is the mean of the two middle values; NAN
** before the first step.
*/
#include <math.h>

#include "method.h"
#include "envelope.h"
#include "metrics.h"
#include "vec.h"

typedef struct adagrad_state {
  double lr, eps;
  const double *par; /* the run's parameters: lr, eps are live (method.h) */
  double a;         /* this step's lr * schedule */
  double *g, *G;
  double *w;        /* probe scratch (multipliers, reordered) */
} adagrad_state;

static const ol_param adagrad_params[] = {
  {"lr", OL_P_REAL, 1e-2, 0, INFINITY, "step size", NULL},
  {"eps", OL_P_REAL, 1e-8, 0, INFINITY, "added to sqrt(G)", NULL},
};

static int adagrad_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  adagrad_state *s = st;
  s->lr = par[0];
  s->eps = par[1];
  s->par = par;
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->G = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->w = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

static inline void
adagrad_update (void *st, double *restrict x, const double *restrict g,
                int lo, int hi)
{
  const adagrad_state *s = st;
  double a = s->a, eps = s->eps, *restrict G = s->G + lo;
  int i;
  x += lo;
  for (i = 0; i < hi - lo; i++) {
    G[i] += g[i] * g[i];
    x[i] -= a * g[i] / (sqrt(G[i]) + eps);
  }
}

static int adagrad_step (void *st, ol_ctx *c, ol_err *e)
{
  adagrad_state *s = st;
  s->lr = s->par[0];
  s->eps = s->par[1];
  s->a = s->lr * c->sched;
  /* gradient at x_t; accumulate squared gradients; move */
  return ol_ctx_grad_apply(c, s->g, adagrad_update, s, e);
}

static void adagrad_fini (void *st)
{
  adagrad_state *s = st;
  ol_vec_free(s->g);
  ol_vec_free(s->G);
  ol_vec_free(s->w);
  s->g = s->G = s->w = NULL;
}

static double adagrad_probe (const void *st, int metric, const ol_ctx *c)
{
  const adagrad_state *s = st;
  double a = s->lr * c->sched;
  int i;
  if (c->t < 1 || s->w == NULL) return NAN;
  for (i = 0; i < c->n; i++) s->w[i] = a / (sqrt(s->G[i]) + s->eps);
  return ol_envelope(s->w, c->n, metric);
}

const ol_method_type ol_optim_adagrad = {
  .name = "adagrad",
  .family = OL_OPTIM,
  .doc = "AdaGrad: per-coordinate steps lr / sqrt(sum of squared gradients)",
  .ref = "Duchi, Hazan & Singer 2011",
  .params = adagrad_params,
  .nparams = (int)(sizeof adagrad_params / sizeof adagrad_params[0]),
  .size = sizeof(adagrad_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = adagrad_init,
  .step = adagrad_step,
  .fini = adagrad_fini,
  .probe = adagrad_probe,
  .params_live = OL_LIVE(0) | OL_LIVE(1),
  .probes = OL_PROBES_LR,
};
