/*
** core/sample/rwfixed.c -- random-walk Metropolis with a fixed isotropic
** Gaussian proposal (Metropolis, Rosenbluth, Rosenbluth, Teller & Teller
** 1953, "Equation of state calculations by fast computing machines", J.
** Chem. Phys. 21), no adaptation: the smallest sampler the contract takes.
**
** Target p(x) ~ exp(-U(x)), s_t = scale * sched_t, xi ~ N(0, I):
**
**   y = x + s_t xi;   accept with probability min(1, exp(U(x) - U(y)))
**
** One value evaluation per step (no gradient); a proposal where U is not
** finite is rejected.  (An example of the plug-in contract: tests/extend/
** adds it to a copy of the tree; sample.rwmh is the full one.)
*/
#include <math.h>

#include "method.h"
#include "stats.h"
#include "vec.h"

typedef struct rwfixed_state {
  ol_sampler_head h;    /* first (stats.h) */
  double scale;
  double U;             /* U(x) at the current state */
  double *y;
} rwfixed_state;

static const ol_param rwfixed_params[] = {
  {"scale", OL_P_REAL, 1, OL_GT0, OL_FINITE, "proposal standard deviation",
   NULL},
};

static int rwfixed_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  rwfixed_state *s = st;
  s->scale = par[0];
  s->h.n = c->n;
  s->h.stat.lp = s->h.stat.accept_stat = s->h.stat.energy = NAN;
  if ((s->y = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  return ol_ctx_value(c, c->x, &s->U, e);
}

static int rwfixed_step (void *st, ol_ctx *c, ol_err *e)
{
  rwfixed_state *s = st;
  double sc = s->scale * c->sched, Uy = NAN, a = 0, la = -INFINITY;
  int i, n = c->n, rc;
  /* (1) proposal y = x + s xi */
  ol_rng_normals(c->rng, s->y, n);
  for (i = 0; i < n; i++) s->y[i] = c->x[i] + sc * s->y[i];
  /* (2) U(y); non-finite means reject */
  rc = ol_ctx_value(c, s->y, &Uy, e);
  s->h.stat.nonfinite = 0;
  if (rc == OL_EDOM) {
    ol_err_clear(e);
    ol_sampler_nonfinite(&s->h, s->y, Uy);
  }
  else if (rc != OL_OK) return rc;
  else {
    la = s->U - Uy;
    a = la >= 0 ? 1 : exp(la);
  }
  /* (3) accept or reject */
  if (log(ol_rng_uniform(c->rng)) < la) {
    ol_vec_copy(s->y, c->x, n);
    s->U = Uy;
    c->accepted++;
  }
  s->h.stat.lp = -s->U;
  s->h.stat.accept_stat = a;
  s->h.stat.stepsize = sc;
  ol_sampler_count(&s->h);
  return OL_OK;
}

static void rwfixed_fini (void *st)
{
  rwfixed_state *s = st;
  ol_sampler_head_fini(&s->h);
  ol_vec_free(s->y);
  s->y = NULL;
}

const ol_method_type ol_sample_rwfixed = {
  .name = "rwfixed",
  .family = OL_SAMPLER,
  .doc = "random-walk Metropolis with a fixed isotropic Gaussian proposal",
  .ref = "Metropolis et al. 1953",
  .params = rwfixed_params,
  .nparams = (int)(sizeof rwfixed_params / sizeof rwfixed_params[0]),
  .size = sizeof(rwfixed_state),
  .flags = OL_M_MH | OL_M_NOGRAD,
  .kinds = OL_KIND(OL_DENSITY) | OL_KIND(OL_OBJECTIVE),
  .init = rwfixed_init,
  .step = rwfixed_step,
  .fini = rwfixed_fini,
  .stats = ol_sampler_head_of,
  .probes = OL_MSET_NONE,
};
