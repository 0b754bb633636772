/*
** tests/c/t_smetrics.c -- the sampler diagnostics among the metrics (ess,
** rhat, meanerr, kl, w2: core/metrics.c) against their definitions on the
** run's own kept draws.
**
** A run of NUTS (fixed seed, printed) on a 2-D Gaussian with mu = (1, -2),
** Sigma = [[2, 0.6], [0.6, 0.5]] keeps its post-warmup draws; its last
** recorded metrics are compared with the same quantities computed here
** from those draws by hand: m and S (two passes, divisor k - 1), then
**   meanerr = ||m - mu||,
**   kl = 1/2 (tr(Sigma^-1 S) + (mu - m)' Sigma^-1 (mu - m) - 2
**             + log det Sigma - log det S)      (2 x 2 inverse and dets)
**   w2^2 = ||m - mu||^2 + tr S + tr Sigma - 2 sqrt(tr(S Sigma)
**          + 2 sqrt(det S det Sigma))           (2 x 2: tr M^1/2 =
**                                                sqrt(tr M + 2 sqrt(det M)))
** to 1e-9 relative; ess and rhat equal diag.c's min bulk-ESS and max R-hat
** over the coordinates of the same draws (one chain) to 1e-12 (the last
** step's record sees the draws kept before that step).  A draws cap
** small enough to thin is checked the same way on the thinned rows.
** Also: the metrics are NaN before any draw is kept (warmup), and kl is
** unavailable, with a message, on a target without known moments.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "metrics.h"
#include "olt.h"
#include "run.h"
#include "tap.h"

#define SEED 97531u

static const double MU[2] = {1, -2};
static const double SIG[4] = {2, 0.6, 0.6, 0.5};

/* Hand-computed meanerr, kl, w2 of the first k rows of X (cols wide,
** x at offset OL_DRAW_COLS). */
static void by_hand (const double *X, long k, int cols, double out[3])
{
  double m[2] = {0, 0}, S[3] = {0, 0, 0}, d0, d1, detS, detG, ig[3];
  double tr, q, trSG;
  long i;
  for (i = 0; i < k; i++) {
    m[0] += X[i * cols + OL_DRAW_COLS];
    m[1] += X[i * cols + OL_DRAW_COLS + 1];
  }
  m[0] /= (double)k;
  m[1] /= (double)k;
  for (i = 0; i < k; i++) {
    double a = X[i * cols + OL_DRAW_COLS] - m[0];
    double b = X[i * cols + OL_DRAW_COLS + 1] - m[1];
    S[0] += a * a;
    S[1] += a * b;
    S[2] += b * b;
  }
  S[0] /= (double)(k - 1);
  S[1] /= (double)(k - 1);
  S[2] /= (double)(k - 1);
  d0 = MU[0] - m[0];
  d1 = MU[1] - m[1];
  detS = S[0] * S[2] - S[1] * S[1];
  detG = SIG[0] * SIG[3] - SIG[1] * SIG[1];
  ig[0] = SIG[3] / detG;
  ig[1] = -SIG[1] / detG;
  ig[2] = SIG[0] / detG;
  tr = ig[0] * S[0] + 2 * ig[1] * S[1] + ig[2] * S[2];
  q = ig[0] * d0 * d0 + 2 * ig[1] * d0 * d1 + ig[2] * d1 * d1;
  trSG = S[0] * SIG[0] + 2 * S[1] * SIG[1] + S[2] * SIG[3];
  out[0] = sqrt(d0 * d0 + d1 * d1);
  out[1] = 0.5 * (tr + q - 2 + log(detG) - log(detS));
  out[2] = sqrt(d0 * d0 + d1 * d1 + S[0] + S[2] + SIG[0] + SIG[3]
                - 2 * sqrt(trSG + 2 * sqrt(detS * detG)));
}

static int close_to (double a, double b, double rel)
{
  return fabs(a - b) <= rel * fmax(fabs(b), 1e-300);
}

static ol_problem *target (void)
{
  ol_problem *p;
  ol_err e;
  const ol_problem_type *pt = ol_problem_type_find("gaussian");
  ol_pval pv[16];
  int i;
  memset(pv, 0, sizeof pv);
  for (i = 0; i < pt->nparams; i++) {
    pv[i].num = pt->params[i].def;
    if (strcmp(pt->params[i].name, "n") == 0) pv[i].num = 2;
    if (strcmp(pt->params[i].name, "cov") == 0) {
      pv[i].arr = SIG;
      pv[i].rows = pv[i].cols = 2;
    }
    if (strcmp(pt->params[i].name, "mu") == 0) {
      pv[i].arr = MU;
      pv[i].rows = 1;
      pv[i].cols = 2;
    }
  }
  p = ol_problem_new(pt, pv, &e);
  if (p == NULL) diag("gaussian: %s", e.msg);
  return p;
}

static const ol_mset MET = OL_MSET(OL_MET_ESS, OL_MET_RHAT, OL_MET_MEANERR,
                                   OL_MET_KL, OL_MET_W2);

