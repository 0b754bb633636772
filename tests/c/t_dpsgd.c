/*
** tests/c/t_dpsgd.c -- DP-SGD (core/optim/dpsgd.c) and its RDP accountant
** (core/optim/rdp.c).
**
** (1) RDP of the Poisson-sampled Gaussian mechanism against published
**     accountant values: Google's dp_accounting test suite
**     (python/dp_accounting/dp_accounting/rdp/rdp_privacy_accountant_test.py,
**     test_compute_rdp_poisson_sampled_gaussian) gives, for q = 0.01,
**     sigma = 2.5 and 50 steps, RDP 2.18075656e-03, 2.38460375e-02 and
**     1.67416308e+02 at the orders 5, 50 and 100; matched to the digits
**     given (relative 1e-8; their own check is rtol 1e-4).
** (2) The (epsilon, delta) conversion against the same suite
**     (test_compute_epsilon_delta_pure_dp): RDP 1.1 at every order 2..32,
**     delta = 1e-5, gives epsilon = 1.32783806176 at order 32 (the
**     conversion of Balle et al. 2020 / Canonne, Kamath & Steinke 2020).
** (3) Independent truth: A_alpha = E_{z ~ N(0, sigma^2)} [((1 - q) + q
**     exp((2z - 1) / (2 sigma^2)))^alpha], the Renyi moment of the mixture
**     (1 - q) N(0, sigma^2) + q N(1, sigma^2) against N(0, sigma^2), by
**     composite Simpson quadrature in log space, against the closed form
**     (relative 1e-9), and the full-batch case rdp = alpha / (2 sigma^2).
** (4) A run's metric epsilon after T steps is the accountant's value at
**     T (and 0 before the first step).
** (5) With sigma = 0, clip = inf and batch = N (Poisson at q = 1 and
**     shuffle) dpsgd's iterates are gd's step for step (relative 1e-12 on
**     linreg: the two sum the same gradients in different orders);
**     epsilon is then inf.
** (6) Clipping: with C = 0.01 and sigma = 0 on linreg (most component
**     gradients at x0 = 0 are longer than C) the first full-batch step is
**     x0 - lr/N sum_i min(1, C/||g_i||) g_i computed here from the
**     component oracle, and every shuffled step moves by at most lr C.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "olt.h"
#include "problem.h"
#include "optim/rdp.h"
#include "run.h"
#include "tap.h"
#include "vec.h"

#define SEED 20261203u

static void test_published (void)
{
  static const int ord[3] = {5, 50, 100};
  static const double want[3] = {2.18075656e-03, 2.38460375e-02,
                                 1.67416308e+02};
  double rdp[OL_RDP_NORD], eps;
  int j, order = 0;
  for (j = 0; j < 3; j++)
    is_close(50 * ol_rdp_sgm(0.01, 2.5, ord[j]), want[j], 1e-8,
             "rdp: q = 0.01, sigma = 2.5, 50 steps, order %d = %.8e "
             "(dp_accounting)", ord[j], want[j]);
  for (j = 0; j < OL_RDP_NORD; j++)
    rdp[j] = OL_RDP_AMIN + j <= 32 ? 1.1 : INFINITY;
  eps = ol_rdp_epsilon(rdp, 1, 1e-5, &order);
  is_close(eps, 1.32783806176, 1e-11, "rdp: constant RDP 1.1 at orders "
           "2..32, delta = 1e-5: epsilon = 1.32783806176 (dp_accounting)");
  is_int(order, 32, "rdp: the optimal order is 32");
}

/* log A_alpha by Simpson's rule (see (3)) on [-40 sigma, alpha + 40
** sigma].  When A_alpha is near 1 the integrand is taken as phi (r^alpha
** - 1), r^alpha - 1 = expm1(alpha log1p(q (exp(.) - 1))), so that log
** A = log1p(integral) keeps its relative accuracy; else in log space. */
static double log_a_quad (double q, double s, int alpha)
{
  int k, m = 400000, small;
  double lo = -40 * s, hi = alpha + 40 * s, h = (hi - lo) / m, mx = -INFINITY;
  double sum = 0, *lf = malloc((size_t)(m + 1) * sizeof *lf);
  double lnorm = -0.5 * log(2 * 3.14159265358979323846 * s * s);
  if (lf == NULL) return NAN;
  for (k = 0; k <= m; k++) {
    double z = lo + k * h;
    double lr = log1p(q * expm1((2 * z - 1) / (2 * s * s)));
    lf[k] = -z * z / (2 * s * s) + lnorm + alpha * lr;
    if (lf[k] > mx) mx = lf[k];
  }
  small = mx < 1;
  for (k = 0; k <= m; k++) {
    double z = lo + k * h, w = k == 0 || k == m ? 1 : k % 2 ? 4 : 2;
    if (small)
      sum += w * exp(-z * z / (2 * s * s) + lnorm) *
        expm1(alpha * log1p(q * expm1((2 * z - 1) / (2 * s * s))));
    else sum += w * exp(lf[k] - mx);
  }
  free(lf);
  return small ? log1p(sum * h / 3) : mx + log(sum * h / 3);
}

