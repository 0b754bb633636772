/*
** tests/c/t_bcd.c -- bcd's greedy block rules (gsd, gsq), variable blocks
** and Newton blocks (Nutini, Laradji & Schmidt 2022).
**
** Every problem is a dense quadratic f = 1/2 x'Hx - b'x (+ lambda ||x||_1)
** written here with its exact Hessian; the truth is independent of bcd:
** x* = H^-1 b solved here by Cholesky, or, for the lasso, x* planted by
** its optimality conditions (b = H x* + lambda s with s_i = sign(x*_i) on
** the support and |s_i| < 1 off it, so x* is the unique minimiser).
** (1) The block each rule picks, to the index, from x0 = 0 (g = -b) on a
**     block-diagonal instance whose four fixed blocks of 2 are picked by
**     gs, gsl, gsd and gsq in turn, and on a 4-coordinate instance whose
**     variable blocks of 2 differ for all four rules (the scores by hand
**     in the comments).
** (2) One Newton block step zeroes the block's gradient (to 1e-12) on a
**     coupled quadratic; with bs = n one Newton step lands on x* (1e-12).
** (3) A lasso: the prox-Newton blocks identify the support (the last sign
**     change of the iterate) and then reach x* to 1e-12 within a few
**     more steps (finite termination), while proximal gradient blocks
**     are still > 1e-6 away at that iteration count; counts printed.
** (4) Seeds 1..3 of a quadratic with coordinate curvatures spread over
**     two decades: steps to ||x - x*|| < 1e-8 of gsq with Newton blocks
**     and of gsd / gsl with gradient blocks, fixed blocks of 4, and of
**     variable blocks of 4 (gsq Newton, gsd gradient) are no more than
**     random's and cyclic's (fixed blocks of 4) with the same update (the
**     margin: "no more", ratio <= 1).
** (5) Bad options are refused with a message naming the valid ones.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "olt.h"
#include "problem.h"
#include "rng.h"
#include "run.h"
#include "tap.h"

#define NMAX 24

typedef struct dq {
  int n;
  double H[NMAX * NMAX], b[NMAX];
} dq;

static int dq_fdf (void *ud, const double *x, double *f, double *g,
                   ol_err *e)
{
  const dq *q = ud;
  double v = 0;
  int i, j;
  (void)e;
  for (i = 0; i < q->n; i++) {
    double hx = 0;
    for (j = 0; j < q->n; j++) hx += q->H[i * q->n + j] * x[j];
    v += 0.5 * x[i] * hx - q->b[i] * x[i];
    if (g != NULL) g[i] = hx - q->b[i];
  }
  if (f != NULL) *f = v;
  return OL_OK;
}

static int dq_hess (void *ud, const double *x, double *H, ol_err *e)
{
  const dq *q = ud;
  (void)x;
  (void)e;
  memcpy(H, q->H, sizeof(double) * q->n * q->n);
  return OL_OK;
}

/* The problem of q (copied), x0 = 0, l1 = lambda, x* = xs (copied). */
static ol_problem *dense (const dq *q, double lambda, const double *xs)
{
  dq *c = malloc(sizeof *c);
  ol_problem *p;
  ol_err e;
  if (c == NULL) return NULL;
  *c = *q;
  p = ol_problem_custom(q->n, dq_fdf, 0, c, free, &e);
  if (p == NULL) {
    free(c);
    diag("dense: %s", e.msg);
    return NULL;
  }
  if (ol_problem_set_hess(p, dq_hess, &e) != OL_OK ||
      (p->xstar = ol_problem_alloc(q->n, &e)) == NULL) {
    diag("dense: %s", e.msg);
    ol_problem_free(p);
    return NULL;
  }
  p->l1 = lambda;
  memcpy(p->xstar, xs, sizeof(double) * q->n);
  memset(p->x0, 0, sizeof(double) * q->n);
  return p;
}

