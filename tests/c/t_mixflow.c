/*
** tests/c/t_mixflow.c -- vi.mixflow's map, exact density and unbiased
** ELBO (core/vi/mixflow.c) on the 1-D Gaussian target p = N(mu, s^2), mu =
** 1, s = 2, against truths worked here:
**
**   - T^-1 T is the identity (1e-9) and the two directions report the
**     same log Jacobian, both momentum laws;
**   - log det J_T, tracked from the refreshment alone, equals the log
**     determinant of T's 3 x 3 Jacobian in (x, rho, u) by central
**     differences (1e-5);
**   - the trajectory's sliding-window density (the ELBO estimate) equals
**     the one from the density formula by N - 1 backward maps at each of
**     its points (1e-9);
**   - measure preservation, normal momentum: KDK leapfrog on U = (x -
**     mu)^2 / (2 s^2) (w = 1 / s) conserves the shadow energy rho^2 / 2 +
**     (1 - h^2 w^2 / 4) w^2 (x - mu)^2 / 2 exactly and the refreshment
**     keeps m, so T preserves the shadow target pi~ = N(mu, s^2 / (1 -
**     h^2 w^2 / 4)) x N(0, 1) x U[0, 1): with that reference, q_N = q_0
**     at every point (1e-9, N = 20); with the reference the target
**     itself, |log q_N - log pibar| <= h^2 w^4 / 8 max (x - mu)^2 over the
**     points used, the shadow's gap; Laplace momentum (no shadow in
**     closed form; K = |rho| has a kink, so the leapfrog's error is first
**     order): the same gap falls at least 1.5x from h = 0.1 to 0.05 over
**     the same flow time (L h fixed);
**   - q_N integrates to 1 (1e-3) and its ELBO by a midpoint quadrature over
**     (x, rho, u) of the density formula (normal momentum, N = 4) equals the
**     mean of 20000 trajectories' estimates within 4 standard errors plus
**     the quadrature's own error (its change from a grid of half the
**     points in each direction); seed printed;
**   - N = 1: kl equals KL(N(m0, sd0^2) || p) in closed form within 4 se;
**     kl falls as N grows (1, 5, 20, 100), each drop more than 3 combined
**     se.
** Contexts without a run (orc NULL: exact oracles).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "olt.h"
#include "tap.h"
#include "vi/mixflow.h"

#define SEED 20261206u
#define MU 1.0
#define SD 2.0
#define LOG2PI 1.8378770664093454836

extern const ol_method_type ol_vi_mixflow;

static ol_problem *target (void)
{
  const ol_problem_type *t = ol_problem_type_find("gaussian");
  static const double cov[1] = {SD * SD}, mu[1] = {MU};
  ol_pval v[16];
  ol_err e;
  int i;
  ol_problem *p;
  memset(v, 0, sizeof v);
  for (i = 0; i < t->nparams; i++) v[i].num = t->params[i].def;
  v[0].num = 1;
  v[3].arr = cov;
  v[3].rows = v[3].cols = 1;
  v[4].arr = mu;
  v[4].rows = v[4].cols = 1;
  p = ol_problem_new(t, v, &e);
  if (p == NULL) diag("gaussian: %s", e.msg);
  return p;
}

typedef struct fixture {
  ol_ctx c;
  ol_rng rng;
  double x[1];
  ol_mixflow s;
} fixture;

/* A mixflow state on p: reference N(m0, sd0^2); par defaults but N, eps,
** L, momentum (0 laplace, 1 normal), evals.  0 on failure. */
static int start (fixture *f, const ol_problem *p, int N, double eps, int L,
                  int mom, double m0, double sd0, int evals, uint64_t stream)
{
  double par[OL_MIXFLOW_NPARAMS];
  ol_err e;
  int i;
  memset(f, 0, sizeof *f);
  for (i = 0; i < OL_MIXFLOW_NPARAMS; i++) par[i] = ol_mixflow_params[i].def;
  par[0] = N;
  par[1] = eps;
  par[2] = L;
  par[3] = mom;
  par[6] = sd0;
  par[7] = evals;
  ol_rng_seed(&f->rng, SEED, stream);
  f->x[0] = m0;
  f->c.p = p;
  f->c.n = 1;
  f->c.x = f->x;
  f->c.sched = 1;
  f->c.rng = &f->rng;
  if (ol_vi_mixflow.init(&f->s, par, &f->c, &e) != OL_OK) {
    diag("init: %s", e.msg);
    ol_vi_mixflow.fini(&f->s);
    return 0;
  }
  return 1;
}

