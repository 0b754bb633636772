/*
** tests/c/t_metrics.c -- the metric registry (definitions, availability
** and the default sets) and the metrics a run records: the history and
** method metrics mingradnorm, support, nucnorm, the probe metrics
** (lrmin, lrmed, lrmax, ortherr), their defaults and the errors for
** unavailable metrics.
**
** Truth: the registry's values are worked by hand from the definitions
** in core/metrics.h on small vectors.  For the recorded ones a scripted
** method moves x along a fixed sequence, so the metric series are worked
** by hand (f = 0.5 ||x||^2, g = x); nuclear norms of hand-made matrices
** (a diagonal one, a rank-one outer product u v' with norm ||u|| ||v||)
** and of a general one against LAPACKE_dgesvd run here on the row-major
** matrix with full SVD.
*/
#include "metrics.h"
#include "method.h"
#include "run.h"
#include "runpriv.h"
#include "tap.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int zero (void *ud, const double *x, double *f, double *g, ol_err *e)
{
  (void)ud;
  (void)x;
  (void)e;
  if (f != NULL) *f = 0;
  if (g != NULL) g[0] = 0;
  return OL_OK;
}

static double eval (int id, ol_mstate *s)
{
  return ol_metric_types[id]->eval(s);
}

#define B(m) OL_MET_##m

#define MAXN 8
#define LEN 5

/* x_t = seq[t] (dimension n), t = 0..LEN-1 */
static double seq[LEN][MAXN];

static int half (void *ud, const double *x, double *f, double *g, ol_err *e)
{
  int i, n = *(const int *)ud;
  double s = 0;
  (void)e;
  for (i = 0; i < n; i++) {
    s += 0.5 * x[i] * x[i];
    if (g != NULL) g[i] = x[i];
  }
  if (f != NULL) *f = s;
  return OL_OK;
}

/* f = <G, x> for a fixed G: the gradient is G wherever x is. */
static double G[MAXN];

static int linear (void *ud, const double *x, double *f, double *g,
                   ol_err *e)
{
  int i, n = *(const int *)ud;
  double s = 0;
  (void)e;
  for (i = 0; i < n; i++) {
    s += G[i] * x[i];
    if (g != NULL) g[i] = G[i];
  }
  if (f != NULL) *f = s;
  return OL_OK;
}

static int script_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  (void)st;
  (void)par;
  (void)e;
  memcpy(c->x, seq[0], (size_t)c->n * sizeof *c->x);
  return OL_OK;
}

static int script_step (void *st, ol_ctx *c, ol_err *e)
{
  (void)st;
  (void)e;
  memcpy(c->x, seq[c->t + 1 < LEN ? c->t + 1 : LEN - 1],
         (size_t)c->n * sizeof *c->x);
  return OL_OK;
}

/* A probe that defines the effective learning rates (0.1, 0.2 + t, 0.4)
** but no orthogonalisation error. */
static double lr_probe (const void *st, int metric, const ol_ctx *c)
{
  (void)st;
  switch (metric) {
  case OL_MET_LRMIN: return 0.1;
  case OL_MET_LRMED: return 0.2 + (double)c->t;
  case OL_MET_LRMAX: return 0.4;
  default: return NAN;
  }
}

static const ol_method_type script = {
  .name = "script",
  .family = OL_OPTIM,
  .doc = "x_t from a table (test)",
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = script_init,
  .step = script_step,
  .probes = OL_MSET_NONE,
};

static const ol_method_type probed = {
  .name = "probed",
  .family = OL_OPTIM,
  .doc = "x_t from a table, with a probe (test)",
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = script_init,
  .step = script_step,
  .probe = lr_probe,
  .probes = OL_PROBES_LR,
};