/* x = H^-1 b by Cholesky (H positive definite), written out. */
static void chol_solve (const dq *q, double *x)
{
  int n = q->n, i, j, k;
  double Lm[NMAX * NMAX];
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++) {
      double s = q->H[i * n + j];
      for (k = 0; k < j; k++) s -= Lm[i * n + k] * Lm[j * n + k];
      Lm[i * n + j] = i == j ? sqrt(s) : s / Lm[j * n + j];
    }
  for (i = 0; i < n; i++) {
    double s = q->b[i];
    for (k = 0; k < i; k++) s -= Lm[i * n + k] * x[k];
    x[i] = s / Lm[i * n + i];
  }
  for (i = n - 1; i >= 0; i--) {
    double s = x[i];
    for (k = i + 1; k < n; k++) s -= Lm[k * n + i] * x[k];
    x[i] = s / Lm[i * n + i];
  }
}

static ol_run *start (const ol_problem *p, const double *par, long iters,
                      unsigned seed)
{
  ol_run_opts o = olt_opts(iters, 0, OL_MSET_OF(OL_MET_LOSS));
  o.seed = seed;
  return olt_run(p, ol_method_find("bcd"), par, &o);
}

static double dist (const ol_problem *p, const double *x)
{
  double s = 0;
  int i;
  for (i = 0; i < p->n; i++)
    s += (x[i] - p->xstar[i]) * (x[i] - p->xstar[i]);
  return sqrt(s);
}

/* The coordinates bcd's first step moves, as a bit mask (-1 on failure). */
static long first_block (const ol_problem *p, const double *par)
{
  ol_run *r = start(p, par, 10, 1);
  long mask = 0;
  int i;
  if (r == NULL || ol_run_advance(r, 1) != 1) {
    ol_run_free(r);
    return -1;
  }
  for (i = 0; i < p->n; i++)
    if (ol_run_x(r)[i] != p->x0[i]) mask |= 1L << i;
  ol_run_free(r);
  return mask;
}

/* Steps until dist < tol (-1 within budget). */
static long steps_to (const ol_problem *p, const double *par, double tol,
                      long budget, unsigned seed)
{
  ol_run *r = start(p, par, budget, seed);
  long t;
  for (t = 0; r != NULL && t <= budget; t++) {
    if (dist(p, ol_run_x(r)) < tol) {
      ol_run_free(r);
      return t;
    }
    if (t < budget && ol_run_advance(r, 1) != 1) break;
  }
  ol_run_free(r);
  return -1;
}

/* == (1) the rules' choices by hand ======================================= */

