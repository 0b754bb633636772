/*
** core/problems/eightschools.c -- the eight schools hierarchical model
** (Rubin 1981; Gelman et al., Bayesian Data Analysis, 3rd ed., section
** 5.5), as posteriordb's eight_schools_noncentered / _centered.
**
** Data: effects y = (28, 8, -3, 7, -1, 1, 18, 12) with standard errors
** sigma = (15, 10, 16, 11, 9, 11, 10, 18), J = 8.  Model:
**   y_j ~ N(theta_j, sigma_j),  theta_j ~ N(mu, tau),
**   mu ~ N(0, 5),  tau ~ half-Cauchy(0, 5)  (tau > 0).
** tau is sampled as u = log tau (lower bound 0, Stan's log transform), so
** U gains -log |dtau/du| = -u.  Coordinates (posteriordb's order):
**   non-centred  q = (theta_trans_1..8, mu, u), theta = mu + tau theta_trans,
**                theta_trans ~ N(0, 1):
**     U = sum_j theta_trans_j^2 / 2 + sum_j r_j^2 / (2 sigma_j^2)
**         + mu^2 / 50 + log(1 + tau^2 / 25) - u,  r_j = y_j - theta_j
**   centred      q = (theta_1..8, mu, u):
**     U = sum_j (theta_j - mu)^2 / (2 tau^2) + J u
**         + sum_j (y_j - theta_j)^2 / (2 sigma_j^2)
**         + mu^2 / 50 + log(1 + tau^2 / 25) - u
** (constants dropped).  The transform (p->xform) reports x = (theta_1..8,
** mu, tau) either way, posteriordb's reference parameters.  No closed
** form moments (mean, cov NULL); posteriordb's reference means are about
** mu 4.41, tau 3.60.  x0 = 0 (tau = 1).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ol.h"
#include "problem.h"

#define J 8

static const double es_y[J] = {28, 8, -3, 7, -1, 1, 18, 12};
static const double es_sigma[J] = {15, 10, 16, 11, 9, 11, 10, 18};

static int es_fdf (void *ud, const double *q, double *f, double *g,
                   ol_err *e)
{
  int nc = *(const int *)ud, j;
  double mu = q[J], u = q[J + 1], tau = exp(u), U = 0, dmu = 0, du = 0;
  (void)e;
  for (j = 0; j < J; j++) {
    double s2 = es_sigma[j] * es_sigma[j];
    if (nc) {
      double tt = q[j], r = es_y[j] - mu - tau * tt;
      U += 0.5 * tt * tt + 0.5 * r * r / s2;
      if (g != NULL) {
        g[j] = tt - tau * r / s2;
        dmu -= r / s2;
        du -= tau * tt * r / s2;            /* dU/dtau times dtau/du */
      }
    }
    else {
      double th = q[j], d = th - mu, r = es_y[j] - th;
      U += 0.5 * d * d / (tau * tau) + 0.5 * r * r / s2;
      if (g != NULL) {
        g[j] = d / (tau * tau) - r / s2;
        dmu -= d / (tau * tau);
        du -= d * d / (tau * tau);
      }
    }
  }
  if (!nc) U += J * u;
  U += mu * mu / 50 + log1p(tau * tau / 25) - u;
  if (f != NULL) *f = U;
  if (g != NULL) {
    g[J] = dmu + mu / 25;
    g[J + 1] = du + (nc ? 0 : J) + 2 * tau * tau / (25 + tau * tau) - 1;
  }
  return OL_OK;
}

/* (theta_trans or theta, mu, log tau) -> (theta, mu, tau). */
static void nc_constrain (int n, const double *q, double *x)
{
  double mu = q[J], tau = exp(q[J + 1]);
  int j;
  (void)n;
  for (j = 0; j < J; j++) x[j] = mu + tau * q[j];
  x[J] = mu;
  x[J + 1] = tau;
}

static void c_constrain (int n, const double *q, double *x)
{
  int j;
  (void)n;
  for (j = 0; j < J; j++) x[j] = q[j];
  x[J] = q[J];
  x[J + 1] = exp(q[J + 1]);
}

static int tau_check (const double *x, ol_err *e)
{
  if (!(x[J + 1] > 0) || isinf(x[J + 1]))
    return ol_err_set(e, OL_EINVAL, "x[%d] = tau = %g is not inside (0, "
                      "inf)", J + 2, x[J + 1]);
  return OL_OK;
}

static int nc_unconstrain (int n, const double *x, double *q, ol_err *e)
{
  double mu = x[J], tau = x[J + 1];
  int j;
  (void)n;
  if (tau_check(x, e) != OL_OK) return OL_EINVAL;
  for (j = 0; j < J; j++) q[j] = (x[j] - mu) / tau;
  q[J] = mu;
  q[J + 1] = log(tau);
  return OL_OK;
}

static int c_unconstrain (int n, const double *x, double *q, ol_err *e)
{
  int j;
  (void)n;
  if (tau_check(x, e) != OL_OK) return OL_EINVAL;
  for (j = 0; j < J; j++) q[j] = x[j];
  q[J] = x[J];
  q[J + 1] = log(x[J + 1]);
  return OL_OK;
}

static const ol_transform nc_transform = {
  NULL, NULL, nc_constrain, nc_unconstrain
};
static const ol_transform c_transform = {
  NULL, NULL, c_constrain, c_unconstrain
};

static const ol_param es_params[] = {
  {"noncentered", OL_P_BOOL, 1, 0, 1, "sample theta_trans = (theta - mu) "
   "/ tau instead of theta", NULL},
};

static int es_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int *nc;
  if ((nc = malloc(sizeof *nc)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  *nc = v[0].num != 0;
  p->ud = nc;
  p->free_ud = free;
  if ((p->x0 = ol_problem_alloc(J + 2, e)) == NULL) return OL_ENOMEM;
  snprintf(p->name, sizeof p->name, "eightschools");
  p->kind = OL_DENSITY;
  p->n = J + 2;
  p->fdf = es_fdf;
  p->xform = *nc ? &nc_transform : &c_transform;
  snprintf(p->desc, sizeof p->desc, "eightschools{noncentered=%s}",
           *nc ? "true" : "false");
  return OL_OK;
}

const ol_problem_type ol_problem_eightschools = {
  .name = "eightschools",
  .kind = OL_DENSITY,
  .doc = "eight schools hierarchical model, tau = e^u; draws (theta_1..8, mu, "
         "tau)",
  .ref = "Rubin 1981; Gelman et al., BDA3, section 5.5",
  .params = es_params,
  .nparams = (int)(sizeof es_params / sizeof es_params[0]),
  .create = es_create,
};