static ol_run *go (ol_problem *p, const ol_method_type *m, ol_mset metrics,
                   ol_err *e)
{
  ol_run_opts o;
  ol_run *r;
  ol_run_opts_default(&o);
  o.iters = LEN - 1;
  o.metrics = metrics;
  r = ol_run_new(p, m, NULL, &o, e);
  if (r != NULL) ol_run_advance(r, LEN);
  return r;
}

static int series_is (const ol_run *r, int metric, const double *want,
                      double tol)
{
  const double *v = ol_run_series(r, metric);
  int i;
  if (v == NULL || ol_run_len(r) != LEN) return 0;
  for (i = 0; i < LEN; i++)
    if (!(fabs(v[i] - want[i]) <= tol)) return 0;
  return 1;
}

/* Nuclear norm by a full SVD of the row-major m x k matrix A. */
static double nuc_ref (const double *A, int m, int k)
{
  double a[MAXN], s[MAXN], u[MAXN * MAXN], vt[MAXN * MAXN], sup[MAXN], t = 0;
  int i;
  memcpy(a, A, (size_t)m * k * sizeof *a);
  if (LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'A', 'A', m, k, a, k, s, u, m, vt, k,
                     sup) != 0)
    return NAN;
  for (i = 0; i < (m < k ? m : k); i++) t += s[i];
  return t;
}

