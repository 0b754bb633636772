/*
** tests/c/t_games.c -- the normal-form games, their equilibrium metrics
** and the game dynamics, against values computed here from the published
** payoff tables (by loops, independent of core/problems/game.c).
**
** Problems: every built-in's payoffs, oracle and stated equilibria (each
** has NashConv 0 and the stated value; the problem's list of known
** equilibria is exactly them, climbing's mixed (5/16, 0, 11/16) included,
** and the unconstrained bilinear game's x* = 0 has a zero gradient),
** potentials found where they exist
** (and checked by deviations), matrixgame's A/B/potential keys and its
** seeded random games.  Metrics: nashconv, exploitability = nashconv / 2,
** regret and ccegap against the iterates, value, the weighted averages;
** the vectorized exp of the Hedge family against libm.
** Dynamics (issue 12, "Correctness"), fixed starts, no randomness:
**   - rm, rmplus, prmplus on every zero-sum built-in from an
**     off-equilibrium start: NashConv of the average <= 3 max|A| / sqrt(T)
**     at T = 10^4, value estimate within the same bound of the known value;
**     the NashConv bound also on a seeded random zero-sum game;
**   - omwu at lr = 0.1 / max|A| reaches a last-iterate duality gap <= 1e-4
**     within 10^5 steps on rps and pennies; mwu's last iterate does not;
**   - fp on Shapley's game keeps NashConv of the empirical play > 0.05
**     over steps 5000 .. 10^4;
**   - br on potential games ends at a pure equilibrium, the potential
**     never decreasing;
**   - on the unconstrained bilinear game simultaneous gda's distance to
**     the equilibrium never decreases, eg and ogda end within 1e-6 of it.
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "olt.h"
#include "games/play.h"
#include "problems/game.h"
#include "tap.h"
#include "vec.h"

/* The published tables (header of each core/problems/<name>.c). */
typedef struct table {
  const char *name;
  int m, k;
  double A[9], B[9];        /* B all zero with zerosum */
  int zerosum, potential;   /* has an exact potential */
  int neq;                  /* stated equilibria below */
  double eq[3][6];
  double value;             /* row payoff at eq[0] */
} table;

static const table tables[] = {
  {"rps", 3, 3, {0, -1, 1, 1, 0, -1, -1, 1, 0}, {0}, 1, 0, 1,
   {{1. / 3, 1. / 3, 1. / 3, 1. / 3, 1. / 3, 1. / 3}}, 0},
  {"biasedrps", 3, 3, {0, -25, 50, 25, 0, -5, -50, 5, 0}, {0}, 1, 0, 1,
   {{1. / 16, 10. / 16, 5. / 16, 1. / 16, 10. / 16, 5. / 16}}, 0},
  {"pennies", 2, 2, {1, -1, -1, 1}, {0}, 1, 0, 1, {{.5, .5, .5, .5}}, 0},
  {"bilinear", 2, 2, {-2, 1, 1, -1}, {0}, 1, 0, 1, {{.4, .6, .4, .6}},
   -0.2},
  {"shapley", 3, 3, {0, 0, 1, 1, 0, 0, 0, 1, 0},
   {0, 1, 0, 0, 0, 1, 1, 0, 0}, 0, 0, 1,
   {{1. / 3, 1. / 3, 1. / 3, 1. / 3, 1. / 3, 1. / 3}}, 1. / 3},
  {"coordination", 2, 2, {2, 0, 0, 1}, {2, 0, 0, 1}, 0, 1, 3,
   {{1, 0, 1, 0}, {0, 1, 0, 1}, {1. / 3, 2. / 3, 1. / 3, 2. / 3}}, 2},
  {"climbing", 3, 3, {11, -30, 0, -30, 7, 6, 0, 0, 5},
   {11, -30, 0, -30, 7, 6, 0, 0, 5}, 0, 1, 3,
   {{1, 0, 0, 1, 0, 0}, {0, 1, 0, 0, 1, 0},
    {5. / 16, 0, 11. / 16, 5. / 16, 0, 11. / 16}}, 11},
  {"prisoners", 2, 2, {3, 0, 5, 1}, {3, 5, 0, 1}, 0, 1, 1,
   {{0, 1, 0, 1}}, 1},
};
#define NTABLES (int)(sizeof tables / sizeof tables[0])

static const table *find_table (const char *name)
{
  int i;
  for (i = 0; i < NTABLES; i++)
    if (strcmp(tables[i].name, name) == 0) return &tables[i];
  return NULL;
}

