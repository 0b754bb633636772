/*
** core/problems/matrixgame.c -- a two-player zero-sum matrix game with a
** user-given payoff matrix A (von Neumann 1928).
**
**   max_{x in simplex(rows)} min_{y in simplex(cols)}  x'Ay
**
** Joint strategy z = (x, y); f(z) = x'Ay; g(z) = (-A y, A'x).  x0 is
** uniform for both players; the equilibrium is not precomputed (NULL).
*/
#include <stdio.h>

#include "game.h"

static const ol_param matrixgame_params[] = {
  {"A", OL_P_MATRIX, 0, 0, 0,
   "payoff to the row player (rows x cols); the column player pays it",
   NULL},
};

static int matrixgame_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int rc;
  if (v[0].arr == NULL)
    return ol_err_set(e, OL_EINVAL, "matrixgame needs a payoff matrix A");
  rc = ol_game_setup(p, v[0].arr, v[0].rows, v[0].cols, e);
  if (rc != OL_OK) return rc;
  snprintf(p->name, sizeof p->name, "matrixgame");
  snprintf(p->desc, sizeof p->desc, "matrixgame{A = %d x %d}", v[0].rows,
           v[0].cols);
  return OL_OK;
}

const ol_problem_type ol_problem_matrixgame = {
  "matrixgame", OL_GAME,
  "two-player zero-sum matrix game: the row player gets x'Ay",
  "von Neumann 1928",
  matrixgame_params,
  (int)(sizeof matrixgame_params / sizeof matrixgame_params[0]),
  matrixgame_create
};
