/*
** core/optim/adamax.c -- AdaMax (Kingma & Ba, "Adam: a method for
** stochastic optimization", ICLR 2015, Section 7.1 and Algorithm 2): Adam
** with the second moment's L2 norm replaced by the infinity norm.
**
**   m_t = beta1 m_{t-1} + (1 - beta1) g_t
**   u_t = max(beta2 u_{t-1}, |g_t|)                (componentwise, u_0 = 0)
**   x_t = x_{t-1} - (lr_t / (1 - beta1^t)) m_t / (u_t + eps)
**
** lr_t = lr * sched_t.  Defaults are the paper's: lr = 0.002, beta1 = 0.9,
** beta2 = 0.999.  u_t needs no bias correction (the paper, 7.1: u_t is a
** max, not an average started at 0).  Algorithm 2 divides by u_t alone;
** eps (default 1e-8, as in Adam's) is added so that a coordinate whose
** gradients were all exactly 0 so far takes no step instead of 0/0 --
** where u_t > 0 it changes the step by a relative eps/u_t.  The seeds
** catalog's B157 (Adam / AdaMax).
**
** Probe (lrmin / lrmed / lrmax): min / median / max over coordinates of
** the multiplier applied to the raw first moment m_t in the last step,
** lr_t / ((1 - beta1^t) (u_t + eps)); NAN before the first step.
*/
#include <math.h>

#include "adamfam.h"
#include "envelope.h"
#include "method.h"
#include "metrics.h"

typedef struct adamax_state {
  double lr, beta1, beta2, eps;
  double b1t;       /* beta1^t */
  double a;         /* the last step's lr_t / (1 - beta1^t) */
  double *g, *m, *u;
  double *w;        /* probe scratch (multipliers, reordered) */
} adamax_state;

static const ol_param adamax_params[] = {
  {"lr", OL_P_REAL, 0.002, 0, INFINITY, "step size (alpha)", NULL},
  OL_ADAM_P_BETA1,
  {"beta2", OL_P_REAL, 0.999, 0, 0.9999999999999999,
   "decay of the infinity norm u_t = max(beta2 u, |g|), in [0, 1)", NULL},
  {"eps", OL_P_REAL, 1e-8, 0, INFINITY,
   "added to u_t (0: Algorithm 2 as printed)", NULL},
};

static int adamax_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  adamax_state *s = st;
  s->lr = par[0];
  s->beta1 = par[1];
  s->beta2 = par[2];
  s->eps = par[3];
  s->b1t = 1;
  s->a = NAN;
  return ol_adam_vecs_new(c->n, e, &s->g, &s->m, &s->u, &s->w,
                          (double **)NULL);
}

static int adamax_step (void *st, ol_ctx *c, ol_err *e)
{
  adamax_state *s = st;
  double b1 = s->beta1, b2 = s->beta2, eps = s->eps, a;
  double *x = c->x, *g = s->g, *m = s->m, *u = s->u;
  int i, n = c->n, rc;
  /* (1) stochastic gradient at x_{t-1} */
  if ((rc = ol_ctx_grad(c, x, NULL, g, e)) != OL_OK) return rc;
  /* (2) the bias-corrected step size */
  s->b1t *= b1;
  s->a = a = s->lr * c->sched / (1 - s->b1t);
  /* (3) first moment, infinity norm, move */
  for (i = 0; i < n; i++) {
    double gi = g[i], ag = fabs(gi), bu = b2 * u[i], d;
    m[i] = b1 * m[i] + (1 - b1) * gi;
    u[i] = bu > ag ? bu : ag;
    d = u[i] + eps;
    if (d > 0) x[i] -= a * m[i] / d;
  }
  return OL_OK;
}

static void adamax_fini (void *st)
{
  adamax_state *s = st;
  ol_adam_vecs_free(&s->g, &s->m, &s->u, &s->w, (double **)NULL);
}

static double adamax_probe (const void *st, int metric, const ol_ctx *c)
{
  const adamax_state *s = st;
  int i;
  if (c->t < 1 || s->w == NULL || isnan(s->a)) return NAN;
  for (i = 0; i < c->n; i++) {
    double d = s->u[i] + s->eps;
    s->w[i] = d > 0 ? s->a / d : 0;
  }
  return ol_envelope(s->w, c->n, metric);
}

const ol_method_type ol_optim_adamax = {
  .name = "adamax",
  .family = OL_OPTIM,
  .doc = "AdaMax: Adam with the infinity norm, u = max(beta2 u, |g|)",
  .ref = "Kingma & Ba 2015, Algorithm 2",
  .params = adamax_params,
  .nparams = (int)(sizeof adamax_params / sizeof adamax_params[0]),
  .size = sizeof(adamax_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = adamax_init,
  .step = adamax_step,
  .fini = adamax_fini,
  .probe = adamax_probe,
  .probes = OL_PROBES_LR,
};
