/*
** core/problems/l0l1.c -- (L0,L1)-smooth test functions: smooth, strongly
** convex, but not globally L-smooth (their Hessian grows without bound
** with the gradient).  Catalog T9; the setting of B043, Zhang, Zhou & Zou
** 2025, "Convergence guarantees for RMSProp and Adam in generalized-smooth
** non-convex optimization with affine noise variance" (TMLR; arXiv
** 2404.01436), after Zhang, He, Sra & Jadbabaie 2020 (ICLR), who named
** the condition
**
**   ||hess f(x)||_2 <= L0 + L1 ||grad f(x)||_2   for every x.
**
** kind = "quartic" (mu > 0):
**   f(x) = sum_i x_i^4 / 4 + mu/2 ||x||^2
**   g_i = x_i^3 + mu x_i,   H = diag(3 x_i^2 + mu)
**   x* = 0, f* = 0; x0 = 2 (every coordinate).
**   L0 = mu, L1 = 3 / (2 sqrt(mu)).  Proof: with m = max_i |x_i| (at k),
**   ||H|| = 3 m^2 + mu and ||g|| >= |g_k| = m^3 + mu m, and
**   3 m^2 <= 3 (m^3 + mu m) / (2 sqrt(mu))  <=>  (m - sqrt(mu))^2 >= 0.
**   Both are attained: L0 at x = 0, the pair at x = sqrt(mu) e_k, where
**   ||H|| = 4 mu = L0 + L1 ||g|| with ||g|| = 2 mu^(3/2).
**
** kind = "exp" (c > 0, mu > 0; a_j = c q_j, q_j the columns of a Haar
** rotation Q drawn from seed, or of the identity with rotate = false):
**   f(x) = sum_j exp(a_j'x) + mu/2 ||x||^2
** In y = Q'x it is separable, f = sum_j exp(c y_j) + mu/2 y_j^2:
**   grad f = Q (c e^(c y) + mu y),   H = Q diag(c^2 e^(c y) + mu) Q'.
**   y*_j = -w / c with w = W(c^2 / mu) (Lambert W: c e^(c y) = -mu y is
**   w e^w = c^2/mu for w = -c y), so x* = -(w / c) Q 1 and
**   f* = n mu w (1 + w/2) / c^2 (e^(c y*) = mu w / c^2).  W is solved by
**   Halley's iteration to a relative 4 eps at set-up (lambertw below).
**   x0 = Q (2 / c) 1 (each exp(a_j'x0) = e^2).
**   L0 = mu (1 + w), L1 = c.  Proof, per coordinate in y with
**   s = c e^(cy) + mu y (increasing, s(y*) = 0):
**   h(y) = c^2 e^(cy) - c |s| is -c mu y for y >= y* and
**   2 c^2 e^(cy) + c mu y (increasing) below, so sup h = h(y*) =
**   c mu |y*| = mu w; then ||H|| = max_j H_jj <= mu + mu w + c |s_j| <=
**   L0 + L1 ||g|| (Q orthogonal keeps both norms).  L0 is attained at x*
**   (||H(x*)|| = L0, g = 0); L1 = c is the limit of H_jj / |g_j| as
**   y_j -> inf.
**
** The constants are printed in the description (p.desc).  The quartic and
** the unrotated exp are separable (p->gsep).  The rotation is O(n^3) at
** set-up and O(n^2) an oracle call, so rotate needs n <= L0L1_MAXROT.
** The rotated oracle uses scratch kept in the problem (n doubles): not
** for two threads at once (runs are single-threaded; see run.h).
*/
#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ol.h"
#include "problem.h"
#include "rng.h"
#include "vec.h"

#define L0L1_MAXROT 1024
#define L0L1_MAXDENSE 4096   /* the Hessian oracle: n x n doubles */

enum { K_QUARTIC, K_EXP };

typedef struct l0l1 {
  int n, kind;
  double mu, c;
  double *Q;        /* exp, rotated: n x n row-major, columns q_j (owned);
                       NULL: the identity */
  double *y;        /* n scratch: Q'x, then the y-gradient (owned) */
} l0l1;

static void l0l1_free (void *ud)
{
  l0l1 *s = ud;
  if (s == NULL) return;
  free(s->Q);
  free(s->y);
  free(s);
}

