/*
** tests/c/t_sets.c -- projections onto boxes and products of simplices.
**
** Truth: closed-form projections worked by hand, and for random points
** the variational inequality that characterises the Euclidean projection
** onto a convex set C: <v - P(v), y - P(v)> <= 0 for every y in C.
*/
#include "problem.h"
#include "rng.h"
#include "tap.h"

#include <math.h>

#define SEED 4242u

static int vec_is (const double *x, const double *want, int n, double tol)
{
  int i;
  for (i = 0; i < n; i++)
    if (!(fabs(x[i] - want[i]) <= tol)) return 0;
  return 1;
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
  return done();
}
