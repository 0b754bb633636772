/*
** core/sample/adapt.h -- warmup adaptation shared by the adaptive
** samplers (rwmh, hmc, nuts): dual-averaging step size and a windowed
** diagonal metric, as in Stan.
**
** Dual averaging (Hoffman & Gelman 2014, JMLR 15, section 3.2, eq. 5-6,
** after Nesterov 2009), on log eps, with Stan's constants:
**   H_t   = (1 - 1/(t + t0)) H_{t-1} + (delta - a_t) / (t + t0)
**   log eps_t    = mu - sqrt(t) / gamma * H_t
**   log epsbar_t = t^-kappa log eps_t + (1 - t^-kappa) log epsbar_{t-1}
**   gamma = 0.05, t0 = 10, kappa = 0.75, mu = log(10 eps0)
** a_t is the step's acceptance statistic (capped at 1), delta the target.
** At the end of warmup eps is frozen at epsbar.
**
** Windowed metric (Stan's windowed_adaptation and var_adaptation): for
** warmup W >= 150 an initial buffer of 75 steps (step size only), then
** windows of 25, 50, 100, ... steps (each twice the last; the last one
** stretched to end where the terminal buffer begins), a terminal buffer
** of 50 steps (step size only).  For 20 <= W < 150 the buffers are
** 15% and 10% of W and one window fills the rest; for W < 20 only the
** step size is adapted.  At the end of a window the inverse metric
** becomes the window's regularised sample variance
**   M^-1_i = n/(n + 5) var_i + 1e-3 * 5/(n + 5)
** (Welford's algorithm, n draws), and the caller re-initialises the step
** size (a new heuristic start) and restarts dual averaging from it.
** Dense (Stan's covar_adaptation): the window's sample covariance S
** (Welford on outer products), regularised the same way,
**   M^-1 = n/(n + 5) S + 1e-3 * 5/(n + 5) I,
** written to cov (n x n), its diagonal to minv.
**
** All memory is allocated by the init functions and freed by the fini
** ones; the learn functions never allocate.
*/
#ifndef OL_SAMPLE_ADAPT_H
#define OL_SAMPLE_ADAPT_H

#include "ol.h"

#define OL_DA_GAMMA 0.05
#define OL_DA_T0 10.0
#define OL_DA_KAPPA 0.75

typedef struct ol_dualavg {
  double delta;         /* target acceptance statistic */
  double mu;            /* log(10 eps) of the latest (re)start */
  double hbar;          /* H_t */
  double xbar;          /* log epsbar_t */
  long t;               /* updates since the latest (re)start */
} ol_dualavg;

/* Start at eps (> 0) with target delta in (0, 1). */
void ol_dualavg_start (ol_dualavg *d, double delta, double eps);
/* One update with acceptance statistic a; returns eps_t (NAN a counts as
** 0: a step that met a non-finite value accepted nothing). */
double ol_dualavg_learn (ol_dualavg *d, double a);
/* epsbar_t, the step size to freeze after warmup (eps when no update was
** made since the latest restart). */
double ol_dualavg_final (const ol_dualavg *d, double eps);

typedef struct ol_winvar {
  long warmup, init_buffer, term_buffer, base_window;
  long counter;         /* warmup steps seen */
  long window;          /* size of the current window */
  long next_window;     /* counter value that ends the current window */
  int on;               /* 0 for warmup < 20: no metric adaptation */
  int n;
  int dense;            /* 1: estimate the covariance */
  long ns;              /* draws in the current window */
  double *mean, *m2;    /* Welford accumulators (n each) */
  double *c2, *cov;     /* dense: Welford's co-moments, the latest
                           regularised covariance (n x n each) */
  double *d;            /* dense: n of scratch */
} ol_winvar;

/* Set the windows for a warmup of the given length.  OL_ENOMEM. */
int ol_winvar_init (ol_winvar *w, int n, long warmup, ol_err *e);
/* Other buffers than Stan's 75, 50 and 25 (after init, before the first
** learn): the same rules with these lengths. */
void ol_winvar_buffers (ol_winvar *w, long init_buffer, long term_buffer,
                        long base_window);
/* Account the warmup draw x; at the end of a window write the new
** inverse metric into minv (n entries) and return 1, else return 0. */
int ol_winvar_learn (ol_winvar *w, const double *x, double *minv);
void ol_winvar_fini (ol_winvar *w);   /* copes with a zeroed struct */

/* The two together, as a sampler's warmup. */
typedef struct ol_adapt {
  ol_dualavg da;
  ol_winvar wv;
  long warmup;          /* warmup steps */
  long iter;            /* warmup steps adapted so far */
  int metric;           /* 1: estimate the diagonal metric, 2: the dense
                           one (wv.cov) */
} ol_adapt;

enum { OL_ADAPT_NONE = 0, OL_ADAPT_METRIC = 1 };

/* Warmup of the given length from step size eps0 (mu = log(10 eps0)),
** target delta, with a diagonal (metric = 1), a dense (2) or no (0)
** metric estimation. */
int ol_adapt_init (ol_adapt *a, int n, long warmup, double delta,
                   double eps0, int metric, ol_err *e);
/* After a warmup step with acceptance statistic accept at state x:
** updates *eps (dual averaging; at the last warmup step the frozen
** epsbar) and, at the end of a window, minv (dense: also a->wv.cov, for
** ol_mass_set).  Returns OL_ADAPT_METRIC when
** minv changed (the caller then re-initialises *eps and calls
** ol_adapt_restart), else OL_ADAPT_NONE; does nothing after warmup. */
int ol_adapt_step (ol_adapt *a, double accept, const double *x, double *eps,
                   double *minv);
/* Restart dual averaging from eps after a metric update. */
void ol_adapt_restart (ol_adapt *a, double eps);
/* 1 while warmup steps remain. */
static inline int ol_adapt_active (const ol_adapt *a)
{
  return a->iter < a->warmup;
}
void ol_adapt_fini (ol_adapt *a);

#endif
