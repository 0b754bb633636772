/*
** core/problems/linreg.c -- synthetic least-squares linear regression,
** also offered as a finite sum over its samples.
**
**   f(x) = 1/(2n) ||A x - y||^2 = (1/n) sum_i f_i(x),
**   f_i(x) = 1/2 (a_i'x - y_i)^2,  grad f_i = (a_i'x - y_i) a_i
**   grad f(x) = A'(A x - y) / n,   Hess f = A'A / n
**
** Data (seeded): rows a_i = Q diag(sqrt(lambda)) z_i with z_i ~ N(0, I_d)
** and Q Haar-random (ol_mat_randorth), so the feature covariance
** Q diag(lambda) Q' has eigenvalues lambda_j = cond^(-j/(d-1)) log-spaced
** in [1/cond, 1] (lambda = 1 when d = 1); w_true ~ N(0, I_d);
** y = A w_true + sigma e, e ~ N(0, I_n).  The problem dimension is d and
** n >= d is required, so the minimiser is unique (almost surely):
** x* = argmin ||A x - y|| is computed by Householder QR (as dgels) and
** f* = f(x*).  x0 = 0.  nsum = n with the component oracle above (for
** minibatch noise and finite-sum methods).  The oracle uses scratch kept
** in the problem (n doubles): not for two threads at once.  d <= 4096.
*/
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ol.h"
#include "problem.h"
#include "rng.h"
#include "sliced.h"
#include "vec.h"

#define LINREG_MAXD 4096

typedef struct linreg {
  int n, d;
  double *A;        /* n x d row-major (owned) */
  double *y;        /* n targets (owned) */
  double *r;        /* n scratch: residual A x - y */
} linreg;

static void linreg_free (void *ud)
{
  linreg *L = ud;
  if (L == NULL) return;
  free(L->A);
  free(L->y);
  free(L->r);
  free(L);
}

static int linreg_fdf (void *ud, const double *x, double *f, double *g,
                       ol_err *e)
{
  const linreg *L = ud;
  int n = L->n, d = L->d;
  (void)e;
  /* (1) residual r = A x - y */
  cblas_dcopy(n, L->y, 1, L->r, 1);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, n, d, 1.0, L->A, d, x, 1,
              -1.0, L->r, 1);
  /* (2) f = ||r||^2 / (2n), g = A'r / n */
  if (f != NULL) *f = 0.5 * cblas_ddot(n, L->r, 1, L->r, 1) / n;
  if (g != NULL)
    cblas_dgemv(CblasRowMajor, CblasTrans, n, d, 1.0 / n, L->A, d, L->r, 1,
                0.0, g, 1);
  return OL_OK;
}

static int linreg_fdfi (void *ud, long i, const double *x, double *f,
                        double *g, ol_err *e)
{
  const linreg *L = ud;
  int j, d = L->d;
  const double *a = L->A + (size_t)i * d;
  double ri = cblas_ddot(d, a, 1, x, 1) - L->y[i];
  (void)e;
  if (f != NULL) *f = 0.5 * ri * ri;
  if (g != NULL)
    for (j = 0; j < d; j++) g[j] = ri * a[j];
  return OL_OK;
}

/* H = A'A / n: upper triangle by dsyrk, then mirrored. */
static int linreg_hess (void *ud, const double *x, double *H, ol_err *e)
{
  const linreg *L = ud;
  int i, j, d = L->d;
  (void)x; (void)e;
  cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, d, L->n, 1.0 / L->n,
              L->A, d, 0.0, H, d);
  for (i = 0; i < d; i++)
    for (j = 0; j < i; j++) H[(size_t)i * d + j] = H[(size_t)j * d + i];
  return OL_OK;
}

