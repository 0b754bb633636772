/*
** core/sample/rwmh.c -- random-walk Metropolis with a Gaussian proposal
** (Metropolis, Rosenbluth, Rosenbluth, Teller & Teller 1953; Hastings
** 1970), with the scale tuned to a target acceptance in warmup.
**
** Target p(x) ~ exp(-U(x)).  With s_t = scale * sched_t, the diagonal
** inverse metric m (proposal variances, all ones unless adapted or set)
** and xi ~ N(0, I):
**
**   y = x + s_t sqrt(m) .* xi          (symmetric: q(y|x) = q(x|y))
**   accept with probability min(1, exp(U(x) - U(y))): x <- y
**
** Warmup (adapt.h): dual averaging of log scale towards the acceptance
** delta (default 0.234, the optimum for high-dimensional Gaussian-like
** targets: Roberts, Gelman & Gilks 1997) and, with metric = "diag", the
** proposal variances from Stan's windows.  After warmup the scale is
** frozen.  warmup = 0: the given scale, fixed.
**
** One value evaluation per step (no gradient), at y; a proposal where U is
** not finite is rejected.  U(x) is kept, so the run is told nothing (it
** evaluates at x itself when it records).
*/
#include <math.h>

#include "adapt.h"
#include "method.h"
#include "stats.h"
#include "vec.h"

typedef struct rwmh_state {
  ol_sampler_head h;    /* first (stats.h) */
  ol_adapt ad;
  double scale;         /* proposal scale, adapted in warmup */
  double U;             /* U(x) at the current state */
  double *y, *xi;
} rwmh_state;

static const ol_param rwmh_params[] = {
  {"scale", OL_P_REAL, 1, OL_GT0, OL_FINITE,
   "proposal standard deviation (its start when warmup > 0)", NULL},
  {"warmup", OL_P_INT, 1000, 0, 1e12,
   "adaptation steps (scale, metric); their draws are warmup", NULL},
  {"delta", OL_P_REAL, 0.234, OL_GT0, 0.9999999999999999,
   "target acceptance rate of the warmup", NULL},
  {"metric", OL_P_ENUM, 1, 0, 1,
   "proposal variances: unit (fixed) or diag (estimated in warmup)",
   "unit|diag"},
};

static int rwmh_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  rwmh_state *s = st;
  int n = c->n, rc;
  s->scale = par[0];
  s->h.warmup = (long)par[1];
  s->h.n = n;
  s->h.stat.lp = s->h.stat.accept_stat = s->h.stat.energy = NAN;
  if ((s->h.minv = ol_vec_new(n, e)) == NULL
      || (s->y = ol_vec_new(n, e)) == NULL
      || (s->xi = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  ol_vec_set(s->h.minv, 1, n);
  rc = ol_adapt_init(&s->ad, n, s->h.warmup, par[2], s->scale,
                     par[3] == 1, e);
  if (rc != OL_OK) return rc;
  return ol_ctx_value(c, c->x, &s->U, e);
}

static int rwmh_step (void *st, ol_ctx *c, ol_err *e)
{
  rwmh_state *s = st;
  double *x = c->x, *y = s->y, *m = s->h.minv;
  double sc = s->scale * c->sched, Uy = NAN, a = 0, la = -INFINITY;
  int i, n = c->n, rc;
  /* (1) Gaussian proposal */
  ol_rng_normals(c->rng, s->xi, n);
  for (i = 0; i < n; i++) y[i] = x[i] + sc * sqrt(m[i]) * s->xi[i];
  /* (2) potential at y; non-finite means reject */
  rc = ol_ctx_value(c, y, &Uy, e);
  s->h.stat.nonfinite = 0;
  if (rc == OL_EDOM) {
    ol_err_clear(e);
    ol_sampler_nonfinite(&s->h, y, Uy);
  }
  else if (rc != OL_OK) return rc;
  else {
    la = s->U - Uy;
    a = la >= 0 ? 1 : exp(la);
  }
  /* (3) accept or reject */
  if (log(ol_rng_uniform(c->rng)) < la) {
    ol_vec_copy(y, x, n);
    s->U = Uy;
    c->accepted++;
  }
  s->h.stat.lp = -s->U;
  s->h.stat.accept_stat = a;
  s->h.stat.stepsize = sc;
  /* (4) warmup: scale and proposal variances */
  if (ol_adapt_active(&s->ad) &&
      ol_adapt_step(&s->ad, a, x, &s->scale, m) == OL_ADAPT_METRIC)
    ol_adapt_restart(&s->ad, s->scale);
  ol_sampler_count(&s->h);
  return OL_OK;
}

static void rwmh_fini (void *st)
{
  rwmh_state *s = st;
  ol_sampler_head_fini(&s->h);
  ol_adapt_fini(&s->ad);
  ol_vec_free(s->h.minv);
  ol_vec_free(s->y);
  ol_vec_free(s->xi);
  s->h.minv = s->y = s->xi = NULL;
}

const ol_method_type ol_sample_rwmh = {
  .name = "rwmh",
  .family = OL_SAMPLER,
  .doc = "random-walk Metropolis: Gaussian proposal, scale tuned in warmup",
  .ref = "Metropolis et al. 1953; Roberts, Gelman & Gilks 1997 (0.234)",
  .params = rwmh_params,
  .nparams = (int)(sizeof rwmh_params / sizeof rwmh_params[0]),
  .size = sizeof(rwmh_state),
  .flags = OL_M_MH | OL_M_NOGRAD,
  .kinds = OL_KIND(OL_DENSITY) | OL_KIND(OL_OBJECTIVE),
  .init = rwmh_init,
  .step = rwmh_step,
  .fini = rwmh_fini,
  .stats = ol_sampler_head_of,
  .probes = OL_MSET_NONE,
};
