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
**
** Randomized low-rank factor (polar = "lowrank").  B177 (Choudhury, Cheng,
** Takac, Na & Kolar 2026, "Muon with Nesterov momentum: heavy-tailed noise
** and (randomized) inexact polar decomposition", arXiv 2605.06884) analyses
** "a randomized low-rank polar decomposition"; only its abstract could be
** read here, so the sketch, its size and the number of power iterations
** are not the paper's but the standard randomized range finder of Halko,
** Martinsson & Tropp 2011 ("Finding structure with randomness", SIAM
** Review 53(2)), Algorithm 4.1 with the subspace iteration of Algorithm
** 4.4, followed by their Stage B (Algorithm 5.1, direct SVD) and the polar
** factor of the small factorisation:
**   Omega n x l, iid N(0, 1),  l = min(r + p, min(m, n))   (p: oversample)
**   Q = orth(G Omega)                                      (dgeqr2, dorgqr)
**   q times (power_iters): Q' = orth(G'Q), Q = orth(G Q')  (Alg. 4.4)
**   Q'G = Ub S Vb'  (l x n, thin SVD, dgesvd)
**   O = (Q Ub_r) (Vb_r)',  Ub_r, Vb_r the first r columns
** so O = U_r V_r' of the rank-r truncation of Q Q'G, exact when G has rank
** <= r (range(G Omega) = range(G) almost surely).  Its
** error is governed by ||G - Q Q'G||, which HMT bound (Theorems 10.5-10.8;
** Corollary 10.10 with power iterations, the spectral tail raised to
** 2q + 1); how that error enters Muon's rate is B177's "unified framework
** for inexact polar decomposition", not reproduced.  r is cut to the
** singular values of Q'G above max(m, n) eps s_1 (the numerical rank), so
** a rank-deficient G gives the partial isometry of its range rather than
** directions drawn from rounding noise.  Cost O(m n l (2q + 1)) flops
** against O(m n min(m, n)) for the SVD.  Everything is column-major for
** LAPACK: the row-major G is the column-major n x m matrix G', so G Omega
** is a transposed product and O is written as the column-major O'.
** Workspace: [Omega, later G'Q: n l][Y = Q: m l][T = Q Ub: m l][B: l n]
** [Ub: l l][s: l][tau: l][LAPACK work].
*/
#include <cblas.h>
#include <float.h>
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

/* Sketch width l for an m x n matrix, rank and oversample (no checks). */
static int lowrank_width (int m, int n, int rank, int over)
{
  int k = m < n ? m : n;
  return rank > k - over ? k : rank + over;
}

/* Doubles of work for the QR of an r x l column-major matrix (l <= r):
** l for dgeqr2 (unblocked Householder: the sketch is narrow) and
** LAPACK's optimal lwork for dorgqr, or 0 when the query fails. */
static size_t qr_lwork (int r, int l)
{
  double q = 0, dummy[1] = {0};
  if (LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, r, l, l, dummy, r, dummy, &q,
                          -1) != 0 || !(q >= 1))
    return 0;
  return (size_t)q > (size_t)l ? (size_t)q : (size_t)l;
}

size_t ol_polar_lowrank_work (int m, int n, int rank, int over)
{
  int k = m < n ? m : n, l;
  size_t w1, w2, w, L;
  double q = 0, dummy[1] = {0};
  if (m < 1 || n < 1 || rank < 1 || rank > k || over < 0) return 0;
  l = lowrank_width(m, n, rank, over);
  L = (size_t)l;
  w1 = qr_lwork(m, l);
  w2 = qr_lwork(n, l);
  if (w1 == 0 || w2 == 0) return 0;
  if (LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, 'S', 'S', l, n, dummy, l, dummy,
                          dummy, l, dummy, l, &q, -1) != 0 || !(q >= 1))
    return 0;
  w = w1 > w2 ? w1 : w2;
  if ((size_t)q > w) w = (size_t)q;
  return (size_t)n * L + 2 * (size_t)m * L + L * (size_t)n + L * L + 2 * L
    + w;
}

