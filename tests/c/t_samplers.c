/*
** tests/c/t_samplers.c -- the samplers (rwmh, ula, mala, hmc, nuts, sgld)
** against exact moments, with their Monte Carlo errors from core/diag.c.
**
** Each sampler runs 4 chains from dispersed starts (independent streams
** of one printed seed); after warmup (adaptive samplers) or a burn-in,
** the post-warmup draws of h(x) = x_j, (x_j - mu_j)^2 and (x_1 - mu_1)
** (x_2 - mu_2) must lie within 4 MCSE of E h under the target, the MCSE
** being sd(h) / sqrt(ESS) with the ESS of h's draws (diag.h ess_mean;
** bulk-ESS printed beside it), and the rank-normalised R-hat of every
** coordinate must be < 1.01.  Targets with exact moments:
**   gauss2d (mu = (1, -1), s = (1, 0.5), rho = 0.8)        every sampler
**   quadratic n = 50, cond 10, rotated: N(0, H^-1)          hmc, nuts
**                                           (nuts also with a dense metric)
**   gauss2d rho = 0.99; quadratic n = 50, cond 100, rotated  adapted mala
**                                           (diag and dense metrics)
**   1/2 (x - a_i)' A (x - a_i), i < 20, as a finite sum    sgld
** Biased samplers against their own closed forms: ULA's stationary
** covariance at step h on U = x'Px/2 solves S = B S B' + 2h I, B = I - hP
** (1-D: 1 / (a (1 - a h / 2))); constant-step SGLD's solves S = B S B' +
** eps I + eps^2 / 4 A C A / b, B = I - eps/2 A, C the covariance of the
** a_i, b the minibatch.  At a small step ULA's bias is under one MCSE and
** the draws match the truth; at a large one they match the closed form
** and miss the truth by many MCSE.
** Sampler statistics (stats.h): warmup flags, step size frozen after
** warmup, mean accept_stat near the target delta, divergences, tree depth
** and leapfrog counts within NUTS's bounds, the adapted diagonal metric
** near the marginal variances, forced divergences at a huge step.
** Hamiltonian dynamics: energy error of leapfrog O(eps^2) and small at
** eps = 1e-3; leapfrog reversed with -eps returns to the start to
** rounding.  The driver used here to read the states steps methods as the
** run does (checked: the same iterates as ol_run, bit for bit).
*/
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "olt.h"
#include "sample/adapt.h"
#include "sample/hamilton.h"
#include "sample/mass.h"
#include "sample/stats.h"
#include "tap.h"

#define SEED 31415926u
#define CHAINS 4

/* == a driver that steps a method as ol_run does, its state in view == */

typedef struct drv {
  const ol_method_type *m;
  void *st;
  ol_ctx c;
  ol_rng rng;
  double *x, *xavg;
} drv;

/* A method on p from x0 (NULL: p->x0), rng (seed, stream).  OL_OK or the
** init's code (diag()ed). */
static int drv_init (drv *d, const ol_problem *p, const ol_method_type *m,
                     const double *par, const double *x0, unsigned stream)
{
  ol_err e;
  int n = p->n, rc;
  memset(d, 0, sizeof *d);
  d->m = m;
  d->st = calloc(1, m->size);
  d->x = malloc(sizeof(double) * (size_t)n);
  d->xavg = malloc(sizeof(double) * (size_t)n);
  memcpy(d->x, x0 != NULL ? x0 : p->x0, sizeof(double) * (size_t)n);
  memcpy(d->xavg, d->x, sizeof(double) * (size_t)n);
  ol_rng_seed(&d->rng, SEED, stream);
  d->c.p = p;
  d->c.n = n;
  d->c.x = d->x;
  d->c.xavg = d->xavg;
  d->c.sched = 1;
  d->c.rng = &d->rng;
  rc = m->init(d->st, par, &d->c, &e);
  if (rc != OL_OK) diag("%s init: %s", m->name, e.msg);
  return rc;
}

static int drv_step (drv *d)
{
  ol_err e;
  int rc = d->m->step(d->st, &d->c, &e);
  if (rc != OL_OK) diag("%s step %ld: %s", d->m->name, d->c.t, e.msg);
  d->c.t++;
  return rc;
}

static void drv_fini (drv *d)
{
  d->m->fini(d->st);
  free(d->st);
  free(d->x);
  free(d->xavg);
}

/* == chains ============================================================= */

/* What the statistics of the post-warmup steps showed. */
typedef struct chainstats {
  double accept;        /* mean accept_stat */
  double accepted;      /* accepted / steps */
  long divergent;       /* divergent post-warmup steps */
  int depth_max;        /* largest tree depth */
  int warm_flags_ok;    /* stat.warmup was 1 exactly in warmup */
  int frozen;           /* one step size after warmup */
  double epsmin, epsmax; /* chain 0's post-warmup step sizes */
  int leap_ok;          /* 2^d - 1 <= n_leapfrog <= 2^(d+1) - 1 */
  double eps;           /* the frozen step size (chain 0) */
  double minv[2];       /* chain 0's inverse metric, first 2 entries */
} chainstats;

