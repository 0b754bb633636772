/*
** core/optim/clipadagradnorm.c -- clipped (reweighted) AdaGrad-Norm with
** delay: Clip-AdaGradD-Norm and Clip-RAdaGradD (Chezhegov, Klyukin,
** Semenov, Beznosikov, Gasnikov, Horvath, Takac & Gorbunov 2024, arXiv
** 2406.04443v1, "Gradient clipping improves AdaGrad when the noise is
** heavy-tailed"; v3 and ICML 2025 retitled "Clipping improves Adam-Norm and
** AdaGrad-Norm when the noise is heavy-tailed").
**
**   clip(g, lambda) = min(1, lambda / ||g||) g
**   x_{t+1} = x_t - sched_t gamma clip(g_t, lambda) / b_{t-1}
**   b_t^2   = b_{t-1}^2 + eta ||clip(g_t, lambda)||^2,   b_{-1} = b0
**
** DELAY: the step divides by the previous b, so the step size does not
** depend on the current stochastic gradient.  REWEIGHTING (the "R" of
** Clip-RAdaGradD): the squared clipped norms enter the accumulator with
** the weight eta.  eta = 1 is Clip-AdaGradD-Norm (the default, bit for bit
** the method before eta existed); lambda = inf with eta = 1 is AdaGradD.
** A small eta keeps b_t near b0, so the method behaves like clipped SGD
** with step gamma / b0 while keeping AdaGrad's decreasing step.
**
** Source of the reweighting rule: the abstract names it without a formula,
** and the paper's algorithm box could not be read when this was written
** (only abstract pages and the authors' code were at hand), so no
** algorithm or equation number is cited.  The rule above is the authors'
** released code (github.com/yaroslavkliukin/Clipped-AdaGrad-and-Adam,
** mirrored as Andron00e/Clipped-AdaGrad-and-Adam): the synthetic quadratic
** notebook's adagrad_clip_quadratic_delay_eta is exactly this update in
** 1-D, with eta = gamma^2; the PyTorch class AdaGradClip_Delayed_Etta
** ("Adagrad algorithm with clipping, delay and reweighing", "etta (float):
** reweighing parameter") names eta the weight of the squared gradient in
** the accumulator, but keeps one accumulator per coordinate and also steps
** along the previous gradient; the notebook's form is the one followed
** here.  Left open by that code: the theory's choice of eta
** (scripts/clip_radagradd.lua takes eta = 1/T, so that b_T^2 <= 2 b0^2
** with lambda = b0 = 1).
**
** Probe: lrmin = lrmed = lrmax = sched gamma / b_t, the step size the
** next step takes (gamma / b0 right after init; sched the latest schedule
** factor).
*/
#include <math.h>

#include "method.h"
#include "metrics.h"
#include "vec.h"

typedef struct cagn_state {
  double gamma, lambda, eta;
  double b2;        /* b_{t-1}^2 */
  double *g;
} cagn_state;

static const ol_param cagn_params[] = {
  {"gamma", OL_P_REAL, 0.1, 0, INFINITY, "step size", NULL},
  {"lambda", OL_P_REAL, 1, 0, INFINITY, "clipping level (gradient norm)",
   NULL},
  {"b0", OL_P_REAL, 1, OL_GT0, OL_FINITE, "initial accumulator b_{-1} > 0",
   NULL},
  {"eta", OL_P_REAL, 1, OL_GT0, OL_FINITE, "weight of ||clip(g)||^2 in b^2 "
   "(the reweighting; 1: none)", NULL},
};

static int cagn_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  cagn_state *s = st;
  s->gamma = par[0];
  s->lambda = par[1];
  s->b2 = par[2] * par[2];
  s->eta = par[3];
  s->g = ol_vec_new(c->n, e);
  return s->g == NULL ? OL_ENOMEM : OL_OK;
}

static int cagn_step (void *st, ol_ctx *c, ol_err *e)
{
  cagn_state *s = st;
  double gn, a;
  int rc;
  /* (1) stochastic gradient at x_t, clipped to norm lambda */
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK) return rc;
  gn = ol_vec_nrm2(s->g, c->n);
  a = gn > s->lambda ? s->lambda / gn : 1;
  /* (2) move with the previous accumulator b_{t-1} */
  ol_vec_axpy(-c->sched * s->gamma * a / sqrt(s->b2), s->g, c->x, c->n);
  /* (3) accumulate the clipped norm with the weight eta (eta = 1 multiplies
  ** exactly, so the unweighted method is unchanged bit for bit) */
  s->b2 += s->eta * (a * a * gn * gn);
  if (!isfinite(s->b2))
    return ol_err_set(e, OL_EDOM, "clipadagradnorm: accumulator "
                      "overflowed");
  return OL_OK;
}

static void cagn_fini (void *st)
{
  cagn_state *s = st;
  ol_vec_free(s->g);
  s->g = NULL;
}

static double cagn_probe (const void *st, int metric, const ol_ctx *c)
{
  const cagn_state *s = st;
  if (metric == OL_MET_LRMIN || metric == OL_MET_LRMED ||
      metric == OL_MET_LRMAX)
    return c->sched * s->gamma / sqrt(s->b2);
  return NAN;
}

const ol_method_type ol_optim_clipadagradnorm = {
  .name = "clipadagradnorm",
  .family = OL_OPTIM,
  .doc = "clipped AdaGrad-Norm with delay: x <- x - gamma clip(g) / b_{t-1}",
  .ref = "Chezhegov et al. 2024, arXiv 2406.04443 (Clip-AdaGradD-Norm; "
         "eta != 1: Clip-RAdaGradD)",
  .params = cagn_params,
  .nparams = (int)(sizeof cagn_params / sizeof cagn_params[0]),
  .size = sizeof(cagn_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = cagn_init,
  .step = cagn_step,
  .fini = cagn_fini,
  .probe = cagn_probe,
  .probes = OL_PROBES_LR,
};
