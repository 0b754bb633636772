/*
** tests/c/t_prox.c -- composite problems F = f + l1 ||x||_1: the proximal
** map ol_ctx_prox, the composite loss, kkt and subopt, and the tolerance
** stop on the prox-gradient measure.
**
** Truth: soft thresholding by hand; the LASSO solution of a diagonal
** quadratic in closed form, x_i = S_{l1/d_i}(b_i) (separable problem),
** with f(x) = 0.5 sum_i d_i (x_i - b_i)^2, d = (1, 2, 4), b = (3, -0.25, 1),
** l1 = 1: x* = (2, 0, 0.75) and F* = 0.5 + 0.0625 + 0.125 + 2.75 = 3.4375
** (every number exact in binary).
*/
#include "olt.h"
#include "run.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double D[3] = {1, 2, 4}, B[3] = {3, -0.25, 1};

static int diagq (void *ud, const double *x, double *f, double *g,
                  ol_err *e)
{
  int i, n = *(const int *)ud;
  double s = 0;
  (void)e;
  for (i = 0; i < n; i++) {
    s += 0.5 * D[i] * (x[i] - B[i]) * (x[i] - B[i]);
    if (g != NULL) g[i] = D[i] * (x[i] - B[i]);
  }
  if (f != NULL) *f = s;
  return OL_OK;
}

/* ISTA with step 1/4 (L = max d_i = 4): x <- prox(x - g / 4, 1 / 4). */
static int ista_step (void *st, ol_ctx *c, ol_err *e)
{
  double g[3];
  int i, rc;
  (void)st;
  rc = ol_ctx_grad(c, c->x, NULL, g, e);
  if (rc != OL_OK) return rc;
  for (i = 0; i < c->n; i++) c->x[i] -= 0.25 * g[i];
  ol_ctx_prox(c, c->x, 0.25);
  return OL_OK;
}

static const ol_method_type ista = {
  .name = "ista",
  .family = OL_OPTIM,
  .doc = "proximal gradient, step 1/4 (test)",
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = olt_nop_init,
  .step = ista_step,
  .probes = OL_MSET_NONE,
};

#define B_(m) OL_MET_##m

static ol_run *at (ol_problem *p, const ol_method_type *m, double *x0,
                   ol_mset metrics, ol_err *e)
{
  ol_run_opts o;
  ol_run_opts_default(&o);
  o.x0 = x0;
  o.metrics = metrics;
  o.iters = 10;
  return ol_run_new(p, m, NULL, &o, e);
}

