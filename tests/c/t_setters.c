/*
** tests/c/t_setters.c -- a problem completed through the core's checked
** setters (problem.h), then frozen by its first run.
**
** Each setter is given a good value (stored, copied from the caller's
** buffer) and each kind of bad one (the exact message the binding shows
** after its "problem.<type>: " prefix, and the problem left unchanged);
** anisotropic noise is factored again when x0 moves; the first ol_run_new
** freezes the problem and every setter then refuses, while a run that
** fails to be made leaves it open.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "problem.h"
#include "run.h"
#include "tap.h"

/* f = 0.5 ||x||^2, g = x, n = 3 */
static int half (void *ud, const double *x, double *f, double *g, ol_err *e)
{
  int i;
  double s = 0;
  (void)ud;
  (void)e;
  for (i = 0; i < 3; i++) {
    s += 0.5 * x[i] * x[i];
    if (g != NULL) g[i] = x[i];
  }
  if (f != NULL) *f = s;
  return OL_OK;
}

/* rc is OL_EINVAL (or want_code) and e's message is want. */
static void refused (int rc, int want_code, const ol_err *e, const char *want,
                     const char *what)
{
  ok(rc == want_code, "%s: refused with code %d (got %d)", what, want_code,
     rc);
  is_str(e->msg, want, "%s: message", what);
}

