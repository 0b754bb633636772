/*
** core/optim/ista.c -- ISTA, the proximal gradient method (Beck &
** Teboulle 2009, SIAM J. Imaging Sci. 2(1), eq. (1.5) and (3.1) with a
** constant step).
**
**   x_{t+1} = prox_{a l1 ||.||_1}( x_t - a grad f(x_t) ),  a = lr sched_t
**
** for F = f + l1 ||x||_1 (p->l1); the prox is soft thresholding at a l1
** followed by the projection onto the problem's set (ol_ctx_prox).  With
** l1 = 0 and no set this is plain gradient descent; with a set, projected
** gradient.  lr <= 1/L gives F(x_t) - F* <= L ||x_0 - x*||^2 / (2t)
** (their Theorem 3.1).
*/
#include <math.h>

#include "method.h"
#include "vec.h"

typedef struct ista_state {
  double lr;
  double *g;
} ista_state;

static const ol_param ista_params[] = {
  {"lr", OL_P_REAL, 0.1, 0, INFINITY, "step size (1/L in the paper)", NULL},
};

static int ista_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  ista_state *s = st;
  s->lr = par[0];
  s->g = ol_vec_new(c->n, e);
  return s->g == NULL ? OL_ENOMEM : OL_OK;
}

static int ista_step (void *st, ol_ctx *c, ol_err *e)
{
  ista_state *s = st;
  double a = s->lr * c->sched;
  int rc;
  /* (1) gradient of the smooth part at x_t */
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK) return rc;
  /* (2) forward step; (3) backward (proximal) step */
  ol_vec_axpy(-a, s->g, c->x, c->n);
  ol_ctx_prox(c, c->x, a);
  return OL_OK;
}

static void ista_fini (void *st)
{
  ista_state *s = st;
  ol_vec_free(s->g);
  s->g = NULL;
}

const ol_method_type ol_optim_ista = {
  .name = "ista",
  .family = OL_OPTIM,
  .doc = "ISTA proximal gradient: x <- prox_{lr l1}(x - lr grad f(x))",
  .ref = "Beck & Teboulle 2009, SIAM J. Imaging Sci., eq. (1.5)/(3.1)",
  .params = ista_params,
  .nparams = (int)(sizeof ista_params / sizeof ista_params[0]),
  .size = sizeof(ista_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = ista_init,
  .step = ista_step,
  .fini = ista_fini,
  .probes = OL_MSET_NONE,
};
