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
** the authors' code).  No learning rate; the run's schedule still
** multiplies eta_t.  A step at a zero gradient with G_t = 0 leaves x in
** place.  Probe: lrmin = lrmed = lrmax = sched eta_t of the last step
** (NAN before the first step).
*/
#include <math.h>

#include "method.h"
#include "metrics.h"
#include "vec.h"

typedef struct dog_state {
  double rbar;      /* rbar_{t-1}, starts at r_eps */
  double G;         /* G_{t-1} */
  double eta;       /* sched eta_t of the last step, NAN before it */
  double *x0, *g;
} dog_state;

static const ol_param dog_params[] = {
  {"reps", OL_P_REAL, 1e-6, 0, INFINITY,
   "initial movement relative to 1 + ||x0||: r_eps = reps (1 + ||x0||)",
   NULL},
};

static int dog_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  dog_state *s = st;
  s->rbar = par[0] * (1 + ol_vec_nrm2(c->x, c->n));
  s->G = 0;
  s->eta = NAN;
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->x0 = ol_vec_dup(c->x, c->n, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

static int dog_step (void *st, ol_ctx *c, ol_err *e)
{
  dog_state *s = st;
  double r, g2;
  int rc;
  /* (1) gradient at x_t */
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK) return rc;
  /* (2) largest distance from x_0 so far, sum of squared gradient norms */
  r = ol_vec_dist(c->x, s->x0, c->n);
  if (r > s->rbar) s->rbar = r;
  g2 = ol_vec_nrm2(s->g, c->n);
  s->G += g2 * g2;
  if (s->G == 0) {
    s->eta = 0;
    return OL_OK;
  }
  if (!isfinite(s->G))
    return ol_err_set(e, OL_EDOM, "dog: sum of squared gradient norms "
                      "overflowed");
  /* (3) eta_t = rbar_t / sqrt(G_t) and move */
  s->eta = c->sched * s->rbar / sqrt(s->G);
  ol_vec_axpy(-s->eta, s->g, c->x, c->n);
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
  (void)c;
  if (metric == OL_MET_LRMIN || metric == OL_MET_LRMED ||
      metric == OL_MET_LRMAX)
    return s->eta;
  return NAN;
}

const ol_method_type ol_optim_dog = {
  "dog", OL_OPTIM,
  "DoG: step size max_i ||x_i - x0|| / sqrt(sum ||g_i||^2), no lr",
  "Ivgi, Hinder & Carmon 2023, ICML, Algorithm 1",
  dog_params, (int)(sizeof dog_params / sizeof dog_params[0]),
  sizeof(dog_state), 0u,
  OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  dog_init, dog_step, dog_fini, dog_probe
};
