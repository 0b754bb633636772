/*
** core/optim/dog.c -- DoG, "Distance over Gradients": a step-size free
** SGD (Ivgi, Hinder & Carmon 2023, ICML, Algorithm 1).
**
**   rbar_t = max(r_eps, max_{i<=t} ||x_i - x_0||)
**   r_eps  = reps (1 + ||x_0||)
**   G_t    = sum_{i<=t} ||g_i||^2
**   eta_t  = rbar_t / sqrt(G_t)
**   x_{t+1} = x_t - sched_t eta_t g_t
**
** The plain (global, not layer-wise "LDoG") form of Algorithm 1, with the
** paper's initial movement r_eps = reps (1 + ||x_0||) (reps = 1e-6 as in
** the authors' code, where it is reps_rel).  No learning rate; the run's
** schedule still multiplies eta_t.  eta_t = 0 while G_t = 0.
** g_0 is drawn in init (a free hit on the run's cache at x0), so the
** probe has a value before the first step: lrmin = lrmed = lrmax = sched
** eta of the latest step, which right after init is eta_0, the step the
** first move takes (sched being the latest schedule factor).  Every step
** t >= 1 draws g_t at x_t first, as other methods do, so a step costs one
** gradient and shares the run's cached evaluation.
*/
#include <math.h>

#include "method.h"
#include "metrics.h"
#include "vec.h"

typedef struct dog_state {
  double rbar;      /* rbar_t */
  double G;         /* G_t */
  double eta;       /* eta of the latest step (eta_0 after init) */
  double *x0, *g;   /* x_0; g_t */
} dog_state;

static const ol_param dog_params[] = {
  {"reps", OL_P_REAL, 1e-6, 0, INFINITY,
   "initial movement relative to 1 + ||x0||: r_eps = reps (1 + ||x0||)",
   NULL},
};

/* Draw g_t at c->x = x_t and bring rbar_t, G_t, eta_t up to date. */
static int dog_observe (dog_state *s, ol_ctx *c, ol_err *e)
{
  double r, gn;
  int rc;
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK) return rc;
  r = ol_vec_dist(c->x, s->x0, c->n);
  if (r > s->rbar) s->rbar = r;
  gn = ol_vec_nrm2(s->g, c->n);
  s->G += gn * gn;
  if (!isfinite(s->G))
    return ol_err_set(e, OL_EDOM, "dog: sum of squared gradient norms "
                      "overflowed");
  s->eta = s->G > 0 ? s->rbar / sqrt(s->G) : 0;
  return OL_OK;
}

static int dog_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  dog_state *s = st;
  s->rbar = par[0] * (1 + ol_vec_nrm2(c->x, c->n));
  s->G = 0;
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->x0 = ol_vec_dup(c->x, c->n, e)) == NULL) return OL_ENOMEM;
  return dog_observe(s, c, e);
}

static int dog_step (void *st, ol_ctx *c, ol_err *e)
{
  dog_state *s = st;
  int rc;
  /* (1) g_t at x_t with rbar_t, G_t, eta_t (step 0: done in init) */
  if (c->t > 0 && (rc = dog_observe(s, c, e)) != OL_OK) return rc;
  /* (2) move */
  ol_vec_axpy(-c->sched * s->eta, s->g, c->x, c->n);
  return OL_OK;
}

static void dog_fini (void *st)
{
  dog_state *s = st;
  ol_vec_free(s->g);
  ol_vec_free(s->x0);
  s->g = s->x0 = NULL;
}

/* One step size for every coordinate. */
static double dog_probe (const void *st, int metric, const ol_ctx *c)
{
  const dog_state *s = st;
  if (metric == OL_MET_LRMIN || metric == OL_MET_LRMED ||
      metric == OL_MET_LRMAX)
    return c->sched * s->eta;
  return NAN;
}

const ol_method_type ol_optim_dog = {
  .name = "dog",
  .family = OL_OPTIM,
  .doc = "DoG: step size max_i ||x_i - x0|| / sqrt(sum ||g_i||^2), no lr",
  .ref = "Ivgi, Hinder & Carmon 2023, ICML, Algorithm 1",
  .params = dog_params,
  .nparams = (int)(sizeof dog_params / sizeof dog_params[0]),
  .size = sizeof(dog_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = dog_init,
  .step = dog_step,
  .fini = dog_fini,
  .probe = dog_probe,
  .probes = OL_PROBES_LR,
};
