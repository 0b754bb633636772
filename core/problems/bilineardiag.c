/*
** core/problems/bilineardiag.c -- an unconstrained bilinear game with a
** graded spectrum, the test of last-iterate rates in monotone games:
**
**   min_x max_y  x'My,   M = diag(s_1 .. s_n),  s_j = smin^((j-1)/(n-1))
**
** x, y in R^n, the singular values geometric from 1 (so L = 1) down to
** smin.  The game splits into n planar games (x_j, y_j) with one
** singular value each: a method's iterates can be checked mode by mode
** against their 2 x 2 recursion, and the operator norm
** ||F(z)|| = sqrt(sum_j s_j^2 (x_j^2 + y_j^2)) (the gradnorm metric) is
** the tangent residual of the unconstrained game.  Extragradient and
** optimistic GDA shrink mode j by about exp(-lr^2 s_j^2 t / 2), so with
** singular values spread evenly on a log scale the slow modes give
** ||F(z_t)|| of order 1 / (lr sqrt(t)) while 1 / (lr sqrt(t)) > smin: the
** O(1/sqrt(T)) last-iterate rate, tight for them (Golowich, Pattathil,
** Daskalakis & Ozdaglar 2020, COLT); an anchored method (game.aog, Cai &
** Zheng 2023) reaches O(1/T).  Simultaneous GDA grows every mode by
** sqrt(1 + lr^2 s_j^2) per step.
**
** Optlab's sign convention: the row player receives x'Ay and maximises
** it, so this is the zero-sum game A = -M.  Equilibrium x* = y* = 0 (M
** invertible), f* = 0.  x0 = (1, ..., 1) for both players.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "game.h"

static const ol_param bilineardiag_params[] = {
  {"n", OL_P_INT, 30, 1, 1000, "singular values (each player's "
   "dimension)", NULL},
  {"smin", OL_P_REAL, 1e-3, OL_GT0, 1, "smallest singular value (the "
   "largest is 1)", NULL},
};

static int bilineardiag_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int n = (int)v[0].num, j, rc = OL_ENOMEM;
  double smin = v[1].num;
  double *A = calloc((size_t)n * n, sizeof *A);
  double *x0 = malloc(2 * (size_t)n * sizeof *x0);
  double *xs = calloc(2 * (size_t)n, sizeof *xs);
  if (A == NULL || x0 == NULL || xs == NULL) {
    ol_err_set(e, OL_ENOMEM, "bilineardiag: out of memory");
    goto done;
  }
  for (j = 0; j < n; j++)
    A[(size_t)j * n + j] = -(n == 1 ? 1 : pow(smin, (double)j / (n - 1)));
  for (j = 0; j < 2 * n; j++) x0[j] = 1;
  rc = ol_game_builtin(p, "bilineardiag", A, NULL, n, n, x0, xs, 1, 0, e);
  if (rc != OL_OK) goto done;
  p->set.kind = OL_SET_NONE;
  p->set.nblocks = 0;
  snprintf(p->desc, sizeof p->desc, "bilineardiag{n = %d, smin = %g}", n,
           smin);
done:
  free(A);
  free(x0);
  free(xs);
  return rc;
}

const ol_problem_type ol_problem_bilineardiag = {
  .name = "bilineardiag",
  .kind = OL_GAME,
  .doc = "unconstrained bilinear game x'diag(s)y, s geometric from 1 to "
    "smin: EG/OG's last iterate O(1/sqrt(T)), anchored O(1/T)",
  .ref = "Golowich et al. 2020; Cai & Zheng 2023",
  .params = bilineardiag_params,
  .nparams = (int)(sizeof bilineardiag_params /
                   sizeof bilineardiag_params[0]),
  .create = bilineardiag_create,
  .game = ol_game_ud,
};
