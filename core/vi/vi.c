/*
** core/vi/vi.c -- black-box variational inference with the
** reparameterization gradient for a Gaussian family, shared by
** vi.meanfield and vi.fullrank (their files give only the family).
**
** References: Kucukelbir, Tran, Ranganath, Gelman & Blei 2017, "Automatic
** differentiation variational inference", JMLR 18 (ADVI: eq. 7 the ELBO
** on the unconstrained scale, Section 2.5 the Monte Carlo gradients with
** mean-field omega = log sd and full-rank L); Titsias & Lazaro-Gredilla
** 2014, "Doubly stochastic variational Bayes for non-conjugate inference",
** ICML (Algorithm 1: z = m + C eps with C lower triangular, the gradient
** of the entropy log|C| exact); Roeder, Wu & Duvenaud 2017, "Sticking the
** landing", NeurIPS (eq. 8: the path derivative, dropping the score term
** of log q); Polyak & Juditsky 1992, "Acceleration of stochastic
** approximation by averaging", SIAM J. Control Optim. 30, and Ruppert
** 1988 (the averaged iterate); Flegal & Jones 2010, "Batch means and
** spectral variance estimators in Markov chain Monte Carlo", Ann. Statist.
** 38 (the batch-means standard error, here with 8 to 23 batches); on
** averaging in BBVI also Welandawe, Andersen, Vehtari & Huggins 2022,
** "Robust, automated, and accurate black-box variational inference".
**
** Target p(z) ~ exp(-U(z)) on the oracle's scale (a bounded density's u:
** the Jacobian is inside U); q = N(m, C C'), C = diag(exp(omega)) +
** (strictly lower part, full-rank only).  Loss L = E_q[U(z)] - H(q),
** H(q) = n/2 (1 + log 2 pi) + sum_i omega_i, minimised over theta
** (vi.h's layout).  One draw eps ~ N(0, I), z = m + C eps, gU = grad U(z):
**
**   plain   h = gU,            d/d omega_i = h_i eps_i C_ii - 1
**   stl     h = gU - C^-T eps, d/d omega_i = h_i eps_i C_ii
**           (grad_z log q(z) = -C^-T eps, with q's parameters held fixed)
**   both    d/dm = h,   d/dC_ij = h_i eps_j  (j < i, full-rank)
**
** Both are unbiased for grad L: E[C^-T eps eps'] = C^-T, whose lower
** triangle is diag(1 / C_ii).  stl's estimate is 0 when q = p.  The step
** averages M = samples draws into g and moves theta by
**   adam  Kingma & Ba 2015, Algorithm 1, on theta with step lr_t
**   sgd   theta -= lr_t g
** with lr_t = lr sched_t / sqrt(1 + t / decay) (t steps taken before;
** decay = 0: lr sched_t), the k^-1/2 factor of ADVI's adaptive
** step-size sequence (Kucukelbir et al. 2017).
**
** Averaging (average = 1, the default).  The returned q (r.mean, r.cov,
** c->x = its m, and every metric below) is the Polyak-Ruppert average of
** the iterates theta_t over a window [a, t]: for 2^k <= t < 2^(k+1),
** a = 2^(k-1) (a = 1 for t < 2), so the window holds the last 1/2 to 3/4
** of the steps whatever the budget, and a run extended later keeps it.
** Two running sums do this (win[0] from a, win[1] from 2a; at t = 4a
** win[1] becomes win[0] and win[1] restarts at t).  theta is averaged as
** it is stored (m, omega = log C_ii, C's entries below the diagonal); at
** a fixed point every parameterisation gives the same q.  The Monte Carlo
** error: the window is cut into batches of L = max(1, a / 8) consecutive
** iterates (8 to 23 complete ones; full-rank at least 2 n / (samples +
** evals), so that a batch's C C' costs at most a sixth of its draws:
** fewer batches then on short runs); for each closed batch b its mean
** theta_b gives m_b and S_b = C_b C_b'; mean_se = sd_b(m_b) / sqrt(B),
** cov_se = sd_b(S_b) / sqrt(B) elementwise (B batches, sd with B - 1, by
** Welford's update; NaN for B < 2).  The batches must be longer than the
** iterates' autocorrelation; with a / 16 the errors of mean-field on a
** rho = 0.9 Gaussian were 1.7 times too small against the spread over 30
** seeds, with a / 8 1.5 times at worst and about right elsewhere.  This is
** the error of the average as an estimate of where the iteration
** settles, not of a bias from a step too large or a run too short.  For
** the latter, drift: per coordinate of m and of the log sds omega, the
** least-squares slope of the batch means against their index over its
** standard error (residual sd, B - 2 degrees of freedom); runs still on
** their way gave |t| of 6.5 to 35 (a 10-D Gaussian of condition 100
** after 3000 steps, a banana after 2000, posteriordb's kidiq after 30000
** at lr 0.1), settled ones at most 5.4 (print(r) warns above 6).  With a
** schedule that anneals the step to 0 (cosine) the last iterate is itself
** settled and the window mixes in iterates of larger steps, biased on a
** non-Gaussian target (kidiq's sd of log sigma: 8.6% off averaged, 0.5%
** the last iterate): average = false suits such runs.
**
** Defaults.  fullrank: stl = 1 and decay = 1000: on a Gaussian target the
** family holds p, stl's estimate vanishes there (its variance goes to 0
** as q -> p), so the iterates converge and a decaying step only sharpens
** them (20000 steps on a 10-D Gaussian: errors 3e-4 of an sd against 1e-3
** at a constant step).  meanfield: stl = 0 and decay = 0: q never equals
** a correlated p, and stl's noise h = (P - diag P) D eps at the optimum
** (Gaussian p, P = Sigma^-1, D = diag C) is large along P's small
** eigenvectors, the directions the error of the average is made of: on
** gauss2d{rho = 0.9} its mean's MC error was 6 times the plain
** estimator's (on a near-independent target it is the other way round:
** set stl = true there).  A decaying step only slowed mean-field's
** convergence along those directions (10-D: bias of 14 MC errors at
** decay = 1000 against 3 at 0).
**
** Metrics (probe), at the returned q after the step (and at the start):
** K = evals fresh draws z_k at frozen theta, each one more gradient
** evaluation, counted (ngev) like the step's own:
**   elbo     mean_k(-U(z_k)) + H(q), elbo_se sd_k(-U(z_k)) / sqrt(K)
**            (NaN for K < 2); the ELBO of exp(-U), log Z - KL(q || p)
**   gradvar  mean_k ||g_k||^2, g_k the one-draw estimator above (stl or
**            not, as the method runs) over all np parameters
**   entropy  H(q), exact
**   kl       KL(q || p) in closed form when the target is Gaussian, else
**            NaN: the density has a known mean mu and covariance Sigma, no
**            transform, and its gradient is P (z - mu), P = Sigma^-1, to
**            1e-8 at two random points z (two gradient evaluations at init,
**            counted).  KL = 1/2 (tr(P S) + (mu - m)' P (mu - m) - n +
**            log det Sigma - log det S), S = C C'.
** With evals = 0 there are no fresh draws and elbo, elbo_se and gradvar
** are NaN (what a timing of the bare step wants).
**
** Failure: an oracle error at a draw (a non-finite U or gradient at z,
** OL_EDOM, or a failing Lua density) ends the step with that error, so
** the run stops saying why; a draw is never skipped (that would bias g).
*/
#include <cblas.h>
#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vi.h"
#include "vec.h"

