/*
** core/optim/newton.c -- Newton's method with a Cholesky solve and four
** step rules.
**
**   p_t = -B_t^{-1} g_t,   g_t = grad f(x_t), H_t = Hess f(x_t)
**   pure:      x_{t+1} = x_t + a_t p_t
**   damped:    x_{t+1} = x_t + a_t p_t / (1 + lambda_t),
**              lambda_t = sqrt(-g_t' p_t)
**              (Newton decrement; Nesterov 2004, Introductory Lectures,
**              section 4.1.5, damped Newton method)
**   backtrack: x_{t+1} = x_t + a p_t with a = a_t 2^{-j}, j >= 0 the first
**              with f(x_t + a p) <= f(x_t) + c1 a g_t'p_t, c1 = 1e-4
**              (Armijo backtracking, Nocedal & Wright 2006, Algorithm 3.1
**              with rho = 1/2), at most 50 halvings; a trial point where
**              f is not finite (an overflowing exp, a log of a negative)
**              fails the test like any other and the step is halved
**   aicn:      x_{t+1} = x_t + a_t alpha_t p_t,
**              alpha_t = (-1 + sqrt(1 + 2 L lambda_t)) / (L lambda_t)
**              (1 when L lambda_t = 0, its limit), lambda_t as above
**              (Hanzely, Kamzolov, Pasechnyuk, Gasnikov, Richtarik &
**              Takac 2022, "A damped Newton method achieves global
**              O(1/k^2) and local quadratic convergence rate", NeurIPS 35,
**              Algorithm 1, AICN: affine-invariant cubic Newton).  alpha_t
**              is the minimiser over a of the model -a lambda^2 +
**              a^2 lambda^2 / 2 + L a^3 lambda^3 / 6 (the cubic model in
**              the local norm ||h||_x = (h'H h)^{1/2} along p_t), so
**              alpha_t is in (0, 1] and -> 1 as lambda_t -> 0 (local
**              quadratic rate).  L >= 0 is the paper's L_est, an upper
**              estimate of the semi-strong self-concordance constant
**              L_semi: ||Hess f(y) - Hess f(x)||_{op,x} <= L_semi ||y -
**              x||_x.  With L_est >= L_semi the paper proves f(x_k) - f*
**              = O(k^-2) globally, its constant growing with L_est and
**              with the size of the initial level set in the local
**              norms, and a local quadratic rate; L = 0 is pure Newton.  The formula was read
**              against the authors' own implementation (the OPTAMI
**              library, DampedNewton variant 'AIC': G = L (g'H^-1 g)^{1/2},
**              alpha = (sqrt(1 + 2G) - 1) / G); the paper's exact rate
**              constants are not restated here.  Not done: an adaptive L
**              (the doubling/halving "backtracking ... as if the optimal
**              smoothness parameters were known" of Hanzely, Abdukhakimov
**              & Takac 2024, arXiv 2405.18926, whose abstract does not
**              give its form, nor its O(k^-3) schedules).  Computed as
**              alpha = 2 / (1 + sqrt(1 + 2 L lambda)), the same number
**              without the cancellation of -1 + sqrt(1 + u) for small u.
**   a_t = lr * sched_t.
**
** B_t: H_t when its Cholesky factorisation succeeds (H positive
** definite); otherwise Greenstadt's modification (Greenstadt 1967, "On
** the relative efficiencies of gradient methods", Math. Comp. 21; Nocedal
** & Wright 2006, sec. 3.4): with H = Q diag(l) Q' (LAPACK dsyevd, its
** workspace sized in init), B = Q diag(max(|l_i|, delta)) Q', delta =
** 1e-8 max_i |l_i| (1 when H = 0), so p = -sum_i q_i (q_i'g) / max(|l_i|,
** delta): a direction of negative curvature is followed with the step
** its curvature warrants.  (Adding tau I just enough to make H + tau I
** positive definite, N&W Algorithm 3.3 with a small beta, leaves it
** nearly singular: the step along the least eigenvector is huge, and on
** More, Garbow & Hillstrom's Osborne 1 it throws Newton into the valley
** x4, x5 -> 0 instead of the minimum.)  tau (diagnostics) is 0 when B =
** H, else min_i (max(|l_i|, delta) - l_i), the largest change to an
** eigenvalue.
**
** When the full step's predicted decrease -a g'p is below the resolution
** of f (<= 10 eps |f| + DBL_MIN), the Armijo test cannot be evaluated in
** floating point and the step is taken as it is (near a minimiser the
** Newton step is the right one); without this, backtracking would fail at
** the optimum.
**
** Linear algebra: H is symmetric, so the row-major array is also its
** column-major storage; dpotrf / dpotrs run on it column-major ('L'),
** which needs no transposed copy (LAPACKE's row-major wrappers allocate).
** dpotrf leaves the strict upper (column-major) triangle untouched, so a
** failed attempt is undone from it and a saved diagonal: no n x n copy.
** The eigendecomposition overwrites H with Q (column-major, column i =
** q_i) after H is restored the same way.  All arrays are allocated in
** init.
**
** Convergence: a gradient that is exactly 0 leaves x where it is, and so
** does a failed backtracking search at a point that is stationary to
** working precision (ol_ctx_fp_stationary: f cannot decrease any further
** in floating point); both stop the run as converged.
*/
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>

