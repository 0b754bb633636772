/*
** core/optim/adamod.c -- AdaMod (Ding, Ren, Luo & Sun 2019, arXiv
** 1910.12249, "An adaptive and momental bound method for stochastic
** learning", Algorithm 1).
**
**   m_t = beta1 m_{t-1} + (1 - beta1) g_t,   mhat = m_t / (1 - beta1^t)
**   v_t = beta2 v_{t-1} + (1 - beta2) g_t^2,   vhat = v_t / (1 - beta2^t)
**   etahat_t = lr_t / (sqrt(vhat) + eps),     lr_t = lr * sched_t
**   s_t = beta3 s_{t-1} + (1 - beta3) etahat_t,   s_0 = 0
**   eta_t = min(etahat_t, s_t)
**   x_t = x_{t-1} - eta_t mhat                     (componentwise)
**
** Form implemented: the paper's Algorithm 1 (the bias-corrected mhat is
** outside the smoothed rate; the authors' code folds 1/(1 - beta1^t) and
** sqrt(1 - beta2^t) into the rate before smoothing).  beta3 = 0 is Adam.
**
** Probe (lrmin / lrmed / lrmax): min / median / max over coordinates of
** the multiplier applied to the raw first moment m_t in the last step,
** eta_t,i / (1 - beta1^t); the median of an even count is the mean of the
** two middle values; NAN before the first step.
*/
#include <math.h>

#include "adamfam.h"
#include "envelope.h"
#include "method.h"
#include "metrics.h"

typedef struct adamod_state {
  double lr, beta1, beta2, beta3, eps;
  double b1t, b2t;  /* beta1^t, beta2^t */
  double *g, *m, *v, *s;
  double *w;        /* probe scratch (multipliers, reordered) */
} adamod_state;

static const ol_param adamod_params[] = {
  OL_ADAM_P_LR,
  OL_ADAM_P_BETA1,
  OL_ADAM_P_BETA2,
  {"beta3", OL_P_REAL, 0.999, 0, 0.9999999999999999,
   "decay of the running mean of the rates, in [0, 1)", NULL},
  OL_ADAM_P_EPS,
};

static int adamod_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  adamod_state *s = st;
  s->lr = par[0];
  s->beta1 = par[1];
  s->beta2 = par[2];
  s->beta3 = par[3];
  s->eps = par[4];
  s->b1t = s->b2t = 1;
  return ol_adam_vecs_new(c->n, e, &s->g, &s->m, &s->v, &s->s, &s->w,
                          (double **)NULL);
}

static int adamod_step (void *st, ol_ctx *c, ol_err *e)
{
  adamod_state *s = st;
  double b1 = s->beta1, b2 = s->beta2, b3 = s->beta3, eps = s->eps;
  double a = s->lr * c->sched, c1, r;
  double *x = c->x, *g = s->g, *m = s->m, *v = s->v, *sm = s->s;
  int i, n = c->n, rc;
  /* (1) stochastic gradient at x_{t-1} */
  if ((rc = ol_ctx_grad(c, x, NULL, g, e)) != OL_OK) return rc;
  /* (2) bias corrections: mhat = m c1, sqrt(vhat) = sqrt(v) r */
  s->b1t *= b1;
  s->b2t *= b2;
  c1 = 1 / (1 - s->b1t);
  r = 1 / sqrt(1 - s->b2t);
  /* (3) moments, (4) smoothed rate and its cap, (5) move */
  for (i = 0; i < n; i++) {
    double gi = g[i], eh, et;
    m[i] = b1 * m[i] + (1 - b1) * gi;
    v[i] = b2 * v[i] + (1 - b2) * gi * gi;
    eh = a / (sqrt(v[i]) * r + eps);
    sm[i] = b3 * sm[i] + (1 - b3) * eh;
    et = eh < sm[i] ? eh : sm[i];
    x[i] -= et * m[i] * c1;
  }
  return OL_OK;
}

static void adamod_fini (void *st)
{
  adamod_state *s = st;
  ol_adam_vecs_free(&s->g, &s->m, &s->v, &s->s, &s->w, (double **)NULL);
}

static double adamod_probe (const void *st, int metric, const ol_ctx *c)
{
  const adamod_state *s = st;
  double a, c1, r;
  int i;
  if (c->t < 1 || s->w == NULL) return NAN;
  a = s->lr * c->sched;
  c1 = 1 / (1 - s->b1t);
  r = 1 / sqrt(1 - s->b2t);
  for (i = 0; i < c->n; i++) {
    double eh = a / (sqrt(s->v[i]) * r + s->eps);
    s->w[i] = (eh < s->s[i] ? eh : s->s[i]) * c1;
  }
  return ol_envelope(s->w, c->n, metric);
}

const ol_method_type ol_optim_adamod = {
  .name = "adamod",
  .family = OL_OPTIM,
  .doc = "AdaMod: Adam with each rate capped by its own running mean",
  .ref = "Ding, Ren, Luo & Sun 2019, Algorithm 1",
  .params = adamod_params,
  .nparams = (int)(sizeof adamod_params / sizeof adamod_params[0]),
  .size = sizeof(adamod_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = adamod_init,
  .step = adamod_step,
  .fini = adamod_fini,
  .probe = adamod_probe,
  .probes = OL_PROBES_LR,
};
