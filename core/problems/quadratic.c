/*
** core/problems/quadratic.c -- the strongly convex quadratic test problem.
**
**   f(x) = 1/2 (x - x*)' H (x - x*),   H = Q diag(lambda) Q',   x* = 0
**
** lambda_i = cond^(-i/(n-1)), i = 0..n-1: log-spaced from L = 1 down to
** mu = 1/cond (lambda = 1 when n = 1).  Q is Haar-random from 'seed'
** (ol_mat_randorth, Mezzadri 2007) when 'rotate' is set; otherwise H is
** diagonal, the oracle is one O(n) loop and the gradient is separable
** (p->gsep: taken a block at a time by coordinate-wise methods; the
** d = 10^6 benchmark W2).
** Rotated problems keep H dense (both triangles), so n <= 4096.
** f* = 0, x0 = ones.  The Hessian oracle is offered for n <= 4096.
*/
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ol.h"
#include "problem.h"
#include "rng.h"
#include "vec.h"

#define QUAD_MAXDENSE 4096

typedef struct quad {
  int n;
  double *lambda;   /* n eigenvalues (owned) */
  double *H;        /* rotated: n x n, both triangles (owned); else NULL */
} quad;

static void quad_free (void *ud)
{
  quad *q = ud;
  if (q == NULL) return;
  free(q->lambda);
  free(q->H);
  free(q);
}

static int quad_fdf (void *ud, const double *x, double *f, double *g,
                     ol_err *e)
{
  const quad *q = ud;
  int i, n = q->n;
  (void)e;
  if (q->H == NULL) {               /* diagonal: one tight loop */
    const double *lam = q->lambda;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    if (g != NULL && f != NULL) {   /* one pass; four partial sums break */
      for (i = 0; i + 3 < n; i += 4) {      /* the chain of additions */
        g[i] = lam[i] * x[i];
        g[i + 1] = lam[i + 1] * x[i + 1];
        g[i + 2] = lam[i + 2] * x[i + 2];
        g[i + 3] = lam[i + 3] * x[i + 3];
        s0 += g[i] * x[i];
        s1 += g[i + 1] * x[i + 1];
        s2 += g[i + 2] * x[i + 2];
        s3 += g[i + 3] * x[i + 3];
      }
      for (; i < n; i++) {
        g[i] = lam[i] * x[i];
        s0 += g[i] * x[i];
      }
      *f = 0.5 * ((s0 + s1) + (s2 + s3));
    }
    else if (g != NULL)
      for (i = 0; i < n; i++) g[i] = lam[i] * x[i];
    else if (f != NULL) {
      for (i = 0; i + 3 < n; i += 4) {
        s0 += lam[i] * x[i] * x[i];
        s1 += lam[i + 1] * x[i + 1] * x[i + 1];
        s2 += lam[i + 2] * x[i + 2] * x[i + 2];
        s3 += lam[i + 3] * x[i + 3] * x[i + 3];
      }
      for (; i < n; i++) s0 += lam[i] * x[i] * x[i];
      *f = 0.5 * ((s0 + s1) + (s2 + s3));
    }
    return OL_OK;
  }
  if (g != NULL) {                  /* g = H x, f = x'g / 2 */
    cblas_dsymv(CblasRowMajor, CblasUpper, n, 1.0, q->H, n, x, 1, 0.0, g, 1);
    if (f != NULL) *f = 0.5 * cblas_ddot(n, x, 1, g, 1);
  }
  else if (f != NULL) {             /* no scratch: row by row */
    double s = 0;
    for (i = 0; i < n; i++)
      s += x[i] * cblas_ddot(n, q->H + (size_t)i * n, 1, x, 1);
    *f = 0.5 * s;
  }
  return OL_OK;
}

/* The diagonal case's gradient, coordinates lo .. hi-1 into gb. */
static int quad_gsep (void *ud, const double *x, int lo, int hi, double *gb,
                      ol_err *e)
{
  const quad *q = ud;
  const double *lam = q->lambda + lo;
  uint64_t bad = 0;
  int i;
  ol_gsep_prefetch(q->lambda, lo, hi, q->n);
  ol_gsep_prefetch(x, lo, hi, q->n);
  x += lo;
  for (i = 0; i < hi - lo; i++) {
    gb[i] = lam[i] * x[i];
    bad |= ol_fbit(gb[i]);
  }
  return OL_FBITS_OK(bad) ? OL_OK
    : ol_err_set(e, OL_EDOM, "non-finite gradient");
}

