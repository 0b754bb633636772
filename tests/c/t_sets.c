/*
** tests/c/t_sets.c -- projections onto boxes, products of simplices and
** l1 / l2 balls; the Frank-Wolfe linear minimisation oracle and gap; the
** checked setter's refusals.
**
** Truth: closed-form projections worked by hand; for random points the
** variational inequality that characterises the Euclidean projection
** onto a convex set C: <v - P(v), y - P(v)> <= 0 for every y in C; an
** independent projection by bisection on the threshold tau (simplex and
** l1 ball: P(v)_i = sign(v_i) max(|v_i| - tau, 0) with tau solving
** sum max(|v_i| - tau, 0) = r); the oracle against brute force over the
** vertices (every corner of a box, every +-r e_i of the l1 ball) and
** against random points of the set.
*/
#include "olt.h"
#include "problem.h"
#include "rng.h"
#include "tap.h"

#include <string.h>

#include <math.h>

#define SEED 4242u

static int vec_is (const double *x, const double *want, int n, double tol)
{
  int i;
  for (i = 0; i < n; i++)
    if (!(fabs(x[i] - want[i]) <= tol)) return 0;
  return 1;
}


/* l1-ball projection by bisection on tau (independent of the sort). */
static void l1_bisect (const double *v, double *x, int n, double r)
{
  double a = 0, lo = 0, hi = 0;
  int i, it;
  for (i = 0; i < n; i++) {
    a += fabs(v[i]);
    if (fabs(v[i]) > hi) hi = fabs(v[i]);
  }
  if (a <= r) {
    memcpy(x, v, (size_t)n * sizeof *v);
    return;
  }
  for (it = 0; it < 200; it++) {
    double tau = 0.5 * (lo + hi), s = 0;
    for (i = 0; i < n; i++) s += fmax(fabs(v[i]) - tau, 0);
    if (s > r) lo = tau;
    else hi = tau;
  }
  for (i = 0; i < n; i++) {
    double m = fmax(fabs(v[i]) - 0.5 * (lo + hi), 0);
    x[i] = v[i] < 0 ? -m : m;
  }
}

/* A random point of s (n <= 8): the projection of a random point. */
static void random_in (const ol_set *s, ol_rng *r, double *y, int n,
                       double *work)
{
  int i;
  for (i = 0; i < n; i++) y[i] = 2 * ol_rng_normal(r);
  ol_set_project(s, y, n, work);
}

static double dot (const double *a, const double *b, int n)
{
  double d = 0;
  int i;
  for (i = 0; i < n; i++) d += a[i] * b[i];
  return d;
}

