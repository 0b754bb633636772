/*
** core/problems/game.c -- the oracle, set-up and equilibrium measures
** shared by the two-player bimatrix games (see game.h).
**
**   f(x, y) = x'Ay,   g(x, y) = ( -A y, -B'x )   (B = -A: ( -A y, A'x ))
**
** The oracle's user data is the ol_game, which borrows A from the
** problem's payoff (p->payoff) and owns B and the potential; it lives
** exactly as long as the problem (free_ud = game_free).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "vec.h"

static int game_fdf (void *ud, const double *z, double *f, double *g,
                     ol_err *e)
{
  const ol_game *G = ud;
  int m = G->rows, k = G->cols;
  const double *x = z, *y = z + m;
  (void)e;
  if (g != NULL) {
    /* (1) row player: -A y; (2) column player: -B'x (= A'x zero-sum) */
    ol_mat_gemv(m, k, -1.0, G->A, y, 0.0, g);
    if (G->zerosum) ol_mat_gemv_t(m, k, 1.0, G->A, x, 0.0, g + m);
    else ol_mat_gemv_t(m, k, -1.0, G->B, x, 0.0, g + m);
    /* (3) f = x'Ay = -<x, g_x> */
    if (f != NULL) *f = -ol_vec_dot(x, g, m);
  }
  else if (f != NULL) *f = ol_game_value(G, z);
  return OL_OK;
}

static void game_free (void *ud)
{
  ol_game *G = ud;
  if (G == NULL) return;
  free(G->B);
  free(G->phi);
  free(G->eq);
  free(G);
}

/* The game hook of the bimatrix games' types: their ud is the game
** (NULL until ol_game_setup2 has run). */
const ol_game *ol_game_ud (const ol_problem *p)
{
  return p->ud;
}

const ol_game *ol_game_of (const ol_problem *p)
{
  if (p == NULL || p->kind != OL_GAME || p->type->game == NULL) return NULL;
  return p->type->game(p);
}

int ol_game_view (const ol_problem *p, ol_game *G)
{
  const ol_game *own = ol_game_of(p);
  int i;
  if (own != NULL) {
    *G = *own;
    return 1;
  }
  if (p == NULL || p->kind != OL_GAME || p->payoff == NULL || p->rows < 1
      || p->cols < 1)
    return 0;
  memset(G, 0, sizeof *G);
  G->rows = p->rows;
  G->cols = p->cols;
  G->A = p->payoff;
  G->zerosum = 1;
  for (i = 0; i < p->rows * p->cols; i++)
    if (fabs(p->payoff[i]) > G->amax) G->amax = fabs(p->payoff[i]);
  return 1;
}

/* x'My for z = (x, y), M rows x cols. */
static double bilin (int m, int k, const double *M, const double *z)
{
  const double *x = z, *y = z + m;
  double s = 0;
  int i, j;
  for (i = 0; i < m; i++) {
    double r = 0;
    if (x[i] == 0) continue;
    for (j = 0; j < k; j++) r += M[(size_t)i * k + j] * y[j];
    s += x[i] * r;
  }
  return s;
}

double ol_game_value (const ol_game *G, const double *z)
{
  return bilin(G->rows, G->cols, G->A, z);
}

double ol_game_potential (const ol_game *G, const double *z)
{
  return G->phi != NULL ? bilin(G->rows, G->cols, G->phi, z) : NAN;
}

double ol_game_nashconv (const ol_game *G, const double *z, double *work)
{
  int m = G->rows, k = G->cols, i;
  double *u1 = work, *u2 = work + m, hi1 = -INFINITY, hi2 = -INFINITY;
  /* (1) utility vectors u1 = A y, u2 = B'x */
  ol_mat_gemv(m, k, 1.0, G->A, z + m, 0.0, u1);
  if (G->zerosum) ol_mat_gemv_t(m, k, -1.0, G->A, z, 0.0, u2);
  else ol_mat_gemv_t(m, k, 1.0, G->B, z, 0.0, u2);
  /* (2) best-response gains, max u - <u, strategy> */
  for (i = 0; i < m; i++)
    if (u1[i] > hi1) hi1 = u1[i];
  for (i = 0; i < k; i++)
    if (u2[i] > hi2) hi2 = u2[i];
  return hi1 - ol_vec_dot(u1, z, m) + hi2 - ol_vec_dot(u2, z + m, k);
}

/* The first (a, b) where phi fails to be a potential of (A, B) beyond
** tol, as a = -1 when it is one.  Checks the differences to the first
** row and column, which imply all others. */
static void potential_check (const ol_game *G, const double *phi,
                             double tol, int *ra, int *rb)
{
  int m = G->rows, k = G->cols, a, b;
  const double *A = G->A, *B = G->B;
  *ra = *rb = -1;
  for (a = 0; a < m; a++)
    for (b = 0; b < k; b++) {
      size_t ab = (size_t)a * k + b, a0 = (size_t)a * k, ob = (size_t)b;
      double d1 = (A[ab] - A[ob]) - (phi[ab] - phi[ob]);
      double d2 = (B[ab] - B[a0]) - (phi[ab] - phi[a0]);
      if (!(fabs(d1) <= tol && fabs(d2) <= tol)) {
        *ra = a;
        *rb = b;
        return;
      }
    }
}

