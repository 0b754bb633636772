/*
** tests/c/t_fw.c -- Frank-Wolfe (optim.fw: standard, away, pairwise) on
** separable quadratics f(x) = 1/2 sum_i h_i (x_i - c_i)^2 over the sets
** of core/sets.c, and entropic mirror descent (optim.md) on simplices.
**
** Truth, independent of the methods: the minimiser by its KKT conditions
** solved by bisection on the multiplier mu (simplex block: x_i = max(c_i -
** mu / h_i, 0) with sum x_i = 1; l1 ball: x_i = sign(c_i) max(|c_i| - mu /
** h_i, 0) with ||x||_1 = r), the box clamp x_i = min(max(c_i, lo_i),
** hi_i), and the l2-ball closed form r c / ||c|| (h = 1).  Rates from the
** theorems: standard FW with gamma_t = 2/(t+2) has f(x_t) - f* <= 2 C_f /
** (t + 2) (Jaggi 2013, Theorem 1) and min_{s<=t} gap_s <= 27/2 C_f /
** (t + 2) (Theorem 2), C_f <= max h diam(C)^2; away and pairwise FW
** converge linearly on a strongly convex f over a polytope (Lacoste-
** Julien & Jaggi 2015, Theorem 1): the gap falls below 1e-10 within the
** stated number of steps.
*/
#include <math.h>
#include <string.h>

#include "olt.h"
#include "tap.h"

#define NMAX 8

typedef struct quad {
  int n;
  double h[NMAX], c[NMAX];
} quad;

static int quad_fdf (void *ud, const double *x, double *f, double *g,
                     ol_err *e)
{
  const quad *q = ud;
  double acc = 0;
  int i;
  (void)e;
  for (i = 0; i < q->n; i++) {
    double d = x[i] - q->c[i];
    acc += 0.5 * q->h[i] * d * d;
    if (g != NULL) g[i] = q->h[i] * d;
  }
  if (f != NULL) *f = acc;
  return OL_OK;
}

/* A problem for q over s with start x0 (NULL: keep the default). */
static ol_problem *mkprob (quad *q, const ol_set *s, const double *x0)
{
  return olt_setproblem(q->n, quad_fdf, q, s, x0);
}

/* Minimiser over the simplex block [off, off + k) (sum 1) or the l1 ball
** (signed, radius r: l1 = 1), by bisection on mu. */
static void kkt_block (const quad *q, int off, int k, int l1, double r,
                       double *x)
{
  double lo = 0, hi = 1e6, nrm = 0;
  int i, it;
  if (!l1) lo = -1e6;
  if (l1) {
    for (i = off; i < off + k; i++) nrm += fabs(q->c[i]);
    if (nrm <= r) {
      for (i = off; i < off + k; i++) x[i] = q->c[i];
      return;
    }
  }
  for (it = 0; it < 300; it++) {
    double mu = 0.5 * (lo + hi), s = 0;
    for (i = off; i < off + k; i++)
      s += fmax((l1 ? fabs(q->c[i]) : q->c[i]) - mu / q->h[i], 0);
    if (s > (l1 ? r : 1)) lo = mu;
    else hi = mu;
  }
  for (i = off; i < off + k; i++) {
    double mu = 0.5 * (lo + hi);
    double m = fmax((l1 ? fabs(q->c[i]) : q->c[i]) - mu / q->h[i], 0);
    x[i] = l1 && q->c[i] < 0 ? -m : m;
  }
}

static double fval (const quad *q, const double *x)
{
  double f;
  quad_fdf((void *)q, x, &f, NULL, NULL);
  return f;
}

static double gap_at (const quad *q, const ol_set *s, const double *x)
{
  double g[NMAX];
  quad_fdf((void *)q, x, NULL, g, NULL);
  return ol_set_fwgap(s, x, g, q->n);
}

static double dist (const double *a, const double *b, int n)
{
  double d = 0;
  int i;
  for (i = 0; i < n; i++) d += (a[i] - b[i]) * (a[i] - b[i]);
  return sqrt(d);
}

