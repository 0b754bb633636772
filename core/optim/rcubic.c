/*
** core/optim/rcubic.c -- Riemannian cubic-regularized Newton on a
** problem's submanifold (core/manifold.h): the method A16 applies to its
** K-means manifold (Xu, Hou, Chen & Zhang 2025, arXiv 2509.21675), in
** the form of Agarwal, Boumal, Bullins & Cartis 2021 (Math. Program. 188,
** "Adaptive regularization with cubics on manifolds", ARC): at x on M,
**
**   s_t = argmin_{s in T_x M}  m(s) = <grad f, s> + 1/2 <Hess f[s], s>
**                                     + M/6 ||s||^3
**   x_{t+1} = R_x(sched_t s_t)
**
** with grad f and Hess f the Riemannian ones of the problem's manifold
** (manifold.h: the projection of the Euclidean gradient, and of the
** Hessian of the Lagrangian) and its retraction R.  Per step, with
** N = p->n: the projector P_x as a dense N x N matrix (N projections of
** unit vectors; the k-means one costs O(n r^2) each), the Riemannian
** Hessian H_R = P (nabla^2 f - sum_i lam_i nabla^2 h_i) P, symmetrised,
** plus c (I - P) with c = 1 + ||H_R||_F, which moves the normal
** directions' eigenvalues above every tangent one, so that the smallest
** eigenvalue of the matrix is lambda_min(Hess f) on T_x M.  The
** subproblem is then solved exactly in H_R's eigenbasis by the secular
** equation of Nesterov & Polyak 2006 (eq. (2.7)-(2.9); cubic.c: the same
** solve, hard case included); grad f is tangent, so the step is.  This
** dense solve is O(N^3) a step: A16's linear-time subproblem solver is
** not reproduced (its text could not be read here).
**
** adapt = 1 (ARC's acceptance, as in cubic.c's line search): M_k is
** doubled until f(R_x(s)) <= f(x) + m(s) (a trial point where f is not
** finite, e.g. outside the log barrier's domain, fails the test), from
** max(M_{k-1}/2, M).  adapt = 0: fixed M, the step is always taken.
**
** Stop: an (eps)-second-order point in Nesterov & Polyak's sense,
** ||grad f|| <= tol and lambda_min(Hess f) >= -sqrt(M_k tol), tested
** before the step at the current x (so at the end the results below are
** those of the final x).
**
** Results (r.<name>): lambda_min and rgrad (||grad f||) at the last x
** where the Hessian was formed, violation (max |h(x)|) and the
** manifold's own read-outs (k-means: misclass, fkmeans, frelax, lloyd,
** lloyd_miss, gapbound) at the current x.
*/
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cubicsub.h"
#include "manifold.h"
#include "method.h"
#include "syevr.h"
#include "vec.h"

#define RCUBIC_DOUBLINGS 60
#define RCUBIC_MAXN 2048     /* four dense n x n matrices a step */
#define RCUBIC_ONM 1e-8     /* a start this close to M counts as on it */

typedef struct rcubic_state {
  double M0, M, tol;
  int adapt;
  const ol_manifold *man;
  double *g, *rg, *lam, *H, *P, *W, *ev, *gt, *st, *s, *xt, *cv;
  ol_syevd_ws ws;
  double r, gs, shs;
  double lmin, rgn;                 /* at the last Hessian */
  double res[3 + OL_MANIFOLD_MAXRES];   /* lambda_min, rgrad, violation,
                                           then the manifold's */
} rcubic_state;

static const ol_param rcubic_params[] = {
  {"M", OL_P_REAL, 1, OL_GT0, OL_FINITE,
   "cubic regularisation constant (Lipschitz constant of the Hessian)",
   NULL},
  {"adapt", OL_P_BOOL, 1, 0, 1,
   "double M until f(R(s)) <= f(x) + m(s) (ARC's acceptance)", NULL},
  {"tol", OL_P_REAL, 1e-8, 0, OL_FINITE,
   "stop at ||grad|| <= tol and lambda_min >= -sqrt(M tol)", NULL},
};

static int rcubic_check (const ol_method_type *m, const ol_problem *p,
                         ol_err *e)
{
  const ol_manifold *man = ol_manifold_of(p);
  if (man == NULL)
    return ol_err_set(e, OL_EINVAL, "%s needs a problem on a manifold "
                      "(problem.kmeans); %s has none: use optim.cubic",
                      m->name, p->name);
  if (p->n > RCUBIC_MAXN)
    return ol_err_set(e, OL_EINVAL, "%s forms dense %d x %d matrices; "
                      "n = %d is over %d", m->name, p->n, p->n, p->n,
                      RCUBIC_MAXN);
  return OL_OK;
}

