/*
** tests/c/t_targets.c -- the sampling targets (gaussian, banana, funnel,
** mixture, eightschools, blogreg) and densities from log p with Stan's
** bound transforms (ol_problem_density, ol_problem_constrain).
**
** Truth, independent of the code under test:
**   gradients and Hessians   central finite differences (olt_derivs)
**   gaussian                 LAPACK's eigenvalues of Sigma, P Sigma = I
**   banana, mixture, funnel  the stated mean and covariance against
**                            quadratures of exp(-U) on a grid (and the
**                            normalising constant: the integral is 1)
**   reparametrisations       non-centred U(u) = centred U(T(u)) - log|J|
**                            + const, the Jacobians by hand
**   blogreg                  U - ||x||^2 / (2 sigma^2) against N f of
**                            logreg{lambda = 0} on the same data
**   bounds                   U(u) = -log p(T(u)) - log|dT/du| by hand;
**                            the Jacobian in law: NUTS with default
**                            parameters on a 6-D product of known
**                            marginals (uniform, exponential, scaled
**                            beta, reflected exponential, shifted gamma,
**                            normal), each coordinate's mean and variance
**                            within 4 MCSE of the exact values (MCSE from
**                            the draws' ESS, core/diag.h).
*/
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "olt.h"
#include "tap.h"

#define SEED 20250611u

static ol_problem *mk (const char *name, ol_pval *v)
{
  ol_err e;
  ol_problem *p = ol_problem_new(ol_problem_type_find(name), v, &e);
  if (p == NULL) diag("%s: %s", name, e.msg);
  return p;
}

/* Default parameter values of type name into v (arrays absent). */
static void defaults (const char *name, ol_pval *v)
{
  const ol_problem_type *t = ol_problem_type_find(name);
  int i;
  memset(v, 0, sizeof(ol_pval) * 8);
  for (i = 0; t != NULL && i < t->nparams; i++) v[i].num = t->params[i].def;
}

static void setvec (ol_pval *v, const double *a, int len)
{
  v->arr = a;
  v->rows = 1;
  v->cols = len;
}

/* max |A_ij - B_ij| / max(1, max |B_ij|). */
static double relerr (const double *A, const double *B, int len)
{
  double d = 0, bmax = 1;
  int i;
  for (i = 0; i < len; i++) bmax = fmax(bmax, fabs(B[i]));
  for (i = 0; i < len; i++) d = fmax(d, fabs(A[i] - B[i]));
  return d / bmax;
}

static void test_registry (void)
{
  static const char *const names[] = {"gaussian", "banana", "funnel",
                                      "mixture", "eightschools", "blogreg"};
  size_t k;
  int bad = 0;
  for (k = 0; k < sizeof names / sizeof names[0]; k++) {
    const ol_problem_type *t = ol_problem_type_find(names[k]);
    if (t == NULL || t->kind != OL_DENSITY || t->doc == NULL) bad++;
  }
  ok(bad == 0, "targets: the six are registered as densities with docs");
}

/* == gaussian ============================================================ */

