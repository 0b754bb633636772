/*
** tests/c/t_mala.c -- MALA through the run engine against known moments.
**
** On gauss2d (mu = (1, -1), s1 = 1, s2 = 0.5, rho = 0.5) the chain's sample
** mean, variances and covariance must lie within 4 Monte Carlo standard
** errors of the truth, the standard error estimated by batch means (B
** batches of equal length; SE = sd(batch means) / sqrt(B)).  The same on
** an objective read as the density exp(-f) (quadratic with cond = 1 is
** N(0, I)).  The seed is fixed and printed.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "problem.h"
#include "run.h"
#include "tap.h"

#define SEED 424242u
#define BURN 2000
#define NB 100          /* batches */
#define BLEN 2000       /* steps per batch */

/* Batch-means check that the chain average of h(x) is within 4 SE of
** want.  batch[k] holds the batch means. */
static void check_mean (const char *label, const double *batch, double want)
{
  double m = 0, v = 0, se;
  int k;
  for (k = 0; k < NB; k++) m += batch[k];
  m /= NB;
  for (k = 0; k < NB; k++) v += (batch[k] - m) * (batch[k] - m);
  se = sqrt(v / (NB - 1) / NB);
  ok(fabs(m - want) <= 4 * se && se < 0.05,
     "mala: %s = %.4f, want %.4f (within 4 SE, SE %.4f)", label, m, want,
     se);
}

/* Run MALA with step h from x0 (NULL: the problem's) and collect batch
** means of x1, x2, (x1-c1)^2, (x2-c2)^2, (x1-c1)(x2-c2) about c. */
static ol_run *chain (const ol_problem *p, double h, const double *c,
                      double batch[5][NB])
{
  ol_err e;
  ol_run_opts o;
  ol_run *r;
  double par[4] = {0, 0, 0.574, 1};   /* h, warmup 0: no adaptation */
  long t;
  int k;
  ol_run_opts_default(&o);
  o.iters = BURN + (long)NB * BLEN;
  o.seed = SEED;
  o.metrics = OL_MSET_OF(OL_MET_LOSS, OL_MET_ACCEPT);
  par[0] = h;
  r = ol_run_new(p, ol_method_find("mala"), par, &o, &e);
  if (r == NULL) {
    diag("mala: %s", e.msg);
    return NULL;
  }
  ol_run_advance(r, BURN);
  memset(batch, 0, sizeof(double) * 5 * NB);
  for (k = 0; k < NB; k++)
    for (t = 0; t < BLEN; t++) {
      const double *x;
      double d1, d2;
      ol_run_step(r);
      x = ol_run_x(r);
      d1 = x[0] - c[0];
      d2 = x[1] - c[1];
      batch[0][k] += x[0] / BLEN;
      batch[1][k] += x[1] / BLEN;
      batch[2][k] += d1 * d1 / BLEN;
      batch[3][k] += d2 * d2 / BLEN;
      batch[4][k] += d1 * d2 / BLEN;
    }
  return r;
}

static ol_problem *mk (const char *name, ol_err *e)
{
  const ol_problem_type *t = ol_problem_type_find(name);
  ol_pval v[8];
  int i;
  memset(v, 0, sizeof v);
  for (i = 0; i < t->nparams; i++) v[i].num = t->params[i].def;
  if (strcmp(name, "quadratic") == 0) {
    v[0].num = 3;   /* n */
    v[1].num = 1;   /* cond: H = I */
  }
  return ol_problem_new(t, v, e);
}

int main (void)
{
  static double batch[5][NB];
  ol_err e;
  ol_problem *p = mk("gauss2d", &e);
  ol_run *r;
  double acc, zero[2] = {0, 0};
  diag("seed %u, %d burn-in + %d x %d steps", SEED, BURN, NB, BLEN);

  r = chain(p, 0.2, p->mean, batch);
  if (!ok(r != NULL, "mala: runs on gauss2d")) return done();
  is_int(ol_run_reason(r), OL_STOP_BUDGET, "mala: stops by budget only");
  check_mean("E x1", batch[0], p->mean[0]);
  check_mean("E x2", batch[1], p->mean[1]);
  check_mean("Var x1", batch[2], p->cov[0]);
  check_mean("Var x2", batch[3], p->cov[3]);
  check_mean("Cov x1 x2", batch[4], p->cov[1]);
  acc = ol_run_last(r, OL_MET_ACCEPT);
  ok(acc > 0.5 && acc < 1, "mala: acceptance rate %.3f in (0.5, 1)", acc);
  ok(ol_run_nfev(r) + ol_run_ngev(r) > 0, "mala: oracle calls counted");
  ol_run_free(r);

  /* a huge step: most proposals rejected, chain still exact and finite */
  {
    double par[4] = {50, 0, 0.574, 1};
    ol_run_opts o;
    ol_run_opts_default(&o);
    o.iters = 2000;
    o.seed = SEED;
    o.metrics = OL_MSET_OF(OL_MET_ACCEPT);
    r = ol_run_new(p, ol_method_find("mala"), par, &o, &e);
    if (r != NULL) ol_run_advance(r, 2000);
    ok(r != NULL && ol_run_reason(r) == OL_STOP_BUDGET
       && ol_run_last(r, OL_MET_ACCEPT) < 0.2,
       "mala: h = 50 mostly rejects (accept %.3f)",
       r ? ol_run_last(r, OL_MET_ACCEPT) : NAN);
    ol_run_free(r);
  }
  ol_problem_free(p);

  /* an objective as the density exp(-f): N(0, I) in 3-D */
  p = mk("quadratic", &e);
  r = chain(p, 0.5, zero, batch);
  if (ok(r != NULL, "mala: runs on an objective (exp(-f))")) {
    check_mean("E x1 under exp(-|x|^2/2)", batch[0], 0);
    check_mean("E x2 under exp(-|x|^2/2)", batch[1], 0);
    check_mean("E x1^2 under exp(-|x|^2/2)", batch[2], 1);
    check_mean("E x1 x2 under exp(-|x|^2/2)", batch[4], 0);
  }
  ol_run_free(r);
  ol_problem_free(p);

  /* the step must be positive */
  p = mk("gauss2d", &e);
  {
    double par[4] = {0, 0, 0.574, 1};
    r = ol_run_new(p, ol_method_find("mala"), par, NULL, &e);
    ok(r == NULL && e.code == OL_EINVAL, "mala: h = 0 is refused (%s)",
       e.msg);
    ol_run_free(r);
  }
  ol_problem_free(p);
  return done();
}
