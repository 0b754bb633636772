/*
** core/diag.h -- convergence and efficiency diagnostics of MCMC draws,
** with the definitions of Vehtari, Gelman, Simpson, Carpenter & Buerkner
** (2021), "Rank-normalization, folding, and localization: an improved
** R-hat for assessing convergence of MCMC", Bayesian Analysis 16(2), as
** implemented by Stan and the posterior R package.
**
** Input: m chains of n draws of one scalar, read through an ol_draws
** view (any strides, so a coordinate of interleaved draws needs no copy).
** Definitions, for the S = m n draws:
**   split        each chain cut in two halves of floor(n/2) draws (the
**                middle draw of an odd chain is dropped): 2m chains
**   rank-norm.   z = Phi^-1((r - 3/8) / (S' + 1/4)), r the rank of a draw
**                among the S' draws (ties: average rank)   (eq. 14)
**   fold         |x - median(x)|, median over all draws
**   R-hat basic  on split chains of N draws, W the mean within-chain
**                variance, B/N the variance of the chain means:
**                sqrt(((N - 1)/N W + B/N) / W)             (eq. 3-4)
**   R-hat        max(R-hat basic of rank-norm. split draws, R-hat basic of
**                rank-norm. split folded draws)              (section 4.2);
**                NAN when either is (R's max)
**   ESS          on split chains (eq. 10-11): N m / tau, tau = -1 + 2 sum
**                of Geyer's initial monotone sequence of the combined
**                autocorrelations rho_t = 1 - (W - mean_c acov_c(t)) / var+,
**                var+ = (N - 1)/N W + B/N; pairs summed while positive,
**                made monotone, the last even term added (Stan's improved
**                estimate), tau >= 1 / log10(N m) (so ESS <= S log10 S);
**                as posterior's .ess, sum(rho[1:max_t]) keeps rho_0 = 1
**                when the loop never ran (N < 6): tau = 2, ESS = N m / 2
**   constant     max - min < DBL_EPSILON (posterior's should_return_NA,
**                an absolute tolerance): ESS and R-hat of such input NAN
**   mean, sd     two passes in long double, as R's mean() and sd()
**   ess_mean     ESS of the split draws themselves ("ess_basic")
**   ess_bulk     ESS of the rank-normalised split draws
**   ess_tail     min of the ESS of the split indicators I(x <= q05) and
**                I(x <= q95), quantiles of all draws; NAN for constant
**                draws (posterior's .ess_quantile)
**   mcse_mean    sd / sqrt(ess_mean)
**   quantiles    R's type 7: x_(floor(h)) + (h - floor(h)) (x_(floor(h)+1)
**                - x_(floor(h))), h = (S - 1) p, order statistics from 0
** Autocovariances are the biased estimate (divisor N, Geyer 1992) by FFT
** (radix 2, zero padded to a power of two >= 2N), O(N log N) per chain.
**
** Statuses: OL_OK; OL_EINVAL for a NULL pointer, m < 1, n < 1 or a
** stride < 1; OL_EDOM when a draw is not finite (the message names chain
** and draw); OL_ENOMEM.  A quantity that is not defined for valid input
** is NAN with OL_OK: ESS and R-hat when a split chain has fewer than 3
** draws (n < 6 for ESS, n < 4 for R-hat) or when the draws (or their
** transform) are constant; sd and mcse when S < 2.
**
** Memory: each function mallocs its scratch and frees it before it
** returns (about 4 S + 3 M doubles and S index pairs for the summary, M
** the FFT length <= 4 n); nothing is kept between calls.  No globals:
** thread-safe.
*/
#ifndef OL_DIAG_H
#define OL_DIAG_H

#include "ol.h"

/* A view of m chains of n draws: draw i of chain c is
** x[c * cstride + i * dstride].  Borrowed for the call. */
typedef struct ol_draws {
  const double *x;
  int m;
  long n;
  long dstride;         /* between consecutive draws of a chain, >= 1 */
  long cstride;         /* between the first draws of two chains, >= 1 */
} ol_draws;

/* The plain layout: chains x draws, row-major (dstride 1, cstride n). */
static inline ol_draws ol_draws_plain (const double *x, int m, long n)
{
  ol_draws d;
  d.x = x;
  d.m = m;
  d.n = n;
  d.dstride = 1;
  d.cstride = n;
  return d;
}

