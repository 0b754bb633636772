/*
** core/optim/shampoo.c -- Shampoo for matrix parameters (Gupta, Koren &
** Singer 2018, ICML, "Shampoo: preconditioned stochastic tensor
** optimization", Algorithm 1; seeds catalog B103).
**
**   L_t = L_{t-1} + G_t G_t',   R_t = R_{t-1} + G_t' G_t,
**   L_0 = eps I_m,  R_0 = eps I_n                  (G_t = grad f(W_t), m x n)
**   W_{t+1} = W_t - lr_t L_t^{-1/4} G_t R_t^{-1/4},   lr_t = lr sched_t
**
** The matrix roots P^{-1/4} = Z diag(w^{-1/4}) Z' come from LAPACK dsyevr
** of the symmetric L_t, R_t (eigenvalues below eps, possible only by
** rounding, are taken as eps); they are formed as Y Y' with Y = Z
** diag(w^{-1/8}), so the preconditioners are symmetric and positive
** definite in floating point as well.  With every = k > 1 the roots are
** recomputed only at steps 1, k + 1, 2k + 1, ... (from the L_t, R_t of that
** step) and reused in between, the paper's practical variant; L and R are
** still updated at every step.  The first step is, for G_0 = U S V',
**   W_1 = W_0 - lr U diag(s / sqrt(eps + s^2)) V',
** Muon's polar step as eps -> 0.  x is the problem's mrows x mcols matrix
** (row-major); when it stacks several matrices (mblocks) each has its own
** L and R.  Cost per step: O(m^2 n + m n^2) products, O(m^3 + n^3) for
** the roots.  A side is limited to SHAMPOO_DMAX = 1024 (init refuses a
** larger one with OL_EINVAL, as fullada does): one dsyevr of a 4096 x 4096
** root takes some 15 s, in which Ctrl-C cannot be seen.  dsyevr's info > 0
** stops the run with OL_ENUMERIC.  The dsyevr workspace is syevr.h's
** (shared with fullada).
*/
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "polar.h"
#include "syevr.h"
#include "vec.h"

#define SHAMPOO_DMAX 1024

typedef struct shampoo_state {
  double lr, eps;
  long every;
  int nmat, rows[4], cols, dmax;
  double *g, *T;
  double *L[4], *R[4], *PL[4], *PR[4];   /* statistics and their roots */
  double *A, *Z, *w;                    /* dsyevr copy, vectors, values */
  ol_syevr_ws ws;    /* dsyevr workspace (syevr.h) */
} shampoo_state;

static const ol_param shampoo_params[] = {
  {"lr", OL_P_REAL, 1, 0, INFINITY, "step size (eta)", NULL},
  {"eps", OL_P_REAL, 1e-4, OL_GT0, OL_FINITE,
   "regularizer: L_0 = eps I, R_0 = eps I", NULL},
  {"every", OL_P_INT, 1, 1, 1e9,
   "recompute the roots L^-1/4, R^-1/4 every k steps", NULL},
};

static int shampoo_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  shampoo_state *s = st;
  int i, j, k, d;
  s->lr = par[0];
  s->eps = par[1];
  s->every = (long)par[2];
  s->cols = c->p->mcols;
  /* (1) the matrices x stacks */
  if ((s->nmat = ol_polar_mats("shampoo", c->p, c->n, s->rows, e)) == 0)
    return OL_EINVAL;
  d = s->cols;
  for (i = 0; i < s->nmat; i++) if (s->rows[i] > d) d = s->rows[i];
  s->dmax = d;
  if (d > SHAMPOO_DMAX)
    return ol_err_set(e, OL_EINVAL, "shampoo: a side of %d is above the "
                      "limit %d (each step takes the eigendecomposition of "
                      "a %d x %d preconditioner): use optim.muon or "
                      "optim.adam", d, SHAMPOO_DMAX, d, d);
  /* (2) arrays; L = R = eps I */
  if ((s->g = ol_vec_new(c->n, e)) == NULL
      || (s->T = ol_vec_new(c->n, e)) == NULL
      || (s->A = ol_mat_new(d, d, e)) == NULL
      || (s->Z = ol_mat_new(d, d, e)) == NULL
      || (s->w = ol_vec_new(d, e)) == NULL)
    return OL_ENOMEM;
  for (i = 0; i < s->nmat; i++) {
    int r = s->rows[i], n = s->cols;
    if ((s->L[i] = ol_mat_new(r, r, e)) == NULL
        || (s->PL[i] = ol_mat_new(r, r, e)) == NULL
        || (s->R[i] = ol_mat_new(n, n, e)) == NULL
        || (s->PR[i] = ol_mat_new(n, n, e)) == NULL)
      return e->code;
    for (j = 0; j < r; j++) s->L[i][j * r + j] = s->eps;
    for (k = 0; k < n; k++) s->R[i][k * n + k] = s->eps;
  }
  /* (3) dsyevr workspace for the largest side */
  return ol_syevr_ws_init(&s->ws, d, s->A, s->w, s->Z, "shampoo", e);
}

