/*
** tests/c/t_bilevel.c -- the bilevel problem problem.ridgehyper
** (core/problems/ridgehyper.c) and the penalty method optim.bilevel
** (core/optim/bilevel.c).
**
** (1) The exact hypergradient dF/dx (implicit differentiation) against
**     central differences of F at five x, relative 1e-6.
** (2) F(x) = f(w*(x)) against the lower level solved independently: 20000
**     gradient steps of 1/L on g(x, .) through the partial oracles, then
**     f there; also grad_w g = 0 at that w (relative 1e-9).
** (3) The penalty psi_sigma (sigma > 0): its derivative against central
**     differences (relative 1e-5: (g(w_s) - g(w*)) / sigma cancels about
**     -log10 sigma digits in the differences); psi_sigma <= F (l(x, sigma) <= sigma
**     f(w*) + g(w*)); the value and derivative gaps are O(sigma): gap /
**     sigma at sigma = 1e-4 and 1e-5 agree within 2%.
** (4) x* (the grid search and bisection): dF/dx(x*) = 0 to 1e-8 and F
**     there below F at x* +- 0.01.
** (5) optim.bilevel with long inner loops (K = 3000) at lr = 0: its
**     hypergrad_err after one step is |psi_sigma'(x) - F'(x)| from the
**     closed forms (relative 1e-6), and it counts 3K + 3 gradient
**     evaluations per step.
** (6) optim.bilevel with the defaults' K = 20 (single-loop warm starts)
**     converges to the minimiser of psi_sigma (the sigma problem's x*),
**     within 1e-6 in 400 steps, where |F'| is the penalty's O(sigma)
**     gap.
** (7) ol_method_check: bilevel runs on ridgehyper only, and says so.
** Deterministic: the data's seed is the problem's (1) and the method
** draws nothing.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "method.h"
#include "olt.h"
#include "problem.h"
#include "problems/bilevel.h"
#include "run.h"
#include "tap.h"
#include "vec.h"

static double fval (const ol_problem *p, double x)
{
  double f = NAN;
  ol_err e;
  if (p->fdf(p->ud, &x, &f, NULL, &e) != OL_OK) diag("%s", e.msg);
  return f;
}

static double dval (const ol_problem *p, double x)
{
  double g = NAN;
  ol_err e;
  if (p->fdf(p->ud, &x, NULL, &g, &e) != OL_OK) diag("%s", e.msg);
  return g;
}

/* central difference of the problem's objective, h = 1e-5 */
static double fdiff (const ol_problem *p, double x)
{
  double h = 1e-5;
  return (fval(p, x + h) - fval(p, x - h)) / (2 * h);
}

static void test_hypergrad (const ol_problem *p)
{
  static const double xs[5] = {-4, -1, 0, 2, 5};
  int k;
  for (k = 0; k < 5; k++) {
    double g = dval(p, xs[k]), fd = fdiff(p, xs[k]);
    ok(fabs(g - fd) <= 1e-6 * fmax(1, fabs(g)), "ridgehyper: dF/dx at x = "
       "%g is the central difference (%.10g vs %.10g)", xs[k], g, fd);
  }
}

static void test_lower (const ol_problem *p)
{
  const ol_bilevel *b = ol_bilevel_of(p);
  double x = 0.5, w[1024], gw[1024], lf, lg, fw = NAN, gn = 0, g0 = 0;
  int i, k, d = b->ny;
  ol_err e;
  memcpy(w, b->y0, sizeof(double) * (size_t)d);
  b->smooth(b, &x, &lf, &lg);
  b->lower(b, &x, w, NULL, NULL, gw, &e);
  for (i = 0; i < d; i++) g0 = fmax(g0, fabs(gw[i]));
  for (k = 0; k < 20000; k++) {
    b->lower(b, &x, w, NULL, NULL, gw, &e);
    for (i = 0; i < d; i++) w[i] -= gw[i] / lg;
  }
  b->lower(b, &x, w, NULL, NULL, gw, &e);
  for (i = 0; i < d; i++) gn = fmax(gn, fabs(gw[i]));
  b->upper(b, &x, w, &fw, NULL, NULL, &e);
  ok(gn <= 1e-9 * g0, "ridgehyper: 20000 steps of 1/L on g reach its "
     "minimiser (|grad| %.3g from %.3g)", gn, g0);
  is_close(fw, fval(p, x), 1e-9, "ridgehyper: F(0.5) = f(w*) with w* by "
           "gradient descent on the partial oracle (%.12g)", fw);
}

static void test_penalty (void)
{
  static const double sg[2] = {1e-4, 1e-5};
  double gv[2], gd[2], x = 0.3;
  ol_problem *p0 = olt_problem("ridgehyper", NULL, (char *)NULL);
  int k;
  for (k = 0; k < 2; k++) {
    ol_problem *p = olt_problem("ridgehyper", NULL, "sigma", sg[k],
                                (char *)NULL);
    double g = dval(p, x), fd = fdiff(p, x), f = fval(p, x),
           F = fval(p0, x);
    ok(fabs(g - fd) <= 1e-5 * fmax(1, fabs(g)), "ridgehyper: the penalty's "
       "derivative at sigma = %g is the central difference (%.10g vs "
       "%.10g)", sg[k], g, fd);
    ok(f <= F, "ridgehyper: psi_sigma <= F at sigma = %g (%.12g <= %.12g)",
       sg[k], f, F);
    gv[k] = (F - f) / sg[k];
    gd[k] = (dval(p0, x) - g) / sg[k];
    ol_problem_free(p);
  }
  ok(fabs(gv[0] - gv[1]) <= 0.02 * fabs(gv[1]) && gv[1] > 0,
     "ridgehyper: (F - psi_sigma) / sigma settles (%.6g at 1e-4, %.6g at "
     "1e-5): the value gap is O(sigma)", gv[0], gv[1]);
  ok(fabs(gd[0] - gd[1]) <= 0.02 * fabs(gd[1]) && gd[1] != 0,
     "ridgehyper: (F' - psi_sigma') / sigma settles (%.6g at 1e-4, %.6g at "
     "1e-5): the derivative gap is O(sigma)", gd[0], gd[1]);
  ol_problem_free(p0);
}

