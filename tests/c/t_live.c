/*
** tests/c/t_live.c -- live parameters: ol_run_set, the change log
** ol_run_changes and its replay through ol_run_opts.changes; the log in a
** packed run (core/runpack.h).
**
** Truth: gradient descent on f = L/2 ||x||^2 has the closed form
** x_t = prod_{k<t} (1 - lr_k L) x_0, lr_k the step size in force at step
** k + 1.  With L = 8 and step sizes 1/16, 3/16, 1/32 the factors
** 1 - lr L are 1/2, -1/2 and 3/4 and x_0 is dyadic, so every iterate is
** exact in binary: the comparison is to 1e-15 relative (it holds to the
** bit).  The registry's gd is stepped (its lr is live, core/optim/gd.c).
*/
#include "olt.h"
#include "runpack.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N 3
#define LCURV 8.0

static int q_fdf (void *ud, const double *x, double *f, double *g, ol_err *e)
{
  int i;
  (void)ud;
  (void)e;
  if (f != NULL) {
    double s = 0;
    for (i = 0; i < N; i++) s += 0.5 * LCURV * x[i] * x[i];
    *f = s;
  }
  if (g != NULL)
    for (i = 0; i < N; i++) g[i] = LCURV * x[i];
  return OL_OK;
}

static const double X0[N] = {1, -2, 0.375};

static ol_problem *quad8 (void)
{
  ol_err e;
  ol_problem *p = ol_problem_custom(N, q_fdf, 0, NULL, NULL, &e);
  if (p == NULL) diag("quad8: %s", e.msg);
  else if (ol_problem_set_x0(p, X0, N, &e) != OL_OK) {
    diag("quad8 x0: %s", e.msg);
    ol_problem_free(p);
    return NULL;
  }
  return p;
}

/* max_i |x_i - f x0_i| / max(1, |f x0_i|) */
static double relerr (const double *x, double f)
{
  double m = 0;
  int i;
  for (i = 0; i < N; i++) {
    double w = f * X0[i], d = fabs(x[i] - w) / fmax(1, fabs(w));
    m = d > m ? d : m;
  }
  return m;
}

static int same_changes (const ol_run *a, const ol_run *b)
{
  int na, nb;
  const ol_change *ca = ol_run_changes(a, &na), *cb = ol_run_changes(b, &nb);
  int i;
  if (na != nb) {
    diag("%d changes against %d", na, nb);
    return 0;
  }
  for (i = 0; i < na; i++)
    if (ca[i].t != cb[i].t || ca[i].param != cb[i].param ||
        memcmp(&ca[i].value, &cb[i].value, sizeof ca[i].value) != 0) {
      diag("change %d: t %ld param %d value %.17g against t %ld param %d "
           "value %.17g", i + 1, ca[i].t, ca[i].param, ca[i].value,
           cb[i].t, cb[i].param, cb[i].value);
      return 0;
    }
  return 1;
}

/* A replay of r's log on p with the same budget and the parameters r
** started with (par; ol_run_params gives the current ones), stepped to
** its end. */
static ol_run *replay (const ol_problem *p, const ol_run *r,
                       const double *par)
{
  ol_run_opts o = *ol_run_options(r);
  int n;
  o.changes = ol_run_changes(r, &n);
  o.nchanges = n;
  o.x0 = NULL;
  return olt_go(p, ol_run_method(r), par, &o);
}