static void test_gaussian (ol_rng *r)
{
  ol_pval v[8];
  ol_problem *p;
  int n = 12, i, j, k;
  double cond = 1e4, *S, *P, *Rm, w[12], maxerr = 0;
  defaults("gaussian", v);
  v[0].num = n;
  v[1].num = cond;
  p = mk("gaussian", v);
  if (!ok(p != NULL, "gaussian: n = 12, cond = 1e4 is created")) return;
  olt_derivs("gaussian{n=12, cond=1e4}", p, r, 1.0);
  S = malloc(sizeof(double) * n * n);
  P = malloc(sizeof(double) * n * n);
  Rm = malloc(sizeof(double) * n * n);
  p->hess(p->ud, p->x0, P, NULL);
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      double s = 0;
      for (k = 0; k < n; k++) s += P[i * n + k] * p->cov[k * n + j];
      Rm[i * n + j] = s - (i == j);
    }
  for (i = 0, maxerr = 0; i < n * n; i++) maxerr = fmax(maxerr, fabs(Rm[i]));
  ok(maxerr < 1e-8, "gaussian: the Hessian is the inverse covariance "
     "(max |P Sigma - I| = %.2g)", maxerr);
  memcpy(S, p->cov, sizeof(double) * n * n);
  if (LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'U', n, S, n, w) != 0)
    ok(0, "gaussian: dsyevd succeeds");
  for (i = 0, maxerr = 0; i < n; i++) {
    double want = pow(cond, -(double)(n - 1 - i) / (n - 1));   /* ascending */
    maxerr = fmax(maxerr, fabs(w[i] - want) / want);
  }
  ok(maxerr < 1e-9, "gaussian: eigenvalues of Sigma are cond^(-i/(n-1)) "
     "(rel err %.2g), condition number %.4g", maxerr, w[n - 1] / w[0]);
  {
    double off = 0;
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        if (i != j) off = fmax(off, fabs(p->cov[i * n + j]));
    ok(off > 1e-2, "gaussian: Sigma is dense (max |off-diagonal| %.3g)",
       off);
  }
  ok(olt_fval(p, p->mean) == 0 && p->fstar == 0 && p->xstar[3] == 0 &&
     p->mean[5] == 0, "gaussian: mean = x* = 0 by default, U(mean) = f* = 0");
  ol_problem_free(p);

  /* a given covariance and mean */
  {
    static const double C[9] = {4, 1.2, -0.6, 1.2, 1, 0.3, -0.6, 0.3, 2};
    static const double mu[3] = {1, -2, 0.5};
    double H[9], x[3] = {0.3, 0.1, -0.4};
    defaults("gaussian", v);
    v[3].arr = C;
    v[3].rows = v[3].cols = 3;
    setvec(&v[4], mu, 3);
    p = mk("gaussian", v);
    if (ok(p != NULL && p->n == 3, "gaussian: cov = 3 x 3 gives n = 3")) {
      olt_derivs("gaussian{cov, mu}", p, r, 1.0);
      ok(relerr(p->cov, C, 9) == 0 && relerr(p->mean, mu, 3) == 0,
         "gaussian: mean and cov are the given ones");
      p->hess(p->ud, x, H, NULL);
      for (i = 0, maxerr = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
          double s = 0;
          for (k = 0; k < 3; k++) s += H[i * 3 + k] * C[k * 3 + j];
          maxerr = fmax(maxerr, fabs(s - (i == j)));
        }
      ok(maxerr < 1e-12, "gaussian: P = cov^-1 (max |P C - I| = %.2g)",
         maxerr);
      is_near(olt_fval(p, mu), 0, 0, "gaussian: U(mu) = 0");
      ol_problem_free(p);
    }
  }
  /* errors */
  {
    static const double notpd[4] = {1, 2, 2, 1}, asym[4] = {1, 0.5, 0.4, 1};
    static const double rect[6] = {1, 0, 0, 0, 1, 0}, mu2[2] = {0, 0};
    static const double id2[4] = {1, 0, 0, 1};
    ol_err e;
    defaults("gaussian", v);
    v[3].arr = notpd;
    v[3].rows = v[3].cols = 2;
    p = ol_problem_new(ol_problem_type_find("gaussian"), v, &e);
    ok(p == NULL && strstr(e.msg, "not positive definite") != NULL,
       "gaussian: an indefinite cov is refused (%s)", p ? "" : e.msg);
    v[3].arr = asym;
    p = ol_problem_new(ol_problem_type_find("gaussian"), v, &e);
    ok(p == NULL && strstr(e.msg, "not symmetric") != NULL,
       "gaussian: an asymmetric cov is refused (%s)", p ? "" : e.msg);
    v[3].arr = rect;
    v[3].rows = 2;
    v[3].cols = 3;
    p = ol_problem_new(ol_problem_type_find("gaussian"), v, &e);
    ok(p == NULL && strstr(e.msg, "square") != NULL,
       "gaussian: a 2 x 3 cov is refused (%s)", p ? "" : e.msg);
    defaults("gaussian", v);
    v[0].num = 3;
    setvec(&v[4], mu2, 2);
    p = ol_problem_new(ol_problem_type_find("gaussian"), v, &e);
    ok(p == NULL && strstr(e.msg, "mu has 2 entries") != NULL,
       "gaussian: a mu of the wrong length is refused (%s)", p ? "" : e.msg);
    defaults("gaussian", v);
    v[0].num = 5;
    v[3].arr = id2;
    v[3].rows = v[3].cols = 2;
    p = ol_problem_new(ol_problem_type_find("gaussian"), v, &e);
    ok(p == NULL && strstr(e.msg, "n = 5 but cov has 2 rows") != NULL,
       "gaussian: n against cov's size is refused (%s)", p ? "" : e.msg);
  }
  free(S);
  free(P);
  free(Rm);
}

/* == banana ============================================================== */

/* Integral of exp(-U) and its first two moments over the banana's ridge:
** y1 on [-80, 80], y2 = 100 b - b y1^2 + t, t on [-9, 9] (the twisted
** coordinate x2 = t is N(0, 1)), trapezoids (exact to rounding for
** these smooth, fast-decaying integrands). */
static void test_banana (ol_rng *r)
{
  ol_pval v[8];
  ol_problem *p;
  double b = 0.1, h1 = 0.04, h2 = 0.01, Z = 0, m[2] = {0, 0}, S[3] = {0};
  double y[2], f;
  int i, k;
  defaults("banana", v);
  p = mk("banana", v);
  if (!ok(p != NULL && p->n == 2, "banana: default is 2-D")) return;
  olt_derivs("banana{b=0.1}", p, r, 3.0);
  for (i = -2000; i <= 2000; i++) {
    y[0] = i * h1;
    for (k = -900; k <= 900; k++) {
      double w;
      y[1] = 100 * b - b * y[0] * y[0] + k * h2;
      p->fdf(p->ud, y, &f, NULL, NULL);
      w = exp(-f) * h1 * h2 / (2 * 3.14159265358979323846 * 10);
      Z += w;
      m[0] += w * y[0];
      m[1] += w * y[1];
      S[0] += w * y[0] * y[0];
      S[1] += w * y[0] * y[1];
      S[2] += w * y[1] * y[1];
    }
  }
  is_close(Z, 1, 1e-9, "banana: exp(-U) / (2 pi 10) integrates to 1 "
           "(%.12f)", Z);
  ok(fabs(m[0] - p->mean[0]) < 1e-8 && fabs(m[1] - p->mean[1]) < 1e-8,
     "banana: quadrature mean (%.2g, %.2g) = the stated (0, 0)", m[0], m[1]);
  ok(fabs(S[0] - p->cov[0]) < 1e-6 * p->cov[0]
     && fabs(S[2] - p->cov[3]) < 1e-6 * p->cov[3]
     && fabs(S[1]) < 1e-8 && p->cov[1] == 0 && p->cov[2] == 0,
     "banana: quadrature cov (%.8g, %.2g, %.8g) = the stated (100, 0, "
     "1 + 2e4 b^2 = %g)", S[0], S[1], S[2], p->cov[3]);
  is_near(olt_fval(p, p->xstar), 0, 1e-15, "banana: U(x*) = 0 at (0, 100 b)");
  is_near(olt_gnorm(p, p->xstar), 0, 1e-15, "banana: grad U(x*) = 0");
  ol_problem_free(p);
  defaults("banana", v);
  v[0].num = 0.03;
  v[1].num = 5;
  p = mk("banana", v);
  if (ok(p != NULL && p->n == 5, "banana: b = 0.03, n = 5 is created")) {
    olt_derivs("banana{b=0.03, n=5}", p, r, 3.0);
    is_close(p->cov[6], 1 + 2e4 * 0.03 * 0.03, 1e-15,
             "banana: Var y2 = 1 + 2e4 b^2 at b = 0.03");
    ok(p->cov[24] == 1 && p->cov[12] == 1 && p->cov[13] == 0,
       "banana: coordinates 3..n are standard normal");
    ol_problem_free(p);
  }
}

