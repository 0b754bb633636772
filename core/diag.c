/*
** core/diag.c -- split and rank-normalised R-hat, bulk and tail ESS,
** MCSE and quantiles of MCMC draws (definitions in diag.h: Vehtari et al.
** 2021, as in Stan and the posterior R package).
**
** Every public function checks its input, mallocs one scratch block (a
** dwork), computes, frees it.  Layout of the scratch, for S draws, S2 =
** 2 m h split draws (h = floor(n / 2)) and FFT length M (a power of two
** >= 2h):
**   all      S     every draw, sorted (quantiles, median)
**   a, b     S2    split draws, then a transform of them
**   pr       S2    (value, index) pairs for the ranks
**   fft      2M    complex FFT buffer; tw M: the twiddles e^(-2 pi i k/M)
**   rho      h     mean autocovariance over chains, then Geyer's sequence
**   cm       2m    chain means
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

#define DIAG_PI 3.14159265358979323846

typedef struct pair {
  double v;
  long i;
} pair;

typedef struct dwork {
  long S, h, S2, M;
  int m2;
  double *all, *a, *b, *fft, *tw, *rho, *cm;
  pair *pr;
} dwork;

/* == input ================================================================ */

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
                          i + 1, c + 1, at(d, c, i));
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
  free(w->rho);
  free(w->cm);
  free(w->pr);
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
** a summary and the split copies (a, b, pr).  OL_ENOMEM with e set. */
static int dwork_alloc (dwork *w, long S, int m2, long h, ol_err *e)
{
  long S2m, hm = h > 0 ? h : 1;
  memset(w, 0, sizeof *w);
  w->S = S;
  w->h = h;
  w->m2 = m2;
  w->S2 = (long)m2 * h;
  w->M = pow2_at_least(2 * hm);
  S2m = w->S2 > 0 ? w->S2 : 1;
  w->fft = malloc((size_t)(2 * w->M) * sizeof(double));
  w->tw = malloc((size_t)w->M * sizeof(double));
  w->rho = malloc((size_t)hm * sizeof(double));
  w->cm = malloc((size_t)m2 * sizeof(double));
  if (S > 0) {
    w->all = malloc((size_t)S * sizeof(double));
    w->a = malloc((size_t)S2m * sizeof(double));
    w->b = malloc((size_t)S2m * sizeof(double));
    w->pr = malloc((size_t)S2m * sizeof(pair));
  }
  if (w->fft == NULL || w->tw == NULL || w->rho == NULL || w->cm == NULL ||
      (S > 0 && (w->all == NULL || w->a == NULL || w->b == NULL ||
                 w->pr == NULL))) {
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

static int cmp_double (const void *pa, const void *pb)
{
  double a = *(const double *)pa, b = *(const double *)pb;
  return a < b ? -1 : a > b;
}

static int cmp_pair (const void *pa, const void *pb)
{
  const pair *a = pa, *b = pb;
  if (a->v != b->v) return a->v < b->v ? -1 : 1;
  return a->i < b->i ? -1 : a->i > b->i;
}

/* All draws into w->all, sorted. */
static void gather_sorted (dwork *w, const ol_draws *d)
{
  int c;
  long i, k = 0;
  for (c = 0; c < d->m; c++)
    for (i = 0; i < d->n; i++) w->all[k++] = at(d, c, i);
  qsort(w->all, (size_t)w->S, sizeof(double), cmp_double);
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

/* == numerics ============================================================= */

/* Type-7 quantile of sorted x[0 .. k). */
static double quantile7 (const double *x, long k, double p)
{
  double hh = (double)(k - 1) * p, fl = floor(hh);
  long j = (long)fl;
  if (j >= k - 1) return x[k - 1];
  if (j < 0) return x[0];
  return x[j] + (hh - fl) * (x[j + 1] - x[j]);
}

/* In place: x[0 .. k) replaced by its rank-normalised z-scores. */
static void rank_normalize (double *x, long k, pair *pr)
{
  long i, j, r;
  for (i = 0; i < k; i++) {
    pr[i].v = x[i];
    pr[i].i = i;
  }
  qsort(pr, (size_t)k, sizeof(pair), cmp_pair);
  for (i = 0; i < k; i = j) {
    double rank;
    for (j = i + 1; j < k && pr[j].v == pr[i].v; j++) {}
    /* ranks i+1 .. j share their average */
    rank = 0.5 * ((double)(i + 1) + (double)j);
    for (r = i; r < j; r++)
      x[pr[r].i] = ol_diag_qnorm((rank - 0.375) / ((double)k + 0.25));
  }
}

static int constant (const double *x, long k)
{
  long i;
  for (i = 1; i < k; i++)
    if (x[i] != x[0]) return 0;
  return 1;
}

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

/* acov[t] += (1/n) sum (x_i - xbar)(x_{i+t} - xbar) for t < n, through
** the buffer fft (2M doubles, M >= 2n a power of two). */
static void autocov_add (const double *x, long n, double xbar, double *acov,
                         double *buf, long M, const double *tw)
{
  long i;
  memset(buf, 0, (size_t)(2 * M) * sizeof(double));
  for (i = 0; i < n; i++) buf[2 * i] = x[i] - xbar;
  fft(buf, M, tw, 0);
  for (i = 0; i < M; i++) {
    double re = buf[2 * i], im = buf[2 * i + 1];
    buf[2 * i] = re * re + im * im;
    buf[2 * i + 1] = 0;
  }
  fft(buf, M, tw, 1);
  for (i = 0; i < n; i++) acov[i] += buf[2 * i] / ((double)M * (double)n);
}

/* ESS of m chains of N draws in x (plain layout), the estimator of
** diag.h, with w's FFT buffers (w->M >= 2N) and rho (N), cm (m). */
static double ess_plain (const double *x, int m, long N, dwork *w)
{
  double mean_var, var_plus, bm = 0, bv = 0, re, ro, tau, ess, sum = 0;
  double *rho = w->rho;
  long t, max_t, i;
  int c;
  if (N < 3 || constant(x, (long)m * N)) return NAN;
  memset(rho, 0, (size_t)N * sizeof(double));
  for (c = 0; c < m; c++) {
    const double *xc = x + (long)c * N;
    double s = 0;
    for (i = 0; i < N; i++) s += xc[i];
    w->cm[c] = s / (double)N;
    autocov_add(xc, N, w->cm[c], rho, w->fft, w->M, w->tw);
  }
  for (t = 0; t < N; t++) rho[t] /= m;
  /* (1) W and var+ */
  mean_var = rho[0] * (double)N / (double)(N - 1);
  var_plus = mean_var * (double)(N - 1) / (double)N;
  if (m > 1) {
    for (c = 0; c < m; c++) bm += w->cm[c];
    bm /= m;
    for (c = 0; c < m; c++) bv += (w->cm[c] - bm) * (w->cm[c] - bm);
    var_plus += bv / (m - 1);
  }
  /* (2) Geyer's initial positive sequence, in place over the mean
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
  /* (3) Geyer's initial monotone sequence */
  t = 0;
  while (t <= max_t - 4) {
    t += 2;
    if (rho[t] + rho[t + 1] > rho[t - 2] + rho[t - 1]) {
      rho[t] = (rho[t - 2] + rho[t - 1]) / 2;
      rho[t + 1] = rho[t];
    }
  }
  /* (4) the truncated sum, with the last even term */
  ess = (double)m * (double)N;
  for (t = 0; t < max_t; t++) sum += rho[t];
  tau = -1 + 2 * sum + rho[max_t];
  if (tau < 1 / log10(ess)) tau = 1 / log10(ess);
  return ess / tau;
}

/* Split R-hat of m chains of N draws (plain). */
static double rhat_plain (const double *x, int m, long N, double *cm)
{
  double W = 0, bm = 0, bv = 0;
  long i;
  int c;
  if (N < 2 || constant(x, (long)m * N)) return NAN;
  for (c = 0; c < m; c++) {
    const double *xc = x + (long)c * N;
    double s = 0, v = 0;
    for (i = 0; i < N; i++) s += xc[i];
    cm[c] = s / (double)N;
    for (i = 0; i < N; i++) v += (xc[i] - cm[c]) * (xc[i] - cm[c]);
    W += v / (double)(N - 1);
  }
  W /= m;
  for (c = 0; c < m; c++) bm += cm[c];
  bm /= m;
  for (c = 0; c < m; c++) bv += (cm[c] - bm) * (cm[c] - bm);
  bv /= m > 1 ? m - 1 : 1;
  if (W == 0) return INFINITY;
  return sqrt(((double)(N - 1) / (double)N * W + bv) / W);
}

/* == the quantities ======================================================= */

static double ess_bulk_w (dwork *w)
{
  memcpy(w->b, w->a, (size_t)w->S2 * sizeof(double));
  rank_normalize(w->b, w->S2, w->pr);
  return ess_plain(w->b, w->m2, w->h, w);
}

/* ESS of I(a <= q(prob)), q over the split draws. */
static double ess_quant_w (dwork *w, double prob)
{
  double q;
  long i;
  if (w->h < 3) return NAN;
  memcpy(w->b, w->a, (size_t)w->S2 * sizeof(double));
  qsort(w->b, (size_t)w->S2, sizeof(double), cmp_double);
  q = quantile7(w->b, w->S2, prob);
  for (i = 0; i < w->S2; i++) w->b[i] = w->a[i] <= q ? 1 : 0;
  return ess_plain(w->b, w->m2, w->h, w);
}

static double ess_tail_w (dwork *w)
{
  double lo = ess_quant_w(w, 0.05), hi = ess_quant_w(w, 0.95);
  if (isnan(lo) || isnan(hi)) return NAN;
  return lo < hi ? lo : hi;
}

/* Needs w->all (sorted) for the median. */
static double rhat_w (dwork *w)
{
  double med = quantile7(w->all, w->S, 0.5), rb, rf;
  long i;
  if (w->h < 2) return NAN;
  memcpy(w->b, w->a, (size_t)w->S2 * sizeof(double));
  rank_normalize(w->b, w->S2, w->pr);
  rb = rhat_plain(w->b, w->m2, w->h, w->cm);
  for (i = 0; i < w->S2; i++) w->b[i] = fabs(w->a[i] - med);
  rank_normalize(w->b, w->S2, w->pr);
  rf = rhat_plain(w->b, w->m2, w->h, w->cm);
  if (isnan(rb) || isnan(rf)) return isnan(rb) ? rf : rb;
  return rb > rf ? rb : rf;
}

static void mean_sd (const double *x, long S, double *mean, double *sd)
{
  double s = 0, v = 0;
  long i;
  for (i = 0; i < S; i++) s += x[i];
  *mean = s / (double)S;
  for (i = 0; i < S; i++) v += (x[i] - *mean) * (x[i] - *mean);
  *sd = S > 1 ? sqrt(v / (double)(S - 1)) : NAN;
}

int ol_diag_summary (const ol_draws *d, ol_summary *s, ol_err *e)
{
  dwork w;
  int rc;
  if (s == NULL) return ol_err_set(e, OL_EINVAL, "diag: no summary");
  if ((rc = check(d, e)) != OL_OK || (rc = dwork_new(&w, d, e)) != OL_OK)
    return rc;
  gather_sorted(&w, d);
  mean_sd(w.all, w.S, &s->mean, &s->sd);
  s->q5 = quantile7(w.all, w.S, 0.05);
  s->q50 = quantile7(w.all, w.S, 0.5);
  s->q95 = quantile7(w.all, w.S, 0.95);
  split(&w, d);
  s->ess_mean = ess_plain(w.a, w.m2, w.h, &w);
  s->mcse_mean = s->sd / sqrt(s->ess_mean);
  s->rhat_basic = w.h >= 2 ? rhat_plain(w.a, w.m2, w.h, w.cm) : NAN;
  s->ess_bulk = ess_bulk_w(&w);
  s->ess_tail = ess_tail_w(&w);
  s->rhat = rhat_w(&w);
  dwork_free(&w);
  return OL_OK;
}

/* The single quantities share one shape: check, scratch, split, one
** computation, free. */
enum { Q_RHAT, Q_RHAT_BASIC, Q_BULK, Q_TAIL, Q_MEAN, Q_MCSE };

static int single (const ol_draws *d, int what, double *out, ol_err *e)
{
  dwork w;
  int rc;
  if (out == NULL) return ol_err_set(e, OL_EINVAL, "diag: no output");
  if ((rc = check(d, e)) != OL_OK || (rc = dwork_new(&w, d, e)) != OL_OK)
    return rc;
  split(&w, d);
  switch (what) {
  case Q_RHAT:
    gather_sorted(&w, d);
    *out = rhat_w(&w);
    break;
  case Q_RHAT_BASIC:
    *out = w.h >= 2 ? rhat_plain(w.a, w.m2, w.h, w.cm) : NAN;
    break;
  case Q_BULK:
    *out = ess_bulk_w(&w);
    break;
  case Q_TAIL:
    *out = ess_tail_w(&w);
    break;
  case Q_MEAN:
    *out = ess_plain(w.a, w.m2, w.h, &w);
    break;
  default: {
    double mean, sd;
    gather_sorted(&w, d);
    mean_sd(w.all, w.S, &mean, &sd);
    *out = sd / sqrt(ess_plain(w.a, w.m2, w.h, &w));
    break;
  }
  }
  dwork_free(&w);
  return OL_OK;
}

int ol_diag_rhat (const ol_draws *d, double *rhat, ol_err *e)
{
  return single(d, Q_RHAT, rhat, e);
}

int ol_diag_rhat_basic (const ol_draws *d, double *rhat, ol_err *e)
{
  return single(d, Q_RHAT_BASIC, rhat, e);
}

int ol_diag_ess_bulk (const ol_draws *d, double *ess, ol_err *e)
{
  return single(d, Q_BULK, ess, e);
}

int ol_diag_ess_tail (const ol_draws *d, double *ess, ol_err *e)
{
  return single(d, Q_TAIL, ess, e);
}

int ol_diag_ess_mean (const ol_draws *d, double *ess, ol_err *e)
{
  return single(d, Q_MEAN, ess, e);
}

int ol_diag_mcse_mean (const ol_draws *d, double *mcse, ol_err *e)
{
  return single(d, Q_MCSE, mcse, e);
}

int ol_diag_quantile (const ol_draws *d, double prob, double *q, ol_err *e)
{
  double *all;
  long S, k = 0, i;
  int rc, c;
  if (q == NULL) return ol_err_set(e, OL_EINVAL, "diag: no output");
  if (!(prob >= 0 && prob <= 1))
    return ol_err_set(e, OL_EINVAL, "diag: probability %g is not in "
                      "[0, 1]", prob);
  if ((rc = check(d, e)) != OL_OK) return rc;
  S = (long)d->m * d->n;
  if ((all = malloc((size_t)S * sizeof(double))) == NULL)
    return ol_err_set(e, OL_ENOMEM, "diag: out of memory (%ld draws)", S);
  for (c = 0; c < d->m; c++)
    for (i = 0; i < d->n; i++) all[k++] = at(d, c, i);
  qsort(all, (size_t)S, sizeof(double), cmp_double);
  *q = quantile7(all, S, prob);
  free(all);
  return OL_OK;
}

int ol_diag_autocov (const double *x, long n, double *acov, ol_err *e)
{
  double *buf, *tw, xbar = 0;
  long M, i;
  if (x == NULL || acov == NULL || n < 1)
    return ol_err_set(e, OL_EINVAL, "diag: autocovariance of %ld values",
                      n);
  M = pow2_at_least(2 * n);
  buf = malloc((size_t)(2 * M) * sizeof(double));
  tw = malloc((size_t)M * sizeof(double));
  if (buf == NULL || tw == NULL) {
    free(buf);
    free(tw);
    return ol_err_set(e, OL_ENOMEM, "diag: out of memory (%ld values)", n);
  }
  twiddles(tw, M);
  for (i = 0; i < n; i++) xbar += x[i];
  xbar /= (double)n;
  memset(acov, 0, (size_t)n * sizeof(double));
  autocov_add(x, n, xbar, acov, buf, M, tw);
  free(buf);
  free(tw);
  return OL_OK;
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
