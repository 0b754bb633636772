/*
** tests/c/t_diag.c -- MCMC diagnostics (core/diag.c) against independent
** truth.
**
** Building blocks: the normal quantile against libm's erfc and published
** values; the FFT autocovariance against the direct sum; type-7
** quantiles and split R-hat against hand computation.  Statistical
** checks, on sequences whose ESS is known in closed form (fixed seed,
** printed): iid normal draws give ESS = N, an AR(1) with coefficient phi
** gives ESS = N (1 - phi) / (1 + phi) (integrated autocorrelation time
** (1 + phi) / (1 - phi)), each within 10%; iid Cauchy draws give a bulk
** ESS of N (rank normalisation needs no moments); chains from one
** distribution give R-hat < 1.01, chains with a shifted location or a
** different scale give R-hat > 1.1 (the scale only through folding).
** Properties: rank-based quantities do not change under a monotone
** transform; a strided view reads the same draws as a copy.  Errors:
** bad shapes, non-finite draws, constant draws.  The worst coordinate of
** chains held apart (ol_diag_worst, the pooled running R-hat and ESS of
** the live panels) against ol_diag_rhat / ol_diag_ess_bulk of each
** coordinate of a copy in the plain layout.  Against the posterior R
** package: a literal transcription of its algorithm (R/convergence.R,
** R/misc.R; direct-sum autocovariances, R's 1-based indexing) on 108
** small cases, 4 x 7 draws worked by hand (ESS 12), near-constant draws
** and the sd of draws near 10^12 (issue 22).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "rng.h"
#include "tap.h"

#define SEED 20210611u

/* m chains of n AR(1) draws x_t = phi x_{t-1} + z_t, stationary start. */
static void ar1 (ol_rng *r, double phi, int m, long n, double *x)
{
  int c;
  long i;
  for (c = 0; c < m; c++) {
    double v = ol_rng_normal(r) / sqrt(1 - phi * phi);
    for (i = 0; i < n; i++) {
      if (i > 0) v = phi * v + ol_rng_normal(r);
      x[(long)c * n + i] = v;
    }
  }
}

static void check_qnorm (void)
{
  static const struct { double p, z; } known[] = {
    {0.975, 1.959963984540054}, {0.05, -1.6448536269514729},
    {0.3, -0.5244005127080407}, {1e-10, -6.361340902404056},
    {0.5, 0}, {0.999, 3.090232306167813},
  };
  double worst = 0, p;
  size_t k;
  for (k = 0; k < sizeof known / sizeof known[0]; k++)
    is_near(ol_diag_qnorm(known[k].p), known[k].z,
            2e-15 * fmax(1, fabs(known[k].z)), "qnorm: Phi^-1(%g) = %.16g",
            known[k].p, known[k].z);
  /* round trip through Phi(z) = erfc(-z / sqrt 2) / 2 */
  for (p = 1e-300; p < 0.5; p *= 1.7) {
    /* a relative error d in z moves p by about (1 + z^2) d relative */
    double z = ol_diag_qnorm(p), back = 0.5 * erfc(-z / sqrt(2.0));
    double rel = fabs(back - p) / p / (1 + z * z);
    if (rel > worst) worst = rel;
  }
  ok(worst < 1e-15, "qnorm: Phi(qnorm(p)) = p to %.2g (1 + z^2) relative "
     "for p in [1e-300, 0.5)", worst);
  ok(isinf(ol_diag_qnorm(0)) && ol_diag_qnorm(0) < 0 &&
     isinf(ol_diag_qnorm(1)) && isnan(ol_diag_qnorm(1.5)),
     "qnorm: -inf at 0, +inf at 1, NaN outside [0, 1]");
}

static void check_autocov (ol_rng *r)
{
  static const long sizes[] = {1, 2, 7, 1000, 1537};
  size_t k;
  for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    long n = sizes[k], t, i;
    double *x = malloc(sizeof(double) * (size_t)n);
    double *ac = malloc(sizeof(double) * (size_t)n), xbar = 0, err = 0;
    ol_err e;
    for (i = 0; i < n; i++) {
      x[i] = 3 + ol_rng_normal(r) + (i % 5 == 0 ? 2 : 0);
      xbar += x[i];
    }
    xbar /= (double)n;
    ok(ol_diag_autocov(x, n, ac, &e) == OL_OK, "autocov: n = %ld runs", n);
    for (t = 0; t < n; t++) {
      double s = 0;
      for (i = 0; i + t < n; i++) s += (x[i] - xbar) * (x[i + t] - xbar);
      s /= (double)n;
      err = fmax(err, fabs(s - ac[t]));
    }
    ok(err <= 1e-12 * fmax(ac[0], 1e-300) + 1e-300,
       "autocov: FFT equals the direct sum for n = %ld (max error %.2g, "
       "acov[0] %.3g)", n, err, ac[0]);
    free(x);
    free(ac);
  }
}

