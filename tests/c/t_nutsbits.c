/*
** tests/c/t_nutsbits.c -- NUTS's draws, bit for bit: a checksum of every
** state, every sampler statistic and the generator's state after each
** chain, against the one recorded from the sampler before its tree build
** stopped copying states (issue 28).
**
** A change to nuts.c's bookkeeping must leave the chain unchanged: the
** same draws, the same random numbers consumed, the same floating-point
** operations in the same order for every value that reaches a result.
** The cases cover each path of the tree build: a unit metric with a fixed
** step on the 100-D diagonal Gaussian (the benchmark's target), diagonal
** and dense metrics with Stan's warmup on a rotated 50-D Gaussian
** (dimensions not a multiple of the criterion's four lanes come from
** gauss2d), forced divergences (eps = 3), the depth cap (maxdepth 3, and
** 10 reached: trees of 1023 steps; maxdepth 1: single steps) and a
** density that is NaN beyond x_1 = 1.5 (the non-finite leaf).
**
** The checksum (FNV-1a over the bytes) is of this build's arithmetic:
** the Makefile builds without FMA contraction so that it is the same with
** or without ARCH, but another libm, or an OpenBLAS kernel other than the
** one this machine runs (the dense metric's dsymv and Cholesky factor,
** the rotated Gaussian's gradient), may change the last bits of a draw
** legitimately.  Each case prints its checksum, so such a change is
** re-recorded on the old sampler, never on a changed one.
**
** So that a machine with other arithmetic does not fail a sampler that is
** right, the test first takes a fingerprint of what the chains depend on
** besides nuts.c: libm's exp, log, log1p and sqrt over a spread of
** arguments, OpenBLAS's dsymv, dgemv and dpotrf on a fixed 50 x 50
** matrix, and the rotated Gaussian's gradient.  On the fingerprint
** recorded with the checksums, every checksum is asserted; on another,
** the cases are reported as skipped, each with its checksum (to record
** there from the old sampler), and the fingerprint is printed.
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "olt.h"
#include "sample/stats.h"
#include "tap.h"

#define SEED 2718281u

/* FNV-1a, 64 bits, over n bytes at p, continuing from h. */
static uint64_t fnv (uint64_t h, const void *p, size_t n)
{
  const unsigned char *b = p;
  size_t i;
  for (i = 0; i < n; i++) {
    h ^= b[i];
    h *= 1099511628211ull;
  }
  return h;
}

/* A chain of steps of nuts with par on p from p->x0, stepped as the run
** does (t_samplers.c checks that driver against ol_run); the checksum of
** x, the statistics and the evaluation counts after every step and of
** the generator at the end into *h; the divergent steps into *ndiv, the
** deepest tree into *depth.
** 1, or 0 (diag()ed) on failure. */
static int chain (const ol_problem *p, const double *par, long steps,
                  uint64_t *h, long *ndiv, int *depth)
{
  const ol_method_type *m = ol_method_find("nuts");
  void *st = calloc(1, m->size);
  double *x = malloc(sizeof(double) * (size_t)p->n);
  double *xavg = malloc(sizeof(double) * (size_t)p->n);
  ol_ctx c;
  ol_rng rng;
  ol_err e;
  ol_sampler_stat s;
  long t;
  int good = 1;
  uint64_t k = 14695981039346656037ull;
  memset(&c, 0, sizeof c);
  memcpy(x, p->x0, sizeof(double) * (size_t)p->n);
  memcpy(xavg, x, sizeof(double) * (size_t)p->n);
  ol_rng_seed(&rng, SEED, 0);
  c.p = p;
  c.n = p->n;
  c.x = x;
  c.xavg = xavg;
  c.sched = 1;
  c.rng = &rng;
  *ndiv = 0;
  *depth = 0;
  if (m->init(st, par, &c, &e) != OL_OK) {
    diag("nuts init: %s", e.msg);
    good = 0;
  }
  for (t = 0; good && t < steps; t++) {
    double d[4];
    int i4[6];
    if (m->step(st, &c, &e) != OL_OK) {
      diag("nuts step %ld: %s", t, e.msg);
      good = 0;
      break;
    }
    c.t++;
    ol_sampler_stats(m, st, &s);
    d[0] = s.lp;
    d[1] = s.accept_stat;
    d[2] = s.stepsize;
    d[3] = s.energy;
    i4[0] = s.treedepth;
    i4[1] = s.n_leapfrog;
    i4[2] = s.divergent;
    i4[3] = s.nonfinite;
    i4[4] = s.maxdepth;
    i4[5] = s.warmup;
    *ndiv += s.divergent;
    if (s.treedepth > *depth) *depth = s.treedepth;
    k = fnv(k, x, sizeof(double) * (size_t)p->n);
    k = fnv(k, d, sizeof d);
    k = fnv(k, i4, sizeof i4);
    k = fnv(k, &c.ngev, sizeof c.ngev);
    k = fnv(k, &c.nfev, sizeof c.nfev);
    k = fnv(k, &c.accepted, sizeof c.accepted);
  }
  k = fnv(k, rng.s, sizeof rng.s);
  k = fnv(k, &rng.spare, sizeof rng.spare);
  k = fnv(k, &rng.has_spare, sizeof rng.has_spare);
  m->fini(st);
  free(st);
  free(x);
  free(xavg);
  *h = k;
  return good;
}

