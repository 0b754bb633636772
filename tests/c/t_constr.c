/*
** tests/c/t_constr.c -- general constraints in the core: the checked
** setter (ol_problem_set_constraints), constraint evaluation with central
** differences (ol_problem_ceval), IPOPT's optimality error
** (ol_constr_kkt, Waechter & Biegler 2006, eqs. (5)-(6)) and
** optim.auglag on Hock & Schittkowski (1981) problem 71.
**
** Truth: HS071's published optimum f* = 17.0140173 at x* = (1, 4.7429994,
** 3.8211503, 1.3794082) (Hock & Schittkowski 1981, problem 71) and its
** multipliers (0.55229366, -0.16146857) with grad f - sum lambda_i grad
** c_i - z_l + z_u = 0 (IPOPT's HS071 example prints them with its
** opposite sign); the analytic constraint gradients for the differences
** (1e-6 relative); by hand, at x* of HS071 with these multipliers the
** stationarity residual is at the 1e-7 level of the published digits,
** and at a point with known c and lambda the feasibility and
** complementarity are the closed forms stated at each check.  Also (issue
** 22): IPOPT's bound push (bound_push = bound_frac = 1e-2), the
** feasibility restoration's least violation (x1^2 + 1 = 0: 1 at x1 = 0,
** by hand), the fitted bound multipliers, the gradient-based scale
** factor, the scaled optimality error, and reason "infeasible"; auglag
** with defaults on the badly scaled HS106 (f* = 7049.2480 as published
** since the collection; 5aa2093 ended on its budget with the penalty at
** 1e12 and kkt 5.8).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "constr.h"
#include "olt.h"
#include "tap.h"

static int hs071_fdf (void *ud, const double *x, double *f, double *g,
                      ol_err *e)
{
  (void)ud; (void)e;
  if (f != NULL) *f = x[0] * x[3] * (x[0] + x[1] + x[2]) + x[2];
  if (g != NULL) {
    g[0] = x[3] * (2 * x[0] + x[1] + x[2]);
    g[1] = x[0] * x[3];
    g[2] = x[0] * x[3] + 1;
    g[3] = x[0] * (x[0] + x[1] + x[2]);
  }
  return OL_OK;
}

static int hs071_con (void *ud, int i, const double *x, double *c,
                      double *g, ol_err *e)
{
  int j;
  (void)ud; (void)e;
  if (i == 0) {
    if (c != NULL) *c = x[0] * x[1] * x[2] * x[3] - 25;
    if (g != NULL) {
      g[0] = x[1] * x[2] * x[3];
      g[1] = x[0] * x[2] * x[3];
      g[2] = x[0] * x[1] * x[3];
      g[3] = x[0] * x[1] * x[2];
    }
  } else {
    if (c != NULL) *c = x[0] * x[0] + x[1] * x[1] + x[2] * x[2]
                        + x[3] * x[3] - 40;
    if (g != NULL)
      for (j = 0; j < 4; j++) g[j] = 2 * x[j];
  }
  return OL_OK;
}

static const double xs71[4] = {1, 4.7429994, 3.8211503, 1.3794082};
static const double lam71[2] = {0.55229366, -0.16146857};

/* HS071 with bounds 1 <= x <= 5, x0 = (1, 5, 5, 1); hasgrad for both
** constraints (NULL: differences). */
static ol_problem *hs071 (const int *hasgrad)
{
  static const int kind[2] = {OL_CON_INEQ, OL_CON_EQ};
  double lo[4] = {1, 1, 1, 1}, hi[4] = {5, 5, 5, 5}, x0[4] = {1, 5, 5, 1};
  ol_set s;
  ol_err e;
  ol_problem *p = ol_problem_custom(4, hs071_fdf, 0, NULL, NULL, &e);
  memset(&s, 0, sizeof s);
  s.kind = OL_SET_BOX;
  s.lo = lo;
  s.hi = hi;
  if (p == NULL || ol_problem_set_set(p, &s, &e) != OL_OK ||
      ol_problem_set_x0(p, x0, 4, &e) != OL_OK ||
      ol_problem_set_constraints(p, 2, kind, hasgrad, hs071_con, NULL, &e)
      != OL_OK) {
    diag("hs071: %s", e.msg);
    ol_problem_free(p);
    return NULL;
  }
  return p;
}

