/*
** tests/c/t_adaptive.c -- accelerated, averaged and adaptive optimizers:
** agr, gradavg, adagradnorm, adamw, amsgrad, adabound, adamod, adopt,
** diffgrad, and the effective-learning-rate probes (also of adagrad,
** rmsprop, adam).
**
** (1) The first two or three iterates of every method on the diagonal
**     quadratic f = 1/2 (x1^2 + x2^2 / 10) from x0 = (1, 1), through the
**     run engine, against the published update written out here
**     coordinate by coordinate (not the implementation).
** (2) Convergence: each method stops by tolerance (gradnorm <= 1e-6) on
**     quadratic{n=10, cond=10} within a stated budget; ADOPT does so for
**     every beta2 with lr / sqrt(1 + t); accelerated gradient with the
**     function restart reaches dist < 1e-8 on quadratic{n=50, cond=1e4}
**     in fewer iterations than without restarts and within the restarted
**     linear-rate budget.
** (3) Probes: after one step (direct init / step in a ctx without a run)
**     lrmin / lrmed / lrmax equal the multipliers computed by hand; NAN
**     before the first step and for other metric ids; AMSGrad's vhat
**     (seen through its probe) is nondecreasing while v itself decreases.
*/
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

/* The iterates x_1..x_k (k rows of p->n) of m on p from the default x0;
** 0 on failure. */
static int iterates (const ol_problem *p, const ol_method_type *m,
                     const double *par, int k, double *X)
{
  ol_run_opts o = olt_opts(100, 0, OL_MSET_EMPTY);
  return m != NULL && olt_iterates(p, m, par, &o, k, X);
}

static int agree (const double *got, const double *want, int n)
{
  return olt_agree(got, want, n, 1e-13);
}

static double sigmoid (double z) { return 1 / (1 + exp(-z)); }

/* f = 1/2 sum_i L_i x_i^2, x0 = (1, 1) */
static const double L[2] = {1, 0.1};

static double fval (const double *x)
{
  return 0.5 * (L[0] * x[0] * x[0] + L[1] * x[1] * x[1]);
}

/* ns AG steps with restart test 'kind' (0 none, 1 fixed with K, 2
** function, 3 gradient), written from O'Donoghue & Candes 2015. */
static void agr_hand (double lr, int kind, long K, int ns, double W[][2],
                      int *restarts)
{
  double x[2] = {1, 1}, xp[2] = {1, 1}, y[2], g[2], xn[2];
  long k = 1;
  int j, i;
  *restarts = 0;
  for (j = 0; j < ns; j++) {
    double beta = (k - 1.0) / (k + 2.0), dot = 0;
    int rs = 0;
    for (i = 0; i < 2; i++) {
      y[i] = x[i] + beta * (x[i] - xp[i]);
      g[i] = L[i] * y[i];
      xn[i] = y[i] - lr * g[i];
      dot += g[i] * (xn[i] - x[i]);
    }
    if (kind == 1) rs = k >= K;
    if (kind == 2) rs = fval(xn) > fval(x);
    if (kind == 3) rs = dot > 0;
    for (i = 0; i < 2; i++) {
      xp[i] = rs ? xn[i] : x[i];
      x[i] = xn[i];
      W[j][i] = x[i];
    }
    k = rs ? 1 : k + 1;
    *restarts += rs;
  }
}

