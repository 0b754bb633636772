/*
** core/vi/mixflow.c -- mixed variational flows (MixFlows) with the
** uncorrected Hamiltonian map and deterministic momentum refreshment.
**
** Reference: Xu, Chen & Campbell 2023, "MixFlows: principled variational
** inference via mixed flows", ICML (arXiv 2205.07475).  The family (the
** abstract, seed B209) is q_N = (1/N) sum_{n=0}^{N-1} T^n_# q_0; sampling
** n ~ U{0..N-1}, X = T^n X_0; its density
**
**   q_N(y) = (1/N) sum_{n<N} q_0(T^-n y) |det J_{T^-n}(y)|,
**
** and the unbiased ELBO estimate from one draw X_0 ~ q_0 and its N points,
** (1/N) sum_{n<N} [log pibar(T^n X_0) - log q_N(T^n X_0)].  The paper's
** text was not available here, so its algorithm and equation numbers are
** not cited: the rules are the standard change of variables and those of
** the authors' package ErgFlow.jl (src/ham.jl: flow_fwd, flow_bwd,
** pseudo_refresh_coord, single_elbo_long; src/util.jl: stream, mixer),
** which should be checked against the paper's Sec. 5.  The Hamiltonian
** map on the augmented space (x, rho, u), target pibar(x, rho, u) = p(x)
** prod_i m(rho_i) 1[0 <= u < 1]:
**
**   (1) L leapfrog steps of size eps, uncorrected (no accept/reject):
**       rho -= eps/2 grad U(x); x += eps grad K(rho); rho -= eps/2 grad U
**       (K = -log m: grad K = sign(rho) Laplace, rho normal);
**   (2) per coordinate i = 1..n, the deterministic refreshment
**       rho_i <- F^-1((F(rho_i) + zeta(x_i, u)) mod 1),
**       u <- (u + xi) mod 1,
**       F the momentum's CDF, zeta(x, u) = (sin(2 x + u) + 1) / 2 and xi =
**       pi / 16 (refresh = "stream"), or zeta = xi (refresh = "constant").
**
** The abstract gives the family, "efficient algorithms for i.i.d.
** sampling, density evaluation, and unbiased ELBO estimation" and "an
** implementation based on uncorrected discretized Hamiltonian dynamics
** combined with deterministic momentum refreshment"; it leaves open the
** refreshment, the momentum law, the pseudo-time shift and the reference.
** Chosen here as in ErgFlow.jl's examples: the coordinate-wise refreshment
** with `stream` and xi = pi / 16, the standard Laplace momentum (normal:
** momentum = "normal", whose leapfrog error is second order: better on
** smooth targets, tests/c/t_mixflow.c).  The reference q_0 is N(x0, sd0^2
** I) in x (the paper's experiments tune a mean-field Gaussian first; here
** x0 and sd0 set it), m^n in rho, U[0, 1) in u.
**
** Exactness.  Leapfrog is volume-preserving; the refreshment is triangular
** (x fixed, u shifted) with d rho_i' / d rho_i = m(rho_i) / m(rho_i'), so
** log det J_T = sum_i log m(rho_i) - log m(rho_i') over the refreshment,
** tracked exactly: the density is exact whatever eps, only T's invariance
** of pibar is approximate (the leapfrog's energy error), so KL(q_N ||
** pibar) falls with N to a floor set by eps, not to 0.  T^-1 is the
** inverse refreshment (coordinates in reverse, u shifted back first) then
** leapfrog with -eps.
**
** One trajectory: X_0 ~ q_0, N - 1 maps forward and N - 1 back, so every
** T^-k T^j X_0 that q_N(T^j X_0) needs is a point of the trajectory: with
** S the cumulative log Jacobian along it (S = 0 at X_0) and A_k = log
** q_0(point k) + S_k,
**   log q_N(point k) = -S_k + log (1/N) sum_{k-N < i <= k} exp(A_i),
** every window the suffix of the backward half plus a prefix of the
** forward one, so O(N) log-sum-exps and no cancellation; cost 2 (N - 1) L
** gradient evaluations (+1) per trajectory.
**
** A step draws evals trajectories; the metrics pool every trajectory
** drawn (q_N does not change: there is nothing to optimise):
**   elbo     mean of the trajectories' estimates, elbo_se its MC error:
**            the ELBO of pibar on (x, rho, u), log Z - KL(q_N || pibar)
**   entropy  the same of -log q_N: the entropy of q_N on (x, rho, u)
**   kl       log Z - elbo when the target is Gaussian (known mean and
**            covariance, no transform, grad U = Sigma^-1 (z - mu) at two
**            random points), log Z = n/2 log 2 pi + 1/2 log det Sigma -
**            U(mu); else NaN.  An estimate (elbo_se is its MC error) of
**            the joint KL, an upper bound of the KL of q_N's x-marginal.
** c->x and r.mean: the pooled mean of x under q_N (each trajectory's mean
** over its N forward points is unbiased for it), r.mean_se its MC error;
** r:samples(): one exact draw of q_N's x from each of the last step's
** trajectories (a uniform point of it).
**
** Failure: an oracle error (a non-finite U or gradient: eps too large, a
** trajectory run off) or a momentum no longer finite ends the step with
** OL_EDOM and a message; a trajectory is never skipped (that would bias
** the ELBO).
*/
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mixflow.h"
#include "diag.h"
#include "vec.h"

