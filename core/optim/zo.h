/*
** core/optim/zo.h -- what the random-direction zeroth-order optimizers
** (gsmooth, twopoint, es) share besides their estimators, which each
** keeps in its own file: the state (step size, smoothing scale, directions
** per step, three n-vectors), its init from the parameter triple (lr,
** scale, m) and its fini.  Both go straight into the method tables.
*/
#ifndef OL_ZO_H
#define OL_ZO_H

#include "method.h"
#include "vec.h"

/* lr the step size; mu the smoothing scale (gsmooth's and twopoint's mu,
** es's sigma); m the directions per step; u the direction, xp the trial
** point, g the estimate (n doubles each, owned). */
typedef struct ol_zo_state {
  double lr, mu;
  int m;
  double *u, *xp, *g;
} ol_zo_state;

/* init from par = (lr, scale, m) and zero n-vectors u, xp, g.  OL_OK, or
** OL_ENOMEM with e set (the vectors made so far stay for fini). */
static inline int ol_zo_init (void *st, const double *par, ol_ctx *c,
                              ol_err *e)
{
  ol_zo_state *s = st;
  s->lr = par[0];
  s->mu = par[1];
  s->m = (int)par[2];
  if ((s->u = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->xp = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

/* Frees the vectors of a (possibly partly) initialised state. */
static inline void ol_zo_fini (void *st)
{
  ol_zo_state *s = st;
  ol_vec_free(s->u);
  ol_vec_free(s->xp);
  ol_vec_free(s->g);
  s->u = s->xp = s->g = NULL;
}

#endif
