/*
** core/problems/nasheq.c -- the Nash equilibria of a bimatrix game
** computed from its payoffs (game.h's ol_game_solve): support
** enumeration for small games, the minimax linear program for larger
** zero-sum ones.
**
** Support enumeration (Nisan, Roughgarden, Tardos & Vazirani 2007,
** "Algorithmic game theory", sec. 3.3; Avis, Rosenberg, Savani & von
** Stengel 2010, sec. 2): for every pair of supports I (rows), J (cols) of
** equal size k, the unique x on I making the column player indifferent
** over J and y on J making the row player indifferent over I,
**   sum_{i in I} x_i B_ij = u  (j in J),  sum x_i = 1,
**   sum_{j in J} A_ij y_j = v  (i in I),  sum y_j = 1,
** two (k+1) x (k+1) systems (LAPACK dgesv), give an equilibrium when x,
** y >= 0 and no pure strategy does better: max (A y) <= v, max (B'x) <= u
** (within tol = 1e-10 (1 + amax)).  In a nondegenerate game (no mixed
** strategy of support size k has more than k pure best responses, von
** Stengel 2002) every equilibrium has supports of equal size and is found
** this way, so the list is complete.  Done when the number of support
** pairs, C(m + n, m), is at most OL_NASH_MAXPAIRS (2e5: every game up to
** 10 x 10, 3 x 30, 2 x 600).  The game is reported degenerate (G->
** degenerate) when a pure strategy has two pure best responses or an
** equilibrium found has more best responses than its support size; then
** the equilibria may form continua and those listed are the
** equal-support ones (at least one exists: Lemke-Howson's on a
** perturbation, in the limit; the list may miss some of the set).
**
** Zero-sum games too large to enumerate: the minimax LP (von Neumann
** 1928; Dantzig 1951).  With M = A - min A + 1 > 0, the column player's
**   max 1'w  s.t.  M w <= 1,  w >= 0
** has the origin feasible (no phase one); at its optimum y = w / 1'w, the
** value of M is 1 / 1'w, and the row player's x is the LP's dual (the
** reduced costs of the slacks) over the same sum.  Dense tableau simplex,
** Dantzig's entering rule, Bland's (smallest index, which cannot cycle)
** after 50 pivots in a row that do not raise the objective.  The
** solution is then polished: the equalities of the supports it found
** (the indifference conditions above, least squares by LAPACK dgelsd when
** the supports differ in size) are solved again and the result kept when
** it is feasible and its NashConv is not larger, so the best-response
** gaps are at rounding level (1e-15 (1 + amax)), not at the simplex's
** pivot tolerance.  One equilibrium (zero-sum games have a convex set of
** them, all with the same value).  Done up to m n <= OL_NASH_MAXLP
** (250000: a random 500 x 500 game took 0.5 s, 300 x 300 0.07 s, while
** 1000 x 1000 took 21 s, its tableau of m (n + m + 1) doubles out of
** cache); larger zero-sum games and general-sum games above the
** enumeration size get none (general-sum is PPAD-hard: Chen & Deng 2006),
** and a user who knows an equilibrium gives it (matrixgame's xstar).
**
** Why our own simplex: the LP library in Debian that fits (GLPK,
** libglpk-dev) is GPL-3 and outside the core's dependencies (libc, libm,
** CBLAS, LAPACKE); the game LP needs no phase one, and its answer is only
** used to find the supports, which LAPACK then solves.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>

#include "game.h"

#define OL_NASH_MAXPAIRS 200000.0
#define OL_NASH_MAXLP 250000.0    /* m n: 500 x 500 takes 0.5 s */
#define LP_PIVTOL 1e-12   /* smallest pivot entry the ratio test takes */

/* C(a, b) as a double (no overflow for the sizes asked). */
static double choose (int a, int b)
{
  double c = 1;
  int i;
  if (b > a - b) b = a - b;
  for (i = 1; i <= b; i++) c = c * (a - b + i) / i;
  return c;
}

