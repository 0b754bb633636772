/*
** tests/c/t_l0l1.c -- problem.l0l1 (the (L0,L1)-smooth quartic and
** exponential functions, core/problems/l0l1.c) and the affine-variance
** noise (OL_NOISE_AFFINE, core/oracle.c).
**
** Truth, computed here independently of the problem's code:
**   - derivatives: central differences (olt_derivs);
**   - the exp kind's optimum: in y = Q'x every coordinate solves
**     c e^(c t) + mu t = 0, found here by bisection (not Lambert W), so
**     ||x*|| = sqrt(n) |t*| and f* = n (e^(c t*) + mu t*^2 / 2) whatever Q;
**   - (L0,L1): ||H(x)||_2 = the largest eigenvalue of the SPD Hessian
**     (LAPACKE dsyev) against L0 + L1 ||g(x)|| at random points (fixed,
**     printed seed), with L0, L1 from the derivations in the problem's
**     header (quartic mu, 3/(2 sqrt(mu)); exp mu (1 + c |t*|), c), and
**     the points where they are attained;
**   - affine noise: sample mean and second moments within 4 standard
**     errors of E xi = 0, E xi_i^2 = sigma0^2/n + sigma1^2 g_i^2 and
**     E||xi||^2 = sigma0^2 + sigma1^2 ||g||^2 (xi_i Gaussian given x, so
**     Var xi_i^2 = 2 s_i^4 and Var ||xi||^2 = 2 sum_i s_i^4).
*/
#include "olt.h"
#include "run.h"
#include "tap.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED 20261207u
#define cap olt_nop_ctx   /* the run's context, set by olt_nop's init */

/* t* of c e^(c t) + mu t = 0 (t < 0) by bisection on [-c/mu, 0]. */
static double tstar (double c, double mu)
{
  double lo = -c / mu, hi = 0;
  int k;
  for (k = 0; k < 200; k++) {
    double m = 0.5 * (lo + hi);
    if (c * exp(c * m) + mu * m > 0) hi = m;
    else lo = m;
  }
  return 0.5 * (lo + hi);
}

/* ||H(x)||_2 (largest eigenvalue; H is SPD here) and ||g(x)||. */
static void norms (const ol_problem *p, const double *x, double *hn,
                   double *gn)
{
  int n = p->n, i;
  double *H = malloc(sizeof(double) * (size_t)n * n);
  double *w = malloc(sizeof(double) * (size_t)n);
  double *g = malloc(sizeof(double) * (size_t)n), s = 0;
  ol_err e;
  p->fdf(p->ud, x, NULL, g, &e);
  for (i = 0; i < n; i++) s += g[i] * g[i];
  *gn = sqrt(s);
  p->hess(p->ud, x, H, &e);
  LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', n, H, n, w);
  *hn = w[n - 1];
  free(H);
  free(w);
  free(g);
}

/* max over random points x* + scale z of (||H|| - L0 - L1 ||g||) /
** (L0 + L1 ||g||): <= 0 when the inequality holds. */
static double worst (const ol_problem *p, double L0, double L1, ol_rng *r,
                     int m, double *hmax)
{
  int k, i, n = p->n;
  double *x = malloc(sizeof(double) * (size_t)n), wr = -INFINITY;
  static const double scales[] = {0.05, 0.3, 1, 2, 4};
  *hmax = 0;
  for (k = 0; k < m; k++) {
    double hn, gn, s = scales[k % 5];
    for (i = 0; i < n; i++) x[i] = p->xstar[i] + s * ol_rng_normal(r);
    if (k % 7 == 3)     /* one coordinate only: the quartic's worst case */
      for (i = 1; i < n; i++) x[i] = p->xstar[i];
    norms(p, x, &hn, &gn);
    wr = fmax(wr, (hn - L0 - L1 * gn) / (L0 + L1 * gn));
    *hmax = fmax(*hmax, hn);
  }
  free(x);
  return wr;
}

static ol_run *start (ol_problem *p, uint64_t seed, ol_err *e)
{
  ol_run_opts o;
  ol_run_opts_default(&o);
  o.seed = seed;
  o.metrics = OL_MSET_OF(OL_MET_LOSS, OL_MET_GRADNORM);
  cap = NULL;
  return ol_run_new(p, &olt_nop, NULL, &o, e);
}

