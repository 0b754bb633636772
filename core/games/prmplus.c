/*
** core/games/prmplus.c -- predictive regret matching+ in self-play
** (Farina, Kroer & Sandholm 2021, "Faster game solving via predictive
** Blackwell approachability: connecting regret matching and mirror
** descent", AAAI, Algorithm 2 with the prediction m_t = r_{t-1}).
**
** On a product of simplices, every block (player) i, one oracle call per
** step (simultaneous), u_i = -g_i at the profile played x_t:
**
**   r_i = u_i - <u_i, x_i> 1                 (instantaneous regret)
**   Q_i <- [Q_i + r_i]^+                      (as RM+)
**   x_i <- [Q_i + r_i]^+ / sum [Q_i + r_i]^+  (the next play adds the
**                                              prediction r_i; uniform if 0)
**
** The first step plays x0.  Averaging (avg) and the regret metric as in
** games/play.h.
*/
#include "play.h"
#include "vec.h"

typedef ol_regret prmplus_state;   /* R: the clipped regrets Q above */

static const ol_param prmplus_params[] = {
  {"avg", OL_P_ENUM, OL_AVG_UNIFORM, 0, 0, OL_AVG_DOC, OL_AVG_CHOICES},
};

static int prmplus_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  return ol_regret_init(st, c, (int)par[0], "prmplus", e);
}

static int prmplus_step (void *st, ol_ctx *c, ol_err *e)
{
  prmplus_state *s = st;
  const ol_play *pl = &s->play;
  double *x = c->x;
  int b, a, off, rc;
  if ((rc = ol_ctx_grad(c, x, NULL, s->g, e)) != OL_OK) return rc;
  ol_play_observe(&s->play, c, x, s->g);
  for (b = 0, off = 0; b < pl->nb; off += pl->blk[b++]) {
    int k = pl->blk[b];
    double *Q = s->R + off, *g = s->g + off, *xb = x + off, ux = 0, sum = 0;
    /* (1) r = u - <u, x> */
    for (a = 0; a < k; a++) ux -= g[a] * xb[a];
    /* (2) Q <- [Q + r]^+; the next play is [Q + r]^+ with the new Q */
    for (a = 0; a < k; a++) {
      double r = -g[a] - ux, q = Q[a] + r, z;
      Q[a] = q > 0 ? q : 0;
      z = Q[a] + r;
      xb[a] = z > 0 ? z : 0;
      sum += xb[a];
    }
    /* (3) normalise */
    for (a = 0; a < k; a++) xb[a] = sum > 0 ? xb[a] / sum : 1.0 / k;
  }
  return OL_OK;
}

const ol_method_type ol_game_prmplus = {
  .name = "prmplus",
  .family = OL_DYNAMIC,
  .doc = "predictive regret matching+ self-play on a product of simplices",
  .ref = "Farina, Kroer & Sandholm 2021",
  .params = prmplus_params,
  .nparams = (int)(sizeof prmplus_params / sizeof prmplus_params[0]),
  .size = sizeof(prmplus_state),
  .flags = OL_M_NEEDSET | OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME),
  .init = prmplus_init,
  .step = prmplus_step,
  .fini = ol_regret_fini,
  .probe = ol_play_probe,
  .check = ol_game_check,
  .probes = OL_PROBES_PLAY,
};
