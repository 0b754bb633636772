/*
** core/optim/bcd.c -- block coordinate descent: random, cyclic and the
** greedy Gauss-Southwell family of block selection rules, fixed or
** variable blocks, gradient or Newton block updates.
**
** References: Nesterov 2012, SIAM J. Optim. 22(2), "Efficiency of
** coordinate descent methods on huge-scale optimization problems" (RCDM
** with alpha = 0: uniform block, step 1/L_b); Nutini, Laradji & Schmidt
** 2022, JMLR 23(131), "Let's make block coordinate descent converge
** faster" (arXiv 1712.08859): the block GS, GS-Lipschitz, GS-Diagonal and
** GS-Quadratic rules (their section 3, "improved greedy rules"), variable
** blocks (section 4, "practical issues"), matrix and Newton block updates
** (sections 2 and 5) and the proximal variants with active-set
** identification and superlinear / finite convergence (section 6); the
** proximal GS-q rule is Nutini et al. 2015, ICML, "Coordinate descent
** converges faster with the Gauss-Southwell rule than random selection".
** Only the paper's abstract and introduction could be read here: the
** rule names are the paper's, the section pointers above are unverified
** recollections of its layout, and no equation numbers are cited; the
** rule formulas follow the authors' public code (its fixed- and
** variable-block selection rules) and the standard forms below.
** Message passing for huge sparse blocks (section 5) is not implemented:
** Newton blocks are solved densely by LAPACK.
**
** Blocks.  blocks = "fixed": x is cut into nb = ceil(n / bs) contiguous
** blocks of bs coordinates (the last may be shorter).  blocks =
** "variable": each step forms a new block of bs coordinates chosen by the
** rule from all n (random: a uniform subset; greedy: the bs best scores).
** One step updates ONE block b_t.
**
** Selection (G_b the block's gradient mapping, below; H0 the Hessian
** TAKEN ONCE AT x0, exact for quadratics, the paper's Lipschitz matrix):
**   random  b_t uniform on 0..nb-1 (the run's generator)
**   cyclic  b_t = t mod nb                     (fixed blocks only)
**   gs      b_t = argmax_b ||G_b||^2
**   gsl     b_t = argmax_b ||G_b||^2 / L_b
**   gsd     b_t = argmax_b sum_{i in b} G_i^2 / D_i, D_i = sum_{j in b}
**           |H0_ij| (all j for variable blocks), so H0_bb <= diag(D_b) for
**           every admissible block (diag(D_b) - H0_bb is diagonally
**           dominant): the Gauss-Southwell-Diagonal rule
**   gsq     b_t = argmax_b g_b' (H0_bb)^-1 g_b, twice the decrease of the
**           exact quadratic-model (matrix / Newton) block step: the
**           Gauss-Southwell-Quadratic rule; on a quadratic it picks the
**           block whose exact minimisation lowers f most.  With an l1
**           term it is the proximal GS-q rule with the scalar L_b:
**           argmax_b -min_d {g_b'd + L_b/2 ||d||^2 + l1 (||x_b + d||_1 -
**           ||x_b||_1)} (the matrix form would need a lasso per block).
** Variable greedy blocks take the bs largest coordinate scores G_i^2
** (gs), G_i^2 / H0_ii (gsl), G_i^2 / D_i (gsd), with G_i the coordinate's
** gradient mapping at step sched / H0_ii.  Variable gsq with l1 = 0 is
** combinatorial (the paper approximates it); here it is built by greedy
** forward selection: starting empty, add the coordinate that raises
** g_S' (H0_SS)^-1 g_S most (a rank-one Cholesky update per candidate),
** bs times; with an l1 term, the bs largest coordinate GS-q scores at
** step sched / D_i.
** Ties go to the lower index.
**
** Updates.  update = "gradient":
**   x_b <- S(x_b - a grad_b f(x), a l1),  a = sched_t lr    (lr > 0)
**                                         a = sched_t / L_b (lr = 0)
** S is soft thresholding for F = f + l1 ||x||_1 (identity when p->l1 = 0)
** and G_b = (x_b - S(x_b - a grad_b f, a l1)) / a the block's gradient
** mapping, = grad_b f when l1 = 0 (the GS-r form of Nutini et al. for the
** composite case).  Like gd, bcd ignores a constraint set.
** L_b, the block Lipschitz constant, is lambda_max of H0_bb (the
** Hessian's diagonal entry H_ii when bs = 1), by LAPACKE dsyev; not the
** block's largest diagonal entry, since 1/max_i H_ii can exceed 2/L_b and
** diverge once bs >= 3 on a non-diagonal block.  Fixed blocks compute it
** once per block in init, variable blocks for each block formed.  With
** lr = 0 each block step is safeguarded by backtracking on the descent
** lemma (Nesterov 2012, the adaptive variant; Beck & Teboulle 2009 for the
** proximal form):
**   accept x_b' when f(x') <= f(x) + g_b'(x_b' - x_b) + L_b/2 ||x_b' - x_b||^2,
**   else L_b <- 2 L_b and retry (kept for later steps; for variable blocks
**   a factor kept for all blocks),
** so a curvature taken at x0 that underestimates the block's Lipschitz
** constant elsewhere (smoothabs) cannot make bcd diverge; without a
** Hessian, or where H_bb is not positive at x0, L_b starts at 1 and the
** backtracking finds it.  With lr > 0 every L_b = 1/lr and there is no
** safeguard (the textbook fixed-step method); gsl then selects as gs.
** gsd, gsq, variable and Newton blocks use the problem's Hessian, or
** without one central differences of the gradient (ol_ctx_hess, 2n
** gradients a Hessian: once in init, and every step for Newton blocks).
** update = "newton" (lr must be 0):
**   l1 = 0: d = -(H_bb)^-1 grad_b f at the CURRENT x (LAPACKE dposv),
**           x_b <- x_b + t d, t = sched_t halved until Armijo
**           f(x') <= f(x) + 1e-4 t g_b'd holds; where H_bb is not
**           positive definite the step falls back to the gradient update.
**   l1 > 0: prox-Newton on the identified manifold: first the proximal
**           gradient step above gives z (it sets coordinates to zero and
**           frees them); then on the block's nonzero coordinates S with
**           signs s = sign(z_S), where F is smooth, the Newton step of
**           f + l1 s'x: y_S = z_S - (H_SS(z))^-1 (grad_S f(z) + l1 s),
**           entries whose sign flips set to 0 (orthant projection);
**           y is kept when F(y) <= F(z), else z.  The exact block
**           prox-Newton step (a lasso in the block) is not computed.
**           Once z carries x*'s signs on the block (finite active-set
**           identification) the step is the exact minimiser on that
**           manifold, so on a lasso with a block covering the support it
**           lands on x* (finite termination, section 6).
** Cost: the engine has no partial-gradient oracle, so every step
** evaluates the FULL gradient (ngev counts one per block update): n / bs
** steps cost as many gradients as n / bs steps of gd, and the greedy rules
** would need it anyway.  Newton blocks add one Hessian a step (and with
** l1 a second gradient); variable gsq costs O(n bs^3) a step.
*/
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "penalty.h"
#include "vec.h"

