/*
** core/problems/bounded.c -- densities from log p, and Stan's bound
** transforms: sampling a constrained density on the unconstrained scale.
**
** ol_problem_density wraps a problem whose oracle gives log p (the sign a
** user writes) into a density whose oracle is the potential on the
** unconstrained scale u, coordinate by coordinate (Stan Reference Manual,
** "Constraint transforms": lower, upper and lower-upper bounds):
**
**   x_i = T_i(u_i)  lower only  lo + exp(u)        dx/du = exp(u)
**                   upper only  hi - exp(u)        dx/du = -exp(u)
**                   both        lo + (hi - lo) s   dx/du = (hi - lo) s (1-s)
**                               s = 1 / (1 + exp(-u))
**                   neither     u                  dx/du = 1
**   U(u) = -log p(x) - sum_i log |dx_i/du_i|
**   dU/du_i = -(d log p / dx_i) dx_i/du_i - d log|dx_i/du_i| / du_i,
**   the last term 1 for one bound, 1 - 2 s for two, 0 for none.
** When log p has a Hessian Hx (a traced Lua log p, lua/lad.c), so has U:
**   d2U/du_i du_j = -Hx_ij T_i' T_j' - [i = j] (g_i T_i'' + c_i),
**   g = grad log p; T'' = T' for one bound, (hi - lo) s (1-s) (1 - 2 s)
**   for two; c_i = d2 log|T_i'| / du_i^2 = -2 s (1 - s) for two, else 0.
**
** log s and log(1 - s) are -softplus(-u) and -softplus(u), and x on a
** two-sided bound is computed from the nearer end (hi - (hi - lo) s(-u)
** for u > 0), so neither loses digits for large |u|.  Far out, exp(u)
** underflows and x lands on its bound (or overflows to infinity on the
** open side of a one-sided bound), where log p may not be finite: the
** oracle's non-finite value is then the caller's to handle (samplers
** reject such a proposal).
**
** The wrapper keeps scratch for x and grad log p in its ud.  A nested
** call (a Lua logp that evaluates its own problem) overwrites them, so
** the oracle reads x only before calling log p, and grad log p only after
** it returns, and takes dx/du from u itself: nesting is safe.  Not
** thread-safe (as every problem with scratch).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ol.h"
#include "problem.h"

enum { B_NONE, B_LOWER, B_UPPER, B_BOTH };

typedef struct bounded {
  ol_problem *logp;         /* the log p oracle (owned) */
  int n;
  int any;                  /* some coordinate is bounded */
  unsigned char *kind;      /* B_* per coordinate (owned) */
  double *lo, *hi;          /* bounds, n each (owned) */
  double *x, *gx;           /* scratch: T(u), grad log p at T(u) */
  double *gh;               /* scratch of the Hessian: grad log p (owned) */
  ol_transform t;           /* lo, hi point at the arrays above */
} bounded;

static void bounded_free (void *ud)
{
  bounded *B = ud;
  if (B == NULL) return;
  ol_problem_free(B->logp);
  free(B->kind);
  free(B->lo);
  free(B->hi);
  free(B->x);
  free(B->gx);
  free(B->gh);
  free(B);
}

/* 1 / (1 + exp(-u)) without overflow. */
static double inv_logit (double u)
{
  if (u >= 0) return 1 / (1 + exp(-u));
  {
    double t = exp(u);
    return t / (1 + t);
  }
}

/* log(1 + exp(z)) without overflow. */
static double softplus (double z)
{
  return z > 0 ? z + log1p(exp(-z)) : log1p(exp(z));
}

static int kind_of (double lo, double hi)
{
  int l = lo > -INFINITY, h = hi < INFINITY;
  return l && h ? B_BOTH : l ? B_LOWER : h ? B_UPPER : B_NONE;
}

/* x = T(u) for bounds lo, hi (x may alias u). */
static void bounds_constrain (const double *lo, const double *hi, int n,
                              const double *u, double *x)
{
  int i;
  for (i = 0; i < n; i++) {
    double ui = u[i];
    switch (kind_of(lo[i], hi[i])) {
    case B_LOWER: x[i] = lo[i] + exp(ui); break;
    case B_UPPER: x[i] = hi[i] - exp(ui); break;
    case B_BOTH:
      x[i] = ui > 0 ? hi[i] - (hi[i] - lo[i]) * inv_logit(-ui)
                    : lo[i] + (hi[i] - lo[i]) * inv_logit(ui);
      break;
    default: x[i] = ui;
    }
  }
}

