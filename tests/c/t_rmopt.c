/*
** tests/c/t_rmopt.c -- optim.rmplus, regret matching+ as an optimizer over
** products of simplices and boxes (core/optim/rmplus.c).
**
** Truth, independent of the method: minimisers of separable quadratics
** f(x) = 1/2 sum_i h_i (x_i - c_i)^2 by their KKT conditions, solved by
** bisection on the multiplier mu of each simplex block (x_i = max(c_i -
** mu / h_i, 0), sum x_i = 1), one interior and one on a face; the box
** clamp; for a coupled quadratic over {3, 3} Frank-Wolfe with away steps
** run to a gap of 1e-13 (linear convergence, Lacoste-Julien & Jaggi
** 2015).  The update and the regret metric against a second, plain
** implementation of the formulas in the file header; the average against
** the convexity bound f(xbar_T) - f* <= regret (one block, so the sum of
** the blocks' regrets is the max the metric reports).  No randomness.
*/
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "olt.h"
#include "tap.h"

#define NMAX 8

typedef struct quad {
  int n;
  double h[NMAX], c[NMAX];
  double H[NMAX][NMAX];   /* coupled: f = 1/2 x'Hx - c'x when coupled */
  int coupled;
} quad;

static int quad_fdf (void *ud, const double *x, double *f, double *g,
                     ol_err *e)
{
  const quad *q = ud;
  double acc = 0;
  int i, j;
  (void)e;
  for (i = 0; i < q->n; i++) {
    if (q->coupled) {
      double hx = 0;
      for (j = 0; j < q->n; j++) hx += q->H[i][j] * x[j];
      acc += x[i] * (0.5 * hx - q->c[i]);
      if (g != NULL) g[i] = hx - q->c[i];
    }
    else {
      double d = x[i] - q->c[i];
      acc += 0.5 * q->h[i] * d * d;
      if (g != NULL) g[i] = q->h[i] * d;
    }
  }
  if (f != NULL) *f = acc;
  return OL_OK;
}

static double fval (const quad *q, const double *x)
{
  double f;
  quad_fdf((void *)q, x, &f, NULL, NULL);
  return f;
}

static ol_problem *mkprob (quad *q, const ol_set *s, const double *x0)
{
  return olt_setproblem(q->n, quad_fdf, q, s, x0);
}

static ol_set simplex (int nb, int k)
{
  ol_set s;
  int b;
  memset(&s, 0, sizeof s);
  s.kind = OL_SET_SIMPLEX;
  s.nblocks = nb;
  for (b = 0; b < nb; b++) s.blocks[b] = k;
  return s;
}

/* Minimiser of the separable q over the simplex block [off, off + k). */
static void kkt_block (const quad *q, int off, int k, double *x)
{
  double lo = -1e6, hi = 1e6, mu;
  int i, it;
  for (it = 0; it < 300; it++) {
    double s = 0;
    mu = 0.5 * (lo + hi);
    for (i = off; i < off + k; i++) s += fmax(q->c[i] - mu / q->h[i], 0);
    if (s > 1) lo = mu;
    else hi = mu;
  }
  mu = 0.5 * (lo + hi);
  for (i = off; i < off + k; i++) x[i] = fmax(q->c[i] - mu / q->h[i], 0);
}

static double dist (const double *a, const double *b, int n)
{
  double d = 0;
  int i;
  for (i = 0; i < n; i++) d += (a[i] - b[i]) * (a[i] - b[i]);
  return sqrt(d);
}

/* A run of method name ("optim.rmplus" unless given) with "key", value
** overrides, advanced iters steps with the metrics in ms. */
static ol_run *go (const ol_problem *p, const char *name, long iters,
                   ol_mset ms, ...)
{
  const ol_method_type *m = ol_method_find(name);
  double par[16];
  ol_run_opts o = olt_opts(iters, 0, ms);
  ol_err e;
  ol_run *r;
  va_list ap;
  int i;
  if (m == NULL) {
    diag("no method %s", name);
    return NULL;
  }
  olt_params(m, par, (char *)NULL);
  va_start(ap, ms);
  for (;;) {
    const char *k = va_arg(ap, const char *);
    if (k == NULL) break;
    i = ol_param_find(m->params, m->nparams, k);
    if (i < 0) diag("go: %s has no parameter %s", name, k);
    else par[i] = va_arg(ap, double);
  }
  va_end(ap);
  r = ol_run_new(p, m, par, &o, &e);
  if (r == NULL) {
    diag("%s: %s", name, e.msg);
    return NULL;
  }
  ol_run_advance(r, iters);
  return r;
}

