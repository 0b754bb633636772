/*
** tests/c/t_oams.c -- Optimistic AMSGrad's hints (core/optim/oamsgrad.c):
** predictor = "rmpe" (Scieur, d'Aspremont & Bach 2016, Algorithm 1, on
** the last r + 1 gradients), the hint error it reports, and the
** projection of its half-step sequence.
**
** Independent truth used here:
** (1) RMPE on a linear recurrence.  An oracle that ignores x and returns
**     the next vector of x_{k+1} = A x_k + b (n = 4, A Gaussian scaled to
**     Frobenius norm 0.8, so A - I is invertible and the minimal polynomial
**     at x_0 - x* has degree <= 4 = r - 1 for r = 5): after the first r +
**     1 = 6 gradients the hint is the fixed point x* = (I - A)^{-1} b
**     (LAPACK dgesv here) to 1e-8 relative for lambda = 1e-14; the
**     coefficients sum to 1 to 1e-14.  For lambda = 1e-3 the error is
**     within the bound ||(A - I)^{-1}||_F sqrt(lambda) ||c*||_2 that
**     follows from RMPE's problem (c minimises ||U c||^2 + lambda ||c||^2
**     over sum c = 1, so ||U c||^2 <= lambda ||c*||^2 for the exact c*
**     with U c* = 0, and U c = (A - I)(sum c_i x_i - x*)), with c* the
**     coefficients of the lambda = 1e-14 run.  After 9 gradients (the
**     history wrapped) the hint equals RMPE written out here (normal
**     equations by Cholesky, output sum_{i<r} c_i x_i of the last r + 1)
**     to 1e-12.  Before r + 1 gradients the hint is the last gradient.
** (2) The first four iterates of predictor = "rmpe", r = 2, on f = 1/2
**     (x1^2 + x2^2 / 10) from (1, 1) through the run engine, against the
**     update written out here with the 2 x 2 RMPE solve in closed form;
**     r.hinterr of "last" and "rmpe" against sum_{t>=2} ||g_t - m_t||^2
**     kept by hand.
** (3) On a box the half-step sequence is clipped (the paper's Pi):
**     f = 1/2 ||x - (0.8, -0.5)||^2 on [-1, 1]^2, three steps by hand (and
**     they differ from those with w_{t+1/2} left unclipped).
** (4) Convergence: predictor = "rmpe" reaches gradnorm <= 1e-6 on
**     quadratic{n=10, cond=10} within 3000 steps (lr 1e-2, as "last" in
**     t_precond), and at r = 1 and r = 20.
** Seeds are fixed and printed.
*/
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "olt.h"
#include "problem.h"
#include "rng.h"
#include "run.h"
#include "tap.h"

#define N 4

/* == a method stepped directly (one oracle call per step) ================= */

typedef struct direct {
  const ol_method_type *m;
  void *st;
  ol_ctx c;
  ol_rng rng;
  double x[64], xavg[64];
} direct;

static int direct_start (direct *d, const ol_problem *p, const double *par)
{
  ol_err e;
  int i;
  memset(d, 0, sizeof *d);
  d->m = ol_method_find("oamsgrad");
  ol_rng_seed(&d->rng, 1, 0);
  for (i = 0; i < p->n; i++) d->x[i] = d->xavg[i] = p->x0[i];
  d->c.p = p;
  d->c.n = p->n;
  d->c.x = d->x;
  d->c.xavg = d->xavg;
  d->c.sched = 1;
  d->c.rng = &d->rng;
  if (d->m == NULL || (d->st = calloc(1, d->m->size)) == NULL) return 0;
  if (d->m->init(d->st, par, &d->c, &e) != OL_OK) {
    diag("oamsgrad: init: %s", e.msg);
    return 0;
  }
  return 1;
}

static int direct_steps (direct *d, int k)
{
  ol_err e;
  for (; k > 0; k--) {
    if (d->m->step(d->st, &d->c, &e) != OL_OK) {
      diag("oamsgrad: step: %s", e.msg);
      return 0;
    }
    d->c.t++;
  }
  return 1;
}

static void direct_end (direct *d)
{
  if (d->st != NULL) d->m->fini(d->st);
  free(d->st);
  d->st = NULL;
}

/* a named result of the state: its values and count, NULL when none */
static const double *result (const direct *d, const char *name, int *k)
{
  const double *v;
  int rows, cols;
  if (!ol_method_result(d->m, d->st, name, &v, &rows, &cols)) return NULL;
  *k = rows * cols;
  return v;
}