/* Phi(a,b) = A(a,b) - A(1,b) + B(1,b) when that is a potential. */
static int find_potential (ol_game *G, ol_err *e)
{
  int m = G->rows, k = G->cols, a, b, ra, rb;
  double *phi = malloc(sizeof *phi * (size_t)m * k);
  if (phi == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  for (a = 0; a < m; a++)
    for (b = 0; b < k; b++)
      phi[(size_t)a * k + b] = G->A[(size_t)a * k + b] - G->A[b] + G->B[b];
  potential_check(G, phi, 1e-12 * (1 + G->amax), &ra, &rb);
  if (ra >= 0) {
    free(phi);
    phi = NULL;
  }
  G->phi = phi;
  return OL_OK;
}

int ol_game_set_potential (ol_problem *p, const double *phi, ol_err *e)
{
  ol_game *G = (ol_game *)ol_game_of(p);
  int ra, rb;
  size_t mk;
  double *q;
  if (G == NULL)
    return ol_err_set(e, OL_EINVAL, "potential: not a bimatrix game");
  mk = (size_t)G->rows * G->cols;
  if (!ol_allfinite(phi, (int)mk))
    return ol_err_set(e, OL_EINVAL, "potential has non-finite entries");
  potential_check(G, phi, 1e-9 * (1 + G->amax), &ra, &rb);
  if (ra >= 0)
    return ol_err_set(e, OL_EINVAL, "potential is not an exact potential "
                      "of the game: the payoff differences at (%d, %d) are "
                      "not its differences (Monderer & Shapley 1996)",
                      ra + 1, rb + 1);
  if ((q = malloc(sizeof *q * mk)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  memcpy(q, phi, sizeof *q * mk);
  free(G->phi);
  G->phi = q;
  return OL_OK;
}

int ol_game_setup (ol_problem *p, const double *A, const double *B,
                   int rows, int cols, ol_err *e)
{
  int i, n = rows + cols;
  size_t mk = (size_t)rows * cols, j;
  ol_game *G;
  if (rows < 1 || cols < 1)
    return ol_err_set(e, OL_EINVAL, "a game needs at least one action per "
                      "player (got %d x %d)", rows, cols);
  if (!ol_allfinite(A, (int)mk))
    return ol_err_set(e, OL_EINVAL, "payoff matrix A has non-finite "
                      "entries");
  if (B != NULL && !ol_allfinite(B, (int)mk))
    return ol_err_set(e, OL_EINVAL, "payoff matrix B has non-finite "
                      "entries");
  if ((G = calloc(1, sizeof *G)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = G;
  p->free_ud = game_free;
  if ((p->payoff = ol_problem_alloc((int)mk, e)) == NULL ||
      (G->B = ol_problem_alloc((int)mk, e)) == NULL)
    return OL_ENOMEM;
  memcpy(p->payoff, A, sizeof(double) * mk);
  G->zerosum = 1;
  for (j = 0; j < mk; j++) {
    G->B[j] = B != NULL ? B[j] : -A[j];
    if (G->B[j] != -A[j]) G->zerosum = 0;
    if (fabs(A[j]) > G->amax) G->amax = fabs(A[j]);
    if (fabs(G->B[j]) > G->amax) G->amax = fabs(G->B[j]);
  }
  G->rows = rows;
  G->cols = cols;
  G->A = p->payoff;
  if (find_potential(G, e) != OL_OK) return OL_ENOMEM;
  strcpy(p->name, "game");
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

int ol_game_builtin (ol_problem *p, const char *name, const double *A,
                     const double *B, int rows, int cols, const double *x0,
                     const double *eq, int neq, double fstar, ol_err *e)
{
  int rc = ol_game_setup(p, A, B, rows, cols, e), n = rows + cols;
  ol_game *G = p->ud;
  size_t sz = sizeof *eq * (size_t)n * (size_t)(neq > 0 ? neq : 0);
  if (rc != OL_OK) return rc;
  if (x0 != NULL) memcpy(p->x0, x0, sizeof *x0 * (size_t)n);
  if (neq > 0) {
    if ((G->eq = malloc(sz)) == NULL)
      return ol_err_set(e, OL_ENOMEM, "out of memory");
    memcpy(G->eq, eq, sz);
    G->neq = neq;
  }
  if (neq == 1) {
    if ((p->xstar = ol_problem_alloc(n, e)) == NULL) return OL_ENOMEM;
    memcpy(p->xstar, eq, sizeof *eq * (size_t)n);
  }
  p->fstar = fstar;
  snprintf(p->name, sizeof p->name, "%s", name);
  snprintf(p->desc, sizeof p->desc, "%s{}", name);
  return OL_OK;
}

int ol_game_equilibria (const ol_problem *p, const double **eq)
{
  const ol_game *G = ol_game_of(p);
  *eq = NULL;
  if (G != NULL && G->neq > 0) {
    *eq = G->eq;
    return G->neq;
  }
  if (p != NULL && p->kind == OL_GAME && p->xstar != NULL) {
    *eq = p->xstar;
    return 1;
  }
  return 0;
}