static void test_setter (void)
{
  static const int bad[1] = {7}, one[1] = {OL_CON_EQ};
  ol_err e;
  ol_problem *p = ol_problem_custom(2, hs071_fdf, 0, NULL, NULL, &e);
  ok(ol_problem_set_constraints(p, 1, bad, NULL, hs071_con, NULL, &e)
     == OL_EINVAL && strstr(e.msg, "neither eq nor ineq") != NULL,
     "setter refuses an unknown kind: %s", e.msg);
  ok(ol_problem_set_constraints(p, -1, one, NULL, hs071_con, NULL, &e)
     == OL_EINVAL, "setter refuses m < 0: %s", e.msg);
  ok(p->con.m == 0, "a refused setter leaves the problem unchanged");
  ok(ol_problem_set_constraints(p, 1, one, NULL, hs071_con, NULL, &e)
     == OL_OK && p->con.m == 1 && p->con.meq == 1 && p->con.fd[0] == 1,
     "one equality without a gradient: m = 1, meq = 1, differences");
  p->frozen = 1;
  ok(ol_problem_set_constraints(p, 0, NULL, NULL, NULL, NULL, &e)
     == OL_EINVAL && strstr(e.msg, "in use by a run") != NULL,
     "a frozen problem refuses: %s", e.msg);
  p->frozen = 0;
  ok(ol_problem_set_constraints(p, 0, NULL, NULL, NULL, NULL, &e) == OL_OK
     && p->con.m == 0, "m = 0 removes them");
  ol_problem_free(p);
}

static void test_fd (void)
{
  static const int yes[2] = {1, 1};
  ol_problem *pa = hs071(yes), *pf = hs071(NULL);
  double pts[3][4] = {{1, 5, 5, 1}, {1.3, 4.2, 3.1, 2.2}, {4.9, 1.1, 2, 3}};
  double ga[4], gf[4], ca, cf, w[4], worst = 0;
  long nv = 0, ng = 0;
  ol_err e;
  int i, k, j;
  if (pa == NULL || pf == NULL) return;
  for (k = 0; k < 3; k++)
    for (i = 0; i < 2; i++) {
      double gmax = 1;
      ol_problem_ceval(pa, i, pts[k], &ca, ga, w, NULL, NULL, &e);
      ol_problem_ceval(pf, i, pts[k], &cf, gf, w, &nv, &ng, &e);
      for (j = 0; j < 4; j++) gmax = fmax(gmax, fabs(ga[j]));
      for (j = 0; j < 4; j++) worst = fmax(worst, fabs(gf[j] - ga[j]) / gmax);
      ok(ca == cf, "point %d constraint %d: the same value", k, i + 1);
    }
  ok(worst <= 1e-6, "FD constraint gradients = analytic to %.3g <= 1e-6",
     worst);
  ok(nv == 6 * (1 + 2 * 4) && ng == 6,
     "counts: %ld values (6 x (1 + 2n)), %ld gradients (6)", nv, ng);
  ol_problem_free(pa);
  ol_problem_free(pf);
}

