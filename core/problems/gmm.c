/*
** core/problems/gmm.c -- problem.gmm: a Gaussian mixture density with full
** covariances whose parameters the diffusion samplers know (gmm.h), so
** they can use the exact score of its diffused marginals.
**
**   p(x) = sum_k w_k N(x; mu_k, S_k),   U(x) = -log p(x),
**   grad U(x) = sum_k r_k(x) S_k^-1 (x - mu_k),  r_k = w_k N_k(x) / p(x).
**
** One evaluator serves the density (s = 1, sigma = 0) and every diffused
** marginal p_t = sum_k w_k N(s mu_k, s^2 (S_k + sigma^2 I)) (gmm.h): the
** quadratic forms in the eigenbasis of S_k, log-sum-exp from the largest
** term (as problems/mixture.c does for diagonal components), so U keeps
** its normalising constant: exp(-U) integrates to 1.
** Parameters: weights (K positive, normalised; default equal), means
** (K rows of n; default: the 2-D ring of 8 modes of radius 4, the
** catalogue's T28), covs (K rows of n^2 entries, a row-major S_k; or n,
** its diagonal; or 1, a multiple of I; default 0.25 I).  Moments exact:
** E x = sum_k w_k mu_k, Cov x = sum_k w_k (S_k + mu_k mu_k') - E x E x'.
** x0 = E x; x* and f* unknown.
*/
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ol.h"
#include "problem.h"
#include "problems/gmm.h"

#define GMM_MAXK 1000
#define GMM_MAXN 64
#define GMM_LOG2PI 1.83787706640934548356   /* log(2 pi) */
#define GMM_PI 3.14159265358979323846

typedef struct gmm_ud {
  ol_gmm G;
  double *lv;       /* the level s = 1, sigma = 0 */
  double *work;     /* ol_gmm_worksize */
  double *score;    /* n */
} gmm_ud;

int ol_gmm_levelsize (const ol_gmm *G)
{
  return G->K * (G->n + 1);
}

int ol_gmm_worksize (const ol_gmm *G)
{
  return 2 * G->n + G->K * (G->n + 1);
}

void ol_gmm_level (const ol_gmm *G, double s, double sig2, double *lv)
{
  int k, j, n = G->n, K = G->K;
  for (k = 0; k < K; k++) {
    double ld = 0;
    for (j = 0; j < n; j++) {
      double v = s * s * (G->lam[(size_t)k * n + j] + sig2);
      lv[(size_t)k * n + j] = 1 / v;
      ld += log(v);
    }
    lv[(size_t)K * n + k] = log(G->w[k]) - 0.5 * (ld + n * GMM_LOG2PI);
  }
}

double ol_gmm_eval (const ol_gmm *G, const double *lv, double s,
                    const double *x, double *score, double *resp,
                    double *work)
{
  int k, i, j, n = G->n, K = G->K;
  double *y = work, *z = work + n, *l = work + 2 * n, *v = l + K;
  double lmax = -INFINITY, sum = 0, lp;
  /* (1) per component: z = U_k' (x - s mu_k), its scaled copy v_k, l_k
  ** (the plane written out: the same operations in the same order) */
  if (n == 2)
    for (k = 0; k < K; k++) {
      const double *mu = G->mu + 2 * k, *U = G->U + 4 * k, *iv = lv + 2 * k;
      double y0 = x[0] - s * mu[0], y1 = x[1] - s * mu[1];
      double a0 = U[0] * y0 + U[2] * y1, a1 = U[1] * y0 + U[3] * y1;
      double z0 = a0 * iv[0], z1 = a1 * iv[1];
      double q = a0 * z0 + a1 * z1;
      v[2 * k] = U[0] * z0 + U[1] * z1;
      v[2 * k + 1] = U[2] * z0 + U[3] * z1;
      l[k] = lv[2 * K + k] - 0.5 * q;
      if (l[k] > lmax) lmax = l[k];
    }
  else
    for (k = 0; k < K; k++) {
      const double *mu = G->mu + (size_t)k * n;
      const double *U = G->U + (size_t)k * n * n, *iv = lv + (size_t)k * n;
      double q = 0;
      for (i = 0; i < n; i++) y[i] = x[i] - s * mu[i];
      for (j = 0; j < n; j++) {
        double a = 0;
        for (i = 0; i < n; i++) a += U[(size_t)i * n + j] * y[i];
        z[j] = a * iv[j];
        q += a * z[j];
      }
      if (score != NULL)
        for (i = 0; i < n; i++) {
          double a = 0;
          for (j = 0; j < n; j++) a += U[(size_t)i * n + j] * z[j];
          v[(size_t)k * n + i] = a;              /* Cov_k^-1 (x - s mu_k) */
        }
      l[k] = lv[(size_t)K * n + k] - 0.5 * q;
      if (l[k] > lmax) lmax = l[k];
    }
  /* (2) log-sum-exp, responsibilities, score = -sum_k r_k v_k */
  for (k = 0; k < K; k++) sum += exp(l[k] - lmax);
  lp = lmax + log(sum);
  if (score != NULL)
    for (i = 0; i < n; i++) score[i] = 0;
  for (k = 0; k < K; k++) {
    double r = exp(l[k] - lp);
    if (resp != NULL) resp[k] = r;
    if (score != NULL)
      for (i = 0; i < n; i++) score[i] -= r * v[(size_t)k * n + i];
  }
  return lp;
}

