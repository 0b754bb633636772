/*
** tests/c/t_muon.c -- the polar factor, Muon, MuonBP and the matrix
** problems (matlsq, lowrank).
**
** Independent truth used here:
** (1) Newton-Schulz: G = U diag(s) V' built from Haar U, V (ol_mat_randorth)
**     and s in [0.2, 1]; NS maps each singular value through the scalar
**     quintic p(s) = a s + b s^3 + c s^5 from s / ||s||_2, iterated in this
**     file, and keeps U, V: so O = U diag(p^5(s / ||s||)) V' exactly.
** (2) Exact polar: O = U V' of the same construction; O'O = I.
** (3) Muon's first two iterates on a 2 x 2 problem with the 2 x 2 polar
**     factor in closed form (A + sign(det A) cof(A)) / sqrt|det(...)|,
**     and the shape factor on a 4 x 1 matrix (polar of a column = g/||g||).
** (4) MuonBP's block step against polar factors from LAPACKE_dgesvd called
**     here; period 1 reproduces Muon step for step.
** (5) Gradients of both problems against central differences, the matlsq
**     Hessian against differences of the gradient, f(x*) = 0.
** (6) Convergence claims: muon (both polar kinds) and muonbp reduce f on
**     matlsq{64, 32, 16} by 1e-4 within 500 steps at default parameters.
** Seeds are fixed and printed.
*/
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "olt.h"
#include "polar.h"
#include "problem.h"
#include "rng.h"
#include "run.h"
#include "tap.h"
#include "vec.h"

static double fro_diff (const double *a, const double *b, int n)
{
  double s = 0;
  int i;
  for (i = 0; i < n; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
  return sqrt(s);
}

/* C = A B with A m x k, B k x n (row-major), plain loops. */
static void matmul (int m, int k, int n, const double *A, const double *B,
                    double *C)
{
  int i, j, l;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      double s = 0;
      for (l = 0; l < k; l++) s += A[i * k + l] * B[l * n + j];
      C[i * n + j] = s;
    }
}

/* ||O'O - I||_F on the smaller side, plain loops. */
static double orth_err (int m, int n, const double *O)
{
  int k = m < n ? m : n, i, j, l;
  double s = 0;
  for (i = 0; i < k; i++)
    for (j = 0; j < k; j++) {
      double d = 0;
      if (m <= n)
        for (l = 0; l < n; l++) d += O[i * n + l] * O[j * n + l];
      else
        for (l = 0; l < m; l++) d += O[l * n + i] * O[l * n + j];
      d -= i == j;
      s += d * d;
    }
  return sqrt(s);
}

/* Reference polar factor U V' from LAPACKE_dgesvd (row-major). */
static int ref_polar (int m, int n, const double *A, double *O)
{
  int k = m < n ? m : n, rc;
  size_t d = sizeof(double);
  double *a = malloc(d * m * n), *s = malloc(d * k);
  double *u = malloc(d * m * k), *vt = malloc(d * k * n);
  double *sup = malloc(d * (k + 1));
  memcpy(a, A, sizeof(double) * m * n);
  rc = LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'S', 'S', m, n, a, n, s, u, k, vt, n,
                      sup);
  if (rc == 0) matmul(m, k, n, u, vt, O);
  free(a);
  free(s);
  free(u);
  free(vt);
  free(sup);
  return rc == 0;
}

/* Singular values (descending) of A, m x n, into s. */
static int svals (int m, int n, const double *A, double *s)
{
  int k = m < n ? m : n, rc;
  double *a = malloc(sizeof(double) * m * n);
  double *sup = malloc(sizeof(double) * (k + 1));
  memcpy(a, A, sizeof(double) * m * n);
  rc = LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'N', 'N', m, n, a, n, s, NULL, 1,
                      NULL, 1, sup);
  free(a);
  free(sup);
  return rc == 0;
}

/* 2 x 2 polar factor in closed form: Q = A + sign(det A) cof(A),
** cof([a b; c d]) = [d -c; -b a], polar = Q / sqrt|det Q|. */
static void polar2 (const double *A, double *O)
{
  double sg = A[0] * A[3] - A[1] * A[2] >= 0 ? 1 : -1, q[4], dq;
  int i;
  q[0] = A[0] + sg * A[3];
  q[1] = A[1] - sg * A[2];
  q[2] = A[2] - sg * A[1];
  q[3] = A[3] + sg * A[0];
  dq = sqrt(fabs(q[0] * q[3] - q[1] * q[2]));
  for (i = 0; i < 4; i++) O[i] = q[i] / dq;
}

