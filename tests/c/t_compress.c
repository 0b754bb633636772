/*
** tests/c/t_compress.c -- the compressors (core/dist/compress.c) and the
** compressed distributed methods dist.ef14 and dist.ef21.
**
** Truth, computed here from the published definitions, not from the
** compressor's code: top-k, sign and scaled sign by hand on a small v;
** the bits of one message by hand from compress.h's counts; for the
** random compressors the closed-form mean and per-coordinate variance
**   rand-k (scaled)  E = v_i,  Var = (n/k - 1) v_i^2
**   QSGD             E = v_i,  Var = (||v|| / s)^2 p_i (1 - p_i),
**                    p_i = s |v_i| / ||v|| - floor(s |v_i| / ||v||)
**   TernGrad         E = u_i,  Var = S |u_i| - u_i^2, S = max |u_j|
**                    (u = v, or v clipped at c sd by the test)
** each within 4 standard errors over seeded draws (the mean's standard
** error from the closed variance, the variance's from the draws' fourth
** central moment; a coordinate of variance 0 must repeat its mean to
** rounding), and the mean of ||C(v) - v||^2 against its sum.  The
** methods: without compression and with every worker each round both are
** gradient descent (relative 1e-12, iterate by iterate); bits and rounds
** against hand counts, also under partial participation; on fedquad's
** heterogeneous clients (d = 20, 10 clients) top-1 without feedback
** stalls, EF14 gets far closer and EF21 reaches f* (stated bounds).
*/
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dist/compress.h"
#include "olt.h"
#include "tap.h"

#define SEED 7
#define DRAWS 40000

static const double V[6] = {3, -1, 2, 0.5, -2, 0};

static void mk (ol_compress *cp, int kind, int k, int s, double clip, int n)
{
  double par[4];
  ol_err e;
  par[0] = kind;
  par[1] = k;
  par[2] = s;
  par[3] = clip;
  memset(cp, 0, sizeof *cp);
  if (ol_compress_init(cp, par, n, "t_compress", &e) != OL_OK)
    diag("compress init: %s", e.msg);
}

static int same (const double *a, const double *b, int n)
{
  int i;
  for (i = 0; i < n; i++)
    if (a[i] != b[i]) return 0;
  return 1;
}

static void test_deterministic (void)
{
  static const double top2[6] = {3, 0, 2, 0, 0, 0};
  static const double top3[6] = {3, 0, 2, 0, -2, 0};
  static const double sgn[6] = {1, -1, 1, 1, -1, 1};
  double out[6], ss[6], err;
  ol_compress cp;
  int i;
  mk(&cp, OL_CMP_TOPK, 2, 1, INFINITY, 6);
  err = ol_compress_apply(&cp, V, out, NULL);
  ok(same(out, top2, 6), "topk: k = 2 keeps 3 and 2 (the tie |2| = |-2| "
     "to the lower index)");
  is_near(err, 1 + 0.25 + 4, 1e-15, "topk: ||C(v) - v||^2 = 5.25");
  ol_compress_fini(&cp);
  mk(&cp, OL_CMP_TOPK, 3, 1, INFINITY, 6);
  ol_compress_apply(&cp, V, out, NULL);
  ok(same(out, top3, 6), "topk: k = 3 keeps 3, 2, -2");
  ol_compress_fini(&cp);
  mk(&cp, OL_CMP_TOPK, 10, 1, INFINITY, 6);
  ol_compress_apply(&cp, V, out, NULL);
  ok(same(out, V, 6) && cp.k == 6, "topk: k = 10 > n keeps all 6");
  ol_compress_fini(&cp);
  mk(&cp, OL_CMP_SIGN, 1, 1, INFINITY, 6);
  ol_compress_apply(&cp, V, out, NULL);
  ok(same(out, sgn, 6), "sign: +-1, sign(0) = +1");
  ol_compress_fini(&cp);
  mk(&cp, OL_CMP_SSIGN, 1, 1, INFINITY, 6);
  ol_compress_apply(&cp, V, out, NULL);
  for (i = 0; i < 6; i++) ss[i] = sgn[i] * 8.5 / 6;
  ok(olt_agree(out, ss, 6, 1e-15), "ssign: (||v||_1 / n) sign(v), "
     "||v||_1 = 8.5");
  ol_compress_fini(&cp);
  mk(&cp, OL_CMP_NONE, 1, 1, INFINITY, 6);
  err = ol_compress_apply(&cp, V, out, NULL);
  ok(same(out, V, 6) && err == 0, "none: C(v) = v, no error");
  ol_compress_fini(&cp);
}

