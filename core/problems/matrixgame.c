/*
** core/problems/matrixgame.c -- a two-player normal-form (bimatrix) game
** from payoff matrices, or a seeded random one (von Neumann 1928; Nash
** 1951; potential games: Monderer & Shapley 1996).
**
**   row player:    max_{x in simplex(rows)}  x'Ay
**   column player: max_{y in simplex(cols)}  x'By      (B absent: B = -A)
**
** Joint strategy z = (x, y); f(z) = x'Ay; g(z) = (-A y, -B'x) (game.h).
** potential = Phi alone is the identical-interest game A = B = Phi (the
** potential game with that potential); with A (and B) it is checked to be
** an exact potential of them.  Without A: a random m x n game, entries
** iid uniform on [-1, 1) from the seeded generator (stream 0), kind
** "zerosum" (B = -A) or "general" (B drawn after A).  x0 is uniform for
** both players.  The equilibria are computed from the payoffs
** (ol_game_solve, nasheq.c: support enumeration up to C(m + n, m) <= 2e5
** pairs of supports, e.g. 10 x 10, else the minimax LP for a zero-sum
** game up to m n <= 250000, e.g. 500 x 500), or given as xstar: checked to be a probability vector per player
** and an equilibrium (NashConv <= 1e-9 (1 + max |payoff|)), then the one
** known equilibrium.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "rng.h"
#include "vec.h"

static const ol_param matrixgame_params[] = {
  {"A", OL_P_MATRIX, 0, 0, 0,
   "row player's payoff (rows x cols); absent: a random game (from Lua "
   "also u = function (i, j) return a, b end, over m x n)", NULL},
  {"B", OL_P_MATRIX, 0, 0, 0,
   "column player's payoff (rows x cols); absent: zero-sum, B = -A", NULL},
  {"potential", OL_P_MATRIX, 0, 0, 0,
   "an exact potential (checked); alone: the game A = B = potential",
   NULL},
  {"m", OL_P_INT, 3, 1, 1000, "random game or u: row player's actions",
   NULL},
  {"n", OL_P_INT, 3, 1, 1000, "random game or u: column player's actions",
   NULL},
  {"seed", OL_P_INT, 1, 0, 1e9, "random game: seed", NULL},
  {"kind", OL_P_ENUM, 0, 0, 0,
   "random game: zerosum (B = -A) or general (B drawn too)",
   "zerosum|general"},
  {"xstar", OL_P_VECTOR, 0, 0, 0,
   "a known equilibrium (x, y), rows + cols entries, a probability vector "
   "per player; absent: computed (support enumeration, minimax LP)", NULL},
};

static int same_shape (const ol_pval *a, const ol_pval *b, const char *an,
                       const char *bn, ol_err *e)
{
  if (a->rows != b->rows || a->cols != b->cols)
    return ol_err_set(e, OL_EINVAL, "%s is %d x %d but %s is "
                      "%d x %d", bn, b->rows, b->cols, an, a->rows, a->cols);
  return OL_OK;
}

static int random_game (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int m = (int)v[3].num, k = (int)v[4].num, general = v[6].num != 0, rc;
  size_t mk = (size_t)m * k, j;
  double *A = malloc(sizeof *A * mk * 2), *B = A + mk;
  ol_rng rng;
  if (A == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  ol_rng_seed(&rng, (uint64_t)v[5].num, 0);
  for (j = 0; j < mk; j++) A[j] = 2 * ol_rng_uniform(&rng) - 1;
  for (j = 0; j < mk && general; j++) B[j] = 2 * ol_rng_uniform(&rng) - 1;
  rc = ol_game_setup(p, A, general ? B : NULL, m, k, e);
  free(A);
  if (rc != OL_OK) return rc;
  snprintf(p->desc, sizeof p->desc, "matrixgame{m = %d, n = %d, seed = "
           "%.0f, kind = \"%s\"}", m, k, v[5].num,
           general ? "general" : "zerosum");
  return OL_OK;
}

#define NPARAMS (int)(sizeof matrixgame_params / sizeof matrixgame_params[0])

/* The given equilibrium xs (v[7]) after its checks, or the computed ones
** (ol_game_solve). */
static int equilibria (ol_problem *p, const ol_pval *xs, ol_err *e)
{
  ol_game *G = p->ud;
  int m = G->rows, k = G->cols, i, pl, n = m + k;
  double nc, *work, tol = 1e-9 * (1 + G->amax);
  if (xs->arr == NULL) return ol_game_solve(p, e);
  if (xs->cols != n)
    return ol_err_set(e, OL_EINVAL, "xstar has %d entries, expected rows + "
                      "cols = %d + %d = %d (x, then y)", xs->cols, m, k, n);
  for (pl = 0; pl < 2; pl++) {
    const double *s = xs->arr + (pl ? m : 0);
    int len = pl ? k : m;
    double sum = 0;
    for (i = 0; i < len; i++) {
      if (!(s[i] >= 0) || !isfinite(s[i]))
        return ol_err_set(e, OL_EINVAL, "xstar[%d] = %g: a probability must "
                          "be a finite number >= 0", (pl ? m : 0) + i + 1,
                          ol_shown(s[i]));
      sum += s[i];
    }
    if (!(fabs(sum - 1) <= 1e-9))
      return ol_err_set(e, OL_EINVAL, "xstar: the %s player's entries "
                        "(%d..%d) sum to %.17g, not 1", pl ? "column" : "row",
                        (pl ? m : 0) + 1, (pl ? m : 0) + len, sum);
  }
  if ((work = malloc(sizeof *work * (size_t)n)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  nc = ol_game_nashconv(G, xs->arr, work);
  free(work);
  if (!(nc <= tol))
    return ol_err_set(e, OL_EINVAL, "xstar is not a Nash equilibrium: its "
                      "NashConv (the players' best-response gains) is %g > "
                      "%g; omit xstar to have the equilibria computed", nc,
                      tol);
  if ((G->eq = ol_problem_alloc(n, e)) == NULL ||
      (p->xstar = ol_problem_alloc(n, e)) == NULL)
    return OL_ENOMEM;
  memcpy(G->eq, xs->arr, sizeof *G->eq * (size_t)n);
  memcpy(p->xstar, xs->arr, sizeof *G->eq * (size_t)n);
  G->neq = 1;
  p->fstar = ol_game_value(G, G->eq);
  return OL_OK;
}

static int matrixgame_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  ol_pval def[NPARAMS];
  const ol_pval *A, *B, *phi;
  int rc, i;
  /* (1) v NULL: the defaults (a random 3 x 3 zero-sum game, seed 1) */
  if (v == NULL) {
    memset(def, 0, sizeof def);
    for (i = 0; i < NPARAMS; i++) def[i].num = matrixgame_params[i].def;
    v = def;
  }
  A = &v[0];
  B = &v[1];
  phi = &v[2];
  if (A->arr == NULL && B->arr != NULL)
    return ol_err_set(e, OL_EINVAL, "B needs A");
  if (A->arr == NULL && phi->arr == NULL) rc = random_game(p, v, e);
  else {
    if (A->arr == NULL) A = B = phi;
    if (B->arr != NULL && (rc = same_shape(A, B, "A", "B", e)) != OL_OK)
      return rc;
    if (phi->arr != NULL &&
        (rc = same_shape(A, phi, "A", "potential", e)) != OL_OK)
      return rc;
    rc = ol_game_setup(p, A->arr, B->arr, A->rows, A->cols, e);
    if (rc == OL_OK && phi->arr != NULL)
      rc = ol_game_set_potential(p, phi->arr, e);
    if (rc != OL_OK) return rc;
    snprintf(p->desc, sizeof p->desc, "matrixgame{%s = %d x %d%s}",
             v[0].arr != NULL ? "A" : "potential", A->rows, A->cols,
             v[0].arr == NULL ? ""
             : B->arr == NULL ? ", zero-sum" : ", B");
  }
  if (rc != OL_OK || (rc = equilibria(p, &v[7], e)) != OL_OK) return rc;
  snprintf(p->name, sizeof p->name, "matrixgame");
  return OL_OK;
}

const ol_problem_type ol_problem_matrixgame = {
  .name = "matrixgame",
  .kind = OL_GAME,
  .doc = "two-player bimatrix game: payoffs x'Ay and x'By (B = -A: zero-sum); "
         "random without A",
  .ref = "von Neumann 1928; Nash 1951; Monderer & Shapley 1996",
  .params = matrixgame_params,
  .nparams = NPARAMS,
  .create = matrixgame_create,
  .payoff_fn = "u",
  .game = ol_game_ud,
};
