/*
** tests/c/t_noise.c -- stochastic oracles: the noise kinds of ol_ctx_grad,
** minibatches of finite sums in each order, the component oracle.
**
** Truth: closed-form moments of each noise law, checked on fixed-seed
** samples within 4 standard errors (the SE of each statistic is derived
** from the law's higher moments, stated next to each check); the orders
** by their definitions (permutations per epoch, 0..N-1); minibatch values
** and gradients against component means computed here from the
** components' formulas.
**
** The oracle is reached as a method sees it: a do-nothing method keeps
** the ctx its init receives, and the test calls ol_ctx_grad on it.
*/
#include "olt.h"
#include "run.h"
#include "tap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED 20260401u

#define cap olt_nop_ctx   /* the run's context, set by olt_nop's init */

/* x <- x - 0.1 g with the stochastic gradient. */
static int sgd_step (void *st, ol_ctx *c, ol_err *e)
{
  double g[8];
  int i, rc;
  (void)st;
  rc = ol_ctx_grad(c, c->x, NULL, g, e);
  if (rc != OL_OK) return rc;
  for (i = 0; i < c->n; i++) c->x[i] -= 0.1 * g[i];
  return OL_OK;
}

static const ol_method_type sgd = {
  .name = "sgd",
  .family = OL_OPTIM,
  .doc = "x -= 0.1 g (test)",
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = olt_nop_init,
  .step = sgd_step,
  .probes = OL_MSET_NONE,
};

/* f = 0, g = 0: the stochastic gradient is the noise itself. */
static int zero (void *ud, const double *x, double *f, double *g, ol_err *e)
{
  int i, n = *(const int *)ud;
  (void)x;
  (void)e;
  if (f != NULL) *f = 0;
  if (g != NULL)
    for (i = 0; i < n; i++) g[i] = 0;
  return OL_OK;
}

static const double H3[9] = {4, 1, 0.5, 1, 3, -0.4, 0.5, -0.4, 2};

static int hess3 (void *ud, const double *x, double *H, ol_err *e)
{
  (void)ud;
  (void)x;
  (void)e;
  memcpy(H, H3, sizeof H3);
  return OL_OK;
}

static int hess_indef (void *ud, const double *x, double *H, ol_err *e)
{
  (void)ud;
  (void)x;
  (void)e;
  H[0] = 1;
  H[1] = 2;
  H[2] = 2;
  H[3] = 1;
  return OL_OK;
}

/* Finite sum f = (1/N) sum_i 0.5 ||x - a_i||^2, N = 7, n = 3, with
** a_i = (i, i^2 / 10, -i): g_i = x - a_i. */
#define NS 7
static void acomp (long i, double *a)
{
  a[0] = (double)i;
  a[1] = (double)(i * i) / 10;
  a[2] = -(double)i;
}

static int fs_fdf (void *ud, const double *x, double *f, double *g,
                   ol_err *e)
{
  double a[3], fs = 0;
  long i;
  int j;
  (void)ud;
  (void)e;
  if (g != NULL) memset(g, 0, 3 * sizeof *g);
  for (i = 0; i < NS; i++) {
    acomp(i, a);
    for (j = 0; j < 3; j++) {
      fs += 0.5 * (x[j] - a[j]) * (x[j] - a[j]) / NS;
      if (g != NULL) g[j] += (x[j] - a[j]) / NS;
    }
  }
  if (f != NULL) *f = fs;
  return OL_OK;
}

static int fs_fdfi (void *ud, long i, const double *x, double *f, double *g,
                    ol_err *e)
{
  double a[3];
  int j;
  (void)ud;
  (void)e;
  acomp(i, a);
  if (f != NULL) *f = 0;
  for (j = 0; j < 3; j++) {
    if (f != NULL) *f += 0.5 * (x[j] - a[j]) * (x[j] - a[j]);
    if (g != NULL) g[j] = x[j] - a[j];
  }
  if (i == 5 && x[0] == 99) {   /* a component that fails on demand */
    if (f != NULL) *f = NAN;
    if (g != NULL) g[0] = NAN;
  }
  return OL_OK;
}

