/*
** core/polar.c -- polar factor: Newton-Schulz quintic and exact SVD form.
**
** Newton-Schulz quintic (Jordan et al. 2024, "Muon: an optimizer for
** hidden layers in neural networks", the reference implementation):
**   X_0 = G / ||G||_F
**   X_{j+1} = a X_j + b (X_j X_j') X_j + c (X_j X_j')^2 X_j,
**   (a, b, c) = (3.4445, -4.7750, 2.0315)
** Each step maps every singular value s of X to p(s) = a s + b s^3 + c s^5
** and keeps the singular vectors, so X_j -> U V' up to the band these
** coefficients settle in (roughly [0.7, 1.2]: speed over accuracy).  No
** epsilon is added to ||G||_F (the reference adds 1e-7); G = 0 gives 0.
** Per step with k = min(m, n) on the smaller side:
**   A = X X'  (k x k; X'X when m > n)           dgemm
**   B = b A + c A A                             dgemm (beta = b)
**   X = a X + B X  (X B when m > n)             dgemm (beta = a)
** The iterate ping-pongs between O and one workspace buffer, starting in
** whichever makes the last step land in O.
**
** Exact factor: dgesvd with jobu = jobvt = 'S' on the column-major view
** G' (n x m) = Uc S Vc', so G = Vc S Uc' and polar(G) = Vc Uc' =
** (Uc Vc')', which is Uc Vc' stored column-major, i.e. O row-major.
** Workspace layout: [a: m n][s: k][Uc: n k][Vc': k m][dgesvd work].
*/
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "polar.h"
#include "vec.h"

size_t ol_polar_ns5_work (int m, int n)
{
  size_t k = (size_t)(m < n ? m : n);
  return 2 * k * k + (size_t)m * (size_t)n;
}

void ol_polar_ns5 (int m, int n, const double *G, double *O, int steps,
                   double *work)
{
  const double a = OL_NS5_A, b = OL_NS5_B, c = OL_NS5_C;
  int k = m < n ? m : n, j;
  size_t mn = (size_t)m * (size_t)n, kk = (size_t)k * (size_t)k, i;
  double *A = work, *B = work + kk, *X, *Xn, *tmp, nrm;
  /* (1) X_0 = G / ||G||_F, in the buffer that makes X_steps land in O */
  X = steps % 2 == 0 ? O : work + 2 * kk;
  Xn = X == O ? work + 2 * kk : O;
  nrm = cblas_dnrm2((int)mn, G, 1);
  if (!(nrm > 0)) {
    memset(O, 0, mn * sizeof *O);
    return;
  }
  for (i = 0; i < mn; i++) X[i] = G[i] / nrm;
  for (j = 0; j < steps; j++) {
    if (m <= n) {
      /* (2) A = X X' */
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, k, k, n, 1.0,
                  X, n, X, n, 0.0, A, k);
      /* (3) B = b A + c A^2 */
      memcpy(B, A, kk * sizeof *B);
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, k, k, k, c,
                  A, k, A, k, b, B, k);
      /* (4) X <- a X + B X */
      memcpy(Xn, X, mn * sizeof *Xn);
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, k, n, k, 1.0,
                  B, k, X, n, a, Xn, n);
    }
    else {
      /* (2') the same on the transpose: A = X'X, X <- a X + X B */
      cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, k, k, m, 1.0,
                  X, n, X, n, 0.0, A, k);
      memcpy(B, A, kk * sizeof *B);
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, k, k, k, c,
                  A, k, A, k, b, B, k);
      memcpy(Xn, X, mn * sizeof *Xn);
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0,
                  X, n, B, k, a, Xn, n);
    }
    tmp = X;
    X = Xn;
    Xn = tmp;
  }
}

size_t ol_polar_svd_work (int m, int n)
{
  int k = m < n ? m : n;
  double q = 0, dummy[1] = {0};
  lapack_int info;
  if (m < 1 || n < 1) return 0;
  info = LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, 'S', 'S', n, m, dummy, n,
                             dummy, dummy, n, dummy, k, &q, -1);
  if (info != 0 || !(q >= 1)) return 0;
  return (size_t)m * n + (size_t)k + (size_t)n * k + (size_t)k * m
    + (size_t)q;
}

int ol_polar_svd (int m, int n, const double *G, double *O, double *work,
                  size_t wsize, ol_err *e)
{
  int k = m < n ? m : n;
  size_t mn = (size_t)m * (size_t)n, fixed;
  double *a = work, *s = a + mn, *uc = s + k, *vct = uc + (size_t)n * k;
  double *w = vct + (size_t)k * m;
  lapack_int info;
  fixed = mn + (size_t)k + (size_t)n * k + (size_t)k * m;
  if (wsize <= fixed)
    return ol_err_set(e, OL_EINVAL, "polar: svd workspace of %zu doubles "
                      "is too small for %d x %d", wsize, m, n);
  /* (1) thin SVD of the column-major view G' (dgesvd destroys its input) */
  memcpy(a, G, mn * sizeof *a);
  info = LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, 'S', 'S', n, m, a, n, s, uc,
                             n, vct, k, w, (lapack_int)(wsize - fixed));
  if (info != 0)
    return ol_err_set(e, info > 0 ? OL_ENUMERIC : OL_EINVAL,
                      "polar: dgesvd failed on a %d x %d matrix (info %d)",
                      m, n, (int)info);
  /* (2) O = (Uc Vc')' : the column-major product is O row-major */
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, m, k, 1.0, uc,
              n, vct, k, 0.0, O, n);
  return OL_OK;
}

