/*
** core/optim/bcd.c -- block coordinate descent with random, cyclic,
** Gauss-Southwell and Gauss-Southwell-Lipschitz block selection.
**
** References: Nesterov 2012, SIAM J. Optim. 22(2), "Efficiency of
** coordinate descent methods on huge-scale optimization problems" (RCDM
** with alpha = 0: uniform block, step 1/L_b); Nutini, Laradji & Schmidt
** 2022, JMLR 23, "Let's make block coordinate descent converge faster"
** (the cyclic, GS and GSL selection rules with the fixed-step block
** gradient update, their baseline form; their new greedy rules, variable
** blocks and Newton block updates are not implemented).
**
** x is cut into nb = ceil(n / bs) contiguous blocks of bs coordinates
** (the last may be shorter).  One step updates ONE block b_t:
**
**   x_b <- S(x_b - a grad_b f(x), a l1),  a = sched_t lr    (lr > 0)
**                                         a = sched_t / L_b (lr = 0)
**   random  b_t uniform on 0..nb-1 (the run's generator)
**   cyclic  b_t = t mod nb
**   gs      b_t = argmax_b ||G_b||
**   gsl     b_t = argmax_b ||G_b||^2 / L_b
**
** S is soft thresholding for F = f + l1 ||x||_1 (identity when p->l1 = 0,
** the plain block gradient step) and G_b = (x_b - S(x_b - a grad_b f,
** a l1)) / a the block's gradient mapping, = grad_b f when l1 = 0 (the
** GS-r form of Nutini et al. for the composite case).  Like gd, bcd
** ignores a constraint set.
**
** L_b, the block Lipschitz constant, is lambda_max of the diagonal block
** H_bb of the Hessian TAKEN ONCE AT x0 in init (exact for quadratics; the
** Hessian's diagonal entry H_ii when bs = 1), by LAPACKE dsyev; not the
** block's largest diagonal entry, since 1/max_i H_ii can exceed 2/L_b and
** diverge once bs >= 3 on a non-diagonal block.  With lr = 0 each block
** step is safeguarded by backtracking on the descent lemma (Nesterov 2012,
** the adaptive variant; Beck & Teboulle 2009 for the proximal form):
**   accept x_b' when f(x') <= f(x) + g_b'(x_b' - x_b) + L_b/2 ||x_b' - x_b||^2,
**   else L_b <- 2 L_b and retry (kept for later steps),
** so a curvature taken at x0 that underestimates the block's Lipschitz
** constant elsewhere (smoothabs) cannot make bcd diverge; without a
** Hessian, or where H_bb is not positive at x0, L_b starts at 1 and the
** backtracking finds it.  With lr > 0 every L_b = 1/lr and there is no
** safeguard (the textbook fixed-step method); gsl then selects as gs.
** Cost: the engine has no partial-gradient oracle, so every step
** evaluates the FULL gradient (ngev counts one per block update): n / bs
** steps cost as many gradients as n / bs steps of gd, and the greedy rules
** would need it anyway.
*/
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>

#include "method.h"
#include "penalty.h"
#include "vec.h"

enum { BCD_RANDOM, BCD_CYCLIC, BCD_GS, BCD_GSL };

typedef struct bcd_state {
  int rule, bs, nb;
  double lr;
  double *g;        /* full gradient, n */
  double *L;        /* L_b, nb */
  double *xb;       /* block backup for the backtracking, bs */
} bcd_state;

static const ol_param bcd_params[] = {
  {"rule", OL_P_ENUM, BCD_RANDOM, 0, 0, "block selection rule",
   "random|cyclic|gs|gsl"},
  {"bs", OL_P_INT, 1, 1, 1e8, "block size (coordinates per block)", NULL},
  {"lr", OL_P_REAL, 0, 0, INFINITY,
   "step size; 0: 1/L_b, from the Hessian at x0 and backtracking", NULL},
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

static int bcd_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  bcd_state *s = st;
  int b, rc;
  s->rule = (int)par[0];
  s->bs = par[1] < c->n ? (int)par[1] : c->n;
  s->lr = par[2];
  s->nb = (c->n + s->bs - 1) / s->bs;
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->L = ol_vec_new(s->nb, e)) == NULL) return OL_ENOMEM;
  if ((s->xb = ol_vec_new(s->bs, e)) == NULL) return OL_ENOMEM;
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
  return OL_OK;
}

/* The penalty's prox of step a at v (soft threshold at a l1 for the l1
** norm; identity when l1 = 0). */
static double bcd_soft (const ol_ctx *c, double v, double a)
{
  return c->p->l1 > 0 ? ol_penalty_prox1(c->p, v, a) : v;
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

static int bcd_step (void *st, ol_ctx *c, ol_err *e)
{
  bcd_state *s = st;
  double best = -1, a, fx;
  int b, i, lo, hi, rc, pick = 0, tries;
  /* (1) full gradient (and value, for the backtracking) at x_t */
  if ((rc = ol_ctx_grad(c, c->x, &fx, s->g, e)) != OL_OK) return rc;
  /* (2) select the block */
  switch (s->rule) {
  case BCD_RANDOM:
    pick = (int)ol_rng_below(c->rng, s->nb);
    break;
  case BCD_CYCLIC:
    pick = (int)(c->t % s->nb);
    break;
  default:
    for (b = 0; b < s->nb; b++) {
      double v = bcd_score(s, c, b, c->sched / s->L[b]);
      if (s->rule == BCD_GSL) v /= s->L[b];
      if (v > best) {
        best = v;
        pick = b;
      }
    }
    break;
  }
  /* (3) (proximal) gradient step on that block only */
  lo = pick * s->bs;
  hi = lo + s->bs < c->n ? lo + s->bs : c->n;
  for (i = lo; i < hi; i++) s->xb[i - lo] = c->x[i];
  for (tries = 0;; tries++) {
    double lin = 0, sq = 0, fn;
    a = c->sched / s->L[pick];
    for (i = lo; i < hi; i++) {
      double d;
      c->x[i] = bcd_soft(c, s->xb[i - lo] - a * s->g[i], a);
      d = c->x[i] - s->xb[i - lo];
      lin += s->g[i] * d;
      sq += d * d;
    }
    if (s->lr > 0 || sq == 0) return OL_OK;
    /* (4) lr = 0: sufficient decrease, else double L_b and retry */
    if ((rc = ol_ctx_value(c, c->x, &fn, e)) != OL_OK && rc != OL_EDOM)
      return rc;
    if (rc == OL_OK && fn <= fx + lin + 0.5 * s->L[pick] * sq
        + 1e-12 * fabs(fx))
      return OL_OK;
    if (tries == 60)
      return ol_err_set(e, OL_ENUMERIC, "bcd: no sufficient decrease on "
                        "block %d after 60 doublings of L_b", pick + 1);
    s->L[pick] *= 2;
  }
}

static void bcd_fini (void *st)
{
  bcd_state *s = st;
  ol_vec_free(s->g);
  ol_vec_free(s->L);
  ol_vec_free(s->xb);
  s->g = s->L = s->xb = NULL;
}

const ol_method_type ol_optim_bcd = {
  .name = "bcd",
  .family = OL_OPTIM,
  .doc = "block coordinate descent: one block per step, random|cyclic|gs|gsl",
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