static void test_kkt (void)
{
  static const int yes[2] = {1, 1};
  ol_problem *p = hs071(yes);
  double g[4], w[12], x[4];
  ol_kkt k;
  ol_err e;
  if (p == NULL) return;
  hs071_fdf(NULL, xs71, NULL, g, &e);
  ol_constr_kkt(p, xs71, g, lam71, &k, w, &e);
  ok(k.stat <= 1e-5 && k.feas <= 1e-5 && k.comp <= 1e-5,
     "published x*, lambda of HS071: stat %.2g, feas %.2g, comp %.2g "
     "(their 7-8 digits)", k.stat, k.feas, k.comp);
  ok(k.sd == 1 && k.sc == 1, "small multipliers: s_d = s_c = 1");
  /* x = (2, 2, 2, 2): c1 = 16 - 25 = -9 (violated by 9), c2 = 16 - 40 =
  ** -24; feasibility max(9, 24) = 24; complementarity at least
  ** |lambda_1 c1| = 0.5 * 9 = 4.5 (the bound terms z_l,j (x_j - 1) =
  ** r_j / 2 where r_j > 0 may be larger) */
  x[0] = x[1] = x[2] = x[3] = 2;
  hs071_fdf(NULL, x, NULL, g, &e);
  {
    double lam[2] = {0.5, 0};
    ol_constr_kkt(p, x, g, lam, &k, w, &e);
    is_near(k.feas, 24, 1e-15, "feasibility at (2,2,2,2) is |c2| = 24");
    ok(k.comp >= 4.5, "complementarity >= |lambda_1 c_1| = 4.5 (%g)",
       k.comp);
    ol_constr_kkt(p, x, g, NULL, &k, w, &e);
    ok(isnan(k.err) && isnan(k.stat) && k.feas == 24,
       "without multipliers: err and stat NaN, feasibility 24");
  }
  ol_problem_free(p);
}

static void test_auglag (void)
{
  static const int yes[2] = {1, 1};
  ol_problem *p = hs071(yes);
  double par[8];
  const ol_method_type *m = olt_method("auglag", par, NULL);
  ol_run_opts o;
  ol_run *r;
  const double *lam;
  if (p == NULL || m == NULL) return;
  o = olt_opts(20000, 0, OL_MSET_OF(OL_MET_LOSS, OL_MET_KKT));
  r = olt_go(p, m, par, &o);
  if (r == NULL) return;
  ok(ol_run_reason(r) == OL_STOP_CONVERGED, "auglag converges on HS071");
  ok(fabs(ol_run_last(r, OL_MET_LOSS) - 17.0140173) / 17.0140173 <= 1e-6,
     "HS071 f* = %.10g within 1e-6 of 17.0140173",
     ol_run_last(r, OL_MET_LOSS));
  ok(olt_agree(ol_run_x(r), xs71, 4, 2e-6), "HS071 x* (to 2e-6)");
  lam = ol_constr_lambda(ol_run_method(r), ol_run_state(r));
  ok(lam != NULL && olt_agree(lam, lam71, 2, 2e-6),
     "HS071 multipliers (%.9g, %.9g)", lam ? lam[0] : NAN,
     lam ? lam[1] : NAN);
  ok(ol_run_last(r, OL_MET_KKT) <= 1e-8, "HS071 kkt %.3g <= 1e-8",
     ol_run_last(r, OL_MET_KKT));
  ol_run_free(r);
  ol_problem_free(p);
}

/* IPOPT's bound push (bound_push = bound_frac = 1e-2): p_L = min(1e-2
** max(1, |lo|), 1e-2 (hi - lo)), likewise p_U; coordinates inside are
** kept.  HS071's box [1, 5]: 0 -> 1 + min(0.01, 0.04) = 1.01, 9 -> 5 -
** min(0.05, 0.04) = 4.96. */
static void test_push (void)
{
  static const int yes[2] = {1, 1};
  ol_problem *p = hs071(yes);
  double x[4] = {0, 9, 3, 5};
  char note[256];
  int k;
  if (p == NULL) return;
  k = ol_constr_push(p, x, note, sizeof note);
  ok(k == 2 && x[0] == 1 + 0.01 && x[1] == 5 - 0.04 && x[2] == 3 &&
     x[3] == 5, "bound push: (0, 9, 3, 5) on [1, 5] -> (%.17g, %.17g, %g, "
     "%g), 2 moved", x[0], x[1], x[2], x[3]);
  ok(strstr(note, "x0[1] = 0 is outside its bounds [1, 5]: moved to "
            "1.01") != NULL && strstr(note, "2 coordinates") != NULL,
     "bound push: the note names the first and the count: %s", note);
  k = ol_constr_push(p, x, note, sizeof note);
  ok(k == 0 && note[0] == '\0', "bound push: nothing to move, no note");
  ol_problem_free(p);
}

