/*
** tests/c/t_nasheq.c -- the equilibria matrixgame computes
** (core/problems/nasheq.c), the two algorithms checked against each other
** and against best-response gains computed here by loops.
**
**   - on seeded random zero-sum games of 1 x 1 to 8 x 8 (seeds 1..12 per
**     size), small enough for support enumeration, the minimax LP
**     (ol_game_minimax) gives the same value as the enumerated
**     equilibrium (to 1e-12) and both players' best-response gains are 0
**     to 1e-12 at its point;
**   - on seeded random general-sum games up to 7 x 7 every listed
**     equilibrium has gains <= 1e-12 and, the games being nondegenerate
**     with probability 1, their number is odd (Shapley 1974);
**   - a zero-sum game with a duplicated row (degenerate: the LP's supports
**     are not unique) still gets gains <= 1e-12 from the LP.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "olt.h"
#include "problems/game.h"
#include "tap.h"

/* max (A y) - x'Ay and max (B'x) - x'By at z, by loops. */
static void gains (const ol_game *G, const double *z, double *g1,
                   double *g2)
{
  int m = G->rows, k = G->cols, i, j;
  double h1 = -INFINITY, h2 = -INFINITY, v1 = 0, v2 = 0;
  for (i = 0; i < m; i++) {
    double s = 0;
    for (j = 0; j < k; j++) s += G->A[i * k + j] * z[m + j];
    h1 = fmax(h1, s);
    v1 += z[i] * s;
  }
  for (j = 0; j < k; j++) {
    double s = 0;
    for (i = 0; i < m; i++) s += G->B[i * k + j] * z[i];
    h2 = fmax(h2, s);
    v2 += z[m + j] * s;
  }
  *g1 = h1 - v1;
  *g2 = h2 - v2;
}

static void test_lp_vs_enumeration (void)
{
  int m, k, seed, bad = 0, runs = 0;
  double worst = 0, dv = 0;
  ol_err e;
  for (m = 1; m <= 8; m++)
    for (k = 1; k <= 8; k++)
      for (seed = 1; seed <= 12; seed++) {
        ol_problem *p = olt_problem("matrixgame", &e, "m", (double)m, "n",
                                    (double)k, "seed", (double)seed,
                                    (char *)NULL);
        const ol_game *G = ol_game_of(p);
        double z[16], v, g1, g2;
        runs++;
        if (G == NULL || G->neq < 1 ||
            ol_game_minimax(G, z, &v, &e) != OL_OK) {
          bad++;
          ol_problem_free(p);
          continue;
        }
        gains(G, z, &g1, &g2);
        worst = fmax(worst, fmax(fabs(g1), fabs(g2)));
        dv = fmax(dv, fabs(v - p->fstar));
        ol_problem_free(p);
      }
  ok(bad == 0 && worst <= 1e-12 && dv <= 1e-12,
     "nasheq: %d random zero-sum games 1x1..8x8: the minimax LP's value "
     "equals the enumerated one (max difference %.2g <= 1e-12), its "
     "gains <= %.2g <= 1e-12 (%d failed)", runs, dv, worst, bad);
}

static void test_general (void)
{
  int m, k, seed, bad = 0, even = 0, total = 0;
  double worst = 0;
  ol_err e;
  for (m = 2; m <= 7; m++)
    for (k = 2; k <= 7; k++)
      for (seed = 1; seed <= 3; seed++) {
        ol_problem *p = olt_problem("matrixgame", &e, "m", (double)m, "n",
                                    (double)k, "seed", (double)seed,
                                    "kind", 1.0, (char *)NULL);
        const ol_game *G = ol_game_of(p);
        int q;
        if (G == NULL || G->neq < 1 || G->degenerate) {
          bad++;
          ol_problem_free(p);
          continue;
        }
        for (q = 0; q < G->neq; q++) {
          double g1, g2;
          gains(G, G->eq + (size_t)q * (m + k), &g1, &g2);
          worst = fmax(worst, fmax(fabs(g1), fabs(g2)));
        }
        even += G->neq % 2 == 0;
        total += G->neq;
        ol_problem_free(p);
      }
  ok(bad == 0 && even == 0 && worst <= 1e-12,
     "nasheq: random general-sum games 2x2..7x7 (seeds 1..3): %d "
     "equilibria, an odd number in every game (%d even), gains <= %.2g <= "
     "1e-12 (%d failed or degenerate)", total, even, worst, bad);
}

static void test_degenerate_lp (void)
{
  /* rows 1 and 2 equal: the row player's optimal strategies form a
  ** segment; value of [[1, -1], [1, -1], [-1, 1]] is 0 */
  static const double A[6] = {1, -1, 1, -1, -1, 1};
  ol_pval v[8];
  ol_problem *p;
  const ol_game *G;
  double z[5], val = NAN, g1 = 1, g2 = 1;
  ol_err e;
  memset(v, 0, sizeof v);
  v[0].arr = A;
  v[0].rows = 3;
  v[0].cols = 2;
  p = ol_problem_new(ol_problem_type_find("matrixgame"), v, &e);
  G = ol_game_of(p);
  if (G != NULL && ol_game_minimax(G, z, &val, &e) == OL_OK)
    gains(G, z, &g1, &g2);
  ok(G != NULL && G->degenerate && fabs(val) <= 1e-15 && fabs(g1) <= 1e-12
     && fabs(g2) <= 1e-12,
     "nasheq: a duplicated row is reported degenerate; the LP still gives "
     "value %.2g and gains %.2g, %.2g", val, g1, g2);
  ol_problem_free(p);
}

int main (void)
{
  diag("seeds 1..12 (zero-sum), 1..3 (general-sum) of matrixgame");
  test_lp_vs_enumeration();
  test_general();
  test_degenerate_lp();
  return done();
}