static double gradU (double x)
{
  return (x - MU) / (SD * SD);
}

/* log pibar on the oracle's scale, -U(x) + log m(rho) (U(mu) = 0): the
** normalised one minus log Z = log s + 1/2 log 2 pi. */
static double logpibar (const ol_mixflow *s, double x, double r)
{
  double t = (x - MU) / SD;
  double lm = s->mom ? -0.5 * (r * r + LOG2PI) : -fabs(r) - log(2);
  return -0.5 * t * t + lm;
}

/* A momentum draw of the state's law. */
static double mom_draw (fixture *f)
{
  double v;
  if (f->s.mom) {
    ol_rng_normals(&f->rng, &v, 1);
    return v;
  }
  v = ol_rng_uniform(&f->rng);
  return v < 0.5 ? log(2 * v + 1e-300) : -log(2 * (1 - v));
}

static void test_inverse (const ol_problem *p)
{
  int mom;
  for (mom = 0; mom <= 1; mom++) {
    fixture f;
    double worst = 0, jgap = 0;
    int k, good = 1;
    if (!start(&f, p, 5, 0.1, 7, mom, 0, 1, 1, 1)) {
      ok(0, "mixflow: start");
      continue;
    }
    for (k = 0; k < 200 && good; k++) {
      double x, r, u, g, x1, r1, u1, lj1, lj2;
      ol_err e;
      ol_rng_normals(&f.rng, &x, 1);
      x = MU + SD * x;
      r = mom_draw(&f);
      u = ol_rng_uniform(&f.rng);
      x1 = x, r1 = r, u1 = u, g = gradU(x);
      good = ol_mixflow_map(&f.s, &f.c, 0, &x1, &r1, &u1, &g, NULL, &lj1,
                            &e) == OL_OK &&
        ol_mixflow_map(&f.s, &f.c, 1, &x1, &r1, &u1, &g, NULL, &lj2,
                       &e) == OL_OK;
      worst = fmax(worst, fmax(fabs(x1 - x), fmax(fabs(r1 - r),
                                                  fabs(u1 - u))));
      jgap = fmax(jgap, fabs(lj1 - lj2));
    }
    ok(good && worst <= 1e-9 && jgap <= 1e-9, "mixflow: T^-1 T = id (%s "
       "momentum: max error %.2g, log-Jacobian gap %.2g, 200 points)",
       mom ? "normal" : "laplace", worst, jgap);
    ol_vi_mixflow.fini(&f.s);
  }
}

