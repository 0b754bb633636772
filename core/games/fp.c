/*
** core/games/fp.c -- fictitious play, simultaneous (Brown 1951,
** "Iterative solution of games by fictitious play", in Activity Analysis
** of Production and Allocation; Robinson 1951 for its convergence in
** zero-sum games).
**
** Each player plays a pure best response to the empirical distribution of
** the other's past play, x_0 .. x_t included:
**
**   x_i,t+1 = e_a,  a = argmax_a sum_{s <= t} u_i,s,a   (first on ties)
**
** where u_i,s = -g_i(x_s) is player i's utility vector against the others'
** play at s (linear in it, so the sum is t + 1 times the utility against
** their empirical average); one oracle call per step.  c->xavg is the
** empirical distribution (uniform average of x_0 .. x_t); it converges to
** an equilibrium in zero-sum games (Robinson 1951) and in potential games
** (Monderer & Shapley 1996), but cycles in Shapley's game (Shapley 1964).
** The regret metric as in games/play.h.
*/
#include "play.h"
#include "vec.h"

typedef struct fp_state {
  ol_play play;     /* first: averaging, regret, cumulative utilities */
  double *g;        /* oracle output, n */
} fp_state;

static int fp_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  fp_state *s = st;
  int rc;
  (void)par;
  if (c->p->set.kind != OL_SET_SIMPLEX)
    return ol_err_set(e, OL_EINVAL, "fp needs a product of simplices");
  if ((rc = ol_play_init(&s->play, c, OL_AVG_UNIFORM, "fp", e)) != OL_OK)
    return rc;
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

static int fp_step (void *st, ol_ctx *c, ol_err *e)
{
  fp_state *s = st;
  const ol_play *pl = &s->play;
  int b, off, rc;
  /* (1) utilities at the profile played: into U (play.h) */
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK) return rc;
  ol_play_observe(&s->play, c, c->x, s->g);
  /* (2) each player's best response to the cumulative utilities */
  for (b = 0, off = 0; b < pl->nb; off += pl->blk[b++]) {
    int a = ol_play_argmax(pl->U + off, pl->blk[b]);
    ol_vec_set(c->x + off, 0, pl->blk[b]);
    c->x[off + a] = 1;
  }
  return OL_OK;
}

static void fp_fini (void *st)
{
  fp_state *s = st;
  ol_play_fini(&s->play);
  ol_vec_free(s->g);
  s->g = NULL;
}

const ol_method_type ol_game_fp = {
  .name = "fp",
  .family = OL_DYNAMIC,
  .doc = "fictitious play: best response to the opponents' empirical play",
  .ref = "Brown 1951",
  .params = NULL,
  .nparams = 0,
  .size = sizeof(fp_state),
  .flags = OL_M_NEEDSET | OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME),
  .init = fp_init,
  .step = fp_step,
  .fini = fp_fini,
  .probe = ol_play_probe,
  .check = ol_game_check,
  .probes = OL_PROBES_PLAY,
};
