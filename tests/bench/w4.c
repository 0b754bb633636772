/*
** tests/bench/w4.c -- W4: MALA (h 0.05) on problem.quadratic{n = 100,
** rotate = false} (a 100-D Gaussian with precisions 10^(-i/99)), 10^5
** steps, through the run engine against a plain C MALA loop calling the
** same oracle; and NUTS's cost per gradient against a plain leapfrog loop
** on the same target.
**
** The MALA floor is mala.c's arithmetic written out with the run's
** generator seeded alike, so both chains are the same to the last bit
** (the finals are printed).  The engine records sparsely (cap 16).
** NUTS runs with a fixed step (eps 0.2, warmup 0, unit metric); its time
** per gradient evaluation is compared with a leapfrog loop's (half-step
** momentum, full-step position, one gradient, half-step momentum), on the
** dense 100-D Gaussian (rotate = true: a dense matrix-vector product a
** gradient) and on the diagonal one.
** Each variant is the median of reps timings.  Last, NUTS per leapfrog
** step against the bare leapfrog loop on the diagonal Gaussians of
** n = 100 and n = 1000, in interleaved pairs on the CPU clock: the min
** and median of the pairs' ratios (the tree's bookkeeping against an
** O(n) gradient; issue 28's target is 2x).
** usage: w4 [steps] [reps]; run with OPENBLAS_NUM_THREADS=1.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "method.h"
#include "rng.h"
#include "run.h"

#define N 100
#define H 0.05

static ol_problem *target (int n, int rotate)
{
  const ol_problem_type *pt = ol_problem_type_find("quadratic");
  ol_pval pv[16] = {{0}};
  ol_err e;
  int i;
  if (pt == NULL) return NULL;
  for (i = 0; i < pt->nparams; i++) {
    pv[i].num = pt->params[i].def;
    if (strcmp(pt->params[i].name, "n") == 0) pv[i].num = n;
    if (strcmp(pt->params[i].name, "rotate") == 0) pv[i].num = rotate;
  }
  return ol_problem_new(pt, pv, &e);
}

/* mala.c's step, written out: steps of the chain from x. */
static void mala_floor (const ol_problem *p, long steps, double *x,
                        long *acc)
{
  ol_rng rng;
  double g[N], y[N], gy[N], xi[N], U, Uy, sq = sqrt(2 * H);
  ol_err e;
  long t;
  int i;
  ol_rng_seed(&rng, 1, 0);
  p->fdf(p->ud, x, &U, g, &e);
  for (t = 0; t < steps; t++) {
    double qf = 0, qb = 0;
    ol_rng_normals(&rng, xi, N);
    for (i = 0; i < N; i++) y[i] = x[i] - H * g[i] + sq * xi[i];
    p->fdf(p->ud, y, &Uy, gy, &e);
    for (i = 0; i < N; i++) {
      double b = x[i] - y[i] + H * gy[i];
      double f = y[i] - x[i] + H * g[i];
      qb += b * b;
      qf += f * f;
    }
    if (log(ol_rng_uniform(&rng)) < U - Uy - (qb - qf) / (4 * H)) {
      memcpy(x, y, sizeof y);
      memcpy(g, gy, sizeof gy);
      U = Uy;
      (*acc)++;
    }
  }
}

/* A run of m (parameters par) on p for steps, recording sparsely; exits
** on failure. */
static ol_run *mkrun (const ol_problem *p, const ol_method_type *m,
                      const double *par, long steps)
{
  ol_run_opts o;
  ol_err e;
  ol_run *r;
  ol_run_opts_default(&o);
  o.iters = steps;
  o.cap = 16;
  o.metrics = OL_MSET_OF(OL_MET_ACCEPT);
  r = ol_run_new(p, m, par, &o, &e);
  if (r == NULL) {
    fprintf(stderr, "w4: %s\n", e.msg);
    exit(1);
  }
  return r;
}

static double mala_engine (const ol_problem *p, long steps, double *x,
                           long *acc)
{
  double par[4] = {H, 0, 0.574, 0}, t0;   /* fixed h, unit metric */
  ol_run *r = mkrun(p, ol_method_find("mala"), par, steps);
  t0 = bench_now();
  ol_run_advance(r, steps);
  t0 = bench_now() - t0;
  memcpy(x, ol_run_x(r), N * sizeof *x);
  *acc = ol_run_iter(r) > 0 ? (long)(ol_run_last(r, OL_MET_ACCEPT) *
                                     (double)ol_run_iter(r) + 0.5) : 0;
  ol_run_free(r);
  return t0;
}

/* A leapfrog loop of G gradients from x0 (p->n), step eps: ns per
** gradient.  Its arrays start on cache lines (as NUTS's do), so the
** floor does not depend on where malloc put them. */
static double leapfrog_floor (const ol_problem *p, long G, const double *x0)
{
  int i, n = p->n;
  size_t ns = ((size_t)n + 7) / 8 * 8;
  void *v = NULL;
  double *x, *q, *g, U, t0, eps = 0.2;
  ol_err e;
  long k;
  if (posix_memalign(&v, 64, 3 * ns * sizeof(double)) != 0) exit(1);
  x = v;
  q = x + ns;
  g = q + ns;
  memcpy(x, x0, sizeof(double) * (size_t)n);
  for (i = 0; i < n; i++) q[i] = 1;
  p->fdf(p->ud, x, &U, g, &e);
  t0 = bench_now();
  for (k = 0; k < G; k++) {
    for (i = 0; i < n; i++) q[i] -= 0.5 * eps * g[i];
    for (i = 0; i < n; i++) x[i] += eps * q[i];
    p->fdf(p->ud, x, &U, g, &e);
    for (i = 0; i < n; i++) q[i] -= 0.5 * eps * g[i];
  }
  t0 = bench_now() - t0;
  if (!isfinite(x[0])) fprintf(stderr, "w4: leapfrog diverged\n");
  free(x);
  return 1e9 * t0 / (double)G;
}

