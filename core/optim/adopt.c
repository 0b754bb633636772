/*
** core/optim/adopt.c -- ADOPT (Taniguchi, Harada, Minegishi, Oshima, Jeong,
** Nagahara, Iiyama, Suzuki, Iwasawa & Matsuo 2024, NeurIPS, "ADOPT:
** modified Adam can converge with any beta2 with the optimal rate",
** Algorithm 1).
**
**   v_0 = g_0^2                      (g_0: its own gradient sample at x_0)
**   m_t = beta1 m_{t-1} + (1 - beta1) clip(g_t / max(sqrt(v_{t-1}), eps))
**   x_t = x_{t-1} - lr_t m_t,        lr_t = lr * sched_t,   m_0 = 0
**   v_t = beta2 v_{t-1} + (1 - beta2) g_t^2
**
** The second moment excludes the current gradient, and normalisation
** comes before the momentum.  clip is the identity unless 'clip' is set;
** then it clips each coordinate to [-t^(1/4), t^(1/4)] (the clipped
** variant of the revised arXiv version 2411.02853 and the authors' code,
** whose default it is; off here to keep Algorithm 1 as published).  The
** first step draws two gradients at x_0 (g_0 for v_0, then g_1), as
** Algorithm 1 does; with exact gradients they coincide (the second is a
** cache hit).
**
** Probe (lrmin / lrmed / lrmax): min / median / max over coordinates of
** the multiplier the last step applied to the incoming gradient g_t,
** lr_t / max(sqrt(v_{t-1,i}), eps) (clipping and the (1 - beta1) weight
** left out); the median of an even count is the mean of the two middle
** values; NAN before the first step.  v is double-buffered so that
** v_{t-1} is still at hand.
*/
#include <math.h>

#include "method.h"
#include "envelope.h"
#include "metrics.h"
#include "vec.h"

typedef struct adopt_state {
  double lr, beta1, beta2, eps;
  int clip;
  double *g, *m;
  double *v, *vold;     /* v_t and v_{t-1} (swapped every step) */
  double *w;            /* probe scratch (multipliers, reordered) */
} adopt_state;

static const ol_param adopt_params[] = {
  {"lr", OL_P_REAL, 1e-3, 0, INFINITY, "step size (alpha)", NULL},
  {"beta1", OL_P_REAL, 0.9, 0, 0.9999999999999999,
   "decay of the first moment, in [0, 1)", NULL},
  {"beta2", OL_P_REAL, 0.9999, 0, 0.9999999999999999,
   "decay of the second moment, in [0, 1) (any value converges)", NULL},
  {"eps", OL_P_REAL, 1e-6, 0, INFINITY,
   "floor of sqrt(v) in the normalisation", NULL},
  {"clip", OL_P_BOOL, 0, 0, 1,
   "clip the normalised gradient at t^(1/4) (revised version)", NULL},
};

static int adopt_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  adopt_state *s = st;
  s->lr = par[0];
  s->beta1 = par[1];
  s->beta2 = par[2];
  s->eps = par[3];
  s->clip = par[4] != 0;
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->m = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->v = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->vold = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->w = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

static int adopt_step (void *st, ol_ctx *c, ol_err *e)
{
  adopt_state *s = st;
  double b1 = s->beta1, b2 = s->beta2, eps = s->eps;
  double a = s->lr * c->sched, ct, *tmp;
  double *x = c->x, *g = s->g, *m = s->m;
  int i, n = c->n, rc;
  /* (1) first step: v_0 = g_0^2 from a gradient sample at x_0 */
  if (c->t == 0) {
    if ((rc = ol_ctx_grad(c, x, NULL, g, e)) != OL_OK) return rc;
    for (i = 0; i < n; i++) s->v[i] = g[i] * g[i];
  }
  /* (2) g_t at x_{t-1}; v_{t-1} moves to vold */
  if ((rc = ol_ctx_grad(c, x, NULL, g, e)) != OL_OK) return rc;
  tmp = s->vold;
  s->vold = s->v;
  s->v = tmp;
  ct = s->clip ? pow((double)(c->t + 1), 0.25) : INFINITY;
  /* (3) normalise by v_{t-1}, clip, momentum; (4) move; (5) v_t */
  for (i = 0; i < n; i++) {
    double gi = g[i], d = sqrt(s->vold[i]), u;
    u = gi / (d > eps ? d : eps);
    if (u > ct) u = ct;
    if (u < -ct) u = -ct;
    m[i] = b1 * m[i] + (1 - b1) * u;
    x[i] -= a * m[i];
    s->v[i] = b2 * s->vold[i] + (1 - b2) * gi * gi;
  }
  return OL_OK;
}

static void adopt_fini (void *st)
{
  adopt_state *s = st;
  ol_vec_free(s->g);
  ol_vec_free(s->m);
  ol_vec_free(s->v);
  ol_vec_free(s->vold);
  ol_vec_free(s->w);
  s->g = s->m = s->v = s->vold = s->w = NULL;
}

static double adopt_probe (const void *st, int metric, const ol_ctx *c)
{
  const adopt_state *s = st;
  double a = s->lr * c->sched;
  int i;
  if (c->t < 1 || s->w == NULL) return NAN;
  for (i = 0; i < c->n; i++) {
    double d = sqrt(s->vold[i]);
    s->w[i] = a / (d > s->eps ? d : s->eps);
  }
  return ol_envelope(s->w, c->n, metric);
}

const ol_method_type ol_optim_adopt = {
  .name = "adopt",
  .family = OL_OPTIM,
  .doc = "ADOPT: normalise by the previous second moment, then take momentum",
  .ref = "Taniguchi et al. 2024, Algorithm 1",
  .params = adopt_params,
  .nparams = (int)(sizeof adopt_params / sizeof adopt_params[0]),
  .size = sizeof(adopt_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = adopt_init,
  .step = adopt_step,
  .fini = adopt_fini,
  .probe = adopt_probe,
  .probes = OL_PROBES_LR,
};
