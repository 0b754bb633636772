/*
** tests/c/t_intr.c -- the core's long loops look at Ctrl-C (issue 22,
** item 3): with the interrupt flag set (ol_intr), the builders of large
** problems (matlsq, linreg, rosenbrock, rlvr), hmc's leapfrog loop, a
** diffusion sampler's step over its particles and the tape's dense Hessian
** stop with OL_EINTR instead of finishing seconds or minutes later.  And
** the sliced linear algebra they now use (core/problems/sliced.c) is
** checked against independent truth: products against a naive triple
** loop, the Haar rotation's orthogonality, least squares against the
** normal equations' residual (the gradient A'(Ax - y) vanishes at x*).
*/
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/tape.h"
#include "method.h"
#include "olt.h"
#include "problem.h"
#include "problems/sliced.h"
#include "rng.h"
#include "run.h"
#include "tap.h"

static volatile sig_atomic_t flag;

static void builders (void)
{
  static const struct { const char *name; const char *k1; double v1;
                        const char *k2; double v2; } b[] = {
    {"matlsq", "m", 4096, "n", 512},
    {"linreg", "n", 20000, "d", 256},
    {"rosenbrock", "n", 2e6, NULL, 0},
    {"rlvr", "queries", 1000, "responses", 100},
    {"ridgehyper", "d", 256, NULL, 0},     /* its x* search (the fuzzer) */
    {"lowrank", "m", 1000, "n", 4096},     /* M = U V' (the fuzzer) */
    /* its Lloyd baseline: stopped before its first start, it scored labels
    ** never written (UBSan under the fuzzer: an index of 0xbebebebe) */
    {"kmeans", "n", 2000, "d", 3},
  };
  size_t i;
  for (i = 0; i < sizeof b / sizeof b[0]; i++) {
    ol_err e;
    ol_problem *p;
    flag = 1;
    p = b[i].k2 != NULL
      ? olt_problem(b[i].name, &e, b[i].k1, b[i].v1, b[i].k2, b[i].v2,
                    (char *)NULL)
      : olt_problem(b[i].name, &e, b[i].k1, b[i].v1, (char *)NULL);
    flag = 0;
    ok(p == NULL && e.code == OL_EINTR && strstr(e.msg, "interrupted"),
       "intr: %s stops with OL_EINTR when Ctrl-C came (%s)", b[i].name,
       p == NULL ? e.msg : "built");
    ol_problem_free(p);
  }
  {
    ol_err e;
    ol_problem *p = olt_problem("rlvr", &e, "queries", 10000.0, "responses",
                                1000.0, (char *)NULL);
    ok(p == NULL && e.code == OL_EINVAL && strstr(e.msg, "out of range"),
       "intr: rlvr{queries=1e4, responses=1e3} is refused with its range "
       "(%s)", p == NULL ? e.msg : "built");
    ol_problem_free(p);
  }
}

/* linreg's x* (sliced QR) solves the normal equations; matlsq's data
** (sliced products) makes f(W_true) = 0 */
static void built_right (void)
{
  /* 4000 x 300: the trailing update in two column tiles */
  static const int sizes[][2] = {{300, 40}, {1000, 70}, {257, 257},
                                 {4000, 300}};
  size_t k;
  for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    ol_err e;
    ol_problem *p = olt_problem("linreg", &e, "n", (double)sizes[k][0], "d",
                                (double)sizes[k][1], "cond", 1e4,
                                (char *)NULL);
    double gn = p != NULL ? olt_gnorm(p, p->xstar) : NAN;
    ok(p != NULL && gn < 1e-10,
       "intr: linreg n=%d d=%d: ||grad f(x*)|| = %.3g <= 1e-10", sizes[k][0],
       sizes[k][1], gn);
    ol_problem_free(p);
  }
  {
    ol_err e;
    ol_problem *p = olt_problem("matlsq", &e, "m", 600.0, "n", 300.0, "k",
                                7.0, (char *)NULL);
    double f = p != NULL ? olt_fval(p, p->xstar) : NAN;
    double he = p != NULL ? olt_graderr(p, p->x0) : NAN;
    ok(p != NULL && fabs(f) < 1e-20, "intr: matlsq 600x300x7: f(W_true) = "
       "%.3g (|f| <= 1e-20)", f);
    ok(he < 1e-6, "intr: matlsq: gradient against differences %.3g", he);
    ol_problem_free(p);
  }
}