double ol_polar_ortherr (int m, int n, const double *O, double *work)
{
  int k = m < n ? m : n, i;
  size_t kk = (size_t)k * (size_t)k, j;
  double s = 0;
  if (m <= n)
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, k, k, n, 1.0, O,
                n, O, n, 0.0, work, k);
  else
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, k, k, m, 1.0, O,
                n, O, n, 0.0, work, k);
  for (i = 0; i < k; i++) work[(size_t)i * k + i] -= 1;
  for (j = 0; j < kk; j++) s += work[j] * work[j];
  return sqrt(s);
}

int ol_polar_parts (int nmat, const int *mrows, int split, int *rows)
{
  int i, j, np = 0;
  for (i = 0; i < nmat; i++) {
    int r = mrows[i], q = split < r ? split : r;
    if (q < 1) q = 1;
    if (np + q > OL_POLAR_MAXPARTS) return 0;
    for (j = 0; j < q; j++) rows[np++] = r / q + (j < r % q);
  }
  return np;
}

size_t ol_polar_update_work (int kind, int nparts, const int *rows,
                             int cols)
{
  size_t w, best = 0;
  int i;
  for (i = 0; i < nparts; i++) {
    w = kind == OL_POLAR_SVD ? ol_polar_svd_work(rows[i], cols)
      : ol_polar_ns5_work(rows[i], cols);
    if (w == 0) return 0;
    if (w > best) best = w;
  }
  return best;
}

int ol_polar_update (int kind, int steps, int nparts, const int *rows,
                     int cols, const double *U, double *O, double *x,
                     double lr, double *work, size_t wsize, ol_err *e)
{
  size_t off = 0, len;
  int i, rc;
  for (i = 0; i < nparts; i++) {
    double r = (double)rows[i] / cols;
    len = (size_t)rows[i] * (size_t)cols;
    /* (1) O_i = Orth(U_i) */
    if (kind == OL_POLAR_SVD) {
      rc = ol_polar_svd(rows[i], cols, U + off, O + off, work, wsize, e);
      if (rc != OL_OK) return rc;
    }
    else
      ol_polar_ns5(rows[i], cols, U + off, O + off, steps, work);
    /* (2) x_i -= lr sqrt(max(1, rows_i / cols)) O_i */
    cblas_daxpy((int)len, -lr * sqrt(r > 1 ? r : 1), O + off, 1, x + off, 1);
    off += len;
  }
  return OL_OK;
}

double ol_polar_ortherr_parts (int nparts, const int *rows, int cols,
                               const double *O, double *work)
{
  size_t off = 0;
  double s = 0, q;
  int i;
  for (i = 0; i < nparts; i++) {
    q = ol_polar_ortherr(rows[i], cols, O + off, work);
    s += q * q;
    off += (size_t)rows[i] * (size_t)cols;
  }
  return sqrt(s);
}

int ol_polar_mats (const char *who, const ol_problem *p, int n, int *rows,
                   ol_err *e)
{
  int nmat, sum = 0;
  for (nmat = 0; nmat < 4 && p->mblocks[nmat] > 0; nmat++)
    sum += rows[nmat] = p->mblocks[nmat];
  if (nmat == 0) {
    rows[nmat++] = p->mrows;
    sum = p->mrows;
  }
  if (p->mrows < 1 || p->mcols < 1 || sum != p->mrows ||
      (long)p->mrows * p->mcols != n) {
    ol_err_set(e, OL_EINVAL, "%s: %s is not a matrix of %d x %d (n = %d, "
               "blocks summing to %d)", who, p->name, p->mrows, p->mcols, n,
               sum);
    return 0;
  }
  return nmat;
}

size_t ol_polar_ortherr_work (int nparts, const int *rows, int cols)
{
  size_t k = 0;
  int i;
  for (i = 0; i < nparts; i++) {
    size_t ki = (size_t)(rows[i] < cols ? rows[i] : cols);
    if (ki > k) k = ki;
  }
  return k * k;
}

int ol_polar_bufs_new (ol_polar_bufs *b, int n, size_t pwsize, ol_err *e)
{
  if ((b->g = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((b->m = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((b->o = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((b->work = ol_vec_new((int)b->wsize, e)) == NULL) return OL_ENOMEM;
  if ((b->pwork = ol_vec_new((int)pwsize, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

void ol_polar_bufs_free (ol_polar_bufs *b)
{
  ol_vec_free(b->g);
  ol_vec_free(b->m);
  ol_vec_free(b->o);
  ol_vec_free(b->work);
  ol_vec_free(b->pwork);
  b->g = b->m = b->o = b->work = b->pwork = NULL;
}