#define KR OL_MSET_OF(OL_MET_KKT, OL_MET_LOSS, OL_MET_REGRET)

/* The interior and the face solution on one simplex: the last iterate. */
static void test_simplex (void)
{
  quad qi = {4, {1, 2, 3, 4}, {0.5, 0.3, 0.2, 0.1}, {{0}}, 0};
  quad qf = {6, {1, 2, 3, 1, 2, 3}, {0.8, 0.5, 0.3, -0.2, 0.1, -0.5},
             {{0}}, 0};
  double xi[NMAX], xf[NMAX], x0[6] = {0, 0, 0, 0, 0, 1};
  ol_set s4 = simplex(1, 4), s6 = simplex(1, 6);
  ol_problem *p;
  ol_run *r;
  int i, inside = 1, zeros = 1;
  kkt_block(&qi, 0, 4, xi);
  kkt_block(&qf, 0, 6, xf);
  for (i = 0; i < 4; i++) inside = inside && xi[i] > 0.05;
  ok(inside, "rmplus: the first test solution is interior (%.4f %.4f %.4f "
     "%.4f)", xi[0], xi[1], xi[2], xi[3]);
  p = mkprob(&qi, &s4, (double[]){1, 0, 0, 0});
  r = go(p, "optim.rmplus", 2000, KR, (char *)NULL);
  ok(r != NULL && dist(ol_run_x(r), xi, 4) <= 1e-12
     && ol_run_last(r, OL_MET_KKT) <= 1e-14,
     "rmplus: interior solution: ||x - x*|| = %.3g <= 1e-12, kkt %.3g <= "
     "1e-14 (%s at step %ld of 2000)", r ? dist(ol_run_x(r), xi, 4) : NAN,
     r ? ol_run_last(r, OL_MET_KKT) : NAN, r ? ol_stop_name(ol_run_reason(r))
     : "-", r ? ol_run_iter(r) : 0L);
  ol_run_free(r);
  ol_problem_free(p);
  /* on a face: the entries off the support are exactly 0 (Q clipped) */
  p = mkprob(&qf, &s6, x0);
  r = go(p, "optim.rmplus", 2000, KR, (char *)NULL);
  for (i = 0; r != NULL && i < 6; i++)
    if (xf[i] == 0 && ol_run_x(r)[i] != 0) zeros = 0;
  ok(r != NULL && dist(ol_run_x(r), xf, 6) <= 1e-12
     && ol_run_last(r, OL_MET_KKT) <= 1e-14 && zeros,
     "rmplus: solution on a face (support 3 of 6): ||x - x*|| = %.3g <= "
     "1e-12, kkt %.3g <= 1e-14, off-support entries exactly 0 (%s at step "
     "%ld)", r ? dist(ol_run_x(r), xf, 6) : NAN,
     r ? ol_run_last(r, OL_MET_KKT) : NAN, r ? ol_stop_name(ol_run_reason(r))
     : "-", r ? ol_run_iter(r) : 0L);
  ol_run_free(r);
  /* predictive RM+ converges too */
  r = go(p, "optim.rmplus", 2000, KR, "predictive", 1.0, (char *)NULL);
  ok(r != NULL && dist(ol_run_x(r), xf, 6) <= 1e-12,
     "rmplus predictive: ||x - x*|| = %.3g <= 1e-12 on the face QP",
     r ? dist(ol_run_x(r), xf, 6) : NAN);
  ol_run_free(r);
  ol_problem_free(p);
}

