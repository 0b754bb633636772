/*
** core/diag.c -- split and rank-normalised R-hat, bulk and tail ESS,
** MCSE and quantiles of MCMC draws (definitions in diag.h: Vehtari et al.
** 2021, as in Stan and the posterior R package; the details that decide
** short and near-constant chains follow posterior's R/convergence.R and
** R/misc.R: .ess's sum(rho_hat_t[1:max_t]), should_return_NA's absolute
** tolerance, .ess_quantile's quantiles of all draws, R's two-pass mean).
**
** Every public function checks its input, mallocs one scratch block (a
** dwork), computes, frees it.  Layout of the scratch, for S draws, S2 =
** 2 m h split draws (h = floor(n / 2)) and FFT length M (a power of two
** >= 2h):
**   all      S     every draw, sorted (quantiles, median)
**   a, b     S2    split draws, then a transform of them
**   pr, pt   S     (value, index) pairs and the radix sort's other buffer
**   fft      2M    complex FFT buffer; tw M: the twiddles e^(-2 pi i k/M);
**   pw       M     power spectrum summed over chains
**   rho      h     mean autocovariance over chains, then Geyer's sequence
**   cm       2m    chain means
** Sorting is an LSD radix sort on the IEEE bit patterns (8 passes of one
** byte, a pass skipped when every key has the same byte), O(S).  The
** autocovariances of all chains come from one forward FFT per two chains
** (one as the real, one as the imaginary part: the sum of their power
** spectra is (|Z_k|^2 + |Z_{M-k}|^2) / 2) and one inverse FFT of the
** summed spectrum, since only their mean over chains is used.
*/
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "run.h"

#define DIAG_PI 3.14159265358979323846

typedef struct pair {
  double v;
  long i;
} pair;

typedef struct dwork {
  long S, h, S2, M;
  int m2;
  double *all, *a, *b, *fft, *tw, *pw, *rho, *cm;
  pair *pr, *pt;
} dwork;

/* == input and scratch ===================================================== */

static double at (const ol_draws *d, int c, long i)
{
  return d->x[(long)c * d->cstride + i * d->dstride];
}

static int check (const ol_draws *d, ol_err *e)
{
  int c;
  long i;
  if (d == NULL || d->x == NULL)
    return ol_err_set(e, OL_EINVAL, "diag: no draws");
  if (d->m < 1 || d->n < 1)
    return ol_err_set(e, OL_EINVAL, "diag: %d chains of %ld draws (need at "
                      "least one of each)", d->m, d->n);
  if (d->dstride < 1 || d->cstride < 1)
    return ol_err_set(e, OL_EINVAL, "diag: strides must be >= 1");
  for (c = 0; c < d->m; c++)
    for (i = 0; i < d->n; i++)
      if (!isfinite(at(d, c, i)))
        return ol_err_set(e, OL_EDOM, "diag: draw %ld of chain %d is %g",
                          i + 1, c + 1, ol_shown(at(d, c, i)));
  return OL_OK;
}

static long pow2_at_least (long k)
{
  long M = 1;
  while (M < k) M <<= 1;
  return M;
}

static void dwork_free (dwork *w)
{
  free(w->all);
  free(w->a);
  free(w->b);
  free(w->fft);
  free(w->tw);
  free(w->pw);
  free(w->rho);
  free(w->cm);
  free(w->pr);
  free(w->pt);
}

/* The twiddles e^(-2 pi i k / M), k < M/2, into tw (M doubles). */
static void twiddles (double *tw, long M)
{
  long k;
  for (k = 0; k < M / 2; k++) {
    double t = -2 * DIAG_PI * (double)k / (double)M;
    tw[2 * k] = cos(t);
    tw[2 * k + 1] = sin(t);
  }
}