static void test_choices (void)
{
  /* Fixed blocks of 2, block-diagonal H, g = -b at x0 = 0:
  **   block 0 {0,1}: H = [1 .9; .9 1], g = (1, -1): ||g||^2 = 2, L = 1.9,
  **     ||g||^2/L = 1.053, D = (1.9, 1.9): 1.053, g'H^-1 g = 2/0.1 = 20
  **   block 1 {2,3}: H = diag(100, 1), g = (0, 1.2): 1.44, L = 100: 0.0144,
  **     D = (100, 1): 1.44, g'H^-1 g = 1.44
  **   block 2 {4,5}: H = diag(.5, .5), g = (.8, 0): 0.64, 1.28, 1.28, 1.28
  **   block 3 {6,7}: H = diag(10, 10), g = (1.2, 1): 2.44, .244, .244, .244
  ** so gs picks block 3, gsl block 2, gsd block 1, gsq block 0; the test
  ** sees the coordinates the first step moves (those with g_i != 0). */
  static const double gf[8] = {1, -1, 0, 1.2, 0.8, 0, 1.2, 1};
  static const double hd[8] = {1, 1, 100, 1, 0.5, 0.5, 10, 10};
  static const char *const names[4] = {"gs", "gsl", "gsd", "gsq"};
  static const long want[4] = {0xc0, 0x10, 0x08, 0x03};
  /* variable blocks of 2 on n = 4: H = [1 .9 0 0; .9 1 0 0; 0 0 1 0;
  ** 0 0 0 2], g = (1, 1, .9, 1.2):
  **   gs  g^2 = (1, 1, .81, 1.44)                        -> {0, 3}
  **   gsl g^2/H_ii = (1, 1, .81, .72)                    -> {0, 1}
  **   gsd g^2/D_i, D = (1.9, 1.9, 1, 2): (.53, .53, .81, .72) -> {2, 3}
  **   gsq forward selection: 0 first (1, tie with 1 to the lower index),
  **       then the gains (g_j - l y)^2 / delta given {0}: j = 1:
  **       (1 - .9)^2 / .19 = .053, j = 2: .81, j = 3: .72  -> {0, 2}
  **       (g_S'H_SS^-1 g_S = 1.81, the best pair here; {0, 1} has 1.05) */
  static const double gv[4] = {1, 1, 0.9, 1.2};
  static const long wantv[4] = {0x9, 0x3, 0xc, 0x5};
  dq q;
  double par[8], xs[8];
  ol_problem *p;
  int i, j;
  memset(&q, 0, sizeof q);
  q.n = 8;
  for (i = 0; i < 8; i++) {
    q.H[i * 8 + i] = hd[i];
    q.b[i] = -gf[i];
  }
  q.H[1] = q.H[8] = 0.9;
  chol_solve(&q, xs);
  p = dense(&q, 0, xs);
  for (j = 0; j < 4; j++) {
    long got;
    olt_method("bcd", par, "rule", (double)(j + 2), "bs", 2.0, (char *)NULL);
    got = p != NULL ? first_block(p, par) : -1;
    ok(got == want[j], "bcd: %s picks fixed block %d (coordinates mask "
       "0x%lx, want 0x%lx)", names[j], 3 - j, got, want[j]);
  }
  /* with Newton blocks the choice is the same and, H block-diagonal, the
  ** picked block lands on x*_b exactly */
  olt_method("bcd", par, "rule", 5.0, "bs", 2.0, "update", 1.0,
             (char *)NULL);
  {
    ol_run *r = p != NULL ? start(p, par, 10, 1) : NULL;
    const double *x1 = r != NULL && ol_run_advance(r, 1) == 1
      ? ol_run_x(r) : NULL;
    ok(x1 != NULL && fabs(x1[0] - xs[0]) <= 1e-14 * fabs(xs[0]) &&
       fabs(x1[1] - xs[1]) <= 1e-14 * fabs(xs[1]) && x1[3] == 0,
       "bcd: gsq with a Newton block solves block 0 exactly (x_0 = %.17g, "
       "x*_0 = %g)", x1 != NULL ? x1[0] : NAN, xs[0]);
    ol_run_free(r);
  }
  ol_problem_free(p);

  memset(&q, 0, sizeof q);
  q.n = 4;
  q.H[0] = q.H[5] = q.H[10] = 1;
  q.H[15] = 2;
  q.H[1] = q.H[4] = 0.9;
  for (i = 0; i < 4; i++) q.b[i] = -gv[i];
  chol_solve(&q, xs);
  p = dense(&q, 0, xs);
  for (j = 0; j < 4; j++) {
    long got;
    olt_method("bcd", par, "rule", (double)(j + 2), "bs", 2.0, "blocks", 1.0,
               (char *)NULL);
    got = p != NULL ? first_block(p, par) : -1;
    ok(got == wantv[j], "bcd: %s picks the variable block mask 0x%lx (want "
       "0x%lx)", names[j], got, wantv[j]);
  }
  /* a random variable block has bs distinct coordinates */
  olt_method("bcd", par, "rule", 0.0, "bs", 3.0, "blocks", 1.0, (char *)NULL);
  {
    long got = p != NULL ? first_block(p, par) : -1;
    int bits = 0;
    for (i = 0; i < 4; i++) bits += got >= 0 && (got >> i & 1);
    ok(bits == 3, "bcd: a random variable block moves 3 distinct "
       "coordinates (mask 0x%lx)", got);
  }
  ol_problem_free(p);
}

/* == (2) Newton blocks ===================================================== */