static void test_bits (void)
{
  is_near(ol_compress_bits(OL_CMP_NONE, 1, 1, 20), 640, 0,
          "bits: none, n = 20: 32 n = 640");
  is_near(ol_compress_bits(OL_CMP_TOPK, 2, 1, 20), 74, 0,
          "bits: topk k = 2, n = 20: 2 (32 + 5) = 74");
  is_near(ol_compress_bits(OL_CMP_TOPK, 1, 1, 16), 36, 0,
          "bits: topk k = 1, n = 16: 32 + 4 = 36");
  is_near(ol_compress_bits(OL_CMP_RANDK, 3, 1, 17), 3 * (32 + 5), 0,
          "bits: randk k = 3, n = 17: 3 (32 + 5) = 111");
  is_near(ol_compress_bits(OL_CMP_TOPK, 1, 1, 1), 32, 0,
          "bits: topk, n = 1: one float, no index");
  is_near(ol_compress_bits(OL_CMP_SIGN, 1, 1, 20), 20, 0,
          "bits: sign, n = 20: 20");
  is_near(ol_compress_bits(OL_CMP_SSIGN, 1, 1, 20), 52, 0,
          "bits: ssign, n = 20: 20 + 32 = 52");
  is_near(ol_compress_bits(OL_CMP_QSGD, 1, 3, 20), 32 + 20 * 3, 0,
          "bits: qsgd s = 3, n = 20: 32 + 20 (1 + 2) = 92");
  is_near(ol_compress_bits(OL_CMP_QSGD, 1, 4, 20), 32 + 20 * 4, 0,
          "bits: qsgd s = 4, n = 20: 32 + 20 (1 + 3) = 112");
  is_near(ol_compress_bits(OL_CMP_TERNGRAD, 1, 1, 20), 72, 0,
          "bits: terngrad, n = 20: 2 n + 32 = 72");
}

/* Draws of C(v): per-coordinate means and variances against mean[] and
** var[] within 4 standard errors, and the mean of the returned ||C(v) -
** v||^2 against err. */
static void check_draws (const char *what, ol_compress *cp, const double *v,
                         const double *mean, const double *var, double err)
{
  int n = cp->n, i, j, okm = 1, okv = 1;
  double s1[8] = {0}, s2[8] = {0}, s4[8] = {0}, out[8], e1 = 0, e2 = 0;
  double worstm = 0, worstv = 0, se;
  double *all = malloc(sizeof *all * (size_t)DRAWS * (size_t)n);
  ol_rng r;
  ol_rng_seed(&r, SEED, 0);
  for (j = 0; j < DRAWS; j++) {
    double x = ol_compress_apply(cp, v, out, &r);
    e1 += x;
    e2 += x * x;
    for (i = 0; i < n; i++) {
      all[(size_t)j * n + i] = out[i];
      s1[i] += out[i];
    }
  }
  for (i = 0; i < n; i++) {
    double m = s1[i] / DRAWS;
    for (j = 0; j < DRAWS; j++) {
      double d = all[(size_t)j * n + i] - m;
      s2[i] += d * d;
      s4[i] += d * d * d * d;
    }
    s2[i] /= DRAWS - 1;
    s4[i] /= DRAWS;
    /* (1) the mean, standard error sqrt(var / M) */
    se = sqrt(var[i] / DRAWS);
    if (var[i] <= 1e-14 ? fabs(m - mean[i]) > 1e-12 * (1 + fabs(mean[i]))
                        : fabs(m - mean[i]) > 4 * se) okm = 0;
    if (var[i] > 1e-14) worstm = fmax(worstm, fabs(m - mean[i]) / se);
    /* (2) the variance, standard error sqrt((m4 - var^2) / M) */
    se = sqrt(fmax(s4[i] - s2[i] * s2[i], 0) / DRAWS);
    if (var[i] <= 1e-14 ? s2[i] > 1e-20 : fabs(s2[i] - var[i]) > 4 * se)
      okv = 0;
    if (var[i] > 1e-14) worstv = fmax(worstv, fabs(s2[i] - var[i]) / se);
  }
  free(all);
  ok(okm, "%s: each coordinate's mean within 4 se of its closed form "
     "(worst %.2f se; %d draws, seed %d)", what, worstm, DRAWS, SEED);
  ok(okv, "%s: each coordinate's variance within 4 se of its closed form "
     "(worst %.2f se)", what, worstv);
  e1 /= DRAWS;
  se = sqrt(fmax(e2 / DRAWS - e1 * e1, 0) / DRAWS);
  ok(fabs(e1 - err) <= 4 * se + 1e-12, "%s: mean ||C(v) - v||^2 %.5f vs "
     "closed form %.5f (se %.5f)", what, e1, err, se);
}