static void sliced (void)
{
  /* 256 x 300 x 1000: the inner dimension in two tiles */
  static const int dims[][3] = {{1, 1, 1}, {300, 7, 5}, {33, 290, 301},
                                {520, 260, 3}, {256, 300, 1000}};
  size_t k;
  ol_rng r;
  ol_rng_seed(&r, 7, 0);
  for (k = 0; k < sizeof dims / sizeof dims[0]; k++) {
    int M = dims[k][0], N = dims[k][1], K = dims[k][2], ta, tb, i, j, l;
    double *A = malloc(sizeof(double) * (size_t)M * K);
    double *B = malloc(sizeof(double) * (size_t)K * N);
    double *C = malloc(sizeof(double) * (size_t)M * N);
    ol_rng_normals(&r, A, M * K);
    ol_rng_normals(&r, B, K * N);
    for (ta = 0; ta < 2; ta++)
      for (tb = 0; tb < 2; tb++) {
        double worst = 0;
        ol_err e;
        int lda = ta ? M : K, ldb = tb ? K : N;
        int rc = ol_sl_gemm(ta, tb, M, N, K, 0.5, A, lda, B, ldb, C, N,
                            "test", &e);
        for (i = 0; i < M; i++)
          for (j = 0; j < N; j++) {
            double s = 0;
            for (l = 0; l < K; l++)
              s += (ta ? A[(size_t)l * lda + i] : A[(size_t)i * lda + l])
                * (tb ? B[(size_t)j * ldb + l] : B[(size_t)l * ldb + j]);
            s *= 0.5;
            if (fabs(C[(size_t)i * N + j] - s) > worst)
              worst = fabs(C[(size_t)i * N + j] - s);
          }
        ok(rc == OL_OK && worst < 1e-12 * (1 + K),
           "intr: ol_sl_gemm %dx%dx%d ta=%d tb=%d against a triple loop "
           "(%.2g)", M, N, K, ta, tb, worst);
      }
    free(A);
    free(B);
    free(C);
  }
  {
    int n = 150, i, j, l;
    double *Q = malloc(sizeof(double) * (size_t)n * n), worst = 0;
    ol_err e;
    int rc = ol_sl_randorth(n, &r, Q, "test", &e);
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++) {
        double s = 0;
        for (l = 0; l < n; l++) s += Q[(size_t)l * n + i] * Q[(size_t)l * n + j];
        if (fabs(s - (i == j)) > worst) worst = fabs(s - (i == j));
      }
    ok(rc == OL_OK && worst < 1e-12, "intr: ol_sl_randorth n=150: "
       "max |Q'Q - I| = %.2g", worst);
    flag = 1;
    rc = ol_sl_randorth(n, &r, Q, "test", &e);
    flag = 0;
    ok(rc == OL_EINTR, "intr: ol_sl_randorth stops on Ctrl-C");
    free(Q);
  }
}

