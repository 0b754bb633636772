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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "problem.h"
#include "run.h"
#include "tap.h"

static ol_problem *mkprob (const char *name, int n, double cond, int rotate,
                           ol_err *e)
{
  const ol_problem_type *t = ol_problem_type_find(name);
  ol_pval v[8];
  int i;
  memset(v, 0, sizeof v);
  for (i = 0; i < t->nparams; i++) v[i].num = t->params[i].def;
  if (n > 0) v[0].num = n;
  if (strcmp(name, "quadratic") == 0) {
    v[1].num = cond;
    v[3].num = rotate;
  }
  return ol_problem_new(t, v, e);
}

/* Parameters of method m: defaults, then "key", value pairs, NULL-ended. */
static void params (const ol_method_type *m, double *par, ...)
{
  const char *key;
  va_list ap;
  int i;
  for (i = 0; i < m->nparams; i++) par[i] = m->params[i].def;
  va_start(ap, par);
  while ((key = va_arg(ap, const char *)) != NULL) {
    double v = va_arg(ap, double);
    i = ol_param_find(m->params, m->nparams, key);
    if (i >= 0) par[i] = v;
    else diag("unknown parameter %s of %s", key, m->name);
  }
  va_end(ap);
}

/* The iterates x1, x2 of method m on p (2-D), or 0 on failure. */
static int two_steps (const ol_problem *p, const ol_method_type *m,
                      const double *par, const ol_run_opts *o,
                      double x1[], double x2[])
{
  ol_err e;
  ol_run *r = ol_run_new(p, m, par, o, &e);
  int n = p->n;
  if (r == NULL) {
    diag("%s: %s", m->name, e.msg);
    return 0;
  }
  if (ol_run_advance(r, 1) != 1) goto fail;
  memcpy(x1, ol_run_x(r), sizeof(double) * n);
  if (ol_run_advance(r, 1) != 1) goto fail;
  memcpy(x2, ol_run_x(r), sizeof(double) * n);
  ol_run_free(r);
  return 1;
fail:
  diag("%s: stopped early: %s %s", m->name, ol_stop_name(ol_run_reason(r)),
       ol_run_message(r));
  ol_run_free(r);
  return 0;
}

static int agree (const double *got, const double *want, int n)
{
  int i;
  for (i = 0; i < n; i++)
    if (!(fabs(got[i] - want[i]) <= 1e-14 * (1 + fabs(want[i])))) {
      diag("  x[%d]: want %.17g, got %.17g", i, want[i], got[i]);
      return 0;
    }
  return 1;
}

/* Closed-form iterates on f = 1/2 sum_i l_i x_i^2, l = (1, 1/10). */
static const double L[2] = {1, 0.1};