/* A = Z B' with Z (n x d) iid N(0, 1) and B = Q diag(sqrt(lambda)), then
** y = A w + sigma e.  w is d scratch. */
static int linreg_data (linreg *L, double cond, double sigma, uint64_t seed,
                        double *w, ol_err *e)
{
  int i, j, n = L->n, d = L->d, rc;
  double *B = malloc(sizeof(double) * (size_t)d * d);
  double *Z = malloc(sizeof(double) * (size_t)n * d);
  ol_rng rng;
  if (B == NULL || Z == NULL) {
    rc = ol_err_set(e, OL_ENOMEM, "linreg: out of memory for the data");
    goto done;
  }
  ol_rng_seed(&rng, seed, 0);
  /* (1) B = Q diag(sqrt(lambda)); every step in slices that look at
  ** Ctrl-C (sliced.h: n d up to 1e9 takes minutes) */
  if ((rc = ol_sl_randorth(d, &rng, B, "linreg", e)) != OL_OK) goto done;
  for (j = 0; j < d; j++) {
    double s = d == 1 ? 1.0 : sqrt(pow(cond, -(double)j / (d - 1)));
    for (i = 0; i < d; i++) B[(size_t)i * d + j] *= s;
  }
  /* (2) A = Z B' (row i is B z_i) */
  if ((rc = ol_sl_normals(&rng, Z, (size_t)n * d, "linreg", e)) != OL_OK ||
      (rc = ol_sl_gemm(0, 1, n, d, d, 1.0, Z, d, B, d, L->A, d, "linreg",
                       e)) != OL_OK)
    goto done;
  /* (3) y = A w_true + sigma e */
  ol_rng_normals(&rng, w, d);
  if ((rc = ol_sl_normals(&rng, L->y, (size_t)n, "linreg", e)) != OL_OK)
    goto done;
  cblas_dgemv(CblasRowMajor, CblasNoTrans, n, d, 1.0, L->A, d, w, 1, sigma,
              L->y, 1);
  rc = OL_OK;
done:
  free(B);
  /* n d up to 1e9 doubles written: given back in the background */
  ol_sl_release(Z, sizeof(double) * (size_t)n * d);
  if (rc == OL_EINTR) {
    ol_sl_release(L->A, sizeof(double) * (size_t)n * d);
    L->A = NULL;
  }
  return rc;
}

/* x* = argmin ||A x - y|| by Householder QR (as dgels), in slices. */
static int linreg_solve (const linreg *L, double *xstar, ol_err *e)
{
  return ol_sl_lstsq(L->n, L->d, L->A, L->y, xstar, "linreg", e);
}

static const ol_param linreg_params[] = {
  {"n", OL_P_INT, 200, 1, 1e8, "number of samples (components of the sum)",
   NULL},
  {"d", OL_P_INT, 20, 1, LINREG_MAXD,
   "number of features (problem dimension, d <= n)", NULL},
  {"cond", OL_P_REAL, 100, 1, 1e12,
   "condition number of the feature covariance", NULL},
  {"sigma", OL_P_REAL, 0.1, 0, 1e6, "standard deviation of the noise in y",
   NULL},
  {"seed", OL_P_INT, 1, 0, 9007199254740992.0, "seed of the data", NULL},
};

static int linreg_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int n = (int)v[0].num, d = (int)v[1].num, rc;
  double cond = v[2].num, sigma = v[3].num;
  linreg *L;
  if (d > n)
    return ol_err_set(e, OL_EINVAL, "d = %d is out of range "
                      "[1, n = %d]", d, n);
  if ((double)n * d > 1e9)
    return ol_err_set(e, OL_EINVAL, "linreg needs n*d <= 1e9");
  if ((L = calloc(1, sizeof *L)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = L;
  p->free_ud = linreg_free;
  L->n = n;
  L->d = d;
  L->A = malloc(sizeof(double) * (size_t)n * d);
  L->y = malloc(sizeof(double) * (size_t)n);
  L->r = malloc(sizeof(double) * (size_t)n);
  if (L->A == NULL || L->y == NULL || L->r == NULL)
    return ol_err_set(e, OL_ENOMEM, "linreg: out of memory for the data");
  if ((p->x0 = ol_problem_alloc(d, e)) == NULL) return OL_ENOMEM;
  if ((p->xstar = ol_problem_alloc(d, e)) == NULL) return OL_ENOMEM;
  /* w_true lives in xstar until x* replaces it */
  rc = linreg_data(L, cond, sigma, (uint64_t)v[4].num, p->xstar, e);
  if (rc != OL_OK) return rc;
  if ((rc = linreg_solve(L, p->xstar, e)) != OL_OK) {
    if (rc == OL_EINTR) {
      ol_sl_release(L->A, sizeof(double) * (size_t)n * d);
      L->A = NULL;
    }
    return rc;
  }
  linreg_fdf(L, p->xstar, &p->fstar, NULL, e);
  snprintf(p->name, sizeof p->name, "linreg");
  p->kind = OL_OBJECTIVE;
  p->n = d;
  p->fdf = linreg_fdf;
  p->quadratic = 1;
  p->hess = linreg_hess;
  p->nsum = n;
  p->fdfi = linreg_fdfi;
  snprintf(p->desc, sizeof p->desc, "linreg{n=%d, d=%d, cond=%g, sigma=%g, "
           "seed=%.0f}", n, d, cond, sigma, v[4].num);
  return OL_OK;
}

const ol_problem_type ol_problem_linreg = {
  .name = "linreg",
  .kind = OL_OBJECTIVE,
  .doc = "1/(2n) ||Ax - y||^2, finite sum over n samples, x* by Householder "
         "QR",
  .params = linreg_params,
  .nparams = (int)(sizeof linreg_params / sizeof linreg_params[0]),
  .create = linreg_create,
};