/* Run method name with par on p step by step for at most iters steps:
** the first step at which the gap falls to <= stopgap (or iters + 1),
** the distance to xs at the end, and whether every iterate stayed in s
** (to 1e-12).  *minrate: max over t of (t + 2) min_{s<=t} gap_s, and
** *frate: max over t of (t + 2) (f(x_t) - fs). */
static long drive (const quad *q, const ol_problem *p, const char *name,
                   const double *par, long iters, double stopgap,
                   const double *xs, double fs, double *dx, int *inset,
                   double *minrate, double *frate, double *lastgap)
{
  ol_run_opts o = olt_opts(iters, 0, OL_MSET_OF(OL_MET_LOSS));
  ol_err e;
  ol_run *r = ol_run_new(p, ol_method_find(name), par, &o, &e);
  double mingap = INFINITY, g = NAN;
  long t, hit = iters + 1;
  *inset = 1;
  *minrate = *frate = 0;
  if (r == NULL) {
    diag("%s: %s", name, e.msg);
    *dx = NAN;
    return -1;
  }
  for (t = 1; t <= iters; t++) {
    const double *x;
    if (ol_run_advance(r, 1) != 1) break;
    x = ol_run_x(r);
    if (!ol_set_contains(&p->set, x, q->n, 1e-12)) *inset = 0;
    g = gap_at(q, &p->set, x);
    if (g < mingap) mingap = g;
    if ((t + 2) * mingap > *minrate) *minrate = (t + 2) * mingap;
    if ((t + 2) * (fval(q, x) - fs) > *frate)
      *frate = (t + 2) * (fval(q, x) - fs);
    if (g <= stopgap && hit > iters) {
      hit = t;
      break;
    }
  }
  *dx = dist(ol_run_x(r), xs, q->n);
  *lastgap = g;
  ol_run_free(r);
  return hit;
}

