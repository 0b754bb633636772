/*
** core/problems/game.h -- shared set-up of two-player zero-sum matrix games
** (matrixgame.c, rps.c).
**
** The row player (first block, x in the simplex of size rows) receives
** x'Ay and maximises it; the column player (y, size cols) minimises it.
** The joint strategy is z = (x, y), n = rows + cols, on the product of two
** simplices.  Oracle: f(z) = x'Ay and g(z) = -(A y, -A'x), minus each
** player's utility vector (see problem.h).
*/
#ifndef OL_GAME_H
#define OL_GAME_H

#include "problem.h"

/* Fill p as the game with payoff A (rows x cols, row-major, copied into
** p->payoff): name, kind, n, fdf + ud, set, rows/cols, x0 (uniform), desc
** left to the caller.  xstar / fstar stay unknown.  OL_OK or an error
** code with e set (the caller frees the partial problem). */
int ol_game_setup (ol_problem *p, const double *A, int rows, int cols,
                   ol_err *e);

#endif
