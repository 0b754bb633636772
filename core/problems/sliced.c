/*
** core/problems/sliced.c -- dense linear algebra in slices that poll
** Ctrl-C (see sliced.h).  The QR is LAPACK's blocked Householder QR
** (dgeqrf's algorithm: a panel of QB columns factored with its block
** reflector T, here by Elmroth & Gustavson's recursive QR, LAPACK's
** dgeqrt3, then dlarfb on the columns right of it) with the trailing
** update cut into column tiles of about 10^8 flops each (Golub & Van
** Loan, Matrix Computations, 4th ed., section 5.2.3); Q is formed
** backwards as dorgqr does.  The tiles are large enough that BLAS runs
** near its full speed and small enough that a Ctrl-C is seen within
** about 10 ms on a desktop core.
*/
#include <cblas.h>
#include <lapacke.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sliced.h"

#define QB 32                /* reflectors per panel */
#define QC 256               /* at most this many columns per tile */
#define FLOPS 1e8            /* work between two looks at Ctrl-C */
#define NCHUNK (1 << 18)     /* normals between two looks */

int ol_sl_intr (const char *who, ol_err *e)
{
  return ol_interrupted() ? ol_err_set(e, OL_EINTR, "%s: interrupted", who)
                          : OL_OK;
}

int ol_sl_normals (ol_rng *r, double *z, size_t n, const char *who,
                   ol_err *e)
{
  size_t i;
  for (i = 0; i < n; i += NCHUNK) {
    size_t k = n - i < NCHUNK ? n - i : NCHUNK;
    int rc = ol_sl_intr(who, e);
    if (rc != OL_OK) return rc;
    ol_rng_normals(r, z + i, (int)k);
  }
  return OL_OK;
}

static int imin (int a, int b)
{
  return a < b ? a : b;
}

int ol_sl_gemm (int ta, int tb, int M, int N, int K, double alpha,
                const double *A, int lda, const double *B, int ldb,
                double *C, int ldc, const char *who, ol_err *e)
{
  int ti = imin(M, 256), tj = imin(N, 256), tl, i, j, l, rc;
  double per = (double)ti * tj;
  tl = per * K > FLOPS / 2 ? (int)(FLOPS / 2 / per) : K;
  if (tl < 1) tl = 1;
  if (M < 1 || N < 1) return OL_OK;
  if (K < 1) {
    for (i = 0; i < M; i++) memset(C + (size_t)i * ldc, 0, (size_t)N
                                   * sizeof *C);
    return OL_OK;
  }
  for (i = 0; i < M; i += ti)
    for (j = 0; j < N; j += tj)
      for (l = 0; l < K; l += tl) {
        int mi = imin(ti, M - i), nj = imin(tj, N - j), kl = imin(tl, K - l);
        const double *a = ta ? A + (size_t)l * lda + i : A + (size_t)i * lda
                               + l;
        const double *b = tb ? B + (size_t)j * ldb + l : B + (size_t)l * ldb
                               + j;
        if ((rc = ol_sl_intr(who, e)) != OL_OK) return rc;
        cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans,
                    tb ? CblasTrans : CblasNoTrans, mi, nj, kl, alpha, a, lda,
                    b, ldb, l == 0 ? 0.0 : 1.0, C + (size_t)i * ldc + j, ldc);
      }
  return OL_OK;
}

/* B (column-major rows x cols, ldb rows) = A (row-major rows x cols),
** a band of rows at a time. */
static int tocol (int rows, int cols, const double *A, double *B,
                  const char *who, ol_err *e)
{
  int i0, i, j, rc, band = imin(rows, 64);
  for (i0 = 0; i0 < rows; i0 += band) {
    int i1 = imin(rows, i0 + band);
    if ((i0 & 4095) == 0 && (rc = ol_sl_intr(who, e)) != OL_OK) return rc;
    for (j = 0; j < cols; j++)
      for (i = i0; i < i1; i++)
        B[i + (size_t)j * rows] = A[(size_t)i * cols + j];
  }
  return OL_OK;
}

static int lapackfail (const char *who, const char *what, lapack_int info,
                       ol_err *e)
{
  return ol_err_set(e, info < 0 ? OL_EINVAL : OL_ENUMERIC,
                    "%s: %s failed (info %d)", who, what, (int)info);
}

/* Columns per trailing tile for m rows and jb reflectors. */
static int tilecols (int m, int jb)
{
  double c = FLOPS / (4.0 * m * (jb > 0 ? jb : 1));
  return c >= QC ? QC : c < 1 ? 1 : (int)c;
}

/* A (column-major m x n, lda m, m >= 1) = Q R in place, as dgeqrf leaves
** it: R on and above the diagonal, the reflectors below, tau[min(m, n)].
** work: QC QB doubles, T: QB QB. */
static int qr (int m, int n, double *A, double *tau, double *T,
               double *work, const char *who, ol_err *e)
{
  int j, c, jb, cb, rc, k = imin(m, n), tc;
  lapack_int info;
  for (j = 0; j < k; j += QB) {
    double *V = A + j + (size_t)j * m;
    jb = imin(QB, k - j);
    if ((rc = ol_sl_intr(who, e)) != OL_OK) return rc;
    /* the panel by recursive QR (dgeqrt3: BLAS-3, with its block
    ** reflector T), several times faster than dgeqr2 + dlarft on a tall
    ** panel, which read it once per column: tens of ms at 10^5 rows */
    if ((info = LAPACKE_dgeqrt3_work(LAPACK_COL_MAJOR, m - j, jb, V, m, T,
                                     QB)) != 0)
      return lapackfail(who, "dgeqrt3", info, e);
    for (c = 0; c < jb; c++) tau[j + c] = T[c + (size_t)c * QB];
    if (j + jb >= n) break;
    tc = tilecols(m - j, jb);
    for (c = j + jb; c < n; c += tc) {
      cb = imin(tc, n - c);
      if ((rc = ol_sl_intr(who, e)) != OL_OK) return rc;
      LAPACKE_dlarfb_work(LAPACK_COL_MAJOR, 'L', 'T', 'F', 'C', m - j, cb,
                          jb, V, m, T, QB, A + j + (size_t)c * m, m, work,
                          cb);
    }
  }
  return OL_OK;
}

