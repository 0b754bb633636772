/*
** core/vi/mixflow.h -- the state of vi.mixflow (core/vi/mixflow.c): a
** mixed variational flow over the augmented space (x, rho, u), with the
** flow map, its inverse, the exact density and one trajectory's unbiased
** ELBO exposed for the tests (tests/c/t_mixflow.c).
**
** A point of the augmented space is x (n), the momentum rho (n) and the
** pseudo-time u in [0, 1).  The reference qbar0 = N(m0, sd0^2 I) x m^n x
** U[0, 1) and the target pibar = p(x) m^n(rho) U[0, 1), m the momentum
** density (standard Laplace or normal).  The mixture is qbar_N = (1/N)
** sum_{k<N} T^k_# qbar0 (mixflow.c's header).
**
** Ownership: everything is allocated by init into the state and freed by
** fini (which copes with a partial init); the functions below use the
** state's scratch and never allocate.
*/
#ifndef OL_VI_MIXFLOW_H
#define OL_VI_MIXFLOW_H

#include "method.h"

typedef struct ol_mixflow {
  int n, N, L, evals;
  int mom;              /* 0 laplace, 1 normal */
  int stream;           /* 1: zeta = (sin(2 x_i + u) + 1) / 2; 0: xi */
  double eps, xi, sd0;
  double *m0;           /* n: the reference's mean (x0) */
  /* one trajectory: K = 2N - 1 points, index N - 1 the reference draw
  ** x0bar, index N - 1 + j = T^j x0bar (j > -N) */
  double *X;            /* K x n positions */
  double *S;            /* K: S_{N-1} = 0, S_{k+1} = S_k + log det J_T(k) */
  double *A;            /* K: log qbar0 at point k, + S_k */
  double *W;            /* N: log-sum-exps of the suffixes of A */
  double *lp;           /* N: log pibar at the forward points */
  double *z, *rho, *g;  /* n each: the working point and grad U there */
  double *g0;           /* n: grad U at the trajectory's X_0 */
  double *x0, *rho0;    /* n each: a reference draw */
  double *Z;            /* evals x n: the last step's draws of q_N's x */
  /* pooled over every trajectory drawn (elbo, entropy, mean) */
  long ndraw;
  double eh, esum, esq; /* per-trajectory ELBO: shift, sums about it */
  double hsum;          /* of the per-trajectory entropy estimate */
  double *xsum, *xsq;   /* n each: of the trajectory means of x */
  double *mean, *mse;   /* n each: the pooled mean and its MC error */
  /* a Gaussian target's log Z (kl), when the target is one */
  int gauss;
  double logZ;
} ol_mixflow;

/* One map T (forward) or T^-1 (backward) of the point (z, rho, *u) in
** place, with g = grad U(z) on entry and on return (U at the new z into
** *f when f != NULL); *logj = log abs det J_T at the pre-image (the same
** for both directions: the forward map's Jacobian at the point the
** backward map returns).  OL_OK, the oracle's code, or OL_EDOM when the
** momentum leaves the reals (a step size too large). */
int ol_mixflow_map (ol_mixflow *s, ol_ctx *c, int backward, double *z,
                    double *rho, double *u, double *g, double *f,
                    double *logj, ol_err *e);
/* log qbar0 and log pibar (up to log Z) at (x, rho); u in [0, 1). */
double ol_mixflow_logq0 (const ol_mixflow *s, const double *x,
                         const double *rho);
/* log qbar_N at the augmented point (x, rho, u), by N - 1 backward maps
** (the density formula, independent of the trajectory's sliding window);
** into *logq.  Uses s->z, s->rho, s->g. */
int ol_mixflow_logq (ol_mixflow *s, ol_ctx *c, const double *x,
                     const double *rho, double u, double *logq, ol_err *e);
/* One trajectory from the reference point (x0, rho0, u0): its ELBO
** estimate (1/N) sum_j [log pibar - log qbar_N](T^j x0bar) into *elbo, its
** entropy estimate into *ent (NULL: not wanted); the trajectory stays in
** s->X (positions only). */
int ol_mixflow_traj (ol_mixflow *s, ol_ctx *c, const double *x0,
                     const double *rho0, double u0, double *elbo,
                     double *ent, ol_err *e);

#define OL_MIXFLOW_NPARAMS 8
extern const ol_param ol_mixflow_params[OL_MIXFLOW_NPARAMS];

#endif