static double Bof (const table *t, int ij)
{
  return t->zerosum ? -t->A[ij] : t->B[ij];
}

/* NashConv at z by loops: max (Ay) - x'Ay + max (B'x) - x'By. */
static double nc_loops (const table *t, const double *z)
{
  int m = t->m, k = t->k, i, j;
  double hi1 = -INFINITY, hi2 = -INFINITY, v1 = 0, v2 = 0;
  for (i = 0; i < m; i++) {
    double s = 0;
    for (j = 0; j < k; j++) s += t->A[i * k + j] * z[m + j];
    if (s > hi1) hi1 = s;
    v1 += z[i] * s;
  }
  for (j = 0; j < k; j++) {
    double s = 0;
    for (i = 0; i < m; i++) s += Bof(t, i * k + j) * z[i];
    if (s > hi2) hi2 = s;
    v2 += z[m + j] * s;
  }
  return hi1 - v1 + hi2 - v2;
}

static double value_loops (const table *t, const double *z)
{
  double s = 0;
  int i, j;
  for (i = 0; i < t->m; i++)
    for (j = 0; j < t->k; j++) s += z[i] * t->A[i * t->k + j] * z[t->m + j];
  return s;
}

static double amax (const table *t)
{
  double a = 0;
  int i;
  for (i = 0; i < t->m * t->k; i++)
    if (fabs(t->A[i]) > a) a = fabs(t->A[i]);
  return a;
}

/* A random point of the two simplices. */
static void rand_profile (ol_rng *r, int m, int k, double *z)
{
  int i;
  double s1 = 0, s2 = 0;
  for (i = 0; i < m + k; i++) z[i] = ol_rng_exp(r);
  for (i = 0; i < m; i++) s1 += z[i];
  for (i = m; i < m + k; i++) s2 += z[i];
  for (i = 0; i < m; i++) z[i] /= s1;
  for (i = m; i < m + k; i++) z[i] /= s2;
}

