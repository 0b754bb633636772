/*
** tests/c/t_bg.c -- a factorisation Ctrl-C can leave behind (core/bg.h;
** issue 22, item 3: one Newton step's dsyevd of n = 3500 ignored Ctrl-C
** for 5 s, found by the fuzzer).  With no Ctrl-C, ol_bg_potrf, _syevd
** and _syevr on their thread give bit for bit the direct LAPACK call's
** results, and those are right (A Q = Q diag(w) and Q'Q = I, L L' = A, to
** 1e-12 relative); with the flag raised they return OL_BG_EINTR at once
** and leave the caller's arrays as they were; below OL_BG_N they run in
** place; a call made while one left behind still runs waits for it.
** Runs of newton (both branches: Cholesky on a quadratic, the
** eigenvalue modification on lowrank, whose Hessian is indefinite), cubic
** and fullada at orders above OL_BG_N stop in their step with reason
** "interrupted", and without Ctrl-C take bit for bit the steps they take
** with no flag at all (ol_intr NULL: in place).
** The samplers' dense metric (ol_mass_set, at a warmup window's end)
** factorises on the thread too: bit for bit LAPACKE's row-major dpotrf,
** and with the flag raised OL_EINTR and the mass unchanged.
** Random matrices from the fixed seed printed below.
*/
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "bg.h"
#include "method.h"
#include "olt.h"
#include "problem.h"
#include "rng.h"
#include "run.h"
#include "sample/mass.h"
#include "tap.h"

#define SEED 20261207u

static volatile sig_atomic_t flag;

/* A := a random symmetric n x n (indefinite) plus shift I. */
static void symm (double *A, int n, double shift, ol_rng *r)
{
  int i, j;
  for (j = 0; j < n; j++)
    for (i = j; i < n; i++) {
      double v = ol_rng_normal(r);
      A[(size_t)j * n + i] = A[(size_t)i * n + j] = v + (i == j ? shift : 0);
    }
}

static double maxabs (const double *a, size_t k)
{
  double m = 0;
  size_t i;
  for (i = 0; i < k; i++) m = fmax(m, fabs(a[i]));
  return m;
}

/* max |A Q - Q diag(w)| and max |Q'Q - I| over max |A| (col-major). */
static void eigres (const double *A, const double *Q, const double *w,
                    int n, double *res, double *orth)
{
  double *R = malloc(sizeof(double) * (size_t)n * n);
  size_t nn = (size_t)n * n, k;
  int i, j;
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A, n,
              Q, n, 0.0, R, n);
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++) R[(size_t)j * n + i] -= w[j] * Q[(size_t)j * n + i];
  *res = maxabs(R, nn) / maxabs(A, nn);
  cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, n, n, n, 1.0, Q, n,
              Q, n, 0.0, R, n);
  for (k = 0; k < nn; k += (size_t)n + 1) R[k] -= 1;
  *orth = maxabs(R, nn);
  free(R);
}

