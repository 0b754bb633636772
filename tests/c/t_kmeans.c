/*
** tests/c/t_kmeans.c -- problem.kmeans (core/problems/kmeans.c) and the
** Riemannian cubic-regularized Newton method optim.rcubic
** (core/optim/rcubic.c) on its manifold M = {U : UU'1 = 1, ||U||^2 = K}.
**
** (1) Oracles: f, grad and the dense Hessian against central differences
**     (olt_derivs, 1e-6) at random positive points; Hessian-vector
**     products H v against differences of the gradient along v, 1e-6
**     relative.
** (2) Manifold, against independent truth: x0 lies on M (violation <=
**     1e-12) with U > 0; the projection of a random v equals
**     v - B (B'B)^{-1} B'v with B the n + 1 constraint gradients written
**     out here and solved by LAPACK dgels (least squares), to 1e-12
**     relative; the Riemannian gradient is the projection of the
**     Euclidean one and Dh(grad) = 0 (1e-12); the retraction lands on M
**     (1e-12) and agrees with U + t v to O(t^2) (the ratio at t and t/10
**     near 100); the Riemannian Hessian (manifold.h's formula, as rcubic
**     forms it) against differences of the Riemannian gradient along the
**     retraction curve, projected, 1e-6 relative.
** (3) Runs: rcubic{tol = 1e-6} from x0 at seeds 1, 2, 3 on sep = 6 and
**     sep = 8 (n = 60, K = 3, d = 3, r = 6), warm-started along the
**     barrier path mu = 1, 0.1, 0.01, 1e-3 (each stage at most 300
**     steps; from x0 at mu = 1e-3 directly the barrier keeps the steps
**     short and 300 steps do not suffice): every iterate stays on M
**     (violation <= 1e-10), each run stops at an eps-second-order point
**     (||grad|| <= 1e-6, lambda_min >= -1e-3), 0 misclassified, the
**     rounded partition's Lloyd objective equals Lloyd's best from 10
**     k-means++ starts to 1e-9 relative, and the relaxed objective
**     tr A - <A, UU'> lies in [lloyd - 1e-6, lloyd + n r mu] (the
**     barrier's interior-point gap).
**     About 12 s of CPU; OPTLAB_QUICK=1 (make valgrind) runs sep = 8,
**     seed 1 only.
** (4) Errors: d < K, r <= K, rcubic on a problem without a manifold
**     and from a start off the manifold are refused with messages naming
**     the fix.
*/
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manifold.h"
#include "method.h"
#include "olt.h"
#include "problem.h"
#include "rng.h"
#include "run.h"
#include "tap.h"

#define NN 60
#define KK 3
#define RR 6

static double nrm (const double *v, int n)
{
  double s = 0;
  int i;
  for (i = 0; i < n; i++) s += v[i] * v[i];
  return sqrt(s);
}