/* == funnel ============================================================== */

static void test_funnel (ol_rng *r)
{
  ol_pval v[8];
  ol_problem *pc, *pn;
  int n = 10, i, t;
  double u[10], x[10], back[10], c0 = NAN, spread = 0, rt = 0;
  defaults("funnel", v);
  pc = mk("funnel", v);
  v[1].num = 1;
  pn = mk("funnel", v);
  if (!ok(pc != NULL && pn != NULL && pc->n == n && pn->n == n,
          "funnel: centred and non-centred n = 10 are created"))
    return;
  olt_derivs("funnel{n=10}", pc, r, 1.0);
  olt_derivs("funnel{n=10, noncentered=true}", pn, r, 1.0);
  ok(pc->xform == NULL && pn->xform != NULL,
     "funnel: only the non-centred one has a transform");
  ok(pc->mean[0] == 0 && pc->cov[0] == 9 && pc->cov[11] == exp(4.5)
     && pc->cov[1] == 0 && pn->cov[99] == exp(4.5),
     "funnel: stated moments Var v = 9, Var x_i = e^4.5, both forms");
  is_near(olt_gnorm(pc, pc->xstar), 0, 1e-12, "funnel: grad U = 0 at the "
          "centred x* = (-40.5, 0, ...)");
  is_close(olt_fval(pc, pc->xstar), pc->fstar, 1e-15, "funnel: U(x*) = "
           "f* = -9/8 (n-1)^2");
  /* (1) U_nc(u) = U_c(T(u)) - log|J(u)| + const, log|J| = log 3 + (n-1)
  ** 3 u_1 / 2; and T^-1(T(u)) = u */
  for (t = 0; t < 20; t++) {
    double d;
    for (i = 0; i < n; i++) u[i] = 1.5 * ol_rng_normal(r);
    ol_problem_constrain(pn, u, x);
    ol_problem_unconstrain(pn, x, back, NULL);
    rt = fmax(rt, relerr(back, u, n));
    d = olt_fval(pn, u) - olt_fval(pc, x) + log(3.0) + (n - 1) * 1.5 * u[0];
    if (t == 0) c0 = d;
    spread = fmax(spread, fabs(d - c0));
  }
  ok(spread < 1e-9, "funnel: U_nc(u) - U_c(T(u)) + log|J| is constant over "
     "20 points (spread %.2g)", spread);
  ok(rt < 1e-14, "funnel: unconstrain(constrain(u)) = u (rel err %.2g)", rt);
  ol_problem_free(pc);
  ol_problem_free(pn);
  /* (2) n = 2 by quadrature: v on [-30, 30], x on 9 e^(v/2) [-1, 1] */
  defaults("funnel", v);
  v[0].num = 2;
  pc = mk("funnel", v);
  if (pc != NULL) {
    double Z = 0, Ev2 = 0, Ex2 = 0, Evx = 0, hv = 0.01, y[2], f;
    int a, k;
    for (a = -3000; a <= 3000; a++) {
      double s, hx;
      y[0] = a * hv;
      s = exp(0.5 * y[0]);
      hx = 9 * s / 900;
      for (k = -900; k <= 900; k++) {
        double w;
        y[1] = k * hx;
        pc->fdf(pc->ud, y, &f, NULL, NULL);
        w = exp(-f) * hv * hx / (2 * 3.14159265358979323846 * 3);
        Z += w;
        Ev2 += w * y[0] * y[0];
        Ex2 += w * y[1] * y[1];
        Evx += w * y[0] * y[1];
      }
    }
    is_close(Z, 1, 1e-9, "funnel: n = 2, exp(-U) / (2 pi 3) integrates to "
             "1 (%.12f)", Z);
    ok(fabs(Ev2 - 9) < 1e-7 && fabs(Ex2 / exp(4.5) - 1) < 1e-7
       && fabs(Evx) < 1e-9, "funnel: n = 2 quadrature E v^2 = %.9g (9), "
       "E x^2 = %.9g (e^4.5 = %.9g), E v x = %.2g (0)", Ev2, Ex2, exp(4.5),
       Evx);
    ol_problem_free(pc);
  }
}

/* == mixture ============================================================= */

/* Quadrature of the mixture p on a grid of step h over [lo, hi] per
** coordinate (n = 1 or 2): integral, mean and covariance into Z, m, C. */
static void mix_quad (const ol_problem *p, double lo, double hi, double h,
                      double *Z, double *m, double *C)
{
  int n = p->n, a, b, na = (int)((hi - lo) / h + 0.5), nb = n > 1 ? na : 0;
  double x[2], f;
  *Z = 0;
  m[0] = m[1] = 0;
  C[0] = C[1] = C[2] = C[3] = 0;
  for (a = 0; a <= na; a++)
    for (b = 0; b <= nb; b++) {
      double w;
      x[0] = lo + a * h;
      x[1] = lo + b * h;
      p->fdf(p->ud, x, &f, NULL, NULL);
      w = exp(-f) * (n > 1 ? h * h : h);
      *Z += w;
      m[0] += w * x[0];
      C[0] += w * x[0] * x[0];
      if (n > 1) {
        m[1] += w * x[1];
        C[1] += w * x[0] * x[1];
        C[3] += w * x[1] * x[1];
      }
    }
  C[0] -= m[0] * m[0];
  if (n > 1) {
    C[1] -= m[0] * m[1];
    C[2] = C[1];
    C[3] -= m[1] * m[1];
  }
}

