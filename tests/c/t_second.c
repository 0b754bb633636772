/*
** tests/c/t_second.c -- the second-order optimizers (newton, cubic, lbfgs)
** through the registry problems and the run engine.
**
** (1) Acceptance: lbfgs and newton stop by tolerance 1e-8 on chained
**     Rosenbrock n = 2, 100, 1000 from (-1.2, 1, ...) (newton n = 1000 is
**     a dense 1000 x 1000 solve per step over ~1500 steps, ~25 s;
**     OPTLAB_QUICK=1 skips it, as make valgrind does); newton reaches
**     1e-10 on logreg{n=2000, d=500, lambda=1e-3} in under 15 steps, and its x* is checked against a
**     gradient written out here from the regenerated data and against
**     lbfgs.
** (2) Iterates against independent truth: pure Newton solves a quadratic
**     in one step; newton's pure / damped iterates equal x - a H^{-1} g
**     from LAPACK dgesv; cubic's step satisfies the model's optimality
**     conditions and is its global minimiser (hard case in closed form);
**     on an indefinite Hessian newton takes Greenstadt's step (H's
**     eigenvalues by their absolute values) and descends, cubic moves
**     along negative curvature; lbfgs's first step is a strong-Wolfe
**     steepest-descent step (the exact line minimiser for small c2), its
**     second (m = 1) follows the one-pair two-loop written out here.
** (3) Failure: a non-finite Hessian and a kink where no step decreases f
**     stop the run with the stated reason and message.
** (4) newton step = "aicn" (Hanzely et al. 2022): the first step by hand
**     on sqrt(1 + x^2) and on Rosenbrock n = 2 (g, H written out, H^-1 by
**     Cramer's rule, alpha by the paper's formula) to 1e-14; from x0 = 2
**     and 10, where pure Newton diverges, it converges to x* = 0 with f
**     never increasing, L being T38's semi-strong self-concordance
**     constant over the initial level set (computed here on a grid);
**     near x* the error ratios e_{k+1} / e_k^2 stay bounded (quadratic
**     rate; on T38 they rise to L/2, as alpha = 1 - L lambda / 2 + ...
**     predicts); the other three rules give the
**     iterates they gave before aicn was added (pinned from that build).
*/
#include <cblas.h>
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

/* A run of method name on p, advanced by up to iters steps. */
static ol_run *go (const ol_problem *p, const char *name, const double *par,
                   long iters, double tol)
{
  ol_run_opts o = olt_opts(iters, tol, OL_MSET_OF(OL_MET_LOSS,
                                                  OL_MET_GRADNORM));
  return olt_go(p, ol_method_find(name), par, &o);
}

/* True gradient norm at x by the problem's oracle. */
static double gnorm (const ol_problem *p, const double *x)
{
  double *g = malloc(sizeof(double) * p->n), v;
  ol_err e;
  p->fdf(p->ud, x, NULL, g, &e);
  v = cblas_dnrm2(p->n, g, 1);
  free(g);
  return v;
}

/* == (1) acceptance ======================================================= */

static void test_rosenbrock (void)
{
  static const int ns[] = {2, 100, 1000};
  const char *quick = getenv("OPTLAB_QUICK");
  double par[8];
  int k;
  for (k = 0; k < 3; k++) {
    ol_problem *p = olt_problem("rosenbrock", NULL, "n", (double)ns[k],
                                (char *)NULL);
    ol_run *r;
    olt_method("lbfgs", par, (char *)NULL);
    r = go(p, "lbfgs", par, 20000, 1e-8);
    ok(r != NULL && ol_run_reason(r) == OL_STOP_TOL
       && gnorm(p, ol_run_x(r)) <= 1e-8,
       "lbfgs: rosenbrock n=%d stops by tolerance 1e-8 within 20000 steps",
       ns[k]);
    if (r != NULL) {
      diag("lbfgs n=%d: %ld steps, %ld f+g evaluations, f = %.3g, "
           "||x|| - sqrt(n) = %.3g", ns[k], ol_run_iter(r), ol_run_ngev(r),
           ol_run_last(r, OL_MET_LOSS),
           cblas_dnrm2(ns[k], ol_run_x(r), 1) - sqrt((double)ns[k]));
      ok(ol_run_last(r, OL_MET_LOSS) < 1e-15,
         "lbfgs: rosenbrock n=%d ends at the global minimum f* = 0 (%.3g)",
         ns[k], ol_run_last(r, OL_MET_LOSS));
    }
    ol_run_free(r);
    if (ns[k] == 1000 && quick != NULL && strcmp(quick, "1") == 0) {
      diag("newton on rosenbrock n=1000 skipped (OPTLAB_QUICK=1)");
      ol_problem_free(p);
      continue;
    }
    olt_method("newton", par, (char *)NULL);
    r = go(p, "newton", par, 5000, 1e-8);
    ok(r != NULL && ol_run_reason(r) == OL_STOP_TOL
       && gnorm(p, ol_run_x(r)) <= 1e-8,
       "newton: rosenbrock n=%d stops by tolerance 1e-8 within 5000 steps",
       ns[k]);
    if (r != NULL) {
      double f = ol_run_last(r, OL_MET_LOSS);
      diag("newton n=%d: %ld steps, %ld f / %ld g / %ld H evaluations, "
           "f = %.12g", ns[k], ol_run_iter(r), ol_run_nfev(r),
           ol_run_ngev(r), ol_run_nhev(r), f);
      /* n = 2: the global minimum; n >= 4: from this start Newton lands
      ** on the second local minimiser near (-1, 1, ..., 1), f = 3.98662 */
      if (ns[k] == 2)
        ok(f < 1e-15, "newton: rosenbrock n=2 ends at f* = 0 (%.3g)", f);
      else
        is_near(f, 3.98662385430093, 1e-9, "newton: rosenbrock n=%d ends "
                "at the local minimum near (-1, 1, ..., 1)", ns[k]);
    }
    ol_run_free(r);
    ol_problem_free(p);
  }
  {
    ol_problem *p = olt_problem("rosenbrock", NULL, "n", 2.0, (char *)NULL);
    ol_run *r;
    olt_method("cubic", par, (char *)NULL);
    r = go(p, "cubic", par, 1000, 1e-8);
    ok(r != NULL && ol_run_reason(r) == OL_STOP_TOL
       && ol_run_last(r, OL_MET_LOSS) < 1e-15,
       "cubic: rosenbrock n=2 reaches gradnorm 1e-8 at f* = 0 (%ld steps)",
       r != NULL ? ol_run_iter(r) : -1L);
    ol_run_free(r);
    ol_problem_free(p);
  }
}

