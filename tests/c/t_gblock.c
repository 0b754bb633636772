/*
** tests/c/t_gblock.c -- the gradient taken a block at a time
** (ol_ctx_grad_apply, problem.h's gsep) by the coordinate-wise optimizers
** gd, momentum, adagrad, rmsprop, adam, adamw and amsgrad.
**
** (1) quadratic's separable oracle against the closed form g_i = lambda_i
**     x_i, lambda_i = cond^(-i/(n-1)), and against its own full oracle;
**     a non-finite block is OL_EDOM with "non-finite gradient".
** (2) Each method on quadratic{rotate = 0} and on rastrigin for n = 5,
**     OL_GBLOCK and 2 OL_GBLOCK + 3 ends at the same iterate, bit for bit,
**     and with the same gradient count, as on the same problem with its
**     separable oracle hidden (the whole-gradient path); when n > OL_GBLOCK
**     the separable oracle was used, block by block in order, covering
**     [0, n) in every step it served (a single block is the whole
**     gradient: fdf).
** (3) With noise the block path is not taken (the noise is added to the
**     whole gradient): identical iterates with the oracle hidden or not.
** (4) A block that fails stops the run with reason non-finite and the
**     oracle's message, after the steps before it were recorded.
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

static const char *const blockers[] = {"gd", "momentum", "adagrad",
                                       "rmsprop", "adam", "adamw",
                                       "amsgrad"};

/* A spy around a problem's separable oracle: counts calls and checks that
** each step's blocks come in order and cover [0, n). */
static struct {
  ol_gsep_fn inner;
  int n, next, bad, fail_call;
  long calls;
} spy;

static int spy_gsep (void *ud, const double *x, int lo, int hi, double *gb,
                     ol_err *e)
{
  spy.calls++;
  if (lo != spy.next || hi <= lo || hi - lo > OL_GBLOCK || hi > spy.n)
    spy.bad++;
  spy.next = hi == spy.n ? 0 : hi;
  if (spy.fail_call > 0 && spy.calls == spy.fail_call)
    return ol_err_set(e, OL_EDOM, "non-finite gradient (spy, block %d)",
                      lo);
  return spy.inner(ud, x, lo, hi, gb, e);
}

static void spy_on (ol_problem *p)
{
  spy.inner = p->gsep;
  spy.n = p->n;
  spy.next = 0;
  spy.bad = 0;
  spy.calls = 0;
  spy.fail_call = 0;
  p->gsep = spy_gsep;
}

/* == (1) the separable oracle ============================================= */

static void test_quad_gsep (void)
{
  const int n = 300;
  const double cond = 1e3;
  ol_problem *p = olt_quadratic(n, cond, 0);
  ol_problem *q = olt_quadratic(50, 10, 1);
  double x[300], g[300], gb[OL_GBLOCK], worst = 0, diff = 0;
  ol_rng r;
  ol_err e;
  int i, lo, hi, rc, allok = 1;
  if (p == NULL || q == NULL) {
    ok(0, "quadratic problems made");
    return;
  }
  ok(p->gsep != NULL, "quadratic{rotate=0} offers a separable oracle");
  ok(q->gsep == NULL, "quadratic{rotate=1} does not (H is dense)");
  ol_rng_seed(&r, 2026, 0);
  diag("seed 2026");
  for (i = 0; i < n; i++) x[i] = 3 * ol_rng_normal(&r);
  p->fdf(p->ud, x, NULL, g, &e);
  for (lo = 0; lo < n; lo = hi) {
    hi = ol_gblock_end(lo, n);
    rc = p->gsep(p->ud, x, lo, hi, gb, &e);
    allok &= rc == OL_OK;
    for (i = lo; i < hi; i++) {
      double want = pow(cond, -(double)i / (n - 1)) * x[i];
      worst = fmax(worst, fabs(gb[i - lo] - want) / fmax(1e-300,
                                                          fabs(want)));
      diff = fmax(diff, fabs(gb[i - lo] - g[i]));
    }
  }
  ok(allok, "gsep returns OL_OK on finite x");
  ok(worst <= 1e-13, "gsep block values = cond^(-i/(n-1)) x_i (max rel err "
     "%.2g <= 1e-13)", worst);
  ok(diff == 0, "gsep blocks equal the full oracle's gradient exactly "
     "(max diff %.2g)", diff);
  lo = 200 - 200 % OL_GBLOCK;      /* the block holding coordinate 200 */
  x[200] = INFINITY;
  rc = p->gsep(p->ud, x, lo, lo + OL_GBLOCK, gb, &e);
  ok(rc == OL_EDOM && strstr(e.msg, "non-finite gradient") != NULL,
     "gsep on a block with x_200 = inf: OL_EDOM, \"%s\"", e.msg);
  x[200] = NAN;
  rc = p->gsep(p->ud, x, lo - OL_GBLOCK, lo, gb, &e);
  ok(rc == OL_OK, "the block before it is still fine");
  ol_problem_free(p);
  ol_problem_free(q);
}

