/*
** core/optim/agnc.c -- the accelerated gradient (AG) method for nonconvex
** (composite) problems of Ghadimi & Lan 2016, "Accelerated gradient
** methods for nonconvex nonlinear and stochastic programming", Math.
** Program. 156, 59-99 (arXiv 1310.3787): Algorithm 1 (the AG method)
** with the proximal steps of their composite Algorithm 2, for F = f + h,
** h the problem's composite term (l1 or SCAD, core/penalty.h; none:
** plain AG).  The constants below are those of their Corollaries 1 and 2
** (an independent public implementation of Algorithm 2 uses the same).
**
**   x^ag_0 = x_0; for k = 1, 2, ...:
**   x^md_k = (1 - alpha_k) x^ag_{k-1} + alpha_k x_{k-1}
**   x_k    = prox_{lambda_k h}( x_{k-1} - lambda_k grad f(x^md_k) )
**   x^ag_k = prox_{beta_k h}( x^md_k - beta_k grad f(x^md_k) )
**
** The run's iterate is x^ag_k, the solution sequence (their nonconvex
** bounds are on the gradient mapping at x^md_k, whose prox step x^ag_k
** is); one gradient per step, at x^md_k.  Step sizes (their Corollaries 1 and
** 2): beta_k = lr = 1/(2L), alpha_k = 2/(k+1), and
**   lambda = "composite"  lambda_k = k beta_k / 2      (Corollary 2,
**                         Algorithm 2: the "aggressive" convex-case steps)
**   lambda = "smooth"     lambda_k = (1 + alpha_k/4) beta_k  (the top of
**                         Corollary 1's interval [beta_k, (1 + alpha_k/4)
**                         beta_k], Algorithm 1)
** The damping sequence is generalised by damping = r >= 1: alpha_k =
** r / (k + r - 1) (alpha_1 = 1 as the algorithm requires; r = 2 is
** theirs), with lambda_k = beta_k (k + r - 2) / r in the composite rule,
** which keeps their condition alpha_k lambda_k <= beta_k (r = 2: k beta_k
** / 2).  r is this file's knob for the damping B161 tunes: B161's own
** formula is not in its abstract, so only the standard r = 2 is cited.
** A run's schedule multiplies both beta_k and lambda_k.
**
** L: the Lipschitz constant of grad f.  lr > 0 sets beta = lr; else L > 0
** gives beta = 1/(2L); else L is taken from the problem at x0: the
** largest |eigenvalue| of its Hessian (LAPACK dsyevr, values only) when
** it offers one and n <= 1000, else by 100 power iterations on central
** differences of the true gradient (h = 1e-5 max(1, ||x0||_inf)).  That
** is L exactly for a quadratic f (lasso, linreg), the global bound for
** logistic regression at x0 = 0 (its curvature is largest there), and a
** local estimate elsewhere; a flat start (estimate 0) gives L = 1.
**
** Their theory takes h convex and f smooth, possibly nonconvex.  SCAD is
** not convex, so by default (split = true) it is split as the problem
** allows (core/penalty.h, ol_penalty_concave_grad): h = lambda ||x||_1
** + Q with Q smooth and concave, grad Q (1/(a-1))-Lipschitz, and AG runs
** on Psi = f + Q (L grows by 1/(a-1)) with the convex X = lambda ||x||_1
** -- their composite setting exactly.  split = false takes SCAD's own
** prox in both steps instead (exact for every step); with the growing
** lambda_k of the composite rule that iteration need not converge (it
** cycles on SCAD-penalised least squares: scripts/scad_ag.lua shows it).
** The l1 kind has no concave part: the split changes nothing there.
*/
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>

#include "method.h"
#include "penalty.h"
#include "vec.h"

enum { AG_COMPOSITE, AG_SMOOTH };

typedef struct agnc_state {
  double beta, r, L;
  int rule, split;   /* split: AG on f + Q with prox of l1 ||.||_1 */
  double *x;         /* x_{k-1}, the aggressive sequence */
  double *xmd, *g;   /* x^md_k and grad f(x^md_k) */
} agnc_state;

