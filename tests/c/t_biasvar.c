/*
** tests/c/t_biasvar.c -- the bias and variance metrics: the split of the
** noisy quadratic model, E f(x_t) - f* = f(E x_t) - f* + 1/2 E (x_t -
** E x_t)' H (x_t - E x_t), with E x_t taken by a noise-free shadow run.
**
** On quadratic{n = 10, cond = 10, rotate = 0} (H = diag(lambda), lambda_i
** = 10^(-i/9), x* = 0, x0 = ones) with gaussian gradient noise sigma:
** (1) bias at every recorded step equals 1/2 sum lambda_i xbar_i^2 with
**     xbar written out here: (1 - eta lambda_i)^t for gd, the heavy-ball
**     recursion for momentum (relative 1e-12);
** (2) variance, averaged over R streams at t = 200 (stationary: the
**     slowest mode contracts by 0.95 a step), is within 4 standard errors
**     of the AR(1) closed form sum_i 1/2 lambda_i eta^2 sigma^2 / (1 -
**     (1 - eta lambda_i)^2) for gd, and subopt's stream mean within 4
**     standard errors of bias + mean variance at t = 5 and t = 200;
** (3) without noise variance is 0 and bias equals subopt, exactly;
** (4) extending a run extends its shadow (bias still on the closed form);
** (5) the metrics are refused, with the reason, on a non-quadratic, a
**     constrained quadratic and for a sampler.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "olt.h"
#include "problem.h"
#include "run.h"
#include "tap.h"

#define N 10

static double lam (int i) { return pow(10, -(double)i / (N - 1)); }

/* quadratic{n = N, cond = 10, rotate = 0} with gaussian noise sigma (0:
** none). */
static ol_problem *noisy (double sigma)
{
  ol_problem *p = olt_quadratic(N, 10, 0);
  if (p != NULL && sigma > 0) {
    p->noise.kind = OL_NOISE_GAUSS;
    p->noise.sigma = sigma;
  }
  return p;
}

static ol_run *start (const ol_problem *p, const char *name, double lr,
                      long iters, long stream, ol_err *e)
{
  ol_run_opts o = olt_opts(iters, 0, OL_MSET_OF(OL_MET_LOSS, OL_MET_SUBOPT,
                                                OL_MET_BIAS, OL_MET_VARIANCE));
  const ol_method_type *m = ol_method_find(name);
  double par[8];
  olt_params(m, par, "lr", lr, (char *)NULL);
  if (strcmp(name, "momentum") == 0)
    par[ol_param_find(m->params, m->nparams, "mu")] = 0.5;
  o.seed = 20261129;
  o.stream = (uint64_t)stream;
  return ol_run_new(p, m, par, &o, e);
}

/* (1) bias against the deterministic recursion written out here */
static void test_bias_closed_form (void)
{
  static const char *const names[] = {"gd", "momentum"};
  const double eta = 0.5, mu = 0.5;
  int k;
  for (k = 0; k < 2; k++) {
    ol_problem *p = noisy(0.1);
    ol_err e;
    ol_run *r = p != NULL ? start(p, names[k], eta, 200, 0, &e) : NULL;
    double x[N], xprev[N], worst = 0;
    const double *b;
    const long *ts;
    int i, j, len;
    long t = 0;
    if (r == NULL) {
      ok(0, "%s run with bias: %s", names[k], p ? e.msg : "no problem");
      ol_problem_free(p);
      continue;
    }
    ol_run_advance(r, 200);
    b = ol_run_series(r, OL_MET_BIAS);
    ts = ol_run_times(r);
    len = ol_run_len(r);
    for (i = 0; i < N; i++) x[i] = xprev[i] = 1;
    for (j = 0; j < len; j++) {
      double want = 0;
      for (; t < ts[j]; t++)       /* advance the recursion to ts[j] */
        for (i = 0; i < N; i++) {
          double xn = x[i] - eta * lam(i) * x[i]
            + (k == 1 ? mu * (x[i] - xprev[i]) : 0);
          xprev[i] = x[i];
          x[i] = xn;
        }
      for (i = 0; i < N; i++) want += 0.5 * lam(i) * x[i] * x[i];
      worst = fmax(worst, fabs(b[j] - want) / want);
    }
    ok(len == 201 && worst <= 1e-12, "%s: bias at each of %d records = "
       "f(xbar_t) of the noise-free recursion (max rel err %.2g <= 1e-12)",
       names[k], len, worst);
    ol_run_free(r);
    ol_problem_free(p);
  }
}

