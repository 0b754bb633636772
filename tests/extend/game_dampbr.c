/*
** core/games/dampbr.c -- damped best response in self-play: the Euler
** step of the best-response dynamics x' = BR(x) - x (Gilboa & Matsui
** 1991, "Social stability and equilibrium", Econometrica 59; Hofbauer &
** Sorin 2006 for their convergence in zero-sum games).
**
** On a product of simplices, every block (player) i, u_i = -g_i at the
** profile played x_t, one oracle call (simultaneous):
**
**   x_i <- (1 - a_t) x_i + a_t e_b,  b = argmax_b u_i,b (the first on ties)
**
** with a_t = min(1, a sched_t).  a = 1 is simultaneous pure best response;
** with a fixed a < 1 the iterates stay within O(a) of an equilibrium of a
** zero-sum game once near it, and their average closer.  Averaging and
** the regret metric as in games/play.h (uniform).  (An example of the
** plug-in contract: tests/extend/ adds it to a copy of the tree.)
*/
#include <math.h>

#include "play.h"
#include "vec.h"

typedef struct dampbr_state {
  ol_play play;     /* first: averaging, regret (play.h) */
  double a;
  double *g;        /* oracle output, n */
} dampbr_state;

static const ol_param dampbr_params[] = {
  {"a", OL_P_REAL, 0.05, OL_GT0, 1, "damping: the weight of the best "
   "response in each step", NULL},
};

static int dampbr_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  dampbr_state *s = st;
  int rc;
  s->a = par[0];
  if (c->p->set.kind != OL_SET_SIMPLEX)
    return ol_err_set(e, OL_EINVAL, "dampbr needs a product of simplices");
  if ((rc = ol_play_init(&s->play, c, OL_AVG_UNIFORM, "dampbr", e)) != OL_OK)
    return rc;
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

static int dampbr_step (void *st, ol_ctx *c, ol_err *e)
{
  dampbr_state *s = st;
  const ol_play *pl = &s->play;
  double a = fmin(1, s->a * c->sched);
  int b, off, k, rc;
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK) return rc;
  ol_play_observe(&s->play, c, c->x, s->g);
  for (b = 0, off = 0; b < pl->nb; off += pl->blk[b++]) {
    /* best response to u = -g: the least g */
    int best = 0;
    for (k = 1; k < pl->blk[b]; k++)
      if (s->g[off + k] < s->g[off + best]) best = k;
    for (k = 0; k < pl->blk[b]; k++) c->x[off + k] *= 1 - a;
    c->x[off + best] += a;
  }
  return OL_OK;
}

static void dampbr_fini (void *st)
{
  dampbr_state *s = st;
  ol_play_fini(&s->play);
  ol_vec_free(s->g);
  s->g = NULL;
}

const ol_method_type ol_game_dampbr = {
  .name = "dampbr",
  .family = OL_DYNAMIC,
  .doc = "damped best response: x <- (1 - a) x + a BR(x), each player",
  .ref = "Gilboa & Matsui 1991",
  .params = dampbr_params,
  .nparams = (int)(sizeof dampbr_params / sizeof dampbr_params[0]),
  .size = sizeof(dampbr_state),
  .flags = OL_M_NEEDSET | OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME),
  .init = dampbr_init,
  .step = dampbr_step,
  .fini = dampbr_fini,
  .probe = ol_play_probe,
  .check = ol_game_check,
  .probes = OL_PROBES_PLAY,
};
