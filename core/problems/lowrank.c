/*
** core/problems/lowrank.c -- low-rank matrix factorisation (seeds catalog
** section 5, T16(b)): a nonconvex problem over two stacked matrices.
**
**   f(U, V) = 1/2 ||U V' - M||_F^2,   U m x r, V n x r, M = U0 V0'
**   grad_U f = R V,   grad_V f = R'U,   R = U V' - M
**
** x = [U; V] stacked row-major: mrows = m + n, mcols = r, mblocks =
** {m, n, 0}.  Data (seeded): U0, V0 iid N(0, 1), so M has rank r (almost
** surely); f* = 0, reached on the whole orbit (U0 A, V0 A^{-T}), so x* is
** not unique (NULL).  x0 iid N(0, 0.01) from the same seed's second
** stream (U = V = 0 is a saddle with zero gradient).  The oracle keeps R
** (m x n) in scratch in the problem, so a problem must not be evaluated
** from two threads at once (runs are single-threaded; see run.h).  No
** Hessian oracle.
*/
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>

#include "matres.h"
#include "ol.h"
#include "problem.h"
#include "rng.h"
#include "sliced.h"

typedef struct lowrank {
  int m, n, r;
  double *M;        /* m x n target (owned) */
  double *R;        /* m x n scratch: the residual */
} lowrank;

static void lowrank_free (void *ud)
{
  lowrank *q = ud;
  if (q == NULL) return;
  free(q->M);
  free(q->R);
  free(q);
}

static int lowrank_fdf (void *ud, const double *x, double *f, double *g,
                        ol_err *e)
{
  const lowrank *q = ud;
  int m = q->m, n = q->n, r = q->r;
  const double *U = x, *V = x + (size_t)m * r;
  (void)e;
  if (f == NULL && g == NULL) return OL_OK;
  /* (1) R = U V' - M, f = ||R||^2 / 2 */
  ol_matres(m, n, r, U, V, 1, q->M, q->R, f);
  /* (2) grad_U = R V (m x r), grad_V = R'U (n x r) */
  if (g != NULL) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, r, n, 1.0,
                q->R, n, V, r, 0.0, g, r);
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, n, r, m, 1.0,
                q->R, n, U, r, 0.0, g + (size_t)m * r, r);
  }
  return OL_OK;
}

static const ol_param lowrank_params[] = {
  {"m", OL_P_INT, 30, 1, 16384, "rows of M (and of U)", NULL},
  {"n", OL_P_INT, 20, 1, 16384, "columns of M (rows of V)", NULL},
  {"r", OL_P_INT, 4, 1, 4096, "rank of M and columns of U, V", NULL},
  {"seed", OL_P_INT, 1, 0, 9007199254740992.0, "seed of U0, V0 and x0",
   NULL},
};

static int lowrank_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int m = (int)v[0].num, n = (int)v[1].num, r = (int)v[2].num;
  size_t i, mn = (size_t)m * n, N = (size_t)(m + n) * r;
  double *UV;
  int rc;
  ol_rng rng;
  lowrank *q;
  if (N > 100000000)
    return ol_err_set(e, OL_EINVAL, "lowrank: (m + n) r = %zu exceeds 1e8",
                      N);
  q = calloc(1, sizeof *q);
  if (q == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = q;
  p->free_ud = lowrank_free;
  q->m = m;
  q->n = n;
  q->r = r;
  q->M = malloc(mn * sizeof *q->M);
  q->R = malloc(mn * sizeof *q->R);
  UV = malloc(N * sizeof *UV);
  if (q->M == NULL || q->R == NULL || UV == NULL) {
    free(UV);
    return ol_err_set(e, OL_ENOMEM, "lowrank: out of memory");
  }
  /* (1) planted factors U0 (m x r), V0 (n x r); M = U0 V0' */
  ol_rng_seed(&rng, (uint64_t)v[3].num, 0);
  /* (both in pieces that look at Ctrl-C: (m + n) r reaches 1e8 draws,
  ** m n r 1.6e10 flops) */
  rc = ol_sl_normals(&rng, UV, N, "lowrank", e);
  if (rc == OL_OK)
    rc = ol_sl_gemm(0, 1, m, n, r, 1.0, UV, r, UV + (size_t)m * r, r, q->M,
                    n, "lowrank", e);
  free(UV);
  if (rc != OL_OK) return rc;
  /* (2) the problem; x0 ~ N(0, 0.01 I) from stream 1 */
  snprintf(p->name, sizeof p->name, "lowrank");
  p->kind = OL_OBJECTIVE;
  p->n = (int)N;
  p->fdf = lowrank_fdf;
  p->mrows = m + n;
  p->mcols = r;
  p->mblocks[0] = m;
  p->mblocks[1] = n;
  p->fstar = 0;
  if ((p->x0 = ol_problem_alloc((int)N, e)) == NULL) return OL_ENOMEM;
  ol_rng_seed(&rng, (uint64_t)v[3].num, 1);
  if ((rc = ol_sl_normals(&rng, p->x0, N, "lowrank", e)) != OL_OK) return rc;
  for (i = 0; i < N; i++) p->x0[i] *= 0.1;
  snprintf(p->desc, sizeof p->desc, "lowrank{m=%d, n=%d, r=%d, seed=%.0f}",
           m, n, r, v[3].num);
  return OL_OK;
}

const ol_problem_type ol_problem_lowrank = {
  .name = "lowrank",
  .kind = OL_OBJECTIVE,
  .doc = "1/2 ||U V' - M||_F^2 over x = [U; V], M planted rank r, f* = 0",
  .ref = "seeds catalog T16(b); low-rank matrix factorisation",
  .params = lowrank_params,
  .nparams = (int)(sizeof lowrank_params / sizeof lowrank_params[0]),
  .create = lowrank_create,
};