#define LOG2PI 1.8378770664093454836
#define LOG2 0.69314718055994530942

const ol_param ol_mixflow_params[OL_MIXFLOW_NPARAMS] = {
  {"N", OL_P_INT, 50, 1, 1e5, "flow maps: q_N averages T^n of the "
   "reference for n = 0 .. N - 1", NULL},
  {"eps", OL_P_REAL, 0.05, OL_GT0, OL_FINITE, "leapfrog step size", NULL},
  {"L", OL_P_INT, 10, 1, 1e6, "leapfrog steps per map", NULL},
  {"momentum", OL_P_ENUM, 0, 0, 1, "momentum law m (its CDF F drives the "
   "refreshment)", "laplace|normal"},
  {"refresh", OL_P_ENUM, 0, 0, 1, "refreshment shift zeta(x_i, u): (sin(2 "
   "x_i + u) + 1) / 2, or the constant xi", "stream|constant"},
  {"xi", OL_P_REAL, 0.19634954084936207, OL_GT0, 0.9999999999999999,
   "pseudo-time shift per coordinate, u <- (u + xi) mod 1 (pi / 16)", NULL},
  {"sd0", OL_P_REAL, 1, OL_GT0, OL_FINITE, "reference scale: x ~ N(x0, "
   "sd0^2 I)", NULL},
  {"evals", OL_P_INT, 4, 1, 1e5, "trajectories drawn per step (and at "
   "the start); the metrics pool all drawn so far", NULL},
};

/* log m, F, F^-1 of the momentum law. */
static inline double logm (const ol_mixflow *s, double r)
{
  return s->mom ? -0.5 * (r * r + LOG2PI) : -fabs(r) - LOG2;
}

static inline double cdf (const ol_mixflow *s, double r)
{
  if (s->mom) return 0.5 * erfc(-r / sqrt(2));
  return r < 0 ? 0.5 * exp(r) : 1 - 0.5 * exp(-r);
}

static inline double icdf (const ol_mixflow *s, double p)
{
  if (s->mom) return ol_diag_qnorm(p);
  return p < 0.5 ? log(2 * p) : -log(2 * (1 - p));
}

static inline double zeta (const ol_mixflow *s, double x, double u)
{
  return s->stream ? 0.5 * (sin(2 * x + u) + 1) : s->xi;
}

double ol_mixflow_logq0 (const ol_mixflow *s, const double *x,
                         const double *rho)
{
  int i, n = s->n;
  double a = -n * (log(s->sd0) + 0.5 * LOG2PI);
  for (i = 0; i < n; i++) {
    double t = (x[i] - s->m0[i]) / s->sd0;
    a += -0.5 * t * t + logm(s, rho[i]);
  }
  return a;
}

/* log(exp(a) + exp(b)), -inf allowed. */
static inline double logadd (double a, double b)
{
  double m = a > b ? a : b;
  if (m == -INFINITY) return m;
  return m + log1p(exp(-fabs(a - b)));
}