/* (2) stationary variance against the AR(1) closed form; E subopt = bias
** + E variance */
static void test_variance_stationary (void)
{
  const int R = 400;
  const double eta = 0.5, sigma = 0.1;
  ol_problem *p = noisy(sigma);
  double sv = 0, svv = 0, sd = 0, sdd = 0, theory = 0, mv, se, md, sed;
  double s5 = 0, s55 = 0, b5 = 0, m5, se5;
  int s, i, nok = 0;
  if (p == NULL) {
    ok(0, "problem");
    return;
  }
  diag("seed 20261129, streams 0..%d", R - 1);
  for (s = 0; s < R; s++) {
    ol_err e;
    ol_run *r = start(p, "gd", eta, 200, s, &e);
    double v, d;
    if (r == NULL) break;
    ol_run_advance(r, 200);
    /* t = 5 (record 5: every step is recorded): the bias is still large */
    d = ol_run_series(r, OL_MET_SUBOPT)[5] - ol_run_series(r, OL_MET_BIAS)[5]
      - ol_run_series(r, OL_MET_VARIANCE)[5];
    s5 += d;
    s55 += d * d;
    b5 = ol_run_series(r, OL_MET_BIAS)[5];
    v = ol_run_last(r, OL_MET_VARIANCE);
    d = ol_run_last(r, OL_MET_SUBOPT) - ol_run_last(r, OL_MET_BIAS) - v;
    sv += v;
    svv += v * v;
    sd += d;
    sdd += d * d;
    nok += ol_run_iter(r) == 200;
    ol_run_free(r);
  }
  for (i = 0; i < N; i++) {
    double a = 1 - eta * lam(i);
    theory += 0.5 * lam(i) * eta * eta * sigma * sigma / (1 - a * a);
  }
  mv = sv / R;
  se = sqrt((svv / R - mv * mv) / (R - 1));
  md = sd / R;
  sed = sqrt((sdd / R - md * md) / (R - 1));
  is_int(nok, R, "gd: %d noisy runs of 200 steps", R);
  ok(fabs(mv - theory) <= 4 * se, "gd: mean variance at t = 200 %.5g is "
     "within 4 se (%.2g) of the AR(1) closed form %.5g", mv, se, theory);
  ok(fabs(md) <= 4 * sed, "gd: at t = 200 the mean of subopt - bias - "
     "variance %.2g is within 4 se (%.2g) of 0", md, sed);
  m5 = s5 / R;
  se5 = sqrt((s55 / R - m5 * m5) / (R - 1));
  ok(fabs(m5) <= 4 * se5, "gd: at t = 5 (bias %.3g) the mean of subopt - "
     "bias - variance %.2g is within 4 se (%.2g) of 0: the cross term "
     "averages out", b5, m5, se5);
  ol_problem_free(p);
}

