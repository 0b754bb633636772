/*
** core/games/gda.c -- projected gradient descent-ascent, simultaneous or
** alternating (Arrow, Hurwicz & Uzawa 1958; alternating: Gidel et al.
** 2019, "Negative momentum for improved game dynamics", AISTATS, eq. (4)).
**
** With g(z) = minus each player's utility gradient (problem.h), P the
** projection onto the problem's set (identity when unconstrained):
**
**   simultaneous   z <- P(z - lr g(z))                       one call
**   alternating    x <- P(x - lr g_x(x, y));
**                  y <- P(y - lr g_y(x_new, y))              two calls
**
** On the unconstrained bilinear game (problem.bilinear{simplex=false})
** the simultaneous iterates spiral out: ||z_t - z*|| grows by
** sqrt(1 + lr^2 s^2) per step along each singular value s of M; the
** alternating ones stay bounded and cycle (Bailey, Gidel & Piliouras
** 2020).  lr is scaled by the run's schedule.  Averaging (uniform) and
** the regret metric as in games/play.h.
*/
#include "play.h"
#include "vec.h"

typedef struct gda_state {
  ol_play play;     /* first: averaging, regret (play.h) */
  double lr;
  int alternating;
  double *g;        /* oracle output, n */
} gda_state;

static const ol_param gda_params[] = {
  {"lr", OL_P_REAL, 0.1, OL_GT0, OL_FINITE, "step size", NULL},
  {"alternating", OL_P_BOOL, 0, 0, 1, "false: both players step at once; "
   "true: player 2 steps against player 1's new strategy", NULL},
};

static int gda_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  gda_state *s = st;
  int rc;
  s->lr = par[0];
  s->alternating = par[1] != 0;
  if ((rc = ol_play_init(&s->play, c, OL_AVG_UNIFORM, "gda", e)) != OL_OK)
    return rc;
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

static int gda_step (void *st, ol_ctx *c, ol_err *e)
{
  gda_state *s = st;
  double eta = s->lr * c->sched, *x = c->x;
  int rc, m = s->play.blk[0], n = c->n;
  /* (1) g at the profile played */
  if ((rc = ol_ctx_grad(c, x, NULL, s->g, e)) != OL_OK) return rc;
  ol_play_observe(&s->play, c, x, s->g);
  if (!s->alternating) {
    /* (2) both players at once */
    ol_vec_axpy(-eta, s->g, x, n);
    ol_ctx_project(c, x);
    return OL_OK;
  }
  /* (3) player 1, then player 2 against its new strategy */
  ol_vec_axpy(-eta, s->g, x, m);
  ol_ctx_project(c, x);
  if ((rc = ol_ctx_grad(c, x, NULL, s->g, e)) != OL_OK) return rc;
  ol_vec_axpy(-eta, s->g + m, x + m, n - m);
  ol_ctx_project(c, x);
  return OL_OK;
}

static void gda_fini (void *st)
{
  gda_state *s = st;
  ol_play_fini(&s->play);
  ol_vec_free(s->g);
  s->g = NULL;
}

const ol_method_type ol_game_gda = {
  .name = "gda",
  .family = OL_DYNAMIC,
  .doc = "projected gradient descent-ascent, simultaneous or alternating",
  .ref = "Arrow, Hurwicz & Uzawa 1958; Gidel et al. 2019",
  .params = gda_params,
  .nparams = (int)(sizeof gda_params / sizeof gda_params[0]),
  .size = sizeof(gda_state),
  .flags = OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME),
  .init = gda_init,
  .step = gda_step,
  .fini = gda_fini,
  .probe = ol_play_probe,
  .check = ol_game_check,
  .probes = OL_PROBES_PLAY,
};
