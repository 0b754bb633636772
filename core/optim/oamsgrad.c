/*
** core/optim/oamsgrad.c -- Optimistic AMSGrad (Wang, Li, Karimi & Li
** 2021, ACML, "An optimistic acceleration of AMSGrad for nonconvex
** optimization", arXiv 1903.01435; seeds catalog B011), with the next
** gradient predicted by the last one or by RMPE (Scieur, d'Aspremont &
** Bach 2016, NeurIPS, "Regularized nonlinear acceleration", Algorithm 1).
**
**   g_t = grad f(w_t)
**   theta_t = beta1 theta_{t-1} + (1 - beta1) g_t
**   v_t = beta2 v_{t-1} + (1 - beta2) g_t^2
**   vhat_t = max(vhat_{t-1}, v_t)
**   w_{t+1/2} = Pi[w_{t-1/2} - lr_t theta_t / (sqrt(vhat_t) + eps)]
**   w_{t+1} = Pi[w_{t+1/2} - lr_t h_{t+1} / (sqrt(vhat_t) + eps)]
**   h_{t+1} = beta1 theta_{t-1} + (1 - beta1) m_{t+1},   lr_t = lr sched_t
**
** w_{1/2} = w_1 = x0, theta_0 = v_0 = vhat_0 = 0; the run's x is w_t, the
** point where the gradient is taken; the state keeps the half-step
** sequence w_{t-1/2}.  The first line of the move is AMSGrad's step
** (core/optim/amsgrad.c) on the half-step sequence; the second is the
** optimistic correction, the step AMSGrad would take with the predicted
** next first moment h_{t+1}; m_{t+1} is the prediction (the hint) of the
** next gradient g_{t+1}.  eps (not in the paper) guards vhat = 0.  Pi is
** the Euclidean projection onto the problem's set (none: Pi = I); on a box
** it equals the paper's projection in the norm weighted by sqrt(vhat)
** (both clip each coordinate), on other sets it is not that one.
**
** What is whose.  The seed's abstract gives only the idea: "prior
** knowledge about the sequence of consecutive mini-batch gradients",
** making "the gradients sequentially predictable".  The two-line update
** above is the form optlab has run since the method was added; the
** paper's algorithm box could not be read here (only its abstract and
** introduction were reachable), so it is not checked against it, nor is
** h_{t+1}'s theta_{t-1}.  The hint m_{t+1}:
**   predictor = "last" (the default): m_{t+1} = g_t, the basic optimistic
**     choice (the next gradient is predicted to be the last one).
**   predictor = "rmpe": RMPE, Scieur et al.'s Algorithm 1 applied to the
**     last r + 1 gradients, oldest first x_0 = g_{t-r}, ..., x_r = g_t:
**       U = [x_1 - x_0, ..., x_r - x_{r-1}]            (n x r)
**       (U'U + lambda I) z = 1,   c = z / sum(z)
**       m_{t+1} = sum_{i=0}^{r-1} c_i x_i
**     as in their box (input x_0..x_{k+1}, output sum_{i=0}^{k} c_i x_i,
**     k = r - 1: the newest x_r enters through U only) and their reference
**     code (RegularizedNonlinearAcceleration.m: x(:, 1:end-1) * c).  lambda
**     is absolute, as in the box; that code divides U'U by its 2-norm
**     first (a relative lambda), which is not done here.  RMPE estimates
**     the fixed point a sequence converges to, or oscillates about
**     (exactly, for lambda -> 0, when the sequence follows x_{k+1} = A x_k
**     + b, A - I invertible, and r - 1 is at least the degree of the
**     minimal polynomial of A at x_0 - x*), not the sequence's next
**     element: a rotation or a period is not continued.  While fewer than
**     r + 1 gradients have been seen, and at a step where the solve fails
**     (dposv's info > 0 on a U'U + lambda I that rounding left indefinite)
**     or sum(z) is 0 or not finite, m_{t+1} = g_t.  The solve is LAPACK's
**     dposv on the r x r system (symmetric positive definite for lambda >
**     0); a step costs O(n r^2 + r^3) more than "last".
** The authors' public code (optimistic-amsgrad, Optadam_torch.py) does
** not extrapolate gradients: it takes the gradient, on the current
** minibatch, at an RMPE extrapolation (span 5, lambda 1e-3, the defaults
** here) of the last iterates, a second gradient per step; that code also
** takes v from (m_{t+1} - g_t)^2 and bias-corrects.  Neither is done
** here: "rmpe" is RMPE on gradients, as the catalog and the abstract read
** it, one gradient per step.
**
** Results (r.hint, r.hinterr, r.coef): the hint m_{T+1} made at the last
** step; the sum over t = 2..T of ||g_t - m_t||^2, the hint error that
** optimistic regret bounds depend on; RMPE's c of the last step (1 x r,
** empty before the first RMPE prediction and after a fallback).
**
** Probe (lrmin / lrmed / lrmax): min / median / max over coordinates of
** lr_t / (sqrt(vhat_i) + eps), the multiplier of theta_t and h_{t+1} in
** the last step; NAN before the first step.
*/
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "adamfam.h"
#include "envelope.h"
#include "method.h"
#include "metrics.h"

