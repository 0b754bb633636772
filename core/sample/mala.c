/*
** core/sample/mala.c -- Metropolis-adjusted Langevin algorithm (Roberts &
** Tweedie 1996, Bernoulli 2(4), Section 1.4.2), preconditioned by a
** constant mass matrix (Girolami & Calderhead 2011, JRSS B 73(2), eq. 9-10
** with a constant metric G(x) = M), with Stan-style warmup.
**
** Target p(x) ~ exp(-U(x)): U is the density's potential, or f itself for
** an objective.  With A = M^-1 = L L' (mass.h: unit, diagonal or dense),
** h_t = h * sched_t and xi ~ N(0, I):
**
**   mu(x) = x - h_t A grad U(x)
**   y     = mu(x) + sqrt(2 h_t) L xi                 (y ~ N(mu(x), 2 h_t A))
**   log q(y | x) = -(y - mu(x))' M (y - mu(x)) / (4 h_t) + const
**   log alpha = U(x) - U(y) + log q(x | y) - log q(y | x)
**             = U(x) - U(y)
**               - ( ||x - y + h_t A grad U(y)||_M^2
**                 - ||y - x + h_t A grad U(x)||_M^2 ) / (4 h_t)
**   accept with probability min(1, alpha): x <- y, accepted++
**
** ||r||_M^2 = r' M r (= ||L^-1 r||^2); with A = I this is Roberts &
** Tweedie's MALA, bit for bit the unpreconditioned arithmetic.  The
** constant normalisers of q cancel (A does not depend on x).
**
** Warmup (adapt.h), when warmup > 0: MALA's proposal is one leapfrog
** step of HMC with eps = sqrt(2 h) and the same acceptance probability, so
** Stan's machinery applies unchanged on eps: the heuristic first step
** size (hamilton.h), dual averaging of log eps to the target acceptance
** delta (0.574 by default: Roberts & Rosenthal 1998's optimal rate for
** MALA), and with metric = "diag" or "dense" the inverse metric A
** estimated in Stan's expanding windows (a new heuristic start after
** each), with a terminal buffer of 200 steps instead of Stan's 50: one
** proposal's acceptance is a noisy statistic, and after 50 steps the
** averaged eps stays short (post-warmup acceptance 0.70 for delta = 0.574
** on a 2-D Gaussian; 0.62 with 200).  h = eps^2 / 2 throughout warmup;
** frozen after it.  Before its metric is learnt MALA mixes slowly (the
** slow direction needs ~ cond d^(1/3) steps), so on an ill-conditioned
** target the windows need a long warmup (t_samplers: 60000 steps for a
** 50-D Gaussian of condition 100).  warmup = 0
** (the default): the given h, fixed, and the unit (or set) metric.
**
** U and grad U at the current state are kept, so a step costs one oracle
** call (at y; more at the warmup's heuristic starts); they are handed to
** the run (ol_ctx_known), which then evaluates nothing itself.  A proposal
** where the oracle gives a non-finite value (p(y) = 0 numerically) is
** rejected rather than ending the run.
*/
#include <math.h>

#include "adapt.h"
#include "hamilton.h"
#include "mass.h"
#include "method.h"
#include "stats.h"
#include "vec.h"

typedef struct mala_state {
  ol_sampler_head h;    /* first (stats.h) */
  ol_adapt ad;
  ol_mass mass;         /* over h.minv */
  double hstep;         /* h, adapted in warmup */
  double eps;           /* sqrt(2 h), what warmup adapts */
  int started;
  ol_hpoint cur;        /* g = grad U(x), U = U(x); q = x during warmup */
  ol_hpoint z;          /* scratch of the step-size heuristic */
  double *ag;           /* A grad U(x) */
  double *y;            /* proposal */
  double *gy, *agy;     /* grad U(y), A grad U(y) */
  double *xi, *v;       /* N(0, I) draws, L xi */
  double *r;            /* residuals of the proposal densities */
} mala_state;

static const ol_param mala_params[] = {
  {"h", OL_P_REAL, 0.1, OL_GT0, OL_FINITE, "step size (> 0)", NULL},
  {"warmup", OL_P_INT, 1000, 0, 1e12,
   "adaptation steps (step size, metric); their draws are warmup", NULL},
  {"delta", OL_P_REAL, 0.574, OL_GT0, 0.9999999999999999,
   "target acceptance rate of the warmup", NULL},
  {"metric", OL_P_ENUM, 1, 0, 2,
   "mass matrix: unit (fixed), diag or dense (estimated in warmup)",
   "unit|diag|dense"},
};

