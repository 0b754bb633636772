/*
** tests/c/t_rmplus.c -- regret matching+ through the run engine.
**
** The first iterate on rock-paper-scissors, computed by hand; the average
** strategy of the first steps; NashConv of the average below 1e-2
** within 20000 steps (simultaneous and alternating), checked with a duality
** gap computed here from the payoff; convergence of the last iterate to
** the pure saddle point of a dominance-solvable 2 x 2 game; RM+ on an
** objective over a simplex (u = -grad f).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "problem.h"
#include "run.h"
#include "tap.h"

/* max_i (A ybar)_i - min_j (A'xbar)_j, from the payoff, by loops. */
static double gap (const double *A, int m, int k, const double *z)
{
  double hi = -INFINITY, lo = INFINITY;
  int i, j;
  for (i = 0; i < m; i++) {
    double s = 0;
    for (j = 0; j < k; j++) s += A[i * k + j] * z[m + j];
    if (s > hi) hi = s;
  }
  for (j = 0; j < k; j++) {
    double s = 0;
    for (i = 0; i < m; i++) s += A[i * k + j] * z[i];
    if (s < lo) lo = s;
  }
  return hi - lo;
}

static ol_run *mkrun (const ol_problem *p, int alternate, long iters,
                      ol_err *e)
{
  ol_run_opts o;
  double par[2];
  par[0] = alternate;
  par[1] = 0;   /* avg = "uniform" */
  ol_run_opts_default(&o);
  o.iters = iters;
  o.metrics = OL_MSET_OF(OL_MET_LOSS, OL_MET_NASHCONV_AVG, OL_MET_EXPLOIT_AVG);
  return ol_run_new(p, ol_method_find("game.rmplus"), par, &o, e);
}

static int near (const double *x, const double *want, int n, double tol)
{
  int i;
  for (i = 0; i < n; i++)
    if (!(fabs(x[i] - want[i]) <= tol)) {
      diag("  x[%d]: want %.17g, got %.17g", i, want[i], x[i]);
      return 0;
    }
  return 1;
}

static void test_rps (void)
{
  static const double A[9] = {0, -1, 1, 1, 0, -1, -1, 1, 0};
  ol_err e;
  ol_problem *p = ol_problem_new(ol_problem_type_find("rps"), NULL, &e);
  ol_run *r;
  double z0[6], want[6], avg[6], g;
  int i;
  if (!ok(p != NULL, "rmplus: rps problem")) return;
  memcpy(z0, p->x0, sizeof z0);

  /* by hand from x = (.5, .3, .2), y = (.2, .5, .3):
  ** u_x = Ay = (-.2, -.1, .3), <u_x, x> = -.07, r_x = (-.13, -.03, .37)
  **   -> Q_x = (0, 0, .37), x1 = (0, 0, 1);
  ** u_y = -A'x = (-.1, .3, -.2), <u_y, y> = .07, r_y = (-.17, .23, -.27)
  **   -> Q_y = (0, .23, 0), y1 = (0, 1, 0). */
  r = mkrun(p, 0, 20000, &e);
  if (!ok(r != NULL, "rmplus: runs on rps")) return;
  ol_run_advance(r, 1);
  want[0] = 0; want[1] = 0; want[2] = 1;
  want[3] = 0; want[4] = 1; want[5] = 0;
  ok(near(ol_run_x(r), want, 6, 1e-15),
     "rmplus: first iterate by hand: x1 = (0, 0, 1), y1 = (0, 1, 0)");
  /* step 2 from (x1, y1): u_x = Ay1 = (-1, 0, 1), <u_x, x1> = 1,
  ** r_x = (-2, -1, 0) -> Q_x = (0, 0, .37), x2 = x1;
  ** u_y = -A'x1 = (1, -1, 0), <u_y, y1> = -1, r_y = (2, 0, 1)
  **   -> Q_y = (2, .23, 1), y2 = Q_y / 3.23 */
  ol_run_advance(r, 1);
  want[3] = 2 / 3.23; want[4] = 0.23 / 3.23; want[5] = 1 / 3.23;
  ok(near(ol_run_x(r), want, 6, 1e-15),
     "rmplus: second iterate by hand: y2 = (2, .23, 1) / 3.23");
  for (i = 0; i < 6; i++) avg[i] = (z0[i] + (i == 2 || i == 4)) / 2;
  ok(near(ol_run_xavg(r), avg, 6, 1e-15),
     "rmplus: average after 2 steps = (z0 + z1) / 2 (strategies played)");
  ol_run_advance(r, 20000);
  g = gap(A, 3, 3, ol_run_xavg(r));
  ok(g < 1e-2, "rmplus: NashConv of the average < 1e-2 on rps "
     "after 20000 steps (%.3g)", g);
  is_near(ol_run_last(r, OL_MET_NASHCONV_AVG), g, 1e-12,
          "rmplus: the nashconv_avg metric agrees with the gap by hand");
  is_near(ol_run_last(r, OL_MET_EXPLOIT_AVG), g / 2, 1e-12,
          "rmplus: exploitability_avg is half of it (OpenSpiel)");
  ok(ol_run_reason(r) == OL_STOP_BUDGET && ol_run_iter(r) == 20000,
     "rmplus: 20000 steps, stopped by budget");
  ol_run_free(r);

  r = mkrun(p, 1, 20000, &e);
  if (ok(r != NULL, "rmplus: alternate = 1 runs on rps")) {
    ol_run_advance(r, 1);
    /* alternating: x1 as before; y responds to x1 = (0, 0, 1):
    ** u_y = -A'x1 = (1, -1, 0), <u_y, y0> = .2 - .5 = -.3,
    ** r_y = (1.3, -.7, .3) -> y1 = (1.3, 0, .3) / 1.6 */
    want[0] = 0; want[1] = 0; want[2] = 1;
    want[3] = 1.3 / 1.6; want[4] = 0; want[5] = 0.3 / 1.6;
    ok(near(ol_run_x(r), want, 6, 1e-15),
       "rmplus: alternating first iterate by hand: y1 = (1.3, 0, .3) / 1.6");
    ol_run_advance(r, 20000);
    g = gap(A, 3, 3, ol_run_xavg(r));
    ok(g < 1e-2, "rmplus: alternating, NashConv of the average "
       "< 1e-2 after 20000 steps (%.3g)", g);
    ol_run_free(r);
  }
  ol_problem_free(p);
}

