/*
** core/sample/nuts.c -- the No-U-Turn Sampler (Hoffman & Gelman 2014,
** JMLR 15, Algorithm 6's doubling structure) with multinomial sampling of
** the trajectory and the generalised no-U-turn criterion (Betancourt
** 2017, "A Conceptual Introduction to Hamiltonian Monte Carlo",
** arXiv:1701.02434, appendix A), as in Stan's base_nuts, and Stan's
** warmup.
**
** With H(q, p) = U(q) + 1/2 p' M^-1 p (hamilton.h), a unit, diagonal or
** dense mass matrix M (mass.h) and eps_t = eps * sched_t, one transition from x is:
**
**   p ~ N(0, M);  the trajectory is {(x, p)};  depth j = 0
**   while j < maxdepth:
**     pick a direction v = +1 or -1 with probability 1/2 and build a
**     subtree of 2^j leapfrog states of step v eps_t from the matching end
**     if the subtree is invalid (a U-turn inside it, or a divergence):
**       stop, discarding it
**     j += 1; move the sample to the subtree's own multinomial pick with
**     probability min(1, W_sub / W_old) (biased progressive sampling),
**     W the sums of exp(H0 - H) over the states
**     stop if the merged trajectory makes a U-turn
**
** Inside a subtree the two halves are merged with a uniform multinomial
** pick (probability W_right / (W_left + W_right) for the second half).
** The generalised criterion for a trajectory with momenta p_minus, p_plus
** at its ends and rho = the sum of its momenta is
**   p#_minus . rho > 0  and  p#_plus . rho > 0,     p# = M^-1 p,
** and, as Stan's base_nuts does (the extra checks that catch U-turns
** spanning two subtrees), each merge of two halves also requires it on the
** left half extended by the first state of the right one and on the right
** half extended by the last state of the left one.  When the trajectory
** grows forwards, the old trajectory is the backward half and its forward
** end is the old forward end (p_bck_fwd = p_fwd_fwd), and symmetrically.
**
** Divergence: a leapfrog state with H - H0 > 1000 (or a non-finite
** value) marks the transition divergent and invalidates its subtree.  A
** log density or gradient that is NaN or +-inf there is also counted
** apart (stats.h: nonfinite, the first such point kept), so that the
** summary names it instead of blaming the curvature; a tree that stops
** at maxdepth is counted (stats.h: maxdepth) for Stan's treedepth
** warning.
** accept_stat is the mean over all leapfrog states built of
** min(1, exp(H0 - H)), the statistic Stan's dual averaging aims at delta.
** treedepth counts the doublings kept; n_leapfrog all steps taken
** (at most 2^maxdepth - 1).  The step counts as accepted (c->accepted)
** when the sample moved off x.
**
** Warmup: as hmc (adapt.h; Stan's heuristic first step size, dual
** averaging to delta = 0.8, metric = "diag" or "dense" windows).  Memory: (30 + 9
** (maxdepth - 1)) n doubles (111 n for maxdepth 10), allocated in init; a
** step never allocates.  U and grad U at the chosen state are handed to
** the run (ol_ctx_known).
** Cost per leapfrog step beyond the gradient (perf on W4's 100-D
** Gaussians): the three no-U-turn checks of each merge (4 dot products
** of n, fused into two passes), the copies of the subtree's ends (about
** 7 n doubles) and H with the sharp momentum (one pass); a unit metric
** skips its products.  With a dense 100 x 100 gradient that is about
** 1.2-1.4x a bare leapfrog loop on this shared machine (1.57-1.72x before
** the fused checks: BLAS ddot's generic kernel and the permutes the
** vectoriser used for the partial sums); a dense metric adds two dsymv
** of M^-1 per step.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "adapt.h"
#include "hamilton.h"
#include "method.h"
#include "stats.h"
#include "vec.h"

#define NUTS_MAXDH 1000.0

/* Scratch of one recursion level (depth >= 1). */
typedef struct nuts_level {
  ol_hpoint zfinal;       /* the second half's pick */
  double *p_init_end, *ps_init_end, *rho_init;
  double *p_final_beg, *ps_final_beg, *rho_final;
} nuts_level;

