/*
** core/problems/prisoners.c -- the prisoner's dilemma, general-sum 2 x 2
** (Flood & Dresher 1950; payoffs as in Axelrod 1984 and OpenSpiel's
** matrix_pd), actions (cooperate, defect).
**
**   A = [ 3 0 ; 5 1 ],   B = A'
**
** Defect strictly dominates for both: the unique Nash equilibrium is
** (defect, defect), payoff 1 each, x* = (0, 1, 0, 1).  An exact potential
** game (Phi = [3 5; 5 6], found by game.c).  x0 = (0.9, 0.1) for both.
*/
#include "game.h"

static const double pd_A[4] = {3, 0, 5, 1};
static const double pd_B[4] = {3, 5, 0, 1};
static const double pd_x0[4] = {0.9, 0.1, 0.9, 0.1};
static const double pd_xstar[4] = {0, 1, 0, 1};

static int prisoners_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  (void)v;
  return ol_game_builtin(p, "prisoners", pd_A, pd_B, 2, 2, pd_x0, pd_xstar,
                         1, 1, e);
}

const ol_problem_type ol_problem_prisoners = {
  .name = "prisoners",
  .kind = OL_GAME,
  .doc = "prisoner's dilemma [3 0; 5 1]: unique equilibrium (defect, defect)",
  .ref = "Flood & Dresher 1950; Axelrod 1984",
  .create = prisoners_create,
  .game = ol_game_ud,
};
