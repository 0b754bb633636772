/*
** core/optim/diffgrad.c -- diffGrad (Dubey, Chakraborty, Roy, Mukherjee,
** Singh & Chaudhuri 2020, IEEE TNNLS 31(11), "diffGrad: an optimization
** method for convolutional neural networks", Algorithm 1).
**
**   m_t = beta1 m_{t-1} + (1 - beta1) g_t,   mhat = m_t / (1 - beta1^t)
**   v_t = beta2 v_{t-1} + (1 - beta2) g_t^2,   vhat = v_t / (1 - beta2^t)
**   xi_t = 1 / (1 + exp(-|g_{t-1} - g_t|))       (the friction, in [1/2, 1))
**   x_t = x_{t-1} - lr_t xi_t mhat / (sqrt(vhat) + eps),  lr_t = lr sched_t
**
** componentwise, g_0 = 0 (as in the authors' code, so xi_1 = sigmoid(|g_1|)).
** xi is near 1/2 where the gradient hardly changes (near an optimum) and
** near 1 where it changes fast.  The gradients are double-buffered, so
** g_{t-1} needs no copy.
**
** Probe (lrmin / lrmed / lrmax): min / median / max over coordinates of
** the multiplier applied to the raw first moment m_t in the last step,
**   lr_t xi_t,i / (1 - beta1^t) / (sqrt(vhat_i) + eps);
** the median of an even count is the mean of the two middle values; NAN
** before the first step.
*/
#include <math.h>

#include "adamfam.h"
#include "envelope.h"
#include "method.h"
#include "metrics.h"

typedef struct diffgrad_state {
  double lr, beta1, beta2, eps;
  double b1t, b2t;      /* beta1^t, beta2^t */
  double *g, *gold;     /* g_t and g_{t-1} (swapped every step) */
  double *m, *v;
  double *w;            /* probe scratch (multipliers, reordered) */
} diffgrad_state;

static const ol_param diffgrad_params[] = {
  OL_ADAM_P_LR,
  OL_ADAM_P_BETA1,
  OL_ADAM_P_BETA2,
  OL_ADAM_P_EPS,
};

static int diffgrad_init (void *st, const double *par, ol_ctx *c,
                          ol_err *e)
{
  diffgrad_state *s = st;
  s->lr = par[0];
  s->beta1 = par[1];
  s->beta2 = par[2];
  s->eps = par[3];
  s->b1t = s->b2t = 1;
  return ol_adam_vecs_new(c->n, e, &s->g, &s->gold, &s->m, &s->v, &s->w,
                          (double **)NULL);
}

static int diffgrad_step (void *st, ol_ctx *c, ol_err *e)
{
  diffgrad_state *s = st;
  double b1 = s->beta1, b2 = s->beta2, eps = s->eps, a, r, *tmp;
  double *x = c->x, *g, *go, *m = s->m, *v = s->v;
  int i, n = c->n, rc;
  /* (1) g_{t-1} moves to gold; g_t at x_{t-1} */
  tmp = s->gold;
  s->gold = s->g;
  s->g = tmp;
  g = s->g;
  go = s->gold;
  if ((rc = ol_ctx_grad(c, x, NULL, g, e)) != OL_OK) return rc;
  /* (2) bias corrections folded into a and r */
  s->b1t *= b1;
  s->b2t *= b2;
  a = s->lr * c->sched / (1 - s->b1t);
  r = 1 / sqrt(1 - s->b2t);
  /* (3) moments, friction, move */
  for (i = 0; i < n; i++) {
    double gi = g[i], xi = 1 / (1 + exp(-fabs(go[i] - gi)));
    m[i] = b1 * m[i] + (1 - b1) * gi;
    v[i] = b2 * v[i] + (1 - b2) * gi * gi;
    x[i] -= a * xi * m[i] / (sqrt(v[i]) * r + eps);
  }
  return OL_OK;
}

static void diffgrad_fini (void *st)
{
  diffgrad_state *s = st;
  ol_adam_vecs_free(&s->g, &s->gold, &s->m, &s->v, &s->w, (double **)NULL);
}

static double diffgrad_probe (const void *st, int metric, const ol_ctx *c)
{
  const diffgrad_state *s = st;
  double a, r;
  int i;
  if (c->t < 1 || s->w == NULL) return NAN;
  a = s->lr * c->sched / (1 - s->b1t);
  r = 1 / sqrt(1 - s->b2t);
  for (i = 0; i < c->n; i++) {
    double xi = 1 / (1 + exp(-fabs(s->gold[i] - s->g[i])));
    s->w[i] = a * xi / (sqrt(s->v[i]) * r + s->eps);
  }
  return ol_envelope(s->w, c->n, metric);
}

const ol_method_type ol_optim_diffgrad = {
  .name = "diffgrad",
  .family = OL_OPTIM,
  .doc =
    "diffGrad: Adam step damped by sigmoid(|g_{t-1} - g_t|) per coordinate",
  .ref = "Dubey et al. 2020, IEEE TNNLS, Algorithm 1",
  .params = diffgrad_params,
  .nparams = (int)(sizeof diffgrad_params / sizeof diffgrad_params[0]),
  .size = sizeof(diffgrad_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = diffgrad_init,
  .step = diffgrad_step,
  .fini = diffgrad_fini,
  .probe = diffgrad_probe,
  .probes = OL_PROBES_LR,
};