static void test_builtins (ol_rng *r)
{
  int ti;
  for (ti = 0; ti < NTABLES; ti++) {
    const table *t = &tables[ti];
    ol_err e;
    ol_problem *p = olt_problem(t->name, &e, (char *)NULL);
    const ol_game *G = NULL;
    double z[6], g[6], f, worst = 0;
    int i, j, q, n = t->m + t->k, bad = 0;
    if (!ok(p != NULL && (G = ol_game_of(p)) != NULL && p->n == n
            && p->rows == t->m && p->cols == t->k,
            "%s: a %d x %d bimatrix game", t->name, t->m, t->k)) {
      ol_problem_free(p);
      continue;
    }
    for (i = 0; i < t->m * t->k; i++)
      if (p->payoff[i] != t->A[i] || G->B[i] != Bof(t, i)) bad++;
    ok(bad == 0 && G->zerosum == t->zerosum, "%s: payoffs as published "
       "(zero-sum %d)", t->name, t->zerosum);
    /* the oracle at three random profiles: g = (-A y, -B'x), f = x'Ay */
    for (q = 0; q < 3; q++) {
      rand_profile(r, t->m, t->k, z);
      p->fdf(p->ud, z, &f, g, &e);
      for (i = 0; i < t->m; i++) {
        double s = 0;
        for (j = 0; j < t->k; j++) s += t->A[i * t->k + j] * z[t->m + j];
        worst = fmax(worst, fabs(g[i] + s));
      }
      for (j = 0; j < t->k; j++) {
        double s = 0;
        for (i = 0; i < t->m; i++) s += Bof(t, i * t->k + j) * z[i];
        worst = fmax(worst, fabs(g[t->m + j] + s));
      }
      worst = fmax(worst, fabs(f - value_loops(t, z)));
    }
    ok(worst <= 1e-13 * (1 + amax(t)), "%s: oracle g = (-Ay, -B'x), f = "
       "x'Ay at random profiles (max error %.2g)", t->name, worst);
    /* the stated equilibria */
    worst = 0;
    for (q = 0; q < t->neq; q++) worst = fmax(worst, nc_loops(t, t->eq[q]));
    ok(worst <= 1e-14 * (1 + amax(t)), "%s: the %d stated equilibria have "
       "NashConv 0 (max %.2g)", t->name, t->neq, worst);
    /* the problem's list of known equilibria: the stated ones, in order,
    ** each with ol_game_nashconv 0 */
    {
      const double *eq = NULL;
      int neq = ol_game_equilibria(p, &eq), same = neq == t->neq;
      double w[6], gap = 0;
      for (q = 0; same && q < neq; q++) {
        for (i = 0; i < n; i++)
          if (fabs(eq[q * n + i] - t->eq[q][i]) > 1e-15) same = 0;
        gap = fmax(gap, fabs(ol_game_nashconv(G, eq + q * n, w)));
      }
      ok(same && gap <= 1e-14 * (1 + amax(t)), "%s: p's %d known equilibria "
         "are the stated ones, ol_game_nashconv 0 at each (max %.2g)",
         t->name, neq, gap);
    }
    if (p->xstar != NULL)
      ok(nc_loops(t, p->xstar) <= 1e-14 * (1 + amax(t))
         && fabs(value_loops(t, p->xstar) - p->fstar) <= 1e-15
         && fabs(p->fstar - t->value) <= 1e-15,
         "%s: x* is an equilibrium with value f* = %g", t->name, p->fstar);
    else ok(t->neq > 1, "%s: several equilibria, no single x*", t->name);
    ok(nc_loops(t, p->x0) > 1e-3, "%s: x0 is off equilibrium (NashConv "
       "%.3g)", t->name, nc_loops(t, p->x0));
    /* a potential exactly when one exists; checked by deviations */
    if (t->potential) {
      double dmax = 0, z2[6];
      for (q = 0; q < 20 && G->phi != NULL; q++) {
        /* a unilateral deviation of player (q % 2) changes its payoff by
        ** the change of x' Phi y */
        rand_profile(r, t->m, t->k, z);
        memcpy(z2, z, sizeof z);
        rand_profile(r, t->m, t->k, z2 + (q % 2 ? 0 : 0));
        if (q % 2 == 0) memcpy(z2 + t->m, z + t->m, sizeof(double) * t->k);
        else memcpy(z2, z, sizeof(double) * t->m);
        {
          double du, dphi = ol_game_potential(G, z2) -
            ol_game_potential(G, z);
          table tb = *t;
          if (q % 2) {
            /* column player: x'By difference = value of B */
            for (i = 0; i < t->m * t->k; i++) tb.A[i] = Bof(t, i);
          }
          du = value_loops(&tb, z2) - value_loops(&tb, z);
          dmax = fmax(dmax, fabs(du - dphi));
        }
      }
      ok(G->phi != NULL && dmax <= 1e-12 * (1 + amax(t)),
         "%s: an exact potential (unilateral deviations change it by the "
         "deviator's gain, max error %.2g)", t->name, dmax);
    }
    else ok(G->phi == NULL, "%s: no exact potential", t->name);
    ol_problem_free(p);
  }
}

static ol_problem *mkmatrix (const double *A, const double *B,
                             const double *phi, int m, int k, ol_err *e)
{
  ol_pval v[8];   /* matrixgame's parameters, xstar last (v[7]: absent) */
  memset(v, 0, sizeof v);
  v[3].num = 3;
  v[4].num = 3;
  v[5].num = 1;
  if (A != NULL) {
    v[0].arr = A;
    v[0].rows = m;
    v[0].cols = k;
  }
  if (B != NULL) {
    v[1].arr = B;
    v[1].rows = m;
    v[1].cols = k;
  }
  if (phi != NULL) {
    v[2].arr = phi;
    v[2].rows = m;
    v[2].cols = k;
  }
  return ol_problem_new(ol_problem_type_find("matrixgame"), v, e);
}