enum { BCD_RANDOM, BCD_CYCLIC, BCD_GS, BCD_GSL, BCD_GSD, BCD_GSQ };

/* bcd_newton's answer when the block Hessian is not positive definite (not
** an OL_E* code: those are positive) */
#define BCD_NOTPD (-1)

typedef struct bcd_state {
  int rule, bs, nb, vb, newton;
  double lr;
  double *g;        /* full gradient, n */
  double *L;        /* L_b, nb */
  double *xb;       /* block backup for the backtracking, bs */
  /* owned, NULL unless the options need them */
  double *H0;       /* Hessian at x0, n x n (gsd, gsq, variable blocks) */
  double *D;        /* GS-Diagonal weights D_i, n */
  double *Q;        /* gsq, fixed blocks, l1 = 0: Cholesky factor of each
                       H0_bb, nb blocks of bs x bs (row-major, lower) */
  double *Hc;       /* newton: Hessian at the current point, n x n */
  double *A;        /* bs x bs workspace (dsyev, dposv, forward selection) */
  double *w;        /* 2 bs workspace */
  double *z;        /* newton with l1: gradient at z, n */
  double *sc;       /* variable blocks: coordinate scores, n */
  int *blk;         /* the step's block: coordinate indices, bs */
  int *perm;        /* variable random blocks: index permutation, n */
  int m;            /* coordinates in blk */
  double vscale;    /* variable blocks: backtracking factor on L_b */
} bcd_state;