/* Coordinate j of interleaved draws: chain c holds n rows of dim
** numbers, chains one after the other (draw i of chain c, coordinate j at
** x[(c n + i) dim + j]). */
static inline ol_draws ol_draws_coord (const double *x, int m, long n,
                                       int dim, int j)
{
  ol_draws d;
  d.x = x + j;
  d.m = m;
  d.n = n;
  d.dstride = dim;
  d.cstride = n * (long)dim;
  return d;
}

/* One row of a Stan-like summary table. */
typedef struct ol_summary {
  double mean, sd;      /* over all S draws (sd: divisor S - 1) */
  double mcse_mean;     /* sd / sqrt(ess_mean) */
  double q5, q50, q95;  /* type-7 quantiles of all draws */
  double ess_bulk, ess_tail, ess_mean;
  double rhat;          /* rank-normalised split R-hat (bulk and folded) */
  double rhat_basic;    /* split R-hat of the raw draws */
} ol_summary;

/* Every field of the summary of d. */
int ol_diag_summary (const ol_draws *d, ol_summary *s, ol_err *e);

/* The single quantities (same definitions as in the summary). */
int ol_diag_rhat (const ol_draws *d, double *rhat, ol_err *e);
int ol_diag_rhat_basic (const ol_draws *d, double *rhat, ol_err *e);
int ol_diag_ess_bulk (const ol_draws *d, double *ess, ol_err *e);
int ol_diag_ess_tail (const ol_draws *d, double *ess, ol_err *e);
int ol_diag_ess_mean (const ol_draws *d, double *ess, ol_err *e);
int ol_diag_mcse_mean (const ol_draws *d, double *mcse, ol_err *e);
/* Type-7 quantile of probability prob in [0, 1] over all draws. */
int ol_diag_quantile (const ol_draws *d, double prob, double *q, ol_err *e);

/* The worst coordinate of m chains held apart, as a running diagnostic
** of several chains shown together: the max over dim coordinates of the
** rank-normalised split R-hat (*rhat) and the min of the bulk-ESS (*ess),
** each coordinate's value exactly ol_diag_rhat / ol_diag_ess_bulk of its
** m x n draws.  Chain c's draw i, coordinate j is x[c][i * stride + j]
** (stride >= dim; chains may live in separate arrays).  A coordinate whose
** value is NAN (too few draws, constant draws) makes the result NAN.  One
** m n scratch array is malloc'd and freed.  OL_EINVAL for a NULL pointer,
** m < 1, n < 1, dim < 1 or stride < dim; OL_EDOM, OL_ENOMEM as above. */
int ol_diag_worst (const double *const *x, int m, long n, int dim,
                   long stride, double *rhat, double *ess, ol_err *e);

/* ol_diag_worst of sampler runs pooled as chains (a chain set, as the
** pooled rhat and ess panels of core/plot/ draw it): chain c is the
** first n kept draws of runs[c] (ol_run_draws: x on the problem's
** constrained scale), the first 64 runs when there are more.  Every run
** must be of one problem and keep at least n draws (else OL_EINVAL); the
** values are r:summary()'s max rhat and min ess_bulk when n is every
** draw kept.  Errors otherwise as ol_diag_worst. */
struct ol_run;
int ol_diag_runs (const struct ol_run *const *runs, int m, long n,
                  double *rhat, double *ess, ol_err *e);

/* Building blocks on plain arrays. */
/* The biased autocovariance acov[t] = (1/n) sum_{i < n - t} (x_i - xbar)
** (x_{i+t} - xbar), t = 0 .. n-1, of one sequence by FFT.  acov has n
** entries.  OL_EINVAL (n < 1), OL_ENOMEM. */
int ol_diag_autocov (const double *x, long n, double *acov, ol_err *e);
/* ESS of m chains of n draws, plain layout (no splitting, no transform):
** the estimator above; NAN when n < 3 or the draws are constant. */
int ol_diag_ess_chains (const double *x, int m, long n, double *ess,
                        ol_err *e);
/* Phi^-1(p), the standard normal quantile (Wichura 1988, AS 241,
** PPND16: relative error about 1e-16); -inf at 0, +inf at 1, NAN outside
** [0, 1]. */
double ol_diag_qnorm (double p);

#endif
