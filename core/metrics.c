/*
** core/metrics.c -- the built-in metrics, an ol_metric_type entry each
** with its availability test, evaluation function and messages (the
** entries are after the functions), and the registry ol_metric_types[]
** of every entry of core/metrics/list.h by id.
**
** Definitions (DESIGN.md, "Metrics"), with x = x_t, g = true grad f(x_t)
** (f the smooth part), F = f + l1 ||x||_1 (F = f when l1 = 0; with
** penalty SCAD, F = f + sum_i SCAD(|x_i|; l1, a): core/penalty.h):
**   loss      F(x)
**   gradnorm  ||g||_2
**   dist      ||x - x*||_2                          (x* known)
**   subopt    F(x) - f*                             (f* finite)
**   kkt       l1 = 0: ||g|| unconstrained; ||x - P_box(x - g)|| on a box;
**             sum over simplex blocks of <g_i, x_i> - min_a g_ia;
**             l1 > 0: ||x - P(S_l1(x - g))||, the prox-gradient mapping
**             (S the unit-step prox of the penalty, SCAD's included)
**             with unit step (S the soft threshold, P the projection on
**             the set, identity without one)
**             general constraints (p->con.m > 0): IPOPT's overall NLP
**             error (Waechter & Biegler 2006, eqs. (5)-(6); constr.h)
**             with the method's multipliers, NaN for a method that keeps
**             none (all but auglag and sqp)
**   stationarity feasibility complementarity  its three parts
**             (constr.h, ol_constr_kkt): dual infeasibility, primal
**             infeasibility, complementarity; feasibility needs no
**             multipliers
**   entropy   sum over simplex blocks of -sum_a p_a log p_a, 0 log 0 = 0
**   nashconv  of z = x_t in a bimatrix game on simplices (problems/game.h):
**             sum over the two players of max_a u_i(a, z_-i) - u_i(z),
**             u_1 = A y, u_2 = B'x (OpenSpiel's nash_conv); in a zero-sum
**             game the duality gap max (A y) - min (A'x); for Kuhn poker
**             (problems/kuhn.h) the same sum with best responses by tree
**             walk over behavioural strategies
**   exploitability  nashconv / 2 (OpenSpiel's exploitability for two
**             players: "NashConv / num_players"; for a zero-sum game the
**             mean of the two players' best-response gains)
**   nashconv_avg exploitability_avg  the same at the average iterate
**             (c->xavg: the method's average when it keeps one)
**   regret ccegap  the dynamic's probe (games/play.h; regret also
**             optim.rmplus's, its blocks the players): max over players of
**             (max_a sum_t u_i(a, z_-i,t) - sum_t u_i(z_t)) / T over the T
**             strategies played; ccegap = max(0, regret), the CCE gap of
**             the empirical joint distribution (1/T) sum_t x_t (x) y_t,
**             which equals the largest average external regret (Hart &
**             Mas-Colell 2000)
**   potential x_t' Phi y_t for a game with an exact potential Phi
**   value     xbar' A ybar at the average iterate (the row player's value
**             estimate); Kuhn poker: player 1's expected payoff at the
**             average behavioural strategies (tree walk)
**   accept    accepted / max(t, 1)                  (samplers)
**   mingradnorm  min of ||g_s|| over the records s <= t of this run
**   lrmin lrmed lrmax ortherr  the method's probe (method.h); the run
**             makes them available when the method declares them
**             (m->probes), so avail() here says "maybe" (1)
**   stepsize divergences  the sampler's statistics (sample/stats.h):
**             its last step size, its post-warmup divergences so far
**   nucnorm   sum of the singular values of g seen as the mrows x mcols
**             row-major matrix W; with stacked blocks (mblocks) the sum
**             over the blocks' nuclear norms.  LAPACK dgesvd (values
**             only) on the column-major view of W (W', same singular
**             values), so LAPACKE transposes nothing and allocates nothing
**   support   cumulative count, over consecutive records, of coordinates
**             whose sign class (-1, 0, +1) changed
**   bias      f(xbar) - f*, xbar the run's shadow: the same method, seed
**             and schedule without gradient noise, stepped in lockstep
**             (run.c).  For a method whose update is linear in g (gd,
**             momentum, nesterov) on a quadratic, xbar_t = E x_t.
**   variance  1/2 (x - xbar)' H (x - xbar) = f(x* + x - xbar) - f* (the
**             problem is quadratic); then E f(x_t) - f* = bias + E
**             variance, the split of the noisy quadratic model.  Both
**             need p->quadratic, x*, f* and no set or l1 term.
**   ess rhat  min bulk-ESS, max rank-normalised split-R-hat over the
**             coordinates of the run's kept post-warmup draws (run.h
**             ol_run_draws; a run without kept draws gives NaN), one chain
**             split in two (diag.h).  Bounded cost: recomputed, O(N log N)
**             per coordinate, only when the kept draws number at least 1.1
**             times (or fewer than, after the cap's thinning) those of the
**             last computation, and at the budget's last step (the draws
**             kept before it: the step's own draw is kept after its
**             record); in between that value.  Over a run of N
**             draws that is about 11 times one final computation.  Per
**             run: the core does not see a chain set (the pooled figures
**             are the chains' summary, lua/lsample.c).
**   meanerr kl w2  the Gaussian fit (mean m, covariance S with divisor
**             k - 1, k draws) of the same kept draws, by Welford's update
**             over the rows added since the last record (O(n^2) per new
**             draw; restarted from the kept rows when the cap thins them),
**             against the target's known mean mu and covariance Sigma
**             (p->mean, p->cov; moments of x, as the draws):
**               meanerr  ||m - mu||_2
**               kl  1/2 (tr(Sigma^-1 S) + (mu - m)' Sigma^-1 (mu - m) - n
**                        + log det Sigma - log det S)      (+inf: S singular)
**               w2  sqrt(||m - mu||^2 + tr S + tr Sigma
**                        - 2 tr (Sigma^1/2 S Sigma^1/2)^1/2)
**             Sigma^-1 and log det Sigma (dpotrf, dpotri) once per run;
**             for w2 the Cholesky factor L of Sigma = L L' stands for
**             Sigma^1/2: L = Sigma^1/2 Q with Q orthogonal, so L' S L =
**             Q' (Sigma^1/2 S Sigma^1/2) Q has the same eigenvalues and
**             the same trace of its square root (Sigma^1/2 itself, from
**             dsyevr, only when Sigma is singular); per record one
**             Cholesky of S (kl) and one symmetric eigenvalue problem
**             (w2), O(n^3).  They are "of
**             the Gaussian fit": exact distances between the target and
**             the draws when both are Gaussian, moment distances otherwise.
** mingradnorm, support and nucnorm keep state or workspace in the run's
** ol_mmem (ol_mstate.mem); without it (mem NULL) mingradnorm is ||g|| and
** the other two are NaN.  The sampler diagnostics keep their cache (a
** dcache) in the same block as nucnorm's workspace (mm->svd), after it.  Evaluation never fails: a metric that cannot be
** computed is NaN.
*/
#include "metrics.h"

#include "constr.h"
#include "diag.h"
#include "method.h"
#include "penalty.h"
#include "problems/game.h"
#include "problems/kuhn.h"
#include "runpriv.h"
#include "sample/stats.h"
#include "vec.h"

#include <lapacke.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static int always (const ol_problem *p, int family)
{
  (void)p;
  (void)family;
  return 1;
}

static int has_xstar (const ol_problem *p, int family)
{
  const double *eq;
  (void)family;
  return p->xstar != NULL
         || (p->kind == OL_GAME && ol_game_equilibria(p, &eq) > 0);
}

static int has_fstar (const ol_problem *p, int family)
{
  (void)family;
  return isfinite(p->fstar);
}

/* bias, variance: an optimizer on an unconstrained quadratic with x*, f*. */
static int noisy_quadratic (const ol_problem *p, int family)
{
  return ol_family_get(family)->shadow && p->quadratic &&
    p->xstar != NULL && isfinite(p->fstar) && p->set.kind == OL_SET_NONE && !(p->l1 > 0);
}

static int has_simplex (const ol_problem *p, int family)
{
  (void)family;
  return p->set.kind == OL_SET_SIMPLEX;
}

