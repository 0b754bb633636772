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
** (7) Randomized low-rank polar (B177; Halko, Martinsson & Tropp 2011):
**     on G = U_r diag(s) V_r' of exact rank r <= rank (Haar U, V) the
**     factor equals U_r V_r' built from those U, V to 1e-10, at power
**     iterations 0 and 1, tall and wide.  On a full-rank G with a decaying
**     spectrum (sigma_j = 0.7^(j-1), times 1e-3 past r) the sketch is
**     rebuilt here (the same seed's Omega, Gram-Schmidt on G Omega, plain
**     loops) and (a) O equals the top-r U V' of Q Q'G from dgesvd here to
**     1e-10; (b) eps = ||G - Q Q'G||_F is within HMT's deviation bound
**     for the Frobenius error (section 10.3, Theorem 10.7):
**     eps <= (1 + t sqrt(12 k / p)) tau_k + u t e sqrt(k + p) / (p + 1)
**     sigma_{k+1}, tau_k^2 = sum_{j>k} sigma_j^2, t = u = 4, k = r, p >= 4
**     (failure probability <= 5 t^-p + e^(-u^2/2) = 0.0016 a draw);
**     (c) ||O - U_r V_r'||_F <= eps / (delta - 2 eps), delta = sigma_r -
**     sigma_{r+1}: the truncated polar factor A -> U_r V_r' has Frechet
**     derivative of norm <= 1 / (sigma_r - sigma_{r+1}) (the divided
**     differences of the generalized matrix function, Noferini 2017),
**     integrated along A - t E with Weyl's inequality for the gap;
**     and the same with HMT's bound in place of eps.  M38: ortherr of a
**     rank-r factor of a k-sided matrix is sqrt(k - r) exactly (O'O is a
**     rank-r projector).  Muon with polar = "lowrank": rank = min side
**     tracks polar = "svd" step for step (and so do muonbp's and adago's);
**     rank 4 reduces f on matlsq by
**     1e-4 in 1000 steps; a run replays at its seed; a rank out of range is
**     refused naming [1, min(m, n)].
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

/* == (7) randomized low-rank polar ======================================== */

/* Top-r polar factor U_r V_r' of A (m x n) from LAPACKE_dgesvd. */
static int ref_polar_r (int m, int n, const double *A, int r, double *O)
{
  int k = m < n ? m : n, rc, i, j, l;
  size_t d = sizeof(double);
  double *a = malloc(d * m * n), *s = malloc(d * k);
  double *u = malloc(d * m * k), *vt = malloc(d * k * n);
  double *sup = malloc(d * (k + 1));
  memcpy(a, A, d * m * n);
  rc = LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'S', 'S', m, n, a, n, s, u, k, vt, n,
                      sup);
  if (rc == 0)
    for (i = 0; i < m; i++)
      for (j = 0; j < n; j++) {
        double t = 0;
        for (l = 0; l < r; l++) t += u[i * k + l] * vt[l * n + j];
        O[i * n + j] = t;
      }
  free(a); free(s); free(u); free(vt); free(sup);
  return rc == 0;
}

/* G = sum_{l<k} s_l U_l V_l' and P = sum_{l<r} U_l V_l' from Haar U
** (m x m), V (n x n) drawn from rng; 0 on failure. */
static int build (int m, int n, const double *s, int r, ol_rng *rng,
                  double *G, double *P)
{
  int k = m < n ? m : n, i, j, l;
  double *U = malloc(sizeof(double) * m * m);
  double *V = malloc(sizeof(double) * n * n);
  ol_err e;
  int good = ol_mat_randorth(m, rng, U, &e) == OL_OK &&
    ol_mat_randorth(n, rng, V, &e) == OL_OK;
  if (good)
    for (i = 0; i < m; i++)
      for (j = 0; j < n; j++) {
        double g = 0, pv = 0;
        for (l = 0; l < k; l++) {
          g += U[i * m + l] * s[l] * V[j * n + l];
          if (l < r) pv += U[i * m + l] * V[j * n + l];
        }
        G[i * n + j] = g;
        P[i * n + j] = pv;
      }
  free(U);
  free(V);
  return good;
}