/* Scratch for m2 chains of h draws; with S > 0 also for the S draws of
** a summary and the split copies (a, b, pr, pt).  OL_ENOMEM with e set. */
static int dwork_alloc (dwork *w, long S, int m2, long h, ol_err *e)
{
  long hm = h > 0 ? h : 1, Sm;
  memset(w, 0, sizeof *w);
  w->S = S;
  w->h = h;
  w->m2 = m2;
  w->S2 = (long)m2 * h;
  w->M = pow2_at_least(2 * hm);
  Sm = S > w->S2 ? S : w->S2 > 0 ? w->S2 : 1;
  w->fft = malloc((size_t)(2 * w->M) * sizeof(double));
  w->tw = malloc((size_t)w->M * sizeof(double));
  w->pw = malloc((size_t)w->M * sizeof(double));
  w->rho = malloc((size_t)hm * sizeof(double));
  w->cm = malloc((size_t)m2 * sizeof(double));
  if (S > 0) {
    w->all = malloc((size_t)S * sizeof(double));
    w->a = malloc((size_t)Sm * sizeof(double));
    w->b = malloc((size_t)Sm * sizeof(double));
    w->pr = malloc((size_t)Sm * sizeof(pair));
    w->pt = malloc((size_t)Sm * sizeof(pair));
  }
  if (w->fft == NULL || w->tw == NULL || w->pw == NULL || w->rho == NULL ||
      w->cm == NULL || (S > 0 && (w->all == NULL || w->a == NULL ||
                                  w->b == NULL || w->pr == NULL ||
                                  w->pt == NULL))) {
    dwork_free(w);
    return ol_err_set(e, OL_ENOMEM, "diag: out of memory (%ld draws)",
                      S > 0 ? S : w->S2);
  }
  twiddles(w->tw, w->M);
  return OL_OK;
}

/* Scratch for the draws d (checked). */
static int dwork_new (dwork *w, const ol_draws *d, ol_err *e)
{
  return dwork_alloc(w, (long)d->m * d->n, 2 * d->m, d->n / 2, e);
}

/* == sorting and ranks ===================================================== */

/* An unsigned key in the order of the doubles (finite ones). */
static uint64_t key (double v)
{
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  return (u >> 63) ? ~u : u | 0x8000000000000000u;
}

/* Sort a[0 .. k) by value (stable; tmp: k more pairs); the result is in
** a. */
static void radix_sort (pair *a, pair *tmp, long k)
{
  long cnt[256], i;
  int pass;
  pair *src = a, *dst = tmp, *t;
  for (pass = 0; pass < 8; pass++) {
    int sh = 8 * pass, b;
    long sum = 0;
    memset(cnt, 0, sizeof cnt);
    for (i = 0; i < k; i++) cnt[(key(src[i].v) >> sh) & 255]++;
    for (b = 0; b < 256; b++)
      if (cnt[b] == k) break;
    if (b < 256) continue;   /* every key has this byte: nothing moves */
    for (b = 0; b < 256; b++) {
      long c = cnt[b];
      cnt[b] = sum;
      sum += c;
    }
    for (i = 0; i < k; i++) dst[cnt[(key(src[i].v) >> sh) & 255]++] = src[i];
    t = src;
    src = dst;
    dst = t;
  }
  if (src != a) memcpy(a, src, (size_t)k * sizeof *a);
}

/* x[0 .. k) sorted in place, through the pair buffers. */
static void sort_values (double *x, long k, pair *pr, pair *pt)
{
  long i;
  for (i = 0; i < k; i++) {
    pr[i].v = x[i];
    pr[i].i = i;
  }
  radix_sort(pr, pt, k);
  for (i = 0; i < k; i++) x[i] = pr[i].v;
}

/* z[i] := the rank-normalised score of x[i] (z may be x); pr is left
** holding the values sorted. */
static void rank_normalize (const double *x, double *z, long k, pair *pr,
                            pair *pt)
{
  long i, j, r;
  for (i = 0; i < k; i++) {
    pr[i].v = x[i];
    pr[i].i = i;
  }
  radix_sort(pr, pt, k);
  for (i = 0; i < k; i = j) {
    double zi;
    for (j = i + 1; j < k && pr[j].v == pr[i].v; j++) {}
    /* ranks i+1 .. j share their average */
    zi = ol_diag_qnorm((0.5 * ((double)(i + 1) + (double)j) - 0.375) /
                       ((double)k + 0.25));
    for (r = i; r < j; r++) z[pr[r].i] = zi;
  }
}

