/*
** tests/c/t_fd.c -- the true oracle: finite differences, finiteness
** checks, and the lifetime of custom problems.
**
** Truth: analytic gradients of smooth test functions, compared with the
** central-difference gradient of the same function given as values only
** (error O(h^2) ~ eps^(2/3) relative); hand-computed game gaps.
*/
#include "problem.h"
#include "rng.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SEED 99u

/* f(x) = sum_i exp(0.1 i x_i) + (x_1 x_2)^2 + sin(x_n): analytic grad. */
static int smooth (void *ud, const double *x, double *f, double *g,
                   ol_err *e)
{
  int n = *(int *)ud, i;
  (void)e;
  if (f != NULL) {
    double s = 0;
    for (i = 0; i < n; i++) s += exp(0.1 * i * x[i]);
    *f = s + (x[0] * x[1]) * (x[0] * x[1]) + sin(x[n - 1]);
  }
  if (g != NULL) {
    for (i = 0; i < n; i++) g[i] = 0.1 * i * exp(0.1 * i * x[i]);
    g[0] += 2 * x[0] * x[1] * x[1];
    g[1] += 2 * x[1] * x[0] * x[0];
    g[n - 1] += cos(x[n - 1]);
  }
  return OL_OK;
}

/* Returns NaN gradient when x_1 > 0, Inf value when x_1 < -10. */
static int bad (void *ud, const double *x, double *f, double *g, ol_err *e)
{
  (void)ud;
  (void)e;
  if (f != NULL) *f = x[0] < -10 ? INFINITY : x[0];
  if (g != NULL) g[0] = x[0] > 0 ? NAN : 1;
  return OL_OK;
}

static int failing (void *ud, const double *x, double *f, double *g,
                    ol_err *e)
{
  (void)ud;
  (void)x;
  (void)f;
  (void)g;
  return ol_err_set(e, OL_ECALLBACK, "boom from the callback");
}

static int freed;
static void count_free (void *ud)
{
  (void)ud;
  freed++;
}

int main (void)
{
  int n = 5, i, t, worst = 0;
  double x[5], g[5], gfd[5], work[5], f, ffd, maxrel = 0;
  ol_problem *pa, *pf, *pb;
  ol_err e;
  ol_rng r;

  pa = ol_problem_custom(n, smooth, 0, &n, NULL, &e);
  pf = ol_problem_custom(n, smooth, 1, &n, count_free, &e);
  ok(pa != NULL && pf != NULL, "problem: custom problems are created");
  ok(pa->x0 != NULL && pa->x0[0] == 0 && pa->x0[4] == 0 &&
     isnan(pa->fstar) && pa->kind == OL_OBJECTIVE,
     "problem: custom defaults are x0 = 0, fstar = NaN, objective");

  diag("seed %u", (unsigned)SEED);
  ol_rng_seed(&r, SEED, 0);
  for (t = 0; t < 200; t++) {
    for (i = 0; i < n; i++) x[i] = 2 * ol_rng_normal(&r);
    ol_problem_eval(pa, x, &f, g, work, &e);
    ol_problem_eval(pf, x, &ffd, gfd, work, &e);
    for (i = 0; i < n; i++) {
      double rel = fabs(g[i] - gfd[i]) / (fabs(g[i]) > 1 ? fabs(g[i]) : 1);
      if (rel > maxrel) {
        maxrel = rel;
        worst = t;
      }
    }
  }
  ok(maxrel < 1e-8, "fd: central differences match the analytic gradient "
     "to 1e-8 relative (worst %.2e at draw %d)", maxrel, worst);
  is_near(ffd, f, 0, "fd: the value of a finite-difference problem is exact");
  x[0] = 1e6; x[1] = -1e-3; x[2] = 0; x[3] = 0; x[4] = 0;
  ol_problem_eval(pa, x, &f, g, work, &e);
  ol_problem_eval(pf, x, &f, gfd, work, &e);
  is_close(gfd[0], g[0], 1e-7,
           "fd: the step scales with |x_i| (x_1 = 1e6)");
  memcpy(gfd, x, sizeof x);
  ol_problem_eval(pf, x, NULL, g, work, &e);
  ok(memcmp(gfd, x, sizeof x) == 0, "fd: x is left unchanged");

  /* finiteness */
  pb = ol_problem_custom(1, bad, 0, NULL, NULL, &e);
  x[0] = 1;
  ok(ol_problem_eval(pb, x, &f, g, work, &e) == OL_EDOM &&
     strstr(e.msg, "non-finite gradient") != NULL,
     "problem: a NaN gradient is OL_EDOM \"non-finite gradient\"");
  ok(ol_problem_eval(pb, x, &f, NULL, work, &e) == OL_OK,
     "problem: a value-only request ignores the gradient");
  x[0] = -11;
  ok(ol_problem_eval(pb, x, &f, g, work, &e) == OL_EDOM &&
     strstr(e.msg, "non-finite value") != NULL,
     "problem: an infinite value is OL_EDOM \"non-finite value\"");
  ol_problem_free(pb);
  pb = ol_problem_custom(1, failing, 1, NULL, NULL, &e);
  x[0] = 0;
  ok(ol_problem_eval(pb, x, NULL, g, work, &e) == OL_ECALLBACK &&
     strcmp(e.msg, "boom from the callback") == 0,
     "problem: a callback error passes through finite differences intact");
  ol_problem_free(pb);

  /* lifetime */
  ol_problem_free(pa);
  ol_problem_free(pf);
  is_int(freed, 1, "problem: free calls free_ud exactly once");
  ol_problem_free(NULL);
  ok(ol_problem_custom(0, smooth, 0, NULL, count_free, &e) == NULL &&
     e.code == OL_EINVAL && strstr(e.msg, "n = 0") != NULL,
     "problem: custom with n = 0 is EINVAL naming n");
  is_int(freed, 1, "problem: a failed custom leaves ud to the caller");

  /* game gap: rock-paper-scissors, A(i, j) = payoff to the row player */
  {
    static const double A[9] = {0, -1, 1, 1, 0, -1, -1, 1, 0};
    double z[6] = {1, 0, 0, 1, 0, 0}, w[6];
    pb = ol_problem_custom(6, failing, 0, NULL, NULL, &e);
    pb->kind = OL_GAME;
    pb->rows = 3;
    pb->cols = 3;
    pb->payoff = malloc(sizeof A);
    memcpy(pb->payoff, A, sizeof A);
    is_near(ol_game_gap(pb, z, w), 2, 0,
            "game: gap of (rock, rock) in RPS is 2");
    for (i = 0; i < 6; i++) z[i] = 1.0 / 3;
    is_near(ol_game_gap(pb, z, w), 0, 1e-15,
            "game: gap of the uniform equilibrium is 0");
    ol_problem_free(pb);
  }
  return done();
}
