/*
** tests/c/t_run.c -- the run engine: stepping, stop rules, recording and
** decimation, the gradient cache, noise, averaging, schedules, errors.
**
** Methods and problems are defined here (plain and projected gradient
** descent, a scripted game dynamic; separable quadratics), so the engine
** is tested without the registry.  Truth: gradient descent on
** f = 1/2 sum a_i x_i^2 has the closed form x_t,i = (1 - lr a_i)^t x_0,i.
*/
#include "run.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SEED 31337u

/* -- problems ------------------------------------------------------------ */

#define QMAX 1024

typedef struct quad {
  int n;
  double a[QMAX];     /* curvatures, n <= QMAX */
  long calls;         /* gradient evaluations made */
  int fail_at_x;      /* 1: fail when x_1 < fail_below */
  double fail_below;
  int fail_code;
  int spin;           /* busy work per call (slow oracle) */
} quad;

static int quad_fdf (void *ud, const double *x, double *f, double *g,
                     ol_err *e)
{
  quad *q = ud;
  int i;
  if (q->fail_at_x && x[0] < q->fail_below)
    return ol_err_set(e, q->fail_code, "oracle refused x_1 = %g", x[0]);
  if (q->spin) {
    volatile double s = 0;
    for (i = 0; i < q->spin; i++) s += i;
  }
  if (f != NULL) {
    double s = 0;
    for (i = 0; i < q->n; i++) s += 0.5 * q->a[i] * x[i] * x[i];
    *f = s;
  }
  if (g != NULL) {
    q->calls++;
    for (i = 0; i < q->n; i++) g[i] = q->a[i] * x[i];
  }
  return OL_OK;
}

static ol_problem *quadratic (quad *q, int n, const double *a)
{
  ol_err e;
  int i;
  memset(q, 0, sizeof *q);
  if (n > QMAX) {
    diag("quadratic: n = %d > %d", n, QMAX);
    return NULL;
  }
  q->n = n;
  for (i = 0; i < n; i++) q->a[i] = a != NULL ? a[i] : 1;
  return ol_problem_custom(n, quad_fdf, 0, q, NULL, &e);
}

/* -- methods ------------------------------------------------------------- */

typedef struct gd {
  double lr;
  double *g;
} gd;

static const ol_param gd_params[] = {
  {"lr", OL_P_REAL, 0.1, 0, INFINITY, "step size", NULL}
};

static int fini_calls;

static int gd_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  gd *s = st;
  s->lr = par[0];
  s->g = malloc((size_t)c->n * sizeof *s->g);
  if (s->g == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  if (s->lr == 42) return ol_err_set(e, OL_EINVAL, "lr 42 refused by init");
  return OL_OK;
}

/* x <- x - lr sched g; then project (a no-op without a set). */
static int gd_step (void *st, ol_ctx *c, ol_err *e)
{
  gd *s = st;
  int i, rc = ol_ctx_grad(c, c->x, NULL, s->g, e);
  if (rc != OL_OK) return rc;
  if (s->lr == 7) return ol_err_set(e, OL_ENUMERIC, "line search failed");
  for (i = 0; i < c->n; i++) c->x[i] -= s->lr * c->sched * s->g[i];
  ol_ctx_project(c, c->x);
  return OL_OK;
}

static void gd_fini (void *st)
{
  gd *s = st;
  fini_calls++;
  free(s->g);
  s->g = NULL;
}

static const ol_method_type test_gd = {
  .name = "testgd",
  .family = OL_OPTIM,
  .doc = "plain gradient descent",
  .params = gd_params,
  .nparams = 1,
  .size = sizeof(gd),
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = gd_init,
  .step = gd_step,
  .fini = gd_fini,
  .probes = OL_MSET_NONE,
};

static const ol_method_type test_pgd = {
  .name = "testpgd",
  .family = OL_OPTIM,
  .doc = "projected gradient descent",
  .params = gd_params,
  .nparams = 1,
  .size = sizeof(gd),
  .flags = OL_M_NEEDSET,
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = gd_init,
  .step = gd_step,
  .fini = gd_fini,
  .probes = OL_MSET_NONE,
};