/* L leapfrog steps of size h: rho, z, g = grad U(z) in place; U at the
** end into *f when f != NULL. */
static int leapfrog (ol_mixflow *s, ol_ctx *c, double h, double *z,
                     double *rho, double *g, double *f, ol_err *e)
{
  int i, l, n = s->n, rc;
  for (i = 0; i < n; i++) rho[i] -= 0.5 * h * g[i];
  for (l = 0; l < s->L; l++) {
    int last = l == s->L - 1;
    double k = last ? 0.5 * h : h;
    for (i = 0; i < n; i++)
      z[i] += h * (s->mom ? rho[i] : (rho[i] > 0) - (rho[i] < 0));
    if ((rc = ol_ctx_grad(c, z, last ? f : NULL, g, e)) != OL_OK) return rc;
    for (i = 0; i < n; i++) rho[i] -= k * g[i];
  }
  return OL_OK;
}

int ol_mixflow_map (ol_mixflow *s, ol_ctx *c, int backward, double *z,
                    double *rho, double *u, double *g, double *f,
                    double *logj, ol_err *e)
{
  int i, n = s->n, rc;
  double lj = 0;
  if (!backward) {
    /* (1) leapfrog, (2) refresh coordinate by coordinate */
    if ((rc = leapfrog(s, c, s->eps, z, rho, g, f, e)) != OL_OK) return rc;
    for (i = 0; i < n; i++) {
      double p = cdf(s, rho[i]) + zeta(s, z[i], *u), r;
      r = icdf(s, p - floor(p));
      lj += logm(s, rho[i]) - logm(s, r);
      rho[i] = r;
      *u += s->xi;
      *u -= floor(*u);
    }
  }
  else {
    /* (2)^-1 in reverse order, then (1) with -eps */
    for (i = n - 1; i >= 0; i--) {
      double p, r;
      *u -= s->xi;
      *u -= floor(*u);
      p = cdf(s, rho[i]) - zeta(s, z[i], *u);
      r = icdf(s, p - floor(p));
      lj += logm(s, r) - logm(s, rho[i]);
      rho[i] = r;
    }
  }
  for (i = 0; i < n; i++)
    if (!isfinite(rho[i]))
      return ol_err_set(e, OL_EDOM, "mixflow: the momentum is no longer "
                        "finite (a trajectory ran off: lower eps or L)");
  if (backward &&
      (rc = leapfrog(s, c, -s->eps, z, rho, g, f, e)) != OL_OK)
    return rc;
  *logj = lj;
  return OL_OK;
}

int ol_mixflow_logq (ol_mixflow *s, ol_ctx *c, const double *x,
                     const double *rho, double u, double *logq, ol_err *e)
{
  int k, n = s->n, rc;
  double C = 0, acc, lj;
  ol_vec_copy(x, s->z, n);
  ol_vec_copy(rho, s->rho, n);
  acc = ol_mixflow_logq0(s, x, rho);
  if (s->N > 1 && (rc = ol_ctx_grad(c, s->z, NULL, s->g, e)) != OL_OK)
    return rc;
  for (k = 1; k < s->N; k++) {
    if ((rc = ol_mixflow_map(s, c, 1, s->z, s->rho, &u, s->g, NULL, &lj,
                             e)) != OL_OK)
      return rc;
    C -= lj;   /* log abs det J_{T^-k} at the starting point */
    acc = logadd(acc, ol_mixflow_logq0(s, s->z, s->rho) + C);
  }
  *logq = acc - log(s->N);
  return OL_OK;
}