static void test_agr_gradavg (const ol_problem *p)
{
  double par[8], X[24], W[12][2], lr = 0.3;
  int i, nr;
  const ol_method_type *m;
  static const char *const kinds[] = {"none", "fixed", "function",
                                      "gradient"};

  /* (a) no restart: beta_1 = 0, beta_2 = 1/4, beta_3 = 2/5 */
  m = olt_method("agr", par, "lr", lr, "restart", 0.0, (char *)NULL);
  for (i = 0; i < 2; i++) {
    double x1 = 1 - lr * L[i], y, x2, x3;
    y = x1 + 0.25 * (x1 - 1);
    x2 = y - lr * L[i] * y;
    y = x2 + 0.4 * (x2 - x1);
    x3 = y - lr * L[i] * y;
    W[0][i] = x1;
    W[1][i] = x2;
    W[2][i] = x3;
  }
  ok(iterates(p, m, par, 3, X) && agree(X, W[0], 6),
     "agr: beta_k = (k-1)/(k+2): x1 = x0 - lr g(x0), then 1/4, 2/5");

  /* (b) fixed restart K = 2: the third step is a plain gradient step */
  m = olt_method("agr", par, "lr", lr, "restart", 1.0, "K", 2.0, (char *)NULL);
  agr_hand(lr, 1, 2, 3, W, &nr);
  for (i = 0; i < 2; i++)
    if (!(fabs(W[2][i] - (1 - lr * L[i]) * W[1][i]) < 1e-15))
      diag("hand fixed restart is not a gradient step");
  ok(nr == 1 && iterates(p, m, par, 3, X) && agree(X, W[0], 6),
     "agr: fixed restart K = 2 resets the momentum after step 2");

  /* (c) function restart with lr = 1.9: f rises at step 2 (overshoot on
  ** the stiff coordinate); gradient restart with lr = 1: the test fires
  ** at step 11 */
  for (i = 2; i <= 3; i++) {
    double glr = i == 2 ? 1.9 : 1.0;
    int ns = i == 2 ? 3 : 12;
    m = olt_method("agr", par, "lr", glr, "restart", (double)i, (char *)NULL);
    agr_hand(glr, i, 0, ns, W, &nr);
    ok(nr == 1 && iterates(p, m, par, ns, X) && agree(X, W[0], 2 * ns),
       "agr: %s restart, %d iterates (%d restart by hand)", kinds[i], ns,
       nr);
  }

  /* Grad-Avg on a quadratic: x_{k+1} = (1 - lr l + (lr l)^2 / 2) x_k */
  m = olt_method("gradavg", par, "lr", lr, (char *)NULL);
  for (i = 0; i < 2; i++) {
    double a = lr * L[i], r = 1 - a + a * a / 2;
    W[0][i] = r;
    W[1][i] = r * r;
  }
  ok(iterates(p, m, par, 2, X) && agree(X, W[0], 4),
     "gradavg: x1 = x0 - lr/2 (g(x0) + g(x0 - lr g(x0))), twice");
}