/* Overwrite the factored A (n x n, qr) with Q = H_1 ... H_n. */
static int formq (int n, double *A, const double *tau, double *T,
                  double *work, const char *who, ol_err *e)
{
  int j, c, i, jb, cb, rc, tc;
  lapack_int info;
  for (j = (n - 1) / QB * QB; j >= 0; j -= QB) {
    double *V = A + j + (size_t)j * n;
    jb = imin(QB, n - j);
    if (j + jb < n) {
      LAPACKE_dlarft_work(LAPACK_COL_MAJOR, 'F', 'C', n - j, jb, V, n,
                          tau + j, T, QB);
      tc = tilecols(n - j, jb);
      for (c = j + jb; c < n; c += tc) {
        cb = imin(tc, n - c);
        if ((rc = ol_sl_intr(who, e)) != OL_OK) return rc;
        LAPACKE_dlarfb_work(LAPACK_COL_MAJOR, 'L', 'N', 'F', 'C', n - j, cb,
                            jb, V, n, T, QB, A + j + (size_t)c * n, n, work,
                            cb);
      }
    }
    if ((info = LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, n - j, jb, jb, V, n,
                                    tau + j, work, QC * QB)) != 0)
      return lapackfail(who, "dorgqr", info, e);
    for (c = j; c < j + jb; c++)
      for (i = 0; i < j; i++) A[i + (size_t)c * n] = 0;
  }
  return OL_OK;
}

int ol_sl_randorth (int n, ol_rng *r, double *Q, const char *who,
                    ol_err *e)
{
  double *G = malloc(sizeof(double) * (size_t)n * n);
  double *tau = malloc(sizeof(double) * (size_t)n);
  double *T = malloc(sizeof(double) * QB * QB);
  double *work = malloc(sizeof(double) * QC * QB);
  double *sgn = malloc(sizeof(double) * (size_t)n);
  int i, j, rc;
  if (G == NULL || tau == NULL || T == NULL || work == NULL || sgn == NULL) {
    rc = ol_err_set(e, OL_ENOMEM, "%s: out of memory for a random rotation",
                    who);
    goto done;
  }
  /* the normals row by row (as ol_mat_randorth), then column-major */
  if ((rc = ol_sl_normals(r, Q, (size_t)n * n, who, e)) != OL_OK) goto done;
  if ((rc = tocol(n, n, Q, G, who, e)) != OL_OK) goto done;
  if ((rc = qr(n, n, G, tau, T, work, who, e)) != OL_OK) goto done;
  for (j = 0; j < n; j++) sgn[j] = G[j + (size_t)j * n] < 0 ? -1 : 1;
  if ((rc = formq(n, G, tau, T, work, who, e)) != OL_OK) goto done;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      Q[(size_t)i * n + j] = G[i + (size_t)j * n] * sgn[j];
done:
  ol_sl_release(G, sizeof(double) * (size_t)n * n);
  free(tau);
  free(T);
  free(work);
  free(sgn);
  return rc;
}

int ol_sl_lstsq (int n, int d, const double *A, const double *y, double *x,
                 const char *who, ol_err *e)
{
  double *M = malloc(sizeof(double) * (size_t)n * (d + 1));
  double *tau = malloc(sizeof(double) * (size_t)(d + 1));
  double *T = malloc(sizeof(double) * QB * QB);
  double *work = malloc(sizeof(double) * QC * QB);
  int rc;
  lapack_int info;
  if (M == NULL || tau == NULL || T == NULL || work == NULL) {
    rc = ol_err_set(e, OL_ENOMEM, "%s: out of memory for x*", who);
    goto done;
  }
  /* [A y] column-major; its QR leaves Q'y in the last column */
  if ((rc = tocol(n, d, A, M, who, e)) != OL_OK) goto done;
  memcpy(M + (size_t)d * n, y, sizeof(double) * (size_t)n);
  if ((rc = qr(n, d + 1, M, tau, T, work, who, e)) != OL_OK) goto done;
  info = LAPACKE_dtrtrs_work(LAPACK_COL_MAJOR, 'U', 'N', 'N', d, 1, M, n,
                             M + (size_t)d * n, n);
  if (info > 0) {
    rc = ol_err_set(e, OL_ENUMERIC, "%s: A is rank deficient (R(%d,%d) = 0)",
                    who, (int)info, (int)info);
    goto done;
  }
  if (info < 0) {
    rc = lapackfail(who, "dtrtrs", info, e);
    goto done;
  }
  memcpy(x, M + (size_t)d * n, sizeof(double) * (size_t)d);
done:
  ol_sl_release(M, sizeof(double) * (size_t)n * (d + 1));
  free(tau);
  free(T);
  free(work);
  return rc;
}

static void *releaser (void *ptr)
{
  free(ptr);
  return NULL;
}

void ol_sl_release (void *ptr, size_t bytes)
{
  pthread_t t;
  pthread_attr_t a;
  int made = 0;
  if (ptr == NULL) return;
  if (bytes >= ((size_t)32 << 20) && pthread_attr_init(&a) == 0) {
    if (pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED) == 0)
      made = pthread_create(&t, &a, releaser, ptr) == 0;
    pthread_attr_destroy(&a);
  }
  if (!made) free(ptr);
}
