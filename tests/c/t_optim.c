/*
** tests/c/t_optim.c -- the optimizers through the run engine.
**
** (1) The first two iterates of every optimizer on the diagonal quadratic
**     f = 1/2 (x1^2 + x2^2 / 10) from x0 = (1, 1), against the update
**     rules written out here coordinate by coordinate (closed forms, not
**     the implementation).
** (2) Convergence claims: gd / momentum / nesterov reach dist < 1e-8 on
**     quadratic{n=10, cond=100}; Adam (lr 1e-2) stops by tolerance 1e-6
**     on 2-D Rosenbrock within 20000 steps; projected gradient on a
**     simplex-constrained quadratic reaches the uniform point.
** (3) The step-size schedule multiplies every optimizer's step.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "olt.h"
#include "problem.h"
#include "run.h"
#include "tap.h"

static int agree (const double *got, const double *want, int n)
{
  return olt_agree(got, want, n, 1e-14);
}

/* Closed-form iterates on f = 1/2 sum_i l_i x_i^2, l = (1, 1/10). */
static const double L[2] = {1, 0.1};

static void test_first_iterates (void)
{
  ol_problem *p = olt_quadratic(2, 10, 0);
  ol_run_opts o;
  double par[8], x1[2], x2[2], w1[2], w2[2];
  double lr = 0.3, mu = 0.7, b1 = 0.8, b2 = 0.95, eps = 1e-3;
  int i;
  ol_run_opts_default(&o);
  o.iters = 10;

  olt_method("gd", par, "lr", lr, (char *)NULL);
  for (i = 0; i < 2; i++) {
    w1[i] = (1 - lr * L[i]) * 1;
    w2[i] = (1 - lr * L[i]) * w1[i];
  }
  ok(olt_two_steps(p, ol_method_find("gd"), par, &o, x1, x2)
     && agree(x1, w1, 2) && agree(x2, w2, 2),
     "gd: x1 = (1 - lr l) x0, x2 = (1 - lr l)^2 x0");

  olt_method("momentum", par, "lr", lr, "mu", mu, (char *)NULL);
  for (i = 0; i < 2; i++) {
    w1[i] = 1 - lr * L[i] * 1;
    w2[i] = w1[i] - lr * L[i] * w1[i] + mu * (w1[i] - 1);
  }
  ok(olt_two_steps(p, ol_method_find("momentum"), par, &o, x1, x2)
     && agree(x1, w1, 2) && agree(x2, w2, 2),
     "momentum: x2 = x1 - lr g1 + mu (x1 - x0)");

  olt_method("nesterov", par, "lr", lr, "mu", mu, (char *)NULL);
  for (i = 0; i < 2; i++) {
    double v1 = -lr * L[i] * 1, v2;
    w1[i] = 1 + v1;
    v2 = mu * v1 - lr * L[i] * (w1[i] + mu * v1);
    w2[i] = w1[i] + v2;
  }
  ok(olt_two_steps(p, ol_method_find("nesterov"), par, &o, x1, x2)
     && agree(x1, w1, 2) && agree(x2, w2, 2),
     "nesterov: v2 = mu v1 - lr grad f(x1 + mu v1), x2 = x1 + v2");

  olt_method("adagrad", par, "lr", lr, "eps", eps, (char *)NULL);
  for (i = 0; i < 2; i++) {
    double g0 = L[i], g1;
    w1[i] = 1 - lr * g0 / (fabs(g0) + eps);
    g1 = L[i] * w1[i];
    w2[i] = w1[i] - lr * g1 / (sqrt(g0 * g0 + g1 * g1) + eps);
  }
  ok(olt_two_steps(p, ol_method_find("adagrad"), par, &o, x1, x2)
     && agree(x1, w1, 2) && agree(x2, w2, 2),
     "adagrad: x2 = x1 - lr g1 / (sqrt(g0^2 + g1^2) + eps)");

  olt_method("rmsprop", par, "lr", lr, "beta2", b2, "eps", eps,
             (char *)NULL);
  for (i = 0; i < 2; i++) {
    double g0 = L[i], g1, v1 = (1 - b2) * g0 * g0, v2;
    w1[i] = 1 - lr * g0 / (sqrt(v1) + eps);
    g1 = L[i] * w1[i];
    v2 = b2 * v1 + (1 - b2) * g1 * g1;
    w2[i] = w1[i] - lr * g1 / (sqrt(v2) + eps);
  }
  ok(olt_two_steps(p, ol_method_find("rmsprop"), par, &o, x1, x2)
     && agree(x1, w1, 2) && agree(x2, w2, 2),
     "rmsprop: v = b2 v + (1 - b2) g^2, x -= lr g / (sqrt(v) + eps)");

  olt_method("adam", par, "lr", lr, "beta1", b1, "beta2", b2,
             "eps", eps, (char *)NULL);
  for (i = 0; i < 2; i++) {
    /* t = 1: mhat = g0, vhat = g0^2 */
    double g0 = L[i], g1, m2, v2;
    w1[i] = 1 - lr * g0 / (fabs(g0) + eps);
    g1 = L[i] * w1[i];
    m2 = (b1 * (1 - b1) * g0 + (1 - b1) * g1) / (1 - b1 * b1);
    v2 = (b2 * (1 - b2) * g0 * g0 + (1 - b2) * g1 * g1) / (1 - b2 * b2);
    w2[i] = w1[i] - lr * m2 / (sqrt(v2) + eps);
  }
  ok(olt_two_steps(p, ol_method_find("adam"), par, &o, x1, x2)
     && agree(x1, w1, 2) && agree(x2, w2, 2),
     "adam: bias-corrected iterates 1 and 2 (Algorithm 1)");

  /* a schedule scales the step: warmup period 4 gives 1/4, then 2/4 */
  o.sched.kind = OL_SCHED_WARMUP;
  o.sched.period = 4;
  olt_method("gd", par, "lr", lr, (char *)NULL);
  for (i = 0; i < 2; i++) {
    w1[i] = 1 - lr / 4 * L[i];
    w2[i] = w1[i] - lr / 2 * L[i] * w1[i];
  }
  ok(olt_two_steps(p, ol_method_find("gd"), par, &o, x1, x2)
     && agree(x1, w1, 2) && agree(x2, w2, 2),
     "gd: the schedule multiplies lr (warmup 1/4, 2/4)");
  olt_method("adam", par, "lr", lr, (char *)NULL);
  {
    double b1d = 0.9, b2d = 0.999, ed = 1e-8;
    for (i = 0; i < 2; i++) {
      double g0 = L[i], g1, m2, v2;
      w1[i] = 1 - lr / 4 * g0 / (fabs(g0) + ed);
      g1 = L[i] * w1[i];
      m2 = (b1d * (1 - b1d) * g0 + (1 - b1d) * g1) / (1 - b1d * b1d);
      v2 = (b2d * (1 - b2d) * g0 * g0 + (1 - b2d) * g1 * g1)
           / (1 - b2d * b2d);
      w2[i] = w1[i] - lr / 2 * m2 / (sqrt(v2) + ed);
    }
  }
  ok(olt_two_steps(p, ol_method_find("adam"), par, &o, x1, x2)
     && agree(x1, w1, 2) && agree(x2, w2, 2),
     "adam: the schedule multiplies lr; defaults 0.9, 0.999, 1e-8");
  ol_problem_free(p);

  /* pgd: quadratic with cond = 1 (grad = x) on the simplex of size 3.  For
  ** x on the simplex, x - lr x sums to 1 - lr, and the projection adds
  ** lr / 3 to every coordinate while all stay positive. */
  p = olt_quadratic(3, 1, 0);
  p->set.kind = OL_SET_SIMPLEX;
  p->set.nblocks = 1;
  p->set.blocks[0] = 3;
  {
    double y0[3] = {0.6, 0.3, 0.1}, y1[3], y2[3], v1[3], v2[3];
    double plr = 0.1;
    ol_run_opts_default(&o);
    o.iters = 10;
    o.x0 = y0;
    olt_method("pgd", par, "lr", plr, (char *)NULL);
    for (i = 0; i < 3; i++) {
      v1[i] = (1 - plr) * y0[i] + plr / 3;
      v2[i] = (1 - plr) * v1[i] + plr / 3;
    }
    ok(olt_two_steps(p, ol_method_find("pgd"), par, &o, y1, y2)
       && agree(y1, v1, 3) && agree(y2, v2, 3),
       "pgd: x1 = P(x0 - lr x0) = (1 - lr) x0 + lr/3 on the simplex");
  }
  ol_problem_free(p);
}