/* CHAINS chains of burn + draws steps of m on p; the draws after the
** burn into X (chain-major, draws rows of n).  Starts: x0 + 2 z.  NULL on
** failure. */
static double *run_chains (const ol_problem *p, const ol_method_type *m,
                           const double *par, long burn, long draws,
                           chainstats *cs)
{
  int n = p->n, c, j;
  double *X = malloc(sizeof(double) * (size_t)(CHAINS * draws * n));
  double *x0 = malloc(sizeof(double) * (size_t)n), asum = 0;
  long i, nacc = 0;
  ol_rng r0;
  int is_nuts = m == ol_method_find("nuts");
  memset(cs, 0, sizeof *cs);
  cs->epsmin = INFINITY;
  cs->warm_flags_ok = cs->frozen = cs->leap_ok = 1;
  ol_rng_seed(&r0, SEED, 1000);
  for (c = 0; c < CHAINS; c++) {
    drv d;
    ol_sampler_stat s;
    int stats;
    long acc0 = 0, warm;
    for (j = 0; j < n; j++) x0[j] = p->x0[j] + 2 * ol_rng_normal(&r0);
    if (drv_init(&d, p, m, par, x0, (unsigned)c) != OL_OK) {
      free(X);
      X = NULL;
      break;
    }
    stats = ol_sampler_stats(m, d.st, &s) == OL_OK;
    warm = ol_sampler_warmup(m, d.st);
    for (i = 0; i < burn + draws; i++) {
      if (i == burn) acc0 = d.c.accepted;
      if (drv_step(&d) != OL_OK) {
        free(X);
        X = NULL;
        break;
      }
      if (i >= burn)
        memcpy(X + ((size_t)c * draws + (i - burn)) * n, d.x,
               sizeof(double) * (size_t)n);
      if (!stats) continue;
      ol_sampler_stats(m, d.st, &s);
      if (s.warmup != (i < warm)) cs->warm_flags_ok = 0;
      if (is_nuts &&
          (s.n_leapfrog < (1 << s.treedepth) - 1 ||
           s.n_leapfrog > (1 << (s.treedepth + 1)) - 1))
        cs->leap_ok = 0;
      if (i < burn) continue;
      asum += s.accept_stat;
      if (s.divergent) cs->divergent++;
      if (s.treedepth > cs->depth_max) cs->depth_max = s.treedepth;
      if (i == burn && c == 0) cs->eps = s.stepsize;
      if (i > burn && c == 0 && s.stepsize != cs->eps) cs->frozen = 0;
      if (c == 0) {
        cs->epsmin = fmin(cs->epsmin, s.stepsize);
        cs->epsmax = fmax(cs->epsmax, s.stepsize);
      }
    }
    if (X == NULL) {
      drv_fini(&d);
      break;
    }
    nacc += d.c.accepted - acc0;
    if (c == 0 && ol_sampler_metric(m, d.st) != NULL) {
      cs->minv[0] = ol_sampler_metric(m, d.st)[0];
      cs->minv[1] = ol_sampler_metric(m, d.st)[1];
    }
    drv_fini(&d);
  }
  cs->accept = asum / (double)(CHAINS * draws);
  cs->accepted = (double)nacc / (double)(CHAINS * draws);
  free(x0);
  return X;
}

/* Summary of h(x) over the draws: h = x_j (k < 0), (x_j - mu_j)(x_k -
** mu_k) otherwise. */
static ol_summary moment (const double *X, long draws, int n, int j, int k,
                          const double *mu)
{
  long i, S = CHAINS * draws;
  double *h = malloc(sizeof(double) * (size_t)S);
  ol_draws d = ol_draws_plain(h, CHAINS, draws);
  ol_summary s;
  ol_err e;
  for (i = 0; i < S; i++) {
    const double *x = X + (size_t)i * n;
    h[i] = k < 0 ? x[j] : (x[j] - mu[j]) * (x[k] - mu[k]);
  }
  if (ol_diag_summary(&d, &s, &e) != OL_OK) diag("summary: %s", e.msg);
  free(h);
  return s;
}

/* The 2-D checks: means, variances, covariance within 4 MCSE of (mu,
** cov); R-hat of both coordinates < 1.01. */
static void check_2d (const char *who, const double *X, long draws,
                      const double *mu, const double *cov)
{
  static const char *const what[] = {"E x1", "E x2", "Var x1", "Var x2",
                                     "Cov x1 x2"};
  static const int jk[5][2] = {{0, -1}, {1, -1}, {0, 0}, {1, 1}, {0, 1}};
  double want[5];
  ol_summary s[5];
  int q;
  want[0] = mu[0];
  want[1] = mu[1];
  want[2] = cov[0];
  want[3] = cov[3];
  want[4] = cov[1];
  for (q = 0; q < 5; q++) {
    s[q] = moment(X, draws, 2, jk[q][0], jk[q][1], mu);
    ok(fabs(s[q].mean - want[q]) <= 4 * s[q].mcse_mean,
       "%s: %s = %.4f, want %.4f (within 4 MCSE = %.4f; ESS %.0f, "
       "bulk-ESS %.0f)", who, what[q], s[q].mean, want[q],
       4 * s[q].mcse_mean, s[q].ess_mean, s[q].ess_bulk);
  }
  ok(s[0].rhat < 1.01 && s[1].rhat < 1.01, "%s: R-hat of x1, x2 = %.4f, "
     "%.4f < 1.01", who, s[0].rhat, s[1].rhat);
}

/* == problems ============================================================ */

/* 1-D U = a x^2 / 2 (the ULA closed form). */
static int u1_fdf (void *ud, const double *x, double *f, double *g,
                   ol_err *e)
{
  double a = *(const double *)ud;
  (void)e;
  if (f != NULL) *f = 0.5 * a * x[0] * x[0];
  if (g != NULL) g[0] = a * x[0];
  return OL_OK;
}

/* The finite sum f = (1/N) sum_i 1/2 (x - a_i)' A (x - a_i). */
#define FS_N 20
typedef struct fsum {
  double A[4];
  double a[FS_N][2];
  double abar[2], C[4];   /* mean and covariance (divisor N) of the a_i */
} fsum;

static int fs_fdfi (void *ud, long i, const double *x, double *f, double *g,
                    ol_err *e)
{
  const fsum *F = ud;
  double d0 = x[0] - F->a[i][0], d1 = x[1] - F->a[i][1];
  double g0 = F->A[0] * d0 + F->A[1] * d1, g1 = F->A[2] * d0 + F->A[3] * d1;
  (void)e;
  if (f != NULL) *f = 0.5 * (d0 * g0 + d1 * g1);
  if (g != NULL) {
    g[0] = g0;
    g[1] = g1;
  }
  return OL_OK;
}

