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
** averaging to delta = 0.8, metric = "diag" or "dense" windows).  U and
** grad U at the chosen state are handed to the run (ol_ctx_known).
**
** Storage: the tree build copies no state.  Each leapfrog step writes a
** new point of a pool, allocated in init, from the point it starts at
** (which stays as it was); the ends of the trajectory, of its parts and
** of each half subtree, and the multinomial picks, are indices into the
** pool with reference counts, freed as the merges drop them; a subtree's
** summed momentum is a per-level buffer, or the p of its single state.
** A build of depth d holds at most 3 d + 3 points, the transition 6 more
** and the next step's prepared point one (below), so 3 maxdepth + 8
** points of q, p, grad U and M^-1 p suffice: memory about
** (14 maxdepth + 39) n doubles (179 n for maxdepth 10); a step never
** allocates.  The draws, the random numbers consumed and every value
** that reaches a result are those of the copying version bit for bit
** (tests/c/t_nutsbits.c).
** Passes: a leapfrog step's last half kick, H with the sharp momentum,
** the merge when the step closes a pair of states (half of all merges:
** for two single states the three criteria are one) and, speculatively,
** the next step's first half kick and drift are one pass over n (the
** dense metric: its sharp momentum needs all of p, so no fusion); each
** other merge is one pass for its summed momentum and three criteria.
** The sums' four-lane order is fixed (bit-identical results), so each
** such pass is a chain of n / 4 dependent additions; the fusions let
** the chains run beside each other and beside work that has none.
** The arrays start on cache lines (64-byte stride).
** Cost per leapfrog step beyond the gradient (perf, W4's Gaussians): the
** other merges, per merge a log1p and two exp (logaddexp, the uniform
** pick) plus the acceptance statistic's exp, the momentum's normals and
** the run's gradient cache check (ol_ctx_grad).  Against a bare leapfrog
** loop on the diagonal Gaussians, where the gradient is itself one O(n)
** pass, that is about 3.2x at n = 100 (the exp, log1p and normals alone
** are about 0.9x of the loop's time there) and 1.6-2.2x at n = 1000
** (5.4x and 4.8x while the build copied about 7 n doubles a step):
** tests/bench/w4.c.  With a dense 100 x 100 gradient it is about
** 1.2-1.3x; a dense metric adds two dsymv of M^-1 per step.
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

/* A state of the trajectory, in the pool: the point, its sharp momentum
** and the number of the transition's references that hold it (the ends
** of the trajectory and of its parts, the picks, the chain's state).  A
** point is written once, by the leapfrog step that makes it (the chain's
** state also gets the fresh momentum of each transition), and read
** until its last reference goes. */
typedef struct nuts_pt {
  ol_hpoint z;            /* q, p, g, U: arrays in the pool's block */
  double *psb;            /* n, in the block: M^-1 p */
  const double *ps;       /* M^-1 p: psb, or z.p itself with a unit metric */
  int refs;
} nuts_pt;

/* A subtree: its first and last states and its multinomial pick (pool
** indices, one reference each; the same point for a single state) and
** its summed momentum (the buffer the caller gave, or the p of a single
** state). */
typedef struct nuts_sub {
  int beg, end, pick;
  const double *rho;
  int crit;               /* a single state closing a pair: the pair's
                             criterion (leapfrog()), else -1 */
} nuts_sub;

typedef struct nuts_state {
  ol_sampler_head h;      /* first (stats.h) */
  ol_adapt ad;
  ol_mass mass;           /* over h.minv */
  double eps;             /* step size, adapted in warmup */
  int maxdepth;
  int started;
  ol_hpoint z;            /* scratch of Stan's step-size heuristic */
  nuts_pt *pt;            /* the pool of npt points (owned) */
  int npt;
  int *freel, nfree;      /* the free points, a stack (owned) */
  double *mem;            /* the pool's arrays, 4 ns a point (owned) */
  int cur;                /* the chain's state (q = x, g, U) */
  int sample;             /* the transition's pick */
  int pre, pre_from;      /* a point holding the first half kick and drift
                             of a step of pre_eps from the point pre_from
                             (the last leapfrog's pass did them), or -1 */
  double pre_eps;
  double *rbuf[3];        /* summed momenta of the trajectory (in rmem) */
  double *rmem;           /* owned: 3 ns */
  double *lmem;           /* owned: 2 maxdepth ns; level d >= 1 has the
                             summed momenta of its two halves at
                             lmem + 2 (d - 1) ns and lmem + (2 d - 1) ns */
  size_t ns;              /* the arrays' stride: n rounded up to 8 */
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

/* log(exp(a) + exp(b)), exact for infinite arguments.  With a = -inf
** (each subtree's sum starts there) it is b + log1p(exp(-inf)) = b + 0,
** said without the two calls. */
static double logaddexp (double a, double b)
{
  double m;
  if (a == -INFINITY) return b + 0.0;
  m = a > b ? a : b;
  if (m == -INFINITY) return -INFINITY;
  return m + log1p(exp(-fabs(a - b)));
}

/* Four lanes of doubles (GCC and Clang vector extension): left to
** itself the vectoriser interleaves the partial sums with permutes that
** cost more than the products. */
typedef double nuts_v4 __attribute__((vector_size(32)));

/* Four doubles at x into v, and v into four doubles at x (macros: a
** function returning a vector type has an ABI that depends on -mavx,
** which gcc -Wpsabi rejects for builds without ARCH, as make
** valgrind's). */
#define LD4(v, x) memcpy(&(v), (x), sizeof(nuts_v4))
#define ST4(x, v) memcpy((x), &(v), sizeof(nuts_v4))
#define SUM4(v) (((v)[0] + (v)[1]) + ((v)[2] + (v)[3]))

/* The merge of two adjacent parts of a trajectory, I before F: rho =
** rI + rF, and the generalised no-U-turn criterion
**   ps . r > 0 at both ends of r
** on the merged trajectory (ends psb, pse; r = rI + rF), on I extended by
** F's first state (ends psb, psFb; r = rI + pFb) and on F extended by
** I's last state (ends psIe, pse; r = rF + pIe).  1 when all three hold.
** One pass with four partial sums per product: the criteria run about
** once per leapfrog step, and separate passes (or BLAS dots: OpenBLAS
** picks a generic kernel on this machine) cost as much as the tree's
** other bookkeeping together.  Every sum is the one a pass per criterion
** would form, lane for lane. */
static int merge (const double *rI, const double *rF, const double *psb,
                  const double *pse, const double *psFb, const double *pFb,
                  const double *psIe, const double *pIe, double *rho,
                  int n)
{
  nuts_v4 a1 = {0, 0, 0, 0}, b1 = a1, a2 = a1, b2 = a1, a3 = a1, b3 = a1;
  double sa1, sb1, sa2, sb2, sa3, sb3;
  int i, m = n - n % 4;
  for (i = 0; i < m; i += 4) {
    nuts_v4 ri, rf, w, v1, v2, v3;
    LD4(ri, rI + i);
    LD4(rf, rF + i);
    v1 = ri + rf;
    ST4(rho + i, v1);
    LD4(w, pFb + i);
    v2 = ri + w;
    LD4(w, pIe + i);
    v3 = rf + w;
    LD4(w, psb + i);
    a1 += w * v1;
    a2 += w * v2;
    LD4(w, pse + i);
    b1 += w * v1;
    b3 += w * v3;
    LD4(w, psFb + i);
    b2 += w * v2;
    LD4(w, psIe + i);
    a3 += w * v3;
  }
  sa1 = SUM4(a1);
  sb1 = SUM4(b1);
  sa2 = SUM4(a2);
  sb2 = SUM4(b2);
  sa3 = SUM4(a3);
  sb3 = SUM4(b3);
  for (i = m; i < n; i++) {
    double v1 = rI[i] + rF[i], v2 = rI[i] + pFb[i], v3 = rF[i] + pIe[i];
    rho[i] = v1;
    sa1 += psb[i] * v1;
    sb1 += pse[i] * v1;
    sa2 += psb[i] * v2;
    sb2 += psFb[i] * v2;
    sa3 += psIe[i] * v3;
    sb3 += pse[i] * v3;
  }
  return sa1 > 0 && sb1 > 0 && sa2 > 0 && sb2 > 0 && sa3 > 0 && sb3 > 0;
}

/* The kinetic energy 1/2 p' M^-1 p of point z, its sharp momentum set:
** ol_mass_sharp_kinetic into z's psb, but with a unit metric ps is p
** itself and the sum, lane for lane, is that function's (1 * p_i is
** p_i), without the store. */
static double kinetic (const ol_mass *m, nuts_pt *z, int n)
{
  const double *p = z->z.p;
  nuts_v4 k = {0, 0, 0, 0};
  double s;
  int i, r = n - n % 4;
  if (m->dense || !m->unit) {
    z->ps = z->psb;
    return ol_mass_sharp_kinetic(m, p, z->psb);
  }
  z->ps = p;
  for (i = 0; i < r; i += 4) {
    nuts_v4 b;
    LD4(b, p + i);
    k += b * b;
  }
  s = SUM4(k);
  for (i = r; i < n; i++) s += p[i] * p[i];
  return 0.5 * s;
}

/* ol_ham_leapfrog from a into z (a distinct point of the pool): the same
** operations in the same order, written to z's arrays, so that a is kept
** without a copy; then, in the last half kick's pass, kinetic()'s sums
** into *K (z's ps set).  sib (may be NULL): the state before a, when z
** closes a subtree of two states {sib, z}; the same pass then merges
** them (merge()'s sums, into rho and *crit: 1 or 0; -1 when not done,
** as with a dense metric).  For two single states the three criteria
** are one: r = p_sib + p_z in each, ends ps_sib and ps_z, so two sums
** (the products are the same, lane for lane).  ready: z's p and q
** already hold the first half kick and the drift from a (a previous
** call's next).  next (may be NULL; not with a dense metric): the same
** pass also writes the first half kick and drift of the following step
** from z into next's p and q, lane by lane the values a call from z
** would compute; the chain of the kinetic sum then runs beside work that
** needs no sum. */
static int leapfrog (ol_ctx *c, const ol_hpoint *a, nuts_pt *zp,
                     int ready, nuts_pt *next, const nuts_pt *sib,
                     double *rho, const ol_mass *m, double eps, double *K,
                     int *crit, ol_err *e)
{
  ol_hpoint *z = &zp->z;
  const double *qa = a->q, *pa = a->p, *ga = a->g, *minv = m->minv;
  const double *sp = sib != NULL ? sib->z.p : NULL;
  const double *sps = sib != NULL ? sib->ps : NULL;
  double *q = z->q, *p = z->p, *g = z->g, *ps = zp->psb, h = 0.5 * eps;
  double *nq = next != NULL ? next->z.q : NULL;
  double *np = next != NULL ? next->z.p : NULL;
  double s, sA, sB;
  nuts_v4 k = {0, 0, 0, 0}, A = k, B = k, hv = {h, h, h, h};
  nuts_v4 ev = {eps, eps, eps, eps};
  int i, n = c->n, r = n - n % 4, rc, unit = m->unit;
  *crit = -1;
  /* (1) half kick, (2) drift, unless done */
  if (!ready && m->dense) {
    for (i = 0; i < n; i++) p[i] = pa[i] - h * ga[i];
    ol_mass_sharp(m, p, m->w);
    for (i = 0; i < n; i++) q[i] = qa[i] + eps * m->w[i];
  }
  else if (!ready && unit)
    for (i = 0; i < n; i++) {
      p[i] = pa[i] - h * ga[i];
      q[i] = qa[i] + eps * p[i];
    }
  else if (!ready)
    for (i = 0; i < n; i++) {
      p[i] = pa[i] - h * ga[i];
      q[i] = qa[i] + eps * minv[i] * p[i];
    }
  /* (3) potential and gradient at the new position */
  rc = ol_ctx_grad(c, q, &z->U, g, e);
  if (rc != OL_OK) {
    if (rc == OL_EDOM) {
      z->Ubad = z->U;
      z->U = INFINITY;
    }
    return rc;
  }
  /* (4) half kick, (5) the kinetic energy and (6) the merge with sib in
  ** the same pass */
  if (m->dense) {
    for (i = 0; i < n; i++) p[i] -= h * g[i];
    *K = kinetic(m, zp, n);
    return OL_OK;
  }
  zp->ps = unit ? p : ps;
  for (i = 0; i < r; i += 4) {
    nuts_v4 pv, gv, sv, v, w;
    LD4(pv, p + i);
    LD4(gv, g + i);
    pv -= hv * gv;
    ST4(p + i, pv);
    if (unit) sv = pv;
    else {
      LD4(sv, minv + i);
      sv *= pv;
      ST4(ps + i, sv);
    }
    k += sv * pv;
    if (sp != NULL) {
      LD4(w, sp + i);
      v = w + pv;
      ST4(rho + i, v);
      LD4(w, sps + i);
      A += w * v;
      B += sv * v;
    }
    if (np != NULL) {
      v = pv - hv * gv;
      ST4(np + i, v);
      if (!unit) {
        LD4(w, minv + i);
        v = ev * w * v;
      }
      else v = ev * v;
      LD4(w, q + i);
      w += v;
      ST4(nq + i, w);
    }
  }
  s = SUM4(k);
  sA = SUM4(A);
  sB = SUM4(B);
  for (i = r; i < n; i++) {
    double sv, v;
    p[i] -= h * g[i];
    if (unit) sv = p[i];
    else sv = ps[i] = minv[i] * p[i];
    s += sv * p[i];
    if (sp != NULL) {
      v = sp[i] + p[i];
      rho[i] = v;
      sA += sps[i] * v;
      sB += sv * v;
    }
    if (np != NULL) {
      np[i] = p[i] - h * g[i];
      nq[i] = unit ? q[i] + eps * np[i] : q[i] + eps * minv[i] * np[i];
    }
  }
  *K = 0.5 * s;
  if (sp != NULL) *crit = sA > 0 && sB > 0;
  return OL_OK;
}

static void drop (nuts_state *s, int k)
{
  if (--s->pt[k].refs == 0) s->freel[s->nfree++] = k;
}

/* Stan's build_tree: a subtree of 2^depth states from the point from in
** the direction of s->eps_t's sign into *t, its summed momentum written
** to rbuf (n) unless it is a single state; the log of its summed weights
** is added to *lsw.  sib: for the second state of a pair (depth 0 called
** by depth 1), the first one, merged with it in the leapfrog's last pass
** (the pair's summed momentum then goes to rbuf, t->crit set); else
** NULL.  *valid = 0 for a U-turn or a divergence (*t is then unspecified
** and its points stay held until the next transition frees the pool). */
static int build (nuts_state *s, ol_ctx *c, int depth, int from,
                  const nuts_pt *sib, double *rbuf, nuts_sub *t,
                  double *lsw, int *valid, ol_err *e)
{
  const ol_mass *m = &s->mass;
  int n = c->n, rc;
  if (depth == 0) {
    /* (1) base case: one leapfrog step into a free point */
    double H = INFINITY, K;
    nuts_pt *z, *next = NULL;
    int k, ready = 0;
    /* maxdepth up to 30 is 2^30 steps in one transition: Ctrl-C ends
    ** the run there, the transition dropped (the next one starts afresh
    ** from s->cur; found by the fuzzer deaf for seconds) */
    if (ol_interrupted())
      return ol_err_set(e, OL_EINTR, "nuts: interrupted");
    if (s->pre >= 0 && s->pre_from == from && s->pre_eps == s->eps_t) {
      /* the half kick and drift from `from` are done */
      k = s->pre;
      ready = 1;
    }
    else {
      if (s->pre >= 0) s->freel[s->nfree++] = s->pre;
      if (s->nfree == 0)
        return ol_err_set(e, OL_ENUMERIC, "nuts: no free point for the "
                          "trajectory (a bug: init sizes the pool for "
                          "maxdepth %d)", s->maxdepth);
      k = s->freel[--s->nfree];
    }
    s->pre = -1;
    z = &s->pt[k];
    if (!m->dense && s->nfree > 0) {
      /* the next step from k, should there be one */
      s->pre = s->freel[--s->nfree];
      s->pre_from = k;
      s->pre_eps = s->eps_t;
      next = &s->pt[s->pre];
    }
    rc = leapfrog(c, &s->pt[from].z, z, ready, next, sib, rbuf, m,
                  s->eps_t, &K, &t->crit, e);
    s->nleap++;
    if (rc == OL_EDOM) {
      ol_err_clear(e);
      ol_sampler_nonfinite(&s->h, z->z.q, z->z.Ubad);
    }
    else if (rc != OL_OK) return rc;
    else {
      H = z->z.U + K;
      if (!isfinite(H)) H = INFINITY;
    }
    if (!(H - s->H0 <= NUTS_MAXDH)) s->divergent = 1;
    *lsw = logaddexp(*lsw, s->H0 - H);
    s->sum_metro += s->H0 - H > 0 ? 1 : exp(s->H0 - H);
    *valid = !s->divergent;
    if (!*valid) return OL_OK;
    z->refs = 3;
    t->beg = t->end = t->pick = k;
    t->rho = z->z.p;
    return OL_OK;
  }
  {
    double *rmem = s->lmem + (size_t)2 * (size_t)(depth - 1) * s->ns;
    double lsw_init = -INFINITY, lsw_final = -INFINITY, lsw_sub;
    nuts_sub a, b;
    const nuts_pt *P = s->pt;
    /* (2) the first half */
    rc = build(s, c, depth - 1, from, NULL, rmem, &a, &lsw_init, valid, e);
    if (rc != OL_OK || !*valid) return rc;
    /* (3) the second half, from the first one's last state (a pair: its
    ** second state merges the two, into rbuf) */
    if (depth == 1)
      rc = build(s, c, 0, a.end, &P[a.beg], rbuf, &b, &lsw_final, valid, e);
    else
      rc = build(s, c, depth - 1, a.end, NULL, rmem + s->ns, &b,
                 &lsw_final, valid, e);
    if (rc != OL_OK || !*valid) return rc;
    /* (4) uniform multinomial pick between the halves */
    lsw_sub = logaddexp(lsw_init, lsw_final);
    *lsw = logaddexp(*lsw, lsw_sub);
    if (lsw_final > lsw_sub ||
        ol_rng_uniform(c->rng) < exp(lsw_final - lsw_sub)) {
      drop(s, a.pick);
      a.pick = b.pick;
    }
    else drop(s, b.pick);
    /* (5) the criterion on the merged subtree, then across the halves */
    if (b.crit >= 0) *valid = b.crit;
    else
      *valid = merge(a.rho, b.rho, P[a.beg].ps, P[b.end].ps, P[b.beg].ps,
                     P[b.beg].z.p, P[a.end].ps, P[a.end].z.p, rbuf, n);
    drop(s, a.end);
    drop(s, b.beg);
    t->beg = a.beg;
    t->end = b.end;
    t->pick = a.pick;
    t->rho = rbuf;
    t->crit = -1;
    return OL_OK;
  }
}

/* k zeroed doubles at a multiple of 64 bytes (k > 0), for free(); NULL
** when out of memory.  The pool's arrays start on cache lines: the
** passes' 32-byte loads then never straddle two. */
static double *zalign (size_t k)
{
  void *v = NULL;
  if (posix_memalign(&v, 64, k * sizeof(double)) != 0) return NULL;
  memset(v, 0, k * sizeof(double));
  return v;
}

static int nuts_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  nuts_state *s = st;
  int n = c->n, rc, k;
  size_t nn = ((size_t)n + 7) / 8 * 8;
  s->ns = nn;
  s->eps = par[0];
  s->maxdepth = (int)par[1];
  s->h.warmup = (long)par[2];
  s->h.n = n;
  s->h.stat.lp = s->h.stat.accept_stat = s->h.stat.energy = NAN;
  if ((s->h.minv = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  s->h.mass = &s->mass;
  if ((rc = ol_mass_init(&s->mass, n, s->h.minv, par[4] == 2, e)) != OL_OK)
    return rc;
  if ((rc = ol_hpoint_init(&s->z, n, e)) != OL_OK) return rc;
  /* The pool: a build of depth d holds at most 3 d + 3 points at once
  ** (each level in its second half keeps the first half's first and last
  ** states and pick; a leaf adds one), the transition 6 more (the chain's
  ** state, the pick, the two ends and the parts' inner ends) and builds to
  ** depth maxdepth - 1; the prepared next step (s->pre) is one more. */
  s->npt = 3 * s->maxdepth + 8;
  s->pt = calloc((size_t)s->npt, sizeof *s->pt);
  s->freel = calloc((size_t)s->npt, sizeof *s->freel);
  s->mem = zalign((size_t)s->npt * 4 * nn);
  s->rmem = zalign(3 * nn);
  s->lmem = zalign((size_t)2 * (size_t)s->maxdepth * nn);
  if (s->pt == NULL || s->freel == NULL || s->mem == NULL ||
      s->rmem == NULL || s->lmem == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory (NUTS's trajectory: "
                      "%d points of dimension %d)", s->npt, n);
  for (k = 0; k < s->npt; k++) {
    nuts_pt *z = &s->pt[k];
    z->z.q = s->mem + (size_t)4 * (size_t)k * nn;
    z->z.p = z->z.q + nn;
    z->z.g = z->z.p + nn;
    z->psb = z->z.g + nn;
    z->ps = z->psb;
  }
  for (k = 0; k < 3; k++) s->rbuf[k] = s->rmem + (size_t)k * nn;
  rc = ol_adapt_init(&s->ad, n, s->h.warmup, par[3], s->eps, (int)par[4],
                     e);
  if (rc != OL_OK) return rc;
  s->cur = 0;
  ol_vec_copy(c->x, s->pt[0].z.q, n);
  return ol_ctx_grad(c, s->pt[0].z.q, &s->pt[0].z.U, s->pt[0].z.g, e);
}

/* A buffer of s->rbuf that is neither a nor b. */
static double *rfree (nuts_state *s, const double *a, const double *b)
{
  int k = 0;
  while (s->rbuf[k] == a || s->rbuf[k] == b) k++;
  return s->rbuf[k];
}

/* One transition from the point s->cur; its pick into s->sample (Stan's
** transition). */
static int transition (nuts_state *s, ol_ctx *c, int *moved, ol_err *e)
{
  const ol_mass *m = &s->mass;
  nuts_pt *P = s->pt;
  double lsw = 0;   /* log of the weight exp(H0 - H0) of the start */
  /* the ends of the trajectory (bck, fwd), the last state of its
  ** backward part and the first of its forward part */
  int bck, fwd, bckend, fwdbeg;
  const double *rho, *rhob, *rhof;
  int n = c->n, depth = 0, valid, rc, k;
  *moved = 0;
  /* (1) every point but the chain's state is free */
  s->nfree = 0;
  s->pre = -1;
  for (k = s->npt - 1; k >= 0; k--)
    if (k != s->cur) {
      P[k].refs = 0;
      s->freel[s->nfree++] = k;
    }
  /* (2) fresh momentum; every end of the trajectory and the pick are the
  ** start */
  ol_mass_momentum(m, c->rng, P[s->cur].z.p);
  s->H0 = P[s->cur].z.U + kinetic(m, &P[s->cur], n);
  if (!isfinite(s->H0)) s->H0 = INFINITY;
  bck = fwd = bckend = fwdbeg = s->sample = s->cur;
  P[s->cur].refs = 6;
  rho = rhob = rhof = P[s->cur].z.p;
  s->nleap = 0;
  s->sum_metro = 0;
  s->divergent = 0;
  /* (3) double until a U-turn, a divergence or maxdepth */
  while (depth < s->maxdepth) {
    double lsw_sub = -INFINITY;
    nuts_sub t;
    int ok;
    if (ol_rng_uniform(c->rng) > 0.5) {
      /* forwards: the old trajectory becomes the backward part */
      rhob = rho;
      drop(s, bckend);
      bckend = fwd;
      P[fwd].refs++;
      s->eps_t = fabs(s->eps_t);
      rc = build(s, c, depth, fwd, NULL, rfree(s, rhob, NULL), &t,
                 &lsw_sub, &valid, e);
      if (rc != OL_OK) return rc;
      if (!valid) break;
      drop(s, fwdbeg);
      fwdbeg = t.beg;
      drop(s, fwd);
      fwd = t.end;
      rhof = t.rho;
    }
    else {
      /* backwards: the old trajectory becomes the forward part */
      rhof = rho;
      drop(s, fwdbeg);
      fwdbeg = bck;
      P[bck].refs++;
      s->eps_t = -fabs(s->eps_t);
      rc = build(s, c, depth, bck, NULL, rfree(s, rhof, NULL), &t,
                 &lsw_sub, &valid, e);
      if (rc != OL_OK) return rc;
      if (!valid) break;
      drop(s, bckend);
      bckend = t.beg;
      drop(s, bck);
      bck = t.end;
      rhob = t.rho;
    }
    depth++;
    /* (4) biased progressive sampling of the new subtree's pick */
    if (lsw_sub > lsw || ol_rng_uniform(c->rng) < exp(lsw_sub - lsw)) {
      drop(s, s->sample);
      s->sample = t.pick;
      *moved = 1;
    }
    else drop(s, t.pick);
    lsw = logaddexp(lsw, lsw_sub);
    /* (5) the criterion on the whole trajectory and across its parts */
    {
      double *r = rfree(s, rhob, rhof);
      ok = merge(rhob, rhof, P[bck].ps, P[fwd].ps, P[fwdbeg].ps,
                 P[fwdbeg].z.p, P[bckend].ps, P[bckend].z.p, r, n);
      rho = r;
    }
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
  ol_hpoint *cur;
  /* (0) the first warmup step starts from Stan's heuristic step size */
  if (!s->started) {
    s->started = 1;
    if (ol_adapt_active(&s->ad) &&
        (rc = ol_ham_init_stepsize(c, &s->pt[s->cur].z, &s->z, &s->mass,
                                   &s->eps, e)) != OL_OK)
      return rc;
  }
  s->eps_t = s->eps * c->sched;
  s->h.stat.nonfinite = 0;
  if ((rc = transition(s, c, &moved, e)) != OL_OK) return rc;
  /* (1) the pick becomes the state */
  if (moved) {
    s->cur = s->sample;
    c->accepted++;
  }
  cur = &s->pt[s->cur].z;
  ol_vec_copy(cur->q, c->x, n);
  s->h.stat.lp = -cur->U;
  s->h.stat.accept_stat = s->sum_metro / s->nleap;
  s->h.stat.stepsize = fabs(s->eps_t);
  s->h.stat.n_leapfrog = s->nleap;
  s->h.stat.divergent = s->divergent;
  s->h.stat.energy = moved ? ol_ham_energy(cur, &s->mass) : s->H0;
  /* (2) warmup: step size, metric (then a new heuristic start) */
  return ol_ham_step_end(c, &s->h, &s->ad, cur, &s->z, &s->eps,
                         s->h.stat.accept_stat, e);
}

static void nuts_fini (void *st)
{
  nuts_state *s = st;
  ol_sampler_head_fini(&s->h);
  ol_adapt_fini(&s->ad);
  ol_mass_fini(&s->mass);
  ol_vec_free(s->h.minv);
  s->h.minv = NULL;
  ol_hpoint_fini(&s->z);
  free(s->pt);
  free(s->freel);
  free(s->mem);
  free(s->rmem);
  free(s->lmem);
  s->pt = NULL;
  s->freel = NULL;
  s->mem = s->rmem = s->lmem = NULL;
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