static void test_mixture (ol_rng *r)
{
  static const double w3[3] = {1, 2, 3}, m3[3] = {-3, 0.5, 4};
  static const double s3[3] = {0.5, 1, 2};
  static const double m2[6] = {-2, 0, 1, 1, 3, -1};
  static const double s2[6] = {1, 0.5, 0.7, 1.2, 0.4, 0.8};
  ol_pval v[8];
  ol_problem *p;
  double Z, m[2], C[4];
  /* (1) defaults: K = 2 at -2, 2, sd 1, equal weights */
  defaults("mixture", v);
  p = mk("mixture", v);
  if (ok(p != NULL && p->n == 1, "mixture: default is 1-D")) {
    olt_derivs("mixture{}", p, r, 2.0);
    ok(p->mean[0] == 0 && fabs(p->cov[0] - 5) < 1e-15,
       "mixture: default moments mean 0, var 1 + 4 = 5");
    mix_quad(p, -14, 14, 1e-3, &Z, m, C);
    ok(fabs(Z - 1) < 1e-10 && fabs(m[0] - p->mean[0]) < 1e-10
       && fabs(C[0] - p->cov[0]) < 1e-9, "mixture: default, quadrature "
       "integral %.12f, mean %.2g, var %.10g", Z, m[0], C[0]);
    ol_problem_free(p);
  }
  /* (2) 1-D, three unequal components */
  defaults("mixture", v);
  setvec(&v[0], w3, 3);
  setvec(&v[1], m3, 3);
  setvec(&v[2], s3, 3);
  p = mk("mixture", v);
  if (ok(p != NULL, "mixture: K = 3 in 1-D is created")) {
    olt_derivs("mixture{K=3}", p, r, 3.0);
    mix_quad(p, -20, 24, 1e-3, &Z, m, C);
    ok(fabs(Z - 1) < 1e-10 && fabs(m[0] - p->mean[0]) < 1e-10
       && fabs(C[0] - p->cov[0]) < 1e-9, "mixture: K = 3, quadrature "
       "integral %.12f, mean %.10g (stated %.10g), var %.10g (stated "
       "%.10g)", Z, m[0], p->mean[0], C[0], p->cov[0]);
    ol_problem_free(p);
  }
  /* (3) 2-D, diagonal components of their own sds */
  defaults("mixture", v);
  setvec(&v[0], w3, 3);
  setvec(&v[1], m2, 6);
  setvec(&v[2], s2, 6);
  v[3].num = 2;
  p = mk("mixture", v);
  if (ok(p != NULL && p->n == 2, "mixture: K = 3 in 2-D is created")) {
    olt_derivs("mixture{K=3, n=2}", p, r, 2.0);
    mix_quad(p, -9, 9, 5e-3, &Z, m, C);
    ok(fabs(Z - 1) < 1e-9 && relerr(m, p->mean, 2) < 1e-9
       && relerr(C, p->cov, 4) < 1e-8, "mixture: 2-D quadrature integral "
       "%.10f, mean (%.6f, %.6f), cov (%.6f, %.6f, %.6f) = the stated (%.6f, "
       "%.6f), (%.6f, %.6f, %.6f)", Z, m[0], m[1], C[0], C[1], C[3],
       p->mean[0], p->mean[1], p->cov[0], p->cov[1], p->cov[3]);
    ok(fabs(p->cov[1]) > 0.1, "mixture: the components' means correlate "
       "the coordinates (cov %.3f)", p->cov[1]);
    ol_problem_free(p);
  }
  /* (4) errors */
  {
    static const double bad[2] = {1, -1};
    ol_err e;
    defaults("mixture", v);
    setvec(&v[0], bad, 2);
    p = ol_problem_new(ol_problem_type_find("mixture"), v, &e);
    ok(p == NULL && strstr(e.msg, "weights[2]") != NULL,
       "mixture: a negative weight is refused (%s)", p ? "" : e.msg);
    defaults("mixture", v);
    setvec(&v[1], m3, 3);
    v[3].num = 2;
    setvec(&v[0], w3, 3);
    p = ol_problem_new(ol_problem_type_find("mixture"), v, &e);
    ok(p == NULL && strstr(e.msg, "means has 3 entries, expected K n = 6")
       != NULL, "mixture: means of the wrong length is refused (%s)",
       p ? "" : e.msg);
    defaults("mixture", v);
    setvec(&v[2], bad, 2);
    p = ol_problem_new(ol_problem_type_find("mixture"), v, &e);
    ok(p == NULL && strstr(e.msg, "sds[2]") != NULL,
       "mixture: a negative sd is refused (%s)", p ? "" : e.msg);
  }
}

/* == eight schools ======================================================= */