static void test_balls (ol_rng *r)
{
  ol_set b1 = {0}, b2 = {0};
  double work[8], v[8], x[8], y[8], z[8];
  int i, t, badin = 0, badvi = 0, badid = 0, badbis = 0, badl2 = 0;
  b1.kind = OL_SET_L1BALL;
  b1.radius = 1.5;
  b2.kind = OL_SET_L2BALL;
  b2.radius = 0.7;
  /* hand-worked */
  x[0] = 3; x[1] = -1; x[2] = 0.2;
  ol_set_project(&b1, x, 3, work);
  ok(olt_agree(x, (double[]){1.5, 0, 0}, 3, 1e-15),
     "sets: (3, -1, 0.2) on the l1 ball r = 1.5 is (1.5, 0, 0) (tau = 1.5)");
  x[0] = 1; x[1] = -1; x[2] = 0;
  ol_set_project(&b1, x, 3, work);
  ok(olt_agree(x, (double[]){0.75, -0.75, 0}, 3, 1e-15),
     "sets: (1, -1, 0) on the l1 ball r = 1.5 is (0.75, -0.75, 0)");
  x[0] = 0.3; x[1] = -0.4; x[2] = 0.1;
  ol_set_project(&b1, x, 3, work);
  ok(olt_agree(x, (double[]){0.3, -0.4, 0.1}, 3, 0),
     "sets: a point of the l1 ball is its own projection");
  x[0] = 3; x[1] = -4;
  ol_set_project(&b2, x, 2, NULL);
  ok(olt_agree(x, (double[]){0.42, -0.56}, 2, 1e-15),
     "sets: (3, -4) on the l2 ball r = 0.7 is 0.7 (3, -4) / 5");
  ok(ol_set_contains(&b2, x, 2, 1e-15) && !ol_set_contains(&b1, (double[])
     {1, 0.6}, 2, 1e-9) && ol_set_contains(&b1, (double[]){1, -0.5}, 2, 0),
     "sets: ball membership");
  /* random: in the set, idempotent, variational inequality, bisection */
  for (t = 0; t < 2000; t++) {
    const ol_set *s = t % 2 ? &b2 : &b1;
    int n = 1 + t % 8;
    double d, nrm = 0;
    for (i = 0; i < n; i++) v[i] = x[i] = 3 * ol_rng_normal(r);
    ol_set_project(s, x, n, work);
    if (!ol_set_contains(s, x, n, 1e-12)) badin++;
    memcpy(z, x, sizeof x);
    ol_set_project(s, z, n, work);
    if (!olt_agree(z, x, n, 1e-15)) badid++;
    random_in(s, r, y, n, work);
    for (i = 0, d = 0; i < n; i++) d += (v[i] - x[i]) * (y[i] - x[i]);
    if (d > 1e-12) badvi++;
    if (s == &b1) {
      l1_bisect(v, z, n, b1.radius);
      if (!olt_agree(z, x, n, 1e-12)) badbis++;
    }
    else {
      for (i = 0; i < n; i++) nrm += v[i] * v[i];
      nrm = sqrt(nrm);
      for (i = 0; i < n; i++)
        if (fabs(x[i] - (nrm > b2.radius ? b2.radius / nrm : 1) * v[i])
            > 1e-15)
          badl2++;
    }
  }
  is_int(badin, 0, "sets: random l1 / l2 ball projections land in the ball");
  is_int(badid, 0, "sets: ball projections are idempotent");
  is_int(badvi, 0, "sets: ball projections satisfy <v - P v, y - P v> <= 0 "
         "(1e-12)");
  is_int(badbis, 0, "sets: the l1 projection agrees with bisection on tau "
         "to 1e-12");
  is_int(badl2, 0, "sets: the l2 projection is v min(1, r / ||v||)");
}

/* Simplex projection against bisection (tau solves sum max(v - tau, 0) =
** 1 on each block). */
static void test_simplex_bisect (ol_rng *r)
{
  ol_set sx = {0};
  double work[8], v[8], x[8];
  int i, t, bad = 0;
  sx.kind = OL_SET_SIMPLEX;
  sx.nblocks = 2;
  sx.blocks[0] = 3;
  sx.blocks[1] = 5;
  for (t = 0; t < 1000; t++) {
    int b, off;
    for (i = 0; i < 8; i++) v[i] = x[i] = 2 * ol_rng_normal(r);
    ol_set_project(&sx, x, 8, work);
    for (b = 0, off = 0; b < 2; off += sx.blocks[b++]) {
      int k = sx.blocks[b];
      double lo = -10, hi = 10;
      int it;
      for (it = 0; it < 200; it++) {
        double tau = 0.5 * (lo + hi), s = 0;
        for (i = off; i < off + k; i++) s += fmax(v[i] - tau, 0);
        if (s > 1) lo = tau;
        else hi = tau;
      }
      for (i = off; i < off + k; i++)
        if (fabs(x[i] - fmax(v[i] - 0.5 * (lo + hi), 0)) > 1e-12) bad++;
    }
  }
  is_int(bad, 0, "sets: the simplex projection agrees with bisection on tau "
         "to 1e-12 (blocks 3, 5)");
  /* a point of the simplex up to rounding is left as it is: tiny entries
  ** of an interior iterate do not become 0 */
  {
    double y[3] = {1e-200, 0.7, 0.3}, z[3];
    sx.nblocks = 1;
    sx.blocks[0] = 3;
    for (i = 0; i < 3; i++) z[i] = y[i];
    ol_set_project(&sx, z, 3, work);
    ok(z[0] == 1e-200 && z[1] == 0.7 && z[2] == 0.3,
       "sets: a simplex point with an entry 1e-200 is its own projection");
    y[1] = 0.7 + 1e-3;
    ol_set_project(&sx, y, 3, work);
    ok(y[0] == 0 && fabs(y[1] + y[2] - 1) <= 1e-15,
       "sets: off the simplex by 1e-3, the projection shifts and clips");
  }
}