static const ol_method_type test_newton = {
  .name = "testnewton",
  .family = OL_OPTIM,
  .doc = "needs a Hessian",
  .params = gd_params,
  .nparams = 1,
  .size = sizeof(gd),
  .flags = OL_M_NEEDHESS,
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = gd_init,
  .step = gd_step,
  .fini = gd_fini,
  .probes = OL_MSET_NONE,
};

/* A scripted dynamic: x_t = e_(t mod 2) in two coordinates. */
static int cycle_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  (void)st;
  (void)par;
  (void)c;
  (void)e;
  return OL_OK;
}

static int cycle_step (void *st, ol_ctx *c, ol_err *e)
{
  (void)st;
  (void)e;
  c->x[0] = (double)((c->t + 1) % 2);
  c->x[1] = 1 - c->x[0];
  return OL_OK;
}

static void cycle_fini (void *st)
{
  (void)st;
}

static const ol_method_type test_cycle = {
  .name = "testcycle",
  .family = OL_DYNAMIC,
  .doc = "scripted",
  .size = 1,
  .kinds = OL_KIND(OL_GAME),
  .init = cycle_init,
  .step = cycle_step,
  .fini = cycle_fini,
  .probes = OL_MSET_NONE,
};

static const ol_method_type test_cycle_own = {
  .name = "testcycleown",
  .family = OL_DYNAMIC,
  .doc = "scripted",
  .size = 1,
  .flags = OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME),
  .init = cycle_init,
  .step = cycle_step,
  .fini = cycle_fini,
  .probes = OL_MSET_NONE,
};

/* -- helpers ------------------------------------------------------------- */

static ol_run *gd_run (ol_problem *p, const ol_method_type *m, double lr,
                       ol_run_opts *o)
{
  ol_err e;
  ol_run *r = ol_run_new(p, m, &lr, o, &e);
  if (r == NULL) diag("ol_run_new: %s", e.msg);
  return r;
}

/* 1 when every recorded time t has series value want(t) to rtol. */
static int series_is_closed_form (const ol_run *r, int metric, double x0,
                                  double lr, double rtol)
{
  const long *t = ol_run_times(r);
  const double *v = ol_run_series(r, metric);
  int i;
  for (i = 0; i < ol_run_len(r); i++) {
    double x = x0 * pow(1 - lr, (double)t[i]);
    double want = metric == OL_MET_LOSS ? 0.5 * x * x : fabs(x);
    if (!(fabs(v[i] - want) <= rtol * fabs(want) + 1e-300)) return 0;
  }
  return 1;
}

static int times_are (const ol_run *r, const long *want, int n)
{
  int i;
  if (ol_run_len(r) != n) return 0;
  for (i = 0; i < n; i++)
    if (ol_run_times(r)[i] != want[i]) return 0;
  return 1;
}