static void test_lowrank_exact (int m, int n, int r, int rank,
                                uint64_t seed)
{
  int k = m < n ? m : n, l, q, kept = -1;
  size_t d = sizeof(double), ws;
  double *G = malloc(d * m * n), *P = malloc(d * m * n);
  double *O = malloc(d * m * n), *work, s[64];
  ol_rng rng;
  ol_err e;
  diag("lowrank polar %d x %d, exact rank %d, rank %d: seed %llu", m, n, r,
       rank, (unsigned long long)seed);
  for (l = 0; l < k; l++) s[l] = l < r ? 1.0 + l : 0.0;
  ol_rng_seed(&rng, seed, 0);
  if (!build(m, n, s, r, &rng, G, P)) {
    ok(0, "lowrank: random orthogonal factors");
    free(G); free(P); free(O);
    return;
  }
  ws = ol_polar_lowrank_work(m, n, rank, 5);
  ok(ws > 0, "lowrank: workspace query for %d x %d rank %d (%zu)", m, n,
     rank, ws);
  work = malloc(d * (ws > 0 ? ws : 1));
  for (q = 0; q <= 1; q++) {
    int rc = ol_polar_lowrank(m, n, G, O, rank, 5, q, &rng, work, ws, &kept,
                              &e);
    ok(rc == OL_OK && fro_diff(O, P, m * n) <= 1e-10 && kept == r,
       "lowrank: %dx%d of exact rank %d, rank %d, power_iters %d equals "
       "U_r V_r' (diff %.2e <= 1e-10, kept %d)", m, n, r, rank, q,
       fro_diff(O, P, m * n), kept);
  }
  /* in place (G == O): G is read before O is written */
  memcpy(O, G, d * m * n);
  ok(ol_polar_lowrank(m, n, O, O, rank, 5, 1, &rng, work, ws, NULL, &e)
     == OL_OK && fro_diff(O, P, m * n) <= 1e-10,
     "lowrank: in place (G == O) gives U_r V_r'");
  is_near(ol_polar_ortherr(m, n, O, work), sqrt((double)(k - r)), 1e-10,
          "lowrank: M38 ortherr of a rank-%d factor of a %d-sided matrix is "
          "sqrt(%d - %d)", r, k, k, r);
  memset(G, 0, d * m * n);
  ok(ol_polar_lowrank(m, n, G, O, rank, 5, 1, &rng, work, ws, &kept, &e)
     == OL_OK && ol_vec_nrm2(O, m * n) == 0 && kept == 0,
     "lowrank: the factor of 0 is 0");
  is_int(ol_polar_lowrank(m, n, G, O, rank, 5, 1, &rng, work, 3, NULL, &e),
         OL_EINVAL, "lowrank: a too small workspace is refused");
  is_int(ol_polar_lowrank(m, n, G, O, k + 1, 5, 1, &rng, work, ws, NULL, &e),
         OL_EINVAL, "lowrank: rank %d > min(m, n) is refused (%s)", k + 1,
         e.msg);
  ok(ol_polar_lowrank_work(m, n, 0, 5) == 0 &&
     ol_polar_lowrank_work(m, n, k + 1, 5) == 0,
     "lowrank: no workspace for rank 0 or min(m, n) + 1");
  free(G); free(P); free(O); free(work);
}

/* Q (m x l, row-major) = orth(Y) by modified Gram-Schmidt, twice. */
static void mgs (int m, int l, double *Y)
{
  int i, j, c, pass;
  for (j = 0; j < l; j++)
    for (pass = 0; pass < 2; pass++) {
      double nr = 0;
      for (c = 0; c < j; c++) {
        double t = 0;
        for (i = 0; i < m; i++) t += Y[i * l + c] * Y[i * l + j];
        for (i = 0; i < m; i++) Y[i * l + j] -= t * Y[i * l + c];
      }
      for (i = 0; i < m; i++) nr += Y[i * l + j] * Y[i * l + j];
      nr = sqrt(nr);
      for (i = 0; i < m; i++) Y[i * l + j] /= nr;
    }
}

