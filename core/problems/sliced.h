/*
** core/problems/sliced.h -- the dense linear algebra of the problem
** builders in slices that look at Ctrl-C (ol_interrupted) between them,
** so that a build of any size in range stops within a few tens of
** milliseconds: normals, matrix products, Householder QR, a Haar random
** orthogonal matrix and least squares.  Each returns OL_OK, or OL_EINTR
** ("WHO: interrupted") with its output partly written, or OL_ENOMEM /
** OL_ENUMERIC with the reason; who names the builder in messages.
*/
#ifndef OL_SLICED_H
#define OL_SLICED_H

#include <stddef.h>

#include "ol.h"
#include "rng.h"

/* OL_EINTR with "WHO: interrupted" when Ctrl-C came, else OL_OK. */
int ol_sl_intr (const char *who, ol_err *e);

/* z[0 .. n-1] = n standard normals of r, the same draws as
** ol_rng_normals. */
int ol_sl_normals (ol_rng *r, double *z, size_t n, const char *who,
                   ol_err *e);

/* C = alpha op(A) op(B), row-major, op(A) M x K and op(B) K x N (ta, tb:
** transpose A or B), as cblas_dgemm with beta 0, in tiles of about 10^8
** flops. */
int ol_sl_gemm (int ta, int tb, int M, int N, int K, double alpha,
                const double *A, int lda, const double *B, int ldb,
                double *C, int ldc, const char *who, ol_err *e);

/* Q (n x n, row-major) Haar-distributed from r: the QR of n^2 normals
** of r read row by row, Q D with D = diag(sign R_jj) (Mezzadri 2007,
** "How to generate random matrices from the classical compact groups",
** section 5), as ol_mat_randorth but sliced. */
int ol_sl_randorth (int n, ol_rng *r, double *Q, const char *who,
                    ol_err *e);

/* x (d) = argmin ||A x - y|| for A n x d row-major (n >= d) of full
** column rank, by Householder QR of [A y] (as LAPACK's dgels); A and y
** are not changed.  OL_ENUMERIC when R has a zero on its diagonal. */
int ol_sl_lstsq (int n, int d, const double *A, const double *y, double *x,
                 const char *who, ol_err *e);

/* free(ptr) of a block of about bytes, which the caller had written:
** above 32 MB in a detached thread, since the kernel takes a few hundred
** milliseconds to take back a gigabyte, and a build that Ctrl-C stopped
** must give the prompt back at once (at once when no thread can be made). */
void ol_sl_release (void *ptr, size_t bytes);

#endif