#define LOG2PI 1.8378770664093454836

/* The parameter table, with each family's defaults of stl and decay. */
#define VI_PARAMS(stl, decay) {                                             \
  {"lr", OL_P_REAL, 0.01, 0, OL_FINITE, "step size of the inner optimizer " \
   "(Adam's alpha or SGD's), times the decay and the run's schedule",      \
   NULL},                                                                   \
  {"optimizer", OL_P_ENUM, 0, 0, 1, "inner optimizer on the variational "  \
   "parameters", "adam|sgd"},                                               \
  {"samples", OL_P_INT, 1, 1, 1e6, "Monte Carlo draws per step (M)", NULL}, \
  {"stl", OL_P_BOOL, stl, 0, 1, "sticking-the-landing path gradient "      \
   "(Roeder et al. 2017; exactly 0 at q = p) instead of the exact "        \
   "entropy gradient", NULL},                                               \
  {"beta1", OL_P_REAL, 0.9, 0, 0.9999999999999999,                          \
   "Adam: decay of the first moment, in [0, 1)", NULL},                     \
  {"beta2", OL_P_REAL, 0.999, 0, 0.9999999999999999,                        \
   "Adam: decay of the second moment, in [0, 1)", NULL},                    \
  {"eps", OL_P_REAL, 1e-8, 0, OL_FINITE, "Adam: added to sqrt(vhat)",       \
   NULL},                                                                   \
  {"sd0", OL_P_REAL, 1, OL_GT0, OL_FINITE, "initial scale: C = sd0 I (m "  \
   "starts at x0)", NULL},                                                  \
  {"evals", OL_P_INT, 10, 0, 1e5, "fresh draws after each step at the "    \
   "returned q for elbo, elbo_se, gradvar and r:samples() (0: none)",      \
   NULL},                                                                   \
  {"average", OL_P_BOOL, 1, 0, 1, "return the average of the iterates "    \
   "over the last 1/2 to 3/4 of the steps (Polyak-Ruppert), with "         \
   "batch-means Monte Carlo errors r.mean_se, r.cov_se; false: the last "  \
   "iterate", NULL},                                                        \
  {"decay", OL_P_REAL, decay, 0, OL_FINITE, "step decay tau: step t is "   \
   "lr / sqrt(1 + t / tau) (0: constant)", NULL},                           \
}

