/*
** core/problems/game.c -- the oracle and set-up shared by the two-player
** zero-sum matrix games (see game.h).
**
**   f(x, y) = x'Ay,   g(x, y) = ( -A y, A'x )
**
** The oracle's user data points at the payoff the problem owns
** (p->payoff), which lives exactly as long as the problem.
*/
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "vec.h"

typedef struct game {
  int rows, cols;
  const double *A;  /* borrowed: the problem's payoff */
} game;

static int game_fdf (void *ud, const double *z, double *f, double *g,
                     ol_err *e)
{
  const game *G = ud;
  int m = G->rows, k = G->cols;
  const double *x = z, *y = z + m;
  (void)e;
  if (g != NULL) {
    /* (1) row player: -A y; (2) column player: +A'x */
    ol_mat_gemv(m, k, -1.0, G->A, y, 0.0, g);
    ol_mat_gemv_t(m, k, 1.0, G->A, x, 0.0, g + m);
    /* (3) f = x'Ay = -<x, g_x> */
    if (f != NULL) *f = -ol_vec_dot(x, g, m);
  }
  else if (f != NULL) {
    double s = 0;
    int i, j;
    for (i = 0; i < m; i++) {
      double r = 0;
      for (j = 0; j < k; j++) r += G->A[(size_t)i * k + j] * y[j];
      s += x[i] * r;
    }
    *f = s;
  }
  return OL_OK;
}

int ol_game_setup (ol_problem *p, const double *A, int rows, int cols,
                   ol_err *e)
{
  int i, n = rows + cols;
  game *G;
  if (rows < 1 || cols < 1)
    return ol_err_set(e, OL_EINVAL, "a game needs at least one action per "
                      "player (got %d x %d)", rows, cols);
  if (!ol_allfinite(A, rows * cols))
    return ol_err_set(e, OL_EINVAL, "payoff matrix has non-finite entries");
  if ((G = malloc(sizeof *G)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = G;
  p->free_ud = free;
  if ((p->payoff = ol_problem_alloc(rows * cols, e)) == NULL)
    return OL_ENOMEM;
  memcpy(p->payoff, A, sizeof(double) * (size_t)rows * cols);
  G->rows = rows;
  G->cols = cols;
  G->A = p->payoff;
  p->kind = OL_GAME;
  p->n = n;
  p->fdf = game_fdf;
  p->hess = NULL;
  p->rows = rows;
  p->cols = cols;
  p->set.kind = OL_SET_SIMPLEX;
  p->set.nblocks = 2;
  p->set.blocks[0] = rows;
  p->set.blocks[1] = cols;
  if ((p->x0 = ol_problem_alloc(n, e)) == NULL) return OL_ENOMEM;
  for (i = 0; i < n; i++) p->x0[i] = i < rows ? 1.0 / rows : 1.0 / cols;
  return OL_OK;
}