/* == (1) (2) polar factors ================================================ */

static void test_polar (int m, int n, uint64_t seed)
{
  const double a = 3.4445, b = -4.7750, c = 2.0315;
  int k = m < n ? m : n, i, j, l, st;
  size_t d = sizeof(double);
  double *U = malloc(d * m * m), *V = malloc(d * n * n);
  double *G = malloc(d * m * n), *O = malloc(d * m * n);
  double *E = malloc(d * m * n), *P = malloc(d * m * n);
  double s[64], t[64], sv[64], nrm = 0, tmin = INFINITY, tmax = 0, dev = 0;
  double *work;
  size_t wn, ws;
  ol_rng rng;
  ol_err e;
  diag("polar %d x %d: seed %llu", m, n, (unsigned long long)seed);
  ol_rng_seed(&rng, seed, 0);
  if (ol_mat_randorth(m, &rng, U, &e) != OL_OK ||
      ol_mat_randorth(n, &rng, V, &e) != OL_OK) {
    ok(0, "polar: random orthogonal factors (%s)", e.msg);
    return;
  }
  /* G = U_k diag(s) V_k', s evenly in [0.2, 1] */
  for (l = 0; l < k; l++) {
    s[l] = 0.2 + 0.8 * l / (k - 1);
    nrm += s[l] * s[l];
  }
  nrm = sqrt(nrm);
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      double g = 0, uv = 0, e5 = 0;
      for (l = 0; l < k; l++) {
        double x = s[l] / nrm;
        for (st = 0; st < 5; st++) x = a * x + b * x * x * x + c * pow(x, 5);
        t[l] = x;
        g += U[i * m + l] * s[l] * V[j * n + l];
        uv += U[i * m + l] * V[j * n + l];
        e5 += U[i * m + l] * x * V[j * n + l];
      }
      G[i * n + j] = g;
      P[i * n + j] = uv;
      E[i * n + j] = e5;
    }
  for (l = 0; l < k; l++) {
    if (t[l] < tmin) tmin = t[l];
    if (t[l] > tmax) tmax = t[l];
    if (fabs(t[l] - 1) > dev) dev = fabs(t[l] - 1);
  }
  diag("NS5 band for s/||s|| in [%.3f, %.3f]: [%.4f, %.4f]", s[0] / nrm,
       s[k - 1] / nrm, tmin, tmax);
  /* Newton-Schulz, 5 steps */
  wn = ol_polar_ns5_work(m, n);
  ws = ol_polar_svd_work(m, n);
  ok(ws > 0, "polar: dgesvd workspace query gives a size (%zu)", ws);
  work = malloc(sizeof(double) * (wn > ws ? wn : ws));
  ol_polar_ns5(m, n, G, O, 5, work);
  ok(fro_diff(O, E, m * n) <= 1e-12, "polar: ns5 %dx%d equals U diag(p^5(s/"
     "||s||)) V' (diff %.2e <= 1e-12)", m, n, fro_diff(O, E, m * n));
  ok(svals(m, n, O, sv), "polar: dgesvd of the ns5 output");
  for (l = 0, st = 1; l < k; l++)
    if (sv[l] < tmin - 1e-12 || sv[l] > tmax + 1e-12) st = 0;
  ok(st, "polar: ns5 %dx%d singular values in the band [%.4f, %.4f] "
     "(got [%.4f, %.4f])", m, n, tmin, tmax, sv[k - 1], sv[0]);
  ok(tmin > 0.6 && tmax < 1.2, "polar: the band after 5 steps lies in "
     "[0.6, 1.2]");
  ok(fro_diff(O, P, m * n) <= dev * sqrt(k) + 1e-12 &&
     fro_diff(O, P, m * n) < 0.5 * sqrt(k),
     "polar: ns5 %dx%d is within the band of U V' (||O - UV'|| = %.3f <= "
     "%.3f)", m, n, fro_diff(O, P, m * n), dev * sqrt(k));
  is_near(ol_polar_ortherr(m, n, O, work), orth_err(m, n, O), 1e-12,
          "polar: ortherr of the ns5 output matches a plain-loop O'O - I");
  /* G and O may alias; 0 steps is G / ||G||_F */
  memcpy(E, G, sizeof(double) * m * n);
  ol_polar_ns5(m, n, E, E, 5, work);
  ok(fro_diff(E, O, m * n) == 0, "polar: ns5 in place (G == O) gives the "
     "same result");
  ol_polar_ns5(m, n, G, E, 0, work);
  for (i = 0; i < m * n; i++) P[i] = G[i] / nrm;
  ok(fro_diff(E, P, m * n) <= 1e-14, "polar: ns5 with 0 steps is G/||G||_F");
  /* exact factor */
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      double uv = 0;
      for (l = 0; l < k; l++) uv += U[i * m + l] * V[j * n + l];
      P[i * n + j] = uv;
    }
  ok(ol_polar_svd(m, n, G, O, work, ws, &e) == OL_OK, "polar: svd %dx%d "
     "succeeds", m, n);
  ok(fro_diff(O, P, m * n) <= 1e-12, "polar: svd %dx%d equals U V' (diff "
     "%.2e <= 1e-12)", m, n, fro_diff(O, P, m * n));
  ok(orth_err(m, n, O) <= 1e-12, "polar: svd %dx%d factor has orthonormal "
     "rows/columns (||O'O - I|| = %.1e)", m, n, orth_err(m, n, O));
  is_int(ol_polar_svd(m, n, G, O, work, 3, &e), OL_EINVAL,
         "polar: svd refuses a too small workspace");
  memset(E, 0, sizeof(double) * m * n);
  ol_polar_ns5(m, n, E, O, 5, work);
  ok(ol_vec_nrm2(O, m * n) == 0, "polar: ns5 of 0 is 0");
  free(U); free(V); free(G); free(O); free(E); free(P); free(work);
}