int main (void)
{
  ol_err e;
  ol_problem *p, *q;
  ol_run *r;
  ol_run_opts o;
  ol_noise nz;
  ol_set s;
  double x[3] = {1, 2, 3}, lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
  double bad[3] = {1, NAN, 3};
  int rc;

  p = ol_problem_custom(3, half, 0, NULL, NULL, &e);
  ok(p != NULL && p->frozen == 0, "custom: made, not frozen");

  /* == x0 ================================================================ */
  rc = ol_problem_set_x0(p, x, 3, &e);
  x[0] = 9;   /* copied, not kept */
  ok(rc == OL_OK && p->x0[0] == 1 && p->x0[2] == 3, "set_x0: copied");
  refused(ol_problem_set_x0(p, x, 2, &e), OL_EINVAL, &e,
          "x0 has 2 entries, expected n = 3", "set_x0 wrong n");
  refused(ol_problem_set_x0(p, bad, 3, &e), OL_EINVAL, &e,
          "x0[2] = nan is not finite", "set_x0 nan");
  ok(p->x0[0] == 1 && p->x0[1] == 2, "set_x0: a refused x0 changes nothing");

  /* == l1 ================================================================ */
  ok(ol_problem_set_l1(p, 0.5, &e) == OL_OK && p->l1 == 0.5, "set_l1: 0.5");
  refused(ol_problem_set_l1(p, -1, &e), OL_EINVAL, &e,
          "l1 = -1 is out of range [0, inf)", "set_l1 -1");
  refused(ol_problem_set_l1(p, INFINITY, &e), OL_EINVAL, &e,
          "l1 = inf is out of range [0, inf)", "set_l1 inf");
  refused(ol_problem_set_l1(p, NAN, &e), OL_EINVAL, &e,
          "l1 = nan is out of range [0, inf)", "set_l1 nan");
  ok(p->l1 == 0.5, "set_l1: a refused weight changes nothing");
  ol_problem_set_l1(p, 0, &e);

  /* == noise ============================================================= */
  memset(&nz, 0, sizeof nz);
  nz.kind = OL_NOISE_GAUSS;
  nz.sigma = 0.1;
  nz.nu = 3;
  nz.batch = 1;
  ok(ol_problem_set_noise(p, &nz, &e) == OL_OK &&
     p->noise.kind == OL_NOISE_GAUSS && p->noise.sigma == 0.1,
     "set_noise: gauss sigma 0.1");
  nz.sigma = -1;
  refused(ol_problem_set_noise(p, &nz, &e), OL_EINVAL, &e,
          "noise.sigma = -1 is out of range [0, inf)", "set_noise sigma");
  nz.sigma = 1;
  nz.kind = OL_NOISE_STUDENT;
  nz.nu = 0;
  refused(ol_problem_set_noise(p, &nz, &e), OL_EINVAL, &e,
          "noise.nu = 0 is out of range (0, inf)", "set_noise nu");
  nz.nu = 3;
  nz.batch = 0;
  refused(ol_problem_set_noise(p, &nz, &e), OL_EINVAL, &e,
          "noise.batch = 0 is out of range [1, inf]", "set_noise batch");
  nz.batch = 1;
  nz.kind = OL_NOISE_BATCH;
  refused(ol_problem_set_noise(p, &nz, &e), OL_EINVAL, &e,
          "noise kind \"batch\" needs a finite-sum problem (custom has no "
          "components)", "set_noise batch kind");
  nz.kind = OL_NOISE_ANISO;
  refused(ol_problem_set_noise(p, &nz, &e), OL_EINVAL, &e,
          "noise kind \"aniso\": custom: anisotropic noise needs a Hessian; "
          "custom has none", "set_noise aniso without a Hessian");
  nz.kind = 42;
  refused(ol_problem_set_noise(p, &nz, &e), OL_EINVAL, &e,
          "unknown noise kind 42", "set_noise kind");
  ok(p->noise.kind == OL_NOISE_GAUSS && p->noise.sigma == 0.1,
     "set_noise: refused models leave gauss sigma 0.1");

  /* == set =============================================================== */
  memset(&s, 0, sizeof s);
  s.kind = OL_SET_BOX;
  s.lo = lo;
  s.hi = hi;
  rc = ol_problem_set_set(p, &s, &e);
  hi[0] = 5;
  ok(rc == OL_OK && p->set.kind == OL_SET_BOX && p->set.hi[0] == 1 &&
     p->set.lo != lo, "set_set: a box, copied");
  lo[1] = 2;
  refused(ol_problem_set_set(p, &s, &e), OL_EINVAL, &e,
          "set: lo[2] = 2 > hi[2] = 1", "set_set lo > hi");
  s.kind = OL_SET_SIMPLEX;
  s.nblocks = 2;
  s.blocks[0] = 1;
  s.blocks[1] = 1;
  refused(ol_problem_set_set(p, &s, &e), OL_EINVAL, &e,
          "set: simplex blocks sum to 2, not n = 3", "set_set blocks");
  ok(p->set.kind == OL_SET_BOX && p->set.hi[0] == 1,
     "set_set: refused sets leave the box");
  s.nblocks = 1;
  s.blocks[0] = 3;
  ok(ol_problem_set_set(p, &s, &e) == OL_OK &&
     p->set.kind == OL_SET_SIMPLEX && p->set.lo == NULL,
     "set_set: a simplex replaces the box");
  s.kind = OL_SET_NONE;
  ok(ol_problem_set_set(p, &s, &e) == OL_OK && p->set.kind == OL_SET_NONE,
     "set_set: none removes it");

  /* == kind, name, known optimum ========================================= */
  refused(ol_problem_set_kind(p, OL_GAME, &e), OL_EINVAL, &e,
          "kind 2: a problem made from an oracle is an objective or a "
          "density", "set_kind game");
  ok(ol_problem_set_name(p, "bowl", &e) == OL_OK &&
     strcmp(p->name, "bowl") == 0 && strcmp(p->desc, "bowl{n=3}") == 0,
     "set_name: name and desc");
  refused(ol_problem_set_xstar(p, bad, 3, &e), OL_EINVAL, &e,
          "xstar[2] = nan is not finite", "set_xstar nan");
  x[0] = 0;
  x[1] = 0;
  x[2] = 0;
  ok(ol_problem_set_xstar(p, x, 3, &e) == OL_OK && p->xstar != NULL &&
     ol_problem_set_fstar(p, 0, &e) == OL_OK && p->fstar == 0,
     "set_xstar, set_fstar: the known optimum");

  /* == freezing ========================================================== */
  ol_run_opts_default(&o);
  o.iters = 5;
  o.cap = 1;   /* out of range: the run is refused */
  r = ol_run_new(p, ol_method_find("gd"), NULL, &o, &e);
  ok(r == NULL && p->frozen == 0, "freeze: a refused run leaves the problem "
     "open");
  o.cap = 4096;
  r = ol_run_new(p, ol_method_find("gd"), NULL, &o, &e);
  ok(r != NULL && p->frozen == 1, "freeze: the first run freezes it");
  refused(ol_problem_set_l1(p, 1, &e), OL_EINVAL, &e,
          "bowl is in use by a run: its x0, noise, set and l1 are fixed",
          "frozen set_l1");
  x[0] = 1;
  refused(ol_problem_set_x0(p, x, 3, &e), OL_EINVAL, &e,
          "bowl is in use by a run: its x0, noise, set and l1 are fixed",
          "frozen set_x0");
  nz.kind = OL_NOISE_GAUSS;
  refused(ol_problem_set_noise(p, &nz, &e), OL_EINVAL, &e,
          "bowl is in use by a run: its x0, noise, set and l1 are fixed",
          "frozen set_noise");
  ok(p->x0[0] == 1 && p->l1 == 0, "frozen: nothing changed");
  ol_run_free(r);
  ol_problem_free(p);

  /* == aniso noise follows x0 (the quadratic has a Hessian) ============== */
  {
    const ol_problem_type *t = ol_problem_type_find("rosenbrock");
    ol_pval v[8];
    double x1[2] = {1, 1}, x2[2] = {0, 1}, c0;
    int i;
    memset(v, 0, sizeof v);
    for (i = 0; i < t->nparams; i++) v[i].num = t->params[i].def;
    q = ol_problem_new(t, v, &e);
    ok(q != NULL, "rosenbrock: made");
    ol_problem_set_x0(q, x1, 2, &e);
    memset(&nz, 0, sizeof nz);
    nz.kind = OL_NOISE_ANISO;
    nz.sigma = 1;
    nz.nu = 3;
    nz.batch = 1;
    ok(ol_problem_set_noise(q, &nz, &e) == OL_OK && q->noise.chol != NULL,
       "set_noise aniso: Hessian at x0 = (1, 1) factored");
    /* H(1, 1) = [[802, -400], [-400, 200]]: L11 = sqrt(802) */
    c0 = q->noise.chol[0];
    is_near(c0, sqrt(802.0), 1e-12, "aniso: L11 = sqrt(802) at (1, 1)");
    /* H(0, 1) = [[-398, 0], [0, 200]] is indefinite: refused, kept */
    rc = ol_problem_set_x0(q, x2, 2, &e);
    ok(rc == OL_ENUMERIC && q->x0[0] == 1 && q->noise.chol[0] == c0,
       "set_x0 with aniso noise: an x0 where H is not positive definite "
       "is refused, x0 and the factor kept (%s)", e.msg);
    x2[0] = 2;
    x2[1] = 4;
    /* H(2, 4) = [[1200*4 - 400*4 + 2, -800], [-800, 200]] */
    ok(ol_problem_set_x0(q, x2, 2, &e) == OL_OK, "set_x0 (2, 4) with aniso");
    is_near(q->noise.chol[0], sqrt(1200.0 * 4 - 400.0 * 4 + 2), 1e-9,
            "aniso: refactored at the new x0");
    ol_problem_free(q);
  }
  return done();
}
