/*
** core/optim/cubic.c -- cubic-regularized Newton (Nesterov & Polyak 2006,
** Math. Program. 108, eq. (2.7)-(2.9)).
**
**   s_t = argmin_s  m(s) = g's + 1/2 s'H s + M/6 ||s||^3
**   x_{t+1} = x_t + sched_t s_t
**
** The global minimiser of m is characterised by (Nesterov & Polyak 2006,
** Proposition 1; Cartis, Gould & Toint 2011, Theorem 3.1)
**   (H + M r/2 I) s = -g,   r = ||s||,   H + M r/2 I >= 0.
** With H = Q diag(lambda) Q' (LAPACK dsyevd, workspace sized in init) and
** gt = Q'g, s(r) = -Q (diag(lambda) + M r/2)^{-1} gt, and r solves the
** secular equation phi(r) = ||s(r)|| - r = 0 on r > r_lo = max(0,
** -2 lambda_min / M).  phi is convex and decreasing there, so Newton's
** method from the upper bound r_hi = r_lo + sqrt(2 ||g|| / M) (where
** phi < 0) converges monotonically; it is safeguarded by bisection on
** [r_lo, r_hi] and stops at |phi| <= 4 eps r.
**
** Hard case (gt has no component along the eigenvectors of lambda_min < 0
** and phi(r_lo+) <= 0; Moré & Sorensen 1983 for trust regions): r = r_lo
** and s = -(H + M r_lo/2 I)^+ g + tau q_min with tau chosen so ||s|| =
** r_lo, sign against g (so g's <= 0).  The near-hard case (a tiny gt_min)
** is treated the same way when phi at r_lo (1 + 1e-12) is already <= 0.
**
** adapt = 1: the line-search variant of Nesterov & Polyak 2006 (section
** 3, choice of M_k): M_k is doubled, re-solving only the secular equation,
** until f(x + s) <= f(x) + m(s) (the model is an upper bound at the new
** point, which implies a decrease); the search starts at max(M_{k-1}/2,
** M), the parameter M playing the role of their L_0.  A trial point where
** f is not finite fails that test (M is doubled, which shortens the step:
** ||s|| <= sqrt(2 ||g|| / M)) instead of ending the run.  After 60
** doublings: OL_ENUMERIC.  A model decrease -m(s) below the resolution
** of f (10 eps |f| + DBL_MIN) cannot be tested: the step is taken.
** adapt = 0: fixed M, the step is always taken.
*/
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>

#include "cubicsub.h"
#include "method.h"
#include "syevr.h"
#include "vec.h"

#define CUBIC_DOUBLINGS 60

typedef struct cubic_state {
  double M0, M;         /* parameter M and the current M_k */
  int adapt;
  double *g, *H;        /* gradient; Hessian, then eigenvectors (rows) */
  double *lam, *gt, *st, *xt;
  ol_syevd_ws ws;       /* dsyevd's workspace */
  double r, gs, shs;    /* ||s||, g's and s'Hs of the last subproblem */
} cubic_state;

static const ol_param cubic_params[] = {
  {"M", OL_P_REAL, 1, OL_GT0, OL_FINITE,
   "cubic regularisation constant (Lipschitz constant of the Hessian)",
   NULL},
  {"adapt", OL_P_BOOL, 1, 0, 1,
   "double M until f(x + s) <= f(x) + m(s) (Nesterov-Polyak section 3)",
   NULL},
};