enum { PRED_LAST, PRED_RMPE };

typedef struct oamsgrad_state {
  double lr, beta1, beta2, eps;
  double *g, *th, *v, *vhat;
  double *half;     /* w_{t-1/2} */
  double *w;        /* probe scratch (multipliers, reordered); in a step,
                       this step's multipliers lr_t / (sqrt(vhat) + eps) */
  double *h;        /* h_{t+1} of this step */
  double *m;        /* the hint m_{t+1} made at the last step */
  double hinterr;   /* sum_{t >= 2} ||g_t - m_t||^2 */
  int started;      /* half holds w_{1/2} = x0 */
  int n;
  /* predictor = "rmpe" (all NULL for "last") */
  int pred, r;
  double lambda;
  long ngrad;       /* gradients pushed into hist */
  double *hist;     /* the last r + 1 gradients, ring of (r + 1) rows of n;
                       g number k (from 0) in row k mod (r + 1) */
  double *U;        /* n x r differences, column-major */
  double *M;        /* r x r: U'U + lambda I, then its Cholesky factor */
  double *z;        /* r: the right-hand side 1, then z */
  double *coef;     /* r: c of the last prediction */
  int ncoef;        /* r after an RMPE prediction, 0 before / on fallback */
} oamsgrad_state;

static const ol_param oamsgrad_params[] = {
  OL_ADAM_P_LR,
  OL_ADAM_P_BETA1,
  OL_ADAM_P_BETA2,
  OL_ADAM_P_EPS,
  {"predictor", OL_P_ENUM, 0, 0, 1,
   "hint m_{t+1} of the next gradient: the last gradient, or RMPE of the "
   "last r + 1 gradients", "last|rmpe"},
  {"r", OL_P_INT, 5, 1, 50, "RMPE span: differences of the last r + 1 "
   "gradients, in [1, 50]", NULL},
  {"lambda", OL_P_REAL, 1e-3, OL_GT0, OL_FINITE,
   "RMPE ridge on U'U (unscaled), > 0", NULL},
};

