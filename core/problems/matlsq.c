/*
** core/problems/matlsq.c -- matrix least squares (seeds catalog section 5,
** T16(a)): a matrix-shaped problem for the Muon family.
**
**   f(W) = 1/2 ||X W - Y||_F^2,   W n x k (x row-major, mrows = n,
**                                  mcols = k)
**   grad f(W) = X'(X W - Y),      Hess f = X'X (kron) I_k
**
** Data (seeded): X (m x n) iid N(0, 1) / sqrt(m), W_true (n x k) iid
** N(0, 1), Y = X W_true, so the system is consistent and f* = 0.  When
** m >= n, X has full column rank (almost surely) and x* = W_true is the
** unique minimiser; when m < n, x* is not unique (NULL).  x0 = 0.  The
** oracle keeps the residual R = X W - Y (m x k) in scratch in the
** problem, so a problem must not be evaluated from two threads at once
** (runs are single-threaded; see run.h).  The Hessian is offered for
** n k <= 4096.
*/
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matres.h"
#include "ol.h"
#include "problem.h"
#include "rng.h"
#include "sliced.h"

#define MATLSQ_MAXDENSE 4096

typedef struct matlsq {
  int m, n, k;
  double *X;        /* m x n (owned) */
  double *Y;        /* m x k (owned) */
  double *C;        /* X'X, n x n (owned) */
  double *R;        /* m x k scratch: the residual */
} matlsq;

static void matlsq_free (void *ud)
{
  matlsq *q = ud;
  if (q == NULL) return;
  free(q->X);
  free(q->Y);
  free(q->C);
  free(q->R);
  free(q);
}

static int matlsq_fdf (void *ud, const double *x, double *f, double *g,
                       ol_err *e)
{
  const matlsq *q = ud;
  int m = q->m, n = q->n, k = q->k;
  (void)e;
  if (f == NULL && g == NULL) return OL_OK;
  /* (1) R = X W - Y, (2) f = ||R||^2 / 2 */
  ol_matres(m, k, n, q->X, x, 0, q->Y, q->R, f);
  /* (3) g = X'R */
  if (g != NULL)
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, n, k, m, 1.0, q->X,
                n, q->R, k, 0.0, g, k);
  return OL_OK;
}

/* H[(i,j), (i',j')] = (X'X)_{ii'} delta_{jj'} for W_{ij} at i k + j. */
static int matlsq_hess (void *ud, const double *x, double *H, ol_err *e)
{
  const matlsq *q = ud;
  int i, ii, j, n = q->n, k = q->k;
  size_t N = (size_t)n * (size_t)k;
  (void)x; (void)e;
  memset(H, 0, N * N * sizeof *H);
  for (i = 0; i < n; i++)
    for (ii = 0; ii < n; ii++)
      for (j = 0; j < k; j++)
        H[((size_t)i * k + j) * N + (size_t)ii * k + j] =
          q->C[(size_t)i * n + ii];
  return OL_OK;
}

static const ol_param matlsq_params[] = {
  {"m", OL_P_INT, 64, 1, 65536, "rows of X (samples)", NULL},
  {"n", OL_P_INT, 32, 1, 4096, "columns of X = rows of W", NULL},
  {"k", OL_P_INT, 16, 1, 4096, "columns of W and Y", NULL},
  {"seed", OL_P_INT, 1, 0, 9007199254740992.0, "seed of X and W_true",
   NULL},
};

static int matlsq_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int m = (int)v[0].num, n = (int)v[1].num, k = (int)v[2].num;
  size_t i, mn = (size_t)m * n, nk = (size_t)n * k, mk = (size_t)m * k;
  double *Wt, s = 1 / sqrt((double)m);
  ol_rng rng;
  int rc;
  matlsq *q;
  if (nk > 100000000)
    return ol_err_set(e, OL_EINVAL, "matlsq: n k = %zu exceeds 1e8", nk);
  q = calloc(1, sizeof *q);
  if (q == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = q;
  p->free_ud = matlsq_free;
  q->m = m;
  q->n = n;
  q->k = k;
  q->X = malloc(mn * sizeof *q->X);
  q->Y = malloc(mk * sizeof *q->Y);
  q->C = malloc((size_t)n * n * sizeof *q->C);
  q->R = malloc(mk * sizeof *q->R);
  Wt = malloc(nk * sizeof *Wt);
  if (q->X == NULL || q->Y == NULL || q->C == NULL || q->R == NULL ||
      Wt == NULL) {
    free(Wt);
    return ol_err_set(e, OL_ENOMEM, "matlsq: out of memory");
  }
  /* (1) X, W_true, Y = X W_true, C = X'X, in slices that look at
  ** Ctrl-C (m n up to 2^28: seconds to minutes) */
  ol_rng_seed(&rng, (uint64_t)v[3].num, 0);
  rc = ol_sl_normals(&rng, q->X, mn, "matlsq", e);
  for (i = 0; i < mn && rc == OL_OK; i++) {
    if ((i & 0xfffff) == 0) rc = ol_sl_intr("matlsq", e);
    q->X[i] *= s;
  }
  if (rc != OL_OK ||
      (rc = ol_sl_normals(&rng, Wt, nk, "matlsq", e)) != OL_OK ||
      (rc = ol_sl_gemm(0, 0, m, k, n, 1.0, q->X, n, Wt, k, q->Y, k, "matlsq",
                       e)) != OL_OK ||
      (rc = ol_sl_gemm(1, 0, n, n, m, 1.0, q->X, n, q->X, n, q->C, n,
                       "matlsq", e)) != OL_OK) {
    free(Wt);
    /* up to 2 GB written: given back in the background */
    ol_sl_release(q->X, mn * sizeof(double));
    ol_sl_release(q->Y, mk * sizeof(double));
    ol_sl_release(q->C, (size_t)n * n * sizeof(double));
    q->X = q->Y = q->C = NULL;
    return rc;
  }
  /* (2) the problem */
  snprintf(p->name, sizeof p->name, "matlsq");
  p->kind = OL_OBJECTIVE;
  p->n = (int)nk;
  p->fdf = matlsq_fdf;
  p->quadratic = 1;
  p->hess = nk <= MATLSQ_MAXDENSE ? matlsq_hess : NULL;
  p->mrows = n;
  p->mcols = k;
  p->fstar = 0;
  if (m >= n) p->xstar = Wt;
  else free(Wt);
  if ((p->x0 = ol_problem_alloc((int)nk, e)) == NULL) return OL_ENOMEM;
  snprintf(p->desc, sizeof p->desc, "matlsq{m=%d, n=%d, k=%d, seed=%.0f}",
           m, n, k, v[3].num);
  return OL_OK;
}

const ol_problem_type ol_problem_matlsq = {
  .name = "matlsq",
  .kind = OL_OBJECTIVE,
  .doc = "1/2 ||X W - Y||_F^2 over W (n x k), Y = X W_true, f* = 0",
  .ref = "seeds catalog T16(a); matrix least squares",
  .params = matlsq_params,
  .nparams = (int)(sizeof matlsq_params / sizeof matlsq_params[0]),
  .create = matlsq_create,
};
