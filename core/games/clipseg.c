/*
** core/games/clipseg.c -- clipped stochastic extragradient, clipped-SEG
** (Gorbunov, Danilova, Dobre, Dvurechensky, Gasnikov & Gidel 2022,
** "Clipped stochastic methods for variational inequalities with
** heavy-tailed noise", NeurIPS, section 2 (clipped-SEG); Sadiev, Danilova,
** Gorbunov, Horvath, Gidel, Dvurechensky, Gasnikov & Richtarik 2023,
** "High-probability bounds for stochastic optimization and variational
** inequalities: the case of unbounded variance", ICML, section 4, the
** seeds catalog's B049).
**
** With F_xi(z) the oracle's noisy g (minus each player's utility gradient
** plus the problem's noise, oracle.h), P the projection onto the
** problem's set (identity when unconstrained, as in both papers) and
** clip(v, l) = min(1, l / ||v||) v:
**
**   z_half <- P(z - lr clip(F_xi1(z), lambda_k))          (extrapolation)
**   z      <- P(z - lr clip(F_xi2(z_half), lambda_k))     (update)
**   lambda_k = lambda exp(-lr mu k / 2),  k = 0, 1, ...
**
** two oracle calls per step, each operator sample clipped on its own: the
** papers clip both.  mu = 0 is the constant level of the monotone case;
** mu > 0 the geometric decay lambda_k ~ exp(-gamma mu (1 + k/2)) of their
** quasi-strongly monotone theorems, the constant factor (R / (c gamma
** ln(K / beta)) there, with the distance R to the solution and the
** confidence beta) left to lambda.  Left open here: the papers' equal
** steps gamma_1 = gamma_2 = gamma (one lr) and mini-batch m_k = 1 (one
** noise draw per sample, optlab's noise model).  The equation numbers of
** the two papers were not checked against a copy of their text.
**
** lambda = inf never clips: every step is then game.eg's, bit for bit
** (the same oracle calls in the same order, the same arithmetic).  Under
** noise with a finite alpha-th moment only (noise = {kind = "student", nu
** in (1, 2]}), SEG's final distance has a power-law tail (its (1 -
** delta)-quantile grows like delta^(-1/nu)); clipping bounds each move by
** lr lambda and gives quantiles that grow like log(1/delta) (M12; tests/c/
** t_clipvi.c, scripts/clipped_vi.lua).  lr is scaled by the run's
** schedule.  Averaging (uniform) and regret as in games/play.h.
*/
#include "clipvi.h"
#include "play.h"
#include "vec.h"

typedef struct clipseg_state {
  ol_play play;     /* first: averaging, regret (play.h) */
  double lr, lambda, mu;
  long k;           /* steps taken: the schedule's index */
  double *g;        /* oracle output, n */
  double *zh;       /* the extrapolated point, n */
} clipseg_state;

static const ol_param clipseg_params[] = {
  {"lr", OL_P_REAL, 0.1, OL_GT0, OL_FINITE, "step size gamma of both half "
   "steps", NULL},
  OL_CLIPVI_PARAMS("game.eg"),
};

static int clipseg_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  clipseg_state *s = st;
  int rc;
  s->lr = par[0];
  s->lambda = par[1];
  s->mu = par[2];
  s->k = 0;
  if ((rc = ol_play_init(&s->play, c, OL_AVG_UNIFORM, "clipseg", e))
      != OL_OK)
    return rc;
  if ((s->g = ol_vec_new(c->n, e)) == NULL
      || (s->zh = ol_vec_new(c->n, e)) == NULL)
    return OL_ENOMEM;
  return OL_OK;
}

static int clipseg_step (void *st, ol_ctx *c, ol_err *e)
{
  clipseg_state *s = st;
  double eta = s->lr * c->sched, *x = c->x, lam;
  int rc, n = c->n;
  /* (1) this step's level (exactly lambda when mu = 0) */
  lam = ol_clipvi_level(s->lambda, s->lr, s->mu, s->k);
  s->k++;
  /* (2) extrapolate from z with the clipped sample at z */
  if ((rc = ol_ctx_grad(c, x, NULL, s->g, e)) != OL_OK) return rc;
  ol_play_observe(&s->play, c, x, s->g);
  ol_vec_copy(x, s->zh, n);
  ol_vec_axpy(-eta * ol_clipvi_factor(s->g, n, lam), s->g, s->zh, n);
  ol_ctx_project(c, s->zh);
  /* (3) update z with the clipped sample at the extrapolated point */
  if ((rc = ol_ctx_grad(c, s->zh, NULL, s->g, e)) != OL_OK) return rc;
  ol_vec_axpy(-eta * ol_clipvi_factor(s->g, n, lam), s->g, x, n);
  ol_ctx_project(c, x);
  return OL_OK;
}

static void clipseg_fini (void *st)
{
  clipseg_state *s = st;
  ol_play_fini(&s->play);
  ol_vec_free(s->g);
  ol_vec_free(s->zh);
  s->g = s->zh = NULL;
}

const ol_method_type ol_game_clipseg = {
  .name = "clipseg",
  .family = OL_DYNAMIC,
  .doc = "clipped stochastic extragradient: both operator samples clipped "
         "to norm lambda, for heavy-tailed noise",
  .ref = "Gorbunov et al. 2022; Sadiev et al. 2023",
  .params = clipseg_params,
  .nparams = (int)(sizeof clipseg_params / sizeof clipseg_params[0]),
  .size = sizeof(clipseg_state),
  .flags = OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME),
  .init = clipseg_init,
  .step = clipseg_step,
  .fini = clipseg_fini,
  .probe = ol_play_probe,
  .check = ol_game_check,
  .probes = OL_PROBES_PLAY,
};