/* Type-7 quantile of k values sorted ascending. */
static double quantile7 (const double *x, long k, double p)
{
  double hh = (double)(k - 1) * p, fl = floor(hh);
  long j = (long)fl;
  if (j >= k - 1) return x[k - 1];
  if (j < 0) return x[0];
  return x[j] + (hh - fl) * (x[j + 1] - x[j]);
}

/* All draws into w->all, sorted. */
static void gather_sorted (dwork *w, const ol_draws *d)
{
  int c;
  long i, k = 0;
  for (c = 0; c < d->m; c++)
    for (i = 0; i < d->n; i++) w->all[k++] = at(d, c, i);
  sort_values(w->all, w->S, w->pr, w->pt);
}

/* The split chains into w->a: chain c gives rows 2c (draws 0 .. h-1) and
** 2c + 1 (draws n - h .. n - 1). */
static void split (dwork *w, const ol_draws *d)
{
  int c;
  long i, h = w->h;
  for (c = 0; c < d->m; c++)
    for (i = 0; i < h; i++) {
      w->a[(2 * c) * h + i] = at(d, c, i);
      w->a[(2 * c + 1) * h + i] = at(d, c, d->n - h + i);
    }
}

/* posterior's is_constant: the range of x[0 .. k) below DBL_EPSILON (an
** absolute tolerance, as posterior's should_return_NA uses). */
static int constant (const double *x, long k)
{
  double lo = x[0], hi = x[0];
  long i;
  for (i = 1; i < k; i++) {
    if (x[i] < lo) lo = x[i];
    if (x[i] > hi) hi = x[i];
  }
  return fabs(hi - lo) < DBL_EPSILON;
}

/* The mean of x[0 .. k) as R's mean() computes it: a long double sum
** divided by k, then corrected by the mean of the residuals (two passes:
** exact to rounding however large the common offset). */
static double mean2 (const double *x, long k)
{
  long double s = 0, t = 0;
  long i;
  for (i = 0; i < k; i++) s += x[i];
  s /= (long double)k;
  if (isfinite((double)s)) {
    for (i = 0; i < k; i++) t += x[i] - s;
    s += t / (long double)k;
  }
  return (double)s;
}

/* The sum of squared deviations of x[0 .. k) from its mean m, in long
** double (R's var: the second pass over the two-pass mean). */
static double ssd (const double *x, long k, double m)
{
  long double v = 0;
  long i;
  for (i = 0; i < k; i++) v += (long double)(x[i] - m) * (x[i] - m);
  return (double)v;
}

/* == autocovariance and ESS ================================================ */

/* In-place radix-2 FFT of M complex numbers (re, im interleaved), with
** twiddles tw[k] = e^(-2 pi i k / M); inverse: conjugate twiddles, no
** scaling. */
static void fft (double *a, long M, const double *tw, int inverse)
{
  long i, j, bit, len, k;
  for (i = 1, j = 0; i < M; i++) {
    for (bit = M >> 1; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      double t = a[2 * i];
      a[2 * i] = a[2 * j];
      a[2 * j] = t;
      t = a[2 * i + 1];
      a[2 * i + 1] = a[2 * j + 1];
      a[2 * j + 1] = t;
    }
  }
  for (len = 2; len <= M; len <<= 1) {
    long half = len / 2, step = M / len;
    for (i = 0; i < M; i += len)
      for (k = 0; k < half; k++) {
        double wr = tw[2 * k * step], wi = tw[2 * k * step + 1];
        double *u = a + 2 * (i + k), *v = a + 2 * (i + k + half);
        double vr, vi;
        if (inverse) wi = -wi;
        vr = v[0] * wr - v[1] * wi;
        vi = v[0] * wi + v[1] * wr;
        v[0] = u[0] - vr;
        v[1] = u[1] - vi;
        u[0] += vr;
        u[1] += vi;
      }
  }
}

