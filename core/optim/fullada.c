/*
** core/optim/fullada.c -- full-matrix AdaGrad (Duchi, Hazan & Singer
** 2011, JMLR, "Adaptive subgradient methods for online learning and
** stochastic optimization", the full-matrix update; seeds catalog B103).
**
**   G_t = sum_{s <= t} g_s g_s'
**   x_{t+1} = x_t - lr_t (delta I + G_t)^{-1/2} g_t,   lr_t = lr sched_t
**
** Form implemented: the catalog's H_t = (delta I + G_t)^{1/2} (delta inside
** the root; Duchi et al. write delta I + G_t^{1/2}, which differs only in
** how the regularizer enters).  delta > 0 keeps the matrix invertible.
** The first step is x_1 = x_0 - lr g_0 / sqrt(delta + ||g_0||^2).
**
** Linear algebra, exact in both regimes (no approximation of the root):
** (1) while t <= n (at most n gradients so far) in the span of the
**     gradients: with H the t x n matrix of rows g_1..g_t, G = H'H and
**     K = H H' (t x t Gram matrix, grown by one row per step, O(n t)),
**     the push-through identity (delta I + H'H)^{-1/2} H' = H' (delta I +
**     K)^{-1/2} gives, since g_t = H' e_t,
**       (delta I + G)^{-1/2} g_t = H' Z diag((delta + w_j)^{-1/2}) Z' e_t
**     from K = Z diag(w) Z' (LAPACK dsyevr of the t x t matrix): O(t^3 +
**     n t) per step instead of O(n^3).
** (2) from step n + 1 on, G itself (n x n, built once from H, then rank-1
**     updates) and dsyevr of delta I + G = Z diag(w) Z', p = Z diag(w^{-1/2})
**     Z' g: O(n^3) per step.
** Eigenvalues of K below 0 (rounding) are taken as 0.  Memory: four n x n
** arrays, so n is limited to FULLADA_NMAX = 1024 (init refuses larger n
** with OL_EINVAL: use optim.adagrad, the diagonal form).  dsyevr's info >
** 0 stops the run with OL_ENUMERIC.  Column-major LAPACK calls on
** symmetric arrays: no transposed copies, no allocation in a step (the
** dsyevr workspace is syevr.h's, shared with shampoo).
*/
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "syevr.h"
#include "vec.h"

#define FULLADA_NMAX 1024

typedef struct fullada_state {
  double lr, delta;
  int n;
  double *g, *p, *q;
  double *H;        /* rows g_1..g_t (t <= n), n x n */
  double *K;        /* Gram matrix H H' (ld n), then G (n x n) */
  double *A, *Z, *w;  /* dsyevr input copy, eigenvectors, eigenvalues */
  ol_syevr_ws ws;    /* dsyevr workspace (syevr.h) */
} fullada_state;

static const ol_param fullada_params[] = {
  {"lr", OL_P_REAL, 0.1, 0, INFINITY, "step size (eta)", NULL},
  {"delta", OL_P_REAL, 1e-8, OL_GT0, OL_FINITE,
   "regularizer: (delta I + G)^{-1/2}, > 0", NULL},
};

static int fullada_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  fullada_state *s = st;
  int n = c->n;
  size_t nn = (size_t)n * n;
  s->lr = par[0];
  s->delta = par[1];
  s->n = n;
  /* (1) the dimension limit */
  if (n > FULLADA_NMAX)
    return ol_err_set(e, OL_EINVAL, "fullada: n = %d is above the limit "
                      "%d of full-matrix AdaGrad (n x n matrices): use "
                      "optim.adagrad", n, FULLADA_NMAX);
  /* (2) arrays */
  if ((s->g = ol_vec_new(n, e)) == NULL || (s->p = ol_vec_new(n, e)) == NULL
      || (s->q = ol_vec_new(n, e)) == NULL || (s->w = ol_vec_new(n, e)) == NULL
      || (s->H = ol_vec_new((int)nn, e)) == NULL
      || (s->K = ol_vec_new((int)nn, e)) == NULL
      || (s->A = ol_vec_new((int)nn, e)) == NULL
      || (s->Z = ol_vec_new((int)nn, e)) == NULL)
    return OL_ENOMEM;
  /* (3) dsyevr workspace for the largest size, n */
  return ol_syevr_ws_init(&s->ws, n, s->A, s->w, s->Z, "fullada", e);
}