static void test_adaptive_iterates (const ol_problem *p)
{
  double par[8], X[6], W[3][2];
  double lr = 0.3, b1 = 0.8, b2 = 0.95, eps = 1e-3;
  const ol_method_type *m;
  int i;

  /* AdaGrad-Norm: b_t^2 = b0^2 + sum ||g||^2, x -= lr g / b_t */
  {
    double b0 = 0.5, g0n2 = L[0] * L[0] + L[1] * L[1], b1s, g1n2 = 0;
    m = olt_method("adagradnorm", par, "lr", lr, "b0", b0, (char *)NULL);
    b1s = b0 * b0 + g0n2;
    for (i = 0; i < 2; i++) W[0][i] = 1 - lr * L[i] / sqrt(b1s);
    for (i = 0; i < 2; i++) g1n2 += L[i] * W[0][i] * L[i] * W[0][i];
    for (i = 0; i < 2; i++)
      W[1][i] = W[0][i] - lr * L[i] * W[0][i] / sqrt(b1s + g1n2);
    ok(iterates(p, m, par, 2, X) && agree(X, W[0], 4),
       "adagradnorm: b1^2 = b0^2 + |g0|^2, b2^2 = b1^2 + |g1|^2");
  }

  /* AdamW: Adam's step plus lr wd x_{t-1} */
  {
    double wd = 0.2;
    m = olt_method("adamw", par, "lr", lr, "beta1", b1, "beta2", b2, "eps", eps,
                   "wd", wd, (char *)NULL);
    for (i = 0; i < 2; i++) {
      double g0 = L[i], g1, m2, v2;
      W[0][i] = 1 - lr * (g0 / (fabs(g0) + eps) + wd * 1);
      g1 = L[i] * W[0][i];
      m2 = (b1 * (1 - b1) * g0 + (1 - b1) * g1) / (1 - b1 * b1);
      v2 = (b2 * (1 - b2) * g0 * g0 + (1 - b2) * g1 * g1) / (1 - b2 * b2);
      W[1][i] = W[0][i] - lr * (m2 / (sqrt(v2) + eps) + wd * W[0][i]);
    }
    ok(iterates(p, m, par, 2, X) && agree(X, W[0], 4),
       "adamw: x -= lr (mhat / (sqrt(vhat) + eps) + wd x), two steps");
  }

  /* AMSGrad, no bias correction; beta2 = 0.5 so that v falls and the
  ** running max is what divides at step 3 */
  {
    double bb2 = 0.5, mm[2] = {0, 0}, v[2] = {0, 0}, vh[2] = {0, 0};
    double x[2] = {1, 1};
    int j, active = 0;
    m = olt_method("amsgrad", par, "lr", lr, "beta1", b1, "beta2", bb2, "eps",
                   eps, (char *)NULL);
    for (j = 0; j < 3; j++)
      for (i = 0; i < 2; i++) {
        double g = L[i] * x[i];
        mm[i] = b1 * mm[i] + (1 - b1) * g;
        v[i] = bb2 * v[i] + (1 - bb2) * g * g;
        if (v[i] > vh[i]) vh[i] = v[i];
        else active = 1;
        x[i] -= lr * mm[i] / (sqrt(vh[i]) + eps);
        W[j][i] = x[i];
      }
    ok(active && iterates(p, m, par, 3, X) && agree(X, W[0], 6),
       "amsgrad: vhat = max(vhat, v) (active by step 3), x -= lr m / "
       "(sqrt(vhat) + eps)");
  }

  /* AdaBound, Algorithm 2: clip(lr / (sqrt(v) + eps), eta_l, eta_u) /
  ** sqrt(t); final_lr = 0.5, gamma = 0.5 give [1/6, 3/2] at t = 1 and
  ** [1/4, 1] at t = 2; the second coordinate hits the upper bound */
  {
    double fl = 0.5, ga = 0.5, mm[2] = {0, 0}, v[2] = {0, 0};
    double x[2] = {1, 1};
    int j, clipped = 0;
    m = olt_method("adabound", par, "lr", lr, "final_lr", fl, "gamma", ga,
                   "beta1", b1, "beta2", b2, "eps", eps, (char *)NULL);
    for (j = 0; j < 2; j++) {
      double t = j + 1, lo = fl * (1 - 1 / (ga * t + 1));
      double hi = fl * (1 + 1 / (ga * t));
      for (i = 0; i < 2; i++) {
        double g = L[i] * x[i], eta;
        mm[i] = b1 * mm[i] + (1 - b1) * g;
        v[i] = b2 * v[i] + (1 - b2) * g * g;
        eta = lr / (sqrt(v[i]) + eps);
        if (eta > hi || eta < lo) clipped++;
        eta = eta > hi ? hi : eta < lo ? lo : eta;
        x[i] -= eta / sqrt(t) * mm[i];
        W[j][i] = x[i];
      }
    }
    ok(clipped > 0 && iterates(p, m, par, 2, X) && agree(X, W[0], 4),
       "adabound: clipped rates / sqrt(t), no bias correction (%d clipped)",
       clipped);
  }

  /* AdaMod, beta3 = 0.5: s_1 = etahat_1 / 2 caps the first step */
  {
    double b3 = 0.5, mm[2] = {0, 0}, v[2] = {0, 0}, s[2] = {0, 0};
    double x[2] = {1, 1};
    int j;
    m = olt_method("adamod", par, "lr", lr, "beta1", b1, "beta2", b2, "beta3",
                   b3, "eps", eps, (char *)NULL);
    for (j = 0; j < 2; j++) {
      double t = j + 1;
      for (i = 0; i < 2; i++) {
        double g = L[i] * x[i], eh, mh, vh;
        mm[i] = b1 * mm[i] + (1 - b1) * g;
        v[i] = b2 * v[i] + (1 - b2) * g * g;
        mh = mm[i] / (1 - pow(b1, t));
        vh = v[i] / (1 - pow(b2, t));
        eh = lr / (sqrt(vh) + eps);
        s[i] = b3 * s[i] + (1 - b3) * eh;
        x[i] -= (eh < s[i] ? eh : s[i]) * mh;
        W[j][i] = x[i];
      }
    }
    ok(iterates(p, m, par, 2, X) && agree(X, W[0], 4),
       "adamod: eta = min(lr / (sqrt(vhat) + eps), EMA of it), x -= eta "
       "mhat");
  }

  /* AdaMax (Kingma & Ba 2015, Algorithm 2): u = max(beta2 u, |g|), x -=
  ** lr / (1 - beta1^t) m / u; eps = 0 is the algorithm as printed */
  {
    double mm[2] = {0, 0}, u[2] = {0, 0}, x[2] = {1, 1}, b2x = 0.5;
    int j;
    m = olt_method("adamax", par, "lr", lr, "beta1", b1, "beta2", b2x,
                   "eps", 0.0, (char *)NULL);
    for (j = 0; j < 2; j++) {
      double t = j + 1;
      for (i = 0; i < 2; i++) {
        double g = L[i] * x[i], bu = b2x * u[i];
        mm[i] = b1 * mm[i] + (1 - b1) * g;
        u[i] = bu > fabs(g) ? bu : fabs(g);
        x[i] -= lr / (1 - pow(b1, t)) * mm[i] / u[i];
        W[j][i] = x[i];
      }
    }
    ok(iterates(p, m, par, 2, X) && agree(X, W[0], 4),
       "adamax: u = max(beta2 u, |g|), x -= lr / (1 - beta1^t) m / u "
       "(two steps by hand)");
  }

  /* ADOPT, Algorithm 1: v0 = g0^2, normalise by v_{t-1}, then momentum */
  {
    double ab2 = 0.7, aeps = 1e-6, mm[2] = {0, 0}, v[2], x[2] = {1, 1};
    int j;
    m = olt_method("adopt", par, "lr", lr, "beta1", b1, "beta2", ab2, "eps",
                   aeps, (char *)NULL);
    for (i = 0; i < 2; i++) v[i] = L[i] * L[i];
    for (j = 0; j < 3; j++)
      for (i = 0; i < 2; i++) {
        double g = L[i] * x[i], d = sqrt(v[i]);
        mm[i] = b1 * mm[i] + (1 - b1) * g / (d > aeps ? d : aeps);
        x[i] -= lr * mm[i];
        v[i] = ab2 * v[i] + (1 - ab2) * g * g;
        W[j][i] = x[i];
      }
    ok(iterates(p, m, par, 3, X) && agree(X, W[0], 6),
       "adopt: m = b1 m + (1 - b1) g / max(sqrt(v_{t-1}), eps), three "
       "steps");
  }

  /* ADOPT with clip: lr = 3, beta1 = 0 overshoots to x1 = -2, so
  ** |g1 / sqrt(v1)| = 2 > 2^(1/4) and the step is clipped */
  {
    double alr = 3, ab2 = 0.7, aeps = 1e-6, v[2], x[2] = {1, 1};
    int j, clipped = 0;
    m = olt_method("adopt", par, "lr", alr, "beta1", 0.0, "beta2", ab2, "eps",
                   aeps, "clip", 1.0, (char *)NULL);
    for (i = 0; i < 2; i++) v[i] = L[i] * L[i];
    for (j = 0; j < 2; j++)
      for (i = 0; i < 2; i++) {
        double g = L[i] * x[i], d = sqrt(v[i]), u, c = pow(j + 1.0, 0.25);
        u = g / (d > aeps ? d : aeps);
        if (fabs(u) > c) {
          u = u > 0 ? c : -c;
          clipped++;
        }
        x[i] -= alr * u;
        v[i] = ab2 * v[i] + (1 - ab2) * g * g;
        W[j][i] = x[i];
      }
    ok(clipped == 2 && iterates(p, m, par, 2, X) && agree(X, W[0], 4),
       "adopt: clip = true clips g / max(sqrt(v), eps) to t^(1/4)");
  }

  /* diffGrad: xi = sigmoid(|g_{t-1} - g_t|), g_0 = 0 */
  {
    double mm[2] = {0, 0}, v[2] = {0, 0}, gp[2] = {0, 0}, x[2] = {1, 1};
    int j;
    m = olt_method("diffgrad", par, "lr", lr, "beta1", b1, "beta2", b2, "eps",
                   eps, (char *)NULL);
    for (j = 0; j < 3; j++) {
      double t = j + 1;
      for (i = 0; i < 2; i++) {
        double g = L[i] * x[i], xi = sigmoid(fabs(gp[i] - g));
        mm[i] = b1 * mm[i] + (1 - b1) * g;
        v[i] = b2 * v[i] + (1 - b2) * g * g;
        x[i] -= lr * xi * (mm[i] / (1 - pow(b1, t)))
                / (sqrt(v[i] / (1 - pow(b2, t))) + eps);
        gp[i] = g;
        W[j][i] = x[i];
      }
    }
    ok(iterates(p, m, par, 3, X) && agree(X, W[0], 6),
       "diffgrad: x -= lr xi mhat / (sqrt(vhat) + eps), three steps");
  }
}

