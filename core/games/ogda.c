/*
** core/games/ogda.c -- optimistic gradient descent-ascent (Popov 1980, "A
** modification of the Arrow-Hurwicz method for search of saddle points",
** Mat. Zametki 28; Daskalakis, Ilyas, Syrgkanis & Zeng 2018, "Training
** GANs with optimism", ICLR, eq. (OMD)).
**
** With g(z) = minus each player's utility gradient (problem.h), P the
** projection onto the problem's set (identity when unconstrained):
**
**   z_{t+1} = P(z_t - 2 lr g(z_t) + lr g(z_{t-1}))
**
** one oracle call per step, g(z_{-1}) = g(z_0) (the first step is a GDA
** step).  Unconstrained, this is Popov's past extragradient method written
** in its iterates; on a bilinear game it converges linearly for lr <
** 1 / (2 ||M||_2) (Mokhtari, Ozdaglar & Pattathil 2020, Theorem 3).  lr is
** scaled by the run's schedule.  Averaging (uniform) and regret as in
** games/play.h.
*/
#include "play.h"
#include "vec.h"

typedef struct ogda_state {
  ol_play play;     /* first: averaging, regret (play.h) */
  double lr;
  double *g;        /* g(z_t), n */
  double *gp;       /* g(z_{t-1}), n */
} ogda_state;

static const ol_param ogda_params[] = {
  {"lr", OL_P_REAL, 0.1, OL_GT0, OL_FINITE, "step size", NULL},
};

static int ogda_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  ogda_state *s = st;
  int rc;
  s->lr = par[0];
  if ((rc = ol_play_init(&s->play, c, OL_AVG_UNIFORM, "ogda", e)) != OL_OK)
    return rc;
  if ((s->g = ol_vec_new(c->n, e)) == NULL
      || (s->gp = ol_vec_new(c->n, e)) == NULL)
    return OL_ENOMEM;
  return OL_OK;
}

static int ogda_step (void *st, ol_ctx *c, ol_err *e)
{
  ogda_state *s = st;
  double eta = s->lr * c->sched, *x = c->x;
  int rc, i, n = c->n;
  if ((rc = ol_ctx_grad(c, x, NULL, s->g, e)) != OL_OK) return rc;
  ol_play_observe(&s->play, c, x, s->g);
  if (c->t == 0) ol_vec_copy(s->g, s->gp, n);
  /* z <- P(z - lr (2 g_t - g_{t-1})); g_t becomes the previous one */
  for (i = 0; i < n; i++) {
    x[i] -= eta * (2 * s->g[i] - s->gp[i]);
    s->gp[i] = s->g[i];
  }
  ol_ctx_project(c, x);
  return OL_OK;
}

static void ogda_fini (void *st)
{
  ogda_state *s = st;
  ol_play_fini(&s->play);
  ol_vec_free(s->g);
  ol_vec_free(s->gp);
  s->g = s->gp = NULL;
}

const ol_method_type ol_game_ogda = {
  .name = "ogda",
  .family = OL_DYNAMIC,
  .doc = "optimistic gradient descent-ascent (past extragradient)",
  .ref = "Popov 1980; Daskalakis et al. 2018",
  .params = ogda_params,
  .nparams = (int)(sizeof ogda_params / sizeof ogda_params[0]),
  .size = sizeof(ogda_state),
  .flags = OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME),
  .init = ogda_init,
  .step = ogda_step,
  .fini = ogda_fini,
  .probe = ol_play_probe,
  .check = ol_game_check,
  .probes = OL_PROBES_PLAY,
};
