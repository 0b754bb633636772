/*
** core/problems/ssm.c -- problem.ssm: a scalar state-space model with
** simulated (or given) data (ssm.h), the test problem of the SMC methods
** (seed catalog T31: a linear-Gaussian model with its Kalman/RTS truth,
** and stochastic volatility; Cardoso, Janati El Idrissi, Le Corff,
** Moulines & Olsson 2023, "State and parameter learning with PaRIS
** particle Gibbs", ICML, seed B023, use both kinds).
**
** As a problem it is the density of the hidden path given the data, on
** x = (x_0 .. x_{T-1}):
**   U(x) = -log p(x, y) = -log N(x_0; m0, P0)
**          - sum_{t>=1} log N(x_t; a x_{t-1}, q) - sum_t log g(y_t | x_t)
** (every constant kept, so U is -log of the joint density exactly), its
** gradient in closed form, x0 = 0.  For lg the posterior is Gaussian:
** its mean (= its mode, x*) is the RTS smoother's, and its covariance,
** kept for T <= 200, is Cov(x_s, x_t | y) = J_s .. J_{t-1} Ps_t (s < t),
** the backward recursion of the RTS gains.  So the samplers run on it too
** and meanerr is measured against the truth.
**
** Data: y given (its length is T), or simulated from seed (stream 0 of
** the seeded generator: x_0, then for each t the state's noise, then the
** observation's).  Ranges are checked by the parameter table (variances
** > 0, |phi| < 1, T >= 1); a simulated path that overflows (|F| > 1 over
** a long T) is refused with its t.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problems/ssm.h"

#define OPEN1 0.9999999999999999   /* the double below 1: |phi| < 1 */
#define COVMAX 200                 /* the posterior covariance is kept up
                                      to this T (T^2 doubles) */

static const ol_param ssm_params[] = {
  {"kind", OL_P_ENUM, 0, 0, 1, "linear-Gaussian (lg) or stochastic "
   "volatility (sv)", "lg|sv"},
  {"T", OL_P_INT, 100, 1, 100000, "number of observations y_0 .. y_{T-1} "
   "(and hidden states)", NULL},
  {"F", OL_P_REAL, 0.9, -OL_FINITE, OL_FINITE, "lg: state transition, "
   "x_t = F x_{t-1} + N(0, Q)", NULL},
  {"G", OL_P_REAL, 1, -OL_FINITE, OL_FINITE, "lg: observation gain, "
   "y_t = G x_t + N(0, R)", NULL},
  {"Q", OL_P_REAL, 1, OL_GT0, OL_FINITE, "lg: state noise variance", NULL},
  {"R", OL_P_REAL, 1, OL_GT0, OL_FINITE, "lg: observation noise variance",
   NULL},
  {"m0", OL_P_REAL, 0, -OL_FINITE, OL_FINITE, "lg: mean of x_0", NULL},
  {"P0", OL_P_REAL, 1, OL_GT0, OL_FINITE, "lg: variance of x_0", NULL},
  {"phi", OL_P_REAL, 0.98, -OPEN1, OPEN1, "sv: persistence, x_t = phi "
   "x_{t-1} + sigma v_t (x_0 from the stationary law)", NULL},
  {"sigma", OL_P_REAL, 0.16, OL_GT0, OL_FINITE, "sv: volatility of the "
   "log-variance", NULL},
  {"beta", OL_P_REAL, 0.65, OL_GT0, OL_FINITE, "sv: scale, y_t = beta "
   "exp(x_t / 2) w_t", NULL},
  {"seed", OL_P_INT, 1, 0, 9007199254740992.0, "seed of the simulated "
   "data", NULL},
  {"y", OL_P_VECTOR, 0, 0, 0, "the data y_0 .. y_{T-1} (then T is its "
   "length; default: simulated)", NULL},
};
#define NPARAMS (int)(sizeof ssm_params / sizeof ssm_params[0])

static void ssm_free (void *ud)
{
  ol_ssm *M = ud;
  if (M == NULL) return;
  free(M->y);
  free(M->mf);
  free(M->Pf);
  free(M->ms);
  free(M->Ps);
  free(M->C);
  free(M);
}

static const ol_ssm *ssm_ud (const ol_problem *p)
{
  return p->ud;
}

const ol_ssm *ol_ssm_of (const ol_problem *p)
{
  if (p == NULL || p->type->ssm == NULL) return NULL;
  return p->type->ssm(p);
}

