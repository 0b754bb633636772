/*
** core/games/pg.c -- softmax policy gradient in self-play: every player
** ascends the exact gradient of its own expected payoff in the logits of
** a softmax policy (the policy gradient theorem: Williams 1992,
** "Simple statistical gradient-following algorithms for connectionist
** reinforcement learning", Machine Learning 8; Sutton, McAllester, Singh &
** Mansour 2000, NeurIPS; the softmax parameterization of Agarwal, Kakade,
** Lee & Mahajan 2021, "On the theory of policy gradient methods:
** optimality, approximation, and distribution shift", JMLR 22, section 4,
** its gradient for a one-state problem; in games: independent policy
** gradient, Daskalakis, Foster & Golowich 2020, "Independent policy
** gradient methods for competitive reinforcement learning", NeurIPS).
**
** On a product of simplices, every block (player) i keeps logits theta_i
** and plays x_i = softmax(theta_i); with u_i = -g_i at the profile played
** (one oracle call, simultaneous) its expected payoff is <x_i, u_i> and
**
**   d/dtheta_i,a <x_i, u_i> = x_i,a (u_i,a - <x_i, u_i>)
**   theta_i <- theta_i + lr x_i o (u_i - <x_i, u_i> 1)
**
** theta starts at log x0 (a zero entry of x0 stays zero) and is kept
** shifted to maximum 0 per block (softmax does not see the shift).  lr is
** scaled by the run's schedule.  Against mwu.c's x_i o exp(lr u_i) the
** step is damped by x_i: an action that is rarely played learns slowly.
**
** What is known and what tests/c/t_pg.c measures:
**   - in a potential game (identical interest included) every player's
**     gradient is the gradient of the potential x'Phi y in its own logits,
**     so the simultaneous step is gradient ascent on the potential: for a
**     small lr it never decreases, and from an interior start it ends at a
**     stationary point, generically a pure Nash equilibrium; slowly, the
**     gap ~ 1/t near a pure point (at lr = 0.1, after 5 10^4 steps from
**     x0: coordination at (1, 1), prisoners at (defect, defect), climbing
**     at (b, b), not the optimum (a, a), each with NashConv < 1e-3);
**   - in a zero-sum game the last iterate does not converge, as in
**     gradient play: on rps at lr = 0.1 it spirals out towards the
**     boundary (NashConv 0.6 at x0, never below 0.35, 1.88 of 2 at 10^5
**     steps), while the uniform average approaches the equilibrium
**     (NashConv 0.011 at T = 10^5).
** Averaging (uniform) and the regret metric as in games/play.h.
*/
#include <math.h>

#include "play.h"
#include "vec.h"

typedef struct pg_state {
  ol_play play;     /* first: averaging, regret (play.h) */
  double lr;
  double *theta;    /* logits, n, shifted to maximum 0 per block */
  double *g;        /* oracle output, n */
  double *d;        /* the policy gradient, n */
} pg_state;

static const ol_param pg_params[] = {
  {"lr", OL_P_REAL, 0.1, OL_GT0, OL_FINITE, "step size of the gradient "
   "ascent on each player's logits", NULL},
};

static int pg_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  pg_state *s = st;
  int rc, i;
  s->lr = par[0];
  if (c->p->set.kind != OL_SET_SIMPLEX)
    return ol_err_set(e, OL_EINVAL, "pg needs a product of simplices");
  if ((rc = ol_play_init(&s->play, c, OL_AVG_UNIFORM, "pg", e)) != OL_OK)
    return rc;
  if ((s->theta = ol_vec_new(c->n, e)) == NULL
      || (s->g = ol_vec_new(c->n, e)) == NULL
      || (s->d = ol_vec_new(c->n, e)) == NULL)
    return OL_ENOMEM;
  for (i = 0; i < c->n; i++) s->theta[i] = log(c->x[i]);
  return OL_OK;
}

static int pg_step (void *st, ol_ctx *c, ol_err *e)
{
  pg_state *s = st;
  const ol_play *pl = &s->play;
  int b, a, off, rc;
  /* (1) utilities u = -g at the profile played */
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK) return rc;
  ol_play_observe(&s->play, c, c->x, s->g);
  for (b = 0, off = 0; b < pl->nb; off += pl->blk[b++]) {
    int k = pl->blk[b];
    const double *x = c->x + off, *g = s->g + off;
    double *d = s->d + off, ux = 0;
    /* (2) d = x o (u - <x, u>) */
    for (a = 0; a < k; a++) ux -= x[a] * g[a];
    for (a = 0; a < k; a++) d[a] = x[a] * (-g[a] - ux);
    /* (3) theta += lr d, x = softmax(theta) */
    ol_mwu_block(s->theta + off, d, s->lr * c->sched, c->x + off, k);
  }
  return OL_OK;
}

static void pg_fini (void *st)
{
  pg_state *s = st;
  ol_play_fini(&s->play);
  ol_vec_free(s->theta);
  ol_vec_free(s->g);
  ol_vec_free(s->d);
  s->theta = s->g = s->d = NULL;
}

const ol_method_type ol_game_pg = {
  .name = "pg",
  .family = OL_DYNAMIC,
  .doc = "softmax policy gradient self-play on a product of simplices",
  .ref = "Williams 1992; Sutton et al. 2000; Agarwal et al. 2021",
  .params = pg_params,
  .nparams = (int)(sizeof pg_params / sizeof pg_params[0]),
  .size = sizeof(pg_state),
  .flags = OL_M_NEEDSET | OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME),
  .init = pg_init,
  .step = pg_step,
  .fini = pg_fini,
  .probe = ol_play_probe,
  .check = ol_game_check,
  .probes = OL_PROBES_PLAY,
};