static void test_eightschools (ol_rng *r)
{
  static const double y[8] = {28, 8, -3, 7, -1, 1, 18, 12};
  static const double s[8] = {15, 10, 16, 11, 9, 11, 10, 18};
  ol_pval v[8];
  ol_problem *pn, *pc;
  double q[10], x[10], qc[10], back[10], c0 = NAN, spread = 0, want = 0;
  double rt = 0, taue = 0;
  int i, t;
  defaults("eightschools", v);
  pn = mk("eightschools", v);
  v[0].num = 0;
  pc = mk("eightschools", v);
  if (!ok(pn != NULL && pc != NULL && pn->n == 10,
          "eightschools: non-centred (default) and centred, n = 10"))
    return;
  olt_derivs("eightschools{noncentered=true}", pn, r, 1.0);
  olt_derivs("eightschools{noncentered=false}", pc, r, 1.0);
  /* (1) by hand at q = 0 (tau = 1): sum y^2 / (2 s^2) + log(1 + 1/25) */
  for (i = 0; i < 8; i++) want += y[i] * y[i] / (2 * s[i] * s[i]);
  want += log(1 + 1.0 / 25);
  is_close(olt_fval(pn, pn->x0), want, 1e-14, "eightschools: U(0) = "
           "sum y^2 / (2 sigma^2) + log(26/25) = %.10g", want);
  /* (2) U_nc(q) = U_c(T'(q)) - J log tau + const, T': theta = mu + tau
  ** theta_trans; the same draws x = (theta, mu, tau) from both */
  for (t = 0; t < 20; t++) {
    double d;
    for (i = 0; i < 10; i++) q[i] = ol_rng_normal(r);
    q[8] = 5 * ol_rng_normal(r);
    ol_problem_constrain(pn, q, x);
    taue = fmax(taue, fabs(x[9] / exp(q[9]) - 1) + fabs(x[8] - q[8])
                + fabs(x[0] - (q[8] + exp(q[9]) * q[0])));
    ol_problem_unconstrain(pc, x, qc, NULL);
    ol_problem_unconstrain(pn, x, back, NULL);
    rt = fmax(rt, relerr(back, q, 10));
    d = olt_fval(pn, q) - olt_fval(pc, qc) + 8 * q[9];
    if (t == 0) c0 = d;
    spread = fmax(spread, fabs(d - c0));
  }
  ok(spread < 1e-9, "eightschools: U_nc(q) - U_c(T'(q)) + J log tau is "
     "constant over 20 points (spread %.2g)", spread);
  ok(rt < 1e-13, "eightschools: unconstrain(constrain(q)) = q (rel err "
     "%.2g)", rt);
  ok(taue < 1e-13, "eightschools: draws are theta_1 = mu + tau theta_trans_1, "
     "mu, tau = exp(log tau) (err %.2g)", taue);
  {
    ol_err e;
    x[9] = 0;
    ok(ol_problem_unconstrain(pn, x, q, &e) == OL_EINVAL
       && strstr(e.msg, "tau") != NULL, "eightschools: tau = 0 is outside "
       "the support (%s)", e.msg);
  }
  ol_problem_free(pn);
  ol_problem_free(pc);
}

/* == Bayesian logistic regression ========================================= */

static void test_blogreg (ol_rng *r)
{
  ol_pval v[8];
  ol_problem *p, *lr;
  double x[10], z[10] = {0}, spread = 0, sigma = 2;
  int i, t, N = 200;
  defaults("blogreg", v);
  v[2].num = sigma;
  p = mk("blogreg", v);
  defaults("logreg", v);
  v[2].num = 0;
  lr = mk("logreg", v);
  if (!ok(p != NULL && lr != NULL && p->n == 10 && p->hess != NULL,
          "blogreg: n = 200, d = 10 is created, with a Hessian"))
    return;
  olt_derivs("blogreg{sigma=2}", p, r, 0.5);
  is_close(olt_fval(p, z), N * log(2.0), 1e-14, "blogreg: U(0) = N log 2 "
           "(every likelihood term is 1/2)");
  for (t = 0; t < 10; t++) {
    double prior = 0, d;
    for (i = 0; i < 10; i++) {
      x[i] = ol_rng_normal(r);
      prior += x[i] * x[i] / (2 * sigma * sigma);
    }
    d = (olt_fval(p, x) - olt_fval(p, z) - prior)
        - N * (olt_fval(lr, x) - olt_fval(lr, z));
    spread = fmax(spread, fabs(d));
  }
  ok(spread < 1e-10, "blogreg: U - ||x||^2 / (2 sigma^2) = N f_logreg "
     "(lambda = 0, the same data) + const (max diff %.2g)", spread);
  ol_problem_free(p);
  ol_problem_free(lr);
}

/* == densities from log p, with bounds ==================================== */

/* Six independent coordinates with known laws, log p summed:
**   1 U(0, 1)              on (0, 1)     mean 1/2, var 1/12
**   2 Exp(1)               on (0, inf)   mean 1, var 1
**   3 -2 + 5 Beta(2, 3)    on (-2, 3)    mean 0, var 1
**   4 -Exp(1)              on (-inf, 0)  mean -1, var 1
**   5 1 + Gamma(3, 1)      on (1, inf)   mean 4, var 3
**   6 N(0, 1)              unbounded     mean 0, var 1 */
#define ND 6
static const double d_lo[ND] = {0, 0, -2, -INFINITY, 1, -INFINITY};
static const double d_hi[ND] = {1, INFINITY, 3, 0, INFINITY, INFINITY};
static const double d_mean[ND] = {0.5, 1, 0, -1, 4, 0};
static const double d_var[ND] = {1.0 / 12, 1, 1, 1, 3, 1};

static int d_logp (void *ud, const double *x, double *f, double *g,
                   ol_err *e)
{
  double y = (x[2] + 2) / 5;
  (void)ud; (void)e;
  if (f != NULL)
    *f = -x[1] + log(y) + 2 * log1p(-y) + x[3] + 2 * log(x[4] - 1)
         - (x[4] - 1) - 0.5 * x[5] * x[5];
  if (g != NULL) {
    g[0] = 0;
    g[1] = -1;
    g[2] = (1 / y - 2 / (1 - y)) / 5;
    g[3] = 1;
    g[4] = 2 / (x[4] - 1) - 1;
    g[5] = -x[5];
  }
  return OL_OK;
}

static ol_problem *d_make (int fd, const double *lo, const double *hi,
                           const double *x0, ol_err *e)
{
  ol_problem *lp = ol_problem_custom(ND, d_logp, fd, NULL, NULL, e), *p;
  if (lp == NULL) return NULL;
  p = ol_problem_density(lp, lo, hi, x0, e);
  if (p == NULL) ol_problem_free(lp);
  return p;
}

static double inv_logit (double u)
{
  return 1 / (1 + exp(-u));
}