/* pw[k] += the power spectra of x - xm and (y - ym) (y may be NULL), n
** values each, zero padded to M (a power of two >= 2n), buf 2M doubles. */
static void power_add (const double *x, double xm, const double *y,
                       double ym, long n, double *pw, double *buf, long M,
                       const double *tw)
{
  long i, k;
  memset(buf, 0, (size_t)(2 * M) * sizeof(double));
  for (i = 0; i < n; i++) {
    buf[2 * i] = x[i] - xm;
    if (y != NULL) buf[2 * i + 1] = y[i] - ym;
  }
  fft(buf, M, tw, 0);
  for (k = 0; k < M; k++) {
    long j = (M - k) & (M - 1);
    double zk = buf[2 * k] * buf[2 * k] + buf[2 * k + 1] * buf[2 * k + 1];
    double zj = buf[2 * j] * buf[2 * j] + buf[2 * j + 1] * buf[2 * j + 1];
    pw[k] += 0.5 * (zk + zj);
  }
}

/* acov[t] = the inverse transform of pw at t < n, divided by M n. */
static void power_to_acov (const double *pw, long n, double *acov,
                           double *buf, long M, const double *tw)
{
  long k;
  for (k = 0; k < M; k++) {
    buf[2 * k] = pw[k];
    buf[2 * k + 1] = 0;
  }
  fft(buf, M, tw, 1);
  for (k = 0; k < n; k++) acov[k] = buf[2 * k] / ((double)M * (double)n);
}

/* ESS of m chains of N draws in x (plain layout), the estimator of
** diag.h, with w's FFT buffers (w->M >= 2N), pw, rho (N), cm (m). */
static double ess_plain (const double *x, int m, long N, dwork *w)
{
  double mean_var, var_plus, bm, bv, re, ro, tau, ess, sum = 0;
  double *rho = w->rho;
  long t, max_t;
  int c;
  if (N < 3 || constant(x, (long)m * N)) return NAN;
  for (c = 0; c < m; c++) w->cm[c] = mean2(x + (long)c * N, N);
  /* (1) mean autocovariance over chains: one FFT per two chains */
  memset(w->pw, 0, (size_t)w->M * sizeof(double));
  for (c = 0; c < m; c += 2)
    power_add(x + (long)c * N, w->cm[c], c + 1 < m ? x + (long)(c + 1) * N
              : NULL, c + 1 < m ? w->cm[c + 1] : 0, N, w->pw, w->fft, w->M,
              w->tw);
  power_to_acov(w->pw, N, rho, w->fft, w->M, w->tw);
  for (t = 0; t < N; t++) rho[t] /= m;
  /* (2) W and var+ */
  mean_var = rho[0] * (double)N / (double)(N - 1);
  var_plus = mean_var * (double)(N - 1) / (double)N;
  if (m > 1) {
    bm = mean2(w->cm, m);
    bv = ssd(w->cm, m, bm);
    var_plus += bv / (m - 1);
  }
  /* (3) Geyer's initial positive sequence, in place over the mean
  ** autocovariances */
  re = 1;
  ro = 1 - (mean_var - rho[1]) / var_plus;
  rho[0] = re;
  rho[1] = ro;
  t = 0;
  while (t < N - 5 && !isnan(re + ro) && re + ro > 0) {
    t += 2;
    re = 1 - (mean_var - rho[t]) / var_plus;
    ro = 1 - (mean_var - rho[t + 1]) / var_plus;
    if (re + ro >= 0) {
      rho[t] = re;
      rho[t + 1] = ro;
    }
    else rho[t] = rho[t + 1] = 0;
  }
  max_t = t;
  if (re > 0) rho[max_t] = re;
  /* (4) Geyer's initial monotone sequence */
  t = 0;
  while (t <= max_t - 4) {
    t += 2;
    if (rho[t] + rho[t + 1] > rho[t - 2] + rho[t - 1]) {
      rho[t] = (rho[t - 2] + rho[t - 1]) / 2;
      rho[t + 1] = rho[t];
    }
  }
  /* (5) the truncated sum, with the last even term: posterior sums
  ** rho_hat_t[1:max_t], which in R is rho_hat_t[1] alone when max_t = 0
  ** (1:0 is c(1, 0), and index 0 selects nothing), so the sum has at
  ** least its first term (then tau = 2: ESS = S / 2 for split chains of
  ** 3 to 5 draws, where Geyer's loop never runs) */
  ess = (double)m * (double)N;
  for (t = 0; t < (max_t > 0 ? max_t : 1); t++) sum += rho[t];
  tau = -1 + 2 * sum + rho[max_t];
  if (tau < 1 / log10(ess)) tau = 1 / log10(ess);
  return ess / tau;
}

