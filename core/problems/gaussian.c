/*
** core/problems/gaussian.c -- an n-D Gaussian density N(mu, Sigma) with a
** dense covariance.
**
**   U(x) = 1/2 (x - mu)' P (x - mu),  P = Sigma^-1,  grad U = P (x - mu),
**   Hessian P.
**
** Sigma is either given (cov = a table of n rows, symmetric positive
** definite; P from its Cholesky factor, LAPACKE dpotrf + dpotri) or
** Sigma = Q diag(lambda) Q' with lambda_i = cond^(-i/(n-1)), i = 0..n-1,
** log-spaced from 1 down to 1/cond (condition number cond; lambda = 1
** when n = 1), and Q Haar-random from seed (ol_mat_randorth); then P = Q
** diag(1/lambda) Q' exactly, with no inversion.  n <= 1024, so a build is
** a fraction of a second.
** U is the potential without its constant (U(mu) = 0).  Known facts:
** mean = x* = mu (default 0), cov = Sigma, f* = 0.  x0 = mu + ones.
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
#include "vec.h"

#define GAUSS_MAXN 1024

typedef struct gaussian {
  int n;
  double *mu;       /* n (owned) */
  double *P;        /* precision, n x n, both triangles (owned) */
  double *d;        /* n scratch: x - mu */
} gaussian;

static void gaussian_free (void *ud)
{
  gaussian *G = ud;
  if (G == NULL) return;
  free(G->mu);
  free(G->P);
  free(G->d);
  free(G);
}

static int gaussian_fdf (void *ud, const double *x, double *f, double *g,
                         ol_err *e)
{
  const gaussian *G = ud;
  int i, n = G->n;
  (void)e;
  for (i = 0; i < n; i++) G->d[i] = x[i] - G->mu[i];
  if (g != NULL) {                  /* g = P d, f = d'g / 2 */
    cblas_dsymv(CblasRowMajor, CblasUpper, n, 1.0, G->P, n, G->d, 1, 0.0, g,
                1);
    if (f != NULL) *f = 0.5 * cblas_ddot(n, G->d, 1, g, 1);
  }
  else if (f != NULL) {
    double s = 0;
    for (i = 0; i < n; i++)
      s += G->d[i] * cblas_ddot(n, G->P + (size_t)i * n, 1, G->d, 1);
    *f = 0.5 * s;
  }
  return OL_OK;
}

static int gaussian_hess (void *ud, const double *x, double *H, ol_err *e)
{
  const gaussian *G = ud;
  (void)x; (void)e;
  memcpy(H, G->P, sizeof(double) * (size_t)G->n * G->n);
  return OL_OK;
}

static const ol_param gaussian_params[] = {
  {"n", OL_P_INT, 10, 1, GAUSS_MAXN, "dimension (the size of cov when cov "
   "is given)", NULL},
  {"cond", OL_P_REAL, 100, 1, 1e12, "condition number of the random "
   "covariance (eigenvalues log-spaced in [1/cond, 1])", NULL},
  {"seed", OL_P_INT, 1, 0, 9007199254740992.0, "seed of the random "
   "rotation", NULL},
  {"cov", OL_P_MATRIX, 0, 0, 0, "covariance, n rows of n (symmetric "
   "positive definite); replaces cond and seed", NULL},
  {"mu", OL_P_VECTOR, 0, 0, 0, "mean, n numbers (default 0)", NULL},
};

static int lapackfail (ol_err *e, const char *what, lapack_int info)
{
  return ol_err_set(e, info > 0 ? OL_ENUMERIC : OL_EINVAL, "gaussian: %s "
                    "failed (info %d)", what, (int)info);
}

/* Sigma (given) into p->cov and its inverse into G->P. */
static int from_cov (ol_problem *p, gaussian *G, const ol_pval *c,
                     ol_err *e)
{
  int i, j, n = G->n;
  double amax = 0;
  lapack_int info;
  if (c->rows != c->cols)
    return ol_err_set(e, OL_EINVAL, "gaussian: cov must be square (n rows "
                      "of n), got %d x %d", c->rows, c->cols);
  memcpy(p->cov, c->arr, sizeof(double) * (size_t)n * n);
  for (i = 0; i < n * n; i++) amax = fmax(amax, fabs(p->cov[i]));
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++) {
      double *u = p->cov + (size_t)i * n + j, *l = p->cov + (size_t)j * n + i;
      if (fabs(*u - *l) > 1e-12 * amax)
        return ol_err_set(e, OL_EINVAL, "gaussian: cov is not symmetric: "
                          "cov[%d][%d] = %g but cov[%d][%d] = %g", i + 1,
                          j + 1, *u, j + 1, i + 1, *l);
      *u = *l = 0.5 * (*u + *l);
    }
  memcpy(G->P, p->cov, sizeof(double) * (size_t)n * n);
  info = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'U', n, G->P, n);
  if (info > 0)
    return ol_err_set(e, OL_EINVAL, "gaussian: cov is not positive "
                      "definite (Cholesky fails at column %d)", (int)info);
  if (info < 0) return lapackfail(e, "dpotrf", info);
  if ((info = LAPACKE_dpotri(LAPACK_ROW_MAJOR, 'U', n, G->P, n)) != 0)
    return lapackfail(e, "dpotri", info);
  for (i = 0; i < n; i++)
    for (j = 0; j < i; j++) G->P[(size_t)i * n + j] = G->P[(size_t)j * n + i];
  return OL_OK;
}