/* P = M^{-1/4} for the symmetric k x k M (unchanged), as Y Y' with Y = Z
** diag(max(w, eps)^{-1/8}).  OL_OK or OL_ENUMERIC. */
static int root4 (shampoo_state *s, int k, const double *M, double *P,
                  ol_err *e)
{
  lapack_int info;
  int i, j;
  memcpy(s->A, M, sizeof(double) * k * k);
  info = ol_syevr_ws_eig(&s->ws, k, s->A, s->w, s->Z);
  if (info == OL_BG_EINTR)
    return ol_err_set(e, OL_EINTR, "shampoo: interrupted");
  if (info != 0)
    return ol_err_set(e, OL_ENUMERIC, "shampoo: eigendecomposition of a "
                      "preconditioner failed (dsyevr info %d)", (int)info);
  for (j = 0; j < k; j++) {
    double f = pow(s->w[j] > s->eps ? s->w[j] : s->eps, -0.125);
    for (i = 0; i < k; i++) s->Z[(size_t)j * k + i] *= f;
  }
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, k, k, k, 1.0, s->Z, k,
              s->Z, k, 0.0, P, k);
  return OL_OK;
}

static int shampoo_step (void *st, ol_ctx *c, ol_err *e)
{
  shampoo_state *s = st;
  int i, j, n = s->cols, rc, off = 0;
  int roots = c->t % s->every == 0;
  double a = s->lr * c->sched;
  /* (1) stochastic gradient G_t at W_t */
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK) return rc;
  for (i = 0; i < s->nmat; i++) {
    int r = s->rows[i];
    double *G = s->g + off, *T = s->T + off, *x = c->x + off;
    /* (2) L += G G', R += G'G */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, r, r, n, 1.0, G, n,
                G, n, 1.0, s->L[i], r);
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, n, n, r, 1.0, G, n,
                G, n, 1.0, s->R[i], n);
    /* (3) the roots, at steps 1, every + 1, ... */
    if (roots) {
      if ((rc = root4(s, r, s->L[i], s->PL[i], e)) != OL_OK) return rc;
      if ((rc = root4(s, n, s->R[i], s->PR[i], e)) != OL_OK) return rc;
    }
    /* (4) T = L^{-1/4} G, W -= lr T R^{-1/4} */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, r, n, r, 1.0,
                s->PL[i], r, G, n, 0.0, T, n);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, r, n, n, 1.0, T,
                n, s->PR[i], n, 0.0, G, n);
    for (j = 0; j < r * n; j++) x[j] -= a * G[j];
    off += r * n;
  }
  return OL_OK;
}

static void shampoo_fini (void *st)
{
  shampoo_state *s = st;
  int i;
  for (i = 0; i < 4; i++) {
    ol_vec_free(s->L[i]);
    ol_vec_free(s->R[i]);
    ol_vec_free(s->PL[i]);
    ol_vec_free(s->PR[i]);
    s->L[i] = s->R[i] = s->PL[i] = s->PR[i] = NULL;
  }
  ol_vec_free(s->g);
  ol_vec_free(s->T);
  ol_vec_free(s->A);
  ol_vec_free(s->Z);
  ol_vec_free(s->w);
  ol_syevr_ws_fini(&s->ws);
  s->g = s->T = s->A = s->Z = s->w = NULL;
}

const ol_method_type ol_optim_shampoo = {
  .name = "shampoo",
  .family = OL_OPTIM,
  .doc = "Shampoo: W -= lr L^{-1/4} G R^{-1/4}, L = sum G G', R = sum G'G",
  .ref = "Gupta, Koren & Singer 2018, Algorithm 1",
  .params = shampoo_params,
  .nparams = (int)(sizeof shampoo_params / sizeof shampoo_params[0]),
  .size = sizeof(shampoo_state),
  .flags = OL_M_NEEDMAT,
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = shampoo_init,
  .step = shampoo_step,
  .fini = shampoo_fini,
  .probes = OL_MSET_NONE,
};