/* A bimatrix game on simplices: the equilibrium gaps are finite (a game
** assembled by hand with a payoff is taken to be on its simplices; the
** catalog's unconstrained bilinear game is not). */
static int has_game (const ol_problem *p, int family)
{
  ol_game G;
  (void)family;
  return ol_tree_of(p) != NULL || (ol_game_view(p, &G) &&
    (p->set.kind == OL_SET_SIMPLEX || ol_game_of(p) == NULL));
}

/* regret, ccegap: a dynamic on a game or a product of simplices. */
static int has_play (const ol_problem *p, int family)
{
  return ol_family_get(family)->plays && p->set.kind == OL_SET_SIMPLEX;
}

/* regret: as has_play, or an optimizer on a set that keeps the account
** (optim.rmplus; the run checks the method's probes). */
static int has_regret (const ol_problem *p, int family)
{
  return has_play(p, family) ||
    (ol_family_get(family)->regret_probe && p->set.kind != OL_SET_NONE);
}

static int has_potential (const ol_problem *p, int family)
{
  const ol_game *G = ol_game_of(p);
  (void)family;
  return G != NULL && G->phi != NULL;
}

static int has_value (const ol_problem *p, int family)
{
  ol_game G;
  (void)family;
  return ol_tree_of(p) != NULL || ol_game_view(p, &G);
}

static int has_constraints (const ol_problem *p, int family)
{
  (void)family;
  return p->con.m > 0;
}

static int is_sampler (const ol_problem *p, int family)
{
  (void)p;
  return ol_family_get(family)->draws;
}

/* Available for some methods only: the run asks the method's probe
** (exported for the metric files of core/metrics/, metrics.h). */
#define by_probe ol_metric_by_probe
int by_probe (const ol_problem *p, int family)
{
  (void)p;
  (void)family;
  return 1;
}

/* Metric i exists only as some method's probe (avail by_probe). */
int ol_metric_byprobe (int i)
{
  return i >= 0 && i < OL_NMETRICS && ol_metric_types[i]->avail == by_probe;
}

static int has_matrix (const ol_problem *p, int family)
{
  (void)family;
  return p->mrows > 0 && p->mcols > 0;
}

static int is_objective (const ol_problem *p, int family)
{
  (void)family;
  return p->kind == OL_OBJECTIVE;
}

/* F = f + h (h = l1 ||x||_1, or SCAD's sum: core/penalty.h). */
static double composite (const ol_mstate *s)
{
  if (!(s->p->l1 > 0)) return s->f;
  return s->f + ol_penalty_sum(s->p, s->x, s->n);
}

static double m_loss (const ol_mstate *s)
{
  return composite(s);
}

static double gnorm (const ol_mstate *s)
{
  return s->gn != NULL ? *s->gn : ol_vec_nrm2(s->g, s->n);
}

static double m_gradnorm (const ol_mstate *s)
{
  return gnorm(s);
}

/* A game: the distance to the nearest of its known equilibria (the set's
** distance when the list is the whole set, as for the built-ins). */
static double m_dist (const ol_mstate *s)
{
  const double *eq;
  int k, neq;
  double d = INFINITY;
  if (s->p->kind == OL_GAME && (neq = ol_game_equilibria(s->p, &eq)) > 0) {
    for (k = 0; k < neq; k++)
      d = fmin(d, ol_vec_dist(s->x, eq + (size_t)k * s->n, s->n));
    return d;
  }
  if (s->p->xstar == NULL) return NAN;
  return ol_vec_dist(s->x, s->p->xstar, s->n);
}

static double m_subopt (const ol_mstate *s)
{
  return composite(s) - s->p->fstar;
}

/* f(x) - f* by the oracle (value only), NaN when it fails. */
static double excess (const ol_problem *p, const double *x)
{
  double f;
  ol_err e;
  if (p->fdf(p->ud, x, &f, NULL, &e) != OL_OK) return NAN;
  return f - p->fstar;
}

static double m_bias (const ol_mstate *s)
{
  if (s->xbar == NULL) return NAN;
  return excess(s->p, s->xbar);
}

static double m_variance (const ol_mstate *s)
{
  const double *xs = s->p->xstar;
  int i;
  if (s->xbar == NULL || xs == NULL) return NAN;
  for (i = 0; i < s->n; i++) s->work[i] = xs[i] + (s->x[i] - s->xbar[i]);
  return excess(s->p, s->work);
}

/* Blocks of a simplex set and their sizes (one block of all n coordinates
** when the set declares none). */
static int nblocks (const ol_set *set)
{
  return set->nblocks > 0 ? set->nblocks : 1;
}

static int block_size (const ol_set *set, int b, int n)
{
  return set->nblocks > 0 ? set->blocks[b] : n;
}

/* ||x - P(prox_h(x - g))|| (prox_h of unit step: soft thresholding at
** l1 for the l1 norm) in work[0, n), projection scratch work[n, 2n). */
static double kkt_composite (const ol_mstate *s)
{
  const double *x = s->x, *g = s->g;
  double *y = s->work, acc = 0, d;
  int i, n = s->n;
  for (i = 0; i < n; i++) y[i] = x[i] - g[i];
  ol_penalty_prox(s->p, y, n, 1.0);
  if (s->p->set.kind != OL_SET_NONE)
    ol_set_project(&s->p->set, y, n, s->work + n);
  for (i = 0; i < n; i++) {
    d = x[i] - y[i];
    acc += d * d;
  }
  return sqrt(acc);
}

/* IPOPT's error and its parts (constr.h) with the method's multipliers;
** part 0 err, 1 stat, 2 feas, 3 comp.  NAN on an oracle error. */
static double kkt_general (const ol_mstate *s, int part)
{
  ol_kkt k;
  ol_err e;
  const double *lam = ol_constr_lambda(s->m, s->st);
  double *w = malloc(3 * (size_t)s->n * sizeof *w), v;
  if (w == NULL) return NAN;
  k.nval = k.ngrad = 0;
  if (ol_constr_kkt(s->p, s->x, s->g, lam, &k, w, &e) != OL_OK) v = NAN;
  else v = part == 0 ? k.err : part == 1 ? k.stat : part == 2 ? k.feas
                                                               : k.comp;
  /* the constraint calls are the run's own, for its records (issue 22) */
  if (s->c != NULL && s->c->orc != NULL) {
    s->c->orc->mfev += k.nval;
    s->c->orc->mgev += k.ngrad;
  }
  free(w);
  return v;
}

static double m_stationarity (const ol_mstate *s)
{
  return kkt_general(s, 1);
}

static double m_feasibility (const ol_mstate *s)
{
  return kkt_general(s, 2);
}

static double m_complementarity (const ol_mstate *s)
{
  return kkt_general(s, 3);
}

static double m_kkt (const ol_mstate *s)
{
  const ol_set *set = &s->p->set;
  const double *x = s->x, *g = s->g;
  double acc = 0;
  int i, b, off, n = s->n;
  if (s->p->con.m > 0) return kkt_general(s, 0);
  if (s->p->l1 > 0) return kkt_composite(s);
  switch (set->kind) {
  case OL_SET_BOX:
    for (i = 0; i < n; i++) {
      double y = x[i] - g[i], d;
      if (set->lo != NULL && y < set->lo[i]) y = set->lo[i];
      if (set->hi != NULL && y > set->hi[i]) y = set->hi[i];
      d = x[i] - y;
      acc += d * d;
    }
    return sqrt(acc);
  case OL_SET_SIMPLEX:
    for (b = 0, off = 0; b < nblocks(set); b++) {
      int k = block_size(set, b, n);
      double dot = 0, lo = INFINITY;
      for (i = off; i < off + k && i < n; i++) {
        dot += g[i] * x[i];
        if (g[i] < lo) lo = g[i];
      }
      acc += dot - lo;
      off += k;
    }
    return acc;
  case OL_SET_L1BALL: case OL_SET_L2BALL:
    return kkt_composite(s);         /* ||x - P(x - g)|| */
  default:
    return ol_vec_nrm2(g, n);
  }
}

static double m_entropy (const ol_mstate *s)
{
  const ol_set *set = &s->p->set;
  double h = 0;
  int i, b, off, n = s->n;
  if (set->kind != OL_SET_SIMPLEX) return NAN;
  for (b = 0, off = 0; b < nblocks(set); b++) {
    int k = block_size(set, b, n);
    for (i = off; i < off + k && i < n; i++)
      if (s->x[i] > 0) h -= s->x[i] * log(s->x[i]);
      else if (s->x[i] < 0 || isnan(s->x[i])) return NAN;
    off += k;
  }
  return h;
}