/* A coupled quadratic: H = W K W, K_ij = rho^|i-j|, w_i = 10^(u_i / 2),
** u_i uniform in [-1, 1] (seeded): the coordinate curvatures H_ii = w_i^2
** spread over two decades; b Gaussian. */
static void coupled (dq *q, int n, double rho, unsigned seed)
{
  ol_rng g;
  double w[NMAX];
  int i, j;
  ol_rng_seed(&g, seed, 0);
  memset(q, 0, sizeof *q);
  q->n = n;
  for (i = 0; i < n; i++) w[i] = pow(10, ol_rng_uniform(&g) - 0.5);
  for (i = 0; i < n; i++) {
    q->b[i] = ol_rng_normal(&g);
    for (j = 0; j < n; j++)
      q->H[i * n + j] = w[i] * w[j] * pow(rho, abs(i - j));
  }
}

static void test_newton (void)
{
  dq q;
  double par[8], xs[NMAX], g[NMAX];
  ol_problem *p;
  ol_run *r;
  ol_err e;
  double gb = NAN, d = NAN;
  int i;
  coupled(&q, 12, 0.6, 7);
  chol_solve(&q, xs);
  p = dense(&q, 0, xs);
  /* (a) cyclic, blocks of 4, Newton: block 0's gradient after step 1 */
  olt_method("bcd", par, "rule", 1.0, "bs", 4.0, "update", 1.0,
             (char *)NULL);
  r = p != NULL ? start(p, par, 10, 1) : NULL;
  if (r != NULL && ol_run_advance(r, 1) == 1 &&
      p->fdf(p->ud, ol_run_x(r), NULL, g, &e) == OL_OK) {
    gb = 0;
    for (i = 0; i < 4; i++) gb = fmax(gb, fabs(g[i]));
  }
  ok(gb <= 1e-12, "bcd: a Newton block step zeroes the block gradient "
     "(max |g_b| = %.2g <= 1e-12; |g(x0)|_inf = %.3g)", gb,
     fabs(q.b[0]) > fabs(q.b[1]) ? fabs(q.b[0]) : fabs(q.b[1]));
  ol_run_free(r);
  /* (b) bs = n: one Newton step is Newton's method: x1 = x* */
  olt_method("bcd", par, "bs", 12.0, "update", 1.0, (char *)NULL);
  r = p != NULL ? start(p, par, 10, 1) : NULL;
  if (r != NULL && ol_run_advance(r, 1) == 1) d = dist(p, ol_run_x(r));
  ok(d <= 1e-12 * (1 + dist(p, p->x0)), "bcd: with bs = n one Newton step "
     "reaches x* (||x1 - x*|| = %.2g, ||x*|| = %.3g)", d, dist(p, p->x0));
  ol_run_free(r);
  ol_problem_free(p);
}

/* == (3) lasso: identification, then finite termination ==================== */

/* Runs bcd on p for up to T steps: the last step at which the sign
** pattern changed (*ident), and the first step with dist <= 1e-12 (-1). */
static long lasso_run (const ol_problem *p, const double *par, long T,
                       long *ident, double *dT)
{
  ol_run *r = start(p, par, T, 1);
  long t, hit = -1;
  int i, sg[NMAX] = {0};
  *ident = 0;
  *dT = NAN;
  for (t = 1; r != NULL && t <= T; t++) {
    const double *x;
    if (ol_run_advance(r, 1) != 1) break;
    x = ol_run_x(r);
    for (i = 0; i < p->n; i++) {
      int s = (x[i] > 0) - (x[i] < 0);
      if (s != sg[i]) *ident = t;
      sg[i] = s;
    }
    *dT = dist(p, x);
    if (hit < 0 && *dT <= 1e-12) hit = t;
  }
  ol_run_free(r);
  return hit;
}