/* Split R-hat of m chains of N draws (plain). */
static double rhat_plain (const double *x, int m, long N, double *cm)
{
  double W = 0, bm, bv;
  int c;
  if (N < 2 || constant(x, (long)m * N)) return NAN;
  for (c = 0; c < m; c++) {
    const double *xc = x + (long)c * N;
    cm[c] = mean2(xc, N);
    W += ssd(xc, N, cm[c]) / (double)(N - 1);
  }
  W /= m;
  bm = mean2(cm, m);
  bv = ssd(cm, m, bm) / (m > 1 ? m - 1 : 1);
  if (W == 0) return INFINITY;
  return sqrt(((double)(N - 1) / (double)N * W + bv) / W);
}

/* == the quantities ======================================================== */

/* What a computation needs: bits of the quantities wanted. */
enum {
  W_RHAT = 1, W_RHAT_BASIC = 2, W_BULK = 4, W_TAIL = 8, W_MEAN = 16,
  W_ALL = 31
};

/* The quantities in want into s (others untouched), from w with the
** split draws in w->a and, for W_RHAT, the sorted draws in w->all. */
static void compute (dwork *w, unsigned want, ol_summary *s)
{
  long i, S2 = w->S2;
  int m2 = w->m2;
  /* (1) the raw split draws */
  if (want & W_MEAN) s->ess_mean = ess_plain(w->a, m2, w->h, w);
  if (want & W_RHAT_BASIC)
    s->rhat_basic = w->h >= 2 ? rhat_plain(w->a, m2, w->h, w->cm) : NAN;
  if (!(want & (W_RHAT | W_BULK | W_TAIL))) return;
  /* (2) rank-normalised: bulk ESS and R-hat; pr then holds the split
  ** draws sorted, for the tail quantiles */
  rank_normalize(w->a, w->b, S2, w->pr, w->pt);
  if (want & W_BULK) s->ess_bulk = ess_plain(w->b, m2, w->h, w);
  if (want & W_RHAT) s->rhat = w->h >= 2 ? rhat_plain(w->b, m2, w->h, w->cm)
                                          : NAN;
  /* (3) tail: indicators of the 5% and 95% quantiles of all draws (not
  ** the split ones: posterior's .ess_quantile takes quantile(x, prob) of
  ** the whole matrix, the middle draw of odd chains included); NAN when
  ** the draws themselves are constant */
  if (want & W_TAIL) {
    double q5 = quantile7(w->all, w->S, 0.05);
    double q95 = quantile7(w->all, w->S, 0.95), lo, hi;
    if (S2 == 0 || constant(w->all, w->S)) s->ess_tail = NAN;
    else {
      for (i = 0; i < S2; i++) w->b[i] = w->a[i] <= q5;
      lo = ess_plain(w->b, m2, w->h, w);
      for (i = 0; i < S2; i++) w->b[i] = w->a[i] <= q95;
      hi = ess_plain(w->b, m2, w->h, w);
      s->ess_tail = isnan(lo) || isnan(hi) ? NAN : lo < hi ? lo : hi;
    }
  }
  /* (4) folded about the median of all draws: R-hat of its ranks */
  if ((want & W_RHAT) && w->h >= 2) {
    double med = quantile7(w->all, w->S, 0.5), rf;
    for (i = 0; i < S2; i++) w->b[i] = fabs(w->a[i] - med);
    rank_normalize(w->b, w->b, S2, w->pr, w->pt);
    rf = rhat_plain(w->b, m2, w->h, w->cm);
    /* R's max(): NA when either is NA (binary draws split evenly fold to
    ** a constant) */
    if (isnan(rf) || isnan(s->rhat)) s->rhat = NAN;
    else if (rf > s->rhat) s->rhat = rf;
  }
}