/* (3) without noise the shadow is the run itself */
static void test_noise_free (void)
{
  ol_problem *p = noisy(0);
  ol_err e;
  ol_run *r = p != NULL ? start(p, "momentum", 0.5, 100, 0, &e) : NULL;
  const double *b, *v, *s;
  int j, same = 1;
  if (r == NULL) {
    ok(0, "noise-free run");
    ol_problem_free(p);
    return;
  }
  ol_run_advance(r, 100);
  b = ol_run_series(r, OL_MET_BIAS);
  v = ol_run_series(r, OL_MET_VARIANCE);
  s = ol_run_series(r, OL_MET_SUBOPT);
  for (j = 0; j < ol_run_len(r); j++) same &= v[j] == 0 && b[j] == s[j];
  ok(same, "noise-free: variance = 0 and bias = subopt at all %d records",
     ol_run_len(r));
  ol_run_free(r);
  ol_problem_free(p);
}

/* (4) ol_run_extend continues the shadow */
static void test_extend (void)
{
  ol_problem *p = noisy(0.1);
  ol_err e;
  ol_run *r = p != NULL ? start(p, "gd", 0.5, 50, 0, &e) : NULL;
  double want = 0;
  int i;
  if (r == NULL) {
    ok(0, "run to extend");
    ol_problem_free(p);
    return;
  }
  ol_run_advance(r, 50);
  ok(ol_run_extend(r, 80, &e) == OL_OK, "extend to 80 steps");
  ol_run_advance(r, 30);
  for (i = 0; i < N; i++)
    want += 0.5 * lam(i) * pow(1 - 0.5 * lam(i), 160);
  is_int(ol_run_iter(r), 80, "the run went on to 80 steps");
  is_close(ol_run_last(r, OL_MET_BIAS), want, 1e-10,
           "bias after the extension follows the shadow to t = 80 (%.6g)",
           want);
  ol_run_free(r);
  ol_problem_free(p);
}

/* (5) where the metrics are refused */
static void test_unavailable (void)
{
  ol_run_opts o = olt_opts(10, 0, OL_MSET_OF(OL_MET_BIAS));
  ol_problem *rb = olt_problem("rosenbrock", NULL, (char *)NULL);
  ol_problem *q = noisy(0.1), *g2 = olt_problem("gauss2d", NULL, (char *)NULL);
  double par[8];
  ol_err e;
  ol_run *r;
  olt_params(ol_method_find("gd"), par, (char *)NULL);
  r = ol_run_new(rb, ol_method_find("gd"), par, &o, &e);
  ok(r == NULL && strstr(e.msg, "bias needs an unconstrained quadratic")
     != NULL && strstr(e.msg, "rosenbrock") != NULL,
     "bias on rosenbrock is refused: \"%s\"", r ? "" : e.msg);
  ol_run_free(r);
  if (q != NULL) {
    double lo[N], hi[N];
    int i;
    for (i = 0; i < N; i++) {
      lo[i] = -1;
      hi[i] = 1;
    }
    q->set.kind = OL_SET_BOX;
    q->set.lo = lo;
    q->set.hi = hi;
    o.metrics = OL_MSET_OF(OL_MET_VARIANCE);
    r = ol_run_new(q, ol_method_find("gd"), par, &o, &e);
    ok(r == NULL && strstr(e.msg, "variance needs an unconstrained") != NULL
       && strstr(e.msg, "has a constraint set") != NULL,
       "variance on a box-constrained quadratic is refused: \"%s\"",
       r ? "" : e.msg);
    ol_run_free(r);
    q->set.kind = OL_SET_NONE;
    q->set.lo = q->set.hi = NULL;
  }
  olt_params(ol_method_find("mala"), par, (char *)NULL);
  o.metrics = OL_MSET_OF(OL_MET_BIAS);
  r = ol_run_new(g2, ol_method_find("mala"), par, &o, &e);
  ok(r == NULL && strstr(e.msg, "bias") != NULL,
     "bias for a sampler is refused: \"%s\"", r ? "" : e.msg);
  ol_run_free(r);
  ol_problem_free(rb);
  ol_problem_free(q);
  ol_problem_free(g2);
}

int main (void)
{
  test_bias_closed_form();
  test_variance_stationary();
  test_noise_free();
  test_extend();
  test_unavailable();
  return done();
}
