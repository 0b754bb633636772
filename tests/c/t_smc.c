/*
** tests/c/t_smc.c -- problem.ssm's truth and the SMC methods (core/smc/):
**
**   - the Kalman filter's log-likelihood, the RTS smoother's means,
**     variances and lag-one covariances, the posterior covariance kept
**     in p->cov and the three functionals' expectations equal a dense
**     Gaussian conditioning of the joint (x, y) (LAPACK Cholesky) at
**     T = 8, two settings (one explosive, |F| > 1), to 1e-10 relative;
**     the density U(x) = -log p(x, y) equals the Gaussian posterior's
**     quadratic form minus the log-likelihood at random x (1e-9), and its
**     gradient its finite differences;
**   - bad input the core sees (the binding checks the table's ranges
**     first: tests/lua/smc.lua): T < 1, |phi| >= 1 and a simulated path
**     that overflows are refused by name.
*/
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "olt.h"
#include "problems/ssm.h"
#include "tap.h"

#define SEED 20261207u
#define LOG2PI 1.8378770664093454836
#define TD 8

static double relerr (double got, double want)
{
  return fabs(got - want) / fmax(1, fabs(want));
}

/* Dense truth of the lg model M: posterior mean mu, covariance S (TD x
** TD), log-likelihood. */
static double dense (const ol_ssm *M, double *mu, double *S)
{
  int T = M->T, s, t;
  double V[TD], mp[TD], Sxx[TD * TD], Syy[TD * TD], B[TD * TD];
  double r[TD] = {0};
  double ll = 0, quad = 0;
  for (t = 0; t < T; t++) {
    V[t] = t == 0 ? M->P0 : M->a * M->a * V[t - 1] + M->q;
    mp[t] = t == 0 ? M->m0 : M->a * mp[t - 1];
  }
  for (s = 0; s < T; s++)
    for (t = 0; t < T; t++) {
      int lo = s < t ? s : t, k = abs(t - s);
      Sxx[s * T + t] = pow(M->a, k) * V[lo];
      Syy[s * T + t] = M->G * M->G * Sxx[s * T + t] + (s == t ? M->R : 0);
    }
  if (LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', T, Syy, T) != 0) return NAN;
  for (t = 0; t < T; t++) {
    r[t] = M->y[t] - M->G * mp[t];
    ll -= log(Syy[t * T + t]);
  }
  /* B = Syy^{-1} (G Sxx), r := Syy^{-1} r */
  for (s = 0; s < T * T; s++) B[s] = M->G * Sxx[s];
  memcpy(mu, r, sizeof r);
  LAPACKE_dpotrs(LAPACK_ROW_MAJOR, 'L', T, T, Syy, T, B, T);
  LAPACKE_dpotrs(LAPACK_ROW_MAJOR, 'L', T, 1, Syy, T, mu, 1);
  for (t = 0; t < T; t++) quad += r[t] * mu[t];
  ll -= 0.5 * (T * LOG2PI + quad);
  /* mu = mp + G Sxx Syy^{-1} r, S = Sxx - G Sxx Syy^{-1} G Sxx */
  for (s = 0; s < T; s++) {
    double v = 0;
    for (t = 0; t < T; t++) v += M->G * Sxx[s * T + t] * mu[t];
    r[s] = mp[s] + v;
  }
  memcpy(mu, r, sizeof r);
  for (s = 0; s < T; s++)
    for (t = 0; t < T; t++) {
      double v = 0;
      int k;
      for (k = 0; k < T; k++) v += M->G * Sxx[s * T + k] * B[k * T + t];
      S[s * T + t] = Sxx[s * T + t] - v;
    }
  return ll;
}

static void test_kalman (double F, double G, double Q, double R, double m0,
                         double P0, double seed)
{
  ol_problem *p = olt_problem("ssm", NULL, "T", (double)TD, "F", F, "G", G,
                              "Q", Q, "R", R, "m0", m0, "P0", P0, "seed",
                              seed, (char *)NULL);
  const ol_ssm *M = ol_ssm_of(p);
  double mu[TD], S[TD * TD], ll, worst = 0, wcov = 0, tr[3] = {0, 0, 0};
  double L[TD * TD], x[TD], d[TD], z[TD], ldet = 0, uerr = 0;
  ol_rng rng;
  int s, t, k;
  if (!ok(M != NULL, "ssm F = %g: made, its model found", F)) return;
  ll = dense(M, mu, S);
  is_near(relerr(M->loglik, ll), 0, 1e-10, "F = %g: Kalman log-likelihood "
          "%.12g = dense %.12g", F, M->loglik, ll);
  for (t = 0; t < TD; t++) {
    worst = fmax(worst, relerr(M->ms[t], mu[t]));
    worst = fmax(worst, relerr(M->Ps[t], S[t * TD + t]));
    if (t > 0) worst = fmax(worst, relerr(M->C[t], S[(t - 1) * TD + t]));
    for (s = 0; s < TD; s++)
      wcov = fmax(wcov, relerr(p->cov[s * TD + t], S[s * TD + t]));
    tr[0] += mu[t];
    tr[1] += mu[t] * mu[t] + S[t * TD + t];
    if (t > 0) tr[2] += mu[t - 1] * mu[t] + S[(t - 1) * TD + t];
  }
  is_near(worst, 0, 1e-10, "F = %g: RTS means, variances and lag-one "
          "covariances equal the dense conditioning (max rel. err %.2g)", F,
          worst);
  is_near(wcov, 0, 1e-10, "F = %g: p->cov is the dense posterior "
          "covariance (max rel. err %.2g)", F, wcov);
  for (k = 0; k < 3; k++)
    is_near(relerr(M->truth[k], tr[k]), 0, 1e-10, "F = %g: E[S_h | y] for "
            "h = %s: %.12g = dense %.12g", F, k == 0 ? "sum x"
            : k == 1 ? "sum x^2" : "sum x_{t-1} x_t", M->truth[k], tr[k]);
  /* U(x) = 1/2 (x - mu)' S^-1 (x - mu) + 1/2 log det(2 pi S) - loglik */
  memcpy(L, S, sizeof L);
  LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', TD, L, TD);
  for (t = 0; t < TD; t++) ldet += 2 * log(L[t * TD + t]);
  ol_rng_seed(&rng, SEED, 3);
  for (k = 0; k < 5; k++) {
    double U, quad = 0, want;
    for (t = 0; t < TD; t++) {
      x[t] = mu[t] + 2 * ol_rng_normal(&rng);
      d[t] = z[t] = x[t] - mu[t];
    }
    LAPACKE_dpotrs(LAPACK_ROW_MAJOR, 'L', TD, 1, L, TD, z, 1);
    for (t = 0; t < TD; t++) quad += d[t] * z[t];
    want = 0.5 * quad + 0.5 * (TD * LOG2PI + ldet) - M->loglik;
    U = olt_fval(p, x);
    uerr = fmax(uerr, relerr(U, want));
  }
  is_near(uerr, 0, 1e-9, "F = %g: U(x) = -log p(x, y) is the posterior's "
          "quadratic form minus log p(y) at 5 random x (max rel. err %.2g)",
          F, uerr);
  ok(olt_graderr(p, x) < 1e-6, "F = %g: grad U matches its differences "
     "(%.2g)", F, olt_graderr(p, x));
  ol_problem_free(p);
}

static void test_bad (void)
{
  ol_err e;
  ol_problem *p;
  p = olt_problem("ssm", &e, "T", 0.0, (char *)NULL);
  ok(p == NULL && strstr(e.msg, "T") != NULL, "T = 0 refused (%s)", e.msg);
  ol_problem_free(p);
  p = olt_problem("ssm", &e, "kind", 1.0, "phi", 1.0, (char *)NULL);
  ok(p == NULL && strstr(e.msg, "phi") != NULL, "phi = 1 refused (%s)",
     e.msg);
  ol_problem_free(p);
  p = olt_problem("ssm", &e, "F", 3.0, "T", 2000.0, (char *)NULL);
  ok(p == NULL && strstr(e.msg, "overflow") != NULL, "F = 3, T = 2000 "
     "refused (%s)", e.msg);
  ol_problem_free(p);
  p = olt_problem("ssm", &e, "kind", 1.0, "T", 50.0, (char *)NULL);
  ok(p != NULL && ol_ssm_of(p) != NULL && isnan(ol_ssm_of(p)->truth[0])
     && p->mean == NULL, "sv: made, no closed-form truth");
  if (p != NULL) {
    double x[50];
    ol_rng rng;
    int t;
    ol_rng_seed(&rng, SEED, 4);
    for (t = 0; t < 50; t++) x[t] = ol_rng_normal(&rng);
    ok(olt_graderr(p, x) < 1e-6, "sv: grad U matches its differences "
       "(%.2g)", olt_graderr(p, x));
  }
  ol_problem_free(p);
}

int main (void)
{
  diag("seed %u", SEED);
  test_kalman(0.9, 1.3, 0.7, 0.4, 0.5, 2.0, 3);
  test_kalman(-1.2, 0.5, 0.2, 1.5, -1.0, 0.3, 4);
  test_bad();
  return done();
}