/* logreg's data regenerated exactly as core/problems/logreg.c makes it
** (A row by row, then w_true, then the labels), so the gradient can be
** written out here from its definition. */
typedef struct lrdata {
  int n, d;
  double lambda, *A, *y;
} lrdata;

static int lr_make (lrdata *L, int n, int d, double lambda, uint64_t seed)
{
  ol_rng rng;
  double *w, *z;
  int i;
  L->n = n;
  L->d = d;
  L->lambda = lambda;
  L->A = malloc(sizeof(double) * (size_t)n * d);
  L->y = malloc(sizeof(double) * n);
  w = malloc(sizeof(double) * d);
  z = malloc(sizeof(double) * n);
  if (!L->A || !L->y || !w || !z) return 0;
  ol_rng_seed(&rng, seed, 0);
  for (i = 0; i < n; i++) ol_rng_normals(&rng, L->A + (size_t)i * d, d);
  ol_rng_normals(&rng, w, d);
  for (i = 0; i < d; i++) w[i] /= sqrt((double)d);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, n, d, 1.0, L->A, d, w, 1, 0.0,
              z, 1);
  for (i = 0; i < n; i++) {
    double m = -z[i], sg = m >= 0 ? exp(-m) / (1 + exp(-m))
      : 1 / (1 + exp(m));
    L->y[i] = ol_rng_uniform(&rng) < sg ? 1.0 : -1.0;
  }
  free(w);
  free(z);
  return 1;
}

/* f and g = -(1/n) sum_i y_i a_i / (1 + exp(y_i a_i'x)) + lambda x, by
** plain loops. */
static double lr_fg (const lrdata *L, const double *x, double *g)
{
  double f = 0;
  int i, j;
  for (j = 0; j < L->d; j++) g[j] = L->lambda * x[j];
  for (i = 0; i < L->n; i++) {
    const double *a = L->A + (size_t)i * L->d;
    double m = 0, c;
    for (j = 0; j < L->d; j++) m += a[j] * x[j];
    m *= L->y[i];
    f += m > 0 ? log1p(exp(-m)) : -m + log1p(exp(m));
    c = -L->y[i] / (1 + exp(m)) / L->n;
    for (j = 0; j < L->d; j++) g[j] += c * a[j];
  }
  f /= L->n;
  for (j = 0; j < L->d; j++) f += 0.5 * L->lambda * x[j] * x[j];
  return f;
}

static void test_logreg (void)
{
  ol_problem *p = olt_problem("logreg", NULL, "n", 2000.0, "d", 500.0,
                              "lambda", 1e-3, "seed", 1.0, (char *)NULL);
  double par[8], g[500], fo, ft;
  ol_run *rn, *rl;
  lrdata L;
  ol_err e;
  olt_method("newton", par, (char *)NULL);
  rn = go(p, "newton", par, 50, 1e-10);
  ok(rn != NULL && ol_run_reason(rn) == OL_STOP_TOL,
     "newton: logreg{n=2000, d=500, lambda=1e-3} stops by tolerance 1e-10");
  if (rn == NULL) {
    ol_problem_free(p);
    return;
  }
  ok(ol_run_iter(rn) < 15, "newton: logreg needs < 15 steps (%ld)",
     ol_run_iter(rn));
  diag("newton logreg: %ld steps, f = %.15g, |g| = %.3g", ol_run_iter(rn),
       ol_run_last(rn, OL_MET_LOSS), ol_run_last(rn, OL_MET_GRADNORM));
  if (!lr_make(&L, 2000, 500, 1e-3, 1)) {
    ok(0, "logreg: test data allocated");
    ol_run_free(rn);
    ol_problem_free(p);
    return;
  }
  ft = lr_fg(&L, ol_run_x(rn), g);
  p->fdf(p->ud, ol_run_x(rn), &fo, NULL, &e);
  is_close(ft, fo, 1e-13, "logreg: regenerated data give the oracle's f "
           "at newton's x*");
  ok(cblas_dnrm2(500, g, 1) < 1e-9, "newton: ||grad f(x*)|| from the "
     "data written out here is %.3g < 1e-9", cblas_dnrm2(500, g, 1));
  olt_method("lbfgs", par, (char *)NULL);
  rl = go(p, "lbfgs", par, 2000, 1e-9);
  ok(rl != NULL && ol_run_reason(rl) == OL_STOP_TOL
     && cblas_dnrm2(500, ol_run_x(rl), 1) > 0.1,
     "lbfgs: logreg stops by tolerance 1e-9 (%ld steps)",
     rl != NULL ? ol_run_iter(rl) : -1L);
  if (rl != NULL) {
    double dx = 0;
    int i;
    for (i = 0; i < 500; i++) {
      double t = ol_run_x(rl)[i] - ol_run_x(rn)[i];
      dx += t * t;
    }
    ok(sqrt(dx) < 1e-6, "newton and lbfgs agree on x* (|dx| = %.3g)",
       sqrt(dx));
  }
  ol_run_free(rl);
  ol_run_free(rn);
  free(L.A);
  free(L.y);
  ol_problem_free(p);
}