/* Sigma = Q diag(lambda) Q' into p->cov, P = Q diag(1/lambda) Q'. */
static int from_cond (ol_problem *p, gaussian *G, double cond, double seed,
                      ol_err *e)
{
  int i, j, n = G->n, rc;
  double *Q = ol_problem_alloc(n * n, e), *B = ol_problem_alloc(n * n, e);
  ol_rng r;
  if (Q == NULL || B == NULL) {
    free(Q);
    free(B);
    return OL_ENOMEM;
  }
  ol_rng_seed(&r, (uint64_t)seed, 0);
  if ((rc = ol_mat_randorth(n, &r, Q, e)) != OL_OK) {
    free(Q);
    free(B);
    return rc;
  }
  /* (1) Sigma = (Q L^1/2)(Q L^1/2)', B = Q L^1/2 */
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      double lam = n > 1 ? pow(cond, -(double)j / (n - 1)) : 1;
      B[(size_t)i * n + j] = Q[(size_t)i * n + j] * sqrt(lam);
    }
  cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, n, n, 1.0, B, n, 0.0,
              p->cov, n);
  /* (2) P = (Q L^-1/2)(Q L^-1/2)' */
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      double lam = n > 1 ? pow(cond, -(double)j / (n - 1)) : 1;
      B[(size_t)i * n + j] = Q[(size_t)i * n + j] / sqrt(lam);
    }
  cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, n, n, 1.0, B, n, 0.0,
              G->P, n);
  for (i = 0; i < n; i++)
    for (j = 0; j < i; j++) {
      p->cov[(size_t)i * n + j] = p->cov[(size_t)j * n + i];
      G->P[(size_t)i * n + j] = G->P[(size_t)j * n + i];
    }
  free(Q);
  free(B);
  return OL_OK;
}

static int gaussian_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int i, n = (int)v[0].num, rc;
  const ol_pval *cov = &v[3], *mu = &v[4];
  gaussian *G;
  if (cov->arr != NULL) {
    n = cov->rows;
    if (n > GAUSS_MAXN)
      return ol_err_set(e, OL_EINVAL, "gaussian: cov has %d rows, at most "
                        "%d", n, GAUSS_MAXN);
    if (v[0].num != gaussian_params[0].def && (int)v[0].num != n)
      return ol_err_set(e, OL_EINVAL, "gaussian: n = %d but cov has %d rows",
                        (int)v[0].num, n);
  }
  if (mu->arr != NULL && mu->cols != n)
    return ol_err_set(e, OL_EINVAL, "gaussian: mu has %d entries, expected "
                      "n = %d", mu->cols, n);
  if ((G = calloc(1, sizeof *G)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = G;
  p->free_ud = gaussian_free;
  G->n = n;
  if ((G->mu = ol_problem_alloc(n, e)) == NULL
      || (G->d = ol_problem_alloc(n, e)) == NULL
      || (G->P = ol_problem_alloc(n * n, e)) == NULL
      || (p->cov = ol_problem_alloc(n * n, e)) == NULL
      || (p->mean = ol_problem_alloc(n, e)) == NULL
      || (p->xstar = ol_problem_alloc(n, e)) == NULL
      || (p->x0 = ol_problem_alloc(n, e)) == NULL)
    return OL_ENOMEM;
  if (mu->arr != NULL) memcpy(G->mu, mu->arr, sizeof(double) * (size_t)n);
  rc = cov->arr != NULL ? from_cov(p, G, cov, e)
                        : from_cond(p, G, v[1].num, v[2].num, e);
  if (rc != OL_OK) return rc;
  for (i = 0; i < n; i++) {
    p->mean[i] = p->xstar[i] = G->mu[i];
    p->x0[i] = G->mu[i] + 1;
  }
  p->fstar = 0;
  p->kind = OL_DENSITY;
  p->n = n;
  p->fdf = gaussian_fdf;
  p->hess = gaussian_hess;
  snprintf(p->name, sizeof p->name, "gaussian");
  if (cov->arr != NULL)
    snprintf(p->desc, sizeof p->desc, "gaussian{n=%d, cov=...%s}", n,
             mu->arr != NULL ? ", mu=..." : "");
  else
    snprintf(p->desc, sizeof p->desc, "gaussian{n=%d, cond=%g, seed=%.0f%s}",
             n, v[1].num, v[2].num, mu->arr != NULL ? ", mu=..." : "");
  return OL_OK;
}

const ol_problem_type ol_problem_gaussian = {
  .name = "gaussian",
  .kind = OL_DENSITY,
  .doc = "N(mu, Sigma), Sigma dense: given, or random of condition number "
         "cond; mean mu, cov Sigma",
  .params = gaussian_params,
  .nparams = (int)(sizeof gaussian_params / sizeof gaussian_params[0]),
  .create = gaussian_create,
};