/* The metrics a run records, driven by the scripted method. */
static void test_series (void)
{
  static int n1 = 1, n3 = 3, n6 = 6;
  ol_err e;
  ol_problem *p;
  ol_run *r;

  /* == mingradnorm ======================================================= */
  /* |x_t| = 4, 2, 3, 1, 5 -> running minimum 4, 2, 2, 1, 1 */
  {
    static const double xs[LEN] = {4, -2, 3, 1, -5};
    static const double want[LEN] = {4, 2, 2, 1, 1};
    int t;
    for (t = 0; t < LEN; t++) seq[t][0] = xs[t];
    p = ol_problem_custom(1, half, 0, &n1, NULL, &e);
    ok(ol_mset_has(ol_metric_defaults(p, OL_OPTIM), B(MINGRADNORM)),
       "mingradnorm: an optimizer default");
    ok(!ol_mset_has(ol_metric_defaults(p, OL_SAMPLER), B(MINGRADNORM)),
       "mingradnorm: not a sampler default");
    r = go(p, &script, OL_MSET_OF(B(GRADNORM), B(MINGRADNORM)), &e);
    ok(r != NULL && series_is(r, OL_MET_MINGRADNORM, want, 0),
       "mingradnorm: running minimum of ||g|| over records (4 2 2 1 1)");
    ol_run_free(r);
    ol_problem_free(p);
  }

  /* == support =========================================================== */
  /* signs (+ - 0) -> (+ + 0) 1 -> (0 + 0) 1 -> (- + +) 2 -> same 0:
  ** cumulative 0, 1, 2, 4, 4 */
  {
    static const double xs[LEN][3] = {{1, -1, 0}, {1, 1, 0}, {0, 1, 0},
                                      {-2, 1, 3}, {-2, 0.5, 3}};
    static const double want[LEN] = {0, 1, 2, 4, 4};
    int t;
    for (t = 0; t < LEN; t++) memcpy(seq[t], xs[t], sizeof xs[t]);
    p = ol_problem_custom(3, half, 0, &n3, NULL, &e);
    ok(!ol_mset_has(ol_metric_defaults(p, OL_OPTIM), B(SUPPORT)),
       "support: not a default without l1");
    r = go(p, &script, OL_MSET_OF(B(SUPPORT)), &e);
    ok(r != NULL && series_is(r, OL_MET_SUPPORT, want, 0),
       "support: cumulative sign-class changes between records "
       "(0 1 2 4 4)");
    ol_run_free(r);
    p->kind = OL_DENSITY;
    ok(go(p, &script, OL_MSET_OF(B(SUPPORT)), &e) == NULL &&
       strstr(e.msg, "support needs an objective"),
       "support: asked on a density is an error saying why");
    p->kind = OL_OBJECTIVE;

    /* == probe metrics ================================================= */
    {
      static const double lrmed[LEN] = {0.2, 1.2, 2.2, 3.2, 4.2};
      static const double lrmin[LEN] = {0.1, 0.1, 0.1, 0.1, 0.1};
      ok(!ol_mset_any(ol_metric_defaults(p, OL_OPTIM),
                      OL_MSET_OF(B(LRMIN), B(LRMED), B(LRMAX), B(ORTHERR))),
         "probe metrics: never defaults");
      r = go(p, &probed, OL_MSET_OF(B(LRMIN), B(LRMED), B(LRMAX)), &e);
      ok(r != NULL && series_is(r, OL_MET_LRMED, lrmed, 1e-15) &&
         series_is(r, OL_MET_LRMIN, lrmin, 0) &&
         ol_run_last(r, OL_MET_LRMAX) == 0.4,
         "probe metrics: recorded from the method's probe at each record");
      ol_run_free(r);
      ok(go(p, &probed, OL_MSET_OF(B(ORTHERR)), &e) == NULL &&
         strcmp(e.msg, "ortherr: probed has no orthogonalisation error "
                "(Muon-type methods only)") == 0,
         "probe metrics: a probe giving NaN makes the metric an error");
      ok(go(p, &script, OL_MSET_OF(B(LRMAX)), &e) == NULL &&
         strcmp(e.msg, "lrmax: script has no effective learning rate") == 0,
         "probe metrics: a method without a probe: 'lrmax: script has no "
         "effective learning rate'");
    }

    /* == other unavailable metrics are errors, not dropped =============== */
    ok(go(p, &script, OL_MSET_OF(B(LOSS), B(NUCNORM)), &e) == NULL &&
       strstr(e.msg, "nucnorm needs a matrix-shaped problem"),
       "nucnorm: asked on a vector problem is an error saying why");
    ok(go(p, &script, OL_MSET_OF(B(ACCEPT)), &e) == NULL &&
       strstr(e.msg, "accept: script is not a sampler"),
       "accept: asked of an optimizer is an error saying why");
    ok(go(p, &script, OL_MSET_OF(B(SUBOPT)), &e) == NULL &&
       strstr(e.msg, "subopt needs a known optimal value f*"),
       "subopt: asked without f* is an error saying why");
    ok(go(p, &script, OL_MSET_OF(B(ENTROPY)), &e) == NULL &&
       strstr(e.msg, "entropy needs a simplex"),
       "entropy: asked without a simplex is an error saying why");
    ol_problem_free(p);
  }

  /* == nucnorm =========================================================== */
  p = ol_problem_custom(6, linear, 0, &n6, NULL, &e);
  {
    ol_method_type needmat = script;
    needmat.flags = OL_M_NEEDMAT;
    ok(ol_method_check(&needmat, p, &e) == OL_EINVAL &&
       strstr(e.msg, "script needs a matrix-shaped problem"),
       "method check: OL_M_NEEDMAT refuses a plain vector problem");
    ok(ol_problem_set_matrix(p, 2, 3, NULL, &e) == OL_OK &&
       ol_method_check(&needmat, p, &e) == OL_OK,
       "method check: OL_M_NEEDMAT accepts a 2 x 3 problem");
  }
  memset(seq, 0, sizeof seq);
  ok(ol_mset_has(ol_metric_defaults(p, OL_OPTIM), B(NUCNORM)),
     "nucnorm: an optimizer default for a matrix-shaped problem");
  {
    static const double diag2[6] = {3, 0, 0, 0, -4, 0};
    static const double rank1[6] = {1, 2, -2, 2, 4, -4};   /* (1,2)'(1,2,-2) */
    static const double gen[6] = {0.3, -1.2, 2.5, 1.7, 0.4, -0.9};
    double ref;
    memcpy(G, diag2, sizeof diag2);
    r = go(p, &script, OL_MSET_OF(B(NUCNORM)), &e);
    is_near(ol_run_last(r, OL_MET_NUCNORM), 7, 1e-14,
            "nucnorm: diag(3, -4) in a 2 x 3 matrix has nuclear norm 7");
    ol_run_free(r);
    memcpy(G, rank1, sizeof rank1);
    r = go(p, &script, OL_MSET_OF(B(NUCNORM)), &e);
    is_near(ol_run_last(r, OL_MET_NUCNORM), sqrt(5) * 3, 1e-14,
            "nucnorm: u v' has nuclear norm ||u|| ||v|| = 3 sqrt(5)");
    ol_run_free(r);
    memcpy(G, gen, sizeof gen);
    ref = nuc_ref(gen, 2, 3);
    r = go(p, &script, OL_MSET_OF(B(NUCNORM)), &e);
    is_near(ol_run_last(r, OL_MET_NUCNORM), ref, 1e-13,
            "nucnorm: a general 2 x 3 matrix matches a full LAPACK SVD");
    diag("nucnorm: %.15g vs %.15g", ol_run_last(r, OL_MET_NUCNORM), ref);
    ol_run_free(r);
    /* two stacked 1 x 3 blocks: the sum of the rows' norms (a new
    ** problem: p is fixed once a run used it) */
    {
      static const int two[3] = {1, 1, 0}, bad[3] = {1, 2, 0};
      ol_problem *q = ol_problem_custom(6, linear, 0, &n6, NULL, &e);
      ok(ol_problem_set_matrix(p, 2, 3, two, &e) == OL_EINVAL &&
         strstr(e.msg, "in use by a run"),
         "matrix shape: refused once a run used the problem");
      ok(ol_problem_set_matrix(q, 2, 3, two, &e) == OL_OK,
         "matrix shape: two stacked 1 x 3 blocks");
      memcpy(G, rank1, sizeof rank1);
      r = go(q, &script, OL_MSET_OF(B(NUCNORM)), &e);
      is_near(ol_run_last(r, OL_MET_NUCNORM), 3 + 6, 1e-14,
              "nucnorm: stacked blocks sum their norms (rows 3 and 6)");
      ol_run_free(r);
      ol_problem_free(q);
      q = ol_problem_custom(6, linear, 0, &n6, NULL, &e);
      ok(ol_problem_set_matrix(q, 2, 3, bad, &e) == OL_EINVAL &&
         strstr(e.msg, "blocks sum to 3 rows"),
         "nucnorm: blocks that do not sum to mrows are EINVAL (%s)", e.msg);
      ok(ol_problem_set_matrix(q, 2, 4, NULL, &e) == OL_EINVAL &&
         strstr(e.msg, "matrix shape 2 x 4"),
         "nucnorm: a shape that does not match n is EINVAL");
      ol_problem_free(q);
    }
  }
  ol_problem_free(p);
}

