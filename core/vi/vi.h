/*
** core/vi/vi.h -- the state and the shared step of black-box variational
** inference with a Gaussian family q = N(m, C C') (core/vi/vi.c), used by
** vi.meanfield (C diagonal) and vi.fullrank (C lower triangular).
**
** Parameters theta, np of them, in this order:
**   theta[0, n)          m, the variational mean (c->x after each step)
**   mean-field           theta[n + i] = omega_i = log C_ii
**   full-rank            theta[n + i (i + 1) / 2 + j], 0 <= j <= i: row i
**                        of C packed; the diagonal entry j = i holds
**                        omega_i = log C_ii, the others C_ij themselves
** so np = 2n (mean-field) or n + n (n + 1) / 2 (full-rank).  The loss the
** method descends is the negative ELBO, L(theta) = E_q[U(z)] - H(q), with U
** the density's potential -log p + const.
**
** Ownership: everything is allocated by ol_vi_init into the state and
** freed by ol_vi_fini (which copes with a partial init).
*/
#ifndef OL_VI_H
#define OL_VI_H

#include "method.h"

/* One averaging window (vi.c): the iterates theta_t, t = start, start +
** 1, ..., summed, and cut into batches of len consecutive ones for the
** batch-means standard errors. */
typedef struct ol_vi_win {
  long start, len;      /* first iteration summed; batch length */
  long cnt, bcnt;       /* iterates in the window; in the open batch */
  long nb;              /* closed batches */
  double *sum, *bsum;   /* np each: sum of theta over the window, over the
                           open batch */
  double *mm, *m2;      /* n each: Welford's mean and M2 over the closed
                           batches of the batch's mean m */
  double *Sm, *S2;      /* the same of S(batch mean theta): n x n each,
                           mean-field its n variances */
  double *bm;           /* OL_VI_BMAX x 2n: the closed batches' mean m
                           and log sds omega */
} ol_vi_win;

/* Batches a window closes at most: it spans fewer than 3 start steps in
** batches of at least start / 8. */
#define OL_VI_BMAX 24

typedef struct ol_vi {
  int n, diag, np;
  int opt;              /* 0 adam, 1 sgd */
  int samples;          /* Monte Carlo draws per step, M */
  int stl;              /* sticking-the-landing estimator */
  int evals;            /* fresh draws after each step for the metrics, K */
  int average;          /* return the window average (Polyak-Ruppert) */
  double lr, beta1, beta2, aeps, sd0;
  double decay;         /* tau of the step's (1 + t / tau)^-1/2; 0 none */
  long t;               /* steps taken */
  double b1t, b2t;      /* beta1^t, beta2^t */
  double *theta;        /* np */
  double *g, *g1;       /* np: the step's gradient, one draw's */
  double *am, *av;      /* np: Adam's moments */
  double *d;            /* n: C_ii = exp(omega_i) */
  double *eps, *z, *gz, *w;   /* n each: a draw, its z, grad U(z), C^-T eps */
  double *Z;            /* evals x n: the last fresh draws (r:samples()) */
  double *cov;          /* n x n: C C' when asked for (ol_vi_named) */
  double *Cb;           /* n x n, full-rank: C unpacked for C C' */
  /* the returned q: the window average (average = 1, after a step) or
  ** the iterate; rt (np) and rd (n, exp of its omega) point to avg and
  ** davg or to theta and d */
  ol_vi_win win[2];     /* win[0] the returned one, win[1] the next */
  double *avg, *davg;   /* np, n */
  const double *rt, *rd;
  double *tb, *Sb;      /* max(np, 4), n x n (full-rank): a batch's
                           mean theta and its S; tb also holds the 4
                           numbers of the result window */
  double *se;           /* n x n (full-rank): mean_se, cov_se or drift
                           when asked for; mean-field's go into cov */
  /* the Gaussian target's facts (kl), when the target is one */
  int gauss;
  double *P, *mu;       /* precision (n x n), mean (n) */
  double logdetS;       /* log det Sigma */
  /* the metrics at the current parameters, from the fresh draws */
  double elbo, elbo_se, gradvar;
} ol_vi;

/* Init for a family: diag 1 (mean-field) or 0 (full-rank); par in the
** order of the parameter tables below. */
int ol_vi_init (void *st, int diag, const double *par, ol_ctx *c,
                ol_err *e);
int ol_vi_step (void *st, ol_ctx *c, ol_err *e);
void ol_vi_fini (void *st);
double ol_vi_probe (const void *st, int metric, const ol_ctx *c);

/* One draw of the gradient estimator at the current theta: eps ~ N(0, I)
** from c->rng, z = m + C eps, U(z) and grad U(z) by ol_ctx_grad (one
** gradient evaluation), g (np) the one-draw gradient of the negative ELBO
** (the plain reparameterization estimator with the exact entropy
** gradient, or with s->stl the path estimator), *u = U(z).  z stays in
** s->z.  OL_OK or the oracle's code with e set. */
int ol_vi_draw (ol_vi *s, ol_ctx *c, double *g, double *u, ol_err *e);
/* The named results of the returned q (rt): mean (1 x n), cov (n x n,
** C C' computed into s->cov), mean_se (1 x n) and cov_se (n x n), the
** batch-means standard errors (NaN before 2 batches; none when average
** = 0), drift (2 x n, rows m and the log sds omega: the t statistic of
** the slope of the least-squares line through the window's batch means
** of each against the batch's index, from the residuals' spread; NaN
** before 8 batches; none when average = 0), window (1 x 4: first and last iteration averaged, batches, batch
** length; none when average = 0 or before the first step) and samples
** (the last evals fresh draws, evals x n; none when evals = 0): 1 and *v
** borrowed from s until its next step or the next of these calls (they
** share buffers), else 0.  Every vi method's result hook (method.h):
** st is an ol_vi. */
int ol_vi_named (const void *st, const char *name, const double **v,
                 int *rows, int *cols);

/* The parameter tables, in this order for both methods: lr, optimizer,
** samples, stl, beta1, beta2, eps, sd0, evals, average, decay; they
** differ in the defaults of stl (mean-field 0, full-rank 1) and decay
** (0, 1000): vi.c's header says why. */
#define OL_VI_NPARAMS 11
extern const ol_param ol_vi_meanfield_params[OL_VI_NPARAMS];
extern const ol_param ol_vi_fullrank_params[OL_VI_NPARAMS];

/* The metrics every vi method's probe defines. */
#define OL_PROBES_VI OL_MSET(OL_MET_ELBO, OL_MET_ELBO_SE, OL_MET_ENTROPY, \
                             OL_MET_GRADVAR, OL_MET_KL)

#endif