static void calls (ol_rng *r)
{
  int n = OL_BG_N + 44, i, j;
  size_t nn = (size_t)n * n;
  double *A = malloc(sizeof(double) * nn), *B = malloc(sizeof(double) * nn),
         *C = malloc(sizeof(double) * nn), *Z = malloc(sizeof(double) * nn),
         *Z2 = malloc(sizeof(double) * nn), *w = malloc(sizeof(double) * n),
         *w2 = malloc(sizeof(double) * n), q, *work;
  lapack_int iq, lwork, liwork, *iwork, isuppz[2 * (OL_BG_N + 44)], m, info;
  double res, orth;
  /* workspaces from the queries, as syevr.h sizes them */
  LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, A, n, w, &q, -1, &iq,
                      -1);
  lwork = (lapack_int)q + 1;
  liwork = iq + 1;
  LAPACKE_dsyevr_work(LAPACK_COL_MAJOR, 'V', 'A', 'L', n, A, n, 0, 0, 0, 0,
                      0, &m, w, Z, n, NULL, &q, -1, &iq, -1);
  if ((lapack_int)q + 1 > lwork) lwork = (lapack_int)q + 1;
  if (iq + 1 > liwork) liwork = iq + 1;
  work = malloc(sizeof(double) * (size_t)lwork);
  iwork = malloc(sizeof(lapack_int) * (size_t)liwork);

  /* (1) dsyevd: thread against direct, then truth */
  symm(A, n, 0, r);
  memcpy(B, A, sizeof(double) * nn);
  memcpy(C, A, sizeof(double) * nn);
  info = ol_bg_syevd(n, B, w, work, lwork, iwork, liwork);
  LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, C, n, w2, work, lwork,
                      iwork, liwork);
  ok(info == 0 && memcmp(B, C, sizeof(double) * nn) == 0
     && memcmp(w, w2, sizeof(double) * n) == 0,
     "bg: syevd of n = %d on its thread equals the direct call bit for bit "
     "(info %d)", n, (int)info);
  eigres(A, B, w, n, &res, &orth);
  ok(res <= 1e-12 && orth <= 1e-12,
     "bg: syevd: |AQ - QW| / |A| = %.1e, |Q'Q - I| = %.1e (<= 1e-12)", res,
     orth);

  /* (2) dsyevr */
  memcpy(B, A, sizeof(double) * nn);
  memcpy(C, A, sizeof(double) * nn);
  info = ol_bg_syevr(n, B, w, Z, isuppz, work, lwork, iwork, liwork);
  LAPACKE_dsyevr_work(LAPACK_COL_MAJOR, 'V', 'A', 'L', n, C, n, 0, 0, 0, 0,
                      0, &m, w2, Z2, n, isuppz, work, lwork, iwork, liwork);
  ok(info == 0 && memcmp(Z, Z2, sizeof(double) * nn) == 0
     && memcmp(w, w2, sizeof(double) * n) == 0,
     "bg: syevr of n = %d on its thread equals the direct call bit for bit "
     "(info %d)", n, (int)info);
  eigres(A, Z, w, n, &res, &orth);
  ok(res <= 1e-12 && orth <= 1e-12,
     "bg: syevr: |AZ - ZW| / |A| = %.1e, |Z'Z - I| = %.1e (<= 1e-12)", res,
     orth);

  /* (3) dpotrf of A + 3 sqrt(n) I (positive definite) */
  symm(A, n, 3 * sqrt(n), r);
  memcpy(B, A, sizeof(double) * nn);
  memcpy(C, A, sizeof(double) * nn);
  info = ol_bg_potrf(n, B);
  LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, C, n);
  ok(info == 0 && memcmp(B, C, sizeof(double) * nn) == 0,
     "bg: potrf of n = %d on its thread equals the direct call bit for bit "
     "(info %d)", n, (int)info);
  for (j = 0; j < n; j++)
    for (i = 0; i < j; i++) B[(size_t)j * n + i] = 0;
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, B, n,
              B, n, 0.0, C, n);
  for (i = 0; i < (int)nn; i++) C[i] -= A[i];
  res = maxabs(C, nn) / maxabs(A, nn);
  ok(res <= 1e-12, "bg: potrf: |LL' - A| / |A| = %.1e (<= 1e-12)", res);

  /* (4) Ctrl-C already raised: OL_BG_EINTR, the caller's arrays as they
  ** were (the thread works on its own copy and frees it) */
  memcpy(B, A, sizeof(double) * nn);
  for (i = 0; i < n; i++) w[i] = w2[i] = -1;
  flag = 1;
  info = ol_bg_syevd(n, B, w, work, lwork, iwork, liwork);
  ok(info == OL_BG_EINTR && memcmp(A, B, sizeof(double) * nn) == 0
     && memcmp(w, w2, sizeof(double) * n) == 0,
     "bg: syevd with Ctrl-C: OL_BG_EINTR (%d), A and w untouched",
     (int)info);
  info = ol_bg_syevr(n, B, w, Z, isuppz, work, lwork, iwork, liwork);
  ok(info == OL_BG_EINTR && memcmp(A, B, sizeof(double) * nn) == 0,
     "bg: syevr with Ctrl-C: OL_BG_EINTR (%d), A untouched", (int)info);
  info = ol_bg_potrf(n, B);
  ok(info == OL_BG_EINTR && memcmp(A, B, sizeof(double) * nn) == 0,
     "bg: potrf with Ctrl-C: OL_BG_EINTR (%d), A untouched", (int)info);
  /* (5) below OL_BG_N: in place, to the end (milliseconds of work) */
  symm(B, OL_BG_N - 1, 3 * sqrt(n), r);
  info = ol_bg_potrf(OL_BG_N - 1, B);
  ok(info == 0, "bg: potrf of n = %d < OL_BG_N runs in place despite the "
     "flag (info %d)", OL_BG_N - 1, (int)info);
  flag = 0;
  /* (6) one left running at a time: a large call made while one is
  ** still finishing (order 1200: a good part of a second) waits for it
  ** (bg.c) and then gives the direct call's result */
  {
    int nb = 1200;
    size_t nbb = (size_t)nb * nb;
    double *Ab = malloc(sizeof(double) * nbb), *wb = malloc(sizeof(double)
                                                          * nb), q1;
    lapack_int lw, liw, *iw, info2;
    double *wk;
    symm(Ab, nb, 0, r);
    LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', nb, Ab, nb, wb, &q1, -1,
                        &liw, -1);
    lw = (lapack_int)q1 + 1;
    wk = malloc(sizeof(double) * (size_t)lw);
    iw = malloc(sizeof(lapack_int) * (size_t)liw);
    flag = 1;
    info = ol_bg_syevd(nb, Ab, wb, wk, lw, iw, liw);
    flag = 0;
    memcpy(B, A, sizeof(double) * nn);
    memcpy(C, A, sizeof(double) * nn);
    info2 = ol_bg_potrf(n, B);
    LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, C, n);
    ok(info == OL_BG_EINTR && info2 == 0
       && memcmp(B, C, sizeof(double) * nn) == 0,
       "bg: a call made while an order-%d one left by Ctrl-C is still "
       "running equals the direct call (%d, %d)", nb, (int)info,
       (int)info2);
    free(Ab), free(wb), free(wk), free(iw);
  }
  free(A), free(B), free(C), free(Z), free(Z2), free(w), free(w2);
  free(work), free(iwork);
}