int ol_ssm_kalman (ol_ssm *M, ol_err *e)
{
  static const double l2pi = 1.8378770664093454836;
  int T = M->T, t;
  double m = M->m0, P = M->P0, ll = 0, s[OL_SSM_NH] = {0, 0, 0};
  /* (1) filter */
  for (t = 0; t < T; t++) {
    double S, K, r;
    if (t > 0) {
      m = M->a * m;
      P = M->a * M->a * P + M->q;
    }
    S = M->G * M->G * P + M->R;
    K = M->G * P / S;
    r = M->y[t] - M->G * m;
    ll -= 0.5 * (l2pi + log(S) + r * r / S);
    m += K * r;
    P = (1 - K * M->G) * P;
    M->mf[t] = m;
    M->Pf[t] = P;
  }
  /* (2) smoother, backwards */
  M->ms[T - 1] = M->mf[T - 1];
  M->Ps[T - 1] = M->Pf[T - 1];
  M->C[0] = 0;
  for (t = T - 2; t >= 0; t--) {
    double mp = M->a * M->mf[t], Pp = M->a * M->a * M->Pf[t] + M->q;
    double J = M->a * M->Pf[t] / Pp;
    M->ms[t] = M->mf[t] + J * (M->ms[t + 1] - mp);
    M->Ps[t] = M->Pf[t] + J * J * (M->Ps[t + 1] - Pp);
    M->C[t + 1] = J * M->Ps[t + 1];
  }
  /* (3) the functionals' expectations */
  for (t = 0; t < T; t++) {
    s[OL_SSM_HSUM] += M->ms[t];
    s[OL_SSM_HSUMSQ] += M->ms[t] * M->ms[t] + M->Ps[t];
    if (t > 0) s[OL_SSM_HCROSS] += M->ms[t - 1] * M->ms[t] + M->C[t];
  }
  M->loglik = ll;
  memcpy(M->truth, s, sizeof s);
  if (!isfinite(ll) || !isfinite(s[0]) || !isfinite(s[1])
      || !isfinite(s[2]))
    return ol_err_set(e, OL_EDOM, "ssm: the Kalman smoother is not finite "
                      "(log-likelihood %g): the model's scales overflow; "
                      "use smaller |F|, Q or T", ol_shown(ll));
  return OL_OK;
}

/* U(x) = -log p(x, y) and its gradient (header). */
static int ssm_fdf (void *ud, const double *x, double *f, double *g,
                    ol_err *e)
{
  static const double l2pi = 1.8378770664093454836;
  const ol_ssm *M = ud;
  int T = M->T, t;
  double U, r;
  (void)e;
  r = x[0] - M->m0;
  U = 0.5 * (l2pi + log(M->P0) + r * r / M->P0);
  if (g != NULL) {
    memset(g, 0, sizeof *g * (size_t)T);
    g[0] = r / M->P0;
  }
  for (t = 0; t < T; t++) {
    if (t > 0) {
      r = x[t] - M->a * x[t - 1];
      U += 0.5 * (l2pi + log(M->q) + r * r / M->q);
      if (g != NULL) {
        g[t] += r / M->q;
        g[t - 1] -= M->a * r / M->q;
      }
    }
    U -= ol_ssm_logg(M, t, x[t]);
    if (g != NULL) {
      if (M->kind == OL_SSM_LG)
        g[t] -= M->G * (M->y[t] - M->G * x[t]) / M->R;
      else
        g[t] += 0.5 - 0.5 * M->y[t] * M->y[t] * exp(-x[t])
                / (M->beta * M->beta);
    }
  }
  if (f != NULL) *f = U;
  return OL_OK;
}

/* The data: y given, or x and y simulated from seed (header). */
static int simulate (ol_ssm *M, const ol_pval *v, ol_err *e)
{
  ol_rng rng;
  double x = 0;
  int t;
  if (v[12].arr != NULL) {
    for (t = 0; t < M->T; t++) {
      M->y[t] = v[12].arr[t];
      if (!isfinite(M->y[t]))
        return ol_err_set(e, OL_EINVAL, "ssm: y[%d] = %g is not finite",
                          t + 1, ol_shown(M->y[t]));
    }
    return OL_OK;
  }
  ol_rng_seed(&rng, (uint64_t)v[11].num, 0);
  for (t = 0; t < M->T; t++) {
    x = t == 0 ? M->m0 + sqrt(M->P0) * ol_rng_normal(&rng)
               : M->a * x + sqrt(M->q) * ol_rng_normal(&rng);
    M->y[t] = M->kind == OL_SSM_LG
              ? M->G * x + sqrt(M->R) * ol_rng_normal(&rng)
              : M->beta * exp(x / 2) * ol_rng_normal(&rng);
    if (!isfinite(M->y[t]))
      return ol_err_set(e, OL_EINVAL, "ssm: the simulated path overflows "
                        "at t = %d (|F| = %g > 1 over T = %d): use a "
                        "smaller T or |F|", t, fabs(M->a), M->T);
  }
  return OL_OK;
}