/* == (1) RMPE on a linear recurrence ====================================== */

typedef struct seq {
  double A[N][N], b[N], x[N];   /* x: the next vector to hand out */
} seq;

/* the gradient is the sequence's next vector, whatever x is */
static int seq_fdf (void *ud, const double *x, double *f, double *g,
                    ol_err *e)
{
  seq *s = ud;
  double y[N];
  int i, j;
  (void)x;
  (void)e;
  if (f != NULL) *f = 0;
  if (g == NULL) return OL_OK;
  for (i = 0; i < N; i++) {
    g[i] = s->x[i];
    y[i] = s->b[i];
    for (j = 0; j < N; j++) y[i] += s->A[i][j] * s->x[j];
  }
  memcpy(s->x, y, sizeof y);
  return OL_OK;
}

/* x_0..x_{k-1} of the recurrence into X (k rows) */
static void seq_vectors (const seq *s0, int k, double (*X)[N])
{
  seq s = *s0;
  double g[N];
  int t;
  for (t = 0; t < k; t++) {
    seq_fdf(&s, NULL, NULL, g, NULL);
    memcpy(X[t], g, sizeof g);
  }
}

/* RMPE of x_0..x_r written out: U'U + lambda I by its entries, Cholesky
** by hand, c = z / sum z, output sum_{i<r} c_i x_i */
static void rmpe_by_hand (double (*X)[N], int r, double lambda, double *out)
{
  double M[8][8], L[8][8], z[8], y[8], sz = 0;
  int i, j, k;
  for (i = 0; i < r; i++)
    for (j = 0; j < r; j++) {
      M[i][j] = i == j ? lambda : 0;
      for (k = 0; k < N; k++)
        M[i][j] += (X[i + 1][k] - X[i][k]) * (X[j + 1][k] - X[j][k]);
    }
  for (j = 0; j < r; j++) {
    double s = M[j][j];
    for (k = 0; k < j; k++) s -= L[j][k] * L[j][k];
    L[j][j] = sqrt(s);
    for (i = j + 1; i < r; i++) {
      s = M[i][j];
      for (k = 0; k < j; k++) s -= L[i][k] * L[j][k];
      L[i][j] = s / L[j][j];
    }
  }
  for (i = 0; i < r; i++) {
    y[i] = 1;
    for (k = 0; k < i; k++) y[i] -= L[i][k] * y[k];
    y[i] /= L[i][i];
  }
  for (i = r - 1; i >= 0; i--) {
    z[i] = y[i];
    for (k = i + 1; k < r; k++) z[i] -= L[k][i] * z[k];
    z[i] /= L[i][i];
  }
  for (i = 0; i < r; i++) sz += z[i];
  for (k = 0; k < N; k++) {
    out[k] = 0;
    for (i = 0; i < r; i++) out[k] += z[i] / sz * X[i][k];
  }
}