static int fs_fdf (void *ud, const double *x, double *f, double *g,
                   ol_err *e)
{
  double fi, gi[2];
  long i;
  if (f != NULL) *f = 0;
  if (g != NULL) g[0] = g[1] = 0;
  for (i = 0; i < FS_N; i++) {
    fs_fdfi(ud, i, x, &fi, gi, e);
    if (f != NULL) *f += fi / FS_N;
    if (g != NULL) {
      g[0] += gi[0] / FS_N;
      g[1] += gi[1] / FS_N;
    }
  }
  return OL_OK;
}

static ol_problem *make_fsum (fsum *F)
{
  ol_rng r;
  ol_err e;
  ol_problem *p;
  long i;
  static const double A[4] = {2, 0.6, 0.6, 1};
  memcpy(F->A, A, sizeof A);
  ol_rng_seed(&r, SEED, 2000);
  F->abar[0] = F->abar[1] = 0;
  for (i = 0; i < FS_N; i++) {
    F->a[i][0] = 1 + ol_rng_normal(&r);
    F->a[i][1] = -1 + 0.5 * ol_rng_normal(&r);
    F->abar[0] += F->a[i][0] / FS_N;
    F->abar[1] += F->a[i][1] / FS_N;
  }
  memset(F->C, 0, sizeof F->C);
  for (i = 0; i < FS_N; i++) {
    double d0 = F->a[i][0] - F->abar[0], d1 = F->a[i][1] - F->abar[1];
    F->C[0] += d0 * d0 / FS_N;
    F->C[1] += d0 * d1 / FS_N;
    F->C[3] += d1 * d1 / FS_N;
  }
  F->C[2] = F->C[1];
  p = ol_problem_custom(2, fs_fdf, 0, F, NULL, &e);
  if (p == NULL) return NULL;
  p->kind = OL_DENSITY;
  p->nsum = FS_N;
  p->fdfi = fs_fdfi;
  return p;
}

/* S = B S B' + Q for 2 x 2 row-major B, Q, by fixed-point iteration
** (converges when the spectral radius of B is < 1). */
static void lyapunov (const double *B, const double *Q, double *S)
{
  double T[4], U[4];
  int it, i, j, k;
  memcpy(S, Q, sizeof T);
  for (it = 0; it < 200000; it++) {
    for (i = 0; i < 2; i++)
      for (j = 0; j < 2; j++) {
        T[i * 2 + j] = 0;
        for (k = 0; k < 2; k++) T[i * 2 + j] += B[i * 2 + k] * S[k * 2 + j];
      }
    for (i = 0; i < 2; i++)
      for (j = 0; j < 2; j++) {
        U[i * 2 + j] = Q[i * 2 + j];
        for (k = 0; k < 2; k++) U[i * 2 + j] += T[i * 2 + k] * B[j * 2 + k];
      }
    if (memcmp(U, S, sizeof U) == 0) break;
    memcpy(S, U, sizeof U);
  }
}

/* == tests =============================================================== */

static void test_same_as_run (const ol_problem *g2, const ol_problem *fs)
{
  static const char *const names[] = {"rwmh", "ula", "mala", "hmc", "nuts",
                                      "sgld"};
  size_t k;
  for (k = 0; k < sizeof names / sizeof names[0]; k++) {
    const ol_method_type *m = ol_method_find(names[k]);
    const ol_problem *p = strcmp(names[k], "sgld") == 0 ? fs : g2;
    double par[16];
    ol_run_opts o = olt_opts(300, 0, OL_MSET_EMPTY);
    ol_run *r;
    drv d;
    long t;
    int same = 1;
    /* adaptive samplers: a warmup of 100 steps (windows and re-started
    ** step sizes included) inside the 300 */
    if (ol_param_find(m->params, m->nparams, "warmup") >= 0)
      olt_params(m, par, "warmup", 100.0, (char *)NULL);
    else
      olt_params(m, par, (char *)NULL);
    o.seed = SEED;
    r = olt_run(p, m, par, &o);
    if (r == NULL || drv_init(&d, p, m, par, NULL, 0) != OL_OK) {
      ok(0, "%s: starts on %s", names[k], p->name);
      ol_run_free(r);
      continue;
    }
    for (t = 0; t < 300 && same; t++) {
      ol_run_step(r);
      drv_step(&d);
      same = memcmp(ol_run_x(r), d.x, sizeof(double) * (size_t)p->n) == 0;
    }
    ok(same && ol_run_reason(r) == OL_STOP_BUDGET &&
       ol_run_accepted(r) == d.c.accepted,
       "%s: the test driver steps as ol_run does (300 iterates bit for "
       "bit, %ld accepted)", names[k], d.c.accepted);
    drv_fini(&d);
    ol_run_free(r);
  }
}

