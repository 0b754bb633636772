/*
** core/optim/adam.c -- Adam (Kingma & Ba 2015, ICLR, Algorithm 1).
**
**   m_t = beta1 m_{t-1} + (1 - beta1) g_t
**   v_t = beta2 v_{t-1} + (1 - beta2) g_t^2
**   mhat = m_t / (1 - beta1^t),   vhat = v_t / (1 - beta2^t)
**   x_t = x_{t-1} - lr_t mhat / (sqrt(vhat) + eps),   lr_t = lr * sched_t
**
** t counts from 1; lr is the paper's alpha.  The powers beta^t are kept
** as running products; the scalars are hoisted and the update is one
** fused loop (benchmark W1), taken a block of the gradient at a time so
** that a separable oracle's block is used while in cache (W2).
**
** Probe (lrmin / lrmed / lrmax): min / median / max over coordinates of
** the multiplier applied to the raw first moment m_t in the last step,
**   lr_t / (1 - beta1^t) / (sqrt(vhat_i) + eps);
** the median of an even count is the mean of the two middle values; NAN
** before the first step.
*/
#include <math.h>

#include "adamfam.h"
#include "method.h"
#include "metrics.h"

static const ol_param adam_params[] = {
  OL_ADAM_P_LR,
  OL_ADAM_P_BETA1,
  OL_ADAM_P_BETA2,
  OL_ADAM_P_EPS,
};

static int adam_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  return ol_adam_core_init(st, par, c->n, e);
}

/* Moments and move, fused, for coordinates [lo, hi). */
static inline void
adam_update (void *st, double *restrict x, const double *restrict g,
             int lo, int hi)
{
  const ol_adam_core *s = st;
  double b1 = s->beta1, b2 = s->beta2, eps = s->eps, a = s->a, r = s->r;
  double *restrict m = s->m + lo, *restrict v = s->v + lo;
  int i;
  x += lo;
  for (i = 0; i < hi - lo; i++) {
    double gi = g[i];
    double mi = b1 * m[i] + (1 - b1) * gi;
    double vi = b2 * v[i] + (1 - b2) * gi * gi;
    m[i] = mi;
    v[i] = vi;
    x[i] -= a * mi / (sqrt(vi) * r + eps);
  }
}

static int adam_step (void *st, ol_ctx *c, ol_err *e)
{
  ol_adam_core *s = st;
  double b1t, b2t;
  int rc;
  /* bias corrections: mhat = m / (1 - b1^t), sqrt(vhat) = sqrt(v) r */
  ol_adam_core_begin(s, c, &b1t, &b2t);
  /* stochastic gradient at x_{t-1}, then adam_update */
  if ((rc = ol_ctx_grad_apply(c, s->g, adam_update, s, e)) != OL_OK)
    return rc;
  s->b1t = b1t;
  s->b2t = b2t;
  return OL_OK;
}

const ol_method_type ol_optim_adam = {
  .name = "adam",
  .family = OL_OPTIM,
  .doc = "Adam: bias-corrected first and second moment estimates",
  .ref = "Kingma & Ba 2015, Algorithm 1",
  .params = adam_params,
  .nparams = (int)(sizeof adam_params / sizeof adam_params[0]),
  .size = sizeof(ol_adam_core),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = adam_init,
  .step = adam_step,
  .fini = ol_adam_core_fini,
  .probe = ol_adam_core_probe,
  .params_live = OL_LIVE(0) | OL_LIVE(3),
  .probes = OL_PROBES_LR,
};
