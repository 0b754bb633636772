/*
** tests/bench/diffusion.c -- DIFF: one DDPM step per particle
** (diffusion.ddpm, linear VP schedule, exact score) on problem.gmm{} (the
** 2-D ring of 8 modes), 10^4 particles, through the run engine against a
** plain C loop doing the same arithmetic: per step the K n inverse
** variances and K log normalisers of p_t, then per particle and component
** y = x - s mu_k, z = U_k'y / var, v_k = U_k z, the log-sum-exp of the K
** terms, the score -sum_k r_k v_k, and the ancestral move
** x' = (x + beta score) / sqrt(alpha) + sqrt(beta~) z.
**
** The floor uses the run's generator seeded alike and draws the particles
** as ddpm's init does, so both end on the same particles to the last bit
** (the first is printed).  The engine records sparsely (cap 16, loss
** only: the particles' metrics are not part of a step).  Each variant is
** the median of reps timings.  usage: diffusion [particles] [steps] [reps].
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "method.h"
#include "problems/gmm.h"
#include "rng.h"
#include "run.h"

#define LOG2PI 1.83787706640934548356
#define DELTA 1e-3
#define KMAX 16

static double abar (double t)
{
  return exp(-0.1 * t - 9.95 * t * t);
}

/* ddpm's steps on the particles x (N x 2), written out. */
static void ddpm_floor (const ol_gmm *G, int N, int steps, double *x)
{
  ol_rng rng;
  int K = G->K, st, i, k, j;
  double iv[KMAX][2], ln[KMAX], l[KMAX], v[KMAX][2];
  ol_rng_seed(&rng, 1, 0);
  for (i = 0; i < 2 * N; i++) x[i] = ol_rng_normal(&rng);
  for (st = 0; st < steps; st++) {
    double h = (1 - DELTA) / steps, t = 1 - st * h;
    double tp = st + 1 == steps ? DELTA : 1 - (st + 1) * h;
    /* the levels as diffuse.c forms them: s, sigma, then s^2 */
    double s = sqrt(abar(t)), sp = sqrt(abar(tp));
    double sig = sqrt((1 - abar(t)) / abar(t)), sig2 = sig * sig;
    double ab = s * s, abp = sp * sp, a = ab / abp, b = 1 - a;
    double sa = 1 / sqrt(a), bt = sqrt(b * (1 - abp) / (1 - ab));
    /* (1) the level's constants */
    for (k = 0; k < K; k++) {
      double ld = 0;
      for (j = 0; j < 2; j++) {
        double var = s * s * (G->lam[2 * k + j] + sig2);
        iv[k][j] = 1 / var;
        ld += log(var);
      }
      ln[k] = log(G->w[k]) - 0.5 * (ld + 2 * LOG2PI);
    }
    /* (2) per particle: the mixture's score, then the move */
    for (i = 0; i < N; i++) {
      double *xi = x + 2 * i, lmax = -INFINITY, sum = 0, lp, sc[2];
      for (k = 0; k < K; k++) {
        const double *U = G->U + 4 * k, *mu = G->mu + 2 * k;
        double y0 = xi[0] - s * mu[0], y1 = xi[1] - s * mu[1], q = 0, z[2];
        for (j = 0; j < 2; j++) {
          double c = U[j] * y0 + U[2 + j] * y1;
          z[j] = c * iv[k][j];
          q += c * z[j];
        }
        v[k][0] = U[0] * z[0] + U[1] * z[1];
        v[k][1] = U[2] * z[0] + U[3] * z[1];
        l[k] = ln[k] - 0.5 * q;
        if (l[k] > lmax) lmax = l[k];
      }
      for (k = 0; k < K; k++) sum += exp(l[k] - lmax);
      lp = lmax + log(sum);
      sc[0] = sc[1] = 0;
      for (k = 0; k < K; k++) {
        double r = exp(l[k] - lp);
        sc[0] -= r * v[k][0];
        sc[1] -= r * v[k][1];
      }
      for (j = 0; j < 2; j++)
        xi[j] = sa * (xi[j] + b * sc[j]) + bt * ol_rng_normal(&rng);
    }
  }
}

static double ddpm_engine (const ol_problem *p, int N, int steps, double *x0)
{
  const ol_method_type *m = ol_method_find("diffusion.ddpm");
  double par[16], t0;
  const double *xs;
  int i, rows, cols;
  ol_run_opts o;
  ol_err e;
  ol_run *r;
  for (i = 0; i < m->nparams; i++) {
    par[i] = m->params[i].def;
    if (strcmp(m->params[i].name, "steps") == 0) par[i] = steps;
    if (strcmp(m->params[i].name, "samples") == 0) par[i] = N;
    if (strcmp(m->params[i].name, "delta") == 0) par[i] = DELTA;
  }
  ol_run_opts_default(&o);
  o.iters = steps;
  o.cap = 16;
  o.metrics = OL_MSET_OF(OL_MET_LOSS);
  r = ol_run_new(p, m, par, &o, &e);
  if (r == NULL) {
    fprintf(stderr, "diffusion: %s\n", e.msg);
    exit(1);
  }
  t0 = bench_now();
  ol_run_advance(r, steps);
  t0 = bench_now() - t0;
  if (ol_run_reason(r) != OL_STOP_CONVERGED)
    fprintf(stderr, "diffusion: engine stopped: %s %s\n",
            ol_stop_name(ol_run_reason(r)), ol_run_message(r));
  ol_method_result(m, ol_run_state(r), "samples", &xs, &rows, &cols);
  x0[0] = xs[0];
  x0[1] = xs[1];
  ol_run_free(r);
  return t0;
}

int main (int argc, char **argv)
{
  int N = argc > 1 ? atoi(argv[1]) : 10000;
  int steps = argc > 2 ? atoi(argv[2]) : 100;
  int reps = argc > 3 ? atoi(argv[3]) : 5, k;
  double tf[64], te[64], xe[2], *xf;
  const ol_problem_type *pt = ol_problem_type_find("gmm");
  ol_pval pv[3] = {{0}};
  ol_err e;
  ol_problem *p = pt != NULL ? ol_problem_new(pt, pv, &e) : NULL;
  const ol_gmm *G = ol_gmm_of(p);
  if (G == NULL || G->n != 2 || G->K > KMAX || N < 1 || steps < 1 ||
      reps < 1 || reps > 64)
    return 1;
  if ((xf = malloc(2 * (size_t)N * sizeof *xf)) == NULL) return 1;
  for (k = 0; k < reps; k++) {
    double t0 = bench_now();
    ddpm_floor(G, N, steps, xf);
    tf[k] = bench_now() - t0;
    te[k] = ddpm_engine(p, N, steps, xe);
  }
  printf("DIFF floor  ns/particle-step %.2f  first particle %.17g %.17g\n",
         1e9 * bench_median(tf, reps) / ((double)N * steps), xf[0], xf[1]);
  printf("DIFF engine ns/particle-step %.2f  first particle %.17g %.17g\n",
         1e9 * bench_median(te, reps) / ((double)N * steps), xe[0], xe[1]);
  printf("DIFF ddpm step per particle: %.2fx the C floor (K = %d, n = 2, "
         "%d particles)%s\n", bench_median(te, reps) / bench_median(tf, reps),
         G->K, N, xf[0] == xe[0] && xf[1] == xe[1] ? ""
         : "  (finals differ!)");
  free(xf);
  ol_problem_free(p);
  return 0;
}