int main (void)
{
  static const double a3[3] = {1, 2, 0.5};
  ol_run_opts o;
  ol_problem *p;
  ol_run *r;
  ol_err e;
  quad q;
  double x0[16], lr;
  long want[32];
  int i, k, okx;

  /* (1) defaults */
  ol_run_opts_default(&o);
  ok(o.iters == 1000 && o.tol == 0 && o.time_limit == 0 && o.seed == 1 &&
     o.stream == 0 && o.x0 == NULL && ol_mset_empty(o.metrics) &&
     o.cap == 4096 && o.record_x == 0 && o.sched.kind == OL_SCHED_CONST &&
     o.sched.gamma == 0.1 && o.sched.period == 1000,
     "run: default options are iters 1000, seed 1, cap 4096, const sched");

  /* (2) closed form, budget, full recording */
  p = quadratic(&q, 3, a3);
  x0[0] = 1; x0[1] = -2; x0[2] = 3;
  o.iters = 10;
  o.x0 = x0;
  r = gd_run(p, &test_gd, 0.1, &o);
  ok(r != NULL && ol_run_reason(r) == OL_STOP_NONE && ol_run_len(r) == 1,
     "run: a new run records t = 0 and is running");
  is_int(ol_run_advance(r, 100), 10, "run: advance stops at the budget");
  is_int(ol_run_reason(r), OL_STOP_BUDGET, "run: stops by budget at iters");
  is_int(ol_run_iter(r), 10, "run: iter counts the steps done");
  for (i = 0, okx = 1; i < 3; i++)
    if (fabs(ol_run_x(r)[i] - x0[i] * pow(1 - 0.1 * a3[i], 10)) >
        1e-14 * fabs(x0[i]))
      okx = 0;
  ok(okx, "run: gd iterates follow x_t = (1 - lr a)^t x_0");
  is_int(ol_run_len(r), 11, "run: records every step while under cap");
  ok(ol_mset_eq(ol_run_metrics(r), OL_MSET_OF(OL_MET_LOSS, OL_MET_GRADNORM,
                                              OL_MET_MINGRADNORM)),
     "run: default metrics of an unconstrained objective are loss, "
     "gradnorm, mingradnorm");
  is_int(q.calls, 11, "run: the method's gradients at recorded points come "
         "from the cache (11 oracle calls for 10 steps)");
  is_int(ol_run_ngev(r), 10, "run: ngev counts the method's gradients "
         "(10, one a step)");
  is_int(ol_run_mgev(r), 1, "run: mgev counts the run's own evaluation "
         "that no step used (the final point)");
  is_int(ol_run_ngev(r) + ol_run_mgev(r), q.calls, "run: ngev + mgev is the "
         "oracle's own count");
  ok(ol_run_series(r, OL_MET_DIST) == NULL &&
     isnan(ol_run_last(r, OL_MET_DIST)),
     "run: an unrecorded metric has no series and last = NaN");
  ok(ol_run_step(r) == OL_STOP_BUDGET && ol_run_iter(r) == 10 &&
     ol_run_advance(r, 5) == 0, "run: a stopped run does not step");
  ok(ol_run_options(r)->x0 != x0 && ol_run_options(r)->x0[1] == -2,
     "run: options keep a copy of x0");
  ol_run_free(r);
  is_int(fini_calls, 1, "run: free calls the method's fini once");
  ol_problem_free(p);

  /* (3) tolerance, 1-d: gradnorm_t = 0.9^t, first <= 0.5 at t = 7 */
  p = quadratic(&q, 1, NULL);
  ol_run_opts_default(&o);
  o.tol = 0.5;
  o.cap = 16;
  x0[0] = 1;
  o.x0 = x0;
  r = gd_run(p, &test_gd, 0.1, &o);
  ol_run_advance(r, 1000);
  ok(ol_run_reason(r) == OL_STOP_TOL && ol_run_iter(r) == 7,
     "run: stops by tolerance the first time gradnorm <= tol (t = 7)");
  is_int(q.calls, 8, "run: with a tolerance the method reuses the run's "
         "gradient (8 oracle calls for 7 steps)");
  is_close(ol_run_last(r, OL_MET_GRADNORM), pow(0.9, 7), 1e-14,
           "run: the final point is recorded at the stop");
  ok(series_is_closed_form(r, OL_MET_LOSS, 1, 0.1, 1e-13),
     "run: the loss series equals the closed form");
  ol_run_free(r);

  /* (4) history: cap 16 (L = 2 log points an octave, dense below 4; U = 8
  ** uniform points), 100 steps -> the log points 0 1 2 3 4 6 8 12 16 24 32
  ** 48 64 96, the multiples of stride 16, and the off-grid final 100 */
  ol_run_opts_default(&o);
  o.iters = 100;
  o.cap = 16;
  o.x0 = x0;
  q.calls = 0;
  r = gd_run(p, &test_gd, 0.01, &o);
  ol_run_advance(r, 1000);
  {
    static const long w4[] = {0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64,
                              80, 96, 100};
    for (k = 0; k < 16; k++) want[k] = w4[k];
  }
  ok(times_are(r, want, 16), "run: the history keeps the dense start, the "
     "log points, the stride-16 grid and the off-grid final 100 (len %d)",
     ol_run_len(r));
  ok(series_is_closed_form(r, OL_MET_LOSS, 1, 0.01, 1e-13) &&
     series_is_closed_form(r, OL_MET_GRADNORM, 1, 0.01, 1e-13),
     "run: decimated series hold the values at their times");
  is_close(ol_run_last(r, OL_MET_LOSS), 0.5 * pow(0.99, 200), 1e-13,
           "run: last is the value at the last recorded time");
  is_int(ol_run_ngev(r) + ol_run_mgev(r), q.calls,
         "run: ngev + mgev equals the oracle's own count");
  ok(ol_run_extend(r, 120, &e) == OL_OK && ol_run_reason(r) == OL_STOP_NONE,
     "run: extend resumes a run stopped by its budget");
  ol_run_advance(r, 1000);
  {
    static const long w5[] = {0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64,
                              80, 96, 112, 120};
    for (k = 0; k < 17; k++) want[k] = w5[k];
  }
  ok(ol_run_reason(r) == OL_STOP_BUDGET && times_are(r, want, 17),
     "run: after extend the off-grid tail 100 is replaced by the kept "
     "points, and 120 is the new tail");
  ok(series_is_closed_form(r, OL_MET_LOSS, 1, 0.01, 1e-13),
     "run: values stay aligned with their times after extend");
  ok(ol_run_extend(r, 120, &e) == OL_EINVAL && strstr(e.msg, "120") != NULL,
     "run: extend to no more than the steps done is EINVAL");
  ol_run_free(r);

  /* (5) halt */
  o.iters = 1000;
  r = gd_run(p, &test_gd, 0.01, &o);
  ol_run_advance(r, 37);
  ol_run_halt(r, OL_STOP_STOPPED);
  ok(ol_run_reason(r) == OL_STOP_STOPPED &&
     ol_run_times(r)[ol_run_len(r) - 1] == 37,
     "run: halt stops and records the final point (t = 37)");
  is_close(ol_run_last(r, OL_MET_LOSS), 0.5 * pow(0.99, 74), 1e-13,
           "run: the halted point holds f(x_37)");
  k = ol_run_len(r);
  ol_run_halt(r, OL_STOP_INTERRUPTED);
  ok(ol_run_reason(r) == OL_STOP_STOPPED && ol_run_len(r) == k,
     "run: halt on a stopped run is a no-op");
  ok(ol_run_extend(r, 2000, &e) == OL_EINVAL &&
     strstr(e.msg, "stopped") != NULL,
     "run: a halted run cannot be extended");
  ol_run_free(r);

  /* (6) iters = 0 */
  o.iters = 0;
  r = gd_run(p, &test_gd, 0.01, &o);
  ok(r != NULL && ol_run_reason(r) == OL_STOP_BUDGET && ol_run_len(r) == 1,
     "run: iters = 0 is stopped by budget with t = 0 recorded");
  ol_run_free(r);
  ol_problem_free(p);

  /* (7) constrained: tolerance uses the kkt gap on a box [0.5, 2];
  ** x_t = 2 (0.9)^t until it hits 0.5 at t = 14, where grad = 0.5 */
  p = quadratic(&q, 1, NULL);
  p->set.kind = OL_SET_BOX;
  p->set.lo = malloc(sizeof(double));
  p->set.hi = malloc(sizeof(double));
  p->set.lo[0] = 0.5;
  p->set.hi[0] = 2;
  ol_run_opts_default(&o);
  o.tol = 1e-12;
  x0[0] = 2;
  o.x0 = x0;
  r = gd_run(p, &test_pgd, 0.1, &o);
  ol_run_advance(r, 1000);
  ok(ol_run_reason(r) == OL_STOP_TOL && ol_run_iter(r) == 14 &&
     ol_run_x(r)[0] == 0.5,
     "run: on a box, tolerance measures the kkt gap, not gradnorm (t = 14)");
  ok(ol_mset_has(ol_run_metrics(r), OL_MET_KKT),
     "run: a constrained optimizer records kkt by default");
  is_near(ol_run_last(r, OL_MET_KKT), 0, 0, "run: kkt is 0 at the bound");
  ol_run_free(r);
  ol_problem_free(p);

  /* (8) applicability and options */
  p = quadratic(&q, 2, NULL);
  lr = 0.1;
  ok(ol_run_new(p, &test_pgd, &lr, NULL, &e) == NULL &&
     e.code == OL_EINVAL && strstr(e.msg, "needs a constrained problem"),
     "method: a NEEDSET method refuses an unconstrained problem");
  r = ol_run_new(p, &test_newton, &lr, NULL, &e);
  ok(r != NULL, "method: a NEEDHESS method runs on a problem without a "
     "Hessian (finite differences)");
  ol_run_free(r);
  {
    /* Newton with a finite-difference Hessian on 1/2 (x1^2 + 3 x2^2): one
    ** Newton step from (1, -2) lands on 0 up to the differences' error,
    ** then the gradient is 0 or the step is below rounding */
    static const double a2[2] = {1, 3};
    double xs[2] = {1, -2}, par[3];
    const ol_method_type *nt = ol_method_find("newton");
    ol_problem *p2 = quadratic(&q, 2, a2);
    ol_run_opts o2;
    ol_run_opts_default(&o2);
    o2.x0 = xs;
    o2.iters = 5;
    o2.tol = 1e-12;
    par[0] = 2;   /* backtrack */
    par[1] = 1;
    par[2] = 1;   /* L (aicn only) */
    q.calls = 0;
    r = nt != NULL ? ol_run_new(p2, nt, par, &o2, &e) : NULL;
    if (r != NULL) ol_run_advance(r, 5);
    ok(r != NULL && ol_run_reason(r) == OL_STOP_TOL && ol_run_iter(r) <= 2,
       "newton: an FD Hessian solves a quadratic in <= 2 steps (t = %ld)",
       r != NULL ? ol_run_iter(r) : -1L);
    ok(r != NULL && ol_run_nhev(r) == ol_run_iter(r) &&
       ol_run_ngev(r) + ol_run_mgev(r) == q.calls &&
       ol_run_ngev(r) >= 4 * ol_run_nhev(r),
       "newton: nhev counts the FD Hessians, ngev their 2n gradients each "
       "(nhev %ld, ngev %ld, oracle %ld)", r != NULL ? ol_run_nhev(r) : -1L,
       r != NULL ? ol_run_ngev(r) : -1L, q.calls);
    ol_run_free(r);
    ol_problem_free(p2);
  }
  ok(ol_run_new(p, &test_cycle, NULL, NULL, &e) == NULL &&
     strstr(e.msg, "testcycle needs a game") != NULL,
     "method: a game dynamic refuses an objective (\"needs a game\")");
  ol_run_opts_default(&o);
  o.iters = -1;
  ok(ol_run_new(p, &test_gd, &lr, &o, &e) == NULL &&
     strstr(e.msg, "iters = -1") != NULL, "run: iters < 0 is EINVAL");
  ol_run_opts_default(&o);
  o.cap = 8;
  ok(ol_run_new(p, &test_gd, &lr, &o, &e) == NULL &&
     strstr(e.msg, "cap = 8") != NULL, "run: cap < 16 is EINVAL");
  ol_run_opts_default(&o);
  o.tol = -1;
  ok(ol_run_new(p, &test_gd, &lr, &o, &e) == NULL &&
     strstr(e.msg, "tol") != NULL, "run: tol < 0 is EINVAL");
  ol_run_opts_default(&o);
  o.time_limit = NAN;
  ok(ol_run_new(p, &test_gd, &lr, &o, &e) == NULL &&
     strstr(e.msg, "time") != NULL, "run: a NaN time limit is EINVAL");
  ol_run_opts_default(&o);
  o.sched.period = 0;
  ok(ol_run_new(p, &test_gd, &lr, &o, &e) == NULL &&
     strstr(e.msg, "period") != NULL, "run: a schedule period < 1 is EINVAL");
  ol_run_opts_default(&o);
  lr = -1;
  ok(ol_run_new(p, &test_gd, &lr, &o, &e) == NULL &&
     strstr(e.msg, "lr = -1 is out of range") != NULL,
     "run: method parameters are range-checked");
  lr = 42;
  k = fini_calls;
  ok(ol_run_new(p, &test_gd, &lr, &o, &e) == NULL &&
     strstr(e.msg, "refused by init") != NULL && fini_calls == k + 1,
     "run: a failed init returns NULL after calling fini");
  x0[0] = NAN;
  x0[1] = 0;
  o.x0 = x0;
  lr = 0.1;
  ok(ol_run_new(p, &test_gd, &lr, &o, &e) == NULL &&
     strstr(e.msg, "x0[1]") != NULL, "run: a non-finite x0 is EINVAL");
  ol_run_opts_default(&o);
  o.metrics = OL_MSET_OF(OL_MET_LOSS, OL_MET_DIST, OL_MET_ACCEPT);
  ok(ol_run_new(p, &test_gd, NULL, &o, &e) == NULL &&
     strstr(e.msg, "dist needs a known minimiser") != NULL,
     "run: a requested metric the problem lacks is an error naming it");
  o.metrics = OL_MSET_OF(OL_MET_LOSS);
  r = ol_run_new(p, &test_gd, NULL, &o, &e);
  ok(ol_run_params(r)[0] == 0.1,
     "run: NULL parameters take the table defaults");
  ol_run_free(r);
  ol_problem_free(p);

  /* (9) failures */
  p = quadratic(&q, 1, NULL);
  ol_run_opts_default(&o);
  x0[0] = 1;
  o.x0 = x0;
  o.cap = 16;
  r = gd_run(p, &test_gd, 10, &o);   /* x_t = (-9)^t: diverges */
  ol_run_advance(r, 1000);
  ok(ol_run_reason(r) == OL_STOP_DIVERGED && ol_run_iter(r) == 53 &&
     strstr(ol_run_message(r), "xlimit") != NULL,
     "run: |x_t| = 9^t passes xlimit 1e50 first at t = 53: diverged (%s: "
     "%s)", ol_stop_name(ol_run_reason(r)), ol_run_message(r));
  ol_run_free(r);
  o.xlimit = INFINITY;
  r = gd_run(p, &test_gd, 10, &o);   /* without the limit: overflows */
  ol_run_advance(r, 1000);
  ok(ol_run_reason(r) == OL_STOP_NONFINITE &&
     strstr(ol_run_message(r), "non-finite") != NULL,
     "run: with xlimit = inf, 9^t overflows and stops as non-finite (%s: "
     "%s)", ol_stop_name(ol_run_reason(r)), ol_run_message(r));
  o.xlimit = 1e50;
  ok(ol_run_len(r) > 1 && isfinite(ol_run_last(r, OL_MET_LOSS)),
     "run: the trace before the failure is kept");
  ol_run_free(r);
  q.fail_at_x = 1;
  q.fail_below = 0.5;
  q.fail_code = OL_ECALLBACK;
  r = gd_run(p, &test_gd, 0.1, &o);
  ol_run_advance(r, 1000);
  ok(ol_run_reason(r) == OL_STOP_CALLBACK &&
     strcmp(ol_run_message(r), "oracle refused x_1 = 0.478297") == 0,
     "run: a callback error stops the run with its message (\"%s\")",
     ol_run_message(r));
  is_int(ol_run_iter(r), 7, "run: the failing step is the one reaching "
         "x_1 < 0.5 (t = 7)");
  ok(ol_run_times(r)[ol_run_len(r) - 1] == 6,
     "run: the trace ends at the last evaluable point");
  ol_run_free(r);
  q.fail_code = OL_EINTR;
  r = gd_run(p, &test_gd, 0.1, &o);
  ol_run_advance(r, 1000);
  is_int(ol_run_reason(r), OL_STOP_INTERRUPTED,
         "run: an interrupted oracle stops as interrupted");
  ol_run_free(r);
  q.fail_below = 2;
  q.fail_code = OL_ECALLBACK;
  r = gd_run(p, &test_gd, 0.1, &o);
  ok(r != NULL && ol_run_reason(r) == OL_STOP_CALLBACK &&
     ol_run_iter(r) == 0 && ol_run_len(r) == 0 &&
     strstr(ol_run_message(r), "refused") != NULL,
     "run: an oracle failure at x0 returns the run already stopped");
  ok(ol_run_step(r) == OL_STOP_CALLBACK, "run: ... and it does not step");
  ol_run_free(r);
  q.fail_at_x = 0;
  r = gd_run(p, &test_gd, 7, &o);
  ol_run_advance(r, 10);
  ok(ol_run_reason(r) == OL_STOP_FAILED &&
     strcmp(ol_run_message(r), "line search failed") == 0 &&
     ol_run_iter(r) == 0 && ol_run_len(r) == 1,
     "run: a method error stops as numerical failure with its message");
  ol_run_free(r);
  ol_problem_free(p);

  /* (10) noise: f = 0 in 1000-d, gd lr = 1 for 4 steps: x = -sum of 4
  ** N(0, sigma^2) draws, so x / (2 sigma) ~ N(0, 1) */
  {
    double s2 = 0, zero[1000] = {0}, xa[1000];
    ol_run *r2;
    diag("seed %u", (unsigned)SEED);
    p = quadratic(&q, 1000, zero);
    p->noise.kind = OL_NOISE_GAUSS;
    p->noise.sigma = 3;
    ol_run_opts_default(&o);
    o.iters = 4;
    o.seed = SEED;
    r = gd_run(p, &test_gd, 1, &o);
    ol_run_advance(r, 10);
    for (i = 0; i < 1000; i++) s2 += pow(ol_run_x(r)[i] / 6, 2);
    is_near(s2 / 1000, 1, 5 * sqrt(2.0 / 1000),
            "run: gaussian noise has variance sigma^2 per coordinate "
            "(5 se)");
    is_near(ol_run_last(r, OL_MET_GRADNORM), 0, 0,
            "run: gradnorm records the true gradient of a noisy problem");
    memcpy(xa, ol_run_x(r), sizeof xa);
    r2 = gd_run(p, &test_gd, 1, &o);
    ol_run_advance(r2, 10);
    ok(memcmp(xa, ol_run_x(r2), sizeof xa) == 0,
       "run: the same seed replays the same noise");
    ol_run_free(r2);
    o.stream = 1;
    r2 = gd_run(p, &test_gd, 1, &o);
    ol_run_advance(r2, 10);
    ok(memcmp(xa, ol_run_x(r2), sizeof xa) != 0,
       "run: another stream gives other noise");
    ol_run_free(r2);
    ol_run_free(r);
    ol_problem_free(p);
  }

  /* (11) averaging on a game: x_t = e_(t mod 2), xavg = mean x_0..x_t */
  {
    double A[1] = {0};
    p = quadratic(&q, 2, NULL);
    p->kind = OL_GAME;
    p->rows = 1;
    p->cols = 1;
    p->payoff = malloc(sizeof A);
    p->payoff[0] = 0;
    ol_run_opts_default(&o);
    x0[0] = 0;
    x0[1] = 1;
    o.x0 = x0;
    r = ol_run_new(p, &test_cycle, NULL, &o, &e);
    ol_run_advance(r, 2);
    ok(fabs(ol_run_xavg(r)[0] - 1.0 / 3) < 1e-15 &&
       fabs(ol_run_xavg(r)[1] - 2.0 / 3) < 1e-15,
       "run: xavg is the uniform mean of x_0..x_t on a game (t = 2)");
    ol_run_advance(r, 1);
    ok(fabs(ol_run_xavg(r)[0] - 0.5) < 1e-15,
       "run: xavg after 3 steps is (1/2, 1/2)");
    ok(ol_mset_has(ol_run_metrics(r), OL_MET_EXPLOIT),
       "run: a game dynamic records exploitability by default");
    ol_run_free(r);
    r = ol_run_new(p, &test_cycle_own, NULL, &o, &e);
    ol_run_advance(r, 3);
    ok(ol_run_xavg(r)[0] == 0 && ol_run_xavg(r)[1] == 1,
       "run: xavg is left to an OL_M_OWNAVG method");
    ol_run_free(r);
    ol_problem_free(p);
  }

  /* (12) time limit and seconds */
  p = quadratic(&q, 1, NULL);
  q.spin = 2000;
  ol_run_opts_default(&o);
  o.iters = 1000000000;
  o.time_limit = 0.05;
  x0[0] = 1;
  o.x0 = x0;
  r = gd_run(p, &test_gd, 1e-9, &o);
  ol_run_advance(r, 1000000000);
  ok(ol_run_reason(r) == OL_STOP_TIME && ol_run_iter(r) % 64 == 0,
     "run: the time limit stops at a multiple of 64 steps");
  ok(ol_run_seconds(r) >= 0.05 && ol_run_seconds(r) < 5,
     "run: seconds covers the slice (%.3f s)", ol_run_seconds(r));
  is_int(ol_run_extend(r, 2000000000, &e), OL_EINVAL,
         "run: a run stopped by time cannot be extended");
  ol_run_free(r);
  q.spin = 0;

  /* (13) schedules */
  {
    ol_sched s = {OL_SCHED_STEP, 0.5, 10};
    is_near(ol_sched_value(&s, 25, 100), 0.25, 0, "sched: step is "
            "gamma^floor(t / period)");
    s.kind = OL_SCHED_INV;
    is_near(ol_sched_value(&s, 30, 100), 0.25, 1e-16,
            "sched: inv is 1 / (1 + t / period)");
    s.kind = OL_SCHED_INVSQRT;
    is_near(ol_sched_value(&s, 30, 100), 0.5, 1e-16,
            "sched: invsqrt is 1 / sqrt(1 + t / period)");
    s.kind = OL_SCHED_COSINE;
    ok(ol_sched_value(&s, 0, 100) == 1 &&
       fabs(ol_sched_value(&s, 50, 100) - 0.5) < 1e-16 &&
       fabs(ol_sched_value(&s, 150, 100)) < 1e-16,
       "sched: cosine goes 1, 1/2 at T/2, 0 from T on");
    s.kind = OL_SCHED_WARMUP;
    ok(ol_sched_value(&s, 4, 100) == 0.5 && ol_sched_value(&s, 50, 100) == 1,
       "sched: warmup is min(1, (t + 1) / period)");
    s.kind = OL_SCHED_CONST;
    is_near(ol_sched_value(&s, 12345, 100), 1, 0, "sched: const is 1");
    /* gd with step schedule 0.5 every 2 steps: factors 1 1 .5 .5 .25 */
    ol_run_opts_default(&o);
    o.iters = 5;
    o.sched.kind = OL_SCHED_STEP;
    o.sched.gamma = 0.5;
    o.sched.period = 2;
    x0[0] = 1;
    o.x0 = x0;
    r = gd_run(p, &test_gd, 0.1, &o);
    ol_run_advance(r, 5);
    is_close(ol_run_x(r)[0], 0.9 * 0.9 * 0.95 * 0.95 * 0.975, 1e-15,
             "run: the schedule scales the method's step (sched = %s)",
             "step");
    ol_run_free(r);
  }
  ol_problem_free(p);

  /* (14) trajectory */
  {
    double a10[10];
    const double *tr;
    int dim;
    for (i = 0; i < 10; i++) {
      a10[i] = 1 + i;
      x0[i] = 1;
    }
    p = quadratic(&q, 10, a10);
    ol_run_opts_default(&o);
    o.iters = 50;
    o.cap = 16;
    o.record_x = 1;
    o.x0 = x0;
    r = gd_run(p, &test_gd, 0.05, &o);
    ol_run_advance(r, 100);
    tr = ol_run_traj(r, &dim);
    is_int(dim, 8, "run: the trajectory keeps min(n, 8) coordinates");
    for (k = 0, okx = 1; k < ol_run_len(r); k++)
      for (i = 0; i < dim; i++)
        if (fabs(tr[k * dim + i] - pow(1 - 0.05 * a10[i],
                                       (double)ol_run_times(r)[k])) > 1e-14)
          okx = 0;
    ok(tr != NULL && okx,
       "run: trajectory rows are x at the recorded times, also decimated");
    ol_run_free(r);
    o.record_x = 0;
    r = gd_run(p, &test_gd, 0.05, &o);
    ok(ol_run_traj(r, &dim) == NULL && dim == 0,
       "run: no trajectory unless record_x");
    ol_run_free(r);
    ol_problem_free(p);
  }

  /* (15) names */
  ok(!strcmp(ol_stop_name(OL_STOP_NONE), "running") &&
     !strcmp(ol_stop_name(OL_STOP_BUDGET), "budget") &&
     !strcmp(ol_stop_name(OL_STOP_TOL), "tolerance") &&
     !strcmp(ol_stop_name(OL_STOP_TIME), "time") &&
     !strcmp(ol_stop_name(OL_STOP_NONFINITE), "non-finite") &&
     !strcmp(ol_stop_name(OL_STOP_CALLBACK), "callback error") &&
     !strcmp(ol_stop_name(OL_STOP_FAILED), "numerical failure") &&
     !strcmp(ol_stop_name(OL_STOP_INTERRUPTED), "interrupted") &&
     !strcmp(ol_stop_name(OL_STOP_STOPPED), "stopped"),
     "run: stop reasons have their documented names");
  ol_run_free(NULL);
  return done();
}