/* Mean and sd (divisor S - 1) as R's mean() and sd(): two passes in long
** double, so that draws near a large constant keep their spread. */
static void mean_sd (const double *x, long S, double *mean, double *sd)
{
  *mean = mean2(x, S);
  *sd = S > 1 ? sqrt(ssd(x, S, *mean) / (double)(S - 1)) : NAN;
}

/* The summary fields in want (W_ALL: all, with mean, sd, quantiles). */
static int summarize (const ol_draws *d, unsigned want, ol_summary *s,
                      ol_err *e)
{
  dwork w;
  int rc;
  if (s == NULL) return ol_err_set(e, OL_EINVAL, "diag: no output");
  if ((rc = check(d, e)) != OL_OK || (rc = dwork_new(&w, d, e)) != OL_OK)
    return rc;
  if (want & (W_RHAT | W_MEAN | W_TAIL)) {
    gather_sorted(&w, d);
    mean_sd(w.all, w.S, &s->mean, &s->sd);
    s->q5 = quantile7(w.all, w.S, 0.05);
    s->q50 = quantile7(w.all, w.S, 0.5);
    s->q95 = quantile7(w.all, w.S, 0.95);
  }
  split(&w, d);
  compute(&w, want, s);
  if (want & W_MEAN) s->mcse_mean = s->sd / sqrt(s->ess_mean);
  dwork_free(&w);
  return OL_OK;
}

int ol_diag_summary (const ol_draws *d, ol_summary *s, ol_err *e)
{
  return summarize(d, W_ALL, s, e);
}

int ol_diag_rhat (const ol_draws *d, double *rhat, ol_err *e)
{
  ol_summary s;
  int rc = summarize(d, W_RHAT, &s, e);
  if (rc == OL_OK && rhat != NULL) *rhat = s.rhat;
  return rhat == NULL ? ol_err_set(e, OL_EINVAL, "diag: no output") : rc;
}

int ol_diag_rhat_basic (const ol_draws *d, double *rhat, ol_err *e)
{
  ol_summary s;
  int rc = summarize(d, W_RHAT_BASIC, &s, e);
  if (rc == OL_OK && rhat != NULL) *rhat = s.rhat_basic;
  return rhat == NULL ? ol_err_set(e, OL_EINVAL, "diag: no output") : rc;
}

int ol_diag_ess_bulk (const ol_draws *d, double *ess, ol_err *e)
{
  ol_summary s;
  int rc = summarize(d, W_BULK, &s, e);
  if (rc == OL_OK && ess != NULL) *ess = s.ess_bulk;
  return ess == NULL ? ol_err_set(e, OL_EINVAL, "diag: no output") : rc;
}

int ol_diag_ess_tail (const ol_draws *d, double *ess, ol_err *e)
{
  ol_summary s;
  int rc = summarize(d, W_TAIL, &s, e);
  if (rc == OL_OK && ess != NULL) *ess = s.ess_tail;
  return ess == NULL ? ol_err_set(e, OL_EINVAL, "diag: no output") : rc;
}

int ol_diag_ess_mean (const ol_draws *d, double *ess, ol_err *e)
{
  ol_summary s;
  int rc = summarize(d, W_MEAN, &s, e);
  if (rc == OL_OK && ess != NULL) *ess = s.ess_mean;
  return ess == NULL ? ol_err_set(e, OL_EINVAL, "diag: no output") : rc;
}

