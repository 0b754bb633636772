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
**     that overflows are refused by name;
**   - the bootstrap filter's likelihood estimate is unbiased: the mean of
**     Zhat / Z (Z the Kalman likelihood) over 4000 passes at T = 10, N =
**     20 is 1 within 4 standard errors;
**   - PaRIS (pf.h) on lg, T = 50, E[sum x_t | y]: at N = 16, 64, 256 its
**     bias is significant at N = 16 (> 4 se) and N bias is the same at
**     the three N within 4 combined se (bias ~ c / N), its root mean
**     square error falls with N; at N = 256 sum x^2 and sum x_{t-1} x_t
**     are within 4 se + |c_h| / N of their RTS values, c_h = 16 times
**     their bias at N = 16;
**   - PPG (conditional passes, paths drawn from the backward indices),
**     N = 16, 10 sweeps, burnin 3: its bias is within 3 se of 0 over 300
**     chains, where PaRIS's at N = 16 is more than 4 se from 0; a long
**     chain (N = 4, 2000 sweeps) averages to the truth within 4 se of
**     the mean of 6 chains;
**   - through the run: smc.paris and smc.ppg record smooth, pfess (and
**     paris loglik), ppg's x is a path; a non-ssm problem is refused
**     naming problem.ssm; with the interrupt flag set a pass stops with
**     OL_EINTR.
** Seeds fixed and printed.
*/
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "olt.h"
#include "problems/ssm.h"
#include "run.h"
#include "smc/pf.h"
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

/* Mean and standard error of v[0..n). */
static void meanse (const double *v, int n, double *m, double *se)
{
  double s = 0, s2 = 0;
  int i;
  for (i = 0; i < n; i++) s += v[i];
  *m = s / n;
  for (i = 0; i < n; i++) s2 += (v[i] - *m) * (v[i] - *m);
  *se = sqrt(s2 / (n - 1) / n);
}

static ol_problem *lg (int T, double seed)
{
  return olt_problem("ssm", NULL, "T", (double)T, "F", 0.9, "Q", 1.0, "R",
                     1.0, "seed", seed, (char *)NULL);
}

/* R passes of PaRIS (N, functional h) on M: estimates into v. */
static void passes (const ol_ssm *M, int N, int h, int R, uint64_t stream,
                    double *v)
{
  ol_pf f;
  ol_rng rng;
  ol_err e;
  int r;
  ol_rng_seed(&rng, SEED, stream);
  if (ol_pf_init(&f, M, N, 2, h, 0, "test", &e) != OL_OK) {
    diag("%s", e.msg);
    return;
  }
  for (r = 0; r < R; r++) {
    ol_pf_pass(&f, NULL, &rng, NULL, &e);
    v[r] = f.est;
  }
  ol_pf_fini(&f);
}

static void test_loglik (void)
{
  ol_problem *p = lg(10, 5);
  const ol_ssm *M = ol_ssm_of(p);
  enum { R = 4000 };
  static double v[R];
  ol_pf f;
  ol_rng rng;
  ol_err e;
  double m, se;
  int r;
  ol_rng_seed(&rng, SEED, 10);
  ol_pf_init(&f, M, 20, 2, OL_SSM_HSUM, 0, "test", &e);
  for (r = 0; r < R; r++) {
    ol_pf_pass(&f, NULL, &rng, NULL, &e);
    v[r] = exp(f.loglik - M->loglik);
  }
  ol_pf_fini(&f);
  meanse(v, R, &m, &se);
  ok(fabs(m - 1) < 4 * se, "bootstrap PF: mean of Zhat / Z over %d passes "
     "(T = 10, N = 20) = %.4f, within 4 se (%.4f) of 1", R, m, se);
  ol_problem_free(p);
}

static void test_paris (double *bias16, double *se16)
{
  ol_problem *p = lg(50, 6);
  const ol_ssm *M = ol_ssm_of(p);
  static const int Ns[3] = {16, 64, 256}, Rs[3] = {1000, 600, 300};
  static double v[1000];
  double b[3], se[3], rmse[3], c16[3];
  int k, i, h;
  for (k = 0; k < 3; k++) {
    double s2 = 0;
    passes(M, Ns[k], OL_SSM_HSUM, Rs[k], 20 + k, v);
    meanse(v, Rs[k], &b[k], &se[k]);
    b[k] -= M->truth[OL_SSM_HSUM];
    for (i = 0; i < Rs[k]; i++)
      s2 += (v[i] - M->truth[OL_SSM_HSUM]) * (v[i] - M->truth[OL_SSM_HSUM]);
    rmse[k] = sqrt(s2 / Rs[k]);
    diag("PaRIS N = %3d: bias %.4f (se %.4f), N bias %.2f, rmse %.4f",
         Ns[k], b[k], se[k], Ns[k] * b[k], rmse[k]);
  }
  *bias16 = b[0];
  *se16 = se[0];
  ok(b[0] > 4 * se[0], "PaRIS N = 16: bias %.3f is significant (> 4 se = "
     "%.3f)", b[0], 4 * se[0]);
  for (k = 1; k < 3; k++) {
    double d = Ns[k] * b[k] - Ns[0] * b[0];
    double s = hypot(Ns[k] * se[k], Ns[0] * se[0]);
    ok(fabs(d) < 4 * s, "PaRIS: N bias at N = %d (%.2f) equals N = 16's "
       "(%.2f) within 4 combined se (%.2f): bias ~ 1/N", Ns[k],
       Ns[k] * b[k], Ns[0] * b[0], 4 * s);
  }
  ok(rmse[0] > rmse[1] && rmse[1] > rmse[2], "PaRIS: rmse falls with N "
     "(%.3f, %.3f, %.3f)", rmse[0], rmse[1], rmse[2]);
  /* the other two functionals */
  for (h = OL_SSM_HSUMSQ; h <= OL_SSM_HCROSS; h++) {
    double m16, s16, m, s;
    passes(M, 16, h, 1000, 30 + h, v);
    meanse(v, 1000, &m16, &s16);
    c16[h] = 16 * (m16 - M->truth[h]);
    passes(M, 256, h, 300, 40 + h, v);
    meanse(v, 300, &m, &s);
    ok(fabs(m - M->truth[h]) < 4 * s + fabs(c16[h]) / 256, "PaRIS N = 256, "
       "h = %s: mean %.4f vs RTS %.4f, within 4 se (%.4f) + |c|/N (%.4f)",
       h == OL_SSM_HSUMSQ ? "sumsq" : "cross", m, M->truth[h], 4 * s,
       fabs(c16[h]) / 256);
  }
  ol_problem_free(p);
}