static int rcubic_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  rcubic_state *s = st;
  int n = c->n, i;
  s->M0 = s->M = par[0];
  s->adapt = par[1] != 0;
  s->tol = par[2];
  s->man = ol_manifold_of(c->p);
  if (s->man == NULL)
    return ol_err_set(e, OL_EINVAL, "rcubic needs a problem on a manifold");
  /* the projection and the Hessian formula hold on M only */
  if (!(s->man->violation(s->man, c->x) <= RCUBIC_ONM))
    return ol_err_set(e, OL_EINVAL, "rcubic: x0 is off the problem's "
                      "manifold (max |h(x0)| = %g > %g); start from p.x0 "
                      "or a run's r.x", s->man->violation(s->man, c->x),
                      RCUBIC_ONM);
  s->lmin = s->rgn = NAN;
  for (i = 0; i < 3 + OL_MANIFOLD_MAXRES; i++) s->res[i] = NAN;
  if ((s->g = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->rg = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->lam = ol_vec_new(s->man->m, e)) == NULL) return OL_ENOMEM;
  if ((s->H = ol_mat_new(n, n, e)) == NULL) return e->code;
  if ((s->P = ol_mat_new(n, n, e)) == NULL) return e->code;
  if ((s->W = ol_mat_new(n, n, e)) == NULL) return e->code;
  if ((s->ev = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->gt = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->st = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->s = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->xt = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->cv = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  return ol_syevd_ws_init(&s->ws, n, s->W, s->ev, "rcubic", e);
}

/* The subproblem's global minimiser in eigen-coordinates (cubicsub.h,
** shared with cubic): s->st, s->r, s->gs, s->shs. */
static void rc_solve (rcubic_state *s, int n, double M)
{
  s->r = ol_cubic_subproblem(s->ev, s->gt, n, M, s->st, &s->gs, &s->shs);
}

/* The read-outs at x into s->res[2 ..]. */
static void rc_results (rcubic_state *s, const double *x)
{
  s->res[0] = s->lmin;
  s->res[1] = s->rgn;
  s->res[2] = s->man->violation(s->man, x);
  if (s->man->results != NULL) s->man->results(s->man, x, s->res + 3);
}

/* W := the Riemannian Hessian at x plus c (I - P), from the Euclidean
** Hessian in s->H and the multipliers s->lam of the gradient. */
static void rc_hessian (rcubic_state *s, const double *x, int n)
{
  const ol_manifold *man = s->man;
  double fro = 0, c;
  int i, j;
  /* P: row j = P e_j (P is symmetric) */
  for (j = 0; j < n; j++) {
    double *row = s->P + (size_t)j * n;
    memset(row, 0, sizeof(double) * (size_t)n);
    row[j] = 1;
    man->proj(man, x, row, row, NULL);
  }
  /* W = P H: row j = (H P e_j)'; minus the curvature term of P e_j */
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, s->P,
              n, s->H, n, 0.0, s->W, n);
  for (j = 0; j < n; j++) {
    man->curv(man, x, s->lam, s->P + (size_t)j * n, s->cv);
    ol_vec_axpy(-1.0, s->cv, s->W + (size_t)j * n, n);
  }
  /* H := P W' (the Riemannian Hessian on the ambient space), symmetrised */
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, s->P, n,
              s->W, n, 0.0, s->H, n);
  for (i = 0; i < n; i++)
    for (j = 0; j < i; j++) {
      double a = 0.5 * (s->H[(size_t)i * n + j] + s->H[(size_t)j * n + i]);
      s->H[(size_t)i * n + j] = s->H[(size_t)j * n + i] = a;
    }
  for (i = 0; i < n * n; i++) fro += s->H[i] * s->H[i];
  c = 1 + sqrt(fro);
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      s->W[(size_t)i * n + j] = s->H[(size_t)i * n + j]
        + c * ((i == j) - s->P[(size_t)i * n + j]);
}