static void quartic (void)
{
  static const double mus[] = {1, 0.3, 4};
  ol_rng r;
  int k, i;
  ol_rng_seed(&r, SEED, 1);
  for (k = 0; k < 3; k++) {
    double mu = mus[k], L0 = mu, L1 = 3 / (2 * sqrt(mu)), hn, gn, hmax, wr;
    double x[6] = {0};
    ol_err e;
    ol_problem *p = olt_problem("l0l1", &e, "n", 6.0, "mu", mu, NULL);
    if (!ok(p != NULL, "quartic mu = %g: made", mu)) continue;
    olt_derivs("quartic", p, &r, 0.7);
    {
      double f = 1, g[6];
      p->fdf(p->ud, p->xstar, &f, g, &e);
      ok(f == 0 && p->fstar == 0 && olt_gnorm(p, p->xstar) == 0
         && p->x0[0] == 2 && p->x0[5] == 2,
         "quartic mu = %g: x* = 0, f* = 0 exactly, x0 = 2", mu);
    }
    wr = worst(p, L0, L1, &r, 70, &hmax);
    ok(wr <= 1e-13, "quartic mu = %g: ||H|| <= L0 + L1 ||g|| at 70 random "
       "points (worst relative excess %.3g; L0 = %g, L1 = %.4g)", mu, wr,
       L0, L1);
    /* the constants are sharp */
    norms(p, x, &hn, &gn);
    is_close(hn, L0, 1e-14, "quartic mu = %g: ||H(0)|| = L0", mu);
    x[2] = sqrt(mu);
    norms(p, x, &hn, &gn);
    is_close(hn, L0 + L1 * gn, 1e-13, "quartic mu = %g: equality at "
             "sqrt(mu) e_3 (||H|| = %g, ||g|| = %g)", mu, hn, gn);
    /* not L-smooth: ||H|| grows like 3 m^2 */
    for (i = 0; i < 6; i++) x[i] = 10;
    norms(p, x, &hn, &gn);
    is_close(hn, 300 + mu, 1e-14, "quartic mu = %g: ||H(10 1)|| = 300 + mu "
             "(the Hessian is unbounded)", mu);
    {
      char want[96];
      snprintf(want, sizeof want, "(L0 = %.6g, L1 = %.6g)", L0, L1);
      ok(strstr(p->desc, want) != NULL, "quartic mu = %g: desc states the "
         "constants (%s)", mu, p->desc);
    }
    ol_problem_free(p);
  }
}