typedef struct nuts_state {
  ol_sampler_head h;      /* first (stats.h) */
  ol_adapt ad;
  ol_mass mass;           /* over h.minv */
  double eps;             /* step size, adapted in warmup */
  int maxdepth;
  int started;
  ol_hpoint cur;          /* the state: q = x, g, U */
  ol_hpoint z, zfwd, zbck, zsample, zprop;
  /* momenta and sharp momenta at the ends of the backward and forward
  ** parts of the trajectory: p_<part>_<end> */
  double *pff, *psff, *pfb, *psfb, *pbf, *psbf, *pbb, *psbb;
  double *rho, *rhof, *rhob;
  nuts_level *lev;        /* lev[1 .. maxdepth - 1] */
  /* the transition being built */
  double eps_t, H0, sum_metro;
  int nleap, divergent;
} nuts_state;

static const ol_param nuts_params[] = {
  {"eps", OL_P_REAL, 1, OL_GT0, OL_FINITE,
   "leapfrog step size (its start when warmup > 0)", NULL},
  {"maxdepth", OL_P_INT, 10, 1, 30,
   "maximum tree depth: at most 2^maxdepth - 1 leapfrog steps", NULL},
  {"warmup", OL_P_INT, 1000, 0, 1e12,
   "adaptation steps (step size, metric); their draws are warmup", NULL},
  {"delta", OL_P_REAL, 0.8, OL_GT0, 0.9999999999999999,
   "target acceptance statistic of the warmup", NULL},
  {"metric", OL_P_ENUM, 1, 0, 2,
   "mass matrix: unit (fixed), diag or dense (estimated in warmup)",
   "unit|diag|dense"},
};

/* log(exp(a) + exp(b)), exact for infinite arguments. */
static double logaddexp (double a, double b)
{
  double m = a > b ? a : b;
  if (m == -INFINITY) return -INFINITY;
  return m + log1p(exp(-fabs(a - b)));
}

/* The generalised no-U-turn criterion for ends ps_minus, ps_plus and
** summed momentum r + extra (extra may be NULL: r alone).  One fused pass
** with four partial sums per product: the criterion runs about three
** times per leapfrog step, and separate BLAS dots (OpenBLAS picks a
** generic kernel on this machine) cost as much as the tree's other
** bookkeeping together. */
/* Four lanes of doubles (GCC and Clang vector extension): left to
** itself the vectoriser interleaves the partial sums with permutes that
** cost more than the products. */
typedef double nuts_v4 __attribute__((vector_size(32)));

/* Four doubles at x into v (a macro: a function returning a vector type
** has an ABI that depends on -mavx, which gcc -Wpsabi rejects for builds
** without ARCH, as make valgrind's). */
#define LD4(v, x) memcpy(&(v), (x), sizeof(nuts_v4))

static int no_uturn (const double *ps_minus, const double *ps_plus,
                     const double *r, const double *extra, int n)
{
  nuts_v4 a = {0, 0, 0, 0}, b = {0, 0, 0, 0};
  double sa, sb;
  int i, m = n - n % 4;
  for (i = 0; i < m; i += 4) {
    nuts_v4 v, w, pm, pp;
    LD4(v, r + i);
    if (extra != NULL) {
      LD4(w, extra + i);
      v += w;
    }
    LD4(pm, ps_minus + i);
    LD4(pp, ps_plus + i);
    a += pm * v;
    b += pp * v;
  }
  sa = (a[0] + a[1]) + (a[2] + a[3]);
  sb = (b[0] + b[1]) + (b[2] + b[3]);
  for (i = m; i < n; i++) {
    double v = r[i] + (extra != NULL ? extra[i] : 0);
    sa += ps_minus[i] * v;
    sb += ps_plus[i] * v;
  }
  return sa > 0 && sb > 0;
}