static void test_xstar (const ol_problem *p)
{
  double xs;
  if (!ok(p->xstar != NULL && isfinite(p->fstar), "ridgehyper: x* and f* "
          "are known on the default data")) return;
  xs = p->xstar[0];
  ok(fabs(dval(p, xs)) <= 1e-8, "ridgehyper: dF/dx(x* = %.6f) = %.3g", xs,
     dval(p, xs));
  ok(p->fstar < fval(p, xs - 0.01) && p->fstar < fval(p, xs + 0.01),
     "ridgehyper: F(x*) = %.10g is below F(x* +- 0.01)", p->fstar);
}

static void test_method_exact (const ol_problem *p0)
{
  double par[8], x0 = -0.7, sg = 1e-3;
  ol_problem *ps = olt_problem("ridgehyper", NULL, "sigma", sg,
                               (char *)NULL);
  const ol_method_type *m = olt_method("bilevel", par, "sigma", sg, "lr",
                                       0.0, "K", 3000.0, (char *)NULL);
  ol_run_opts o = olt_opts(2, 0, OL_MSET_OF(OL_MET_LOSS,
                                            OL_MET_HYPERGRAD_ERR));
  ol_run *r;
  double want = fabs(dval(ps, x0) - dval(p0, x0)), got;
  o.x0 = &x0;
  r = m != NULL ? olt_run(p0, m, par, &o) : NULL;
  if (!ok(r != NULL, "bilevel: starts on ridgehyper")) goto done;
  ok(isnan(ol_run_last(r, OL_MET_HYPERGRAD_ERR)), "bilevel: hypergrad_err "
     "is NaN before the first step");
  ol_run_advance(r, 1);
  got = ol_run_last(r, OL_MET_HYPERGRAD_ERR);
  is_close(got, want, 1e-6, "bilevel: K = 3000, one step at x = -0.7: "
           "hypergrad_err %.10g is |psi_sigma' - F'| = %.10g (sigma = 1e-3, "
           "closed forms)", got, want);
  is_int(ol_run_ngev(r), 3 * 3000 + 3, "bilevel: a step counts 3K + 3 gradient evaluations");
  ok(ol_run_x(r)[0] == x0, "bilevel: lr = 0 leaves x where it is");
  ol_run_free(r);
done:
  ol_problem_free(ps);
}

static void test_method_converges (const ol_problem *p0)
{
  double par[8], sg = 1e-2;
  ol_problem *ps = olt_problem("ridgehyper", NULL, "sigma", sg,
                               (char *)NULL);
  const ol_method_type *m = olt_method("bilevel", par, "sigma", sg, "lr",
                                       0.05, (char *)NULL);
  ol_run_opts o = olt_opts(400, 0, OL_MSET_OF(OL_MET_LOSS,
                                              OL_MET_HYPERGRAD_ERR));
  ol_run *r = m != NULL ? olt_go(p0, m, par, &o) : NULL;
  if (ok(r != NULL && ps->xstar != NULL, "bilevel: runs 400 steps")) {
    double x = ol_run_x(r)[0], gap = fabs(dval(p0, x));
    ok(fabs(x - ps->xstar[0]) <= 1e-6, "bilevel: sigma = 1e-2, K = 20, "
       "lr = 0.05 reaches the penalty's minimiser %.8f (x = %.8f)",
       ps->xstar[0], x);
    is_close(ol_run_last(r, OL_MET_HYPERGRAD_ERR), gap, 1e-3, "bilevel: "
             "there hypergrad_err is |F'(x)| = %.6g, the O(sigma) gap",
             gap);
    diag("bilevel: x = %.6f, F's x* = %.6f, F' there %.4g", x,
         p0->xstar[0], gap);
  }
  ol_run_free(r);
  ol_problem_free(ps);
}

static void test_check (const ol_problem *p0)
{
  const ol_method_type *m = ol_method_find("optim.bilevel");
  ol_problem *q = olt_quadratic(2, 10, 0);
  ol_err e;
  ok(m != NULL && ol_method_check(m, p0, &e) == OL_OK,
     "bilevel: accepted on ridgehyper");
  ok(m != NULL && q != NULL && ol_method_check(m, q, &e) == OL_EINVAL &&
     strstr(e.msg, "bilevel problem") != NULL,
     "bilevel: refused on quadratic (%s)", m != NULL ? e.msg : "");
  ok(ol_bilevel_of(q) == NULL && ol_bilevel_of(p0) != NULL,
     "ol_bilevel_of tells a bilevel problem from another");
  ol_problem_free(q);
}

int main (void)
{
  ol_problem *p = olt_problem("ridgehyper", NULL, (char *)NULL);
  if (!ok(p != NULL && ol_bilevel_of(p) != NULL, "ridgehyper: builds")) {
    ol_problem_free(p);
    return done();
  }
  test_hypergrad(p);
  test_lower(p);
  test_penalty();
  test_xstar(p);
  test_method_exact(p);
  test_method_converges(p);
  test_check(p);
  ol_problem_free(p);
  return done();
}