static void expkind (void)
{
  /* n, c, mu, rotate */
  static const double cases[][4] = {{6, 1.5, 0.7, 1}, {4, 2, 0.5, 0},
                                    {5, 0.3, 3, 1}, {3, 4, 0.01, 1}};
  ol_rng r;
  int k, i;
  ol_rng_seed(&r, SEED, 2);
  for (k = 0; k < 4; k++) {
    int n = (int)cases[k][0];
    double c = cases[k][1], mu = cases[k][2], t = tstar(c, mu);
    double L0 = mu * (1 - c * t), L1 = c, hn, gn, hmax, wr, f, xs = 0;
    double fs = n * (exp(c * t) + 0.5 * mu * t * t);
    ol_err e;
    ol_problem *p = olt_problem("l0l1", &e, "n", (double)n, "kind", 1.0,
                                "c", c, "mu", mu, "rotate", cases[k][3],
                                "seed", 7.0, NULL);
    if (!ok(p != NULL, "exp c = %g mu = %g: made", c, mu)) continue;
    olt_derivs("exp", p, &r, 0.5);
    for (i = 0; i < n; i++) xs += p->xstar[i] * p->xstar[i];
    is_close(sqrt(xs), sqrt((double)n) * fabs(t), 1e-13, "exp c = %g mu = "
             "%g: ||x*|| = sqrt(n) |t*| (t* = %.15g by bisection)", c, mu,
             t);
    is_close(p->fstar, fs, 1e-13, "exp c = %g mu = %g: f* = n (e^(c t*) + "
             "mu t*^2 / 2) = %.15g", c, mu, fs);
    f = olt_fval(p, p->xstar);
    is_close(f, p->fstar, 1e-14, "exp c = %g mu = %g: f(x*) = f*", c, mu);
    ok(olt_gnorm(p, p->xstar) <= 1e-12 * (1 + L0 * sqrt(xs)),
       "exp c = %g mu = %g: ||grad f(x*)|| = %.2g <= 1e-12 (1 + L0 ||x*||)",
       c, mu, olt_gnorm(p, p->xstar));
    wr = worst(p, L0, L1, &r, 70, &hmax);
    ok(wr <= 1e-13, "exp c = %g mu = %g: ||H|| <= L0 + L1 ||g|| at 70 "
       "random points (worst relative excess %.3g; L0 = %.6g, L1 = %g; "
       "largest ||H|| %.4g)", c, mu, wr, L0, L1, hmax);
    norms(p, p->xstar, &hn, &gn);
    is_close(hn, L0, 1e-12, "exp c = %g mu = %g: ||H(x*)|| = L0 (sharp)",
             c, mu);
    {
      /* far from x*, at x* + 20 (x0 - x*): every y_j is the same large
      ** value, so ||H|| - mu = c^2 e^(cy) and ||g|| = sqrt(n) (c e^(cy) +
      ** mu y): the ratio is L1 / sqrt(n) less a vanishing mu y term (to
      ** rounding), and ||H|| is huge */
      double *x = malloc(sizeof(double) * (size_t)n), ratio;
      for (i = 0; i < n; i++)
        x[i] = p->xstar[i] + 20 * (p->x0[i] - p->xstar[i]);
      norms(p, x, &hn, &gn);
      ratio = (hn - mu) / gn;
      ok(ratio <= (1 + 1e-12) * L1 / sqrt((double)n)
         && ratio > 0.99 * L1 / sqrt((double)n)
         && hn > 1e15, "exp c = %g mu = %g: far from x*, (||H|| - mu) / "
         "||g|| = %.6g, L1 / sqrt(n) to 1%% (||H|| = %.4g: unbounded)",
         c, mu, ratio, hn);
      free(x);
    }
    ol_problem_free(p);
  }
  {
    ol_err e;
    ol_problem *p = olt_problem("l0l1", &e, "n", 2000.0, "kind", 1.0, NULL);
    ok(p == NULL && strstr(e.msg, "n <= 1024") != NULL
       && strstr(e.msg, "rotate = false") != NULL,
       "exp: a rotation of n = 2000 is refused, naming the fix (%s)",
       p == NULL ? e.msg : "made");
    ol_problem_free(p);
    p = olt_problem("l0l1", &e, "n", 2000.0, "kind", 1.0, "rotate", 0.0,
                    NULL);
    ok(p != NULL && p->gsep != NULL && p->hess != NULL,
       "exp: rotate = false at n = 2000 is separable (gsep)");
    ol_problem_free(p);
  }
}

/* The separable oracle (blocks) equals fdf's gradient bit for bit. */
static void gsep (void)
{
  ol_rng r;
  int k, i, same = 1;
  ol_rng_seed(&r, SEED, 3);
  for (k = 0; k < 2; k++) {
    ol_err e;
    ol_problem *p = olt_problem("l0l1", &e, "n", 37.0, "kind", (double)k,
                                "rotate", 0.0, NULL);
    double x[37], g[37], gb[37];
    for (i = 0; i < 37; i++) x[i] = 1.5 * ol_rng_normal(&r);
    p->fdf(p->ud, x, NULL, g, &e);
    p->gsep(p->ud, x, 0, 10, gb, &e);
    p->gsep(p->ud, x, 10, 37, gb + 10, &e);
    same = same && memcmp(g, gb, sizeof g) == 0;
    ol_problem_free(p);
  }
  ok(same, "gsep: the blocked gradient equals fdf's bit for bit (quartic, "
     "exp)");
}