static double nashconv (const ol_mstate *s, const double *z)
{
  ol_game G;
  const ol_tree *T = ol_tree_of(s->p);
  if (z != NULL && T != NULL) return T->nashconv(T, z);
  if (!ol_game_view(s->p, &G) || z == NULL) return NAN;
  return ol_game_nashconv(&G, z, s->work);
}

static double m_nashconv (const ol_mstate *s)
{
  return nashconv(s, s->x);
}

static double m_nashconv_avg (const ol_mstate *s)
{
  return nashconv(s, s->xavg);
}

static double m_exploit (const ol_mstate *s)
{
  return 0.5 * nashconv(s, s->x);
}

static double m_exploit_avg (const ol_mstate *s)
{
  return 0.5 * nashconv(s, s->xavg);
}

static double m_potential (const ol_mstate *s)
{
  const ol_game *G = ol_game_of(s->p);
  return G != NULL ? ol_game_potential(G, s->x) : NAN;
}

static double m_value (const ol_mstate *s)
{
  ol_game G;
  const ol_tree *T = ol_tree_of(s->p);
  if (T != NULL && s->xavg != NULL) return T->value(T, s->xavg);
  return ol_game_view(s->p, &G) && s->xavg != NULL
    ? ol_game_value(&G, s->xavg) : NAN;
}

static double m_accept (const ol_mstate *s)
{
  return (double)s->accepted / (double)(s->t > 1 ? s->t : 1);
}

static double m_mingradnorm (const ol_mstate *s)
{
  ol_mmem *mm = s->mem;
  double gn = gnorm(s);
  if (mm == NULL) return gn;
  if (gn < mm->mingrad) mm->mingrad = gn;
  return mm->mingrad;
}

static double probe (const ol_mstate *s, int id)
{
  if (s->m == NULL || s->m->probe == NULL || s->st == NULL) return NAN;
  return s->m->probe(s->st, id, s->c);
}

static double m_lrmin (const ol_mstate *s)
{
  return probe(s, OL_MET_LRMIN);
}

static double m_lrmed (const ol_mstate *s)
{
  return probe(s, OL_MET_LRMED);
}

static double m_lrmax (const ol_mstate *s)
{
  return probe(s, OL_MET_LRMAX);
}

static double m_ortherr (const ol_mstate *s)
{
  return probe(s, OL_MET_ORTHERR);
}

/* private methods' privacy spent (core/optim/dpsgd.c) */
static double m_epsilon (const ol_mstate *s)
{
  return probe(s, OL_MET_EPSILON);
}

/* distributed and bilevel methods' own accounts (core/dist/, bilevel) */
static double m_consensus (const ol_mstate *s)
{
  return probe(s, OL_MET_CONSENSUS);
}

static double m_drift (const ol_mstate *s)
{
  return probe(s, OL_MET_DRIFT);
}

static double m_bits (const ol_mstate *s)
{
  return probe(s, OL_MET_BITS);
}

static double m_compress_err (const ol_mstate *s)
{
  return probe(s, OL_MET_COMPRESS_ERR);
}

static double m_rounds (const ol_mstate *s)
{
  return probe(s, OL_MET_ROUNDS);
}

static double m_hypergrad_err (const ol_mstate *s)
{
  return probe(s, OL_MET_HYPERGRAD_ERR);
}

static double m_regret (const ol_mstate *s)
{
  return probe(s, OL_MET_REGRET);
}

static double m_regret1 (const ol_mstate *s)
{
  return probe(s, OL_MET_REGRET1);
}

static double m_regret2 (const ol_mstate *s)
{
  return probe(s, OL_MET_REGRET2);
}

static double m_elbo (const ol_mstate *s)
{
  return probe(s, OL_MET_ELBO);
}

static double m_elbo_se (const ol_mstate *s)
{
  return probe(s, OL_MET_ELBO_SE);
}

static double m_gradvar (const ol_mstate *s)
{
  return probe(s, OL_MET_GRADVAR);
}

/* RL methods' own metrics (core/rl/probe.c) */
static double m_gap (const ol_mstate *s) { return probe(s, OL_MET_GAP); }
static double m_dentropy_pred (const ol_mstate *s)
{
  return probe(s, OL_MET_DENTROPY_PRED);
}
static double m_dentropy (const ol_mstate *s)
{
  return probe(s, OL_MET_DENTROPY);
}
static double m_zeroadv (const ol_mstate *s)
{
  return probe(s, OL_MET_ZEROADV);
}
static double m_zeroadv_pred (const ol_mstate *s)
{
  return probe(s, OL_MET_ZEROADV_PRED);
}
static double m_pass1 (const ol_mstate *s) { return probe(s, OL_MET_PASS1); }

static double m_ccegap (const ol_mstate *s)
{
  double r = probe(s, OL_MET_REGRET);
  return r > 0 ? r : isnan(r) ? r : 0;
}

/* Row counts of the matrices x stacks (mblocks, or one of mrows rows);
** returns how many, 0 when p is not matrix-shaped. */
static int mat_blocks (const ol_problem *p, int rows[4])
{
  int k = 0;
  if (p->mrows < 1 || p->mcols < 1) return 0;
  while (k < 4 && p->mblocks[k] > 0) {
    rows[k] = p->mblocks[k];
    k++;
  }
  if (k == 0) rows[k++] = p->mrows;
  return k;
}

/* Sum of singular values of each block of g (see the header). */
static double m_nucnorm (const ol_mstate *s)
{
  const ol_problem *p = s->p;
  ol_mmem *mm = s->mem;
  int rows[4], nb, b, i, k = p->mcols, off = 0;
  double *a, *sv, *work, acc = 0;
  if (mm == NULL || mm->svd == NULL || (nb = mat_blocks(p, rows)) == 0)
    return NAN;
  a = mm->svd;
  sv = a + s->n;
  work = sv + (p->mrows > k ? p->mrows : k);
  memcpy(a, s->g, (size_t)s->n * sizeof *a);
  for (b = 0; b < nb; b++) {
    int m = rows[b], ns = m < k ? m : k;
    if (LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, 'N', 'N', k, m,
                            a + (size_t)off * k, k, sv, NULL, 1, NULL, 1,
                            work, mm->lwork) != 0)
      return NAN;
    for (i = 0; i < ns; i++) acc += sv[i];
    off += m;
  }
  return acc;
}

static double m_support (const ol_mstate *s)
{
  ol_mmem *mm = s->mem;
  int i;
  if (mm == NULL || mm->sign == NULL) return NAN;
  for (i = 0; i < s->n; i++) {
    signed char c = (signed char)((s->x[i] > 0) - (s->x[i] < 0));
    if (mm->hassign && c != mm->sign[i]) mm->changes++;
    mm->sign[i] = c;
  }
  mm->hassign = 1;
  return (double)mm->changes;
}

/* == sampler diagnostics (ess, rhat, meanerr, kl, w2) ==================== */

/* 1 when a metric of s has a need of 'need' (OL_MNEED_*): the cache is
** kept for the metrics that need the draws (ess, rhat, meanerr, kl, w2),
** Sigma's inverse and root for those that need the covariance (kl, w2). */
static int needs_any (ol_mset s, unsigned need)
{
  int k;
  OL_MSET_FOR(k, s)
    if (k < OL_NMETRICS && (ol_metric_types[k]->needs & need)) return 1;
  return 0;
}

/* The diagnostics' cache, at the start of its part of mm->svd; its arrays
** follow it in the same block. */
typedef struct dcache {
  long done;            /* kept rows folded into the Welford sums */
  long thin;            /* the run's dthin when they were */
  long k;               /* draws in the sums */
  long ess_rows, rhat_rows;   /* kept rows at the last computation */
  double ess, rhat;
  double logdet;        /* log det Sigma (NaN: Sigma not positive def.) */
  double *mean, *C;     /* Welford mean (n) and co-moments (n x n) */
  double *Sinv, *Sroot; /* Sigma^-1; R with R R' = Sigma (n x n, kept
                        ** transposed: L', or the symmetric Sigma^1/2) */
  int chol;             /* Sroot is L' (upper): the loops skip its zeros */
  double *A, *B, *lam;  /* scratch: n x n, n x n, n */
  lapack_int *isuppz;   /* dsyevr's support, 2n */
} dcache;