/* The oracle: brute force over vertices, and <g, v> <= <g, y> for random
** y in the set; the gap equals <g, x - v>. */
static void test_lmo (ol_rng *r)
{
  double lo[4] = {-1, 0, 2, -3}, hi[4] = {1, 0.5, 2, 3};
  ol_set sets[4] = {{0}, {0}, {0}, {0}};
  const char *names[4] = {"box", "simplex {3, 1}", "l1ball", "l2ball"};
  double work[8], g[4], v[4], x[4], y[4];
  int k, t, i;
  sets[0].kind = OL_SET_BOX;
  sets[0].lo = lo;
  sets[0].hi = hi;
  sets[1].kind = OL_SET_SIMPLEX;
  sets[1].nblocks = 2;
  sets[1].blocks[0] = 3;
  sets[1].blocks[1] = 1;
  sets[2].kind = OL_SET_L1BALL;
  sets[2].radius = 2;
  sets[3].kind = OL_SET_L2BALL;
  sets[3].radius = 1.5;
  for (k = 0; k < 4; k++) {
    const ol_set *s = &sets[k];
    int badbrute = 0, badrand = 0, badgap = 0, badin = 0, rc = OL_OK;
    for (t = 0; t < 500; t++) {
      double best = INFINITY, gv;
      for (i = 0; i < 4; i++) g[i] = ol_rng_normal(r);
      if (t == 0) g[0] = g[1] = g[2] = g[3] = 0;
      rc |= ol_set_lmo(s, g, v, 4, NULL);
      gv = dot(g, v, 4);
      if (!ol_set_contains(s, v, 4, 1e-12)) badin++;
      /* (1) brute force over the vertices (the l2 ball: -r ||g||) */
      if (k == 0) {
        int c;
        for (c = 0; c < 16; c++) {
          for (i = 0; i < 4; i++) y[i] = c >> i & 1 ? hi[i] : lo[i];
          best = fmin(best, dot(g, y, 4));
        }
      }
      else if (k == 1)
        best = fmin(fmin(g[0], g[1]), g[2]) + g[3];
      else if (k == 2)
        for (i = 0; i < 4; i++) best = fmin(best, -2 * fabs(g[i]));
      else
        best = -1.5 * sqrt(dot(g, g, 4));
      if (fabs(gv - best) > 1e-12) badbrute++;
      /* (2) no random point of the set does better */
      for (i = 0; i < 20; i++) {
        random_in(s, r, y, 4, work);
        if (dot(g, y, 4) < gv - 1e-12) badrand++;
      }
      /* (3) the closed-form gap is <g, x - v> at a random x of the set */
      random_in(s, r, x, 4, work);
      if (fabs(ol_set_fwgap(s, x, g, 4) - (dot(g, x, 4) - gv)) > 1e-12
          || ol_set_fwgap(s, x, g, 4) < -1e-12)
        badgap++;
    }
    ok(rc == OL_OK && badin == 0, "sets: %s: the oracle returns points of "
       "the set", names[k]);
    is_int(badbrute, 0, "sets: %s: the oracle's <g, v> is the brute-force "
           "minimum over the vertices", names[k]);
    is_int(badrand, 0, "sets: %s: no random point of the set beats the "
           "oracle", names[k]);
    is_int(badgap, 0, "sets: %s: fwgap = <g, x - lmo(g)> >= 0", names[k]);
  }
  {
    ol_set half = {0};
    ol_err e;
    double l[2] = {0, -INFINITY}, h[2] = {1, 1};
    half.kind = OL_SET_BOX;
    half.lo = l;
    half.hi = h;
    g[0] = 1;
    g[1] = 1;
    ok(ol_set_lmo(&half, g, v, 2, &e) == OL_EINVAL &&
       strstr(e.msg, "x[2] has no lower bound") != NULL,
       "sets: the oracle refuses an unbounded box side (%s)", e.msg);
    ok(isinf(ol_set_fwgap(&half, (double[]){0, 0}, g, 2)),
       "sets: the gap is inf on an unbounded box side g points to");
  }
}

