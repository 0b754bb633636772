/*
** core/problems/climbing.c -- the climbing game, identical interest 3 x 3
** (Claus & Boutilier 1998, "The dynamics of reinforcement learning in
** cooperative multiagent systems", AAAI, Table 2).
**
**   A = B = [ 11 -30  0 ; -30  7  6 ;  0  0  5 ]
**
** Pure Nash equilibria (a, a) with payoff 11 (optimal) and (b, b) with
** payoff 7; the -30 miscoordination penalties keep independent learners
** from the optimum.  Support enumeration (every pair of equal-size
** supports, solved exactly in rationals) finds one more, mixed:
** x = y = (5/16, 0, 11/16), payoff 55/16 (a and c earn 11 5/16 = 5 11/16
** against it, b earns (66 - 150)/16 < 0), and no other (the game is
** nondegenerate: three, an odd number).  All three are the list of known
** equilibria (game.h).  A potential game (Phi = A).  No single x* is set.
** x0 = (0.2, 0.3, 0.5), (0.3, 0.3, 0.4).
*/
#include <math.h>

#include "game.h"

static const double cl_A[9] = {11, -30, 0, -30, 7, 6, 0, 0, 5};
static const double cl_x0[6] = {0.2, 0.3, 0.5, 0.3, 0.3, 0.4};
static const double cl_eq[3][6] = {
  {1, 0, 0, 1, 0, 0}, {0, 1, 0, 0, 1, 0},
  {5.0 / 16, 0, 11.0 / 16, 5.0 / 16, 0, 11.0 / 16}
};

static int climbing_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  (void)v;
  return ol_game_builtin(p, "climbing", cl_A, cl_A, 3, 3, cl_x0, cl_eq[0], 3,
                         NAN, e);
}

const ol_problem_type ol_problem_climbing = {
  .name = "climbing",
  .kind = OL_GAME,
  .doc = "climbing game: identical interest 3 x 3, pure equilibria (a,a) = 11 "
         "and (b,b) = 7",
  .ref = "Claus & Boutilier 1998",
  .create = climbing_create,
  .game = ol_game_ud,
};
