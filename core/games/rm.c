/*
** core/games/rm.c -- regret matching in self-play (Hart & Mas-Colell
** 2000, "A simple adaptive procedure leading to correlated equilibrium",
** Econometrica 68(5); the unconditional, external-regret form of their
** section 3, as in Zinkevich et al. 2007, CFR, eq. (8)).
**
** On a product of simplices, every block (player) i with utility
** u_i = -g_i at the profile played x_t (one oracle call, simultaneous):
**
**   R_i <- R_i + u_i - <u_i, x_i> 1        (cumulative regrets, from 0)
**   x_i <- [R_i]^+ / sum [R_i]^+            (uniform if no positive part)
**
** RM+ (rmplus.c) clips R at 0 after every step instead.  In a two-player
** zero-sum game the average strategies have NashConv O(max|A| sqrt(k) /
** sqrt(T)) (Blackwell approachability).  Averaging (avg) and the regret
** metric as in games/play.h.
*/
#include "play.h"
#include "vec.h"

typedef ol_regret rm_state;   /* R: cumulative regrets */

static const ol_param rm_params[] = {
  {"avg", OL_P_ENUM, OL_AVG_UNIFORM, 0, 0, OL_AVG_DOC, OL_AVG_CHOICES},
};

static int rm_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  return ol_regret_init(st, c, (int)par[0], "rm", e);
}

static int rm_step (void *st, ol_ctx *c, ol_err *e)
{
  rm_state *s = st;
  const ol_play *pl = &s->play;
  double *x = c->x;
  int b, a, off, rc;
  /* (1) utilities at the profile played */
  if ((rc = ol_ctx_grad(c, x, NULL, s->g, e)) != OL_OK) return rc;
  ol_play_observe(&s->play, c, x, s->g);
  for (b = 0, off = 0; b < pl->nb; off += pl->blk[b++]) {
    int k = pl->blk[b];
    double *R = s->R + off, *g = s->g + off, *xb = x + off, ux = 0, sum = 0;
    /* (2) regrets R += u - <u, x> */
    for (a = 0; a < k; a++) ux -= g[a] * xb[a];
    for (a = 0; a < k; a++) {
      R[a] -= g[a] + ux;
      if (R[a] > 0) sum += R[a];
    }
    /* (3) play proportionally to the positive regrets */
    for (a = 0; a < k; a++)
      xb[a] = sum > 0 ? (R[a] > 0 ? R[a] / sum : 0) : 1.0 / k;
  }
  return OL_OK;
}

const ol_method_type ol_game_rm = {
  .name = "rm",
  .family = OL_DYNAMIC,
  .doc = "regret matching self-play on a product of simplices",
  .ref = "Hart & Mas-Colell 2000",
  .params = rm_params,
  .nparams = (int)(sizeof rm_params / sizeof rm_params[0]),
  .size = sizeof(rm_state),
  .flags = OL_M_NEEDSET | OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME),
  .init = rm_init,
  .step = rm_step,
  .fini = ol_regret_fini,
  .probe = ol_play_probe,
  .check = ol_game_check,
  .probes = OL_PROBES_PLAY,
};