static int has_moments (const ol_problem *p, int family)
{
  return ol_family_get(family)->draws && p->mean != NULL;
}

static int has_gauss (const ol_problem *p, int family)
{
  return ol_family_get(family)->draws && p->mean != NULL &&
    p->cov != NULL;
}

/* Doubles of nucnorm's workspace at the start of mm->svd (0: none). */
static size_t nuc_size (const ol_mmem *mm, const ol_problem *p)
{
  int k = p->mcols;
  if (mm->lwork <= 0) return 0;
  return (size_t)p->n + (size_t)(p->mrows > k ? p->mrows : k) +
    (size_t)mm->lwork;
}

static size_t dc_head (void)
{
  return (sizeof(dcache) + sizeof(double) - 1) / sizeof(double);
}

/* The run that holds the metric state s (its ctx is the run's own), or
** NULL when s was not filled by a run. */
static const ol_run *run_of (const ol_mstate *s)
{
  const ol_run *r;
  if (s->c == NULL || s->mem == NULL) return NULL;
  r = (const ol_run *)(const void *)((const char *)s->c -
                                     offsetof(ol_run, c));
  return &r->mem == s->mem ? r : NULL;
}

static dcache *cache_of (const ol_mstate *s, const ol_run **rp)
{
  const ol_run *r = run_of(s);
  if (r == NULL || !needs_any(r->metrics, OL_MNEED_DRAWS) || r->mem.svd == NULL)
    return NULL;
  *rp = r;
  return (dcache *)(void *)(r->mem.svd + nuc_size(&r->mem, r->p));
}

/* Sigma^-1, log det Sigma and a square root R (R R' = Sigma) of the
** target's covariance, once: L' from the Cholesky factor when Sigma is
** positive definite (n^3/3 flops, already needed for Sigma^-1), else the
** symmetric Sigma^1/2 from an eigendecomposition (dsyevr: at n = 1000 a
** sixth of a second that Ctrl-C cannot cut short). */
static void cache_sigma (dcache *d, const ol_problem *p)
{
  int n = p->n, i, j;
  lapack_int m;
  size_t nn = (size_t)n * (size_t)n;
  memcpy(d->Sinv, p->cov, nn * sizeof *d->Sinv);
  d->logdet = NAN;
  d->chol = 0;
  if (LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', n, d->Sinv, n) == 0) {
    d->logdet = 0;
    for (i = 0; i < n; i++) d->logdet += 2 * log(d->Sinv[(size_t)i * n + i]);
    for (i = 0; i < n; i++)             /* Sroot = L' (upper triangle) */
      for (j = 0; j < n; j++)
        d->Sroot[(size_t)i * n + j] = j >= i ? d->Sinv[(size_t)j * n + i]
                                             : 0;
    d->chol = 1;
    LAPACKE_dpotri(LAPACK_ROW_MAJOR, 'L', n, d->Sinv, n);
    for (i = 0; i < n; i++)
      for (j = i + 1; j < n; j++)
        d->Sinv[(size_t)i * n + j] = d->Sinv[(size_t)j * n + i];
    return;
  }
  /* Sigma^1/2 = V diag(sqrt(lambda)) V' */
  memcpy(d->A, p->cov, nn * sizeof *d->A);
  if (LAPACKE_dsyevr(LAPACK_ROW_MAJOR, 'V', 'A', 'L', n, d->A, n, 0, 0, 0,
                     0, 0, &m, d->lam, d->B, n, d->isuppz) != 0) {
    for (i = 0; i < (int)nn; i++) d->Sroot[i] = NAN;
    return;
  }
  for (i = 0; i < n; i++) {
    /* n^3/2 flops: at n = 1000 seconds under a sanitizer, so Ctrl-C is
    ** looked at every 16 rows (then no Sigma^1/2: w2 is NaN) */
    if ((i & 15) == 15 && ol_interrupted()) {
      d->Sroot[0] = NAN;
      return;
    }
    for (j = 0; j <= i; j++) {
      double a = 0;
      int q;
      for (q = 0; q < n; q++)
        a += d->B[(size_t)i * n + q] * d->B[(size_t)j * n + q] *
          sqrt(fmax(d->lam[q], 0));
      d->Sroot[(size_t)i * n + j] = d->Sroot[(size_t)j * n + i] = a;
    }
  }
}

/* Fold the kept rows not yet seen into the Welford sums (from scratch
** when the cap thinned them since). */
static void cache_update (dcache *d, const ol_run *r)
{
  long rows, thin, i;
  int n = r->n, a, b, cols = OL_DRAW_COLS + n;
  const double *X = ol_run_draws(r, &rows, &thin, NULL);
  if (X == NULL) return;
  if (thin != d->thin || rows < d->done) {
    d->done = d->k = 0;
    d->thin = thin;
    ol_vec_set(d->mean, 0, n);
    ol_vec_set(d->C, 0, n * n);
  }
  for (i = d->done; i < rows; i++) {
    const double *x = X + (size_t)i * cols + OL_DRAW_COLS;
    double k = (double)++d->k;
    for (a = 0; a < n; a++) d->lam[a] = x[a] - d->mean[a];
    for (a = 0; a < n; a++) d->mean[a] += d->lam[a] / k;
    for (a = 0; a < n; a++)
      for (b = 0; b <= a; b++)
        d->C[(size_t)a * n + b] += d->lam[a] * (x[b] - d->mean[b]);
  }
  d->done = rows;
}

/* min bulk-ESS (which = 0) or max R-hat (1) over the coordinates of the
** kept draws, with the 10% rule. */
static double chain_diag (const ol_mstate *s, int which)
{
  const ol_run *r;
  dcache *d = cache_of(s, &r);
  long rows, *at;
  double *val, acc;
  int j, n, cols;
  const double *X;
  ol_err e;
  if (d == NULL || (X = ol_run_draws(r, &rows, NULL, NULL)) == NULL)
    return NAN;
  at = which == 0 ? &d->ess_rows : &d->rhat_rows;
  val = which == 0 ? &d->ess : &d->rhat;
  if (*at > 0 && rows >= *at && (double)rows < 1.1 * (double)*at &&
      r->c.t < r->o.iters)
    return *val;
  n = r->n;
  cols = OL_DRAW_COLS + n;
  acc = which == 0 ? INFINITY : -INFINITY;
  for (j = 0; j < n; j++) {
    ol_draws v;
    double q = NAN;
    v.x = X + OL_DRAW_COLS + j;
    v.m = 1;
    v.n = rows;
    v.dstride = cols;
    v.cstride = rows * cols;
    if (which == 0) ol_diag_ess_bulk(&v, &q, &e);
    else ol_diag_rhat(&v, &q, &e);
    if (isnan(q)) {
      acc = NAN;
      break;
    }
    acc = which == 0 ? fmin(acc, q) : fmax(acc, q);
  }
  *at = rows;
  *val = acc;
  return acc;
}

static double m_ess (const ol_mstate *s)
{
  return chain_diag(s, 0);
}

static double m_rhat (const ol_mstate *s)
{
  return chain_diag(s, 1);
}

/* The cache with its sums brought up to date, NULL (metric NaN) when there
** are fewer than min draws. */
static dcache *fit (const ol_mstate *s, long min)
{
  const ol_run *r;
  dcache *d = cache_of(s, &r);
  if (d == NULL) return NULL;
  cache_update(d, r);
  return d->k >= min ? d : NULL;
}

static double m_meanerr (const ol_mstate *s)
{
  dcache *d = fit(s, 1);
  return d != NULL ? ol_vec_dist(d->mean, s->p->mean, s->n) : NAN;
}

