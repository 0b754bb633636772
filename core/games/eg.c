/*
** core/games/eg.c -- the extragradient method (Korpelevich 1976, "The
** extragradient method for finding saddle points and other problems",
** Ekonomika i Matematicheskie Metody 12, eq. (3)).
**
** With g(z) = minus each player's utility gradient (problem.h) and P the
** projection onto the problem's set (identity when unconstrained):
**
**   z_half <- P(z - lr g(z))          (extrapolation)
**   z      <- P(z - lr g(z_half))     (update from the same z)
**
** two oracle calls per step.  On a bilinear game it converges linearly
** for lr < 1 / ||M||_2 (Mokhtari, Ozdaglar & Pattathil 2020, Theorem 2),
** where simultaneous GDA diverges.  lr is scaled by the run's schedule.
** Averaging (uniform, of the z_t) and regret as in games/play.h.
*/
#include "play.h"
#include "vec.h"

typedef struct eg_state {
  ol_play play;     /* first: averaging, regret (play.h) */
  double lr;
  double *g;        /* oracle output, n */
  double *zh;       /* the extrapolated point, n */
} eg_state;

static const ol_param eg_params[] = {
  {"lr", OL_P_REAL, 0.1, OL_GT0, OL_FINITE, "step size of both half "
   "steps", NULL},
};

static int eg_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  eg_state *s = st;
  int rc;
  s->lr = par[0];
  if ((rc = ol_play_init(&s->play, c, OL_AVG_UNIFORM, "eg", e)) != OL_OK)
    return rc;
  if ((s->g = ol_vec_new(c->n, e)) == NULL
      || (s->zh = ol_vec_new(c->n, e)) == NULL)
    return OL_ENOMEM;
  return OL_OK;
}

static int eg_step (void *st, ol_ctx *c, ol_err *e)
{
  eg_state *s = st;
  double eta = s->lr * c->sched, *x = c->x;
  int rc, n = c->n;
  /* (1) extrapolate from z */
  if ((rc = ol_ctx_grad(c, x, NULL, s->g, e)) != OL_OK) return rc;
  ol_play_observe(&s->play, c, x, s->g);
  ol_vec_copy(x, s->zh, n);
  ol_vec_axpy(-eta, s->g, s->zh, n);
  ol_ctx_project(c, s->zh);
  /* (2) update z with the gradient at the extrapolated point */
  if ((rc = ol_ctx_grad(c, s->zh, NULL, s->g, e)) != OL_OK) return rc;
  ol_vec_axpy(-eta, s->g, x, n);
  ol_ctx_project(c, x);
  return OL_OK;
}

static void eg_fini (void *st)
{
  eg_state *s = st;
  ol_play_fini(&s->play);
  ol_vec_free(s->g);
  ol_vec_free(s->zh);
  s->g = s->zh = NULL;
}

const ol_method_type ol_game_eg = {
  .name = "eg",
  .family = OL_DYNAMIC,
  .doc = "extragradient: extrapolate, then step from the same point",
  .ref = "Korpelevich 1976",
  .params = eg_params,
  .nparams = (int)(sizeof eg_params / sizeof eg_params[0]),
  .size = sizeof(eg_state),
  .flags = OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME),
  .init = eg_init,
  .step = eg_step,
  .fini = eg_fini,
  .probe = ol_play_probe,
  .check = ol_game_check,
  .probes = OL_PROBES_PLAY,
};