/* == (2) block path = whole-gradient path ================================ */

/* m run for iters steps on p with sparse records (cap 16: after the
** first 16 steps the record stride doubles, so most steps start without
** the run's cached gradient): final x into xf, gradient
** count into *ngev; 0 when the run does not reach the budget. */
static int final_x (const ol_problem *p, const ol_method_type *m,
                    const double *par, long iters, double *xf, long *ngev)
{
  ol_run_opts o = olt_opts(iters, 0, OL_MSET_OF(OL_MET_LOSS));
  ol_run *r;
  int good;
  o.cap = 16;
  o.seed = 11;
  r = olt_go(p, m, par, &o);
  if (r == NULL) return 0;
  good = ol_run_reason(r) == OL_STOP_BUDGET && ol_run_iter(r) == iters;
  if (!good)
    diag("%s stopped: %s %s", m->name, ol_stop_name(ol_run_reason(r)),
         ol_run_message(r));
  memcpy(xf, ol_run_x(r), sizeof(double) * p->n);
  *ngev = ol_run_ngev(r);
  ol_run_free(r);
  return good;
}

/* quadratic{n, cond 100, rotate 0} (kind 0) or rastrigin{n} (kind 1). */
static ol_problem *separable (int kind, int n)
{
  if (kind == 0) return olt_quadratic(n, 100, 0);
  return olt_problem("rastrigin", NULL, "n", (double)n, (char *)NULL);
}

static void test_equivalence (void)
{
  const int ns[] = {5, OL_GBLOCK, 2 * OL_GBLOCK + 3};
  const char *const names[] = {"quadratic", "rastrigin"};
  const long iters = 200;
  size_t k, j;
  int kind;
  for (kind = 0; kind < 2; kind++)
  for (j = 0; j < sizeof ns / sizeof ns[0]; j++) {
    int n = ns[j];
    ol_problem *pb = separable(kind, n), *pw = separable(kind, n);
    double *xb = malloc(sizeof(double) * n), *xw = malloc(sizeof(double) * n);
    if (pb == NULL || pw == NULL || xb == NULL || xw == NULL
        || pb->gsep == NULL) {
      ok(0, "%s n = %d with a separable oracle", names[kind], n);
      return;
    }
    spy_on(pb);
    pw->gsep = NULL;
    for (k = 0; k < sizeof blockers / sizeof blockers[0]; k++) {
      double par[8];
      const ol_method_type *m = olt_method(blockers[k], par, (char *)NULL);
      long gb = -1, gw = -2, calls0 = spy.calls;
      int okb, okw;
      if (m == NULL) continue;
      okb = final_x(pb, m, par, iters, xb, &gb);
      okw = final_x(pw, m, par, iters, xw, &gw);
      ok(okb && okw && memcmp(xb, xw, sizeof(double) * n) == 0,
         "%s on %s n=%d: %ld steps by blocks end at the whole-gradient "
         "iterate, bit for bit", blockers[k], names[kind], n, iters);
      is_int(gb, gw, "%s on %s n=%d: same gradient count (%ld)",
             blockers[k], names[kind], n, gw);
      if (n > OL_GBLOCK)
        ok(spy.calls - calls0 >= (iters / 2) * ((n + OL_GBLOCK - 1)
                                                / OL_GBLOCK),
           "%s on %s n=%d: the separable oracle served most steps (%ld "
           "block calls)", blockers[k], names[kind], n, spy.calls - calls0);
      else
        is_int(spy.calls - calls0, 0, "%s on %s n=%d: one block is the "
               "whole gradient, taken by the full oracle", blockers[k],
               names[kind], n);
    }
    is_int(spy.bad, 0, "%s n=%d: every step's blocks came in order and "
           "covered [0, n)", names[kind], n);
    free(xb);
    free(xw);
    ol_problem_free(pb);
    ol_problem_free(pw);
  }
}

