/*
** core/games/clipsgda.c -- clipped stochastic gradient descent-ascent,
** clipped-SGDA (Gorbunov, Danilova, Dobre, Dvurechensky, Gasnikov & Gidel
** 2022, "Clipped stochastic methods for variational inequalities with
** heavy-tailed noise", NeurIPS, section 2 (clipped-SGDA); Sadiev,
** Danilova, Gorbunov, Horvath, Gidel, Dvurechensky, Gasnikov & Richtarik
** 2023, "High-probability bounds for stochastic optimization and
** variational inequalities: the case of unbounded variance", ICML,
** section 4, the seeds catalog's B049).
**
** With F_xi(z) the oracle's noisy g (oracle.h), P the projection onto the
** problem's set (identity when unconstrained) and clip(v, l) = min(1, l /
** ||v||) v:
**
**   z <- P(z - lr clip(F_xi(z), lambda_k)),   lambda_k = lambda exp(-lr mu
**                                             k / 2),  k = 0, 1, ...
**
** one oracle call per step, both players at once (simultaneous, as in the
** papers).  mu = 0: the constant level; mu > 0: the geometric decay of
** their quasi-strongly monotone / star-cocoercive theorems, its constant
** factor left to lambda.  Left open here: mini-batch m_k = 1 (one noise
** draw per sample); the papers' equation numbers were not checked against
** a copy of their text.  lambda = inf never clips: every step is then
** game.gda{alternating = false}'s, bit for bit.  SGDA needs a strongly
** monotone (or cocoercive) operator: on a bilinear game it spirals out
** with or without clipping (gda.c).  lr is scaled by the run's schedule.
** Averaging (uniform) and regret as in games/play.h.
*/
#include "clipvi.h"
#include "play.h"
#include "vec.h"

typedef struct clipsgda_state {
  ol_play play;     /* first: averaging, regret (play.h) */
  double lr, lambda, mu;
  long k;           /* steps taken: the schedule's index */
  double *g;        /* oracle output, n */
} clipsgda_state;

static const ol_param clipsgda_params[] = {
  {"lr", OL_P_REAL, 0.1, OL_GT0, OL_FINITE, "step size gamma", NULL},
  OL_CLIPVI_PARAMS("game.gda"),
};

static int clipsgda_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  clipsgda_state *s = st;
  int rc;
  s->lr = par[0];
  s->lambda = par[1];
  s->mu = par[2];
  s->k = 0;
  if ((rc = ol_play_init(&s->play, c, OL_AVG_UNIFORM, "clipsgda", e))
      != OL_OK)
    return rc;
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

static int clipsgda_step (void *st, ol_ctx *c, ol_err *e)
{
  clipsgda_state *s = st;
  double eta = s->lr * c->sched, *x = c->x, lam;
  int rc, n = c->n;
  /* (1) this step's level (exactly lambda when mu = 0) */
  lam = ol_clipvi_level(s->lambda, s->lr, s->mu, s->k);
  s->k++;
  /* (2) the sample at the profile played, clipped to norm lam */
  if ((rc = ol_ctx_grad(c, x, NULL, s->g, e)) != OL_OK) return rc;
  ol_play_observe(&s->play, c, x, s->g);
  /* (3) both players at once */
  ol_vec_axpy(-eta * ol_clipvi_factor(s->g, n, lam), s->g, x, n);
  ol_ctx_project(c, x);
  return OL_OK;
}

static void clipsgda_fini (void *st)
{
  clipsgda_state *s = st;
  ol_play_fini(&s->play);
  ol_vec_free(s->g);
  s->g = NULL;
}

const ol_method_type ol_game_clipsgda = {
  .name = "clipsgda",
  .family = OL_DYNAMIC,
  .doc = "clipped stochastic gradient descent-ascent: the operator sample "
         "clipped to norm lambda, for heavy-tailed noise",
  .ref = "Gorbunov et al. 2022; Sadiev et al. 2023",
  .params = clipsgda_params,
  .nparams = (int)(sizeof clipsgda_params / sizeof clipsgda_params[0]),
  .size = sizeof(clipsgda_state),
  .flags = OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME),
  .init = clipsgda_init,
  .step = clipsgda_step,
  .fini = clipsgda_fini,
  .probe = ol_play_probe,
  .check = ol_game_check,
  .probes = OL_PROBES_PLAY,
};