/* The metric set past its first word: the operations on ids 0, 63, 64
** and 127 (the set has at least OL_MSET_INIT_WORDS = 2 words), the
** constant initialiser against the set built at run time. */
static void test_mset (void)
{
  static const ol_mset c = OL_MSET(0, 63, 64, 127);
  static const int ids[4] = {0, 63, 64, 127};
  ol_mset a = OL_MSET_NONE, b = OL_MSET_NONE, u;
  int i, k, n, all;
  ok(OL_MSET_WORDS >= 2 && 64 * OL_MSET_WORDS >= OL_NMETRICS &&
     sizeof(ol_mset) == OL_MSET_WORDS * sizeof(uint64_t),
     "mset: %d words hold the %d metrics and ids to 127", OL_MSET_WORDS,
     OL_NMETRICS);
  ok(ol_mset_empty(a) && ol_mset_count(a) == 0 && ol_mset_next(a, 0) == -1,
     "mset: OL_MSET_NONE is empty");
  for (i = 0; i < 4; i++) ol_mset_add(&a, ids[i]);
  for (i = 0, all = 1; i < 4; i++)
    if (!ol_mset_has(a, ids[i])) all = 0;
  ok(all && !ol_mset_has(a, 1) && !ol_mset_has(a, 62) &&
     !ol_mset_has(a, 65) && !ol_mset_has(a, 126) && !ol_mset_has(a, 128) &&
     !ol_mset_has(a, -1) && ol_mset_count(a) == 4,
     "mset: add and has on ids 0, 63, 64, 127, and none beside them");
  ok(ol_mset_eq(a, c) && a.w[0] == (1 | (uint64_t)1 << 63) &&
     a.w[1] == (1 | (uint64_t)1 << 63),
     "mset: OL_MSET(0, 63, 64, 127) is that set, bit k of word k / 64");
  for (k = ol_mset_next(a, 0), n = 0, all = 1; k >= 0;
       k = ol_mset_next(a, k + 1), n++)
    if (n >= 4 || k != ids[n]) all = 0;
  ok(all && n == 4, "mset: next visits 0, 63, 64, 127 in order");
  n = 0;
  OL_MSET_FOR(k, c) n += k;
  is_int(n, 0 + 63 + 64 + 127, "mset: OL_MSET_FOR visits each member");
  ol_mset_del(&a, 63);
  ol_mset_del(&a, 64);
  ok(ol_mset_eq(a, OL_MSET_OF(0, 127)) && ol_mset_count(a) == 2,
     "mset: del clears bits 63 and 64 only");
  b = OL_MSET_OF(64, 5);
  u = ol_mset_or(a, b);
  ok(ol_mset_eq(u, OL_MSET_OF(0, 5, 64, 127)) && ol_mset_any(u, b) &&
     !ol_mset_any(a, b),
     "mset: or across the words, any");
  ok(ol_mset_eq(ol_mset_and(u, OL_MSET_OF(64, 127, 1)), OL_MSET_OF(64, 127))
     && ol_mset_eq(ol_mset_minus(u, b), a),
     "mset: and, minus across the words");
  u = ol_mset_all();
  ok(ol_mset_count(u) == OL_NMETRICS && ol_mset_has(u, OL_NMETRICS - 1) &&
     !ol_mset_has(u, OL_NMETRICS), "mset: all is the ids of the metrics");
}