/* u = T^-1(x); OL_EINVAL unless lo < x < hi for every coordinate. */
static int bounds_unconstrain (const double *lo, const double *hi, int n,
                               const double *x, double *u, ol_err *e)
{
  int i;
  for (i = 0; i < n; i++) {
    double xi = x[i];
    int k = kind_of(lo[i], hi[i]);
    if (k != B_NONE && !(xi > lo[i] && xi < hi[i]))
      return ol_err_set(e, OL_EINVAL, "x[%d] = %g is not inside its bounds "
                        "(%g, %g)", i + 1, xi, lo[i], hi[i]);
    switch (k) {
    case B_LOWER: u[i] = log(xi - lo[i]); break;
    case B_UPPER: u[i] = log(hi[i] - xi); break;
    case B_BOTH: u[i] = log(xi - lo[i]) - log(hi[i] - xi); break;
    default: u[i] = xi;
    }
  }
  return OL_OK;
}

void ol_problem_constrain (const ol_problem *p, const double *u, double *x)
{
  const ol_transform *t = p->xform;
  if (t == NULL) {
    if (x != u) memmove(x, u, sizeof(double) * (size_t)p->n);
  }
  else if (t->lo != NULL) bounds_constrain(t->lo, t->hi, p->n, u, x);
  else t->constrain(p->n, u, x);
}

int ol_problem_unconstrain (const ol_problem *p, const double *x, double *u,
                            ol_err *e)
{
  const ol_transform *t = p->xform;
  if (t == NULL) {
    if (x != u) memmove(u, x, sizeof(double) * (size_t)p->n);
    return OL_OK;
  }
  if (t->lo != NULL) return bounds_unconstrain(t->lo, t->hi, p->n, x, u, e);
  return t->unconstrain(p->n, x, u, e);
}

/* The potential on the u scale (see the header). */
static int bounded_fdf (void *ud, const double *u, double *f, double *g,
                        ol_err *e)
{
  bounded *B = ud;
  const ol_problem *q = B->logp;
  double lp = 0, logj = 0, *gx = g != NULL ? B->gx : NULL;
  int i, n = B->n, rc;
  /* (1) x = T(u), read by log p before anything nested can overwrite it */
  if (B->any) bounds_constrain(B->lo, B->hi, n, u, B->x);
  /* (2) log p and its gradient at x */
  rc = q->fdf(q->ud, B->any ? B->x : u, f != NULL ? &lp : NULL, gx, e);
  if (rc != OL_OK) return rc;
  /* (3) minus log p minus the log-Jacobian; the chain rule from u */
  for (i = 0; i < n; i++) {
    double ui = u[i], s, r, w;
    switch (B->kind[i]) {
    case B_LOWER:
    case B_UPPER:
      logj += ui;
      if (g != NULL) {
        w = exp(ui);
        g[i] = (B->kind[i] == B_LOWER ? -gx[i] : gx[i]) * w - 1;
      }
      break;
    case B_BOTH:
      s = inv_logit(ui);
      r = inv_logit(-ui);                      /* 1 - s, to full precision */
      if (f != NULL)
        logj += log(B->hi[i] - B->lo[i]) - softplus(-ui) - softplus(ui);
      if (g != NULL)
        g[i] = -gx[i] * (B->hi[i] - B->lo[i]) * s * r - (r - s);
      break;
    default:
      if (g != NULL) g[i] = -gx[i];
    }
  }
  if (f != NULL) *f = -lp - logj;
  return OL_OK;
}

/* The Hessian of the potential on the u scale (see the header), from log
** p's: H = -Hx scaled by T' on both sides, minus the diagonal terms. */
static int bounded_hess (void *ud, const double *u, double *H, ol_err *e)
{
  bounded *B = ud;
  const ol_problem *q = B->logp;
  int i, j, n = B->n, rc;
  /* (1) grad log p at x, needed for the bounded coordinates' T'' */
  if (B->any) {
    bounds_constrain(B->lo, B->hi, n, u, B->x);
    if ((rc = q->fdf(q->ud, B->x, NULL, B->gh, e)) != OL_OK) return rc;
    bounds_constrain(B->lo, B->hi, n, u, B->x);    /* a nested call's x */
  }
  /* (2) Hx into H, then the chain rule in place */
  if ((rc = q->hess(q->ud, B->any ? B->x : u, H, e)) != OL_OK) return rc;
  for (i = 0; i < n; i++) {
    double ti = 1, tti = 0, ci = 0, s, r;
    switch (B->kind[i]) {
    case B_LOWER: ti = tti = exp(u[i]); break;
    case B_UPPER: ti = tti = -exp(u[i]); break;
    case B_BOTH:
      s = inv_logit(u[i]);
      r = inv_logit(-u[i]);
      ti = (B->hi[i] - B->lo[i]) * s * r;
      tti = ti * (r - s);
      ci = -2 * s * r;
      break;
    default: break;
    }
    for (j = 0; j < n; j++) {
      double tj = 1;
      if (B->kind[j] == B_LOWER) tj = exp(u[j]);
      else if (B->kind[j] == B_UPPER) tj = -exp(u[j]);
      else if (B->kind[j] == B_BOTH)
        tj = (B->hi[j] - B->lo[j]) * inv_logit(u[j]) * inv_logit(-u[j]);
      H[(size_t)i * n + j] = -H[(size_t)i * n + j] * ti * tj;
    }
    if (B->kind[i] != B_NONE)
      H[(size_t)i * n + i] -= B->gh[i] * tti + ci;
  }
  return OL_OK;
}