static double diffnrm (const double *a, const double *b, int n)
{
  double s = 0;
  int i;
  for (i = 0; i < n; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
  return sqrt(s);
}

static void egrad (const ol_problem *p, const double *x, double *g)
{
  ol_err e;
  if (p->fdf(p->ud, x, NULL, g, &e) != OL_OK) diag("fdf: %s", e.msg);
}

/* The projection by dense least squares: B (N x (n+1)) holds the
** gradients of h_i(U) = e_i'UU'1 - 1 (i < n) and (||U||^2 - K)/2. */
static void dense_proj (const double *U, const double *v, double *out, int n,
                        int r)
{
  int N = n * r, m = n + 1, i, j, l;
  double *B = calloc((size_t)N * m, sizeof(double));
  double *b = malloc(sizeof(double) * N), w[64];
  for (j = 0; j < r; j++) w[j] = 0;
  for (i = 0; i < n; i++)
    for (j = 0; j < r; j++) w[j] += U[i * r + j];
  /* grad h_i = e_i w' + 1 (U' e_i)' : entry (k, j) = [k == i] w_j + U_ij */
  for (i = 0; i < n; i++)
    for (l = 0; l < n; l++)
      for (j = 0; j < r; j++)
        B[(size_t)(l * r + j) * m + i] = (l == i) * w[j] + U[i * r + j];
  for (l = 0; l < N; l++) B[(size_t)l * m + n] = U[l];
  for (l = 0; l < N; l++) b[l] = v[l];
  if (LAPACKE_dgels(LAPACK_ROW_MAJOR, 'N', N, m, 1, B, m, b, 1) != 0)
    diag("dgels failed");
  /* b[0..m) = argmin ||B c - v||; out = v - B c (B was overwritten) */
  {
    double *B2 = calloc((size_t)N * m, sizeof(double));
    for (i = 0; i < n; i++)
      for (l = 0; l < n; l++)
        for (j = 0; j < r; j++)
          B2[(size_t)(l * r + j) * m + i] = (l == i) * w[j] + U[i * r + j];
    for (l = 0; l < N; l++) B2[(size_t)l * m + n] = U[l];
    for (l = 0; l < N; l++) {
      double s = 0;
      for (i = 0; i < m; i++) s += B2[(size_t)l * m + i] * b[i];
      out[l] = v[l] - s;
    }
    free(B2);
  }
  free(B);
  free(b);
}

/* Riemannian gradient at x (N) and its multipliers (m). */
static void rgrad (const ol_problem *p, const ol_manifold *M, const double *x,
                   double *rg, double *lam)
{
  egrad(p, x, rg);
  M->proj(M, x, rg, rg, lam);
}

/* Hess f(x)[v] = P(nabla^2 f v - curv(lam, v)). */
static void rhessv (const ol_problem *p, const ol_manifold *M,
                    const double *x, const double *v, double *out)
{
  int N = p->n, i, j;
  double *H = malloc(sizeof(double) * N * N), *g = malloc(sizeof(double) * N);
  double *lam = malloc(sizeof(double) * M->m), *cv = malloc(sizeof(double) * N);
  ol_err e;
  rgrad(p, M, x, g, lam);
  if (p->hess(p->ud, x, H, &e) != OL_OK) diag("hess");
  for (i = 0; i < N; i++) {
    double s = 0;
    for (j = 0; j < N; j++) s += H[(size_t)i * N + j] * v[j];
    out[i] = s;
  }
  M->curv(M, x, lam, v, cv);
  for (i = 0; i < N; i++) out[i] -= cv[i];
  M->proj(M, x, out, out, NULL);
  free(H);
  free(g);
  free(lam);
  free(cv);
}

static void test_oracles_manifold (void)
{
  ol_problem *p = olt_problem("kmeans", NULL, "n", (double)NN, "K",
                              (double)KK, "seed", 7.0, NULL);
  const ol_manifold *M = ol_manifold_of(p);
  int N, i, pos = 1;
  double *v, *a, *b, *c, *x, *xp, *xm, *H, t, e1, e10;
  ol_rng rng;
  ol_err e;
  ok(p != NULL && M != NULL, "kmeans has a manifold");
  if (p == NULL || M == NULL) return;
  N = p->n;
  ok(N == NN * RR && M->m == NN + 1, "N = n r = %d, m = n + 1 = %d", N,
     M->m);
  ol_rng_seed(&rng, 11, 0);
  v = malloc(sizeof(double) * N);
  a = malloc(sizeof(double) * N);
  b = malloc(sizeof(double) * N);
  c = malloc(sizeof(double) * N);
  x = malloc(sizeof(double) * N);
  xp = malloc(sizeof(double) * N);
  xm = malloc(sizeof(double) * N);
  H = malloc(sizeof(double) * N * N);
  /* (1) derivatives at x0 * (1 + 0.2 u), positive (olt_derivs draws
  ** Gaussian offsets that would leave U > 0) */
  for (i = 0; i < N; i++) x[i] = p->x0[i] * (1 + 0.2 * ol_rng_uniform(&rng));
  ok(olt_graderr(p, x) <= 1e-6, "kmeans gradient vs differences: %.2g",
     olt_graderr(p, x));
  ok(olt_hesserr(p, x) <= 1e-6, "kmeans Hessian vs differences: %.2g",
     olt_hesserr(p, x));
  ol_rng_normals(&rng, v, N);
  t = 1e-6 * nrm(x, N) / nrm(v, N);
  for (i = 0; i < N; i++) {
    xp[i] = x[i] + t * v[i];
    xm[i] = x[i] - t * v[i];
  }
  egrad(p, xp, a);
  egrad(p, xm, b);
  p->hess(p->ud, x, H, &e);
  for (i = 0; i < N; i++) {
    int j;
    double s = 0;
    for (j = 0; j < N; j++) s += H[(size_t)i * N + j] * v[j];
    c[i] = s;
    a[i] = (a[i] - b[i]) / (2 * t);
  }
  ok(diffnrm(a, c, N) <= 1e-6 * nrm(c, N), "Hv vs differences of grad: "
     "%.2g relative", diffnrm(a, c, N) / nrm(c, N));
  /* (2) manifold at x0 */
  for (i = 0; i < N; i++) pos &= p->x0[i] > 0;
  ok(pos && M->violation(M, p->x0) <= 1e-12, "x0 > 0 on M (violation "
     "%.2g)", M->violation(M, p->x0));
  ol_rng_normals(&rng, v, N);
  M->proj(M, p->x0, v, a, NULL);
  dense_proj(p->x0, v, b, NN, RR);
  ok(diffnrm(a, b, N) <= 1e-12 * nrm(v, N), "projection = dense least "
     "squares: %.2g relative", diffnrm(a, b, N) / nrm(v, N));
  M->proj(M, a, a, c, NULL);
  M->proj(M, p->x0, a, c, NULL);
  ok(diffnrm(a, c, N) <= 1e-12 * nrm(a, N), "projection idempotent");
  egrad(p, p->x0, c);
  M->proj(M, p->x0, c, a, NULL);
  dense_proj(p->x0, c, b, NN, RR);
  ok(diffnrm(a, b, N) <= 1e-12 * nrm(c, N), "Riemannian gradient = "
     "projection of the Euclidean one: %.2g relative",
     diffnrm(a, b, N) / nrm(c, N));
  /* retraction: on M, first order */
  ol_rng_normals(&rng, v, N);
  M->proj(M, p->x0, v, v, NULL);
  t = 1e-3 / nrm(v, N);
  for (i = 0; i < N; i++) c[i] = t * v[i];
  M->retract(M, p->x0, c, a, &e);
  ok(M->violation(M, a) <= 1e-12, "R_x(v) on M: violation %.2g",
     M->violation(M, a));
  for (i = 0; i < N; i++) b[i] = p->x0[i] + c[i];
  e1 = diffnrm(a, b, N);
  for (i = 0; i < N; i++) c[i] = 0.1 * t * v[i];
  M->retract(M, p->x0, c, a, &e);
  for (i = 0; i < N; i++) b[i] = p->x0[i] + c[i];
  e10 = diffnrm(a, b, N);
  ok(e1 / e10 > 70 && e1 / e10 < 130, "||R_x(tv) - x - tv|| = O(t^2): "
     "ratio %.1f at t / 10", e1 / e10);
  /* Riemannian Hessian vs differences of grad along the retraction */
  t = 1e-5 / nrm(v, N);
  for (i = 0; i < N; i++) c[i] = t * v[i];
  M->retract(M, p->x0, c, xp, &e);
  for (i = 0; i < N; i++) c[i] = -t * v[i];
  M->retract(M, p->x0, c, xm, &e);
  {
    double *lam = malloc(sizeof(double) * M->m);
    rgrad(p, M, xp, a, lam);
    rgrad(p, M, xm, b, lam);
    free(lam);
  }
  for (i = 0; i < N; i++) a[i] = (a[i] - b[i]) / (2 * t);
  M->proj(M, p->x0, a, a, NULL);
  rhessv(p, M, p->x0, v, c);
  ok(diffnrm(a, c, N) <= 1e-6 * nrm(c, N), "Riemannian Hessian vs "
     "differences of grad along R: %.2g relative",
     diffnrm(a, c, N) / nrm(c, N));
  free(v);
  free(a);
  free(b);
  free(c);
  free(x);
  free(xp);
  free(xm);
  free(H);
  ol_problem_free(p);
}

static double result (ol_run *r, const char *name)
{
  const double *v;
  int rows, cols;
  if (!ol_method_result(ol_run_method(r), ol_run_state(r), name, &v, &rows,
                        &cols))
    return NAN;
  return v[0];
}

static void test_runs (void)
{
  static const double seps[] = {6, 8}, mus[] = {1, 1e-1, 1e-2, 1e-3};
  int si, seed, mi, quick = getenv("OPTLAB_QUICK") != NULL;
  if (quick) diag("OPTLAB_QUICK=1: sep 8, seed 1 only");
  for (si = quick; si < 2; si++)
    for (seed = 1; seed <= (quick ? 1 : 3); seed++) {
      double *x = NULL, viol = 0, lloyd = NAN, frelax = NAN, fk = NAN;
      double rg = NAN, lmin = NAN, miss = NAN, gap = NAN;
      long steps = 0;
      for (mi = 0; mi < 4; mi++) {
        ol_problem *p = olt_problem("kmeans", NULL, "n", (double)NN, "K",
                                    (double)KK, "sep", seps[si], "seed",
                                    (double)seed, "mu", mus[mi], NULL);
        const ol_manifold *M = ol_manifold_of(p);
        double par[3];
        const ol_method_type *m = olt_method("rcubic", par, "tol", 1e-6, NULL);
        ol_run_opts o = olt_opts(300, 0, OL_MSET_OF(OL_MET_LOSS));
        ol_run *r;
        long k;
        o.x0 = x;
        r = olt_run(p, m, par, &o);
        if (r == NULL) break;
        for (k = 0; k < 300 && ol_run_step(r) == OL_STOP_NONE; k++) {
          viol = fmax(viol, M->violation(M, ol_run_x(r)));
        }
        steps += k;
        free(x);
        x = malloc(sizeof(double) * p->n);
        memcpy(x, ol_run_x(r), sizeof(double) * p->n);
        lloyd = result(r, "lloyd");
        frelax = result(r, "frelax");
        fk = result(r, "fkmeans");
        rg = result(r, "rgrad");
        lmin = result(r, "lambda_min");
        miss = result(r, "misclass");
        gap = result(r, "gapbound");
        ol_run_free(r);
        ol_problem_free(p);
      }
      free(x);
      diag("sep %g seed %d: %ld steps, rgrad %.2g, lambda_min %.3g, "
           "misclass %g, fkmeans %.10g, lloyd %.10g, frelax %.10g",
           seps[si], seed, steps, rg, lmin, miss, fk, lloyd, frelax);
      ok(viol <= 1e-10, "sep %g seed %d: iterates on M (max violation "
         "%.2g)", seps[si], seed, viol);
      ok(rg <= 1e-6 && lmin >= -1e-3, "sep %g seed %d: eps-second-order "
         "point", seps[si], seed);
      ok(miss == 0, "sep %g seed %d: 0 misclassified", seps[si], seed);
      ok(fabs(fk - lloyd) <= 1e-9 * lloyd, "sep %g seed %d: its "
         "partition's objective = Lloyd's best", seps[si], seed);
      ok(frelax >= lloyd - 1e-6 && frelax <= lloyd + gap, "sep %g seed %d: "
         "relaxed objective - lloyd = %.3g in [0, n r mu]", seps[si], seed,
         frelax - lloyd);
    }
}

static void test_errors (void)
{
  ol_err e;
  ol_problem *p = olt_problem("kmeans", &e, "K", 4.0, "d", 3.0, NULL);
  ok(p == NULL && strstr(e.msg, "d must be >= K") != NULL, "d < K: %s",
     e.msg);
  p = olt_problem("kmeans", &e, "r", 3.0, NULL);
  ok(p == NULL && strstr(e.msg, "take r > K") != NULL, "r <= K: %s", e.msg);
  p = olt_problem("rosenbrock", NULL, NULL);
  {
    const ol_method_type *m = ol_method_find("rcubic");
    ok(m->check(m, p, &e) != OL_OK && strstr(e.msg, "optim.cubic") != NULL,
       "rcubic without a manifold: %s", e.msg);
  }
  ol_problem_free(p);
  p = olt_problem("kmeans", NULL, NULL);
  if (p != NULL) {
    double *x0 = malloc(sizeof(double) * p->n), par[3];
    const ol_method_type *m = olt_method("rcubic", par, NULL);
    ol_run_opts o = olt_opts(10, 0, OL_MSET_OF(OL_MET_LOSS));
    ol_run *r;
    int i;
    for (i = 0; i < p->n; i++) x0[i] = p->x0[i] * 1.01;
    o.x0 = x0;
    r = ol_run_new(p, m, par, &o, &e);
    ok(r == NULL && strstr(e.msg, "off the problem's manifold") != NULL,
       "rcubic from x0 off M: %s", r == NULL ? e.msg : "(started)");
    ol_run_free(r);
    free(x0);
    ol_problem_free(p);
  }
}

int main (void)
{
  test_oracles_manifold();
  test_errors();
  test_runs();
  return done();
}