/* The messages a run gives for a metric it cannot have, made from the
** table's templates, as they read before the table. */
static void test_unavail (ol_problem *p, ol_problem *box)
{
  const ol_method_type *gd = ol_method_find("gd");
  const ol_method_type *mala = ol_method_find("mala");
  char want[OL_ERRMAX];
  ol_err e;
  double *xs = p->xstar;
  p->xstar = NULL;
  ol_metric_unavail(OL_MET_DIST, p, gd, &e);
  snprintf(want, sizeof want, "dist needs a known minimiser x* (%s has "
           "none)", p->name);
  ok(e.code == OL_EINVAL && strcmp(e.msg, want) == 0,
     "unavail: dist names the problem (%s)", e.msg);
  p->xstar = xs;
  ol_metric_unavail(OL_MET_BIAS, p, mala, &e);
  ok(strcmp(e.msg, "bias: mala is not an optimizer") == 0,
     "unavail: bias for a sampler names the method (%s)", e.msg);
  ol_metric_unavail(OL_MET_VARIANCE, box, gd, &e);
  snprintf(want, sizeof want, "variance needs an unconstrained quadratic "
           "with known x* and f* (quadratic, linreg, fsquad, matlsq; %s %s)",
           box->name, !box->quadratic ? "is not one"
           : "has a constraint set");
  ok(strcmp(e.msg, want) == 0, "unavail: variance says what %s lacks (%s)",
     box->name, e.msg);
  ol_metric_unavail(OL_MET_KL, p, gd, &e);
  ok(strcmp(e.msg, "kl: gd is not a sampler") == 0,
     "unavail: kl for an optimizer (%s)", e.msg);
  ol_metric_unavail(OL_MET_W2, p, NULL, &e);
  snprintf(want, sizeof want, "w2 needs a target with a known mean and "
           "covariance (%s has none: gaussian, banana, mixture do)", p->name);
  ok(strcmp(e.msg, want) == 0, "unavail: w2 without a method (%s)", e.msg);
  p->kind = OL_DENSITY;
  ol_metric_unavail(OL_MET_SUPPORT, p, gd, &e);
  snprintf(want, sizeof want, "support needs an objective (%s is a "
           "density)", p->name);
  ok(strcmp(e.msg, want) == 0, "unavail: support names the kind (%s)",
     e.msg);
  p->kind = OL_OBJECTIVE;
  ol_metric_unavail(OL_MET_EXPLOIT, p, gd, &e);
  snprintf(want, sizeof want, "exploitability needs a bimatrix game on "
           "simplices (%s is not one)", p->name);
  ok(strcmp(e.msg, want) == 0, "unavail: exploitability (%s)", e.msg);
  ol_metric_unavail(OL_MET_LRMED, p, gd, &e);
  ok(strcmp(e.msg, "lrmed: gd has no effective learning rate") == 0,
     "unavail: a probe metric names the method (%s)", e.msg);
  ol_metric_unavail(OL_MET_STEPSIZE, p, gd, &e);
  snprintf(want, sizeof want, "stepsize is not available for %s run by gd",
           p->name);
  ok(strcmp(e.msg, want) == 0, "unavail: the generic message (%s)", e.msg);
}