/* The average: f(xbar_T) - f* <= regret (the convexity bound, one block),
** and the linear average converges. */
static void test_average (void)
{
  quad q = {6, {1, 2, 3, 1, 2, 3}, {0.8, 0.5, 0.3, -0.2, 0.1, -0.5},
            {{0}}, 0};
  double xs[NMAX], fs, x0[6] = {0, 0, 0, 0, 0, 1};
  ol_set s = simplex(1, 6);
  ol_problem *p;
  ol_run *r;
  long Ts[3] = {10, 100, 1000};
  int k, good = 1;
  kkt_block(&q, 0, 6, xs);
  fs = fval(&q, xs);
  p = mkprob(&q, &s, x0);
  for (k = 0; k < 3; k++) {
    double gap, reg;
    r = go(p, "optim.rmplus", Ts[k], KR, "avg", 1.0, (char *)NULL);
    if (r == NULL) {
      good = 0;
      continue;
    }
    gap = fval(&q, ol_run_x(r)) - fs;
    reg = ol_run_last(r, OL_MET_REGRET);
    diag("avg = uniform, T = %ld: f(xbar) - f* = %.4g, regret %.4g", Ts[k],
         gap, reg);
    if (!(gap >= -1e-15 && gap <= reg + 1e-15)) good = 0;
    ol_run_free(r);
  }
  ok(good, "rmplus avg = uniform: 0 <= f(xbar_T) - f* <= regret_T at T = "
     "10, 100, 1000 (convexity bound)");
  /* once x_t has converged (geometrically), the average's error is the
  ** early points' weight: O(1/T) uniform, O(1/T^2) linear, so doubling T
  ** halves it or divides it by 4 */
  for (k = 1; k <= 2; k++) {
    double d1, d2;
    r = go(p, "optim.rmplus", 1000, KR, "avg", (double)k, (char *)NULL);
    d1 = r ? dist(ol_run_x(r), xs, 6) : NAN;
    ol_run_free(r);
    r = go(p, "optim.rmplus", 2000, KR, "avg", (double)k, (char *)NULL);
    d2 = r ? dist(ol_run_x(r), xs, 6) : NAN;
    ol_run_free(r);
    ok(k == 1 ? fabs(d2 / d1 - 0.5) <= 0.02 : fabs(d2 / d1 - 0.25) <= 0.02,
       "rmplus avg = %s: ||xbar - x*|| %.3g at T = 1000, %.3g at 2000 "
       "(ratio %.4f, 1/%d expected within 0.02)", k == 1 ? "uniform"
       : "linear", d1, d2, d2 / d1, k == 1 ? 2 : 4);
  }
  ol_problem_free(p);
}

/* A second implementation of the header's rule on one block, simultaneous:
** the iterates and the regret after T steps. */
static void plain_rmplus (const quad *q, const double *x0, long T, int pred,
                          double *x, double *regret)
{
  double Q[NMAX] = {0}, U[NMAX] = {0}, S = 0, g[NMAX], mx = -INFINITY;
  int n = q->n, a;
  long t;
  memcpy(x, x0, (size_t)n * sizeof *x);
  for (t = 0; t < T; t++) {
    double ux = 0, sum = 0;
    quad_fdf((void *)q, x, NULL, g, NULL);
    for (a = 0; a < n; a++) ux += -g[a] * x[a];
    for (a = 0; a < n; a++) U[a] += -g[a];
    S += ux;
    for (a = 0; a < n; a++) Q[a] = fmax(Q[a] + (-g[a] - ux), 0);
    for (a = 0; a < n; a++) {
      x[a] = pred ? fmax(Q[a] + (-g[a] - ux), 0) : Q[a];
      sum += x[a];
    }
    for (a = 0; a < n; a++) x[a] = sum > 0 ? x[a] / sum : 1.0 / n;
  }
  for (a = 0; a < n; a++) mx = fmax(mx, U[a]);
  *regret = (mx - S) / (double)T;
}

static void test_rule (void)
{
  quad q = {5, {1, 3, 2, 1, 4}, {0.9, 0.1, 0.4, -0.3, 0.2}, {{0}}, 0};
  double x0[5] = {0.1, 0.2, 0.3, 0.2, 0.2}, x[NMAX], reg;
  ol_set s = simplex(1, 5);
  ol_problem *p = mkprob(&q, &s, x0);
  int pred;
  for (pred = 0; pred <= 1; pred++) {
    ol_run *r = go(p, "optim.rmplus", 25, KR, "predictive", (double)pred,
                   (char *)NULL);
    plain_rmplus(&q, x0, 25, pred, x, &reg);
    ok(r != NULL && ol_run_iter(r) == 25 && dist(ol_run_x(r), x, 5) <= 1e-14
       && fabs(ol_run_last(r, OL_MET_REGRET) - reg) <= 1e-14,
       "rmplus%s: x_25 and the regret (%.6g) match the rule written out "
       "plainly (|dx| %.3g)", pred ? " predictive" : "", reg,
       r ? dist(ol_run_x(r), x, 5) : NAN);
    ol_run_free(r);
  }
  ol_problem_free(p);
}