static void test_gauss2d (const ol_problem *p)
{
  struct { const char *name; long burn, draws; } cfg[] = {
    {"rwmh", 1000, 50000}, {"mala", 1000, 50000}, {"hmc", 1000, 10000},
    {"nuts", 1000, 10000},
  };
  size_t k;
  for (k = 0; k < sizeof cfg / sizeof cfg[0]; k++) {
    const ol_method_type *m = ol_method_find(cfg[k].name);
    double par[16];
    chainstats cs;
    double *X;
    char who[64];
    olt_params(m, par, (char *)NULL);
    if (strcmp(cfg[k].name, "mala") == 0) par[0] = 0.05;
    X = run_chains(p, m, par, cfg[k].burn, cfg[k].draws, &cs);
    snprintf(who, sizeof who, "%s on gauss2d", cfg[k].name);
    if (!ok(X != NULL, "%s: %d chains of %ld + %ld steps run", who, CHAINS,
            cfg[k].burn, cfg[k].draws))
      continue;
    diag("%s: accept_stat %.3f, accepted %.3f, eps %.4g, depth max %d, "
         "minv (%.3f, %.3f)", who, cs.accept, cs.accepted, cs.eps,
         cs.depth_max, cs.minv[0], cs.minv[1]);
    check_2d(who, X, cfg[k].draws, p->mean, p->cov);
    if (strcmp(cfg[k].name, "hmc") == 0)
      ok(cs.warm_flags_ok && cs.epsmax / cs.epsmin > 1.2 &&
         cs.epsmax / cs.epsmin <= 1.2 / 0.8, "%s: warmup flags set on "
         "exactly the first 1000 steps; after them the step sizes span "
         "[%.4g, %.4g], eps (1 +- 0.2) of a frozen eps", who, cs.epsmin,
         cs.epsmax);
    else if (strcmp(cfg[k].name, "mala") != 0)
      ok(cs.warm_flags_ok && cs.frozen, "%s: warmup flags set on exactly "
         "the first 1000 steps; step size frozen after (%.4g)", who,
         cs.eps);
    if (strcmp(cfg[k].name, "mala") != 0) {
      /* RWMH's last window holds ~500 draws of a slowly mixing chain */
      double tol = strcmp(cfg[k].name, "rwmh") == 0 ? 0.5 : 0.35;
      ok(fabs(cs.minv[0] / p->cov[0] - 1) < tol &&
         fabs(cs.minv[1] / p->cov[3] - 1) < tol,
         "%s: adapted inverse metric (%.3f, %.3f) within %.0f%% of the "
         "variances (%.3f, %.3f)", who, cs.minv[0], cs.minv[1], 100 * tol,
         p->cov[0], p->cov[3]);
    }
    if (strcmp(cfg[k].name, "rwmh") == 0)
      ok(fabs(cs.accepted - 0.234) < 0.1, "%s: acceptance %.3f near the "
         "target 0.234", who, cs.accepted);
    if (strcmp(cfg[k].name, "hmc") == 0 || strcmp(cfg[k].name, "nuts") == 0)
      /* dual averaging makes the mean of a(eps_t) over its iterates
      ** delta; a concave a at the frozen average eps is above it */
      ok(cs.accept > 0.75 && cs.accept < 0.97 && cs.divergent == 0,
         "%s: post-warmup accept_stat %.3f in (0.75, 0.97) for delta = "
         "0.8, %ld divergences", who, cs.accept, cs.divergent);
    if (strcmp(cfg[k].name, "nuts") == 0)
      ok(cs.leap_ok && cs.depth_max <= 10, "%s: every step has 2^d - 1 <= "
         "n_leapfrog <= 2^(d+1) - 1, depth <= 10 (max %d)", who,
         cs.depth_max);
    free(X);
  }
}

static void test_ula (const ol_problem *p)
{
  const ol_method_type *m = ol_method_find("ula");
  double P[4], B[4], Q[4], S[4], det, h, par[1];
  chainstats cs;
  double *X;
  int i;
  det = p->cov[0] * p->cov[3] - p->cov[1] * p->cov[1];
  P[0] = p->cov[3] / det;
  P[1] = P[2] = -p->cov[1] / det;
  P[3] = p->cov[0] / det;
  /* (1) small step: bias under one MCSE, draws match the truth */
  h = 0.005;
  for (i = 0; i < 4; i++) {
    B[i] = (i == 0 || i == 3) - h * P[i];
    Q[i] = (i == 0 || i == 3) ? 2 * h : 0;
  }
  lyapunov(B, Q, S);
  par[0] = h;
  X = run_chains(p, m, par, 5000, 100000, &cs);
  if (ok(X != NULL, "ula: h = %g runs", h)) {
    ol_summary s = moment(X, 100000, 2, 1, 1, p->mean);
    diag("ula h = %g: exact stationary Var x2 %.5f vs target %.5f", h, S[3],
         p->cov[3]);
    ok(fabs(S[0] - p->cov[0]) < s.mcse_mean &&
       fabs(S[3] - p->cov[3]) < s.mcse_mean,
       "ula: at h = %g the exact bias (%.2g, %.2g) is under one MCSE "
       "(%.2g)", h, S[0] - p->cov[0], S[3] - p->cov[3], s.mcse_mean);
    check_2d("ula h = 0.005 on gauss2d", X, 100000, p->mean, p->cov);
    free(X);
  }
  /* (2) large step: the Lyapunov covariance, far from the truth */
  h = 0.12;
  for (i = 0; i < 4; i++) {
    B[i] = (i == 0 || i == 3) - h * P[i];
    Q[i] = (i == 0 || i == 3) ? 2 * h : 0;
  }
  lyapunov(B, Q, S);
  par[0] = h;
  X = run_chains(p, m, par, 1000, 50000, &cs);
  if (ok(X != NULL, "ula: h = %g runs", h)) {
    ol_summary v1 = moment(X, 50000, 2, 0, 0, p->mean);
    ol_summary v2 = moment(X, 50000, 2, 1, 1, p->mean);
    ol_summary c12 = moment(X, 50000, 2, 0, 1, p->mean);
    ol_summary m1 = moment(X, 50000, 2, 0, -1, p->mean);
    ok(fabs(m1.mean - p->mean[0]) <= 4 * m1.mcse_mean,
       "ula h = %g: the mean %.4f is still exact (%.4f, 4 MCSE %.4f)", h,
       m1.mean, p->mean[0], 4 * m1.mcse_mean);
    ok(fabs(v1.mean - S[0]) <= 4 * v1.mcse_mean &&
       fabs(v2.mean - S[3]) <= 4 * v2.mcse_mean &&
       fabs(c12.mean - S[1]) <= 4 * c12.mcse_mean,
       "ula h = %g: covariance (%.4f, %.4f, %.4f) matches the Lyapunov "
       "solution (%.4f, %.4f, %.4f) within 4 MCSE", h, v1.mean, v2.mean,
       c12.mean, S[0], S[3], S[1]);
    ok(fabs(v2.mean - p->cov[3]) > 10 * v2.mcse_mean,
       "ula h = %g: Var x2 %.4f misses the target %.4f by %.0f MCSE (the "
       "bias is real)", h, v2.mean, p->cov[3],
       fabs(v2.mean - p->cov[3]) / v2.mcse_mean);
    free(X);
  }
  /* (3) 1-D: a = 2, h = 0.5: stationary variance 1/(a(1 - ah/2)) = 1 */
  {
    double a = 2, want = 1 / (a * (1 - a * 0.5 / 2));
    ol_err e;
    ol_problem *p1 = ol_problem_custom(1, u1_fdf, 0, &a, NULL, &e);
    par[0] = 0.5;
    X = p1 != NULL ? run_chains(p1, m, par, 1000, 50000, &cs) : NULL;
    if (ok(X != NULL, "ula: 1-D a = 2, h = 0.5 runs")) {
      double mu0 = 0;
      ol_summary v = moment(X, 50000, 1, 0, 0, &mu0);
      ok(fabs(v.mean - want) <= 4 * v.mcse_mean, "ula 1-D: Var x = %.4f, "
         "closed form 1/(a(1 - ah/2)) = %.4f (target 1/a = %.2f), within 4 "
         "MCSE = %.4f", v.mean, want, 1 / a, 4 * v.mcse_mean);
      free(X);
    }
    ol_problem_free(p1);
  }
}