const ol_problem_type ol_problem_density_type = {
  .name = "density",
  .kind = OL_DENSITY,
  .doc = "a density from an oracle of log p, sampled on the unconstrained "
         "scale (ol_problem_density; Lua: problem.density)",
};

ol_problem *ol_problem_density (ol_problem *logp, const double *lo,
                                const double *hi, const double *x0,
                                ol_err *e)
{
  bounded *B;
  ol_problem *p;
  int i, n;
  if (logp == NULL || logp->n < 1 || !logp->fdf) {
    ol_err_set(e, OL_EINVAL, "density: no log p oracle");
    return NULL;
  }
  n = logp->n;
  /* (1) the bounds: ordered pairs, -inf / inf for the sides not given */
  if ((B = calloc(1, sizeof *B)) == NULL) {
    ol_err_set(e, OL_ENOMEM, "out of memory (density)");
    return NULL;
  }
  B->n = n;
  B->kind = calloc((size_t)n, 1);
  B->lo = ol_problem_alloc(n, e);
  B->hi = ol_problem_alloc(n, e);
  B->x = ol_problem_alloc(n, e);
  B->gx = ol_problem_alloc(n, e);
  if (B->kind == NULL || B->lo == NULL || B->hi == NULL || B->x == NULL
      || B->gx == NULL) {
    ol_err_set(e, OL_ENOMEM, "out of memory (density, n = %d)", n);
    bounded_free(B);
    return NULL;
  }
  for (i = 0; i < n; i++) {
    B->lo[i] = lo != NULL ? lo[i] : -INFINITY;
    B->hi[i] = hi != NULL ? hi[i] : INFINITY;
    if (!(B->lo[i] < B->hi[i])) {
      if (isnan(B->lo[i]) || isnan(B->hi[i]))
        ol_err_set(e, OL_EINVAL, "bounds of x[%d]: %s is NaN", i + 1,
                   isnan(B->lo[i]) ? "lower" : "upper");
      else
        ol_err_set(e, OL_EINVAL, "bounds of x[%d]: lower = %g must be below "
                   "upper = %g", i + 1, B->lo[i], B->hi[i]);
      bounded_free(B);
      return NULL;
    }
    B->kind[i] = (unsigned char)kind_of(B->lo[i], B->hi[i]);
    if (B->kind[i] != B_NONE) B->any = 1;
  }
  B->t.lo = B->lo;
  B->t.hi = B->hi;
  /* (2) the problem on the u scale; from here it owns B */
  p = ol_problem_custom(n, bounded_fdf, logp->fd_grad, B, bounded_free, e);
  if (p == NULL) {
    bounded_free(B);
    return NULL;
  }
  p->type = &ol_problem_density_type;
  p->kind = OL_DENSITY;
  p->xform = B->any ? &B->t : NULL;
  if (logp->hess != NULL) {
    if (B->any && (B->gh = ol_problem_alloc(n, e)) == NULL) {
      ol_problem_free(p);           /* and B with it (not yet logp) */
      return NULL;
    }
    p->hess = bounded_hess;
  }
  snprintf(p->name, sizeof p->name, "%s", logp->name);
  snprintf(p->desc, sizeof p->desc, "%s{n=%d%s}", logp->name, n,
           B->any ? ", bounded" : "");
  /* (3) the start, mapped to u (u = 0 without one) */
  if (x0 != NULL && ol_problem_unconstrain(p, x0, p->x0, e) != OL_OK) {
    if (e != NULL) {
      char msg[OL_ERRMAX];
      snprintf(msg, sizeof msg, "x0: %.1000s", e->msg);
      ol_err_set(e, OL_EINVAL, "%s", msg);
    }
    ol_problem_free(p);
    return NULL;
  }
  B->logp = logp;
  return p;
}