/* == (2) iterates ========================================================== */

/* x1 of method name on p from p->x0 (one step), or 0 on failure. */
static int one_step (const ol_problem *p, const char *name,
                     const double *par, double *x1)
{
  ol_run *r = go(p, name, par, 1, 0);
  int good = r != NULL && ol_run_iter(r) == 1;
  if (good) memcpy(x1, ol_run_x(r), sizeof(double) * p->n);
  else if (r != NULL)
    diag("%s: %s %s", name, ol_stop_name(ol_run_reason(r)),
         ol_run_message(r));
  ol_run_free(r);
  return good;
}

static double maxdiff (const double *a, const double *b, int n)
{
  double m = 0;
  int i;
  for (i = 0; i < n; i++)
    if (!(fabs(a[i] - b[i]) <= m)) m = fabs(a[i] - b[i]);
  return m;
}

static void test_newton_iterates (void)
{
  ol_problem *q = olt_problem("quadratic", NULL, "n", 6.0, "cond", 1e3,
                              "seed", 3.0, (char *)NULL);
  ol_problem *p = olt_problem("logreg", NULL, "n", 60.0, "d", 7.0,
                              "lambda", 1e-2, (char *)NULL);
  double par[8], x1[7] = {0}, want[7], g[7], H[49], sol[7], lam, err;
  lapack_int piv[7];
  ol_err e;
  int i, good;
  /* pure Newton on a quadratic: x1 = x* = 0 */
  olt_method("newton", par, "step", 0.0, (char *)NULL);
  good = one_step(q, "newton", par, x1);
  err = maxdiff(x1, q->xstar, 6);
  ok(good && err < 1e-12, "newton: pure step solves a quadratic (cond 1e3) "
     "exactly (err %.3g)", err);
  /* x1 = x0 - H^{-1} g by dgesv (LU), logreg at a shifted start */
  for (i = 0; i < 7; i++) p->x0[i] = 0.3 * (i - 3);
  p->fdf(p->ud, p->x0, NULL, g, &e);
  p->hess(p->ud, p->x0, H, &e);
  memcpy(sol, g, sizeof g);
  LAPACKE_dgesv(LAPACK_ROW_MAJOR, 7, 1, H, 7, piv, sol, 1);
  for (i = 0; i < 7; i++) want[i] = p->x0[i] - sol[i];
  good = one_step(p, "newton", par, x1);
  err = maxdiff(x1, want, 7);
  ok(good && err < 1e-13, "newton: pure x1 = x0 - H^-1 g (dgesv) on logreg "
     "(err %.3g)", err);
  lam = sqrt(cblas_ddot(7, g, 1, sol, 1));
  for (i = 0; i < 7; i++) want[i] = p->x0[i] - 0.5 * sol[i] / (1 + lam);
  olt_method("newton", par, "step", 1.0, "lr", 0.5, (char *)NULL);
  good = one_step(p, "newton", par, x1);
  err = maxdiff(x1, want, 7);
  ok(good && err < 1e-13, "newton: damped x1 = x0 - lr H^-1 g / (1 + "
     "lambda), lambda = %.4g (err %.3g)", lam, err);
  /* backtracking from a start where the full step is accepted */
  for (i = 0; i < 7; i++) want[i] = p->x0[i] - sol[i];
  olt_method("newton", par, (char *)NULL);
  good = one_step(p, "newton", par, x1);
  err = maxdiff(x1, want, 7);
  ok(good && err < 1e-13, "newton: backtrack takes the full step when "
     "Armijo holds at a = 1 (err %.3g)", err);
  ol_problem_free(q);
  ol_problem_free(p);
}

/* f = x^2/2 + (y^2 - 1)^2 / 4: H = diag(1, 3y^2 - 1) is indefinite for
** |y| < 1/sqrt(3); minima at (0, +-1), f* = 0. */
static int nc_fdf (void *ud, const double *x, double *f, double *g,
                   ol_err *e)
{
  double u = x[1] * x[1] - 1;
  (void)ud; (void)e;
  if (f != NULL) *f = 0.5 * x[0] * x[0] + 0.25 * u * u;
  if (g != NULL) {
    g[0] = x[0];
    g[1] = x[1] * u;
  }
  return OL_OK;
}

static int nc_hess (void *ud, const double *x, double *H, ol_err *e)
{
  (void)ud; (void)e;
  H[0] = 1;
  H[1] = H[2] = 0;
  H[3] = 3 * x[1] * x[1] - 1;
  return OL_OK;
}

static ol_problem *mknc (double x, double y)
{
  ol_err e;
  ol_problem *p = ol_problem_custom(2, nc_fdf, 0, NULL, NULL, &e);
  if (p == NULL) return NULL;
  p->hess = nc_hess;
  p->x0[0] = x;
  p->x0[1] = y;
  return p;
}

/* Cubic model m(s) = g's + 1/2 s'Hs + M/6 ||s||^3. */
static double cmodel (const double *g, const double *H, double M,
                      const double *s, int n)
{
  double gs = 0, shs = 0, ss = 0;
  int i, j;
  for (i = 0; i < n; i++) {
    gs += g[i] * s[i];
    ss += s[i] * s[i];
    for (j = 0; j < n; j++) shs += s[i] * H[i * n + j] * s[j];
  }
  return gs + 0.5 * shs + M / 6 * pow(ss, 1.5);
}