static void test_sgld (const ol_problem *p, const fsum *F)
{
  const ol_method_type *m = ol_method_find("sgld");
  double cov[4], det, B[4], Q[4], S[4], AC[4], ACA[4], eps = 0.2, par[4];
  double mu[2];
  chainstats cs;
  double *X;
  int i, j, k, b = 5;
  /* the target N(abar, A^-1) */
  det = F->A[0] * F->A[3] - F->A[1] * F->A[2];
  cov[0] = F->A[3] / det;
  cov[1] = cov[2] = -F->A[1] / det;
  cov[3] = F->A[0] / det;
  mu[0] = F->abar[0];
  mu[1] = F->abar[1];
  /* (1) constant step, minibatch of b: the SGLD Lyapunov solution */
  for (i = 0; i < 2; i++)
    for (j = 0; j < 2; j++) {
      AC[i * 2 + j] = 0;
      for (k = 0; k < 2; k++)
        AC[i * 2 + j] += F->A[i * 2 + k] * F->C[k * 2 + j];
    }
  for (i = 0; i < 2; i++)
    for (j = 0; j < 2; j++) {
      ACA[i * 2 + j] = 0;
      for (k = 0; k < 2; k++)
        ACA[i * 2 + j] += AC[i * 2 + k] * F->A[k * 2 + j];
    }
  for (i = 0; i < 4; i++) {
    B[i] = (i == 0 || i == 3) - 0.5 * eps * F->A[i];
    Q[i] = ((i == 0 || i == 3) ? eps : 0) + eps * eps / 4 * ACA[i] / b;
  }
  lyapunov(B, Q, S);
  olt_params(m, par, "a", eps, "gamma", 0.0, "batch", (double)b,
             (char *)NULL);
  X = run_chains(p, m, par, 1000, 50000, &cs);
  if (ok(X != NULL, "sgld: constant eps = %g, batch %d runs", eps, b)) {
    ol_summary m1 = moment(X, 50000, 2, 0, -1, mu);
    ol_summary m2 = moment(X, 50000, 2, 1, -1, mu);
    ol_summary v1 = moment(X, 50000, 2, 0, 0, mu);
    ol_summary v2 = moment(X, 50000, 2, 1, 1, mu);
    ol_summary c12 = moment(X, 50000, 2, 0, 1, mu);
    ok(fabs(m1.mean - mu[0]) <= 4 * m1.mcse_mean &&
       fabs(m2.mean - mu[1]) <= 4 * m2.mcse_mean,
       "sgld: mean (%.4f, %.4f) = abar (%.4f, %.4f) within 4 MCSE", m1.mean,
       m2.mean, mu[0], mu[1]);
    ok(fabs(v1.mean - S[0]) <= 4 * v1.mcse_mean &&
       fabs(v2.mean - S[3]) <= 4 * v2.mcse_mean &&
       fabs(c12.mean - S[1]) <= 4 * c12.mcse_mean,
       "sgld: covariance (%.4f, %.4f, %.4f) matches the SGLD Lyapunov "
       "solution (%.4f, %.4f, %.4f) within 4 MCSE (target %.4f, %.4f, "
       "%.4f)", v1.mean, v2.mean, c12.mean, S[0], S[3], S[1], cov[0],
       cov[3], cov[1]);
    ok(fabs(v1.mean - cov[0]) > 10 * v1.mcse_mean,
       "sgld: at eps = %g Var x1 %.4f misses the target %.4f by %.0f MCSE",
       eps, v1.mean, cov[0], fabs(v1.mean - cov[0]) / v1.mcse_mean);
    free(X);
  }
  /* (2) a small constant step with the full gradient (batch 0): the
  ** target, within 4 MCSE */
  olt_params(m, par, "a", 0.01, "gamma", 0.0, "batch", 0.0, (char *)NULL);
  X = run_chains(p, m, par, 5000, 100000, &cs);
  if (ok(X != NULL, "sgld: eps = 0.01, full gradient runs"))
    check_2d("sgld eps = 0.01 batch 0", X, 100000, mu, cov);
  free(X);
  /* (3) the schedule: eps_t = a (b + t)^-gamma, stepsize statistic */
  {
    drv d;
    ol_sampler_stat s;
    int t, good = 1;
    olt_params(m, par, "a", 0.1, "b", 10.0, "gamma", 0.55, (char *)NULL);
    if (drv_init(&d, p, m, par, NULL, 0) == OL_OK) {
      for (t = 0; t < 50; t++) {
        drv_step(&d);
        ol_sampler_stats(m, d.st, &s);
        good = good && fabs(s.stepsize - 0.1 * pow(10.0 + t, -0.55))
          <= 1e-15 && isnan(s.accept_stat) && d.c.ngev == 10 * (t + 1);
      }
      drv_fini(&d);
    }
    ok(good, "sgld: step t uses eps_t = a (b + t)^-gamma and 10 component "
       "gradients");
  }
}