/* a run of METHOD (par overrides) on P whose step sees the flag */
static void run_stops (const char *pname, const char *mname, double k1v,
                       const char *k1, const char *k2, double k2v,
                       const char *what)
{
  ol_err e;
  double par[32];
  ol_problem *p = olt_problem(pname, &e, (char *)NULL);
  const ol_method_type *m = olt_method(mname, par, k1, k1v, k2, k2v,
                                       (char *)NULL);
  ol_run_opts o = olt_opts(10, 0, OL_MSET_EMPTY);
  ol_run *rr = p != NULL && m != NULL ? olt_run(p, m, par, &o) : NULL;
  long done;
  if (rr == NULL) {
    ok(0, "intr: %s: the run starts", what);
    ol_problem_free(p);
    return;
  }
  flag = 1;
  done = ol_run_advance(rr, 5);
  flag = 0;
  ok(ol_run_reason(rr) == OL_STOP_INTERRUPTED && done == 0,
     "intr: %s: the first step stops, interrupted (reason %d, %ld steps, %s)",
     what, ol_run_reason(rr), done, ol_run_message(rr));
  ol_run_free(rr);
  ol_problem_free(p);
}

static void tape (void)
{
  int n = 40, i, acc;
  double x[40], H[1600], f;
  ol_err e;
  ol_tape *t = ol_tape_new(n, &e);
  acc = ol_tape_var(t, 0, 0.5);
  for (i = 1; i < n; i++)
    acc = ol_tape_op2(t, OL_AD_ADD, acc,
                      ol_tape_op2(t, OL_AD_MUL, ol_tape_var(t, i, 0.5),
                                  ol_tape_var(t, i, 0.5)));
  ol_tape_finish(t, acc, &e);
  for (i = 0; i < n; i++) x[i] = 0.5;
  ol_tape_forward(t, x, &f);
  flag = 1;
  ok(ol_tape_hessian(t, H) == OL_EINTR, "intr: ol_tape_hessian stops on "
     "Ctrl-C");
  flag = 0;
  ok(ol_tape_hessian(t, H) == OL_OK && H[1 * n + 1] == 2 && H[0] == 0,
     "intr: ... and without it is the Hessian (H_22 = 2, H_11 = 0)");
  ol_tape_free(t);
}

/* The finite-difference Hessian: 2n gradients of any cost (a bcd run's
** on an MDP of n = 4000 took 11 s after Ctrl-C), so Ctrl-C is looked at
** before each column; without it, the Hessian of a quadratic. */
static void fdhess (void)
{
  ol_err e;
  ol_problem *p = olt_problem("quadratic", &e, "n", 300.0, (char *)NULL);
  int n = p != NULL ? p->n : 0, rc, i, j;
  double *H = malloc(sizeof(double) * (size_t)n * n);
  double *w = malloc(sizeof(double) * 3 * (size_t)n), *x, dev = 0;
  double *G = malloc(sizeof(double) * (size_t)n * n);
  if (p == NULL || H == NULL || w == NULL || G == NULL) {
    ok(0, "intr: fdhess setup (%s)", p == NULL ? e.msg : "no memory");
    free(H), free(w), free(G);
    ol_problem_free(p);
    return;
  }
  x = p->x0;
  flag = 1;
  rc = ol_problem_fdhess(p, x, H, w, &e);
  flag = 0;
  ok(rc == OL_EINTR && strstr(e.msg, "interrupted at column 1 of 300"),
     "intr: ol_problem_fdhess stops before its first column on Ctrl-C (%s)",
     rc == OL_OK ? "finished" : e.msg);
  rc = ol_problem_fdhess(p, x, H, w, &e);
  ok(rc == OL_OK && p->hess != NULL && p->hess(p->ud, x, G, &e) == OL_OK,
     "intr: ... and without it finishes (quadratic n=300 has hess)");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      double d = fabs(H[(size_t)i * n + j] - G[(size_t)i * n + j]);
      if (d > dev) dev = d;
    }
  ok(rc == OL_OK && dev < 1e-6, "intr: ... equal to the exact Hessian to "
     "1e-6 (max |H_fd - H| = %.2g)", dev);
  free(H);
  free(w);
  free(G);
  ol_problem_free(p);
}

/* A quadratic whose evaluations are counted; from the call numbered
** intr_at on, the Ctrl-C flag is up (as if it came while f ran). */
static long nevals, intr_at, evals_at_intr;