/* Affine noise at a point x of the quartic (n = 4): draws of
** xi = g~ - grad f(x). */
static void affine_at (ol_problem *p, const double *x, double s0, double s1,
                       long M, const char *label)
{
  double g[4], gt[4], m1[4] = {0}, m2[4] = {0}, q = 0, q2 = 0, s[4];
  double want = s0 * s0, vq = 0, worst1 = 0, worst2 = 0;
  int i, n = 4;
  long k;
  ol_err e;
  p->fdf(p->ud, x, NULL, gt, &e);
  for (i = 0; i < n; i++) {
    s[i] = s0 * s0 / n + s1 * s1 * gt[i] * gt[i];   /* Var xi_i */
    want += s1 * s1 * gt[i] * gt[i];
    vq += 2 * s[i] * s[i];
  }
  for (k = 0; k < M; k++) {
    double nn = 0;
    ol_ctx_grad(cap, x, NULL, g, &e);
    for (i = 0; i < n; i++) {
      double xi = g[i] - gt[i];
      m1[i] += xi;
      m2[i] += xi * xi;
      nn += xi * xi;
    }
    q += nn;
    q2 += nn * nn;
  }
  for (i = 0; i < n; i++) {
    worst1 = fmax(worst1, fabs(m1[i] / M) / sqrt(s[i] / M));
    worst2 = fmax(worst2, fabs(m2[i] / M - s[i]) / sqrt(2 * s[i] * s[i] / M));
  }
  ok(worst1 <= 4, "affine %s: E xi_i = 0 in every coordinate (worst |mean| "
     "%.2f SE)", label, worst1);
  ok(worst2 <= 4, "affine %s: E xi_i^2 = sigma0^2/n + sigma1^2 g_i^2 "
     "(worst %.2f SE)", label, worst2);
  is_near(q / M, want, 4 * sqrt(vq / M), "affine %s: E||xi||^2 = sigma0^2 "
          "+ sigma1^2 ||g||^2 = %.6g (got %.6g, 4 SE)", label, want, q / M);
}

static void affine (void)
{
  ol_err e;
  ol_run *r;
  ol_noise nz;
  ol_problem *p = olt_problem("l0l1", &e, "n", 4.0, NULL);
  double x1[4] = {1, -0.5, 2, 0}, x0[4] = {0, 0, 0, 0};
  memset(&nz, 0, sizeof nz);
  nz.kind = OL_NOISE_AFFINE;
  nz.sigma = 0.8;
  nz.sigma1 = 0.6;
  nz.nu = 3;
  nz.batch = 1;
  ok(ol_problem_set_noise(p, &nz, &e) == OL_OK
     && p->noise.kind == OL_NOISE_AFFINE && p->noise.sigma1 == 0.6,
     "affine: set through ol_problem_set_noise");
  r = start(p, SEED, &e);
  if (!ok(r != NULL && cap != NULL, "affine: a run holds it")) return;
  affine_at(p, x1, 0.8, 0.6, 100000, "at x = (1, -0.5, 2, 0)");
  affine_at(p, x0, 0.8, 0.6, 100000, "at x* (g = 0: sigma0 alone)");
  {
    double f = 1;
    ok(ol_ctx_value(cap, x1, &f, &e) == OL_OK && f == olt_fval(p, x1),
       "affine: values stay exact");
  }
  ol_run_free(r);
  ol_problem_free(p);

  p = olt_problem("l0l1", &e, "n", 4.0, NULL);
  nz.sigma1 = -1;
  ok(ol_problem_set_noise(p, &nz, &e) == OL_EINVAL
     && strcmp(e.msg, "noise.sigma1 = -1 is out of range [0, inf)") == 0
     && p->noise.kind == OL_NOISE_NONE,
     "affine: sigma1 < 0 is refused, naming it (%s)", e.msg);
  nz.sigma1 = NAN;
  ok(ol_problem_set_noise(p, &nz, &e) == OL_EINVAL
     && strstr(e.msg, "sigma1 = nan") != NULL, "affine: sigma1 nan refused");
  nz.sigma1 = 1;
  nz.sigma = INFINITY;
  ok(ol_problem_set_noise(p, &nz, &e) == OL_EINVAL
     && strcmp(e.msg, "noise.sigma0 = inf is out of range [0, inf)") == 0,
     "affine: sigma0 = inf refused under its Lua name (%s)", e.msg);
  ol_problem_free(p);
}

int main (void)
{
  diag("seed %u", SEED);
  quartic();
  expkind();
  gsep();
  affine();
  return done();
}