static void test_matrixgame (void)
{
  static const double A[6] = {1, 2, 0, -1, 3, 1}, B[6] = {0, 1, 2, 3, 1, 0};
  static const double PD[4] = {3, 0, 5, 1}, PDB[4] = {3, 5, 0, 1};
  static const double PHI[4] = {3, 5, 5, 6}, BAD[4] = {3, 5, 5, 7};
  ol_err e;
  ol_problem *p, *q;
  const ol_game *G = NULL;
  int i, same = 1, inrange = 1;
  p = mkmatrix(A, NULL, NULL, 2, 3, &e);
  ok(p != NULL && (G = ol_game_of(p)) != NULL && G->zerosum
     && G->B[4] == -3 && p->set.nblocks == 2 && p->set.blocks[1] == 3,
     "matrixgame: B absent is zero-sum, B = -A, on simplices {2, 3}");
  ol_problem_free(p);
  p = mkmatrix(A, B, NULL, 2, 3, &e);
  ok(p != NULL && (G = ol_game_of(p)) != NULL && !G->zerosum
     && memcmp(G->B, B, sizeof B) == 0 && G->amax == 3,
     "matrixgame: general-sum A, B kept");
  ol_problem_free(p);
  p = mkmatrix(PD, PDB, PHI, 2, 2, &e);
  ok(p != NULL && (G = ol_game_of(p)) != NULL && G->phi != NULL
     && memcmp(G->phi, PHI, sizeof PHI) == 0,
     "matrixgame: a given exact potential is checked and kept");
  ol_problem_free(p);
  p = mkmatrix(PD, PDB, BAD, 2, 2, &e);
  ok(p == NULL && e.code == OL_EINVAL && strstr(e.msg, "(2, 2)") != NULL,
     "matrixgame: a wrong potential is refused (%s)", p ? "" : e.msg);
  p = mkmatrix(NULL, NULL, PHI, 2, 2, &e);
  ok(p != NULL && (G = ol_game_of(p)) != NULL && !G->zerosum
     && memcmp(G->B, PHI, sizeof PHI) == 0
     && memcmp(p->payoff, PHI, sizeof PHI) == 0 && G->phi != NULL,
     "matrixgame: potential alone is the identical-interest game A = B");
  ol_problem_free(p);
  p = mkmatrix(NULL, B, NULL, 2, 3, &e);
  ok(p == NULL && strstr(e.msg, "B needs A") != NULL,
     "matrixgame: B without A is refused");
  /* random games: reproducible per seed, entries in [-1, 1) */
  p = olt_problem("matrixgame", &e, "m", 4.0, "n", 5.0, "seed", 7.0,
                  (char *)NULL);
  q = olt_problem("matrixgame", &e, "m", 4.0, "n", 5.0, "seed", 7.0,
                  (char *)NULL);
  if (ok(p != NULL && q != NULL && p->n == 9 && p->rows == 4,
         "matrixgame: random 4 x 5 game")) {
    for (i = 0; i < 20; i++) {
      if (p->payoff[i] != q->payoff[i]) same = 0;
      if (!(p->payoff[i] >= -1 && p->payoff[i] < 1)) inrange = 0;
    }
    ok(same && inrange && ol_game_of(p)->zerosum,
       "matrixgame: seed 7 gives the same zero-sum game twice, entries in "
       "[-1, 1)");
  }
  ol_problem_free(q);
  q = olt_problem("matrixgame", &e, "m", 4.0, "n", 5.0, "seed", 8.0,
                  (char *)NULL);
  ok(q != NULL && memcmp(p->payoff, q->payoff, 20 * sizeof(double)) != 0,
     "matrixgame: another seed, another game");
  ol_problem_free(p);
  ol_problem_free(q);
  p = olt_problem("matrixgame", &e, "kind", 1.0, (char *)NULL);
  ok(p != NULL && !ol_game_of(p)->zerosum,
     "matrixgame: kind = general draws B too");
  ol_problem_free(p);
  p = ol_problem_new(ol_problem_type_find("matrixgame"), NULL, &e);
  ok(p != NULL && p->n == 6, "matrixgame: no values: the random 3 x 3 game");
  ol_problem_free(p);
  p = olt_problem("bilinear", &e, "simplex", 0.0, (char *)NULL);
  ok(p != NULL && p->set.kind == OL_SET_NONE && p->xstar != NULL
     && p->xstar[0] == 0 && p->fstar == 0 && p->n == 4,
     "bilinear: simplex = false is unconstrained, z* = 0");
  ol_problem_free(p);
}

/* == metrics ============================================================ */