static int oamsgrad_init (void *st, const double *par, ol_ctx *c,
                          ol_err *e)
{
  oamsgrad_state *s = st;
  int n = c->n, rc;
  s->lr = par[0];
  s->beta1 = par[1];
  s->beta2 = par[2];
  s->eps = par[3];
  s->pred = (int)par[4];
  s->r = (int)par[5];
  s->lambda = par[6];
  s->n = n;
  rc = ol_adam_vecs_new(n, e, &s->g, &s->th, &s->v, &s->vhat, &s->half,
                        &s->w, &s->h, &s->m, (double **)NULL);
  if (rc != OL_OK || s->pred != PRED_RMPE) return rc;
  {
    size_t r = (size_t)s->r;
    s->hist = malloc((r + 1) * (size_t)n * sizeof *s->hist);
    s->U = malloc(r * (size_t)n * sizeof *s->U);
    s->M = malloc(r * r * sizeof *s->M);
    s->z = malloc(r * sizeof *s->z);
    s->coef = malloc(r * sizeof *s->coef);
  }
  if (s->hist == NULL || s->U == NULL || s->M == NULL || s->z == NULL ||
      s->coef == NULL)
    return ol_err_set(e, OL_ENOMEM, "oamsgrad: out of memory for the RMPE "
                      "history of %d gradients of %d", s->r + 1, n);
  return OL_OK;
}

/* The RMPE hint from the last r + 1 gradients in hist into s->m (the
** header's formula); 0, leaving s->m alone, when the solve fails or sum(z)
** is 0 or not finite. */
static int rmpe_hint (oamsgrad_state *s, int n)
{
  int r = s->r, k = r + 1, i, j, l;
  long base = s->ngrad - k;            /* g number of x_0 */
  double *U = s->U, *M = s->M, *z = s->z, sz = 0;
  for (j = 0; j < r; j++) {
    const double *a = s->hist + (size_t)((base + j) % k) * (size_t)n;
    const double *b = s->hist + (size_t)((base + j + 1) % k) * (size_t)n;
    double *u = U + (size_t)j * (size_t)n;
    for (i = 0; i < n; i++) u[i] = b[i] - a[i];
  }
  for (j = 0; j < r; j++) {
    const double *uj = U + (size_t)j * (size_t)n;
    for (l = j; l < r; l++) {
      const double *ul = U + (size_t)l * (size_t)n;
      double d = 0;
      for (i = 0; i < n; i++) d += uj[i] * ul[i];
      M[j + l * r] = M[l + j * r] = d;
    }
    M[j + j * r] += s->lambda;
    z[j] = 1;
  }
  if (LAPACKE_dposv_work(LAPACK_COL_MAJOR, 'L', r, 1, M, r, z, r) != 0)
    return 0;
  for (j = 0; j < r; j++) sz += z[j];
  if (!(isfinite(sz) && sz != 0)) return 0;
  for (j = 0; j < r; j++) s->coef[j] = z[j] / sz;
  for (i = 0; i < n; i++) s->m[i] = 0;
  for (j = 0; j < r; j++) {
    const double *x = s->hist + (size_t)((base + j) % k) * (size_t)n;
    double cj = s->coef[j];
    for (i = 0; i < n; i++) s->m[i] += cj * x[i];
  }
  return 1;
}

/* m_{t+1} from g_t (in s->g): the last gradient, or RMPE once r + 1
** gradients are in (the last gradient before and on a failed solve). */
static void predict (oamsgrad_state *s, int n)
{
  const double *g = s->g;
  int i;
  if (s->pred == PRED_RMPE) {
    int k = s->r + 1;
    memcpy(s->hist + (size_t)(s->ngrad % k) * (size_t)n, g,
           (size_t)n * sizeof *g);
    s->ngrad++;
    s->ncoef = 0;
    if (s->ngrad >= k && rmpe_hint(s, n)) {
      s->ncoef = s->r;
      return;
    }
  }
  for (i = 0; i < n; i++) s->m[i] = g[i];
}