/* 50-D rotated Gaussian: hmc and nuts, every coordinate's mean and
** variance within 4 MCSE of N(0, H^-1). */
static void test_gauss50 (void)
{
  ol_problem *p = olt_quadratic(50, 10, 1);
  int n = 50, j;
  double *H = malloc(sizeof(double) * 2500), mu[50];
  static const char *const names[] = {"hmc", "nuts", "nuts"};
  static const char *const metric[] = {"diag", "diag", "dense"};
  size_t k;
  ol_err e;
  if (p == NULL) return;
  p->hess(p->ud, p->x0, H, &e);
  /* H^-1 by Cholesky */
  LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', n, H, n);
  LAPACKE_dpotri(LAPACK_ROW_MAJOR, 'L', n, H, n);
  memset(mu, 0, sizeof mu);
  for (k = 0; k < 3; k++) {
    const ol_method_type *m = ol_method_find(names[k]);
    double par[16], zm = 0, zv = 0, rh = 0, essmin = INFINITY;
    chainstats cs;
    double *X;
    olt_params(m, par, "metric", k == 2 ? 2.0 : 1.0, (char *)NULL);
    X = run_chains(p, m, par, 1000, 3000, &cs);
    if (!ok(X != NULL, "%s on 50-D gauss: runs", names[k])) continue;
    for (j = 0; j < n; j++) {
      ol_summary a = moment(X, 3000, n, j, -1, mu);
      ol_summary b = moment(X, 3000, n, j, j, mu);
      double v = H[j * n + j];   /* lower triangle holds the inverse */
      zm = fmax(zm, fabs(a.mean) / a.mcse_mean);
      zv = fmax(zv, fabs(b.mean - v) / b.mcse_mean);
      rh = fmax(rh, a.rhat);
      essmin = fmin(essmin, a.ess_bulk);
    }
    diag("%s (metric %s) on 50-D gauss: accept_stat %.3f, eps %.4g, depth "
         "max %d, min bulk-ESS %.0f", names[k], metric[k], cs.accept, cs.eps,
         cs.depth_max, essmin);
    ok(zm <= 4 && zv <= 4, "%s (metric %s) on 50-D gauss (cond 10, "
       "rotated): all 50 means and variances within 4 MCSE (worst %.2f and "
       "%.2f MCSE)", names[k], metric[k], zm, zv);
    ok(rh < 1.01, "%s (metric %s) on 50-D gauss: max R-hat %.4f < 1.01",
       names[k], metric[k], rh);
    free(X);
  }
  free(H);
  ol_problem_free(p);
}

/* Adapted MALA (step size to delta = 0.574, the metric in Stan's
** windows; warmup 1000 in 2-D, 60000 in 50-D where MALA learns slowly): a
** 2-D Gaussian with rho = 0.99 (condition 310) and a rotated 50-D one of
** condition 100; means and variances within 4 MCSE and
** the post-warmup acceptance within 0.1 of the target. */
static void test_mala_adapt (void)
{
  struct { const char *metric; int d; long warmup, draws; } cfg[] = {
    {"diag", 2, 1000, 100000}, {"dense", 2, 1000, 10000},
    {"dense", 50, 60000, 5000},
  };
  const ol_method_type *m = ol_method_find("mala");
  size_t k;
  for (k = 0; k < sizeof cfg / sizeof cfg[0]; k++) {
    int n = cfg[k].d, j, dense = strcmp(cfg[k].metric, "dense") == 0;
    double par[16], *X, zm = 0, zv = 0, rh = 0, essmin = INFINITY;
    double *cov = malloc(sizeof(double) * (size_t)(n * n)), mu[50];
    ol_problem *p;
    chainstats cs;
    char who[96];
    ol_err e;
    if (n == 2) {
      p = olt_problem("gauss2d", NULL, "rho", 0.99, (char *)NULL);
      memcpy(cov, p->cov, 4 * sizeof *cov);
      memcpy(mu, p->mean, 2 * sizeof *mu);
    }
    else {
      p = olt_quadratic(n, 100, 1);
      p->hess(p->ud, p->x0, cov, &e);
      LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', n, cov, n);
      LAPACKE_dpotri(LAPACK_ROW_MAJOR, 'L', n, cov, n);
      memset(mu, 0, sizeof mu);
    }
    olt_params(m, par, "warmup", (double)cfg[k].warmup, "metric",
               dense ? 2.0 : 1.0, (char *)NULL);
    snprintf(who, sizeof who, "adapted mala (metric %s) on a %d-D "
             "Gaussian of condition >= 100", cfg[k].metric, n);
    X = run_chains(p, m, par, cfg[k].warmup, cfg[k].draws, &cs);
    if (ok(X != NULL, "%s: %d chains of %ld + %ld steps run", who, CHAINS,
           cfg[k].warmup, cfg[k].draws)) {
      diag("%s: accept_stat %.3f, accepted %.3f, h %.4g", who, cs.accept,
           cs.accepted, cs.eps);
      if (n == 2) check_2d(who, X, cfg[k].draws, mu, cov);
      else {
        for (j = 0; j < n; j++) {
          ol_summary a = moment(X, cfg[k].draws, n, j, -1, mu);
          ol_summary b = moment(X, cfg[k].draws, n, j, j, mu);
          zm = fmax(zm, fabs(a.mean) / a.mcse_mean);
          zv = fmax(zv, fabs(b.mean - cov[j * n + j]) / b.mcse_mean);
          rh = fmax(rh, a.rhat);
          essmin = fmin(essmin, a.ess_bulk);
        }
        ok(zm <= 4 && zv <= 4 && rh < 1.01, "%s: all 50 means and "
           "variances within 4 MCSE (worst %.2f and %.2f MCSE), max R-hat "
           "%.4f, min bulk-ESS %.0f", who, zm, zv, rh, essmin);
      }
      ok(fabs(cs.accepted - 0.574) < 0.1 && cs.warm_flags_ok && cs.frozen,
         "%s: post-warmup acceptance %.3f within 0.1 of delta = 0.574; "
         "warmup flags on the first %ld steps, h frozen after", who,
         cs.accepted, cfg[k].warmup);
    }
    free(X);
    free(cov);
    ol_problem_free(p);
  }
}