/* A coupled quadratic over {3, 3}: simultaneous and alternating updates
** reach the solution; alternation costs one gradient per block. */
static void test_product (void)
{
  static const double H[6][6] = {
    {4, 1, 0, 1, 0, 0}, {1, 3, 0, 0, 1, 0}, {0, 0, 2, 0, 0, 1},
    {1, 0, 0, 3, 1, 0}, {0, 1, 0, 1, 2, 0}, {0, 0, 1, 0, 0, 2}};
  quad q = {6, {0}, {1, 0.5, -0.2, 0.3, 1.2, 0.1}, {{0}}, 1};
  double xs[6], x0[6], par[8];
  ol_set s = simplex(2, 3);
  ol_problem *p;
  ol_run *r;
  ol_run_opts o;
  ol_err e;
  int i, j, alt;
  for (i = 0; i < 6; i++)
    for (j = 0; j < 6; j++) q.H[i][j] = H[i][j];
  for (i = 0; i < 6; i++) x0[i] = 1.0 / 3;
  p = mkprob(&q, &s, x0);
  /* reference: Frank-Wolfe with away steps to a gap of 1e-13 */
  olt_params(ol_method_find("fw"), par, "away", 1.0, (char *)NULL);
  o = olt_opts(5000, 0, OL_MSET_OF(OL_MET_KKT));
  o.stop_metric = OL_MET_KKT;
  o.stop_value = 1e-13;
  r = ol_run_new(p, ol_method_find("fw"), par, &o, &e);
  if (r != NULL) ol_run_advance(r, 5000);
  ok(r != NULL && ol_run_last(r, OL_MET_KKT) <= 1e-13,
     "reference: fw away reaches a gap %.3g <= 1e-13 on the coupled QP",
     r ? ol_run_last(r, OL_MET_KKT) : NAN);
  if (r != NULL) memcpy(xs, ol_run_x(r), sizeof xs);
  diag("coupled QP over {3, 3}: x* = (%.6f %.6f %.6f | %.6f %.6f %.6f)",
       xs[0], xs[1], xs[2], xs[3], xs[4], xs[5]);
  ol_run_free(r);
  for (alt = 0; alt <= 1; alt++) {
    const long T = 3000;
    long iters;
    r = go(p, "optim.rmplus", T, KR, "alternate", (double)alt,
           (char *)NULL);
    iters = r ? ol_run_iter(r) : 0;
    ok(r != NULL && dist(ol_run_x(r), xs, 6) <= 1e-10
       && ol_run_last(r, OL_MET_KKT) <= 1e-12,
       "rmplus%s on {3, 3}: ||x - x*|| = %.3g <= 1e-10, kkt %.3g <= 1e-12 "
       "(%ld steps)", alt ? " alternate" : "", r ? dist(ol_run_x(r), xs, 6)
       : NAN, r ? ol_run_last(r, OL_MET_KKT) : NAN, iters);
    ol_run_free(r);
    /* the count while x still moves (at a fixed point the oracle's cache
    ** serves a block whose profile did not change: free, oracle.h) */
    r = go(p, "optim.rmplus", 30, KR, "alternate", (double)alt,
           (char *)NULL);
    ok(r != NULL && ol_run_iter(r) == 30 && ol_run_ngev(r) == (alt ? 60 : 30),
       "rmplus%s: %ld gradients in 30 steps (%d per step)",
       alt ? " alternate" : "", r ? ol_run_ngev(r) : -1L, alt ? 2 : 1);
    ol_run_free(r);
  }
  ol_problem_free(p);
}

/* A bounded box as two-point simplices: x* = clamp(c, lo, hi). */
static void test_box (void)
{
  quad q = {4, {1, 2, 1, 3}, {2, -1, 0.3, 0.7}, {{0}}, 0};
  double lo[4] = {0, -0.5, -1, 0}, hi[4] = {1, 0.5, 1, 2}, xs[4];
  ol_set s;
  ol_problem *p;
  ol_run *r;
  int i;
  memset(&s, 0, sizeof s);
  s.kind = OL_SET_BOX;
  s.lo = lo;
  s.hi = hi;
  for (i = 0; i < 4; i++) xs[i] = fmin(fmax(q.c[i], lo[i]), hi[i]);
  p = mkprob(&q, &s, (double[]){0.5, 0, 0, 1});
  r = go(p, "optim.rmplus", 3000, KR, (char *)NULL);
  ok(r != NULL && dist(ol_run_x(r), xs, 4) <= 1e-10
     && ol_run_last(r, OL_MET_KKT) <= 1e-10,
     "rmplus on a box: x = clamp(c) to %.3g <= 1e-10, kkt %.3g",
     r ? dist(ol_run_x(r), xs, 4) : NAN, r ? ol_run_last(r, OL_MET_KKT)
     : NAN);
  ol_run_free(r);
  ol_problem_free(p);
}