#include "bg.h"
#include "method.h"
#include "syevr.h"
#include "vec.h"

enum { NEWTON_PURE, NEWTON_DAMPED, NEWTON_BACKTRACK, NEWTON_AICN };

#define NEWTON_C1 1e-4
#define NEWTON_HALVINGS 50

typedef struct newton_state {
  int rule;
  double lr;
  double L;             /* AICN's L_est (aicn only) */
  double *g, *H, *diag, *p, *xt, *ev;
  ol_syevd_ws ws;       /* dsyevd's workspace, for Greenstadt's B */
  int modified;         /* B is Greenstadt's (H overwritten by Q) */
  double tau, lambda;   /* largest eigenvalue change, Newton decrement */
} newton_state;

static const ol_param newton_params[] = {
  {"step", OL_P_ENUM, NEWTON_BACKTRACK, 0, 3,
   "step rule: pure x - a H^-1 g, damped / (1 + lambda), Armijo backtrack, "
   "aicn (Hanzely et al. 2022)", "pure|damped|backtrack|aicn"},
  {"lr", OL_P_REAL, 1, 0, INFINITY,
   "step a (pure, damped, aicn) or first trial step (backtrack)", NULL},
  {"L", OL_P_REAL, 1, 0, OL_FINITE,
   "aicn: L_est >= the semi-strong self-concordance constant; "
   "alpha = 2 / (1 + sqrt(1 + 2 L lambda)) (0: pure Newton)", NULL},
};