/* Next k-subset of {0..n-1} in lexicographic order, in place; 0 after the
** last. */
static int next_subset (int *s, int k, int n)
{
  int i = k - 1, j;
  while (i >= 0 && s[i] == n - k + i) i--;
  if (i < 0) return 0;
  s[i]++;
  for (j = i + 1; j < k; j++) s[j] = s[j - 1] + 1;
  return 1;
}

/* Best-response check of z = (x, y): the largest gains of the two
** players, max (A y) - x'Ay and max (B'x) - x'By, into g1, g2, and the
** numbers of pure best responses (within tol of the best) into c1, c2.
** work: rows + cols doubles. */
static void brcheck (const ol_game *G, const double *z, double tol,
                     double *work, double *g1, double *g2, int *c1, int *c2)
{
  int m = G->rows, k = G->cols, i;
  double *u1 = work, *u2 = work + m, h1 = -INFINITY, h2 = -INFINITY, v1 = 0,
    v2 = 0;
  for (i = 0; i < m; i++) {
    int j;
    u1[i] = 0;
    for (j = 0; j < k; j++) u1[i] += G->A[(size_t)i * k + j] * z[m + j];
  }
  for (i = 0; i < k; i++) {
    int j;
    u2[i] = 0;
    for (j = 0; j < m; j++) u2[i] += G->B[(size_t)j * k + i] * z[j];
  }
  for (i = 0; i < m; i++) {
    h1 = fmax(h1, u1[i]);
    v1 += z[i] * u1[i];
  }
  for (i = 0; i < k; i++) {
    h2 = fmax(h2, u2[i]);
    v2 += z[m + i] * u2[i];
  }
  *g1 = h1 - v1;
  *g2 = h2 - v2;
  *c1 = *c2 = 0;
  for (i = 0; i < m; i++) *c1 += u1[i] >= h1 - tol;
  for (i = 0; i < k; i++) *c2 += u2[i] >= h2 - tol;
}

static int support (const double *x, int n)
{
  int i, s = 0;
  for (i = 0; i < n; i++) s += x[i] > 0;
  return s;
}

/* Add z (n entries) to the list unless one within 1e-9 is there; 1 when
** it was a duplicate. */
static int addeq (double **eq, int *neq, int *cap, const double *z, int n,
                  ol_err *e)
{
  int q, i;
  for (q = 0; q < *neq; q++) {
    double d = 0;
    for (i = 0; i < n; i++) d = fmax(d, fabs((*eq)[(size_t)q * n + i] - z[i]));
    if (d <= 1e-9) return 1;
  }
  if (*neq == *cap) {
    int nc = *cap > 0 ? 2 * *cap : 8;
    double *t = realloc(*eq, sizeof *t * (size_t)nc * n);
    if (t == NULL) return -ol_err_set(e, OL_ENOMEM, "out of memory");
    *eq = t;
    *cap = nc;
  }
  memcpy(*eq + (size_t)*neq * n, z, sizeof *z * (size_t)n);
  (*neq)++;
  return 0;
}

/* Solve for the strategy s on the support S (k entries, of a player with
** nself actions) that makes the other player indifferent over T (k
** entries): sum_{a in S} s_a P(a, b) = w (b in T), sum s_a = 1, where
** P(a, b) is M[a * ld + b] (trans = 0) or M[b * ld + a] (trans = 1).
** s written into out (nself entries, zero off S).  0 when solved with
** s >= -tol (clamped to 0 and renormalised), 1 otherwise. */
static int indiff (const double *M, int ld, int trans, const int *S,
                   const int *T, int k, int nself, double tol, double *sys,
                   double *rhs, lapack_int *piv, double *out)
{
  int r, c, K = k + 1;
  double sum = 0;
  for (r = 0; r < k; r++) {          /* row r: condition for b = T[r] */
    for (c = 0; c < k; c++) {
      int a = S[c], b = T[r];
      sys[r * K + c] = trans ? M[(size_t)b * ld + a] : M[(size_t)a * ld + b];
    }
    sys[r * K + k] = -1;
    rhs[r] = 0;
  }
  for (c = 0; c < k; c++) sys[k * K + c] = 1;
  sys[k * K + k] = 0;
  rhs[k] = 1;
  if (LAPACKE_dgesv(LAPACK_ROW_MAJOR, K, 1, sys, K, piv, rhs, 1) != 0)
    return 1;
  for (c = 0; c < k; c++)
    if (!(rhs[c] >= -tol)) return 1;
  memset(out, 0, sizeof *out * (size_t)nself);
  for (c = 0; c < k; c++) sum += out[S[c]] = fmax(rhs[c], 0);
  for (c = 0; c < k; c++) out[S[c]] /= sum;
  return 0;
}