static void check_exact (void)
{
  /* type-7 quantiles of 1..5: h = 4p */
  double v[5] = {3, 1, 5, 2, 4}, q;
  ol_draws d = ol_draws_plain(v, 1, 5);
  ol_err e;
  ol_diag_quantile(&d, 0.05, &q, &e);
  is_near(q, 1.2, 1e-15, "quantile: q05 of 1..5 is 1.2 (type 7)");
  ol_diag_quantile(&d, 0.5, &q, &e);
  is_near(q, 3, 1e-15, "quantile: q50 of 1..5 is 3");
  ol_diag_quantile(&d, 0.95, &q, &e);
  is_near(q, 4.8, 1e-15, "quantile: q95 of 1..5 is 4.8");
  ol_diag_quantile(&d, 1, &q, &e);
  is_near(q, 5, 0, "quantile: q100 is the maximum");
  ok(ol_diag_quantile(&d, 1.5, &q, &e) == OL_EINVAL,
     "quantile: probability 1.5 refused (%s)", e.msg);

  /* split R-hat by hand: 2 chains of 5 draws, the middle ones dropped,
  ** 4 split chains of 2 */
  {
    double x[10] = {1, 2, 9, 3, 5, 2, 4, 9, 6, 8}, got, want;
    double sc[4][2] = {{1, 2}, {3, 5}, {2, 4}, {6, 8}};
    double mu[4], W = 0, gm = 0, B = 0;
    int c;
    d = ol_draws_plain(x, 2, 5);
    for (c = 0; c < 4; c++) {
      double a = sc[c][0], b = sc[c][1];
      mu[c] = (a + b) / 2;
      W += ((a - mu[c]) * (a - mu[c]) + (b - mu[c]) * (b - mu[c])) / 1;
      gm += mu[c] / 4;
    }
    W /= 4;
    for (c = 0; c < 4; c++) B += (mu[c] - gm) * (mu[c] - gm) / 3;
    want = sqrt((0.5 * W + B) / W);
    ok(ol_diag_rhat_basic(&d, &got, &e) == OL_OK,
       "rhat_basic: 2 chains of 5 runs");
    is_near(got, want, 1e-14, "rhat_basic: equals the hand computation "
            "(%.6f) on 4 split chains of 2", want);
  }
}

/* Summary of m x n plain draws. */
static ol_summary summarize (const double *x, int m, long n)
{
  ol_summary s;
  ol_err e;
  ol_draws d = ol_draws_plain(x, m, n);
  if (ol_diag_summary(&d, &s, &e) != OL_OK) {
    diag("summary failed: %s", e.msg);
    memset(&s, 0, sizeof s);
  }
  return s;
}