static void test_simplex (void)
{
  /* solution on a face: support {1, 2, 3} of 6 */
  quad q = {6, {1, 2, 3, 1, 2, 3}, {0.8, 0.5, 0.3, -0.2, 0.1, -0.5}};
  double xs[NMAX], x0[6] = {0, 0, 0, 0, 0, 1}, par[8], dx, mr, fr, lg, fs;
  double cf = 3 * 2;   /* C_f <= max h * diam^2 (diam^2 = 2) */
  ol_set s = {0};
  ol_problem *p;
  int inset, i, support = 0;
  long hit;
  s.kind = OL_SET_SIMPLEX;
  s.nblocks = 1;
  s.blocks[0] = 6;
  kkt_block(&q, 0, 6, 0, 1, xs);
  fs = fval(&q, xs);
  for (i = 0; i < 6; i++) support += xs[i] > 0;
  diag("simplex: x* = (%.6f %.6f %.6f %.6f %.6f %.6f), f* = %.12g, support "
       "%d", xs[0], xs[1], xs[2], xs[3], xs[4], xs[5], fs, support);
  ok(support > 1 && support < 6, "fw: the test solution lies on a face "
     "(support %d of 6)", support);
  p = mkprob(&q, &s, x0);

  /* (1) standard step: the O(1/t) bounds, sublinear in fact */
  olt_params(ol_method_find("fw"), par, (char *)NULL);
  hit = drive(&q, p, "fw", par, 10000, 0, xs, fs, &dx, &inset, &mr, &fr,
              &lg);
  ok(inset, "fw: standard iterates stay in the simplex");
  ok(fr <= 2 * cf, "fw: f(x_t) - f* <= 2 C_f / (t + 2) for t <= 10^4 "
     "(max (t + 2)(f - f*) = %.4g, bound %.4g)", fr, 2 * cf);
  ok(mr <= 13.5 * cf, "fw: min_{s<=t} gap_s <= 27/2 C_f / (t + 2) for t <= "
     "10^4 (max (t + 2) min gap = %.4g, bound %.4g)", mr, 13.5 * cf);
  ok(lg > 1e-8 && hit > 10000, "fw: the standard step is sublinear: gap "
     "%.3g > 1e-8 after 10^4 steps", lg);

  /* (2) away and pairwise: gap < 1e-10, linearly */
  olt_params(ol_method_find("fw"), par, "away", 1.0, (char *)NULL);
  hit = drive(&q, p, "fw", par, 200, 1e-10, xs, fs, &dx, &inset, &mr, &fr,
              &lg);
  ok(hit <= 60 && inset, "fw away: gap <= 1e-10 within 60 steps on the "
     "simplex (at step %ld), iterates in the simplex", hit);
  ok(dx <= 1e-5, "fw away: ||x - x*|| = %.3g <= 1e-5 (gap 1e-10, mu >= 1: "
     "||x - x*||^2 <= 2 gap / mu)", dx);
  olt_params(ol_method_find("fw"), par, "pairwise", 1.0, (char *)NULL);
  hit = drive(&q, p, "fw", par, 200, 1e-10, xs, fs, &dx, &inset, &mr, &fr,
              &lg);
  ok(hit <= 60 && inset, "fw pairwise: gap <= 1e-10 within 60 steps on the "
     "simplex (at step %ld), iterates in the simplex", hit);
  ok(dx <= 1e-5, "fw pairwise: ||x - x*|| = %.3g <= 1e-5", dx);

  /* (3) the exact line search of the first step: gamma = gap / d'Hd */
  {
    double g[6], sv[6], d[6], gap, dhd = 0, want[6], x1[6], x2[6];
    double y0[6] = {0.1, 0.1, 0.1, 0.1, 0.1, 0.5}, gam;
    ol_run_opts o = olt_opts(2, 0, OL_MSET_EMPTY);
    o.x0 = y0;
    quad_fdf(&q, y0, NULL, g, NULL);
    ol_set_lmo(&s, g, sv, 6, NULL);
    gap = ol_set_fwgap(&s, y0, g, 6);
    for (i = 0; i < 6; i++) {
      d[i] = sv[i] - y0[i];
      dhd += q.h[i] * d[i] * d[i];
    }
    gam = fmin(1, gap / dhd);
    for (i = 0; i < 6; i++) want[i] = y0[i] + gam * d[i];
    olt_params(ol_method_find("fw"), par, "linesearch", 1.0, (char *)NULL);
    ok(gam > 0 && gam < 1 && olt_two_steps(p, ol_method_find("fw"), par, &o,
                                           x1, x2)
       && olt_agree(x1, want, 6, 1e-14),
       "fw linesearch: the first step is the exact minimiser along s - x0 "
       "(gamma = gap / d'Hd = %.6f)", gam);
  }
  ol_problem_free(p);
}