static void test_cubic (void)
{
  ol_problem *p = olt_problem("rosenbrock", NULL, "n", 5.0, (char *)NULL);
  double par[8], x1[5] = {0}, g[5], H[25], s[5], res[5], t[5], lam[5], Hc[25];
  double M = 40, ns, m0, mworst = INFINITY;
  ol_rng rng;
  ol_err e;
  int i, k;
  /* generic (non-hard) step at x0 with fixed M */
  olt_method("cubic", par, "M", M, "adapt", 0.0, (char *)NULL);
  if (!one_step(p, "cubic", par, x1)) {
    ok(0, "cubic: one step on rosenbrock n=5");
    ol_problem_free(p);
    return;
  }
  p->fdf(p->ud, p->x0, NULL, g, &e);
  p->hess(p->ud, p->x0, H, &e);
  for (i = 0; i < 5; i++) s[i] = x1[i] - p->x0[i];
  ns = cblas_dnrm2(5, s, 1);
  memcpy(res, g, sizeof res);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, 5, 5, 1.0, H, 5, s, 1, 1.0,
              res, 1);
  cblas_daxpy(5, 0.5 * M * ns, s, 1, res, 1);
  ok(cblas_dnrm2(5, res, 1) < 1e-10, "cubic: g + H s + M/2 ||s|| s = 0 "
     "(|res| = %.3g, |g| = %.3g)", cblas_dnrm2(5, res, 1),
     cblas_dnrm2(5, g, 1));
  memcpy(Hc, H, sizeof Hc);
  LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', 5, Hc, 5, lam);
  ok(lam[0] + 0.5 * M * ns >= -1e-12, "cubic: H + M ||s||/2 I >= 0 "
     "(lambda_min = %.4g, M r/2 = %.4g)", lam[0], 0.5 * M * ns);
  /* global minimiser of the model: random perturbations never do better */
  m0 = cmodel(g, H, M, s, 5);
  ol_rng_seed(&rng, 42, 0);
  diag("seed 42 for the model perturbations");
  for (k = 0; k < 2000; k++) {
    double sc = pow(10, -4 + 4 * ol_rng_uniform(&rng)), mv;
    for (i = 0; i < 5; i++) t[i] = s[i] + sc * ns * ol_rng_normal(&rng);
    mv = cmodel(g, H, M, t, 5);
    if (mv < mworst) mworst = mv;
  }
  ok(m0 < 0 && m0 <= mworst, "cubic: m(s) = %.6g < 0 is below m at 2000 "
     "perturbed points (best %.6g)", m0, mworst);
  ol_problem_free(p);

  /* hard case at (1, 0): g = (1, 0), H = diag(1, -1), M = 1:
  ** r = 2 |lambda_min| / M = 2, s = (-g_x / (1 + M r/2), +-sqrt(r^2 -
  ** s_x^2)) = (-1/2, +-sqrt(15)/2) */
  p = mknc(1, 0);
  olt_method("cubic", par, "M", 1.0, "adapt", 0.0, (char *)NULL);
  k = one_step(p, "cubic", par, x1);
  ok(k && fabs(x1[0] - 0.5) < 1e-12 && fabs(fabs(x1[1]) - sqrt(15) / 2)
     < 1e-12, "cubic: hard case at a saddle-like point: s = (-1/2, "
     "+-sqrt(15)/2), x1 = (%.15g, %.15g)", x1[0], x1[1]);
  /* with adapt, M grows until f decreases; y leaves 0 */
  olt_method("cubic", par, (char *)NULL);
  k = one_step(p, "cubic", par, x1);
  ok(k && fabs(x1[1]) > 1e-3
     && 0.5 * x1[0] * x1[0] + 0.25 * pow(x1[1] * x1[1] - 1, 2) < 0.75,
     "cubic: adaptive M moves along negative curvature (y1 = %.4g) and "
     "decreases f from 0.75", x1[1]);
  {
    ol_run *r = go(p, "cubic", par, 100, 1e-10);
    ok(r != NULL && ol_run_reason(r) == OL_STOP_TOL
       && fabs(fabs(ol_run_x(r)[1]) - 1) < 1e-9,
       "cubic: escapes the saddle of f at (1, 0) to a minimiser (0, +-1)");
    ol_run_free(r);
  }
  ol_problem_free(p);
}

static void test_newton_nonconvex (void)
{
  ol_problem *p = mknc(1, 0.1);
  double par[8], x1[2] = {0}, gx = 1, gy = 0.1 * (0.01 - 1), ratio, tau;
  olt_method("newton", par, (char *)NULL);
  if (!one_step(p, "newton", par, x1)) {
    ok(0, "newton: one step at an indefinite Hessian");
    ol_problem_free(p);
    return;
  }
  /* Greenstadt's step on H = diag(1, -0.97): dx = -a gx / 1, dy = -a gy /
  ** 0.97, whatever a the line search chose: their ratio is gy / (0.97
  ** gx).  (N&W Algorithm 3.3, tau I just above 0.97, made it gy / (tau -
  ** 0.97) / gx, a step along y of any length.) */
  ratio = (x1[1] - 0.1) / (x1[0] - 1);
  tau = gy / (0.97 * gx);
  ok(fabs(ratio - tau) <= 1e-12 * fabs(tau), "newton: H = diag(1, -0.97) "
     "gives Greenstadt's step, dy / dx = gy / (0.97 gx) = %.6g (%.6g)", tau,
     ratio);
  ok(0.5 * x1[0] * x1[0] + 0.25 * pow(x1[1] * x1[1] - 1, 2)
     < 0.5 + 0.25 * 0.99 * 0.99 && x1[1] > 0.1,
     "newton: the modified step decreases f and moves y toward the "
     "minimiser y = 1 (y1 = %.4g)", x1[1]);
  ol_problem_free(p);
}