static int gmm_fdf (void *ud, const double *x, double *f, double *g,
                    ol_err *e)
{
  gmm_ud *M = ud;
  int i;
  double lp = ol_gmm_eval(&M->G, M->lv, 1, x, g != NULL ? M->score : NULL,
                          NULL, M->work);
  (void)e;
  if (f != NULL) *f = -lp;
  if (g != NULL)
    for (i = 0; i < M->G.n; i++) g[i] = -M->score[i];
  return OL_OK;
}

/* The mixture hook of problem.gmm: the mixture in its ud. */
static const ol_gmm *gmm_of (const ol_problem *p)
{
  return p->ud != NULL ? &((const gmm_ud *)p->ud)->G : NULL;
}

const ol_gmm *ol_gmm_of (const ol_problem *p)
{
  if (p == NULL || p->type->mixture == NULL) return NULL;
  return p->type->mixture(p);
}

static void gmm_free (void *ud)
{
  gmm_ud *M = ud;
  if (M == NULL) return;
  free(M->G.w);
  free(M->G.mu);
  free(M->G.cov);
  free(M->G.U);
  free(M->G.lam);
  free(M->lv);
  free(M->work);
  free(M->score);
  free(M);
}

static const ol_param gmm_params[] = {
  {"weights", OL_P_VECTOR, 0, 0, 0, "K positive weights, normalised to "
   "sum 1 (default equal)", NULL},
  {"means", OL_P_MATRIX, 0, 0, 0, "K rows of n: the component means "
   "(default: 8 modes on the circle of radius 4 in 2-D)", NULL},
  {"covs", OL_P_MATRIX, 0, 0, 0, "K rows of n^2 (a row-major S_k), n (its "
   "diagonal) or 1 (a multiple of I); default 0.25 I", NULL},
};

/* S_k from row k of covs (cols n^2, n or 1), or 0.25 I. */
static void fillcov (double *S, const ol_pval *cv, int k, int n)
{
  int i, j;
  for (i = 0; i < n * n; i++) S[i] = 0;
  for (i = 0; i < n; i++) {
    if (cv->arr == NULL) S[(size_t)i * n + i] = 0.25;
    else if (cv->cols == 1) S[(size_t)i * n + i] = cv->arr[k];
    else if (cv->cols == n)
      S[(size_t)i * n + i] = cv->arr[(size_t)k * n + i];
    else
      for (j = 0; j < n; j++)
        S[(size_t)i * n + j] = cv->arr[(size_t)k * n * n + (size_t)i * n + j];
  }
}