/* The checked setter: sizes, radii, bounds, with messages naming them. */
static void test_setter (void)
{
  ol_problem *p = olt_quadratic(4, 10, 1);
  ol_set s = {0};
  ol_err e;
  double lo[4] = {0, 0, 0, 0}, hi[4] = {1, 1, -1, 1};
  char buf[64];
  s.kind = OL_SET_SIMPLEX;
  s.nblocks = 2;
  s.blocks[0] = 3;
  s.blocks[1] = 2;
  ok(ol_problem_set_set(p, &s, &e) == OL_EINVAL &&
     strstr(e.msg, "simplex blocks sum to 5, not n = 4") != NULL,
     "sets: setter: simplex sizes must sum to n (%s)", e.msg);
  s.blocks[1] = 0;
  ok(ol_problem_set_set(p, &s, &e) == OL_EINVAL &&
     strstr(e.msg, "block 2 is empty") != NULL,
     "sets: setter: an empty block is refused (%s)", e.msg);
  s.blocks[1] = 1;
  ok(ol_problem_set_set(p, &s, &e) == OL_OK && p->set.nblocks == 2 &&
     strcmp(ol_set_describe(&p->set, buf, sizeof buf), "simplex {3, 1}") == 0,
     "sets: setter: simplex {3, 1} is kept (%s)", buf);
  memset(&s, 0, sizeof s);
  s.kind = OL_SET_L1BALL;
  s.radius = 0;
  ok(ol_problem_set_set(p, &s, &e) == OL_EINVAL &&
     strstr(e.msg, "l1ball radius r = 0 is out of range (0, inf)") != NULL,
     "sets: setter: r = 0 is refused (%s)", e.msg);
  s.kind = OL_SET_L2BALL;
  s.radius = -1;
  ok(ol_problem_set_set(p, &s, &e) == OL_EINVAL &&
     strstr(e.msg, "l2ball radius r = -1") != NULL,
     "sets: setter: r < 0 is refused (%s)", e.msg);
  s.radius = INFINITY;
  ok(ol_problem_set_set(p, &s, &e) == OL_EINVAL,
     "sets: setter: r = inf is refused (%s)", e.msg);
  s.radius = 2;
  ok(ol_problem_set_set(p, &s, &e) == OL_OK && p->set.kind == OL_SET_L2BALL
     && p->set.radius == 2 && p->set.nblocks == 0 && p->set.lo == NULL,
     "sets: setter: the l2 ball r = 2 is kept, nothing else");
  ok(ol_set_explain(&p->set, (double[]){3, 0, 0, 0}, 4, OL_SET_TOL, &e)
     == OL_EINVAL && strstr(e.msg, "outside the l2 ball") != NULL,
     "sets: explain names the ball (%s)", e.msg);
  memset(&s, 0, sizeof s);
  s.kind = OL_SET_BOX;
  s.lo = lo;
  s.hi = hi;
  ok(ol_problem_set_set(p, &s, &e) == OL_EINVAL &&
     strstr(e.msg, "lo[3] = 0 > hi[3] = -1") != NULL,
     "sets: setter: lo > hi is refused (%s)", e.msg);
  s.kind = 99;
  ok(ol_problem_set_set(p, &s, &e) == OL_EINVAL &&
     strstr(e.msg, "valid: box, simplex, l1ball, l2ball") != NULL,
     "sets: setter: an unknown kind lists the valid ones (%s)", e.msg);
  ol_problem_free(p);
}