/* Q = orth(Y) in place, Y r x l column-major (l <= r): Householder QR
** (dgeqr2) and the explicit l columns of Q (dorgqr).  OL_OK or
** OL_ENUMERIC. */
static int orth_cols (int r, int l, double *Y, double *tau, double *w,
                      size_t lw, ol_err *e)
{
  lapack_int info;
  info = LAPACKE_dgeqr2_work(LAPACK_COL_MAJOR, r, l, Y, r, tau, w);
  if (info == 0)
    info = LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, r, l, l, Y, r, tau, w,
                               (lapack_int)lw);
  if (info != 0)
    return ol_err_set(e, OL_ENUMERIC, "polar: QR of a %d x %d sketch "
                      "failed (info %d)", r, l, (int)info);
  return OL_OK;
}

int ol_polar_lowrank (int m, int n, const double *G, double *O, int rank,
                      int over, int power_iters, ol_rng *rng, double *work,
                      size_t wsize, int *kept, ol_err *e)
{
  int k = m < n ? m : n, l, r, j, rc;
  size_t L, fixed, lw, mn = (size_t)m * (size_t)n;
  double *Om, *Y, *T, *B, *Ub, *s, *tau, *w, tol;
  lapack_int info;
  if (kept != NULL) *kept = 0;
  if (m < 1 || n < 1 || rank < 1 || rank > k || over < 0 || power_iters < 0)
    return ol_err_set(e, OL_EINVAL, "polar: lowrank rank %d must be in "
                      "[1, %d] for a %d x %d matrix (oversample %d, "
                      "power_iters %d: both >= 0)", rank, k, m, n, over,
                      power_iters);
  if (rng == NULL)
    return ol_err_set(e, OL_EINVAL, "polar: lowrank needs a generator "
                      "(ol_polar_how.rng)");
  l = lowrank_width(m, n, rank, over);
  L = (size_t)l;
  Om = work;
  Y = Om + (size_t)n * L;
  T = Y + (size_t)m * L;
  B = T + (size_t)m * L;
  Ub = B + L * (size_t)n;
  s = Ub + L * L;
  tau = s + L;
  w = tau + L;
  fixed = (size_t)(w - work);
  if (wsize <= fixed)
    return ol_err_set(e, OL_EINVAL, "polar: lowrank workspace of %zu "
                      "doubles is too small for %d x %d, rank %d", wsize, m,
                      n, rank);
  lw = wsize - fixed;
  /* (1) Gaussian test matrix Omega (n x l) and Y = G Omega (m x l) */
  ol_rng_normals(rng, Om, (int)((size_t)n * L));
  cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, m, l, n, 1.0, G, n,
              Om, n, 0.0, Y, m);
  if ((rc = orth_cols(m, l, Y, tau, w, lw, e)) != OL_OK) return rc;
  /* (2) subspace iteration: Q' = orth(G'Q) in Om, Q = orth(G Q') */
  for (j = 0; j < power_iters; j++) {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, l, m, 1.0, G,
                n, Y, m, 0.0, Om, n);
    if ((rc = orth_cols(n, l, Om, tau, w, lw, e)) != OL_OK) return rc;
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, m, l, n, 1.0, G, n,
                Om, n, 0.0, Y, m);
    if ((rc = orth_cols(m, l, Y, tau, w, lw, e)) != OL_OK) return rc;
  }
  /* (3) B = Q'G (l x n) and its thin SVD B = Ub S Vb' (Vb' into Om) */
  cblas_dgemm(CblasColMajor, CblasTrans, CblasTrans, l, n, m, 1.0, Y, m, G,
              n, 0.0, B, l);
  info = LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, 'S', 'S', l, n, B, l, s, Ub,
                             l, Om, l, w, (lapack_int)lw);
  if (info != 0)
    return ol_err_set(e, info > 0 ? OL_ENUMERIC : OL_EINVAL,
                      "polar: dgesvd failed on the %d x %d projection of a "
                      "%d x %d matrix (info %d)", l, n, m, n, (int)info);
  /* (4) r: rank, cut to the numerical rank of B */
  tol = (m > n ? m : n) * DBL_EPSILON * s[0];
  for (r = 0; r < rank && r < l && s[r] > tol; r++) ;
  if (kept != NULL) *kept = r;
  if (r == 0) {
    memset(O, 0, mn * sizeof *O);
    return OL_OK;
  }
  /* (5) T = Q Ub_r (m x r); O' = Vb_r T' (n x m column-major = O) */
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, r, l, 1.0, Y, m,
              Ub, l, 0.0, T, m);
  cblas_dgemm(CblasColMajor, CblasTrans, CblasTrans, n, m, r, 1.0, Om, l, T,
              m, 0.0, O, n);
  return OL_OK;
}