static void test_metrics (ol_rng *r)
{
  const table *t = find_table("shapley"), *tz = find_table("biasedrps");
  ol_err e;
  ol_problem *p = olt_problem("shapley", &e, (char *)NULL);
  ol_problem *pz = olt_problem("biasedrps", &e, (char *)NULL);
  double z[6], work[12];
  ol_mstate s;
  int q;
  double worst = 0, worstz = 0;
  if (!ok(p != NULL && pz != NULL, "metrics: games made")) return;
  memset(&s, 0, sizeof s);
  s.work = work;
  s.n = 6;
  for (q = 0; q < 5; q++) {
    rand_profile(r, 3, 3, z);
    s.p = p;
    s.x = s.xavg = z;
    worst = fmax(worst, fabs(ol_metric_types[OL_MET_NASHCONV]->eval(&s)
                             - nc_loops(t, z)));
    worst = fmax(worst, fabs(ol_metric_types[OL_MET_EXPLOIT]->eval(&s)
                             - nc_loops(t, z) / 2));
    worst = fmax(worst, fabs(ol_metric_types[OL_MET_EXPLOIT_AVG]->eval(&s)
                             - nc_loops(t, z) / 2));
    s.p = pz;
    worstz = fmax(worstz, fabs(ol_metric_types[OL_MET_NASHCONV]->eval(&s)
                               - ol_game_gap(pz, z, work)));
    worstz = fmax(worstz, fabs(ol_metric_types[OL_MET_VALUE]->eval(&s)
                               - value_loops(tz, z)));
  }
  ok(worst <= 1e-14, "metrics: nashconv, exploitability = nashconv / 2 "
     "(last and average) on shapley at random profiles (max error %.2g)",
     worst);
  ok(worstz <= 1e-12, "metrics: zero-sum nashconv is the duality gap, value "
     "= x'Ay (max error %.2g)", worstz);
  ok(!ol_metric_types[OL_MET_POTENTIAL]->avail(p, OL_DYNAMIC)
     && ol_metric_types[OL_MET_NASHCONV]->avail(p, OL_DYNAMIC),
     "metrics: shapley has nashconv, no potential");
  ol_problem_free(p);
  ol_problem_free(pz);
  p = olt_problem("bilinear", &e, "simplex", 0.0, (char *)NULL);
  ok(p != NULL && !ol_metric_types[OL_MET_NASHCONV]->avail(p, OL_DYNAMIC)
     && !ol_metric_types[OL_MET_REGRET]->avail(p, OL_DYNAMIC)
     && ol_metric_types[OL_MET_VALUE]->avail(p, OL_DYNAMIC),
     "metrics: the unconstrained game has no nashconv or regret");
  ol_problem_free(p);
}

/* regret and ccegap of a run against the iterates; the weighted average. */
static void test_regret (void)
{
  const table *t = find_table("shapley");
  enum { K = 40 };
  static const char *const meths[] = {"rm", "mwu", "fp", "prmplus"};
  int mi, avg;
  for (mi = 0; mi < 4; mi++)
    for (avg = 0; avg < (mi == 0 ? 3 : 1); avg++) {
      ol_err e;
      ol_problem *p = olt_problem("shapley", &e, (char *)NULL);
      double par[8], X[(K + 1) * 6], U[6] = {0}, S[2] = {0}, xa[6] = {0};
      double wsum = 0, reg = -INFINITY, hi, rgot, cgot, err = 0;
      const ol_method_type *m;
      ol_run_opts o;
      ol_run *r;
      int j, i, b;
      m = olt_method(meths[mi], par, (char *)NULL);
      if (mi == 0) par[0] = avg;
      o = olt_opts(K, 0, OL_MSET_OF(OL_MET_REGRET, OL_MET_CCEGAP));
      memcpy(X, p->x0, sizeof(double) * 6);
      if (!olt_iterates(p, m, par, &o, K, X + 6)) {
        ok(0, "%s: iterates", meths[mi]);
        ol_problem_free(p);
        continue;
      }
      /* by hand from x_0 .. x_{K-1}: U_1 = sum A y_t, U_2 = sum B'x_t */
      for (j = 0; j < K; j++) {
        const double *z = X + 6 * j;
        double w = avg == 1 ? j + 1 : avg == 2 ? (j + 1.0) * (j + 1) : 1;
        for (i = 0; i < 3; i++) {
          double s1 = 0, s2 = 0;
          for (b = 0; b < 3; b++) {
            s1 += t->A[i * 3 + b] * z[3 + b];
            s2 += t->B[b * 3 + i] * z[b];
          }
          U[i] += s1;
          U[3 + i] += s2;
          S[0] += z[i] * s1;
          S[1] += z[3 + i] * s2;
        }
        wsum += w;
        for (i = 0; i < 6; i++) xa[i] += w * z[i];
      }
      for (b = 0; b < 2; b++) {
        hi = fmax(U[3 * b], fmax(U[3 * b + 1], U[3 * b + 2]));
        reg = fmax(reg, (hi - S[b]) / K);
      }
      r = olt_go(p, m, par, &o);
      rgot = ol_run_last(r, OL_MET_REGRET);
      cgot = ol_run_last(r, OL_MET_CCEGAP);
      for (i = 0; i < 6; i++)
        err = fmax(err, fabs(ol_run_xavg(r)[i] - xa[i] / wsum));
      ok(fabs(rgot - reg) <= 1e-12 && cgot == fmax(0, reg),
         "%s: regret after %d steps on shapley = max_i (max_a U_ia - S_i) "
         "/ T from the iterates (%.6g, want %.6g), ccegap its positive part",
         meths[mi], K, rgot, reg);
      ok(err <= 1e-14, "%s: the %s average of x_0 .. x_%d (max error %.2g)",
         meths[mi], avg == 0 ? "uniform" : avg == 1 ? "linear" : "quadratic",
         K - 1, err);
      ol_run_free(r);
      ol_problem_free(p);
    }
}