int main (void)
{
  double lo[3] = {0, -1, 0}, hi[3] = {1, 1, 0};
  double work[8], x[8];
  ol_set box = {0}, sx = {0}, none = {0};
  ol_rng r;
  int i, t, bad, badvi, badin;

  box.kind = OL_SET_BOX;
  box.lo = lo;
  box.hi = hi;
  x[0] = -2; x[1] = 0.5; x[2] = 3;
  ol_set_project(&box, x, 3, work);
  ok(vec_is(x, (double[]){0, 0.5, 0}, 3, 0), "sets: box projection clamps");
  ok(ol_set_contains(&box, x, 3, 0), "sets: a clamped point is in the box");
  x[1] = 1.1;
  ok(!ol_set_contains(&box, x, 3, 0.05) && ol_set_contains(&box, x, 3, 0.2),
     "sets: box membership honours tol");

  sx.kind = OL_SET_SIMPLEX;
  sx.nblocks = 1;
  sx.blocks[0] = 3;
  x[0] = 1.0 / 3; x[1] = 1.0 / 3; x[2] = 1.0 / 3;
  ol_set_project(&sx, x, 3, work);
  ok(vec_is(x, (double[]){1.0 / 3, 1.0 / 3, 1.0 / 3}, 3, 1e-16),
     "sets: a simplex point is its own projection");
  x[0] = 1; x[1] = 1; x[2] = 1;
  ol_set_project(&sx, x, 3, work);
  ok(vec_is(x, (double[]){1.0 / 3, 1.0 / 3, 1.0 / 3}, 3, 1e-16),
     "sets: (1,1,1) projects to the barycentre");
  x[0] = -1; x[1] = 0.5; x[2] = 2;
  ol_set_project(&sx, x, 3, work);
  ok(vec_is(x, (double[]){0, 0, 1}, 3, 0),
     "sets: (-1, 0.5, 2) projects to the vertex (0, 0, 1)");
  x[0] = 0.8; x[1] = 0.6; x[2] = -3;
  ol_set_project(&sx, x, 3, work);
  ok(vec_is(x, (double[]){0.6, 0.4, 0}, 3, 1e-15),
     "sets: (0.8, 0.6, -3) projects to (0.6, 0.4, 0) (tau = 0.2)");

  sx.nblocks = 2;
  sx.blocks[0] = 2;
  sx.blocks[1] = 3;
  x[0] = 2; x[1] = 0; x[2] = 0; x[3] = 0; x[4] = 0;
  ol_set_project(&sx, x, 5, work);
  ok(vec_is(x, (double[]){1, 0, 1.0 / 3, 1.0 / 3, 1.0 / 3}, 5, 1e-16),
     "sets: blocks are projected independently");
  ok(ol_set_contains(&sx, x, 5, 1e-12),
     "sets: the projection lies in the product of simplices");
  x[2] = 0.5;
  ok(!ol_set_contains(&sx, x, 5, 1e-12),
     "sets: a block not summing to 1 is outside");
  x[2] = NAN;
  ok(!ol_set_contains(&sx, x, 5, 1e-12) && !ol_set_contains(&none, x, 5, 0),
     "sets: non-finite points are in no set");
  x[0] = 5; x[1] = -7;
  ol_set_project(&none, x, 2, work);
  ok(x[0] == 5 && x[1] == -7, "sets: the empty constraint leaves x alone");

  /* random points: projection is in C, idempotent, and satisfies the
  ** variational inequality against random feasible y */
  diag("seed %u", (unsigned)SEED);
  ol_rng_seed(&r, SEED, 0);
  sx.nblocks = 2;
  sx.blocks[0] = 3;
  sx.blocks[1] = 5;
  for (t = 0, bad = 0, badvi = 0, badin = 0; t < 2000; t++) {
    double v[8], p[8], y[8], d = 0;
    for (i = 0; i < 8; i++) v[i] = p[i] = 3 * ol_rng_normal(&r);
    ol_set_project(&sx, p, 8, work);
    if (!ol_set_contains(&sx, p, 8, 1e-12)) badin++;
    for (i = 0; i < 8; i++) x[i] = p[i];
    ol_set_project(&sx, x, 8, work);
    if (!vec_is(x, p, 8, 1e-15)) bad++;
    for (i = 0; i < 8; i++) y[i] = ol_rng_uniform(&r);
    ol_set_project(&sx, y, 8, work);     /* any point of C */
    for (i = 0; i < 8; i++) d += (v[i] - p[i]) * (y[i] - p[i]);
    if (d > 1e-12) badvi++;
  }
  is_int(badin, 0, "sets: random projections land in the set");
  is_int(bad, 0, "sets: projection is idempotent");
  is_int(badvi, 0, "sets: projection satisfies <v - P v, y - P v> <= 0");
  test_balls(&r);
  test_simplex_bisect(&r);
  test_lmo(&r);
  test_setter();
  return done();
}