/* Run m with par on p for iters steps (tol: stop rule) and report. */
static ol_run *go (const ol_problem *p, const char *name, const double *par,
                   long iters, double tol, ol_mset metrics)
{
  ol_run_opts o = olt_opts(iters, tol, metrics);
  return olt_go(p, ol_method_find(name), par, &o);
}

static void test_convergence (void)
{
  ol_err e;
  ol_problem *p = olt_quadratic(10, 100, 1);
  ol_mset mets = OL_MSET_OF(OL_MET_LOSS, OL_MET_GRADNORM, OL_MET_DIST);
  double par[8], k = 100, sk = 10;
  ol_run *r;

  /* gd with lr = 1/L contracts by (1 - 1/cond) per step: 2500 steps give
  ** 0.99^2500 sqrt(10) ~ 4e-11 */
  olt_method("gd", par, "lr", 1.0, (char *)NULL);
  r = go(p, "gd", par, 2500, 0, mets);
  ok(r != NULL && ol_run_last(r, OL_MET_DIST) < 1e-8,
     "gd: dist < 1e-8 on quadratic{n=10, cond=100} in 2500 steps (%.3g)",
     r ? ol_run_last(r, OL_MET_DIST) : NAN);
  ol_run_free(r);

  /* heavy ball with Polyak's tuning lr = 4 / (sqrt L + sqrt mu)^2,
  ** mu = ((sqrt k - 1) / (sqrt k + 1))^2: rate ~ 0.82 */
  olt_method("momentum", par,
             "lr", 4 / ((1 + 1 / sk) * (1 + 1 / sk)),
             "mu", ((sk - 1) / (sk + 1)) * ((sk - 1) / (sk + 1)), (char *)NULL);
  r = go(p, "momentum", par, 400, 0, mets);
  ok(r != NULL && ol_run_last(r, OL_MET_DIST) < 1e-8,
     "momentum: dist < 1e-8 on quadratic{n=10, cond=100} in 400 steps "
     "(%.3g)", r ? ol_run_last(r, OL_MET_DIST) : NAN);
  ol_run_free(r);

  /* Nesterov with lr = 1/L, mu = (sqrt k - 1) / (sqrt k + 1) */
  olt_method("nesterov", par, "lr", 1.0, "mu",
             (sqrt(k) - 1) / (sqrt(k) + 1), (char *)NULL);
  r = go(p, "nesterov", par, 600, 0, mets);
  ok(r != NULL && ol_run_last(r, OL_MET_DIST) < 1e-8,
     "nesterov: dist < 1e-8 on quadratic{n=10, cond=100} in 600 steps "
     "(%.3g)", r ? ol_run_last(r, OL_MET_DIST) : NAN);
  ol_run_free(r);
  ol_problem_free(p);

  /* Adam on 2-D Rosenbrock from (-1.2, 1) */
  p = olt_problem("rosenbrock", &e, "n", 2.0, (char *)NULL);
  olt_method("adam", par, "lr", 1e-2, (char *)NULL);
  r = go(p, "adam", par, 20000, 1e-6, mets);
  if (r != NULL) {
    ok(ol_run_reason(r) == OL_STOP_TOL && ol_run_iter(r) < 20000,
       "adam: lr=1e-2 stops by tolerance 1e-6 on rosenbrock before 20000 "
       "steps (%s after %ld)", ol_stop_name(ol_run_reason(r)),
       ol_run_iter(r));
    ok(ol_run_last(r, OL_MET_GRADNORM) < 1e-6,
       "adam: final gradnorm < 1e-6 (%.3g)", ol_run_last(r, OL_MET_GRADNORM));
    ok(ol_run_last(r, OL_MET_DIST) < 1e-5, "adam: x near (1, 1) (%.3g)",
       ol_run_last(r, OL_MET_DIST));
  }
  else
    ok(0, "adam: run on rosenbrock");
  ol_run_free(r);
  ol_problem_free(p);

  /* pgd: min 1/2 ||x||^2 over the simplex is the uniform point */
  p = olt_quadratic(5, 1, 1);
  p->set.kind = OL_SET_SIMPLEX;
  p->set.nblocks = 1;
  p->set.blocks[0] = 5;
  {
    /* a start on the simplex (an infeasible one is refused) */
    int i;
    for (i = 0; i < 5; i++) p->x0[i] = i == 0;
  }
  olt_method("pgd", par, (char *)NULL);
  r = go(p, "pgd", par, 1000, 0, ol_mset_or(mets, OL_MSET_OF(OL_MET_KKT)));
  if (r != NULL) {
    const double *x = ol_run_x(r);
    double worst = 0;
    int i;
    for (i = 0; i < 5; i++)
      if (!(fabs(x[i] - 0.2) <= worst)) worst = fabs(x[i] - 0.2);
    ok(worst < 1e-10, "pgd: converges to the uniform point on the simplex "
       "(max err %.3g)", worst);
    ok(ol_run_last(r, OL_MET_KKT) < 1e-8, "pgd: kkt < 1e-8 (%.3g)",
       ol_run_last(r, OL_MET_KKT));
  }
  else
    ok(0, "pgd: run on the simplex");
  ol_run_free(r);
  ol_problem_free(p);

  p = olt_quadratic(3, 1, 0);
  r = ol_run_new(p, ol_method_find("pgd"), par, NULL, &e);
  ok(r == NULL && e.code == OL_EINVAL,
     "pgd: refused on an unconstrained problem (%s)", e.msg);
  ol_run_free(r);
  ol_problem_free(p);
}