static const ol_param agnc_params[] = {
  {"lr", OL_P_REAL, 0, 0, OL_FINITE,
   "beta_k = lr (0: 1/(2L))", NULL},
  {"L", OL_P_REAL, 0, 0, OL_FINITE,
   "Lipschitz constant of grad f (0: from the problem at x0)", NULL},
  {"damping", OL_P_REAL, 2, 1, 1e6,
   "r: alpha_k = r/(k+r-1) (2: Ghadimi-Lan's 2/(k+1))", NULL},
  {"lambda", OL_P_ENUM, 0, 0, 1,
   "lambda_k: composite k beta/2 (Cor. 2) | smooth (1+alpha/4) beta "
   "(Cor. 1)", "composite|smooth"},
  {"split", OL_P_BOOL, 1, 0, 1,
   "SCAD as l1 + smooth concave Q: AG on f + Q, prox of l1 only", NULL},
};

/* The prox of the step's convex term: h's own, or with the split the l1
** norm's (soft thresholding at step l1), then the set's projection. */
static void agnc_prox (const agnc_state *s, ol_ctx *c, double *x,
                       double step)
{
  if (!s->split) {
    ol_ctx_prox(c, x, step);
    return;
  }
  if (step * c->p->l1 > 0)
    ol_penalty_l1.proxv(x, c->n, c->p->l1, 0, step);
  ol_ctx_project(c, x);
}

/* The largest |eigenvalue| of the problem's Hessian at x (dense, LAPACK)
** into *L; OL_OK or an oracle / LAPACK code. */
static int hess_L (ol_ctx *c, const double *x, double *L, ol_err *e)
{
  int n = c->n, rc;
  lapack_int m, info;
  double *H = malloc(sizeof(double) * ((size_t)n * n + n));
  if (H == NULL) return ol_err_set(e, OL_ENOMEM, "agnc: out of memory");
  if ((rc = ol_ctx_hess(c, x, H, e)) != OL_OK) {
    free(H);
    return rc;
  }
  /* symmetric: the row-major lower triangle is a column-major upper one */
  info = LAPACKE_dsyevr(LAPACK_COL_MAJOR, 'N', 'A', 'U', n, H, n, 0, 0, 0,
                        0, 0, &m, H + (size_t)n * n, NULL, n, NULL);
  if (info != 0) {
    free(H);
    return ol_err_set(e, OL_ENUMERIC, "agnc: dsyevr failed (info %d) on "
                      "the Hessian at x0; give L", (int)info);
  }
  *L = fmax(fabs(H[(size_t)n * n]), fabs(H[(size_t)n * n + n - 1]));
  free(H);
  return OL_OK;
}

/* ||H v|| by power iteration, H v from central differences of the true
** gradient at x (no noise); *L the estimate. */
static int power_L (ol_ctx *c, const double *x, double *L, ol_err *e)
{
  int n = c->n, i, it, rc = OL_OK;
  double *v = malloc(sizeof(double) * 5 * (size_t)n), h, nv;
  double *xp = v + n, *gp = v + 2 * n, *gm = v + 3 * n, *w = v + 4 * n;
  if (v == NULL) return ol_err_set(e, OL_ENOMEM, "agnc: out of memory");
  for (i = 0, h = 1; i < n; i++) h = fmax(h, fabs(x[i]));
  h *= 1e-5;
  /* a start with every eigen-direction in it, the same on every run */
  for (i = 0; i < n; i++) v[i] = 1 + 0.5 * sin(i + 1.0);
  nv = ol_vec_nrm2(v, n);
  ol_vec_scal(1 / nv, v, n);
  *L = 0;
  for (it = 0; it < 100; it++) {
    for (i = 0; i < n; i++) xp[i] = x[i] + h * v[i];
    if ((rc = ol_problem_eval(c->p, xp, NULL, gp, w, e)) != OL_OK) break;
    for (i = 0; i < n; i++) xp[i] = x[i] - h * v[i];
    if ((rc = ol_problem_eval(c->p, xp, NULL, gm, w, e)) != OL_OK) break;
    for (i = 0; i < n; i++) v[i] = (gp[i] - gm[i]) / (2 * h);
    nv = ol_vec_nrm2(v, n);
    if (!(nv > 0)) break;
    ol_vec_scal(1 / nv, v, n);
    if (fabs(nv - *L) <= 1e-10 * nv) {
      *L = nv;
      break;
    }
    *L = nv;
  }
  free(v);
  return rc;
}