static int cubic_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  cubic_state *s = st;
  int n = c->n;
  s->M0 = s->M = par[0];
  s->adapt = par[1] != 0;
  if ((s->g = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->H = ol_mat_new(n, n, e)) == NULL) return e->code;
  if ((s->lam = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->gt = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->st = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->xt = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  /* (1) dsyevd workspace */
  return ol_syevd_ws_init(&s->ws, n, s->H, s->lam, "cubic", e);
}

/* Solve the subproblem for M in eigen-coordinates: s->st, s->r, s->gs,
** s->shs. */
static void cubic_solve (cubic_state *s, int n, double M)
{
  s->r = ol_cubic_subproblem(s->lam, s->gt, n, M, s->st, &s->gs, &s->shs);
}

static int cubic_step (void *st, ol_ctx *c, ol_err *e)
{
  cubic_state *s = st;
  double *x = c->x, f = 0, ft, a = c->sched, M;
  int i, j, n = c->n, rc;
  lapack_int info;
  /* (1) gradient, value (adaptive test), Hessian */
  rc = ol_ctx_grad(c, x, s->adapt ? &f : NULL, s->g, e);
  if (rc != OL_OK) return rc;
  if (ol_vec_nrm2(s->g, n) == 0) {
    ol_ctx_converged(c, "the gradient is exactly 0");
    return OL_OK;
  }
  if ((rc = ol_ctx_hess(c, x, s->H, e)) != OL_OK) return rc;
  /* (2) H = Q diag(lam) Q'; rows of s->H are then the eigenvectors */
  info = ol_syevd_ws_eig(&s->ws, n, s->H, s->lam);
  if (info == OL_BG_EINTR)
    return ol_err_set(e, OL_EINTR, "cubic: interrupted");
  if (info != 0)
    return ol_err_set(e, OL_ENUMERIC, "cubic: eigendecomposition failed "
                      "(dsyevd info %d)", (int)info);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, s->H, n, s->g, 1,
              0.0, s->gt, 1);
  /* (3) subproblem; with adapt, double M until the model bounds f */
  M = s->adapt ? fmax(0.5 * s->M, s->M0) : s->M0;
  for (j = 0; j <= CUBIC_DOUBLINGS; j++, M *= 2) {
    double mv;
    cubic_solve(s, n, M);
    cblas_dgemv(CblasRowMajor, CblasTrans, n, n, a, s->H, n, s->st, 1,
                0.0, s->xt, 1);
    if (!s->adapt) break;
    /* m(a s) with a = sched: the model at the displacement taken */
    mv = a * s->gs + 0.5 * a * a * s->shs + M / 6 * pow(a * s->r, 3);
    for (i = 0; i < n; i++) s->xt[i] += x[i];
    if (-mv <= 10 * DBL_EPSILON * fabs(f) + DBL_MIN) break;
    rc = ol_ctx_value(c, s->xt, &ft, e);
    if (rc == OL_EDOM) ft = INFINITY;  /* not finite there: raise M */
    else if (rc != OL_OK) return rc;
    /* the model bounds f up to the rounding of f itself (near f* = 0 the
    ** two values differ in their last bits only) */
    if (ft <= f + mv + 16 * DBL_EPSILON * fabs(f)) break;
    for (i = 0; i < n; i++) s->xt[i] -= x[i];
  }
  if (j > CUBIC_DOUBLINGS)
    return ol_err_set(e, OL_ENUMERIC, "cubic: no decrease after doubling "
                      "M to %g", M);
  s->M = M;
  /* (4) move */
  if (s->adapt) ol_vec_copy(s->xt, x, n);
  else ol_vec_axpy(1.0, s->xt, x, n);
  return OL_OK;
}

static void cubic_fini (void *st)
{
  cubic_state *s = st;
  ol_vec_free(s->g);
  ol_vec_free(s->H);
  ol_vec_free(s->lam);
  ol_vec_free(s->gt);
  ol_vec_free(s->st);
  ol_vec_free(s->xt);
  ol_syevd_ws_fini(&s->ws);
  s->g = s->H = s->lam = s->gt = s->st = s->xt = NULL;
}

const ol_method_type ol_optim_cubic = {
  .name = "cubic",
  .family = OL_OPTIM,
  .doc = "cubic-regularized Newton: s = argmin g's + s'Hs/2 + M||s||^3/6",
  .ref = "Nesterov & Polyak 2006, eq. (2.7)-(2.9) and section 3",
  .params = cubic_params,
  .nparams = (int)(sizeof cubic_params / sizeof cubic_params[0]),
  .size = sizeof(cubic_state),
  .flags = OL_M_NEEDHESS,
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = cubic_init,
  .step = cubic_step,
  .fini = cubic_fini,
  .probes = OL_MSET_NONE,
};