static int rcubic_step (void *st, ol_ctx *c, ol_err *e)
{
  rcubic_state *s = st;
  const ol_manifold *man = s->man;
  double *x = c->x, f = 0, ft, a = c->sched, M;
  int i, j, n = c->n, rc;
  lapack_int info;
  /* (1) Euclidean gradient and Hessian; Riemannian gradient */
  if ((rc = ol_ctx_grad(c, x, &f, s->g, e)) != OL_OK) return rc;
  man->proj(man, x, s->g, s->rg, s->lam);
  s->rgn = ol_vec_nrm2(s->rg, n);
  if ((rc = ol_ctx_hess(c, x, s->H, e)) != OL_OK) return rc;
  /* (2) Riemannian Hessian (+ c(I - P)) = Q diag(ev) Q', rows of W = Q' */
  rc_hessian(s, x, n);
  info = ol_syevd_ws_eig(&s->ws, n, s->W, s->ev);
  if (info == OL_BG_EINTR)
    return ol_err_set(e, OL_EINTR, "rcubic: interrupted");
  if (info != 0)
    return ol_err_set(e, OL_ENUMERIC, "rcubic: eigendecomposition failed "
                      "(dsyevd info %d)", (int)info);
  s->lmin = s->ev[0];
  /* (3) an eps-second-order point: stop here */
  if (s->rgn <= s->tol && s->lmin >= -sqrt(s->M * s->tol)) {
    rc_results(s, x);
    ol_ctx_converged(c, "||grad|| <= tol and lambda_min >= -sqrt(M tol)");
    return OL_OK;
  }
  cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, s->W, n, s->rg, 1,
              0.0, s->gt, 1);
  /* (4) subproblem, retraction, acceptance */
  M = s->adapt ? fmax(0.5 * s->M, s->M0) : s->M0;
  for (j = 0; j <= RCUBIC_DOUBLINGS; j++, M *= 2) {
    double mv;
    rc_solve(s, n, M);
    cblas_dgemv(CblasRowMajor, CblasTrans, n, n, a, s->W, n, s->st, 1, 0.0,
                s->s, 1);
    rc = man->retract(man, x, s->s, s->xt, e);
    if (rc != OL_OK && rc != OL_EDOM) return rc;
    if (!s->adapt) {
      if (rc != OL_OK) return rc;
      break;
    }
    if (rc == OL_EDOM) continue;
    mv = a * s->gs + 0.5 * a * a * s->shs + M / 6 * pow(a * s->r, 3);
    if (-mv <= 10 * DBL_EPSILON * fabs(f) + DBL_MIN) break;
    rc = ol_ctx_value(c, s->xt, &ft, e);
    if (rc == OL_EDOM) ft = INFINITY;
    else if (rc != OL_OK) return rc;
    if (ft <= f + mv + 16 * DBL_EPSILON * fabs(f)) break;
  }
  if (j > RCUBIC_DOUBLINGS)
    return ol_err_set(e, OL_ENUMERIC, "rcubic: no decrease after doubling "
                      "M to %g", M);
  s->M = M;
  for (i = 0; i < n; i++) x[i] = s->xt[i];
  rc_results(s, x);
  return OL_OK;
}

static int rcubic_result (const void *st, const char *name, const double **v,
                          int *rows, int *cols)
{
  static const char *const own[] = {"lambda_min", "rgrad", "violation"};
  const rcubic_state *s = st;
  int i;
  for (i = 0; i < 3; i++)
    if (strcmp(name, own[i]) == 0) {
      *v = s->res + i;
      *rows = *cols = 1;
      return 1;
    }
  if (s->man == NULL) return 0;
  for (i = 0; i < s->man->nres && i < OL_MANIFOLD_MAXRES; i++)
    if (strcmp(name, s->man->resnames[i]) == 0) {
      *v = s->res + 3 + i;
      *rows = *cols = 1;
      return 1;
    }
  return 0;
}

static void rcubic_fini (void *st)
{
  rcubic_state *s = st;
  ol_vec_free(s->g);
  ol_vec_free(s->rg);
  ol_vec_free(s->lam);
  ol_vec_free(s->H);
  ol_vec_free(s->P);
  ol_vec_free(s->W);
  ol_vec_free(s->ev);
  ol_vec_free(s->gt);
  ol_vec_free(s->st);
  ol_vec_free(s->s);
  ol_vec_free(s->xt);
  ol_vec_free(s->cv);
  ol_syevd_ws_fini(&s->ws);
  s->g = s->rg = s->lam = s->H = s->P = s->W = NULL;
  s->ev = s->gt = s->st = s->s = s->xt = s->cv = NULL;
}

const ol_method_type ol_optim_rcubic = {
  .name = "rcubic",
  .family = OL_OPTIM,
  .doc = "Riemannian cubic-regularized Newton on the problem's manifold "
         "(retraction, projected gradient and Hessian)",
  .ref = "Agarwal, Boumal, Bullins & Cartis 2021 (ARC on manifolds); A16: "
         "Xu, Hou, Chen & Zhang 2025 (arXiv 2509.21675)",
  .params = rcubic_params,
  .nparams = (int)(sizeof rcubic_params / sizeof rcubic_params[0]),
  .size = sizeof(rcubic_state),
  .flags = OL_M_NEEDHESS,
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = rcubic_init,
  .step = rcubic_step,
  .fini = rcubic_fini,
  .probes = OL_MSET_NONE,
  .result = rcubic_result,
  .check = rcubic_check,
};