static void test_lbfgs_iterates (void)
{
  ol_problem *p = olt_problem("quadratic", NULL, "n", 10.0, "cond", 100.0,
                              "seed", 5.0, (char *)NULL);
  double par[8], x1[10] = {0}, x2[10] = {0}, g0[10], g1[10], Hg[10];
  double H[100], sv[10];
  double yv[10], d[10], a, astar, f0, f1, gg, al, b, rho, gam, c;
  ol_err e;
  int i, par1 = 1;
  p->fdf(p->ud, p->x0, &f0, g0, &e);
  p->hess(p->ud, p->x0, H, &e);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, 10, 10, 1.0, H, 10, g0, 1, 0.0,
              Hg, 1);
  gg = cblas_ddot(10, g0, 1, g0, 1);
  astar = gg / cblas_ddot(10, g0, 1, Hg, 1);
  /* default c1, c2: a strong-Wolfe step along -g */
  olt_method("lbfgs", par, (char *)NULL);
  if (!one_step(p, "lbfgs", par, x1)) {
    ok(0, "lbfgs: one step on a quadratic");
    ol_problem_free(p);
    return;
  }
  a = (p->x0[0] - x1[0]) / g0[0];
  for (i = 0; i < 10; i++)
    if (fabs(p->x0[i] - a * g0[i] - x1[i]) > 1e-13) par1 = 0;
  p->fdf(p->ud, x1, &f1, g1, &e);
  ok(par1 && a > 0, "lbfgs: the first step is along -g (a = %.6g)", a);
  ok(f1 <= f0 - 1e-4 * a * gg
     && fabs(cblas_ddot(10, g1, 1, g0, 1)) <= 0.9 * gg,
     "lbfgs: the first step satisfies the strong Wolfe conditions "
     "(c1 = 1e-4, c2 = 0.9)");
  /* c2 = 1e-9: the strong-Wolfe point is the exact line minimiser */
  olt_method("lbfgs", par, "c1", 1e-10, "c2", 1e-9, (char *)NULL);
  i = one_step(p, "lbfgs", par, x1);
  a = (p->x0[0] - x1[0]) / g0[0];
  ok(i && fabs(a - astar) <= 1e-8 * astar, "lbfgs: with c2 = 1e-9 the "
     "first step is the exact minimiser along -g (a = %.12g, a* = g'g / "
     "g'Hg = %.12g)", a, astar);
  /* m = 1: the second direction is the one-pair two-loop written out */
  olt_method("lbfgs", par, "m", 1.0, (char *)NULL);
  {
    ol_run *r = go(p, "lbfgs", par, 1, 0);
    int good = r != NULL && ol_run_iter(r) == 1;
    if (good) {
      memcpy(x1, ol_run_x(r), sizeof x1);
      good = ol_run_extend(r, 2, &e) == OL_OK && ol_run_advance(r, 1) == 1;
      if (good) memcpy(x2, ol_run_x(r), sizeof x2);
    }
    ol_run_free(r);
    p->fdf(p->ud, x1, NULL, g1, &e);
    for (i = 0; i < 10; i++) {
      sv[i] = x1[i] - p->x0[i];
      yv[i] = g1[i] - g0[i];
    }
    rho = 1 / cblas_ddot(10, sv, 1, yv, 1);
    gam = cblas_ddot(10, sv, 1, yv, 1) / cblas_ddot(10, yv, 1, yv, 1);
    al = rho * cblas_ddot(10, sv, 1, g1, 1);
    for (i = 0; i < 10; i++) d[i] = gam * (g1[i] - al * yv[i]);
    b = rho * cblas_ddot(10, yv, 1, d, 1);
    for (i = 0; i < 10; i++) d[i] = -(d[i] + (al - b) * sv[i]);
    for (i = 0; i < 10; i++) sv[i] = x2[i] - x1[i];
    c = cblas_ddot(10, sv, 1, d, 1)
      / (cblas_dnrm2(10, sv, 1) * cblas_dnrm2(10, d, 1));
    ok(good && c > 1 - 1e-12, "lbfgs: m = 1, the second step follows "
       "d = -H1 g1 of the one-pair two-loop (cos = %.15f)", c);
  }
  ol_problem_free(p);
}

/* == (3) failures ========================================================== */

/* A kink: f = 1 + 100 |x - 1| + (x - 1)^2 / 2 at x0 = 1, where the oracle
** returns the right-hand derivative g = 100 (and H = 1): every step along
** -g increases f. */
static int kink_fdf (void *ud, const double *x, double *f, double *g,
                     ol_err *e)
{
  double u = x[0] - 1;
  (void)ud; (void)e;
  if (f != NULL) *f = 1 + 100 * fabs(u) + 0.5 * u * u;
  if (g != NULL) g[0] = (u >= 0 ? 100 : -100) + u;
  return OL_OK;
}

static int kink_hess (void *ud, const double *x, double *H, ol_err *e)
{
  (void)ud; (void)x; (void)e;
  H[0] = 1;
  return OL_OK;
}

static int nan_hess (void *ud, const double *x, double *H, ol_err *e)
{
  (void)ud; (void)x; (void)e;
  H[0] = 1;
  H[1] = H[2] = 0;
  H[3] = NAN;
  return OL_OK;
}

static void failure (ol_problem *p, const char *name, const double *par,
                     int reason, const char *msg, const char *what)
{
  ol_run *r = go(p, name, par, 10, 0);
  ok(r != NULL && ol_run_reason(r) == reason
     && strstr(ol_run_message(r), msg) != NULL,
     "%s: %s stops the run: %s (\"%s\")", name, what,
     r != NULL ? ol_stop_name(ol_run_reason(r)) : "no run",
     r != NULL ? ol_run_message(r) : "");
  ol_run_free(r);
}

