/*
** core/problems/rps.c -- rock-paper-scissors as a zero-sum matrix game.
**
**   A = [ 0 -1  1 ;  1  0 -1 ; -1  1  0 ]   (row player's payoff, B = -A)
**
** The unique equilibrium is uniform for both players, value f* = 0
** (OpenSpiel's matrix_rps).  x0 is deliberately off it, x = (0.5, 0.3,
** 0.2), y = (0.2, 0.5, 0.3), so dynamics have work to do (cycling,
** convergence of averages).
*/
#include "game.h"

static const double rps_A[9] = {
  0, -1, 1,
  1, 0, -1,
  -1, 1, 0
};

static const double rps_x0[6] = {0.5, 0.3, 0.2, 0.2, 0.5, 0.3};
static const double rps_xstar[6] = {1.0 / 3, 1.0 / 3, 1.0 / 3,
                                    1.0 / 3, 1.0 / 3, 1.0 / 3};

static int rps_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  (void)v;
  return ol_game_builtin(p, "rps", rps_A, NULL, 3, 3, rps_x0, rps_xstar, 1,
                         0, e);
}

const ol_problem_type ol_problem_rps = {
  .name = "rps",
  .kind = OL_GAME,
  .doc = "rock-paper-scissors: zero-sum 3 x 3 game, uniform equilibrium",
  .create = rps_create,
  .game = ol_game_ud,
};
