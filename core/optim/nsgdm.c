/*
** core/optim/nsgdm.c -- normalized SGD with momentum (Cutkosky & Mehta
** 2020, ICML, Algorithm 1).
**
**   m_t = beta m_{t-1} + (1 - beta) g_t,   m_0 = 0
**   x_{t+1} = x_t - lr_t m_t / ||m_t||,     lr_t = lr * sched_t
**
** Every step has length lr_t whatever the gradient's scale; the step is
** skipped when m_t = 0 (a stationary start).
*/
#include <math.h>

#include "method.h"
#include "vec.h"

typedef struct nsgdm_state {
  double lr, beta;
  double *g, *m;
} nsgdm_state;

static const ol_param nsgdm_params[] = {
  {"lr", OL_P_REAL, 0.01, 0, INFINITY, "step length (eta)", NULL},
  {"beta", OL_P_REAL, 0.9, 0, 0.9999999999999999,
   "momentum, in [0, 1)", NULL},
};

static int nsgdm_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  nsgdm_state *s = st;
  s->lr = par[0];
  s->beta = par[1];
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->m = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

static int nsgdm_step (void *st, ol_ctx *c, ol_err *e)
{
  nsgdm_state *s = st;
  double b = s->beta, mn;
  int i, n = c->n, rc;
  /* (1) stochastic gradient at x_t */
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK) return rc;
  /* (2) momentum */
  for (i = 0; i < n; i++) s->m[i] = b * s->m[i] + (1 - b) * s->g[i];
  /* (3) normalized move */
  mn = ol_vec_nrm2(s->m, n);
  if (mn == 0) return OL_OK;
  ol_vec_axpy(-s->lr * c->sched / mn, s->m, c->x, n);
  return OL_OK;
}

static void nsgdm_fini (void *st)
{
  nsgdm_state *s = st;
  ol_vec_free(s->g);
  ol_vec_free(s->m);
  s->g = s->m = NULL;
}

const ol_method_type ol_optim_nsgdm = {
  .name = "nsgdm",
  .family = OL_OPTIM,
  .doc = "normalized SGD with momentum: x <- x - lr m/||m||",
  .ref = "Cutkosky & Mehta 2020, ICML, Algorithm 1",
  .params = nsgdm_params,
  .nparams = (int)(sizeof nsgdm_params / sizeof nsgdm_params[0]),
  .size = sizeof(nsgdm_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = nsgdm_init,
  .step = nsgdm_step,
  .fini = nsgdm_fini,
  .probes = OL_MSET_NONE,
};