static int gmm_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  const ol_pval *w = &v[0], *mu = &v[1], *cv = &v[2];
  int n, K, k, i, j;
  double wsum = 0, *A = NULL;
  gmm_ud *M;
  ol_gmm *G;
  lapack_int neig, *isuppz = NULL;
  /* (1) K and n, and the shapes against them */
  n = mu->arr != NULL ? mu->cols : 2;
  K = mu->arr != NULL ? mu->rows : w->arr != NULL ? w->cols
      : cv->arr != NULL ? cv->rows : 8;
  if (K < 1 || K > GMM_MAXK || n < 1 || n > GMM_MAXN)
    return ol_err_set(e, OL_EINVAL, "gmm: K = %d components in n = %d "
                      "dimensions is out of range (K in [1, %d], n in [1, "
                      "%d])", K, n, GMM_MAXK, GMM_MAXN);
  if (mu->arr == NULL && n != 2)
    return ol_err_set(e, OL_EINVAL, "gmm: the default means are 2-D");
  if (w->arr != NULL && w->cols != K)
    return ol_err_set(e, OL_EINVAL, "gmm: weights has %d entries, expected "
                      "K = %d", w->cols, K);
  if (cv->arr != NULL && (cv->rows != K || (cv->cols != 1 && cv->cols != n
                                            && cv->cols != n * n)))
    return ol_err_set(e, OL_EINVAL, "gmm: covs is %d x %d, expected K = %d "
                      "rows of n^2 = %d, n = %d or 1 entries", cv->rows,
                      cv->cols, K, n * n, n);
  if ((M = calloc(1, sizeof *M)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = M;
  p->free_ud = gmm_free;
  G = &M->G;
  G->n = n;
  G->K = K;
  if ((G->w = ol_problem_alloc(K, e)) == NULL
      || (G->mu = ol_problem_alloc(K * n, e)) == NULL
      || (G->cov = ol_problem_alloc(K * n * n, e)) == NULL
      || (G->U = ol_problem_alloc(K * n * n, e)) == NULL
      || (G->lam = ol_problem_alloc(K * n, e)) == NULL
      || (M->lv = ol_problem_alloc(ol_gmm_levelsize(G), e)) == NULL
      || (M->work = ol_problem_alloc(ol_gmm_worksize(G), e)) == NULL
      || (M->score = ol_problem_alloc(n, e)) == NULL
      || (A = ol_problem_alloc(n * n, e)) == NULL
      || (p->x0 = ol_problem_alloc(n, e)) == NULL
      || (p->mean = ol_problem_alloc(n, e)) == NULL
      || (p->cov = ol_problem_alloc(n * n, e)) == NULL)
    goto nomem;
  if ((isuppz = malloc(2 * (size_t)n * sizeof *isuppz)) == NULL) {
    ol_err_set(e, OL_ENOMEM, "out of memory");
    goto nomem;
  }
  /* (2) weights and means */
  for (k = 0; k < K; k++) {
    double wk = w->arr != NULL ? w->arr[k] : 1;
    if (!(wk > 0) || !isfinite(wk)) {
      ol_err_set(e, OL_EINVAL, "gmm: weights[%d] = %g must be positive and "
                 "finite", k + 1, wk);
      goto fail;
    }
    wsum += wk;
  }
  for (k = 0; k < K; k++) {
    G->w[k] = (w->arr != NULL ? w->arr[k] : 1) / wsum;
    for (j = 0; j < n; j++) {
      double m = mu->arr != NULL ? mu->arr[(size_t)k * n + j]
                 : 4 * (j == 0 ? cos(2 * GMM_PI * k / K)
                   : sin(2 * GMM_PI * k / K));
      if (!isfinite(m)) {
        ol_err_set(e, OL_EINVAL, "gmm: means[%d][%d] = %g is not finite",
                   k + 1, j + 1, m);
        goto fail;
      }
      G->mu[(size_t)k * n + j] = m;
    }
  }
  /* (3) covariances: symmetric positive definite, diagonalised */
  for (k = 0; k < K; k++) {
    double *S = G->cov + (size_t)k * n * n;
    fillcov(S, cv, k, n);
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        if (!isfinite(S[(size_t)i * n + j]) ||
            fabs(S[(size_t)i * n + j] - S[(size_t)j * n + i]) >
            1e-12 * (fabs(S[(size_t)i * n + j]) + fabs(S[(size_t)j * n + i]))) {
          ol_err_set(e, OL_EINVAL, "gmm: covs[%d] is not a finite symmetric "
                     "matrix (entry %d,%d)", k + 1, i + 1, j + 1);
          goto fail;
        }
    memcpy(A, S, (size_t)n * n * sizeof *A);
    if (LAPACKE_dsyevr(LAPACK_ROW_MAJOR, 'V', 'A', 'L', n, A, n, 0, 0, 0, 0,
                       0, &neig, G->lam + (size_t)k * n,
                       G->U + (size_t)k * n * n, n, isuppz) != 0
        || !(G->lam[(size_t)k * n] > 0)) {
      ol_err_set(e, OL_EINVAL, "gmm: covs[%d] is not positive definite",
                 k + 1);
      goto fail;
    }
  }
  /* (4) moments */
  for (k = 0; k < K; k++)
    for (i = 0; i < n; i++) p->mean[i] += G->w[k] * G->mu[(size_t)k * n + i];
  for (k = 0; k < K; k++)
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        p->cov[(size_t)i * n + j] += G->w[k] *
          (G->cov[(size_t)k * n * n + (size_t)i * n + j]
           + G->mu[(size_t)k * n + i] * G->mu[(size_t)k * n + j]);
  for (i = 0; i < n; i++) {
    p->x0[i] = p->mean[i];
    for (j = 0; j < n; j++) p->cov[(size_t)i * n + j] -= p->mean[i] * p->mean[j];
  }
  ol_gmm_level(G, 1, 0, M->lv);
  free(A);
  free(isuppz);
  snprintf(p->name, sizeof p->name, "gmm");
  p->kind = OL_DENSITY;
  p->n = n;
  p->fdf = gmm_fdf;
  snprintf(p->desc, sizeof p->desc, "gmm{K=%d, n=%d}", K, n);
  return OL_OK;
nomem:
  free(A);
  free(isuppz);
  return OL_ENOMEM;
fail:
  free(A);
  free(isuppz);
  return OL_EINVAL;
}

const ol_problem_type ol_problem_gmm = {
  .name = "gmm",
  .kind = OL_DENSITY,
  .doc = "sum_k w_k N(mu_k, S_k) with full covariances; the diffusion "
         "samplers' target (exact diffused score)",
  .ref = "Ho et al. 2020; Song et al. 2021 (closed-form VP / VE marginals)",
  .params = gmm_params,
  .nparams = (int)(sizeof gmm_params / sizeof gmm_params[0]),
  .create = gmm_create,
  .mixture = gmm_of,
};
