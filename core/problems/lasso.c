/*
** core/problems/lasso.c -- a synthetic sparse regression (lasso)
** problem with a planted sparse signal (Tibshirani 1996), with the usual
** compressed-sensing design: Gaussian A, k-sparse signal, small noise.
**
**   F(x) = f(x) + lambda ||x||_1,   f(x) = 1/2 ||A x - y||^2
**   grad f(x) = A'(A x - y),   Hess f = A'A
**
** Data (seeded): A (m x n) iid N(0, 1/m), so columns have unit norm in
** expectation; a planted k-sparse x_pl with a uniformly random support
** and entries +-1 (random signs); y = A x_pl + sigma z, z ~ N(0, I_m).
** The composite term is p->l1 = lambda (fdf gives the smooth part f only;
** proximal methods use ol_ctx_prox).  x0 = 0.  x* and f* are unknown
** (NULL / NAN): the lasso solution is near x_pl, shrunk by about lambda
** on the support, when m is large enough for recovery.  The oracle uses
** scratch kept in the problem (m doubles), so a problem must not be
** evaluated from two threads at once.  The Hessian is offered for
** n <= 4096.
*/
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ol.h"
#include "problem.h"
#include "rng.h"
#include "sliced.h"

#define LASSO_MAXDENSE 4096

typedef struct lasso {
  int m, n;
  double *A;        /* m x n row-major (owned) */
  double *y;        /* m observations (owned) */
  double *r;        /* m scratch: residual A x - y */
} lasso;

static void lasso_free (void *ud)
{
  lasso *L = ud;
  if (L == NULL) return;
  free(L->A);
  free(L->y);
  free(L->r);
  free(L);
}

static int lasso_fdf (void *ud, const double *x, double *f, double *g,
                      ol_err *e)
{
  const lasso *L = ud;
  int m = L->m, n = L->n;
  (void)e;
  /* (1) residual r = A x - y */
  cblas_dcopy(m, L->y, 1, L->r, 1);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, m, n, 1.0, L->A, n, x, 1,
              -1.0, L->r, 1);
  /* (2) f = ||r||^2 / 2, g = A'r */
  if (f != NULL) *f = 0.5 * cblas_ddot(m, L->r, 1, L->r, 1);
  if (g != NULL)
    cblas_dgemv(CblasRowMajor, CblasTrans, m, n, 1.0, L->A, n, L->r, 1,
                0.0, g, 1);
  return OL_OK;
}

/* H = A'A (constant): upper triangle by dsyrk, then mirrored. */
static int lasso_hess (void *ud, const double *x, double *H, ol_err *e)
{
  const lasso *L = ud;
  int i, j, n = L->n;
  (void)x; (void)e;
  cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, n, L->m, 1.0, L->A, n,
              0.0, H, n);
  for (i = 0; i < n; i++)
    for (j = 0; j < i; j++) H[(size_t)i * n + j] = H[(size_t)j * n + i];
  return OL_OK;
}

static const ol_param lasso_params[] = {
  {"m", OL_P_INT, 100, 1, 1e8, "number of observations (rows of A)", NULL},
  {"n", OL_P_INT, 50, 1, 1e6, "number of unknowns (problem dimension)",
   NULL},
  {"k", OL_P_INT, 5, 0, 1e6, "sparsity of the planted signal (k <= n)",
   NULL},
  {"lambda", OL_P_REAL, 0.1, 0, 1e6, "weight of the L1 term", NULL},
  {"sigma", OL_P_REAL, 0.01, 0, 1e6, "standard deviation of the noise in y",
   NULL},
  {"seed", OL_P_INT, 1, 0, 9007199254740992.0, "seed of the data", NULL},
};

static int lasso_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int i, rc, m = (int)v[0].num, n = (int)v[1].num, k = (int)v[2].num;
  double sigma = v[4].num, sd;
  int *perm = NULL;
  double *xpl = NULL;
  ol_rng rng;
  lasso *L;
  if (k > n)
    return ol_err_set(e, OL_EINVAL, "k = %d is out of range "
                      "[0, n = %d]", k, n);
  if ((double)m * n > 1e9)
    return ol_err_set(e, OL_EINVAL, "lasso needs m*n <= 1e9");
  if ((L = calloc(1, sizeof *L)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = L;
  p->free_ud = lasso_free;
  L->m = m;
  L->n = n;
  L->A = malloc(sizeof(double) * (size_t)m * n);
  L->y = malloc(sizeof(double) * (size_t)m);
  L->r = malloc(sizeof(double) * (size_t)m);
  perm = malloc(sizeof(int) * (size_t)n);
  xpl = calloc((size_t)n, sizeof(double));
  if (L->A == NULL || L->y == NULL || L->r == NULL || perm == NULL
      || xpl == NULL) {
    free(perm);
    free(xpl);
    return ol_err_set(e, OL_ENOMEM, "lasso: out of memory for the data");
  }
  /* (1) A iid N(0, 1/m) */
  ol_rng_seed(&rng, (uint64_t)v[5].num, 0);
  /* (up to 1e9 draws: in pieces that look at Ctrl-C) */
  if ((rc = ol_sl_normals(&rng, L->A, (size_t)m * n, "lasso", e)) != OL_OK) {
    free(perm);
    free(xpl);
    return rc;
  }
  sd = 1 / sqrt((double)m);
  for (i = 0; i < m * n; i++) L->A[i] *= sd;
  /* (2) support: the first k of a partial Fisher-Yates shuffle; signs */
  for (i = 0; i < n; i++) perm[i] = i;
  for (i = 0; i < k; i++) {
    int j = i + (int)ol_rng_below(&rng, n - i), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
    xpl[perm[i]] = ol_rng_uniform(&rng) < 0.5 ? -1.0 : 1.0;
  }
  /* (3) y = A x_pl + sigma z */
  ol_rng_normals(&rng, L->y, m);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, m, n, 1.0, L->A, n, xpl, 1,
              sigma, L->y, 1);
  free(perm);
  free(xpl);
  snprintf(p->name, sizeof p->name, "lasso");
  p->kind = OL_OBJECTIVE;
  p->n = n;
  p->fdf = lasso_fdf;
  p->hess = n <= LASSO_MAXDENSE ? lasso_hess : NULL;
  p->l1 = v[3].num;
  if ((p->x0 = ol_problem_alloc(n, e)) == NULL) return OL_ENOMEM;
  snprintf(p->desc, sizeof p->desc, "lasso{m=%d, n=%d, k=%d, lambda=%g, "
           "sigma=%g, seed=%.0f}", m, n, k, p->l1, sigma, v[5].num);
  return OL_OK;
}

const ol_problem_type ol_problem_lasso = {
  .name = "lasso",
  .kind = OL_OBJECTIVE,
  .doc = "1/2 ||Ax - y||^2 + lambda ||x||_1, planted k-sparse signal",
  .ref = "Tibshirani 1996",
  .params = lasso_params,
  .nparams = (int)(sizeof lasso_params / sizeof lasso_params[0]),
  .create = lasso_create,
};