static void test_bounds (ol_rng *r)
{
  ol_problem *p, *pf, *pu;
  ol_err e;
  double u[ND], x[ND], back[ND], gx[ND], f, work[ND], g[ND], gf[ND];
  double uerr = 0, gerr = 0, fderr = 0, rt = 0, xerr = 0;
  int i, t;
  p = d_make(0, d_lo, d_hi, NULL, &e);
  pf = d_make(1, d_lo, d_hi, NULL, &e);
  if (!ok(p != NULL && pf != NULL, "density: bounded 6-D from log p is "
          "created"))
    return;
  ok(p->kind == OL_DENSITY && p->xform != NULL && p->xform->lo != NULL
     && p->xform->hi[1] == INFINITY && p->xform->lo[3] == -INFINITY,
     "density: kind density, the bounds kept in p->xform");
  ok(p->x0[0] == 0 && p->x0[5] == 0, "density: no x0 gives u = 0");
  /* (1) U(u) = -log p(T(u)) - log|dT/du| with T and the log-Jacobians
  ** written out; the gradient against differences; fd_grad agrees */
  for (t = 0; t < 20; t++) {
    double lp, logj, s0, s2;
    for (i = 0; i < ND; i++) u[i] = 2 * ol_rng_normal(r);
    s0 = inv_logit(u[0]);
    s2 = inv_logit(u[2]);
    x[0] = s0;
    x[1] = exp(u[1]);
    x[2] = -2 + 5 * s2;
    x[3] = -exp(u[3]);
    x[4] = 1 + exp(u[4]);
    x[5] = u[5];
    logj = log(s0) + log(1 - s0) + u[1] + log(5.0) + log(s2) + log(1 - s2)
           + u[3] + u[4];
    d_logp(NULL, x, &lp, NULL, NULL);
    ol_problem_constrain(p, u, back);
    xerr = fmax(xerr, relerr(back, x, ND));
    uerr = fmax(uerr, fabs(olt_fval(p, u) - (-lp - logj))
                      / fmax(1, fabs(lp + logj)));
    gerr = fmax(gerr, olt_graderr(p, u));
    ol_problem_eval(p, u, &f, g, work, NULL);
    ol_problem_eval(pf, u, &f, gf, work, NULL);
    fderr = fmax(fderr, relerr(gf, g, ND));
    ol_problem_unconstrain(p, back, x, NULL);
    rt = fmax(rt, relerr(x, u, ND));
  }
  ok(xerr < 1e-14, "density: constrain is lo + e^u, hi - e^u, lo + (hi-lo) "
     "s(u), u (rel err %.2g)", xerr);
  ok(uerr < 1e-13, "density: U(u) = -log p(x) - log|dx/du| (rel err %.2g)",
     uerr);
  ok(gerr < 1e-6, "density: the chain-rule gradient matches differences "
     "(rel err %.2g)", gerr);
  ok(fderr < 1e-6, "density: without grad log p, finite differences on the "
     "u scale agree (rel err %.2g)", fderr);
  ok(rt < 1e-12, "density: unconstrain(constrain(u)) = u (rel err %.2g)",
     rt);
  /* (2) far out: x on its bound, U not finite, reported as OL_EDOM */
  for (i = 0; i < ND; i++) u[i] = 0;
  u[0] = 800;
  u[2] = -800;
  ol_problem_constrain(p, u, x);
  ok(x[0] == 1 && x[2] == -2, "density: u = +-800 maps to the bounds (%g, "
     "%g)", x[0], x[2]);
  u[2] = 0;
  u[4] = -800;
  ok(ol_problem_eval(p, u, &f, gx, work, &e) == OL_EDOM,
     "density: x on a bound where log p = -inf gives OL_EDOM (%s)", e.msg);
  /* (3) x0 on the constrained scale; errors */
  {
    static const double x0[ND] = {0.25, 2, 1, -0.5, 3, -1};
    static const double x0bad[ND] = {0.25, 0, 1, -0.5, 3, -1};
    double lo2[ND], hi2[ND];
    ol_problem *q = d_make(0, d_lo, d_hi, x0, &e);
    if (ok(q != NULL, "density: x0 inside the bounds is accepted")) {
      ol_problem_constrain(q, q->x0, x);
      ok(relerr(x, x0, ND) < 1e-15 && fabs(q->x0[1] - log(2.0)) < 1e-15,
         "density: p->x0 is x0 on the u scale (u_2 = log 2)");
      ol_problem_free(q);
    }
    q = d_make(0, d_lo, d_hi, x0bad, &e);
    ok(q == NULL && strstr(e.msg, "x0: x[2] = 0 is not inside its bounds "
                           "(0, inf)") != NULL,
       "density: x0 on a bound is refused (%s)", q ? "" : e.msg);
    memcpy(lo2, d_lo, sizeof lo2);
    memcpy(hi2, d_hi, sizeof hi2);
    lo2[2] = 3;
    q = d_make(0, lo2, hi2, NULL, &e);
    ok(q == NULL && strstr(e.msg, "x[3]: lower = 3 must be below upper = 3")
       != NULL, "density: lower = upper is refused (%s)", q ? "" : e.msg);
    lo2[2] = NAN;
    q = d_make(0, lo2, hi2, NULL, &e);
    ok(q == NULL && strstr(e.msg, "x[3]: lower is NaN") != NULL,
       "density: a NaN bound is refused (%s)", q ? "" : e.msg);
  }
  /* (4) no bounds: no transform, U = -log p */
  pu = d_make(0, NULL, NULL, NULL, &e);
  if (ok(pu != NULL && pu->xform == NULL, "density: without bounds there "
         "is no transform")) {
    double lp, gl[ND];
    for (i = 0; i < ND; i++) x[i] = 0.5;
    x[4] = 2;
    d_logp(NULL, x, &lp, gl, NULL);
    ol_problem_eval(pu, x, &f, g, work, NULL);
    ok(f == -lp && g[2] == -gl[2] && g[4] == -gl[4],
       "density: unbounded, U = -log p and grad U = -grad log p exactly");
    ol_problem_free(pu);
  }
  ol_problem_free(p);
  ol_problem_free(pf);
}