static void closed_form (void)
{
  const ol_method_type *gd = ol_method_find("gd");
  ol_problem *p = quad8();
  ol_run_opts o = olt_opts(20, 0, OL_MSET_EMPTY);
  double par[1] = {1.0 / 16}, fac = 1, worst = 0;
  ol_run *r, *r2;
  ol_err e;
  int t, n;
  const ol_change *ch;
  if (p == NULL || gd == NULL) {
    ok(0, "gd and the quadratic exist");
    return;
  }
  r = olt_run(p, gd, par, &o);
  for (t = 0; r != NULL && t < 20; t++) {
    if (t == 10)
      ok(ol_run_set(r, 0, 3.0 / 16, &e) == OL_OK, "lr set to 3/16 at t = 10"
         " (%s)", e.msg);
    ol_run_step(r);
    fac *= 1 - (t < 10 ? 1.0 / 16 : 3.0 / 16) * LCURV;
    if (relerr(ol_run_x(r), fac) > worst) worst = relerr(ol_run_x(r), fac);
  }
  ok(r != NULL && worst <= 1e-15, "gd with lr 1/16 then 3/16 from t = 10: "
     "x_t = prod (1 - lr_k L) x_0 for t = 1..20 (max rel err %.3g <= 1e-15)",
     worst);
  ch = ol_run_changes(r, &n);
  ok(n == 1 && ch[0].t == 10 && ch[0].param == 0 && ch[0].value == 3.0 / 16,
     "the log holds one change: t = 10, param 0 (lr), 3/16");
  ok(ol_run_params(r)[0] == 3.0 / 16, "the run's parameters show the new "
     "lr");
  /* replay */
  par[0] = 1.0 / 16;
  r2 = replay(p, r, par);
  ok(r2 != NULL && memcmp(ol_run_x(r2), ol_run_x(r), N * sizeof(double))
     == 0, "the replay of the log gives the same x bytes");
  ok(r2 != NULL && same_changes(r, r2), "and the same log");
  ok(r2 != NULL && ol_run_len(r2) == ol_run_len(r) &&
     memcmp(ol_run_series(r2, OL_MET_LOSS), ol_run_series(r, OL_MET_LOSS),
            (size_t)ol_run_len(r) * sizeof(double)) == 0,
     "and the same recorded f series");
  /* a stopped run takes no change, an extended one does */
  ok(ol_run_set(r, 0, 1.0 / 32, &e) == OL_EINVAL &&
     strstr(e.msg, "stopped (budget)") != NULL &&
     strstr(e.msg, "extend") != NULL,
     "a run stopped by its budget refuses a change, saying to extend it "
     "(%s)", e.msg);
  ok(ol_run_extend(r, 30, &e) == OL_OK &&
     ol_run_set(r, 0, 1.0 / 32, &e) == OL_OK, "extended, it takes one");
  while (ol_run_step(r) == OL_STOP_NONE) {}
  for (t = 20; t < 30; t++) fac *= 1 - LCURV / 32;
  ok(ol_run_iter(r) == 30 && relerr(ol_run_x(r), fac) <= 1e-15,
     "x_30 = (3/4)^10 x_20 (rel err %.3g)", relerr(ol_run_x(r), fac));
  ol_run_halt(r, OL_STOP_STOPPED);
  ol_run_free(r2);
  ol_run_free(r);
  ol_problem_free(p);
}

static void refusals (void)
{
  ol_problem *p = olt_quadratic(4, 10, 0);
  ol_err e;
  double par[16];
  const ol_method_type *m;
  ol_run *r;
  int k;
  /* L-BFGS: nothing live */
  m = olt_method("lbfgs", par, (char *)NULL);
  r = m != NULL ? olt_run(p, m, par, NULL) : NULL;
  k = m != NULL ? ol_param_find(m->params, m->nparams, "m") : -1;
  ok(r != NULL && k >= 0 && ol_run_set(r, k, 3, &e) == OL_EINVAL &&
     strstr(e.msg, "lbfgs.m cannot change during a run") != NULL &&
     strstr(e.msg, "none of lbfgs's parameters can") != NULL,
     "lbfgs.m is refused: %s", r != NULL ? e.msg : "");
  ol_run_free(r);
  /* adam: beta1 refused, naming lr and eps */
  m = olt_method("adam", par, (char *)NULL);
  r = m != NULL ? olt_run(p, m, par, NULL) : NULL;
  k = m != NULL ? ol_param_find(m->params, m->nparams, "beta1") : -1;
  ok(r != NULL && k >= 0 && ol_run_set(r, k, 0.5, &e) == OL_EINVAL &&
     strstr(e.msg, "adam.beta1 cannot change during a run") != NULL &&
     strstr(e.msg, "live parameters: lr, eps") != NULL,
     "adam.beta1 is refused, the live ones named: %s", e.msg);
  /* out of range, NaN, no such index */
  k = m != NULL ? ol_param_find(m->params, m->nparams, "lr") : -1;
  ok(r != NULL && ol_run_set(r, k, -1, &e) == OL_EINVAL &&
     strstr(e.msg, "lr = -1 is out of range [0") != NULL,
     "lr = -1 names the range: %s", e.msg);
  ok(r != NULL && ol_run_set(r, k, NAN, &e) == OL_EINVAL &&
     strstr(e.msg, "nan") != NULL, "lr = nan is refused: %s", e.msg);
  ok(r != NULL && ol_run_set(r, 99, 1, &e) == OL_EINVAL &&
     strstr(e.msg, "no parameter 100") != NULL, "param 99: %s", e.msg);
  {
    int n;
    ol_run_changes(r, &n);
    ok(n == 0, "refused changes are not logged");
  }
  ol_run_free(r);
  /* bad replay lists name the entry */
  {
    ol_run_opts o = olt_opts(10, 0, OL_MSET_EMPTY);
    ol_change bad[2] = {{3, 0, 0.1}, {2, 0, 0.2}};
    m = ol_method_find("adam");
    o.changes = bad;
    o.nchanges = 2;
    ok(ol_run_new(p, m, NULL, &o, &e) == NULL &&
       strstr(e.msg, "changes[2]: t = 2") != NULL,
       "a decreasing replay time is refused: %s", e.msg);
    bad[0].param = 1;
    ok(ol_run_new(p, m, NULL, &o, &e) == NULL &&
       strstr(e.msg, "changes[1]: adam.beta1 cannot change") != NULL,
       "a non-live replayed change is refused: %s", e.msg);
    bad[0].param = 0;
    bad[0].value = -3;
    ok(ol_run_new(p, m, NULL, &o, &e) == NULL &&
       strstr(e.msg, "changes[1]: lr = -3 is out of range") != NULL,
       "an out-of-range replayed change is refused: %s", e.msg);
    bad[0].t = -1;
    bad[0].value = 0.1;
    ok(ol_run_new(p, m, NULL, &o, &e) == NULL &&
       strstr(e.msg, "changes[1]: t = -1") != NULL,
       "a negative time is refused: %s", e.msg);
  }
  ol_problem_free(p);
}

