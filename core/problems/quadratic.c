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
**
** Building the rotation is O(n^3): a QR of an n x n Gaussian matrix, the
** forming of Q, and H = B B' (4.5 s for n = 4096 on one core).  Up to
** n = QUAD_WHOLE it is one LAPACK call each (ol_mat_randorth, row-major,
** the values every earlier version gave).  Above, the same steps run
** blocked, in pieces of a few milliseconds between which the build polls
** ol_intr (ol.h) and stops with OL_EINTR: Householder QR in panels of QB
** reflectors (dgeqr2 on the panel, dlarft, then dlarfb on the trailing
** columns QC at a time), Q formed backwards the way dorgqr does it, and H
** in QC x QC tiles (dgemm off the diagonal, dsyrk on it).  That path reads
** the Gaussian matrix column-major (its transpose, equally Gaussian), so
** its Q is Haar-random too but is not the row-major path's Q.
*/
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ol.h"
#include "problem.h"
#include "rng.h"
#include "vec.h"

#define QUAD_MAXDENSE 4096
#define QUAD_WHOLE 512    /* up to this n: whole LAPACK calls (~20 ms) */
#define QB 64             /* reflectors per panel */
#define QC 256            /* columns per trailing update, tile size */

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

static int intr (ol_err *e)
{
  return ol_interrupted() ? ol_err_set(e, OL_EINTR, "interrupted") : OL_OK;
}

static int lapackfail (ol_err *e, const char *what, lapack_int info)
{
  return ol_err_set(e, info < 0 ? OL_EINVAL : OL_ENUMERIC,
                    "quadratic: %s failed (info %d)", what, (int)info);
}

/* A (column-major n x n, lda n) = Q R by Householder reflectors, blocked:
** on return A holds R above the diagonal and the reflectors below, as
** dgeqrf leaves them.  work: QC QB doubles; T: QB QB. */
static int qr_sliced (int n, double *A, double *tau, double *T,
                      double *work, ol_err *e)
{
  int j, c, jb, cb, rc;
  lapack_int info;
  for (j = 0; j < n; j += QB) {
    double *V = A + j + (size_t)j * n;
    jb = n - j < QB ? n - j : QB;
    if ((info = LAPACKE_dgeqr2_work(LAPACK_COL_MAJOR, n - j, jb, V, n,
                                    tau + j, work)) != 0)
      return lapackfail(e, "dgeqr2", info);
    if (j + jb == n) break;
    LAPACKE_dlarft_work(LAPACK_COL_MAJOR, 'F', 'C', n - j, jb, V, n,
                        tau + j, T, QB);
    for (c = j + jb; c < n; c += QC) {
      cb = n - c < QC ? n - c : QC;
      LAPACKE_dlarfb_work(LAPACK_COL_MAJOR, 'L', 'T', 'F', 'C', n - j, cb,
                          jb, V, n, T, QB, A + j + (size_t)c * n, n, work,
                          cb);
      if ((rc = intr(e)) != OL_OK) return rc;
    }
  }
  return OL_OK;
}

/* Overwrite the factored A (qr_sliced) with Q = H_1 ... H_n: panels from
** the last to the first, each applied to the columns right of it and then
** expanded in place (dorgqr's order). */
static int q_sliced (int n, double *A, const double *tau, double *T,
                     double *work, ol_err *e)
{
  int j, c, i, jb, cb, rc;
  lapack_int info;
  for (j = (n - 1) / QB * QB; j >= 0; j -= QB) {
    double *V = A + j + (size_t)j * n;
    jb = n - j < QB ? n - j : QB;
    if (j + jb < n) {
      LAPACKE_dlarft_work(LAPACK_COL_MAJOR, 'F', 'C', n - j, jb, V, n,
                          tau + j, T, QB);
      for (c = j + jb; c < n; c += QC) {
        cb = n - c < QC ? n - c : QC;
        LAPACKE_dlarfb_work(LAPACK_COL_MAJOR, 'L', 'N', 'F', 'C', n - j, cb,
                            jb, V, n, T, QB, A + j + (size_t)c * n, n, work,
                            cb);
        if ((rc = intr(e)) != OL_OK) return rc;
      }
    }
    if ((info = LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, n - j, jb, jb, V, n,
                                    tau + j, work, QC * QB)) != 0)
      return lapackfail(e, "dorgqr", info);
    for (c = j; c < j + jb; c++)
      for (i = 0; i < j; i++) A[i + (size_t)c * n] = 0;
  }
  return OL_OK;
}

