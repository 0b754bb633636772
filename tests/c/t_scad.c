/*
** tests/c/t_scad.c -- the SCAD penalty (core/penalty.c) and the nonconvex
** accelerated gradient optim.agnc (core/optim/agnc.c).
**
** Truth:
**   SCAD's value from its three-piece formula (Fan & Li 2001) at the
**   break points lambda and a lambda, approached from both sides
**   (continuity of the value and of the derivative);
**   the prox against a brute-force minimisation of (u - v)^2/(2 s) +
**   SCAD(|u|) on a grid of spacing h = 1e-4 over [-|v| - 0.1, |v| + 0.1]
**   (the minimiser lies in [0, |v|] on v's side), for random v, lambda,
**   a, s (fixed, printed seed), steps below and above a - 1;
**   ista's fixed point on SCAD-penalised least squares satisfies the
**   prox fixed-point equation x = prox_{s h}(x - s grad f(x));
**   agnc's first two iterates on a 2-D quadratic + l1 by hand (Ghadimi &
**   Lan's steps written out below);
**   agnc reaches a stationary point (gradient mapping, M2) on
**   SCAD-penalised least squares, with and without the split.
*/
#include "olt.h"
#include "penalty.h"
#include "run.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SEED 2701

static const double D[2] = {1, 2}, B[2] = {3, -1};

/* f = 0.5 sum_i d_i (x_i - b_i)^2, d = (1, 2), b = (3, -1) */
static int quad2 (void *ud, const double *x, double *f, double *g,
                  ol_err *e)
{
  int i;
  double s = 0;
  (void)ud; (void)e;
  for (i = 0; i < 2; i++) {
    s += 0.5 * D[i] * (x[i] - B[i]) * (x[i] - B[i]);
    if (g != NULL) g[i] = D[i] * (x[i] - B[i]);
  }
  if (f != NULL) *f = s;
  return OL_OK;
}

static double q (double u, double v, double lam, double a, double s)
{
  return (u - v) * (u - v) / (2 * s) + ol_scad(fabs(u), lam, a);
}

/* soft threshold at t */
static double soft (double v, double t)
{
  return v > t ? v - t : v < -t ? v + t : 0;
}

/* ||x - prox_{s h}(x - s g)|| / s at x (the gradient mapping, M2) */
static double gmap (const ol_problem *p, const double *x, double s)
{
  int i, n = p->n;
  double *g = malloc(sizeof(double) * 3 * (size_t)n), f, acc = 0, d;
  double *y = g + n, *w = g + 2 * n;
  if (g == NULL || ol_problem_eval(p, x, &f, g, w, NULL) != OL_OK) {
    free(g);
    return NAN;
  }
  for (i = 0; i < n; i++) y[i] = x[i] - s * g[i];
  ol_penalty_prox(p, y, n, s);
  for (i = 0; i < n; i++) {
    d = (x[i] - y[i]) / s;
    acc += d * d;
  }
  free(g);
  return sqrt(acc);
}

static ol_problem *scad_lsq (double lam, int seed)
{
  ol_err e;
  ol_problem *p = olt_problem("lasso", &e, "m", 60.0, "n", 120.0, "k", 6.0,
                              "lambda", lam, "sigma", 0.05, "seed",
                              (double)seed, (char *)NULL);
  if (p == NULL) return NULL;
  if (ol_problem_set_penalty(p, "scad", NULL, &e) != OL_OK) {
    diag("set_penalty: %s", e.msg);
    ol_problem_free(p);
    return NULL;
  }
  return p;
}

