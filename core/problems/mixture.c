/*
** core/problems/mixture.c -- a Gaussian mixture density with diagonal
** components, in 1 or n dimensions.
**
**   p(x) = sum_k w_k N(x; m_k, diag(s_k^2)),  k = 1..K
**   U(x) = -log p(x) = -log sum_k exp(l_k),
**   l_k = log w_k - sum_j ((x_j - m_kj)^2 / (2 s_kj^2) + log s_kj)
**         - n/2 log(2 pi)
**   grad U = sum_k r_k (x - m_k) / s_k^2,  r_k = exp(l_k - log p(x))
**
** (log-sum-exp from the largest l_k, so far tails neither overflow nor
** give 0/0).  U keeps its constant: exp(-U) integrates to 1.
** Parameters: weights (K positive numbers, normalised to sum 1; default
** equal), means (K n numbers, component by component: component k's mean
** is means[(k-1) n + 1 .. k n]; default: component k at -2 + 4 (k-1) /
** (K-1) in every coordinate, 0 when K = 1), sds (K numbers, one per
** component, or K n; default 1).  K comes from weights, else from means,
** else from sds, else 2.
** Exact moments: E x = sum_k w_k m_k,
**   Cov x = sum_k w_k (diag(s_k^2) + m_k m_k') - E x E x'.
** x0 = ones; x* and f* unknown (NULL / NAN).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ol.h"
#include "problem.h"

#define MIX_MAXK 10000
#define MIX_LOG2PI 1.83787706640934548356   /* log(2 pi) */

typedef struct mixture {
  int n, K;
  double *logw;     /* K: log w_k - sum_j log s_kj - n/2 log 2 pi */
  double *m;        /* K x n means */
  double *prec;     /* K x n: 1 / s_kj^2 */
  double *l;        /* K scratch: l_k */
} mixture;

static void mixture_free (void *ud)
{
  mixture *M = ud;
  if (M == NULL) return;
  free(M->logw);
  free(M->m);
  free(M->prec);
  free(M->l);
  free(M);
}

static int mixture_fdf (void *ud, const double *x, double *f, double *g,
                        ol_err *e)
{
  const mixture *M = ud;
  int k, j, n = M->n, K = M->K;
  double lmax = -INFINITY, s = 0, lp;
  (void)e;
  /* (1) log of each weighted component density at x */
  for (k = 0; k < K; k++) {
    const double *m = M->m + (size_t)k * n, *q = M->prec + (size_t)k * n;
    double a = 0;
    for (j = 0; j < n; j++) a += (x[j] - m[j]) * (x[j] - m[j]) * q[j];
    M->l[k] = M->logw[k] - 0.5 * a;
    if (M->l[k] > lmax) lmax = M->l[k];
  }
  /* (2) log-sum-exp */
  for (k = 0; k < K; k++) s += exp(M->l[k] - lmax);
  lp = lmax + log(s);
  if (f != NULL) *f = -lp;
  /* (3) responsibilities weight the components' gradients */
  if (g != NULL) {
    for (j = 0; j < n; j++) g[j] = 0;
    for (k = 0; k < K; k++) {
      const double *m = M->m + (size_t)k * n, *q = M->prec + (size_t)k * n;
      double r = exp(M->l[k] - lp);
      for (j = 0; j < n; j++) g[j] += r * (x[j] - m[j]) * q[j];
    }
  }
  return OL_OK;
}

static const ol_param mixture_params[] = {
  {"weights", OL_P_VECTOR, 0, 0, 0, "K positive weights, normalised to "
   "sum 1 (default equal)", NULL},
  {"means", OL_P_VECTOR, 0, 0, 0, "K n means, component by component "
   "(default spread over [-2, 2])", NULL},
  {"sds", OL_P_VECTOR, 0, 0, 0, "K standard deviations (one per "
   "component) or K n (default 1)", NULL},
  {"n", OL_P_INT, 1, 1, 1000, "dimension", NULL},
};

