/*
** tests/c/t_kuhn.c -- Kuhn poker (problems/kuhn.h) and CFR / CFR+ on it.
**
** Truth computed here, independently of the tree walk: the expected
** payoff by enumerating the 6 deals with the terminal probabilities
** written out, and best responses by brute force over the 64 pure
** strategies of each player.  Checks: the value -1/18 of the equilibria
** alpha = 0 and alpha = 1/3 (Kuhn 1950) to 1e-12 and their NashConv
** below 1e-12; the uniform profile's value 1/8 and NashConv 11/12 (best
** responses 1/2 and 5/12, derived in the comment of test_uniform);
** the walk's NashConv against brute force on 50 random profiles (seed
** 12); the oracle's gradient against central differences (exact up to
** rounding: the payoff is multilinear); CFR+ within 10^4 steps:
** exploitability of the average <= 1e-3 and value within 1e-3 of -1/18;
** CFR's exploitability of the average falling like 1/sqrt(T): the ratio
** e(T) / e(4T) in [1.5, 2.7] (2 for an exact 1/sqrt(T)) for T = 100 ..
** 6400; the refusals (rm on kuhn, cfr on rps).  No timing.
*/
#include <math.h>
#include <string.h>

#include "olt.h"
#include "problems/kuhn.h"
#include "tap.h"

/* Player 1's expected payoff, deal by deal (J = 0 < Q = 1 < K = 2). */
static double ref_value (const double *x)
{
  double v = 0;
  int c1, c2;
  for (c1 = 0; c1 < 3; c1++)
    for (c2 = 0; c2 < 3; c2++) {
      double s = c1 > c2 ? 1 : -1, b, k, be, ga;
      if (c1 == c2) continue;
      b = x[c1];          /* P1 bets */
      k = x[3 + c1];      /* P1 calls after check, bet */
      be = x[6 + c2];     /* P2 bets after a check */
      ga = x[9 + c2];     /* P2 calls a bet */
      v += ((1 - b) * ((1 - be) * s + be * ((1 - k) * -1 + k * 2 * s))
            + b * ((1 - ga) * 1 + ga * 2 * s)) / 6;
    }
  return v;
}

/* Player i's best-response payoff: the best of its 64 pure strategies. */
static double ref_br (const double *x, int i)
{
  double y[12], best = -INFINITY;
  int s, j;
  for (s = 0; s < 64; s++) {
    double u;
    memcpy(y, x, sizeof y);
    for (j = 0; j < 6; j++) y[6 * i + j] = (s >> j) & 1;
    u = i == 0 ? ref_value(y) : -ref_value(y);
    if (u > best) best = u;
  }
  return best;
}

static double ref_nashconv (const double *x)
{
  return ref_br(x, 0) + ref_br(x, 1);
}

static void eq (double alpha, double *x)
{
  double z[12] = {0, 0, 0, 0, 0, 1, 1.0 / 3, 0, 1, 0, 1.0 / 3, 1};
  z[0] = alpha;
  z[2] = 3 * alpha;
  z[4] = alpha + 1.0 / 3;
  memcpy(x, z, sizeof z);
}

static void test_equilibria (void)
{
  double x[12];
  int k;
  for (k = 0; k < 2; k++) {
    double alpha = k == 0 ? 0 : 1.0 / 3;
    eq(alpha, x);
    is_near(ol_kuhn_value(x), -1.0 / 18, 1e-12, "kuhn: value -1/18 at the "
            "equilibrium alpha = %s", k == 0 ? "0" : "1/3");
    is_near(ref_value(x), -1.0 / 18, 1e-12, "kuhn: the deal-by-deal value "
            "agrees (alpha = %s)", k == 0 ? "0" : "1/3");
    ok(fabs(ol_kuhn_nashconv(x)) < 1e-12, "kuhn: NashConv %.3g < 1e-12 at "
       "alpha = %s", ol_kuhn_nashconv(x), k == 0 ? "0" : "1/3");
    ok(fabs(ref_nashconv(x)) < 1e-12, "kuhn: brute-force NashConv %.3g "
       "< 1e-12 at alpha = %s", ref_nashconv(x), k == 0 ? "0" : "1/3");
  }
}

/* Uniform x = 1/2: per deal the payoff is s + 1/8 (s = +-1 the
** showdown), so the value is 1/8.  Player 1's best response: after
** check-bet fold J (-1), call Q (0) and K (2); first move bet J (-1/2),
** Q (1/2), K (3/2, a tie): 1/2.  Player 2's is 5/12.  NashConv 11/12,
** exploitability 11/24. */
static void test_uniform (void)
{
  double x[12];
  int i;
  for (i = 0; i < 12; i++) x[i] = 0.5;
  is_near(ref_value(x), 0.125, 1e-15, "kuhn: uniform value by deals 1/8");
  is_near(ol_kuhn_value(x), 0.125, 1e-15, "kuhn: uniform value 1/8");
  is_near(ref_br(x, 0), 0.5, 1e-15, "kuhn: player 1's brute-force best "
          "response to uniform 1/2");
  is_near(ref_br(x, 1), 5.0 / 12, 1e-15, "kuhn: player 2's 5/12");
  is_near(ol_kuhn_brvalue(x, 0), 0.5, 1e-15, "kuhn: the walk's best "
          "response of player 1 to uniform: 1/2");
  is_near(ol_kuhn_brvalue(x, 1), 5.0 / 12, 1e-15, "kuhn: of player 2: "
          "5/12");
  is_near(ol_kuhn_nashconv(x), 11.0 / 12, 1e-15, "kuhn: uniform NashConv "
          "11/12");
}