static void test_saddle (void)
{
  /* row 2 dominates row 1; against it the column player picks column 2:
  ** pure saddle point (row 2, column 2), value 2 */
  static const double A[4] = {3, 1, 4, 2};
  static const double want[4] = {0, 1, 0, 1};
  const ol_problem_type *t = ol_problem_type_find("matrixgame");
  ol_err e;
  ol_pval v[16];
  ol_problem *p;
  ol_run *r;
  int i;
  /* every parameter at its default (the constructor reads them all) */
  memset(v, 0, sizeof v);
  for (i = 0; i < t->nparams && i < 16; i++) v[i].num = t->params[i].def;
  v[0].arr = A;
  v[0].rows = 2;
  v[0].cols = 2;
  p = ol_problem_new(t, v, &e);
  if (!ok(p != NULL, "rmplus: 2 x 2 matrixgame")) return;
  r = mkrun(p, 0, 2000, &e);
  if (r != NULL) {
    ol_run_advance(r, 2000);
    ok(near(ol_run_x(r), want, 4, 1e-12),
       "rmplus: last iterate reaches the pure saddle point of a 2 x 2 game");
    ok(gap(A, 2, 2, ol_run_xavg(r)) < 1e-2,
       "rmplus: the average's gap < 1e-2 there (%.3g)",
       gap(A, 2, 2, ol_run_xavg(r)));
    is_near(ol_run_last(r, OL_MET_LOSS), 2, 1e-12,
            "rmplus: value x'Ay -> 2 at the saddle point");
  }
  else
    ok(0, "rmplus: run on the 2 x 2 game (%s)", e.msg);
  ol_run_free(r);
  ol_problem_free(p);
}

/* min 1/2 ||x||^2 over the simplex of size 4 (quadratic with cond = 1,
** set changed here): RM+ with u = -x drives the average to uniform. */
static void test_objective (void)
{
  const ol_problem_type *t = ol_problem_type_find("quadratic");
  ol_pval v[4];
  ol_err e;
  ol_problem *p;
  ol_run *r;
  double x0[4] = {0.7, 0.1, 0.1, 0.1}, want[4] = {.25, .25, .25, .25};
  ol_run_opts o;
  double par[2] = {0, 0};
  int i;
  memset(v, 0, sizeof v);
  for (i = 0; i < t->nparams; i++) v[i].num = t->params[i].def;
  v[0].num = 4;
  v[1].num = 1;
  p = ol_problem_new(t, v, &e);
  r = ol_run_new(p, ol_method_find("game.rmplus"), par, NULL, &e);
  ok(r == NULL && e.code == OL_EINVAL,
     "rmplus: refused without a simplex (%s)", e.msg);
  ol_run_free(r);
  p->set.kind = OL_SET_SIMPLEX;
  p->set.nblocks = 1;
  p->set.blocks[0] = 4;
  ol_run_opts_default(&o);
  o.iters = 5000;
  o.x0 = x0;
  r = ol_run_new(p, ol_method_find("game.rmplus"), par, &o, &e);
  ok(r != NULL, "rmplus: accepted on an objective over a simplex (%s)",
     r ? "" : e.msg);
  if (r != NULL) ol_run_advance(r, 5000);
  ok(r != NULL && near(ol_run_xavg(r), want, 4, 1e-2),
       "rmplus: on an objective over a simplex the average goes to the "
       "minimiser");
  ol_run_free(r);
  ol_problem_free(p);
}

int main (void)
{
  test_rps();
  test_saddle();
  test_objective();
  return done();
}
