/*
** tests/c/t_oracle.c -- the oracle layer (core/oracle.c) driven without
** a run: a test owns the ol_oracle state a run would own.
**
** Counting and the cache: the driver's own evaluation (ol_oracle_here)
** is counted apart until a step uses it, then moves to the context once;
** a second use is free; a new point is a new call.  ol_ctx_known hands a
** point over.  The minibatch stream: cyclic order visits 0, 1, ..., N-1,
** 0, ... and "once" repeats the same permutation every epoch (seed
** printed).  A context without oracle state refuses what needs a
** workspace.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "problem.h"
#include "rng.h"
#include "tap.h"

#define SEED 20261202u
#define N 4

static int calls;              /* fdf calls */
static long seen[64];          /* fdfi component indices, in order */
static int nseen;

/* f = 0.5 ||x||^2, g = x, n = 2 */
static int half (void *ud, const double *x, double *f, double *g, ol_err *e)
{
  (void)ud;
  (void)e;
  calls++;
  if (f != NULL) *f = 0.5 * (x[0] * x[0] + x[1] * x[1]);
  if (g != NULL) {
    g[0] = x[0];
    g[1] = x[1];
  }
  return OL_OK;
}

/* f_i = 0.5 ||x - i||^2 (mean over i = 0..N-1), recording i */
static int comp (void *ud, long i, const double *x, double *f, double *g,
                 ol_err *e)
{
  (void)ud;
  (void)e;
  if (nseen < 64) seen[nseen++] = i;
  if (f != NULL)
    *f = 0.5 * ((x[0] - i) * (x[0] - i) + (x[1] - i) * (x[1] - i));
  if (g != NULL) {
    g[0] = x[0] - i;
    g[1] = x[1] - i;
  }
  return OL_OK;
}

int main (void)
{
  ol_err e;
  ol_problem *p;
  ol_oracle o;
  ol_ctx c;
  ol_rng rng;
  ol_noise nz;
  double work[8], x[2] = {1, 2}, y[2] = {3, 4}, f, g[2];
  int i, k, ok1;

  p = ol_problem_custom(2, half, 0, NULL, NULL, &e);
  memset(&o, 0, sizeof o);
  ok(ol_oracle_init(&o, p, work, &e) == OL_OK, "oracle: init");
  memset(&c, 0, sizeof c);
  ol_rng_seed(&rng, SEED, 0);
  c.p = p;
  c.n = 2;
  c.x = x;
  c.rng = &rng;
  c.orc = &o;

  /* == the cache and the counts ========================================== */
  ok(ol_oracle_here(&o, p, x, &e) == OL_OK && calls == 1 && o.mfev == 1 &&
     o.mgev == 1 && o.f == 2.5, "here: the driver's own evaluation, "
     "counted apart (f = 2.5)");
  ok(ol_oracle_here(&o, p, x, &e) == OL_OK && calls == 1 && o.mgev == 1,
     "here: the same point again is not evaluated");
  ok(ol_ctx_grad(&c, x, &f, g, &e) == OL_OK && calls == 1 && f == 2.5 &&
     g[1] == 2, "ctx_grad at the cached point: served from the cache");
  ok(c.nfev == 1 && c.ngev == 1 && o.mfev == 0 && o.mgev == 0,
     "ctx_grad: the driver's evaluation moved to the method once");
  ok(ol_ctx_grad(&c, x, &f, g, &e) == OL_OK && calls == 1 && c.ngev == 1,
     "ctx_grad: a second use of the cache is free");
  ok(ol_ctx_grad(&c, y, &f, g, &e) == OL_OK && calls == 2 && c.ngev == 2 &&
     f == 12.5, "ctx_grad at a new point: one call, counted");
  x[0] = 3;
  x[1] = 4;
  ol_ctx_known(&c, f, g);
  ok(o.gvalid && o.handed && ol_oracle_at(&o, y, 2),
     "ctx_known: the method's f, g at its new x become the cache");
  ok(ol_oracle_here(&o, p, x, &e) == OL_OK && calls == 2,
     "here: nothing evaluated where the method handed f and g over");
  ol_ctx_converged(&c, "done");
  ok(o.conv && strcmp(o.convmsg, "done") == 0,
     "ctx_converged: the note is kept in the oracle state for the driver");
  ol_oracle_fini(&o);

  /* == a context without oracle state ==================================== */
  {
    ol_problem *q = ol_problem_custom(2, half, 1, NULL, NULL, &e);
    ol_ctx d;
    memset(&d, 0, sizeof d);
    d.p = q;
    d.n = 2;
    d.x = x;
    ok(ol_ctx_grad(&d, x, NULL, g, &e) == OL_EINVAL &&
       strstr(e.msg, "workspace") != NULL,
       "no oracle state: a finite-difference gradient is refused (%s)",
       e.msg);
    ok(ol_ctx_value(&d, x, &f, &e) == OL_OK && f == 12.5,
       "no oracle state: an exact value is served");
    ol_problem_free(q);
  }
  ol_problem_free(p);

  /* == the minibatch stream ============================================== */
  diag("seed %u", SEED);
  for (k = 0; k < 2; k++) {
    static const int orders[2] = {OL_ORDER_CYCLIC, OL_ORDER_ONCE};
    p = ol_problem_custom(2, half, 0, NULL, NULL, &e);
    p->nsum = N;             /* a finite sum, built by hand in C */
    p->fdfi = comp;
    memset(&nz, 0, sizeof nz);
    nz.kind = OL_NOISE_BATCH;
    nz.sigma = 0;
    nz.nu = 3;
    nz.batch = 1;
    nz.order = orders[k];
    ok(ol_problem_set_noise(p, &nz, &e) == OL_OK, "batch noise set (%s)",
       k == 0 ? "cyclic" : "once");
    memset(&o, 0, sizeof o);
    ol_oracle_init(&o, p, work, &e);
    ok(o.perm != NULL && o.pos == N, "stream: a permutation, epoch due");
    memset(&c, 0, sizeof c);
    c.p = p;
    c.n = 2;
    c.x = x;
    c.rng = &rng;
    c.orc = &o;
    nseen = 0;
    for (i = 0; i < 3 * N; i++) ol_ctx_grad(&c, x, NULL, g, &e);
    ok1 = nseen == 3 * N;
    for (i = 0; i < 3 * N && ok1; i++)
      ok1 = k == 0 ? seen[i] == i % N : seen[i] == seen[i % N];
    ok(ok1, "stream: %s order over three epochs", k == 0
       ? "cyclic visits 0..N-1 in turn" : "once repeats its permutation");
    ok(c.ngev == 3 * N, "stream: one gradient evaluation per minibatch");
    ol_oracle_fini(&o);
    ol_problem_free(p);
  }
  return done();
}