int ol_mixflow_traj (ol_mixflow *s, ol_ctx *c, const double *x0,
                     const double *rho0, double u0, double *elbo,
                     double *ent, ol_err *e)
{
  int j, k, n = s->n, N = s->N, rc;
  double *X = s->X, *S = s->S, *A = s->A, u, f, lj, el = 0, en = 0;
  double suf, pre;
  /* (1) X_0, grad U and U there */
  ol_vec_copy(x0, X + (size_t)(N - 1) * n, n);
  ol_vec_copy(x0, s->z, n);
  ol_vec_copy(rho0, s->rho, n);
  if ((rc = ol_ctx_grad(c, s->z, &f, s->g, e)) != OL_OK) return rc;
  ol_vec_copy(s->g, s->g0, n);
  S[N - 1] = 0;
  A[N - 1] = ol_mixflow_logq0(s, s->z, s->rho);
  s->lp[0] = -f;
  for (k = 0; k < n; k++) s->lp[0] += logm(s, s->rho[k]);
  /* (2) forward: points N .. 2N - 2 */
  u = u0;
  for (k = N - 1; k < 2 * N - 2; k++) {
    if (ol_interrupted())
      return ol_err_set(e, OL_EINTR, "mixflow: interrupted");
    if ((rc = ol_mixflow_map(s, c, 0, s->z, s->rho, &u, s->g, &f, &lj,
                             e)) != OL_OK)
      return rc;
    S[k + 1] = S[k] + lj;
    A[k + 1] = ol_mixflow_logq0(s, s->z, s->rho) + S[k + 1];
    ol_vec_copy(s->z, X + (size_t)(k + 1) * n, n);
    s->lp[k + 2 - N] = -f;
    for (j = 0; j < n; j++) s->lp[k + 2 - N] += logm(s, s->rho[j]);
  }
  /* (3) backward from X_0: points N - 2 .. 0 */
  ol_vec_copy(x0, s->z, n);
  ol_vec_copy(rho0, s->rho, n);
  ol_vec_copy(s->g0, s->g, n);
  u = u0;
  for (k = N - 1; k > 0; k--) {
    if (ol_interrupted())
      return ol_err_set(e, OL_EINTR, "mixflow: interrupted");
    if ((rc = ol_mixflow_map(s, c, 1, s->z, s->rho, &u, s->g, NULL, &lj,
                             e)) != OL_OK)
      return rc;
    S[k - 1] = S[k] - lj;
    A[k - 1] = ol_mixflow_logq0(s, s->z, s->rho) + S[k - 1];
    ol_vec_copy(s->z, X + (size_t)(k - 1) * n, n);
  }
  /* (4) log q_N at point N - 1 + j: its window [j, N - 1 + j] is the
  ** suffix [j, N - 1] of the backward half and the prefix [N, N - 1 + j]
  ** of the forward one; suffixes from j = N - 1 down in s->W, prefixes
  ** accumulated as j grows */
  suf = -INFINITY;
  for (j = N - 1; j >= 0; j--) {
    suf = logadd(suf, A[j]);
    s->W[j] = suf;
  }
  pre = -INFINITY;
  for (j = 0; j < N; j++) {
    double lq;
    if (j > 0) pre = logadd(pre, A[N - 1 + j]);
    lq = -S[N - 1 + j] + logadd(s->W[j], pre) - log(N);
    el += s->lp[j] - lq;
    en -= lq;
  }
  *elbo = el / N;
  if (ent != NULL) *ent = en / N;
  return OL_OK;
}