const ol_param ol_vi_meanfield_params[OL_VI_NPARAMS] = VI_PARAMS(0, 0);
const ol_param ol_vi_fullrank_params[OL_VI_NPARAMS] = VI_PARAMS(1, 1000);

/* Offset of row i of the packed C in theta (full-rank). */
static inline size_t rowoff (int n, int i)
{
  return (size_t)n + (size_t)i * (i + 1) / 2;
}

/* omega_i of parameters th. */
static inline double omega (const ol_vi *s, const double *th, int i)
{
  return s->diag ? th[s->n + i] : th[rowoff(s->n, i) + i];
}

/* d_i = C_ii = exp(omega_i) of parameters th. */
static void diag_of (const ol_vi *s, const double *th, double *d)
{
  int i;
  for (i = 0; i < s->n; i++) d[i] = exp(omega(s, th, i));
}

/* H(q) = n/2 (1 + log 2 pi) + sum_i omega_i of the returned q. */
static double ol_vi_entropy (const ol_vi *s)
{
  int i, n = s->n;
  double h = 0.5 * n * (1 + LOG2PI);
  for (i = 0; i < n; i++) h += omega(s, s->rt, i);
  return h;
}

/* One draw of the estimator at parameters th (d = exp of its omega). */
static int draw_at (ol_vi *s, const double *th, const double *d, ol_ctx *c,
                    double *g, double *u, ol_err *e)
{
  int i, j, n = s->n, rc;
  const double *m = th;
  double *eps = s->eps, *z = s->z, *gz = s->gz, *w = s->w;
  double one = s->stl ? 0 : 1;
  /* (1) z = m + C eps */
  ol_rng_normals(c->rng, eps, n);
  if (s->diag)
    for (i = 0; i < n; i++) z[i] = m[i] + d[i] * eps[i];
  else
    for (i = 0; i < n; i++) {
      const double *L = th + rowoff(n, i);
      double a = m[i] + d[i] * eps[i];
      for (j = 0; j < i; j++) a += L[j] * eps[j];
      z[i] = a;
    }
  /* (2) U(z), grad U(z) */
  if ((rc = ol_ctx_grad(c, z, u, gz, e)) != OL_OK) return rc;
  /* (3) stl: h = gU - w, w = C^-T eps by back substitution (C' upper
  ** triangular: w_k = r_k / C_kk, then r_j -= C_kj w_k for j < k) */
  if (s->stl) {
    if (s->diag)
      for (i = 0; i < n; i++) w[i] = eps[i] / d[i];
    else {
      ol_vec_copy(eps, w, n);
      for (i = n - 1; i >= 0; i--) {
        const double *L = th + rowoff(n, i);
        double wi = w[i] / d[i];
        w[i] = wi;
        for (j = 0; j < i; j++) w[j] -= L[j] * wi;
      }
    }
    for (i = 0; i < n; i++) gz[i] -= w[i];
  }
  /* (4) the gradient in theta's layout, h = gz */
  for (i = 0; i < n; i++) g[i] = gz[i];
  if (s->diag)
    for (i = 0; i < n; i++) g[n + i] = gz[i] * eps[i] * d[i] - one;
  else
    for (i = 0; i < n; i++) {
      double *gl = g + rowoff(n, i), hi = gz[i];
      for (j = 0; j < i; j++) gl[j] = hi * eps[j];
      gl[i] = hi * eps[i] * d[i] - one;
    }
  return OL_OK;
}

