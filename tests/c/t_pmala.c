/*
** tests/c/t_pmala.c -- the preconditioned Langevin sampler pmala (SoftAbs
** Hessian metric, Girolami & Calderhead's simplified manifold MALA)
** against exact moments, with Monte Carlo errors from core/diag.c.
**
** (1) A 10-D Gaussian of condition 100 (gaussian{n = 10, cond = 100}):
**     its Hessian is the precision P, so G = P and the proposal is, in
**     the whitened coordinates P^1/2 x, y = (1 - h) x + sqrt(2 h) xi: the
**     same AR(1) in every direction, blind to the conditioning.  At h =
**     0.5 every mean and variance within 4 MCSE, acceptance above 0.5 and
**     the bulk-ESS of every coordinate above a sixth of the draws (a
**     random walk at condition 100 gets a few hundredths), with the
**     metric position dependent and fixed at the start alike.
** (2) Haario's banana (b = 0.03, Var y2 = 19): curvature changes sign over
**     the support (H11 < 0 where t < -1/(200 b)), SoftAbs keeps G positive
**     definite; means and variances within 4 MCSE.
** 4 chains from x0 + 2 z of one printed seed; R-hat < 1.01.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "olt.h"
#include "tap.h"

#define SEED 20260412u
#define CHAINS 4

/* CHAINS chains of burn + draws steps; the post-burn draws, chain-major.
** *acc: accepted / steps after the burn. */
static double *chains (const ol_problem *p, const double *par, long burn,
                       long draws, double *acc)
{
  int n = p->n, c, j;
  double *X = malloc(sizeof(double) * (size_t)(CHAINS * draws * n));
  long nacc = 0;
  ol_rng r0;
  ol_rng_seed(&r0, SEED, 77);
  for (c = 0; c < CHAINS; c++) {
    ol_run_opts o;
    ol_err e;
    ol_run *r;
    double x0[64];
    long i, a0 = 0;
    for (j = 0; j < n; j++) x0[j] = p->x0[j] + 2 * ol_rng_normal(&r0);
    ol_run_opts_default(&o);
    o.iters = burn + draws;
    o.seed = SEED;
    o.stream = (unsigned)c;
    o.x0 = x0;
    o.cap = 16;
    o.metrics = OL_MSET_OF(OL_MET_ACCEPT);
    r = ol_run_new(p, ol_method_find("pmala"), par, &o, &e);
    if (r == NULL) {
      diag("pmala: %s", e.msg);
      free(X);
      return NULL;
    }
    for (i = 0; i < burn + draws; i++) {
      ol_run_advance(r, 1);
      if (i == burn - 1)
        a0 = (long)(ol_run_last(r, OL_MET_ACCEPT) * (double)burn + 0.5);
      if (i >= burn)
        memcpy(X + ((size_t)c * draws + (i - burn)) * n, ol_run_x(r),
               sizeof(double) * (size_t)n);
    }
    nacc += (long)(ol_run_last(r, OL_MET_ACCEPT) * (double)(burn + draws)
                   + 0.5) - a0;
    ol_run_free(r);
  }
  *acc = (double)nacc / (double)(CHAINS * draws);
  return X;
}

/* Means and variances of every coordinate against (mu, diag of cov). */
static void check (const char *who, const double *X, long draws, int n,
                   const double *mu, const double *cov, int iid)
{
  long S = CHAINS * draws, i;
  double *h = malloc(sizeof(double) * (size_t)S), zm = 0, zv = 0, rh = 0;
  double essmin = INFINITY;
  int j, k;
  ol_err e;
  for (j = 0; j < n; j++)
    for (k = 0; k < 2; k++) {
      ol_draws d = ol_draws_plain(h, CHAINS, draws);
      ol_summary s;
      for (i = 0; i < S; i++) {
        double x = X[(size_t)i * n + j];
        h[i] = k == 0 ? x : (x - mu[j]) * (x - mu[j]);
      }
      ol_diag_summary(&d, &s, &e);
      if (k == 0) {
        zm = fmax(zm, fabs(s.mean - mu[j]) / s.mcse_mean);
        rh = fmax(rh, s.rhat);
        essmin = fmin(essmin, s.ess_bulk);
      }
      else zv = fmax(zv, fabs(s.mean - cov[j * n + j]) / s.mcse_mean);
    }
  ok(zm <= 4 && zv <= 4 && rh < 1.01, "%s: all %d means and variances "
     "within 4 MCSE (worst %.2f and %.2f), max R-hat %.4f, min bulk-ESS "
     "%.0f of %ld draws", who, n, zm, zv, rh, essmin, S);
  if (iid)
    ok(essmin > S / 6.0, "%s: min bulk-ESS %.0f > S / 6 = %.0f", who,
       essmin, S / 6.0);
  free(h);
}

int main (void)
{
  ol_problem *g = olt_problem("gaussian", NULL, "n", 10.0, "cond", 100.0,
                              (char *)NULL);
  ol_problem *b = olt_problem("banana", NULL, "b", 0.03, (char *)NULL);
  double par[3], acc, *X;
  int fixed;
  diag("seed %u, %d chains", SEED, CHAINS);
  if (g == NULL || b == NULL) return done();
  for (fixed = 0; fixed < 2; fixed++) {
    char who[80];
    olt_params(ol_method_find("pmala"), par, "h", 0.5, "fixed",
               (double)fixed, (char *)NULL);
    snprintf(who, sizeof who, "pmala h = 0.5 (%s) on a 10-D Gaussian of "
             "condition 100", fixed ? "fixed metric" : "metric at x");
    X = chains(g, par, 200, 5000, &acc);
    if (ok(X != NULL, "%s: runs (acceptance %.3f)", who, acc)) {
      check(who, X, 5000, 10, g->mean, g->cov, 1);
      ok(acc > 0.5, "%s: acceptance %.3f > 0.5 with G = P", who, acc);
    }
    free(X);
  }
  olt_params(ol_method_find("pmala"), par, "h", 0.5, (char *)NULL);
  X = chains(b, par, 500, 20000, &acc);
  if (ok(X != NULL, "pmala h = 0.5 on the banana b = 0.03: runs "
         "(acceptance %.3f)", acc))
    check("pmala on the banana b = 0.03", X, 20000, 2, b->mean, b->cov, 0);
  free(X);
  ol_problem_free(g);
  ol_problem_free(b);
  return done();
}