/* W(z), the principal branch of w e^w = z, for z > 0 (then w > 0):
** Halley's iteration from log(1 + z), which is cubically convergent and
** monotone here; stops at a step below 4 eps w. */
static double lambertw (double z)
{
  double w = log1p(z);
  int k;
  for (k = 0; k < 100; k++) {
    double ew = exp(w), r = w * ew - z;
    double d = r / (ew * (w + 1) - (w + 2) * r / (2 * w + 2));
    w -= d;
    if (fabs(d) <= 4 * DBL_EPSILON * w) break;
  }
  return w;
}

/* The separable part at t (t = x for the quartic, t = y for exp):
** value term and derivative of coordinate i. */
static inline double term (const l0l1 *s, double t, double *d)
{
  if (s->kind == K_QUARTIC) {
    *d = t * t * t + s->mu * t;
    return 0.25 * t * t * t * t + 0.5 * s->mu * t * t;
  }
  {
    double ex = exp(s->c * t);
    *d = s->c * ex + s->mu * t;
    return ex + 0.5 * s->mu * t * t;
  }
}

static int l0l1_fdf (void *ud, const double *x, double *f, double *g,
                     ol_err *e)
{
  l0l1 *s = ud;
  const double *t = x;
  double fs = 0, d;
  int i, n = s->n;
  (void)e;
  if (s->Q != NULL) {            /* y = Q'x */
    cblas_dgemv(CblasRowMajor, CblasTrans, n, n, 1.0, s->Q, n, x, 1, 0.0,
                s->y, 1);
    t = s->y;
  }
  for (i = 0; i < n; i++) {
    fs += term(s, t[i], &d);
    if (g != NULL) g[i] = d;     /* the y-gradient when rotated */
  }
  if (f != NULL) *f = fs;
  if (g != NULL && s->Q != NULL) {   /* g = Q (y-gradient) */
    ol_vec_copy(g, s->y, n);
    cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, s->Q, n, s->y, 1,
                0.0, g, 1);
  }
  return OL_OK;
}

/* Separable kinds: coordinates lo .. hi-1 of the gradient into gb. */
static int l0l1_gsep (void *ud, const double *x, int lo, int hi, double *gb,
                      ol_err *e)
{
  const l0l1 *s = ud;
  uint64_t bad = 0;
  int i;
  ol_gsep_prefetch(x, lo, hi, s->n);
  x += lo;
  for (i = 0; i < hi - lo; i++) {
    (void)term(s, x[i], &gb[i]);
    bad |= ol_fbit(gb[i]);
  }
  return OL_FBITS_OK(bad) ? OL_OK
    : ol_err_set(e, OL_EDOM, "non-finite gradient");
}

/* The second derivative of the separable term at t. */
static inline double curv (const l0l1 *s, double t)
{
  return s->kind == K_QUARTIC ? 3 * t * t + s->mu
                              : s->c * s->c * exp(s->c * t) + s->mu;
}

static int l0l1_hess (void *ud, const double *x, double *H, ol_err *e)
{
  l0l1 *s = ud;
  int i, j, k, n = s->n;
  (void)e;
  if (s->Q == NULL) {
    for (i = 0; i < n * n; i++) H[i] = 0;
    for (i = 0; i < n; i++) H[(size_t)i * n + i] = curv(s, x[i]);
    return OL_OK;
  }
  /* H = Q diag(d) Q', d_k = curv(y_k): both triangles, summed in k order
  ** so H is exactly symmetric */
  cblas_dgemv(CblasRowMajor, CblasTrans, n, n, 1.0, s->Q, n, x, 1, 0.0,
              s->y, 1);
  for (k = 0; k < n; k++) s->y[k] = curv(s, s->y[k]);
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++) {
      const double *qi = s->Q + (size_t)i * n, *qj = s->Q + (size_t)j * n;
      double h = 0;
      for (k = 0; k < n; k++) h += qi[k] * s->y[k] * qj[k];
      H[(size_t)i * n + j] = H[(size_t)j * n + i] = h;
    }
  return OL_OK;
}

static const ol_param l0l1_params[] = {
  {"n", OL_P_INT, 10, 1, 1e7, "dimension", NULL},
  {"kind", OL_P_ENUM, 0, 0, 0, "sum x_i^4/4 + mu/2 ||x||^2, or sum_j "
   "exp(a_j'x) + mu/2 ||x||^2", "quartic|exp"},
  {"mu", OL_P_REAL, 1, 1e-6, 1e6, "weight of the quadratic term (strong "
   "convexity)", NULL},
  {"c", OL_P_REAL, 1, 1e-3, 100, "exp: ||a_j||, the exponentials' rate",
   NULL},
  {"rotate", OL_P_BOOL, 1, 0, 1, "exp: a_j = c q_j along a Haar-random "
   "rotation (needs n <= 1024); false: a_j = c e_j", NULL},
  {"seed", OL_P_INT, 1, 0, 9007199254740992.0,
   "exp: seed of the random rotation Q", NULL},
};