/* The sketch of ol_polar_lowrank rebuilt with plain loops: Q (m x l,
** row-major) from Omega (n x l column by column, drawn from rng) by
** Gram-Schmidt, q power iterations; C = Q Q'G. */
static void sketch (int m, int n, int l, int q, const double *G, ol_rng *rng,
                    double *C)
{
  size_t d = sizeof(double);
  double *Om = malloc(d * n * l), *Y = malloc(d * m * l);
  double *Z = malloc(d * n * l), *B = malloc(d * l * n);
  int i, j, c, it;
  ol_rng_normals(rng, Om, n * l);
  for (i = 0; i < m; i++)
    for (c = 0; c < l; c++) {
      double t = 0;
      for (j = 0; j < n; j++) t += G[i * n + j] * Om[c * n + j];
      Y[i * l + c] = t;
    }
  mgs(m, l, Y);
  for (it = 0; it < q; it++) {
    for (j = 0; j < n; j++)
      for (c = 0; c < l; c++) {
        double t = 0;
        for (i = 0; i < m; i++) t += G[i * n + j] * Y[i * l + c];
        Z[j * l + c] = t;
      }
    mgs(n, l, Z);
    for (i = 0; i < m; i++)
      for (c = 0; c < l; c++) {
        double t = 0;
        for (j = 0; j < n; j++) t += G[i * n + j] * Z[j * l + c];
        Y[i * l + c] = t;
      }
    mgs(m, l, Y);
  }
  for (c = 0; c < l; c++)
    for (j = 0; j < n; j++) {
      double t = 0;
      for (i = 0; i < m; i++) t += Y[i * l + c] * G[i * n + j];
      B[c * n + j] = t;
    }
  matmul(m, l, n, Y, B, C);
  free(Om); free(Y); free(Z); free(B);
}

static void test_lowrank_hmt (uint64_t seed)
{
  const int m = 60, n = 40, r = 4, p = 6, l = r + p, k = 40;
  const double tt = 4, uu = 4;
  int j, q;
  size_t d = sizeof(double), ws;
  double *G = malloc(d * m * n), *P = malloc(d * m * n);
  double *O = malloc(d * m * n), *C = malloc(d * m * n);
  double *R = malloc(d * m * n), *work, s[64], tail = 0, beta, delta;
  ol_rng rng;
  ol_err e;
  diag("lowrank polar vs HMT, %d x %d, r %d, p %d: seed %llu", m, n, r, p,
       (unsigned long long)seed);
  for (j = 0; j < k; j++) {
    s[j] = pow(0.7, j) * (j < r ? 1 : 1e-3);
    if (j >= r) tail += s[j] * s[j];
  }
  tail = sqrt(tail);
  delta = s[r - 1] - s[r];
  beta = (1 + tt * sqrt(12.0 * r / p)) * tail
    + uu * tt * exp(1.0) * sqrt((double)(r + p)) / (p + 1) * s[r];
  ol_rng_seed(&rng, seed, 0);
  ws = ol_polar_lowrank_work(m, n, r, p);
  work = malloc(d * ws);
  if (!build(m, n, s, r, &rng, G, P) || ws == 0) {
    ok(0, "lowrank hmt: random orthogonal factors and workspace");
    free(G); free(P); free(O); free(C); free(R); free(work);
    return;
  }
  for (q = 0; q <= 1; q++) {
    ol_rng r2 = rng;
    double eps, err;
    ok(ol_polar_lowrank(m, n, G, O, r, p, q, &rng, work, ws, NULL, &e)
       == OL_OK, "lowrank hmt: power_iters %d runs", q);
    sketch(m, n, l, q, G, &r2, C);
    eps = fro_diff(G, C, m * n);
    if (!ref_polar_r(m, n, C, r, R)) memset(R, 0, d * m * n);
    ok(fro_diff(O, R, m * n) <= 1e-10,
       "lowrank hmt: power_iters %d: O equals the top-%d U V' of Q Q'G "
       "(HMT Alg. 4.1/4.4 + SVD, rebuilt here) (diff %.2e)", q, r,
       fro_diff(O, R, m * n));
    err = fro_diff(O, P, m * n);
    diag("power_iters %d: eps = ||G - QQ'G||_F = %.3e, ||O - U_r V_r'||_F "
         "= %.3e, M38 ||O'O - I||_F = %.4f", q, eps, err,
         ol_polar_ortherr(m, n, O, work));
    if (q == 0)
      ok(eps <= beta, "lowrank hmt: ||G - Q Q'G||_F = %.3e <= HMT Thm 10.7 "
         "bound %.3e (t = u = 4; tail %.3e, sigma_{r+1} %.3e)", eps, beta,
         tail, s[r]);
    ok(err <= eps / (delta - 2 * eps), "lowrank hmt: power_iters %d: "
       "||O - U_r V_r'||_F = %.3e <= eps / (delta - 2 eps) = %.3e", q, err,
       eps / (delta - 2 * eps));
    if (q == 0)
      ok(err <= beta / (delta - 2 * beta), "lowrank hmt: and <= the "
         "HMT-derived beta / (delta - 2 beta) = %.3e",
         beta / (delta - 2 * beta));
    is_near(ol_polar_ortherr(m, n, O, work), sqrt((double)(k - r)), 1e-10,
            "lowrank hmt: M38 ortherr is sqrt(%d - %d)", k, r);
  }
  free(G); free(P); free(O); free(C); free(R); free(work);
}