/* == sampling, draws mapped to the constrained scale ===================== */

#define CH 4
#define DRAWS 5000L

/* CH chains of NUTS at its defaults on p from x0 + N(0, I) (on the u
** scale), the method's warmup + DRAWS steps each; the post-warmup draws
** mapped by ol_problem_constrain into a new array (chain-major, DRAWS rows
** of n), or NULL (the failure ok()ed). */
static double *nuts_draws (const char *who, const ol_problem *p)
{
  const ol_method_type *m = ol_method_find("nuts");
  int n = p->n, c, j, wk;
  double par[16], *X, *x0;
  long warm, i;
  ol_rng r0;
  ol_err e;
  olt_params(m, par, (char *)NULL);
  wk = ol_param_find(m->params, m->nparams, "warmup");
  warm = wk >= 0 ? (long)par[wk] : 0;
  diag("%s: seed %u, nuts defaults, %d chains of %ld warmup + %ld draws",
       who, (unsigned)SEED, CH, warm, DRAWS);
  X = malloc(sizeof(double) * CH * DRAWS * n);
  x0 = malloc(sizeof(double) * n);
  ol_rng_seed(&r0, SEED, 77);
  for (c = 0; c < CH && X != NULL; c++) {
    ol_run_opts o = olt_opts(warm + DRAWS, 0, OL_MSET_EMPTY);
    ol_run *r;
    for (j = 0; j < n; j++) x0[j] = p->x0[j] + ol_rng_normal(&r0);
    o.seed = SEED;
    o.stream = (uint64_t)c;
    o.x0 = x0;
    if ((r = ol_run_new(p, m, par, &o, &e)) == NULL) {
      ok(0, "%s: chain %d starts (%s)", who, c, e.msg);
      free(X);
      X = NULL;
      break;
    }
    for (i = 0; i < warm + DRAWS; i++) {
      if (ol_run_step(r) != 0 && ol_run_reason(r) != OL_STOP_BUDGET) {
        ok(0, "%s: chain %d step %ld (%s)", who, c, i, ol_run_message(r));
        free(X);
        X = NULL;
        break;
      }
      if (i >= warm)
        ol_problem_constrain(p, ol_run_x(r),
                             X + ((size_t)c * DRAWS + (i - warm)) * n);
    }
    ol_run_free(r);
  }
  free(x0);
  return X;
}

/* Summary of coordinate j of the draws X (n columns), or of (x_j - c)^2
** when sq. */
static ol_summary coord (const double *X, int n, int j, int sq, double c)
{
  long k, S = CH * DRAWS;
  double *h = malloc(sizeof(double) * S);
  ol_draws d = ol_draws_plain(h, CH, DRAWS);
  ol_summary s;
  ol_err e;
  for (k = 0; k < S; k++) {
    double x = X[(size_t)k * n + j];
    h[k] = sq ? (x - c) * (x - c) : x;
  }
  if (ol_diag_summary(&d, &s, &e) != OL_OK) diag("summary: %s", e.msg);
  free(h);
  return s;
}

/* The Jacobian in law: every coordinate's mean and variance of the
** constrained draws within 4 MCSE of the exact ones. */
/* The bounded density's Hessian (bounded.c's, from log p's) against
** central differences of its gradient, at seeded points: d_logp with two
** couplings added (x1 x2 / 10 and x3 x6 / 4), its Hessian by hand. */
static int h_logp (void *ud, const double *x, double *f, double *g,
                   ol_err *e)
{
  d_logp(ud, x, f, g, e);
  if (f != NULL) *f += 0.1 * x[0] * x[1] + 0.25 * x[2] * x[5];
  if (g != NULL) {
    g[0] += 0.1 * x[1];
    g[1] += 0.1 * x[0];
    g[2] += 0.25 * x[5];
    g[5] += 0.25 * x[2];
  }
  return OL_OK;
}

static int h_hess (void *ud, const double *x, double *H, ol_err *e)
{
  double y = (x[2] + 2) / 5;
  int i;
  (void)ud; (void)e;
  for (i = 0; i < ND * ND; i++) H[i] = 0;
  H[2 * ND + 2] = (-1 / (y * y) - 2 / ((1 - y) * (1 - y))) / 25;
  H[4 * ND + 4] = -2 / ((x[4] - 1) * (x[4] - 1));
  H[5 * ND + 5] = -1;
  H[0 * ND + 1] = H[1 * ND + 0] = 0.1;
  H[2 * ND + 5] = H[5 * ND + 2] = 0.25;
  return OL_OK;
}

static void test_hessian (ol_rng *r)
{
  ol_err e;
  ol_problem *lp = ol_problem_custom(ND, h_logp, 0, NULL, NULL, &e), *p;
  double u[ND], H[ND * ND], F[ND * ND], work[2 * ND], worst = 0, big = 0;
  int t, i;
  if (lp == NULL || ol_problem_set_hess(lp, h_hess, &e) != OL_OK) return;
  if ((p = ol_problem_density(lp, d_lo, d_hi, NULL, &e)) == NULL) {
    ol_problem_free(lp);
    return;
  }
  ok(p->hess != NULL, "bounded density: a Hessian when log p has one");
  for (t = 0; t < 20; t++) {
    for (i = 0; i < ND; i++) u[i] = 1.5 * ol_rng_normal(r);
    if (p->hess(p->ud, u, H, &e) != OL_OK ||
        ol_problem_fdhess(p, u, F, work, &e) != OL_OK) {
      worst = INFINITY;
      break;
    }
    for (i = 0; i < ND * ND; i++) {
      worst = fmax(worst, fabs(H[i] - F[i]));
      big = fmax(big, fabs(F[i]));
    }
  }
  ok(worst <= 1e-6 * big, "bounded density: the potential's Hessian on "
     "the u scale (chain rule through the bound transforms) matches "
     "central differences of its gradient at 20 seeded points (worst "
     "%.2g, largest entry %.3g)", worst, big);
  ol_problem_free(p);
}