/* Warmup machinery against its definitions: dual averaging solves
** a(eps) = delta for a deterministic a(eps) = exp(-eps^2), eps* =
** sqrt(-log delta); the windows end where Stan's do. */
static void test_adapt (void)
{
  static const double deltas[] = {0.8, 0.6};
  size_t k;
  for (k = 0; k < 2; k++) {
    ol_dualavg d;
    double eps = 1, want = sqrt(-log(deltas[k]));
    int t;
    ol_dualavg_start(&d, deltas[k], eps);
    for (t = 0; t < 5000; t++) eps = ol_dualavg_learn(&d, exp(-eps * eps));
    eps = ol_dualavg_final(&d, eps);
    ok(fabs(eps / want - 1) < 0.01, "adapt: dual averaging on a(eps) = "
       "exp(-eps^2) ends at %.5f, eps* = sqrt(-log %.1f) = %.5f", eps,
       deltas[k], want);
  }
  {
    static const struct { long warmup; long ends[6]; int nends; } W[] = {
      {1000, {99, 149, 249, 449, 949}, 5},   /* 75 | 25 50 100 200 500 | 50 */
      {100, {89}, 1},                        /* 15 | 75 | 10 */
      {19, {0}, 0},                          /* no metric adaptation */
    };
    size_t w;
    for (w = 0; w < sizeof W / sizeof W[0]; w++) {
      ol_winvar v;
      ol_err e;
      double x[1], minv[1] = {1};
      long c, got[8];
      int ng = 0, good = 1, i;
      memset(&v, 0, sizeof v);
      ol_winvar_init(&v, 1, W[w].warmup, &e);
      for (c = 0; c < W[w].warmup; c++) {
        x[0] = (double)(c % 7);
        if (ol_winvar_learn(&v, x, minv) && ng < 8) got[ng++] = c;
      }
      good = ng == W[w].nends;
      for (i = 0; good && i < ng; i++) good = got[i] == W[w].ends[i];
      ok(good, "adapt: warmup %ld ends %d metric windows at Stan's "
         "boundaries", W[w].warmup, ng);
      ol_winvar_fini(&v);
    }
  }
}

/* Leapfrog: energy error O(eps^2), reversibility. */
static void test_leapfrog (const ol_problem *p)
{
  ol_ctx c;
  ol_rng r;
  ol_hpoint z, z0;
  ol_err e;
  ol_mass ms, *mass = &ms;
  double minv[2], err[2], H0;
  int k, l, n = 2;
  memset(&c, 0, sizeof c);
  c.p = p;
  c.n = n;
  c.sched = 1;
  c.rng = &r;
  ol_rng_seed(&r, SEED, 3000);
  ol_hpoint_init(&z, n, &e);
  ol_hpoint_init(&z0, n, &e);
  ol_mass_init(mass, n, minv, 0, &e);
  minv[1] = 0.5;
  ol_mass_from_diag(mass);
  z0.q[0] = 0.3;
  z0.q[1] = -1.4;
  ol_ctx_grad(&c, z0.q, &z0.U, z0.g, &e);
  ol_mass_momentum(mass, &r, z0.p);
  H0 = ol_ham_energy(&z0, mass);
  /* (1) energy error after time T = 1 at eps and eps / 2 */
  for (k = 0; k < 2; k++) {
    double eps = k == 0 ? 1e-3 : 5e-4, H = 0;
    int steps = k == 0 ? 1000 : 2000;
    ol_hpoint_copy(&z, &z0, n);
    for (l = 0; l < steps; l++) {
      ol_ham_leapfrog(&c, &z, mass, eps, &e);
      H = fmax(H, fabs(ol_ham_energy(&z, mass) - H0));
    }
    err[k] = H;
  }
  ok(err[0] < 1e-5, "leapfrog: max energy error %.3g < 1e-5 over T = 1 at "
     "eps = 1e-3", err[0]);
  ok(err[0] / err[1] > 3.5 && err[0] / err[1] < 4.5, "leapfrog: halving "
     "eps divides the energy error by %.3f (second order: 4)",
     err[0] / err[1]);
  /* (2) reversibility: 200 steps of 0.1, then 200 of -0.1 */
  {
    double dq = 0, dp = 0;
    ol_hpoint_copy(&z, &z0, n);
    for (l = 0; l < 200; l++) ol_ham_leapfrog(&c, &z, mass, 0.1, &e);
    for (l = 0; l < 200; l++) ol_ham_leapfrog(&c, &z, mass, -0.1, &e);
    for (l = 0; l < n; l++) {
      dq = fmax(dq, fabs(z.q[l] - z0.q[l]));
      dp = fmax(dp, fabs(z.p[l] - z0.p[l]));
    }
    ok(dq < 1e-12 && dp < 1e-12, "leapfrog: 200 steps forward and back "
       "return to the start to %.2g (q) and %.2g (p)", dq, dp);
  }
  /* (3) a dense mass equal to the diagonal one: the same trajectory */
  {
    ol_mass dn;
    double dminv[2], A[4] = {1, 0, 0, 0.5}, dq = 0;
    ol_hpoint zd;
    ol_hpoint_init(&zd, n, &e);
    ol_mass_init(&dn, n, dminv, 1, &e);
    ol_mass_set(&dn, A, &e);
    ol_hpoint_copy(&z, &z0, n);
    ol_hpoint_copy(&zd, &z0, n);
    for (l = 0; l < 50; l++) {
      ol_ham_leapfrog(&c, &z, mass, 0.1, &e);
      ol_ham_leapfrog(&c, &zd, &dn, 0.1, &e);
    }
    for (l = 0; l < n; l++) dq = fmax(dq, fabs(z.q[l] - zd.q[l]));
    ok(dq < 1e-12 && dn.minv[1] == 0.5 &&
       fabs(ol_ham_energy(&z, mass) - ol_ham_energy(&zd, &dn)) < 1e-12,
       "leapfrog: a dense metric diag(1, 0.5) follows the diagonal one's "
       "trajectory (to %.2g) with the same energy", dq);
    ol_hpoint_fini(&zd);
    ol_mass_fini(&dn);
  }
  ol_mass_fini(mass);
  ol_hpoint_fini(&z);
  ol_hpoint_fini(&z0);
}