/* NUTS with warmup 500 and iters post-warmup steps keeping at most cap
** draws; the checks against the kept rows. */
static void check_run (const ol_problem *p, long iters, long cap)
{
  const ol_method_type *m = ol_method_find("nuts");
  double par[16], hand[3], ess = INFINITY, rhat = -INFINITY;
  ol_run_opts o;
  ol_err e;
  ol_run *r;
  long rows, thin, k;
  const double *X;
  int j, cols = OL_DRAW_COLS + 2;
  olt_params(m, par, "warmup", 500.0, (char *)NULL);
  ol_run_opts_default(&o);
  o.seed = SEED;
  o.iters = 500 + iters;
  o.warmup = 500;
  o.draws = cap * cols;
  o.metrics = MET;
  r = ol_run_new(p, m, par, &o, &e);
  if (!ok(r != NULL, "run: NUTS on the 2-D Gaussian with ess, rhat, "
          "meanerr, kl, w2 (%s)", r == NULL ? e.msg : "ok"))
    return;
  ol_run_advance(r, o.iters);
  X = ol_run_draws(r, &rows, &thin, NULL);
  /* the last record saw the rows kept before the last step */
  k = thin == 1 ? rows - 1 : rows;
  diag("%ld post-warmup steps, %ld rows kept (thin %ld), the last record "
       "saw %ld", iters, rows, thin, k);
  by_hand(X, k, cols, hand);
  for (j = 0; j < 2; j++) {
    ol_draws v;
    double a, b;
    v.x = X + OL_DRAW_COLS + j;
    v.m = 1;
    v.n = k;
    v.dstride = cols;
    v.cstride = k * cols;
    ol_diag_ess_bulk(&v, &a, &e);
    ol_diag_rhat(&v, &b, &e);
    ess = fmin(ess, a);
    rhat = fmax(rhat, b);
  }
  ok(close_to(ol_run_last(r, OL_MET_MEANERR), hand[0], 1e-9),
     "meanerr %.12g = ||m - mu|| by hand %.12g (thin %ld)",
     ol_run_last(r, OL_MET_MEANERR), hand[0], thin);
  ok(close_to(ol_run_last(r, OL_MET_KL), hand[1], 1e-9),
     "kl %.12g = the 2-D closed form by hand %.12g (thin %ld)",
     ol_run_last(r, OL_MET_KL), hand[1], thin);
  ok(close_to(ol_run_last(r, OL_MET_W2), hand[2], 1e-9),
     "w2 %.12g = the 2-D closed form by hand %.12g (thin %ld)",
     ol_run_last(r, OL_MET_W2), hand[2], thin);
  ok(close_to(ol_run_last(r, OL_MET_ESS), ess, 1e-12),
     "ess %.10g = diag.c's min bulk-ESS of the same draws %.10g",
     ol_run_last(r, OL_MET_ESS), ess);
  ok(close_to(ol_run_last(r, OL_MET_RHAT), rhat, 1e-12),
     "rhat %.10g = diag.c's max split-R-hat of the same draws %.10g",
     ol_run_last(r, OL_MET_RHAT), rhat);
  ok(ol_run_last(r, OL_MET_KL) < 0.01 && ol_run_last(r, OL_MET_W2) < 0.1,
     "kl %.4f and w2 %.4f small for %ld NUTS draws of the target itself",
     ol_run_last(r, OL_MET_KL), ol_run_last(r, OL_MET_W2), k);
  ol_run_free(r);
}

int main (void)
{
  ol_problem *p = target();
  ol_problem *b = olt_problem("rosenbrock", NULL, (char *)NULL);
  ol_run_opts o;
  ol_err e;
  ol_run *r;
  diag("seed %u", SEED);
  if (p == NULL || b == NULL) return done();
  check_run(p, 4000, 100000);
  check_run(p, 4000, 1000);   /* thinned: 1000 rows cap */
  /* before any draw: NaN */
  ol_run_opts_default(&o);
  o.iters = 600;
  o.warmup = 500;
  o.draws = 1000 * (OL_DRAW_COLS + 2);
  o.metrics = MET;
  {
    double par[16];
    olt_params(ol_method_find("nuts"), par, "warmup", 500.0, (char *)NULL);
    r = ol_run_new(p, ol_method_find("nuts"), par, &o, &e);
    if (r != NULL) {
      ol_run_advance(r, 100);
      ok(isnan(ol_run_last(r, OL_MET_KL)) && isnan(ol_run_last(r, OL_MET_ESS))
         && isnan(ol_run_last(r, OL_MET_MEANERR)), "during warmup (no "
         "kept draw) kl, ess, meanerr are NaN");
      ol_run_free(r);
    }
  }
  /* a target without known moments: kl is unavailable, with a message */
  o.metrics = OL_MSET_OF(OL_MET_KL);
  {
    double par[16];
    olt_params(ol_method_find("nuts"), par, (char *)NULL);
    r = ol_run_new(b, ol_method_find("nuts"), par, &o, &e);
    ok(r == NULL && e.code == OL_EINVAL && strstr(e.msg, "kl") != NULL,
       "kl on rosenbrock is refused: %s", r == NULL ? e.msg : "(accepted)");
    ol_run_free(r);
  }
  ol_problem_free(p);
  ol_problem_free(b);
  return done();
}
