/*
** tests/lib/olt.c -- shared helpers of the C unit tests (see olt.h).
*/
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "olt.h"
#include "tap.h"

/* == problems and parameters ============================================ */

ol_problem *olt_problem (const char *name, ol_err *e, ...)
{
  const ol_problem_type *t = ol_problem_type_find(name);
  ol_pval v[16];
  ol_err own;
  ol_problem *p;
  const char *key;
  va_list ap;
  int i;
  ol_err *err = e != NULL ? e : &own;
  ol_err_clear(err);
  if (t == NULL) {
    ol_err_set(err, OL_EINVAL, "no problem type %s", name);
    if (e == NULL) diag("%s", own.msg);
    return NULL;
  }
  memset(v, 0, sizeof v);
  for (i = 0; i < t->nparams; i++) v[i].num = t->params[i].def;
  va_start(ap, e);
  while ((key = va_arg(ap, const char *)) != NULL) {
    double x = va_arg(ap, double);
    i = ol_param_find(t->params, t->nparams, key);
    if (i >= 0) v[i].num = x;
    else diag("unknown parameter %s of %s", key, name);
  }
  va_end(ap);
  p = ol_problem_new(t, v, err);
  if (p == NULL && e == NULL) diag("%s: %s", name, own.msg);
  return p;
}

ol_problem *olt_quadratic (int n, double cond, int rotate)
{
  return olt_problem("quadratic", NULL, "n", (double)n, "cond", cond,
                     "rotate", (double)rotate, (char *)NULL);
}

static void vparams (const ol_method_type *m, double *par, va_list ap)
{
  const char *key;
  int i;
  for (i = 0; i < m->nparams; i++) par[i] = m->params[i].def;
  while ((key = va_arg(ap, const char *)) != NULL) {
    double v = va_arg(ap, double);
    i = ol_param_find(m->params, m->nparams, key);
    if (i >= 0) par[i] = v;
    else diag("unknown parameter %s of %s", key, m->name);
  }
}

void olt_params (const ol_method_type *m, double *par, ...)
{
  va_list ap;
  va_start(ap, par);
  vparams(m, par, ap);
  va_end(ap);
}

const ol_method_type *olt_method (const char *name, double *par, ...)
{
  const ol_method_type *m = ol_method_find(name);
  va_list ap;
  if (m == NULL) {
    diag("no method %s", name);
    return NULL;
  }
  va_start(ap, par);
  vparams(m, par, ap);
  va_end(ap);
  return m;
}

/* == runs ================================================================ */

ol_run_opts olt_opts (long iters, double tol, ol_mset metrics)
{
  ol_run_opts o;
  ol_run_opts_default(&o);
  o.iters = iters;
  o.tol = tol;
  o.metrics = metrics;
  return o;
}

ol_run *olt_run (const ol_problem *p, const ol_method_type *m,
                 const double *par, const ol_run_opts *o)
{
  ol_err e;
  ol_run *r;
  if (m == NULL) {
    diag("no such method");
    return NULL;
  }
  r = ol_run_new(p, m, par, o, &e);
  if (r == NULL) diag("%s: %s", m->name, e.msg);
  return r;
}

ol_run *olt_go (const ol_problem *p, const ol_method_type *m,
                const double *par, const ol_run_opts *o)
{
  ol_run *r = olt_run(p, m, par, o);
  if (r != NULL) ol_run_advance(r, o->iters);
  return r;
}

int olt_iterates (const ol_problem *p, const ol_method_type *m,
                  const double *par, const ol_run_opts *o, int k, double *X)
{
  ol_run *r = olt_run(p, m, par, o);
  int j, n = p->n;
  if (r == NULL) return 0;
  for (j = 0; j < k; j++) {
    if (ol_run_advance(r, 1) != 1) {
      diag("%s: stopped early: %s %s", m->name,
           ol_stop_name(ol_run_reason(r)), ol_run_message(r));
      ol_run_free(r);
      return 0;
    }
    memcpy(X + (size_t)j * n, ol_run_x(r), sizeof(double) * n);
  }
  ol_run_free(r);
  return 1;
}

int olt_two_steps (const ol_problem *p, const ol_method_type *m,
                   const double *par, const ol_run_opts *o, double *x1,
                   double *x2)
{
  size_t n = (size_t)p->n;
  double *X = malloc(sizeof(double) * 2 * n);
  int good = X != NULL && olt_iterates(p, m, par, o, 2, X);
  if (good) {
    memcpy(x1, X, sizeof(double) * n);
    memcpy(x2, X + n, sizeof(double) * n);
  }
  free(X);
  return good;
}

int olt_agree (const double *got, const double *want, int n, double tol)
{
  int i;
  for (i = 0; i < n; i++)
    if (!(fabs(got[i] - want[i]) <= tol * (1 + fabs(want[i])))) {
      diag("  x[%d]: want %.17g, got %.17g", i, want[i], got[i]);
      return 0;
    }
  return 1;
}

/* == oracles and finite differences ======================================= */

double olt_fval (const ol_problem *p, const double *x)
{
  double f = NAN;
  ol_err e;
  if (p->fdf(p->ud, x, &f, NULL, &e) != OL_OK) return NAN;
  return f;
}