static void test_refusals (void)
{
  quad q = {2, {1, 1}, {3, 3}, {{0}}, 0};
  double par[8], lo[2] = {0, 0}, hi[2] = {1, INFINITY};
  const ol_method_type *m = ol_method_find("optim.rmplus");
  ol_set s;
  ol_problem *p;
  ol_run_opts o;
  ol_err e;
  ol_run *r;
  memset(&s, 0, sizeof s);
  s.kind = OL_SET_L2BALL;
  s.radius = 1;
  p = mkprob(&q, &s, (double[]){0, 0});
  olt_params(m, par, (char *)NULL);
  r = ol_run_new(p, m, par, NULL, &e);
  ok(r == NULL && strstr(e.msg, "rmplus needs a product of simplices") &&
     strstr(e.msg, "l2ball"), "rmplus: the l2 ball is refused (%s)",
     r ? "" : e.msg);
  ol_run_free(r);
  ol_problem_free(p);
  memset(&s, 0, sizeof s);
  s.kind = OL_SET_BOX;
  s.lo = lo;
  s.hi = hi;
  p = mkprob(&q, &s, (double[]){0, 0});
  r = ol_run_new(p, m, par, NULL, &e);
  ok(r == NULL && strstr(e.msg, "unbounded at x[2]") != NULL,
     "rmplus: an unbounded box is refused (%s)", r ? "" : e.msg);
  ol_run_free(r);
  ol_problem_free(p);
  /* regret: rmplus's probe; pgd keeps no account; ccegap is for play */
  s = simplex(1, 2);
  p = mkprob(&q, &s, (double[]){0.5, 0.5});
  o = olt_opts(10, 0, OL_MSET_OF(OL_MET_REGRET));
  olt_params(ol_method_find("pgd"), par, (char *)NULL);
  r = ol_run_new(p, ol_method_find("pgd"), par, &o, &e);
  ok(r == NULL && strstr(e.msg, "regret needs a game dynamic on simplices "
     "or optim.rmplus (pgd on") != NULL,
     "regret: refused for pgd, which keeps no regrets (%s)", r ? "" : e.msg);
  ol_run_free(r);
  o = olt_opts(10, 0, OL_MSET_OF(OL_MET_CCEGAP));
  olt_params(m, par, (char *)NULL);
  r = ol_run_new(p, m, par, &o, &e);
  ok(r == NULL && strstr(e.msg, "ccegap needs a game dynamic") != NULL,
     "ccegap: refused for optim.rmplus (no joint play) (%s)",
     r ? "" : e.msg);
  ol_run_free(r);
  ol_problem_free(p);
}

static void test_table (void)
{
  const ol_method_type *m = ol_method_find("optim.rmplus");
  const ol_method_type *g = ol_method_find("game.rmplus");
  ok(m != NULL && m->family == OL_OPTIM && g != NULL
     && g->family == OL_DYNAMIC && m != g
     && ol_method_find("rmplus") == m
     && ol_method_find("sample.rmplus") == NULL
     && ol_method_find("optim.nuts") == NULL,
     "registry: optim.rmplus and game.rmplus are two methods; a bare name "
     "finds the optimizer (first in order), a family prefix selects");
  if (m == NULL) return;
  ok(m->nparams == 3 && strcmp(m->params[0].name, "alternate") == 0
     && m->params[0].kind == OL_P_BOOL && m->params[0].def == 0
     && strcmp(m->params[1].name, "avg") == 0
     && m->params[1].kind == OL_P_ENUM && m->params[1].def == 0
     && strcmp(m->params[1].choices, "none|uniform|linear") == 0
     && strcmp(m->params[2].name, "predictive") == 0
     && m->params[2].kind == OL_P_BOOL && m->params[2].def == 0,
     "rmplus: parameters alternate = false, avg = none (none|uniform|"
     "linear), predictive = false");
  ok((m->flags & OL_M_NEEDSET) && m->probe != NULL
     && ol_mset_eq(m->probes, OL_MSET_OF(OL_MET_REGRET))
     && (m->kinds & OL_KIND(OL_OBJECTIVE)) && !(m->kinds & OL_KIND(OL_GAME)),
     "rmplus: needs a set, probes regret, takes objectives, not games");
}

int main (void)
{
  test_table();
  test_simplex();
  test_average();
  test_rule();
  test_product();
  test_box();
  test_refusals();
  return done();
}