int ol_vi_draw (ol_vi *s, ol_ctx *c, double *g, double *u, ol_err *e)
{
  return draw_at(s, s->theta, s->d, c, g, u, e);
}

/* The fresh draws at the returned q: elbo, elbo_se, gradvar, Z. */
static int evaluate (ol_vi *s, ol_ctx *c, ol_err *e)
{
  int k, K = s->evals, n = s->n, rc;
  double su = 0, suu = 0, sg = 0, h = 0;
  s->elbo = s->elbo_se = s->gradvar = NAN;
  if (K == 0) return OL_OK;
  for (k = 0; k < K; k++) {
    double u;
    if (ol_interrupted())
      return ol_err_set(e, OL_EINTR, "vi: interrupted");
    if ((rc = draw_at(s, s->rt, s->rd, c, s->g1, &u, e)) != OL_OK)
      return rc;
    ol_vec_copy(s->z, s->Z + (size_t)k * n, n);
    /* running sums about the first value (shifted: no cancellation) */
    if (k == 0) h = u;
    su += u - h;
    suu += (u - h) * (u - h);
    sg += ol_vec_dot(s->g1, s->g1, s->np);
  }
  s->elbo = -(h + su / K) + ol_vi_entropy(s);
  if (K >= 2)
    s->elbo_se = sqrt(fmax(0, (suu - su * su / K) / (K - 1)) / K);
  s->gradvar = sg / K;
  return OL_OK;
}

/* S = C C' of parameters th (d = exp of its omega) into S (n x n, both
** triangles); full-rank: C unpacked into s->Cb, then BLAS's dsyrk, whose
** n^3 / 3 flops run at its speed (a batch of the averaging window closes
** with one). */
static void cov_of (const ol_vi *s, const double *th, const double *d,
                    double *S)
{
  int a, b, n = s->n;
  double *C = s->Cb;
  if (s->diag) {
    memset(S, 0, sizeof(double) * (size_t)n * n);
    for (a = 0; a < n; a++) S[(size_t)a * n + a] = d[a] * d[a];
    return;
  }
  memset(C, 0, sizeof(double) * (size_t)n * n);
  for (a = 0; a < n; a++) {
    const double *La = th + rowoff(n, a);
    for (b = 0; b < a; b++) C[(size_t)a * n + b] = La[b];
    C[(size_t)a * n + a] = d[a];
  }
  cblas_dsyrk(CblasRowMajor, CblasLower, CblasNoTrans, n, n, 1.0, C, n, 0.0,
              S, n);
  for (a = 0; a < n; a++)
    for (b = 0; b < a; b++) S[(size_t)b * n + a] = S[(size_t)a * n + b];
}

/* -- the averaging windows (header: Averaging) ---------------------------- */

/* The entries of S the batch statistics keep: the n variances
** (mean-field: S is diagonal) or all n x n. */
static inline size_t nstat (const ol_vi *s)
{
  return s->diag ? (size_t)s->n : (size_t)s->n * (size_t)s->n;
}

/* Empty w, to sum the iterates from iteration start on: batches of
** max(1, start / 8) steps, and for full-rank at least 2 n / (samples +
** evals), so that closing one (C C', n^3 / 3 flops) costs at most a sixth
** of the batch's draws (n^2 each). */
static void win_reset (const ol_vi *s, ol_vi_win *w, long start)
{
  size_t n = (size_t)s->n, np = (size_t)s->np;
  long len = start / 8;
  if (!s->diag) {
    long k = (long)s->samples + s->evals;
    long lo = (2 * (long)n + k - 1) / k;
    if (len < lo) len = lo;
  }
  w->start = start;
  w->len = len > 1 ? len : 1;
  w->cnt = w->bcnt = w->nb = 0;
  memset(w->sum, 0, sizeof(double) * np);
  memset(w->bsum, 0, sizeof(double) * np);
  memset(w->mm, 0, sizeof(double) * n);
  memset(w->m2, 0, sizeof(double) * n);
  memset(w->Sm, 0, sizeof(double) * nstat(s));
  memset(w->S2, 0, sizeof(double) * nstat(s));
}