static int counted_fdf (void *ud, const double *x, double *f, double *g,
                        ol_err *e)
{
  (void)ud;
  (void)e;
  if (++nevals == intr_at) {
    flag = 1;
    evals_at_intr = nevals;
  }
  if (f != NULL) *f = 0.5 * (x[0] * x[0] + x[1] * x[1]);
  if (g != NULL) {
    g[0] = x[0];
    g[1] = x[1];
  }
  return OL_OK;
}

/* The directions' loops of the zero-order methods look at the flag before
** every evaluation, not every 64th: one evaluation can take long (the
** fuzzer: gsmooth{m=2000} on fsquad{N=1000, d=2000} ignored Ctrl-C for
** over 2 s), so at most one more runs after a Ctrl-C. */
static void every_direction (void)
{
  static const char *const names[] = {"gsmooth", "twopoint", "es"};
  size_t k;
  for (k = 0; k < sizeof names / sizeof names[0]; k++) {
    ol_err e;
    double par[32];
    ol_problem *p = ol_problem_custom(2, counted_fdf, 1, NULL, NULL, &e);
    const ol_method_type *m = olt_method(names[k], par, "m", 1000.0,
                                         (char *)NULL);
    static const double x0[2] = {1, 2};
    ol_run_opts o = olt_opts(10, 0, OL_MSET_EMPTY);
    ol_run *rr;
    long after;
    o.x0 = x0;
    rr = p != NULL && m != NULL ? olt_run(p, m, par, &o) : NULL;
    if (rr == NULL) {
      ok(0, "intr: %s on a counted quadratic starts", names[k]);
      ol_problem_free(p);
      continue;
    }
    nevals = 0;
    intr_at = 5;
    evals_at_intr = 0;
    ol_run_advance(rr, 3);
    flag = 0;
    after = nevals - evals_at_intr;
    ok(ol_run_reason(rr) == OL_STOP_INTERRUPTED && evals_at_intr == 5 &&
       after <= 2, "intr: %s{m=1000}: a Ctrl-C during its 5th evaluation "
       "lets at most 2 more run (%ld ran; reason %d, %s)", names[k], after,
       ol_run_reason(rr), ol_run_message(rr));
    ol_run_free(rr);
    ol_problem_free(p);
  }
}

int main (void)
{
  ol_intr = &flag;
  builders();
  built_right();
  sliced();
  run_stops("blogreg", "hmc", 1e-3, "eps", "L", 1000, "hmc{L=1000}");
  run_stops("gmm", "ddpm", 20000, "samples", "steps", 100,
            "ddpm{samples=20000}");
  run_stops("reddi", "sgld", 1e8, "batch", "a", 0.01,
            "sgld{batch=1e8}");             /* a minibatch's loop */
  run_stops("ridgehyper", "bilevel", 1e9, "K", "lr", 0.01,
            "bilevel{K=1e9}");      /* the inner loops (found by the fuzzer) */
  /* zero-order methods: m directions a step (gsmooth found by the fuzzer) */
  run_stops("quadratic", "gsmooth", 1e6, "m", "lr", 1e-3, "gsmooth{m=1e6}");
  run_stops("quadratic", "twopoint", 1e6, "m", "lr", 1e-3,
            "twopoint{m=1e6}");
  run_stops("quadratic", "es", 1e6, "m", "lr", 1e-3, "es{m=1e6}");
  every_direction();
  /* each local gradient of a distributed method, M draws of vi */
  run_stops("fsquad", "fedavg", 1e6, "K", "lr", 1e-3, "fedavg{K=1e6}");
  run_stops("gauss2d", "meanfield", 1e6, "samples", "lr", 1e-3,
            "meanfield{samples=1e6}");
  tape();
  fdhess();
  ol_intr = NULL;
  return done();
}
