/*
** core/problems/biasedrps.c -- biased rock-paper-scissors, zero-sum 3 x 3
** (OpenSpiel's matrix_brps, Lanctot et al. 2019, "OpenSpiel: a framework
** for reinforcement learning in games").
**
**   A = [ 0 -25  50 ;  25  0  -5 ; -50  5  0 ]   (rows and columns R, P, S)
**
** A is skew-symmetric, [[0, -a, b], [a, 0, -c], [-b, c, 0]] with a = 25,
** b = 50, c = 5, so A y = 0 for y proportional to (c, b, a): the unique
** equilibrium is x* = y* = (1, 10, 5) / 16 for both players, value 0.
** x0 = uniform for both, which is off it.
*/
#include "game.h"

static const double brps_A[9] = {
  0, -25, 50,
  25, 0, -5,
  -50, 5, 0
};

static const double brps_xstar[6] = {1.0 / 16, 10.0 / 16, 5.0 / 16,
                                     1.0 / 16, 10.0 / 16, 5.0 / 16};

static int biasedrps_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  (void)v;
  return ol_game_builtin(p, "biasedrps", brps_A, NULL, 3, 3, NULL,
                         brps_xstar, 1, 0, e);
}

const ol_problem_type ol_problem_biasedrps = {
  .name = "biasedrps",
  .kind = OL_GAME,
  .doc = "biased rock-paper-scissors: zero-sum, equilibrium (1, 10, 5)/16",
  .ref = "OpenSpiel matrix_brps (Lanctot et al. 2019)",
  .create = biasedrps_create,
  .game = ol_game_ud,
};