/* Registry sweep: every optimizer, default parameters, decreases the
** loss in 200 steps and stops only by budget (or converges exactly:
** Newton, cubic and L-BFGS on the quadratic), on the first of the
** candidate problems it can run on (ol_method_check): a boxed quadratic,
** then built-in problems for methods with special needs (a matrix-shaped
** x, a finite sum, a bilevel problem, a manifold).  An optimizer with no suitable
** candidate fails. */
static void test_sweep (void)
{
  static const char *const extra[] = {"matlsq", "fsquad", "lowrank",
                                      "ridgehyper", "kmeans"};
  ol_problem *cand[6];
  const char *cname[6];
  int nc = 0, i, j;
  ol_err e;
  cand[0] = olt_quadratic(4, 10, 1);
  cname[nc++] = "a boxed quadratic";
  cand[0]->set.kind = OL_SET_BOX;
  cand[0]->set.lo = malloc(sizeof(double) * 4);
  cand[0]->set.hi = malloc(sizeof(double) * 4);
  for (i = 0; i < 4; i++) {
    cand[0]->set.lo[i] = -2;
    cand[0]->set.hi[i] = 2;
  }
  for (j = 0; j < 5; j++)
    if (ol_problem_type_find(extra[j]) != NULL) {
      cand[nc] = olt_problem(extra[j], &e, (char *)NULL);
      if (cand[nc] != NULL) cname[nc++] = extra[j];
    }
  for (i = 0; ol_methods[i] != NULL; i++) {
    const ol_method_type *m = ol_methods[i];
    double par[32];
    ol_run *r;
    if (m->family != OL_OPTIM) continue;
    for (j = 0; j < nc; j++)
      if (ol_method_check(m, cand[j], &e) == OL_OK) break;
    if (j == nc) {
      ok(0, "%s: a built-in problem it can run on (%s)", m->name, e.msg);
      continue;
    }
    olt_params(m, par, (char *)NULL);
    r = go(cand[j], m->name, par, 200, 0, OL_MSET_OF(OL_MET_LOSS));
    ok(r != NULL && (ol_run_reason(r) == OL_STOP_BUDGET ||
                     ol_run_reason(r) == OL_STOP_CONVERGED)
       && ol_run_series(r, OL_MET_LOSS) != NULL
       && ol_run_last(r, OL_MET_LOSS) < ol_run_series(r, OL_MET_LOSS)[0],
       "%s: defaults decrease the loss on %s in 200 steps", m->name,
       cname[j]);
    ol_run_free(r);
  }
  for (j = 0; j < nc; j++) ol_problem_free(cand[j]);
}