/* Steps to tolerance 1e-6 on p with a budget; -1 when not reached. */
static long to_tol (const ol_problem *p, const ol_method_type *m,
                    const double *par, long budget, int invsqrt)
{
  ol_run_opts o;
  ol_run *r;
  long k = -1;
  if (m == NULL) return -1;
  ol_run_opts_default(&o);
  o.iters = budget;
  o.tol = 1e-6;
  if (invsqrt) {
    o.sched.kind = OL_SCHED_INVSQRT;
    o.sched.period = 1;
  }
  r = olt_go(p, m, par, &o);
  if (r == NULL) return -1;
  if (ol_run_reason(r) == OL_STOP_TOL
      && ol_run_last(r, OL_MET_GRADNORM) <= 1e-6)
    k = ol_run_iter(r);
  else
    diag("%s: %s after %ld, gradnorm %.3g", m->name,
         ol_stop_name(ol_run_reason(r)), ol_run_iter(r),
         ol_run_last(r, OL_MET_GRADNORM));
  ol_run_free(r);
  return k;
}

static void test_convergence (void)
{
  ol_problem *p = olt_quadratic(10, 10, 1);
  double par[8];
  long k;
  int i;
  /* budgets about 3x the measured step counts (seed 1 rotation) */
  static const struct {
    const char *name, *key;
    double lr;
    long budget;
  } cases[] = {
    {"agr", "lr", 1, 200},            /* 1/L */
    {"gradavg", "lr", 1, 400},
    {"adagradnorm", "lr", 1, 1000},
    {"adamw", "lr", 1e-2, 1200},
    {"amsgrad", "lr", 1e-2, 800},
    {"adamod", "lr", 1e-2, 5000},
    {"adamax", "lr", 1e-2, 2500},
    {"adopt", "lr", 1e-2, 4000},
    {"diffgrad", "lr", 1e-2, 5000},
  };
  static const double b2s[] = {0.1, 0.5, 0.9, 0.999, 0.9999};
  if (p == NULL) return;
  for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
    const ol_method_type *m = olt_method(cases[i].name, par, cases[i].key,
                                         cases[i].lr, (char *)NULL);
    k = to_tol(p, m, par, cases[i].budget, 0);
    ok(k > 0, "%s: lr = %g reaches gradnorm <= 1e-6 on quadratic{n=10, "
       "cond=10} within %ld steps (%ld)", cases[i].name, cases[i].lr,
       cases[i].budget, k);
  }
  /* AdaBound turns into SGD with step final_lr / sqrt(t) */
  {
    const ol_method_type *m = olt_method("adabound", par, "lr", 1e-2,
                                         "final_lr", 1.0, (char *)NULL);
    k = to_tol(p, m, par, 20000, 0);
    ok(k > 0, "adabound: final_lr = 1 reaches gradnorm <= 1e-6 within "
       "20000 steps (%ld)", k);
  }
  /* ADOPT: any beta2 with lr_t = lr / sqrt(1 + t) (Theorem 1's rate) */
  for (i = 0; i < (int)(sizeof b2s / sizeof b2s[0]); i++) {
    const ol_method_type *m = olt_method("adopt", par, "lr", 1e-2, "beta2",
                                         b2s[i], (char *)NULL);
    k = to_tol(p, m, par, 150000, 1);
    ok(k > 0, "adopt: beta2 = %g with lr / sqrt(1 + t) reaches gradnorm "
       "<= 1e-6 within 150000 steps (%ld)", b2s[i], k);
  }
  ol_problem_free(p);
}