/* U = |x|^2 / 2 for x_1 < 1.5, NaN beyond: leapfrog steps that cross
** meet a non-finite value. */
static int cliff_fdf (void *ud, const double *x, double *f, double *g,
                      ol_err *e)
{
  const int *n = ud;
  double s = 0;
  int i;
  (void)e;
  for (i = 0; i < *n; i++) {
    s += x[i] * x[i];
    if (g != NULL) g[i] = x[i];
  }
  if (f != NULL) *f = x[0] < 1.5 ? 0.5 * s : NAN;
  return OL_OK;
}

/* The arithmetic the chains use besides nuts.c (see the header). */
#define FINGERPRINT 0x4f79a12db000b280ull   /* where the checksums were recorded */
static uint64_t fingerprint (const ol_problem *rot)
{
  enum { N = 50 };
  static double A[N * N], L[N * N], v[N], y[N];
  uint64_t h = 14695981039346656037ull;
  ol_err e;
  double f;
  int i, j;
  for (i = 0; i < 20000; i++) {
    double x = -40 + 80 * (i + 0.5) / 20000, r[4];
    r[0] = exp(x);
    r[1] = log(fabs(x) + 1e-3);
    r[2] = log1p(fabs(x) * 0.01);
    r[3] = sqrt(fabs(x));
    h = fnv(h, r, sizeof r);
  }
  for (i = 0; i < N; i++) {
    v[i] = sin(i + 1.0);
    for (j = 0; j < N; j++)
      A[i * N + j] = (i == j ? N : 0) + cos(0.3 * (i + 1) * (j + 1));
  }
  for (i = 0; i < N; i++)        /* symmetric */
    for (j = 0; j < i; j++) A[i * N + j] = A[j * N + i];
  cblas_dsymv(CblasRowMajor, CblasLower, N, 1.0, A, N, v, 1, 0.0, y, 1);
  h = fnv(h, y, sizeof y);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, N, N, 1.0, A, N, v, 1, 0.0, y, 1);
  h = fnv(h, y, sizeof y);
  memcpy(L, A, sizeof L);
  if (LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', N, L, N) == 0)
    h = fnv(h, L, sizeof L);
  if (ol_problem_eval(rot, v, &f, y, NULL, &e) == OL_OK) {
    h = fnv(h, &f, sizeof f);
    h = fnv(h, y, sizeof y);
  }
  return h;
}

typedef struct ncase {
  const char *label;
  int prob;             /* 0 diag 100-D, 1 rotated 50-D, 2 gauss2d,
                           3 the cliff */
  double eps, maxdepth, warmup, metric;
  long steps;
  uint64_t want;        /* recorded from the sampler before issue 28 */
} ncase;

