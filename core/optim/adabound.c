/*
** core/optim/adabound.c -- AdaBound (Luo, Xiong, Liu & Sun 2019, ICLR,
** "Adaptive gradient methods with dynamic bound of learning rate",
** Algorithm 2).
**
**   m_t = beta1 m_{t-1} + (1 - beta1) g_t
**   v_t = beta2 v_{t-1} + (1 - beta2) g_t^2
**   etahat_t = clip(lr / (sqrt(v_t) + eps), eta_l(t), eta_u(t))
**   eta_t = sched_t etahat_t / sqrt(t)
**   x_{t+1} = x_t - eta_t m_t                      (componentwise)
**   eta_l(t) = final_lr (1 - 1 / (gamma t + 1))
**   eta_u(t) = final_lr (1 + 1 / (gamma t))        (+inf when gamma = 0)
**
** Form implemented: the paper's Algorithm 2 (no bias correction, the
** 1/sqrt(t) scaling of the clipped rate) with the bound functions of the
** authors' reference code (final_lr = 0.1 and gamma = 1e-3 recover the
** paper's eta_l = 0.1 - 0.1/((1 - beta2) t + 1) for beta2 = 0.999).  The
** reference code instead bias-corrects and drops 1/sqrt(t).  eps (from the
** reference code) guards v = 0.  Constant beta1 (the paper's experiments).
** The schedule multiplies the clipped rate, i.e. lr and both bounds.
** The band, the clipped rate, the probe and the lr, final_lr, gamma rows
** are envelope.h's (shared with amsbound).
**
** Probe (lrmin / lrmed / lrmax): min / median / max over coordinates of
** eta_t of the last step (the multiplier of m_t); the median of an even
** count is the mean of the two middle values; NAN before the first step.
*/
#include <math.h>

#include "adamfam.h"
#include "envelope.h"
#include "method.h"
#include "metrics.h"

typedef struct adabound_state {
  double lr, final_lr, gamma, beta1, beta2, eps;
  double *g, *m, *v;
  double *w;        /* probe scratch (multipliers, reordered) */
} adabound_state;

static const ol_param adabound_params[] = {
  OL_BOUND_P_LR,
  OL_BOUND_P_FINAL_LR,
  OL_BOUND_P_GAMMA,
  OL_ADAM_P_BETA1,
  OL_ADAM_P_BETA2,
  {"eps", OL_P_REAL, 1e-8, 0, INFINITY, "added to sqrt(v)", NULL},
};

static int adabound_init (void *st, const double *par, ol_ctx *c,
                          ol_err *e)
{
  adabound_state *s = st;
  s->lr = par[0];
  s->final_lr = par[1];
  s->gamma = par[2];
  s->beta1 = par[3];
  s->beta2 = par[4];
  s->eps = par[5];
  return ol_adam_vecs_new(c->n, e, &s->g, &s->m, &s->v, &s->w, (double **)NULL);
}

static int adabound_step (void *st, ol_ctx *c, ol_err *e)
{
  adabound_state *s = st;
  double b1 = s->beta1, b2 = s->beta2, t = (double)(c->t + 1), lo, hi, k;
  double *x = c->x, *g = s->g, *m = s->m, *v = s->v;
  int i, n = c->n, rc;
  /* (1) stochastic gradient at x_t */
  if ((rc = ol_ctx_grad(c, x, NULL, g, e)) != OL_OK) return rc;
  /* (2) the band [eta_l(t), eta_u(t)] and the factor sched / sqrt(t) */
  ol_bound_band(s->final_lr, s->gamma, t, &lo, &hi);
  k = c->sched / sqrt(t);
  /* (3) moments, clipped rate, move */
  for (i = 0; i < n; i++) {
    double gi = g[i];
    m[i] = b1 * m[i] + (1 - b1) * gi;
    v[i] = b2 * v[i] + (1 - b2) * gi * gi;
    x[i] -= ol_bound_rate(s->lr, s->eps, v[i], lo, hi, k) * m[i];
  }
  return OL_OK;
}

static void adabound_fini (void *st)
{
  adabound_state *s = st;
  ol_adam_vecs_free(&s->g, &s->m, &s->v, &s->w, (double **)NULL);
}

static double adabound_probe (const void *st, int metric, const ol_ctx *c)
{
  const adabound_state *s = st;
  if (c->t < 1 || s->w == NULL) return NAN;
  return ol_bound_envelope(s->w, s->v, c->n, s->lr, s->eps, s->final_lr,
                           s->gamma, (double)c->t, c->sched, metric);
}

const ol_method_type ol_optim_adabound = {
  .name = "adabound",
  .family = OL_OPTIM,
  .doc = "AdaBound: Adam-type rates clipped to a band shrinking to final_lr",
  .ref = "Luo, Xiong, Liu & Sun 2019, Algorithm 2",
  .params = adabound_params,
  .nparams = (int)(sizeof adabound_params / sizeof adabound_params[0]),
  .size = sizeof(adabound_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = adabound_init,
  .step = adabound_step,
  .fini = adabound_fini,
  .probe = adabound_probe,
  .probes = OL_PROBES_LR,
};
