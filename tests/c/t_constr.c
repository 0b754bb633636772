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
** complementarity are the closed forms stated at each check.
*/
#include <math.h>
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
  o = olt_opts(20000, 0, OL_MBIT(OL_MET_LOSS) | OL_MBIT(OL_MET_KKT));
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

int main (void)
{
  test_setter();
  test_fd();
  test_kkt();
  test_auglag();
  return done();
}