int main (void)
{
  static int n3 = 3, n1 = 1;
  ol_err e;
  ol_problem *p;
  ol_run *r;
  ol_ctx c;

  /* == soft thresholding ================================================== */
  p = ol_problem_custom(3, diagq, 0, &n3, NULL, &e);
  p->l1 = 2;
  memset(&c, 0, sizeof c);
  c.p = p;
  c.n = 3;
  {
    double x[3] = {3, -0.5, -2};
    /* t = step l1 = 1: (3 - 1, 0, -2 + 1) */
    ol_ctx_prox(&c, x, 0.5);
    ok(x[0] == 2 && x[1] == 0 && x[2] == -1,
       "prox: soft threshold sign(x) max(|x| - step l1, 0) = (2, 0, -1)");
    p->l1 = 0;
    ol_ctx_prox(&c, x, 0.5);
    ok(x[0] == 2 && x[1] == 0 && x[2] == -1, "prox: l1 = 0 is the identity "
       "without a set");
    p->l1 = 2;
    p->set.kind = OL_SET_BOX;
    p->set.lo = malloc(3 * sizeof(double));
    p->set.hi = malloc(3 * sizeof(double));
    p->set.lo[0] = p->set.lo[1] = p->set.lo[2] = -0.5;
    p->set.hi[0] = p->set.hi[1] = p->set.hi[2] = 1.5;
    x[0] = 4;
    x[1] = 0.25;
    x[2] = -3;
    /* threshold 1: (3, 0, -2), then the box [-0.5, 1.5]: (1.5, 0, -0.5) */
    ol_ctx_prox(&c, x, 0.5);
    ok(x[0] == 1.5 && x[1] == 0 && x[2] == -0.5,
       "prox: threshold then project on the box");
  }
  ol_problem_free(p);

  /* == composite metrics at the LASSO solution ============================ */
  p = ol_problem_custom(3, diagq, 0, &n3, NULL, &e);
  p->l1 = 1;
  p->fstar = 3.4375;
  p->xstar = malloc(3 * sizeof(double));
  p->xstar[0] = 2;
  p->xstar[1] = 0;
  p->xstar[2] = 0.75;
  ok(ol_mset_eq(ol_mset_and(ol_metric_defaults(p, OL_OPTIM),
                            OL_MSET_OF(B_(KKT), B_(SUPPORT))),
                OL_MSET_OF(B_(KKT), B_(SUPPORT))),
     "composite: kkt and support join the optimizer defaults when l1 > 0");
  r = at(p, &olt_nop, p->xstar, OL_MSET_OF(B_(LOSS), B_(KKT), B_(SUBOPT),
                                       B_(GRADNORM)),
         &e);
  ok(r != NULL, "composite: a run at x*");
  is_near(ol_run_last(r, OL_MET_LOSS), 3.4375, 1e-15,
          "composite: loss is f + l1 ||x||_1 = 3.4375 at x*");
  is_near(ol_run_last(r, OL_MET_KKT), 0, 1e-15,
          "composite: kkt ||x - prox(x - g)|| is 0 at the LASSO solution");
  is_near(ol_run_last(r, OL_MET_SUBOPT), 0, 1e-15,
          "composite: subopt uses the composite loss (0 at x*)");
  is_near(ol_run_last(r, OL_MET_GRADNORM), 1.5, 1e-15,
          "composite: gradnorm stays ||grad f|| = ||(-1, 0.5, -1)|| = 1.5");
  ol_run_free(r);
  {
    /* x = 0: g = (-3, 0.5, -4), prox_1(x - g) = (2, 0, 3): kkt sqrt(13);
    ** F(0) = 4.5 + 0.0625 + 2 = 6.5625 */
    double x0[3] = {0, 0, 0};
    r = at(p, &olt_nop, x0, OL_MSET_OF(B_(LOSS), B_(KKT), B_(SUBOPT)), &e);
    is_near(ol_run_last(r, OL_MET_KKT), sqrt(13), 1e-15,
            "composite: kkt at 0 is ||(2, 0, 3)|| = sqrt(13)");
    is_near(ol_run_last(r, OL_MET_LOSS), 6.5625, 1e-15,
            "composite: loss at 0 is f(0) = 6.5625");
    is_near(ol_run_last(r, OL_MET_SUBOPT), 6.5625 - 3.4375, 1e-15,
            "composite: subopt at 0 is F(0) - F* = 3.125");
    ol_run_free(r);
  }

  /* == the tolerance stop uses the prox-gradient measure ================== */
  {
    ol_run_opts o;
    double x0[3] = {-1, 1, -1};
    ol_run_opts_default(&o);
    o.x0 = x0;
    o.iters = 10000;
    o.tol = 1e-12;
    o.metrics = OL_MSET_OF(B_(LOSS), B_(KKT), B_(DIST));
    r = ol_run_new(p, &ista, NULL, &o, &e);
    ol_run_advance(r, 10000);
    is_int(ol_run_reason(r), OL_STOP_TOL,
           "composite: ISTA stops by tolerance on kkt (gradnorm is 1.5 "
           "there)");
    ok(ol_run_last(r, OL_MET_DIST) < 1e-11,
       "composite: ISTA reaches the closed-form LASSO solution (1e-11)");
    diag("ista: %ld iterations", ol_run_iter(r));
    ol_run_free(r);
  }
  ol_problem_free(p);

  /* == composite with a box: project after the prox ======================= */
  /* f = 0.5 (x - 3)^2, l1 = 1, x in [0, 1]: solution x = 1.  At x = 0.5:
  ** g = -2.5, prox(3) = 2, P = 1, kkt = 0.5; at 1: g = -2, prox(3) = 2, P =
  ** 1, kkt = 0. */
  p = ol_problem_custom(1, diagq, 0, &n1, NULL, &e);
  {
    double lo = 0, hi = 1;
    ol_set box;
    memset(&box, 0, sizeof box);
    box.kind = OL_SET_BOX;
    box.lo = &lo;
    box.hi = &hi;
    ok(ol_problem_set_l1(p, -1, &e) == OL_EINVAL &&
       strcmp(e.msg, "l1 = -1 is out of range [0, inf)") == 0,
       "composite: a negative l1 is EINVAL, checked by the setter (%s)",
       e.msg);
    ok(ol_problem_set_l1(p, 1, &e) == OL_OK &&
       ol_problem_set_set(p, &box, &e) == OL_OK, "composite: l1 = 1 on the "
       "box [0, 1], through the setters");
  }
  {
    double x0 = 0.5;
    r = at(p, &olt_nop, &x0, OL_MSET_OF(B_(KKT), B_(LOSS)), &e);
    is_near(ol_run_last(r, OL_MET_KKT), 0.5, 1e-15,
            "composite: on a box, kkt projects after the prox (0.5)");
    is_near(ol_run_last(r, OL_MET_LOSS), 0.5 * 2.5 * 2.5 + 0.5, 1e-15,
            "composite: loss on a box is f + l1 |x|");
    ol_run_free(r);
    x0 = 1;
    r = at(p, &olt_nop, &x0, OL_MSET_OF(B_(KKT)), &e);
    is_near(ol_run_last(r, OL_MET_KKT), 0, 0,
            "composite: kkt is 0 at the constrained LASSO solution 1");
    ol_run_free(r);
  }
  ok(ol_problem_set_l1(p, 2, &e) == OL_EINVAL && p->l1 == 1,
     "composite: the problem is fixed once a run used it (%s)", e.msg);
  ol_problem_free(p);
  return done();
}