static void test_quadrature (void)
{
  static const struct { double q, s; int a; } cs[] = {
    {0.001, 1, 2}, {0.01, 2.5, 5}, {0.1, 1, 8}, {0.01, 10, 20},
    {0.5, 2, 30}, {0.05, 0.8, 12},
  };
  size_t i;
  for (i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    double la = log_a_quad(cs[i].q, cs[i].s, cs[i].a);
    double got = ol_rdp_sgm(cs[i].q, cs[i].s, cs[i].a) * (cs[i].a - 1);
    is_near(got, la, 1e-9 * fabs(la), "rdp: log A_%d closed form = "
            "quadrature, relative 1e-9 (q = %g, sigma = %g: %.12g vs %.12g)",
            cs[i].a, cs[i].q, cs[i].s, got, la);
  }
  is_close(ol_rdp_sgm(1, 1.5, 7), 7 / (2 * 1.5 * 1.5), 1e-12,
           "rdp: q = 1 is the Gaussian mechanism's alpha / (2 sigma^2)");
  is_near(ol_rdp_sgm(0, 1, 7), 0, 0, "rdp: q = 0 spends nothing");
  ok(isinf(ol_rdp_sgm(0.1, 0, 7)), "rdp: sigma = 0 is not private (inf)");
}

/* x_1..x_k of method name with overrides on p */
static int iterates (const ol_problem *p, const char *name, int k,
                     double *X, const char *k1, double v1, const char *k2,
                     double v2, const char *k3, double v3, const char *k4,
                     double v4)
{
  double par[16];
  const ol_method_type *m = olt_method(name, par, k1, v1, k2, v2, k3, v3,
                                       k4, v4, (char *)NULL);
  ol_run_opts o = olt_opts(k, 0, OL_MSET_OF(OL_MET_LOSS));
  o.seed = SEED;
  return m != NULL && olt_iterates(p, m, par, &o, k, X);
}

static void test_gd (const ol_problem *p)
{
  enum { KS = 20 };
  int n = p->n, s;
  double *G = malloc(sizeof(double) * KS * n), *D = malloc(sizeof(double)
                                                           * KS * n);
  if (G == NULL || D == NULL ||
      !iterates(p, "gd", KS, G, "lr", 0.5, NULL, 0, NULL, 0, NULL, 0)) {
    ok(0, "dpsgd: gd's iterates");
    goto out;
  }
  for (s = 0; s < 2; s++) {
    int good = iterates(p, "dpsgd", KS, D, "lr", 0.5, "sigma", 0.0, "clip",
                        INFINITY, "batch", (double)p->nsum) &&
      1;
    if (s == 1) {
      double par[16];
      const ol_method_type *m = olt_method("dpsgd", par, "lr", 0.5, "sigma",
                                           0.0, "clip", INFINITY, "batch",
                                           (double)p->nsum, "sampling", 1.0,
                                           (char *)NULL);
      ol_run_opts o = olt_opts(KS, 0, OL_MSET_OF(OL_MET_LOSS));
      o.seed = SEED;
      good = m != NULL && olt_iterates(p, m, par, &o, KS, D);
    }
    ok(good && olt_agree(D, G, KS * n, 1e-12), "dpsgd (%s, sigma = 0, "
       "clip = inf, batch = N): %d iterates = gd's (relative 1e-12)",
       s ? "shuffle" : "poisson", KS);
  }
  {
    double par[16];
    const ol_method_type *m = olt_method("dpsgd", par, "sigma", 0.0, "clip",
                                         INFINITY, (char *)NULL);
    ol_run_opts o = olt_opts(5, 0, OL_MSET_OF(OL_MET_LOSS, OL_MET_EPSILON));
    ol_run *r = m != NULL ? olt_go(p, m, par, &o) : NULL;
    ok(r != NULL && isinf(ol_run_last(r, OL_MET_EPSILON)),
       "dpsgd: sigma = 0 reports epsilon = inf");
    ol_run_free(r);
  }
out:
  free(G);
  free(D);
}