/* c(x) = x1^2 + 1 = 0 (least violation 1 at x1 = 0), on no box; and the
** fitted z, the scale factor, the scaled kkt. */
static int sq_con (void *ud, int i, const double *x, double *c, double *g,
                   ol_err *e)
{
  (void)ud; (void)i; (void)e;
  if (c != NULL) *c = x[0] * x[0] + 1;
  if (g != NULL) {
    g[0] = 2 * x[0];
    g[1] = 0;
  }
  return OL_OK;
}

static int sq_fdf (void *ud, const double *x, double *f, double *g,
                   ol_err *e)
{
  (void)ud; (void)e;
  if (f != NULL) *f = x[0] * x[0] + x[1] * x[1];
  if (g != NULL) {
    g[0] = 2 * x[0];
    g[1] = 2 * x[1];
  }
  return OL_OK;
}

static void test_restore (void)
{
  static const int eq[1] = {OL_CON_EQ}, yes[2] = {1, 1};
  ol_err e;
  ol_problem *p = ol_problem_custom(2, sq_fdf, 0, NULL, NULL, &e), *q;
  double x[2] = {0.7, 3}, w[6 * 4], viol = 0, r[4] = {2, -1, 0, 0.5};
  double zl[4], zu[4], xq[4] = {1, 3, 5, 2}, g[4], lam[2] = {0.3, -0.2};
  double sc[2] = {1, 1};
  long nv = 0, ng = 0;
  ol_kkt k1, k2;
  int k, k3;
  if (p == NULL ||
      ol_problem_set_constraints(p, 1, eq, NULL, sq_con, NULL, &e) != OL_OK)
    return;
  k = ol_constr_restore(p, x, NULL, 1000, &viol, w, &nv, &ng, &e);
  ok(k == OL_OK && fabs(x[0]) <= 1e-8 && fabs(viol - 1) <= 1e-15 &&
     x[1] == 3,
     "restoration: x1^2 + 1 = 0 from (0.7, 3) ends at the least violation "
     "1 at x1 = 0 (%.3g, violation %.17g), x2 kept", x[0], viol);
  ok(nv > 0 && ng > 0, "restoration: its calls are counted (%ld values, "
     "%ld gradients)", nv, ng);
  ol_problem_free(p);
  /* z fitted on HS071's box [1, 5] at (1, 3, 5, 2): r_1 = 2 > 0 at its
  ** lower bound, z_l = 2; r_2 = -1 < 0 at gap 2 to 5, z_u = 1/3; r_4 =
  ** 0.5 > 0 at gap 1 from 1, z_l = 0.25 */
  if ((q = hs071(yes)) == NULL) return;
  ol_constr_zfit(q, xq, r, zl, zu);
  ok(zl[0] == 2 && zu[0] == 0 && zl[1] == 0 && fabs(zu[1] - 1.0 / 3) <=
     1e-16 && zl[2] == 0 && zu[2] == 0 && zl[3] == 0.25 && zu[3] == 0,
     "zfit: z = |r| / (1 + gap) on the bound r pushes against");
  ok(ol_constr_scale(5000) == 0.02 && ol_constr_scale(50) == 1 &&
     ol_constr_scale(0) == 1 && ol_constr_scale(INFINITY) == 1,
     "scale: min(1, 100 / max gradient) (IPOPT's nlp_scaling_max_gradient)");
  /* the scaled error with all scales 1 is the unscaled one */
  hs071_fdf(NULL, xq, NULL, g, &e);
  k = ol_constr_kkt(q, xq, g, lam, &k1, w, &e);
  k3 = ol_constr_kkt_scaled(q, xq, g, lam, sc, &k2, w, &e);
  ok(k == OL_OK && k3 == OL_OK &&
     k1.err == k2.err && k1.stat == k2.stat && k1.feas == k2.feas,
     "kkt_scaled with unit scales = kkt (%.17g)", k1.err);
  /* constraint 1 scaled by 1/2 with its multiplier doubled: the same
  ** stationarity residual, half its feasibility */
  sc[0] = 0.5;
  lam[0] *= 2;
  k = ol_constr_kkt_scaled(q, xq, g, lam, sc, &k2, w, &e);
  ok(k == OL_OK && fabs(k2.stat - k1.stat) <= 1e-13 * (1 + k1.stat),
     "kkt_scaled: s_i c_i with lambda_i / s_i has the same stationarity "
     "(%.17g vs %.17g)", k2.stat, k1.stat);
  ol_problem_free(q);
}