static double dist2 (const double *a, const double *b, int n)
{
  double s = 0;
  int i;
  for (i = 0; i < n; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
  return sqrt(s);
}

static void test_rmpe_linear (void)
{
  const unsigned long seed = 27;
  seq s;
  ol_rng rng;
  ol_err e;
  ol_problem *p;
  double IA[N * N], xs[N], inv[N * N], fro = 0, cn = 0, par[8];
  double X[9][N], want[N], nrm;
  lapack_int piv[N];
  const double *v;
  direct d;
  int i, j, k, nc = 0;

  diag("seed %lu", seed);
  ol_rng_seed(&rng, seed, 0);
  /* A Gaussian, rescaled to Frobenius norm 0.8 (so spectral norm <= 0.8) */
  {
    double fa = 0;
    for (i = 0; i < N; i++)
      for (j = 0; j < N; j++) {
        s.A[i][j] = ol_rng_normal(&rng);
        fa += s.A[i][j] * s.A[i][j];
      }
    for (i = 0; i < N; i++) {
      for (j = 0; j < N; j++) s.A[i][j] *= 0.8 / sqrt(fa);
      s.b[i] = ol_rng_normal(&rng);
      s.x[i] = ol_rng_normal(&rng);
    }
  }
  /* x* = (I - A)^{-1} b and (I - A)^{-1} by dgesv (column-major) */
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      IA[i + j * N] = (i == j) - s.A[i][j];
      inv[i + j * N] = i == j;
    }
  {
    double IA2[N * N];
    memcpy(IA2, IA, sizeof IA);
    memcpy(xs, s.b, sizeof xs);
    if (LAPACKE_dgesv(LAPACK_COL_MAJOR, N, 1, IA, N, piv, xs, N) != 0 ||
        LAPACKE_dgesv(LAPACK_COL_MAJOR, N, N, IA2, N, piv, inv, N) != 0) {
      ok(0, "dgesv on I - A");
      return;
    }
  }
  for (i = 0; i < N * N; i++) fro += inv[i] * inv[i];
  fro = sqrt(fro);
  nrm = sqrt(xs[0] * xs[0] + xs[1] * xs[1] + xs[2] * xs[2] + xs[3] * xs[3]);

  p = ol_problem_custom(N, seq_fdf, 0, &s, NULL, &e);
  if (p == NULL) {
    ok(0, "custom problem: %s", e.msg);
    return;
  }

  /* lambda = 1e-14: the fixed point */
  {
    seq s0 = s;
    olt_method("oamsgrad", par, "predictor", 1.0, "r", 5.0, "lambda", 1e-14,
               (char *)NULL);
    if (direct_start(&d, p, par) && direct_steps(&d, 3)) {
      seq_vectors(&s0, 3, X);
      v = result(&d, "hint", &k);
      ok(v != NULL && k == N && memcmp(v, X[2], sizeof X[2]) == 0,
         "rmpe: with 3 < r + 1 = 6 gradients the hint is the last one");
      v = result(&d, "coef", &k);
      ok(v != NULL && k == 0, "rmpe: no coefficients before r + 1 "
         "gradients (%d)", k);
    }
    if (d.st != NULL && direct_steps(&d, 3)) {
      double err, sum = 0;
      v = result(&d, "hint", &k);
      err = v != NULL ? dist2(v, xs, N) / nrm : NAN;
      ok(err <= 1e-8, "rmpe: lambda = 1e-14, r = 5, 6 gradients of x_{k+1} "
         "= A x_k + b (n = 4): hint = (I - A)^{-1} b to 1e-8 relative "
         "(%.2g)", err);
      v = result(&d, "coef", &nc);
      for (i = 0; v != NULL && i < nc; i++) {
        sum += v[i];
        cn += v[i] * v[i];
      }
      cn = sqrt(cn);
      ok(nc == 5 && fabs(sum - 1) <= 1e-14, "rmpe: %d coefficients sum to "
         "1 to 1e-14 (%.2g)", nc, sum - 1);
    }
    direct_end(&d);
    s = s0;
  }

  /* lambda = 1e-3: within the bound; after 9 gradients, RMPE by hand */
  {
    seq s0 = s;
    double bound = fro * sqrt(1e-3) * cn, err = NAN, sum = 0;
    olt_method("oamsgrad", par, "predictor", 1.0, "r", 5.0, "lambda", 1e-3,
               (char *)NULL);
    if (direct_start(&d, p, par) && direct_steps(&d, 6)) {
      v = result(&d, "hint", &k);
      if (v != NULL) err = dist2(v, xs, N);
      ok(err <= bound, "rmpe: lambda = 1e-3: ||hint - x*|| = %.3g <= "
         "||(I - A)^{-1}||_F sqrt(lambda) ||c*|| = %.3g (||x*|| %.3g)", err,
         bound, nrm);
      v = result(&d, "coef", &k);
      for (i = 0; v != NULL && i < k; i++) sum += v[i];
      ok(k == 5 && fabs(sum - 1) <= 1e-14, "rmpe: lambda = 1e-3: the "
         "coefficients sum to 1 to 1e-14 (%.2g)", sum - 1);
    }
    if (d.st != NULL && direct_steps(&d, 3)) {
      seq_vectors(&s0, 9, X);
      rmpe_by_hand(X + 3, 5, 1e-3, want);
      v = result(&d, "hint", &k);
      ok(v != NULL && olt_agree(v, want, N, 1e-12), "rmpe: after 9 "
         "gradients (history wrapped) the hint is RMPE of x_3..x_8 written "
         "out (sum_{i<5} c_i x_{3+i}) to 1e-12");
    }
    direct_end(&d);
    s = s0;
  }
  ol_problem_free(p);
}