/* Is the target Gaussian with the known mean and covariance?  Its log Z
** into s when it is (see the header). */
static int gauss_target (ol_mixflow *s, ol_ctx *c, ol_err *e)
{
  const ol_problem *p = c->p;
  int i, j, k, n = s->n, rc = OL_OK;
  double ld = 0, u0, *L = NULL;
  if (p->kind != OL_DENSITY || p->mean == NULL || p->cov == NULL ||
      p->xform != NULL)
    return OL_OK;
  if ((L = ol_mat_new(n, n, e)) == NULL) return OL_ENOMEM;
  ol_vec_copy(p->cov, L, n * n);
  if (LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', n, L, n) != 0) goto done;
  for (i = 0; i < n; i++) ld += 2 * log(L[(size_t)i * n + i]);
  /* Sigma grad U(z) = z - mu at two random points? */
  for (k = 0; k < 2; k++) {
    double gmax = 0, err = 0;
    ol_rng_normals(c->rng, s->rho, n);
    for (i = 0; i < n; i++) s->z[i] = p->mean[i] + s->rho[i];
    if ((rc = ol_ctx_grad(c, s->z, NULL, s->g, e)) != OL_OK) goto done;
    for (i = 0; i < n; i++) {
      double a = 0;
      for (j = 0; j < n; j++) a += p->cov[(size_t)i * n + j] * s->g[j];
      gmax = fmax(gmax, fabs(s->rho[i]));
      err = fmax(err, fabs(a - s->rho[i]));
    }
    if (!(err <= 1e-8 * (1 + gmax))) goto done;
  }
  if ((rc = ol_ctx_value(c, p->mean, &u0, e)) != OL_OK) goto done;
  s->logZ = 0.5 * (n * LOG2PI + ld) - u0;
  s->gauss = 1;
done:
  ol_vec_free(L);
  return rc;
}

/* One momentum draw from m. */
static double draw_mom (const ol_mixflow *s, ol_rng *r)
{
  double v;
  if (s->mom) {
    ol_rng_normals(r, &v, 1);
    return v;
  }
  do v = ol_rng_uniform(r); while (v == 0);
  return icdf(s, v);
}

/* evals fresh trajectories, pooled; their draws of x into Z. */
static int draw (ol_mixflow *s, ol_ctx *c, ol_err *e)
{
  int t, i, n = s->n, N = s->N, rc;
  double *x0 = s->x0, *r0 = s->rho0;
  for (t = 0; t < s->evals; t++) {
    double el, en, u0;
    long K;
    int j;
    ol_rng_normals(c->rng, x0, n);
    for (i = 0; i < n; i++) x0[i] = s->m0[i] + s->sd0 * x0[i];
    for (i = 0; i < n; i++) r0[i] = draw_mom(s, c->rng);
    u0 = ol_rng_uniform(c->rng);
    if ((rc = ol_mixflow_traj(s, c, x0, r0, u0, &el, &en, e)) != OL_OK) {
      char why[OL_ERRMAX];
      if (rc != OL_EDOM || e == NULL || strncmp(e->msg, "mixflow", 7) == 0)
        return rc;
      /* the oracle's own words, with what to change */
      snprintf(why, sizeof why, "%s", e->msg);
      return ol_err_set(e, rc, "mixflow: a trajectory ran off (%s): eps = %g "
                        "(L = %d) is too large for this target", why,
                        s->eps, s->L);
    }
    /* pool: shifted sums (no cancellation), the trajectory's mean x */
    K = ++s->ndraw;
    if (K == 1) s->eh = el;
    s->esum += el - s->eh;
    s->esq += (el - s->eh) * (el - s->eh);
    s->hsum += en;
    for (i = 0; i < n; i++) {
      double a = 0;
      for (j = 0; j < N; j++) a += s->X[(size_t)(N - 1 + j) * n + i];
      a /= N;
      s->xsum[i] += a;
      s->xsq[i] += a * a;
    }
    /* one exact draw of q_N: a uniform point of the trajectory */
    j = (int)(ol_rng_uniform(c->rng) * N);
    ol_vec_copy(s->X + (size_t)(N - 1 + j) * n, s->Z + (size_t)t * n, n);
  }
  for (i = 0; i < n; i++) {
    double K = (double)s->ndraw, m = s->xsum[i] / K;
    s->mean[i] = m;
    s->mse[i] = s->ndraw >= 2
      ? sqrt(fmax(0, (s->xsq[i] - K * m * m) / (K - 1)) / K) : NAN;
  }
  ol_vec_copy(s->mean, c->x, n);
  return OL_OK;
}

static int mixflow_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  ol_mixflow *s = st;
  int n = c->n, K, rc;
  s->n = n;
  s->N = (int)par[0];
  s->eps = par[1];
  s->L = (int)par[2];
  s->mom = (int)par[3];
  s->stream = par[4] == 0;
  s->xi = par[5];
  s->sd0 = par[6];
  s->evals = (int)par[7];
  K = 2 * s->N - 1;
  if ((double)K * n > 1e7)
    return ol_err_set(e, OL_EINVAL, "mixflow: a trajectory of 2N - 1 = %d "
                      "points in %d dimensions is too large (at most 1e7 "
                      "numbers): lower N", K, n);
  if ((double)s->evals * n > 1e8)
    return ol_err_set(e, OL_EINVAL, "mixflow: evals = %d draws in %d "
                      "dimensions are too many (at most 1e8 numbers): lower "
                      "evals", s->evals, n);
  if ((s->X = ol_mat_new(K, n, e)) == NULL ||
      (s->S = ol_vec_new(K, e)) == NULL ||
      (s->A = ol_vec_new(K, e)) == NULL ||
      (s->W = ol_vec_new(s->N, e)) == NULL ||
      (s->lp = ol_vec_new(s->N, e)) == NULL ||
      (s->m0 = ol_vec_new(n, e)) == NULL ||
      (s->z = ol_vec_new(n, e)) == NULL ||
      (s->rho = ol_vec_new(n, e)) == NULL ||
      (s->g = ol_vec_new(n, e)) == NULL ||
      (s->g0 = ol_vec_new(n, e)) == NULL ||
      (s->x0 = ol_vec_new(n, e)) == NULL ||
      (s->rho0 = ol_vec_new(n, e)) == NULL ||
      (s->xsum = ol_vec_new(n, e)) == NULL ||
      (s->xsq = ol_vec_new(n, e)) == NULL ||
      (s->mean = ol_vec_new(n, e)) == NULL ||
      (s->mse = ol_vec_new(n, e)) == NULL ||
      (s->Z = ol_mat_new(s->evals, n, e)) == NULL)
    return OL_ENOMEM;
  ol_vec_copy(c->x, s->m0, n);
  if ((rc = gauss_target(s, c, e)) != OL_OK) return rc;
  return draw(s, c, e);
}