int ol_diag_mcse_mean (const ol_draws *d, double *mcse, ol_err *e)
{
  ol_summary s;
  int rc = summarize(d, W_MEAN, &s, e);
  if (rc == OL_OK && mcse != NULL) *mcse = s.mcse_mean;
  return mcse == NULL ? ol_err_set(e, OL_EINVAL, "diag: no output") : rc;
}

int ol_diag_quantile (const ol_draws *d, double prob, double *q, ol_err *e)
{
  dwork w;
  int rc;
  if (q == NULL) return ol_err_set(e, OL_EINVAL, "diag: no output");
  if (!(prob >= 0 && prob <= 1))
    return ol_err_set(e, OL_EINVAL, "diag: probability %g is not in "
                      "[0, 1]", prob);
  if ((rc = check(d, e)) != OL_OK || (rc = dwork_new(&w, d, e)) != OL_OK)
    return rc;
  gather_sorted(&w, d);
  *q = quantile7(w.all, w.S, prob);
  dwork_free(&w);
  return OL_OK;
}

int ol_diag_autocov (const double *x, long n, double *acov, ol_err *e)
{
  dwork w;
  double xbar = 0;
  long i;
  int rc;
  if (x == NULL || acov == NULL || n < 1)
    return ol_err_set(e, OL_EINVAL, "diag: autocovariance of %ld values",
                      n);
  if ((rc = dwork_alloc(&w, 0, 1, n, e)) != OL_OK) return rc;
  for (i = 0; i < n; i++) xbar += x[i];
  xbar /= (double)n;
  memset(w.pw, 0, (size_t)w.M * sizeof(double));
  power_add(x, xbar, NULL, 0, n, w.pw, w.fft, w.M, w.tw);
  power_to_acov(w.pw, n, acov, w.fft, w.M, w.tw);
  dwork_free(&w);
  return OL_OK;
}

