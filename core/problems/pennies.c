/*
** core/problems/pennies.c -- matching pennies, zero-sum 2 x 2 (von
** Neumann & Morgenstern 1944; OpenSpiel's matrix_mp).
**
**   A = [ 1 -1 ; -1  1 ]   (row player wins when the pennies match)
**
** Unique equilibrium x* = y* = (1/2, 1/2), value 0.  x0 = (0.8, 0.2),
** (0.3, 0.7): off it.
*/
#include "game.h"

static const double mp_A[4] = {1, -1, -1, 1};
static const double mp_x0[4] = {0.8, 0.2, 0.3, 0.7};
static const double mp_xstar[4] = {0.5, 0.5, 0.5, 0.5};

static int pennies_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  (void)v;
  return ol_game_builtin(p, "pennies", mp_A, NULL, 2, 2, mp_x0, mp_xstar, 1,
                         0, e);
}

const ol_problem_type ol_problem_pennies = {
  .name = "pennies",
  .kind = OL_GAME,
  .doc = "matching pennies: zero-sum 2 x 2, equilibrium (1/2, 1/2)",
  .ref = "von Neumann & Morgenstern 1944",
  .create = pennies_create,
  .game = ol_game_ud,
};