/* The live-tuning bits of every method's table name parameters it has
** (method.h: params_live), and the ones set are the step sizes and
** momenta of the plain first-order methods. */
static void test_params_live (void)
{
  int i, bad = 0, nlive = 0;
  for (i = 0; ol_methods[i] != NULL; i++) {
    const ol_method_type *m = ol_methods[i];
    unsigned all = m->nparams >= 32 ? ~0u : (1u << m->nparams) - 1;
    if (m->params_live & ~all) {
      diag("%s: params_live 0x%x names a parameter beyond its %d", m->name,
           m->params_live, m->nparams);
      bad++;
    }
    nlive += m->params_live != 0;
  }
  ok(bad == 0, "params_live: every bit names one of the method's "
     "parameters (%d methods wrong)", bad);
  ok(nlive >= 7 && (ol_method_find("optim.adam")->params_live &
                    OL_LIVE(0)) && (ol_method_find("optim.momentum")->
                                    params_live & OL_LIVE(1)),
     "params_live: set on %d methods; adam's lr and momentum's mu are "
     "live", nlive);
  ok(!(ol_method_find("optim.adam")->params_live & OL_LIVE(1)),
     "params_live: adam's beta1 is not (its bias correction accumulates "
     "beta1^t)");
}

int main (void)
{
  test_first_iterates();
  test_convergence();
  test_sweep();
  test_params_live();
  return done();
}
