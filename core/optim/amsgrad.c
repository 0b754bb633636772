/*
** core/optim/amsgrad.c -- AMSGrad (Reddi, Kale & Kumar 2018, ICLR, "On
** the convergence of Adam and beyond", Algorithm 2).
**
**   m_t = beta1 m_{t-1} + (1 - beta1) g_t
**   v_t = beta2 v_{t-1} + (1 - beta2) g_t^2
**   vhat_t = max(vhat_{t-1}, v_t)
**   x_{t+1} = x_t - lr_t m_t / (sqrt(vhat_t) + eps),   lr_t = lr * sched_t
**
** As in Algorithm 2 there is no bias correction (of m or v); constant
** beta1 (the paper allows a decreasing beta1_t) and a constant base step
** (the analysis' alpha / sqrt(t) is available through the run's schedule,
** sched = "invsqrt").  eps (not in the paper) guards the division while
** vhat = 0; eps = 0 is the paper's rule.  vhat is nondecreasing, which is
** the fix of Adam's non-convergence example.
**
** Probe (lrmin / lrmed / lrmax): min / median / max over coordinates of
** the multiplier applied to m_t in the last step, lr_t / (sqrt(vhat_i) +
** eps); the median of an even count is the mean of the two middle values;
** NAN before the first step.
*/
#include <math.h>

#include "adamfam.h"
#include "envelope.h"
#include "method.h"
#include "metrics.h"

typedef struct amsgrad_state {
  double lr, beta1, beta2, eps;
  double a;         /* this step's lr * schedule */
  double *g, *m, *v, *vhat;
  double *w;        /* probe scratch (multipliers, reordered) */
} amsgrad_state;

static const ol_param amsgrad_params[] = {
  OL_ADAM_P_LR,
  OL_ADAM_P_BETA1,
  OL_ADAM_P_BETA2,
  OL_ADAM_P_EPS,
};

static int amsgrad_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  amsgrad_state *s = st;
  s->lr = par[0];
  s->beta1 = par[1];
  s->beta2 = par[2];
  s->eps = par[3];
  return ol_adam_vecs_new(c->n, e, &s->g, &s->m, &s->v, &s->vhat, &s->w,
                          (double **)NULL);
}

static inline void
amsgrad_update (void *st, double *restrict x, const double *restrict g,
                int lo, int hi)
{
  const amsgrad_state *s = st;
  double b1 = s->beta1, b2 = s->beta2, eps = s->eps, a = s->a;
  double *restrict m = s->m + lo, *restrict v = s->v + lo;
  double *restrict vh = s->vhat + lo;
  int i;
  x += lo;
  for (i = 0; i < hi - lo; i++) {
    double gi = g[i];
    m[i] = b1 * m[i] + (1 - b1) * gi;
    v[i] = b2 * v[i] + (1 - b2) * gi * gi;
    if (v[i] > vh[i]) vh[i] = v[i];
    x[i] -= a * m[i] / (sqrt(vh[i]) + eps);
  }
}

static int amsgrad_step (void *st, ol_ctx *c, ol_err *e)
{
  amsgrad_state *s = st;
  s->a = s->lr * c->sched;
  /* stochastic gradient at x_t; moments, running max of v, move */
  return ol_ctx_grad_apply(c, s->g, amsgrad_update, s, e);
}

static void amsgrad_fini (void *st)
{
  amsgrad_state *s = st;
  ol_adam_vecs_free(&s->g, &s->m, &s->v, &s->vhat, &s->w, (double **)NULL);
}

static double amsgrad_probe (const void *st, int metric, const ol_ctx *c)
{
  const amsgrad_state *s = st;
  double a = s->lr * c->sched;
  int i;
  if (c->t < 1 || s->w == NULL) return NAN;
  for (i = 0; i < c->n; i++) s->w[i] = a / (sqrt(s->vhat[i]) + s->eps);
  return ol_envelope(s->w, c->n, metric);
}

const ol_method_type ol_optim_amsgrad = {
  .name = "amsgrad",
  .family = OL_OPTIM,
  .doc = "AMSGrad: Adam without bias correction, normalised by max_s v_s",
  .ref = "Reddi, Kale & Kumar 2018, Algorithm 2",
  .params = amsgrad_params,
  .nparams = (int)(sizeof amsgrad_params / sizeof amsgrad_params[0]),
  .size = sizeof(amsgrad_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = amsgrad_init,
  .step = amsgrad_step,
  .fini = amsgrad_fini,
  .probe = amsgrad_probe,
  .probes = OL_PROBES_LR,
};