static void test_random (void)
{
  ol_rng g;
  double x[12], worst = 0, wv = 0;
  int k, i;
  ol_rng_seed(&g, 12, 0);
  diag("kuhn: random profiles, seed 12");
  for (k = 0; k < 50; k++) {
    for (i = 0; i < 12; i++) x[i] = ol_rng_uniform(&g);
    if (k % 5 == 0) x[k % 12] = 1;   /* some pure choices: zero reach */
    worst = fmax(worst, fabs(ol_kuhn_nashconv(x) - ref_nashconv(x)));
    wv = fmax(wv, fabs(ol_kuhn_value(x) - ref_value(x)));
  }
  ok(wv < 1e-14, "kuhn: the walk's value is the deal-by-deal value on 50 "
     "random profiles (max diff %.3g)", wv);
  ok(worst < 1e-14, "kuhn: the walk's NashConv is the brute-force one on "
     "50 random profiles (max diff %.3g)", worst);
}

static void test_oracle (void)
{
  ol_err e;
  ol_problem *p = olt_problem("kuhn", &e, (char *)NULL);
  double x[12], g[12], f, worst = 0;
  int i;
  if (!ok(p != NULL, "kuhn: problem.kuhn{} is created")) return;
  ok(p->kind == OL_GAME && p->n == 12 && p->set.kind == OL_SET_BOX
     && p->fstar == -1.0 / 18 && p->x0[0] == 0.5, "kuhn: a game of n = 12 "
     "on [0, 1]^12, f* = -1/18, x0 uniform");
  for (i = 0; i < 12; i++) x[i] = 0.1 + 0.07 * i;
  ol_problem_eval(p, x, &f, g, NULL, &e);
  is_near(f, ref_value(x), 1e-15, "kuhn: f is player 1's payoff");
  for (i = 0; i < 12; i++) {
    double xp[12], xm[12], h = 1e-4, d;
    memcpy(xp, x, sizeof x);
    memcpy(xm, x, sizeof x);
    xp[i] += h;
    xm[i] -= h;
    d = (ref_value(xp) - ref_value(xm)) / (2 * h);   /* du_1 / dx_i */
    if (i >= 6) d = -d;                              /* u_2 = -u_1 */
    worst = fmax(worst, fabs(g[i] + d));
  }
  ok(worst < 1e-10, "kuhn: g = minus each player's payoff gradient, "
     "against central differences (max err %.3g)", worst);
  ol_problem_free(p);
}

/* exploitability of the average after T steps of method name. */
static double run_exploit (const ol_problem *p, const char *name, long T,
                           double *xavg, double *value)
{
  double par[4];
  const ol_method_type *m = olt_method(name, par, (char *)NULL);
  ol_run_opts o = olt_opts(T, 0, OL_MSET_OF(OL_MET_EXPLOIT_AVG, OL_MET_VALUE));
  ol_run *r = olt_go(p, m, par, &o);
  double ex;
  if (r == NULL) return NAN;
  ex = ol_run_last(r, OL_MET_EXPLOIT_AVG);
  if (xavg != NULL) memcpy(xavg, ol_run_xavg(r), 12 * sizeof *xavg);
  if (value != NULL) *value = ol_run_last(r, OL_MET_VALUE);
  ol_run_free(r);
  return ex;
}

static void test_cfr (void)
{
  ol_err e;
  ol_problem *p = olt_problem("kuhn", &e, (char *)NULL);
  ol_problem *rps = olt_problem("rps", &e, (char *)NULL);
  double xa[12], v, ex, prev;
  long T;
  if (!ok(p != NULL && rps != NULL, "kuhn: problems for the runs")) return;
  /* (1) CFR+: the criterion */
  ex = run_exploit(p, "cfrplus", 10000, xa, &v);
  ok(ex <= 1e-3, "cfrplus: exploitability of the average %.3g <= 1e-3 "
     "after 10^4 steps", ex);
  is_near(ex, ref_nashconv(xa) / 2, 1e-12, "cfrplus: the metric is half "
          "the brute-force NashConv of r.xavg");
  ok(fabs(v + 1.0 / 18) <= 1e-3, "cfrplus: value %.6f within 1e-3 of "
     "-1/18", v);
  is_near(v, ref_value(xa), 1e-12, "cfrplus: the value metric is the "
          "deal-by-deal payoff of r.xavg");
  /* (2) CFR: O(1/sqrt(T)) (Zinkevich et al. 2007, Theorem 4) */
  prev = run_exploit(p, "cfr", 100, NULL, NULL);
  for (T = 400; T <= 6400; T *= 4) {
    ex = run_exploit(p, "cfr", T, xa, NULL);
    ok(prev / ex >= 1.5 && prev / ex <= 2.7, "cfr: exploitability "
       "e(%ld) / e(%ld) = %.3g in [1.5, 2.7] (1/sqrt(T): 2; e = %.3g)",
       T / 4, T, prev / ex, ex);
    prev = ex;
  }
  is_near(ex, ref_nashconv(xa) / 2, 1e-12, "cfr: the metric is half the "
          "brute-force NashConv of r.xavg");
  /* (3) refusals */
  ok(ol_method_check(ol_method_find("rm"), p, &e) == OL_EINVAL
     && strstr(e.msg, "cfr") != NULL, "kuhn: rm refuses it, naming cfr "
     "(%s)", e.msg);
  ok(ol_method_check(ol_method_find("cfr"), rps, &e) == OL_EINVAL
     && strstr(e.msg, "kuhn") != NULL, "cfr: refuses a matrix game (%s)",
     e.msg);
  ok(ol_method_check(ol_method_find("cfrplus"), p, &e) == OL_OK,
     "cfrplus: accepts kuhn");
  ol_problem_free(p);
  ol_problem_free(rps);
}

int main (void)
{
  test_equilibria();
  test_uniform();
  test_random();
  test_oracle();
  test_cfr();
  return done();
}
