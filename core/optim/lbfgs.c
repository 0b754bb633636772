/*
** core/optim/lbfgs.c -- limited-memory BFGS (Nocedal & Wright 2006,
** Algorithm 7.5) with the two-loop recursion (Algorithm 7.4) and a
** strong-Wolfe line search (Algorithms 3.5 and 3.6).
**
**   d_k = -H_k g_k        (two-loop over the last m pairs (s_i, y_i),
**                          H_k^0 = gamma_k I, gamma_k = s'y / y'y of the
**                          newest pair, N&W eq. 7.20)
**   x_{k+1} = x_k + a_k d_k,   a_k: f(x + a d) <= f(x) + c1 a g'd and
**                              |grad f(x + a d)'d| <= c2 |g'd|
**   s_k = x_{k+1} - x_k, y_k = g_{k+1} - g_k, stored unless
**   s'y <= 1e-10 ||s|| ||y|| (the pair would break positive definiteness)
**
** One step is one outer iteration: one line search, which evaluates f and
** grad f together at every trial point.  First trial a = 1 (N&W section
** 3.5), or 1 / ||g|| when the memory is empty (steepest descent, as in
** L-BFGS-B); the schedule multiplies the first trial.  Bracketing
** (Algorithm 3.5) extrapolates by a factor of 4; zoom (Algorithm 3.6)
** picks the minimiser of the cubic through both ends (N&W eq. 3.59), kept
** at least 1/10 of the interval away from its ends, bisection when the
** cubic has no minimiser or a value is infinite.  A trial point where f or
** g is not finite counts as "too long" (f = +inf) rather than an error.
** The f comparisons (sufficient decrease, "f went up") allow 1e-12 |f(x)|
** of rounding: an f that is a long sum is not more accurate than that, and
** near a minimiser with f* != 0 the decrease falls below it, where strict
** tests would stall the search (compare Hager & Zhang 2005, approximate
** Wolfe conditions); the curvature test, on gradients, then decides.
**
** Failure: after 40 trials, or when the zoom interval shrinks below
** rounding with no point of decrease, the search has failed.  Then the
** memory is dropped and the search retried once along -g.  A second
** failure at a point that is stationary to working precision
** (ol_ctx_fp_stationary) means f cannot decrease any further in floating
** point: x stays and the run stops as converged.  Elsewhere it returns
** OL_ENUMERIC "lbfgs: line search failed".  When the interval collapses
** at a point that satisfies sufficient decrease (the curvature condition
** is beyond rounding), that point (kept from its evaluation, not
** evaluated again) is taken and the pair is skipped if s'y is not
** positive.
**
** When g = 0 exactly, or g'd is within 2^52 of underflow (|g'd| <
** DBL_MIN / eps, products along d have lost their precision), x is
** stationary to working precision: it is left unchanged and the run stops
** as converged (this happens only after convergence, e.g. when x* = 0 and
** the iterates shrink towards the subnormal range).
**
** f and g at the accepted point are kept for the next step (checked
** against c->x) and handed to the run (ol_ctx_known), so an iteration
** costs the line search's evaluations only, each at a distinct point.
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lmem.h"
#include "method.h"
#include "vec.h"

#define LBFGS_TRIALS 40
#define LBFGS_EXTRAP 4.0
#define LBFGS_SKIP 1e-10
#define LBFGS_FTOL 1e-12

typedef struct lbfgs_state {
  ol_lmem L;            /* the pairs (lmem.h) */
  double c1, c2;
  double *xk, *g, *d, *xt, *gt;
  double *glo;          /* gradient at the zoom's lo point */
  double f;             /* f(xk); g = grad f(xk) when valid */
  int valid;
  long nls;             /* line-search trials in the last step */
} lbfgs_state;

static const ol_param lbfgs_params[] = {
  {"m", OL_P_INT, 10, 1, 1000, "memory: number of (s, y) pairs kept", NULL},
  {"c1", OL_P_REAL, 1e-4, 1e-12, 0.5,
   "sufficient-decrease constant of the Wolfe conditions", NULL},
  {"c2", OL_P_REAL, 0.9, 1e-12, 0.999999,
   "curvature constant of the strong Wolfe conditions, c1 < c2 < 1", NULL},
};