static int agnc_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  agnc_state *s = st;
  int rc;
  s->r = par[2];
  s->rule = (int)par[3];
  s->L = par[1];
  /* the split applies when h has a concave part (SCAD) */
  s->split = par[4] != 0 && c->p->l1 > 0
             && ol_penalty_of(c->p)->dconcave != NULL;
  if ((s->x = ol_vec_dup(c->x, c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->xmd = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if (par[0] > 0) {
    s->beta = par[0];
    return OL_OK;
  }
  if (!(s->L > 0)) {
    rc = c->p->hess != NULL && c->n <= 1000 ? hess_L(c, c->x, &s->L, e)
                                            : power_L(c, c->x, &s->L, e);
    if (rc != OL_OK) return rc;
    if (!(s->L > 0) || !isfinite(s->L)) s->L = 1;
  }
  /* with the split, Psi = f + Q: grad Q adds its Lipschitz constant */
  if (s->split) s->L += ol_penalty_of(c->p)->lconcave(c->p->pen_a);
  s->beta = 1 / (2 * s->L);
  return OL_OK;
}

static int agnc_step (void *st, ol_ctx *c, ol_err *e)
{
  agnc_state *s = st;
  double k = (double)c->t + 1, alpha = s->r / (k + s->r - 1);
  double beta = s->beta * c->sched, lam;
  double *xag = c->x, *x = s->x, *md = s->xmd, *g = s->g;
  int i, n = c->n, rc;
  lam = s->rule == AG_COMPOSITE ? beta * (k + s->r - 2) / s->r
                                : (1 + alpha / 4) * beta;
  /* (1) x^md_k = (1 - alpha_k) x^ag_{k-1} + alpha_k x_{k-1} */
  for (i = 0; i < n; i++) md[i] = (1 - alpha) * xag[i] + alpha * x[i];
  /* (2) the gradient at x^md_k */
  if ((rc = ol_ctx_grad(c, md, NULL, g, e)) != OL_OK) return rc;
  if (s->split) ol_penalty_concave_grad(c->p, md, n, g);
  /* (3) x_k = prox_{lambda_k h}(x_{k-1} - lambda_k g) */
  if (lam > 0) {
    ol_vec_axpy(-lam, g, x, n);
    agnc_prox(s, c, x, lam);
  }
  /* (4) x^ag_k = prox_{beta_k h}(x^md_k - beta_k g), the run's iterate */
  for (i = 0; i < n; i++) xag[i] = md[i] - beta * g[i];
  agnc_prox(s, c, xag, beta);
  return OL_OK;
}

static void agnc_fini (void *st)
{
  agnc_state *s = st;
  ol_vec_free(s->x);
  ol_vec_free(s->xmd);
  ol_vec_free(s->g);
  s->x = s->xmd = s->g = NULL;
}

const ol_method_type ol_optim_agnc = {
  .name = "agnc",
  .family = OL_OPTIM,
  .doc = "nonconvex accelerated gradient (Ghadimi-Lan AG), prox steps",
  .ref = "Ghadimi & Lan 2016, Math. Program. 156, Algorithms 1-2, "
         "Corollaries 1-2",
  .params = agnc_params,
  .nparams = (int)(sizeof agnc_params / sizeof agnc_params[0]),
  .size = sizeof(agnc_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = agnc_init,
  .step = agnc_step,
  .fini = agnc_fini,
  .probes = OL_MSET_NONE,
};
