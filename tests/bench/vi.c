/*
** tests/bench/vi.c -- VI: one black-box VI step of vi.fullrank (Adam, 10
** Monte Carlo draws, evals = 0: the bare step without the metrics' fresh
** draws) on problem.gaussian{n = 100} (a dense 100-D Gaussian of condition
** 100: a dense matrix-vector product a gradient), through the run engine
** against a plain C loop doing the same arithmetic: per draw eps ~ N(0, I),
** z = m + C eps over C's packed rows, the oracle at z, the gradient
** h_i eps_j into the packed layout; then Adam over the n + n (n + 1) / 2
** = 5150 parameters and C's diagonal exp(omega).
**
** The floor uses the run's generator seeded alike and draws what vi.c's
** init draws (its two Gaussian-target checks), so both end on the same
** parameters to the last bit (the finals are printed).  The engine records
** sparsely (cap 16, entropy only).  Each variant is the median of reps
** timings.  usage: vi [steps] [reps]; run with OPENBLAS_NUM_THREADS=1.
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
#define M 10
#define NP (N + N * (N + 1) / 2)
#define LR 0.01

static ol_problem *target (void)
{
  const ol_problem_type *pt = ol_problem_type_find("gaussian");
  ol_pval pv[16] = {{0}};
  ol_err e;
  int i;
  if (pt == NULL) return NULL;
  for (i = 0; i < pt->nparams; i++) pv[i].num = pt->params[i].def;
  pv[0].num = N;
  return ol_problem_new(pt, pv, &e);
}

/* vi.c's init and steps written out: the final m into m. */
static void floor_loop (const ol_problem *p, long steps, double *mout)
{
  static double th[NP], g[NP], am[NP], av[NP];
  double d[N], eps[N], z[N], gz[N], U, b1t = 1, b2t = 1;
  ol_rng rng;
  ol_err e;
  long t;
  int i, j, k;
  ol_rng_seed(&rng, 1, 0);
  /* init: m = x0, C = I, and the target check's 2 n draws */
  memset(th, 0, sizeof th);
  memset(am, 0, sizeof am);
  memset(av, 0, sizeof av);
  memcpy(th, p->x0, N * sizeof *th);
  for (i = 0; i < N; i++) d[i] = 1;
  ol_rng_normals(&rng, eps, N);
  ol_rng_normals(&rng, eps, N);
  for (t = 0; t < steps; t++) {
    double a, r;
    for (k = 0; k < M; k++) {
      ol_rng_normals(&rng, eps, N);
      for (i = 0; i < N; i++) {
        const double *L = th + N + i * (i + 1) / 2;
        double s = th[i] + d[i] * eps[i];
        for (j = 0; j < i; j++) s += L[j] * eps[j];
        z[i] = s;
      }
      p->fdf(p->ud, z, &U, gz, &e);
      for (i = 0; i < N; i++) {
        double *gl = g + N + i * (i + 1) / 2, hi = gz[i];
        if (k == 0) {
          g[i] = hi;
          for (j = 0; j < i; j++) gl[j] = hi * eps[j];
          gl[i] = hi * eps[i] * d[i] - 1;
        }
        else {
          g[i] += hi;
          for (j = 0; j < i; j++) gl[j] += hi * eps[j];
          gl[i] += hi * eps[i] * d[i] - 1;
        }
      }
    }
    for (i = 0; i < NP; i++) g[i] /= M;
    b1t *= 0.9;
    b2t *= 0.999;
    a = LR / (1 - b1t);
    r = 1 / sqrt(1 - b2t);
    for (i = 0; i < NP; i++) {
      double mi = 0.9 * am[i] + (1 - 0.9) * g[i];
      double vi = 0.999 * av[i] + (1 - 0.999) * g[i] * g[i];
      am[i] = mi;
      av[i] = vi;
      th[i] -= a * mi / (sqrt(vi) * r + 1e-8);
    }
    for (i = 0; i < N; i++) d[i] = exp(th[N + i * (i + 1) / 2 + i]);
  }
  memcpy(mout, th, N * sizeof *mout);
}

static double engine (const ol_problem *p, long steps, double *mout)
{
  const ol_method_type *m = ol_method_find("vi.fullrank");
  double par[16], t0;
  ol_run_opts o;
  ol_err e;
  ol_run *r;
  int i;
  for (i = 0; i < m->nparams; i++) {
    par[i] = m->params[i].def;
    if (strcmp(m->params[i].name, "lr") == 0) par[i] = LR;
    if (strcmp(m->params[i].name, "samples") == 0) par[i] = M;
    if (strcmp(m->params[i].name, "evals") == 0) par[i] = 0;
    /* the plain estimator on the bare iterate at a constant step: the
    ** arithmetic of floor_loop */
    if (strcmp(m->params[i].name, "stl") == 0 ||
        strcmp(m->params[i].name, "average") == 0 ||
        strcmp(m->params[i].name, "decay") == 0) par[i] = 0;
  }
  ol_run_opts_default(&o);
  o.iters = steps;
  o.cap = 16;
  o.metrics = OL_MSET_OF(OL_MET_ENTROPY);
  if ((r = ol_run_new(p, m, par, &o, &e)) == NULL) {
    fprintf(stderr, "vi: %s\n", e.msg);
    exit(1);
  }
  t0 = bench_now();
  ol_run_advance(r, steps);
  t0 = bench_now() - t0;
  memcpy(mout, ol_run_x(r), N * sizeof *mout);
  ol_run_free(r);
  return t0;
}

int main (int argc, char **argv)
{
  long steps = argc > 1 ? atol(argv[1]) : 2000;
  int reps = argc > 2 ? atoi(argv[2]) : 5, k;
  double tf[64], te[64], mf[N], me[N];
  ol_problem *p = target();
  if (p == NULL || reps < 1 || reps > 64) return 1;
  for (k = 0; k < reps; k++) {
    double t0 = bench_now();
    floor_loop(p, steps, mf);
    tf[k] = bench_now() - t0;
    te[k] = engine(p, steps, me);
  }
  printf("VI floor  us/step %.2f  final m1 %.17g\n",
         1e6 * bench_median(tf, reps) / steps, mf[0]);
  printf("VI engine us/step %.2f  final m1 %.17g\n",
         1e6 * bench_median(te, reps) / steps, me[0]);
  printf("VI fullrank step (d = %d, %d draws): %.2fx the C floor%s\n", N, M,
         bench_median(te, reps) / bench_median(tf, reps),
         memcmp(mf, me, sizeof mf) == 0 ? "" : "  (finals differ!)");
  ol_problem_free(p);
  return 0;
}