static int quad_hess (void *ud, const double *x, double *H, ol_err *e)
{
  const quad *q = ud;
  int i, n = q->n;
  (void)x; (void)e;
  if (q->H != NULL) {
    cblas_dcopy(n * n, q->H, 1, H, 1);
    return OL_OK;
  }
  for (i = 0; i < n * n; i++) H[i] = 0;
  for (i = 0; i < n; i++) H[(size_t)i * n + i] = q->lambda[i];
  return OL_OK;
}

/* H = Q diag(lambda) Q' as B B' with B = Q diag(sqrt(lambda)) (dsyrk),
** then the lower triangle mirrored from the upper one. */
static int quad_rotate (quad *q, uint64_t seed, ol_err *e)
{
  int i, j, n = q->n, rc;
  ol_rng rng;
  double *B = malloc(sizeof(double) * (size_t)n * n);
  q->H = malloc(sizeof(double) * (size_t)n * n);
  if (B == NULL || q->H == NULL) {
    free(B);
    return ol_err_set(e, OL_ENOMEM, "quadratic: out of memory for H");
  }
  ol_rng_seed(&rng, seed, 0);
  rc = ol_mat_randorth(n, &rng, B, e);
  if (rc != OL_OK) {
    free(B);
    return rc;
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      B[(size_t)i * n + j] *= sqrt(q->lambda[j]);
  cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, n, n, 1.0, B, n,
              0.0, q->H, n);
  for (i = 0; i < n; i++)
    for (j = 0; j < i; j++)
      q->H[(size_t)i * n + j] = q->H[(size_t)j * n + i];
  free(B);
  return OL_OK;
}

static const ol_param quad_params[] = {
  {"n", OL_P_INT, 2, 1, 1e8, "dimension", NULL},
  {"cond", OL_P_REAL, 10, 1, 1e12,
   "condition number L/mu (L = 1, mu = 1/cond)", NULL},
  {"seed", OL_P_INT, 1, 0, 9007199254740992.0,
   "seed of the random rotation Q", NULL},
  {"rotate", OL_P_BOOL, 1, 0, 1,
   "rotate the eigenbasis by a Haar-random Q (needs n <= 4096)", NULL},
};

static int quad_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int i, n = (int)v[0].num, rotate = v[3].num != 0, rc;
  double cond = v[1].num;
  quad *q;
  if (rotate && n > QUAD_MAXDENSE)
    return ol_err_set(e, OL_EINVAL, "rotate needs n <= %d", QUAD_MAXDENSE);
  q = calloc(1, sizeof *q);
  if (q == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = q;
  p->free_ud = quad_free;
  q->n = n;
  q->lambda = malloc(sizeof(double) * (size_t)n);
  if (q->lambda == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  for (i = 0; i < n; i++)
    q->lambda[i] = n == 1 ? 1.0 : pow(cond, -(double)i / (n - 1));
  if (rotate && n > 1) {
    rc = quad_rotate(q, (uint64_t)v[2].num, e);
    if (rc != OL_OK) return rc;
  }
  snprintf(p->name, sizeof p->name, "quadratic");
  p->kind = OL_OBJECTIVE;
  p->n = n;
  p->fdf = quad_fdf;
  p->quadratic = 1;
  p->hess = n <= QUAD_MAXDENSE ? quad_hess : NULL;
  p->gsep = q->H == NULL ? quad_gsep : NULL;
  if ((p->x0 = ol_problem_alloc(n, e)) == NULL) return OL_ENOMEM;
  if ((p->xstar = ol_problem_alloc(n, e)) == NULL) return OL_ENOMEM;
  for (i = 0; i < n; i++) p->x0[i] = 1;
  p->fstar = 0;
  if (rotate)
    snprintf(p->desc, sizeof p->desc, "quadratic{n=%d, cond=%g, seed=%.0f}",
             n, cond, v[2].num);
  else
    snprintf(p->desc, sizeof p->desc, "quadratic{n=%d, cond=%g, rotate=0}",
             n, cond);
  return OL_OK;
}

const ol_problem_type ol_problem_quadratic = {
  "quadratic", OL_OBJECTIVE,
  "1/2 (x-x*)'H(x-x*), spectrum log-spaced in [1/cond, 1], x* = 0",
  NULL,
  quad_params, (int)(sizeof quad_params / sizeof quad_params[0]),
  quad_create
};
