/*
** core/smc/pf.h -- what the SMC methods share: one pass of the bootstrap
** particle filter over a state-space model (problems/ssm.h) carrying the
** PaRIS statistics of an additive functional, unconditional or
** conditional on a frozen reference path, and the draw of a path from
** the pass's backward indices.
**
** The pass (Gordon, Salmond & Smith 1993, the bootstrap filter; Olsson &
** Westerborn 2017, "Efficient particle-based online smoothing in general
** hidden Markov models: the PaRIS algorithm", Bernoulli 23(3): its
** PaRIS update with backward indices drawn by accept-reject, Section 3;
** the algorithm and equation numbers could not be checked here), with N
** particles and Ntilde backward draws:
**   t = 0   x_0^i ~ N(m0, P0), tau_0^i = h_0(x_0^i)
**   t >= 1  (1) ancestors a_i ~ W_{t-1} (multinomial resampling, at every
**               step; the draws from W by Walker's alias table, O(1)
**               each), x_t^i ~ N(a x_{t-1}^{a_i}, q);
**           (2) Ntilde backward indices J_{i,k}, i.i.d. from the backward
**               kernel  Lambda(i, j) prop. to W_{t-1}^j q(x_t^i | x_{t-1}^j),
**               by accept-reject: j ~ W_{t-1}, accepted with probability
**               q(x_t^i | x_{t-1}^j) / max q = exp(-(x_t^i - a x_{t-1}^j)^2
**               / (2 q)); after KMAX rejections of one particle's draws
**               its remaining draws are taken from Lambda(i, .) computed
**               in full (O(N); the hybrid of Dau & Chopin, "On the
**               complexity of backward smoothing algorithms", arXiv 2022,
**               so the cost stays bounded in the tails; each draw is
**               still exact);
**           (3) tau_t^i = (1/Ntilde) sum_k [tau_{t-1}^{J_{i,k}}
**                                          + h_t(x_{t-1}^{J_{i,k}}, x_t^i)];
**   every t w_t^i = g(y_t | x_t^i), W_t = w_t / sum w_t.
** The estimate of E[S_h | y] is sum_i W_{T-1}^i tau_{T-1}^i; the
** log-likelihood estimate is sum_t log((1/N) sum_i w_t^i) (unbiased for
** p(y) on the natural scale: Del Moral 2004, "Feynman-Kac Formulae",
** the unbiasedness of the unnormalised particle measures); ess is
** the mean over t of the effective sample size (sum w)^2 / sum w^2 over N.
**
** Conditional (a reference path z given, particle Gibbs of Andrieu, Doucet
** & Holenstein 2010): particle N-1 is z_t at every t (not resampled nor
** moved); the others are as above, resampling among all N; the backward
** draws and tau of every particle, the reference's included, are as
** above.  This is how we read "a PaRIS algorithm driven by conditional
** SMC moves" (Cardoso et al. 2023; only its abstract could be read here,
** not its algorithm box: ppg.c lists what is unchecked).
**
** Path draw (keep): i_{T-1} ~ W_{T-1}, then i_{t-1} = J_{i_t, k} with k
** uniform in 0..Ntilde-1: each step a draw from Lambda(i_t, .) given the
** particles, i.e. backward simulation (Godsill, Doucet & West 2004), so
** the conditional pass followed by this draw is the particle Gibbs
** kernel with backward sampling, which leaves the smoothing law invariant
** (Whiteley 2010; Lindsten & Schon 2013, "Backward simulation methods
** for Monte Carlo statistical inference").
**
** Cost: one pass moves N (T - 1) + N particles and makes N Ntilde (T - 1)
** backward draws, each O(1) expected proposals (props counts them).
** Ctrl-C is looked at every time step and every 1024 particles
** (OL_EINTR).
*/
#ifndef OL_SMC_PF_H
#define OL_SMC_PF_H

#include "method.h"
#include "problems/ssm.h"

typedef struct ol_pf {
  const ol_ssm *M;   /* borrowed from the problem */
  int N, nt, h;      /* particles, backward draws, functional OL_SSM_H* */
  int keep;          /* 1: X and B are kept for the path draw */
  double *xp, *xc;   /* N each: particles at t - 1 and t (owned) */
  double *tp, *tc;   /* N each: tau at t - 1 and t (owned) */
  double *lw;        /* N: log weights at t (owned) */
  double *w;         /* N: weights at t - 1, max 1 (owned) */
  double wsum;       /* their sum */
  double *ap;        /* N: alias table of w: acceptance (owned) */
  int *al;           /* N: and alias (owned) */
  int *stk;          /* N: the table's work stack (owned) */
  double *bw;        /* N: a full backward kernel, cumulative (owned) */
  double *X;         /* keep: T N particles, X[t N + i] (owned) */
  int *B;            /* keep: T N Ntilde indices (owned) */
  /* the last pass */
  double est;        /* sum_i W^i tau^i at T - 1 */
  double loglik;     /* log-likelihood estimate */
  double ess;        /* mean over t of ESS_t / N, in (0, 1] */
  long props;        /* backward proposals, all passes */
  long full;         /* full kernels computed (KMAX reached), all passes */
} ol_pf;

/* Set up f for model M: N particles, nt backward draws, functional h,
** keep the history for ol_pf_path (keep = 1: T N (8 + 4 nt) bytes,
** refused above 1 GB with a message naming T and N).  who names the
** method in messages.  ol_pf_fini frees a partial one. */
int ol_pf_init (ol_pf *f, const ol_ssm *M, int N, int nt, int h, int keep,
                const char *who, ol_err *e);
void ol_pf_fini (ol_pf *f);
/* One pass (header): unconditional with ref NULL, else conditional on the
** path ref (T).  xmean (T, may be NULL) gets the filtering means
** sum_i W_t^i x_t^i.  OL_OK or OL_EINTR. */
int ol_pf_pass (ol_pf *f, const double *ref, ol_rng *rng, double *xmean,
                ol_err *e);
/* A path from the last pass into path (T); needs keep. */
void ol_pf_path (const ol_pf *f, ol_rng *rng, double *path);
/* The check hook of the SMC methods: p must be a problem.ssm. */
int ol_smc_check (const ol_method_type *m, const ol_problem *p, ol_err *e);

#endif