/* Stan's build_tree: a subtree of 2^depth states from s->z in the
** direction of s->eps_t's sign.  Its pick goes to zprop, the sharp
** momenta and momenta at its first and last states to ps_beg, ps_end,
** p_beg, p_end, its summed momentum to rho (assigned: Stan adds it to a
** zeroed rho) and the log of its summed weights is added to *lsw.
** *valid = 0 for a U-turn or a divergence (rho is then unspecified). */
static int build (nuts_state *s, ol_ctx *c, int depth, ol_hpoint *zprop,
                  double *ps_beg, double *ps_end, double *rho,
                  double *p_beg, double *p_end, double *lsw, int *valid,
                  ol_err *e)
{
  const ol_mass *m = &s->mass;
  int i, n = c->n, rc;
  if (depth == 0) {
    /* (1) base case: one leapfrog step */
    double H = INFINITY;
    rc = ol_ham_leapfrog(c, &s->z, m, s->eps_t, e);
    s->nleap++;
    if (rc == OL_EDOM) {
      ol_err_clear(e);
      ol_sampler_nonfinite(&s->h, s->z.q, s->z.Ubad);
    }
    else if (rc != OL_OK) return rc;
    else {
      /* H and the sharp momentum in one pass */
      H = s->z.U + ol_mass_sharp_kinetic(m, s->z.p, ps_beg);
      if (!isfinite(H)) H = INFINITY;
    }
    if (!(H - s->H0 <= NUTS_MAXDH)) s->divergent = 1;
    *lsw = logaddexp(*lsw, s->H0 - H);
    s->sum_metro += s->H0 - H > 0 ? 1 : exp(s->H0 - H);
    *valid = !s->divergent;
    if (!*valid) return OL_OK;
    ol_hpoint_copy(zprop, &s->z, n);
    ol_vec_copy(ps_beg, ps_end, n);
    ol_vec_copy(s->z.p, rho, n);
    ol_vec_copy(s->z.p, p_beg, n);
    ol_vec_copy(s->z.p, p_end, n);
    return OL_OK;
  }
  {
    nuts_level *L = &s->lev[depth];
    double lsw_init = -INFINITY, lsw_final = -INFINITY, lsw_sub;
    int ok;
    /* (2) the first half */
    rc = build(s, c, depth - 1, zprop, ps_beg, L->ps_init_end, L->rho_init,
               p_beg, L->p_init_end, &lsw_init, valid, e);
    if (rc != OL_OK || !*valid) return rc;
    /* (3) the second half */
    rc = build(s, c, depth - 1, &L->zfinal, L->ps_final_beg, ps_end,
               L->rho_final, L->p_final_beg, p_end, &lsw_final, valid, e);
    if (rc != OL_OK || !*valid) return rc;
    /* (4) uniform multinomial pick between the halves */
    lsw_sub = logaddexp(lsw_init, lsw_final);
    *lsw = logaddexp(*lsw, lsw_sub);
    if (lsw_final > lsw_sub ||
        ol_rng_uniform(c->rng) < exp(lsw_final - lsw_sub))
      ol_hpoint_swap(zprop, &L->zfinal);
    /* (5) the criterion on the merged subtree, then across the halves */
    for (i = 0; i < n; i++) rho[i] = L->rho_init[i] + L->rho_final[i];
    ok = no_uturn(ps_beg, ps_end, L->rho_init, L->rho_final, n);
    ok = ok && no_uturn(ps_beg, L->ps_final_beg, L->rho_init,
                        L->p_final_beg, n);
    ok = ok && no_uturn(L->ps_init_end, ps_end, L->rho_final,
                        L->p_init_end, n);
    *valid = ok;
    return OL_OK;
  }
}

