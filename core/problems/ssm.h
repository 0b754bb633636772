/*
** core/problems/ssm.h -- a scalar state-space model (general hidden Markov
** model) with its data: what the SMC methods (core/smc/) filter and
** smooth, and, for the linear-Gaussian kind, its exact Kalman filter,
** log-likelihood and Rauch-Tung-Striebel smoother as truth (seed catalog
** T31; Cardoso, Janati El Idrissi, Le Corff, Moulines & Olsson 2023,
** seed B023).
**
** Both kinds share a Gaussian AR(1) state:
**   x_0 ~ N(m0, P0),  x_t = a x_{t-1} + N(0, q)           (t = 1..T-1)
** and observe y_0 .. y_{T-1}:
**   lg  y_t = G x_t + N(0, R)              (a = F, q = Q)
**   sv  y_t = beta exp(x_t / 2) w_t, w_t ~ N(0, 1)
**                                    (a = phi, q = sigma^2, m0 = 0,
**                                     P0 = sigma^2 / (1 - phi^2), the
**                                     stationary law)
** The additive functionals S_h = sum_t h_t(x_{t-1}, x_t) the smoothers
** estimate (OL_SSM_H*): sum x_t, sum x_t^2, and sum_{t>=1} x_{t-1} x_t
** (a pairwise one: what the backward draws of PaRIS are for).
*/
#ifndef OL_SSM_H
#define OL_SSM_H

#include <math.h>

#include "problem.h"
#include "rng.h"

enum { OL_SSM_LG, OL_SSM_SV };
enum { OL_SSM_HSUM, OL_SSM_HSUMSQ, OL_SSM_HCROSS, OL_SSM_NH };

typedef struct ol_ssm {
  int kind;            /* OL_SSM_LG or OL_SSM_SV */
  int T;               /* observations (and states) */
  double a, q;         /* the state's AR(1) coefficient and noise variance */
  double m0, P0;       /* x_0's law */
  double G, R;         /* lg: observation gain and noise variance */
  double beta;         /* sv: the observation scale */
  double *y;           /* T (owned) */
  /* lg only (NULL / NAN for sv): the Kalman filter and RTS smoother */
  double loglik;       /* log p(y_0 .. y_{T-1}) */
  double *mf, *Pf;     /* T each: filtering mean and variance (owned) */
  double *ms, *Ps;     /* T each: smoothing mean and variance (owned) */
  double *C;           /* T: C[t] = Cov(x_{t-1}, x_t | y), C[0] = 0 (owned) */
  double truth[OL_SSM_NH];   /* E[S_h | y] for each h (NAN for sv) */
} ol_ssm;

/* The state-space model of p, or NULL when p is not one (its type has
** no ssm hook: only problem.ssm's has). */
const ol_ssm *ol_ssm_of (const ol_problem *p);

/* The Kalman filter and RTS smoother of the lg model M (M->y set) into
** M's mf, Pf, ms, Ps, C (T each, allocated by the caller), M->loglik and
** M->truth.  Scalar recursions:
**   predict  m- = a m, P- = a^2 P + q  (t = 0: m0, P0)
**   update   S = G^2 P- + R, K = G P- / S, m = m- + K (y - G m-),
**            P = (1 - K G) P-, loglik += log N(y; G m-, S)
**   smooth   J_t = a Pf_t / P-_{t+1}, ms_t = mf_t + J_t (ms_{t+1} - m-_{t+1}),
**            Ps_t = Pf_t + J_t^2 (Ps_{t+1} - P-_{t+1}),
**            C_{t+1} = J_t Ps_{t+1}
** (Rauch, Tung & Striebel 1965; Sarkka 2013, "Bayesian Filtering and
** Smoothing", Theorems 4.2 and 8.2; the lag-one covariance is
** Cov(x_t, x_{t+1} | y) = J_t Ps_{t+1}, from the joint Gaussian of the
** backward step).  Returns OL_OK, or OL_EDOM when a value is not finite. */
int ol_ssm_kalman (ol_ssm *M, ol_err *e);

/* log g(y_t | x): the observation's log density. */
static inline double ol_ssm_logg (const ol_ssm *M, int t, double x)
{
  static const double l2pi = 1.8378770664093454836;   /* log(2 pi) */
  if (M->kind == OL_SSM_LG) {
    double r = M->y[t] - M->G * x;
    return -0.5 * (l2pi + log(M->R) + r * r / M->R);
  } else {
    double v = M->beta * M->beta * exp(x);
    return -0.5 * (l2pi + log(v) + M->y[t] * M->y[t] / v);
  }
}

/* h_t(xp, x) of functional h (OL_SSM_H*); at t = 0 xp is ignored. */
static inline double ol_ssm_h (int h, int t, double xp, double x)
{
  switch (h) {
  case OL_SSM_HSUMSQ: return x * x;
  case OL_SSM_HCROSS: return t > 0 ? xp * x : 0;
  default: return x;
  }
}

#endif