static void test_random (void)
{
  double mean[6], var[6], u[6], err, nrm = 0, S, mu = 0, sd = 0, bound;
  ol_compress cp;
  int i, s;
  const int n = 6, k = 2;
  /* (1) rand-k, scaled by n/k */
  for (i = 0, err = 0; i < n; i++) {
    mean[i] = V[i];
    var[i] = ((double)n / k - 1) * V[i] * V[i];
    err += var[i];
  }
  mk(&cp, OL_CMP_RANDK, k, 1, INFINITY, n);
  check_draws("randk k = 2", &cp, V, mean, var, err);
  ol_compress_fini(&cp);
  /* (2) QSGD at s = 1 and s = 3 */
  for (i = 0; i < n; i++) nrm += V[i] * V[i];
  nrm = sqrt(nrm);
  for (s = 1; s <= 3; s += 2) {
    for (i = 0, err = 0; i < n; i++) {
      double a = s * fabs(V[i]) / nrm, p = a - floor(a);
      mean[i] = V[i];
      var[i] = nrm * nrm / ((double)s * s) * p * (1 - p);
      err += var[i];
    }
    mk(&cp, OL_CMP_QSGD, 1, s, INFINITY, n);
    check_draws(s == 1 ? "qsgd s = 1" : "qsgd s = 3", &cp, V, mean, var, err);
    ol_compress_fini(&cp);
  }
  /* (3) TernGrad, no clipping: variance S ||g||_1 - ||g||^2 */
  for (i = 0, S = 0; i < n; i++) S = fmax(S, fabs(V[i]));
  for (i = 0, err = 0; i < n; i++) {
    mean[i] = V[i];
    var[i] = S * fabs(V[i]) - V[i] * V[i];
    err += var[i];
  }
  diag("terngrad: S ||g||_1 - ||g||^2 = 3 * 8.5 - 18.25 = %g", err);
  mk(&cp, OL_CMP_TERNGRAD, 1, 1, INFINITY, n);
  check_draws("terngrad", &cp, V, mean, var, err);
  ol_compress_fini(&cp);
  /* (4) TernGrad clipped at c sd, c = 1: unbiased for the clipped u */
  for (i = 0; i < n; i++) mu += V[i] / n;
  for (i = 0; i < n; i++) sd += (V[i] - mu) * (V[i] - mu) / n;
  bound = sqrt(sd);
  for (i = 0, S = 0; i < n; i++) {
    u[i] = V[i] > bound ? bound : V[i] < -bound ? -bound : V[i];
    S = fmax(S, fabs(u[i]));
  }
  for (i = 0, err = 0; i < n; i++) {
    mean[i] = u[i];
    var[i] = S * fabs(u[i]) - u[i] * u[i];
    err += var[i] + (u[i] - V[i]) * (u[i] - V[i]);
  }
  mk(&cp, OL_CMP_TERNGRAD, 1, 1, 1.0, n);
  check_draws("terngrad clip = 1", &cp, V, mean, var, err);
  ol_compress_fini(&cp);
}

/* ef14 / ef21 with compress = none on fedquad (every client each round):
** gradient descent's iterates. */
static void test_gd (const ol_problem *p)
{
  enum { KS = 20 };
  double X[KS * 20], G[KS * 20], par[16], gpar[8];
  const char *name[2] = {"ef14", "ef21"};
  ol_run_opts o = olt_opts(KS, 0, OL_MSET_OF(OL_MET_LOSS));
  const ol_method_type *gd = olt_method("gd", gpar, "lr", 0.3, (char *)NULL);
  int j, good;
  good = gd != NULL && olt_iterates(p, gd, gpar, &o, KS, G);
  for (j = 0; j < 2; j++) {
    const ol_method_type *m = olt_method(name[j], par, "lr", 0.3,
                                         "compress", (double)OL_CMP_NONE,
                                         (char *)NULL);
    ok(good && m != NULL && olt_iterates(p, m, par, &o, KS, X)
       && olt_agree(X, G, KS * p->n, 1e-12), "%s: compress = none, all "
       "workers: %d iterates = gd's (relative 1e-12)", name[j], KS);
  }
}