/* == (2) first iterates with predictor = "rmpe", r = 2 ==================== */

static const double L[2] = {1, 0.1};

static void test_iterates (void)
{
  ol_problem *p = olt_quadratic(2, 10, 0);   /* f = 1/2 (x1^2 + x2^2/10) */
  double lr = 0.3, b1 = 0.8, b2 = 0.5, eps = 1e-3, lam = 0.05;
  double par[8], X[8], W[4][2], herr[2] = {0, 0};
  int pr;
  if (p == NULL) {
    ok(0, "quadratic{n=2}");
    return;
  }
  for (pr = 0; pr < 2; pr++) {
    double th[2] = {0, 0}, v[2] = {0, 0}, vh[2] = {0, 0};
    double half[2] = {1, 1}, x[2] = {1, 1}, G[4][2], m[2] = {0, 0};
    const ol_method_type *mt;
    ol_run *r;
    ol_run_opts o = olt_opts(4, 0, OL_MSET_EMPTY);
    const double *hv;
    int rows, cols, i, t;
    mt = olt_method("oamsgrad", par, "lr", lr, "beta1", b1, "beta2", b2,
                    "eps", eps, "predictor", (double)pr, "r", 2.0, "lambda",
                    lam, (char *)NULL);
    for (t = 0; t < 4; t++) {
      double mn[2];
      for (i = 0; i < 2; i++) G[t][i] = L[i] * x[i];
      if (t > 0)
        for (i = 0; i < 2; i++)
          herr[pr] += (G[t][i] - m[i]) * (G[t][i] - m[i]);
      if (pr == 1 && t >= 2) {
        /* U = [g1 - g0, g2 - g1] of the last three; 2 x 2 solve */
        double u[2][2], a, bb, c, det, z0, z1, sz;
        for (i = 0; i < 2; i++) {
          u[0][i] = G[t - 1][i] - G[t - 2][i];
          u[1][i] = G[t][i] - G[t - 1][i];
        }
        a = u[0][0] * u[0][0] + u[0][1] * u[0][1] + lam;
        bb = u[0][0] * u[1][0] + u[0][1] * u[1][1];
        c = u[1][0] * u[1][0] + u[1][1] * u[1][1] + lam;
        det = a * c - bb * bb;
        z0 = (c - bb) / det;
        z1 = (a - bb) / det;
        sz = z0 + z1;
        for (i = 0; i < 2; i++)
          mn[i] = z0 / sz * G[t - 2][i] + z1 / sz * G[t - 1][i];
      }
      else
        for (i = 0; i < 2; i++) mn[i] = G[t][i];
      for (i = 0; i < 2; i++) {
        double g = G[t][i], thp = th[i], d;
        th[i] = b1 * th[i] + (1 - b1) * g;
        v[i] = b2 * v[i] + (1 - b2) * g * g;
        vh[i] = v[i] > vh[i] ? v[i] : vh[i];
        d = lr / (sqrt(vh[i]) + eps);
        half[i] -= d * th[i];
        x[i] = half[i] - d * (b1 * thp + (1 - b1) * mn[i]);
        W[t][i] = x[i];
        m[i] = mn[i];
      }
    }
    r = mt != NULL ? olt_go(p, mt, par, &o) : NULL;
    ok(mt != NULL && olt_iterates(p, mt, par, &o, 4, X)
       && olt_agree(X, W[0], 8, 1e-13), "oamsgrad{predictor = %s, r = 2}: "
       "four iterates by hand%s", pr ? "\"rmpe\"" : "\"last\"",
       pr ? " (RMPE from the third step, 2 x 2 solve in closed form)" : "");
    ok(r != NULL && ol_run_iter(r) == 4
       && ol_method_result(mt, ol_run_state(r), "hinterr", &hv,
                                     &rows, &cols)
       && rows * cols == 1 && fabs(hv[0] - herr[pr]) <= 1e-13 * herr[pr],
       "oamsgrad{predictor = %s}: r.hinterr = sum_{t=2..4} ||g_t - m_t||^2 "
       "= %.6g", pr ? "\"rmpe\"" : "\"last\"", herr[pr]);
    ol_run_free(r);
  }
  ol_problem_free(p);
}

/* == (3) the half-step sequence clipped to a box ========================== */

/* f = 1/2 ||x - C_BOX||^2 */
static const double C_BOX[2] = {0.8, -0.5};