static void test_first_iterates (void)
{
  ol_err e;
  ol_problem *p = mkprob("quadratic", 2, 10, 0, &e);
  ol_run_opts o;
  double par[8], x1[2], x2[2], w1[2], w2[2];
  double lr = 0.3, mu = 0.7, b1 = 0.8, b2 = 0.95, eps = 1e-3;
  int i;
  ol_run_opts_default(&o);
  o.iters = 10;

  params(ol_method_find("gd"), par, "lr", lr, (char *)NULL);
  for (i = 0; i < 2; i++) {
    w1[i] = (1 - lr * L[i]) * 1;
    w2[i] = (1 - lr * L[i]) * w1[i];
  }
  ok(two_steps(p, ol_method_find("gd"), par, &o, x1, x2)
     && agree(x1, w1, 2) && agree(x2, w2, 2),
     "gd: x1 = (1 - lr l) x0, x2 = (1 - lr l)^2 x0");

  params(ol_method_find("momentum"), par, "lr", lr, "mu", mu, (char *)NULL);
  for (i = 0; i < 2; i++) {
    w1[i] = 1 - lr * L[i] * 1;
    w2[i] = w1[i] - lr * L[i] * w1[i] + mu * (w1[i] - 1);
  }
  ok(two_steps(p, ol_method_find("momentum"), par, &o, x1, x2)
     && agree(x1, w1, 2) && agree(x2, w2, 2),
     "momentum: x2 = x1 - lr g1 + mu (x1 - x0)");

  params(ol_method_find("nesterov"), par, "lr", lr, "mu", mu, (char *)NULL);
  for (i = 0; i < 2; i++) {
    double v1 = -lr * L[i] * 1, v2;
    w1[i] = 1 + v1;
    v2 = mu * v1 - lr * L[i] * (w1[i] + mu * v1);
    w2[i] = w1[i] + v2;
  }
  ok(two_steps(p, ol_method_find("nesterov"), par, &o, x1, x2)
     && agree(x1, w1, 2) && agree(x2, w2, 2),
     "nesterov: v2 = mu v1 - lr grad f(x1 + mu v1), x2 = x1 + v2");

  params(ol_method_find("adagrad"), par, "lr", lr, "eps", eps, (char *)NULL);
  for (i = 0; i < 2; i++) {
    double g0 = L[i], g1;
    w1[i] = 1 - lr * g0 / (fabs(g0) + eps);
    g1 = L[i] * w1[i];
    w2[i] = w1[i] - lr * g1 / (sqrt(g0 * g0 + g1 * g1) + eps);
  }
  ok(two_steps(p, ol_method_find("adagrad"), par, &o, x1, x2)
     && agree(x1, w1, 2) && agree(x2, w2, 2),
     "adagrad: x2 = x1 - lr g1 / (sqrt(g0^2 + g1^2) + eps)");

  params(ol_method_find("rmsprop"), par, "lr", lr, "beta2", b2, "eps", eps,
         (char *)NULL);
  for (i = 0; i < 2; i++) {
    double g0 = L[i], g1, v1 = (1 - b2) * g0 * g0, v2;
    w1[i] = 1 - lr * g0 / (sqrt(v1) + eps);
    g1 = L[i] * w1[i];
    v2 = b2 * v1 + (1 - b2) * g1 * g1;
    w2[i] = w1[i] - lr * g1 / (sqrt(v2) + eps);
  }
  ok(two_steps(p, ol_method_find("rmsprop"), par, &o, x1, x2)
     && agree(x1, w1, 2) && agree(x2, w2, 2),
     "rmsprop: v = b2 v + (1 - b2) g^2, x -= lr g / (sqrt(v) + eps)");

  params(ol_method_find("adam"), par, "lr", lr, "beta1", b1, "beta2", b2,
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
  ok(two_steps(p, ol_method_find("adam"), par, &o, x1, x2)
     && agree(x1, w1, 2) && agree(x2, w2, 2),
     "adam: bias-corrected iterates 1 and 2 (Algorithm 1)");

  /* a schedule scales the step: warmup period 4 gives 1/4, then 2/4 */
  o.sched.kind = OL_SCHED_WARMUP;
  o.sched.period = 4;
  params(ol_method_find("gd"), par, "lr", lr, (char *)NULL);
  for (i = 0; i < 2; i++) {
    w1[i] = 1 - lr / 4 * L[i];
    w2[i] = w1[i] - lr / 2 * L[i] * w1[i];
  }
  ok(two_steps(p, ol_method_find("gd"), par, &o, x1, x2)
     && agree(x1, w1, 2) && agree(x2, w2, 2),
     "gd: the schedule multiplies lr (warmup 1/4, 2/4)");
  params(ol_method_find("adam"), par, "lr", lr, (char *)NULL);
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
  ok(two_steps(p, ol_method_find("adam"), par, &o, x1, x2)
     && agree(x1, w1, 2) && agree(x2, w2, 2),
     "adam: the schedule multiplies lr; defaults 0.9, 0.999, 1e-8");
  ol_problem_free(p);

  /* pgd: quadratic with cond = 1 (grad = x) on the simplex of size 3.  For
  ** x on the simplex, x - lr x sums to 1 - lr, and the projection adds
  ** lr / 3 to every coordinate while all stay positive. */
  p = mkprob("quadratic", 3, 1, 0, &e);
  p->set.kind = OL_SET_SIMPLEX;
  p->set.nblocks = 1;
  p->set.blocks[0] = 3;
  {
    double y0[3] = {0.6, 0.3, 0.1}, y1[3], y2[3], v1[3], v2[3];
    double plr = 0.1;
    ol_run_opts_default(&o);
    o.iters = 10;
    o.x0 = y0;
    params(ol_method_find("pgd"), par, "lr", plr, (char *)NULL);
    for (i = 0; i < 3; i++) {
      v1[i] = (1 - plr) * y0[i] + plr / 3;
      v2[i] = (1 - plr) * v1[i] + plr / 3;
    }
    ok(two_steps(p, ol_method_find("pgd"), par, &o, y1, y2)
       && agree(y1, v1, 3) && agree(y2, v2, 3),
       "pgd: x1 = P(x0 - lr x0) = (1 - lr) x0 + lr/3 on the simplex");
  }
  ol_problem_free(p);
}

/* Run m with par on p for iters steps (tol: stop rule) and report. */
static ol_run *go (const ol_problem *p, const char *name, const double *par,
                   long iters, double tol, unsigned metrics)
{
  ol_err e;
  ol_run_opts o;
  ol_run *r;
  ol_run_opts_default(&o);
  o.iters = iters;
  o.tol = tol;
  o.metrics = metrics;
  r = ol_run_new(p, ol_method_find(name), par, &o, &e);
  if (r == NULL) {
    diag("%s: %s", name, e.msg);
    return NULL;
  }
  ol_run_advance(r, iters);
  return r;
}

static void test_convergence (void)
{
  ol_err e;
  ol_problem *p = mkprob("quadratic", 10, 100, 1, &e);
  unsigned mets = OL_MBIT(OL_MET_LOSS) | OL_MBIT(OL_MET_GRADNORM)
                  | OL_MBIT(OL_MET_DIST);
  double par[8], k = 100, sk = 10;
  ol_run *r;

  /* gd with lr = 1/L contracts by (1 - 1/cond) per step: 2500 steps give
  ** 0.99^2500 sqrt(10) ~ 4e-11 */
  params(ol_method_find("gd"), par, "lr", 1.0, (char *)NULL);
  r = go(p, "gd", par, 2500, 0, mets);
  ok(r != NULL && ol_run_last(r, OL_MET_DIST) < 1e-8,
     "gd: dist < 1e-8 on quadratic{n=10, cond=100} in 2500 steps (%.3g)",
     r ? ol_run_last(r, OL_MET_DIST) : NAN);
  ol_run_free(r);

  /* heavy ball with Polyak's tuning lr = 4 / (sqrt L + sqrt mu)^2,
  ** mu = ((sqrt k - 1) / (sqrt k + 1))^2: rate ~ 0.82 */
  params(ol_method_find("momentum"), par,
         "lr", 4 / ((1 + 1 / sk) * (1 + 1 / sk)),
         "mu", ((sk - 1) / (sk + 1)) * ((sk - 1) / (sk + 1)), (char *)NULL);
  r = go(p, "momentum", par, 400, 0, mets);
  ok(r != NULL && ol_run_last(r, OL_MET_DIST) < 1e-8,
     "momentum: dist < 1e-8 on quadratic{n=10, cond=100} in 400 steps "
     "(%.3g)", r ? ol_run_last(r, OL_MET_DIST) : NAN);
  ol_run_free(r);

  /* Nesterov with lr = 1/L, mu = (sqrt k - 1) / (sqrt k + 1) */
  params(ol_method_find("nesterov"), par, "lr", 1.0, "mu",
         (sqrt(k) - 1) / (sqrt(k) + 1), (char *)NULL);
  r = go(p, "nesterov", par, 600, 0, mets);
  ok(r != NULL && ol_run_last(r, OL_MET_DIST) < 1e-8,
     "nesterov: dist < 1e-8 on quadratic{n=10, cond=100} in 600 steps "
     "(%.3g)", r ? ol_run_last(r, OL_MET_DIST) : NAN);
  ol_run_free(r);
  ol_problem_free(p);

  /* Adam on 2-D Rosenbrock from (-1.2, 1) */
  p = mkprob("rosenbrock", 2, 0, 0, &e);
  params(ol_method_find("adam"), par, "lr", 1e-2, (char *)NULL);
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
  p = mkprob("quadratic", 5, 1, 1, &e);
  p->set.kind = OL_SET_SIMPLEX;
  p->set.nblocks = 1;
  p->set.blocks[0] = 5;
  params(ol_method_find("pgd"), par, (char *)NULL);
  r = go(p, "pgd", par, 1000, 0, mets | OL_MBIT(OL_MET_KKT));
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

  p = mkprob("quadratic", 3, 1, 0, &e);
  r = ol_run_new(p, ol_method_find("pgd"), par, NULL, &e);
  ok(r == NULL && e.code == OL_EINVAL,
     "pgd: refused on an unconstrained problem (%s)", e.msg);
  ol_run_free(r);
  ol_problem_free(p);
}

/* Registry sweep: every optimizer, default parameters, decreases the
** loss in 200 steps and stops only by budget, on the first of the
** candidate problems it can run on (ol_method_check): a boxed quadratic,
** then built-in problems for methods with special needs (a matrix-shaped
** x, a finite sum).  An optimizer with no suitable candidate fails. */
static void test_sweep (void)
{
  static const char *const extra[] = {"matlsq", "fsquad", "lowrank"};
  ol_problem *cand[4];
  const char *cname[4];
  int nc = 0, i, j;
  ol_err e;
  cand[0] = mkprob("quadratic", 4, 10, 1, &e);
  cname[nc++] = "a boxed quadratic";
  cand[0]->set.kind = OL_SET_BOX;
  cand[0]->set.lo = malloc(sizeof(double) * 4);
  cand[0]->set.hi = malloc(sizeof(double) * 4);
  for (i = 0; i < 4; i++) {
    cand[0]->set.lo[i] = -2;
    cand[0]->set.hi[i] = 2;
  }
  for (j = 0; j < 3; j++)
    if (ol_problem_type_find(extra[j]) != NULL) {
      cand[nc] = mkprob(extra[j], 0, 0, 0, &e);
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
    params(m, par, (char *)NULL);
    r = go(cand[j], m->name, par, 200, 0, OL_MBIT(OL_MET_LOSS));
    ok(r != NULL && ol_run_reason(r) == OL_STOP_BUDGET
       && ol_run_series(r, OL_MET_LOSS) != NULL
       && ol_run_last(r, OL_MET_LOSS) < ol_run_series(r, OL_MET_LOSS)[0],
       "%s: defaults decrease the loss on %s in 200 steps", m->name,
       cname[j]);
    ol_run_free(r);
  }
  for (j = 0; j < nc; j++) ol_problem_free(cand[j]);
}

int main (void)
{
  test_first_iterates();
  test_convergence();
  test_sweep();
  return done();
}
