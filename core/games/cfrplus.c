/*
** core/games/cfrplus.c -- CFR+ (Tammelin 2014, "Solving Large Imperfect
** Information Games Using CFR+", arXiv:1407.5042; Tammelin, Burch,
** Johanson & Bowling 2015, "Solving Heads-up Limit Texas Hold'em", IJCAI,
** sec. 3) in self-play on a game tree (problems/kuhn.h: Kuhn poker, or
** a user's game, problems/efg.h).
**
** CFR (cfr.c, Zinkevich et al. 2007) with three changes: regret
** matching+ (cumulative regrets clipped at 0 after each update),
** alternating updates (player 2's walk sees player 1's new strategy),
** and linear averaging (weight t + 1 for the t-th strategy, 0-based).
** Per step, for player i = 1 then 2, one walk at the current profile:
**
**   Q(I,a)  <- max(0, Q(I,a) + cfv(I,a) - sum_b sigma(I,b) cfv(I,b))
**   S(I,a)  += w_t pi_i(I) sigma(I,a),   w_t = t + 1 (avg = linear)
**   sigma(I,a) = Q(I,a) / sum_b Q(I,b)   (1/2 each when all are 0)
**
** for the information sets I of player i.  c->xavg is the average
** behavioural strategy S(I,1) / sum_a S(I,a).  Refuses matrix games
** (method.c: OL_M_TREE).
*/
#include <string.h>

#include "play.h"
#include "problems/kuhn.h"

typedef ol_cfr cfrplus_state;

static const ol_param cfrplus_params[] = {
  {"alternate", OL_P_BOOL, 1, 0, 1,
   "true: alternating updates (Tammelin 2014); false: simultaneous",
   NULL},
  {"avg", OL_P_ENUM, OL_AVG_LINEAR, 0, 2, OL_AVG_DOC, OL_AVG_CHOICES},
};

static int cfrplus_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  return ol_cfr_init(st, par, 1, c, "cfrplus", e);
}

const ol_method_type ol_game_cfrplus = {
  .name = "cfrplus",
  .family = OL_DYNAMIC,
  .doc = "CFR+ on a game tree (Kuhn poker): regret matching+, alternating "
    "updates, linear averaging",
  .ref = "Tammelin 2014; Tammelin, Burch, Johanson & Bowling 2015",
  .params = cfrplus_params,
  .nparams = (int)(sizeof cfrplus_params / sizeof cfrplus_params[0]),
  .size = sizeof(cfrplus_state),
  .flags = OL_M_OWNAVG | OL_M_TREE,
  .kinds = OL_KIND(OL_GAME),
  .init = cfrplus_init,
  .step = ol_cfr_step,
  .fini = ol_cfr_fini,
  .check = ol_game_check_tree,
  .probes = OL_MSET_NONE,
};
