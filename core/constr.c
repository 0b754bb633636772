/*
** core/constr.c -- general constraints: evaluation (with central
** differences for constraints without a gradient) and IPOPT's optimality
** error (Waechter & Biegler 2006, eqs. (5)-(6)); see constr.h.
*/
#include "constr.h"

#include "method.h"
#include "vec.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

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
  return ol_constr_kkt_scaled(p, x, g, lambda, NULL, k, work, e);
}

int ol_constr_kkt_scaled (const ol_problem *p, const double *x,
                          const double *g, const double *lambda,
                          const double *sc, ol_kkt *k, double *work,
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
    if (sc != NULL) {
      ci *= sc[i];
      if (lambda != NULL)
        for (j = 0; j < n; j++) gi[j] *= sc[i];
    }
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

double ol_constr_scale (double gmax)
{
  return isfinite(gmax) && gmax > 100 ? 100 / gmax : 1;
}

static void boxj (const ol_problem *p, int j, double *lo, double *hi)
{
  *lo = -INFINITY;
  *hi = INFINITY;
  if (p->set.kind == OL_SET_BOX) {
    *lo = p->set.lo[j];
    *hi = p->set.hi[j];
  }
}

void ol_constr_zfit (const ol_problem *p, const double *x, const double *r,
                     double *zl, double *zu)
{
  int j;
  double lo, hi;
  for (j = 0; j < p->n; j++) {
    boxj(p, j, &lo, &hi);
    zl[j] = isfinite(lo) && r[j] > 0 ? r[j] / (1 + fmax(0, x[j] - lo)) : 0;
    zu[j] = isfinite(hi) && r[j] < 0 ? -r[j] / (1 + fmax(0, hi - x[j]))
      : 0;
  }
}

#define PUSH_K1 1e-2   /* IPOPT's bound_push */
#define PUSH_K2 1e-2   /* IPOPT's bound_frac */

int ol_constr_push (const ol_problem *p, double *x, char *note, size_t size)
{
  int j, moved = 0;
  double lo, hi;
  if (size > 0) note[0] = '\0';
  for (j = 0; j < p->n; j++) {
    double old = x[j], w;
    boxj(p, j, &lo, &hi);
    w = isfinite(lo) && isfinite(hi) ? hi - lo : INFINITY;
    if (x[j] < lo)
      x[j] = lo + fmin(PUSH_K1 * fmax(1, fabs(lo)), PUSH_K2 * w);
    else if (x[j] > hi)
      x[j] = hi - fmin(PUSH_K1 * fmax(1, fabs(hi)), PUSH_K2 * w);
    else continue;
    if (moved++ == 0 && size > 0)
      snprintf(note, size, "x0[%d] = %.15g is outside its bounds [%g, %g]: "
               "moved to %.15g (IPOPT's bound push: 1e-2 inside)", j + 1,
               old, lo, hi, x[j]);
  }
  if (moved > 1 && size > 0 && strlen(note) + 40 < size)
    snprintf(note + strlen(note), size - strlen(note), "; %d coordinates "
             "moved in all", moved);
  return moved;
}

/* h = 1/2 sum viol_i^2 (scaled), its gradient into g (may be NULL), the
** unscaled max violation into *vmax. */
static int restore_h (const ol_problem *p, const double *x, const double *sc,
                      double *h, double *g, double *vmax, double *gi,
                      double *fw, long *nval, long *ngrad, ol_err *e)
{
  int i, j, n = p->n, rc;
  double ci, v;
  *h = 0;
  *vmax = 0;
  if (g != NULL) memset(g, 0, (size_t)n * sizeof *g);
  for (i = 0; i < p->con.m; i++) {
    double s = sc != NULL ? sc[i] : 1;
    rc = ol_problem_ceval(p, i, x, &ci, g != NULL ? gi : NULL, fw, nval,
                          ngrad, e);
    if (rc != OL_OK) return rc;
    v = p->con.kind[i] == OL_CON_EQ ? ci : fmin(0, ci);
    *vmax = fmax(*vmax, fabs(v));
    v *= s;
    *h += 0.5 * v * v;
    if (g != NULL && v != 0)
      for (j = 0; j < n; j++) g[j] += v * s * gi[j];
  }
  return OL_OK;
}

/* ||P(x - a g) - x||_inf, and P(x - a g) - x into d (may be NULL) */
static double pstep (const ol_problem *p, const double *x, const double *g,
                     double a, double *d)
{
  int j;
  double r = 0, lo, hi, y;
  for (j = 0; j < p->n; j++) {
    boxj(p, j, &lo, &hi);
    y = x[j] - a * g[j];
    y = y < lo ? lo : y > hi ? hi : y;
    if (d != NULL) d[j] = y - x[j];
    r = fmax(r, fabs(y - x[j]));
  }
  return r;
}

int ol_constr_restore (const ol_problem *p, double *x, const double *sc,
                       int maxit, double *viol, double *work, long *nval,
                       long *ngrad, ol_err *e)
{
  int n = p->n, k, j, rc, stall = 0;
  double *g = work, *gt = work + n, *xt = work + 2 * n, *d = work + 3 * n;
  double *gi = work + 4 * n, *fw = work + 5 * n;
  double h, ht = 0, vt = 0, pg0, pg, lam, href;
  /* (1) h and its gradient at the start; the first spectral step */
  if ((rc = restore_h(p, x, sc, &h, g, viol, gi, fw, nval, ngrad, e))
      != OL_OK)
    return rc;
  pg0 = pstep(p, x, g, 1, NULL);
  lam = pg0 > 0 ? fmin(1e30, fmax(1e-30, 1 / pg0)) : 1;
  href = h;
  for (k = 0; k < maxit && h > 0; k++) {
    double gd, a = 1, sy, ss;
    int i;
    /* (2) stationary for the violation: a local minimum of h */
    pg = pstep(p, x, g, 1, NULL);
    if (pg <= 1e-10 * fmax(1, pg0)) break;
    /* (3) spectral projected direction and an Armijo search along it */
    pstep(p, x, g, lam, d);
    gd = ol_vec_dot(g, d, n);
    if (!(gd < 0)) break;
    for (i = 0; i < 40; i++, a *= 0.5) {
      for (j = 0; j < n; j++) xt[j] = x[j] + a * d[j];
      rc = restore_h(p, xt, sc, &ht, gt, &vt, gi, fw, nval, ngrad, e);
      if (rc == OL_EDOM) continue;
      if (rc != OL_OK) return rc;
      if (ht <= h + 1e-4 * a * gd) break;
    }
    if (i == 40) break;
    /* (4) the Barzilai-Borwein step for the next direction */
    sy = ss = 0;
    for (j = 0; j < n; j++) {
      double sj = xt[j] - x[j], yj = gt[j] - g[j];
      sy += sj * yj;
      ss += sj * sj;
    }
    lam = sy > 0 ? fmin(1e30, fmax(1e-30, ss / sy)) : 1e30;
    memcpy(x, xt, (size_t)n * sizeof *x);
    memcpy(g, gt, (size_t)n * sizeof *g);
    h = ht;
    *viol = vt;
    /* (5) stalled: less than 1e-14 h relative over 20 iterations */
    if (++stall >= 20) {
      if (href - h <= 1e-14 * href) break;
      href = h;
      stall = 0;
    }
  }
  return OL_OK;
}

/* Both read the method's result hook (method.h): auglag's and sqp's
** answer lambda, zl and zu. */
const double *ol_constr_z (const ol_method_type *m, const void *st,
                           int which)
{
  const double *v;
  int rows, cols;
  return ol_method_result(m, st, which ? "zu" : "zl", &v, &rows, &cols)
    ? v : NULL;
}

const double *ol_constr_lambda (const ol_method_type *m, const void *st)
{
  const double *v;
  int rows, cols;
  return ol_method_result(m, st, "lambda", &v, &rows, &cols) ? v : NULL;
}