static void check_iid (ol_rng *r)
{
  int m = 4;
  long n = 25000, i, N = m * n;
  double *x = malloc(sizeof(double) * (size_t)N), *y;
  ol_summary s;
  for (i = 0; i < N; i++) x[i] = ol_rng_normal(r);
  s = summarize(x, m, n);
  diag("iid N(0,1), 4 x 25000: ess_bulk %.0f ess_tail %.0f ess_mean %.0f "
       "rhat %.5f mcse %.5f", s.ess_bulk, s.ess_tail, s.ess_mean, s.rhat,
       s.mcse_mean);
  ok(fabs(s.ess_bulk / N - 1) < 0.1, "ess: iid normal bulk-ESS %.0f within "
     "10%% of N = %ld", s.ess_bulk, N);
  ok(fabs(s.ess_mean / N - 1) < 0.1, "ess: iid normal ESS of the mean %.0f "
     "within 10%% of N", s.ess_mean);
  ok(fabs(s.ess_tail / N - 1) < 0.1, "ess: iid normal tail-ESS %.0f within "
     "10%% of N", s.ess_tail);
  ok(fabs(s.mcse_mean * sqrt((double)N) - 1) < 0.1, "mcse: iid normal "
     "MCSE %.5f within 10%% of 1/sqrt(N) = %.5f", s.mcse_mean,
     1 / sqrt((double)N));
  ok(s.rhat < 1.01 && s.rhat_basic < 1.01, "rhat: identical distributions "
     "give R-hat %.5f (basic %.5f) < 1.01", s.rhat, s.rhat_basic);
  /* quantiles within 4 standard errors sqrt(p(1-p)/N) / phi(z_p) */
  {
    double se = sqrt(0.05 * 0.95 / (double)N) /
      (exp(-0.5 * 1.6448536269514729 * 1.6448536269514729) /
       sqrt(2 * 3.14159265358979));
    ok(fabs(s.q5 + 1.6448536269514729) < 4 * se &&
       fabs(s.q95 - 1.6448536269514729) < 4 * se &&
       fabs(s.q50) < 4 * sqrt(0.25 / (double)N) * 2.5066282746,
       "quantile: q5 %.4f, q50 %.4f, q95 %.4f of N(0,1) within 4 SE "
       "(%.4f)", s.q5, s.q50, s.q95, se);
  }
  /* rank quantities are invariant under monotone maps */
  y = malloc(sizeof(double) * (size_t)N);
  for (i = 0; i < N; i++) y[i] = exp(x[i]);
  {
    ol_summary t = summarize(y, m, n);
    ok(t.ess_bulk == s.ess_bulk && t.ess_tail == s.ess_tail,
       "ess: bulk and tail ESS unchanged by exp() (%.0f, %.0f)",
       t.ess_bulk, t.ess_tail);
    for (i = 0; i < N; i++) y[i] = 2 * x[i] + 3;
    t = summarize(y, m, n);
    is_near(t.rhat, s.rhat, 1e-12, "rhat: unchanged by an affine map");
  }
  /* Cauchy: no moments, bulk-ESS still N */
  for (i = 0; i < N; i++) y[i] = ol_rng_normal(r) / ol_rng_normal(r);
  {
    ol_summary t = summarize(y, m, n);
    ok(fabs(t.ess_bulk / N - 1) < 0.1 && t.rhat < 1.01,
       "ess: iid Cauchy bulk-ESS %.0f within 10%% of N, R-hat %.4f",
       t.ess_bulk, t.rhat);
  }
  free(x);
  free(y);
}

static void check_ar1 (ol_rng *r, double phi, long n)
{
  int m = 4;
  long N = m * n;
  double *x = malloc(sizeof(double) * (size_t)N), want, mcse, chains;
  ol_summary s;
  ol_err e;
  ar1(r, phi, m, n, x);
  s = summarize(x, m, n);
  want = (double)N * (1 - phi) / (1 + phi);
  /* marginal variance 1/(1 - phi^2), over the ESS */
  mcse = sqrt(1 / (1 - phi * phi) / want);
  diag("AR(1) phi = %.2f, 4 x %ld: ess_bulk %.0f ess_mean %.0f ess_tail "
       "%.0f (want %.0f), mcse %.5f (want %.5f)", phi, n, s.ess_bulk,
       s.ess_mean, s.ess_tail, want, s.mcse_mean, mcse);
  ok(fabs(s.ess_bulk / want - 1) < 0.1, "ess: AR(1) phi = %.2f bulk-ESS "
     "%.0f within 10%% of N(1-phi)/(1+phi) = %.0f", phi, s.ess_bulk, want);
  ok(fabs(s.ess_mean / want - 1) < 0.1, "ess: AR(1) phi = %.2f ESS of the "
     "mean %.0f within 10%% of %.0f", phi, s.ess_mean, want);
  ok(fabs(s.mcse_mean / mcse - 1) < 0.1, "mcse: AR(1) phi = %.2f MCSE "
     "%.5f within 10%% of the exact %.5f", phi, s.mcse_mean, mcse);
  chains = NAN;
  ol_diag_ess_chains(x, m, n, &chains, &e);
  ok(fabs(chains / want - 1) < 0.1, "ess: AR(1) phi = %.2f unsplit ESS "
     "%.0f within 10%% of %.0f", phi, chains, want);
  ok(s.rhat < 1.01, "rhat: AR(1) chains of one law give %.5f < 1.01",
     s.rhat);
  free(x);
}