/* Support enumeration (see the header) into eq / neq. */
static int enumerate (ol_game *G, double tol, ol_err *e)
{
  int m = G->rows, n = G->cols, N = m + n, kmax = m < n ? m : n, k, cap = 0,
    a, rc = OL_OK;
  int *Rs = malloc(sizeof *Rs * (size_t)(N + 2));
  double *z = malloc(sizeof *z * ((size_t)3 * N + (size_t)(kmax + 1) *
                                  (kmax + 2)));
  lapack_int *piv = malloc(sizeof *piv * (size_t)(kmax + 1));
  int *Cs = Rs + m + 1;
  double *work, *sys, *rhs;
  if (Rs == NULL || z == NULL || piv == NULL) {
    rc = ol_err_set(e, OL_ENOMEM, "out of memory");
    goto done;
  }
  work = z + N;
  rhs = work + N;
  sys = rhs + N;
  /* (1) a pure strategy with two pure best responses: degenerate */
  for (a = 0; a < m && !G->degenerate; a++) {
    double hi = -INFINITY;
    int b, cnt = 0;
    for (b = 0; b < n; b++) hi = fmax(hi, G->B[(size_t)a * n + b]);
    for (b = 0; b < n; b++) cnt += G->B[(size_t)a * n + b] >= hi - tol;
    G->degenerate = cnt > 1;
  }
  for (a = 0; a < n && !G->degenerate; a++) {
    double hi = -INFINITY;
    int b, cnt = 0;
    for (b = 0; b < m; b++) hi = fmax(hi, G->A[(size_t)b * n + a]);
    for (b = 0; b < m; b++) cnt += G->A[(size_t)b * n + a] >= hi - tol;
    G->degenerate = cnt > 1;
  }
  /* (2) every pair of supports of equal size k */
  for (k = 1; k <= kmax; k++) {
    for (a = 0; a < k; a++) Rs[a] = a;
    do {
      if (ol_interrupted()) {
        rc = ol_err_set(e, OL_EINTR, "interrupted while enumerating the "
                        "supports");
        goto done;
      }
      for (a = 0; a < k; a++) Cs[a] = a;
      do {
        double g1, g2;
        int c1, c2, dup;
        /* x on I: column player indifferent over J (B's columns) */
        if (indiff(G->B, n, 0, Rs, Cs, k, m, tol, sys, rhs, piv, z)) continue;
        /* y on J: row player indifferent over I (A's rows) */
        if (indiff(G->A, n, 1, Cs, Rs, k, n, tol, sys, rhs, piv, z + m))
          continue;
        brcheck(G, z, tol, work, &g1, &g2, &c1, &c2);
        if (g1 > tol || g2 > tol) continue;
        if (c1 > support(z + m, n) || c2 > support(z, m)) G->degenerate = 1;
        if ((dup = addeq(&G->eq, &G->neq, &cap, z, N, e)) < 0) {
          rc = OL_ENOMEM;
          goto done;
        }
        if (dup) G->degenerate = 1;
      } while (next_subset(Cs, k, n));
    } while (next_subset(Rs, k, m));
  }
done:
  free(Rs);
  free(z);
  free(piv);
  return rc;
}