static void test_other_sets (void)
{
  quad q = {6, {1, 2, 3, 1, 2, 3}, {0.8, 0.5, 0.3, -0.2, 0.9, -0.5}};
  double lo[6] = {0, 0, 0, 0, 0, 0}, hi[6] = {0.5, 1, 1, 1, 0.5, 1};
  double xs[NMAX], par[8], dx, mr, fr, lg, x0[6] = {0};
  const char *var[2] = {"away", "pairwise"};
  ol_set s = {0};
  ol_problem *p;
  int inset, i, v;
  long hit;
  /* product of simplices {3, 3}: the blocks separate */
  s.kind = OL_SET_SIMPLEX;
  s.nblocks = 2;
  s.blocks[0] = 3;
  s.blocks[1] = 3;
  kkt_block(&q, 0, 3, 0, 1, xs);
  kkt_block(&q, 3, 3, 0, 1, xs);
  x0[0] = x0[3] = 1;
  p = mkprob(&q, &s, x0);
  for (v = 0; v < 2; v++) {
    olt_params(ol_method_find("fw"), par, var[v], 1.0, (char *)NULL);
    hit = drive(&q, p, "fw", par, 300, 1e-10, xs, fval(&q, xs), &dx, &inset,
                &mr, &fr, &lg);
    ok(hit <= 100 && inset && dx <= 1e-5, "fw %s: simplex {3, 3}: gap <= "
       "1e-10 at step %ld <= 100, ||x - x*|| = %.3g", var[v], hit, dx);
  }
  ol_problem_free(p);
  /* box: x* = clamp(c) */
  memset(&s, 0, sizeof s);
  s.kind = OL_SET_BOX;
  s.lo = lo;
  s.hi = hi;
  for (i = 0; i < 6; i++) {
    xs[i] = fmin(fmax(q.c[i], lo[i]), hi[i]);
    x0[i] = hi[i];
  }
  p = mkprob(&q, &s, x0);
  for (v = 0; v < 2; v++) {
    olt_params(ol_method_find("fw"), par, var[v], 1.0, (char *)NULL);
    hit = drive(&q, p, "fw", par, 300, 1e-10, xs, fval(&q, xs), &dx, &inset,
                &mr, &fr, &lg);
    ok(hit <= 100 && inset && dx <= 1e-5, "fw %s: box: gap <= 1e-10 at step "
       "%ld <= 100, ||x - clamp(c)|| = %.3g", var[v], hit, dx);
  }
  olt_params(ol_method_find("fw"), par, (char *)NULL);
  hit = drive(&q, p, "fw", par, 2000, 0, xs, fval(&q, xs), &dx, &inset, &mr,
              &fr, &lg);
  ok(inset && fr <= 2 * 3 * 4.5, "fw: box: f - f* <= 2 C_f / (t + 2), C_f "
     "<= 3 * 4.5 (max (t + 2)(f - f*) = %.4g)", fr);
  ol_problem_free(p);
  /* l1 ball r = 1.2: soft threshold by the multiplier */
  memset(&s, 0, sizeof s);
  s.kind = OL_SET_L1BALL;
  s.radius = 1.2;
  kkt_block(&q, 0, 6, 1, 1.2, xs);
  memset(x0, 0, sizeof x0);
  p = mkprob(&q, &s, x0);
  for (v = 0; v < 2; v++) {
    olt_params(ol_method_find("fw"), par, var[v], 1.0, (char *)NULL);
    hit = drive(&q, p, "fw", par, 300, 1e-10, xs, fval(&q, xs), &dx, &inset,
                &mr, &fr, &lg);
    ok(hit <= 150 && inset && dx <= 1e-5, "fw %s: l1 ball: gap <= 1e-10 at "
       "step %ld <= 150, ||x - x*|| = %.3g", var[v], hit, dx);
  }
  ol_problem_free(p);
  /* l2 ball r = 0.5: x_i = h_i c_i / (h_i + lambda), ||x|| = r, lambda by
  ** bisection; FW with line search (linear on a strongly convex set while
  ** grad f stays away from 0: Levitin & Polyak 1966, Garber & Hazan 2015) */
  {
    quad u = {4, {1, 2, 3, 4}, {0.8, -0.5, 0.3, 0.1}};
    double llo = 0, lhi = 1e6;
    int it;
    memset(&s, 0, sizeof s);
    s.kind = OL_SET_L2BALL;
    s.radius = 0.5;
    for (it = 0; it < 300; it++) {
      double lam = 0.5 * (llo + lhi), nn = 0;
      for (i = 0; i < 4; i++)
        nn += pow(u.h[i] * u.c[i] / (u.h[i] + lam), 2);
      if (sqrt(nn) > 0.5) llo = lam;
      else lhi = lam;
    }
    for (i = 0; i < 4; i++)
      xs[i] = u.h[i] * u.c[i] / (u.h[i] + 0.5 * (llo + lhi));
    memset(x0, 0, sizeof x0);
    p = mkprob(&u, &s, x0);
    olt_params(ol_method_find("fw"), par, "linesearch", 1.0, (char *)NULL);
    hit = drive(&u, p, "fw", par, 500, 1e-12, xs, fval(&u, xs), &dx, &inset,
                &mr, &fr, &lg);
    ok(hit <= 500 && inset && dx <= 1e-5, "fw linesearch: l2 ball: gap <= "
       "1e-12 at step %ld <= 500, ||x - x*|| = %.3g", hit, dx);
    ol_problem_free(p);
  }
}