/* Iterations of agr (lr = 1/L) until ||x - x*|| < 1e-8, or budget + 1. */
static long agr_iters (const ol_problem *p, double restart, long budget)
{
  double par[8];
  const ol_method_type *m = olt_method("agr", par, "lr", 1.0, "restart",
                                       restart, (char *)NULL);
  ol_run_opts o = olt_opts(budget, 0, OL_MSET_OF(OL_MET_LOSS));
  ol_run *r = olt_run(p, m, par, &o);
  long k;
  if (r == NULL) return -1;
  for (k = 1; k <= budget; k++) {
    const double *x;
    double d2 = 0;
    int i;
    if (ol_run_step(r) != OL_STOP_NONE && k < budget) break;
    x = ol_run_x(r);
    for (i = 0; i < p->n; i++) d2 += x[i] * x[i];   /* x* = 0 */
    if (sqrt(d2) < 1e-8) break;
  }
  ol_run_free(r);
  return k;
}

static void test_restart (void)
{
  ol_problem *p = olt_quadratic(50, 1e4, 1);
  long kn, kf, kg;
  if (p == NULL) return;
  kn = agr_iters(p, 0, 50000);
  kf = agr_iters(p, 2, 50000);
  kg = agr_iters(p, 3, 50000);
  diag("dist < 1e-8 on quadratic{n=50, cond=1e4}: none %ld, function %ld, "
       "gradient %ld iterations", kn, kf, kg);
  /* restarted AG is linear at about (1 - 1/sqrt(kappa)) = 0.99 per step:
  ** log(1e-8 / sqrt(50)) / log(0.99) = 2.0e3; allow 2x */
  ok(kf > 0 && kf <= 4000, "agr: function restart reaches dist < 1e-8 "
     "within 4000 iterations (%ld)", kf);
  ok(kg > 0 && kg <= 4000, "agr: gradient restart reaches dist < 1e-8 "
     "within 4000 iterations (%ld)", kg);
  ok(kf > 0 && kn > 2 * kf, "agr: function restart needs less than half "
     "the iterations of plain AG (%ld vs %ld)", kf, kn);
  ol_problem_free(p);
}