/* ol_play_exp against libm's exp on [-708, 0], at its edges and beyond. */
static void test_exp (ol_rng *r)
{
  enum { N = 100000 };
  static double a[N], y[N];
  double worst = 0, sp[6] = {0, -708, -708.5, -INFINITY, NAN, -1e-300};
  double sy[6];
  int i;
  for (i = 0; i < N; i++)
    a[i] = i < N / 2 ? -708.0 * i / (N / 2) : -ol_rng_exp(r) * 3;
  ol_play_exp(a, y, N);
  for (i = 0; i < N; i++)
    worst = fmax(worst, fabs(y[i] - exp(a[i])) / exp(a[i]));
  ok(worst <= 4 * DBL_EPSILON, "play: ol_play_exp within 4 ulp of exp on "
     "[-708, 0] (grid and random points; max relative error %.2g = %.2f "
     "eps)", worst, worst / DBL_EPSILON);
  ol_play_exp(sp, sy, 6);
  ok(sy[0] == 1 && fabs(sy[1] - exp(-708)) <= 4 * DBL_EPSILON * exp(-708)
     && sy[2] == 0 && sy[3] == 0 && isnan(sy[4]) && sy[5] == 1,
     "play: exp(0) = 1, exp(-708) as libm, 0 below -708 and at -inf, NaN "
     "stays NaN");
}

/* == dynamics ============================================================ */

/* The unconstrained bilinear game knows one equilibrium, z* = 0, where
** both players' gradients vanish (M invertible); a hand-assembled game
** knows none. */
static void test_equilibria_free (void)
{
  ol_err e;
  ol_problem *p = olt_problem("bilinear", &e, "simplex", 0.0, (char *)NULL);
  const double *eq = NULL;
  double g[4], f, gn = 0;
  int neq, i;
  if (!ok(p != NULL, "bilinear{simplex=false}")) return;
  neq = ol_game_equilibria(p, &eq);
  if (neq == 1) {
    p->fdf(p->ud, eq, &f, g, &e);
    for (i = 0; i < 4; i++) gn = fmax(gn, fabs(g[i]) + fabs(eq[i]));
  }
  ok(neq == 1 && gn == 0, "bilinear{simplex=false}: one known equilibrium, "
     "z* = 0 with gradient 0 (|z*| + |g| = %g)", gn);
  ol_problem_free(p);
  p = olt_problem("matrixgame", &e, "m", 2.0, "n", 2.0, (char *)NULL);
  ok(p != NULL && ol_game_equilibria(p, &eq) >= 1 && eq != NULL,
     "matrixgame: a random game lists its computed equilibria (issue 27)");
  ol_problem_free(p);
}

/* A run of meth on prob ("bilinear0": the unconstrained bilinear game)
** with budget T, advanced by 'adv' steps. */
static ol_run *go2 (const char *prob, const char *meth, long T, long adv,
                    ol_mset metrics, const char *key, double val)
{
  ol_err e;
  ol_problem *p = strcmp(prob, "bilinear0") == 0
    ? olt_problem("bilinear", &e, "simplex", 0.0, (char *)NULL)
    : olt_problem(prob, &e, (char *)NULL);
  double par[8];
  const ol_method_type *m = olt_method(meth, par, key, val, (char *)NULL);
  ol_run_opts o = olt_opts(T, 0, metrics);
  ol_run *r;
  if (p == NULL || m == NULL) return NULL;
  r = olt_run(p, m, par, &o);
  if (r == NULL) ol_problem_free(p);
  else ol_run_advance(r, adv);
  return r;
}

static ol_run *go (const char *prob, const char *meth, long T,
                   ol_mset metrics, const char *key, double val)
{
  return go2(prob, meth, T, T, metrics, key, val);
}

static void drop_run (ol_run *r)
{
  const ol_problem *p = r != NULL ? ol_run_problem(r) : NULL;
  ol_run_free(r);
  ol_problem_free((ol_problem *)p);
}