int ol_polar_rank_check (const char *who, int rank, int nmat,
                         const int *rows, int cols, ol_err *e)
{
  int i, k = cols;
  for (i = 0; i < nmat; i++)
    if (rows[i] < k) k = rows[i];
  if (rank < 1 || rank > k)
    return ol_err_set(e, OL_EINVAL, "%s: rank = %d is out of range: "
                      "polar = \"lowrank\" needs rank in [1, %d], the "
                      "smaller side of its %s", who, rank, k,
                      nmat > 1 ? "smallest matrix" : "matrix");
  return OL_OK;
}

int ol_polar_how_set (ol_polar_how *h, const char *who, const double *par,
                      int steps, ol_rng *rng, int nmat, const int *rows,
                      int cols, ol_err *e)
{
  *h = (ol_polar_how){(int)par[0], steps, (int)par[1], (int)par[2],
                      (int)par[3], rng};
  if (h->kind == OL_POLAR_LOWRANK)
    return ol_polar_rank_check(who, h->rank, nmat, rows, cols, e);
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

/* The rank a part of rows x cols uses: h->rank, at most its smaller
** side. */
static int part_rank (const ol_polar_how *h, int rows, int cols)
{
  int k = rows < cols ? rows : cols;
  return h->rank < k ? h->rank : k;
}

size_t ol_polar_how_work (const ol_polar_how *h, int nparts,
                          const int *rows, int cols)
{
  size_t w, best = 0;
  int i;
  for (i = 0; i < nparts; i++) {
    w = h->kind == OL_POLAR_SVD ? ol_polar_svd_work(rows[i], cols)
      : h->kind == OL_POLAR_LOWRANK
      ? ol_polar_lowrank_work(rows[i], cols, part_rank(h, rows[i], cols),
                              h->oversample)
      : ol_polar_ns5_work(rows[i], cols);
    if (w == 0) return 0;
    if (w > best) best = w;
  }
  return best;
}

size_t ol_polar_update_work (int kind, int nparts, const int *rows,
                             int cols)
{
  ol_polar_how h = {kind, 0, 1, 0, 0, NULL};
  return ol_polar_how_work(&h, nparts, rows, cols);
}

int ol_polar_update (int kind, int steps, int nparts, const int *rows,
                     int cols, const double *U, double *O, double *x,
                     double lr, double *work, size_t wsize, ol_err *e)
{
  ol_polar_how h = {kind, steps, 1, 0, 0, NULL};
  return ol_polar_how_update(&h, nparts, rows, cols, U, O, x, lr, work,
                             wsize, e);
}

int ol_polar_how_update (const ol_polar_how *h, int nparts, const int *rows,
                         int cols, const double *U, double *O, double *x,
                         double lr, double *work, size_t wsize, ol_err *e)
{
  size_t off = 0, len;
  int i, rc;
  for (i = 0; i < nparts; i++) {
    double r = (double)rows[i] / cols;
    len = (size_t)rows[i] * (size_t)cols;
    /* (1) O_i = Orth(U_i) */
    if (h->kind == OL_POLAR_SVD) {
      rc = ol_polar_svd(rows[i], cols, U + off, O + off, work, wsize, e);
      if (rc != OL_OK) return rc;
    }
    else if (h->kind == OL_POLAR_LOWRANK) {
      rc = ol_polar_lowrank(rows[i], cols, U + off, O + off,
                            part_rank(h, rows[i], cols), h->oversample,
                            h->power_iters, h->rng, work, wsize, NULL, e);
      if (rc != OL_OK) return rc;
    }
    else
      ol_polar_ns5(rows[i], cols, U + off, O + off, h->steps, work);
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