static int box_fdf (void *ud, const double *x, double *f, double *g,
                    ol_err *e)
{
  double d0 = x[0] - C_BOX[0], d1 = x[1] - C_BOX[1];
  (void)ud;
  (void)e;
  if (f != NULL) *f = 0.5 * (d0 * d0 + d1 * d1);
  if (g != NULL) {
    g[0] = d0;
    g[1] = d1;
  }
  return OL_OK;
}

static void test_box (void)
{
  double lo[2] = {-1, -1}, hi[2] = {1, 1}, x0[2] = {0.5, 0.5}, par[8];
  double lr = 0.5, b1 = 0.5, b2 = 0.9, eps = 1e-8, X[6], W[2][3][2];
  ol_set s;
  ol_problem *p;
  const ol_method_type *m;
  ol_run_opts o = olt_opts(3, 0, OL_MSET_EMPTY);
  int i, t, clip;
  memset(&s, 0, sizeof s);
  s.kind = OL_SET_BOX;
  s.lo = lo;
  s.hi = hi;
  p = olt_setproblem(2, box_fdf, NULL, &s, x0);
  m = olt_method("oamsgrad", par, "lr", lr, "beta1", b1, "beta2", b2, "eps",
                 eps, (char *)NULL);
  /* clip = 1: the paper's Pi on both lines; 0: x alone projected (the
  ** run's projection), to show the test tells them apart */
  for (clip = 0; clip < 2; clip++) {
    double th[2] = {0, 0}, v[2] = {0, 0}, vh[2] = {0, 0}, half[2], x[2];
    memcpy(half, x0, sizeof half);
    memcpy(x, x0, sizeof x);
    for (t = 0; t < 3; t++)
      for (i = 0; i < 2; i++) {
        double g = x[i] - C_BOX[i], thp = th[i], d;
        th[i] = b1 * th[i] + (1 - b1) * g;
        v[i] = b2 * v[i] + (1 - b2) * g * g;
        vh[i] = v[i] > vh[i] ? v[i] : vh[i];
        d = lr / (sqrt(vh[i]) + eps);
        half[i] -= d * th[i];
        if (clip) half[i] = fmin(hi[i], fmax(lo[i], half[i]));
        x[i] = half[i] - d * (b1 * thp + (1 - b1) * g);
        x[i] = fmin(hi[i], fmax(lo[i], x[i]));
        W[clip][t][i] = x[i];
      }
  }
  ok(p != NULL && olt_iterates(p, m, par, &o, 3, X)
     && olt_agree(X, W[1][0], 6, 1e-14)
     && fabs(W[1][2][0] - W[0][2][0]) > 1e-2,
     "oamsgrad on 1/2 ||x - (0.8, -0.5)||^2 over [-1, 1]^2: w_{t+1/2} and "
     "w_{t+1} clipped to the box, three steps (x_3 = (%.4g, %.4g); %.4g "
     "with w_{t+1/2} left unclipped)", W[1][2][0], W[1][2][1],
     W[0][2][0]);
  ol_problem_free(p);
}

/* == (4) convergence ===================================================== */

static void test_convergence (void)
{
  ol_problem *p = olt_quadratic(10, 10, 1);
  static const double rs[3] = {5, 1, 20};
  int k;
  if (p == NULL) return;
  for (k = 0; k < 3; k++) {
    double par[8];
    const ol_method_type *m = olt_method("oamsgrad", par, "lr", 1e-2,
                                         "predictor", 1.0, "r", rs[k],
                                         (char *)NULL);
    ol_run_opts o = olt_opts(3000, 1e-6, OL_MSET_OF(OL_MET_GRADNORM));
    ol_run *r = olt_go(p, m, par, &o);
    long it = r != NULL ? ol_run_iter(r) : -1;
    double gn = r != NULL ? ol_run_last(r, OL_MET_GRADNORM) : NAN;
    ok(r != NULL && ol_run_reason(r) == OL_STOP_TOL && gn <= 1e-6,
       "oamsgrad{predictor = \"rmpe\", r = %g, lr = 1e-2} reaches gradnorm "
       "<= 1e-6 on quadratic{n=10, cond=10} within 3000 steps (%ld, %.3g)",
       rs[k], it, gn);
    ol_run_free(r);
  }
  ol_problem_free(p);
}

int main (void)
{
  test_rmpe_linear();
  test_iterates();
  test_box();
  test_convergence();
  return done();
}