static void test_lowrank_muon (void)
{
  const ol_method_type *mu = ol_method_find("muon");
  ol_problem *p = olt_problem("matlsq", NULL, (char *)NULL);
  double par[16], f0, f1, oe = NAN, *x, *y;
  int i, same;
  if (p == NULL || mu == NULL) {
    ok(0, "lowrank muon: muon and matlsq");
    return;
  }
  x = malloc(sizeof(double) * p->n);
  y = malloc(sizeof(double) * p->n);
  /* rank = min side: the exact factor, step for step */
  olt_params(mu, par, "polar", 1.0, (char *)NULL);
  if (run_x(p, mu, par, 30, x, NULL)) {
    olt_params(mu, par, "polar", 2.0, "rank", 16.0, (char *)NULL);
    if (run_x(p, mu, par, 30, y, &oe))
      ok(fro_diff(x, y, p->n) <= 1e-9 && oe <= 1e-12, "lowrank muon: rank "
         "16 on a 32 x 16 W tracks polar = svd for 30 steps (diff %.1e, "
         "ortherr %.1e)", fro_diff(x, y, p->n), oe);
    else ok(0, "lowrank muon: 30 steps rank 16");
  }
  else ok(0, "lowrank muon: 30 steps svd");
  /* muonbp (row blocks 16 x 16) and adago take polar = lowrank too:
  ** full rank is their svd run */
  {
    const char *other[2] = {"muonbp", "adago"};
    int q;
    for (q = 0; q < 2; q++) {
      const ol_method_type *mo = ol_method_find(other[q]);
      if (mo == NULL) continue;
      olt_params(mo, par, "polar", 1.0, (char *)NULL);
      same = run_x(p, mo, par, 30, x, NULL);
      olt_params(mo, par, "polar", 2.0, "rank", 16.0, (char *)NULL);
      same = same && run_x(p, mo, par, 30, y, NULL);
      ok(same && fro_diff(x, y, p->n) <= 1e-9, "lowrank %s: rank 16 tracks "
         "polar = svd for 30 steps (diff %.1e)", other[q],
         same ? fro_diff(x, y, p->n) : NAN);
    }
  }
  /* rank 4 converges on T16(a) (a rank-4 step moves 4 of W's 16
  ** directions: twice the steps of (6) at scripts/muon.lua's lr) */
  olt_params(mu, par, "polar", 2.0, "rank", 4.0, "lr", 0.03, (char *)NULL);
  p->fdf(p->ud, p->x0, &f0, NULL, NULL);
  if (run_x(p, mu, par, 1000, x, &oe)) {
    p->fdf(p->ud, x, &f1, NULL, NULL);
    ok(f1 <= 1e-4 * f0, "lowrank muon: rank 4, lr 0.03 drops f by 1e-4 on "
       "matlsq{64, 32, 16} in 1000 steps (f %.3g -> %.3g)", f0, f1);
    is_near(oe, sqrt(12.0), 1e-10, "lowrank muon: ortherr probe sqrt(16 - "
            "4) (%.4f)", oe);
  }
  else ok(0, "lowrank muon: 500 steps rank 4");
  /* replay: the sketch draws from the run's generator */
  if (run_x(p, mu, par, 50, x, NULL) && run_x(p, mu, par, 50, y, NULL)) {
    for (i = 0, same = 1; i < p->n; i++) same = same && x[i] == y[i];
    ok(same, "lowrank muon: two runs at one seed are bit-identical");
  }
  else ok(0, "lowrank muon: 50 steps twice");
  /* a rank out of range */
  {
    ol_run_opts o = olt_opts(5, 0, OL_MSET_EMPTY);
    ol_run *r;
    ol_err e;
    olt_params(mu, par, "polar", 2.0, "rank", 17.0, (char *)NULL);
    r = ol_run_new(p, mu, par, &o, &e);
    ok(r == NULL && strstr(e.msg, "[1, 16]") != NULL, "lowrank muon: rank "
       "17 on a 32 x 16 W is refused (%s)", r == NULL ? e.msg : "ran");
    ol_run_free(r);
  }
  free(x);
  free(y);
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
  test_lowrank_exact(12, 8, 3, 3, 11);
  test_lowrank_exact(8, 12, 2, 5, 12);
  test_lowrank_exact(30, 20, 4, 6, 13);
  test_lowrank_hmt(21);
  test_lowrank_hmt(22);
  test_lowrank_hmt(23);
  test_lowrank_muon();
  return done();
}
