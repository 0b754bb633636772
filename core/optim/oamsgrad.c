/*
** core/optim/oamsgrad.c -- Optimistic AMSGrad (Wang, Li, Karimi & Li
** 2021, ACML, "An optimistic acceleration of AMSGrad for nonconvex
** optimization", Algorithm 2, OPT-AMSGRAD; seeds catalog B011).
**
**   g_t = grad f(w_t)
**   theta_t = beta1 theta_{t-1} + (1 - beta1) g_t
**   v_t = beta2 v_{t-1} + (1 - beta2) g_t^2
**   vhat_t = max(vhat_{t-1}, v_t)
**   w_{t+1/2} = w_{t-1/2} - lr_t theta_t / (sqrt(vhat_t) + eps)
**   w_{t+1} = w_{t+1/2} - lr_t h_{t+1} / (sqrt(vhat_t) + eps)
**   h_{t+1} = beta1 theta_{t-1} + (1 - beta1) m_{t+1},   lr_t = lr sched_t
**
** w_{1/2} = w_1 = x0, theta_0 = v_0 = vhat_0 = 0; the run's x is w_t, the
** point where the gradient is taken; the state keeps the half-step
** sequence w_{t-1/2}.  The first line of the move is AMSGrad's step
** (core/optim/amsgrad.c) on the half-step sequence; the second is the
** optimistic correction, the step AMSGrad would take with the predicted
** next first moment h_{t+1}.
**
** Form implemented: the seed's abstract gives only the idea (a prediction
** of the next gradient, from optimistic online learning); the update is
** the published algorithm, with h_{t+1} written as printed there (theta of
** step t - 1) and its second moment of g_t^2 (AMSGrad's).  Here the hint
** is the previous gradient, m_{t+1} = g_t (the basic optimistic choice:
** the next gradient is predicted to be the last one).  eps (not in the
** paper) guards vhat = 0.  No projection (the unconstrained case, Pi = I).
**
** The paper's own predictor of m_{t+1} is not implemented: its algorithm
** box could not be read (only the abstract and introduction of the paper
** were reachable).  The authors' public code (optimistic-amsgrad,
** Optadam_torch.py) does not extrapolate gradients: it takes the gradient,
** on the current minibatch, at an RMPE extrapolation (Scieur, d'Aspremont
** & Bach 2016: (U U^T + 1e-3 I) z = 1, c = z / sum z) of the last span = 5
** iterates w_s, with U's rows w_s - w_{s-1/2}; that costs a second
** gradient per step, and the same code takes v from (m_{t+1} - g_t)^2 and
** bias-corrects, so it is not the update above either.
**
** Probe (lrmin / lrmed / lrmax): min / median / max over coordinates of
** lr_t / (sqrt(vhat_i) + eps), the multiplier of theta_t and h_{t+1} in
** the last step; NAN before the first step.
*/
#include <math.h>

#include "adamfam.h"
#include "envelope.h"
#include "method.h"
#include "metrics.h"

typedef struct oamsgrad_state {
  double lr, beta1, beta2, eps;
  double *g, *th, *v, *vhat;
  double *half;     /* w_{t-1/2} */
  double *w;        /* probe scratch (multipliers, reordered) */
  int started;      /* half holds w_{1/2} = x0 */
} oamsgrad_state;

static const ol_param oamsgrad_params[] = {
  OL_ADAM_P_LR,
  OL_ADAM_P_BETA1,
  OL_ADAM_P_BETA2,
  OL_ADAM_P_EPS,
};

static int oamsgrad_init (void *st, const double *par, ol_ctx *c,
                          ol_err *e)
{
  oamsgrad_state *s = st;
  s->lr = par[0];
  s->beta1 = par[1];
  s->beta2 = par[2];
  s->eps = par[3];
  return ol_adam_vecs_new(c->n, e, &s->g, &s->th, &s->v, &s->vhat,
                          &s->half, &s->w, (double **)NULL);
}

static int oamsgrad_step (void *st, ol_ctx *c, ol_err *e)
{
  oamsgrad_state *s = st;
  double b1 = s->beta1, b2 = s->beta2, eps = s->eps, a = s->lr * c->sched;
  double *x = c->x, *g = s->g, *th = s->th, *v = s->v, *vh = s->vhat;
  double *half = s->half;
  int i, n = c->n, rc;
  /* (1) stochastic gradient g_t at w_t */
  if ((rc = ol_ctx_grad(c, x, NULL, g, e)) != OL_OK) return rc;
  if (!s->started) {
    for (i = 0; i < n; i++) half[i] = x[i];
    s->started = 1;
  }
  for (i = 0; i < n; i++) {
    double gi = g[i], thp = th[i], d, h;
    /* (2) moments (theta_{t-1} kept for the hint) and running max of v */
    th[i] = b1 * thp + (1 - b1) * gi;
    v[i] = b2 * v[i] + (1 - b2) * gi * gi;
    if (v[i] > vh[i]) vh[i] = v[i];
    d = a / (sqrt(vh[i]) + eps);
    /* (3) AMSGrad step on the half-step sequence */
    half[i] -= d * th[i];
    /* (4) optimistic correction with the hint m_{t+1} = g_t */
    h = b1 * thp + (1 - b1) * gi;
    x[i] = half[i] - d * h;
  }
  return OL_OK;
}

static void oamsgrad_fini (void *st)
{
  oamsgrad_state *s = st;
  ol_adam_vecs_free(&s->g, &s->th, &s->v, &s->vhat, &s->half, &s->w,
                    (double **)NULL);
}

static double oamsgrad_probe (const void *st, int metric, const ol_ctx *c)
{
  const oamsgrad_state *s = st;
  double a = s->lr * c->sched;
  int i;
  if (c->t < 1 || s->w == NULL) return NAN;
  for (i = 0; i < c->n; i++) s->w[i] = a / (sqrt(s->vhat[i]) + s->eps);
  return ol_envelope(s->w, c->n, metric);
}

const ol_method_type ol_optim_oamsgrad = {
  .name = "oamsgrad",
  .family = OL_OPTIM,
  .doc = "Optimistic AMSGrad: AMSGrad plus a step along the predicted moment",
  .ref = "Wang, Li, Karimi & Li 2021, Algorithm 2 (OPT-AMSGrad)",
  .params = oamsgrad_params,
  .nparams = (int)(sizeof oamsgrad_params / sizeof oamsgrad_params[0]),
  .size = sizeof(oamsgrad_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = oamsgrad_init,
  .step = oamsgrad_step,
  .fini = oamsgrad_fini,
  .probe = oamsgrad_probe,
  .probes = OL_PROBES_LR,
};