static int oamsgrad_step (void *st, ol_ctx *c, ol_err *e)
{
  oamsgrad_state *s = st;
  double b1 = s->beta1, b2 = s->beta2, eps = s->eps, a = s->lr * c->sched;
  double *x = c->x, *g = s->g, *th = s->th, *v = s->v, *vh = s->vhat;
  double *half = s->half, *d = s->w, *h = s->h, *m = s->m;
  int i, n = c->n, rc;
  /* (1) stochastic gradient g_t at w_t */
  if ((rc = ol_ctx_grad(c, x, NULL, g, e)) != OL_OK) return rc;
  if (!s->started) {
    for (i = 0; i < n; i++) half[i] = x[i];
    s->started = 1;
  }
  else {
    /* the error of the hint m_t made at the last step */
    double q = 0;
    for (i = 0; i < n; i++) q += (g[i] - m[i]) * (g[i] - m[i]);
    s->hinterr += q;
  }
  /* (2) the hint m_{t+1} */
  predict(s, n);
  for (i = 0; i < n; i++) {
    double gi = g[i], thp = th[i];
    /* (3) moments (theta_{t-1} kept for h) and running max of v */
    th[i] = b1 * thp + (1 - b1) * gi;
    v[i] = b2 * v[i] + (1 - b2) * gi * gi;
    if (v[i] > vh[i]) vh[i] = v[i];
    d[i] = a / (sqrt(vh[i]) + eps);
    /* (4) AMSGrad step on the half-step sequence */
    half[i] -= d[i] * th[i];
    h[i] = b1 * thp + (1 - b1) * m[i];
  }
  ol_ctx_project(c, half);
  /* (5) the optimistic correction along h_{t+1} (the run projects x) */
  for (i = 0; i < n; i++) x[i] = half[i] - d[i] * h[i];
  return OL_OK;
}

static void oamsgrad_fini (void *st)
{
  oamsgrad_state *s = st;
  ol_adam_vecs_free(&s->g, &s->th, &s->v, &s->vhat, &s->half, &s->w,
                    &s->h, &s->m, (double **)NULL);
  free(s->hist);
  free(s->U);
  free(s->M);
  free(s->z);
  free(s->coef);
  s->hist = s->U = s->M = s->z = s->coef = NULL;
}

static double oamsgrad_probe (const void *st, int metric, const ol_ctx *c)
{
  const oamsgrad_state *s = st;
  double a = s->lr * c->sched;
  int i;
  if (c->t < 1 || s->w == NULL) return NAN;
  for (i = 0; i < c->n; i++) s->w[i] = a / (sqrt(s->vhat[i]) + s->eps);
  return ol_envelope(s->w, c->n, metric);
}

/* hint (1 x n), hinterr (1 x 1), coef (1 x r, or 1 x 0): see the header;
** none before the first step. */
static int oamsgrad_result (const void *st, const char *name,
                            const double **v, int *rows, int *cols)
{
  const oamsgrad_state *s = st;
  if (!s->started) return 0;
  *rows = 1;
  if (strcmp(name, "hint") == 0) {
    *v = s->m;
    *cols = s->n;
  }
  else if (strcmp(name, "hinterr") == 0) {
    *v = &s->hinterr;
    *cols = 1;
  }
  else if (strcmp(name, "coef") == 0 && s->pred == PRED_RMPE) {
    *v = s->coef;
    *cols = s->ncoef;
  }
  else return 0;
  return 1;
}

const ol_method_type ol_optim_oamsgrad = {
  .name = "oamsgrad",
  .family = OL_OPTIM,
  .doc = "Optimistic AMSGrad: AMSGrad plus a step along the predicted moment",
  .ref = "Wang, Li, Karimi & Li 2021 (OPT-AMSGrad); RMPE hint: Scieur, "
         "d'Aspremont & Bach 2016, Algorithm 1",
  .params = oamsgrad_params,
  .nparams = (int)(sizeof oamsgrad_params / sizeof oamsgrad_params[0]),
  .size = sizeof(oamsgrad_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = oamsgrad_init,
  .step = oamsgrad_step,
  .fini = oamsgrad_fini,
  .probe = oamsgrad_probe,
  .probes = OL_PROBES_LR,
  .result = oamsgrad_result,
};
