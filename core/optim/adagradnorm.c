/*
** core/optim/adagradnorm.c -- AdaGrad-Norm, the scalar (norm) version of
** AdaGrad (Ward, Wu & Bottou 2019, ICML, "AdaGrad stepsizes: sharp
** convergence over nonconvex landscapes", Algorithm 1).
**
**   b_t^2 = b_{t-1}^2 + ||g_t||^2
**   x_{t+1} = x_t - lr_t g_t / b_t,       lr_t = lr * sched_t
**
** One step size for all coordinates; the current gradient is in b_t (not
** the delayed variant).  Defaults: lr = 1, the scale-free choice for which
** the first step has length below lr, and b0 = 1e-2, a small initial value
** (the paper's point is robustness to b0: any b0 > 0 converges, a too
** small one costs a few large first steps).
**
** Probe (lrmin / lrmed / lrmax): the multiplier lr_t / b_t of g_t in the
** last step (the same for every coordinate); NAN before the first step.
*/
#include <math.h>

#include "method.h"
#include "metrics.h"
#include "vec.h"

typedef struct adagradnorm_state {
  double lr, b2;    /* b_t^2 */
  double *g;
} adagradnorm_state;

static const ol_param adagradnorm_params[] = {
  {"lr", OL_P_REAL, 1, 0, INFINITY, "step size (eta)", NULL},
  {"b0", OL_P_REAL, 1e-2, OL_GT0, OL_FINITE,
   "initial accumulator b_0 > 0", NULL},
};

static int adagradnorm_init (void *st, const double *par, ol_ctx *c,
                             ol_err *e)
{
  adagradnorm_state *s = st;
  s->lr = par[0];
  s->b2 = par[1] * par[1];
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

static int adagradnorm_step (void *st, ol_ctx *c, ol_err *e)
{
  adagradnorm_state *s = st;
  double *x = c->x, *g = s->g, gn;
  int n = c->n, rc;
  /* (1) gradient at x_t */
  if ((rc = ol_ctx_grad(c, x, NULL, g, e)) != OL_OK) return rc;
  /* (2) accumulate the squared norm; (3) move */
  gn = ol_vec_nrm2(g, n);
  s->b2 += gn * gn;
  ol_vec_axpy(-s->lr * c->sched / sqrt(s->b2), g, x, n);
  return OL_OK;
}

static void adagradnorm_fini (void *st)
{
  adagradnorm_state *s = st;
  ol_vec_free(s->g);
  s->g = NULL;
}

static double adagradnorm_probe (const void *st, int metric,
                                 const ol_ctx *c)
{
  const adagradnorm_state *s = st;
  if (c->t < 1) return NAN;
  switch (metric) {
  case OL_MET_LRMIN:
  case OL_MET_LRMED:
  case OL_MET_LRMAX:
    return s->lr * c->sched / sqrt(s->b2);
  default:
    return NAN;
  }
}

const ol_method_type ol_optim_adagradnorm = {
  .name = "adagradnorm",
  .family = OL_OPTIM,
  .doc = "AdaGrad-Norm: one step size lr / sqrt(b0^2 + sum of ||g||^2)",
  .ref = "Ward, Wu & Bottou 2019, Algorithm 1",
  .params = adagradnorm_params,
  .nparams = (int)(sizeof adagradnorm_params / sizeof adagradnorm_params[0]),
  .size = sizeof(adagradnorm_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = adagradnorm_init,
  .step = adagradnorm_step,
  .fini = adagradnorm_fini,
  .probe = adagradnorm_probe,
  .probes = OL_PROBES_LR,
};
