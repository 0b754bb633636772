/*
** core/games/cfr.c -- counterfactual regret minimisation (Zinkevich,
** Johanson, Bowling & Piccione 2007, "Regret Minimization in Games with
** Incomplete Information", NIPS; eq. (4)-(8)) in self-play on a game
** tree (problems/kuhn.h: Kuhn poker).
**
** x_I = sigma_t(I, 1), the probability of bet / call at information set
** I.  Each step, one walk of the tree at sigma_t gives the counterfactual
** values cfv(I, a) (eq. (7), unnormalised by the opponent's total reach)
** and each player's own reach pi_i(I); then for every I:
**
**   R(I,a)  += cfv(I,a) - sum_b sigma_t(I,b) cfv(I,b)   (eq. (7))
**   S(I,a)  += w_t pi_i(I) sigma_t(I,a)                 (eq. (4))
**   sigma_{t+1}(I,a) = R+(I,a) / sum_b R+(I,b)          (eq. (8);
**              1/2 each when no regret is positive)
**
** Simultaneous updates (both players' regrets from the walk at sigma_t)
** by default, as in the paper; alternate = true updates player 2 against
** player 1's new strategy (a second walk).  c->xavg is the average
** strategy S(I,1) / sum_a S(I,a) (reach-weighted, the behavioural form of
** the average mixed strategy; its exploitability goes to 0 like
** O(1/sqrt(T)), Theorem 4), weights w_t = 1 (avg = uniform), t + 1 or
** (t + 1)^2.  Refuses matrix games (method.c: OL_M_TREE).
*/
#include <string.h>

#include "play.h"
#include "problems/kuhn.h"

typedef ol_cfr cfr_state;

static const ol_param cfr_params[] = {
  {"alternate", OL_P_BOOL, 0, 0, 1,
   "false: simultaneous updates (Zinkevich et al. 2007); true: player 2 "
   "responds to player 1's new strategy", NULL},
  {"avg", OL_P_ENUM, OL_AVG_UNIFORM, 0, 2, OL_AVG_DOC, OL_AVG_CHOICES},
};

static int cfr_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  return ol_cfr_init(st, par, 0, c, "cfr", e);
}

const ol_method_type ol_game_cfr = {
  .name = "cfr",
  .family = OL_DYNAMIC,
  .doc = "counterfactual regret minimisation on a game tree (Kuhn poker)",
  .ref = "Zinkevich, Johanson, Bowling & Piccione 2007, eq. (4)-(8)",
  .params = cfr_params,
  .nparams = (int)(sizeof cfr_params / sizeof cfr_params[0]),
  .size = sizeof(cfr_state),
  .flags = OL_M_OWNAVG | OL_M_TREE,
  .kinds = OL_KIND(OL_GAME),
  .init = cfr_init,
  .step = ol_cfr_step,
  .check = ol_game_check_tree,
  .probes = OL_MSET_NONE,
};
