/*
** core/problems/shapley.c -- Shapley's game, general-sum 3 x 3 (Shapley
** 1964, "Some topics in two-person games"; this form: Fudenberg & Levine
** 1998, "The theory of learning in games", section 2.8).
**
**   A = [ 0 0 1 ; 1 0 0 ; 0 1 0 ],   B = [ 0 1 0 ; 0 0 1 ; 1 0 0 ]
**
** The unique Nash equilibrium is uniform for both players, payoff 1/3
** each; fictitious play from a non-equilibrium start does not converge to
** it: its empirical frequencies cycle with growing periods (Shapley 1964).
** x0 = (1, 0, 0), (0, 1, 0): a pure start, as fictitious play uses.
*/
#include "game.h"

static const double sh_A[9] = {0, 0, 1, 1, 0, 0, 0, 1, 0};
static const double sh_B[9] = {0, 1, 0, 0, 0, 1, 1, 0, 0};
static const double sh_x0[6] = {1, 0, 0, 0, 1, 0};
static const double sh_xstar[6] = {1.0 / 3, 1.0 / 3, 1.0 / 3,
                                   1.0 / 3, 1.0 / 3, 1.0 / 3};

static int shapley_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  (void)v;
  return ol_game_builtin(p, "shapley", sh_A, sh_B, 3, 3, sh_x0, sh_xstar,
                         1, 1.0 / 3, e);
}

const ol_problem_type ol_problem_shapley = {
  .name = "shapley",
  .kind = OL_GAME,
  .doc = "Shapley's game: general-sum 3 x 3, unique equilibrium uniform; "
         "fictitious play cycles",
  .ref = "Shapley 1964",
  .create = shapley_create,
  .game = ol_game_ud,
};
