/*
** core/sample/hmc.c -- Hamiltonian Monte Carlo with a static path: L
** leapfrog steps of size eps (Duane, Kennedy, Pendleton & Roweth 1987;
** Neal 2011, "MCMC using Hamiltonian dynamics", Handbook of MCMC ch. 5,
** section 5.3.2, eq. 5.18-5.20 and Figure 2), with Stan's warmup.
**
** With H(q, p) = U(q) + 1/2 p' M^-1 p (hamilton.h), a unit, diagonal or
** dense mass matrix M (mass.h) and eps_t = eps * sched_t:
**
**   p ~ N(0, M);  (q*, p*) = L leapfrog steps of eps_t from (x, p)
**   accept with probability min(1, exp(H(x, p) - H(q*, p*))): x <- q*
**
** The step size is jittered, eps_t = eps * sched_t * (1 + jitter (2u - 1)),
** u ~ U(0, 1) (Neal 2011 section 5.4.2.2; Stan's stepsize_jitter): with a
** fixed path length eps L, a Gaussian mode whose period divides it
** (angle eps L sqrt(lambda) near a multiple of pi) is never mixed, the
** chain returning to +-x; a random length breaks that periodicity.
** A trajectory that meets a non-finite value is rejected; one whose
** energy error H - H0 exceeds 1000 is also flagged divergent (Stan's
** threshold).  Warmup (adapt.h): Stan's heuristic first step size, then
** dual averaging to the acceptance delta (0.8) and, with metric = "diag"
** (or "dense": the covariance), the inverse metric estimated in Stan's windows (the step size
** re-initialised after each).  After warmup eps is frozen.  warmup = 0:
** the given eps, fixed, and the unit (or set) metric.
**
** Cost: L gradient evaluations per step (more in the first warmup step
** and after each metric update, for the heuristic).  U and grad U at the
** state are kept and handed to the run (ol_ctx_known).
*/
#include <math.h>

#include "adapt.h"
#include "hamilton.h"
#include "method.h"
#include "stats.h"
#include "vec.h"

#define HMC_MAXDH 1000.0

typedef struct hmc_state {
  ol_sampler_head h;    /* first (stats.h) */
  ol_adapt ad;
  ol_mass mass;         /* over h.minv */
  double eps;           /* step size, adapted in warmup */
  double jitter;
  int L;
  int started;          /* the first step ran (its step-size heuristic) */
  ol_hpoint cur;        /* the state: q = x, g, U (p unused) */
  ol_hpoint z;          /* the trajectory */
} hmc_state;

static const ol_param hmc_params[] = {
  {"eps", OL_P_REAL, 1, OL_GT0, OL_FINITE,
   "leapfrog step size (its start when warmup > 0)", NULL},
  {"L", OL_P_INT, 10, 1, 1e6, "leapfrog steps per trajectory", NULL},
  {"warmup", OL_P_INT, 1000, 0, 1e12,
   "adaptation steps (step size, metric); their draws are warmup", NULL},
  {"delta", OL_P_REAL, 0.8, OL_GT0, 0.9999999999999999,
   "target acceptance statistic of the warmup", NULL},
  {"metric", OL_P_ENUM, 1, 0, 2,
   "mass matrix: unit (fixed), diag or dense (estimated in warmup)",
   "unit|diag|dense"},
  {"jitter", OL_P_REAL, 0.2, 0, 0.9999999999999999,
   "step size drawn uniformly in eps (1 +- jitter) at each step", NULL},
};