static void test_parts (void)
{
  int rows[OL_POLAR_MAXPARTS], mr[2] = {30, 20}, one[1] = {3}, np, i, st;
  const int want[8] = {8, 8, 7, 7, 5, 5, 5, 5};
  np = ol_polar_parts(2, mr, 4, rows);
  for (i = 0, st = np == 8; st && i < 8; i++) st = rows[i] == want[i];
  ok(st, "polar: parts of {30, 20} split 4 are {8,8,7,7,5,5,5,5}");
  np = ol_polar_parts(1, one, 5, rows);
  ok(np == 3 && rows[0] == 1 && rows[2] == 1,
     "polar: a 3-row matrix splits into at most 3 parts");
}

/* == (3) Muon by hand ====================================================== */

/* Iterates x1, x2 of method m (params par) on p; 0 on failure. */
static int two_steps (const ol_problem *p, const ol_method_type *m,
                      const double *par, double *x1, double *x2)
{
  ol_run_opts o = olt_opts(10, 0, OL_MSET_EMPTY);
  return olt_two_steps(p, m, par, &o, x1, x2);
}

static void grad (const ol_problem *p, const double *x, double *g)
{
  ol_err e;
  double f, *w = malloc(sizeof(double) * p->n);
  ol_problem_eval(p, x, &f, g, w, &e);
  free(w);
}