static int lbfgs_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  lbfgs_state *s = st;
  int n = c->n;
  int m = (int)par[0];
  s->c1 = par[1];
  s->c2 = par[2];
  if (!(s->c1 < s->c2))
    return ol_err_set(e, OL_EINVAL, "lbfgs needs c1 < c2 (c1 = %g, c2 = "
                      "%g)", s->c1, s->c2);
  if ((double)m * n > 1e9)
    return ol_err_set(e, OL_EINVAL, "lbfgs: m * n = %g is too large",
                      (double)m * n);
  if (ol_lmem_init(&s->L, m, n, e) != OL_OK) return OL_ENOMEM;
  if ((s->xk = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->g = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->d = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->xt = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->gt = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->glo = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

/* d = -H g by the two-loop recursion (lmem.h). */
static void lbfgs_twoloop (lbfgs_state *s, int n)
{
  int i;
  for (i = 0; i < n; i++) s->d[i] = -s->g[i];
  ol_lmem_apply(&s->L, s->d, n);
}

/* phi(a) = f(x + a d) and phi'(a) = grad f(x + a d)'d into *fa, *da, with
** xt, gt at the trial point.  A non-finite f or g gives *fa = +inf. */
static int lbfgs_phi (lbfgs_state *s, ol_ctx *c, double a, double *fa,
                      double *da, ol_err *e)
{
  int i, n = c->n, rc;
  for (i = 0; i < n; i++) s->xt[i] = s->xk[i] + a * s->d[i];
  s->nls++;
  rc = ol_ctx_grad(c, s->xt, fa, s->gt, e);
  if (rc == OL_EDOM) {
    *fa = INFINITY;
    *da = NAN;
    return OL_OK;
  }
  if (rc != OL_OK) return rc;
  *da = ol_vec_dot(s->gt, s->d, n);
  return OL_OK;
}

/* Minimiser of the cubic through (a1, f1, d1) and (a2, f2, d2), N&W eq.
** 3.59, kept in the middle 80% of the interval; the midpoint when the
** cubic has none or a value is not finite. */
static double lbfgs_cubic (double a1, double f1, double d1, double a2,
                           double f2, double d2)
{
  double lo = fmin(a1, a2), w = fabs(a2 - a1), e1, disc, e2, a;
  if (!isfinite(f1) || !isfinite(f2) || !isfinite(d1) || !isfinite(d2))
    return 0.5 * (a1 + a2);
  e1 = d1 + d2 - 3 * (f1 - f2) / (a1 - a2);
  disc = e1 * e1 - d1 * d2;
  if (!(disc >= 0)) return 0.5 * (a1 + a2);
  e2 = (a2 > a1 ? 1 : -1) * sqrt(disc);
  a = a2 - (a2 - a1) * (d2 + e2 - e1) / (d2 - d1 + 2 * e2);
  if (!isfinite(a)) return 0.5 * (a1 + a2);
  if (a < lo + 0.1 * w) a = lo + 0.1 * w;
  if (a > lo + 0.9 * w) a = lo + 0.9 * w;
  return a;
}

/* Strong-Wolfe line search from xk along d (d0 = g'd < 0), first trial
** a0.  Returns OL_OK with *found = 1 and xt, gt, *fout at the accepted
** point, OL_OK with *found = 0 when it failed, or an oracle's error. */
static int lbfgs_search (lbfgs_state *s, ol_ctx *c, double d0, double a0,
                         double *fout, int *found, ol_err *e)
{
  double f0 = s->f, tolf = LBFGS_FTOL * fabs(f0), wolfe = -s->c2 * d0;
  double ap = 0, fp = f0, dp = d0, a = a0, fa, da;
  double lo, flo, dlo, hi, fhi, dhi;
  int i, rc, haslo = 0;
  *found = 0;
  s->nls = 0;
  /* (1) bracketing, N&W Algorithm 3.5 */
  for (i = 0;; i++) {
    if (s->nls >= LBFGS_TRIALS) return OL_OK;
    if ((rc = lbfgs_phi(s, c, a, &fa, &da, e)) != OL_OK) return rc;
    if (fa > f0 + s->c1 * a * d0 + tolf || (i > 0 && fa > fp + tolf)) {
      lo = ap; flo = fp; dlo = dp;
      hi = a; fhi = fa; dhi = da;
      haslo = ap > 0;      /* glo holds grad f at ap */
      break;
    }
    if (fabs(da) <= wolfe) {
      *fout = fa;
      *found = 1;
      return OL_OK;
    }
    if (da >= 0) {
      lo = a; flo = fa; dlo = da;
      hi = ap; fhi = fp; dhi = dp;
      ol_vec_copy(s->gt, s->glo, c->n);
      haslo = 1;
      break;
    }
    ap = a; fp = fa; dp = da;
    ol_vec_copy(s->gt, s->glo, c->n);
    a *= LBFGS_EXTRAP;
  }
  /* (2) zoom, N&W Algorithm 3.6: lo satisfies sufficient decrease and
  ** has the lowest f so far; (hi - lo) dlo < 0 */
  while (s->nls < LBFGS_TRIALS) {
    if (fabs(hi - lo) <= 4 * DBL_EPSILON * fmax(fabs(lo), fabs(hi))) {
      if (lo <= 0 || !haslo) return OL_OK;
      /* collapsed below rounding at a point of decrease: take it, as
      ** evaluated when it became lo */
      for (i = 0; i < c->n; i++) s->xt[i] = s->xk[i] + lo * s->d[i];
      ol_vec_copy(s->glo, s->gt, c->n);
      *fout = flo;
      *found = isfinite(flo);
      return OL_OK;
    }
    a = lbfgs_cubic(lo, flo, dlo, hi, fhi, dhi);
    if ((rc = lbfgs_phi(s, c, a, &fa, &da, e)) != OL_OK) return rc;
    if (fa > f0 + s->c1 * a * d0 + tolf || fa > flo + tolf) {
      hi = a; fhi = fa; dhi = da;
      continue;
    }
    if (fabs(da) <= wolfe) {
      *fout = fa;
      *found = 1;
      return OL_OK;
    }
    if (da * (hi - lo) >= 0) {
      hi = lo; fhi = flo; dhi = dlo;
    }
    lo = a; flo = fa; dlo = da;
    ol_vec_copy(s->gt, s->glo, c->n);
    haslo = 1;
  }
  return OL_OK;
}

static int lbfgs_step (void *st, ol_ctx *c, ol_err *e)
{
  lbfgs_state *s = st;
  double *x = c->x, gn, d0, a0, fnew;
  int i, n = c->n, rc, found;
  double *sv, *yv;
  /* (1) f and g at x: kept from the last step unless x was moved */
  if (!s->valid || memcmp(x, s->xk, (size_t)n * sizeof *x) != 0) {
    if ((rc = ol_ctx_grad(c, x, &s->f, s->g, e)) != OL_OK) return rc;
    ol_vec_copy(x, s->xk, n);
    s->valid = 1;
    s->L.cnt = 0;
  }
  gn = ol_ctx_gnorm(c, s->g);
  if (gn == 0) {
    ol_ctx_known(c, s->f, s->g);
    ol_ctx_converged(c, "the gradient is exactly 0");
    return OL_OK;
  }
  for (;;) {
    /* (2) direction: two-loop, or steepest descent on an empty memory */
    if (s->L.cnt > 0) lbfgs_twoloop(s, n);
    d0 = s->L.cnt > 0 ? ol_vec_dot(s->g, s->d, n) : 0;
    if (!(d0 < 0)) {
      s->L.cnt = 0;
      for (i = 0; i < n; i++) s->d[i] = -s->g[i];
      d0 = -gn * gn;
    }
    if (!(d0 < -DBL_MIN / DBL_EPSILON)) {
      ol_ctx_known(c, s->f, s->g);
      ol_ctx_converged(c, "no further decrease in floating point (g'd "
                       "underflows)");
      return OL_OK;
    }
    a0 = (s->L.cnt > 0 ? 1 : 1 / gn) * c->sched;
    /* (3) strong-Wolfe line search; on failure retry once along -g */
    if ((rc = lbfgs_search(s, c, d0, a0, &fnew, &found, e)) != OL_OK)
      return rc;
    if (found) break;
    if (s->L.cnt == 0 && ol_ctx_fp_stationary(c, s->xk, s->f, s->g)) {
      char why[160];
      snprintf(why, sizeof why, "no further decrease in floating point "
               "(f = %.3g, |g| = %.3g)", s->f, gn);
      ol_ctx_known(c, s->f, s->g);
      ol_ctx_converged(c, why);
      return OL_OK;
    }
    if (s->L.cnt == 0)
      return ol_err_set(e, OL_ENUMERIC, "lbfgs: line search failed (no "
                        "strong-Wolfe point in %d trials, also along -g; "
                        "f = %g, |g| = %g)", LBFGS_TRIALS, s->f, gn);
    s->L.cnt = 0;
  }
  /* (4) new pair s = xt - xk, y = gt - g in the next ring slot */
  sv = ol_lmem_snext(&s->L, n);
  yv = ol_lmem_ynext(&s->L, n);
  for (i = 0; i < n; i++) {
    sv[i] = s->xt[i] - s->xk[i];
    yv[i] = s->gt[i] - s->g[i];
  }
  ol_lmem_push(&s->L, n, LBFGS_SKIP);
  /* (5) move; keep f, g at the new point (xk, g swapped with the trial
  ** point's arrays, which the next search overwrites) */
  ol_vec_copy(s->xt, x, n);
  sv = s->xk, s->xk = s->xt, s->xt = sv;
  yv = s->g, s->g = s->gt, s->gt = yv;
  s->f = fnew;
  ol_ctx_known(c, s->f, s->g);
  return OL_OK;
}

static void lbfgs_fini (void *st)
{
  lbfgs_state *s = st;
  ol_vec_free(s->glo);
  ol_lmem_fini(&s->L);
  ol_vec_free(s->xk);
  ol_vec_free(s->g);
  ol_vec_free(s->d);
  ol_vec_free(s->xt);
  ol_vec_free(s->gt);
  s->xk = s->g = s->d = s->xt = s->gt = NULL;
  s->glo = NULL;
}

const ol_method_type ol_optim_lbfgs = {
  .name = "lbfgs",
  .family = OL_OPTIM,
  .doc = "L-BFGS: two-loop recursion, strong-Wolfe line search",
  .ref = "Nocedal & Wright 2006, Algorithms 7.4, 7.5, 3.5, 3.6",
  .params = lbfgs_params,
  .nparams = (int)(sizeof lbfgs_params / sizeof lbfgs_params[0]),
  .size = sizeof(lbfgs_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = lbfgs_init,
  .step = lbfgs_step,
  .fini = lbfgs_fini,
  .probes = OL_MSET_NONE,
};