static void test_refusals (void)
{
  quad q = {2, {1, 1}, {3, 3}};
  double par[8], lo[2] = {0, 0}, hi[2] = {1, INFINITY};
  ol_set s = {0};
  ol_problem *p;
  ol_err e;
  ol_run *r;
  s.kind = OL_SET_L2BALL;
  s.radius = 1;
  p = mkprob(&q, &s, (double[]){0, 0});
  olt_params(ol_method_find("fw"), par, "away", 1.0, (char *)NULL);
  r = ol_run_new(p, ol_method_find("fw"), par, NULL, &e);
  ok(r == NULL && strstr(e.msg, "need a polytope") != NULL,
     "fw: away steps on the l2 ball are refused (%s)", r ? "" : e.msg);
  ol_run_free(r);
  olt_params(ol_method_find("fw"), par, "away", 1.0, "pairwise", 1.0,
             (char *)NULL);
  r = ol_run_new(p, ol_method_find("fw"), par, NULL, &e);
  ok(r == NULL && strstr(e.msg, "choose one") != NULL,
     "fw: away and pairwise together are refused (%s)", r ? "" : e.msg);
  ol_run_free(r);
  ol_problem_free(p);
  memset(&s, 0, sizeof s);
  s.kind = OL_SET_BOX;
  s.lo = lo;
  s.hi = hi;
  p = mkprob(&q, &s, (double[]){0, 0});
  olt_params(ol_method_find("fw"), par, (char *)NULL);
  r = ol_run_new(p, ol_method_find("fw"), par, NULL, &e);
  ok(r == NULL && strstr(e.msg, "unbounded at x[2]") != NULL,
     "fw: an unbounded box is refused (%s)", r ? "" : e.msg);
  ol_run_free(r);
  ol_problem_free(p);
}