static void test_ppg (double bias16, double se16)
{
  ol_problem *p = lg(50, 6);
  const ol_ssm *M = ol_ssm_of(p);
  enum { R = 300, K = 10, K0 = 3 };
  static double v[R], path[50], w[6];
  ol_pf f;
  ol_rng rng;
  ol_err e;
  double m, se;
  int r, k;
  ol_rng_seed(&rng, SEED, 50);
  ol_pf_init(&f, M, 16, 2, OL_SSM_HSUM, 1, "test", &e);
  for (r = 0; r < R; r++) {
    double s = 0;
    for (k = 0; k < K; k++) {
      ol_pf_pass(&f, k > 0 ? path : NULL, &rng, NULL, &e);
      ol_pf_path(&f, &rng, path);
      if (k >= K0) s += f.est;
    }
    v[r] = s / (K - K0) - M->truth[OL_SSM_HSUM];
  }
  ol_pf_fini(&f);
  meanse(v, R, &m, &se);
  ok(fabs(m) < 3 * se && fabs(bias16) > 4 * se16, "PPG N = 16, %d sweeps, "
     "burnin %d: bias %.4f within 3 se (%.4f) of 0; PaRIS N = 16: %.4f "
     "(se %.4f)", K, K0, m, 3 * se, bias16, se16);
  /* a long chain at N = 4 */
  ol_pf_init(&f, M, 4, 2, OL_SSM_HSUM, 1, "test", &e);
  for (r = 0; r < 6; r++) {
    double s = 0;
    for (k = 0; k < 2000; k++) {
      ol_pf_pass(&f, k > 0 ? path : NULL, &rng, NULL, &e);
      ol_pf_path(&f, &rng, path);
      if (k >= 20) s += f.est;
    }
    w[r] = s / (2000 - 20) - M->truth[OL_SSM_HSUM];
  }
  ol_pf_fini(&f);
  meanse(w, 6, &m, &se);
  ok(fabs(m) < 4 * se, "PPG N = 4: 6 chains of 2000 sweeps average to "
     "the RTS value: error %.4f within 4 se (%.4f)", m, 4 * se);
  ol_problem_free(p);
}

static void test_run (void)
{
  ol_problem *p = lg(30, 7), *q = olt_problem("gauss2d", NULL, (char *)NULL);
  double par[8];
  const ol_method_type *pa = olt_method("smc.paris", par, "N", 50.0,
                                        (char *)NULL);
  ol_run_opts o = olt_opts(5, 0, OL_MSET_EMPTY);
  ol_run *r = olt_go(p, pa, par, &o);
  ol_err e;
  volatile sig_atomic_t flag = 1;
  ol_pf f;
  ol_rng rng;
  ok(r != NULL && isfinite(ol_run_last(r, OL_MET_SMOOTH))
     && isfinite(ol_run_last(r, OL_MET_LOGLIK))
     && ol_run_last(r, OL_MET_PFESS) > 0
     && ol_run_last(r, OL_MET_PFESS) <= 1, "smc.paris through the run: "
     "smooth %.4g, loglik %.4g, pfess %.3g", ol_run_last(r, OL_MET_SMOOTH),
     ol_run_last(r, OL_MET_LOGLIK), ol_run_last(r, OL_MET_PFESS));
  ol_run_free(r);
  pa = olt_method("smc.ppg", par, (char *)NULL);
  r = olt_go(p, pa, par, &o);
  ok(r != NULL && isfinite(ol_run_last(r, OL_MET_SMOOTH))
     && ol_allfinite(ol_run_x(r), 30), "smc.ppg through the run: smooth "
     "%.4g, x a finite path", ol_run_last(r, OL_MET_SMOOTH));
  ol_run_free(r);
  ok(ol_method_check(pa, q, &e) != OL_OK && strstr(e.msg, "problem.ssm"),
     "smc.ppg on gauss2d refused (%s)", e.msg);
  ol_rng_seed(&rng, SEED, 60);
  ol_pf_init(&f, ol_ssm_of(p), 10, 2, 0, 0, "test", &e);
  ol_intr = &flag;
  ok(ol_pf_pass(&f, NULL, &rng, NULL, &e) == OL_EINTR, "interrupted pass: "
     "%s", e.msg);
  ol_intr = NULL;
  ol_pf_fini(&f);
  ol_problem_free(p);
  ol_problem_free(q);
}

int main (void)
{
  double b16 = 0, s16 = 1;
  diag("seed %u", SEED);
  test_kalman(0.9, 1.3, 0.7, 0.4, 0.5, 2.0, 3);
  test_kalman(-1.2, 0.5, 0.2, 1.5, -1.0, 0.3, 4);
  test_bad();
  test_loglik();
  test_paris(&b16, &s16);
  test_ppg(b16, s16);
  test_run();
  return done();
}