static int l0l1_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int i, n = (int)v[0].num, rc;
  int kind = (int)v[1].num, rotate = kind == K_EXP && v[4].num != 0;
  double mu = v[2].num, c = v[3].num, w = 0, L0, L1;
  l0l1 *s;
  if (rotate && n > L0L1_MAXROT)
    return ol_err_set(e, OL_EINVAL, "kind exp with rotate needs n <= %d "
                      "(an n x n rotation); use rotate = false",
                      L0L1_MAXROT);
  s = calloc(1, sizeof *s);
  if (s == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = s;
  p->free_ud = l0l1_free;
  s->n = n;
  s->kind = kind;
  s->mu = mu;
  s->c = c;
  if ((s->y = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if (rotate && n > 1) {
    ol_rng rng;
    if ((s->Q = malloc(sizeof(double) * (size_t)n * n)) == NULL)
      return ol_err_set(e, OL_ENOMEM, "l0l1: out of memory for Q");
    ol_rng_seed(&rng, (uint64_t)v[5].num, 0);
    if ((rc = ol_mat_randorth(n, &rng, s->Q, e)) != OL_OK) return rc;
  }
  snprintf(p->name, sizeof p->name, "l0l1");
  p->kind = OL_OBJECTIVE;
  p->n = n;
  p->fdf = l0l1_fdf;
  p->hess = n <= L0L1_MAXDENSE ? l0l1_hess : NULL;
  p->gsep = s->Q == NULL ? l0l1_gsep : NULL;
  if ((p->x0 = ol_problem_alloc(n, e)) == NULL) return OL_ENOMEM;
  if ((p->xstar = ol_problem_alloc(n, e)) == NULL) return OL_ENOMEM;
  if (kind == K_QUARTIC) {
    for (i = 0; i < n; i++) p->x0[i] = 2;
    p->fstar = 0;
    L0 = mu;
    L1 = 3 / (2 * sqrt(mu));
    snprintf(p->desc, sizeof p->desc, "l0l1{n=%d, kind=quartic, mu=%g} "
             "(L0 = %.6g, L1 = %.6g)", n, mu, L0, L1);
    return OL_OK;
  }
  /* exp: y* = -w/c and y0 = 2/c in every coordinate, rotated by Q */
  w = lambertw(c * c / mu);
  for (i = 0; i < n; i++) {
    s->y[i] = -w / c;
    p->x0[i] = 2 / c;
  }
  if (s->Q != NULL) {
    cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, s->Q, n, s->y, 1,
                0.0, p->xstar, 1);
    for (i = 0; i < n; i++) s->y[i] = 2 / c;
    cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, s->Q, n, s->y, 1,
                0.0, p->x0, 1);
  }
  else ol_vec_copy(s->y, p->xstar, n);
  p->fstar = n * mu * w * (1 + w / 2) / (c * c);
  L0 = mu * (1 + w);
  L1 = c;
  if (s->Q != NULL)
    snprintf(p->desc, sizeof p->desc, "l0l1{n=%d, kind=exp, mu=%g, c=%g, "
             "seed=%.0f} (L0 = %.6g, L1 = %.6g)", n, mu, c, v[5].num, L0,
             L1);
  else
    snprintf(p->desc, sizeof p->desc, "l0l1{n=%d, kind=exp, mu=%g, c=%g, "
             "rotate=0} (L0 = %.6g, L1 = %.6g)", n, mu, c, L0, L1);
  return OL_OK;
}

const ol_problem_type ol_problem_l0l1 = {
  .name = "l0l1",
  .kind = OL_OBJECTIVE,
  .doc = "(L0,L1)-smooth: sum x_i^4/4 or sum exp(a_j'x), + mu/2 ||x||^2; "
         "||H|| <= L0 + L1 ||g||, x* exact",
  .ref = "Zhang, He, Sra & Jadbabaie 2020 (ICLR); Zhang, Zhou & Zou 2025 "
         "(TMLR, arXiv 2404.01436)",
  .params = l0l1_params,
  .nparams = (int)(sizeof l0l1_params / sizeof l0l1_params[0]),
  .create = l0l1_create,
};
