/*
** core/optim/adago.c -- AdaGO: Muon's orthogonalised momentum with an
** AdaGrad-norm step size (Zhang, Liu & Schaeffer 2025, "AdaGrad meets
** Muon: adaptive stepsizes for orthogonal updates", Algorithm 1; seeds
** catalog B167).
**
**   M_t = mu M_{t-1} + (1 - mu) G_t                   (M_0 = 0)
**   v_t^2 = v_{t-1}^2 + min(||G_t||_F^2, gamma^2)      (v_0 given, > 0)
**   alpha_t = max(eps, lr min(||G_t||_F, gamma) / v_t)
**   W_t = W_{t-1} - sched_t alpha_t sqrt(max(1, rows / cols)) Orth(M_t)
**
** Form implemented: the seed's abstract gives the idea (a norm-based
** AdaGrad stepsize, "a single additional scalar variable, the accumulated
** squared gradient norms", on an orthogonalised direction); the update is
** the published one as written in the catalog: the clamp gamma of the
** gradient norm and the floor eps of the step.  Orth and its options
** (Newton-Schulz, SVD or low-rank) and the shape factor sqrt(max(1,
** rows / cols)) (1 for a wide or square matrix) are optim.muon's, from
** core/polar.c.  When x stacks several matrices (mblocks) each has its
** own v_t and alpha_t, as each parameter tensor has its own state in the
** reference implementations.
**
** Probes: lrmin / lrmed / lrmax, the min / median / max over the matrices
** of sched_t alpha_t of the last step (all three equal for one matrix),
** NAN before the first step; ortherr = ||O'O - I||_F of the last factor
** as for muon, 0 before the first step.
*/
#include <math.h>

#include "envelope.h"
#include "method.h"
#include "metrics.h"
#include "polar.h"
#include "vec.h"

typedef struct adago_state {
  double lr, mu, gamma, eps, v0;
  int ns_steps, polar;
  int nmat, rows[4], cols;
  double v2[4];         /* v_t^2 per matrix */
  double alpha[4];      /* sched_t alpha_t of the last step */
  ol_polar_bufs b;      /* g (gradient, then M_t), momentum m, O_t */
  int have;
  ol_polar_how how;     /* polar kind and settings */
} adago_state;

static const ol_param adago_params[] = {
  {"lr", OL_P_REAL, 1, 0, INFINITY, "step size (eta)", NULL},
  {"mu", OL_P_REAL, 0.95, 0, 0.9999999999999999,
   "momentum coefficient (EMA), in [0, 1)", NULL},
  {"gamma", OL_P_REAL, 10, OL_GT0, INFINITY,
   "clamp of the gradient norm in v and alpha", NULL},
  {"eps", OL_P_REAL, 1e-6, 0, INFINITY, "floor of the step alpha_t", NULL},
  {"v0", OL_P_REAL, 1e-2, OL_GT0, OL_FINITE, "initial accumulator v_0",
   NULL},
  {"ns_steps", OL_P_INT, 5, 0, 100, "Newton-Schulz steps (polar = ns)",
   NULL},
  OL_POLAR_PARAM,
  OL_POLAR_LOWRANK_PARAMS,
};

static int adago_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  adago_state *s = st;
  int i;
  s->lr = par[0];
  s->mu = par[1];
  s->gamma = par[2];
  s->eps = par[3];
  s->v0 = par[4];
  s->ns_steps = (int)par[5];
  s->polar = (int)par[6];
  s->cols = c->p->mcols;
  /* (1) the matrices x stacks, v_0^2 for each */
  s->nmat = ol_polar_mats("adago", c->p, c->n, s->rows, e);
  if (s->nmat == 0) return OL_EINVAL;
  if (ol_polar_how_set(&s->how, "adago", par + 6, s->ns_steps, c->rng,
                       s->nmat, s->rows, s->cols, e) != OL_OK)
    return OL_EINVAL;
  for (i = 0; i < s->nmat; i++) s->v2[i] = s->v0 * s->v0;
  /* (2) arrays and the polar workspace */
  s->b.wsize = ol_polar_how_work(&s->how, s->nmat, s->rows, s->cols);
  if (s->b.wsize == 0)
    return ol_err_set(e, OL_ENUMERIC, "adago: dgesvd workspace query "
                      "failed");
  return ol_polar_bufs_new(&s->b, c->n,
                           ol_polar_ortherr_work(s->nmat, s->rows, s->cols),
                           e);
}

static int adago_step (void *st, ol_ctx *c, ol_err *e)
{
  adago_state *s = st;
  double mu = s->mu, *g = s->b.g, *m = s->b.m;
  int i, k, rc, off = 0;
  /* (1) stochastic gradient G_t at W_{t-1} */
  if ((rc = ol_ctx_grad(c, c->x, NULL, g, e)) != OL_OK) return rc;
  for (k = 0; k < s->nmat; k++) {
    int len = s->rows[k] * s->cols;
    double gn = ol_vec_nrm2(g + off, len), gc = gn < s->gamma ? gn : s->gamma;
    double al;
    /* (2) v_t^2 += min(||G||^2, gamma^2); alpha_t */
    s->v2[k] += gc * gc;
    al = s->lr * gc / sqrt(s->v2[k]);
    if (al < s->eps) al = s->eps;
    s->alpha[k] = al * c->sched;
    /* (3) M_t = mu M_{t-1} + (1 - mu) G_t, the direction into g */
    for (i = off; i < off + len; i++)
      g[i] = m[i] = mu * m[i] + (1 - mu) * g[i];
    /* (4) W -= sched alpha scale Orth(M_t), this matrix */
    rc = ol_polar_how_update(&s->how, 1, s->rows + k, s->cols, g + off,
                             s->b.o + off, c->x + off, s->alpha[k],
                             s->b.work, s->b.wsize, e);
    if (rc != OL_OK) return rc;
    off += len;
  }
  s->have = 1;
  return OL_OK;
}

static void adago_fini (void *st)
{
  ol_polar_bufs_free(&((adago_state *)st)->b);
}

static double adago_probe (const void *st, int metric, const ol_ctx *c)
{
  const adago_state *s = st;
  double w[4];
  int k;
  (void)c;
  if (metric == OL_MET_ORTHERR) {
    if (s->b.pwork == NULL) return NAN;
    if (!s->have) return 0;
    return ol_polar_ortherr_parts(s->nmat, s->rows, s->cols, s->b.o,
                                  s->b.pwork);
  }
  if (!s->have) return NAN;
  for (k = 0; k < s->nmat; k++) w[k] = s->alpha[k];
  return ol_envelope(w, s->nmat, metric);
}

const ol_method_type ol_optim_adago = {
  .name = "adago",
  .family = OL_OPTIM,
  .doc = "AdaGO: Muon's orthogonalised momentum with an AdaGrad-norm step size",
  .ref = "Zhang, Liu & Schaeffer 2025, AdaGrad meets Muon, Algorithm 1",
  .params = adago_params,
  .nparams = (int)(sizeof adago_params / sizeof adago_params[0]),
  .size = sizeof(adago_state),
  .flags = OL_M_NEEDMAT,
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = adago_init,
  .step = adago_step,
  .fini = adago_fini,
  .probe = adago_probe,
  .probes = OL_MSET(OL_LR_METRICS, OL_MET_ORTHERR),
};
