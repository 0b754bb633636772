/*
** core/problems/game.h -- shared set-up, oracle and equilibrium measures
** of two-player normal-form (bimatrix) games: matrixgame.c and the
** built-ins (rps, biasedrps, pennies, shapley, coordination, climbing,
** prisoners, bilinear).
**
** The row player (first block, x in the simplex of size rows) receives
** x'Ay, the column player (y, size cols) receives x'By; both maximise.
** Zero-sum: B = -A.  The joint strategy is z = (x, y), n = rows + cols,
** on the product of two simplices (the unconstrained bilinear game: on
** R^n).  Oracle (problem.h's sign: minus each player's utility vector):
**   f(z) = x'Ay,   g(z) = ( -A y, -B'x )
** A game has an exact potential Phi (Monderer & Shapley 1996) when
**   A(a,b) - A(a',b) = Phi(a,b) - Phi(a',b)  and
**   B(a,b) - B(a,b') = Phi(a,b) - Phi(a,b')  for all a, a', b, b';
** setup finds one when it exists (Phi(a,b) = A(a,b) - A(1,b) + B(1,b)
** checked against the second condition), so identical-interest games
** (B = A, Phi = A) and, e.g., the prisoner's dilemma have one.
*/
#ifndef OL_GAME_H
#define OL_GAME_H

#include "problem.h"

/* The game behind a problem's oracle (its ud), owned by the problem. */
typedef struct ol_game {
  int rows, cols;
  const double *A;   /* row player's payoff: the problem's p->payoff */
  double *B;         /* column player's payoff, rows x cols (owned);
                        NULL in a zero-sum view (ol_game_view) */
  double *phi;       /* an exact potential, rows x cols (owned), or NULL */
  int zerosum;       /* B = -A exactly */
  double amax;       /* max |A_ij|, |B_ij|: the payoff scale */
  int neq;           /* known equilibria: neq joint strategies of */
  double *eq;        /*   rows + cols entries each (owned), or NULL */
  int degenerate;    /* ol_game_solve found the game degenerate: its
                        equilibria may form continua, eq lists the
                        equal-support ones */
} ol_game;

/* Fill p as the game with payoffs A and B (rows x cols, row-major, both
** copied; B NULL: zero-sum, B = -A): name "game", kind, n, fdf + ud (the
** game, which p's type gives back through its game hook, ol_game_ud),
** the product of two simplices, rows/cols, payoff, x0 (uniform), the
** potential when there is one.  xstar / fstar stay unknown, desc is left
** to the caller.  OL_OK or an error code with e set (the caller frees the
** partial problem). */
int ol_game_setup (ol_problem *p, const double *A, const double *B,
                   int rows, int cols, ol_err *e);
/* Replace the potential by phi (rows x cols, copied) after checking that
** it is one: both conditions above within 1e-9 (1 + amax); OL_EINVAL
** naming the first violation otherwise. */
int ol_game_set_potential (ol_problem *p, const double *phi, ol_err *e);

/* A built-in game: ol_game_setup, then the name (desc "name{}"), the
** start x0 (n = rows + cols entries, NULL: uniform), the neq known
** equilibria eq (neq rows of n, copied; those stated in the game's file
** header, checked in tests/c/t_games.c), and the row player's value
** fstar at the first (NAN: unknown or several values).  With exactly one
** equilibrium it is also p->xstar. */
int ol_game_builtin (ol_problem *p, const char *name, const double *A,
                     const double *B, int rows, int cols, const double *x0,
                     const double *eq, int neq, double fstar, ol_err *e);

/* Compute the equilibria of p's game (made by ol_game_setup) from its
** payoffs (core/problems/nasheq.c): support enumeration when C(rows +
** cols, rows) <= 2e5 (all of them in a nondegenerate game; degenerate
** set otherwise), else the minimax LP for a zero-sum game of rows cols <=
** 250000 (one equilibrium), else none.  Sets the game's eq, neq, degenerate, and p's
** fstar (zero-sum: the value; general-sum: the row player's value at the
** one equilibrium) and xstar (when there is exactly one).  OL_OK, or
** OL_ENOMEM, OL_EINTR, OL_ENUMERIC with e set. */
int ol_game_solve (ol_problem *p, ol_err *e);
/* One equilibrium z (rows + cols entries) and the value of the zero-sum
** game G (A; B unused) by the minimax LP, polished on its supports. */
int ol_game_minimax (const ol_game *G, double *z, double *value, ol_err *e);

/* The known equilibria of p: its game's list (*eq: neq rows of p->n,
** borrowed from p), else x* for a game problem that knows it (1 row),
** else 0 (*eq NULL). */
int ol_game_equilibria (const ol_problem *p, const double **eq);

/* The game of p, or NULL when p is not a bimatrix game (its type has no
** game hook). */
const ol_game *ol_game_of (const ol_problem *p);
/* The game hook (ol_problem_type.game) of a type whose problems are made
** by ol_game_setup2 or ol_game_builtin: p's ud. */
const ol_game *ol_game_ud (const ol_problem *p);

/* The game of p as a view into G: p's own game when it has one, else,
** for any problem of kind OL_GAME with a payoff matrix (a game assembled
** by hand, as in tests), the zero-sum game with that payoff (B NULL,
** zerosum = 1, no potential).  1 when p is a game, 0 (G untouched)
** otherwise.  G borrows from p. */
int ol_game_view (const ol_problem *p, ol_game *G);

/* Row player's payoff x'Ay at z = (x, y). */
double ol_game_value (const ol_game *G, const double *z);
/* The potential x' Phi y at z, NAN without one. */
double ol_game_potential (const ol_game *G, const double *z);
/* NashConv at z on the simplices (OpenSpiel's name): the sum over the two
** players of the best-response gain,
**   max_a (A y)_a - x'Ay  +  max_b (B'x)_b - x'By  >= 0,
** zero exactly at a Nash equilibrium; in a zero-sum game the duality gap
** max (A y) - min (A'x).  work needs rows + cols doubles. */
double ol_game_nashconv (const ol_game *G, const double *z, double *work);

#endif
