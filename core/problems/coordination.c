/*
** core/problems/coordination.c -- a 2 x 2 pure coordination game
** (identical interest, A = B; Schelling 1960; a potential game with
** potential Phi = A, Monderer & Shapley 1996).
**
**   A = B = [ 2 0 ; 0 1 ]
**
** Three Nash equilibria: the pure (1, 1) with payoff 2 (payoff-dominant),
** the pure (2, 2) with payoff 1, and the mixed x = y = (1/3, 2/3) with
** payoff 2/3, all three in the list of known equilibria (game.h); no
** single x* is set.  x0 = (0.2, 0.8), (0.6, 0.4).
*/
#include <math.h>

#include "game.h"

static const double co_A[4] = {2, 0, 0, 1};
static const double co_x0[4] = {0.2, 0.8, 0.6, 0.4};
static const double co_eq[3][4] = {
  {1, 0, 1, 0}, {0, 1, 0, 1}, {1.0 / 3, 2.0 / 3, 1.0 / 3, 2.0 / 3}
};

static int coordination_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  (void)v;
  return ol_game_builtin(p, "coordination", co_A, co_A, 2, 2, co_x0, co_eq[0],
                         3, NAN, e);
}

const ol_problem_type ol_problem_coordination = {
  .name = "coordination",
  .kind = OL_GAME,
  .doc = "coordination game A = B = [2 0; 0 1]: pure equilibria (1,1), (2,2), "
         "one mixed",
  .ref = "Schelling 1960; Monderer & Shapley 1996",
  .create = coordination_create,
  .game = ol_game_ud,
};