/* Welford's update of mean mu and M2 with the k-th value x (k >= 1). */
static inline void welford (double *mu, double *m2, double x, long k)
{
  double dl = x - *mu;
  *mu += dl / (double)k;
  *m2 += dl * (x - *mu);
}

/* Add theta_t to w; a full batch is closed into the batch statistics. */
static void win_add (ol_vi *s, ol_vi_win *w, const double *th)
{
  int i, n = s->n, np = s->np;
  long k;
  for (i = 0; i < np; i++) {
    w->sum[i] += th[i];
    w->bsum[i] += th[i];
  }
  w->cnt++;
  if (++w->bcnt < w->len) return;
  /* the batch's mean theta, its S; then the statistics */
  for (i = 0; i < np; i++) s->tb[i] = w->bsum[i] / (double)w->len;
  k = ++w->nb;
  for (i = 0; i < n; i++) welford(&w->mm[i], &w->m2[i], s->tb[i], k);
  if (k <= OL_VI_BMAX) {   /* its m and log sds, for drift */
    double *row = w->bm + (size_t)(k - 1) * 2 * n;
    ol_vec_copy(s->tb, row, n);
    for (i = 0; i < n; i++) row[n + i] = omega(s, s->tb, i);
  }
  if (s->diag)
    for (i = 0; i < n; i++) {
      double v = exp(2 * s->tb[n + i]);
      welford(&w->Sm[i], &w->S2[i], v, k);
    }
  else {
    diag_of(s, s->tb, s->w);
    cov_of(s, s->tb, s->w, s->Sb);
    for (i = 0; i < n * n; i++) welford(&w->Sm[i], &w->S2[i], s->Sb[i], k);
  }
  memset(w->bsum, 0, sizeof(double) * (size_t)np);
  w->bcnt = 0;
}

/* After step t (s->t): the windows take theta_t, the returned q is
** win[0]'s average. */
static void average_step (ol_vi *s)
{
  int i, np = s->np;
  long t = s->t;
  ol_vi_win *w = s->win;
  if (t == 2 * w[1].start) {
    ol_vi_win tmp = w[0];
    w[0] = w[1];
    w[1] = tmp;
    win_reset(s, &w[1], t);
  }
  win_add(s, &w[0], s->theta);
  if (t >= w[1].start) win_add(s, &w[1], s->theta);
  for (i = 0; i < np; i++) s->avg[i] = w[0].sum[i] / (double)w[0].cnt;
  diag_of(s, s->avg, s->davg);
  s->rt = s->avg;
  s->rd = s->davg;
}