static void test_failures (void)
{
  ol_err e;
  ol_problem *p = ol_problem_custom(1, kink_fdf, 0, NULL, NULL, &e);
  double par[8];
  ol_run *r;
  p->hess = kink_hess;
  p->x0[0] = 1;
  olt_method("newton", par, (char *)NULL);
  failure(p, "newton", par, OL_STOP_FAILED,
          "newton: line search found no decrease", "a kink (no decrease)");
  olt_method("lbfgs", par, (char *)NULL);
  failure(p, "lbfgs", par, OL_STOP_FAILED, "lbfgs: line search failed",
          "a kink (no decrease)");
  olt_method("cubic", par, (char *)NULL);
  failure(p, "cubic", par, OL_STOP_FAILED, "cubic: no decrease",
          "a kink (no decrease)");
  ol_problem_free(p);

  p = mknc(1, 0.1);
  p->hess = nan_hess;
  olt_method("newton", par, (char *)NULL);
  failure(p, "newton", par, OL_STOP_NONFINITE, "non-finite Hessian",
          "a NaN in the Hessian");
  olt_method("cubic", par, (char *)NULL);
  failure(p, "cubic", par, OL_STOP_NONFINITE, "non-finite Hessian",
          "a NaN in the Hessian");
  ol_problem_free(p);

  /* without p->hess: central differences of the gradient
  ** (ol_problem_fdhess), 2n gradient evaluations per Hessian in ngev; the
  ** iterates follow the analytic ones (Hessian error ~ eps^(2/3)) */
  {
    ol_problem *pa = mknc(1, 0.1), *pf = mknc(1, 0.1);
    ol_run *ra, *rf;
    pf->hess = NULL;
    olt_method("newton", par, (char *)NULL);
    ra = go(pa, "newton", par, 5, 0);
    rf = go(pf, "newton", par, 5, 0);
    ok(ra != NULL && rf != NULL && ol_run_iter(rf) == 5 &&
       olt_agree(ol_run_x(rf), ol_run_x(ra), 2, 1e-6),
       "newton: without a Hessian, finite differences of the gradient give "
       "the analytic iterates to 1e-6 over 5 steps");
    ok(rf != NULL && ra != NULL && ol_run_nhev(rf) == ol_run_nhev(ra) &&
       ol_run_ngev(rf) - ol_run_ngev(ra) == 2 * 2 * ol_run_nhev(rf),
       "newton: each finite-difference Hessian adds 2n = 4 gradient "
       "evaluations to ngev (ngev %ld vs %ld, nhev %ld)",
       rf != NULL ? ol_run_ngev(rf) : -1L, ra != NULL ? ol_run_ngev(ra)
       : -1L, rf != NULL ? ol_run_nhev(rf) : -1L);
    ol_run_free(ra);
    ol_run_free(rf);
    ol_problem_free(pa);
    ol_problem_free(pf);
  }

  p = mknc(1, 0.1);
  olt_method("lbfgs", par, "c1", 0.5, "c2", 0.1, (char *)NULL);
  r = ol_run_new(p, ol_method_find("lbfgs"), par, NULL, &e);
  ok(r == NULL && e.code == OL_EINVAL, "lbfgs: refuses c1 >= c2 (%s)",
     e.msg);
  ol_run_free(r);
  ol_problem_free(p);
}

/* == (4) aicn ============================================================= */

/* T38's h = f'' = (1 + x^2)^{-3/2} */
static double t38_h (double x)
{
  return pow(1 + x * x, -1.5);
}

/* The semi-strong self-concordance constant of sqrt(1 + x^2) over
** [-r, r] (in 1-D, |h(y) - h(x)| <= L |y - x| h(x)^{3/2}), as the maximum
** over a 401-point grid and its diagonal (|h'(x)| / h(x)^{3/2}), times
** 1.25 for the grid's gaps. */
static double t38_lsemi (double r)
{
  double best = 0, xs[401];
  int i, j;
  for (i = 0; i < 401; i++) xs[i] = -r + 2 * r * i / 400.0;
  for (i = 0; i < 401; i++) {
    double x = xs[i], hx = t38_h(x), den = pow(hx, 1.5);
    best = fmax(best, 3 * fabs(x) * pow(1 + x * x, -2.5) / den);
    for (j = 0; j < 401; j++)
      if (j != i)
        best = fmax(best, fabs(t38_h(xs[j]) - hx) / (fabs(xs[j] - x) * den));
  }
  return 1.25 * best;
}

/* alpha of AICN in the paper's form (-1 + sqrt(1 + 2 L lam)) / (L lam) */
static double aicn_alpha (double L, double lam)
{
  return (-1 + sqrt(1 + 2 * L * lam)) / (L * lam);
}

