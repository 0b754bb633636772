/*
** tests/c/t_xaxis.c -- the run's other x axes: ol_run_evals (gradient
** evaluations at each record) and ol_run_secs (stepping seconds at each
** record), parallel to ol_run_times through decimation.
**
** Truth: the method takes exactly two gradients per step (at x and at the
** Euler predictor x - lr g, as Grad-Avg does), so the method's count after
** step t is 2t (the first of each pair is the run's own evaluation of x_t
** where one was made, used from the cache and counted once); a counting
** oracle (its own tally of every call) equals that plus the run's own
** unused evaluations (mgev); and ol_run_seconds.
*/
#include "run.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ITERS 300

/* f = 1/2 sum a_i x_i^2, counting gradient calls; spin: busy work. */
typedef struct quad {
  int n;
  long calls;
  int spin;
} quad;

static int quad_fdf (void *ud, const double *x, double *f, double *g,
                     ol_err *e)
{
  quad *q = ud;
  int i;
  (void)e;
  if (q->spin) {
    volatile double s = 0;
    for (i = 0; i < q->spin; i++) s += i;
  }
  if (f != NULL) {
    double s = 0;
    for (i = 0; i < q->n; i++) s += 0.5 * (i + 1) * x[i] * x[i];
    *f = s;
  }
  if (g != NULL) {
    q->calls++;
    for (i = 0; i < q->n; i++) g[i] = (i + 1) * x[i];
  }
  return OL_OK;
}

/* Two gradients per step: g at x, gbar at x - lr g; x -= lr/2 (g + gbar). */
typedef struct two {
  double lr;
  double g[4], gb[4], xb[4];
} two;

static const ol_param two_params[] = {
  {"lr", OL_P_REAL, 0.1, 0, INFINITY, "step size", NULL}
};

static int two_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  two *s = st;
  s->lr = par[0];
  if (c->n > 4) return ol_err_set(e, OL_EINVAL, "n > 4");
  return OL_OK;
}

static int two_step (void *st, ol_ctx *c, ol_err *e)
{
  two *s = st;
  double a = s->lr * c->sched;
  int i, rc;
  /* (1) gradient at x and the predictor; (2) gradient there; (3) move */
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK) return rc;
  for (i = 0; i < c->n; i++) s->xb[i] = c->x[i] - a * s->g[i];
  if ((rc = ol_ctx_grad(c, s->xb, NULL, s->gb, e)) != OL_OK) return rc;
  for (i = 0; i < c->n; i++) c->x[i] -= 0.5 * a * (s->g[i] + s->gb[i]);
  return OL_OK;
}

static void two_fini (void *st)
{
  (void)st;
}

static const ol_method_type test_two = {
  .name = "testtwo",
  .family = OL_OPTIM,
  .doc = "two gradients per step",
  .params = two_params,
  .nparams = 1,
  .size = sizeof(two),
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = two_init,
  .step = two_step,
  .fini = two_fini,
  .probes = OL_MSET_NONE,
};

static ol_run *mkrun (quad *q, ol_problem **pp, int cap, long iters,
                      int spin)
{
  static const double x0[3] = {1, -2, 0.5};
  double lr = 0.05;
  ol_run_opts o;
  ol_err e;
  ol_run *r;
  memset(q, 0, sizeof *q);
  q->n = 3;
  q->spin = spin;
  *pp = ol_problem_custom(3, quad_fdf, 0, q, NULL, &e);
  if (*pp == NULL) {
    diag("ol_problem_custom: %s", e.msg);
    return NULL;
  }
  ol_run_opts_default(&o);
  o.iters = iters;
  o.cap = cap;
  o.x0 = x0;
  r = ol_run_new(*pp, &test_two, &lr, &o, &e);
  if (r == NULL) diag("ol_run_new: %s", e.msg);
  return r;
}