/* name on p, after pre steps: with the flag raised the next step stops,
** interrupted; with it down, pre + 3 steps equal bit for bit those with no
** flag at all. */
static void run_case (const char *what, const ol_problem *p,
                      const char *name, const char *k1, double v1, long pre)
{
  double par[32];
  const ol_method_type *m = olt_method(name, par, k1, v1, (char *)NULL);
  ol_run_opts o = olt_opts(pre + 3, 0, OL_MSET_EMPTY);
  ol_run *r1, *r2;
  long done;
  int n = p->n;
  r1 = olt_run(p, m, par, &o);
  if (r1 == NULL || ol_run_advance(r1, pre) != pre) {
    ok(0, "bg: %s: the run starts", what);
    ol_run_free(r1);
    return;
  }
  flag = 1;
  done = ol_run_advance(r1, 2);
  flag = 0;
  ok(done == 0 && ol_run_reason(r1) == OL_STOP_INTERRUPTED,
     "bg: %s: step %ld stops, interrupted (%ld steps, %s)", what, pre + 1,
     done, ol_run_message(r1));
  ol_run_free(r1);
  r1 = olt_go(p, m, par, &o);
  ol_intr = NULL;
  r2 = olt_go(p, m, par, &o);
  ol_intr = &flag;
  ok(r1 != NULL && r2 != NULL && ol_run_iter(r1) == pre + 3
     && ol_run_iter(r2) == pre + 3
     && memcmp(ol_run_x(r1), ol_run_x(r2), sizeof(double) * n) == 0,
     "bg: %s: %ld steps with the flag down equal as many in place bit for "
     "bit", what, pre + 3);
  ol_run_free(r1);
  ol_run_free(r2);
}

static void runs (void)
{
  ol_problem *q = olt_problem("quadratic", NULL, "n", 400.0, (char *)NULL);
  ol_problem *q2 = olt_problem("quadratic", NULL, "n", OL_BG_N + 1.0,
                               (char *)NULL);
  ol_problem *rb = olt_problem("lowrank", NULL, "r", 8.0, (char *)NULL);
  if (q == NULL || rb == NULL || q2 == NULL) {
    ok(0, "bg: the problems build");
    return;
  }
  run_case("newton (Cholesky) on quadratic{n=400}", q, "newton", NULL, 0, 0);
  run_case("newton (eigenvalues) on lowrank{r=8}", rb, "newton",
           "step", 0, 0);
  run_case("cubic on lowrank{r=8}", rb, "cubic", NULL, 0, 0);
  /* fullada: the eigenproblem is of order min(t, n) */
  run_case("fullada on quadratic{n=257}", q2, "fullada", NULL, 0,
           OL_BG_N + 1);
  ol_problem_free(q);
  ol_problem_free(rb);
  ol_problem_free(q2);
}