static void check_rhat (ol_rng *r)
{
  int m = 4, c;
  long n = 5000, i;
  double *x = malloc(sizeof(double) * (size_t)(m * n)), rh, rb;
  ol_draws d = ol_draws_plain(x, m, n);
  ol_err e;
  /* chain c from N(c / 2, 1) */
  for (c = 0; c < m; c++)
    for (i = 0; i < n; i++) x[c * n + i] = ol_rng_normal(r) + 0.5 * c;
  ol_diag_rhat(&d, &rh, &e);
  ok(rh > 1.1, "rhat: chains from N(0, 1), N(0.5, 1), N(1, 1), N(1.5, 1) "
     "give %.4f > 1.1", rh);
  /* one chain three times wider: same means, so only folding sees it */
  for (c = 0; c < m; c++)
    for (i = 0; i < n; i++) x[c * n + i] = ol_rng_normal(r) * (c == 3 ? 3 : 1);
  ol_diag_rhat(&d, &rh, &e);
  ol_diag_rhat_basic(&d, &rb, &e);
  ok(rh > 1.1 && rb < 1.01, "rhat: a chain 3x wider gives rank-normalised "
     "folded R-hat %.4f > 1.1 while split R-hat is %.4f", rh, rb);
  /* a trend inside each chain: splitting catches it */
  for (c = 0; c < m; c++)
    for (i = 0; i < n; i++)
      x[c * n + i] = ol_rng_normal(r) + 2.0 * (double)i / (double)n;
  ol_diag_rhat(&d, &rh, &e);
  ok(rh > 1.1, "rhat: chains drifting by 2 sd give %.4f > 1.1 (split)", rh);
  free(x);
}

static void check_views (ol_rng *r)
{
  /* 3 chains of 400 draws of 2 coordinates, interleaved */
  int m = 3, dim = 2, j;
  long n = 400, i;
  double *X = malloc(sizeof(double) * (size_t)(m * n * dim));
  double *col = malloc(sizeof(double) * (size_t)(m * n));
  int same = 1;
  for (i = 0; i < m * n * dim; i++) X[i] = ol_rng_normal(r);
  for (j = 0; j < dim; j++) {
    ol_draws dv = ol_draws_coord(X, m, n, dim, j);
    ol_summary a, b;
    ol_err e;
    for (i = 0; i < m * n; i++) col[i] = X[i * dim + j];
    ol_diag_summary(&dv, &a, &e);
    b = summarize(col, m, n);
    same = same && memcmp(&a, &b, sizeof a) == 0;
  }
  ok(same, "views: a strided coordinate summarises as its copy, bit for "
     "bit");
  /* single functions agree with the summary */
  {
    ol_draws dv = ol_draws_plain(col, m, n);
    ol_summary s = summarize(col, m, n);
    double v[6];
    ol_err e;
    ol_diag_rhat(&dv, &v[0], &e);
    ol_diag_ess_bulk(&dv, &v[1], &e);
    ol_diag_ess_tail(&dv, &v[2], &e);
    ol_diag_ess_mean(&dv, &v[3], &e);
    ol_diag_mcse_mean(&dv, &v[4], &e);
    ol_diag_rhat_basic(&dv, &v[5], &e);
    ok(v[0] == s.rhat && v[1] == s.ess_bulk && v[2] == s.ess_tail &&
       v[3] == s.ess_mean && v[4] == s.mcse_mean && v[5] == s.rhat_basic,
       "views: each single diagnostic equals its summary field");
  }
  free(X);
  free(col);
}