/* NUTS at a fixed step: ns per gradient over steps. */
static double nuts_engine (const ol_problem *p, long steps, long *ngev)
{
  const ol_method_type *m = ol_method_find("nuts");
  double par[16], t0;
  ol_run *r;
  int i;
  for (i = 0; i < m->nparams; i++) {
    par[i] = m->params[i].def;
    if (strcmp(m->params[i].name, "eps") == 0) par[i] = 0.2;
    if (strcmp(m->params[i].name, "warmup") == 0) par[i] = 0;
    if (strcmp(m->params[i].name, "metric") == 0) par[i] = 0;
  }
  r = mkrun(p, m, par, steps);
  t0 = bench_now();
  ol_run_advance(r, steps);
  t0 = bench_now() - t0;
  *ngev = ol_run_ngev(r);
  ol_run_free(r);
  return 1e9 * t0 / (double)*ngev;
}

/* NUTS's time per leapfrog step against the bare leapfrog loop's on the
** diagonal n-D Gaussian: reps pairs, interleaved (nuts first in even
** pairs, the loop first in odd ones) on the CPU clock, the loop running
** as many gradients as NUTS took; the min and median of the pairs'
** ratios.  trans: NUTS transitions a timing. */
static void nuts_per_leapfrog (int n, long trans, int reps)
{
  ol_problem *p = target(n, 0);
  double r[64], tn[64], tl[64];
  long ng = 0;
  int k;
  if (p == NULL) exit(1);
  for (k = 0; k < reps; k++) {
    if (k % 2 == 0) {
      tn[k] = nuts_engine(p, trans, &ng);
      tl[k] = leapfrog_floor(p, ng, p->x0);
    }
    else {
      /* the same chain, so the same number of gradients as before */
      tl[k] = leapfrog_floor(p, ng, p->x0);
      tn[k] = nuts_engine(p, trans, &ng);
    }
    r[k] = tn[k] / tl[k];
  }
  qsort(r, (size_t)reps, sizeof *r, bench_cmp);
  printf("NUTS per leapfrog, diagonal %d-D Gaussian: %.2fx a bare leapfrog "
         "loop (min %.2fx, median of %d interleaved pairs; ns/leapfrog "
         "nuts %.1f, loop %.1f; %.1f leapfrogs a transition; target <= "
         "2x)\n", n, bench_median(r, reps), r[0], reps,
         bench_median(tn, reps), bench_median(tl, reps),
         (double)ng / (double)trans);
  ol_problem_free(p);
}

int main (int argc, char **argv)
{
  long steps = argc > 1 ? atol(argv[1]) : 100000, acc1 = 0, acc2 = 0, ng;
  int reps = argc > 2 ? atoi(argv[2]) : 5, k;
  double tf[64], te[64], tl[64], tn[64], xf[N], xe[N];
  ol_problem *p = target(N, 0), *pd = target(N, 1);
  double tl2[64], tn2[64];
  long ng2;
  if (p == NULL || pd == NULL || reps < 1 || reps > 64) return 1;
  for (k = 0; k < reps; k++) {
    double t0;
    memcpy(xf, p->x0, sizeof xf);
    acc1 = 0;
    t0 = bench_now();
    mala_floor(p, steps, xf, &acc1);
    tf[k] = bench_now() - t0;
    te[k] = mala_engine(p, steps, xe, &acc2);
    tn[k] = nuts_engine(p, steps / 20, &ng);
    tl[k] = leapfrog_floor(p, ng, p->x0);
    tn2[k] = nuts_engine(pd, steps / 20, &ng2);
    tl2[k] = leapfrog_floor(pd, ng2, pd->x0);
  }
  printf("W4 floor  us/step %.3f  final x1 %.17g  accepted %ld\n",
         1e6 * bench_median(tf, reps) / steps, xf[0], acc1);
  printf("W4 engine us/step %.3f  final x1 %.17g  accepted %ld\n",
         1e6 * bench_median(te, reps) / steps, xe[0], acc2);
  printf("W4 mala: %.2fx the C floor (target <= 1.3x)%s\n",
         bench_median(te, reps) / bench_median(tf, reps),
         xf[0] == xe[0] ? "" : "  (finals differ!)");
  printf("NUTS dense 100-D Gaussian: leapfrog floor ns/gradient %.1f, nuts "
         "%.1f\n", bench_median(tl2, reps), bench_median(tn2, reps));
  printf("NUTS per gradient, dense Gaussian: %.2fx a plain leapfrog loop "
         "(target <= 1.3x)\n", bench_median(tn2, reps) /
         bench_median(tl2, reps));
  printf("NUTS diagonal 100-D Gaussian: leapfrog floor ns/gradient %.1f, "
         "nuts %.1f (%.2fx: the tree's bookkeeping against an O(n) "
         "gradient)\n", bench_median(tl, reps), bench_median(tn, reps),
         bench_median(tn, reps) / bench_median(tl, reps));
  ol_problem_free(p);
  ol_problem_free(pd);
  nuts_per_leapfrog(100, steps / 20, reps);
  nuts_per_leapfrog(1000, steps / 200, reps);
  return 0;
}