static void test_aicn_first_step (void)
{
  ol_problem *p = olt_problem("smoothabs", NULL, (char *)NULL);
  ol_problem *q = olt_problem("rosenbrock", NULL, "n", 2.0, (char *)NULL);
  double par[8], x1[2], want[2], x, g, h, lam, a, gv[2], H[3], det, hg[2];
  int good;
  /* (a) 1-D: x0 = 2, L = 5: g = x / sqrt(1 + x^2), h = (1 + x^2)^{-3/2},
  ** p = -g/h = -x (1 + x^2), lambda = sqrt(g^2 / h) */
  x = 2;
  g = x / sqrt(1 + x * x);
  h = t38_h(x);
  lam = sqrt(g * g / h);
  a = aicn_alpha(5, lam);
  want[0] = x - a * g / h;
  p->x0[0] = x;
  olt_method("newton", par, "step", 3.0, "L", 5.0, (char *)NULL);
  good = one_step(p, "newton", par, x1);
  ok(good && fabs(x1[0] - want[0]) <= 1e-14 * fmax(1, fabs(want[0])),
     "newton aicn: first step on sqrt(1 + x^2) from 2, L = 5: lambda = "
     "%.6g, alpha = %.6g, x1 = %.15g (want %.15g)", lam, a,
     good ? x1[0] : NAN, want[0]);
  /* (b) 2-D: Rosenbrock from (-1.2, 1), L = 3: g and H written out */
  {
    double u = -1.2, v = 1;
    gv[0] = -2 * (1 - u) - 400 * u * (v - u * u);
    gv[1] = 200 * (v - u * u);
    H[0] = 2 - 400 * (v - u * u) + 800 * u * u;    /* H11 */
    H[1] = -400 * u;                               /* H12 */
    H[2] = 200;                                    /* H22 */
    det = H[0] * H[2] - H[1] * H[1];
    hg[0] = (H[2] * gv[0] - H[1] * gv[1]) / det;   /* H^-1 g, Cramer */
    hg[1] = (H[0] * gv[1] - H[1] * gv[0]) / det;
    lam = sqrt(gv[0] * hg[0] + gv[1] * hg[1]);
    a = aicn_alpha(3, lam);
    want[0] = u - a * hg[0];
    want[1] = v - a * hg[1];
  }
  olt_method("newton", par, "step", 3.0, "L", 3.0, (char *)NULL);
  good = one_step(q, "newton", par, x1);
  ok(good && olt_agree(x1, want, 2, 1e-14),
     "newton aicn: first step on Rosenbrock n=2 from (-1.2, 1), L = 3: "
     "lambda = %.6g, alpha = %.6g, x1 = (%.15g, %.15g)", lam, a,
     want[0], want[1]);
  /* (c) L = 0 is pure Newton, to the bit */
  olt_method("newton", par, "step", 3.0, "L", 0.0, (char *)NULL);
  good = one_step(q, "newton", par, x1);
  olt_method("newton", par, "step", 0.0, (char *)NULL);
  ok(good && one_step(q, "newton", par, want) && x1[0] == want[0] &&
     x1[1] == want[1], "newton aicn: L = 0 takes the pure Newton step");
  ol_problem_free(p);
  ol_problem_free(q);
}

/* AICN on T38 from x0 with L: steps until |x| <= 1e-12 (at most 300),
** whether f ever increased, and the largest |x_{k+1}| / x_k^2 over the
** steps with |x_k| <= 0.1 and |x_{k+1}| >= 1e-100 (*nq of them). */
static long t38_aicn (double x0, double L, int *up, double *qmax, int *nq)
{
  ol_problem *p = olt_problem("smoothabs", NULL, (char *)NULL);
  double par[8], xo, xn;
  ol_run_opts o = olt_opts(300, 0, OL_MSET_OF(OL_MET_LOSS));
  ol_run *r;
  long k = -1;
  int rc = OL_STOP_NONE;
  *up = 0;
  *qmax = 0;
  *nq = 0;
  p->x0[0] = x0;
  olt_method("newton", par, "step", 3.0, "L", L, (char *)NULL);
  r = olt_run(p, ol_method_find("newton"), par, &o);
  if (r != NULL) {
    xo = x0;
    for (k = 0; k < 300 && fabs(xo) > 1e-12 && rc == OL_STOP_NONE; k++) {
      rc = ol_run_step(r);
      if (ol_run_iter(r) != k + 1) break;
      xn = ol_run_x(r)[0];
      if (!(sqrt(1 + xn * xn) <= sqrt(1 + xo * xo))) *up = 1;
      if (fabs(xo) <= 0.1 && fabs(xn) >= 1e-100) {
        *qmax = fmax(*qmax, fabs(xn) / (xo * xo));
        ++*nq;
      }
      xo = xn;
    }
    if (fabs(xo) > 1e-12) k = -1;
  }
  ol_run_free(r);
  ol_problem_free(p);
  return k;
}

static void test_aicn_global (void)
{
  static const double x0s[2] = {2, 10};
  int i;
  for (i = 0; i < 2; i++) {
    double L = t38_lsemi(x0s[i]), par[8], qmax;
    ol_problem *p = olt_problem("smoothabs", NULL, (char *)NULL);
    int up, nq, diverged;
    long k;
    ol_run *r;
    /* pure Newton x -> -x^3 diverges from |x0| > 1 */
    p->x0[0] = x0s[i];
    olt_method("newton", par, "step", 0.0, (char *)NULL);
    r = go(p, "newton", par, 10, 0);
    diverged = r != NULL && (ol_run_reason(r) == OL_STOP_DIVERGED ||
                             ol_run_reason(r) == OL_STOP_NONFINITE);
    ok(diverged, "newton pure: diverges on sqrt(1 + x^2) from x0 = %g "
       "within 10 steps (%s)", x0s[i],
       r != NULL ? ol_stop_name(ol_run_reason(r)) : "no run");
    ol_run_free(r);
    ol_problem_free(p);
    k = t38_aicn(x0s[i], L, &up, &qmax, &nq);
    ok(k > 0 && !up, "newton aicn: sqrt(1 + x^2) from x0 = %g, L = %.4g "
       "(1.25 L_semi over [-%g, %g]) reaches |x| <= 1e-12 in %ld steps, f "
       "never increasing", x0s[i], L, x0s[i], x0s[i], k);
    /* locally x+ = x - alpha x (1 + x^2), alpha = 1 - L lambda / 2 +
    ** O(lambda^2), lambda = |x| (1 + x^2)^{1/4}: |x+| / x^2 rises to L/2
    ** as x -> 0 (from below: the next terms are negative) */
    ok(nq >= 2 && qmax <= 0.5 * L * (1 + 1e-9) && qmax >= 0.45 * L,
       "newton aicn: quadratic near x* on sqrt(1 + x^2) from %g: max "
       "|x_k+1| / x_k^2 = %.6g in [0.45 L, L/2 = %.6g] over %d steps",
       x0s[i], qmax, 0.5 * L, nq);
  }
}

