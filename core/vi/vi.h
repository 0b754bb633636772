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

typedef struct ol_vi {
  int n, diag, np;
  int opt;              /* 0 adam, 1 sgd */
  int samples;          /* Monte Carlo draws per step, M */
  int stl;              /* sticking-the-landing estimator */
  int evals;            /* fresh draws after each step for the metrics, K */
  double lr, beta1, beta2, aeps, sd0;
  double b1t, b2t;      /* beta1^t, beta2^t */
  double *theta;        /* np */
  double *g, *g1;       /* np: the step's gradient, one draw's */
  double *am, *av;      /* np: Adam's moments */
  double *d;            /* n: C_ii = exp(omega_i) */
  double *eps, *z, *gz, *w;   /* n each: a draw, its z, grad U(z), C^-T eps */
  double *Z;            /* evals x n: the last fresh draws (r:samples()) */
  double *cov;          /* n x n: C C' when asked for (ol_vi_result) */
  /* the Gaussian target's facts (kl), when the target is one */
  int gauss;
  double *P, *mu;       /* precision (n x n), mean (n) */
  double logdetS;       /* log det Sigma */
  /* the metrics at the current parameters, from the fresh draws */
  double elbo, elbo_se, gradvar;
} ol_vi;

/* Init for a family: diag 1 (mean-field) or 0 (full-rank); par in the
** order of the parameter table OL_VI_PARAMS (vi.c's ol_vi_params). */
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
/* The named results mean (1 x n), cov (n x n, C C' computed into
** s->cov) and samples (the last evals fresh draws, evals x n; none when
** evals = 0): 1 and *v borrowed from s until its next step, else 0. */
int ol_vi_named (const ol_vi *s, const char *name, const double **v,
                 int *rows, int *cols);
/* H(q) = n/2 (1 + log 2 pi) + sum_i omega_i. */
double ol_vi_entropy (const ol_vi *s);

/* The parameter table both methods share: lr, optimizer, samples, stl,
** beta1, beta2, eps, sd0, evals. */
#define OL_VI_NPARAMS 9
extern const ol_param ol_vi_params[OL_VI_NPARAMS];

/* The metrics every vi method's probe defines. */
#define OL_PROBES_VI (OL_MBIT(OL_MET_ELBO) | OL_MBIT(OL_MET_ELBO_SE) | \
                      OL_MBIT(OL_MET_ENTROPY) | OL_MBIT(OL_MET_GRADVAR) | \
                      OL_MBIT(OL_MET_KL))

#endif
