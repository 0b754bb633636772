/*
** core/optim/fista.c -- FISTA with constant step (Beck & Teboulle 2009,
** SIAM J. Imaging Sci. 2(1), Section 4, "FISTA with constant stepsize"),
** optionally with the function-value adaptive restart of O'Donoghue &
** Candes 2015 (Found. Comput. Math. 15, Section 3.2).
**
**   y_1 = x_0, t_1 = 1; for k >= 1, a = lr sched_k:
**   x_k     = prox_{a l1 ||.||_1}( y_k - a grad f(y_k) )
**   t_{k+1} = (1 + sqrt(1 + 4 t_k^2)) / 2
**   y_{k+1} = x_k + ((t_k - 1) / t_{k+1}) (x_k - x_{k-1})
**
** F = f + l1 ||x||_1 (p->l1); the prox is soft thresholding then the
** projection onto the set (ol_ctx_prox).  With l1 = 0 and no set this is
** Nesterov's accelerated gradient.  lr <= 1/L gives F(x_k) - F* <=
** 2 L ||x_0 - x*||^2 / (k + 1)^2 (their Theorem 4.4).  The iterate the
** run sees is x_k.
** restart = 1: when F(x_k) > F(x_{k-1}) set t_{k+1} = 1 and y_{k+1} = x_k
** (momentum dropped); costs one extra function value per step.
*/
#include <math.h>

#include "method.h"
#include "penalty.h"
#include "vec.h"

typedef struct fista_state {
  double lr, tk, Fprev;
  int restart;
  double *g, *y, *xprev;
} fista_state;

static const ol_param fista_params[] = {
  {"lr", OL_P_REAL, 0.1, 0, INFINITY, "step size (1/L in the paper)", NULL},
  {"restart", OL_P_BOOL, 0, 0, 1,
   "function-value restart (O'Donoghue & Candes 2015)", NULL},
};

/* F(x) = f(x) + h(x), h = l1 ||x||_1 or SCAD's sum (core/penalty.h) */
static int fista_F (ol_ctx *c, const double *x, double *F, ol_err *e)
{
  double f;
  int rc;
  if ((rc = ol_ctx_value(c, x, &f, e)) != OL_OK) return rc;
  *F = f + ol_penalty_sum(c->p, x, c->n);
  return OL_OK;
}

static int fista_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  fista_state *s = st;
  s->lr = par[0];
  s->restart = par[1] != 0;
  s->tk = 1;
  s->Fprev = INFINITY;
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->y = ol_vec_dup(c->x, c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->xprev = ol_vec_dup(c->x, c->n, e)) == NULL) return OL_ENOMEM;
  if (s->restart) return fista_F(c, c->x, &s->Fprev, e);
  return OL_OK;
}

static int fista_step (void *st, ol_ctx *c, ol_err *e)
{
  fista_state *s = st;
  double a = s->lr * c->sched, tn, w, F;
  double *x = c->x, *y = s->y, *xp = s->xprev;
  int i, n = c->n, rc;
  /* (1) gradient of the smooth part at y_k */
  if ((rc = ol_ctx_grad(c, y, NULL, s->g, e)) != OL_OK) return rc;
  /* (2) x_k = prox(y_k - a g), keeping x_{k-1} */
  ol_vec_copy(x, xp, n);
  for (i = 0; i < n; i++) x[i] = y[i] - a * s->g[i];
  ol_ctx_prox(c, x, a);
  /* (3) restart test on F */
  if (s->restart) {
    if ((rc = fista_F(c, x, &F, e)) != OL_OK) return rc;
    if (F > s->Fprev) s->tk = 1;
    s->Fprev = F;
  }
  /* (4) t_{k+1} and the extrapolated point y_{k+1} */
  tn = (1 + sqrt(1 + 4 * s->tk * s->tk)) / 2;
  w = (s->tk - 1) / tn;
  for (i = 0; i < n; i++) y[i] = x[i] + w * (x[i] - xp[i]);
  s->tk = tn;
  return OL_OK;
}

static void fista_fini (void *st)
{
  fista_state *s = st;
  ol_vec_free(s->g);
  ol_vec_free(s->y);
  ol_vec_free(s->xprev);
  s->g = s->y = s->xprev = NULL;
}

const ol_method_type ol_optim_fista = {
  .name = "fista",
  .family = OL_OPTIM,
  .doc = "FISTA: accelerated proximal gradient, optional function restart",
  .ref = "Beck & Teboulle 2009, SIAM J. Imaging Sci., FISTA constant step",
  .params = fista_params,
  .nparams = (int)(sizeof fista_params / sizeof fista_params[0]),
  .size = sizeof(fista_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = fista_init,
  .step = fista_step,
  .fini = fista_fini,
  .probes = OL_MSET_NONE,
};
