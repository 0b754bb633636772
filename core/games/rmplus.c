/*
** core/games/rmplus.c -- regret matching+ in self-play (Tammelin 2014,
** arXiv:1407.5042; Farina, Kroer & Sandholm 2021, AAAI, Algorithm 1).
**
** On a product of simplices, for every block (player) i with utility
** u_i = -g_i, g = grad from ol_ctx_grad at the strategy played x_t:
**
**   r_i = u_i - <u_i, x_i> 1               (instantaneous regret)
**   Q_i <- max(0, Q_i + r_i)               (Q_i starts at 0)
**   x_i <- Q_i / sum(Q_i)                  (uniform if the sum is 0)
**
** Simultaneous (alternate = 0): all blocks use the utilities at x_t, one
** oracle call.  Alternating (alternate = 1): block i uses the utilities at
** the profile where blocks < i already moved (player 2 responds to player
** 1's new strategy), one oracle call per block.  The first step plays the
** given x0.  The average (games/play.h) is of the strategies played,
** x_0 .. x_t after step t, with weights avg = uniform, linear (t + 1) or
** quadratic ((t + 1)^2); the regret metric counts the profiles x_t.
** Games, and objectives over a product of simplices (u = -grad f).
*/
#include <math.h>

#include "play.h"
#include "vec.h"

typedef struct rmplus_state {
  ol_play play;     /* first: averaging, regret (play.h) */
  int alternate;
  double *Q;        /* cumulative clipped regrets, n */
  double *g;        /* oracle output, n */
  double *z;        /* alternating: the profile being updated, n */
} rmplus_state;

static const ol_param rmplus_params[] = {
  {"alternate", OL_P_BOOL, 0, 0, 1,
   "false: simultaneous updates; true: alternating (player 2 sees "
   "player 1's new strategy)", NULL},
  {"avg", OL_P_ENUM, OL_AVG_UNIFORM, 0, 0, OL_AVG_DOC, OL_AVG_CHOICES},
};

static int rmplus_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  rmplus_state *s = st;
  int rc;
  s->alternate = par[0] != 0;
  if (c->p->set.kind != OL_SET_SIMPLEX)
    return ol_err_set(e, OL_EINVAL,
                      "rmplus needs a product of simplices (a game)");
  if ((rc = ol_play_init(&s->play, c, (int)par[1], "rmplus", e)) != OL_OK)
    return rc;
  if ((s->Q = ol_vec_new(c->n, e)) == NULL
      || (s->g = ol_vec_new(c->n, e)) == NULL
      || (s->z = ol_vec_new(c->n, e)) == NULL)
    return OL_ENOMEM;
  return OL_OK;
}

/* Regret-matching+ update of one block: x (k entries) from utilities
** u = -g at the profile, accumulating into Q. */
static void rmplus_block (double *Q, const double *g, double *x, int k)
{
  double ux = 0, sum = 0;
  int a;
  /* (1) expected utility <u, x> */
  for (a = 0; a < k; a++) ux -= g[a] * x[a];
  /* (2) Q <- max(0, Q + u - <u, x>) */
  for (a = 0; a < k; a++) {
    double q = Q[a] - g[a] - ux;
    Q[a] = q > 0 ? q : 0;
    sum += Q[a];
  }
  /* (3) next strategy proportional to Q */
  for (a = 0; a < k; a++) x[a] = sum > 0 ? Q[a] / sum : 1.0 / k;
}

static int rmplus_step (void *st, ol_ctx *c, ol_err *e)
{
  rmplus_state *s = st;
  const ol_play *pl = &s->play;
  double *x = c->x;
  int b, off, rc, n = c->n;
  /* (1) the utilities at x_t; x_t joins the average and the regrets */
  if ((rc = ol_ctx_grad(c, x, NULL, s->g, e)) != OL_OK) return rc;
  ol_play_observe(&s->play, c, x, s->g);
  /* (2) regret-matching+ updates, block by block */
  if (!s->alternate) {
    for (b = 0, off = 0; b < pl->nb; off += pl->blk[b++])
      rmplus_block(s->Q + off, s->g + off, x + off, pl->blk[b]);
    return OL_OK;
  }
  ol_vec_copy(x, s->z, n);
  for (b = 0, off = 0; b < pl->nb; off += pl->blk[b++]) {
    if (b > 0 && (rc = ol_ctx_grad(c, s->z, NULL, s->g, e)) != OL_OK)
      return rc;
    rmplus_block(s->Q + off, s->g + off, s->z + off, pl->blk[b]);
  }
  ol_vec_copy(s->z, x, n);
  return OL_OK;
}

static void rmplus_fini (void *st)
{
  rmplus_state *s = st;
  ol_play_fini(&s->play);
  ol_vec_free(s->Q);
  ol_vec_free(s->g);
  ol_vec_free(s->z);
  s->Q = s->g = s->z = NULL;
}

const ol_method_type ol_game_rmplus = {
  .name = "rmplus",
  .family = OL_DYNAMIC,
  .doc = "regret matching+ self-play on a product of simplices",
  .ref = "Tammelin 2014; Farina, Kroer & Sandholm 2021",
  .params = rmplus_params,
  .nparams = (int)(sizeof rmplus_params / sizeof rmplus_params[0]),
  .size = sizeof(rmplus_state),
  .flags = OL_M_NEEDSET | OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME) | OL_KIND(OL_OBJECTIVE),
  .init = rmplus_init,
  .step = rmplus_step,
  .fini = rmplus_fini,
  .probe = ol_play_probe,
  .check = ol_game_check,
  .probes = OL_PROBES_PLAY,
};
