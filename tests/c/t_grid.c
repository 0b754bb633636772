/*
** tests/c/t_grid.c -- the landscape grid and its default window.
**
** Grid values against the Rosenbrock closed form (1 - a)^2 + 100 (b -
** a^2)^2 at hand-computed cell centres, and against direct oracle calls on
** a 3-D slice (the fixed coordinate must stay at x0's value); argument
** errors; the window from a recorded trajectory must contain every point
** and x*, lie on multiples of a 1-2-5 step, and be padded.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "method.h"
#include "problem.h"
#include "tap.h"

static ol_problem *mk (const char *name, int n, ol_err *e)
{
  const ol_problem_type *t = ol_problem_type_find(name);
  ol_pval v[16];
  int i;
  memset(v, 0, sizeof v);
  for (i = 0; i < t->nparams; i++) v[i].num = t->params[i].def;
  i = ol_param_find(t->params, t->nparams, "n");
  if (i >= 0) v[i].num = n;
  return ol_problem_new(t, v, e);
}

static double rosen (double a, double b)
{
  return (1 - a) * (1 - a) + 100 * (b - a * a) * (b - a * a);
}

int main (void)
{
  ol_err e;
  ol_problem *p = mk("rosenbrock", 2, &e), *q;
  double out[12], work[8], x0[3] = {0, 0, 0}, win[4];
  int rc, r, c, bad;
  /* (1) 4 x 3 grid over [-2, 2] x [-1, 2]: centres a = -1.5, -0.5, 0.5,
  ** 1.5 and b = -0.5, 0.5, 1.5 */
  rc = ol_problem_grid(p, x0, 0, 1, -2, 2, -1, 2, 4, 3, out, work, &e);
  is_int(rc, OL_OK, "grid: rosenbrock grid evaluates");
  bad = 0;
  for (r = 0; r < 3; r++)
    for (c = 0; c < 4; c++)
      if (fabs(out[r * 4 + c] - rosen(-1.5 + c, -0.5 + r))
          > 1e-12 * (1 + rosen(-1.5 + c, -0.5 + r)))
        bad++;
  is_int(bad, 0, "grid: cell (r, c) holds f at the cell centre, row 0 at "
         "ylo");
  is_near(out[0], 2.5 * 2.5 + 100 * 2.75 * 2.75, 1e-9,
          "grid: corner cell by hand (f(-1.5, -0.5) = 762.5)");
  /* (2) swapped axes: out[r][c] = f(b, a) */
  rc = ol_problem_grid(p, x0, 1, 0, -2, 2, -1, 2, 4, 3, out, work, &e);
  is_near(out[1 * 4 + 2], rosen(0.5, 0.5), 1e-12,
          "grid: i = 1, j = 0 puts x_2 along the columns");
  /* (3) a 3-D slice through coordinates 0 and 2 keeps x_1 at x0's value */
  q = mk("rosenbrock", 3, &e);
  x0[1] = 0.7;
  rc = ol_problem_grid(q, x0, 0, 2, -1, 1, -1, 1, 2, 2, out, work, &e);
  is_int(rc, OL_OK, "grid: 3-D slice evaluates");
  bad = 0;
  for (r = 0; r < 2; r++)
    for (c = 0; c < 2; c++) {
      double x[3] = {-0.5 + c, 0.7, -0.5 + r}, f;
      q->fdf(q->ud, x, &f, NULL, &e);
      if (fabs(out[r * 2 + c] - f) > 1e-12 * (1 + fabs(f))) bad++;
    }
  is_int(bad, 0, "grid: 3-D slice values match direct oracle calls");
  /* (4) errors */
  is_int(ol_problem_grid(p, x0, 0, 0, -1, 1, -1, 1, 2, 2, out, work, &e),
         OL_EINVAL, "grid: i == j is rejected");
  is_int(ol_problem_grid(p, x0, 0, 2, -1, 1, -1, 1, 2, 2, out, work, &e),
         OL_EINVAL, "grid: a coordinate >= n is rejected");
  is_int(ol_problem_grid(p, x0, 0, 1, 1, 1, -1, 1, 2, 2, out, work, &e),
         OL_EINVAL, "grid: an empty window is rejected");
  /* (5) window of a recorded gd run from (-1.2, 1) */
  {
    const ol_method_type *m = ol_method_find("gd");
    ol_run_opts o;
    ol_run *run;
    double par[8];
    int i, dim, len, in = 1;
    const double *tr;
    const ol_run *const *rr;
    double step;
    for (i = 0; i < m->nparams; i++) par[i] = m->params[i].def;
    ol_run_opts_default(&o);
    o.iters = 200;
    i = ol_param_find(m->params, m->nparams, "lr");
    if (i >= 0) par[i] = 1e-3;
    is_int(ol_grid_window(NULL, 0, 0, 1, 0, win), -1,
           "grid: no runs, no window");
    run = ol_run_new(p, m, par, &o, &e);
    ok(run != NULL, "grid: a run without record_x");
    rr = (const ol_run *const *)&run;
    is_int(ol_grid_window(rr, 1, 0, 1, 0, win), -1,
           "grid: no window without a recorded trajectory");
    ol_run_free(run);
    o.record_x = 1;
    run = ol_run_new(p, m, par, &o, &e);
    ol_run_advance(run, 200);
    rr = (const ol_run *const *)&run;
    is_int(ol_grid_window(rr, 1, 0, 1, 0, win), 0, "grid: window found");
    diag("window [%g, %g] x [%g, %g]", win[0], win[1], win[2], win[3]);
    tr = ol_run_traj(run, &dim);
    len = ol_run_len(run);
    for (i = 0; i < len; i++)
      if (tr[i * dim] <= win[0] || tr[i * dim] >= win[1]
          || tr[i * dim + 1] <= win[2] || tr[i * dim + 1] >= win[3])
        in = 0;
    ok(in, "grid: window strictly contains every recorded point (padded)");
    ok(win[0] < 1 && win[1] > 1 && win[2] < 1 && win[3] > 1,
       "grid: window contains x* = (1, 1)");
    ok(win[0] <= -1.2 - 0.22 && win[1] >= 1 + 0.22,
       "grid: x padded by 10%% of the extent 2.2 on each side");
    /* extents 2.2 (x) and under 2.2 (y): padded 2.64, step 0.5 */
    step = 0.5;
    ok(fabs(win[0] / step - floor(win[0] / step + 0.5)) < 1e-9
       && fabs(win[3] / step - floor(win[3] / step + 0.5)) < 1e-9,
       "grid: bounds are multiples of the 1-2-5 step 0.5");
    is_near(win[0], -1.5, 1e-12, "grid: x from -1.42 snaps out to -1.5");
    is_near(win[1], 1.5, 1e-12, "grid: x to 1.22 snaps out to 1.5");
    ol_run_free(run);
  }
  ol_problem_free(p);
  ol_problem_free(q);
  return done();
}