/* w, Z := eigen-decomposition of the k x k matrix A (column-major, ld k;
** destroyed).  OL_OK or OL_ENUMERIC. */
static int eig (fullada_state *s, int k, ol_err *e)
{
  lapack_int info;
  info = ol_syevr_ws_eig(&s->ws, k, s->A, s->w, s->Z);
  if (info == OL_BG_EINTR)
    return ol_err_set(e, OL_EINTR, "fullada: interrupted");
  if (info != 0)
    return ol_err_set(e, OL_ENUMERIC, "fullada: eigendecomposition failed "
                      "(dsyevr info %d)", (int)info);
  return OL_OK;
}

static int fullada_step (void *st, ol_ctx *c, ol_err *e)
{
  fullada_state *s = st;
  int n = s->n, i, j, rc;
  long t = c->t + 1;   /* gradients including this one */
  double d = s->delta, a = s->lr * c->sched, *g = s->g, *p = s->p;
  double *q = s->q, *K = s->K, *Z = s->Z;
  /* (1) stochastic gradient g_t */
  if ((rc = ol_ctx_grad(c, c->x, NULL, g, e)) != OL_OK) return rc;
  if (t <= n) {
    /* (2a) Gram path: row k of H, column k of K, eig of delta-free K */
    int k = (int)t - 1;
    memcpy(s->H + (size_t)k * n, g, sizeof(double) * n);
    for (i = 0; i <= k; i++) {
      double v = ol_vec_dot(s->H + (size_t)i * n, g, n);
      K[(size_t)k * n + i] = K[(size_t)i * n + k] = v;
    }
    for (j = 0; j <= k; j++)
      for (i = 0; i <= k; i++)
        s->A[(size_t)j * (k + 1) + i] = K[(size_t)j * n + i];
    if ((rc = eig(s, k + 1, e)) != OL_OK) return rc;
    /* q = Z diag((delta + w)^{-1/2}) Z' e_k, then p = H' q */
    for (j = 0; j <= k; j++) {
      double wj = s->w[j] > 0 ? s->w[j] : 0;
      p[j] = Z[(size_t)j * (k + 1) + k] / sqrt(d + wj);
    }
    for (i = 0; i <= k; i++) {
      double v = 0;
      for (j = 0; j <= k; j++) v += Z[(size_t)j * (k + 1) + i] * p[j];
      q[i] = v;
    }
    memset(p, 0, sizeof(double) * n);
    for (i = 0; i <= k; i++) ol_vec_axpy(q[i], s->H + (size_t)i * n, p, n);
  }
  else {
    /* (2b) full path: G = H'H once (into K), then G += g g' */
    if (t == n + 1) {
      for (i = 0; i < n; i++)
        for (j = 0; j <= i; j++) {
          double v = 0;
          int r;
          for (r = 0; r < n; r++)
            v += s->H[(size_t)r * n + i] * s->H[(size_t)r * n + j];
          K[(size_t)i * n + j] = K[(size_t)j * n + i] = v;
        }
    }
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++) K[(size_t)i * n + j] += g[i] * g[j];
    for (i = 0; i < n; i++) {
      memcpy(s->A + (size_t)i * n, K + (size_t)i * n, sizeof(double) * n);
      s->A[(size_t)i * n + i] += d;
    }
    if ((rc = eig(s, n, e)) != OL_OK) return rc;
    /* p = Z diag(w^{-1/2}) Z' g */
    for (j = 0; j < n; j++) {
      double wj = s->w[j] > d ? s->w[j] : d;
      q[j] = ol_vec_dot(Z + (size_t)j * n, g, n) / sqrt(wj);
    }
    memset(p, 0, sizeof(double) * n);
    for (j = 0; j < n; j++) ol_vec_axpy(q[j], Z + (size_t)j * n, p, n);
  }
  /* (3) move */
  ol_vec_axpy(-a, p, c->x, n);
  return OL_OK;
}

static void fullada_fini (void *st)
{
  fullada_state *s = st;
  ol_vec_free(s->g);
  ol_vec_free(s->p);
  ol_vec_free(s->q);
  ol_vec_free(s->w);
  ol_vec_free(s->H);
  ol_vec_free(s->K);
  ol_vec_free(s->A);
  ol_vec_free(s->Z);
  ol_syevr_ws_fini(&s->ws);
  s->g = s->p = s->q = s->w = s->H = s->K = s->A = s->Z = NULL;
}

const ol_method_type ol_optim_fullada = {
  .name = "fullada",
  .family = OL_OPTIM,
  .doc = "full-matrix AdaGrad: x -= lr (delta I + sum g g')^{-1/2} g",
  .ref = "Duchi, Hazan & Singer 2011, full-matrix AdaGrad",
  .params = fullada_params,
  .nparams = (int)(sizeof fullada_params / sizeof fullada_params[0]),
  .size = sizeof(fullada_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = fullada_init,
  .step = fullada_step,
  .fini = fullada_fini,
  .probes = OL_MSET_NONE,
};
