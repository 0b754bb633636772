/*
** core/optim/clipsgd.c -- gradient descent with norm clipping (Zhang, He,
** Sra & Jadbabaie 2020, ICLR; Koloskova, Hendrikx & Stich 2023, ICML).
**
**   x_{t+1} = x_t - lr_t min(1, c / ||g_t||) g_t,   lr_t = lr * sched_t
**
** The standard norm-clipping form clip_c(g) = min(1, c/||g||) g used by
** both papers (Zhang et al.'s clipped GD, step min(eta_c, gamma eta_c /
** ||g||), is this with lr = eta_c, c = gamma): the whole gradient is
** rescaled to norm c when it is longer.  With exact gradients the
** clipping level only slows the first steps; with noisy gradients
** clipping biases the fixed point (Koloskova et al. 2023).
*/
#include <math.h>

#include "method.h"
#include "vec.h"

typedef struct clipsgd_state {
  double lr, c;
  double *g;
} clipsgd_state;

static const ol_param clipsgd_params[] = {
  {"lr", OL_P_REAL, 0.1, 0, INFINITY, "step size", NULL},
  {"c", OL_P_REAL, 1, 0, INFINITY, "clipping level (gradient norm)", NULL},
};

static int clipsgd_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  clipsgd_state *s = st;
  s->lr = par[0];
  s->c = par[1];
  s->g = ol_vec_new(c->n, e);
  return s->g == NULL ? OL_ENOMEM : OL_OK;
}

static int clipsgd_step (void *st, ol_ctx *c, ol_err *e)
{
  clipsgd_state *s = st;
  double gn, a;
  int rc;
  /* (1) stochastic gradient at x_t */
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK) return rc;
  /* (2) clipping factor min(1, c / ||g||) */
  gn = ol_vec_nrm2(s->g, c->n);
  a = gn > s->c ? s->c / gn : 1;
  /* (3) move */
  ol_vec_axpy(-s->lr * c->sched * a, s->g, c->x, c->n);
  return OL_OK;
}

static void clipsgd_fini (void *st)
{
  clipsgd_state *s = st;
  ol_vec_free(s->g);
  s->g = NULL;
}

const ol_method_type ol_optim_clipsgd = {
  .name = "clipsgd",
  .family = OL_OPTIM,
  .doc = "clipped SGD: x <- x - lr min(1, c/||g||) g",
  .ref = "Zhang, He, Sra & Jadbabaie 2020; Koloskova, Hendrikx & Stich 2023",
  .params = clipsgd_params,
  .nparams = (int)(sizeof clipsgd_params / sizeof clipsgd_params[0]),
  .size = sizeof(clipsgd_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = clipsgd_init,
  .step = clipsgd_step,
  .fini = clipsgd_fini,
  .probes = OL_MSET_NONE,
};