static void test_regret_family (void)
{
  static const char *const zs[] = {"rps", "biasedrps", "pennies",
                                   "bilinear"};
  static const char *const ms[] = {"rm", "game.rmplus", "prmplus"};
  const long T = 10000;
  int i, j;
  for (i = 0; i < 4; i++)
    for (j = 0; j < 3; j++) {
      const table *t = find_table(zs[i]);
      ol_run *r = go(zs[i], ms[j], T, OL_MSET_OF(OL_MET_NASHCONV_AVG,
                                                 OL_MET_VALUE), NULL, 0);
      double bound = 3 * amax(t) / sqrt((double)T), nc, v;
      if (!ok(r != NULL && ol_run_iter(r) == T, "%s on %s: %ld steps",
              ms[j], zs[i], T)) {
        drop_run(r);
        continue;
      }
      nc = nc_loops(t, ol_run_xavg(r));
      v = value_loops(t, ol_run_xavg(r));
      ok(nc <= bound && fabs(ol_run_last(r, OL_MET_NASHCONV_AVG) - nc)
         <= 1e-12 * (1 + amax(t)),
         "%s on %s: NashConv of the average %.3g <= 3 max|A| / sqrt(T) = "
         "%.3g at T = %ld", ms[j], zs[i], nc, bound, T);
      ok(fabs(v - t->value) <= bound
         && fabs(ol_run_last(r, OL_MET_VALUE) - v) <= 1e-12 * (1 + amax(t)),
         "%s on %s: value estimate %.5g within %.3g of %g", ms[j], zs[i], v,
         bound, t->value);
      drop_run(r);
    }
}

/* The same bound on a seeded random zero-sum game (value unknown). */
static void test_regret_random (void)
{
  static const char *const ms[] = {"rm", "game.rmplus", "prmplus"};
  const long T = 10000;
  int j;
  for (j = 0; j < 3; j++) {
    ol_err e;
    ol_problem *p = olt_problem("matrixgame", &e, "m", 5.0, "n", 7.0,
                                "seed", 3.0, (char *)NULL);
    double par[8], nc, bound, work[12];
    const ol_method_type *m = olt_method(ms[j], par, (char *)NULL);
    ol_run_opts o = olt_opts(T, 0, OL_MSET_OF(OL_MET_NASHCONV_AVG));
    ol_run *r = p != NULL ? olt_go(p, m, par, &o) : NULL;
    if (!ok(r != NULL, "%s on matrixgame{m=5, n=7, seed=3}", ms[j])) {
      ol_problem_free(p);
      continue;
    }
    bound = 3 * ol_game_of(p)->amax / sqrt((double)T);
    nc = ol_game_gap(p, ol_run_xavg(r), work);
    ok(nc <= bound, "%s on matrixgame{m=5, n=7, seed=3}: duality gap of the "
       "average %.3g <= 3 max|A| / sqrt(T) = %.3g", ms[j], nc, bound);
    ol_run_free(r);
    ol_problem_free(p);
  }
}

static void test_omwu (void)
{
  static const char *const gs[] = {"rps", "pennies"};
  int i;
  for (i = 0; i < 2; i++) {
    const table *t = find_table(gs[i]);
    double lr = 0.1 / amax(t), gap, gmwu, hmwu;
    ol_run *r = go(gs[i], "omwu", 100000, OL_MSET_OF(OL_MET_NASHCONV), "lr",
                   lr);
    ol_run *q = go(gs[i], "mwu", 100000, OL_MSET_OF(OL_MET_NASHCONV), "lr",
                   lr);
    if (!ok(r != NULL && q != NULL, "omwu, mwu on %s", gs[i])) {
      drop_run(r);
      drop_run(q);
      continue;
    }
    gap = nc_loops(t, ol_run_x(r));
    gmwu = nc_loops(t, ol_run_x(q));
    hmwu = ol_run_min(q, OL_MET_NASHCONV);
    ok(gap <= 1e-4, "omwu on %s: last-iterate duality gap %.3g <= 1e-4 "
       "after 10^5 steps at lr = 0.1 / max|A|", gs[i], gap);
    ok(gmwu > 1e-4 && hmwu > 1e-4, "mwu on %s: last-iterate duality gap "
       "%.3g (never below %.3g on the records) stays above 1e-4", gs[i],
       gmwu, hmwu);
    drop_run(r);
    drop_run(q);
  }
}