/* Changes at t = 0 (live and replayed), several at one time, and many. */
static void edges (void)
{
  const ol_method_type *gd = ol_method_find("gd");
  ol_problem *p = quad8();
  ol_run_opts o = olt_opts(1, 0, OL_MSET_EMPTY);
  double par[1] = {1.0 / 16};
  ol_change at0[3] = {{0, 0, 1.0 / 32}, {0, 0, 3.0 / 16}, {5, 0, 1.0 / 32}};
  ol_run *r, *r2;
  ol_err e;
  int n, i;
  /* replayed at t = 0, two at one time: the last one holds; the one due
  ** after the budget is not applied, nor logged */
  o.changes = at0;
  o.nchanges = 3;
  r = olt_go(p, gd, par, &o);
  ok(r != NULL && relerr(ol_run_x(r), -0.5) <= 1e-15,
     "changes replayed at t = 0 act on step 1, the last of two wins: "
     "x_1 = -x_0 / 2");
  ol_run_changes(r, &n);
  ok(n == 2, "the log holds the two applied (a change due after the budget "
     "is not applied), %d", n);
  ol_run_free(r);
  /* set live at t = 0 */
  o = olt_opts(1, 0, OL_MSET_EMPTY);
  r = olt_run(p, gd, par, &o);
  ok(r != NULL && ol_run_set(r, 0, 3.0 / 16, &e) == OL_OK &&
     ol_run_step(r) == OL_STOP_BUDGET && relerr(ol_run_x(r), -0.5) <= 1e-15,
     "a change set before the first step acts on it");
  ol_run_free(r);
  /* many changes: one or two before every step of 3000, lr cycling 1/16,
  ** 3/16, 1/32 (x underflows to 0 long before the end, so the check is
  ** on bytes and on the log, not on the closed form) */
  o = olt_opts(3000, 0, OL_MSET_EMPTY);
  r = olt_run(p, gd, par, &o);
  for (i = 0; r != NULL && i < 3000; i++) {
    static const double lrs[3] = {1.0 / 16, 3.0 / 16, 1.0 / 32};
    if (ol_run_set(r, 0, lrs[i % 3], &e) != OL_OK) break;
    if (i % 2 == 0 && ol_run_set(r, 0, lrs[(i + 1) % 3], &e) != OL_OK) break;
    ol_run_step(r);
  }
  ol_run_changes(r, &n);
  ok(n == 4500, "4500 changes logged over 3000 steps, %d", n);
  r2 = r != NULL ? replay(p, r, par) : NULL;
  ok(r2 != NULL && memcmp(ol_run_x(r2), ol_run_x(r), N * sizeof(double))
     == 0 && same_changes(r, r2),
     "their replay: the same x bytes and the same log");
  ol_run_free(r2);
  ol_run_free(r);
  ol_problem_free(p);
}