static double m_kl (const ol_mstate *s)
{
  dcache *d = fit(s, 2);
  int n = s->n, i, j;
  double tr = 0, q = 0, ld = 0, k;
  const double *mu = s->p->mean;
  if (d == NULL || isnan(d->logdet)) return NAN;
  k = (double)d->k;
  /* (1) tr(Sigma^-1 S) and the Mahalanobis term */
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      double sij = (i >= j ? d->C[(size_t)i * n + j] : d->C[(size_t)j * n + i])
        / (k - 1);
      tr += d->Sinv[(size_t)i * n + j] * sij;
      q += (mu[i] - d->mean[i]) * d->Sinv[(size_t)i * n + j] *
        (mu[j] - d->mean[j]);
      d->A[(size_t)i * n + j] = sij;
    }
  /* (2) log det S by Cholesky */
  if (LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', n, d->A, n) != 0)
    return INFINITY;
  for (i = 0; i < n; i++) ld += 2 * log(d->A[(size_t)i * n + i]);
  return 0.5 * (tr + q - n + d->logdet - ld);
}

static double m_w2 (const ol_mstate *s)
{
  dcache *d = fit(s, 2);
  int n = s->n, i, j, q;
  lapack_int m;
  double k, w = 0, trs = 0, trS = 0, trr = 0;
  const double *mu = s->p->mean, *R;
  if (d == NULL || isnan(d->Sroot[0])) return NAN;
  k = (double)d->k;
  R = d->Sroot;
  /* (1) A = S R, then B = R' S R (lower triangle), with R' stored
  ** (R' = L' upper triangular: the sums start at the diagonal); n^3
  ** flops each, so Ctrl-C is looked at every 16 rows (the value is then
  ** NaN) */
  for (i = 0; i < n; i++) {
    if ((i & 15) == 15 && ol_interrupted()) return NAN;
    for (j = 0; j < n; j++) {
      double a = 0;
      for (q = d->chol ? j : 0; q < n; q++)
        a += (i >= q ? d->C[(size_t)i * n + q] : d->C[(size_t)q * n + i]) *
          R[(size_t)j * n + q];
      d->A[(size_t)i * n + j] = a / (k - 1);
    }
  }
  for (i = 0; i < n; i++) {
    if ((i & 15) == 15 && ol_interrupted()) return NAN;
    for (j = 0; j <= i; j++) {
      double a = 0;
      for (q = d->chol ? i : 0; q < n; q++)
        a += R[(size_t)i * n + q] * d->A[(size_t)q * n + j];
      d->B[(size_t)i * n + j] = a;
    }
  }
  /* (2) tr (R' S R)^1/2 from its eigenvalues */
  if (LAPACKE_dsyevr(LAPACK_ROW_MAJOR, 'N', 'A', 'L', n, d->B, n, 0, 0, 0,
                     0, 0, &m, d->lam, NULL, 1, d->isuppz) != 0)
    return NAN;
  for (i = 0; i < n; i++) trr += sqrt(fmax(d->lam[i], 0));
  for (i = 0; i < n; i++) {
    trs += d->C[(size_t)i * n + i] / (k - 1);
    trS += s->p->cov[(size_t)i * n + i];
    w += (d->mean[i] - mu[i]) * (d->mean[i] - mu[i]);
  }
  w += trs + trS - 2 * trr;
  return sqrt(fmax(w, 0));
}

/* The cache's block after nucnorm's: head, mean, C, and with kl or w2
** Sinv, Sroot, then the scratch A, B, lam. */
static int dcache_init (ol_mmem *mm, const ol_problem *p, ol_mset metrics,
                        ol_err *e)
{
  size_t n = (size_t)p->n, nn = n * n, nuc = nuc_size(mm, p), h = dc_head();
  size_t sz = h + n + nn + 2 * nn + 2 * nn + n + 2 * n;
  int gauss = needs_any(metrics, OL_MNEED_COV) && p->cov != NULL && p->mean != NULL;
  double *blk, *at;
  dcache *d;
  if (!needs_any(metrics, OL_MNEED_DRAWS)) return OL_OK;
  blk = realloc(mm->svd, (nuc + sz) * sizeof *blk);
  if (blk == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory (sampler diagnostics, "
                      "n = %d)", p->n);
  mm->svd = blk;
  memset(blk + nuc, 0, sz * sizeof *blk);
  d = (dcache *)(void *)(blk + nuc);
  at = blk + nuc + h;
  d->mean = at; at += n;
  d->C = at; at += nn;
  d->Sinv = at; at += nn;
  d->Sroot = at; at += nn;
  d->A = at; at += nn;
  d->B = at; at += nn;
  d->lam = at; at += n;
  d->isuppz = (lapack_int *)(void *)at;   /* 2n doubles hold 2n ints */
  d->thin = 1;
  d->logdet = NAN;
  d->Sroot[0] = NAN;
  if (gauss) cache_sigma(d, p);
  return OL_OK;
}

int ol_mmem_init (ol_mmem *mm, const ol_problem *p, ol_mset metrics,
                  ol_err *e)
{
  int rows[4], nb, b, n = p->n, k = p->mcols;
  double q, dummy = 0;
  memset(mm, 0, sizeof *mm);
  mm->mingrad = INFINITY;
  if (ol_mset_has(metrics, OL_MET_SUPPORT)) {
    mm->sign = calloc((size_t)n, 1);
    if (mm->sign == NULL)
      return ol_err_set(e, OL_ENOMEM, "out of memory (support)");
  }
  if (ol_mset_has(metrics, OL_MET_NUCNORM) && (nb = mat_blocks(p, rows))) {
    int lwork = 1;
    for (b = 0; b < nb; b++) {
      q = 0;
      if (LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, 'N', 'N', k, rows[b], &dummy,
                              k, &dummy, NULL, 1, NULL, 1, &q, -1) != 0)
        return ol_err_set(e, OL_ENUMERIC, "nucnorm: dgesvd workspace query "
                          "failed for a %d x %d block", rows[b], k);
      if ((int)q > lwork) lwork = (int)q;
    }
    mm->lwork = lwork;
    mm->svd = calloc((size_t)n + (size_t)(p->mrows > k ? p->mrows : k) +
                     (size_t)lwork, sizeof *mm->svd);
    if (mm->svd == NULL)
      return ol_err_set(e, OL_ENOMEM, "out of memory (nucnorm workspace)");
  }
  return dcache_init(mm, p, metrics, e);
}

void ol_mmem_free (ol_mmem *mm)
{
  free(mm->sign);
  free(mm->svd);
  mm->sign = NULL;
  mm->svd = NULL;
}

/* Sampler statistics (core/sample/stats.h) of the last step. */
/* diffusion samplers' own metrics (core/diffusion/diffuse.c) */
static double m_tv (const ol_mstate *s) { return probe(s, OL_MET_TV); }
static double m_modeweights (const ol_mstate *s)
{
  return probe(s, OL_MET_MODEWEIGHTS);
}

static double m_stepsize (const ol_mstate *s)
{
  ol_sampler_stat st;
  if (s->m == NULL || ol_sampler_stats(s->m, s->st, &st) != OL_OK ||
      st.iter == 0)
    return NAN;
  return st.stepsize;
}

static double m_divergences (const ol_mstate *s)
{
  ol_sampler_stat st;
  if (s->m == NULL || ol_sampler_stats(s->m, s->st, &st) != OL_OK)
    return NAN;
  return (double)st.ndivergent;
}

static const char *const kind_word[] = {"an objective", "a density",
                                        "a game"};

/* {why} of the equilibrium gaps: what the problem is instead. */
static const char *why_game (const ol_problem *p, const ol_method_type *m)
{
  (void)m;
  return p->kind == OL_GAME ? "unconstrained" : "not one";
}

/* {why} of bias, variance: the first requirement p misses. */
static const char *why_quadratic (const ol_problem *p,
                                  const ol_method_type *m)
{
  (void)m;
  return !p->quadratic ? "is not one"
    : p->set.kind != OL_SET_NONE ? "has a constraint set"
    : p->l1 > 0 ? (ol_penalty_of(p) == &ol_penalty_scad ? "has a scad term"
                   : "has an l1 term")
    : "has no known x* or f*";
}

/* The built-in metrics, one entry each (metrics.h says what each field
** is; core/metrics/list.h registers them).  A metric without
** .unavailable_msg is one that every run has or that has the generic
** message. */
const ol_metric_type ol_metric_loss = {
  .name = "loss",
  .doc = "f(x_t): objective value (potential -log p + c for densities, "
    "x'Ay for games)",
  .avail = always,
  .eval = m_loss,
};