/* Is the target Gaussian with the known mean and covariance?  P, mu and
** log det Sigma into s when it is (see the header). */
static int gauss_target (ol_vi *s, ol_ctx *c, ol_err *e)
{
  const ol_problem *p = c->p;
  int i, j, k, n = s->n, rc;
  lapack_int info;
  double ld = 0;
  if (p->kind != OL_DENSITY || p->mean == NULL || p->cov == NULL ||
      p->xform != NULL)
    return OL_OK;
  if ((s->P = ol_vec_new(n * n, e)) == NULL ||
      (s->mu = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  ol_vec_copy(p->cov, s->P, n * n);
  ol_vec_copy(p->mean, s->mu, n);
  if (LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', n, s->P, n) != 0) return OL_OK;
  for (i = 0; i < n; i++) ld += 2 * log(s->P[(size_t)i * n + i]);
  if ((info = LAPACKE_dpotri(LAPACK_ROW_MAJOR, 'L', n, s->P, n)) != 0)
    return OL_OK;
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++)
      s->P[(size_t)i * n + j] = s->P[(size_t)j * n + i];
  s->logdetS = ld;
  /* grad U(z) = P (z - mu) at two random points? */
  for (k = 0; k < 2; k++) {
    double gmax = 0, err = 0;
    ol_rng_normals(c->rng, s->eps, n);
    for (i = 0; i < n; i++) s->z[i] = s->mu[i] + s->eps[i];
    if ((rc = ol_ctx_grad(c, s->z, NULL, s->gz, e)) != OL_OK) return rc;
    for (i = 0; i < n; i++) {
      double a = 0;
      for (j = 0; j < n; j++) a += s->P[(size_t)i * n + j] * s->eps[j];
      gmax = fmax(gmax, fabs(a));
      err = fmax(err, fabs(a - s->gz[i]));
    }
    if (!(err <= 1e-8 * (1 + gmax))) return OL_OK;
  }
  s->gauss = 1;
  return OL_OK;
}

int ol_vi_init (void *st, int diag, const double *par, ol_ctx *c,
                ol_err *e)
{
  ol_vi *s = st;
  int i, n = c->n, rc;
  double **v[] = {&s->theta, &s->g, &s->g1, &s->am, &s->av};
  double **w[] = {&s->d, &s->eps, &s->z, &s->gz, &s->w};
  size_t k;
  /* every array is indexed by int: the n x n covariance (kept by both
  ** families, for the summary), the evals x n fresh draws (found by the
  ** fuzzer: n = 10^5 overflowed n * n) */
  if ((long long)n * n > INT_MAX || (long long)par[8] * n > INT_MAX)
    return ol_err_set(e, OL_EINVAL, "n = %d is too large for variational "
                      "inference: it keeps an n x n covariance and evals x n "
                      "draws (evals = %d), each at most %d numbers (n <= "
                      "46340)", n, (int)par[8], INT_MAX);
  s->n = n;
  s->diag = diag;
  s->np = diag ? 2 * n : n + n * (n + 1) / 2;
  s->lr = par[0];
  s->opt = (int)par[1];
  s->samples = (int)par[2];
  s->stl = par[3] != 0;
  s->beta1 = par[4];
  s->beta2 = par[5];
  s->aeps = par[6];
  s->sd0 = par[7];
  s->evals = (int)par[8];
  s->average = par[9] != 0;
  s->decay = par[10];
  s->t = 0;
  s->b1t = s->b2t = 1;
  s->elbo = s->elbo_se = s->gradvar = NAN;
  for (k = 0; k < sizeof v / sizeof v[0]; k++)
    if ((*v[k] = ol_vec_new(s->np, e)) == NULL) return OL_ENOMEM;
  for (k = 0; k < sizeof w / sizeof w[0]; k++)
    if ((*w[k] = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->cov = ol_vec_new(n * n, e)) == NULL ||
      (!diag && (s->Cb = ol_vec_new(n * n, e)) == NULL))
    return OL_ENOMEM;
  if (s->evals > 0 && (s->Z = ol_vec_new(s->evals * n, e)) == NULL)
    return OL_ENOMEM;
  if (s->average) {
    for (i = 0; i < 2; i++) {
      ol_vi_win *a = &s->win[i];
      if ((a->sum = ol_vec_new(s->np, e)) == NULL ||
          (a->bsum = ol_vec_new(s->np, e)) == NULL ||
          (a->mm = ol_vec_new(n, e)) == NULL ||
          (a->m2 = ol_vec_new(n, e)) == NULL ||
          (a->Sm = ol_vec_new((int)nstat(s), e)) == NULL ||
          (a->S2 = ol_vec_new((int)nstat(s), e)) == NULL ||
          (a->bm = ol_vec_new(OL_VI_BMAX * 2 * n, e)) == NULL)
        return OL_ENOMEM;
      win_reset(s, a, i + 1);
    }
    if ((s->avg = ol_vec_new(s->np, e)) == NULL ||
        (s->davg = ol_vec_new(n, e)) == NULL ||
        (s->tb = ol_vec_new(s->np > 4 ? s->np : 4, e)) == NULL ||
        (!diag && (s->Sb = ol_vec_new(n * n, e)) == NULL) ||
        (!diag && (s->se = ol_vec_new(n * n, e)) == NULL))
      return OL_ENOMEM;
  }
  /* theta: m = x0, C = sd0 I (omega = log sd0, off-diagonal 0) */
  memset(s->theta, 0, sizeof(double) * (size_t)s->np);
  memset(s->am, 0, sizeof(double) * (size_t)s->np);
  memset(s->av, 0, sizeof(double) * (size_t)s->np);
  ol_vec_copy(c->x, s->theta, n);
  for (i = 0; i < n; i++)
    s->theta[diag ? (size_t)n + i : rowoff(n, i) + i] = log(s->sd0);
  diag_of(s, s->theta, s->d);
  s->rt = s->theta;
  s->rd = s->d;
  if ((rc = gauss_target(s, c, e)) != OL_OK) return rc;
  return evaluate(s, c, e);
}

int ol_vi_step (void *st, ol_ctx *c, ol_err *e)
{
  ol_vi *s = st;
  int i, k, np = s->np, M = s->samples, rc;
  double *g = s->g, *th = s->theta, lr = s->lr * c->sched;
  if (s->decay > 0) lr /= sqrt(1 + (double)s->t / s->decay);
  /* (1) g = the mean of M one-draw gradients */
  for (k = 0; k < M; k++) {
    double u;
    /* M reaches 1e6 draws a step: Ctrl-C ends the run, this step dropped */
    if (ol_interrupted())
      return ol_err_set(e, OL_EINTR, "vi: interrupted");
    if ((rc = ol_vi_draw(s, c, k == 0 ? g : s->g1, &u, e)) != OL_OK)
      return rc;
    if (k > 0) for (i = 0; i < np; i++) g[i] += s->g1[i];
  }
  if (M > 1) for (i = 0; i < np; i++) g[i] /= M;
  /* (2) move theta */
  if (s->opt == 0) {
    double b1 = s->beta1, b2 = s->beta2, a, r;
    s->b1t *= b1;
    s->b2t *= b2;
    a = lr / (1 - s->b1t);
    r = 1 / sqrt(1 - s->b2t);
    for (i = 0; i < np; i++) {
      double mi = b1 * s->am[i] + (1 - b1) * g[i];
      double vi = b2 * s->av[i] + (1 - b2) * g[i] * g[i];
      s->am[i] = mi;
      s->av[i] = vi;
      th[i] -= a * mi / (sqrt(vi) * r + s->aeps);
    }
  }
  else
    for (i = 0; i < np; i++) th[i] -= lr * g[i];
  s->t++;
  /* (3) the new q and the returned one: c->x = its m, then the metrics'
  ** fresh draws */
  diag_of(s, th, s->d);
  if (s->average) average_step(s);
  ol_vec_copy(s->rt, c->x, s->n);
  return evaluate(s, c, e);
}

/* KL(q || p) of the returned q for the Gaussian target (header). */
static double vi_kl (const ol_vi *s)
{
  int a, b, n = s->n;
  double tr = 0, q = 0, ldq = 0;
  const double *P = s->P, *S = s->cov;
  cov_of(s, s->rt, s->rd, s->cov);
  for (a = 0; a < n; a++) {
    double ra = s->mu[a] - s->rt[a];
    ldq += 2 * log(s->rd[a]);
    for (b = 0; b < n; b++) {
      double pab = P[(size_t)a * n + b];
      tr += pab * S[(size_t)a * n + b];
      q += ra * pab * (s->mu[b] - s->rt[b]);
    }
  }
  return 0.5 * (tr + q - n + s->logdetS - ldq);
}

double ol_vi_probe (const void *st, int metric, const ol_ctx *c)
{
  const ol_vi *s = st;
  (void)c;
  switch (metric) {
  case OL_MET_ELBO: return s->elbo;
  case OL_MET_ELBO_SE: return s->elbo_se;
  case OL_MET_GRADVAR: return s->gradvar;
  case OL_MET_ENTROPY: return ol_vi_entropy(s);
  case OL_MET_KL: return s->gauss ? vi_kl(s) : NAN;
  default: return NAN;
  }
}

/* Batch-means standard errors from Welford's M2 over nb batches, k values,
** into out: sqrt(M2 / (nb - 1) / nb), NaN for nb < 2. */
static void batch_se (const double *m2, long nb, int k, double *out)
{
  int i;
  for (i = 0; i < k; i++)
    out[i] = nb >= 2 ? sqrt(fmax(0, m2[i]) / (double)(nb - 1) / (double)nb)
      : NAN;
}

/* The named results (vi.h): every vi method's result hook. */
int ol_vi_named (const void *st, const char *name, const double **v,
                 int *rows, int *cols)
{
  const ol_vi *s = st;
  const ol_vi_win *w = &s->win[0];
  /* the errors' buffer: mean-field's is cov's (n x n, its memory) */
  double *se = s->se != NULL ? s->se : s->cov;
  if (strcmp(name, "mean") == 0) {
    *v = s->rt;
    *rows = 1;
    *cols = s->n;
    return 1;
  }
  if (strcmp(name, "cov") == 0) {
    cov_of(s, s->rt, s->rd, s->cov);
    *v = s->cov;
    *rows = *cols = s->n;
    return 1;
  }
  if (strcmp(name, "mean_se") == 0 && s->average) {
    batch_se(w->m2, w->nb, s->n, se);
    *v = se;
    *rows = 1;
    *cols = s->n;
    return 1;
  }
  if (strcmp(name, "cov_se") == 0 && s->average) {
    if (s->diag) {   /* S's off-diagonal entries are 0 in every batch */
      int i, n = s->n;
      batch_se(w->S2, w->nb, n, s->tb);
      for (i = 0; i < n * n; i++) se[i] = w->nb >= 2 ? 0 : NAN;
      for (i = 0; i < n; i++) se[(size_t)i * n + i] = s->tb[i];
    }
    else batch_se(w->S2, w->nb, s->n * s->n, se);
    *v = se;
    *rows = *cols = s->n;
    return 1;
  }
  if (strcmp(name, "drift") == 0 && s->average) {
    /* per coordinate of m and of the log sds, the least-squares line
    ** through the batch means x_b, b = 0 .. B - 1: its slope over the
    ** slope's standard error (residual sd with B - 2 degrees of freedom);
    ** into tb (np >= 2n) */
    long nb = w->nb < OL_VI_BMAX ? w->nb : OL_VI_BMAX, b;
    int i, n2 = 2 * s->n;
    double bbar = (double)(nb - 1) / 2, sbb = 0, *out = s->tb;
    for (b = 0; b < nb; b++) sbb += ((double)b - bbar) * ((double)b - bbar);
    for (i = 0; i < n2; i++) {
      const double *x = w->bm + i;
      double xbar = 0, sxb = 0, rss = 0, beta;
      if (nb < 8) {
        out[i] = NAN;
        continue;
      }
      for (b = 0; b < nb; b++) xbar += x[(size_t)b * n2];
      xbar /= (double)nb;
      for (b = 0; b < nb; b++)
        sxb += ((double)b - bbar) * (x[(size_t)b * n2] - xbar);
      beta = sxb / sbb;
      for (b = 0; b < nb; b++) {
        double r = x[(size_t)b * n2] - xbar - beta * ((double)b - bbar);
        rss += r * r;
      }
      out[i] = beta / sqrt(rss / (double)(nb - 2) / sbb);
    }
    *v = out;
    *rows = 2;
    *cols = s->n;
    return 1;
  }
  if (strcmp(name, "window") == 0 && s->average && s->t > 0) {
    s->tb[0] = (double)w->start;
    s->tb[1] = (double)s->t;
    s->tb[2] = (double)w->nb;
    s->tb[3] = (double)w->len;
    *v = s->tb;
    *rows = 1;
    *cols = 4;
    return 1;
  }
  if (strcmp(name, "samples") == 0 && s->evals > 0) {
    *v = s->Z;
    *rows = s->evals;
    *cols = s->n;
    return 1;
  }
  return 0;
}

void ol_vi_fini (void *st)
{
  ol_vi *s = st;
  double **v[] = {&s->theta, &s->g, &s->g1, &s->am, &s->av, &s->d, &s->eps,
                  &s->z, &s->gz, &s->w, &s->Z, &s->cov, &s->P, &s->mu,
                  &s->Cb, &s->avg, &s->davg, &s->tb, &s->Sb, &s->se,
                  &s->win[0].sum, &s->win[0].bsum, &s->win[0].mm,
                  &s->win[0].m2, &s->win[0].Sm, &s->win[0].S2,
                  &s->win[0].bm, &s->win[1].sum, &s->win[1].bsum,
                  &s->win[1].mm, &s->win[1].m2, &s->win[1].Sm,
                  &s->win[1].S2, &s->win[1].bm};
  size_t k;
  for (k = 0; k < sizeof v / sizeof v[0]; k++) {
    ol_vec_free(*v[k]);
    *v[k] = NULL;
  }
}