/* Number of recorded points whose evals differ from calls_at[time]. */
static int evals_mismatch (const ol_run *r, const long *calls_at)
{
  const long *t = ol_run_times(r);
  const double *ev = ol_run_evals(r);
  int i, bad = 0;
  for (i = 0; i < ol_run_len(r); i++)
    if (ev[i] != (double)calls_at[t[i]]) {
      if (bad++ == 0)
        diag("point %d (t = %ld): evals %g, oracle counted %ld", i, t[i],
             ev[i], calls_at[t[i]]);
    }
  return bad;
}

int main (void)
{
  static long calls_at[2 * ITERS + 1];
  ol_problem *p;
  ol_run *r;
  quad q;
  ol_err e;
  long t;
  int i, len, mono;
  const double *sec;

  /* (1) stepped one at a time: the oracle's tally after every step */
  r = mkrun(&q, &p, 16, ITERS, 0);
  ok(r != NULL, "xaxis: run created");
  if (r == NULL) return done();
  for (t = 0; t <= 2 * ITERS; t++) calls_at[t] = 2 * t;
  is_int((long)ol_run_evals(r)[0], 0,
         "xaxis: evals at t = 0 is 0 (the run's evaluation of x0 is its "
         "own until a step uses it)");
  while (ol_run_step(r) == OL_STOP_NONE) {}
  len = ol_run_len(r);
  ok(len == 18 && ol_run_times(r)[len - 2] == 256,
     "xaxis: the history thinned (len %d of 300 steps, last kept before "
     "the end t = %ld)", len, ol_run_times(r)[len - 2]);
  is_int(evals_mismatch(r, calls_at), 0,
         "xaxis: evals are the method's 2t gradients at every record, "
         "after thinning");
  is_int(ol_run_ngev(r) + ol_run_mgev(r), q.calls,
         "xaxis: ngev + mgev equals the oracle's count");
  is_int((long)ol_run_evals(r)[len - 1], ol_run_ngev(r),
         "xaxis: the last point's evals is ngev");
  is_near(ol_run_evals(r)[len - 1] / (double)ITERS, 2, 0,
          "xaxis: two gradients per step give 2 evals per iteration");

  /* (2) extended, in one slice: still aligned with its times */
  ok(ol_run_extend(r, 2 * ITERS, &e) == OL_OK, "xaxis: extend");
  while (ol_run_step(r) == OL_STOP_NONE) {}
  ok(ol_run_times(r)[ol_run_len(r) - 1] == 2 * ITERS,
     "xaxis: the extension recorded its last point");
  is_int(evals_mismatch(r, calls_at), 0,
         "xaxis: evals are still 2t after extend and further thinning");
  ol_run_free(r);
  ol_problem_free(p);

  /* (3) seconds: a slow oracle, several slices of steps */
  r = mkrun(&q, &p, 32, 4000, 8000);
  if (r == NULL) return done();
  is_near(ol_run_secs(r)[0], 0, 0, "xaxis: secs at t = 0 is 0");
  for (i = 0; i < 8 && ol_run_reason(r) == OL_STOP_NONE; i++)
    ol_run_advance(r, 300);
  ol_run_halt(r, OL_STOP_STOPPED);
  sec = ol_run_secs(r);
  len = ol_run_len(r);
  diag("%d points over %ld steps, %.4f s", len, ol_run_iter(r),
       ol_run_seconds(r));
  for (mono = 1, i = 1; i < len; i++)
    if (!(sec[i] >= sec[i - 1])) mono = 0;
  ok(mono, "xaxis: secs nondecreasing along the recorded points");
  for (i = 0; i < len && sec[i] <= ol_run_seconds(r); i++) {}
  ok(i == len, "xaxis: every secs value is at most ol_run_seconds");
  is_near(sec[len - 1], ol_run_seconds(r), 0,
          "xaxis: a halt records the accumulated seconds exactly");
  ok(sec[len / 2] > 0 && sec[len / 2] < sec[len - 1],
     "xaxis: a middle point was taken mid-run (%.4g s of %.4g s)",
     sec[len / 2], sec[len - 1]);
  ol_run_free(r);
  ol_problem_free(p);
  return done();
}