static int nuts_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  nuts_state *s = st;
  int n = c->n, rc, d;
  double **v[] = {&s->h.minv, &s->pff, &s->psff, &s->pfb, &s->psfb,
                  &s->pbf, &s->psbf, &s->pbb, &s->psbb, &s->rho, &s->rhof,
                  &s->rhob};
  ol_hpoint *pts[] = {&s->cur, &s->z, &s->zfwd, &s->zbck, &s->zsample,
                      &s->zprop};
  size_t k;
  s->eps = par[0];
  s->maxdepth = (int)par[1];
  s->h.warmup = (long)par[2];
  s->h.n = n;
  s->h.stat.lp = s->h.stat.accept_stat = s->h.stat.energy = NAN;
  for (k = 0; k < sizeof v / sizeof v[0]; k++)
    if ((*v[k] = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  s->h.mass = &s->mass;
  if ((rc = ol_mass_init(&s->mass, n, s->h.minv, par[4] == 2, e)) != OL_OK)
    return rc;
  for (k = 0; k < sizeof pts / sizeof pts[0]; k++)
    if ((rc = ol_hpoint_init(pts[k], n, e)) != OL_OK) return rc;
  s->lev = calloc((size_t)s->maxdepth, sizeof *s->lev);
  if (s->lev == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  for (d = 1; d < s->maxdepth; d++) {
    nuts_level *L = &s->lev[d];
    double **w[] = {&L->p_init_end, &L->ps_init_end, &L->rho_init,
                    &L->p_final_beg, &L->ps_final_beg, &L->rho_final};
    if ((rc = ol_hpoint_init(&L->zfinal, n, e)) != OL_OK) return rc;
    for (k = 0; k < sizeof w / sizeof w[0]; k++)
      if ((*w[k] = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  }
  rc = ol_adapt_init(&s->ad, n, s->h.warmup, par[3], s->eps, (int)par[4],
                     e);
  if (rc != OL_OK) return rc;
  ol_vec_copy(c->x, s->cur.q, n);
  return ol_ctx_grad(c, s->cur.q, &s->cur.U, s->cur.g, e);
}

/* One transition from s->cur into s->zsample (Stan's transition). */
static int transition (nuts_state *s, ol_ctx *c, int *moved, ol_err *e)
{
  const ol_mass *m = &s->mass;
  double lsw = 0;   /* log of the weight exp(H0 - H0) of the start */
  int n = c->n, depth = 0, valid, rc, i;
  *moved = 0;
  /* (1) fresh momentum; every end of the trajectory is the start */
  ol_hpoint_copy(&s->z, &s->cur, n);
  ol_mass_momentum(m, c->rng, s->z.p);
  s->H0 = s->z.U + ol_mass_sharp_kinetic(m, s->z.p, s->psff);
  if (!isfinite(s->H0)) s->H0 = INFINITY;
  ol_hpoint_copy(&s->zfwd, &s->z, n);
  ol_hpoint_copy(&s->zbck, &s->z, n);
  ol_hpoint_copy(&s->zsample, &s->z, n);
  ol_vec_copy(s->psff, s->psfb, n);
  ol_vec_copy(s->psff, s->psbf, n);
  ol_vec_copy(s->psff, s->psbb, n);
  ol_vec_copy(s->z.p, s->pff, n);
  ol_vec_copy(s->z.p, s->pfb, n);
  ol_vec_copy(s->z.p, s->pbf, n);
  ol_vec_copy(s->z.p, s->pbb, n);
  ol_vec_copy(s->z.p, s->rho, n);
  s->nleap = 0;
  s->sum_metro = 0;
  s->divergent = 0;
  /* (2) double until a U-turn, a divergence or maxdepth */
  while (depth < s->maxdepth) {
    double lsw_sub = -INFINITY;
    int ok;
    if (ol_rng_uniform(c->rng) > 0.5) {
      /* forwards: the old trajectory becomes the backward part */
      ol_hpoint_swap(&s->z, &s->zfwd);
      ol_vec_copy(s->rho, s->rhob, n);
      ol_vec_copy(s->pff, s->pbf, n);
      ol_vec_copy(s->psff, s->psbf, n);
      s->eps_t = fabs(s->eps_t);
      rc = build(s, c, depth, &s->zprop, s->psfb, s->psff, s->rhof, s->pfb,
                 s->pff, &lsw_sub, &valid, e);
      ol_hpoint_swap(&s->z, &s->zfwd);
    }
    else {
      /* backwards: the old trajectory becomes the forward part */
      ol_hpoint_swap(&s->z, &s->zbck);
      ol_vec_copy(s->rho, s->rhof, n);
      ol_vec_copy(s->pbb, s->pfb, n);
      ol_vec_copy(s->psbb, s->psfb, n);
      s->eps_t = -fabs(s->eps_t);
      rc = build(s, c, depth, &s->zprop, s->psbf, s->psbb, s->rhob, s->pbf,
                 s->pbb, &lsw_sub, &valid, e);
      ol_hpoint_swap(&s->z, &s->zbck);
    }
    if (rc != OL_OK) return rc;
    if (!valid) break;
    depth++;
    /* (3) biased progressive sampling of the new subtree's pick */
    if (lsw_sub > lsw || ol_rng_uniform(c->rng) < exp(lsw_sub - lsw)) {
      ol_hpoint_swap(&s->zsample, &s->zprop);
      *moved = 1;
    }
    lsw = logaddexp(lsw, lsw_sub);
    /* (4) the criterion on the whole trajectory and across its parts */
    for (i = 0; i < n; i++) s->rho[i] = s->rhob[i] + s->rhof[i];
    ok = no_uturn(s->psbb, s->psff, s->rho, NULL, n);
    ok = ok && no_uturn(s->psbb, s->psfb, s->rhob, s->pfb, n);
    ok = ok && no_uturn(s->psbf, s->psff, s->rhof, s->pbf, n);
    if (!ok) break;
  }
  s->h.stat.treedepth = depth;
  s->h.stat.maxdepth = depth >= s->maxdepth;
  return OL_OK;
}

static int nuts_step (void *st, ol_ctx *c, ol_err *e)
{
  nuts_state *s = st;
  int rc, moved, n = c->n;
  /* (0) the first warmup step starts from Stan's heuristic step size */
  if (!s->started) {
    s->started = 1;
    if (ol_adapt_active(&s->ad) &&
        (rc = ol_ham_init_stepsize(c, &s->cur, &s->z, &s->mass, &s->eps,
                                   e)) != OL_OK)
      return rc;
  }
  s->eps_t = s->eps * c->sched;
  s->h.stat.nonfinite = 0;
  if ((rc = transition(s, c, &moved, e)) != OL_OK) return rc;
  /* (1) the pick becomes the state */
  if (moved) {
    ol_hpoint_swap(&s->cur, &s->zsample);
    c->accepted++;
  }
  ol_vec_copy(s->cur.q, c->x, n);
  s->h.stat.lp = -s->cur.U;
  s->h.stat.accept_stat = s->sum_metro / s->nleap;
  s->h.stat.stepsize = fabs(s->eps_t);
  s->h.stat.n_leapfrog = s->nleap;
  s->h.stat.divergent = s->divergent;
  s->h.stat.energy = moved ? ol_ham_energy(&s->cur, &s->mass)
                           : s->H0;
  /* (2) warmup: step size, metric (then a new heuristic start) */
  return ol_ham_step_end(c, &s->h, &s->ad, &s->cur, &s->z, &s->eps,
                         s->h.stat.accept_stat, e);
}

static void nuts_fini (void *st)
{
  nuts_state *s = st;
  double **v[] = {&s->h.minv, &s->pff, &s->psff, &s->pfb, &s->psfb,
                  &s->pbf, &s->psbf, &s->pbb, &s->psbb, &s->rho, &s->rhof,
                  &s->rhob};
  ol_hpoint *pts[] = {&s->cur, &s->z, &s->zfwd, &s->zbck, &s->zsample,
                      &s->zprop};
  size_t k;
  int d;
  ol_sampler_head_fini(&s->h);
  ol_adapt_fini(&s->ad);
  ol_mass_fini(&s->mass);
  for (k = 0; k < sizeof v / sizeof v[0]; k++) {
    ol_vec_free(*v[k]);
    *v[k] = NULL;
  }
  for (k = 0; k < sizeof pts / sizeof pts[0]; k++) ol_hpoint_fini(pts[k]);
  if (s->lev != NULL)
    for (d = 1; d < s->maxdepth; d++) {
      nuts_level *L = &s->lev[d];
      ol_hpoint_fini(&L->zfinal);
      ol_vec_free(L->p_init_end);
      ol_vec_free(L->ps_init_end);
      ol_vec_free(L->rho_init);
      ol_vec_free(L->p_final_beg);
      ol_vec_free(L->ps_final_beg);
      ol_vec_free(L->rho_final);
    }
  free(s->lev);
  s->lev = NULL;
}

const ol_method_type ol_sample_nuts = {
  .name = "nuts",
  .family = OL_SAMPLER,
  .doc = "No-U-Turn Sampler: multinomial NUTS with Stan's warmup",
  .ref = "Hoffman & Gelman 2014 (Alg. 6); Betancourt 2017 (appendix A)",
  .params = nuts_params,
  .nparams = (int)(sizeof nuts_params / sizeof nuts_params[0]),
  .size = sizeof(nuts_state),
  .kinds = OL_KIND(OL_DENSITY) | OL_KIND(OL_OBJECTIVE),
  .init = nuts_init,
  .step = nuts_step,
  .fini = nuts_fini,
  .stats = ol_sampler_head_of,
  .probes = OL_MSET_NONE,
};