/* H = B B' (B column-major n x n) into H, both triangles: the upper one
** in QC x QC tiles, then mirrored. */
static int bbt_sliced (int n, const double *B, double *H, ol_err *e)
{
  int it, jt, i, j, jw, rc;
  for (jt = 0; jt < n; jt += QC) {
    jw = n - jt < QC ? n - jt : QC;
    for (it = 0; it < jt; it += QC) {
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, QC, jw, n, 1.0,
                  B + it, n, B + jt, n, 0.0, H + it + (size_t)jt * n, n);
      if ((rc = intr(e)) != OL_OK) return rc;
    }
    cblas_dsyrk(CblasColMajor, CblasUpper, CblasNoTrans, jw, n, 1.0, B + jt,
                n, 0.0, H + jt + (size_t)jt * n, n);
    if ((rc = intr(e)) != OL_OK) return rc;
  }
  for (j = 0; j < n; j++) {
    for (i = j + 1; i < n; i++) H[i + (size_t)j * n] = H[j + (size_t)i * n];
    if ((j & 63) == 63 && (rc = intr(e)) != OL_OK) return rc;
  }
  return OL_OK;
}

/* The n > QUAD_WHOLE build (see the header): B = Q diag(s sqrt(lambda))
** with s_j the sign of R_jj (Mezzadri's correction, so Q is Haar), H =
** B B'. */
static int rotate_sliced (quad *q, double *B, ol_rng *rng, ol_err *e)
{
  int n = q->n, j, rc = OL_OK;
  double *tau = malloc(sizeof(double) * (size_t)n);
  double *sgn = malloc(sizeof(double) * (size_t)n);
  double *T = malloc(sizeof(double) * QB * QB);
  double *work = malloc(sizeof(double) * QC * QB);
  if (tau == NULL || sgn == NULL || T == NULL || work == NULL) {
    rc = ol_err_set(e, OL_ENOMEM, "quadratic: out of memory for Q");
    goto fail;
  }
  /* (1) a Gaussian matrix, a column at a time */
  for (j = 0; j < n; j++) {
    ol_rng_normals(rng, B + (size_t)j * n, n);
    if ((j & 63) == 63 && (rc = intr(e)) != OL_OK) goto fail;
  }
  /* (2) its QR, then Q itself, columns scaled */
  if ((rc = qr_sliced(n, B, tau, T, work, e)) != OL_OK) goto fail;
  for (j = 0; j < n; j++) sgn[j] = B[j + (size_t)j * n] < 0 ? -1 : 1;
  if ((rc = q_sliced(n, B, tau, T, work, e)) != OL_OK) goto fail;
  for (j = 0; j < n; j++)
    cblas_dscal(n, sgn[j] * sqrt(q->lambda[j]), B + (size_t)j * n, 1);
  /* (3) H = B B' */
  rc = bbt_sliced(n, B, q->H, e);
fail:
  free(tau);
  free(sgn);
  free(T);
  free(work);
  return rc;
}

/* H = Q diag(lambda) Q' as B B' with B = Q diag(sqrt(lambda)) (dsyrk),
** then the lower triangle mirrored from the upper one; above QUAD_WHOLE
** by rotate_sliced, which may stop with OL_EINTR. */
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
  if (n > QUAD_WHOLE) {
    rc = rotate_sliced(q, B, &rng, e);
    free(B);
    return rc;
  }
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
  .name = "quadratic",
  .kind = OL_OBJECTIVE,
  .doc = "1/2 (x-x*)'H(x-x*), spectrum log-spaced in [1/cond, 1], x* = 0",
  .params = quad_params,
  .nparams = (int)(sizeof quad_params / sizeof quad_params[0]),
  .create = quad_create,
};