/* Re-solve the indifference equalities on the supports of z (zero-sum,
** value v) by least squares (dgelsd), into zp; 0 when it gave a strategy
** pair (entries >= -tol, clamped, renormalised). */
static int polish (const ol_game *G, const double *z, double tol, double *zp,
                   ol_err *e)
{
  int m = G->rows, n = G->cols, S[2], pl, rc = 1;
  int *sup = malloc(sizeof *sup * (size_t)(m + n));
  double *sys = malloc(sizeof *sys * (size_t)(m + n + 2) * (m + n + 2) * 2);
  double *sv = malloc(sizeof *sv * (size_t)(m + n + 2));
  lapack_int rank;
  (void)e;
  if (sup == NULL || sys == NULL || sv == NULL) goto done;
  S[0] = S[1] = 0;
  for (pl = 0; pl < m + n; pl++)
    if (z[pl] > 0) sup[pl < m ? S[0]++ : m + S[1]++] = pl < m ? pl : pl - m;
  memset(zp, 0, sizeof *zp * (size_t)(m + n));
  for (pl = 0; pl < 2; pl++) {
    /* pl 0: x on S0 making the column player indifferent over S1, unknowns
    ** (x_S0, v); pl 1: y on S1 for the row player over S0 */
    int ns = S[pl], no = S[1 - pl], rows = no + 1, cols = ns + 1, r, c;
    int ld = rows > cols ? rows : cols;
    const int *own = pl == 0 ? sup : sup + m, *oth = pl == 0 ? sup + m : sup;
    double *b = sys + (size_t)ld * cols, sum = 0;
    for (r = 0; r < no; r++) {
      for (c = 0; c < ns; c++)
        sys[(size_t)r * cols + c] = pl == 0
          ? G->A[(size_t)own[c] * n + oth[r]]
          : G->A[(size_t)oth[r] * n + own[c]];
      sys[(size_t)r * cols + ns] = -1;
      b[r] = 0;
    }
    for (c = 0; c < ns; c++) sys[(size_t)no * cols + c] = 1;
    sys[(size_t)no * cols + ns] = 0;
    b[no] = 1;
    for (r = rows; r < ld; r++) b[r] = 0;
    if (LAPACKE_dgelsd(LAPACK_ROW_MAJOR, rows, cols, 1, sys, cols, b, 1, sv,
                       -1.0, &rank) != 0)
      goto done;
    for (c = 0; c < ns; c++) {
      if (!(b[c] >= -tol)) goto done;
      sum += b[c] = fmax(b[c], 0);
    }
    if (!(sum > 0)) goto done;
    for (c = 0; c < ns; c++) zp[(pl == 0 ? 0 : m) + own[c]] = b[c] / sum;
  }
  rc = 0;
done:
  free(sup);
  free(sys);
  free(sv);
  return rc;
}