static void test_lasso (void)
{
  /* n = 16, support {1, 4, 7, 10, 13}; off the support s_i = 0.7 sin(i) */
  static const int sup[5] = {1, 4, 7, 10, 13};
  static const double val[5] = {1.5, -2, 0.7, -1, 0.4};
  double lam = 0.3, xs[NMAX] = {0}, par[8], dT, dG;
  long ident, hit, identg, T = 400;
  dq q;
  ol_problem *p;
  int i, j, onsup[NMAX] = {0};
  coupled(&q, 16, 0.5, 11);
  for (i = 0; i < 5; i++) {
    xs[sup[i]] = val[i];
    onsup[sup[i]] = 1;
  }
  for (i = 0; i < 16; i++) {
    double hx = 0;
    for (j = 0; j < 16; j++) hx += q.H[i * 16 + j] * xs[j];
    q.b[i] = hx + lam * (onsup[i] ? (xs[i] > 0 ? 1 : -1) : 0.7 * sin(i));
  }
  p = dense(&q, lam, xs);
  if (p == NULL) {
    ok(0, "bcd: lasso problem");
    return;
  }
  /* gs variable blocks of 6 >= the 5 active coordinates, prox-Newton */
  olt_method("bcd", par, "rule", 2.0, "bs", 6.0, "blocks", 1.0, "update",
             1.0, (char *)NULL);
  hit = lasso_run(p, par, T, &ident, &dT);
  olt_method("bcd", par, "rule", 2.0, "bs", 6.0, "blocks", 1.0,
             (char *)NULL);
  lasso_run(p, par, hit > 0 ? hit : T, &identg, &dG);
  diag("bcd lasso (n = 16, 5 active, lambda = %g): Newton blocks: sign "
       "pattern final from step %ld, ||x - x*|| <= 1e-12 at step %ld "
       "(%.2g at %ld); gradient blocks at step %ld: ||x - x*|| = %.2g "
       "(signs final from %ld)", lam, ident, hit, dT, T,
       hit > 0 ? hit : T, dG, identg);
  ok(hit > 0 && hit <= ident + 2 && dT <= 1e-12,
     "bcd: prox-Newton variable gs blocks identify the active set (step "
     "%ld) and reach x* to 1e-12 within 2 more steps (step %ld), staying "
     "there (%.2g at step %ld)", ident, hit, dT, T);
  ok(hit > 0 && dG > 1e-6, "bcd: proximal gradient blocks are still %.2g "
     "> 1e-6 from x* after the same %ld steps", dG, hit);
  /* one fixed block of n: prox-gradient then Newton on the nonzeros */
  olt_method("bcd", par, "bs", 16.0, "update", 1.0, (char *)NULL);
  hit = lasso_run(p, par, 100, &ident, &dT);
  diag("bcd lasso, bs = n: signs final from step %ld, x* to 1e-12 at step "
       "%ld", ident, hit);
  ok(hit > 0 && hit <= ident + 1 && dT <= 1e-12, "bcd: one block of n "
     "with prox-Newton terminates at x* (step %ld, signs final at %ld)",
     hit, ident);
  ol_problem_free(p);
}

/* == (4) greedy vs random and cyclic ======================================= */

