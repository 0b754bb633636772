/*
** core/optim/pgd.c -- projected gradient descent (Goldstein 1964;
** Levitin & Polyak 1966).
**
**   x_{t+1} = P_C( x_t - lr_t grad f(x_t) ),   lr_t = lr * sched_t
**
** P_C is the Euclidean projection onto the problem's constraint set
** (box or product of simplices), via ol_ctx_project.
*/
#include <math.h>

#include "method.h"
#include "vec.h"

typedef struct pgd_state {
  double lr;
  double *g;
} pgd_state;

static const ol_param pgd_params[] = {
  {"lr", OL_P_REAL, 0.1, 0, INFINITY, "step size", NULL},
};

static int pgd_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  pgd_state *s = st;
  s->lr = par[0];
  s->g = ol_vec_new(c->n, e);
  return s->g == NULL ? OL_ENOMEM : OL_OK;
}

static int pgd_step (void *st, ol_ctx *c, ol_err *e)
{
  pgd_state *s = st;
  int rc;
  /* (1) gradient at x_t */
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK) return rc;
  /* (2) gradient step; (3) projection */
  ol_vec_axpy(-s->lr * c->sched, s->g, c->x, c->n);
  ol_ctx_project(c, c->x);
  return OL_OK;
}

static void pgd_fini (void *st)
{
  pgd_state *s = st;
  ol_vec_free(s->g);
  s->g = NULL;
}

const ol_method_type ol_optim_pgd = {
  .name = "pgd",
  .family = OL_OPTIM,
  .doc = "projected gradient: x <- P_C(x - lr grad f(x))",
  .ref = "Goldstein 1964; Levitin & Polyak 1966",
  .params = pgd_params,
  .nparams = (int)(sizeof pgd_params / sizeof pgd_params[0]),
  .size = sizeof(pgd_state),
  .flags = OL_M_NEEDSET,
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = pgd_init,
  .step = pgd_step,
  .fini = pgd_fini,
  .probes = OL_MSET_NONE,
};
