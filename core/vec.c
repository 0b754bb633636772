/*
** core/vec.c -- dense vector and matrix helpers over CBLAS / LAPACKE.
**
** Level-1 wrappers take a plain loop below SMALL entries (a CBLAS call
** costs more than the work for 2-d problems, which dominate interactive
** use) and call CBLAS above it.  Both paths are deterministic, so replays
** stay byte-identical.  The small nrm2 / dist loops fall back to a
** scaled norm when the plain sum of squares over- or underflows (NaN
** inputs give NaN either way).
*/
#include "vec.h"

#include "ol.h"
#include "rng.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define SMALL 32

double ol_vec_dot (const double *x, const double *y, int n)
{
  double s = 0;
  int i;
  if (n > SMALL) return cblas_ddot(n, x, 1, y, 1);
  for (i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

double ol_vec_nrm2 (const double *x, int n)
{
  double s = 0, m;
  int i;
  if (n > SMALL) return cblas_dnrm2(n, x, 1);
  for (i = 0; i < n; i++) s += x[i] * x[i];
  if (!isinf(s) && !(s < 0x1p-900)) return sqrt(s);
  /* rescale by the largest entry */
  m = ol_vec_nrminf(x, n);
  if (m == 0 || isinf(m)) return m;
  for (i = 0, s = 0; i < n; i++) s += (x[i] / m) * (x[i] / m);
  return m * sqrt(s);
}

double ol_vec_nrminf (const double *x, int n)
{
  double m = 0;
  int i;
  for (i = 0; i < n; i++) {
    double a = fabs(x[i]);
    if (a > m || isnan(a)) m = a;
    if (isnan(m)) return m;
  }
  return m;
}

void ol_vec_axpy (double a, const double *x, double *y, int n)
{
  int i;
  if (n > SMALL) {
    cblas_daxpy(n, a, x, 1, y, 1);
    return;
  }
  for (i = 0; i < n; i++) y[i] += a * x[i];
}

void ol_vec_scal (double a, double *x, int n)
{
  int i;
  if (n > SMALL) {
    cblas_dscal(n, a, x, 1);
    return;
  }
  for (i = 0; i < n; i++) x[i] *= a;
}

void ol_vec_copy (const double *x, double *y, int n)
{
  if (n > 0 && x != y) memmove(y, x, (size_t)n * sizeof *x);
}

void ol_vec_set (double *x, double v, int n)
{
  int i;
  for (i = 0; i < n; i++) x[i] = v;
}

/* ||x - y||_2 without a temporary: plain sum of squares, rescaled by the
** largest difference when it over- or underflows. */
double ol_vec_dist (const double *x, const double *y, int n)
{
  double s = 0, m = 0;
  int i;
  for (i = 0; i < n; i++) {
    double d = x[i] - y[i];
    s += d * d;
  }
  if (!isinf(s) && !(s < 0x1p-900)) return sqrt(s);
  for (i = 0; i < n; i++) {
    double a = fabs(x[i] - y[i]);
    if (a > m) m = a;
  }
  if (m == 0 || isinf(m)) return m;
  s = 0;
  for (i = 0; i < n; i++) {
    double d = (x[i] - y[i]) / m;
    s += d * d;
  }
  return m * sqrt(s);
}

void ol_mat_gemv (int m, int n, double alpha, const double *A,
                  const double *x, double beta, double *y)
{
  if (m <= 0) return;
  if (n <= 0) {
    ol_vec_scal(beta, y, m);
    return;
  }
  cblas_dgemv(CblasRowMajor, CblasNoTrans, m, n, alpha, A, n, x, 1, beta,
              y, 1);
}

void ol_mat_gemv_t (int m, int n, double alpha, const double *A,
                    const double *x, double beta, double *y)
{
  if (n <= 0) return;
  if (m <= 0) {
    ol_vec_scal(beta, y, n);
    return;
  }
  cblas_dgemv(CblasRowMajor, CblasTrans, m, n, alpha, A, n, x, 1, beta,
              y, 1);
}

/* Zero-filled n doubles (at least one is allocated so n = 0 succeeds). */
double *ol_vec_new (int n, ol_err *e)
{
  double *x;
  if (n < 0) {
    ol_err_set(e, OL_EINVAL, "vector length %d is negative", n);
    return NULL;
  }
  x = calloc(n > 0 ? (size_t)n : 1, sizeof *x);
  if (x == NULL) ol_err_set(e, OL_ENOMEM, "out of memory (%d doubles)", n);
  return x;
}

double *ol_mat_new (int rows, int cols, ol_err *e)
{
  size_t k = (size_t)(rows > 0 ? rows : 0) * (size_t)(cols > 0 ? cols : 0);
  if (rows < 0 || cols < 0 || k > INT_MAX) {
    ol_err_set(e, OL_EINVAL, "a %d x %d dense matrix is past the %d entries "
               "a dense method indexes (n <= 46340 for n x n)", rows, cols,
               INT_MAX);
    return NULL;
  }
  return ol_vec_new((int)k, e);
}

double *ol_vec_dup (const double *x, int n, ol_err *e)
{
  double *y = ol_vec_new(n, e);
  if (y != NULL && n > 0) memcpy(y, x, (size_t)n * sizeof *x);
  return y;
}

void ol_vec_free (double *x)
{
  free(x);
}

/* Haar orthogonal matrix: G = QR with G Gaussian, then Q D with
** D = diag(sign(R_jj)) (Mezzadri 2007, "How to generate random matrices
** from the classical compact groups", section 5).  Q is n x n row-major. */
int ol_mat_randorth (int n, ol_rng *r, double *Q, ol_err *e)
{
  double *tau = NULL, *sgn = NULL;
  lapack_int info;
  int i, j, rc = OL_OK;
  if (n < 1)
    return ol_err_set(e, OL_EINVAL, "randorth: n = %d is out of range "
                      "[1, inf]", n);
  tau = ol_vec_new(n, e);
  sgn = ol_vec_new(n, e);
  if (tau == NULL || sgn == NULL) {
    rc = OL_ENOMEM;
    goto fail;
  }
  ol_rng_normals(r, Q, n * n);
  info = LAPACKE_dgeqrf(LAPACK_ROW_MAJOR, n, n, Q, n, tau);
  if (info != 0) {
    rc = ol_err_set(e, info < 0 ? OL_EINVAL : OL_ENUMERIC,
                    "randorth: dgeqrf failed (info %d)", (int)info);
    goto fail;
  }
  for (j = 0; j < n; j++) sgn[j] = Q[(size_t)j * n + j] < 0 ? -1 : 1;
  info = LAPACKE_dorgqr(LAPACK_ROW_MAJOR, n, n, n, Q, n, tau);
  if (info != 0) {
    rc = ol_err_set(e, info < 0 ? OL_EINVAL : OL_ENUMERIC,
                    "randorth: dorgqr failed (info %d)", (int)info);
    goto fail;
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) Q[(size_t)i * n + j] *= sgn[j];
fail:
  free(tau);
  free(sgn);
  return rc;
}