int main (void)
{
  static const ncase cases[] = {
    {"unit metric, eps 0.2, 100-D diagonal Gaussian", 0, 0.2, 10, 0, 0,
     300, 0x8d8fdfe5e12bb12eull},
    {"diag metric, warmup 150, rotated 50-D Gaussian", 1, 0.1, 10, 150, 1,
     300, 0x9a3153c2e46fd800ull},
    {"dense metric, warmup 150, rotated 50-D Gaussian", 1, 0.1, 10, 150, 2,
     300, 0x4ef722ed20ad9a7cull},
    {"diag metric, warmup 100, gauss2d", 2, 0.5, 10, 100, 1, 400,
     0xc3182b62c570bcefull},
    {"eps 3: divergent, gauss2d", 2, 3, 10, 0, 0, 200,
     0x4cd745be0d15a1a8ull},
    {"maxdepth 3, eps 0.01, gauss2d", 2, 0.01, 3, 0, 1, 200,
     0x41537a2682afc822ull},
    {"a NaN density beyond x_1 = 1.5, 5-D", 3, 0.6, 10, 0, 0, 300,
     0xea76363e4c8e04dbull},
    {"maxdepth 10 reached, eps 0.0005, gauss2d", 2, 0.0005, 10, 0, 0, 30,
     0xdf87b39081da3d4full},
    {"maxdepth 1, diag metric, warmup 100, gauss2d", 2, 0.5, 1, 100, 1, 300,
     0x3031b0e0ddabeba2ull},
  };
  const ol_method_type *m = ol_method_find("nuts");
  int cn = 5, k, same = 0;
  uint64_t fp = 0;
  ol_problem *P[4];
  ol_err e;
  P[0] = olt_quadratic(100, 100, 0);
  P[1] = olt_quadratic(50, 10, 1);
  P[2] = olt_problem("gauss2d", NULL, "rho", 0.8, (char *)NULL);
  P[3] = ol_problem_custom(cn, cliff_fdf, 0, &cn, NULL, &e);
  diag("seed %u", SEED);
  if (P[1] != NULL) {
    fp = fingerprint(P[1]);
    same = fp == FINGERPRINT;
    diag("arithmetic fingerprint 0x%016llx (the checksums' 0x%016llx)%s",
         (unsigned long long)fp, (unsigned long long)FINGERPRINT,
         same ? "" : ": another libm or BLAS kernel, checksums not "
         "asserted");
  }
  if (m == NULL || P[0] == NULL || P[1] == NULL || P[2] == NULL ||
      P[3] == NULL) {
    ok(0, "nutsbits: the targets and nuts exist");
    return done();
  }
  for (k = 0; k < (int)(sizeof cases / sizeof cases[0]); k++) {
    const ncase *q = &cases[k];
    double par[16];
    uint64_t h;
    long ndiv;
    int depth;
    olt_params(m, par, "eps", q->eps, "maxdepth", q->maxdepth, "warmup",
               q->warmup, "metric", q->metric, (char *)NULL);
    if (!chain(P[q->prob], par, q->steps, &h, &ndiv, &depth)) {
      ok(0, "nutsbits: %s: the chain runs", q->label);
      continue;
    }
    if (same)
      ok(h == q->want, "nutsbits: %s: %ld steps (%ld divergent, depth up "
         "to %d), checksum 0x%016llx (recorded 0x%016llx)", q->label,
         q->steps, ndiv, depth, (unsigned long long)h,
         (unsigned long long)q->want);
    else
      ok(1, "nutsbits: %s: checksum 0x%016llx # SKIP recorded on other "
         "arithmetic (fingerprint 0x%016llx)", q->label,
         (unsigned long long)h, (unsigned long long)fp);
  }
  for (k = 0; k < 4; k++) ol_problem_free(P[k]);
  return done();
}