/* T's Jacobian determinant in (x, rho, u) by central differences. */
static void test_jacobian (const ol_problem *p)
{
  int mom;
  for (mom = 0; mom <= 1; mom++) {
    fixture f;
    double worst = 0;
    int k, good = 1;
    if (!start(&f, p, 3, 0.2, 4, mom, 0, 1, 1, 2)) {
      ok(0, "mixflow: start");
      continue;
    }
    for (k = 0; k < 50 && good; k++) {
      double y[3], J[3][3], lj, det, h = 1e-6;
      int a, b;
      ol_err e;
      ol_rng_normals(&f.rng, y, 1);
      y[0] = MU + SD * y[0];
      y[1] = mom_draw(&f);
      y[2] = 0.05 + 0.9 * ol_rng_uniform(&f.rng);
      {
        double x = y[0], r = y[1], u = y[2], g = gradU(x);
        good = ol_mixflow_map(&f.s, &f.c, 0, &x, &r, &u, &g, NULL, &lj,
                              &e) == OL_OK;
      }
      for (b = 0; b < 3 && good; b++) {
        double yp[3], ym[3], out[2][3];
        int sgn;
        memcpy(yp, y, sizeof yp);
        memcpy(ym, y, sizeof ym);
        yp[b] += h;
        ym[b] -= h;
        for (sgn = 0; sgn < 2; sgn++) {
          double *z = sgn ? ym : yp, g = gradU(z[0]), l;
          good = good && ol_mixflow_map(&f.s, &f.c, 0, &z[0], &z[1], &z[2],
                                        &g, NULL, &l, &e) == OL_OK;
          memcpy(out[sgn], z, sizeof out[sgn]);
        }
        for (a = 0; a < 3; a++) {
          double d = out[0][a] - out[1][a];
          /* u wraps mod 1: its difference is near 0 or +-1 */
          if (a == 2) d -= floor(d + 0.5);
          J[a][b] = d / (2 * h);
        }
      }
      det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1])
        - J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0])
        + J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
      worst = fmax(worst, fabs(log(fabs(det)) - lj));
    }
    ok(good && worst <= 1e-5, "mixflow: log det J_T tracked = central "
       "differences in (x, rho, u) (%s: max gap %.2g, 50 points)",
       mom ? "normal" : "laplace", worst);
    ol_vi_mixflow.fini(&f.s);
  }
}

/* The trajectory's ELBO against the density formula at its points. */
static void test_window (const ol_problem *p)
{
  int mom;
  for (mom = 0; mom <= 1; mom++) {
    fixture f;
    const int N = 12;
    double worst = 0;
    int k, good = 1;
    if (!start(&f, p, N, 0.15, 5, mom, -0.5, 1.5, 1, 3)) {
      ok(0, "mixflow: start");
      continue;
    }
    for (k = 0; k < 10 && good; k++) {
      double x0, r0, u0, el, want = 0, x, r, u, g;
      int j;
      ol_err e;
      ol_rng_normals(&f.rng, &x0, 1);
      x0 = -0.5 + 1.5 * x0;
      r0 = mom_draw(&f);
      u0 = ol_rng_uniform(&f.rng);
      good = ol_mixflow_traj(&f.s, &f.c, &x0, &r0, u0, &el, NULL, &e)
        == OL_OK;
      x = x0, r = r0, u = u0, g = gradU(x);
      for (j = 0; j < N && good; j++) {
        double lq, lj, xs = x, rs = r;
        if (j > 0)
          good = ol_mixflow_map(&f.s, &f.c, 0, &x, &r, &u, &g, NULL, &lj,
                                &e) == OL_OK;
        xs = x, rs = r;
        good = good && ol_mixflow_logq(&f.s, &f.c, &xs, &rs, u, &lq, &e)
          == OL_OK;
        want += logpibar(&f.s, xs, rs) - lq;
      }
      want /= N;
      worst = fmax(worst, fabs(el - want));
    }
    ok(good && worst <= 1e-9, "mixflow: the trajectory's ELBO = the density "
       "formula at its %d points (%s: max gap %.2g)", N,
       mom ? "normal" : "laplace", worst);
    ol_vi_mixflow.fini(&f.s);
  }
}

/* max over points of |log q_N - log q_ref|, q_ref = reference (shadow)
** or target; *xmax the largest |x - mu| among the points visited. */
static double preserve_gap (fixture *f, int shadow, double *xmax)
{
  double worst = 0;
  int k;
  *xmax = 0;
  for (k = 0; k < 100; k++) {
    double x, r, u, lq, ref;
    ol_err e;
    ol_rng_normals(&f->rng, &x, 1);
    x = MU + f->s.sd0 * x;
    r = mom_draw(f);
    u = ol_rng_uniform(&f->rng);
    if (ol_mixflow_logq(&f->s, &f->c, &x, &r, u,
                        &lq, &e) != OL_OK)
      return NAN;
    ref = shadow ? ol_mixflow_logq0(&f->s, &x, &r)
      : logpibar(&f->s, x, r) - log(SD) - 0.5 * LOG2PI;
    worst = fmax(worst, fabs(lq - ref));
    *xmax = fmax(*xmax, fabs(x - MU));
  }
  return worst;
}