int ol_diag_worst (const double *const *x, int m, long n, int dim,
                   long stride, double *rhat, double *ess, ol_err *e)
{
  double *buf, worst_r = -INFINITY, worst_e = INFINITY;
  int c, j, rc = OL_OK;
  long i;
  if (x == NULL || rhat == NULL || ess == NULL)
    return ol_err_set(e, OL_EINVAL, "diag: no draws or no output");
  if (m < 1 || n < 1 || dim < 1 || stride < dim)
    return ol_err_set(e, OL_EINVAL, "diag: %d chains of %ld draws of %d "
                      "coordinates, stride %ld", m, n, dim, stride);
  for (c = 0; c < m; c++)
    if (x[c] == NULL) return ol_err_set(e, OL_EINVAL, "diag: no draws");
  buf = malloc((size_t)m * (size_t)n * sizeof *buf);
  if (buf == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  /* (1) each coordinate gathered into the plain layout, (2) its R-hat and
  ** bulk-ESS as ol_diag_rhat and ol_diag_ess_bulk compute them, (3) the
  ** worst of each, NAN as soon as one is NAN */
  for (j = 0; j < dim && rc == OL_OK; j++) {
    ol_draws d = ol_draws_plain(buf, m, n);
    ol_summary s;
    for (c = 0; c < m; c++)
      for (i = 0; i < n; i++) buf[(size_t)c * n + i] = x[c][i * stride + j];
    if ((rc = summarize(&d, W_RHAT | W_BULK, &s, e)) != OL_OK) break;
    if (isnan(s.rhat) || isnan(worst_r)) worst_r = NAN;
    else if (s.rhat > worst_r) worst_r = s.rhat;
    if (isnan(s.ess_bulk) || isnan(worst_e)) worst_e = NAN;
    else if (s.ess_bulk < worst_e) worst_e = s.ess_bulk;
  }
  free(buf);
  if (rc != OL_OK) return rc;
  *rhat = worst_r;
  *ess = worst_e;
  return OL_OK;
}

int ol_diag_runs (const ol_run *const *runs, int m, long n, double *rhat,
                  double *ess, ol_err *e)
{
  const double *x[64];
  int c, dim;
  if (runs == NULL || m < 1 || runs[0] == NULL)
    return ol_err_set(e, OL_EINVAL, "diag: no runs");
  /* (a chain set beyond 64 chains is judged by its first 64) */
  if (m > 64) m = 64;
  dim = ol_run_problem(runs[0])->n;
  for (c = 0; c < m; c++) {
    long rows = 0;
    const double *d = runs[c] != NULL ? ol_run_draws(runs[c], &rows, NULL,
                                                     NULL) : NULL;
    if (d == NULL || rows < n)
      return ol_err_set(e, OL_EINVAL, "diag: run %d keeps %ld draws, not "
                        "the %ld pooled (keep draws: opts.draws)", c + 1,
                        rows, n);
    x[c] = d + OL_DRAW_COLS;
  }
  return ol_diag_worst(x, m, n, dim, OL_DRAW_COLS + dim, rhat, ess, e);
}

int ol_diag_ess_chains (const double *x, int m, long n, double *ess,
                        ol_err *e)
{
  ol_draws d = ol_draws_plain(x, m, n);
  dwork w;
  int rc;
  if (ess == NULL) return ol_err_set(e, OL_EINVAL, "diag: no output");
  if ((rc = check(&d, e)) != OL_OK) return rc;
  if ((rc = dwork_alloc(&w, 0, m, n, e)) != OL_OK) return rc;
  *ess = ess_plain(x, m, n, &w);
  dwork_free(&w);
  return OL_OK;
}

/* Wichura (1988), Algorithm AS 241, PPND16. */
double ol_diag_qnorm (double p)
{
  double q, r, v;
  if (isnan(p) || p < 0 || p > 1) return NAN;
  if (p == 0) return -INFINITY;
  if (p == 1) return INFINITY;
  q = p - 0.5;
  if (fabs(q) <= 0.425) {
    r = 0.180625 - q * q;
    return q * (((((((r * 2509.0809287301226727 +
                      33430.575583588128105) * r + 67265.770927008700853) * r +
                    45921.953931549871457) * r + 13731.693765509461125) * r +
                  1971.5909503065514427) * r + 133.14166789178437745) * r +
                3.387132872796366608)
      / (((((((r * 5226.495278852545925 +
               28729.085735721942674) * r + 39307.89580009271061) * r +
             21213.794301586595867) * r + 5394.1960214247511077) * r +
           687.1870074920579083) * r + 42.313330701600911252) * r + 1.);
  }
  r = sqrt(-log(q < 0 ? p : 1 - p));
  if (r <= 5) {
    r -= 1.6;
    v = (((((((r * 7.7454501427834140764e-4 +
               .0227238449892691845833) * r + .24178072517745061177) * r +
             1.27045825245236838258) * r + 3.64784832476320460504) * r +
           5.7694972214606914055) * r + 4.6303378461565452959) * r +
         1.42343711074968357734)
      / (((((((r * 1.05075007164441684324e-9 + 5.475938084995344946e-4) * r +
              .0151986665636164571966) * r + .14810397642748007459) * r +
            .68976733498510000455) * r + 1.6763848301838038494) * r +
          2.05319162663775882187) * r + 1.);
  }
  else {
    r -= 5;
    v = (((((((r * 2.01033439929228813265e-7 +
               2.71155556874348757815e-5) * r + .0012426609473880784386) * r +
             .026532189526576123093) * r + .29656057182850489123) * r +
           1.7848265399172913358) * r + 5.4637849111641143699) * r +
         6.6579046435011037772)
      / (((((((r * 2.04426310338993978564e-15 + 1.4215117583164458887e-7) *
               r + 1.8463183175100546818e-5) * r + 7.868691311456132591e-4) *
             r + .0148753612908506148525) * r + .13692988092273580531) * r +
           .59983220655588793769) * r + 1.);
  }
  return q < 0 ? -v : v;
}