int main (void)
{
  ol_err e;
  ol_problem *p, *box, *sx, *game;
  ol_mstate s;
  double work[32];
  int i, named;

  /* registry */
  for (i = 0, named = 1; i < OL_NMETRICS; i++)
    if (ol_metric_types[i]->name == NULL || ol_metric_types[i]->doc == NULL ||
        (ol_metric_find(ol_metric_types[i]->name) != i) ==
        ol_metric_defined(i))
      named = 0;
  ok(named, "metrics: every metric has a name and doc, found by name "
     "(unbound user slots by none)");
  for (i = 0, named = 1; i < OL_NMETRICS; i++)
    if (ol_metric_types[i]->avail == NULL || ol_metric_types[i]->eval == NULL)
      named = 0;
  ok(named, "metrics: every table entry has avail and eval");
  ok(ol_metric_find("exploitability") == OL_MET_EXPLOIT &&
     ol_metric_find("kkt") == OL_MET_KKT && ol_metric_find("nope") == -1,
     "metrics: find maps names to ids, unknown to -1");

  /* unconstrained objective, x = (3, 4), x* = (0, 0), f* = 1 */
  p = ol_problem_custom(2, zero, 0, NULL, NULL, &e);
  memset(&s, 0, sizeof s);
  s.p = p;
  s.n = 2;
  s.x = (double[]){3, 4};
  s.g = (double[]){-6, 8};
  s.f = 12.5;
  s.t = 10;
  s.work = work;
  is_near(eval(OL_MET_LOSS, &s), 12.5, 0, "metrics: loss is f");
  is_near(eval(OL_MET_GRADNORM, &s), 10, 0, "metrics: gradnorm of (-6, 8) "
          "is 10");
  is_near(eval(OL_MET_KKT, &s), 10, 0,
          "metrics: kkt equals gradnorm when unconstrained");
  ok(!ol_metric_types[OL_MET_DIST]->avail(p, OL_OPTIM) &&
     !ol_metric_types[OL_MET_SUBOPT]->avail(p, OL_OPTIM),
     "metrics: dist and subopt need x* and f*");
  p->xstar = calloc(2, sizeof(double));
  p->fstar = 1;
  ok(ol_metric_types[OL_MET_DIST]->avail(p, OL_OPTIM) &&
     ol_metric_types[OL_MET_SUBOPT]->avail(p, OL_OPTIM),
     "metrics: dist and subopt are available once x* and f* are known");
  is_near(eval(OL_MET_DIST, &s), 5, 0, "metrics: dist of (3, 4) to 0 is 5");
  is_near(eval(OL_MET_SUBOPT, &s), 11.5, 0, "metrics: subopt is f - f*");
  ok(!ol_metric_types[OL_MET_ENTROPY]->avail(p, OL_OPTIM) &&
     !ol_metric_types[OL_MET_EXPLOIT]->avail(p, OL_DYNAMIC) &&
     !ol_metric_types[OL_MET_ACCEPT]->avail(p, OL_OPTIM) &&
     ol_metric_types[OL_MET_ACCEPT]->avail(p, OL_SAMPLER),
     "metrics: entropy needs a simplex, exploitability a game, accept a "
     "sampler");
  s.accepted = 4;
  is_near(eval(OL_MET_ACCEPT, &s), 0.4, 1e-16,
          "metrics: accept is accepted / t");
  s.t = 0;
  s.accepted = 0;
  is_near(eval(OL_MET_ACCEPT, &s), 0, 0, "metrics: accept at t = 0 is 0");
  ok(ol_mset_eq(ol_metric_defaults(p, OL_OPTIM),
     OL_MSET_OF(B(LOSS), B(GRADNORM), B(DIST), B(SUBOPT), B(MINGRADNORM))),
     "metrics: optimizer defaults are loss gradnorm dist subopt "
     "mingradnorm");
  ok(ol_mset_eq(ol_metric_defaults(p, OL_SAMPLER),
     OL_MSET_OF(B(LOSS), B(GRADNORM), B(ACCEPT), B(DIST))),
     "metrics: sampler defaults are loss gradnorm accept dist");

  /* box [0, 1]^3: x = (0, 0.5, 1), g = (1, -1, -2): x - g = (-1, 1.5, 3)
  ** projects to (0, 1, 1), so the gap is ||(0, -0.5, 0)|| = 0.5 */
  box = ol_problem_custom(3, zero, 0, NULL, NULL, &e);
  box->set.kind = OL_SET_BOX;
  box->set.lo = calloc(3, sizeof(double));
  box->set.hi = malloc(3 * sizeof(double));
  for (i = 0; i < 3; i++) box->set.hi[i] = 1;
  s.p = box;
  s.n = 3;
  s.x = (double[]){0, 0.5, 1};
  s.g = (double[]){1, -1, -2};
  is_near(eval(OL_MET_KKT, &s), 0.5, 1e-16,
          "metrics: kkt on a box is ||x - P(x - g)|| (0.5)");
  ok(ol_mset_eq(ol_metric_defaults(box, OL_OPTIM),
     OL_MSET_OF(B(LOSS), B(GRADNORM), B(KKT), B(MINGRADNORM))),
     "metrics: a box-constrained optimizer adds kkt (no entropy)");

  /* simplices (2 | 3): x = (.5 .5 | .2 .3 .5), g = (1 2 | 3 0 1):
  ** FW gaps 1.5 - 1 = 0.5 and 1.1 - 0 = 1.1, total 1.6; entropy log 2 +
  ** -(.2 log .2 + .3 log .3 + .5 log .5) */
  sx = ol_problem_custom(5, zero, 0, NULL, NULL, &e);
  sx->set.kind = OL_SET_SIMPLEX;
  sx->set.nblocks = 2;
  sx->set.blocks[0] = 2;
  sx->set.blocks[1] = 3;
  s.p = sx;
  s.n = 5;
  s.x = (double[]){0.5, 0.5, 0.2, 0.3, 0.5};
  s.g = (double[]){1, 2, 3, 0, 1};
  is_near(eval(OL_MET_KKT, &s), 1.6, 1e-15,
          "metrics: kkt on simplices is the summed Frank-Wolfe gap (1.6)");
  is_near(eval(OL_MET_ENTROPY, &s),
          log(2) - (0.2 * log(0.2) + 0.3 * log(0.3) + 0.5 * log(0.5)),
          1e-15, "metrics: entropy sums the blocks' Shannon entropies");
  s.x = (double[]){1, 0, 0, 1, 0};
  is_near(eval(OL_MET_ENTROPY, &s), 0, 0,
          "metrics: entropy of vertices is 0 (0 log 0 = 0)");
  ok(ol_mset_eq(ol_metric_defaults(sx, OL_OPTIM),
     OL_MSET_OF(B(LOSS), B(GRADNORM), B(KKT), B(ENTROPY), B(MINGRADNORM))),
     "metrics: a simplex-constrained optimizer adds kkt and entropy");

  /* game: rock-paper-scissors, A(i, j) = payoff to the row player */
  {
    static const double A[9] = {0, -1, 1, 1, 0, -1, -1, 1, 0};
    game = ol_problem_custom(6, zero, 0, NULL, NULL, &e);
    game->kind = OL_GAME;
    game->rows = 3;
    game->cols = 3;
    game->payoff = malloc(sizeof A);
    memcpy(game->payoff, A, sizeof A);
    game->set.kind = OL_SET_SIMPLEX;
    game->set.nblocks = 2;
    game->set.blocks[0] = 3;
    game->set.blocks[1] = 3;
    s.p = game;
    s.n = 6;
    s.xavg = (double[]){1, 0, 0, 0, 1, 0};   /* rock vs paper */
    /* A y = column 2 = (-1, 0, 1): max 1; A'x = row 1 = (0, -1, 1): min -1 */
    /* NashConv = the duality gap 2; exploitability = NashConv / 2
    ** (OpenSpiel's two-player convention, issue 12) */
    is_near(eval(OL_MET_NASHCONV_AVG, &s), 2, 0,
            "metrics: nashconv_avg of (rock, paper) in RPS is 2");
    is_near(eval(OL_MET_EXPLOIT_AVG, &s), 1, 0,
            "metrics: exploitability_avg of (rock, paper) is NashConv / 2");
    s.x = s.xavg;
    is_near(eval(OL_MET_EXPLOIT, &s), 1, 0,
            "metrics: exploitability is of the last iterate, NashConv / 2");
    s.xavg = (double[]){0.5, 0.5, 0, 1.0 / 3, 1.0 / 3, 1.0 / 3};
    /* A y = 0 for uniform y: max 0; A'x = (0.5, -0.5, 0): min -0.5 */
    is_near(eval(OL_MET_NASHCONV_AVG, &s), 0.5, 1e-15,
            "metrics: nashconv_avg uses the average iterate (0.5)");
    /* kkt of a game is the gap of the last iterate: g = (-A y, A'x) */
    s.x = (double[]){1, 0, 0, 0, 1, 0};
    s.g = (double[]){1, 0, -1, 0, -1, 1};
    is_near(eval(OL_MET_KKT, &s), 2, 0,
            "metrics: kkt of a game equals the last iterate's duality gap");
    ok(ol_mset_eq(ol_metric_defaults(game, OL_DYNAMIC),
       OL_MSET_OF(B(LOSS), B(EXPLOIT), B(EXPLOIT_AVG), B(REGRET), B(ENTROPY),
                  B(VALUE), B(KKT))),
       "metrics: dynamic defaults are loss exploitability "
       "exploitability_avg regret entropy value kkt");
    free(game->payoff);
    game->payoff = NULL;
    ok(!ol_metric_types[OL_MET_EXPLOIT]->avail(game, OL_DYNAMIC),
       "metrics: exploitability needs a payoff matrix");
  }
  test_unavail(p, box);
  ol_problem_free(p);
  ol_problem_free(box);
  ol_problem_free(sx);
  ol_problem_free(game);
  test_series();
  test_mset();
  return done();
}