/* A method stepped directly in a ctx without a run. */
typedef struct direct {
  const ol_method_type *m;
  void *st;
  ol_ctx c;
  ol_rng rng;
  double x[8], xavg[8];
} direct;

static int direct_start (direct *d, const ol_problem *p, const char *name,
                         const double *par, double sched)
{
  ol_err e;
  int i;
  memset(d, 0, sizeof *d);
  d->m = ol_method_find(name);
  ol_rng_seed(&d->rng, 1, 0);
  for (i = 0; i < p->n; i++) d->x[i] = d->xavg[i] = 1;
  d->c.p = p;
  d->c.n = p->n;
  d->c.x = d->x;
  d->c.xavg = d->xavg;
  d->c.sched = sched;
  d->c.rng = &d->rng;
  if (d->m == NULL || (d->st = calloc(1, d->m->size)) == NULL) return 0;
  if (d->m->init(d->st, par, &d->c, &e) != OL_OK) {
    diag("%s: init: %s", name, e.msg);
    return 0;
  }
  return 1;
}

static int direct_step (direct *d)
{
  ol_err e;
  if (d->m->step(d->st, &d->c, &e) != OL_OK) {
    diag("%s: step: %s", d->m->name, e.msg);
    return 0;
  }
  d->c.t++;
  return 1;
}

static void direct_end (direct *d)
{
  if (d->st != NULL) d->m->fini(d->st);
  free(d->st);
  d->st = NULL;
}

static double probe (const direct *d, int metric)
{
  return d->m->probe != NULL ? d->m->probe(d->st, metric, &d->c) : NAN;
}

/* Sorted ascending copy of 3 values: min, median, max. */
static void sort3 (const double *w, double *s)
{
  double a = w[0], b = w[1], c = w[2], t;
  if (a > b) { t = a; a = b; b = t; }
  if (b > c) { t = b; b = c; c = t; }
  if (a > b) { t = a; a = b; b = t; }
  s[0] = a;
  s[1] = b;
  s[2] = c;
}

