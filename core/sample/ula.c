/*
** core/sample/ula.c -- the unadjusted Langevin algorithm (Roberts &
** Tweedie 1996, Bernoulli 2(4), eq. 1.3 without the Metropolis step;
** Durmus & Moulines 2017, Ann. Appl. Probab. 27(3), eq. 2).
**
** The Euler-Maruyama discretisation of the Langevin diffusion
** dX = -grad U(X) dt + sqrt(2) dW, with h_t = h * sched_t, xi ~ N(0, I):
**
**   x <- x - h_t grad U(x) + sqrt(2 h_t) xi
**
** No accept/reject: every step moves, and the chain's stationary law is
** not exp(-U) but a biased one, the bias O(h).  For a Gaussian target
** U = x'Ax/2 the chain is a linear AR(1), x' = (I - hA) x + sqrt(2h) xi,
** whose stationary covariance S solves the discrete Lyapunov equation
**   S = (I - hA) S (I - hA)' + 2h I,
** (in 1-D with precision a: S = 1 / (a (1 - a h / 2))), and which
** diverges for h >= 2 / lambda_max(A).
**
** One oracle call per step, at the new x; U and grad U there are kept for
** the next step and handed to the run (ol_ctx_known).  A non-finite value
** ends the run (the chain has diverged: there is no rejection to fall back
** on).  Probe: lrmin = lrmed = lrmax = h_t, the drift's coefficient on the
** gradient (ULA is gradient descent plus noise).
*/
#include <math.h>

#include "method.h"
#include "stats.h"
#include "vec.h"

typedef struct ula_state {
  ol_sampler_head h;    /* first (stats.h) */
  double step;          /* h */
  double U;             /* U(x) at the current state */
  double *g;            /* grad U(x) */
  double *xi;
} ula_state;

static const ol_param ula_params[] = {
  {"h", OL_P_REAL, 0.01, OL_GT0, OL_FINITE, "step size (> 0)", NULL},
};

static int ula_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  ula_state *s = st;
  int n = c->n;
  s->step = par[0];
  s->h.n = n;
  s->h.stat.lp = s->h.stat.accept_stat = s->h.stat.energy = NAN;
  if ((s->g = ol_vec_new(n, e)) == NULL
      || (s->xi = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  return ol_ctx_grad(c, c->x, &s->U, s->g, e);
}

static int ula_step (void *st, ol_ctx *c, ol_err *e)
{
  ula_state *s = st;
  double h = s->step * c->sched, sq = sqrt(2 * h), *x = c->x;
  int i, n = c->n, rc;
  /* (1) drift and diffusion */
  ol_rng_normals(c->rng, s->xi, n);
  for (i = 0; i < n; i++) x[i] += -h * s->g[i] + sq * s->xi[i];
  /* (2) U and grad U at the new state, for the next step */
  if ((rc = ol_ctx_grad(c, x, &s->U, s->g, e)) != OL_OK) return rc;
  c->accepted++;
  s->h.stat.lp = -s->U;
  s->h.stat.stepsize = h;
  ol_sampler_count(&s->h);
  ol_ctx_known(c, s->U, s->g);
  return OL_OK;
}

static void ula_fini (void *st)
{
  ula_state *s = st;
  ol_vec_free(s->g);
  ol_vec_free(s->xi);
  s->g = s->xi = NULL;
}

static double ula_probe (const void *st, int metric, const ol_ctx *c)
{
  const ula_state *s = st;
  (void)c;
  if (s->h.stat.iter == 0) return NAN;
  switch (metric) {
  case OL_MET_LRMIN: case OL_MET_LRMED: case OL_MET_LRMAX:
    return s->h.stat.stepsize;
  default:
    return NAN;
  }
}

const ol_method_type ol_sample_ula = {
  .name = "ula",
  .family = OL_SAMPLER,
  .doc =
    "unadjusted Langevin: Euler step of the Langevin diffusion, no MH step",
  .ref = "Roberts & Tweedie 1996; Durmus & Moulines 2017",
  .params = ula_params,
  .nparams = (int)(sizeof ula_params / sizeof ula_params[0]),
  .size = sizeof(ula_state),
  .kinds = OL_KIND(OL_DENSITY) | OL_KIND(OL_OBJECTIVE),
  .init = ula_init,
  .step = ula_step,
  .fini = ula_fini,
  .probe = ula_probe,
  .stats = ol_sampler_head_of,
  .probes = OL_PROBES_LR,
};