static int mala_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  mala_state *s = st;
  int n = c->n, rc;
  double **v[] = {&s->ag, &s->y, &s->gy, &s->agy, &s->xi, &s->v, &s->r};
  size_t k;
  s->hstep = par[0];
  if (!(s->hstep > 0)) return ol_err_set(e, OL_EINVAL, "mala needs h > 0");
  s->eps = sqrt(2 * s->hstep);
  s->h.warmup = (long)par[1];
  s->h.n = n;
  s->h.stat.lp = s->h.stat.accept_stat = s->h.stat.energy = NAN;
  if ((s->h.minv = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  s->h.mass = &s->mass;
  if ((rc = ol_mass_init(&s->mass, n, s->h.minv, par[3] == 2, e)) != OL_OK
      || (rc = ol_hpoint_init(&s->cur, n, e)) != OL_OK
      || (rc = ol_hpoint_init(&s->z, n, e)) != OL_OK
      || (rc = ol_adapt_init(&s->ad, n, s->h.warmup, par[2], s->eps,
                             (int)par[3], e)) != OL_OK)
    return rc;
  if (par[3] != 0) ol_winvar_buffers(&s->ad.wv, 75, 200, 25);
  for (k = 0; k < sizeof v / sizeof v[0]; k++)
    if ((*v[k] = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  ol_vec_copy(c->x, s->cur.q, n);
  return ol_ctx_grad(c, c->x, &s->cur.U, s->cur.g, e);
}

static int mala_step (void *st, ol_ctx *c, ol_err *e)
{
  mala_state *s = st;
  const ol_mass *m = &s->mass;
  double h, sq, Uy = NAN, qf, qb, la, a = 0;
  double *x = c->x, *y = s->y, *t;
  int i, n = c->n, rc, adapting = ol_adapt_active(&s->ad);
  /* (0) the first warmup step starts from Stan's heuristic step size */
  if (!s->started) {
    s->started = 1;
    if (adapting) {
      if ((rc = ol_ham_init_stepsize(c, &s->cur, &s->z, m, &s->eps, e))
          != OL_OK)
        return rc;
      ol_adapt_restart(&s->ad, s->eps);
      s->hstep = 0.5 * s->eps * s->eps;
    }
    ol_mass_sharp(m, s->cur.g, s->ag);
  }
  h = s->hstep * c->sched;
  sq = sqrt(2 * h);
  /* (1) preconditioned Langevin proposal */
  ol_rng_normals(c->rng, s->xi, n);
  if (m->unit)
    for (i = 0; i < n; i++) y[i] = x[i] - h * s->ag[i] + sq * s->xi[i];
  else {
    ol_mass_noise(m, s->xi, s->v);
    for (i = 0; i < n; i++) y[i] = x[i] - h * s->ag[i] + sq * s->v[i];
  }
  /* (2) potential and gradient at y; non-finite means reject */
  rc = ol_ctx_grad(c, y, &Uy, s->gy, e);
  s->h.stat.nonfinite = 0;
  if (rc == OL_EDOM) {
    ol_err_clear(e);
    ol_sampler_nonfinite(&s->h, y, Uy);
  }
  else if (rc != OL_OK) return rc;
  else {
    /* (3) log acceptance ratio with both proposal densities */
    ol_mass_sharp(m, s->gy, s->agy);
    qb = qf = 0;
    if (m->dense) {
      for (i = 0; i < n; i++) s->r[i] = x[i] - y[i] + h * s->agy[i];
      qb = ol_mass_quad(m, s->r, NULL);   /* reverse move y -> x */
      for (i = 0; i < n; i++) s->r[i] = y[i] - x[i] + h * s->ag[i];
      qf = ol_mass_quad(m, s->r, NULL);   /* forward move x -> y */
    }
    else
      /* one pass, two independent sums (the diagonal M = 1 / minv) */
      for (i = 0; i < n; i++) {
        double b = x[i] - y[i] + h * s->agy[i];   /* reverse move y -> x */
        double f = y[i] - x[i] + h * s->ag[i];    /* forward move x -> y */
        if (m->unit) {
          qb += b * b;
          qf += f * f;
        }
        else {
          qb += b * b / s->h.minv[i];
          qf += f * f / s->h.minv[i];
        }
      }
    la = s->cur.U - Uy - (qb - qf) / (4 * h);
    a = la >= 0 ? 1 : isnan(la) ? 0 : exp(la);
    /* (4) accept or reject */
    if (log(ol_rng_uniform(c->rng)) < la) {
      ol_vec_copy(y, x, n);
      s->cur.U = Uy;
      t = s->cur.g; s->cur.g = s->gy; s->gy = t;
      t = s->ag; s->ag = s->agy; s->agy = t;
      c->accepted++;
    }
  }
  s->h.stat.lp = -s->cur.U;
  s->h.stat.accept_stat = a;
  s->h.stat.stepsize = h;
  s->h.stat.divergent = 0;
  /* (5) warmup: eps = sqrt(2 h), metric (then a new heuristic start) */
  if (adapting) ol_vec_copy(x, s->cur.q, n);
  rc = ol_ham_step_end(c, &s->h, &s->ad, &s->cur, &s->z, &s->eps, a, e);
  if (rc != OL_OK) return rc;
  if (adapting) {
    s->hstep = 0.5 * s->eps * s->eps;
    ol_mass_sharp(m, s->cur.g, s->ag);
  }
  return OL_OK;
}

static void mala_fini (void *st)
{
  mala_state *s = st;
  double **v[] = {&s->ag, &s->y, &s->gy, &s->agy, &s->xi, &s->v, &s->r,
                  &s->h.minv};
  size_t k;
  ol_sampler_head_fini(&s->h);
  ol_adapt_fini(&s->ad);
  ol_mass_fini(&s->mass);
  ol_hpoint_fini(&s->cur);
  ol_hpoint_fini(&s->z);
  for (k = 0; k < sizeof v / sizeof v[0]; k++) {
    ol_vec_free(*v[k]);
    *v[k] = NULL;
  }
}

const ol_method_type ol_sample_mala = {
  .name = "mala",
  .family = OL_SAMPLER,
  .doc = "Metropolis-adjusted Langevin: Langevin proposal plus MH correction, "
    "optional mass matrix and warmup",
  .ref = "Roberts & Tweedie 1996; Girolami & Calderhead 2011 (eq. 9-10)",
  .params = mala_params,
  .nparams = (int)(sizeof mala_params / sizeof mala_params[0]),
  .size = sizeof(mala_state),
  .flags = OL_M_MH,
  .kinds = OL_KIND(OL_DENSITY) | OL_KIND(OL_OBJECTIVE),
  .init = mala_init,
  .step = mala_step,
  .fini = mala_fini,
  .stats = ol_sampler_head_of,
  .probes = OL_MSET_NONE,
};