/* Entropic mirror descent: converges on the simplex QP, iterates strictly
** inside; products of simplices and boxes; other sets refused. */
static void test_md (void)
{
  quad q = {6, {1, 2, 3, 1, 2, 3}, {0.8, 0.5, 0.3, -0.2, 0.1, -0.5}};
  double xs[NMAX], x0[6], par[8], minx = INFINITY, d = NAN, f0, f1;
  double lo[6] = {0, 0, 0, 0, 0, 0}, hi[6] = {0.5, 1, 1, 1, 0.5, 1};
  ol_set s = {0};
  ol_problem *p;
  ol_run_opts o = olt_opts(3000, 0, OL_MSET_OF(OL_MET_LOSS));
  ol_run *r;
  ol_err e;
  int i, inside = 1;
  long t, hit = -1;
  s.kind = OL_SET_SIMPLEX;
  s.nblocks = 1;
  s.blocks[0] = 6;
  kkt_block(&q, 0, 6, 0, 1, xs);
  for (i = 0; i < 6; i++) x0[i] = 1.0 / 6;
  p = mkprob(&q, &s, x0);
  olt_params(ol_method_find("md"), par, (char *)NULL);
  r = ol_run_new(p, ol_method_find("md"), par, &o, &e);
  for (t = 1; r != NULL && t <= 3000; t++) {
    const double *x;
    if (ol_run_advance(r, 1) != 1) break;
    x = ol_run_x(r);
    /* entries off the support decay like exp(-eta c t) and underflow to 0
    ** in double precision after ~700 / (eta c) steps (theta keeps them):
    ** strict interiority is checked while they are representable */
    if (t <= 500) {
      for (i = 0; i < 6; i++) minx = fmin(minx, x[i]);
      if (!ol_set_contains(&s, x, 6, 1e-12) || !(minx > 0)) inside = 0;
    }
    d = dist(x, xs, 6);
    if (d <= 1e-8 && hit < 0) hit = t;
  }
  ok(inside, "md: iterates stay strictly inside the simplex for t <= 500 "
     "(min entry %.3g > 0, sums 1 to 1e-12)", minx);
  ok(hit > 0 && hit <= 1500, "md: lr = 0.5 reaches ||x - x*|| <= 1e-8 at step "
     "%ld <= 1500 (x* of the KKT conditions, on a face)", hit);
  ol_run_free(r);
  /* a start on the boundary is mixed with the uniform point */
  x0[0] = 1;
  for (i = 1; i < 6; i++) x0[i] = 0;
  o = olt_opts(1, 0, OL_MSET_EMPTY);
  o.x0 = x0;
  r = ol_run_new(p, ol_method_find("md"), par, &o, &e);
  ol_run_advance(r, 1);
  for (i = 0, minx = INFINITY; i < 6; i++) minx = fmin(minx, ol_run_x(r)[i]);
  ok(minx > 0, "md: a start with zero entries moves off the boundary "
     "(min entry after one step %.3g)", minx);
  ol_run_free(r);
  ol_problem_free(p);
  /* product {3, 3} and a box */
  s.nblocks = 2;
  s.blocks[0] = s.blocks[1] = 3;
  kkt_block(&q, 0, 3, 0, 1, xs);
  kkt_block(&q, 3, 3, 0, 1, xs);
  for (i = 0; i < 6; i++) x0[i] = 1.0 / 3;
  p = mkprob(&q, &s, x0);
  o = olt_opts(3000, 0, OL_MSET_EMPTY);
  r = ol_run_new(p, ol_method_find("md"), par, &o, &e);
  if (r != NULL) ol_run_advance(r, 3000);
  ok(r != NULL && dist(ol_run_x(r), xs, 6) <= 1e-8, "md: simplex {3, 3}: "
     "||x - x*|| = %.3g <= 1e-8 after 3000 steps",
     r ? dist(ol_run_x(r), xs, 6) : NAN);
  ol_run_free(r);
  ol_problem_free(p);
  memset(&s, 0, sizeof s);
  s.kind = OL_SET_BOX;
  s.lo = lo;
  s.hi = hi;
  for (i = 0; i < 6; i++) {
    xs[i] = fmin(fmax(q.c[i], lo[i]), hi[i]);
    x0[i] = 0.5 * hi[i];
  }
  p = mkprob(&q, &s, x0);
  r = ol_run_new(p, ol_method_find("md"), par, &o, &e);
  if (r != NULL) ol_run_advance(r, 3000);
  ok(r != NULL && dist(ol_run_x(r), xs, 6) <= 1e-6, "md: box as two-point "
     "simplices: ||x - clamp(c)|| = %.3g <= 1e-6 after 3000 steps",
     r ? dist(ol_run_x(r), xs, 6) : NAN);
  f0 = fval(&q, x0);
  f1 = r ? fval(&q, ol_run_x(r)) : NAN;
  ok(f1 < f0, "md: box: the loss falls (%.4g -> %.4g)", f0, f1);
  ol_run_free(r);
  ol_problem_free(p);
  memset(&s, 0, sizeof s);
  s.kind = OL_SET_L1BALL;
  s.radius = 1;
  memset(x0, 0, sizeof x0);
  p = mkprob(&q, &s, x0);
  r = ol_run_new(p, ol_method_find("md"), par, NULL, &e);
  ok(r == NULL && strstr(e.msg, "md needs a product of simplices") != NULL
     && strstr(e.msg, "l1ball 1") != NULL,
     "md: the l1 ball is refused (%s)", r ? "" : e.msg);
  ol_run_free(r);
  ol_problem_free(p);
  (void)d;
}

int main (void)
{
  test_simplex();
  test_other_sets();
  test_refusals();
  test_md();
  return done();
}