/* Quadratic rate on a 7-dimensional logistic regression: x* from 50
** backtracking steps, then AICN (L = 1) from a shifted start; the ratios
** ||x_k+1 - x*|| / ||x_k - x*||^2 for ||x_k - x*|| <= 0.1 and ||x_k+1 -
** x*|| >= 1e-12 (above rounding) stay below 10 (stated bound: the local
** constant is ~ (L + Lipschitz of H in the local norm) / (2 mu), O(1)
** here; the check is that it does not grow as e_k falls). */
static void test_aicn_logreg (void)
{
  ol_problem *p = olt_problem("logreg", NULL, "n", 60.0, "d", 7.0,
                              "lambda", 1e-2, (char *)NULL);
  double par[8], xs[7], X[7 * 40], e[41], qmax = 0;
  ol_run_opts o = olt_opts(40, 0, OL_MSET_OF(OL_MET_LOSS));
  ol_run *r;
  int i, k, nq = 0, good;
  olt_method("newton", par, (char *)NULL);
  r = go(p, "newton", par, 50, 0);
  good = r != NULL;
  if (good) memcpy(xs, ol_run_x(r), sizeof xs);
  ol_run_free(r);
  for (i = 0; i < 7; i++) p->x0[i] = 0.3 * (i - 3);
  olt_method("newton", par, "step", 3.0, "L", 1.0, (char *)NULL);
  good = good && olt_iterates(p, ol_method_find("newton"), par, &o, 40, X);
  if (good) {
    double d = 0;
    for (i = 0; i < 7; i++) d += (p->x0[i] - xs[i]) * (p->x0[i] - xs[i]);
    e[0] = sqrt(d);
    for (k = 0; k < 40; k++) {
      d = 0;
      for (i = 0; i < 7; i++)
        d += (X[k * 7 + i] - xs[i]) * (X[k * 7 + i] - xs[i]);
      e[k + 1] = sqrt(d);
    }
    for (k = 0; k < 40; k++)
      if (e[k] <= 0.1 && e[k + 1] >= 1e-12) {
        qmax = fmax(qmax, e[k + 1] / (e[k] * e[k]));
        nq++;
      }
    diag("newton aicn logreg: e_0 = %.3g, e_40 = %.3g", e[0], e[40]);
  }
  ok(good && nq >= 2 && qmax <= 10 && e[40] <= 1e-12, "newton aicn: "
     "quadratic on logreg{n=60, d=7, lambda=1e-2}: max e_k+1 / e_k^2 = "
     "%.4g <= 10 over %d steps, e_40 = %.3g", qmax, nq, good ? e[40] : NAN);
  ol_problem_free(p);
}

/* The rules that existed before aicn: 5 steps on logreg{n=60, d=7,
** lambda=1e-2} from 0.3 (i - 4) give the iterates of the build before it
** (printed there with %a); 1e-14 rather than bit equality, for other
** machines' BLAS (on the machine that recorded them they are equal). */
static void test_newton_pinned (void)
{
  static const double want[3][7] = {
    {0x1.e85a2290a789dp-2, -0x1.2537b8d29c96ap-3, -0x1.6a450d69d7c68p-3,
     -0x1.d2187d228572dp-2, -0x1.d9fffff1814b4p-5, 0x1.1c54fa599f40fp-1,
     -0x1.b1e349f395dbfp-2},
    {0x1.d026116a35b46p-2, -0x1.264fb225ae0c9p-3, -0x1.61d243b5f70dfp-3,
     -0x1.cbb09a512624bp-2, -0x1.c77eb06a5f0cbp-5, 0x1.179ada6992329p-1,
     -0x1.9b2b7baa84b4fp-2},
    {0x1.eca1ad8de2289p-2, -0x1.22baaec369ccfp-3, -0x1.6c08fc1820a6ep-3,
     -0x1.d77bcdab72bc8p-2, -0x1.e12b152840a76p-5, 0x1.1dc5e54315312p-1,
     -0x1.b4357582f03ecp-2}};
  static const char *names[3] = {"pure", "damped", "backtrack"};
  static const double lrs[3] = {0.7, 0.7, 1};
  ol_problem *p = olt_problem("logreg", NULL, "n", 60.0, "d", 7.0,
                              "lambda", 1e-2, (char *)NULL);
  double par[8];
  int i, j;
  for (i = 0; i < 7; i++) p->x0[i] = 0.3 * (i - 3);
  for (j = 0; j < 3; j++) {
    ol_run *r;
    olt_method("newton", par, "step", (double)j, "lr", lrs[j], (char *)NULL);
    r = go(p, "newton", par, 5, 0);
    ok(r != NULL && ol_run_iter(r) == 5 && olt_agree(ol_run_x(r), want[j],
                                                     7, 1e-14),
       "newton %s: 5 steps on logreg give the iterates from before aicn",
       names[j]);
    ol_run_free(r);
  }
  ol_problem_free(p);
}

int main (void)
{
  test_rosenbrock();
  test_logreg();
  test_newton_iterates();
  test_cubic();
  test_newton_nonconvex();
  test_lbfgs_iterates();
  test_failures();
  test_aicn_first_step();
  test_aicn_global();
  test_aicn_logreg();
  test_newton_pinned();
  return done();
}