int ol_game_minimax (const ol_game *G, double *z, double *value, ol_err *e)
{
  int m = G->rows, n = G->cols, W = n + m + 1, i, j, stall = 0, bland = 0;
  long it, maxit = 100L * (m + n) + 1000;
  double amin = INFINITY, *T, *zp = NULL, obj = 0, sum = 0, g1, g2, gp1, gp2;
  int *basis, c1, c2, rc = OL_OK;
  double tol = 1e-10 * (1 + G->amax);
  T = malloc(sizeof *T * (size_t)(m + 1) * W);
  basis = malloc(sizeof *basis * (size_t)m);
  zp = malloc(sizeof *zp * (size_t)3 * (m + n));
  if (T == NULL || basis == NULL || zp == NULL) {
    rc = ol_err_set(e, OL_ENOMEM, "out of memory for the %d x %d game's LP "
                    "tableau", m, n);
    goto done;
  }
  /* (1) the tableau of max 1'w, M w + s = 1, basis the slacks */
  for (i = 0; i < m * n; i++) amin = fmin(amin, G->A[i]);
  memset(T, 0, sizeof *T * (size_t)(m + 1) * W);
  for (i = 0; i < m; i++) {
    for (j = 0; j < n; j++) T[(size_t)i * W + j] = G->A[(size_t)i * n + j]
                                                 - amin + 1;
    T[(size_t)i * W + n + i] = 1;
    T[(size_t)i * W + W - 1] = 1;
    basis[i] = n + i;
  }
  for (j = 0; j < n; j++) T[(size_t)m * W + j] = -1;
  /* (2) pivot until no reduced cost is negative */
  for (it = 0;; it++) {
    double *o = T + (size_t)m * W, best = -LP_PIVTOL, ratio = INFINITY;
    int col = -1, row = -1;
    if (it >= maxit) {
      rc = ol_err_set(e, OL_ENUMERIC, "the minimax LP did not finish in "
                      "%ld pivots", maxit);
      goto done;
    }
    if ((it & 63) == 63 && ol_interrupted()) {
      rc = ol_err_set(e, OL_EINTR, "interrupted while solving the minimax "
                      "LP");
      goto done;
    }
    for (j = 0; j < W - 1; j++)
      if (o[j] < best) {
        col = j;
        if (bland) break;
        best = o[j];
      }
    if (col < 0) break;
    for (i = 0; i < m; i++) {
      double a = T[(size_t)i * W + col], r;
      if (a <= LP_PIVTOL) continue;
      r = T[(size_t)i * W + W - 1] / a;
      if (r < ratio || (r == ratio && basis[i] < basis[row])) {
        ratio = r;
        row = i;
      }
    }
    if (row < 0) {   /* cannot happen: M > 0 bounds every column */
      rc = ol_err_set(e, OL_ENUMERIC, "the minimax LP is unbounded");
      goto done;
    }
    {
      double piv = T[(size_t)row * W + col], *pr = T + (size_t)row * W;
      for (j = 0; j < W; j++) pr[j] /= piv;
      for (i = 0; i <= m; i++) {
        double f = T[(size_t)i * W + col], *ri = T + (size_t)i * W;
        if (i == row || f == 0) continue;
        for (j = 0; j < W; j++) ri[j] -= f * pr[j];
      }
      basis[row] = col;
    }
    stall = T[(size_t)m * W + W - 1] > obj ? 0 : stall + 1;
    obj = T[(size_t)m * W + W - 1];
    bland = stall >= 50;
  }
  /* (3) y from w, x from the slacks' reduced costs, both over 1'w */
  memset(z, 0, sizeof *z * (size_t)(m + n));
  for (i = 0; i < m; i++)
    if (basis[i] < n) z[m + basis[i]] = fmax(T[(size_t)i * W + W - 1], 0);
  for (j = 0; j < n; j++) sum += z[m + j];
  for (j = 0; j < n; j++) z[m + j] /= sum;
  sum = 0;
  for (i = 0; i < m; i++) sum += z[i] = fmax(T[(size_t)m * W + n + i], 0);
  for (i = 0; i < m; i++) z[i] /= sum;
  /* (4) polish on the supports; keep the better */
  brcheck(G, z, tol, zp + m + n, &g1, &g2, &c1, &c2);
  if (polish(G, z, tol, zp, e) == 0) {
    brcheck(G, zp, tol, zp + m + n, &gp1, &gp2, &c1, &c2);
    if (gp1 + gp2 <= g1 + g2) memcpy(z, zp, sizeof *z * (size_t)(m + n));
  }
  *value = ol_game_value(G, z);
done:
  free(T);
  free(basis);
  free(zp);
  return rc;
}

int ol_game_solve (ol_problem *p, ol_err *e)
{
  ol_game *G = p->ud;
  int m = G->rows, n = G->cols, N = m + n, rc;
  double tol = 1e-10 * (1 + G->amax), v;
  free(G->eq);
  G->eq = NULL;
  G->neq = 0;
  G->degenerate = 0;
  if (choose(N, m) <= OL_NASH_MAXPAIRS) {
    if ((rc = enumerate(G, tol, e)) != OL_OK) return rc;
  }
  else if (G->zerosum && (double)m * n <= OL_NASH_MAXLP) {
    if ((G->eq = malloc(sizeof *G->eq * (size_t)N)) == NULL)
      return ol_err_set(e, OL_ENOMEM, "out of memory");
    if ((rc = ol_game_minimax(G, G->eq, &v, e)) != OL_OK) return rc;
    G->neq = 1;
  }
  else return OL_OK;
  /* the value: zero-sum, the same at every equilibrium; general-sum, the
  ** row player's at the one equilibrium when there is one */
  if (G->neq > 0 && (G->zerosum || G->neq == 1))
    p->fstar = ol_game_value(G, G->eq);
  if (G->neq == 1) {
    if ((p->xstar = ol_problem_alloc(N, e)) == NULL) return OL_ENOMEM;
    memcpy(p->xstar, G->eq, sizeof *G->eq * (size_t)N);
  }
  return OL_OK;
}
