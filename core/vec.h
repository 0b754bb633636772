/*
** core/vec.h -- dense vectors and matrices over CBLAS / LAPACKE.
**
** Vectors are plain double arrays with a length; matrices are row-major
** double arrays.  These wrappers keep call sites short and are the only
** place that spells out CBLAS argument lists for level-1 and level-2
** operations; anything heavier calls CBLAS / LAPACKE directly.
*/
#ifndef OL_VEC_H
#define OL_VEC_H

double ol_vec_dot (const double *x, const double *y, int n);
double ol_vec_nrm2 (const double *x, int n);
double ol_vec_nrminf (const double *x, int n);
void   ol_vec_axpy (double a, const double *x, double *y, int n); /* y += a x */
void   ol_vec_scal (double a, double *x, int n);
void   ol_vec_copy (const double *x, double *y, int n);           /* y = x */
void   ol_vec_set (double *x, double v, int n);
double ol_vec_dist (const double *x, const double *y, int n);     /* ||x-y|| */

/* y = alpha A x + beta y, A row-major m x n. */
void ol_mat_gemv (int m, int n, double alpha, const double *A,
                  const double *x, double beta, double *y);
/* y = alpha A' x + beta y, A row-major m x n (x has m, y has n entries). */
void ol_mat_gemv_t (int m, int n, double alpha, const double *A,
                    const double *x, double beta, double *y);

/* Allocation helpers: NULL on failure (and e is set).  ol_vec_free(NULL)
** is a no-op. */
struct ol_err;
double *ol_vec_new (int n, struct ol_err *e);      /* zero-filled */
double *ol_vec_dup (const double *x, int n, struct ol_err *e);
/* A zero-filled rows x cols matrix; OL_EINVAL (e set) when it has more
** than INT_MAX entries (dense code indexes with int), OL_ENOMEM. */
double *ol_mat_new (int rows, int cols, struct ol_err *e);
void    ol_vec_free (double *x);

/* Random orthogonal n x n matrix Q (row-major) from the QR factorisation
** of a Gaussian matrix with the sign fix that makes Q Haar-distributed
** (Mezzadri 2007).  Uses LAPACKE dgeqrf/dorgqr. */
struct ol_rng;
int ol_mat_randorth (int n, struct ol_rng *r, double *Q, struct ol_err *e);

#endif