/* The probe of name after one step from x0 = 1 on the diagonal quadratic
** with eigenvalues lam (n = 3), sched 0.5, against w (hand). */
static void check_probe (const ol_problem *p, const char *name,
                         const double *par, const double *w,
                         const char *what)
{
  direct d;
  double s[3];
  int good = 0;
  sort3(w, s);
  if (direct_start(&d, p, name, par, 0.5)) {
    good = isnan(probe(&d, OL_MET_LRMAX));
    if (!good) diag("%s: probe not NAN before the first step", name);
    good = good && direct_step(&d);
    if (good) {
      double lo = probe(&d, OL_MET_LRMIN), md = probe(&d, OL_MET_LRMED);
      double hi = probe(&d, OL_MET_LRMAX);
      good = fabs(lo - s[0]) <= 1e-14 * s[0]
             && fabs(md - s[1]) <= 1e-14 * s[1]
             && fabs(hi - s[2]) <= 1e-14 * s[2]
             && isnan(probe(&d, OL_MET_LOSS));
      if (!good)
        diag("%s: want %.17g %.17g %.17g, got %.17g %.17g %.17g", name,
             s[0], s[1], s[2], lo, md, hi);
    }
  }
  direct_end(&d);
  ok(good, "%s: probe after one step: %s", name, what);
}

static void test_probes (void)
{
  ol_problem *p = olt_quadratic(3, 100, 0);   /* lambda = 1, 0.1, 0.01 = g0 */
  const double lam[3] = {1, 0.1, 0.01};
  double par[8], w[3], lr = 0.3, b1 = 0.8, b2 = 0.95, eps = 1e-3, a;
  int i;
  if (p == NULL) return;
  a = lr * 0.5;   /* lr * sched */

  olt_method("adagrad", par, "lr", lr, "eps", eps, (char *)NULL);
  for (i = 0; i < 3; i++) w[i] = a / (lam[i] + eps);
  check_probe(p, "adagrad", par, w, "lr sched / (sqrt(G) + eps)");

  olt_method("rmsprop", par, "lr", lr, "beta2", b2, "eps", eps, (char *)NULL);
  for (i = 0; i < 3; i++) w[i] = a / (sqrt(1 - b2) * lam[i] + eps);
  check_probe(p, "rmsprop", par, w, "lr sched / (sqrt(v) + eps)");

  olt_method("adam", par, "lr", lr, "beta1", b1, "beta2", b2, "eps", eps,
             (char *)NULL);
  for (i = 0; i < 3; i++) w[i] = a / (1 - b1) / (lam[i] + eps);
  check_probe(p, "adam", par, w,
              "lr sched / (1 - b1^t) / (sqrt(vhat) + eps)");

  olt_method("adamw", par, "lr", lr, "beta1", b1, "beta2", b2, "eps", eps,
             "wd", 0.1, (char *)NULL);
  check_probe(p, "adamw", par, w, "as Adam, decay not included");

  olt_method("amsgrad", par, "lr", lr, "beta1", b1, "beta2", b2, "eps", eps,
             (char *)NULL);
  for (i = 0; i < 3; i++) w[i] = a / (sqrt(1 - b2) * lam[i] + eps);
  check_probe(p, "amsgrad", par, w, "lr sched / (sqrt(vhat) + eps)");

  /* t = 1, final_lr = 0.5, gamma = 0.5: band [1/6, 3/2]; lr / (sqrt(v) +
  ** eps) is 1.33, 12.8, 74: two coordinates clip to 3/2 */
  olt_method("adabound", par, "lr", lr, "final_lr", 0.5, "gamma", 0.5,
             "beta1", b1, "beta2", b2, "eps", eps, (char *)NULL);
  for (i = 0; i < 3; i++) {
    double r = lr / (sqrt(1 - b2) * lam[i] + eps);
    w[i] = 0.5 * (r > 1.5 ? 1.5 : r < 1.0 / 6 ? 1.0 / 6 : r);
  }
  check_probe(p, "adabound", par, w, "sched clip(lr / (sqrt(v) + eps)) / "
              "sqrt(t)");

  olt_method("adamod", par, "lr", lr, "beta1", b1, "beta2", b2, "beta3", 0.9,
             "eps", eps, (char *)NULL);
  for (i = 0; i < 3; i++) w[i] = 0.1 * a / (lam[i] + eps) / (1 - b1);
  check_probe(p, "adamod", par, w, "min(etahat, s_1 = (1 - b3) etahat) / "
              "(1 - b1^t)");

  olt_method("adopt", par, "lr", lr, "beta1", b1, "beta2", b2, "eps", 0.05,
             (char *)NULL);
  for (i = 0; i < 3; i++) w[i] = a / (lam[i] > 0.05 ? lam[i] : 0.05);
  check_probe(p, "adopt", par, w, "lr sched / max(sqrt(v_0), eps), eps "
              "active");

  olt_method("diffgrad", par, "lr", lr, "beta1", b1, "beta2", b2, "eps", eps,
             (char *)NULL);
  for (i = 0; i < 3; i++)
    w[i] = a * sigmoid(lam[i]) / (1 - b1) / (lam[i] + eps);
  check_probe(p, "diffgrad", par, w, "lr sched xi / (1 - b1^t) / "
              "(sqrt(vhat) + eps)");

  olt_method("adagradnorm", par, "lr", lr, "b0", 0.5, (char *)NULL);
  for (i = 0; i < 3; i++) w[i] = a / sqrt(0.25 + 1 + 0.01 + 1e-4);
  check_probe(p, "adagradnorm", par, w, "lr sched / b_1 for all three");
  ol_problem_free(p);

  /* even count: the median is the mean of the two middle multipliers */
  p = olt_quadratic(4, 1000, 0);   /* lambda = 1, 0.1, 0.01, 0.001 */
  if (p != NULL) {
    direct d;
    double want;
    int good = 0;
    olt_method("adagrad", par, "lr", lr, "eps", eps, (char *)NULL);
    want = 0.5 * (a / (0.1 + eps) + a / (0.01 + eps));
    if (direct_start(&d, p, "adagrad", par, 0.5) && direct_step(&d))
      good = fabs(probe(&d, OL_MET_LRMED) - want) <= 1e-14 * want;
    direct_end(&d);
    ok(good, "adagrad: lrmed of 4 coordinates is the mean of the middle "
       "two (%.17g)", want);
    ol_problem_free(p);
  }
}