/* The bias shadow (the same method without noise) takes the changes too:
** on the registry quadratic with cond 1 (H = I, f* = 0, x0 = ones),
** bias_t = f(xbar_t) = n/2 (prod (1 - lr_k))^2 whatever the noise. */
static void shadow (void)
{
  const ol_method_type *gd = ol_method_find("gd");
  ol_problem *p = olt_quadratic(2, 1, 0);
  ol_noise nz;
  ol_run_opts o = olt_opts(20, 0, OL_MSET_OF(OL_MET_BIAS, OL_MET_LOSS));
  double par[1] = {0.25}, fac, want;
  ol_run *r, *r2;
  ol_err e;
  int t;
  memset(&nz, 0, sizeof nz);
  nz.kind = OL_NOISE_GAUSS;
  nz.sigma = 0.5;
  nz.nu = 4;
  nz.batch = 1;
  if (p == NULL || ol_problem_set_noise(p, &nz, &e) != OL_OK) {
    ok(0, "noisy quadratic: %s", p != NULL ? e.msg : "");
    ol_problem_free(p);
    return;
  }
  r = olt_run(p, gd, par, &o);
  for (t = 0; r != NULL && t < 20; t++) {
    if (t == 10) ol_run_set(r, 0, 0.75, &e);
    ol_run_step(r);
  }
  fac = pow(0.75, 10) * pow(0.25, 10);
  want = fac * fac;                    /* n/2 = 1 */
  ok(r != NULL && fabs(ol_run_last(r, OL_MET_BIAS) - want) <= 1e-15 * want,
     "bias at t = 20 is f(xbar_20) with xbar the noise-free gd under the "
     "same change: %.17g vs %.17g", r != NULL ? ol_run_last(r, OL_MET_BIAS)
     : NAN, want);
  r2 = r != NULL ? replay(p, r, par) : NULL;
  ok(r2 != NULL && memcmp(ol_run_x(r2), ol_run_x(r), 2 * sizeof(double))
     == 0 && ol_run_last(r2, OL_MET_BIAS) == ol_run_last(r, OL_MET_BIAS),
     "the replay (same seed, same noise): the same x bytes and bias");
  ol_run_free(r2);
  ol_run_free(r);
  ol_problem_free(p);
}

/* ol_run_setcheck changes nothing; a packed run carries its log, and a
** damaged log is refused by name. */
static void setcheck_pack (void)
{
  const ol_method_type *gd = ol_method_find("gd");
  ol_problem *p = quad8();
  ol_run_opts o = olt_opts(20, 0, OL_MSET_EMPTY);
  double par[1] = {1.0 / 16};
  ol_run *r, *q;
  ol_err e;
  int n;
  size_t len;
  unsigned char *buf;
  r = olt_run(p, gd, par, &o);
  ok(r != NULL && ol_run_setcheck(r, 0, 3.0 / 16, &e) == OL_OK &&
     ol_run_params(r)[0] == 1.0 / 16 && (ol_run_changes(r, &n), n == 0),
     "ol_run_setcheck passes a good change and makes none");
  ok(r != NULL && ol_run_setcheck(r, 0, -1, &e) == OL_EINVAL,
     "ol_run_setcheck refuses lr = -1: %s", e.msg);
  ol_run_advance(r, 5);
  ol_run_set(r, 0, 3.0 / 16, &e);
  ol_run_advance(r, 5);
  ol_run_set(r, 0, 1.0 / 32, &e);
  ol_run_advance(r, 10);
  buf = ol_run_pack(r, &len, &e);
  q = olt_run(p, gd, par, &o);
  ok(buf != NULL && q != NULL && ol_run_unpack(q, buf, len, &e) == OL_OK &&
     same_changes(r, q) && ol_run_params(q)[0] == 1.0 / 32,
     "a packed run restores its change log and the parameters in force");
  ol_run_free(q);
  /* the bytes end with the last change: t, param, value (runpack.c) */
  if (buf != NULL) {
    int bad = 7;
    memcpy(buf + len - sizeof(double) - sizeof(int), &bad, sizeof bad);
    q = olt_run(p, gd, par, &o);
    ok(q != NULL && ol_run_unpack(q, buf, len, &e) == OL_EINVAL &&
       strstr(e.msg, "change 2: parameter 8 is not a live parameter of gd")
       != NULL, "a damaged change is refused by name: %s", e.msg);
    ol_run_free(q);
  }
  free(buf);
  ol_run_free(r);
  ol_problem_free(p);
}

int main (void)
{
  closed_form();
  refusals();
  edges();
  shadow();
  setcheck_pack();
  return done();
}