static int n1 = 1, n3 = 3, n4 = 4;

static ol_problem *finite_sum (int order, int batch)
{
  ol_err e;
  ol_problem *p = ol_problem_custom(3, fs_fdf, 0, NULL, NULL, &e);
  p->nsum = NS;
  p->fdfi = fs_fdfi;
  p->noise.kind = OL_NOISE_BATCH;
  p->noise.batch = batch;
  p->noise.order = order;
  return p;
}

/* Index of the component drawn: with batch 1 at x = 0, g = -a_i, and
** -g[0] = i. */
static long drawn (void)
{
  double x[3] = {0, 0, 0}, g[3];
  ol_err e;
  if (ol_ctx_grad(cap, x, NULL, g, &e) != OL_OK) return -1;
  return lround(-g[0]);
}

static int is_perm (const long *v, int n)
{
  int seen[NS] = {0}, i;
  for (i = 0; i < n; i++) {
    if (v[i] < 0 || v[i] >= n || seen[v[i]]) return 0;
    seen[v[i]] = 1;
  }
  return 1;
}

static ol_run *start (ol_problem *p, uint64_t seed, ol_err *e)
{
  ol_run_opts o;
  ol_run_opts_default(&o);
  o.seed = seed;
  o.metrics = OL_MSET_OF(OL_MET_LOSS, OL_MET_GRADNORM);
  cap = NULL;
  return ol_run_new(p, &olt_nop, NULL, &o, e);
}

/* Sample moments of coordinate-wise noise (n coordinates, m draws each)
** pooled: mean, E xi^2, E xi^3 about the known mean 0. */
static void moments (ol_problem *p, long m, double *m1, double *m2,
                     double *m3)
{
  double g[4], x[4] = {0, 0, 0, 0}, s1 = 0, s2 = 0, s3 = 0;
  ol_err e;
  long k;
  int i, n = p->n;
  for (k = 0; k < m; k++) {
    ol_ctx_grad(cap, x, NULL, g, &e);
    for (i = 0; i < n; i++) {
      s1 += g[i];
      s2 += g[i] * g[i];
      s3 += g[i] * g[i] * g[i];
    }
  }
  *m1 = s1 / ((double)m * n);
  *m2 = s2 / ((double)m * n);
  *m3 = s3 / ((double)m * n);
}