static void test_jacobian (void)
{
  static const char *const law[ND] = {"U(0,1)", "Exp(1)", "-2+5 Beta(2,3)",
                                      "-Exp(1)", "1+Gamma(3)", "N(0,1)"};
  ol_problem *p;
  ol_err e;
  double *X;
  int j;
  p = d_make(0, d_lo, d_hi, NULL, &e);
  if (!ok(p != NULL, "jacobian: the bounded 6-D density is made")) return;
  if ((X = nuts_draws("jacobian", p)) == NULL) goto out;
  for (j = 0; j < ND; j++) {
    ol_summary s = coord(X, ND, j, 0, 0), sv = coord(X, ND, j, 1, d_mean[j]);
    ok(fabs(s.mean - d_mean[j]) <= 4 * s.mcse_mean,
       "jacobian: x%d ~ %s, mean %.4f, exact %.4f, within 4 MCSE = %.4f "
       "(ESS %.0f, bulk-ESS %.0f, R-hat %.4f)", j + 1, law[j], s.mean,
       d_mean[j], 4 * s.mcse_mean, s.ess_mean, s.ess_bulk, s.rhat);
    ok(fabs(sv.mean - d_var[j]) <= 4 * sv.mcse_mean,
       "jacobian: x%d ~ %s, variance %.4f, exact %.4f, within 4 MCSE = %.4f "
       "(ESS %.0f)", j + 1, law[j], sv.mean, d_var[j], 4 * sv.mcse_mean,
       sv.ess_mean);
  }
out:
  free(X);
  ol_problem_free(p);
}

/* The non-centred funnel's transform in law: v = 3 u_1 has mean 0 and
** variance 9, x_2 mean 0. */
static void test_funnel_nuts (void)
{
  ol_pval v[8];
  ol_problem *p;
  double *X;
  defaults("funnel", v);
  v[1].num = 1;
  if ((p = mk("funnel", v)) == NULL) return;
  if ((X = nuts_draws("funnel{noncentered=true}", p)) != NULL) {
    ol_summary s = coord(X, p->n, 0, 0, 0), sv = coord(X, p->n, 0, 1, 0);
    ol_summary sx = coord(X, p->n, 1, 0, 0);
    ok(fabs(s.mean) <= 4 * s.mcse_mean && fabs(sv.mean - 9) <=
       4 * sv.mcse_mean && fabs(sx.mean) <= 4 * sx.mcse_mean,
       "funnel{noncentered=true}, nuts: E v = %.3f (0), Var v = %.3f (9), "
       "E x_2 = %.3f (0), each within 4 MCSE (%.3f, %.3f, %.3f)", s.mean,
       sv.mean, sx.mean, 4 * s.mcse_mean, 4 * sv.mcse_mean,
       4 * sx.mcse_mean);
  }
  free(X);
  ol_problem_free(p);
}

/* posteriordb's reference posterior of eight_schools_noncentered
** (stan-dev/posteriordb, reference_posteriors; as ../shared/data/
** posteriordb/posteriors.lua gives them): NUTS at its defaults on
** eightschools{} reproduces every mean of (theta_1..8, mu, tau) within 3
** combined MCSE and every sd within 10%. */
static void test_es_reference (void)
{
  static const double rmean[10] = {6.150502293, 4.939581141, 3.90590609,
                                   4.796016751, 3.614436325, 4.051147579,
                                   6.317169759, 4.883996944, 4.410518337,
                                   3.602059524};
  static const double rsd[10] = {5.615863419, 4.645578114, 5.280711952,
                                 4.770938024, 4.614720692, 4.796248401,
                                 5.002855395, 5.317692056, 3.309296477,
                                 3.198477671};
  static const double rmcse[10] = {0.05574, 0.04623, 0.05423, 0.04749,
                                   0.04615, 0.04852, 0.04988, 0.05425,
                                   0.03304, 0.03186};
  ol_pval v[8];
  ol_problem *p;
  double *X, worst_m = 0, worst_s = 0;
  int j, badm = 0, bads = 0;
  defaults("eightschools", v);
  if ((p = mk("eightschools", v)) == NULL) return;
  if ((X = nuts_draws("eightschools", p)) != NULL) {
    for (j = 0; j < 10; j++) {
      ol_summary s = coord(X, 10, j, 0, 0);
      double z = fabs(s.mean - rmean[j])
                 / sqrt(s.mcse_mean * s.mcse_mean + rmcse[j] * rmcse[j]);
      double ds = fabs(s.sd / rsd[j] - 1);
      if (!(z <= 3)) badm++;
      if (!(ds <= 0.1)) bads++;
      worst_m = fmax(worst_m, z);
      worst_s = fmax(worst_s, ds);
      if (j >= 8)
        diag("eightschools: %s mean %.3f (ref %.3f), sd %.3f (ref %.3f)",
             j == 8 ? "mu" : "tau", s.mean, rmean[j], s.sd, rsd[j]);
    }
    ok(badm == 0, "eightschools, nuts: every mean of (theta, mu, tau) within "
       "3 combined MCSE of posteriordb's (worst %.2f MCSE)", worst_m);
    ok(bads == 0, "eightschools, nuts: every sd within 10%% of "
       "posteriordb's (worst %.1f%%)", 100 * worst_s);
  }
  free(X);
  ol_problem_free(p);
}

int main (void)
{
  ol_rng r;
  diag("seed %u", (unsigned)SEED);
  ol_rng_seed(&r, SEED, 0);
  test_registry();
  test_gaussian(&r);
  test_banana(&r);
  test_funnel(&r);
  test_mixture(&r);
  test_eightschools(&r);
  test_blogreg(&r);
  test_bounds(&r);
  test_hessian(&r);
  test_jacobian();
  test_funnel_nuts();
  test_es_reference();
  return done();
}