static int hmc_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  hmc_state *s = st;
  int n = c->n, rc;
  s->eps = par[0];
  s->L = (int)par[1];
  s->jitter = par[5];
  s->h.warmup = (long)par[2];
  s->h.n = n;
  s->h.stat.lp = s->h.stat.accept_stat = s->h.stat.energy = NAN;
  if ((s->h.minv = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  s->h.mass = &s->mass;
  if ((rc = ol_mass_init(&s->mass, n, s->h.minv, par[4] == 2, e)) != OL_OK
      || (rc = ol_hpoint_init(&s->cur, n, e)) != OL_OK
      || (rc = ol_hpoint_init(&s->z, n, e)) != OL_OK
      || (rc = ol_adapt_init(&s->ad, n, s->h.warmup, par[3], s->eps,
                             (int)par[4], e)) != OL_OK)
    return rc;
  ol_vec_copy(c->x, s->cur.q, n);
  return ol_ctx_grad(c, s->cur.q, &s->cur.U, s->cur.g, e);
}

static int hmc_step (void *st, ol_ctx *c, ol_err *e)
{
  hmc_state *s = st;
  const ol_mass *m = &s->mass;
  double eps, H0, H = INFINITY, a = 0;
  int l, n = c->n, rc = OL_OK, nl = 0;
  /* (0) the first warmup step starts from Stan's heuristic step size */
  if (!s->started) {
    s->started = 1;
    if (ol_adapt_active(&s->ad) &&
        (rc = ol_ham_init_stepsize(c, &s->cur, &s->z, m, &s->eps, e))
        != OL_OK)
      return rc;
  }
  eps = s->eps * c->sched;
  if (s->jitter > 0) eps *= 1 + s->jitter * (2 * ol_rng_uniform(c->rng) - 1);
  /* (1) fresh momentum */
  ol_hpoint_copy(&s->z, &s->cur, n);
  ol_mass_momentum(m, c->rng, s->z.p);
  H0 = ol_ham_energy(&s->z, m);
  /* (2) L leapfrog steps; a non-finite value ends the trajectory */
  for (l = 0; l < s->L; l++) {
    /* L up to 1e6: Ctrl-C ends the run, this trajectory dropped */
    if (ol_interrupted())
      return ol_err_set(e, OL_EINTR, "hmc: interrupted");
    rc = ol_ham_leapfrog(c, &s->z, m, eps, e);
    nl++;
    if (rc != OL_OK) break;
  }
  s->h.stat.nonfinite = 0;
  if (rc == OL_EDOM) {
    ol_err_clear(e);
    ol_sampler_nonfinite(&s->h, s->z.q, s->z.Ubad);
  }
  else if (rc != OL_OK) return rc;
  else H = ol_ham_energy(&s->z, m);
  if (H < INFINITY) a = H0 - H >= 0 ? 1 : exp(H0 - H);
  s->h.stat.divergent = !(H - H0 <= HMC_MAXDH);
  /* (3) Metropolis correction */
  if (log(ol_rng_uniform(c->rng)) < H0 - H) {
    ol_hpoint_swap(&s->cur, &s->z);
    c->accepted++;
  }
  else H = H0;
  ol_vec_copy(s->cur.q, c->x, n);
  s->h.stat.lp = -s->cur.U;
  s->h.stat.accept_stat = a;
  s->h.stat.stepsize = eps;
  s->h.stat.energy = H;
  s->h.stat.n_leapfrog = nl;
  /* (4) warmup: step size, metric (then a new heuristic start) */
  return ol_ham_step_end(c, &s->h, &s->ad, &s->cur, &s->z, &s->eps, a, e);
}

static void hmc_fini (void *st)
{
  hmc_state *s = st;
  ol_sampler_head_fini(&s->h);
  ol_adapt_fini(&s->ad);
  ol_hpoint_fini(&s->cur);
  ol_hpoint_fini(&s->z);
  ol_mass_fini(&s->mass);
  ol_vec_free(s->h.minv);
  s->h.minv = NULL;
}

const ol_method_type ol_sample_hmc = {
  .name = "hmc",
  .family = OL_SAMPLER,
  .doc = "Hamiltonian Monte Carlo: L leapfrog steps of size eps, MH correction",
  .ref = "Duane et al. 1987; Neal 2011 (eq. 5.18-5.20)",
  .params = hmc_params,
  .nparams = (int)(sizeof hmc_params / sizeof hmc_params[0]),
  .size = sizeof(hmc_state),
  .flags = OL_M_MH,
  .kinds = OL_KIND(OL_DENSITY) | OL_KIND(OL_OBJECTIVE),
  .init = hmc_init,
  .step = hmc_step,
  .fini = hmc_fini,
  .stats = ol_sampler_head_of,
  .probes = OL_MSET_NONE,
};