const ol_metric_type ol_metric_gradnorm = {
  .name = "gradnorm",
  .doc = "||grad f(x_t)||_2 of the true gradient, also when the method "
    "sees a noisy one",
  .avail = always,
  .eval = m_gradnorm,
};

const ol_metric_type ol_metric_dist = {
  .name = "dist",
  .doc = "||x_t - x*||_2 (needs a known x*); a game: the distance to the "
    "nearest of its known equilibria",
  .avail = has_xstar,
  .eval = m_dist,
  .unavailable_msg = "dist needs a known minimiser x* ({problem} has none)",
};

const ol_metric_type ol_metric_subopt = {
  .name = "subopt",
  .doc = "f(x_t) - f* (needs a known f*)",
  .avail = has_fstar,
  .eval = m_subopt,
  .unavailable_msg = "subopt needs a known optimal value f* ({problem} has "
    "none)",
};

const ol_metric_type ol_metric_kkt = {
  .name = "kkt",
  .doc = "KKT gap: with general constraints IPOPT's overall NLP error "
    "max(stationarity / s_d, feasibility, complementarity / s_c) (Waechter "
    "& Biegler 2006, eqs. 5-6); else gradnorm unconstrained; ||x - P(x - "
    "grad f)|| on a box or a ball; Frank-Wolfe gap sum_i (<g_i,x_i> - "
    "min_a g_ia) on simplices",
  .avail = always,
  .eval = m_kkt,
};

const ol_metric_type ol_metric_entropy = {
  .name = "entropy",
  .doc = "Shannon entropy -sum p log p of each simplex block (each "
    "player's strategy) of x_t, summed over the blocks; a method's own "
    "where it defines one: a variational Gaussian's (exact), diffusion "
    "particles' (Kozachenko-Leonenko), an RL policy's (averaged over "
    "decision points)",
  .avail = has_simplex,
  .eval = m_entropy,
  .unavailable_msg = "entropy needs a simplex constraint ({problem} has "
    "none)",
};

const ol_metric_type ol_metric_exploitability = {
  .name = "exploitability",
  .doc = "NashConv / 2 of the last iterate (OpenSpiel's exploitability, "
    "NashConv / num_players, of two-player constant-sum games; kept as "
    "NashConv / 2 for general-sum ones)",
  .avail = has_game,
  .eval = m_exploit,
  .unavailable_msg = "{metric} needs a bimatrix game on simplices "
    "({problem} is {why})",
  .why = why_game,
};

const ol_metric_type ol_metric_accept = {
  .name = "accept",
  .doc = "acceptance rate of a sampler: accepted proposals / steps",
  .needs = OL_MNEED_SAMPLER,
  .avail = is_sampler,
  .eval = m_accept,
  .unavailable_msg = "accept: {method} is not a sampler",
};

const ol_metric_type ol_metric_mingradnorm = {
  .name = "mingradnorm",
  .doc = "min over recorded s <= t of ||grad f(x_s)||",
  .avail = always,
  .eval = m_mingradnorm,
};

const ol_metric_type ol_metric_lrmin = {
  .name = "lrmin",
  .doc = "effective learning rate of an adaptive method, min over "
    "coordinates",
  .avail = by_probe,
  .eval = m_lrmin,
  .unavailable_msg = "{metric}: {method} has no effective learning rate",
};

const ol_metric_type ol_metric_lrmed = {
  .name = "lrmed",
  .doc = "effective learning rate of an adaptive method, median over "
    "coordinates",
  .avail = by_probe,
  .eval = m_lrmed,
  .unavailable_msg = "{metric}: {method} has no effective learning rate",
};

const ol_metric_type ol_metric_lrmax = {
  .name = "lrmax",
  .doc = "effective learning rate of an adaptive method, max over "
    "coordinates",
  .avail = by_probe,
  .eval = m_lrmax,
  .unavailable_msg = "{metric}: {method} has no effective learning rate",
};

const ol_metric_type ol_metric_ortherr = {
  .name = "ortherr",
  .doc = "||O'O - I||_F of the approximate polar factor O of a Muon step",
  .avail = by_probe,
  .eval = m_ortherr,
  .unavailable_msg = "ortherr: {method} has no orthogonalisation error "
    "(Muon-type methods only)",
};

const ol_metric_type ol_metric_nucnorm = {
  .name = "nucnorm",
  .doc = "nuclear norm ||grad f(W)||_* of a matrix gradient (sum of "
    "singular values)",
  .avail = has_matrix,
  .eval = m_nucnorm,
  .unavailable_msg = "nucnorm needs a matrix-shaped problem ({problem} is "
    "a plain vector)",
};

const ol_metric_type ol_metric_support = {
  .name = "support",
  .doc = "support changes: coordinates whose sign pattern changed since "
    "the previous record, summed over the run",
  .avail = is_objective,
  .eval = m_support,
  .unavailable_msg = "support needs an objective ({problem} is {kind})",
};

const ol_metric_type ol_metric_bias = {
  .name = "bias",
  .doc = "f(xbar_t) - f* on a quadratic: xbar_t is the same method run "
    "without gradient noise (= E x_t for methods linear in g)",
  .needs = OL_MNEED_OPTIM,
  .avail = noisy_quadratic,
  .eval = m_bias,
  .unavailable_msg = "{metric} needs an unconstrained quadratic with known "
    "x* and f* (quadratic, linreg, fsquad, matlsq; {problem} {why})",
  .method_msg = "{metric}: {method} is not an optimizer",
  .why = why_quadratic,
};

const ol_metric_type ol_metric_variance = {
  .name = "variance",
  .doc = "1/2 (x_t - xbar_t)' H (x_t - xbar_t) on a quadratic: E loss - f* "
    "= bias + E variance for methods linear in g",
  .needs = OL_MNEED_OPTIM,
  .avail = noisy_quadratic,
  .eval = m_variance,
  .unavailable_msg = "{metric} needs an unconstrained quadratic with known "
    "x* and f* (quadratic, linreg, fsquad, matlsq; {problem} {why})",
  .method_msg = "{metric}: {method} is not an optimizer",
  .why = why_quadratic,
};

const ol_metric_type ol_metric_stepsize = {
  .name = "stepsize",
  .doc = "a sampler's step size at its last step (adapted during warmup; "
    "NaN for samplers without statistics)",
  .needs = OL_MNEED_SAMPLER,
  .avail = is_sampler,
  .eval = m_stepsize,
};

const ol_metric_type ol_metric_divergences = {
  .name = "divergences",
  .doc = "post-warmup divergent transitions so far (energy error > 1000: "
    "hmc, nuts)",
  .needs = OL_MNEED_SAMPLER,
  .avail = is_sampler,
  .eval = m_divergences,
};

const ol_metric_type ol_metric_ess = {
  .name = "ess",
  .doc = "min over coordinates of the bulk-ESS (Vehtari et al. 2021, "
    "core/diag.c) of this run's kept post-warmup draws; recomputed when "
    "they grew by 10% since the last computation, else that value",
  .needs = OL_MNEED_SAMPLER | OL_MNEED_DRAWS,
  .avail = is_sampler,
  .eval = m_ess,
};

const ol_metric_type ol_metric_rhat = {
  .name = "rhat",
  .doc = "max over coordinates of the rank-normalised split-R-hat of this "
    "run's kept post-warmup draws (its two halves); the same 10% rule",
  .needs = OL_MNEED_SAMPLER | OL_MNEED_DRAWS,
  .avail = is_sampler,
  .eval = m_rhat,
};

const ol_metric_type ol_metric_meanerr = {
  .name = "meanerr",
  .doc = "||m - mu||_2: mean m of the kept post-warmup draws against the "
    "target's known mean mu",
  .needs = OL_MNEED_SAMPLER | OL_MNEED_DRAWS,
  .avail = has_moments,
  .eval = m_meanerr,
  .unavailable_msg = "{metric} needs a target with a known mean ({problem} "
    "has none: gaussian, banana, mixture do)",
  .method_msg = "{metric}: {method} is not a sampler",
};

