/*
** tests/c/t_pg.c -- game.pg, softmax policy gradient in self-play
** (core/games/pg.c), against values computed here from the published
** payoff tables (each core/problems/<name>.c's header), by loops:
**   - the gradient: x_a (u_a - <x, u>) against central differences of each
**     player's expected payoff <softmax(theta_i), u_i> in its own logits,
**     and one step of the run against softmax(log x0 + lr d) with d from
**     the differences (rps, prisoners, climbing at their x0);
**   - potential games (coordination, prisoners, climbing) from their
**     interior x0 at lr = 0.1: the potential x'Phi y never decreases over
**     5 10^4 steps, which end within 1e-3 of a pure equilibrium with
**     NashConv < 1e-3;
**   - rps at lr = 0.1: the last iterate does not converge (NashConv never
**     below 0.3 over 10^5 steps, above 1.5 at the end) while the uniform
**     average's NashConv is below 0.015 at T = 10^5.
** No randomness.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "olt.h"
#include "problems/game.h"
#include "tap.h"

typedef struct table {
  const char *name;
  int m, k;
  double A[9], B[9];
  double x0[6];
  double phi[9];          /* an exact potential (potential games) */
  double eq[6];           /* the pure equilibrium pg ends at */
} table;

/* rps: B = -A; prisoners: B = A', Phi = [3 5; 5 6] (prisoners.c);
** coordination and climbing: identical interest, Phi = A = B. */
static const table tb_rps = {"rps", 3, 3, {0, -1, 1, 1, 0, -1, -1, 1, 0},
                             {0, 1, -1, -1, 0, 1, 1, -1, 0},
                             {0.5, 0.3, 0.2, 0.2, 0.5, 0.3}, {0}, {0}};
static const table tb_pot[] = {
  {"coordination", 2, 2, {2, 0, 0, 1}, {2, 0, 0, 1}, {0.2, 0.8, 0.6, 0.4},
   {2, 0, 0, 1}, {1, 0, 1, 0}},
  {"prisoners", 2, 2, {3, 0, 5, 1}, {3, 5, 0, 1}, {0.9, 0.1, 0.9, 0.1},
   {3, 5, 5, 6}, {0, 1, 0, 1}},
  {"climbing", 3, 3, {11, -30, 0, -30, 7, 6, 0, 0, 5},
   {11, -30, 0, -30, 7, 6, 0, 0, 5}, {0.2, 0.3, 0.5, 0.3, 0.3, 0.4},
   {11, -30, 0, -30, 7, 6, 0, 0, 5}, {0, 1, 0, 0, 1, 0}},
};

/* Player i's utility vector at z: (A y) for i = 0, (B'x) for i = 1. */
static void util (const table *t, const double *z, int i, double *u)
{
  int a, b;
  if (i == 0)
    for (a = 0; a < t->m; a++) {
      u[a] = 0;
      for (b = 0; b < t->k; b++) u[a] += t->A[a * t->k + b] * z[t->m + b];
    }
  else
    for (b = 0; b < t->k; b++) {
      u[b] = 0;
      for (a = 0; a < t->m; a++) u[b] += t->B[a * t->k + b] * z[a];
    }
}

static void softmax (const double *th, double *x, int k)
{
  double hi = -INFINITY, s = 0;
  int a;
  for (a = 0; a < k; a++) hi = fmax(hi, th[a]);
  for (a = 0; a < k; a++) s += x[a] = exp(th[a] - hi);
  for (a = 0; a < k; a++) x[a] /= s;
}

/* <softmax(th), u>: a player's expected payoff against fixed u. */
static double payoff (const double *th, const double *u, int k)
{
  double x[3], v = 0;
  int a;
  softmax(th, x, k);
  for (a = 0; a < k; a++) v += x[a] * u[a];
  return v;
}

static double nc_loops (const table *t, const double *z)
{
  double u[3], hi, v;
  int i, a, nc, off;
  double s = 0;
  for (i = 0; i < 2; i++) {
    nc = i == 0 ? t->m : t->k;
    off = i == 0 ? 0 : t->m;
    util(t, z, i, u);
    hi = -INFINITY;
    v = 0;
    for (a = 0; a < nc; a++) {
      hi = fmax(hi, u[a]);
      v += z[off + a] * u[a];
    }
    s += hi - v;
  }
  return s;
}

static double pot_loops (const table *t, const double *z)
{
  double s = 0;
  int a, b;
  for (a = 0; a < t->m; a++)
    for (b = 0; b < t->k; b++) s += z[a] * t->phi[a * t->k + b] * z[t->m + b];
  return s;
}

static ol_run *start (const char *name, double lr, long T)
{
  ol_err e;
  ol_problem *p = olt_problem(name, &e, (char *)NULL);
  double par[4];
  const ol_method_type *m = olt_method("pg", par, "lr", lr, (char *)NULL);
  ol_run_opts o = olt_opts(T, 0, OL_MSET_OF(OL_MET_NASHCONV));
  ol_run *r;
  if (p == NULL || m == NULL) {
    ol_problem_free(p);
    return NULL;
  }
  r = olt_run(p, m, par, &o);
  if (r == NULL) ol_problem_free(p);
  return r;
}