static void test_muon_hand (void)
{
  const ol_method_type *mu = ol_method_find("muon");
  ol_problem *p = olt_problem("matlsq", NULL, "m", 2.0, "n", 2.0, "k", 2.0,
                              "seed", 3.0, (char *)NULL);
  double par[8], x1[4], x2[4], h1[4], h2[4], G0[4], G1[4], M[4], D[4], O[4];
  const double lr = 0.1, b = 0.9;
  int i, nest;
  if (mu == NULL || p == NULL) {
    ok(0, "muon: registered and matlsq{2,2,2} builds");
    return;
  }
  for (nest = 0; nest <= 1; nest++) {
    olt_params(mu, par, "lr", lr, "mu", b, "nesterov", (double)nest,
               "polar", 1.0, (char *)NULL);
    if (!two_steps(p, mu, par, x1, x2)) {
      ok(0, "muon: two steps on matlsq{2,2,2}");
      continue;
    }
    /* x1 = x0 - lr P(D1), D1 = G0 (+ mu G0); scale sqrt(max(1, 2/2)) = 1 */
    grad(p, p->x0, G0);
    for (i = 0; i < 4; i++) {
      M[i] = G0[i];
      D[i] = nest ? G0[i] + b * M[i] : M[i];
    }
    polar2(D, O);
    for (i = 0; i < 4; i++) h1[i] = p->x0[i] - lr * O[i];
    grad(p, h1, G1);
    for (i = 0; i < 4; i++) {
      M[i] = b * M[i] + G1[i];
      D[i] = nest ? G1[i] + b * M[i] : M[i];
    }
    polar2(D, O);
    for (i = 0; i < 4; i++) h2[i] = h1[i] - lr * O[i];
    ok(fro_diff(x1, h1, 4) <= 1e-13, "muon: first iterate on 2x2 by hand, "
       "nesterov %d, polar svd (diff %.1e)", nest, fro_diff(x1, h1, 4));
    ok(fro_diff(x2, h2, 4) <= 1e-12, "muon: second iterate on 2x2 by hand, "
       "nesterov %d, polar svd (diff %.1e)", nest, fro_diff(x2, h2, 4));
  }
  ol_problem_free(p);
  /* shape factor: a 4 x 1 matrix, polar = g / ||g||, scale sqrt(4) */
  p = olt_problem("matlsq", NULL, "m", 8.0, "n", 4.0, "k", 1.0, (char *)NULL);
  if (p != NULL) {
    double y1[4], y2[4], g[4], w[4], gn;
    olt_params(mu, par, "lr", lr, "polar", 1.0, (char *)NULL);
    if (two_steps(p, mu, par, y1, y2)) {
      grad(p, p->x0, g);
      gn = ol_vec_nrm2(g, 4);
      for (i = 0; i < 4; i++) w[i] = p->x0[i] - lr * 2 * g[i] / gn;
      ok(fro_diff(y1, w, 4) <= 1e-14, "muon: 4x1 step is lr sqrt(4/1) g/||g|| "
         "(shape scaling sqrt(max(1, rows/cols)))");
    }
    else ok(0, "muon: steps on a 4x1 matrix");
    ol_problem_free(p);
  }
  /* not a matrix problem: refused */
  p = olt_problem("quadratic", NULL, (char *)NULL);
  if (p != NULL) {
    ol_err e;
    ol_run_opts o;
    ol_run *r;
    ol_run_opts_default(&o);
    olt_params(mu, par, (char *)NULL);
    r = ol_run_new(p, mu, par, &o, &e);
    ok(r == NULL, "muon: a plain-vector problem is refused (%s)",
       r == NULL ? e.msg : "accepted");
    ol_run_free(r);
    ol_problem_free(p);
  }
}

/* == (4) MuonBP ============================================================ */

/* x after T steps of method name with params on p into x; 0 on failure. */
static int run_x (const ol_problem *p, const ol_method_type *m,
                  const double *par, long T, double *x, double *ortherr)
{
  ol_run_opts o = olt_opts(T, 0, OL_MSET_OF(OL_MET_LOSS, OL_MET_ORTHERR));
  ol_run *r = olt_go(p, m, par, &o);
  if (r == NULL) return 0;
  if (ol_run_iter(r) != T) {
    diag("%s stopped at %ld: %s", m->name, ol_run_iter(r), ol_run_message(r));
    ol_run_free(r);
    return 0;
  }
  memcpy(x, ol_run_x(r), sizeof(double) * p->n);
  if (ortherr != NULL) *ortherr = ol_run_last(r, OL_MET_ORTHERR);
  ol_run_free(r);
  return 1;
}