static void test_fp_shapley (void)
{
  const table *t = find_table("shapley");
  ol_run *r = go2("shapley", "fp", 10000, 5000, OL_MSET_EMPTY, NULL, 0);
  double lo = INFINITY;
  long k;
  if (!ok(r != NULL, "fp on shapley")) return;
  for (k = 5000; k < 10000; k++) {
    ol_run_advance(r, 1);
    lo = fmin(lo, nc_loops(t, ol_run_xavg(r)));
  }
  ok(ol_run_iter(r) == 10000 && lo > 0.05, "fp on shapley: NashConv of the "
     "empirical play stays above 0.05 over steps 5000 .. 10^4 (min %.3g)",
     lo);
  drop_run(r);
}

static void test_br (void)
{
  static const char *const gs[] = {"coordination", "climbing", "prisoners"};
  int i;
  for (i = 0; i < 3; i++) {
    const table *t = find_table(gs[i]);
    ol_run *r = go2(gs[i], "br", 100, 1, OL_MSET_OF(OL_MET_POTENTIAL), NULL,
                    0);
    const ol_game *G;
    double prev, cur, drop = 0, worst;
    int steps = 1, pure = 1, j;
    if (!ok(r != NULL, "br on %s", gs[i])) continue;
    G = ol_game_of(ol_run_problem(r));
    prev = ol_game_potential(G, ol_run_problem(r)->x0);
    cur = ol_game_potential(G, ol_run_x(r));
    drop = fmax(drop, prev - cur);
    while (ol_run_reason(r) == OL_STOP_NONE && steps < 100) {
      prev = cur;
      ol_run_advance(r, 1);
      steps++;
      cur = ol_game_potential(G, ol_run_x(r));
      drop = fmax(drop, prev - cur);
    }
    for (j = 0; j < t->m + t->k; j++)
      if (ol_run_x(r)[j] != 0 && ol_run_x(r)[j] != 1) pure = 0;
    worst = nc_loops(t, ol_run_x(r));
    ok(ol_run_reason(r) == OL_STOP_CONVERGED && pure && worst == 0,
       "br on %s: ends (%s after %d steps) at a pure profile with NashConv "
       "%g", gs[i], ol_stop_name(ol_run_reason(r)), steps, worst);
    ok(drop <= 0, "br on %s: the potential never decreases (largest drop "
       "%g)", gs[i], drop);
    drop_run(r);
  }
}

static void test_bilinear (void)
{
  ol_run *r = go2("bilinear0", "gda", 2000, 1, OL_MSET_OF(OL_MET_DIST), "lr",
                  0.1);
  double prev, cur, drop = 0, d0;
  long k;
  static const char *const conv[] = {"eg", "ogda"};
  int i;
  if (ok(r != NULL, "gda on bilinear{simplex=false}")) {
    d0 = prev = ol_vec_nrm2(ol_run_problem(r)->x0, 4);
    cur = ol_vec_nrm2(ol_run_x(r), 4);
    drop = fmax(drop, prev - cur);
    for (k = 1; k < 2000; k++) {
      prev = cur;
      ol_run_advance(r, 1);
      cur = ol_vec_nrm2(ol_run_x(r), 4);
      drop = fmax(drop, prev - cur);
    }
    ok(drop <= 0 && cur > 2 * d0, "gda on bilinear{simplex=false}: "
       "||z_t - z*|| never decreases, %.3g -> %.3g in 2000 steps at lr = "
       "0.1", d0, cur);
    drop_run(r);
  }
  for (i = 0; i < 2; i++) {
    r = go("bilinear0", conv[i], 30000, OL_MSET_OF(OL_MET_DIST), "lr", 0.1);
    if (!ok(r != NULL, "%s on bilinear{simplex=false}", conv[i])) continue;
    cur = ol_vec_nrm2(ol_run_x(r), 4);
    ok(cur < 1e-6, "%s on bilinear{simplex=false}: ||z_T - z*|| = %.3g < "
       "1e-6 after 30000 steps at lr = 0.1", conv[i], cur);
    drop_run(r);
  }
}

int main (void)
{
  ol_rng r;
  ol_rng_seed(&r, 12, 0);
  diag("seed 12 (random profiles)");
  test_builtins(&r);
  test_equilibria_free();
  test_matrixgame();
  test_metrics(&r);
  test_regret();
  test_exp(&r);
  test_regret_family();
  test_regret_random();
  test_omwu();
  test_fp_shapley();
  test_br();
  test_bilinear();
  return done();
}