static void test_preserve (const ol_problem *p)
{
  const double h = 0.1, w = 1 / SD;
  const int N = 20;
  fixture f;
  double gap, xm, bound;
  /* (1) the shadow target, exactly */
  if (start(&f, p, N, h, 5, 1, MU, SD / sqrt(1 - h * h * w * w / 4), 1, 4)) {
    gap = preserve_gap(&f, 1, &xm);
    ok(gap <= 1e-9, "mixflow: T preserves the leapfrog's shadow Gaussian "
       "exactly: q_N = q_0 (max |log ratio| %.2g, N = %d, 100 points)", gap,
       N);
    ol_vi_mixflow.fini(&f.s);
  }
  /* (2) the target: within the shadow's gap.  The points T^-k y stay in
  ** the shadow energy's level set through y's, so |x - mu| along them is
  ** at most sqrt(2 H~(y)) / (w sqrt(1 - h^2 w^2 / 4)); bound = h^2 w^4 /
  ** 8 times the square of that largest |x - mu| over the points, taken
  ** generously as 3 x (the starting points' largest) + 3 s. */
  if (start(&f, p, N, h, 5, 1, MU, SD, 1, 5)) {
    gap = preserve_gap(&f, 0, &xm);
    xm = 3 * xm + 3 * SD;
    bound = h * h * w * w * w * w / 8 * xm * xm;
    ok(gap <= bound, "mixflow: reference = target: |log q_N - log pibar| "
       "%.3g <= h^2 w^4 / 8 max (x - mu)^2 = %.3g (normal, h = %g)", gap,
       bound, h);
    ol_vi_mixflow.fini(&f.s);
  }
  /* (3) Laplace momentum: the gap falls with h over the same flow time
  ** (L h fixed), at first order: K = |rho| has a kink at 0, where the
  ** leapfrog's local error is O(h) rather than O(h^3) */
  {
    double g1 = NAN, g2 = NAN;
    if (start(&f, p, N, 0.1, 5, 0, MU, SD, 1, 6)) {
      g1 = preserve_gap(&f, 0, &xm);
      ol_vi_mixflow.fini(&f.s);
    }
    if (start(&f, p, N, 0.05, 10, 0, MU, SD, 1, 6)) {
      g2 = preserve_gap(&f, 0, &xm);
      ol_vi_mixflow.fini(&f.s);
    }
    ok(g2 * 1.5 <= g1, "mixflow: laplace, reference = target: the gap "
       "|log q_N - log pibar| falls with h, first order (%.3g at h = 0.1, "
       "%.3g at 0.05 over the same time)", g1, g2);
  }
}

/* Midpoint quadrature over (x, rho, u) in [xa, xb] x [-R, R] x [0, 1) of
** q_N and q_N (log pibar - log q_N); nx x nr x nu points. */
static int quad (fixture *f, int nx, int nr, int nu, double xa, double xb,
                 double R, double *mass, double *elbo)
{
  double hx = (xb - xa) / nx, hr = 2 * R / nr, hu = 1.0 / nu, m = 0, el = 0;
  int a, b, k;
  for (a = 0; a < nx; a++)
    for (b = 0; b < nr; b++)
      for (k = 0; k < nu; k++) {
        double x = xa + (a + 0.5) * hx, r = -R + (b + 0.5) * hr,
          u = (k + 0.5) * hu, lq, q;
        ol_err e;
        if (ol_mixflow_logq(&f->s, &f->c, &x, &r, u, &lq, &e) != OL_OK) {
          diag("quad: %s", e.msg);
          return 0;
        }
        q = exp(lq);
        m += q;
        el += q * (logpibar(&f->s, x, r) - lq);
      }
  *mass = m * hx * hr * hu;
  *elbo = el * hx * hr * hu;
  return 1;
}