static void check_errors (void)
{
  double x[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, v;
  ol_draws d = ol_draws_plain(x, 0, 12);
  ol_summary s;
  ol_err e;
  int rc;
  rc = ol_diag_summary(&d, &s, &e);
  ok(rc == OL_EINVAL, "errors: 0 chains refused (%s)", e.msg);
  d = ol_draws_plain(x, 2, 6);
  x[7] = NAN;
  rc = ol_diag_summary(&d, &s, &e);
  ok(rc == OL_EDOM && strstr(e.msg, "chain 2"),
     "errors: a NaN draw is OL_EDOM naming it (%s)", e.msg);
  for (v = 0; v < 12; v++) x[(int)v] = 4;
  rc = ol_diag_summary(&d, &s, &e);
  ok(rc == OL_OK && isnan(s.ess_bulk) && isnan(s.rhat) && s.mean == 4 &&
     s.sd == 0, "errors: constant draws give mean 4, sd 0, NaN ESS and "
     "R-hat");
  for (v = 0; v < 12; v++) x[(int)v] = v * v;
  d = ol_draws_plain(x, 2, 5);
  rc = ol_diag_summary(&d, &s, &e);
  ok(rc == OL_OK && isnan(s.ess_bulk) && isfinite(s.rhat),
     "errors: split chains of 2 draws: NaN ESS, finite R-hat %.3f",
     s.rhat);
  d = ol_draws_plain(x, 1, 12);
  d.dstride = 0;
  rc = ol_diag_summary(&d, &s, &e);
  ok(rc == OL_EINVAL, "errors: stride 0 refused (%s)", e.msg);
}

/* ol_diag_worst on 4 chains of 3 coordinates in separate arrays with a
** row stride of 5: x1 iid, x2 AR(1) with phi = 0.9 (ESS about N/19 per
** chain), x3 iid but shifted by 2 sd in chain 4 (the highest R-hat). */
static void check_worst (ol_rng *r)
{
  enum { M = 4, N = 400, D = 3, ST = 5 };
  static double rows[M][N * ST], plain[M * N], col[M * N];
  const double *x[M];
  double rh, es, wr = -1, we = 1e300, v = NAN;
  int c, j, rc;
  long i;
  ol_err e;
  for (c = 0; c < M; c++) {
    ar1(r, 0.9, 1, N, col);
    for (i = 0; i < N; i++) {
      rows[c][i * ST] = ol_rng_normal(r);
      rows[c][i * ST + 1] = col[i];
      rows[c][i * ST + 2] = ol_rng_normal(r) + 2.0 * (c == M - 1);
      rows[c][i * ST + 3] = rows[c][i * ST + 4] = NAN;   /* not read */
    }
    x[c] = rows[c];
  }
  rc = ol_diag_worst(x, M, N, D, ST, &rh, &es, &e);
  ok(rc == OL_OK, "worst: 4 chains of 3 coordinates held apart");
  for (j = 0; j < D; j++) {
    ol_draws d = ol_draws_plain(plain, M, N);
    double cr, ce;
    for (c = 0; c < M; c++)
      for (i = 0; i < N; i++) plain[c * N + i] = rows[c][i * ST + j];
    ol_diag_rhat(&d, &cr, &e);
    ol_diag_ess_bulk(&d, &ce, &e);
    diag("x%d: rhat %.6f ess_bulk %.1f", j + 1, cr, ce);
    if (j == 2) v = cr;
    if (j == 1) ok(ce < 0.5 * N, "worst: x2's AR(1) ESS %.0f < N/2", ce);
    if (cr > wr) wr = cr;
    if (ce < we) we = ce;
  }
  ok(rh == wr, "worst: R-hat %.17g is the max of the coordinates' "
     "ol_diag_rhat %.17g", rh, wr);
  ok(es == we, "worst: ESS %.17g is the min of the coordinates' "
     "ol_diag_ess_bulk %.17g", es, we);
  ok(rh == v && rh > 1.1, "worst: the max is x3's, shifted in one chain "
     "(%.3f > 1.1)", rh);
  /* a constant coordinate: no R-hat, no ESS */
  for (c = 0; c < M; c++)
    for (i = 0; i < N; i++) rows[c][i * ST] = 2.0;
  rc = ol_diag_worst(x, M, N, D, ST, &rh, &es, &e);
  ok(rc == OL_OK && isnan(rh) && isnan(es), "worst: a constant coordinate "
     "gives NAN");
  rc = ol_diag_worst(x, M, N, D, D - 1, &rh, &es, &e);
  ok(rc == OL_EINVAL, "worst: a stride below dim refused (%s)", e.msg);
  rows[1][7 * ST + 1] = INFINITY;
  rows[0][0] = 1.0;
  rc = ol_diag_worst(x, M, N, D, ST, &rh, &es, &e);
  ok(rc == OL_EDOM, "worst: a non-finite draw refused (%s)", e.msg);
}

/* == posterior's algorithm, written out literally ========================
** A reference for small cases: posterior's R code (R/convergence.R,
** R/misc.R, R/split_chains.R: .split_chains, z_scale, fold_draws, .rhat,
** .ess with the direct-sum autocovariance, .ess_quantile, mcse_mean) with
** R's 1-based indexing kept, including sum(rho_hat_t[1:max_t]) reading
** rho_hat_t[1] when max_t = 0.  Matrices are chains x draws here. */

static int ref_isconst (const double *x, long k)
{
  double lo = x[0], hi = x[0];
  long i;
  for (i = 1; i < k; i++) {
    lo = fmin(lo, x[i]);
    hi = fmax(hi, x[i]);
  }
  return fabs(hi - lo) < 2.220446049250313e-16;
}

static double ref_mean (const double *x, long k)
{
  long double s = 0, t = 0;
  long i;
  for (i = 0; i < k; i++) s += x[i];
  s /= k;
  for (i = 0; i < k; i++) t += x[i] - s;
  return (double)(s + t / k);
}

static double ref_var (const double *x, long k)
{
  double m = ref_mean(x, k);
  long double v = 0;
  long i;
  for (i = 0; i < k; i++) v += (long double)(x[i] - m) * (x[i] - m);
  return (double)(v / (k - 1));
}

/* .split_chains: m chains of n -> 2m chains of n/2 (n even or odd, n >= 2) */
static long ref_split (const double *x, int m, long n, double *out)
{
  long h = n / 2, i;
  int c;
  for (c = 0; c < m; c++)
    for (i = 0; i < h; i++) {
      out[(2 * c) * h + i] = x[(long)c * n + i];
      out[(2 * c + 1) * h + i] = x[(long)c * n + (n - h) + i];
    }
  return h;
}

/* z_scale: rank with average ties, qnorm((r - 3/8) / (S - 3/4 + 1)) */
static void ref_z (const double *x, long S, double *z)
{
  long i, j;
  for (i = 0; i < S; i++) {
    double less = 0, eq = 0;
    for (j = 0; j < S; j++) {
      less += x[j] < x[i];
      eq += x[j] == x[i];
    }
    z[i] = ol_diag_qnorm((less + (eq + 1) / 2 - 0.375) / (S - 0.75 + 1));
  }
}

static double ref_rhat (const double *x, int m, long n)
{
  double cm[64], cv = 0;
  int c;
  if (ref_isconst(x, (long)m * n)) return NAN;
  for (c = 0; c < m; c++) {
    cm[c] = ref_mean(x + (long)c * n, n);
    cv += ref_var(x + (long)c * n, n) / m;
  }
  return sqrt((n * ref_var(cm, m) / cv + n - 1) / n);
}

static double ref_ess (const double *x, int m, long n)
{
  double *acov = calloc((size_t)n, sizeof *acov), *rho, cm[64];
  double mean_var, var_plus, even, odd, tau, ess, sum = 0;
  long t, max_t, i;
  int c;
  if (n < 3 || ref_isconst(x, (long)m * n)) {
    free(acov);
    return NAN;
  }
  rho = calloc((size_t)n + 2, sizeof *rho);     /* rho[1..n], R's indices */
  for (c = 0; c < m; c++) {
    const double *xc = x + (long)c * n;
    double mu = ref_mean(xc, n);
    cm[c] = mu;
    for (t = 0; t < n; t++) {
      double s = 0;
      for (i = 0; i + t < n; i++) s += (xc[i] - mu) * (xc[i + t] - mu);
      acov[t] += s / n / m;       /* rowMeans of the biased estimates */
    }
  }
  mean_var = acov[0] * n / (n - 1);
  var_plus = mean_var * (n - 1) / n;
  if (m > 1) var_plus += ref_var(cm, m);
  t = 0;
  even = 1;
  rho[t + 1] = even;
  odd = 1 - (mean_var - acov[t + 1]) / var_plus;
  rho[t + 2] = odd;
  while (t < n - 5 && !isnan(even + odd) && even + odd > 0) {
    t += 2;
    even = 1 - (mean_var - acov[t]) / var_plus;
    odd = 1 - (mean_var - acov[t + 1]) / var_plus;
    if (even + odd >= 0) {
      rho[t + 1] = even;
      rho[t + 2] = odd;
    }
  }
  max_t = t;
  if (even > 0) rho[max_t + 1] = even;
  t = 0;
  while (t <= max_t - 4) {
    t += 2;
    if (rho[t + 1] + rho[t + 2] > rho[t - 1] + rho[t]) {
      rho[t + 1] = (rho[t - 1] + rho[t]) / 2;
      rho[t + 2] = rho[t + 1];
    }
  }
  ess = (double)m * n;
  if (max_t == 0) sum = rho[1];                  /* R: rho[1:0] = rho[1] */
  else for (i = 1; i <= max_t; i++) sum += rho[i];
  tau = -1 + 2 * sum + rho[max_t + 1];
  if (tau < 1 / log10(ess)) tau = 1 / log10(ess);
  free(acov);
  free(rho);
  return ess / tau;
}

static int ref_cmp (const void *a, const void *b)
{
  double u = *(const double *)a, v = *(const double *)b;
  return (u > v) - (u < v);
}

static double ref_quantile (const double *x, long S, double p)
{
  double *s = malloc(sizeof(double) * (size_t)S), h, q;
  long j;
  memcpy(s, x, sizeof(double) * (size_t)S);
  qsort(s, (size_t)S, sizeof *s, ref_cmp);
  h = (S - 1) * p;
  j = (long)floor(h);
  q = j + 1 < S ? s[j] + (h - j) * (s[j + 1] - s[j]) : s[S - 1];
  free(s);
  return q;
}

/* rhat, ess_bulk, ess_tail, ess_mean, mcse_mean, sd of m x n draws */
static void ref_all (const double *x, int m, long n, double out[6])
{
  long S = (long)m * n, h, i;
  double *sp = malloc(sizeof(double) * (size_t)S), *z = malloc(sizeof(double)
                                                               * (size_t)S);
  double *f = malloc(sizeof(double) * (size_t)S), med, rb, rt, q, e5, e95;
  h = ref_split(x, m, n, sp);
  ref_z(sp, 2 * m * h, z);
  rb = ref_rhat(z, 2 * m, h);
  out[1] = ref_ess(z, 2 * m, h);
  med = ref_quantile(x, S, 0.5);
  for (i = 0; i < S; i++) f[i] = fabs(x[i] - med);
  ref_split(f, m, n, sp);
  ref_z(sp, 2 * m * h, z);
  rt = ref_rhat(z, 2 * m, h);
  out[0] = isnan(rb) || isnan(rt) ? NAN : fmax(rb, rt);
  if (ref_isconst(x, S)) out[2] = NAN;
  else {
    q = ref_quantile(x, S, 0.05);
    for (i = 0; i < S; i++) f[i] = x[i] <= q;
    ref_split(f, m, n, sp);
    e5 = ref_ess(sp, 2 * m, h);
    q = ref_quantile(x, S, 0.95);
    for (i = 0; i < S; i++) f[i] = x[i] <= q;
    ref_split(f, m, n, sp);
    e95 = ref_ess(sp, 2 * m, h);
    out[2] = isnan(e5) || isnan(e95) ? NAN : fmin(e5, e95);
  }
  ref_split(x, m, n, sp);
  out[3] = ref_ess(sp, 2 * m, h);
  out[5] = sqrt(ref_var(x, S));
  out[4] = out[5] / sqrt(out[3]);
  free(sp);
  free(z);
  free(f);
}

/* Both NaN, or within tol relative. */
static int same (double a, double b, double tol)
{
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  return fabs(a - b) <= tol * fmax(1, fabs(b));
}

static void check_posterior (ol_rng *r)
{
  static const int ms[] = {1, 2, 4};
  static const long ns[] = {4, 5, 6, 7, 8, 9, 11, 12, 13, 20, 31, 64};
  double x[4 * 64], out[6], worst = 0;
  size_t a, b;
  int kind, bad = 0, cases = 0;
  ol_draws d;
  ol_summary s;
  ol_err e;
  /* (1) 4 chains of 7 draws, by hand: split chains of 3 draws, so
  ** Geyer's loop (t < 3 - 5) never runs, max_t = 0 and posterior's
  ** tau = -1 + 2 sum(rho[1:0]) + rho[1] = -1 + 2 + 1 = 2: ESS = 24 / 2 */
  for (a = 0; a < 28; a++) x[a] = ol_rng_normal(r);
  d = ol_draws_plain(x, 4, 7);
  ol_diag_summary(&d, &s, &e);
  is_near(s.ess_bulk, 12, 1e-12, "posterior: 4 x 7 draws give ess_bulk "
          "24 / 2 = 12 (got %.4g)", s.ess_bulk);
  is_near(s.ess_mean, 12, 1e-12, "posterior: 4 x 7 draws give ess_mean 12");
  is_near(s.ess_tail, 12, 1e-12, "posterior: 4 x 7 draws give ess_tail 12");
  /* (2) random shapes, with and without ties and autocorrelation */
  for (kind = 0; kind < 3; kind++)
    for (a = 0; a < sizeof ms / sizeof ms[0]; a++)
      for (b = 0; b < sizeof ns / sizeof ns[0]; b++) {
        int m = ms[a], k;
        long n = ns[b], i;
        double got[6];
        if (kind == 2) ar1(r, 0.7, m, n, x);
        else
          for (i = 0; i < m * n; i++) {
            x[i] = ol_rng_normal(r);
            if (kind == 1) x[i] = round(2 * x[i]);       /* ties */
          }
        d = ol_draws_plain(x, m, n);
        ol_diag_summary(&d, &s, &e);
        ref_all(x, m, n, out);
        got[0] = s.rhat;
        got[1] = s.ess_bulk;
        got[2] = s.ess_tail;
        got[3] = s.ess_mean;
        got[4] = s.mcse_mean;
        got[5] = s.sd;
        cases++;
        for (k = 0; k < 6; k++) {
          if (!same(got[k], out[k], 1e-10)) {
            if (bad++ < 5)
              diag("m %d n %ld kind %d: quantity %d is %.17g, posterior "
                   "%.17g", m, n, kind, k, got[k], out[k]);
          }
          else if (!isnan(out[k]))
            worst = fmax(worst, fabs(got[k] - out[k]) / fmax(1, fabs(out[k])));
        }
      }
  ok(bad == 0, "posterior: rhat, ess_bulk, ess_tail, ess_mean, mcse_mean "
     "and sd of %d small cases (1-4 chains of 4-64 draws, ties, AR(1)) "
     "equal posterior's algorithm to %.2g relative", cases, worst);
  /* (3) near-constant draws: posterior's absolute tolerance 2.2e-16 */
  for (a = 0; a < 12; a++) x[a] = 0.5 + (a % 2) * ldexp(1, -53);
  d = ol_draws_plain(x, 2, 6);
  ol_diag_summary(&d, &s, &e);
  ref_all(x, 2, 6, out);
  ok(isnan(s.ess_tail) && isnan(s.ess_mean) && isnan(out[2]) &&
     isnan(out[3]) && same(s.rhat, out[0], 1e-10) &&
     same(s.ess_bulk, out[1], 1e-10), "posterior: draws within 1.1e-16 of "
     "each other are constant: NaN ess_mean and ess_tail; R-hat %.4g and "
     "ess_bulk %.4g of their ranks as posterior's", s.rhat, s.ess_bulk);
  /* (4) the sd of draws near a large constant: 10^12 + u_i 2^-13, u_i
  ** integers in [0, 1000), all exact doubles (the spacing at 10^12 is
  ** 2^-13); their variance is 2^-26 (S sum u^2 - (sum u)^2) / (S (S - 1)),
  ** exact in integers.  R's sd (a mean rounded to a double, then the
  ** squared deviations from it) is off by S (m - mean)^2 / (S - 1), m's
  ** rounding 2^-14 at most: relative 1e-7 bounds that (the one-pass mean
  ** of 5aa2093 was 7e-6 off) */
  {
    long long su = 0, su2 = 0, u;
    double want;
    for (a = 0; a < 28; a++) {
      u = (long long)(ol_rng_uniform(r) * 1000);
      su += u;
      su2 += u * u;
      x[a] = 1e12 + (double)u * ldexp(1, -13);
    }
    want = ldexp(1, -13) * sqrt((double)(28 * su2 - su * su) / (28.0 * 27));
    d = ol_draws_plain(x, 4, 7);
    ol_diag_summary(&d, &s, &e);
    is_near(s.sd, want, 1e-7 * want, "posterior: the sd of 10^12 + u_i "
            "2^-13 is right to 1e-7 (%.17g; two-pass mean)", s.sd);
    is_near(s.mean, 1e12 + (double)su / 28 * ldexp(1, -13), 1e-12 * want,
            "posterior: and its mean (%.17g)", s.mean);
  }
}

int main (void)
{
  ol_rng r;
  diag("seed %u", SEED);
  ol_rng_seed(&r, SEED, 0);
  check_qnorm();
  check_autocov(&r);
  check_exact();
  check_iid(&r);
  check_ar1(&r, 0.5, 25000);
  check_ar1(&r, 0.9, 100000);
  check_rhat(&r);
  check_views(&r);
  check_errors();
  check_worst(&r);
  check_posterior(&r);
  return done();
}