/* lg: the posterior's mean (x*, mean) and, for T <= COVMAX, covariance. */
static int posterior (ol_problem *p, ol_ssm *M, ol_err *e)
{
  int T = M->T, s, t;
  if ((p->mean = ol_problem_alloc(T, e)) == NULL
      || (p->xstar = ol_problem_alloc(T, e)) == NULL)
    return OL_ENOMEM;
  memcpy(p->mean, M->ms, sizeof *M->ms * (size_t)T);
  memcpy(p->xstar, M->ms, sizeof *M->ms * (size_t)T);
  if (T > COVMAX) return OL_OK;
  if ((p->cov = ol_problem_alloc(T * T, e)) == NULL) return OL_ENOMEM;
  for (t = 0; t < T; t++) {
    p->cov[(size_t)t * T + t] = M->Ps[t];
    for (s = t - 1; s >= 0; s--) {
      double Pp = M->a * M->a * M->Pf[s] + M->q;
      double J = M->a * M->Pf[s] / Pp;
      p->cov[(size_t)s * T + t] = p->cov[(size_t)t * T + s]
        = J * p->cov[(size_t)(s + 1) * T + t];
    }
  }
  return OL_OK;
}

static int ssm_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  ol_pval def[NPARAMS];
  ol_ssm *M;
  int i, rc, T;
  if (v == NULL) {
    memset(def, 0, sizeof def);
    for (i = 0; i < NPARAMS; i++) def[i].num = ssm_params[i].def;
    v = def;
  }
  T = v[12].arr != NULL ? v[12].rows * v[12].cols : (int)v[1].num;
  if (T < 1)
    return ol_err_set(e, OL_EINVAL, "ssm: T = %d (or an empty y): give at "
                      "least one observation", T);
  if ((int)v[0].num == OL_SSM_SV && !(fabs(v[8].num) < 1))
    return ol_err_set(e, OL_EINVAL, "ssm: phi = %g is out of range (-1, 1): "
                      "the log-variance must be stationary",
                      ol_shown(v[8].num));
  if ((M = calloc(1, sizeof *M)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = M;
  p->free_ud = ssm_free;
  M->kind = (int)v[0].num;
  M->T = T;
  if (M->kind == OL_SSM_LG) {
    M->a = v[2].num;
    M->G = v[3].num;
    M->q = v[4].num;
    M->R = v[5].num;
    M->m0 = v[6].num;
    M->P0 = v[7].num;
  } else {
    M->a = v[8].num;
    M->q = v[9].num * v[9].num;
    M->beta = v[10].num;
    M->m0 = 0;
    M->P0 = M->q / (1 - M->a * M->a);
    if (!(M->q > 0) || !isfinite(M->P0))
      return ol_err_set(e, OL_EINVAL, "ssm: sigma = %g gives a state "
                        "variance %g: use sigma in [1e-150, 1e150]",
                        v[9].num, M->q);
  }
  M->loglik = NAN;
  for (i = 0; i < OL_SSM_NH; i++) M->truth[i] = NAN;
  if ((M->y = calloc((size_t)T, sizeof *M->y)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  if ((rc = simulate(M, v, e)) != OL_OK) return rc;
  if (M->kind == OL_SSM_LG) {
    if ((M->mf = calloc((size_t)T, sizeof *M->mf)) == NULL
        || (M->Pf = calloc((size_t)T, sizeof *M->Pf)) == NULL
        || (M->ms = calloc((size_t)T, sizeof *M->ms)) == NULL
        || (M->Ps = calloc((size_t)T, sizeof *M->Ps)) == NULL
        || (M->C = calloc((size_t)T, sizeof *M->C)) == NULL)
      return ol_err_set(e, OL_ENOMEM, "out of memory");
    if ((rc = ol_ssm_kalman(M, e)) != OL_OK
        || (rc = posterior(p, M, e)) != OL_OK)
      return rc;
  }
  p->n = T;
  p->fdf = ssm_fdf;
  if (p->xstar != NULL) ssm_fdf(M, p->xstar, &p->fstar, NULL, e);
  if (M->kind == OL_SSM_LG)
    snprintf(p->desc, sizeof p->desc, "ssm{kind = \"lg\", T = %d, F = %g, "
             "G = %g, Q = %g, R = %g, %s%.0f}", T, M->a, M->G, M->q, M->R,
             v[12].arr != NULL ? "given y" : "seed = ",
             v[12].arr != NULL ? 0.0 : v[11].num);
  else
    snprintf(p->desc, sizeof p->desc, "ssm{kind = \"sv\", T = %d, phi = %g, "
             "sigma = %g, beta = %g, %s%.0f}", T, M->a, v[9].num, M->beta,
             v[12].arr != NULL ? "given y" : "seed = ",
             v[12].arr != NULL ? 0.0 : v[11].num);
  return OL_OK;
}

const ol_problem_type ol_problem_ssm = {
  .name = "ssm",
  .kind = OL_DENSITY,
  .doc = "scalar state-space model (linear-Gaussian with its Kalman/RTS "
         "truth, or stochastic volatility): the density of the hidden "
         "path given simulated data (smc.paris, smc.ppg smooth it)",
  .ref = "Kalman 1960; Rauch, Tung & Striebel 1965; Kim, Shephard & Chib "
         "1998 (sv); Cardoso et al. 2023 (B023)",
  .params = ssm_params,
  .nparams = NPARAMS,
  .create = ssm_create,
  .ssm = ssm_ud,
};