static void test_muonbp (void)
{
  const ol_method_type *mu = ol_method_find("muon");
  const ol_method_type *bp = ol_method_find("muonbp");
  const char *names[2] = {"matlsq", "lowrank"};
  double par[16], pbp[16];
  int q, pol, i;
  if (mu == NULL || bp == NULL) {
    ok(0, "muonbp: muon and muonbp registered");
    return;
  }
  /* period 1 is Muon */
  for (q = 0; q < 2; q++)
    for (pol = 0; pol <= 1; pol++) {
      ol_problem *p = olt_problem(names[q], NULL, (char *)NULL);
      double *xa, *xb, ea = NAN, eb = NAN;
      if (p == NULL) continue;
      xa = malloc(sizeof(double) * p->n);
      xb = malloc(sizeof(double) * p->n);
      olt_params(mu, par, "polar", (double)pol, (char *)NULL);
      olt_params(bp, pbp, "polar", (double)pol, "period", 1.0, "blocks", 4.0,
                 "lr_block", 0.5, (char *)NULL);
      if (run_x(p, mu, par, 30, xa, &ea) && run_x(p, bp, pbp, 30, xb, &eb)) {
        double d = fro_diff(xa, xb, p->n);
        ok(d <= 1e-12 && fabs(ea - eb) <= 1e-12, "muonbp: period 1 equals "
           "muon on %s, polar %s (30 steps, diff %.1e, ortherr %.3g)",
           names[q], pol ? "svd" : "ns", d, eb);
      }
      else ok(0, "muonbp: 30 steps of muon and muonbp on %s", names[q]);
      free(xa);
      free(xb);
      ol_problem_free(p);
    }
  /* a full step, then a block step, against reference polar factors */
  {
    ol_problem *p = olt_problem("matlsq", NULL, "m", 12.0, "n", 6.0, "k", 3.0,
                                "seed", 5.0, (char *)NULL);
    double x1[18], x2[18], h1[18], h2[18], G0[18], G1[18], M[18], O[18];
    const double lr = 0.05, lrb = 0.03, b = 0.8;
    if (p == NULL) return;
    olt_params(bp, pbp, "lr", lr, "lr_block", lrb, "mu", b, "nesterov", 0.0,
               "polar", 1.0, "blocks", 2.0, "period", 1000.0, (char *)NULL);
    if (!two_steps(p, bp, pbp, x1, x2)) {
      ok(0, "muonbp: two steps on matlsq{12, 6, 3}");
      ol_problem_free(p);
      return;
    }
    grad(p, p->x0, G0);
    ref_polar(6, 3, G0, O);
    for (i = 0; i < 18; i++) h1[i] = p->x0[i] - lr * sqrt(2.0) * O[i];
    grad(p, h1, G1);
    for (i = 0; i < 18; i++) M[i] = b * G0[i] + G1[i];
    ref_polar(3, 3, M, O);
    ref_polar(3, 3, M + 9, O + 9);
    for (i = 0; i < 18; i++) h2[i] = h1[i] - lrb * O[i];
    ok(fro_diff(x1, h1, 18) <= 1e-13, "muonbp: step t=0 is a full step with "
       "lr and scale sqrt(6/3) (diff %.1e)", fro_diff(x1, h1, 18));
    ok(fro_diff(x2, h2, 18) <= 1e-12, "muonbp: step t=1 orthogonalises the "
       "two 3x3 row blocks with lr_block (diff %.1e)",
       fro_diff(x2, h2, 18));
    ol_problem_free(p);
  }
}

/* == (5) problems ========================================================== */

/* Max |g - central difference| relative to max(1, |g|) at a random x. */
static double fd_check (const ol_problem *p, uint64_t seed)
{
  int n = p->n, i;
  double *x = malloc(sizeof(double) * n), *g = malloc(sizeof(double) * n);
  double f, fp, fm, h = 1e-5, worst = 0;
  ol_rng rng;
  ol_err e;
  ol_rng_seed(&rng, seed, 0);
  ol_rng_normals(&rng, x, n);
  p->fdf(p->ud, x, &f, g, &e);
  for (i = 0; i < n; i++) {
    double xi = x[i], d;
    x[i] = xi + h;
    p->fdf(p->ud, x, &fp, NULL, &e);
    x[i] = xi - h;
    p->fdf(p->ud, x, &fm, NULL, &e);
    x[i] = xi;
    d = fabs((fp - fm) / (2 * h) - g[i]) / fmax(1, fabs(g[i]));
    if (d > worst) worst = d;
  }
  free(x);
  free(g);
  return worst;
}