static int mixture_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  const ol_pval *w = &v[0], *mu = &v[1], *sd = &v[2];
  int n = (int)v[3].num, K, k, j, i;
  double wsum = 0, *mean, *cov;
  mixture *M;
  /* (1) the number of components, and the shapes against it */
  if (w->arr != NULL) K = w->cols;
  else if (mu->arr != NULL) K = mu->cols / n;
  else if (sd->arr != NULL) K = sd->cols;
  else K = 2;
  if (K < 1 || K > MIX_MAXK)
    return ol_err_set(e, OL_EINVAL, "mixture: %d components is out of range "
                      "[1, %d]", K, MIX_MAXK);
  if ((double)K * n > 1e7)
    return ol_err_set(e, OL_EINVAL, "mixture: K n = %.0f is above 1e7",
                      (double)K * n);
  if (mu->arr != NULL && mu->cols != K * n)
    return ol_err_set(e, OL_EINVAL, "mixture: means has %d entries, "
                      "expected K n = %d (K = %d components, n = %d)",
                      mu->cols, K * n, K, n);
  if (sd->arr != NULL && sd->cols != K && sd->cols != K * n)
    return ol_err_set(e, OL_EINVAL, "mixture: sds has %d entries, expected "
                      "K = %d or K n = %d", sd->cols, K, K * n);
  if ((M = calloc(1, sizeof *M)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = M;
  p->free_ud = mixture_free;
  M->n = n;
  M->K = K;
  if ((M->logw = ol_problem_alloc(K, e)) == NULL
      || (M->m = ol_problem_alloc(K * n, e)) == NULL
      || (M->prec = ol_problem_alloc(K * n, e)) == NULL
      || (M->l = ol_problem_alloc(K, e)) == NULL
      || (p->x0 = ol_problem_alloc(n, e)) == NULL
      || (p->mean = mean = ol_problem_alloc(n, e)) == NULL
      || (p->cov = cov = ol_problem_alloc(n * n, e)) == NULL)
    return OL_ENOMEM;
  /* (2) weights, means, precisions */
  for (k = 0; k < K; k++) {
    double wk = w->arr != NULL ? w->arr[k] : 1;
    if (!(wk > 0) || !isfinite(wk))
      return ol_err_set(e, OL_EINVAL, "mixture: weights[%d] = %g must be "
                        "positive and finite", k + 1, wk);
    wsum += wk;
  }
  for (k = 0; k < K; k++) {
    double wk = (w->arr != NULL ? w->arr[k] : 1) / wsum, logs = 0;
    for (j = 0; j < n; j++) {
      size_t kj = (size_t)k * n + j;
      int si = sd->arr != NULL && sd->cols == K ? k : (int)kj;
      double s = sd->arr != NULL ? sd->arr[si] : 1;
      double m = mu->arr != NULL ? mu->arr[kj]
                 : K > 1 ? -2 + 4.0 * k / (K - 1) : 0;
      if (!(s > 0) || !isfinite(s))
        return ol_err_set(e, OL_EINVAL, "mixture: sds[%d] = %g must be "
                          "positive and finite", si + 1, s);
      if (!isfinite(m))
        return ol_err_set(e, OL_EINVAL, "mixture: means[%d] = %g is not "
                          "finite", (int)kj + 1, m);
      M->m[kj] = m;
      M->prec[kj] = 1 / (s * s);
      logs += log(s);
      /* (3) moments: sum_k w_k m_k and sum_k w_k (s_k^2 + m_k m_k') */
      mean[j] += wk * m;
      cov[(size_t)j * n + j] += wk * s * s;
    }
    M->logw[k] = log(wk) - logs - 0.5 * n * MIX_LOG2PI;
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        cov[(size_t)i * n + j] += wk * M->m[(size_t)k * n + i]
                                     * M->m[(size_t)k * n + j];
  }
  for (i = 0; i < n; i++) {
    p->x0[i] = 1;
    for (j = 0; j < n; j++) cov[(size_t)i * n + j] -= mean[i] * mean[j];
  }
  snprintf(p->name, sizeof p->name, "mixture");
  p->kind = OL_DENSITY;
  p->n = n;
  p->fdf = mixture_fdf;
  snprintf(p->desc, sizeof p->desc, "mixture{K=%d, n=%d}", K, n);
  return OL_OK;
}

const ol_problem_type ol_problem_mixture = {
  .name = "mixture",
  .kind = OL_DENSITY,
  .doc = "sum_k w_k N(m_k, diag s_k^2); mean sum_k w_k m_k, covariance exact",
  .params = mixture_params,
  .nparams = (int)(sizeof mixture_params / sizeof mixture_params[0]),
  .create = mixture_create,
};