static void test_race (void)
{
  static const char *const rn[6] = {"random", "cyclic", "gs", "gsl", "gsd",
                                    "gsq"};
  unsigned seed;
  int allgood = 1;
  for (seed = 1; seed <= 3; seed++) {
    dq q;
    double par[8], xs[NMAX];
    long kn[6], kg[6], kv[2];
    ol_problem *p;
    int j;
    coupled(&q, 20, 0.5, seed);
    chol_solve(&q, xs);
    p = dense(&q, 0, xs);
    for (j = 0; j < 6; j++) {
      olt_method("bcd", par, "rule", (double)j, "bs", 4.0, "update", 1.0,
                 (char *)NULL);
      kn[j] = p != NULL ? steps_to(p, par, 1e-8, 100000, seed) : -1;
      olt_method("bcd", par, "rule", (double)j, "bs", 4.0, (char *)NULL);
      kg[j] = p != NULL ? steps_to(p, par, 1e-8, 200000, seed) : -1;
    }
    diag("bcd seed %u, steps to 1e-8, blocks of 4: Newton: random %ld, "
         "cyclic %ld, gs %ld, gsl %ld, gsd %ld, gsq %ld; gradient: random "
         "%ld, cyclic %ld, gs %ld, gsl %ld, gsd %ld, gsq %ld", seed, kn[0],
         kn[1], kn[2], kn[3], kn[4], kn[5], kg[0], kg[1], kg[2], kg[3],
         kg[4], kg[5]);
    for (j = 0; j < 6; j++)
      if (kn[j] < 0 || kg[j] < 0) {
        allgood = 0;
        diag("bcd seed %u: %s did not reach 1e-8", seed, rn[j]);
      }
    ok(kn[5] >= 0 && kn[5] <= kn[0] && kn[5] <= kn[1], "bcd seed %u: gsq "
       "with Newton blocks needs no more steps than random and cyclic "
       "(%ld vs %ld, %ld)", seed, kn[5], kn[0], kn[1]);
    ok(kg[4] >= 0 && kg[4] <= kg[0] && kg[4] <= kg[1], "bcd seed %u: gsd "
       "with gradient blocks needs no more steps than random and cyclic "
       "(%ld vs %ld, %ld)", seed, kg[4], kg[0], kg[1]);
    ok(kg[3] >= 0 && kg[3] <= kg[0] && kg[3] <= kg[1], "bcd seed %u: gsl "
       "with gradient blocks needs no more steps than random and cyclic "
       "(%ld vs %ld, %ld)", seed, kg[3], kg[0], kg[1]);
    /* variable greedy blocks of 4: gsq with Newton, gsd with gradient */
    olt_method("bcd", par, "rule", 5.0, "bs", 4.0, "blocks", 1.0, "update",
               1.0, (char *)NULL);
    kv[0] = p != NULL ? steps_to(p, par, 1e-8, 100000, seed) : -1;
    olt_method("bcd", par, "rule", 4.0, "bs", 4.0, "blocks", 1.0,
               (char *)NULL);
    kv[1] = p != NULL ? steps_to(p, par, 1e-8, 200000, seed) : -1;
    ok(kv[0] >= 0 && kv[0] <= kn[0] && kv[0] <= kn[1], "bcd seed %u: "
       "variable gsq Newton blocks need no more steps than random and "
       "cyclic Newton blocks (%ld vs %ld, %ld)", seed, kv[0], kn[0], kn[1]);
    ok(kv[1] >= 0 && kv[1] <= kg[0] && kv[1] <= kg[1], "bcd seed %u: "
       "variable gsd gradient blocks need no more steps than random and "
       "cyclic gradient blocks (%ld vs %ld, %ld)", seed, kv[1], kg[0],
       kg[1]);
    ol_problem_free(p);
  }
  ok(allgood, "bcd: every rule and update reaches 1e-8 on seeds 1..3");
}

/* == (5) refusals ========================================================== */

static void test_refusals (void)
{
  ol_problem *p = olt_quadratic(6, 10, 1);
  double par[8];
  ol_err e;
  ol_run *r;
  ol_run_opts o = olt_opts(5, 0, OL_MSET_OF(OL_MET_LOSS));
  olt_method("bcd", par, "rule", 1.0, "blocks", 1.0, (char *)NULL);
  r = ol_run_new(p, ol_method_find("bcd"), par, &o, &e);
  ok(r == NULL && strstr(e.msg, "\"gsq\"") != NULL &&
     strstr(e.msg, "cyclic") != NULL, "bcd: cyclic with variable blocks is "
     "refused, naming the rules it takes: %s", r == NULL ? e.msg : "ran");
  ol_run_free(r);
  olt_method("bcd", par, "update", 1.0, "lr", 0.1, (char *)NULL);
  r = ol_run_new(p, ol_method_find("bcd"), par, &o, &e);
  ok(r == NULL && strstr(e.msg, "lr = 0") != NULL, "bcd: lr > 0 with "
     "Newton blocks is refused: %s", r == NULL ? e.msg : "ran");
  ol_run_free(r);
  ol_problem_free(p);
}

int main (void)
{
  test_choices();
  test_newton();
  test_lasso();
  test_race();
  test_refusals();
  return done();
}