static int newton_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  newton_state *s = st;
  int n = c->n;
  s->rule = (int)par[0];
  s->lr = par[1];
  s->L = par[2];
  if ((s->g = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->H = ol_mat_new(n, n, e)) == NULL) return e->code;
  if ((s->diag = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->p = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->xt = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->ev = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  return ol_syevd_ws_init(&s->ws, n, s->H, s->ev, "newton", e);
}

/* B from H in place: the Cholesky factor of H (lower, column-major) when
** it succeeds, else Greenstadt's modification (H overwritten by Q, the
** modified eigenvalues in s->ev).  OL_OK with s->modified and s->tau
** set, or OL_ENUMERIC. */
static int newton_factor (newton_state *s, int n, ol_err *e)
{
  double *H = s->H, dmin = INFINITY, lmax = 0, delta;
  lapack_int info;
  int i, j;
  s->modified = 0;
  s->tau = 0;
  for (i = 0; i < n; i++) {
    s->diag[i] = H[(size_t)i * n + i];
    if (s->diag[i] < dmin) dmin = s->diag[i];
  }
  /* (1) H itself when it is positive definite */
  if (dmin > 0) {
    info = ol_bg_potrf(n, H);
    if (info == OL_BG_EINTR)
      return ol_err_set(e, OL_EINTR, "newton: interrupted");
    if (info == 0) return OL_OK;
  }
  /* (2) restore H from the triangle dpotrf did not touch; eigenvalues */
  for (j = 0; j < n; j++) {
    for (i = j + 1; i < n; i++) H[(size_t)j * n + i] = H[(size_t)i * n + j];
    H[(size_t)j * n + j] = s->diag[j];
  }
  info = ol_syevd_ws_eig(&s->ws, n, H, s->ev);
  if (info == OL_BG_EINTR)
    return ol_err_set(e, OL_EINTR, "newton: interrupted");
  if (info != 0)
    return ol_err_set(e, OL_ENUMERIC, "newton: eigendecomposition of an "
                      "indefinite Hessian failed (dsyevd info %d)",
                      (int)info);
  /* (3) |l_i|, at least delta */
  for (i = 0; i < n; i++) lmax = fmax(lmax, fabs(s->ev[i]));
  delta = lmax > 0 ? 1e-8 * lmax : 1;
  for (i = 0; i < n; i++) {
    double b = fmax(fabs(s->ev[i]), delta);
    s->tau = fmax(s->tau, b - s->ev[i]);
    s->ev[i] = b;
  }
  s->modified = 1;
  return OL_OK;
}

static int newton_step (void *st, ol_ctx *c, ol_err *e)
{
  newton_state *s = st;
  double *x = c->x, *p = s->p, f = 0, ft, gp, a = s->lr * c->sched;
  int i, j, n = c->n, rc;
  /* (1) gradient (and value for the line search), Hessian */
  rc = ol_ctx_grad(c, x, s->rule == NEWTON_BACKTRACK ? &f : NULL, s->g, e);
  if (rc != OL_OK) return rc;
  if (ol_vec_nrm2(s->g, n) == 0) {
    ol_ctx_converged(c, "the gradient is exactly 0");
    return OL_OK;
  }
  if ((rc = ol_ctx_hess(c, x, s->H, e)) != OL_OK) return rc;
  /* (2) p = -B^{-1} g */
  if ((rc = newton_factor(s, n, e)) != OL_OK) return rc;
  if (s->modified) {
    /* p = -Q diag(1 / ev) Q' g, with xt as scratch for Q'g */
    cblas_dgemv(CblasColMajor, CblasTrans, n, n, 1.0, s->H, n, s->g, 1,
                0.0, s->xt, 1);
    for (i = 0; i < n; i++) s->xt[i] /= -s->ev[i];
    cblas_dgemv(CblasColMajor, CblasNoTrans, n, n, 1.0, s->H, n, s->xt, 1,
                0.0, p, 1);
  } else {
    for (i = 0; i < n; i++) p[i] = -s->g[i];
    if (LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', n, 1, s->H, n, p, n)
        != 0)
      return ol_err_set(e, OL_ENUMERIC, "newton: Cholesky solve failed");
  }
  gp = ol_vec_dot(s->g, p, n);
  s->lambda = sqrt(gp < 0 ? -gp : 0);
  /* (3) move by the step rule */
  if (s->rule == NEWTON_PURE) {
    ol_vec_axpy(a, p, x, n);
    return OL_OK;
  }
  if (s->rule == NEWTON_DAMPED) {
    ol_vec_axpy(a / (1 + s->lambda), p, x, n);
    return OL_OK;
  }
  if (s->rule == NEWTON_AICN) {
    ol_vec_axpy(a * 2 / (1 + sqrt(1 + 2 * s->L * s->lambda)), p, x, n);
    return OL_OK;
  }
  for (j = 0; j <= NEWTON_HALVINGS; j++, a *= 0.5) {
    if (-a * gp <= 10 * DBL_EPSILON * fabs(f) + DBL_MIN) break;
    for (i = 0; i < n; i++) s->xt[i] = x[i] + a * p[i];
    rc = ol_ctx_value(c, s->xt, &ft, e);
    if (rc == OL_EDOM) continue;   /* f not finite there: a shorter step */
    if (rc != OL_OK) return rc;
    if (ft <= f + NEWTON_C1 * a * gp) break;
  }
  if (j > NEWTON_HALVINGS && s->rule == NEWTON_BACKTRACK &&
      ol_ctx_fp_stationary(c, x, f, s->g)) {
    ol_ctx_converged(c, "no further decrease in floating point");
    return OL_OK;
  }
  if (j > NEWTON_HALVINGS)
    return ol_err_set(e, OL_ENUMERIC, "newton: line search found no "
                      "decrease in %d halvings (f = %g, g'p = %g)",
                      NEWTON_HALVINGS, f, gp);
  ol_vec_axpy(a, p, x, n);
  return OL_OK;
}

static void newton_fini (void *st)
{
  newton_state *s = st;
  ol_vec_free(s->g);
  ol_vec_free(s->H);
  ol_vec_free(s->diag);
  ol_vec_free(s->p);
  ol_vec_free(s->xt);
  ol_vec_free(s->ev);
  ol_syevd_ws_fini(&s->ws);
  s->g = s->H = s->diag = s->p = s->xt = s->ev = NULL;
}

const ol_method_type ol_optim_newton = {
  .name = "newton",
  .family = OL_OPTIM,
  .doc = "Newton's method: Cholesky, or Greenstadt's |eigenvalue| modification "
    "of an indefinite H; pure, damped or backtracking",
  .ref = "Nocedal & Wright 2006, Algorithm 3.1 and sec. 3.4; Greenstadt 1967; "
    "Nesterov 2004, 4.1.5; Hanzely et al. 2022, NeurIPS (AICN, Algorithm 1)",
  .params = newton_params,
  .nparams = (int)(sizeof newton_params / sizeof newton_params[0]),
  .size = sizeof(newton_state),
  .flags = OL_M_NEEDHESS,
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = newton_init,
  .step = newton_step,
  .fini = newton_fini,
  .probes = OL_MSET_NONE,
};