const ol_metric_type ol_metric_kl = {
  .name = "kl",
  .doc = "samplers: KL(N(m, S) || N(mu, Sigma)) of the Gaussian fit of the "
    "kept draws (mean m, covariance S with divisor k - 1) to the target's "
    "known mean and covariance; vi: KL(q || p) exact for a Gaussian "
    "target (mixflow: log Z - elbo on (x, rho, u), estimated); diffusion: KL of the particles' histogram to the target's bin "
    "masses (masked: exact by enumeration)",
  .needs = OL_MNEED_SAMPLER | OL_MNEED_DRAWS | OL_MNEED_COV,
  .avail = has_gauss,
  .eval = m_kl,
  .unavailable_msg = "{metric} needs a target with a known mean and "
    "covariance ({problem} has none: gaussian, banana, mixture do)",
  .method_msg = "{metric}: {method} is not a sampler",
};

const ol_metric_type ol_metric_w2 = {
  .name = "w2",
  .doc = "2-Wasserstein distance of the Gaussian fit N(m, S) of the kept "
    "draws to N(mu, Sigma): sqrt(||m - mu||^2 + tr(S + Sigma - 2 "
    "(Sigma^1/2 S Sigma^1/2)^1/2))",
  .needs = OL_MNEED_SAMPLER | OL_MNEED_DRAWS | OL_MNEED_COV,
  .avail = has_gauss,
  .eval = m_w2,
  .unavailable_msg = "{metric} needs a target with a known mean and "
    "covariance ({problem} has none: gaussian, banana, mixture do)",
  .method_msg = "{metric}: {method} is not a sampler",
};

const ol_metric_type ol_metric_nashconv = {
  .name = "nashconv",
  .doc = "NashConv of the last iterate: sum over the players of the "
    "best-response gain max_a u_i(a, x_-i) - u_i(x)",
  .avail = has_game,
  .eval = m_nashconv,
  .unavailable_msg = "{metric} needs a bimatrix game on simplices "
    "({problem} is {why})",
  .why = why_game,
};

const ol_metric_type ol_metric_nashconv_avg = {
  .name = "nashconv_avg",
  .doc = "NashConv of the average iterate (the method's average: uniform, "
    "or linear / quadratic weights)",
  .avail = has_game,
  .eval = m_nashconv_avg,
  .unavailable_msg = "{metric} needs a bimatrix game on simplices "
    "({problem} is {why})",
  .why = why_game,
};

const ol_metric_type ol_metric_exploitability_avg = {
  .name = "exploitability_avg",
  .doc = "NashConv / 2 of the average iterate",
  .avail = has_game,
  .eval = m_exploit_avg,
  .unavailable_msg = "{metric} needs a bimatrix game on simplices "
    "({problem} is {why})",
  .why = why_game,
};

const ol_metric_type ol_metric_regret = {
  .name = "regret",
  .doc = "max over players of external regret / T: (max_a sum_t u_i(a, "
    "x_-i,t) - sum_t u_i(x_t)) / T over the T strategies played",
  .avail = has_regret,
  .eval = m_regret,
  .unavailable_msg = "regret needs a game dynamic on simplices or "
    "optim.rmplus ({method} on {problem})",
};

const ol_metric_type ol_metric_ccegap = {
  .name = "ccegap",
  .doc = "CCE gap of the empirical joint distribution of play (1/T) sum_t "
    "x_t (x) y_t: max(0, regret)",
  .avail = has_play,
  .eval = m_ccegap,
  .unavailable_msg = "{metric} needs a game dynamic on simplices ({method} "
    "on {problem})",
};

const ol_metric_type ol_metric_potential = {
  .name = "potential",
  .doc = "x_t' Phi y_t, an exact potential Phi of the game (potential and "
    "identical-interest games)",
  .avail = has_potential,
  .eval = m_potential,
  .unavailable_msg = "potential needs a game with an exact potential "
    "({problem} has none)",
};

const ol_metric_type ol_metric_value = {
  .name = "value",
  .doc = "row player's value estimate: xbar' A ybar at the average iterate",
  .avail = has_value,
  .eval = m_value,
  .unavailable_msg = "value needs a bimatrix game ({problem} is not one)",
};

const ol_metric_type ol_metric_stationarity = {
  .name = "stationarity",
  .doc = "general constraints: ||grad f - sum_i lambda_i grad c_i - z_l + "
    "z_u||_inf with the method's multipliers (auglag), z_j = |r_j| / (1 + "
    "gap to the bound r pushes against) (IPOPT's dual infeasibility)",
  .avail = has_constraints,
  .eval = m_stationarity,
};

const ol_metric_type ol_metric_feasibility = {
  .name = "feasibility",
  .doc = "general constraints: max of |c_i| (eq), max(0, -c_i) (ineq) and "
    "the bound violations",
  .avail = has_constraints,
  .eval = m_feasibility,
};

const ol_metric_type ol_metric_complementarity = {
  .name = "complementarity",
  .doc = "general constraints: max of |lambda_i c_i| (ineq) and z_l (x - "
    "lo), z_u (hi - x) on the bounds",
  .avail = has_constraints,
  .eval = m_complementarity,
};

const ol_metric_type ol_metric_regret1 = {
  .name = "regret1",
  .doc = "player 1's external regret / T: (max_a sum_t u_1(a, x_2,t) - "
    "sum_t u_1(x_t)) / T (regret is the larger of the two)",
  .avail = has_play,
  .eval = m_regret1,
  .unavailable_msg = "{metric} needs a game dynamic on simplices ({method} "
    "on {problem})",
};

const ol_metric_type ol_metric_regret2 = {
  .name = "regret2",
  .doc = "player 2's external regret / T, as regret1",
  .avail = has_play,
  .eval = m_regret2,
  .unavailable_msg = "{metric} needs a game dynamic on simplices ({method} "
    "on {problem})",
};

const ol_metric_type ol_metric_elbo = {
  .name = "elbo",
  .doc = "variational methods: Monte Carlo ELBO E_q[-U(z)] + H(q) at the "
    "current q over the method's fresh draws (evals; the ELBO of exp(-U), "
    "so log Z - KL(q || p))",
  .avail = by_probe,
  .eval = m_elbo,
  .unavailable_msg = "{metric}: {method} is not a variational method "
    "(vi.meanfield, vi.fullrank)",
};

const ol_metric_type ol_metric_elbo_se = {
  .name = "elbo_se",
  .doc = "variational methods: standard error of elbo, sd of -U(z_k) over "
    "the fresh draws / sqrt(evals)",
  .avail = by_probe,
  .eval = m_elbo_se,
  .unavailable_msg = "{metric}: {method} is not a variational method "
    "(vi.meanfield, vi.fullrank)",
};

const ol_metric_type ol_metric_gradvar = {
  .name = "gradvar",
  .doc = "variational methods: E||g||^2 of the one-draw ELBO gradient "
    "estimator (all parameters) at the current q, the mean over the fresh "
    "draws",
  .avail = by_probe,
  .eval = m_gradvar,
  .unavailable_msg = "{metric}: {method} is not a variational method "
    "(vi.meanfield, vi.fullrank)",
};

const ol_metric_type ol_metric_gap = {
  .name = "gap",
  .doc = "RL methods: V* - V^pi of the softmax policy of x_t, exact "
    "(backward induction and policy evaluation, core/rl/mdp.h)",
  .avail = by_probe,
  .eval = m_gap,
  .unavailable_msg = "{metric}: {method} is not an RL method on an MDP "
    "(rl.pg, rl.dynpg, rl.grpo, rl.qae; optimizers have subopt = V* - V^pi)",
};

const ol_metric_type ol_metric_dentropy_pred = {
  .name = "dentropy_pred",
  .doc = "RL methods: first-order predicted change of entropy by the last "
    "step, the average over decision points of -Cov_pi(log pi, dz) (dz its "
    "logit change)",
  .avail = by_probe,
  .eval = m_dentropy_pred,
  .unavailable_msg = "{metric}: {method} is not an RL method on an MDP "
    "(rl.pg, rl.dynpg, rl.grpo, rl.qae; optimizers have subopt = V* - V^pi)",
};

const ol_metric_type ol_metric_dentropy = {
  .name = "dentropy",
  .doc = "RL methods: actual change of entropy (the average over decision "
    "points) by the last step",
  .avail = by_probe,
  .eval = m_dentropy,
  .unavailable_msg = "{metric}: {method} is not an RL method on an MDP "
    "(rl.pg, rl.dynpg, rl.grpo, rl.qae; optimizers have subopt = V* - V^pi)",
};