static double run_last (const ol_problem *p, const char *name, long T,
                        int metric, ...)
{
  double par[16], v = NAN;
  va_list ap;
  ol_run *r;
  ol_run_opts o = olt_opts(T, 0, OL_MSET_OF(OL_MET_LOSS, OL_MET_SUBOPT));
  const ol_method_type *m = olt_method(name, par, (char *)NULL);
  const char *key;
  if (m == NULL) return NAN;
  ol_mset_add(&o.metrics, metric);
  o.seed = SEED;
  va_start(ap, metric);
  while ((key = va_arg(ap, const char *)) != NULL) {
    int k = ol_param_find(m->params, m->nparams, key);
    double x = va_arg(ap, double);
    if (k < 0) diag("no parameter %s", key);
    else par[k] = x;
  }
  va_end(ap);
  r = olt_go(p, m, par, &o);
  if (r != NULL) v = ol_run_last(r, metric);
  ol_run_free(r);
  return v;
}

static void test_accounts (const ol_problem *p, const ol_problem *half)
{
  double b;
  /* fedquad d = 20, 10 clients; top-2 messages: 2 (32 + 5) = 74 bits */
  b = run_last(p, "ef14", 30, OL_MET_BITS, "compress", (double)OL_CMP_TOPK,
               "k", 2.0, (char *)NULL);
  is_near(b, 30 * 10 * 74, 0, "ef14: bits after 30 rounds = 30 x 10 "
          "workers x 74 = 22200");
  b = run_last(p, "ef21", 30, OL_MET_BITS, "compress", (double)OL_CMP_QSGD,
               "s", 4.0, (char *)NULL);
  is_near(b, 30 * 10 * (32 + 20 * 4), 0, "ef21: qsgd s = 4 bits after 30 "
          "rounds = 30 x 10 x 112 = 33600");
  b = run_last(half, "ef21", 30, OL_MET_BITS, "compress",
               (double)OL_CMP_TERNGRAD, (char *)NULL);
  is_near(b, 30 * 5 * 72, 0, "ef21: participation 0.5 of 10: bits = 30 x "
          "5 x 72 = 10800");
  b = run_last(half, "ef14", 17, OL_MET_ROUNDS, (char *)NULL);
  is_near(b, 17, 0, "ef14: rounds = 17 after 17 steps");
  b = run_last(p, "ef14", 5, OL_MET_COMPRESS_ERR, "compress",
               (double)OL_CMP_NONE, (char *)NULL);
  is_near(b, 0, 0, "ef14: compress_err 0 without compression");
  b = run_last(p, "ef14", 5, OL_MET_COMPRESS_ERR, (char *)NULL);
  ok(b > 0 && b < 1, "ef14: top-1's compress_err %.3f in (0, 1) (a "
     "contraction)", b);
}

static void test_claim (const ol_problem *p)
{
  double naive = run_last(p, "ef14", 4000, OL_MET_SUBOPT, "lr", 0.05,
                          "feedback", 0.0, (char *)NULL);
  double ef14 = run_last(p, "ef14", 4000, OL_MET_SUBOPT, "lr", 0.05,
                         (char *)NULL);
  double ef21 = run_last(p, "ef21", 2000, OL_MET_SUBOPT, "lr", 0.5,
                         (char *)NULL);
  ok(naive > 0.5, "ef14 feedback = false: top-1 stalls, f - f* = %.3g > "
     "0.5 after 4000 rounds", naive);
  ok(ef14 < naive / 20, "ef14: top-1 with feedback, f - f* = %.3g < "
     "naive's / 20", ef14);
  ok(ef21 < 1e-10, "ef21: top-1 reaches f* (f - f* = %.3g < 1e-10 after "
     "2000 rounds)", ef21);
}

int main (void)
{
  ol_problem *p = olt_problem("fedquad", NULL, "n", 20.0, "workers", 10.0,
                              "per", 5.0, (char *)NULL);
  ol_problem *half = olt_problem("fedquad", NULL, "n", 20.0, "workers",
                                 10.0, "per", 5.0, "participation", 0.5,
                                 (char *)NULL);
  diag("seed %d", SEED);
  test_deterministic();
  test_bits();
  test_random();
  if (p != NULL && half != NULL) {
    test_gd(p);
    test_accounts(p, half);
    test_claim(p);
  }
  ol_problem_free(p);
  ol_problem_free(half);
  return done();
}