/* NUTS at extreme settings: forced divergences, the depth cap. */
static void test_nuts_limits (const ol_problem *p)
{
  const ol_method_type *m = ol_method_find("nuts");
  double par[16];
  drv d;
  ol_sampler_stat s;
  long t, div = 0, moved = 0;
  int depth_ok = 1, hit = 0, finite = 1;
  /* (1) eps = 3 (eps sqrt(lambda_max) ~ 11 > 2): every trajectory blows
  ** up */
  olt_params(m, par, "eps", 3.0, "warmup", 0.0, (char *)NULL);
  if (drv_init(&d, p, m, par, NULL, 0) == OL_OK) {
    for (t = 0; t < 200; t++) {
      drv_step(&d);
      ol_sampler_stats(m, d.st, &s);
      div += s.divergent;
      finite = finite && ol_allfinite(d.x, 2);
    }
    moved = d.c.accepted;
    ok(div >= 150 && s.ndivergent == div && finite,
       "nuts: eps = 3 diverges on %ld of 200 steps (counted %ld), the chain "
       "stays finite (%ld moves)", div, s.ndivergent, moved);
    drv_fini(&d);
  }
  /* (2) tiny eps, maxdepth 3: the cap binds, at most 7 leapfrog steps */
  olt_params(m, par, "eps", 0.01, "warmup", 0.0, "maxdepth", 3.0,
             (char *)NULL);
  if (drv_init(&d, p, m, par, NULL, 0) == OL_OK) {
    for (t = 0; t < 200; t++) {
      drv_step(&d);
      ol_sampler_stats(m, d.st, &s);
      depth_ok = depth_ok && s.treedepth <= 3 && s.n_leapfrog <= 7 &&
        s.stepsize == 0.01 && !s.warmup;
      hit += s.treedepth == 3;
    }
    ok(depth_ok && hit == 200, "nuts: maxdepth 3 caps every step at depth "
       "3 and 7 leapfrog steps (%d of 200 reach it)", hit);
    drv_fini(&d);
  }
}

/* The stats accessors and the metric setter. */
static void test_accessors (const ol_problem *p)
{
  const ol_method_type *m = ol_method_find("nuts");
  double par[16], good[2] = {1, 0.25}, bad[2] = {1, -1};
  ol_sampler_stat s;
  ol_err e;
  drv d;
  olt_params(m, par, "metric", 0.0, (char *)NULL);
  if (drv_init(&d, p, m, par, NULL, 0) != OL_OK) return;
  ok(ol_sampler_set_metric(m, d.st, bad, 2, &e) == OL_EINVAL,
     "stats: a negative metric entry is refused (%s)", e.msg);
  ok(ol_sampler_set_metric(m, d.st, good, 1, &e) == OL_EINVAL,
     "stats: a metric of the wrong length is refused (%s)", e.msg);
  ok(ol_sampler_set_metric(m, d.st, good, 2, &e) == OL_OK &&
     ol_sampler_metric(m, d.st)[1] == 0.25, "stats: the metric is set");
  drv_step(&d);
  ok(ol_sampler_metric(m, d.st)[1] == 0.25 &&
     ol_sampler_warmup(m, d.st) == 1000, "stats: metric = unit keeps a "
     "set metric through warmup; warmup is 1000");
  drv_fini(&d);
  m = ol_method_find("mala");
  olt_params(m, par, (char *)NULL);
  ok(par[1] == 1000, "stats: mala's default warmup is Stan's 1000 (%g)",
     par[1]);
  olt_params(m, par, "warmup", 0.0, (char *)NULL);
  if (drv_init(&d, p, m, par, NULL, 0) != OL_OK) return;
  drv_step(&d);
  ok(ol_sampler_stats(m, d.st, &s) == OL_OK && s.iter == 1 &&
     s.stepsize == par[0] && ol_sampler_metric(m, d.st) != NULL &&
     ol_sampler_warmup(m, d.st) == 0, "stats: mala with warmup = 0 keeps "
     "statistics (1 step of h = %g, fixed) and a metric", s.stepsize);
  drv_fini(&d);
  ok(ol_sampler_stats(ol_method_find("ula"), NULL, &s) == OL_EINVAL,
     "stats: no state, no statistics");
}

int main (void)
{
  ol_problem *g2 = olt_problem("gauss2d", NULL, "rho", 0.8, (char *)NULL);
  fsum F;
  ol_problem *fs = make_fsum(&F);
  diag("seed %u, %d chains", SEED, CHAINS);
  if (g2 == NULL || fs == NULL) return done();
  test_same_as_run(g2, fs);
  test_adapt();
  test_leapfrog(g2);
  test_nuts_limits(g2);
  test_accessors(g2);
  test_gauss2d(g2);
  test_ula(g2);
  test_sgld(fs, &F);
  test_gauss50();
  test_mala_adapt();
  ol_problem_free(g2);
  ol_problem_free(fs);
  return done();
}