/* AMSGrad on f = x^2 / 2 (n = 1, g = x): the probe lr / (sqrt(vhat) +
** eps) follows the hand recursion with vhat = max(vhat, v) at every step,
** never increases, and v itself does decrease (the max is active). */
static void test_amsgrad_vhat (void)
{
  ol_problem *p = olt_quadratic(1, 1, 0);
  direct d;
  double par[8], lr = 0.05, b1 = 0.9, b2 = 0.99, eps = 1e-8;
  double x = 1, mm = 0, v = 0, vh = 0, prev = INFINITY;
  int j, good = 1, match = 1, fell = 0;
  if (p == NULL) return;
  olt_method("amsgrad", par, "lr", lr, "beta1", b1, "beta2", b2, "eps", eps,
             (char *)NULL);
  if (!direct_start(&d, p, "amsgrad", par, 1)) good = 0;
  for (j = 0; good && j < 500; j++) {
    double g = x, q, want;
    mm = b1 * mm + (1 - b1) * g;
    q = b2 * v + (1 - b2) * g * g;
    if (q < v) fell = 1;
    v = q;
    if (v > vh) vh = v;
    x -= lr * mm / (sqrt(vh) + eps);
    if (!direct_step(&d)) {
      good = 0;
      break;
    }
    q = probe(&d, OL_MET_LRMAX);
    want = lr / (sqrt(vh) + eps);
    if (!(fabs(q - want) <= 1e-12 * want)) {
      if (match) diag("step %d: probe %.17g, hand %.17g", j + 1, q, want);
      match = 0;
    }
    if (!(q <= prev)) good = 0;
    prev = q;
  }
  direct_end(&d);
  ok(good && match && fell, "amsgrad: vhat nondecreasing over 500 steps "
     "while v decreases (probe = lr / (sqrt(vhat) + eps) each step)");
  ol_problem_free(p);
}

int main (void)
{
  ol_problem *p = olt_quadratic(2, 10, 0);
  if (p != NULL) {
    test_agr_gradavg(p);
    test_adaptive_iterates(p);
    ol_problem_free(p);
  }
  else
    ok(0, "quadratic{n=2}");
  test_convergence();
  test_restart();
  test_probes();
  test_amsgrad_vhat();
  return done();
}
