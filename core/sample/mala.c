/*
** core/sample/mala.c -- Metropolis-adjusted Langevin algorithm (Roberts &
** Tweedie 1996, Bernoulli 2(4), Section 1.4.2).
**
** Target p(x) ~ exp(-U(x)): U is the density's potential, or f itself for
** an objective.  With h_t = h * sched_t and xi ~ N(0, I):
**
**   y = x - h_t grad U(x) + sqrt(2 h_t) xi
**   log alpha = U(x) - U(y)
**             - ( ||x - y + h_t grad U(y)||^2 - ||y - x + h_t grad U(x)||^2 )
**               / (4 h_t)
**   accept with probability min(1, alpha): x <- y, accepted++
**
** U and grad U at the current state are kept, so a step costs one oracle
** call (at y); they are handed to the run (ol_ctx_known), which then
** evaluates nothing itself.  A proposal where the oracle gives a non-finite value
** (p(y) = 0 numerically) is rejected rather than ending the run.
*/
#include <math.h>

#include "method.h"
#include "vec.h"

typedef struct mala_state {
  double h;
  double U;         /* U(x) at the current state */
  double *g;        /* grad U(x) */
  double *y;        /* proposal */
  double *gy;       /* grad U(y) */
  double *xi;       /* N(0, I) draws */
} mala_state;

static const ol_param mala_params[] = {
  {"h", OL_P_REAL, 0.1, 0, INFINITY, "step size (> 0)", NULL},
};

static int mala_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  mala_state *s = st;
  int n = c->n;
  s->h = par[0];
  if (!(s->h > 0)) return ol_err_set(e, OL_EINVAL, "mala needs h > 0");
  if ((s->g = ol_vec_new(n, e)) == NULL
      || (s->y = ol_vec_new(n, e)) == NULL
      || (s->gy = ol_vec_new(n, e)) == NULL
      || (s->xi = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  return ol_ctx_grad(c, c->x, &s->U, s->g, e);
}

static int mala_step (void *st, ol_ctx *c, ol_err *e)
{
  mala_state *s = st;
  double h = s->h * c->sched, sq = sqrt(2 * h), Uy, qf = 0, qb = 0;
  double *x = c->x, *y = s->y, *gx = s->g, *gy = s->gy, *t;
  int i, n = c->n, rc;
  /* (1) Langevin proposal */
  ol_rng_normals(c->rng, s->xi, n);
  for (i = 0; i < n; i++) y[i] = x[i] - h * gx[i] + sq * s->xi[i];
  /* (2) potential and gradient at y; non-finite means reject */
  rc = ol_ctx_grad(c, y, &Uy, gy, e);
  if (rc == OL_EDOM) {
    ol_err_clear(e);
    ol_ctx_known(c, s->U, gx);
    return OL_OK;
  }
  if (rc != OL_OK) return rc;
  /* (3) log acceptance ratio with both proposal densities */
  for (i = 0; i < n; i++) {
    double b = x[i] - y[i] + h * gy[i];   /* reverse move y -> x */
    double f = y[i] - x[i] + h * gx[i];   /* forward move x -> y */
    qb += b * b;
    qf += f * f;
  }
  /* (4) accept or reject */
  if (log(ol_rng_uniform(c->rng)) < s->U - Uy - (qb - qf) / (4 * h)) {
    ol_vec_copy(y, x, n);
    s->U = Uy;
    t = s->g; s->g = s->gy; s->gy = t;
    c->accepted++;
  }
  ol_ctx_known(c, s->U, s->g);
  return OL_OK;
}

static void mala_fini (void *st)
{
  mala_state *s = st;
  ol_vec_free(s->g);
  ol_vec_free(s->y);
  ol_vec_free(s->gy);
  ol_vec_free(s->xi);
  s->g = s->y = s->gy = s->xi = NULL;
}

const ol_method_type ol_sample_mala = {
  "mala", OL_SAMPLER,
  "Metropolis-adjusted Langevin: Langevin proposal plus MH correction",
  "Roberts & Tweedie 1996",
  mala_params, (int)(sizeof mala_params / sizeof mala_params[0]),
  sizeof(mala_state), OL_M_MH,
  OL_KIND(OL_DENSITY) | OL_KIND(OL_OBJECTIVE),
  mala_init, mala_step, mala_fini, NULL, 0u
};