int main (void)
{
  ol_err e;
  ol_problem *p;
  ol_rng rng;
  int i, k;

  /* == SCAD's value: the pieces meet ===================================== */
  {
    static const double lams[3] = {0.1, 1, 2.5}, as[3] = {2.5, 3.7, 10};
    double worst = 0, dworst = 0, eps = 1e-7;
    for (i = 0; i < 3; i++)
      for (k = 0; k < 3; k++) {
        double l = lams[i], a = as[k], t;
        /* left and right limits at lambda and a lambda, from the formula */
        t = l;
        worst = fmax(worst, fabs(ol_scad(t, l, a) - l * l));
        worst = fmax(worst, fabs((2 * a * l * t - t * t - l * l)
                                 / (2 * (a - 1)) - l * l));
        t = a * l;
        worst = fmax(worst, fabs(ol_scad(t, l, a) - l * l * (a + 1) / 2));
        worst = fmax(worst, fabs((2 * a * l * t - t * t - l * l)
                                 / (2 * (a - 1)) - l * l * (a + 1) / 2));
        worst = fmax(worst, fabs(ol_scad(t * (1 + 1e-12), l, a)
                                 - l * l * (a + 1) / 2));
        /* one-sided difference quotients: lambda on both sides of lambda,
        ** 0 on both sides of a lambda (C^1) */
        dworst = fmax(dworst, fabs((ol_scad(l, l, a) - ol_scad(l - eps, l,
                                    a)) / eps - l));
        dworst = fmax(dworst, fabs((ol_scad(l + eps, l, a) - ol_scad(l, l,
                                    a)) / eps - l));
        dworst = fmax(dworst, fabs((ol_scad(a * l, l, a) - ol_scad(a * l -
                                    eps, l, a)) / eps));
        dworst = fmax(dworst, fabs((ol_scad(a * l + eps, l, a) -
                                    ol_scad(a * l, l, a)) / eps));
      }
    ok(worst <= 1e-14, "scad: the three pieces agree at lambda (lambda^2) "
       "and a lambda (lambda^2 (a+1)/2), worst %.2g <= 1e-14", worst);
    ok(dworst <= 1e-6, "scad: one-sided slopes lambda at lambda and 0 at "
       "a lambda from both sides, worst %.2g <= 1e-6 (eps 1e-7)", dworst);
    is_near(ol_scad(0, 1, 3.7), 0, 0, "scad: 0 at 0");
    is_near(ol_scad(2, 1, 3.7), (2 * 3.7 * 2 - 4 - 1) / (2 * 2.7), 1e-15,
            "scad: middle piece (2 a l t - t^2 - l^2)/(2(a-1)) at t = 2");
  }

  /* == the prox against a brute-force grid =============================== */
  {
    const double h = 1e-4;
    double wv = 0, wu = 0, wc = 0;
    int bad = 0, nsamp = 300;
    ol_rng_seed(&rng, SEED, 0);
    diag("scad prox: seed %d, %d random (v, lambda, a, s), grid h = %g",
         SEED, nsamp, h);
    for (k = 0; k < nsamp; k++) {
      double lam = 0.1 + 1.9 * ol_rng_uniform(&rng);
      double a = 2.2 + 3 * ol_rng_uniform(&rng);
      /* steps from 0.05 (a-1) to 2 (a-1): both sides of the closed form's
      ** condition s < a - 1 */
      double s = (a - 1) * (0.05 + 1.95 * ol_rng_uniform(&rng));
      double v = (ol_rng_uniform(&rng) * 2 - 1) * 1.3 * a * lam;
      double u = ol_scad_prox(v, lam, a, s), qu = q(u, v, lam, a, s);
      double lo = -fabs(v) - 0.1, best = INFINITY, ub = 0, qg, gap;
      long j, m = (long)((2 * fabs(v) + 0.2) / h);
      for (j = 0; j <= m; j++) {
        double x = lo + j * h;
        if ((qg = q(x, v, lam, a, s)) < best) {
          best = qg;
          ub = x;
        }
      }
      /* (1) the prox is no worse than any grid point (exact minimiser) */
      gap = best - qu;
      if (gap < -1e-12 * (1 + fabs(qu))) bad++;
      /* (2) and the grid's best comes within slope x h of it: the slope
      ** of q on [0, |v| + 0.1] is at most (|v| + 0.1)/s + lambda */
      wv = fmax(wv, gap > 0 ? gap / (((fabs(v) + 0.1) / s + lam) * h) : 0);
      /* (3) where q is strongly convex on each piece (s <= (a-1)/2, its
      ** curvature >= 1/(a-1)), the minimiser is unique: the grid's
      ** argmin is within sqrt(2 gap (a-1)) + h of it */
      if (s <= (a - 1) / 2)
        wu = fmax(wu, fabs(ub - u) / (sqrt(2 * fmax(gap, 0) * (a - 1)) +
                                      2 * h));
      /* (4) closed form = piece comparison for s < a - 1 */
      if (s < a - 1)
        wc = fmax(wc, fabs(u - ol_scad_prox_pieces(v, lam, a, s)));
    }
    ok(bad == 0, "scad prox: no grid point beats the prox by more than "
       "1e-12 (%d of %d did)", bad, nsamp);
    ok(wv <= 1, "scad prox: the grid's best is within (slope bound) h of "
       "the prox's value (worst ratio %.3g <= 1)", wv);
    ok(wu <= 1, "scad prox: unique minimiser (s <= (a-1)/2) matches the "
       "grid's argmin within sqrt(2 gap (a-1)) + 2h (worst ratio %.3g)", wu);
    ok(wc <= 1e-12, "scad prox: Fan-Li closed form equals the piece "
       "comparison for s < a - 1 (worst %.2g <= 1e-12)", wc);
    /* by hand, lambda = 1, a = 3.7, s = 1: Fan & Li's rule */
    is_near(ol_scad_prox(1.5, 1, 3.7, 1), 0.5, 1e-15,
            "scad prox: |v| <= 2 lambda soft-thresholds (1.5 -> 0.5)");
    is_near(ol_scad_prox(-3, 1, 3.7, 1), -(2.7 * 3 - 3.7) / 1.7, 1e-15,
            "scad prox: middle piece ((a-1)v - a lambda)/(a-2) at v = -3");
    is_near(ol_scad_prox(5, 1, 3.7, 1), 5, 0,
            "scad prox: |v| > a lambda is left as it is");
  }

  /* == the setter ========================================================== */
  p = ol_problem_custom(2, quad2, 0, NULL, NULL, &e);
  {
    const double two = 2, nan = NAN;
    ok(ol_problem_set_penalty(p, "mcp", NULL, &e) == OL_EINVAL
       && strstr(e.msg, "valid: l1, scad") != NULL,
       "penalty: an unknown kind names the valid ones (%s)", e.msg);
    ok(ol_problem_set_penalty(p, "scad", &two, &e) == OL_EINVAL
       && strstr(e.msg, "(2, inf)") != NULL,
       "penalty: scad a = 2 is refused with its range (%s)", e.msg);
    ok(ol_problem_set_penalty(p, "scad", &nan, &e) == OL_EINVAL,
       "penalty: scad a = nan is refused (%s)", e.msg);
    ok(ol_problem_set_penalty(p, "scad", NULL, &e) == OL_OK
       && p->pen_a == 3.7, "penalty: scad's a defaults to 3.7");
  }
  ol_problem_free(p);

  /* == ista's fixed point on SCAD least squares ============================ */
  p = scad_lsq(0.05, 1);
  if (p != NULL) {
    double par[1];
    const ol_method_type *m = olt_method("ista", par, "lr", 0.1,
                                         (char *)NULL);
    ol_run_opts o = olt_opts(20000, 1e-13, OL_MSET_OF(OL_MET_KKT));
    ol_run *r = olt_go(p, m, par, &o);
    if (r != NULL) {
      double gm = gmap(p, ol_run_x(r), 0.1), nz = 0;
      for (i = 0; i < p->n; i++) nz += ol_run_x(r)[i] != 0;
      ok(gm <= 1e-10, "ista on scad lsq: x = prox_{s h}(x - s grad f(x)) "
         "at s = lr = 0.1, ||G_s|| = %.2g <= 1e-10 (%.0f nonzeros)", gm, nz);
      ok(nz > 0 && nz < p->n, "ista on scad lsq: a sparse, nonzero fixed "
         "point (%.0f of %d)", nz, p->n);
      ok(ol_problem_set_penalty(p, "l1", NULL, &e) == OL_EINVAL
         && p->pen == &ol_penalty_scad, "penalty: a problem in use by a "
         "run keeps its penalty (%s)", e.msg);
      ol_run_free(r);
    }
    ol_problem_free(p);
  }

  /* == agnc: the first two iterates by hand ================================ */
  p = ol_problem_custom(2, quad2, 0, NULL, NULL, &e);
  if (p != NULL && ol_problem_set_l1(p, 0.5, &e) == OL_OK) {
    double par[5], x1[2], x2[2], w1[2], w2[2], md[2], g[2], xk[2], beta =
      0.25, lam1, lam2, x0[2] = {1, 1};
    const ol_method_type *m = olt_method("agnc", par, "lr", beta,
                                         (char *)NULL);
    ol_run_opts o = olt_opts(2, 0, OL_MSET_EMPTY);
    o.x0 = x0;
    /* k = 1: alpha_1 = 1, x^md = x_0, lambda_1 = beta/2 */
    lam1 = beta / 2;
    for (i = 0; i < 2; i++) {
      md[i] = x0[i];
      g[i] = D[i] * (md[i] - B[i]);
      xk[i] = soft(x0[i] - lam1 * g[i], lam1 * 0.5);
      w1[i] = soft(md[i] - beta * g[i], beta * 0.5);
    }
    /* k = 2: alpha_2 = 2/3, lambda_2 = beta */
    lam2 = beta;
    for (i = 0; i < 2; i++) {
      md[i] = w1[i] / 3 + 2 * xk[i] / 3;
      g[i] = D[i] * (md[i] - B[i]);
      xk[i] = soft(xk[i] - lam2 * g[i], lam2 * 0.5);
      w2[i] = soft(md[i] - beta * g[i], beta * 0.5);
    }
    /* the numbers: x^ag_1 = (1.375, 0), x^ag_2 = (1.5625, -0.2291666..) */
    ok(m != NULL && olt_two_steps(p, m, par, &o, x1, x2)
       && olt_agree(x1, w1, 2, 1e-15) && olt_agree(x2, w2, 2, 1e-15)
       && fabs(w1[0] - 1.375) < 1e-15 && w1[1] == 0
       && fabs(w2[0] - 1.5625) < 1e-15
       && fabs(w2[1] + 0.2291666666666667) < 1e-15,
       "agnc: x^ag_1 = (1.375, 0), x^ag_2 = (1.5625, -0.22917) by hand on "
       "a 2-D quadratic + 0.5 ||x||_1 (beta 0.25, alpha_k 2/(k+1), "
       "lambda_k k beta/2)");
  }
  ol_problem_free(p);

  /* == agnc: stationary on SCAD least squares ============================ */
  for (k = 0; k < 2; k++) {
    p = scad_lsq(0.05, 2);
    if (p == NULL) continue;
    {
      double par[5];
      const ol_method_type *m = olt_method("agnc", par, "split",
                                           (double)(k == 0), (char *)NULL);
      ol_run_opts o = olt_opts(20000, 1e-10, OL_MSET_OF(OL_MET_KKT,
                                                        OL_MET_LOSS));
      ol_run *r = olt_go(p, m, par, &o);
      if (r != NULL) {
        double g1 = gmap(p, ol_run_x(r), 1), g2 = gmap(p, ol_run_x(r), 0.05);
        if (k == 0)
          ok(g1 <= 1e-9 && g2 <= 1e-9, "agnc (split) on scad lsq: "
             "stationary, ||G_1|| = %.2g and ||G_0.05|| = %.2g <= 1e-9 "
             "after %ld steps", g1, g2, ol_run_iter(r));
        else
          diag("agnc (split = false) on scad lsq: ||G_1|| = %.2g after %ld "
               "steps, reason %s", g1, ol_run_iter(r),
               ol_stop_name(ol_run_reason(r)));
        ol_run_free(r);
      }
    }
    ol_problem_free(p);
  }
  return done();
}