static void test_problems (void)
{
  ol_problem *p = olt_problem("matlsq", NULL, "m", 7.0, "n", 5.0, "k", 3.0,
                              (char *)NULL);
  ol_err e;
  int i, j;
  diag("finite differences: seed 11, h = 1e-5");
  if (p != NULL) {
    double d = fd_check(p, 11), f, g[15], H[225], gp[15], gm[15], x[15];
    double worst = 0, h = 1e-5;
    ok(p->n == 15 && p->mrows == 5 && p->mcols == 3 && p->mblocks[0] == 0,
       "matlsq: x is the 5 x 3 matrix W");
    ok(d <= 1e-8, "matlsq: gradient matches central differences (%.1e)", d);
    ok(p->xstar != NULL && p->fstar == 0, "matlsq: m >= n has x* and f* = 0");
    p->fdf(p->ud, p->xstar, &f, g, &e);
    ok(f <= 1e-24 && ol_vec_nrm2(g, 15) <= 1e-12,
       "matlsq: f(W_true) = 0 and grad = 0 (f %.1e)", f);
    ok(p->hess != NULL && p->hess(p->ud, p->xstar, H, &e) == OL_OK,
       "matlsq: Hessian oracle");
    for (i = 0; i < 15; i++) x[i] = 0.1 * i;
    for (j = 0; j < 15; j++) {
      double xj = x[j];
      x[j] = xj + h;
      p->fdf(p->ud, x, NULL, gp, &e);
      x[j] = xj - h;
      p->fdf(p->ud, x, NULL, gm, &e);
      x[j] = xj;
      for (i = 0; i < 15; i++) {
        double dd = fabs((gp[i] - gm[i]) / (2 * h) - H[i * 15 + j]);
        if (dd > worst) worst = dd;
      }
    }
    ok(worst <= 1e-8, "matlsq: Hessian matches differences of the gradient "
       "(%.1e)", worst);
    ol_problem_free(p);
  }
  p = olt_problem("matlsq", NULL, "m", 4.0, "n", 6.0, "k", 2.0, (char *)NULL);
  ok(p != NULL && p->xstar == NULL && p->fstar == 0,
     "matlsq: m < n has no unique x* (NULL) but f* = 0");
  ol_problem_free(p);
  p = olt_problem("lowrank", NULL, "m", 6.0, "n", 5.0, "r", 2.0, (char *)NULL);
  if (p != NULL) {
    double d = fd_check(p, 12);
    ok(p->n == 22 && p->mrows == 11 && p->mcols == 2 && p->mblocks[0] == 6 &&
       p->mblocks[1] == 5 && p->mblocks[2] == 0,
       "lowrank: x = [U; V] stacks a 6 x 2 and a 5 x 2 matrix");
    ok(d <= 1e-8, "lowrank: gradient matches central differences (%.1e)", d);
    ok(p->xstar == NULL && p->fstar == 0, "lowrank: f* = 0, x* not unique");
    ol_problem_free(p);
  }
}

/* == (6) convergence and the probe ======================================== */

static void test_converge (void)
{
  const char *mn[3] = {"muon", "muon", "muonbp"};
  const int pol[3] = {0, 1, 0};
  ol_problem *p = olt_problem("matlsq", NULL, (char *)NULL);
  int q;
  if (p == NULL) return;
  for (q = 0; q < 3; q++) {
    const ol_method_type *m = ol_method_find(mn[q]);
    double par[16], f0, f1, oe = NAN, *x = malloc(sizeof(double) * p->n);
    ol_err e;
    if (m == NULL) continue;
    olt_params(m, par, "polar", (double)pol[q], (char *)NULL);
    p->fdf(p->ud, p->x0, &f0, NULL, &e);
    if (!run_x(p, m, par, 500, x, &oe)) {
      ok(0, "%s: 500 steps on matlsq", mn[q]);
      free(x);
      continue;
    }
    p->fdf(p->ud, x, &f1, NULL, &e);
    ok(f1 <= 1e-4 * f0, "%s (polar %s): f drops by 1e-4 on matlsq{64, 32, 16}"
       " in 500 steps (f %.3g -> %.3g)", mn[q], pol[q] ? "svd" : "ns", f0, f1);
    if (pol[q] == 1)
      ok(oe <= 1e-12, "%s: ortherr probe ~0 with the svd polar (%.1e)",
         mn[q], oe);
    else
      ok(oe > 1e-3 && oe <= 4, "%s: ortherr probe > 0 with Newton-Schulz "
         "and <= sqrt(16) (%.3f)", mn[q], oe);
    free(x);
  }
  /* the probe after one ns step equals ||O'O - I|| of O = -x1/(lr sqrt 2) */
  {
    const ol_method_type *m = ol_method_find("muon");
    double par[16], oe = NAN, *x = malloc(sizeof(double) * p->n);
    int i;
    olt_params(m, par, "lr", 0.02, (char *)NULL);
    if (run_x(p, m, par, 1, x, &oe)) {
      for (i = 0; i < p->n; i++) x[i] = -x[i] / (0.02 * sqrt(2.0));
      is_near(oe, orth_err(32, 16, x), 1e-10, "muon: ortherr probe after one"
              " step is ||O'O - I||_F of the step's factor (%.4f)", oe);
    }
    else ok(0, "muon: one step on matlsq");
    free(x);
  }
  ol_problem_free(p);
}

int main (void)
{
  test_polar(6, 10, 7);
  test_polar(10, 6, 8);
  test_parts();
  test_muon_hand();
  test_muonbp();
  test_problems();
  test_converge();
  return done();
}