static void drop_run (ol_run *r)
{
  const ol_problem *p = r != NULL ? ol_run_problem(r) : NULL;
  ol_run_free(r);
  ol_problem_free((ol_problem *)p);
}

/* (a) the gradient and one step */
static void test_gradient (const table *t)
{
  const double lr = 0.3, h = 1e-5;
  double th[6], fd[6], form[6], want[6], u[3], werr = 0, serr = 0;
  int i, a, off, nc;
  ol_run *r;
  for (a = 0; a < t->m + t->k; a++) th[a] = log(t->x0[a]);
  for (i = 0; i < 2; i++) {
    nc = i == 0 ? t->m : t->k;
    off = i == 0 ? 0 : t->m;
    util(t, t->x0, i, u);
    for (a = 0; a < nc; a++) {
      double tp[3], tm[3], ux = 0;
      int b;
      memcpy(tp, th + off, sizeof(double) * nc);
      memcpy(tm, th + off, sizeof(double) * nc);
      tp[a] += h;
      tm[a] -= h;
      fd[off + a] = (payoff(tp, u, nc) - payoff(tm, u, nc)) / (2 * h);
      for (b = 0; b < nc; b++) ux += t->x0[off + b] * u[b];
      form[off + a] = t->x0[off + a] * (u[a] - ux);
      werr = fmax(werr, fabs(fd[off + a] - form[off + a]));
    }
    for (a = 0; a < nc; a++) th[off + a] += lr * fd[off + a];
    softmax(th + off, want + off, nc);
  }
  ok(werr <= 1e-9, "pg on %s: x_a (u_a - <x, u>) is the derivative of the "
     "expected payoff in the logits (central differences, max error %.2g)",
     t->name, werr);
  r = start(t->name, lr, 10);
  if (!ok(r != NULL, "pg on %s: a run", t->name)) return;
  ol_run_advance(r, 1);
  for (a = 0; a < t->m + t->k; a++)
    serr = fmax(serr, fabs(ol_run_x(r)[a] - want[a]));
  ok(serr <= 1e-9, "pg on %s: one step at lr = %g is softmax(log x0 + lr "
     "grad) with the differenced gradient (max error %.2g)", t->name, lr,
     serr);
  drop_run(r);
}

/* (b) potential games */
static void test_potential (const table *t)
{
  const long T = 50000;
  ol_run *r = start(t->name, 0.1, T);
  double prev, cur, drop = 0, dist = 0, nc;
  long k;
  int a;
  if (!ok(r != NULL, "pg on %s: a run", t->name)) return;
  prev = pot_loops(t, t->x0);
  for (k = 0; k < T; k++) {
    ol_run_advance(r, 1);
    cur = pot_loops(t, ol_run_x(r));
    drop = fmax(drop, prev - cur);
    prev = cur;
  }
  for (a = 0; a < t->m + t->k; a++)
    dist = fmax(dist, fabs(ol_run_x(r)[a] - t->eq[a]));
  nc = nc_loops(t, ol_run_x(r));
  ok(drop <= 1e-14, "pg on %s: the potential never decreases (by more than "
     "1e-14) over %ld steps at lr = 0.1 (largest drop %g; %g at the end)",
     t->name, T, drop, prev);
  ok(dist <= 1e-3 && nc < 1e-3, "pg on %s: ends within %.2g (<= 1e-3, max "
     "norm) of the pure equilibrium, NashConv %.3g < 1e-3", t->name, dist,
     nc);
  ok(fabs(ol_run_last(r, OL_MET_NASHCONV) - nc) <= 1e-12,
     "pg on %s: the nashconv metric agrees (%.3g)", t->name,
     ol_run_last(r, OL_MET_NASHCONV));
  drop_run(r);
}

/* (c) rps: the last iterate spirals out, the average approaches (1/3 ...) */
static void test_rps (void)
{
  const table *t = &tb_rps;
  const long T = 100000;
  ol_run *r = start("rps", 0.1, T);
  double lo = INFINITY, last, avg;
  long k;
  if (!ok(r != NULL, "pg on rps: a run")) return;
  for (k = 0; k < T; k++) {
    ol_run_advance(r, 1);
    lo = fmin(lo, nc_loops(t, ol_run_x(r)));
  }
  last = nc_loops(t, ol_run_x(r));
  avg = nc_loops(t, ol_run_xavg(r));
  ok(lo > 0.3 && last > 1.5, "pg on rps: the last iterate does not "
     "converge at lr = 0.1 (NashConv never below 0.3 in 10^5 steps, min "
     "%.3g; %.3g at the end, of 2 at most)", lo, last);
  ok(avg < 0.015, "pg on rps: the uniform average's NashConv is %.4g < "
     "0.015 at T = 10^5", avg);
  drop_run(r);
}

int main (void)
{
  int i;
  test_gradient(&tb_rps);
  for (i = 0; i < 3; i++) test_gradient(&tb_pot[i]);
  for (i = 0; i < 3; i++) test_potential(&tb_pot[i]);
  test_rps();
  return done();
}