static void test_clip (const ol_problem *p)
{
  int n = p->n, i, j, k, good = 1;
  long clipped = 0;
  long N = p->nsum;
  double lr = 0.5, C = 0.01, *want = calloc((size_t)n, sizeof *want);
  double *gi = calloc((size_t)n, sizeof *gi);
  double *X = malloc(sizeof(double) * 50 * n), worst = 0;
  ol_err e;
  if (want == NULL || gi == NULL || X == NULL) {
    ok(0, "dpsgd: clip test memory");
    goto out;
  }
  /* x1 by hand from x0 = 0 (linreg's start) */
  for (i = 0; i < N; i++) {
    double nrm;
    if (p->fdfi(p->ud, i, p->x0, NULL, gi, &e) != OL_OK) good = 0;
    nrm = ol_vec_nrm2(gi, n);
    clipped += nrm > C;
    for (j = 0; j < n; j++) want[j] -= lr / N * fmin(1, C / nrm) * gi[j];
  }
  for (j = 0; j < n; j++) want[j] += p->x0[j];
  ok(good && clipped > N / 2, "dpsgd: %ld of the %ld component gradients "
     "at x0 are longer than C = %g (clipping is active)", clipped, N, C);
  ok(iterates(p, "dpsgd", 1, X, "lr", lr, "sigma", 0.0, "clip", C, "batch",
              (double)N) && olt_agree(X, want, n, 1e-12),
     "dpsgd (batch = N, sigma = 0): x1 = x0 - lr/N sum min(1, C/||g_i||) "
     "g_i (relative 1e-12)");
  /* shuffled batches of 10: each step moves by <= lr C */
  {
    double par[16];
    const ol_method_type *m = olt_method("dpsgd", par, "lr", lr, "sigma",
                                         0.0, "clip", C, "batch", 10.0,
                                         "sampling", 1.0, (char *)NULL);
    ol_run_opts o = olt_opts(50, 0, OL_MSET_OF(OL_MET_LOSS));
    o.seed = SEED;
    good = m != NULL && olt_iterates(p, m, par, &o, 50, X);
    for (k = 0; good && k < 50; k++) {
      double d = ol_vec_dist(X + k * n, k ? X + (k - 1) * n : p->x0, n);
      if (d > worst) worst = d;
    }
    ok(good && worst <= lr * C * (1 + 1e-12), "dpsgd (shuffle, batch 10, "
       "sigma = 0): every step moves by <= lr C = %g (largest %.6g)",
       lr * C, worst);
  }
out:
  free(want);
  free(gi);
  free(X);
}

static void test_run_epsilon (const ol_problem *p)
{
  double par[16], rdp[OL_RDP_NORD], eps;
  long T = 300;
  int order = 0;
  const ol_method_type *m = olt_method("dpsgd", par, "batch", 20.0, "sigma",
                                       1.3, "delta", 1e-6, (char *)NULL);
  ol_run_opts o = olt_opts(T, 0, OL_MSET_OF(OL_MET_LOSS, OL_MET_EPSILON));
  ol_run *r;
  o.seed = SEED;
  r = m != NULL ? olt_go(p, m, par, &o) : NULL;
  ol_rdp_orders(20.0 / (double)p->nsum, 1.3, rdp);
  eps = ol_rdp_epsilon(rdp, (double)T, 1e-6, &order);
  ok(r != NULL && is_close(ol_run_last(r, OL_MET_EPSILON), eps, 1e-14,
                           "dpsgd: the run's epsilon after %ld steps (q = "
                           "%g, sigma = 1.3, delta = 1e-6) is the "
                           "accountant's %.6g (order %d)", T,
                           20.0 / (double)p->nsum, eps, order),
     "dpsgd: epsilon is recorded");
  ok(r != NULL && ol_run_series(r, OL_MET_EPSILON)[0] == 0,
     "dpsgd: epsilon is 0 before the first step");
  ol_run_free(r);
  /* Abadi et al.'s example configuration, for the record */
  ol_rdp_orders(0.01, 4, rdp);
  eps = ol_rdp_epsilon(rdp, 10000, 1e-5, &order);
  diag("q = 0.01, sigma = 4, T = 10000, delta = 1e-5: epsilon %.4f "
       "(order %d)", eps, order);
}

int main (void)
{
  ol_problem *p = olt_problem("linreg", NULL, "n", 200.0, "d", 5.0,
                              (char *)NULL);
  diag("seed %u", SEED);
  test_published();
  test_quadrature();
  if (p != NULL) {
    test_gd(p);
    test_clip(p);
    test_run_epsilon(p);
  }
  ol_problem_free(p);
  return done();
}
