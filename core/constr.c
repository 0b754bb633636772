/*
** core/constr.c -- general constraints: evaluation (with central
** differences for constraints without a gradient) and IPOPT's optimality
** error (Waechter & Biegler 2006, eqs. (5)-(6)); see constr.h.
*/
#include "constr.h"

#include "method.h"

#include <float.h>
#include <math.h>
#include <string.h>

extern const ol_method_type ol_optim_auglag;
extern const ol_method_type ol_optim_sqp;

int ol_problem_ceval (const ol_problem *p, int i, const double *x,
                      double *c, double *g, double *work, long *nval,
                      long *ngrad, ol_err *e)
{
  const ol_constr *k = &p->con;
  int rc, j, n = p->n;
  if (i < 0 || i >= k->m)
    return ol_err_set(e, OL_EINVAL, "no constraint %d", i + 1);
  if (g == NULL || !k->fd[i]) {
    rc = k->fn(k->ud, i, x, c, g, e);
    if (rc != OL_OK) return rc;
    if (nval != NULL && c != NULL) (*nval)++;
  } else {
    double h0 = cbrt(DBL_EPSILON);
    if (c != NULL) {
      if ((rc = k->fn(k->ud, i, x, c, NULL, e)) != OL_OK) return rc;
      if (nval != NULL) (*nval)++;
    }
    memcpy(work, x, (size_t)n * sizeof *x);
    for (j = 0; j < n; j++) {
      double xj = x[j], cp, cm, xp, xm;
      double h = h0 * (fabs(xj) > 1 ? fabs(xj) : 1);
      xp = work[j] = xj + h;
      rc = k->fn(k->ud, i, work, &cp, NULL, e);
      if (rc != OL_OK) return rc;
      xm = work[j] = xj - h;
      rc = k->fn(k->ud, i, work, &cm, NULL, e);
      work[j] = xj;
      if (rc != OL_OK) return rc;
      g[j] = (cp - cm) / (xp - xm);
    }
    if (nval != NULL) *nval += 2L * n;
  }
  if (g != NULL && ngrad != NULL) (*ngrad)++;
  if (c != NULL && !isfinite(*c))
    return ol_err_set(e, OL_EDOM, "constraint %d: non-finite value (%g)",
                      i + 1, ol_shown(*c));
  if (g != NULL && !ol_allfinite(g, n))
    return ol_err_set(e, OL_EDOM, "constraint %d: non-finite gradient",
                      i + 1);
  return OL_OK;
}

#define S_MAX 100.0

int ol_constr_kkt (const ol_problem *p, const double *x, const double *g,
                   const double *lambda, ol_kkt *k, double *work,
                   ol_err *e)
{
  const ol_set *set = &p->set;
  int i, j, n = p->n, m = p->con.m, rc;
  double *r = work, *gi = work + n, *fw = work + 2 * n;
  double stat = 0, feas = 0, comp = 0, l1 = 0, z1 = 0, l1i = 0;
  memcpy(r, g, (size_t)n * sizeof *r);
  k->nval = k->ngrad = 0;
  for (i = 0; i < m; i++) {
    double ci;
    int ineq = p->con.kind[i] == OL_CON_INEQ;
    rc = ol_problem_ceval(p, i, x, &ci, lambda != NULL ? gi : NULL, fw,
                          &k->nval, &k->ngrad, e);
    if (rc != OL_OK) return rc;
    feas = fmax(feas, ineq ? fmax(0, -ci) : fabs(ci));
    if (lambda == NULL) continue;
    for (j = 0; j < n; j++) r[j] -= lambda[i] * gi[j];
    l1 += fabs(lambda[i]);
    if (ineq) {
      l1i += fabs(lambda[i]);
      comp = fmax(comp, fabs(lambda[i] * ci));
    }
  }
  for (j = 0; j < n; j++) {
    double lo = -INFINITY, hi = INFINITY, zl = 0, zu = 0, res;
    if (set->kind == OL_SET_BOX) {
      lo = set->lo[j];
      hi = set->hi[j];
    }
    if (x[j] < lo) feas = fmax(feas, lo - x[j]);
    if (x[j] > hi) feas = fmax(feas, x[j] - hi);
    if (lambda == NULL) continue;
    /* z balances the two residuals of coordinate j: with gap d to the
    ** bound r pushes against, z = |r| / (1 + d) makes both |r| - z and
    ** z d equal |r| d / (1 + d) */
    if (isfinite(lo) && r[j] > 0) zl = r[j] / (1 + fmax(0, x[j] - lo));
    if (isfinite(hi) && r[j] < 0) zu = -r[j] / (1 + fmax(0, hi - x[j]));
    res = r[j] - zl + zu;
    stat = fmax(stat, fabs(res));
    if (zl > 0) comp = fmax(comp, zl * fabs(x[j] - lo));
    if (zu > 0) comp = fmax(comp, zu * fabs(hi - x[j]));
    z1 += zl + zu;
  }
  k->feas = feas;
  if (lambda == NULL) {
    k->stat = k->comp = k->err = k->sd = k->sc = NAN;
    return OL_OK;
  }
  k->sd = fmax(S_MAX, (l1 + z1) / (m + n)) / S_MAX;
  k->sc = fmax(S_MAX, (z1 + l1i) / (n + p->con.mineq)) / S_MAX;
  k->stat = stat;
  k->comp = comp;
  k->err = fmax(fmax(stat / k->sd, feas), comp / k->sc);
  return OL_OK;
}

const double *ol_constr_lambda (const ol_method_type *m, const void *st)
{
  if (m == &ol_optim_auglag && st != NULL) return ol_auglag_lambda(st);
  if (m == &ol_optim_sqp && st != NULL) return ol_sqp_lambda(st);
  return NULL;
}
