/*
** core/problems/rps.c -- rock-paper-scissors as a zero-sum matrix game.
**
**   A = [ 0 -1  1 ;  1  0 -1 ; -1  1  0 ]   (row player's payoff)
**
** The unique equilibrium is uniform for both players, value f* = 0.  x0
** is deliberately off it, x = (0.5, 0.3, 0.2), y = (0.2, 0.5, 0.3), so
** dynamics have work to do (cycling, convergence of averages).
*/
#include <stdio.h>

#include "game.h"

static const double rps_A[9] = {
  0, -1, 1,
  1, 0, -1,
  -1, 1, 0
};

static const double rps_x0[6] = {0.5, 0.3, 0.2, 0.2, 0.5, 0.3};

static int rps_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int i, rc;
  (void)v;
  rc = ol_game_setup(p, rps_A, 3, 3, e);
  if (rc != OL_OK) return rc;
  if ((p->xstar = ol_problem_alloc(6, e)) == NULL) return OL_ENOMEM;
  for (i = 0; i < 6; i++) {
    p->x0[i] = rps_x0[i];
    p->xstar[i] = 1.0 / 3;
  }
  p->fstar = 0;
  snprintf(p->name, sizeof p->name, "rps");
  snprintf(p->desc, sizeof p->desc, "rps{}");
  return OL_OK;
}

const ol_problem_type ol_problem_rps = {
  "rps", OL_GAME,
  "rock-paper-scissors: zero-sum 3 x 3 game, uniform equilibrium",
  NULL,
  NULL, 0,
  rps_create
};