/* == (3) noise bypasses the blocks ====================================== */

static void test_noise (void)
{
  const int n = 300;
  ol_pval v[8];
  const ol_problem_type *t = ol_problem_type_find("quadratic");
  ol_problem *pb, *pw;
  double xb[300], xw[300], par[8];
  long gb, gw;
  ol_err e;
  int k;
  memset(v, 0, sizeof v);
  for (k = 0; k < t->nparams; k++) v[k].num = t->params[k].def;
  v[ol_param_find(t->params, t->nparams, "n")].num = n;
  v[ol_param_find(t->params, t->nparams, "rotate")].num = 0;
  pb = ol_problem_new(t, v, &e);
  pw = ol_problem_new(t, v, &e);
  if (pb == NULL || pw == NULL) {
    ok(0, "quadratic for the noise test: %s", e.msg);
    return;
  }
  pb->noise.kind = pw->noise.kind = OL_NOISE_GAUSS;
  pb->noise.sigma = pw->noise.sigma = 0.1;
  spy_on(pb);
  pw->gsep = NULL;
  olt_method("adam", par, (char *)NULL);
  ok(final_x(pb, ol_method_find("adam"), par, 100, xb, &gb)
     && final_x(pw, ol_method_find("adam"), par, 100, xw, &gw)
     && memcmp(xb, xw, sizeof xb) == 0 && gb == gw,
     "adam with gaussian noise (seed 11): same iterates with the separable "
     "oracle offered or hidden");
  is_int(spy.calls, 0, "with noise the separable oracle is not called");
  ol_problem_free(pb);
  ol_problem_free(pw);
}

/* == (4) a failing block ================================================= */

static void test_failure (void)
{
  const int n = 2 * OL_GBLOCK + 3;
  ol_problem *p = olt_quadratic(n, 10, 0);
  ol_run_opts o = olt_opts(50, 0, OL_MSET_OF(OL_MET_LOSS));
  ol_run *r;
  double par[8];
  if (p == NULL) {
    ok(0, "quadratic for the failure test");
    return;
  }
  spy_on(p);
  /* three blocks a step (also right after a record, whose cached gradient
  ** the blocks recompute): the 5th call is step 2's second block */
  o.cap = 16;
  o.iters = 200;
  spy.fail_call = 5;
  olt_method("adam", par, (char *)NULL);
  r = olt_go(p, ol_method_find("adam"), par, &o);
  if (r == NULL) {
    ok(0, "adam run for the failure test");
    ol_problem_free(p);
    return;
  }
  is_str(ol_stop_name(ol_run_reason(r)), "non-finite",
         "a failing block stops the run as non-finite");
  {
    char want[64];
    snprintf(want, sizeof want, "non-finite gradient (spy, block %d)",
             OL_GBLOCK);
    ok(strstr(ol_run_message(r), want) != NULL,
       "with the oracle's message (\"%s\")", ol_run_message(r));
  }
  ok(ol_run_len(r) >= 2 && ol_run_iter(r) < 200,
     "stopped at step %ld; the steps before it stay recorded (%d points)",
     ol_run_iter(r), ol_run_len(r));
  ol_run_free(r);
  ol_problem_free(p);
}

int main (void)
{
  test_quad_gsep();
  test_equivalence();
  test_noise();
  test_failure();
  return done();
}