static int mixflow_step (void *st, ol_ctx *c, ol_err *e)
{
  return draw(st, c, e);
}

static double mixflow_probe (const void *st, int metric, const ol_ctx *c)
{
  const ol_mixflow *s = st;
  double K = (double)s->ndraw, elbo;
  (void)c;
  if (s->ndraw == 0) return NAN;
  elbo = s->eh + s->esum / K;
  switch (metric) {
  case OL_MET_ELBO: return elbo;
  case OL_MET_ELBO_SE:
    return s->ndraw >= 2
      ? sqrt(fmax(0, (s->esq - s->esum * s->esum / K) / (K - 1)) / K) : NAN;
  case OL_MET_ENTROPY: return s->hsum / K;
  case OL_MET_KL: return s->gauss ? s->logZ - elbo : NAN;
  default: return NAN;
  }
}

static int mixflow_result (const void *st, const char *name,
                           const double **v, int *rows, int *cols)
{
  const ol_mixflow *s = st;
  if (strcmp(name, "mean") == 0 || strcmp(name, "mean_se") == 0) {
    *v = name[4] == '\0' ? s->mean : s->mse;
    *rows = 1;
    *cols = s->n;
    return 1;
  }
  if (strcmp(name, "samples") == 0) {
    *v = s->Z;
    *rows = s->evals;
    *cols = s->n;
    return 1;
  }
  return 0;
}

static void mixflow_fini (void *st)
{
  ol_mixflow *s = st;
  double **v[] = {&s->X, &s->S, &s->A, &s->W, &s->lp, &s->m0, &s->z,
                  &s->rho, &s->g, &s->g0, &s->x0, &s->rho0, &s->xsum,
                  &s->xsq, &s->mean, &s->mse, &s->Z};
  size_t k;
  for (k = 0; k < sizeof v / sizeof v[0]; k++) {
    ol_vec_free(*v[k]);
    *v[k] = NULL;
  }
}

const ol_method_type ol_vi_mixflow = {
  .name = "mixflow",
  .family = OL_VI,
  .doc = "MixFlow: q_N the average of N pushforwards of a Gaussian "
    "reference under uncorrected leapfrog with deterministic momentum "
    "refreshment; exact density, unbiased ELBO",
  .ref = "Xu, Chen & Campbell 2023 (MixFlows, ICML; the Hamiltonian map "
    "and refreshment as in the authors' ErgFlow.jl)",
  .params = ol_mixflow_params,
  .nparams = OL_MIXFLOW_NPARAMS,
  .size = sizeof(ol_mixflow),
  .kinds = OL_KIND(OL_DENSITY),
  .init = mixflow_init,
  .step = mixflow_step,
  .fini = mixflow_fini,
  .probe = mixflow_probe,
  .result = mixflow_result,
  .probes = OL_MSET(OL_MET_ELBO, OL_MET_ELBO_SE, OL_MET_ENTROPY,
                    OL_MET_KL),
};
