/*
** core/optim/muon.c -- Muon: momentum orthogonalised by its polar factor
** (Jordan, Jin, Boza, You, Cesista, Newhouse & Bernstein 2024, "Muon: an
** optimizer for hidden layers in neural networks"; the form of the
** original reference code, also seeds catalog section 1d).
**
**   M_t = mu M_{t-1} + G_t                        (M_0 = 0)
**   O_t = Orth(M_t)            or Orth(G_t + mu M_t) when nesterov = 1
**   W_{t+1} = W_t - lr_t sqrt(max(1, rows / cols)) O_t,  lr_t = lr sched_t
**
** Orth(M) = U V' for M = U S V': approximated by ns_steps of the
** Newton-Schulz quintic (polar = "ns", the default), exact by dgesvd
** (polar = "svd"), or U_r V_r' of the rank-r truncation from a randomized
** range finder (polar = "lowrank", rank r, oversample p, power_iters q;
** B177, arXiv 2605.06884, in the standard form of Halko, Martinsson &
** Tropp 2011; its test vectors come from the run's generator, so a run
** replays); see core/polar.c.  The shape scaling is the one of the
** reference code, sqrt(max(1, rows / cols)) for a rows x cols matrix.
** The momentum is the plain accumulation above (the reference's first
** version, as in the catalog), not the EMA form (1 - mu) G of later code.
** x is the problem's mrows x mcols matrix (row-major); when the problem
** stacks several matrices (mblocks) each is orthogonalised and scaled
** separately.  Probe: ortherr = ||O'O - I||_F (smaller side; root sum of
** squares over stacked matrices) of the last step's factor, 0 before the
** first step.
*/
#include <math.h>

#include "method.h"
#include "metrics.h"
#include "polar.h"

typedef struct muon_state {
  double lr, mu;
  int nesterov, ns_steps, polar;
  ol_polar_how how;     /* polar kind and settings (how.rng: c->rng) */
  int nmat, rows[4], cols;
  ol_polar_bufs b;      /* g (gradient, then direction), momentum m, O_t */
  int have;             /* 1 once a factor has been computed */
} muon_state;

static const ol_param muon_params[] = {
  {"lr", OL_P_REAL, 0.02, 0, INFINITY, "step size (eta)", NULL},
  {"mu", OL_P_REAL, 0.95, 0, 0.9999999999999999,
   "momentum coefficient, in [0, 1)", NULL},
  {"nesterov", OL_P_BOOL, 1, 0, 1,
   "orthogonalise G_t + mu M_t instead of M_t", NULL},
  {"ns_steps", OL_P_INT, 5, 0, 100, "Newton-Schulz steps (polar = ns)",
   NULL},
  OL_POLAR_PARAM,
  OL_POLAR_LOWRANK_PARAMS,
};

static int muon_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  muon_state *s = st;
  s->lr = par[0];
  s->mu = par[1];
  s->nesterov = par[2] != 0;
  s->ns_steps = (int)par[3];
  s->polar = (int)par[4];
  s->cols = c->p->mcols;
  /* (1) the matrices x stacks; a low rank fits each of them */
  s->nmat = ol_polar_mats("muon", c->p, c->n, s->rows, e);
  if (s->nmat == 0) return OL_EINVAL;
  if (ol_polar_how_set(&s->how, "muon", par + 4, s->ns_steps, c->rng,
                       s->nmat, s->rows, s->cols, e) != OL_OK)
    return OL_EINVAL;
  /* (2) arrays and the polar workspace */
  s->b.wsize = ol_polar_how_work(&s->how, s->nmat, s->rows, s->cols);
  if (s->b.wsize == 0)
    return ol_err_set(e, OL_ENUMERIC, "muon: LAPACK workspace query "
                      "failed");
  return ol_polar_bufs_new(&s->b, c->n,
                           ol_polar_ortherr_work(s->nmat, s->rows, s->cols),
                           e);
}

static int muon_step (void *st, ol_ctx *c, ol_err *e)
{
  muon_state *s = st;
  double mu = s->mu, *g = s->b.g, *m = s->b.m;
  int i, n = c->n, rc;
  /* (1) stochastic gradient G_t at W_t */
  if ((rc = ol_ctx_grad(c, c->x, NULL, g, e)) != OL_OK) return rc;
  /* (2) momentum M_t = mu M_{t-1} + G_t; direction into g */
  for (i = 0; i < n; i++) {
    m[i] = mu * m[i] + g[i];
    g[i] = s->nesterov ? g[i] + mu * m[i] : m[i];
  }
  /* (3) O_t = Orth(direction) per matrix; W -= lr sched scale O_t */
  rc = ol_polar_how_update(&s->how, s->nmat, s->rows, s->cols, g, s->b.o,
                           c->x, s->lr * c->sched, s->b.work, s->b.wsize,
                           e);
  if (rc != OL_OK) return rc;
  s->have = 1;
  return OL_OK;
}

static void muon_fini (void *st)
{
  ol_polar_bufs_free(&((muon_state *)st)->b);
}

static double muon_probe (const void *st, int metric, const ol_ctx *c)
{
  const muon_state *s = st;
  (void)c;
  if (metric != OL_MET_ORTHERR || s->b.pwork == NULL) return NAN;
  if (!s->have) return 0;
  return ol_polar_ortherr_parts(s->nmat, s->rows, s->cols, s->b.o,
                                s->b.pwork);
}

const ol_method_type ol_optim_muon = {
  .name = "muon",
  .family = OL_OPTIM,
  .doc =
    "Muon: momentum orthogonalised by its polar factor (Newton-Schulz/SVD)",
  .ref = "Jordan et al. 2024, Muon: an optimizer for hidden layers",
  .params = muon_params,
  .nparams = (int)(sizeof muon_params / sizeof muon_params[0]),
  .size = sizeof(muon_state),
  .flags = OL_M_NEEDMAT,
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = muon_init,
  .step = muon_step,
  .fini = muon_fini,
  .probe = muon_probe,
  .probes = OL_PROBES_ORTH,
};