int main (void)
{
  ol_err e;
  ol_problem *p;
  ol_run *r;
  double m1, m2, m3, N, sig;
  long k;
  int i, j;

  diag("seed %u", SEED);

  /* == additive kinds: moments ========================================== */
  p = ol_problem_custom(4, zero, 0, &n4, NULL, &e);
  N = 4 * 50000.0;

  /* Student t_5, sigma 2: mean 0, var sigma^2 nu / (nu - 2) = 20 / 3;
  ** E t^4 = 3 nu^2 / ((nu - 2)(nu - 4)) = 25, so Var(xi^2) = sigma^4 (25 -
  ** 25 / 9) = 16 * 200 / 9. */
  p->noise.kind = OL_NOISE_STUDENT;
  p->noise.sigma = 2;
  p->noise.nu = 5;
  r = start(p, SEED, &e);
  ok(r != NULL && cap != NULL, "noise: a run on a student-noise problem");
  moments(p, 50000, &m1, &m2, &m3);
  is_near(m1, 0, 4 * sqrt(20.0 / 3 / N), "noise: student mean is 0 (4 SE)");
  is_near(m2, 20.0 / 3, 4 * sqrt(16 * 200.0 / 9 / N),
          "noise: student variance is sigma^2 nu/(nu-2) = 20/3 (4 SE)");
  ol_run_free(r);

  /* Asymmetric sigma (E - 1), sigma 1.5: central moments of Exp(1) are
  ** mu2 = 1, mu3 = 2, mu4 = 9, mu6 = 265, so Var(xi^2) = sigma^4 (9 - 1),
  ** Var(xi^3) = sigma^6 (265 - 4). */
  sig = 1.5;
  p->noise.kind = OL_NOISE_ASYM;
  p->noise.sigma = sig;
  r = start(p, SEED + 1, &e);
  moments(p, 50000, &m1, &m2, &m3);
  is_near(m1, 0, 4 * sig / sqrt(N), "noise: asym mean is 0 (4 SE)");
  is_near(m2, sig * sig, 4 * sig * sig * sqrt(8 / N),
          "noise: asym variance is sigma^2 (4 SE)");
  is_near(m3, 2 * pow(sig, 3), 4 * pow(sig, 3) * sqrt(261 / N),
          "noise: asym third central moment is 2 sigma^3 (4 SE)");
  ok(m3 > 0, "noise: asym is skewed to the right");
  ol_run_free(r);

  /* Gaussian sigma 0.7: var sigma^2, Var(xi^2) = 2 sigma^4. */
  p->noise.kind = OL_NOISE_GAUSS;
  p->noise.sigma = 0.7;
  r = start(p, SEED + 2, &e);
  moments(p, 50000, &m1, &m2, &m3);
  is_near(m2, 0.49, 4 * 0.49 * sqrt(2 / N),
          "noise: gauss variance is sigma^2 (4 SE)");
  ol_run_free(r);

  /* ol_ctx_value stays exact under noise */
  p->noise.kind = OL_NOISE_STUDENT;
  p->noise.sigma = 1;
  p->noise.nu = 1;
  r = start(p, SEED, &e);
  {
    double x[4] = {1, 2, 3, 4}, f = 1;
    ok(ol_ctx_value(cap, x, &f, &e) == OL_OK && f == 0,
       "noise: ol_ctx_value is the true value under noise");
  }
  ol_run_free(r);
  ol_problem_free(p);

  /* == anisotropic: covariance sigma^2 H / batch ========================= */
  p = ol_problem_custom(3, zero, 0, &n3, NULL, &e);
  ok(ol_problem_aniso(p, &e) == OL_EINVAL && strstr(e.msg, "Hessian"),
     "aniso: a problem without a Hessian is EINVAL");
  p->hess = hess3;
  ok(ol_problem_aniso(p, &e) == OL_OK && p->noise.chol != NULL,
     "aniso: ol_problem_aniso factors the Hessian at x0");
  {
    const double *L = p->noise.chol;
    double worst = 0, upper = 0;
    for (i = 0; i < 3; i++)
      for (j = 0; j < 3; j++) {
        double s = 0;
        int k2;
        for (k2 = 0; k2 < 3; k2++) s += L[i * 3 + k2] * L[j * 3 + k2];
        worst = fmax(worst, fabs(s - H3[i * 3 + j]));
        if (j > i) upper = fmax(upper, fabs(L[i * 3 + j]));
      }
    ok(worst < 1e-14 && upper == 0,
       "aniso: chol is lower triangular with L L' = H (1e-14)");
  }
  p->noise.kind = OL_NOISE_ANISO;
  p->noise.sigma = 0.5;
  p->noise.batch = 4;
  r = start(p, SEED + 3, &e);
  ok(r != NULL, "aniso: a run with anisotropic noise");
  {
    /* S = sigma^2 H / batch; sample covariance about the known mean 0;
    ** Var(xi_i xi_j) = S_ii S_jj + S_ij^2 for a Gaussian. */
    double S[9], C[9] = {0}, g[3], x[3] = {0, 0, 0}, M = 200000, bad = 0;
    for (i = 0; i < 9; i++) S[i] = 0.25 * H3[i] / 4;
    for (k = 0; k < (long)M; k++) {
      ol_ctx_grad(cap, x, NULL, g, &e);
      for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) C[i * 3 + j] += g[i] * g[j] / M;
    }
    for (i = 0; i < 3; i++)
      for (j = 0; j < 3; j++) {
        double se = sqrt((S[i * 4] * S[j * 4] + S[i * 3 + j] * S[i * 3 + j])
                         / M);
        double z = fabs(C[i * 3 + j] - S[i * 3 + j]) / se;
        if (z > bad) bad = z;
      }
    diag("aniso: largest covariance deviation %.2f SE", bad);
    ok(bad < 4, "aniso: sample covariance is sigma^2 H / batch entrywise "
       "(4 SE)");
  }
  ol_run_free(r);
  p->hess = hess_indef;
  p->n = 2;
  ok(ol_problem_aniso(p, &e) == OL_ENUMERIC && strstr(e.msg, "Cholesky"),
     "aniso: an indefinite Hessian is ENUMERIC naming the Cholesky");
  p->n = 3;
  ol_problem_free(p);

  /* == noise validation: once, in ol_problem_set_noise =================== */
  p = ol_problem_custom(4, zero, 0, &n4, NULL, &e);
  ol_problem_set_name(p, "zeroprob", &e);
  {
    ol_noise nz;
    memset(&nz, 0, sizeof nz);
    nz.kind = OL_NOISE_STUDENT;
    nz.sigma = 1;
    nz.nu = 0;
    nz.batch = 1;
    ok(ol_problem_set_noise(p, &nz, &e) == OL_EINVAL &&
       strcmp(e.msg, "noise.nu = 0 is out of range (0, inf)") == 0,
       "noise: student nu = 0 is EINVAL giving the range (%s)", e.msg);
    nz.nu = 3;
    nz.sigma = -1;
    ok(ol_problem_set_noise(p, &nz, &e) == OL_EINVAL &&
       strstr(e.msg, "sigma"), "noise: negative sigma is EINVAL");
    nz.sigma = 1;
    nz.kind = OL_NOISE_BATCH;
    ok(ol_problem_set_noise(p, &nz, &e) == OL_EINVAL &&
       strstr(e.msg, "zeroprob") && strstr(e.msg, "finite-sum"),
       "noise: batch noise without a finite sum is EINVAL naming the "
       "problem");
    ok(p->noise.kind == OL_NOISE_NONE, "noise: a refused model leaves none");
    ol_problem_free(p);

    p = finite_sum(OL_ORDER_SHUFFLE, 1);
    nz.batch = NS + 1;
    nz.order = OL_ORDER_SHUFFLE;
    ok(ol_problem_set_noise(p, &nz, &e) == OL_EINVAL &&
       strstr(e.msg, "batch = 8") && strstr(e.msg, "[1, 7]"),
       "noise: batch > N is EINVAL giving the range");
    nz.batch = 0;
    ok(ol_problem_set_noise(p, &nz, &e) == OL_EINVAL,
       "noise: batch = 0 is EINVAL");
    ol_problem_free(p);
  }

  /* == OL_M_NEEDSUM ====================================================== */
  {
    ol_method_type needsum = olt_nop;
    needsum.flags = OL_M_NEEDSUM;
    p = ol_problem_custom(1, zero, 0, &n1, NULL, &e);
    ok(ol_method_check(&needsum, p, &e) == OL_EINVAL &&
       strstr(e.msg, "nop needs a finite-sum problem"),
       "method check: OL_M_NEEDSUM refuses a problem without components");
    ol_problem_free(p);
    p = finite_sum(OL_ORDER_REPLACE, 1);
    ok(ol_method_check(&needsum, p, &e) == OL_OK,
       "method check: OL_M_NEEDSUM accepts a finite sum");
    ol_problem_free(p);
  }

  /* == orders ============================================================ */
  {
    long seq[5 * NS], first[NS];
    int perms, same, differ, cyc;

    p = finite_sum(OL_ORDER_SHUFFLE, 1);
    r = start(p, SEED, &e);
    for (k = 0; k < 5 * NS; k++) seq[k] = drawn();
    for (k = 0, perms = 1, differ = 0; k < 5; k++) {
      if (!is_perm(seq + k * NS, NS)) perms = 0;
      if (k > 0 && memcmp(seq + k * NS, seq, sizeof first) != 0) differ = 1;
    }
    ok(perms, "order shuffle: every epoch visits each component once");
    ok(differ, "order shuffle: a fresh permutation each epoch");
    ol_run_free(r);
    ol_problem_free(p);

    p = finite_sum(OL_ORDER_ONCE, 1);
    r = start(p, SEED, &e);
    for (k = 0; k < 5 * NS; k++) seq[k] = drawn();
    memcpy(first, seq, sizeof first);
    for (k = 0, perms = 1, same = 1; k < 5; k++) {
      if (!is_perm(seq + k * NS, NS)) perms = 0;
      if (memcmp(seq + k * NS, first, sizeof first) != 0) same = 0;
    }
    for (k = 0, cyc = 1; k < NS; k++)
      if (first[k] != k) cyc = 0;
    ok(perms && same, "order once: the same permutation every epoch");
    ok(!cyc, "order once: the permutation is shuffled (seed fixed)");
    ol_run_free(r);
    ol_problem_free(p);

    p = finite_sum(OL_ORDER_CYCLIC, 1);
    r = start(p, SEED, &e);
    for (k = 0, cyc = 1; k < 3 * NS; k++)
      if (drawn() != k % NS) cyc = 0;
    ok(cyc, "order cyclic: 0, 1, ..., N-1, 0, ...");
    ol_run_free(r);
    ol_problem_free(p);

    /* with replacement: counts of M draws ~ Binomial(M, 1/N); chi-square
    ** with N - 1 = 6 dof stays below 27.86 (its 0.99997 quantile) */
    p = finite_sum(OL_ORDER_REPLACE, 1);
    r = start(p, SEED, &e);
    {
      long cnt[NS] = {0}, M = 70000;
      double chi = 0, ex = (double)M / NS, worst = 0;
      for (k = 0; k < M; k++) {
        long d = drawn();
        if (d >= 0 && d < NS) cnt[d]++;
      }
      for (i = 0; i < NS; i++) {
        chi += (cnt[i] - ex) * (cnt[i] - ex) / ex;
        worst = fmax(worst, fabs(cnt[i] - ex) /
                     sqrt(M * (1.0 / NS) * (1 - 1.0 / NS)));
      }
      diag("replace: chi-square %.2f (6 dof), worst count %.2f SE", chi,
           worst);
      ok(worst < 4 && chi < 27.86, "order replace: uniform frequencies "
         "(each within 4 SE, chi-square below its 0.99997 quantile)");
    }
    ol_run_free(r);
    ol_problem_free(p);
  }

  /* == minibatch value and gradient ====================================== */
  p = finite_sum(OL_ORDER_CYCLIC, 3);
  r = start(p, SEED, &e);
  {
    double x[3] = {0.3, -1, 2}, g[3], f, a[3], want[3], wf;
    long base;
    int okg = 1, okf = 1, rc = OL_OK;
    for (base = 0; base < 9; base += 3) {
      /* components base, base + 1, base + 2 (mod 7), computed here */
      wf = 0;
      for (j = 0; j < 3; j++) want[j] = 0;
      for (k = base; k < base + 3; k++) {
        acomp(k % NS, a);
        for (j = 0; j < 3; j++) {
          want[j] += (x[j] - a[j]) / 3;
          wf += 0.5 * (x[j] - a[j]) * (x[j] - a[j]) / 3;
        }
      }
      rc |= ol_ctx_grad(cap, x, &f, g, &e);
      for (j = 0; j < 3; j++)
        if (fabs(g[j] - want[j]) > 1e-15 * (1 + fabs(want[j]))) okg = 0;
      if (fabs(f - wf) > 1e-14 * (1 + wf)) okf = 0;
    }
    ok(rc == OL_OK && okg, "minibatch: the gradient is the mean of the "
       "batch's component gradients (cyclic, wrapping the epoch)");
    ok(okf, "minibatch: the value is the mean of the batch's components");
  }
  ol_run_free(r);
  ol_problem_free(p);

  /* batch = N with reshuffling: every component once, so the exact mean */
  p = finite_sum(OL_ORDER_SHUFFLE, NS);
  r = start(p, SEED, &e);
  {
    double x[3] = {1, 2, 3}, g[3], gt[3], f, ft;
    int same = 1;
    fs_fdf(NULL, x, &ft, gt, &e);
    for (k = 0; k < 4; k++) {
      ol_ctx_grad(cap, x, &f, g, &e);
      for (j = 0; j < 3; j++)
        if (fabs(g[j] - gt[j]) > 1e-14 * (1 + fabs(gt[j]))) same = 0;
      if (fabs(f - ft) > 1e-13 * (1 + ft)) same = 0;
    }
    ok(same, "minibatch: batch = N under shuffle is the full gradient");
  }
  ol_run_free(r);
  ol_problem_free(p);

  /* the run's metrics stay the full, true oracle under minibatches */
  p = finite_sum(OL_ORDER_REPLACE, 1);
  {
    ol_run_opts o;
    double gt[3], ft;
    ol_run_opts_default(&o);
    o.seed = SEED;
    o.iters = 25;
    o.metrics = OL_MSET_OF(OL_MET_LOSS, OL_MET_GRADNORM);
    r = ol_run_new(p, &sgd, NULL, &o, &e);
    ol_run_advance(r, 25);
    fs_fdf(NULL, ol_run_x(r), &ft, gt, &e);
    is_close(ol_run_last(r, OL_MET_GRADNORM),
             sqrt(gt[0] * gt[0] + gt[1] * gt[1] + gt[2] * gt[2]), 1e-14,
             "minibatch: the gradnorm metric is the full true gradient");
    is_close(ol_run_last(r, OL_MET_LOSS), ft, 1e-14,
             "minibatch: the loss metric is the full true value");
    ol_run_free(r);
  }
  ol_problem_free(p);

  /* == ol_ctx_gradi ====================================================== */
  p = finite_sum(OL_ORDER_REPLACE, 2);
  r = start(p, SEED, &e);
  {
    double x[3] = {0.5, 0.5, 0.5}, g[3], f, a[3];
    long g0 = cap->ngev;
    acomp(4, a);
    ok(ol_ctx_gradi(cap, 4, x, &f, g, &e) == OL_OK && g[0] == 0.5 - a[0] &&
       g[1] == 0.5 - a[1] && g[2] == 0.5 - a[2] &&
       fabs(f - 0.5 * ((0.5 - a[0]) * (0.5 - a[0]) + (0.5 - a[1]) *
                       (0.5 - a[1]) + (0.5 - a[2]) * (0.5 - a[2]))) < 1e-14,
       "gradi: component 4's value and gradient");
    is_int(cap->ngev - g0, 1, "gradi: counts one gradient evaluation");
    ok(ol_ctx_gradi(cap, 7, x, NULL, g, &e) == OL_EINVAL &&
       strstr(e.msg, "[0, 6]"), "gradi: an index out of range is EINVAL");
    x[0] = 99;
    ok(ol_ctx_gradi(cap, 5, x, &f, g, &e) == OL_EDOM,
       "gradi: a non-finite component value is EDOM");
  }
  ol_run_free(r);
  ol_problem_free(p);
  p = ol_problem_custom(1, zero, 0, &n1, NULL, &e);
  r = start(p, SEED, &e);
  {
    double x = 0, g;
    ok(ol_ctx_gradi(cap, 0, &x, NULL, &g, &e) == OL_EINVAL &&
       strstr(e.msg, "finite sum"),
       "gradi: a problem without components is EINVAL");
  }
  ol_run_free(r);
  ol_problem_free(p);
  return done();
}