const ol_metric_type ol_metric_zeroadv = {
  .name = "zeroadv",
  .doc = "group-sampling RL methods: fraction of the last batch's "
    "responses whose advantage is exactly 0",
  .avail = by_probe,
  .eval = m_zeroadv,
  .unavailable_msg = "{metric}: {method} is not a group-sampling RL method "
    "(rl.grpo, rl.qae on problem.rlvr)",
};

const ol_metric_type ol_metric_zeroadv_pred = {
  .name = "zeroadv_pred",
  .doc = "group-sampling RL methods: expected zeroadv at the policy of the "
    "last step, E over k ~ Bin(G, p_q) of the zero fraction of a group "
    "with k successes, averaged over queries",
  .avail = by_probe,
  .eval = m_zeroadv_pred,
  .unavailable_msg = "{metric}: {method} is not a group-sampling RL method "
    "(rl.grpo, rl.qae on problem.rlvr)",
};

const ol_metric_type ol_metric_pass1 = {
  .name = "pass1",
  .doc = "RLVR: mean over queries of pass@1, the policy's probability of a "
    "correct response",
  .avail = by_probe,
  .eval = m_pass1,
  .unavailable_msg = "{metric}: {method} is not a group-sampling RL method "
    "(rl.grpo, rl.qae on problem.rlvr)",
};

const ol_metric_type ol_metric_tv = {
  .name = "tv",
  .doc = "diffusion samplers: total variation 1/2 sum_b |q_b - p_b| "
    "between the particles' histogram q on a grid (1-D or 2-D) and the "
    "target's exact bin masses p (the grid of kl)",
  .avail = by_probe,
  .eval = m_tv,
  .unavailable_msg = "{metric}: {method} is not a diffusion sampler on a "
    "mixture (diffusion.ddpm, ddim, pfode, sde on problem.gmm)",
};

const ol_metric_type ol_metric_modeweights = {
  .name = "modeweights",
  .doc = "diffusion samplers: max_k |r_k - w_k|, r_k the particles' mean "
    "responsibility w_k N_k(x) / p(x) of mixture component k (E r_k = w_k "
    "under the target)",
  .avail = by_probe,
  .eval = m_modeweights,
  .unavailable_msg = "{metric}: {method} is not a diffusion sampler on a "
    "mixture (diffusion.ddpm, ddim, pfode, sde on problem.gmm)",
};

const ol_metric_type ol_metric_epsilon = {
  .name = "epsilon",
  .doc = "private methods: epsilon of the (epsilon, delta)-DP spent by the "
    "steps so far at the method's delta (dpsgd: RDP accountant of the "
    "Poisson-sampled Gaussian mechanism, core/optim/rdp.h)",
  .avail = by_probe,
  .eval = m_epsilon,
  .unavailable_msg = "epsilon: {method} is not a private method "
    "(optim.dpsgd)",
};

const ol_metric_type ol_metric_consensus = {
  .name = "consensus",
  .doc = "distributed methods: (1/n) sum_w ||x_w - xbar||^2, the workers' "
    "mean squared distance to their average",
  .avail = by_probe,
  .eval = m_consensus,
};

const ol_metric_type ol_metric_drift = {
  .name = "drift",
  .doc = "federated methods: client drift, (1/n) sum_w ||x_w - x||^2 of "
    "the clients' local iterates after their local steps from the server's "
    "x",
  .avail = by_probe,
  .eval = m_drift,
};

const ol_metric_type ol_metric_bits = {
  .name = "bits",
  .doc = "distributed methods: bits sent by the workers so far "
    "(cumulative; per compressor, documented with each); an x axis (xaxis "
    "= \"bits\")",
  .avail = by_probe,
  .eval = m_bits,
};

const ol_metric_type ol_metric_compress_err = {
  .name = "compress_err",
  .doc = "compressed methods: ||C(v) - v||^2 / ||v||^2 of the last "
    "compressed vectors",
  .avail = by_probe,
  .eval = m_compress_err,
};

const ol_metric_type ol_metric_rounds = {
  .name = "rounds",
  .doc = "distributed methods: communication rounds so far (an x axis: "
    "xaxis = \"rounds\")",
  .avail = by_probe,
  .eval = m_rounds,
};

const ol_metric_type ol_metric_hypergrad_err = {
  .name = "hypergrad_err",
  .doc = "bilevel methods: ||hypergradient estimate - exact "
    "hypergradient|| where the exact one is known",
  .avail = by_probe,
  .eval = m_hypergrad_err,
};

/* The registry: entry by id, in the order of core/metrics/list.h. */
const ol_metric_type *const ol_metric_types[OL_NMETRICS] = {
#define OL_METRIC(ID, name) [OL_MET_##ID] = &ol_metric_##name,
#include "metrics/list.h"
#undef OL_METRIC
};

/* Copies template t into out (cap bytes, truncated), each {key} replaced
** as metrics.h says; an unknown {key} is copied as it is. */
static void expand (char *out, size_t cap, const char *t,
                    const char *const val[][2], int nval)
{
  size_t k = 0;
  int i;
  while (*t != '\0' && k + 1 < cap) {
    const char *v = NULL;
    size_t len = 0;
    if (*t == '{')
      for (i = 0; i < nval; i++) {
        len = strlen(val[i][0]);
        if (strncmp(t + 1, val[i][0], len) == 0 && t[1 + len] == '}') {
          v = val[i][1];
          break;
        }
      }
    if (v == NULL) {
      out[k++] = *t++;
      continue;
    }
    for (; *v != '\0' && k + 1 < cap; v++) out[k++] = *v;
    t += len + 2;
  }
  out[k] = '\0';
}

int ol_metric_unavail (int id, const ol_problem *p, const ol_method_type *m,
                       ol_err *e)
{
  const ol_metric_type *t = id >= 0 && id < OL_NMETRICS
    ? ol_metric_types[id] : NULL;
  const char *tmpl = t != NULL && t->unavailable_msg != NULL
    ? t->unavailable_msg : "{metric} is not available for {problem} run by "
    "{method}";
  const char *val[5][2] = {
    {"metric", t != NULL ? t->name : "?"},
    {"method", m != NULL ? m->name : "this method"},
    {"problem", p->name},
    {"kind", p->kind >= OL_OBJECTIVE && p->kind <= OL_GAME
             ? kind_word[p->kind] : "of unknown kind"},
    {"why", t != NULL && t->why != NULL ? t->why(p, m) : ""}
  };
  char msg[OL_ERRMAX];
  /* the method is the wrong kind, whatever p */
  if (t != NULL && t->method_msg != NULL && m != NULL &&
      (((t->needs & OL_MNEED_OPTIM) && m->family != OL_OPTIM) ||
       ((t->needs & OL_MNEED_SAMPLER) && m->family != OL_SAMPLER)))
    tmpl = t->method_msg;
  expand(msg, sizeof msg, tmpl, val, 5);
  return ol_err_set(e, OL_EINVAL, "%s", msg);
}

int ol_metric_defined (int id)
{
  return id >= 0 && id < OL_NMETRICS && ol_metric_types[id]->name[0] != '\0';
}

int ol_metric_find (const char *name)
{
  int i;
  if (name == NULL) return -1;
  for (i = 0; i < OL_NMETRICS; i++)
    if (ol_metric_defined(i) && strcmp(ol_metric_types[i]->name, name) == 0)
      return i;
  return -1;
}

/* Defaults by family, restricted to what p makes available: the family
** entry's list and its problem-dependent additions (core/family.c; vi,
** diffusion, rl have none there, their methods' probes define theirs:
** ol_method_metrics, method.h). */
ol_mset ol_metric_defaults (const ol_problem *p, int family)
{
  ol_mset have = OL_MSET_NONE;
  int want[2 * OL_NMETRICS], n, i;
  n = ol_family_metrics(family, p, want, 2 * OL_NMETRICS);
  for (i = 0; i < n; i++)
    if (ol_metric_types[want[i]]->avail(p, family))
      ol_mset_add(&have, want[i]);
  return have;
}

ol_mset ol_method_metrics (const ol_problem *p, const ol_method_type *m)
{
  ol_mset d = ol_metric_defaults(p, m->family);
  if (ol_family_of(m)->probe_metrics) d = ol_mset_or(d, m->probes);
  return d;
}