/* The run's reason for an infeasible problem, through the core API. */
static void test_infeasible (void)
{
  static const int eq[1] = {OL_CON_EQ};
  static const char *const names[] = {"sqp", "auglag"};
  ol_err e;
  ol_problem *p = ol_problem_custom(2, sq_fdf, 0, NULL, NULL, &e);
  double par[8];
  int k;
  if (p == NULL ||
      ol_problem_set_constraints(p, 1, eq, NULL, sq_con, NULL, &e) != OL_OK)
    return;
  for (k = 0; k < 2; k++) {
    const ol_method_type *m = olt_method(names[k], par, NULL);
    ol_run_opts o = olt_opts(20000, 0, OL_MSET_OF(OL_MET_LOSS,
                                                  OL_MET_FEASIBILITY));
    ol_run *r = olt_go(p, m, par, &o);
    if (r == NULL) continue;
    ok(ol_run_reason(r) == OL_STOP_INFEASIBLE &&
       strcmp(ol_stop_name(OL_STOP_INFEASIBLE), "infeasible") == 0 &&
       fabs(ol_run_x(r)[0]) <= 1e-6 &&
       fabs(ol_run_last(r, OL_MET_FEASIBILITY) - 1) <= 1e-10,
       "%s: x1^2 + 1 = 0 stops 'infeasible' at x1 = 0 (%s, x1 %.3g, "
       "violation %.12g, %ld iterations)", names[k],
       ol_stop_name(ol_run_reason(r)), ol_run_x(r)[0],
       ol_run_last(r, OL_MET_FEASIBILITY), ol_run_iter(r));
    ol_run_free(r);
  }
  ol_problem_free(p);
}

/* auglag with defaults on HS106 through the core API: converged, f*
** to 1e-7 relative, IPOPT's optimality error (the kkt metric, unscaled)
** <= 1e-8, and the penalty its message names at most 1e4. */
static void test_hs106 (void)
{
  ol_problem *p = olt_problem("hs", NULL, "number", 106.0, (char *)NULL);
  double par[8], mu = NAN;
  const ol_method_type *m = olt_method("auglag", par, NULL);
  ol_run_opts o = olt_opts(40000, 0, OL_MSET_OF(OL_MET_LOSS, OL_MET_KKT));
  ol_run *r;
  const char *msg, *at;
  if (p == NULL || m == NULL) return;
  if ((r = olt_go(p, m, par, &o)) != NULL) {
    msg = ol_run_message(r);
    at = strstr(msg, "mu = ");
    if (at != NULL) mu = strtod(at + 5, NULL);
    ok(ol_run_reason(r) == OL_STOP_CONVERGED, "auglag, HS106: converged "
       "with defaults (%s, %ld inner steps: %s)",
       ol_stop_name(ol_run_reason(r)), ol_run_iter(r), msg);
    ok(fabs(ol_run_last(r, OL_MET_LOSS) - 7049.2480) <= 1e-7 * 7049.2480,
       "auglag, HS106: f %.10g vs f* 7049.2480 (1e-7 relative)",
       ol_run_last(r, OL_MET_LOSS));
    ok(ol_run_last(r, OL_MET_KKT) <= 1e-8, "auglag, HS106: kkt %.3g <= "
       "1e-8", ol_run_last(r, OL_MET_KKT));
    ok(mu <= 1e4, "auglag, HS106: the penalty stays at mu = %g <= 1e4", mu);
    ol_run_free(r);
  }
  ol_problem_free(p);
}

int main (void)
{
  test_setter();
  test_fd();
  test_kkt();
  test_auglag();
  test_push();
  test_restore();
  test_infeasible();
  test_hs106();
  return done();
}