static const ol_param bcd_params[] = {
  {"rule", OL_P_ENUM, BCD_RANDOM, 0, 0, "block selection rule",
   "random|cyclic|gs|gsl|gsd|gsq"},
  {"bs", OL_P_INT, 1, 1, 1e8, "block size (coordinates per block)", NULL},
  {"lr", OL_P_REAL, 0, 0, INFINITY,
   "step size; 0: 1/L_b, from the Hessian at x0 and backtracking", NULL},
  {"blocks", OL_P_ENUM, 0, 0, 0, "fixed contiguous blocks, or a variable "
   "block of bs coordinates chosen by the rule each step", "fixed|variable"},
  {"update", OL_P_ENUM, 0, 0, 0, "block update: (proximal) gradient step, "
   "or Newton on the block's Hessian (prox-Newton on the nonzeros with l1)",
   "gradient|newton"},
};

/* L_b = lambda_max(H_bb) for every block, H at c->x; work holds n*n + bs*bs
** doubles plus bs. */
static int block_lipschitz (bcd_state *s, ol_ctx *c, ol_err *e)
{
  int n = c->n, b, i, j, rc = OL_OK;
  size_t nn = (size_t)n * (size_t)n, bb = (size_t)s->bs * (size_t)s->bs;
  double *H = malloc(sizeof(double) * (nn + bb + (size_t)s->bs));
  double *A, *w;
  if (H == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory (bcd Hessian)");
  A = H + nn;
  w = A + bb;
  if ((rc = ol_ctx_hess(c, c->x, H, e)) != OL_OK) goto done;
  for (b = 0; b < s->nb; b++) {
    int lo = b * s->bs, m = n - lo < s->bs ? n - lo : s->bs, info;
    if (m == 1) {
      s->L[b] = H[(size_t)lo * n + lo];
      continue;
    }
    for (i = 0; i < m; i++)
      for (j = 0; j < m; j++) A[i * m + j] = H[(size_t)(lo + i) * n + lo + j];
    info = LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', m, A, m, w);
    if (info != 0) {
      rc = ol_err_set(e, OL_ENUMERIC, "bcd: eigenvalues of Hessian block "
                      "%d failed (dsyev info %d)", b + 1, info);
      goto done;
    }
    s->L[b] = w[m - 1];
  }
done:
  free(H);
  return rc;
}

/* A = H_SS (m x m, row-major) for the coordinates idx[0..m-1] of the n x n
** row-major H. */
static void gather (double *A, const double *H, int n, const int *idx, int m)
{
  int i, j;
  for (i = 0; i < m; i++)
    for (j = 0; j < m; j++) A[i * m + j] = H[(size_t)idx[i] * n + idx[j]];
}

/* lambda_max of H0 on the coordinates idx[0..m-1] (A, w: workspace); 0 when
** dsyev fails. */
static double block_lmax (bcd_state *s, int n, const int *idx, int m)
{
  if (m == 1) return s->H0[(size_t)idx[0] * n + idx[0]];
  gather(s->A, s->H0, n, idx, m);
  if (LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', m, s->A, m, s->w) != 0)
    return 0;
  return s->w[m - 1];
}

static int bcd_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  bcd_state *s = st;
  int n = c->n, b, i, j, rc;
  size_t nn = (size_t)n * (size_t)n;
  s->rule = (int)par[0];
  s->bs = par[1] < n ? (int)par[1] : n;
  s->lr = par[2];
  s->vb = (int)par[3];
  s->newton = (int)par[4];
  s->nb = (n + s->bs - 1) / s->bs;
  s->vscale = 1;
  /* (0) the options' ranges and what they need */
  if (s->vb && s->rule == BCD_CYCLIC)
    return ol_err_set(e, OL_EINVAL, "bcd: blocks = \"variable\" takes rule "
                      "= \"random\", \"gs\", \"gsl\", \"gsd\" or \"gsq\" "
                      "(cyclic walks the fixed blocks; use blocks = "
                      "\"fixed\")");
  if (s->newton && s->lr > 0)
    return ol_err_set(e, OL_EINVAL, "bcd: lr = %g applies to update = "
                      "\"gradient\"; Newton blocks step 1 (times the "
                      "schedule) with Armijo backtracking: leave lr = 0",
                      s->lr);
  if (s->newton && c->p->l1 > 0 && ol_penalty_of(c->p) != &ol_penalty_l1)
    return ol_err_set(e, OL_EINVAL, "bcd: update = \"newton\" with a "
                      "composite term takes penalty = \"l1\" (the Newton "
                      "step on the nonzeros does not model %s's curvature); "
                      "use update = \"gradient\"",
                      ol_penalty_of(c->p)->name);
  if ((s->g = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->L = ol_vec_new(s->nb, e)) == NULL) return OL_ENOMEM;
  if ((s->xb = ol_vec_new(s->bs, e)) == NULL) return OL_ENOMEM;
  if ((s->blk = malloc(sizeof(int) * (size_t)s->bs)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory (bcd block)");
  /* (1) block constants: 1/lr; or lambda_max(H_bb) at x0, 1 where that is
  ** not positive or there is no Hessian (the backtracking adapts them) */
  if (s->lr > 0)
    ol_vec_set(s->L, 1 / s->lr, s->nb);
  else if (c->p->hess != NULL) {
    if ((rc = block_lipschitz(s, c, e)) != OL_OK) return rc;
  } else
    ol_vec_set(s->L, 1, s->nb);
  for (b = 0; b < s->nb; b++)
    if (!(s->L[b] > 0)) s->L[b] = 1;
  if (!(s->newton || s->vb || s->rule >= BCD_GSD)) return OL_OK;
  /* (2) the new rules, variable and Newton blocks: H0 and workspaces
  ** (without p->hess, ol_ctx_hess differences the gradient: 2n gradients) */
  if ((s->A = ol_vec_new(s->bs * s->bs, e)) == NULL) return OL_ENOMEM;
  if ((s->w = ol_vec_new(2 * s->bs, e)) == NULL) return OL_ENOMEM;
  if ((s->H0 = malloc(sizeof(double) * nn)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory (bcd Hessian)");
  if ((rc = ol_ctx_hess(c, c->x, s->H0, e)) != OL_OK) return rc;
  if (s->newton) {
    if ((s->Hc = malloc(sizeof(double) * nn)) == NULL)
      return ol_err_set(e, OL_ENOMEM, "out of memory (bcd Hessian)");
    if ((s->z = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  }
  if (s->vb) {
    if ((s->sc = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
    if ((s->perm = malloc(sizeof(int) * (size_t)n)) == NULL)
      return ol_err_set(e, OL_ENOMEM, "out of memory (bcd block)");
    for (i = 0; i < n; i++) s->perm[i] = i;
  }
  /* (3) GS-Diagonal weights: D_i = sum_j |H0_ij| over i's fixed block, or
  ** over all j for variable blocks (a bound for any block containing i) */
  if ((s->D = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  for (i = 0; i < n; i++) {
    int lo = s->vb ? 0 : i / s->bs * s->bs;
    int hi = s->vb ? n : (lo + s->bs < n ? lo + s->bs : n);
    for (j = lo; j < hi; j++) s->D[i] += fabs(s->H0[(size_t)i * n + j]);
    if (!(s->D[i] > 0)) s->D[i] = 1;
  }
  /* (4) gsq on fixed blocks: factor each H0_bb once (the rule's metric) */
  if (s->rule == BCD_GSQ && !s->vb && !(c->p->l1 > 0)) {
    if ((s->Q = ol_vec_new(s->nb * s->bs * s->bs, e)) == NULL)
      return OL_ENOMEM;
    for (b = 0; b < s->nb; b++) {
      int lo = b * s->bs, m = n - lo < s->bs ? n - lo : s->bs, info;
      double *F = s->Q + (size_t)b * s->bs * s->bs;
      for (i = 0; i < m; i++) s->blk[i] = lo + i;
      gather(F, s->H0, n, s->blk, m);
      info = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', m, F, m);
      if (info != 0)
        return ol_err_set(e, OL_ENUMERIC, "bcd: rule = \"gsq\" needs a "
                          "positive definite Hessian block at x0; block %d "
                          "is not (dpotrf info %d): use rule = \"gsl\" or "
                          "\"gsd\"", b + 1, info);
    }
  }
  return OL_OK;
}

/* The penalty's prox of step a at v (soft threshold at a l1 for the l1
** norm; identity when l1 = 0). */
static double bcd_soft (const ol_ctx *c, double v, double a)
{
  return c->p->l1 > 0 ? ol_penalty_prox1(c->p, v, a) : v;
}

/* G_i, coordinate i's gradient mapping at step a (g_i when l1 = 0). */
static double bcd_gmap (const bcd_state *s, const ol_ctx *c, int i, double a)
{
  return a * c->p->l1 > 0
    ? (c->x[i] - bcd_soft(c, c->x[i] - a * s->g[i], a)) / a : s->g[i];
}

/* ||G_b||^2 of block b: the squared gradient mapping (x_b - S(x_b - a g_b,
** a l1)) / a, which is ||grad_b f||^2 when l1 = 0. */
static double bcd_score (const bcd_state *s, const ol_ctx *c, int b,
                         double a)
{
  int i, lo = b * s->bs, hi = lo + s->bs < c->n ? lo + s->bs : c->n;
  double v = 0, t = a * c->p->l1;
  for (i = lo; i < hi; i++) {
    double d = t > 0 ? (c->x[i] - bcd_soft(c, c->x[i] - a * s->g[i], a)) / a
      : s->g[i];
    v += d * d;
  }
  return v;
}

/* Coordinate i's proximal GS-q progress at step a: -(g_i d + d^2 / (2a) +
** phi(|x_i + d|) - phi(|x_i|)), d the prox step's displacement, phi the
** penalty (lambda t for l1); >= 0 up to rounding.  For l1, when x_i + d
** keeps x_i's sign the penalty's change is written lambda sign(x_i) d, not
** as a difference of two norms: near x* the progress is O(d^2) and the
** difference's rounding (1e-16 |x_i|) would swamp it, so the rule would
** stall on a block it cannot move. */
static double bcd_gsq1 (const bcd_state *s, const ol_ctx *c, int i, double a)
{
  const ol_penalty *pen = ol_penalty_of(c->p);
  double x = c->x[i], d = bcd_soft(c, x - a * s->g[i], a) - x;
  double l1 = c->p->l1, pa = c->p->pen_a, dphi;
  if (pen == &ol_penalty_l1)
    dphi = l1 * (x != 0 && (x + d) * x > 0 ? (x > 0 ? d : -d)
                 : fabs(x + d) - fabs(x));
  else
    dphi = pen->value(fabs(x + d), l1, pa) - pen->value(fabs(x), l1, pa);
  return -(d * (s->g[i] + d / (2 * a)) + dphi);
}

/* The score of fixed block b under the new rules (gsd, gsq). */
static double bcd_score_new (bcd_state *s, const ol_ctx *c, int b, double a)
{
  int i, m, lo = b * s->bs, hi = lo + s->bs < c->n ? lo + s->bs : c->n;
  double v = 0;
  m = hi - lo;
  if (s->rule == BCD_GSD) {
    for (i = lo; i < hi; i++) {
      double d = bcd_gmap(s, c, i, a);
      v += d * d / s->D[i];
    }
  } else if (c->p->l1 > 0) {
    for (i = lo; i < hi; i++) v += bcd_gsq1(s, c, i, a);
  } else {
    /* g_b' H0_bb^-1 g_b = ||Q^-1 g_b||^2, Q the lower Cholesky factor */
    const double *Q = s->Q + (size_t)b * s->bs * s->bs;
    double *y = s->w;
    int j;
    for (i = 0; i < m; i++) {
      double r = s->g[lo + i];
      for (j = 0; j < i; j++) r -= Q[i * m + j] * y[j];
      y[i] = r / Q[i * m + i];
      v += y[i] * y[i];
    }
  }
  return v;
}

/* Greedy forward selection of the variable gsq block (l1 = 0): S grows
** one coordinate at a time by the largest gain (g_j - l'y)^2 / delta in
** g_S' H0_SS^-1 g_S, with H0_SS = K K' (lower K kept in s->A, y = K^-1
** g_S in s->w, l = K^-1 H0_Sj in s->w + bs). */
static void bcd_forward (bcd_state *s, const ol_ctx *c)
{
  int n = c->n, bs = s->bs, k, i, j, q;
  double *K = s->A, *y = s->w, *l = s->w + bs;
  char *in = (char *)s->perm;   /* n ints of room; flags only */
  memset(in, 0, (size_t)n);
  for (k = 0; k < bs; k++) {
    int best = -1;
    double bgain = -1, bdelta = 0, by = 0;
    for (j = 0; j < n; j++) {
      double delta, r, gain;
      if (in[j]) continue;
      delta = s->H0[(size_t)j * n + j];
      r = s->g[j];
      for (i = 0; i < k; i++) {
        double v = s->H0[(size_t)s->blk[i] * n + j];
        for (q = 0; q < i; q++) v -= K[i * bs + q] * l[q];
        l[i] = v / K[i * bs + i];
        delta -= l[i] * l[i];
        r -= l[i] * y[i];
      }
      if (!(delta > 1e-14 * fabs(s->H0[(size_t)j * n + j]))) continue;
      gain = r * r / delta;
      if (gain > bgain) {
        bgain = gain;
        best = j;
        bdelta = delta;
        by = r;
      }
    }
    if (best < 0) break;
    /* append best: recompute its l into row k of K */
    for (i = 0; i < k; i++) {
      double v = s->H0[(size_t)s->blk[i] * n + best];
      for (q = 0; q < i; q++) v -= K[i * bs + q] * K[k * bs + q];
      K[k * bs + i] = v / K[i * bs + i];
    }
    K[k * bs + k] = sqrt(bdelta);
    y[k] = by / K[k * bs + k];
    s->blk[k] = best;
    in[best] = 1;
  }
  s->m = k;
  for (i = 0; i < n; i++) s->perm[i] = i;   /* restore the permutation */
}

/* Sort blk[0..m-1] ascending (insertion; m is small). */
static void sort_block (int *blk, int m)
{
  int i, j;
  for (i = 1; i < m; i++) {
    int v = blk[i];
    for (j = i; j > 0 && blk[j - 1] > v; j--) blk[j] = blk[j - 1];
    blk[j] = v;
  }
}

/* (2v) a variable block of bs coordinates into blk, m. */
static void bcd_select_variable (bcd_state *s, ol_ctx *c)
{
  int n = c->n, bs = s->bs, i, k, rule = s->rule;
  if (rule == BCD_GSQ && !(c->p->l1 > 0)) {
    bcd_forward(s, c);
    if (s->m > 0) {
      sort_block(s->blk, s->m);
      return;
    }
    rule = BCD_GS;   /* no H0_jj > 0 (a nonconvex x0): the gs scores */
  }
  if (rule == BCD_RANDOM) {
    /* a uniform bs-subset: partial Fisher-Yates on the kept permutation */
    for (k = 0; k < bs; k++) {
      int j = k + (int)ol_rng_below(c->rng, n - k);
      int t = s->perm[k];
      s->perm[k] = s->perm[j];
      s->perm[j] = t;
      s->blk[k] = s->perm[k];
    }
    s->m = bs;
  } else {
    for (i = 0; i < n; i++) {
      double Li = s->H0[(size_t)i * n + i];
      double a, d;
      if (!(Li > 0)) Li = 1;
      a = c->sched / Li;
      if (rule == BCD_GSQ) {
        s->sc[i] = bcd_gsq1(s, c, i, c->sched / s->D[i]);
        continue;
      }
      d = bcd_gmap(s, c, i, a);
      s->sc[i] = d * d / (rule == BCD_GSL ? Li
                          : rule == BCD_GSD ? s->D[i] : 1);
    }
    /* the bs largest scores, ties to the lower index; a taken coordinate
    ** is marked -HUGE_VAL (scores are finite, >= 0 up to rounding) */
    for (k = 0; k < bs; k++) {
      int best = -1;
      for (i = 0; i < n; i++)
        if (s->sc[i] != -HUGE_VAL && (best < 0 || s->sc[i] > s->sc[best]))
          best = i;
      s->blk[k] = best;
      s->sc[best] = -HUGE_VAL;
    }
    s->m = bs;
  }
  sort_block(s->blk, s->m);
}

/* (3) the (proximal) gradient step on blk with constant *Lb, backtracking
** on the descent lemma when lr = 0 (doubling *Lb, which the caller keeps). */
static int bcd_gradient (bcd_state *s, ol_ctx *c, double fx, double *Lb,
                         ol_err *e)
{
  int k, i, rc, tries;
  for (k = 0; k < s->m; k++) s->xb[k] = c->x[s->blk[k]];
  for (tries = 0;; tries++) {
    double lin = 0, sq = 0, fn, a = c->sched / *Lb;
    for (k = 0; k < s->m; k++) {
      double d;
      i = s->blk[k];
      c->x[i] = bcd_soft(c, s->xb[k] - a * s->g[i], a);
      d = c->x[i] - s->xb[k];
      lin += s->g[i] * d;
      sq += d * d;
    }
    if (s->lr > 0 || sq == 0) return OL_OK;
    /* lr = 0: sufficient decrease, else double L_b and retry */
    if ((rc = ol_ctx_value(c, c->x, &fn, e)) != OL_OK && rc != OL_EDOM)
      return rc;
    if (rc == OL_OK && fn <= fx + lin + 0.5 * *Lb * sq + 1e-12 * fabs(fx))
      return OL_OK;
    if (tries == 60)
      return s->vb ? ol_err_set(e, OL_ENUMERIC, "bcd: no sufficient "
                                "decrease on the variable block at "
                                "coordinate %d after 60 doublings of L_b",
                                s->blk[0] + 1)
        : ol_err_set(e, OL_ENUMERIC, "bcd: no sufficient decrease on "
                     "block %d after 60 doublings of L_b",
                     s->blk[0] / s->bs + 1);
    *Lb *= 2;
  }
}

/* Solve Hc_SS d = r on the coordinates idx[0..m-1] (r in, d out); 0 when
** Hc_SS is positive definite. */
static int bcd_solve (bcd_state *s, int n, const int *idx, int m, double *r)
{
  gather(s->A, s->Hc, n, idx, m);
  return LAPACKE_dposv(LAPACK_ROW_MAJOR, 'L', m, 1, s->A, m, r, 1);
}

/* (3n) the Newton block step, l1 = 0: d = -(H_bb)^-1 g_b at x, Armijo on t.
** Returns BCD_NOTPD (nothing done) when H_bb is not positive definite. */
static int bcd_newton (bcd_state *s, ol_ctx *c, double fx, ol_err *e)
{
  int n = c->n, k, rc, tries;
  double *d = s->w, gd = 0, t = c->sched;
  if ((rc = ol_ctx_hess(c, c->x, s->Hc, e)) != OL_OK) return rc;
  for (k = 0; k < s->m; k++) d[k] = -s->g[s->blk[k]];
  if (bcd_solve(s, n, s->blk, s->m, d) != 0) return BCD_NOTPD;
  for (k = 0; k < s->m; k++) {
    s->xb[k] = c->x[s->blk[k]];
    gd += s->g[s->blk[k]] * d[k];
  }
  if (!(gd < 0)) return OL_OK;   /* stationary on the block */
  for (tries = 0;; tries++) {
    double fn;
    for (k = 0; k < s->m; k++) c->x[s->blk[k]] = s->xb[k] + t * d[k];
    if ((rc = ol_ctx_value(c, c->x, &fn, e)) != OL_OK && rc != OL_EDOM)
      return rc;
    if (rc == OL_OK && fn <= fx + 1e-4 * t * gd + 1e-12 * fabs(fx))
      return OL_OK;
    if (tries == 60) {
      for (k = 0; k < s->m; k++) c->x[s->blk[k]] = s->xb[k];
      return ol_err_set(e, OL_ENUMERIC, "bcd: the Newton step on block "
                        "%d found no Armijo decrease in 60 halvings",
                        s->blk[0] + 1);
    }
    t *= 0.5;
  }
}

/* (3p) prox-Newton on the manifold, l1 > 0, after the proximal gradient
** step put z in c->x: the Newton step of f + l1 sign(z_S)'x on the block's
** nonzeros S, projected on z's orthant, kept when F does not rise. */
static int bcd_prox_newton (bcd_state *s, ol_ctx *c, ol_err *e)
{
  int n = c->n, k, m = 0, rc, *S = (int *)s->xb;   /* xb is bs doubles */
  double l1 = c->p->l1, fz, fy, Fz = 0, Fy = 0, *d = s->w;
  for (k = 0; k < s->m; k++)
    if (c->x[s->blk[k]] != 0) S[m++] = s->blk[k];
  if (m == 0) return OL_OK;
  if ((rc = ol_ctx_grad(c, c->x, &fz, s->z, e)) != OL_OK) return rc;
  if ((rc = ol_ctx_hess(c, c->x, s->Hc, e)) != OL_OK) return rc;
  for (k = 0; k < m; k++) {
    double sg = c->x[S[k]] > 0 ? 1 : -1;
    d[k] = -(s->z[S[k]] + l1 * sg);
  }
  if (bcd_solve(s, n, S, m, d) != 0) return OL_OK;
  /* y in place, z kept in s->z (the gradient is no longer needed) */
  for (k = 0; k < m; k++) {
    double zi = c->x[S[k]], yi = zi + d[k];
    if (yi * zi < 0) yi = 0;
    s->z[k] = zi;
    Fz += fabs(zi);
    Fy += fabs(yi);
    c->x[S[k]] = yi;
  }
  rc = ol_ctx_value(c, c->x, &fy, e);
  if (rc != OL_OK && rc != OL_EDOM) return rc;
  if (rc == OL_OK && fy + l1 * Fy <= fz + l1 * Fz + 1e-12 * fabs(fz))
    return OL_OK;
  for (k = 0; k < m; k++) c->x[S[k]] = s->z[k];
  return OL_OK;
}

static int bcd_step (void *st, ol_ctx *c, ol_err *e)
{
  bcd_state *s = st;
  double best = -1, fx, Lb;
  int b, i, lo, hi, rc, pick = 0;
  /* (1) full gradient (and value, for the backtracking) at x_t */
  if ((rc = ol_ctx_grad(c, c->x, &fx, s->g, e)) != OL_OK) return rc;
  /* (2) select the block */
  if (s->vb) {
    bcd_select_variable(s, c);
  } else {
    switch (s->rule) {
    case BCD_RANDOM:
      pick = (int)ol_rng_below(c->rng, s->nb);
      break;
    case BCD_CYCLIC:
      pick = (int)(c->t % s->nb);
      break;
    default:
      for (b = 0; b < s->nb; b++) {
        double v = s->rule >= BCD_GSD
          ? bcd_score_new(s, c, b, c->sched / s->L[b])
          : bcd_score(s, c, b, c->sched / s->L[b]);
        if (s->rule == BCD_GSL) v /= s->L[b];
        if (v > best) {
          best = v;
          pick = b;
        }
      }
      break;
    }
    lo = pick * s->bs;
    hi = lo + s->bs < c->n ? lo + s->bs : c->n;
    for (i = lo; i < hi; i++) s->blk[i - lo] = i;
    s->m = hi - lo;
  }
  /* (3) Newton on the block (l1 = 0), when its Hessian is positive
  ** definite */
  if (s->newton && !(c->p->l1 > 0)) {
    rc = bcd_newton(s, c, fx, e);
    if (rc != BCD_NOTPD) return rc;
  }
  /* (4) (proximal) gradient step on the block */
  if (!s->vb) {
    if ((rc = bcd_gradient(s, c, fx, &s->L[pick], e)) != OL_OK) return rc;
  } else {
    double l0 = s->lr > 0 ? 1 / s->lr : block_lmax(s, c->n, s->blk, s->m);
    if (!(l0 > 0)) l0 = 1;
    Lb = s->lr > 0 ? l0 : l0 * s->vscale;
    if ((rc = bcd_gradient(s, c, fx, &Lb, e)) != OL_OK) return rc;
    if (s->lr == 0) s->vscale = Lb / l0;
  }
  /* (5) with l1: prox-Newton on the block's nonzeros */
  if (s->newton && c->p->l1 > 0) return bcd_prox_newton(s, c, e);
  return OL_OK;
}

static void bcd_fini (void *st)
{
  bcd_state *s = st;
  ol_vec_free(s->g);
  ol_vec_free(s->L);
  ol_vec_free(s->xb);
  ol_vec_free(s->A);
  ol_vec_free(s->w);
  ol_vec_free(s->z);
  ol_vec_free(s->sc);
  ol_vec_free(s->D);
  ol_vec_free(s->Q);
  free(s->H0);
  free(s->Hc);
  free(s->blk);
  free(s->perm);
  s->g = s->L = s->xb = s->A = s->w = s->z = s->sc = s->D = s->Q = NULL;
  s->H0 = s->Hc = NULL;
  s->blk = s->perm = NULL;
}

const ol_method_type ol_optim_bcd = {
  .name = "bcd",
  .family = OL_OPTIM,
  .doc = "block coordinate descent: one block per step, "
          "random|cyclic|gs|gsl|gsd|gsq, Newton blocks",
  .ref = "Nesterov 2012; Nutini, Laradji & Schmidt 2022, JMLR",
  .params = bcd_params,
  .nparams = (int)(sizeof bcd_params / sizeof bcd_params[0]),
  .size = sizeof(bcd_state),
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = bcd_init,
  .step = bcd_step,
  .fini = bcd_fini,
  .probes = OL_MSET_NONE,
};
