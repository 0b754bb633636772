/*
** core/games/br.c -- best-response dynamics, alternating (Cournot 1838;
** in potential games: Monderer & Shapley 1996, "Potential games", Games
** and Economic Behavior 14, Lemma 2.5, the finite improvement property).
**
** In each step the players in turn (player 1, then player 2 against
** player 1's new strategy) switch to a pure best response when it is a
** strict improvement:
**
**   a = argmax_a u_i,a (first on ties);  x_i <- e_a  if
**   u_i,a > <u_i, x_i> + 1e-12 (1 + |u_i,a|)
**
** with u_i = -g_i at the current profile (one oracle call, two when
** player 1 moved).  In a game with an exact potential Phi every switch
** raises x'Phi y by the switching player's gain, so the potential never
** decreases and the dynamics stop, in finitely many steps, at a pure Nash
** equilibrium: a step where neither player switches ends the run
** ("converged").  The regret metric (of the profiles at the start of each
** step) and the uniform average as in games/play.h.
*/
#include <math.h>

#include "play.h"
#include "vec.h"

typedef struct br_state {
  ol_play play;     /* first: averaging, regret (play.h) */
  double *g;        /* oracle output, n */
} br_state;

static int br_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  br_state *s = st;
  int rc;
  (void)par;
  if (c->p->set.kind != OL_SET_SIMPLEX)
    return ol_err_set(e, OL_EINVAL, "br needs a product of simplices");
  if ((rc = ol_play_init(&s->play, c, OL_AVG_UNIFORM, "br", e)) != OL_OK)
    return rc;
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

/* Player b's strict best-response switch; 1 when it switched. */
static int br_switch (const double *g, double *x, int k)
{
  double ux = 0, best;
  int a, i;
  /* u = -g: the best action minimises g */
  for (a = 0, i = 1; i < k; i++)
    if (g[i] < g[a]) a = i;
  for (i = 0; i < k; i++) ux -= g[i] * x[i];
  best = -g[a];
  if (!(best > ux + 1e-12 * (1 + fabs(best)))) return 0;
  ol_vec_set(x, 0, k);
  x[a] = 1;
  return 1;
}

static int br_step (void *st, ol_ctx *c, ol_err *e)
{
  br_state *s = st;
  const ol_play *pl = &s->play;
  int b, off, rc, moved = 0, fresh = 1;
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK) return rc;
  ol_play_observe(&s->play, c, c->x, s->g);
  for (b = 0, off = 0; b < pl->nb; off += pl->blk[b++]) {
    /* the utilities at the profile as the earlier players left it */
    if (!fresh && (rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK)
      return rc;
    fresh = 1;
    if (br_switch(s->g + off, c->x + off, pl->blk[b])) {
      moved = 1;
      fresh = 0;
    }
  }
  if (!moved)
    ol_ctx_converged(c, "pure best responses: no player gains by "
                     "switching (a Nash equilibrium)");
  return OL_OK;
}

static void br_fini (void *st)
{
  br_state *s = st;
  ol_play_fini(&s->play);
  ol_vec_free(s->g);
  s->g = NULL;
}

const ol_method_type ol_game_br = {
  .name = "br",
  .family = OL_DYNAMIC,
  .doc =
    "best-response dynamics: players switch in turn to a better pure reply",
  .ref = "Cournot 1838; Monderer & Shapley 1996",
  .params = NULL,
  .nparams = 0,
  .size = sizeof(br_state),
  .flags = OL_M_NEEDSET | OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME),
  .init = br_init,
  .step = br_step,
  .fini = br_fini,
  .probe = ol_play_probe,
  .check = ol_game_check,
  .probes = OL_PROBES_PLAY,
};