static void test_unbiased (const ol_problem *p)
{
  const int N = 4, D = 20000;
  fixture f;
  double m1 = NAN, e1 = NAN, m2 = NAN, e2 = NAN, sum = 0, sq = 0, mean, se;
  double qerr;
  int k, good = 1;
  if (!start(&f, p, N, 0.3, 3, 1, -1, 1.5, 1, 7)) {
    ok(0, "mixflow: start");
    return;
  }
  good = quad(&f, 130, 90, 24, -11, 13, 7, &m1, &e1) &&
    quad(&f, 260, 180, 48, -11, 13, 7, &m2, &e2);
  qerr = fabs(e2 - e1);
  ok(good && fabs(m2 - 1) <= 1e-3, "mixflow: q_N integrates to 1 (%.6f; "
     "%.6f on the coarse grid)", m2, m1);
  for (k = 0; k < D && good; k++) {
    double x0, r0, u0, el;
    ol_err e;
    ol_rng_normals(&f.rng, &x0, 1);
    x0 = -1 + 1.5 * x0;
    r0 = mom_draw(&f);
    u0 = ol_rng_uniform(&f.rng);
    good = ol_mixflow_traj(&f.s, &f.c, &x0, &r0, u0, &el, NULL, &e) == OL_OK;
    sum += el;
    sq += el * el;
  }
  mean = sum / D;
  se = sqrt((sq / D - mean * mean) / (D - 1));
  diag("seed %u: ELBO estimate %.5f +- %.5f over %d trajectories, "
       "quadrature %.5f (coarse %.5f)", SEED, mean, se, D, e2, e1);
  ok(good && fabs(mean - e2) <= 4 * se + qerr, "mixflow: the ELBO estimate "
     "is unbiased: |%.5f - %.5f| = %.2f se (+ quadrature error %.2g)", mean,
     e2, fabs(mean - e2) / se, qerr);
  ol_vi_mixflow.fini(&f.s);
}

static void test_kl (const ol_problem *p)
{
  static const int Ns[] = {1, 5, 20, 100};
  double kl[4], se[4], m0 = 0, sd0 = 0.7, want;
  int i, good = 1;
  for (i = 0; i < 4; i++) {
    fixture f;
    if (!start(&f, p, Ns[i], 0.3, 10, 1, m0, sd0, 2000, 8)) {
      good = 0;
      break;
    }
    kl[i] = ol_vi_mixflow.probe(&f.s, OL_MET_KL, &f.c);
    se[i] = ol_vi_mixflow.probe(&f.s, OL_MET_ELBO_SE, &f.c);
    diag("N = %3d: kl %.4f +- %.4f", Ns[i], kl[i], se[i]);
    ol_vi_mixflow.fini(&f.s);
  }
  if (!good) {
    ok(0, "mixflow: start");
    return;
  }
  /* KL(N(m0, sd0^2) || N(mu, s^2)) */
  want = log(SD / sd0) + (sd0 * sd0 + (m0 - MU) * (m0 - MU)) / (2 * SD * SD)
    - 0.5;
  ok(fabs(kl[0] - want) <= 4 * se[0], "mixflow: N = 1: kl %.4f = KL(q_0 || "
     "p) %.4f within 4 se (%.4f)", kl[0], want, se[0]);
  for (i = 1; i < 4; i++)
    ok(kl[i - 1] - kl[i] > 3 * sqrt(se[i] * se[i] + se[i - 1] * se[i - 1]),
       "mixflow: kl falls from N = %d to %d (%.4f -> %.4f, > 3 se)",
       Ns[i - 1], Ns[i], kl[i - 1], kl[i]);
}

int main (void)
{
  ol_problem *p = target();
  if (p == NULL) {
    ok(0, "mixflow: the target builds");
    return done();
  }
  diag("seed %u", SEED);
  test_inverse(p);
  test_jacobian(p);
  test_window(p);
  test_preserve(p);
  test_unbiased(p);
  test_kl(p);
  ol_problem_free(p);
  return done();
}