double olt_gnorm (const ol_problem *p, const double *x)
{
  int i;
  double *g = calloc((size_t)p->n, sizeof *g), s = 0;
  ol_err e;
  if (p->fdf(p->ud, x, NULL, g, &e) != OL_OK) s = NAN;
  for (i = 0; i < p->n; i++) s += g[i] * g[i];
  free(g);
  return sqrt(s);
}

double olt_graderr (const ol_problem *p, const double *x)
{
  int i, n = p->n, m = p->kind == OL_GAME ? p->rows : 0;
  double *g = malloc(sizeof(double) * n), *w = malloc(sizeof(double) * n);
  double worst = 0, gmax = 1, f;
  ol_err e;
  p->fdf(p->ud, x, &f, g, &e);
  for (i = 0; i < n; i++) {
    if (i < m) g[i] = -g[i];
    if (fabs(g[i]) > gmax) gmax = fabs(g[i]);
  }
  memcpy(w, x, sizeof(double) * n);
  for (i = 0; i < n; i++) {
    double h = 1e-6 * (fabs(x[i]) > 1 ? fabs(x[i]) : 1), fp, fm, d;
    w[i] = x[i] + h;
    fp = olt_fval(p, w);
    w[i] = x[i] - h;
    fm = olt_fval(p, w);
    w[i] = x[i];
    d = fabs((fp - fm) / (2 * h) - g[i]);
    if (!(d <= worst)) worst = d;
  }
  free(g);
  free(w);
  return worst / gmax;
}

double olt_hesserr (const ol_problem *p, const double *x)
{
  int i, j, n = p->n;
  double *H = malloc(sizeof(double) * n * n);
  double *gp = malloc(sizeof(double) * n), *gm = malloc(sizeof(double) * n);
  double *w = malloc(sizeof(double) * n), worst = 0, hmax = 1;
  ol_err e;
  p->hess(p->ud, x, H, &e);
  for (i = 0; i < n * n; i++)
    if (fabs(H[i]) > hmax) hmax = fabs(H[i]);
  memcpy(w, x, sizeof(double) * n);
  for (j = 0; j < n; j++) {
    double h = 1e-6 * (fabs(x[j]) > 1 ? fabs(x[j]) : 1);
    w[j] = x[j] + h;
    p->fdf(p->ud, w, NULL, gp, &e);
    w[j] = x[j] - h;
    p->fdf(p->ud, w, NULL, gm, &e);
    w[j] = x[j];
    for (i = 0; i < n; i++) {
      double d = fabs((gp[i] - gm[i]) / (2 * h) - H[i * n + j]);
      if (!(d <= worst)) worst = d;
    }
  }
  free(H); free(gp); free(gm); free(w);
  return worst / hmax;
}

void olt_derivs (const char *label, const ol_problem *p, ol_rng *r,
                 double scale)
{
  int k, i, n = p->n;
  double *x = malloc(sizeof(double) * n), eg = 0, eh = 0;
  for (k = 0; k < 3; k++) {
    double d;
    if (p->kind == OL_GAME) {
      double s1 = 0, s2 = 0;
      for (i = 0; i < n; i++) {
        x[i] = ol_rng_uniform(r) + 0.01;
        if (i < p->rows) s1 += x[i]; else s2 += x[i];
      }
      for (i = 0; i < n; i++) x[i] /= i < p->rows ? s1 : s2;
    }
    else
      for (i = 0; i < n; i++) x[i] = p->x0[i] + scale * ol_rng_normal(r);
    d = olt_graderr(p, x);
    if (!(d <= eg)) eg = d;
    if (p->hess != NULL) {
      d = olt_hesserr(p, x);
      if (!(d <= eh)) eh = d;
    }
  }
  ok(eg < 1e-6, "%s: gradient matches central differences (rel err %.2g)",
     label, eg);
  if (p->hess != NULL)
    ok(eh < 1e-6, "%s: Hessian matches differences of the gradient "
       "(rel err %.2g)", label, eh);
  free(x);
}

ol_problem *olt_setproblem (int n, ol_fdf_fn fdf, void *ud, const ol_set *s,
                            const double *x0)
{
  ol_err e;
  ol_problem *p = ol_problem_custom(n, fdf, 0, ud, NULL, &e);
  if (p == NULL || ol_problem_set_set(p, s, &e) != OL_OK
      || (x0 != NULL && ol_problem_set_x0(p, x0, n, &e) != OL_OK)) {
    diag("olt_setproblem: %s", e.msg);
    ol_problem_free(p);
    return NULL;
  }
  return p;
}

ol_ctx *olt_nop_ctx;

int olt_nop_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  (void)st;
  (void)par;
  (void)e;
  olt_nop_ctx = c;
  return OL_OK;
}

static int nop_step (void *st, ol_ctx *c, ol_err *e)
{
  (void)st;
  (void)c;
  (void)e;
  return OL_OK;
}

const ol_method_type olt_nop = {
  .name = "nop",
  .family = OL_OPTIM,
  .doc = "does nothing (test)",
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = olt_nop_init,
  .step = nop_step,
  .probes = OL_MSET_NONE,
};
