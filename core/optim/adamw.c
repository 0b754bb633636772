/*
** core/optim/adamw.c -- AdamW, Adam with decoupled weight decay
** (Loshchilov & Hutter 2019, ICLR, Algorithm 2, the "AdamW" lines).
**
**   m_t = beta1 m_{t-1} + (1 - beta1) g_t
**   v_t = beta2 v_{t-1} + (1 - beta2) g_t^2
**   mhat = m_t / (1 - beta1^t),   vhat = v_t / (1 - beta2^t)
**   x_t = x_{t-1} - lr_t (mhat / (sqrt(vhat) + eps) + wd x_{t-1}),
**   lr_t = lr * sched_t
**
** The decay is decoupled from the gradient: it is not rescaled by
** sqrt(vhat).  Form implemented: the decay per unit of lr_t, as in the
** common implementations (PyTorch's AdamW weight_decay, default 1e-2); in
** the paper's notation eta_t = sched_t, alpha = lr and lambda = lr * wd.
** wd = 0 is Adam.
**
** Probe (lrmin / lrmed / lrmax): min / median / max over coordinates of
** the multiplier applied to the raw first moment m_t in the last step,
**   lr_t / (1 - beta1^t) / (sqrt(vhat_i) + eps)
** (the decay term is not included); the median of an even count is the
** mean of the two middle values; NAN before the first step.
*/
#include <math.h>

#include "adamfam.h"
#include "method.h"
#include "metrics.h"

typedef struct adamw_state {
  ol_adam_core k;   /* first: adam's state (fini, probe are adam's) */
  double wd;         /* live: read from k.par[4] at each step */
  double d;         /* this step's decay lr_t wd */
} adamw_state;

static const ol_param adamw_params[] = {
  OL_ADAM_P_LR,
  OL_ADAM_P_BETA1,
  OL_ADAM_P_BETA2,
  OL_ADAM_P_EPS,
  {"wd", OL_P_REAL, 1e-2, 0, INFINITY,
   "decoupled weight decay per unit lr (lambda = lr * wd)", NULL},
};

static int adamw_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  adamw_state *s = st;
  s->wd = par[4];
  return ol_adam_core_init(&s->k, par, c->n, e);
}

/* Moments; adaptive step plus decay of x_{t-1}, for coordinates
** [lo, hi). */
static inline void
adamw_update (void *st, double *restrict x, const double *restrict g,
              int lo, int hi)
{
  const adamw_state *s = st;
  double b1 = s->k.beta1, b2 = s->k.beta2, eps = s->k.eps;
  double a = s->k.a, r = s->k.r, d = s->d;
  double *restrict m = s->k.m + lo, *restrict v = s->k.v + lo;
  int i;
  x += lo;
  for (i = 0; i < hi - lo; i++) {
    double gi = g[i];
    double mi = b1 * m[i] + (1 - b1) * gi;
    double vi = b2 * v[i] + (1 - b2) * gi * gi;
    m[i] = mi;
    v[i] = vi;
    x[i] -= a * mi / (sqrt(vi) * r + eps) + d * x[i];
  }
}

static int adamw_step (void *st, ol_ctx *c, ol_err *e)
{
  adamw_state *s = st;
  double b1t, b2t;
  int rc;
  /* bias corrections folded into a and r, decay factor d */
  s->wd = s->k.par[4];
  s->d = ol_adam_core_begin(&s->k, c, &b1t, &b2t) * s->wd;
  /* stochastic gradient at x_{t-1}, then adamw_update */
  if ((rc = ol_ctx_grad_apply(c, s->k.g, adamw_update, s, e)) != OL_OK)
    return rc;
  s->k.b1t = b1t;
  s->k.b2t = b2t;
  return OL_OK;
}

const ol_method_type ol_optim_adamw = {
  .name = "adamw",
  .family = OL_OPTIM,
  .doc = "AdamW: Adam with weight decay decoupled from the adaptive step",
  .ref = "Loshchilov & Hutter 2019, Algorithm 2",
  .params = adamw_params,
  .nparams = (int)(sizeof adamw_params / sizeof adamw_params[0]),
  .size = sizeof(adamw_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = adamw_init,
  .step = adamw_step,
  .fini = ol_adam_core_fini,
  .probe = ol_adam_core_probe,
  .params_live = OL_LIVE(0) | OL_LIVE(3) | OL_LIVE(4),
  .probes = OL_PROBES_LR,
};