/* ol_mass_set of a dense mass of order n above OL_BG_N: bit for bit
** LAPACKE's row-major dpotrf with the flag down; the mass unchanged after
** Ctrl-C, an indefinite estimate and a non-finite one. */
static void mass (ol_rng *r)
{
  const int n = OL_BG_N + 44;
  size_t nn = (size_t)n * n, k;
  double *a = malloc(sizeof(double) * nn), *a2 = malloc(sizeof(double) * nn);
  double *Lref = malloc(sizeof(double) * nn), *minv = malloc(sizeof(double) *
                                                               (size_t)n);
  ol_mass m;
  ol_err e;
  int i, j, rc;
  memset(&m, 0, sizeof m);
  if (a == NULL || a2 == NULL || Lref == NULL || minv == NULL
      || ol_mass_init(&m, n, minv, 1, &e) != OL_OK) {
    ok(0, "bg: mass: allocations");
    goto out;
  }
  symm(a, n, 3 * sqrt((double)n), r);      /* diagonally dominant: SPD */
  memcpy(Lref, a, sizeof(double) * nn);
  rc = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', n, Lref, n);
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++) Lref[(size_t)i * n + j] = 0;
  ok(rc == 0, "bg: mass: the reference dpotrf succeeds (info %d)", rc);
  flag = 0;
  rc = ol_mass_set(&m, a, &e);
  ok(rc == OL_OK && memcmp(m.L, Lref, sizeof(double) * nn) == 0
     && memcmp(m.A, a, sizeof(double) * nn) == 0 && minv[n - 1] ==
     a[nn - 1], "bg: mass: n = %d, flag down: L is LAPACKE's row-major "
     "dpotrf bit for bit, A = a, minv = diag(a) (rc %d)", n, rc);
  /* L L' = a to 1e-12 relative: the reference itself is right */
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, m.L, n,
              m.L, n, 0.0, a2, n);
  for (k = 0; k < nn; k++) a2[k] -= a[k];
  ok(maxabs(a2, nn) <= 1e-12 * maxabs(a, nn), "bg: mass: max |L L' - a| "
     "/ max |a| = %.2g (<= 1e-12)", maxabs(a2, nn) / maxabs(a, nn));
  /* Ctrl-C: OL_EINTR at once, L and A as they were */
  symm(a2, n, 3 * sqrt((double)n), r);
  flag = 1;
  rc = ol_mass_set(&m, a2, &e);
  flag = 0;
  ok(rc == OL_EINTR && strstr(e.msg, "interrupted") != NULL
     && memcmp(m.L, Lref, sizeof(double) * nn) == 0
     && memcmp(m.A, a, sizeof(double) * nn) == 0,
     "bg: mass: flag raised: OL_EINTR (rc %d: %s), the mass unchanged", rc,
     e.msg);
  /* indefinite, then non-finite: OL_ENUMERIC, unchanged */
  symm(a2, n, 0, r);
  rc = ol_mass_set(&m, a2, &e);
  ok(rc == OL_ENUMERIC && strstr(e.msg, "not positive definite") != NULL
     && memcmp(m.L, Lref, sizeof(double) * nn) == 0,
     "bg: mass: an indefinite estimate: OL_ENUMERIC (%s), L unchanged",
     e.msg);
  memcpy(a2, a, sizeof(double) * nn);
  a2[(size_t)5 * n + 2] = a2[(size_t)2 * n + 5] = NAN;
  rc = ol_mass_set(&m, a2, &e);
  ok(rc == OL_ENUMERIC && strstr(e.msg, "non-finite") != NULL
     && memcmp(m.L, Lref, sizeof(double) * nn) == 0
     && memcmp(m.A, a, sizeof(double) * nn) == 0,
     "bg: mass: a NaN entry: OL_ENUMERIC (%s), the mass unchanged", e.msg);
out:
  ol_mass_fini(&m);
  free(a);
  free(a2);
  free(Lref);
  free(minv);
}

int main (void)
{
  ol_rng r;
  ol_intr = &flag;
  diag("seed %u", SEED);
  ol_rng_seed(&r, SEED, 0);
  calls(&r);
  mass(&r);
  runs();
  ol_intr = NULL;
  return done();
}
